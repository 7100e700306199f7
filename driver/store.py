"""The batch's memory: one SQLite file beside the outputs (stdlib sqlite3, WAL).

One row per job (character x action): what went in (fingerprints and their parts), what
came out, how it went. A job is current only when its fingerprint matches and its outputs
exist and verify.

Thread-safe: generation threads (one per server) and the post-processing thread share one
Store. One connection, one lock: every read-modify-write of a row runs inside one
transaction under the lock, so two threads never interleave their updates of a row.
The schema carries its version in `PRAGMA user_version`; older files are migrated on open.
The same file holds `--reroll`'s `seeds` table (driver/reroll.py), made by the first
re-roll through this connection and lock, and the `forced` table (`mark_forced`), made by
the first --force; the migrations leave both as they are.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    key TEXT PRIMARY KEY,           -- character/action
    fingerprint TEXT,               -- everything that shapes the sheet
    gen_fingerprint TEXT,           -- everything that shapes the clip
    status TEXT NOT NULL,           -- done | failed | running | pending
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT,
    timings TEXT,                   -- JSON
    outputs TEXT,                   -- JSON
    meta TEXT,                      -- JSON: OOM ladder, prompt ids, retries, server
    updated REAL,
    parts TEXT                      -- JSON: {input: digest}, so a plan can say what changed
);
"""

# version -> statements that bring a file of the version before it up to it
MIGRATIONS: dict[int, list[str]] = {
    1: ["ALTER TABLE jobs ADD COLUMN parts TEXT"],  # v0 (no user_version) had no parts
}

COLUMNS = ("key", "fingerprint", "gen_fingerprint", "status", "attempts", "error", "timings",
           "outputs", "meta", "parts")


class Status(str, Enum):
    DONE = "done"
    FAILED = "failed"
    RUNNING = "running"
    PENDING = "pending"


@dataclass
class JobRow:
    key: str
    fingerprint: str | None = None
    gen_fingerprint: str | None = None
    status: str = Status.PENDING.value
    attempts: int = 0
    error: str | None = None
    timings: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    parts: dict[str, str] = field(default_factory=dict)


def _row(values: tuple) -> JobRow:
    key, fp, gfp, status, attempts, error, timings, outputs, meta, parts = values
    return JobRow(key, fp, gfp, status, attempts, error, json.loads(timings or "{}"),
                  json.loads(outputs or "{}"), json.loads(meta or "{}"),
                  json.loads(parts or "{}"))


# The column each migration added, by the version that added it (MIGRATIONS): a jobs table
# of version v must have every other column.
ADDED_IN = {"parts": 1}
# What is true when the state file is moved away: the plan has no row for any job.
REBUILD = ("move it away and run again (without it every job counts as new and is "
           "generated again; the sheets it replaces go to _actions_old/)")


class StoreError(ValueError):
    """The state file is from a newer h3sprite, or not ours."""


