"""The character's silhouette at full resolution: which pixels of a sheet frame are
character at all, before the edge is un-mixed (core/matte.py).

The key's verdict (colour distance from the plate, core/backdrop.py) is corrected where the
world fools it: a shirt of the backdrop's own green under the threshold is kept when it is a
portrait colour; backdrop seen through a gap narrower than H.264's colour blocks, or through
a filled hole, is opened again. Where the silhouette moved between frames, a part may be
blurred by the motion, which the edge work must know.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import despill, unblur
from .backdrop import SHADOW_FLOOR, KeyModel, clean_mask, colour_distance, shade
from .blur import normalized_blur
from .channels import dot, gather, norm2
from .despill import LUMA, LUMA_SEPARATION

# Under the key's threshold a pixel is still character when it is more than
# REFERENCE_FLOOR noise sigmas (+4 levels) off the backdrop and REFERENCE_RATIO times
# nearer a portrait colour, shaded or lit (despill.shade_distance), than the backdrop.
# Measured: royal-blue trousers on a blue screen, lit 10-15 % above the portrait's blue,
# lay nearer the backdrop than that blue in RGB; by the shade line an independent trial's
# blue-screen run went IoU 0.884 -> 0.893 (holes 2.8 -> 1.9 %), a spearman blue on blue
# 0.918 -> 0.921, our green shirt under 6 px wrap 0.959 -> 0.961; nothing else moved. The
# shades are held to REFERENCE_SHADES: across all of 0.5-1.3, a patch of the backdrop
# dimmed to 85 % and tinted 9-13 levels toward a dark-green portrait colour's shade line
# turned 73-97 % character (a review's test; none by RGB). Held, no trial clip or fixture
# moved. The floor was NOISE_FLOOR (2.5 sigmas) until an independent trial's green
# zombie: skin 25 levels off a noisy screen (sigma 8.3, threshold 41) sat at that floor,
# and a quarter of the body was lost (IoU 0.748). At 1 sigma: 0.978. So low, the ratio
# alone let blotches of a boiling screen drifting toward a near-key skin become parts of
# their own; a kept pixel must also join a part the key found (by_reference).
REFERENCE_FLOOR = 1.0
REFERENCE_RATIO = 3.0
REFERENCE_SHADES = (0.85, 1.2)
# A filled hole whose colour is less than this share of the way from the backdrop to the
# character's colour nearby is backdrop seen through a gap.
SLIVER_SHARE = 0.12
SLIVER_DISTANCE = 0.5  # and nearer the backdrop than this share of the key threshold
# Levels off the backdrop that its noise does not reach: this many sigmas (+4 levels).
NOISE_FLOOR = 2.5


def _edge_width(h: int, w: int) -> int:
    """Width of the soft-edge band: H.264 smears colour over ~2 px at 448 px."""
    return max(2, round(min(h, w) / 200))


Sides = tuple[bool, bool, bool]  # which of a box's left, top and right edges lie inside the frame


@dataclass(frozen=True)
class Silhouette:
    """One frame's (or its box's) mask, and what the edge work reads from it."""

    distance: np.ndarray  # (H, W) float32: colour distance from the plate
    fg: np.ndarray  # (H, W) uint8 1 on the character: cleaned, gaps opened
    outer: np.ndarray  # (H, W) uint8: fg grown by the soft edge (a pixel there may be a mix)
    gaps: np.ndarray  # (H, W) uint8 1 where fg filled a hole wider than the soft edge
    r: int  # the soft edge's width, px
    kernel: np.ndarray  # the soft edge's disc, (2r+1)^2
    shadow: np.ndarray  # (H, W) bool: a deep contact shadow, not character (see _shadow)


def find(p: np.ndarray, plate: np.ndarray, key: KeyModel, full: tuple[int, int],
         reference: np.ndarray | None, moving: np.ndarray | None,
         cut: Sides = (False, False, False)) -> Silhouette:
    """The silhouette of p (H, W, 3) float32 over its plate. full (h, w): the whole frame's
    size (p may be a box of it; thresholds scale with the frame, not with the crop).
    reference: the portrait's colours (K, 3) or None; moving: see moving_region."""
    d = colour_distance(p, plate)
    raw = (d > key.threshold).astype(np.uint8)
    shadow = np.zeros(d.shape, bool)
    if reference is not None:
        raw, shadow = by_reference(p, plate, d, raw, reference, key, cut=cut)
    area = full[0] * full[1]
    fg = clean_mask(raw, max(4, area // 4000), area // 600)
    r = _edge_width(*full)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    fg = _open_slivers(p, plate, raw, fg, kernel, key.threshold)
    if reference is not None:
        fg[thin_gaps(p, plate, fg, key.noise, reference, moving)] = 0
    return Silhouette(d, fg, cv2.dilate(fg, kernel, iterations=1), filled_gaps(fg, raw, r), r,
                      kernel, shadow)


def moving_region(before: np.ndarray, now: np.ndarray, after: np.ndarray,
                  size: tuple[int, int]) -> np.ndarray:
    """(H, W) bool at full size `size` (h, w) from three consecutive coarse masks: where
    the silhouette differs from a neighbour's, one coarse pixel wider (a blurred part lies
    in what it swept during the exposure)."""
    swept = ((before != now) | (after != now)).astype(np.uint8)
    swept = cv2.dilate(swept, np.ones((3, 3), np.uint8))
    return cv2.resize(swept, (size[1], size[0]), interpolation=cv2.INTER_NEAREST) > 0


def moving_at(masks: np.ndarray, t: int, size: tuple[int, int]) -> np.ndarray:
    """moving_region of frame t of coarse masks (N, h, w), its first and last frames taking
    themselves as the missing neighbour."""
    last = len(masks) - 1
    return moving_region(masks[max(t - 1, 0)], masks[t], masks[min(t + 1, last)], size)


def by_reference(p: np.ndarray, plate: np.ndarray, d: np.ndarray, raw: np.ndarray,
                 reference: np.ndarray, key: KeyModel, coarse: bool = False,
                 cut: Sides = (False, False, False)) -> tuple[np.ndarray, np.ndarray]:
    """(the mask, the shadow taken out of it): the key's raw mask (H, W) uint8 of p
    (H, W, 3) float32 over its plate, corrected by the portrait's colours (K, 3). A
    portrait colour under the threshold is character (_like_reference) where it joins a
    part the key found: on a screen boiling in blotches, patches drifting toward a
    near-key skin became parts of their own (a review: 5 of 12 seeds of the grainy goblin
    fixture CROPPED). A deep contact shadow is not (_shadow). `coarse`: a reduced pixel
    mixing a foot with the shadowed screen reads as shadow too, so shadow beside the
    character stays (a review: 115 of the 142 coarse pixels taken from a fixture's shadow
    were half leg or more)."""
    kept = _like_reference(p, d, reference, key)
    fg = raw | kept
    if kept.any():
        n, labels = cv2.connectedComponents(fg, connectivity=8)
        found = np.zeros(n, bool)
        found[labels[raw > 0]] = True
        found[0] = False
        fg = found[labels].astype(np.uint8)
    shadow = _shadow(p, plate, d, fg, reference, key, cut)
    if coarse and shadow.any():
        body = (fg > 0) & ~shadow
        shadow &= ~(cv2.dilate(body.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    fg[shadow] = 0
    return fg, shadow


def _like_reference(p: np.ndarray, d: np.ndarray, reference: np.ndarray,
                   key: KeyModel) -> np.ndarray:
    """(H, W) uint8 1 where a pixel under the key's threshold is still character: off the
    backdrop by more than REFERENCE_FLOOR noise sigmas (+4 levels), and much nearer one of
    the portrait's colours (shaded or lit) than the backdrop. A shirt of the
    backdrop's own green, a little lighter, sits under the threshold at high CRF (measured:
    16 levels off the plate against a threshold of 17.5 at CRF 24, 4 % of the body lost as
    holes); its portrait colour is 3 levels away."""
    maybe = (d > _noise_floor(key, REFERENCE_FLOOR)) & (d <= key.threshold)
    out = np.zeros(d.shape, np.uint8)
    if not maybe.any():
        return out
    out[maybe] = despill.shade_distance(p[maybe], reference, REFERENCE_SHADES) * (
        REFERENCE_RATIO) < d[maybe]
    return out


# Over the key's threshold a pixel is still a contact shadow when it is the backdrop
# darkened to between SHADOW_DEEP and backdrop.SHADOW_FLOOR of its brightness, in the
# lowest SHADOW_LOW share of the silhouette's height, and REFERENCE_RATIO times nearer the
# backdrop's colour ray than any portrait colour. (Without the portrait a shadow this deep
# cannot be told from a dark green part.) Measured on a helper's clips with shadows 35 %
# deep under small characters: 94-207 px of shadow per cell were kept as character.
SHADOW_DEEP = 0.5
SHADOW_LOW = 0.25
# Higher up such pixels are a shadow cast on the wall where they join into a patch of at
# least CAST_SHARE of the silhouette's area, or one the character's box cuts: a held-out
# trial's brawler's, 45 % deep, beside and above him, was kept as a dark green figure that
# widened every cell (IoU 0.811). Smaller patches stay character: a near-black part's
# motion blur is that very darkened screen (black at 40 % is the screen at 60 %), a fan
# or a streak; taken anywhere, a sprint's dark cape went +6.0 -> +6.1 edge (failing), a
# pikeman's -7.9 -> -11.0.
CAST_SHARE = 0.05


def _shadow(p: np.ndarray, plate: np.ndarray, d: np.ndarray, raw: np.ndarray,
            reference: np.ndarray, key: KeyModel,
            cut: Sides = (False, False, False)) -> np.ndarray:
    """(H, W) bool: pixels the key's raw mask (H, W) took for character that are a deep
    shadow on the backdrop (see SHADOW_DEEP): any in its lowest rows (a contact shadow),
    above them those in patches of CAST_SHARE of it (a shadow cast on the wall)."""
    rows = np.flatnonzero(raw.any(axis=1))
    out = np.zeros(d.shape, bool)
    if not len(rows):
        return out
    brightness, across = shade(p, plate)
    maybe = (d > key.threshold) & (across <= key.threshold) & (
        brightness >= SHADOW_DEEP) & (brightness < SHADOW_FLOOR)
    if not maybe.any():
        return out
    out[maybe] = despill.nearest(p[maybe], reference) > (
        REFERENCE_RATIO * np.maximum(across[maybe], _noise_floor(key)))
    low = int(rows[-1] - SHADOW_LOW * (rows[-1] - rows[0]))
    high = out[:low].astype(np.uint8)
    if high.any():
        n, labels, stats, _ = cv2.connectedComponentsWithStats(high, connectivity=8)
        x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
        # p may be the character's box: a patch it cuts goes on beyond it (the coarse
        # masks, which drop the shadow, set the box: a sliver of it was left opaque); the
        # frame's own edges cut nothing (a dark part's blur may reach them)
        left, top, right = cut
        beyond = ((left & (x == 0)) | (top & (y == 0))
                  | (right & (x + stats[:, cv2.CC_STAT_WIDTH] == high.shape[1])))
        small = (stats[:, cv2.CC_STAT_AREA] < CAST_SHARE * np.count_nonzero(raw)) & ~beyond
        small[0] = False
        out[:low][small[labels]] = False
    return out


def _noise_floor(key: KeyModel, sigmas: float = NOISE_FLOOR) -> float:
    """`sigmas` of the backdrop's noise + 4 levels: at NOISE_FLOOR, off the backdrop by more
    than its noise reaches."""
    return sigmas * key.noise + 4.0


# A pixel whose luma is within this many levels (+ 2 noise sigmas) of the backdrop's, in
# a gap at most this many pixels wide between parts darker or lighter than the backdrop by
# LUMA_SEPARATION, is the backdrop.
THIN_GAP_LUMA = 6.0
THIN_GAP = 2
# ... and its chroma within this many levels (+ 1 noise sigma) of the segment from the
# backdrop's to those parts', at least this share of the way: a colour block's average.
# Measured: a 2 px gap between legs at 0.45, 1 level off; a green shirt of the backdrop's
# luma between dark parts at 0.16, 10 levels off.
THIN_GAP_CHROMA = 4.0
THIN_GAP_SHARE = 0.25
# Where the silhouette moved, a pixel that reads as a portrait colour blurred with the
# backdrop at this share or more is more character than backdrop: a blurred part, kept.
# Measured on an ink-outlined knight's swung blade: 121 of its pixels (true alpha 0.55-0.7)
# were cut as gaps without this.
THIN_GAP_BLUR = 0.5


def thin_gaps(p: np.ndarray, plate: np.ndarray, fg: np.ndarray, noise: float,
              reference: np.ndarray, moving: np.ndarray | None = None) -> np.ndarray:
    """(H, W) bool: backdrop seen through a gap narrower than H.264's colour blocks (two
    legs a pixel or two apart). Its colour is the neighbours' (4:2:0 stores one colour per
    2x2 block), so the key takes it for character; its luma is its own, the backdrop's.
    Measured on an attack: a 2 px gap between dark legs read 48-62 off the backdrop in
    colour (threshold 15) and 1-4 levels off in luma. Only with the portrait: a colour
    near one of its colours is never a gap (a green shirt can share the backdrop's luma
    and, smeared, nearly its chroma: without the portrait, 6 of a shirt's pixels between
    dark parts were cut)."""
    yp, yb = p @ LUMA, plate @ LUMA
    same = (fg > 0) & (np.abs(yp - yb) <= THIN_GAP_LUMA + 2 * noise)
    if not same.any():
        return same
    k = THIN_GAP
    before = np.r_[np.ones(k), np.zeros(k + 1)][None].astype(np.float32)
    after = before[:, ::-1].copy()
    gap = np.zeros_like(same)
    part_colour = np.zeros_like(p)
    # Between two parts on the same side of the backdrop's luma (two dark legs), left and
    # right or above and below; between a dark and a light part, a pixel of the backdrop's
    # luma is their antialiased boundary.
    for part in (yp < yb - LUMA_SEPARATION, yp > yb + LUMA_SEPARATION):
        u8 = part.astype(np.uint8)
        between = np.zeros_like(same)
        for k1, k2 in ((before, after), (before.T, after.T)):
            one = cv2.filter2D(u8, -1, k1, borderType=cv2.BORDER_CONSTANT) > 0
            two = cv2.filter2D(u8, -1, k2, borderType=cv2.BORDER_CONSTANT) > 0
            between |= same & one & two
        if between.any():
            # The parts' colour round each such pixel (a small blur, so only round them).
            ys, xs = np.nonzero(between)
            pad = 4 * k
            box = (slice(max(0, ys.min() - pad), ys.max() + pad + 1),
                   slice(max(0, xs.min() - pad), xs.max() + pad + 1))
            inside = between[box]
            part_colour[box][inside] = normalized_blur(p[box], part[box].astype(np.float32),
                                                       float(k), inside)[0]
            gap |= between
    if not gap.any():
        return gap
    # Its colour must be a block's average of the backdrop and those parts: on the chroma
    # segment between them (a belt of the backdrop's luma between dark legs is not).
    P, B, F = p[gap], plate[gap], part_colour[gap]
    dc, vc = (P - B) @ despill.CHROMA.T, (F - B) @ despill.CHROMA.T
    share = np.clip(dot(dc, vc) / np.maximum(norm2(vc), 1e-6), 0.0, 1.0)
    off = np.sqrt(norm2(dc - share[:, None] * vc))
    ok = (off <= THIN_GAP_CHROMA + noise) & (share >= THIN_GAP_SHARE) & (
        share <= unblur.UNBLUR_SHARE)
    # Nor is a colour near a portrait colour, or, where the silhouette moved, mostly a
    # portrait colour mixed with the backdrop (a motion-blurred blade between its ink
    # outlines; a gap between moving strands reads as mostly backdrop).
    ok &= despill.nearest(P, reference) > unblur.UNBLUR_KEEP
    if moving is not None:
        swept = ok & moving[gap]
        if swept.any():
            mixed, _, t = unblur.blurred_mix(P[swept], B[swept], reference, noise,
                                             unblur.UNBLUR_SHARE)
            ok[swept] = ~(mixed & (t >= THIN_GAP_BLUR))
    gap[gap] = ok
    return gap


def filled_gaps(fg: np.ndarray, raw: np.ndarray, r: int) -> np.ndarray:
    """(H, W) uint8 1 where the mask filled a hole the key saw as backdrop that is wider
    than the soft edge (a gap between arm and body, not a green shirt's speck)."""
    holes = ((fg > 0) & (raw == 0)).astype(np.uint8)
    if not holes.any():
        return np.zeros_like(fg)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    wide = stats[:, cv2.CC_STAT_AREA] >= (2 * r + 1) ** 2
    wide[0] = False
    return wide[labels].astype(np.uint8)


def _open_slivers(p: np.ndarray, plate: np.ndarray, raw: np.ndarray, fg: np.ndarray,
                  kernel: np.ndarray, threshold: float) -> np.ndarray:
    """Filled holes that are backdrop seen through the character (the gap between two
    legs) open again: their colour is clearly nearer the backdrop than the character's
    colour nearby is. A green shirt's sub-threshold specks stay filled: the shirt's own
    colour is near the backdrop too, so they are not clearly nearer it."""
    hole = (fg > 0) & (raw == 0)
    if not hole.any():
        return fg
    ys, xs = np.nonzero(hole)
    pad = 4 * kernel.shape[0]
    y0, y1 = max(0, ys.min() - pad), ys.max() + pad + 1
    x0, x1 = max(0, xs.min() - pad), xs.max() + pad + 1
    core = cv2.erode(raw[y0:y1, x0:x1], kernel).astype(np.float32)
    hb = hole[y0:y1, x0:x1]
    F, support = normalized_blur(p[y0:y1, x0:x1], core, 2.0 * kernel.shape[0], hb)
    index = np.flatnonzero(hb)
    P, B = gather(p[y0:y1, x0:x1], index), gather(plate[y0:y1, x0:x1], index)
    far = norm2(F - B) > (3 * threshold) ** 2  # the part is clearly not backdrop
    near_b = colour_distance(P, B) < SLIVER_DISTANCE * threshold
    seen_through = (support > 1e-3) & far & (despill.line_share(P, B, F) < SLIVER_SHARE) & near_b
    out = fg.copy()
    out[ys[seen_through], xs[seen_through]] = 0
    return out

