"""comfy_service against the real embedded ComfyUI, run as real subprocesses."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest
import requests

from service.manager import Exit


def _wait_gone(pid: int, timeout: float = 10) -> bool:
    try:
        psutil.Process(pid).wait(timeout)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return False
    return True


def test_start_status_stop_cycle(spot):
    """start answers with a pid that serves HTTP; a second start is a no-op; stop frees the
    port and leaves no process of the tree."""
    started = spot.service("start", "--json")
    assert started.code == Exit.OK, started.err
    info = started.json()
    pid = info["pid"]
    assert requests.get(f"http://127.0.0.1:{spot.port}/system_stats", timeout=5).ok

    again = spot.service("start")
    assert again.code == Exit.OK
    assert "already running" in again.out and str(pid) in again.out

    status = spot.service("status", "--json")
    assert status.code == Exit.OK
    st = status.json()
    assert st["state"] == "running" and st["pid"] == pid and st["queue"] == 0
    assert st["rss_bytes"] > 50 * 2**20  # a real torch-importing python, not a stub
    assert st["listening"] == [f"127.0.0.1:{spot.port}"]  # read from its sockets

    # State holds identity, port, flags, log and root; the server binds loopback only.
    state = json.loads((spot.state_dir / f"comfyui-{spot.port}.json").read_text())
    assert state["pid"] == pid and state["port"] == spot.port
    assert state["create_time"] == psutil.Process(pid).create_time()
    assert state["argv"][state["argv"].index("--listen") + 1] == "127.0.0.1"
    assert os.getsid(pid) == pid  # a session of its own: detached from ours
    tree = [pid] + [c.pid for c in psutil.Process(pid).children(recursive=True)]

    stopped = spot.service("stop")
    assert stopped.code == Exit.OK and "is free" in stopped.out
    assert all(_wait_gone(p, 1) for p in tree)
    with socket.socket() as s:
        s.bind(("127.0.0.1", spot.port))  # the port is really free
    assert spot.service("status").code == Exit.NOT_RUNNING


def test_kill_9_then_status_dead_and_restart(spot):
    """After SIGKILL, status reports not running; restart brings a new pid back."""
    assert spot.service("start").code == Exit.OK
    pid = json.loads((spot.state_dir / f"comfyui-{spot.port}.json").read_text())["pid"]
    os.kill(pid, signal.SIGKILL)
    assert _wait_gone(pid)
    dead = spot.service("status")
    assert dead.code == Exit.NOT_RUNNING and "is gone" in dead.err
    back = spot.service("restart", "--json")
    assert back.code == Exit.OK, back.err
    assert back.json()["pid"] != pid
    assert spot.service("status").code == Exit.OK
    assert spot.service("stop").code == Exit.OK
    assert _wait_gone(back.json()["pid"])


def test_foreign_process_on_port_is_refused_and_untouched(spot):
    """A port held by a process we did not start gives PORT_IN_USE and the holder lives on."""
    code = (f"import socket,time;s=socket.socket();s.bind(('127.0.0.1',{spot.port}));"
            "s.listen();print('ok',flush=True);time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ok"
        res = spot.service("start")
        assert res.code == Exit.PORT_IN_USE
        assert f"port {spot.port}" in res.err and "--port" in res.err
        assert "Traceback" not in res.err
        assert spot.service("stop").code == Exit.OK  # nothing of ours to stop
        assert holder.poll() is None
    finally:
        holder.kill()
        holder.wait()


def test_stale_state_never_signals_the_pid_owner(spot):
    """A state file whose pid now belongs to another live process: status says stale,
    stop removes the state and the other process is not signalled."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        spot.state_dir.mkdir(parents=True, exist_ok=True)
        state = {"pid": other.pid, "create_time": psutil.Process(other.pid).create_time() - 1000,
                 "port": spot.port, "url": f"http://127.0.0.1:{spot.port}", "log": "x.log"}
        (spot.state_dir / f"comfyui-{spot.port}.json").write_text(json.dumps(state))
        st = spot.service("status")
        assert st.code == Exit.STALE and str(other.pid) in st.err
        stop = spot.service("stop")
        assert stop.code == Exit.OK and "left alone" in stop.out
        time.sleep(0.3)
        assert other.poll() is None
        assert not (spot.state_dir / f"comfyui-{spot.port}.json").exists()
    finally:
        other.kill()
        other.wait()


