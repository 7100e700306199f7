#!/usr/bin/env python
"""Trial 31: held-out green/blue-screen clips of game characters, as MiniMax H3 writes them.

    .venv/bin/python trials/trial31.py [NAME_SUBSTRING ...]

Renders 16 case folders into $TRIAL_OUT/<case>/ (default trials/_out/trial31): clip.mp4,
portrait.png (the unspilled RGBA rest pose), truth.npz (`rgba`: straight RGBA per video frame,
uint8 (N, H, W, 4)) and case.json (action, notes, parameters, expect_flags where meant).

How a clip is made (all of it procedural, seeded, two worker processes):
- characters are 2.5-D jointed rigs (limbs as tapered capsules, ellipses and polygons with a
  view angle, so a turn goes through the front) drawn 2-4x oversized with aliased fills and
  box-shrunk, so every edge carries coverage alpha; styles flat, shaded (cylinder/sphere
  normals), cel (two tones), inked outlines, textured (scales, fur, cloth noise moving with the
  part), metal (specular); hair strands, whiskers and blade tips 0.4-1 px wide;
- motion blur: a frame is the average (premultiplied) of sub-frame renders, as many as the
  fastest point needs; the truth is that average too (what the character looks like);
- frame 0 is the rest pose over the user's flat canvas, nothing else (H3's first frame is its
  input image); from frame 1 the model's own screen settles in over a few frames: tinted green
  or blue, gradient, vignette, mottle, flicker, per-pixel noise, contact shadow (never in the
  truth);
- light wrap: the blurred local screen colour mixed into the character's own pixels, strongest
  at the silhouette and fading to nothing W px inside, never in the truth; some cases add what
  else the screen does to the character (metal reflecting it, halation, a pale outline drawn
  outside the silhouette, a ghost of the previous frame) and say so in their notes;
- own BT.601 limited-range RGB -> yuv420p (2x2 chroma mean), libx264 one thread, mbtree=0,
  preset medium, CRF 18-24, 24 fps, untagged, like ComfyUI's plain SaveVideo; the truth is
  written into a zip with fixed timestamps, so a second run gives the same bytes.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
import zipfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import av
import cv2
import numpy as np

cv2.setNumThreads(1)
FPS = 24
OUT = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parent / "_out" / "trial31"))
F32 = np.float32


# ----------------------------------------------------------------------------- small helpers

def smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def keyed(u, keys):
    """Piecewise smoothstep through [(u, value), ...] (values scalars or dicts of scalars)."""
    if u <= keys[0][0]:
        return keys[0][1]
    for (u0, v0), (u1, v1) in zip(keys, keys[1:]):
        if u <= u1:
            s = float(smooth((u - u0) / max(u1 - u0, 1e-9)))
            if isinstance(v0, dict):
                return {k: v0[k] + (v1[k] - v0[k]) * s for k in v0}
            return v0 + (v1 - v0) * s
    return keys[-1][1]


def unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def rot2(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def cap_poly(p0, p1, r0, r1, n=9):
    p0 = np.asarray(p0, float)
    p1 = np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0]) if np.hypot(*d) > 1e-6 else 0.0
    t1 = np.linspace(a - math.pi / 2, a + math.pi / 2, n)
    t0 = np.linspace(a + math.pi / 2, a + 3 * math.pi / 2, n)
    return np.concatenate([p1 + r1 * np.c_[np.cos(t1), np.sin(t1)],
                           p0 + r0 * np.c_[np.cos(t0), np.sin(t0)]])


def ell_poly(c, rx, ry, a=0.0, n=40):
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    pts = np.c_[rx * np.cos(t), ry * np.sin(t)] @ rot2(a).T
    return pts + np.asarray(c, float)


# ----------------------------------------------------------------------------- textures

def make_textures(seed):
    rng = np.random.default_rng(seed)
    n = 256
    out = {}
    # value noise, tileable, by filtering white noise in the Fourier domain
    for name, beta in (("cloth", 1.4), ("mottle", 2.2), ("grain", 0.6)):
        w = rng.standard_normal((n, n))
        fy = np.fft.fftfreq(n)[:, None]
        fx = np.fft.fftfreq(n)[None, :]
        f = np.sqrt(fx ** 2 + fy ** 2)
        f[0, 0] = 1.0
        t = np.real(np.fft.ifft2(np.fft.fft2(w) / f ** beta))
        t = (t - t.min()) / (t.max() - t.min())
        out[name] = t.astype(F32)
    # fur: noise stretched along u
    fur = cv2.resize(out["grain"], (n, n // 8), interpolation=cv2.INTER_AREA)
    out["fur"] = cv2.resize(fur, (n, n), interpolation=cv2.INTER_CUBIC)
    out["fur"] = (out["fur"] - out["fur"].min()) / np.ptp(out["fur"])
    # scales: tileable Voronoi edge distance
    m = 128
    pts = rng.random((42, 2)) * m
    yy, xx = np.mgrid[0:m, 0:m].astype(float)
    d = []
    for px, py in pts:
        dx = np.abs(xx - px)
        dx = np.minimum(dx, m - dx)
        dy = np.abs(yy - py)
        dy = np.minimum(dy, m - dy)
        d.append(np.hypot(dx, dy))
    d = np.sort(np.stack(d), axis=0)
    edge = np.clip((d[1] - d[0]) / 6.0, 0, 1)
    cell = 1 - np.clip(d[0] / 14.0, 0, 1) * 0.5
    out["scales"] = (0.35 + 0.65 * edge * cell).astype(F32)
    return out


def sample(tex, u, v):
    n = tex.shape[0]
    return tex[(np.floor(v).astype(np.int64)) % n, (np.floor(u).astype(np.int64)) % n]


# ----------------------------------------------------------------------------- rasteriser

class Ctx:
    def __init__(self, light=(-0.45, -0.65, 0.62), tex=None):
        self.L = unit(light)
        self.H = unit(self.L + np.array([0, 0, 1.0]))
        self.tex = tex or {}


def prim_poly(p):
    k = p["k"]
    if "_poly" in p:
        return p["_poly"]
    if k == "cap":
        q = cap_poly(p["p0"], p["p1"], p["r0"], p["r1"])
    elif k == "ell":
        q = ell_poly(p["c"], p["rx"], p["ry"], p.get("a", 0.0))
    elif k == "blob":
        q = ell_poly(p["c"], p["rx"] * 1.6, p["ry"] * 1.6, p.get("a", 0.0))
    else:  # poly, line
        q = np.asarray(p["pts"], float)
    p["_poly"] = q
    return q


def prim_bounds(p):
    q = prim_poly(p)
    pad = p.get("w", 0) / 2 + p.get("ink", 0) + 1
    return q[:, 0].min() - pad, q[:, 1].min() - pad, q[:, 0].max() + pad, q[:, 1].max() + pad


def shade(p, X, Y, ctx):
    """Straight colour (n,3), alpha multiplier (n,) or None, reflection weight (n,) or None."""
    k = p["k"]
    base = np.asarray(p["col"], F32)
    am = None
    nx = ny = None
    nz = None
    tu = tv = None
    if k == "cap":
        p0 = np.asarray(p["p0"], float)
        d = np.asarray(p["p1"], float) - p0
        L = max(np.hypot(*d), 1e-6)
        ax = d / L
        pe = np.array([-ax[1], ax[0]])
        rx_, ry_ = X - p0[0], Y - p0[1]
        u = (rx_ * ax[0] + ry_ * ax[1]) / L
        uc = np.clip(u, 0, 1)
        r = p["r0"] + (p["r1"] - p["r0"]) * uc
        v = np.clip((rx_ * pe[0] + ry_ * pe[1]) / r, -1, 1)
        ua = np.clip((u - uc) * L / r, -1, 1)
        nx = v * pe[0] + ua * ax[0]
        ny = v * pe[1] + ua * ax[1]
        nz = np.sqrt(np.clip(1 - v * v - ua * ua, 0, 1))
        tu, tv = u * L, v * r
    elif k in ("ell", "blob"):
        c = p["c"]
        a = p.get("a", 0.0)
        ca, sa = math.cos(a), math.sin(a)
        dx, dy = X - c[0], Y - c[1]
        qx = (dx * ca + dy * sa) / p["rx"]
        qy = (-dx * sa + dy * ca) / p["ry"]
        r2 = qx * qx + qy * qy
        if k == "blob":
            am = np.exp(-2.2 * r2).astype(F32)
            nz = np.ones_like(X)
            nx = ny = np.zeros_like(X)
        else:
            qx = np.clip(qx, -1, 1)
            qy = np.clip(qy, -1, 1)
            nx = qx * ca - qy * sa
            ny = qx * sa + qy * ca
            nz = np.sqrt(np.clip(1 - r2, 0, 1))
        tu, tv = qx * p["rx"], qy * p["ry"]
    elif k == "poly":
        o = p.get("o")
        q = prim_poly(p)
        if o is None:
            o = q.mean(0)
        a = p.get("a", 0.0)
        ca, sa = math.cos(a), math.sin(a)
        dx, dy = X - o[0], Y - o[1]
        lx = dx * ca + dy * sa
        ly = -dx * sa + dy * ca
        if "_ext" not in p:
            qq = (q - o) @ np.array([[ca, -sa], [sa, ca]])
            p["_ext"] = (qq.min(0), qq.max(0))
        lo, hi = p["_ext"]
        cx_, cy_ = (lo + hi) / 2
        hx, hy = np.maximum((hi - lo) / 2, 1e-3)
        qx = np.clip((lx - cx_) / hx, -1, 1) * p.get("bulge", 0.6)
        qy = np.clip((ly - cy_) / hy, -1, 1) * p.get("bulge", 0.6) * 0.6
        nx = qx * ca - qy * sa
        ny = qx * sa + qy * ca
        nz = np.sqrt(np.clip(1 - nx * nx - ny * ny, 0.05, 1))
        tu, tv = lx, ly
    else:  # line
        q = prim_poly(p)
        d = q[-1] - q[0]
        L2 = max(d @ d, 1e-6)
        t = np.clip(((X - q[0][0]) * d[0] + (Y - q[0][1]) * d[1]) / L2, 0, 1)
        col2 = np.asarray(p.get("col2", p["col"]), F32)
        rgb = base[None] * (1 - t[:, None]) + col2[None] * t[:, None]
        return rgb.astype(F32), None, None
    st = p.get("st", "shaded")
    ndl = nx * ctx.L[0] + ny * ctx.L[1] + nz * ctx.L[2]
    refl = None
    if st == "flat":
        f = np.ones_like(X)
        rgb = base[None] * f[:, None]
    elif st == "cel":
        f = np.where(ndl > p.get("celcut", 0.12), 1.0, p.get("celdark", 0.72))
        rgb = base[None] * f[:, None]
        if p.get("hl"):
            ndh = nx * ctx.H[0] + ny * ctx.H[1] + nz * ctx.H[2]
            band = (ndh > 0.93) & (ndh < 0.985)
            rgb = rgb + (band * p["hl"])[:, None]
    elif st == "metal":
        f = 0.32 + 0.78 * np.clip(ndl, 0, 1)
        ndh = np.clip(nx * ctx.H[0] + ny * ctx.H[1] + nz * ctx.H[2], 0, 1)
        rgb = base[None] * f[:, None] + (235 * ndh ** 22)[:, None]
        fr = p.get("fresnel")
        if fr:
            refl = (fr[0] + fr[1] * (1 - nz) ** 2).astype(F32)
    else:  # shaded
        f = p.get("amb", 0.52) + p.get("dif", 0.6) * np.clip(ndl, 0, 1)
        rgb = base[None] * f[:, None]
        if p.get("spec"):
            ndh = np.clip(nx * ctx.H[0] + ny * ctx.H[1] + nz * ctx.H[2], 0, 1)
            rgb = rgb + (p["spec"] * ndh ** p.get("shine", 18))[:, None]
    tx = p.get("tex")
    if tx:
        name, scale, amp = tx
        t = sample(ctx.tex[name], tu / scale + p.get("tx0", 0), tv / scale + p.get("ty0", 0))
        rgb = rgb * (1 + amp * (t - 0.5) * 2)[:, None]
    return np.clip(rgb, 0, 255).astype(F32), am, refl


def render(prims, x0, y0, w, h, ss, ctx):
    """Premultiplied RGB, alpha and reflection weight (h, w) of prims over the 1x box at x0, y0."""
    H, W = h * ss, w * ss
    P = np.zeros((H, W, 3), F32)
    A = np.zeros((H, W), F32)
    R = np.zeros((H, W), F32)
    for p in sorted(prims, key=lambda q: q["z"]):
        q = prim_poly(p)
        pts = (q - (x0, y0)) * ss
        pad = (p.get("w", 0) / 2 + p.get("ink", 0)) * ss + 2
        bx0 = max(int(math.floor(pts[:, 0].min() - pad)), 0)
        by0 = max(int(math.floor(pts[:, 1].min() - pad)), 0)
        bx1 = min(int(math.ceil(pts[:, 0].max() + pad)), W)
        by1 = min(int(math.ceil(pts[:, 1].max() + pad)), H)
        if bx1 <= bx0 or by1 <= by0:
            continue
        ip = np.round((pts - (bx0, by0)) * 16).astype(np.int32)
        op = p.get("op", 1.0)
        layers = []
        m = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        if p["k"] == "line":
            cv2.polylines(m, [ip], False, 1, max(1, int(round(p["w"] * ss))), cv2.LINE_8, 4)
        else:
            cv2.fillPoly(m, [ip], 1, cv2.LINE_8, 4)
        layers.append((m, None))
        if p.get("ink"):
            m2 = np.zeros_like(m)
            cv2.polylines(m2, [ip], p["k"] != "line", 1, max(1, int(round(p["ink"] * ss))),
                          cv2.LINE_8, 4)
            layers.append((m2, np.asarray(p.get("inkc", (30, 24, 34)), F32)))
        Pv, Av, Rv = P[by0:by1, bx0:bx1], A[by0:by1, bx0:bx1], R[by0:by1, bx0:bx1]
        for m, inkc in layers:
            mb = m.astype(bool)
            ys, xs = np.nonzero(mb)
            if not len(ys):
                continue
            if inkc is None:
                X = x0 + (xs + bx0 + 0.5) / ss
                Y = y0 + (ys + by0 + 0.5) / ss
                rgb, am, rf = shade(p, X, Y, ctx)
            else:
                rgb, am, rf = inkc[None], None, None
            if am is None and op == 1.0:
                Pv[mb] = rgb
                Av[mb] = 1.0
                Rv[mb] = 0.0 if rf is None else rf
                continue
            a = np.full(len(ys), op, F32) if am is None else (op * am).astype(F32)
            keep = 1 - a
            Pv[mb] = Pv[mb] * keep[:, None] + rgb * a[:, None]
            Av[mb] = Av[mb] * keep + a
            Rv[mb] = Rv[mb] * keep + (0 if rf is None else rf * a)
    if ss > 1:
        P = cv2.resize(P, (w, h), interpolation=cv2.INTER_AREA)
        A = cv2.resize(A, (w, h), interpolation=cv2.INTER_AREA)
        R = cv2.resize(R, (w, h), interpolation=cv2.INTER_AREA)
    return P, A, R


def prims_bounds(prims):
    b = np.array([prim_bounds(p) for p in prims])
    return b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()


# ----------------------------------------------------------------------------- the rig

PROP = dict(hr=0.072, tor=0.29, th=0.235, sh=0.215, ankle=0.04, foot=0.085, ua=0.16, fa=0.15,
            hw=0.045, sw=0.085, neck=0.035, r_th=0.043, r_sh=0.033, r_ua=0.030, r_fa=0.026,
            r_hand=0.027, tf_hip=0.06, tl_hip=0.088, tf_ch=0.068, tl_ch=0.105, r_foot=0.024,
            r_neck=0.026)

REST = dict(lean=0.02, head=0.0, **{"th+": 0.05, "th-": -0.05, "kn+": 0.04, "kn-": 0.04,
                                     "sh+": 0.16, "sh-": -0.10, "el+": 0.25, "el-": 0.2},
            air=0.0, dx=0.0, phi=0.55, wind=0.0)


class Rig:
    """Joints of a humanoid in its own frame (forward f, up y, lateral z; units of its height),
    projected at view angle phi: x = f cos - z sin, depth = f sin + z cos."""

    def __init__(self, **prop):
        self.p = dict(PROP, **prop)

    def joints(self, pose):
        P = self.p
        lean = pose["lean"]
        up = np.array([math.sin(lean), math.cos(lean)])
        J = {}
        J["hipC"] = np.array([0.0, 0.0, 0.0])
        J["shC"] = np.array([*(P["tor"] * up), 0.0])
        J["neck"] = np.array([*((P["tor"] + 0.012) * up), 0.0])
        hd = lean + pose["head"]
        J["head"] = J["neck"] + np.array([math.sin(hd), math.cos(hd), 0]) * (P["neck"] + P["hr"])
        for s, k in ((1, "+"), (-1, "-")):
            th, kn = pose["th" + k], pose["kn" + k]
            hip = np.array([0, 0, s * P["hw"]])
            knee = hip + P["th"] * np.array([math.sin(th), -math.cos(th), 0])
            ank = knee + P["sh"] * np.array([math.sin(th - kn), -math.cos(th - kn), 0])
            psi = (th - kn) * 0.7 + pose.get("ft" + k, 0.0)
            toe = ank + np.array([P["foot"] * math.cos(psi), P["foot"] * math.sin(psi) - 0.012, 0])
            heel = ank + np.array([-0.022 * math.cos(psi), -0.022 * math.sin(psi) - 0.012, 0])
            J["hip" + k], J["knee" + k], J["ankle" + k] = hip, knee, ank
            J["toe" + k], J["heel" + k] = toe, heel
            sj = J["shC"] + np.array([0, 0, s * P["sw"]])
            al = pose["sh" + k] + lean
            el = sj + P["ua"] * np.array([math.sin(al), -math.cos(al), 0])
            be = al + pose["el" + k]
            wr = el + P["fa"] * np.array([math.sin(be), -math.cos(be), 0])
            J["sh" + k], J["elbow" + k], J["wrist" + k] = sj, el, wr
            J["hand" + k] = wr + 0.028 * np.array([math.sin(be), -math.cos(be), 0])
        low = min(min(J["ankle+"][1], J["ankle-"][1]) - P["ankle"],
                  min(J["toe+"][1], J["toe-"][1], J["heel+"][1], J["heel-"][1]) - P["r_foot"])
        for v in J.values():
            v[1] += -low + pose.get("air", 0.0)
        return J

    def project(self, J, pose, root_x, ground_y, S):
        phi = pose["phi"]
        c, s = math.cos(phi), math.sin(phi)
        out = {}
        for k, (f, y, z) in J.items():
            out[k] = np.array([root_x + S * (pose["dx"] + f * c - z * s), ground_y - S * y,
                               f * s + z * c])
        return out


def xy(v):
    return v[:2]


def body_prims(rig, J, pose, S, C, k=1.0):
    """The body: C maps part names to colours, and style keys."""
    P = rig.p
    phi = pose["phi"]
    c, s = math.cos(phi), math.sin(phi)
    st = C.get("style", "shaded")
    ink = C.get("ink", 0) * k
    tex = C.get("skin_tex")
    out = []

    def add(d):
        d.setdefault("st", st)
        if ink and "ink" not in d:
            d["ink"] = ink
        out.append(d)

    def width(tf, tl):
        return S * math.sqrt((tf * c) ** 2 + (tl * s) ** 2)

    for side in ("+", "-"):
        zb = 0.0
        # legs
        hip, kn, an, toe, heel = (J[n + side] for n in ("hip", "knee", "ankle", "toe", "heel"))
        zl = (hip[2] + kn[2]) / 2
        add(dict(k="cap", p0=xy(hip), p1=xy(kn), r0=S * P["r_th"], r1=S * P["r_th"] * 0.85,
                 col=C["legs"], z=zl + zb, tex=C.get("legs_tex")))
        add(dict(k="cap", p0=xy(kn), p1=xy(an), r0=S * P["r_sh"], r1=S * P["r_sh"] * 0.8,
                 col=C.get("shins", C["legs"]), z=zl + 0.001, tex=C.get("legs_tex")))
        add(dict(k="cap", p0=xy(heel), p1=xy(toe), r0=S * P["r_foot"], r1=S * P["r_foot"] * 0.8,
                 col=C["feet"], z=zl + 0.002))
        # arms
        sh, el, wr, hd = (J[n + side] for n in ("sh", "elbow", "wrist", "hand"))
        za = (sh[2] + el[2] + wr[2]) / 3 + 0.03 * (1 if (sh[2] >= 0) else -1)
        add(dict(k="cap", p0=xy(sh), p1=xy(el), r0=S * P["r_ua"], r1=S * P["r_ua"] * 0.9,
                 col=C.get("upper", C["torso"]), z=za, tex=C.get("torso_tex")))
        add(dict(k="cap", p0=xy(el), p1=xy(wr), r0=S * P["r_fa"], r1=S * P["r_fa"] * 0.85,
                 col=C.get("fore", C["skin"]), z=za + 0.001, tex=C.get("fore_tex", tex)))
        add(dict(k="ell", c=xy(hd), rx=S * P["r_hand"], ry=S * P["r_hand"] * 1.1,
                 col=C.get("hands", C["skin"]), z=za + 0.002, tex=tex))
    # torso
    add(dict(k="cap", p0=xy(J["hipC"]), p1=xy(J["shC"]),
             r0=width(P["tf_hip"], P["tl_hip"]), r1=width(P["tf_ch"], P["tl_ch"]),
             col=C["torso"], z=0.0, tex=C.get("torso_tex")))
    add(dict(k="cap", p0=xy(J["neck"]), p1=xy(J["head"]), r0=S * P["r_neck"],
             r1=S * P["r_neck"], col=C["skin"], z=-0.001, tex=tex))
    # head
    hd = J["head"]
    hr = S * P["hr"]
    add(dict(k="ell", c=xy(hd), rx=hr * (0.92 + 0.08 * abs(s)), ry=hr * 1.06,
             a=pose["head"] * c, col=C["skin"], z=0.12, tex=tex))
    return out


def face_prims(J, pose, S, rig, C, k=1.0, eyes=0.42, e_h=0.0, eye_r=0.013, z=0.125):
    phi = pose["phi"]
    hd = J["head"]
    hr = S * rig.p["hr"]
    out = []
    for a in (eyes, -eyes):
        d = math.sin(a + phi)
        if d < 0.25:
            continue
        x = hd[0] + hr * math.cos(a + phi) * 0.95
        y = hd[1] - hr * e_h
        squeeze = 0.45 + 0.55 * d
        if C.get("anime"):
            out.append(dict(k="ell", c=(x, y), rx=S * eye_r * squeeze * 1.1, ry=S * eye_r * 1.6,
                            col=(250, 250, 250), st="flat", z=z))
            out.append(dict(k="ell", c=(x, y + S * eye_r * 0.2), rx=S * eye_r * squeeze * 0.8,
                            ry=S * eye_r * 1.25, col=C["iris"], st="flat", z=z + 0.001))
            out.append(dict(k="ell", c=(x - S * eye_r * 0.3, y - S * eye_r * 0.5),
                            rx=S * eye_r * 0.32, ry=S * eye_r * 0.36, col=(255, 255, 255),
                            st="flat", z=z + 0.002))
            out.append(dict(k="line", pts=[(x - S * eye_r * 1.1 * squeeze, y - S * eye_r * 1.5),
                                           (x + S * eye_r * 1.1 * squeeze, y - S * eye_r * 1.7)],
                            w=1.1 * k, col=(40, 30, 40), z=z + 0.003))
        else:
            out.append(dict(k="ell", c=(x, y), rx=S * eye_r * squeeze, ry=S * eye_r * 1.2,
                            col=C.get("eye", (30, 24, 26)), st="flat", z=z))
    # nose (a bump on the profile) and mouth
    if C.get("nose", True):
        out.append(dict(k="ell", c=(hd[0] + hr * math.cos(phi) * 0.98, hd[1] + hr * 0.22),
                        rx=hr * 0.16, ry=hr * 0.13, col=C["skin"], z=0.121, tex=C.get("skin_tex")))
    d = math.sin(phi)
    if d > 0.2:
        x = hd[0] + hr * math.cos(phi) * 0.8
        out.append(dict(k="line", pts=[(x - hr * 0.12 * d, hd[1] + hr * 0.52),
                                       (x + hr * 0.12 * d, hd[1] + hr * 0.5)],
                        w=0.9 * k, col=C.get("mouth", (110, 50, 50)), z=z))
    for p in out:
        p["noink"] = True
    return out


def held_angle(J, side, grip, pose, absang=None):
    """Screen angle of a held thing: the forearm's plus grip, or a fixed angle (both mirrored
    with the facing)."""
    fs = 1.0 if math.cos(pose["phi"]) >= 0 else -1.0
    if absang is not None:
        return absang if fs > 0 else math.pi - absang
    el, hd = J["elbow" + side], J["hand" + side]
    d = hd[:2] - el[:2]
    return math.atan2(d[1], d[0]) + grip * fs


def held(J, side, S, pts, grip, pose, z=None, absang=None, **kw):
    """A polygon given in (along, across) units of S, attached to a hand, rotated by the
    forearm's screen angle plus grip, or to absang (mirrored with the facing)."""
    hd = J["hand" + side]
    fs = 1.0 if math.cos(pose["phi"]) >= 0 else -1.0
    a = held_angle(J, side, grip, pose, absang)
    pts = np.asarray(pts, float) * S
    pts[:, 1] *= fs
    w = pts @ rot2(a).T + hd[:2]
    d = dict(k="poly", pts=w, o=hd[:2], a=a, z=hd[2] + 0.035 if z is None else z, **kw)
    return d


