"""Alignment, window choice and QC flags on clips with known motion."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import align, pipeline, qc, snap, window
from comfy_nodes.core.export.texturepacker import document
from comfy_nodes.core.recipes import DEFAULT_RECIPES

from .conftest import fixture


def _run(name: str, action: str | None = None):
    fx = fixture(name)
    action = action or fx.action
    return fx, pipeline.process_clip(fx.clip, action, DEFAULT_RECIPES[action], "hero")


def tp(sheet) -> dict:
    """The sheet as the TexturePacker JSON games read (issue 12: the pipeline is typed)."""
    return document(sheet, f"{sheet.action}.webp")


def _true_feet(fx, t: int) -> tuple[float, float]:
    a = fx.truth[t][..., 3]
    ys, xs = np.nonzero(a > 127)
    return float(np.median(xs)), float(ys.max() + 1)


def test_drift_and_zoom_are_removed():
    """Drift (0.5, -0.25) px/frame and zoom +0.3%/frame on an idle: the removed drift and
    zoom are reported, and in the sheet the character's true root (the feet point it was
    drawn at) jitters under 1.5 px and its true height by under 3% (breathing itself moves
    the head by about 1% each way; the zoom alone would change it by 18%)."""
    fx, res = _run("idle_drift_zoom")
    meta = tp(res)["meta"]
    n = len(fx.truth)
    assert abs(meta["alignment"]["drift_px"][0] - 0.5 * (n - 1)) < 3
    assert abs(meta["alignment"]["drift_px"][1] + 0.25 * (n - 1)) < 3
    assert abs(meta["alignment"]["zoom_change"] - (1.003 ** (n - 1) - 1)) < 0.03
    h, w = fx.truth.shape[1:3]
    roots, heights = [], []
    for f in tp(res)["frames"].values():
        t = f["source"]["index"]
        x, y, rw, _ = f["source"]["rect"]
        k = f["frame"]["w"] / rw
        root = (w / 2 + 0.5 * t, h * 0.86 - 0.25 * t)  # as synth.clip draws it
        roots.append(((root[0] - x) * k, (root[1] - y) * k))
        ys = np.nonzero(fx.truth[t][..., 3] > 127)[0]
        heights.append((ys.max() - ys.min()) * k)
    roots = np.array(roots)
    assert np.ptp(roots[:, 0]) < 1.5 and np.ptp(roots[:, 1]) < 1.5, roots
    assert np.ptp(heights) / np.mean(heights) < 0.03, heights


def test_walk_with_drift_keeps_its_loop():
    """Drift and zoom do not hide a good loop: frames are compared after alignment."""
    _, res = _run("walk_drift_zoom")
    assert tp(res)["meta"]["animation"]["loop_grade"] == "CLEAN"


def test_anchor_is_feet_and_centre():
    """The JSON anchor sits on the feet baseline (the median over the sheet's frames of the
    true lowest pixel, within 2 px) and on the body's centre column (within 6 px)."""
    fx, res = _run("walk")
    cell = tp(res)["meta"]["cell"]
    feet = []
    for f in tp(res)["frames"].values():
        x, y, w, _ = f["source"]["rect"]
        k = cell["w"] / w
        fx_, fy_ = _true_feet(fx, f["source"]["index"])
        feet.append(((fx_ - x) * k, (fy_ - y) * k))
    feet = np.array(feet)
    anchor = next(iter(tp(res)["frames"].values()))["anchor"]
    assert abs(anchor["y"] * cell["h"] - np.median(feet[:, 1])) < 2
    assert abs(anchor["x"] * cell["w"] - np.median(feet[:, 0])) < 6


def test_periodic_walk_loops_clean_aperiodic_is_weak():
    """A periodic walk gets a CLEAN loop; a motion that never returns gets WEAK."""
    _, good = _run("walk")
    _, bad = _run("walk_aperiodic")
    g, b = tp(good)["meta"]["animation"], tp(bad)["meta"]["animation"]
    assert g["loop_grade"] == "CLEAN" and g["loop_score"] < 0.5
    assert b["loop_grade"] == "WEAK" and b["loop_score"] >= 1.0


