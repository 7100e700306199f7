#!/usr/bin/env python3
"""Trial 14: procedural characters on a keyed backdrop, made like an image-to-video model's clip.

    .venv/bin/python trials/trial14.py [NAME_PART ...]

Writes 16 case folders into $TRIAL_OUT or trials/_out/trial14/, each with clip.mp4 (H.264
yuv420p, one x264 thread), portrait.png (the straight RGBA rest pose, unspilled), truth.npz
(`rgba`: the character's straight RGBA for every frame, motion blur included, no backdrop,
light wrap, shadow or ghost) and case.json. A name argument renders only the cases whose
names contain it. Self-contained: numpy, cv2, PIL and av only; every case has a fixed seed.

World model (written without looking at the tool's own fixtures):
  * the character is an articulated 2D skeleton (torso, head, two arms, two legs, hair,
    optional cape and weapon) whose parts are polygons (capsules, ellipses, blades) filled
    into a label map at 2-4x supersampling, coloured per pixel in each part's own frame
    (flat cel, cel with a hard shadow band, smooth shading with a highlight, shading with a
    noise texture fixed to the part, or cel with a dark ink outline) and box-filtered down;
  * motion blur: every frame is the average of sub-frame renders over a shutter of 0.5-1.0
    frame (centred or trailing), as many as the fastest point needs; the average
    (premultiplied) is the truth, so a blurred limb is translucent in its own colour;
  * the backdrop is the key colour with a gentle gradient, a vignette, a +-3 % brightness
    flicker and per-frame noise, with an optional soft contact shadow under the feet;
  * the frame is truth over backdrop, then light wrap (the backdrop's colour bleeding into the
    character's opaque pixels near the silhouette, strongest at the edge, fading inward over
    a few pixels), sometimes a faint ghost of an earlier frame, then x264 does the 4:2:0.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

OUT = Path(os.environ.get("TRIAL_OUT") or Path(__file__).resolve().parent / "_out" / "trial14")
INK = 1  # label of the ink outline; parts start at 2

# ----------------------------------------------------------------------------- small helpers


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3.0 - 2.0 * x)


def rot(theta, f):
    """Unit vector at angle theta from straight down, positive towards the facing side f."""
    return np.array([f * math.sin(theta), math.cos(theta)])


def front(theta, f):
    """d rot/d theta: the side a limb moves towards when theta grows."""
    return np.array([f * math.cos(theta), -math.sin(theta)])


def tileable_noise(rng, size=256, octaves=((24.0, 0.55), (8.0, 0.3), (2.5, 0.15))):
    """Tileable noise in [0, 1] made by filtering white noise in the frequency domain."""
    fy = np.fft.fftfreq(size)[:, None]
    fx = np.fft.fftfreq(size)[None, :]
    r2 = fx * fx + fy * fy
    out = np.zeros((size, size))
    for scale, weight in octaves:
        white = rng.standard_normal((size, size))
        filt = np.exp(-r2 * (2 * math.pi * scale / 2.0) ** 2 / 2.0)
        n = np.real(np.fft.ifft2(np.fft.fft2(white) * filt))
        n = (n - n.mean()) / (n.std() + 1e-9)
        out += weight * n
    out = (out - out.min()) / (out.max() - out.min())
    return out.astype(np.float32)


# ----------------------------------------------------------------------------- poses

REST = dict(x=0.0, lift=0.0, lean=0.04, head=0.0, na=0.12, nb=0.22, fa=-0.12, fb=0.26,
            nt=0.06, nk=0.05, ft=-0.07, fk=0.07, breath=1.0, flut=0.0, wind=0.0)

WEAPON_REST = dict(sword=1.0, axe=0.55, spear=2.65, staff=math.pi - 0.05, none=0.0)


def keyed(t, keys):
    """Keyframes [(time, pose dict)] -> pose at t with smoothstep easing between keys."""
    if t <= keys[0][0]:
        return dict(keys[0][1])
    for (t0, p0), (t1, p1) in zip(keys, keys[1:]):
        if t <= t1:
            s = smooth((t - t0) / (t1 - t0))
            return {k: p0[k] + (p1[k] - p0[k]) * s for k in p0}
    return dict(keys[-1][1])


def P(**kw):
    p = dict(REST)
    p.update(kw)
    return p


def attack_keys(weapon):
    wr = WEAPON_REST[weapon]
    if weapon == "spear":  # two thrusts
        ready = P(na=0.25, nb=1.45, wa=1.62, lean=0.02, x=-0.02, ft=-0.3, fk=0.15, nt=0.2, nk=0.2,
                  fa=0.9, fb=0.9)
        back = P(na=-0.35, nb=1.95, wa=1.58, lean=-0.06, x=-0.04, ft=-0.32, fk=0.2, nt=0.18,
                 nk=0.25, fa=0.7, fb=1.3)
        thrust = P(na=1.3, nb=0.12, wa=1.55, lean=0.3, x=0.1, nt=0.62, nk=0.55, ft=-0.5, fk=0.2,
                   fa=0.2, fb=0.4, head=0.1)
        thrust2 = P(na=1.75, nb=0.05, wa=1.85, lean=0.28, x=0.11, nt=0.6, nk=0.5, ft=-0.48,
                    fk=0.2, fa=0.1, fb=0.4, head=-0.05)
        return [(0.0, P(wa=wr)), (0.45, ready), (0.7, back), (0.86, thrust), (1.15, thrust),
                (1.4, back), (1.56, thrust2), (1.85, thrust2), (2.25, ready), (2.9, P(wa=wr))]
    heavy = weapon == "axe"
    w0 = 0.62 if heavy else 0.55
    windup = P(na=3.3, nb=0.45, wa=3.6, lean=-0.14, x=-0.03, nt=0.05, nk=0.2, ft=-0.28, fk=0.15,
               fa=-0.6, fb=0.5, head=-0.1)
    strike = P(na=0.35, nb=0.08, wa=0.55 if heavy else 0.8, lean=0.38, x=0.08, nt=0.58,
               nk=0.55, ft=-0.48, fk=0.22, fa=-0.95, fb=0.4, head=0.1)
    guard = P(na=0.9, nb=0.9, wa=2.3, lean=0.12, x=0.04, nt=0.3, nk=0.3, ft=-0.25, fk=0.15,
              fa=0.3, fb=0.9)
    back = P(na=-0.9, nb=0.3, wa=-1.2, lean=0.0, x=0.02, nt=0.3, nk=0.3, ft=-0.3, fk=0.2,
             fa=0.7, fb=0.8, head=0.05)
    sweep = P(na=2.55, nb=0.1, wa=2.9, lean=0.2, x=0.07, nt=0.5, nk=0.45, ft=-0.45, fk=0.2,
              fa=-0.8, fb=0.3, head=-0.1)  # rising cut
    t1 = 0.22 if heavy else 0.18  # strike duration (s)
    return [(0.0, P(wa=wr)), (w0, windup), (w0 + 0.14, windup), (w0 + 0.14 + t1, strike),
            (1.3, strike), (1.7, guard), (1.95, back), (1.95 + t1 + 0.02, sweep), (2.45, sweep),
            (2.95, P(wa=wr))]


def skill_keys(weapon):
    up = P(na=2.95, nb=0.2, fa=2.7, fb=0.25, lean=-0.1, head=-0.15, lift=0.035, flut=1.0,
           wind=0.2, nk=0.15, fk=0.15)
    up2 = dict(up, na=3.05, fa=2.8, lift=0.045)
    cast = P(na=1.55, nb=0.0, fa=1.45, fb=0.06, lean=0.22, head=0.05, lift=0.02, flut=0.6,
             wind=0.5, x=0.02, nt=0.35, nk=0.3, ft=-0.3, fk=0.15)
    if weapon != "none":
        up["wa"], up2["wa"], cast["wa"] = 2.55, 2.62, 1.62
    k = [(0.0, P()), (0.35, P()), (1.0, up), (1.45, up2), (1.65, cast), (2.2, cast), (2.85, P())]
    if weapon != "none":
        for _, p in k:
            p.setdefault("wa", WEAPON_REST[weapon])
    return k


def hurt_keys():
    hit = P(lean=-0.45, head=-0.5, x=-0.07, na=1.1, nb=0.9, fa=0.9, fb=1.0, nt=0.3, nk=0.45,
            ft=0.05, fk=0.35)
    recoil = P(lean=-0.3, head=-0.25, x=-0.1, na=0.8, nb=1.0, fa=0.7, fb=1.1, nt=0.35, nk=0.6,
               ft=0.0, fk=0.5)
    hunch = P(lean=0.14, head=0.2, x=-0.08, na=0.45, nb=0.85, fa=0.35, fb=0.95, nt=0.15,
              nk=0.3, ft=-0.1, fk=0.25)
    settle = P(x=-0.06, lean=0.07, head=0.05, nk=0.12, fk=0.12)
    hit2 = P(lean=-0.26, head=-0.32, x=-0.11, na=0.8, nb=0.8, fa=0.6, fb=0.9, nt=0.25, nk=0.4,
             fk=0.3, ft=0.0)
    end = P(x=-0.08)
    return [(0.0, P()), (0.45, P()), (0.55, hit), (0.75, recoil), (1.4, hunch), (1.9, settle),
            (2.0, settle), (2.08, hit2), (2.35, dict(hunch, x=-0.1)), (2.95, end)]


def pose_at(char, t):
    """The pose channels at time t (s) for the character's action."""
    act = char["action"]
    w = char["weapon"]
    p = None
    if act == "idle":
        p = P()
    elif act in ("walk", "run"):
        run = act == "run"
        fq = char.get("cycle", 1.35 if run else 0.9)
        ph = 2 * math.pi * fq * t
        amp = smooth(t / (0.35 if run else 0.5))
        if run:
            cyc = dict(nt=0.15 + 0.85 * math.sin(ph), ft=0.15 + 0.85 * math.sin(ph + math.pi),
                       nk=0.3 + 1.4 * max(0.0, math.cos(ph - 0.4)),
                       fk=0.3 + 1.4 * max(0.0, math.cos(ph + math.pi - 0.4)),
                       na=-0.95 * math.sin(ph), fa=0.95 * math.sin(ph),
                       nb=1.45 + 0.3 * math.sin(ph), fb=1.45 - 0.3 * math.sin(ph),
                       lean=0.28, head=-0.12,
                       lift=0.035 * max(0.0, math.sin(2 * ph + 0.6)), wind=0.9)
        else:
            cyc = dict(nt=0.42 * math.sin(ph), ft=0.42 * math.sin(ph + math.pi),
                       nk=0.08 + 0.65 * max(0.0, math.cos(ph - 0.3)),
                       fk=0.08 + 0.65 * max(0.0, math.cos(ph + math.pi - 0.3)),
                       na=-0.36 * math.sin(ph), fa=0.36 * math.sin(ph),
                       nb=0.3 + 0.15 * max(0.0, -math.sin(ph)),
                       fb=0.3 + 0.15 * max(0.0, math.sin(ph)),
                       lean=0.08, head=0.02 * math.sin(2 * ph), wind=0.3)
        if w != "none" and not run:
            cyc["na"] *= 0.4
        p = P()
        for k, v in cyc.items():
            p[k] = p[k] * (1 - amp) + v * amp
        p["x"] = char.get("drift", 0.0) * max(t - 0.2, 0.0)
    elif act == "attack":
        p = keyed(t, attack_keys(w))
    elif act == "skill":
        p = keyed(t, skill_keys(w))
        if 1.0 < t < 1.45:  # the charge trembles
            tr = 0.025 * math.sin(2 * math.pi * 11 * t) * smooth((t - 1.0) / 0.1)
            p["na"] += tr
            p["fa"] -= tr
    elif act == "hurt":
        p = keyed(t, hurt_keys())
    # breathing everywhere, stronger when idle
    b = 2.0 if act == "idle" else 1.0
    s = math.sin(2 * math.pi * 0.45 * t)
    p["breath"] = p.get("breath", 1.0) + 0.012 * b * s
    p["lean"] += 0.012 * b * s
    p["na"] += 0.035 * b * math.sin(2 * math.pi * 0.45 * t + 0.6)
    p["fa"] -= 0.03 * b * math.sin(2 * math.pi * 0.45 * t + 0.9)
    p["head"] += 0.03 * b * math.sin(2 * math.pi * 0.3 * t + 0.4)
    p["nk"] += 0.02 * b * (1 + s)
    p["fk"] += 0.02 * b * (1 + s)
    p["t"] = t
    return p


