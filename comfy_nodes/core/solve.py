"""Each zone pixel un-mixed (`solve`): the candidate colour that explains it best and its
share, the colour with the backdrop removed (by luma where 4:2:0 smeared the chroma, and a
limiter on the key channel relative to the chosen colour, so a green shirt keeps its
green), and on outlined art the mix of a part and its ink (`ink_mix`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import despill, unblur
from .backdrop import KeyModel
from .blur import normalized_blur
from .channels import key_excess
from .despill import LUMA, LUMA_SEPARATION, RIM_SPILL_COST, SPILL_COST, unmix
from .edgezone import CHROMA_SMEAR, Edge

EXTEND_SLACK = 12.0  # levels: how much worse the inner colour may explain a rim pixel
# ... and how much more of the key it may carry than the chosen colour, unless it is near a
# portrait colour (a blue shirt's own blue). Measured with the portrait: pale strands on a
# blue screen +8.3 -> +6.0, a small ranger's bow +6.2 -> +4.2; no fixture or trial clip of
# 144 rose by over 0.5 (4 levels did as well; without the portrait test it over-despilled
# a blue shirt on blue, +1.7 -> -7.6).
EXTEND_EXCESS = 8.0
# After un-mixing, the key channel's excess over the other two may exceed the chosen
# colour's own excess by this much (H.264's 4:2:0 colour puts edge pixels off the mix line).
EXCESS_SLACK = 2.0
# ... and, where 4:2:0 smeared the colour, fall below it by at most this much: there the
# RGB un-mixing divides an off-line colour by a small share. Measured: an ink line (34, 28,
# 40) on a blue screen, its luma too near the backdrop's to read the share from, came out
# (51, 40, 4); the ink-outlined hero on blue went from edge -9.3 to -6.2, and the other 70
# clips of the fixtures and trials moved by at most +0.7.
EXCESS_FLOOR = 12.0


class Solved(NamedTuple):
    """The zone's pixels un-mixed (M rows)."""

    t: np.ndarray  # (M,) the share of character
    F: np.ndarray  # (M, 3) the chosen character colour
    Fp: np.ndarray  # (M, 3) the pixel's colour with the backdrop removed
    blurred: np.ndarray  # (M,) bool: more backdrop than the wrap allows, a translucent part


def solve(edge: Edge, C: np.ndarray, prior: np.ndarray, key: KeyModel,
          ref: np.ndarray | None) -> Solved:
    """Each zone pixel un-mixed against its candidates C (M, K, 3) at their prior costs
    ((K,) or (M, K))."""
    c = key.channel
    P, B, rim, smeared = edge.P, edge.B, edge.rim, edge.smeared
    cap = edge.cap
    # On the rim some backdrop is expected (antialiasing): there the fit weighs more.
    spill = np.where(rim, RIM_SPILL_COST, SPILL_COST).astype(np.float32)
    t, F = unmix(P, B, C, cap, 2.0 * key.noise + 4.0, prior, smeared, edge.translucent, spill)
    blurred = ~rim & ((1 - t) > cap + 0.02)
    cap = np.maximum(cap, 1 - t)
    Fp = B + (P - B) / np.maximum(t, 0.05)[:, None]
    # Where smeared, the mix share comes from luma where the colours differ in it, and the
    # colour is the chosen F's at the un-mixed luma; F itself is taken from the nearest
    # un-mixed pixels just inside (edge extension): the same part, whose chroma is the
    # pixel's own.
    inner = ~smeared & (edge.depth <= edge.r + CHROMA_SMEAR + 2)
    if inner.any():
        F, cap = _extend_inward(edge, F, Fp, cap, inner, ref, c)
    yp, yb, yf = P @ LUMA, B @ LUMA, F @ LUMA
    by_luma = smeared & (np.abs(yf - yb) > LUMA_SEPARATION)
    t_y = np.clip((yp - yb) / np.where(by_luma, yf - yb, 1.0), 1 - cap, 1.0)
    t = np.where(by_luma, t_y, t)
    y_un = yb + (yp - yb) / np.maximum(t, 0.05)
    Fp = np.where(by_luma[:, None], F + (y_un - yf)[:, None], Fp)
    # The key channel may not exceed the other two by more than the chosen colour's own
    # excess (a green shirt's edge stays green, a red cape's does not), nor, where smeared,
    # fall far below it.
    own = key_excess(F, c)
    o = [i for i in range(3) if i != c]
    others = np.maximum(Fp[:, o[0]], Fp[:, o[1]])
    Fp[:, c] = np.minimum(Fp[:, c], others + own + EXCESS_SLACK)
    Fp[:, c] = np.where(smeared, np.maximum(Fp[:, c], others + own - EXCESS_FLOOR), Fp[:, c])
    return Solved(t, F, Fp, blurred)