def test_loop_window_skips_the_still_opening():
    """The window starts after the 4 still frames an image-to-video model opens with."""
    _, res = _run("walk")
    win = tp(res)["meta"]["clip"]["window"]
    assert win["still_frames"] >= 3 and win["start"] >= win["still_frames"]


@pytest.mark.parametrize("name", ["attack", "skill", "hurt"])
def test_oneshot_window_holds_the_action(name):
    """One-shot windows start at rest, include the peak frame, and end back near rest."""
    fx, res = _run(name)
    idx = [f["source"]["index"] for f in tp(res)["frames"].values()]
    assert tp(res)["meta"]["animation"]["loop_score"] is None
    heights = []
    for t in range(len(fx.truth)):
        a = fx.truth[t][..., 3] > 127
        ys, xs = np.nonzero(a)
        heights.append(np.abs(xs - np.median(xs)).mean() + np.abs(ys - ys.mean()).mean())
    # The truth's most extreme pose lies within the window.
    peak = int(np.argmax(np.abs(np.array(heights) - heights[0])))
    assert idx[0] <= peak <= idx[-1], (idx, peak)
    assert idx[0] <= 6  # starts at the wind-up, right after the still opening


CASES = {
    "walk": set(), "walk_green": set(), "idle_teal": set(), "run_red": set(),
    "attack": set(), "skill": set(), "hurt": set(), "walk_drift_zoom": set(),
    "idle_drift_zoom": set(), "walk_blue": set(),
    "idle_static": {"STATIC"}, "walk_cropped": {"CROPPED"}, "walk_turns": {"FACING"},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_flag_on_its_case_and_no_other(name):
    """QC flags fire exactly on the clip made to show them (breathing is not STATIC)."""
    _, res = _run(name)
    assert set(res.qc) == CASES[name]


def test_truncated_clip():
    """A 1 s walk clip (39 frames) against the 2 s recipe (56) is TRUNCATED."""
    from .conftest import make

    fx = make("walk_short", "walk", frames=39)
    res = pipeline.process_clip(fx.clip, "walk", DEFAULT_RECIPES["walk"])
    assert "TRUNCATED" in res.qc


@settings(max_examples=200, deadline=None)
@given(frames=st.integers(1, 400), seconds=st.floats(0.2, 10.0))
def test_truncated_at_24_fps_counts_frames(frames, seconds):
    """At H3's own rate the rule is the frame count against the snapped length, whatever
    the recipe's seconds."""
    expected = snap.snap_length(seconds)
    assert qc.truncated(frames, 24.0, seconds) == (frames < expected)
    assert qc.truncated(frames, 23.976, seconds) == (frames < expected)


def test_truncated_at_another_rate_is_judged_by_the_recipes_seconds():
    """A clip at another rate is not H3's, its length not snapped: trial 11's slow idle,
    39 frames at 16 fps (2.44 s) for a 2 s recipe, and a skill of 45 frames at 30 fps
    (1.5 s) for a 1.5 s recipe, are whole; 31 frames at 16 fps (1.94 s) and 44 at 30 fps
    (1.47 s) are short. (Against the snapped length at 24 fps, 56 frames for 2 s, 39 for
    1.5 s, the skill was flagged.)"""
    assert not qc.truncated(39, 16.0, 2.0)
    assert not qc.truncated(45, 30.0, 1.5)
    assert qc.truncated(31, 16.0, 2.0)
    assert qc.truncated(44, 30.0, 1.5)


@settings(max_examples=60, deadline=None)
@given(st.integers(16, 96), st.integers(16, 96), st.floats(0.0, 0.4), st.floats(0.0, 0.4),
       st.booleans())
def test_bars_are_found_up_to_a_9_16_picture_in_a_16_9_frame(h, w, share_a, share_b,
                                                              columns):
    """Black bars on two opposite sides, each up to 40 % of the frame (a 9:16 picture in a
    16:9 frame leaves 34 % a side), round a green picture: each is found, plus one seam
    row or column, and nothing on the other two sides. (Bars of a third or more went
    uncut, and the backdrop was learned from their black.)"""
    frames = np.zeros((3, h, w, 3), np.uint8)
    frames[...] = (40, 180, 60)
    length = w if columns else h
    a, b = int(share_a * length), int(share_b * length)
    if columns:
        frames[:, :, :a] = 0
        frames[:, :, length - b:] = 0
    else:
        frames[:, :a] = 0
        frames[:, length - b:] = 0
    top, bottom, left, right = qc.bars(frames)
    found = (left, right) if columns else (top, bottom)
    other = (top, bottom) if columns else (left, right)
    assert found == (a + 1 if a else 0, b + 1 if b else 0)
    assert other == (0, 0)


@pytest.mark.parametrize("without", [1, 2])
def test_bars_the_first_frames_lack_are_found(without):
    """Bars drawn from frame 1 or 2 on (a model's first frame is the user's canvas, without
    the bars it then draws) are found as in a clip that has them throughout; bars in half
    the frames are not (BAR_FRAMES_WITHOUT)."""
    frames = np.full((16, 64, 100, 3), (40, 180, 60), np.uint8)
    frames[without:, :10] = 0
    frames[without:, -8:] = 0
    assert qc.bars(frames) == (11, 9, 0, 0)
    frames[8:, :10] = frames[8:, -8:] = (40, 180, 60)
    assert qc.bars(frames) == (0, 0, 0, 0)


def test_dark_columns_over_the_bar_share_are_no_bars():
    """Dark columns over BAR_SHARE of the width at a side are the picture (a dark scene),
    not a bar: not cut."""
    frames = np.full((3, 64, 100, 3), (40, 180, 60), np.uint8)
    frames[:, :, :45] = 0
    assert qc.bars(frames) == (0, 0, 0, 0)


def _walk_that_opens_still(side: int, rows: int, seed: int, turn_at: int | None,
                           n: int = 96, still: int = 7, period: int = 6) -> np.ndarray:
    """(n, rows * side * 4) window features of a clip that stands still for `still` frames,
    then walks in a cycle of `period` poses, each step half the one before (the first half
    the rest pose): the later steps are as far from the rest pose as from its mirror. From
    `turn_at` on, every frame is mirrored (a turn that lasts)."""
    rng = np.random.default_rng(seed)
    rest = rng.random((rows, side, 4)).astype(np.float32)
    steps, prev = [], rest
    for _ in range(period):
        prev = 0.5 * prev + 0.5 * rng.random((rows, side, 4)).astype(np.float32)
        steps.append(prev)
    frames = [rest] * still + [steps[(t - still) % period] for t in range(still, n)]
    frames = [f if turn_at is None or t < turn_at else f[:, ::-1] for t, f in enumerate(frames)]
    return np.stack(frames).reshape(n, -1)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(48, 64))
