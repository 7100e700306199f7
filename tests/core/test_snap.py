"""H3's snapping rules, against the table of the field notes."""

import pytest

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


@pytest.mark.parametrize("mp, aspect, size", [(0.2, "1:1", (448, 448)),
                                              (0.2, "16:9", (608, 320)),
                                              (0.2, "9:16", (320, 608)),
                                              (2.0, "1:1", (768, 768)),
                                              (1.0, "16:9", (1344, 736))])
def test_snap_size(mp, aspect, size):
    """Sides are multiples of 32 and the short edge is capped at 768."""
    w, h = snap_size(mp, aspect)
    assert (w, h) == size
    assert w % 32 == 0 and h % 32 == 0 and min(w, h) <= 768


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
