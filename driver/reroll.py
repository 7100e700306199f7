"""`--reroll`: a new seed for chosen jobs, kept in the batch's state until the next re-roll.

The joblist's seed policy gives a job the same seed on every run, so the same clip; a
character-level seed changes all its actions. A re-roll draws a fresh seed for just the
selected jobs and records it in the batch's SQLite file (table `seeds`, beside the jobs
table), so an interrupted or later run resumes with it. The joblist's own seed at the time
is recorded too: change the job's seed in the joblist and the re-rolled one is dropped.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS seeds (
    key TEXT PRIMARY KEY,           -- character/action
    seed INTEGER NOT NULL,          -- the seed drawn by the last --reroll
    joblist_seed INTEGER NOT NULL,  -- the joblist's seed it replaces
    previous INTEGER NOT NULL,      -- the seed the job had before this draw
    drawn REAL NOT NULL
);
"""
SEED_MAX = 2**31 - 1  # the joblist's range


@dataclass(frozen=True)
class Draw:
    key: str
    previous: int
    seed: int
    joblist_seed: int


def draw(previous: int) -> int:
    """A fresh seed, never the one it replaces."""
    while True:
        seed = secrets.randbelow(SEED_MAX + 1)
        if seed != previous:
            return seed


def _connect(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(str(db), timeout=30)
    con.executescript(SCHEMA)
    return con


def kept(db: Path, joblist_seeds: dict[str, int]) -> dict[str, int]:
    """Seeds of earlier re-rolls still in force: the job is in the joblist and the
    joblist's seed for it has not changed since."""
    if not db.exists():
        return {}
    con = sqlite3.connect(str(db), timeout=30)  # only reads: a dry run leaves no trace
    try:
        if not con.execute("SELECT 1 FROM sqlite_master WHERE name='seeds'").fetchone():
            return {}
        rows = con.execute("SELECT key, seed, joblist_seed FROM seeds").fetchall()
    finally:
        con.close()
    return {k: s for k, s, js in rows if joblist_seeds.get(k) == js}


def record(db: Path, draws: list[Draw]) -> None:
    con = _connect(db)
    try:
        with con:
            con.executemany("INSERT OR REPLACE INTO seeds (key, seed, joblist_seed, previous, "
                            "drawn) VALUES (?,?,?,?,?)",
                            [(d.key, d.seed, d.joblist_seed, d.previous, time.time())
                             for d in draws])
    finally:
        con.close()
