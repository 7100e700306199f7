"""Trial 33 procedural drawing: an oversampled premultiplied canvas (coverage alpha by
area downsampling), shaded / textured / inked fills, tapered limbs, thin strands, and a
jointed side-view humanoid."""
from __future__ import annotations

import math

import cv2
import numpy as np

SH = 4  # cv2 sub-pixel shift bits


def _c(rgb):
    return np.array(rgb, np.float32) / 255.0


class Canvas:
    """A box of the frame (origin ox, oy; size W x H final px) drawn S times oversized."""

    def __init__(self, W, H, S=3, ox=0.0, oy=0.0):
        self.W, self.H, self.S, self.ox, self.oy = W, H, S, ox, oy
        self.prem = np.zeros((H * S, W * S, 4), np.float32)

    # --- geometry in hi-res pixels
    def hp(self, pts):
        p = (np.asarray(pts, np.float64).reshape(-1, 2) - (self.ox, self.oy)) * self.S
        return p

    def _bbox(self, p, pad):
        x0 = int(max(math.floor(p[:, 0].min() - pad), 0))
        y0 = int(max(math.floor(p[:, 1].min() - pad), 0))
        x1 = int(min(math.ceil(p[:, 0].max() + pad), self.prem.shape[1]))
        y1 = int(min(math.ceil(p[:, 1].max() + pad), self.prem.shape[0]))
        return x0, y0, x1, y1

    def _mask(self, kind, p, pad, **kw):
        x0, y0, x1, y1 = self._bbox(p, pad)
        if x1 <= x0 or y1 <= y0:
            return None
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        q = np.round((p - (x0, y0)) * (1 << SH)).astype(np.int32)
        if kind == "poly":
            cv2.fillPoly(m, [q], 255, cv2.LINE_AA, shift=SH)
        elif kind == "line":
            cv2.polylines(m, [q], False, 255, kw["th"], cv2.LINE_AA, shift=SH)
        return m, (x0, y0, x1, y1)

    def _stamp(self, m, box, color, opacity=1.0, outline=None):
        x0, y0, x1, y1 = box
        if outline is not None:
            ink, w = outline
            r = max(1, int(round(w * self.S)))
            k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
            mo = cv2.dilate(m, k)
            self._fill(mo, box, _c(ink), opacity)
        self._fill(m, box, color, opacity)

    def _fill(self, m, box, color, opacity):
        x0, y0, x1, y1 = box
        cov = (m.astype(np.float32) / 255.0 * opacity)[..., None]
        if callable(color):
            col = color(m, x0, y0, self)
        else:
            col = np.broadcast_to(color if isinstance(color, np.ndarray) else _c(color),
                                  cov.shape[:2] + (3,))
        dst = self.prem[y0:y1, x0:x1]
        top = np.concatenate([col * cov, cov], -1)
        dst[:] = top + dst * (1 - cov)

    # --- shapes (coordinates in frame px)
    def poly(self, pts, color, opacity=1.0, outline=None):
        p = self.hp(pts)
        pad = 4 + (outline[1] * self.S * 1.5 if outline else 0)
        r = self._mask("poly", p, pad)
        if r:
            self._stamp(r[0], r[1], color, opacity, outline)

    def ellipse(self, c, ax, ay, ang, color, opacity=1.0, outline=None, n=48):
        t = np.linspace(0, 2 * np.pi, n, endpoint=False)
        ca, sa = math.cos(ang), math.sin(ang)
        x, y = ax * np.cos(t), ay * np.sin(t)
        pts = np.stack([c[0] + ca * x - sa * y, c[1] + sa * x + ca * y], 1)
        self.poly(pts, color, opacity, outline)

    def limb(self, p0, p1, r0, r1, color, opacity=1.0, outline=None):
        self.poly(limb_pts(p0, p1, r0, r1), color, opacity, outline)

    def stroke(self, pts, width, color, opacity=1.0):
        """A thin line (hair, strings): width in frame px; below 1/S px the opacity carries it."""
        p = self.hp(pts)
        th = max(1, int(round(width * self.S)))
        op = opacity * min(1.0, width * self.S / th)
        r = self._mask("line", p, th + 3, th=th)
        if r:
            self._fill(r[0], r[1], _c(color) if not callable(color) else color, op)

    def finish(self):
        """Premultiplied float RGBA at frame resolution (area average = coverage alpha)."""
        S = self.S
        if S == 1:
            return self.prem.copy()
        return cv2.resize(self.prem, (self.W, self.H), interpolation=cv2.INTER_AREA)


def limb_pts(p0, p1, r0, r1, n=14):
    """Outline of a tapered capsule from p0 (radius r0) to p1 (radius r1)."""
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0])
    t0 = np.linspace(a + np.pi / 2, a + 3 * np.pi / 2, n)
    t1 = np.linspace(a - np.pi / 2, a + np.pi / 2, n)
    c0 = np.stack([p0[0] + r0 * np.cos(t0), p0[1] + r0 * np.sin(t0)], 1)
    c1 = np.stack([p1[0] + r1 * np.cos(t1), p1[1] + r1 * np.sin(t1)], 1)
    return np.concatenate([c0, c1])


