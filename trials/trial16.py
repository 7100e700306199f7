#!/usr/bin/env python
"""Trial 16: green-screen clips with the artefacts real image-to-video footage has and
earlier trial generators did not model (sharpening halos, upscaled low-res renders,
defocus, camera micro-motion, exposure pumping, texture shimmer, a green grade, blocky
compression), each with the character's exact truth.

    .venv/bin/python trials/trial16.py [NAME ...]     # all 16 cases, or those whose name
                                                     # contains one of NAME
    TRIAL_OUT=DIR .venv/bin/python trials/trial16.py  # elsewhere than trials/_out/trial16

Written without reading the project's fixtures, tests, nodes or docs: only the case-folder
format of benchmarks/trials.py.  Each case folder holds clip.mp4 (H.264 yuv420p, one x264
thread, mbtree=0: the same bytes every run), portrait.png (the unspilled rest pose the
user gave the model), truth.npz (`rgba`, uint8 (N, H, W, 4), straight RGBA per frame) and
case.json ({"action", "notes"}).

The world model
===============
Character.  A procedural 2D side-view rig: hip root, torso, neck, head (eye, hair cap,
fringe), near and far arm (upper arm, forearm, hand), near and far leg (thigh, shin,
boot, foot), hair strands (chains of tapered capsules down to ~1 px wide), optional cape,
scarf, robe, hood / witch hat / helmet with plume, and a weapon (sword, katana, axe,
staff, dagger, mace, or fists).  Parts are analytic shapes (tapered capsules, ellipses,
polygons) rasterised with exact-ish area coverage (signed distance, or 4x4 supersampling
for polygons), so edges are anti-aliased the way a rendered image is, and drawn in
painter's order into a premultiplied RGBA layer.  Styles: flat, cel (two tones), shaded
(Lambert + metal highlight), textured (shaded x a root-attached cloth/stone noise), ink
(cel + dark inner outline on every part) and pixel art (hard coverage at 1/4 scale, a
1-px dark silhouette outline, nearest-neighbour upscale).  Far-side limbs are darker.

Motion.  Every action starts at the rest pose of the portrait (as an image-to-video model
starts from its input image) and blends into the action within 0.3 s.  idle = breathing
and sway; walk / run = leg and arm cycles, knee bend, lean, bob (the lowest foot is
planted on the floor line, so the body rises and falls by itself; run has a flight
phase); attack = key-framed wind-up, a ~0.1 s strike and follow-through (slash with a
weapon or a punch); skill = arms raised, a glowing orb grows at the staff / hand, pulses,
is thrown and fades; hurt = two hits, each a recoil, a shake and a short white/red flash.
Hair, scarf and cape trail with speed and sway with time.
Motion blur: each frame is the average, in premultiplied RGBA, of sub-frame renders over
a 180-degree shutter (90 for the pixel-art case; as many sub-frames as the fastest
joint needs, up to 16).  That
average IS the truth: a blurred sword is part-transparent in the truth too.

Screen.  The key is MiniMax H3's green (0,177,64) or a near variant the model drifted to,
three cases on other greens and one on blue.  The backdrop: the key colour x a vertical
and horizontal lighting gradient x slow cloth blotches x a lens vignette, a cyclorama
floor a shade darker below the floor line, and a contact shadow (a broad soft ellipse and
a tight one under each foot, weaker as the foot lifts).  The character is composited
over it; then light wrap (the backdrop's colour bleeding 15-35 % into the character's
outer 2-6 px) and per-frame grain.  None of these is in the truth: they are the screen,
its lighting and the sensor, not the character.

Artefacts, one or two per case, and what the truth is for each:
 1 sharpen   An unsharp mask (radius 1-2 px, amount 0.3-0.8) over the whole final frame,
             as video models' post-processors and upscalers do: a bright green ring
             outside dark edges, an overshoot inside.  NOT in the truth (the character's
             true look is the unsharpened one; the ring is on the screen).
 2 upscale   Everything (character, screen, shadow, wrap, grain) is made at 0.5-0.75 of
             the output size and resized with bicubic or Lanczos.  IN the truth: the truth
             is the premultiplied low-res layer resized the same way, alpha clipped to
             0..1 and colour to 0..alpha (this is how the character really looks).
 3 defocus   A 0.8-1.5 px Gaussian over the frame (after any upscale).  IN the truth (the
             premultiplied layer blurred the same way): the character really is soft.
 4 camera    The whole scene (character, screen gradient, blotches, floor and shadow)
             drifts / shakes a few px, sub-pixel; the vignette (the lens) stays.  IN the
             truth as the character's position: the truth is where the character is.
 5 pumping   The screen's brightness (+-5-6 %) and hue (towards a yellower or bluer
             green) drift slowly, and the character's exposure follows the brightness.
             NOT in the truth (the character's own colour does not change).
 6 shimmer   Per-frame low-frequency + fine noise in the character's colours (the model
             re-imagines the texture every frame).  IN the truth: it is the character.
 7 greengrade A faint global green cast on the character (mixed 3-6 % toward the key
             colour, spill from the screen).  NOT in the truth.
 8 crf28     One small case (448x448) encoded at CRF 28: blocky.  Compression is never in
             the truth.

Truth check.  For every frame the script rebuilds the frame from the uint8 truth over the
clean backdrop (the backdrop passed through the same upscale / defocus) and compares it
with the clean composite (truth layer over the backdrop before exposure, spill, wrap,
grain and sharpening): the largest difference must stay within a few levels (it prints
the max and the 99.9th percentile).  It also prints how far the frame fed to the
encoder is from that reconstruction in the deep interior (the artefacts' size), the mean
true-alpha area, and the count of tiny isolated alpha islands (should be 0).
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
import zlib
from multiprocessing import Pool
from pathlib import Path

import av
import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT") or HERE / "_out" / "trial16")

H3 = (0, 177, 64)
LIGHT = np.array([-0.45, -0.55, 0.70])
LIGHT /= np.linalg.norm(LIGHT)
HALFV = LIGHT + np.array([0.0, 0.0, 1.0])
HALFV /= np.linalg.norm(HALFV)
FAR = 0.78           # far-side limbs are this much darker
TEX_STRENGTH = {"cloth": 1.0, "stone": 1.0, "hair": 0.7, "metal": 0.5, "skin": 0.35, "wood": 1.0}


def smooth(e0, e1, x):
    """Smoothstep from e0 to e1."""
    t = min(max((x - e0) / (e1 - e0), 0.0), 1.0)
    return t * t * (3 - 2 * t)


def dirf(th, f):
    """Unit vector at angle th from straight down, positive = towards facing f (+1 right)."""
    return np.array([f * math.sin(th), math.cos(th)])


def value_noise(rng, h, w, cell, octaves=2):
    """Smooth noise in about [-1, 1], features ~cell px, as a float32 (h, w)."""
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
        amp *= 0.5
        cell = max(cell / 2.5, 1.0)
    return out / tot


# ---------------------------------------------------------------------------------------
# Rasteriser: analytic shapes into a premultiplied RGBA layer (rgb 0..255 x alpha, a 0..1)
# ---------------------------------------------------------------------------------------
class Canvas:
    def __init__(self, h, w, style, ink=(18, 16, 22), ink_w=1.6, tex=None, hard=False):
        self.h, self.w = h, w
        self.P = np.zeros((h, w, 4), np.float32)
        self.style = style
        self.ink = np.array(ink, np.float32)
        self.ink_w = ink_w
        self.tex = tex            # texture (Th, Tw) around 1.0, or None
        self.tex_off = (0, 0)     # texture index = pixel + offset (root-attached)
        self.hard = hard          # pixel art: coverage thresholded at 0.5

    def _grid(self, x0, y0, x1, y1):
        ix0, iy0 = max(int(math.floor(x0)) - 1, 0), max(int(math.floor(y0)) - 1, 0)
        ix1, iy1 = min(int(math.ceil(x1)) + 2, self.w), min(int(math.ceil(y1)) + 2, self.h)
        if ix0 >= ix1 or iy0 >= iy1:
            return None
        X = np.arange(ix0, ix1, dtype=np.float32)[None, :] + 0.5
        Y = np.arange(iy0, iy1, dtype=np.float32)[:, None] + 0.5
        return ix0, iy0, X, Y

    def _color(self, base, n, edge, mat, far, X, Y, shape):
        base = np.asarray(base, np.float32) * (FAR if far else 1.0)
        st = self.style
        if n is None:   # polygons: a gentle gradient towards the light
            ext = max(shape) + 1.0
            cx, cy = X.mean(), Y.mean()
            lam = 0.62 + 0.35 * ((X - cx) * LIGHT[0] + (Y - cy) * LIGHT[1]) / ext
            lam = np.broadcast_to(lam, shape)
        else:
            nx, ny, nz = n
            lam = nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]
        if st == "flat":
            k = np.ones(shape, np.float32)
        elif st in ("cel", "ink", "pixel"):
            k = 0.74 + 0.26 * np.clip((lam - 0.32) / 0.06 + 0.5, 0, 1)
        else:
            k = 0.50 + 0.62 * np.clip(lam, 0, 1)
        col = base[None, None, :] * k[..., None]
        if mat == "metal" and st != "flat":
            if n is not None:
                sp = np.clip(n[0] * HALFV[0] + n[1] * HALFV[1] + n[2] * HALFV[2], 0, 1) ** 22
            else:
                sp = np.clip((lam - 0.75) / 0.15, 0, 1)
            if st in ("cel", "ink", "pixel"):
                sp = (sp > 0.45).astype(np.float32) * 0.8
            col = col + (235 * (FAR if far else 1.0)) * sp[..., None]
        if self.tex is not None:
            s = TEX_STRENGTH.get(mat, 0.8)
            yi = np.clip((Y - 0.5).astype(np.int32) + self.tex_off[1], 0, self.tex.shape[0] - 1)
            xi = np.clip((X - 0.5).astype(np.int32) + self.tex_off[0], 0, self.tex.shape[1] - 1)
            col = col * (1 + s * (self.tex[yi, xi] - 1))[..., None]
        if st == "ink" and edge is not None:
            ti = np.clip(self.ink_w - edge + 0.5, 0, 1)[..., None]
            col = col * (1 - ti) + self.ink * ti
        return np.clip(col, 0, 255)

    def _paint(self, ix0, iy0, cov, col):
        h, w = cov.shape
        if self.hard:
            cov = (cov >= 0.5).astype(np.float32)
        reg = self.P[iy0:iy0 + h, ix0:ix0 + w]
        c = cov[..., None]
        reg[..., :3] = col * c + reg[..., :3] * (1 - c)
        reg[..., 3] = cov + reg[..., 3] * (1 - cov)

    def capsule(self, a, b, r0, r1, color, mat="cloth", far=False, alpha=1.0):
        """Tapered capsule from a (radius r0) to b (radius r1)."""
        a, b = np.asarray(a, float), np.asarray(b, float)
        rm = max(r0, r1)
        g = self._grid(min(a[0], b[0]) - rm, min(a[1], b[1]) - rm,
                       max(a[0], b[0]) + rm, max(a[1], b[1]) + rm)
        if g is None:
            return
        ix0, iy0, X, Y = g
        d = b - a
        L2 = max(float(d @ d), 1e-9)
        px, py = X - a[0], Y - a[1]
        t = np.clip((px * d[0] + py * d[1]) / L2, 0, 1)
        cx, cy = px - t * d[0], py - t * d[1]
        dist = np.sqrt(cx * cx + cy * cy)
        r = r0 + (r1 - r0) * t
        cov = np.clip(r - dist + 0.5, 0, 1) * alpha
        if not cov.any():
            return
        rr = np.maximum(r, 1e-3)
        nx, ny = np.clip(cx / rr, -1, 1), np.clip(cy / rr, -1, 1)
        nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0, 1))
        col = self._color(color, (nx, ny, nz), r - dist, mat, far, X, Y, cov.shape)
        self._paint(ix0, iy0, cov, col)

    def ellipse(self, c, rx, ry, ang, color, mat="cloth", far=False, alpha=1.0):
        c = np.asarray(c, float)
        rm = max(rx, ry)
        g = self._grid(c[0] - rm, c[1] - rm, c[0] + rm, c[1] + rm)
        if g is None:
            return
        ix0, iy0, X, Y = g
        ca, sa = math.cos(ang), math.sin(ang)
        dx, dy = X - c[0], Y - c[1]
        xl, yl = ca * dx + sa * dy, -sa * dx + ca * dy
        qx, qy = xl / rx, yl / ry
        rho = np.sqrt(qx * qx + qy * qy) + 1e-6
        gx, gy = xl / (rx * rx * rho), yl / (ry * ry * rho)
        sd = (rho - 1) / np.sqrt(gx * gx + gy * gy + 1e-9)
        cov = np.clip(0.5 - sd, 0, 1) * alpha
        if not cov.any():
            return
        s = np.minimum(1.0, 1.0 / rho)
        qx, qy = qx * s, qy * s
        nx, ny = ca * qx - sa * qy, sa * qx + ca * qy
        nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0, 1))
        col = self._color(color, (nx, ny, nz), -sd, mat, far, X, Y, cov.shape)
        self._paint(ix0, iy0, cov, col)

    def poly(self, pts, color, mat="cloth", far=False, alpha=1.0):
        pts = np.asarray(pts, float)
        lo, hi = pts.min(0), pts.max(0)
        g = self._grid(lo[0], lo[1], hi[0], hi[1])
        if g is None:
            return
        ix0, iy0, X, Y = g
        h, w = Y.shape[0], X.shape[1]
        SS = 4
        m = np.zeros((h * SS, w * SS), np.uint8)
        q = np.round(((pts - [ix0, iy0]) * SS - 0.5) * 16).astype(np.int32)
        cv2.fillPoly(m, [q], 255, lineType=cv2.LINE_8, shift=4)
        cov = cv2.resize(m.astype(np.float32) / 255, (w, h), interpolation=cv2.INTER_AREA) * alpha
        if not cov.any():
            return
        edge = None
        if self.style == "ink":
            dt = cv2.distanceTransform(m, cv2.DIST_L2, 3)
            edge = cv2.resize(dt, (w, h), interpolation=cv2.INTER_AREA) / SS
        col = self._color(color, None, edge, mat, far, X, Y, cov.shape)
        self._paint(ix0, iy0, cov, col)

    def glow(self, c, r, core, rim, alpha=1.0):
        """An energy orb: opaque core, soft edge out to 1.6 r; colour white-hot to rim."""
        R = 1.6 * r
        g = self._grid(c[0] - R, c[1] - R, c[0] + R, c[1] + R)
        if g is None or r <= 0.2:
            return
        ix0, iy0, X, Y = g
        d = np.sqrt((X - c[0]) ** 2 + (Y - c[1]) ** 2)
        cov = np.clip((R - d) / (R - 0.7 * r), 0, 1) ** 1.5 * alpha
        m = np.clip(d / R, 0, 1)[..., None]
        col = np.asarray(core, np.float32) * (1 - m) + np.asarray(rim, np.float32) * m
        self._paint(ix0, iy0, cov, col)


# ---------------------------------------------------------------------------------------
# The rig
# ---------------------------------------------------------------------------------------
PROPS = {   # lengths in units of the character's height
    "normal": dict(torso=.28, neck=.03, head_r=.085, ua=.15, fa=.14, th=.22, sh=.21,
                   foot=.07, arm_r=.026, leg_r=.036, torso_r=(.062, .072), hand_r=.026),
    "chibi": dict(torso=.22, neck=.02, head_r=.13, ua=.11, fa=.10, th=.15, sh=.14,
                  foot=.06, arm_r=.03, leg_r=.04, torso_r=(.07, .075), hand_r=.032),
    "heavy": dict(torso=.30, neck=.025, head_r=.075, ua=.16, fa=.16, th=.20, sh=.19,
                  foot=.08, arm_r=.045, leg_r=.05, torso_r=(.095, .12), hand_r=.05),
}

REST = dict(lean=0.03, head=0.0, sh_n=0.15, el_n=0.35, sh_f=-0.1, el_f=0.3, hp_n=0.08,
            kn_n=0.08, hp_f=-0.08, kn_f=0.05, grip=1.6, dx=0.0, dy=0.0, speed=0.0, lift=0.0)

GRIP_REST = {   # (shoulder, elbow, grip) of the near arm at rest per weapon
    "sword": (0.35, 1.0, 1.6), "katana": (0.35, 1.0, 1.6), "axe": (0.3, 1.1, 1.4),
    "staff": (0.2, 0.9, 1.9), "dagger": (0.3, 1.2, 0.3), "mace": (0.3, 1.1, 1.5),
    None: (0.15, 0.35, 0.0),
}


def rest_pose(spec):
    p = dict(REST)
    p["sh_n"], p["el_n"], p["grip"] = GRIP_REST[spec.get("weapon")]
    return p


def nominal_height(pr):
    return pr["torso"] + pr["neck"] + 2 * pr["head_r"] + pr["th"] + pr["sh"] + pr["leg_r"] * 0.7


def skeleton(spec, p, unit):
    """Joint positions with the hip at (0, 0), and the lowest foot point's y."""
    f = spec["facing"]
    pr = PROPS[spec["prop"]]
    u = unit
    J = {"hip": np.zeros(2)}
    td = dirf(math.pi - p["lean"], f)
    J["neck"] = td * pr["torso"] * u
    J["head"] = J["neck"] + dirf(math.pi - p["lean"] - p["head"], f) * (pr["neck"] + pr["head_r"]) * u
    J["sho"] = J["neck"] - td * 0.035 * u
    J["sho_f"] = J["sho"] + np.array([-f * 0.01 * u, 0])
    for side, sho in (("n", J["sho"]), ("f", J["sho_f"])):
        J["elb_" + side] = sho + dirf(p["sh_" + side], f) * pr["ua"] * u
        J["hand_" + side] = J["elb_" + side] + dirf(p["sh_" + side] + p["el_" + side], f) * pr["fa"] * u
        J["knee_" + side] = dirf(p["hp_" + side], f) * pr["th"] * u
        shin = p["hp_" + side] - p["kn_" + side]
        J["ank_" + side] = J["knee_" + side] + dirf(shin, f) * pr["sh"] * u
        J["toe_" + side] = J["ank_" + side] + dirf(1.45 + 0.35 * shin, f) * pr["foot"] * u
    low = max(J["ank_n"][1], J["toe_n"][1], J["ank_f"][1], J["toe_f"][1]) + pr["leg_r"] * 0.7 * u
    J["wdir"] = p["sh_n"] + p["el_n"] + p["grip"]
    return J, low


