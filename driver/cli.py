"""`python -m driver VERB`: thin adapters over plain functions; one line per error."""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from comfy_nodes.core import snap
from comfy_nodes.core.recipes import RecipeError, load_recipes, recipe_for
from comfy_nodes.core.util import given_path
from comfy_nodes.core.video import ClipError
from driver.exitcodes import Exit
from driver.outputs import ACTIONS_NAME, STATE_NAME, out_problem, safe_name

# A clip slower than this is no video model's output as it came (H3 draws 24 frames a
# second, others 16): most likely ComfyUI's SaveAnimatedWEBP at its default of 6 fps, which
# stretches H3's 121 frames over 20 s; its loop is then sought 4x too short, with no flag.
SLOW_CLIP_FPS = 10

if TYPE_CHECKING:
    from driver.process import Processed


class UsageError(ValueError):
    pass


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m driver",
                                description="Turn H3 clips into game-ready sprite sheets.")
    sub = p.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True
    s = sub.add_parser("process", help="one clip -> sheet WebP + JSON")
    # Path flags stay text until given_path checks them: a Path would make "" the folder "."
    s.add_argument("clip")
    s.add_argument("--action", required=True, help="recipe name: idle, walk, run, attack, ...")
    s.add_argument("--out", required=True, help="output folder")
    s.add_argument("--name", help="file stem (default: the action)")
    s.add_argument("--character", default="character", help="character id for frame names")
    s.add_argument("--recipes", help="YAML/JSON file overriding recipes")
    s.add_argument("--cell-height", type=int, default=300)
    s.add_argument("--max-width", type=int, default=8000)
    s.add_argument("--formats", default="texturepacker",
                   help="comma-separated: texturepacker (always), aseprite, godot, frames")
    s.add_argument("--image-format", default="webp", choices=["webp", "png"],
                   help="the strip's image: lossless WebP (default) or PNG")
    s.add_argument("--portrait",
                   help="the character's RGBA portrait: its colours guide the despill")
    s.add_argument("--keep-frames", action="store_true",
                   help="same as adding frames to --formats (STEM_frames/0000.png ...)")
    s.add_argument("--json", action="store_true", help="print the result as JSON")

    s = sub.add_parser("check", help="check a joblist without a server (roster, portraits, "
                                     "workflow markers)")
    s.add_argument("joblist")

    s = sub.add_parser("status", help="what the last runs of a joblist left: per job status, "
                                      "grade, QC flags, tries, error")
    s.add_argument("joblist")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("review", help="one HTML page to review a batch's sheets: animated, "
                                      "graded, filterable, with re-roll commands and rejects")
    s.add_argument("joblist")
    s.add_argument("--out", help="the page (default: the joblist's out/review.html)")

    s = sub.add_parser("batch", help="render a joblist: resumable, self-healing")
    s.add_argument("joblist")
    s.add_argument("--only", help="jobs to run, comma-separated: hero/walk (one job), walk "
                                  "(every character's), hero/ (all of hero's), @list.txt "
                                  "(one per line, as driver review exports)")
    s.add_argument("--reroll", action="store_true",
                   help="draw a new seed for the --only jobs (kept for later runs); the old "
                        "sheet is backed up")
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
    from comfy_nodes.core.export import ImageFormat, parse_formats
    from comfy_nodes.core.imagefile import check_regular
    from comfy_nodes.core.sheet import MIN_CELL, WEBP_MAX_SIDE, max_width_problem
    from driver.process import inputs_in_the_way, process

    clip = given_path(args.clip, "the clip path", "give the video file to make the sheet from")
    # a FIFO or device would block the decoder for ever
    check_regular(clip, "clip", kind="a video file")
    out = given_path(args.out, "--out", "give the folder for the sheet (--out . for the "
                     "current one)")
    recipes = None if args.recipes is None else given_path(
        args.recipes, "--recipes", "give the YAML or JSON recipe file, or drop --recipes")
    portrait = None if args.portrait is None else given_path(
        args.portrait, "--portrait", "give the character's portrait image, or drop "
        "--portrait")
    if problem := out_problem(out, "--out"):
        raise UsageError(problem)
    if args.cell_height < MIN_CELL:
        raise UsageError(f"--cell-height {args.cell_height} is under {MIN_CELL} px, the least "
                         f"usable cell: give {MIN_CELL} or more")
    if args.max_width > WEBP_MAX_SIDE:
        raise UsageError(f"--max-width {args.max_width} is over {WEBP_MAX_SIDE} px, the widest "
                         f"strip a WebP can hold (and the widest written): give "
                         f"{WEBP_MAX_SIDE} or less")
    # `is not None`: --name "" (an unset $NAME) is refused, not read as the action
    stem = (safe_name(args.name, "--name") if args.name is not None
            else safe_name(args.action, "--action"))
    character = safe_name(args.character, "--character")
    formats = parse_formats(args.formats + (",frames" if args.keep_frames else ""),
                            "--formats")
    if problem := inputs_in_the_way(out, stem, {"the clip": clip, "--portrait": portrait}):
        raise UsageError(problem)
    recipe = recipe_for(args.action, load_recipes(recipes))
    if problem := max_width_problem(args.max_width, recipe.frames, args.action, "--max-width"):
        raise UsageError(problem)
    done = process(clip, args.action, recipe, out, stem, character=character,
                   cell_height=args.cell_height, max_width=args.max_width, formats=formats,
                   image_format=ImageFormat(args.image_format), portrait=portrait)
    try:
        _print_processed(args, done)
    except KeyboardInterrupt:  # the files are there: "nothing was written" would be false
        raise KeyboardInterrupt("interrupted; the sheet was written: "
                                f"{done.written.image}") from None
    return Exit.OK


