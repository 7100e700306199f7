"""Process identity, detached launch, process-tree kill, port and file-holder checks.

A pid alone is not an identity: pids are reused. Every process we record is the pair
(pid, create time), and we signal a pid only while that pair still matches.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from comfy_nodes.core.util import poll_until

# Create times read back from /proc have 10 ms resolution; allow that much slack.
CREATE_TIME_SLACK = 0.05


@dataclass(frozen=True)
class ProcessId:
    pid: int
    create_time: float

    @classmethod
    def of(cls, proc: psutil.Process) -> ProcessId:
        return cls(proc.pid, proc.create_time())

    def process(self) -> psutil.Process | None:
        """The live process with this identity, or None when gone or the pid was reused."""
        try:
            proc = psutil.Process(self.pid)
            if abs(proc.create_time() - self.create_time) > CREATE_TIME_SLACK:
                return None
            if proc.status() == psutil.STATUS_ZOMBIE:
                return None
            return proc
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return None

    def pid_reused_by(self) -> psutil.Process | None:
        """The other live process that now has our pid, if any."""
        try:
            proc = psutil.Process(self.pid)
            if abs(proc.create_time() - self.create_time) > CREATE_TIME_SLACK:
                return proc
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
        return None


def spawn_detached(argv: list[str], log_path: Path, cwd: Path, env: dict[str, str]) -> tuple[
    subprocess.Popen, str
]:
    """Start argv so that it outlives us and our job/session; returns (process, how).

    POSIX: a new session (no controlling terminal, not in our process group), stdin from
    /dev/null, stdout+stderr to the log. Windows: DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP,
    trying CREATE_BREAKAWAY_FROM_JOB first (only it leaves the parent's job object, and only
    where the job allows breakaway; otherwise creation fails, so retry without it).
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab", buffering=0) as log:
        common: dict[str, Any] = dict(stdin=subprocess.DEVNULL, stdout=log,
                                      stderr=subprocess.STDOUT, cwd=str(cwd), env=env,
                                      close_fds=True)
        if sys.platform == "win32":
            base = subprocess.DETACHED_PROCESS | subprocess.CREATE_NEW_PROCESS_GROUP
            breakaway = 0x01000000  # CREATE_BREAKAWAY_FROM_JOB
            try:
                return subprocess.Popen(argv, creationflags=base | breakaway, **common), (
                    "detached+breakaway")
            except OSError:
                return subprocess.Popen(argv, creationflags=base, **common), (
                    "detached (job forbids breakaway)")
        return subprocess.Popen(argv, start_new_session=True, **common), "new session"


def tree(proc: psutil.Process) -> list[psutil.Process]:
    """proc and all its descendants (best effort: processes may exit while we look)."""
    try:
        return [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in tree(proc):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            total += p.memory_info().rss
    return total


def terminate_tree(proc: psutil.Process, timeout: float = 15.0) -> list[int]:
    """SIGTERM the root, wait, then SIGKILL whatever of its tree is still alive.

    Descendants are listed before the first signal: once the root exits they are re-parented
    and can no longer be found from it. Returns the pids that had to be killed.
    """
    members = [ProcessId.of(p) for p in tree(proc)]
    with contextlib.suppress(psutil.NoSuchProcess):
        proc.terminate()
    with contextlib.suppress(psutil.NoSuchProcess, psutil.TimeoutExpired):
        proc.wait(timeout)
    killed = []
    for member in members:
        # Only processes whose identity still matches the one we listed.
        live = member.process()
        if live is None:
            continue
        with contextlib.suppress(psutil.NoSuchProcess):
            live.kill()
            killed.append(member.pid)
    gone_by = time.monotonic() + 5
    for member in members:
        live = member.process()
        if live is not None:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.TimeoutExpired):
                live.wait(max(0.0, gone_by - time.monotonic()))
    return killed


def port_is_free(host: str, port: int) -> bool:
    """True when nothing listens on host:port (we can bind it ourselves)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def wait_port_free(host: str, port: int, timeout: float = 10.0) -> bool:
    return poll_until(lambda: port_is_free(host, port), timeout, interval=0.1) is not None


def port_owner(port: int) -> psutil.Process | None:
    """The process listening on the port, where this user may see it."""
    with contextlib.suppress(psutil.AccessDenied, OSError):
        for conn in psutil.net_connections(kind="inet"):
            listening = conn.status == psutil.CONN_LISTEN and conn.laddr
            if listening and conn.laddr.port == port and conn.pid:
                with contextlib.suppress(psutil.NoSuchProcess):
                    return psutil.Process(conn.pid)
    return None


def listening(proc: psutil.Process) -> list[str]:
    """The addresses (host:port) the process tree really listens on, from its sockets: what
    the server does, not what its command line or our state file says."""
    found: set[str] = set()
    for p in tree(proc):
        with contextlib.suppress(psutil.Error, OSError):
            for conn in p.net_connections(kind="inet"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr:
                    ip = conn.laddr.ip
                    found.add(f"[{ip}]:{conn.laddr.port}" if ":" in ip else
                              f"{ip}:{conn.laddr.port}")
    return sorted(found)


def describe(proc: psutil.Process | None) -> str:
    if proc is None:
        return "an unknown process"
    try:
        return f"pid {proc.pid} ({proc.name()})"
    except psutil.Error:
        return f"pid {proc.pid}"


def who_holds(path: Path) -> list[dict]:
    """Processes that hold path open (as a file, a memory map, or their working folder)."""
    target = os.path.realpath(path)
    holders = []
    for proc in psutil.process_iter(["pid", "name", "cmdline"]):
        how = []
        try:
            if any(os.path.realpath(f.path) == target for f in proc.open_files()):
                how.append("open")
            if any(os.path.realpath(m.path) == target for m in proc.memory_maps(grouped=True)
                   if m.path):
                how.append("mapped")
            if os.path.realpath(proc.cwd()) == target:
                how.append("cwd")
        except (psutil.NoSuchProcess, psutil.AccessDenied, OSError):
            continue
        if how:
            holders.append({"pid": proc.pid, "name": proc.info["name"], "how": how,
                            "cmdline": " ".join(proc.info["cmdline"] or [])[:200]})
    return holders


def send_dump_signal(proc: psutil.Process) -> None:
    if not hasattr(signal, "SIGUSR1"):
        raise OSError("thread dumps need SIGUSR1, which this platform lacks")
    proc.send_signal(signal.SIGUSR1)