# ----------------------------------------------------------------------------- geometry


class Parts:
    """The character's parts in painter's order, in frame pixels (x right, y down)."""

    def __init__(self):
        self.items = []

    def _add(self, pts, col, fr, width=None, closed=True, tex=True, ink=True, matte=False):
        self.items.append(dict(pts=np.asarray(pts, np.float64), col=np.asarray(col, np.float64),
                               fr=fr, width=width, closed=closed, tex=tex, ink=ink,
                               matte=matte))

    def capsule(self, p0, p1, r0, r1, col, **kw):
        p0 = np.asarray(p0, float)
        p1 = np.asarray(p1, float)
        dv = p1 - p0
        ang = math.atan2(dv[1], dv[0])
        ln = max(float(np.hypot(*dv)), 1e-6)
        a1 = np.linspace(ang - math.pi / 2, ang + math.pi / 2, 11)
        a0 = np.linspace(ang + math.pi / 2, ang + 3 * math.pi / 2, 11)
        pts = np.concatenate([p1 + r1 * np.stack([np.cos(a1), np.sin(a1)], 1),
                              p0 + r0 * np.stack([np.cos(a0), np.sin(a0)], 1)])
        self._add(pts, col, (1, p0[0], p0[1], ang, ln, 0.5 * (r0 + r1)), **kw)

    def ellipse(self, c, a, b, ang, col, n=36, **kw):
        s = np.linspace(0, 2 * math.pi, n, endpoint=False)
        ca, sa = math.cos(ang), math.sin(ang)
        lx, ly = a * np.cos(s), b * np.sin(s)
        pts = np.stack([c[0] + lx * ca - ly * sa, c[1] + lx * sa + ly * ca], 1)
        self._add(pts, col, (2, c[0], c[1], ang, a, b), **kw)

    def superellipse(self, c, a, b_top, b_bot, ang, col, pw=3.0, n=40, **kw):
        """Along axis ang: half length a; half width b_top at +a end, b_bot at -a end."""
        s = np.linspace(0, 2 * math.pi, n, endpoint=False)
        cs, sn = np.cos(s), np.sin(s)
        lx = a * np.sign(cs) * np.abs(cs) ** (2 / pw)
        bw = b_bot + (b_top - b_bot) * (lx / a + 1) / 2
        ly = bw * np.sign(sn) * np.abs(sn) ** (2 / pw)
        ca, sa = math.cos(ang), math.sin(ang)
        pts = np.stack([c[0] + lx * ca - ly * sa, c[1] + lx * sa + ly * ca], 1)
        self._add(pts, col, (2, c[0], c[1], ang, a, 0.5 * (b_top + b_bot)), **kw)

    def poly(self, pts, col, origin, ang, size, **kw):
        self._add(pts, col, (0, origin[0], origin[1], ang, size, size), **kw)

    def stroke(self, pts, width, col):
        pts = np.asarray(pts, float)
        o = pts[0]
        self._add(pts, col, (0, o[0], o[1], 0.0, 1.0, 1.0), width=width, closed=False,
                  ink=False)

    def points(self):
        return np.concatenate([it["pts"] for it in self.items])