def _slow_prompt() -> dict:
    # Core nodes only, ~2-5 s on CPU: a big blur; the colour varies so it is never cached.
    return {
        "1": {"class_type": "EmptyImage", "inputs": {"width": 1024, "height": 1024,
                                                      "batch_size": 4,
                                                      "color": uuid.uuid4().int % 2**24}},
        "2": {"class_type": "ImageBlur", "inputs": {"image": ["1", 0], "blur_radius": 31,
                                                     "sigma": 5.0}},
        "3": {"class_type": "PreviewImage", "inputs": {"images": ["2", 0]}},
    }


def test_idle_busy_free_and_stacks_on_a_running_server(spot):
    """idle is busy while a prompt runs and idle after it; free succeeds; stacks prints a
    real faulthandler dump of the server's threads."""
    assert spot.service("start").code == Exit.OK
    url = f"http://127.0.0.1:{spot.port}"
    r = requests.post(f"{url}/prompt", json={"prompt": _slow_prompt(), "client_id": "t"},
                      timeout=10)
    assert r.ok, r.text
    busy = spot.service("idle", "--interval", "0.2")
    assert busy.code == Exit.BUSY, busy.out + busy.err
    deadline = time.monotonic() + 120
    while requests.get(f"{url}/queue", timeout=5).json()["queue_running"]:
        assert time.monotonic() < deadline
        time.sleep(0.5)
    idle = spot.service("idle", "--interval", "0.2", "--json")
    assert idle.code == Exit.OK and idle.json()["idle"] is True

    freed = spot.service("free")
    assert freed.code == Exit.OK and "freed" in freed.out

    switched = spot.service("switch", "video")
    assert switched.code == Exit.OK and "ready for video" in switched.out

    logs = spot.service("logs", "-n", "5")
    assert logs.code == Exit.OK and logs.out.startswith("log ")
    log_file = Path(logs.out.splitlines()[0][4:])
    shown = [ln for ln in logs.out.splitlines()[1:] if ln.strip()]
    text = log_file.read_text()
    assert shown and all(ln in text for ln in shown)  # lines of the live server's own log

    dump = spot.service("stacks")
    assert dump.code == Exit.OK, dump.err
    assert "prompt_worker" in dump.out  # ComfyUI's worker thread, from the live process
    assert "Current thread" in dump.out
    assert spot.service("status").code == Exit.OK  # the dump did not stop the server


def test_idle_on_unreachable_server_is_unknown(spot):
    """Nothing answers: idle is unknown (exit 10), never idle."""
    res = spot.service("idle", "--reads", "1")
    assert res.code == Exit.UNKNOWN and "unknown" in res.err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_during_start_stops_the_server_it_began(spot, sig):
    """SIGINT while start waits for ComfyUI to answer: the server spawned in its own
    session (which Ctrl-C does not reach) is stopped with its tree, the state record goes,
    the port is free, and one line says so (exit 130). Before, it exited 130 without a
    word and left a detached server starting. SIGTERM (`timeout 3 comfy_service start`)
    does the same; before, start died without a word and the server ran on."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "start", *spot.args(), *spot.comfy_args()],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in a terminal
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    deadline = time.monotonic() + 60
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert record.exists(), "start wrote no state record"
    pid = json.loads(record.read_text())["pid"]
    assert psutil.pid_exists(pid)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == Exit.INTERRUPTED, err
    assert err.strip() == (f"comfy_service start: interrupted; the server it was starting "
                           f"(pid {pid}) was stopped")
    assert _wait_gone(pid)
    assert not record.exists()
    with socket.socket() as s:
        s.bind(("127.0.0.1", spot.port))  # free


def test_concurrent_starts_on_one_port_make_one_recorded_server(spot):
    """Three starts at once on one port: one launches, the others wait for it and say
    "already running"; the record names the one process that holds the port, and stop
    frees it. Before, two launched: the record named the one that lost the bind, and
    nobody could stop the one that held the port."""
    # each imports the CLI, then all begin at one instant (python's start-up time varies
    # more than the gap between a start's look at the port and its record)
    at = time.time() + 3
    code = ("import sys, time; from service import cli; "
            f"time.sleep(max(0, {at} - time.time())); sys.exit(cli.main(sys.argv[1:]))")
    cmd = [sys.executable, "-c", code, "start", *spot.args(), *spot.comfy_args()]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parents[2]) for _ in range(3)]
    outs = [p.communicate(timeout=240) for p in procs]
    assert [p.returncode for p in procs] == [Exit.OK] * 3, outs
    lines = [out for out, _ in outs]
    assert sum(ln.startswith("started pid") for ln in lines) == 1, lines
    assert sum(ln.startswith("already running") for ln in lines) == 2, lines
    pid = json.loads((spot.state_dir / f"comfyui-{spot.port}.json").read_text())["pid"]
    holders = {c.pid for c in psutil.net_connections(kind="inet")
               if c.status == psutil.CONN_LISTEN and c.laddr.port == spot.port}
    assert holders == {pid}
    status = spot.service("status", "--json")
    assert status.json()["listening"] == [f"127.0.0.1:{spot.port}"]
    stopped = spot.service("stop")
    assert stopped.code == Exit.OK and "is free" in stopped.out, stopped.err
    assert _wait_gone(pid)


def test_a_port_taken_while_the_server_starts_is_not_taken_for_ours(spot):
    """Another program binds the port after start found it free, before ComfyUI binds
    it (ComfyUI then logs Errno 98 and lives on): its answer to /system_stats is not our
    server's. start stops the server it launched, names the holder (exit 6) and records
    nothing; before, it said "started" and recorded a server listening on no socket."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "start", *spot.args(), *spot.comfy_args()],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    deadline = time.monotonic() + 60
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    pid = json.loads(record.read_text())["pid"]
    code = ("import http.server as h\n"
            "class H(h.BaseHTTPRequestHandler):\n"
            "    def do_GET(self):\n"
            "        self.send_response(200); self.send_header('Content-Length', '2')\n"
            "        self.end_headers(); self.wfile.write(b'{}')\n"
            "    def log_message(self, *a): pass\n"
            f"s = h.HTTPServer(('127.0.0.1', {spot.port}), H)\n"
            "print('ok', flush=True)\n"
            "s.serve_forever()\n")
    thief = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert thief.stdout.readline().strip() == "ok"
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == Exit.PORT_IN_USE, out + err
        assert f"port {spot.port} was taken by pid {thief.pid}" in err
        assert _wait_gone(pid)
        assert not record.exists()
        assert thief.poll() is None  # never signalled
    finally:
        thief.kill()
        thief.wait()


