"""A full disk is a batch-wide condition, not a job's failure.

ENOSPC (or a quota's EDQUOT, or SQLite's "database or disk is full") anywhere stops the
batch with one line naming the path, the free space and what the rest needs; finished
jobs are kept, the summary is printed, and the next run resumes. Temporary files are
written as `.h3sprite-<name>.<pid>.<thread>.tmp` beside their target: removed on error
where they are written, and swept at the next start in case the process was killed (only
names of that form, only in the folders the batch writes into, never below them).
"""

from __future__ import annotations

import errno
import logging
import os
import re
import shutil
import sqlite3
from pathlib import Path

import psutil

from comfy_nodes.core.util import TEMP_PREFIX, nearest_existing

MIB = 2**20
START_NEED = 64 * MIB  # the log, the database and one sheet
PER_JOB_NEED = 20 * MIB  # clips ~2-10 MB, sheets ~1 MB, logs
BASE_NEED = 200 * MIB
# .h3sprite-<name>.<pid of the writer>.<its thread>.tmp: a file of core/util.atomic_write,
# or a sheet's frames folder (core/export), which is written whole under such a name
TEMP_NAME = re.compile(rf"^{re.escape(TEMP_PREFIX)}.+\.(\d+)\.\d+\.tmp$")


class DiskFull(ValueError):
    """Not enough space: the message is the one line to print."""


def is_full(e: BaseException) -> bool:
    if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    return isinstance(e, sqlite3.OperationalError) and "disk is full" in str(e)


def free_bytes(path: Path) -> int:
    return shutil.disk_usage(nearest_existing(path)).free


def need_for(n_jobs: int) -> int:
    return BASE_NEED + n_jobs * PER_JOB_NEED


def line(path: Path | str | None, need: int, where: Path) -> str:
    free = free_bytes(where)
    return (f"disk full: cannot write {path or where}: {free / MIB:.0f} MiB free under "
            f"{nearest_existing(where)}, about {need / MIB:.0f} MiB needed; free some space "
            "and run again (finished jobs are kept)")


def require(where: Path, need: int) -> None:
    """Raise DiskFull when less than `need` bytes are free where `where` is (or would be)."""
    free = free_bytes(where)
    if free < need:
        raise DiskFull(f"only {free / MIB:.0f} MiB free under {nearest_existing(where)}; need "
                       f"about {need / MIB:.0f} MiB: free some space (nothing was written)")


def sweep(*folders: Path) -> int:
    """Remove the temporary files (and frames folders) a killed or failed run left directly
    in these folders, the ones the batch writes into; not those of a writer that is still
    alive (another driver may be writing beside us), and nothing below them: `out: .` or
    `work: /` must never walk a user's tree."""
    removed = 0
    for folder in folders:
        if not folder.is_dir():
            continue
        for p in folder.glob(f"{TEMP_PREFIX}*"):
            m = TEMP_NAME.match(p.name)
            if not m or p.is_symlink():
                continue
            pid = int(m.group(1))
            if pid != os.getpid() and psutil.pid_exists(pid):
                continue
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)
            removed += 1
    return removed


class QuietFileHandler(logging.FileHandler):
    """A log file that goes quiet when its disk is full: logging's default prints a
    traceback to stderr for every record it cannot write."""

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        pass


class Reserve:
    """A little space held back on the output disk, given up when the disk fills so the
    database can still record that the jobs in flight went back to `pending`."""

    SIZE = 2 * MIB

    def __init__(self, folder: Path):
        self.path = folder / ".h3sprite-reserve"
        try:
            with open(self.path, "wb") as f:
                f.write(b"\xff" * self.SIZE)  # real blocks: a sparse file would hold nothing
                f.flush()
        except OSError:
            self.release()

    def release(self) -> None:
        self.path.unlink(missing_ok=True)
