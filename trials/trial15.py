#!/usr/bin/env python
"""Trial 15: procedural characters on a video-model green screen, with exact truth.

    .venv/bin/python trials/trial15.py [NAME ...]     # 16 cases into trials/_out/trial15/

TRIAL_OUT=DIR puts the case folders elsewhere; NAME arguments render only the cases whose
names contain one of them. Deterministic: fixed seeds, one x264 thread, RGB->yuv420p done
here in numpy (BT.601 limited range), x264 with mbtree=0 (its SIMD macroblock-tree pass
was not reproducible run to run here; see Encoder).

World model (written without reading the pipeline's fixtures):
  * the character is drawn procedurally (capsule/polygon limbs on a 2D skeleton, articulated
    idle/walk/run/attack/skill/hurt timelines) on a supersampled id map, coloured per part
    (flat, two-tone cel, smooth emboss shading, noise texture, ink outline), box-filtered
    down: antialiased coverage;
  * motion blur: several sub-frame poses inside a ~180 degree shutter, averaged in
    premultiplied RGBA; the truth is that average (alpha = time-averaged coverage);
  * video-model artefacts that ARE part of what a perfect matte returns (they are in the
    truth): soft rendering, ghost double exposure of earlier frames, stylised afterimages,
    semi-transparent magic glows and particles, hurt flash tints;
  * artefacts that are NOT the character (not in the truth): backdrop gradient, vignette,
    blotches, floor horizon, flicker, sensor noise, contact shadow on the floor, light wrap
    (backdrop light bleeding 15-35 % into the opaque edge, fading inward over 2-6 px),
    a faint global green spill, chroma subsampling and H.264 compression.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from multiprocessing import Pool
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT") or HERE / "_out" / "trial15")

INK = 1
NOSHADE = {"ink", "eye", "glint", "mouth"}


# ----------------------------------------------------------------------------- design

@dataclass
class Design:
    kind: str = "human"            # human | slime
    view: str = "side"             # side | front
    facing: int = 1
    Hc: float = 340.0              # character height in px
    ax: float = 256.0              # pelvis x at rest
    ground: float = 470.0          # floor line y
    S: int = 3                     # supersampling factor
    head_r: float = 0.085
    leg_scale: float = 1.0
    bulk: float = 1.0
    colours: dict = field(default_factory=dict)
    hair: str = "short"            # short | spiky | long | bald | none
    strands: int = 0
    strand_len: float = 0.3
    strand_w: float = 1.2          # px at the root
    tails: bool = False            # headband tails
    cape: bool = False
    robe: float = 0.0              # robe/dress length below the waist, in Hc
    helmet: bool = False
    hat: bool = False
    ears: bool = False
    mask: bool = False             # cloth mask over the lower face
    weapon: str | None = None      # sword | axe | spear | staff | dagger | katana_back
    ink: float = 0.0               # outline width in px
    ink_rgb: tuple = (28, 24, 30)
    shade: str = "none"            # none | cel | smooth
    tex: dict = field(default_factory=dict)   # colour name -> texture amplitude
    grad: float = 0.0              # darkening toward the feet (smooth style)
    soft: float = 0.0              # render softness sigma (px), in truth too


class Palette:
    def __init__(self, d: Design):
        self.index = {"ink": INK}
        rgb = np.zeros((256, 3), np.float32)
        tex = np.zeros(256, np.float32)
        shadeable = np.zeros(256, bool)
        rgb[INK] = np.array(d.ink_rgb, np.float32) / 255
        for i, (name, c) in enumerate(sorted(d.colours.items()), start=2):
            self.index[name] = i
            rgb[i] = np.array(c, np.float32) / 255
            far = 0.76 if d.shade == "none" else 0.84
            rgb[i + 100] = rgb[i] * far
            for j in (i, i + 100):
                tex[j] = d.tex.get(name, 0.0)
                shadeable[j] = name not in NOSHADE
        self.rgb, self.tex, self.shadeable = rgb, tex, shadeable

    def __call__(self, name: str, far: bool = False) -> int:
        i = self.index[name]
        return i + 100 if far and i != INK else i


# ----------------------------------------------------------------------------- raster

_ANG = np.linspace(0, 2 * np.pi, 28, endpoint=False)
_CS = np.stack([np.cos(_ANG), np.sin(_ANG)], 1)


def hull_points(circles):
    c = np.asarray(circles, np.float64)
    return (c[:, None, :2] + c[:, None, 2:3] * _CS[None]).reshape(-1, 2)


class Prim:
    """A drawing primitive in output-pixel coordinates."""
    __slots__ = ("kind", "geo", "pid", "ink", "extra")

    def __init__(self, kind, geo, pid, ink=True, extra=None):
        self.kind, self.geo, self.pid, self.ink, self.extra = kind, geo, pid, ink, extra

    def bounds(self, inkw):
        if self.kind == "hull":
            c = np.asarray(self.geo)
            r = c[:, 2:3] + inkw
            return np.concatenate([c[:, :2] - r, c[:, :2] + r])
        pts = np.asarray(self.geo, np.float64).reshape(-1, 2)
        w = inkw + (max(self.extra) if self.kind == "strand" else 0) + 1
        return np.concatenate([pts - w, pts + w])


class Raster:
    def __init__(self, x0, y0, w, h, S, want_h):
        self.x0, self.y0, self.S = x0, y0, S
        self.ids = np.zeros((h * S, w * S), np.uint8)
        self.hgt = np.zeros((h * S, w * S), np.uint8) if want_h else None

    def P(self, pts):
        p = (np.asarray(pts, np.float64).reshape(-1, 2) - (self.x0, self.y0)) * self.S - 0.5
        return np.round(p * 16).astype(np.int32)

    def _hull(self, img, circles, val, grow=0.0, scale=1.0):
        c = np.array(circles, np.float64)
        c[:, 2] = c[:, 2] * scale + grow
        h = cv2.convexHull(self.P(hull_points(c)))
        cv2.fillConvexPoly(img, h, int(val), cv2.LINE_8, 4)

    def draw(self, pr: Prim, inkw: float):
        S, ids, hg = self.S, self.ids, self.hgt
        ink = inkw > 0 and pr.ink
        if pr.kind == "hull":
            if ink:
                self._hull(ids, pr.geo, INK, grow=inkw)
                if hg is not None:
                    self._hull(hg, pr.geo, 40, grow=inkw)
            self._hull(ids, pr.geo, pr.pid)
            if hg is not None:
                for k in range(1, 9):
                    rf = 1 - k / 9
                    self._hull(hg, pr.geo, 40 + 200 * math.sqrt(1 - rf * rf), scale=rf + 0.06)
        elif pr.kind == "poly":
            p = self.P(pr.geo)
            cv2.fillPoly(ids, [p], int(pr.pid), cv2.LINE_8, 4)
            if hg is not None:
                cv2.fillPoly(hg, [p], 110, cv2.LINE_8, 4)
            if ink:
                t = max(1, int(round(2 * inkw * S)))
                cv2.polylines(ids, [p], True, INK, t, cv2.LINE_8, 4)
                if hg is not None:
                    cv2.polylines(hg, [p], True, 40, t, cv2.LINE_8, 4)
        elif pr.kind == "strand":
            p = self.P(pr.geo)
            for i in range(len(p) - 1):
                t = max(1, int(round(pr.extra[i] * S)))
                cv2.line(ids, tuple(p[i]), tuple(p[i + 1]), int(pr.pid), t, cv2.LINE_8, 4)
                if hg is not None:
                    cv2.line(hg, tuple(p[i]), tuple(p[i + 1]), 150, t, cv2.LINE_8, 4)


# ----------------------------------------------------------------------------- poses

REST = dict(x=0.0, bob=0.0, lean=0.03, head=0.0, shf=0.12, elf=0.2, shb=-0.1, elb=0.25,
            hipf=0.07, knf=0.05, hipb=-0.07, knb=0.05, ftf=0.0, ftb=0.0, wpn=0.0, air=0.0,
            wind=0.05, flash=0.0, orb=0.0, burst=0.0, glow=0.0, trail=0.0, ghost=0.0,
            sq=0.0, shake=0.0)


def lerp_pose(a, b, w):
    return {k: a[k] + (b[k] - a[k]) * w for k in a}


def smooth(u):
    u = min(max(u, 0.0), 1.0)
    return u * u * (3 - 2 * u)


def ease(u, kind):
    u = min(max(u, 0.0), 1.0)
    if kind == "in":
        return u ** 2.2
    if kind == "out":
        return 1 - (1 - u) ** 2.2
    if kind == "lin":
        return u
    return smooth(u)


def keyframes(keys, u, base):
    """keys: [(time, overrides, ease)], poses inherit the previous key's values."""
    poses, cur = [], dict(base)
    for tk, ov, ek in keys:
        cur = dict(cur)
        cur.update(ov)
        poses.append((tk, cur, ek))
    if u <= poses[0][0]:
        return dict(poses[0][1])
    for (t0, p0, _), (t1, p1, ek) in zip(poses, poses[1:]):
        if u <= t1:
            return lerp_pose(p0, p1, ease((u - t0) / (t1 - t0), ek))
    return dict(poses[-1][1])


def rest_pose(d: Design):
    p = dict(REST)
    if d.view == "front":
        p.update(shf=0.16, shb=0.16, elf=0.12, elb=0.12, hipf=0.05, hipb=0.05, lean=0.0)
    if d.weapon in ("sword", "axe", "dagger"):
        p.update(shf=0.3, elf=0.85, wpn=1.0 if d.weapon != "dagger" else 1.4)
    if d.weapon == "spear":
        p.update(shf=0.55, elf=1.0, wpn=math.pi / 2 + 0.12, shb=0.3, elb=0.9)
    if d.weapon == "staff":
        p.update(shf=0.45, elf=-0.3, wpn=math.pi - 0.05)
    return p


def breathe(p, t, period=2.2, amp=1.0):
    b = math.sin(2 * math.pi * t / period)
    p = dict(p)
    p["bob"] += 0.007 * amp * b
    p["lean"] += 0.012 * amp * b
    p["shf"] += 0.04 * amp * b
    p["shb"] -= 0.03 * amp * b
    p["head"] += 0.03 * amp * math.sin(2 * math.pi * t / period - 0.8)
    return p


