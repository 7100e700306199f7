"""Trial 17: an independent generator of clips made to test the QC flags.

    .venv/bin/python trials/trial17.py [NAME ...]

Writes one case folder per clip into trials/_out/trial17/ (or $TRIAL_OUT): clip.mp4 (H.264
yuv420p, CRF 20, one x264 thread, mbtree=0; RGB -> BT.601 limited-range YUV done here in
numpy so the bytes repeat), portrait.png (the unspilled RGBA rest pose, cropped to the
character with a margin), truth.npz (`rgba`: the character's true straight RGBA per video
frame, same size as the clip) and case.json (action, notes, expect_flags).

The world as modelled here: an image-to-video model (H3) animates a portrait placed on its
green (#00B140). Its first frame is the portrait. Motion eases in over the first few tenths
of a second, walks and runs are mostly on the spot with a little drift, the backdrop is a
flat green with a faint gradient, vignette, cloth-like texture, sensor grain and a slow
brightness drift, a soft contact shadow, a little green spill and light wrap on the
character's edges (not in the truth). Characters are 2.5-D puppets: capsules and hulls
placed in 3-D and projected orthographically, so a yaw of 180 degrees is a true turn (the
far side, its hair parting, ponytail, hat feather and weapon hand are seen), not a mirror.

Ghosting (SMEAR cases) blends a share of the previous rendered frame into the next; the
truth of those cases is the same blend of the two frames' premultiplied RGBA (that is what
the pixels show). Motion blur averages sub-frame renders over the shutter; its truth is the
same average. A skill's glow is a semi-transparent layer and is in the truth.
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

cv2.setNumThreads(1)

GREEN = np.array([0.0, 177.0, 64.0], np.float32)
UP = np.array([0.0, -1.0, 0.0])
DOWN = np.array([0.0, 1.0, 0.0])
TAU = 2 * math.pi


def rad(d):
    return d * math.pi / 180.0


def nrm(v):
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-9 else v


def smooth(x):
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


def ramp(t, a, b):
    return smooth((t - a) / (b - a))


def bump(t, a, b, c, d):
    """0 before a, rises to 1 at b, holds, falls back to 0 by d."""
    return ramp(t, a, b) - ramp(t, c, d)


def yawvecs(deg):
    th = rad(deg)
    return (np.array([math.cos(th), 0.0, math.sin(th)]),
            np.array([-math.sin(th), 0.0, math.cos(th)]))


def wob(t, seed, freq=0.6):
    """smooth pseudo-random wobble in about [-1, 1]"""
    r = np.random.default_rng(seed).uniform(0, TAU, 3)
    return (0.5 * math.sin(TAU * freq * t + r[0]) + 0.3 * math.sin(TAU * freq * 2.13 * t + r[1])
            + 0.2 * math.sin(TAU * freq * 3.7 * t + r[2]))


# ----------------------------------------------------------------------------- poses

BASE = dict(x=0.0, lift=0.0, air=0.0, yaw=0.0, lean=0.0, twist=0.0, head_yaw=0.0,
            head_pitch=0.0, shrug=0.0, breath=0.0,
            aR=6.0, bR=6.0, eR=14.0, wR=40.0, aL=6.0, bL=6.0, eL=14.0, wL=40.0,
            hR=0.0, kR=3.0, hL=0.0, kL=3.0, footR=0.0, footL=0.0,
            grip=(0.10, 0.14, 0.13), spear_yaw=0.0, spear_pitch=82.0, lgrip=0.0,
            cape_amp=6.0, cape_freq=0.8, cape_lift=8.0, cape_side=0.0, glow=0.0)


def P(**kw):
    d = dict(BASE)
    d.update(kw)
    return d


def _lerp(a, b, u):
    if isinstance(a, tuple):
        return tuple(x + (y - x) * u for x, y in zip(a, b, strict=False))
    return a + (b - a) * u


def kf(t, keys):
    """keyframes [(time, {param: value})], each carrying forward the earlier values;
    eased (smoothstep) between keys."""
    full, cur = [], {}
    for tk, d in keys:
        cur = {**cur, **d}
        full.append((tk, cur))
    if t <= full[0][0]:
        return dict(full[0][1])
    for (t0, d0), (t1, d1) in zip(full, full[1:], strict=False):
        if t < t1:
            u = smooth((t - t0) / (t1 - t0))
            return {k: _lerp(d0.get(k, BASE[k]), v, u) for k, v in d1.items()}
    return dict(full[-1][1])


def add(p, d, w=1.0):
    for k, v in d.items():
        p[k] = p[k] + w * v
    return p


def idle_add(t, amp=1.0, ph=0.0, seed=0):
    b = math.sin(TAU * t / 2.4 + ph)
    b2 = 0.5 + 0.5 * math.sin(TAU * t / 2.4 + ph + 1.2)
    sw = math.sin(TAU * t / 3.4 + 1.7 * ph)
    k = 2.0 + 4.0 * b2
    return {k_: v * amp for k_, v in dict(
        shrug=0.012 * b, breath=0.014 * b, head_pitch=2.5 * b + 1.5 * wob(t, seed + 1, 0.3),
        head_yaw=3.0 * wob(t, seed + 2, 0.25), aR=3.5 * b + 2 * wob(t, seed + 3, 0.4),
        aL=3.5 * b + 2 * wob(t, seed + 4, 0.4), eR=4 * b, eL=4 * b, x=0.012 * sw,
        lean=1.5 * sw, kR=k, kL=k, hR=0.5 * k, hL=0.5 * k, twist=2.0 * wob(t, seed + 5, 0.2),
        cape_amp=4.0).items()}


def walk_add(t, period=1.0, amp=1.0, stride=24.0, knee=52.0, arm=0.8, ph=0.0):
    s = TAU * t / period + ph
    sn = math.sin(s)
    kr = 6 + knee * max(0.0, math.cos(s - 0.5)) ** 2
    kl = 6 + knee * max(0.0, math.cos(s - 0.5 + math.pi)) ** 2
    return {k: v * amp for k, v in dict(
        hR=stride * sn, hL=-stride * sn, kR=kr, kL=kl, aR=-arm * stride * sn, aL=arm * stride * sn,
        eR=16 * max(0.0, -sn), eL=16 * max(0.0, sn), twist=5 * sn, lean=4.0,
        head_pitch=1.5 * math.sin(2 * s), cape_amp=14.0, cape_lift=10.0).items()}


def run_add(t, period=0.66, amp=1.0, ph=0.0):
    s = TAU * t / period + ph
    sn = math.sin(s)
    kr = 18 + 92 * max(0.0, math.cos(s - 0.8)) ** 1.5
    kl = 18 + 92 * max(0.0, math.cos(s - 0.8 + math.pi)) ** 1.5
    return {k: v * amp for k, v in dict(
        hR=38 * sn + 8, hL=-38 * sn + 8, kR=kr, kL=kl, aR=10 - 48 * sn, aL=10 + 48 * sn,
        eR=78 + 10 * sn, eL=78 - 10 * sn, wR=-20, wL=-20, twist=7 * sn, lean=14.0,
        lift=0.03 * max(0.0, math.sin(2 * s + 0.4)), head_pitch=-4.0, cape_amp=30.0,
        cape_lift=40.0).items()}


# ----------------------------------------------------------------------------- characters

PROP = dict(head_r=0.088, neck=0.03, torso=0.29, ua=0.16, fa=0.15, hand=0.03, thigh=0.215,
            shin=0.20, foot=0.085, sw=0.19, hw=0.12, cd=0.11, r_arm=0.029, r_fa=0.026,
            r_thigh=0.044, r_shin=0.037, r_foot=0.026, r_neck=0.028)

CHARS = {
    # ponytail swordswoman, cel
    "ayla": dict(style="cel", ol=(40, 28, 30), skin=(242, 203, 172), hair=(150, 58, 38),
                 hairs=["ponytail", "bangs"], shirt=(62, 92, 178), sleeve=(62, 92, 178),
                 fore="skin", pants=(48, 44, 66), boots=(110, 70, 40), belt=(200, 160, 60),
                 tunic=((62, 92, 178), 0.12), weapon="sword", steel=(205, 210, 222),
                 trim=(220, 180, 70), prop={}),
    # hooded rogue with daggers, ink
    "rook": dict(style="ink", ol=(18, 14, 24), skin=(214, 170, 130), hair=(88, 48, 108),
                 hairs=["hood"], shirt=(88, 48, 108), sleeve=(70, 40, 86), fore="sleeve",
                 pants=(40, 36, 48), boots=(60, 40, 35), belt=(150, 110, 60), tunic=None,
                 weapon="dagger", steel=(190, 196, 210), trim=(170, 150, 90),
                 prop=dict(head_r=0.08, sw=0.18)),
    # barbarian with an axe, soft-shaded, bare arms
    "bram": dict(style="soft", ol=None, skin=(204, 142, 100), hair=(30, 24, 22),
                 hairs=["spiky"], shirt=(120, 82, 48), sleeve="skin", fore="skin",
                 pants=(92, 60, 40), boots=(70, 48, 36), belt=(60, 40, 30),
                 tunic=((140, 98, 60), 0.10), weapon="axe", steel=(176, 182, 190),
                 trim=(120, 80, 50),
                 prop=dict(sw=0.23, hw=0.14, r_arm=0.036, r_fa=0.033, r_thigh=0.05,
                           r_shin=0.043, cd=0.14, head_r=0.08)),
    # mage with a feathered hat and staff, cel
    "mira": dict(style="cel", ol=(50, 20, 30), skin=(250, 218, 196), hair=(236, 200, 110),
                 hairs=["hat"], hat=(40, 46, 92), feather=(230, 80, 70), shirt=(170, 38, 62),
                 sleeve=(170, 38, 62), fore="sleeve", pants=(60, 30, 40), boots=(50, 36, 44),
                 belt=(230, 190, 90), tunic=((170, 38, 62), 0.24), weapon="staff",
                 steel=(120, 84, 50), trim=(250, 230, 150), prop=dict(head_r=0.092)),
    # spear knight with a plumed helmet, cel
    "kai": dict(style="cel", ol=(30, 30, 40), skin=(230, 190, 160), hair=(170, 176, 190),
                hairs=["helmet"], plume=(200, 36, 40), shirt=(160, 166, 180),
                sleeve=(140, 146, 162), fore="sleeve", pants=(80, 84, 100),
                boots=(120, 124, 140), belt=(150, 40, 40), tunic=((190, 44, 48), 0.13),
                weapon="spear", steel=(214, 218, 228), trim=(130, 90, 60), prop={}),
    # pixel-art kid with a cap
    "pip": dict(style="pixel", ol=(24, 20, 40), skin=(252, 206, 160), hair=(110, 62, 30),
                hairs=["cap"], cap=(220, 50, 50), shirt=(250, 204, 40), sleeve=(250, 204, 40),
                fore="skin", pants=(50, 80, 170), boots=(90, 50, 30), belt=(50, 80, 170),
                tunic=None, weapon=None, steel=(200, 200, 200), trim=(255, 255, 255),
                prop=dict(head_r=0.11, torso=0.26, thigh=0.19, shin=0.18, ua=0.14, fa=0.13)),
    # front-facing, symmetric healer
    "sera": dict(style="cel", ol=(40, 40, 70), skin=(246, 214, 190), hair=(238, 214, 130),
                 hairs=["bob"], shirt=(236, 238, 246), sleeve=(236, 238, 246), fore="sleeve",
                 pants=(90, 110, 190), boots=(90, 110, 190), belt=(90, 110, 190),
                 tunic=((236, 238, 246), 0.26), weapon=None, steel=(200, 200, 200),
                 trim=(90, 110, 190), prop=dict(head_r=0.095)),
    # olive-clad ranger, short hair with a side fringe, ink outline
    "odo": dict(style="ink", ol=(26, 28, 20), skin=(226, 180, 146), hair=(92, 60, 34),
                hairs=["short", "bangs"], shirt=(104, 112, 54), sleeve=(88, 96, 46), fore="skin",
                pants=(96, 78, 56), boots=(64, 46, 32), belt=(140, 100, 60), tunic=None,
                weapon="dagger", steel=(190, 196, 210), trim=(140, 100, 60), prop={}),
    # knight in a white tabard with a big blue cape, shaded
    "tess": dict(style="soft", ol=None, skin=(236, 196, 168), hair=(70, 40, 30),
                 hairs=["short", "bangs"], shirt=(232, 230, 222), sleeve=(150, 156, 170),
                 fore="sleeve", pants=(70, 76, 96), boots=(100, 104, 120), belt=(180, 140, 60),
                 tunic=((232, 230, 222), 0.15), cape=((40, 70, 170), 0.52), weapon="sword",
                 steel=(214, 218, 228), trim=(210, 170, 70), prop={}),
    # monk with a top-knot, orange gi, dark skin, cel
    "nia": dict(style="cel", ol=(34, 22, 16), skin=(116, 74, 52), hair=(20, 16, 16),
                hairs=["bun"], shirt=(236, 124, 36), sleeve=(236, 124, 36), fore="skin",
                pants=(236, 124, 36), boots=(60, 40, 30), belt=(40, 30, 30), tunic=None,
                weapon=None, steel=(200, 200, 200), trim=(250, 220, 120), prop={}),
    # red-haired swordsman, maroon jacket, ink
    "dren": dict(style="ink", ol=(30, 16, 16), skin=(238, 196, 160), hair=(196, 70, 30),
                 hairs=["spiky", "bangs"], shirt=(120, 30, 44), sleeve=(120, 30, 44),
                 fore="sleeve", pants=(40, 40, 56), boots=(30, 30, 36), belt=(190, 150, 60),
                 tunic=((120, 30, 44), 0.16), weapon="sword", steel=(220, 224, 236),
                 trim=(190, 150, 60), prop={}),
}


def char_props(ch):
    p = dict(PROP)
    p.update(ch.get("prop", {}))
    return p


# ----------------------------------------------------------------------------- skeleton


def skeleton(ch, p, S, base_x, ground, ref_drop):
    pr = char_props(ch)
    F, R = yawvecs(p["yaw"])
    Fs, Rs = yawvecs(p["yaw"] + p["twist"])
    lam = rad(p["lean"])
    T = math.cos(lam) * UP + math.sin(lam) * F
    Ts = math.cos(lam) * UP + math.sin(lam) * Fs
    k = {}
    ORG = np.zeros(3)
    k["F"], k["R"], k["Fs"], k["Rs"], k["T"] = F, R, Fs, Rs, T
    # legs (relative to the pelvis at the origin)
    drop = 0.0
    for side, sg in (("R", 1), ("L", -1)):
        hip = ORG + R * sg * pr["hw"] * S / 2
        h, kn = rad(p["h" + side]), rad(p["k" + side])
        knee = hip + (math.cos(h) * DOWN + math.sin(h) * F) * pr["thigh"] * S
        ankle = knee + (math.cos(h - kn) * DOWN + math.sin(h - kn) * F) * pr["shin"] * S
        phi = (h - kn) * 0.6 + rad(p["foot" + side])
        fdir = math.cos(phi) * F + math.sin(phi) * UP
        toe = ankle + fdir * pr["foot"] * S
        heel = ankle - fdir * 0.025 * S
        k["hip" + side], k["knee" + side], k["ankle" + side] = hip, knee, ankle
        k["toe" + side], k["heel" + side] = toe, heel
        drop = max(drop, ankle[1], toe[1], heel[1])
    drop += pr["r_foot"] * S
    k["drop"] = drop
    use = drop + (ref_drop - drop) * p["air"] if ref_drop is not None else drop
    off = np.array([base_x + p["x"] * S, ground - use - p["lift"] * S, 0.0])
    # torso
    tl = pr["torso"] * S * (1 + p["breath"])
    neck = ORG + T * tl
    k["neck"] = neck
    k["chest"] = neck - Ts * 0.09 * S
    # head
    Fh, Rh = yawvecs(p["yaw"] + p["twist"] + p["head_yaw"])
    pp = rad(p["head_pitch"] + 0.3 * p["lean"])
    Fh2 = math.cos(pp) * Fh + math.sin(pp) * DOWN
    Uh = math.cos(pp) * UP + math.sin(pp) * Fh
    hr = pr["head_r"] * S
    k["head"] = neck + Uh * (pr["neck"] * S + 0.9 * hr)
    k["Fh"], k["Rh"], k["Uh"], k["hr"] = Fh2, Rh, Uh, hr
    # arms
    Dn = -Ts
    for side, sg in (("R", 1), ("L", -1)):
        sh = neck - Ts * 0.055 * S + Rs * sg * pr["sw"] * S / 2 + Ts * p["shrug"] * S
        a, b, e, w = (rad(p[c + side]) for c in "abew")

        def sag(ang, b=b, sg=sg):
            v = math.cos(ang) * Dn + math.sin(ang) * Fs
            return math.cos(b) * v + math.sin(b) * Rs * sg

        elbow = sh + sag(a) * pr["ua"] * S
        hand = elbow + sag(a + e) * pr["fa"] * S
        k["sh" + side], k["elbow" + side], k["hand" + side] = sh, elbow, hand
        k["wdir" + side] = sag(a + e + w)
        k["wperp" + side] = sag(a + e + w + math.pi / 2)
    if ch.get("weapon") == "spear":
        sy, sp = rad(p["spear_yaw"]), rad(p["spear_pitch"])
        d = math.cos(sp) * (math.cos(sy) * F + math.sin(sy) * R) + math.sin(sp) * UP
        g = p["grip"]
        grip = ORG + (F * g[0] + UP * g[1] + R * g[2]) * S
        k["spear_d"], k["spear_c"] = d, grip
        targets = {"R": grip + d * 0.10 * S, "L": grip - d * 0.22 * S}
        wts = {"R": 1.0, "L": p["lgrip"]}
        for side, sg in (("R", 1), ("L", -1)):
            if wts[side] <= 0:
                continue
            tgt = k["hand" + side] + (targets[side] - k["hand" + side]) * wts[side]
            sh = k["sh" + side]
            l1, l2 = pr["ua"] * S, pr["fa"] * S
            dv = tgt - sh
            dist = float(np.linalg.norm(dv))
            u = dv / max(dist, 1e-6)
            dist = min(max(dist, abs(l1 - l2) + 1e-3), (l1 + l2) * 0.999)
            aa = (l1 * l1 - l2 * l2 + dist * dist) / (2 * dist)
            hh = math.sqrt(max(l1 * l1 - aa * aa, 0.0))
            pole = Dn - Fs * 0.4 + Rs * sg * 0.5
            v = nrm(pole - np.dot(pole, u) * u)
            k["elbow" + side] = sh + u * aa + v * hh
            k["hand" + side] = sh + u * dist
    dirs = ("F", "R", "Fs", "Rs", "T", "Fh", "Rh", "Uh", "spear_d")
    for key in list(k.keys()):
        v = k[key]
        if isinstance(v, np.ndarray) and key not in dirs and not key.startswith(("wdir", "wperp")):
            k[key] = v + off
    k["pelvis"] = off.copy()
    k["ground"] = ground
    return k


# ----------------------------------------------------------------------------- primitives

def shade(c, f):
    return tuple(int(max(0, min(255, round(v * f)))) for v in c)


def lighten(c, f):
    return tuple(int(round(v + (255 - v) * f)) for v in c)


class Prims:
    def __init__(self):
        self.items = []  # (depth, order, kind, data, color, outline)
        self.n = 0

    def add(self, depth, kind, data, color, outline=True):
        self.items.append((depth, self.n, kind, data, tuple(int(c) for c in color), outline))
        self.n += 1

    def cap(self, p0, p1, r, color, bias=0.0, outline=True):
        self.add((p0[2] + p1[2]) / 2 + bias, "cap", (p0[:2], p1[:2], r), color, outline)

    def circ(self, p, r, color, bias=0.0, outline=True):
        self.add(p[2] + bias, "circ", (p[:2], r), color, outline)

    def poly(self, pts, color, bias=0.0, outline=True, depth=None):
        pts = np.asarray(pts)
        d = float(pts[:, 2].mean()) + bias if depth is None else depth
        self.add(d, "poly", pts[:, :2], color, outline)

    def hull(self, pts, color, bias=0.0, outline=True, depth=None):
        pts = np.asarray(pts)
        d = float(pts[:, 2].mean()) + bias if depth is None else depth
        h = cv2.convexHull(pts[:, :2].astype(np.float32)).reshape(-1, 2)
        self.add(d, "poly", h.astype(np.float64), color, outline)


def build(ch, k, p, t, S, lagged):
    """all the character's primitives for one skeleton"""
    pr = char_props(ch)
    pm = Prims()
    F, R, Fs, Rs = k["F"], k["R"], k["Fs"], k["Rs"]
    Ts = (k["neck"] - k["pelvis"])
    Ts = Ts / np.linalg.norm(Ts)
    skin = ch["skin"]
    sleeve = skin if ch["sleeve"] == "skin" else ch["sleeve"]
    fore = skin if ch["fore"] == "skin" else sleeve
    P0 = k["pelvis"]
    tdepth = P0[2] - 0.012 * S
    # torso hull
    hw, sw, cd = pr["hw"] * S, pr["sw"] * S, pr["cd"] * S
    pts = []
    for lvl, c, wdt, dep, Rv, Fv in ((0.0, P0, hw * 0.62, cd * 0.45, R, F),
                                     (0.12, None, hw * 0.56, cd * 0.42, R, F),
                                     (0.0, k["chest"], sw * 0.5, cd * 0.55, Rs, Fs),
                                     (0.0, k["neck"] - Ts * 0.02 * S, sw * 0.30, cd * 0.35, Rs,
                                      Fs)):
        if c is None:
            c = P0 + Ts * lvl * S
        for a in (-1, 1):
            for b in (-1, 1):
                pts.append(c + Rv * a * wdt + Fv * b * dep)
    pm.hull(pts, ch["shirt"], depth=tdepth)
    # belt
    bp = []
    for lvl in (0.035, 0.075):
        c = P0 + Ts * lvl * S
        for a in (-1, 1):
            for b in (-1, 1):
                bp.append(c + R * a * hw * 0.62 + F * b * cd * 0.46)
    pm.hull(bp, ch["belt"], depth=tdepth + 0.002 * S, outline=False)
    # neck
    pm.cap(k["neck"] - Ts * 0.02 * S, k["head"] - k["Uh"] * k["hr"] * 0.5, pr["r_neck"] * S, skin,
           bias=-0.02 * S)
    # legs
    leg_depth = -1e9
    for side in ("R", "L"):
        leg_depth = max(leg_depth, (k["hip" + side][2] + k["knee" + side][2]) / 2 - 0.03 * S)
        pm.cap(k["hip" + side], k["knee" + side], pr["r_thigh"] * S, ch["pants"], bias=-0.03 * S)
        pm.cap(k["knee" + side], k["ankle" + side], pr["r_shin"] * S, ch["pants"],
               bias=-0.03 * S + 0.001)
        pm.cap(k["heel" + side], k["toe" + side], pr["r_foot"] * S, ch["boots"],
               bias=-0.03 * S + 0.002)
    # tunic / skirt over the thighs
    if ch.get("tunic"):
        col, ln = ch["tunic"]
        tp = []
        for a in (-1, 1):
            for b in (-1, 1):
                tp.append(P0 + Ts * 0.06 * S + R * a * hw * 0.66 + F * b * cd * 0.5)
        for side in ("R", "L"):
            kk = k["knee" + side] - k["hip" + side]
            f = min(1.0, ln / pr["thigh"])
            c = k["hip" + side] + kk * f
            for b in (-1, 1):
                tp.append(c + F * b * cd * 0.55 + R * (1 if side == "R" else -1) * hw * 0.25)
        pm.hull(tp, col, depth=max(tdepth + 0.004 * S, leg_depth + 0.003 * S))
    # cape
    if ch.get("cape"):
        col, ln = ch["cape"]
        L = ln * S
        shR, shL = k["shR"], k["shL"]
        vel = (k["pelvis"] - lagged[1]["pelvis"]) / 0.08 / S if lagged else np.zeros(3)
        top, mid, bot = [], [], []
        K = 7
        for i in range(K):
            u = i / (K - 1)
            tp = shL + (shR - shL) * u - Fs * 0.03 * S + UP * 0.01 * S
            base = rad(p["cape_lift"]) + rad(p["cape_amp"]) * (
                0.5 + 0.5 * math.sin(TAU * p["cape_freq"] * t - 1.8 * u + 0.7))
            base += rad(p["cape_amp"]) * 0.35 * math.sin(TAU * p["cape_freq"] * 2.3 * t + 3 * u)
            drag = -float(np.dot(vel, F)) * 0.6
            beta = max(-0.3, min(1.45, base + drag))
            spread = (u - 0.5) * 2 * 0.28 * S * (1 + 0.5 * math.sin(beta))
            side = p["cape_side"] * S * math.sin(TAU * p["cape_freq"] * 0.7 * t + u)
            dm = math.cos(beta * 0.5) * DOWN + math.sin(beta * 0.5) * (-Fs)
            db = math.cos(beta) * DOWN + math.sin(beta) * (-Fs)
            bil = (0.04 + 0.002 * p["cape_amp"]) * S * math.sin(math.pi * u) * (
                0.6 + 0.4 * math.sin(TAU * p["cape_freq"] * 1.3 * t + 2.0 * u))
            m = tp + dm * L * 0.5 + Rs * (spread * 0.5 + side * 0.4) - Fs * (0.04 * S + 0.6 * bil)
            b = m + db * L * 0.5 + Rs * (spread * 0.5 + side * 0.6) - Fs * bil
            top.append(tp)
            mid.append(m)
            bot.append(b)
        poly = np.array([top[0], top[-1], mid[-1]] + bot[::-1] + [mid[0]])
        Fz = Fs[2]
        cdepth = tdepth - Fz * 0.2 * S - 0.01 * S
        pm.poly(poly, col, depth=cdepth)
    # arms
    for side in ("R", "L"):
        pm.cap(k["sh" + side], k["elbow" + side], pr["r_arm"] * S, sleeve, bias=0.0)
        pm.cap(k["elbow" + side], k["hand" + side], pr["r_fa"] * S, fore, bias=0.001)
        pm.circ(k["hand" + side], pr["hand"] * S, skin, bias=0.002)
    # weapon
    wpn = ch.get("weapon")
    if wpn in ("sword", "dagger"):
        for side in (("R",) if wpn == "sword" else ("R", "L")):
            h = k["hand" + side]
            d = k["wdir" + side]
            ln = 0.42 if wpn == "sword" else 0.17
            perp = nrm(np.cross(d, k["Rs"])) if abs(np.dot(d, k["Rs"])) < 0.95 else k["Fs"]
            pm.cap(h + d * 0.04 * S, h + d * ln * S, 0.014 * S, ch["steel"], bias=0.004)
            pm.cap(h + d * 0.035 * S - perp * 0.05 * S, h + d * 0.035 * S + perp * 0.05 * S,
                   0.011 * S, ch["trim"], bias=0.005)
            pm.circ(h - d * 0.03 * S, 0.014 * S, ch["trim"], bias=0.003)
    elif wpn == "axe":
        h = k["handR"]
        d = k["wdirR"]
        end = h + d * 0.40 * S
        pm.cap(h - d * 0.08 * S, end + d * 0.03 * S, 0.015 * S, (110, 76, 46), bias=0.004)
        # the edge leads a downward chop: against the direction of a rising arm angle
        perp = -k["wperpR"]
        blade = [end + d * 0.06 * S, end - d * 0.05 * S, end - d * 0.09 * S + perp * 0.13 * S,
                 end + d * 0.10 * S + perp * 0.13 * S, end + d * 0.02 * S - perp * 0.05 * S]
        pm.poly(blade, ch["steel"], depth=float(end[2]) + 0.005)
    elif wpn == "staff":
        h = k["handR"]
        d = k["wdirR"]
        pm.cap(h - d * 0.25 * S, h + d * 0.50 * S, 0.014 * S, ch["steel"], bias=0.004)
        pm.circ(h + d * 0.54 * S, 0.04 * S, (120, 200, 250), bias=0.005)
    elif wpn == "spear":
        c, d = k["spear_c"], k["spear_d"]
        a, b = c - d * 0.45 * S, c + d * 0.62 * S
        pm.cap(a, b, 0.012 * S, (130, 92, 56), bias=0.004)
        perp = nrm(np.cross(d, np.array([0.0, 0.0, 1.0]))) * 0.035 * S
        tip = [b - perp, b + d * 0.13 * S, b + perp]
        pm.poly(tip, ch["steel"], depth=float(b[2]) + 0.005)
    # head
    head_parts(ch, k, pm, t, S, lagged)
    return pm


