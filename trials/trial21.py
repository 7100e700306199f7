"""Trial 21: colour drift from the portrait, and see-through parts.

Written without reading the tool's code, its tests, its docs or the other trials: the
only project file read was the case-folder format in the docstring of
benchmarks/trials.py. Everything here is this author's own model of what an
image-to-video model (MiniMax H3) makes of a portrait composited on a key screen.

What it models
  * Procedural 2-D characters (side-view humanoids with head, hair, torso, arms, legs,
    shoes, sword / knife / staff, cape, robe and hat, a diver's glass helmet; a fairy
    with translucent wings; a ghost; jelly slimes), drawn with 3x supersampling into
    premultiplied RGBA and area-averaged, so edges are antialiased and overlapping
    translucent parts compose correctly.
  * Colour drift: the clip's character is not coloured like its portrait. Per-part
    colours are pushed a fraction of the way toward the screen's key colour (from the
    first frame, or growing linearly from exact portrait colours at frame 0 to the full
    amount at 40 % of the clip); or a whole-body warm tint with desaturation.
  * See-through parts present in the portrait too (glass helmet ~30 % alpha, wings
    ~38 %, ghost 68 % all over, jelly slimes ~60 % with opaque core and eyes), and
    effects absent from the portrait (a skill's glow orb and ring, 15-40 % alpha; a red
    hit flash over the whole body for a few frames of a hurt).
  * Camera / model realism, none of it in the truth: light wrap (backdrop colour mixed
    into the character 15-35 % at the silhouette, fading to 0 over 2-6 px inward), a
    backdrop with a gentle gradient and hot spot, vignette over the whole frame, per
    frame sensor noise and a slight brightness flicker, a soft contact shadow under the
    feet, motion blur (temporal supersampling, also in the truth since it is what the
    frame shows) on attack / run / hurt / wing flaps, and H.264 4:2:0 at CRF 18-24.
  * Truth: the straight RGBA of the character as it is in the clip (drifted / tinted /
    flashed colours, blur, glow), before wrap, shadow, vignette, flicker and noise.

Encoding is deterministic: RGB -> BT.601 limited-range YUV with 2x2-averaged chroma
done here, PyAV libx264 with threads=1 and mbtree=0.

    .venv/bin/python trials/trial21.py [NAME_SUBSTRING]     (TRIAL_OUT=DIR to redirect)
"""

from __future__ import annotations

import json
import os
import sys
import time
import zlib
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

SS = 3  # spatial supersampling
SHIFT = 4  # fractional bits for cv2 drawing
ONE = 1 << SHIFT

GREEN = (22, 180, 58)
TEAL = (10, 175, 125)  # teal-green screen
BLUE = (20, 70, 200)
SCREEN_NAMES = {GREEN: "green", TEAL: "teal-green", BLUE: "blue"}


def smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def mix(a, b, f):
    return tuple(float(x + (y - x) * f) for x, y in zip(a, b))


def rgbs(c):
    return "(" + ",".join(str(int(round(v))) for v in c) + ")"