def local(c, ang, pts):
    """Points (along, across) in a frame at c with axis angle ang -> frame pixels."""
    ca, sa = math.cos(ang), math.sin(ang)
    pts = np.asarray(pts, float)
    return np.stack([c[0] + pts[:, 0] * ca - pts[:, 1] * sa,
                     c[1] + pts[:, 0] * sa + pts[:, 1] * ca], 1)


def build(char, p, geo):
    """Forward kinematics and the part list for pose p. geo: H (px), root x, ground y."""
    H, rx, gy = geo["H"], geo["rx"], geo["gy"]
    f = char["face"]
    C = char["col"]
    far = char.get("far", 0.78)
    ws = char.get("wscale", 1.0)

    def dim(c):
        return np.asarray(c, float) * far

    L_torso = 0.28 * H * p["breath"]
    lean = p["lean"]
    up = np.array([f * math.sin(lean), -math.cos(lean)])
    fwd = np.array([f * math.cos(lean), math.sin(lean)])

    def fk(hip):
        neck = hip + up * L_torso
        hang = lean + p["head"]
        hup = np.array([f * math.sin(hang), -math.cos(hang)])
        head = neck + hup * (0.035 * H + 0.095 * H)
        shn = hip + up * (L_torso - 0.045 * H) + fwd * 0.006 * H
        shf = shn - fwd * 0.024 * H
        arms = {}
        for side, sh in (("n", shn), ("f", shf)):
            a1 = lean + p[side + "a"]
            el = sh + 0.15 * H * rot(a1, f)
            a2 = a1 + p[side + "b"]
            hd = el + 0.14 * H * rot(a2, f)
            arms[side] = (sh, el, hd, a1, a2)
        legs = {}
        for side, sgn in (("n", 1.0), ("f", -1.0)):
            hp = hip + fwd * 0.012 * H * sgn
            t1 = p[side + "t"]
            kn = hp + 0.22 * H * rot(t1, f)
            t2 = t1 - p[side + "k"]
            an = kn + 0.21 * H * rot(t2, f)
            fa = math.pi / 2 + 0.45 * t2
            toe = an + 0.075 * H * rot(fa, f)
            legs[side] = (hp, kn, an, toe, t1, t2)
        return neck, head, hang, hup, arms, legs

    hip0 = np.array([rx + p["x"] * H, 0.0])
    _, _, _, _, _, legs = fk(hip0)
    low = max(max(lg[2][1], lg[3][1]) for lg in legs.values()) + 0.028 * H
    hip = hip0 + np.array([0.0, gy - low - p["lift"] * H])
    neck, head, hang, hup, arms, legs = fk(hip)
    low = max(max(lg[2][1], lg[3][1]) for lg in legs.values()) + 0.028 * H
    geo_out = dict(hip=hip, feet_x=0.5 * (legs["n"][2][0] + legs["f"][2][0]), lift=gy - low)

    pt = Parts()
    t = p["t"]
    wind = p["wind"]
    flut = p["flut"]

    # cape, behind everything
    if char.get("cape"):
        anchor = neck - fwd * 0.035 * H + up * (-0.02 * H)
        n = 7
        segl = 0.5 * H / n
        centre = [anchor]
        th = lean * 0.5 - 0.12 - 0.9 * wind - 0.4 * flut
        for k in range(n):
            th_k = th - 0.06 * k * (1 + wind) + 0.07 * (wind + 0.3 + flut) * math.sin(
                2 * math.pi * 1.1 * t - 0.8 * k)
            centre.append(centre[-1] + segl * rot(th_k, f))
        centre = np.array(centre)
        left, right = [], []
        for k in range(n + 1):
            d = centre[min(k + 1, n)] - centre[max(k - 1, 0)]
            d /= np.hypot(*d) + 1e-9
            nrm = np.array([-d[1], d[0]])
            hw = (0.05 + 0.085 * k / n) * H
            left.append(centre[k] + nrm * hw)
            right.append(centre[k] - nrm * hw)
        pts = np.array(left + right[::-1])
        pt.poly(pts, C["cape"], anchor, math.atan2(*(centre[-1] - anchor)[::-1]), 0.5 * H)

    # the mass of long hair hangs behind the head and the upper back
    hang0 = lean + p["head"]
    hup0 = np.array([f * math.sin(hang0), -math.cos(hang0)])
    hfwd0 = np.array([f * math.cos(hang0), math.sin(hang0)])
    if char.get("hair", "long") == "long":
        top = head + hup0 * 0.3 * 0.095 * H - hfwd0 * 0.4 * 0.085 * H
        thm = -0.12 - 0.8 * wind - 1.1 * flut + 0.05 * math.sin(2 * math.pi * 0.5 * t)
        pt.capsule(top, top + char.get("mass", 0.24) * H * rot(thm, f), 0.07 * H, 0.04 * H,
                   C["hair"])

    def arm(side, c_sleeve, c_skin, c_hand):
        sh, el, hd, a1, a2 = arms[side]
        pt.capsule(sh, el, 0.034 * H * ws, 0.028 * H * ws, c_sleeve)
        pt.capsule(el, hd, 0.026 * H * ws, 0.022 * H * ws, c_skin)

    def hand(side, c_hand):
        hd = arms[side][2]
        pt.ellipse(hd, 0.03 * H * ws, 0.026 * H * ws, arms[side][4], c_hand, n=20)

    def leg(side, dimf):
        hp, kn, an, toe, t1, t2 = legs[side]
        cp = dimf(C["pants"])
        cb = dimf(C["boots"])
        pt.capsule(hp, kn, 0.048 * H * ws, 0.038 * H * ws, cp)
        mid = kn + 0.42 * (an - kn)
        pt.capsule(kn, mid, 0.037 * H * ws, 0.034 * H * ws, cp)
        pt.capsule(mid, an, 0.036 * H * ws, 0.031 * H * ws, cb)
        pt.capsule(an, toe, 0.03 * H * ws, 0.024 * H * ws, cb)

    forearm = C.get("forearm", C["skin"])
    handc = C.get("glove", C["skin"])
    # far arm, far leg, near leg
    arm("f", dim(C["sleeve"]), dim(forearm), None)
    hand("f", dim(handc))
    leg("f", dim)
    leg("n", lambda c: np.asarray(c, float))
    # pelvis, torso, belt
    pt.ellipse(hip + up * 0.01 * H, 0.072 * H * ws, 0.05 * H, math.atan2(fwd[1], fwd[0]),
               C["pants"], n=28)
    tc = hip + up * L_torso * 0.5
    pt.superellipse(tc, 0.56 * L_torso, 0.088 * H * ws, 0.07 * H * ws,
                    math.atan2(up[1], up[0]), C["shirt"])
    if C.get("belt") is not None:
        b0 = hip + up * 0.045 * H
        pt.capsule(b0 - fwd * 0.07 * H * ws, b0 + fwd * 0.07 * H * ws, 0.014 * H, 0.014 * H,
                   C["belt"])
    # neck and head (a hood sits behind the head)
    hb = 0.095 * H
    ha = 0.085 * H
    hax = math.atan2(hup[1], hup[0])  # head's axis points up
    hfwd = np.array([f * math.cos(hang), math.sin(hang)])
    hair = char.get("hair", "long")
    if hair == "hood":
        pt.ellipse(head + hup * 0.1 * hb - hfwd * 0.25 * ha, 1.2 * hb, 1.15 * ha, hax, C["hair"])
    pt.capsule(neck - up * 0.01 * H, head - hup * 0.06 * H, 0.026 * H, 0.026 * H, C["skin"])
    pt.ellipse(head, hb, ha, hax, C["skin"])
    eye = head + hfwd * 0.55 * ha - hup * 0.12 * hb
    pt.ellipse(eye, 0.16 * hb, 0.11 * ha, hax, C.get("eye", (20, 16, 16)), n=12, ink=False,
               matte=True, tex=False)
    # hair
    hc = C["hair"]
    strands = []
    if hair not in ("none", "hood"):
        cap_c = head + hup * 0.45 * hb - hfwd * 0.15 * ha
        pt.ellipse(cap_c, 0.62 * hb * 1.1, 1.08 * ha, hax, hc)
        rng = np.random.default_rng(char["seed"] + 99)
        if hair == "spiky":
            for k in range(6):
                base_a = -0.25 * math.pi + 0.17 * math.pi * k  # around the top/back
                d0 = np.array([-f * math.sin(base_a) * 0.8, -math.cos(base_a)])
                root = cap_c + d0 * 0.55 * ha
                sway = 0.05 * math.sin(2 * math.pi * 0.7 * t + k) + 0.15 * wind
                dd = d0 + np.array([-f * (0.35 + sway), -0.2 + 0.3 * flut * 0])
                dd /= np.hypot(*dd)
                nrm = np.array([-dd[1], dd[0]])
                ln = (0.1 + 0.04 * rng.random()) * H
                tip = root + dd * ln
                pt.poly([root + nrm * 0.035 * H, tip, root - nrm * 0.035 * H], hc, root,
                        math.atan2(dd[1], dd[0]), ln)
            nstr = 4
        elif hair == "long":
            nstr = char.get("strands", 14)
        else:  # short
            nstr = 5
        for k in range(nstr):
            u = rng.random()
            ang = math.pi * (0.15 + 0.75 * u)  # on the cap, from the top towards the back
            root = cap_c + np.array([-f * math.sin(ang) * 0.9 * ha, -math.cos(ang) * 0.55 * hb])
            ln = (0.35 + 0.25 * rng.random()) * H if hair == "long" else (
                0.06 + 0.06 * rng.random()) * H
            width = char.get("strand_w", (1.0, 2.6))
            width = width[0] + (width[1] - width[0]) * rng.random()
            ph = rng.random() * 6.28
            th = -0.08 - 0.3 * u - 0.9 * wind - 2.3 * flut
            curl = 0.03 * (1 - flut)  # strands curve back towards hanging down
            if hair == "short":
                th, curl = -1.2 - 1.4 * u, -0.04
            segs = 8
            pts = [root]
            for s_ in range(segs):
                th_s = (th + lean * 0.4 + curl * s_ + (0.08 + 0.1 * wind + 0.2 * flut)
                        * math.sin(2 * math.pi * (0.6 + 0.8 * flut) * t + ph - 0.7 * s_))
                pts.append(pts[-1] + ln / segs * rot(th_s, f))
            strands.append((np.array(pts), width))
    for pts, width in strands:
        pt.stroke(pts, width * geo.get("scale", 1.0), hc)
    # near arm, weapon, near hand
    arm("n", C["sleeve"], forearm, None)
    w = char["weapon"]
    if w != "none":
        sh, el, hd, a1, a2 = arms["n"]
        wa = p["wa"] if "wa" in p else a2 + (WEAPON_REST[w] - (REST["lean"] + REST["na"]
                                                              + REST["nb"]))
        d = rot(wa, f)
        fr = front(wa, f)
        ax = math.atan2(d[1], d[0])
        W = C["weapon"]
        if w == "sword":
            pt.capsule(hd - d * 0.05 * H, hd + d * 0.05 * H, 0.013 * H, 0.013 * H, W["grip"])
            g = hd + d * 0.055 * H
            pt.capsule(g - fr * 0.045 * H, g + fr * 0.045 * H, 0.011 * H, 0.011 * H,
                       W["guard"])
            hw = 0.021 * H
            pts = local(g, ax, [(0, hw), (0.34 * H, 0.8 * hw), (0.44 * H, 0.0),
                                (0.34 * H, -0.8 * hw), (0, -hw)])
            pt.poly(pts, W["blade"], g, ax, 0.44 * H)
        elif w == "axe":
            pt.capsule(hd - d * 0.12 * H, hd + d * 0.42 * H, 0.015 * H, 0.014 * H, W["grip"])
            hc_ = hd + d * 0.36 * H
            ax2 = math.atan2(fr[1], fr[0])  # blade along the swing side
            pts = local(hc_, ax2, [(0.0, -0.05 * H), (0.1 * H, -0.09 * H), (0.2 * H, -0.11 * H),
                                   (0.23 * H, 0.0), (0.2 * H, 0.11 * H), (0.1 * H, 0.08 * H),
                                   (0.0, 0.05 * H), (-0.06 * H, 0.02 * H),
                                   (-0.09 * H, 0.0), (-0.06 * H, -0.02 * H)])
            pt.poly(pts, W["blade"], hc_, ax2, 0.2 * H)
        elif w == "spear":
            r = W.get("shaft_r", 0.0035) * H
            pt.capsule(hd - d * 0.38 * H, hd + d * 0.56 * H, r, r, W["grip"])
            g = hd + d * 0.56 * H
            pts = local(g, ax, [(-0.01 * H, 0.012 * H), (0.05 * H, 0.02 * H), (0.15 * H, 0.0),
                                (0.05 * H, -0.02 * H), (-0.01 * H, -0.012 * H)])
            pt.poly(pts, W["blade"], g, ax, 0.15 * H)
        elif w == "staff":
            pt.capsule(hd - d * 0.42 * H, hd + d * 0.45 * H, 0.01 * H, 0.011 * H, W["grip"])
            g = hd + d * 0.47 * H
            pts = local(g, ax, [(-0.04 * H, 0.0), (0.03 * H, 0.035 * H), (0.1 * H, 0.0),
                                (0.03 * H, -0.035 * H)])
            pt.poly(pts, W["blade"], g, ax, 0.1 * H, tex=False)
    hand("n", handc)
    return pt, geo_out


