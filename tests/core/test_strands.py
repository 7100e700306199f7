"""Strands finer than a pixel (core/strands.py, core/reference.thin_colours): the portrait's
thin parts give their colours and thick parts none; a bundle of strands is found by its
shape and a shaded rim is not; and brown strands hanging by a green shirt under a strong
wrap keep their brown."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from comfy_nodes.core import backdrop, despill, matte, strands
from comfy_nodes.core.channels import key_excess
from comfy_nodes.core.edgezone import Edge
from comfy_nodes.core.reference import THIN_PART, Reference, portrait_reference, thin_colours
from comfy_nodes.core.solve import Solved
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
@given(st.integers(0, 40), st.integers(0, 40))
def test_only_bundles_touching_a_thin_colour_are_attached(x, y):
    """Two bundles, one whose end lies ROOT_REACH // 2 + 1 px from a patch of a thin
    colour (its root: a ROOT_REACH square round each root pixel, then 8-connected) and
    one a pixel farther: the first is kept whole, the second dropped, nothing added."""
    thin = HAIR[None]
    p = np.zeros((120, 140, 3), np.float32)
    p[y:y + 10, x:x + 10] = HAIR  # the root
    reach = strands.ROOT_REACH // 2 + 1
    found = np.zeros((120, 140), bool)
    found[y + 9 + reach:y + 40, x + 3] = True  # hangs from the root
    far = x + 9 + reach + 1
    found[y:y + 30, far] = True
    got = strands.attached(found, p, thin)
    assert got[:, x + 3].sum() == found[:, x + 3].sum()
    assert not got[:, far].any()
    assert not (got & ~found).any()


@settings(max_examples=40, deadline=None)
@given(share=st.floats(0.3, 0.5), gap=st.integers(2, 4), colour=_colour)
def test_strands_a_pixel_wide_over_the_backdrop_are_a_bundle(share, gap, colour):
    """Lines one pixel wide, `gap` px apart, each a mix of a colour 60+ levels from the
    backdrop at 30-50 %: every line pixel (away from the ends) is in a bundle."""
    plate = np.tile(np.array([40, 190, 70], np.float32), (40, 40, 1))
    c = colour.astype(np.float32)
    assume(np.linalg.norm(c - plate[0, 0]) >= 60)
    p = plate.copy()
    p[5:35, 5:35:gap] = share * c + (1 - share) * plate[5:35, 5:35:gap]
    assert strands.bundles(p, plate)[6:34, 5:35:gap].all()


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


def test_a_ragged_cutouts_edge_and_a_strand_on_the_border_read_right():
    """A two-colour ellipse whose soft edge's alpha is noisy (sigma 0.1: a background
    remover's cutout, specks of every body colour poking out of its edge) has no thin
    colours; a 2 px strand along the
    portrait's left border is thin (the opening sees nothing beyond the border)."""
    h, w = 200, 160
    yy, xx = np.mgrid[:h, :w]
    inside = ((yy - 100) / 80.0) ** 2 + ((xx - 80) / 60.0) ** 2
    ramp = np.clip((1.0 - inside) * 8, 0, 1)  # ~4 px soft
    alpha = np.clip(ramp + np.random.default_rng(2).normal(0, 0.1, (h, w)) * (ramp > 0), 0, 1)
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[..., :3] = np.where((yy < 100)[..., None], SKIN, SHIRT).astype(np.uint8)
    rgba[..., 3] = (alpha * 255).astype(np.uint8)
    assert thin_colours(rgba).shape == (0, 3)
    border = np.zeros((h, w, 4), np.uint8)
    border[20:180, 40:120] = (*SHIRT.astype(np.uint8), 255)
    border[20:120, 0:2] = (*HAIR.astype(np.uint8), 255)
    found = thin_colours(border)
    assert len(found) and np.abs(found - HAIR).max(1).min() <= 1


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


# Body pixels the strands' re-reading may paint the hair's colour beyond those the plain
# matte did (the shirt's edge beside the strands; measured: 54 and 24). Every pixel read as a
# bundle (no shape rule) painted ~4,800 a frame.
PAINTED_MORE = 300


