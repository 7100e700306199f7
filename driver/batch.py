"""`driver batch`: plan by input version, generate on every server, post-process in parallel.

The parts, in the order a job meets them:
- driver/plan.py      what to do with each job and why (pure; a `Reason` per job)
- driver/dispatch.py  jobs to servers: one thread and one prompt in flight per server
- driver/generate.py  on one server: bind, submit, follow, recover -> a typed `Generated`
- driver/post.py      post-process, record in the store, rewrite actions.json
- driver/report.py    progress, job lines, summary, exit codes, `driver status` rows
This module wires them: check, plan, start the servers, run, summarise.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import filelock

from comfy_nodes.core.pipeline import full_frames
from comfy_nodes.core.util import sha256_file, unique_path
from comfy_nodes.core.video import decode
from driver import disk, reroll, select
from driver.check import check, folder_problems, preflight
from driver.client import ServerLost
from driver.dispatch import Dispatch
from driver.generate import Generated, Generator
from driver.joblist import ServerSpec
from driver.joblist_load import Loaded
from driver.jobs import Job, build_jobs, outputs_ok
from driver.ladder import next_rung
from driver.outputs import LOGS_DIR, STATE_NAME, hold, timestamp
from driver.plan import Options, Planned, Reason, plan
from driver.post import Post
from driver.report import Progress, Summary, summary_lines
from driver.server import ServerHandle, ServerUnavailable
from driver.store import Status, Store
from driver.workflow import Workflow

__all__ = ["Batch", "Options", "StopBatch", "Summary", "log_to_file", "next_rung",
           "summary_lines"]

log = logging.getLogger("driver.batch")


class StopBatch(ValueError):
    """A problem that stops the batch before GPU work (checks, preflight, no server)."""


class Batch:
    def __init__(self, loaded: Loaded, opts: Options):
        self.loaded = loaded
        self.opts = opts
        self.summary = Summary()
        self.progress = Progress(opts.quiet)
        self.workflow = Workflow.load(loaded.workflow)  # before anything is created
        if problems := folder_problems(loaded):  # a file as out: would stop the mkdir below
            raise StopBatch("\n".join(problems))
        self.reserve: disk.Reserve | None = None
        self.lock: filelock.BaseFileLock | None = None
        db = self.loaded.out / STATE_NAME
        if opts.dry_run:  # issue 10: a dry run writes nothing anywhere
            self.store = Store(db, read_only=True)
        else:
            # issue 10: check the space before creating anything on a possibly full disk,
            # and the state file by reading it (one not ours is refused with nothing made,
            # not even the lock); then hold the out folder (a second batch on it must touch
            # nothing: not its reserve, not its log), then sweep what a killed run left
            disk.require(self.loaded.out, disk.START_NEED)
            Store(db, read_only=True).close()
            self.lock = hold(self.loaded.out)
            disk.sweep(*written_folders(self.loaded))
            self.loaded.out.mkdir(parents=True, exist_ok=True)
            self.store = Store(db)
            self.reserve = disk.Reserve(self.loaded.out)
        self.post = Post(loaded, self.store, self.summary, self.progress)
        self.generators: list[Generator] = []
        self.rerolls: list[reroll.Draw] = []  # drawn by --reroll, recorded when not a dry run

    def release(self) -> None:
        """Let the out folder go (the kernel does too if the process dies)."""
        if self.lock is not None:
            self.lock.release()

    def say(self, line: str) -> None:
        self.progress.say(line)

    # ------------------------------------------------------------- planning ---
    def _characters(self) -> set[str] | None:
        """The characters --chars and --only leave (None: all); names they lack are
        selected_jobs' to refuse."""
        if not self.opts.chars and not self.opts.only:
            return None
        only = self.opts.only
        return {c for c in self.loaded.spec.characters
                if (not self.opts.chars or c in self.opts.chars)
                and (not only or any(select.selected(only, c, a)
                                     for a in self.loaded.actions_of(c)))}

    def selected_jobs(self) -> list[Job]:
        wf_sha = sha256_file(self.loaded.workflow)
        models = [f"{folder}/{name}" for folder, name, _ in self.workflow.model_files()]
        # Issue 12: seeds drawn by earlier --reroll runs stay in force (driver/reroll.py).
        joblist_seeds = {f"{c}/{a}": self.loaded.seed(c, a) for c in self.loaded.spec.characters
                         for a in self.loaded.actions_of(c)}
        seeds = reroll.kept(self.store, joblist_seeds)
        jobs = build_jobs(self.loaded, wf_sha, models, seeds)
        if self.opts.chars:
            unknown = set(self.opts.chars) - set(self.loaded.spec.characters)
            if unknown:
                raise StopBatch(f"--chars names unknown character(s) {', '.join(sorted(unknown))}"
                                f"; the joblist has {', '.join(self.loaded.spec.characters)}")
            jobs = [j for j in jobs if j.cid in self.opts.chars]
        if self.opts.only:  # issue 12: char/action, action, char/ and @file (driver/select.py)
            roster = {c: self.loaded.actions_of(c) for c in self.loaded.spec.characters}
            problems = select.unknown(self.opts.only, roster)
            if problems:
                raise StopBatch("\n".join(problems))
            jobs = [j for j in jobs if select.selected(self.opts.only, j.cid, j.action)]
            if not jobs:  # each names a job, but none of --chars' characters
                raise StopBatch(f"--only {','.join(map(str, self.opts.only))} and --chars "
                                f"{','.join(self.opts.chars or [])} select no job together: "
                                "name a job of those characters, or leave one flag out")
        if self.opts.reroll:  # fresh seeds for exactly these jobs; fingerprints follow
            self.rerolls = [reroll.Draw(j.key, j.seed, reroll.draw(j.seed), joblist_seeds[j.key])
                            for j in jobs]
            fresh = {d.key: d.seed for d in self.rerolls}
            jobs = [j for j in build_jobs(self.loaded, wf_sha, models, {**seeds, **fresh})
                    if j.key in fresh]
        return jobs

    # ------------------------------------------------------------------ run ---
    def run(self) -> Summary:
        try:
            return self._run()
        finally:  # issue 10: the space held back for a full disk is ours to give back
            if self.reserve is not None:
                self.reserve.release()
            if line := self.store.restore():  # the state file removed under the batch
                self.say(line)

    def _run(self) -> Summary:
        problems = check(self.loaded, self._characters())
        if problems:
            raise StopBatch("\n".join(problems))
        planned = plan(self.selected_jobs(), self.store, self.opts)
        drawn = {d.key: d for d in self.rerolls}
        for p in planned:
            if p.job.key in drawn:
                p.reason, p.detail = Reason.REROLL, (f": seed {drawn[p.job.key].previous} -> "
                                                     f"{drawn[p.job.key].seed}")
        if self.rerolls and not self.opts.dry_run:
            reroll.record(self.store, self.rerolls)  # before any work: resume keeps it
        if self.opts.dry_run:
            for p in planned:
                what = "generate+process" if p.generate else ("process" if p.process else "skip")
                print(f"{p.job.key:<24} {what:<17} {p.why}")
            return self.summary
        for p in planned:
            if not p.process:
                self.summary.skipped.append((p.job.key, p.why))
        todo = [p for p in planned if p.process]
        if not todo and self.opts.reuse_video and planned and all(
                p.reason is Reason.NO_CLIP for p in planned):
            raise StopBatch(f"--reuse-video: none of the {len(planned)} selected job(s) has a "
                            "clip to reuse: run without --reuse-video to generate them")
        if not todo:
            reasons = Counter(p.reason.value for p in planned)
            self.say("nothing to do: " + ", ".join(f"{n} job(s) {why}"
                                                   for why, n in reasons.items()))
            self.post.write_actions()
            return self.summary
        to_generate = [p for p in todo if p.generate]
        if to_generate:
            self._start_servers(len(to_generate))
        if self.opts.force:  # as work begins: interrupted, the next plain run resumes it
            self.store.mark_forced({p.job.key: p.generate for p in todo})
        start = time.monotonic()  # per-set costs exclude the one-off server start
        self.progress.open(len(todo))
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="post")
        interrupted = False
        try:
            for p in todo:
                if self.post.disk_full is not None:  # the post thread met a full disk
                    break
                if not p.generate:
                    self.store.put(p.job.key, fingerprint=p.job.fingerprint,
                                   gen_fingerprint=p.job.gen_fingerprint, parts=p.job.parts,
                                   status=Status.RUNNING)
                    pool.submit(self._post_reused, p)
            if to_generate and self.post.disk_full is None:
                Dispatch(self.generators, self.store, self.post, self.progress, self.summary,
                         pool).run(to_generate)
        except Exception as e:  # issue 10: a full disk stops the batch, with its summary
            if not self.post.disk_is_full(e):
                raise
        except KeyboardInterrupt:
            interrupted = True
            self.say("interrupted: finishing the sheet in progress, then stopping")
            raise  # the finally below lets the sheet in progress finish
        finally:
            # Interrupted, the sheets queued behind the one in progress are not begun (their
            # rows stay running: the next run resumes them, `status` says interrupted).
            pool.shutdown(wait=True, cancel_futures=interrupted)
            self.progress.close()
        self.summary.wall = time.monotonic() - start
        self.summary.restarts = sum(g.server.restarts for g in self.generators)
        if self.post.disk_full is not None:
            self._stop_for_full_disk(self.post.disk_full, todo)
        else:  # "done" only where the files still are: one deleted mid-run was reported done
            made = set(self.summary.done)
            self.summary.missing = [
                p.job.key for p in planned
                if (p.job.key in made or p.reason is Reason.CURRENT) and not outputs_ok(p.job)]
        return self.summary

    def _stop_for_full_disk(self, e: BaseException, todo: list[Planned]) -> None:
        """One line naming the path, the free space and the need; jobs left `running` (on
        any server, or between generation and post) go back to `pending` (the database may
        be on the full disk too: then the next start sees them as interrupted, which plans
        the same). Their in-flight prompt stays recorded for the next run to look for."""
        if self.reserve is not None:
            self.reserve.release()  # room for the database to record what follows
        left = [p for p in todo if p.job.key not in self.summary.done]
        path = getattr(e, "filename", None) or (
            self.store.path if not isinstance(e, OSError) else None)
        self.summary.stopped = disk.line(path, disk.need_for(len(left)), self.loaded.out)
        for p in left:
            row = self.store.get(p.job.key)
            if row is not None and row.status == Status.RUNNING:
                with contextlib.suppress(Exception):
                    self.store.put(p.job.key, status=Status.PENDING, error="disk full")
        self.say(self.summary.stopped)

    def _post_reused(self, p: Planned) -> None:
        self.post.process(p.job, decode(p.job.clip_path, keep=full_frames(p.job.recipe)),
                          Generated("", reused=True))

    # -------------------------------------------------------------- servers ---
    def _start_servers(self, n_generate: int) -> None:
        """Reach (or start) every server at once; one that cannot be used is reported and
        the batch runs on the rest. With none usable, the batch stops before any job."""
        specs = self.loaded.servers
        with ThreadPoolExecutor(max_workers=len(specs), thread_name_prefix="start") as ex:
            futures = {ex.submit(self._start_one, spec, n_generate): spec for spec in specs}
            results = {futures[f].base_url: f.result() for f in as_completed(futures)}
        problems = []
        for spec in specs:  # in the joblist's order
            gen_or_problem = results[spec.base_url]
            if isinstance(gen_or_problem, Generator):
                self.generators.append(gen_or_problem)
            else:
                problems.append((spec.base_url, gen_or_problem))
        if not self.generators:
            if len(specs) == 1:
                raise StopBatch(problems[0][1])
            raise StopBatch("no server can be used:\n" +
                            "\n".join(f"{url}: {why}" for url, why in problems))
        for url, why in problems:
            first = why.splitlines()[0]
            self.summary.unreachable.append((url, first))
            self.say(f"server {url} not used: {first}; running on "
                     f"{len(self.generators)} other server(s)")

    def _start_one(self, spec: ServerSpec, n_generate: int) -> Generator | str:
        server = ServerHandle(spec)
        try:
            server.ensure()
            problems = preflight(self.loaded, server.client, n_generate)
            if problems:
                return "\n".join(problems)
            self.say(server.before_video(spec.before_video))
        except (ServerUnavailable, ServerLost) as e:
            return str(e)
        return Generator(server, self.workflow, self.loaded.spec.overrides, self.say,
                         store=self.store)


def written_folders(loaded: Loaded) -> list[Path]:
    """The folders a batch writes files into (out: actions.json; out/<char>: the sheets;
    work/<char>_<action>: the clip and first frame), the only places its temporary files
    can be left; out: and work: may be a user's own folder, so never anything below."""
    chars = loaded.spec.characters
    return [loaded.out, *(loaded.out / c for c in chars),
            *(loaded.work / f"{c}_{a}" for c in chars for a in loaded.actions_of(c))]


def log_to_file(out: Path) -> Path:
    path = unique_path(out / LOGS_DIR, f"batch-{timestamp()}", ".log")
    # flushed on every record; quiet (no traceback per record) when its disk fills up
    handler = disk.QuietFileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path
