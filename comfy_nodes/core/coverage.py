"""The alpha of the zone's pixels (`zone_alpha`): the rim's coverage with the light wrap
divided out (`rim_coverage`, the wrap read on the opaque rings nearby), parts blurred by
motion translucent (`blurred_coverage`), light outlines cleared (core/outline.py), and
faint halos dropped (defringe, FAINT_ALPHA).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import outline
from .blur import normalized_blur
from .edgezone import WRAP_AT_RIM, Edge
from .quantiles import median
from .solve import Solved

# The most wrap the rim's alpha is divided out of is WRAP_AT_RIM (core/edgezone.py); where
# the silhouette moved, this: there the rings inside the rim may be a blur's ramp, not
# a wrap fading inward, and a blur wider than the frame's motion on a thin limb leaves
# its rim and rings at one share (35-45 % coverage read as 55-70 % when divided by 35 %).
# Measured (matte IoU): our runs blurred over 1-1.5 frames +0.007-0.012, most fixtures
# +0.001-0.006, an independent trial's thin-limbed runs +0.007-0.017 and spear thrust
# 0.945 -> 0.950; a real-art green shirt 0.975 -> 0.973 and blue jeans walking on blue
# 0.947 -> 0.944 (their moving rims do carry a wrap). 10 % lost more (the green shirt
# 0.970), 30 % gained half as much.
MOVING_RIM_WRAP = 0.2
# Past the rim the wrap's cap lets an opaque pixel carry up to MAX_WRAP of backdrop, so a
# pixel it explains is taken for opaque. That holds where an opaque part lies for the wrap
# to fade into; where the silhouette moved and the zone past the rim near a pixel reads
# under this share of character on average, none does: a blur's ramp or loose strands,
# whose pixels are read as the rim's are (their share with the moving rim's wrap, at most
# MOVING_RIM_WRAP, divided out; their bare share instead: 171 passing, the cape below
# 0.946). Measured (matte IoU, 198 trial clips): 170 -> 172 passing, none newly failing;
# a mane of 70 sub-pixel strands 0.945 -> 0.955 (held-out trial 22: its strands came out
# 0.9 where the truth is 0.34), a denim run on blue 0.9499 -> 0.9504, a blurred axe chop
# 0.936 -> 0.947, a white
# swordswoman's knock-back 0.932 -> 0.942; the largest losses a dark knight whose darks
# the model lifted toward the key (0.977 -> 0.972) and a sprint's cape (0.953 -> 0.950).
# Fixtures -0.001 .. +0.010 (a ghosted walk). At 0.7: the fixtures' mean alpha error
# where the truth is partial 37.3 -> 35.8 levels, opaque pixels' mean deficit 1.23 ->
# 1.26 levels, but the cape 0.948 (failing); ungated, opaque limbs under a strong wrap
# lost opacity (the deficit 1.23 -> 1.64, a shaded green shirt 0.959 -> 0.956).
RAMP_SHARE = 0.6


# Defringe: a pixel this faint (alpha) is backdrop noise, not character.
FAINT_ALPHA = 0.2


def zone_alpha(edge: Edge, solved: Solved, local: np.ndarray, defringe: bool,
               ref: np.ndarray | None, noise: float, depth: np.ndarray,
               light_ink: bool = False) -> tuple[np.ndarray, np.ndarray, bool]:
    """(alpha (M,), colour (M, 3), whether the frame is light-outlined) of the zone pixels:
    the rim's share of character, opaque deeper but where a part is blurred. local (M, 3):
    the part's own colour nearby, NaN where none is near; depth: the silhouette's depth
    over the zone's box (which way its edge faces: a light outline runs all round).
    light_ink: the portrait is outlined in a light colour (Reference.light_ink), so a light
    outline in the frame is the art's, kept: the frame is never read as light-outlined."""
    rim, dep, r = edge.rim, edge.depth, edge.r
    t, Fp = solved.t, solved.Fp
    has_f = ~np.isnan(local[:, 0])
    interior = np.where(has_f[:, None], local, solved.F)
    light = has_f & outline.fringe(edge.P, edge.B, interior)

    def facing() -> np.ndarray:  # two Sobels of the box: only where the share asks
        rows, cols = np.nonzero(edge.mask)
        return outline.edge_facing(depth, (rows, cols))

    light_outlined = (defringe and not light_ink
                      and outline.is_outlined(light, rim & (dep >= 1), facing))
    # The rim carries both a fractional alpha and the wrap: the wrap there is judged from
    # the opaque rings just inside it nearby (a Gaussian twice the rim's width: the rings
    # of the same part), and grows outward as it falls inward.
    nearby = _nearby(edge.mask, max(2.0 * r, 4.0))
    wrap = _rim_wrap(t, dep, r, light_outlined, solved.blurred, edge.moved, nearby)
    a = np.where(rim, rim_coverage(t, wrap),
                 np.where(solved.blurred, blurred_coverage(t, wrap, edge, solved.blurred,
                                                           light_outlined), 1.0))
    # Past the rim, where the silhouette moved and no opaque part lies near (RAMP_SHARE),
    # the pixels the wrap's cap took for opaque are read as the rim is.
    ramp = edge.moved & ~rim & ~solved.blurred
    if ramp.any():
        share, support = nearby(t, ~rim)
        ramp &= (support > NEAR_SUPPORT) & (share < RAMP_SHARE)
        a = np.where(ramp, rim_coverage(t, wrap), a)
    if light_outlined:
        a, Fp = outline.rim_alpha(edge.P, edge.B, interior, light, rim, dep, a, Fp, ref, noise)
    if defringe:
        a = np.where(a < FAINT_ALPHA, 0.0, a)  # faint halos
    return a, Fp, light_outlined


