"""A full disk and a killed driver, against the real embedded ComfyUI (Preview Motion with
`simulate_seconds` makes generation last long enough to strike in the middle of it)."""

from __future__ import annotations

import errno
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import REPO
from tests.driver.conftest import wait_running

SLOW = {"@action": {"simulate_seconds": 3.0}}


def _rows(db: Path) -> dict[str, tuple[str, dict]]:
    con = sqlite3.connect(db)
    rows = {k: (s, json.loads(m or "{}")) for k, s, m in
            con.execute("SELECT key, status, meta FROM jobs")}
    con.close()
    return rows


def _temp_files(*folders: Path) -> list[Path]:
    return [p for f in folders for p in f.rglob(".*") if p.suffix in (".tmp", ".part")]


@pytest.fixture
def tmpfs(tmp_path):
    """A small RAM disk of our own, where root may mount one."""
    made: list[Path] = []

    def mount(size: str) -> Path:
        mnt = tmp_path / f"disk{len(made)}"
        mnt.mkdir()
        res = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mnt)],
                             capture_output=True, text=True)
        if res.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here ({res.stderr.strip()}): needs root")
        made.append(mnt)
        return mnt

    yield mount
    for mnt in made:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def _default_sigint() -> None:
    # A test run started in the background of a shell without job control (`make test &`)
    # ignores SIGINT, and a child inherits that: Python then installs no KeyboardInterrupt
    # handler, and the Ctrl-C test's driver ran its job to the end and exited 0.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _popen_batch(ws, *args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "driver", "batch", str(ws.joblist), *args],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **ws.env(), **(env or {})},
                            preexec_fn=_default_sigint)


def test_precheck_on_a_full_disk_writes_nothing(workspace, tmpfs):
    disk = tmpfs("8m")
    workspace.write(out=str(disk / "out"), work=str(disk / "work"))
    res = workspace.batch()
    assert res.code == 1 and "MiB free under" in res.err and "Traceback" not in res.err
    assert list(disk.iterdir()) == []  # no log, no database, no folder
    workspace.write()


INJECTOR = """
import errno, os
_flag = os.environ.get("H3SPRITE_TEST_ENOSPC")
if _flag:
    _root, _fsync = os.path.dirname(_flag), os.fsync

    def _full_fsync(fd):  # every file we write under the disk folder ends with an fsync
        try:
            path = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            path = ""
        if os.path.exists(_flag) and path.startswith(_root + os.sep):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return _fsync(fd)

    os.fsync = _full_fsync
"""


class FullDisk:
    """A disk we can fill mid-run: a 300 MB tmpfs where root may mount one, else a folder
    whose writes fail with ENOSPC once a flag file exists (an injected fsync, loaded into
    the driver through sitecustomize)."""

    def __init__(self, tmp_path: Path, mount):
        self.env: dict[str, str] = {}
        self.root = mount("300m") if mount else tmp_path / "disk"
        self.filler = self.root / "filler"
        if not mount:
            self.root.mkdir()
            site = tmp_path / "site"
            site.mkdir()
            (site / "sitecustomize.py").write_text(INJECTOR)
            self.env = {"PYTHONPATH": os.pathsep.join([str(site), str(REPO)]),
                        "H3SPRITE_TEST_ENOSPC": str(self.filler)}

    def fill(self) -> None:
        if self.env:
            self.filler.write_bytes(b"")
            return
        with open(self.filler, "wb") as f:  # to the last block
            try:
                while True:
                    f.write(b"\0" * 2**20)
                    f.flush()
            except OSError as e:
                assert e.errno == errno.ENOSPC

    def free(self) -> None:
        self.filler.unlink()


@pytest.fixture
def full_disk(tmp_path, tmpfs):
    if os.environ.get("H3SPRITE_TEST_INJECT_ENOSPC"):
        return FullDisk(tmp_path, None)
    try:
        return FullDisk(tmp_path, tmpfs)
    except pytest.skip.Exception:
        return FullDisk(tmp_path, None)


