"""Generation on one ComfyUI server: bind the graph, submit, follow, recover.

One `Generator` per server, used by one thread at a time, with one prompt in flight. It
owns what belongs to its server: the uploads made there, the restart counter, the RSS
limit and the hang watchdog. `generate` never raises for a job's own trouble: it returns a
`Generated` that says what came of it (a clip, or why not and whether the server was lost).
"""

from __future__ import annotations

import io
import logging
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import requests
from PIL import Image

from comfy_nodes.core.greenscreen import PortraitError, load_portrait, prepare_first_frame
from comfy_nodes.core.pipeline import full_frames
from comfy_nodes.core.snap import snap_length
from comfy_nodes.core.util import atomic_write, sha256_file
from comfy_nodes.core.video import Clip, ClipError, decode
from driver import adopt
from driver.adopt import Inflight
from driver.client import ExecutionFailed, Hung, Run, ServerLost, ValidationFailed, output_files
from driver.jobs import Job
from driver.ladder import next_rung
from driver.outputs import new_folder
from driver.server import ServerHandle, ServerUnavailable
from driver.store import Store
from driver.workflow import Workflow
from service.api import request_error_line

log = logging.getLogger("driver.generate")

PREP_NODE = "H3Sprite_GreenScreenPrep"


@dataclass
class Generated:
    """What generation made of one job on one server."""

    server: str
    clip: Clip | None = None
    error: str | None = None
    server_lost: bool = False  # the failure was the server's: another server may try it
    attempts: int = 0
    prompt_ids: list[str] = field(default_factory=list)
    seconds: float | None = None  # the server's execution time
    steps: int = 0
    ladder: list[str] = field(default_factory=list)
    clip_seconds: float | None = None
    canvas: tuple[int, int] | None = None
    adopted: bool = False
    reused: bool = False

    def meta(self) -> dict[str, Any]:
        """What the store keeps about generation (beside the timings)."""
        out: dict[str, Any] = {"attempts": self.attempts, "prompt_ids": self.prompt_ids,
                               "ladder": self.ladder, "server": self.server}
        if self.adopted:
            out["adopted"] = True
        if self.reused:
            out["reused"] = True
        if self.seconds is not None:
            out.update(steps=self.steps, clip_seconds=self.clip_seconds,
                       canvas=list(self.canvas or ()))
        return out


Say = Callable[[str], None]
OnEvent = Callable[[str, dict], None]


