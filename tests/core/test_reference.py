"""What the portrait tells the despill (core/reference.py): its palette holds every part's
colour and no boundary's, and an outline (one ink, a thin dark line, a shade of each part)
is found on outlined art only."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from comfy_nodes.core import backdrop, despill, matte
from comfy_nodes.core.reference import (
    MISSED_COLOUR_SHARE,
    MISSED_DISTANCE,
    PALETTE_SIZE,
    PORTRAIT_PALETTE_MAX,
    RING_SHARE,
    SUB_PIXEL_INK_MAX,
    Reference,
    densest,
    light_line,
    outline_colour,
    palette,
    portrait_palette,
    portrait_reference,
    shaded_outline,
    shrunk_portrait,
)

_colour = st.tuples(*[st.integers(0, 255)] * 3).map(lambda c: np.array(c, np.float32))

@settings(max_examples=60, deadline=None)
@given(st.lists(_colour, min_size=1, max_size=3 * PALETTE_SIZE))
def test_a_palette_is_colours_whatever_the_number_of_pixels(pixels):
    """(k', 3) colours, k' at most PALETTE_SIZE and the number of pixels, each within the
    pixels' range: a frame whose silhouette leaves one pixel beyond the spill's reach (a
    32x32 clip) got a (1, 1) palette from OpenCV's k-means, and the despill an IndexError."""
    px = np.stack(pixels)
    found = palette(px)
    assert found.shape == (min(len(px), PALETTE_SIZE), 3)
    assert (found >= px.min(0) - 1e-3).all() and (found <= px.max(0) + 1e-3).all()
    # Every colour the pixels hold, in runs longer than the palette, keeps a centre near it
    # (the first PALETTE_SIZE pixels alone, one run, would pass the shape and range).
    runs = np.repeat(px[:3], 3 * PALETTE_SIZE, axis=0)
    assert despill.nearest(px[:3], palette(runs)).max() <= 1.0


@settings(max_examples=40, deadline=None)
@given(_colour, st.integers(1, 300), st.integers(1, 300), st.integers(16, 128))
def test_a_large_portrait_is_read_shrunk_without_a_dark_edge(colour, h, w, side):
    """A portrait over `side` px is read with its longer side at most `side`, each pixel the
    area average of a block of its premultiplied colour: a disc of one colour on a
    transparent black background keeps that colour to its edge (a straight average
    darkened the edge toward black, as an outline), and its coverage (alpha) is the
    blocks' mean. One that fits is read as it is."""
    yy, xx = np.mgrid[0:h, 0:w]
    disc = (yy - h / 2) ** 2 + (xx - w / 2) ** 2 <= (min(h, w) / 3) ** 2
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[disc, :3], rgba[disc, 3] = colour.astype(np.uint8), 255
    out = shrunk_portrait(rgba, side)
    # the smallest whole factor that brings the longer side within `side`, found by search
    # (a factor over the shorter side would shrink it to nothing: it stops there)
    f = min(next(f for f in range(1, max(h, w) + 1) if max(h, w) <= f * side), h, w)
    if f <= 1:  # it fits (or a side of one pixel cannot shrink)
        assert out is rgba
        return
    assert out.shape == (h // f, w // f, 4) and min(out.shape[:2]) >= 1
    assert max(out.shape[:2]) <= side or min(h, w) < -(-max(h, w) // side)
    seen = out[..., 3] > 0
    if seen.any():
        assert np.abs(out[seen, :3].astype(int) - colour.astype(int)).max() <= 1
    blocks = disc[:h // f * f, :w // f * f].reshape(h // f, f, w // f, f).mean(axis=(1, 3))
    assert np.abs(out[..., 3] / 255 - blocks).max() <= 0.5 / 255 + 1e-6


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
                min_size=1, max_size=12, unique=True),
       st.lists(st.floats(0.02, 1.0), min_size=12, max_size=12))
def test_every_colour_of_a_portraits_parts_is_in_its_palette(colours, weights):
    """A portrait of up to 12 flat parts, the smallest 2 % of it (a spear's shaft beside a
    shirt: k-means' 8 centres merged it into the shirt, and its wrap mix was read as red):
    every part's colour lies within MISSED_DISTANCE of a palette colour."""
    shares = np.array(weights[:len(colours)]) / sum(weights[:len(colours)])
    shares = np.maximum(shares, 0.02)
    counts = np.round(shares / shares.sum() * 10000).astype(int)
    px = np.repeat(np.array(colours, np.uint8), counts, axis=0)
    side = int(np.ceil(np.sqrt(len(px))))
    portrait = np.zeros((side * side, 4), np.uint8)
    portrait[:len(px), :3], portrait[:len(px), 3] = px, 255
    palette = portrait_palette(portrait.reshape(side, side, 4))
    assert len(palette) <= PORTRAIT_PALETTE_MAX
    dist = despill.nearest(np.array(colours, np.float32)[counts / counts.sum() >= 0.015],
                           palette)
    assert dist.max() <= MISSED_DISTANCE, dist


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)),
                min_size=9, max_size=12, unique=True),
       st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), min_size=4, max_size=6))
