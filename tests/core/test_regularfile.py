"""core/regularfile.py: a file is known by stat before it is opened, what was opened is
checked again, and a read never goes past its limit."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from comfy_nodes.core import regularfile
from comfy_nodes.core.regularfile import (
    Kind,
    NotRegular,
    open_regular,
    read_regular,
    stat_regular,
)


@pytest.mark.parametrize("kind,made,want", [
    ("folder", lambda p: p.mkdir(), Kind.FOLDER),
    ("fifo", os.mkfifo, Kind.SPECIAL),
    ("device", lambda p: p.symlink_to("/dev/zero"), Kind.SPECIAL)])
def test_anything_but_a_regular_file_is_refused_unopened(tmp_path, kind, made, want):
    path = tmp_path / kind
    made(path)
    for call in (stat_regular, open_regular, lambda p: read_regular(p, 10)):
        with pytest.raises(NotRegular) as e:
            call(path)  # a FIFO opened would block here for ever
        assert e.value.kind is want and str(e.value) == f"{path} {e.value.reason}"


def test_size_is_capped_by_stat_and_by_the_read(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"x" * 11)
    assert stat_regular(path, 11).st_size == 11 and read_regular(path, 11) == b"x" * 11
    with pytest.raises(NotRegular) as e:
        read_regular(path, 10)
    assert (e.value.kind, e.value.size, e.value.reason) == (
        Kind.TOO_BIG, 11, "is 11 bytes; the limit is 10 bytes")
    # a /proc file says 0 bytes and holds more: the read stops at the limit
    proc = Path("/proc/self/status")
    if not proc.exists():
        pytest.skip("no /proc")
    assert stat_regular(proc, 10).st_size == 0
    with pytest.raises(NotRegular) as e:
        read_regular(proc, 10)
    assert (e.value.size, e.value.reason) == (None, "is over the limit of 10 bytes")


def test_a_missing_file_is_the_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "none", 10)


def test_a_pipe_swapped_in_after_the_stat_is_refused_not_waited_on(tmp_path, monkeypatch):
    """The stat saw a regular file; by the open it is a FIFO. A plain open() blocks until a
    writer comes: open_regular opens without blocking and refuses what fstat sees."""
    path = tmp_path / "f"
    path.write_bytes(b"x")
    seen = regularfile.stat_regular

    def then_swap(p, limit=None):
        st = seen(p, limit)
        os.unlink(p)
        os.mkfifo(p)
        return st

    monkeypatch.setattr(regularfile, "stat_regular", then_swap)
    outcome: list[BaseException | object] = []

    def attempt() -> None:
        try:
            outcome.append(open_regular(path))
        except BaseException as e:
            outcome.append(e)

    reader = threading.Thread(target=attempt, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # let the blocked open go, then fail
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail("open_regular waited on a FIFO")
    assert isinstance(outcome[0], NotRegular) and outcome[0].kind is Kind.SPECIAL, outcome
