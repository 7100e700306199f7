"""Trial 36: a supersampled rasterizer for jointed characters.

Parts are drawn in painter's order onto a canvas SS times finer than the clip,
each sample fully covered or not; `resolve` box-averages SS x SS samples into
premultiplied colour and coverage alpha, so every edge, strand and blade tip is
antialiased by area.  Ops (screen coordinates, clip pixels):
  ("cap", p0, p1, r0, r1, rgb, style)      tapered capsule (limbs, torso)
  ("ell", c, a, b, ang, rgb, style)        ellipse (head, hands, body)
  ("poly", pts, rgb, style)                polygon (blade, cape, ears)
  ("lines", [pts, ...], width, rgb, style) polylines `width` clip px wide (strands)
style: mode flat | cel | shade, amb, spec, tex (texture amplitude), tscale,
outline (clip px), ink (rgb), dark (multiplier).
"""

from __future__ import annotations

import cv2
import numpy as np

LIGHT = np.array([-0.45, -0.62, 0.64], np.float32)
LIGHT /= np.linalg.norm(LIGHT)
HALF = LIGHT + np.array([0, 0, 1], np.float32)
HALF /= np.linalg.norm(HALF)
_TILE = cv2.GaussianBlur(np.tile(np.random.default_rng(36).random((96, 96)), (3, 3))
                         .astype(np.float32), (0, 0), 1.6)[96:192, 96:192]
_TILE = (_TILE - _TILE.mean()) / (np.abs(_TILE - _TILE.mean()).max() + 1e-6)


class Canvas:
    def __init__(self, x0: int, y0: int, w: int, h: int, ss: int):
        self.x0, self.y0, self.w, self.h, self.ss = x0, y0, w, h, ss
        self.rgb = np.zeros((h * ss, w * ss, 3), np.float32)
        self.cov = np.zeros((h * ss, w * ss), bool)

    def window(self, xmin, ymin, xmax, ymax):
        s = self.ss
        j0 = max(0, int(np.floor((xmin - self.x0) * s)))
        j1 = min(self.w * s, int(np.ceil((xmax - self.x0) * s)) + 1)
        i0 = max(0, int(np.floor((ymin - self.y0) * s)))
        i1 = min(self.h * s, int(np.ceil((ymax - self.y0) * s)) + 1)
        if j1 <= j0 or i1 <= i0:
            return None
        X = self.x0 + (np.arange(j0, j1, dtype=np.float32) + 0.5) / s
        Y = self.y0 + (np.arange(i0, i1, dtype=np.float32) + 0.5) / s
        return (slice(i0, i1), slice(j0, j1)), X[None, :], Y[:, None]

    def put(self, sl, mask, col):
        sub = self.rgb[sl]
        if col.ndim == 1:
            sub[mask] = col
        else:
            sub[mask] = col[mask]
        self.cov[sl] |= mask

    def resolve(self) -> np.ndarray:
        """(h, w, 4) float32: premultiplied RGB (0..255) and alpha (0..1)."""
        s, h, w = self.ss, self.h, self.w
        a = self.cov.reshape(h, s, w, s).mean(axis=(1, 3), dtype=np.float32)
        c = (self.rgb * self.cov[..., None]).reshape(h, s, w, s, 3).mean(axis=(1, 3))
        return np.concatenate([c, a[..., None]], axis=-1).astype(np.float32)


def _shade(base, style, nx, ny, nz, u, v):
    mode = style.get("mode", "shade")
    col = np.asarray(base, np.float32)
    shape = nz.shape
    if mode == "flat":
        k = np.ones(shape, np.float32)
    else:
        lam = np.clip(nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2], 0, 1)
        if mode == "cel":
            k = np.where(lam > style.get("thr", 0.42), 1.0, style.get("low", 0.68))
        else:
            amb = style.get("amb", 0.42)
            k = amb + (1 - amb) * lam
        k = k.astype(np.float32)
    tex = style.get("tex", 0.0)
    if tex:
        ts = style.get("tscale", 1.5)
        ti = (np.floor(v * ts).astype(np.int64)) % 96
        tj = (np.floor(u * ts).astype(np.int64)) % 96
        k = k * (1 + tex * _TILE[ti, tj])
    k = k * style.get("dark", 1.0)
    out = col[None, None, :] * k[..., None]
    sp = style.get("spec", 0.0)
    if sp and mode == "shade":
        h = np.clip(nx * HALF[0] + ny * HALF[1] + nz * HALF[2], 0, 1) ** 22
        out = out + (255 * sp) * h[..., None]
    return np.clip(out, 0, 255)


