"""The colours a zone pixel's character part may be (core/edgezone.py's zone): the part's own
colour from the interior the spill cannot reach (`unspilled`), the frame's palette and the
portrait's, the ink outline's, and the part's colour shaded or lit toward the rim
(`candidate_colours`); and which of the frame's colours the portrait lacks (`worn_colours`)
or are blurs (`palette_shares`).
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from . import despill, unblur
from .backdrop import KeyModel
from .blur import normalized_blurs
from .channels import dot, gather, key_excess, norm2
from .despill import FAR_COST
from .edgezone import MAX_WRAP, Edge, blurred_parts
from .quantiles import median
from .reference import OUTLINE_BONUS, palette


def unspilled(p: np.ndarray, plate: np.ndarray, depth: np.ndarray, wrap: int, r: int,
              ref: np.ndarray | None, key: KeyModel) -> tuple[np.ndarray, np.ndarray]:
    """(deep, colours): where the character's own colours can be read ((H, W) uint8), and
    the frame's colours with those of thin parts despilled against the portrait.

    Colours the spill cannot reach lie deeper than the wrap, or, in parts thinner than
    twice that (arms, legs, blades), on their centre line, the farthest from any edge...
    which the wrap reaches too where the part is thinner than its reach (a spear shaft, a
    plume, a strand): there the centre line is un-mixed against the portrait first.
    Measured on an independent trial of 38 clips (edge excess): a knight's spear and plume
    +4.7 -> +0.8, at 36 % of the frame's height +6.7 -> +2.6; a ranger's bow +7.9 -> +6.2;
    no fixture or earlier trial clip rose by over 0.5."""
    ridge = (depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8))) & (depth >= r + 1)
    deep = ((depth > wrap + 1) | ridge).astype(np.uint8)
    thin = ridge & (depth <= wrap + 1)
    if ref is None or not thin.any():
        return deep, p
    src = p.copy()
    src[thin] = unblur.unwrap(p[thin], plate[thin], ref, key.noise, MAX_WRAP, key.channel)
    return deep, src


class FrameColours(NamedTuple):
    """What a frame's interior beyond the spill's reach tells of its colours."""

    palette: np.ndarray | None  # (k, 3) its main colours; None: nothing is out of reach
    known: np.ndarray | None  # the portrait's colours and those the frame wears it lacks
    palette_share: np.ndarray | None  # (k,) the share of a known colour below which each
    # palette colour is un-mixed as a blur (palette_shares)


def frame_colours(src: np.ndarray, deep: np.ndarray, plate: np.ndarray, outer: np.ndarray,
                  ref: np.ndarray | None, key: KeyModel) -> FrameColours:
    """The frame's own colours where the spill cannot reach (deep, of src), and, with the
    portrait's (ref), those the frame wears that the portrait lacks (a hit flash's tint:
    worn_colours), against which a part blurred wider than the wrap is un-mixed, and how
    far each palette colour is taken for a blur: both judged against one backdrop colour,
    the median behind the silhouette (outer) on this frame's plate."""
    pal = palette(gather(src, np.flatnonzero(deep))) if deep.any() else None
    if ref is None or pal is None:
        return FrameColours(pal, ref, None)
    back = median(gather(plate, np.flatnonzero(outer)[::WORN_SAMPLE]), axis=0)
    known = np.concatenate([ref, worn_colours(pal, ref, back, key.noise, key.channel)])
    return FrameColours(pal, known, palette_shares(pal, back, known, key.noise))


# The mask's edge may lie a pixel outside the art's (4:2:0 colour, light wrap), so a line 2 px
# wide reaches a ring past the rim. There, on pure #00FF00, 4:2:0 turns the ink's mix with
# the screen into a dark green ((0, g, 0) in an independent trial's own conversion) that
# the portrait's dark green explained better than the ink, kept opaque and green.
# Measured (edge excess) over the 84 outlined trial clips: an outlined knight in a green
# tunic on #00FF00 +6.1 -> +1.4 (passes), an inked teal-skinned walk -7.8 -> -3.0, the
# mean -0.48 -> -0.29; matte IoU at most -0.003 (a knight's olive cloak 0.985 -> 0.982),
# the mean -0.0002; the fixtures' outlined run and hurt -4.6 -> -3.7 and -4.5 -> -4.3, a
# teal skill +4.1 -> +2.5, IoU at most -0.001. Two rings: the mean IoU -0.0005, an ink
# barbarian on blue +6.6 -> +7.1. Through the real x264 encoder (PyAV) a 2-2.5 px line
# round a green tunic still sits +14..+17 over the truth (+35..+38 without this): a
# known limit (tests/core/test_matte.py).
INK_PAST_RIM = 1