def blade(L0, L1, w0, w1=0.0, n=6):
    """Tapered blade outline from L0 to L1 (in S units), width w0 at the hilt, w1 at the tip."""
    t = np.linspace(0, 1, n)
    x = L0 + (L1 - L0) * t
    w = w0 + (w1 - w0) * t ** 1.5
    return np.concatenate([np.c_[x, w / 2], np.c_[x[::-1], -w[::-1] / 2]])


def strands(root, n, length, S, rng_vals, col, t, wind, k, spread, down=(0.0, 1.0), wmin=0.5,
            wmax=1.0, z=0.0, col2=None, sway=0.0, phase=0.0, op=1.0):
    """n hair-like polylines from root points (callable i -> (x, y)), hanging toward `down`,
    blown by wind (px per unit length) and swaying with time."""
    out = []
    dn = unit(down)
    pe = np.array([-dn[1], dn[0]])
    for i in range(n):
        rv = rng_vals[i]
        x0, y0 = root(i)
        Lp = length * S * (0.7 + 0.45 * rv[0])
        pts = []
        for j in range(7):
            u = j / 6
            off = (spread * (rv[1] - 0.5) * u * Lp
                   + wind * u ** 1.6 * Lp
                   + sway * Lp * u ** 2 * math.sin(t * 0.26 + phase + rv[2] * 2 - u * 1.5))
            p = np.array([x0, y0]) + dn * (u * Lp) + pe * off
            pts.append(p)
        shade_ = 0.82 + 0.3 * rv[3]
        out.append(dict(k="line", pts=np.array(pts), w=k * (wmin + (wmax - wmin) * rv[4]),
                        col=tuple(min(255, ch * shade_) for ch in col),
                        col2=tuple(min(255, ch * shade_ * 1.08) for ch in (col2 or col)),
                        z=z + rv[5] * 0.002, op=op))
    return out


# ----------------------------------------------------------------------------- actions

def act_walk(t, period=24.0, amp=1.0):
    p = 2 * math.pi * t / period
    d = dict(REST)
    for k, ph in (("+", p), ("-", p + math.pi)):
        d["th" + k] = 0.05 + 0.42 * amp * math.sin(ph)
        d["kn" + k] = 0.08 + 0.75 * amp * max(0.0, math.cos(ph - 0.25)) ** 2
        d["sh" + k] = 0.05 - 0.38 * amp * math.sin(ph)
        d["el" + k] = 0.3 + 0.2 * max(0.0, -math.sin(ph))
    d["lean"] = 0.06
    d["head"] = 0.02 * math.sin(2 * p)
    return d


def act_run(t, period=15.0):
    p = 2 * math.pi * t / period
    d = dict(REST)
    for k, ph in (("+", p), ("-", p + math.pi)):
        d["th" + k] = 0.15 + 0.78 * math.sin(ph)
        d["kn" + k] = 0.2 + 1.45 * max(0.0, math.cos(ph - 0.4)) ** 1.5
        d["sh" + k] = -0.1 - 0.85 * math.sin(ph)
        d["el" + k] = 1.45
    d["lean"] = 0.22
    d["air"] = 0.035 * abs(math.sin(p))
    d["head"] = -0.12
    return d


def act_idle(t, period=48.0, amp=1.0):
    p = 2 * math.pi * t / period
    d = dict(REST)
    d["lean"] = 0.02 + 0.025 * amp * math.sin(p)
    d["head"] = 0.05 * amp * math.sin(p + 0.8)
    d["sh+"] = REST["sh+"] + 0.08 * amp * math.sin(p + 0.3)
    d["sh-"] = REST["sh-"] - 0.06 * amp * math.sin(p)
    d["kn+"] = d["kn-"] = 0.04 + 0.03 * amp * (1 + math.sin(2 * p))
    return d


