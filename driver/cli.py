"""`python -m driver VERB`: thin adapters over plain functions; one line per error."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from comfy_nodes.core.recipes import RecipeError, load_recipes, recipe_for
from comfy_nodes.core.video import ClipError
from driver.outputs import safe_name


class UsageError(ValueError):
    pass


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m driver",
                                description="Turn H3 clips into game-ready sprite sheets.")
    sub = p.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True
    s = sub.add_parser("process", help="one clip -> sheet WebP + JSON")
    s.add_argument("clip", type=Path)
    s.add_argument("--action", required=True, help="recipe name: idle, walk, run, attack, ...")
    s.add_argument("--out", required=True, type=Path, help="output folder")
    s.add_argument("--name", help="file stem (default: the action)")
    s.add_argument("--character", default="character", help="character id for frame names")
    s.add_argument("--recipes", type=Path, help="YAML/JSON file overriding recipes")
    s.add_argument("--cell-height", type=int, default=300)
    s.add_argument("--max-width", type=int, default=8000)
    s.add_argument("--portrait", type=Path,
                   help="the character's RGBA portrait: its colours guide the despill")
    s.add_argument("--keep-frames", action="store_true",
                   help="also write each cell as PNG into a new timestamped folder")
    s.add_argument("--json", action="store_true", help="print the result as JSON")

    s = sub.add_parser("check", help="check a joblist without a server (roster, portraits, "
                                     "workflow markers)")
    s.add_argument("joblist", type=Path)

    s = sub.add_parser("status", help="what the last runs of a joblist left: per job status, "
                                      "grade, QC flags, tries, error")
    s.add_argument("joblist", type=Path)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("batch", help="render a joblist: resumable, self-healing")
    s.add_argument("joblist", type=Path)
    s.add_argument("--only", help="actions to run, comma-separated (e.g. idle,walk)")
    s.add_argument("--chars", help="characters to run, comma-separated (e.g. hero,boar)")
    s.add_argument("--force", action="store_true",
                   help="re-run every selected job (also FORCE=1)")
    s.add_argument("--reuse-video", action="store_true",
                   help="never generate: re-run only post-processing on existing clips; "
                        "no server needed")
    s.add_argument("--dry-run", action="store_true", help="print the plan and why, then stop")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar or job lines")
    return p


def cmd_process(args: argparse.Namespace) -> int:
    from driver.process import process

    if args.cell_height < 8 or args.max_width < 8:
        raise UsageError("--cell-height and --max-width must be at least 8 pixels")
    if args.max_width > 16383:
        raise UsageError("--max-width above 16383 exceeds WebP's side limit")
    stem = safe_name(args.name or args.action, "--name")
    character = safe_name(args.character, "--character")
    recipe = recipe_for(args.action, load_recipes(args.recipes))
    done = process(args.clip, args.action, recipe, args.out, stem, character=character,
                   cell_height=args.cell_height, max_width=args.max_width,
                   keep_frames=args.keep_frames, portrait=args.portrait)
    anim = done.result.meta["meta"]["animation"]
    size = done.result.meta["meta"]["size"]
    if args.json:
        print(json.dumps({"webp": str(done.webp), "json": str(done.json), **anim,
                          "size": size, "backup": str(done.backup) if done.backup else None,
                          "timings": done.result.timings}))
    else:
        grade = f", loop {anim['loop_grade']} ({anim['loop_score']})" if anim["loop"] else ""
        flags = ", QC " + " ".join(anim["qc"]) if anim["qc"] else ""
        print(f"wrote {done.webp} ({anim['frame_count']} frames @ {anim['fps']:g} fps, "
              f"{size['w']}x{size['h']}{grade}{flags})")
        if done.backup:
            print(f"previous sheet moved to {done.backup}")
        if done.frames_dir:
            print(f"frames in {done.frames_dir}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from driver.check import check
    from driver.joblist import load

    problems = check(load(args.joblist))
    for p in problems:
        print(f"driver check: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"{args.joblist}: ok")
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from driver.joblist import load
    from driver.store import Store

    loaded = load(args.joblist)
    db = loaded.out / "h3sprite.sqlite"
    if not db.exists():
        print(f"driver status: no batch has run for {args.joblist} yet ({db} is missing)",
              file=sys.stderr)
        return 1
    store = Store(db)
    rows: list[dict[str, Any]] = []
    for cid in loaded.spec.characters:
        for action in loaded.actions_of(cid):
            row = store.get(f"{cid}/{action}")
            entry: dict[str, Any] = {
                "job": f"{cid}/{action}", "status": row.status if row else "never run",
                "attempts": row.attempts if row else 0, "error": row.error if row else None}
            sheet = Path(row.outputs["json"]) if row and row.outputs.get("json") else None
            if sheet is not None and sheet.is_file():
                anim = json.loads(sheet.read_text())["meta"]["animation"]
                entry.update(grade=anim["loop_grade"] or "one-shot", qc=anim["qc"])
            rows.append(entry)
    store.close()
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            extra = f" {r.get('grade', '')} QC {' '.join(r.get('qc', [])) or '-'}" \
                if "grade" in r else ""
            err = f"  ({r['error']})" if r["error"] else ""
            print(f"{r['job']:<24} {r['status']:<10} tries {r['attempts']}{extra}{err}")
    return 1 if any(r["status"] == "failed" for r in rows) else 0


def _csv(text: str | None) -> list[str] | None:
    return [t.strip() for t in text.split(",") if t.strip()] if text else None


def cmd_batch(args: argparse.Namespace) -> int:
    from driver.batch import Batch, Options, log_to_file, summary_lines
    from driver.joblist import load

    loaded = load(args.joblist)
    opts = Options(only=_csv(args.only), chars=_csv(args.chars),
                   force=args.force or os.environ.get("FORCE", "") not in ("", "0"),
                   reuse_video=args.reuse_video, dry_run=args.dry_run, quiet=args.quiet)
    batch = Batch(loaded, opts)
    if not args.dry_run:
        log_path = log_to_file(loaded.out)
    summary = batch.run()
    if args.dry_run:
        return 0
    for line in summary_lines(summary):
        print(line)
    print(f"actions: {loaded.out / 'actions.json'}; log: {log_path}")
    return summary.exit_code


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        if args.verb == "process":
            return cmd_process(args)
        if args.verb == "check":
            return cmd_check(args)
        if args.verb == "status":
            return cmd_status(args)
        if args.verb == "batch":
            return cmd_batch(args)
    except (ClipError, RecipeError, UsageError, ValueError) as e:
        for line in str(e).splitlines():
            print(f"driver {args.verb}: {line}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"driver {args.verb}: {e.strerror}: {e.filename}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"driver {args.verb}: interrupted; state is saved, run again to resume",
              file=sys.stderr)
        return 130
    except Exception as e:  # a bug of ours: one line here, the traceback when asked for
        if os.environ.get("H3SPRITE_DEBUG"):
            raise
        print(f"driver {args.verb}: internal error {type(e).__name__}: {e} (set "
              "H3SPRITE_DEBUG=1 for the traceback, and please report it)", file=sys.stderr)
        return 70
    raise AssertionError(args.verb)