def test_every_verb_finds_a_server_on_its_recorded_host(spot):
    """Started with --host 127.0.0.2: free, idle, switch and doctor ask it there, as status
    does (they asked 127.0.0.1: "refused the connection", exit 3 or 10; doctor said "start
    it"), and a start with another host names where it really runs."""
    started = spot.service("start", "--host", "127.0.0.2")
    assert started.code == Exit.OK, started.err
    url = f"http://127.0.0.2:{spot.port}"
    idle = spot.service("idle", "--reads", "1")
    assert idle.code == Exit.OK, idle.err
    freed = spot.service("free")
    assert freed.code == Exit.OK and "freed" in freed.out, freed.err
    switched = spot.service("switch", "video")
    assert switched.code == Exit.OK, switched.err
    doctor = spot.service("doctor", "--json", "--models-dir", str(spot.base_dir))
    said = [f["text"] for f in doctor.json()["facts"] if f["topic"] == "ComfyUI"]
    assert any(url in text for text in said), said
    assert not any("no server answers" in text for text in said), said
    again = spot.service("start", "--host", "localhost")
    assert again.code == Exit.OK
    assert f"on {url} (no change; it listens on 127.0.0.2, not localhost" in again.out


def test_restart_applies_the_settings_it_is_given(spot):
    """`restart --placement none -- … --preview-method auto` restarts with them (they were
    dropped without a word); what it does not name stays as recorded."""
    assert spot.service("start").code == Exit.OK
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    res = run_cli_service(spot, "restart", "--placement", "none", *spot.comfy_args(),
                          "--cpu", "--preview-method", "auto")  # no CUDA here: --cpu
    assert res.code == Exit.OK, res.err
    assert res.out.rstrip().endswith("with the new extra_args, placement"), res.out
    state = json.loads(record.read_text())
    argv = state["argv"]
    assert argv[argv.index("--preview-method") + 1] == "auto"
    assert state["placement"] == "none" and argv.count("--cpu") == 1  # auto added one
    same = run_cli_service(spot, "restart")
    assert same.code == Exit.OK and "with the new" not in same.out
    assert "--preview-method" in json.loads(record.read_text())["argv"]  # kept as recorded


def run_cli_service(spot, verb: str, *args: str):
    from tests.conftest import run_cli

    return run_cli("service", verb, *spot.args(), *args)