def ease(pose, t, frames=5.0):
    """Blend from the rest pose over the first frames, as the model starts from its input."""
    e = float(smooth(t / frames))
    out = dict(pose)
    for k, v in REST.items():
        if k in ("phi",):
            continue
        out[k] = v + (pose[k] - v) * e
    return out


# ----------------------------------------------------------------------------- backdrop, video

def lowfreq(rng, H, W, cells=28):
    g = rng.standard_normal((max(2, H // cells + 2), max(2, W // cells + 2))).astype(F32)
    g = cv2.resize(g, (W, H), interpolation=cv2.INTER_CUBIC)
    return g / max(float(np.abs(g).max()), 1e-6)


class Screen:
    """The model's screen from frame 1 on; frame 0 is the user's flat canvas."""

    def __init__(self, W, H, cfg, rng):
        self.W, self.H, self.cfg = W, H, cfg
        yy, xx = np.mgrid[0:H, 0:W].astype(F32)
        self.yy, self.xx = yy, xx
        gx, gy = cfg.get("gx", 0.0), cfg.get("gy", 0.0)
        r2 = ((xx - W / 2) / (W / 2)) ** 2 + ((yy - H / 2) / (H / 2)) ** 2
        self.static = (1 + gx * (xx / W - 0.5) + gy * (yy / H - 0.5)) * (1 - cfg.get("vig", 0.15) * r2 / 2)
        if cfg.get("hot"):
            hx, hy, hs, ha = cfg["hot"]
            self.static *= 1 + ha * np.exp(-(((xx - hx * W) ** 2 + (yy - hy * H) ** 2) / (2 * (hs * W) ** 2)))
        self.m1 = lowfreq(rng, H, W, cfg.get("mcell", 28))
        self.m2 = lowfreq(rng, H, W, cfg.get("mcell", 28))
        self.rng = rng
        self.flick = 0.0

    def base(self, t):
        cfg = self.cfg
        col = cfg["screen"]
        if cfg.get("drift"):
            keys = cfg["drift"]
            col = np.array(keyed(t, [(kt, np.array(kc, float)) for kt, kc in keys]))
        return np.asarray(col, F32)

    def frame(self, t, N):
        cfg = self.cfg
        rng = self.rng
        # flicker: a smooth random walk plus the odd jump
        self.flick = 0.7 * self.flick + 0.3 * rng.standard_normal()
        g = 1 + cfg.get("flicker", 0.02) * self.flick + cfg.get("breath", 0.0) * math.sin(t * 0.21)
        ph = t * cfg.get("mspeed", 0.08)
        mot = 1 + cfg.get("mottle", 0.03) * (math.cos(ph) * self.m1 + math.sin(ph) * self.m2)
        fac = self.static * mot * g
        if cfg.get("cloth"):
            fac = fac * self.cloth(t)
        B = self.base(t)[None, None, :] * fac[..., None]
        sig = cfg.get("noise", 2.5)
        if sig:
            n = rng.standard_normal((self.H, self.W), dtype=F32) * sig
            B += n[..., None]
            B += rng.standard_normal((self.H, self.W, 3), dtype=F32) * (sig * 0.45)
        settle = cfg.get("settle", 3)
        if t < settle:
            e = float(smooth(t / settle))
            B = np.asarray(cfg["canvas"], F32) * (1 - e) + B * e
        return B

    def cloth(self, t):
        """A hung fabric screen: vertical folds that sway, sag folds from the top clips, a
        horizontal seam with stitches, a faint weave."""
        xx, yy, W, H = self.xx, self.yy, self.W, self.H
        s = 0.25 * math.sin(t * 0.11)
        f = (1 + 0.075 * np.sin(2 * np.pi * xx / 97 + 1.4 * np.sin(yy / 150 + s) + s)
             + 0.04 * np.sin(2 * np.pi * xx / 41 + 0.8 * np.sin(yy / 90)))
        for cx in (0.0, 0.5, 1.0):  # sag from three clips at the top
            d = np.abs((xx - cx * W) - 0.6 * yy * np.sign(xx - cx * W + 1e-3))
            f -= 0.06 * np.exp(-(d / 9) ** 2) * np.exp(-yy / (0.28 * H))
        sy = 0.63 * H + 5 * np.sin(xx / 60)
        dy = yy - sy
        f -= 0.12 * np.exp(-(dy / 1.6) ** 2)
        f += 0.05 * np.exp(-((dy + 4) / 2.5) ** 2)
        stitch = (np.abs(dy - 3.5) < 0.8) & ((xx.astype(int) // 5) % 2 == 0)
        f -= 0.07 * stitch
        f *= 1 + 0.012 * np.sin(xx * 2.1) * np.sin(yy * 2.3)
        return f


def to_yuv420(rgb8):
    """BT.601 limited range, chroma as the mean of each 2x2 block (one (H*3/2, W) plane)."""
    f = rgb8.astype(F32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    y = 16 + 0.256788 * r + 0.504129 * g + 0.097906 * b
    cb = 128 - 0.148223 * r - 0.290993 * g + 0.439216 * b
    cr = 128 + 0.439216 * r - 0.367788 * g - 0.071427 * b
    H, W = y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))
    yq = np.clip(np.rint(y), 0, 255).astype(np.uint8)
    u = np.clip(np.rint(sub(cb)), 0, 255).astype(np.uint8)
    v = np.clip(np.rint(sub(cr)), 0, 255).astype(np.uint8)
    return np.concatenate([yq, u.reshape(H // 4, W), v.reshape(H // 4, W)], axis=0)


class Encoder:
    def __init__(self, path, W, H, crf):
        self.c = av.open(str(path), "w", format="mp4")
        s = self.c.add_stream("libx264", rate=FPS)
        s.width, s.height, s.pix_fmt = W, H, "yuv420p"
        s.thread_count = 1
        s.options = {"crf": str(crf), "preset": "medium", "x264-params": "mbtree=0:threads=1"}
        self.s = s
        self.i = 0

    def add(self, rgb8):
        f = av.VideoFrame.from_ndarray(to_yuv420(rgb8), format="yuv420p")
        f.pts = self.i
        self.i += 1
        for p in self.s.encode(f):
            self.c.mux(p)

    def close(self):
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


def save_truth(path, arr):
    zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    zi.external_attr = 0o644 << 16
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=3) as z:
        with z.open(zi, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, arr, allow_pickle=False)


# ----------------------------------------------------------------------------- characters

class Char:
    """A rig, colours, extra parts and an action: prims(t, root, S, k) for a frame time t."""

    def __init__(self, rig, C, action, extras=None, seed=0):
        self.rig, self.C, self.action, self.extras = rig, C, action, extras
        self.rv = np.random.default_rng(seed).random((400, 8))

    def pose(self, t):
        return self.action(t)

    def prims(self, t, root, S, k=1.0, pose=None):
        pose = self.pose(t) if pose is None else pose
        J3 = self.rig.joints(pose)
        J = self.rig.project(J3, pose, root[0], root[1], S)
        out = body_prims(self.rig, J, pose, S, self.C, k)
        if self.C.get("face", True):
            out += face_prims(J, pose, S, self.rig, self.C, k, **self.C.get("face_kw", {}))
        if self.extras:
            out += self.extras(self, J, pose, S, t, k)
        ink = self.C.get("ink", 0) * k
        fr = self.C.get("fresnel")
        for p in out:
            if fr and p.get("st", self.C.get("style")) == "metal" and "fresnel" not in p and p["k"] != "line":
                p["fresnel"] = fr
            if p.get("noink") or p["k"] in ("line", "blob"):
                p.pop("ink", None)
            elif ink and "ink" not in p:
                p["ink"] = ink
            p.setdefault("st", self.C.get("style", "shaded"))
        self.J = J
        return out

    def feet(self, J):
        return [J[n][:2] for n in ("toe+", "heel+", "toe-", "heel-")]


# ---- extras, one per character -------------------------------------------------------------

def ex_botanist(ch, J, pose, S, t, k):
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    c = math.cos(pose["phi"])
    out = [
        dict(k="ell", c=(hd[0] - hr * 0.3 * c, hd[1] - hr * 0.42), rx=hr * 0.98, ry=hr * 0.7,
             col=(110, 52, 30), z=0.124, tex=("grain", 1.5, 0.25)),
        # straw hat: wide brim and crown, woven
        dict(k="ell", c=(hd[0], hd[1] - hr * 0.75), rx=hr * 2.3, ry=hr * 0.42,
             a=pose["head"] * 0.5, col=(222, 192, 112), z=0.2, tex=("cloth", 2.0, 0.22)),
        dict(k="ell", c=(hd[0], hd[1] - hr * 1.05), rx=hr * 1.05, ry=hr * 0.55,
             col=(214, 180, 100), z=0.201, tex=("cloth", 2.0, 0.22)),
        dict(k="poly", pts=[(hd[0] - hr * 1.02, hd[1] - hr * 0.95), (hd[0] + hr * 1.02, hd[1] - hr * 0.95),
                            (hd[0] + hr * 1.02, hd[1] - hr * 0.78), (hd[0] - hr * 1.02, hd[1] - hr * 0.78)],
             col=(60, 120, 50), z=0.202),
    ]
    # green apron over the shirt, from chest to knee
    sh, hp = J["shC"], J["hipC"]
    wch = S * 0.085
    out.append(dict(k="poly", pts=[(sh[0] - wch * 0.7 + S * 0.02 * c, sh[1] + S * 0.05),
                                   (sh[0] + wch * 0.7 + S * 0.02 * c, sh[1] + S * 0.05),
                                   (hp[0] + wch * 1.1 + S * 0.03 * c, hp[1] + S * 0.2),
                                   (hp[0] - wch * 1.1 + S * 0.03 * c, hp[1] + S * 0.2)],
                    col=(46, 128, 70), z=0.05, tex=("cloth", 3.0, 0.12)))
    # a potted seedling in the near hand: terracotta pot, stems and leaves (green on green)
    h = J["hand+"]
    px, py = h[0] + S * 0.01, h[1] - S * 0.01
    out.append(dict(k="poly", pts=[(px - S * 0.045, py - S * 0.03), (px + S * 0.045, py - S * 0.03),
                                   (px + S * 0.035, py + S * 0.05), (px - S * 0.035, py + S * 0.05)],
                    col=(190, 96, 60), z=h[2] + 0.05))
    sway = 0.15 * math.sin(t * 0.2)
    for i, (a, L) in enumerate(((-0.5, 0.11), (0.1, 0.15), (0.6, 0.1), (-0.15, 0.13))):
        a = a + sway
        tip = (px + S * L * math.sin(a), py - S * 0.03 - S * L * math.cos(a))
        out.append(dict(k="line", pts=[(px, py - S * 0.03), tip], w=1.0 * k, col=(70, 120, 40),
                        z=h[2] + 0.049))
        out.append(dict(k="ell", c=tip, rx=S * 0.03, ry=S * 0.013, a=a + 1.2 + i,
                        col=(72, 168, 58), z=h[2] + 0.051))
    return out


def ex_lizard(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    out = []
    # snout, crest, eye
    out.append(dict(k="ell", c=(hd[0] + hr * 1.0 * c, hd[1] + hr * 0.25), rx=hr * 0.95, ry=hr * 0.5,
                    a=0.1 * c, col=ch.C["skin"], z=0.122, tex=ch.C["skin_tex"]))
    for i in range(5):
        a = -0.9 + i * 0.35
        px = hd[0] - hr * 0.2 * c + hr * 1.0 * math.sin(a) * c * -1
        py = hd[1] - hr * 0.9 * math.cos(a)
        out.append(dict(k="poly", pts=[(px - S * 0.012, py), (px + S * 0.012, py),
                                       (px - S * 0.03 * c, py - S * 0.05)],
                        col=(200, 90, 60), z=0.11))
    # tail: tapered chain behind the hips, swaying
    base = J["hipC"][:2] + np.array([-S * 0.05 * c, S * 0.02])
    pts = [base]
    for i in range(1, 7):
        a = -0.9 - 0.12 * i + 0.25 * math.sin(t * 0.26 - i * 0.5)
        pts.append(pts[-1] + S * 0.07 * np.array([-c * math.cos(a * 0.6) * 1.0, -math.sin(a) * 0.5 + 0.25]))
    for i in range(6):
        out.append(dict(k="cap", p0=pts[i], p1=pts[i + 1], r0=S * (0.045 - 0.007 * i),
                        r1=S * (0.045 - 0.007 * (i + 1)) + 0.3, col=ch.C["skin"], z=-0.2 + 0.001 * i,
                        tex=ch.C["skin_tex"]))
    # leather vest and a rust kilt
    sh, hp = J["shC"], J["hipC"]
    w = S * 0.09
    out.append(dict(k="poly", pts=[(sh[0] - w, sh[1] + S * 0.02), (sh[0] + w * 0.8, sh[1] + S * 0.02),
                                   (hp[0] + w * 0.9, hp[1] - S * 0.08), (hp[0] - w, hp[1] - S * 0.08)],
                    col=(122, 80, 48), z=0.01, tex=("cloth", 2.0, 0.2)))
    sw = 0.04 * math.sin(t * 0.26)
    out.append(dict(k="poly", pts=[(hp[0] - w * 1.1, hp[1] - S * 0.03), (hp[0] + w * 1.1, hp[1] - S * 0.03),
                                   (hp[0] + w * 1.2 + S * sw, hp[1] + S * 0.14),
                                   (hp[0] - w * 1.25 + S * sw, hp[1] + S * 0.15)],
                    col=(160, 70, 40), z=0.06))
    # a spear in the far hand, shaft 1.6 px, leaf head tapering to a point
    sa = -math.pi / 2 + 0.12 + 0.04 * math.sin(t * 0.26)
    out.append(held(J, "-", S, np.r_[blade(-0.45, 0.55, 0.012, 0.012, 2)], 0.0, pose,
                    col=(140, 100, 60), z=J["hand-"][2] - 0.01, absang=sa))
    out.append(held(J, "-", S, blade(0.55, 0.72, 0.032, 0.0, 8), 0.0, pose, col=(190, 196, 205),
                    st="metal", z=J["hand-"][2] - 0.009, absang=sa))
    return out


def ex_pirate(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    out = []
    # long red coat tails, lagging the legs
    lag = 0.05 * math.sin(t * 0.4) - 0.05 * (pose["th+"] - 0.05)
    w = S * 0.1
    out.append(dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.05), (hp[0] + w * 0.9, hp[1] - S * 0.05),
                                   (hp[0] + w * 1.0 + S * (lag + 0.02) * c, hp[1] + S * 0.25),
                                   (hp[0] - w * 1.6 - S * 0.03 * c + S * lag, hp[1] + S * 0.27)],
                    col=(168, 38, 40), z=-0.15))
    # white shirt front, belt, beard, tricorn
    out.append(dict(k="poly", pts=[(sh[0] - S * 0.025 + S * 0.04 * c, sh[1] + S * 0.01),
                                   (sh[0] + S * 0.03 + S * 0.04 * c, sh[1] + S * 0.01),
                                   (hp[0] + S * 0.03 + S * 0.05 * c, hp[1] - S * 0.08),
                                   (hp[0] - S * 0.01 + S * 0.05 * c, hp[1] - S * 0.08)],
                    col=(238, 232, 216), z=0.01))
    out.append(dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.06), (hp[0] + w, hp[1] - S * 0.06),
                                   (hp[0] + w, hp[1] - S * 0.035), (hp[0] - w, hp[1] - S * 0.035)],
                    col=(40, 30, 26), z=0.02))
    out.append(dict(k="ell", c=(hd[0] + hr * 0.45 * c, hd[1] + hr * 0.62), rx=hr * 0.62, ry=hr * 0.5,
                    col=(96, 56, 32), z=0.13))
    out.append(dict(k="poly", pts=[(hd[0] - hr * 1.5, hd[1] - hr * 0.55), (hd[0] + hr * 1.6, hd[1] - hr * 0.6),
                                   (hd[0] + hr * 0.8, hd[1] - hr * 1.05), (hd[0], hd[1] - hr * 1.55),
                                   (hd[0] - hr * 0.9, hd[1] - hr * 1.05)],
                    col=(34, 30, 36), z=0.2))
    # cutlass: gold guard, curved steel blade to a fine point
    out.append(held(J, "+", S, [(-0.03, -0.035), (0.03, -0.035), (0.03, 0.035), (-0.03, 0.035)], 0.6,
                    pose, col=(210, 170, 60), st="metal"))
    bl = blade(0.03, 0.36, 0.04, 0.0, 9)
    bl[:, 1] += 0.06 * ((bl[:, 0] - 0.03) / 0.33) ** 2
    out.append(held(J, "+", S, bl, 0.6, pose, col=(205, 210, 220), st="metal", z=J["hand+"][2] + 0.034))
    return out


def ex_dancer(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    out = []
    # a flared dress, swinging with the twirl
    sw = 0.12 * math.sin(t * 0.33) + 0.06 * pose.get("wind", 0)
    w = S * 0.08
    hem = [(hp[0] - w * 2.6 + S * sw, hp[1] + S * 0.36), (hp[0] - w * 1.2 + S * sw * 1.2, hp[1] + S * 0.39),
           (hp[0] + w * 0.3 + S * sw * 1.3, hp[1] + S * 0.37), (hp[0] + w * 2.4 + S * sw, hp[1] + S * 0.35)]
    out.append(dict(k="poly", pts=[(sh[0] - w * 0.9, sh[1] + S * 0.03), (sh[0] + w * 0.9, sh[1] + S * 0.03),
                                   (hp[0] + w * 0.9, hp[1] - S * 0.06)] + hem[::-1] + [(hp[0] - w * 0.9, hp[1] - S * 0.06)],
                    col=(40, 88, 205), z=0.05, tex=("cloth", 2.5, 0.15), bulge=0.8))
    out.append(dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.07), (hp[0] + w, hp[1] - S * 0.07),
                                   (hp[0] + w, hp[1] - S * 0.045), (hp[0] - w, hp[1] - S * 0.045)],
                    col=(225, 180, 60), z=0.051, st="metal"))
    # hair: a dark mass and 70 long strands streaming back
    out.append(dict(k="ell", c=(hd[0] - hr * 0.2 * c, hd[1] - hr * 0.25), rx=hr * 1.08, ry=hr * 0.92,
                    col=(44, 30, 32), z=0.123))
    wind = 0.55 * c + 0.25 * math.sin(t * 0.33)
    out += strands(lambda i: (hd[0] - hr * (0.2 + 0.75 * ch.rv[i, 6]) * c, hd[1] - hr * (0.7 - 1.1 * ch.rv[i, 7])),
                   70, 0.33, S, ch.rv, (50, 34, 34), t, wind, k, spread=0.25, wmin=0.5, wmax=1.0,
                   z=-0.3, col2=(86, 60, 50), sway=0.18)
    # silk ribbon from the near hand (80 % opaque)
    h = J["hand+"][:2]
    pts = [h]
    for i in range(1, 12):
        pts.append(pts[-1] + S * 0.045 * np.array([math.cos(t * 0.3 + i * 0.45) * 0.9 - 0.3 * c,
                                                   math.sin(t * 0.3 + i * 0.55) * 0.9 + 0.15]))
    out.append(dict(k="line", pts=np.array(pts), w=3.2 * k, col=(150, 196, 240), col2=(205, 225, 250),
                    op=0.8, z=0.4))
    return out


