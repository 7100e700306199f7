"""The batch's SQLite store: versioned, migrated from the first schema, safe across threads."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from driver.store import VERSION, Status, Store, StoreError

# The schema h3sprite 0.1 wrote (no user_version, no parts column).
V0_SCHEMA = """
CREATE TABLE jobs (key TEXT PRIMARY KEY, fingerprint TEXT, gen_fingerprint TEXT,
    status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT, timings TEXT,
    outputs TEXT, meta TEXT, updated REAL);
"""


def test_a_first_schema_file_is_migrated_and_keeps_its_rows(tmp_path):
    path = tmp_path / "h3sprite.sqlite"
    db = sqlite3.connect(path)
    db.executescript(V0_SCHEMA)
    db.execute("INSERT INTO jobs VALUES ('hero/idle', 'fp', 'gfp', 'done', 1, NULL, '{}', "
               "?, '{}', 0)", (json.dumps({"json": "/x/idle.json"}),))
    db.commit()
    db.close()
    store = Store(path)
    row = store.get("hero/idle")
    assert row is not None and (row.fingerprint, row.status, row.parts) == ("fp", "done", {})
    assert row.outputs == {"json": "/x/idle.json"}
    store.put("hero/idle", parts={"portrait": "abc"})
    assert store.get("hero/idle").parts == {"portrait": "abc"}
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == VERSION
    store.close()


def test_a_read_only_open_reads_a_first_schema_file_and_changes_nothing(tmp_path):
    """--dry-run and status over a file an older h3sprite wrote: its rows are read (parts
    empty), nothing is migrated or written, no -wal/-shm file appears, a write is refused;
    a missing file reads as empty and is not created."""
    path = tmp_path / "h3sprite.sqlite"
    db = sqlite3.connect(path)
    db.executescript(V0_SCHEMA)
    db.execute("INSERT INTO jobs VALUES ('hero/idle', 'fp', 'gfp', 'done', 1, NULL, '{}', "
               "'{}', '{}', 0)")
    db.commit()
    db.close()
    before = path.read_bytes()
    store = Store(path, read_only=True)
    row = store.get("hero/idle")
    assert row is not None and (row.fingerprint, row.status, row.parts) == ("fp", "done", {})
    assert [r.key for r in store.all()] == ["hero/idle"]
    with pytest.raises(StoreError, match="read-only"):
        store.put("hero/idle", status=Status.PENDING)
    store.close()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h3sprite.sqlite"]
    missing = tmp_path / "none" / "h3sprite.sqlite"
    empty = Store(missing, read_only=True)
    assert empty.get("hero/idle") is None and empty.all() == []
    empty.close()
    assert not missing.parent.exists()


def test_a_newer_schema_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "h3sprite.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer h3sprite"):
        Store(path)


def test_concurrent_updates_of_one_row_lose_nothing(tmp_path):
    """Generation threads and the post thread update rows at once: each field written by
    one thread survives the other's read-modify-write."""
    store = Store(tmp_path / "s.sqlite")
    n = 100

    def writer(field: str) -> None:
        for i in range(n):
            store.put("hero/idle", **{field: {"i": i}})

    threads = [threading.Thread(target=writer, args=(f,)) for f in ("timings", "outputs",
                                                                       "meta")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    row = store.get("hero/idle")
    assert row is not None
    assert row.timings == row.outputs == row.meta == {"i": n - 1}
    assert row.status == Status.PENDING
    store.close()


def test_a_failed_transaction_leaves_the_row_as_it_was(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.put("a/b", status=Status.DONE, attempts=1)
    with pytest.raises(RuntimeError), store.transaction() as db:
        db.execute("UPDATE jobs SET attempts=9 WHERE key='a/b'")
        raise RuntimeError("boom")
    assert store.get("a/b").attempts == 1
    with pytest.raises(TypeError, match="unknown store fields"):
        store.put("a/b", colour="red")
    store.close()


def _rows_of(path) -> dict:
    db = sqlite3.connect(path)
    try:
        return dict(db.execute("SELECT key, status FROM jobs").fetchall())
    finally:
        db.close()


def test_a_state_file_removed_alone_is_written_back_without_its_stale_wal(tmp_path):
    """Only the main file removed: our -wal and -shm are left beside a new file, and
    sqlite would read that -wal as the new file's. They are removed, the rows written
    back; a store as it was says nothing."""
    path = tmp_path / "h3sprite.sqlite"
    store = Store(path)
    store.put("hero/idle", status=Status.DONE)
    assert store.restore() is None  # nothing happened to it
    path.unlink()
    assert path.with_name(path.name + "-wal").exists()
    store.put("hero/walk", status=Status.DONE)  # into the unlinked file
    assert store.restore() == (f"state file {path} was removed while the batch ran: "
                               "written back from the batch's own copy")
    store.close()
    assert _rows_of(path) == {"hero/idle": "done", "hero/walk": "done"}


def test_a_state_file_put_in_place_keeps_its_own_wal_when_moved_aside(tmp_path):
    """A user put back an older state file with its -wal (copied from a backup while
    its writer ran): both move aside together, readable as they were (its -wal was
    deleted, and the file read "no such table"); the batch's rows are written back."""
    path = tmp_path / "h3sprite.sqlite"
    store = Store(path)
    store.put("hero/idle", status=Status.DONE)
    other = tmp_path / "backup" / "h3sprite.sqlite"
    other.parent.mkdir()
    writer = sqlite3.connect(other, isolation_level=None)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE t (x)")
    writer.execute("INSERT INTO t VALUES (7)")  # in its -wal only while it is open
    for extra in ("", "-wal", "-shm"):  # removed, and the backup's put in their place
        path.with_name(path.name + extra).unlink(missing_ok=True)
    for name in (other.name, other.name + "-wal"):
        (tmp_path / name).write_bytes((other.parent / name).read_bytes())
    writer.close()
    line = store.restore()
    store.close()
    assert line is not None and "the file found there is now h3sprite.sqlite.found-" in line
    found = next(tmp_path.glob("h3sprite.sqlite.found-*[0-9]"))
    assert found.with_name(found.name + "-wal").exists()
    db = sqlite3.connect(found)
    assert db.execute("SELECT x FROM t").fetchall() == [(7,)]
    db.close()
    assert _rows_of(path) == {"hero/idle": "done"}


def test_a_state_file_that_cannot_be_written_back_says_so(tmp_path):
    """The out folder replaced by a file while the batch ran: one line saying the rows
    are lost and what that means, not an exception out of the batch's end."""
    out = tmp_path / "_out"
    store = Store(out / "h3sprite.sqlite")
    store.put("hero/idle", status=Status.DONE)
    for p in out.iterdir():
        p.unlink()
    out.rmdir()
    out.write_text("a file now")
    line = store.restore()
    store.close()
    assert line is not None and line.endswith("the next run makes its jobs again")
    assert "could not be written back" in line
