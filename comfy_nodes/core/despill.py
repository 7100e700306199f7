"""Despill: un-mixing the backdrop out of a character's pixels.

A pixel near the silhouette (light wrap, an antialiased or motion-blurred edge) is a convex
mix P = t*F + (1-t)*B of a character colour F and the backdrop B. Given candidate colours
for F (the nearby interior, the frame's palette, the portrait's: core/reference.py), `unmix`
picks the one that explains each pixel best and the share t; where H.264's 4:2:0 colour is
partly a neighbour's, `_SmearedParts` judges by luma and by a chroma share near the luma's.
The matte (core/matte.py) decides where to un-mix, with which candidates, and what alpha
follows.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .channels import dot, key_excess, norm2

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
# A local colour that is this share or less of a portrait colour, the rest backdrop, within
# this many levels of that mix, is a blurred part's, not the character's own. Measured
# (edge excess) against 0.85: an independent trial's pale runner on blue, whose limbs'
# "interior" was its grey at 87 %, +8.3 -> +7.8; a hit-flash hurt on blue +8.4 -> +7.4,
# an ink barbarian on blue +7.4 -> +6.9, a spearman in blue on blue +9.6 -> +8.9, a green
# shirt's strands +6.2 -> +6.0, dark-green trousers blurred 30-60 px +5.4 -> +4.8; a
# light-outlined run lost 0.002 IoU, nothing else moved. 0.94 gained little more and
# took a light-outlined walk's edge -6.3 -> -6.8.
UNBLUR_SHARE = 0.9
UNBLUR_RESIDUAL = 20.0
# The frame's palette holds whole parts' colours: replaced only when mostly backdrop (a
# sword's faint trail), not when a light rim or a lit skin reads as a 60-85 % mix; unless
# it is plainly a blur (candidates.palette_shares).
UNBLUR_PALETTE_SHARE = 0.6
# ... unless it is within this many levels of a portrait colour: then it is that colour,
# lit a little differently (a green shirt is a "mix" of backdrop and skin, geometrically)...
UNBLUR_KEEP = 25.0
# ... or within this many levels of one's shade (SHADES): a shaded part's mid-tone lies
# between its light and dark tones, so _between_others drops it as a boundary colour, and
# the part's pixels between the tones were then 25+ levels from every kept colour and
# read as a far colour's 20 % blur: blue trousers on a blue screen as a yellow spear
# hook's, keyed out. Measured (IoU, holes): an independent trial's jeans on blue 0.900 ->
# 0.936 (5.6 -> 1.7 %), a held-out small spearman in blue trousers on blue 0.866 ->
# 0.888 (4.4 -> 1.8 %), a wolf turning on blue edge -8.2 -> -3.3 (passes); 198 trial
# clips otherwise within 0.001 IoU and 1.2 levels (a denim run 0.9504 -> 0.9499). At 5
# levels the wolf did not move; at 12 a cel run on blue lost 0.005. The price: a shade
# line is long, and some true blurs lie near one (a review blurred trial 22's palette
# colours over its screens at 5-90 %: 1.3 % of those un-mixed before now stay opaque, e.g.
# a black at 44-70 % over blue reads as the jeans' 0.66 shade); no trial clip showed a
# loss from it. Keeping the mid-tone in the palette instead (a tone within 10 levels of a
# shade of either end is no boundary colour) flipped 0.2 % of those blurs and mended the
# spearman and the wolf alike, but not the jeans: the clip draws them in a colour the
# portrait lacks (drawn.opening_colours), whose shades are 25+ levels from it too. It
# costs ~4 ms a 720p frame with a portrait (1.4 % of its matte).
UNBLUR_SHADE = 8.0
# ... as long as some portrait colour's shade explains it within this many levels of how
# well the mix line does (for mixes of colours NEAR_MIX_FAR or more from the backdrop:
# nearer it, shading reads as a large share). A pale runner's grey blurred on blue lay
# 22-26 levels from a darker grey of the portrait, 13 off every shade and 7-8 off the mix
# line.
# Measured (against no such test): a blue robe on blue IoU 0.945 -> 0.951, a hit-flash
# hurt on blue edge +7.4 -> +6.9, dark-green trousers blurred wide +4.8 -> +4.3, a
# real-art green shirt 0.973 -> 0.976; nothing worse. At 6 levels the same gains, and
# the shaded green shirt under 6 px wrap's holes 1.5 -> 1.7 %; at 10, half the gains.
# Without the NEAR_MIX_FAR gate a green shirt's strands went +6.0 -> +6.1.
KEEP_CLEARER = 8.0
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
    1 - t at most `cap` (M,), plus `prior` (K,) levels per candidate (far colours cost
    more than near ones). `smeared` (M,) marks pixels whose colour H.264 mixed with their
    neighbours' (4:2:0): they are judged by _SmearedParts. `translucent` (M,) marks pixels
    that may carry more backdrop than the cap, at TRANSLUCENT_COST per unit beyond it (a
    part blurred by motion is a mix with any share). `spill` (M,): the levels per unit of
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
    cost = cost + (0.0 if prior is None else prior[None])
    cost = np.where(v2 > min_sep * min_sep, cost, np.inf)  # a backdrop-coloured F says nothing
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(P))
    ok = np.isfinite(cost[rows, best])
    t_best = np.where(ok, t[rows, best], 1.0)
    return t_best, np.where(ok[:, None], cands[rows, best], P)


class _LineFits:
    """unmix's fit of each pixel (M rows) on each candidate's line, up to the cap: the RGB
    line, or for `smeared` rows _SmearedParts'. What does not depend on the cap is computed
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
            self.luma = _SmearedParts.of(P[s], B[s], cands[s], v[s])

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