def head_parts(ch, k, pm, t, S, lagged):
    c, Fh, Rh, Uh, r = k["head"], k["Fh"], k["Rh"], k["Uh"], k["hr"]
    hz = c[2]
    hs = ch["hairs"]
    hair = ch["hair"]
    skin = ch["skin"]
    eps = 0.004 * S
    skull_col = hair
    if "helmet" in hs:
        skull_col = ch["shirt"]
    if "hood" in hs:
        skull_col = ch["hair"]
    skull_r = 1.04 * r if "hood" not in hs else 1.2 * r
    pm.circ(c + Uh * 0.03 * r, skull_r, skull_col)
    face_c = c + Fh * 0.28 * r - Uh * 0.08 * r
    chin_c = c + Fh * 0.30 * r - Uh * 0.45 * r
    fb = hz + Fh[2] * 0.28 * r + eps
    if "hood" in hs:
        face_c = c + Fh * 0.36 * r - Uh * 0.12 * r
        fb = hz + Fh[2] * 0.36 * r + eps
    pm.add(fb, "circ", (face_c[:2], 0.80 * r), skin, True)
    pm.add(fb + 0.5 * eps, "circ", (chin_c[:2], 0.60 * r), skin, False)
    # eyes, nose, mouth
    for sg in (1, -1):
        e = c + Fh * 0.80 * r + Rh * sg * 0.36 * r + Uh * 0.02 * r
        dz = e[2] - fb
        if dz > -0.02 * r:
            pm.add(fb + 2 * eps + dz * 0.01, "circ", (e[:2], 0.11 * r), (30, 24, 30), False)
            pm.add(fb + 2.2 * eps + dz * 0.01, "circ", (e[:2] + np.array([0.03 * r, -0.04 * r]),
                                                        0.04 * r), (250, 250, 250), False)
    nose = [c + Fh * 1.2 * r - Uh * 0.18 * r, c + Fh * 0.86 * r - Uh * 0.25 * r,
            c + Fh * 0.86 * r - Uh * 0.02 * r]
    nz = hz + Fh[2] * 0.9 * r
    pm.poly(nose, shade(skin, 0.93), depth=max(nz, fb + 1.5 * eps) if Fh[2] > -0.25 else nz - r,
            outline=False)
    m0 = c + Fh * 0.86 * r - Uh * 0.45 * r - Rh * 0.16 * r
    m1 = c + Fh * 0.86 * r - Uh * 0.45 * r + Rh * 0.16 * r
    if Fh[2] > -0.2:
        pm.add(fb + 2 * eps, "cap", (m0[:2], m1[:2], 0.035 * r), (120, 50, 50), False)
    # hair styles
    if "bangs" in hs:  # a side fringe over the character's right brow: an asymmetric head
        pts = [c + Uh * 1.02 * r + Fh * 0.2 * r, c + Fh * 0.98 * r + Uh * 0.55 * r + Rh * 0.1 * r,
               c + Fh * 0.88 * r + Uh * 0.12 * r + Rh * 0.55 * r,
               c + Fh * 0.5 * r + Uh * 0.3 * r + Rh * 0.95 * r, c + Uh * 0.8 * r + Rh * 0.7 * r]
        pts = np.array(pts)
        z = float(pts[:, 2].mean())
        pm.poly(pts, hair, depth=z + 3 * eps if z > hz - 0.2 * r else z - 2 * r)
    if "ponytail" in hs or "bun" in hs:
        anchor = c - Fh * 0.82 * r + Uh * 0.42 * r
        if "bun" in hs:
            b = c - Fh * 0.7 * r + Uh * 0.85 * r
            pm.circ(b, 0.42 * r, hair, bias=-0.3 * r * 0 - eps)
            pm.cap(b, b - Fh * 0.55 * r + Uh * 0.15 * r, 0.18 * r, ch["trim"], bias=-2 * eps)
        else:
            pts = [anchor]
            for i in range(1, 6):
                if lagged and i < len(lagged):
                    a0 = lagged[i - 1]["head"]
                    a1 = lagged[i]["head"]
                    vel = (a0 - a1) / 0.05 / S
                else:
                    vel = np.zeros(3)
                base = -Fh * 0.4 + DOWN * 1.0
                sway = (math.sin(TAU * 1.1 * t - 0.7 * i) * 0.18 * Rh
                        + math.sin(TAU * 0.9 * t - 0.6 * i + 1) * 0.12 * Fh)
                dv = nrm(base - vel * 0.45 + sway)
                pts.append(pts[-1] + dv * 0.06 * S * (1.0 if i > 1 else 0.7))
            for i in range(len(pts) - 1):
                rr = (0.30 - 0.035 * i) * r
                pm.cap(pts[i], pts[i + 1], rr, hair, bias=-eps * 2)
            pm.circ(anchor, 0.2 * r, ch["trim"], bias=-eps)
    if "spiky" in hs:
        for i, (fa, ua, ln) in enumerate(((-0.9, 0.3, 0.55), (-0.55, 0.8, 0.6), (0.0, 1.0, 0.5),
                                          (0.5, 0.85, 0.42), (-0.95, -0.25, 0.45))):
            dirv = nrm(Fh * fa + Uh * ua - Fh * 0.3)
            base = c + dirv * 0.8 * r
            side = nrm(np.cross(dirv, np.array([0.0, 0.0, 1.0]))) * 0.28 * r
            tip = base + dirv * ln * r - Fh * 0.15 * r
            pts = np.array([base - side, tip, base + side])
            pm.poly(pts, hair, depth=hz - 0.2 * r + eps * i * 0.1)
    if "short" in hs:
        pm.circ(c + Uh * 0.1 * r - Fh * 0.12 * r, 1.0 * r, hair, bias=-0.6 * r)
    if "bob" in hs:  # symmetric: side locks on both sides, a straight fringe
        for sg in (1, -1):
            a = c + Rh * sg * 0.85 * r + Uh * 0.2 * r - Fh * 0.1 * r
            pm.cap(a, a - Uh * 0.95 * r, 0.3 * r, hair, bias=-0.05 * r)
        fr = [c + Fh * 0.9 * r + Uh * 0.62 * r + Rh * sg * 0.75 * r for sg in (1, -1)]
        fr += [c + Fh * 0.78 * r + Uh * 0.25 * r + Rh * sg * 0.62 * r for sg in (-1, 1)]
        fz = float(np.array(fr)[:, 2].mean())
        pm.poly(fr, hair, depth=fz + 3 * eps if Fh[2] > -0.2 else fz - 2 * r)
    if "hood" in hs:
        tip = c - Fh * 1.7 * r - Uh * 0.9 * r
        pts = [c + Uh * 1.15 * r - Fh * 0.2 * r, c - Fh * 1.1 * r + Uh * 0.5 * r, tip,
               c - Fh * 0.6 * r - Uh * 1.0 * r]
        pm.poly(pts, ch["hair"], depth=hz - 0.5 * r)
        rim = [c + Uh * 1.12 * r + Fh * 0.3 * r, c + Fh * 0.95 * r + Uh * 0.75 * r,
               c + Fh * 0.55 * r + Uh * 0.95 * r]
        rz = float(np.array(rim)[:, 2].mean())
        pm.poly(rim, shade(ch["hair"], 0.7), depth=rz + 3 * eps if Fh[2] > -0.3 else rz - 2 * r)
    if "helmet" in hs:
        visor = [c + Fh * 1.0 * r + Uh * 0.45 * r, c + Fh * 1.02 * r + Uh * 0.1 * r,
                 c + Fh * 0.2 * r + Uh * 0.2 * r, c + Fh * 0.1 * r + Uh * 0.9 * r]
        vz = float(np.array(visor)[:, 2].mean())
        pm.poly(visor, shade(ch["shirt"], 0.8), depth=vz + 3 * eps if Fh[2] > -0.3 else vz - 2 * r)
        # plume: a crest from the brow over the crown, falling behind
        pts = []
        for i in range(7):
            a = rad(-10 + 30 * i)
            pts.append(c + (math.cos(a) * Uh - math.sin(a) * Fh) * 1.18 * r
                       - Fh * (0.0 if i < 4 else 0.25 * (i - 3)) * r)
        for i in range(len(pts) - 1):
            sway = math.sin(TAU * 1.3 * t - i * 0.6) * 0.08 * r * i
            pm.cap(pts[i], pts[i + 1] + Rh * sway * 0.3 - Fh * sway, (0.24 - 0.02 * i) * r,
                   ch["plume"], bias=2 * eps)
    if "hat" in hs:
        brim = []
        bc = c + Uh * 0.62 * r
        for i in range(12):
            a = TAU * i / 12
            brim.append(bc + (math.cos(a) * Fh + math.sin(a) * Rh) * 1.65 * r
                        + Uh * (0.08 * r * math.cos(a)))
        brim = np.array(brim)
        pm.hull(brim, ch["hat"], depth=hz + 10 * eps)
        crown = [bc + Fh * 0.8 * r, bc - Fh * 0.8 * r, bc + Rh * 0.8 * r, bc - Rh * 0.8 * r,
                 bc + Uh * 1.1 * r - Fh * 0.15 * r, bc + Uh * 1.7 * r - Fh * 0.7 * r]
        pm.hull(crown, ch["hat"], depth=hz + 10.2 * eps)
        band = [bc + Fh * 0.82 * r + Uh * 0.05 * r, bc - Fh * 0.82 * r + Uh * 0.05 * r,
                bc + Fh * 0.75 * r + Uh * 0.28 * r, bc - Fh * 0.75 * r + Uh * 0.28 * r]
        pm.hull(band, ch["trim"], depth=hz + 10.4 * eps, outline=False)
        # feather on the hat's right side, sweeping back and up
        f0 = bc + Rh * 0.75 * r + Uh * 0.2 * r
        pts = [f0]
        for i in range(1, 5):
            a = rad(25 + 18 * i + 6 * math.sin(TAU * 1.2 * t - i))
            pts.append(pts[-1] + (-math.cos(a) * Fh + math.sin(a) * Uh) * 0.32 * r)
        for i in range(4):
            pm.cap(pts[i], pts[i + 1], (0.18 - 0.03 * i) * r, ch["feather"], 0.03 * r)
    if "cap" in hs:
        dome = []
        for lvl, rad_ in ((0.28, 1.06), (0.75, 0.8), (1.02, 0.45)):
            for i in range(10):
                a = TAU * i / 10
                dome.append(c + Uh * lvl * r + (math.cos(a) * Fh + math.sin(a) * Rh) * rad_ * r
                            - Fh * 0.05 * r)
        pm.hull(dome, ch["cap"], depth=hz + 10 * eps)
        b0 = c + Uh * 0.32 * r + Fh * 0.6 * r
        pm.cap(b0, b0 + Fh * 0.75 * r - Uh * 0.08 * r, 0.13 * r, shade(ch["cap"], 0.8),
               bias=10.5 * eps)


# ----------------------------------------------------------------------------- raster

STYLE_OL = {"cel": 1.5, "ink": 2.4, "soft": 0.0, "pixel": 1.0}


def rasterize(ch, pm, H, W, cam, SS=3):
    """draw primitives (depth sorted) -> premultiplied rgb, alpha (full frame float32)"""
    style = ch["style"]
    pixel = 3 if style == "pixel" else 1
    olw = STYLE_OL[style]
    olc = ch["ol"] or (0, 0, 0)
    s, cx, cy, px, py = cam

    def tr(xy):
        xy = np.asarray(xy, np.float64)
        return np.stack([cx + s * (xy[..., 0] - cx) + px, cy + s * (xy[..., 1] - cy) + py], -1)

    items = sorted(pm.items, key=lambda it: (it[0], it[1]))
    # bounding box
    allp, rmax = [], 0.0
    for it in items:
        if it[2] == "cap":
            allp += [it[3][0], it[3][1]]
            rmax = max(rmax, it[3][2])
        elif it[2] == "circ":
            allp.append(it[3][0])
            rmax = max(rmax, it[3][1])
        else:
            allp += list(it[3])
    allp = tr(np.array(allp))
    pad = rmax * s + olw * pixel + 4
    x0 = int(math.floor(allp[:, 0].min() - pad))
    y0 = int(math.floor(allp[:, 1].min() - pad))
    x1 = int(math.ceil(allp[:, 0].max() + pad))
    y1 = int(math.ceil(allp[:, 1].max() + pad))
    x0, y0 = max(0, x0) // pixel * pixel, max(0, y0) // pixel * pixel
    x1, y1 = min(W, x1), min(H, y1)
    w = (x1 - x0 + pixel - 1) // pixel * pixel
    h = (y1 - y0 + pixel - 1) // pixel * pixel
    prem = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    if w <= 0 or h <= 0:
        return prem, alpha
    k = SS if pixel == 1 else 1.0 / pixel
    ch_w, ch_h = int(round(w * k)), int(round(h * k))
    col = np.zeros((ch_h, ch_w, 3), np.uint8)
    msk = np.zeros((ch_h, ch_w), np.uint8)
    SH = 3
    fs = float(1 << SH)
    ol = olw * (SS if pixel == 1 else 1.0)
    lt = cv2.LINE_8

    def cv(xy):
        xy = tr(xy)
        return np.round(((xy - np.array([x0, y0])) * k) * fs).astype(np.int32)

    def disk(img, c, r, color):
        cv2.circle(img, tuple(int(v) for v in c), int(round(r * fs)), color, -1, lt, SH)

    def capsule(img, a, b, r, color):
        disk(img, a, r, color)
        disk(img, b, r, color)
        d = (b - a).astype(np.float64)
        n = float(np.hypot(*d))
        if n > 0.5:
            nv = np.array([-d[1], d[0]]) / n * r * fs
            q = np.array([a + nv, b + nv, b - nv, a - nv]).round().astype(np.int32)
            cv2.fillConvexPoly(img, q, color, lt, SH)

    soft = style == "soft"
    for _depth, _, kind, data, color, outline in items:
        use_ol = outline and ol > 0
        if kind == "cap":
            a, b = cv(data[0]), cv(data[1])
            r = data[2] * s * k
            if use_ol:
                capsule(col, a, b, r + ol, olc)
            capsule(msk, a, b, r + (ol if use_ol else 0), 255)
            if soft and r > 2:
                capsule(col, a, b, r, shade(color, 0.78))
                off = np.array([-0.22 * r, -0.25 * r]) * fs
                capsule(col, (a + off).astype(np.int32), (b + off).astype(np.int32), r * 0.72,
                        color)
            else:
                capsule(col, a, b, r, color)
        elif kind == "circ":
            c = cv(data[0])
            r = data[1] * s * k
            if use_ol:
                disk(col, c, r + ol, olc)
            disk(msk, c, r + (ol if use_ol else 0), 255)
            if soft and r > 2:
                disk(col, c, r, shade(color, 0.8))
                hc = (c + np.array([-0.2 * r, -0.22 * r]) * fs).astype(np.int32)
                disk(col, hc, r * 0.75, color)
            else:
                disk(col, c, r, color)
        else:
            q = cv(np.asarray(data))
            if use_ol:
                cv2.polylines(col, [q], True, olc, max(1, int(round(2 * ol))), lt, SH)
                cv2.polylines(msk, [q], True, 255, max(1, int(round(2 * ol))), lt, SH)
            cv2.fillPoly(msk, [q], 255, lt, SH)
            if soft:
                cv2.fillPoly(col, [q], shade(color, 0.8), lt, SH)
                cen = q.mean(0)
                sh = np.array([-0.04, -0.05]) * (q.max(0) - q.min(0))
                q2 = (cen + (q - cen) * 0.82 + sh).astype(np.int32)
                cv2.fillPoly(col, [q2], color, lt, SH)
            else:
                cv2.fillPoly(col, [q], color, lt, SH)
    m = msk.astype(np.float32) * (1.0 / 255.0)
    pc = col.astype(np.float32) * m[..., None]
    if pixel == 1:
        pc = cv2.resize(pc, (w, h), interpolation=cv2.INTER_AREA)
        m = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    else:
        pc = cv2.resize(pc, (w, h), interpolation=cv2.INTER_NEAREST)
        m = cv2.resize(m, (w, h), interpolation=cv2.INTER_NEAREST)
    hh, ww = min(h, H - y0), min(w, W - x0)
    prem[y0:y0 + hh, x0:x0 + ww] = pc[:hh, :ww]
    alpha[y0:y0 + hh, x0:x0 + ww] = m[:hh, :ww]
    return prem, alpha


# ----------------------------------------------------------------------------- scene


class Scene:
    def __init__(self, spec):
        self.spec = spec
        self.ch = CHARS[spec["char"]]
        self.W, self.H = spec["size"]
        self.S = spec["S"]
        self.x0 = spec["x0"]
        self.ground = spec["ground"]
        rest = P()
        self.ref_drop = skeleton(self.ch, rest, self.S, 0, 0, None)["drop"]

    def skel(self, t):
        p = self.spec["pose"](t)
        return p, skeleton(self.ch, p, self.S, self.x0, self.ground, self.ref_drop)

    def cam(self, t):
        f = self.spec.get("camera")
        if f is None:
            return (1.0, self.W / 2, self.H / 2, 0.0, 0.0)
        s, px, py = f(t)
        return (s, self.W / 2, self.H / 2, px, py)

    def render(self, t, sparks=True):
        p, k = self.skel(t)
        lagged = [k] + [self.skel(t - 0.05 * i)[1] for i in range(1, 6)]
        lag2 = [k, self.skel(t - 0.08)[1]]
        pm = build(self.ch, k, p, t, self.S, lagged if "ponytail" in self.ch["hairs"] else lag2)
        if sparks and self.spec.get("glow") and p["glow"] > 0.25:
            self.add_sparks(pm, k, p, t)
        prem, a = rasterize(self.ch, pm, self.H, self.W, self.cam(t))
        return prem, a, p, k

    def add_sparks(self, pm, k, p, t):
        rng = np.random.default_rng(7)
        orb = k["handR"] + k["wdirR"] * 0.54 * self.S
        for _ in range(14):
            ph = rng.uniform(0, TAU)
            sp = rng.uniform(1.0, 2.2)
            rr = rng.uniform(0.08, 0.26) * self.S * (0.6 + 0.4 * p["glow"])
            a = ph + sp * TAU * t * 0.5
            pos = orb + np.array([math.cos(a) * rr, math.sin(a) * rr * 0.8, 1.0])
            pm.add(1e6, "circ", (pos[:2], 0.012 * self.S), (255, 246, 200), False)