# ----------------------------------------------------------------------------- rendering


class Painter:
    """Rasterises a part list at ss x supersampling and colours it in the chosen style."""

    def __init__(self, char, rng):
        self.style = char["style"]
        self.ink_w = char.get("ink", 0.0) if self.style == "ink" else 0.0
        self.ink_col = np.array(char.get("ink_col", (18, 14, 22)), float) / 255
        self.tex = tileable_noise(rng)
        self.light = np.array([-0.45 * char["face"], -0.6, 0.66])
        self.light /= np.linalg.norm(self.light)
        h = self.light + np.array([0, 0, 1.0])
        self.half = h / np.linalg.norm(h)
        self.tex_amp = char.get("tex_amp", 0.22)
        self.rng = rng
        self.offs = rng.integers(0, 256, (256, 2))

    def render(self, parts, Wf, Hf, ss, scale=1.0):
        """-> (x0, y0, premultiplied rgb (h, w, 3) float32 in [0,1], alpha (h, w))."""
        items = parts.items
        allp = parts.points()
        pad = 4 + self.ink_w * scale + max((it["width"] or 0) for it in items)
        x0 = int(max(math.floor(allp[:, 0].min() - pad), 0))
        y0 = int(max(math.floor(allp[:, 1].min() - pad), 0))
        x1 = int(min(math.ceil(allp[:, 0].max() + pad), Wf))
        y1 = int(min(math.ceil(allp[:, 1].max() + pad), Hf))
        if x1 <= x0 or y1 <= y0:
            return None
        w, h = x1 - x0, y1 - y0
        lab = np.zeros((h * ss, w * ss), np.uint8)
        sh = 3
        off = np.array([x0, y0], float)
        ink_t = max(1, int(round(self.ink_w * scale * ss)))
        n = len(items) + 2
        ty = np.zeros(n, np.int32)
        fr = np.tile(np.array([0.0, 0.0, 0.0, 1.0, 1.0]), (n, 1))
        col = np.zeros((n, 3), np.float64)
        texon = np.zeros(n, bool)
        matte = np.zeros(n, bool)
        col[INK] = self.ink_col
        matte[INK] = True
        for i, it in enumerate(items, start=2):
            q = np.round(((it["pts"] - off) * ss - 0.5) * (1 << sh)).astype(np.int32)
            if it["width"] is None:
                cv2.fillPoly(lab, [q], i, lineType=cv2.LINE_8, shift=sh)
                if self.ink_w and it["ink"]:
                    cv2.polylines(lab, [q], True, INK, thickness=ink_t, lineType=cv2.LINE_8,
                                  shift=sh)
            else:
                cv2.polylines(lab, [q], False, i, thickness=max(1, int(round(it["width"] * ss))),
                              lineType=cv2.LINE_8, shift=sh)
            t_, ox, oy, ang, a, b = it["fr"]
            ty[i] = t_
            fr[i] = (ox, oy, ang, max(a, 1e-3), max(b, 1e-3))
            col[i] = it["col"] / 255.0
            texon[i] = it["tex"]
            matte[i] = it["matte"]
        # per-label table: origin, axis cos/sin, 1/a for ellipses, 1/b for capsules and
        # ellipses, 1/a for flat parts, colour, texture offsets, flags
        tab = np.zeros((n, 14), np.float32)
        tab[:, 0], tab[:, 1] = fr[:, 0], fr[:, 1]
        tab[:, 2], tab[:, 3] = np.cos(fr[:, 2]), np.sin(fr[:, 2])
        tab[:, 4] = (ty == 2) / fr[:, 3]
        tab[:, 5] = (ty >= 1) / fr[:, 4]
        tab[:, 6] = (ty == 0) / fr[:, 3]
        tab[:, 7:10] = col
        tab[:, 10:12] = self.offs[:n]
        tab[:, 12] = texon & ~matte
        tab[:, 13] = matte
        idx = np.flatnonzero(lab)
        G = tab[lab.ravel()[idx]]
        W2 = w * ss
        X = ((idx % W2).astype(np.float32) + 0.5) / ss + x0
        Y = ((idx // W2).astype(np.float32) + 0.5) / ss + y0
        dx, dy = X - G[:, 0], Y - G[:, 1]
        ca, sa = G[:, 2], G[:, 3]
        u = dx * ca + dy * sa
        v = dy * ca - dx * sa
        base = G[:, 7:10]
        st = self.style
        if st == "flat":
            rgb = base
        else:
            nu, nv = u * G[:, 4], v * G[:, 5]
            r2 = nu * nu + nv * nv
            k = np.sqrt(0.96 / np.maximum(r2, 0.96))
            nu *= k
            nv *= k
            nz = np.sqrt(np.maximum(1 - nu * nu - nv * nv, 0.0))
            nx = nu * ca - nv * sa
            ny = nu * sa + nv * ca
            lx, ly, lz = self.light.astype(np.float32)
            ndl = nx * lx + ny * ly + nz * lz
            uf = u * G[:, 6]  # along a blade or cape, 0..1
            flat = G[:, 6] > 0
            if st in ("cel", "ink"):
                shade = np.where(ndl > 0.3, np.float32(1.0), np.float32(0.74))
                shade = np.where(flat, np.where(uf > 0.5, np.float32(0.9), np.float32(1.0)),
                                 shade)
                rgb = base * shade[:, None]
            else:
                sh_ = 0.52 + 0.55 * np.clip(ndl, 0, 1)
                sh_ = np.where(flat, 1.0 - 0.2 * np.clip(uf, 0, 1), sh_)
                hx, hy, hz = self.half.astype(np.float32)
                spec = np.clip(nx * hx + ny * hy + nz * hz, 0, 1) ** 18
                rgb = base * sh_[:, None] + (0.28 * spec)[:, None]
                if st == "textured":
                    tu = (u * (0.8 / scale) + G[:, 10]).astype(np.int32) & 255
                    tv = (v * (0.8 / scale) + G[:, 11]).astype(np.int32) & 255
                    m = 1.0 + self.tex_amp * 2 * (self.tex[tv, tu] - 0.5) * G[:, 12]
                    rgb = rgb * m[:, None]
            rgb = np.where(G[:, 13:14] > 0, base, rgb)
        rgb = np.clip(rgb, 0, 1).astype(np.float32)
        img = np.zeros((h * ss * w * ss, 4), np.float32)
        img[idx, :3] = rgb
        img[idx, 3] = 1.0
        img = img.reshape(h * ss, w * ss, 4)
        if ss > 1:
            img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
        return x0, y0, img


# ----------------------------------------------------------------------------- backdrop


class Backdrop:
    def __init__(self, cfg, Wf, Hf, rng):
        key = np.array(cfg["key"], np.float32)
        yy, xx = np.mgrid[0:Hf, 0:Wf].astype(np.float32)
        xn = (xx + 0.5) / Wf * 2 - 1
        yn = (yy + 0.5) / Hf * 2 - 1
        ga = rng.uniform(0, 2 * math.pi)
        ramp = xn * math.cos(ga) + yn * math.sin(ga)
        g = cfg.get("grad", 0.07)
        r2 = xn ** 2 + yn ** 2
        vig = 1 - cfg.get("vig", 0.18) * np.clip(r2 / 2, 0, 1) ** 1.2
        tint = np.array(cfg.get("tint", (1.0, 1.0, 1.0)), np.float32)  # the far side's tint
        mix = (ramp * 0.5 + 0.5)[..., None]
        self.base = key * (1 + g * ramp)[..., None] * vig[..., None] * (1 + (tint - 1) * mix)
        self.base = self.base.astype(np.float32)
        self.noise = cfg.get("noise", 2.5)
        self.Wf, self.Hf = Wf, Hf
        self.rng = rng
        self.fl = 0.0
        self.xx, self.yy = xx, yy
        self.shadow = cfg.get("shadow", 0.0)

    def frame(self, shadow_at=None):
        self.fl = 0.8 * self.fl + 0.2 * self.rng.uniform(-0.03, 0.03) * 2.2
        fl = float(np.clip(self.fl, -0.03, 0.03))
        bg = self.base * (1 + fl)
        if self.shadow and shadow_at is not None:
            cx, cy, sx, sy, s = shadow_at
            x0, x1 = int(max(cx - 3 * sx, 0)), int(min(cx + 3 * sx, self.Wf))
            y0, y1 = int(max(cy - 3 * sy, 0)), int(min(cy + 3 * sy, self.Hf))
            if x1 > x0 and y1 > y0:
                xx = self.xx[y0:y1, x0:x1]
                yy = self.yy[y0:y1, x0:x1]
                m = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) ** 1.3 * 2.0)
                bg = bg.copy()
                bg[y0:y1, x0:x1] *= (1 - self.shadow * s * m)[..., None]
        luma = self.rng.standard_normal((self.Hf, self.Wf), np.float32) * self.noise
        chroma = self.rng.standard_normal((self.Hf, self.Wf, 3), np.float32) * (self.noise * 0.45)
        nz = luma[..., None] + chroma
        nz = cv2.GaussianBlur(nz, (0, 0), 0.6)
        return bg + nz


