"""Despill: un-mixing the backdrop out of a character's pixels.

A pixel near the silhouette (light wrap, an antialiased or motion-blurred edge) is a convex
mix P = t*F + (1-t)*B of a character colour F and the backdrop B. Given candidate colours
for F (the nearby interior, the frame's palette, the portrait's: core/reference.py), `unmix`
picks the one that explains each pixel best and the share t; where H.264's 4:2:0 colour is
partly a neighbour's, `SmearedParts` judges by luma and by a chroma share near the luma's.
The matte (core/matte.py) decides where to un-mix, with which candidates, and what alpha
follows; parts blurred or thinner than the wrap's reach, whose every pixel is a mix, are
core/unblur.py's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .channels import dot, norm2

LUMA = np.array([0.299, 0.587, 0.114], np.float32)
# Spill explains a pixel only when it lies on the line from the backdrop to a character
# colour; un-mixing costs this many levels per unit of backdrop share removed, so an
# unspilled pixel that fits its own colour as well is left alone.
SPILL_COST = 12.0
# On the rim (antialiased, partly transparent) a share of backdrop is no evidence against a
# colour: it costs less there. Measured: a dark leg's rim next to a green shirt took the
# shirt's green at 12 (its line from the backdrop passed 2 levels from the pixel, the
# shirt's 6, but at a larger share).
RIM_SPILL_COST = 7.0

# Where the silhouette moved between the neighbouring frames, a part may be blurred by the
# motion, a mix with the backdrop at any share up to this: reading a pixel so costs this
# many levels per unit of backdrop beyond the wrap's cap.
TRANSLUCENT_COST = 12.0
MAX_BLUR = 0.95
# A colour from farther away (the neighbourhood, the palettes) must fit this many levels
# better than the nearest interior's colour to be chosen.
FAR_COST = 8.0

# Luma difference between the chosen colour and the backdrop above which the rim's mix
# share is read from luma.
LUMA_SEPARATION = 24.0


def unmix(P: np.ndarray, B: np.ndarray, cands: np.ndarray, cap: np.ndarray,
          min_sep: float, prior: np.ndarray | None = None,
          smeared: np.ndarray | None = None,
          translucent: np.ndarray | None = None,
          spill: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Light wrap and soft edges are convex mixes P = t*F + (1-t)*B of a character colour F
    and the backdrop B. For each pixel (M, 3) and its candidate colours (M, K, 3), pick
    the F whose line from B passes closest to P (plus SPILL_COST per unit of 1 - t), with
    1 - t at most `cap` (M,), plus `prior` levels per candidate ((K,), or per pixel
    (M, K): far colours cost more than near ones). `smeared` (M,) marks pixels whose
    colour H.264 mixed with their neighbours' (4:2:0): they are judged by SmearedParts.
    `translucent` (M,) marks pixels that may carry more backdrop than the cap, at
    TRANSLUCENT_COST per unit beyond it (a part blurred by motion is a mix with any
    share). `spill` (M,): the levels per unit of
    backdrop share per pixel, SPILL_COST where not given. Returns (t, F_chosen)."""
    v = cands - B[:, None]  # (M, K, 3)
    v2 = norm2(v)
    fits = _LineFits(P, B, v, v2, cands, smeared)
    t, resid = fits.at(cap)
    per_share = (np.full(len(P), SPILL_COST, np.float32) if spill is None else spill)[:, None]
    cost = resid + per_share * (1 - t)
    if translucent is not None and translucent.any():
        m = translucent
        t_x, resid_x = fits.at(np.full(int(m.sum()), MAX_BLUR), m)
        cost_x = resid_x + per_share[m] * (1 - t_x) + TRANSLUCENT_COST * np.maximum(
            (1 - t_x) - cap[m][:, None], 0.0)
        better = cost_x < cost[m]
        t[m] = np.where(better, t_x, t[m])
        cost[m] = np.where(better, cost_x, cost[m])
    cost = cost + (0.0 if prior is None else (prior if prior.ndim == 2 else prior[None]))
    cost = np.where(v2 > min_sep * min_sep, cost, np.inf)  # a backdrop-coloured F says nothing
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(P))
    ok = np.isfinite(cost[rows, best])
    t_best = np.where(ok, t[rows, best], 1.0)
    return t_best, np.where(ok[:, None], cands[rows, best], P)