def ex_mushroom(ch, J, pose, S, t, k):
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    c = math.cos(pose["phi"])
    bob = pose["head"]
    cap = []
    for i in range(15):
        a = math.pi + math.pi * i / 14
        cap.append((hd[0] + hr * 1.9 * math.cos(a), hd[1] - hr * 0.25 + hr * 1.55 * math.sin(a)))
    cap += [(hd[0] + hr * 1.7, hd[1] + hr * 0.05), (hd[0] - hr * 1.7, hd[1] + hr * 0.05)]
    out = [dict(k="poly", pts=cap, o=xy(hd), a=bob, col=(74, 168, 62), z=0.2)]
    for sx, sy, r in ((-1.0, -0.9, 0.35), (0.2, -1.35, 0.3), (1.05, -0.7, 0.28), (-0.35, -0.4, 0.2)):
        out.append(dict(k="ell", c=(hd[0] + hr * sx * (1 if c > 0 else -1), hd[1] + hr * sy),
                        rx=hr * r, ry=hr * r * 0.8, col=(246, 238, 214), z=0.21))
    return out


def ex_fox(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    fs = 1 if c >= 0 else -1
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    fur = ch.C["skin_tex"]
    out = []
    # muzzle, cream cheek, ears
    out.append(dict(k="poly", pts=[(hd[0] + hr * 0.3 * fs, hd[1] - hr * 0.1), (hd[0] + hr * 1.55 * fs, hd[1] + hr * 0.35),
                                   (hd[0] + hr * 0.3 * fs, hd[1] + hr * 0.75)],
                    col=(214, 120, 50), z=0.121, tex=fur))
    out.append(dict(k="ell", c=(hd[0] + hr * 0.55 * fs, hd[1] + hr * 0.5), rx=hr * 0.55, ry=hr * 0.3,
                    col=(240, 226, 200), z=0.122))
    out.append(dict(k="ell", c=(hd[0] + hr * 1.5 * fs, hd[1] + hr * 0.33), rx=hr * 0.13, ry=hr * 0.11,
                    col=(30, 24, 24), st="flat", z=0.123))
    for e, da in ((-0.35, 0.0), (0.45, 0.1)):
        bx = hd[0] + hr * e * fs
        ear = [(bx - hr * 0.35, hd[1] - hr * 0.6), (bx + hr * 0.35, hd[1] - hr * 0.7),
               (bx + hr * (0.1 + da) * fs, hd[1] - hr * 1.75 + hr * 0.25 * abs(pose["head"]))]
        out.append(dict(k="poly", pts=ear, col=(200, 106, 44), z=0.119 if e < 0 else 0.126, tex=fur))
        out.append(dict(k="poly", pts=[(bx - hr * 0.15, hd[1] - hr * 0.7), (bx + hr * 0.15, hd[1] - hr * 0.75),
                                       (bx + hr * (0.08 + da) * fs, hd[1] - hr * 1.45)],
                        col=(50, 34, 30), z=0.1195 if e < 0 else 0.1265))
    # whiskers: 0.4 px
    for i in range(6):
        a = -0.25 + 0.1 * i
        p0 = (hd[0] + hr * 1.2 * fs, hd[1] + hr * 0.45)
        p1 = (p0[0] + hr * 1.3 * fs * math.cos(a), p0[1] + hr * 1.3 * math.sin(a) + hr * 0.2)
        out.append(dict(k="line", pts=[p0, ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2 + hr * 0.05), p1],
                        w=0.45 * k, col=(250, 246, 236), z=0.13))
    # teal robe on the body, wide sleeves implied by colour, robe skirt
    w = S * 0.1
    sw = 0.05 * math.sin(t * 0.5)
    out.append(dict(k="poly", pts=[(sh[0] - w * 0.9, sh[1]), (sh[0] + w * 0.9, sh[1]), (hp[0] + w * 1.2 + S * sw, hp[1] + S * 0.3),
                                   (hp[0] - w * 1.3 + S * sw, hp[1] + S * 0.31)],
                    col=(38, 140, 122), z=0.05, tex=("cloth", 2.0, 0.14), bulge=0.7))
    out.append(dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.04), (hp[0] + w, hp[1] - S * 0.04),
                                   (hp[0] + w, hp[1] - S * 0.015), (hp[0] - w, hp[1] - S * 0.015)],
                    col=(200, 60, 50), z=0.051))
    # bushy tail behind
    tb = hp[:2] + np.array([-S * 0.06 * fs, S * 0.02])
    tail = []
    for i in range(13):
        a = i / 12 * math.pi
        rr = S * (0.09 + 0.03 * math.sin(3 * a))
        tail.append(tb + np.array([-fs * (S * 0.2 * math.sin(a * 0.5) + rr * math.sin(a)) + S * 0.02 * math.sin(t * 0.5),
                                   -rr * math.cos(a) - S * 0.12 * math.sin(a)]))
    out.append(dict(k="poly", pts=np.array(tail), col=(214, 120, 50), z=-0.3, tex=fur))
    # bone staff with hanging feathers in the far hand
    sa = -math.pi / 2 + 0.15
    out.append(held(J, "-", S, blade(-0.4, 0.55, 0.016, 0.014, 2), 0.0, pose, col=(226, 214, 186),
                    z=J["hand-"][2] - 0.01, absang=sa))
    a = held_angle(J, "-", 0.0, pose, sa)
    tip = J["hand-"][:2] + np.array([math.cos(a), math.sin(a)]) * S * 0.5
    for i in range(4):
        p0 = tip + np.array([(i - 1.5) * S * 0.012, 0])
        out.append(dict(k="line", pts=[p0, p0 + np.array([S * 0.01 * math.sin(t * 0.4 + i), S * 0.07])],
                        w=0.7 * k, col=(240, 240, 240), col2=(60, 50, 60), z=J["hand-"][2] - 0.008))
    return out


def ex_courier(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    s = math.sin(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    out = []
    # cap: dome and a peak that points the way the head faces (foreshortened in the turn)
    out.append(dict(k="ell", c=(hd[0], hd[1] - hr * 0.45), rx=hr * 1.04, ry=hr * 0.66, col=(190, 50, 40),
                    z=0.2))
    out.append(dict(k="poly", pts=[(hd[0] + hr * 0.4 * c, hd[1] - hr * 0.28), (hd[0] + hr * 1.55 * c, hd[1] - hr * 0.18),
                                   (hd[0] + hr * 1.5 * c, hd[1] - hr * 0.08), (hd[0] + hr * 0.4 * c, hd[1] - hr * 0.12)],
                    col=(150, 36, 30), z=0.201 + 0.05 * s))
    # satchel on the right hip (z < 0 side of the body), strap across the chest
    bag = np.array([-0.02, 0.08, -0.11])  # (f, y, z) relative to the hip
    bx = hp[0] + S * (bag[0] * c - bag[2] * s)
    by = hp[1] - S * bag[1]
    bz = bag[0] * s + bag[2] * c
    out.append(dict(k="poly", pts=[(bx - S * 0.08, by - S * 0.06), (bx + S * 0.08, by - S * 0.06),
                                   (bx + S * 0.075, by + S * 0.07), (bx - S * 0.075, by + S * 0.07)],
                    col=(120, 76, 40), z=bz, tex=("cloth", 2.0, 0.15)))
    out.append(dict(k="line", pts=[(sh[0] + S * 0.07 * s, sh[1]), (bx, by - S * 0.05)], w=2.2 * k,
                    col=(90, 56, 30), z=0.02 if bz < 0 else bz + 0.01))
    # scarf trailing behind the neck
    nk = J["neck"][:2]
    pts = [nk]
    for i in range(1, 6):
        pts.append(pts[-1] + S * 0.035 * np.array([-c * 1.0, 0.25 + 0.3 * math.sin(t * 0.5 - i)]))
    out.append(dict(k="line", pts=np.array(pts), w=5.5 * k, col=(236, 190, 40), col2=(220, 160, 30),
                    z=-0.05 if c > 0.1 else 0.14))
    return out


def ex_nomad(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    out = []
    # headscarf wrapping the head, a tail of it behind
    out.append(dict(k="ell", c=(hd[0] - hr * 0.1 * c, hd[1] - hr * 0.3), rx=hr * 1.12, ry=hr * 0.85,
                    col=(206, 178, 128), z=0.2, tex=("cloth", 2.0, 0.2)))
    out.append(dict(k="poly", pts=[(hd[0] - hr * 0.7 * c, hd[1] - hr * 0.2), (hd[0] - hr * 0.5 * c, hd[1] + hr * 0.3),
                                   (hd[0] - hr * 2.0 * c, hd[1] + hr * 1.4 + hr * 0.2 * math.sin(t * 0.4)),
                                   (hd[0] - hr * 2.1 * c, hd[1] + hr * 0.8)],
                    col=(196, 166, 118), z=-0.1, tex=("cloth", 2.0, 0.2)))
    w = S * 0.1
    sw = 0.04 * math.sin(t * 0.26)
    out.append(dict(k="poly", pts=[(sh[0] - w, sh[1] + S * 0.01), (sh[0] + w, sh[1] + S * 0.01),
                                   (hp[0] + w * 1.25 + S * sw, hp[1] + S * 0.22), (hp[0] - w * 1.3 + S * sw, hp[1] + S * 0.23)],
                    col=(200, 170, 120), z=0.05, tex=("cloth", 1.5, 0.25), bulge=0.7))
    out.append(dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.05), (hp[0] + w, hp[1] - S * 0.05),
                                   (hp[0] + w, hp[1] - S * 0.02), (hp[0] - w, hp[1] - S * 0.02)],
                    col=(50, 50, 112), z=0.051))
    out.append(held(J, "+", S, blade(-0.45, 0.42, 0.018, 0.014, 2), 0.0, pose, col=(120, 84, 50),
                    tex=("fur", 1.0, 0.2), absang=math.pi / 2 - 0.12 + 0.5 * pose["sh+"]))
    return out


