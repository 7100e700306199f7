"""SMEAR's rule on frames built by hand: ghosting leaves the pixels a character left at one
share of their previous colour; motion blur leaves a ramp of shares. (The footage cases,
made like model output, are judged in test_footage.py.)"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import qc
from comfy_nodes.core.backdrop import KeyModel

PLATE = np.array([40, 200, 70], np.float32)
# A sleeve near the backdrop's colour (48 levels off): a faint copy of it is no longer
# solid character (under 2.5 key thresholds), as where the faint pixels of clips lie.
SLEEVE = PLATE + np.array([40, -25, 10], np.float32)
THRESHOLD = 15.0  # the key's threshold on the footage cases (15.3-16.4)
H, W, N = 64, 200, 8
BODY = (slice(10, 50), slice(150, 190))  # still
ARM_ROWS, ARM_WIDTH, STEP = slice(20, 28), 20, 12  # moving right STEP px a frame


def _clip(shares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A still body and an arm (ARM_WIDTH px wide) moving right; the STEP columns the arm
    has just left show the sleeve at `shares` (one per column) of its colour."""
    small = np.empty((N, H, W, 3), np.uint8)
    masks = np.zeros((N, H, W), np.uint8)
    for t in range(N):
        x = 4 + STEP * t
        f = np.broadcast_to(PLATE, (H, W, 3)).copy()
        f[BODY] = SLEEVE
        if t:
            f[ARM_ROWS, x - STEP:x] = PLATE + shares[None, :, None] * (SLEEVE - PLATE)
        f[ARM_ROWS, x:x + ARM_WIDTH] = SLEEVE
        small[t] = np.round(f)
        masks[t][BODY] = 1
        masks[t, ARM_ROWS, x:x + ARM_WIDTH] = 1
    return small, masks


KEY = KeyModel(key=PLATE, plate=np.broadcast_to(PLATE, (H, W, 3)), noise=THRESHOLD / 4,
               threshold=THRESHOLD, backdrop_share=1.0)


def test_a_ghost_at_one_share_is_flagged_and_a_blur_ramp_of_as_many_pixels_is_not():
    """As many faint pixels left behind: all at a 30 % share (ghosting), or fading from
    0.8 to 0.2 across the trail (a limb's motion blur). Only the ghost counts in full: a
    count of every faint pixel would score the two alike."""
    ghost = qc.smear(*_clip(np.full(STEP, 0.3)), KEY)
    blur = qc.smear(*_clip(np.linspace(0.8, 0.2, STEP)), KEY)
    area = 40 * 40 + 8 * ARM_WIDTH
    assert ghost == STEP * 8 / area  # every pixel left: one share, all counted
    assert ghost > qc.SMEAR_ABOVE > blur, (ghost, blur)


def test_a_clean_move_leaves_no_smear():
    assert qc.smear(*_clip(np.zeros(STEP)), KEY) == 0.0


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(0.0, 1.0), max_size=40), width=st.floats(0.01, 0.5))
def test_densest_cluster_is_the_most_values_in_any_interval_of_the_width(values, width):
    """Against brute force: an interval holding the most values can start at a value."""
    v = np.array(values, np.float64)
    best = max((int(((v >= lo) & (v <= lo + width)).sum()) for lo in v), default=0)
    assert qc.densest_cluster(v, width) == best