def _cap(cv, p0, p1, r0, r1, grow=0.0):
    r0, r1 = r0 + grow, r1 + grow
    rm = max(r0, r1) + 1
    w = cv.window(min(p0[0], p1[0]) - rm, min(p0[1], p1[1]) - rm,
                  max(p0[0], p1[0]) + rm, max(p0[1], p1[1]) + rm)
    if w is None:
        return None
    sl, X, Y = w
    ax, ay = p1[0] - p0[0], p1[1] - p0[1]
    L2 = max(ax * ax + ay * ay, 1e-6)
    L = np.sqrt(L2)
    t = np.clip(((X - p0[0]) * ax + (Y - p0[1]) * ay) / L2, 0, 1)
    dx, dy = X - (p0[0] + t * ax), Y - (p0[1] + t * ay)
    r = r0 + (r1 - r0) * t
    d2 = dx * dx + dy * dy
    mask = d2 <= r * r
    nx, ny = dx / r, dy / r
    nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0, 1))
    u = t * L
    v = (-(X - p0[0]) * ay + (Y - p0[1]) * ax) / L
    return sl, mask, nx, ny, nz, u, v


def _ell(cv, c, a, b, ang, grow=0.0):
    a, b = a + grow, b + grow
    rm = max(a, b) + 1
    w = cv.window(c[0] - rm, c[1] - rm, c[0] + rm, c[1] + rm)
    if w is None:
        return None
    sl, X, Y = w
    ca, sa = np.cos(ang), np.sin(ang)
    dx, dy = X - c[0], Y - c[1]
    xr, yr = ca * dx + sa * dy, -sa * dx + ca * dy
    lx, ly = xr / a, yr / b
    q = lx * lx + ly * ly
    mask = q <= 1
    nx, ny = ca * lx - sa * ly, sa * lx + ca * ly
    nz = np.sqrt(np.clip(1 - q, 0, 1))
    return sl, mask, nx, ny, nz, xr, yr


def _poly(cv, pts, grow=0.0, lines=None, width=0.0):
    allp = np.concatenate([np.asarray(p, np.float32).reshape(-1, 2)
                           for p in ([pts] if lines is None else lines)])
    m = grow + width + 2
    w = cv.window(allp[:, 0].min() - m, allp[:, 1].min() - m,
                  allp[:, 0].max() + m, allp[:, 1].max() + m)
    if w is None:
        return None
    sl, X, Y = w
    s = cv.ss
    ox, oy = sl[1].start, sl[0].start
    img = np.zeros((sl[0].stop - oy, sl[1].stop - ox), np.uint8)

    def fix(p):
        q = (np.asarray(p, np.float32).reshape(-1, 2) - [cv.x0, cv.y0]) * s - [ox, oy] - 0.5
        return np.rint(q * 16).astype(np.int32).reshape(-1, 1, 2)

    if lines is None:
        cv2.fillPoly(img, [fix(pts)], 1, cv2.LINE_8, 4)
        if grow > 0:
            cv2.polylines(img, [fix(pts)], True, 1, max(1, int(round(2 * grow * s))),
                          cv2.LINE_8, 4)
    else:
        th = max(1, int(round((width + 2 * grow) * s)))
        cv2.polylines(img, [fix(p) for p in lines], False, 1, th, cv2.LINE_8, 4)
    mask = img.astype(bool)
    zero = np.zeros(mask.shape, np.float32)
    return sl, mask, zero, zero, zero + 1, X + zero, Y + zero


def draw(cv: Canvas, op) -> None:
    kind = op[0]
    style = op[-1]
    col = op[-2]
    ow = style.get("outline", 0.0)
    for grow in ([ow, 0.0] if ow > 0 else [0.0]):
        if kind == "cap":
            g = _cap(cv, op[1], op[2], op[3], op[4], grow)
        elif kind == "ell":
            g = _ell(cv, op[1], op[2], op[3], op[4], grow)
        elif kind == "poly":
            g = _poly(cv, op[1], grow)
        else:
            g = _poly(cv, None, grow, lines=op[1], width=op[2])
        if g is None:
            continue
        sl, mask, nx, ny, nz, u, v = g
        if not mask.any():
            continue
        if grow > 0:
            cv.put(sl, mask, np.asarray(style.get("ink", (28, 22, 30)), np.float32))
        else:
            if kind in ("poly", "lines") and style.get("mode", "shade") != "flat":
                # a flat part lit by a gradient across its box, in the light's direction
                cx, cy = u.mean(), v.mean()
                span = max(float(u.max() - u.min()), float(v.max() - v.min()), 1.0)
                gx = -((u - cx) * LIGHT[0] + (v - cy) * LIGHT[1]) / span
                nz = np.clip(0.78 + 0.5 * gx, 0, 1).astype(np.float32)
                nx = ny = np.zeros_like(nz)
                sty = dict(style, mode="shade" if style.get("mode") == "shade" else "cel")
                cv.put(sl, mask, _shade(col, sty, nx, ny, nz / LIGHT[2] * 0.9, u, v))
            else:
                cv.put(sl, mask, _shade(col, style, nx, ny, nz, u, v))


def render(ops, box, ss: int) -> np.ndarray:
    """Draw ops into box (x0, y0, w, h) at SS x supersampling; premult RGBA of the box."""
    cv = Canvas(*box, ss)
    for op in ops:
        draw(cv, op)
    return cv.resolve()
