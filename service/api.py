"""The few ComfyUI HTTP routes the service manager needs (the driver's client builds on it)."""

from __future__ import annotations

from typing import Any

import requests


class Unreachable(ConnectionError):
    """The server did not answer (refused, reset, timed out)."""


class ComfyHTTP:
    def __init__(self, base_url: str, timeout: float = 5.0):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.session = requests.Session()
        self.session.trust_env = False  # loopback: never route through a proxy from the env

    def request(self, method: str, route: str, timeout: float | None = None, **kw: Any):
        try:
            resp = self.session.request(method, self.base_url + route,
                                        timeout=timeout or self.timeout, **kw)
        except requests.RequestException as e:
            raise Unreachable(f"{self.base_url} did not answer {route}: {type(e).__name__}") from e
        return resp

    def get_json(self, route: str, timeout: float | None = None) -> Any:
        resp = self.request("GET", route, timeout=timeout)
        resp.raise_for_status()
        return resp.json()

    def system_stats(self, timeout: float | None = None) -> dict:
        return self.get_json("/system_stats", timeout=timeout)

    def queue(self) -> dict:
        return self.get_json("/queue")

    def queue_length(self) -> int:
        q = self.queue()
        return len(q.get("queue_running", [])) + len(q.get("queue_pending", []))

    def free(self, unload_models: bool = True, free_memory: bool = True) -> None:
        resp = self.request("POST", "/free",
                            json={"unload_models": unload_models, "free_memory": free_memory})
        resp.raise_for_status()


def gpu_devices(stats: dict) -> list[dict]:
    """Devices of /system_stats that are real GPUs (the CPU entry has no VRAM to speak of)."""
    return [d for d in stats.get("devices", []) if d.get("type") not in ("cpu", None)]


def vram_free(stats: dict) -> int | None:
    gpus = gpu_devices(stats)
    return sum(int(d.get("vram_free", 0)) for d in gpus) if gpus else None
