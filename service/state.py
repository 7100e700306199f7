"""The state record of a server we started: comfyui-<port>.json in the state folder.

start writes it (atomically) once the process is up; every other verb reads it once and
acts on what that one read found (service/manager.py); a verb made of others (restart: its
own look, then stop's and start's) reads it once in each. A file that is there but is no
record (cut, edited, a pipe) is told from an absent one: it may be all that knows a live
server, so the verbs refuse it by name rather than take it for "not running".
"""

from __future__ import annotations

import contextlib
import json
import math
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from comfy_nodes.core.regularfile import Kind, NotRegular, read_regular
from comfy_nodes.core.util import atomic_write
from service.config import ServiceConfig
from service.process import ProcessId

# A record is a few hundred bytes (its argv the most of it); anything past this is not one.
STATE_BYTES = 64 * 1024


class Unreadable(ValueError):
    """The state file is there but is no record; the message says why ("it is not JSON...")."""


def _typed(value: Any, kind: type | tuple[type, ...]) -> Any:
    """value when it is of `kind` (a bool is no number here), else None."""
    return value if isinstance(value, kind) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class Record:
    """One server we started. Fields in the file's order; pid, create_time and log are what
    the verbs act on (which process; its log for status and stacks) and a file without
    them is Unreadable. The rest are kept as start wrote them, None (argv empty) where an
    edit left a missing or mistyped value: nothing signals on them alone (a missing port
    makes the process "not our server", so it is left alone)."""

    pid: int
    create_time: float
    host: str | None
    port: int | None
    url: str | None
    argv: tuple[str, ...]
    log: str
    comfyui: str | None = None
    placement: str | None = None
    detach: str | None = None
    started_at: float | None = None
    config: dict[str, Any] | None = None  # the ServiceConfig it was started with, as JSON

    @property
    def identity(self) -> ProcessId:
        return ProcessId(self.pid, self.create_time)

    @classmethod
    def from_json(cls, doc: Any) -> Record:
        """The record in a parsed file, or Unreadable."""
        if not isinstance(doc, dict):
            raise Unreadable("it is not a JSON object")
        pid, log = _typed(doc.get("pid"), int), _typed(doc.get("log"), str)
        created = _typed(doc.get("create_time"), (int, float))
        if not (pid is not None and pid > 0 and created is not None
                and math.isfinite(created) and log is not None):
            # an edit or a foreign writer: the verbs would delete it, write over it, or fail
            # (`stacks` on a record without its log: "internal error KeyError")
            raise Unreadable("it names no process: it needs a positive integer pid, a "
                             "create_time and its log")
        argv = doc.get("argv")
        if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)):
            argv = []
        return cls(pid=pid, create_time=float(created), log=log, argv=tuple(argv),
                   host=_typed(doc.get("host"), str), port=_typed(doc.get("port"), int),
                   url=_typed(doc.get("url"), str), comfyui=_typed(doc.get("comfyui"), str),
                   placement=_typed(doc.get("placement"), str),
                   detach=_typed(doc.get("detach"), str),
                   started_at=_typed(doc.get("started_at"), (int, float)),
                   config=_typed(doc.get("config"), dict))

    def to_json(self) -> dict[str, Any]:
        """What the file holds: these keys in this order, argv a list (as ever: other
        programs and users' scripts read it)."""
        doc = {f.name: getattr(self, f.name) for f in fields(self)}
        doc["argv"] = list(self.argv)
        return doc


def state_path(cfg: ServiceConfig) -> Path:
    return cfg.state_dir / f"comfyui-{cfg.port}.json"


def read_state(cfg: ServiceConfig) -> Record | None:
    """The record, None when there is no file, or Unreadable: a cut write, an edit or a
    disk error is told from an absent file. Only a regular file of at most STATE_BYTES is
    opened (read_regular): a FIFO there hung every verb, a link to /dev/zero would have
    been read whole."""
    try:
        doc = json.loads(read_regular(state_path(cfg), STATE_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return None
    except NotRegular as e:
        if e.kind is not Kind.TOO_BIG:
            raise Unreadable(f"it {e.reason}") from None
        raise Unreadable(f"it is {e.size} bytes, more than a record's {STATE_BYTES}"
                         if e.size is not None else  # it grew between the stat and the read
                         f"it grew past a record's {STATE_BYTES} bytes as it was read") from None
    except UnicodeDecodeError:
        raise Unreadable("it is not text") from None
    except json.JSONDecodeError as e:
        raise Unreadable(f"it is not JSON: {e.msg} at line {e.lineno}") from None
    except RecursionError:  # 30,000 nested brackets fit well under STATE_BYTES
        raise Unreadable("it is nested too deep to be a record") from None
    except OSError as e:
        raise Unreadable(e.strerror or str(e)) from None
    return Record.from_json(doc)


def load_state(cfg: ServiceConfig) -> Record | None:
    """The record, or None when there is none or it cannot be read (read_state)."""
    with contextlib.suppress(Unreadable):
        return read_state(cfg)
    return None


def write_state(cfg: ServiceConfig, record: Record) -> None:
    """Atomic: write a temporary file beside it, fsync, rename over."""
    path = state_path(cfg)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(record.to_json(), indent=2, default=str).encode())


def clear_state(cfg: ServiceConfig) -> None:
    with contextlib.suppress(FileNotFoundError):
        state_path(cfg).unlink()
