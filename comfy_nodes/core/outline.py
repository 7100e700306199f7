"""Light outlines (描边): a lighter line drawn round the character, which a sprite must not
keep (it was drawn against the green, not the game's background).

A pixel brighter than both the backdrop and the character's colour nearby cannot be a mix
of the two: something light was drawn there. When such pixels run along most of the
silhouette's edge, the frame is outlined; its rim's alpha is then read against the interior
colour only, the outline's pixels go transparent, and (with the portrait) a pixel that is
part, outline and backdrop blurred together keeps the part's share. The dark ink outline
that a sprite keeps is the portrait's (reference.outline_colour); core/matte.py favours it.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from . import despill, unblur
from .blur import normalized_blur
from .despill import LUMA
from .quantiles import median

# Share of the silhouette's edge band that is a light fringe, above which the frame is
# outlined. Measured: outlined characters 0.24-0.55; without outline, light swords and
# all, at most 0.06.
FRINGE_SHARE = 0.15
FRINGE_LIGHTER = 25.0  # luma levels above both the backdrop and the interior nearby
# The least lit of the edge's four sides (facing right, down, left, up) over the most lit,
# at or under which the fringe is a light from one side, not an outline. Measured frame
# by frame: our light outlines 0.24-0.9; across 247 independent trial clips three had
# frames read as outlined: a mage relit from one side and a lady turning in a long dress
# 0.02-0.1 (outlined, their lit sides were cleared: IoU 0.924 and 0.978), and one frame
# of a knight 0.6.
FRINGE_BALANCE = 0.15
MIN_SIDE = 16  # edge pixels a side needs to be judged
# Where the light outline is blurred with a part and the backdrop (a running leg), a pixel
# whose un-mixing carries at least this share of the outline's colour, within this many
# levels (+ 2 noise), gets the part's share as its alpha: the outline's is transparent.
# Measured on three light-outlined clips: IoU 0.951 / 0.937 / 0.913 -> 0.966 / 0.962 / 0.955
# (a 12-level fit gave 0.964 / 0.956 / 0.950; 45 levels 0.967 / 0.965 / 0.958).
OUTLINE_MIX_SHARE = 0.1
OUTLINE_MIX_FIT = 30.0


def fringe(rgb: np.ndarray, plate: np.ndarray, interior: np.ndarray) -> np.ndarray:
    """Pixels brighter than both the backdrop and the character's colour nearby: no mix of
    the two can be, so something light was drawn there (an outline, 描边)."""
    return rgb @ LUMA > np.maximum(plate @ LUMA, interior @ LUMA) + FRINGE_LIGHTER


def is_outlined(light: np.ndarray, edge: np.ndarray,
                facing: Callable[[], np.ndarray]) -> bool:
    """Whether a frame is light-outlined: light (M,) fringe pixels, edge (M,) the pixels on
    the silhouette's edge; facing() gives the way each faces (edge_facing: asked only
    where the share passes). An outline runs along most of the silhouette; a light sword
    or a white glove touches it only here and there. And it runs all round: a rim light
    lights only the edges that face it (its least lit side at most FRINGE_BALANCE of its
    most lit), which are no outline. Where fewer than two sides have MIN_SIDE edge pixels
    (a speck of a character), the share alone tells."""
    if not edge.any() or light[edge].mean() <= FRINGE_SHARE:
        return False
    way = facing()
    sides = [light[side].mean() for side in (edge & (way == f) for f in range(4))
             if side.sum() >= MIN_SIDE]
    return len(sides) < 2 or min(sides) > FRINGE_BALANCE * max(sides)


def edge_facing(depth: np.ndarray, at: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """(M,) which way the silhouette's edge faces at pixels `at` (rows, columns) of depth
    (H, W) float32 (the distance inside it, 0 outside): 0 right, 1 down, 2 left, 3 up, by
    the quadrant of its outward normal, down the depth's slope: a 5 px Sobel, within 14
    degrees of the true normal on a disc's edge, 23 on ellipses squashed to 0.6 (3 px: 22
    degrees on a disc, off the stairs of the edge); -1 where the depth has no slope (a
    speck)."""
    gx = cv2.Sobel(depth, cv2.CV_32F, 1, 0, ksize=5)[at]
    gy = cv2.Sobel(depth, cv2.CV_32F, 0, 1, ksize=5)[at]
    angle = np.arctan2(-gy, -gx)
    way = ((angle + np.pi / 4) // (np.pi / 2)).astype(np.int64) % 4
    return np.where((gx == 0) & (gy == 0), -1, way)


def rim_alpha(P: np.ndarray, B: np.ndarray, interior: np.ndarray, light: np.ndarray,
              rim: np.ndarray, dep: np.ndarray, a: np.ndarray, Fp: np.ndarray,
              portrait: np.ndarray | None, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """(alpha, colour) of an outlined frame's edge pixels (M): the rim's share of character
    read against the interior colour nearby only (a backdrop-like palette colour would
    explain the outline's faint outer edge as half-opaque character); the outline itself,
    and what lies outside the mask (its antialiased edge), transparent."""
    a = np.where(rim, np.clip(despill.line_share(P, B, interior), 0, 1), a)
    a = np.where((light & rim) | (dep < 1), 0.0, a)
    # With the portrait, the outline blurred with a part (a running leg) too: a pixel of
    # none of the portrait's colours that is part, outline and backdrop. (Without it, a
    # green shirt's spilled edge read as such a mix.)
    if portrait is not None and (light & rim).sum() > 20:
        a, Fp = _unmix_outline(P, B, median(P[light & rim], 0), interior, portrait, a, Fp,
                               noise)
    return a, Fp


def _unmix_outline(P: np.ndarray, B: np.ndarray, fringe_colour: np.ndarray,
                  interior: np.ndarray,
                  portrait: np.ndarray, a: np.ndarray, Fp: np.ndarray,
                  noise: float) -> tuple[np.ndarray, np.ndarray]:
    """In a frame with a light outline (描边), edge pixels (M, 3) that are three-way mixes of
    a part (the interior nearby, or a portrait colour), the outline's colour and the
    backdrop B: (alpha, colour) with the part's share as alpha where that is lower than
    `a`. Not where the pixel is near a portrait colour (a green shirt's spilled edge is no
    blur), nor where the part nearby lies on the outline's line from the backdrop."""
    cands = np.concatenate([interior[:, None],
                            np.broadcast_to(portrait, (len(P), *portrait.shape))], 1)
    share, extra, resid, separable = despill.two_mix(P, B, cands, fringe_colour)
    best = np.argmin(resid, 1)
    rows = np.arange(len(P))
    share, extra, resid = share[rows, best], extra[rows, best], resid[rows, best]
    # Where the part nearby is coloured like the outline (a white glove, a silver blade),
    # their shares cannot be told apart: kept as they are.
    ambiguous = ~separable[:, 0]  # column 0: the interior nearby
    use = ((extra >= OUTLINE_MIX_SHARE) & (resid <= OUTLINE_MIX_FIT + 2 * noise) & (share < a)
           & ~ambiguous & (despill.nearest(P, portrait) > unblur.UNBLUR_KEEP))
    return (np.where(use, share, a),
            np.where(use[:, None], cands[rows, best], Fp))


def clear_ring(p: np.ndarray, plate: np.ndarray, fg: np.ndarray, gaps: np.ndarray,
               kernel: np.ndarray, r: int, alpha: np.ndarray) -> None:
    """In an outlined frame, alpha (H, W) set to 0 over the ring's whole width (a few
    pixels) where it is light against the interior colour just inside the silhouette,
    round the gaps the mask filled (between arm and body) too: the outline runs along them.
    p, plate: (H, W, 3) float32; fg, gaps: (H, W) uint8 (see core/silhouette.py)."""
    deep = cv2.erode(cv2.erode(fg & ~gaps, kernel), kernel)
    ring = (fg > 0) & (deep == 0)
    if not ring.any():
        return
    f_hat, support = normalized_blur(p, deep.astype(np.float32), 2.0 * r, ring)
    light = (support > 1e-3) & fringe(p[ring], plate[ring], f_hat)
    vals = alpha[ring]
    vals[light] = 0.0
    alpha[ring] = vals