def _print_processed(args: argparse.Namespace, done: Processed) -> None:
    sheet, written = done.sheet, done.written
    if args.json:
        print(json.dumps({
            "image": str(written.image), "json": str(written.json),
            "files": {f.value: str(p) for f, p in written.files.items()},
            "name": sheet.action, "fps": sheet.fps, "loop": sheet.loop,
            "frame_count": sheet.frame_count, "loop_score": sheet.loop_score,
            "loop_grade": sheet.loop_grade, "qc": list(sheet.qc),
            "size": {"w": sheet.size[0], "h": sheet.size[1]},
            "backup": str(written.backup) if written.backup else None,
            "timings": sheet.timings}))
    else:
        grade = (f", loop {sheet.loop_grade} ({sheet.loop_score})" if sheet.loop_grade else
                 ", loop not graded" if sheet.loop else "")
        flags = ", QC " + " ".join(sheet.qc) if sheet.qc else ""
        print(f"wrote {written.image} ({sheet.frame_count} frames @ {sheet.fps:g} fps, "
              f"{sheet.size[0]}x{sheet.size[1]}{grade}{flags})")
        for fmt, path in written.files.items():
            print(f"  {fmt.value}: {path}")
        if written.backup:
            print(f"previous sheet moved to {written.backup}")
    if (rate := sheet.window.clip_fps) < SLOW_CLIP_FPS:
        print(f"driver process: note: the clip plays at {rate:.1f} fps; H3 draws {snap.FPS} a "
              "second, and the loop is sought at the clip's rate. Saved by ComfyUI's "
              "SaveAnimatedWEBP (6 fps unless set)? Save it again at 24 fps", file=sys.stderr)


def _joblist(args: argparse.Namespace) -> Path:
    return given_path(args.joblist, "the joblist path", "give the joblist file (YAML)")


def cmd_check(args: argparse.Namespace) -> int:
    from driver.check import check
    from driver.joblist_load import load

    joblist = _joblist(args)
    problems = check(load(joblist))
    for p in problems:
        print(f"driver check: {p if len(p) <= 500 else p[:500] + '...'}", file=sys.stderr)
    if problems:
        return Exit.FAILED
    print(f"{joblist}: ok")
    return Exit.OK


def _batch_database(out: Path, joblist: Path, verb: str) -> Path | None:
    """The batch's database in out, or None (said in one line) when no batch has run."""
    db = out / STATE_NAME
    if not db.exists():
        print(f"driver {verb}: no batch has run for {joblist} yet ({db} is missing)",
              file=sys.stderr)
        return None
    return db


def cmd_status(args: argparse.Namespace) -> int:
    from driver.joblist_load import load
    from driver.report import any_failed, status_lines, status_rows
    from driver.store import Store

    joblist = _joblist(args)
    loaded = load(joblist)
    db = _batch_database(loaded.out, joblist, "status")
    if db is None:
        return Exit.FAILED
    store = Store(db, read_only=True)  # status writes nothing
    rows = status_rows(loaded, store)
    store.close()
    if args.json:
        print(json.dumps(rows))
    else:
        for line in status_lines(rows, len(loaded.servers)):
            print(line)
    return Exit.FAILED if any_failed(rows) else Exit.OK


def cmd_review(args: argparse.Namespace) -> int:
    from driver.joblist_load import load
    from driver.review import write

    joblist = _joblist(args)
    out = None if args.out is None else given_path(
        args.out, "--out", "give the page's file name, or drop --out for the joblist's "
        "out/review.html")
    loaded = load(joblist)
    if _batch_database(loaded.out, joblist, "review") is None:
        return Exit.FAILED
    path, n = write(loaded, str(joblist), out)
    print(f"wrote {path} ({n} jobs); open it in a browser: {path.resolve().as_uri()}")
    return Exit.OK


def _csv(text: str | None, flag: str = "--chars") -> list[str] | None:
    """A comma-separated flag's names; None where the flag is not given. Given empty (an
    unset `$CHARS` in a script) it is refused: read as not given, it ran the whole roster."""
    if text is None:
        return None
    names = [t.strip() for t in text.split(",") if t.strip()]
    if not names:
        raise UsageError(f"{flag} {text!r} names nothing: give names, or leave the flag out")
    return names


ENV_ON = ("1", "true", "yes", "on")
ENV_OFF = ("", "0", "false", "no", "off")


def _env_switch(name: str) -> bool:
    """An on/off environment variable: FORCE=false had forced every job (anything but ""
    and "0" counted as on). A value that is neither is refused."""
    value = os.environ.get(name, "").strip().lower()
    if value in ENV_OFF:
        return False
    if value in ENV_ON:
        return True
    raise UsageError(f"{name}={os.environ[name]!r} is neither on nor off: give {name}=1 "
                     f"(or true, yes, on) or {name}=0 (or false, no, off, empty)")


def cmd_batch(args: argparse.Namespace) -> int:
    from driver import select
    from driver.batch import Batch, Options, log_to_file, summary_lines
    from driver.joblist_load import load

    loaded = load(_joblist(args))
    if args.reroll and not args.only:
        raise UsageError("--reroll needs --only: name the jobs to re-roll (e.g. --only hero/walk)")
    if args.reroll and args.reuse_video:
        raise UsageError("--reroll makes a new clip; it cannot be used with --reuse-video")
    # `is not None`: an empty --only (an unset $JOBS) names no job, and select.parse says so
    opts = Options(only=select.parse(args.only) if args.only is not None else None,
                   chars=_csv(args.chars),
                   reroll=args.reroll,
                   force=args.force or _env_switch("FORCE"),
                   reuse_video=args.reuse_video, dry_run=args.dry_run, quiet=args.quiet)
    batch = Batch(loaded, opts)
    if args.dry_run:
        batch.run()
        return Exit.OK
    try:
        log_path = log_to_file(loaded.out)
        summary = batch.run()
    finally:
        batch.release()
    try:
        for line in summary_lines(summary):
            print(line)
        print(f"actions: {loaded.out / ACTIONS_NAME}; log: {log_path}", flush=True)
    except BrokenPipeError:  # the jobs' outcome is the exit code, whoever stopped reading
        quiet_stdout()
    return summary.exit_code