def rim_coverage(t: np.ndarray, wrap: np.ndarray) -> np.ndarray:
    """(M,) the coverage of rim pixels whose share of character reads t (M,) under a wrap
    of `wrap` (M,) (its share in an opaque pixel there): halfway between the two ways the
    wrap meets partial coverage. Where it mixes the covered part with the backdrop (lens
    glare; a wrap applied to the character before it goes over the backdrop), t = a(1-w).
    Where it is weighted by the coverage as well (a wrap composited after the over, as
    four of six independent trial generators draw it), t = a(1-w a), whose root is taken
    in its stable form 2t / (1 + sqrt(1 - 4wt)). A pixel's colour cannot tell them apart;
    halfway halves the error on either. Measured (matte IoU) against dividing by 1-w
    alone: trials 12-17, 16 failing clips -> 15 (an olive run 0.945 -> 0.952 and a walk
    blurred over 1.3 frames 0.948 -> 0.951 pass, a blue robe on blue 0.951 -> 0.949
    fails); the coverage-weighted root alone: 18 (runs on a coverage-free wrap fall
    0.005-0.012). Fixtures: all pass, none moved by over 0.002."""
    lerped = t / (1.0 - wrap)
    weighted = 2.0 * t / (1.0 + np.sqrt(np.clip(1.0 - 4.0 * wrap * t, 0.0, None)))
    return np.clip(0.5 * (lerped + weighted), 0.0, 1.0)


def blurred_coverage(t: np.ndarray, wrap: np.ndarray, edge: Edge, blurred: np.ndarray,
                     light_outlined: bool) -> np.ndarray:
    """(M,) the coverage of zone pixels blurred by motion (translucent all through) whose
    share of character reads t (M,). The wrap mixes the backdrop into them as into the
    rim: a chop's fan at 55 % coverage under a 25 % wrap reads 41-47 %, under the half
    that the sheet keeps. It is divided out as on the rim (rim_coverage), at the wrap the
    opaque rings near the pixel carry (`wrap`, from _rim_wrap) or, where none is near (a
    fan swept away from the body), the frame's: the median of its second ring, at most
    MOVING_RIM_WRAP either way; the bare t where no wrap is read (a light-outlined frame,
    or no opaque second ring). Measured (matte IoU, trials 12-25, 247 clips): 224 -> 227
    passing (a blurred axe chop on blue 0.947 -> 0.953, a white mage's staff 0.950 ->
    0.952, a pale runner on blue's edge +6.5 -> +5.9 as its blurred limbs' rims come out
    opaque enough to be despilled), mean +0.0006; the largest losses a ghosted slime's
    hops (flagged SMEAR) 0.970 -> 0.965 and a mage on blue 0.967 -> 0.965. Taking t bare
    (before): the truth's fans at 128-160 came out 84-124."""
    # The frame's second ring, without pixels carrying more backdrop than the wrap puts
    # there (a blurred part's shallow ring, which the wrap's cap lets through as opaque):
    # they tell coverage. Counted as a 35 % wrap, a fan's own ring made 0.48 read 0.57
    # where no wrap lay anywhere. (_rim_wrap's nearby reading still counts them, clipped:
    # leaving them out there too lost two trial clips, a sprint's cape 0.954 -> 0.949.)
    ring2 = _opaque_ring(edge.depth, edge.r, blurred) & (1.0 - t <= WRAP_AT_RIM)
    if light_outlined or ring2.sum() <= 8:
        return t
    frames_wrap = float(median(np.clip(1.0 - t[ring2], 0.0, None)))
    near = np.where(wrap > 0, wrap, frames_wrap)
    return rim_coverage(t, np.minimum(near, MOVING_RIM_WRAP))


