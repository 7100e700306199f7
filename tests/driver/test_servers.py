"""`servers:`: one batch on two real embedded ComfyUI servers (CPU, Preview Motion with
simulate_seconds). Facts come from the servers themselves: their /history timestamps and
the clip files each one wrote. The tests share the two servers and run in order."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from service import manager
from service.config import resolve
from tests.conftest import REPO, free_port, run_cli
from tests.driver.conftest import Workspace, draw_portrait, wait_running
from tests.driver.test_batch import _rows

SIM = {"@action": {"simulate_seconds": 3.0}}


@dataclass
class Two:
    ws: Workspace
    ports: tuple[int, int]
    bases: tuple[Path, Path]

    def url(self, i: int) -> str:
        return f"http://127.0.0.1:{self.ports[i]}"

    def spec(self, i: int) -> dict:
        return {"url": "embedded", "port": self.ports[i], "hang_seconds": 60,
                "comfy_args": ["--base-directory", str(self.bases[i]),
                               "--database-url", "sqlite:///:memory:"]}

    def config(self, i: int):
        return resolve({"port": self.ports[i], "state_dir": self.ws.state_dir,
                        "extra_args": self.spec(i)["comfy_args"]})

    def pid(self, i: int) -> int | None:
        st = manager.load_state(self.config(i))
        return st.pid if st else None

    def write(self, **changes) -> None:
        self.ws.write(server=None, servers=[self.spec(0), self.spec(1)], overrides=SIM,
                      **changes)

    def executions(self, i: int) -> list[tuple[float, float]]:
        """(start, end) in seconds of every prompt the server ran, from its /history."""
        hist = requests.get(f"{self.url(i)}/history", timeout=10).json()
        out = []
        for entry in hist.values():
            stamps = {kind: data["timestamp"] / 1000 for kind, data in
                      entry["status"]["messages"] if "timestamp" in data}
            if "execution_success" in stamps:
                out.append((stamps["execution_start"], stamps["execution_success"]))
        return out

    def clips(self) -> dict[str, int]:
        """How many clip files the servers wrote, per job folder, both servers together."""
        counts: dict[str, int] = {}
        for base in self.bases:
            for f in (base / "output" / "h3sprite").glob("*/*.mp4"):
                counts[f.parent.name] = counts.get(f.parent.name, 0) + 1
        return counts


@pytest.fixture(scope="module")
def two(tmp_path_factory, embedded_ready):
    root = tmp_path_factory.mktemp("servers")
    ws = Workspace(root, free_port(), root / "state", root / "base0")
    t = Two(ws, (free_port(), free_port()), (root / "base0", root / "base1"))
    for b in t.bases:
        b.mkdir()
    draw_portrait(root / "hero.png", "hero")
    draw_portrait(root / "zombie.png", "zombie")
    t.write()
    yield t
    for i in (0, 1):
        manager.stop(t.config(i))


def test_two_servers_run_jobs_at_the_same_time(two):
    """2 jobs on 2 servers: each server runs one, and the servers' own execution times
    overlap (both generated at once); every job is done and says where it ran, in the
    store and in `driver status`."""
    res = two.ws.batch("--only", "idle")
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    a, b = two.executions(0), two.executions(1)
    assert len(a) == len(b) == 1
    assert any(s1 < e2 and s2 < e1 for s1, e1 in a for s2, e2 in b), (a, b)
    rows = _rows(two.ws)
    assert {meta["server"] for _, meta in rows.values()} == {two.url(0), two.url(1)}
    assert set(two.clips().values()) == {1}
    status = run_cli("driver", "status", str(two.ws.joblist), env=two.ws.env())
    assert status.code == 0, status.err
    lines = {line.split()[0]: line.split() for line in status.out.splitlines()}
    assert {job: words[2] for job, words in lines.items() if job.endswith("/idle")} == {
        job: meta["server"] for job, (_, meta) in rows.items()}  # the text names it too


def test_a_server_killed_mid_batch_loses_no_job_and_the_other_runs_on(two):
    """SIGKILL of one server while both generate: the batch restarts it and sends its job
    again there; every job is done with exactly one clip written, and the other server
    is never stopped."""
    before = two.clips()
    pids = (two.pid(0), two.pid(1))
    assert None not in pids
    proc = subprocess.Popen([sys.executable, "-m", "driver", "batch", str(two.ws.joblist),
                             "--only", "attack"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **two.ws.env()})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = [requests.get(f"{two.url(i)}/queue", timeout=2).json()["queue_running"]
                    for i in (0, 1)]
            if all(busy):
                break
            time.sleep(0.2)
        assert all(busy), "the two servers never ran at once"
        os.kill(pids[0], signal.SIGKILL)  # type: ignore[arg-type]
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err + out
    assert "lost the server" in err and "done 2, skipped 0, failed 0" in out
    after = two.clips()
    assert {job: after[job] - before.get(job, 0) for job in after} == {
        "hero_idle": 0, "hero_attack": 1, "zombie_idle": 0, "zombie_attack": 1}
    assert two.pid(1) == pids[1]  # never stopped
    assert two.pid(0) not in (None, pids[0])  # ours, so restarted


def test_a_server_down_at_start_is_reported_and_the_other_does_all(two):
    """One entry points at a port where nothing listens: the batch says so once and runs
    every job on the other server."""
    dead = f"http://127.0.0.1:{free_port()}"
    two.ws.write(server=None, servers=[{"url": dead}, two.spec(1)], overrides=SIM)
    res = two.ws.batch("--force", "--only", "idle")
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    assert f"server {dead} not used" in res.err and f"server {dead} not used" in res.out
    rows = _rows(two.ws)
    assert {rows[k][1]["server"] for k in ("hero/idle", "zombie/idle")} == {two.url(1)}
    two.write()


def test_a_job_whose_server_stays_gone_moves_to_the_other(two):
    """A server given by URL (not ours to restart) vanishes mid-job and does not come back
    within hang_seconds: its job moves to the other server and the batch finishes there."""
    from .proxy import CuttableProxy

    proxy = CuttableProxy(two.ports[0])  # the first server, reached as someone else's
    gone = f"http://127.0.0.1:{proxy.port}"
    try:
        # another simulate_seconds: ComfyUI would answer the same graph from its cache
        two.ws.write(server=None, overrides={"@action": {"simulate_seconds": 3.5}}, servers=[
            {"url": gone, "hang_seconds": 4, "attempts": 1}, two.spec(1)])
        proc = subprocess.Popen([sys.executable, "-m", "driver", "batch",
                                 str(two.ws.joblist), "--force", "--only", "attack"],
                                cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env={**os.environ, **two.ws.env()})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            running = requests.get(f"{two.url(0)}/queue", timeout=2).json()["queue_running"]
            if running:
                break
            time.sleep(0.2)
        assert running, "the first server never ran a job"
        proxy.close()  # refused from now on
        out, err = proc.communicate(timeout=180)
    finally:
        proxy.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err + out
    assert "moving it to another server" in err and "done 2, skipped 0, failed 0" in out
    assert f"server {gone} not used: lost during the batch" in out
    rows = _rows(two.ws)
    assert {rows[k][1]["server"] for k in ("hero/attack", "zombie/attack")} == {two.url(1)}
    two.write()


def test_a_killed_driver_with_jobs_on_both_servers_adopts_both_prompts(two):
    """SIGKILL the driver while both servers run a job: each job's row names the prompt and
    the server it went to; the next run adopts each prompt on its own server (nothing sent
    again), so every job is done with exactly one clip written."""
    # another simulate_seconds: ComfyUI would answer the same graph from its cache
    two.ws.write(server=None, servers=[two.spec(0), two.spec(1)],
                 overrides={"@action": {"simulate_seconds": 4.5}})
    before = two.clips()
    proc = subprocess.Popen([sys.executable, "-m", "driver", "batch", str(two.ws.joblist),
                             "--force", "--only", "idle"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **two.ws.env()})
    try:
        assert wait_running([two.url(0), two.url(1)], proc, 60), \
            "the two servers never ran at once"
    finally:
        proc.kill()
        proc.communicate()
    inflight = {k: meta["inflight"] for k, (_, meta) in _rows(two.ws).items()
                if k in ("hero/idle", "zombie/idle")}
    assert {f["server"] for f in inflight.values()} == {two.url(0), two.url(1)}
    res = two.ws.batch("--only", "idle")
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    rows = _rows(two.ws)
    for key, f in inflight.items():
        assert f"{key}: adopting prompt {f['prompt_id']}" in res.err
        assert rows[key][0] == "done"
        assert rows[key][1]["prompt_ids"] == [f["prompt_id"]]
        assert rows[key][1]["server"] == f["server"]  # adopted where it ran
    after = two.clips()
    assert {job: after[job] - before.get(job, 0) for job in after} == {
        "hero_idle": 1, "hero_attack": 0, "zombie_idle": 1, "zombie_attack": 0}
    two.write()


def test_a_full_disk_met_by_one_server_thread_stops_both(two, tmp_path):
    """The disk fills while both servers generate: the first clip cannot be written; the
    batch interrupts the other server's prompt, prints one `disk full` line and its
    summary, exits 1 and leaves both jobs pending (none `running`, no temporary file);
    with space again the rerun finishes both."""
    from tests.driver.test_resilience import FullDisk, _temp_files

    disk = FullDisk(tmp_path, None)  # writes under it fail with ENOSPC once filled
    out, work = disk.root / "out", disk.root / "work"
    # another simulate_seconds: ComfyUI would answer the same graph from its cache
    two.ws.write(server=None, servers=[two.spec(0), two.spec(1)], out=str(out), work=str(work),
                 overrides={"@action": {"simulate_seconds": 3.8}})
    proc = subprocess.Popen([sys.executable, "-m", "driver", "batch", str(two.ws.joblist),
                             "--only", "attack"], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **two.ws.env(), **disk.env})
    try:
        assert wait_running([two.url(0), two.url(1)], proc, 60), \
            "the two servers never ran at once"
        disk.fill()
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, stderr + stdout
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert len([ln for ln in stderr.splitlines() if ln.startswith("disk full")]) == 1, stderr
    assert "done 0, skipped 0, failed 0" in stdout and "stopped early: disk full" in stdout
    db = sqlite3.connect(out / "h3sprite.sqlite")
    status = dict(db.execute("SELECT key, status FROM jobs"))
    db.close()
    assert status == {"hero/attack": "pending", "zombie/attack": "pending"}
    assert _temp_files(out, work) == []
    disk.free()
    res = two.ws.batch("--only", "attack")
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    two.write()