@pytest.mark.parametrize("t", [5, 29])
def test_strands_by_a_green_shirt_keep_their_brown_under_a_strong_wrap(t):
    """A shaded hero in a green shirt, 14 brown strands fanned from the back of his head,
    6 px / 35 % wrap, CRF 22 (the fixture that reproduces three independent trials'
    failures): a strand's mix with the screen is the shirt's colour, which the shirt
    nearby offers as its interior. With the portrait's thin colours, the strands' kept
    pixels come out within 30 levels of their true green excess (measured: 20 and 27
    over); without them, 45 or more over (measured: 55 and 66), and all but a few kept;
    and the body far from the hair's colour is not painted in it (PAINTED_MORE)."""
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

    body = (solid > 0) & ~thin
    far = np.abs(truth[..., :3].astype(np.float32)[..., None, :] - told.thin).max(-1).min(-1) > 60

    def strand_excess(reference: Reference) -> tuple[float, int]:
        """The strands' mean excess, and how many body pixels far from every thin colour
        came out in one (painted the hair's colour)."""
        out = matte.refine(frames[t], key, reference=reference)
        kept = thin & (out[..., 3] >= 128)
        assert kept.sum() >= 0.9 * thin.sum()
        painted = np.abs(out[..., :3].astype(np.float32)[..., None, :] - told.thin).max(-1)
        n = int((body & far & (out[..., 3] >= 128) & (painted.min(-1) <= 25)).sum())
        return float(key_excess(out[kept][:, :3].astype(np.float32), key.channel).mean()), n

    (with_thin, painted), (without, painted_before) = strand_excess(told), strand_excess(untold)
    assert with_thin - true_excess <= 30, (with_thin, true_excess)
    assert without - true_excess >= 45, (without, true_excess)
    assert painted <= painted_before + PAINTED_MORE, (painted, painted_before)


BEIGE = np.array([220, 190, 150], np.float32)
BLUE = np.array([40, 60, 200], np.float32)
WHITE = np.array([240, 240, 240], np.float32)


def _strands_on_blue() -> tuple[Edge, np.ndarray, np.ndarray, backdrop.KeyModel]:
    """A beige root (a thin colour) over a blue screen and eight 1 px strands hanging from
    it, each a 40 % mix of beige with the blue: the zone is the strands' pixels."""
    plate = np.tile(BLUE, (60, 60, 1))
    p = plate.copy()
    p[5:10, 10:50] = BEIGE
    p[10:50, 12:48:4] = 0.4 * BEIGE + 0.6 * BLUE
    mask = np.zeros((60, 60), bool)
    mask[12:48, 12:48:4] = True
    m = int(mask.sum())
    edge = Edge(box=(slice(0, 60), slice(0, 60)), r=1, mask=mask, P=p[mask], B=plate[mask],
                depth=np.ones(m, np.float32), rim=np.zeros(m, bool),
                smeared=np.zeros(m, bool), translucent=np.ones(m, bool),
                cap=np.full(m, 0.35, np.float32), moved=np.zeros(m, bool))
    key = backdrop.KeyModel(key=BLUE, plate=plate, noise=2.0, threshold=30.0,
                            backdrop_share=1.0)
    return edge, p, plate, key


@pytest.mark.parametrize("chosen, reread", [
    # A light-blue shirt's colour, itself the beige's mix with the blue: the strands' own.
    (0.5 * BEIGE + 0.5 * BLUE, True),
    # White, off the beige-blue line: a white character's pixel that a beige mix happens
    # to explain as well stays white (trial 14: -0.3 -> -3.2 without this).
    (WHITE, False),
    # Nearest the beige itself: already the strands' colour, nothing to re-read.
    (0.9 * BEIGE + 0.1 * BLUE, False),
])
def test_a_strand_pixel_is_reread_only_where_its_chosen_colour_is_a_thin_mix(chosen, reread):
    """Strand pixels that are a 40 % mix of a thin colour (beige) with the screen, whose
    solve chose `chosen`: re-read as beige at a 40 % share where the chosen colour is
    itself a beige mix with the screen and its nearest portrait colour is not the beige;
    left exactly as solved otherwise."""
    edge, p, plate, key = _strands_on_blue()
    ref = np.stack([BEIGE, 0.5 * BEIGE + 0.5 * BLUE, WHITE])
    m = len(edge.P)
    F = np.tile(chosen, (m, 1)).astype(np.float32)
    t = despill.line_share(edge.P, edge.B, F).astype(np.float32)
    solved = Solved(t=t, F=F, Fp=F.copy(), blurred=np.zeros(m, bool))
    got = strands.reread(edge, solved, p, plate, BEIGE[None], ref, key)
    if reread:
        assert np.abs(got.F - BEIGE).max() <= 2
        assert np.abs(got.t - 0.4).max() <= 0.02
    else:
        assert np.array_equal(got.F, solved.F) and np.array_equal(got.t, solved.t)
