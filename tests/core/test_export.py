"""Exporters and write_sheet: the TexturePacker shape games already read, formats, and
files that are never overwritten without a backup, nor half written."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from comfy_nodes.core import export, pipeline
from comfy_nodes.core.export import Format, ImageFormat, parse_formats, texturepacker
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from comfy_nodes.core.sheet import QCFlag, Sheet

from .conftest import fixture

FRAME_KEYS = ["frame", "rotated", "trimmed", "spriteSourceSize", "sourceSize", "anchor",
              "duration", "source"]
META_KEYS = ["app", "version", "image", "format", "size", "scale", "frameTags", "character",
             "animation", "cell", "clip", "alignment", "key", "qc"]  # qc: issue 9's smear


@pytest.fixture(scope="module")
def sheet() -> Sheet:
    fx = fixture("walk")
    return pipeline.process_clip(fx.clip, "walk", DEFAULT_RECIPES["walk"], "hero")


def test_texturepacker_keeps_its_shape(sheet):
    """The JSON games already read: the same keys in the same order as before the typed
    Sheet (checked byte for byte against the old writer when it was replaced)."""
    doc = texturepacker.document(sheet, "walk.webp")
    assert list(doc) == ["frames", "animations", "meta"]
    assert all(list(f) == FRAME_KEYS for f in doc["frames"].values())
    assert list(doc["meta"]) == META_KEYS
    assert list(doc["meta"]["animation"]) == ["name", "fps", "loop", "frame_count",
                                              "loop_score", "loop_grade", "qc"]
    assert doc["meta"]["scale"] == "1"  # PixiJS reads it as the strip's resolution
    assert doc["meta"]["clip"]["scale"] == pytest.approx(sheet.scale, abs=1e-6)
    json.dumps(doc)


def test_sheet_is_typed(sheet):
    assert sheet.frame_count == len(sheet.cells) == 10
    assert sheet.rgba.shape == (sheet.cell_size[1], sheet.cell_size[0] * 10, 4)
    assert all(isinstance(f, QCFlag) for f in sheet.qc)
    with pytest.raises(dataclasses.FrozenInstanceError):
        sheet.fps = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="RGBA"):
        dataclasses.replace(sheet, cell_size=(sheet.cell_size[0] + 1, sheet.cell_size[1]))


@pytest.mark.parametrize("text, expected", [
    ("", [Format.TEXTUREPACKER]),
    ("godot", [Format.TEXTUREPACKER, Format.GODOT]),
    ("frames, Aseprite,godot,texturepacker", list(Format)),
])
def test_parse_formats(text, expected):
    assert list(parse_formats(text)) == expected


def test_parse_formats_names_the_unknown_one():
    with pytest.raises(ValueError, match="unknown format 'unity'; choose from texturepacker"):
        parse_formats("godot,unity", "--formats")


def test_write_refuses_to_overwrite_without_a_backup(sheet, tmp_path):
    export.write_sheet(sheet, tmp_path, "walk")
    before = (tmp_path / "walk.json").read_bytes()
    with pytest.raises(FileExistsError, match="walk"):
        export.write_sheet(sheet, tmp_path, "walk", [Format.GODOT])
    assert (tmp_path / "walk.json").read_bytes() == before
    assert not (tmp_path / "walk.tres").exists()


def test_write_backs_up_every_file_of_the_stem(sheet, tmp_path):
    """All formats + WebP, then TexturePacker only as PNG: every earlier file (the .tres,
    the frames folder, the WebP) goes to the backup, so nothing stale looks current."""
    first = export.write_sheet(sheet, tmp_path, "walk", list(Format))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "walk.aseprite.json", "walk.json", "walk.tres", "walk.webp", "walk_frames"]
    moved: list = []

    def back_up(paths):
        dest = tmp_path / "old"
        dest.mkdir()
        for p in paths:
            moved.append(p.name)
            p.rename(dest / p.name)
        return dest

    second = export.write_sheet(sheet, tmp_path, "walk", image_format=ImageFormat.PNG,
                                back_up=back_up)
    assert sorted(moved) == sorted(p.name for p in [first.image, *first.files.values()])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old", "walk.json", "walk.png"]
    assert second.backup == tmp_path / "old"
    assert json.loads((tmp_path / "walk.json").read_text())["meta"]["image"] == "walk.png"
    assert len(list((tmp_path / "old" / "walk_frames").glob("*.png"))) == 10


def test_a_failed_render_writes_nothing(sheet, tmp_path):
    """A strip past WebP's side limit fails before any file or backup is touched."""
    wide = dataclasses.replace(sheet, cells=tuple(np.zeros((8, 2000, 4), np.uint8)
                                                  for _ in range(10)),
                               cell_size=(2000, 8))
    with pytest.raises(ValueError, match="WebP"):
        export.write_sheet(wide, tmp_path / "out", "walk", list(Format))
    assert not (tmp_path / "out").exists()


def test_a_failed_write_leaves_the_previous_sheet_where_it_was(sheet, tmp_path):
    """Every file is written under its temporary name before anything is backed up: where
    one cannot be written (here a folder squats on the JSON's temporary name, as a full
    disk would fail it), the previous sheet stays in place, whole, nothing is moved, and
    no temporary file is left but the squatter."""
    from comfy_nodes.core.util import temp_path

    export.write_sheet(sheet, tmp_path, "walk", list(Format))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    squatter = temp_path(tmp_path / "walk.json")
    squatter.mkdir()
    (squatter / "keep").write_text("x")
    called: list = []
    with pytest.raises(IsADirectoryError):
        export.write_sheet(sheet, tmp_path, "walk", [Format.GODOT],
                           back_up=lambda paths: called.append(paths))
    assert called == []
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*before, "walk_frames", squatter.name])


def test_a_failed_backup_leaves_the_previous_sheet_and_no_new_file(sheet, tmp_path):
    """A backup that raises (a file that will not move) leaves no new or temporary file."""
    export.write_sheet(sheet, tmp_path, "walk")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}

    def refuse(paths):
        raise PermissionError(1, "Operation not permitted", str(paths[0]))

    with pytest.raises(PermissionError):
        export.write_sheet(sheet, tmp_path, "walk", list(Format), back_up=refuse)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
