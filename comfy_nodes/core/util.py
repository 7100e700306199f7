"""Small helpers every part of h3sprite uses, each in one place: write a file so a reader
never sees half of it, make a new name that collides with nothing, wait for a condition
with a deadline, hash a file. Standard library only (this runs inside ComfyUI too)."""

from __future__ import annotations

import contextlib
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
    tmp = path.with_name(f"{TEMP_PREFIX}{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as f:
            for chunk in ([data] if isinstance(data, bytes) else data):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()  # a failed write (a full disk) leaves no temporary file behind
        if isinstance(e, OSError) and e.filename is None:
            e.filename = str(path)  # the one line names the file we were writing
        raise


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