def candidate_colours(p: np.ndarray, deep: np.ndarray, colours: FrameColours, edge: Edge,
                      wrap: int, ref: np.ndarray | None, ink: np.ndarray | None,
                      ink_shade: float | None, noise: float,
                      key_channel: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate colours of the character for every zone pixel, (M, K, 3): the nearby
    unreachable interior (deep, (H, W) uint8) at two reaches (a part's own colour, then its
    neighbourhood), the frame's unreachable palette (colours.palette), the portrait's and
    its ink outline's (one colour), or, on the rim of art outlined in a shade of each
    part's colour, that shade (ink_shade) of the part's own colour; their prior costs
    ((K,), or with the portrait (M, K): a portrait colour seen near a pixel costs nothing
    there, present_colours); and the part's own colour (M, 3), NaN where none is near.
    The frame's colours that are blurred mixes are un-blurred against colours.known."""
    box, zb, B = edge.box, edge.mask, edge.B
    pal = [colours.palette] if colours.palette is not None else []
    n_frame = len(pal[0]) if pal else 0
    if ref is not None:
        pal.append(ref)
    if ink is not None:
        pal.append(ink[None])  # Reference keeps float32 (3,)
    fixed = np.concatenate(pal) if pal else np.zeros((0, 3), np.float32)
    shaded_ink = 1 if ink_shade is not None else 0  # a column: the ink's shade
    # Filled in place: stacking broadcast copies of the palettes cost more than un-mixing.
    # The last two columns: the part's own colour in the shade, and in the light, that fits
    # the rim (rim_shade, rim_light).
    C = np.empty((len(B), 2 + len(fixed) + shaded_ink + 2, 3), np.float32)
    C[:, 2:2 + len(fixed)] = fixed[None]
    deep_f = deep[box].astype(np.float32)
    reaches = normalized_blurs(p[box], deep_f, (0.75 * wrap, 1.5 * wrap), zb)
    for j, (fz, support) in enumerate(reaches):
        C[:, j] = np.where((support > 1e-3)[:, None], fz, B)  # missing: never chosen (v2 = 0)
    own, support = reaches[0]  # the part's own colour (the shorter reach), NaN where none
    local = np.where((support > 1e-3)[:, None], own, np.nan)
    prior = np.array([0.0, FAR_COST] + [FAR_COST] * len(fixed) + [0.0] * shaded_ink
                     + [RIM_SHADE_COST, RIM_LIGHT_COST], np.float32)
    if ink is not None:
        # Outlined art: its rim is the outline (OUTLINE_BONUS), and one ring past it
        # (INK_PAST_RIM); deeper, a part.
        at = 1 + len(fixed)  # the last of the fixed colours
        inked = edge.depth <= edge.r + INK_PAST_RIM
        C[:, at] = np.where(inked[:, None], C[:, at], B)  # B: never chosen (v2 = 0)
        prior[at] = -OUTLINE_BONUS
    # The frame's colours are replaced by the portrait's where they are blurred mixes:
    # where the pixel may be translucent, and on the rim, whose nearby colours are as mixed
    # (a strand, a thin blade). Measured on yellow strands on a blue screen: edge +12.2 ->
    # +8.4.
    unblurred = edge.translucent | edge.rim
    if colours.known is not None and unblurred.any():
        share = np.full(2 + n_frame, unblur.UNBLUR_SHARE, np.float32)
        if colours.palette_share is not None:
            share[2:] = colours.palette_share
        unblur.unblur(C, B, unblurred, colours.known, noise, share)
    if ink_shade is not None:
        # Outlined in a shade of each part: a rim pixel's ink is that shade of the part
        # inside (its colour nearby, un-blurred), whose chroma 4:2:0 smears into it (with
        # the backdrop's) so that a dark colour of the palette fits as well. No bonus,
        # unlike one ink colour: it competes on its fit. Measured (edge, IoU): trial 20's
        # girl knocked back -10.8 -> -5.6, 0.974 -> 0.983, its chibi -9.6 -> -2.9; a
        # Kenney robot -1.4 -> +0.9, 0.982 -> 0.984; no other clip of 165 or fixture has
        # such a portrait. With a bonus of 8: -3.2 and -2.1, the girl's IoU 0.980.
        told = edge.rim & ~np.isnan(local).any(1)
        C[:, 2 + len(fixed)] = np.where(told[:, None], ink_shade * C[:, 0], B)  # B: never chosen
    C[:, -2] = rim_shade(edge, C[:, 0], local)
    C[:, -1] = rim_light(edge, C[:, 0], local)
    if ref is not None:
        # A portrait colour seen unspilled a few pixels away is as near as the interior's.
        at = 2 + n_frame
        prior = np.broadcast_to(prior, C.shape[:2]).copy()
        ref_prior = prior[:, at:at + len(ref)]
        ref_prior[present_colours(edge, ref, key_channel)] = 0.0
        prior[:, at:at + len(ref)] = ref_prior
    return C, prior, local


# A portrait colour is seen near a zone pixel where a zone pixel within PRESENT_REACH px is
# that colour, shaded or lit, within PRESENT_DISTANCE levels, carrying at most
# PRESENT_SPILL levels more of the key's hue than it: the part itself, unspilled, just
# beyond 4:2:0's smear. Only colours with under PRESENT_KEY_EXCESS of the key's hue: a
# green cloak seen near every rim pixel of the parts beside it explained their wrap as the
# cloak (a druid's edge +3.4 -> +6.0, our green-wrapped strands +5.8 -> +8.5).
PRESENT_DISTANCE = 12.0
PRESENT_REACH = 3
PRESENT_SPILL = 4.0
PRESENT_KEY_EXCESS = -10.0
SHADES_LOW = despill.SHADES[0]


def present_colours(edge: Edge, ref: np.ndarray, key_channel: int) -> np.ndarray:
    """(M, k) bool: where each of the portrait's colours ref (k, 3) is seen near each zone
    pixel (see PRESENT_REACH). Where it is, candidate_colours un-mixes against it at no
    prior cost, as against the part's own colour nearby: a brown strap 3 px wide beside a
    red tunic has no interior beyond the wrap's reach, its nearby colour is the tunic's
    red, and its rim, a mix of brown and the screen, was read as red with more screen
    (fits 5.4 and 5.0 levels, the palette's brown paying FAR_COST). Measured (edge): an
    independent trial's ranger whose brown vest, gloves and boots edge a red tunic -9.5 ->
    -6.3 (passes) and the rest of its 16 clips of warm adjacent hues 0.5-3.2 nearer the
    truth; a painterly brawler -9.1 -> -7.9 and a shaman -8.3 -> -6.8 (both pass), a
    pikeman -7.9 -> -6.3; no fixture or other clip of 99 (incl. 15 with green, olive or
    small parts) moved by over 1.0 or lost its pass."""
    out = np.zeros((len(edge.P), len(ref)), bool)
    zy, zx = np.nonzero(edge.mask)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                       (2 * PRESENT_REACH + 1, 2 * PRESENT_REACH + 1))
    # Only pixels with less of the key's hue than any colour judged here may be one, seen
    # unspilled (a shaded colour keeps at least SHADES[0] of its excess): most of the zone
    # is spilled, and each colour's test costs a pass over what is left.
    excess = key_excess(edge.P, key_channel)
    ask = np.flatnonzero(excess <= SHADES_LOW * PRESENT_KEY_EXCESS + PRESENT_SPILL)
    P, excess, ay, ax = edge.P[ask], excess[ask], zy[ask], zx[ask]
    seen_map = np.zeros(edge.mask.shape, np.uint8)
    for j, f in enumerate(np.asarray(ref, np.float32)):
        if float(key_excess(f, key_channel)) > PRESENT_KEY_EXCESS:
            continue
        s = np.clip(dot(P, f[None]) / max(float(norm2(f[None])[0]), 1e-6), *despill.SHADES)
        shaded = s[:, None] * f
        seen = ((np.sqrt(norm2(P - shaded)) <= PRESENT_DISTANCE)
                & (excess <= key_excess(shaded, key_channel) + PRESENT_SPILL))
        if not seen.any():
            continue
        seen_map[:] = 0
        seen_map[ay[seen], ax[seen]] = 1
        out[:, j] = cv2.dilate(seen_map, kernel)[zy, zx] > 0
    return out


