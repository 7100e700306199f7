"""A killed driver's prompts: find them on the server instead of submitting them again.

Before each submission the batch records the prompt id, its client id, the server it goes
to, the generation fingerprint and the frame count in the job's row (`meta.inflight`). A
driver killed with SIGKILL leaves that prompt queued or running on the server; the next
run asks /queue and /history for it and adopts it (waits, takes its clip) when the server
still has it and it was submitted by the recorded client with the same inputs. Anything
else is resubmitted, a prompt that ended in error or was interrupted (Ctrl-C) included.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from driver.client import ComfyClient, succeeded


class Where(Enum):
    QUEUED = "queued or running"
    DONE = "finished"
    FAILED = "failed"
    GONE = "no longer on the server"


@dataclass(frozen=True)
class Inflight:
    prompt_id: str
    client_id: str
    gen_fingerprint: str
    frames: int
    server: str  # the base URL it was sent to: only that server can have it

    def as_meta(self) -> dict[str, Any]:
        return {"inflight": {"prompt_id": self.prompt_id, "client_id": self.client_id,
                             "gen": self.gen_fingerprint, "frames": self.frames,
                             "server": self.server}}

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> Inflight | None:
        d = meta.get("inflight") if isinstance(meta, dict) else None
        try:
            return cls(str(d["prompt_id"]), str(d["client_id"]), str(d["gen"]),
                       int(d["frames"]), str(d.get("server", ""))) if isinstance(d, dict) else None
        except (KeyError, TypeError, ValueError):
            return None


def _client_of(item: Any) -> str | None:
    """client_id of a /queue item or a /history entry's prompt: [n, id, graph, extra, ...]."""
    if isinstance(item, list) and len(item) > 3 and isinstance(item[3], dict):
        return item[3].get("client_id")
    return None


def where(client: ComfyClient, inflight: Inflight) -> Where:
    """Where the server has our prompt: only one with our id AND our recorded client id."""
    q = client.queue()
    for item in q.get("queue_running", []) + q.get("queue_pending", []):
        if len(item) > 1 and item[1] == inflight.prompt_id:
            return Where.QUEUED if _client_of(item) == inflight.client_id else Where.GONE
    hist = client.history(inflight.prompt_id)
    if not hist or _client_of(hist.get("prompt")) != inflight.client_id:
        return Where.GONE
    # In /history means ended (client.succeeded): an error or an interruption (Ctrl-C
    # interrupts our prompt) is finished, not queued, and is sent again.
    return Where.DONE if succeeded(hist) else Where.FAILED