# ---------------------------------------------------------------- fills
def shaded(base, r=10.0, ldir=(-0.55, -0.8), dark=0.55, lit=1.12, tex=0.0, tex_scale=3.0,
           seed=0, spec=0.0):
    """A fill lit from ldir: the shape's blurred mask, sampled toward the light, gives a
    soft form shade; optional fabric/skin texture (fixed noise in frame coords)."""
    b = _c(base)
    noise = _noise(seed, tex_scale) if tex > 0 else None

    def fn(m, x0, y0, cv):
        # the form shade is smooth: work at frame resolution, then bring it back up
        S = cv.S
        rr = max(r, 0.5)
        pad = int(rr * 1.5) + 2
        h, w = m.shape
        hs, ws = max(1, round(h / S)), max(1, round(w / S))
        f = cv2.resize(m.astype(np.float32) / 255.0, (ws, hs), interpolation=cv2.INTER_AREA)
        fp = cv2.copyMakeBorder(f, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
        bl = cv2.GaussianBlur(fp, (0, 0), rr * 0.6)
        M = np.float32([[1, 0, -ldir[0] * rr * 0.7], [0, 1, -ldir[1] * rr * 0.7]])
        sh = cv2.warpAffine(bl, M, (fp.shape[1], fp.shape[0]))[pad:-pad, pad:-pad]
        s = np.clip(cv2.resize(sh, (w, h), interpolation=cv2.INTER_LINEAR), 0, 1)
        k = dark + (lit - dark) * s
        if spec > 0:
            k = k + spec * np.clip((s - 0.85) / 0.15, 0, 1) ** 2
        col = b[None, None] * k[..., None]
        if tex > 0:
            ys = (np.arange(m.shape[0]) + y0 + int(cv.oy * cv.S)) // cv.S % 512
            xs = (np.arange(m.shape[1]) + x0 + int(cv.ox * cv.S)) // cv.S % 512
            col = col * (1 + tex * noise[np.ix_(ys, xs)])[..., None]
        return np.clip(col, 0, 1)

    return fn


_NOISE = {}


def _noise(seed, scale):
    k = (seed, scale)
    if k not in _NOISE:
        rng = np.random.default_rng(seed)
        n = cv2.GaussianBlur(rng.standard_normal((512, 512)).astype(np.float32), (0, 0), scale)
        _NOISE[k] = n / (n.std() + 1e-6)
    return _NOISE[k]


def flat(base):
    return _c(base)


# ---------------------------------------------------------------- humanoid
def rot(v, a):
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


class Body:
    """Joint positions of a side-view humanoid facing +x. Angles in radians from 'down'
    (positive swings the limb forward, i.e. toward +x)."""

    def __init__(self, hip, scale, pose):
        u = scale  # ~ character height / 8
        self.u = u
        P = dict(lean=0.0, bob=0.0, head=0.0, thighF=0, kneeF=0, thighB=0, kneeB=0,
                 shF=0.2, elF=0.3, shB=-0.2, elB=0.3)
        P.update(pose)
        self.P = P
        hip = np.array(hip, float) + (0, P["bob"])
        self.hip = hip
        up = rot(np.array([0.0, -1.0]), P["lean"])
        self.chest = hip + up * 2.6 * u
        self.neck = hip + up * 3.05 * u
        self.headc = self.neck + rot(np.array([0.15 * u, -0.75 * u]), P["lean"] + P["head"])
        self.sh = self.chest + up * 0.1 * u
        self.legs, self.arms = {}, {}
        for side in "FB":
            th, kn = P["thigh" + side], P["knee" + side]
            knee = hip + rot(np.array([0, 1.85 * u]), -th)
            ankle = knee + rot(np.array([0, 1.8 * u]), -(th - kn))
            toe = ankle + rot(np.array([0.55 * u, 0.05 * u]), -(th - kn) * 0.3)
            self.legs[side] = (hip.copy(), knee, ankle, toe)
            s, e = P["sh" + side], P["el" + side]
            elbow = self.sh + rot(np.array([0, 1.35 * u]), -(s + P["lean"]))
            hand = elbow + rot(np.array([0, 1.25 * u]), -(s + e + P["lean"]))
            self.arms[side] = (self.sh.copy(), elbow, hand)


def walk_pose(ph, amp=0.45, run=False):
    """Leg and arm angles of a walk (or run) cycle at phase ph (0..1)."""
    s = math.sin(2 * math.pi * ph)
    c = math.cos(2 * math.pi * ph)
    A = amp * (1.5 if run else 1.0)
    kF = max(0.0, -c) * (1.4 if run else 0.7) + 0.1
    kB = max(0.0, c) * (1.4 if run else 0.7) + 0.1
    return dict(thighF=A * s, kneeF=kF, thighB=-A * s, kneeB=kB,
                shF=-0.8 * A * s, elF=0.3 + (0.9 if run else 0.2), shB=0.8 * A * s,
                elB=0.3 + (0.9 if run else 0.2), bob=-abs(c) * (0.18 if run else 0.08),
                lean=0.2 if run else 0.03)
