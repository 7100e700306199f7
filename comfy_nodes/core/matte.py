"""Green-screen matte, despill and defringe of the sheet's frames, at full resolution.

The backdrop comes from core/backdrop.py (a plate learned from the clip). The soft edge comes
from the compositing equation P = a*F + (1-a)*B solved in a band around the silhouette and
the light wrap's reach, with F a colour the spill cannot reach and B the backdrop seen
nearby (the un-mixing itself is core/despill.py); this module decides where to un-mix,
with which candidate colours, what alpha follows (translucent where a part is blurred by
motion), and a limiter relative to the chosen colour removes what is left without touching
the character's own greens.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import despill
from .backdrop import KeyModel, clean_mask, colour_distance
from .despill import FAR_COST, LUMA, LUMA_SEPARATION, RIM_SPILL_COST, SPILL_COST, palette, unmix


def _normalized_blur(values: np.ndarray, weight: np.ndarray, sigma: float) -> tuple[
        np.ndarray, np.ndarray]:
    """Weighted Gaussian average (normalized convolution): fills holes smoothly. Wide
    blurs run on a copy shrunk by sigma/3 (a smooth estimate loses nothing there; the
    cost of a Gaussian grows with sigma)."""
    h, w = weight.shape
    f = int(sigma // 3)
    if f >= 2 and min(h, w) >= 4 * f:
        small = (max(1, w // f), max(1, h // f))
        nv = cv2.resize(values * weight[..., None], small, interpolation=cv2.INTER_AREA)
        dv = cv2.resize(weight, small, interpolation=cv2.INTER_AREA)
        nv = cv2.GaussianBlur(nv, (0, 0), sigma / f)
        dv = cv2.GaussianBlur(dv, (0, 0), sigma / f)
        num = cv2.resize(nv, (w, h), interpolation=cv2.INTER_LINEAR)
        den = cv2.resize(dv, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        num = cv2.GaussianBlur(values * weight[..., None], (0, 0), sigma)
        den = cv2.GaussianBlur(weight, (0, 0), sigma)
    return num / np.maximum(den, 1e-6)[..., None], den



# Share of the silhouette's edge band that is a light fringe, above which the frame is
# outlined. Measured: outlined characters 0.24-0.55; without outline, light swords and
# all, at most 0.06.
FRINGE_SHARE = 0.15
FRINGE_LIGHTER = 25.0  # luma levels above both the backdrop and the interior nearby


def _fringe(rgb: np.ndarray, plate: np.ndarray, interior: np.ndarray) -> np.ndarray:
    """Pixels brighter than both the backdrop and the character's colour nearby: no mix of
    the two can be, so something light was drawn there (an outline, 描边)."""
    return rgb @ LUMA > np.maximum(plate @ LUMA, interior @ LUMA) + FRINGE_LIGHTER


def _edge_width(h: int, w: int) -> int:
    """Width of the soft-edge band: H.264 smears colour over ~2 px at 448 px."""
    return max(2, round(min(h, w) / 200))


def _wrap_depth(h: int, w: int) -> int:
    """How deep inside the silhouette light wrap may reach: 8 px at 448 px (models leave
    2-6 px; H.264's 4:2:0 colour smears another 1-2), scaled with the frame."""
    return max(4, round(min(h, w) / 56))


# The most backdrop a pixel 1 px inside may carry; the cap falls linearly to 0 at the wrap
# depth (models' wrap measured up to ~35 % at the edge).
MAX_WRAP = 0.6
# Under the key's threshold a pixel is still character when it is more than this many
# noise sigmas (+4 levels) off the backdrop and REFERENCE_RATIO times nearer a portrait
# colour than the backdrop.
REFERENCE_FLOOR = 2.5
REFERENCE_RATIO = 3.0
CHROMA_SMEAR = 2
WEAK_DISTANCE = 3.0  # in thresholds: a pixel this close to the backdrop may be a mix
EXTEND_SLACK = 12.0  # levels: how much worse the inner colour may explain a rim pixel
# A filled hole whose colour is less than this share of the way from the backdrop to the
# character's colour nearby is backdrop seen through a gap.
SLIVER_SHARE = 0.12
SLIVER_DISTANCE = 0.5  # and nearer the backdrop than this share of the key threshold
# After un-mixing, the key channel's excess over the other two may exceed the chosen
# colour's own excess by this much (H.264's 4:2:0 colour puts edge pixels off the mix line).
EXCESS_SLACK = 2.0
# ... and, where 4:2:0 smeared the colour, fall below it by at most this much: there the
# RGB un-mixing divides an off-line colour by a small share. Measured: an ink line (34, 28,
# 40) on a blue screen, its luma too near the backdrop's to read the share from, came out
# (51, 40, 4); the ink-outlined hero on blue went from edge -9.3 to -6.2, and the other 70
# clips of the fixtures and trials moved by at most +0.7.
EXCESS_FLOOR = 12.0


def refine(frame: np.ndarray, key: KeyModel, defringe: bool = True,
           box: tuple[int, int, int, int] | None = None,
           reference: despill.Reference | None = None,
           moving: np.ndarray | None = None) -> np.ndarray:
    """Full-resolution RGBA (uint8) of one frame: soft matte, despill, defringe.

    box (x0, y0, x1, y1): where the character can be (from the coarse mask); the work is
    done there only and the rest of the frame is transparent. reference: what the portrait
    tells (despill.portrait_reference): colours of the character known to be unspilled, to
    un-mix against, and its outline's colour.
    moving: (H, W) bool, where the silhouette moved between the neighbouring frames (see
    moving_region): there a part may be blurred, translucent in the sprite.
    """
    fh, fw = frame.shape[:2]
    if box is not None:
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(fw, box[2]), min(fh, box[3])
        out = np.zeros((fh, fw, 4), np.uint8)
        if x1 > x0 and y1 > y0:
            plate = key.plate_at(fh, fw)[y0:y1, x0:x1]
            out[y0:y1, x0:x1] = _refine(frame[y0:y1, x0:x1], plate, key, defringe, (fh, fw),
                                        reference,
                                        None if moving is None else moving[y0:y1, x0:x1])
        return out
    return _refine(frame, key.plate_at(fh, fw), key, defringe, (fh, fw), reference, moving)


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


def _refine(frame: np.ndarray, plate: np.ndarray, key: KeyModel, defringe: bool,
            full: tuple[int, int], reference: despill.Reference | None = None,
            moving: np.ndarray | None = None) -> np.ndarray:
    h, w, _ = frame.shape
    # The portrait's colours, or None (no portrait, or an empty palette): the steps below
    # that use them are skipped then.
    ref = None if reference is None or not len(reference.palette) else reference.palette
    ink = None if reference is None else reference.outline  # the portrait's drawn outline
    p = frame.astype(np.float32)
    d = colour_distance(p, plate)
    raw = (d > key.threshold).astype(np.uint8)
    if ref is not None:
        raw |= _like_reference(p, d, ref, key)
    area = full[0] * full[1]  # thresholds scale with the frame, not with the crop
    fg = clean_mask(raw, max(4, area // 4000), area // 600)
    r = _edge_width(*full)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    fg = _open_slivers(p, plate, raw, fg, kernel, key.threshold)
    if ref is not None:
        fg[_thin_gaps(p, plate, fg, key.noise, ref, moving)] = 0
    outer = cv2.dilate(fg, kernel, iterations=1)
    alpha = fg.astype(np.float32)
    rgb = p.copy()
    if not fg.any():
        return _pack(rgb, alpha)
    # This frame's backdrop brightness (models flicker): the plate scaled to the backdrop
    # seen round the character.
    around = (cv2.dilate(outer, kernel, iterations=3) > 0) & (outer == 0)
    if around.sum() > 50:
        gain = float(np.median(p[around].sum(-1) / np.maximum(plate[around].sum(-1), 1.0)))
        plate = plate * float(np.clip(gain, 0.8, 1.25))
    depth = cv2.distanceTransform(fg, cv2.DIST_L2, 5)  # 1 on the silhouette's outer ring
    wrap = _wrap_depth(*full)
    # Near the edge, or anywhere the colour is barely off the backdrop (a gap between
    # limbs, a motion-blurred part): pixels that may be a mix to un-mix.
    weak = d < WEAK_DISTANCE * key.threshold
    zone = (outer > 0) & ((depth <= wrap) | weak)
    deeper = np.zeros_like(zone)
    if moving is not None and ref is not None:
        # Deeper, where the silhouette moved: a part blurred all through (a fast arm)
        # whose colour is a portrait colour mixed with the backdrop.
        deeper = moving & (outer > 0) & ~zone
        if deeper.any():
            deeper[deeper] = despill.blurred_mix(p[deeper], plate[deeper], ref, key.noise,
                                                 despill.UNBLUR_SHARE)[0]
            zone |= deeper
    # Colours the spill cannot reach: deeper than the wrap, or, in parts thinner than
    # twice that (arms, legs, blades), their centre line, the farthest from any edge.
    ridge = (depth >= cv2.dilate(depth, np.ones((3, 3), np.uint8))) & (depth >= r + 1)
    deep = ((depth > wrap + 1) | ridge).astype(np.uint8)
    ys, xs = np.nonzero(zone)
    y0, y1 = max(0, ys.min() - 2 * wrap), min(h, ys.max() + 2 * wrap + 1)
    x0, x1 = max(0, xs.min() - 2 * wrap), min(w, xs.max() + 2 * wrap + 1)
    sl = (slice(y0, y1), slice(x0, x1))
    zb = zone[sl]
    # The backdrop behind each edge pixel, from the backdrop seen nearby: it carries the
    # contact shadow and this frame's flicker, which the clip-wide plate cannot.
    seen = (cv2.dilate(outer[sl], kernel, iterations=2) == 0).astype(np.float32)
    b_near, b_support = _normalized_blur(p[sl], seen, float(wrap))
    near_ok = (b_support[zb] > 0.05)[:, None]
    P, B = p[sl][zb], np.where(near_ok, b_near[zb], plate[sl][zb])
    dep = depth[sl][zb]
    # Candidate colours of the character for every zone pixel: the nearby unreachable
    # interior at two reaches (a part's own colour, then its neighbourhood), the frame's
    # unreachable palette and the portrait's.
    pal = [palette(p[deep > 0])] if deep.any() else []
    n_frame = len(pal[0]) if pal else 0
    if ref is not None:
        pal.append(ref)
    if ink is not None:
        pal.append(ink[None])  # Reference keeps float32 (3,)
    fixed = np.concatenate(pal) if pal else np.zeros((0, 3), np.float32)
    # Filled in place: stacking broadcast copies of the palettes cost more than un-mixing.
    C = np.empty((len(P), 2 + len(fixed), 3), np.float32)
    C[:, 2:] = fixed[None]
    deep_f = deep[sl].astype(np.float32)
    local = np.full((len(P), 3), np.nan, np.float32)  # the part's own colour (shorter reach)
    for j, sigma in enumerate((0.75 * wrap, 1.5 * wrap)):
        f_hat, support = _normalized_blur(p[sl], deep_f, sigma)
        ok = (support[zb] > 1e-3)[:, None]
        fz = f_hat[zb]
        if j == 0:
            local = np.where(ok, fz, np.nan)
        C[:, j] = np.where(ok, fz, B)  # missing: never chosen (v2 = 0)
    # The outer r px of the mask (and the band outside it) may be partly transparent
    # (antialiasing, 4:2:0 colour): any share of backdrop there. Deeper, the pixels are
    # opaque and carry at most the wrap, which fades inward.
    rim = dep <= r
    cap = np.where(rim, 1.0, MAX_WRAP * np.clip(1 - (dep - r) / (wrap - r + 1), 0, 1))
    cap = np.where(weak[sl][zb] & ~rim, MAX_WRAP, cap)
    prior = np.array([0.0, FAR_COST] + [FAR_COST] * (C.shape[1] - 2), np.float32)
    if ink is not None:
        # Outlined art: its rim is the outline (despill.OUTLINE_BONUS); deeper, a part.
        C[:, -1] = np.where(rim[:, None], C[:, -1], B)  # B: never chosen (v2 = 0)
        prior[-1] = -despill.OUTLINE_BONUS
    # Near the edge, 4:2:0 colour mixes each pixel's chroma with its neighbours' (backdrop
    # included): only luma is the pixel's own. There the mix share comes from luma where
    # the colours differ in it, and the colour is the chosen F's, at the un-mixed luma.
    # H.264 spreads chroma 2 px from where it belongs, whatever the frame size.
    smeared = dep <= r + CHROMA_SMEAR
    # Translucent where the silhouette moved (a blurred edge or limb: the zone there is
    # the wrap's reach, and deeper only a portrait colour's blur), and in gaps the mask
    # filled that are wider than a speck (between hair strands): elsewhere a
    # backdrop-like colour is the part's own (a green shirt).
    gaps = _gaps(fg, raw, r)
    translucent = ~rim & (gaps[sl][zb] > 0)
    if moving is not None:
        translucent |= moving[sl][zb] & ~rim
    # The frame's colours are replaced by the portrait's where they are blurred mixes:
    # there, and on the rim, whose nearby colours are as mixed (a strand, a thin blade).
    # Measured on yellow strands on a blue screen: edge +12.2 -> +8.4.
    unblurred = translucent | rim
    if ref is not None and unblurred.any():
        despill.unblur(C, B, unblurred, ref, key.noise, 2 + n_frame)
    # On the rim some backdrop is expected (antialiasing): there the fit weighs more.
    spill = np.where(rim, RIM_SPILL_COST, SPILL_COST).astype(np.float32)
    t, F = unmix(P, B, C, cap, 2.0 * key.noise + 4.0, prior, smeared, translucent, spill)
    blurred = ~rim & ((1 - t) > cap + 0.02)
    cap = np.maximum(cap, 1 - t)
    Fp = B + (P - B) / np.maximum(t, 0.05)[:, None]
    # There the character's colour is taken from the nearest un-mixed pixels just inside
    # (edge extension): the same part, whose chroma is the pixel's own.
    inner = ~smeared & (dep <= r + CHROMA_SMEAR + 2)
    if inner.any():
        img = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        wgt = np.zeros((y1 - y0, x1 - x0), np.float32)
        zy, zx = np.nonzero(zb)
        img[zy[inner], zx[inner]] = Fp[inner]
        wgt[zy[inner], zx[inner]] = 1.0
        near, near_sup = _normalized_blur(img, wgt, 1.0 + CHROMA_SMEAR)
        F2 = near[zy, zx]
        # Only where that colour explains the pixel about as well as the chosen one: an
        # ink line drawn on the edge itself keeps its own colour.
        use = smeared & (near_sup[zy, zx] > 0.02) & (
            despill.line_residual(P, B, F2) <= despill.line_residual(P, B, F) + EXTEND_SLACK)
        F = np.where(use[:, None], F2, F)
        cap = np.where(use, 1.0, cap)
    yp, yb, yf = P @ LUMA, B @ LUMA, F @ LUMA
    by_luma = smeared & (np.abs(yf - yb) > LUMA_SEPARATION)
    t_y = np.clip((yp - yb) / np.where(by_luma, yf - yb, 1.0), 1 - cap, 1.0)
    t = np.where(by_luma, t_y, t)
    y_un = yb + (yp - yb) / np.maximum(t, 0.05)
    Fp = np.where(by_luma[:, None], F + (y_un - yf)[:, None], Fp)
    # The key channel may not exceed the other two by more than the chosen colour's own
    # excess (a green shirt's edge stays green, a red cape's does not), nor, where smeared,
    # fall far below it.
    c = int(np.argmax(key.key))
    o = [i for i in range(3) if i != c]
    own = F[:, c] - np.maximum(F[:, o[0]], F[:, o[1]])
    others = np.maximum(Fp[:, o[0]], Fp[:, o[1]])
    Fp[:, c] = np.minimum(Fp[:, c], others + own + EXCESS_SLACK)
    Fp[:, c] = np.where(smeared, np.maximum(Fp[:, c], others + own - EXCESS_FLOOR), Fp[:, c])
    has_f = ~np.isnan(local[:, 0])
    interior = np.where(has_f[:, None], local, F)
    # An outline (描边) runs along most of the silhouette; a light sword or a white glove
    # touches it only here and there. Judge the frame first, then the pixels.
    fringe = has_f & _fringe(P, B, interior)
    edge = rim & (dep >= 1)
    light_outlined = defringe and edge.any() and bool(fringe[edge].mean() > FRINGE_SHARE)
    # The rim carries both a fractional alpha and the wrap: the wrap there is judged from
    # the opaque ring just inside it.
    ring2 = (dep > r) & (dep <= r + 1)
    t_edge = float(np.clip(np.median(t[ring2]) if ring2.sum() > 8 and not light_outlined else 1.0,
                           0.5, 1.0))
    a = np.where(rim, np.clip(t / t_edge, 0, 1), np.where(blurred, t, 1.0))
    if light_outlined:
        # Outlined: the rim mixes outline and backdrop; its share of character is read
        # against the interior colour nearby only (a backdrop-like palette colour would
        # explain the outline's faint outer edge as half-opaque character).
        v = interior - B
        t_ref = ((P - B) * v).sum(-1) / np.maximum((v * v).sum(-1), 1e-6)
        a = np.where(rim, np.clip(t_ref, 0, 1), a)
        # The outline is the silhouette's outer ring: what lies outside the mask is its
        # antialiased edge, a mix of outline and backdrop, whatever its lightness.
        a = np.where((fringe & rim) | (dep < 1), 0.0, a)
        # With the portrait, the outline blurred with a part (a running leg) too: a pixel
        # of none of the portrait's colours that is part, outline and backdrop. (Without
        # it, a green shirt's spilled edge read as such a mix.)
        if ref is not None and (fringe & rim).sum() > 20:
            a, Fp = _unmix_outline(P, B, np.median(P[fringe & rim], 0), interior, ref, a, Fp,
                                   key.noise)
    if defringe:
        # Faint halos: nearly transparent pixels are backdrop noise, not character.
        a = np.where(a < 0.2, 0.0, a)
    alpha_s = alpha[sl]
    alpha_s[zb] = a
    rgb_s = rgb[sl]
    rgb_s[zb] = np.clip(Fp, 0, 255)
    if light_outlined:
        # The ring is a few pixels wide: clear its whole width, judged against the
        # interior colour, where it sits just inside the silhouette.
        # Round the gaps the mask filled (between arm and body) too: the outline runs
        # along them.
        deep2 = cv2.erode(cv2.erode(fg & ~gaps, kernel), kernel)
        ring = (fg[sl] > 0) & (deep2[sl] == 0)
        if ring.any():
            f_hat, support = _normalized_blur(p[sl], deep2[sl].astype(np.float32), 2.0 * r)
            light_r = (support[ring] > 1e-3) & _fringe(p[sl][ring], plate[sl][ring],
                                                       f_hat[ring])
            vals = alpha_s[ring]
            vals[light_r] = 0.0
            alpha_s[ring] = vals
    return _pack(rgb, alpha)


# Where the light outline is blurred with a part and the backdrop (a running leg), a pixel
# whose un-mixing carries at least this share of the outline's colour, within this many
# levels (+ 2 noise), gets the part's share as its alpha: the outline's is transparent.
# Measured on three light-outlined clips: IoU 0.951 / 0.937 / 0.913 -> 0.966 / 0.962 / 0.955
# (a 12-level fit gave 0.964 / 0.956 / 0.950; 45 levels 0.967 / 0.965 / 0.958).
OUTLINE_MIX_SHARE = 0.1
OUTLINE_MIX_FIT = 30.0


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
           & ~ambiguous & (despill.nearest(P, portrait) > despill.UNBLUR_KEEP))
    return (np.where(use, share, a),
            np.where(use[:, None], cands[rows, best], Fp))


def _like_reference(p: np.ndarray, d: np.ndarray, reference: np.ndarray,
                    key: KeyModel) -> np.ndarray:
    """(H, W) uint8 1 where a pixel under the key's threshold is still character: clearly
    off the backdrop's noise, and much nearer one of the portrait's colours than the
    backdrop. A shirt of the backdrop's own green, a little lighter, sits under the
    threshold at high CRF (measured: 16 levels off the plate against a threshold of 17.5
    at CRF 24, 4 % of the body lost as holes); its portrait colour is 3 levels away."""
    floor = REFERENCE_FLOOR * key.noise + 4.0
    maybe = (d > floor) & (d <= key.threshold)
    out = np.zeros(d.shape, np.uint8)
    if not maybe.any():
        return out
    out[maybe] = despill.nearest(p[maybe], reference) * REFERENCE_RATIO < d[maybe]
    return out


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


def _thin_gaps(p: np.ndarray, plate: np.ndarray, fg: np.ndarray, noise: float,
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
            colour, _ = _normalized_blur(p[box], part[box].astype(np.float32), float(k))
            inside = between[box]
            part_colour[box][inside] = colour[inside]
            gap |= between
    if not gap.any():
        return gap
    # Its colour must be a block's average of the backdrop and those parts: on the chroma
    # segment between them (a belt of the backdrop's luma between dark legs is not).
    P, B, F = p[gap], plate[gap], part_colour[gap]
    dc, vc = (P - B) @ despill.CHROMA.T, (F - B) @ despill.CHROMA.T
    share = np.clip((dc * vc).sum(-1) / np.maximum((vc * vc).sum(-1), 1e-6), 0.0, 1.0)
    off = np.sqrt(((dc - share[:, None] * vc) ** 2).sum(-1))
    ok = (off <= THIN_GAP_CHROMA + noise) & (share >= THIN_GAP_SHARE) & (
        share <= despill.UNBLUR_SHARE)
    # Nor is a colour near a portrait colour, or, where the silhouette moved, mostly a
    # portrait colour mixed with the backdrop (a motion-blurred blade between its ink
    # outlines; a gap between moving strands reads as mostly backdrop).
    ok &= despill.nearest(P, reference) > despill.UNBLUR_KEEP
    if moving is not None:
        swept = ok & moving[gap]
        if swept.any():
            mixed, _, t = despill.blurred_mix(P[swept], B[swept], reference, noise,
                                              despill.UNBLUR_SHARE)
            ok[swept] = ~(mixed & (t >= THIN_GAP_BLUR))
    gap[gap] = ok
    return gap


def _gaps(fg: np.ndarray, raw: np.ndarray, r: int) -> np.ndarray:
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
    f_hat, support = _normalized_blur(p[y0:y1, x0:x1], core, 2.0 * kernel.shape[0])
    hb = hole[y0:y1, x0:x1]
    P, B, F = p[y0:y1, x0:x1][hb], plate[y0:y1, x0:x1][hb], f_hat[hb]
    support = support[hb]
    v = F - B
    v2 = (v * v).sum(-1)
    t = ((P - B) * v).sum(-1) / np.maximum(v2, 1e-6)
    near_b = colour_distance(P, B) < SLIVER_DISTANCE * threshold
    seen_through = (support > 1e-3) & (v2 > (3 * threshold) ** 2) & (t < SLIVER_SHARE) & near_b
    out = fg.copy()
    out[ys[seen_through], xs[seen_through]] = 0
    return out


def _pack(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    out = np.empty((*alpha.shape, 4), np.uint8)
    out[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    out[..., :3][out[..., 3] == 0] = 0
    return out