class Store:
    def __init__(self, path: Path, read_only: bool = False):
        self.path = path
        self.lock = threading.RLock()
        self.read_only = read_only
        self.columns = ", ".join(COLUMNS)
        try:
            self._open(path)
        except sqlite3.DatabaseError as e:  # garbage, truncated, read-only, a folder...
            with contextlib.suppress(AttributeError, sqlite3.Error):
                self.db.close()
            raise StoreError(self._unusable(e)) from None

    def _unusable(self, e: sqlite3.DatabaseError) -> str:
        """One line: which file, what SQLite said, and what to do."""
        if isinstance(e, sqlite3.OperationalError) and "readonly" in str(e):
            return (f"state file {self.path} cannot be written ({e}): make it and its folder "
                    f"writable, or {REBUILD}")
        if isinstance(e, sqlite3.OperationalError) and "unable to open" in str(e):
            return (f"state file {self.path} cannot be opened ({e}): check that it and its "
                    "folder can be read and written")
        return f"state file {self.path} is not an h3sprite state database ({e}): {REBUILD}"

    def _open(self, path: Path) -> None:
        if path.exists() and not path.is_file():  # a folder or a FIFO: never opened
            raise sqlite3.DatabaseError("not a regular file")
        if self.read_only:
            self._open_read_only(path)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        # check_same_thread=False is safe here only because every use holds self.lock.
        self.db = sqlite3.connect(str(path), timeout=30, check_same_thread=False,
                                  isolation_level=None)  # transactions are explicit
        self._check(self.db.execute("PRAGMA user_version").fetchone()[0])  # before any write
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a finished job survives a power cut
        self._migrate()
        # which files these are, to notice them removed or replaced (restore)
        self.file = _identity(path)
        self.extras = {x: _identity(path.with_name(path.name + x)) for x in WAL_FILES}

    def _open_read_only(self, path: Path) -> None:
        """--dry-run / status write nothing: an existing file is opened immutable (not even
        a -wal or -shm file appears) and never migrated; a missing one is an empty in-memory
        table. With a -wal file left (a killed run), mode=ro reads it and creates nothing."""
        wal = path.with_name(path.name + "-wal").exists()
        uri = (f"{path.resolve().as_uri()}?{'mode=ro' if wal else 'immutable=1'}"
               if path.is_file() else ":memory:")
        self.db = sqlite3.connect(uri, uri=uri != ":memory:", check_same_thread=False,
                                  isolation_level=None)
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > VERSION:
            raise StoreError(f"{self.path} was written by a newer h3sprite (schema "
                             f"{version}, this one reads {VERSION}): update h3sprite")
        have = self._check(version)
        if not have:  # missing or empty file: nothing has run
            self.db.close()
            self.db = sqlite3.connect(":memory:", check_same_thread=False,
                                      isolation_level=None)
            self.db.execute(SCHEMA)
            return
        # an older file is read as it is: a column a migration would add reads as NULL
        self.columns = ", ".join(c if c in have else f"NULL AS {c}" for c in COLUMNS)

    def _migrate(self) -> None:
        with self.transaction():
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > VERSION:
                raise StoreError(f"{self.path} was written by a newer h3sprite (schema "
                                 f"{version}, this one reads {VERSION}): update h3sprite")
            if not self.has_table("jobs"):
                self.db.execute(SCHEMA)
            else:
                for v in range(version + 1, VERSION + 1):
                    for stmt in MIGRATIONS[v]:
                        self.db.execute(stmt)
            self.db.execute(f"PRAGMA user_version={VERSION}")

    def _check(self, version: int) -> set[str]:
        """The jobs table's columns (none: no table yet); raise, before anything is written
        to the file, when it is damaged or its jobs table is not ours (lacks a column of its
        version; a newer version is refused by the caller with its own reason)."""
        check = self.db.execute("PRAGMA quick_check").fetchone()[0]  # reads every page
        if check != "ok":
            raise sqlite3.DatabaseError(f"quick_check: {check}")
        have = {r[1] for r in self.db.execute("PRAGMA table_info(jobs)")}
        missing = [c for c in COLUMNS if c not in have and ADDED_IN.get(c, 0) <= version]
        if have and missing and version <= VERSION:
            raise sqlite3.DatabaseError(f"its jobs table has no column {missing[0]}")
        return have

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One writer at a time; everything inside commits together or not at all."""
        if self.read_only:
            raise StoreError(f"{self.path} is open read-only (a dry run writes nothing)")
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def _get(self, key: str) -> JobRow | None:
        row = self.db.execute(f"SELECT {self.columns} FROM jobs WHERE key=?",
                              (key,)).fetchone()
        return _row(row) if row else None

    def get(self, key: str) -> JobRow | None:
        with self.lock:
            return self._get(key)

    def put(self, key: str, **fields: Any) -> JobRow:
        """Update the named fields of a job's row (created when missing), atomically."""
        unknown = set(fields) - set(COLUMNS[1:])
        if unknown:
            raise TypeError(f"unknown store fields {sorted(unknown)}")
        if isinstance(fields.get("status"), Status):
            fields["status"] = fields["status"].value
        with self.transaction():
            row = self._get(key) or JobRow(key)
            for k, v in fields.items():
                setattr(row, k, v)
            self.db.execute(
                f"INSERT OR REPLACE INTO jobs ({', '.join(COLUMNS)}, updated) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (key, row.fingerprint, row.gen_fingerprint, row.status, row.attempts,
                 row.error, json.dumps(row.timings), json.dumps(row.outputs),
                 json.dumps(row.meta), json.dumps(row.parts), time.time()))
        return row

    def has_table(self, name: str) -> bool:
        """Whether the file holds the table `name` (the caller holds the lock): the
        `seeds` and `forced` tables are made by the first run that needs them."""
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                               (name,)).fetchone() is not None

    # --force's jobs not yet redone: an interrupted --force is resumed by the next plain
    # run. generate: 1 where the clip was to be made again, 0 where only the sheet.
    FORCED_SCHEMA = "CREATE TABLE IF NOT EXISTS forced (key TEXT PRIMARY KEY, generate INTEGER)"

    def mark_forced(self, jobs: dict[str, bool]) -> None:
        """Record jobs (key -> whether its clip is made again) as forced, in one go."""
        with self.transaction() as db:
            db.execute(self.FORCED_SCHEMA)
            db.executemany("INSERT OR REPLACE INTO forced (key, generate) VALUES (?, ?)",
                           [(k, int(g)) for k, g in jobs.items()])

    def forced(self) -> dict[str, bool]:
        """The jobs a --force has not yet redone (key -> whether its clip is made again)."""
        with self.lock:  # only reads: a dry run leaves no trace
            if not self.has_table("forced"):
                return {}
            return {k: bool(g) for k, g in
                    self.db.execute("SELECT key, generate FROM forced").fetchall()}

    def unmark_forced(self, key: str) -> None:
        with self.transaction() as db:
            if self.has_table("forced"):
                db.execute("DELETE FROM forced WHERE key = ?", (key,))

    def all(self) -> list[JobRow]:
        with self.lock:
            rows = self.db.execute(f"SELECT {self.columns} FROM jobs ORDER BY key")
            return [_row(r) for r in rows]

    def restore(self) -> str | None:
        """Where the state file was removed (or another put in its place) while the batch
        ran, its rows went on into the open, unlinked file, and were lost when the batch
        ended: the next run then saw no job done. Written back to its path from the open
        connection (sqlite's backup), any other file there moved aside first with its own
        -wal and -shm; ours left behind are removed first (sqlite would replay a stale -wal
        into the new file). Returns the line saying so; None where the file is as it was
        (or is only read). Call it last: the connection stays on the unlinked file."""
        if self.read_only or _identity(self.path) == self.file:
            return None
        with self.lock:
            moved: list[Path] = []  # what of the user's went aside, in case of a failure
            try:
                self._write_back(moved)
            except (OSError, sqlite3.Error) as e:  # the out folder replaced by a file...
                kept = f"; the file found there is now {moved[0].name}" if moved else ""
                return (f"state file {self.path} was removed while the batch ran and could "
                        f"not be written back ({e}): the next run makes its jobs again{kept}")
        found = f"; the file found there is now {moved[0].name}" if moved else ""
        return (f"state file {self.path} was removed while the batch ran: written back "
                f"from the batch's own copy{found}")

    def _write_back(self, moved: list[Path]) -> None:
        """Called last, by the batch's end: the connection stays on the unlinked file."""
        when = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.found-{when}")
        # a found file's own -wal and -shm first, so that a failure never leaves them
        # beside a file they do not belong to; the main file last
        for extra in WAL_FILES:
            left = self.path.with_name(self.path.name + extra)
            here = _identity(left)
            if here is None:
                continue
            if here == self.extras.get(extra):
                left.unlink()  # ours, of the removed file
            else:
                os.replace(left, aside.with_name(aside.name + extra))
        if self.path.exists():
            os.replace(self.path, aside)
            moved.append(aside)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        copy = sqlite3.connect(str(self.path))
        try:
            self.db.backup(copy)
        finally:
            copy.close()
        self.file = _identity(self.path)

    def close(self) -> None:
        with self.lock:
            self.db.close()


WAL_FILES = ("-wal", "-shm")  # beside the state file in WAL mode


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at path as (device, inode); None where there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino
