"""The service verbs as plain functions: each returns a Result (exit code, one line, data).

The CLI only renders Results; tests and the batch driver call these functions directly.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum
from pathlib import Path
from typing import Any

import filelock
import psutil
import requests
from pydantic import ValidationError

from comfy_nodes.core.regularfile import NotRegular, open_regular, stat_regular
from comfy_nodes.core.util import atomic_write, folder_problem, poll_until, unique_path
from service import placement
from service.api import (
    ComfyHTTP,
    NotJSON,
    Unreachable,
    gpu_devices,
    http_error_line,
    vram_free,
)
from service.config import ConfigError, ServiceConfig, check_paths
from service.process import (
    ProcessId,
    describe,
    listening,
    port_is_free,
    port_owner,
    send_dump_signal,
    spawn_detached,
    terminate_tree,
    tree,
    tree_rss,
    wait_port_free,
)
from service.state import (
    Record,
    Unreadable,
    clear_state,
    load_state,
    read_state,
    state_path,
    write_state,
)

PACK_DIR = Path(__file__).resolve().parent.parent  # the repository root, loaded as a clone is
LAUNCHER = Path(__file__).resolve().parent / "launcher.py"
PACK_LINK_NAME = "h3sprite"
GIB = 1024**3


class Exit(IntEnum):
    """Every exit code of comfy_service, in one place."""

    OK = 0
    ERROR = 1
    USAGE = 2
    NOT_RUNNING = 3
    STALE = 4
    UNRESPONSIVE = 5
    PORT_IN_USE = 6
    START_FAILED = 7
    CONFIG = 8
    BUSY = 9
    UNKNOWN = 10
    VRAM_HELD = 11
    INTERRUPTED = 130


@dataclass(frozen=True)
class Result:
    code: Exit
    message: str
    data: dict[str, Any] = field(default_factory=dict)
    detail: str = ""  # extra text for humans (log tail, thread dump), printed after the line

    def to_json(self) -> str:
        return json.dumps({"ok": self.code == Exit.OK, "exit": int(self.code),
                           "code": self.code.name.lower(), "message": self.message,
                           **self.data, **({"detail": self.detail} if self.detail else {})},
                          default=str)


# ---------------------------------------------------------------- state ---

@dataclass(frozen=True)
class Found:
    """One read of the state file and the process its record names: taken once at the top
    of a verb and passed along, so a verb acts on one view of the file (each verb used to
    read it three times: the unreadable check, the foreign check, then the record)."""

    record: Record | None  # None: no file, or `unreadable` says why it is no record
    unreadable: str | None = None
    named: psutil.Process | None = None  # live, with the recorded pid and create time
    foreign: str = ""  # why `named` is not our server ('' when it is, or when none lives)

    @property
    def server(self) -> psutil.Process | None:
        """Our live server; None when it is gone, its pid was reused, or it is not ours."""
        return None if self.foreign else self.named


def _look(cfg: ServiceConfig) -> Found:
    """The verb's one read of the state file, and the process its record names."""
    try:
        record = read_state(cfg)
    except Unreadable as e:
        return Found(None, str(e))
    if record is None:
        return Found(None)
    named = record.identity.process()
    return Found(record, None, named, "" if named is None else _why_foreign(record, named))


def served(cfg: ServiceConfig, found: Found | None = None) -> ServiceConfig:
    """cfg with the host that our live server on cfg.port was started with: one started
    with `--host 127.0.0.2` is not on cfg's 127.0.0.1, and free, idle, switch and doctor
    asked there ("refused the connection") while status found it. cfg itself when no
    server of ours runs there (a server we did not start is asked where cfg says).
    found: what _look(cfg) found, where the caller has it."""
    found = _look(cfg) if found is None else found
    host = found.record.host if found.record is not None else None
    if found.server is None or not host or host == cfg.host:
        return cfg
    return cfg.model_copy(update={"host": host})  # validated when that server started


def _new_log_path(cfg: ServiceConfig) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    # a log per start, never appended to or overwritten
    return unique_path(cfg.state_dir / "logs", f"comfyui-{cfg.port}-{stamp}", ".log")


TAIL_BYTES = 64 * 1024  # of a log, the end `tail` reads
DUMP_BYTES = 4 << 20  # of a log, what `stacks` reads past its end before the dump


def tail(path: Path | str | None, lines: int = 20) -> str:
    if not path:
        return ""
    try:
        # The path comes from the state file, which a hand may edit: a FIFO there hung
        # `status`, /dev/zero was read until memory ran out. Only a regular file is read.
        with open_regular(path) as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - TAIL_BYTES))
            text = f.read(TAIL_BYTES).decode("utf-8", "replace")
    except (OSError, NotRegular):
        return ""
    kept = text.splitlines()
    return "\n".join(kept[max(0, len(kept) - lines):])  # [-0:] would be every line


# ---------------------------------------------------------------- start ---

def _pack_paths_file(cfg: ServiceConfig) -> Path:
    """An extra-model-paths file whose custom_nodes folder holds only a link to our pack."""
    nodes_parent = cfg.state_dir / "custom_nodes"
    nodes_parent.mkdir(parents=True, exist_ok=True)
    link = nodes_parent / PACK_LINK_NAME
    if not (link.is_symlink() and link.resolve() == PACK_DIR):
        if link.is_symlink():
            with contextlib.suppress(FileNotFoundError):
                link.unlink()  # our own link pointing at an old checkout
        if not link.exists():
            # servers of one state folder may start at once (one per GPU): one link wins
            with contextlib.suppress(FileExistsError):
                link.symlink_to(PACK_DIR, target_is_directory=True)
    paths = cfg.state_dir / "extra_model_paths.yaml"
    atomic_write(paths, json.dumps({"h3sprite": {"custom_nodes": str(nodes_parent)}})
                 .encode())  # JSON is YAML
    return paths


def server_argv(cfg: ServiceConfig) -> tuple[list[str], str]:
    preset, place_flags = placement.flags_for(cfg.placement, cfg.model_gb, cfg.extra_args,
                                              cfg.gpu)
    argv = [str(cfg.python), "-u", str(LAUNCHER), str(cfg.comfyui),
            "--listen", cfg.host, "--port", str(cfg.port), *place_flags, *cfg.extra_args]
    if cfg.link_pack:
        argv += ["--extra-model-paths-config", str(_pack_paths_file(cfg))]
    if "--base-directory" in cfg.extra_args:
        # ComfyUI lists <base>/custom_nodes at startup and crashes when it is missing.
        base = Path(cfg.extra_args[cfg.extra_args.index("--base-directory") + 1])
        (base / "custom_nodes").mkdir(parents=True, exist_ok=True)
    return argv, preset


def _why_foreign(record: Record, proc: psutil.Process) -> str:
    """Why a process with the recorded pid and create time is still not our server ('' when
    it is): a pid and a create time can be copied into a state file; the command line must
    also be our launcher serving the recorded port (issue 10)."""
    try:
        cmd = proc.cmdline()
    except psutil.Error:
        return "its command line cannot be read"
    if not any(Path(a).name == LAUNCHER.name and Path(a).parent.name == LAUNCHER.parent.name
               for a in cmd):
        return f"it is not our launcher ({' '.join(cmd)[:120]})"
    if record.port is None:  # an edit: start writes it as a number
        return "the record names no port (start writes it as a number)"
    port = str(record.port)
    if not any(a == "--port" and b == port for a, b in zip(cmd, cmd[1:], strict=False)):
        return f"it does not serve the recorded port {port}"
    return ""


def _foreign(cfg: ServiceConfig, found: Found, verb: str) -> Result | None:
    """Exit 4 (STALE), touching nothing, when the state names a live process that is not
    ours; None otherwise. Checked before any signal: stop, restart, stacks."""
    if found.record is None or not found.foreign:
        return None
    return Result(Exit.STALE, f"{verb}: state file {state_path(cfg)} names "
                              f"{describe(found.named)}, but {found.foreign}: it is left alone; "
                              "remove the state file if it is stale",
                  {"state": "foreign", "pid": found.record.pid, "port": cfg.port})


def _port_holder(cfg: ServiceConfig) -> str | None:
    """"port N is held by <the process>", or None when nothing listens on the port."""
    if port_is_free(cfg.host, cfg.port):
        return None
    return f"port {cfg.port} is held by {describe(port_owner(cfg.port))}"


def _unreadable(cfg: ServiceConfig, found: Found, verb: str = "") -> Result | None:
    """Exit 1 (ERROR), touching nothing, when the state file is there but is no record;
    None otherwise. The record may be all that knows a live server we started, so no verb
    takes it for "not running", writes over it, removes it or signals for it: the file is
    named, with what to do. `verb` leads the line (status, whose line is the state, has none)."""
    why = found.unreadable
    if why is None:
        return None
    held = _port_holder(cfg)
    todo = (f"{held}: if that is our server, stop it yourself, then move the file away" if held
            else f"nothing listens on port {cfg.port}: move the file away")
    lead = f"{verb}: " if verb else ""
    return Result(Exit.ERROR, f"{lead}state file {state_path(cfg)} cannot be read ({why}); "
                              f"{todo}", {"state": "unreadable", "port": cfg.port})


def _one_at_a_time(cfg: ServiceConfig, verb: str, act: Callable[[], Result]) -> Result:
    """act() while holding the port's lock in the state folder (comfyui-<port>.lock): one
    start or restart of a port at a time. Three starts at once each found the port free
    and launched a server; the record named one that lost the bind, and the one holding
    the port was known to nobody. An flock: the kernel lets it go if we die, and the server
    does not inherit it (spawn_detached closes our descriptors)."""
    lock = filelock.FileLock(cfg.state_dir / f"comfyui-{cfg.port}.lock")
    # another start waits up to start_timeout for its server, a restart also stops one
    wait = cfg.start_timeout + 60
    try:
        lock.acquire(timeout=wait)
    except filelock.Timeout:
        return Result(Exit.BUSY, f"{verb}: another start or restart of port {cfg.port} held "
                                 f"{lock.lock_file} for {wait:.0f} s; try again when it ends "
                                 "(`comfy_service status`)", {"port": cfg.port})
    try:
        return act()
    finally:
        lock.release()


def _ready_state_dir(cfg: ServiceConfig) -> None:
    """ConfigError unless the state folder is (or can be made) a folder we write into."""
    if problem := folder_problem(cfg.state_dir, "state_dir"):  # the state file and log go there
        raise ConfigError(problem)
    try:  # folder_problem creates nothing: /proc/x passes it, and mkdir then fails
        cfg.state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ConfigError(f"state_dir {cfg.state_dir} cannot be created ({e.strerror}): give "
                          "a folder you can write to (--state-dir, H3SPRITE_STATE_DIR)") from None


def start(cfg: ServiceConfig) -> Result:
    check_paths(cfg)
    _ready_state_dir(cfg)
    return _one_at_a_time(cfg, "start", lambda: _start(cfg))


def _start(cfg: ServiceConfig) -> Result:
    """start, under the port's lock."""
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found, "start")) is not None:
        return unreadable  # writing a new record over it would lose the server it may know
    if (foreign := _foreign(cfg, found, "start")) is not None:
        return foreign
    if found.record is not None and (proc := found.server) is not None:
        record = found.record
        url = record.url or cfg.base_url  # where it runs, not where this start would bind
        moved = (f"; it listens on {record.host}, not {cfg.host}: stop it, then start, to "
                 "move it" if record.host and record.host != cfg.host else "")
        return Result(Exit.OK, f"already running: pid {proc.pid} on {url} (no change{moved})",
                      {"pid": proc.pid, "url": url, "log": record.log,
                       "already_running": True})
    if not port_is_free(cfg.host, cfg.port):
        owner = port_owner(cfg.port)
        return Result(Exit.PORT_IN_USE,
                      f"port {cfg.port} is already in use by {describe(owner)}: "
                      f"choose another with --port, or stop that process yourself",
                      {"port": cfg.port, "owner_pid": owner.pid if owner else None})
    argv, preset = server_argv(cfg)
    log_path = _new_log_path(cfg)
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if cfg.gpu is not None:  # one server per GPU: it sees only its own card, as cuda:0
        env["CUDA_VISIBLE_DEVICES"] = str(cfg.gpu)
    popen, detach = spawn_detached(argv, log_path, cfg.comfyui, env)
    try:
        return _started(cfg, popen, detach, argv, preset, log_path)
    except KeyboardInterrupt:  # Ctrl-C (or SIGTERM, cli.py) cancels the start: the server goes
        with contextlib.suppress(psutil.Error):
            terminate_tree(psutil.Process(popen.pid))
        clear_state(cfg)
        raise KeyboardInterrupt(f"interrupted; the server it was starting (pid {popen.pid}) "
                                "was stopped") from None


def _taken_from(proc: psutil.Process, port: int) -> psutil.Process | None:
    """The other process that holds `port` while `proc` (our new server) does not, or None.
    ComfyUI that loses the bind (Errno 98) logs it and lives on, and /system_stats then
    answers from the winner: that answer is no proof that our server is up."""
    if any(a.rsplit(":", 1)[-1] == str(port) for a in listening(proc)):
        return None
    owner = port_owner(port)
    ours = {p.pid for p in tree(proc)}
    return owner if owner is not None and owner.pid not in ours else None


def _started(cfg: ServiceConfig, popen: subprocess.Popen, detach: str, argv: list[str],
             preset: str, log_path: Path) -> Result:
    """The start's result once the server spawned as `popen` answers, exits or times out."""
    ident = ProcessId.of(psutil.Process(popen.pid))
    started_at = time.time()
    record = Record(pid=ident.pid, create_time=ident.create_time, host=cfg.host,
                    port=cfg.port, url=cfg.base_url, argv=tuple(argv), log=str(log_path),
                    comfyui=str(cfg.comfyui), placement=preset, detach=detach,
                    started_at=started_at, config=json.loads(cfg.model_dump_json()))
    try:
        write_state(cfg, record)
    except OSError:  # e.g. a full disk: a server nobody recorded must not outlive us
        terminate_tree(psutil.Process(popen.pid))
        raise
    api = ComfyHTTP(cfg.base_url, timeout=2.0)

    def answered() -> Result | None:
        """The start's result once the process has exited or answers /system_stats."""
        code = popen.poll()
        if code is not None:
            clear_state(cfg)
            why = startup_cause(tail(log_path))
            return Result(Exit.START_FAILED,
                          f"ComfyUI exited with code {code} during start-up{why}; log: "
                          f"{log_path}", {"exit_code": code, "log": str(log_path)},
                          detail=tail(log_path))
        try:
            api.system_stats()
        except Exception:  # unreachable, or an HTTP error status (up but unhappy): wait on
            return None
        if (other := _taken_from(psutil.Process(popen.pid), cfg.port)) is not None:
            terminate_tree(psutil.Process(popen.pid))
            clear_state(cfg)
            return Result(Exit.PORT_IN_USE,
                          f"port {cfg.port} was taken by {describe(other)} while pid "
                          f"{popen.pid} started, which was stopped: choose another with "
                          f"--port, or stop that process yourself; log: {log_path}",
                          {"port": cfg.port, "owner_pid": other.pid, "log": str(log_path)})
        took = time.time() - started_at
        # issue 10: a server open to the network says so, with the address, every start
        warn = (f"; WARNING: listening on {cfg.host}:{cfg.port}, reachable from the "
                "network (allow_remote)" if cfg.remote else "")
        if warn:
            print(f"comfy_service: {warn[2:]}", file=sys.stderr, flush=True)
        return Result(Exit.OK, f"started pid {ident.pid} on {cfg.base_url} in {took:.1f} s "
                               f"({preset}, {detach}); log {log_path}{warn}",
                      {"pid": ident.pid, "url": cfg.base_url, "log": str(log_path),
                       "placement": preset, "detach": detach, "startup_s": round(took, 2)})

    result = poll_until(answered, cfg.start_timeout, interval=0.25)
    if result is not None:
        return result
    terminate_tree(psutil.Process(popen.pid))
    clear_state(cfg)
    return Result(Exit.START_FAILED,
                  f"ComfyUI did not answer /system_stats within {cfg.start_timeout:.0f} s and "
                  f"was stopped; raise start_timeout or read the log {log_path}",
                  {"log": str(log_path)}, detail=tail(log_path))


# What a start-up log's last lines say, in words and with the fix: the log's tail is shown
# too, but a traceback's last line ("AssertionError: Torch not compiled with CUDA enabled")
# does not say which setting asked for what the machine lacks.
STARTUP_CAUSES = (
    ("Torch not compiled with CUDA enabled",
     "its torch has no CUDA (a CPU build, or no GPU here), which ComfyUI uses unless told "
     "--cpu (only --placement auto tells it, and only where nvidia-smi finds no GPU): start "
     "it with `comfy_service start -- --cpu`, or install a CUDA build of torch"),
    ("No module named",
     "a package is missing from ComfyUI's python (the last lines name it): run "
     "`comfy_service setup` for the embedded ComfyUI, or install ComfyUI's requirements"),
)


def startup_cause(log_tail: str) -> str:
    """": <cause and fix>" for a known start-up failure on the log's last line (the
    exception that ended it: ComfyUI logs a custom node's failed import and goes on), else
    ""."""
    lines = [line for line in log_tail.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    for needle, words in STARTUP_CAUSES:
        if needle in last:
            return f": {words}"
    return ""


# --------------------------------------------------------------- status ---

def status(cfg: ServiceConfig) -> Result:
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found)) is not None:  # first, as in every verb
        return unreadable
    if (foreign := _foreign(cfg, found, "status")) is not None:
        return foreign
    record, proc = found.record, found.server
    if record is None:
        held = _port_holder(cfg)
        note = f"; {held}, not by us" if held else ""
        return Result(Exit.NOT_RUNNING, f"not running on port {cfg.port}{note}",
                      {"state": "not running", "port": cfg.port})
    if proc is None:
        other = record.identity.pid_reused_by()
        if other is not None:
            return Result(Exit.STALE,
                          f"stale state: recorded pid {record.pid} now belongs to another "
                          f"process, {describe(other)}; it will not be touched",
                          {"state": "stale", "pid": record.pid, "port": cfg.port,
                           "log": record.log})
        return Result(Exit.NOT_RUNNING,
                      f"not running: pid {record.pid} is gone (it died or was killed); "
                      f"last log {record.log}",
                      {"state": "not running", "pid": record.pid, "port": cfg.port,
                       "log": record.log}, detail=tail(record.log, 10))
    data: dict[str, Any] = {
        "pid": proc.pid, "port": cfg.port, "url": record.url, "log": record.log,
        "uptime_s": round(time.time() - proc.create_time(), 1),
        "rss_bytes": tree_rss(proc), "placement": record.placement,
        "listening": listening(proc),  # read from its sockets, not from the state file
    }
    api = ComfyHTTP(record.url or cfg.base_url, timeout=3.0)
    try:
        stats = api.system_stats()
        queue = api.queue_length()
    except Exception:
        data["state"] = "unresponsive"
        return Result(Exit.UNRESPONSIVE,
                      f"unresponsive: pid {proc.pid} is alive but {data['url']} does not answer "
                      f"(hung? try `comfy_service stacks`, then `restart`)", data)
    data.update(state="running", queue=queue, comfyui_version=stats.get("system", {}).get(
        "comfyui_version"))
    gpus = gpu_devices(stats)
    vram = ""
    if gpus:
        data["vram_free"] = vram_free(stats)
        data["vram_total"] = sum(int(d.get("vram_total", 0)) for d in gpus)
        vram = f", VRAM {data['vram_free'] / GIB:.1f}/{data['vram_total'] / GIB:.1f} GiB free"
    where = ", ".join(data["listening"]) or "no socket we may see"
    exposed = [a for a in data["listening"] if not a.startswith(("127.", "[::1]"))]
    warn = f"; WARNING: reachable from the network on {', '.join(exposed)}" if exposed else ""
    return Result(Exit.OK,
                  f"running: pid {proc.pid} on {data['url']} (listening on {where}), up "
                  f"{data['uptime_s']:.0f} s, RSS {data['rss_bytes'] / 2**20:.0f} MiB (tree)"
                  f"{vram}, queue {queue}{warn}", data)


# ----------------------------------------------------------------- stop ---

