"""The colours the model drew the character in, read from the clip beside its portrait's.

A video model's first frame is its drawing of the portrait, and over the clip it may drift
from it: a part drawn in another colour (a green shirt pushed nearer the key) would read,
against the portrait's colours alone, as the backdrop seen through glass (matte's
see-through step) and be keyed out. `drawn_reference` adds those colours to the portrait's
reference: the first frame's (opening_colours), and those the clip's colours drift to,
step by step from them (drifted_colours). Not for a portrait with see-through parts: the
clip shows those over the backdrop, a colour of no part.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from . import despill, silhouette
from .backdrop import KeyModel
from .channels import norm2
from .matte import CHROMA_SMEAR, SEE_THROUGH_SHARE, WORN_DISTANCE, clamp_box, wrap_depth

# A colour over this share of the interior beyond the spill's reach, where the next frame
# has the same colour, WORN_DISTANCE from every known colour, is one the model drew.
OPENING_SHARE = 0.05
# Drift is followed on the reduced frames every this many frames: a colour drifting over
# a second moves a few levels a step, well within WORN_DISTANCE.
DRIFT_STEP = 4
# Fewer interior pixels than this tell no colour: a palette of PALETTE_SIZE over them would
# be the noise's.
MIN_PIXELS = 50


def drawn_reference(reference: despill.Reference, frames: np.ndarray, small: np.ndarray,
                    masks: np.ndarray, key: KeyModel,
                    box: tuple[int, int, int, int] | None = None) -> despill.Reference:
    """The portrait's reference with the colours the model drew the character in that the
    portrait lacks: those of the first frame (frames (N, H, W, 3) at full resolution, N >=
    1; box: where the character is in it, as matte.refine's) and those the clip's drift to
    (small (N', h, w, 3): the reduced frames, and masks (N', h, w) their coarse masks;
    key: the backdrop at full size). As it is where the portrait has see-through parts."""
    if reference.see_through:
        return reference
    first = opening_colours(frames[0], frames[min(1, len(frames) - 1)], key.at(0),
                            reference.palette, box)
    known = np.concatenate([reference.palette, first])
    return reference.wearing(np.concatenate(
        [first, drifted_colours(small, masks, key, known, frames.shape[1:3])]))


def _interior_colours(p: np.ndarray, nxt: np.ndarray, inside: np.ndarray,
                      threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(colours (k, 3), shares (k,)): the main colours of p (H, W, 3) float32 where inside
    and unchanged in the next frame nxt (by under the key's threshold: noise aside)."""
    still = norm2(p - nxt.astype(np.float32)) < threshold ** 2
    px = p[inside & still]
    if len(px) < MIN_PIXELS:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32)
    pal = despill.palette(px)
    _, which = despill.closest(px[:: max(1, len(px) // despill.PALETTE_SAMPLES)], pal)
    return pal, (np.bincount(which, minlength=len(pal)) / len(which)).astype(np.float32)


def opening_colours(first: np.ndarray, second: np.ndarray, key: KeyModel, ref: np.ndarray,
                    box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """(k, 3) the colours the character wears in the clip's first frame (H, W, 3) uint8
    that its portrait's (ref, (K, 3)) lack (OPENING_SHARE), read where the spill cannot
    reach and the second frame shows the same colour (a limb's blur changes from frame
    to frame: its mix with the backdrop is no colour of the character's).
    box: where the character can be, as matte.refine's."""
    fh, fw = first.shape[:2]
    x0, y0, x1, y1 = clamp_box(box, fh, fw)
    if x1 <= x0 or y1 <= y0 or not len(ref):
        return np.zeros((0, 3), np.float32)
    p = first[y0:y1, x0:x1].astype(np.float32)
    plate = key.plate_at(fh, fw)[y0:y1, x0:x1]
    sil = silhouette.find(p, plate, key, (fh, fw), ref, None)
    depth = cv2.distanceTransform(sil.fg, cv2.DIST_L2, 5)
    pal, share = _interior_colours(p, second[y0:y1, x0:x1],
                                   depth > wrap_depth(fh, fw) + CHROMA_SMEAR + 1, key.threshold)
    far = despill.shade_distance(pal, ref) > WORN_DISTANCE
    return pal[far & (share >= OPENING_SHARE)]


def drifted_colours(small: np.ndarray, masks: np.ndarray, key: KeyModel, known: np.ndarray,
                    full: tuple[int, int]) -> np.ndarray:
    """(k, 3) colours the clip's character drifts to from its known colours (known (K, 3):
    the portrait's and the first frame's): every DRIFT_STEP frames of the reduced frames
    small (N, h, w, 3) uint8, within their masks (N, h, w) beyond the spill's reach (of
    frames of size full (H, W)), a main colour (OPENING_SHARE) WORN_DISTANCE from every
    known colour, keeping SEE_THROUGH_SHARE of the key's excess, that lies within
    WORN_DISTANCE of one the character wore the step before joins them. A flash appears at
    once, far from every colour worn before."""
    if not len(known) or len(small) < 2:
        return np.zeros((0, 3), np.float32)
    h, w = small.shape[1:3]
    reach = math.ceil(wrap_depth(*full) * h / full[0]) + 1  # in the reduced frames' pixels
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    threshold = key.threshold
    # Only a drift toward the key is followed: the one that would read as the backdrop seen
    # through glass (matte's see-through step). A glow ramping up over a few frames drifts
    # too, but away from the key (a pink orb over a lime screen: trial 13's cast IoU 0.961
    # -> 0.935 while it was followed).
    keyward = SEE_THROUGH_SHARE * float(despill.key_excess(key.key[None], key.channel)[0])

    def worn(t: int) -> tuple[np.ndarray, np.ndarray]:
        inside = cv2.erode(masks[t].astype(np.uint8), kernel).astype(bool)
        return _interior_colours(small[t].astype(np.float32), small[t + 1], inside, threshold)

    added: list[np.ndarray] = []
    pal, share = worn(0)
    before = pal[(share >= OPENING_SHARE) & (despill.shade_distance(pal, known) <= WORN_DISTANCE)]
    for t in range(DRIFT_STEP, len(small) - 1, DRIFT_STEP):
        pal, share = worn(t)
        main = share >= OPENING_SHARE
        if not main.any():
            continue
        known_now = np.concatenate([known, *added]) if added else known
        new = despill.shade_distance(pal, known_now) > WORN_DISTANCE
        new &= despill.key_excess(pal, key.channel) >= keyward
        followed = (despill.shade_distance(pal, before) <= WORN_DISTANCE if len(before)
                    else np.zeros(len(pal), bool))
        if (main & new & followed).any():
            added.append(pal[main & new & followed])
        before = pal[main & (~new | followed)]
    return np.concatenate(added) if added else np.zeros((0, 3), np.float32)
