"""Jobs to servers: one thread per server, each with one prompt in flight, each taking the
next job from one shared queue as soon as it is free.

A full disk met by any thread (a server's, the post-processing one) stops them all: our
prompts in flight are interrupted, their jobs stay `running` for the batch to put back to
`pending` once it has freed its reserve (batch.py).

A server that loses a job (it died and could not be brought back, or the job used up its
tries there) hands the job to another live server that has not tried it yet; a server that
stays unreachable stops taking jobs and the others go on. Finished clips go to the
post-processing pool, so the servers never wait for our CPU.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from driver.adopt import Inflight
from driver.generate import Generated, Generator
from driver.plan import Planned
from driver.post import Post
from driver.report import Progress, Summary
from driver.server import ServerUnavailable
from driver.store import Status, Store

log = logging.getLogger("driver.batch")


class Dispatch:
    def __init__(self, generators: list[Generator], store: Store, post: Post,
                 progress: Progress, summary: Summary, pool: ThreadPoolExecutor):
        self.generators = generators
        self.store = store
        self.post = post
        self.progress = progress
        self.summary = summary
        self.pool = pool
        self.cond = threading.Condition()
        self.queue: deque[Planned] = deque()
        self.tried: dict[str, set[str]] = {}  # job key -> servers that gave it up
        self.live = {g.name for g in generators}
        self.in_flight: dict[str, Planned] = {}  # server -> its job
        # job key -> the server a killed run sent its prompt to: only there can it be adopted
        self.owner: dict[str, str] = {}
        self.stop = threading.Event()

    # ------------------------------------------------------------ main thread ---
    def run(self, jobs: list[Planned]) -> None:
        for p in jobs:
            row = self.store.get(p.job.key)
            inflight = Inflight.from_meta(row.meta) if row else None
            if (inflight is not None and inflight.server in self.live
                    and inflight.gen_fingerprint == p.job.gen_fingerprint):
                self.owner[p.job.key] = inflight.server
        # a server takes the jobs it may adopt first: their prompts may be done already
        self.queue.extend(sorted(jobs, key=lambda p: p.job.key not in self.owner))
        threads = [threading.Thread(target=self._work, args=(g,), daemon=True,
                                    name=f"gen-{g.name}") for g in self.generators]
        for t in threads:
            t.start()
        try:
            for t in threads:
                while t.is_alive():
                    t.join(0.5)  # a timed join lets Ctrl-C reach this thread
                    if self.post.disk_full is not None and not self.stop.is_set():
                        self.halt()  # the post-processing thread met a full disk
        except KeyboardInterrupt:
            self.interrupt()
            for t in threads:
                t.join(15)
            raise

    def interrupt(self) -> None:
        """Stop: interrupt every prompt of ours in flight; their jobs are left pending."""
        self.stop.set()
        with self.cond:
            self.cond.notify_all()
            running = dict(self.in_flight)
        for g in self.generators:
            g.interrupt()
        for p in running.values():
            self.store.put(p.job.key, status=Status.PENDING, error="interrupted")

    def halt(self) -> None:
        """A full disk: stop taking jobs and interrupt our prompts in flight. Nothing is
        written here (the disk is full); the batch records what follows."""
        self.stop.set()
        with self.cond:
            self.cond.notify_all()
        for g in self.generators:
            g.interrupt()

    # ------------------------------------------------------- server threads ---
    def _next(self, g: Generator) -> Planned | None:
        """The next job this server may take; None when there is nothing left for it."""
        with self.cond:
            while (not self.stop.is_set() and g.name in self.live
                   and self.post.disk_full is None):
                for p in sorted(self.queue, key=lambda p: self.owner.get(p.job.key) != g.name):
                    if g.name not in self._takers(p):
                        continue
                    self.queue.remove(p)
                    self.in_flight[g.name] = p
                    return p
                if not self.in_flight and not self._movable():
                    return None
                self.cond.wait(0.5)
            return None

    def _takers(self, p: Planned) -> set[str]:
        """The live servers that may take a queued job (under self.cond): those that have
        not given it up; only its owner while the owner may still adopt its prompt."""
        free = self.live - self.tried.get(p.job.key, set())
        owner = self.owner.get(p.job.key)
        return {owner} if owner in free else free

    def _movable(self) -> bool:
        """Is a queued job still takeable by some live server?"""
        return any(self._takers(p) for p in self.queue)

    def _work(self, g: Generator) -> None:
        try:
            while (p := self._next(g)) is not None:
                res = self._generate(g, p)
                if self.stop.is_set():
                    if self.post.disk_full is None:  # else the batch puts it back itself
                        self.store.put(p.job.key, status=Status.PENDING, error="interrupted")
                    break
                self._settle(g, p, res)
        except Exception as e:
            if not self.post.disk_is_full(e):
                raise
            self.halt()
        finally:
            with self.cond:
                self.in_flight.pop(g.name, None)
                self.live.discard(g.name)
                orphans = [p for p in self.queue if not self._takers(p)]
                for p in orphans:  # nobody left to take them
                    self.queue.remove(p)
                self.cond.notify_all()
            if not self.stop.is_set():
                for p in orphans:
                    self.post.fail(p.job, Generated(g.name, error="no server left to run it"))
                    self.progress.job_done()

    def _generate(self, g: Generator, p: Planned) -> Generated:
        j = p.job
        # gen_fingerprint stays the one of the clip on disk until a new clip is there
        # (_settle): a run killed meanwhile must not take the old clip for the new inputs.
        self.store.put(j.key, fingerprint=j.fingerprint, parts=j.parts, status=Status.RUNNING)
        self.progress.server_doing(g.name, j.key)

        def on_event(kind: str, data: dict) -> None:
            if kind == "progress":
                self.progress.server_doing(
                    g.name, f"{j.key} step {data.get('value')}/{data.get('max')}")

        g.on_event = on_event
        try:
            g.maybe_restart()
            res = g.generate(j)
            g.jobs_since_restart += 1
        except ServerUnavailable as e:
            res = Generated(g.name, error=str(e), server_lost=True)
        except Exception as e:  # a bug of ours fails this job, not the batch
            if self.post.disk_is_full(e):  # ...but a full disk stops the batch
                self.halt()
                return Generated(g.name, error="disk full")
            log.exception("generating %s on %s", j.key, g.name)
            res = Generated(g.name, error=f"internal error {type(e).__name__}: {e}")
        finally:
            self.progress.server_doing(g.name, None)
        return res

    def _settle(self, g: Generator, p: Planned, res: Generated) -> None:
        j = p.job
        moved = False
        if res.clip is not None:
            self.store.put(j.key, gen_fingerprint=j.gen_fingerprint)  # the clip's inputs
            with self.cond:
                self.summary.per_server[g.name] = self.summary.per_server.get(g.name, 0) + 1
            self.pool.submit(self.post.process, j, res.clip, res)
        elif res.server_lost:
            moved = self._move(g, p, res)
        if res.clip is None and not moved:
            self.post.fail(j, res)
            self.progress.job_done()
        with self.cond:
            self.in_flight.pop(g.name, None)
            self.cond.notify_all()
        if res.server_lost and not g.server.reachable():
            self.progress.say(f"server {g.name} is gone ({res.error}); the batch goes on "
                              "without it")
            with self.cond:
                self.summary.unreachable.append((g.name, f"lost during the batch: {res.error}"))
                self.live.discard(g.name)

    def _move(self, g: Generator, p: Planned, res: Generated) -> bool:
        """Hand a job its server gave up to another live server that has not tried it."""
        with self.cond:
            tried = self.tried.setdefault(p.job.key, set())
            tried.add(g.name)
            others = self.live - tried
            if not others:
                return False
            self.queue.appendleft(p)
            self.cond.notify_all()
        self.progress.say(f"{p.job.key}: {g.name} gave it up ({res.error}); moving it to "
                          "another server")
        return True