def test_a_walk_that_opens_still_and_turns_is_facing(seed, turn_at):
    """A walk after a still opening, whose steps drift away from the rest pose (a step's
    margin against the rest pose alone falls to nothing): turned at frame 48-64 of 96 and
    staying turned, it is FACING, its steps judged against its own earlier steps
    (qc._turn_margins); against the opening's poses alone it was not. The same walk
    unturned is not."""
    head = _walk_that_opens_still(window.HEAD_SIDE, 24, seed, turn_at)
    body = _walk_that_opens_still(window.FEATURE_SIDE, 48, seed + 1, turn_at)
    assert qc.facing(head, body, 0, 24.0)
    head = _walk_that_opens_still(window.HEAD_SIDE, 24, seed, None)
    body = _walk_that_opens_still(window.FEATURE_SIDE, 48, seed + 1, None)
    assert not qc.facing(head, body, 0, 24.0)


def test_frames_cut_by_the_edge_are_not_judged_facing():
    """The same turned walk, but every frame from the turn on cut by the frame's edge (a
    part out of the frame moves the rest on the canvas, and an attack whose arm left the
    frame sat nearer its mirror image): not FACING, as those frames cannot be compared
    with the unturned ones; cut only before the turn, it still is. `cut` reads the masks'
    outermost rows and columns."""
    head = _walk_that_opens_still(window.HEAD_SIDE, 24, 7, 56)
    body = _walk_that_opens_still(window.FEATURE_SIDE, 48, 8, 56)
    cut = np.arange(96) >= 56
    assert qc.facing(head, body, 0, 24.0)
    assert not qc.facing(head, body, 0, 24.0, cut)
    assert qc.facing(head, body, 0, 24.0, ~cut)
    masks = np.zeros((4, 20, 30), np.uint8)
    masks[:, 5:15, 10:20] = 1
    masks[1, 8:12, 20:] = 1  # a spear out at the right
    masks[2, 19, 12:14] = 1  # a foot on the bottom edge
    masks[3, 0, 15] = 1  # a single pixel: within EDGE_SHARE's one-pixel slack
    assert qc.cut(masks).tolist() == [False, True, True, False]