# --------------------------------------------------------------------------- canvas
class Canvas:
    """Supersampled premultiplied RGBA canvas over the whole frame."""

    def __init__(self, W, H, ss=SS):
        self.W, self.H, self.ss = W, H, ss
        self.P = np.zeros((H * ss, W * ss, 3), np.float32)
        self.A = np.zeros((H * ss, W * ss), np.float32)
        self.bb = None
        self.outside = False

    def reset(self):
        if self.bb is not None:
            x0, y0, x1, y1 = self.bb
            self.P[y0:y1, x0:x1] = 0
            self.A[y0:y1, x0:x1] = 0
        self.bb = None

    def _grow(self, X0, Y0, X1, Y1):
        s = self.ss
        X0, Y0 = X0 // s * s, Y0 // s * s
        X1, Y1 = -(-X1 // s) * s, -(-Y1 // s) * s
        if self.bb is None:
            self.bb = [X0, Y0, X1, Y1]
        else:
            b = self.bb
            self.bb = [min(b[0], X0), min(b[1], Y0), max(b[2], X1), max(b[3], Y1)]

    def _paint(self, ext, draw, colour, alpha, shade):
        Wp, Hp = self.W * self.ss, self.H * self.ss
        ex0, ey0, ex1, ey1 = ext
        if ex0 < 0 or ey0 < 0 or ex1 > Wp or ey1 > Hp:
            self.outside = True
        X0, Y0 = max(0, int(np.floor(ex0)) - 2), max(0, int(np.floor(ey0)) - 2)
        X1, Y1 = min(Wp, int(np.ceil(ex1)) + 3), min(Hp, int(np.ceil(ey1)) + 3)
        if X1 <= X0 or Y1 <= Y0 or alpha <= 0:
            return
        m = np.zeros((Y1 - Y0, X1 - X0), np.uint8)
        draw(m, np.array([X0 + 0.5, Y0 + 0.5]))
        cov = m.astype(np.float32) * np.float32(alpha / 255.0)
        col = np.asarray(colour, np.float32)
        if shade:
            u = (np.arange(X0, X1, dtype=np.float32) + 0.5 - ex0) / max(ex1 - ex0, 1.0)
            v = (np.arange(Y0, Y1, dtype=np.float32) + 0.5 - ey0) / max(ey1 - ey0, 1.0)
            g = 1 + shade * (0.7 * (1 - 2 * u)[None, :] + 0.5 * (1 - 2 * v)[:, None])
            colarr = col[None, None, :] * g[..., None]
        else:
            colarr = col[None, None, :]
        P = self.P[Y0:Y1, X0:X1]
        A = self.A[Y0:Y1, X0:X1]
        inv = 1 - cov
        P *= inv[..., None]
        P += colarr * cov[..., None]
        A *= inv
        A += cov
        self._grow(X0, Y0, X1, Y1)

    @staticmethod
    def _cv(pts, off):
        return np.round((np.asarray(pts, np.float64) - off) * ONE).astype(np.int32)

    def tcapsule(self, a, b, ra, rb, colour, alpha=1.0, shade=0.12):
        s = self.ss
        A_, B_ = np.asarray(a, float) * s, np.asarray(b, float) * s
        ra, rb = ra * s, rb * s
        r = max(ra, rb)
        ext = (min(A_[0], B_[0]) - r, min(A_[1], B_[1]) - r,
               max(A_[0], B_[0]) + r, max(A_[1], B_[1]) + r)

        def draw(m, off):
            ca, cb = self._cv(A_, off), self._cv(B_, off)
            cv2.circle(m, (int(ca[0]), int(ca[1])), int(round(ra * ONE)), 255, -1, cv2.LINE_8, SHIFT)
            cv2.circle(m, (int(cb[0]), int(cb[1])), int(round(rb * ONE)), 255, -1, cv2.LINE_8, SHIFT)
            d = B_ - A_
            L = float(np.hypot(*d))
            if L > 1e-6:
                n = np.array([-d[1], d[0]]) / L
                quad = np.array([A_ + n * ra, B_ + n * rb, B_ - n * rb, A_ - n * ra])
                cv2.fillConvexPoly(m, self._cv(quad, off), 255, cv2.LINE_8, SHIFT)

        self._paint(ext, draw, colour, alpha, shade)

    def circle(self, c, r, colour, alpha=1.0, shade=0.12):
        self.tcapsule(c, c, r, r, colour, alpha, shade)

    def ellipse(self, c, axes, angle_deg, colour, alpha=1.0, shade=0.12):
        s = self.ss
        C = np.asarray(c, float) * s
        ax = (axes[0] * s, axes[1] * s)
        r = max(ax)
        ext = (C[0] - r, C[1] - r, C[0] + r, C[1] + r)

        def draw(m, off):
            cc = self._cv(C, off)
            cv2.ellipse(m, (int(cc[0]), int(cc[1])),
                        (max(1, int(round(ax[0] * ONE))), max(1, int(round(ax[1] * ONE)))),
                        float(angle_deg), 0, 360, 255, -1, cv2.LINE_8, SHIFT)

        self._paint(ext, draw, colour, alpha, shade)

    def poly(self, pts, colour, alpha=1.0, shade=0.12):
        Pp = np.asarray(pts, float) * self.ss
        ext = (Pp[:, 0].min(), Pp[:, 1].min(), Pp[:, 0].max(), Pp[:, 1].max())

        def draw(m, off):
            cv2.fillPoly(m, [self._cv(Pp, off)], 255, cv2.LINE_8, SHIFT)

        self._paint(ext, draw, colour, alpha, shade)

    def scale_alpha(self, f):
        if self.bb is not None:
            x0, y0, x1, y1 = self.bb
            self.P[y0:y1, x0:x1] *= f
            self.A[y0:y1, x0:x1] *= f

    def finish(self):
        P1 = np.zeros((self.H, self.W, 3), np.float32)
        A1 = np.zeros((self.H, self.W), np.float32)
        if self.bb is not None:
            x0, y0, x1, y1 = self.bb
            s = self.ss
            w, h = (x1 - x0) // s, (y1 - y0) // s
            P1[y0 // s:y1 // s, x0 // s:x1 // s] = cv2.resize(
                self.P[y0:y1, x0:x1], (w, h), interpolation=cv2.INTER_AREA)
            A1[y0 // s:y1 // s, x0 // s:x1 // s] = cv2.resize(
                self.A[y0:y1, x0:x1], (w, h), interpolation=cv2.INTER_AREA)
        return P1, np.clip(A1, 0, 1)


# --------------------------------------------------------------------------- poses
REST = dict(th_n=0.07, th_f=-0.07, kn_n=0.05, kn_f=0.05, ar_n=0.12, ar_f=-0.12,
            el_n=0.25, el_f=0.2, lean=0.0, head=0.0, wrist=0.9, dx=0.0, lift=0.0,
            sx=1.0, sy=1.0, wave=0.0)


def keyed(frac, keys, rest):
    """Smoothstep interpolation between keyframes [(frac, overrides)]."""
    full = [(k, {**rest, **o}) for k, o in keys]
    if frac <= full[0][0]:
        return dict(full[0][1])
    for (k0, p0), (k1, p1) in zip(full, full[1:]):
        if frac <= k1:
            u = float(smooth((frac - k0) / max(k1 - k0, 1e-9)))
            return {n: p0[n] + (p1[n] - p0[n]) * u for n in rest}
    return dict(full[-1][1])


def act_walk(t, rest, T=0.8):
    ph = 2 * np.pi * t / T
    p = dict(rest)
    for side, o in (("n", 0.0), ("f", np.pi)):
        p["th_" + side] = 0.42 * np.sin(ph + o) + 0.03
        p["kn_" + side] = 0.08 + 0.75 * max(0.0, np.cos(ph + o)) ** 1.5
        p["ar_" + side] = -0.38 * np.sin(ph + o) + 0.06
        p["el_" + side] = 0.32 - 0.15 * np.sin(ph + o)
    p["lean"] = 0.06
    p["head"] = -0.03 + 0.02 * np.sin(2 * ph)
    return p


def act_run(t, rest, T=0.56):
    ph = 2 * np.pi * t / T
    p = dict(rest)
    for side, o in (("n", 0.0), ("f", np.pi)):
        p["th_" + side] = 0.75 * np.sin(ph + o) + 0.2
        p["kn_" + side] = 0.35 + 1.35 * max(0.0, np.cos(ph + o)) ** 1.2
        p["ar_" + side] = -0.85 * np.sin(ph + o) + 0.15
        p["el_" + side] = 1.45
    p["lean"] = 0.22
    p["head"] = -0.12
    p["lift"] = 0.035 * np.sin(2 * ph) ** 2
    return p


def act_idle(t, rest, T=1.3):
    b = np.sin(2 * np.pi * t / T)
    p = dict(rest)
    p["lean"] = rest["lean"] + 0.015 * b
    p["ar_n"] = rest["ar_n"] + 0.05 * b
    p["ar_f"] = rest["ar_f"] - 0.04 * b
    p["el_n"] = rest["el_n"] + 0.06 * b
    p["el_f"] = rest["el_f"] + 0.05 * b
    p["head"] = rest["head"] + 0.04 * np.sin(2 * np.pi * t / T - 0.6)
    p["kn_n"] = rest["kn_n"] + 0.03 * (1 + b)
    p["kn_f"] = rest["kn_f"] + 0.03 * (1 + b)
    p["lift"] = rest["lift"] + 0.02 * np.sin(2 * np.pi * t / 1.6) * (rest["lift"] > 0)
    p["sx"] = 1 + 0.04 * b
    p["sy"] = 1 - 0.04 * b
    p["wave"] = 1.0
    return p


ATTACK_SWORD = [
    (0.0, {}),
    (0.28, dict(ar_n=-2.6, el_n=0.5, wrist=0.4, lean=-0.12, head=0.05, th_n=0.25, kn_n=0.2,
                th_f=-0.2, ar_f=0.5, el_f=0.6)),
    (0.40, dict(ar_n=1.3 - 2 * np.pi, el_n=0.05, wrist=-0.1, lean=0.28, th_n=0.6, kn_n=0.6,
                th_f=-0.45, kn_f=0.15, ar_f=-0.6, el_f=0.5, dx=0.06)),
    (0.62, dict(ar_n=1.1 - 2 * np.pi, el_n=0.2, wrist=0.2, lean=0.2, th_n=0.5, kn_n=0.5,
                th_f=-0.4, kn_f=0.15, ar_f=-0.4, el_f=0.5, dx=0.06)),
    (1.0, dict(ar_n=0.12 - 2 * np.pi)),
]
HURT = [
    (0.0, {}),
    (0.07, dict(lean=-0.38, head=-0.35, ar_n=-0.75, el_n=0.9, ar_f=0.9, el_f=0.7, th_n=0.35,
                kn_n=0.4, th_f=-0.12, kn_f=0.25, dx=-0.06)),
    (0.3, dict(lean=-0.26, head=-0.12, ar_n=-0.4, el_n=0.7, ar_f=0.5, el_f=0.6, th_n=0.3,
               kn_n=0.45, th_f=-0.15, kn_f=0.3, dx=-0.09)),
    (0.65, dict(lean=-0.05, head=0.05, ar_n=0.05, el_n=0.4, ar_f=0.0, el_f=0.3, dx=-0.07)),
    (1.0, {}),
]
SKILL = [
    (0.0, {}),
    (0.2, dict(ar_n=2.5, el_n=-0.3, wrist=0.95, ar_f=2.2, el_f=-0.2, lean=-0.08, head=-0.15)),
    (0.6, dict(ar_n=2.55, el_n=-0.25, wrist=0.9, ar_f=2.3, el_f=-0.25, lean=-0.1, head=-0.18)),
    (1.0, dict(ar_n=2.45, el_n=-0.3, wrist=0.95, ar_f=2.2, el_f=-0.2, lean=-0.08, head=-0.15)),
]
SLIME_ATTACK = [
    (0.0, {}),
    (0.2, dict(sx=1.22, sy=0.78)),
    (0.32, dict(sx=0.85, sy=1.2, lift=0.05, dx=0.05)),
    (0.42, dict(sx=0.92, sy=1.08, lift=0.3, dx=0.25)),
    (0.52, dict(sx=1.28, sy=0.72, lift=0.0, dx=0.42)),
    (0.62, dict(sx=0.95, sy=1.06, dx=0.42)),
    (0.72, dict(dx=0.42)),
    (1.0, {}),
]


def pose_at(case, t):
    rest = {**REST, **case.get("rest", {})}
    a, dur = case["action"], case["dur"]
    if a in ("walk", "run", "idle"):
        fn = {"walk": act_walk, "run": act_run, "idle": act_idle}[a]
        act = fn(t, rest)
        env = float(smooth(t / 0.3))
        return {k: rest[k] + env * (act[k] - rest[k]) for k in rest}
    keys = case.get("keys") or {"attack": ATTACK_SWORD, "hurt": HURT, "skill": SKILL}[a]
    p = keyed(t / dur, keys, rest)
    if a == "skill":  # a little life while channelling
        p["head"] += 0.03 * np.sin(2 * np.pi * t / 0.9) * smooth(t / 0.4)
    return p


# --------------------------------------------------------------------------- characters
def fk(p, cfg):
    f = cfg.get("facing", 1)

    def v(th, L):
        return np.array([f * np.sin(th), np.cos(th)]) * L

    J = {}
    up = np.pi - p["lean"]
    hip = np.zeros(2)
    J["hip"], J["up"] = hip, up
    J["chest"] = hip + v(up, 0.23)
    J["neck"] = hip + v(up, 0.29)
    J["head"] = J["neck"] + v(up - p["head"], 0.095 * cfg.get("head_scale", 1.0))
    J["sh"] = hip + v(up, 0.255)
    for side, off in (("n", 0.015), ("f", -0.015)):
        h = hip + np.array([f * off, 0.0])
        th, kb = p["th_" + side], p["kn_" + side]
        knee = h + v(th, 0.23)
        ank = knee + v(th - kb, 0.22)
        fa = np.pi / 2 + 0.4 * (th - kb)
        J["h_" + side], J["knee_" + side], J["ank_" + side] = h, knee, ank
        J["toe_" + side] = ank + v(fa, 0.085)
        J["heel_" + side] = ank - v(fa, 0.02)
        sh = J["sh"] + np.array([f * off * 0.6, 0.0])
        a, e = p["ar_" + side], p["el_" + side]
        elb = sh + v(a, 0.16)
        wr = elb + v(a + e, 0.15)
        J["sh_" + side], J["elb_" + side], J["wr_" + side] = sh, elb, wr
        J["fore_" + side] = a + e
    sole = max(J["ank_n"][1], J["ank_f"][1], J["toe_n"][1] - 0.01, J["toe_f"][1] - 0.01) + 0.032
    return J, sole


def draw_humanoid(cv, pal, p, cfg, geo, t):
    cx, ground, s = geo
    J, sole = fk(p, cfg)
    o = np.array([cx + p["dx"] * s * cfg.get("facing", 1), ground - (sole + p["lift"]) * s])
    f = cfg.get("facing", 1)
    hs = cfg.get("head_scale", 1.0)

    def P(u):
        return o + s * np.asarray(u, float)

    def C(tag, k=1.0):
        return tuple(np.asarray(pal[tag], float) * k)

    def v(th, L):
        return np.array([f * np.sin(th), np.cos(th)]) * L

    FAR = 0.78
    sleeve = cfg.get("sleeve", "shirt")
    fore = cfg.get("fore", "skin")
    hand = cfg.get("hand", "skin")
    legs = cfg.get("legs", "pants")

    if "cape" in pal:  # cape behind the body, hood behind the head
        sway = 0.03 * np.sin(2 * np.pi * t / 1.7) + 0.05 * p["lean"]
        nk, hp = J["neck"], J["hip"]
        bot = sole - 0.07
        pts = [nk + (-f * 0.085, 0.01), nk + (f * 0.04, 0.0),
               (hp[0] + f * 0.05, bot - 0.05), (hp[0] + f * 0.03, bot)]
        for u in np.linspace(0, 1, 7):
            x = hp[0] + f * (0.03 - u * (0.3 + sway))
            pts.append((x, bot + 0.015 * np.sin(u * 7 + 3 * t)))
        pts.append(nk + (-f * 0.16, 0.12))
        cv.poly([P(q) for q in pts], C("cape", 0.85), shade=0.15)
        cv.ellipse(P(J["head"] + (-f * 0.025, -0.005)), (0.108 * s * hs, 0.112 * s * hs), 0, C("cape", 0.8))

    if "wing" in pal:
        draw_wings(cv, pal, J, P, f, s, t, p, near=False)

    # far arm
    cv.tcapsule(P(J["sh_f"]), P(J["elb_f"]), 0.034 * s, 0.029 * s, C(sleeve, FAR))
    cv.tcapsule(P(J["elb_f"]), P(J["wr_f"]), 0.028 * s, 0.024 * s, C(fore, FAR))
    cv.circle(P(J["wr_f"] + v(J["fore_f"], 0.02)), 0.03 * s, C(hand, FAR))
    # legs
    for side, k in (("f", FAR), ("n", 1.0)):
        if side == "n":
            cv.tcapsule(P(J["hip"]), P(J["chest"]), 0.085 * s, 0.09 * s, C("shirt"), shade=0.14)
            if "pants" in pal and legs == "pants":
                cv.tcapsule(P(J["hip"]), P(J["hip"] + v(J["up"], 0.04)), 0.084 * s, 0.086 * s, C("pants"))
            if "belt" in pal:
                cv.tcapsule(P(J["hip"] + v(J["up"], 0.055) + (-f * 0.07, 0)),
                            P(J["hip"] + v(J["up"], 0.055) + (f * 0.07, 0)), 0.02 * s, 0.02 * s, C("belt"))
        cv.tcapsule(P(J["h_" + side]), P(J["knee_" + side]), 0.05 * s, 0.04 * s, C(legs, k))
        cv.tcapsule(P(J["knee_" + side]), P(J["ank_" + side]), 0.04 * s, 0.032 * s, C(legs, k))
        cv.tcapsule(P(J["heel_" + side]), P(J["toe_" + side]), 0.033 * s, 0.026 * s, C("shoes", k))
    if "robe" in pal:
        ch, bot = J["chest"], sole - 0.05
        fl = 0.05 * np.sin(2 * np.pi * t / 1.1) * 0.5
        pts = [ch + (-f * 0.09, -0.03), ch + (f * 0.09, -0.03), (J["hip"][0] + f * (0.19 + fl), bot),
               (J["hip"][0] + f * 0.05, bot + 0.012), (J["hip"][0] - f * 0.1, bot + 0.012),
               (J["hip"][0] - f * (0.21 - fl), bot)]
        cv.poly([P(q) for q in pts], C("robe"), shade=0.16)
    if "dress" in pal:
        ch, hp = J["chest"], J["hip"]
        pts = [ch + (-f * 0.08, 0.0), ch + (f * 0.08, 0.0), hp + (f * 0.16, 0.14),
               hp + (0, 0.16), hp + (-f * 0.17, 0.13)]
        cv.poly([P(q) for q in pts], C("dress"), shade=0.16)
    if "cape" in pal:
        cv.tcapsule(P(J["sh"] + (-f * 0.06, 0.0)), P(J["sh"] + (f * 0.06, 0.01)), 0.055 * s, 0.05 * s,
                    C("cape"), shade=0.15)
    if "brass" in pal:
        cv.tcapsule(P(J["neck"] + (-f * 0.07, 0.01)), P(J["neck"] + (f * 0.07, 0.01)), 0.035 * s, 0.035 * s,
                    C("brass"), shade=0.25)
    # neck, head, hair, face
    hc = J["head"]
    cv.tcapsule(P(J["sh"]), P(hc), 0.03 * s, 0.03 * s, C("skin", 0.9))
    tilt = np.degrees(-f * p["head"] + f * p["lean"] * 0.0)
    cv.ellipse(P(hc), (0.082 * s * hs, 0.095 * s * hs), tilt, C("skin"), shade=0.1)
    cv.circle(P(hc + (f * 0.08 * hs, 0.012 * hs)), 0.018 * s * hs, C("skin"))
    if "hair" in pal:
        cv.ellipse(P(hc + (-f * 0.018 * hs, -0.042 * hs)), (0.088 * s * hs, 0.064 * s * hs), tilt, C("hair"), shade=0.2)
        cv.tcapsule(P(hc + (-f * 0.05 * hs, -0.02 * hs)), P(hc + (-f * 0.07 * hs, 0.05 * hs)),
                    0.04 * s * hs, 0.03 * s * hs, C("hair", 0.92))
    if cfg.get("ears"):
        e0 = hc + (-f * 0.01 * hs, -0.01 * hs)
        cv.poly([P(e0 + (0, -0.035 * hs)), P(e0 + (-f * 0.19 * hs, -0.085 * hs)), P(e0 + (0, 0.03 * hs))],
                C("skin", 0.95), shade=0.1)
    cv.circle(P(hc + (f * 0.045 * hs, -0.008 * hs)), 0.014 * s * hs, C("eye"), shade=0)
    cv.tcapsule(P(hc + (f * 0.03 * hs, 0.045 * hs)), P(hc + (f * 0.06 * hs, 0.042 * hs)),
                0.006 * s * hs, 0.006 * s * hs, C("skin", 0.6), shade=0)
    if "hat" in pal:
        tip = hc + (-f * 0.1, -0.36)
        cv.poly([P(hc + (-f * 0.11, -0.05)), P(hc + (f * 0.11, -0.05)), P(tip + (0, 0.0))], C("hat"), shade=0.2)
        cv.ellipse(P(hc + (0, -0.05)), (0.16 * s, 0.03 * s), tilt, C("hat", 0.85))
    if "glass" in pal:  # diver's glass dome: translucent, over the head
        cv.circle(P(hc + (f * 0.01, 0.0)), 0.15 * s, C("glass"), alpha=0.3, shade=0.05)
        cv.ellipse(P(hc + (-f * 0.06, -0.08)), (0.035 * s, 0.018 * s), f * 40, (250, 252, 255),
                   alpha=0.55, shade=0)
    # weapon in the near hand, then the near arm
    wr, fa = J["wr_n"], J["fore_n"] + p["wrist"]
    d = v(fa, 1.0)
    n = np.array([-d[1], d[0]])
    if cfg.get("weapon") == "sword":
        cv.tcapsule(P(wr - d * 0.04), P(wr + d * 0.05), 0.014 * s, 0.014 * s, C("hilt"))
        cv.tcapsule(P(wr + d * 0.055 + n * 0.05), P(wr + d * 0.055 - n * 0.05), 0.012 * s, 0.012 * s, C("hilt", 1.1))
        b0 = wr + d * 0.065
        cv.poly([P(b0 + n * 0.021), P(b0 + d * 0.34 + n * 0.019), P(b0 + d * 0.4),
                 P(b0 + d * 0.34 - n * 0.019), P(b0 - n * 0.021)], C("blade"), shade=0.25)
    elif cfg.get("weapon") == "knife":
        cv.tcapsule(P(wr - d * 0.03), P(wr + d * 0.04), 0.013 * s, 0.013 * s, C("hilt"))
        b0 = wr + d * 0.045
        cv.poly([P(b0 + n * 0.018), P(b0 + d * 0.15), P(b0 - n * 0.012)], C("blade"), shade=0.25)
    elif cfg.get("weapon") == "staff":
        cv.tcapsule(P(wr - d * 0.38), P(wr + d * 0.42), 0.015 * s, 0.017 * s, C("staff"), shade=0.2)
        cv.circle(P(wr + d * 0.46), 0.036 * s, C("gem"), shade=0.3)
    cv.tcapsule(P(J["sh_n"]), P(J["elb_n"]), 0.034 * s, 0.029 * s, C(sleeve))
    cv.tcapsule(P(J["elb_n"]), P(J["wr_n"]), 0.028 * s, 0.024 * s, C(fore))
    cv.circle(P(wr + v(J["fore_n"], 0.02)), 0.031 * s, C(hand))
    if "wing" in pal:
        draw_wings(cv, pal, J, P, f, s, t, p, near=True)
    ank_x = 0.5 * (P(J["ank_n"])[0] + P(J["ank_f"])[0])
    info = dict(shadow=(ank_x, ground, 0.2 * s, 0.028 * s, 0.4 * max(0.25, 1 - 6 * p["lift"])),
                gem=P(wr + d * 0.46), centre=P(J["hip"] + v(J["up"], 0.12)))
    return info


def draw_wings(cv, pal, J, P, f, s, t, p, near):
    root = J["chest"] + (-f * 0.05, 0.0)
    ph = 2 * np.pi * 2.5 * t
    amp = smooth(t / 0.25)
    flap = amp * np.sin(ph)
    sq = 1 - 0.45 * amp * (0.5 + 0.5 * np.cos(2 * ph))
    k = 1.0 if near else 0.85
    base = 0.0 if near else 0.18
    for L, W_, a0 in ((0.36, 0.13, 0.55), (0.25, 0.09, -0.35)):
        a = a0 + base + 0.45 * flap
        dirv = np.array([-f * np.cos(a), -np.sin(a)])
        c = root + dirv * L * 0.5
        ang = np.degrees(np.arctan2(dirv[1], dirv[0]))
        cv.ellipse(P(c), (L * 0.5 * s, W_ * s * sq), ang, mix(pal["wing"], (255, 255, 255), 0) if near
                   else tuple(np.asarray(pal["wing"]) * k), alpha=0.38, shade=0.05)
        cv.tcapsule(P(root), P(root + dirv * L * 0.92), 0.005 * s, 0.003 * s, pal["wingvein"], alpha=0.6, shade=0)


def draw_ghost(cv, pal, p, cfg, geo, t):
    cx, ground, s = geo
    lift = 0.12 + 0.035 * np.sin(2 * np.pi * t / 1.6) * p["wave"]
    top = ground - lift * s - s
    R = 0.3 * s
    wv = p["wave"]
    sway = 0.05 * s * np.sin(2 * np.pi * t / 1.6 - 0.8) * wv

    def tail(x, y):
        d = max(0.0, (y - top - R) / (0.6 * s))
        return (x + sway * d * d, y)

    pts = [(cx + R * np.cos(a), top + R + R * np.sin(a)) for a in np.linspace(np.pi, 2 * np.pi, 24)]
    for y in np.linspace(top + R, top + 0.88 * s, 8)[1:]:
        pts.append(tail(cx + R * (1 + 0.12 * (y - top - R) / s), y))
    Wb = R * 1.1
    for u in np.linspace(0, 1, 33):
        x = cx + Wb - 2 * Wb * u
        y = top + 0.9 * s + 0.07 * s * np.sin(4 * np.pi * u + 2 * np.pi * t / 0.8 * wv) * (0.3 + 0.7 * np.sin(np.pi * u))
        pts.append(tail(x, y))
    for y in np.linspace(top + 0.88 * s, top + R, 8)[:-1]:
        pts.append(tail(cx - R * (1 + 0.12 * (y - top - R) / s), y))
    for sgn in (-1, 1):
        a = sgn * (35 + 12 * np.sin(2 * np.pi * t / 1.3 + sgn) * wv)
        cv.ellipse((cx + sgn * 1.02 * R, top + 0.55 * s), (0.13 * s, 0.05 * s), a, pal["ghost"], shade=0.1)
    cv.poly(pts, pal["ghost"], shade=0.12)
    cv.scale_alpha(0.68)
    for sgn in (-1, 1):
        cv.ellipse((cx + sgn * 0.11 * s, top + 0.3 * s), (0.035 * s, 0.055 * s), 0, pal["eye"], alpha=0.85, shade=0)
        cv.ellipse((cx + sgn * 0.17 * s, top + 0.4 * s), (0.04 * s, 0.022 * s), 0, pal["cheek"], alpha=0.3, shade=0)
    cv.ellipse((cx, top + 0.43 * s), (0.035 * s, 0.028 * s), 0, pal["eye"], alpha=0.8, shade=0)
    return dict(shadow=(cx, ground, 0.3 * s, 0.03 * s, 0.16), centre=(cx, top + 0.5 * s))


def draw_slime(cv, pal, p, cfg, geo, t):
    cx, ground, s = geo
    cx = cx + p["dx"] * s
    W_, H_ = 1.25 * s * p["sx"], s * p["sy"]
    bottom = ground - p["lift"] * s
    cy = bottom - 0.45 * H_
    a = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    xs = cx + 0.5 * W_ * np.sign(np.cos(a)) * np.abs(np.cos(a)) ** 0.85
    ys = cy + 0.55 * H_ * np.sign(np.sin(a)) * np.abs(np.sin(a)) ** 0.95
    ys = np.minimum(ys, bottom)
    cv.poly(np.stack([xs, ys], 1), pal["jelly"], shade=0.18)
    cv.scale_alpha(cfg.get("jelly_alpha", 0.6))
    cv.circle((cx - 0.05 * W_, bottom - 0.3 * H_), 0.13 * s, pal["core"], shade=0.2)
    for dxe in (0.02, 0.22):
        e = (cx + dxe * W_, bottom - 0.62 * H_)
        cv.ellipse(e, (0.06 * s, 0.08 * s * p["sy"]), 0, (245, 245, 245), shade=0.05)
        cv.ellipse((e[0] + 0.02 * s, e[1] + 0.01 * s), (0.03 * s, 0.045 * s * p["sy"]), 0, (20, 20, 25), shade=0)
    cv.ellipse((cx - 0.24 * W_, bottom - 0.78 * H_), (0.09 * W_, 0.045 * H_), -30, (255, 255, 255), alpha=0.65, shade=0)
    air = p["lift"]
    return dict(shadow=(cx, ground, 0.45 * s * (1 + air), 0.035 * s, 0.38 * (1 - 1.8 * air)),
                centre=(cx, bottom - 0.45 * H_))


DRAW = {"humanoid": draw_humanoid, "ghost": draw_ghost, "slime": draw_slime}


# --------------------------------------------------------------------------- palettes
def palette_at(case, t):
    pal = dict(case["pal"])
    grow = case.get("drift_mode") == "grow"
    g = float(min(1.0, t / (0.4 * case["dur"]))) if grow else 1.0
    for tag, (key, amt) in case.get("drift", {}).items():
        pal[tag] = mix(case["pal"][tag], key, amt * g)
    return pal


def body_effects(case, P1, A1, t, fps):
    """Whole-body colour effects in the clip (and the truth)."""
    fx = case.get("fx")
    if fx is None:
        return P1
    safe = np.maximum(A1, 1e-6)[..., None]
    c = P1 / safe
    if fx == "warm":
        lum = (0.299 * c[..., 0] + 0.587 * c[..., 1] + 0.114 * c[..., 2])[..., None]
        c = lum + (c - lum) * 0.7
        c = c * np.array([1.1, 1.0, 0.8], np.float32)
    elif fx == "flash":
        k = flash_amount(t)
        if k <= 0:
            return P1
        c = c + (np.array([255, 45, 35], np.float32) - c) * k
    return np.clip(c, 0, 255) * A1[..., None]


def warm(c):
    """The warm tint of body_effects on one colour (for the notes)."""
    c = np.asarray(c, np.float32)[None, None, :]
    return tuple(body_effects({"fx": "warm"}, c, np.ones((1, 1), np.float32), 0.0, 1)[0, 0])


def flash_amount(t):
    return float(0.62 * np.clip(1 - abs(t - 0.22) / 0.16, 0, 1) ** 0.6) if 0.08 < t < 0.40 else 0.0


def glow_layers(case, P1, A1, info, t, s):
    """Skill glow: a translucent orb at the staff's gem (after 0.4 s) and a ring."""
    if case.get("glow") is None or t < 0.4:
        return P1, A1
    H, W = A1.shape
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32) + 0.5
    g = smooth((t - 0.4) / 0.8)
    ox, oy = info["gem"]
    r = max(1.0, (0.05 + 0.11 * g) * s)
    d = np.hypot(xx - ox, yy - oy) / r
    orb = np.where(d < 1, 0.4 - 0.25 * d ** 2, 0.15 * np.clip(1 - (d - 1) / 0.25, 0, 1)) * min(1.0, (t - 0.4) / 0.1)
    orb = orb.astype(np.float32)
    cx, cy = info["centre"]
    gr = smooth((t - 0.5) / 1.0)
    R = (0.15 + 0.42 * gr) * s
    dr = np.hypot(xx - cx, (yy - cy) * 1.0)
    ring = (0.3 * gr ** 0.5 * np.exp(-0.5 * ((dr - R) / (0.022 * s)) ** 2)).astype(np.float32)
    ring[ring < 0.01] = 0
    for a, col in ((ring, case["glow"][1]), (orb, case["glow"][0])):
        col = np.asarray(col, np.float32)
        P1 = P1 * (1 - a)[..., None] + col * a[..., None]
        A1 = A1 * (1 - a) + a
    return P1, A1