def strand(cv, anchor, th0, curl, nseg, length, r0, r1, t, phase, amp, freq, speed, lift, f,
           color, mat="hair"):
    """A hair strand / scarf tail: a chain of tapered capsules that sways with time,
    trails backwards with speed and floats up with lift."""
    pts = [np.asarray(anchor, float)]
    for j in range(nseg):
        k = (j + 1) / nseg
        th = th0 + curl * j + amp * k * math.sin(2 * math.pi * freq * t - 0.7 * j + phase)
        back = -math.pi / 2 if th < math.pi / 2 else 1.5 * math.pi
        th += min(0.85, speed * 0.7 * k) * (back - th)
        up = -math.pi if th < math.pi / 2 else math.pi
        th += min(0.6, lift * 0.5 * k) * (up - th)
        pts.append(pts[-1] + dirf(th, f) * length / nseg)
    for j in range(nseg):
        ra = r0 + (r1 - r0) * j / nseg
        rb = r0 + (r1 - r0) * (j + 1) / nseg
        cv.capsule(pts[j], pts[j + 1], ra, rb, color, mat)
    return pts[-1]


def draw_character(cv, spec, p, t, origin, unit):
    """Draw the character in pose p at time t with its hip at origin; returns key points
    (feet, weapon tip / orb anchor) in canvas px."""
    f = spec["facing"]
    pr = PROPS[spec["prop"]]
    pal = spec["pal"]
    u = unit
    J0, low = skeleton(spec, p, unit)
    J = {k: (v + origin if isinstance(v, np.ndarray) else v) for k, v in J0.items()}
    b = spec.get("build", 1.0)
    ar, lr = pr["arm_r"] * u * b, pr["leg_r"] * u * b
    hr = pr["head_r"] * u
    skin, hair = pal["skin"], pal.get("hair")
    top, bottom, boot = pal["top"], pal["bottom"], pal["boot"]
    glove = pal.get("glove", skin)
    sleeve = pal.get("sleeve", top)
    speed, lift = p["speed"], p["lift"]

    def leg(side, far):
        hip, knee, ank, toe = J["hip"], J["knee_" + side], J["ank_" + side], J["toe_" + side]
        cv.capsule(hip, knee, lr * 1.1, lr * 0.95, bottom, "cloth", far)
        cv.capsule(knee, ank, lr * 0.95, lr * 0.8, bottom, "cloth", far)
        cv.capsule(knee + (ank - knee) * 0.45, ank, lr * 0.98, lr * 0.85, boot, "cloth", far)
        cv.capsule(ank, toe, lr * 0.75, lr * 0.6, boot, "cloth", far)

    def arm(side, far):
        sho, elb, hand = J["sho" if side == "n" else "sho_f"], J["elb_" + side], J["hand_" + side]
        cv.capsule(sho, elb, ar * 1.15, ar, sleeve, "skin" if sleeve is skin else "cloth", far)
        cv.capsule(elb, hand, ar, ar * 0.85, pal.get("forearm", skin), "skin", far)
        cv.ellipse(hand, pr["hand_r"] * u * b, pr["hand_r"] * u * b * 0.9, 0, glove, "skin", far)

    # 1. cape, behind everything
    if "cape" in pal:
        th = -0.12 - 0.75 * min(speed, 1.2) - 0.12 * math.sin(2 * math.pi * 0.9 * t) - 0.3 * lift
        d = dirf(th, f)
        pp = np.array([-d[1], d[0]])
        s0 = J["neck"] + np.array([-f * 0.02 * u, 0.01 * u])
        L = 0.46 * u
        pts = [s0 + pp * 0.04 * u]
        for k in np.linspace(0, 1, 6):
            off = (k - 0.5) * 0.24 * u
            wave = 0.025 * u * math.sin(2 * math.pi * 1.3 * t + 5 * k)
            pts.append(s0 + d * (L + wave) + pp * off * (1 if f > 0 else -1))
        pts.append(s0 - pp * 0.04 * u)
        cv.poly(pts, pal["cape"], "cloth")
    # 2. far leg, far arm
    leg("f", True)
    arm("f", True)
    # 3. back hair, scarf, hood tail
    hc = J["head"]
    if spec.get("hair") in ("long", "pony") and hair is not None:
        n = 5 if spec["hair"] == "long" else 3
        for i in range(n):
            beta = math.radians(80 - 95 * i / max(n - 1, 1))
            anc = hc + hr * 0.8 * np.array([-f * math.cos(beta), -math.sin(beta)])
            ln = spec.get("hair_len", 0.3) * u * (1.0 if spec["hair"] == "long" else (1.1 if i == 1 else 0.7))
            r0 = (0.02 if (spec["hair"] == "long" or i == 1) else 0.012) * u
            strand(cv, anc, -0.25 - 0.08 * i, 0.04, 5, ln, r0, 0.004 * u, t, 1.3 * i,
                   0.12, 0.8, speed, lift, f, hair)
    if "scarf" in pal:
        for i in range(2):
            anc = J["neck"] + np.array([-f * 0.02 * u, 0.0])
            strand(cv, anc, -0.9 - 0.25 * i, 0.05, 6, (0.36 - 0.08 * i) * u, 0.024 * u,
                   0.014 * u, t, 2.0 * i, 0.25, 1.4, speed + 0.2, lift, f, pal["scarf"], "cloth")
    if "hood" in pal:
        tail = [hc + np.array([-f * 0.6 * hr, -0.5 * hr]), hc + np.array([-f * 1.05 * hr, 0.2 * hr]),
                J["neck"] + np.array([-f * 0.9 * hr, 0.7 * hr]), J["neck"] + np.array([0.0, 0.2 * hr])]
        cv.poly(tail, pal["hood"], "cloth")
    # 4. torso, belt, near leg, robe
    td = J["neck"] - J["hip"]
    cv.capsule(J["hip"], J["neck"], pr["torso_r"][0] * u * b, pr["torso_r"][1] * u * b, top, "cloth")
    if "belt" in pal:
        a = J["hip"] + td * 0.16
        cv.capsule(a, a + td * 0.08, pr["torso_r"][0] * u * b * 1.06, pr["torso_r"][0] * u * b * 1.06,
                   pal["belt"], "cloth")
    leg("n", False)
    if "robe" in pal:
        xs = [J[k][0] for k in ("knee_n", "knee_f", "hip")]
        ln = spec.get("robe_len", 0.3) * u
        yb = J["hip"][1] + ln
        w0 = pr["torso_r"][0] * u * b * 1.05
        xl = min(min(xs) - 0.05 * u, J["hip"][0] - 0.12 * u)
        xr = max(max(xs) + 0.05 * u, J["hip"][0] + 0.12 * u)
        wv = 0.012 * u * math.sin(2 * math.pi * 1.1 * t)
        pts = [(J["hip"][0] - w0, J["hip"][1] - 0.05 * u), (J["hip"][0] + w0, J["hip"][1] - 0.05 * u),
               (xr, yb + wv), ((xl + xr) / 2, yb + 0.01 * u - wv), (xl, yb + wv)]
        cv.poly(pts, pal["robe"], "cloth")
    # 5. neck, hair cap, head, face, head gear, spikes / plume
    cv.capsule(J["neck"], hc, 0.028 * u * b, 0.028 * u * b, skin, "skin")
    if hair is not None and spec.get("hair") != "none" and "helmet" not in pal:
        cv.ellipse(hc + np.array([-f * 0.18 * hr, -0.18 * hr]), hr * 1.06, hr * 1.0, 0, hair, "hair")
    if "hood" in pal:
        cv.ellipse(hc + np.array([-f * 0.2 * hr, -0.05 * hr]), hr * 1.16, hr * 1.18, 0, pal["hood"], "cloth")
    cv.ellipse(hc + np.array([f * 0.05 * hr, 0.0]), hr, hr * 1.02, 0, skin, "skin")
    if "helmet" not in pal:
        big = spec["prop"] == "chibi"
        e = hc + np.array([f * 0.5 * hr, -0.05 * hr])
        cv.ellipse(e, hr * (0.13 if big else 0.1), hr * (0.22 if big else 0.16), 0, pal.get("eye", (30, 25, 30)), "skin")
        if hair is not None and spec.get("hair") != "none":
            cv.ellipse(hc + np.array([f * 0.25 * hr, -0.72 * hr]), hr * 0.7, hr * 0.35, -f * 0.25, hair, "hair")
    if "hood" in pal:
        cv.ellipse(hc + np.array([-f * 0.05 * hr, -0.62 * hr]), hr * 1.05, hr * 0.5, 0, pal["hood"], "cloth")
    if "helmet" in pal:
        cv.ellipse(hc + np.array([-f * 0.04 * hr, -0.06 * hr]), hr * 1.1, hr * 1.08, 0, pal["helmet"], "metal")
        cv.capsule(hc + np.array([f * 0.25 * hr, -0.05 * hr]), hc + np.array([f * 0.98 * hr, 0.0]),
                   0.09 * hr, 0.09 * hr, (15, 14, 18), "cloth")
    if "hat" in pal:
        bc = hc + np.array([-f * 0.05 * hr, -0.6 * hr])
        cv.ellipse(bc, hr * 1.75, hr * 0.26, -f * 0.08, pal["hat"], "cloth")
        sway = 0.15 * hr * math.sin(2 * math.pi * 0.7 * t) - f * speed * 0.3 * hr
        cone = [bc + np.array([-0.85 * hr, 0]), bc + np.array([0.85 * hr, 0]),
                bc + np.array([-f * 0.1 * hr + sway * 0.5, -1.4 * hr]),
                bc + np.array([-f * 0.75 * hr + sway, -2.2 * hr]),
                bc + np.array([-f * 0.45 * hr + sway * 0.5, -1.3 * hr])]
        cv.poly(cone, pal["hat"], "cloth")
    if spec.get("hair") == "spiky" and hair is not None:
        for i in range(6):
            th0 = 2.75 + 0.3 * i
            beta = th0 - math.pi
            anc = hc + dirf(th0, f) * hr * 0.75
            strand(cv, anc, th0, 0.12, 2, (0.08 + 0.02 * (i % 2)) * u, 0.022 * u, 0.0015 * u, t,
                   0.9 * i, 0.06, 1.1, speed * 0.3, lift, f, hair)
    if spec.get("hair") == "plume":
        top_ = hc + np.array([-f * 0.1 * hr, -1.0 * hr])
        for i in range(4):
            strand(cv, top_, 3.5 + 0.12 * i, 0.32, 5, (0.2 - 0.02 * i) * u, 0.016 * u, 0.003 * u, t,
                   0.8 * i, 0.15, 0.9, speed, lift, f, pal["plume"])
    # 6. weapon, then the near arm over its grip
    wtip = None
    wp = spec.get("weapon")
    if wp:
        hand = J["hand_n"]
        d = dirf(J["wdir"], f)
        pp = np.array([-d[1], d[0]])
        metal, wood, acc = pal.get("metal", (190, 195, 205)), pal.get("wood", (110, 72, 40)), pal.get("accent", (200, 165, 70))
        if wp in ("sword", "katana", "dagger"):
            L = {"sword": 0.36, "katana": 0.4, "dagger": 0.15}[wp] * u
            hw = {"sword": 0.014, "katana": 0.009, "dagger": 0.012}[wp] * u
            cv.capsule(hand - d * 0.045 * u, hand + d * 0.03 * u, 0.011 * u, 0.011 * u, wood, "wood")
            g0 = hand + d * 0.035 * u
            if wp == "katana":
                cv.ellipse(g0, 0.022 * u, 0.01 * u, math.atan2(d[1], d[0]), acc, "metal")
            else:
                cv.capsule(g0 - pp * 0.045 * u, g0 + pp * 0.045 * u, 0.011 * u, 0.011 * u, acc, "metal")
            base = hand + d * 0.045 * u
            curve = 0.035 * u if wp == "katana" else 0.0
            left, right = [], []
            for s in np.linspace(0, 1, 7):
                c = base + d * L * s * 0.9 + pp * (curve * s * s) * -f
                wdt = hw * (1 - 0.25 * s)
                left.append(c + pp * wdt)
                right.append(c - pp * wdt)
            tip = base + d * L + pp * curve * -f
            cv.poly(left + [tip] + right[::-1], metal, "metal")
            wtip = tip
        elif wp == "axe":
            cv.capsule(hand - d * 0.1 * u, hand + d * 0.4 * u, 0.014 * u, 0.013 * u, wood, "wood")
            h0 = hand + d * 0.3 * u
            sd = -pp * (1 if f > 0 else -1) * -1
            blade = [h0 - d * 0.02 * u, h0 + sd * 0.05 * u - d * 0.06 * u, h0 + sd * 0.13 * u - d * 0.08 * u,
                     h0 + sd * 0.15 * u + d * 0.04 * u, h0 + sd * 0.13 * u + d * 0.14 * u,
                     h0 + sd * 0.05 * u + d * 0.11 * u, h0 + d * 0.08 * u]
            cv.poly(blade, metal, "metal")
            wtip = h0 + sd * 0.14 * u + d * 0.04 * u
        elif wp == "staff":
            top_ = hand + d * 0.45 * u
            cv.capsule(hand - d * 0.4 * u, top_, 0.014 * u, 0.012 * u, wood, "wood")
            cv.ellipse(top_ + d * 0.02 * u, 0.028 * u, 0.028 * u, 0, acc, "metal")
            wtip = top_ + d * 0.09 * u
        elif wp == "mace":
            top_ = hand + d * 0.26 * u
            cv.capsule(hand - d * 0.05 * u, top_, 0.012 * u, 0.012 * u, wood, "wood")
            for k in range(6):
                a = 2 * math.pi * k / 6 + 0.3
                cv.capsule(top_, top_ + np.array([math.cos(a), math.sin(a)]) * 0.07 * u, 0.014 * u,
                           0.003 * u, metal, "metal")
            cv.ellipse(top_, 0.048 * u, 0.048 * u, 0, metal, "metal")
            wtip = top_
    arm("n", False)
    # 7. orb (skill)
    orb_c = None
    if p.get("orb", 0) > 0:
        fly = p.get("orb_fly", -1.0)
        r = 0.055 * u * p["orb"] * (1 + 0.08 * math.sin(2 * math.pi * 3.0 * t))
        a = 1.0
        if fly >= 0:   # thrown: flies forward, swells and fades out
            anchor = np.asarray(p["orb_from"]) * u + origin + np.array([f * 1.5 * u * fly, -0.05 * u * fly])
            r *= 1 + 0.8 * fly
            a = max(0.0, 1 - fly / 0.55)
        else:
            anchor = orb_anchor(spec, p, u) + origin
        if a > 0:
            cv.glow(anchor, r, (250, 252, 255), pal["orb"], a)
        orb_c = anchor
    return dict(feet=[J["ank_n"], J["toe_n"], J["ank_f"], J["toe_f"]], low=low,
                J=J, wtip=wtip, orb=orb_c, hand=J["hand_n"])