class _SmearedParts(NamedTuple):
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
           v: np.ndarray | None = None) -> _SmearedParts:
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
        p = self if rows is None else _SmearedParts(*(a[rows] for a in self))
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


def unblur(C: np.ndarray, B: np.ndarray, rows: np.ndarray, reference: np.ndarray,
           noise: float, share: np.ndarray) -> None:
    """In a part blurred all through (a fast arm, a sword's trail), the colours taken from
    the frame (the "interior" nearby, the frame's palette: C[:, :columns]) are themselves
    mixes with the backdrop. Where, for the given rows, one is such a mix (`blurred_mix`)
    at a share below its column's limit (share, (columns,)), or a portrait colour moved
    a little toward the backdrop (at any share up to NEAR_MIX_SHARE), the portrait's
    colour replaces it (in place); not where it equals its backdrop (a missing
    candidate)."""
    columns = len(share)
    idx = np.nonzero(rows)[0]
    block = C[idx, :columns]  # (m, columns, 3), a copy: every column in one un-mixing
    c = block.reshape(-1, 3)
    b = np.repeat(B[idx], columns, axis=0)
    mixed, f, _ = blurred_mix(c, b, reference, noise, np.tile(share, len(idx)))
    # A candidate equal to its backdrop (at the whole levels blurred_mix judges) stands for
    # a missing one, never chosen: as a "mix" at no share it would become whichever
    # portrait colour ties first, at its cost.
    mixed &= (np.rint(c) != np.rint(b)).any(1)
    c[mixed] = f[mixed]
    C[idx, :columns] = block


MIX_BLOCK = 16384  # distinct pairs un-mixed at once by blurred_mix


