"""Trial 34's rasteriser: signed-distance primitives drawn at the frame's own resolution,
antialiased by their distance (thin strands by their width), shaded from the distance's
gradient as if each part were a rounded solid, with optional ink outline and a texture that
moves with the part. Painter's order, premultiplied."""
from __future__ import annotations

import numpy as np

LIGHT = np.array([-0.45, -0.62, 0.64], np.float32)
LIGHT /= np.linalg.norm(LIGHT)
HALF = LIGHT + np.array([0, 0, 1], np.float32)
HALF /= np.linalg.norm(HALF)

_TEX = {}


def _tex_table(seed):
    if seed not in _TEX:
        _TEX[seed] = np.random.default_rng(seed).normal(0, 1, (64, 64)).astype(np.float32)
    return _TEX[seed]


def value_noise(u, v, seed=0, scale=6.0):
    """Bilinear value noise sampled at part-local coordinates (it moves with the part)."""
    tab = _tex_table(seed)
    x, y = u / scale, v / scale
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = x - x0, y - y0
    a = tab[y0 % 64, x0 % 64]
    b = tab[y0 % 64, (x0 + 1) % 64]
    c = tab[(y0 + 1) % 64, x0 % 64]
    d = tab[(y0 + 1) % 64, (x0 + 1) % 64]
    return (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy


def _seg(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    L2 = dx * dx + dy * dy + 1e-9
    h = np.clip(((px - ax) * dx + (py - ay) * dy) / L2, 0, 1)
    qx, qy = px - ax - dx * h, py - ay - dy * h
    side = np.sign(qx * (-dy) + qy * dx)
    return np.sqrt(qx * qx + qy * qy), h, side


class Prim:
    """A shape: bbox, and on a grid its sdf, local radius (thickness), local coords."""
    thin_ok = False

    def bbox(self):
        raise NotImplementedError

    def eval(self, xx, yy):
        raise NotImplementedError


class Capsule(Prim):
    thin_ok = True

    def __init__(self, a, b, r0, r1=None):
        self.a, self.b = np.asarray(a, np.float32), np.asarray(b, np.float32)
        self.r0, self.r1 = float(r0), float(r0 if r1 is None else r1)

    def bbox(self):
        r = max(self.r0, self.r1)
        return (min(self.a[0], self.b[0]) - r, min(self.a[1], self.b[1]) - r,
                max(self.a[0], self.b[0]) + r, max(self.a[1], self.b[1]) + r)

    def eval(self, xx, yy):
        d, h, side = _seg(xx, yy, *self.a, *self.b)
        r = self.r0 + (self.r1 - self.r0) * h
        L = float(np.linalg.norm(self.b - self.a))
        return d - r, r, h * L, d * side


class Polyline(Prim):
    """A strand or whip: segments through points, radius tapering from r0 to r1."""
    thin_ok = True

    def __init__(self, pts, r0, r1):
        self.p = np.asarray(pts, np.float32)
        self.r0, self.r1 = float(r0), float(r1)
        seg = np.linalg.norm(np.diff(self.p, axis=0), axis=1)
        self.cum = np.concatenate([[0], np.cumsum(seg)])
        self.L = max(float(self.cum[-1]), 1e-6)

    def bbox(self):
        r = max(self.r0, self.r1)
        return (self.p[:, 0].min() - r, self.p[:, 1].min() - r,
                self.p[:, 0].max() + r, self.p[:, 1].max() + r)

    def eval(self, xx, yy):
        best = None
        for i in range(len(self.p) - 1):
            d, h, side = _seg(xx, yy, *self.p[i], *self.p[i + 1])
            s = (self.cum[i] + h * (self.cum[i + 1] - self.cum[i])) / self.L
            r = self.r0 + (self.r1 - self.r0) * s
            sd = d - r
            if best is None:
                best = [sd, r, s * self.L, d * side]
            else:
                m = sd < best[0]
                best[0] = np.where(m, sd, best[0])
                best[1] = np.where(m, r, best[1])
                best[2] = np.where(m, s * self.L, best[2])
                best[3] = np.where(m, d * side, best[3])
        return tuple(best)


class Ellipse(Prim):
    def __init__(self, c, ax, ay, ang=0.0):
        self.c = np.asarray(c, np.float32)
        self.ax, self.ay, self.ang = float(ax), float(ay), float(ang)

    def bbox(self):
        r = max(self.ax, self.ay)
        return (self.c[0] - r, self.c[1] - r, self.c[0] + r, self.c[1] + r)

    def eval(self, xx, yy):
        ca, sa = np.cos(self.ang), np.sin(self.ang)
        dx, dy = xx - self.c[0], yy - self.c[1]
        u, v = dx * ca + dy * sa, -dx * sa + dy * ca
        k0 = np.sqrt((u / self.ax) ** 2 + (v / self.ay) ** 2) + 1e-9
        k1 = np.sqrt((u / self.ax ** 2) ** 2 + (v / self.ay ** 2) ** 2) + 1e-9
        sd = k0 * (k0 - 1) / k1
        return sd, min(self.ax, self.ay), u, v


class Poly(Prim):
    """A closed polygon; `R` is the thickness used for its rounded shading."""

    def __init__(self, pts, R=20.0):
        self.p = np.asarray(pts, np.float32)
        self.R = float(R)
        self.c = self.p.mean(0)

    def bbox(self):
        return (self.p[:, 0].min(), self.p[:, 1].min(), self.p[:, 0].max(), self.p[:, 1].max())

    def eval(self, xx, yy):
        n = len(self.p)
        dmin = None
        inside = np.zeros(xx.shape, bool)
        for i in range(n):
            a, b = self.p[i], self.p[(i + 1) % n]
            d, _, _ = _seg(xx, yy, a[0], a[1], b[0], b[1])
            dmin = d if dmin is None else np.minimum(dmin, d)
            cond = (a[1] > yy) != (b[1] > yy)
            xint = (b[0] - a[0]) * (yy - a[1]) / (b[1] - a[1] + 1e-12) + a[0]
            inside ^= cond & (xx < xint)
        sd = np.where(inside, -dmin, dmin)
        return sd, self.R, xx - self.c[0], yy - self.c[1]


class Painter:
    """Premultiplied painter's-order canvas of the frame's size."""

    def __init__(self, H, W):
        self.H, self.W = H, W
        self.C = np.zeros((H, W, 3), np.float32)
        self.A = np.zeros((H, W), np.float32)

    def draw(self, prim, colour, style="shaded", ink=None, ink_w=0.0, tex=0.0, tex_seed=0,
             tex_scale=5.0, amb=0.55, dif=0.6, spec=0.0, cel=False, opacity=1.0, dim=1.0):
        x0, y0, x1, y1 = prim.bbox()
        pad = 2 + ink_w
        X0, Y0 = max(0, int(np.floor(x0 - pad))), max(0, int(np.floor(y0 - pad)))
        X1, Y1 = min(self.W, int(np.ceil(x1 + pad)) + 1), min(self.H, int(np.ceil(y1 + pad)) + 1)
        if X1 <= X0 or Y1 <= Y0:
            return
        yy, xx = np.mgrid[Y0:Y1, X0:X1].astype(np.float32)
        xx += 0.5
        yy += 0.5
        sd, R, u, v = prim.eval(xx, yy)
        R = np.broadcast_to(np.asarray(R, np.float32), sd.shape)
        base = np.asarray(colour, np.float32) * dim
        sl = (slice(Y0, Y1), slice(X0, X1))
        if ink is not None and ink_w > 0:
            self._over(sl, self._cov(sd, R, prim.thin_ok), np.asarray(ink, np.float32) * opacity)
            sd = sd + ink_w
            R = R - ink_w
        cov = self._cov(sd, R, prim.thin_ok) * opacity
        if style == "flat":
            col = np.broadcast_to(base, sd.shape + (3,)).copy()
            if cel:
                lit = self._lambert(sd, R)
                col = np.where((lit < 0.25)[..., None], col * 0.72, col)
        else:
            lit = self._lambert(sd, R)
            shade = amb + dif * lit
            col = base[None, None, :] * shade[..., None]
            if spec > 0:
                col = col + spec * 255 * self._spec(sd, R)[..., None]
        if tex > 0:
            n = value_noise(u, v, tex_seed, tex_scale) + 0.5 * value_noise(u, v, tex_seed + 1, tex_scale / 2.7)
            col = col * (1 + tex * n)[..., None]
        col = np.clip(col, 0, 255)
        self._over(sl, cov, col)

    @staticmethod
    def _cov(sd, R, thin_ok):
        wide = np.clip(0.5 - sd, 0, 1)
        if not thin_ok:
            return wide
        r = np.maximum(R, 0.0)
        thin = 2 * r * np.clip(1 - (sd + r), 0, 1)
        return np.where(r < 0.5, thin, wide)

    def _normal(self, sd, R):
        if sd.shape[0] < 2 or sd.shape[1] < 2:
            z = np.zeros_like(sd)
            return z, z, z + 1
        gy, gx = np.gradient(sd)
        g = np.sqrt(gx * gx + gy * gy) + 1e-6
        gx, gy = gx / g, gy / g
        t = np.clip(-sd / np.maximum(R, 0.5), 0, 1)
        nz = np.sqrt(1 - (1 - t) ** 2)
        return gx * (1 - t), gy * (1 - t), nz

    def _lambert(self, sd, R):
        nx, ny, nz = self._normal(sd, R)
        return np.clip(nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2], 0, 1)

    def _spec(self, sd, R):
        nx, ny, nz = self._normal(sd, R)
        return np.clip(nx * HALF[0] + ny * HALF[1] + nz * HALF[2], 0, 1) ** 24

    def _over(self, sl, cov, col):
        c = cov[..., None]
        if np.ndim(col) == 1:
            col = np.asarray(col, np.float32)[None, None, :]
        self.C[sl] = col * c + self.C[sl] * (1 - c)
        self.A[sl] = cov + self.A[sl] * (1 - cov)

    def rgba(self):
        """Premultiplied (C, A)."""
        return self.C, self.A


def straight(Cp, A):
    """Premultiplied -> straight float RGBA (colour 0..255, alpha 0..1)."""
    out = np.zeros(A.shape + (4,), np.float32)
    m = A > 1e-4
    out[..., :3][m] = Cp[m] / A[m][:, None]
    out[..., 3] = np.clip(A, 0, 1)
    out[..., :3] = np.clip(out[..., :3], 0, 255)
    return out
