"""service/state.py: the record's file keeps its shape, what is no record is named, and a
verb reads the file once (no server is started here)."""

from __future__ import annotations

import json
import subprocess
import sys

import psutil
import pytest

from comfy_nodes.core.util import poll_until
from service import manager, state
from service.config import resolve
from service.manager import Exit
from service.state import Record, Unreadable, read_state, write_state
from tests.conftest import free_port

# What start has always written, in this order: other programs and users' scripts read it.
KEYS = ["pid", "create_time", "host", "port", "url", "argv", "log", "comfyui", "placement",
        "detach", "started_at", "config"]


@pytest.fixture
def cfg(tmp_path):
    return resolve({"port": free_port(), "state_dir": tmp_path}, environ={})


def _record(cfg, pid: int = 4242, create_time: float = 1.5) -> Record:
    return Record(pid=pid, create_time=create_time, host="127.0.0.1", port=cfg.port,
                  url=f"http://127.0.0.1:{cfg.port}", argv=("python", "-u", "launcher.py"),
                  log=str(cfg.state_dir / "logs" / "x.log"), comfyui="/c", placement="gpu",
                  detach="setsid", started_at=2.5, config={"port": cfg.port})


def test_the_file_keeps_its_shape_and_reads_back(cfg):
    record = _record(cfg)
    write_state(cfg, record)
    doc = json.loads(state.state_path(cfg).read_text())
    assert list(doc) == KEYS
    assert doc["argv"] == ["python", "-u", "launcher.py"] and doc["pid"] == 4242
    assert read_state(cfg) == record


def test_a_record_missing_or_mistyping_what_no_verb_acts_on_still_reads(cfg):
    """A hand-made record with only what the verbs need (as the hardening tests forge one),
    or an edit that broke an optional field: read, the field None."""
    state.state_path(cfg).write_text(json.dumps(
        {"pid": 7, "create_time": 1, "log": "x.log", "port": "8188", "argv": "python"}))
    got = read_state(cfg)
    assert got is not None and (got.pid, got.create_time, got.log) == (7, 1.0, "x.log")
    assert (got.port, got.argv, got.url, got.config) == (None, (), None, None)


@pytest.mark.parametrize("made,why", [
    (lambda p: p.mkdir(), "it is a folder"),
    (lambda p: p.symlink_to("/dev/zero"),
     "it is not a regular file (a pipe, a device or a socket)"),
    (lambda p: p.write_bytes(b"{" + b" " * 70_000 + b"}"),
     f"it is 70002 bytes, more than a record's {state.STATE_BYTES}"),
    (lambda p: p.write_text('{"pid": 7, "create_time": true, "log": "x.log"}'),
     "it names no process: it needs a positive integer pid, a create_time and its log")],
    ids=["folder", "device", "huge", "bool-time"])
def test_what_is_no_record_is_named(cfg, made, why):
    made(state.state_path(cfg))
    with pytest.raises(Unreadable) as e:
        read_state(cfg)
    assert str(e.value) == why
    assert state.load_state(cfg) is None


@pytest.mark.parametrize("verb,code", [(manager.status, Exit.NOT_RUNNING),
                                       (manager.stop, Exit.OK), (manager.stacks,
                                                                 Exit.NOT_RUNNING)])
def test_a_verb_reads_the_record_once(cfg, monkeypatch, verb, code):
    """status, stop and stacks read the file three times each (unreadable? foreign? then
    the record): one verb could act on two different files. One read now."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    created = psutil.Process(gone.pid).create_time()
    gone.wait()
    write_state(cfg, _record(cfg, gone.pid, created))
    reads = []
    path = state.state_path(cfg)
    # counted where the file is read, so a read through load_state or any other way counts
    real = state.read_regular
    monkeypatch.setattr(state, "read_regular",
                        lambda p, limit: (reads.append(p) if p == path else None) or real(p, limit))
    assert verb(cfg).code == code
    assert len(reads) == 1


def test_a_record_without_a_number_for_its_port_is_not_ours(cfg, tmp_path):
    """A live process that runs our launcher on the recorded port is ours; an edited record
    whose port is text names no port (it read "does not serve the recorded port None")."""
    launcher = tmp_path / manager.LAUNCHER.parent.name / manager.LAUNCHER.name
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)",
                             str(launcher), "--port", str(cfg.port)])
    try:
        named = psutil.Process(proc.pid)
        # just spawned, its command line may not be read yet (a CI run read it empty)
        assert poll_until(lambda: str(launcher) in named.cmdline(), 10, interval=0.05)
        record = _record(cfg, proc.pid, named.create_time())
        assert manager._why_foreign(record, named) == ""
        doc = {**record.to_json(), "port": str(cfg.port)}
        edited = Record.from_json(doc)
        assert manager._why_foreign(edited, named) == (
            "the record names no port (start writes it as a number)")
    finally:
        proc.kill()
        proc.wait()