# ----------------------------------------------------------------------------- cases

GREENS = [(40, 200, 70), (0, 177, 64), (90, 220, 60), (30, 160, 80)]
SWORD = dict(grip=(90, 55, 35), guard=(200, 170, 70), blade=(205, 212, 220))
AXE = dict(grip=(110, 72, 40), blade=(150, 155, 165))
SPEAR = dict(grip=(120, 85, 50), blade=(215, 215, 220), shaft_r=0.0036)
STAFF = dict(grip=(100, 70, 45), blade=(255, 120, 220))


def ch(**kw):
    base = dict(face=1, weapon="none", hair="long", style="cel", seed=0)
    base.update(kw)
    return base


CASES = [
    dict(name="c01_idle_cel_greenshirt", size=(448, 448), fps=24, crf=20, key=GREENS[0],
         hf=0.74, gy=0.93, rx=0.5, shutter=0.5, centred=True, wrap=0.22, wrap_px=3.0,
         notes="flat cel idle; shirt (70,185,85) close to the key, long hair with 1-2.6 px strands",
         char=ch(action="idle", style="flat", seed=101, hair="long", strands=16,
                 strand_w=(1.0, 2.2),
                 col=dict(skin=(232, 190, 160), hair=(120, 70, 40), shirt=(70, 185, 85),
                          sleeve=(70, 185, 85), pants=(60, 60, 90), boots=(70, 45, 30),
                          belt=(40, 30, 25)))),
    dict(name="c02_walk_shaded_tealskin", size=(448, 448), fps=24, crf=22, key=GREENS[1],
         hf=0.7, gy=0.92, rx=0.52, shutter=0.6, centred=True, wrap=0.18, wrap_px=4.0,
         shadow=0.35, notes="shaded walk facing left; teal skin, contact shadow",
         char=ch(action="walk", style="shaded", seed=102, face=-1, hair="short",
                 col=dict(skin=(60, 170, 165), hair=(30, 40, 60), shirt=(170, 90, 60),
                          sleeve=(170, 90, 60), pants=(70, 60, 50), boots=(45, 35, 30),
                          belt=(120, 100, 50)))),
    dict(name="c03_run_textured_olive", size=(512, 512), fps=24, crf=23, key=GREENS[2],
         hf=0.66, gy=0.9, rx=0.5, shutter=1.0, centred=True, wrap=0.25, wrap_px=3.5,
         shadow=0.3, notes="textured run, olive and dark-green clothes, full-frame shutter: "
         "limbs blur 30-60 px",
         char=ch(action="run", style="textured", seed=103, hair="spiky", tex_amp=0.28,
                 col=dict(skin=(205, 160, 120), hair=(50, 35, 25), shirt=(95, 105, 45),
                          sleeve=(95, 105, 45), pants=(40, 72, 40), boots=(60, 50, 35),
                          belt=(80, 60, 30)))),
    dict(name="c04_attack_ink_sword", size=(448, 448), fps=24, crf=19, key=GREENS[3],
         hf=0.62, gy=0.92, rx=0.42, shutter=0.75, centred=False, wrap=0.2, wrap_px=2.5,
         notes="ink-outlined (3 px) sword attack, thin blade tip, trailing shutter, swings "
         "blur 50-80 px",
         char=ch(action="attack", style="ink", ink=3.0, seed=104, weapon="sword", hair="long",
                 strands=8, col=dict(skin=(240, 200, 170), hair=(200, 60, 40),
                                     shirt=(60, 90, 170), sleeve=(60, 90, 170),
                                     pants=(90, 80, 70), boots=(60, 40, 30), belt=(150, 120, 60),
                                     weapon=SWORD))),
    dict(name="c05_skill_shaded_white_wide", size=(832, 480), fps=24, crf=21, key=GREENS[0],
         hf=0.6, gy=0.94, rx=0.45, shutter=0.6, centred=True, wrap=0.35, wrap_px=5.0, portrait_scale=2,
         notes="near-white robed mage with white hair and staff, strongest light wrap, hair "
         "floats up while charging",
         char=ch(action="skill", style="shaded", seed=105, weapon="staff", hair="long",
                 strands=14, col=dict(skin=(245, 225, 210), hair=(240, 240, 236),
                                      shirt=(238, 236, 230), sleeve=(238, 236, 230),
                                      pants=(228, 226, 220), boots=(200, 195, 185),
                                      belt=(210, 180, 90), weapon=STAFF, eye=(40, 60, 120)))),
    dict(name="c06_hurt_cel_black_16fps", size=(448, 448), fps=16, crf=24, key=GREENS[1],
         hf=0.72, gy=0.93, rx=0.55, shutter=0.7, centred=True, wrap=0.15, wrap_px=2.5,
         shadow=0.3, notes="near-black ninja at 16 fps, glowing eyes, two hits with recoil",
         char=ch(action="hurt", style="cel", seed=106, hair="hood", face=1,
                 col=dict(skin=(30, 28, 34), hair=(22, 22, 28), shirt=(24, 24, 30),
                          sleeve=(24, 24, 30), pants=(20, 20, 26), boots=(14, 14, 18),
                          belt=(90, 20, 20), eye=(230, 240, 255)))),
    dict(name="c07_idle_blue_blueclothes", size=(448, 448), fps=24, crf=18,
         key=(25, 60, 210), hf=0.76, gy=0.94, rx=0.5, shutter=0.5, centred=True, wrap=0.2,
         wrap_px=3.0, notes="blue screen; shaded character in blue shirt and navy trousers, "
         "spiky hair",
         char=ch(action="idle", style="shaded", seed=107, hair="spiky",
                 col=dict(skin=(225, 180, 150), hair=(240, 200, 80), shirt=(45, 80, 190),
                          sleeve=(45, 80, 190), pants=(30, 35, 90), boots=(50, 40, 35),
                          belt=(30, 30, 30)))),
    dict(name="c08_attack_blue_axe_cyanskin", size=(512, 512), fps=24, crf=22,
         key=(0, 71, 187), hf=0.6, gy=0.91, rx=0.42, shutter=1.0, centred=True, wrap=0.25,
         wrap_px=3.0, notes="blue screen; cyan-skinned axe fighter, ink outline 2 px, "
         "full-frame shutter on the chops",
         char=ch(action="attack", style="ink", ink=2.0, seed=108, weapon="axe", hair="short",
                 wscale=1.15, col=dict(skin=(80, 200, 220), hair=(20, 30, 60),
                                       shirt=(150, 60, 50), sleeve=(150, 60, 50),
                                       pants=(80, 70, 60), boots=(50, 40, 30), belt=(40, 30, 20),
                                       weapon=AXE))),
    dict(name="c09_walk_ink_hair_720p", size=(1280, 720), fps=24, crf=20, key=GREENS[1],
         hf=0.7, gy=0.93, rx=0.38, shutter=0.5, centred=True, wrap=0.2, wrap_px=4.0,
         shadow=0.25, notes="1280x720 walk drifting right; ink outline 3 px, long hair of "
         "1-3 px strands, a cape",
         char=ch(action="walk", style="ink", ink=3.0, seed=109, hair="long", strands=18,
                 strand_w=(1.0, 3.0), cape=True, drift=0.12,
                 col=dict(skin=(238, 196, 168), hair=(60, 40, 30), shirt=(200, 180, 140),
                          sleeve=(200, 180, 140), pants=(70, 80, 110), boots=(90, 60, 40),
                          belt=(60, 40, 30), cape=(150, 40, 50)))),
    dict(name="c10_run_blue_cel_16fps", size=(448, 448), fps=16, crf=21, key=(30, 80, 200),
         hf=0.64, gy=0.9, rx=0.48, shutter=0.9, centred=False, wrap=0.2, wrap_px=3.0,
         notes="blue screen at 16 fps; cel run in teal and royal-blue clothes, trailing "
         "shutter",
         char=ch(action="run", style="cel", seed=110, hair="long", strands=10, face=-1,
                 col=dict(skin=(220, 170, 140), hair=(20, 20, 25), shirt=(40, 150, 160),
                          sleeve=(40, 150, 160), pants=(40, 60, 170), boots=(40, 35, 30),
                          belt=(200, 200, 200)))),
    dict(name="c11_skill_textured_cyan_cape", size=(448, 448), fps=24, crf=23, key=GREENS[2],
         hf=0.58, gy=0.94, rx=0.5, shutter=0.7, centred=True, wrap=0.28, wrap_px=4.5,
         ghost=0.12, notes="textured caster with cyan skin, dark-teal cape and olive robe; "
         "arms thrown up then forward; faint ghosting of the previous frames",
         char=ch(action="skill", style="textured", seed=111, hair="long", strands=12,
                 cape=True, col=dict(skin=(90, 210, 215), hair=(230, 230, 240),
                                     shirt=(110, 120, 50), sleeve=(110, 120, 50),
                                     pants=(70, 80, 40), boots=(50, 45, 30), belt=(170, 140, 60),
                                     cape=(20, 90, 90)))),
    dict(name="c12_hurt_shaded_greenarmour", size=(512, 512), fps=24, crf=20, key=GREENS[3],
         hf=0.76, gy=0.93, rx=0.55, shutter=0.75, centred=True, wrap=0.22, wrap_px=3.0,
         shadow=0.35, ghost=0.1, portrait_scale=2, notes="shaded knight in green armour (60,150,75) on a "
         "(30,160,80) screen, hurt twice, contact shadow, faint ghosting",
         char=ch(action="hurt", style="shaded", seed=112, hair="short", face=-1,
                 col=dict(skin=(230, 190, 160), hair=(150, 110, 60), shirt=(60, 150, 75),
                          sleeve=(60, 150, 75), forearm=(60, 150, 75), glove=(90, 80, 70),
                          pants=(50, 110, 60), boots=(80, 80, 85), belt=(100, 70, 40)))),
    dict(name="c13_attack_spear_cel_wide", size=(832, 480), fps=24, crf=22, key=GREENS[0],
         hf=0.62, gy=0.92, rx=0.38, shutter=0.8, centred=True, wrap=0.18, wrap_px=3.0,
         notes="cel spearman, thin 2.5 px shaft and pointed tip, near-white shirt and olive "
         "trousers, two thrusts",
         char=ch(action="attack", style="cel", seed=113, weapon="spear", hair="short",
                 col=dict(skin=(200, 150, 110), hair=(30, 25, 20), shirt=(240, 238, 228),
                          sleeve=(240, 238, 228), pants=(100, 110, 50), boots=(70, 50, 35),
                          belt=(120, 40, 40), weapon=SPEAR))),
    dict(name="c14_idle_textured_darkgreen_cloak", size=(448, 448), fps=24, crf=19,
         key=GREENS[1], hf=0.78, gy=0.93, rx=0.5, shutter=0.5, centred=True, wrap=0.3,
         wrap_px=4.0, notes="textured hooded ranger in dark-green cloak and olive clothes",
         char=ch(action="idle", style="textured", seed=114, hair="hood", cape=True,
                 tex_amp=0.3, col=dict(skin=(210, 170, 140), hair=(30, 70, 40),
                                       shirt=(75, 85, 40), sleeve=(30, 70, 40),
                                       pants=(55, 60, 35), boots=(60, 45, 30), belt=(90, 60, 30),
                                       cape=(30, 70, 40)))),
    dict(name="c15_walk_blue_white", size=(448, 448), fps=24, crf=24, key=(20, 90, 230),
         hf=0.68, gy=0.92, rx=0.5, shutter=0.6, centred=True, wrap=0.3, wrap_px=3.5,
         shadow=0.25, notes="blue screen; near-white character (white clothes, silver hair, "
         "pale skin), shaded",
         char=ch(action="walk", style="shaded", seed=115, hair="long", strands=12,
                 col=dict(skin=(250, 235, 225), hair=(225, 228, 235), shirt=(245, 245, 242),
                          sleeve=(245, 245, 242), pants=(232, 232, 236), boots=(210, 210, 215),
                          belt=(180, 180, 190)))),
    dict(name="c16_attack_ink_black_sword_720p", size=(1280, 720), fps=24, crf=21,
         key=GREENS[3], hf=0.6, gy=0.92, rx=0.45, shutter=0.6, centred=True, wrap=0.15,
         wrap_px=5.0, notes="1280x720 near-black swordsman with dark ink outline (4 px) and a "
         "red scarf-belt, sword swings",
         char=ch(action="attack", style="ink", ink=4.0, seed=116, weapon="sword", hair="spiky",
                 ink_col=(5, 5, 8),
                 col=dict(skin=(60, 50, 50), hair=(15, 15, 20), shirt=(28, 28, 34),
                          sleeve=(28, 28, 34), pants=(22, 22, 28), boots=(12, 12, 16),
                          belt=(170, 30, 30), eye=(250, 200, 60), weapon=SWORD))),
]