class _LineFits:
    """unmix's fit of each pixel (M rows) on each candidate's line, up to the cap: the RGB
    line, or for `smeared` rows SmearedParts'. What does not depend on the cap is computed
    once, so the capped fit and the translucent rows' refit share it."""

    def __init__(self, P: np.ndarray, B: np.ndarray, v: np.ndarray, v2: np.ndarray,
                 cands: np.ndarray, smeared: np.ndarray | None):
        d = P - B
        self.dv = np.matmul(v, d[:, :, None])[..., 0]  # a batched matmul beats einsum here
        self.share = self.dv / np.maximum(v2, 1e-6)  # along the line, unclipped
        self.d2 = norm2(d)[:, None]
        self.v2 = v2
        self.smeared = smeared if smeared is not None and smeared.any() else None
        if self.smeared is not None:
            s = self.smeared
            self.luma = SmearedParts.of(P[s], B[s], cands[s], v[s])

    def at(self, cap: np.ndarray, rows: np.ndarray | None = None) -> tuple[
            np.ndarray, np.ndarray]:
        """(t, residual), each (M', K), of the rows given ((M,) bool; all by default),
        with 1 - t at most cap (M',)."""
        pick = (lambda a: a) if rows is None else (lambda a: a[rows])
        dv, v2 = pick(self.dv), pick(self.v2)
        t = np.clip(pick(self.share), (1 - cap)[:, None], 1.0)
        # |d - t v|^2 = |d|^2 - 2 t d.v + t^2 |v|^2
        resid = np.sqrt(np.maximum(pick(self.d2) - 2 * t * dv + t * t * v2, 0.0))
        if self.smeared is not None:
            here = pick(self.smeared)  # the smeared rows among those asked for
            if here.any():
                among = None if rows is None else (self.smeared & rows)[self.smeared]
                t[here], resid[here] = self.luma.at(cap[here], among)
        return t, resid


# Levels per unit of difference between a smeared pixel's chroma share and its luma share:
# a block's colour is averaged, but mostly over the same mix. Without it a red sleeve
# explained an ink outline's edge (luma of the red, chroma 60 % backdrop) as well as the ink.
CHROMA_SHARE_COST = 12.0
# Cb and Cr rows of BT.601 (the colour H.264 stores at half resolution).
CHROMA = np.array([[-0.1687, -0.3313, 0.5], [0.5, -0.4187, -0.0813]], np.float32)


class SmearedParts(NamedTuple):
    """unmix's fit for pixels within reach of 4:2:0 colour. Only their luma is their own:
    it must lie between the backdrop's and the candidate's, at the mix share t. Their
    colour is an average over a 2x2 block, backdrop included, so it may sit anywhere
    between the backdrop's chroma and the candidate's (at its own share), but not off that
    segment. Measured on a dark-blue leg's edge next to a green shirt: the RGB line put the
    shirt's green nearer (it explains the backdrop-green chroma), this fit the leg's blue.
    Held as what each pixel (M rows) and candidate (K) needs before the cap (`of`), so
    fits at several caps (`at`) share it."""

    share: np.ndarray  # (M, K) the mix share before the cap: by luma, or the chroma's
    chroma_share: np.ndarray  # (M, K) the share along the chroma segment
    dy: np.ndarray  # (M, K) the candidate's luma less the backdrop's
    dyp: np.ndarray  # (M, 1) the pixel's luma less the backdrop's
    off_b: np.ndarray  # (M, K) the pixel's Cb off the chroma segment
    off_r: np.ndarray  # (M, K) ... and its Cr

    @classmethod
    def of(cls, P: np.ndarray, B: np.ndarray, cands: np.ndarray,
           v: np.ndarray | None = None) -> SmearedParts:
        """P, B (M, 3), candidates (M, K, 3) and v = cands - B[:, None] where the caller
        has it."""
        if v is None:
            v = cands - B[:, None]
        yp, yb, yf = P @ LUMA, B @ LUMA, cands @ LUMA  # (M,), (M,), (M, K)
        dc = (P - B) @ CHROMA.T  # (M, 2)
        vc = v @ CHROMA.T  # (M, K, 2)
        # Planar (Cb, Cr) arithmetic: several times faster than einsum over a length-2 axis.
        vb, vr, db, dr = vc[..., 0], vc[..., 1], dc[:, None, 0], dc[:, None, 1]
        s = np.clip((db * vb + dr * vr) / np.maximum(vb * vb + vr * vr, 1e-6), 0.0, 1.0)
        dy = yf - yb[:, None]
        by_luma = np.abs(dy) > LUMA_SEPARATION
        dyp = (yp - yb)[:, None]
        t_y = dyp / np.where(by_luma, dy, 1.0)
        return cls(np.where(by_luma, t_y, s), s, dy, dyp, db - s * vb, dr - s * vr)

    def at(self, cap: np.ndarray, rows: np.ndarray | None = None) -> tuple[
            np.ndarray, np.ndarray]:
        """(t, residual) of the rows given ((M,) bool; all by default), 1 - t at most cap."""
        p = self if rows is None else SmearedParts(*(a[rows] for a in self))
        t = np.clip(p.share, (1 - cap)[:, None], 1.0)
        luma_off = p.dyp - t * p.dy
        resid = np.sqrt(luma_off * luma_off + p.off_b * p.off_b + p.off_r * p.off_r)
        return t, resid + CHROMA_SHARE_COST * np.abs(p.chroma_share - t)


# A part and a second colour tell their shares apart only when their directions from the
# backdrop differ by this much (|u x w| / |u| |w|, the sine of the angle between them).
TWO_MIX_SEPARATION = 0.1