def blurred_mix(c: np.ndarray, b: np.ndarray, reference: np.ndarray, noise: float,
                share: np.ndarray | float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which colours c (M, 3) are a portrait colour blurred with the backdrop b (M, 3): on
    the line from b to one of `reference`, within UNBLUR_RESIDUAL levels, at less than
    `share` of it, and not within UNBLUR_KEEP levels of any of the portrait's own colours
    nor UNBLUR_SHADE of one's shade (a colour near one is that colour, lit a little
    differently or shaded, unless, for one near in RGB alone, the mix line explains it
    KEEP_CLEARER levels better than any portrait colour's shade, for a mix of
    a colour NEAR_MIX_FAR or more from the backdrop; a boundary colour of the palette,
    between two others, is no part's own: a sword's faint trail sat near the shirt-legs
    boundary colour and stayed opaque). The one exception to both limits:
    a colour within UNBLUR_KEEP of a portrait colour that is that colour moved a little
    toward the backdrop (_toward_backdrop) is mixed at its share, whatever `share` says
    (up to NEAR_MIX_SHARE). Returns (mixed (M,) bool, the portrait colour (M, 3), its
    share (M,)). Judged at whole levels, once per distinct pair: the frame's palette
    colours recur on every row, and the backdrop varies slowly (measured: a sixth of the
    pairs are distinct, and un-blurring took half the matte's time without this); the
    distinct pairs are un-mixed in blocks, so memory stays bounded on a large frame."""
    cb = np.clip(np.rint(np.concatenate([c, b], 1)), 0, 255).astype(np.int64)
    code = np.zeros(len(cb), np.int64)
    for j in range(6):
        code = (code << 8) | cb[:, j]
    _, first, back = np.unique(code, return_index=True, return_inverse=True)
    cu, bu = cb[first, :3].astype(np.float32), cb[first, 3:].astype(np.float32)
    t = np.empty(len(cu), np.float32)
    f = np.empty((len(cu), 3), np.float32)
    for s in range(0, len(cu), MIX_BLOCK):
        part = slice(s, s + MIX_BLOCK)
        n = len(cu[part])
        t[part], f[part] = unmix(cu[part], bu[part],
                                 np.broadcast_to(reference, (n, *reference.shape)),
                                 np.full(n, MAX_BLUR, np.float32), 2.0 * noise + 4.0)
    core = reference[~_between_others(reference)]
    if not len(core):  # (a safety net: two parts always leave their own colours)
        core = reference
    near, which = closest(cu, core)
    resid = line_residual(cu, bu, f)
    near_one = near <= UNBLUR_KEEP
    own_colour = near_one.copy()
    far = np.flatnonzero(~near_one)
    own_colour[far] = shade_distance(cu[far], core) <= UNBLUR_SHADE
    own = own_colour & (resid < UNBLUR_RESIDUAL)  # (only these can be kept as their own)
    ask = np.flatnonzero(own & (norm2(f - bu) >= NEAR_MIX_FAR ** 2))
    shade = shade_distance(cu[ask], reference)
    ask, shade = ask[shade > KEEP_CLEARER], shade[shade > KEEP_CLEARER]  # (a shade: its own)
    own[ask] = shade <= mix_distance(cu[ask], bu[ask], reference) + KEEP_CLEARER
    fit = (resid < UNBLUR_RESIDUAL) & ~own
    toward = near_one & _toward_backdrop(cu, bu, core[which], noise)
    if toward.any():
        t = np.where(toward, line_share(cu, bu, core[which]), t)
        f = np.where(toward[:, None], core[which], f)
    t, f, fit, toward = t[back], f[back], fit[back], toward[back]
    return ((t < share) & fit) | toward, f, t


# A colour within UNBLUR_KEEP of a portrait colour is that colour lit a little differently,
# unless it lies on the line from that colour to the backdrop (within NEAR_MIX_RESIDUAL
# levels beyond the noise, and NEAR_MIX_CLEARER levels nearer that line than the colour
# shaded or lit) at 50 % to NEAR_MIX_SHARE of the way: then it is the colour with a little
# backdrop in it, as the interior of a part blurred wider than the wrap is (no unspilled
# pixel is left there). Only for colours NEAR_MIX_FAR levels or more from the backdrop:
# nearer it (a green shirt on green), a few levels of shading read as a large share.
# Measured: a red cape blurred 70 px read (185, 53, 41) against its (194, 44, 40), 1.6
# levels off the line to the backdrop and 11 from any shade.
NEAR_MIX_SHARE = 0.97
NEAR_MIX_RESIDUAL = 4.0
NEAR_MIX_CLEARER = 6.0
NEAR_MIX_FAR = 80.0


def _toward_backdrop(c: np.ndarray, b: np.ndarray, f: np.ndarray, noise: float) -> np.ndarray:
    """(M,) bool: colours c (M, 3) that are f (M, 3) moved a little toward the backdrop
    b (M, 3), not f shaded or lit (see NEAR_MIX_SHARE)."""
    t = line_share(c, b, f)
    off = line_residual(c, b, f)
    return ((norm2(f - b) >= NEAR_MIX_FAR ** 2) & (t > 0.5) & (t < NEAR_MIX_SHARE)
            & (off <= NEAR_MIX_RESIDUAL + noise) & (shade_off(c, f) > off + NEAR_MIX_CLEARER))


# A colour within this many levels of the line between two portrait colours (beyond its
# distance from the line to the backdrop) is the antialiased boundary of two parts.
BETWEEN_PARTS_SLACK = 2.0


def between_parts(c: np.ndarray, b: np.ndarray, f: np.ndarray,
                  reference: np.ndarray) -> np.ndarray:
    """(M,) bool: colours c (M, 3) that a mix of two portrait colours explains about as
    well as a mix of the portrait colour f (M, 3) with the backdrop b (M, 3): where a part
    meets one of near-backdrop colour (an arm on a green shirt), the boundary's colours
    lie on both lines. Every pair's segment at once, from the colours' dot products with
    the portrait's (M x pairs, in blocks of rows: memory follows M)."""
    ref = np.asarray(reference, np.float32)
    i, j = np.triu_indices(len(ref), 1)
    out = np.zeros(len(c), bool)
    if not len(i):
        return out
    gram = ref @ ref.T
    u2 = np.maximum(gram[j, j] - 2 * gram[i, j] + gram[i, i], 1e-6)  # |r_j - r_i|^2
    for s in range(0, len(c), 4096):
        cs = np.asarray(c[s:s + 4096], np.float32)
        d = cs @ ref.T  # (m, K): c . r_k
        cc = (cs * cs).sum(1)[:, None]
        to_i = cc - 2 * d[:, i] + gram[i, i]  # |c - r_i|^2
        along = d[:, j] - d[:, i] - gram[i, j] + gram[i, i]  # (c - r_i) . (r_j - r_i)
        t = np.clip(along / u2, 0.0, 1.0)
        best = np.sqrt(np.maximum(to_i - 2 * t * along + t * t * u2, 0.0).min(1))
        out[s:s + 4096] = best <= line_residual(c[s:s + 4096], b[s:s + 4096],
                                                f[s:s + 4096]) + BETWEEN_PARTS_SLACK
    return out


MIX_TOLERANCE = 8.0


def _between_others(reference: np.ndarray) -> np.ndarray:
    """(K,) bool: colours of the palette that lie (within MIX_TOLERANCE levels) between two
    others that are different parts (at least 2 * UNBLUR_KEEP levels apart), at 20-80 % of
    the way: a k-means palette of drawn art keeps a centre for the antialiased boundary of
    two parts. Centres of one part's shading or noise, close together, flag nothing."""
    ref = np.asarray(reference, np.float64)
    k = len(ref)
    if k < 3:
        return np.zeros(k, bool)
    v = ref[None, :] - ref[:, None]  # (K, K, 3): from colour j to colour m
    v2 = (v * v).sum(-1)
    d = ref[:, None, None] - ref[None, :, None]  # (K_i, K_j, 1, 3): from j to colour i
    t = (d * v[None]).sum(-1) / np.maximum(v2[None], 1e-6)  # (K_i, K_j, K_m)
    off = np.sqrt(((d - t[..., None] * v[None]) ** 2).sum(-1))
    idx = np.arange(k)
    pair = (v2 >= (2 * UNBLUR_KEEP) ** 2)[None] & (idx[:, None, None] != idx[None, :, None]) & (
        idx[:, None, None] != idx[None, None, :])
    return (pair & (t >= 0.2) & (t <= 0.8) & (off <= MIX_TOLERANCE)).any(axis=(1, 2))


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


# A thin part's centre line is read as a portrait colour from its luma only where the
# colour and the backdrop differ by this much in luma: a mostly-green pixel by a skin of
# 27 levels more luma was read as skin (luma noise swings the share by 0.2 there).
UNWRAP_LUMA_SEPARATION = 2 * LUMA_SEPARATION


def unwrap(c: np.ndarray, b: np.ndarray, reference: np.ndarray, noise: float,
           max_share: float, key_channel: int) -> np.ndarray:
    """Colours c (M, 3) of the centre lines of parts thinner than light wrap's reach (a
    spear shaft, a plume, a strand), which the wrap and 4:2:0 colour mix with the backdrop
    b (M, 3) all through, so no pixel of the part is unspilled: where one is a portrait
    colour mixed with the backdrop, that portrait colour; the rest as they are. A mix is
    on the RGB line from the backdrop to the colour (within UNBLUR_RESIDUAL levels), or,
    where 4:2:0 averaged the chroma with the backdrop's, a mix by luma (`luma_mix`); the
    backdrop's share at most `max_share` either way. (The portrait colour itself, not c
    un-mixed: dividing by the share magnified 4:2:0's error, a silver blade un-mixed to
    (202, 215, 212) against (200, 200, 215).) Not where the colour is within UNBLUR_KEEP
    levels of another portrait colour than the one it un-mixes to (it is that colour),
    nor to a portrait colour whose key channel (key_channel: 0, 1, 2 for R, G, B) is its
    largest: spill on a part of the key's colour cannot be told from the part (a faint
    blade trail read as the ranger's green, opaque); nor where another portrait colour,
    shaded or lit, explains the colour within NEAR_MIX_CLEARER levels of the mix (within
    NEAR_MIX_CLEARER outright for a mix by luma): it is that part in its own shade."""
    t, f = unmix(c, b, np.broadcast_to(reference, (len(c), *reference.shape)),
                 np.full(len(c), max_share, np.float32), 2.0 * noise + 4.0)
    share = line_share(c, b, f)  # unmix's t, unclipped
    off_line = line_residual(c, b, f)
    mixed = (t < 1.0) & (share >= 1 - max_share) & (off_line < UNBLUR_RESIDUAL)
    # How well the mix explains c, for the shade test below: its RGB line's residual, or
    # for a mix by luma (off that line by 4:2:0 by definition) none at all.
    mix_fit = np.where(mixed, off_line, 0.0)
    if not mixed.all():
        rest = ~mixed
        f_luma, _, by_luma = luma_mix(c[rest], b[rest], reference, max_share)
        f[rest] = np.where(by_luma[:, None], f_luma, f[rest])
        mixed[rest] = by_luma
    dist, near = closest(c, reference)
    chosen = closest(f, reference)[1]  # where mixed, f is this portrait colour
    fit = mixed & (key_excess(f, key_channel) <= 0) & ((chosen == near) | (dist > UNBLUR_KEEP))
    # Nor where another portrait colour, shaded or lit, explains it as well as the mix
    # (within NEAR_MIX_CLEARER of the mix's fit, as edgezone.blurred_parts judges a blur against
    # a shade): a green goblin's arm in its own shade read as its brown tunic mixed with
    # the key, and came out brown and half transparent.
    shades = np.stack([shade_off(c, g[None]) for g in reference], 1)  # (M, K): K is a few
    shades[np.arange(len(c)), chosen] = np.inf
    shaded = shades.min(1) <= np.minimum(UNBLUR_KEEP, mix_fit + NEAR_MIX_CLEARER)
    return np.where((fit & ~shaded)[:, None], f, c)


def luma_mix(c: np.ndarray, b: np.ndarray, reference: np.ndarray,
             max_share: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the portrait colour (M, 3), its share (M,), found (M,)): for each of c (M, 3), the
    portrait colour it is a mix of with the backdrop b (M, 3) as 4:2:0 leaves a thin part's
    colour (or a see-through part's rim): its luma at a share of the colour's (at least
    1 - max_share, below 1) and its chroma between the backdrop's and the colour's
    (`_SmearedParts`, within UNBLUR_RESIDUAL levels). Only colours whose luma differs
    from the backdrop's by UNWRAP_LUMA_SEPARATION. Measured (edge excess): yellow strands
    on a blue screen +7.2 -> +5.3, a knight's strands +3.3 -> -1.2, brown strands on a
    small idle +8.4 -> +6.9; no clip of 177 rose by more than 0.5. The share means
    nothing where not found."""
    cands = np.broadcast_to(reference, (len(c), *reference.shape))  # a view: no M x K copy
    fit = _SmearedParts.of(c, b, cands)
    _, resid = fit.at(np.full(len(c), max_share, np.float32))
    apart = np.abs(fit.dy) > UNWRAP_LUMA_SEPARATION
    share = fit.dyp / np.where(apart, fit.dy, 1.0)
    cost = np.where(apart & (share >= 1 - max_share) & (share < 1.0), resid, np.inf)
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(c))
    return reference[best], share[rows, best], cost[rows, best] < UNBLUR_RESIDUAL
