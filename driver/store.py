"""The batch's memory: one SQLite file beside the outputs (stdlib sqlite3, WAL).

One row per job (character x action): what went in (fingerprints), what came out, how it
went. A job is current only when its fingerprint matches and its outputs exist and verify.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

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
    meta TEXT,                      -- JSON: OOM ladder, prompt ids, retries
    updated REAL
);
"""


@dataclass
class JobRow:
    key: str
    fingerprint: str | None
    gen_fingerprint: str | None
    status: str
    attempts: int
    error: str | None
    timings: dict
    outputs: dict
    meta: dict


class Store:
    def __init__(self, path: Path, read_only: bool = False):
        self.path = path
        if read_only:
            # --dry-run / status write nothing: an existing file is opened immutable (not even
            # a -wal or -shm file appears), a missing one is an empty in-memory table.
            # With a -wal file left (a killed run), mode=ro reads it and creates nothing.
            wal = path.with_name(path.name + "-wal").exists()
            uri = (f"{path.resolve().as_uri()}?{'mode=ro' if wal else 'immutable=1'}"
                   if path.is_file() else ":memory:")
            self.db = sqlite3.connect(uri, uri=uri != ":memory:", check_same_thread=False)
            if uri == ":memory:":
                self.db.executescript(SCHEMA)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a finished job survives a power cut
        self.db.executescript(SCHEMA)

    def get(self, key: str) -> JobRow | None:
        row = self.db.execute("SELECT key, fingerprint, gen_fingerprint, status, attempts, "
                              "error, timings, outputs, meta FROM jobs WHERE key=?",
                              (key,)).fetchone()
        if row is None:
            return None
        return JobRow(row[0], row[1], row[2], row[3], row[4], row[5],
                      json.loads(row[6] or "{}"), json.loads(row[7] or "{}"),
                      json.loads(row[8] or "{}"))

    def put(self, key: str, **fields) -> None:
        current = self.get(key)
        data = {
            "fingerprint": None, "gen_fingerprint": None, "status": "pending", "attempts": 0,
            "error": None, "timings": {}, "outputs": {}, "meta": {},
        }
        if current:
            data.update({k: getattr(current, k) for k in data})
        data.update(fields)
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO jobs (key, fingerprint, gen_fingerprint, status, "
                "attempts, error, timings, outputs, meta, updated) VALUES (?,?,?,?,?,?,?,?,?,?)",
                (key, data["fingerprint"], data["gen_fingerprint"], data["status"],
                 data["attempts"], data["error"], json.dumps(data["timings"]),
                 json.dumps(data["outputs"]), json.dumps(data["meta"]), time.time()))

    def all(self) -> list[JobRow]:
        keys = [r[0] for r in self.db.execute("SELECT key FROM jobs ORDER BY key")]
        return [self.get(k) for k in keys]

    def close(self) -> None:
        self.db.close()