def os_error_line(e: OSError) -> str:
    """One line for an OSError: a file's ("No space left on device: out/x.webp"), or an HTTP
    one (requests' errors are OSErrors without strerror: a ComfyUI server whose folder was
    removed under it answered /object_info with 500, and the line read "None: None")."""
    import requests  # only on this path: `driver process` never loads it

    from service.api import request_error_line

    if isinstance(e, requests.RequestException):
        return request_error_line(e)
    if e.strerror:
        line = f"{e.strerror}: {e.filename}" if e.filename else e.strerror
        return line + FILE_ERROR_FIX.get(e.errno or 0, "")
    return str(e) or type(e).__name__


# What to do about a file the system refused, after its words ("Operation not permitted:
# out/walk.json" named no fix).
FILE_ERROR_FIX = {
    errno.EACCES: ": check its permissions and its folder's (ls -l), or choose another "
                  "folder",
    errno.EPERM: ": the system forbids changing it (an immutable or another user's file?); "
                 "choose another folder",
    errno.EROFS: ": that disk is mounted read-only; choose a folder on another",
    errno.ENOTDIR: ": a file stands where a folder is needed; choose another path",
    errno.ENOSPC: ": free some space on that disk, or choose a folder on another",
}


def interrupted_line(args: argparse.Namespace) -> str:
    """What a Ctrl-C left, per verb: only the batch keeps state to resume from."""
    if args.verb == "batch" and not args.dry_run:
        return "interrupted; state is saved, run again to resume"
    if args.verb == "review":
        return "interrupted; no page was written (an earlier one is as it was)"
    return "interrupted; nothing was written"  # process before its files, check, status


def _stderr(line: str) -> None:
    """The verb's last word on stderr; where stderr's reader has gone (`2>&1 | head`), the
    exit code alone says it."""
    with contextlib.suppress(OSError):
        print(line, file=sys.stderr, flush=True)


def quiet_stdout() -> None:
    """Point stdout at the null device: what is left in its buffer would fail again at
    exit ("Exception ignored ... BrokenPipeError"), as Python's signal docs advise."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as e:
        return Exit.USAGE if e.code else Exit.OK
    try:
        if args.verb == "process":
            return cmd_process(args)
        if args.verb == "check":
            return cmd_check(args)
        if args.verb == "status":
            return cmd_status(args)
        if args.verb == "review":
            return cmd_review(args)
        if args.verb == "batch":
            return cmd_batch(args)
    except (ClipError, RecipeError, UsageError, ValueError) as e:
        for line in str(e).splitlines():  # a user's value never makes a line unbounded
            _stderr(f"driver {args.verb}: {line if len(line) <= 500 else line[:500] + '...'}")
        return Exit.FAILED
    except BrokenPipeError:  # `driver status --json | head`: the reader has all it wanted
        quiet_stdout()
        return Exit.PIPE_CLOSED
    except OSError as e:
        _stderr(f"driver {args.verb}: {os_error_line(e)}")
        return Exit.FAILED
    except KeyboardInterrupt as e:  # the verb's own words when it said what was left
        _stderr(f"driver {args.verb}: {str(e) or interrupted_line(args)}")
        return Exit.INTERRUPTED
    except Exception as e:  # a bug of ours: one line here, the traceback when asked for
        if os.environ.get("H3SPRITE_DEBUG"):
            raise
        _stderr(f"driver {args.verb}: internal error {type(e).__name__}: {e} (set "
                "H3SPRITE_DEBUG=1 for the traceback, and please report it)")
        return Exit.INTERNAL
    raise AssertionError(args.verb)
