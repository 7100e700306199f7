"""Parts the backdrop shows through: those the portrait draws see-through (glass, wings, a
jelly: `drawn_see_through`) and foreign translucent colours the portrait lacks (a skill's
glow: `see_through`), un-mixed in place after the zone's alpha.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import despill, unblur
from .backdrop import KeyModel
from .channels import gather, key_excess, norm2, total
from .coverage import FAINT_ALPHA

# See-through parts (see_through): deeper than the wrap, a colour that keeps over this
# share of the backdrop's key excess and lies this many levels from every portrait colour
# (shaded or lit by 0.5-1.3) is the backdrop seen through a glow or glass. Measured on an
# independent trial's skill clips (a purple and a cyan glow at 15-40 % alpha over green):
# IoU 0.888 -> 0.905 and 0.898 -> 0.939; at 25 levels and a 0.3 share, a shaded green
# shirt's dark folds were taken for it (IoU 0.959 -> 0.953).
# A colour nearer the backdrop than any portrait colour (and UNBLUR_KEEP levels from them)
# counts as foreign too: a faint glow ring 15-20 % over a teal-green screen lay 37-45 levels
# from the backdrop and 44-52 from the portrait's dark teal.
# Where the silhouette moved (a flare, a kick's flash), the step reaches the edge too, and
# elsewhere it takes there what every reading finds faint (a still glow's band).
# Measured on a fifth independent generator's 20 clips: a kick's foot glow IoU 0.945 ->
# 0.960 -> 0.971, a mage's glow ring 0.889 -> 0.915 -> 0.946; no other clip or fixture
# moved by over 0.002 IoU.
SEE_THROUGH_SHARE = 0.4
SEE_THROUGH_FOREIGN = 50.0
# Within the wrap's reach a reading is taken under this alpha where the silhouette moved
# (the sheet's cut: a flare), under FAINT_ALPHA where it did not. This one threshold
# everywhere changed no trial-10 clip but took still rims: a walk on blue and a still
# idle -0.001 IoU, their edges +0.3 and +0.5 levels.
SEE_THROUGH_MOVED_ALPHA = 0.5


DRAWN_SEE_THROUGH_FIT = 14.0
DRAWN_SEE_THROUGH_SHARES = (0.05, 0.95)
# ... unless a shade of an opaque portrait colour explains it within this many levels of
# that fit (a jelly over green is greyish, 20 levels from an eye white's shade; a part
# seen through glass is its own colour, whitened, far from any mix with the backdrop).
DRAWN_SEE_THROUGH_MARGIN = 8.0


def drawn_see_through(p: np.ndarray, plate: np.ndarray, depth: np.ndarray, smear: int,
                      parts: np.ndarray, ref: np.ndarray | None, reach: int, defringe: bool,
                      alpha: np.ndarray, rgb: np.ndarray) -> None:
    """The parts the portrait draws see-through (parts (k, 3): straight colours): a pixel of
    the silhouette (depth > 0, depth (H, W) the distance inside it, or where the edge's
    un-mixing left alpha) that is such
    a colour c, shaded or lit by k, over the backdrop B (P - B = u*c - a*B, u = a*k: least
    squares for u and a) within DRAWN_SEE_THROUGH_FIT, a and k in range, and explained so
    clearly better than by a shade of an opaque portrait colour (ref,
    DRAWN_SEE_THROUGH_MARGIN: a part seen through glass is opaque in the sprite) or lying
    where most of the silhouette within `reach` px is read so (a jelly's rim over blue is
    as grey as an eye white) is un-mixed at that share, in place in alpha (H, W) and rgb
    (H, W, 3): the backdrop shows through the sprite there as through the portrait, where
    a glass dome, fairy wings or a jelly slime would be backdrop-tinted. Within `smear` px
    of the edge, where 4:2:0 averaged the chroma with the backdrop's outside, a pixel no
    such line explains is read by luma (unblur.luma_mix) and takes the part's colour."""
    # The silhouette too: a jelly as pale as the key, keyed out by the zone, is read again.
    idx = np.flatnonzero((depth.reshape(-1) > 0) | (alpha.reshape(-1) > 0))
    if not len(idx):
        return
    P, B = gather(p, idx), gather(plate, idx)
    D = P - B
    bb, bd = total(B * B), total(B * D)
    best = np.full(len(idx), DRAWN_SEE_THROUGH_FIT, np.float32)
    share = np.zeros(len(idx), np.float32)
    lo, hi = DRAWN_SEE_THROUGH_SHARES
    for c in parts:
        cc, cb, cd = float(c @ c), B @ c, D @ c
        det = cc * bb - cb * cb
        ok = det > 1e-3 * cc * bb  # c and B over 2 degrees apart: two lines, not one
        det = np.where(ok, det, 1.0)
        u = (bb * cd - cb * bd) / det
        a = (cb * cd - cc * bd) / det
        k = u / np.maximum(a, 1e-3)
        miss = np.sqrt(norm2(D - u[:, None] * c + a[:, None] * B))
        fits = (ok & (miss < best) & (a >= lo) & (a <= hi)
                & (k >= despill.SHADES[0]) & (k <= despill.SHADES[1]))
        best = np.where(fits, miss, best)
        share = np.where(fits, a, share)
    # The rim: 4:2:0 pulled its chroma toward the backdrop outside, off every such line
    # (a jelly's outer ring over blue read as a lit orange at a fifth, out of range, and
    # kept the zone's blue-grey). Its luma still tells the share; it is taken only where
    # most of the silhouette round it is read see-through by colour (an opaque body's rim
    # beside a glass helmet is no glass).
    rim = (share == 0) & (depth.reshape(-1)[idx] <= smear)
    by_luma = np.zeros(len(idx), bool)
    colour = np.zeros((len(idx), 3), np.float32)
    if rim.any():
        f, a, found = unblur.luma_mix(P[rim], B[rim], parts, 1.0 - lo)
        found &= (a >= lo) & (a <= hi)
        at = np.flatnonzero(rim)[found]
        share[at], colour[at], by_luma[at] = a[found], f[found], True
    took = share > 0
    plain = np.zeros(len(idx), bool)
    if ref is not None and len(ref):  # an opaque colour that explains it as well: opaque...
        plain = took & ~by_luma & (despill.shade_distance(P, ref)
                                   <= best + DRAWN_SEE_THROUGH_MARGIN)
    doubt = plain | by_luma
    if doubt.any():  # ... unless most of the silhouette round it is the see-through part
        seen = np.zeros(alpha.size, np.float32)
        seen[idx[took & ~doubt]] = 1
        inside = np.zeros(alpha.size, np.float32)
        inside[idx[~by_luma]] = 1  # (a wide band read by luma would outvote itself)
        size = (2 * reach + 1, 2 * reach + 1)
        near = (cv2.boxFilter(seen.reshape(alpha.shape), -1, size, normalize=False)
                / np.maximum(cv2.boxFilter(inside.reshape(alpha.shape), -1, size,
                                           normalize=False), 1))
        took &= ~doubt | (near.reshape(-1)[idx] > 0.5)
    if not took.any():
        return
    a, at = share[took], idx[took]
    F = np.where(by_luma[took][:, None], colour[took], B[took] + D[took] / a[:, None])
    if defringe:
        a = np.where(a < FAINT_ALPHA, 0.0, a)
    # Set, not capped as see_through's is: the zone read these pixels as a part's own
    # colour, opaque, or as the backdrop; the portrait says which part they are.
    alpha.reshape(-1)[at] = a
    rgb.reshape(-1, 3)[at] = np.clip(F + 0.5, 0, 255).astype(np.uint8)