def ex_fencer(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    w = S * 0.095
    out = [dict(k="poly", pts=[(sh[0] - w, sh[1]), (sh[0] + w, sh[1]), (hp[0] + w * 1.1, hp[1] + S * 0.1),
                               (hp[0] - w * 1.1, hp[1] + S * 0.1)], col=(40, 62, 142), z=0.05, bulge=0.7),
           dict(k="poly", pts=[(sh[0] - S * 0.015, sh[1] + S * 0.02), (sh[0] + S * 0.015, sh[1] + S * 0.02),
                               (hp[0] + S * 0.015, hp[1] + S * 0.1), (hp[0] - S * 0.015, hp[1] + S * 0.1)],
                col=(230, 200, 90), z=0.051),
           # wide hat, plume of thin white strands
           dict(k="ell", c=(hd[0], hd[1] - hr * 0.7), rx=hr * 1.9, ry=hr * 0.35, col=(40, 34, 40), z=0.2),
           dict(k="ell", c=(hd[0], hd[1] - hr * 1.0), rx=hr * 0.95, ry=hr * 0.55, col=(44, 38, 44), z=0.201)]
    base = (hd[0] - hr * 0.3 * c, hd[1] - hr * 1.1)
    for i in range(9):
        a = -2.4 * (1 if c >= 0 else -1) * 0 + (-0.3 - 0.1 * i) * (1 if c >= 0 else -1)
        L = hr * (1.4 + 0.1 * i)
        p1 = (base[0] - L * math.cos(a) * (1 if c >= 0 else -1), base[1] - L * 0.4 + L * 0.15 * math.sin(i))
        out.append(dict(k="line", pts=[base, ((base[0] + p1[0]) / 2, (base[1] + p1[1]) / 2 - hr * 0.3), p1],
                        w=0.8 * k, col=(250, 250, 246), z=0.19))
    # swept hilt and a 0.8 px rapier blade 0.5 S long
    out.append(held(J, "+", S, [(-0.02, -0.03), (0.02, -0.03), (0.02, 0.03), (-0.02, 0.03)], 0.05, pose,
                    col=(214, 176, 70), st="metal"))
    out.append(held(J, "+", S, blade(0.02, 0.52, 0.007, 0.0015, 6), 0.05, pose, col=(215, 220, 228),
                    st="metal", z=J["hand+"][2] + 0.034))
    return out


def ex_ogre(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp = J["hipC"]
    w = S * 0.12
    out = [dict(k="poly", pts=[(hp[0] - w, hp[1] - S * 0.03), (hp[0] + w, hp[1] - S * 0.03),
                               (hp[0] + w * 0.9, hp[1] + S * 0.13), (hp[0] - w * 1.0, hp[1] + S * 0.14)],
                col=(110, 74, 50), z=0.06, tex=("fur", 1.5, 0.3)),
           # jaw, tusks, brow
           dict(k="ell", c=(hd[0] + hr * 0.35 * c, hd[1] + hr * 0.55), rx=hr * 0.85, ry=hr * 0.5,
                col=ch.C["skin"], z=0.122, tex=ch.C["skin_tex"]),
           dict(k="poly", pts=[(hd[0] + hr * 0.7 * c, hd[1] + hr * 0.5), (hd[0] + hr * 0.85 * c, hd[1] + hr * 0.5),
                               (hd[0] + hr * 0.8 * c, hd[1] + hr * 0.05)], col=(236, 226, 200), z=0.13)]
    # the maul: a long haft and a big iron head
    g = pose.get("g", 0.0)
    out.append(held(J, "+", S, blade(-0.12, 0.46, 0.03, 0.026, 2), g, pose, col=(110, 76, 46),
                    tex=("fur", 1.0, 0.2)))
    out.append(held(J, "+", S, [(0.42, -0.085), (0.57, -0.085), (0.57, 0.085), (0.42, 0.085)], g, pose,
                    col=(96, 96, 104), st="metal", z=J["hand+"][2] + 0.036))
    return out


def ex_bard(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    w = S * 0.1
    out = [dict(k="poly", pts=[(sh[0] - w, sh[1]), (sh[0] + w, sh[1]), (hp[0] + w * 1.15, hp[1] + S * 0.1),
                               (hp[0] - w * 1.15, hp[1] + S * 0.1)], col=(200, 158, 48), z=0.05,
                tex=("cloth", 2.0, 0.16), bulge=0.7),
           dict(k="ell", c=(hd[0] - hr * 0.25 * c, hd[1] - hr * 0.75), rx=hr * 1.3, ry=hr * 0.45, a=-0.2 * c,
                col=(120, 40, 92), z=0.2, tex=("cloth", 2.0, 0.15)),
           dict(k="ell", c=(hd[0] - hr * 0.2 * c, hd[1] - hr * 0.3), rx=hr * 1.02, ry=hr * 0.7,
                col=(150, 96, 50), z=0.124)]
    # a long feather in the beret, vane as thin barbs
    b0 = np.array([hd[0] - hr * 0.9 * c, hd[1] - hr * 0.9])
    for i in range(14):
        u = i / 13
        p = b0 + np.array([-c * hr * 2.2 * u, -hr * 1.2 * u + hr * 0.6 * u * u])
        out.append(dict(k="line", pts=[p, p + np.array([-c * hr * 0.25, -hr * 0.35 * (1 - u * 0.5)])],
                        w=0.6 * k, col=(230, 240, 232), z=0.19))
    out.append(dict(k="line", pts=[b0, b0 + np.array([-c * hr * 2.2, -hr * 0.6])], w=0.9 * k,
                    col=(250, 250, 250), z=0.191))
    # lute across the body: bowl, neck, 4 strings of 0.5 px
    cx, cy = hp[0] + S * 0.04 * c, hp[1] - S * 0.1
    out.append(dict(k="ell", c=(cx, cy), rx=S * 0.085, ry=S * 0.06, a=-0.5 * c, col=(168, 104, 52), z=0.09,
                    spec=60, tex=("fur", 2.0, 0.15)))
    nk1 = (cx + S * 0.26 * c, cy - S * 0.17)
    out.append(dict(k="cap", p0=(cx, cy), p1=nk1, r0=S * 0.013, r1=S * 0.011, col=(90, 56, 30), z=0.091))
    for i in range(4):
        o = (i - 1.5) * S * 0.004
        out.append(dict(k="line", pts=[(cx + o, cy + o), (nk1[0] + o, nk1[1] + o)], w=0.5 * k,
                        col=(236, 230, 210), z=0.092))
    return out


def ex_knight(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    fr = ch.C["fresnel"]
    out = [dict(k="ell", c=xy(hd), rx=hr * 1.08, ry=hr * 1.15, col=(172, 178, 188), st="metal", fresnel=fr, z=0.2),
           dict(k="poly", pts=[(hd[0] + hr * 0.1 * c, hd[1] - hr * 0.05), (hd[0] + hr * 1.05 * c, hd[1] - hr * 0.08),
                               (hd[0] + hr * 1.05 * c, hd[1] + hr * 0.06), (hd[0] + hr * 0.1 * c, hd[1] + hr * 0.08)],
                col=(20, 18, 24), st="flat", z=0.201),
           dict(k="ell", c=(sh[0] + S * 0.02 * c, sh[1] + S * 0.07), rx=S * 0.1, ry=S * 0.1, col=(176, 182, 192),
                st="metal", fresnel=fr, z=0.04),
           dict(k="poly", pts=[(hp[0] - S * 0.1, hp[1] - S * 0.06), (hp[0] + S * 0.1, hp[1] - S * 0.06),
                               (hp[0] + S * 0.11, hp[1] + S * 0.08), (hp[0] - S * 0.11, hp[1] + S * 0.08)],
                col=(170, 176, 186), st="metal", fresnel=fr, z=0.05, bulge=0.9),
           dict(k="poly", pts=[(hp[0] - S * 0.1, hp[1] - S * 0.065), (hp[0] + S * 0.1, hp[1] - S * 0.065),
                               (hp[0] + S * 0.1, hp[1] - S * 0.045), (hp[0] - S * 0.1, hp[1] - S * 0.045)],
                col=(212, 170, 64), st="metal", z=0.051)]
    for side in ("+", "-"):  # pauldrons and knee cops
        s_ = J["sh" + side]
        out.append(dict(k="ell", c=(s_[0], s_[1] + S * 0.005), rx=S * 0.048, ry=S * 0.04, col=(178, 184, 194),
                        st="metal", fresnel=fr, z=s_[2] + 0.045))
        kn = J["knee" + side]
        out.append(dict(k="ell", c=xy(kn), rx=S * 0.035, ry=S * 0.03, col=(178, 184, 194), st="metal",
                        fresnel=fr, z=kn[2] + 0.01))
    # red plume of thin strands
    b0 = (hd[0] - hr * 0.1 * c, hd[1] - hr * 1.1)
    for i in range(16):
        a = 0.4 + 0.08 * i
        p1 = (b0[0] - c * hr * 1.8 * math.sin(a), b0[1] - hr * 0.9 * math.cos(a) + hr * 0.9 * (i / 15))
        out.append(dict(k="line", pts=[b0, ((b0[0] + p1[0]) / 2, (b0[1] + p1[1]) / 2 - hr * 0.3), p1],
                        w=0.9 * k, col=(200, 36, 40), col2=(150, 20, 30), z=0.19 + 0.0001 * i, st="flat"))
    return out


def ex_mage(ch, J, pose, S, t, k, N=39):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    w = S * 0.1
    sw = 0.03 * math.sin(t * 0.4)
    out = [dict(k="poly", pts=[(sh[0] - w, sh[1]), (sh[0] + w, sh[1]), (hp[0] + w * 1.5 + S * sw, hp[1] + S * 0.42),
                               (hp[0] - w * 1.55 + S * sw, hp[1] + S * 0.43)], col=(104, 60, 152), z=0.05,
                tex=("cloth", 2.0, 0.15), bulge=0.7),
           dict(k="poly", pts=[(hd[0] - hr * 1.1, hd[1] - hr * 0.2), (hd[0] + hr * 1.2, hd[1] - hr * 0.2),
                               (hd[0] - hr * 0.2 * c, hd[1] - hr * 2.5 + hr * 0.2 * math.sin(t * 0.3))],
                col=(96, 54, 142), z=0.2, tex=("cloth", 2.0, 0.15)),
           dict(k="ell", c=(hd[0] + hr * 0.4 * c, hd[1] + hr * 0.75), rx=hr * 0.5, ry=hr * 0.6,
                col=(226, 226, 230), z=0.13)]
    sa = -math.pi / 2 + 0.1
    out.append(held(J, "-", S, blade(-0.45, 0.45, 0.017, 0.015, 2), 0.0, pose, col=(110, 80, 52),
                    z=J["hand-"][2] - 0.01, absang=sa))
    a = held_angle(J, "-", 0.0, pose, sa)
    top = J["hand-"][:2] + np.array([math.cos(a), math.sin(a)]) * S * 0.47
    out.append(dict(k="ell", c=tuple(top), rx=S * 0.025, ry=S * 0.035, col=(240, 140, 80), st="shaded",
                    spec=120, z=J["hand-"][2] - 0.009))
    # the rune circle on the floor and mist, semi-transparent, part of the character
    g = float(smooth((t - 7) / 9))
    if g > 0:
        fx, fy = (J["toe+"][0] + J["toe-"][0]) / 2, max(J["toe+"][1], J["toe-"][1]) + S * 0.01
        R1 = S * 0.32 * (0.4 + 0.6 * g)
        for rr, col, wid, op in ((1.0, (255, 186, 80), 2.4, 0.7), (0.82, (255, 210, 120), 1.3, 0.55),
                                 (0.55, (250, 140, 230), 1.6, 0.5)):
            out.append(dict(k="line", pts=ell_poly((fx, fy), R1 * rr, R1 * rr * 0.22, 0, 64)[list(range(64)) + [0]],
                            w=wid * k, col=col, op=op * g, z=-0.6))
        for i in range(12):  # glyph ticks
            a = 2 * math.pi * i / 12 + t * 0.08
            p0 = (fx + R1 * 0.84 * math.cos(a), fy + R1 * 0.84 * 0.22 * math.sin(a))
            p1 = (fx + R1 * 0.97 * math.cos(a + 0.1), fy + R1 * 0.97 * 0.22 * math.sin(a + 0.1))
            out.append(dict(k="line", pts=[p0, p1], w=1.4 * k, col=(255, 220, 140), op=0.6 * g, z=-0.59))
        for i in range(9):  # mist puffs rising round the feet
            ph = (t * 0.05 + ch.rv[i, 0]) % 1.0
            mx = fx + S * 0.35 * (ch.rv[i, 1] - 0.5) * (1 + ph)
            my = fy - S * 0.18 * ph
            out.append(dict(k="blob", c=(mx, my), rx=S * 0.06 * (0.6 + ph), ry=S * 0.035 * (0.6 + ph),
                            col=(206, 190, 246), op=0.42 * g * (1 - ph) ** 0.7, z=0.3 + 0.001 * i))
    return out


def ex_anime(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    fs = 1 if c >= 0 else -1
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    hair = ch.C["hair"]
    hk = dict(st="cel", hl=38, celdark=0.78, col=hair)
    wind = 0.5 + 0.3 * math.sin(t * 0.23)
    out = []
    # back hair mass (behind head), front fringe spikes, two long tails with needle tips
    back = [(hd[0] - hr * 1.15, hd[1] - hr * 0.2), (hd[0] - hr * 1.1, hd[1] + hr * 1.4),
            (hd[0] - hr * 0.2 * fs, hd[1] + hr * 1.2), (hd[0] + hr * 1.1, hd[1] + hr * 1.3),
            (hd[0] + hr * 1.15, hd[1] - hr * 0.2)]
    out.append(dict(k="poly", pts=back, z=0.05, **hk))
    top = []
    for i in range(13):
        a = math.pi + math.pi * i / 12
        r = hr * (1.13 if i % 2 == 0 else 1.04)
        top.append((hd[0] + r * math.cos(a), hd[1] - hr * 0.04 + r * math.sin(a)))
    fr = [(hd[0] + hr * 1.1, hd[1] - hr * 0.05)]
    for i in range(6):  # fringe: spikes pointing down over the forehead
        x0 = hd[0] + hr * (1.0 - 0.36 * i) * 1.0
        fr.append((x0 - hr * 0.1, hd[1] - hr * (0.3 if i % 2 else 0.12) + hr * 0.05 * math.sin(t * 0.3 + i)))
        fr.append((x0 - hr * 0.28, hd[1] - hr * 0.5))
    fr.append((hd[0] - hr * 1.1, hd[1] - hr * 0.05))
    out.append(dict(k="poly", pts=top + fr, z=0.2, o=xy(hd), **hk))
    for sgn in (-1, 1):  # twin tails
        base = np.array([hd[0] + sgn * hr * 1.0, hd[1] - hr * 0.55])
        spine = [base]
        for i in range(1, 8):
            spine.append(spine[-1] + hr * np.array([sgn * 0.15 - wind * 0.35 * fs * (i / 7) ** 1.3,
                                                     0.42 - 0.05 * i + 0.08 * math.sin(t * 0.3 - i * 0.6)]))
        spine = np.array(spine)
        wd = hr * np.array([0.28, 0.42, 0.46, 0.42, 0.34, 0.22, 0.1, 0.0])
        tang = np.gradient(spine, axis=0)
        nrm = np.c_[-tang[:, 1], tang[:, 0]] / np.linalg.norm(tang, axis=1)[:, None]
        poly = np.concatenate([spine + nrm * wd[:, None], (spine - nrm * wd[:, None])[::-1]])
        out.append(dict(k="poly", pts=poly, z=0.04 if sgn * fs < 0 else 0.21, o=tuple(base), **hk))
        # a few loose needle spikes
        for j in range(2):
            p0 = spine[4 + j]
            p1 = p0 + hr * np.array([-fs * wind * 0.6 + sgn * 0.2, 0.5])
            out.append(dict(k="poly", pts=[p0 + nrm[4 + j] * hr * 0.08, p0 - nrm[4 + j] * hr * 0.08, p1],
                            z=0.041 if sgn * fs < 0 else 0.211, **hk))
    # 24 stray single strands (0.5-0.8 px) flying in the wind
    out += strands(lambda i: (hd[0] + hr * (ch.rv[i, 6] * 2 - 1) * 0.9, hd[1] - hr * (0.6 + 0.4 * ch.rv[i, 7])),
                   24, 0.16, S, ch.rv, hair, t, wind * fs * 1.2, k, spread=0.8, down=(0, 1), wmin=0.5,
                   wmax=0.8, z=0.215, sway=0.25)
    # sailor collar, ribbon, pleated navy skirt
    w = S * 0.085
    out.append(dict(k="poly", pts=[(sh[0] - w, sh[1] - S * 0.01), (sh[0] + w, sh[1] - S * 0.01),
                                   (sh[0] + w * 0.5, sh[1] + S * 0.07), (sh[0] - w * 0.5, sh[1] + S * 0.07)],
                    col=(40, 50, 110), st="cel", z=0.06))
    out.append(dict(k="poly", pts=[(sh[0] + S * 0.02 * c - S * 0.03, sh[1] + S * 0.05),
                                   (sh[0] + S * 0.02 * c + S * 0.03, sh[1] + S * 0.05),
                                   (sh[0] + S * 0.02 * c, sh[1] + S * 0.11)], col=(220, 40, 60), st="cel", z=0.061))
    sw = 0.03 * math.sin(t * 0.3)
    sk = [(hp[0] - w * 1.1, hp[1] - S * 0.05), (hp[0] + w * 1.1, hp[1] - S * 0.05)]
    for i in range(7):
        u = 1 - i / 6
        sk.append((hp[0] + w * (1.7 - 3.4 * (1 - u)) + S * sw, hp[1] + S * (0.13 if i % 2 else 0.145)))
    out.append(dict(k="poly", pts=sk, col=(44, 52, 112), st="cel", z=0.055))
    return out


def ex_vampire(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    lag = 0.06 * math.sin(t * 2 * math.pi / 26 - 1.0)
    w = S * 0.1
    out = [  # coat skirt with crimson lining showing at the back flap, high collar
        dict(k="poly", pts=[(hp[0] - w * 1.1, hp[1] - S * 0.06), (hp[0] - w * 1.8 - S * 0.08 * c + S * lag, hp[1] + S * 0.38),
                            (hp[0] - w * 0.6 + S * lag, hp[1] + S * 0.35)], col=(140, 22, 40), z=-0.16),
        dict(k="poly", pts=[(hp[0] - w * 1.0, hp[1] - S * 0.07), (hp[0] + w * 1.0, hp[1] - S * 0.07),
                            (hp[0] + w * 1.3 + S * lag * 0.5, hp[1] + S * 0.34), (hp[0] - w * 0.7 + S * lag * 0.5, hp[1] + S * 0.35)],
             col=(40, 30, 46), z=0.05, tex=("cloth", 2.5, 0.12), bulge=0.7),
        dict(k="poly", pts=[(sh[0] - w * 0.9, sh[1] + S * 0.02), (sh[0] - w * 1.1, sh[1] - S * 0.09),
                            (sh[0] - w * 0.1, sh[1] - S * 0.04)], col=(46, 34, 52), z=0.13),
        dict(k="ell", c=(hd[0] - hr * 0.38 * c, hd[1] - hr * 0.42), rx=hr * 0.9, ry=hr * 0.72,
             col=(208, 208, 218), z=0.123, st="shaded", spec=60)]
    out += strands(lambda i: (hd[0] - hr * (0.5 + 0.6 * ch.rv[i, 6]) * c, hd[1] - hr * (0.5 - 0.9 * ch.rv[i, 7])),
                   80, 0.2, S, ch.rv, (206, 206, 216), t, 0.35 * c, k, spread=0.25, wmin=0.5, wmax=1.0,
                   z=-0.2, sway=0.12, col2=(180, 180, 196))
    sa = math.pi / 2 - 0.2 + 0.6 * pose["sh+"]
    out.append(held(J, "+", S, blade(0.0, 0.4, 0.012, 0.011, 2), 0.0, pose, col=(24, 22, 26), spec=150,
                    absang=sa))
    out.append(held(J, "+", S, [(-0.04, -0.022), (0.01, -0.022), (0.01, 0.022), (-0.04, 0.022)], 0.0, pose,
                    col=(220, 200, 120), st="metal", absang=sa))
    return out


def ex_traveller(ch, J, pose, S, t, k):
    c = math.cos(pose["phi"])
    hd = J["head"]
    hr = S * ch.rig.p["hr"]
    hp, sh = J["hipC"], J["shC"]
    out = [dict(k="ell", c=(hd[0], hd[1] - hr * 0.6), rx=hr * 2.1, ry=hr * 0.35, col=(120, 86, 56), z=0.2),
           dict(k="ell", c=(hd[0], hd[1] - hr * 0.95), rx=hr * 1.0, ry=hr * 0.6, col=(128, 92, 60), z=0.201),
           # backpack with a rolled blanket on top
           dict(k="poly", pts=[(sh[0] - S * 0.2 * c, sh[1] - S * 0.02), (sh[0] - S * 0.06 * c, sh[1] - S * 0.03),
                               (hp[0] - S * 0.06 * c, hp[1] - S * 0.08), (hp[0] - S * 0.2 * c, hp[1] - S * 0.07)],
                col=(90, 110, 64), z=-0.15, tex=("cloth", 1.5, 0.2)),
           dict(k="cap", p0=(sh[0] - S * 0.24 * c, sh[1] - S * 0.05), p1=(sh[0] - S * 0.04 * c, sh[1] - S * 0.05),
                r0=S * 0.035, r1=S * 0.035, col=(170, 60, 50), z=-0.149)]
    out.append(held(J, "+", S, blade(-0.3, 0.4, 0.02, 0.016, 2), 0.0, pose, col=(112, 80, 50),
                    absang=math.pi / 2 - 0.15 + 0.5 * pose["sh+"]))
    return out


# ----------------------------------------------------------------------------- cases

GREEN = (0, 255, 0)
BLUE = (0, 0, 255)


def keyed_pose(keys):
    def f(u):
        d = dict(REST)
        d.update(keyed(u, keys))
        return d
    return f


def pose_attack_slash(N):
    K = [(0.0, dict(REST)),
         (0.22, dict(REST, lean=-0.08, **{"sh+": -2.5, "el+": 0.7, "sh-": 0.5, "el-": 0.6, "th+": 0.1, "th-": -0.2, "kn+": 0.2})),
         (0.36, dict(REST, lean=0.28, **{"sh+": 1.45, "el+": 0.05, "sh-": -0.6, "el-": 0.5, "th+": 0.55,
                                          "kn+": 0.55, "th-": -0.45, "kn-": 0.2}, dx=0.12)),
         (0.5, dict(REST, lean=0.25, **{"sh+": 1.0, "el+": 0.3, "sh-": -0.5, "el-": 0.5, "th+": 0.5,
                                         "kn+": 0.5, "th-": -0.4, "kn-": 0.2}, dx=0.14)),
         (1.0, dict(REST, dx=0.04))]
    strip = [(u, {k: v for k, v in d.items() if k not in ("phi",)}) for u, d in K]
    f = keyed_pose(strip)
    return lambda t: f(t / (N - 1))


def pose_lunge(N):
    en = dict(REST, lean=0.05, **{"sh+": 0.9, "el+": -0.2, "sh-": -1.6, "el-": -1.0, "th+": 0.35, "kn+": 0.5,
                                  "th-": -0.35, "kn-": 0.3})
    K = [(0.0, dict(REST)), (0.22, en), (0.32, en),
         (0.42, dict(en, lean=0.3, dx=0.42, **{"sh+": 1.52, "el+": 0.0, "th+": 1.05, "kn+": 0.9, "th-": -0.75,
                                               "kn-": 0.0, "sh-": -2.3})),
         (0.62, dict(en, lean=0.3, dx=0.42, **{"sh+": 1.5, "el+": 0.0, "th+": 1.05, "kn+": 0.9, "th-": -0.75,
                                               "kn-": 0.0, "sh-": -2.3})),
         (0.78, dict(en, dx=0.1)), (1.0, dict(REST, dx=0.06))]
    f = keyed_pose([(u, {k: v for k, v in d.items() if k != "phi"}) for u, d in K])
    return lambda t: f(t / (N - 1))


def pose_hammer(N):
    R0 = dict(REST, g=-0.75, **{"sh+": 0.3, "el+": 0.1, "sh-": 0.25, "el-": 0.2})
    up = dict(REST, g=0.0, lean=-0.2, **{"sh+": 3.25, "el+": 0.2, "sh-": 3.35, "el-": 0.3, "th+": 0.2, "kn+": 0.25})
    down = dict(REST, g=0.55, lean=0.4, dx=0.1, **{"sh+": 0.5, "el+": 0.1, "sh-": 0.45, "el-": 0.2, "th+": 0.6,
                                                   "kn+": 0.8, "th-": -0.5, "kn-": 0.3})
    K = [(0.0, R0),
         (0.14, dict(REST, g=-1.45, lean=0.0, **{"sh+": 1.45, "el+": 0.1, "sh-": 1.4, "el-": 0.2})),
         (0.3, up), (0.5, dict(up, lean=-0.22, **{"sh+": 3.3})),
         (0.6, down), (0.8, dict(down, lean=0.38)),
         (1.0, dict(R0, dx=0.05))]
    f = keyed_pose([(u, {k: v for k, v in d.items() if k != "phi"}) for u, d in K])
    return lambda t: f(t / (N - 1))


def pose_hurt(N):
    K = [(0.0, dict(REST)),
         (0.14, dict(REST, lean=-0.45, head=-0.35, dx=-0.1, **{"sh+": 0.9, "el+": 0.9, "sh-": -0.9, "el-": 0.5,
                                                               "th+": 0.35, "kn+": 0.45, "th-": -0.15})),
         (0.45, dict(REST, lean=-0.3, head=-0.15, dx=-0.12, **{"sh+": 0.5, "el+": 0.8, "sh-": -0.6, "el-": 0.5,
                                                               "th+": 0.3, "kn+": 0.5, "kn-": 0.2})),
         (1.0, dict(REST, lean=-0.05, dx=-0.1))]
    f = keyed_pose([(u, {k: v for k, v in d.items() if k != "phi"}) for u, d in K])
    return lambda t: f(t / (N - 1))


def pose_skill(N, twirl=0.0):
    K = [(0.0, dict(REST)),
         (0.3, dict(REST, lean=-0.05, head=-0.15, **{"sh+": 2.6, "el+": 0.3, "sh-": 2.2, "el-": 0.5, "kn+": 0.15, "kn-": 0.15})),
         (0.65, dict(REST, lean=0.1, head=0.05, **{"sh+": 1.7, "el+": -0.2, "sh-": 1.2, "el-": 0.1, "th+": 0.2, "kn+": 0.3})),
         (1.0, dict(REST, lean=0.04, **{"sh+": 0.8, "el+": 0.4}))]
    f = keyed_pose([(u, {k: v for k, v in d.items() if k != "phi"}) for u, d in K])

    def g(t):
        d = f(t / (N - 1))
        d["phi"] = REST["phi"] + twirl * math.sin(math.pi * t / (N - 1)) ** 2
        return d
    return g


def with_phi(fn, phi):
    def g(t):
        d = fn(t)
        d["phi"] = phi
        return d
    return g


def eased(fn, frames=5.0):
    return lambda t: ease(fn(t), t, frames)


def build_cases():
    """(name, config) of every case; characters are built lazily in the worker."""
    cases = []

    def add(name, **cfg):
        cases.append((name, cfg))

    # ---------------- the issue's own kinds ----------------
    add("botanist_greenshirt_wrap6_idle", W=448, H=448, N=56, crf=22, action="idle", ss=4, pscale=2,
        char="botanist", Hc=302, root=(0.5, 0.9), canvas=GREEN,
        screen=dict(screen=(30, 196, 56), gy=-0.12, gx=0.05, vig=0.22, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(6.0, 0.35), shadow=0.45, sub=(0.5, 6),
        notes="Shaded gardener in a green shirt and a darker green apron, holding a seedling with green "
              "leaves; straw hat. Light wrap 6 px at 35 % (the issue's hardest wrap), gradient, vignette, "
              "mottle, flicker, per-pixel noise, contact shadow. Portrait drawn at 2x.")
    add("lizardfolk_teal_scales_walk", W=512, H=512, N=56, crf=20, action="walk", ss=3, pscale=1,
        char="lizard", Hc=330, root=(0.47, 0.9), canvas=GREEN, drift_x=30,
        screen=dict(screen=(26, 190, 66), gy=0.10, vig=0.25, mottle=0.035, flicker=0.015, noise=3.0, settle=4),
        wrap=(4.0, 0.28), shadow=0.4, sub=(0.5, 6),
        notes="Lizardfolk with teal scaled skin (Voronoi scale texture that moves with each limb), a tail, a "
              "spear whose leaf head tapers to a point; walks drifting 30 px right. Floor brighter than the "
              "top (gy +0.10), strong vignette, wrap 4 px at 28 %.")
    add("pirate_ink_cutlass_attack", W=576, H=448, N=39, crf=24, action="attack", ss=3, pscale=1,
        char="pirate", Hc=300, root=(0.4, 0.91), canvas=GREEN,
        screen=dict(screen=(38, 204, 48), gx=0.12, vig=0.25, mottle=0.03, flicker=0.02, noise=3.0, settle=2),
        wrap=(3.0, 0.22), shadow=0.4, sub=(0.5, 12),
        notes="Outlined (1.3 px ink) cel-shaded pirate, long red coat, curved cutlass to a sub-pixel tip; the "
              "slash goes over the head and down in ~5 frames with sub-frame motion blur (half shutter, up to "
              "12 renders). CRF 24, wrap 3 px at 22 %, horizontal gradient.")
    add("dancer_bluescreen_strands_skill", W=448, H=576, N=39, crf=21, action="skill", ss=4, pscale=1,
        char="dancer", Hc=330, root=(0.5, 0.88), canvas=BLUE,
        screen=dict(screen=(22, 62, 214), gy=-0.12, vig=0.2, mottle=0.03, flicker=0.03, noise=2.5, settle=3),
        wrap=(5.0, 0.30), shadow=0.35, sub=(0.5, 6),
        notes="Blue screen (model's (22,62,214) after the user's (0,0,255) canvas), a dancer in a royal-blue "
              "dress with 70 hair strands 0.5-1 px streaming, a pale-blue silk ribbon 80 % opaque; arms rise "
              "and she twirls a little (view angle +0.35 rad and back, no turn). 448x576 portrait canvas.")
    add("mushroom_flat_noisy_run", W=384, H=384, N=56, crf=18, action="run", ss=4, pscale=2,
        char="mushroom", Hc=225, root=(0.5, 0.9), canvas=GREEN,
        screen=dict(screen=(40, 210, 70), gy=0.06, vig=0.18, mottle=0.055, mspeed=0.35, flicker=0.045,
                    noise=5.0, settle=2),
        wrap=(2.0, 0.15), shadow=0.5, sub=(0.5, 5),
        notes="Flat-coloured (no shading) mushroom kid with a green cap and cream spots, running; the screen "
              "is the noisiest here: per-pixel noise sigma 5, fast mottle 5.5 %, flicker 4.5 %. CRF 18, "
              "wrap 2 px at 15 %. Portrait at 2x.")
    add("fox_shaman_tealscreen_hurt", W=448, H=448, N=22, crf=23, action="hurt", ss=4, pscale=1,
        char="fox", Hc=300, root=(0.52, 0.9), canvas=GREEN, shake=2.0,
        screen=dict(screen=(20, 186, 120), gy=-0.08, vig=0.2, mottle=0.03, flicker=0.02, noise=3.0, settle=3),
        wrap=(4.0, 0.25), shadow=0.4, sub=(0.5, 6),
        notes="Fox shaman, fur texture, 0.45 px white whiskers, bone staff with thin feathers, a teal robe; "
              "the model's screen is a cyan-green (20,186,120) after the user's pure green; 22-frame hurt "
              "with a recoil; camera shake with sd 2 px (in the truth too, it is where the character is).")
    # ---------------- QC ----------------
    add("qc_courier_turns_midwalk", W=448, H=448, N=56, crf=20, action="walk", ss=3, pscale=1,
        char="courier", Hc=300, root=(0.42, 0.9), canvas=GREEN, turn=(20, 29), drift_x=0,
        screen=dict(screen=(32, 200, 52), gy=-0.08, vig=0.2, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(3.0, 0.25), shadow=0.4, sub=(0.5, 6), expect_flags=["FACING"],
        notes="2.5-D courier walking right who turns through the front over frames 20-29 and walks left for "
              "the last 48 % of the clip (cap peak, scarf, satchel and limbs all follow the view angle "
              "0.5 -> pi-0.5); he also drifts left after the turn. Should raise FACING only.")
    add("qc_nomad_ghosting_walk", W=448, H=448, N=56, crf=21, action="walk", ss=3, pscale=1,
        char="nomad", Hc=300, root=(0.5, 0.9), canvas=GREEN, ghost=0.33,
        screen=dict(screen=(28, 192, 62), gy=-0.1, vig=0.2, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(3.0, 0.2), shadow=0.4, sub=(0.5, 4), expect_flags=["SMEAR"],
        notes="Desert nomad with a staff walking briskly (16-frame cycle); every frame from 2 on is 67 % "
              "itself and 33 % the previous clean frame (the model's ghosting), so limbs leave a faint copy; "
              "the truth is the current pose only. Should raise SMEAR only.")
    add("qc_decoy_fencer_fast_lunge", W=512, H=384, N=39, crf=22, action="attack", ss=3, pscale=1,
        char="fencer", Hc=250, root=(0.3, 0.9), canvas=GREEN,
        screen=dict(screen=(30, 198, 58), gx=-0.08, vig=0.2, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(3.0, 0.25), shadow=0.4, sub=(1.0, 14), expect_flags=[],
        notes="Decoy: a musketeer-fencer's lunge, the body travelling 0.42 of its height forward in ~4 frames "
              "under a full (360 degree) shutter, up to 14 sub-frame renders, so body, arm and the 0.8 px "
              "rapier smear widely; the tip stays inside the frame. A fast attack, not ghosting: no flag.")
    add("qc_ogre_maul_leaves_frame", W=448, H=448, N=39, crf=22, action="attack", ss=3, pscale=1,
        char="ogre", Hc=320, root=(0.33, 0.9), canvas=GREEN,
        screen=dict(screen=(34, 200, 54), gy=-0.1, vig=0.22, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(4.0, 0.3), shadow=0.5, sub=(0.5, 10), expect_flags=["CROPPED"],
        notes="Olive-skinned ogre (near-key skin, scale texture) lifts a maul in front of him and overhead: "
              "the maul (haft, then head) is out of the top edge from frame 5 to 21 (17 of 39 frames), then "
              "smashes down in front, staying 6+ px inside the other edges; truth is cropped to the frame "
              "like the clip. Should raise CROPPED only.")
    # ---------------- new ground ----------------
    add("cloth_screen_folds_seam_bard_idle", W=512, H=512, N=56, crf=21, action="idle", ss=3, pscale=1,
        char="bard", Hc=320, root=(0.5, 0.88), canvas=GREEN, strum=True,
        screen=dict(screen=(38, 176, 72), gy=-0.05, vig=0.18, mottle=0.02, flicker=0.015, noise=2.0, settle=4,
                    cloth=True),
        wrap=(4.0, 0.28), shadow=0.4, cast=(22, 10, 0.3), sub=(0.5, 4),
        notes="A hung cloth screen, duller green, with swaying vertical folds (+-7.5 %), sag folds from three "
              "top clips, a horizontal seam with a dark fold line, a light ridge and stitches, a faint "
              "weave; the character casts a soft drop shadow onto the cloth (22 px right, 10 px down, 30 %) "
              "besides the contact shadow, neither in the truth. A bard with a beret, a 0.6-0.9 px feather "
              "and a lute with 0.5 px strings, strumming.")
    add("chrome_knight_reflects_screen_walk", W=448, H=448, N=56, crf=20, action="walk", ss=3, pscale=1,
        char="knight", Hc=300, root=(0.5, 0.9), canvas=GREEN,
        screen=dict(screen=(30, 200, 50), gy=-0.08, vig=0.2, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(3.0, 0.22), shadow=0.4, sub=(0.5, 6), fresnel=(0.04, 0.30),
        notes="Polished plate armour (helm, breastplate, fauld, pauldrons, knee cops) that reflects the "
              "screen in the clip: 4 % at plates facing the camera rising to 34 % at grazing angles (Fresnel "
              "on each plate's own normal, anywhere inside the silhouette, not only at its edge), on top "
              "of 3 px / 22 % wrap. Truth and portrait: the armour's own grey with white speculars. Red "
              "plume of 0.9 px strands.")
    add("rune_circle_mist_at_feet_skill", W=448, H=448, N=39, crf=21, action="skill", ss=3, pscale=1,
        char="mage", Hc=290, root=(0.5, 0.86), canvas=GREEN,
        screen=dict(screen=(28, 196, 60), gy=0.06, vig=0.22, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(4.0, 0.25), shadow=0.35, sub=(0.5, 6),
        notes="A mage's skill summons a rune circle on the floor (gold and pink rings 1.3-2.4 px at 50-70 % "
              "opacity, glyph ticks) and lavender mist puffs rising round the feet (soft, 0-42 % alpha): "
              "semi-transparent parts of the character, in the truth with their alpha, over the contact "
              "shadow. The circle grows in from frame 7.")
    add("anime_mint_cel_hair_idle", W=448, H=448, N=56, crf=20, action="idle", ss=4, pscale=2,
        char="anime", Hc=300, root=(0.5, 0.92), canvas=GREEN,
        screen=dict(screen=(30, 200, 60), gy=-0.1, vig=0.2, mottle=0.03, flicker=0.02, noise=2.5, settle=3),
        wrap=(4.0, 0.3), shadow=0.4, sub=(0.5, 5),
        notes="Anime schoolgirl drawn in two-tone cel shading with 0.9 px ink: mint hair (120,214,176) close to "
              "the key, spiky fringe, twin tails ending in needle points, loose spikes and 24 single strands "
              "0.5-0.8 px blowing in the wind, a cel highlight band; big eyes. Wrap 4 px at 30 %. Portrait 2x.")
    add("tall_768x1376_vampire_pale_outline_walk", W=768, H=1376, N=56, crf=20, action="walk", ss=2, pscale=1,
        char="vampire", Hc=990, root=(0.5, 0.92), canvas=GREEN,
        screen=dict(screen=(30, 198, 58), gy=-0.1, vig=0.25, mottle=0.03, mcell=60, flicker=0.02, noise=2.5,
                    settle=3),
        wrap=(6.0, 0.30), halo=(12.0, 0.10), outline=(1.8, 0.5, (206, 244, 206)), shadow=0.4, sub=(0.5, 2),
        notes="The notes' largest canvas, 768x1376 (tall), a 990 px vampire in a near-black coat, silver hair "
              "of 80 strands, walking. Besides wrap 6 px at 30 % it carries halation (the bright screen "
              "bleeding 10 % into the character with a 12 px falloff) and a pale green-white outline (miaobian) "
              "1.8 px wide at 50 % drawn on the screen just outside the silhouette: neither is in the truth.")
    add("long_15s_448x256_traveller_walk", W=448, H=256, N=362, crf=22, action="walk", ss=3, pscale=2,
        char="traveller", Hc=188, root=(0.5, 0.93), canvas=GREEN, wander=26,
        screen=dict(screen=(30, 196, 60), gy=-0.08, vig=0.2, mottle=0.03, mspeed=0.03, flicker=0.02, breath=0.03,
                    noise=2.5, settle=4,
                    drift=[(0, (30, 196, 60)), (120, (44, 204, 46)), (240, (24, 186, 78)), (361, (34, 200, 58))]),
        wrap=(3.0, 0.25), shadow=0.4, sub=(0.5, 4),
        notes="A 15 s clip (362 frames, what streaming buys on a big card) at the notes' out-of-memory fallback "
              "canvas 448x256: a traveller with a backpack and stick walking for 14 cycles, the camera "
              "tracking loosely (+-26 px wander), the screen's hue wandering over the clip (yellower, then "
              "bluer green), exposure breathing 3 %. Portrait at 2x.")
    return cases


def make_char(cfg):
    name = cfg["char"]
    N = cfg["N"]
    act = cfg["action"]
    base = {"walk": lambda t: act_walk(t), "run": lambda t: act_run(t), "idle": lambda t: act_idle(t)}
    skin = (224, 176, 140)
    if name == "botanist":
        C = dict(skin=skin, torso=(52, 150, 64), upper=(52, 150, 64), fore=skin, legs=(170, 150, 100),
                 feet=(90, 60, 40), style="shaded", torso_tex=("cloth", 2.0, 0.1))
        return Char(Rig(), C, eased(base["idle"]), ex_botanist, 1)
    if name == "lizard":
        tex = ("scales", 0.9, 0.35)
        C = dict(skin=(46, 160, 140), torso=(46, 160, 140), legs=(46, 160, 140), feet=(40, 130, 114),
                 style="shaded", skin_tex=tex, torso_tex=tex, legs_tex=tex, eye=(230, 200, 40), nose=False)
        def act(t):
            d = ease(act_walk(t), t)
            d["sh-"], d["el-"] = 0.3 + 0.05 * math.sin(t * 0.26), 0.9
            return d
        return Char(Rig(hr=0.07, r_th=0.046), C, act, ex_lizard, 2)
    if name == "pirate":
        C = dict(skin=(232, 186, 150), torso=(168, 38, 40), upper=(168, 38, 40), fore=(168, 38, 40),
                 legs=(60, 50, 46), feet=(34, 28, 26), style="cel", ink=1.3)
        return Char(Rig(), C, pose_attack_slash(N), ex_pirate, 3)
    if name == "dancer":
        sk = (130, 86, 60)
        C = dict(skin=sk, torso=(40, 88, 205), upper=sk, fore=sk, legs=sk, feet=(200, 170, 90), style="shaded")
        return Char(Rig(r_th=0.036, r_sh=0.028, tl_ch=0.09), C, pose_skill(N, twirl=0.35), ex_dancer, 4)
    if name == "mushroom":
        C = dict(skin=(238, 226, 198), torso=(238, 226, 198), upper=(238, 226, 198), fore=(238, 226, 198),
                 legs=(110, 70, 50), feet=(80, 50, 36), style="flat", nose=False, mouth=(90, 40, 40))
        rig = Rig(hr=0.13, tor=0.22, th=0.16, sh=0.14, ua=0.12, fa=0.11, r_th=0.05, r_sh=0.045, tl_ch=0.13,
                  tf_ch=0.1, tl_hip=0.12, tf_hip=0.09, r_ua=0.035, r_fa=0.032, r_hand=0.04, neck=0.0)
        return Char(rig, C, eased(base["run"]), ex_mushroom, 5)
    if name == "fox":
        fur = ("fur", 1.2, 0.3)
        C = dict(skin=(214, 120, 50), torso=(38, 140, 122), upper=(38, 140, 122), fore=(214, 120, 50),
                 legs=(214, 120, 50), feet=(60, 40, 34), style="shaded", skin_tex=fur, nose=False,
                 face_kw=dict(eyes=0.3), eye=(40, 30, 20))
        return Char(Rig(), C, pose_hurt(N), ex_fox, 6)
    if name == "courier":
        C = dict(skin=skin, torso=(50, 80, 150), upper=(50, 80, 150), fore=(50, 80, 150), hands=skin,
                 legs=(70, 62, 58), feet=(40, 30, 28), style="shaded", torso_tex=("cloth", 2.0, 0.1))
        a, b = cfg["turn"]

        def act(t):
            d = ease(act_walk(t), t)
            d["phi"] = 0.5 + (math.pi - 1.0) * float(smooth((t - a) / (b - a)))
            d["dx"] = -0.3 * float(smooth((t - b + 4) / (N - b)))
            return d
        return Char(Rig(), C, act, ex_courier, 7)
    if name == "nomad":
        C = dict(skin=(176, 124, 88), torso=(200, 170, 120), upper=(200, 170, 120), fore=(176, 124, 88),
                 legs=(190, 160, 112), feet=(100, 70, 46), style="shaded", torso_tex=("cloth", 1.5, 0.2))
        return Char(Rig(), C, eased(lambda t: act_walk(t, period=16.0, amp=1.2)), ex_nomad, 8)
    if name == "fencer":
        C = dict(skin=skin, torso=(236, 234, 226), upper=(236, 234, 226), fore=(236, 234, 226), hands=(90, 70, 50),
                 legs=(50, 46, 50), feet=(30, 26, 26), style="shaded")
        return Char(Rig(), C, pose_lunge(N), ex_fencer, 9)
    if name == "ogre":
        tex = ("scales", 1.6, 0.18)
        sk = (118, 140, 78)
        C = dict(skin=sk, torso=sk, upper=sk, fore=sk, legs=sk, feet=(90, 80, 60), style="shaded", skin_tex=tex,
                 torso_tex=tex, legs_tex=tex, nose=True, eye=(240, 200, 60))
        rig = Rig(hr=0.065, tl_ch=0.14, tf_ch=0.1, tl_hip=0.12, r_ua=0.045, r_fa=0.042, r_th=0.055, r_sh=0.045,
                  r_hand=0.04, sw=0.11, th=0.2, sh=0.19, ua=0.17, fa=0.16)
        return Char(rig, C, pose_hammer(N), ex_ogre, 10)
    if name == "bard":
        C = dict(skin=skin, torso=(200, 158, 48), upper=(120, 40, 92), fore=(120, 40, 92), hands=skin,
                 legs=(90, 60, 80), feet=(70, 44, 30), style="shaded")

        def act(t):
            d = ease(act_idle(t), t)
            d["sh+"] = 0.55 + 0.12 * math.sin(t * 1.3)
            d["el+"] = 1.35 + 0.15 * math.sin(t * 1.3 + 0.5)
            d["sh-"] = 1.25
            d["el-"] = 0.55
            return d
        return Char(Rig(), C, act, ex_bard, 11)
    if name == "knight":
        C = dict(skin=(172, 178, 188), torso=(168, 174, 184), upper=(168, 174, 184), fore=(168, 174, 184),
                 hands=(150, 156, 166), legs=(164, 170, 180), feet=(150, 156, 166), style="metal", face=False,
                 fresnel=cfg["fresnel"])
        ch = Char(Rig(tl_ch=0.115, r_ua=0.034, r_th=0.047), C, eased(base["walk"]), ex_knight, 12)
        return ch
    if name == "mage":
        C = dict(skin=(222, 190, 170), torso=(104, 60, 152), upper=(104, 60, 152), fore=(104, 60, 152),
                 hands=(222, 190, 170), legs=(90, 52, 132), feet=(60, 40, 50), style="shaded")
        f = pose_skill(N)

        def act(t):
            d = f(t)
            d["sh-"] = 0.4 + 0.3 * float(smooth(t / 10))
            d["el-"] = 0.3
            return d
        return Char(Rig(), C, act, ex_mage, 13)
    if name == "anime":
        sk = (250, 222, 206)
        C = dict(skin=sk, torso=(244, 244, 246), upper=(244, 244, 246), fore=sk, legs=sk, feet=(60, 50, 60),
                 style="cel", ink=0.9, anime=True, iris=(40, 150, 140), hair=(120, 214, 176), nose=False,
                 face_kw=dict(eyes=0.35, eye_r=0.017, e_h=-0.2))
        rig = Rig(hr=0.105, tor=0.24, th=0.2, sh=0.19, ua=0.13, fa=0.12, r_th=0.034, r_sh=0.028, tl_ch=0.085,
                  tf_ch=0.055, tl_hip=0.075, r_ua=0.024, r_fa=0.021, r_hand=0.022)
        return Char(rig, C, eased(lambda t: act_idle(t, period=40, amp=1.4)), ex_anime, 14)
    if name == "vampire":
        sk = (226, 220, 214)
        C = dict(skin=sk, torso=(40, 30, 46), upper=(40, 30, 46), fore=(40, 30, 46), hands=sk,
                 legs=(30, 26, 34), feet=(20, 18, 22), style="shaded", torso_tex=("cloth", 2.5, 0.12), eye=(150, 20, 30))
        return Char(Rig(), C, eased(lambda t: act_walk(t, period=26.0, amp=0.9)), ex_vampire, 15)
    if name == "traveller":
        C = dict(skin=skin, torso=(150, 110, 70), upper=(150, 110, 70), fore=(150, 110, 70), hands=skin,
                 legs=(80, 84, 96), feet=(60, 40, 28), style="shaded", torso_tex=("cloth", 1.5, 0.15))
        return Char(Rig(), C, eased(lambda t: act_walk(t, period=25.0)), ex_traveller, 16)
    raise KeyError(name)


# ----------------------------------------------------------------------------- one case

def render_frame(ch, t, root, S, cfg, ctx, W, H, sub=True, prev_pts=None):
    """Truth (H, W, 4) float straight RGBA in 0..1 alpha / 0..255 colour, the reflection weight,
    and the feet points; sub-frames where the character moves fast."""
    shutter, nmax = cfg.get("sub", (0.5, 4)) if sub else (0.0, 1)
    # how many sub-frames: from the displacement of the prims' outlines over the shutter
    n = 1
    if shutter > 0 and nmax > 1:
        a = ch.prims(t - shutter / 2, root(t - shutter / 2), S)
        b = ch.prims(t + shutter / 2, root(t + shutter / 2), S)
        disp = 0.0
        if len(a) != len(b):
            disp = 1.5 * nmax / 2
        for pa, pb in zip(a, b) if len(a) == len(b) else ():
            qa, qb = prim_poly(pa), prim_poly(pb)
            if qa.shape == qb.shape:
                disp = max(disp, float(np.abs(qa - qb).max()))
        n = int(min(nmax, max(1, math.ceil(disp / 2.5))))
    times = [t] if n == 1 else [t + shutter * ((i + 0.5) / n - 0.5) for i in range(n)]
    plist = [ch.prims(tt, root(tt), S) for tt in times]
    feet = ch.feet(ch.J) if n == 1 else None
    if feet is None:
        ch.prims(t, root(t), S)
        feet = ch.feet(ch.J)
    bx = np.array([prims_bounds(p) for p in plist])
    x0 = max(int(math.floor(bx[:, 0].min())) - 2, 0)
    y0 = max(int(math.floor(bx[:, 1].min())) - 2, 0)
    x1 = min(int(math.ceil(bx[:, 2].max())) + 2, W)
    y1 = min(int(math.ceil(bx[:, 3].max())) + 2, H)
    w, h = x1 - x0, y1 - y0
    P = np.zeros((h, w, 3), F32)
    A = np.zeros((h, w), F32)
    R = np.zeros((h, w), F32)
    for prims in plist:
        p_, a_, r_ = render(prims, x0, y0, w, h, cfg["ss"], ctx)
        P += p_
        A += a_
        R += r_
    P /= n
    A /= n
    R /= n
    return (x0, y0, w, h), P, A, R, feet, n


def place(W, H, box, P, A, R):
    x0, y0, w, h = box
    Pf = np.zeros((H, W, 3), F32)
    Af = np.zeros((H, W), F32)
    Rf = np.zeros((H, W), F32)
    Pf[y0:y0 + h, x0:x0 + w] = P
    Af[y0:y0 + h, x0:x0 + w] = A
    Rf[y0:y0 + h, x0:x0 + w] = R
    return Pf, Af, Rf


def quantize(P, A):
    a8 = np.clip(np.rint(A * 255), 0, 255).astype(np.uint8)
    straight = np.where(A[..., None] > 1e-6, P / np.maximum(A[..., None], 1e-6), 0)
    rgb8 = np.clip(np.rint(straight), 0, 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.dstack([rgb8, a8])


def render_case(name, cfg, outdir):
    t0 = time.time()
    W, H, N = cfg["W"], cfg["H"], cfg["N"]
    seed = int.from_bytes(name.encode()[:8].ljust(8, b"\0"), "little") % (2 ** 32)
    rng = np.random.default_rng(seed)
    ctx = Ctx(tex=make_textures(seed + 1))
    ch = make_char(cfg)
    S = cfg["Hc"]
    rx, ry = cfg["root"]
    drift = cfg.get("drift_x", 0)
    shake = cfg.get("shake", 0.0)
    wander = cfg.get("wander", 0)
    shk = rng.standard_normal((N + 2, 2))

    def root(t):
        x = rx * W + drift * (t / max(N - 1, 1) - 0.5)
        y = ry * H
        if wander:
            x += wander * (math.sin(t * 0.021) * 0.7 + math.sin(t * 0.057 + 1) * 0.3)
        if shake and t >= 1:
            i = int(min(max(round(t), 0), N))
            x += shake * shk[i, 0]
            y += shake * shk[i, 1] * 0.5
        return (x, y)

    outdir.mkdir(parents=True, exist_ok=True)
    # ---- portrait: the rest pose, its own drawing at pscale
    ps = cfg.get("pscale", 1)
    rest = ch.pose(0.0)
    pr = ch.prims(0.0, (0, 0), S * ps, k=ps, pose=rest)
    bx = prims_bounds(pr)
    m = int(8 * ps)
    px0, py0 = int(math.floor(bx[0])) - m, int(math.floor(bx[1])) - m
    pw, ph = int(math.ceil(bx[2])) + m - px0, int(math.ceil(bx[3])) + m - py0
    Pp, Ap, _ = render(pr, px0, py0, pw, ph, cfg["ss"], ctx)
    por = quantize(Pp, Ap)
    cv2.imwrite(str(outdir / "portrait.png"), cv2.cvtColor(por, cv2.COLOR_RGBA2BGRA),
                [cv2.IMWRITE_PNG_COMPRESSION, 6])

    scr = Screen(W, H, dict(cfg["screen"], canvas=cfg["canvas"]), rng)
    truth = np.zeros((N, H, W, 4), np.uint8)
    enc = Encoder(outdir / "clip.mp4", W, H, cfg["crf"])
    wrapW, wrapS = cfg.get("wrap", (0, 0))
    halo = cfg.get("halo")
    outline = cfg.get("outline")
    ghost = cfg.get("ghost", 0.0)
    cast = cfg.get("cast")
    yy, xx = np.mgrid[0:H, 0:W].astype(F32)
    prev_clean = None
    nsub = []
    for i in range(N):
        t = float(i)
        box, P, A, R, feet, n = render_frame(ch, t, root, S, cfg, ctx, W, H, sub=i > 0)
        nsub.append(n)
        Pf, Af, Rf = place(W, H, box, P, A, R)
        T = quantize(Pf, Af)
        truth[i] = T
        a = T[..., 3].astype(F32) / 255
        F = T[..., :3].astype(F32)
        if i == 0:  # the user's input image: the portrait on the flat canvas
            C = F * a[..., None] + np.asarray(cfg["canvas"], F32) * (1 - a[..., None])
            prev_clean = C
            enc.add(np.clip(np.rint(C), 0, 255).astype(np.uint8))
            continue
        ramp = float(smooth(t / 3.0))  # the model's light comes in with its screen
        B = scr.frame(t, N)
        # shadows on the screen (never in the truth)
        shade_m = np.zeros((H, W), F32)
        if cfg.get("shadow"):
            fp = np.array(feet)
            cx, cy = fp[:, 0].mean(), fp[:, 1].max() + 1.5
            spread = max(np.ptp(fp[:, 0]) / 2 + S * 0.08, S * 0.12)
            shade_m += cfg["shadow"] * np.exp(-((xx - cx) / spread) ** 2 - ((yy - cy) / (S * 0.03)) ** 2 * 1.0)
        if cast:
            dx, dy, s_ = cast
            Mt = np.float32([[1, 0, dx], [0, 1, dy]])
            sh = cv2.warpAffine(a, Mt, (W, H), flags=cv2.INTER_LINEAR, borderValue=0)
            shade_m += s_ * cv2.GaussianBlur(sh, (0, 0), 6)
        if shade_m.any():
            B *= (1 - np.clip(shade_m, 0, 0.8) * ramp)[..., None]
        sig = max(2.0, wrapW * 1.2)
        Bl = cv2.GaussianBlur(B, (0, 0), sig)
        inside = (a > 0.5).astype(np.uint8)
        d = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
        if ghost:  # the clean frame of this pose, before the model's ghost
            pass
        Fm = F.copy()
        if Rf.any():
            r = np.where(Af > 1e-4, Rf / np.maximum(Af, 1e-4), 0) * ramp
            Fm = Fm * (1 - r[..., None]) + Bl * r[..., None]
        if wrapW:
            w = wrapS * np.clip(1 - (d - 0.5) / wrapW, 0, 1) ** 1.3 * ramp
            w[a <= 0.5] = wrapS * ramp
            Fm = Fm * (1 - w[..., None]) + Bl * w[..., None]
        if halo:
            hw_, hs_ = halo
            hmap = hs_ * np.exp(-np.maximum(d - 0.5, 0) / hw_) * ramp
            Fm = Fm * (1 - hmap[..., None]) + Bl * 1.1 * hmap[..., None]
        if outline:
            ow, oa, oc = outline
            dout = cv2.distanceTransform(1 - inside, cv2.DIST_L2, 5)
            o = oa * np.clip(1 - (dout - 0.5) / ow, 0, 1) * (1 - inside) * ramp
            B = B * (1 - o[..., None]) + np.asarray(oc, F32) * o[..., None]
        C = Fm * a[..., None] + B * (1 - a[..., None])
        C += (rng.standard_normal((H, W), dtype=F32) * 1.2 * a)[..., None]  # grain on the character too
        out = C
        if ghost and i >= 2:
            out = (1 - ghost) * C + ghost * prev_clean
        prev_clean = C
        enc.add(np.clip(np.rint(out), 0, 255).astype(np.uint8))
    enc.close()
    save_truth(outdir / "truth.npz", truth)
    params = {k: v for k, v in cfg.items() if k not in ("notes", "expect_flags", "char", "action", "screen")}
    params["screen"] = {k: v for k, v in cfg["screen"].items()}
    params["fps"] = FPS
    params["portrait_size"] = [int(por.shape[1]), int(por.shape[0])]
    params["max_subframes_used"] = int(max(nsub))
    params["mean_subframes"] = round(float(np.mean(nsub)), 2)
    meta = {"action": cfg["action"], "notes": cfg["notes"], "params": params,
            "truth": "straight RGBA of the character alone per video frame (frame 0 = the portrait's rest pose "
                     "as placed on the user's canvas); no screen light, wrap, reflection, shadow, outline or ghost"}
    if "expect_flags" in cfg:
        meta["expect_flags"] = cfg["expect_flags"]
    (outdir / "case.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    return name, time.time() - t0


def _run(args):
    name, cfg = args
    return render_case(name, cfg, OUT / name)


def main(argv):
    cases = build_cases()
    if argv:
        cases = [c for c in cases if any(a in c[0] for a in argv)]
    # heaviest first so the two workers finish together
    order = sorted(cases, key=lambda c: -c[1]["W"] * c[1]["H"] * c[1]["N"] * (1 + c[1]["ss"] ** 2 / 9))
    t0 = time.time()
    with ProcessPoolExecutor(max_workers=min(2, len(order) or 1)) as ex:
        for name, dt in ex.map(_run, order):
            print(f"{name:<44} {dt:6.1f} s", flush=True)
    print(f"{len(order)} cases into {OUT} in {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
