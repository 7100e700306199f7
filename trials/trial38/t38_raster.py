"""Trial 38 rasteriser: a rig's polygons filled at `ss` x the output size with no
antialiasing, painted per sample in the part's own local units (so shading domes and
textures move with the part), composited front to back in premultiplied colour and
box-filtered down: the coverage of every edge, strand and tip is exact to 1/ss^2.
Motion blur averages sub-frame renders in premultiplied colour."""

from __future__ import annotations

from dataclasses import dataclass

import cv2

cv2.setNumThreads(1)
import numpy as np

LIGHT = np.array([-0.55, -0.68, 0.48])
LIGHT /= np.linalg.norm(LIGHT)
HALF = LIGHT + np.array([0, 0, 1.0])
HALF /= np.linalg.norm(HALF)


def _noise_tile(seed, n=128):
    rng = np.random.default_rng(seed)
    acc = np.zeros((n, n), np.float32)
    for octave, amp in ((4, 1.0), (8, 0.5), (16, 0.28), (32, 0.15)):
        g = rng.standard_normal((octave, octave)).astype(np.float32)
        g = np.tile(g, (3, 3))
        big = cv2.resize(g, (3 * n, 3 * n), interpolation=cv2.INTER_CUBIC)[n:2 * n, n:2 * n]
        acc += amp * big
    acc -= acc.mean()
    return acc / (np.abs(acc).max() + 1e-6)  # -1..1, tileable


NOISE = _noise_tile(3801)
NOISE2 = _noise_tile(3802)


