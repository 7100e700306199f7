"""Where a frame's pixels may be mixes with the backdrop: the light wrap's reach inside the
silhouette (`wrap_depth`), the soft rim's width in this frame (`soft_edge`), and the zone
the matte un-mixes (`edge_zone`: near the edge, wherever the colour is barely off the
backdrop, and parts blurred by motion, `blurred_parts`), as rows of an `Edge`.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import despill, unblur
from .backdrop import KeyModel
from .blur import normalized_blur, normalized_blurs
from .channels import gather, total
from .quantiles import median
from .silhouette import Silhouette


def wrap_depth(h: int, w: int) -> int:
    """How deep inside the silhouette light wrap may reach: 8 px at 448 px (models leave
    2-6 px; H.264's 4:2:0 colour smears another 1-2), scaled with the frame."""
    return max(4, round(min(h, w) / 56))


# The most backdrop a pixel 1 px inside may carry; the cap falls linearly to 0 at the wrap
# depth (models' wrap measured up to ~35 % at the edge).
MAX_WRAP = 0.6
CHROMA_SMEAR = 2
# The most wrap the rim's alpha is divided out of (its opacity is at least 1 - this).
WRAP_AT_RIM = 0.35


WEAK_DISTANCE = 3.0  # in thresholds: a pixel this close to the backdrop may be a mix


@dataclass(frozen=True)
class Edge:
    """The pixels that may be mixes with the backdrop (the zone), as (M,) rows, and where
    they lie. Arrays of shape (M, ...) are the zone's pixels in row-major order."""

    box: tuple[slice, slice]  # the zone's bounding box, with 2x the wrap's reach round it
    r: int  # the soft edge's width, px
    mask: np.ndarray  # (h, w) bool in the box: the zone
    P: np.ndarray  # (M, 3) the pixel's colour
    B: np.ndarray  # (M, 3) the backdrop behind it, as seen nearby
    depth: np.ndarray  # (M,) distance inside the silhouette (1 on its outer ring)
    rim: np.ndarray  # (M,) bool: the outer r px, which may be partly transparent
    smeared: np.ndarray  # (M,) bool: near enough the edge for 4:2:0 colour to be mixed
    translucent: np.ndarray  # (M,) bool: where a part may be blurred (moved, filled gaps,
    # a portrait colour, or where moved a worn one, blurred beyond the wrap: edge_zone)
    cap: np.ndarray  # (M,) the most backdrop the wrap may have put in an opaque pixel
    moved: np.ndarray  # (M,) bool: where the silhouette moved between frames


def soft_edge(distance: np.ndarray, depth: np.ndarray, r: int, wrap: int) -> int:
    """The soft edge's width in this frame: r (H.264's), or up to 2 px more where the rings
    just inside it are still mostly backdrop: more than any light wrap leaves in an opaque
    pixel (WRAP_AT_RIM), so they are partly covered (art upscaled with a soft edge).
    Each ring's share is its colour distance from the plate over that of the interior
    nearby. Measured on a small real-art mouse whose edge is ~4 px soft: the ring 3 px in
    had a median share of 0.55 and true alpha 0.65, and was taken for opaque."""
    inside = (depth > r + 3).astype(np.float32)
    rings = (depth > r) & (depth <= r + 2)
    if inside.sum() < 64 or not rings.any():
        return r
    ((interior, support),) = normalized_blurs(distance[..., None], inside, (float(wrap),),
                                              rings)
    d, dep = distance[rings], depth[rings]
    for k in (r + 1, r + 2):
        ring = (dep > k - 1) & (dep <= k) & (support > 0.05)
        if ring.sum() < 16:
            break
        if median(d[ring] / np.maximum(interior[ring, 0], 1e-3)) >= 1.0 - WRAP_AT_RIM:
            break
        r = k
    return r


def this_frames_plate(p: np.ndarray, plate: np.ndarray, sil: Silhouette) -> np.ndarray:
    """The plate scaled to this frame's backdrop brightness (models flicker), as seen round
    the character, its contact shadow left out."""
    around = (cv2.dilate(sil.outer, sil.kernel, iterations=3) > 0) & (sil.outer == 0)
    around &= ~sil.shadow
    if around.sum() <= 50:
        return plate
    gain = float(median(total(p[around]) / np.maximum(total(plate[around]), 1.0)))
    return plate * float(np.clip(gain, 0.8, 1.25))


def edge_zone(p: np.ndarray, plate: np.ndarray, sil: Silhouette, depth: np.ndarray,
              r: int, wrap: int, key: KeyModel, ref: np.ndarray | None,
              moving: np.ndarray | None, known: np.ndarray | None) -> Edge:
    """Near the edge, or anywhere the colour is barely off the backdrop (a gap between
    limbs, a motion-blurred part): the pixels that may be a mix to un-mix. r: the rim's
    width in this frame (soft_edge); known: the portrait's colours and those the frame
    wears that it lacks (worn_colours), None without the portrait."""
    h, w = depth.shape
    outer = sil.outer
    weak = sil.distance < WEAK_DISTANCE * key.threshold
    zone = (outer > 0) & ((depth <= wrap) | weak)
    deeper = np.zeros_like(zone)
    if ref is not None and known is not None:
        # Deeper: a part blurred all through (a fast arm), whose colour is a portrait
        # colour mixed with the backdrop: where the silhouette moved, at under
        # UNBLUR_SHARE of it, or a colour the frame wears and the portrait lacks (a hit
        # flash's tint: worn_colours); where it did not (a blur wider than the frame's
        # motion), by blurred_parts' tests (no shade of a portrait colour, no boundary
        # of two).
        deeper = (outer > 0) & ~zone
        if deeper.any():
            at = np.flatnonzero(deeper)
            Pd, Bd = gather(p, at), gather(plate, at)
            was_moving = np.zeros(len(at), bool) if moving is None else gather(moving, at)
            blurred = np.zeros(len(at), bool)
            if was_moving.any():
                blurred[was_moving] = unblur.blurred_mix(
                    Pd[was_moving], Bd[was_moving], known, key.noise, unblur.UNBLUR_SHARE)[0]
            still = ~was_moving
            if still.any():
                blurred[still] = blurred_parts(Pd[still], Bd[still],
                                               np.zeros(int(still.sum()), np.float32), ref,
                                               key.noise)
            deeper.reshape(-1)[at] = blurred
            zone |= deeper
    ys, xs = np.nonzero(zone)
    y0, y1 = max(0, ys.min() - 2 * wrap), min(h, ys.max() + 2 * wrap + 1)
    x0, x1 = max(0, xs.min() - 2 * wrap), min(w, xs.max() + 2 * wrap + 1)
    box = (slice(y0, y1), slice(x0, x1))
    zb = zone[box]
    # The zone's pixels by flat index in the whole arrays (channels.gather): the same
    # pixels in the same order as zone[box], without copying the box of each array.
    index = np.flatnonzero(zone)
    # The backdrop behind each edge pixel, from the backdrop seen nearby: it carries the
    # contact shadow and this frame's flicker, which the clip-wide plate cannot.
    seen = (cv2.dilate(outer[box], sil.kernel, iterations=2) == 0).astype(np.float32)
    b_near, b_support = normalized_blur(p[box], seen, float(wrap), zb)
    near_ok = (b_support > 0.05)[:, None]
    P, B = gather(p, index), np.where(near_ok, b_near, gather(plate, index))
    dep = gather(depth, index)
    # The outer r px of the mask (and the band outside it) may be partly transparent
    # (antialiasing, 4:2:0 colour): any share of backdrop there. Deeper, the pixels are
    # opaque and carry at most the wrap, which fades inward.
    rim = dep <= r
    cap = np.where(rim, 1.0, MAX_WRAP * np.clip(1 - (dep - r) / (wrap - r + 1), 0, 1))
    cap = np.where(gather(weak, index) & ~rim, MAX_WRAP, cap)
    # Near the edge, 4:2:0 colour mixes each pixel's chroma with its neighbours' (backdrop
    # included): only luma is the pixel's own. H.264 spreads chroma 2 px from where it
    # belongs, whatever the frame size.
    smeared = dep <= r + CHROMA_SMEAR
    # Translucent where the silhouette moved (a blurred edge or limb: the zone there is
    # the wrap's reach, and deeper only a blur of a portrait colour or of one the frame
    # wears), and in gaps the mask
    # filled that are wider than a speck (between hair strands): elsewhere a
    # backdrop-like colour is the part's own (a green shirt).
    moved = np.zeros(len(index), bool) if moving is None else gather(moving, index)
    translucent = ~rim & ((gather(sil.gaps, index) > 0) | moved | gather(deeper, index))
    if ref is not None:
        # ... and within the wrap's reach, a portrait colour blurred with more backdrop
        # than the wrap leaves there.
        ask = np.flatnonzero(~rim & ~translucent)
        if len(ask):
            translucent[ask] = blurred_parts(P[ask], B[ask], cap[ask], ref, key.noise)
    return Edge(box, r, zb, P, B, dep, rim, smeared, translucent, cap, moved)


# A part is blurred where a portrait colour mixed with the backdrop explains a pixel at this
# much less character than the wrap's cap leaves.
BLUR_MARGIN = 0.1


def blurred_parts(P: np.ndarray, B: np.ndarray, cap: np.ndarray, ref: np.ndarray,
                  noise: float) -> np.ndarray:
    """(M,) bool: pixels P (M, 3) over backdrop B (M, 3) that are a portrait colour
    blurred with the backdrop, beyond the wrap's cap (M,) by BLUR_MARGIN; not a portrait
    colour shaded or lit (the mix line must explain the pixel NEAR_MIX_CLEARER levels
    better than any shade: a lit part is no blur of another colour); and no boundary of
    two portrait colours. A part blurred by motion wider than the frame moved it, where the
    silhouette did not move. Only pixels off every shade by NEAR_MIX_CLEARER are un-mixed
    (most of a silhouette is its portrait's colours, shaded: un-mixing each pixel against
    every portrait colour cost 0.15 s and 73 MiB per 100 000 pixels).
    Measured (edge excess, with the near-mix colours of unblur.NEAR_MIX_SHARE): an
    independent trial's 16 fps sprint whose red cape is blurred 70 px +7.7 -> +6.0; a pale
    runner on blue +12.4 -> +8.3, an ink barbarian on blue +9.0 -> +7.4; our ghosted walk
    +11.3 -> +4.9. Without the two-parts test a shaded green shirt's boundary with a skin
    arm went (holes 1.6 -> 2.1 %)."""
    out = np.zeros(len(P), bool)
    shade = despill.shade_distance(P, ref)
    ask = np.flatnonzero(shade > unblur.NEAR_MIX_CLEARER)
    if not len(ask):
        return out
    P, B, shade = P[ask], B[ask], shade[ask]
    mixed, F, share = unblur.blurred_mix(P, B, ref, noise, 1.0)
    found = (mixed & (share < 1.0 - cap[ask] - BLUR_MARGIN)
             & (shade > despill.line_residual(P, B, F) + unblur.NEAR_MIX_CLEARER))
    if found.any():
        found[found] = ~unblur.between_parts(P[found], B[found], F[found], ref)
    out[ask] = found
    return out