def stop(cfg: ServiceConfig, timeout: float = 15.0) -> Result:
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found, "stop")) is not None:
        return unreadable  # "nothing to stop" would hide a server it may know
    if (foreign := _foreign(cfg, found, "stop")) is not None:
        return foreign
    record, proc = found.record, found.server
    if record is None:
        return Result(Exit.OK, f"not running on port {cfg.port} (nothing to stop)",
                      {"stopped": False})
    if proc is None:
        clear_state(cfg)
        other = record.identity.pid_reused_by()
        left = f"; pid {record.pid} now belongs to {describe(other)}, left alone" if other \
            else ""
        return Result(Exit.OK, f"not running (removed stale state){left}", {"stopped": False})
    pid = proc.pid
    try:
        killed = terminate_tree(proc, timeout=timeout)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"interrupted; pid {pid} was asked to stop and may still be "
                                "stopping: `comfy_service status` says, `comfy_service stop` "
                                "finishes") from None
    clear_state(cfg)
    if not wait_port_free(cfg.host, cfg.port, timeout=10):
        return Result(Exit.ERROR, f"stopped pid {pid}, but port {cfg.port} is still held by "
                                  f"{describe(port_owner(cfg.port))}", {"pid": pid})
    extra = f"; killed {len(killed)} process(es) that outlived SIGTERM" if killed else ""
    return Result(Exit.OK, f"stopped pid {pid}; port {cfg.port} is free{extra}",
                  {"stopped": True, "pid": pid, "killed": killed})


def restart(cfg: ServiceConfig, given: dict[str, Any] | None = None) -> Result:
    """stop + start; with the settings of the running server when there is one, but for
    `given` (the settings named on restart's command line), which replace them."""
    _ready_state_dir(cfg)
    return _one_at_a_time(cfg, "restart", lambda: _restart(cfg, given or {}))


def _restart(cfg: ServiceConfig, given: dict[str, Any]) -> Result:
    """restart, under the port's lock (start's own would wait for this one: _start)."""
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found, "restart")) is not None:
        return unreadable
    if (foreign := _foreign(cfg, found, "restart")) is not None:
        return foreign
    recorded = cfg
    if found.record is not None and found.record.config is not None:
        with contextlib.suppress(Exception):  # a record of another version: cfg as resolved
            recorded = ServiceConfig(**found.record.config)
    # `restart --placement none` and `restart -- --preview-method auto` were dropped
    # without a word: what the user names wins over the record, as a flag does over a file
    try:
        new = ServiceConfig(**{**recorded.model_dump(), **given}) if given else recorded
    except ValidationError as e:
        raise ConfigError(f"restart: {', '.join(sorted(given))} as given cannot join the "
                          f"running server's settings: {e.errors()[0]['msg']}") from None
    # stop and start are verbs of their own: each reads the record once (stop under the
    # recorded settings, start after stop has removed it)
    stopped = stop(recorded)
    if stopped.code != Exit.OK:
        return stopped
    check_paths(new)
    started = _start(new)
    # with none recorded, restart starts one, as `systemctl restart` does, and says so
    before = (stopped.message if found.record is not None else
              f"no server of ours was recorded on port {cfg.port}, so a new one was started")
    changed = sorted(k for k in given if getattr(new, k) != getattr(recorded, k))
    said = f" with the new {', '.join(changed)}" if changed and found.record else ""
    return Result(started.code, f"restart: {before}; {started.message}{said}",
                  {**started.data, "changed": changed}, started.detail)


# ------------------------------------------------------- free/idle/switch ---

def _no_queue(e: Exception, base_url: str) -> str:
    """Why /queue gave no queue, naming the URL: no answer, an error status, a page that is
    no JSON (each in our words: requests' repeated the URL or quoted urllib3), or JSON of
    another shape."""
    if isinstance(e, requests.HTTPError) and e.response is not None:
        return http_error_line(e.response)
    if isinstance(e, (Unreachable, NotJSON)):
        return str(e)
    return f"{base_url}/queue answered no queue: what listens there may not be ComfyUI"


def idle(cfg: ServiceConfig, reads: int = 3, interval: float = 1.0) -> Result:
    """Idle only after `reads` consecutive empty queue reads; unreachable is unknown."""
    cfg = served(cfg)
    api = ComfyHTTP(cfg.base_url, timeout=3.0)
    for i in range(reads):
        try:
            n = api.queue_length()
        except Exception as e:
            return Result(Exit.UNKNOWN, f"unknown: {_no_queue(e, cfg.base_url)}",
                          {"idle": None})
        if n:
            return Result(Exit.BUSY, f"busy: {n} prompt(s) running or waiting", {"idle": False,
                                                                                "queue": n})
        if i + 1 < reads:
            time.sleep(interval)
    return Result(Exit.OK, f"idle: queue empty on {reads} consecutive reads {interval:g} s apart",
                  {"idle": True})