# The average of values (M,) over the zone pixels of a ring (M,) bool near each zone pixel:
# (average (M,), support (M,), the share of the neighbourhood the ring fills).
Nearby = Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]
NEAR_SUPPORT = 0.01  # a 1 px ring fills ~1/(2.5 sigma) of a Gaussian's weight


def _nearby(zone: np.ndarray, sigma: float) -> Nearby:
    """Nearby over the zone ((h, w) bool, its M pixels in row-major order) within a
    Gaussian of sigma px."""
    zy, zx = np.nonzero(zone)

    def average(values: np.ndarray, ring: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        img = np.zeros((*zone.shape, 1), np.float32)
        wgt = np.zeros(zone.shape, np.float32)
        img[zy[ring], zx[ring], 0] = values[ring]
        wgt[zy[ring], zx[ring]] = 1.0
        avg, support = normalized_blur(img, wgt, sigma, zone)
        return avg[:, 0], support

    return average


def _rim_wrap(t: np.ndarray, dep: np.ndarray, r: int, light_outlined: bool,
              blurred: np.ndarray, moved: np.ndarray, nearby: Nearby) -> np.ndarray:
    """(M,) the share of backdrop the wrap puts in an opaque pixel at each depth: the
    wrap seen on the two opaque rings just inside the rim near it (`nearby`), extended
    outward along the line through them (a wrap fades inward), at most WRAP_AT_RIM, and
    at most MOVING_RIM_WRAP where the silhouette moved (`moved`: the rings may be a blur).
    A ring's pixels that carry more backdrop than the wrap allows (`blurred`: a part
    blurred by motion, translucent all through) tell its coverage, not the wrap: they are
    left out, and where no opaque ring is near, there is none. Measured, against the
    ring's median over the whole frame: an independent trial's 20 clips, IoU +0.002 on
    average (a 720p wizard in a near-key robe +0.010, a pixel-art hurt +0.008), none
    worse by over 0.001; the fixtures' blurred attacks and skills +0.003."""
    ring2, ring3 = _opaque_ring(dep, r, blurred), _opaque_ring(dep, r + 1, blurred)
    if light_outlined or ring2.sum() <= 8:
        return np.zeros_like(t)
    seen = np.clip(1.0 - t, 0.0, WRAP_AT_RIM)
    w2, near2 = nearby(seen, ring2)
    w2 = np.where(near2 > NEAR_SUPPORT, w2, 0.0)
    w3 = w2
    if ring3.sum() > 8:
        w3, near3 = nearby(seen, ring3)
        w3 = np.where(near3 > NEAR_SUPPORT, np.minimum(w3, w2), w2)
    wrap = np.clip(w2 + (w2 - w3) * (r + 1 - dep), w2, WRAP_AT_RIM)
    return np.where(moved, np.minimum(wrap, MOVING_RIM_WRAP), wrap)


def _opaque_ring(dep: np.ndarray, inside: int, blurred: np.ndarray) -> np.ndarray:
    """(M,) bool: the zone pixels (depths dep (M,)) from `inside` to `inside` + 1 px deep
    that are not blurred by motion: where the wrap is read."""
    return (dep > inside) & (dep <= inside + 1) & ~blurred