def walk_pose(d, t, period, amp=1.0):
    ph = 2 * math.pi * t / period
    s, c = math.sin(ph), math.cos(ph)
    p = dict(rest_pose(d))
    p.update(hipf=0.46 * amp * s, hipb=-0.46 * amp * s,
             knf=0.08 + 0.75 * max(0.0, c) ** 1.6, knb=0.08 + 0.75 * max(0.0, -c) ** 1.6,
             ftf=0.15 * max(0, -s), ftb=0.15 * max(0, s),
             lean=0.07, head=-0.03 + 0.02 * math.sin(2 * ph), wind=0.35)
    if d.weapon is None or d.weapon == "katana_back":
        p.update(shf=-0.38 * amp * s, shb=0.38 * amp * s,
                 elf=0.3 + 0.2 * max(0, -s), elb=0.3 + 0.2 * max(0, s))
    else:
        p["shb"] = 0.38 * amp * s
    p["bob"] = -0.006 * math.cos(2 * ph)
    return p


def run_pose(d, t, period):
    ph = 2 * math.pi * t / period
    s, c = math.sin(ph), math.cos(ph)
    p = dict(rest_pose(d))
    p.update(hipf=0.18 + 0.78 * s, hipb=0.18 - 0.78 * s,
             knf=0.25 + 1.55 * max(0.0, c) ** 1.3, knb=0.25 + 1.55 * max(0.0, -c) ** 1.3,
             ftf=0.3 * max(0, -s), ftb=0.3 * max(0, s),
             lean=0.26, head=-0.18, shf=-0.8 * s, shb=0.8 * s,
             elf=1.35 + 0.25 * s, elb=1.35 - 0.25 * s, wind=1.0,
             air=0.035 * max(0.0, math.sin(2 * ph - 0.6)))
    return p


def human_timeline(case, d):
    """pose(t) for the case's action."""
    act = case.action
    rest = rest_pose(d)
    per = case.period

    def blend_in(t, p, dur=0.35):
        return lerp_pose(rest, p, smooth(t / dur))

    if act == "idle":
        def f(t):
            p = breathe(rest, t, per, 1.4)
            p["x"] += 0.006 * math.sin(2 * math.pi * t / (2 * per))
            p["hipf"] += 0.02 * math.sin(2 * math.pi * t / (2 * per))
            p["wind"] = 0.25
            return p
        return f
    if act == "walk":
        return lambda t: blend_in(t, walk_pose(d, t, per))
    if act == "run":
        def f(t):
            p = blend_in(t, run_pose(d, t, per))
            p["x"] += case.travel * t / case.seconds
            return p
        return f
    if act == "attack":
        D = case.attack_dur
        if d.weapon == "spear":
            keys = [(0.0, {}, "io"),
                    (0.35, dict(x=-0.04, shf=0.2, elf=1.45, lean=-0.08, knf=0.3, knb=0.25,
                                hipb=-0.2), "io"),
                    (0.45, dict(x=0.08, shf=1.5, elf=0.03, lean=0.3, hipf=0.55, knf=0.35,
                                hipb=-0.45, knb=0.2, wpn=math.pi / 2 + 0.02), "in"),
                    (0.65, dict(x=0.085, shf=1.48), "io"),
                    (1.0, dict(rest), "io")]
        else:
            keys = [(0.0, {}, "io"),
                    (0.30, dict(shf=3.35, elf=0.45, wpn=2.3, lean=-0.12, x=-0.02, knf=0.25,
                                knb=0.2, head=-0.1), "io"),
                    (0.43, dict(shf=1.2, elf=0.1, wpn=0.3, lean=0.34, x=0.06, hipf=0.55,
                                knf=0.45, hipb=-0.35, knb=0.25, head=0.1, shb=-0.5),
                     "in"),
                    (0.60, dict(shf=0.95, elf=0.15, wpn=0.2, lean=0.3), "out"),
                    (1.0, dict(rest), "io")]

        def f(t):
            p = breathe(rest, t, 2.0, 0.6)
            for t0 in case.attack_at:
                if t0 <= t:
                    u = (t - t0) / D
                    if u < 1.0:
                        q = keyframes([(k * 1.0, ov, e) for k, ov, e in keys], u, rest)
                        p = q
            p["wind"] = 0.3 + 0.5 * (p["lean"] > 0.2)
            return p
        return f
    if act == "skill" and d.view == "front":
        keys = [(0.0, {}, "io"),
                (0.4, {}, "io"),
                (1.0, dict(shf=2.25, elf=-0.2, wpn=math.pi, shb=1.25, elb=0.3, knf=0.25,
                           knb=0.25, hipf=0.09, hipb=0.09), "io"),
                (1.8, dict(orb=1.0, shb=1.4), "io"),
                (2.0, dict(shf=0.85, elf=0.05, wpn=math.pi - 0.3, orb=0.0, burst=0.0,
                           knf=0.5, knb=0.5, shb=0.6), "in"),
                (2.5, dict(burst=1.0, knf=0.3, knb=0.3), "out"),
                (3.0, dict(rest), "io")]

        def f(t):
            p = breathe(keyframes(keys, t, rest), t, 2.0, 0.5)
            p["orb"] = smooth((t - 1.0) / 0.8) if t < 1.95 else 0.0
            p["burst"] = (t - 1.95) / 0.6 if 1.95 <= t < 2.55 else 0.0
            p["wind"] = 0.2 + 0.8 * p["burst"] * (1 - p["burst"]) * 4
            return p
        return f
    if act == "skill":   # dash punch with afterimages
        guard = dict(shf=0.95, elf=1.75, shb=1.15, elb=1.8, lean=0.1, knf=0.2, knb=0.2,
                     hipf=0.25, hipb=-0.2)
        keys = [(0.0, {}, "io"),
                (0.3, guard, "io"),
                (0.7, dict(knf=0.75, knb=0.7, lean=0.3, x=-0.04, shf=0.6, elf=1.9,
                           hipf=0.55, hipb=-0.35), "io"),
                (0.86, dict(x=0.36, shf=1.56, elf=0.02, shb=0.2, elb=1.6, lean=0.36,
                            hipf=0.75, knf=0.25, hipb=-0.6, knb=0.35), "io"),
                (1.3, dict(x=0.37), "io"),
                (1.9, dict(guard, x=0.05), "io"),
                (2.5, dict(guard, x=0.0), "io")]

        def f(t):
            p = breathe(keyframes(keys, t, rest), t, 1.6, 0.5)
            p["trail"] = 1.0 if 0.7 <= t < 1.05 else 0.0
            p["glow"] = smooth((t - 0.78) / 0.1) * (1 - smooth((t - 1.25) / 0.3))
            p["air"] = 0.05 * math.sin(math.pi * min(max((t - 1.3) / 0.6, 0), 1))
            p["wind"] = 0.3 + 0.9 * p["trail"]
            return p
        return f
    if act == "hurt":
        t0 = case.hit_at
        keys = [(0.0, {}, "io"),
                (0.12, dict(lean=-0.45, head=-0.5, shf=1.05, elf=0.75, shb=0.85, elb=0.9,
                            knf=0.5, knb=0.6, hipf=0.35, hipb=-0.15, x=-0.08, wpn=0.4),
                 "out"),
                (0.55, dict(lean=-0.3, head=-0.25, x=-0.1, shf=0.7, shb=0.4), "io"),
                (1.15, dict(rest, x=-0.1), "io")]

        def f(t):
            p = breathe(rest, t, 2.0, 0.8)
            if t >= t0:
                p = breathe(keyframes(keys, t - t0, rest), t, 2.0, 0.8)
                u = t - t0
                p["shake"] = 0.014 * math.exp(-u / 0.15) * math.sin(u * 70) if u < 0.6 else 0
                p["x"] += p["shake"]
                p["flash"] = 0.55 * (1 - smooth((u - 0.05) / 0.15)) if u < 0.2 else 0.0
            p["wind"] = 0.3
            return p
        return f
    raise ValueError(act)


# ----------------------------------------------------------------------------- skeleton

def dirv(a, s):
    return np.array([s * math.sin(a), math.cos(a)])


def ik2(root, target, l1, l2, s, bend=1):
    v = target - root
    dist = max(min(np.hypot(*v), l1 + l2 - 1e-3), abs(l1 - l2) + 1e-3)
    a = math.atan2(v[1], v[0])
    cosb = (l1 * l1 + dist * dist - l2 * l2) / (2 * l1 * dist)
    b = math.acos(max(-1.0, min(1.0, cosb)))
    ang = a + bend * s * b
    elbow = root + l1 * np.array([math.cos(ang), math.sin(ang)])
    return elbow, root + v / np.hypot(*v) * dist