# ---------------------------------------------------------------------------------------
# Actions: pose(t) as a dict of angles (radians) and offsets (character heights)
# ---------------------------------------------------------------------------------------
def lerp(a, b, w):
    return {k: a[k] + (b.get(k, a[k]) - a[k]) * w for k in a}


def keyframes(keys, s):
    """Smoothstep interpolation over [(time, pose), ...] at time s."""
    for (s0, p0), (s1, p1) in zip(keys, keys[1:]):
        if s0 <= s <= s1:
            return lerp(p0, p1, smooth(s0, s1, s))
    return dict(keys[-1][1])


def pose_at(spec, action, t, dur):
    rest = rest_pose(spec)
    p = dict(rest)
    pi = math.pi
    if action == "idle":
        b = math.sin(2 * pi * t / 2.2)
        p["lean"] += 0.02 * b
        p["dy"] = -0.006 * (b + 1) / 2
        p["sh_n"] += 0.05 * b
        p["el_n"] += 0.06 * math.sin(2 * pi * t / 2.2 + 0.8)
        p["sh_f"] -= 0.04 * b
        p["head"] += 0.04 * math.sin(2 * pi * t / 2.2 + 1.4)
        p["speed"] = 0.04
    elif action in ("walk", "run"):
        run = action == "run"
        T = 0.64 if run else 1.05
        ph = 2 * pi * t / T
        s, c = math.sin(ph), math.cos(ph)
        A = 0.75 if run else 0.42
        K = 1.3 if run else 0.65
        p["hp_n"], p["hp_f"] = 0.1 + A * s, 0.1 - A * s
        p["kn_n"] = (0.35 if run else 0.12) + K * max(0.0, c) ** 1.2
        p["kn_f"] = (0.35 if run else 0.12) + K * max(0.0, -c) ** 1.2
        armA = (0.9 if run else 0.32) * (0.4 if spec.get("weapon") else 1.0)
        p["sh_n"] = rest["sh_n"] - armA * s + (0.25 if run else 0.0)
        p["sh_f"] = (0.3 if run else -0.05) + (0.9 if run else 0.35) * s
        p["el_n"] = rest["el_n"] + (0.5 if run else 0.1)
        p["el_f"] = 1.4 if run else 0.4
        p["lean"] = 0.25 if run else 0.07
        p["head"] = -0.12 if run else 0.02 * math.sin(2 * ph)
        p["dy"] = -0.025 * max(0.0, math.cos(2 * ph)) if run else 0.0
        p["dx"] = spec.get("travel", 0.0) * t
        p["speed"] = 1.0 if run else 0.35
    elif action == "attack":
        P = spec.get("attack_period", 1.2)
        s = ((t - 0.2) % P) if t >= 0.2 else 0.0
        g = dict(rest)
        if spec.get("weapon"):
            wind = dict(sh_n=3.5, el_n=0.5, grip=1.0, lean=-0.12, head=-0.1, hp_n=0.3, kn_n=0.3,
                        hp_f=-0.3, kn_f=0.1, dx=-0.02, sh_f=-0.6)
            hit = dict(sh_n=1.25, el_n=0.15, grip=0.45, lean=0.3, head=0.1, hp_n=0.55, kn_n=0.5,
                       hp_f=-0.35, kn_f=0.2, dx=0.06, sh_f=0.6)
            fol = dict(sh_n=0.9, el_n=0.35, grip=0.3, lean=0.32, head=0.1, hp_n=0.55, kn_n=0.5,
                       hp_f=-0.35, kn_f=0.2, dx=0.07, sh_f=0.5)
        else:   # a punch
            wind = dict(sh_n=-0.7, el_n=1.9, lean=-0.12, hp_n=0.3, kn_n=0.25, hp_f=-0.3, dx=-0.02,
                        sh_f=0.6, el_f=1.2)
            hit = dict(sh_n=1.55, el_n=0.05, lean=0.25, hp_n=0.5, kn_n=0.45, hp_f=-0.35, dx=0.05,
                       sh_f=-0.4, el_f=1.0)
            fol = dict(sh_n=1.5, el_n=0.1, lean=0.27, hp_n=0.5, kn_n=0.45, hp_f=-0.35, dx=0.055,
                       sh_f=-0.4, el_f=1.0)
        keys = [(0.0, g), (0.3 * P, lerp(g, wind, 1)), (0.4 * P, lerp(g, wind, 1)),
                (0.48 * P, lerp(g, hit, 1)), (0.62 * P, lerp(g, fol, 1)), (P, g)]
        p = keyframes(keys, s)
        p["speed"] = 0.3
    elif action == "skill":
        t_rel = 0.72 * dur
        p = lerp(rest, skill_raise(spec, rest), smooth(0.2, 0.8, t))
        p["dy"] += -0.008 * math.sin(2 * pi * t / 1.1) * smooth(0.2, 0.8, t)
        if t > t_rel:
            p = lerp(p, SKILL_THROW, smooth(t_rel, t_rel + 0.15, t))
        p["speed"] = 0.1
    elif action == "hurt":
        k = 0.0
        sh = 0.0
        for th in (0.4, 1.55):
            tau = t - th
            if tau >= 0:
                kk = smooth(0.0, 0.1, tau) if tau < 0.1 else math.exp(-(tau - 0.1) / 0.35)
                k = max(k, kk)
                sh += 0.006 * math.sin(2 * pi * 22 * tau) * math.exp(-tau / 0.15)
        p["lean"] = rest["lean"] - 0.45 * k
        p["head"] = -0.5 * k
        p["sh_n"] = rest["sh_n"] + 1.0 * k
        p["el_n"] = rest["el_n"] + 0.5 * k
        p["sh_f"] = rest["sh_f"] + 1.3 * k
        p["el_f"] = rest["el_f"] + 0.6 * k
        p["hp_n"] = rest["hp_n"] + 0.35 * k
        p["kn_n"] = rest["kn_n"] + 0.45 * k
        p["hp_f"] = rest["hp_f"] - 0.1 * k
        p["kn_f"] = rest["kn_f"] + 0.3 * k
        p["dx"] = -0.07 * k + sh
        p["speed"] = 0.5 * k
    p = lerp(rest, p, smooth(0.0, 0.3, t)) if action != "hurt" else p
    # non-blended extras
    if action == "skill":
        pp = pose_at_skill_extras(spec, t, dur)
        p.update(pp)
    if action == "hurt":
        fl = 0.0
        for th in (0.4, 1.55):
            tau = t - th
            if tau >= 0:
                fl = max(fl, 0.7 * math.exp(-tau / 0.09))
        p["flash"] = fl
    return p


