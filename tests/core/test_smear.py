"""SMEAR's rule on frames built by hand: ghosting leaves the pixels a character left at one
share of their previous colour; motion blur leaves a ramp of shares. (The footage cases,
made like model output, are judged in test_footage.py.)"""

from __future__ import annotations

import numpy as np
import pytest
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
BODY_SIDE, ARM_ROWS, ARM_WIDTH, STEP = 40, 8, 20, 12  # the arm moves right STEP px a frame


def _clip(shares: np.ndarray, body: int = BODY_SIDE, rows: int = ARM_ROWS,
          arm: int = ARM_WIDTH, ahead: np.ndarray | None = None,
          trail_in: set[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A still body (`body` px square) and an arm (`rows` high, `arm` px wide) moving right;
    the columns the arm has just left (one per share) show the sleeve at `shares` of its
    colour (in the frames `trail_in`, all but the first by default), and the columns it
    enters next (one per share of `ahead`, nearest the arm first) at `ahead`'s."""
    step = len(shares)
    body_at = (slice(10, 10 + body), slice(W - 10 - body, W - 10))
    arm_rows = slice(20, 20 + rows)
    small = np.empty((N, H, W, 3), np.uint8)
    masks = np.zeros((N, H, W), np.uint8)
    for t in range(N):
        x = 4 + step * t
        f = np.broadcast_to(PLATE, (H, W, 3)).copy()
        f[body_at] = SLEEVE
        if t and (trail_in is None or t in trail_in):
            f[arm_rows, x - step:x] = PLATE + shares[None, :, None] * (SLEEVE - PLATE)
        if ahead is not None:
            f[arm_rows, x + arm:x + arm + len(ahead)] = (
                PLATE + ahead[None, :, None] * (SLEEVE - PLATE))
        f[arm_rows, x:x + arm] = SLEEVE
        small[t] = np.round(f)
        masks[t][body_at] = 1
        masks[t, arm_rows, x:x + arm] = 1
    return small, masks


KEY = KeyModel(key=PLATE, plate=np.broadcast_to(PLATE, (H, W, 3)), noise=THRESHOLD / 4,
               threshold=THRESHOLD, backdrop_share=1.0)


def test_a_ghost_at_one_share_is_flagged_and_a_blur_ramp_of_as_many_pixels_is_not():
    """As many faint pixels left behind: all at a 30 % share (ghosting), or fading from
    0.8 to 0.2 across the trail (a limb's motion blur). Only the ghost counts in full: a
    count of every faint pixel would score the two alike."""
    ghost = qc.smear(*_clip(np.full(STEP, 0.3)), KEY)
    blur = qc.smear(*_clip(np.linspace(0.8, 0.2, STEP)), KEY)
    area = BODY_SIDE ** 2 + ARM_ROWS * ARM_WIDTH
    left = STEP * ARM_ROWS  # every pixel left: one share, all in the cluster
    flat = left * qc.SMEAR_WINDOW / 0.6
    assert ghost == pytest.approx((left - flat - 2 * np.sqrt(flat)) / area)
    assert blur == 0.0
    assert ghost > qc.SMEAR_ABOVE, ghost


def test_a_small_characters_blur_is_not_ghosting_and_its_ghost_is():
    """A character 12 px square with a 3-row arm, as a small walk is in the reduced copy:
    a blur ramp over 6 columns leaves 18 faint pixels, 6 of them in the densest 0.12 of
    shares, 0.037 of the area. Counted as they are, that scored above every ghost of the
    footage cases at full size; beyond what a flat spread would put there, it is nothing.
    A ghost of the same small character is still flagged."""
    small = dict(body=12, rows=3, arm=6)
    blur = qc.smear(*_clip(np.linspace(0.8, 0.2, 6), **small), KEY)
    ghost = qc.smear(*_clip(np.full(6, 0.3), **small), KEY)
    assert blur < qc.SMEAR_ABOVE < ghost, (blur, ghost)


def test_a_blur_at_one_share_on_both_sides_is_not_ghosting():
    """A limb narrower than its sweep, blurred over a shutter centred on the frame, leaves
    its trail at one share (its width over the sweep) on the side it left and on the side
    it is going to alike; a ghost only on the side it left. Trial 10's run, its limbs
    blurred 32 px, scored as a ghost when only the side left behind was counted. The same
    trail behind with a ramp ahead (a lopsided blur) is not cancelled by it."""
    one = np.full(STEP, 0.3)
    ghost = qc.smear(*_clip(one), KEY)
    blur = qc.smear(*_clip(one, ahead=one), KEY)
    lopsided = qc.smear(*_clip(one, ahead=np.linspace(0.8, 0.2, STEP)), KEY)
    assert blur == 0.0
    assert ghost > qc.SMEAR_ABOVE, ghost
    assert lopsided == ghost


def test_a_trail_ahead_alone_scores_0_not_below():
    """A blur that leads the limb (a camera exposing after the frame's moment) leaves its
    faint copy ahead only: no ghost, and the score, a share of the area, is 0, not
    negative."""
    assert qc.smear(*_clip(np.zeros(STEP), ahead=np.full(STEP, 0.3)), KEY) == 0.0


def test_a_faint_copy_in_a_few_frames_is_not_ghosting():
    """The score is a median over the moving frames (1-6 of 8 here: the first and last
    have no neighbour on one side): a faint copy in 2 of them (a codec's glitch) is not
    flagged, in 4 of them it is. A mean over the frames would flag both."""
    one = np.full(STEP, 0.3)
    assert qc.smear(*_clip(one, trail_in={1, 2}), KEY) == 0.0
    assert qc.smear(*_clip(one, trail_in={1, 2, 3, 4}), KEY) > qc.SMEAR_ABOVE


@pytest.mark.parametrize("frames", [1, 2, 3])
def test_short_clips(frames):
    """A clip of 1 or 2 frames has no frame with a neighbour on each side: 0. From 3 frames
    the middle one is scored."""
    small, masks = _clip(np.full(STEP, 0.3))
    got = qc.smear(small[:frames], masks[:frames], KEY)
    assert (got > qc.SMEAR_ABOVE) if frames == 3 else (got == 0.0), got


def test_a_clean_move_leaves_no_smear():
    assert qc.smear(*_clip(np.zeros(STEP)), KEY) == 0.0


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 400), width=st.floats(0.02, 0.3))
def test_an_even_ramp_of_shares_has_no_excess(n, width):
    """However many pixels a blur's ramp leaves, spread evenly over the faint shares, its
    densest cluster holds at most one more than a flat spread's share: less than one
    pixel of excess, and none once a flat spread puts a quarter pixel in the window (the
    allowance then covers the one). A count without the flat share grows with n."""
    excess = qc.cluster_excess(np.linspace(0.2, 0.8, n), width, 0.6)
    assert excess < 1.0
    if n * width / 0.6 >= 0.25:
        assert excess == 0.0


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(0.2, 0.8), min_size=1, max_size=300),
       share=st.floats(0.2, 0.8))
def test_no_spread_of_shares_scores_above_one_share(values, share):
    """Ghosting's case, every value at one share, is the most any as many values can
    score: the densest cluster holds them all (a score that rewarded other values than
    the cluster's, or a sparse window, fails). From two values on it is above 0."""
    v = np.array(values)
    one = qc.cluster_excess(np.full(len(v), share), qc.SMEAR_WINDOW, 0.6)
    assert qc.cluster_excess(v, qc.SMEAR_WINDOW, 0.6) <= one
    assert one > 0 or len(v) < 2


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(0.0, 1.0), max_size=40), width=st.floats(0.01, 0.5))
def test_densest_cluster_is_the_most_values_in_any_interval_of_the_width(values, width):
    """Against brute force: an interval holding the most values can start at a value."""
    v = np.array(values, np.float64)
    best = max((int(((v >= lo) & (v <= lo + width)).sum()) for lo in v), default=0)
    assert qc.densest_cluster(v, width) == best