def test_noise_clip():
    """Pure noise is NOISE and still yields a sheet of the recipe's frame count."""
    from comfy_nodes.core import video

    rng = np.random.default_rng(3)
    clip = video.Clip(rng.integers(0, 256, (56, 128, 160, 3), dtype=np.uint8), 24.0)
    res = pipeline.process_clip(clip, "walk", DEFAULT_RECIPES["walk"])
    assert list(res.qc) == ["NOISE"]
    assert len(tp(res)["frames"]) == DEFAULT_RECIPES["walk"].frames


def test_baseline_is_read_between_coarse_rows():
    """A body with round feet sinking 0.5 px per frame, seen on masks at 1/4 scale (as the
    matte's coarse masks are): the measured baseline's slope is within 0.02 px/frame of the
    truth (measured 0.496; read in whole coarse rows it moved in 4 px steps: 0.444)."""
    n, h, w = 24, 112, 112
    yy, xx = np.mgrid[0:4 * h, 0:4 * w] + 0.5
    masks = np.zeros((n, h, w), np.uint8)
    for t in range(n):
        feet = 300.0 + 0.5 * t  # the lowest point of a foot of radius 40
        body = (yy >= 100) & (yy <= feet - 40) & (np.abs(xx - 220) <= 40)
        body |= (xx - 220) ** 2 + (yy - (feet - 40)) ** 2 <= 40 ** 2
        masks[t] = body.reshape(h, 4, w, 4).mean((1, 3)) >= 0.5
    slope = align.theil_sen(align.measure(masks, 0.25).baseline)[1]
    assert abs(slope - 0.5) < 0.02, slope


def _profile_figure(lean: float, back: float, flip: bool, bob: float,
                    squash: float = 1.0) -> np.ndarray:
    """A figure in profile facing right on green (legs, torso, a head with a nose, hair at
    the back, an arm and a spear held forward), its upper body leaning back by `lean`
    degrees about the hip, the hip `back` px back; mirrored when `flip`; squeezed
    horizontally to `squash` of its width about the centre (mid-turn)."""
    img = np.zeros((256, 256, 3), np.uint8)
    img[:] = (40, 200, 70)
    hip = np.array([128.0 - back, 170.0 + bob])
    cv2.rectangle(img, (118, int(hip[1])), (126, 230), (60, 60, 90), -1)
    cv2.rectangle(img, (130, int(hip[1])), (138, 230), (60, 60, 90), -1)
    a = np.deg2rad(lean)
    rot = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])

    def at(x: float, y: float) -> tuple[int, int]:
        q = hip + rot @ np.array([x, y])
        return int(round(q[0])), int(round(q[1]))

    def poly(points: list, colour: tuple) -> None:
        cv2.fillPoly(img, [np.array([at(*p) for p in points], np.int32)], colour)

    poly([(-12, 0), (12, 0), (10, -60), (-10, -60)], (200, 60, 50))
    cv2.circle(img, at(2, -75), 14, (236, 190, 150), -1)
    poly([(12, -80), (22, -74), (12, -70)], (236, 190, 150))
    poly([(4, -86), (-16, -84), (-18, -66), (-8, -70)], (90, 50, 30))
    cv2.line(img, at(8, -45), at(40, -30), (236, 190, 150), 5)
    cv2.line(img, at(30, -70), at(60, -10), (150, 110, 60), 3)
    if flip:
        img = img[:, ::-1].copy()
    m = np.float32([[squash, 0, 128 * (1 - squash)], [0, 1, 0]])
    return cv2.warpAffine(img, m, (256, 256), borderValue=(40, 200, 70))


