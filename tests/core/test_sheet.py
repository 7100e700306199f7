"""The sheet JSON loads in PixiJS/Phaser terms, and the strip respects its limits."""

from __future__ import annotations

import io
import json

import numpy as np
from PIL import Image

from comfy_nodes.core import pipeline
from comfy_nodes.core.export.texturepacker import document
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from comfy_nodes.core.sheet import encode_webp, grade_label

from .conftest import fixture


def _sheet(name="walk", **kw):
    fx = fixture(name)
    return pipeline.process_clip(fx.clip, fx.action, DEFAULT_RECIPES[fx.action], "hero", **kw)


def test_frames_tile_the_sheet_without_overlap():
    """Names unique and namespaced, rectangles inside the sheet, disjoint, in play order,
    `animations` lists them in order, frameTags agree with the recipe."""
    res = _sheet()
    meta = document(res, "walk.webp")
    size = meta["meta"]["size"]
    names = list(meta["frames"])
    assert len(set(names)) == len(names) == 10
    assert all(n.startswith("hero/walk/") for n in names)
    assert meta["animations"] == {"walk": names}
    cover = np.zeros((size["h"], size["w"]), int)
    for f in meta["frames"].values():
        r = f["frame"]
        assert r["x"] >= 0 and r["y"] >= 0
        assert r["x"] + r["w"] <= size["w"] and r["y"] + r["h"] <= size["h"]
        cover[r["y"]:r["y"] + r["h"], r["x"]:r["x"] + r["w"]] += 1
        assert f["rotated"] is False and f["duration"] == 100
        assert 0 <= f["anchor"]["x"] <= 1 and 0 <= f["anchor"]["y"] <= 1
    assert cover.max() == 1 and cover.min() == 1  # a strip: exactly tiled
    xs = [f["frame"]["x"] for f in meta["frames"].values()]
    assert xs == sorted(xs)
    tag = meta["meta"]["frameTags"][0]
    assert tag["frameCount"] == 10 and tag["fps"] == 10 and tag["loop"] is True
    assert meta["meta"]["animation"]["frame_count"] == 10
    assert size["h"] == 300 and res.rgba.shape == (300, size["w"], 4)
    json.dumps(meta)  # plain JSON


def test_source_rect_maps_cells_back_to_the_clip():
    """source.index is a clip frame and source.rect the clip rectangle resampled onto the
    cell: the cell's aspect equals the rect's."""
    res = _sheet()
    for f in document(res, "walk.webp")["frames"].values():
        x, y, w, h = f["source"]["rect"]
        assert abs(w / h - f["frame"]["w"] / f["frame"]["h"]) < 0.01
        assert 0 <= f["source"]["index"] < 56


def test_max_width_shrinks_cells_and_says_so():
    """A strip wider than max_width gets smaller cells, and the JSON records it."""
    res = _sheet(max_width=1000)
    meta = document(res, "walk.webp")["meta"]
    assert meta["size"]["w"] <= 1000
    assert meta["cell"]["h"] < 300
    assert meta["cell"]["shrunk_to_fit"] == {"requested_cell_height": 300, "max_width": 1000}


def test_webp_is_lossless():
    """The WebP decodes back to exactly the strip's pixels where alpha > 0."""
    res = _sheet()
    back = np.array(Image.open(io.BytesIO(encode_webp(res.rgba))).convert("RGBA"))
    a = res.rgba[..., 3] > 0
    assert (back[..., 3] == res.rgba[..., 3]).all()
    assert (back[a] == res.rgba[a]).all()


def test_grade_label_names_a_loop_without_a_grade():
    """Messages read a loop's grade; a one-shot has none, and a loop without one (its cells
    lack the character or do not move) is "not graded", not a "one-shot"."""
    assert grade_label(True, "CLEAN") == "CLEAN"
    assert grade_label(False, None) == "one-shot"
    assert grade_label(True, None) == "not graded"


def test_shrunk_cells_name_a_width_that_works_or_say_none_does():
    """A wide, short character's cells shrunk under 16 px high name the --max-width that
    keeps them 16 px; where that width is past the widest strip (16383 px, which the CLI
    refuses), the line said "give --max-width 21334 or more", advice that could not be
    taken: it says no width does, and what would."""
    from types import SimpleNamespace

    from comfy_nodes.core.sheet import MIN_CELL, WEBP_MAX_SIDE, shrunk_cells_problem

    def sheet(max_width: int, w: int, h: int):
        return SimpleNamespace(cell_size=(w, h), shrunk_from=(10 * w, 300), action="walk",
                               max_width=max_width, frame_count=10)

    assert shrunk_cells_problem(sheet(8000, 800, 20), "--max-width") is None
    line = shrunk_cells_problem(sheet(8000, 800, 8), "--max-width")
    assert line is not None and line.endswith(f"give --max-width {8000 * MIN_CELL // 8} or more")
    line = shrunk_cells_problem(sheet(8000, 800, 6), "--max-width")  # needs 21334
    assert line is not None and f"even the widest strip ({WEBP_MAX_SIDE} px)" in line
    assert "give --max-width" not in line
