"""Exposure and process identity: the server binds where our settings say and nowhere else,
and no verb signals a process that is not our server, whatever a state file claims."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time

import psutil
import pytest
import requests

from service.config import ConfigError, resolve
from service.manager import Exit
from service.process import port_is_free
from tests.conftest import run_cli


@pytest.mark.parametrize("args", [["--listen", "0.0.0.0"], ["--listen=0.0.0.0"],
                                  ["--disable-mmap", "--listen"], ["--port", "9"],
                                  # ComfyUI's argparse takes any unambiguous prefix
                                  ["--liste", "127.0.0.3"], ["--lis=0.0.0.0"], ["--por", "9"],
                                  ["--po=9"]])
def test_own_flags_among_extra_args_are_refused(args):
    with pytest.raises(ConfigError, match="not allowed among extra ComfyUI arguments"):
        resolve({"extra_args": args}, environ={})


@pytest.mark.parametrize("args", [["--lowvram"], ["--preview-method", "auto"], ["--"],
                                  ["--listen-other"], ["--portable"]])
def test_other_flags_are_not_taken_for_ours(args):
    assert resolve({"extra_args": args}, environ={}).extra_args == args


def test_cli_refuses_an_abbreviated_listen_naming_the_flag(tmp_path):
    """`-- --liste 127.0.0.3` made ComfyUI listen there while start polled 127.0.0.1."""
    res = run_cli("service", "start", "--state-dir", str(tmp_path), "--", "--liste",
                  "127.0.0.3")
    assert res.code == Exit.CONFIG, res.err
    assert "--liste (--listen) is not allowed" in res.err and "`host` setting" in res.err
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.5", "example.org"])
def test_non_loopback_host_needs_allow_remote(host):
    with pytest.raises(ConfigError, match="allow_remote"):
        resolve({"host": host}, environ={})
    assert resolve({"host": host, "allow_remote": True}, environ={}).remote


def test_cli_refuses_listen_and_remote_without_consent(tmp_path):
    res = run_cli("service", "start", "--state-dir", str(tmp_path), "--", "--listen", "0.0.0.0")
    assert res.code == Exit.CONFIG and "use the `host` setting" in res.err, res.err
    res = run_cli("service", "start", "--state-dir", str(tmp_path), "--host", "0.0.0.0")
    assert res.code == Exit.CONFIG and "--allow-remote" in res.err, res.err
    assert not any(tmp_path.iterdir())  # nothing started, nothing written


def test_remote_start_warns_and_status_reads_the_sockets(spot):
    """With --allow-remote the start line warns with the address, and status reports what
    the process really listens on (its sockets), here 0.0.0.0."""
    started = spot.service("start", "--host", "0.0.0.0", "--allow-remote")
    assert started.code == Exit.OK, started.err
    assert f"WARNING: listening on 0.0.0.0:{spot.port}" in started.out + started.err
    status = run_cli("service", "status", "--json", *spot.args())
    assert status.code == Exit.OK, status.err
    assert status.json()["listening"] == [f"0.0.0.0:{spot.port}"]
    text = run_cli("service", "status", *spot.args())
    assert "reachable from the network" in text.out


# ------------------------------------------------------------- identity ---

@pytest.fixture
def foreign(tmp_path):
    """A real process that is not ours (it dies on SIGUSR1, SIGTERM or SIGKILL)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    time.sleep(0.2)
    yield proc
    proc.kill()
    proc.wait()


def _forge_state(spot, proc: subprocess.Popen) -> None:
    """A state file with the foreign process's exact pid and create time for our port."""
    spot.state_dir.mkdir(parents=True, exist_ok=True)
    state = {"pid": proc.pid, "create_time": psutil.Process(proc.pid).create_time(),
             "host": "127.0.0.1", "port": spot.port, "url": f"http://127.0.0.1:{spot.port}",
             "argv": ["python", "-u", "launcher.py"], "log": str(spot.state_dir / "x.log")}
    (spot.state_dir / f"comfyui-{spot.port}.json").write_text(json.dumps(state))


