"""`driver batch`: plan by input version, generate serially, post-process in parallel.

Generation (the GPU's work) runs on this thread, one prompt in flight; post-processing of
job N runs on a worker thread while the server generates job N+1, so the GPU never waits
for our CPU. Every finished job is recorded in SQLite and actions.json is rewritten.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import requests
from PIL import Image
from tqdm import tqdm

from comfy_nodes.core import pipeline
from comfy_nodes.core.greenscreen import load_portrait, prepare_first_frame
from comfy_nodes.core.sheet import write_atomic
from comfy_nodes.core.snap import snap_length
from comfy_nodes.core.video import Clip, ClipError, decode
from driver import actions as actions_mod
from driver import adopt, disk, reroll, select
from driver.adopt import Inflight
from driver.check import check, preflight
from driver.client import ExecutionFailed, Hung, ServerLost, ValidationFailed, output_files
from driver.joblist import Loaded
from driver.jobs import Job, build_jobs, clip_ok, outputs_ok, sha256_file, what_changed
from driver.outputs import new_folder, timestamp
from driver.process import portrait_reference, write_sheet
from driver.select import Selector
from driver.server import ServerHandle, ServerUnavailable
from driver.store import Store
from driver.workflow import Workflow

log = logging.getLogger("driver.batch")

# OOM ladder from the notes: shorter first (it frees most), then a smaller canvas, steps last.
LADDER_CANVASES = [(512, 320), (448, 256)]
LADDER_STEPS = [6, 4]
PREP_NODE = "H3Sprite_GreenScreenPrep"


def next_rung(seconds: float, size: tuple[int, int], steps: int | None,
              has_steps: bool) -> tuple[float, tuple[int, int], int | None, str] | None:
    """The next rung of the OOM ladder, or None at the bottom: (seconds, canvas, steps, what).

    Shorter first (one 17k+5 length down, to 22 frames at least), then a smaller canvas of
    the same orientation (512x320, then 448x256), then fewer steps (6, then 4)."""
    frames = snap_length(seconds)
    if frames - 17 >= 22:
        shorter = (frames - 17) / 24
        return shorter, size, steps, f"{frames - 17} frames ({shorter:.2f} s)"
    landscape = size[0] >= size[1]
    for w, h in LADDER_CANVASES:
        cw, ch = (w, h) if landscape else (h, w)
        if cw * ch < size[0] * size[1]:
            return seconds, (cw, ch), steps, f"canvas {cw}x{ch}"
    for s in LADDER_STEPS:
        if has_steps and (steps is None or s < steps):
            return seconds, size, s, f"{s} steps"
    return None


class StopBatch(ValueError):
    """A problem that stops the batch before GPU work (checks, preflight, no server)."""


@dataclass
class Options:
    only: list[Selector] | None = None  # driver/select.py: char/action, action, char/, @file
    chars: list[str] | None = None
    reroll: bool = False  # driver/reroll.py: a new seed for the selected jobs
    force: bool = False
    reuse_video: bool = False
    dry_run: bool = False
    quiet: bool = False


@dataclass
class Planned:
    job: Job
    reason: str
    generate: bool
    process: bool


@dataclass
class Summary:
    done: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    gen_seconds: list[float] = field(default_factory=list)
    post_seconds: list[float] = field(default_factory=list)
    wall: float = 0.0
    restarts: int = 0
    stopped: str = ""  # why the batch stopped early (a full disk), else ""

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.stopped else 0


def plan(jobs: list[Job], store: Store, opts: Options) -> list[Planned]:
    out = []
    for j in jobs:
        row = store.get(j.key)
        if opts.force:
            reason, run = "forced", True
        elif row is None:
            reason, run = "new", True
        elif row.fingerprint == j.fingerprint and row.status == "done" and outputs_ok(j):
            reason, run = "current", False
        elif row.fingerprint == j.fingerprint and row.status == "done":
            reason, run = "outputs missing or damaged", True
        elif row.fingerprint == j.fingerprint and row.status == "failed":
            reason, run = f"failed before ({row.error or 'unknown'})", True
        elif row.fingerprint == j.fingerprint:
            reason, run = "interrupted before", True
        else:
            changed = what_changed(row.meta.get("inputs"), j.inputs)
            reason, run = f"inputs changed{': ' + changed if changed else ''}", True
        # A clip made from exactly these generation inputs is reused (pitfall 8), unless forced.
        reusable = (run and not opts.force and row is not None
                    and row.gen_fingerprint == j.gen_fingerprint
                    and clip_ok(j.clip_path, j.frames))
        generate = run and not reusable
        if run and opts.reuse_video and generate:
            reason, run, generate = "no reusable clip (--reuse-video)", False, False
        elif run and not generate:
            reason += ", clip reused"
        out.append(Planned(j, reason, generate, run))
    return out


class Batch:
    def __init__(self, loaded: Loaded, opts: Options):
        self.loaded = loaded
        self.opts = opts
        self.summary = Summary()
        self.lock = threading.Lock()
        self.workflow = Workflow.load(loaded.workflow)  # before anything is created
        self.reserve: disk.Reserve | None = None
        if opts.dry_run:  # issue 10: a dry run writes nothing anywhere
            self.store = Store(self.loaded.out / "h3sprite.sqlite", read_only=True)
        else:
            # issue 10: check the space before creating anything on a possibly full disk;
            # then sweep the temporary files a killed or failed run left
            disk.require(self.loaded.out, disk.START_NEED)
            disk.sweep(self.loaded.out, self.loaded.work)
            self.loaded.out.mkdir(parents=True, exist_ok=True)
            self.store = Store(self.loaded.out / "h3sprite.sqlite")
            self.reserve = disk.Reserve(self.loaded.out)
        self.disk_full: BaseException | None = None  # set by any thread that hits ENOSPC
        self.server: ServerHandle | None = None
        self.uploaded: dict[str, str] = {}
        self.bar: tqdm | None = None
        self.jobs_since_restart = 0
        self.rerolls: list[reroll.Draw] = []  # drawn by --reroll, recorded when not a dry run

    # ---------------------------------------------------------------- output ---
    def say(self, line: str) -> None:
        log.info(line)
        if self.opts.quiet:
            return
        if self.bar is not None:
            self.bar.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    # ------------------------------------------------------------- planning ---
    def selected_jobs(self) -> list[Job]:
        wf_sha = sha256_file(self.loaded.workflow)
        models = [f"{folder}/{name}" for folder, name, _ in self.workflow.model_files()]
        # Issue 12: seeds drawn by earlier --reroll runs stay in force (driver/reroll.py).
        joblist_seeds = {f"{c}/{a}": self.loaded.seed(c, a) for c in self.loaded.spec.characters
                         for a in self.loaded.actions_of(c)}
        seeds = reroll.kept(self.store.path, joblist_seeds)
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

    def _run(self) -> Summary:
        problems = check(self.loaded)
        if problems:
            raise StopBatch("\n".join(problems))
        planned = plan(self.selected_jobs(), self.store, self.opts)
        drawn = {d.key: d for d in self.rerolls}
        for p in planned:
            if p.job.key in drawn:
                d = drawn[p.job.key]
                p.reason = f"re-roll: seed {d.previous} -> {d.seed}"
        if self.rerolls and not self.opts.dry_run:
            reroll.record(self.store.path, self.rerolls)  # before any work: resume keeps it
        if self.opts.dry_run:
            for p in planned:
                what = "generate+process" if p.generate else ("process" if p.process else "skip")
                print(f"{p.job.key:<24} {what:<17} {p.reason}")
            return self.summary
        for p in planned:
            if not p.process:
                self.summary.skipped.append((p.job.key, p.reason))
        todo = [p for p in planned if p.process]
        if not todo:
            self.say(f"nothing to do: {len(planned)} job(s) current")
            self._write_actions()
            return self.summary
        if any(p.generate for p in todo):
            self._start_server(sum(p.generate for p in todo))
        start = time.monotonic()  # per-set costs exclude the one-off server start
        self.bar = tqdm(total=len(todo), unit="job", file=sys.stderr, dynamic_ncols=True,
                        disable=self.opts.quiet or None)
        pending: list[Future] = []
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="post")
        current: Planned | None = None
        try:
            for p in todo:
                if self.disk_full is not None:  # a post-processing thread hit a full disk
                    break
                current = p
                prev = self.store.get(p.job.key)  # keep its meta: a killed run's prompt is there
                self.store.put(p.job.key, fingerprint=p.job.fingerprint,
                               gen_fingerprint=p.job.gen_fingerprint, status="running",
                               meta={**(prev.meta if prev else {}), "inputs": p.job.inputs})
                if p.generate:
                    self._maybe_restart()
                    clip, gen = self._generate(p.job)
                    self.jobs_since_restart += 1
                    if clip is None:
                        self.bar.update(1)
                        continue
                else:
                    clip, gen = decode(p.job.clip_path), {"reused": True}
                pending.append(pool.submit(self._post, p.job, clip, gen))
                current = None
            for f in pending:
                f.result()
        except Exception as e:  # issue 10: a full disk stops the batch, with its summary
            if not disk.is_full(e):
                raise
            self.disk_full = self.disk_full or e
        except KeyboardInterrupt:
            self.say("interrupted: finishing the sheet in progress, then stopping")
            if current is not None:
                self.store.put(current.job.key, status="pending", error="interrupted")
            raise  # the finally below lets the sheet in progress finish
        finally:
            pool.shutdown(wait=True)
            if self.bar is not None:
                self.bar.close()
                self.bar = None
        self.summary.wall = time.monotonic() - start
        self.summary.restarts = self.server.restarts if self.server else 0
        if self.disk_full is not None:
            self._stop_for_full_disk(self.disk_full, todo)
        return self.summary

    def _stop_for_full_disk(self, e: BaseException, todo: list[Planned]) -> None:
        """One line naming the path, the free space and the need; jobs left `running` go
        back to `pending` (the database may be on the full disk too: then the next start
        sees them as interrupted, which plans the same)."""
        if self.reserve is not None:
            self.reserve.release()  # room for the database to record what follows
        left = [p for p in todo if p.job.key not in self.summary.done]
        path = getattr(e, "filename", None) or (
            self.store.path if not isinstance(e, OSError) else None)
        self.summary.stopped = disk.line(path, disk.need_for(len(left)), self.loaded.out)
        for p in left:
            row = self.store.get(p.job.key)
            if row is not None and row.status == "running":
                with contextlib.suppress(Exception):
                    self.store.put(p.job.key, status="pending", error="disk full")
        self.say(self.summary.stopped)

    def _start_server(self, n_generate: int) -> None:
        self.server = ServerHandle(self.loaded.spec.server)
        try:
            self.server.ensure()
        except ServerUnavailable as e:
            raise StopBatch(str(e)) from None
        problems = preflight(self.loaded, self.server.client, n_generate)
        if problems:
            raise StopBatch("\n".join(problems))
        self.say(self.server.before_video(self.loaded.spec.server.before_video))

    def _maybe_restart(self) -> None:
        """Before a generation: restart a long-running server of ours when configured
        (every N jobs, or when its memory has grown past a threshold)."""
        if self.server is None or not self.server.managed or not self.jobs_since_restart:
            return
        spec = self.loaded.spec.server
        if spec.restart_every and self.jobs_since_restart >= spec.restart_every:
            self._restart_between_jobs(f"every {spec.restart_every} jobs, as configured")
        elif spec.restart_above_rss_gb:
            rss = self.server.rss_bytes() or 0
            if rss > spec.restart_above_rss_gb * 2**30:
                self._restart_between_jobs(f"RSS {rss / 2**30:.1f} GiB above "
                                           f"{spec.restart_above_rss_gb} GiB")

    def _restart_between_jobs(self, why: str) -> None:
        self.server.restart(why)
        self.jobs_since_restart = 0

    # ----------------------------------------------------------- generation ---
    def _portrait_name(self, j: Job, size: tuple[int, int]) -> str:
        """Upload what the @portrait node should load, once per content: the portrait
        itself when the graph prepares the first frame (Green Screen Prep), else the first
        frame prepared here at the job's canvas, so any graph can be driven."""
        if PREP_NODE in self.workflow.class_types():
            path = j.portrait
        else:
            rgba = load_portrait(j.portrait)
            frame, _ = prepare_first_frame(rgba, *size)
            j.work_dir.mkdir(parents=True, exist_ok=True)
            path = j.work_dir / f"first_frame_{size[0]}x{size[1]}.png"
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, "PNG")
            write_atomic(path, buf.getvalue())
        digest = sha256_file(path)[:10]
        if digest not in self.uploaded:
            ext = path.suffix.lower() or ".png"
            self.uploaded[digest] = self.server.client.upload(path, f"{j.cid}-{digest}{ext}")
        return self.uploaded[digest]

    def _graph(self, j: Job, seconds: float, size: tuple[int, int], steps: int | None) -> dict:
        g = self.workflow.bind(portrait=self._portrait_name(j, size), prompt=j.prompt,
                               seconds=seconds,
                               size=size, seed=j.seed,
                               clip_prefix=f"h3sprite/{j.cid}_{j.action}/{j.gen_fingerprint[:8]}",
                               action=j.action, loop_closure=j.loop_closure)
        marks = self.workflow.markers()
        for target, values in self.loaded.spec.overrides.items():
            for node_id in marks.get(target, [target]):
                g[node_id]["inputs"].update(values)
        if steps is not None:
            for node in g.values():
                if "steps" in node["inputs"] and isinstance(node["inputs"]["steps"], int):
                    node["inputs"]["steps"] = steps
        return g

    def _generate(self, j: Job) -> tuple[Clip | None, dict]:
        spec = self.loaded.spec.server
        seconds, size, steps = j.recipe.seconds, j.size, None
        ladder: list[str] = []
        attempts, prompt_ids = 0, []
        clip_node = self.workflow.markers()["@clip"][0]
        adopted = self._adopt_inflight(j, clip_node)  # issue 10: a killed driver's prompt
        if adopted is not None:
            return adopted
        while True:
            attempts += 1
            prompt_id = str(uuid.uuid4())
            prompt_ids.append(prompt_id)
            frames = snap_length(seconds)
            # Recorded before the POST: if we are killed, the next run can find it (adopt.py)
            self.store.put(j.key, meta=Inflight(prompt_id, self.server.client.client_id,
                                                j.gen_fingerprint, frames).as_meta())
            try:
                run = self._run_once(j, prompt_id, self._graph(j, seconds, size, steps))
                clip = self._fetch_clip(j, run, clip_node, frames)
                self.summary.gen_seconds.append(run.seconds)
                return clip, {"seconds": round(run.seconds, 2), "attempts": attempts,
                              "prompt_ids": prompt_ids, "steps": len(run.steps),
                              "ladder": ladder, "clip_seconds": seconds, "canvas": list(size)}
            except ValidationFailed as e:
                return self._fail(j, f"ComfyUI refused the workflow: {e}", attempts, prompt_ids)
            except ExecutionFailed as e:
                if not e.out_of_memory:
                    return self._fail(j, f"ComfyUI: {e}", attempts, prompt_ids)
                rung = self._next_rung(seconds, size, steps)
                if rung is None:
                    return self._fail(j, f"out of memory at the smallest settings: {e}",
                                      attempts, prompt_ids)
                seconds, size, steps, text = rung
                ladder.append(text)
                self.say(f"{j.key}: out of memory; retrying with {text}")
                attempts -= 1  # the ladder is not a crash: it has its own end
            except requests.HTTPError as e:
                return self._fail(j, f"ComfyUI answered {e}", attempts, prompt_ids)
            except (ServerLost, Hung) as e:
                try:
                    adopted = self._recover(j, e, prompt_id)
                    if adopted is not None:  # the server ran it: adopt it, send nothing again
                        clip = self._fetch_clip(j, adopted, clip_node, frames)
                        return clip, {"attempts": attempts, "prompt_ids": prompt_ids,
                                      "ladder": ladder, "adopted": True}
                except ServerUnavailable as e2:
                    return self._fail(j, str(e2), attempts, prompt_ids)
                except (ServerLost, ClipError, requests.HTTPError):
                    pass  # counts as this try; the loop decides whether to go on
                if attempts >= spec.attempts:
                    return self._fail(j, f"gave up after {attempts} tries: {e}", attempts,
                                      prompt_ids)
            except ClipError as e:
                if attempts >= spec.attempts:
                    return self._fail(j, f"bad clip after {attempts} tries: {e}", attempts,
                                      prompt_ids)
                self.say(f"{j.key}: {e}; trying again")

    def _adopt_inflight(self, j: Job, clip_node: str) -> tuple[Clip, dict] | None:
        """The prompt an earlier, killed run left on the server for this job, if the server
        still has it (same prompt id, same client id, same inputs): wait for it and take its
        clip instead of submitting again. None: submit as usual."""
        row = self.store.get(j.key)
        inflight = Inflight.from_meta(row.meta) if row else None
        if inflight is None or inflight.gen_fingerprint != j.gen_fingerprint:
            return None
        try:
            found = adopt.where(self.server.client, inflight)
            if found not in (adopt.Where.QUEUED, adopt.Where.DONE):
                return None
            self.say(f"{j.key}: adopting prompt {inflight.prompt_id} of an earlier run "
                     f"({found.value} on the server) instead of submitting it again")
            run = self._await_known(inflight.prompt_id)
            if run is None:
                return None
            clip = self._fetch_clip(j, run, clip_node, inflight.frames)
        except (ServerLost, ClipError, ExecutionFailed, requests.RequestException) as e:
            self.say(f"{j.key}: could not adopt the earlier prompt ({e}); submitting again")
            return None
        return clip, {"attempts": 1, "prompt_ids": [inflight.prompt_id], "ladder": [],
                      "adopted": True}

    def _fetch_clip(self, j: Job, run, clip_node: str, frames: int) -> Clip:
        """Download the @clip node's file atomically and check its frame count."""
        files = output_files(run.outputs, clip_node)
        if not files:
            raise ExecutionFailed(f"node {clip_node} (@clip) wrote no file")
        self._keep_old_clip(j)
        self.server.client.download(files[0], j.clip_path)
        clip = decode(j.clip_path)
        if len(clip.frames) != frames:
            raise ClipError(f"clip has {len(clip.frames)} frames, expected {frames}")
        return clip

    def _recover(self, j: Job, e: Exception, prompt_id: str):
        """After a hang or a lost server: bring the server back; return the prompt's run if
        the server still has it (then it must not be sent again), else None."""
        if isinstance(e, Hung):
            log.warning("%s hung; thread dump:\n%s", j.key, self.server.stacks())
            self.say(f"{j.key}: no progress for {self.loaded.spec.server.hang_seconds:.0f} s; "
                     "thread dump in the log; restarting")
            self.server.restart("hang")
            return None
        self.say(f"{j.key}: lost the server ({e}); recovering")
        self.server.recover(str(e))
        return self._await_known(prompt_id)

    def _run_once(self, j: Job, prompt_id: str, graph: dict):
        def on_event(kind: str, data: dict) -> None:
            if kind == "progress" and self.bar is not None:
                self.bar.set_postfix_str(f"{j.key} step {data.get('value')}/{data.get('max')}",
                                         refresh=False)

        try:
            return self.server.client.run(graph, prompt_id,
                                          idle_timeout=self.loaded.spec.server.hang_seconds,
                                          on_event=on_event)
        except KeyboardInterrupt:
            self._interrupt(prompt_id)
            raise

    def _interrupt(self, prompt_id: str) -> None:
        """Stop our prompt on the server too (only ours: /interrupt with its id)."""
        # The server may be gone; then nothing of ours is left running there.
        with contextlib.suppress(Exception):
            self.server.client.http.request("POST", "/interrupt",
                                            json={"prompt_id": prompt_id}, timeout=5)

    def _await_known(self, prompt_id: str):
        """If the server still has the prompt, wait for it and return its run."""
        from driver.client import Run

        client = self.server.client
        try:
            if not client.knows(prompt_id):
                return None
            deadline = time.monotonic() + self.loaded.spec.server.hang_seconds
            while time.monotonic() < deadline:
                hist = client.history(prompt_id)
                if hist.get("status", {}).get("completed"):
                    if hist["status"].get("status_str") != "success":
                        return None
                    run = Run(prompt_id, outputs=hist.get("outputs", {}))
                    return run
                time.sleep(0.5)
        except ServerLost:
            return None
        return None

    def _next_rung(self, seconds, size, steps):
        has_steps = any("steps" in n["inputs"] for n in self.workflow.graph.values())
        return next_rung(seconds, size, steps, has_steps)

    def _keep_old_clip(self, j: Job) -> None:
        """A clip being replaced moves into a new timestamped folder beside it."""
        if j.clip_path.exists():
            folder = new_folder(j.work_dir, "superseded")
            os.replace(j.clip_path, folder / j.clip_path.name)

    def _fail(self, j: Job, reason: str, attempts: int, prompt_ids: list[str]):
        self.store.put(j.key, status="failed", error=reason, attempts=attempts,
                       meta={"prompt_ids": prompt_ids, "inputs": j.inputs})
        with self.lock:
            self.summary.failed.append((j.key, reason))
        self.say(f"FAILED {j.key}: {reason}")
        return None, {}

    # ------------------------------------------------------- post-processing ---
    def _post(self, j: Job, clip: Clip, gen: dict) -> None:
        t = time.monotonic()
        try:
            res = pipeline.process_clip(clip, j.action, j.recipe, character=j.cid,
                                        cell_height=self.loaded.spec.cell_height,
                                        max_width=self.loaded.spec.max_width,
                                        reference=portrait_reference(j.portrait))
            with self.lock:
                written = write_sheet(res, j.out_dir, j.action, self.loaded.out, j.formats,
                                      j.image_format)
                post_s = time.monotonic() - t
                self.summary.post_seconds.append(post_s)
                self.summary.done.append(j.key)
                self.store.put(j.key, status="done", error=None,
                               attempts=gen.get("attempts", 0),
                               timings={"generation": gen.get("seconds"), "post": post_s},
                               outputs={"webp": str(j.webp), "json": str(j.json),
                                        "clip": str(j.clip_path),
                                        "files": {f.value: str(p)
                                                  for f, p in written.files.items()}},
                               meta={**{k: v for k, v in gen.items() if k != "seconds"},
                                     "inputs": j.inputs})
                self._write_actions()
            grade = res.loop_grade or "one-shot"
            flags = " ".join(res.qc) or "-"
            gen_s = (f"{gen['seconds']:.1f} s" if "seconds" in gen else
                     "adopted after reconnecting" if gen.get("adopted") else "reused")
            retries = max(0, gen.get("attempts", 1) - 1)
            ladder = f", OOM ladder: {'; '.join(gen['ladder'])}" if gen.get("ladder") else ""
            self.say(f"done {j.key}: generation {gen_s}, post {post_s:.2f} s, {grade}, "
                     f"QC {flags}, retries {retries}{ladder}")
        except Exception as e:  # a post-processing fault fails this job, not the batch
            if disk.is_full(e):  # ...but a full disk stops the batch (issue 10)
                self.disk_full = self.disk_full or e
                return
            log.exception("post-processing %s", j.key)
            self._fail(j, f"post-processing: {e}", gen.get("attempts", 0),
                       gen.get("prompt_ids", []))
        finally:
            if self.bar is not None:
                self.bar.update(1)

    def _write_actions(self) -> None:
        """From every finished job of this joblist's roster (not only the selected ones;
        characters removed from the joblist drop out)."""
        roster = {f"{c}/{a}" for c in self.loaded.spec.characters
                  for a in self.loaded.actions_of(c)}
        done = []
        for row in self.store.all():
            if row.key in roster and row.status == "done" and row.outputs.get("json"):
                cid, action = row.key.split("/", 1)
                done.append((cid, action, Path(row.outputs["json"])))
        actions_mod.write(self.loaded.out, done)


def summary_lines(s: Summary) -> list[str]:
    lines = [f"done {len(s.done)}, skipped {len(s.skipped)}, failed {len(s.failed)}"
             f"{f', server restarts {s.restarts}' if s.restarts else ''}"]
    if s.stopped:
        lines.append(f"  stopped early: {s.stopped}")
    for key, why in s.failed:
        lines.append(f"  failed {key}: {why}")
    reasons: dict[str, int] = {}
    for _, why in s.skipped:
        reasons[why] = reasons.get(why, 0) + 1
    for why, n in reasons.items():
        lines.append(f"  skipped {n}: {why}")
    if s.done and s.wall:
        per_set = s.wall / len(s.done)
        gen = sum(s.gen_seconds) / len(s.gen_seconds) if s.gen_seconds else 0.0
        lines.append(f"full chain {per_set:.1f} s per set against {gen:.1f} s of generation "
                     f"per set (wall {s.wall:.1f} s)")
    return lines


def log_to_file(out: Path) -> Path:
    folder = out / "_logs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"batch-{timestamp()}-{os.getpid()}.log"
    # flushed on every record; quiet (no traceback per record) when its disk fills up
    handler = disk.QuietFileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    return path