def test_a_portraits_rare_boundary_colours_stay_out_of_its_palette(colours, pairs):
    """Every colour the palette adds to k-means' centres covers MISSED_COLOUR_SHARE of
    the portrait (within MISSED_DISTANCE / 2), however many rare colours it has:
    antialiased boundaries between parts (each a third of a percent, together over
    MISSED_SHARE) are no part's colour. A spearman's shaft drawn over his trousers left
    a 1 px mauve line, 0.3 % of the portrait, taken for a colour: his blurred shaft on a
    blue screen then read as that mauve, opaque (edge +9.2; +3.9 without it)."""
    big = np.array(colours, np.float32)
    small = np.array([(big[i % len(big)] + big[j % len(big)]) / 2 for i, j in pairs
                      if i % len(big) != j % len(big)], np.float32).round()
    assume(len(small))
    px = np.concatenate([np.repeat(big, 300, axis=0), np.repeat(small, 12, axis=0)])
    portrait = np.zeros((len(px), 1, 4), np.uint8)
    portrait[:, 0, :3], portrait[:, 0, 3] = px, 255
    palette = portrait_palette(portrait)
    for c in palette[PALETTE_SIZE:]:
        near = np.abs(px - c).max(1) <= MISSED_DISTANCE / 2
        assert near.sum() >= MISSED_COLOUR_SHARE * len(px), (c, near.sum())


@settings(max_examples=60, deadline=None)
@given(st.lists(_colour, min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(-24, 24), st.integers(-24, 24),
                          st.integers(-24, 24)), min_size=1, max_size=200))
@example([np.array([100, 100, 100], np.float32), np.array([10, 10, 10], np.float32)],
         # 3 pixels 3 bins apart each way (the reach's ends) against 2 in one bin
         [(0, 0, 0, 0), (0, 12, 12, 12), (0, -12, -12, -12), (1, 0, 0, 0), (1, 0, 0, 0)])
