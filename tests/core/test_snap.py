"""H3's snapping rules, against the field notes' table and ComfyUI's official one."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core.snap import (
    is_valid_length,
    reference_size,
    snap_length,
    snap_size,
    snapped_seconds,
)


@pytest.mark.parametrize("seconds, frames", [(0.7, 22), (1, 39), (1.5, 39), (2, 56),
                                             (2.5, 73), (5, 124), (0.1, 5), (0.2, 5)])
def test_snap_length_table(seconds, frames):
    """Frame counts are 17k+5, rounded upward only, as in the notes."""
    assert snap_length(seconds) == frames
    assert is_valid_length(frames)


def test_snap_length_never_rounds_down():
    """Every snapped length covers at least the frames asked for."""
    for tenth in range(1, 121):
        s = tenth / 10
        n = snap_length(s)
        assert n >= round(s * 24) and n % 17 == 5


def test_snapped_seconds_is_real_duration():
    """2.5 s asks for 73 frames, i.e. 3.04 s of compute."""
    assert round(snapped_seconds(2.5), 2) == 3.04


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf")])
def test_snap_length_refuses_nonsense(bad):
    with pytest.raises(ValueError, match="seconds"):
        snap_length(bad)


# The Size Settings Reference of ComfyUI's MiniMax H3 template (video_minimax_h3_i2v.json,
# comfyui-workflow-templates-json 0.1.123), plus 1:1 at 0.2 MP from the field notes.
OFFICIAL_16_9 = [(0.2, (608, 352)), (0.3, (736, 416)), (0.4, (864, 480)), (0.5, (960, 544)),
                 (0.6, (1056, 608)), (0.7, (1152, 640)), (0.8, (1216, 672)),
                 (0.9, (1280, 736)), (0.98, (1344, 768))]


@pytest.mark.parametrize("mp, size", OFFICIAL_16_9)
def test_snap_size_is_the_official_table(mp, size):
    """Every row of the template's 16:9 table, the official 768p (0.98 MP) among them."""
    assert snap_size(mp, "16:9") == size
    assert snap_size(mp, "9:16") == size[::-1]


def test_snap_size_square_and_cap():
    assert snap_size(0.2, "1:1") == (448, 448)
    assert snap_size(2.0, "1:1") == (768, 768)  # short edge capped at 768
    assert snap_size(1.0, "16:9") == (1376, 768)


@settings(max_examples=300, deadline=None)
@given(mp=st.floats(0.05, 4.0), aw=st.integers(1, 21), ah=st.integers(1, 21))
def test_snap_size_rule_properties(mp, aw, ah):
    """The Resolution Selector's rule: a megapixel is 1024x1024; below the 768 cap each side
    is ComfyUI's, the exact side rounded (Python's round) to a multiple of 32; swapping the
    aspect swaps the sides; the short edge never exceeds 768."""
    w, h = snap_size(mp, (aw, ah))
    assert w % 32 == 0 and h % 32 == 0 and w >= 32 and h >= 32
    assert min(w, h) <= 768
    assert snap_size(mp, (ah, aw)) == (h, w)
    # ComfyUI's ResolutionSelector.execute (comfy_extras/nodes_resolution.py), multiple=32:
    scale = math.sqrt(mp * 1024 * 1024 / (aw * ah))
    exact_w, exact_h = aw * scale, ah * scale
    if min(exact_w, exact_h) <= 768:  # below our cap: exactly ComfyUI's numbers
        assert (w, h) == (max(32, round(aw * scale / 32) * 32),
                          max(32, round(ah * scale / 32) * 32))


@settings(max_examples=200, deadline=None)
@given(mp=st.floats(0.05, 2.0), more=st.floats(1.0, 2.0), aspect=st.sampled_from(["1:1", "16:9",
                                                                                 "9:16", "4:3"]))
def test_snap_size_grows_with_megapixels(mp, more, aspect):
    """More megapixels never give a smaller side."""
    w1, h1 = snap_size(mp, aspect)
    w2, h2 = snap_size(mp * more, aspect)
    assert w2 >= w1 and h2 >= h1


def test_snap_size_custom_aspect_and_errors():
    assert snap_size(0.2, "5:4") == (512, 416)
    with pytest.raises(ValueError, match="aspect"):
        snap_size(0.2, "wide")


def test_reference_shrinks_above_16_9_only():
    """Above 16:9 the reference gets a 480-px short edge; at or below it is unchanged (the
    notes' 1376x768 counts as 16:9; their 1792x768 21:9 run used a 480p reference)."""
    assert reference_size(1376, 768) == (1376, 768)
    assert reference_size(768, 1376) == (768, 1376)
    assert reference_size(1792, 768) == (1120, 480)