def wait_idle(cfg: ServiceConfig, timeout: float, interval: float = 1.0,
              reads: int = 3) -> Result:
    last: list[Result] = []

    def settled() -> Result | None:
        last.append(idle(cfg, reads=reads, interval=interval))
        return last[-1] if last[-1].code != Exit.BUSY else None

    return poll_until(settled, timeout, interval) or last[-1]


HELD_GIB = 1.0  # VRAM still held after /free above which free restarts (when asked to)


def free(cfg: ServiceConfig, timeout: float = 60.0, held_gib: float = HELD_GIB,
         restart_if_held: bool = False, reads: int = 3) -> Result:
    """POST /free (unload models + free memory), wait until applied, report VRAM.
    `reads`: empty-queue reads that count as idle (1 for a caller whose own prompts are
    the next ones: the worker applies the flags at once when its queue is empty)."""
    return _free(served(cfg), timeout, held_gib, restart_if_held, reads)


def _free(cfg: ServiceConfig, timeout: float, held_gib: float, restart_if_held: bool,
          reads: int) -> Result:
    """free, on cfg's host as it stands (switch has found our server's already)."""
    api = ComfyHTTP(cfg.base_url, timeout=5.0)
    try:
        before = api.system_stats()
        api.free()
    except Unreachable as e:
        return Result(Exit.NOT_RUNNING, f"cannot free: {e}", {})
    # The worker applies the flags after its current prompt, when the queue is empty.
    waited = wait_idle(cfg, timeout, interval=0.5, reads=reads)
    if waited.code != Exit.OK:
        return Result(waited.code, f"free requested, but {waited.message}", waited.data)
    after = api.system_stats()
    gpus = gpu_devices(after)
    if not gpus:
        return Result(Exit.OK, "freed: models unloaded and caches cleared (no GPU: no VRAM to "
                               "report)", {"gpu": False})
    # VRAM is released by the worker shortly after the flags are read: read it every 0.5 s
    # for up to 5 s, until it stops growing.
    def settled() -> bool:
        nonlocal after
        prev = vram_free(after)
        after = api.system_stats()
        now = vram_free(after)
        return now is not None and prev is not None and now <= prev

    time.sleep(0.5)  # the first read comes after a pause: one at once would equal `after`
    poll_until(settled, 4.5, interval=0.5)
    total = sum(int(d.get("vram_total", 0)) for d in gpus)
    b, a = vram_free(before) or 0, vram_free(after) or 0
    data = {"gpu": True, "vram_free_before": b, "vram_free_after": a, "vram_total": total}
    held = (total - a) / GIB
    line = f"VRAM free {b / GIB:.1f} -> {a / GIB:.1f} GiB of {total / GIB:.1f}"
    if held <= held_gib:
        return Result(Exit.OK, f"freed: {line}", data)
    if restart_if_held:
        res = restart(cfg)
        done = "so restarted" if res.code == Exit.OK else "and the restart failed"
        return Result(res.code, f"{line}; {held:.1f} GiB still held, {done}: {res.message}",
                      data)
    return Result(Exit.VRAM_HELD, f"{line}: {held:.1f} GiB still held (a custom node may load "
                                  f"models outside ComfyUI's manager); `comfy_service restart` "
                                  f"returns it", data)


def switch(cfg: ServiceConfig, family: str, timeout: float = 600.0, reads: int = 3) -> Result:
    """Make the GPU free for the other model family: wait idle, free, restart if still held."""
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found, "switch")) is not None:
        return unreadable  # it may know a server of ours, which restart would refuse
    cfg = served(cfg, found)  # one look at the state file for the whole verb
    # a server we do not manage: free is all we may do
    res = _free(cfg, timeout, HELD_GIB, found.server is not None, reads)
    if res.code != Exit.OK:
        return Result(res.code, f"switch {family}: {res.message}", res.data)
    return Result(Exit.OK, f"ready for {family}: {res.message}", {**res.data, "family": family})


# --------------------------------------------------------- stacks / logs ---