def test_the_densest_colour_is_the_one_with_most_pixels_near(centres, offsets):
    """densest counts each bin's neighbourhood from a summed-volume table; it
    returns as many pixels as the most any pixel's bin has within reach, counted one by
    one, and they all lie within reach of one bin."""
    px = np.clip(np.array([centres[i % len(centres)] + (dr, dg, db)
                           for i, dr, dg, db in offsets], np.float32), 0, 255)
    got = densest(px, MISSED_DISTANCE / 2)
    bins = (px // 4).astype(int)
    w = int(MISSED_DISTANCE / 2 // 4)
    most = max(int((np.abs(bins - b).max(1) <= w).sum()) for b in bins)
    assert len(got) == most
    got_bins = (got // 4).astype(int)
    assert (got_bins.max(0) - got_bins.min(0)).max() <= 2 * w


def test_a_ghosts_portrait_still_gives_a_palette():
    """A character drawn translucent all over (alpha 200 everywhere) has no opaque pixel: its
    palette comes from its mostly opaque ones, not an empty reference (which would quietly
    despill without the portrait)."""
    ghost = np.zeros((40, 40, 4), np.uint8)
    ghost[..., :3] = (180, 200, 230)
    ghost[8:32, 8:32, 3] = 200
    reference = portrait_palette(ghost)
    assert len(reference) and np.abs(reference - (180, 200, 230)).max() < 1


def _portrait(parts: list, ink: tuple | None) -> np.ndarray:
    """A disc of four quadrant parts, antialiased, with an optional 2-px ink line round it."""
    rgba = np.zeros((240, 240, 4), np.uint8)
    for i, colour in enumerate(parts):
        cv2.ellipse(rgba, (120, 120), (100, 100), 0, 90 * i, 90 * (i + 1),
                    (*colour, 255), -1, lineType=cv2.LINE_AA)
    if ink is not None:
        cv2.circle(rgba, (120, 120), 100, (*ink, 255), 2, lineType=cv2.LINE_AA)
    return rgba


_rgb = st.tuples(*[st.integers(0, 255)] * 3)


@settings(max_examples=25, deadline=None)
@given(st.lists(_rgb, min_size=4, max_size=4), _rgb)
def test_an_outline_is_found_on_outlined_art_only(parts, ink):
    """The portrait's outline: its outermost opaque ring's colour when most of the ring is
    one colour that does not run on inward (an ink line), else None (a character's ring is
    its parts' colours)."""
    far = all(np.abs(np.subtract(p, q)).max() > 40
              for i, p in enumerate(parts) for q in parts[i + 1:])
    # A line: at most one part is of the ink's colour (else the colour runs on inward).
    assume(sum(np.abs(np.subtract(p, ink)).max() <= 40 for p in parts) <= 1)
    found = outline_colour(_portrait(parts, ink))
    assert found is not None and np.abs(found - ink).max() <= 4
    if far:  # four distinct parts: no colour covers half the ring
        assert outline_colour(_portrait(parts, None)) is None


def test_no_outline_on_a_one_colour_character_or_a_cloak():
    """A colour that covers most of the ring but runs on inward is no line: a one-colour
    character, and a dark cloak round three quarters of one, have no outline."""
    blob = _portrait([(200, 50, 50)] * 4, None)
    cloak = _portrait([(30, 30, 35)] * 3 + [(236, 190, 150)], None)
    assert outline_colour(blob) is None
    assert outline_colour(cloak) is None
    assert outline_colour(_portrait([(30, 30, 35)] * 3 + [(236, 190, 150)],
                                    (240, 240, 240))) is not None


def _thin_outlined(parts: list, ink: tuple) -> np.ndarray:
    """_portrait's disc with a 1-px ink line, drawn at 4x and shrunk (premultiplied, by area):
    the line's outer half partly transparent, as an antialiased thin outline is."""
    big = np.zeros((960, 960, 4), np.float32)
    for i, colour in enumerate(parts):
        cv2.ellipse(big, (480, 480), (400, 400), 0, 90 * i, 90 * (i + 1), (*colour, 255), -1)
    cv2.circle(big, (480, 480), 398, (*ink, 255), 4)
    big[..., :3] *= big[..., 3:] / 255
    small = cv2.resize(big, (240, 240), interpolation=cv2.INTER_AREA)
    small[..., :3] /= np.maximum(small[..., 3:], 1e-3) / 255
    return np.clip(small + 0.5, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("ink", [(20, 16, 22), (60, 40, 30), (10, 20, 60)])
def test_a_thin_dark_outline_is_found(ink):
    """A dark line a pixel wide round the disc, antialiased: the outermost opaque ring is
    about half line, half the parts inside; it is still read as the outline (THIN_INK_DARK:
    1 px black outlines read as none, and a red part's colour took their rims). Dark parts
    round half the disc are still no outline."""
    parts = [(200, 50, 50), (235, 225, 210), (70, 200, 90), (70, 90, 230)]
    found = outline_colour(_thin_outlined(parts, ink))
    assert found is not None and np.abs(found - ink).max() <= 8, found
    half_dark = _portrait([ink, ink, (236, 190, 150), (70, 90, 230)], None)
    assert outline_colour(half_dark) is None


def _shaded_portrait(parts: list, shade: float | None, radius: int = 100,
                     size: int = 240) -> np.ndarray:
    """A disc of four quadrant parts, each drawn over a copy of itself at `shade` of its
    brightness grown by 2 px (an outline in a dark shade of each part), or without one;
    a dark-brown part in the middle (a dark colour of the palette, as hair is)."""
    rgba = np.zeros((size, size, 4), np.uint8)
    centre = (size // 2, size // 2)
    for i, colour in enumerate(parts):
        if shade is not None:
            dark = tuple(int(shade * v) for v in colour)
            cv2.ellipse(rgba, centre, (radius, radius), 0, 90 * i, 90 * (i + 1),
                        (*dark, 255), -1, lineType=cv2.LINE_AA)
        cv2.ellipse(rgba, centre, (radius - 2, radius - 2) if shade is not None else
                    (radius, radius), 0, 90 * i, 90 * (i + 1), (*colour, 255), -1,
                    lineType=cv2.LINE_AA)
    cv2.circle(rgba, centre, radius // 5, (91, 46, 30, 255), -1, lineType=cv2.LINE_AA)
    return rgba


# Four parts of distinct colours (a red, a green, a blue and a pale one, each moved by up
# to 20 levels a channel): their shades stay over RING_SPREAD apart down to 0.25, so the
# ring is no one colour (which would be an outline of that colour).
_BASES = ((230, 70, 70), (70, 200, 90), (70, 90, 230), (235, 225, 210))
_parts = st.tuples(*[st.tuples(*[st.integers(max(0, v - 20), min(255, v + 20)) for v in b])
                     for b in _BASES])


@settings(max_examples=25, deadline=None)
@given(_parts, st.floats(0.25, 0.5))
def test_a_shaded_outline_is_found_with_its_shade(parts, shade):
    """Art outlined in a dark shade of each part's own colour (no one ink colour): the
    portrait's reference holds that shade (within 0.03), and no one-colour outline;
    the same parts without the outline have no shade."""
    parts = list(parts)
    ref = portrait_reference(_shaded_portrait(parts, shade))
    assert ref.outline is None
    assert ref.ink_shade is not None and abs(ref.ink_shade - shade) <= 0.03, ref.ink_shade
    assert shaded_outline(_shaded_portrait(parts, None)) is None


def test_a_shaded_outline_is_judged_where_parts_tell_and_yields_to_one_ink():
    """The shade is read only where at least half the ring has a part bright enough inside
    to tell (three near-black quarters and one red quarter, each outlined at 0.3 of its
    colour: the red quarter alone fits, but it is a quarter of the ring); and dark-grey ink
    round pale-grey parts, which is also 0.2 times them, is a one-colour outline, so the
    portrait's reference holds that colour and no shade."""
    dark = [(40, 30, 30), (30, 40, 30), (30, 30, 45), (230, 70, 70)]
    assert shaded_outline(_shaded_portrait(dark, 0.3)) is None
    pale = [(200, 200, 200), (180, 180, 190), (220, 210, 200), (190, 200, 210)]
    inked = _portrait(pale, (40, 40, 40))
    assert shaded_outline(inked) is not None  # it fits, taken alone
    ref = portrait_reference(inked)
    assert ref.outline is not None and ref.ink_shade is None
    with pytest.raises(ValueError):
        Reference(ref.palette, ref.outline, 0.2)


def test_a_shaded_outline_keeps_its_colour_under_light_wrap(tmp_path):
    """A character outlined in a dark shade of each part (0.29 of it), on green with light
    wrap (30 % fading over ~3 px), through H.264 4:2:0: the edge's green excess stays
    within -8...+6 of the truth's. Read with a single ink colour or none, 4:2:0 smears
    the parts' and the backdrop's chroma into the 2 px line, and the palette's dark brown
    fits it better than the line's own shade of skin or red: -12.4 (trial 20's girl and
    chibi drawn so: -10.8 and -9.6)."""
    from comfy_nodes.core import video
    from tests import scores

    portrait = _shaded_portrait([(231, 187, 158), (190, 55, 70), (240, 180, 60),
                                 (234, 224, 210)], 0.29, radius=70, size=200)
    h = w = 256
    back = np.empty((h, w, 3), np.float32)
    back[:] = (0, 177, 64)
    back *= np.linspace(0.95, 1.05, w, dtype=np.float32)[None, :, None]
    fg = np.zeros((h, w, 3), np.float32)
    a = np.zeros((h, w), np.float32)
    fg[28:228, 28:228] = portrait[..., :3]
    a[28:228, 28:228] = portrait[..., 3] / 255.0
    wrap = 0.3 * np.clip(2 * (1 - cv2.GaussianBlur(a, (0, 0), 1.5)), 0, 1) * (a > 0)
    lit = fg * (1 - wrap[..., None]) + back * wrap[..., None]
    frame = lit * a[..., None] + back * (1 - a[..., None])
    rng = np.random.default_rng(0)
    frames = np.stack([np.clip(frame + rng.normal(0, 1.5, frame.shape), 0, 255)
                       .astype(np.uint8) for _ in range(6)])
    video.encode(frames, tmp_path / "clip.mp4", crf=20)
    decoded = video.decode(tmp_path / "clip.mp4").frames
    key = backdrop.estimate_key(decoded)
    ref = portrait_reference(portrait)
    assert ref.ink_shade is not None
    got = matte.refine(decoded[3], key, reference=ref)
    truth = np.dstack([fg, a * 255]).astype(np.uint8)
    s = scores.score(got, truth, truth[..., 3], 1)
    assert -8 <= s.edge_excess <= 6 and s.iou >= 0.95, s


def test_no_outline_from_dark_strands_down_one_side():
    """Long dark hair hanging down one side fills most of an unoutlined character's ring
    (every strand is all ring) but goes round little of it: no outline. Drawn with an ink
    line of the hair's colour all round, the same character has one."""
    hair = (18, 18, 22)
    parts = [(40, 150, 160), (35, 53, 150), (219, 170, 140), (199, 199, 199)]

    def with_strands(ink: tuple | None) -> np.ndarray:
        rgba = _portrait(parts, ink)
        for x in range(176, 236, 6):  # strands 2 px wide from the disc's right side
            cv2.line(rgba, (x, 70), (x + 3, 236), (*hair, 255), 2)
        return rgba

    strands = with_strands(None)
    solid = strands[..., 3] >= 250
    ring = solid & (cv2.dilate((~solid).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    dark = (np.abs(strands[..., :3][ring].astype(int) - hair).max(1) <= 20).mean()
    assert dark >= RING_SHARE  # the ring test alone would take the hair for ink
    assert outline_colour(strands) is None
    found = outline_colour(with_strands(hair))
    assert found is not None and np.abs(found - hair).max() <= 4


def _sub_pixel_outlined(parts: list, shade: float | None) -> np.ndarray:
    """_shaded_portrait's disc drawn at 4x with a line 3 px wide on its edge there (from
    0.5 px inside it to 2.5 outside), shrunk to 1x (area): an outline 0.75 px wide, in
    `shade` of each part, that fills no pixel (the opaque ring is the parts' own)."""
    big = _shaded_portrait(parts, None, radius=400, size=960)
    if shade is not None:
        for i, colour in enumerate(parts):
            dark = tuple(int(shade * v) for v in colour)
            cv2.ellipse(big, (480, 480), (401, 401), 0, 90 * i, 90 * (i + 1), (*dark, 255), 3,
                        lineType=cv2.LINE_AA)
    premultiplied = big.astype(np.float32)
    premultiplied[..., :3] *= premultiplied[..., 3:] / 255
    small = cv2.resize(premultiplied, (240, 240), interpolation=cv2.INTER_AREA)
    alpha = np.maximum(small[..., 3:], 1e-3)
    rgb = np.clip(small[..., :3] * 255 / alpha, 0, 255)
    return np.dstack([rgb, small[..., 3]]).round().astype(np.uint8)


@settings(max_examples=15, deadline=None)
@given(_parts, st.floats(0.25, 0.45))
def test_an_outline_thinner_than_a_pixel_is_found_in_the_antialiased_ring(parts, shade):
    """A dark-shade line 0.75 px wide fills no pixel: it shows only in the antialiased ring
    outside the opaque one, whose straight colour is the line's mixed with the part's. The
    portrait's reference holds a shade between the line's and SUB_PIXEL_INK_MAX; the same
    parts without the line have none."""
    parts = list(parts)
    k = shaded_outline(_sub_pixel_outlined(parts, shade))
    assert k is not None and shade - 0.05 <= k <= SUB_PIXEL_INK_MAX, (shade, k)
    assert shaded_outline(_sub_pixel_outlined(parts, None)) is None


def _disc_portrait(line: tuple[int, int, int] | None, side: str = "all") -> np.ndarray:
    """A 120 px portrait: an orange disc 88 px across, its outer 2 px drawn in `line` (all
    round, or only on its upper right quarter: a rim light), on transparency."""
    rgba = np.zeros((120, 120, 4), np.uint8)
    yy, xx = np.mgrid[:120, :120]
    r = np.hypot(yy - 60, xx - 60)
    rgba[r <= 44] = (220, 120, 40, 255)
    if line is not None:
        ring = (r <= 44) & (r > 42) & (((xx > 60) & (yy < 60)) if side == "lit" else True)
        rgba[ring, :3] = line
    return rgba


def test_the_portraits_own_light_line_is_read_and_a_rim_light_is_not():
    """Cream cut edges round the whole silhouette (papercraft) are the art's light line:
    its colour is read, so the frames keep it (its Reference is light_ink, its outline the
    cream); the disc without a line, or lit from one side (a quarter of the ring), has none."""
    cream = (236, 228, 208)
    assert np.abs(light_line(_disc_portrait(cream)) - cream).max() <= 1
    ref = portrait_reference(_disc_portrait(cream))
    assert ref.light_ink and np.abs(ref.outline - cream).max() <= 1
    assert light_line(_disc_portrait(None)) is None
    assert light_line(_disc_portrait(cream, side="lit")) is None
    assert not portrait_reference(_disc_portrait(None)).light_ink


def _thin_lined_disc(width: float) -> np.ndarray:
    """A dark-brown disc 88 px across whose outer `width` px are a cream line, drawn 4x
    and shrunk: under 2 px, the opaque ring's pixels mix the line with the brown."""
    n = 480
    yy, xx = np.mgrid[:n, :n]
    r = np.hypot(yy - n / 2 + 0.5, xx - n / 2 + 0.5) / 4
    big = np.zeros((n, n, 4), np.float32)
    big[r <= 44] = (90, 60, 40, 255)
    big[(r <= 44) & (r > 44 - width), :3] = (236, 228, 208)
    big[..., :3] *= big[..., 3:] / 255
    small = cv2.resize(big, (120, 120), interpolation=cv2.INTER_AREA)
    alpha = np.maximum(small[..., 3:], 1e-3)
    return np.dstack([np.clip(small[..., :3] * 255 / alpha, 0, 255),
                      small[..., 3]]).round().astype(np.uint8)


@pytest.mark.parametrize("width", [1.0, 1.25, 1.5, 2.0])
def test_a_light_line_thinner_than_two_pixels_is_read_as_its_own_colour(width):
    """The line's colour is its most common one, not the median of the ring's light
    pixels: that mixed it with the brown its antialiased inner boundary meets ((181, 165,
    145) for a 1 px line, (209, 196, 176) for 1.25 px), and the frames' rim, un-mixed
    against it, came out tan."""
    assert np.abs(light_line(_thin_lined_disc(width)) - (236, 228, 208)).max() <= 2


@pytest.mark.parametrize("orientation, turn", [(1, None), (6, cv2.ROTATE_90_CLOCKWISE),
                                               (3, cv2.ROTATE_180),
                                               (8, cv2.ROTATE_90_COUNTERCLOCKWISE)])
def test_a_portrait_is_read_upright_as_its_exif_says(tmp_path, orientation, turn):
    """A portrait stored sideways with an EXIF orientation (a phone's photo of a drawing, a
    camera's export) was read as stored, while ComfyUI's Load Image turns it upright: the
    first frame Green Screen Prep made from the file lay on its side. Read as shown."""
    from PIL import Image

    from comfy_nodes.core.greenscreen import load_portrait

    upright = np.zeros((60, 40, 4), np.uint8)
    upright[10:50, 10:30] = (200, 40, 40, 255)
    upright[10:20, 10:30] = (40, 40, 200, 255)  # a blue head: which way is up
    stored = upright if turn is None else cv2.rotate(
        upright, {cv2.ROTATE_90_CLOCKWISE: cv2.ROTATE_90_COUNTERCLOCKWISE,
                  cv2.ROTATE_90_COUNTERCLOCKWISE: cv2.ROTATE_90_CLOCKWISE}.get(turn, turn))
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / "p.png"
    Image.fromarray(stored).save(path, exif=exif)
    assert np.array_equal(load_portrait(path), upright)
