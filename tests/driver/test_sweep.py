"""The start-of-batch sweep removes only our own leftovers (`.h3sprite-NAME.PID.THREAD.tmp`
of a dead writer) and only in the folders the batch writes into: with `out: .` a user's
files beside the joblist and below it are never touched (a real `driver batch`
subprocess; --reuse-video needs no server)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import yaml

from comfy_nodes.core.util import atomic_write
from driver import disk
from tests.conftest import REPO, run_cli
from tests.driver.conftest import draw_portrait


def _finished_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_sweep_removes_our_dead_leftovers_only_where_the_batch_writes(tmp_path):
    dead, alive = _finished_pid(), os.getpid()  # this test's process outlives the batch
    draw_portrait(tmp_path / "hero.png", "hero")
    joblist = tmp_path / "jl.yaml"
    joblist.write_text(yaml.safe_dump({
        "server": {"url": "http://127.0.0.1:1"},
        "workflow": str(REPO / "api_workflows" / "preview.json"), "actions": ["idle"],
        "wording": {"hero": "a hero"}, "characters": {"hero": {"portrait": "hero.png"}},
        "out": ".", "work": "_work"}))
    users = [tmp_path / "mystuff" / "deep" / f".thesis.{dead}.tmp",  # the reported loss
             tmp_path / f".notes.{dead}.1.tmp", tmp_path / f".clip.{dead}.part",
             tmp_path / "hero" / f".idle.json.{dead}.1.tmp",  # old-style: not ours to judge
             tmp_path / "mystuff" / f".h3sprite-x.{dead}.1.tmp",  # ours, but not our folder
             tmp_path / f".h3sprite-actions.json.{alive}.1.tmp"]  # a live writer's
    ours = [tmp_path / f".h3sprite-actions.json.{dead}.1.tmp",
            tmp_path / "hero" / f".h3sprite-idle.webp.{dead}.2.tmp",
            tmp_path / "_work" / "hero_idle" / f".h3sprite-clip.mp4.{dead}.3.tmp"]
    frames = tmp_path / "hero" / f".h3sprite-idle_frames.{dead}.4.tmp"
    for p in users + ours:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
    frames.mkdir()
    (frames / "0000.png").write_bytes(b"png")
    # --reuse-video with no clip: no server, the sweep, then one line (nothing to reuse)
    res = run_cli("driver", "batch", str(joblist), "--reuse-video", "-q", timeout=120)
    assert res.code == 1 and "has a clip to reuse" in res.err, res.err + res.out
    assert [p for p in users if not p.exists()] == []
    assert [p for p in ours if p.exists()] == [] and not frames.exists()


def test_the_temporary_names_atomic_write_uses_are_the_ones_swept(tmp_path):
    """Seen mid-write: the helper's temporary file has the name the sweep knows, with the
    writer's pid."""
    seen: list[str] = []

    def chunks():
        seen.extend(p.name for p in tmp_path.iterdir())
        yield b"data"

    atomic_write(tmp_path / "a.json", chunks())
    assert len(seen) == 1
    m = disk.TEMP_NAME.match(seen[0])
    assert m and int(m.group(1)) == os.getpid() and seen[0].startswith(".h3sprite-a.json.")
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_sweep_never_walks_below_the_folders_it_is_given(tmp_path):
    dead = _finished_pid()
    below = tmp_path / "sub" / f".h3sprite-a.json.{dead}.1.tmp"
    below.parent.mkdir()
    below.write_text("x")
    assert disk.sweep(tmp_path) == 0 and below.exists()
    assert disk.sweep(Path(below.parent)) == 1 and not below.exists()
