"""ComfyUI client for one job: upload, submit with a client-minted id, follow the websocket,
confirm with /history, download. Errors are typed so the batch can decide what to do."""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import requests
import websocket

from comfy_nodes.core.util import atomic_write, poll_until
from service.api import ComfyHTTP, Unreachable


class ServerLost(ConnectionError):
    """Refused, reset or the socket died: the server is gone (for now)."""


class Hung(TimeoutError):
    """No progress event for longer than allowed."""


class ValidationFailed(ValueError):
    """ComfyUI refused the graph (HTTP 400): fail the job at once with its message."""


class ExecutionFailed(RuntimeError):
    """A node raised while the prompt ran."""

    def __init__(self, message: str, exception_type: str = "", node_type: str = ""):
        super().__init__(message)
        self.exception_type = exception_type
        self.node_type = node_type

    @property
    def out_of_memory(self) -> bool:
        text = f"{self.exception_type} {self}".lower()
        return "outofmemory" in text or "out of memory" in text or "oom" in text.split()


@dataclass
class Run:
    """What happened to one prompt."""

    prompt_id: str
    started: float = 0.0
    finished: float = 0.0
    steps: list[tuple[float, int, int]] = field(default_factory=list)  # (t, value, max)
    cached: list[str] = field(default_factory=list)
    outputs: dict = field(default_factory=dict)

    @property
    def seconds(self) -> float:
        return max(0.0, self.finished - self.started)


def _validation_message(body: dict) -> str:
    err = body.get("error", {})
    parts = [err.get("message", "invalid prompt")]
    for node_id, ne in (body.get("node_errors") or {}).items():
        for e in ne.get("errors", []):
            inp = e.get("extra_info", {}).get("input_name", "")
            parts.append(f"node {node_id} ({ne.get('class_type', '?')}){' ' + inp if inp else ''}:"
                         f" {e.get('message', '')} {e.get('details', '')}".rstrip())
    return "; ".join(parts)


