"""Ghosting undone where it left a trail (core/ghost.py) and the share it is undone at
(qc.ghosting): on frames built by hand, and on clips made like model output through H.264.
(The ghosted runs' sheets against their truth are footage cases, judged in test_footage.py.)"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import ghost, qc
from comfy_nodes.core.backdrop import KeyModel
from tests import footage

PLATE = np.array([40, 200, 70], np.float32)
CLOTH = np.array([180, 60, 90], np.float32)
# A sleeve near the backdrop's colour (75 levels off): its 30 % copy is no longer solid
# character (under 2.5 key thresholds), as where the faint pixels of clips lie.
SLEEVE = PLATE + np.array([60, -40, 20], np.float32)
# The model's screen changes colour from frame to frame (each frame's own plate, as
# KeyModel.shift holds it): far enough that a pixel of one frame's plate is no backdrop
# against another's.
SHIFTS = np.array([[0, 0, 0], [50, -20, 40]], np.float32)
H, W, N, SIDE = 40, 1440, 30, 24  # W holds the square at its fastest
THRESHOLD = 15.0


def _key(n: int = N, shifts: bool = True) -> KeyModel:
    shift = SHIFTS[np.arange(n) % 2] if shifts else None
    return KeyModel(key=PLATE, plate=np.broadcast_to(PLATE, (H, W, 3)), noise=4.0,
                    threshold=THRESHOLD, backdrop_share=1.0, shift=shift)


def _poses(step: int, n: int = N, shifts: bool = True, colour: np.ndarray = CLOTH,
           top: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """(clean frames (n, H, W, 3) float, masks (n, H, W) uint8): a square of `colour`
    moving right `step` px a frame over each frame's plate (SHIFTS, or PLATE in all)."""
    clean = np.empty((n, H, W, 3), np.float32)
    masks = np.zeros((n, H, W), np.uint8)
    for t in range(n):
        clean[t] = PLATE + (SHIFTS[t % 2] if shifts else 0)
        x = 4 + step * t
        clean[t, top:top + SIDE, x:x + SIDE] = colour
        masks[t, top:top + SIDE, x:x + SIDE] = 1
    return clean, masks


def _ghosted(clean: np.ndarray, share: float) -> np.ndarray:
    """Each frame blends `share` of the previous clean pose (frame 0 of one before it that
    the clip does not show: a frame all cloth)."""
    frames = clean.copy()
    frames[1:] = (1 - share) * clean[1:] + share * clean[:-1]
    frames[0] = (1 - share) * clean[0] + share * CLOTH
    return np.round(frames).astype(np.uint8)