def two_mix(P: np.ndarray, B: np.ndarray, cands: np.ndarray, other: np.ndarray) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pixels (M, 3) as mixes of a candidate (M, K, 3), a second colour `other` (3,) and
    the backdrop B (M, 3): P - B = a (F - B) + o (other - B), least squares with a and o
    each clipped to [0, 1] (a first, then o for it: not the optimum over the mixes that
    exist, a, o >= 0, a + o <= 1; that one scored the light-outlined fixtures worse, edge
    -6.1 -> -10.2). Returns (a, o, residual, separable), each (M, K): separable where the
    candidate and `other` point in different directions from the backdrop,
    |u x w| >= TWO_MIX_SEPARATION |u| |w|; elsewhere a mix of the two cannot be told
    apart from either alone (a white glove and a white outline)."""
    d = P - B
    u = cands - B[:, None]
    w = np.asarray(other, np.float32)[None] - B  # (M, 3)
    uu = norm2(u)
    uw = dot(u, w[:, None])
    ud = dot(u, d[:, None])
    ww = norm2(w)[:, None]
    wd = dot(w, d)[:, None]
    # |u x w|^2 = |u|^2 |w|^2 - (u.w)^2, in float64: nearly parallel colours cancel.
    uu64, uw64, ww64 = uu.astype(np.float64), uw.astype(np.float64), ww.astype(np.float64)
    cross2 = uu64 * ww64 - uw64 * uw64
    separable = cross2 >= TWO_MIX_SEPARATION ** 2 * uu64 * ww64
    det = np.maximum(uu * ww - uw * uw, 1e-3)
    a = np.clip((ud * ww - wd * uw) / det, 0.0, 1.0)
    o = np.clip((wd - a * uw) / np.maximum(ww, 1e-3), 0.0, 1.0)
    off = d[:, None] - a[..., None] * u - o[..., None] * w[:, None]
    return a, o, np.sqrt(norm2(off)), separable


def nearest(px: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(M,) distance (levels) of each of px (M, 3) to the nearest of `colours` (K, 3), K >= 1."""
    return closest(px, colours)[0]


def closest(px: np.ndarray, colours: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(distance (M,), index (M,)) of the nearest of `colours` (K, 3), K >= 1, to each of px
    (M, 3); a running minimum over the few colours, so memory follows M, not M * K."""
    out = np.full(len(px), np.inf, np.float32)
    idx = np.zeros(len(px), np.int64)
    for k, c in enumerate(colours):
        d = np.sqrt(norm2(px - c))
        idx = np.where(d < out, k, idx)
        out = np.minimum(out, d)
    return out, idx


def line_share(P: np.ndarray, B: np.ndarray, F: np.ndarray) -> np.ndarray:
    """(M,) how far along the line from B to F (each (M, 3)) each P lies, unclipped: 0 at
    B, 1 at F (its projection's share of the way; F's share in the mix P)."""
    v = F - B
    return dot(P - B, v) / np.maximum(norm2(v), 1e-6)


def line_residual(P: np.ndarray, B: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Distance of each P from the segment B..F (levels)."""
    t = np.clip(line_share(P, B, F), 0.0, 1.0)
    return np.sqrt(norm2(P - B - t[:, None] * (F - B)))


def mix_distance(P: np.ndarray, B: np.ndarray, colours: np.ndarray) -> np.ndarray:
    """(M,) distance of each P (M, 3) to the nearest mix of its backdrop B (M, 3) with one
    of `colours` (K, 3): the nearest of the segments from B to each."""
    best = np.full(len(P), np.inf, np.float32)
    for f in np.asarray(colours, np.float32):
        best = np.minimum(best, line_residual(P, B, np.broadcast_to(f, B.shape)))
    return best


SHADES = (0.5, 1.3)  # the brightness a part's colour may take, shaded or lit


def shade_distance(P: np.ndarray, colours: np.ndarray,
                   shades: tuple[float, float] = SHADES) -> np.ndarray:
    """(M,) distance of each P (M, 3) to the nearest of `colours` (K, 3) scaled by a
    brightness within `shades` (the same colour shaded or lit)."""
    best = np.full(len(P), np.inf, np.float32)
    for f in np.asarray(colours, np.float32):
        best = np.minimum(best, shade_off(P, f[None], shades))
    return best


def shade_off(P: np.ndarray, F: np.ndarray,
              shades: tuple[float, float] = SHADES) -> np.ndarray:
    """(M,) distance of each P (M, 3) from its colour F ((M, 3) or (1, 3)) scaled by a
    brightness within `shades`."""
    s = np.clip(dot(P, F) / np.maximum(norm2(F), 1e-6), *shades)
    return np.sqrt(norm2(P - s[:, None] * F))


def least_alpha(P: np.ndarray, B: np.ndarray) -> np.ndarray:
    """(M,) the least share a of a colour in the mix P = a*F + (1-a)*B (each (M, 3)) that
    leaves F a colour (every channel within 0..255): the most transparent reading."""
    d = P - B
    room = np.where(d > 0, 255.0 - B, B)
    return np.clip((np.abs(d) / np.maximum(room, 1.0)).max(1), 0.0, 1.0)
