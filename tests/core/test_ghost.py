"""Ghosting undone where it left a trail (core/ghost.py) and the share it is undone at
(qc.ghosting): on frames built by hand, and on clips made like model output through H.264.
(The ghosted run's sheet against its truth is a footage case, judged in test_footage.py.)"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import ghost
from comfy_nodes.core.backdrop import KeyModel
from tests import footage

PLATE = np.array([40, 200, 70], np.float32)
CLOTH = np.array([180, 60, 90], np.float32)
H, W, N, SIDE = 40, 480, 10, 24  # W holds the square at its fastest


def _poses(step: int) -> np.ndarray:
    """(N, H, W, 3) float: a square of cloth moving right `step` px a frame on the plate."""
    clean = np.broadcast_to(PLATE, (N, H, W, 3)).copy()
    for t in range(N):
        clean[t, 8:8 + SIDE, 4 + step * t:4 + step * t + SIDE] = CLOTH
    return clean


KEY = KeyModel(key=PLATE, plate=np.broadcast_to(PLATE, (H, W, 3)), noise=4.0, threshold=15.0,
               backdrop_share=1.0)


@settings(max_examples=25, deadline=None)
@given(share=st.floats(0.15, 0.4), step=st.integers(3, 2 * SIDE))
def test_the_trail_is_backdrop_again_and_the_pose_is_kept(share, step):
    """Each frame blends `share` of the previous clean pose: where the square has just
    been, the frame undone is the plate within a level (a one-step inverse from the ghosted
    previous frame leaves share^2 / (1 - share) of the cloth where the square stood only
    one frame); the square's rim within TRAIL_REACH of it is the cloth again; deeper in the
    square, the frame is kept as it came."""
    clean = _poses(step)
    frames = clean.copy()
    frames[1:] = (1 - share) * clean[1:] + share * clean[:-1]
    frames = np.round(frames).astype(np.uint8)
    got = ghost.unghosted(frames, range(2, N), share, KEY)
    for t in range(2, N):
        trail = (clean[t - 1] != clean[t]).any(-1) & (clean[t] == PLATE).all(-1)
        pose = (clean[t] == CLOTH).all(-1)
        near = cv2.dilate((clean[t] == PLATE).all(-1).astype(np.uint8),
                          np.ones((2 * ghost.TRAIL_REACH + 1,) * 2, np.uint8)) > 0
        rim, inside = pose & near, pose & ~near
        assert trail.any() and rim.any() and inside.any()
        assert np.abs(got[t][trail].astype(int) - PLATE.astype(int)).max() <= 1
        assert np.abs(got[t][rim].astype(int) - CLOTH.astype(int)).max() <= 1
        assert (got[t][inside] == frames[t][inside]).all()


def test_an_unghosted_frame_reads_only_the_frames_it_needs():
    """The recursion starts LEAD_IN frames before the first frame asked for: a frame
    before that may hold anything (here NaN-free garbage) without changing the result."""
    clean = _poses(6)
    frames = clean.copy()
    frames[1:] = 0.7 * clean[1:] + 0.3 * clean[:-1]
    frames = np.round(frames).astype(np.uint8)
    want = [N - 1]
    first = want[0] - ghost.LEAD_IN
    spoilt = frames.copy()
    spoilt[:first] = 255 - spoilt[:first]
    a = ghost.unghosted(frames, want, 0.3, KEY)[N - 1]
    b = ghost.unghosted(spoilt, want, 0.3, KEY)[N - 1]
    assert np.array_equal(a, b)


@pytest.mark.parametrize("share", [0.2, 0.35])
def test_the_share_read_is_the_ghosts(tmp_path, share):
    """A run ghosted at `share` of its previous clean pose, filmed like model output and
    through H.264: the share read is within 0.04 of it (the copies left behind read
    share / (1 - share) of the previous frame, itself ghosted); a clean run reads none."""
    run = footage.Spec(action="run", ghost=share, ghost_clean=True, seed=102)
    got = footage.analysed(run, tmp_path / "ghost.mp4")
    assert "SMEAR" in got.qc
    assert abs(got.ghost_share - share) <= 0.04, got.ghost_share
    clean = footage.analysed(footage.Spec(action="run", seed=102), tmp_path / "clean.mp4")
    assert "SMEAR" not in clean.qc and clean.ghost_share == 0.0
