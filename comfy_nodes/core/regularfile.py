"""A file named by a user is known by stat before it is opened, and read only up to a cap.

Opening a FIFO blocks until a writer comes (one where the service keeps its state hung every
verb), a device never ends (a link to /dev/zero would be read whole) and a folder is no
file: `stat_regular` tells them apart without opening anything. `open_regular` then opens
without blocking and checks what it opened (fstat), so a path swapped for a FIFO between
the stat and the open is refused, not waited on; `read_regular` reads at most `limit` bytes
(a /proc file says 0 bytes, a growing one more than stat saw).

Each caller turns NotRegular into its own exception and words; `kind` says which case.
OSError (a missing file, no permission) passes through as it is. Standard library only:
the service and the driver import it, and so does ComfyUI with the node pack.
"""

from __future__ import annotations

import os
import stat
from enum import Enum
from pathlib import Path
from typing import BinaryIO


class Kind(Enum):
    FOLDER = "folder"
    SPECIAL = "special"  # a pipe, a device or a socket
    TOO_BIG = "too big"


class NotRegular(ValueError):
    """The path is no regular file of at most `limit` bytes. `size` is what stat said, or
    None when the file held more than `limit` bytes though stat said less."""

    def __init__(self, path: str | Path, kind: Kind, size: int | None = None,
                 limit: int | None = None):
        self.path, self.kind, self.size, self.limit = path, kind, size, limit
        super().__init__(f"{path} {self.reason}")

    @property
    def reason(self) -> str:
        """What is wrong, as the clause after the file's name."""
        if self.kind is Kind.FOLDER:
            return "is a folder"
        if self.kind is Kind.SPECIAL:
            return "is not a regular file (a pipe, a device or a socket)"
        if self.size is None:
            return f"is over the limit of {self.limit} bytes"
        return f"is {self.size} bytes; the limit is {self.limit} bytes"


def _checked(path: str | Path, st: os.stat_result, limit: int | None) -> os.stat_result:
    if stat.S_ISDIR(st.st_mode):
        raise NotRegular(path, Kind.FOLDER)
    if not stat.S_ISREG(st.st_mode):
        raise NotRegular(path, Kind.SPECIAL)
    if limit is not None and st.st_size > limit:
        raise NotRegular(path, Kind.TOO_BIG, st.st_size, limit)
    return st


def stat_regular(path: str | Path, limit: int | None = None) -> os.stat_result:
    """The stat of `path` (links followed), when it is a regular file of at most `limit`
    bytes (None: any size); else NotRegular. Nothing is opened."""
    return _checked(path, os.stat(path), limit)


# O_NONBLOCK: opening a FIFO for reading waits for a writer without it (reads of a regular
# file never wait either way). O_NOCTTY: a terminal opened is never made ours. POSIX only.
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
               | getattr(os, "O_NOCTTY", 0))


def open_regular(path: str | Path, limit: int | None = None) -> BinaryIO:
    """`path` opened for reading in binary, when it is a regular file of at most `limit`
    bytes both before the open (stat) and after it (fstat of what was opened)."""
    stat_regular(path, limit)  # a folder, a device or a pipe is never opened
    fd = os.open(path, _OPEN_FLAGS)
    try:
        _checked(path, os.fstat(fd), limit)
        if _OPEN_FLAGS & getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)  # what the caller expects of a file object
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (open_regular), read whole."""
    with open_regular(path, limit) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise NotRegular(path, Kind.TOO_BIG, None, limit)
    return data