@pytest.mark.parametrize("verb", ["stop", "restart", "stacks", "status", "start"])
def test_foreign_process_named_by_the_state_is_left_alone(spot, foreign, verb):
    _forge_state(spot, foreign)
    res = spot.service(verb, timeout=60)
    assert res.code == Exit.STALE, res.err + res.out
    assert f"pid {foreign.pid}" in res.err and "left alone" in res.err
    time.sleep(0.3)  # a signal, had one been sent, has been delivered by now
    assert foreign.poll() is None  # still alive: no SIGTERM, SIGKILL or SIGUSR1 reached it
    assert (spot.state_dir / f"comfyui-{spot.port}.json").exists()


CUT = b'{"pid": 12'  # a record cut short: the pid of a server it knew is in there, unread
CUT_WHY = "it is not JSON: Expecting ',' delimiter at line 1"


@pytest.mark.parametrize("verb", ["start", "restart", "stop", "stacks", "switch video"])
def test_an_unreadable_state_file_is_not_written_over(spot, verb):
    """start and restart wrote a new record over a corrupt comfyui-N.json and started a
    server; stop said "not running on port N (nothing to stop)"; switch took it for a
    server we do not manage: that record may be all that knows a server we started, so
    each verb refuses in one line naming the file and what to do; the file stays as it
    was and nothing starts."""
    spot.state_dir.mkdir(parents=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    record.write_bytes(CUT)
    verb, *extra = verb.split()
    res = spot.service(verb, *extra, timeout=60)
    assert res.code == Exit.ERROR, res.err + res.out
    assert res.err == (f"comfy_service: {verb}: state file {record} cannot be read ({CUT_WHY}); "
                       f"nothing listens on port {spot.port}: move the file away\n")
    assert record.read_bytes() == CUT
    assert port_is_free("127.0.0.1", spot.port)
    assert not (spot.state_dir / "logs").exists()  # no server was launched


@pytest.mark.parametrize("content", [
    b"{}", b'{"pid": "x", "create_time": 1, "log": "x.log"}',
    b'{"pid": 7, "create_time": Infinity, "log": "x.log"}',
    b'{"pid": 0, "create_time": 1, "log": "x.log"}',
    b'{"pid": -7, "create_time": 1, "log": "x.log"}',
    b'{"pid": true, "create_time": 1, "log": "x.log"}',
    b'{"pid": 7, "create_time": "1", "log": "x.log"}',
    b'{"pid": 7, "create_time": true, "log": "x.log"}',
    b'{"pid": 7, "create_time": 1}'],
    ids=["empty", "text-pid", "infinite", "pid-0", "negative-pid", "bool-pid", "text-time",
         "bool-time", "no-log"])
@pytest.mark.parametrize("verb", ["start", "stop", "status"])
def test_a_record_that_names_no_process_is_unreadable(spot, verb, content):
    """A JSON object without a usable pid and create time was taken for a record: stop
    deleted it ("removed stale state", or after "invalid literal for int()"), start wrote
    over it, status said "pid None is gone". It is no record, named as a cut one is."""
    spot.state_dir.mkdir(parents=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    record.write_bytes(content)
    res = spot.service(verb, timeout=60)
    assert res.code == Exit.ERROR, res.err + res.out
    lead = "" if verb == "status" else f"{verb}: "
    assert res.err == (f"comfy_service: {lead}state file {record} cannot be read (it names no "
                       "process: it needs a positive integer pid, a create_time and its log); "
                       f"nothing listens on port {spot.port}: move the file away\n")
    assert record.read_bytes() == content


@pytest.mark.parametrize("verb", ["start", "stop", "status", "stacks"])
def test_a_state_file_that_is_a_pipe_hangs_no_verb(spot, verb):
    """A FIFO where the record goes: opening it blocked every verb until killed. It is
    named as no record, before it is opened; nothing is launched and it is left there."""
    spot.state_dir.mkdir(parents=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    os.mkfifo(record)
    res = spot.service(verb, timeout=30)
    assert res.code == Exit.ERROR, res.err + res.out
    assert ("cannot be read (it is not a regular file (a pipe, a device or a socket)); "
            f"nothing listens on port {spot.port}") in res.err
    assert stat.S_ISFIFO(os.stat(record).st_mode)
    assert not (spot.state_dir / "logs").exists()


@pytest.mark.parametrize("verb", ["status", "stop"])
def test_a_record_nested_too_deep_is_unreadable(spot, verb):
    """30,000 nested brackets in the record's config (60 KB, under its cap) raised
    RecursionError out of every verb: it is no record, named as a cut one is."""
    spot.state_dir.mkdir(parents=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    content = b'{"pid": 7, "create_time": 1, "log": "x", "config": ' + b"[" * 30000 + (
        b"]" * 30000) + b"}"
    record.write_bytes(content)
    res = spot.service(verb, timeout=60)
    assert res.code == Exit.ERROR, res.err + res.out
    assert "cannot be read (it is nested too deep to be a record)" in res.err
    assert "Traceback" not in res.err and record.read_bytes() == content


@pytest.mark.parametrize("verb", ["status", "logs"])
def test_a_log_the_record_names_that_is_a_pipe_hangs_no_verb(spot, verb):
    """A record whose log is a FIFO (a hand-edited file): `status` of a server that is gone
    shows the log's tail, and opening the FIFO blocked it until killed; `logs` did too.
    The log is known by stat and never opened; the verb ends within its timeout."""
    spot.state_dir.mkdir(parents=True)
    fifo = spot.state_dir / "fifo.log"
    os.mkfifo(fifo)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    created = psutil.Process().create_time()  # any: the pid is gone
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    record.write_text(json.dumps({"pid": dead.pid, "create_time": created, "host": "127.0.0.1",
                                  "port": spot.port, "url": "", "argv": [], "log": str(fifo)}))
    res = spot.service(verb, timeout=30)
    assert "Traceback" not in res.err, res.err
    if verb == "logs":
        assert res.code == Exit.ERROR and "is not a regular file" in res.err, res.err
    else:
        assert res.code == Exit.NOT_RUNNING and "is gone" in res.out + res.err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("verb", ["start", "restart", "stop", "stacks"])
def test_an_unreadable_record_of_a_live_server_is_left_to_the_user(spot, verb):
    """A live server whose record was cut: the verb names the file and the pid on the port,
    signals nothing and writes nothing; the server keeps serving."""
    assert spot.service("start").code == Exit.OK
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    good = record.read_bytes()
    pid = json.loads(good)["pid"]
    record.write_bytes(CUT)
    try:
        res = spot.service(verb, timeout=60)
        assert res.code == Exit.ERROR, res.err + res.out
        assert res.err.startswith(f"comfy_service: {verb}: state file {record} cannot be read "
                                  f"({CUT_WHY}); port {spot.port} is held by pid {pid} ")
        assert res.err.endswith(": if that is our server, stop it yourself, then move the "
                                "file away\n") and res.err.count("\n") == 1, res.err
        assert record.read_bytes() == CUT
        assert psutil.Process(pid).create_time() == json.loads(good)["create_time"]
        assert requests.get(f"http://127.0.0.1:{spot.port}/system_stats", timeout=5).ok
    finally:
        record.write_bytes(good)  # so that the fixture stops it


def test_config_file_with_aliases_or_duplicates_is_refused(tmp_path):
    for text, needle in (("a: &x 8188\nport: *x\n", "anchors"),
                         ("port: 1\nport: 2\n", "duplicate key 'port' on lines 1 and 2")):
        cfg = tmp_path / "service.yaml"
        cfg.write_text(text)
        res = run_cli("service", "status", "--config", str(cfg))
        assert res.code == Exit.CONFIG and needle in res.err and "Traceback" not in res.err


def test_stop_over_every_port_does_not_call_an_unreadable_record_not_running(spot):
    """`stop` with no port goes over every record: with one cut, the summary said "no
    server of ours was running" above the line naming the file. It says none was stopped
    and which port's file cannot be read."""
    spot.state_dir.mkdir(parents=True)
    record = spot.state_dir / f"comfyui-{spot.port}.json"
    record.write_bytes(CUT)
    res = run_cli("service", "stop", "--state-dir", str(spot.state_dir), timeout=60)
    assert res.code == Exit.ERROR, res.err + res.out
    both = res.out + res.err
    assert "no server of ours was running" not in both
    assert (f"no server of ours was stopped; the state file of port {spot.port} cannot be "
            "read (below)") in both
    assert record.read_bytes() == CUT
