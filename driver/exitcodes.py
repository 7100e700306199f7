"""Every exit code of `python -m driver`, in one place (a module of its own, so that
`driver process` starts without what the batch's report needs: tqdm, SQLite, pydantic)."""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    FAILED = 1  # a job failed, a check failed, or bad input (one line says which)
    USAGE = 2
    INTERNAL = 70  # a bug of ours
    INTERRUPTED = 130
    PIPE_CLOSED = 141  # stdout's reader went away (`| head`): 128 + SIGPIPE, as a shell says