def _sample(tile, u, v):
    """Bilinear, wrapping lookup of a tileable texture at float texel coords."""
    u, v = np.asarray(u, np.float32), np.asarray(v, np.float32)
    if u.ndim == 2 and max(u.shape) < 32000:
        return cv2.remap(tile, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    size, cols = u.size, 1024
    pad = (-size) % cols
    mx = np.pad(u.ravel(), (0, pad)).reshape(-1, cols)
    my = np.pad(v.ravel(), (0, pad)).reshape(-1, cols)
    out = cv2.remap(tile, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    return out.ravel()[:size].reshape(u.shape)


@dataclass
class Paint:
    rgb: tuple                      # 0..255
    dome: tuple | None = None       # (cu, cv, ru, rv) in local units: a lit bulge
    amb: float = 0.62
    dif: float = 0.48
    spec: float = 0.0
    shin: float = 18.0
    tex: str | None = None          # noise, brush, weave, scales, fur, knit
    tex_amt: float = 0.0
    tex_scale: float = 1.0          # texture cells per local unit
    grad: tuple | None = None       # (v0, v1, rgb1): toward rgb1 along local v
    cel: int = 0                    # quantise the shade into this many bands

    def colours(self, u, v, lin):
        base = np.array(self.rgb, np.float32) / 255.0
        col = np.broadcast_to(base, u.shape + (3,)).copy()
        if self.grad is not None:
            v0, v1, rgb1 = self.grad
            s = np.clip((v - v0) / (v1 - v0), 0, 1)[..., None]
            col = col * (1 - s) + (np.array(rgb1, np.float32) / 255.0) * s
        if self.tex:
            col *= (1 + self.tex_amt * self._tex(u, v))[..., None]
        if self.dome is not None:
            cu, cv_, ru, rv = self.dome
            nx, ny = (u - cu) / ru, (v - cv_) / rv
            r2 = nx * nx + ny * ny
            k = np.where(r2 > 0.96, np.sqrt(0.96 / np.maximum(r2, 1e-9)), 1.0)
            nx, ny = nx * k, ny * k
            nz = np.sqrt(np.maximum(1 - nx * nx - ny * ny, 0.0))
            wx = lin[0, 0] * nx + lin[0, 1] * ny  # local normal turned to the screen
            wy = lin[1, 0] * nx + lin[1, 1] * ny
            ndl = np.maximum(wx * LIGHT[0] + wy * LIGHT[1] + nz * LIGHT[2], 0)
            if self.cel:
                ndl = np.floor(ndl * self.cel + 0.35) / self.cel
            shade = self.amb + self.dif * ndl
            col = col * shade[..., None]
            if self.spec:
                ndh = np.maximum(wx * HALF[0] + wy * HALF[1] + nz * HALF[2], 0)
                col = col + self.spec * (ndh ** self.shin)[..., None]
        return np.clip(col, 0, 1)

    def _tex(self, u, v):
        s = self.tex_scale
        if self.tex == "noise":
            return _sample(NOISE, u * s * 8, v * s * 8)
        if self.tex == "brush":   # long strokes across the part
            return _sample(NOISE, u * s * 7, v * s * 13) * 0.6 + _sample(NOISE2, u * s * 16, v * s * 16) * 0.4
        if self.tex == "fur":
            return 0.6 * _sample(NOISE2, u * s * 22, v * s * 22) + 0.4 * _sample(NOISE, u * s * 6, v * s * 6)
        if self.tex == "weave":
            return 0.6 * np.sin(u * s * 6.3) * np.sin(v * s * 6.3) + 0.4 * _sample(NOISE2, u * s * 12, v * s * 12)
        if self.tex == "knit":
            return 0.7 * np.abs(np.sin(u * s * 3.1 + 1.5 * np.abs(np.sin(v * s * 6.3)))) - 0.35
        if self.tex == "scales":
            a = np.sin(u * s * 4.0 + np.floor(v * s * 1.3) * 1.6)
            b = np.mod(v * s * 1.3, 1.0)
            return 0.5 * a * (1 - b) - 0.3 * b
        raise ValueError(self.tex)


def _polys_px(polys, m):
    out = []
    for p in polys:
        p = np.asarray(p, float)
        out.append(p @ m[:2, :2].T + m[:2, 2])
    return out


def render(rig, pose, place, size, ss=4, clip_box=None):
    """Premultiplied (H, W, 3) float32 and alpha (H, W) of one pose.

    place: 3x3 character units -> output pixels; size: (H, W)."""
    H, W = size
    world = rig.world(pose)
    items, lo, hi = [], np.array([1e9, 1e9]), np.array([-1e9, -1e9])
    for part in sorted(rig.parts, key=lambda p: p.z):
        m = place @ world[part.bone]
        geom = part.geom(pose) if callable(part.geom) else part.geom
        polys = _polys_px(geom, m)
        holes = part.holes(pose) if callable(part.holes) else part.holes
        hpx = _polys_px(holes, m) if holes else []
        for p in polys:
            lo, hi = np.minimum(lo, p.min(0) - part.ink), np.maximum(hi, p.max(0) + part.ink)
        items.append((part, polys, hpx, m))
    prem = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    x0, y0 = max(int(np.floor(lo[0])) - 2, 0), max(int(np.floor(lo[1])) - 2, 0)
    x1, y1 = min(int(np.ceil(hi[0])) + 2, W), min(int(np.ceil(hi[1])) + 2, H)
    if x1 <= x0 or y1 <= y0:
        return prem, alpha
    bw, bh = (x1 - x0) * ss, (y1 - y0) * ss
    crgb = np.zeros((bh, bw, 3), np.float32)
    ca = np.zeros((bh, bw), np.float32)
    origin = np.array([x0, y0], float)
    for part, polys, hpx, m in items:
        pts = [np.round((p - origin) * ss * 16 - 8).astype(np.int32) for p in polys]
        allp = np.concatenate(pts) / 16.0
        ink = part.ink * ss
        px0 = int(max(np.floor(allp[:, 0].min() - ink) - 2, 0))
        py0 = int(max(np.floor(allp[:, 1].min() - ink) - 2, 0))
        px1 = int(min(np.ceil(allp[:, 0].max() + ink) + 3, bw))
        py1 = int(min(np.ceil(allp[:, 1].max() + ink) + 3, bh))
        if px1 <= px0 or py1 <= py0:
            continue
        off = np.array([px0, py0]) * 16
        pts = [p - off for p in pts]
        mask = np.zeros((py1 - py0, px1 - px0), np.uint8)
        for p in pts:  # one at a time: fillPoly fills overlaps of a list even-odd
            cv2.fillPoly(mask, [p], 255, cv2.LINE_8, 4)
        if hpx:
            hp = [np.round((p - origin) * ss * 16 - 8).astype(np.int32) - off for p in hpx]
            for p in hp:
                cv2.fillPoly(mask, [p], 0, cv2.LINE_8, 4)
        reg = (slice(py0, py1), slice(px0, px1))
        if part.ink > 0:
            inkm = mask.copy()
            t = max(int(round(2 * ink)), 1)
            cv2.polylines(inkm, pts, True, 255, t, cv2.LINE_8, 4)
            if hpx:
                cv2.polylines(inkm, hp, True, 255, t, cv2.LINE_8, 4)
            _over(crgb[reg], ca[reg], inkm > 0, np.array(rig.ink_rgb, np.float32), 1.0)
        sel = mask > 0
        count = int(np.count_nonzero(sel))
        if not count:
            continue
        inv = np.linalg.inv(m)
        lin = m[:2, :2] / np.sqrt(abs(np.linalg.det(m[:2, :2])))
        if count > 0.35 * sel.size:  # dense: paint the whole box, blend by the mask
            ys, xs = np.mgrid[py0:py1, px0:px1].astype(np.float32)
        else:
            ys, xs = np.nonzero(sel)
            ys, xs = ys + py0, xs + px0
        fx = x0 + (xs + 0.5) / ss
        fy = y0 + (ys + 0.5) / ss
        u = (inv[0, 0] * fx + inv[0, 1] * fy + inv[0, 2]).astype(np.float32)
        v = (inv[1, 0] * fx + inv[1, 1] * fy + inv[1, 2]).astype(np.float32)
        col = part.paint.colours(u, v, lin)
        if u.ndim == 2:
            k = sel.astype(np.float32) * np.float32(part.alpha)
            r3 = crgb[reg]
            r3 *= (1 - k)[..., None]
            r3 += col.reshape(r3.shape) * k[..., None]
            a2 = ca[reg]
            a2 *= 1 - k
            a2 += k
        else:
            ys -= py0
            xs -= px0
            _over(crgb[reg], ca[reg], (ys, xs), col, part.alpha)
    prem[y0:y1, x0:x1] = cv2.resize(crgb, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha[y0:y1, x0:x1] = cv2.resize(ca, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return prem, alpha


def _over(rgb, a, sel, col, alpha):
    """Paint `col` (3,) or (n, 3) over the premultiplied region where sel holds."""
    k = np.float32(alpha)
    rgb[sel] = rgb[sel] * (1 - k) + col * k
    a[sel] = a[sel] * (1 - k) + k


def _halton(i, b):
    f, r = 1.0, 0.0
    while i > 0:
        f /= b
        r += f * (i % b)
        i //= b
    return r


def render_blurred(rig, pose_at, t, place, size, ss=4, shutter=0.5, max_samples=20,
                   px_per_sample=2.2):
    """The character at frame t as a camera with the given shutter (in frames) sees it.

    The number of sub-frames follows the fastest rig point across the shutter; from 4
    sub-frames on each is drawn at half the supersampling with its grid jittered (a
    Halton pattern), so edges that do not move still average to their coverage."""
    if shutter <= 0:
        return render(rig, pose_at(t), place, size, ss)
    a, b = t - shutter / 2, t + shutter / 2
    pa, pb = _probe(rig, pose_at(a), place), _probe(rig, pose_at(b), place)
    travel = float(np.max(np.hypot(*(pa - pb).T)))
    n = int(np.clip(np.ceil(travel / px_per_sample), 1, max_samples))
    if n == 1:
        return render(rig, pose_at(t), place, size, ss)
    sub = ss if n < 4 else max(2, ss // 2)
    prem = np.zeros((size[0], size[1], 3), np.float32)
    alpha = np.zeros(size, np.float32)
    for k in range(n):
        tk = a + (k + 0.5) / n * (b - a)
        jx, jy = (_halton(k + 1, 2) - 0.5) / sub, (_halton(k + 1, 3) - 0.5) / sub
        shift = np.array([[1, 0, jx], [0, 1, jy], [0, 0, 1.0]])
        p, al = render(rig, pose_at(tk), shift @ place, size, sub)
        prem += p
        alpha += al
    return prem / n, alpha / n


def _probe(rig, pose, place):
    world = rig.world(pose)
    pts = []
    for part in rig.parts:
        geom = part.geom(pose) if callable(part.geom) else part.geom
        m = place @ world[part.bone]
        for p in geom[:3]:
            p = np.asarray(p, float)[:: max(len(p) // 6, 1)]
            pts.append(p @ m[:2, :2].T + m[:2, 2])
    return np.concatenate(pts)