def glow_layer(prem, a, level, S, color):
    """soft, semi-transparent aura around the character (kept in the truth)"""
    if level <= 0.01:
        return prem, a
    r = max(1, int(0.035 * S))
    dil = cv2.dilate(a, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    g = cv2.GaussianBlur(dil, (0, 0), 0.07 * S)
    g = np.clip(g * 1.5, 0, 1) * (0.62 * level)
    g[g < 0.02] = 0
    col = np.array(color, np.float32)
    a2 = a + g * (1 - a)
    p2 = prem + col * (g * (1 - a))[..., None]
    return p2, a2


def make_backdrop(H, W, rng, bgp, margin=0):
    Hh, Ww = H + 2 * margin, W + 2 * margin
    yy, xx = np.mgrid[0:Hh, 0:Ww].astype(np.float32)
    yy = yy / Hh - 0.5
    xx = xx / Ww - 0.5
    g = 1 + bgp["gy"] * yy + bgp["gx"] * xx - bgp["vig"] * (xx ** 2 + yy ** 2) * 2
    field = GREEN[None, None, :] * g[..., None]
    tex = rng.standard_normal((Hh // 24 + 3, Ww // 24 + 3, 3)).astype(np.float32)
    tex = cv2.resize(tex, (Ww, Hh), interpolation=cv2.INTER_CUBIC) * bgp["tex"]
    tex[..., 1] *= 1.6
    field = field + tex
    return field.astype(np.float32)


def rgb_to_yuv420(rgb):
    f = rgb.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255.0
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255.0
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255.0
    H, W = Y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))

    y = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    v = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([y, u.reshape(H // 4, W), v.reshape(H // 4, W)], 0)


def to_straight(prem, a):
    out = np.zeros(prem.shape[:2] + (4,), np.uint8)
    m = a > 1e-4
    st = np.zeros_like(prem)
    st[m] = prem[m] / a[m][:, None]
    out[..., :3] = np.clip(np.round(st), 0, 255).astype(np.uint8)
    out[..., 3] = np.clip(np.round(a * 255), 0, 255).astype(np.uint8)
    out[out[..., 3] == 0] = 0
    return out


def make_case(name, spec, out_root):
    t_start = time.time()
    sc = Scene(spec)
    W, H = sc.W, sc.H
    fps = spec["fps"]
    rng = np.random.default_rng(spec["seed"])
    if spec.get("vfr"):
        times, pts_ms = spec["vfr"]
    else:
        times = [i / fps for i in range(spec["n"])]
        pts_ms = None
    N = len(times)
    bgp = spec.get("bg", {})
    bgp = {**dict(gy=-0.05, gx=0.03, vig=0.06, tex=1.4, grain=1.6, drift=0.025), **bgp}
    margin = 60 if spec.get("camera") else 0
    field = make_backdrop(H, W, rng, bgp, margin)
    still_grain = rng.standard_normal((H, W, 3)).astype(np.float32) * bgp["grain"]
    dpha = rng.uniform(0, TAU, 3)
    shutter, nsub = spec.get("shutter", 0.0), spec.get("nsub", 1)
    ghost = spec.get("ghost", 0.0)
    bars = spec.get("letterbox", 0)
    d = out_root / name
    d.mkdir(parents=True, exist_ok=True)
    truth = np.zeros((N, H, W, 4), np.uint8)
    cont = av.open(str(d / "clip.mp4"), "w")
    st = cont.add_stream("libx264", rate=fps)
    st.width, st.height, st.pix_fmt = W, H, "yuv420p"
    st.options = {"crf": str(spec.get("crf", 20)), "threads": "1", "x264-params": "mbtree=0",
                  "preset": "medium"}
    cc = st.codec_context
    cc.color_range = 1
    cc.colorspace = 6
    cc.color_primaries = 6
    cc.color_trc = 6
    if pts_ms is not None:
        cc.time_base = Fraction(1, 1000)
        st.time_base = Fraction(1, 1000)
    prev = None
    portrait = None
    edge_touch = []
    still_cache = None
    for i, t in enumerate(times):
        tt = 0.0 if spec.get("still") else t
        if spec.get("still") and still_cache is not None:
            prem, a, p, k = still_cache
        else:
            if nsub > 1 and shutter > 0:
                acc_p, acc_a = 0, 0
                for j in range(nsub):
                    ts = tt + (j / (nsub - 1) - 0.5) * shutter / fps
                    pr_, a_, p, k = sc.render(ts)
                    acc_p = acc_p + pr_
                    acc_a = acc_a + a_
                prem, a = acc_p / nsub, acc_a / nsub
                p, k = sc.skel(tt)
            else:
                prem, a, p, k = sc.render(tt)
            if spec.get("glow"):
                prem, a = glow_layer(prem, a, p["glow"], sc.S, spec["glow"])
            if spec.get("still"):
                still_cache = (prem, a, p, k)
        if i == 0:
            p0, k0 = sc.skel(0.0)
            pm = build(sc.ch, k0, p0, 0.0, sc.S, [k0] + [k0] * 5)
            portrait = to_straight(*rasterize(sc.ch, pm, H, W, sc.cam(0.0)))
        cur = (prem, a)
        if ghost > 0 and prev is not None:
            prem = (1 - ghost) * cur[0] + ghost * prev[0]
            a = (1 - ghost) * cur[1] + ghost * prev[1]
        prev = cur
        truth[i] = to_straight(prem, a)
        # backdrop
        s_, cx, cy, px, py = sc.cam(tt)
        if margin:
            M = np.array([[s_, 0, cx - s_ * cx + px],
                          [0, s_, cy - s_ * cy + py]], np.float32)
            # field pixel (u, v) sits at world (u - margin, v - margin)
            M[0, 2] -= s_ * margin
            M[1, 2] -= s_ * margin
            bg = cv2.warpAffine(field, M, (W, H), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
        else:
            bg = field.copy()
        drift = 1 + bgp["drift"] * math.sin(TAU * tt / 3.7 + dpha[0])
        tint = np.array([1 + 0.01 * math.sin(TAU * tt / 2.9 + dpha[1]), 1.0,
                         1 + 0.02 * math.sin(TAU * tt / 3.3 + dpha[2])], np.float32)
        bg = bg * (drift * tint)[None, None, :]
        # contact shadow on the backdrop
        lift = max(0.0, k["ground"] - (k["pelvis"][1] + k["drop"]))
        sx = 0.24 * sc.S * s_
        sy = 0.035 * sc.S * s_
        gx = cx + s_ * (k["pelvis"][0] - cx) + px
        gy = cy + s_ * (k["ground"] - cy) + py
        strength = 0.3 * max(0.0, 1 - lift / (0.5 * sc.S))
        if strength > 0:
            xa, xb = int(max(0, gx - 3 * sx)), int(min(W, gx + 3 * sx))
            ya, yb = int(max(0, gy - 3 * sy)), int(min(H, gy + 3 * sy))
            if xb > xa and yb > ya:
                yy, xx = np.mgrid[ya:yb, xa:xb].astype(np.float32)
                sh = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2))
                bg[ya:yb, xa:xb] *= (1 - strength * sh)[..., None]
        # composite, spill and light wrap (the truth stays unspilled)
        comp = prem + bg * (1 - a)[..., None]
        inv = cv2.GaussianBlur(1 - a, (0, 0), 1.3)
        wrap = (a * inv * 0.45 + a * 0.04)[..., None]
        bgb = cv2.GaussianBlur(bg, (0, 0), 2.0)
        comp = comp * (1 - wrap) + bgb * wrap
        if spec.get("still"):
            comp = comp + still_grain
        else:
            comp = comp + rng.standard_normal((H, W, 3)).astype(np.float32) * bgp["grain"]
        if bars:
            comp[:bars] = 0
            comp[H - bars:] = 0
        rgb = np.clip(np.round(comp), 0, 255).astype(np.uint8)
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        if pts_ms is not None:
            fr.pts = pts_ms[i]
            fr.time_base = Fraction(1, 1000)
        else:
            fr.pts = i
        for pk in st.encode(fr):
            cont.mux(pk)
        # edge contact of the truth (for the report, not a flag)
        al = truth[i, ..., 3] > 64
        top, bot = bars, H - bars - 1
        edge_touch.append(max(al[top].mean(), al[bot].mean(), al[top:bot + 1, 0].mean(),
                              al[top:bot + 1, -1].mean()))
        if os.environ.get("T17_DEBUG") and i % int(os.environ.get("T17_DEBUG")) == 0:
            dbg = Path("/tmp/t17dbg") / name
            dbg.mkdir(parents=True, exist_ok=True)
            Image.fromarray(rgb).save(dbg / f"{i:03d}.png")
    for pk in st.encode():
        cont.mux(pk)
    cont.close()
    np.savez_compressed(d / "truth.npz", rgba=truth)
    ys, xs = np.nonzero(portrait[..., 3])
    m = 12
    crop = portrait[max(0, ys.min() - m):ys.max() + m + 1, max(0, xs.min() - m):xs.max() + m + 1]
    Image.fromarray(crop, "RGBA").save(d / "portrait.png")
    et = np.array(edge_touch)
    info = dict(action=spec["action"], notes=spec["notes"], expect_flags=spec["expect"])
    (d / "case.json").write_text(json.dumps(info, indent=2) + "\n")
    return (f"{name:28s} {W}x{H} {fps:>2}fps N={N:3d} "
            f"edge>1%: {int((et > 0.01).sum()):3d} frames (max {et.max():.3f})  "
            f"{time.time() - t_start:5.1f}s")


# ----------------------------------------------------------------------------- cases

CASES = {}


def case(name, **kw):
    CASES[name] = kw


def sq(W, H, s_frac=0.58, g=0.88, xf=0.5):
    return dict(size=(W, H), S=s_frac * H, ground=g * H, x0=xf * W)


# --- true positives -----------------------------------------------------------

def _walk_turn(t):
    amp = ramp(t, 0.0, 0.35)
    p = P(wR=35)
    yaw = 180.0 * ramp(t, 1.55, 2.1)
    add(p, walk_add(t, 1.0, amp))
    add(p, idle_add(t, 0.4, seed=11))
    p["yaw"] = yaw
    p["x"] += 0.05 * (min(t, 1.8) - max(0.0, t - 1.8))
    return p


case("walk_turn", action="walk", fps=24, n=90, char="ayla", seed=101, **sq(512, 512, 0.58),
     pose=_walk_turn, expect=["FACING"],
     notes="TRUE POSITIVE FACING. Ponytail swordswoman walks on the spot facing right, turns "
           "round over 1.55-2.1 s (yaw 0->180, the walk cycle continues through the turn) and "
           "keeps walking facing left until 3.75 s (44% of the clip turned).")


def _run_turn(t):
    amp = ramp(t, 0.0, 0.3)
    p = P()
    add(p, run_add(t, 0.66, amp))
    p["yaw"] = 180.0 * ramp(t, 2.475, 2.775)
    p["x"] += 0.04 * math.sin(TAU * t / 3.0)
    return p


case("run_turn70", action="run", fps=24, n=90, char="rook", seed=102, **sq(768, 432, 0.6, 0.87),
     pose=_run_turn, expect=["FACING"],
     notes="TRUE POSITIVE FACING. Hooded rogue runs on the spot facing right; at 70% of the "
           "clip (2.475-2.775 s) turns round and runs facing left to the end (frames 67-89, "
           "about 0.97 s, 26% of the clip).")


def _idle_turn(t):
    p = P(aR=12, eR=70, wR=95, aL=8)
    add(p, idle_add(t, 1.0, seed=13))
    g = ramp(t, 1.0, 1.6)
    p["yaw"] = 180.0 * g
    # a shuffle of the feet while turning
    sh = bump(t, 1.0, 1.2, 1.4, 1.65)
    p["hR"] += 14 * sh
    p["kR"] += 25 * sh
    p["hL"] -= 6 * sh
    return p


case("idle_turn", action="idle", fps=24, n=73, char="mira", seed=103, **sq(448, 448, 0.56),
     pose=_idle_turn, expect=["FACING"],
     notes="TRUE POSITIVE FACING. Mage with a feathered hat idles facing right, turns to face "
           "left over 1.0-1.6 s with a shuffle of the feet and idles facing left to 3.04 s "
           "(47% of the clip turned).")


def _walk(t, seed=0, period=1.0, stride=24.0, drift=0.04):
    amp = ramp(t, 0.0, 0.35)
    p = P()
    add(p, walk_add(t, period, amp, stride=stride))
    add(p, idle_add(t, 0.3, seed=seed))
    p["x"] += drift * t
    return p


case("walk_ghost30", action="walk", fps=24, n=73, char="nia", seed=104, **sq(640, 640, 0.55),
     pose=lambda t: _walk(t, 14), ghost=0.30, expect=["SMEAR"],
     notes="TRUE POSITIVE SMEAR. Monk walks on the spot; every frame carries 30% of the "
           "previous frame (ghosting). Truth is the same 70/30 blend of the two frames' RGBA.")


def _attack_slash(t):
    keys = [(0.0, dict(aR=8, bR=6, eR=20, wR=45, aL=8, eL=14, twist=0, lean=0, hR=0, hL=0,
                       kR=3, kL=3)),
            (0.25, {}),
            (0.50, dict(aR=155, eR=35, wR=50, twist=-25, lean=-6, hR=18, hL=-14, kR=15, kL=15,
                        aL=40, eL=60)),
            (0.62, dict(aR=45, eR=5, wR=10, twist=22, lean=16, hR=24, hL=-18, kR=28, kL=10,
                        aL=-20, eL=20)),
            (0.78, dict(aR=-15, eR=10, wR=20, twist=28, lean=18)),
            (1.05, dict(aR=70, eR=60, wR=60, twist=0, lean=4, aL=20, eL=40)),
            (1.30, dict(aR=100, bR=55, eR=20, wR=0, twist=-35, lean=0)),
            (1.42, dict(aR=80, bR=-20, eR=5, wR=0, twist=35, lean=10)),
            (1.60, dict(aR=60, bR=-30, twist=40)),
            (2.10, dict(aR=8, bR=6, eR=20, wR=45, aL=8, eL=14, twist=0, lean=0, hR=0, hL=0,
                        kR=3, kL=3))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.6, seed=15))
    return p


case("attack_ghost35", action="attack", fps=24, n=73, char="dren", seed=105,
     **sq(512, 512, 0.52, 0.86, 0.45), pose=_attack_slash, ghost=0.35, expect=["SMEAR"],
     notes="TRUE POSITIVE SMEAR. Swordsman: a downward slash (0.5-0.78 s), a horizontal slash "
           "(1.3-1.6 s), recovery and idle; every frame carries 35% of the previous one.")


def _walk_crop(t):
    p = _walk(t, 16, drift=0.0)
    p["x"] += 0.13 * max(0.0, t - 0.15)
    return p


case("walk_cropped", action="walk", fps=24, n=73, char="dren", seed=106,
     **sq(768, 432, 0.62, 0.87, 0.84), pose=_walk_crop, expect=["CROPPED"],
     notes="TRUE POSITIVE CROPPED. Swordsman placed near the right edge walks right and out: "
           "his front foot/sword touch the right edge from about 0.5 s, and by the end about "
           "half of him is past it.")


def _still(t):
    return P()


case("idle_still", action="idle", fps=24, n=73, char="pip", seed=107, **sq(512, 512, 0.55),
     pose=_still, still=True, expect=["STATIC"],
     notes="TRUE POSITIVE STATIC. The portrait on green, the same image every frame (grain "
           "frozen too): the model returned a still.")

# --- negative controls ---------------------------------------------------------


def _overhead(t):
    keys = [(0.0, dict(aR=10, eR=20, wR=12, aL=8, eL=14, bL=6, lean=0, hR=0, hL=0, kR=3, kL=3,
                       head_pitch=0)),
            (0.35, {}),
            (0.95, dict(aR=172, eR=28, wR=25, aL=165, eL=40, bL=10, lean=-9, hR=14, hL=-10,
                        kR=10, kL=10, head_pitch=-8)),
            (2.0, dict(aR=168, eR=30, wR=28, aL=162, eL=42, lean=-11)),
            (2.18, dict(aR=62, eR=4, wR=20, aL=55, eL=10, lean=24, hR=26, hL=-16, kR=30, kL=12,
                        head_pitch=10)),
            (2.32, dict(aR=32, eR=4, wR=32, aL=28, eL=8, lean=28)),
            (2.70, {}),
            (3.30, dict(aR=10, eR=20, wR=12, aL=8, eL=14, bL=6, lean=0, hR=0, hL=0, kR=3, kL=3,
                        head_pitch=0))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.7, seed=17))
    hold = bump(t, 0.95, 1.05, 1.9, 2.0)
    p["aR"] += 2.0 * hold * math.sin(TAU * 7 * t)
    p["aL"] += 2.0 * hold * math.sin(TAU * 7 * t + 1)
    return p


case("attack_overhead_hold", action="attack", fps=24, n=90, char="bram", seed=108,
     **sq(432, 768, 0.37, 0.86, 0.40), pose=_overhead, expect=[],
     notes="NEGATIVE (FACING, STATIC, SMEAR). Barbarian raises his axe over his head "
           "(0.35-0.95 s), holds it there trembling until 2.0 s, chops down (2.0-2.3 s), "
           "holds low, recovers. Never turns.")


def _spin(t):
    keys = [(0.0, dict(aR=8, bR=6, eR=20, wR=45, aL=8, bL=6, eL=14, twist=0, lean=0, hR=0,
                       hL=0, kR=3, kL=3, yaw=0)),
            (0.4, {}),
            (0.85, dict(aR=60, bR=45, eR=10, wR=10, aL=40, bL=50, eL=20, twist=-35, lean=6,
                        hR=22, hL=-14, kR=30, kL=20)),
            (1.0, dict(aR=85, bR=80, eR=4, wR=0, aL=85, bL=80, eL=5, twist=-10)),
            (1.3, dict(aR=85, bR=80, twist=10)),
            (1.6, dict(aR=70, bR=20, eR=10, wR=15, aL=30, bL=30, eL=30, twist=20, lean=10)),
            (2.2, dict(aR=8, bR=6, eR=20, wR=45, aL=8, bL=6, eL=14, twist=0, lean=0, hR=0,
                       hL=0, kR=3, kL=3))]
    p = P(cape_amp=10)
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.5, seed=19))
    p["head_yaw"] -= 0.8 * p["twist"]
    u = ramp(t, 1.0, 1.3)
    p["yaw"] = 360.0 * u
    p["lift"] += 0.04 * bump(t, 0.95, 1.1, 1.2, 1.35)
    spinning = bump(t, 0.95, 1.05, 1.3, 1.6)
    p["cape_lift"] += 60 * spinning
    p["cape_side"] = 0.25 * spinning
    return p