def pose_at_skill_extras(spec, t, dur):
    """The orb: its size, and once thrown, the time since the throw and where it left
    (relative to the hip, in character units)."""
    t_rel = 0.72 * dur
    out = {"orb": smooth(0.3, 1.2, t), "orb_fly": -1.0}
    if t > t_rel + 0.08:
        out["orb_fly"] = t - t_rel - 0.08
        rest = rest_pose(spec)
        p = lerp(rest, skill_raise(spec, rest), smooth(0.2, 0.8, t_rel + 0.08))
        p = lerp(p, SKILL_THROW, smooth(t_rel, t_rel + 0.15, t_rel + 0.08))
        out["orb_from"] = orb_anchor(spec, p, 1.0)
    return out


def skill_raise(spec, rest):
    """Arms up; a staff is held forward-up (its head, where the orb grows, in front of the
    face), a blade straight up along the forearm."""
    if spec.get("weapon") == "staff":
        return dict(sh_n=1.7, el_n=0.5, grip=0.45, sh_f=2.0, el_f=0.4, lean=-0.06, head=-0.15,
                    dy=-0.025, lift=0.6)
    return dict(sh_n=2.5, el_n=0.35, grip=0.2 if spec.get("weapon") else rest["grip"],
                sh_f=2.0, el_f=0.4, lean=-0.06, head=-0.15, dy=-0.025, lift=0.6)


