"""`driver batch` against the real embedded ComfyUI with api_workflows/preview.json.

The tests share one workspace and run in order: first run, resume, a changed portrait,
--force, --reuse-video without a server, then a server killed mid-job.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time

import psutil
import pytest
import requests
from PIL import Image

from service import manager
from tests.conftest import REPO

from .conftest import draw_portrait, wait_running


def _sheets(ws):
    return sorted(p.relative_to(ws.out).as_posix() for p in ws.out.glob("*/*.webp"))


def _mtimes(ws):
    return {p: p.stat().st_mtime_ns for p in ws.out.glob("*/*.webp")}


def _rows(ws):
    db = sqlite3.connect(ws.out / "h3sprite.sqlite")
    rows = {k: (s, json.loads(m or "{}")) for k, s, m in
            db.execute("SELECT key, status, meta FROM jobs")}
    db.close()
    return rows


def test_first_run_makes_sheets_and_actions(workspace):
    """2 characters x 2 actions: 4 sheets and an actions.json that matches each sheet."""
    res = workspace.batch()
    assert res.code == 0, res.err + res.out
    assert _sheets(workspace) == ["hero/attack.webp", "hero/idle.webp", "zombie/attack.webp",
                                  "zombie/idle.webp"]
    actions = workspace.actions()["characters"]
    for cid in ("hero", "zombie"):
        for action, frames, fps, loop in (("idle", 8, 6, True), ("attack", 8, 12, False)):
            a = actions[cid][action]
            meta = json.loads((workspace.out / a["sheet"]).read_text())["meta"]
            img = Image.open(workspace.out / a["image"])
            assert (a["frameCount"], a["fps"], a["loop"]) == (frames, fps, loop)
            assert img.size == (a["cell"]["w"] * frames, a["cell"]["h"])
            assert meta["animation"]["qc"] == a["qc"]
    assert "done 4, skipped 0, failed 0" in res.out
    assert "full chain" in res.out and "per set" in res.out


def test_status_reports_each_job(workspace):
    """`driver status` lists every job of the roster with its status, grade and flags."""
    from tests.conftest import run_cli

    res = run_cli("driver", "status", str(workspace.joblist), "--json")
    assert res.code == 0, res.err
    rows = {r["job"]: r for r in json.loads(res.out)}
    assert set(rows) == {"hero/idle", "hero/attack", "zombie/idle", "zombie/attack"}
    assert rows["hero/idle"]["status"] == "done" and rows["hero/idle"]["grade"] in (
        "CLEAN", "OK", "WEAK")
    assert rows["hero/attack"]["grade"] == "one-shot" and rows["hero/attack"]["attempts"] == 1


def test_rerun_does_nothing(workspace):
    """Unchanged inputs: no generation, no post-processing, no file touched."""
    before = _mtimes(workspace)
    res = workspace.batch()
    assert res.code == 0, res.err
    assert "done 0, skipped 4" in res.out and "current" in res.out
    assert _mtimes(workspace) == before
    assert "GPU exclusion" not in res.err  # no server was needed, none was contacted


def test_changed_portrait_reruns_only_that_character(workspace):
    """A new hero portrait re-runs hero's 2 jobs; the old sheets move to _actions_old/."""
    before = _mtimes(workspace)
    old_hero = (workspace.out / "hero" / "idle.webp").read_bytes()
    draw_portrait(workspace.root / "hero.png", "knight")
    plan = workspace.batch("--dry-run")
    reasons = {line.split()[0]: line.split(None, 2)[2] for line in plan.out.splitlines()}
    assert reasons == {"hero/idle": "inputs changed: portrait",
                       "hero/attack": "inputs changed: portrait",
                       "zombie/idle": "current", "zombie/attack": "current"}
    res = workspace.batch()
    assert res.code == 0, res.err
    assert "done 2, skipped 2" in res.out
    after = _mtimes(workspace)
    for p, m in before.items():
        assert (after[p] != m) == (p.parent.name == "hero"), p
    old = list((workspace.out / "_actions_old").glob("*/hero/idle.webp"))
    assert len(old) == 1 and old[0].read_bytes() == old_hero


def test_force_reruns_everything(workspace):
    """--force (and FORCE=1) re-generate every selected job."""
    res = workspace.batch("--force", "--chars", "zombie")
    assert res.code == 0, res.err
    assert "done 2, skipped 0" in res.out
    rows = _rows(workspace)
    assert rows["zombie/idle"][1]["attempts"] == 1 and "prompt_ids" in rows["zombie/idle"][1]