def build_human(d: Design, p: dict, t: float, pal: Palette):
    """Primitives (back to front) plus key points, for pose p at time t."""
    Hc, s = d.Hc, d.facing
    side = d.view == "side"
    bk = d.bulk
    ls = d.leg_scale
    th, sh, ft = 0.225 * ls * Hc, 0.215 * ls * Hc, 0.085 * Hc
    tor, neck, hr = 0.27 * Hc, 0.035 * Hc, d.head_r * Hc
    ua, fa = 0.15 * Hc * (0.95 if ls < 1 else 1), 0.14 * Hc
    footr = 0.032 * Hc * bk
    J = {}
    P = np.array([d.ax + p["x"] * Hc, 0.0])
    legs = {}
    for k in "fb":
        ss = s if side else (1 if k == "f" else -1)
        off = np.array([(0.012 * s if k == "f" else -0.012 * s) * Hc if side
                        else (0.048 if k == "f" else -0.048) * Hc, 0.0])
        hip = P + off
        a, kn = p["hip" + k], p["kn" + k]
        if side:
            knee = hip + th * dirv(a, ss)
            a2 = a - kn
            ankle = knee + sh * dirv(a2, ss)
            toe = ankle + ft * dirv(a2 + math.pi / 2 - p["ft" + k], ss)
        else:
            c = math.cos(0.5 * kn)
            knee = hip + th * c * dirv(a, ss)
            a2 = a - 0.1 * kn
            ankle = knee + sh * c * dirv(a2, ss)
            toe = ankle + np.array([ss * 0.025 * Hc, 0.008 * Hc])
        legs[k] = (ss, hip, knee, ankle, toe)
    low = max(max(v[3][1], v[4][1]) for v in legs.values()) + footr
    dy = d.ground - low - p["air"] * Hc
    P = P + (0, dy)
    legs = {k: (v[0],) + tuple(x + (0, dy) for x in v[1:]) for k, v in legs.items()}
    lean = p["lean"]
    sl = s if side else 1
    u = np.array([sl * math.sin(lean), -math.cos(lean)])
    v = np.array([-u[1], u[0]]) * (s if side else 1)   # forward (side) / right (front)
    N = P + tor * u + (0, p["bob"] * Hc)
    hd_dir = np.array([sl * math.sin(lean + p["head"]), -math.cos(lean + p["head"])])
    Hd = N + (neck + hr * 0.92) * hd_dir
    arms = {}
    for k in "fb":
        if side:
            ss = s
            Sh = N - u * 0.03 * Hc + v * (0.004 if k == "f" else -0.022) * Hc
            a = p["sh" + k] + lean
        else:
            ss = 1 if k == "f" else -1
            Sh = N - u * 0.035 * Hc + np.array([ss * 0.1 * Hc, 0])
            a = p["sh" + k]
        el = Sh + ua * dirv(a, ss)
        hand = el + fa * dirv(a + p["el" + k], ss)
        arms[k] = [ss, Sh, el, hand, a + p["el" + k]]
    # weapon direction
    wdir = None
    if d.weapon in ("sword", "axe", "dagger"):
        wa = arms["f"][4] + p["wpn"]
        wdir = dirv(wa, arms["f"][0])
    elif d.weapon == "spear":
        wdir = dirv(p["wpn"] - (lean * 0.3 if side else 0), s)
        target = arms["f"][3] - wdir * 0.24 * Hc
        el, hand = ik2(arms["b"][1], target, ua, fa, s, bend=-1)
        arms["b"][2], arms["b"][3] = el, hand
    elif d.weapon == "staff":
        wdir = dirv(p["wpn"], arms["f"][0])

    C = lambda name, far=False: pal(name, far)  # noqa: E731
    prims: list[Prim] = []
    add = prims.append
    hcol = "hair"

    def hair_strands(n, length, width, anchor_ang, spread, phase0, wind, col, segs=7,
                     curl=0.0, seed=0):
        rng = np.random.default_rng(seed)
        for i in range(n):
            fr = (i + 0.5) / n
            if side:
                ang0 = anchor_ang + spread * (fr - 0.5)
                base = Hd + hr * 0.95 * np.array([sl * math.sin(ang0 + lean + p["head"]),
                                                   -math.cos(ang0 + lean + p["head"])])
                a = -0.25 - 0.25 * rng.random()
            else:   # front view: locks fall at both sides of the face
                e = 1 if i % 2 == 0 else -1
                fi = (i // 2 + 0.5) / ((n + 1) // 2)
                ang0 = e * (anchor_ang + spread * (fi - 0.5))
                base = Hd + hr * 0.97 * np.array([math.sin(ang0), -math.cos(ang0)])
                a = 0.08 + 0.12 * rng.random()
            L = length * Hc * (0.75 + 0.5 * rng.random())
            ph = phase0 + 2 * math.pi * rng.random()
            pts = [base]
            for j in range(segs):
                fj = (j + 1) / segs
                sway = (0.10 + 0.25 * wind) * math.sin(2 * math.pi * t / (0.9 - 0.4 * wind)
                                                     + ph - 1.3 * j)
                if side:
                    aj = a * (1 - fj) - wind * 1.2 * fj ** 0.8 + sway * fj + curl * fj
                    step = dirv(aj, s)
                else:
                    aj = a + 0.5 * sway * fj + 0.3 * wind * fj
                    step = dirv(aj, e)
                pts.append(pts[-1] + step * L / segs)
            w = [max(0.45, width * (1 - 0.85 * (j / segs))) for j in range(segs)]
            add(Prim("strand", np.array(pts), C(col), False, w))

    def cape_prims():
        if side:
            top = N - u * 0.01 * Hc - v * 0.05 * Hc
            Lc = 0.5 * Hc
            w0, w1 = 0.05 * Hc, 0.14 * Hc
            wind = p["wind"]
            n = 9
            inner, outer = [], []
            cl = top
            for j in range(n + 1):
                fj = j / n
                a = -lean * (1 - fj) - 0.08 - wind * 1.25 * fj ** 0.9 \
                    + (0.06 + 0.18 * wind) * fj * math.sin(2 * math.pi * t / (0.8 - 0.25 * wind) - 4 * fj)
                if j:
                    cl = cl + dirv(a, s) * Lc / n
                nrm = np.array([-dirv(a, s)[1], dirv(a, s)[0]]) * s
                wj = w0 + (w1 - w0) * fj
                inner.append(cl + nrm * wj * 0.35)
                outer.append(cl - nrm * wj * 0.65)
            add(Prim("poly", np.array(inner + outer[::-1]), C("cape")))
        else:
            top = N - u * 0.02 * Hc
            Lc = 0.55 * Hc
            sw = 0.03 * math.sin(2 * math.pi * t / 1.3) + 0.05 * p["wind"] * math.sin(2 * math.pi * t / 0.5)
            pts = [top + (-0.085 * Hc, 0), top + (0.085 * Hc, 0)]
            for j in range(9):
                fx = 1 - j / 8
                xx = (-0.2 + 0.4 * fx) * Hc + sw * Hc
                yy = Lc + 0.02 * Hc * math.sin(7 * fx + 2 * math.pi * t / 0.9)
                pts.append(top + (xx, yy))
            add(Prim("poly", np.array(pts), C("cape")))

    # --- back layer
    if d.cape:
        cape_prims()
    if d.weapon == "katana_back":
        a0 = Hd + (-s * 0.02 * Hc, 0.02 * Hc) if side else Hd
        blade_dir = dirv(-2.4, s)
        kb = N - v * 0.035 * Hc - u * 0.08 * Hc
        add(Prim("hull", [(*(kb - blade_dir * 0.24 * Hc), 0.008 * Hc),
                          (*(kb + blade_dir * 0.17 * Hc), 0.011 * Hc)], C("scabbard")))
        add(Prim("hull", [(*(kb + blade_dir * 0.18 * Hc - np.array([-blade_dir[1], blade_dir[0]]) * 0.025 * Hc), 0.007 * Hc),
                          (*(kb + blade_dir * 0.18 * Hc + np.array([-blade_dir[1], blade_dir[0]]) * 0.025 * Hc), 0.007 * Hc)],
                 C("guard")))
        add(Prim("hull", [(*(kb + blade_dir * 0.19 * Hc), 0.009 * Hc),
                          (*(kb + blade_dir * 0.3 * Hc), 0.009 * Hc)], C("handle")))
        del a0
    if d.hair == "long":
        back = -0.9 if side else 0.0
        add(Prim("hull", [(*Hd, hr * 1.08),
                          (*(Hd + dirv(back, sl) * 0.12 * Hc), hr * 0.95),
                          (*(N + dirv(-1.2, sl) * 0.05 * Hc + (0, 0.05 * Hc)), 0.05 * Hc)],
                 C(hcol)))
        if d.strands:
            hair_strands(d.strands, d.strand_len, d.strand_w, -1.9 if side else 1.45,
                         1.4 if side else 0.5, 0.0, p["wind"], hcol, seed=3)

    def arm(k, far):
        ss, Sh, el, hand, _ = arms[k]
        add(Prim("hull", [(*Sh, 0.04 * Hc * bk), (*el, 0.032 * Hc * bk)], C("sleeve", far)))
        add(Prim("hull", [(*el, 0.031 * Hc * bk), (*hand, 0.026 * Hc * bk)], C("forearm", far)))
        add(Prim("hull", [(*hand, 0.032 * Hc * bk)], C("hand", far)))

    def leg(k, far):
        ss, hip, knee, ankle, toe = legs[k]
        add(Prim("hull", [(*hip, 0.055 * Hc * bk), (*knee, 0.043 * Hc * bk)], C("pants", far)))
        mid = knee + (ankle - knee) * 0.45
        add(Prim("hull", [(*knee, 0.041 * Hc * bk), (*mid, 0.037 * Hc * bk)], C("pants", far)))
        add(Prim("hull", [(*mid, 0.038 * Hc * bk), (*ankle, 0.033 * Hc * bk),
                          (*toe, footr * 0.85)], C("boots", far)))

    def weapon_prims():
        if wdir is None:
            return
        hand = arms["f"][3]
        nrm = np.array([-wdir[1], wdir[0]])
        if d.weapon in ("sword", "dagger"):
            Lb = (0.4 if d.weapon == "sword" else 0.17) * Hc
            wb = (0.02 if d.weapon == "sword" else 0.016) * Hc
            add(Prim("hull", [(*(hand - wdir * 0.055 * Hc), 0.012 * Hc),
                              (*(hand + wdir * 0.03 * Hc), 0.012 * Hc)], C("handle")))
            g = hand + wdir * 0.04 * Hc
            add(Prim("hull", [(*(g - nrm * 0.05 * Hc), 0.011 * Hc),
                              (*(g + nrm * 0.05 * Hc), 0.011 * Hc)], C("guard")))
            b0 = hand + wdir * 0.05 * Hc
            tip = b0 + wdir * Lb
            pts = [b0 - nrm * wb, b0 + nrm * wb, b0 + wdir * Lb * 0.86 + nrm * wb * 0.75,
                   tip, b0 + wdir * Lb * 0.86 - nrm * wb * 0.75]
            add(Prim("poly", np.array(pts), C("blade")))
        elif d.weapon == "axe":
            add(Prim("hull", [(*(hand - wdir * 0.08 * Hc), 0.013 * Hc),
                              (*(hand + wdir * 0.42 * Hc), 0.012 * Hc)], C("handle")))
            hb = hand + wdir * 0.36 * Hc
            fwd = nrm * -s if side else nrm
            pts = [hb - wdir * 0.02 * Hc, hb - wdir * 0.06 * Hc + fwd * 0.1 * Hc,
                   hb - wdir * 0.01 * Hc + fwd * 0.15 * Hc,
                   hb + wdir * 0.06 * Hc + fwd * 0.155 * Hc,
                   hb + wdir * 0.11 * Hc + fwd * 0.105 * Hc, hb + wdir * 0.05 * Hc]
            add(Prim("poly", np.array(pts), C("blade")))
            add(Prim("strand", np.array([hb + wdir * 0.11 * Hc + fwd * 0.1 * Hc,
                                         hb - wdir * 0.055 * Hc + fwd * 0.1 * Hc]),
                     C("edge"), False, [1.3]))
        elif d.weapon == "spear":
            tail = hand - wdir * 0.42 * Hc
            tipb = hand + wdir * 0.5 * Hc
            add(Prim("strand", np.array([tail, tipb]), C("handle"), False, [2.6]))
            tip = tipb + wdir * 0.11 * Hc
            pts = [tipb - nrm * 0.022 * Hc, tipb + nrm * 0.022 * Hc, tip]
            add(Prim("poly", np.array(pts), C("blade")))
        elif d.weapon == "staff":
            bot = hand - wdir * 0.45 * Hc
            top = hand + wdir * 0.38 * Hc
            add(Prim("hull", [(*bot, 0.011 * Hc), (*top, 0.014 * Hc)], C("handle")))
            add(Prim("hull", [(*(top + wdir * 0.035 * Hc), 0.032 * Hc)], C("gem")))
            add(Prim("strand", np.array([top - nrm * 0.03 * Hc, top + wdir * 0.1 * Hc,
                                         top + nrm * 0.03 * Hc]), C("guard"), False,
                     [2.0, 1.0]))

    def torso():
        hw, sw = (0.03, 0.035) if side else (0.055, 0.075)
        r0, r1 = (0.05, 0.055) if side else (0.045, 0.045)
        Nl = N - u * 0.04 * Hc
        circles = [(*(P - v * hw * Hc), r0 * Hc * bk), (*(P + v * hw * Hc), r0 * Hc * bk),
                   (*(Nl - v * sw * Hc), r1 * Hc * bk), (*(Nl + v * sw * Hc * 1.1), r1 * Hc * bk)]
        add(Prim("hull", circles, C("shirt")))
        if d.robe > 0:
            ks = [legs["f"][2], legs["b"][2]]
            if side:
                fx = max(k_[0] * s for k_ in ks) * s
                bx = min(k_[0] * s for k_ in ks) * s
                hem_y = P[1] + d.robe * Hc
                fl = 0.05 * Hc * (1 + 0.6 * math.sin(2 * math.pi * t / 0.7))
                pts = [P - v * 0.075 * Hc - u * 0.02 * Hc, P + v * 0.075 * Hc - u * 0.02 * Hc,
                       np.array([fx + s * 0.07 * Hc, hem_y]),
                       np.array([(fx + bx) / 2, hem_y + 0.015 * Hc]),
                       np.array([bx - s * 0.08 * Hc - s * p["wind"] * fl, hem_y - 0.01 * Hc])]
            else:
                spread = 0.12 + 0.06 * (p["hipf"] + p["hipb"])
                hem_y = P[1] + d.robe * Hc
                pts = [P + (-0.085 * Hc, -0.02 * Hc), P + (0.085 * Hc, -0.02 * Hc)]
                for j in range(7):
                    fx = 1 - j / 6
                    pts.append(np.array([P[0] + (-spread - 0.05 + (2 * spread + 0.1) * fx) * Hc,
                                         hem_y + 0.012 * Hc * math.sin(9 * fx + 4 * t)]))
            add(Prim("poly", np.array(pts), C("robe")))
        bc = P - u * 0.045 * Hc
        add(Prim("hull", [(*(bc - v * (hw + r0) * Hc * 0.95), 0.016 * Hc),
                          (*(bc + v * (hw + r0) * Hc * 0.95), 0.016 * Hc)], C("belt")))

    def head():
        add(Prim("hull", [(*N, 0.028 * Hc), (*(N + hd_dir * neck * 1.4), 0.026 * Hc)],
                 C("skin")))
        add(Prim("hull", [(*Hd, hr)], C("skin")))
        if side:
            eye = Hd + np.array([s * 0.55 * hr, -0.08 * hr])
            add(Prim("hull", [(*eye, max(0.11 * hr, 1.1))], C("eye"), False))
            add(Prim("strand", np.array([Hd + (s * 0.62 * hr, 0.42 * hr),
                                         Hd + (s * 0.85 * hr, 0.4 * hr)]),
                     C("mouth"), False, [1.1]))
        else:
            for e in (-1, 1):
                add(Prim("hull", [(*(Hd + (e * 0.36 * hr, 0.0)), max(0.12 * hr, 1.2))],
                         C("eye"), False))
            add(Prim("strand", np.array([Hd + (-0.15 * hr, 0.45 * hr),
                                         Hd + (0.15 * hr, 0.45 * hr)]),
                     C("mouth"), False, [1.1]))
        ang_off = lean + p["head"]

        def cap(a0, a1, rr, col, extra=()):
            th_ = np.linspace(a0, a1, 22)
            if side:
                pts = [Hd + rr * hr * np.array([s * math.cos(a + s * ang_off), math.sin(a + s * ang_off)])
                       for a in th_]
                pts += [Hd + hr * np.array([-s * 0.15, 0.15])]
            else:
                pts = [Hd + rr * hr * np.array([math.cos(a), math.sin(a)]) for a in th_]
            pts += list(extra)
            add(Prim("poly", np.array(pts), C(col)))

        if d.helmet:
            cap(-0.35, -3.5, 1.12, "helmet")
            if side:
                add(Prim("strand", np.array([Hd + (s * 0.2 * hr, -0.25 * hr),
                                             Hd + (s * 1.1 * hr, -0.25 * hr)]),
                         INK, False, [1.6]))
                plume = [Hd + (0, -1.1 * hr)]
                for j in range(6):
                    plume.append(plume[-1] + dirv(-2.5 + 0.22 * j + p["wind"] * 0.2 * j / 5
                                                   + 0.1 * math.sin(4 * t - j), s) * 0.045 * Hc)
                add(Prim("strand", np.array(plume), C("plume"), False,
                         [5, 4.5, 4, 3.2, 2.4, 1.5]))
        elif d.hat:
            cap(-0.2, -2.95, 1.05, "hat")
            brim_c = Hd + np.array([0, -0.55 * hr])
            add(Prim("hull", [(*(brim_c + (-1.55 * hr, 0)), 0.12 * hr),
                              (*(brim_c + (1.55 * hr, 0)), 0.12 * hr)], C("hat")))
            tipx = 0.9 * hr * math.sin(2 * math.pi * t / 2.5) * 0.3 + 0.5 * hr
            pts = [brim_c + (-1.0 * hr, 0), brim_c + (1.0 * hr, 0),
                   brim_c + (0.35 * hr + tipx * 0.3, -1.6 * hr),
                   brim_c + (tipx + 0.6 * hr, -2.3 * hr),
                   brim_c + (0.05 * hr + tipx * 0.3, -1.55 * hr)]
            add(Prim("poly", np.array(pts), C("hat")))
            add(Prim("hull", [(*(brim_c + (-1.0 * hr, -0.16 * hr)), 0.08 * hr),
                              (*(brim_c + (1.0 * hr, -0.16 * hr)), 0.08 * hr)], C("guard")))
        elif d.hair in ("short", "long"):
            cap(-0.55, -3.75, 1.07, hcol)
            if not side:
                fr = [Hd + (x * hr, -0.25 * hr + 0.15 * hr * math.cos(x * 5)) for x in
                      np.linspace(0.95, -0.95, 9)]
                cap(-0.15, -3.0, 1.07, hcol, extra=fr)
        elif d.hair == "spiky":
            cap(-0.55, -3.75, 1.06, hcol)
            for j in range(5):
                a = -1.2 - 0.45 * j + (0.25 if not side else 0)
                base_a = a + (s * ang_off if side else 0)
                dv = np.array([(s if side else 1) * math.cos(base_a), math.sin(base_a)])
                nv = np.array([-dv[1], dv[0]])
                b = Hd + dv * 0.85 * hr
                tip = b + (dv * 0.75 * hr + (-(s if side else 1)) * np.array([0.35 * hr, 0])
                           * p["wind"] + np.array([0, 0.05 * hr]) * math.sin(3 * t + j))
                add(Prim("poly", np.array([b - nv * 0.32 * hr, b + nv * 0.32 * hr, tip]),
                         C(hcol)))
        if d.mask:
            th_ = np.linspace(0.12, math.pi - 0.1, 16)
            pts = [Hd + 1.05 * hr * np.array([(s if side else 1) * math.cos(a), math.sin(a)])
                   for a in th_] if side else \
                [Hd + 1.05 * hr * np.array([math.cos(a), math.sin(a)]) for a in
                 np.linspace(-0.05, math.pi + 0.05, 16)]
            add(Prim("poly", np.array(pts), C("mask")))
        if d.ears:
            for e in ((1,) if side else (-1, 1)):
                base = Hd + (np.array([-s * 0.05 * hr, 0.08 * hr]) if side
                             else np.array([e * 0.9 * hr, 0.1 * hr]))
                tipp = base + (np.array([-s * 1.4 * hr, -0.75 * hr]) if side
                               else np.array([e * 1.0 * hr, -0.55 * hr]))
                pts = [base + (0, -0.28 * hr), tipp, base + (0, 0.32 * hr)]
                add(Prim("poly", np.array(pts), C("skin")))
        if d.tails:
            back = Hd + (np.array([-s * 0.9 * hr, -0.4 * hr]) if side else np.array([0.85 * hr, -0.4 * hr]))
            add(Prim("hull", [(*(Hd + (np.array([-s, 0]) if side else np.array([-1, 0])) * 0.98 * hr
                                 + (0, -0.45 * hr)), 0.12 * hr),
                              (*(Hd + (np.array([s, 0]) if side else np.array([1, 0])) * 0.98 * hr
                                 + (0, -0.45 * hr)), 0.12 * hr)], C("band")))
            for j in range(2):
                pts = [back]
                for i in range(8):
                    fi = (i + 1) / 8
                    a = -1.2 - 0.35 * j - p["wind"] * 0.6 * fi + (0.15 + 0.3 * p["wind"]) * fi * \
                        math.sin(2 * math.pi * t / 0.55 + j * 1.7 - 3.2 * fi)
                    pts.append(pts[-1] + dirv(a, s if side else 1) * 0.19 * Hc / 8)
                add(Prim("strand", np.array(pts), C("band"), False,
                         [3.0 - 0.25 * i for i in range(8)]))
        if d.hair == "short" and d.strands:
            hair_strands(d.strands, d.strand_len, d.strand_w, -2.2 if side else 0.0,
                         0.9, 0.7, p["wind"], hcol, segs=5, seed=5)

    if side:
        arm("b", True)
        leg("b", True)
        if d.robe > 0:
            leg("f", False)
            torso()
        else:
            torso()
            leg("f", False)
        head()
        if d.weapon in ("spear", "staff"):
            weapon_prims()
        arm("f", False)
        if d.weapon in ("sword", "axe", "dagger"):
            weapon_prims()
            add(Prim("hull", [(*arms["f"][3], 0.032 * Hc * bk)], C("hand")))
    else:
        leg("b", False)
        leg("f", False)
        torso()
        arm("b", False)
        head()
        weapon_prims()
        arm("f", False)
        if d.hair == "long" and d.strands:
            # front locks over the shoulders
            hair_strands(max(2, d.strands // 3), d.strand_len * 0.8, d.strand_w, 1.2, 0.3,
                         1.3, p["wind"], hcol, seed=9)
    keyp = np.array([arms["f"][3], arms["b"][3], legs["f"][4], legs["b"][4], Hd, N, P])
    if wdir is not None:
        keyp = np.vstack([keyp, arms["f"][3] + wdir * 0.5 * Hc])
    info = dict(keyp=keyp, feet_x=(legs["f"][3][0] + legs["b"][3][0]) / 2,
                lift=max(0.0, d.ground - max(legs["f"][4][1], legs["b"][4][1]) - footr),
                hand=arms["f"][3], staff_top=(arms["f"][3] + wdir * 0.445 * Hc)
                if d.weapon == "staff" else None, P=P)
    return prims, info


def slime_timeline(case, d):
    per = case.period

    def f(t):
        p = dict(REST)
        ph = (t / per) % 1.0
        w = smooth(t / 0.4)
        # squash (landing) -> stretch (take-off) -> air -> land
        if ph < 0.35:
            sq = 0.22 * math.sin(math.pi * ph / 0.35)
            air = 0.0
        elif ph < 0.85:
            u = (ph - 0.35) / 0.5
            sq = -0.14 * math.sin(math.pi * u) ** 0.5
            air = 0.28 * math.sin(math.pi * u)
        else:
            sq = 0.0
            air = 0.0
        p["sq"], p["air"] = sq * w, air * w
        p["x"] = 0.02 * math.sin(2 * math.pi * t / (2 * per)) * w
        return p
    return f


def build_slime(d: Design, p, t, pal):
    Hc = d.Hc
    sq = p["sq"]
    a = 0.5 * Hc * (1 + sq)
    b = 0.55 * Hc * (1 - sq)
    lift = p["air"] * Hc
    cx = d.ax + p["x"] * Hc
    base = d.ground - lift
    th = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    wob = 1 + 0.03 * np.sin(3 * th + 2 * math.pi * t / 0.7)
    xs = cx + a * np.cos(th) * wob
    top = np.sin(th) < 0
    cy = base - 0.32 * b
    ys = np.where(top, cy + b * 1.35 * np.sin(th) * wob, cy + 0.32 * b * np.sin(th))
    # a drooping tip at the top
    prims = [Prim("poly", np.stack([xs, ys], 1), pal("body"))]
    tipx = cx + 0.05 * a * math.sin(2 * math.pi * t / 0.9)
    topy = cy - b * 1.3
    prims.append(Prim("strand", np.array([[cx, topy + 0.1 * b], [tipx + 0.04 * a, topy - 0.15 * b],
                                          [tipx + 0.16 * a, topy - 0.2 * b]]),
                      pal("body"), False, [9.0, 4.0]))
    hx, hy = cx - 0.45 * a, cy - 0.85 * b
    prims.append(Prim("hull", [(hx, hy, 0.09 * Hc), (hx + 0.12 * a, hy - 0.12 * b, 0.05 * Hc)],
                      pal("glint"), False))
    for e in (-1, 1):
        ex, ey = cx + e * 0.32 * a, cy - 0.35 * b
        prims.append(Prim("hull", [(ex, ey - 0.06 * Hc, 0.045 * Hc), (ex, ey + 0.05 * Hc, 0.045 * Hc)],
                          pal("eye"), False))
        prims.append(Prim("hull", [(ex - 0.015 * Hc, ey - 0.05 * Hc, max(1.0, 0.014 * Hc))],
                          pal("glint"), False))
    mouth = np.array([[cx - 0.12 * a, cy - 0.02 * b], [cx, cy + 0.04 * b + 0.02 * b * sq],
                      [cx + 0.12 * a, cy - 0.02 * b]])
    prims.append(Prim("strand", mouth, pal("eye"), False, [1.6, 1.6]))
    info = dict(keyp=np.array([[cx, topy], [cx - a, cy], [cx + a, cy], [cx, base]]),
                feet_x=cx, lift=lift, hand=None, staff_top=None, P=np.array([cx, cy]))
    return prims, info


# ----------------------------------------------------------------------------- render

def make_texture(seed, size=512):
    """Periodic multi-octave noise in [-1, 1] (FFT filtered)."""
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((size, size))
    f = np.fft.fftfreq(size)
    r = np.hypot(f[:, None], f[None, :])
    out = np.zeros((size, size))
    for fc, amp in ((0.01, 1.0), (0.04, 0.6), (0.15, 0.35)):
        g = np.exp(-(r / fc) ** 2)
        o = np.real(np.fft.ifft2(np.fft.fft2(w) * g))
        out += amp * o / o.std()
    out /= np.abs(out).max()
    return out.astype(np.float32)


class Renderer:
    def __init__(self, case, d: Design, W, H):
        self.case, self.d, self.W, self.H = case, d, W, H
        self.pal = Palette(d)
        self.build = build_slime if d.kind == "slime" else build_human
        self.want_h = d.shade != "none"
        self.rgb_lut = self.pal.rgb.reshape(256, 1, 3).copy()
        self.noshade_lut = (~self.pal.shadeable).astype(np.uint8)
        self.tex_lut = self.pal.tex.copy()
        self.tex = None
        if d.tex:
            tile = make_texture(case.seed + 7, 512)
            self.T = T = tile.shape[0]
            reps = ((H * d.S + T) // T + 1, (W * d.S + T) // T + 1)
            self.tex = np.ascontiguousarray(np.tile(tile, reps))

    def prims(self, pose, t):
        return self.build(self.d, pose, t, self.pal)

    def render_set(self, prim_sets, roots, flashes):
        """Average (premultiplied) of several primitive sets -> (x0, y0, rgba float32)."""
        d, S = self.d, self.d.S
        b = np.concatenate([np.concatenate([pr.bounds(d.ink) for pr in ps]) for ps in prim_sets])
        x0 = int(max(0, math.floor(b[:, 0].min()) - 3))
        y0 = int(max(0, math.floor(b[:, 1].min()) - 3))
        x1 = int(min(self.W, math.ceil(b[:, 0].max()) + 4))
        y1 = int(min(self.H, math.ceil(b[:, 1].max()) + 4))
        w, h = x1 - x0, y1 - y0
        acc = np.zeros((h, w, 4), np.float32)
        if w <= 0 or h <= 0:
            return x0, y0, acc
        ras = Raster(x0, y0, w, h, S, self.want_h)
        for ps, root, fl in zip(prim_sets, roots, flashes):
            ras.ids.fill(0)
            if ras.hgt is not None:
                ras.hgt.fill(0)
            for pr in ps:
                ras.draw(pr, d.ink)
            acc += self.colourise(ras, root, fl)
        acc /= len(prim_sets)
        return x0, y0, acc

    def colourise(self, ras, root, flash):
        d, S, pal = self.d, ras.S, self.pal
        ids = ras.ids
        hS, wS = ids.shape
        mult = None
        if ras.hgt is not None:
            hb = cv2.GaussianBlur(ras.hgt, (0, 0), 1.6 * S).astype(np.int16)
            k = max(1, int(round(1.4 * S)))
            emb = np.zeros((hS, wS), np.int16)
            emb[k:-k, k:-k] = hb[2 * k:, 2 * k:] - hb[:-2 * k, :-2 * k]
            if d.shade == "cel":
                mult = np.where(emb < -26, np.float32(0.74),
                                np.where(emb > 40, np.float32(1.1), np.float32(1.0)))
            else:
                mult = np.clip(emb.astype(np.float32) * np.float32(0.55 / 100) + 1, 0.55, 1.3)
            if d.grad:
                yy = (np.arange(hS, dtype=np.float32) / S + ras.y0 - root[1]) / d.Hc
                mult *= (1 - d.grad * np.clip(yy, -0.6, 0.6))[:, None]
            mult[cv2.LUT(ids, self.noshade_lut) > 0] = 1.0
        if self.tex is not None:
            r0 = int(round((ras.y0 - root[1]) * S)) % self.T
            c0 = int(round((ras.x0 - root[0]) * S)) % self.T
            tx = self.tex[r0:r0 + hS, c0:c0 + wS]
            t = cv2.LUT(ids, self.tex_lut) * tx + 1
            mult = t if mult is None else mult * t
        col = cv2.LUT(cv2.merge([ids, ids, ids]), self.rgb_lut)    # float32 0..1, 0 outside
        if mult is not None:
            col *= mult[..., None]
        a = (ids > 0).astype(np.float32)
        if flash is not None:
            f, fc = flash
            if f > 0:
                col *= (1 - f)
                col += (np.array(fc, np.float32) / 255 * f) * a[..., None]
        np.minimum(col, 1, out=col)
        w, h = wS // S, hS // S
        cs = cv2.resize(col, (w, h), interpolation=cv2.INTER_AREA)
        As = cv2.resize(a, (w, h), interpolation=cv2.INTER_AREA)
        return np.concatenate([cs, As[..., None]], 2)


def paste(layer, x0, y0, rgba):
    h, w = rgba.shape[:2]
    layer[y0:y0 + h, x0:x0 + w] += rgba


def over(top, bottom):
    return top + bottom * (1 - top[..., 3:4])


def add_glow(layer, cx, cy, sigma, rgb, amax, core=0.0):
    H, W = layer.shape[:2]
    R = int(4 * sigma + 2)
    x0, x1 = max(0, int(cx) - R), min(W, int(cx) + R + 1)
    y0, y1 = max(0, int(cy) - R), min(H, int(cy) + R + 1)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    r2 = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2
    a = amax * np.exp(-r2 / (2 * sigma ** 2))
    if core > 0:
        a = np.maximum(a, np.clip(core * sigma * 0.5 - np.sqrt(r2) + 0.5, 0, 1) * 0.98)
    a = np.clip(a, 0, 1)
    g = np.dstack([a[..., None] * (np.array(rgb, np.float32) / 255), a[..., None]]).reshape(a.shape + (4,))
    layer[y0:y1, x0:x1] = over(g, layer[y0:y1, x0:x1])


def add_ring(layer, cx, cy, radius, width, rgb, amax):
    H, W = layer.shape[:2]
    R = int(radius + 3 * width + 2)
    x0, x1 = max(0, int(cx) - R), min(W, int(cx) + R + 1)
    y0, y1 = max(0, int(cy) - R), min(H, int(cy) + R + 1)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    r = np.sqrt((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2)
    a = np.clip(amax * np.exp(-((r - radius) / width) ** 2), 0, 1)
    g = np.concatenate([a[..., None] * (np.array(rgb, np.float32) / 255), a[..., None]], 2)
    layer[y0:y1, x0:x1] = over(g, layer[y0:y1, x0:x1])


# ----------------------------------------------------------------------------- backdrop

def lowfreq(rng, H, W, cells):
    g = rng.standard_normal((cells, int(cells * W / H) + 1)).astype(np.float32)
    return cv2.resize(g, (W, H), interpolation=cv2.INTER_CUBIC)


class Backdrop:
    def __init__(self, case, W, H):
        rng = np.random.default_rng(case.seed + 101)
        self.case, self.W, self.H, self.rng = case, W, H, rng
        key = np.array(case.key, np.float32) / 255
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        u, v = xx / W - 0.5, yy / H - 0.5
        gx, gy = rng.uniform(-0.08, 0.08), rng.uniform(-0.1, 0.06)
        r2 = (u * W / max(W, H)) ** 2 + (v * H / max(W, H)) ** 2
        vig = 1 - case.vignette * np.clip(r2 / 0.5, 0, 1.5) ** 1.3
        bright = (1 + gx * u * 2 + gy * v * 2) * vig
        bright *= 1 + 0.025 * lowfreq(rng, H, W, 4)
        base = key[None, None, :] * bright[..., None]
        # slight hue drift across the screen (uneven lighting of the cloth)
        hue = lowfreq(rng, H, W, 3)
        tint = np.array(case.tint, np.float32)
        base = base * (1 + 0.04 * hue[..., None] * tint)
        if case.horizon:
            hy, gain = case.horizon
            m = 1 / (1 + np.exp(-(yy - hy) / (0.025 * H)))
            base = base * (1 + (gain - 1) * m)[..., None]
        self.base = np.clip(base, 0, 1).astype(np.float32)
        self.blotA = lowfreq(rng, H, W, 5)[..., None] * 0.015
        self.blotB = lowfreq(rng, H, W, 5)[..., None] * 0.015
        self.phase = rng.uniform(0, 2 * np.pi, 3)

    def frame(self, i, t):
        c = self.case
        fl = c.flicker * (0.6 * math.sin(2 * math.pi * t * 1.7 + self.phase[0])
                          + 0.4 * math.sin(2 * math.pi * t * 5.3 + self.phase[1]))
        fl += c.flicker * 0.5 * self.rng.standard_normal()
        wob = math.sin(2 * math.pi * t / 3.1 + self.phase[2])
        return self.base * (1 + fl + self.blotA * wob + self.blotB * (1 - abs(wob)))


def shadow_apply(B, cx, cy, ax, ay, blur, strength):
    """Darken the backdrop B in place by a soft elliptical contact shadow."""
    H, W = B.shape[:2]
    R = int(3 * blur + 2)
    x0, x1 = max(0, int(cx - ax) - R), min(W, int(cx + ax) + R + 1)
    y0, y1 = max(0, int(cy - ay) - R), min(H, int(cy + ay) + R + 1)
    if x1 <= x0 or y1 <= y0 or strength <= 0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.ellipse(m, (int(round((cx - x0) * 16)), int(round((cy - y0) * 16))),
                (max(1, int(ax * 16)), max(1, int(ay * 16))), 0, 0, 360, 1.0, -1,
                cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), blur)
    B[y0:y1, x0:x1] *= (1 - strength * m)[..., None]


LUMA = np.array([0.299, 0.587, 0.114], np.float32)


# ----------------------------------------------------------------------------- video

def rgb_to_yuv420(rgb8):
    """uint8 RGB (H, W, 3) -> yuv420p planar (H*3/2, W) uint8, BT.601 limited range."""
    x = rgb8.astype(np.float32) / 255
    R, G, B = x[..., 0], x[..., 1], x[..., 2]
    Y = 16 + 65.481 * R + 128.553 * G + 24.966 * B
    Cb = 128 - 37.797 * R - 74.203 * G + 112.0 * B
    Cr = 128 + 112.0 * R - 93.786 * G - 18.214 * B
    H, W = Y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))
    y8 = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u8 = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    v8 = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([y8, u8.reshape(H // 4, W), v8.reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(str(path), "w", format="mp4")
        st = self.c.add_stream("libx264", rate=Fraction(fps).limit_denominator(1001))
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        # One thread, and no macroblock-tree: x264's SIMD mbtree propagation was seen to
        # give different bitstreams from identical input between runs on this machine
        # (about half of the runs); with mbtree=0 the output is byte-identical.
        st.options = {"crf": str(crf), "preset": "medium", "threads": "1",
                      "x264-params": "mbtree=0"}
        cc = st.codec_context
        try:
            cc.color_range = 1        # MPEG (limited)
            cc.colorspace = 6         # SMPTE 170M (BT.601)
            cc.color_primaries = 6
            cc.color_trc = 6
        except Exception:
            pass
        self.st, self.n = st, 0

    def add(self, yuv):
        fr = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
        try:
            fr.color_range = 1
            fr.colorspace = 6
        except Exception:
            pass
        fr.pts = self.n
        self.n += 1
        for pk in self.st.encode(fr):
            self.c.mux(pk)

    def close(self):
        for pk in self.st.encode():
            self.c.mux(pk)
        self.c.close()


# ----------------------------------------------------------------------------- cases

@dataclass
class Case:
    name: str
    action: str
    notes: str
    W: int
    H: int
    fps: float
    seconds: float
    crf: int
    key: tuple
    design: Design
    seed: int = 0
    period: float = 1.0
    travel: float = 0.0            # run: pelvis travel across the clip, in Hc
    attack_at: tuple = (0.35,)
    attack_dur: float = 0.9
    hit_at: float = 0.35
    flash_rgb: tuple = (255, 70, 60)
    vignette: float = 0.15
    tint: tuple = (0.3, 0.0, -0.4)
    horizon: tuple | None = None
    flicker: float = 0.008
    noise: float = 1.6
    wrap: float = 0.25
    wrap_w: float = 3.0
    spill: float = 0.02
    shadow: float = 0.35
    shutter: float = 0.5
    ghost: tuple = ()
    fx_rgb: tuple = (255, 90, 230)
    trail_rgb: tuple = (120, 210, 255)


H3 = (0, 177, 64)


def cases():
    C = []

    def hum(**kw):
        return Design(**kw)

    C.append(Case(
        "c01_walk_knight_greencape_cel", "walk",
        "silver knight, cape close to the key green, helmet plume, two-tone cel; H3 green",
        512, 512, 24, 2.5, 20, H3, seed=1, period=1.1, wrap=0.25, wrap_w=3,
        design=hum(Hc=360, ax=262, ground=474, facing=1, shade="cel", helmet=True, cape=True,
                   hair="none", colours=dict(
                       skin=(228, 188, 160), shirt=(196, 202, 214), sleeve=(186, 192, 206),
                       forearm=(200, 206, 218), hand=(170, 176, 190), pants=(92, 92, 104),
                       boots=(62, 50, 44), belt=(122, 82, 40), cape=(34, 140, 62),
                       helmet=(214, 220, 230), plume=(200, 30, 40), eye=(20, 20, 25),
                       mouth=(90, 50, 50), hair=(60, 40, 20)))))
    C.append(Case(
        "c02_run_ranger_olive_textured", "run",
        "olive/dark-green ranger, noise-textured shaded cloth, thin ponytail strands, fast limbs",
        448, 448, 24, 2.0, 22, (5, 160, 60), seed=2, period=0.62, wrap=0.3, wrap_w=4,
        vignette=0.22, noise=2.2,
        design=hum(Hc=300, ax=224, ground=412, facing=-1, shade="smooth", grad=0.15,
                   hair="short", strands=5, strand_len=0.2, strand_w=1.6,
                   tex=dict(shirt=0.12, sleeve=0.1, pants=0.1, cape=0.1), colours=dict(
                       skin=(200, 160, 120), shirt=(96, 102, 44), sleeve=(36, 72, 40),
                       forearm=(36, 72, 40), hand=(92, 70, 48), pants=(72, 62, 46),
                       boots=(50, 40, 30), belt=(120, 86, 48), hair=(92, 60, 30),
                       eye=(20, 16, 14), mouth=(110, 60, 50)))))
    C.append(Case(
        "c03_skill_mage_teal_ink_orb", "skill",
        "front-view teal-robed mage, ink outline, white hair strands, staff, magenta orb glow "
        "and burst ring (semi-transparent, in the truth)",
        512, 512, 16, 3.0, 20, (10, 190, 75), seed=3, wrap=0.22, wrap_w=3,
        fx_rgb=(255, 80, 220),
        design=hum(view="front", Hc=320, ax=256, ground=490, shade="cel", ink=2.0,
                   hair="long", strands=10, strand_len=0.32, strand_w=1.3, hat=True,
                   robe=0.44, weapon="staff", colours=dict(
                       skin=(240, 210, 182), shirt=(0, 128, 118), robe=(0, 120, 112),
                       sleeve=(0, 128, 118), forearm=(0, 128, 118), hand=(240, 210, 182),
                       pants=(0, 90, 84), boots=(70, 50, 40), belt=(220, 180, 60),
                       hair=(236, 236, 242), hat=(0, 94, 90), guard=(222, 182, 62),
                       handle=(112, 76, 42), gem=(214, 60, 200), eye=(24, 20, 30),
                       mouth=(140, 70, 70)))))
    C.append(Case(
        "c04_idle_ninja_black_tails", "idle",
        "near-black ninja, long 1-3 px red headband tails fluttering, katana on the back, flat",
        448, 448, 16, 4.0, 23, (0, 172, 70), seed=4, period=2.2, wrap=0.22, wrap_w=2,
        noise=2.0,
        design=hum(Hc=310, ax=220, ground=416, facing=1, shade="none", hair="short",
                   tails=True, weapon="katana_back", mask=True, tex=dict(shirt=0.05, pants=0.05),
                   colours=dict(
                       skin=(226, 186, 150), shirt=(22, 24, 28), sleeve=(24, 26, 30),
                       forearm=(46, 48, 54), hand=(30, 30, 34), pants=(22, 24, 28),
                       boots=(44, 46, 52), belt=(60, 60, 70), band=(200, 30, 40),
                       scabbard=(14, 14, 16), handle=(120, 30, 30), eye=(10, 10, 12),
                       mouth=(22, 24, 28), hair=(26, 28, 32), mask=(30, 32, 36),
                       guard=(150, 130, 60)))))
    C.append(Case(
        "c05_hurt_priest_white_yellowkey", "hurt",
        "near-white robed priest with blond hair on a yellower green screen, knockback, "
        "red hurt flash (in the truth), smooth shading",
        512, 512, 24, 2.0, 19, (100, 195, 45), seed=5, hit_at=0.4, wrap=0.28, wrap_w=5,
        flash_rgb=(255, 60, 50), tint=(0.2, 0.1, -0.5), spill=0.035,
        design=hum(Hc=370, ax=270, ground=478, facing=-1, shade="smooth", grad=0.1,
                   hair="short", robe=0.4, tex=dict(shirt=0.03, robe=0.03), colours=dict(
                       skin=(236, 202, 172), shirt=(242, 240, 230), robe=(238, 236, 226),
                       sleeve=(240, 238, 228), forearm=(240, 238, 228),
                       hand=(236, 202, 172), pants=(226, 222, 210), boots=(150, 112, 60),
                       belt=(216, 176, 62), hair=(232, 202, 112), eye=(40, 60, 90),
                       mouth=(150, 80, 80)))))
    C.append(Case(
        "c06_attack_swordsman_portrait720", "attack",
        "720x1280 portrait: crimson swordsman with green scarf tails, two overhead slashes, "
        "thin blade tip with heavy motion blur, floor horizon",
        720, 1280, 24, 2.5, 21, H3, seed=6, attack_at=(0.35, 1.35), attack_dur=0.85,
        wrap=0.2, wrap_w=6, horizon=(1050, 0.9), vignette=0.2, shutter=0.55,
        design=hum(Hc=500, ax=262, ground=1090, facing=1, S=2, shade="smooth", grad=0.12,
                   hair="spiky", tails=True, weapon="sword",
                   tex=dict(shirt=0.06, pants=0.06), colours=dict(
                       skin=(212, 162, 122), shirt=(172, 30, 42), sleeve=(150, 26, 36),
                       forearm=(212, 162, 122), hand=(90, 60, 40), pants=(40, 46, 82),
                       boots=(84, 56, 34), belt=(40, 30, 24), band=(40, 160, 72),
                       hair=(18, 16, 20), blade=(226, 230, 236), guard=(214, 170, 60),
                       handle=(70, 40, 24), eye=(14, 12, 12), mouth=(120, 60, 50)))))
    C.append(Case(
        "c07_idle_slime_yellowgreen_ink", "idle",
        "hopping yellow-green slime with dark-green ink outline, squash/stretch, white "
        "highlight and eye glints, contact shadow that shrinks in the air",
        448, 448, 24, 3.0, 20, (0, 180, 68), seed=7, period=1.0, wrap=0.3, wrap_w=4,
        shadow=0.45,
        design=Design(kind="slime", Hc=190, ax=224, ground=400, shade="cel", ink=2.5,
                      ink_rgb=(30, 88, 34), colours=dict(
                          body=(162, 206, 52), glint=(246, 255, 224), eye=(20, 32, 22)))))
    C.append(Case(
        "c08_walk_archer_tealkey_longhair", "walk",
        "dark-teal jacket on a teal-green screen, long brown hair with 1 px strands, "
        "shaded + textured",
        512, 512, 24, 3.0, 21, (0, 165, 135), seed=8, period=1.05, wrap=0.25, wrap_w=3,
        tint=(0.0, 0.2, -0.3),
        design=hum(Hc=360, ax=250, ground=474, facing=1, shade="smooth", grad=0.12,
                   hair="long", strands=9, strand_len=0.3, strand_w=1.1,
                   tex=dict(shirt=0.08, sleeve=0.08, pants=0.06), colours=dict(
                       skin=(226, 182, 142), shirt=(26, 96, 90), sleeve=(24, 90, 84),
                       forearm=(226, 182, 142), hand=(226, 182, 142), pants=(172, 142, 100),
                       boots=(82, 56, 36), belt=(60, 40, 26), hair=(112, 70, 40),
                       eye=(30, 24, 20), mouth=(150, 80, 70)))))
    C.append(Case(
        "c09_run_blue_screen_denim_ink", "run",
        "blue screen: denim and light-blue clothes, white spiky hair, yellow scarf tails, ink",
        512, 512, 24, 2.0, 20, (15, 70, 190), seed=9, period=0.64, wrap=0.3, wrap_w=3,
        tint=(0.2, 0.2, -0.1), spill=0.03,
        design=hum(Hc=350, ax=256, ground=472, facing=1, shade="cel", ink=2.0,
                   ink_rgb=(20, 20, 36), hair="spiky", tails=True, colours=dict(
                       skin=(192, 142, 112), shirt=(150, 190, 230), sleeve=(150, 190, 230),
                       forearm=(192, 142, 112), hand=(192, 142, 112), pants=(46, 70, 130),
                       boots=(40, 34, 30), belt=(30, 30, 40), band=(242, 202, 40),
                       hair=(240, 240, 246), eye=(20, 20, 36), mouth=(120, 60, 60)))))
    C.append(Case(
        "c10_run_landscape1280_elf_cape", "run",
        "1280x720: green-haired elf with dark-red cape running across the frame, pointy "
        "ears, long strands, floor horizon",
        1280, 720, 24, 2.5, 22, H3, seed=10, period=0.66, travel=1.2, wrap=0.22, wrap_w=4,
        horizon=(610, 0.88), vignette=0.25,
        design=hum(Hc=430, ax=420, ground=660, facing=1, S=2, shade="smooth", grad=0.1,
                   hair="long", strands=8, strand_len=0.26, strand_w=1.5, ears=True,
                   cape=True, tex=dict(shirt=0.07, cape=0.06, pants=0.05), colours=dict(
                       skin=(232, 200, 170), shirt=(122, 86, 50), sleeve=(122, 86, 50),
                       forearm=(232, 200, 170), hand=(110, 80, 50), pants=(30, 62, 36),
                       boots=(62, 46, 30), belt=(40, 30, 20), cape=(122, 26, 36),
                       hair=(64, 152, 72), eye=(30, 60, 30), mouth=(150, 80, 70)))))
    C.append(Case(
        "c11_walk_girl_lime_dress_strands", "walk",
        "lime (yellow-green) dress, white stockings, black long hair with many 1 px strands",
        448, 448, 16, 3.0, 21, (5, 182, 66), seed=11, period=1.0, wrap=0.3, wrap_w=3,
        design=hum(Hc=300, ax=230, ground=412, facing=-1, shade="smooth", grad=0.1,
                   hair="long", strands=14, strand_len=0.3, strand_w=1.0, robe=0.2,
                   tex=dict(shirt=0.05, robe=0.05), colours=dict(
                       skin=(246, 216, 192), shirt=(166, 206, 62), robe=(160, 202, 58),
                       sleeve=(166, 206, 62), forearm=(246, 216, 192), hand=(246, 216, 192),
                       pants=(236, 236, 236), boots=(122, 40, 52), belt=(246, 246, 240),
                       hair=(20, 18, 22), eye=(30, 20, 20), mouth=(180, 80, 90)))))
    C.append(Case(
        "c12_attack_axe_darkgreen_cape_ink", "attack",
        "bronze-armoured axeman with a dark-green cape, ink outline, overhead chop with "
        "motion blur",
        512, 512, 24, 2.0, 19, (0, 170, 55), seed=12, attack_at=(0.4,), attack_dur=1.0,
        wrap=0.2, wrap_w=3,
        design=hum(Hc=320, ax=205, ground=478, facing=1, shade="cel", ink=2.5,
                   ink_rgb=(26, 20, 20), hair="short", cape=True, weapon="axe", bulk=1.15,
                   colours=dict(
                       skin=(202, 152, 112), shirt=(172, 122, 62), sleeve=(160, 112, 56),
                       forearm=(202, 152, 112), hand=(100, 70, 44), pants=(62, 52, 42),
                       boots=(52, 40, 30), belt=(90, 60, 30), cape=(22, 76, 42),
                       hair=(150, 62, 30), blade=(152, 156, 162), edge=(226, 230, 236),
                       handle=(100, 66, 36), eye=(16, 12, 12), mouth=(100, 50, 40)))))
    C.append(Case(
        "c13_run_ghosting_white_shirt", "run",
        "video-model ghosting: faint double exposure of the previous frames (in the truth), "
        "near-white shirt, near-black trousers",
        512, 512, 24, 2.5, 23, H3, seed=13, period=0.6, wrap=0.25, wrap_w=3,
        ghost=(0.32, 0.14), noise=2.0,
        design=hum(Hc=350, ax=256, ground=474, facing=-1, shade="cel", hair="short",
                   colours=dict(
                       skin=(230, 190, 160), shirt=(236, 236, 230), sleeve=(236, 236, 230),
                       forearm=(230, 190, 160), hand=(230, 190, 160), pants=(26, 26, 32),
                       boots=(182, 40, 40), belt=(40, 30, 30), hair=(96, 62, 36),
                       eye=(20, 16, 14), mouth=(140, 70, 60)))))
    C.append(Case(
        "c14_attack_spear_olive_yellowkey_16fps", "attack",
        "olive-armoured spearman on a yellower green screen, 2 px shaft, fast thrust at "
        "16 fps (long blur streak)",
        448, 448, 16, 2.5, 22, (80, 185, 50), seed=14, attack_at=(0.5,), attack_dur=1.1,
        wrap=0.3, wrap_w=2, tint=(0.3, 0.1, -0.4), spill=0.03,
        design=hum(Hc=270, ax=140, ground=410, facing=1, shade="smooth", grad=0.12,
                   hair="none", helmet=True, weapon="spear",
                   tex=dict(shirt=0.08, sleeve=0.06, helmet=0.05), colours=dict(
                       skin=(212, 172, 132), shirt=(122, 126, 60), sleeve=(42, 66, 42),
                       forearm=(212, 172, 132), hand=(120, 90, 60), pants=(42, 66, 42),
                       boots=(70, 52, 34), belt=(90, 62, 34), helmet=(182, 142, 72),
                       plume=(230, 230, 222), handle=(122, 86, 50), blade=(220, 224, 230),
                       eye=(14, 12, 12), mouth=(110, 60, 50), hair=(0, 0, 0)))))
    C.append(Case(
        "c15_skill_monk_dash_afterimage", "skill",
        "orange monk dash-punch: cyan stylised afterimages and a yellow-green fist glow "
        "(both semi-transparent, in the truth), ink outline",
        512, 512, 24, 2.5, 20, (0, 175, 62), seed=15, wrap=0.25, wrap_w=4,
        fx_rgb=(196, 255, 90), trail_rgb=(120, 210, 255),
        design=hum(Hc=330, ax=170, ground=470, facing=1, shade="cel", ink=1.5,
                   hair="bald", colours=dict(
                       skin=(222, 172, 132), shirt=(232, 122, 40), sleeve=(232, 122, 40),
                       forearm=(222, 172, 132), hand=(222, 172, 132), pants=(242, 236, 226),
                       boots=(60, 40, 30), belt=(24, 22, 22), eye=(20, 16, 14),
                       mouth=(130, 70, 60)))))
    C.append(Case(
        "c16_hurt_goblin_greenskin_12fps", "hurt",
        "olive-green-skinned chibi goblin with dagger, ink + cel, knockback and white flash "
        "at 12 fps",
        512, 512, 12, 2.0, 24, (8, 168, 60), seed=16, hit_at=0.5, wrap=0.32, wrap_w=5,
        flash_rgb=(255, 255, 250),
        design=hum(Hc=300, ax=270, ground=470, facing=-1, shade="cel", ink=2.0, head_r=0.12,
                   leg_scale=0.82, bulk=1.1, hair="none", ears=True, weapon="dagger",
                   colours=dict(
                       skin=(112, 150, 56), shirt=(112, 72, 40), sleeve=(112, 150, 56),
                       forearm=(112, 150, 56), hand=(112, 150, 56), pants=(152, 122, 72),
                       boots=(70, 50, 34), belt=(60, 40, 24), blade=(200, 204, 210),
                       guard=(90, 80, 70), handle=(60, 40, 24), eye=(250, 220, 60),
                       mouth=(40, 20, 20), hair=(0, 0, 0)))))
    return C


# ----------------------------------------------------------------------------- driver

def render_case(case: Case, outdir: Path):
    t_start = time.time()
    d = case.design
    W, H, fps = case.W, case.H, case.fps
    n = int(round(case.seconds * fps))
    dt = 1.0 / fps
    R = Renderer(case, d, W, H)
    pose_at = slime_timeline(case, d) if d.kind == "slime" else human_timeline(case, d)
    bd = Backdrop(case, W, H)
    rng = np.random.default_rng(case.seed + 999)
    key = np.array(case.key, np.float32) / 255
    key_l = float(key @ LUMA)
    outdir.mkdir(parents=True, exist_ok=True)

    def flash_of(pose):
        return (pose["flash"], case.flash_rgb) if pose["flash"] > 0 else None

    # portrait: the rest pose at t = 0, crisp, no effects
    p0 = pose_at(0.0)
    p0 = dict(p0, flash=0.0)
    prims0, info0 = R.prims(p0, 0.0)
    x0, y0, rgba = R.render_set([prims0], [info0["P"]], [None])
    port = np.zeros((H, W, 4), np.float32)
    paste(port, x0, y0, rgba)
    Image.fromarray(to_straight8(port), "RGBA").save(outdir / "portrait.png")

    enc = Encoder(outdir / "clip.mp4", W, H, fps, case.crf)
    truth = np.zeros((n, H, W, 4), np.uint8)
    history = []
    blur_k = []
    for i in range(n):
        t = i * dt
        # motion blur: sub-frame samples inside the shutter, more where things move fast
        pa, pb = pose_at(t - 0.5 * case.shutter * dt), pose_at(t + 0.5 * case.shutter * dt)
        ka = R.prims(pa, t)[1]["keyp"]
        kb = R.prims(pb, t)[1]["keyp"]
        disp = float(np.max(np.hypot(*(ka - kb).T))) if i else 0.0
        K = int(min(36, max(1, math.ceil(disp / 2.0))))
        blur_k.append(K)
        sets, roots, flashes, infos = [], [], [], []
        for k in range(K):
            ts = t if K == 1 else t + case.shutter * dt * ((k + 0.5) / K - 0.5)
            ps = pose_at(ts)
            pr, inf = R.prims(ps, ts)
            sets.append(pr)
            roots.append(inf["P"])
            flashes.append(flash_of(ps))
            infos.append(inf)
        pose = pose_at(t)
        info = R.prims(pose, t)[1]
        x0, y0, rgba = R.render_set(sets, roots, flashes)
        layer = np.zeros((H, W, 4), np.float32)
        paste(layer, x0, y0, rgba)
        # stylised afterimages (skill): earlier poses, tinted, semi-transparent, behind
        if pose["trail"] > 0:
            for j, (lag, a) in enumerate(((0.045, 0.5), (0.09, 0.33), (0.135, 0.18))):
                pt = pose_at(t - lag)
                pr, inf = R.prims(pt, t - lag)
                gx, gy, g = R.render_set([pr], [inf["P"]], [(0.65, case.trail_rgb)])
                gl = np.zeros((H, W, 4), np.float32)
                paste(gl, gx, gy, g * a)
                layer = over(layer, gl)
        # effects: orb / burst (front mage) and fist glow (monk)
        fx = np.zeros((H, W, 4), np.float32)
        if pose["orb"] > 0 and info.get("staff_top") is not None:
            o = pose["orb"]
            cx, cy = info["staff_top"]
            add_glow(fx, cx, cy, 6 + 15 * o, case.fx_rgb, 0.6 * o, core=0.7 * o)
            for j in range(14):
                ang = j * 2.4 + t * 5.0
                rr = (1 - ((t * 0.9 + j * 0.13) % 1.0)) * 60 * o + 10
                add_glow(fx, cx + rr * math.cos(ang), cy + rr * math.sin(ang), 1.3,
                         (255, 200, 250), 0.9 * o)
        if pose["burst"] > 0 and info.get("staff_top") is not None:
            b = pose["burst"]
            cx, cy = info["staff_top"]
            add_ring(fx, cx, cy, 20 + 85 * b, 4 + 4 * b, case.fx_rgb, 0.8 * (1 - b))
            add_glow(fx, cx, cy, 18 + 20 * b, (255, 230, 250), 0.9 * (1 - b) ** 2)
            for j in range(18):
                ang = j * 2 * math.pi / 18 + 0.3 * math.sin(j)
                rr = 10 + (75 + 25 * math.sin(j * 3)) * b
                add_glow(fx, cx + rr * math.cos(ang), cy + rr * math.sin(ang) + 40 * b * b,
                         1.6, (255, 160, 240), 0.95 * (1 - b))
        if pose["glow"] > 0 and info.get("hand") is not None:
            g = pose["glow"]
            cx, cy = info["hand"]
            add_glow(fx, cx, cy, 10 + 8 * g, case.fx_rgb, 0.6 * g)
            for j in range(8):
                ang = j * 0.8 + t * 9
                rr = 14 + 10 * ((t * 3 + j * 0.37) % 1.0)
                add_glow(fx, cx + rr * math.cos(ang), cy + rr * math.sin(ang), 1.1,
                         (235, 255, 170), 0.85 * g)
        if fx[..., 3].any():
            layer = over(fx, layer)
        # video-model ghosting: faint copies of the previous frames (a double exposure)
        if case.ghost:
            cur = layer
            for j, a in enumerate(case.ghost):
                if len(history) > j:
                    cur = over(cur, history[-1 - j] * a)
            history.append(layer)
            history = history[-len(case.ghost):]
            layer = cur
        if d.soft > 0:
            layer = cv2.GaussianBlur(layer, (0, 0), d.soft)
        A_full = layer[..., 3]
        rows = np.flatnonzero(A_full.max(1) > 0)
        cols = np.flatnonzero(A_full.max(0) > 0)
        B = bd.frame(i, t)
        # contact shadow on the floor (darkens the backdrop only)
        lift = info["lift"]
        fade = 1 / (1 + lift / (0.12 * d.Hc))
        sw = (0.3 if d.kind == "human" else 0.55) * d.Hc * (0.7 + 0.3 * fade)
        sh = 0.05 * d.Hc * (0.7 + 0.3 * fade)
        shadow_apply(B, info["feet_x"] + 0.03 * d.Hc, d.ground - 0.004 * d.Hc, sw, sh,
                     max(2.0, 0.025 * d.Hc), case.shadow * fade)
        F = B * 255
        if len(rows):
            m = int(3 * case.wrap_w + 4)
            ry0, ry1 = max(0, rows[0] - m), min(H, rows[-1] + 1 + m)
            rx0, rx1 = max(0, cols[0] - m), min(W, cols[-1] + 1 + m)
            L = layer[ry0:ry1, rx0:rx1]
            truth[i, ry0:ry1, rx0:rx1] = to_straight8(L)
            A = L[..., 3:4]
            Cs = L[..., :3] / np.maximum(A, 1e-4)
            Bl = B[ry0:ry1, rx0:rx1]
            # light wrap: backdrop light on the opaque edge, fading inward over wrap_w px
            solid = (A[..., 0] > 0.5).astype(np.uint8)
            depth = cv2.distanceTransform(solid, cv2.DIST_L2, 5)
            depth = np.maximum(depth - 1.0, 0)
            wrapw = np.clip(1 - depth / case.wrap_w, 0, 1) ** 1.5
            side_mod = 1 + 0.2 * np.sin(np.arange(rx0, rx1, dtype=np.float32) / W * 3.0
                                        + case.seed)
            edge = np.clip(case.wrap * side_mod, 0.15, 0.35)   # strength at the edge
            wrapw = (wrapw * edge[None, :])[..., None]
            Bw = cv2.GaussianBlur(Bl, (0, 0), case.wrap_w)
            Cv = Cs * (1 - wrapw) + Bw * wrapw
            if case.spill > 0:   # faint global spill from the screen
                lum = Cv @ LUMA
                Cv = Cv * (1 - case.spill) + case.spill * (lum / key_l)[..., None] * key
            F[ry0:ry1, rx0:rx1] = (Cv * A + Bl * (1 - A)) * 255
        # sensor-like noise over the whole frame (luma, slightly correlated; chroma, coarser)
        nz = cv2.GaussianBlur(rng.standard_normal((H, W), np.float32), (0, 0), 0.6) \
            * (1.7 * case.noise)
        cn = cv2.resize(rng.standard_normal((H // 2, W // 2, 2), np.float32), (W, H),
                        interpolation=cv2.INTER_LINEAR) * (0.6 * case.noise)
        F[..., 0] += nz + cn[..., 0]
        F[..., 1] += nz - 0.3 * (cn[..., 0] + cn[..., 1])
        F[..., 2] += nz + cn[..., 1]
        rgb8 = np.clip(np.round(F), 0, 255).astype(np.uint8)
        enc.add(rgb_to_yuv420(rgb8))
    enc.close()
    np.savez_compressed(outdir / "truth.npz", rgba=truth)
    (outdir / "case.json").write_text(json.dumps({"action": case.action, "notes": case.notes},
                                                 indent=1) + "\n")
    return case.name, n, time.time() - t_start, max(blur_k)


def to_straight8(layer):
    A = np.clip(layer[..., 3], 0, 1)
    a8 = np.round(A * 255).astype(np.uint8)
    C = np.where(A[..., None] > 1e-6, layer[..., :3] / np.maximum(A[..., None], 1e-6), 0)
    c8 = np.clip(np.round(C * 255), 0, 255).astype(np.uint8)
    c8[a8 == 0] = 0
    return np.dstack([c8, a8])


def _job(args):
    cv2.setNumThreads(1)
    case, out = args
    return render_case(case, out / case.name)


def main(argv):
    t0 = time.time()
    todo = [c for c in cases() if not argv or any(a in c.name for a in argv)]
    # biggest first so two workers finish together
    todo.sort(key=lambda c: -(c.W * c.H * c.seconds * c.fps * c.design.S ** 2))
    jobs = [(c, OUT) for c in todo]
    workers = min(2, os.cpu_count() or 1, len(jobs))
    if workers > 1:
        with Pool(workers) as pool:
            for name, n, secs, kmax in pool.imap_unordered(_job, jobs):
                print(f"{name:<44} {n:4d} frames {secs:6.1f} s  max blur samples {kmax}",
                      flush=True)
    else:
        for j in jobs:
            name, n, secs, kmax = _job(j)
            print(f"{name:<44} {n:4d} frames {secs:6.1f} s  max blur samples {kmax}", flush=True)
    print(f"{len(jobs)} cases into {OUT} in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