@settings(max_examples=20, deadline=None)
@given(share=st.floats(0.15, 0.4), step=st.integers(3, 2 * SIDE))
def test_the_trail_is_backdrop_again_and_the_pose_is_kept(share, step):
    """Where the square has just been, the frame undone is that frame's plate within the
    frames' rounding as the recursion carries it (0.5 / (1 - 2 share), and the result's own
    0.5; a one-step inverse from the ghosted previous frame leaves share^2 / (1 - share)
    of the cloth where the square stood only one frame; a plate not the frame's own leaves
    the trail ghosted); the square's rim next to it is the cloth again, as near; deeper in the
    square the frame is kept as it came. Frame 0 is ghosted too: the recursion's start
    has died away by the frames asked for."""
    clean, _ = _poses(step)
    frames = _ghosted(clean, share)
    want = range(ghost.LEAD_IN + 2, N)
    got = ghost.unghosted(frames, want, share, _key())
    tolerance = 0.5 / (1 - 2 * share) + 0.5
    for t in want:
        plate = PLATE + SHIFTS[t % 2]
        backdrop = (clean[t] == plate).all(-1)
        trail = (clean[t - 1] != clean[t]).any(-1) & backdrop
        pose = (clean[t] == CLOTH).all(-1)
        rim = pose & (cv2.dilate(backdrop.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
        inside = pose & ~(cv2.dilate(backdrop.astype(np.uint8),
                                     np.ones((2 * ghost.TRAIL_REACH + 3,) * 2, np.uint8)) > 0)
        assert trail.any() and rim.any() and inside.any()
        assert np.abs(got[t][trail] - plate).max() <= tolerance
        assert np.abs(got[t][rim] - CLOTH).max() <= tolerance
        assert (got[t][inside] == frames[t][inside]).all()


def test_an_unghosted_frame_reads_no_frame_before_its_lead_in():
    """Frames before LEAD_IN ahead of the first asked for may hold anything: the result is
    the same. (At a 44 % ghost an error dies away slowly, so a recursion started earlier,
    from the spoilt frames, gives other bytes.)"""
    clean, _ = _poses(6)
    frames = _ghosted(clean, 0.44)
    want = [ghost.LEAD_IN + 1]
    spoilt = frames.copy()
    spoilt[0] = 255 - spoilt[0]
    a = ghost.unghosted(frames, want, 0.44, _key())[want[0]]
    b = ghost.unghosted(spoilt, want, 0.44, _key())[want[0]]
    assert np.array_equal(a, b)


def test_the_share_is_read_from_the_copies_only_the_previous_frame_showed():
    """A sleeve-coloured square moving from frame 0, more than half its side a frame,
    ghosted at 30 % of its previous clean pose, from the frame's top row: pixels only the
    previous frame showed hold 0.3 of the sleeve where that frame held 0.7, and the share
    read is 0.3 within 0.02 (frame 1, whose frame before has none before it, is not read:
    read, its mask before frame 0 once took whole rows as its copies); the copies cluster
    there in more than COPIES_SHARE of the square's area, so the ghost is to be undone at
    it. The same clip unghosted has no copies left behind and reads as clean."""
    clean, masks = _poses(14, 12, shifts=False, colour=SLEEVE, top=0)
    small = _ghosted(clean, 0.3)
    read = qc.ghosting(small, masks, _key(12, shifts=False))
    assert abs(read.share - 0.3) <= 0.02, read
    assert read.score > qc.SMEAR_ABOVE and read.undo_share == read.share, read
    assert not read.recursive and abs(read.echo) < 0.01, read
    clean8 = np.round(clean).astype(np.uint8)
    assert qc.ghosting(clean8, masks, _key(12, shifts=False)) == qc.NO_GHOSTING


def _recursive(clean: np.ndarray, share: float) -> np.ndarray:
    """Each frame blends `share` of the previous frame as shown (frame 0 as it is)."""
    frames = clean.copy()
    for t in range(1, len(clean)):
        frames[t] = (1 - share) * clean[t] + share * frames[t - 1]
    return np.round(frames).astype(np.uint8)


@pytest.mark.parametrize("share", [0.25, 0.35, 0.45])
def test_a_ghost_of_the_frame_as_shown_is_told_from_one_of_the_clean_pose(share):
    """The sleeve's square ghosted recursively (each frame blends `share` of the previous
    frame as shown, so each pose lives on at share^k): pixels only the frame before the
    previous one showed still hold share^2 of it (the echo), where a blend of the clean
    pose leaves none; it is read as recursive, at its share within 0.02."""
    clean, masks = _poses(14, 12, shifts=False, colour=SLEEVE, top=0)
    read = qc.ghosting(_recursive(clean, share), masks, _key(12, shifts=False))
    assert read.recursive, read
    assert abs(read.share - share) <= 0.02, read
    assert abs(read.echo - share * share) <= 0.02, read


@settings(max_examples=20, deadline=None)
@given(share=st.floats(0.15, 0.45), step=st.integers(3, 2 * SIDE))
def test_a_recursive_ghosts_trail_is_backdrop_again(share, step):
    """Undone as recursive, from each frame and the one before it as it came, the trail of
    a recursive ghost is the frame's plate within the rounding the one-step inverse
    carries (0.5 (1 + share) / (1 - share), and the result's 0.5); the square's inside is
    kept as it came. Undone as a blend of the clean pose instead, the trail keeps the
    older poses' share^2 (undone so, this fails)."""
    clean, _ = _poses(step)
    frames = _recursive(clean, share)
    want = range(2, N)
    got = ghost.unghosted(frames, want, share, _key(), recursive=True)
    tolerance = 0.5 * (1 + share) / (1 - share) + 0.5
    for t in want:
        plate = PLATE + SHIFTS[t % 2]
        backdrop = (clean[t] == plate).all(-1)
        trail = (clean[t - 1] != clean[t]).any(-1) & backdrop
        assert trail.any()
        assert np.abs(got[t][trail] - plate).max() <= tolerance


RUN = footage.Spec(action="run", seed=102)


@pytest.mark.parametrize("share", [0.2, 0.35])
def test_the_share_read_is_the_ghosts(tmp_path, share):
    """A run ghosted at `share` of its previous clean pose, filmed like model output and
    through H.264: the share read is within 0.02 of it (the copies left behind read
    share / (1 - share) of the previous frame, itself ghosted)."""
    got = footage.analysed(dataclasses.replace(RUN, ghost=share, ghost_clean=True),
                           tmp_path / "ghost.mp4")
    assert "SMEAR" in got.qc
    assert abs(got.ghost_share - share) <= 0.02, got.ghost_share


def test_the_same_run_without_a_ghost_is_not_undone(tmp_path):
    clean = footage.analysed(RUN, tmp_path / "clean.mp4")
    assert "SMEAR" not in clean.qc and clean.ghost_share == 0.0


def _two_speeds(n: int = 14) -> tuple[np.ndarray, np.ndarray]:
    """(clean frames (n, 64, 600, 3) float, masks): a sleeve square (16 px) moving 12 px a
    frame, which leaves pixels only the previous frame showed (the copies the share is read
    from), and a cloth bar (40 x 16 px) moving 4 px a frame, whose fresh pixels stay
    inside the pose for the next two frames (where a ghost over the pose dims them)."""
    clean = np.broadcast_to(PLATE, (n, 64, 600, 3)).copy()
    masks = np.zeros((n, 64, 600), np.uint8)
    for t in range(n):
        for colour, top, x, w in ((SLEEVE, 0, 4 + 12 * t, 16), (CLOTH, 32, 4 + 4 * t, 40)):
            clean[t, top:top + 16, x:x + w] = colour
            masks[t, top:top + 16, x:x + w] = 1
    return clean, masks


def _plate_key() -> KeyModel:
    return KeyModel(key=PLATE, plate=np.broadcast_to(PLATE, (64, 600, 3)), noise=4.0,
                    threshold=THRESHOLD, backdrop_share=1.0)


@pytest.mark.parametrize("share", [0.25, 0.4])
def test_a_ghost_over_the_pose_is_told_from_one_on_the_screen_alone(share):
    """Recursive ghosting blended over the whole frame dims the pose's fresh pixels to
    1 / (1 + share) of their next value: read as blending the pose, to be undone over the
    whole frame. The same ghost drawn on the screen only, the pose over it as it is (trial
    27's generator did so), leaves them at 1: undone in the trail only, as a blend of the
    clean pose is (whose share reads too loosely to undo the pose with it)."""
    clean, masks = _two_speeds()
    whole = _recursive(clean, share)
    read = qc.ghosting(whole, masks, _plate_key())
    assert read.recursive and abs(read.pose - 1 / (1 + share)) <= 0.02, read
    assert read.blends_pose and read.undo_whole, read
    behind = np.where(masks[..., None] > 0, np.round(clean).astype(np.uint8), whole)
    read = qc.ghosting(behind, masks, _plate_key())
    assert abs(read.pose - 1) <= 0.02 and not read.blends_pose and not read.undo_whole, read
    read = qc.ghosting(_ghosted(clean, share), masks, _plate_key())
    assert read.blends_pose and not read.recursive and not read.undo_whole, read


def test_undone_over_the_whole_frame_the_pose_is_clean_again():
    """A recursive ghost over the whole frame undone so: every pixel, the pose's fresh
    edge included, is the clean frame within the one-step inverse's rounding; undone in the
    trail only, the bar's fresh edge keeps the backdrop's share (undone so, this fails)."""
    share = 0.35
    clean, masks = _two_speeds()
    frames = _recursive(clean, share)
    key = _plate_key()
    tolerance = 0.5 * (1 + share) / (1 - share) + 0.5
    whole = ghost.unghosted(frames, range(2, len(clean)), share, key, True, whole=True)
    trail = ghost.unghosted(frames, range(2, len(clean)), share, key, True, whole=False)
    for t in range(2, len(clean)):
        assert np.abs(whole[t] - clean[t]).max() <= tolerance
        fresh = (masks[t] > 0) & (masks[t - 1] == 0)
        assert np.abs(trail[t][fresh] - clean[t][fresh]).max() > 20