# Shaded art darkens toward its silhouette (ambient occlusion, a form turning away from the
# light), so a rim pixel is often a mix of the backdrop and a darker shade of the part's
# colour nearby than any candidate: un-mixed against the lit colour inside, it reads as
# too little of it. A pale knight whose armour darkens toward its edge came out a pixel
# thin all round (IoU 0.940; its rim's truth 0.7-0.85 read 0.3-0.45). The shade is
# fitted, down to RIM_SHADE_MIN of the colour, at RIM_SHADE_COST levels: a pixel that is
# a mix of the colour itself (the wrap, an edge's coverage) lies on its line and keeps it.
RIM_SHADE_MIN = 0.75
RIM_SHADE_COST = 3.0
# And lit art lightens toward it: a rim light (a back light behind the figure, painted or
# rendered) makes the silhouette's edge lighter and paler than the part inside, and a rim
# pixel un-mixed against the colour inside read as too little of it. A 160 px ranger lit
# from behind at upper left came out thin by a pixel on that side (ring 1 of its truth, at
# 178-199/255, read 72-115 levels low facing left, 22-48 facing up and right, within 4
# facing down; IoU 0.922, 0.951 with this). The colour is lightened toward white by the
# share that best fits, up to RIM_LIGHT_MAX, at RIM_LIGHT_COST levels: at 50 % a dark part
# lightened lay nearer the backdrop's luma, and noisy rims of dark cel art came out more
# opaque (IoU -0.005); at 20 % the ranger gained half as much (docs/quality.md).
RIM_LIGHT_MAX = 0.3
RIM_LIGHT_COST = 3.0


