"""Strands finer than a pixel (core/strands.py, core/reference.thin_colours): the portrait's
thin parts give their colours and thick parts none; a bundle of strands is found by its
shape and a shaded rim is not; and brown strands hanging by a green shirt under a strong
wrap keep their brown."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import backdrop, matte, strands
from comfy_nodes.core.channels import key_excess
from comfy_nodes.core.reference import THIN_PART, Reference, portrait_reference, thin_colours
from tests import footage

SHIRT = np.array([54, 122, 57], np.float32)
HAIR = np.array([86, 58, 40], np.float32)
SKIN = np.array([222, 180, 150], np.float32)

_colour = st.tuples(*[st.integers(0, 255)] * 3).map(lambda c: np.array(c, np.uint8))
_box = st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(THIN_PART, 40),
                 st.integers(THIN_PART, 40))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_box, _colour), min_size=1, max_size=6))
def test_a_portrait_of_parts_at_least_thin_part_wide_has_no_thin_colours(parts):
    """Rectangles (overlapping or not) each THIN_PART px or more on each side: every pixel
    lies in a square THIN_PART wide inside the silhouette, so none is thin."""
    rgba = np.zeros((100, 100, 4), np.uint8)
    for (x, y, w, h), colour in parts:
        rgba[y:y + h, x:x + w] = (*colour, 255)
    assert thin_colours(rgba).shape == (0, 3)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(strands.ROOT_REACH // 2 + 2, 30))
def test_only_bundles_touching_a_thin_colour_are_attached(x, y, gap):
    """Two bundles, one whose end lies within reach of a patch of a thin colour (its
    root) and one `gap` px beyond that reach: the first is kept whole, the second
    dropped, and nothing else is added."""
    thin = HAIR[None]
    p = np.zeros((120, 140, 3), np.float32)
    p[y:y + 10, x:x + 10] = HAIR  # the root
    found = np.zeros((120, 140), bool)
    found[y + 10 + strands.ROOT_REACH // 2:y + 40, x + 3] = True  # hangs from the root
    far = x + 10 + strands.ROOT_REACH // 2 + gap
    found[y:y + 30, far:far + 2] = True
    got = strands.attached(found, p, thin)
    assert got[:, x + 3].sum() == found[:, x + 3].sum()
    assert not got[:, far:far + 2].any()
    assert not (got & ~found).any()


def _hair(rgba: np.ndarray, x0: int, y0: int, n: int, length: int, colour, gap: int = 2,
          alpha: int = 255) -> None:
    """n diagonal strands one pixel wide, gap px apart, hanging down-left from (x0, y0)."""
    for k in range(n):
        for i in range(length):
            rgba[y0 + i, x0 - i // 2 + k * gap] = (*colour, alpha)


def test_the_portraits_strands_give_their_colour_and_its_body_none():
    """A green-shirted body, a skin head and brown strands 1 px wide: the thin colours are
    the strands' brown (within a level), nothing near the shirt or the skin; and a
    portrait with too few thin pixels (a jagged edge's odd ones) has none."""
    rgba = np.zeros((200, 200, 4), np.uint8)
    rgba[60:180, 60:140] = (*SHIRT.astype(np.uint8), 255)
    rgba[20:60, 80:120] = (*SKIN.astype(np.uint8), 255)
    _hair(rgba, 70, 30, 6, 40, HAIR.astype(np.uint8), gap=3)
    found = thin_colours(rgba)
    assert len(found)
    assert np.abs(found - HAIR).max(1).min() <= 1
    assert np.abs(found[:, None] - np.stack([SHIRT, SKIN])[None]).max(-1).min() > 40
    few = np.zeros((200, 200, 4), np.uint8)
    few[60:180, 60:140] = (*SHIRT.astype(np.uint8), 255)
    few[59, 60:140:4] = (*HAIR.astype(np.uint8), 255)  # 20 odd pixels on top
    assert thin_colours(few).shape == (0, 3)


@settings(max_examples=40, deadline=None)
@given(colour=_colour, backdrop_colour=_colour, width=st.integers(1, 8),
       size=st.integers(12, 60))
def test_a_rim_ramping_from_the_backdrop_is_no_bundle(colour, backdrop_colour, width, size):
    """A rectangle whose edge ramps linearly from the backdrop to its colour over `width`
    px (antialiasing, a wrap), any colours: no pixel of it is on a strand (its distance
    from the backdrop rises monotonically into every part 3 px or wider)."""
    plate = np.tile(backdrop_colour.astype(np.float32), (size + 2 * width + 8,) * 2 + (1,))
    solid = np.zeros(plate.shape[:2], np.uint8)
    solid[4:-4, 4:-4] = 1
    depth = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
    share = np.clip(depth / width, 0, 1)[..., None]
    p = share * colour.astype(np.float32) + (1 - share) * plate
    assert not strands.bundles(p, plate)[4:-4, 4:-4].any()


@pytest.mark.parametrize("t", [5, 29])
def test_strands_by_a_green_shirt_keep_their_brown_under_a_strong_wrap(t):
    """A shaded hero in a green shirt, 14 brown strands fanned from the back of his head,
    6 px / 35 % wrap, CRF 22 (the fixture that reproduces three independent trials'
    failures): a strand's mix with the screen is the shirt's colour, which the shirt
    nearby offers as its interior. With the portrait's thin colours, the strands' kept
    pixels come out within 30 levels of their true green excess (measured: 19 and 28
    over); without them, 45 or more over (measured: 55 and 66), and all but a few kept."""
    fx = footage.footage("walk_strands_green_wrap6")
    frames = fx.clip.frames
    key = backdrop.estimate_key(frames)
    key = key.at(t) if key.frame_plates else key
    told = portrait_reference(fx.portrait)
    untold = dataclasses.replace(told, thin=np.zeros((0, 3), np.float32))
    assert len(told.thin)
    truth = fx.truth(t)
    solid = (truth[..., 3] >= 128).astype(np.uint8)
    opened = cv2.morphologyEx(solid, cv2.MORPH_OPEN, np.ones((THIN_PART, THIN_PART), np.uint8))
    thin = (solid > 0) & (opened == 0)
    true_excess = float(key_excess(truth[thin][:, :3].astype(np.float32), key.channel).mean())

    def strand_excess(reference: Reference) -> float:
        out = matte.refine(frames[t], key, reference=reference)
        kept = thin & (out[..., 3] >= 128)
        assert kept.sum() >= 0.9 * thin.sum()
        return float(key_excess(out[kept][:, :3].astype(np.float32), key.channel).mean())

    assert strand_excess(told) - true_excess <= 30, (strand_excess(told), true_excess)
    assert strand_excess(untold) - true_excess >= 45, (strand_excess(untold), true_excess)