SKILL_THROW = dict(sh_n=1.6, el_n=0.05, grip=0.1, sh_f=0.3, el_f=0.6, lean=0.15, head=0.0,
                   dy=0.0, lift=0.1, hp_n=0.35, kn_n=0.25, dx=0.03)


def orb_anchor(spec, p, unit):
    """Where the orb sits: above a staff's head, else just past the near hand (hip-relative)."""
    J, _ = skeleton(spec, p, unit)
    f = spec["facing"]
    if spec.get("weapon") == "staff":
        return J["hand_n"] + dirf(J["wdir"], f) * 0.54 * unit
    return J["hand_n"] + dirf(J["wdir"] - p["grip"], f) * 0.07 * unit


# ---------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------
SKIN = (236, 196, 160)
TAN = (196, 146, 104)

CASES = [
    dict(name="c01_idle_darkknight_sharpen", action="idle", size=(512, 512), fps=24, dur=2.5,
         key=H3, crf=20, char_h=0.70, x=0.5, ground=0.88, art=["sharpen"],
         sharpen=(1.5, 0.6),
         spec=dict(style="shaded", prop="normal", facing=1, weapon="sword", hair="plume",
                   pal=dict(skin=(40, 42, 48), top=(38, 40, 46), sleeve=(45, 47, 54), bottom=(34, 35, 40),
                            boot=(26, 26, 30), glove=(30, 31, 36), forearm=(45, 47, 54),
                            helmet=(52, 55, 62), plume=(150, 24, 30), belt=(70, 40, 30),
                            metal=(170, 175, 185), accent=(120, 100, 50), cape=(60, 20, 28))),
         notes="near-black armoured knight (steel 38-55), red plume strands, dark red cape, "
               "sword; shaded; idle breathing. Artefact 1: unsharp mask r=1.5 a=0.6 on the "
               "whole frame (bright green ring outside the dark edges) - not in the truth."),
    dict(name="c02_walk_ranger_green_upscale", action="walk", size=(768, 432), fps=24, dur=2.5,
         key=(2, 175, 66), crf=21, char_h=0.72, x=0.42, ground=0.9, art=["upscale"],
         lowres=(0.625, "cubic"),
         spec=dict(style="textured", prop="normal", facing=1, weapon="dagger", hair="pony",
                   travel=0.12,
                   pal=dict(skin=SKIN, hair=(92, 60, 36), top=(52, 112, 48), bottom=(70, 84, 46),
                            boot=(78, 52, 32), hood=(40, 92, 42), belt=(96, 64, 36),
                            glove=(88, 60, 38), metal=(185, 190, 198))),
         notes="ranger in green tunic, olive trousers and green hood (colours near the key), "
               "textured; walks forward slowly. Artefact 2: rendered at 0.625x and bicubic-"
               "upscaled (480x270 -> 768x432); the truth is the premultiplied layer resized "
               "the same way, alpha clipped to 0..1."),
    dict(name="c03_skill_whitemage_defocus", action="skill", size=(640, 640), fps=16, dur=3.0,
         key=(0, 172, 70), crf=20, char_h=0.52, x=0.4, ground=0.9, art=["defocus"],
         defocus=1.2,
         spec=dict(style="shaded", prop="normal", facing=1, weapon="staff", hair="long",
                   hair_len=0.34, robe_len=0.36,
                   pal=dict(skin=(242, 222, 204), hair=(246, 246, 250), top=(236, 234, 228),
                            bottom=(228, 226, 220), boot=(210, 200, 186), robe=(238, 236, 230),
                            belt=(200, 170, 80), accent=(215, 185, 90), wood=(225, 215, 190),
                            orb=(110, 225, 255))),
         notes="near-white mage (robe 236-240, white hair strands), pale staff, casts a cyan "
               "orb that grows, pulses, is thrown and fades (the orb's soft glow is in the "
               "truth). Artefact 3: whole-frame Gaussian defocus sigma 1.2 px, in the truth."),
    dict(name="c04_run_tealgoblin_camshake", action="run", size=(512, 512), fps=24, dur=2.0,
         key=H3, crf=22, char_h=0.62, x=0.5, ground=0.86, art=["camera"],
         camera=dict(drift=(5.0, -2.0), shake=1.4),
         spec=dict(style="cel", prop="chibi", facing=1, weapon="dagger", hair="spiky",
                   pal=dict(skin=(64, 160, 150), hair=(40, 34, 52), top=(120, 80, 50),
                            bottom=(82, 70, 96), boot=(60, 44, 34), belt=(150, 120, 60),
                            eye=(250, 220, 60), metal=(200, 204, 210), scarf=(190, 60, 40))),
         notes="teal-skinned chibi goblin (skin 64,160,150), spiky dark hair, red scarf tails, "
               "dagger; cel; runs in place with heavy limb motion blur. Artefact 4: handheld "
               "camera, the whole scene drifts (5,-2) px over the clip plus a 1.4 px sub-pixel "
               "shake; the truth moves with the character."),
    dict(name="c05_attack_barbarian_pumping", action="attack", size=(432, 768), fps=24, dur=2.5,
         key=(0, 180, 60), crf=20, char_h=0.55, x=0.42, ground=0.8, art=["pumping"],
         pumping=dict(amp=0.06, period=1.9, alt=(20, 184, 38)),
         spec=dict(style="shaded", prop="heavy", facing=1, weapon="axe", hair="long", build=1.0,
                   hair_len=0.22, attack_period=1.15,
                   pal=dict(skin=TAN, hair=(168, 58, 28), top=(150, 110, 70), sleeve=TAN,
                            bottom=(96, 70, 48), boot=(70, 50, 36), belt=(60, 40, 30),
                            metal=(175, 180, 188), wood=(100, 66, 38))),
         notes="barbarian, tan skin, fur vest, red hair, two-handed axe swings (fast strike, "
               "motion-blurred, part-transparent in the truth); portrait-orientation frame. "
               "Artefact 5: screen brightness +-6 % and hue drifting toward a yellower green, "
               "character exposure follows; not in the truth."),
    dict(name="c06_hurt_pixelhero_crf28", action="hurt", size=(448, 448), fps=16, dur=3.0,
         key=H3, crf=28, char_h=0.6, x=0.5, ground=0.86, art=["crf28"], pixel=4, shutter=0.25,
         spec=dict(style="pixel", prop="chibi", facing=1, weapon="sword", hair="spiky",
                   flash=(255, 255, 255),
                   pal=dict(skin=(248, 200, 160), hair=(250, 210, 60), top=(50, 90, 200),
                            bottom=(40, 50, 120), boot=(110, 60, 30), belt=(120, 80, 40),
                            metal=(200, 210, 220), accent=(230, 180, 40))),
         notes="pixel-art hero (4x nearest-upscaled, hard edges, 1-px dark outline), blue "
               "tunic, yellow spiky hair; hit twice (recoil, shake, white flash in the truth). "
               "Artefact 8: CRF 28 at 448x448, blocky."),
    dict(name="c07_attack_ninja_upscale_sharpen", action="attack", size=(640, 640), fps=24, dur=2.5,
         key=H3, crf=20, char_h=0.62, x=0.4, ground=0.86, art=["upscale", "sharpen"],
         lowres=(0.75, "lanczos"), sharpen=(1.0, 0.5),
         spec=dict(style="ink", prop="normal", facing=1, weapon="katana", hair="none",
                   attack_period=0.95,
                   pal=dict(skin=(28, 28, 34), top=(26, 26, 32), bottom=(24, 24, 30), boot=(20, 20, 24),
                            hood=(30, 30, 36), eye=(230, 230, 235), scarf=(176, 30, 36),
                            belt=(90, 20, 24), metal=(205, 210, 220), accent=(150, 120, 50),
                            wood=(60, 30, 30))),
         notes="near-black ninja (26-34) with black ink outlines, red scarf tails, katana slash "
               "(very fast, strong blur). Artefacts 2+1: rendered at 0.75x and Lanczos-upscaled "
               "(in the truth, alpha clipped), then unsharp mask r=1 a=0.5 (not in the truth)."),
    dict(name="c08_idle_dryad_shimmer_grade", action="idle", size=(512, 512), fps=24, dur=2.5,
         key=H3, crf=19, char_h=0.7, x=0.5, ground=0.88, art=["shimmer", "greengrade"],
         shimmer=4.0, grade=0.04,
         spec=dict(style="textured", prop="normal", facing=-1, hair="long", hair_len=0.36,
                   robe_len=0.3,
                   pal=dict(skin=(118, 168, 96), hair=(66, 132, 58), top=(110, 80, 50),
                            bottom=(96, 70, 44), boot=(80, 58, 38), robe=(104, 76, 48),
                            eye=(240, 200, 60), belt=(70, 120, 60))),
         notes="dryad facing left: green skin (118,168,96) and leaf-green long hair strands "
               "(66,132,58) on the green screen, bark dress; textured; idle. Artefacts 6+7: "
               "texture shimmer (per-frame colour noise ~4 levels, in the truth) and a 4 % "
               "green grade toward the key (not in the truth)."),
    dict(name="c09_walk_monk_chromagreen_grade_cam", action="walk", size=(640, 640), fps=24,
         dur=2.5, key=(24, 236, 40), crf=22, char_h=0.64, x=0.5, ground=0.88,
         art=["greengrade", "camera"], grade=0.05, camera=dict(drift=(-3.0, 1.5), shake=0.6),
         spec=dict(style="flat", prop="normal", facing=1, weapon="staff", hair="none",
                   robe_len=0.24,
                   pal=dict(skin=(232, 180, 130), top=(225, 120, 40), bottom=(200, 100, 35),
                            boot=(90, 60, 40), robe=(230, 126, 44), belt=(150, 40, 30),
                            wood=(120, 80, 40), accent=(200, 170, 60))),
         notes="orange-robed bald monk with a staff, flat colours; walks in place. Other green: "
               "bright chroma green (24,236,40). Artefacts 7+4: 5 % green grade (not in the "
               "truth) and a slow camera drift (-3,1.5) px with 0.6 px shake (in the truth)."),
    dict(name="c10_skill_paladin_720p_upscale", action="skill", size=(1280, 720), fps=16, dur=2.0,
         key=H3, crf=20, char_h=0.7, x=0.4, ground=0.88, art=["upscale"],
         lowres=(0.5, "lanczos"),
         spec=dict(style="shaded", prop="normal", facing=1, weapon="sword", hair="long", hair_len=0.2,
                   pal=dict(skin=SKIN, hair=(236, 200, 110), top=(182, 186, 196), sleeve=(170, 175, 186),
                            bottom=(150, 156, 168), boot=(120, 124, 136), glove=(160, 165, 176),
                            forearm=(175, 180, 190), cape=(40, 70, 160), belt=(130, 90, 50),
                            metal=(210, 214, 222), accent=(220, 180, 70), orb=(255, 206, 90))),
         notes="paladin in silver armour with a blue cape and blond hair raises a sword, a "
               "golden orb grows at the hand and is thrown. 1280x720. Artefact 2: rendered "
               "at 0.5x (640x360) and Lanczos-upscaled; in the truth, alpha clipped."),
    dict(name="c11_run_archer_limegreen_defocus_drift", action="run", size=(512, 512), fps=24,
         dur=2.0, key=(70, 192, 62), crf=21, char_h=0.62, x=0.5, ground=0.87,
         art=["defocus", "pumping"], defocus=0.9,
         pumping=dict(amp=0.05, period=1.5, alt=(50, 196, 96)),
         spec=dict(style="shaded", prop="normal", facing=-1, weapon="dagger", hair="pony",
                   pal=dict(skin=SKIN, hair=(60, 40, 30), top=(120, 70, 130), bottom=(80, 60, 50),
                            boot=(60, 40, 30), belt=(150, 110, 60), cape=(90, 50, 110),
                            metal=(190, 195, 200))),
         notes="archer in purple with a cape, running left in place. Other green: a paler lime "
               "(70,192,62). Artefacts 3+5: defocus sigma 0.9 (in the truth) and screen drift "
               "+-5 % toward a bluer green with exposure following (not in the truth)."),
    dict(name="c12_hurt_witch_shimmer_cam", action="hurt", size=(512, 512), fps=24, dur=2.5,
         key=(0, 170, 72), crf=20, char_h=0.62, x=0.52, ground=0.88, art=["shimmer", "camera"],
         shimmer=3.0, camera=dict(drift=(2.0, 2.5), shake=0.9),
         spec=dict(style="shaded", prop="normal", facing=1, weapon="staff", hair="long",
                   hair_len=0.38, robe_len=0.34, flash=(255, 70, 60),
                   pal=dict(skin=(240, 220, 210), hair=(22, 20, 26), top=(110, 50, 140),
                            bottom=(90, 40, 110), boot=(40, 30, 40), robe=(104, 46, 132),
                            hat=(44, 32, 62), belt=(200, 160, 60), wood=(80, 50, 30),
                            accent=(120, 220, 120))),
         notes="witch in purple with a black pointed hat and long black hair strands, hit "
               "twice (recoil, red flash in the truth). Artefacts 6+4: texture shimmer ~3 "
               "levels (in the truth) and camera drift (2,2.5) px with shake (in the truth)."),
    dict(name="c13_attack_golem_bluescreen_sharpen", action="attack", size=(640, 640), fps=24,
         dur=2.5, key=(0, 71, 187), crf=20, char_h=0.66, x=0.42, ground=0.88, art=["sharpen"],
         sharpen=(2.0, 0.4),
         spec=dict(style="textured", prop="heavy", facing=1, hair="spiky", build=1.2,
                   attack_period=1.2,
                   pal=dict(skin=(122, 116, 104), hair=(90, 200, 220), top=(112, 106, 96),
                            sleeve=(118, 112, 100), bottom=(100, 94, 86), boot=(86, 80, 74),
                            eye=(255, 170, 60))),
         notes="stone golem (grey-brown, textured) with cyan crystal spikes, punches. The one "
               "blue screen (0,71,187). Artefact 1: unsharp mask r=2 a=0.4 (not in the truth)."),
    dict(name="c14_idle_cleric_upscale_pumping", action="idle", size=(768, 432), fps=16, dur=3.0,
         key=H3, crf=21, char_h=0.74, x=0.5, ground=0.9, art=["upscale", "pumping"],
         lowres=(0.5, "cubic"), pumping=dict(amp=0.05, period=2.3, alt=(0, 168, 92)),
         spec=dict(style="cel", prop="normal", facing=-1, weapon="mace", hair="long", hair_len=0.18,
                   robe_len=0.38,
                   pal=dict(skin=(246, 226, 210), hair=(236, 222, 170), top=(242, 242, 238),
                            bottom=(234, 234, 230), boot=(200, 190, 170), robe=(244, 244, 240),
                            belt=(210, 180, 80), metal=(200, 204, 212), wood=(150, 110, 70))),
         notes="near-white cleric (robes 234-244, pale blond hair), mace, cel; idle. Artefacts "
               "2+5: made at 0.5x and bicubic-upscaled (in the truth), screen brightness +-5 % "
               "and hue drifting bluer, exposure following (not in the truth)."),
    dict(name="c15_walk_samurai_ink_sharpen_shimmer", action="walk", size=(640, 640), fps=24,
         dur=2.5, key=(4, 168, 58), crf=23, char_h=0.66, x=0.5, ground=0.88,
         art=["sharpen", "shimmer"], sharpen=(1.0, 0.8), shimmer=3.5,
         spec=dict(style="ink", prop="normal", facing=-1, weapon="katana", hair="pony", ink_w=2.0,
                   pal=dict(skin=SKIN, hair=(20, 18, 22), top=(170, 40, 40), sleeve=(150, 34, 34),
                            bottom=(40, 40, 60), boot=(30, 28, 30), belt=(230, 200, 90),
                            metal=(210, 215, 225), accent=(180, 150, 60), wood=(40, 30, 30))),
         notes="samurai in red armour, black ponytail, katana, heavy 2-px ink outlines; walks "
               "left in place. Key drifted darker (4,168,58). Artefacts 1+6: strong unsharp "
               "mask r=1 a=0.8 (not in the truth) and texture shimmer (in the truth)."),
    dict(name="c16_hurt_elf_emerald_defocus_grade", action="hurt", size=(448, 448), fps=24,
         dur=2.5, key=(0, 196, 104), crf=21, char_h=0.68, x=0.52, ground=0.88,
         art=["defocus", "greengrade"], defocus=1.0, grade=0.03,
         spec=dict(style="cel", prop="normal", facing=-1, weapon="dagger", hair="long", hair_len=0.3,
                   flash=(255, 255, 255),
                   pal=dict(skin=(250, 232, 214), hair=(250, 240, 200), top=(180, 220, 170),
                            bottom=(120, 150, 110), boot=(110, 90, 60), belt=(170, 130, 70),
                            metal=(200, 205, 212))),
         notes="elf in pale green clothes with pale blond long hair, hit twice (white flash "
               "in the truth). Other green: an emerald (0,196,104) the model chose. Artefacts "
               "3+7: defocus sigma 1.0 (in the truth) and a 3 % green grade (not in the truth)."),
]


