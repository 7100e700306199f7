"""`status`, `stop` and `list` over every server we started: one state file per port in
the state folder (comfyui-<port>.json), so nothing else is needed to find them."""

from __future__ import annotations

import re
from collections.abc import Callable

from service import manager
from service.config import ServiceConfig
from service.manager import Exit, Result

_STATE = re.compile(r"comfyui-(\d+)\.json")


def recorded_ports(cfg: ServiceConfig) -> list[int]:
    """Ports with a state file in cfg.state_dir, ascending."""
    if not cfg.state_dir.is_dir():
        return []
    found = (_STATE.fullmatch(p.name) for p in cfg.state_dir.iterdir())
    return sorted(int(m.group(1)) for m in found if m)


def on_each(cfg: ServiceConfig, verb: str, act: Callable[[ServiceConfig], Result]) -> Result:
    """Run `act` for every recorded port; one line per server, each naming its port. With
    none recorded, the answer says so and names the folder, as `list` does (it said "not
    running on port 8188", a port nobody had named)."""
    ports = recorded_ports(cfg)
    if not ports:
        where = f"no servers recorded in {cfg.state_dir}"
        if verb == "stop":
            return Result(Exit.OK, f"no server of ours was running: {where} (nothing to stop)",
                          {"stopped": False, "servers": []})
        return Result(Exit.NOT_RUNNING, f"not running: {where}",
                      {"state": "not running", "servers": []})
    results = [(port, act(cfg.model_copy(update={"port": port}))) for port in ports]
    lines = [f"port {port}: {res.message}" for port, res in results]
    bad = [res.code for _, res in results if res.code != Exit.OK]
    if verb == "stop":
        stopped = [port for port, res in results if res.data.get("stopped")]
        unreadable = [port for port, res in results if res.data.get("state") == "unreadable"]
        head = (f"stopped {len(stopped)} server(s) on port(s) {', '.join(map(str, stopped))}"
                if stopped else "no server of ours was stopped" if unreadable
                else "no server of ours was running")
        if unreadable:  # such a record may still know a live server: never "not running"
            head += (f"; the state file of port {', '.join(map(str, unreadable))} cannot be "
                     "read (below)")
    else:
        running = [port for port, res in results if res.code == Exit.OK]
        head = f"{len(running)} of {len(ports)} recorded server(s) running"
    return Result(bad[0] if bad else Exit.OK, head,
                  {"servers": [{"port": port, "exit": int(res.code), **res.data}
                               for port, res in results]},
                  detail="\n".join(lines))


def listing(cfg: ServiceConfig) -> Result:
    """`comfy_service list`: every server we started and whether it still runs."""
    ports = recorded_ports(cfg)
    if not ports:
        return Result(Exit.OK, f"no servers recorded in {cfg.state_dir}", {"servers": []})
    res = on_each(cfg, "status", manager.status)
    return Result(Exit.OK, res.message, res.data, detail=res.detail)