case("attack_spin", action="attack", fps=24, n=73, char="tess", seed=109, **sq(640, 640, 0.46),
     pose=_spin, expect=[],
     notes="NEGATIVE (FACING). Caped knight winds up and spins a full 360 degrees with her "
           "sword held out (1.0-1.3 s, ~7 frames), back to her original facing, then recovers.")


def _jump(t):
    keys = [(0.0, dict(hR=0, hL=0, kR=3, kL=3, lean=0, aR=6, aL=6, eR=14, eL=14, bR=6, bL=6,
                       head_pitch=0)),
            (0.30, {}),
            (0.62, dict(hR=62, hL=62, kR=112, kL=112, lean=32, aR=-40, aL=-40, eR=20, eL=20,
                        head_pitch=-25)),
            (0.78, dict(hR=5, hL=5, kR=6, kL=6, lean=2, aR=165, aL=165, eR=10, eL=10,
                        head_pitch=-5)),
            (0.98, dict(hR=112, hL=112, kR=140, kL=140, lean=28, aR=40, aL=40, eR=100, eL=100,
                        head_pitch=-10)),
            (1.22, {}),
            (1.45, dict(hR=20, hL=20, kR=20, kL=20, lean=5, aR=60, aL=60, bR=40, bL=40, eR=20,
                        eL=20, head_pitch=0)),
            (1.70, dict(hR=55, hL=55, kR=95, kL=95, lean=22, aR=30, aL=30, bR=20, bL=20)),
            (2.25, dict(hR=0, hL=0, kR=3, kL=3, lean=0, aR=6, aL=6, eR=14, eL=14, bR=6, bL=6))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.5, seed=21))
    u = (t - 0.74) / 0.84
    p["lift"] = 0.55 * 4 * u * (1 - u) if 0 < u < 1 else 0.0
    p["air"] = bump(t, 0.70, 0.76, 1.52, 1.60)
    return p


