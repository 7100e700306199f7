"""`--reroll`: a new seed for chosen jobs, kept in the batch's state until the next re-roll.

The joblist's seed policy gives a job the same seed on every run, so the same clip; a
character-level seed changes all its actions. A re-roll draws a fresh seed for just the
selected jobs and records it in the batch's SQLite file (table `seeds`, beside the jobs
table), so an interrupted or later run resumes with it. The joblist's own seed at the time
is recorded too: change the job's seed in the joblist and the re-rolled one is dropped.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from driver.store import Store

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


def kept(store: Store, joblist_seeds: dict[str, int]) -> dict[str, int]:
    """Seeds of earlier re-rolls still in force: the job is in the joblist and the
    joblist's seed for it has not changed since."""
    with store.lock:  # only reads: a dry run leaves no trace
        if not store.has_table("seeds"):
            return {}
        rows = store.db.execute("SELECT key, seed, joblist_seed FROM seeds").fetchall()
    return {k: s for k, s, js in rows if joblist_seeds.get(k) == js}


def record(store: Store, draws: list[Draw]) -> None:
    """Through the store's connection and lock, in one transaction: the table is made by
    the first re-roll (driver/store.py's migrations leave it as it is)."""
    with store.transaction() as db:
        db.execute(SCHEMA)
        db.executemany("INSERT OR REPLACE INTO seeds (key, seed, joblist_seed, previous, "
                       "drawn) VALUES (?,?,?,?,?)",
                       [(d.key, d.seed, d.joblist_seed, d.previous, time.time())
                        for d in draws])
