"""Output files: written atomically; a file being replaced is moved aside, never deleted."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
from datetime import datetime
from pathlib import Path

import filelock

from comfy_nodes.core.names import safe_name
from comfy_nodes.core.util import folder_problem, temp_path, unique_path

__all__ = ["ACTIONS_NAME", "LOCK_NAME", "LOGS_DIR", "OLD_DIR", "REVIEW_NAME", "STATE_NAME",
           "OutBusy", "back_up", "batch_running", "hold", "new_folder", "out_problem",
           "own_names", "safe_name", "timestamp"]

# The out folder's own files and folders, beside one folder per character.
OLD_DIR = "_actions_old"  # sheets and clips being replaced
ACTIONS_NAME = "actions.json"  # the game's index of every sheet
STATE_NAME = "h3sprite.sqlite"  # the batch's state (with SQLite's -wal, -shm, -journal)
LOGS_DIR = "_logs"  # one log per batch
REVIEW_NAME = "review.html"  # `driver review`'s page


def timestamp() -> str:
    """Local time to the millisecond: two runs started in the same second still get names
    that sort in the order they were made (unique_path's "-1" would sort before the bare
    name, since "-" comes before ".")."""
    return datetime.now().strftime("%Y%m%d-%H%M%S-%f")[:-3]


def new_folder(parent: Path, prefix: str) -> Path:
    """A new, empty, timestamped folder (scratch space is created, never cleared)."""
    return unique_path(parent, f"{prefix}-{timestamp()}", directory=True)


def out_problem(out: Path, what: str) -> str | None:
    """Why sheets cannot be written into `out`, nor the ones they replace moved to its
    _actions_old/ (a file in the way, a read-only folder), as one line; None when they can.
    Creates nothing: asked before any work, so a bad folder costs no decode or GPU time."""
    return folder_problem(out, what) or folder_problem(
        out / OLD_DIR, "backup folder", "move that file away (sheets being replaced are "
        "moved into this folder)")


def back_up(paths: list[Path], out_root: Path) -> Path | None:
    """Move those of `paths` that exist into out_root/_actions_old/<timestamp>/, keeping
    their path relative to out_root. Returns the backup folder, or None if nothing moved.
    All or none: where one will not move (an immutable file), those moved go back and the
    error is raised."""
    existing = [p for p in paths if p.exists()]
    if not existing:
        return None
    folder = new_folder(out_root / OLD_DIR, "superseded")
    moved: list[tuple[Path, Path]] = []
    try:
        for p in existing:
            rel = _under(p, out_root)
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            _move(p, target)
            moved.append((p, target))
    except BaseException:  # an OSError, or Ctrl-C between two moves
        for p, target in reversed(moved):
            with contextlib.suppress(OSError):
                _move(target, p)
        _remove_empty(folder)  # only folders left empty: a file that did not go back stays
        raise
    return folder


def _under(path: Path, root: Path) -> Path:
    """path relative to root, as given (a character folder linked to another disk keeps
    its name) or as resolved; its bare name where it lies elsewhere."""
    for p, r in ((path.absolute(), root.absolute()), (path.resolve(), root.resolve())):
        try:
            rel = p.relative_to(r)
        except ValueError:
            continue
        if ".." not in rel.parts:  # lexical: never a way out of the backup folder
            return rel
    return Path(path.name)


def _move(src: Path, dst: Path) -> None:
    """A rename, or on another filesystem a copy and then the original's removal (a file
    or a sheet's frames folder). The copy is whole before the original goes, and a copy
    that fails half way is removed; a folder is first renamed aside on its own disk, so
    its removal never leaves part of it in place."""
    try:
        os.replace(src, dst)
        return
    except OSError as e:
        if e.errno != errno.EXDEV:
            raise
    folder = src.is_dir() and not src.is_symlink()
    try:
        if folder:
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst, follow_symlinks=False)
    except BaseException:
        _remove(dst)  # a partial copy must not look like a backup
        raise
    try:
        if folder:
            aside = temp_path(src.with_name(src.name + ".old"))  # not the new one's
            os.replace(src, aside)  # atomic on its own disk: gone from its place whole
            shutil.rmtree(aside, ignore_errors=True)  # what is left, disk.sweep's
        else:
            src.unlink()
    except BaseException:
        _remove(dst)
        raise


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)


def _remove_empty(folder: Path) -> None:
    """folder and the folders below it, those that are empty (rmdir refuses any other)."""
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir() and not p.is_symlink()),
                      key=lambda p: len(p.parts), reverse=True):
        with contextlib.suppress(OSError):
            sub.rmdir()
    with contextlib.suppress(OSError):
        folder.rmdir()


LOCK_NAME = "h3sprite.lock"  # in the out folder, beside the batch's database


def own_names() -> tuple[str, ...]:
    """Every name the batch gives a file or folder of its own directly in the out folder:
    a character of one of these names would have its sheets' folder meet it."""
    return (OLD_DIR, ACTIONS_NAME, STATE_NAME, *(STATE_NAME + x for x in ("-wal", "-shm",
            "-journal")), LOGS_DIR, REVIEW_NAME, LOCK_NAME)


class OutBusy(ValueError):
    """Another batch is writing the out folder; the message names it and what to do."""


def hold(out: Path) -> filelock.BaseFileLock:
    """The out folder's lock, held until released or the process ends (the kernel lets an
    flock go even after SIGKILL): one batch writes an out folder at a time. Two at once on
    a warm server each made every sheet, backing each clip and sheet up two or three times;
    on a cold one the second failed with "refused the connection". filelock (already here
    under huggingface_hub) is the flock and, on Windows, the msvcrt lock."""
    out.mkdir(parents=True, exist_ok=True)
    lock = filelock.FileLock(out / LOCK_NAME, timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        from service.process import who_holds  # only on this path: it reads every process

        pids = sorted({h["pid"] for h in who_holds(out / LOCK_NAME)} - {os.getpid()})
        who = f" (pid {', '.join(map(str, pids))})" if pids else ""
        raise OutBusy(f"another batch{who} is writing {out}: wait for it to end, or give "
                      "this joblist another out:") from None
    return lock


def batch_running(out: Path) -> bool:
    """Whether a batch holds the out folder's lock now, tried on the file opened read-only
    and let go at once: `driver status` only reads (another user's out folder, a read-only
    mount). A job is called "running" only while its batch lives. Where the lock cannot be
    tried (no flock: Windows), the rows are shown as stored."""
    path = out / LOCK_NAME
    if not path.is_file():
        return False
    try:
        import fcntl
    except ImportError:
        return True
    try:
        with open(path, "rb") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(f, fcntl.LOCK_UN)
            return False
    except OSError:
        return True
