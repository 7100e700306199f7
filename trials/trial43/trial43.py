#!/usr/bin/env python
"""Trial 43: warm, earthy, ADJACENT-hue palettes under light wrap, 4:2:0 and motion blur.

Game characters are very often drawn in neighbouring warm hues: brown leather straps on
red cloth, tan skin beside orange, bronze armour by copper hair, dark brown hair over a
maroon coat, olive-drab canvas beside khaki, wood handles with rust-red iron heads,
grey-brown fur with a tan muzzle. A pixel at the edge of a brown part mixed with some
screen may be read by a palette-guided matte as a DIFFERENT portrait colour (the red)
mixed with more screen: wrong colour or wrong alpha at the edge. This trial probes that.

Each case folder (see benchmarks/trials.py): clip.mp4, portrait.png (the unspilled RGBA
rest pose, full canvas), truth.npz (`rgba`, uint8 (N, H, W, 4), the character's true
straight RGBA per frame: motion blur in it, light wrap / screen / contact shadow not),
case.json (`action`, `expect_flags` for the two QC cases, and what the case holds).

H3's format: 24 fps, 17k+5 frames (56, 73, 90), sides multiples of 32, frame 0 = the
portrait over the user's flat canvas (0, 254, 0) or (0, 0, 254), the model's own screen
(gradient, vignette, grain, flicker) and its light wrap settling in over frames 1-k
(k = 2-4).

Characters: jointed 2-D rigs in 3/4 side view, each part a tapered capsule, ellipse or
polygon rasterised analytically at 3x (4x for small ones) and box-filtered down
(coverage alpha), lit per pixel from a top-left light with a dome/cylinder normal, with a
texture in the part's own coordinates (weave, leather, fur, wood grain, hair streaks,
metal + specular). Motion blur: K sub-frames over a 180-degree shutter, averaged
premultiplied (in the truth too).

Light wrap: opaque pixels within W px of the silhouette (distance transform of
alpha >= 0.5) take w = s * (1 - d/W)^p of the local (noise-free) screen colour; style
'mix' (lerp) or 'add' (added light, 0.7 of the screen); fractional pixels take the full s.

Encoding: own BT.601 limited-range RGB -> YCbCr, 2x2 chroma average (4:2:0), PyAV
libx264, one thread, mbtree=0, preset medium, CRF 18-24, untagged. truth.npz is a zip
with fixed timestamps, so two renders give the same bytes.

    .venv/bin/python trial43.py [NAME_SUBSTRING ...]      # TRIAL_OUT=DIR (default trials/_out/trial43)
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
import zipfile
from fractions import Fraction
from multiprocessing import Pool

import av
import cv2
import numpy as np

cv2.setNumThreads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("TRIAL_OUT") or os.path.join(os.path.dirname(HERE), "_out", "trial43")
FPS = 24

# ----------------------------------------------------------------------------- textures

def _wblur(n, sx, sy=None):
    """Gaussian blur with wrap-around (tileable)."""
    p = 32
    big = np.pad(n, p, mode="wrap")
    big = cv2.GaussianBlur(big, (0, 0), sigmaX=sx, sigmaY=sy if sy is not None else sx)
    return big[p:-p, p:-p]


def _tex(kind: str) -> np.ndarray:
    rng = np.random.default_rng({"cloth": 1, "leather": 2, "fur": 3, "hair": 4, "wood": 5,
                                 "metal": 6, "skin": 7, "canvas": 8}[kind])
    n = rng.standard_normal((64, 64)).astype(np.float32)
    yy, xx = np.mgrid[0:64, 0:64].astype(np.float32)
    if kind == "cloth":
        t = 0.6 * np.sin(2 * np.pi * xx / 4) * np.sin(2 * np.pi * yy / 4) + 0.4 * _wblur(n, 1.0)
    elif kind == "canvas":
        t = 0.5 * np.sin(2 * np.pi * (xx + yy) / 3) + 0.5 * _wblur(n, 1.5)
    elif kind == "leather":
        t = _wblur(n, 2.2) + 0.35 * n
    elif kind in ("fur", "hair"):
        t = _wblur(n, 6.0 if kind == "fur" else 9.0, 0.8)
    elif kind == "wood":
        m = _wblur(n, 4.0)
        t = np.sin(2 * np.pi * yy / 5.0 + 6.0 * m)
    elif kind == "metal":
        t = _wblur(n, 5.0, 0.7) + 0.3 * _wblur(n, 3.0)
    else:  # skin
        t = _wblur(n, 3.0)
    t = t - t.mean()
    return (t / (np.abs(t).max() + 1e-6)).astype(np.float32)


TEX = {k: _tex(k) for k in ("cloth", "canvas", "leather", "fur", "hair", "wood", "metal", "skin")}
TEX_AMP = {"cloth": 0.05, "canvas": 0.07, "leather": 0.11, "fur": 0.16, "hair": 0.18, "wood": 0.12, "metal": 0.05, "skin": 0.03}
_L = np.array([-0.45, -0.60, 0.66]); _L = _L / np.linalg.norm(_L)
_H = _L + np.array([0, 0, 1.0]); _H = _H / np.linalg.norm(_H)


class Mat:
    def __init__(self, col, tex="cloth", amb=0.52, dif=0.62, spec=0.0, far=1.0, tscale=0.8):
        self.col = np.array(col, np.float32)
        self.tex, self.amb, self.dif, self.spec, self.far, self.tscale = tex, amb, dif, spec, far, tscale

    def farside(self, k=0.78):
        m = Mat(self.col, self.tex, self.amb, self.dif, self.spec, k, self.tscale)
        return m

    def shade(self, nx, ny, nz, u, v, ss):
        lam = np.clip(nx * _L[0] + ny * _L[1] + nz * _L[2], 0, 1)
        f = (self.amb + self.dif * lam) * (0.86 + 0.14 * nz) * self.far
        ts = ss * self.tscale
        tx = TEX[self.tex]
        t = cv2.remap(tx, (u / ts).astype(np.float32), (v / ts).astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
        f = f * (1.0 + TEX_AMP[self.tex] * t)
        col = self.col[None, None, :] * f[..., None]
        if self.spec > 0:
            sp = np.clip(nx * _H[0] + ny * _H[1] + nz * _H[2], 0, 1) ** 24 * self.spec * 255 * self.far
            col = col + sp[..., None] * np.array([1.0, 0.9, 0.7], np.float32)
        return np.clip(col, 0, 255)


# ----------------------------------------------------------------------------- shapes (SS pixel coords)

class Shape:
    clip = None

    def grid(self, x0, y0, w, h):
        ys, xs = np.mgrid[y0:y0 + h, x0:x0 + w].astype(np.float32)
        return xs + 0.5, ys + 0.5


class Cap(Shape):
    def __init__(self, a, b, ra, rb, mat, clip=None):
        self.a, self.b = np.array(a, np.float64), np.array(b, np.float64)
        self.ra, self.rb, self.mat, self.clip = max(ra, 0.5), max(rb, 0.5), mat, clip
        r = max(self.ra, self.rb)
        self.bbox = (min(self.a[0], self.b[0]) - r - 1, min(self.a[1], self.b[1]) - r - 1,
                     max(self.a[0], self.b[0]) + r + 1, max(self.a[1], self.b[1]) + r + 1)

    def eval(self, x0, y0, w, h):
        xs, ys = self.grid(x0, y0, w, h)
        d = self.b - self.a
        L2 = float(d @ d) + 1e-9
        t = np.clip(((xs - self.a[0]) * d[0] + (ys - self.a[1]) * d[1]) / L2, 0, 1)
        ex = xs - (self.a[0] + t * d[0]); ey = ys - (self.a[1] + t * d[1])
        r = self.ra + (self.rb - self.ra) * t
        q = (ex * ex + ey * ey) / (r * r)
        m = q <= 1.0
        nz = np.sqrt(np.clip(1 - q, 0, 1))
        L = math.sqrt(L2)
        u = t * L
        v = (-ex * d[1] + ey * d[0]) / L
        return m, ex / r, ey / r, nz, u, v


class Ell(Shape):
    def __init__(self, c, rx, ry, ang, mat, clip=None):
        self.c = np.array(c, np.float64); self.rx, self.ry = max(rx, 0.5), max(ry, 0.5)
        self.ang, self.mat, self.clip = ang, mat, clip
        r = max(self.rx, self.ry)
        self.bbox = (self.c[0] - r - 1, self.c[1] - r - 1, self.c[0] + r + 1, self.c[1] + r + 1)

    def eval(self, x0, y0, w, h):
        xs, ys = self.grid(x0, y0, w, h)
        ca, sa = math.cos(self.ang), math.sin(self.ang)
        dx, dy = xs - self.c[0], ys - self.c[1]
        lx = (dx * ca + dy * sa) / self.rx
        ly = (-dx * sa + dy * ca) / self.ry
        q = lx * lx + ly * ly
        m = q <= 1
        nz = np.sqrt(np.clip(1 - q, 0, 1))
        nx = lx * ca - ly * sa; ny = lx * sa + ly * ca
        return m, nx, ny, nz, lx * self.rx, ly * self.ry


class Poly(Shape):
    def __init__(self, pts, axa, axb, hw, mat, clip=None):
        self.pts = np.array(pts, np.float64)
        self.a, self.b = np.array(axa, np.float64), np.array(axb, np.float64)
        self.hw, self.mat, self.clip = max(hw, 1.0), mat, clip
        self.bbox = (self.pts[:, 0].min() - 1, self.pts[:, 1].min() - 1, self.pts[:, 0].max() + 1, self.pts[:, 1].max() + 1)

    def eval(self, x0, y0, w, h):
        mm = np.zeros((h, w), np.uint8)
        p = np.round((self.pts - [x0 + 0.0, y0 + 0.0] - 0.0) * 16).astype(np.int32)
        # fillPoly samples pixel (i, j) at coordinate (i, j); our centres are x0+i+0.5
        p = np.round((self.pts - [x0 + 0.5, y0 + 0.5]) * 16).astype(np.int32)
        cv2.fillPoly(mm, [p], 1, lineType=cv2.LINE_8, shift=4)
        m = mm.astype(bool)
        xs, ys = self.grid(x0, y0, w, h)
        d = self.b - self.a
        L = math.sqrt(float(d @ d)) + 1e-9
        px, py = -d[1] / L, d[0] / L
        u = (xs - self.a[0]) * d[0] / L + (ys - self.a[1]) * d[1] / L
        v = (xs - self.a[0]) * px + (ys - self.a[1]) * py
        s = np.clip(v / self.hw, -1, 1)
        nz = np.sqrt(np.clip(1 - s * s * 0.85, 0, 1))
        return m, s * px, s * py, nz, u, v


def render(shapes, ss, outline=None):
    """Rasterise shapes (painter's order) at SS; box-filter down. Returns (premult (h,w,3), alpha (h,w), x0, y0) at 1x."""
    bx0 = min(s.bbox[0] for s in shapes); by0 = min(s.bbox[1] for s in shapes)
    bx1 = max(s.bbox[2] for s in shapes); by1 = max(s.bbox[3] for s in shapes)
    X0 = int(math.floor(bx0 / ss)) - 2; Y0 = int(math.floor(by0 / ss)) - 2
    X1 = int(math.ceil(bx1 / ss)) + 2; Y1 = int(math.ceil(by1 / ss)) + 2
    W, H = (X1 - X0) * ss, (Y1 - Y0) * ss
    rgb = np.zeros((H, W, 3), np.float32); a = np.zeros((H, W), np.float32)
    ox, oy = X0 * ss, Y0 * ss
    for s in shapes:
        x0 = max(int(math.floor(s.bbox[0])), ox); y0 = max(int(math.floor(s.bbox[1])), oy)
        x1 = min(int(math.ceil(s.bbox[2])), ox + W); y1 = min(int(math.ceil(s.bbox[3])), oy + H)
        if x1 <= x0 or y1 <= y0:
            continue
        w, h = x1 - x0, y1 - y0
        m, nx, ny, nz, u, v = s.eval(x0, y0, w, h)
        if s.clip is not None:
            cm = np.zeros_like(m)
            for c in s.clip:
                cm |= c.eval(x0, y0, w, h)[0]
            m &= cm
        if not m.any():
            continue
        col = s.mat.shade(nx, ny, nz, u, v, ss)
        sub = rgb[y0 - oy:y1 - oy, x0 - ox:x1 - ox]
        sub[m] = col[m]
        a[y0 - oy:y1 - oy, x0 - ox:x1 - ox][m] = 1.0
    if outline is not None:
        col, wpx = outline
        k = 2 * int(round(wpx * ss)) + 1
        er = cv2.erode((a > 0).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        ring = (a > 0) & (er == 0)
        rgb[ring] = 0.8 * np.array(col, np.float32) + 0.2 * rgb[ring]
    pm = rgb * a[..., None]
    pm1 = cv2.resize(pm, (W // ss, H // ss), interpolation=cv2.INTER_AREA)
    a1 = cv2.resize(a, (W // ss, H // ss), interpolation=cv2.INTER_AREA)
    return pm1, a1, X0, Y0


# ----------------------------------------------------------------------------- characters

def M(col, tex="cloth", **kw):
    return Mat(col, tex, **kw)


PALETTES = {
    # brown leather straps next to red cloth, tan skin, dark brown hair
    "ranger": dict(skin=M((214, 166, 124), "skin"), hair=M((64, 40, 26), "hair"), tunic=M((168, 42, 36), "cloth"),
                   vest=M((112, 72, 40), "leather"), strap=M((86, 54, 30), "leather"), pants=M((140, 100, 64), "canvas"),
                   boots=M((72, 46, 28), "leather"), gloves=M((98, 62, 36), "leather"), quiver=M((124, 82, 46), "leather"),
                   fletch=M((150, 44, 34), "cloth"), eye=M((30, 20, 16), "skin")),
    # bronze armour by copper hair, orange cloak, tan skin
    "bronze": dict(skin=M((220, 170, 130), "skin"), hair=M((186, 88, 42), "hair"), tunic=M((150, 52, 30), "cloth"),
                   armour=M((176, 120, 58), "metal", spec=0.55, amb=0.45, dif=0.7), cloak=M((214, 108, 38), "cloth"),
                   pants=M((120, 80, 50), "canvas"), boots=M((84, 52, 32), "leather"), gloves=M((104, 66, 38), "leather"),
                   blade=M((200, 152, 82), "metal", spec=0.8, amb=0.5, dif=0.6), grip=M((90, 56, 32), "leather"),
                   eye=M((40, 28, 20), "skin")),
    # olive-drab canvas next to khaki, wood-handled axe with rust-red iron
    "bandit": dict(skin=M((198, 146, 104), "skin"), hair=M((70, 46, 30), "hair"), jacket=M((78, 84, 38), "canvas"),
                   pants=M((182, 162, 112), "canvas"), belt=M((100, 66, 38), "leather"), boots=M((92, 60, 36), "leather"),
                   scarf=M((150, 62, 40), "cloth"), wood=M((130, 88, 52), "wood", tscale=0.6), iron=M((142, 64, 40), "metal", spec=0.25),
                   gloves=M((112, 78, 48), "leather"), eye=M((30, 20, 16), "skin")),
    # dark brown hair over a maroon coat, gold trim, brown gloves, wood staff
    "noble": dict(skin=M((178, 122, 92), "skin"), hair=M((58, 36, 26), "hair"), coat=M((108, 30, 38), "cloth"),
                  trim=M((192, 146, 62), "metal", spec=0.3), gloves=M((96, 60, 36), "leather"), pants=M((80, 50, 40), "cloth"),
                  boots=M((60, 36, 28), "leather"), wood=M((110, 64, 40), "wood", tscale=0.6), gem=M((214, 122, 40), "metal", spec=0.9),
                  shirt=M((196, 170, 140), "cloth"), eye=M((26, 18, 14), "skin")),
    # mid grey-brown fur, tan muzzle, rust bracers, leather shorts
    "wolf": dict(fur=M((122, 102, 86), "fur"), belly=M((182, 152, 118), "fur"), stripe=M((86, 66, 52), "fur"),
                 pants=M((96, 62, 40), "leather"), bracer=M((150, 66, 44), "leather"), claw=M((214, 198, 172), "skin"),
                 nose=M((40, 30, 28), "skin"), eye=M((200, 140, 40), "skin")),
    # copper beard over leather jerkin and orange shirt, bronze helmet, hammer
    "dwarf": dict(skin=M((210, 150, 110), "skin"), beard=M((176, 84, 42), "hair"), shirt=M((206, 112, 52), "cloth"),
                  jerkin=M((118, 76, 42), "leather"), helmet=M((168, 112, 56), "metal", spec=0.5, amb=0.45, dif=0.7),
                  pants=M((100, 70, 48), "canvas"), boots=M((66, 42, 28), "leather"), wood=M((128, 86, 50), "wood", tscale=0.6),
                  iron=M((138, 70, 46), "metal", spec=0.3), gloves=M((96, 62, 38), "leather"), eye=M((30, 20, 16), "skin")),
}

PROPS = {
    "human": dict(thigh=0.235, shin=0.225, torso=0.27, upper=0.155, fore=0.15, head=0.088, hipw=0.078, chestw=0.092,
                  rth=0.048, rsh=0.036, rup=0.034, rfo=0.029, foot=0.085, ankle=0.03),
    "dwarf": dict(thigh=0.17, shin=0.16, torso=0.27, upper=0.15, fore=0.14, head=0.105, hipw=0.11, chestw=0.125,
                  rth=0.06, rsh=0.048, rup=0.045, rfo=0.04, foot=0.09, ankle=0.035),
    "wolf": dict(thigh=0.23, shin=0.23, torso=0.27, upper=0.16, fore=0.16, head=0.085, hipw=0.08, chestw=0.105,
                 rth=0.052, rsh=0.037, rup=0.038, rfo=0.032, foot=0.09, ankle=0.03),
}


def rest_pose():
    return dict(x=0.0, y=0.0, lean=0.03, tilt=0.0, hipN=0.10, knN=0.05, hipF=-0.08, knF=0.04,
                shN=0.15, elN=0.30, shF=-0.10, elF=0.25, wrel=0.0, hem=0.0, hair=0.0, sx=1.0)


def D(th):
    return np.array([math.sin(th), math.cos(th)])


class Xf:
    """unit coords (x forward, y down, feet at 0) -> SS pixel coords, with horizontal mirror/squash sx."""

    def __init__(self, cx, gy, scale, ss, sx, piv):
        self.cx, self.gy, self.S, self.sx, self.piv = cx * ss, gy * ss, scale * ss, sx, piv

    def p(self, q):
        return (self.cx + (self.piv + self.sx * (q[0] - self.piv)) * self.S, self.gy + q[1] * self.S)

    def r(self, r):
        return r * self.S


def build(char, pose, xf: Xf, weapon_pose_override=None):
    pal = PALETTES[char["pal"]]
    body = char.get("body", "human")
    pr = PROPS[body]
    P = pose
    X = xf.p; R = xf.r
    sx = xf.sx
    shapes = []

    def cap(a, b, ra, rb, mat, clip=None):
        s = Cap(X(a), X(b), R(ra), R(rb), mat, clip); shapes.append(s); return s

    def ell(c, rx, ry, ang, mat, clip=None):
        s = Ell(X(c), R(rx) * max(abs(sx), 0.25), R(ry), ang * (1 if sx > 0 else -1), mat, clip); shapes.append(s); return s

    def poly(pts, a, b, hw, mat, clip=None):
        s = Poly([X(q) for q in pts], X(a), X(b), R(hw) * max(abs(sx), 0.25), mat, clip); shapes.append(s); return s

    # legs -> pelvis height so the lower foot touches the ground
    def legh(h, k):
        return pr["thigh"] * math.cos(h) + pr["shin"] * math.cos(h - k)

    ph = max(legh(P["hipN"], P["knN"]), legh(P["hipF"], P["knF"])) + pr["ankle"]
    pel = np.array([P["x"], -ph + P["y"]])
    up = np.array([math.sin(P["lean"]), -math.cos(P["lean"])])
    S = pel + up * pr["torso"]
    Nk = pel + up * (pr["torso"] + 0.03)
    hd = np.array([math.sin(P["lean"] + P["tilt"]), -math.cos(P["lean"] + P["tilt"])])
    Hc = Nk + hd * pr["head"] * 1.05 + np.array([0.012, 0])

    def leg(side):
        h, k = P["hip" + side], P["kn" + side]
        hip = pel + (np.array([0.012, 0.0]) if side == "N" else np.array([-0.016, 0.0]))
        K = hip + pr["thigh"] * D(h)
        A = K + pr["shin"] * D(h - k)
        fa = -0.25 * max(0.0, k - 0.5)
        toe = A + pr["foot"] * np.array([math.cos(fa), -math.sin(fa)]) + np.array([0, 0.008])
        return hip, K, A, toe

    def arm(side):
        sh, el = P["sh" + side], P["el" + side]
        Sp = S + (np.array([0.012, 0.012]) if side == "N" else np.array([-0.02, 0.01]))
        E = Sp + pr["upper"] * D(sh)
        Wr = E + pr["fore"] * D(sh + el)
        return Sp, E, Wr, sh + el

    pal_f = {k: v.farside() for k, v in pal.items()}
    kind = char["kind"]
    weapon = char.get("weapon")

    def draw_leg(side, pl):
        hip, K, A, toe = leg(side)
        if kind == "wolf":
            cap(hip, K, pr["rth"], pr["rth"] * 0.85, pl["pants"])
            cap(K, A, pr["rsh"], pr["rsh"] * 0.8, pl["fur"])
            cap(A + np.array([-0.01, 0]), toe, pr["ankle"] * 0.95, pr["ankle"] * 0.7, pl["fur"])
            for i in range(3):
                cap(toe + np.array([-0.005, -0.01 + 0.01 * i]), toe + np.array([0.025, 0.004 + 0.008 * i]), 0.006, 0.002, pl["claw"])
            return
        cap(hip, K, pr["rth"], pr["rth"] * 0.85, pl["pants"])
        mid = K + 0.35 * (A - K)
        cap(K, mid, pr["rsh"] * 1.02, pr["rsh"] * 0.95, pl["pants"])
        cap(mid - 0.02 * (A - K), A, pr["rsh"] * 1.08, pr["rsh"] * 0.92, pl["boots"])
        cap(A + np.array([-0.012, 0.0]), toe, pr["ankle"] * 1.05, pr["ankle"] * 0.85, pl["boots"])

    def draw_arm(side, pl, hold=None):
        Sp, E, Wr, fang = arm(side)
        if kind == "wolf":
            cap(Sp, E, pr["rup"], pr["rup"] * 0.9, pl["fur"])
            cap(E, Wr, pr["rfo"] * 1.1, pr["rfo"] * 1.0, pl["fur"])
            cap(E + 0.35 * (Wr - E), Wr - 0.1 * (Wr - E), pr["rfo"] * 1.25, pr["rfo"] * 1.15, pl["bracer"])
            hnd = Wr + 0.03 * D(fang)
            ell(hnd, 0.036, 0.03, -fang, pl["fur"])
            for i in range(3):
                t0 = hnd + 0.02 * D(fang + 0.4 * (i - 1))
                cap(t0, t0 + 0.035 * D(fang + 0.5 * (i - 1) + 0.3), 0.007, 0.002, pl["claw"])
            return
        sleeve = {"ranger": "tunic", "bronze": "tunic", "bandit": "jacket", "noble": "coat", "dwarf": "shirt"}[char["pal"]]
        cap(Sp, E, pr["rup"], pr["rup"] * 0.92, pl[sleeve])
        if char["pal"] == "ranger":
            cap(E, Wr, pr["rfo"], pr["rfo"] * 0.85, pl["skin"])
            cap(E + 0.45 * (Wr - E), Wr, pr["rfo"] * 1.12, pr["rfo"] * 1.02, pl["gloves"])
        elif char["pal"] == "bronze":
            cap(E, Wr, pr["rfo"], pr["rfo"] * 0.85, pl["skin"])
            cap(E + 0.3 * (Wr - E), Wr, pr["rfo"] * 1.15, pr["rfo"] * 1.05, pl["gloves"])
        elif char["pal"] == "bandit":
            cap(E, Wr, pr["rfo"] * 1.05, pr["rfo"] * 0.95, pl["jacket"])
            cap(E + 0.8 * (Wr - E), Wr, pr["rfo"] * 1.0, pr["rfo"] * 0.95, pl["gloves"])
        elif char["pal"] == "noble":
            cap(E, Wr, pr["rfo"] * 1.05, pr["rfo"] * 1.1, pl["coat"])
            cap(E + 0.78 * (Wr - E), E + 0.92 * (Wr - E), pr["rfo"] * 1.22, pr["rfo"] * 1.22, pl["trim"])
        else:  # dwarf
            cap(E, Wr, pr["rfo"], pr["rfo"] * 0.95, pl["shirt"])
            cap(E + 0.4 * (Wr - E), Wr, pr["rfo"] * 1.15, pr["rfo"] * 1.1, pl["gloves"])
        if hold is not None:
            hold(Wr, fang)
        hm = pl["gloves"] if "gloves" in pl else pl["skin"]
        ell(Wr + 0.022 * D(fang), 0.034 if kind != "dwarf" else 0.042, 0.028 if kind != "dwarf" else 0.036, -fang, hm)

    def draw_weapon(Wr, fang):
        if weapon is None:
            return
        wa = fang + P["wrel"]
        d = D(wa)
        if weapon == "axe":
            a, b = Wr - 0.06 * d, Wr + 0.36 * d
            cap(a, b, 0.016, 0.014, pal["wood"])
            n = np.array([-d[1], d[0]])  # perpendicular (blade side)
            h0 = Wr + 0.27 * d; h1 = Wr + 0.35 * d
            poly([h0 + 0.01 * n, h1 + 0.01 * n, h1 + 0.03 * d + 0.11 * n, h0 - 0.05 * d + 0.12 * n, h0 - 0.01 * n + 0.0 * d],
                 (h0 + h1) / 2, (h0 + h1) / 2 + 0.12 * n, 0.05, pal["iron"])
            cap(h1 - 0.01 * n, h1 - 0.05 * n - 0.02 * d, 0.012, 0.004, pal["iron"])
        elif weapon == "sword":
            cap(Wr - 0.05 * d, Wr + 0.04 * d, 0.015, 0.014, pal["grip"])
            n = np.array([-d[1], d[0]])
            cap(Wr + 0.045 * d - 0.05 * n, Wr + 0.045 * d + 0.05 * n, 0.012, 0.012, pal["armour"])
            b0 = Wr + 0.055 * d
            poly([b0 - 0.022 * n, b0 + 0.022 * n, b0 + 0.36 * d + 0.016 * n, b0 + 0.42 * d, b0 + 0.36 * d - 0.016 * n],
                 b0, b0 + 0.42 * d, 0.02, pal["blade"])
        elif weapon == "staff":
            cap(Wr - 0.40 * d, Wr + 0.50 * d, 0.014, 0.017, pal["wood"])
            ell(Wr + 0.53 * d, 0.04, 0.045, -wa, pal["trim"])
            ell(Wr + 0.545 * d, 0.026, 0.03, -wa, pal["gem"])
        elif weapon == "hammer":
            cap(Wr - 0.05 * d, Wr + 0.32 * d, 0.017, 0.016, pal["wood"])
            n = np.array([-d[1], d[0]])
            hc = Wr + 0.33 * d
            poly([hc - 0.07 * n - 0.04 * d, hc + 0.07 * n - 0.04 * d, hc + 0.07 * n + 0.045 * d, hc - 0.07 * n + 0.045 * d],
                 hc - 0.07 * n, hc + 0.07 * n, 0.045, pal["iron"])

    # ---- far side
    draw_arm("F", pal_f)
    draw_leg("F", pal_f)
    # ---- back items
    pc = char["pal"]
    if pc == "ranger":
        q0 = S + np.array([-0.07, -0.02]) + up * 0.03; q1 = pel + np.array([-0.06, -0.04])
        cap(q0 + (q0 - q1) * 0.15, q1, 0.032, 0.028, pal["quiver"])
        for i in range(3):
            t = q0 + (q0 - q1) * 0.15 + np.array([0.012 * (i - 1), -0.01])
            cap(t, t + np.array([-0.015 + 0.01 * i, -0.06]), 0.007, 0.011, pal["fletch"])
    if pc == "bronze":
        hem = P["hem"]
        c0 = S + np.array([-0.03, -0.01]); c1 = S + np.array([-0.10, 0.03])
        poly([c0, c1, pel + np.array([-0.19 + hem, 0.30]), pel + np.array([-0.05 + hem * 0.6, 0.33]), pel + np.array([0.02, 0.05])],
             S + np.array([-0.05, 0]), pel + np.array([-0.10 + hem, 0.31]), 0.08, pal["cloak"])
    if pc == "noble":
        hem = P["hem"]
        poly([S + np.array([0.07, 0.0]), S + np.array([-0.09, 0.0]), pel + np.array([-0.15 + hem, 0.30]),
              pel + np.array([0.13 + 0.5 * hem, 0.29]), pel + np.array([0.10, 0.0])],
             S, pel + np.array([hem * 0.7, 0.3]), 0.11, pal_f["coat"])
    if kind == "wolf":
        tb = pel + np.array([-0.06, 0.02]); ang = 2.1 + P["hair"] * 0.8
        pts = [tb]
        for i in range(4):
            ang += 0.18 + 0.12 * math.sin(P["hair"] * 3 + i)
            pts.append(pts[-1] + 0.075 * np.array([-math.sin(ang - 1.6), -math.cos(ang - 1.6) * 0.6]))
        for i in range(4):
            mat = pal["fur"] if i < 3 else pal["belly"]
            cap(pts[i], pts[i + 1], 0.035 - 0.004 * i, 0.031 - 0.006 * i, mat)
    # ---- torso
    if kind == "wolf":
        tor = cap(pel, S, pr["hipw"], pr["chestw"], pal["fur"])
        cap(pel + np.array([0.03, -0.02]) + up * 0.03, S + np.array([0.035, 0.03]), pr["hipw"] * 0.55, pr["chestw"] * 0.6, pal["belly"], clip=[tor])
        for i in range(3):
            s0 = pel + up * (0.08 + 0.06 * i) + np.array([-0.1, 0])
            cap(s0, s0 + np.array([0.07, 0.02]), 0.012, 0.004, pal["stripe"], clip=[tor])
        poly([pel + np.array([-0.085, -0.03]), pel + np.array([0.085, -0.03]), pel + np.array([0.09, 0.09]), pel + np.array([-0.09, 0.08])],
             pel + np.array([0, -0.03]), pel + np.array([0, 0.09]), 0.09, pal["pants"])
    else:
        tmat = {"ranger": "tunic", "bronze": "tunic", "bandit": "jacket", "noble": "shirt", "dwarf": "shirt"}[pc]
        tor = cap(pel, S, pr["hipw"], pr["chestw"], pal[tmat])
        if pc in ("ranger", "bronze", "dwarf"):
            hem = P["hem"]
            skirt = poly([pel + np.array([-0.08, -0.03]), pel + np.array([0.08, -0.03]), pel + np.array([0.10 + hem, 0.12]),
                          pel + np.array([-0.10 + hem, 0.11])], pel, pel + np.array([hem, 0.12]), 0.1,
                         pal["tunic"] if pc != "dwarf" else pal["jerkin"])
        else:
            skirt = None
    # ---- near leg
    draw_leg("N", pal)
    # ---- overlays
    if pc == "ranger":
        cap(pel + np.array([-0.03, -0.03]) + up * 0.02, S + np.array([-0.03, 0.02]), pr["hipw"] * 0.85, pr["chestw"] * 0.8, pal["vest"], clip=[tor])
        a0 = S + np.array([0.05, 0.0]); a1 = pel + np.array([-0.09, -0.02])
        n = np.array([-(a1 - a0)[1], (a1 - a0)[0]]); n = n / np.linalg.norm(n) * 0.017
        poly([a0 - n, a0 + n, a1 + n, a1 - n], a0, a1, 0.017, pal["strap"], clip=[tor])
        poly([pel + np.array([-0.12, -0.05]), pel + np.array([0.12, -0.05]), pel + np.array([0.12, -0.005]), pel + np.array([-0.12, -0.005])],
             pel + np.array([0, -0.05]), pel, 0.03, pal["strap"], clip=[tor, skirt])
    elif pc == "bronze":
        arm_ = cap(pel + up * 0.06 + np.array([0.005, 0]), S + np.array([0.0, 0.025]), pr["hipw"] * 1.05, pr["chestw"] * 1.06, pal["armour"])
        poly([pel + np.array([-0.11, -0.02]), pel + np.array([0.11, -0.02]), pel + np.array([0.11, 0.025]), pel + np.array([-0.11, 0.025])],
             pel + np.array([0, -0.02]), pel + np.array([0, 0.025]), 0.025, pal["gloves"], clip=[tor, skirt, arm_])
    elif pc == "bandit":
        poly([pel + np.array([-0.12, -0.04]), pel + np.array([0.12, -0.04]), pel + np.array([0.12, 0.0]), pel + np.array([-0.12, 0.0])],
             pel + np.array([0, -0.04]), pel, 0.025, pal["belt"], clip=[tor])
        poly([pel + np.array([-0.09, -0.035]), pel + np.array([0.09, -0.035]), pel + np.array([0.095, 0.10]), pel + np.array([-0.095, 0.10])],
             pel, pel + np.array([0, 0.1]), 0.09, pal["jacket"])
        poly([pel + np.array([-0.09, -0.035]), pel + np.array([0.09, -0.035]), pel + np.array([0.09, 0.005]), pel + np.array([-0.09, 0.005])],
             pel, pel + np.array([0, 0.005]), 0.02, pal["belt"])
        sc = S + np.array([0.0, 0.0])
        cap(sc + np.array([-0.06, 0.0]), sc + np.array([0.06, 0.005]), 0.035, 0.03, pal["scarf"])
        cap(sc + np.array([-0.05, 0.0]), sc + np.array([-0.10 + P["hem"], 0.09]), 0.02, 0.012, pal["scarf"])
    elif pc == "noble":
        hem = P["hem"]
        coat = poly([S + np.array([0.085, -0.005]), S + np.array([-0.095, -0.005]), pel + np.array([-0.13 + hem, 0.31]),
                     pel + np.array([0.02 + 0.7 * hem, 0.32]), pel + np.array([0.10, 0.02])],
                    S + np.array([-0.005, 0]), pel + np.array([hem * 0.7, 0.3]), 0.10, pal["coat"])
        cap(S + np.array([0.06, 0.0]), pel + np.array([0.095, 0.02]), 0.011, 0.011, pal["trim"], clip=[coat])
        poly([pel + np.array([-0.15 + hem, 0.285]), pel + np.array([0.02 + 0.7 * hem, 0.295]), pel + np.array([0.02 + 0.7 * hem, 0.32]),
              pel + np.array([-0.15 + hem, 0.32])], pel + np.array([0, 0.29]), pel + np.array([0, 0.32]), 0.02, pal["trim"], clip=[coat])
    elif pc == "dwarf":
        cap(pel + up * 0.02, S + np.array([0.0, 0.03]), pr["hipw"] * 1.04, pr["chestw"] * 0.98, pal["jerkin"])
        poly([pel + np.array([-0.14, -0.05]), pel + np.array([0.14, -0.05]), pel + np.array([0.14, 0.0]), pel + np.array([-0.14, 0.0])],
             pel + np.array([0, -0.05]), pel, 0.03, pal["gloves"], clip=[tor, skirt])
    # ---- neck & head
    if kind == "wolf":
        cap(S, Nk + hd * 0.03, 0.05, 0.05, pal["fur"])
        ell(Hc, pr["head"] * 1.05, pr["head"] * 0.95, P["tilt"], pal["fur"])
        sn0 = Hc + np.array([0.04, 0.02]); sn1 = sn0 + 0.09 * np.array([math.cos(P["tilt"] + 0.12), math.sin(P["tilt"] + 0.12)])
        cap(sn0, sn1, 0.048, 0.03, pal["fur"])
        cap(sn0 + np.array([0.0, 0.02]), sn1 + np.array([-0.005, 0.012]), 0.03, 0.018, pal["belly"])
        ell(sn1 + np.array([0.012, -0.006]), 0.016, 0.013, 0.0, pal["nose"])
        for dx, mat in ((-0.055, pal_f["fur"]), (-0.015, pal["fur"])):
            e0 = Hc + np.array([dx, -0.06])
            poly([e0 + np.array([-0.03, 0.01]), e0 + np.array([0.03, 0.01]), e0 + np.array([-0.01 - P["hair"] * 0.05, -0.10])],
                 e0, e0 + np.array([0, -0.1]), 0.03, mat)
        ell(Hc + np.array([0.045, -0.015]), 0.012, 0.009, 0.0, pal["eye"])
    else:
        sk = pal["skin"]
        cap(S, Nk + hd * 0.02, 0.03 if kind != "dwarf" else 0.04, 0.028, sk)
        hr = pr["head"]
        hair = pal["hair"] if "hair" in pal else pal["beard"]
        if pc == "noble":  # long hair falling over the coat's back
            h0 = Hc + np.array([-0.02, -0.02])
            poly([h0 + np.array([-0.07, -0.04]), h0 + np.array([0.03, -0.02]), S + np.array([-0.02 + P["hair"] * 0.3, 0.09]),
                  S + np.array([-0.11 + P["hair"], 0.08])], h0, S + np.array([-0.06, 0.08]), 0.05, pal["hair"])
        if pc == "bronze":  # copper hair mass behind
            h0 = Hc + np.array([-0.03, -0.02])
            poly([h0 + np.array([-0.06, -0.05]), h0 + np.array([0.04, -0.03]), S + np.array([-0.03 + P["hair"] * 0.5, 0.02]),
                  S + np.array([-0.12 + P["hair"], 0.0])], h0, S + np.array([-0.07, 0.02]), 0.05, pal["hair"])
        if pc == "dwarf":
            cap(Hc + np.array([-0.01, 0.02]), Hc + np.array([0.03, 0.16]), 0.075, 0.035, pal["beard"])
        ell(Hc, hr * 0.95, hr * 1.05, P["tilt"], sk)
        ell(Hc + np.array([0.085 if kind != "dwarf" else 0.1, 0.01]), 0.018, 0.024, 0.2, sk)  # nose
        ell(Hc + np.array([-0.02, 0.005]), 0.016, 0.024, 0.0, sk.farside(0.85))  # ear
        ell(Hc + np.array([0.045, -0.01]), 0.01, 0.013, 0.0, pal["eye"])
        if pc == "dwarf":
            cap(Hc + np.array([0.02, 0.04]), Hc + np.array([0.08, 0.19]), 0.06, 0.025, pal["beard"])
            cap(Hc + np.array([0.05, 0.03]), Hc + np.array([0.11, 0.05]), 0.022, 0.012, pal["beard"])
            hel = ell(Hc + np.array([-0.005, -0.035]), hr * 1.05, hr * 0.82, P["tilt"], pal["helmet"])
            cap(Hc + np.array([-0.1, -0.005]), Hc + np.array([0.09, -0.01]), 0.016, 0.016, pal["helmet"])
            cap(Hc + np.array([0.0, -0.12]), Hc + np.array([-0.02, -0.16]), 0.012, 0.004, pal["helmet"])
        else:
            cap_ = ell(Hc + np.array([-0.018, -0.03]), hr * 0.98, hr * 0.85, P["tilt"] - 0.2, hair)
            cap(Hc + np.array([0.0, -0.07]), Hc + np.array([0.07, -0.045]), 0.03, 0.018, hair)
            if pc == "ranger":
                cap(Hc + np.array([-0.07, -0.01]), Hc + np.array([-0.10 + P["hair"] * 0.3, 0.07]), 0.03, 0.014, hair)
        # strands
        ns = char.get("strands", 0)
        if ns:
            rng = np.random.default_rng(char.get("seed", 0) + 77)
            base = rng.uniform(0, 1, ns); ln = rng.uniform(0.08, 0.2, ns); cv = rng.uniform(-0.6, 0.6, ns); th = rng.uniform(0.0035, 0.006, ns)
            for i in range(ns):
                if pc == "dwarf":
                    o = Hc + np.array([0.0 + 0.08 * base[i], 0.06 + 0.05 * base[i]])
                    a0 = 0.25 + 0.5 * base[i]
                else:
                    o = Hc + np.array([-0.02 - 0.06 * base[i], -0.07 + 0.07 * base[i]])
                    a0 = -0.5 - 0.4 * base[i] + P["hair"] * 1.5
                pts = [o]
                for k in range(3):
                    ang = a0 + cv[i] * (k + 1) * 0.3 + 0.25 * math.sin(P["hair"] * 4 + i)
                    pts.append(pts[-1] + ln[i] / 3 * D(ang))
                for k in range(3):
                    cap(pts[k], pts[k + 1], th[i] * (1 - 0.25 * k), th[i] * (0.75 - 0.25 * k) + 0.001, hair)
    # ---- near arm + weapon
    draw_arm("N", pal, hold=draw_weapon)
    return shapes


# ----------------------------------------------------------------------------- motion

def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def lerp(a, b, t):
    return {k: a[k] + (b.get(k, a[k]) - a[k]) * t for k in a}


def keyed(keys, t, rest):
    """keys: list of (frame, overrides, linear?)."""
    full = [(f, dict(rest, **o), lin) for f, o, lin in keys]
    if t <= full[0][0]:
        return dict(full[0][1])
    for (f0, p0, _), (f1, p1, lin) in zip(full, full[1:]):
        if t <= f1:
            u = (t - f0) / max(f1 - f0, 1e-6)
            return lerp(p0, p1, u if lin else smooth(u))
    return dict(full[-1][1])


def pose_at(case, t):
    act = case["action"]
    rest = dict(rest_pose(), **case["char"].get("rest", {}))
    ramp = smooth(t / 5.0)
    if act in ("walk", "run"):
        P = case.get("period", 22 if act == "walk" else 14)
        ph = 2 * math.pi * t / P + case.get("phase", 0.0)
        s, c = math.sin(ph), math.cos(ph)
        if act == "walk":
            g = dict(hipN=0.42 * s, knN=0.08 + 0.65 * max(0, c) ** 1.5, hipF=-0.42 * s, knF=0.08 + 0.65 * max(0, -c) ** 1.5,
                     shN=-0.38 * s, elN=0.32 + 0.15 * max(0, -s), shF=0.38 * s, elF=0.3 + 0.15 * max(0, s),
                     lean=0.07, tilt=0.02 * math.sin(2 * ph), y=0.004 * math.cos(2 * ph), hem=0.035 * s, hair=0.06 * math.sin(2 * ph))
        else:
            g = dict(hipN=0.72 * s, knN=0.3 + 1.1 * max(0, c) ** 1.2, hipF=-0.72 * s, knF=0.3 + 1.1 * max(0, -c) ** 1.2,
                     shN=-0.85 * s, elN=1.35, shF=0.85 * s, elF=1.35, lean=0.26, tilt=-0.08, y=-0.035 * abs(math.sin(ph)),
                     hem=-0.09 + 0.04 * math.sin(2 * ph), hair=-0.35 + 0.08 * math.sin(2 * ph))
        if "wrel_walk" in case:
            g["wrel"] = case["wrel_walk"]
        p = lerp(rest, dict(rest, **g), ramp)
        p["x"] = rest["x"] + case.get("drift", 0.0) * t
    elif act == "idle":
        P = 34
        b = math.sin(2 * math.pi * t / P)
        g = dict(lean=rest["lean"] + 0.045 * b, tilt=0.07 * math.sin(2 * math.pi * t / P + 1.0), shN=rest["shN"] + 0.14 * b,
                 shF=rest["shF"] - 0.1 * b, elN=rest["elN"] + 0.18 * b, elF=rest["elF"] + 0.12 * b,
                 knN=0.05 + 0.10 * (1 + b), knF=0.04 + 0.10 * (1 + b), hipN=rest["hipN"] + 0.05 * (1 + b), hipF=rest["hipF"] + 0.04 * (1 + b),
                 hem=0.03 * b, hair=0.08 * math.sin(2 * math.pi * t / P + 0.5), x=0.015 * math.sin(math.pi * t / P))
        p = lerp(rest, dict(rest, **g), ramp)
    else:
        p = keyed(case["keys"], t, rest)
    # turn (mirror) for the FACING case
    if "turn" in case:
        t0, dur = case["turn"]
        if t <= t0:
            sx = 1.0
        elif t >= t0 + dur:
            sx = -1.0
        else:
            sx = math.cos(math.pi * (t - t0) / dur)
            sx = math.copysign(max(abs(sx), 0.2), sx if abs(sx) > 1e-6 else -1)
        p["sx"] = sx
    return p


# keyframe sets (frame, overrides, linear-into-this-key)
ATTACK_KEYS = [
    (0, {}, False), (4, {}, False),
    (19, dict(shN=-2.5, elN=0.55, lean=-0.12, hipN=0.32, knN=0.18, hipF=-0.25, knF=0.1, shF=0.55, elF=0.7, wrel=0.25, hem=0.05, hair=0.12), False),
    (22, dict(shN=-2.7, elN=0.45, lean=-0.15, hipN=0.34, knN=0.2, hipF=-0.26, knF=0.1, shF=0.6, elF=0.75, wrel=0.35, hem=0.06, hair=0.15), False),
    (25, dict(shN=1.15, elN=0.1, lean=0.3, hipN=0.55, knN=0.55, hipF=-0.45, knF=0.22, shF=-0.55, elF=0.3, wrel=-0.35, hem=-0.06, hair=-0.2), True),
    (36, dict(shN=1.05, elN=0.18, lean=0.27, hipN=0.52, knN=0.5, hipF=-0.43, knF=0.2, shF=-0.5, elF=0.35, wrel=-0.3, hem=-0.03, hair=-0.1), False),
    (54, {}, False),
]
SWORD_ATTACK_KEYS = [(f, dict(o, wrel=o.get("wrel", 0.0) + (1.2 if f not in (0, 4, 54) else 0.0)), lin) for f, o, lin in ATTACK_KEYS]
CLAW_KEYS = [
    (0, {}, False), (4, {}, False),
    (18, dict(shN=-1.9, elN=0.9, lean=-0.05, hipN=0.3, knN=0.25, hipF=-0.2, knF=0.15, shF=0.7, elF=1.0, hair=0.2, tilt=-0.1), False),
    (21, dict(shN=1.6, elN=0.2, lean=0.32, hipN=0.5, knN=0.6, hipF=-0.42, knF=0.25, shF=-0.6, elF=0.4, hair=-0.25, tilt=0.12), True),
    (28, dict(shN=-1.2, elN=1.0, lean=0.05, hipN=0.4, knN=0.4, hipF=-0.3, knF=0.2, shF=1.5, elF=0.3, hair=0.15, tilt=-0.05), False),
    (31, dict(shN=0.4, elN=0.4, lean=0.3, hipN=0.45, knN=0.55, hipF=-0.4, knF=0.25, shF=-1.4, elF=0.6, hair=-0.2, tilt=0.1), True),
    (40, dict(shN=0.5, elN=0.5, lean=0.2, hipN=0.4, knN=0.45, hipF=-0.35, knF=0.2, shF=-0.9, elF=0.6, hair=-0.1), False),
    (54, {}, False),
]
SKILL_KEYS = [
    (0, {}, False), (4, {}, False),
    (14, dict(knN=0.55, knF=0.5, hipN=0.35, hipF=0.06, lean=0.16, shN=0.5, elN=1.2, shF=0.4, elF=1.3, wrel=1.6, hem=0.04, hair=0.05), False),
    (22, dict(shN=2.25, elN=0.15, shF=1.85, elF=0.25, lean=-0.12, knN=0.1, hipN=0.22, hipF=-0.16, knF=0.06, wrel=0.45, hem=-0.07, hair=-0.15, tilt=-0.12), False),
    (32, dict(shN=2.35, elN=0.1, shF=1.95, elF=0.2, lean=-0.14, knN=0.1, hipN=0.22, hipF=-0.16, knF=0.06, wrel=0.4, hem=-0.03, hair=-0.08, tilt=-0.14), False),
    (40, dict(shN=2.15, elN=0.2, shF=1.7, elF=0.3, lean=-0.09, knN=0.1, hipN=0.2, hipF=-0.15, knF=0.06, wrel=0.5, hem=-0.05, hair=-0.1, tilt=-0.1), False),
    (54, {}, False),
]
HURT_KEYS = [
    (0, {}, False), (3, {}, False),
    (7, dict(lean=-0.45, tilt=-0.35, x=-0.07, shN=1.2, elN=0.6, shF=1.5, elF=0.4, hipN=0.38, knN=0.3, hipF=-0.1, knF=0.5, hem=0.09, hair=0.3), True),
    (14, dict(lean=-0.36, tilt=-0.25, x=-0.10, shN=0.9, elN=0.7, shF=1.1, elF=0.5, hipN=0.3, knN=0.35, hipF=-0.12, knF=0.45, hem=0.06, hair=0.2), False),
    (30, dict(lean=-0.1, tilt=-0.05, x=-0.07, shN=0.4, elN=0.5, shF=0.3, elF=0.4, hipN=0.2, knN=0.2, hipF=-0.1, knF=0.2, hem=0.02), False),
    (52, dict(x=-0.04), False),
]

# ----------------------------------------------------------------------------- screen, wrap, encode

def screen_fields(case, W, H):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    gx, gy, vig = case.get("grad", (0.0, 0.0)) + (case.get("vig", 0.0),)
    g = 1 + gy * (yy / H - 0.5) + gx * (xx / W - 0.5)
    r2 = ((xx - W / 2) / (W / 2)) ** 2 * 0.5 + ((yy - H / 2) / (H / 2)) ** 2 * 0.5
    v = 1 - vig * r2
    return (g * v).astype(np.float32)


def yuv420(rgb):
    f = rgb.astype(np.float32) / 255.0
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    cb = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    cr = 128 + 112.0 * r - 93.786 * g - 18.214 * b
    H, W = y.shape
    cb = cb.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3)); cr = cr.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))
    Y = np.clip(np.round(y), 0, 255).astype(np.uint8)
    U = np.clip(np.round(cb), 0, 255).astype(np.uint8); V = np.clip(np.round(cr), 0, 255).astype(np.uint8)
    return np.concatenate([Y.ravel(), U.ravel(), V.ravel()]).reshape(H * 3 // 2, W)


def save_npz(path, arr):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
    zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zi, buf.getvalue(), compresslevel=6)


def render_frame(case, t, W, H, K):
    """Averaged (premult, alpha) full frame at 1x for frame t over K sub-frames (180-degree shutter)."""
    ch = case["char"]
    scale = case["frac"] * H
    ss = 4 if case["frac"] <= 0.32 else 3
    pm = np.zeros((H, W, 3), np.float32); al = np.zeros((H, W), np.float32)
    ts = [t] if K <= 1 else [t + (k + 0.5) / K * 0.5 - 0.25 for k in range(K)]
    for tk in ts:
        p = pose_at(case, max(tk, 0.0) if t > 0 else 0.0)
        xf = Xf(case["cx"] * W, case["gy"] * H, scale, ss, p["sx"], p["x"])
        shapes = build(ch, p, xf)
        outline = (ch["outline"], ch.get("outline_px", 0.9)) if ch.get("outline") else None
        pm1, a1, X0, Y0 = render(shapes, ss, outline)
        h, w = a1.shape
        # paste (clip to frame)
        fx0, fy0 = max(X0, 0), max(Y0, 0); fx1, fy1 = min(X0 + w, W), min(Y0 + h, H)
        if fx1 > fx0 and fy1 > fy0:
            pm[fy0:fy1, fx0:fx1] += pm1[fy0 - Y0:fy1 - Y0, fx0 - X0:fx1 - X0]
            al[fy0:fy1, fx0:fx1] += a1[fy0 - Y0:fy1 - Y0, fx0 - X0:fx1 - X0]
    n = len(ts)
    return pm / n, al / n


def blur_k(case, t):
    bk = case.get("blur")
    if not bk:
        return 1
    if isinstance(bk, int):
        return bk
    for (f0, f1, k) in bk:
        if f0 <= t <= f1:
            return k
    return 1


def make_case(case):
    t_start = time.time()
    name = case["name"]
    W, H, N = case["size"][0], case["size"][1], case["frames"]
    out = os.path.join(OUT, name)
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(case["seed"])
    field = screen_fields(case, W, H)
    scr = np.array(case["screen"], np.float32)
    canvas = np.array(case["canvas"], np.float32)
    settle = case.get("settle", 3)
    wrap_w, wrap_s, wrap_p, wrap_style = case.get("wrap", (0, 0.0, 1.0, "mix"))
    noise, flick = case.get("noise", 0.0), case.get("flicker", 0.0)
    truth = np.zeros((N, H, W, 4), np.uint8)

    cont = av.open(os.path.join(out, "clip.mp4"), "w", format="mp4")
    st = cont.add_stream("libx264", rate=FPS)
    st.width, st.height, st.pix_fmt = W, H, "yuv420p"
    st.thread_count = 1
    st.options = {"crf": str(case["crf"]), "preset": "medium", "threads": "1", "x264-params": "mbtree=0:threads=1"}
    fl = 1.0
    for i in range(N):
        K = 1 if i == 0 else blur_k(case, i)
        pm, al = render_frame(case, float(i), W, H, K)
        a8 = np.round(np.clip(al, 0, 1) * 255).astype(np.uint8)
        straight = np.where(al[..., None] > 1e-6, pm / np.maximum(al[..., None], 1e-6), 0)
        rgb8 = np.clip(np.round(straight), 0, 255).astype(np.uint8)
        rgb8[a8 == 0] = 0
        truth[i, ..., :3] = rgb8; truth[i, ..., 3] = a8
        if i == 0:
            cv2.imwrite(os.path.join(out, "portrait.png"), cv2.cvtColor(truth[0], cv2.COLOR_RGBA2BGRA))
            bgs = np.broadcast_to(canvas, (H, W, 3)).astype(np.float32)
            bg = bgs.copy(); ws = 0.0
        else:
            f = min(1.0, i / settle)
            fl = 1.0 + flick * rng.standard_normal() if flick else 1.0
            model = field[..., None] * scr[None, None, :] * fl
            if "hue_drift" in case:
                model = model + np.array(case["hue_drift"], np.float32) * (i / N)
            bgs = (canvas * (1 - f) + model * f).astype(np.float32)
            bg = bgs + (rng.standard_normal((H, W, 3)).astype(np.float32) * noise * f if noise else 0)
            ws = wrap_s * f
            if case.get("shadow"):
                p = pose_at(case, float(i))
                sc = case["frac"] * H
                cx = case["cx"] * W + p["x"] * sc
                gy = case["gy"] * H
                yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
                d = ((xx - cx) / (0.22 * sc)) ** 2 + ((yy - gy - 1) / (0.04 * sc)) ** 2
                sh = case["shadow"] * np.exp(-d * 1.5) * f
                bg = bg * (1 - sh[..., None])
                bgs = bgs * (1 - sh[..., None])
        chars = straight
        if ws > 0 and wrap_w > 0:
            inside = (al >= 0.5).astype(np.uint8)
            dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5) - 0.5
            dist[inside == 0] = 0
            w = ws * np.clip(1 - dist / wrap_w, 0, 1) ** wrap_p
            loc = cv2.GaussianBlur(bgs, (0, 0), 2.0)
            if wrap_style == "mix":
                chars = straight * (1 - w[..., None]) + loc * w[..., None]
            else:
                chars = straight + 0.7 * loc * w[..., None]
        comp = np.clip(chars * al[..., None] + bg * (1 - al[..., None]), 0, 255)
        fr = av.VideoFrame.from_ndarray(yuv420(comp), format="yuv420p")
        fr.pts = i; fr.time_base = Fraction(1, FPS)
        for pkt in st.encode(fr):
            cont.mux(pkt)
    for pkt in st.encode():
        cont.mux(pkt)
    cont.close()
    save_npz(os.path.join(out, "truth.npz"), truth)
    info = {"action": case["action"]}
    if "expect_flags" in case:
        info["expect_flags"] = case["expect_flags"]
    info.update({"trial": 43, "what": case["what"], "size": [W, H], "frames": N, "height_frac": case["frac"],
                 "screen": case["screen"], "canvas": case["canvas"], "settle_frames": settle,
                 "wrap": {"width_px": wrap_w, "strength": wrap_s, "power": wrap_p, "style": wrap_style},
                 "crf": case["crf"], "noise_sigma": noise, "flicker": flick, "motion_blur": case.get("blur", 0),
                 "contact_shadow": case.get("shadow", 0)})
    with open(os.path.join(out, "case.json"), "w") as f:
        json.dump(info, f, indent=1, sort_keys=True)
    return name, time.time() - t_start


# ----------------------------------------------------------------------------- cases

CH = {
    "ranger": dict(pal="ranger", kind="human", strands=0, seed=1),
    "bronze_sword": dict(pal="bronze", kind="human", weapon="sword", strands=18, seed=2, rest=dict(wrel=1.1)),
    "bronze": dict(pal="bronze", kind="human", strands=22, seed=3),
    "bandit_axe": dict(pal="bandit", kind="human", weapon="axe", seed=4, rest=dict(wrel=0.0)),
    "noble": dict(pal="noble", kind="human", weapon="staff", seed=5, outline=(42, 24, 18), outline_px=0.9, rest=dict(wrel=2.55)),
    "noble_plain": dict(pal="noble", kind="human", weapon="staff", seed=6, rest=dict(wrel=2.55)),
    "wolf": dict(pal="wolf", kind="wolf", body="wolf", seed=7),
    "dwarf": dict(pal="dwarf", kind="dwarf", body="dwarf", weapon="hammer", strands=16, seed=8, rest=dict(wrel=0.1)),
}

GREEN = (0, 254, 0)
BLUE = (0, 0, 254)

CASES = [
    dict(name="t43_01_ranger_walk", what="ranger: red tunic, brown leather vest/strap/belt, tan skin, dark brown hair; walk in place; wrap 4 px 30 %",
         char=CH["ranger"], action="walk", size=(448, 448), frames=56, frac=0.62, cx=0.48, gy=0.86,
         screen=(30, 200, 52), canvas=GREEN, settle=3, wrap=(4.0, 0.30, 1.3, "mix"), grad=(0.05, -0.10), vig=0.18,
         noise=2.0, flicker=0.01, crf=20, seed=101, shadow=0.3),
    dict(name="t43_02_ranger_run_blur", what="ranger run, 4-sub-frame motion blur, 640x448; wrap 3 px 25 % added light",
         char=CH["ranger"], action="run", size=(640, 448), frames=73, frac=0.55, cx=0.47, gy=0.84,
         screen=(38, 196, 60), canvas=GREEN, settle=2, wrap=(3.0, 0.25, 1.0, "add"), grad=(0.08, -0.06), vig=0.2,
         noise=2.5, flicker=0.015, crf=22, seed=102, blur=4, shadow=0.25),
    dict(name="t43_03_bronze_sword_attack", what="bronze cuirass, copper hair (18 strands), maroon-red tunic, bronze blade; overhead cut blurred 6 sub-frames; wrap 6 px 35 %",
         char=CH["bronze_sword"], action="attack", keys=SWORD_ATTACK_KEYS, size=(512, 448), frames=56, frac=0.50, cx=0.42, gy=0.90,
         screen=(62, 210, 42), canvas=GREEN, settle=4, wrap=(6.0, 0.35, 1.5, "mix"), grad=(0.0, -0.12), vig=0.22,
         noise=2.0, flicker=0.01, crf=21, seed=103, blur=[(20, 30, 6)], shadow=0.3),
    dict(name="t43_04_bronze_idle_blue", what="bronze warrior with orange cloak and copper hair (22 strands) on a BLUE screen; idle; wrap 5 px 30 %",
         char=CH["bronze"], action="idle", size=(448, 448), frames=73, frac=0.66, cx=0.5, gy=0.87,
         screen=(24, 62, 196), canvas=BLUE, settle=3, wrap=(5.0, 0.30, 1.2, "mix"), grad=(-0.06, -0.08), vig=0.25,
         noise=2.0, flicker=0.012, crf=20, seed=104, shadow=0.25),
    dict(name="t43_05_bandit_walk_olive", what="olive-drab canvas jacket over khaki trousers, brown leather belt/boots, rust scarf, axe held low; walk; grainy flickering screen; wrap 4 px 28 %",
         char=CH["bandit_axe"], action="walk", size=(512, 448), frames=56, frac=0.58, cx=0.5, gy=0.86,
         screen=(44, 188, 58), canvas=GREEN, settle=3, wrap=(4.0, 0.28, 1.2, "mix"), grad=(0.06, -0.1), vig=0.2,
         noise=3.5, flicker=0.025, crf=23, seed=105, period=24, shadow=0.3),
    dict(name="t43_06_bandit_axe_attack", what="bandit: wood-handled axe with rust-red head, overhead chop blurred 6 sub-frames; wrap 3 px 22 %; CRF 19",
         char=CH["bandit_axe"], action="attack", keys=ATTACK_KEYS, size=(576, 448), frames=56, frac=0.50, cx=0.42, gy=0.90,
         screen=(30, 204, 48), canvas=GREEN, settle=2, wrap=(3.0, 0.22, 1.0, "mix"), grad=(0.04, -0.08), vig=0.15,
         noise=1.8, flicker=0.008, crf=19, seed=106, blur=[(19, 30, 6)], shadow=0.3),
    dict(name="t43_07_noble_skill", what="noble: dark brown hair over maroon coat, gold trim, brown gloves, 0.9 px dark-brown outline, wood staff with amber gem; cast; 56 % of frame; wrap 6 px 35 % on a blue-green screen",
         char=CH["noble"], action="skill", keys=SKILL_KEYS, size=(448, 448), frames=56, frac=0.56, cx=0.46, gy=0.94,
         screen=(22, 190, 96), canvas=GREEN, settle=3, wrap=(6.0, 0.35, 1.4, "mix"), grad=(0.05, -0.1), vig=0.2,
         noise=2.0, flicker=0.01, crf=22, seed=107, shadow=0.25),
    dict(name="t43_08_noble_hurt", what="noble (no outline) knocked back and recovering; 45 % of frame; wrap 5 px 30 %; CRF 24",
         char=CH["noble_plain"], action="hurt", keys=HURT_KEYS, size=(512, 448), frames=56, frac=0.45, cx=0.5, gy=0.82,
         screen=(36, 198, 54), canvas=GREEN, settle=3, wrap=(5.0, 0.30, 1.2, "mix"), grad=(0.06, -0.08), vig=0.2,
         noise=2.5, flicker=0.012, crf=24, seed=108, blur=[(3, 8, 4)], shadow=0.3),
    dict(name="t43_09_wolf_run", what="werewolf: grey-brown fur, tan muzzle/belly, dark stripes, brown leather shorts, rust bracers; run, 4 sub-frame blur; 768x448, 42 %",
         char=CH["wolf"], action="run", size=(768, 448), frames=73, frac=0.42, cx=0.48, gy=0.80,
         screen=(34, 202, 50), canvas=GREEN, settle=3, wrap=(4.0, 0.25, 1.2, "mix"), grad=(0.1, -0.06), vig=0.25,
         noise=2.2, flicker=0.01, crf=21, seed=109, blur=4, period=13, shadow=0.35),
    dict(name="t43_10_dwarf_idle_small", what="dwarf 25 % of frame: copper beard (16 strands), orange shirt, leather jerkin, bronze helmet, hammer; idle; wrap 2 px 15 %; CRF 24",
         char=CH["dwarf"], action="idle", size=(448, 448), frames=90, frac=0.25, cx=0.5, gy=0.70,
         screen=(30, 200, 52), canvas=GREEN, settle=3, wrap=(2.0, 0.15, 1.0, "mix"), grad=(0.03, -0.06), vig=0.3,
         noise=2.0, flicker=0.01, crf=24, seed=110, shadow=0.25),
    dict(name="t43_11_dwarf_walk_big", what="dwarf 80 % of frame; walk; wrap 6 px 35 %, CRF 18",
         char=CH["dwarf"], action="walk", size=(448, 448), frames=56, frac=0.80, cx=0.47, gy=0.93,
         screen=(50, 206, 46), canvas=GREEN, settle=3, wrap=(6.0, 0.35, 1.3, "mix"), grad=(0.04, -0.08), vig=0.15,
         noise=1.5, flicker=0.008, crf=18, seed=111, shadow=0.3),
    dict(name="t43_12_bronze_run", what="bronze warrior run, cloak trailing, copper hair strands; 4 sub-frame blur; 768x448; wrap 5 px 30 % added light; screen hue drifts",
         char=CH["bronze"], action="run", size=(768, 448), frames=56, frac=0.48, cx=0.5, gy=0.84,
         screen=(40, 200, 56), canvas=GREEN, settle=4, wrap=(5.0, 0.30, 1.2, "add"), grad=(-0.08, -0.08), vig=0.2,
         noise=2.0, flicker=0.012, crf=21, seed=112, blur=4, shadow=0.3, hue_drift=(-12, -6, 18)),
    dict(name="t43_13_ctrl_ranger_walk", what="CONTROL: case 01's ranger and walk, no wrap, flat screen, no noise/shadow",
         char=CH["ranger"], action="walk", size=(448, 448), frames=56, frac=0.62, cx=0.48, gy=0.86,
         screen=(30, 200, 52), canvas=GREEN, settle=3, wrap=(0, 0.0, 1.0, "mix"), grad=(0.0, 0.0), vig=0.0,
         noise=0.0, flicker=0.0, crf=20, seed=113),
    dict(name="t43_14_ctrl_noble_skill", what="CONTROL: case 07's noble and cast, no wrap, flat screen, no noise/shadow",
         char=CH["noble"], action="skill", keys=SKILL_KEYS, size=(448, 448), frames=56, frac=0.56, cx=0.46, gy=0.94,
         screen=(22, 190, 96), canvas=GREEN, settle=3, wrap=(0, 0.0, 1.0, "mix"), grad=(0.0, 0.0), vig=0.0,
         noise=0.0, flicker=0.0, crf=22, seed=114),
    dict(name="t43_15_qc_bandit_turn", what="QC: bandit walks, turns round (squash+mirror over frames 26-31) and walks the other way for the remaining 59 % -> FACING",
         char=CH["bandit_axe"], action="walk", size=(512, 448), frames=73, frac=0.55, cx=0.5, gy=0.86,
         screen=(30, 200, 52), canvas=GREEN, settle=3, wrap=(4.0, 0.25, 1.2, "mix"), grad=(0.05, -0.08), vig=0.2,
         noise=2.0, flicker=0.01, crf=21, seed=115, turn=(26, 5), shadow=0.3, expect_flags=["FACING"]),
    dict(name="t43_16_qc_wolf_claw_decoy", what="QC decoy: werewolf double claw swipe (fast, 6 sub-frame blur, arms cross in front and behind) on a flickering vignetted screen; should raise nothing",
         char=CH["wolf"], action="attack", keys=CLAW_KEYS, size=(512, 448), frames=56, frac=0.60, cx=0.45, gy=0.88,
         screen=(32, 198, 52), canvas=GREEN, settle=3, wrap=(4.0, 0.28, 1.2, "mix"), grad=(0.06, -0.12), vig=0.35,
         noise=3.0, flicker=0.03, crf=22, seed=116, blur=[(17, 33, 6)], shadow=0.3, expect_flags=[]),
]


def main(argv):
    sel = [c for c in CASES if not argv or any(a in c["name"] for a in argv)]
    t0 = time.time()
    os.makedirs(OUT, exist_ok=True)
    cost = {c["name"]: c["frames"] * c["size"][0] * (4 if c.get("blur") == 4 else 1.5 if c.get("blur") else 1) * c["frac"] for c in sel}
    sel = sorted(sel, key=lambda c: -cost[c["name"]])
    with Pool(int(os.environ.get("T43_PROCS", "2"))) as pool:
        for name, dt in pool.imap_unordered(make_case, sel):
            print(f"{name}: {dt:.1f} s", flush=True)
    print(f"total {time.time() - t0:.1f} s into {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