def _motion(kind: str, i: int) -> np.ndarray:
    if kind == "recoil":  # 45 degrees back and a step back, over 0.6 s, and back again
        s = float(np.clip((i - 3) / 3, 0, 1) * np.clip((22 - i) / 6, 0, 1))
        return _profile_figure(45 * s, 12 * s, False, 4 * s)
    if kind == "flip":  # turned round at 1/3 s, with a bob
        return _profile_figure(0, 0, i >= 8, 2 * np.sin(i / 3))
    # Still for half a second, then a quick turn (4 frames) and still again.
    theta = 180 * float(np.clip((i - 12) / 4, 0, 1))
    return _profile_figure(0, 0, theta > 90, 0, max(abs(np.cos(np.deg2rad(theta))), 0.15))


@pytest.mark.parametrize("kind", ["recoil", "flip", "quick_turn_after_still"])
def test_facing_flags_a_turn_and_not_a_recoil(kind, tmp_path):
    """A profile figure recoils (upper body 45 degrees back, a step back, 0.6 s) and returns:
    not FACING; against the rest pose alone its recoil sat nearer the mirror image for 12
    frames and was flagged. The same figure turning round is FACING, also right after a
    still opening (4 frames of turning after 12 still ones: the opening's poses then
    include turned ones, which must not serve as references)."""
    from comfy_nodes.core import video

    path = tmp_path / "clip.mp4"
    video.encode(np.stack([_motion(kind, i) for i in range(36)]), path)
    res = pipeline.process_clip(video.decode(path), "hurt", DEFAULT_RECIPES["hurt"])
    assert ("FACING" in res.qc) == (kind != "recoil"), res.qc


@pytest.mark.parametrize("name, action", [("idle_turn_far_side", "idle"),
                                          ("run_turn_at_70_percent", "run"),
                                          ("idle_slow_turn_in_a_dress", "idle")])
def test_a_turn_that_shows_the_far_side_is_facing(name, action):
    """Turns made by other generators than tests/footage.py (independent trials of issue
    9, trials/trial17.py and trial18.py, at half size and CRF 28): 2.5-D puppets whose
    turn shows the character's far side, not its mirror image. A mage in a wide hat turns
    at 1 s and idles the other way for 1.4 s; a hooded rogue turns at 70 % of a run and
    runs the other way for the last 26 %; a lady in a long dress turns slowly through her
    back (0.7 s) and stands turned for 1.6 s. Turned, the first two heads sat 0.5-0.8 of
    the signal from the nearest mirrored opening pose (a mirrored turn within 0.07-0.32,
    on a 48 px canvas), though nearer it than any unmirrored one: requiring a close mirror
    match (to clear an axe held over the head, see docs/quality.md) missed both. The lady's
    head, compared on a 48 px canvas (about 8 px tall), sat as near the opening poses as
    their mirrors; on window.HEAD_SIDE's 96 px it turns."""
    from comfy_nodes.core import video

    clip = video.decode(Path(__file__).parent.parent / "clips" / f"{name}.mp4")
    res = pipeline.process_clip(clip, action, DEFAULT_RECIPES[action])
    assert "FACING" in res.qc, res.qc


@pytest.mark.parametrize("name", ["attack_axe_held_overhead", "attack_greatsword_held_behind"])
def test_a_weapon_held_over_the_head_is_not_a_turn(name):
    """Attacks made by other generators than tests/footage.py (independent trials of issue
    9, trials/trial16.py's barbarian and trial18.py's swordsman, at half size and CRF
    28): an axe held over and behind the head for 0.8 s, a greatsword held up behind the
    back for 1 s. Their heads face the same way throughout; the weapon fills the head's
    rows on the side they face away from. On a 48 px canvas those frames sat a little
    nearer the mirrored opening poses and were FACING; on window.HEAD_SIDE's 96 px
    the head's own detail outweighs the weapon."""
    from comfy_nodes.core import video

    clip = video.decode(Path(__file__).parent.parent / "clips" / f"{name}.mp4")
    res = pipeline.process_clip(clip, "attack", DEFAULT_RECIPES["attack"])
    assert "FACING" not in res.qc, res.qc