# ---------------------------------------------------------------------------------------
# Rendering one case
# ---------------------------------------------------------------------------------------
def seed_of(name):
    return zlib.crc32(name.encode())


def make_texture(rng, h, w, cell):
    """A cloth/stone texture around 1.0: blotches, a weave and fine grain."""
    n = 0.09 * value_noise(rng, h, w, cell * 4, 2) + 0.05 * value_noise(rng, h, w, cell, 1)
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    weave = 0.03 * np.sin(2 * np.pi * (xx + yy) / max(cell * 1.3, 2.5))
    grain = 0.03 * rng.standard_normal((h, w)).astype(np.float32)
    return (1.0 + n + weave + grain).astype(np.float32)


class CharRenderer:
    """Draws the character (with motion blur) into a model-space premultiplied layer."""

    def __init__(self, case, mw, mh, s):
        self.case = case
        self.spec = dict(case["spec"], name=case["name"])
        self.spec.setdefault("facing", 1)
        self.mw, self.mh = mw, mh
        self.block = case.get("pixel", 0)
        pr = PROPS[self.spec["prop"]]
        W, H = case["size"]
        self.Hc = case["char_h"] * H * s
        self.unit = self.Hc / nominal_height(pr)
        self.ground = case["ground"] * mh
        self.x0 = case["x"] * mw
        rng = np.random.default_rng(seed_of(case["name"]) + 7)
        self.tex = None
        if self.spec["style"] == "textured":
            self.tex = make_texture(rng, 3 * mh, 3 * mw, max(1.5, 0.012 * self.unit))

    def pose(self, t):
        c = self.case
        return pose_at(self.spec, c["action"], t, c["dur"])

    def origin(self, p, cam):
        """Hip position: planted so the lowest foot touches the floor line."""
        _, low = skeleton(self.spec, p, self.unit)
        return np.array([self.x0 + self.spec["facing"] * p["dx"] * self.unit + cam[0],
                         self.ground - low + p["dy"] * self.unit + cam[1]])

    def points(self, t, cam):
        p = self.pose(t)
        J, _ = skeleton(self.spec, p, self.unit)
        o = self.origin(p, cam)
        f = self.spec["facing"]
        pts = [J[k] + o for k in ("head", "hand_n", "hand_f", "toe_n", "toe_f", "knee_n")]
        pts.append(J["hand_n"] + o + dirf(J["wdir"], f) * 0.4 * self.unit)
        return np.array(pts)

    def render_one(self, t, cam):
        p = self.pose(t)
        o = self.origin(p, cam)
        st = self.spec["style"]
        if self.block:   # pixel art: hard render at 1/block, outline, nearest upscale
            b = self.block
            cv = Canvas(self.mh // b, self.mw // b, st, hard=True)
            ob = np.round(o / b)  # the sprite's grid is whole low-res pixels
            info = draw_character(cv, self.spec, p, t, ob, self.unit / b)
            m = (cv.P[..., 3] > 0.5).astype(np.uint8)
            ring = cv2.dilate(m, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)) & (1 - m)
            cv.P[ring > 0] = [18, 16, 24, 1.0]
            P = cv2.resize(cv.P, (self.mw, self.mh), interpolation=cv2.INTER_NEAREST)
            info = dict(info, feet=[q * b for q in info["feet"]])
            return P, info, ob * b
        cv = Canvas(self.mh, self.mw, st, ink_w=self.spec.get("ink_w", 1.6), tex=self.tex)
        if self.tex is not None:
            cv.tex_off = (int(1.5 * self.mw - round(o[0])), int(1.5 * self.mh - round(o[1])))
        info = draw_character(cv, self.spec, p, t, o, self.unit)
        return cv.P, info, o

    def render(self, t, fps, cam_fn):
        """Average over a 180-degree shutter centred on t, with enough sub-frames that the
        fastest point moves <= ~1.3 px between two of them (capped at 16)."""
        shutter = self.case.get("shutter", 0.5) / fps
        a = self.points(t - shutter / 2, cam_fn(t - shutter / 2))
        b = self.points(t + shutter / 2, cam_fn(t + shutter / 2))
        disp = float(np.max(np.linalg.norm(a - b, axis=1)))
        n = int(min(16, max(1, math.ceil(disp / 1.3))))
        if self.block:
            n = min(n, 6)
        if n == 1:
            P, info, o = self.render_one(t, cam_fn(t))
            return P, info, o, 1
        acc = None
        for k in range(n):
            ts = t - shutter / 2 + shutter * (k + 0.5) / n
            P, info_k, o_k = self.render_one(ts, cam_fn(ts))
            acc = P if acc is None else acc + P
            if k == n // 2:
                info, o = info_k, o_k
        return acc / n, info, o, n