case("skill_jump_tuck", action="skill", fps=16, n=48, char="nia", seed=110,
     **sq(512, 512, 0.46, 0.9), pose=_jump, expect=[],
     notes="NEGATIVE (FACING, CROPPED). Monk crouches, leaps (0.74-1.58 s, apex 0.55 of her "
           "height), tucks her knees to her chest in the air, lands in a crouch and rises. "
           "16 fps, 3 s.")


def _crouch(t):
    keys = [(0.0, dict(hR=0, hL=0, kR=3, kL=3, lean=0, aR=8, aL=8, eR=20, eL=20, wR=60, wL=60,
                       head_pitch=0, bR=6, bL=6)),
            (0.5, {}),
            (1.0, dict(hR=96, hL=80, kR=128, kL=120, lean=34, aR=55, eR=45, aL=28, eL=30,
                       head_pitch=-22)),
            (1.8, dict(hR=92, hL=78, kR=124, kL=118)),
            (2.3, dict(hR=-2, hL=-2, kR=2, kL=2, lean=-4, aR=25, aL=25, bR=25, bL=25, eR=10,
                       eL=10, head_pitch=-6)),
            (2.75, dict(hR=0, hL=0, kR=3, kL=3, lean=0, aR=8, aL=8, eR=20, eL=20, head_pitch=0,
                        bR=6, bL=6))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.7, seed=23))
    return p


case("skill_crouch_rise", action="skill", fps=24, n=73, char="rook", seed=111,
     **sq(448, 448, 0.58), pose=_crouch, expect=[],
     notes="NEGATIVE (FACING, STATIC). Rogue sinks into a deep crouch (0.5-1.0 s), holds it "
           "breathing until 1.8 s, rises with a stretch (to 2.3 s) and settles.")


def _lookback(t):
    p = P(wR=50)
    add(p, idle_add(t, 1.0, seed=25))
    g = bump(t, 1.2, 1.36, 1.66, 1.82)
    p["twist"] += 35 * g
    p["head_yaw"] += 112 * g
    p["head_pitch"] -= 5 * g
    return p


case("idle_lookback", action="idle", fps=24, n=73, char="dren", seed=112, **sq(640, 640, 0.56),
     pose=_lookback, expect=[],
     notes="NEGATIVE (FACING). Swordsman idles facing right and glances back over his right "
           "shoulder (shoulders twist 35, head 112 more: 1.2-1.82 s, held 0.3 s), then faces "
           "forward again.")