def test_the_head_rows_are_the_top_of_the_whole_canvas():
    """window.head_rows warps only rows 10%..35% of a HEAD_SIDE canvas: they are those
    rows of the whole canvas drawn the same way, value for value (an offset in the row
    shift would compare the chest, or the air above the head)."""
    from comfy_nodes.core import window

    fx = fixture("walk")
    d = pipeline._decide(fx.clip, DEFAULT_RECIPES["walk"])
    height = float(np.nanmedian(d.measures.height))
    side = window.HEAD_SIDE
    whole = window._aligned(d.small, d.masks, d.alignment, d.scale, height, side, (0.0, 1.0))
    r0, r1 = int(window.HEAD_ROWS[0] * side), int(window.HEAD_ROWS[1] * side)
    rows = window.head_rows(d.small, d.masks, d.alignment, d.scale, height)
    assert whole[:, r0:r1].any()  # the head is there to compare
    assert np.array_equal(rows.reshape(len(rows), r1 - r0, side, 4), whole[:, r0:r1])


def test_a_held_strike_is_not_a_turn():
    """A whip attack made by another generator than tests/footage.py (an independent trial
    of issue 9; 448x448, 53 frames at 24 fps, a figure drawn by that generator): the
    strike carries the arm and torso across the anchor and holds there 0.6 s, nearer the
    mirror of the standing pose than the pose itself; the head keeps facing the same way.
    Judged on head and torso it was FACING."""
    from comfy_nodes.core import video

    clip = video.decode(Path(__file__).parent.parent / "clips" / "attack_whip_held_strike.mp4")
    res = pipeline.process_clip(clip, "attack", DEFAULT_RECIPES["attack"])
    assert "FACING" not in res.qc, res.qc


@pytest.mark.parametrize("name, action", [("hurt_wolf_tail_raised", "hurt"),
                                          ("attack_axe_warrior_overhead", "attack")])
def test_a_tail_or_an_axe_raised_beside_the_head_is_not_a_turn(name, action):
    """Clips of an independent generator (trials/trial19.py, at half size and CRF 28): a
    wolf recoils from a hit and raises its tail beside its head for 0.8 s; a warrior swings
    an axe up over his head. In the head's rows the raised tail (or axe) on the side the
    character faces away from reads as the mirror image of the rest pose, while the whole
    body stays unturned (the wolf's margin +0.25, the far side). Judged on the head rows
    alone, both were FACING."""
    from comfy_nodes.core import video

    clip = video.decode(Path(__file__).parent.parent / "clips" / f"{name}.mp4")
    res = pipeline.process_clip(clip, action, DEFAULT_RECIPES[action])
    assert "FACING" not in res.qc, res.qc


def _turning(side: int, rows: int, turn_at: int, n: int, symmetric: bool,
             seed: int) -> np.ndarray:
    """(n, rows * side * 4) frames of a random pattern, mirrored from frame turn_at on, or
    made mirror-symmetric throughout (a front-facing figure: its mirror is itself)."""
    img = np.random.default_rng(seed).uniform(0, 255, (rows, side, 4)).astype(np.float32)
    if symmetric:
        img = (img + img[:, ::-1]) / 2
    frames = np.stack([img[:, ::-1] if t >= turn_at else img for t in range(n)])
    return frames.reshape(n, -1)


@pytest.mark.parametrize("head_symmetric, body_symmetric, flagged", [
    (False, False, True), (False, True, True), (True, False, False)])
def test_facing_needs_a_head_that_can_tell(head_symmetric, body_symmetric, flagged):
    """A turn at frame 20 of 48 (24 fps) seen in the head rows and the whole body is
    FACING; with a mirror-symmetric body the head alone judges it; a mirror-symmetric head
    (front-facing art) is not judged, whatever the body does (judged on the body alone,
    a knock-back and an axe attack of independent trials were FACING)."""
    head = _turning(window.HEAD_SIDE, 6, 20, 48, head_symmetric, 1)
    body = _turning(window.FEATURE_SIDE, 12, 20, 48, body_symmetric, 2)
    assert qc.facing(head, body, 0, 24.0) == flagged