def fit_two(x1: np.ndarray, x2: np.ndarray, y: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel, the least-squares c1, c2 of y = c1 x1 + c2 x2 (all (M, 3)), by the 2x2
    normal equations; and where they are solvable (c1 = c2 = 0 where not)."""
    n11, n12, n22 = norm2(x1), dot(x1, x2), norm2(x2)
    d1, d2 = dot(x1, y), dot(x2, y)
    det = n11 * n22 - n12 * n12
    solvable = np.abs(det) > 1e-3
    det = np.where(solvable, det, 1.0)
    return (d1 * n22 - d2 * n12) / det, (n11 * d2 - n12 * d1) / det, solvable


def rim_shade(edge: Edge, own: np.ndarray, local: np.ndarray) -> np.ndarray:
    """(M, 3) for each rim pixel whose part's own colour `own` (M, 3) is known (`local`, the
    part's colour nearby, is not NaN): that colour darkened by the share s that best
    explains the pixel as a mix of s * own and the backdrop (P = a own + b B, least
    squares: t = 1 - b, s = a / t), within RIM_SHADE_MIN..1; the backdrop (never chosen)
    elsewhere, and where no shade helps."""
    a, b, solvable = fit_two(own, edge.B, edge.P)
    t = 1.0 - b
    s = np.clip(a / np.maximum(t, 0.05), RIM_SHADE_MIN, 1.0)
    known = ~np.isnan(local[:, 0])
    use = edge.rim & known & solvable & (t > 0.05) & (s < 0.99)
    return np.where(use[:, None], s[:, None] * own, edge.B)


def rim_light(edge: Edge, own: np.ndarray, local: np.ndarray) -> np.ndarray:
    """(M, 3) for each rim pixel whose part's own colour `own` (M, 3) is known: that colour
    lightened toward white by the share s that best explains the pixel as a mix of it and
    the backdrop (P - B = a (own - B) + a s (255 - own), least squares in a and a s),
    within 0..RIM_LIGHT_MAX; the backdrop (never chosen) elsewhere, and where no light
    helps."""
    toward_white = 255.0 - own
    a, lit, solvable = fit_two(own - edge.B, toward_white, edge.P - edge.B)  # lit: a s
    s = np.clip(lit / np.maximum(a, 0.05), 0.0, RIM_LIGHT_MAX)
    known = ~np.isnan(local[:, 0])
    use = edge.rim & known & solvable & (a > 0.05) & (s > 0.01)
    return np.where(use[:, None], own + s[:, None] * toward_white, edge.B)


# A palette colour is a k-means centre, an average without the pixels' noise: a blur's
# lies within this many levels of its mix line (4.5 for a pale runner's on blue, 3.5-7
# for a flash tint's, 0 on a clean ramp); a two parts' boundary smeared by the video's
# 4:2:0 chroma lay 17 from a red's line, and read so came out 6 % see-through, 4 px
# inside a body (at 10 levels, a flash-tinted swordswoman +7.0 -> +7.3).
PALETTE_BLUR_RESIDUAL = 15.0


def palette_shares(frame_palette: np.ndarray, back: np.ndarray, known: np.ndarray,
                   noise: float) -> np.ndarray:
    """(k,) the share of a colour the character wears (the portrait's or the frame's own:
    known) below which each of the frame's palette colours (k, 3) is un-mixed as a blur
    (unblur.unblur). A palette colour that is such a blur as a pixel would be judged one
    (blurred_parts at no wrap, so at most 1 - BLUR_MARGIN of it the colour, against the
    backdrop colour `back` (3,)), within PALETTE_BLUR_RESIDUAL of the nearest
    mix line of a known colour, is un-mixed at any share up to UNBLUR_SHARE: k-means puts
    centres along a long blur's ramp. Any other is a part's own colour, un-mixed only
    when mostly backdrop (UNBLUR_PALETTE_SHARE). Measured (edge excess): an independent
    trial's pale runner on blue, whose palette held her grey at 67 % and 76 %, +7.8 ->
    +6.2; a hit-flash hurt on blue +6.8 -> +4.0 (passes), a white swordswoman's +8.6 ->
    +7.0; a 90 px ramp's worst column off by 0.37 -> 0.10. Trials 12-18 and the
    fixtures: nothing worse than a shaded red skill's -4.2 -> -6.3 (bound -8)."""
    B = np.broadcast_to(np.asarray(back, np.float32), frame_palette.shape)
    blur = (blurred_parts(frame_palette, B, np.zeros(len(B), np.float32), known, noise)
            & (despill.mix_distance(frame_palette, B, known) <= PALETTE_BLUR_RESIDUAL))
    return np.where(blur, unblur.UNBLUR_SHARE, unblur.UNBLUR_PALETTE_SHARE)


# A colour of the frame this many levels from every portrait colour (shaded or lit), with
# at most this share of the backdrop's key excess, that is no blurred mix of another, is
# one the character wears in this frame only (see worn_colours).
WORN_DISTANCE = 20.0
WORN_SAMPLE = 16  # every this many pixels of the silhouette: the backdrop behind it
WORN_KEY_SHARE = 0.25


def worn_colours(frame: np.ndarray, ref: np.ndarray, back: np.ndarray, noise: float,
                 key_channel: int) -> np.ndarray:
    """(k, 3) the colours of the frame's palette (K, 3) that the portrait (ref) lacks: a
    hit-flash's tint, a lit effect. A part blurred wider than the wrap is un-mixed against
    them as against the portrait's own (its nearby "interior" is itself a mix). Left out:
    colours near a portrait colour, colours with much of the backdrop's hue (the key
    channel's excess over the other two, against that of the backdrop colour `back`
    (3,)), and any colour on the line from that backdrop to another colour of the frame
    or the portrait (a blur's ramp, whose k-means centres lie 20-25 levels
    apart along it: judged by the line alone, as blurred_mix's "own colour" test would let
    each centre shield its neighbour). Measured on an independent trial's hit-flashes: a
    red flash on a blue-shirted hurt on blue, edge +13.0 -> +8.4; a white swordswoman's,
    IoU 0.914 -> 0.927, +14.7 -> +12.9. Without the hue test a thin-limbed run took a
    blur's green plateau for a colour (IoU 0.961 -> 0.954). Used beyond the wrap's reach
    too where the silhouette moved (edge_zone): the swordswoman's flash-tinted head,
    blurred in her knock-back, had come out as opaque green blotches (edge +12.9 -> +8.5;
    the blue hurt +6.9 -> +6.4; no other clip of 72 or fixture moved)."""
    back = np.asarray(back, np.float32).reshape(1, 3)
    far = despill.shade_distance(frame, ref) > WORN_DISTANCE
    hue = (key_excess(frame, key_channel)
           <= WORN_KEY_SHARE * key_excess(back, key_channel))
    colours = np.concatenate([ref, frame])
    worn = []
    for k in np.flatnonzero(far & hue):  # a palette is a few colours: a loop over them
        others = np.delete(colours, len(ref) + k, 0)
        t = despill.line_share(frame[k:k + 1], back, others)
        on_line = ((despill.line_residual(frame[k:k + 1], back, others)
                    < unblur.UNBLUR_RESIDUAL) & (t > 0) & (t < unblur.NEAR_MIX_SHARE))
        if not on_line.any():
            worn.append(k)
    return frame[worn]