def _cape(t):
    p = P(cape_amp=70, cape_freq=2.6, cape_lift=18, cape_side=0.10, wR=40)
    add(p, idle_add(t, 1.0, seed=27))
    p["cape_amp"] += 20 * wob(t, 31, 0.5)
    p["cape_lift"] += 15 * wob(t, 32, 0.4)
    return p


case("idle_cape_wild", action="idle", fps=24, n=73, char="tess", seed=113,
     **sq(512, 512, 0.55, 0.88, 0.54), pose=_cape, expect=[],
     notes="NEGATIVE (FACING, SMEAR). Knight idles while her long cape whips wildly in a gusty "
           "wind behind her (flaps at 2.6 Hz, 20-110 degrees up).")


def _hurt(t):
    keys = [(0.0, dict(x=0, lean=0, head_pitch=0, aR=10, eR=20, wR=12, aL=8, bL=6, eL=14, bR=6,
                       hR=0, hL=0, kR=3, kL=3, air=0, lift=0)),
            (0.30, {}),
            (0.45, dict(x=-0.45, lean=-34, head_pitch=-30, aR=65, bR=30, eR=25, aL=85, bL=40,
                        eL=20, hR=20, hL=8, kR=30, kL=20, air=1, lift=0.08)),
            (0.75, dict(x=-0.9, lean=-20, head_pitch=-15, hR=26, hL=-30, kR=20, kL=35, lift=0.0)),
            (0.82, dict(air=0)),
            (1.10, dict(x=-0.95, lean=26, head_pitch=22, aL=30, eL=75, bL=10, aR=20, eR=30, bR=10,
                        hR=30, hL=-10, kR=40, kL=30)),
            (1.50, dict(lean=22, head_pitch=18)),
            (2.20, dict(x=-0.8, lean=0, head_pitch=0, aR=10, eR=20, wR=12, aL=8, bL=6, eL=14,
                        bR=6, hR=0, hL=0, kR=3, kL=3))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.8, seed=29))
    p["shrug"] += 0.01 * bump(t, 1.1, 1.2, 1.5, 1.7) * math.sin(TAU * 2.5 * t)
    return p


case("hurt_knockback", action="hurt", fps=24, n=73, char="bram", seed=114,
     **sq(768, 432, 0.58, 0.87, 0.62), pose=_hurt, expect=[],
     notes="NEGATIVE (FACING, SMEAR). Barbarian is struck from the front at 0.3 s: thrown back "
           "(leans back 34, head snaps back, a hop of 0.9 of his height to the left), lands "
           "staggering, doubles over clutching his belly, recovers upright. Always faces right.")


def _skill(t):
    keys = [(0.0, dict(aR=14, eR=70, wR=96, aL=8, eL=14, bL=6, lean=0, head_pitch=0, glow=0)),
            (0.4, {}),
            (0.95, dict(aR=118, eR=18, wR=10, aL=100, eL=12, bL=12, lean=-6, head_pitch=-10)),
            (1.9, dict(aR=112, eR=22, aL=96, lean=-7)),
            (2.15, dict(aR=92, eR=0, wR=0, aL=88, eL=0, lean=12, head_pitch=0)),
            (2.6, {}),
            (3.0, dict(aR=14, eR=70, wR=96, aL=8, eL=14, bL=6, lean=0, head_pitch=0))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.6, seed=33))
    lvl = ramp(t, 0.5, 1.15) * (1 - ramp(t, 2.35, 2.85))
    lvl *= 0.85 + 0.15 * math.sin(TAU * 3 * t)
    lvl += 0.35 * math.exp(-((t - 2.18) / 0.08) ** 2)
    p["glow"] = min(1.0, lvl)
    return p


case("skill_glow", action="skill", fps=24, n=73, char="mira", seed=115,
     **sq(512, 512, 0.45, 0.86, 0.36), pose=_skill, glow=(255, 214, 110), expect=[],
     notes="NEGATIVE (NOISE, FACING, CROPPED). Mage raises her staff and hand and a golden "
           "semi-transparent aura (up to 62% alpha, fading over ~0.2 of her height) with "
           "orbiting sparks builds around her (0.5-2.35 s), flashes as she thrusts forward "
           "(2.18 s) and fades. The aura is part of the truth.")

case("walk_motionblur", action="walk", fps=24, n=73, char="odo", seed=116,
     **sq(640, 640, 0.55, 0.88, 0.42), pose=lambda t: _walk(t, 35, period=0.8, stride=32,
                                                           drift=0.12),
     shutter=1.3, nsub=17, expect=[],
     notes="NEGATIVE (SMEAR). Olive-clad ranger in a brisk long-striding walk (0.8 s period), "
           "drifting right, shot with a 1.3-frame centred shutter: limbs are motion-blurred "
           "(feet ~30 px). Truth is the shutter-averaged RGBA. Blur, not ghosting.")


def _front(t):
    p = P(yaw=90.0, aR=4, aL=4, bR=12, bL=12, eR=10, eL=10)
    add(p, idle_add(t, 1.0, seed=37))
    p["twist"] *= 0.3
    return p


case("idle_front", action="idle", fps=16, n=48, char="sera", seed=117, **sq(448, 448, 0.6),
     pose=_front, expect=[],
     notes="NEGATIVE (FACING, STATIC). Front-facing healer with a symmetric bob: breathes, "
           "sways and bobs her head; 16 fps, 3 s.")


def _spear(t):
    keys = [(0.0, dict(spear_yaw=0, spear_pitch=82, grip=(0.10, 0.14, 0.13), lgrip=0, twist=0,
                       head_yaw=0, hR=0, hL=0, kR=3, kL=3, lean=0)),
            (0.35, {}),
            (0.70, dict(spear_pitch=4, grip=(0.20, 0.30, 0.05), lgrip=1, hR=16, hL=-12, kR=16,
                        kL=14, lean=6)),
            (0.90, {}),
            (1.25, dict(spear_yaw=200, spear_pitch=-8, grip=(0.02, 0.30, 0.14), twist=48,
                        head_yaw=-34, lean=2)),
            (1.55, dict(spear_yaw=196)),
            (1.80, dict(spear_yaw=0, spear_pitch=6, grip=(0.18, 0.30, 0.04), twist=-12,
                        head_yaw=8, lean=8)),
            (1.95, dict(grip=(0.36, 0.28, 0.02), hR=26, hL=-20, kR=24, kL=8, lean=16, twist=-18)),
            (2.30, {}),
            (2.90, dict(spear_yaw=0, spear_pitch=82, grip=(0.10, 0.14, 0.13), lgrip=0, twist=0,
                        head_yaw=0, hR=0, hL=0, kR=3, kL=3, lean=0))]
    p = P()
    p.update(kf(t, keys))
    add(p, idle_add(t, 0.6, seed=39))
    return p


case("attack_spear_sweep", action="attack", fps=24, n=73, char="kai", seed=118,
     **sq(768, 432, 0.6, 0.88, 0.5), pose=_spear, expect=[],
     notes="NEGATIVE (FACING). Spear knight lowers his spear (two hands), sweeps it round "
           "across the front of his body to point behind him (0.9-1.25 s, chest twisted 48, "
           "head kept forward), holds, sweeps it back and thrusts (1.55-1.95 s), recovers.")

case("walk_letterbox", action="walk", fps=24, n=73, char="ayla", seed=119,
     size=(640, 640), S=0.6 * 480, ground=80 + 0.88 * 480, x0=300, letterbox=80,
     pose=lambda t: _walk(t, 41), expect=[],
     notes="NEGATIVE (NOISE, CROPPED). Walk on green inside black letterbox bars (80 px top "
           "and bottom of a 640x640 frame): the bars should be cut, not flagged.")


def _vfr_times(seed, dur=3.3, fps=24):
    rng = np.random.default_rng(seed)
    n0 = int(round(dur * fps))
    times = [0.0]
    for i in range(1, n0):
        if i < n0 - 1 and rng.random() < 0.12:
            continue
        times.append((i + rng.uniform(-0.35, 0.35)) / fps)
    pts = [int(round(x * 1000)) for x in times]
    return times, pts


case("walk_vfr", action="walk", fps=24, vfr=_vfr_times(120), char="pip", seed=120,
     **sq(512, 512, 0.55), pose=lambda t: _walk(t, 43, period=0.9), expect=[],
     notes="NEGATIVE (TRUNCATED and all). Pixel-art kid walks on the spot; a variable-frame-rate "
           "file: timestamps jittered +-35% of a frame about 24 fps, ~12% of frames dropped, "
           "3.3 s. Truth has one entry per stored frame, in stored order.")

case("walk_camera_drift", action="walk", fps=24, n=90, char="kai", seed=121,
     **sq(768, 432, 0.56, 0.86, 0.5), pose=lambda t: _walk(t, 45),
     camera=lambda t: (1.0 + 0.08 * ramp(t, 0.0, 3.75), -28.0 * ramp(t, 0.0, 3.75),
                       8.0 * ramp(t, 0.0, 3.75)),
     expect=[],
     notes="NEGATIVE (FACING, SMEAR, STATIC). Spear knight walks on the spot while the camera "
           "slowly pans (28 px) and zooms in 8% over 3.75 s; the green's texture moves with it.")

# ----------------------------------------------------------------------------- main


def _run(args):
    name, out = args
    return make_case(name, CASES[name], Path(out))


def main(argv):
    names = argv or list(CASES)
    bad = [n for n in names if n not in CASES]
    if bad:
        print("unknown case(s):", ", ".join(bad), "; known:", ", ".join(CASES))
        return 2
    out = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parent / "_out" / "trial17"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    jobs = [(n, str(out)) for n in names]
    if len(jobs) > 1 and os.environ.get("T17_PROCS", "2") != "1":
        import multiprocessing as mp
        with mp.get_context("fork").Pool(int(os.environ.get("T17_PROCS", "2"))) as pool:
            for line in pool.imap(_run, jobs):
                print(line, flush=True)
    else:
        for j in jobs:
            print(_run(j), flush=True)
    print(f"{len(jobs)} cases in {time.time() - t0:.1f}s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