# --------------------------------------------------------------------------- video
def rgb_to_yuv420(rgb):
    H, W, _ = rgb.shape
    f = rgb.astype(np.float32)
    Y = 16 + (65.481 * f[..., 0] + 128.553 * f[..., 1] + 24.966 * f[..., 2]) / 255
    m = f.reshape(H // 2, 2, W // 2, 2, 3).mean(axis=(1, 3))
    Cb = 128 + (-37.797 * m[..., 0] - 74.203 * m[..., 1] + 112.0 * m[..., 2]) / 255
    Cr = 128 + (112.0 * m[..., 0] - 93.786 * m[..., 1] - 18.214 * m[..., 2]) / 255
    q = lambda a: np.clip(np.round(a), 0, 255).astype(np.uint8)  # noqa: E731
    return np.concatenate([q(Y), q(Cb).reshape(H // 4, W), q(Cr).reshape(H // 4, W)], 0)


def encode(path, frames_yuv, W, H, fps, crf):
    out = av.open(str(path), "w")
    st = out.add_stream("libx264", rate=fps, options={
        "crf": str(crf), "preset": "medium", "threads": "1",
        "x264-params": "mbtree=0:colormatrix=smpte170m:colorprim=smpte170m:transfer=smpte170m:range=tv"})
    st.width, st.height, st.pix_fmt = W, H, "yuv420p"
    st.codec_context.time_base = Fraction(1, fps)
    for i, yuv in enumerate(frames_yuv):
        fr = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
        fr.pts = i
        fr.time_base = Fraction(1, fps)
        for pkt in st.encode(fr):
            out.mux(pkt)
    for pkt in st.encode():
        out.mux(pkt)
    out.close()


def backdrop(W, H, key, rng):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    u, v = xx / W - 0.5, yy / H - 0.5
    gx, gy = rng.uniform(-0.07, 0.07), rng.uniform(-0.1, -0.03)
    hx, hy = rng.uniform(0.3, 0.7), rng.uniform(0.2, 0.45)
    hot = 0.06 * np.exp(-((xx / W - hx) ** 2 + (yy / H - hy) ** 2) / 0.18)
    gain = 1 + gx * u + gy * v + hot
    bg = np.asarray(key, np.float32)[None, None, :] * gain[..., None]
    bg[..., 0] += 6 * v  # a faint hue drift across the screen
    r2 = (u ** 2 + v ** 2) / 0.5
    vig = (1 - rng.uniform(0.18, 0.28) * r2).astype(np.float32)
    return np.clip(bg, 0, 255).astype(np.float32), vig, (yy + 0.5, xx + 0.5)


def unpremult(P1, A1):
    a8 = np.round(A1 * 255).astype(np.uint8)
    c = np.where(A1[..., None] > 1e-6, P1 / np.maximum(A1, 1e-6)[..., None], 0)
    c = np.clip(np.round(c), 0, 255).astype(np.uint8)
    c[a8 == 0] = 0
    return np.dstack([c, a8])


def render_char(case, cv, t, pal):
    cv.reset()
    info = DRAW[case["kind"]](cv, pal, pose_at(case, t), case.get("cfg", {}), case["geo"], t)
    P1, A1 = cv.finish()
    return P1, A1, info


def render_case(case, root):
    W, H, fps, dur = case["W"], case["H"], case["fps"], case["dur"]
    N = int(round(fps * dur))
    rng = np.random.default_rng(zlib.crc32(case["name"].encode()))
    key = case["key"]
    bg, vig, (yy, xx) = backdrop(W, H, key, rng)
    cx = W * case.get("cxf", 0.5)
    s = H * case["sf"]
    case["geo"] = (cx, H * case.get("gf", 0.88), s)
    cv = Canvas(W, H)
    wrap_k = rng.uniform(0.18, 0.32)
    wrap_w = rng.uniform(2.5, 5.0)
    crf = int(rng.integers(18, 25))
    K = case.get("blur", 1)
    folder = root / case["name"]
    folder.mkdir(parents=True, exist_ok=True)

    # portrait: rest pose, portrait colours, nothing else
    P0, A0, _ = render_char(case, cv, 0.0, case["pal"])
    Image.fromarray(unpremult(P0, A0), "RGBA").save(folder / "portrait.png")

    truth = np.zeros((N, H, W, 4), np.uint8)
    yuvs = []
    flick_ph = rng.uniform(0, 2 * np.pi)
    for i in range(N):
        t = i / fps
        pal = palette_at(case, t)
        if K > 1 and i > 0:  # frame 0 is the model's input frame: the rest pose, unblurred
            P1 = np.zeros((H, W, 3), np.float32)
            A1 = np.zeros((H, W), np.float32)
            info = None
            for k in range(K):
                ts = min(dur, max(0.0, t + (k / (K - 1) - 0.5) * case.get("shutter", 0.5) / fps))
                Pk, Ak, ik = render_char(case, cv, ts, pal)
                P1 += Pk / K
                A1 += Ak / K
                if k == K // 2:
                    info = ik
        else:
            P1, A1, info = render_char(case, cv, t, pal)
        P1 = body_effects(case, P1, A1, t, fps)
        P1, A1 = glow_layers(case, P1, A1, info, t, s)
        truth[i] = unpremult(P1, A1)
        # --- clip: shadow on the backdrop, light wrap, composite, camera
        sx, sy, sw, sh, sk = info["shadow"]
        shadow = sk * np.exp(-0.5 * (((xx - sx) / sw) ** 2 + ((yy - sy) / sh) ** 2))
        bgf = bg * (1 - shadow)[..., None]
        m = (A1 > 0.02).astype(np.uint8)
        d = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        w = (wrap_k * np.clip(1 - (d - 1) / wrap_w, 0, 1) * m).astype(np.float32)
        Pw = P1 * (1 - w)[..., None] + bgf * (w * A1)[..., None]
        comp = Pw + bgf * (1 - A1)[..., None]
        gain = 1 + 0.012 * np.sin(2 * np.pi * 1.7 * t + flick_ph) + 0.005 * rng.standard_normal()
        comp *= (vig * gain)[..., None]
        comp += rng.standard_normal((H, W, 3), dtype=np.float32) * 1.8
        rgb = np.clip(np.round(comp), 0, 255).astype(np.uint8)
        yuvs.append(rgb_to_yuv420(rgb))
        if i == N // 2 and os.environ.get("TRIAL21_DEBUG"):
            Image.fromarray(rgb).save(folder / "_debug_mid.png")
    encode(folder / "clip.mp4", yuvs, W, H, fps, crf)
    np.savez_compressed(folder / "truth.npz", rgba=truth)
    (folder / "case.json").write_text(json.dumps({"action": case["action"], "notes": case["notes"]}, indent=1) + "\n")
    return N, crf, cv.outside


# --------------------------------------------------------------------------- cases
SKIN = (232, 188, 150)
VILLAGER = dict(skin=SKIN, hair=(92, 60, 32), shirt=(70, 140, 60), pants=(110, 82, 55), shoes=(60, 42, 30),
                belt=(50, 35, 25), eye=(30, 25, 25))
JEANS = dict(skin=(225, 180, 140), hair=(40, 30, 25), shirt=(225, 222, 210), pants=(55, 80, 150),
             shoes=(235, 235, 235), eye=(25, 25, 30), hilt=(110, 75, 40), blade=(200, 205, 215))
BLUECLOTHES = dict(skin=(240, 200, 165), hair=(200, 150, 60), shirt=(50, 70, 160), pants=(40, 55, 120),
                   shoes=(40, 35, 35), eye=(30, 30, 30), belt=(150, 120, 70))
GOBLIN = dict(skin=(100, 150, 60), shirt=(125, 85, 45), pants=(85, 60, 40), shoes=(55, 40, 30), eye=(200, 40, 30),
              hilt=(70, 50, 35), blade=(180, 185, 190))
CLOAK = dict(skin=(235, 195, 160), hair=(150, 90, 40), shirt=(200, 190, 160), pants=(80, 70, 60),
             shoes=(70, 50, 35), eye=(30, 30, 30), cape=(40, 125, 120))
TEALSKIN = dict(skin=(70, 140, 150), hair=(60, 30, 80), shirt=(232, 220, 180), pants=(120, 90, 60),
                shoes=(90, 60, 40), eye=(250, 220, 80), belt=(190, 150, 60))
ADVENTURER = dict(skin=SKIN, hair=(90, 60, 30), shirt=(200, 60, 50), pants=(70, 60, 110), shoes=(70, 45, 30),
                  eye=(30, 25, 25), belt=(140, 100, 50))
DIVER = dict(skin=(230, 185, 150), hair=(60, 40, 30), shirt=(215, 120, 40), pants=(215, 120, 40),
             shoes=(70, 70, 80), eye=(25, 25, 30), glove=(80, 80, 90), glass=(190, 225, 240), brass=(185, 145, 60))
FAIRY = dict(skin=(245, 210, 190), hair=(240, 210, 90), shirt=(230, 120, 170), dress=(230, 120, 170),
             pants=(245, 210, 190), shoes=(200, 90, 140), eye=(40, 90, 60), wing=(225, 235, 255),
             wingvein=(180, 160, 230))
MAGE = dict(skin=(235, 195, 160), hair=(220, 220, 225), shirt=(110, 60, 160), robe=(110, 60, 160),
            pants=(60, 50, 70), shoes=(60, 40, 30), eye=(30, 30, 40), hat=(90, 45, 140), staff=(120, 80, 45),
            gem=(120, 220, 255))
FIGHTER = dict(skin=SKIN, hair=(30, 25, 25), shirt=(140, 95, 55), pants=(90, 90, 100), shoes=(60, 45, 35),
               eye=(30, 25, 25), belt=(70, 50, 30))

FAIRY_REST = dict(lift=0.28, th_n=0.25, kn_n=0.6, th_f=0.05, kn_f=0.5, ar_n=0.5, el_n=0.6, ar_f=-0.3)
MAGE_REST = dict(wrist=2.75, ar_n=0.2, el_n=0.15)


def cases():
    C = []

    def add(name, action, kind, pal, key, W, H, fps, dur, sf, notes, **kw):
        C.append(dict(name=name, action=action, kind=kind, pal=pal, key=key, W=W, H=H, fps=fps, dur=dur,
                      sf=sf, notes=notes, **kw))

    def drift_note(tag, pal, key, amt, grow=False):
        c = mix(pal[tag], key, amt)
        how = "grows linearly from 0 at frame 0 to full at 40% of the clip" if grow else "from the first frame on"
        return (f"{tag} portrait {rgbs(pal[tag])} drawn {rgbs(c)} in the clip ({int(amt * 100)}% toward the "
                f"{SCREEN_NAMES[key]} key {rgbs(key)}), {how}")

    hum = dict(kind="humanoid")
    # A. drift present from the first frame
    add("a01_greenshirt_walk_drift50", "walk", pal=VILLAGER, key=GREEN, W=512, H=512, fps=16, dur=2.5, sf=0.62,
        drift={"shirt": (GREEN, 0.5)}, cfg=dict(), notes="villager walking on green; " +
        drift_note("shirt", VILLAGER, GREEN, 0.5), **hum)
    add("a02_tealcloak_idle_drift45", "idle", pal=CLOAK, key=TEAL, W=448, H=448, fps=16, dur=2.5, sf=0.64,
        drift={"cape": (TEAL, 0.45)}, cfg=dict(facing=-1), notes="hooded traveller idling on teal-green; " +
        drift_note("cape", CLOAK, TEAL, 0.45), **hum)
    add("a03_bluejeans_attack_drift55", "attack", pal=JEANS, key=BLUE, W=832, H=480, fps=24, dur=2.0, sf=0.56,
        drift={"pants": (BLUE, 0.55)}, cfg=dict(weapon="sword"), blur=5, gf=0.9, cxf=0.45,
        notes="swordsman overhead slash on blue (motion blur); " + drift_note("pants", JEANS, BLUE, 0.55), **hum)
    add("a04_goblin_run_drift40", "run", pal=GOBLIN, key=GREEN, W=512, H=512, fps=16, dur=2.5, sf=0.6,
        drift={"skin": (GREEN, 0.4)}, cfg=dict(weapon="knife", ears=True, head_scale=1.3, fore="skin"), blur=5,
        shutter=0.4,
        notes="green-skinned goblin running on green (motion blur); " + drift_note("skin", GOBLIN, GREEN, 0.4), **hum)
    add("a05_warmtint_walk", "walk", pal=ADVENTURER, key=GREEN, W=480, H=832, fps=16, dur=2.5, sf=0.52,
        fx="warm", cfg=dict(facing=-1), notes="adventurer walking on green; whole body desaturated 30% then "
        "warm-tinted (R x1.10, B x0.80) from the first frame: shirt portrait (200,60,50) -> clip "
        f"{rgbs(warm((200, 60, 50)))}, pants (70,60,110) -> {rgbs(warm((70, 60, 110)))}, skin {rgbs(SKIN)} -> "
        f"{rgbs(warm(SKIN))}; no part near the key", **hum)
    # B. drift growing over the clip
    add("b06_greenshirt_walk_growdrift50", "walk", pal=VILLAGER, key=GREEN, W=448, H=448, fps=24, dur=2.5,
        sf=0.6, drift={"shirt": (GREEN, 0.5)}, drift_mode="grow", cfg=dict(facing=-1),
        notes="villager walking on green; " + drift_note("shirt", VILLAGER, GREEN, 0.5, True), **hum)
    add("b07_blueclothes_run_growdrift40", "run", pal=BLUECLOTHES, key=BLUE, W=512, H=512, fps=16, dur=2.5,
        sf=0.6, drift={"shirt": (BLUE, 0.4), "pants": (BLUE, 0.4)}, drift_mode="grow", blur=5, shutter=0.4,
        notes="runner in blue on blue (motion blur); " + drift_note("shirt", BLUECLOTHES, BLUE, 0.4, True) +
        "; " + drift_note("pants", BLUECLOTHES, BLUE, 0.4, True), **hum)
    # C. see-through parts in portrait and clip
    add("c08_diver_glasshelmet_walk", "walk", pal=DIVER, key=GREEN, W=512, H=512, fps=16, dur=2.5, sf=0.6,
        cfg=dict(hand="glove", fore="shirt", legs="pants"),
        notes="diver walking on green; glass dome (190,225,240) at alpha 0.30 around the head (the head "
        "shows through it), highlight at 0.55; no drift", **hum)
    add("c09_fairy_wings_idle", "idle", pal=FAIRY, key=GREEN, W=448, H=448, fps=24, dur=2.5, sf=0.5,
        rest=FAIRY_REST, blur=3, gf=0.92, cfg=dict(facing=1, legs="pants", fore="skin"),
        notes="fairy hovering on green, 4 wings (225,235,255) at alpha 0.38 (overlaps ~0.6), veins 0.6, "
        "flapping 2.5 Hz with motion blur; no drift", **hum)
    add("c10_ghost_idle", "idle", "ghost", pal=dict(ghost=(230, 238, 252), eye=(25, 25, 55), cheek=(255, 150, 180)),
        key=GREEN, W=480, H=832, fps=16, dur=2.5, sf=0.6, gf=0.9,
        notes="ghost floating on green, body and arms (230,238,252) at alpha 0.68 all over, eyes/mouth ~0.95; no drift")
    add("c11a_slime_attack_green", "attack", "slime", pal=dict(jelly=(225, 80, 160), core=(140, 25, 85)),
        key=GREEN, W=512, H=512, fps=24, dur=2.0, sf=0.42, keys=SLIME_ATTACK, blur=3, cxf=0.38,
        cfg=dict(jelly_alpha=0.6), notes="pink jelly slime (225,80,160) at alpha 0.60 hopping forward and "
        "back on green; opaque core and eyes; squash/stretch, motion blur; no drift")
    add("c11b_slime_idle_blue", "idle", "slime", pal=dict(jelly=(240, 170, 60), core=(190, 90, 20)),
        key=BLUE, W=448, H=448, fps=16, dur=2.5, sf=0.45, cfg=dict(jelly_alpha=0.65),
        notes="orange jelly slime (240,170,60) at alpha 0.65 wobbling on blue; opaque core and eyes; no drift")
    # D. effects absent from the portrait
    add("d12_mage_skill_glow", "skill", pal=MAGE, key=GREEN, W=1280, H=720, fps=24, dur=2.0, sf=0.48,
        rest=MAGE_REST, cfg=dict(weapon="staff", sleeve="robe", fore="robe"), gf=0.9,
        glow=((170, 235, 255), (150, 200, 255)),
        notes="mage raising a staff on green; from 0.4 s a glow orb (170,235,255) 0.40->0.15 alpha grows at the "
        "gem and a ring (150,200,255) peak 0.30 alpha grows around the body; neither in the portrait", **hum)
    add("d13_hurt_redflash", "hurt", pal=FIGHTER, key=GREEN, W=512, H=512, fps=24, dur=2.0, sf=0.6, blur=3, fx="flash",
        notes="fighter recoiling on green; whole body mixed up to 62% toward red (255,45,35) for frames 2-9 "
        "(0.08-0.40 s); no other drift", **hum)
    # E. controls
    add("e14_ctrl_greenshirt_walk", "walk", pal=VILLAGER, key=GREEN, W=512, H=512, fps=16, dur=2.5, sf=0.62,
        cfg=dict(), notes="control: villager, shirt (70,140,60) on green key (22,180,58), no drift", **hum)
    add("e15_ctrl_tealskin_idle", "idle", pal=TEALSKIN, key=TEAL, W=448, H=448, fps=16, dur=2.5, sf=0.64,
        cfg=dict(), notes="control: teal-skinned (70,140,150) character idling on teal-green key (10,175,125), "
        "no drift", **hum)
    add("e16_ctrl_bluejeans_run", "run", pal=JEANS, key=BLUE, W=832, H=480, fps=16, dur=2.5, sf=0.6, blur=5,
        shutter=0.4, cfg=dict(), notes="control: runner, jeans (55,80,150) on blue key (20,70,200), no drift, motion blur",
        **hum)
    return C


def main(argv):
    root = Path(os.environ.get("TRIAL_OUT") or Path(__file__).resolve().parent / "_out" / "trial21")
    want = argv[1:]
    t_all = time.process_time()
    w_all = time.time()
    for case in cases():
        if want and not any(w in case["name"] for w in want):
            continue
        t0 = time.time()
        N, crf, outside = render_case(case, root)
        print(f"{case['name']:34s} {case['action']:6s} {case['W']}x{case['H']} {case['fps']}fps {N} frames "
              f"crf {crf} {time.time() - t0:5.1f}s" + ("  WARNING: drawing left the frame" if outside else ""),
              flush=True)
    print(f"total: {time.time() - w_all:.1f}s wall, {time.process_time() - t_all:.1f}s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv)
