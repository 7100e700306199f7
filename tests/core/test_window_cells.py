"""A sheet's cells hold the character and move (window.Shortfall). Identical frames loop
"perfectly": a held pose, or frames the character has left, won the loop search over
the moving frames with a seam of 0 and was graded CLEAN, with no flag. Now such a window
is taken only where the clip offers no other, and then it is flagged and not graded."""

from __future__ import annotations

import numpy as np
import pytest

from comfy_nodes.core import align, pipeline, video, window
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from tests import footage

HELD = 36  # 1.5 s at 24 fps


@pytest.mark.parametrize("action, at", [("walk", 30), ("run", 28), ("idle", 28)])
def test_a_clip_that_freezes_for_1_5_s_loops_on_moving_frames(action, at, tmp_path):
    """Frame `at` repeated 36 times (a model that froze, or a 1.5 s timestamp gap filled
    with copies of one frame), in a clip of 56 frames of the action besides: no two
    cells show the freeze, the window's cells move and its loop is graded, and the clip
    is not STATIC. Before, a window of the copies won (seam 0.0-0.08, CLEAN)."""
    spec = footage.Spec(action=action, frames=56 + HELD, hold=(at, HELD))
    an = footage.analysed(spec, tmp_path / "frozen.mp4")
    win = an.window
    assert sum(at <= t <= at + HELD for t in win.indices) <= 1, win.indices
    assert win.loop_grade is not None
    assert "STATIC" not in an.qc
    assert win.shortfall is window.Shortfall.NONE


def test_a_character_that_walks_out_of_the_frame_is_in_every_cell():
    """A walk drifting 8 px a frame to the right, cut by the frame's edge from frame 19 and
    gone from frame 35 on (the tester's clip left at 8 and 10 px a frame): every cell
    of the sheet holds the character, and the sheet is CROPPED (its last cells touch the
    edge). Before, the window was 18 frames of empty screen: a strip whose every alpha was
    0, graded CLEAN, no flag."""
    fx = footage.make("walk_leaves_frame", footage.Spec(drift=(8.0, 0.0), shadow=0.0))
    sheet = pipeline.process_clip(fx.clip, "walk", DEFAULT_RECIPES["walk"])
    opaque = [int((cell[..., 3] == 255).sum()) for cell in sheet.cells]
    assert min(opaque) > 0.5 * max(opaque), opaque
    assert "CROPPED" in sheet.qc


def test_a_character_gone_before_any_window_ends_is_flagged_not_graded(tmp_path):
    """Drifting 20 px a frame, the character has left by frame 14, before the shortest
    loop window (18 frames) ends: every window has empty cells. The one taken has the
    fewest (2 of 10), the clip is NOISE (absent from most frames) and the loop is not
    graded. Before: 10 empty cells, CLEAN."""
    spec = footage.Spec(drift=(20.0, 0.0), shadow=0.0)
    an = footage.analysed(spec, tmp_path / "gone.mp4")
    win = an.window
    assert (win.loop_score, win.loop_grade) == (None, None)
    present = an.masks.sum(axis=(1, 2)) >= align.EMPTY_BELOW
    assert (~present[win.indices]).sum() == 2
    assert "NOISE" in an.qc
    assert win.shortfall is window.Shortfall.EMPTY


def test_a_clip_of_screen_alone_is_noise_and_not_graded(tmp_path):
    """The character stands wholly below the frame: only the screen is filmed. NOISE, as
    before, and no loop grade on cells that hold nothing (it was CLEAN, score 0.0)."""
    an = footage.analysed(footage.Spec(feet_y=2.5), tmp_path / "screen.mp4")
    assert (an.window.loop_score, an.window.loop_grade) == (None, None)
    assert an.qc == ["NOISE"]
    assert an.window.shortfall is window.Shortfall.EMPTY


def test_a_still_picture_is_static_and_not_graded():
    """One picture under fresh noise: STATIC, as before, and its cells, which do not move,
    get no loop grade (it was CLEAN, 0.196: noise against noise)."""
    fx = footage.footage("idle_static")
    an = pipeline.analyse(fx.clip, DEFAULT_RECIPES["idle"])
    assert (an.window.loop_score, an.window.loop_grade) == (None, None)
    assert an.qc == ["STATIC"]
    assert an.window.shortfall is window.Shortfall.FROZEN


def test_a_clip_still_in_every_frame_the_sheet_may_use_is_static(tmp_path):
    """A walk that stands still for 70 frames (2.9 s) and only then walks, decoded as the
    driver decodes it (the recipe's length and 8 frames at full resolution: the sheet's
    frames lie within them): the clip moves, so the clip's own STATIC is not raised, but
    every window the sheet could take is still. The sheet is STATIC and not graded."""
    recipe = DEFAULT_RECIPES["walk"]
    spec = footage.Spec(still=70, frames=100)
    fx = footage.make("walk_still_70", spec)
    clip = video.decode(fx.path, keep=pipeline.full_frames(recipe))
    an = pipeline.analyse(clip, recipe)
    assert an.motion >= 0.1  # the clip itself moves (qc.STATIC_BELOW)
    assert an.qc == ["STATIC"]
    assert an.window.loop_grade is None
    assert an.window.shortfall is window.Shortfall.FROZEN


def _cycle(n: int, period: int = 12) -> np.ndarray:
    """(n, n) distances of a clean walk cycle: points round a circle, one step a frame."""
    t = np.arange(n)
    pts = np.stack([np.sin(2 * np.pi * t / period), np.cos(2 * np.pi * t / period)], 1)
    return np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1)).astype(np.float32)


def test_a_held_stretch_does_not_win_the_loop_search():
    """Distances of a cycle whose frames 24-59 repeat frame 23 (every distance among them
    0): the window is taken from the moving frames, graded; with every frame held, the
    window is FROZEN and not graded."""
    n = 72
    held = np.arange(n)
    held[24:60] = 23
    dist = _cycle(n)[np.ix_(held, held)]
    everywhere = np.ones(n, bool)
    win = window.loop_window(dist, 10, 12, 0, 1e-3, window.CellCheck(everywhere, dist, 0.2))
    assert win.shortfall is window.Shortfall.NONE and win.loop_grade == "CLEAN"
    assert sum(23 <= t < 60 for t in win.indices) <= 1, win.indices
    still = np.zeros((n, n), np.float32)
    win = window.loop_window(still, 10, 12, 0, 1e-3, window.CellCheck(everywhere, still, 0.2))
    assert win.shortfall is window.Shortfall.FROZEN and win.loop_score is None


def test_frames_without_the_character_do_not_win_the_loop_search():
    """The same cycle, its frames 40 on without the character (their features all 0: one
    point, so every distance among them 0): the window holds the character in every
    cell. A one-shot's window is where its action is, and only told what it lacks."""
    n = 72
    dist = _cycle(n)
    present = np.arange(n) < 40
    dist[40:, :] = dist[:, 40:] = 1.0
    dist[40:, 40:] = 0.0
    win = window.loop_window(dist, 10, 12, 0, 1e-3, window.CellCheck(present, dist, 0.2))
    assert present[win.indices].all() and win.shortfall is window.Shortfall.NONE
    once = window.oneshot_window(dist, 8, 12, 0, window.CellCheck(np.arange(n) < 5, dist, 0.2))
    assert once.shortfall is window.Shortfall.EMPTY
