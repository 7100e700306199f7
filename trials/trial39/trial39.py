"""Trial 39: sixteen held-out green-screen clips with exact truth, for h3sprite's trials.

    .venv/bin/python trials/trial39/trial39.py [NAME ...]  # all cases, or names containing NAME
    TRIAL_OUT=DIR ...                           # case folders into DIR (default trials/_out/trial39)

One process.  Each case folder: clip.mp4 (H.264 yuv420p, BT.601 limited range converted
here, one x264 thread, mbtree=0, so the same bytes every run), portrait.png (frame 0's
clean RGBA), truth.npz (`rgba`, uint8 (N, H, W, 4), the character's straight RGBA per
video frame, fixed zip times) and case.json.

How a frame is made: the character is drawn at 3-4x (cv2 polygon fills at 1/16 px,
parts composited premultiplied, sub-frame renders averaged for motion blur) and box
filtered down; that straight RGBA, quantised to uint8, is the truth.  The clip composites
*that quantised truth* over a screen drawn per frame (screen effects: gradient, hot spot,
moving dark corner, hue drift, side light, floor, contact shadow, reflection, grain), then
adds the footage effects that do not belong to the character (light wrap, side wrap,
shadow-side spill, recursive ghost, chroma noise, stutter).  Frame 0 is the portrait over
the user's flat (0, 255, 0) canvas; the model's own screen and wrap settle in over
frames 1-3, as H3's first-frame mode gives.
Styles drawn here: anime cel with 3 px ink and a coloured rim light, painterly soft
brushed edges, low-poly facets, pixel art (nearest-neighbour x4/x5), smooth shading.
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)
HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------- I/O

def rgb_to_yuv420(rgb, chroma_noise=None):
    """float RGB 0..1 (H, W, 3) -> planar yuv420p uint8, BT.601 limited range; the chroma
    is the mean of each 2x2 block; `chroma_noise` (2, H/2, W/2) levels is added to Cb, Cr."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    cb = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    cr = 128 + 112.0 * r - 93.786 * g - 18.214 * b
    H, W = y.shape

    def down(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean((1, 3))

    cb, cr = down(cb), down(cr)
    if chroma_noise is not None:
        cb, cr = cb + chroma_noise[0], cr + chroma_noise[1]

    def q(a):
        return np.clip(np.floor(a + 0.5), 0, 255).astype(np.uint8)

    return np.concatenate([q(y), q(cb).reshape(H // 4, W), q(cr).reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path, W, H, crf, fps):
        self.out = av.open(str(path), "w", format="mp4")
        st = self.out.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.codec_context.thread_count = 1
        st.options = {"crf": str(crf), "preset": "medium",
                      "x264-params": "threads=1:lookahead-threads=1:sliced-threads=0:mbtree=0"}
        self.st, self.n = st, 0

    def add(self, rgb, chroma_noise=None):
        frame = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb, chroma_noise), format="yuv420p")
        frame.pts = self.n
        self.n += 1
        for pkt in self.st.encode(frame):
            self.out.mux(pkt)

    def close(self):
        for pkt in self.st.encode():
            self.out.mux(pkt)
        self.out.close()


def write_truth(path, frames):
    info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(info, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(frames), allow_pickle=False)


def write_png(path, rgba):
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG", optimize=False, compress_level=6)
    path.write_bytes(buf.getvalue())


def to_rgba8(prem, alpha):
    a = np.clip(alpha, 0, 1)
    q = np.clip(np.floor(a * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb = np.where(a[..., None] > 1e-6, prem / np.maximum(a[..., None], 1e-6), 0)
    rgb = np.clip(np.floor(rgb * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb[q == 0] = 0
    return np.concatenate([rgb, q[..., None]], -1)


def c255(*v):
    return np.array(v, np.float32) / 255.0


# ----------------------------------------------------------------------------- raster

def _noise_tile(seed, size=256, sigma=3.0, aniso=None):
    rng = np.random.default_rng(seed)
    n = rng.standard_normal((size, size)).astype(np.float32)
    n = np.tile(n, (3, 3))
    if aniso:
        k = np.zeros((aniso, aniso), np.float32)
        k[aniso // 2, :] = 1.0 / aniso
        n = cv2.filter2D(n, -1, k)
    n = cv2.GaussianBlur(n, (0, 0), sigma)[size:2 * size, size:2 * size]
    return ((n - n.mean()) / (n.std() + 1e-6)).astype(np.float32)


NOISE = _noise_tile(11, sigma=2.5)           # brush-edge bristle
STREAK = _noise_tile(12, sigma=1.2, aniso=15)  # brush streaks, along x


def sample_tile(tile, U, V):
    """Bilinear wrap-around sample of a 256x256 tile at float coords (broadcast)."""
    U, V = np.broadcast_arrays(U, V)
    return cv2.remap(tile, (U % 256).astype(np.float32), (V % 256).astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)


class Raster:
    """Premultiplied RGB + alpha at ss x the output size, with a dirty box."""

    def __init__(self, W, H, ss):
        self.W, self.H, self.ss = W, H, ss
        self.P = np.zeros((H * ss, W * ss, 3), np.float32)
        self.A = np.zeros((H * ss, W * ss), np.float32)
        self.box = [10 ** 9, 10 ** 9, -1, -1]

    def _slice(self, pts_list, pad):
        ss = self.ss
        allp = np.concatenate([np.asarray(p, np.float64).reshape(-1, 2) for p in pts_list])
        x0 = int(math.floor(allp[:, 0].min() * ss - pad)) - 2
        y0 = int(math.floor(allp[:, 1].min() * ss - pad)) - 2
        x1 = int(math.ceil(allp[:, 0].max() * ss + pad)) + 3
        y1 = int(math.ceil(allp[:, 1].max() * ss + pad)) + 3
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.W * ss), min(y1, self.H * ss)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def _fix(self, p, x0, y0):
        q = (np.asarray(p, np.float64).reshape(-1, 2) * self.ss - 0.5 - [x0, y0]) * 16
        return np.round(q).astype(np.int32)

    def coords(self, x0, y0, x1, y1):
        ss = self.ss
        X = ((np.arange(x0, x1, dtype=np.float32) + 0.5) / ss)[None, :]
        Y = ((np.arange(y0, y1, dtype=np.float32) + 0.5) / ss)[:, None]
        return X, Y

    def mask(self, polys, stroke=0.0, pad=0.0):
        """uint8 coverage of filled polygons (stroke 0) or their closed outlines of
        width `stroke` output px; returns (mask, slice box) or None."""
        b = self._slice(polys, pad + stroke * self.ss)
        if b is None:
            return None
        x0, y0, x1, y1 = b
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        pts = [self._fix(p, x0, y0) for p in polys]
        if stroke:
            cv2.polylines(m, pts, True, 255, max(1, int(round(stroke * self.ss))), cv2.LINE_8, 4)
        else:
            cv2.fillPoly(m, pts, 255, cv2.LINE_8, 4)
        return m, b

    def over(self, cov, b, colour):
        x0, y0, x1, y1 = b
        c = cov[..., None]
        P = self.P[y0:y1, x0:x1]
        P *= 1 - c
        P += np.broadcast_to(colour, P.shape) * c
        A = self.A[y0:y1, x0:x1]
        A *= 1 - cov
        A += cov
        bx = self.box
        self.box = [min(bx[0], x0), min(bx[1], y0), max(bx[2], x1), max(bx[3], y1)]

    def fill(self, polys, colour, soft=None, pad=0.0, opacity=1.0):
        r = self.mask(polys, pad=pad)
        if r is None:
            return
        m, b = r
        X, Y = self.coords(*b)
        cov = m.astype(np.float32) / 255.0
        if soft is not None:
            cov = soft(cov, X, Y)
        if opacity != 1.0:
            cov = cov * opacity
        col = colour(X, Y) if callable(colour) else np.asarray(colour, np.float32)
        self.over(cov, b, np.clip(col, 0, 1))

    def stroke(self, polys, width, colour):
        r = self.mask(polys, stroke=width)
        if r is None:
            return
        m, b = r
        self.over(m.astype(np.float32) / 255.0, b, np.asarray(colour, np.float32))

    def down(self):
        """(premultiplied RGB, alpha) at output size."""
        ss, W, H = self.ss, self.W, self.H
        P = np.zeros((H, W, 3), np.float32)
        A = np.zeros((H, W), np.float32)
        x0, y0, x1, y1 = self.box
        if x1 < 0:
            return P, A
        x0, y0 = (x0 // ss) * ss, (y0 // ss) * ss
        x1, y1 = min(-(-x1 // ss) * ss, W * ss), min(-(-y1 // ss) * ss, H * ss)
        h, w = (y1 - y0) // ss, (x1 - x0) // ss
        P[y0 // ss:y0 // ss + h, x0 // ss:x0 // ss + w] = \
            self.P[y0:y1, x0:x1].reshape(h, ss, w, ss, 3).mean((1, 3))
        A[y0 // ss:y0 // ss + h, x0 // ss:x0 // ss + w] = \
            self.A[y0:y1, x0:x1].reshape(h, ss, w, ss).mean((1, 3))
        return P, A


# ----------------------------------------------------------------------------- geometry

def ellipse_pts(c, rx, ry, rot=0.0, n=44, phase=0.0):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False) + phase
    x, y = rx * np.cos(t), ry * np.sin(t)
    cr, sr = math.cos(rot), math.sin(rot)
    return np.stack([c[0] + cr * x - sr * y, c[1] + sr * x + cr * y], 1)


def capsule_pts(p0, p1, r0, r1, n=10):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    ang = math.atan2(d[1], d[0])
    a1 = np.linspace(ang - np.pi / 2, ang + np.pi / 2, n)
    a0 = np.linspace(ang + np.pi / 2, ang + 3 * np.pi / 2, n)
    return np.concatenate([p1 + r1 * np.stack([np.cos(a1), np.sin(a1)], 1),
                           p0 + r0 * np.stack([np.cos(a0), np.sin(a0)], 1)])


def ellipse_dome(c, rx, ry, rot=0.0):
    cr, sr = math.cos(rot), math.sin(rot)

    def f(X, Y):
        dx, dy = X - c[0], Y - c[1]
        u = (cr * dx + sr * dy) / rx
        v = (-sr * dx + cr * dy) / ry
        nx, ny = cr * u - sr * v, sr * u + cr * v
        nz = np.sqrt(np.clip(1 - u * u - v * v, 0, 1))
        return nx, ny, nz
    return f


def capsule_dome(p0, p1, r0, r1):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    L = max(float(np.hypot(*d)), 1e-6)
    dx, dy = d / L

    def f(X, Y):
        t = np.clip(((X - p0[0]) * dx + (Y - p0[1]) * dy) / L, 0, 1)
        cx, cy = p0[0] + t * d[0], p0[1] + t * d[1]
        r = r0 + (r1 - r0) * t
        nx, ny = (X - cx) / r, (Y - cy) / r
        nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0, 1))
        return nx, ny, nz
    return f


def poly_dome(pts):
    pts = np.asarray(pts)
    c = pts.mean(0)
    rx = max(np.abs(pts[:, 0] - c[0]).max(), 1e-3)
    ry = max(np.abs(pts[:, 1] - c[1]).max(), 1e-3)
    return ellipse_dome(c, rx * 1.05, ry * 1.05)


LIGHT = np.array([-0.55, -0.62, 0.56])
LIGHT = LIGHT / np.linalg.norm(LIGHT)
HALF = (LIGHT + [0, 0, 1]) / np.linalg.norm(LIGHT + [0, 0, 1])


@dataclass
class Part:
    pts: np.ndarray           # closed outline (output px)
    dome: object              # (X, Y) -> nx, ny, nz
    mat: str                  # palette key
    back: bool = False        # far-side limb (darker)
    anchor: tuple = (0.0, 0.0)
    angle: float = 0.0        # for texture orientation
    lp: np.ndarray | None = None  # low-poly outline (few vertices)
    ink: bool = True


# ----------------------------------------------------------------------------- rig & motion

def S(a):
    return np.array([math.sin(a), math.cos(a)])


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def lerp(a, b, t):
    return a + (b - a) * t


def keyframes(u, keys):
    """Piecewise smooth interpolation of a dict-valued key list [(u, {..}), ...]."""
    for (u0, k0), (u1, k1) in zip(keys, keys[1:]):
        if u <= u1:
            t = smooth((u - u0) / max(u1 - u0, 1e-9))
            return {k: lerp(k0[k], k1[k], t) for k in k0}
    return dict(keys[-1][1])


REST = dict(hipx=0.0, hipy=0.0, lean=0.03, tilt=0.0, thF=0.08, knF=0.04, thB=-0.07, knB=0.04,
            arF=0.15, elF=0.35, arB=-0.08, elB=0.3, wrel=2.5, breath=1.0, fx=0.0)


def pose_at(action, t, N, fps):
    """Pose (angles in rad, offsets in character heights) at frame time t (float)."""
    P = dict(REST)
    if action in ("walk", "run", "idle"):  # frame 0 is the input image: ease in from rest
        env = smooth(t / (4.0 if action == "idle" else 7.0))
        cyc = _cycle(action, t, fps)
        return {k: lerp(REST[k], cyc[k], env) for k in REST}
    return _oneshot(action, t, N, P)


def _cycle(action, t, fps):
    P = dict(REST)
    if action == "walk":
        ph = 2 * np.pi * t / (fps * 1.0)
        s, c = math.sin(ph), math.cos(ph)
        P.update(hipy=0.012 * math.cos(2 * ph), lean=0.06, thF=0.42 * s,
                 knF=0.1 + 0.6 * max(0.0, c) ** 1.3, thB=-0.42 * s,
                 knB=0.1 + 0.6 * max(0.0, -c) ** 1.3, arF=-0.36 * s, elF=0.3 + 0.2 * max(0, -s),
                 arB=0.36 * s, elB=0.3 + 0.2 * max(0, s), tilt=0.02 * math.sin(2 * ph))
    elif action == "run":
        ph = 2 * np.pi * t / (fps * 0.6667)
        s, c = math.sin(ph), math.cos(ph)
        P.update(hipy=0.025 * math.cos(2 * ph), lean=0.2, thF=0.72 * s,
                 knF=0.25 + 1.25 * max(0.0, c), thB=-0.72 * s, knB=0.25 + 1.25 * max(0.0, -c),
                 arF=-0.8 * s, elF=1.45, arB=0.8 * s, elB=1.45, tilt=0.03 * math.sin(2 * ph),
                 wrel=1.6)
    elif action == "idle":
        ph = 2 * np.pi * t / (fps * 2.0)
        s = math.sin(ph)
        P.update(hipy=0.008 * s, hipx=0.01 * math.sin(ph + 1.0), lean=0.03 + 0.02 * s,
                 arF=0.15 + 0.08 * s, elF=0.35 + 0.08 * s, arB=-0.06 + 0.07 * math.sin(ph + 0.7),
                 tilt=0.05 * math.sin(ph + 0.5), breath=1 + 0.018 * s, knF=0.04 + 0.03 * s,
                 knB=0.04 + 0.03 * s, wrel=2.5 + 0.08 * math.sin(ph + 1.2))
    return P


def _oneshot(action, t, N, P):
    if action == "attack":
        u = t / (N - 1)
        keys = [(0.0, dict(REST)),
                (0.34, dict(REST, hipx=-0.03, hipy=0.02, lean=-0.12, arF=-2.35, elF=0.5,
                            wrel=5.53, thF=0.2, thB=-0.2, knF=0.2, knB=0.2, arB=0.5, elB=0.6)),
                (0.45, dict(REST, hipx=0.09, hipy=0.06, lean=0.32, arF=1.25, elF=0.05, wrel=0.3,
                            thF=0.62, knF=0.55, thB=-0.5, knB=0.1, arB=-0.7, elB=0.4)),
                (0.6, dict(REST, hipx=0.09, hipy=0.06, lean=0.3, arF=1.05, elF=0.15, wrel=0.6,
                            thF=0.6, knF=0.55, thB=-0.5, knB=0.1, arB=-0.6, elB=0.4)),
                (1.0, dict(REST, hipx=0.03, hipy=0.01, lean=0.08, arF=0.45, elF=0.3, wrel=2.1,
                           thF=0.25, knF=0.1, thB=-0.2, knB=0.05))]
        P.update(keyframes(u, keys))
    elif action == "skill":
        u = t / (N - 1)
        keys = [(0.0, dict(REST)),
                (0.38, dict(REST, hipy=-0.015, lean=-0.05, arF=2.6, elF=0.2, wrel=0.34,
                            arB=0.9, elB=0.6, tilt=-0.12)),
                (0.75, dict(REST, hipy=-0.02, lean=-0.06, arF=2.7, elF=0.15, wrel=0.29,
                            arB=1.1, elB=0.5, tilt=-0.15)),
                (0.88, dict(REST, hipy=0.02, hipx=0.03, lean=0.18, arF=1.0, elF=0.15, wrel=1.15,
                            thF=0.35, knF=0.3, thB=-0.3, arB=-0.3, tilt=0.05)),
                (1.0, dict(REST, hipy=0.015, hipx=0.03, lean=0.14, arF=0.9, elF=0.2,
                           wrel=1.3, thF=0.3, knF=0.25, thB=-0.28, arB=-0.25, tilt=0.04))]
        P.update(keyframes(u, keys))
        P["fx"] = smooth((u - 0.25) / 0.4) * (1 - 0.6 * smooth((u - 0.8) / 0.2))
    elif action == "hurt":
        u = t / (N - 1)
        keys = [(0.0, dict(REST)),
                (0.12, dict(REST)),
                (0.32, dict(REST, hipx=-0.13, hipy=0.04, lean=-0.42, tilt=-0.35, arF=0.95,
                            elF=0.6, arB=1.25, elB=0.5, thF=0.45, knF=0.5, thB=-0.05, knB=0.3,
                            wrel=1.6)),
                (0.55, dict(REST, hipx=-0.15, hipy=0.05, lean=-0.3, tilt=-0.2, arF=0.6, elF=0.6,
                            arB=0.8, elB=0.5, thF=0.4, knF=0.45, thB=-0.1, knB=0.3, wrel=2.0)),
                (1.0, dict(REST, hipx=-0.14, hipy=0.02, lean=-0.08, tilt=-0.05, arF=0.3,
                           elF=0.4, arB=0.2, elB=0.4, thF=0.25, knF=0.2, thB=-0.1, knB=0.1))]
        P.update(keyframes(u, keys))
    return P


@dataclass
class Design:
    skin: tuple = (236, 196, 160)
    hair: tuple = (70, 44, 30)
    shirt: tuple = (180, 60, 55)
    pants: tuple = (60, 64, 96)
    boots: tuple = (70, 46, 32)
    belt: tuple = (120, 84, 40)
    eye: tuple = (28, 22, 30)
    weapon: str = "sword"     # sword, staff, none
    blade: tuple = (205, 212, 225)
    hilt: tuple = (110, 70, 30)
    orb: tuple = (255, 200, 80)
    helmet: tuple | None = None
    plate: tuple | None = None   # pauldron / greaves colour
    cape: tuple | None = None
    bulk: float = 1.0
    ink: tuple = (24, 18, 30)
    rim: tuple = (200, 120, 255)


def humanoid(P, D: Design, h, root):
    """Parts back to front for a right-facing figure h px tall standing at root."""
    B = D.bulk
    hip = np.array([root[0] + P["hipx"] * h, root[1] - 0.47 * h + P["hipy"] * h])
    lean = P["lean"]
    up = np.array([math.sin(lean), -math.cos(lean)])
    neck = hip + 0.27 * h * P["breath"] * up
    sh = hip + 0.245 * h * P["breath"] * up
    hc = neck + 0.11 * h * np.array([math.sin(lean + P["tilt"]), -math.cos(lean + P["tilt"])])

    def leg(th, kn):
        knee = hip + 0.22 * h * S(th)
        a = th - kn
        ank = knee + 0.22 * h * S(a)
        fa = -0.3 * a
        toe = ank + 0.075 * h * np.array([math.cos(fa), math.sin(fa)])
        return knee, ank, toe

    def arm(ar, el):
        elb = sh + 0.16 * h * S(ar)
        b = ar + el
        hand = elb + 0.15 * h * S(b)
        return elb, hand, b

    parts = []

    def cap(p0, p1, r0, r1, mat, back=False, ink=True):
        r0, r1 = r0 * h * B, r1 * h * B
        d = np.asarray(p1) - np.asarray(p0)
        ang = math.atan2(d[1], d[0])
        lp = capsule_pts(p0, p1, r0, r1, n=3)
        parts.append(Part(capsule_pts(p0, p1, r0, r1), capsule_dome(p0, p1, r0, r1), mat, back,
                          tuple(p0), ang, lp, ink))

    def ell(c, rx, ry, rot, mat, back=False, ink=True):
        rx, ry = rx * h * B, ry * h * B
        parts.append(Part(ellipse_pts(c, rx, ry, rot), ellipse_dome(c, rx, ry, rot), mat, back,
                          tuple(c), rot, ellipse_pts(c, rx, ry, rot, n=7, phase=0.3), ink))

    kF, aF, tF = leg(P["thF"], P["knF"])
    kB, aB, tB = leg(P["thB"], P["knB"])
    eF, hF, bF = arm(P["arF"], P["elF"])
    eB, hB, bB = arm(P["arB"], P["elB"])

    if D.cape is not None:
        sway = 0.25 + 0.5 * P["lean"] + 0.15 * math.sin(P["arF"])
        c0 = sh + np.array([-0.03 * h, 0.0])
        c1 = hip + np.array([-0.09 * h - sway * 0.12 * h, 0.16 * h])
        c2 = hip + np.array([0.02 * h, 0.14 * h])
        pts = np.array([c0 + [-0.05 * h, 0], c1, c1 + [0.06 * h, 0.02 * h], c2, sh + [0.04 * h, 0]])
        parts.append(Part(pts, poly_dome(pts), "cape", False, tuple(c0), 0.0, pts, True))
    # far arm & leg
    cap(sh, eB, 0.03, 0.027, "shirt", True)
    cap(eB, hB, 0.026, 0.022, "skin", True)
    ell(hB, 0.028, 0.028, 0, "skin", True)
    cap(hip, kB, 0.046, 0.038, "pants", True)
    cap(kB, aB, 0.037, 0.03, "pants", True)
    cap(aB, tB, 0.03, 0.026, "boots", True)
    if D.plate is not None:
        cap(kB + (aB - kB) * 0.1, kB + (aB - kB) * 0.75, 0.04, 0.034, "plate", True)
    # torso
    cap(hip, neck, 0.078, 0.088, "shirt")
    belt_c = hip + 0.03 * h * up
    ell(belt_c, 0.082, 0.024, lean, "belt")
    cap(neck - 0.02 * h * up, neck + 0.03 * h * up, 0.026, 0.026, "skin")
    # near leg
    cap(hip, kF, 0.046, 0.038, "pants")
    cap(kF, aF, 0.037, 0.03, "pants")
    cap(aF, tF, 0.03, 0.026, "boots")
    if D.plate is not None:
        cap(kF + (aF - kF) * 0.1, kF + (aF - kF) * 0.75, 0.04, 0.034, "plate")
    # head
    tl = lean + P["tilt"]
    if D.helmet is None:
        ell(hc + 0.02 * h * np.array([-math.cos(tl), -math.sin(tl)]) + [0, -0.012 * h],
            0.092, 0.092, tl, "hair")
        ell(hc + np.array([0.012 * h, 0.008 * h]), 0.08, 0.088, tl, "skin")
        ell(hc + np.array([-0.005 * h, -0.06 * h]), 0.075, 0.038, tl - 0.25, "hair")
    else:
        ell(hc, 0.088, 0.097, tl, "skin")
        ell(hc + np.array([-0.008 * h, -0.02 * h]), 0.094, 0.085, tl, "helmet")
        ell(hc + np.array([0.045 * h, 0.015 * h]), 0.04, 0.034, tl, "skin")
    ell(hc + np.array([0.05 * h, 0.0]) + 0.0, 0.011, 0.017, tl, "eye", ink=False)
    # near arm & weapon
    cap(sh, eF, 0.03, 0.027, "shirt")
    if D.plate is not None:
        ell(sh + np.array([0.0, 0.015 * h]), 0.05, 0.042, lean, "plate")
    cap(eF, hF, 0.026, 0.022, "skin")
    wang = bF + P["wrel"]
    if D.weapon == "sword":
        d = S(wang)
        n = np.array([d[1], -d[0]])
        base = hF + 0.03 * h * d
        tip = hF + 0.42 * h * d
        w = 0.021 * h
        blade = np.array([base + n * w, tip - d * 0.05 * h + n * w * 0.9, tip,
                          tip - d * 0.05 * h - n * w * 0.9, base - n * w])
        parts.append(Part(blade, capsule_dome(base, tip, w, w), "blade", False, tuple(base),
                          wang, blade, True))
        cap(hF + n * 0.05 * h + d * 0.025 * h, hF - n * 0.05 * h + d * 0.025 * h, 0.012, 0.012,
            "hilt")
        cap(hF - 0.06 * h * d, hF + 0.01 * h * d, 0.011, 0.011, "hilt")
    elif D.weapon == "staff":
        d = S(wang)
        top = hF + 0.36 * h * d
        cap(hF - 0.3 * h * d, top, 0.013, 0.013, "hilt")
        ell(top + 0.02 * h * d, 0.035, 0.035, 0, "blade")
        if P["fx"] > 0.02:
            r = 0.03 + 0.06 * P["fx"]
            ell(top + 0.06 * h * d, r, r, 0, "orb", ink=False)
    ell(hF, 0.029, 0.029, 0, "skin")
    tipx = None
    return parts, dict(hip=hip, hc=hc, hF=hF, hB=hB, aF=aF, aB=aB, tF=tF, tB=tB, eF=eF, tip=tipx,
                       wtip=hF + 0.42 * h * S(wang))


def slime(t, N, fps, h, root, action):
    """A slime's parts: dome body, eyes, mouth; hurt = squash, knock back, X eyes."""
    u = t / (N - 1)
    if action == "hurt":
        k = [(0.0, dict(sx=1.0, sy=1.0, x=0.0, hit=0.0)),
             (0.12, dict(sx=1.03, sy=0.97, x=0.0, hit=0.0)),
             (0.3, dict(sx=1.3, sy=0.7, x=-0.35, hit=1.0)),
             (0.5, dict(sx=0.85, sy=1.2, x=-0.55, hit=1.0)),
             (0.7, dict(sx=1.12, sy=0.88, x=-0.6, hit=0.7)),
             (1.0, dict(sx=1.0, sy=1.0, x=-0.6, hit=0.3))]
        q = keyframes(u, k)
    else:
        ph = 2 * np.pi * t / (fps * 1.0)
        q = dict(sx=1 + 0.06 * math.sin(ph), sy=1 - 0.06 * math.sin(ph), x=0.0, hit=0.0)
    w, hh = 0.62 * h * q["sx"], 0.85 * h * q["sy"]
    cx, by = root[0] + q["x"] * h, root[1]
    tt = np.linspace(0, np.pi, 40)
    top = np.stack([cx + w * np.cos(tt) * (1 + 0.05 * np.sin(3 * tt)),
                    by - hh * np.sin(tt) ** 0.8], 1)[::-1]  # left to right over the top
    bottom = np.array([[cx + w * 1.02, by - 0.02 * h], [cx + w * 0.9, by],
                       [cx - w * 0.9, by], [cx - w * 1.02, by - 0.02 * h]])
    body = np.concatenate([top[::-1], bottom])
    parts = [Part(body, ellipse_dome((cx, by - hh * 0.45), w * 1.05, hh * 0.6), "shirt", False,
                  (cx, by), 0.0, body[::6], True)]
    ey = by - hh * 0.55
    for ex in (cx + 0.12 * h * q["sx"], cx + 0.36 * h * q["sx"]):
        if q["hit"] > 0.5:
            for s in (1, -1):
                a, b = np.array([ex - 0.05 * h, ey - s * 0.05 * h]), np.array([ex + 0.05 * h, ey + s * 0.05 * h])
                parts.append(Part(capsule_pts(a, b, 0.014 * h, 0.014 * h),
                                  capsule_dome(a, b, 0.014 * h, 0.014 * h), "eye", ink=False))
        else:
            e = ellipse_pts((ex, ey), 0.05 * h, 0.075 * h * q["sy"])
            parts.append(Part(e, ellipse_dome((ex, ey), 0.05 * h, 0.075 * h), "eye", ink=False))
            g = ellipse_pts((ex + 0.015 * h, ey - 0.03 * h), 0.018 * h, 0.022 * h)
            parts.append(Part(g, ellipse_dome((ex, ey), 0.02 * h, 0.02 * h), "white", ink=False))
    m0 = np.array([cx + 0.2 * h * q["sx"], by - hh * 0.3])
    mouth = ellipse_pts(m0, 0.07 * h * q["sx"], (0.02 + 0.04 * q["hit"]) * h)
    parts.append(Part(mouth, ellipse_dome(m0, 0.07 * h, 0.05 * h), "eye", ink=False))
    hl = ellipse_pts((cx - 0.25 * w, by - hh * 0.72), 0.11 * h, 0.06 * h, -0.5)
    parts.append(Part(hl, ellipse_dome((cx, by), h, h), "white", ink=False))
    return parts, dict(hip=np.array([cx, by - hh / 2]), tF=np.array([cx + w, by]),
                       tB=np.array([cx - w, by]), wtip=np.array([cx, by - hh]))


# ----------------------------------------------------------------------------- styles

def shade_fn(style, base, part, D, light=LIGHT):
    """Colour of a part: style 'smooth', 'cel', 'paint', 'flat'."""
    base = np.asarray(base, np.float32)
    dome = part.dome

    if style == "flat":
        return base
    if style == "cel":
        shadow = base * np.array([0.58, 0.55, 0.74], np.float32)
        rim = c255(*D.rim)

        def f(X, Y):
            nx, ny, nz = dome(X, Y)
            d = nx * light[0] + ny * light[1] + nz * light[2]
            col = np.where((d > 0.18)[..., None], base, shadow)
            r = (nx * 0.86 - ny * 0.5)  # back light from the right, slightly above
            rm = ((r > 0.62) & (nz < 0.62)).astype(np.float32)[..., None] * 0.85
            return col * (1 - rm) + rim * rm
        return f
    if style == "paint":
        ang = part.angle
        ca, sa = math.cos(ang), math.sin(ang)
        ax, ay = part.anchor
        warm = np.array([1.05, 0.98, 0.9], np.float32)
        cool = np.array([0.78, 0.8, 0.98], np.float32)

        def f(X, Y):
            nx, ny, nz = dome(X, Y)
            d = np.clip(nx * light[0] + ny * light[1] + nz * light[2], 0, 1)[..., None]
            dx, dy = X - ax, Y - ay
            u, v = (ca * dx + sa * dy) * 1.1, (-sa * dx + ca * dy) * 1.4
            st = sample_tile(STREAK, u + 40 * (zlib.crc32(part.mat.encode()) % 7), v)[..., None]
            col = base * (0.5 + 0.62 * d) * (warm * d + cool * (1 - d))
            return col * (1 + 0.07 * st)
        return f

    def f(X, Y):  # smooth
        nx, ny, nz = dome(X, Y)
        d = np.clip(nx * light[0] + ny * light[1] + nz * light[2], 0, 1)[..., None]
        hx, hy, hz = HALF
        spec = (np.clip(nx * hx + ny * hy + nz * hz, 0, 1) ** 24)[..., None] * 0.22
        return base * (0.42 + 0.68 * d) + spec
    return f


def draw_parts(R: Raster, parts, D: Design, style, palette, ink_w=0.0):
    for p in parts:
        base = palette[p.mat] * (0.78 if p.back else 1.0)
        if style == "lowpoly":
            draw_lowpoly(R, p, base)
            continue
        if style == "paint":
            soft_px = 1.1

            def soft(cov, X, Y, s=soft_px * R.ss):
                b = cv2.GaussianBlur(cov, (0, 0), s)
                n = sample_tile(NOISE, X * 1.3, Y * 1.3)
                return np.clip((b - 0.5 + 0.1 * n) / 0.8 + 0.5, 0, 1) * (b > 0.02)
            R.fill([p.pts], shade_fn("paint", base, p, D), soft=soft, pad=4 * soft_px * R.ss)
        else:
            R.fill([p.pts], shade_fn(style, base, p, D))
        if ink_w and p.ink:
            R.stroke([p.pts], ink_w, c255(*D.ink) * (0.85 if p.back else 1.0))


def draw_lowpoly(R: Raster, p: Part, base):
    """Fan-triangulated facets, each flat-shaded by its own tilted normal."""
    vs = np.asarray(p.lp, float)
    if len(vs) < 3:
        return
    c = vs.mean(0)
    span = np.abs(vs - c).max(0)
    apex = c + np.array([LIGHT[0], LIGHT[1]]) * span * 0.25
    b = R._slice([vs], 2)
    if b is None:
        return
    x0, y0, x1, y1 = b
    col = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    n = len(vs)
    seed = zlib.crc32(p.mat.encode()) % 97
    for i in range(n):
        a, bb = vs[i], vs[(i + 1) % n]
        mid = (a + bb) / 2 - apex
        ln = np.hypot(*mid) + 1e-6
        nrm = np.array([0.8 * mid[0] / ln, 0.8 * mid[1] / ln, 0.6])
        d = max(0.0, float(nrm @ LIGHT))
        jit = 1 + 0.05 * math.sin(seed + 2.3 * i)
        colour = np.clip(base * (0.4 + 0.72 * d) * jit, 0, 1)
        tri = R._fix(np.array([apex, a, bb]), x0, y0)
        cv2.fillPoly(col, [tri], colour.tolist(), cv2.LINE_8, 4)
        cv2.fillPoly(m, [tri], 255, cv2.LINE_8, 4)
    R.over(m.astype(np.float32) / 255.0, b, col)


# ----------------------------------------------------------------------------- cases

@dataclass
class Case:
    name: str
    action: str
    W: int
    H: int
    style: str                    # cel, paint, lowpoly, smooth, pixel
    design: Design
    hfrac: float                  # character height / frame height
    green: tuple                  # the model's screen colour
    crf: int = 21
    fps: int = 24
    N: int = 56
    ss: int = 3
    x: float = 0.5                # root x / W
    ground: float = 0.88          # root y / H
    ink: float = 0.0              # ink width px (cel)
    creature: str = "human"
    pix: int = 0                  # pixel-art upscale factor
    wrap: tuple = (3.0, 0.22, 0.22)  # width px, strength on the left, on the right
    green2: tuple | None = None   # screen hue drift target
    hot: float = 0.0              # hot spot gain
    corner: float = 0.0           # dark corner depth
    sidelight: float = 0.0        # screen gain difference left-right
    spill_shadow: float = 0.0     # interior spill on the shadow (right) side
    ghost: float = 0.0
    stutter: float = 0.0
    chroma: float = 0.0           # chroma noise sigma (levels)
    floor: bool = False           # glossy floor, reflection
    shadow: float = 0.18          # contact shadow depth
    grain: float = 1.0
    expect: list | None = None
    note: str = ""
    seed: int = 0
    extra: dict = field(default_factory=dict)


PAL_HERO = Design(shirt=(196, 64, 70), pants=(52, 58, 92), hair=(40, 30, 46), rim=(190, 110, 255))
PAL_GREEN_SHIRT = Design(shirt=(58, 150, 62), pants=(88, 70, 52), hair=(92, 52, 28),
                         skin=(228, 186, 150), rim=(255, 160, 70), boots=(60, 40, 30))
PAL_MAGE = Design(shirt=(92, 58, 140), pants=(70, 48, 100), hair=(214, 206, 190),
                  skin=(232, 198, 170), weapon="staff", blade=(120, 210, 255), hilt=(96, 62, 36),
                  cape=(150, 40, 60), orb=(255, 215, 110))
PAL_GOLEM = Design(shirt=(196, 164, 128), pants=(160, 132, 104), skin=(214, 180, 140),
                   hair=(120, 100, 86), boots=(120, 96, 80), belt=(210, 90, 60), weapon="none",
                   bulk=1.35, helmet=(176, 146, 116), eye=(255, 150, 40))
PAL_LPKNIGHT = Design(shirt=(92, 98, 150), pants=(70, 72, 90), helmet=(160, 166, 180),
                      plate=(150, 156, 172), cape=(170, 50, 40), blade=(220, 226, 236))
PAL_PIXHERO = Design(shirt=(40, 90, 200), pants=(50, 40, 60), hair=(230, 170, 40),
                     skin=(240, 190, 150), boots=(110, 60, 30), blade=(230, 230, 240))
PAL_PIXROGUE = Design(shirt=(120, 40, 110), pants=(40, 36, 56), hair=(200, 60, 40),
                      skin=(220, 170, 130), boots=(50, 40, 40), weapon="none", cape=(60, 40, 80))
PAL_JADE = Design(shirt=(44, 150, 98), pants=(30, 96, 70), helmet=(70, 176, 120),
                  plate=(86, 190, 130), cape=(40, 120, 88), skin=(226, 190, 160),
                  boots=(30, 80, 60), belt=(200, 170, 80), weapon="staff", blade=(140, 230, 170),
                  hilt=(70, 110, 80), orb=(255, 236, 140))
PAL_STEEL = Design(shirt=(110, 116, 134), pants=(70, 74, 90), helmet=(168, 174, 190),
                   plate=(186, 192, 206), cape=(150, 40, 50), skin=(226, 190, 160),
                   boots=(60, 60, 70), belt=(200, 170, 80), weapon="staff", blade=(170, 200, 240),
                   hilt=(90, 70, 50), orb=(255, 236, 140))
PAL_SCOUT = Design(shirt=(210, 150, 50), pants=(80, 60, 50), hair=(30, 30, 34), weapon="sword")
PAL_RUNNER = Design(shirt=(230, 230, 236), pants=(40, 44, 70), hair=(160, 70, 30),
                    skin=(196, 140, 104), weapon="none", boots=(170, 40, 40))
PAL_GLOSS = Design(shirt=(230, 120, 40), pants=(60, 50, 80), hair=(240, 230, 220),
                   skin=(180, 120, 90), weapon="sword", cape=(40, 60, 140))
PAL_NINJA = Design(shirt=(50, 48, 70), pants=(40, 38, 56), hair=(20, 18, 28), skin=(230, 190, 160),
                   rim=(90, 220, 255), blade=(215, 220, 235))
PAL_LIME = Design(shirt=(128, 214, 56), eye=(20, 40, 16))
PAL_ROSE = Design(shirt=(228, 96, 128), eye=(50, 16, 30))
PAL_BRAWLER = Design(shirt=(200, 150, 60), pants=(120, 40, 40), hair=(60, 30, 20), weapon="none",
                     skin=(200, 150, 110), bulk=1.15)

CASES = [
    Case("cel_ink_violet_rim_walk_hotspot", "walk", 448, 448, "cel", PAL_HERO, 0.7,
         (24, 198, 66), crf=20, ink=3.0, hot=0.22, corner=0.35, wrap=(3.0, 0.25, 0.25),
         expect=[], seed=1,
         note="anime cel, 3 px ink, violet rim light (truth); screen hot spot and a dark "
              "corner that both drift"),
    Case("cel_green_shirt_sidelit_skill", "skill", 480, 832, "cel",
         Design(**{**PAL_GREEN_SHIRT.__dict__, "weapon": "staff", "blade": (250, 220, 120),
                   "orb": (255, 120, 60)}), 0.42,
         (30, 196, 60), crf=21, N=39, ground=0.92, x=0.38, ink=2.0, wrap=(6.0, 0.35, 0.10), sidelight=0.25,
         expect=[], seed=2,
         note="green shirt under a side-lit wrap: 6 px 35 % on the left, 10 % on the right"),
    Case("painterly_mage_idle_huedrift", "idle", 512, 768, "paint", PAL_MAGE, 0.66,
         (70, 206, 44), green2=(24, 188, 108), crf=21, wrap=(4.0, 0.25, 0.25), expect=[],
         seed=3, note="soft brushed edges with bristle; screen drifts yellow-green to "
                      "blue-green over the clip, wrap follows"),
    Case("painterly_brawler_hurt_chroma", "hurt", 448, 448, "paint", PAL_BRAWLER, 0.68,
         (34, 192, 70), crf=22, N=22, chroma=4.5, wrap=(3.0, 0.2, 0.2), expect=None, seed=4,
         note="painterly hurt; blotchy chroma noise over the whole frame (not in truth)"),
    Case("lowpoly_golem_run_sidelit", "run", 640, 640, "lowpoly", PAL_GOLEM, 0.6,
         (18, 204, 74), crf=20, wrap=(5.0, 0.08, 0.32), sidelight=-0.22, expect=[], seed=5,
         note="low-poly flat-shaded facets; screen lit from the right, wrap 32 % right / 8 % left"),
    Case("pixel_hero_attack_nn5_yellowgreen", "attack", 448, 448, "pixel", PAL_PIXHERO, 0.5,
         (78, 210, 36), crf=22, N=39, x=0.38, ground=0.9, pix=5, wrap=(2.5, 0.22, 0.22),
         expect=[], seed=7, note="pixel art x5 nearest-neighbour, 1 px selout; yellowish green"),
    Case("pixel_rogue_walk_nn4_16fps", "walk", 512, 512, "pixel", PAL_PIXROGUE, 0.55,
         (22, 186, 104), crf=24, fps=16, N=32, pix=4, wrap=(2.5, 0.2, 0.2), expect=None,
         seed=8, note="pixel art x4 at 16 fps (32 frames), bluish green, CRF 24"),
    Case("jade_armour_skill_shadowspill", "skill", 480, 832, "smooth", PAL_JADE, 0.42,
         (28, 196, 64), crf=20, N=39, ground=0.92, x=0.38, wrap=(4.0, 0.12, 0.32), spill_shadow=0.10, expect=[],
         seed=9, note="jade (near-key) armour; spill tints the shadow side (10 % inside, "
                      "32 % at the right edge)"),
    Case("steel_armour_skill_shadowspill_control", "skill", 480, 832, "smooth", PAL_STEEL, 0.42,
         (28, 196, 64), crf=20, N=39, ground=0.92, x=0.38, wrap=(4.0, 0.12, 0.32), spill_shadow=0.10, expect=[],
         seed=9, note="control for the jade case: same rig, screen and spill, steel armour"),
    Case("lime_slime_hurt_bluegreen", "hurt", 448, 448, "smooth", PAL_LIME, 0.36,
         (20, 186, 104), crf=21, N=22, creature="slime", x=0.56, wrap=(3.0, 0.25, 0.25),
         expect=[], seed=10, note="lime slime (near-key body) knocked back, bluish green"),
    Case("rose_slime_hurt_bluegreen_control", "hurt", 448, 448, "smooth", PAL_ROSE, 0.36,
         (20, 186, 104), crf=21, N=22, creature="slime", x=0.56, wrap=(3.0, 0.25, 0.25),
         expect=[], seed=10, note="control for the lime slime: same motion and screen"),
    Case("cel_ninja_run_recursive_ghost37", "run", 512, 512, "cel", PAL_NINJA, 0.66,
         (24, 200, 62), crf=21, ink=2.5, ghost=0.37, expect=["SMEAR"], seed=11,
         note="each frame = 0.63 clean + 0.37 previous output (recursive ghost)"),
    Case("cel_ninja_fast_slash_blur_decoy", "attack", 512, 512, "cel", PAL_NINJA, 0.5,
         (24, 200, 62), crf=21, N=39, ink=2.5, x=0.38, ground=0.9, expect=[], seed=12,
         note="same ninja, a fast slash with sub-frame motion blur and no ghost"),
    Case("tiny_scout_walk_crf24", "walk", 640, 640, "smooth", PAL_SCOUT, 0.17,
         (34, 200, 60), crf=24, ss=4, wrap=(2.0, 0.25, 0.25), expect=[], seed=13,
         note="character 17 % of frame height at CRF 24"),
    Case("stutter_runner_run_dupes", "run", 448, 448, "smooth", PAL_RUNNER, 0.68,
         (30, 194, 70), crf=21, stutter=0.16, wrap=(3.0, 0.22, 0.22), expect=[], seed=14,
         note="16 % of frames are exact repeats of the previous one (model stutter)"),
    Case("glossy_floor_walk_reflection", "walk", 512, 768, "smooth", PAL_GLOSS, 0.58,
         (26, 198, 68), crf=21, ground=0.8, floor=True, shadow=0.4, wrap=(3.0, 0.2, 0.2),
         expect=[], seed=15, note="soft contact shadow and a reflection on a glossy floor"),
]


# ----------------------------------------------------------------------------- render

def palette_of(D: Design):
    keys = dict(skin=D.skin, hair=D.hair, shirt=D.shirt, pants=D.pants, boots=D.boots,
                belt=D.belt, eye=D.eye, blade=D.blade, hilt=D.hilt, orb=D.orb,
                helmet=D.helmet or D.hair, plate=D.plate or D.shirt, cape=D.cape or D.shirt,
                white=(250, 252, 255))
    return {k: c255(*v) for k, v in keys.items()}


def char_parts(case, t):
    h = case.hfrac * case.H
    root = (case.x * case.W, case.ground * case.H)
    if case.creature == "slime":
        return slime(t, case.N, case.fps, h, root, case.action)
    return humanoid(pose_at(case.action, t, case.N, case.fps), case.design, h, root)


def pixel_frame(case, t, pal):
    """Pixel art: the rig drawn flat at 1/pix scale, alpha thresholded, colours snapped to
    the palette (two tones a colour), a dark 1 px outline, then nearest-neighbour xpix."""
    f = case.pix
    w, hgt = -(-case.W // f), -(-case.H // f)
    R = Raster(w, hgt, 4)
    h = case.hfrac * case.H / f
    root = (round(case.x * case.W / f), round(case.ground * case.H / f))
    P = pose_at(case.action, t, case.N, case.fps)
    parts, _ = humanoid(P, case.design, h, root)
    for p in parts:
        base = pal[p.mat] * (0.8 if p.back else 1.0)
        dome = p.dome

        def col(X, Y, base=base, dome=dome):
            nx, ny, nz = dome(X, Y)
            d = nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]
            return np.where((d > 0.25)[..., None], base, base * 0.68)
        R.fill([p.pts], col)
    Pm, A = R.down()
    solid = A >= 0.5
    rgb = Pm / np.maximum(A, 1e-6)[..., None]
    cols = []
    for k, v in pal.items():
        for m in (1.0, 0.8, 0.68, 0.8 * 0.68):
            cols.append(v * m)
    cols = np.array(cols, np.float32)
    flat = rgb[solid]
    if len(flat):
        d = ((flat[:, None, :] - cols[None]) ** 2).sum(-1)
        rgb[solid] = cols[d.argmin(1)]
    ring = cv2.dilate(solid.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool) & ~solid
    rgb[ring] = c255(*case.design.ink)
    a = (solid | ring).astype(np.float32)
    rgb = rgb * a[..., None]
    rgb = np.repeat(np.repeat(rgb, f, 0), f, 1)[:case.H, :case.W]
    a = np.repeat(np.repeat(a, f, 0), f, 1)[:case.H, :case.W]
    return rgb, a


def render_char(case, t, pal):
    """(premultiplied RGB, alpha) at frame time t, with sub-frame motion blur."""
    if case.style == "pixel":
        return pixel_frame(case, t, pal)
    nsub = 1
    if t > 0 and case.action in ("attack", "run", "hurt"):
        _, j0 = char_parts(case, t)
        _, j1 = char_parts(case, t + 0.5)
        disp = max(float(np.hypot(*(j1[k] - j0[k]))) for k in j0 if j0[k] is not None)
        nsub = int(min(12, max(1, math.ceil(disp / 2.5))))
    accP, accA = None, None
    for i in range(nsub):
        ts = t + (0.5 * (i + 0.5) / nsub - 0.25 if nsub > 1 else 0.0)
        parts, _ = char_parts(case, ts)
        R = Raster(case.W, case.H, case.ss)
        style = "smooth" if case.style == "smooth" else case.style
        draw_parts(R, parts, case.design, style, pal, ink_w=case.ink)
        P, A = R.down()
        accP = P if accP is None else accP + P
        accA = A if accA is None else accA + A
    return accP / nsub, accA / nsub


def make_screen(case, t, rng, alpha, truth_f):
    W, H, N = case.W, case.H, case.N
    u = t / max(N - 1, 1)
    g = c255(*case.green)
    if case.green2 is not None:
        g = g + (c255(*case.green2) - g) * smooth(u)
    Y, X = np.mgrid[0:H, 0:W].astype(np.float32)
    xn, yn = X / W, Y / H
    gain = 1.06 - 0.14 * yn
    gain *= 1 - 0.16 * ((xn - 0.5) ** 2 + (yn - 0.45) ** 2) * 2
    gain *= 1 + case.sidelight * (0.5 - xn)
    if case.hot:
        hx, hy = 0.3 + 0.05 * math.sin(2 * np.pi * u), 0.28 + 0.03 * math.cos(2 * np.pi * u)
        gain *= 1 + case.hot * np.exp(-((xn - hx) ** 2 + (yn - hy) ** 2) / (2 * 0.16 ** 2))
    if case.corner:
        cx, cy = 1.02 - 0.06 * u, 1.0 - 0.04 * math.sin(np.pi * u)
        gain *= 1 - case.corner * np.exp(-((xn - cx) ** 2 + (yn - cy) ** 2) / (2 * 0.22 ** 2))
    flick = 1 + 0.012 * math.sin(2.1 * t + case.seed) + 0.006 * rng.standard_normal()
    scr = g[None, None, :] * (gain * flick)[..., None]
    if case.hot:  # a hot spot also desaturates toward white
        hx = 0.3 + 0.05 * math.sin(2 * np.pi * u)
        hy = 0.28 + 0.03 * math.cos(2 * np.pi * u)
        wht = 0.5 * case.hot * np.exp(-((xn - hx) ** 2 + (yn - hy) ** 2) / (2 * 0.1 ** 2))
        scr = scr + wht[..., None] * (1 - scr) * 0.6
    gy = case.ground * H
    if case.floor:
        fl = np.clip((Y - (gy - 0.05 * H)) / 6.0, 0, 1)[..., None]
        floor = g * np.array([0.8, 0.74, 0.8], np.float32) * (0.92 + 0.1 * yn[..., None])
        scr = scr * (1 - fl) + floor * fl
        # reflection: the character mirrored about the ground line, blurred, fading
        Pm, A = truth_f
        rows = np.clip((2 * gy - np.arange(H)).astype(int), 0, H - 1)
        rP, rA = Pm[rows], A[rows]
        valid = (np.arange(H) > gy)[:, None]
        rP, rA = cv2.GaussianBlur(rP, (0, 0), 1.6), cv2.GaussianBlur(rA, (0, 0), 1.6)
        k = (0.32 * np.exp(-np.clip(Y - gy, 0, None) / (0.18 * H)) * valid)
        scr = scr * (1 - (rA * k)[..., None]) + rP * k[..., None] * (0.6 + 0.4 * g)
    if case.shadow:
        A = alpha
        band = A[int(gy - 0.06 * case.hfrac * H):int(gy) + 1]
        cols = np.where(band.sum(0) > 0.5)[0]
        if len(cols):
            x0, x1 = cols.min(), cols.max()
            cxs, rx = (x0 + x1) / 2, max((x1 - x0) / 2 + 0.05 * case.hfrac * H, 6)
            ry = max(0.035 * case.hfrac * H, 2.5)
            sh = np.exp(-(((X - cxs) / rx) ** 2 + ((Y - gy) / ry) ** 2) * 1.6)
            scr = scr * (1 - case.shadow * sh)[..., None]
    if case.grain:
        scr = scr + rng.standard_normal((H, W, 1)).astype(np.float32) * (case.grain / 255)
    return np.clip(scr, 0, 1).astype(np.float32)


def add_wrap(comp, scr, alpha, case, ramp):
    width, kL, kR = case.wrap
    kL, kR = kL * ramp, kR * ramp
    inside = (alpha > 0.5).astype(np.uint8)
    d = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    fall = np.exp(-d / (width / 2.3)) * np.clip(1.6 - d / (1.6 * width), 0, 1)
    ab = cv2.GaussianBlur(alpha, (0, 0), max(width * 0.7, 1.0))
    gx = cv2.Sobel(ab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(ab, cv2.CV_32F, 0, 1, ksize=3)
    nx = -gx / (np.hypot(gx, gy) + 1e-4)           # outward normal, x part
    side = np.clip(0.5 - 0.5 * nx, 0, 1)           # 1 on left-facing edges
    k = (kR + (kL - kR) * side) * fall * alpha
    if case.spill_shadow:
        cols = np.where(alpha.max(0) > 0.5)[0]
        x0, x1 = cols.min(), cols.max()
        xs = np.clip((np.arange(case.W) - x0) / max(x1 - x0, 1), 0, 1)
        ramp_x = np.clip((xs - 0.35) / 0.5, 0, 1) ** 1.2
        k = k + case.spill_shadow * ramp * ramp_x[None, :] * alpha
    src = cv2.GaussianBlur(scr, (0, 0), width)
    k = np.clip(k, 0, 0.6)[..., None]
    return comp * (1 - k) + src * k


def chroma_field(rng, case):
    h, w = case.H // 2, case.W // 2
    small = rng.standard_normal((2, h // 4 + 1, w // 4 + 1)).astype(np.float32)
    out = np.stack([cv2.resize(s, (w + 4, h + 4), interpolation=cv2.INTER_CUBIC)[:h, :w]
                    for s in small])
    return out * (case.chroma / out.std())


def render_case(case, out_dir: Path):
    t0 = time.time()
    out_dir.mkdir(parents=True, exist_ok=True)
    pal = palette_of(case.design)
    rng = np.random.default_rng(1000 + case.seed)
    N, W, H = case.N, case.W, case.H
    truth = np.zeros((N, H, W, 4), np.uint8)
    enc = Encoder(out_dir / "clip.mp4", W, H, case.crf, case.fps)
    canvas = np.broadcast_to(c255(0, 255, 0), (H, W, 3))
    prev_out = None
    dup = set()
    if case.stutter:
        cand = list(range(3, N - 1))
        srng = np.random.default_rng(77 + case.seed)
        while len(dup) < round(case.stutter * N):
            i = int(srng.choice(cand))
            if i - 1 not in dup and i + 1 not in dup:
                dup.add(i)
    for t in range(N):
        if t in dup:
            truth[t] = truth[t - 1]
            enc.add(prev_out, chroma_field(rng, case) if case.chroma else None)
            continue
        Pm, A = render_char(case, float(t), pal)
        truth[t] = to_rgba8(Pm, A)
        a = truth[t, ..., 3].astype(np.float32) / 255
        prem = truth[t, ..., :3].astype(np.float32) / 255 * a[..., None]
        scr = make_screen(case, t, rng, a, (prem, a))
        ramp = min(t / 3.0, 1.0)
        if ramp < 1:
            scr = canvas * (1 - ramp) + scr * ramp
        comp = scr * (1 - a[..., None]) + prem
        if ramp > 0:
            comp = add_wrap(comp, scr, a, case, ramp)
        if case.ghost and prev_out is not None:
            comp = (1 - case.ghost) * comp + case.ghost * prev_out
        comp = np.clip(comp, 0, 1).astype(np.float32)
        enc.add(comp, chroma_field(rng, case) if (case.chroma and t > 0) else None)
        prev_out = comp
    enc.close()
    write_truth(out_dir / "truth.npz", truth)
    write_png(out_dir / "portrait.png", truth[0])
    meta = {"action": case.action, "trial": 39, "note": case.note, "style": case.style,
            "size": [W, H], "fps": case.fps, "frames": N, "crf": case.crf,
            "screen_green": list(case.green), "wrap_px_left_right": list(case.wrap)}
    if case.green2:
        meta["screen_green_end"] = list(case.green2)
    if case.ghost:
        meta["ghost_recursive"] = case.ghost
    if case.stutter:
        meta["duplicated_frames"] = sorted(dup)
    if case.chroma:
        meta["chroma_noise_sigma"] = case.chroma
    if case.spill_shadow:
        meta["spill_shadow_side"] = case.spill_shadow
    if case.expect is not None:
        meta["expect_flags"] = case.expect
    (out_dir / "case.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    al = truth[..., 3].max(0) > 0
    ys, xs = np.where(al)
    edge = int(min(xs.min(), ys.min(), W - 1 - xs.max(), H - 1 - ys.max()))
    hts = [np.ptp(np.where(f[..., 3].max(1) > 0)[0]) + 1 for f in truth[::max(1, N // 8)]]
    return dict(name=case.name, secs=time.time() - t0, edge=edge, h=float(np.mean(hts)) / H)


def main(argv):
    out = Path(os.environ.get("TRIAL_OUT", HERE.parent / "_out" / "trial39"))
    picked = [c for c in CASES if not argv or any(a in c.name for a in argv)]
    if not picked:
        print(f"no case matches {' '.join(argv)}", file=sys.stderr)
        return 2
    t0 = time.time()
    for c in picked:
        r = render_case(c, out / c.name)
        warn = "  (near the frame edge!)" if r["edge"] < 10 else ""
        print(f"{r['name']:<42} {r['secs']:6.1f} s  height {r['h']:.2f}  margin {r['edge']} px"
              f"{warn}", flush=True)
    print(f"{len(picked)} cases into {out} in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