def camera_fn(case, s):
    cam = case.get("camera")
    if not cam:
        return lambda t: (0.0, 0.0)
    dur = case["dur"]
    dx, dy = cam["drift"]
    A = cam["shake"]

    def f(t):   # model-space px: slow drift + two incommensurate shakes
        u = smooth(0, dur, t) if t > 0 else 0.0
        x = dx * u + A * (0.6 * math.sin(2 * math.pi * 2.7 * t + 0.3) + 0.4 * math.sin(2 * math.pi * 5.3 * t + 1.9))
        y = dy * u + A * (0.6 * math.sin(2 * math.pi * 3.1 * t + 1.1) + 0.4 * math.sin(2 * math.pi * 4.6 * t + 0.4))
        return (x * s, y * s)
    return f


def key_at(case, t):
    """Screen colour and exposure factor at t (exposure pumping / hue drift)."""
    K = np.array(case["key"], np.float32)
    pm = case.get("pumping")
    if not pm:
        return K, 1.0
    e = 1 + pm["amp"] * (0.8 * math.sin(2 * math.pi * t / pm["period"] + 0.7)
                         + 0.2 * math.sin(2 * math.pi * t / (0.43 * pm["period"]) + 2.0))
    m = 0.5 + 0.5 * math.sin(2 * math.pi * t / (1.7 * pm["period"]) - 1.2)
    Kt = (K * (1 - m) + np.array(pm["alt"], np.float32) * m) * e
    return np.clip(Kt, 0, 255), e


def resize(img, w, h, how):
    flag = {"cubic": cv2.INTER_CUBIC, "lanczos": cv2.INTER_LANCZOS4}[how]
    return cv2.resize(img, (w, h), interpolation=flag)


