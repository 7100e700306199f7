"""`python -m driver VERB`: thin adapters over plain functions; one line per error."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

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
    s.add_argument("--keep-frames", action="store_true",
                   help="also write each cell as PNG into a new timestamped folder")
    s.add_argument("--json", action="store_true", help="print the result as JSON")
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
                   keep_frames=args.keep_frames)
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


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        if args.verb == "process":
            return cmd_process(args)
    except (ClipError, RecipeError, UsageError, ValueError) as e:
        print(f"driver {args.verb}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"driver {args.verb}: {e.strerror}: {e.filename}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    raise AssertionError(args.verb)