class ComfyClient:
    def __init__(self, base_url: str, timeout: float = 30.0):
        self.http = ComfyHTTP(base_url, timeout=timeout)
        self.base_url = self.http.base_url
        self.client_id = f"h3sprite-{uuid.uuid4().hex[:12]}"

    # -- plain routes ------------------------------------------------------------
    def _get(self, route: str):
        try:
            return self.http.get_json(route)
        except Unreachable as e:
            raise ServerLost(str(e)) from e

    def system_stats(self) -> dict:
        return self._get("/system_stats")

    def object_info(self) -> dict:
        return self._get("/object_info")

    def comfyui_version(self) -> str:
        """The server's ComfyUI version, from /system_stats ("unknown" when not said)."""
        stats = self._get("/system_stats")
        return str(stats.get("system", {}).get("comfyui_version") or "unknown")

    def node_info(self, classes: set[str]) -> dict:
        """/object_info of just these node classes (absent: the server lacks it), asked one
        by one: the whole /object_info is hundreds of kB and takes the server a few tenths
        of a second to build."""
        info: dict = {}
        for c in classes:
            info.update(self._get(f"/object_info/{quote(c, safe='')}"))
        return info

    def missing_nodes(self, classes: set[str]) -> set[str]:
        """The node classes the server lacks."""
        return classes - set(self.node_info(classes))

    def models(self, folder: str) -> list[str] | None:
        try:
            resp = self.http.request("GET", f"/models/{folder}")
        except Unreachable as e:
            raise ServerLost(str(e)) from e
        return resp.json() if resp.status_code == 200 else None

    def queue(self) -> dict:
        return self._get("/queue")

    def history(self, prompt_id: str) -> dict:
        return self._get(f"/history/{prompt_id}").get(prompt_id, {})

    def knows(self, prompt_id: str) -> bool:
        """Is the prompt queued, running or finished on the server (so must not be resent)?"""
        q = self.queue()
        items = q.get("queue_running", []) + q.get("queue_pending", [])
        return any(len(i) > 1 and i[1] == prompt_id for i in items) or bool(
            self.history(prompt_id))

    def reachable(self, timeout: float = 3.0) -> bool:
        """Does the server answer /system_stats now?"""
        try:
            self.http.system_stats(timeout=timeout)
            return True
        except (Unreachable, requests.RequestException, ValueError):
            return False

    def free(self) -> None:
        """Ask the server to unload its models and free memory (POST /free)."""
        try:
            self.http.free()
        except Unreachable as e:
            raise ServerLost(str(e)) from e

    def interrupt(self, prompt_id: str) -> None:
        """Stop this prompt, only it, wherever it is: dropped from the queue when waiting
        (POST /queue delete), interrupted when running (/interrupt with its id). A server
        that is gone has nothing of ours left running, so failing to reach it is fine."""
        with contextlib.suppress(Unreachable):
            self.http.request("POST", "/queue", json={"delete": [prompt_id]}, timeout=5)
            self.http.request("POST", "/interrupt", json={"prompt_id": prompt_id}, timeout=5)

    def wait_history(self, prompt_id: str, timeout: float, interval: float = 0.5) -> Run | None:
        """If the server knows the prompt (queued, running, finished), wait for it to end
        and return its run when it succeeded; None when unknown, failed or still running
        after `timeout` (a prompt the server knows must never be sent again)."""
        if not self.knows(prompt_id):
            return None
        hist = poll_until(lambda: self._ended(prompt_id), timeout, interval)
        if not hist or not succeeded(hist):
            return None
        return Run(prompt_id, outputs=hist.get("outputs", {}))

    def _ended(self, prompt_id: str) -> dict | None:
        """The prompt's /history entry once it has one, ended well or not (succeeded())."""
        return self.history(prompt_id) or None

    def upload(self, path: Path, name: str, subfolder: str = "h3sprite") -> str:
        """Upload an input image; returns the name to use in the graph."""
        with open(path, "rb") as f:
            try:
                resp = self.http.request(
                    "POST", "/upload/image", timeout=120,
                    files={"image": (name, f, "application/octet-stream")},
                    data={"type": "input", "subfolder": subfolder, "overwrite": "true"})
            except Unreachable as e:
                raise ServerLost(str(e)) from e
        resp.raise_for_status()
        info = resp.json()
        return f"{info['subfolder']}/{info['name']}" if info.get("subfolder") else info["name"]

    def download(self, item: dict, dest: Path) -> Path:
        """Fetch an output file atomically (a partial download never has the final name)."""
        params = {"filename": item["filename"], "subfolder": item.get("subfolder", ""),
                  "type": item.get("type", "output")}
        try:
            resp = self.http.request("GET", "/view", params=params, timeout=300, stream=True)
        except Unreachable as e:
            raise ServerLost(str(e)) from e
        resp.raise_for_status()
        dest.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(dest, resp.iter_content(1 << 20))
        return dest

    # -- one prompt --------------------------------------------------------------
    def submit(self, graph: dict, prompt_id: str) -> None:
        try:
            resp = self.http.request("POST", "/prompt", json={
                "prompt": graph, "client_id": self.client_id, "prompt_id": prompt_id})
        except Unreachable as e:
            raise ServerLost(str(e)) from e
        if resp.status_code == 400:
            raise ValidationFailed(_validation_message(resp.json()))
        resp.raise_for_status()

    def connect(self) -> websocket.WebSocket:
        url = self.base_url.replace("http", "ws", 1) + f"/ws?clientId={self.client_id}"
        try:
            return websocket.create_connection(url, timeout=5)
        except (OSError, websocket.WebSocketException) as e:
            raise ServerLost(f"{self.base_url} refused the websocket: {e}") from e

    def run(self, graph: dict, prompt_id: str | None = None, idle_timeout: float = 600.0,
            on_event: Callable[[str, dict], None] | None = None,
            ws: websocket.WebSocket | None = None) -> Run:
        """Submit and follow one prompt to its end. The websocket is open before the POST
        (events go only to the submitting client); success is confirmed by /history."""
        prompt_id = prompt_id or str(uuid.uuid4())
        ws = ws or self.connect()
        run = Run(prompt_id)
        try:
            self.submit(graph, prompt_id)
            ws.settimeout(1.0)
            last = time.monotonic()
            while True:
                try:
                    raw = ws.recv()
                except websocket.WebSocketTimeoutException:
                    if time.monotonic() - last > idle_timeout:
                        raise Hung(f"no progress for {idle_timeout:.0f} s on prompt "
                                   f"{prompt_id}") from None
                    continue
                except (OSError, websocket.WebSocketException) as e:
                    raise ServerLost(f"lost the server while prompt {prompt_id} ran: {e}") \
                        from e
                if not isinstance(raw, str):
                    continue  # binary previews
                msg = json.loads(raw)
                kind, data = msg.get("type"), msg.get("data", {})
                if data.get("prompt_id") not in (None, prompt_id):
                    continue
                last = time.monotonic()
                if on_event:
                    on_event(kind, data)
                if kind == "execution_start":
                    run.started = time.time()
                elif kind == "execution_cached":
                    run.cached = list(data.get("nodes", []))
                elif kind == "progress":
                    run.steps.append((time.time(), int(data.get("value", 0)),
                                      int(data.get("max", 0))))
                elif kind == "execution_error":
                    raise ExecutionFailed(
                        f"{data.get('node_type', '?')} (node {data.get('node_id')}): "
                        f"{data.get('exception_type', '')}: {data.get('exception_message', '')}"
                        .strip(), data.get("exception_type", ""), data.get("node_type", ""))
                elif kind == "execution_interrupted":
                    raise ExecutionFailed(f"prompt {prompt_id} was interrupted",
                                          "Interrupted")
                elif kind == "execution_success":
                    break
        finally:
            ws.close()
        run.finished = time.time()
        # execution_success is sent before the worker files the prompt in /history: poll.
        hist = poll_until(lambda: self._ended(prompt_id), 30, 0.05) or {}
        status = hist.get("status") or {}
        if not succeeded(hist):
            raise ExecutionFailed(f"prompt {prompt_id} did not succeed per /history: "
                                  f"{status.get('status_str', 'no record')}")
        run.outputs = hist.get("outputs", {})
        if not run.started:
            run.started = run.finished
        return run


def succeeded(hist: dict) -> bool:
    """Whether a /history entry is a run that succeeded. ComfyUI files a prompt there only
    once it has ended (execution.PromptQueue.task_done, from main.py's worker): status
    {"status_str": "success", "completed": true} when it ran through, {"status_str":
    "error", "completed": false} when it failed or was interrupted (its "messages" end in
    execution_error or execution_interrupted). Not completed is never "still running"."""
    status = hist.get("status") or {}
    return status.get("status_str") == "success" and bool(status.get("completed"))


def output_files(outputs: dict, node_id: str) -> list[dict]:
    """The files a node wrote (images, gifs or videos), from /history outputs."""
    node = outputs.get(node_id, {})
    files = []
    for key in ("images", "gifs", "videos", "video"):
        for item in node.get(key, []) or []:
            if isinstance(item, dict) and "filename" in item:
                files.append(item)
    return files