def test_reuse_video_without_a_server(workspace):
    """With the server stopped, --reuse-video re-processes from the kept clips only."""
    assert manager.stop(workspace.service_config()).code == manager.Exit.OK
    workspace.write(recipes={"idle": {"frames": 6}})
    res = workspace.batch("--reuse-video")
    assert res.code == 0, res.err
    assert "done 2, skipped 2" in res.out
    assert "generation reused" in res.err
    assert workspace.actions()["characters"]["hero"]["idle"]["frameCount"] == 6
    assert workspace.server_pid() is None  # nobody started a server
    workspace.write()


def test_server_killed_mid_job_is_restarted_and_the_job_completes(workspace):
    """SIGKILL of the server while a prompt runs: the batch restarts it, resubmits that
    prompt once (the new server does not have it), and finishes every job."""
    workspace.write(overrides={"@action": {"simulate_seconds": 4.0}})
    proc = _start_batch(workspace, "--force", "--chars", "hero", "--only", "idle")
    try:
        deadline = time.monotonic() + 120
        pid = None
        while time.monotonic() < deadline:
            pid = workspace.server_pid()
            if pid:
                try:
                    q = requests.get(f"http://127.0.0.1:{workspace.port}/queue", timeout=2).json()
                    if q["queue_running"]:
                        break
                except requests.RequestException:
                    pass
            time.sleep(0.2)
        assert pid, "the batch did not start the server"
        os.kill(pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "lost the server" in err and "done 1" in out
    assert psutil.pid_exists(pid) is False or psutil.Process(pid).status() == "zombie"
    status, meta = _rows(workspace)["hero/idle"]
    assert status == "done"
    assert len(meta["prompt_ids"]) == 2  # the lost prompt, then exactly one resubmission
    assert workspace.server_pid() not in (None, pid)
    workspace.write()


def test_restart_every_n_jobs(workspace):
    """restart_every: 1 restarts the server between generations, never after the last."""
    server = {"url": "embedded", "port": workspace.port, "restart_every": 1,
              "comfy_args": ["--base-directory", str(workspace.base_dir),
                             "--database-url", "sqlite:///:memory:"]}
    workspace.write(server=server)
    res = workspace.batch("--force", "--only", "attack")
    assert res.code == 0, res.err
    assert "done 2" in res.out and "server restarts 1" in res.out
    workspace.write()


def test_failing_node_fails_only_its_job(workspace):
    """A character drawn all in key green makes Preview Motion raise: that job fails with
    ComfyUI's message, the other character's job finishes, the exit code is 1."""
    draw_portrait(workspace.root / "green.png", "hero", colour=(0, 177, 64))
    workspace.write(characters={"zombie": {"portrait": "zombie.png"},
                                "green": {"portrait": "green.png"}},
                    wording={"zombie": "a zombie", "green": "a green man"},
                    actions=["hurt"])
    res = workspace.batch()
    assert res.code == 1
    assert "failed green/hurt" in res.out and "found no character" in res.out
    assert (workspace.out / "zombie" / "hurt.webp").exists()
    assert not (workspace.out / "green" / "hurt.webp").exists()
    workspace.write()


def test_hang_gets_a_thread_dump_restart_and_bounded_retries(workspace):
    """No progress for hang_seconds: the batch dumps the server's threads into its log,
    restarts the server and retries, and gives up after `attempts` tries."""
    server = {"url": "embedded", "port": workspace.port, "hang_seconds": 2, "attempts": 2,
              "comfy_args": ["--base-directory", str(workspace.base_dir),
                             "--database-url", "sqlite:///:memory:"]}
    workspace.write(server=server, overrides={"@action": {"simulate_seconds": 8.0}})
    first_pid = workspace.server_pid()
    logs_before = set((workspace.out / "_logs").glob("batch-*.log"))
    res = workspace.batch("--force", "--chars", "hero", "--only", "attack")
    assert res.code == 1
    assert "no progress for 2 s" in res.err and "gave up after 2 tries" in res.out
    # this run's own log: the module's earlier runs may have started in the same second
    (this_run,) = set((workspace.out / "_logs").glob("batch-*.log")) - logs_before
    log = this_run.read_text()
    assert "prompt_worker" in log  # the faulthandler dump of the live server
    assert workspace.server_pid() not in (None, first_pid)
    workspace.write()


def _start_batch(workspace, *args: str, ctrl_c: bool = False) -> subprocess.Popen:
    """`driver batch` of the workspace's joblist with args, as a process to signal or to
    read; ctrl_c: SIGINT reaches it (_ctrl_c_reaches)."""
    return subprocess.Popen([sys.executable, "-m", "driver", "batch", str(workspace.joblist),
                             *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **workspace.env()},
                            preexec_fn=_ctrl_c_reaches if ctrl_c else None)


def _ctrl_c_reaches() -> None:
    """In the driver's process before it starts: SIGINT at its default, as in a terminal.
    A shell without job control starts background jobs with SIGINT ignored (so Ctrl-C
    does not reach them), and Python then never raises KeyboardInterrupt: under a CI
    started that way the driver ran to the end (exit 0) and this test failed."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_cleanly_and_the_next_run_resumes(workspace, sig):
    """SIGINT during generation: exit 130 with one line, our prompt is interrupted on the
    server, the job is left pending, and the next run picks it up as interrupted. SIGTERM
    (systemd, `timeout`) the same: it killed the driver at once, its prompt running on.
    (Each signal's graph differs: ComfyUI would answer the same graph from its cache.)"""
    workspace.write(overrides={"@action": {"simulate_seconds": 6.0 + 0.1 * int(sig)}})
    proc = _start_batch(workspace, "--force", "--chars", "zombie", "--only", "idle", ctrl_c=True)
    url = f"http://127.0.0.1:{workspace.port}"
    assert wait_running([url], proc, 120)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    time.sleep(1.0)
    assert requests.get(f"{url}/queue", timeout=5).json()["queue_running"] == []
    assert _rows(workspace)["zombie/idle"][0] == "pending"
    plan = workspace.batch("--dry-run", "--chars", "zombie", "--only", "idle")
    assert "interrupted before" in plan.out
    res = workspace.batch("--chars", "zombie", "--only", "idle")
    assert res.code == 0 and "done 1" in res.out
    workspace.write()


def test_graph_without_green_screen_prep_gets_a_prepared_first_frame(workspace):
    """A user's graph that loads the first frame directly (no Green Screen Prep): the
    driver uploads the first frame it prepared at the canvas size, and the job works."""
    graph = json.loads((REPO / "api_workflows" / "preview.json").read_text())
    del graph["4"]
    graph["6"]["inputs"]["first_frame"] = ["1", 0]
    wf = workspace.root / "own_graph.json"
    wf.write_text(json.dumps(graph))
    workspace.write(workflow=str(wf), actions=["hurt"])
    res = workspace.batch("--chars", "zombie")
    assert res.code == 0, res.out + res.err
    assert (workspace.root / "_work" / "zombie_hurt" / "first_frame_256x256.png").is_file()
    sheet = workspace.actions()["characters"]["zombie"]["hurt"]
    assert sheet["frameCount"] == 6 and sheet["qc"] == []
    workspace.write()


def test_lost_connection_to_a_live_server_adopts_the_prompt(workspace):
    """The connection drops while the server keeps running the prompt: the batch finds the
    prompt still there (/queue, /history), waits for it and adopts its clip; the prompt is
    never sent twice."""
    from service.manager import start

    from .proxy import CuttableProxy

    start(workspace.service_config())
    proxy = CuttableProxy(workspace.port)
    try:
        workspace.write(server={"url": f"http://127.0.0.1:{proxy.port}"},
                        overrides={"@action": {"simulate_seconds": 4.0}})
        proc = subprocess.Popen([sys.executable, "-m", "driver", "batch",
                                 str(workspace.joblist), "--force", "--chars", "hero",
                                 "--only", "attack"], cwd=REPO, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                env={**os.environ, **workspace.env()})
        url = f"http://127.0.0.1:{workspace.port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if requests.get(f"{url}/queue", timeout=2).json()["queue_running"]:
                break
            time.sleep(0.2)
        proxy.cut()
        out, err = proc.communicate(timeout=120)
    finally:
        proxy.close()
    assert proc.returncode == 0, err
    assert "lost the server" in err and "adopted after reconnecting" in err
    status, meta = _rows(workspace)["hero/attack"]
    assert status == "done" and len(meta["prompt_ids"]) == 1 and meta["adopted"] is True
    workspace.write()


def test_a_second_batch_on_the_same_out_folder_is_refused_while_the_first_runs(workspace):
    """Two batches writing one out folder each made every sheet, backing each up two or
    three times (or the second failed: "refused the connection"). While one runs, another
    on the same out says which pid holds it, exits 1 and changes nothing (it held the lock
    only after opening its database and rewriting the reserve file); once the first
    has ended (here by Ctrl-C), the out folder is free again. A dry run reads only."""
    workspace.write(overrides={"@action": {"simulate_seconds": 6.0}})
    proc = _start_batch(workspace, "--force", "--chars", "zombie", "--only", "idle", ctrl_c=True)
    try:
        assert wait_running([f"http://127.0.0.1:{workspace.port}"], proc, 120)
        logs = sorted((workspace.out / "_logs").iterdir())
        reserve = workspace.out / ".h3sprite-reserve"  # the first batch's space held back
        written = reserve.stat().st_mtime_ns
        second = workspace.batch("--force", "--chars", "zombie", "--only", "idle")
        assert second.code == 1 and second.err.strip() == (
            f"driver batch: another batch (pid {proc.pid}) is writing {workspace.out}: wait "
            "for it to end, or give this joblist another out:"), second.err
        assert sorted((workspace.out / "_logs").iterdir()) == logs  # not even a log
        assert reserve.stat().st_mtime_ns == written  # nor the first one's reserve file
        assert workspace.batch("--dry-run").code == 0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    assert proc.returncode == 130
    again = workspace.batch("--chars", "zombie", "--only", "idle")
    assert again.code == 0, again.err
    workspace.write()


def test_a_sheet_removed_while_the_batch_runs_is_reported_not_listed(workspace):
    """zombie's idle sheet deleted while its attack is generated: the batch said done 2,
    exit 0, and actions.json still listed idle.webp for a game to fail on. Now it ends with
    exit 1 and a line naming the job, actions.json leaves it out, and the next run makes it
    again (its outputs are bad: generation reused, no server needed for the clip)."""
    workspace.write(overrides={"@action": {"simulate_seconds": 4.0}})
    idle = workspace.out / "zombie" / "idle.webp"
    idle.unlink(missing_ok=True)  # an earlier test's: this run's is waited for
    proc = _start_batch(workspace, "--force", "--chars", "zombie")
    deadline = time.monotonic() + 240
    while not idle.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert idle.exists(), "idle was never written"
    idle.unlink()
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 1, out + err
    assert ("  missing zombie/idle: its sheet or JSON was removed while the batch ran (left "
            "out of actions.json): run the batch again to make it") in out.splitlines()
    assert list(workspace.actions()["characters"]["zombie"]) == ["attack"]
    again = workspace.batch("--chars", "zombie")
    assert again.code == 0 and idle.is_file(), again.out + again.err
    assert set(workspace.actions()["characters"]["zombie"]) == {"idle", "attack"}
    workspace.write()


def test_a_state_file_removed_while_the_batch_runs_is_written_back(workspace):
    """The state file deleted (with its -wal and -shm) while a job is generated: the batch
    went on writing into the unlinked file and, ended, left no record, so the next run
    took every job for new. Now it writes the file back from its open connection and says
    so; the row is done, and the next run skips the job as current."""
    workspace.write(overrides={"@action": {"simulate_seconds": 5.0}})
    db = workspace.out / "h3sprite.sqlite"
    proc = _start_batch(workspace, "--force", "--chars", "zombie", "--only", "attack")
    try:
        assert wait_running([f"http://127.0.0.1:{workspace.port}"], proc, 120)
        for name in (db.name, db.name + "-wal", db.name + "-shm"):
            (db.parent / name).unlink(missing_ok=True)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert (f"state file {db} was removed while the batch ran: written back from the "
            "batch's own copy") in out + err
    assert _rows(workspace)["zombie/attack"][0] == "done"
    again = workspace.batch("--chars", "zombie", "--only", "attack")
    assert again.code == 0 and "current" in again.out + again.err, again.out + again.err
    workspace.write()


def test_a_portrait_removed_while_the_batch_runs_fails_its_job_in_one_line(workspace):
    """zombie.png moved away while hero's job runs: zombie's job failed as "internal error
    FileNotFoundError" with a traceback in the log. It fails in one line naming the
    portrait and the fix; hero's job is done."""
    workspace.write(overrides={"@action": {"simulate_seconds": 4.2}})
    portrait = workspace.joblist.parent / "zombie.png"
    aside = portrait.with_name("zombie-aside.png")
    proc = _start_batch(workspace, "--force", "--only", "hero/idle,zombie/idle")
    try:
        assert wait_running([f"http://127.0.0.1:{workspace.port}"], proc, 120)
        portrait.rename(aside)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
        if aside.exists():
            aside.rename(portrait)
    assert proc.returncode == 1, out + err
    assert "internal error" not in out + err and "Traceback" not in out + err
    assert re.search(r"failed zombie/idle: character zombie: portrait \S+zombie\.png cannot "
                     r"be read: No such file or directory: put it back", out + err), out + err
    assert _rows(workspace)["hero/idle"][0] == "done"
    workspace.write()


def test_a_restart_killed_while_starting_is_one_try_not_the_end_of_the_server(workspace):
    """SIGKILL of the server mid-job, then of the new one while it starts: the restart
    failed, and the batch gave the server up for good ("no server left" for every later
    job, whatever `attempts` said). It is one try: the next restarts it, the job is done."""
    workspace.write(overrides={"@action": {"simulate_seconds": 3.3}})
    proc = _start_batch(workspace, "--force", "--only", "hero/idle,zombie/idle")
    try:
        assert wait_running([f"http://127.0.0.1:{workspace.port}"], proc, 120)
        first = workspace.server_pid()
        assert first is not None
        os.kill(first, signal.SIGKILL)
        deadline, second = time.monotonic() + 60, None
        while time.monotonic() < deadline and second in (None, first):
            second = workspace.server_pid()
            time.sleep(0.05)
        assert second not in (None, first), "the batch did not restart the server"
        os.kill(second, signal.SIGKILL)  # while it starts (ComfyUI takes seconds on a CPU)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, out + err
    assert re.search(r"hero/idle: restart failed: .*during start-up; log: \S+; trying again",
                     err), err
    assert "no server left" not in out + err and "done 2" in out, out
    assert _rows(workspace)["hero/idle"][0] == _rows(workspace)["zombie/idle"][0] == "done"
    workspace.write()


def test_an_interrupted_force_is_resumed_by_the_next_plain_run(workspace):
    """--force, Ctrl-C during its first job (left pending, as any job Ctrl-C stops): the
    next plain run (as the exit-130 line advises) redoes both, generation included; the
    one not yet reached had read "current" and kept its old clip and sheet. Once redone,
    they are current again."""
    workspace.write(overrides={"@action": {"simulate_seconds": 5.5}})
    assert workspace.batch("--only", "hero/idle,zombie/idle").code == 0  # both done before
    proc = _start_batch(workspace, "--force", "--only", "hero/idle,zombie/idle", ctrl_c=True)
    try:
        assert wait_running([f"http://127.0.0.1:{workspace.port}"], proc, 120)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    plan = _plan_lines(workspace.batch("--only", "hero/idle,zombie/idle", "--dry-run"))
    assert plan == {"hero/idle": ("generate+process",  # stopped by the Ctrl-C
                                  "interrupted before (of an interrupted --force)"),
                    "zombie/idle": ("generate+process",  # not reached: it read "current"
                                    "forced (resumed: an interrupted --force)")}, plan
    # ... and --reuse-video still takes the clips made from these inputs (the first version
    # of the resume cleared their record, and it said none had a clip to reuse)
    reuse = _plan_lines(workspace.batch("--only", "hero/idle,zombie/idle", "--reuse-video",
                                        "--dry-run"))
    assert {k: v[0] for k, v in reuse.items()} == {"hero/idle": "process",
                                                    "zombie/idle": "process"}, reuse
    done = workspace.batch("--only", "hero/idle,zombie/idle")
    assert done.code == 0 and "done 2" in done.out, done.out + done.err
    again = _plan_lines(workspace.batch("--only", "hero/idle,zombie/idle", "--dry-run"))
    assert {k: v[0] for k, v in again.items()} == {"hero/idle": "skip",
                                                    "zombie/idle": "skip"}, again
    workspace.write()


def _plan_lines(res) -> dict[str, tuple[str, str]]:
    assert res.code == 0, res.err
    return {line.split()[0]: (line.split()[1], line.split(None, 2)[2])
            for line in res.out.splitlines() if line.strip()}


def test_a_batch_whose_stderr_reader_went_away_still_does_its_jobs(workspace):
    """`driver batch J 2>&1 | head -c 1`: the job lines on stderr could not be written, and
    each failed its job ("post-processing: [Errno 32] Broken pipe"), the batch exiting
    141. The batch goes quiet (the log keeps every line) and does them."""
    workspace.write(overrides={"@action": {"simulate_seconds": 3.1}})
    proc = _start_batch(workspace, "--force", "--only", "hero/idle")
    assert proc.stderr is not None
    proc.stderr.close()  # the reader of the job lines goes away at once
    out, _ = proc.communicate(timeout=240)
    assert proc.returncode == 0, out
    assert "done 1, skipped 0, failed 0" in out, out
    assert _rows(workspace)["hero/idle"][0] == "done"
    workspace.write()