def see_through(p: np.ndarray, plate: np.ndarray, depth: np.ndarray, reach: int,
                ref: np.ndarray, key: KeyModel, defringe: bool, moving: np.ndarray | None,
                alpha: np.ndarray, rgb: np.ndarray) -> None:
    """A translucent part (a skill's glow, glass): beyond the wrap's and 4:2:0's reach, a
    foreign colour (far from every portrait colour, shaded or lit, or nearer the backdrop
    than to any) that keeps much of the backdrop's key excess is the backdrop seen through
    something. It is un-mixed at the least alpha that leaves a colour (despill.least_alpha:
    a glow is a saturated colour), in place in alpha (H, W) and rgb (H, W, 3).
    Within the reach, where the zone's un-mixing reads the pixel, only a faint reading is
    taken (the least-alpha colour of a rim pixel would be a saturated fringe): under
    SEE_THROUGH_MOVED_ALPHA where the silhouette moved (moving, (H, W) bool: a flare),
    under FAINT_ALPHA elsewhere (a still glow's band, faint by every reading), and only of
    a colour that is no portrait colour blurred with the backdrop at FAINT_ALPHA or more
    (the zone reads those). Elsewhere the un-mixing of the zone (and opacity) stands."""
    idx = np.flatnonzero(depth > 0)
    if not len(idx):
        return
    c = key.channel
    P, B = gather(p, idx), gather(plate, idx)
    share = key_excess(P, c) / np.maximum(key_excess(B, c), 1.0)
    cand = np.flatnonzero(share > SEE_THROUGH_SHARE)
    if not len(cand):
        return
    P, B, at = P[cand], B[cand], idx[cand]
    near = despill.shade_distance(P, ref)
    foreign = (near > SEE_THROUGH_FOREIGN) | (
        near > np.maximum(np.sqrt(norm2(P - B)), unblur.UNBLUR_KEEP))
    P, B, at = P[foreign], B[foreign], at[foreign]
    a = despill.least_alpha(P, B)
    shallow = depth.reshape(-1)[at] <= reach
    if shallow.any():
        moved = np.zeros(len(at), bool) if moving is None else moving.reshape(-1)[at]
        ask = shallow & (a < np.where(moved, SEE_THROUGH_MOVED_ALPHA, FAINT_ALPHA))
        if ask.any():  # only the faint readings: un-blurring costs a fit per colour pair
            mixed, _, blur_share = unblur.blurred_mix(P[ask], B[ask], ref, key.noise, 1.0)
            ask[ask] = ~mixed | (blur_share < FAINT_ALPHA)
        keep = ~shallow | ask
        P, B, at, a = P[keep], B[keep], at[keep], a[keep]
    if not len(at):
        return
    F = B + (P - B) / np.maximum(a, 0.05)[:, None]
    flat_alpha = alpha.reshape(-1)
    if defringe:
        a = np.where(a < FAINT_ALPHA, 0.0, a)
    flat_alpha[at] = np.minimum(flat_alpha[at], a)
    rgb.reshape(-1, 3)[at] = np.clip(F + 0.5, 0, 255).astype(np.uint8)
