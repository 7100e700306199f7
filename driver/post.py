"""After generation: post-process a clip into its sheet, record the job, rewrite
actions.json. Runs on the post-processing thread while the servers generate the next jobs;
a fault here fails that job, never the batch."""

from __future__ import annotations

import logging
import threading
import time

from comfy_nodes.core import pipeline
from comfy_nodes.core.sheet import grade_label, shrunk_cells_problem
from comfy_nodes.core.video import Clip
from driver import actions as actions_mod
from driver import disk
from driver.generate import Generated
from driver.joblist_load import Loaded
from driver.jobs import Job
from driver.process import load_reference, write_sheet
from driver.report import Progress, Summary
from driver.store import Status, Store

log = logging.getLogger("driver.batch")


class Post:
    def __init__(self, loaded: Loaded, store: Store, summary: Summary, progress: Progress):
        self.loaded = loaded
        self.store = store
        self.summary = summary
        self.progress = progress
        self.lock = threading.Lock()  # the summary, the sheets and actions.json
        # The first full-disk error any thread met (post, a server's, the main one): it
        # stops the whole batch; jobs it caught in flight go back to pending (batch.py).
        self.disk_full: BaseException | None = None

    def disk_is_full(self, e: BaseException) -> bool:
        """Record a full-disk error (the first one wins); False for any other error."""
        if not disk.is_full(e):
            return False
        with self.lock:
            self.disk_full = self.disk_full or e
        return True

    def process(self, j: Job, clip: Clip, gen: Generated) -> None:
        t = time.monotonic()
        try:
            if self.disk_full is not None:
                return  # the batch is stopping; the job stays to be resumed
            res = pipeline.process_clip(clip, j.action, j.recipe, character=j.cid,
                                        cell_height=self.loaded.spec.cell_height,
                                        max_width=self.loaded.spec.max_width,
                                        reference=load_reference(j.portrait))
            # `driver check` refused a max_width too narrow for any clip; this clip's
            # character may be too wide for its height at that width.
            if problem := shrunk_cells_problem(res, "max_width"):
                raise ValueError(problem)
            with self.lock:
                written = write_sheet(res, j.out_dir, j.action, self.loaded.out, j.formats,
                                      j.image_format)
                post_s = time.monotonic() - t
                self.summary.post_seconds.append(post_s)
                self.summary.done.append(j.key)
                if gen.seconds is not None:
                    self.summary.gen_seconds.append(gen.seconds)
                self.store.put(j.key, status=Status.DONE, error=None, attempts=gen.attempts,
                               timings={"generation": gen.seconds, "post": post_s},
                               outputs={"webp": str(j.webp), "json": str(j.json),
                                        "clip": str(j.clip_path),
                                        "files": {f.value: str(p)
                                                  for f, p in written.files.items()}},
                               meta=gen.meta())
                self.store.unmark_forced(j.key)  # redone: a resumed --force skips it
                self.write_actions()
            grade = grade_label(res.loop, res.loop_grade)
            flags = " ".join(res.qc) or "-"
            gen_s = (f"{gen.seconds:.1f} s" if gen.seconds is not None else
                     "adopted after reconnecting" if gen.adopted else "reused")
            retries = max(0, gen.attempts - 1)
            ladder = f", OOM ladder: {'; '.join(gen.ladder)}" if gen.ladder else ""
            self.progress.say(f"done {j.key}: generation {gen_s}, post {post_s:.2f} s, "
                              f"{grade}, QC {flags}, retries {retries}{ladder}")
        except Exception as e:  # a post-processing fault fails this job, not the batch
            if self.disk_is_full(e):  # ...but a full disk stops the batch (issue 10)
                return
            log.exception("post-processing %s", j.key)
            gen.error = f"post-processing: {e}"
            self.fail(j, gen)
        finally:
            self.progress.job_done()

    def fail(self, j: Job, gen: Generated) -> None:
        reason = gen.error or "unknown"
        self.store.put(j.key, status=Status.FAILED, error=reason, attempts=gen.attempts,
                       meta={"prompt_ids": gen.prompt_ids, "server": gen.server})
        with self.lock:
            self.summary.failed.append((j.key, reason))
        self.progress.say(f"FAILED {j.key}: {reason}")

    def write_actions(self) -> None:
        """From every finished job of this joblist's roster (not only the selected ones;
        characters removed from the joblist drop out)."""
        roster = {f"{c}/{a}" for c in self.loaded.spec.characters
                  for a in self.loaded.actions_of(c)}
        done = []
        for row in self.store.all():
            if row.key in roster and row.status == Status.DONE and row.outputs.get("json"):
                cid, action = row.key.split("/", 1)
                done.append((cid, action, self.loaded.sheet_json(cid, action)))
        actions_mod.write(self.loaded.out, done)