# Outlined art: a rim pixel that the chosen colour and the ink together explain this many
# levels better than the chosen colour alone is their mix (see ink_mix).
INK_MIX_GAIN = 8.0


def ink_mix(edge: Edge, solved: Solved, ink: np.ndarray) -> Solved:
    """On outlined art the rim holds the antialiased boundary between the ink line and the
    part inside it, under light wrap: ink, part and backdrop, a mix no one candidate
    explains. A pale bone's grey boundary on a blue screen was read as bone at 35 %, and
    the silhouette came out a pixel thin all round. Where the chosen colour and the ink
    (despill.two_mix) fit INK_MIX_GAIN levels better than the colour alone, the pixel's
    share of character is the two shares' sum, its colour their blend. Measured (IoU,
    edge): an independent trial's ink skeleton running on blue 0.846 -> 0.874, an ink staff
    strike on blue 0.962 -> 0.975 (-7.3 -> -4.7); the fixtures' ink hurt on blue 0.954 ->
    0.969 (-5.9 -> -3.6) and ink run 0.976 -> 0.981 (-5.9 -> -4.2); no clip without an
    outline moves (the step needs the portrait's ink)."""
    F = solved.F
    a, o, fit, separable = (v[:, 0] for v in despill.two_mix(edge.P, edge.B, F[:, None], ink))
    alone = despill.line_residual(edge.P, edge.B, F)
    mixed = (edge.rim & separable & (a > 0.05) & (o > 0.05)
             & (fit < alone - INK_MIX_GAIN))
    if not mixed.any():
        return solved
    share = np.maximum(a + o, 1e-3)
    blend = (a[:, None] * F + o[:, None] * ink) / share[:, None]
    return solved._replace(t=np.where(mixed, np.maximum(solved.t, share), solved.t),
                           Fp=np.where(mixed[:, None], blend, solved.Fp))


def _extend_inward(edge: Edge, F: np.ndarray, Fp: np.ndarray, cap: np.ndarray,
                   inner: np.ndarray, ref: np.ndarray | None,
                   c: int) -> tuple[np.ndarray, np.ndarray]:
    """(F, cap) where smeared pixels take the colour of the un-mixed pixels just inside
    (inner, (M,) bool), where that colour explains the pixel about as well as the chosen
    one: an ink line drawn on the edge itself keeps its own colour. With the portrait (ref),
    not where that colour is spilled: more of key channel c than the chosen colour's (by
    EXTEND_EXCESS) and near no portrait colour. On a thin part the pixels just inside are
    within the wrap too, and their un-mixing is capped: pale strands on a blue screen took
    (215, 203, 155) from them against a chosen (245, 237, 132)."""
    P, B, zb = edge.P, edge.B, edge.mask
    img = np.zeros((*zb.shape, 3), np.float32)
    wgt = np.zeros(zb.shape, np.float32)
    zy, zx = np.nonzero(zb)
    img[zy[inner], zx[inner]] = Fp[inner]
    wgt[zy[inner], zx[inner]] = 1.0
    F2, near_sup = normalized_blur(img, wgt, 1.0 + CHROMA_SMEAR, zb)
    use = edge.smeared & (near_sup > 0.02) & (
        despill.line_residual(P, B, F2) <= despill.line_residual(P, B, F) + EXTEND_SLACK)
    if ref is not None:
        spilled = (key_excess(F2, c) > key_excess(F, c) + EXTEND_EXCESS) & (
            despill.nearest(F2, ref) > unblur.UNBLUR_KEEP)
        use &= ~spilled
    return np.where(use[:, None], F2, F), np.where(use, 1.0, cap)
