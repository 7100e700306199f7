"""A state file that is not ours (garbage, cut short, a folder, a jobs table of another
program) or that cannot be written: `status`, `review` and `batch` (also --dry-run) say
so in one line naming the file and what to do, exit 1, and leave it as it was; a
read-only state file still serves status, review and --dry-run (real subprocesses; the
server is never reached)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from driver.store import Status, Store
from tests.conftest import run_cli
from tests.driver.conftest import hero_joblist

VERBS = (["status"], ["review"], ["batch", "--dry-run"], ["batch"])


def _joblist(root: Path) -> Path:
    return hero_joblist(root, server={"url": "http://127.0.0.1:1"})


def _real_state(db: Path) -> None:
    store = Store(db)
    for n in range(200):  # a few pages, so that a cut loses some
        store.put(f"hero/a{n}", status=Status.DONE, error="x" * 200)
    store.close()


def _damage(db: Path, kind: str) -> None:
    db.parent.mkdir(parents=True)
    if kind == "garbage":
        db.write_text("junk\n")
    elif kind == "cut":
        _real_state(db)
        db.write_bytes(db.read_bytes()[:db.stat().st_size // 2])
    elif kind == "folder":
        db.mkdir()
    else:  # another program's jobs table
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE jobs (x)")
        con.execute("INSERT INTO jobs VALUES (1)")
        con.commit()
        con.close()


def _state(db: Path) -> object:
    return sorted(p.name for p in db.iterdir()) if db.is_dir() else db.read_bytes()


@pytest.mark.parametrize("kind,why", [
    ("garbage", "file is not a database"), ("cut", "malformed"),
    ("folder", "not a regular file"), ("other", "its jobs table has no column key")])
def test_a_state_file_that_is_not_ours_is_one_line(tmp_path, kind, why):
    joblist = _joblist(tmp_path)
    db = tmp_path / "_out" / "h3sprite.sqlite"
    _damage(db, kind)
    before = _state(db)
    for verb in VERBS:
        res = run_cli("driver", *verb, str(joblist), timeout=60)
        assert res.code == 1, (verb, res.err + res.out)
        assert res.err.count("\n") == 1 and "internal error" not in res.err, (verb, res.err)
        assert f"state file {db} is not an h3sprite state database" in res.err
        assert why in res.err and "move it away and run again" in res.err, res.err
        assert _state(db) == before, verb
    assert sorted(p.name for p in db.parent.iterdir()) == ["h3sprite.sqlite"]


def test_a_read_only_state_file_serves_reading_and_names_itself_to_a_batch(tmp_path):
    """On a read-only mount (root only, like the full-disk tests): status, review and
    --dry-run read it; batch says it cannot be written."""
    joblist = _joblist(tmp_path)
    db = tmp_path / "_out" / "h3sprite.sqlite"
    db.parent.mkdir()
    store = Store(tmp_path / "src.sqlite")
    store.put("hero/idle", status=Status.FAILED, attempts=1, error="boom")
    store.close()
    db.touch()
    res = subprocess.run(["mount", "--bind", str(tmp_path / "src.sqlite"), str(db)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({res.stderr.strip()}): needs root")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(db)], check=True)
        status = run_cli("driver", "status", str(joblist), timeout=60)
        assert status.code == 1 and "boom" in status.out, status.err  # the job failed
        for verb in (["review"], ["batch", "--dry-run"]):
            res = run_cli("driver", *verb, str(joblist), timeout=60)
            assert res.code == 0, (verb, res.err)
        res = run_cli("driver", "batch", str(joblist), timeout=60)
        assert res.code == 1 and res.err.count("\n") == 1, res.err
        assert f"state file {db} cannot be written" in res.err and "writable" in res.err
    finally:
        subprocess.run(["umount", str(db)], capture_output=True)
