"""The batch's view of its ComfyUI server: reach it, start it, restart it, recover it.

"embedded" servers are ours (started through the service manager), so the batch may
restart them; a URL server belongs to someone else: we only wait for it to come back.
"""

from __future__ import annotations

import logging
from typing import Any

from comfy_nodes.core.util import poll_until
from driver.client import ComfyClient
from driver.joblist import ServerSpec
from service import manager
from service.api import gpu_devices
from service.config import ServiceConfig, resolve

log = logging.getLogger(__name__)

# VRAM a server holds with no model loaded (CUDA context, caches): below it, nothing to free.
IDLE_VRAM = 1 * 2**30


class ServerUnavailable(RuntimeError):
    pass


class ServerHandle:
    def __init__(self, spec: ServerSpec):
        self.spec = spec
        self.managed = spec.embedded
        self.cfg: ServiceConfig | None = None
        if self.managed:
            flags: dict[str, Any] = {"port": spec.port, "gpu": spec.gpu, "host": spec.host,
                                     "allow_remote": spec.allow_remote}
            if spec.comfy_args:
                flags["extra_args"] = spec.comfy_args
            self.cfg = resolve(flags)
        self.client = ComfyClient(spec.base_url)
        self.restarts = 0
        self.fresh = False

    def _own(self) -> ServiceConfig:
        """Our server's settings: only an embedded server has them (callers check managed)."""
        if self.cfg is None:
            raise ServerUnavailable(f"ComfyUI at {self.url} is not ours to start or stop")
        return self.cfg

    @property
    def url(self) -> str:
        return self.spec.base_url

    def reachable(self, timeout: float = 3.0) -> bool:
        return self.client.reachable(timeout)

    def ensure(self) -> None:
        if self.reachable():
            return
        if self.managed and self.spec.start:
            res = manager.start(self._own())
            if res.code == manager.Exit.PORT_IN_USE:
                raise ServerUnavailable(
                    f"could not start the embedded ComfyUI: port {self.spec.port} is in use by "
                    f"another program: set server.port (or that servers: entry's port) in "
                    f"the joblist to a free port, or point its url at that ComfyUI if it is "
                    f"yours")
            if res.code != manager.Exit.OK:
                raise ServerUnavailable(f"could not start the embedded ComfyUI: {res.message}")
            log.info("%s", res.message)
            self.fresh = True  # started here: no model of any family is loaded yet
            return
        if self.managed:  # embedded, with start: false
            raise ServerUnavailable(
                f"ComfyUI at {self.url} is not running and server.start is false: set "
                "server.start: true to let the batch start it, or start it yourself "
                f"(comfy_service start --port {self.spec.port}, the joblist's comfy_args "
                "after --)")
        raise ServerUnavailable(f"ComfyUI at {self.url} is not reachable: start it (or set "
                                "server.url: embedded to let the batch run its own)")

    def restart(self, why: str) -> None:
        self.restarts += 1
        if self.managed:
            log.warning("restarting ComfyUI (%s)", why)
            res = manager.restart(self._own())
            if res.code != manager.Exit.OK:
                raise ServerUnavailable(f"restart failed: {res.message}")
            return
        log.warning("ComfyUI at %s is gone (%s); not ours to restart, waiting for it", self.url,
                    why)
        self.wait_back(self.spec.hang_seconds)

    def wait_back(self, seconds: float) -> None:
        if not poll_until(self.reachable, seconds, 1.0):
            raise ServerUnavailable(f"ComfyUI at {self.url} did not come back in "
                                    f"{seconds:.0f} s")

    def recover(self, why: str) -> None:
        """After a lost connection: a server that answers again within a few seconds was a
        hiccup; otherwise restart it (ours) or wait for it (someone else's)."""
        if poll_until(lambda: self.reachable(timeout=2), 3.0, 0.5):
            return
        self.restart(why)

    def stacks(self) -> str:
        if not self.managed:
            return ""
        res = manager.stacks(self._own())
        return res.detail if res.code == manager.Exit.OK else res.message

    def before_video(self, mode: str) -> str:
        if mode == "none":
            return "GPU exclusion: none (as configured)"
        if self.fresh:  # nothing to free; freeing would cost the server a second of GC
            return "GPU exclusion: the server was just started, nothing is loaded"
        if mode == "restart":
            if not self.managed:
                return "GPU exclusion: cannot restart a server we do not manage; skipped"
            self.restart("before video jobs, as configured")
            return "GPU exclusion: restarted before video jobs"
        idle_gpu = self._nothing_on_gpu()
        if idle_gpu:  # freeing would only cost the server a second of garbage collection
            return f"GPU exclusion: {idle_gpu}, nothing to free"
        if self.managed:
            return f"GPU exclusion: {manager.switch(self._own(), 'video', reads=1).message}"
        # Someone else's server: ask it to unload models; restarting is not ours to do.
        self.client.free()
        return "GPU exclusion: asked the server to free its models (POST /free)"

    def _nothing_on_gpu(self) -> str | None:
        """Why there is nothing to free (no GPU, or next to no VRAM in use), else None."""
        gpus = gpu_devices(self.client.system_stats())
        if not gpus:
            return "no GPU on this server"
        used = sum(int(d.get("vram_total", 0)) - int(d.get("vram_free", 0)) for d in gpus)
        return f"{used / 2**30:.1f} GiB of VRAM in use" if used <= IDLE_VRAM else None

    def rss_bytes(self) -> int | None:
        if not self.managed:
            return None
        return manager.status(self._own()).data.get("rss_bytes")