# ----------------------------------------------------------------------------- a case


def subframe_count(char, geo, times, Wf, Hf):
    pts = [build(char, pose_at(char, t), geo)[0].points() for t in times]
    d = max(float(np.max(np.hypot(*(a - b).T))) for a, b in zip(pts, pts[1:]))
    d *= len(times) - 1
    return d


def render_case(cfg, out_dir):
    t0 = time.time()
    Wf, Hf = cfg["size"]
    fps = cfg["fps"]
    n_frames = 3 * fps
    char = dict(cfg["char"])
    rng = np.random.default_rng(cfg["char"]["seed"])
    painter = Painter(char, np.random.default_rng(char["seed"] + 7))
    bd = Backdrop(dict(key=cfg["key"], grad=rng.uniform(0.04, 0.09), vig=rng.uniform(0.12, 0.25),
                       noise=rng.uniform(2.0, 3.8), shadow=cfg.get("shadow", 0.0),
                       tint=tuple(1 + rng.uniform(-0.04, 0.04, 3))), Wf, Hf,
                  np.random.default_rng(char["seed"] + 13))
    geo = dict(H=cfg["hf"] * Hf, rx=cfg["rx"] * Wf, gy=cfg["gy"] * Hf, scale=1.0)
    out_dir.mkdir(parents=True, exist_ok=True)

    # the portrait: the rest pose at t=0, unblurred (for two cases at twice the clip's scale,
    # as when the user's art was larger than the model's output)
    ps = cfg.get("portrait_scale", 1)
    pgeo = dict(H=geo["H"] * ps, rx=geo["rx"] * ps, gy=geo["gy"] * ps, scale=float(ps))
    parts, _ = build(char, pose_at(char, 0.0), pgeo)
    x0, y0, img = painter.render(parts, Wf * ps, Hf * ps, 4, scale=ps)
    por = np.zeros((Hf * ps, Wf * ps, 4), np.float32)
    por[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img
    Image.fromarray(straight(por)).save(out_dir / "portrait.png")

    container = av.open(str(out_dir / "clip.mp4"), mode="w")
    stream = container.add_stream("libx264", rate=fps)
    stream.width, stream.height = Wf, Hf
    stream.pix_fmt = "yuv420p"
    stream.options = {"crf": str(cfg["crf"]), "preset": "veryfast", "threads": "1"}
    stream.codec_context.thread_count = 1
    stream.codec_context.time_base = Fraction(1, fps)

    truth = np.zeros((n_frames, Hf, Wf, 4), np.uint8)
    shutter = cfg["shutter"] / fps
    wrap, wrap_px = cfg["wrap"], cfg["wrap_px"]
    ghost = cfg.get("ghost", 0.0)
    hist = []
    nsub_total = 0
    for i in range(n_frames):
        t = i / fps
        ts, te = (t - shutter / 2, t + shutter / 2) if cfg["centred"] else (t - shutter, t)
        disp = subframe_count(char, geo, [ts, 0.5 * (ts + te), te], Wf, Hf)
        n = int(min(max(math.ceil(disp / 2.5), 1), 32))
        if i == 0:  # the first frame is the given image, unblurred
            n = 1
        ss = 4 if n == 1 else 3 if n <= 4 else 2
        prem = np.zeros((Hf, Wf, 4), np.float32)
        g_last = None
        for k in range(n):
            tk = ts + (k + 0.5) / n * (te - ts) if n > 1 else t
            parts, g_last = build(char, pose_at(char, tk), geo)
            r = painter.render(parts, Wf, Hf, ss)
            if r is None:
                continue
            x0, y0, img = r
            prem[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] += img
        prem /= n
        nsub_total += n
        truth[i] = straight(prem)
        # the backdrop, with a contact shadow that follows the feet and fades with height
        sh = None
        if cfg.get("shadow"):
            lift = max(g_last["lift"], 0.0)
            s = max(0.0, 1 - lift / (0.15 * geo["H"]))
            sh = (g_last["feet_x"], geo["gy"] - 0.01 * geo["H"], 0.2 * geo["H"] * (1 + lift / geo["H"]),
                  0.03 * geo["H"], s)
        bg = bd.frame(sh)
        a = prem[..., 3:4]
        comp = prem[..., :3] * 255 + bg * (1 - a)
        # light wrap: the backdrop seen around the silhouette, blurred inward over the body
        vis = cv2.GaussianBlur(1 - a[..., 0], (0, 0), wrap_px / 2.0)
        wgt = np.clip(wrap * vis / 0.5, 0, 1) * a[..., 0]
        glow = cv2.GaussianBlur(bg * (1 - a), (0, 0), wrap_px / 2.0) / np.maximum(vis, 1e-3)[..., None]
        glow = np.where(vis[..., None] > 1e-3, glow, bg)
        comp = comp * (1 - wgt[..., None]) + glow * wgt[..., None]
        # ghosting: a faint copy of the character two frames back where the backdrop shows
        if ghost and len(hist) >= 2:
            gp = hist[-2]
            ga = ghost * gp[..., 3:4] * (1 - a)
            grgb = gp[..., :3] / np.maximum(gp[..., 3:4], 1e-4) * 255
            comp = comp * (1 - ga) + grgb * ga
        if ghost:
            hist = (hist + [prem])[-2:]
        frame = av.VideoFrame.from_ndarray(to_yuv420p(np.clip(np.round(comp), 0, 255)),
                                           format="yuv420p")
        frame.pts = i
        for pkt in stream.encode(frame):
            container.mux(pkt)
    for pkt in stream.encode():
        container.mux(pkt)
    container.close()
    np.savez_compressed(out_dir / "truth.npz", rgba=truth)
    meta = dict(action=char["action"], key=list(cfg["key"]), fps=fps, size=[Wf, Hf],
                notes=(f"{cfg['notes']}; style {char['style']}, CRF {cfg['crf']}, shutter "
                       f"{cfg['shutter']} frame {'centred' if cfg['centred'] else 'trailing'}, "
                       f"light wrap {cfg['wrap']:.2f} over {cfg['wrap_px']} px"
                       + (f", contact shadow {cfg['shadow']}" if cfg.get("shadow") else "")
                       + (f", ghost {ghost}" if ghost else "")
                       + (f", portrait at {ps}x the clip's scale" if ps > 1 else "")))
    (out_dir / "case.json").write_text(json.dumps(meta, indent=1) + "\n")
    cov = truth[..., 3] > 127
    rows = np.flatnonzero(cov.any(axis=(0, 2)))
    return dict(seconds=time.time() - t0, subframes=nsub_total / n_frames,
                height=(rows[-1] - rows[0] + 1) / Hf if len(rows) else 0.0)


def to_yuv420p(rgb):
    """8-bit RGB -> planar 4:2:0 (BT.601, limited range: what a decoder assumes when a stream
    says nothing), chroma averaged over each 2x2 block. Done here rather than by swscale so
    that the encoder's input, and so the clip, is the same on every run."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
    cb = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    cr = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
    h, w = y.shape

    def sub(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    planes = [np.clip(np.round(x), 0, 255).astype(np.uint8) for x in (y, sub(cb), sub(cr))]
    return np.concatenate([planes[0], planes[1].reshape(h // 4, w),
                           planes[2].reshape(h // 4, w)])


def straight(prem):
    a = prem[..., 3]
    rgb = prem[..., :3] / np.maximum(a, 1e-6)[..., None]
    out = np.zeros(prem.shape, np.uint8)
    a8 = np.clip(np.round(a * 255), 0, 255).astype(np.uint8)
    out[..., 3] = a8
    out[..., :3] = np.where((a8 > 0)[..., None], np.clip(np.round(rgb * 255), 0, 255), 0)
    return out


def _one(c):
    r = render_case(c, OUT / c["name"])
    return (f"{c['name']:<36} {c['size'][0]}x{c['size'][1]} {c['fps']}fps "
            f"{r['seconds']:5.1f}s  {r['subframes']:4.1f} sub/frame  height {r['height']:.2f}")


def main(argv):
    names = argv[1:]
    cases = [c for c in CASES if not names or any(n in c["name"] for n in names)]
    t_all = time.time()
    jobs = min(int(os.environ.get("TRIAL_JOBS", 2)), len(cases))
    # the heaviest cases first so that two workers finish together; output is the same
    # whatever the order or the number of workers
    order = sorted(cases, key=lambda c: -c["size"][0] * c["size"][1] * c["shutter"])
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            for line in pool.imap_unordered(_one, order):
                print(line, flush=True)
    else:
        for c in order:
            print(_one(c), flush=True)
    print(f"{len(cases)} cases in {time.time() - t_all:.1f}s -> {OUT}")


if __name__ == "__main__":
    main(sys.argv)
