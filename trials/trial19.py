#!/usr/bin/env python
"""Trial 19: the character in the clip is not exactly the portrait's colours.

A held-out clip generator for the green-screen sprite pipeline, written without reading the
project's matte, fixtures or other trials.  Each case folder (trials/_out/trial19/<case>/,
or $TRIAL_OUT/<case>/) holds clip.mp4, portrait.png, truth.npz ("rgba", uint8 (N, H, W, 4),
straight alpha) and case.json ({"action", "notes"}).

    .venv/bin/python trials/trial19.py            # all 16 cases
    .venv/bin/python trials/trial19.py c05 beast  # cases whose names contain c05 or beast
    TRIAL_OUT=/tmp/t19 .venv/bin/python trials/trial19.py

World model
-----------
A procedural 2-D puppet (side view) is drawn from antialiased signed-distance shapes
(tapered capsules, ellipses, optionally cut flat, and polygons; coverage is the box-filtered
distance clip(0.5 - d, 0, 1) at each pixel centre), composited part over part in
premultiplied RGBA.  Three rigs: humanoids (knight, mage, rogue, warrior, ninja, ...; with a
sword, staff, axe, dagger, katana or nothing; optional robe, helmet, hood, long hair and
1-3 px hair strands), a four-legged beast (wolf, fox) and a slime.  Five drawing styles:
flat, cel (two tones), shaded (smooth light gradient), textured (fine noise fixed to each
part's local frame, so it moves with the part) and ink-outlined (each part drawn over a
dark copy of itself grown by 1.5-2 px).  Far-side limbs are drawn darker.

The portrait (portrait.png) is the rest pose drawn with the PORTRAIT look, at 1-2x the clip
scale, straight RGBA on a transparent background.  Every action (idle, walk, run, attack,
skill, hurt) starts at exactly that rest pose and blends into its motion within 0.3 s.

Theme: the image-to-video model drifts from its input image.  The CLIP look differs from the
portrait look, one or two of these per case, and the difference IS IN THE TRUTH (it is how the
character really looks in the clip; a perfect matte returns these colours):
  1. white-balance / tint: per-channel gains 0.9-1.1 from frame 1 on, or drifting over the
     clip from neutral (gains interpolated with a smoothstep over the clip's length);
  2. saturation: colours 15-25 % more or less saturated (scaled about Rec.601 luma);
  3. re-lighting: the shading light comes from another direction than in the portrait, with
     a rim highlight on the other side; the shading follows each part's own surface normal
     (capsule cross-section / ellipse normal), so it moves as limbs swing and the body turns;
  4. invented detail: features the portrait lacks (a belt buckle, a highlight stripe down the
     sleeve, a stripe pattern on the tunic, spots on a slime, a different eye colour),
     ~1-5 % of the character; these are drawn inside the silhouette (no change of outline);
  5. softer / more detailed rendering: texture noise in the clip that the flat portrait lacks,
     or a flat-shaded clip of a textured portrait;
  6. near-key parts pushed nearer the key: a green shirt on a green screen made greener, a
     blue tunic on a blue screen made bluer (two cases, the hardest);
  7. a dark character whose darks are lifted into dark grey-blue or dark grey-green (a lift
     added in proportion to how dark each pixel is, below luma 0.35).
The truth is the clip-look render: per-pixel straight colour and coverage, after motion blur.

Screen (NOT in the truth; these belong to the backdrop / camera):
  * the key colour with a linear gradient (+-4-8 %), a vignette (10-25 % at the corners) and a
    low-frequency unevenness (+-2 %);
  * a soft contact shadow (Gaussian ellipse darkening the backdrop 25-40 %) under the feet,
    lighter and smaller when the character is off the ground;
  * light wrap: the local backdrop colour mixed into the character's outer 2-5 px at 15-35 %,
    fading inward (weight = strength * clip(2 (1 - blur(alpha)), 0, 1));
  * per-frame sensor grain (Gaussian, sigma 1-3 code values, part shared across channels);
  * H.264 compression (CRF 20-26, 4:2:0 converted here with BT.601 limited range and 2x2
    chroma averaging; libx264 with one thread and mbtree=0 so the bytes repeat).
Motion blur from a 180-degree shutter (most cases; 5-7 sub-frame renders spread over half a
frame interval, averaged in premultiplied RGBA) IS in the truth: the averaged layer is the
truth, so a fast limb is part-transparent there.

Self-check (run for every case, printed): every frame of the truth, re-composited over the
clean backdrop (with shadow, before wrap, grain and compression), matches the float composite
to within 1.05 code values; the decoded clip has as many frames as the truth and the same size.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT") or HERE / "_out" / "trial19")
LUMA = np.array([0.299, 0.587, 0.114], np.float32)


def D(a):
    """Unit vector at angle a: 0 points straight down, positive turns forward (+x)."""
    return np.array([math.sin(a), math.cos(a)])


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


# ----------------------------------------------------------------------------- shapes
def cap(a, b, r0, r1=None):
    return ("cap", float(a[0]), float(a[1]), float(b[0]), float(b[1]), float(r0),
            float(r0 if r1 is None else r1))


def ell(c, rx, ry, ang=0.0, cut=None):
    return ("ell", float(c[0]), float(c[1]), float(rx), float(ry), float(ang), cut)


def poly(pts):
    return ("poly", np.asarray(pts, np.float64))


def bounds(sh):
    if sh[0] == "cap":
        _, ax, ay, bx, by, r0, r1 = sh
        r = max(r0, r1)
        return min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r
    if sh[0] == "ell":
        _, cx, cy, rx, ry = sh[:5]
        r = max(rx, ry)
        return cx - r, cy - r, cx + r, cy + r
    p = sh[1]
    return p[:, 0].min(), p[:, 1].min(), p[:, 0].max(), p[:, 1].max()


def shifted(sh, dx, dy):
    if sh[0] == "cap":
        return ("cap", sh[1] + dx, sh[2] + dy, sh[3] + dx, sh[4] + dy, sh[5], sh[6])
    if sh[0] == "ell":
        return ("ell", sh[1] + dx, sh[2] + dy) + sh[3:]
    return ("poly", sh[1] + (dx, dy))


def sdf(sh, X, Y):
    """Signed distance (px), approximate unit normal (nx, ny) and part-local coords (u, v)."""
    if sh[0] == "cap":
        _, ax, ay, bx, by, r0, r1 = sh
        px, py = X - ax, Y - ay
        ux, uy = bx - ax, by - ay
        L2 = ux * ux + uy * uy + 1e-6
        h = np.clip((px * ux + py * uy) / L2, 0, 1)
        qx, qy = px - ux * h, py - uy * h
        r = r0 + (r1 - r0) * h
        d = np.sqrt(qx * qx + qy * qy) - r
        inv = 1.0 / np.maximum(r, 0.3)
        L = math.sqrt(L2)
        return d, qx * inv, qy * inv, (px * ux + py * uy) / L, (-px * uy + py * ux) / L
    if sh[0] == "ell":
        _, cx, cy, rx, ry, a, cut = sh
        c, s = math.cos(a), math.sin(a)
        dx, dy = X - cx, Y - cy
        lx, ly = dx * c + dy * s, -dx * s + dy * c
        k0 = np.sqrt((lx / rx) ** 2 + (ly / ry) ** 2)
        k1 = np.sqrt((lx / (rx * rx)) ** 2 + (ly / (ry * ry)) ** 2)
        d = np.where(k0 < 1e-4, -min(rx, ry), k0 * (k0 - 1) / np.maximum(k1, 1e-9))
        if cut is not None:
            d = np.maximum(d, ly - cut)
        nlx, nly = lx / rx, ly / ry
        return d, nlx * c - nly * s, nlx * s + nly * c, lx, ly
    P = sh[1]
    n = len(P)
    d2 = None
    inside = np.zeros(X.shape, bool)
    for i in range(n):
        ax, ay = P[i]
        bx, by = P[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        wx, wy = X - ax, Y - ay
        h = np.clip((wx * ex + wy * ey) / (ex * ex + ey * ey + 1e-9), 0, 1)
        qx, qy = wx - ex * h, wy - ey * h
        dd = qx * qx + qy * qy
        d2 = dd if d2 is None else np.minimum(d2, dd)
        cross = (Y >= ay) != (Y >= by)
        if ey != 0:
            inside ^= cross & (X < ax + (Y - ay) * ex / ey)
    d = np.sqrt(d2) * np.where(inside, -1.0, 1.0)
    cx, cy = P.mean(0)
    ext = max(P[:, 0].max() - P[:, 0].min(), P[:, 1].max() - P[:, 1].min()) / 2 + 1e-6
    a = math.atan2(P[1, 1] - P[0, 1], P[1, 0] - P[0, 0])
    c, s = math.cos(a), math.sin(a)
    wx, wy = X - P[0, 0], Y - P[0, 1]
    return d, (X - cx) / ext, (Y - cy) / ext, wx * c + wy * s, -wx * s + wy * c


# ----------------------------------------------------------------------------- looks
DEFAULT_PAL = dict(eyewhite=(240, 238, 230), iris=(60, 40, 30), metal=(200, 205, 215),
                   blade=(215, 222, 232), grip=(70, 45, 30), wood=(125, 85, 48),
                   gem=(255, 205, 70), buckle=(228, 188, 62), stripe=(250, 238, 190),
                   mouth=(90, 30, 40), shine=(255, 250, 252), nose=(35, 25, 25),
                   belt=(85, 55, 30), boots=(70, 48, 35), pattern=(240, 220, 120))
FLAT_ROLES = {"eyewhite", "iris", "mouth", "shine", "nose", "stripe"}


def waves(seed, n=7):
    r = np.random.default_rng(seed)
    ang = r.uniform(0, math.pi, n)
    f = r.uniform(35, 95, n) * 2 * math.pi
    return np.stack([f * np.cos(ang), f * np.sin(ang), r.uniform(0, 6.3, n),
                     r.uniform(0.5, 1.0, n) / n ** 0.5], 1).astype(np.float32)


def part_colour(part, look, nx, ny, u, v, S, gains):
    role = part["role"]
    base = np.array(look["override"].get(role, look["pal"][role]), np.float32) / 255.0
    base = base * part["dark"]
    h, w = nx.shape
    if role in FLAT_ROLES or look["style"] == "flat":
        c = np.empty((h, w, 3), np.float32)
        c[:] = base
    else:
        Lx, Ly = look["light"]
        ndl = nx * Lx + ny * Ly
        amt = look["amt"]
        if look["style"] == "cel":
            s = (1 - amt) + amt * 1.15 * np.clip((ndl + 0.12) * 5 + 0.5, 0, 1)
        else:
            s = 1 - 0.12 * amt + amt * np.clip(ndl, -1.2, 1.2)
        c = base * s[..., None]
    if look.get("rim") and role not in FLAT_ROLES:
        ramt, (Rx, Ry), rcol = look["rim"]
        rn = np.sqrt(nx * nx + ny * ny) + 1e-6
        m = np.clip((rn - 0.68) / 0.25, 0, 1) * np.clip((nx * Rx + ny * Ry) / rn * 2.0, 0, 1)
        c += (ramt * m)[..., None] * (np.array(rcol, np.float32) / 255.0)
    if look.get("tex") and role not in FLAT_ROLES:
        W8 = look["waves"]
        uu, vv = u / S, v / S
        ph = part["seed"]
        nz = np.zeros_like(uu)
        for fx, fy, p0, a in W8:
            nz += a * np.sin(fx * uu + fy * vv + (p0 + ph))
        c *= (1 + look["tex"] * nz)[..., None]
    pat = look.get("pattern")
    if pat and role in pat["roles"]:
        uu, vv = u / S, v / S
        if pat["kind"] == "stripes":
            m = np.clip((np.sin(2 * math.pi * pat["freq"] * uu) - pat["thr"]) / 0.06, 0, 1)
        else:
            m = np.clip((np.sin(2 * math.pi * pat["freq"] * uu + 0.7)
                         * np.sin(2 * math.pi * pat["freq"] * vv) - pat["thr"]) / 0.06, 0, 1)
        pc = np.array(pat["col"], np.float32) / 255.0
        c = c * (1 - m[..., None]) + pc * m[..., None]
    if look.get("lift"):
        lcol, thr = look["lift"]
        lum = c @ LUMA
        c = c + np.clip(1 - lum / thr, 0, 1)[..., None] * np.array(lcol, np.float32)
    sat = look.get("sat", 1.0)
    if sat != 1.0:
        lum = (c @ LUMA)[..., None]
        c = lum + sat * (c - lum)
    if gains is not None:
        c = c * gains
    return np.clip(c, 0, 1)


def draw(P, A, Xf, Yf, part, look, S, gains):
    sh = part["shape"]
    ink = look.get("ink") if part["ink"] else None
    grow = ink[0] if ink else 0.0
    x0, y0, x1, y1 = bounds(sh)
    H, W = A.shape
    ix0, iy0 = max(int(math.floor(x0 - grow)) - 2, 0), max(int(math.floor(y0 - grow)) - 2, 0)
    ix1, iy1 = min(int(math.ceil(x1 + grow)) + 2, W), min(int(math.ceil(y1 + grow)) + 2, H)
    if ix1 <= ix0 or iy1 <= iy0:
        return
    sl = (slice(iy0, iy1), slice(ix0, ix1))
    d, nx, ny, u, v = sdf(sh, Xf[sl], Yf[sl])
    Ps, As = P[sl], A[sl]
    if ink:
        ao = np.clip(0.5 - (d - grow), 0, 1).astype(np.float32)
        icol = np.array(ink[1], np.float32) / 255.0
        if look.get("lift"):
            lcol, thr = look["lift"]
            icol = icol + max(0.0, 1 - float(icol @ LUMA) / thr) * np.array(lcol, np.float32)
        if look.get("sat", 1.0) != 1.0:
            lum = float(icol @ LUMA)
            icol = lum + look["sat"] * (icol - lum)
        if gains is not None:
            icol = icol * gains
        icol = np.clip(icol, 0, 1)
        Ps *= (1 - ao)[..., None]
        Ps += ao[..., None] * icol
        As *= 1 - ao
        As += ao
    a = np.clip(0.5 - d, 0, 1).astype(np.float32)
    if not a.any():
        return
    col = part_colour(part, look, nx, ny, u, v, S, gains)
    Ps *= (1 - a)[..., None]
    Ps += a[..., None] * col
    As *= 1 - a
    As += a


# ----------------------------------------------------------------------------- rigs
class Parts(list):
    def add(self, shape, role, dark=1.0, ink=True):
        self.append(dict(shape=shape, role=role, dark=dark, ink=ink, seed=0.37 * len(self)))


def build_human(sp, p, S, look):
    parts = Parts()
    b = sp.get("build", 1.0)
    lean = p["lean"]
    hip = np.array([p["dx"] * S, 0.0])
    up = np.array([math.sin(lean), -math.cos(lean)])
    fwd = np.array([math.cos(lean), math.sin(lean)])
    sh = hip + up * 0.29 * S
    legs, arms = {}, {}
    for side in "fn":
        hj = hip + fwd * (0.012 * S if side == "n" else -0.012 * S)
        th = p["hip_" + side]
        kn = hj + D(th) * 0.235 * S
        an = kn + D(th - p["knee_" + side]) * 0.225 * S
        fa = p["foot_" + side]
        heel = an + np.array([-0.02 * S, 0.022 * S])
        toe = heel + np.array([math.cos(fa), -math.sin(fa)]) * 0.09 * S
        legs[side] = (hj, kn, an, heel, toe)
        sj = sh - up * 0.015 * S + fwd * (-0.01 * S if side == "f" else 0.0)
        ua = p["sh_" + side]
        el = sj + D(ua) * 0.17 * S
        fa2 = ua + p["el_" + side]
        wr = el + D(fa2) * 0.16 * S
        arms[side] = (sj, el, wr, ua, fa2)
    ht = lean + p["head"]
    hu = np.array([math.sin(ht), -math.cos(ht)])
    hf = np.array([math.cos(ht), math.sin(ht)])
    nt = sh + up * 0.035 * S
    hc = nt + hu * 0.07 * S + hf * 0.01 * S

    def leg(side):
        hj, kn, an, heel, toe = legs[side]
        dk = 0.8 if side == "f" else 1.0
        parts.add(cap(hj, kn, 0.05 * b * S, 0.04 * b * S), "pants", dk)
        parts.add(cap(kn, an, 0.038 * b * S, 0.03 * b * S), sp.get("shin", "pants"), dk)
        parts.add(cap(heel, toe, 0.027 * S, 0.022 * S), "boots", dk)

    def weapon(wr, w):
        kind = sp.get("weapon")
        dw = D(w)
        pp = np.array([dw[1], -dw[0]])
        if kind in ("sword", "dagger", "katana"):
            L = {"sword": 0.5, "dagger": 0.22, "katana": 0.56}[kind]
            hw = {"sword": 0.02, "dagger": 0.017, "katana": 0.013}[kind] * S
            parts.add(cap(wr - dw * 0.05 * S, wr + dw * 0.05 * S, 0.014 * S), "grip")
            g = wr + dw * 0.055 * S
            gw = 0.045 if kind != "katana" else 0.026
            parts.add(cap(g + pp * gw * S, g - pp * gw * S, 0.013 * S), "metal")
            base = wr + dw * 0.065 * S
            mid = base + dw * (L - 0.07) * S
            tip = base + dw * L * S
            parts.add(poly([base + pp * hw, mid + pp * hw, tip, mid - pp * hw, base - pp * hw]),
                      "blade")
        elif kind == "staff":
            parts.add(cap(wr - dw * 0.3 * S, wr + dw * 0.42 * S, 0.016 * S), "wood")
            parts.add(ell(wr + dw * 0.47 * S, 0.045 * S, 0.045 * S), "gem")
        elif kind == "axe":
            parts.add(cap(wr - dw * 0.08 * S, wr + dw * 0.42 * S, 0.017 * S), "wood")
            h, bl = wr + dw * 0.36 * S, -pp
            parts.add(poly([h - dw * 0.03 * S + bl * 0.012 * S, h + dw * 0.05 * S + bl * 0.012 * S,
                            h + dw * 0.1 * S + bl * 0.13 * S, h - dw * 0.1 * S + bl * 0.13 * S]),
                      "metal")

    def arm(side):
        sj, el, wr, ua, fa = arms[side]
        dk = 0.8 if side == "f" else 1.0
        parts.add(cap(sj, el, 0.036 * b * S, 0.03 * b * S), "sleeve", dk)
        if side == "n" and "stripe" in look["extras"]:
            parts.add(cap(sj + D(ua) * 0.035 * S, el - D(ua) * 0.012 * S, 0.0095 * S), "stripe",
                      ink=False)
        parts.add(cap(el, wr, 0.03 * b * S, 0.025 * b * S), "forearm", dk)
        if side == "n" and sp.get("weapon"):
            weapon(wr, fa + sp["wpn_rest"] + p["wpn"])
        parts.add(ell(wr + D(fa) * 0.018 * S, 0.028 * S, 0.03 * S, -fa), "skin", dk)

    arm("f")
    if sp.get("long_hair"):
        parts.add(cap(hc - hf * 0.035 * S + hu * 0.02 * S, hc - hf * 0.075 * S - hu * 0.21 * S,
                      0.062 * S, 0.045 * S), "hair")
    for i in range(sp.get("strands", 0)):   # 1-3 px strands trailing from the back of the head
        q = hc - hf * 0.055 * S + hu * (0.055 - 0.02 * i) * S
        a = ht - 0.75 - 0.16 * i
        for k in range(4):
            a += p["hair"] * 0.35 + 0.08 * math.sin(1.7 * i + k + 3.0 * p["hair"])
            q2 = q + D(a) * 0.065 * S
            parts.add(cap(q, q2, sp["strand_r"]), "hair", ink=False)
            q = q2
    leg("f")
    leg("n")
    parts.add(ell(hip, 0.075 * b * S, 0.055 * S, lean), "pants")
    if sp.get("robe"):
        kn_f, kn_n = legs["f"][1], legs["n"][1]
        hy = max(kn_f[1], kn_n[1]) + 0.07 * S
        w0 = hip + up * 0.06 * S
        parts.add(poly([w0 - fwd * 0.072 * S, w0 + fwd * 0.072 * S,
                        (max(kn_f[0], kn_n[0]) + 0.075 * S, hy),
                        (min(kn_f[0], kn_n[0]) - 0.075 * S, hy)]), "robe")
    parts.add(cap(hip, sh, 0.072 * b * S, 0.085 * b * S), "shirt")
    bc = hip + up * 0.05 * S
    rb = (0.072 + 0.013 * 0.05 / 0.29) * b * S - 0.016 * S
    parts.add(cap(bc - fwd * rb, bc + fwd * rb, 0.016 * S), "belt")
    if "buckle" in look["extras"]:
        c = bc + fwd * (rb - 0.012 * S)
        parts.add(poly([c - fwd * 0.017 * S - up * 0.022 * S, c + fwd * 0.017 * S - up * 0.022 * S,
                        c + fwd * 0.017 * S + up * 0.022 * S, c - fwd * 0.017 * S + up * 0.022 * S]),
                  "buckle")
    parts.add(cap(sh - up * 0.01 * S, nt + hu * 0.02 * S, 0.03 * S), "skin")
    parts.add(ell(hc, 0.075 * S, 0.085 * S, ht), "skin")
    parts.add(ell(hc + hf * 0.072 * S, 0.016 * S, 0.014 * S, ht), "skin")
    if sp.get("hood"):
        parts.add(ell(hc - hf * 0.008 * S, 0.084 * S, 0.093 * S, ht), "hood")
        parts.add(ell(hc + hf * 0.045 * S - hu * 0.005 * S, 0.036 * S, 0.017 * S, ht), "skin",
                  ink=False)
    elif sp.get("helmet"):
        parts.add(ell(hc + hu * 0.018 * S - hf * 0.005 * S, 0.086 * S, 0.078 * S, ht,
                      0.028 * S), "helmet")
    else:
        parts.add(ell(hc + hu * 0.03 * S - hf * 0.022 * S, 0.076 * S, 0.062 * S, ht), "hair")
    parts.add(ell(hc + hf * 0.042 * S + hu * 0.008 * S, 0.014 * S, 0.017 * S, ht), "eyewhite",
              ink=False)
    parts.add(ell(hc + hf * 0.049 * S + hu * 0.008 * S, 0.008 * S, 0.011 * S, ht), "iris",
              ink=False)
    arm("n")
    hf_, hn = legs["f"], legs["n"]
    bottom = max(hf_[3][1], hf_[4][1], hn[3][1], hn[4][1]) + 0.027 * S
    foot_x = (hf_[2][0] + hn[2][0]) / 2
    return parts, bottom, foot_x


def build_beast(sp, p, S, look):
    parts = Parts()
    tilt = p["tilt"]
    c = np.array([p["dx"] * S, 0.0])
    ct, st = math.cos(tilt), math.sin(tilt)

    def R(x, y, o=c, cc=ct, ss=st):
        return o + np.array([x * cc - y * ss, x * ss + y * cc]) * S

    sho, hipj = R(0.2, 0.0), R(-0.2, -0.01)
    paws = []

    def leg(name, joint, dk):
        th = p[name]
        k = joint + D(th) * 0.2 * S
        pw = k + D(th - p[name + "k"]) * 0.2 * S
        parts.add(cap(joint, k, 0.058 * S, 0.038 * S), "fur", dk)
        parts.add(cap(k, pw, 0.034 * S, 0.027 * S), "leg", dk)
        parts.add(ell(pw + np.array([0.015 * S, 0.006 * S]), 0.038 * S, 0.022 * S), "paw", dk)
        paws.append(pw)

    leg("rl_f", hipj + np.array([-0.02 * S, 0]), 0.78)
    leg("fl_f", sho + np.array([-0.02 * S, 0]), 0.78)
    q = R(-0.28, -0.04)
    a = -2.1 + p["tail"]
    for k in range(3):
        a += p["tail"] * 0.5 + 0.25
        q2 = q + D(a) * 0.11 * S
        parts.add(cap(q, q2, (0.04 - 0.008 * k) * S, (0.032 - 0.008 * k) * S),
                  "tailtip" if k == 2 else "fur")
        q = q2
    parts.add(ell(c, 0.3 * S, 0.13 * S, tilt), "fur")
    parts.add(ell(R(0.0, 0.065), 0.21 * S, 0.055 * S, tilt), "belly")
    leg("rl_n", hipj, 1.0)
    leg("fl_n", sho, 1.0)
    nb = R(0.03, -0.04)
    ntop = nb + D(p["neck"]) * 0.2 * S
    parts.add(cap(nb, ntop, 0.08 * S, 0.058 * S), "mane")
    hd = p["head"]
    hc = ntop + np.array([0.03 * S, 0.0])
    ch, shh = math.cos(hd), math.sin(hd)

    def Rh(x, y):
        return R(x, y, hc, ch, shh)

    parts.add(poly([Rh(-0.045, -0.035), Rh(0.005, -0.05), Rh(-0.05, -0.135)]), "ear")
    hinge = Rh(0.02, 0.035)
    ja = hd + p["jaw"]
    parts.add(cap(hinge, hinge + np.array([math.cos(ja), math.sin(ja)]) * 0.12 * S,
                  0.022 * S, 0.016 * S), "belly")
    parts.add(ell(hc, 0.085 * S, 0.07 * S, hd), "fur")
    parts.add(ell(Rh(0.085, 0.018), 0.065 * S, 0.034 * S, hd), "fur")
    parts.add(ell(Rh(0.145, 0.008), 0.016 * S, 0.014 * S, hd), "nose", ink=False)
    parts.add(ell(Rh(0.04, -0.016), 0.014 * S, 0.012 * S, hd), "iris", ink=False)
    bottom = max(pw[1] for pw in paws) + 0.028 * S
    return parts, bottom, float(np.mean([pw[0] for pw in paws]))


def build_slime(sp, p, S, look):
    parts = Parts()
    sq, lean = p["sq"], p["lean"]
    rx, ry = 0.5 * S * (1 + sq), 0.42 * S / (1 + sq)
    cut = 0.72 * ry
    o = np.array([p["dx"] * S, 0.0])
    cl, sl = math.cos(lean), math.sin(lean)

    def T(x, y):
        return o + np.array([x * cl - y * sl, x * sl + y * cl])

    cen = T(0, -cut)
    parts.add(poly([T(-0.05 * S, -cut - ry * 0.9), T(0.02 * S, -cut - ry - 0.17 * S),
                    T(0.14 * S, -cut - ry - 0.12 * S)]), "leaf")
    parts.add(ell(cen, rx, ry, lean, cut), "body")
    parts.add(ell(T(-0.22 * rx, -cut - 0.5 * ry), 0.14 * rx, 0.075 * ry, lean - 0.5), "shine",
              ink=False)
    eo = p["eye"]
    for ex in (0.22, 0.56):
        e = T(ex * rx, -cut - 0.16 * ry)
        parts.add(ell(e, 0.07 * S, 0.09 * S * eo + 0.01 * S, lean), "eyewhite", ink=False)
        parts.add(ell(e + np.array([0.015 * S, 0.01 * S]), 0.038 * S, 0.055 * S * eo + 0.006 * S,
                      lean), "iris", ink=False)
    parts.add(ell(T(0.42 * rx, -cut + 0.18 * ry), 0.05 * S, 0.022 * S, lean), "mouth", ink=False)
    return parts, 0.0, float(o[0])


BUILD = dict(human=build_human, beast=build_beast, slime=build_slime)

# ----------------------------------------------------------------------------- motion
REST = dict(
    human=dict(dx=0.0, lean=0.03, hip_n=0.1, knee_n=0.06, hip_f=-0.08, knee_f=0.04, foot_n=0.0,
               foot_f=0.0, sh_n=0.12, el_n=0.45, sh_f=-0.08, el_f=0.3, head=0.0, wpn=0.0,
               hair=0.0, hop=0.0),
    beast=dict(dx=0.0, tilt=0.0, fl_n=0.05, fl_nk=0.05, fl_f=-0.06, fl_fk=0.05, rl_n=0.12,
               rl_nk=0.14, rl_f=-0.04, rl_fk=0.12, neck=2.45, head=0.12, jaw=0.0, tail=0.0,
               hop=0.0),
    slime=dict(dx=0.0, sq=0.0, lean=0.0, eye=1.0, hop=0.0),
)


def keyed(t, keys, rest):
    full = []
    prev = dict(rest)
    for kt, k in keys:
        prev = {**prev, **k}
        full.append((kt, prev))
    if t <= full[0][0]:
        return dict(full[0][1])
    for (t0, p0), (t1, p1) in zip(full, full[1:]):
        if t <= t1:
            w = smooth((t - t0) / (t1 - t0))
            return {k: p0[k] + w * (p1[k] - p0[k]) for k in p0}
    return dict(full[-1][1])


def motion(kind, action, t):
    rest = REST[kind]
    m = dict(rest)
    if kind == "human":
        if action in ("walk", "run"):
            run = action == "run"
            f = 1.45 if run else 0.95
            ph = 2 * math.pi * f * t
            s, c = math.sin(ph), math.cos(ph)
            A = 0.72 if run else 0.42
            m.update(hip_n=0.05 + A * s, hip_f=0.05 - A * s,
                     knee_n=(0.25 if run else 0.1) + (1.1 if run else 0.6) * max(0.0, c),
                     knee_f=(0.25 if run else 0.1) + (1.1 if run else 0.6) * max(0.0, -c),
                     foot_n=0.25 * max(0.0, -s), foot_f=0.25 * max(0.0, s),
                     sh_n=0.1 - (0.85 if run else 0.38) * s, sh_f=0.1 + (0.85 if run else 0.38) * s,
                     el_n=1.3 if run else 0.45 + 0.15 * s, el_f=1.3 if run else 0.35 - 0.15 * s,
                     lean=0.28 if run else 0.07, head=(-0.12 if run else 0.0) + 0.03 * math.sin(2 * ph),
                     hair=(-0.55 if run else -0.2) + 0.12 * math.sin(2 * ph),
                     hop=0.035 * max(0.0, math.sin(2 * ph)) if run else 0.0)
        elif action == "idle":
            b = math.sin(2 * math.pi * 0.5 * t)
            m.update(lean=0.03 + 0.025 * b, knee_n=0.06 + 0.05 * (1 + b), knee_f=0.04 + 0.05 * (1 + b),
                     hip_n=0.1 + 0.025 * (1 + b), sh_n=0.12 + 0.06 * math.sin(2 * math.pi * 0.45 * t),
                     el_n=0.45 + 0.08 * b, sh_f=-0.08 - 0.05 * b,
                     head=0.05 * math.sin(2 * math.pi * 0.33 * t), hair=0.1 * math.sin(2 * math.pi * 0.6 * t))
        elif action == "attack":
            guard = dict(sh_n=0.5, el_n=1.3, wpn=0.0, lean=0.08, hip_n=0.35, knee_n=0.25, hip_f=-0.3,
                         knee_f=0.3, sh_f=0.3, el_f=1.0)
            m = keyed(t, [(0.0, {}), (0.38, guard),
                          (0.78, dict(sh_n=3.8, el_n=0.5, wpn=-1.15, lean=-0.08, hip_n=0.45, knee_n=0.2,
                                      hip_f=-0.35, knee_f=0.2, head=-0.1, sh_f=0.6, hair=0.3)),
                          (0.98, dict(sh_n=1.35, el_n=0.05, wpn=-1.3, lean=0.32, hip_n=0.75, knee_n=0.55,
                                      hip_f=-0.55, knee_f=0.1, head=0.15, dx=0.08, sh_f=-0.5, hair=-0.5)),
                          (1.3, dict(sh_n=0.95, el_n=0.2, wpn=-1.2, lean=0.25, hair=-0.2)),
                          (2.0, {**guard, "dx": 0.06, "hair": 0.0})], rest)
        elif action == "skill":
            m = keyed(t, [(0.0, {}),
                          (0.42, dict(sh_n=-0.2, el_n=2.0, sh_f=-0.1, el_f=2.1, knee_n=0.45, hip_n=0.35,
                                      knee_f=0.5, hip_f=0.1, lean=0.15, head=0.2, wpn=-0.5)),
                          (0.9, dict(sh_n=2.2, el_n=0.15, sh_f=2.4, el_f=0.2, lean=-0.1, head=-0.25,
                                     knee_n=0.05, knee_f=0.05, hip_n=0.2, hip_f=-0.15, wpn=-1.76,
                                     hair=0.4)),
                          (1.5, dict(sh_n=2.3, sh_f=2.5, hair=0.5)),
                          (2.0, dict(sh_n=1.2, el_n=0.6, sh_f=1.0, el_f=0.7, lean=0.05, head=0.0,
                                     wpn=-0.9, hair=0.1))], rest)
            if 0.9 < t < 1.5:
                m["sh_n"] += 0.04 * math.sin(2 * math.pi * 9 * t)
                m["sh_f"] += 0.04 * math.sin(2 * math.pi * 9 * t + 1)
        elif action == "hurt":
            m = keyed(t, [(0.0, {}), (0.36, dict(lean=0.04)),
                          (0.52, dict(lean=-0.45, head=-0.5, sh_n=1.2, el_n=0.9, sh_f=1.5, el_f=0.8,
                                      hip_n=0.55, knee_n=0.7, hip_f=0.25, knee_f=0.5, dx=-0.12, wpn=0.5,
                                      hair=0.6)),
                          (0.85, dict(lean=0.35, head=0.3, sh_n=0.4, el_n=1.5, sh_f=0.2, el_f=1.6,
                                      hip_n=0.7, knee_n=1.2, hip_f=0.3, knee_f=1.1, dx=-0.2, wpn=0.2,
                                      hair=-0.3)),
                          (1.5, dict(lean=0.12, head=0.05, sh_n=0.2, el_n=0.6, sh_f=0.0, el_f=0.5,
                                     hip_n=0.25, knee_n=0.3, hip_f=0.0, knee_f=0.3, dx=-0.22, wpn=0.0,
                                     hair=0.0)),
                          (2.0, {**rest, "dx": -0.22})], rest)
    elif kind == "beast":
        if action in ("walk", "run"):
            run = action == "run"
            f = 2.0 if run else 1.0
            ph = 2 * math.pi * f * t
            A = 0.6 if run else 0.34
            offs = dict(rl_n=0.0, fl_n=0.5 if run else 0.25, rl_f=0.15 if run else 0.5,
                        fl_f=0.65 if run else 0.75)
            for k, o in offs.items():
                q = ph + 2 * math.pi * o
                m[k] = rest[k] + A * math.sin(q)
                m[k + "k"] = 0.1 + (0.9 if run else 0.5) * max(0.0, math.cos(q))
            m.update(tilt=(0.1 if run else 0.03) * math.sin(ph), neck=(2.0 if run else 2.35)
                     + 0.08 * math.sin(2 * ph), head=0.2, tail=(-0.35 if run else 0.0) + 0.25 * math.sin(ph),
                     jaw=0.25 if run else 0.0, hop=0.06 * max(0.0, math.sin(ph + 0.6)) if run else 0.0)
        elif action == "hurt":
            m = keyed(t, [(0.0, {}), (0.36, dict(tail=0.1)),
                          (0.5, dict(dx=-0.14, tilt=-0.25, neck=2.95, head=-0.45, jaw=0.45, tail=0.7,
                                     fl_n=0.45, fl_f=0.3, rl_n=0.35, rl_nk=0.7, rl_f=0.2, rl_fk=0.6)),
                          (0.9, dict(dx=-0.2, tilt=0.12, neck=2.0, head=0.45, jaw=0.1, tail=-0.6,
                                     fl_nk=0.5, fl_fk=0.5, rl_nk=0.6, rl_fk=0.6, fl_n=0.2, rl_n=0.3)),
                          (1.5, dict(dx=-0.22, tilt=0.03, neck=2.3, head=0.2, jaw=0.0, tail=-0.2,
                                     fl_n=0.08, fl_nk=0.1, rl_n=0.15, rl_nk=0.2, fl_f=-0.05, rl_f=0.0)),
                          (2.0, {**rest, "dx": -0.22})], rest)
        else:
            b = math.sin(2 * math.pi * 0.5 * t)
            m.update(tilt=0.015 * b, tail=0.4 * math.sin(2 * math.pi * 0.8 * t), head=0.12 + 0.08 * b)
    else:
        if action == "attack":
            m = keyed(t, [(0.0, {}), (0.4, dict(sq=0.32, lean=-0.15, dx=-0.03, eye=0.5)),
                          (0.68, dict(sq=-0.25, lean=0.3, dx=0.25, hop=0.14, eye=1.1)),
                          (0.88, dict(sq=0.18, lean=0.05, dx=0.32, hop=0.0, eye=0.6)),
                          (1.4, dict(sq=-0.05, lean=0.0, dx=0.26, eye=1.0)),
                          (2.0, dict(sq=0.0, dx=0.24))], rest)
        else:
            m.update(sq=0.06 * math.sin(2 * math.pi * 1.1 * t), lean=0.05 * math.sin(2 * math.pi * 0.55 * t),
                     eye=0.15 if (t % 1.7) > 1.58 else 1.0)
    return m


def pose_at(case, t):
    kind = case["kind"]
    rest = REST[kind]
    mo = motion(kind, case["action"], max(t, 0.0))
    w = smooth(t / 0.3)
    return {k: rest[k] + w * (mo[k] - rest[k]) for k in rest}


def travel(case, t):
    """Root displacement in frame widths: the smooth start of a constant speed."""
    v = case.get("travel", 0.0)
    t = max(t, 0.0)
    return v * (t * t / 0.6 if t < 0.3 else t - 0.15)


def place(case, t, S, look, W, H):
    p = pose_at(case, t)
    parts, bottom, foot_x = BUILD[case["kind"]](case["spec"], p, S, look)
    dx = case["x0"] * W + travel(case, t) * W
    dy = case["ground"] * H - bottom - p["hop"] * S
    for q in parts:
        q["shape"] = shifted(q["shape"], dx, dy)
    return parts, foot_x + dx, p["hop"]


# ----------------------------------------------------------------------------- render
def render_layer(parts, look, S, gains, W, H, Xf, Yf):
    P = np.zeros((H, W, 3), np.float32)
    A = np.zeros((H, W), np.float32)
    for q in parts:
        draw(P, A, Xf, Yf, q, look, S, gains)
    return P, A


def backdrop(case, W, H):
    r = np.random.default_rng(case["seed"] + 99)
    x = ((np.arange(W) + 0.5) / W - 0.5)[None, :]
    y = ((np.arange(H) + 0.5) / H - 0.5)[:, None]
    gx, gy = case.get("grad", (0.06, -0.04))
    g = 1 + gx * x + gy * y
    v = 1 - case.get("vig", 0.18) * 2 * (x * x + y * y)
    u = cv2.resize(r.uniform(-0.02, 0.02, (4, 5)).astype(np.float32), (W, H),
                   interpolation=cv2.INTER_CUBIC)
    return np.clip((np.array(case["key"], np.float32) / 255.0) * (g * v * (1 + u))[..., None],
                   0, 1).astype(np.float32)


def to_yuv420(rgb8):
    f = rgb8.astype(np.float32)
    H, W = f.shape[:2]
    Y = 16 + (65.481 * f[..., 0] + 128.553 * f[..., 1] + 24.966 * f[..., 2]) / 255
    s = f.reshape(H // 2, 2, W // 2, 2, 3).mean((1, 3))
    U = 128 + (-37.797 * s[..., 0] - 74.203 * s[..., 1] + 112.0 * s[..., 2]) / 255
    V = 128 + (112.0 * s[..., 0] - 93.786 * s[..., 1] - 18.214 * s[..., 2]) / 255
    q = lambda a: np.clip(np.rint(a), 0, 255).astype(np.uint8)
    return np.concatenate([q(Y).ravel(), q(U).ravel(), q(V).ravel()]).reshape(H * 3 // 2, W)


def unit_height(case, look):
    parts, _, _ = BUILD[case["kind"]](case["spec"], REST[case["kind"]], 100.0, look)
    ys = [bounds(q["shape"]) for q in parts]
    return (max(b[3] for b in ys) - min(b[1] for b in ys)) / 100.0


def make_look(case, which):
    base = dict(style="shaded", light=(-0.6, -0.8), amt=0.3, rim=None, tex=0.0, extras=(),
                override={}, pattern=None, lift=None, sat=1.0)
    base.update(case.get("look", {}))
    base.update(case.get(which, {}))
    L = np.array(base["light"], float)
    base["light"] = tuple(L / np.linalg.norm(L))
    if base["rim"]:
        a, d, col = base["rim"]
        d = np.array(d, float)
        base["rim"] = (a, tuple(d / np.linalg.norm(d)), col)
    base["pal"] = {**DEFAULT_PAL, **case["spec"]["pal"]}
    base["waves"] = waves(case["seed"])
    return base


def render_portrait(case, S, look, path):
    kind = case["kind"]
    parts, _, _ = BUILD[kind](case["spec"], REST[kind], S, look)
    bb = np.array([bounds(q["shape"]) for q in parts])
    m = 8 + (look["ink"][0] if look.get("ink") else 0)
    x0, y0 = bb[:, 0].min() - m, bb[:, 1].min() - m
    W = int(math.ceil(bb[:, 2].max() + m - x0))
    H = int(math.ceil(bb[:, 3].max() + m - y0))
    for q in parts:
        q["shape"] = shifted(q["shape"], -x0, -y0)
    Xf, Yf = np.meshgrid(np.arange(W, dtype=np.float32) + 0.5, np.arange(H, dtype=np.float32) + 0.5)
    P, A = render_layer(parts, look, S, None, W, H, Xf, Yf)
    a8 = np.clip(np.rint(A * 255), 0, 255).astype(np.uint8)
    rgb = np.clip(np.rint(P / np.maximum(A, 1e-6)[..., None] * 255), 0, 255).astype(np.uint8)
    rgb[a8 == 0] = 0
    Image.fromarray(np.dstack([rgb, a8]), "RGBA").save(path)
    return W, H


def render_case(case):
    cv2.setNumThreads(1)
    t0 = time.time()
    name = case["name"]
    W, H = case["size"]
    fps, secs = case["fps"], case["secs"]
    N = int(round(fps * secs))
    K = case.get("K", 5)
    folder = OUT / name
    folder.mkdir(parents=True, exist_ok=True)
    lp, lc = make_look(case, "portrait"), make_look(case, "clip")
    S = case["frac"] * H / unit_height(case, lc)
    pw, ph = render_portrait(case, S * case["pscale"], lp, folder / "portrait.png")

    bg = backdrop(case, W, H)
    Xf, Yf = np.meshgrid(np.arange(W, dtype=np.float32) + 0.5, np.arange(H, dtype=np.float32) + 0.5)
    g0 = np.array(case.get("gains0", (1, 1, 1)), np.float32)
    g1 = np.array(case.get("gains1", case.get("gains0", (1, 1, 1))), np.float32)
    wrap_px, wrap_s = case["wrap"]
    sigma = case["grain"]
    rng = np.random.default_rng(case["seed"])
    truth = np.zeros((N, H, W, 4), np.uint8)
    container = av.open(str(folder / "clip.mp4"), "w")
    st = container.add_stream("libx264", rate=fps)
    st.width, st.height, st.pix_fmt = W, H, "yuv420p"
    st.options = {"crf": str(case["crf"]), "threads": "1", "x264-params": "mbtree=0"}
    st.codec_context.thread_count = 1
    worst = 0.0
    sh_dark = case.get("shadow", 0.32)
    for i in range(N):
        t = i / fps
        gains = g0 + (g1 - g0) * smooth(t / secs)
        Pa = np.zeros((H, W, 3), np.float32)
        Aa = np.zeros((H, W), np.float32)
        for k in range(K):
            tk = t + ((k + 0.5) / K - 0.5) * 0.5 / fps if K > 1 else t
            parts, _, _ = place(case, tk, S, lc, W, H)
            P, A = render_layer(parts, lc, S, gains, W, H, Xf, Yf)
            Pa += P
            Aa += A
        Pa /= K
        Aa /= K
        # truth: straight colour and coverage of the averaged premultiplied layer
        a8 = np.clip(np.rint(Aa * 255), 0, 255).astype(np.uint8)
        srgb = np.clip(np.rint(Pa / np.maximum(Aa, 1e-6)[..., None] * 255), 0, 255).astype(np.uint8)
        srgb[a8 == 0] = 0
        truth[i, ..., :3] = srgb
        truth[i, ..., 3] = a8
        # screen: contact shadow on the backdrop
        _, fx, hop = place(case, t, S, lc, W, H)
        gy = case["ground"] * H + 0.01 * S
        sx = case.get("shadow_w", 0.24) * S * (1 - 1.5 * hop)
        sy = 0.028 * S
        lift = max(0.0, 1 - 4 * hop)
        sm = np.exp(-(((Xf - fx) / sx) ** 2) - ((Yf - gy) / sy) ** 2)
        bgf = bg * (1 - sh_dark * lift * sm)[..., None]
        clean = Pa + (1 - Aa)[..., None] * bgf
        # self-check: the truth over the clean backdrop rebuilds the composite
        at = truth[i, ..., 3:].astype(np.float32) / 255
        rebuilt = truth[i, ..., :3].astype(np.float32) / 255 * at + (1 - at) * bgf
        worst = max(worst, float(np.abs(rebuilt - clean).max()) * 255)
        # light wrap (screen colour into the outer few px), grain, 4:2:0, H.264
        bl = cv2.GaussianBlur(Aa, (0, 0), wrap_px / 2.0)
        w = (wrap_s * np.clip(2 * (1 - bl), 0, 1) * (Aa > 0))[..., None]
        comp = Pa * (1 - w) + Aa[..., None] * w * bgf + (1 - Aa)[..., None] * bgf
        noise = rng.standard_normal((H, W, 3), dtype=np.float32) * (sigma * 0.8)
        noise += rng.standard_normal((H, W, 1), dtype=np.float32) * (sigma * 0.6)
        rgb8 = np.clip(np.rint(comp * 255 + noise), 0, 255).astype(np.uint8)
        fr = av.VideoFrame.from_ndarray(to_yuv420(rgb8), format="yuv420p")
        fr.pts = i
        for pk in st.encode(fr):
            container.mux(pk)
    for pk in st.encode():
        container.mux(pk)
    container.close()
    np.savez_compressed(folder / "truth.npz", rgba=truth)
    (folder / "case.json").write_text(json.dumps({"action": case["action"], "notes": case["notes"]},
                                                 indent=1) + "\n")
    with av.open(str(folder / "clip.mp4")) as c:
        vs = c.streams.video[0]
        dec = [(f.width, f.height) for f in c.decode(vs)]
    ok_n = len(dec) == N
    ok_sz = all(d == (W, H) for d in dec)
    fg = truth[0, ..., 3] > 127
    return dict(name=name, frames=N, decoded=len(dec), size=(W, H), portrait=(pw, ph),
                worst=worst, ok=ok_n and ok_sz and worst <= 1.05, secs=time.time() - t0,
                char_h=float(fg.any(1).sum()) / H)


# ----------------------------------------------------------------------------- cases
GREEN0, GREEN1, GREEN2 = (0, 177, 64), (40, 200, 70), (60, 190, 80)
BLUE0, BLUE1 = (30, 60, 200), (20, 80, 210)

KNIGHT = dict(pal=dict(skin=(228, 188, 160), hair=(90, 60, 40), shirt=(150, 156, 172),
                       sleeve=(140, 146, 162), forearm=(150, 156, 172), pants=(82, 70, 112),
                       helmet=(170, 176, 192), boots=(72, 52, 40)),
              weapon="sword", wpn_rest=1.45, helmet=True, build=1.1, shin="boots")
MAGE = dict(pal=dict(skin=(236, 200, 176), hair=(205, 120, 60), shirt=(112, 60, 152),
                     sleeve=(112, 60, 152), forearm=(112, 60, 152), pants=(62, 42, 82),
                     robe=(100, 52, 140), gem=(255, 200, 60), iris=(40, 110, 60)),
            weapon="staff", wpn_rest=2.55, robe=True, long_hair=True, strands=6, strand_r=0.8)
ROGUE = dict(pal=dict(skin=(200, 150, 120), hair=(32, 30, 36), shirt=(165, 62, 52),
                      sleeve=(205, 182, 150), forearm=(205, 182, 150), pants=(72, 62, 52),
                      boots=(52, 36, 26)),
             weapon="dagger", wpn_rest=1.0, shin="boots")
WARRIOR = dict(pal=dict(skin=(184, 124, 92), hair=(232, 210, 122), shirt=(205, 122, 42),
                        sleeve=(184, 124, 92), forearm=(184, 124, 92), pants=(92, 82, 72),
                        boots=(102, 62, 32), metal=(190, 196, 206)),
               weapon="axe", wpn_rest=1.6, build=1.15)
ADVENTURER = dict(pal=dict(skin=(230, 186, 150), hair=(110, 70, 40), shirt=(62, 112, 172),
                           sleeve=(62, 112, 172), forearm=(230, 186, 150), pants=(190, 160, 110),
                           boots=(90, 58, 36), iris=(92, 60, 34)),
                  weapon="sword", wpn_rest=1.45, strands=4, strand_r=1.0)
GREEN_SHIRT = dict(pal=dict(skin=(222, 176, 140), hair=(28, 26, 30), shirt=(70, 150, 80),
                            sleeve=(70, 150, 80), forearm=(222, 176, 140), pants=(92, 72, 52),
                            boots=(60, 44, 32)))
BLUE_MONK = dict(pal=dict(skin=(214, 170, 130), hair=(50, 36, 28), shirt=(70, 95, 165),
                          sleeve=(70, 95, 165), forearm=(214, 170, 130), pants=(200, 190, 170),
                          robe=(70, 95, 165), belt=(200, 170, 90), boots=(96, 70, 44)),
                 weapon="staff", wpn_rest=2.55, robe=True)
NINJA = dict(pal=dict(skin=(212, 172, 140), hair=(14, 14, 16), shirt=(26, 26, 32), sleeve=(26, 26, 32),
                      forearm=(22, 22, 28), pants=(22, 22, 27), boots=(14, 14, 17), hood=(20, 20, 25),
                      belt=(60, 24, 28), grip=(30, 20, 22), metal=(60, 60, 66)),
             weapon="katana", wpn_rest=1.35, hood=True)
DARK_KNIGHT = dict(pal=dict(skin=(200, 160, 130), hair=(20, 20, 22), shirt=(38, 38, 44),
                            sleeve=(34, 34, 40), forearm=(38, 38, 44), pants=(26, 26, 30),
                            helmet=(32, 32, 38), boots=(20, 20, 22), belt=(50, 30, 20),
                            metal=(70, 72, 80), wood=(40, 28, 20)),
                   weapon="axe", wpn_rest=1.6, helmet=True, build=1.15, shin="boots")
RUNNER = dict(pal=dict(skin=(236, 196, 166), hair=(122, 72, 42), shirt=(222, 200, 82),
                       sleeve=(222, 200, 82), forearm=(236, 196, 166), pants=(62, 62, 72),
                       boots=(200, 60, 50)),
              strands=7, strand_r=0.6)
WOLF = dict(pal=dict(fur=(142, 124, 104), belly=(206, 192, 170), mane=(112, 96, 82), leg=(122, 106, 90),
                     paw=(70, 60, 52), ear=(100, 84, 72), tailtip=(226, 220, 210), iris=(220, 170, 40)))
FOX = dict(pal=dict(fur=(212, 112, 42), belly=(240, 232, 218), mane=(200, 98, 36), leg=(50, 36, 30),
                    paw=(40, 30, 26), ear=(60, 40, 30), tailtip=(248, 246, 240), iris=(40, 30, 20)))
SLIME_PINK = dict(pal=dict(body=(232, 112, 172), leaf=(120, 70, 40), iris=(30, 22, 30),
                           eyewhite=(250, 250, 250)))
SLIME_PURPLE = dict(pal=dict(body=(124, 92, 212), leaf=(230, 190, 60), iris=(250, 240, 120),
                             eyewhite=(30, 24, 40)))

RIM = (0.38, (-1.0, -0.25), (255, 245, 225))
CASES = [
    dict(name="c01_walk_warm_tint_knight_shaded_green", action="walk", kind="human", spec=KNIGHT,
         size=(832, 480), fps=24, secs=2.5, key=GREEN0, frac=0.62, x0=0.3, travel=0.12, ground=0.9,
         pscale=1.0, crf=22, grain=1.5, wrap=(3, 0.25), K=5, seed=1901,
         look=dict(style="shaded"), gains0=(1.08, 1.0, 0.9),
         notes="Shaded knight with a sword walks right; the whole clip is warmer than the portrait "
               "(gains 1.08/1.0/0.9 from frame 1), green key, 180-degree motion blur."),
    dict(name="c02_idle_cool_drift_over_clip_mage_cel_strands_green", action="idle", kind="human",
         spec=MAGE, size=(512, 512), fps=24, secs=2.5, key=GREEN1, frac=0.75, x0=0.45, ground=0.92,
         pscale=1.3, crf=20, grain=1.0, wrap=(2, 0.2), K=1, seed=1902, look=dict(style="cel", amt=0.28),
         gains0=(1, 1, 1), gains1=(0.92, 0.98, 1.09),
         notes="Cel-shaded robed mage with a staff and 1.6 px hair strands idles; the tint drifts "
               "from neutral to cool over the clip; green key; no motion blur."),
    dict(name="c03_run_more_saturated_rogue_flat_green", action="run", kind="human", spec=ROGUE,
         size=(640, 480), fps=24, secs=2.5, key=GREEN2, frac=0.6, x0=0.45, ground=0.9, pscale=1.5,
         crf=23, grain=2.0, wrap=(3, 0.3), K=5, seed=1903, look=dict(style="flat"),
         clip=dict(sat=1.25),
         notes="Flat-coloured rogue with a dagger runs in place; the clip's colours are 25 % more "
               "saturated than the portrait's; green key, motion blur."),
    dict(name="c04_attack_desaturated_tunic_pattern_warrior_ink_green", action="attack", kind="human",
         spec=WARRIOR, size=(576, 576), fps=24, secs=2.0, key=GREEN0, frac=0.56, x0=0.4, ground=0.92,
         pscale=1.2, crf=21, grain=1.5, wrap=(4, 0.22), K=7, seed=1904,
         look=dict(style="cel", amt=0.25, ink=(1.8, (24, 18, 16))),
         clip=dict(sat=0.8, pattern=dict(roles=("shirt",), kind="stripes", freq=9.0, thr=0.86,
                                         col=(120, 40, 30))),
         notes="Ink-outlined cel warrior swings an axe overhead; clip 20 % less saturated and the "
               "model invents dark stripes on the tunic; green key, strong motion blur."),
    dict(name="c05_skill_relit_from_right_rim_mage_shaded_blue", action="skill", kind="human",
         spec={**MAGE, "strands": 0}, size=(576, 576), fps=24, secs=2.0, key=BLUE0, frac=0.58, x0=0.45,
         ground=0.92, pscale=1.0, crf=22, grain=2.0, wrap=(3, 0.25), K=5, seed=1905,
         look=dict(style="shaded", amt=0.32), portrait=dict(light=(-0.6, -0.8)),
         clip=dict(light=(0.9, -0.3), amt=0.45, rim=RIM),
         notes="Shaded mage casts with both arms raised; the portrait is lit from the upper left, the "
               "clip from the right with a warm rim light on the left edges; blue key."),
    dict(name="c06_hurt_relit_rim_wolf_beast_shaded_green", action="hurt", kind="beast", spec=WOLF,
         size=(768, 432), fps=24, secs=2.0, key=GREEN1, frac=0.55, x0=0.5, ground=0.9, pscale=1.4,
         crf=24, grain=2.0, wrap=(3, 0.28), K=5, seed=1906, shadow_w=0.45,
         look=dict(style="shaded", amt=0.3), portrait=dict(light=(0.5, -0.85)),
         clip=dict(light=(-0.9, -0.35), amt=0.42, rim=(0.35, (1.0, -0.2), (255, 250, 235))),
         notes="Shaded four-legged wolf recoils from a hit; portrait lit from the upper right, the "
               "clip from the left with a rim highlight on the right; green key, motion blur."),
    dict(name="c07_walk_invented_buckle_stripe_eyes_adventurer_cel_16fps", action="walk",
         kind="human", spec=ADVENTURER, size=(640, 480), fps=16, secs=2.5, key=GREEN0, frac=0.7,
         x0=0.5, ground=0.92, pscale=1.0, crf=23, grain=1.5, wrap=(3, 0.2), K=5, seed=1907,
         look=dict(style="cel", amt=0.3),
         clip=dict(extras=("buckle", "stripe"), override=dict(iris=(40, 120, 230))),
         notes="Cel adventurer with a sword and 2 px hair strands walks in place at 16 fps; the model "
               "invents a gold belt buckle and a sleeve stripe and turns brown eyes blue; green key."),
    dict(name="c08_idle_invented_spots_eye_colour_slime_cel_green", action="idle", kind="slime",
         spec=SLIME_PINK, size=(448, 448), fps=24, secs=2.5, key=GREEN1, frac=0.56, x0=0.5,
         ground=0.88, pscale=2.0, crf=21, grain=1.0, wrap=(2, 0.3), K=1, seed=1908, shadow_w=0.4,
         look=dict(style="cel", amt=0.3),
         clip=dict(pattern=dict(roles=("body",), kind="spots", freq=5.0, thr=0.92, col=(250, 200, 230)),
                   override=dict(iris=(150, 40, 30))),
         notes="Cel pink slime wobbles and blinks; the model adds pale spots to the body and gives it "
               "red-brown pupils; portrait at 2x; green key; no motion blur."),
    dict(name="c09_run_texture_noise_on_flat_portrait_fox_green", action="run", kind="beast",
         spec=FOX, size=(832, 480), fps=24, secs=2.5, key=GREEN2, frac=0.5, x0=0.3, travel=0.1,
         ground=0.9, pscale=1.3, crf=24, grain=2.5, wrap=(4, 0.25), K=6, seed=1909, shadow_w=0.45,
         look=dict(style="flat"), clip=dict(tex=0.14),
         notes="Flat-coloured fox gallops right; the clip renders fur texture noise (moving with each "
               "part) that the flat portrait lacks; green key, motion blur."),
    dict(name="c10_attack_flat_clip_of_textured_portrait_rogue_16fps", action="attack", kind="human",
         spec={**ROGUE, "weapon": "sword", "wpn_rest": 1.45}, size=(704, 480), fps=16, secs=2.0,
         key=GREEN0, frac=0.55, x0=0.4, ground=0.9, pscale=1.6, crf=25, grain=2.0, wrap=(3, 0.25),
         K=6, seed=1910, look=dict(style="shaded", amt=0.3), portrait=dict(tex=0.16),
         notes="Rogue with a sword slashes at 16 fps; the portrait is finely textured, the clip is "
               "smooth flat-shaded (the model softens it); green key, motion blur."),
    dict(name="c11_walk_green_shirt_pushed_greener_near_key_green", action="walk", kind="human",
         spec=GREEN_SHIRT, size=(640, 480), fps=24, secs=2.5, key=GREEN0, frac=0.7, x0=0.35,
         travel=0.1, ground=0.92, pscale=1.0, crf=22, grain=1.5, wrap=(3, 0.25), K=5, seed=1911,
         look=dict(style="shaded", amt=0.25),
         clip=dict(override=dict(shirt=(36, 166, 72), sleeve=(36, 166, 72))),
         notes="Shaded villager in a green shirt walks on a (0,177,64) screen; the model pushes the "
               "shirt from (70,150,80) to (36,166,72), nearer the key; motion blur. Hardest case."),
    dict(name="c12_skill_blue_tunic_pushed_bluer_near_key_blue_portrait", action="skill",
         kind="human", spec=BLUE_MONK, size=(480, 832), fps=24, secs=2.0, key=BLUE1, frac=0.5,
         x0=0.45, ground=0.9, pscale=1.2, crf=22, grain=1.5, wrap=(3, 0.25), K=5, seed=1912,
         look=dict(style="shaded", amt=0.25),
         clip=dict(override=dict(shirt=(44, 84, 196), sleeve=(44, 84, 196), robe=(44, 84, 196))),
         notes="Shaded monk in a blue tunic casts with a staff on a (20,80,210) screen, 480x832; the "
               "model pushes the tunic from (70,95,165) to (44,84,196), nearer the key. Hardest case."),
    dict(name="c13_idle_black_ninja_darks_lifted_grey_blue_green", action="idle", kind="human",
         spec=NINJA, size=(512, 512), fps=24, secs=2.5, key=GREEN1, frac=0.8, x0=0.45, ground=0.94,
         pscale=1.0, crf=21, grain=2.0, wrap=(3, 0.3), K=1, seed=1913,
         look=dict(style="shaded", amt=0.3), clip=dict(lift=((0.07, 0.09, 0.16), 0.35)),
         notes="Black-clad ninja with a katana idles, 80 % of frame height; the model lifts the near-"
               "black cloth into dark grey-blue; green key; no motion blur."),
    dict(name="c14_hurt_dark_knight_lifted_grey_green_1280_16fps", action="hurt", kind="human",
         spec=DARK_KNIGHT, size=(1280, 720), fps=16, secs=2.0, key=GREEN0, frac=0.45, x0=0.5,
         ground=0.88, pscale=1.5, crf=24, grain=2.5, wrap=(5, 0.25), K=5, seed=1914,
         look=dict(style="cel", amt=0.3), clip=dict(lift=((0.07, 0.11, 0.075), 0.35)),
         notes="Cel dark-armoured knight with an axe is knocked back, 1280x720 at 16 fps; the model "
               "lifts the darks into dark grey-green; green key, motion blur."),
    dict(name="c15_run_cool_desaturated_strands_runner_blue", action="run", kind="human", spec=RUNNER,
         size=(576, 576), fps=24, secs=2.5, key=BLUE0, frac=0.6, x0=0.45, ground=0.9, pscale=1.2,
         crf=23, grain=1.5, wrap=(3, 0.2), K=5, seed=1915, look=dict(style="shaded", amt=0.28),
         clip=dict(sat=0.87), gains0=(0.93, 0.99, 1.08),
         notes="Shaded runner with 1.2 px hair strands runs in place; the clip is cooler (gains "
               "0.93/0.99/1.08) and 13 % less saturated; blue key, motion blur."),
    dict(name="c16_attack_detailed_saturated_slime_shaded_green", action="attack", kind="slime",
         spec=SLIME_PURPLE, size=(448, 448), fps=24, secs=2.0, key=GREEN2, frac=0.54, x0=0.35,
         ground=0.9, pscale=1.8, crf=26, grain=3.0, wrap=(2, 0.35), K=6, seed=1916, shadow_w=0.4,
         look=dict(style="shaded", amt=0.3), clip=dict(tex=0.13, sat=1.15),
         notes="Shaded purple slime lunges forward; the clip adds fine surface texture and is 15 % "
               "more saturated than the flat-shaded portrait; green key, motion blur, CRF 26."),
]


def main(argv):
    sel = [c for c in CASES if not argv or any(a in c["name"] for a in argv)]
    if not sel:
        print("no case matches", argv)
        return 1
    t0 = time.time()
    # biggest first so two workers finish together
    sel.sort(key=lambda c: -c["size"][0] * c["size"][1] * c["fps"] * c["secs"] * c.get("K", 5))
    with Pool(min(2, len(sel))) as pool:
        res = pool.map(render_case, sel, chunksize=1)
    bad = 0
    for r in sorted(res, key=lambda r: r["name"]):
        bad += not r["ok"]
        print(f"{r['name']:<62} {r['size'][0]}x{r['size'][1]} {r['frames']:3d} frames "
              f"(decoded {r['decoded']:3d}) portrait {r['portrait'][0]}x{r['portrait'][1]} "
              f"char {r['char_h']:.2f}H rebuild-err {r['worst']:.2f} {r['secs']:5.1f}s "
              f"{'ok' if r['ok'] else 'SELF-CHECK FAILED'}")
    print(f"{len(res)} cases in {time.time() - t0:.1f}s into {OUT}; {bad} failed the self-check")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