class Generator:
    def __init__(self, server: ServerHandle, workflow: Workflow,
                 overrides: dict[str, dict[str, Any]], say: Say, store: Store | None = None):
        self.server = server
        self.store = store  # where each prompt is recorded before it is sent (adopt.py)
        self.spec = server.spec
        self.workflow = workflow
        self.overrides = overrides
        self.say = say
        self.uploaded: dict[str, str] = {}
        self.jobs_since_restart = 0
        self.prompt_id: str | None = None  # the prompt in flight, for interrupt()
        self.on_event: OnEvent | None = None

    @property
    def name(self) -> str:
        return self.server.url

    # ---------------------------------------------------------- server policy ---
    def maybe_restart(self) -> None:
        """Before a generation: restart a long-running server of ours when configured
        (every N jobs, or when its memory has grown past a threshold)."""
        if not self.server.managed or not self.jobs_since_restart:
            return
        spec = self.spec
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

    def interrupt(self) -> None:
        """Stop our prompt in flight on the server (only ours)."""
        if self.prompt_id is not None:
            self.server.client.interrupt(self.prompt_id)

    # ---------------------------------------------------------------- binding ---
    def _portrait_name(self, j: Job, size: tuple[int, int]) -> str:
        """Upload what the @portrait node should load, once per content and server: the
        portrait itself when the graph prepares the first frame (Green Screen Prep), else
        the first frame prepared here at the job's canvas, so any graph can be driven."""
        if PREP_NODE in self.workflow.class_types():
            path = j.portrait
        else:
            rgba = load_portrait(j.portrait)
            frame, _ = prepare_first_frame(rgba, *size)
            j.work_dir.mkdir(parents=True, exist_ok=True)
            path = j.work_dir / f"first_frame_{size[0]}x{size[1]}.png"
            buf = io.BytesIO()
            Image.fromarray(frame).save(buf, "PNG")
            atomic_write(path, buf.getvalue())
        try:
            digest = sha256_file(path)[:10]
        except OSError as e:  # moved or deleted since the batch's check read it
            raise PortraitError(f"portrait {path} cannot be read: {e.strerror}: put it back "
                                "and run the batch again") from None
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
        for target, values in self.overrides.items():
            for node_id in marks.get(target, [target]):
                g[node_id]["inputs"].update(values)
        if steps is not None:
            for node in g.values():
                if "steps" in node["inputs"] and isinstance(node["inputs"]["steps"], int):
                    node["inputs"]["steps"] = steps
        return g

    # ------------------------------------------------------------- generation ---
    def generate(self, j: Job) -> Generated:
        """One job to a checked clip: the OOM ladder, retries, recovery of a lost server
        (adopting the prompt when the server still has it, never sending it twice)."""
        seconds, size, steps = j.recipe.seconds, j.size, None
        res = Generated(self.name)
        clip_node = self.workflow.markers()["@clip"][0]
        if self._adopt_inflight(j, clip_node, res):  # a killed driver's prompt, still there
            return res
        while True:
            res.attempts += 1
            prompt_id = str(uuid.uuid4())
            res.prompt_ids.append(prompt_id)
            frames = snap_length(seconds)
            if self.store is not None:  # before the POST: if we are killed, the next run finds it
                self.store.put(j.key, meta=Inflight(
                    prompt_id, self.server.client.client_id, j.gen_fingerprint, frames,
                    self.name).as_meta())
            try:
                run = self._run_once(j, prompt_id, self._graph(j, seconds, size, steps))
                res.clip = self._fetch_clip(j, run, clip_node, frames)
                res.seconds, res.steps = run.seconds, len(run.steps)
                res.clip_seconds, res.canvas = seconds, size
                return res
            except ValidationFailed as e:
                return self._fail(res, f"ComfyUI refused the workflow: {e}")
            except PortraitError as e:  # changed on disk since the check: this job fails
                return self._fail(res, f"character {j.cid}: {e}")
            except ExecutionFailed as e:
                if not e.out_of_memory:
                    return self._fail(res, f"ComfyUI: {e}")
                rung = self._next_rung(seconds, size, steps)
                if rung is None:
                    return self._fail(res, f"out of memory at the smallest settings: {e}")
                seconds, size, steps, text = rung
                res.ladder.append(text)
                self.say(f"{j.key}: out of memory; retrying with {text}")
                res.attempts -= 1  # the ladder is not a crash: it has its own end
            except requests.HTTPError as e:
                return self._fail(res, request_error_line(e))
            except (ServerLost, Hung) as e:
                try:
                    adopted = self._recover(j, e, prompt_id)
                    if adopted is not None:  # the server ran it: adopt it, send nothing again
                        res.clip = self._fetch_clip(j, adopted, clip_node, frames)
                        res.adopted = True
                        return res
                except ServerUnavailable as e2:  # the restart failed (killed again while
                    # starting): one try, as a lost connection is; the server is given up
                    # only when the job's tries are (it was at the first failure)
                    if res.attempts >= self.spec.attempts:
                        return self._fail(res, str(e2), server_lost=True)
                    self.say(f"{j.key}: {e2}; trying again")
                    continue
                except (ServerLost, ClipError, requests.HTTPError):
                    pass  # counts as this try; the loop decides whether to go on
                if res.attempts >= self.spec.attempts:
                    return self._fail(res, f"gave up after {res.attempts} tries: {e}",
                                      server_lost=True)
            except ClipError as e:
                if res.attempts >= self.spec.attempts:
                    return self._fail(res, f"bad clip after {res.attempts} tries: {e}")
                self.say(f"{j.key}: {e}; trying again")
            finally:
                self.prompt_id = None

    def _adopt_inflight(self, j: Job, clip_node: str, res: Generated) -> bool:
        """The prompt an earlier, killed run sent this job to this server, if the server
        still has it (same prompt id, client id and inputs): wait for it and take its clip
        instead of submitting again. False: submit as usual."""
        row = self.store.get(j.key) if self.store is not None else None
        inflight = Inflight.from_meta(row.meta) if row else None
        if (inflight is None or inflight.gen_fingerprint != j.gen_fingerprint
                or inflight.server != self.name):
            return False
        client = self.server.client
        try:
            found = adopt.where(client, inflight)
            if found not in (adopt.Where.QUEUED, adopt.Where.DONE):
                return False
            self.say(f"{j.key}: adopting prompt {inflight.prompt_id} of an earlier run "
                     f"({found.value} on {self.name}) instead of submitting it again")
            self.prompt_id = inflight.prompt_id  # interrupt() reaches it
            run = client.wait_history(inflight.prompt_id, self.spec.hang_seconds)
            if run is None:  # failed, or still not done: it must not run beside a resubmission
                client.interrupt(inflight.prompt_id)
                return False
            res.clip = self._fetch_clip(j, run, clip_node, inflight.frames)
        except (ServerLost, ClipError, ExecutionFailed, requests.RequestException) as e:
            why = request_error_line(e) if isinstance(e, requests.RequestException) else str(e)
            self.say(f"{j.key}: could not adopt the earlier prompt ({why}); submitting again")
            return False
        finally:
            self.prompt_id = None
        res.attempts, res.prompt_ids, res.adopted = 1, [inflight.prompt_id], True
        return True

    def _fail(self, res: Generated, reason: str, server_lost: bool = False) -> Generated:
        res.error, res.server_lost = reason, server_lost
        return res

    def _fetch_clip(self, j: Job, run: Run, clip_node: str, frames: int) -> Clip:
        """Download the @clip node's file atomically and check its frame count."""
        files = output_files(run.outputs, clip_node)
        if not files:
            raise ExecutionFailed(f"node {clip_node} (@clip) wrote no file")
        self._keep_old_clip(j)
        self.server.client.download(files[0], j.clip_path)
        clip = decode(j.clip_path, keep=full_frames(j.recipe))  # memory follows the sheet
        if clip.frame_count != frames:
            raise ClipError(f"clip has {clip.frame_count} frames, expected {frames}")
        return clip

    def _recover(self, j: Job, e: Exception, prompt_id: str) -> Run | None:
        """After a hang or a lost server: bring the server back; return the prompt's run if
        the server still has it (then it must not be sent again), else None."""
        if isinstance(e, Hung):
            log.warning("%s hung; thread dump:\n%s", j.key, self.server.stacks())
            self.say(f"{j.key}: no progress for {self.spec.hang_seconds:.0f} s on "
                     f"{self.name}; thread dump in the log; restarting")
            self.server.restart("hang")
            return None
        self.say(f"{j.key}: lost the server {self.name} ({e}); recovering")
        self.server.recover(str(e))
        client = self.server.client
        try:
            run = client.wait_history(prompt_id, self.spec.hang_seconds)
        except ServerLost:
            return None
        if run is None:  # unknown, failed, or still not done: it must not run beside a retry
            client.interrupt(prompt_id)
        return run

    def _run_once(self, j: Job, prompt_id: str, graph: dict) -> Run:
        self.prompt_id = prompt_id
        return self.server.client.run(graph, prompt_id, idle_timeout=self.spec.hang_seconds,
                                      on_event=self.on_event)

    def _next_rung(self, seconds: float, size: tuple[int, int],
                   steps: int | None) -> tuple[float, tuple[int, int], int | None, str] | None:
        has_steps = any("steps" in n["inputs"] for n in self.workflow.graph.values())
        return next_rung(seconds, size, steps, has_steps)

    def _keep_old_clip(self, j: Job) -> None:
        """A clip being replaced moves into a new timestamped folder beside it."""
        if j.clip_path.exists():
            folder = new_folder(j.work_dir, "superseded")
            os.replace(j.clip_path, folder / j.clip_path.name)

