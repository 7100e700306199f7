"""The few ComfyUI HTTP routes the service manager needs (the driver's client builds on it)."""

from __future__ import annotations

from typing import Any

import requests


class Unreachable(ConnectionError):
    """The server did not answer (refused, reset, timed out)."""


def no_answer(e: requests.RequestException) -> str:
    """Why a request got no answer, as the words after the server's address. requests' own
    text is urllib3's ("HTTPConnectionPool(host='127.0.0.1', port=8391): Max retries
    exceeded with url: /queue (Caused by NewConnectionError(...))"), and its class name
    ("ConnectionError", which a refusal, a reset and an unknown host all are) said little."""
    if isinstance(e, requests.ConnectTimeout):
        return "did not accept a connection in time"
    if isinstance(e, requests.Timeout):
        return "took the request but did not answer in time"
    text = str(e)
    if "refused" in text:
        return "refused the connection"
    if "resolve" in text or "Name or service not known" in text:
        return "is a host name that does not resolve"
    if any(w in text for w in ("reset", "aborted", "RemoteDisconnected", "closed")):
        return "closed the connection without answering"
    return "could not be reached"


def http_error_line(r: requests.Response) -> str:
    """One line for an error status, with what to do: a 404 is most likely another program
    on ComfyUI's port (requests' words: "404 Client Error: File not found for url: ...")."""
    if r.status_code == 404:
        return (f"{r.url} answered 404 {r.reason}: what listens there may not be ComfyUI "
                "(`comfy_service status` says whose the port is)")
    return (f"{r.url} answered {r.status_code} {r.reason}: see the server's log "
            "(`comfy_service logs`), or restart it (`comfy_service restart`)")


def request_error_line(e: requests.RequestException) -> str:
    """One line for any failed request to ComfyUI: an error status in our words, or no
    answer at all (requests' own text quotes urllib3's objects)."""
    if isinstance(e, NotJSON):  # its message names the URL and what answered
        return str(e)
    if isinstance(e, requests.HTTPError) and e.response is not None:
        return http_error_line(e.response)
    url = getattr(e.request, "url", None)
    where = url if isinstance(url, str) and url else "the ComfyUI server"
    return f"{where} {no_answer(e)}: is ComfyUI running? (`comfy_service status`)"


class NotJSON(requests.RequestException, ValueError):
    """A 200 answer that is no JSON (an HTML page: another program on ComfyUI's port).
    Caught where requests' JSONDecodeError was (a RequestException and a ValueError); its
    message names the URL, where requests' said "Expecting value: line 1 column 1"."""


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
            raise Unreachable(f"{self.base_url} {no_answer(e)} (asked {route})") from e
        return resp

    def get_json(self, route: str, timeout: float | None = None) -> Any:
        resp = self.request("GET", route, timeout=timeout)
        resp.raise_for_status()
        try:
            return resp.json()
        except ValueError:
            raise NotJSON(f"{resp.url} answered with a page that is not ComfyUI's JSON: what "
                          "listens there may not be ComfyUI (`comfy_service status` says "
                          "whose the port is)", response=resp) from None

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
