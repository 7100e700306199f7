"""driver.outputs.back_up: files being replaced move aside all together or not at all."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from driver.outputs import OLD_DIR, back_up
from tests.conftest import run_cli
from tests.core.conftest import fixture


def immutable(path: Path) -> None:
    """chattr +i: a file not even root may move (as a user meets on a locked share)."""
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("chattr is not on this machine")
    if subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("this filesystem or user cannot set the immutable attribute")


def mutable(path: Path) -> None:
    subprocess.run(["chattr", "-i", str(path)], capture_output=True)


def test_back_up_moves_every_file_keeping_its_place_under_the_root(tmp_path):
    (tmp_path / "hero").mkdir()
    files = [tmp_path / "hero" / "walk.webp", tmp_path / "hero" / "walk.json"]
    for i, f in enumerate(files):
        f.write_bytes(b"%d" % i)
    folder = back_up([*files, tmp_path / "hero" / "walk.tres"], tmp_path)
    assert folder is not None and folder.parent == tmp_path / OLD_DIR
    assert [(folder / "hero" / f.name).read_bytes() for f in files] == [b"0", b"1"]
    assert not any(f.exists() for f in files)


def test_a_file_that_will_not_move_brings_the_others_back(tmp_path):
    """The second of three is immutable: the first comes back, the third never goes, the
    error is raised and no backup folder is left."""
    files = [tmp_path / n for n in ("walk.webp", "walk.json", "walk.tres")]
    for i, f in enumerate(files):
        f.write_bytes(b"%d" % i)
    immutable(files[1])
    try:
        with pytest.raises(PermissionError):
            back_up(files, tmp_path)
    finally:
        mutable(files[1])
    assert [f.read_bytes() for f in files] == [b"0", b"1", b"2"]
    assert list((tmp_path / OLD_DIR).iterdir()) == []


def test_process_into_a_folder_with_an_immutable_sheet_json_changes_nothing(tmp_path):
    """The tester's case: the old sheet's JSON is immutable. One line naming it, exit
    non-zero, and the folder as it was: the old strip in place, nothing new, no temporary
    file."""
    args = ["process", str(fixture("walk").path), "--action", "walk", "--out", str(tmp_path)]
    assert run_cli("driver", *args).code == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    immutable(tmp_path / "walk.json")
    try:
        res = run_cli("driver", *args, "--formats", "godot")
    finally:
        mutable(tmp_path / "walk.json")
    assert res.code != 0 and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1 and "walk.json" in res.err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*before, OLD_DIR])
    assert list((tmp_path / OLD_DIR).iterdir()) == []


def _other_disk(tmp_path: Path) -> Path:
    """A folder on another filesystem than tmp_path's (/dev/shm's tmpfs), or a skip."""
    import os

    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(tmp_path).st_dev:
        pytest.skip("no second filesystem (/dev/shm) here")
    far = Path(tempfile.mkdtemp(dir=shm, prefix="h3sprite-test-"))
    return far


def test_a_sheet_on_another_disk_than_its_backup_is_replaced_whole(tmp_path):
    """The character's folder on another disk than the out folder: each file is copied to
    the backup, then removed. A frames folder one of whose cells will not go (immutable)
    was left half removed in place, its copy in the backup; now it is first renamed aside
    on its own disk, so the new sheet is written whole and the old one is whole in the
    backup."""
    from comfy_nodes.core import pipeline
    from comfy_nodes.core.export import Format
    from comfy_nodes.core.recipes import DEFAULT_RECIPES
    from driver.process import write_sheet

    far = _other_disk(tmp_path)
    stuck = None
    try:
        (tmp_path / "hero").symlink_to(far, target_is_directory=True)
        fx = fixture("walk")
        sheet = pipeline.process_clip(fx.clip, "walk", DEFAULT_RECIPES["walk"], "hero")
        write_sheet(sheet, tmp_path / "hero", "walk", tmp_path, list(Format))
        cells = sorted((far / "walk_frames").iterdir())
        stuck = cells[5]
        immutable(stuck)
        written = write_sheet(sheet, tmp_path / "hero", "walk", tmp_path, list(Format))
        assert written.backup is not None
        assert len(list((written.backup / "hero" / "walk_frames").iterdir())) == len(cells)
        assert len(list((far / "walk_frames").iterdir())) == len(cells)
        assert (far / "walk.json").is_file() and (written.backup / "hero" / "walk.json").is_file()
    finally:
        if stuck is not None:
            for p in far.rglob(stuck.name):
                mutable(p)
        shutil.rmtree(far, ignore_errors=True)
