"""Small helpers every part of h3sprite uses, each in one place: write a file so a reader
never sees half of it, make a new name that collides with nothing, wait for a condition
with a deadline, hash a file. Standard library only (this runs inside ComfyUI too)."""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
# Every temporary file or folder we write beside a target starts so (then its name, the
# writer's pid and thread, ".tmp"): a leftover of a killed run is known as ours by its name
# alone, never confused with a user's own ".notes.123.tmp" (driver/disk.py sweeps only these).
TEMP_PREFIX = ".h3sprite-"


def atomic_write(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Write beside, fsync, then rename: a reader never sees half a file. `data` may be
    chunks (a download), so memory follows the chunk, not the file."""
    publish(staged_write(path, data), path)


def publish(tmp: Path, path: Path) -> None:
    """Rename a staged file (staged_write) onto `path`; on failure remove it, and the
    error names `path`."""
    try:
        os.replace(tmp, path)
    except BaseException as e:
        _discard(tmp, path, e)
        raise


def temp_path(path: Path) -> Path:
    """The temporary name beside `path` this process and thread write it under first."""
    return path.with_name(f"{TEMP_PREFIX}{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")


def staged_write(path: Path, data: bytes | Iterable[bytes]) -> Path:
    """`data` written and fsynced under temp_path(path), which is returned: os.replace it
    onto `path` to publish it (atomic_write does at once; a sheet's writer stages every
    file first, so a failure leaves the previous sheet where it was). A failed write leaves
    no temporary file behind, and its error names `path`, not ours."""
    tmp = temp_path(path)
    try:
        with open(tmp, "wb") as f:
            for chunk in ([data] if isinstance(data, bytes) else data):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
    except BaseException as e:
        _discard(tmp, path, e)  # a failed write (a full disk) leaves no temporary file
        raise
    return tmp


def _discard(tmp: Path, path: Path, e: BaseException) -> None:
    with contextlib.suppress(OSError):
        tmp.unlink()
    if isinstance(e, OSError) and (e.filename is None or Path(e.filename) == tmp):
        e.filename = str(path)  # the one line names the file we were writing, not ours


def did_you_mean(word: str, choices: Iterable[str], list_all: bool = False) -> str:
    """" (did you mean 'walk'?)" for the choice nearest a mistyped word; where none is
    near, " (one of: a, b)" with list_all, else "". One phrasing for every typo we name
    (a joblist's key, a prompt's action, a recipe's field)."""
    options = sorted(choices)
    close = difflib.get_close_matches(word, options, n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (one of: {', '.join(options)})" if list_all and options else ""


def nearest_existing(path: Path) -> Path:
    """path itself, or the nearest of its parents that exists (a check that creates
    nothing looks there)."""
    path = Path(path).absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def given_path(text: str, what: str, give: str) -> Path:
    """The path a user typed (a flag's value), or ValueError "<what> is empty: <give>": an
    empty one is refused, as Path("") is ".", the current folder, which nobody named."""
    if not text:
        raise ValueError(f"{what} is empty: {give}")
    return Path(text)


def folder_problem(path: Path, what: str, fix: str = "give a folder",
                   writable: bool = True) -> str | None:
    """Why `path` cannot be (or be made) a folder we write into, as the one line to print,
    or None: it, or the nearest of its parents that exists, is a file; or (`writable`) that
    folder cannot be written to (a read-only mount, no permission). Creates nothing."""
    near = nearest_existing(path)
    it = "it" if near == Path(path).absolute() else str(near)
    if not near.is_dir():
        where = "" if it == "it" else f" is under {near}, which"
        return f"{what} {path}{where} is a file, not a folder: {fix}"
    if writable and not os.access(near, os.W_OK | os.X_OK):
        why = ("is on a read-only file system" if os.statvfs(near).f_flag & os.ST_RDONLY
               else "is not writable for this user (permission denied)")
        return f"cannot write into {what} {path}: {it} {why}; give a folder you can write to"
    return None


def unique_path(parent: Path, stem: str, suffix: str = "", directory: bool = False) -> Path:
    """Create parent/stem+suffix (a folder when `directory`, else an empty file), or
    parent/stem-1+suffix, -2, ... if taken, and return it. Creation is the test (mkdir,
    O_EXCL), so two processes never get the same path."""
    parent.mkdir(parents=True, exist_ok=True)
    n = 0
    while True:
        path = parent / (f"{stem}{suffix}" if n == 0 else f"{stem}-{n}{suffix}")
        try:
            if directory:
                path.mkdir()
            else:
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            return path
        except FileExistsError:
            n += 1


def poll_until(check: Callable[[], T | None], timeout: float,
               interval: float = 0.25) -> T | None:
    """Call `check` until it returns something other than None (or False), at most
    `timeout` seconds; returns that value, or None at the deadline. Checks at least once."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(max(0.0, min(interval, deadline - time.monotonic())))


def sha256_file(path: Path | str, chunk: int = 1 << 20) -> str:
    """The file's sha256 (hex), read a chunk at a time: memory stays flat for a model of
    many GB. (hashlib.file_digest needs Python 3.11; we support 3.10.)"""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h.update(block)
    return h.hexdigest()