def stacks(cfg: ServiceConfig, wait: float = 5.0) -> Result:
    found = _look(cfg)
    if (unreadable := _unreadable(cfg, found, "stacks")) is not None:
        return unreadable
    if (foreign := _foreign(cfg, found, "stacks")) is not None:
        return foreign
    record, proc = found.record, found.server
    if record is None or proc is None:
        return Result(Exit.NOT_RUNNING, "not running (or not started by comfy_service): "
                                        "no process to ask for a thread dump", {})
    log = Path(record.log)
    try:  # a hand-edited record may name a pipe or a device: never opened
        offset = stat_regular(log).st_size
    except (OSError, NotRegular) as e:
        why = e.reason if isinstance(e, NotRegular) else e.strerror
        return Result(Exit.ERROR, f"stacks: the server's log {log}, named in "
                                  f"{state_path(cfg)}, cannot be read ({why}): see "
                                  "`comfy_service logs`", {"log": str(log)})
    send_dump_signal(proc)
    text, last_size = "", -1

    def dumped() -> bool:
        """Whether the dump has stopped growing; else read what the log has after `offset`."""
        nonlocal text, last_size
        try:
            size = stat_regular(log).st_size
            if size == last_size and "Thread 0x" in text:
                return True
            last_size = size
            with open_regular(log) as f:
                f.seek(offset)
                text = f.read(DUMP_BYTES).decode("utf-8", "replace")
        except (OSError, NotRegular):  # the log moved or was swapped meanwhile: no dump
            return False
        return False

    poll_until(dumped, wait, interval=0.2)
    if "Thread 0x" not in text and "Current thread" not in text:
        return Result(Exit.ERROR, f"pid {proc.pid} wrote no thread dump to {log} within "
                                  f"{wait:g} s (was it started through our launcher?)", {})
    threads = text.count("Thread 0x") + text.count("Current thread 0x")
    return Result(Exit.OK, f"thread dump of pid {proc.pid}: {threads} threads (also in {log})",
                  {"pid": proc.pid, "threads": threads, "log": str(log)}, detail=text.rstrip())


def latest_log(cfg: ServiceConfig) -> Path | None:
    record = load_state(cfg)
    if record is not None and record.log:
        return Path(record.log)
    logs = sorted((cfg.state_dir / "logs").glob(f"comfyui-{cfg.port}-*.log"),
                  key=lambda p: p.stat().st_mtime)
    return logs[-1] if logs else None


def follow(path: Path, out=sys.stdout, poll: float = 0.5) -> None:
    """Print what is appended to path until interrupted."""
    with open_regular(path) as f:  # never a pipe or a device a state file names
        f.seek(0, os.SEEK_END)
        while True:
            chunk = f.read()
            if chunk:
                out.write(chunk.decode("utf-8", "replace"))
                out.flush()
            else:
                time.sleep(poll)


# ------------------------------------------------------------- link-pack ---

def link_pack(cfg: ServiceConfig, install_deps: bool = False) -> Result:
    """Link our node pack into <ComfyUI>/custom_nodes/h3sprite (for a user's own ComfyUI)."""
    check_paths(cfg)
    link = cfg.comfyui / "custom_nodes" / PACK_LINK_NAME
    if link.is_symlink() and link.resolve() == PACK_DIR:
        msg = f"already linked: {link} -> {PACK_DIR}"
    elif link.exists() or link.is_symlink():
        return Result(Exit.ERROR, f"{link} already exists and is not our link: move it away "
                                  "yourself (nothing was changed)")
    else:
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(PACK_DIR, target_is_directory=True)
        msg = f"linked {link} -> {PACK_DIR}; restart ComfyUI to load it"
    if install_deps:
        import subprocess

        # As ComfyUI-Manager installs a pack: requirements.txt, then install.py (which adds
        # OpenCV only where no cv2 is installed, never beside an opencv-python).
        for step in (["-m", "pip", "install", "-r", str(PACK_DIR / "requirements.txt")],
                     [str(PACK_DIR / "install.py")]):
            proc = subprocess.run([str(cfg.python), *step], capture_output=True, text=True)
            if proc.returncode != 0:
                return Result(Exit.ERROR, f"{msg}; but installing the pack's packages into "
                                          f"{cfg.python} failed", detail=proc.stdout[-2000:]
                              + proc.stderr[-2000:])
        msg += f"; installed the pack's requirements into {cfg.python}"
    return Result(Exit.OK, msg, {"link": str(link)})