def test_disk_full_mid_batch_stops_cleanly_and_resumes(workspace, full_disk):
    """The disk fills after the first sheet: one line naming the path, the free space and
    the need; the summary is printed; nothing is left `running`; no temporary file stays;
    after space is freed the rerun finishes the rest without redoing the first."""
    disk = full_disk.root
    out, work = disk / "out", disk / "work"
    workspace.write(out=str(out), work=str(work), overrides=SLOW)
    (work / "hero_idle").mkdir(parents=True)
    (work / "hero_idle" / ".h3sprite-clip.mp4.999999.1.tmp").write_bytes(b"left by a killed run")
    proc = _popen_batch(workspace, "--chars", "hero", env=full_disk.env)
    deadline = time.monotonic() + 180
    while not list(out.glob("*/*.webp")) and time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    assert not _temp_files(work), "the old .tmp was not swept at the start"
    full_disk.fill()
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 1, stderr + stdout
    assert "Traceback" not in stderr and "internal error" not in stderr
    full = [line for line in stderr.splitlines() if line.startswith("disk full")]
    assert len(full) == 1, stderr
    assert str(disk) in full[0] and "MiB free" in full[0] and "MiB needed" in full[0]
    assert "done 1," in stdout and "stopped early: disk full" in stdout
    assert _temp_files(out, work) == []
    full_disk.free()
    assert "running" not in {s for s, _ in _rows(out / "h3sprite.sqlite").values()}
    res = workspace.batch("--chars", "hero")
    assert res.code == 0, res.err + res.out
    assert "done 1, skipped 1" in res.out
    workspace.write()


def test_killed_driver_prompt_is_adopted_not_resubmitted(workspace):
    """SIGKILL the driver while the server runs its prompt: the rerun finds that prompt
    (recorded id and client id) on the server and takes its clip; one execution per job."""
    url = f"http://127.0.0.1:{workspace.port}"
    workspace.write(overrides={"@action": {"simulate_seconds": 6.0}})
    seen = set(requests.get(f"{url}/history", timeout=5).json()) if workspace.server_pid() \
        else set()
    proc = _popen_batch(workspace, "--force", "--chars", "zombie", "--only", "idle")
    wait_running([url], proc, 180)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    db = workspace.out / "h3sprite.sqlite"
    killed_prompt = _rows(db)["zombie/idle"][1]["inflight"]["prompt_id"]
    # A dry run over the state a killed run left changes nothing.
    def tree() -> dict[Path, int]:  # ours: the server's own log grows meanwhile
        return {p: p.stat().st_mtime_ns for d in (workspace.out, workspace.root / "_work")
                for p in d.rglob("*")}

    before = tree()
    plan = workspace.batch("--dry-run", "--chars", "zombie", "--only", "idle")
    assert plan.code == 0 and "interrupted before" in plan.out, plan.err
    assert tree() == before
    res = workspace.batch("--chars", "zombie", "--only", "idle")
    assert res.code == 0, res.err + res.out
    assert f"adopting prompt {killed_prompt}" in res.err
    status, meta = _rows(db)["zombie/idle"]
    assert status == "done" and meta["prompt_ids"] == [killed_prompt]
    history = requests.get(f"{url}/history", timeout=5).json()
    ran = [pid for pid, h in history.items() if pid not in seen
           and "zombie_idle" in json.dumps(h["prompt"][2])]
    assert ran == [killed_prompt]  # exactly one execution of the job
    workspace.write()


def test_prompt_interrupted_by_ctrl_c_is_sent_again_not_adopted(workspace):
    """Ctrl-C interrupts our prompt: ComfyUI files it in /history as ended, status "error",
    not completed, with an execution_interrupted message. The rerun must read that as
    finished (failed) and submit the job again, not adopt it and wait hang_seconds for a
    completion that never comes."""
    url = f"http://127.0.0.1:{workspace.port}"
    workspace.write(overrides={"@action": {"simulate_seconds": 6.0}})
    proc = _popen_batch(workspace, "--force", "--chars", "zombie", "--only", "attack")
    wait_running([url], proc, 180)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    db = workspace.out / "h3sprite.sqlite"
    stopped = _rows(db)["zombie/attack"][1]["inflight"]["prompt_id"]
    hist = requests.get(f"{url}/history/{stopped}", timeout=5).json()[stopped]
    # the shape the real server writes for it (execution.PromptQueue.task_done)
    assert hist["status"]["status_str"] == "error" and hist["status"]["completed"] is False
    assert "execution_interrupted" in [m[0] for m in hist["status"]["messages"]]
    res = workspace.batch("--chars", "zombie", "--only", "attack")
    assert res.code == 0, res.err + res.out
    assert f"adopting prompt {stopped}" not in res.err
    status, meta = _rows(db)["zombie/attack"]
    assert status == "done" and stopped not in meta["prompt_ids"] and not meta.get("adopted")
    workspace.write()