def _head_turned_over(body_share: np.ndarray, turn_at: int) -> bool:
    """qc.facing on 48 frames (24 fps) of random head rows and body, the head mirrored from
    turn_at on and the body then a blend of its rest pose (body_share[t]) and its mirror."""
    rng = np.random.default_rng(3)
    head_img = rng.uniform(0, 255, (6, window.HEAD_SIDE, 4)).astype(np.float32)
    body_img = rng.uniform(0, 255, (12, window.FEATURE_SIDE, 4)).astype(np.float32)
    head = np.stack([head_img[:, ::-1] if t >= turn_at else head_img for t in range(48)])
    body = np.stack([body_img if t < turn_at else
                     body_share[t] * body_img + (1 - body_share[t]) * body_img[:, ::-1]
                     for t in range(48)])
    return qc.facing(head.reshape(48, -1), body.reshape(48, -1), 0, 24.0)


@pytest.mark.parametrize("body_share, flagged", [(0.52, False), (0.48, True)])
def test_a_head_turned_over_a_body_that_is_not_is_no_turn(body_share, flagged):
    """From frame 20 of 48 (24 fps) the head rows are their mirror image, and the body is
    a blend of its rest pose (body_share) and the mirror: at 0.52 it still reads a little
    nearer its unturned pose (margin about +0.03, too little to join the references), as
    an independent trial's ogre leaning forward after a smash read (+0.02..+0.08, his
    head rows -0.33); the mean of the two margins was turned and he was FACING. At 0.48
    both read turned, and it is FACING."""
    assert _head_turned_over(np.full(48, body_share), 20) == flagged


def test_a_turn_passes_through_frames_the_body_reads_unturned():
    """A turn from frame 26 (22 frames, 12 needed) whose body reads a little unturned
    (0.52 of its rest pose) for frames 35-37: those frames are no clear turn, but the run
    bridges them (qc.both_turned holds them at -FACING_MARGIN, not above 0), as a turned
    walk passes through strides its references lack. Breaking the run there (10 and 10
    frames) left it unflagged."""
    share = np.full(48, 0.48)
    share[35:38] = 0.52
    assert _head_turned_over(share, 26)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 300), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_static_motion_is_the_5_frame_moving_average_numpy_takes(n, d, rest, seed):
    """STATIC's running sums, added row by row for speed, are np.cumsum's to the bit: the
    motion it reports is the one the plain formula gives, for any clip length."""
    v = np.random.default_rng(seed).normal(0, 30, (n, d)).astype(np.float32)
    feat = window.Features(v, np.zeros((n, n), np.float32))
    rest = min(rest, n - 1)
    k = min(5, n)
    c = np.cumsum(np.vstack([np.zeros((1, d), v.dtype), v]), axis=0)
    smooth = (c[k:] - c[:-k]) / k
    r = min(rest, len(smooth) - 1)
    motion = float(np.sqrt(((smooth - smooth[r]) ** 2).mean(1)).max()) / qc.signal(feat, rest)
    assert qc.static(feat, rest)[1] == motion


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 20), st.integers(0, 12), st.integers(1, 20), st.integers(0, 10),
       st.sampled_from([-0.04, -0.001, 0.0, 0.02]))
def test_a_turn_runs_on_through_a_short_gap_still_nearer_the_mirrors(a, gap, b, bridge, mid):
    """FACING's run: two runs of clearly turned frames (a and b frames) with `gap` frames
    between at margin `mid`. The gap is bridged, and counts, only when its frames are
    nearer the mirrors (mid < 0) and it is at most `bridge` long; otherwise the longer run
    stands alone. Unturned frames around it never count, nor does a trailing gap."""
    margin = np.concatenate([[0.3, 0.2], np.full(a, -0.1), np.full(gap, mid),
                             np.full(b, -0.1), np.full(gap, mid), [0.2]])
    bridged = gap == 0 or (mid < 0 and gap <= bridge)
    assert qc.turned_run(margin, bridge) == (a + gap + b if bridged else max(a, b))
