"""The batch's view of its ComfyUI server: reach it, start it, restart it, recover it.

"embedded" servers are ours (started through the service manager), so the batch may
restart them; a URL server belongs to someone else: we only wait for it to come back.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from driver.client import ComfyClient
from driver.joblist import ServerSpec
from service import manager
from service.api import Unreachable
from service.config import resolve

log = logging.getLogger(__name__)


class ServerUnavailable(RuntimeError):
    pass


class ServerHandle:
    def __init__(self, spec: ServerSpec):
        self.spec = spec
        self.managed = spec.embedded
        self.cfg = None
        if self.managed:
            flags: dict[str, Any] = {"port": spec.port, "host": spec.host,
                                     "allow_remote": spec.allow_remote}
            if spec.comfy_args:
                flags["extra_args"] = spec.comfy_args
            self.cfg = resolve(flags)
        self.client = ComfyClient(spec.base_url)
        self.restarts = 0

    @property
    def url(self) -> str:
        return self.spec.base_url

    def reachable(self, timeout: float = 3.0) -> bool:
        try:
            self.client.http.system_stats(timeout=timeout)
            return True
        except Unreachable:
            return False
        except Exception:
            return False

    def ensure(self) -> None:
        if self.reachable():
            return
        if self.managed and self.spec.start:
            res = manager.start(self.cfg)
            if res.code == manager.Exit.PORT_IN_USE:
                raise ServerUnavailable(
                    f"could not start the embedded ComfyUI: port {self.spec.port} is in use by "
                    f"another program: set server.port in the joblist to a free port, or point "
                    f"server.url at that ComfyUI if it is yours")
            if res.code != manager.Exit.OK:
                raise ServerUnavailable(f"could not start the embedded ComfyUI: {res.message}")
            log.info("%s", res.message)
            return
        raise ServerUnavailable(f"ComfyUI at {self.url} is not reachable: start it (or set "
                                "server.url: embedded to let the batch run its own)")

    def restart(self, why: str) -> None:
        self.restarts += 1
        if self.managed:
            log.warning("restarting ComfyUI (%s)", why)
            res = manager.restart(self.cfg)
            if res.code != manager.Exit.OK:
                raise ServerUnavailable(f"restart failed: {res.message}")
            return
        log.warning("ComfyUI at %s is gone (%s); not ours to restart, waiting for it", self.url,
                    why)
        self.wait_back(180)

    def wait_back(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.reachable():
                return
            time.sleep(1.0)
        raise ServerUnavailable(f"ComfyUI at {self.url} did not come back in {seconds:.0f} s")

    def recover(self, why: str) -> None:
        """After a lost connection: a server that answers again within a few seconds was a
        hiccup; otherwise restart it (ours) or wait for it (someone else's)."""
        for _ in range(6):
            if self.reachable(timeout=2):
                return
            time.sleep(0.5)
        self.restart(why)

    def stacks(self) -> str:
        if not self.managed:
            return ""
        res = manager.stacks(self.cfg)
        return res.detail if res.code == manager.Exit.OK else res.message

    def before_video(self, mode: str) -> str:
        if mode == "none":
            return "GPU exclusion: none (as configured)"
        if mode == "restart":
            if not self.managed:
                return "GPU exclusion: cannot restart a server we do not manage; skipped"
            self.restart("before video jobs, as configured")
            return "GPU exclusion: restarted before video jobs"
        if self.managed:
            return f"GPU exclusion: {manager.switch(self.cfg, 'video').message}"
        # Someone else's server: ask it to unload models; restarting is not ours to do.
        self.client.http.free()
        return "GPU exclusion: asked the server to free its models (POST /free)"

    def rss_bytes(self) -> int | None:
        if not self.managed:
            return None
        return manager.status(self.cfg).data.get("rss_bytes")
