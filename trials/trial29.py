"""Trial 29: H3-like green/blue-screen clips of procedural (and Kenney CC0) characters, with truth.

Run from /work/main: `.venv/bin/python trials/trial29.py [NAME_SUBSTRING]`; writes one folder per
case into $TRIAL_OUT (default trials/_out/trial29/). 24 fps, yuv420p H.264, frame 0 = the portrait
on the flat user canvas; from frame 1 the "model" screen, light wrap, contact shadow, grain.
Wrap = strength/falloff px. Screens: steady (+-noise), drift (whole-clip hue/brightness change),
settle (darker desaturated green with gradient, vignette, grain within a few frames), pulse.

cel_tunic_idle_ff00      idle   448x448 56f CRF20 cel outlined knight, green tunic on #00FF00, steady; wrap .30/3; []
orc_walk_chroma          walk   448x448 56f CRF22 soft-shaded teal orc, (0,177,64) settles in 4f; wrap .35/4; []
whiterobe_skill_drift    skill  448x448 39f CRF20 cel white-robed mage, thin staff, arms up; (60,200,90) drifts 35 lv; wrap .30/5; []
black_ninja_run_pulse    run    512x320 56f CRF23 soft black-clad ninja, ponytail, blur x6; #00FF00 pulses +-10%; wrap .25/3; []
pixel_hero_walk_drift    walk   448x448 73f CRF18 pixel-art hero (x4 nearest), #00FF00 drifts 30 lv; wrap .20/2; []
chibi_blue_attack        attack 448x448 39f CRF21 cel chibi in blue, sword swing blur x6, blue screen (0,71,187) steady; wrap .30/3; []
spear_sweep_near_edge    attack 640x384 39f CRF20 cel spearman, tip sweeps to 8 px of the right edge, chroma settles 3f; wrap .30/4; []
longhair_look_back       idle   448x448 56f CRF20 soft long-haired girl looks over shoulder 7 frames, (60,200,90) steady; wrap .25/3; []
hurt_recoil_zoom         hurt   448x448 22f CRF21 cel grey-shirt swordsman recoils, 8% zoom-in, chroma settles 5f; wrap .30/4; []
tall_walk_zoom_hair      walk   384x640 56f CRF22 soft ponytail walker, 6% zoom-in, #00FF00 drift 25 lv; wrap .30/3; []
turn_walk_facing         walk   448x448 56f CRF20 cel walker turns at 40% and walks the other way, chroma steady; wrap .30/3; [FACING]
smear_run                run    448x448 56f CRF20 cel runner, 35% of previous render blended in, #00FF00 steady; wrap .25/3; [SMEAR]
cropped_jump_landing     attack 448x448 39f CRF20 cel jumper lands low: legs below the bottom edge after f10, chroma steady; wrap .30/3; [CROPPED]
static_idle              idle   448x448 56f CRF20 cel knight holds still, only codec/screen noise, #00FF00 steady; wrap .25/3; [STATIC]
kenney_walk_settle       walk   448x448 56f CRF20 Kenney femaleAdventurer walk0-7 (x2.5), chroma settles 6f; wrap .30/3; []
orc_hurt_wide            hurt   640x384 39f CRF24 soft teal orc with club recoils, #00FF00 pulses; wrap .35/5; []
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
import zipfile
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

SS = 4
SHIFT = 3
SC = float(SS * (1 << SHIFT))
ROOT = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT") or ROOT / "_out" / "trial29")
ARC = [Path("/tmp/arc/arcade-2.6.17-py3-none-any.whl"), Path("/tmp/trial28_arcade/arcade-2.6.17-py3-none-any.whl")]

FF00 = (0, 255, 0)
CHROMA = (0, 177, 64)
SOFT = (60, 200, 90)
BLUE = (0, 71, 187)


def sstep(x):
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


# ----------------------------------------------------------------------------- figure
class Figure:
    def __init__(self, style="cel", chibi=False, colors=None, hair="short", weapon=None,
                 robe=False, orc=False, outline=(28, 24, 34), ow=1.5):
        self.style, self.chibi, self.hair, self.weapon, self.robe, self.orc = style, chibi, hair, weapon, robe, orc
        c = dict(skin=(236, 190, 150), hair=(90, 55, 30), shirt=(60, 90, 170), pants=(70, 60, 55),
                 boots=(60, 40, 30), weapon=(150, 150, 160), wood=(130, 90, 50), belt=(90, 60, 30))
        c.update(colors or {})
        self.c, self.outline, self.ow = c, outline, ow
        if chibi:
            self.p = dict(rh=0.2, hy=0.79, neck=0.58, hip=0.33, th=0.165, sh=0.165, ua=0.12, fa=0.11,
                          tw=0.085, lw=0.06, aw=0.045)
        else:
            self.p = dict(rh=0.075, hy=0.905, neck=0.83, hip=0.48, th=0.24, sh=0.235, ua=0.17, fa=0.16,
                          tw=0.07, lw=0.052, aw=0.038)


def rest_pose():
    return dict(lean=0.0, bob=0.0, dx=0.0, dy=0.0, air=0.0, thigh=[-4.0, 4.0], knee=[2.0, 2.0],
                shoulder=[-8.0, 8.0], elbow=[10.0, 15.0], tilt=0.0, hf=1.0, wdir=None,
                hair=0.0, hairbase=25.0, facing=1.0, breathe=0.0)


def vec(a_deg, L):
    a = math.radians(a_deg)
    return (L * math.sin(a), -L * math.cos(a))


def skeleton(fig, P):
    p = fig.p
    legs = []
    for k in range(2):
        kx, ky = vec(P["thigh"][k], p["th"])
        fx, fy = vec(P["thigh"][k] - P["knee"][k], p["sh"])
        legs.append(((kx, ky), (kx + fx, ky + fy)))
    low = min(legs[0][1][1], legs[1][1][1])
    hip = (P["dx"], -low + P["bob"] + P["air"] + P["dy"])
    legs = [((hip[0] + a[0], hip[1] + a[1]), (hip[0] + b[0], hip[1] + b[1])) for a, b in legs]
    tl = p["neck"] - p["hip"]
    lean = math.radians(P["lean"])
    neck = (hip[0] + tl * math.sin(lean), hip[1] + tl * math.cos(lean) * (1 + P["breathe"]))
    shoulder = (hip[0] + 0.88 * (neck[0] - hip[0]), hip[1] + 0.88 * (neck[1] - hip[1]))
    hd = math.radians(P["lean"] + P["tilt"])
    hr = p["rh"]
    head = (neck[0] + (hr * 1.0 + 0.01) * math.sin(hd), neck[1] + (hr * 1.0 + 0.01) * math.cos(hd))
    arms = []
    for k in range(2):
        ex, ey = vec(P["shoulder"][k], p["ua"])
        hx, hy = vec(P["shoulder"][k] + P["elbow"][k], p["fa"])
        e = (shoulder[0] + ex, shoulder[1] + ey)
        arms.append((e, (e[0] + hx, e[1] + hy), P["shoulder"][k] + P["elbow"][k]))
    return dict(hip=hip, legs=legs, neck=neck, shoulder=shoulder, head=head, arms=arms)


class Canvas:
    """Supersampled drawing surface over a crop; coordinates are unit (y up) -> pixels."""

    def __init__(self, fig, crop, place, ss, aa=True):
        self.fig, self.ss = fig, ss
        x0, y0, x1, y1 = crop
        self.x0, self.y0 = x0, y0
        self.h, self.w = (y1 - y0) * ss, (x1 - x0) * ss
        self.rgb = np.zeros((self.h, self.w, 3), np.uint8)
        self.m = np.zeros((self.h, self.w), np.uint8)
        self.place = place  # (cx, gy, Hpx, facing, zoom, ax, ay)
        self.sc = ss * (1 << SHIFT)

    def pt(self, x, y):
        cx, gy, Hp, s, z, ax, ay = self.place
        X = cx + s * x * Hp
        Y = gy - y * Hp
        X = ax + z * (X - ax)
        Y = ay + z * (Y - ay)
        return (int(round((X - self.x0) * self.sc)), int(round((Y - self.y0) * self.sc)))

    def px(self, L):
        cx, gy, Hp, s, z, ax, ay = self.place
        return L * Hp * z * self.ss

    def _both(self, fn, col):
        fn(self.rgb, tuple(int(v) for v in col))
        fn(self.m, 255)

    def line(self, pts, w, col, ol=True):
        P = [self.pt(*q) for q in pts]
        t = max(1, int(round(self.px(w))))
        fig = self.fig
        if ol and fig.style == "cel":
            to = t + int(round(2 * fig.ow * self.ss))
            for a, b in zip(P[:-1], P[1:]):
                self._both(lambda im, c: cv2.line(im, a, b, c, to, cv2.LINE_8, SHIFT), fig.outline)
        for a, b in zip(P[:-1], P[1:]):
            self._both(lambda im, c: cv2.line(im, a, b, c, t, cv2.LINE_8, SHIFT), col)
        if fig.style == "soft" and t > 6:
            hl = tuple(min(255, v * 1.25 + 18) for v in col)
            off = int(round(-0.18 * t * (1 << SHIFT)))
            for a, b in zip(P[:-1], P[1:]):
                cv2.line(self.rgb, (a[0] + off, a[1] + off), (b[0] + off, b[1] + off),
                         tuple(int(v) for v in hl), max(1, t // 3), cv2.LINE_8, SHIFT)
            # keep highlight inside the part: mask unchanged (drawn only on rgb inside t)

    def circle(self, c, r, col, ol=True):
        C = self.pt(*c)
        R = int(round(self.px(r) * (1 << SHIFT)))
        fig = self.fig
        if ol and fig.style == "cel":
            Ro = R + int(round(fig.ow * self.ss * (1 << SHIFT)))
            self._both(lambda im, cc: cv2.circle(im, C, Ro, cc, -1, cv2.LINE_8, SHIFT), fig.outline)
        self._both(lambda im, cc: cv2.circle(im, C, R, cc, -1, cv2.LINE_8, SHIFT), col)
        if fig.style == "soft":
            hl = tuple(int(min(255, v * 1.2 + 15)) for v in col)
            off = int(round(-0.3 * R))
            cv2.circle(self.rgb, (C[0] + off, C[1] + off), int(R * 0.5), hl, -1, cv2.LINE_8, SHIFT)

    def dot(self, c, r, col):  # detail inside the silhouette, no outline
        C = self.pt(*c)
        R = max(1 << SHIFT, int(round(self.px(r) * (1 << SHIFT))))
        cv2.circle(self.rgb, C, R, tuple(int(v) for v in col), -1, cv2.LINE_8, SHIFT)

    def poly(self, pts, col, ol=True):
        P = np.array([self.pt(*q) for q in pts], np.int32)
        fig = self.fig
        if ol and fig.style == "cel":
            to = int(round(2 * fig.ow * self.ss))
            self._both(lambda im, c: cv2.polylines(im, [P], True, c, to, cv2.LINE_8, SHIFT), fig.outline)
        self._both(lambda im, c: cv2.fillPoly(im, [P], c, cv2.LINE_8, SHIFT), col)


def draw_figure(cv, fig, P, t):
    S = skeleton(fig, P)
    p, c = fig.p, fig.c
    hip, neck, sh, head = S["hip"], S["neck"], S["shoulder"], S["head"]
    hf = P["hf"]
    rh = p["rh"]

    def leg(k):
        knee, foot = S["legs"][k]
        col = c["pants"] if k == 1 else tuple(v * 0.8 for v in c["pants"])
        cv.line([hip, knee, foot], p["lw"], col)
        cv.line([foot, (foot[0] + 0.045, foot[1] - 0.005)], p["lw"] * 0.95, c["boots"])

    def arm(k):
        e, h, ang = S["arms"][k]
        sc = c["shirt"] if k == 1 else tuple(v * 0.8 for v in c["shirt"])
        cv.line([sh, e], p["aw"] * 1.1, sc)
        sk = c["skin"] if k == 1 else tuple(v * 0.85 for v in c["skin"])
        cv.line([e, h], p["aw"], sk)
        cv.circle(h, p["aw"] * 0.62, sk)

    def weapon():
        e, h, ang = S["arms"][1]
        if not fig.weapon:
            return
        a = P.get("wdir")
        if a is None:
            sa = P["shoulder"][1] - 8
            a = 180 + 0.3 * sa if fig.weapon in ("staff", "spear") else 110 + 0.5 * sa
        d = vec(a, 1.0)
        if fig.weapon == "staff":
            # staff held upright-ish: runs through the hand
            a0 = (h[0] - 0.35 * d[0], h[1] - 0.35 * d[1])
            a1 = (h[0] + 0.45 * d[0], h[1] + 0.45 * d[1])
            cv.line([a0, a1], 0.013, c["wood"])
            cv.circle(a1, 0.028, c["weapon"])
        elif fig.weapon == "spear":
            a0 = (h[0] - 0.3 * d[0], h[1] - 0.3 * d[1])
            a1 = (h[0] + 0.5 * d[0], h[1] + 0.5 * d[1])
            cv.line([a0, a1], 0.012, c["wood"])
            nx, ny = -d[1], d[0]
            tip = (a1[0] + 0.09 * d[0], a1[1] + 0.09 * d[1])
            cv.poly([tip, (a1[0] + 0.022 * nx, a1[1] + 0.022 * ny), (a1[0] - 0.022 * nx, a1[1] - 0.022 * ny)],
                    c["weapon"])
        elif fig.weapon in ("sword", "club"):
            L = 0.34 if fig.weapon == "sword" else 0.26
            a1 = (h[0] + L * d[0], h[1] + L * d[1])
            w = 0.024 if fig.weapon == "sword" else 0.045
            cv.line([h, a1], w, c["weapon"])
            if fig.weapon == "sword":
                nx, ny = -d[1], d[0]
                g = (h[0] + 0.03 * d[0], h[1] + 0.03 * d[1])
                cv.line([(g[0] + 0.04 * nx, g[1] + 0.04 * ny), (g[0] - 0.04 * nx, g[1] - 0.04 * ny)], 0.016, c["belt"])

    def hair_tail(thick):
        base = (head[0] - 0.8 * rh * hf, head[1] + 0.35 * rh)
        pts = [base]
        n = 5
        L = (0.05 if fig.hair == "ponytail" else 0.065) * (0.8 if fig.chibi else 1.0)
        for k in range(n):
            th = P["hairbase"] + P["hair"] * math.sin(t * 0.9 - 0.7 * k) * (k + 1) / n
            d = (-math.sin(math.radians(th)) * hf, -math.cos(math.radians(th)))
            pts.append((pts[-1][0] + L * d[0], pts[-1][1] + L * d[1]))
        cv.line(pts, thick, c["hair"])

    arm(0)
    leg(0)
    if fig.hair in ("ponytail", "long"):
        hair_tail(0.045 if fig.hair == "ponytail" else 0.075)
    leg(1)
    # torso
    ang = math.atan2(neck[0] - hip[0], neck[1] - hip[1])
    nx, ny = math.cos(ang), -math.sin(ang)
    tw = p["tw"]
    if fig.robe:
        knees = [S["legs"][0][0][0], S["legs"][1][0][0], S["legs"][0][1][0], S["legs"][1][1][0]]
        hy = min(S["legs"][0][1][1], S["legs"][1][1][1]) + 0.09
        lo, hi = min(knees + [hip[0]]) - 0.05, max(knees + [hip[0]]) + 0.05
        cv.poly([(sh[0] - tw * nx, sh[1] - tw * ny), (sh[0] + tw * nx, sh[1] + tw * ny),
                 (hip[0] + tw * 1.2, hip[1]), (hi, hy), (lo, hy), (hip[0] - tw * 1.2, hip[1])], c["shirt"])
    else:
        cv.poly([(sh[0] - tw * nx, sh[1] - tw * ny), (sh[0] + tw * nx, sh[1] + tw * ny),
                 (hip[0] + tw * 0.9, hip[1] - 0.03), (hip[0] - tw * 0.9, hip[1] - 0.03)], c["shirt"])
    cv.line([(hip[0] - tw * 0.85, hip[1] + 0.01), (hip[0] + tw * 0.85, hip[1] + 0.01)], 0.022, c["belt"], ol=False)
    # head
    cv.line([neck, head], p["aw"] * 0.9, c["skin"])
    if fig.orc:
        ear = (head[0] - 0.2 * rh * hf, head[1] + 0.5 * rh)
        cv.poly([ear, (ear[0] - 0.6 * rh * hf, ear[1] + 0.7 * rh), (ear[0] + 0.1 * rh * hf, ear[1] - 0.1 * rh)], c["skin"])
    cv.circle(head, rh, c["skin"])
    cv.circle((head[0] + 0.9 * rh * hf, head[1] - 0.15 * rh), rh * 0.22, c["skin"])  # nose
    # hair cap on the back/top of the head
    cv.poly([(head[0] - 1.05 * rh * hf, head[1] - 0.1 * rh), (head[0] - 0.9 * rh * hf, head[1] + 0.75 * rh),
             (head[0] + 0.1 * rh * hf, head[1] + 1.08 * rh), (head[0] + 0.75 * rh * hf, head[1] + 0.7 * rh),
             (head[0] - 0.1 * rh * hf, head[1] + 0.45 * rh)], c["hair"], ol=False)
    cv.dot((head[0] + 0.5 * rh * hf, head[1] + 0.12 * rh), rh * 0.12, (20, 20, 25))
    if fig.orc:
        cv.dot((head[0] + 0.62 * rh * hf, head[1] - 0.55 * rh), rh * 0.1, (245, 240, 220))
    arm(1)
    weapon()


def fig_bbox(fig, P, place, W, H):
    S = skeleton(fig, P)
    pts = [S["hip"], S["neck"], S["head"]] + [q for l in S["legs"] for q in l] + [q for a in S["arms"] for q in a[:2]]
    cx, gy, Hp, s, z, ax, ay = place
    X = [ax + z * (cx + s * x * Hp - ax) for x, y in pts]
    Y = [ay + z * (gy - y * Hp - ay) for x, y in pts]
    ext = fig.p["rh"] * 1.3 + 0.05 + (0.62 if fig.weapon else 0.0)
    ext = max(ext, fig.p["rh"] * 1.3 + 0.05 + (0.4 if fig.hair in ("ponytail", "long") else 0.0))
    m = ext * Hp * z + 3
    x0, x1 = int(max(0, min(X) - m)), int(min(W, max(X) + m + 1))
    y0, y1 = int(max(0, min(Y) - m)), int(min(H, max(Y) + m + 1))
    return x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)


def render_fig(fig, P, t, place, W, H):
    """Premultiplied float32 (H, W, 4) at 1x, alpha in 0..1."""
    out = np.zeros((H, W, 4), np.float32)
    if fig.style == "pixel":
        k = 4
        cx, gy, Hp, s, z, ax, ay = place
        pl = (cx / k, gy / k, Hp / k, s, z, ax / k, ay / k)
        w, h = W // k, H // k
        cv = Canvas(fig, (0, 0, w, h), pl, 1)
        fig.style = "pixelraw"
        draw_figure(cv, fig, P, t)
        fig.style = "pixel"
        m = cv.m > 0
        ring = cv2.dilate(m.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        rgb = cv.rgb.copy()
        rgb[ring & ~m] = fig.outline
        a = ring.astype(np.float32)
        rgb = np.repeat(np.repeat(rgb, k, 0), k, 1)
        a = np.repeat(np.repeat(a, k, 0), k, 1)
        out[: h * k, : w * k, :3] = rgb * a[..., None]
        out[: h * k, : w * k, 3] = a
        return out
    x0, y0, x1, y1 = fig_bbox(fig, P, place, W, H)
    cv = Canvas(fig, (x0, y0, x1, y1), place, SS)
    draw_figure(cv, fig, P, t)
    m = cv.m.astype(np.float32) * (1 / 255.0)
    pm = np.concatenate([cv.rgb.astype(np.float32) * m[..., None], m[..., None]], 2)
    small = cv2.resize(pm, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    if fig.style == "soft":  # soft shading: smooth the colour inside the silhouette
        a = small[..., 3:]
        bl = cv2.GaussianBlur(small, (0, 0), 1.3)
        rgb = bl[..., :3] / np.maximum(bl[..., 3:], 1e-4)
        yy = np.linspace(1.08, 0.9, rgb.shape[0], dtype=np.float32)[:, None, None]
        small[..., :3] = np.clip(rgb * yy, 0, 255) * a
    out[y0:y1, x0:x1] = small
    return out


# ----------------------------------------------------------------------------- motions
def motion(action, variant, f, N):
    """Pose at (fractional) frame f. Frame 0 is the rest pose."""
    P = rest_pose()
    t = f / 24.0
    ramp = sstep(f / 5.0)
    if variant == "still":
        return P
    if action == "idle":
        b = math.sin(2 * math.pi * t / 1.4)
        P["breathe"] = 0.012 * b * ramp
        P["bob"] = -0.004 * (1 - b) * ramp
        P["shoulder"] = [-8 - 3 * b * ramp, 8 + 3 * b * ramp]
        P["elbow"] = [10 + 4 * b * ramp, 15 + 5 * b * ramp]
        P["hair"] = 8 * ramp
        P["tilt"] = 2 * b * ramp
        if variant == "lookback":
            a, b2 = 22.0, 29.0  # 7 frames = 0.3 s
            if f <= a - 1 or f >= b2 + 1:
                hf = 1.0
            elif f < a:
                hf = 1 - 2 * (f - (a - 1))
            elif f <= b2:
                hf = -1.0
            else:
                hf = -1 + 2 * (f - b2)
            P["hf"] = hf
            P["tilt"] += 6 * (1 - hf) / 2
    elif action in ("walk", "run"):
        run = action == "run"
        ph = 2 * math.pi * t * (1.5 if run else 1.0)
        A = (42 if run else 26) * ramp
        sp = math.sin(ph)
        P["thigh"] = [-A * sp, A * sp]
        P["knee"] = [2 + (75 if run else 30) * ramp * max(0, math.sin(ph + 1.6)),
                     2 + (75 if run else 30) * ramp * max(0, math.sin(ph + 1.6 + math.pi))]
        B = (55 if run else 24) * ramp
        P["shoulder"] = [B * sp, -B * sp]
        P["elbow"] = [10 + (70 if run else 12) * ramp, 15 + (70 if run else 12) * ramp]
        P["lean"] = (10 if run else 3) * ramp
        P["bob"] = (0.025 if run else 0.012) * ramp * abs(math.cos(ph))
        P["hair"] = (30 if run else 15) * ramp
        P["hairbase"] = 25 + (40 if run else 10) * ramp
        if variant == "turn":
            t0, T = 0.4 * (N - 1), 4.0
            P["facing"] = 1.0 if f < t0 else (math.cos(math.pi * min(1, (f - t0) / T)))
            if abs(P["facing"]) < 0.12:
                P["facing"] = 0.12 if f - t0 < T / 2 else -0.12
    elif action == "attack":
        if variant in ("swing", "sweep", "jump"):
            # wind-up 1..12, fast swing 13..17, follow-through, recover
            wu = sstep((f - 1) / 11)
            sw = sstep((f - 13) / 4)
            rc = sstep((f - 24) / (N - 26))
            if variant == "sweep":
                up, fw = -30, 92
            else:
                up, fw = 160, 40
            ang = 8 + (up - 8) * wu + (fw - up) * sw + (8 - fw) * rc
            P["shoulder"] = [-8 - 25 * wu + 40 * sw * (1 - rc), ang]
            P["elbow"] = [10 + 40 * wu, 15 + 20 * wu - 20 * sw + 0 * rc]
            if variant == "sweep":
                P["wdir"] = 180 + 25 * wu - 115 * sw + 90 * rc
            else:
                P["wdir"] = 110 + 140 * wu - 190 * sw + 50 * rc
            P["lean"] = -6 * wu + 16 * sw * (1 - rc)
            P["thigh"] = [-4 - 14 * wu * (1 - rc), 4 + 20 * sw * (1 - rc)]
            P["knee"] = [2 + 20 * wu * (1 - rc), 2 + 15 * sw * (1 - rc)]
            if variant == "jump":
                up_ = sstep((f - 3) / 4) * (1 - sstep((f - 7) / 3))
                P["air"] = 0.12 * up_
                P["dy"] = -0.42 * sstep((f - 7) / 4)
                P["wdir"] = 110 + 140 * wu - 190 * sw + 50 * rc
                P["knee"] = [2 + 40 * up_, 2 + 50 * up_]
            P["hair"] = 25 * wu
    elif action == "skill":
        r = sstep((f - 1) / 9)
        lo = sstep((f - (N - 10)) / 9) * 0.4
        k = r * (1 - lo)
        P["shoulder"] = [-8 + 170 * k, 8 + 158 * k]
        P["elbow"] = [10 - 5 * k, 15 - 10 * k]
        P["wdir"] = 180 - 10 * k
        P["lean"] = -4 * k
        P["tilt"] = -8 * k
        P["thigh"] = [-4 - 6 * k, 4 + 6 * k]
        P["bob"] = 0.015 * k * math.sin(2 * math.pi * t * 2)
        P["hair"] = 12 * k
    elif action == "hurt":
        h = sstep(f / 4) * (1 - sstep((f - 8) / max(4, N - 12)))
        P["lean"] = -22 * h
        P["tilt"] = -15 * h
        P["dx"] = -0.07 * h
        P["shoulder"] = [-8 + 60 * h, 8 + 70 * h]
        P["elbow"] = [10 + 40 * h, 15 + 40 * h]
        P["thigh"] = [-4 - 14 * h, 4 + 18 * h]
        P["knee"] = [2 + 25 * h, 2 + 10 * h]
        P["hair"] = 30 * h
        P["hairbase"] = 25 - 45 * h
    return P


# ----------------------------------------------------------------------------- Kenney
_KEN = {}


def kenney(name):
    if name in _KEN:
        return _KEN[name]
    whl = next((p for p in ARC if p.exists()), None)
    if whl is None:
        raise SystemExit("arcade wheel missing: .venv/bin/python -m pip download arcade==2.6.17 --no-deps -d /tmp/arc")
    with zipfile.ZipFile(whl) as z:
        path = f"arcade/resources/images/animated_characters/female_adventurer/femaleAdventurer_{name}.png"
        im = np.array(Image.open(io.BytesIO(z.read(path))).convert("RGBA"))
    _KEN[name] = im
    return im


def render_kenney(f, W, H, scale, cx, gy):
    name = "idle" if f < 3 else f"walk{int((f - 3) // 3) % 8}"
    im = kenney(name).astype(np.float32)
    a = im[..., 3:] / 255.0
    pm = np.concatenate([im[..., :3] * a, a], 2)
    h, w = im.shape[:2]
    pm = cv2.resize(pm, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_LINEAR)
    pm[..., 3] = np.clip(pm[..., 3], 0, 1)
    pm[..., :3] = np.minimum(pm[..., :3], pm[..., 3:] * 255)
    out = np.zeros((H, W, 4), np.float32)
    hh, ww = pm.shape[:2]
    x0, y0 = int(cx - ww // 2), int(gy - hh)
    out[y0:y0 + hh, x0:x0 + ww] = pm
    return out


# ----------------------------------------------------------------------------- cases
def F(**kw):
    return kw


CASES = [
    F(name="cel_tunic_idle_ff00", action="idle", size=(448, 448), n=56, crf=20, canvas=FF00, screen="steady",
      wrap=(0.30, 3), fig=dict(style="cel", colors=dict(shirt=(40, 140, 50), pants=(90, 70, 50)), weapon="sword"),
      hfrac=0.66, flags=[]),
    F(name="orc_walk_chroma", action="walk", size=(448, 448), n=56, crf=22, canvas=CHROMA, screen="settle",
      settle=4, wrap=(0.35, 4), fig=dict(style="soft", orc=True, colors=dict(skin=(60, 150, 140), shirt=(120, 80, 50),
                                                                              hair=(30, 30, 30), pants=(80, 70, 60))),
      hfrac=0.62, blur=4, flags=[]),
    F(name="whiterobe_skill_drift", action="skill", size=(448, 448), n=39, crf=20, canvas=SOFT, screen="drift",
      drift=(-12, -30, 14), wrap=(0.30, 5), fig=dict(style="cel", robe=True, weapon="staff", hair="long",
                                                      colors=dict(shirt=(242, 242, 236), hair=(200, 200, 210))),
      hfrac=0.45, blur=4, flags=[]),
    F(name="black_ninja_run_pulse", action="run", size=(512, 320), n=56, crf=23, canvas=FF00, screen="pulse",
      wrap=(0.25, 3), fig=dict(style="soft", hair="ponytail", colors=dict(shirt=(28, 28, 34), pants=(22, 22, 26),
                                                                          boots=(15, 15, 15), hair=(20, 18, 18))),
      hfrac=0.72, blur=6, flags=[]),
    F(name="pixel_hero_walk_drift", action="walk", size=(448, 448), n=73, crf=18, canvas=FF00, screen="drift",
      drift=(20, -30, 10), wrap=(0.20, 2), fig=dict(style="pixel", colors=dict(shirt=(200, 40, 40), hair=(240, 200, 60))),
      hfrac=0.55, flags=[]),
    F(name="chibi_blue_attack", action="attack", variant="swing", size=(448, 448), n=39, crf=21, canvas=BLUE,
      screen="steady", wrap=(0.30, 3), fig=dict(style="cel", chibi=True, weapon="sword",
                                                colors=dict(shirt=(40, 80, 200), pants=(30, 50, 140), hair=(60, 40, 30))),
      hfrac=0.45, blur=6, flags=[]),
    F(name="spear_sweep_near_edge", action="attack", variant="sweep", size=(640, 384), n=39, crf=20, canvas=CHROMA,
      screen="settle", settle=3, wrap=(0.30, 4), fig=dict(style="cel", weapon="spear", colors=dict(shirt=(150, 110, 60))),
      hfrac=0.62, blur=6, edge_gap=8, flags=[]),
    F(name="longhair_look_back", action="idle", variant="lookback", size=(448, 448), n=56, crf=20, canvas=SOFT,
      screen="steady", wrap=(0.25, 3), fig=dict(style="soft", hair="long", colors=dict(shirt=(170, 60, 120), hair=(70, 40, 25))),
      hfrac=0.7, flags=[]),
    F(name="hurt_recoil_zoom", action="hurt", size=(448, 448), n=22, crf=21, canvas=CHROMA, screen="settle", settle=5,
      wrap=(0.30, 4), zoom=0.08, fig=dict(style="cel", weapon="sword", colors=dict(shirt=(120, 120, 140))),
      hfrac=0.6, blur=4, flags=[]),
    F(name="tall_walk_zoom_hair", action="walk", size=(384, 640), n=56, crf=22, canvas=FF00, screen="drift",
      drift=(18, -25, 0), wrap=(0.30, 3), zoom=0.06, fig=dict(style="soft", hair="ponytail",
                                                                colors=dict(shirt=(230, 150, 40), hair=(120, 60, 20))),
      hfrac=0.62, flags=[]),
    F(name="turn_walk_facing", action="walk", variant="turn", size=(448, 448), n=56, crf=20, canvas=CHROMA,
      screen="steady", wrap=(0.30, 3), fig=dict(style="cel", weapon="sword", colors=dict(shirt=(150, 40, 40))),
      hfrac=0.6, flags=["FACING"]),
    F(name="smear_run", action="run", size=(448, 448), n=56, crf=20, canvas=FF00, screen="steady", wrap=(0.25, 3),
      fig=dict(style="cel", hair="ponytail", colors=dict(shirt=(200, 180, 60))), hfrac=0.6, smear=0.35,
      flags=["SMEAR"]),
    F(name="cropped_jump_landing", action="attack", variant="jump", size=(448, 448), n=39, crf=20, canvas=CHROMA,
      screen="steady", wrap=(0.30, 3), fig=dict(style="cel", weapon="sword", colors=dict(shirt=(90, 60, 150))),
      hfrac=0.58, blur=4, cropped=True, flags=["CROPPED"]),
    F(name="static_idle", action="idle", variant="still", size=(448, 448), n=56, crf=20, canvas=FF00, screen="steady",
      wrap=(0.25, 3), fig=dict(style="cel", weapon="sword", colors=dict(shirt=(60, 90, 170))), hfrac=0.66,
      flags=["STATIC"]),
    F(name="kenney_walk_settle", action="walk", size=(448, 448), n=56, crf=20, canvas=CHROMA, screen="settle",
      settle=6, wrap=(0.30, 3), kenney=2.5, flags=[]),
    F(name="orc_hurt_wide", action="hurt", size=(640, 384), n=39, crf=24, canvas=FF00, screen="pulse", wrap=(0.35, 5),
      fig=dict(style="soft", orc=True, weapon="club", colors=dict(skin=(60, 150, 140), shirt=(90, 70, 60),
                                                                   weapon=(110, 80, 50), hair=(25, 25, 25))),
      hfrac=0.7, blur=4, flags=[]),
]


def truth_for(case):
    W, H = case["size"]
    N = case["n"]
    ground = H - 0.10 * H
    cx = W * (0.42 if case.get("variant") == "sweep" else 0.5)
    geo = []  # (cx, gy, Hp, zoom, ax, ay) per frame, for the shadow
    frames = np.zeros((N, H, W, 4), np.float32)
    if "kenney" in case:
        for i in range(N):
            frames[i] = render_kenney(i, W, H, case["kenney"], cx, ground)
            geo.append((cx, ground, 128 * case["kenney"] * 0.8, 1.0, cx, ground))
        return frames, geo
    fig = Figure(**case["fig"])
    Hp = case["hfrac"] * H
    if fig.style == "pixel":
        Hp = round(Hp / 4) * 4
        cx, ground = round(cx / 4) * 4, round(ground / 4) * 4
    K = case.get("blur", 1)
    for i in range(N):
        z = 1.0 + case.get("zoom", 0.0) * sstep(i / (N - 1))
        ax, ay = cx, H * 0.45
        subs = [i] if (K == 1 or i == 0) else [i - 0.6 * k / (K - 1) for k in range(K)]
        acc = np.zeros((H, W, 4), np.float32)
        for fs in subs:
            P = motion(case["action"], case.get("variant"), fs, N)
            place = (cx, ground, Hp, P["facing"], z, ax, ay)
            acc += render_fig(fig, P, fs / 24.0, place, W, H)
        frames[i] = acc / len(subs)
        P = motion(case["action"], case.get("variant"), i, N)
        geo.append((cx + P["dx"] * Hp, ground, Hp, z, ax, ay, P["air"] + max(0, -P["dy"]) * 3))
    return frames, geo


def quantize(pm):
    a = np.clip(pm[..., 3], 0, 1)
    rgb = np.where(a[..., None] > 1e-6, pm[..., :3] / np.maximum(a, 1e-6)[..., None], 0)
    a8 = np.round(a * 255).astype(np.uint8)
    rgb8 = np.clip(np.round(rgb), 0, 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.concatenate([rgb8, a8[..., None]], -1)


def backdrop(case, i, N, rng, static_grain, yy, vig):
    c0 = np.array(case["canvas"], np.float32)
    H, W = yy.shape
    mode = case["screen"]
    if mode == "steady":
        bg = np.broadcast_to(c0, (H, W, 3)).copy()
        sig = 1.0
    elif mode == "drift":
        bg = np.broadcast_to(c0 + np.array(case["drift"], np.float32) * (i / (N - 1)), (H, W, 3)).copy()
        sig = 1.5
    elif mode == "pulse":
        bg = np.broadcast_to(c0 * (1 + 0.10 * math.sin(2 * math.pi * i / 5.0)), (H, W, 3)).copy()
        sig = 1.5
    else:  # settle
        mean = c0.mean()
        tgt = 0.80 * (0.72 * c0 + 0.28 * mean)
        tgt_im = tgt[None, None, :] * (1.07 - 0.14 * yy)[..., None] * vig[..., None] + static_grain * 3.0
        b = sstep(i / case.get("settle", 4))
        bg = (1 - b) * c0[None, None, :] + b * tgt_im
        sig = 2.0
    bg += rng.normal(0, sig, (H, W, 3)).astype(np.float32)
    return bg


def shadow_map(g, W, H):
    cx, gy, Hp, z, ax, ay, air = g
    sx, sy = ax + z * (cx - ax), ay + z * (gy - ay)
    m = np.zeros((H, W), np.float32)
    if sy > H + 5:
        return m
    cv2.ellipse(m, (int(sx * 8), int(sy * 8)), (int(0.24 * Hp * z * 8), int(0.035 * Hp * z * 8)), 0, 0, 360, 1.0, -1,
                cv2.LINE_AA, 3)
    m = cv2.GaussianBlur(m, (0, 0), max(2.0, 0.02 * Hp))
    return m * 0.38 / (1 + 4 * air)


def make_case(case, out):
    t0 = time.time()
    W, H = case["size"]
    N = case["n"]
    pm, geo = truth_for(case)
    truth = quantize(pm)
    del pm
    if case.get("edge_gap"):
        cols = np.nonzero((truth[..., 3] > 0).any(axis=(0, 1)))[0]
        sh = (W - 1 - case["edge_gap"]) - cols.max()
        truth = np.roll(truth, sh, axis=2)
        if sh > 0:
            truth[:, :, :sh] = 0
        else:
            truth[:, :, sh:] = 0
        geo = [(g[0] + sh,) + tuple(g[1:]) for g in geo]
        cols = np.nonzero((truth[..., 3] > 0).any(axis=(0, 1)))[0]
        gap = W - 1 - cols.max()
        assert 6 <= gap <= 10, gap
    if len(geo[0]) == 6:
        geo = [g + (0.0,) for g in geo]
    al = truth[..., 3] > 0
    m = 6
    edge = al[:, :m].any() or al[:, -m:].any() or al[:, :, :m].any() or al[:, :, -m:].any()
    if case.get("cropped"):
        assert al[11:, -1, :].any(axis=1).all(), "cropped case must cut the legs after frame 10"
        assert not al[:7, -m:].any() and not al[:, :, :m].any() and not al[:, :, -m:].any() and not al[:, :m].any()
    elif edge:
        raise SystemExit(f"{case['name']}: character within {m} px of the frame edge "
                         f"(t{al[:, :m].any()} b{al[:, -m:].any()} l{al[:, :, :m].any()} r{al[:, :, -m:].any()})")
    hs = [np.nonzero(al[i].any(1))[0] for i in range(N)]
    hh = max(h.max() - h.min() + 1 for h in hs if len(h))
    assert 0.35 * H <= hh <= 0.8 * H or case.get("cropped"), (case["name"], hh, H)

    rng = np.random.default_rng(sum(map(ord, case["name"])) * 7919)
    yy = np.linspace(0, 1, H, dtype=np.float32)[:, None] * np.ones((1, W), np.float32)
    xx = np.linspace(-1, 1, W, dtype=np.float32)[None, :]
    vig = 1 - 0.2 * (xx ** 2 + ((yy * 2 - 1)) ** 2) / 2
    grain = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 0.8)[..., None]

    out.mkdir(parents=True, exist_ok=True)
    Image.fromarray(truth[0], "RGBA").save(out / "portrait.png")
    np.savez_compressed(out / "truth.npz", rgba=truth)
    (out / "case.json").write_text(json.dumps({"action": case["action"], "expect_flags": case["flags"]}) + "\n")

    ws, fall = case["wrap"]
    c0 = np.array(case["canvas"], np.float32)
    cont = av.open(str(out / "clip.mp4"), "w")
    st = cont.add_stream("libx264", rate=24)
    st.width, st.height, st.pix_fmt = W, H, "yuv420p"
    st.options = {"crf": str(case["crf"]), "preset": "veryfast", "threads": "1", "x264-params": "mbtree=0"}
    prev = None
    for i in range(N):
        a = truth[i, ..., 3:].astype(np.float32) / 255.0
        fg = truth[i, ..., :3].astype(np.float32)
        if i == 0:
            img = a * fg + (1 - a) * c0
        else:
            bg = backdrop(case, i, N, rng, grain, yy, vig)
            bg *= (1 - shadow_map(geo[i], W, H))[..., None]
            inside = (a[..., 0] > 0.5).astype(np.uint8)
            d = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
            w = np.where(inside > 0, ws * np.exp(-np.maximum(d - 0.5, 0) / (fall / 2.3)), ws)[..., None]
            col = fg * (1 - w) + bg * w
            img = a * col + (1 - a) * bg
            if case.get("smear") and prev is not None:
                raw = img
                img = (1 - case["smear"]) * img + case["smear"] * prev
                prev = raw
            else:
                prev = img
            img = img + rng.normal(0, 0.8, img.shape).astype(np.float32)
        if i == 0:
            prev = img
        fr = av.VideoFrame.from_ndarray(np.clip(np.round(img), 0, 255).astype(np.uint8), format="rgb24")
        for pk in st.encode(fr):
            cont.mux(pk)
    for pk in st.encode():
        cont.mux(pk)
    cont.close()
    print(f"{case['name']:26s} {case['action']:6s} {W}x{H} {N}f  {time.time() - t0:.1f}s", flush=True)


def main():
    sub = sys.argv[1] if len(sys.argv) > 1 else ""
    t0 = time.time()
    for case in CASES:
        if sub in case["name"]:
            make_case(case, OUT / case["name"])
    print(f"done in {time.time() - t0:.1f}s -> {OUT}")


if __name__ == "__main__":
    main()