def rgb_to_yuv420(rgb):
    """BT.601 limited-range 4:2:0 (what decoders assume for an untagged H.264), done here
    so the bytes never depend on swscale."""
    f = rgb.astype(np.float32) / 255
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + 65.481 * R + 128.553 * G + 24.966 * B
    Cb = 128 - 37.797 * R - 74.203 * G + 112.0 * B
    Cr = 128 + 112.0 * R - 93.786 * G - 18.214 * B
    h, w = Y.shape

    def sub(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    y = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    v = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([y, u.reshape(h // 4, w), v.reshape(h // 4, w)], axis=0)


def straight_truth(P):
    """Premultiplied float layer -> straight uint8 RGBA (alpha clipped 0..1, colour to
    0..alpha, nothing where alpha rounds to 0), and the mask of pixels the clipping or
    the clean-up changed.  Resampling ripples (the second lobe of a bicubic / Lanczos
    kernel) leave islands of alpha 1-3/255 a few px off the body, and a clipped Lanczos
    ring can cut off a lobe of a few px up to ~20/255: those islands, faint and detached,
    are dropped, so the truth has no stray pixels."""
    a0 = P[..., 3]
    a = np.clip(a0, 0, 1)
    rgb = np.clip(P[..., :3], 0, 255 * a[..., None])
    changed = (np.abs(a0 - a) > 0.5 / 255) | (np.abs(P[..., :3] - rgb) > 0.5).any(-1)
    aq = np.round(a * 255).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats((aq > 0).astype(np.uint8), connectivity=8)
    if n > 2:
        peak = np.zeros(n, np.uint8)
        np.maximum.at(peak, lab.ravel(), aq.ravel())
        faint = (peak <= 3) | ((stats[:, cv2.CC_STAT_AREA] <= 6) & (peak <= 24))
        faint[0] = False
        drop = faint[lab]
        aq[drop] = 0
        changed |= drop
    s = rgb / np.maximum(a, 1e-6)[..., None]
    out = np.zeros(P.shape, np.uint8)
    out[..., :3] = np.clip(np.round(s), 0, 255)
    out[..., 3] = aq
    out[aq == 0] = 0
    return out, changed


def render_case(case):
    t0 = time.time()
    cv2.setNumThreads(1)
    name = case["name"]
    W, H = case["size"]
    fps, dur = case["fps"], case["dur"]
    N = int(round(fps * dur))
    s, how = case.get("lowres", (1.0, None))
    mw, mh = int(round(W * s)), int(round(H * s))
    rng = np.random.default_rng(seed_of(name))
    cr = CharRenderer(case, mw, mh, s)
    cam_fn = camera_fn(case, s)

    # Fixed screen features (model space).  Blotches are drawn larger than the frame so
    # the camera can move over them.
    pad = 16
    blotch = 1 + 0.022 * value_noise(rng, mh + 2 * pad, mw + 2 * pad, 0.22 * mh, 2)
    yy = (np.arange(mh, dtype=np.float32)[:, None] + 0.5) / mh
    xx = (np.arange(mw, dtype=np.float32)[None, :] + 0.5) / mw
    vig_s = float(rng.uniform(0.12, 0.24))
    vignette = 1 - vig_s * 2 * ((xx - 0.5) ** 2 + (yy - 0.5) ** 2)
    g_y, g_x = float(rng.uniform(0.08, 0.16)), float(rng.uniform(-0.06, 0.06))
    floor_tone = np.array([rng.uniform(0.88, 0.95), rng.uniform(0.9, 0.95), rng.uniform(0.86, 0.96)], np.float32)
    shadow_s = float(rng.uniform(0.22, 0.34))
    wrap_s = float(rng.uniform(0.15, 0.35))
    wrap_w = float(rng.uniform(2.0, 6.0)) * s     # px in model space
    grain = float(rng.uniform(1.2, 2.2))
    Hc = cr.Hc

    def backdrop(t, cam, feet, lift_px):
        Kt, _ = key_at(case, t)
        X = xx * mw - cam[0]
        Y = yy * mh - cam[1]
        light = (1 - g_y * (Y / mh - 0.4)) * (1 + g_x * (X / mw - 0.5))
        M = np.array([[1, 0, pad - cam[0]], [0, 1, pad - cam[1]]], np.float32)
        bl = cv2.warpAffine(blotch, M, (mw, mh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        fy = cr.ground - 0.015 * mh + cam[1]
        fl = np.clip((yy * mh - fy) / (0.06 * mh), 0, 1)
        fl = fl * fl * (3 - 2 * fl)
        tone = 1 + (floor_tone - 1)[None, None, :] * fl[..., None]
        bg = Kt[None, None, :] * (light * bl * vignette)[..., None] * tone
        # contact shadow: a broad soft one and a tight one under each foot
        gx = cr.ground + cam[1]
        fx = np.mean([q[0] for q in feet])
        sh = shadow_s * np.exp(-(((xx * mw - fx) / (0.26 * Hc)) ** 2 + ((yy * mh - gx) / (0.035 * Hc)) ** 2))
        for q in feet[1::2]:  # the two toes ~ the two feet
            hgt = max(0.0, gx - q[1])
            k = 0.35 * max(0.0, 1 - hgt / (0.08 * Hc))
            if k > 0:
                sh = sh + k * np.exp(-(((xx * mw - q[0]) / (0.06 * Hc)) ** 2 + ((yy * mh - gx) / (0.013 * Hc)) ** 2))
        sh = sh * math.exp(-lift_px / (0.1 * Hc))
        bg = bg * (1 - np.clip(sh, 0, 0.7))[..., None]
        return bg.astype(np.float32)

    def post(img):
        """Output-space steps that are in the truth: upscale, then defocus."""
        if s != 1.0:
            img = resize(img, W, H, how)
        if case.get("defocus"):
            img = cv2.GaussianBlur(img, (0, 0), case["defocus"])
        return img

    OUT.mkdir(parents=True, exist_ok=True)
    folder = OUT / name
    folder.mkdir(parents=True, exist_ok=True)
    truth = np.zeros((N, H, W, 4), np.uint8)
    container = av.open(str(folder / "clip.mp4"), "w")
    stream = container.add_stream("libx264", rate=fps)
    stream.width, stream.height = W, H
    stream.pix_fmt = "yuv420p"
    stream.codec_context.thread_count = 1
    stream.options = {"crf": str(case["crf"]), "preset": "medium", "x264-params": "mbtree=0",
                      "threads": "1"}
    worst, p999s, interior_dev, subs = 0.0, [], [], []
    clipped, clip_worst = [], 0.0
    areas = []
    frng = np.random.default_rng(seed_of(name) + 1)
    for i in range(N):
        t = i / fps
        cam = cam_fn(t)
        P, info, o, nsub = cr.render(t, fps, cam_fn)
        subs.append(nsub)
        a = P[..., 3:4]
        p = cr.pose(t)
        # -- things that ARE the character (truth): hurt flash, texture shimmer
        fl = p.get("flash", 0.0)
        if fl > 0:
            P[..., :3] = P[..., :3] * (1 - fl) + fl * a * np.array(cr.spec.get("flash", (255, 255, 255)), np.float32)
        if case.get("shimmer"):
            amp = case["shimmer"]
            lo = value_noise(frng, mh, mw, max(3.0, 0.04 * Hc), 1)[..., None] * np.array([1.0, 0.9, 1.1], np.float32)
            lo = lo + 0.5 * value_noise(frng, mh, mw, max(2.0, 0.02 * Hc), 1)[..., None] * np.array([0.6, -0.5, 0.4], np.float32)
            fine = 0.4 * frng.standard_normal((mh, mw, 3)).astype(np.float32)
            P[..., :3] = np.clip(P[..., :3] + a * amp * (lo + fine), 0, 255 * a)
        # -- the screen
        lift_px = max(0.0, cr.ground + cam[1] - max(q[1] for q in info["feet"]) - 0.02 * Hc)
        bg = backdrop(t, cam, info["feet"], lift_px)
        clean = P[..., :3] + (1 - a) * bg                # truth over the clean screen
        # -- lighting and screen artefacts (not the truth)
        Kt, e = key_at(case, t)
        Pc = P[..., :3] * e
        if case.get("grade"):
            k = case["grade"]
            Pc = Pc * (1 - k) + k * a * Kt[None, None, :]
        inside = cv2.GaussianBlur(1 - a[..., 0], (0, 0), wrap_w / 2)
        Wt = (wrap_s * np.clip(2 * inside, 0, 1) * a[..., 0])[..., None]
        bgb = cv2.GaussianBlur(bg, (0, 0), 3 * max(s, 0.5))
        Pc = Pc + Wt * (a * bgb - Pc)
        comp = Pc + (1 - a) * bg
        comp += grain * frng.standard_normal((mh, mw, 1)).astype(np.float32)
        comp += 0.7 * grain * frng.standard_normal((mh, mw, 3)).astype(np.float32)
        # -- output space
        comp = post(comp)
        clean = post(clean)
        Pt = post(P)
        bgo = post(bg)
        if case.get("sharpen"):
            r, amt = case["sharpen"]
            comp = comp + amt * (comp - cv2.GaussianBlur(comp, (0, 0), r))
        frame = np.clip(np.round(comp), 0, 255).astype(np.uint8)
        tr, changed = straight_truth(Pt)
        truth[i] = tr
        # -- check: the uint8 truth over the clean screen reproduces the clean composite
        # (except where a resampler's ringing went below 0 / above 1 and was clipped:
        # there the frame has a ring no straight RGBA can hold; counted, not checked)
        aq = tr[..., 3:4].astype(np.float32) / 255
        recon = tr[..., :3].astype(np.float32) * aq + (1 - aq) * bgo
        d = np.abs(recon - np.clip(clean, 0, 255))
        clipped.append(float(changed.mean()))
        if changed.any():
            clip_worst = max(clip_worst, float(d[changed].max()))
            d = d[~changed]
        worst = max(worst, float(d.max()))
        p999s.append(float(np.percentile(d, 99.9)))
        body = tr[..., 3] >= 128
        areas.append(int(body.sum()))
        deep = cv2.erode(body.astype(np.uint8), np.ones((13, 13), np.uint8)) > 0
        if deep.any():
            interior_dev.append(float(np.abs(frame.astype(np.float32) - recon)[deep].mean()))
        vf = av.VideoFrame.from_ndarray(rgb_to_yuv420(frame), format="yuv420p")
        vf.pts = i
        for pkt in stream.encode(vf):
            container.mux(pkt)
    for pkt in stream.encode():
        container.mux(pkt)
    container.close()

    # stray pixels: alpha islands of <= 3 px, and alpha far from the body
    strays = 0
    far_px = 0
    for i in range(0, N, max(1, N // 8)):
        m = (truth[i, ..., 3] > 0).astype(np.uint8)
        nlab, lab, stats, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        strays += int((stats[1:, cv2.CC_STAT_AREA] <= 3).sum())
        body = (truth[i, ..., 3] >= 32).astype(np.uint8)
        near = cv2.dilate(body, np.ones((25, 25), np.uint8))
        far_px += int((m & (1 - near)).sum())
    np.savez_compressed(folder / "truth.npz", rgba=truth)
    write_portrait(case, cr, folder / "portrait.png")
    notes = case["notes"] + (" Common to all cases: backdrop gradient, cloth blotches, vignette, "
                             f"cyclorama floor, contact shadow, light wrap {wrap_s:.2f} over "
                             f"{wrap_w / s:.1f} px, grain {grain:.1f} levels; motion blur "
                             f"({int(case.get('shutter', 0.5) * 360)}-degree shutter, premultiplied "
                             "average) is in the truth.")
    (folder / "case.json").write_text(json.dumps({"action": case["action"], "notes": notes,
                                                  "artefacts": case["art"], "key": list(case["key"]),
                                                  "fps": fps, "crf": case["crf"]}, indent=1))
    ok = worst <= 6 and max(p999s) <= 3 and strays == 0
    line = (f"{name:42s} {N:3d}f {W}x{H} {fps}fps key={tuple(case['key'])} art={'+'.join(case['art']):20s} "
            f"area={np.mean(areas) / (W * H) * 100:5.1f}% ({int(np.mean(areas))}px) "
            f"check max={worst:.1f} p99.9={max(p999s):.2f} interior|frame-truth|={np.mean(interior_dev):.1f} "
            f"clipped={np.mean(clipped) * 100:.2f}%(max {clip_worst:.0f}) subframes<={max(subs)} "
            f"strays={strays} far={far_px} {'OK' if ok else 'CHECK FAILED'} {time.time() - t0:.0f}s")
    return line


def write_portrait(case, cr, path):
    """The unspilled rest pose on transparency, at the portrait's own scale."""
    spec = cr.spec
    S = case.get("portrait_size", 768 if case["size"][1] >= 512 else 640)
    pr = PROPS[spec["prop"]]
    p = rest_pose(spec)
    if spec["style"] == "pixel":
        b = 6
        unit = 0.8 * S / b / nominal_height(pr)
    else:
        b = 1
        unit = 0.78 * S / nominal_height(pr)
    J, low = skeleton(spec, p, unit)
    o = np.array([S / b * 0.5, S / b * 0.92 - low])
    tex = None
    if spec["style"] == "textured":
        tex = make_texture(np.random.default_rng(seed_of(case["name"]) + 9), 3 * S, 3 * S,
                           max(1.5, 0.012 * unit))
    cv = Canvas(S // b, S // b, spec["style"], hard=b > 1, tex=tex,
                ink_w=spec.get("ink_w", 1.6) * unit / cr.unit)
    cv.tex_off = (int(1.5 * S - round(o[0])), int(1.5 * S - round(o[1])))
    draw_character(cv, spec, dict(p, orb=0.0), 0.0, o, unit)
    P = cv.P
    if b > 1:
        m = (P[..., 3] > 0.5).astype(np.uint8)
        ring = cv2.dilate(m, np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)) & (1 - m)
        P[ring > 0] = [18, 16, 24, 1.0]
        P = cv2.resize(P, (S, S), interpolation=cv2.INTER_NEAREST)
    rgba, _ = straight_truth(P)
    cv2.imwrite(str(path), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA))


def main(argv):
    names = argv[1:]
    todo = [c for c in CASES if not names or any(n in c["name"] for n in names)]
    if not todo:
        print("no case matches", names)
        return 2
    t0 = time.time()
    # the 720p case first so the two workers finish together
    todo.sort(key=lambda c: -c["size"][0] * c["size"][1] * c["fps"] * c["dur"])
    with Pool(min(2, len(todo))) as pool:
        lines = pool.map(render_case, todo, chunksize=1)
    order = {c["name"]: i for i, c in enumerate(CASES)}
    for ln in sorted(lines, key=lambda ln: order[ln.split()[0]]):
        print(ln)
    print(f"{len(todo)} cases into {OUT} in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
