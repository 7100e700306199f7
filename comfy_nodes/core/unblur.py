"""Parts whose every pixel is a mix with the backdrop: blurred by motion wider than the
wrap's reach (a fast arm, a sword's trail), or thinner than it (a spear shaft, a strand).
No unspilled pixel of theirs is left to un-mix against, so the colours the frame offers
there are tested for being a portrait colour blurred with the backdrop (`blurred_mix`,
`unblur`), a boundary between two parts (`between_parts`), or a thin part's colour under
the wrap and 4:2:0 (`unwrap`, `luma_mix`). The un-mixing itself is core/despill.py's.
"""

from __future__ import annotations

import numpy as np

from .channels import key_excess, norm2
from .despill import (
    LUMA_SEPARATION,
    MAX_BLUR,
    SmearedParts,
    closest,
    line_residual,
    line_share,
    mix_distance,
    shade_distance,
    shade_off,
    unmix,
)

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
    (`SmearedParts`, within UNBLUR_RESIDUAL levels). Only colours whose luma differs
    from the backdrop's by UNWRAP_LUMA_SEPARATION. Measured (edge excess): yellow strands
    on a blue screen +7.2 -> +5.3, a knight's strands +3.3 -> -1.2, brown strands on a
    small idle +8.4 -> +6.9; no clip of 177 rose by more than 0.5. The share means
    nothing where not found."""
    cands = np.broadcast_to(reference, (len(c), *reference.shape))  # a view: no M x K copy
    fit = SmearedParts.of(c, b, cands)
    _, resid = fit.at(np.full(len(c), max_share, np.float32))
    apart = np.abs(fit.dy) > UNWRAP_LUMA_SEPARATION
    share = fit.dyp / np.where(apart, fit.dy, 1.0)
    cost = np.where(apart & (share >= 1 - max_share) & (share < 1.0), resid, np.inf)
    best = np.argmin(cost, axis=1)
    rows = np.arange(len(c))
    return reference[best], share[rows, best], cost[rows, best] < UNBLUR_RESIDUAL
