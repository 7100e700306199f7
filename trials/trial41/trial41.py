#!/usr/bin/env python3
"""Trial 41: held-out green-screen clips of the kinds a video model leaves, with truth.

    .venv/bin/python trials/trial41/trial41.py [NAME ...]

Renders 16 cases into $TRIAL_OUT (default: trials/_out/trial41), one folder per case
with clip.mp4, portrait.png, truth.npz (`rgba`: uint8 (N, H, W, 4) straight RGBA per
frame) and case.json (`action`, `expect_flags`, and what the case models). A NAME renders
only the cases whose names contain it. T41_CLEAN=1 renders each case's control instead
(named *_clean): the rounded truth composited exactly over a flat screen, nothing else.

Characters are jointed procedural rigs drawn 3-4x oversized (polygons, ribbons, strands,
a pixel-art sprite) with dome / cel / flat shading, textures and ink, box-filtered down
(coverage alpha); fast limbs blurred from sub-frames over a 180-degree shutter. The clip
adds what the truth lacks: light wrap (the screen's colour mixed into opaque pixels near
the silhouette), screen gradient / vignette / mottle / grain / flicker, contact shadows,
and per case: boiling edges, fabric folds, a cast shadow on the wall, a grey-green
screen, temporal denoise, reframing, glints, a ghost. Encoding: own BT.601 limited-range
4:2:0, PyAV libx264, one thread, mbtree=0, untagged (as ComfyUI's SaveVideo writes).
"""
from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import sys
import time
import zipfile
import zlib
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)
HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT", HERE.parent / "_out" / "trial41"))
CLEAN = os.environ.get("T41_CLEAN") == "1"
LIGHT = np.array([0.6, 0.8])  # direction toward which the lit side looks darker (light from top-left)

# ----------------------------------------------------------------------------- textures
def _tiles():
    r = np.random.default_rng(4141)
    T = 64
    def wblur(x, sx, sy):  # blur that tiles (wrap-around)
        p = np.pad(x, 16, mode="wrap")
        return cv2.GaussianBlur(p, (0, 0), sigmaX=sx, sigmaY=sy)[16:-16, 16:-16]

    n = wblur(r.normal(0, 1, (T, T)).astype(np.float32), 1.6, 1.6)
    n /= np.abs(n).max()
    yy, xx = np.mgrid[0:T, 0:T].astype(np.float32)
    weave = (np.sin(xx * 2 * np.pi / 8) * np.sin(yy * 2 * np.pi / 8)).astype(np.float32)
    scale = ((np.hypot((xx % 8) - 4, (yy % 8) - 2 - 4 * ((xx // 8) % 2)) / 5.0) % 1.0) * 2 - 1
    br = wblur(r.normal(0, 1, (T, T)).astype(np.float32), 6, 0.7)
    br /= np.abs(br).max()
    mail = np.sign(np.sin(xx * 2 * np.pi / 4) + np.sin(yy * 2 * np.pi / 4 + (xx // 4) * np.pi)) * 0.8
    return {"noise": n, "weave": weave, "scale": scale.astype(np.float32),
            "brush": br, "mail": mail.astype(np.float32)}


TEX = _tiles()

# ----------------------------------------------------------------------------- geometry
def dirv(deg):
    a = math.radians(deg)
    return np.array([math.sin(a), math.cos(a)])


def rot(v, deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def capsule(p0, p1, r0, r1, n=10):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0])
    t1 = np.linspace(a - np.pi / 2, a + np.pi / 2, n)
    t0 = np.linspace(a + np.pi / 2, a + 3 * np.pi / 2, n)
    return np.concatenate([p1 + r1 * np.stack([np.cos(t1), np.sin(t1)], 1),
                           p0 + r0 * np.stack([np.cos(t0), np.sin(t0)], 1)])


def ellipse(c, rx, ry, ang=0.0, n=36, wob=None):
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    rr = 1.0 if wob is None else wob(t)
    p = np.stack([rx * rr * np.cos(t), ry * rr * np.sin(t)], 1)
    a = math.radians(ang)
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return p @ R.T + np.asarray(c, float)


def ribbon(C, w):
    C = np.asarray(C, float)
    d = np.gradient(C, axis=0)
    d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-6)
    N = np.stack([-d[:, 1], d[:, 0]], 1)
    w = np.asarray(w, float)[:, None]
    return np.concatenate([C + N * w, (C - N * w)[::-1]])


def curve(root, d0, L, bend, wave=0.0, k=1.0, phase=0.0, K=14):
    """centerline from root: straight along d0 with a quadratic bend and a travelling wave."""
    s = np.linspace(0, 1, K)[:, None]
    d0 = np.asarray(d0, float) / np.linalg.norm(d0)
    nrm = np.array([-d0[1], d0[0]])
    return (np.asarray(root, float) + L * s * d0 + L * s ** 2 * np.asarray(bend, float)
            + L * wave * (s ** 1.5) * np.sin(2 * np.pi * k * s - phase) * nrm)


def item(pts, col, **kw):
    it = {"kind": "poly", "pts": [np.asarray(pts, float)], "col": np.asarray(col, float)}
    it.update(kw)
    if "holes" in it:
        it["pts"] += [np.asarray(h, float) for h in it.pop("holes")]
    if "tf" in it:
        it["tf"] = np.asarray(it["tf"], float)
    return it


def lines(polys, width, col, **kw):
    it = {"kind": "lines", "pts": [np.asarray(p, float) for p in polys], "w": width,
          "col": np.asarray(col, float), "shade": "flat"}
    it.update(kw)
    return it


def sprite(img, center, ex, **kw):
    """pixel-art RGBA drawn nearest-neighbour: one art pixel is vector ex wide."""
    c = np.asarray(center, float)
    ex = np.asarray(ex, float)
    ey = np.array([-ex[1], ex[0]])
    h, w = img.shape[:2]
    corners = np.stack([c + sx * ex * w / 2 + sy * ey * h / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    it = {"kind": "sprite", "img": img, "pts": [corners], "tf": np.stack([c, c + ex, c + ey]),
          "col": np.zeros(3), "shade": "flat"}
    it.update(kw)
    return it


def transform(items, fn):
    for it in items:
        it["pts"] = [fn(p) for p in it["pts"]]
        if "tf" in it:
            it["tf"] = fn(it["tf"])
    return items


# ----------------------------------------------------------------------------- renderer
def render(items, W, H, S, boil=None):
    """premultiplied RGB (H, W, 3) float32 0..255 and alpha (H, W) of items drawn in order."""
    prem = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    allp = np.concatenate([it["pts"][0] for it in items])
    pad = 6 + max(it.get("ink", 0) + 3 * it.get("soft", 0) + it.get("w", 0) for it in items)
    x0 = int(max(0, math.floor(allp[:, 0].min() - pad)))
    y0 = int(max(0, math.floor(allp[:, 1].min() - pad)))
    x1 = int(min(W, math.ceil(allp[:, 0].max() + pad)))
    y1 = int(min(H, math.ceil(allp[:, 1].max() + pad)))
    if x1 <= x0 or y1 <= y0:
        return prem, alpha
    hw, hh = (x1 - x0) * S, (y1 - y0) * S
    crgb = np.zeros((hh, hw, 3), np.float32)
    ca = np.zeros((hh, hw), np.float32)
    org = np.array([x0, y0], float)
    for it in items:
        _draw(it, crgb, ca, org, S)
    if boil is not None:
        fx = cv2.resize(boil[0][y0:y1, x0:x1], (hw, hh), interpolation=cv2.INTER_LINEAR) * S
        fy = cv2.resize(boil[1][y0:y1, x0:x1], (hw, hh), interpolation=cv2.INTER_LINEAR) * S
        gx, gy = np.meshgrid(np.arange(hw, dtype=np.float32), np.arange(hh, dtype=np.float32))
        mx, my = gx + fx, gy + fy
        crgb = cv2.remap(crgb, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        ca = cv2.remap(ca, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    prem[y0:y1, x0:x1] = cv2.resize(crgb, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    alpha[y0:y1, x0:x1] = cv2.resize(ca, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return prem, alpha


def _draw(it, crgb, ca, org, S):
    hh, hw = ca.shape
    P = [(p - org) * S for p in it["pts"]]
    ink = it.get("ink", 0) * S
    pad = 3 + ink + 3 * it.get("soft", 0) * S + it.get("w", 0) * S
    bx0 = int(max(0, math.floor(P[0][:, 0].min() - pad)))
    by0 = int(max(0, math.floor(P[0][:, 1].min() - pad)))
    bx1 = int(min(hw, math.ceil(P[0][:, 0].max() + pad)))
    by1 = int(min(hh, math.ceil(P[0][:, 1].max() + pad)))
    if it["kind"] == "lines":
        allp = np.concatenate(P)
        bx0 = int(max(0, math.floor(allp[:, 0].min() - pad)))
        by0 = int(max(0, math.floor(allp[:, 1].min() - pad)))
        bx1 = int(min(hw, math.ceil(allp[:, 0].max() + pad)))
        by1 = int(min(hh, math.ceil(allp[:, 1].max() + pad)))
    if bx1 <= bx0 or by1 <= by0:
        return
    bw, bh = bx1 - bx0, by1 - by0
    o = np.array([bx0, by0], float)
    col_img = None
    if it["kind"] == "sprite":
        c, px, py = (it["tf"] - org) * S - o
        ex, ey = px - c, py - c
        img = it["img"]
        h, w = img.shape[:2]
        M = np.array([[ex[0], ey[0], c[0] - ex[0] * w / 2 - ey[0] * h / 2],
                      [ex[1], ey[1], c[1] - ex[1] * w / 2 - ey[1] * h / 2]], np.float32)
        warped = cv2.warpAffine(img.astype(np.float32), M, (bw, bh), flags=cv2.INTER_NEAREST,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        cov = warped[..., 3] / 255.0
        col_img = warped[..., :3]
        m = (cov > 0).astype(np.uint8) * 255
    else:
        m = np.zeros((bh, bw), np.uint8)
        ip = [np.round((p - o) * 16).astype(np.int32) for p in P]
        if it["kind"] == "poly":
            cv2.fillPoly(m, ip[:1], 255, cv2.LINE_8, 4)
            if len(ip) > 1:
                cv2.fillPoly(m, ip[1:], 0, cv2.LINE_8, 4)
        else:
            th = max(1, int(round(it["w"] * S)))
            cv2.polylines(m, ip, False, 255, th, cv2.LINE_8, 4)
        cov = m.astype(np.float32) / 255.0
    if it.get("soft", 0):
        cov = cv2.GaussianBlur(cov, (0, 0), it["soft"] * S)
    op = it.get("op", 1.0)
    sl = (slice(by0, by1), slice(bx0, bx1))
    if ink:
        k = int(round(ink))
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
        mi = cv2.dilate(m, ker).astype(np.float32) / 255.0 * op
        ic = np.asarray(it.get("ink_col", (22, 18, 26)), np.float32)
        crgb[sl] *= (1 - mi)[..., None]
        crgb[sl] += ic * mi[..., None]
        ca[sl] = mi + ca[sl] * (1 - mi)
    if col_img is None:
        col_img = _colour(it, m, bw, bh, o, org, S)
    a = cov * op
    crgb[sl] *= (1 - a)[..., None]
    crgb[sl] += col_img * a[..., None]
    ca[sl] = a + ca[sl] * (1 - a)


def _colour(it, m, bw, bh, o, org, S):
    base = it["col"].astype(np.float32)
    shade = it.get("shade", "dome")
    if shade == "flat" and not it.get("tex"):
        return np.broadcast_to(base, (bh, bw, 3)).astype(np.float32)
    dark = np.asarray(it.get("dark", base * 0.55), np.float32)
    f = np.ones((bh, bw), np.float32)
    if shade != "flat":
        dt = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        R = max(float(dt.max()), 1.0)
        s = R * 0.5
        M = np.array([[1, 0, LIGHT[0] * s], [0, 1, LIGHT[1] * s]], np.float32)
        dl = cv2.warpAffine(dt, M, (bw, bh), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        u = np.sqrt(np.clip(dt / R, 0, 1))
        ul = np.sqrt(np.clip(dl / R, 0, 1))
        if shade == "cel":
            f = np.where(ul > 0.45, 1.0, 0.0).astype(np.float32)
            f = np.maximum(f, 0.0) * 0.75 + 0.25 * (u > 0.25)
        else:
            f = 0.15 + 0.35 * u + 0.5 * ul
        f = np.clip(f, 0, 1)
    col = dark + (base - dark) * f[..., None]
    tex = it.get("tex")
    if tex:
        tf = it.get("tf")
        if tf is None:
            p0 = it["pts"][0].mean(0)
            ax = np.array([1.0, 0.0])
        else:
            p0 = tf[0]
            ax = tf[1] - tf[0]
            ax = ax / max(np.linalg.norm(ax), 1e-6)
        gy, gx = np.mgrid[0:bh, 0:bw].astype(np.float32)
        wx = (gx + o[0]) / S + org[0] - p0[0]
        wy = (gy + o[1]) / S + org[1] - p0[1]
        sc = it.get("tex_scale", 1.0)
        uu = (wx * ax[0] + wy * ax[1]) / sc
        vv = (-wx * ax[1] + wy * ax[0]) / sc
        tile = TEX[tex]
        t = tile[np.floor(vv).astype(np.int64) % 64, np.floor(uu).astype(np.int64) % 64]
        col = col * (1 + it.get("tex_amp", 0.12) * t[..., None])
    if it.get("spec"):
        dt = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        R = max(float(dt.max()), 1.0)
        M = np.array([[1, 0, LIGHT[0] * R * 0.8], [0, 1, LIGHT[1] * R * 0.8]], np.float32)
        dl = cv2.warpAffine(dt, M, (bw, bh), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP) / R
        h = np.clip((dl - 0.55) / 0.35, 0, 1) ** 2 * (dt > 1.2 * S)
        col = col + it["spec"] * (255 - col) * h[..., None]
    return np.clip(col, 0, 255).astype(np.float32)


# ----------------------------------------------------------------------------- poses
REST = dict(lean=2, head=0, sh_n=8, el_n=12, sh_f=-6, el_f=14, hip_n=5, kn_n=4, hip_f=-5,
            kn_f=6, dx=0.0, dy=0.0, breath=1.0, wpn=0.0, lift_n=0.0, lift_f=0.0)


def ss(a, b, x):
    t = min(1.0, max(0.0, (x - a) / (b - a)))
    return t * t * (3 - 2 * t)


def mix(p, q, w):
    return {k: p[k] + (q.get(k, p[k]) - p[k]) * w for k in p}


def seg(keys, t):
    """piecewise smoothstep between (time, pose-dict) keys."""
    for (ta, pa), (tb, pb) in zip(keys, keys[1:]):
        if t <= tb:
            return mix(pa, pb, ss(ta, tb, t))
    return dict(keys[-1][1])


def P(**kw):
    d = dict(REST)
    d.update(kw)
    return d


def pose_walk(t, period=1.0, amp=20, arm=18, lean=5):
    ph = 2 * np.pi * t / period
    w = ss(0.0, 0.3, t)
    q = P(lean=lean, hip_n=amp * math.sin(ph), hip_f=-amp * math.sin(ph),
          kn_n=6 + 26 * max(0.0, math.sin(ph + 1.6)), kn_f=6 + 26 * max(0.0, math.sin(ph + 1.6 + np.pi)),
          sh_n=-arm * math.sin(ph), sh_f=arm * math.sin(ph), el_n=14 + 8 * math.sin(ph),
          el_f=14 - 8 * math.sin(ph), head=2 * math.sin(2 * ph), dy=0.0)
    return mix(REST, q, w)


def pose_run(t, period=0.64):
    ph = 2 * np.pi * t / period
    w = ss(0.0, 0.25, t)
    q = P(lean=14, hip_n=36 * math.sin(ph), hip_f=-36 * math.sin(ph),
          kn_n=12 + 70 * max(0.0, math.sin(ph + 1.8)) ** 1.2,
          kn_f=12 + 70 * max(0.0, math.sin(ph + 1.8 + np.pi)) ** 1.2,
          sh_n=-48 * math.sin(ph), sh_f=48 * math.sin(ph), el_n=85, el_f=85,
          head=-6, dy=0.02 * abs(math.sin(ph)))
    return mix(REST, q, w)


def pose_idle(t, period=1.7):
    ph = 2 * np.pi * t / period
    w = ss(0.0, 0.3, t)
    q = P(breath=1.0 + 0.03 * math.sin(ph), sh_n=8 + 6 * math.sin(ph + 0.4),
          sh_f=-6 - 5 * math.sin(ph + 0.4), el_n=12 + 8 * math.sin(ph), head=4 * math.sin(ph * 0.5),
          lean=2 + 3 * math.sin(ph), dx=0.012 * math.sin(ph * 0.5), wpn=6 * math.sin(ph))
    return mix(REST, q, w)


def pose_attack(t, wind=0.32, hit=0.42):
    keys = [(0.0, REST), (0.06, REST),
            (wind, P(sh_n=-150, el_n=40, lean=-8, hip_n=-6, hip_f=8, kn_f=14, head=-4, wpn=-30,
                     sh_f=20, el_f=40)),
            (hit, P(sh_n=80, el_n=6, lean=6, hip_n=12, kn_n=14, hip_f=-8, kn_f=12, head=4,
                    wpn=20, sh_f=-30, el_f=30, dx=0.02)),
            (hit + 0.22, P(sh_n=70, el_n=10, lean=16, hip_n=28, kn_n=22, hip_f=-16, kn_f=10,
                           head=6, wpn=18, sh_f=-26, el_f=30, dx=0.05)),
            (hit + 0.6, P(sh_n=20, el_n=20, lean=6, hip_n=10, kn_n=8, dx=0.02))]
    return seg(keys, t)


def pose_punch(t):
    keys = [(0.0, REST), (0.08, REST),
            (0.26, P(sh_n=-20, el_n=120, sh_f=30, el_f=110, lean=-4, hip_n=12, hip_f=-12,
                     kn_n=16, kn_f=16)),
            (0.33, P(sh_n=88, el_n=2, sh_f=0, el_f=120, lean=16, hip_n=20, hip_f=-16,
                     kn_n=18, kn_f=14, dx=0.03)),
            (0.48, P(sh_n=20, el_n=110, sh_f=20, el_f=115, lean=4, hip_n=14, hip_f=-12,
                     kn_n=16, kn_f=16)),
            (0.56, P(sh_n=10, el_n=110, sh_f=92, el_f=0, lean=20, hip_n=16, hip_f=-18,
                     kn_n=18, kn_f=12, dx=0.04)),
            (0.8, P(sh_n=15, el_n=100, sh_f=25, el_f=100, lean=6, hip_n=12, hip_f=-12,
                    kn_n=14, kn_f=14, dx=0.02)),
            (1.6, P(sh_n=15, el_n=100, sh_f=25, el_f=100, lean=6, hip_n=12, hip_f=-12,
                    kn_n=14, kn_f=14, dx=0.02))]
    return seg(keys, t)


def pose_skill(t):
    keys = [(0.0, REST), (0.1, REST),
            (0.55, P(sh_n=-165, el_n=10, sh_f=-150, el_f=20, lean=-6, head=-10, hip_n=8,
                     hip_f=-10, dy=0.02)),
            (0.95, P(sh_n=-170, el_n=5, sh_f=-155, el_f=15, lean=-8, head=-12, hip_n=8,
                     hip_f=-10, dy=0.04, wpn=40)),
            (1.2, P(sh_n=85, el_n=0, sh_f=60, el_f=10, lean=14, head=6, hip_n=22, kn_n=14,
                    hip_f=-14, dx=0.03, wpn=0)),
            (1.6, P(sh_n=70, el_n=8, sh_f=40, el_f=20, lean=10, head=4, hip_n=18, kn_n=12,
                    hip_f=-12, dx=0.03)),
            (2.4, P(sh_n=30, el_n=14, sh_f=10, el_f=20, lean=5, hip_n=10, kn_n=8, hip_f=-8))]
    return seg(keys, t)


def pose_hurt(t):
    keys = [(0.0, REST), (0.08, REST),
            (0.2, P(lean=-30, head=-28, sh_n=55, el_n=60, sh_f=70, el_f=50, hip_n=20, kn_n=35,
                    hip_f=-4, kn_f=30, dx=-0.1, dy=0.03)),
            (0.45, P(lean=-18, head=-15, sh_n=30, el_n=40, sh_f=40, el_f=40, hip_n=14,
                     kn_n=30, hip_f=-10, kn_f=28, dx=-0.13)),
            (1.0, P(lean=-4, head=-4, sh_n=15, el_n=25, sh_f=5, el_f=25, hip_n=8, kn_n=14,
                    hip_f=-8, kn_f=14, dx=-0.13)),
            (2.0, P(lean=0, head=0, sh_n=10, el_n=15, sh_f=0, el_f=15, hip_n=6, kn_n=8,
                    hip_f=-6, kn_f=8, dx=-0.13))]
    return seg(keys, t)


# ----------------------------------------------------------------------------- humanoid
def shade_of(sp, col, **extra):
    kw = {"shade": sp.get("style", "dome")}
    if "dark" in sp:
        kw["dark"] = sp["dark"]
    if sp.get("ink"):
        kw["ink"] = sp["ink"]
        kw["ink_col"] = sp.get("ink_col", (24, 18, 28))
    kw.update({k: v for k, v in extra.items() if v is not None})
    return kw


def humanoid(spec, pose, t, Hc, cx, gy):
    """items for a character facing +x, feet on y = gy, centred near x = cx, height Hc px."""
    u = Hc
    bulk = spec.get("bulk", 1.0)
    hr = 0.075 * u * spec.get("head", 1.0)
    L_th, L_sh = 0.235 * u, 0.23 * u
    L_ua, L_fa = 0.16 * u, 0.15 * u
    L_t = 0.28 * u * pose["breath"]
    r_th0, r_th1 = 0.05 * u * bulk, 0.036 * u * bulk
    r_sh0, r_sh1 = 0.034 * u * bulk, 0.025 * u * bulk
    r_ua0, r_ua1 = 0.033 * u * bulk, 0.027 * u * bulk
    r_fa0, r_fa1 = 0.027 * u * bulk, 0.021 * u * bulk
    r_hand = 0.03 * u * bulk
    far = spec.get("far", 0.78)

    def leg(hd, kd, off, lift):
        hip = np.array([off, 0.0])
        k = hip + L_th * dirv(hd)
        a = k + L_sh * dirv(hd - kd)
        toe = a + 0.085 * u * dirv(hd - kd + 85 - lift)
        return hip, k, a, toe

    Ln = leg(pose["hip_n"], pose["kn_n"], 0.012 * u, pose["lift_n"])
    Lf = leg(pose["hip_f"], pose["kn_f"], -0.012 * u, pose["lift_f"])
    low = max(Ln[2][1], Ln[3][1], Lf[2][1], Lf[3][1]) + 0.03 * u
    pel = np.array([cx + pose["dx"] * u, gy - low - pose["dy"] * u])
    Ln = [p + pel for p in Ln]
    Lf = [p + pel for p in Lf]
    td = np.array([math.sin(math.radians(pose["lean"])), -math.cos(math.radians(pose["lean"]))])
    neck = pel + L_t * td
    shn = neck - 0.03 * u * td + np.array([0.01 * u, 0])
    shf = neck - 0.03 * u * td - np.array([0.012 * u, 0])

    def arm(sh, sd, ed):
        e = sh + L_ua * dirv(sd + pose["lean"] * 0.6)
        w = e + L_fa * dirv(sd + pose["lean"] * 0.6 + ed)
        return sh, e, w, sd + pose["lean"] * 0.6 + ed

    An = arm(shn, pose["sh_n"], pose["el_n"])
    Af = arm(shf, pose["sh_f"], pose["el_f"])
    hd = rot(td, pose["head"])
    head = neck + (0.03 * u + hr * 0.95) * hd
    J = dict(pel=pel, neck=neck, head=head, hd=hd, td=td, hr=hr, An=An, Af=Af, Ln=Ln, Lf=Lf,
             u=u, t=t, pose=pose, gy=gy, spec=spec)

    skin = np.array(spec["skin"], float)
    shirt = np.array(spec["shirt"], float)
    sleeve = np.array(spec.get("sleeve", shirt), float)
    fore = np.array(spec.get("fore", skin), float)
    pants = np.array(spec["pants"], float)
    boots = np.array(spec["boots"], float)
    tex = spec.get("tex", {})
    items = []

    def limb_items(Lg, dim, is_near):
        hip, k, a, toe = Lg
        if spec.get("robe"):
            items.append(item(capsule(a + (toe - a) * 0.1, toe, r_sh1 * 1.15, r_sh1 * 0.8),
                              boots * dim, **shade_of(spec, None)))
            return
        items.append(item(capsule(hip, k, r_th0, r_th1), pants * dim, tf=(hip, k),
                          **shade_of(spec, None, tex=tex.get("pants"))))
        if not spec.get("robe"):
            items.append(item(capsule(k, a, r_sh0, r_sh1), pants * dim, tf=(k, a),
                              **shade_of(spec, None, tex=tex.get("pants"))))
        items.append(item(capsule(a + (toe - a) * 0.1, toe, r_sh1 * 1.15, r_sh1 * 0.8),
                          boots * dim, **shade_of(spec, None, spec=spec.get("boot_spec", 0))))
        if not spec.get("robe"):
            items.append(item(capsule(a - 0.06 * u * dirv(0) * 0 + (k - a) * 0.35, a,
                                      r_sh0 * 1.05, r_sh1 * 1.1), boots * dim,
                              **shade_of(spec, None, spec=spec.get("boot_spec", 0))))

    def arm_items(A, dim):
        sh, e, w, _ = A
        items.append(item(capsule(sh, e, r_ua0, r_ua1), sleeve * dim, tf=(sh, e),
                          **shade_of(spec, None, tex=tex.get("sleeve"),
                                     spec=spec.get("arm_spec", 0))))
        items.append(item(capsule(e, w, r_fa0, r_fa1), fore * dim, tf=(e, w),
                          **shade_of(spec, None, tex=tex.get("fore"), spec=spec.get("arm_spec", 0))))
        items.append(item(ellipse(w + (w - e) / np.linalg.norm(w - e) * r_hand * 0.7, r_hand,
                                  r_hand * 0.85, 0, 20),
                          np.array(spec.get("glove", skin)) * dim, **shade_of(spec, None)))

    for fn in spec.get("back", []):
        items += fn(J)
    # far limbs
    limb_items(Lf, far, False)
    for fn in spec.get("far_hand", []):
        items += fn(J, far)
    arm_items(Af, far)
    if spec.get("robe"):
        limb_items(Ln, 1.0, True)
        items += robe(J, spec)
    # hips & torso
    if not spec.get("robe"):
        items.append(item(capsule(Lf[0], Ln[0], r_th0 * 1.1, r_th0 * 1.1), pants,
                          **shade_of(spec, None, tex=tex.get("pants"))))
    if not spec.get("robe"):
        limb_items(Ln, 1.0, True)
    items.append(item(capsule(pel, neck - 0.02 * u * td, 0.072 * u * bulk, 0.082 * u * bulk),
                      shirt, tf=(pel, neck), **shade_of(spec, None, tex=tex.get("shirt"),
                                                        spec=spec.get("shirt_spec", 0))))
    if spec.get("belt"):
        b0 = pel + 0.05 * u * td
        pn = np.array([-td[1], td[0]])
        items.append(item(capsule(b0 - pn * 0.06 * u * bulk, b0 + pn * 0.065 * u * bulk,
                                  0.014 * u, 0.014 * u), spec["belt"], **shade_of(spec, None)))
    for fn in spec.get("torso", []):
        items += fn(J)
    items.append(item(capsule(neck - 0.01 * u * td, neck + 0.04 * u * hd, 0.025 * u, 0.022 * u),
                      skin * 0.92, **shade_of(spec, None)))
    items += head_items(J, spec)
    for fn in spec.get("near_hand", []):
        items += fn(J, 1.0)
    arm_items(An, 1.0)
    for fn in spec.get("front", []):
        items += fn(J)
    return items, J


def robe(J, spec):
    u, pel, neck, td = J["u"], J["pel"], J["neck"], J["td"]
    t = J["t"]
    kn = J["Ln"][1]
    kf = J["Lf"][1]
    gy = J["gy"]
    sway = spec.get("robe_sway", 0.02) * u * math.sin(2 * np.pi * t / 1.3)
    hem_y = gy - 0.05 * u
    front = max(kn[0], kf[0]) + 0.06 * u
    back = min(kn[0], kf[0]) - 0.09 * u + sway
    pts = [neck + np.array([0.06 * u, 0.02 * u]), pel + np.array([0.09 * u, 0]),
           np.array([front + 0.03 * u + sway * 0.5, hem_y]),
           np.array([(front + back) / 2, hem_y + 0.012 * u]),
           np.array([back - 0.02 * u, hem_y - 0.01 * u]), pel + np.array([-0.1 * u, 0.0]),
           neck + np.array([-0.07 * u, 0.02 * u])]
    C = np.array(pts)
    # smooth the outline a little: Chaikin
    for _ in range(2):
        Q = []
        for a, b in zip(C, np.roll(C, -1, 0)):
            Q += [0.75 * a + 0.25 * b, 0.25 * a + 0.75 * b]
        C = np.array(Q)
    return [item(C, spec["robe"], tf=(neck, pel), **shade_of(
        spec, None, tex=spec.get("tex", {}).get("robe"), dark=spec.get("robe_dark")))]


def head_items(J, spec):
    head, hr, hd, u, t = J["head"], J["hr"], J["hd"], J["u"], J["t"]
    skin = np.array(spec["skin"], float)
    hair = np.array(spec.get("hair", (60, 40, 30)), float)
    fw = np.array([-hd[1], hd[0]])  # facing vector (perpendicular to the head's axis, +x)
    up = hd
    items = []
    hs = spec.get("hair_style", "cap")
    if hs in ("cap", "clumps", "ponytail", "strands"):
        items.append(item(ellipse(head - fw * 0.25 * hr + up * 0.12 * hr, hr * 1.08, hr * 1.02, 0, 30),
                          hair, **shade_of(spec, None, tex=spec.get("tex", {}).get("hair"))))
    if hs == "hood":
        hc = np.array(spec.get("hood", (50, 90, 50)), float)
        tip = head - fw * 1.9 * hr - up * 0.2 * hr
        items.append(item(np.concatenate([ellipse(head + up * 0.1 * hr, hr * 1.3, hr * 1.3, 0, 30)[8:26],
                                          [tip]]), hc, **shade_of(spec, None, tex=spec.get("tex", {}).get("hood"))))
    if "ears" in spec:
        ec = np.array(spec["ears"], float)
        for s, dim in ((-0.55, 0.8), (0.05, 1.0)):
            b = head + up * 0.7 * hr + fw * s * hr
            items.append(item([b - fw * 0.35 * hr, b + fw * 0.35 * hr,
                               b + up * 1.1 * hr - fw * 0.2 * hr], ec * dim, **shade_of(spec, None)))
    if hs == "helmet":
        mc = np.array(spec["metal"], float)
        J.setdefault("glints", []).append(head + (-0.55 * fw + 0.75 * up) * hr)
        items.append(item(ellipse(head, hr * 1.08, hr * 1.1, 0, 32), mc,
                          **shade_of(spec, None, spec=spec.get("metal_spec", 0.6))))
        items.append(item([head + fw * 0.9 * hr - up * 0.2 * hr, head + fw * 1.35 * hr - up * 0.55 * hr,
                           head + fw * 0.7 * hr - up * 0.95 * hr, head + fw * 0.2 * hr - up * 0.6 * hr],
                          mc * 0.9, **shade_of(spec, None, spec=spec.get("metal_spec", 0.6))))
        items.append(lines([[head + fw * 0.15 * hr + up * 0.05 * hr, head + fw * 1.05 * hr + up * 0.05 * hr]],
                           max(0.9, 0.12 * hr), (20, 18, 22)))
        if spec.get("plume"):
            pc = curve(head + up * 1.0 * hr, -fw * 1.0 + up * 0.3, 2.6 * hr, -up * 0.9 * 0.4,
                       wave=0.08, k=1.2, phase=t * 7)
            items.append(item(ribbon(pc, np.linspace(0.32, 0.05, len(pc)) * hr), spec["plume"],
                              **shade_of(spec, None)))
        return items
    items.append(item(ellipse(head, hr, hr * 1.04, 0, 32), skin, **shade_of(spec, None)))
    # nose
    items.append(item(ellipse(head + fw * 0.92 * hr - up * 0.12 * hr, hr * 0.2, hr * 0.16, 0, 14),
                      skin, **shade_of(spec, None, shade="flat", ink=0)))
    eye = head + fw * 0.5 * hr + up * 0.12 * hr
    items.append(item(ellipse(eye, max(0.5, 0.11 * hr), max(0.6, 0.17 * hr), 0, 12),
                      spec.get("eye", (25, 20, 30)), shade="flat"))
    if hs in ("cap", "clumps", "ponytail", "strands"):
        items.append(item(ellipse(head + up * 0.55 * hr - fw * 0.2 * hr, hr * 0.98, hr * 0.55, 0, 28),
                          hair, **shade_of(spec, None, tex=spec.get("tex", {}).get("hair"))))
    if hs == "hood":
        hc = np.array(spec.get("hood", (50, 90, 50)), float)
        arc = ellipse(head + up * 0.1 * hr, hr * 1.3, hr * 1.3, 0, 40)
        inner = ellipse(head + fw * 0.35 * hr, hr * 0.92, hr * 1.0, 0, 40)
        items.append(item(arc, hc, holes=[inner], **shade_of(spec, None, tex=spec.get("tex", {}).get("hood"))))
    if hs == "clumps":
        items += hair_clumps(J, spec, hair)
    if hs == "strands":
        items += hair_strands(J, spec, hair)
    if hs == "ponytail":
        pc = curve(head - fw * 0.9 * hr + up * 0.3 * hr, -fw + up * -0.4, 2.8 * hr,
                   -up * 0.6, wave=0.07, k=1.0, phase=t * 6)
        items.append(item(ribbon(pc, np.linspace(0.3, 0.08, len(pc)) * hr), hair * 0.95,
                          **shade_of(spec, None)))
    return items


def hair_clumps(J, spec, hair):
    """long hair in tapered clumps with 1-3 px gaps between them, flowing back."""
    head, hr, hd, t, u = J["head"], J["hr"], J["hd"], J["t"], J["u"]
    fw = np.array([1.0, 0.0])
    out = []
    n = spec.get("clumps", 7)
    speed = spec.get("hair_speed", 5.0)
    flow = spec.get("hair_flow", 0.5)
    for i in range(n):
        root = head + hr * 0.9 * dirv(-120 + 14 * i)
        L = hr * (2.6 + 0.6 * math.sin(i * 2.3))
        d0 = np.array([-flow - 0.1 * i / n, 1.0])
        c = curve(root, d0, L, np.array([-0.25 * flow, 0.05]), wave=0.07 + 0.02 * (i % 3),
                  k=1.1, phase=t * speed + i * 0.8, K=16)
        w = np.linspace(0.2, 0.015, len(c)) * hr * (0.9 + 0.3 * ((i * 7) % 3) / 2)
        col = hair * (0.86 + 0.12 * ((i * 5) % 4) / 3)
        out.append(item(ribbon(c, w), col, **shade_of(spec, None, shade="dome",
                                                       dark=hair * 0.55)))
    return out


def hair_strands(J, spec, hair):
    head, hr, t = J["head"], J["hr"], J["t"]
    polys = []
    r = np.random.default_rng(7)
    for i in range(spec.get("strands", 30)):
        root = head + hr * 0.95 * dirv(-170 + 110 * r.random())
        L = hr * (1.6 + 1.4 * r.random())
        c = curve(root, np.array([-0.6 + 0.3 * r.random(), 1.0]), L, np.array([-0.2, 0.0]),
                  wave=0.06, k=1.0, phase=t * 5 + i, K=12)
        polys.append(c)
    return [lines(polys, spec.get("strand_w", 0.6), hair * 1.05)]


# ----------------------------------------------------------------------------- accessories
def wpn_dir(A, pose, off):
    return dirv(A[3] + 90 + off + pose["wpn"])


def sword(col=(200, 205, 215), hilt=(90, 60, 30), L=0.42, off=0, spec_=0.5):
    def f(J, dim):
        A, u = J["An"] if dim == 1.0 else J["Af"], J["u"]
        w = A[2]
        d = wpn_dir(A, J["pose"], off)
        n = np.array([-d[1], d[0]])
        tip = w + d * L * u
        base = w + d * 0.05 * u
        blade = [base + n * 0.018 * u, tip - d * 0.05 * u + n * 0.012 * u, tip,
                 tip - d * 0.05 * u - n * 0.012 * u, base - n * 0.018 * u]
        return [item(capsule(w - d * 0.06 * u, w + d * 0.03 * u, 0.011 * u, 0.011 * u), np.array(hilt) * dim, shade="dome"),
                item(blade, np.array(col) * dim, shade="dome", spec=spec_, tf=(base, tip)),
                item(capsule(w + d * 0.04 * u - n * 0.05 * u, w + d * 0.04 * u + n * 0.05 * u,
                             0.012 * u, 0.012 * u), np.array(hilt) * dim * 1.2, shade="dome")]
    return f


def trident(col=(170, 150, 90), shaft=(100, 70, 40)):
    def f(J, dim):
        A, u = J["An"], J["u"]
        w = A[2]
        d = wpn_dir(A, J["pose"], 0)
        n = np.array([-d[1], d[0]])
        tip = w + d * 0.55 * u
        out = [item(capsule(w - d * 0.25 * u, tip, 0.009 * u, 0.008 * u), shaft, shade="dome", ink=J["spec"].get("ink", 0))]
        cross = tip
        out.append(item(capsule(cross - n * 0.06 * u, cross + n * 0.06 * u, 0.008 * u, 0.008 * u), col, shade="dome", ink=J["spec"].get("ink", 0)))
        for s in (-0.06, 0.0, 0.06):
            b = cross + n * s * u
            out.append(item([b - n * 0.008 * u, b + d * 0.12 * u, b + n * 0.008 * u], col,
                            shade="dome", spec=0.3, ink=J["spec"].get("ink", 0)))
        return out
    return f


def hammer(head_col=(185, 185, 195), shaft=(110, 75, 40)):
    def f(J, dim):
        A, u = J["An"], J["u"]
        w = A[2]
        d = wpn_dir(A, J["pose"], 0)
        n = np.array([-d[1], d[0]])
        top = w + d * 0.36 * u
        out = [item(capsule(w - d * 0.08 * u, top, 0.012 * u, 0.011 * u), shaft, shade="dome", tex="brush", tf=(w, top))]
        hb = [top - n * 0.09 * u - d * 0.05 * u, top + n * 0.09 * u - d * 0.05 * u,
              top + n * 0.11 * u + d * 0.06 * u, top - n * 0.11 * u + d * 0.06 * u]
        out.append(item(hb, head_col, shade="dome", spec=0.8))
        out.append(item(capsule(top - n * 0.1 * u, top + n * 0.1 * u, 0.014 * u, 0.014 * u), (200, 160, 60), shade="dome", spec=0.7))
        J.setdefault("glints", []).append(top + n * 0.07 * u)
        return out
    return f


def staff(col=(120, 85, 50), ring=(200, 170, 80), crystal=None, L=0.9):
    def f(J, dim):
        A, u = J["An"] if dim == 1.0 else J["Af"], J["u"]
        w = A[2]
        d = dirv(180 - 8 + J["pose"]["wpn"] * 0.3 + (A[3] - 100) * 0.15)
        top = w + d * L * 0.55 * u
        bot = w - d * L * 0.45 * u
        out = [item(capsule(bot, top, 0.011 * u, 0.012 * u), np.array(col) * dim, shade="dome",
                    tex="brush", tf=(bot, top), tex_amp=0.2)]
        if crystal is not None:
            out.append(item([top - d * 0.01 * u + np.array([-0.03, 0]) * u, top + d * 0.1 * u,
                             top - d * 0.01 * u + np.array([0.03, 0]) * u, top - d * 0.05 * u],
                            crystal, shade="dome", spec=0.9))
            J.setdefault("crystal", top + d * 0.04 * u)
        else:
            for k in (-0.03, 0.03):
                out.append(item(ellipse(top + d * k * u, 0.03 * u, 0.012 * u, 0, 20), ring,
                                holes=[ellipse(top + d * k * u, 0.018 * u, 0.006 * u, 0, 20)],
                                shade="dome", spec=0.5))
        return out
    return f


def cape(col, dark=None, L=0.55, tex=None, soft=0, op=1.0, flow=0.5, speed=4.0):
    def f(J):
        u, neck, t = J["u"], J["neck"], J["t"]
        top = neck + np.array([-0.05 * u, 0.03 * u])
        c = curve(top, np.array([-flow * 0.6, 1.0]), L * u, np.array([-0.15 * flow, 0.0]),
                  wave=0.05, k=1.3, phase=t * speed, K=18)
        w = np.linspace(0.06, 0.17, len(c)) * u
        kw = dict(shade="dome", tex=tex, tf=(c[0], c[-1]), tex_amp=0.25, soft=soft, op=op)
        if dark is not None:
            kw["dark"] = dark
        if J["spec"].get("ink") and not soft:
            kw.update(ink=J["spec"]["ink"], ink_col=J["spec"].get("ink_col", (24, 18, 28)))
        return [item(ribbon(c, w), col, **kw)]
    return f


def backpack(col=(120, 80, 45)):
    def f(J):
        u, pel, neck, td = J["u"], J["pel"], J["neck"], J["td"]
        c = pel + (neck - pel) * 0.6 - np.array([0.1 * u, 0])
        box = [c + np.array([-0.06, -0.09]) * u, c + np.array([0.04, -0.1]) * u,
               c + np.array([0.05, 0.09]) * u, c + np.array([-0.07, 0.08]) * u]
        return [item(box, col, **shade_of(J["spec"], None, tex="weave", tex_amp=0.15)),
                item(capsule(c + np.array([-0.03, -0.12]) * u, c + np.array([-0.1, 0.02]) * u,
                             0.025 * u, 0.025 * u), (150, 40, 40), **shade_of(J["spec"], None))]
    return f


def quiver():
    def f(J):
        u, pel, neck = J["u"], J["pel"], J["neck"]
        a = neck + np.array([-0.09, 0.02]) * u
        b = pel + np.array([-0.02, -0.02]) * u
        d = (a - b) / np.linalg.norm(a - b)
        n = np.array([-d[1], d[0]])
        out = [item(capsule(b, a, 0.03 * u, 0.034 * u), (110, 70, 40), shade="dome", tex="weave", tf=(b, a))]
        for k in (-0.02, 0.0, 0.02):
            s0 = a + n * k * u
            s1 = s0 + d * 0.09 * u
            out.append(lines([[s0, s1]], 0.7, (130, 110, 80)))
            out.append(item([s1, s1 - d * 0.045 * u + n * 0.014 * u, s1 - d * 0.045 * u - n * 0.014 * u],
                            (235, 235, 225), shade="flat"))
        return out
    return f


def bow(col=(120, 75, 35)):
    def f(J, dim):
        A, u = J["An"], J["u"]
        w = A[2]
        th = np.radians(np.linspace(-70, 70, 20))
        R = 0.26 * u
        c = w - np.array([R * 0.97, 0])
        arc = c + R * np.stack([np.cos(th), np.sin(th)], 1)
        wid = (0.012 + 0.006 * np.cos(th * 1.2)) * u
        return [item(ribbon(arc, wid), np.array(col) * dim, shade="dome", tex="brush", tf=(arc[0], arc[-1])),
                lines([[arc[0], arc[-1]]], 0.8, (225, 220, 200))]
    return f


def chakram(col=(190, 195, 210), grip=(150, 40, 40)):
    def f(J, dim):
        A, u, t = J["Af"], J["u"], J["t"]
        w = A[2]
        c = w + dirv(A[3]) * 0.1 * u
        R = 0.12 * u
        spin = t * 300 + J["pose"]["wpn"] * 3
        wob = lambda th: 1 + 0.12 * np.maximum(0, np.sin(8 * th + math.radians(spin))) ** 4
        return [item(ellipse(c, R, R, 0, 96, wob), np.array(col) * dim,
                     holes=[ellipse(c, R * 0.7, R * 0.7, 0, 64)], shade="dome", spec=0.7),
                item(capsule(c - np.array([0, R * 0.75]), c - np.array([0, R * 0.45]), 0.015 * u,
                             0.015 * u), grip, shade="dome")]
    return f


def tail(col, dark=None, L=0.5):
    def f(J):
        u, pel, t = J["u"], J["pel"], J["t"]
        c = curve(pel + np.array([-0.06 * u, 0.02 * u]), np.array([-1.0, 0.5]), L * u,
                  np.array([0.0, 0.35]), wave=0.08, k=0.8, phase=t * 6, K=16)
        w = np.linspace(0.05, 0.006, len(c)) * u
        kw = dict(shade="dome", tex="scale", tf=(c[0], c[-1]), tex_amp=0.2)
        if dark is not None:
            kw["dark"] = dark
        return [item(ribbon(c, w), col, **kw)]
    return f


def scarf(col, L=0.3):
    def f(J):
        u, neck, t = J["u"], J["neck"], J["t"]
        c = curve(neck + np.array([-0.02 * u, 0.01 * u]), np.array([-1.0, 0.25]), L * u,
                  np.array([0.0, 0.2]), wave=0.12, k=1.5, phase=t * 9, K=16)
        return [item(capsule(neck - np.array([0.04 * u, -0.02 * u]), neck + np.array([0.045 * u, 0.02 * u]),
                             0.03 * u, 0.03 * u), col, shade="dome", tex="weave", tex_amp=0.15),
                item(ribbon(c, np.linspace(0.028, 0.018, len(c)) * u), np.array(col) * 0.92,
                     shade="dome", tex="weave", tf=(c[0], c[-1]), tex_amp=0.15)]
    return f


def tabard(col, trim=None):
    def f(J):
        u, pel, neck, td = J["u"], J["pel"], J["neck"], J["td"]
        pn = np.array([-td[1], td[0]])
        a = neck - 0.05 * u * td
        b = pel - 0.1 * u * td
        pts = [a + pn * 0.045 * u, a - pn * 0.04 * u, b - pn * 0.05 * u, b + pn * 0.055 * u]
        out = [item(pts, col, shade="dome", tex="weave", tex_amp=0.12, tf=(a, b))]
        if trim is not None:
            out.append(lines([[b - pn * 0.05 * u, b + pn * 0.055 * u]], 0.012 * u, trim))
        return out
    return f


def pauldron(col, spec_=0.7):
    def f(J):
        u, sh = J["u"], J["An"][0]
        J.setdefault("glints", []).append(sh + np.array([-0.02, -0.03]) * u)
        return [item(ellipse(sh + np.array([0.0, 0.005]) * u, 0.055 * u, 0.045 * u, -15, 28), col,
                     shade="dome", spec=spec_)]
    return f


def banner(col=(170, 30, 40), emblem=(230, 200, 80)):
    """a standard held upright in the near hand; the cloth waves behind, then the wind
    turns and it flies in front (the body keeps facing right)."""
    def f(J, dim):
        u, t = J["u"], J["t"]
        w = J["An"][2]
        top = np.array([w[0] + 0.01 * u, J["head"][1] - 0.38 * u])
        bot = np.array([w[0] - 0.01 * u, J["gy"] - 0.02 * u])
        side = -math.cos(np.pi * ss(J["spec"]["flip_t0"], J["spec"]["flip_t1"], t))  # -1 behind -> +1 front
        Lx = 0.36 * u * side
        out = [item(capsule(bot, top, 0.01 * u, 0.009 * u), (110, 80, 50), shade="dome")]
        k = np.linspace(0, 1, 16)
        wave = 0.025 * u * np.sin(2 * np.pi * (k * 1.4 - t * 1.8)) * k
        topc = np.stack([top[0] + Lx * k, top[1] + 0.01 * u + wave], 1)
        botc = np.stack([top[0] + Lx * k, top[1] + 0.24 * u + wave + 0.04 * u * k], 1)
        if abs(Lx) > 0.5:
            out.append(item(np.concatenate([topc, botc[::-1]]), col, shade="dome", tex="weave",
                            tex_amp=0.15, tf=(topc[0], topc[-1])))
            if abs(side) > 0.5:
                c = (topc[8] + botc[8]) / 2
                out.append(item(ellipse(c, 0.045 * u * abs(side), 0.05 * u, 0, 20), emblem, shade="flat"))
        out.append(item(ellipse(top - np.array([0, 0.012 * u]), 0.016 * u, 0.016 * u, 0, 16),
                        (210, 180, 80), shade="dome", spec=0.5))
        return out
    return f


def lute_sprite():
    pal = {".": (0, 0, 0, 0), "b": (120, 70, 30, 255), "B": (160, 100, 45, 255),
           "k": (50, 30, 15, 255), "y": (230, 200, 90, 255), "w": (240, 235, 220, 255)}
    rows = ["......kk........",
            ".....kyyk.......",
            "......kk........",
            "......kk........",
            "......kk........",
            "......kk........",
            "....kkBBkk......",
            "...kBBBBBBk.....",
            "..kBBwwwwBBk....",
            "..kBBkkkkBBk....",
            "..kBBwwwwBBk....",
            "..kbBBBBBBbk....",
            "...kbbbbbbk.....",
            "....kkkkkk......"]
    return np.array([[pal[c] for c in r] for r in rows], np.uint8)


# ----------------------------------------------------------------------------- creature
def shadow_creature(spec, pose, t, Hc, cx, gy):
    """a hunched near-black shade: noisy blob body, long clawed arms, smoke tendrils."""
    u = Hc
    lean = pose["lean"]
    base = np.array([cx + pose["dx"] * u, gy - 0.34 * u - pose["dy"] * u])
    body_c = base + np.array([0, -0.12 * u])
    head = body_c + rot(np.array([0.06 * u, -0.3 * u]), lean) + rot(np.array([0, -0.0]), 0)
    head = head + rot(np.array([0.02, -0.02]) * u, pose["head"])
    col = np.array(spec["col"], float)
    dark = np.array(spec["dark"], float)
    items = []
    # tendrils of smoke below and behind (soft, partly see-through)
    for i in range(7):
        root = base + np.array([(-0.12 + 0.04 * i) * u, 0.05 * u])
        c = curve(root, np.array([-0.4 - 0.1 * i, 1.0]), (0.28 + 0.04 * (i % 3)) * u,
                  np.array([-0.25, -0.05]), wave=0.12, k=1.2, phase=t * 5 + i * 1.3, K=14)
        items.append(item(ribbon(c, np.linspace(0.035, 0.004, len(c)) * u), col * 1.1,
                          shade="flat", op=0.72, soft=0.8))
    ph = t * 3
    wob = lambda th: 1 + 0.06 * np.sin(5 * th + ph) + 0.04 * np.sin(9 * th - 1.3 * ph)
    # far arm
    for side, dim, sa, ea in ((-1, 0.8, pose["sh_f"], pose["el_f"]), (1, 1.0, pose["sh_n"], pose["el_n"])):
        sh = body_c + rot(np.array([0.05 * side * u, -0.16 * u]), lean)
        e = sh + 0.22 * u * dirv(sa + lean)
        w = e + 0.2 * u * dirv(sa + lean + ea)
        arm = [item(capsule(sh, e, 0.045 * u, 0.032 * u), col * dim, shade="dome", dark=dark),
               item(capsule(e, w, 0.032 * u, 0.02 * u), col * dim, shade="dome", dark=dark)]
        d = (w - e) / np.linalg.norm(w - e)
        claws = [w + rot(d, a) * 0.07 * u for a in (-35, -10, 15, 40)]
        arm.append(lines([[w, c] for c in claws], 0.012 * u, col * dim * 0.8))
        if side == -1:
            items += arm
            items.append(item(ellipse(body_c, 0.17 * u, 0.24 * u, lean * 0.6, 48, wob), col,
                              shade="dome", dark=dark, tex="noise", tex_amp=0.25, tex_scale=2))
            items.append(item(ellipse(head, 0.11 * u, 0.1 * u, lean, 36, wob), col, shade="dome", dark=dark))
            # horns
            for s, dm in ((-1, 0.85), (1, 1.0)):
                hb = head + np.array([0.04 * s * u, -0.07 * u])
                items.append(item(ribbon(curve(hb, np.array([0.3 * s - 0.3, -1.0]), 0.14 * u,
                                               np.array([-0.4, 0.1]), K=10),
                                         np.linspace(0.022, 0.002, 10) * u), col * dm * 1.4,
                                  shade="dome", dark=dark))
            for k in (0.02, 0.065):
                items.append(item(ellipse(head + np.array([k * u, -0.005 * u]), 0.017 * u, 0.011 * u, 0, 14),
                                  spec["eyes"], shade="flat"))
        else:
            items += arm
    J = dict(head=head, u=u, gy=gy)
    return items, J


# ----------------------------------------------------------------------------- screen
def smooth_noise(rng, H, W, cell, amp):
    gh, gw = max(2, H // cell + 2), max(2, W // cell + 2)
    n = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    return cv2.resize(n, (W, H), interpolation=cv2.INTER_CUBIC) * amp


class Screen:
    def __init__(self, p, W, H, rng):
        self.p, self.W, self.H, self.rng = p, W, H, rng
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        self.xx, self.yy = xx / W, yy / H
        a = math.radians(p.get("grad_ang", 90))
        g = 1 + p.get("grad", 0.1) * ((self.xx - 0.5) * math.cos(a) + (self.yy - 0.5) * math.sin(a)) * 2
        r2 = ((self.xx - 0.5) ** 2 + (self.yy - 0.5) ** 2) / 0.5
        v = 1 - p.get("vig", 0.15) * r2
        m = 1 + smooth_noise(rng, H, W, p.get("mottle_cell", 90), p.get("mottle", 0.025))
        F = (g * v * m)[..., None] * np.array(p["col"], np.float32)
        if "hot" in p:
            hx, hy, hrad, hk = p["hot"]
            F *= (1 + hk * np.exp(-((self.xx - hx) ** 2 + (self.yy - hy) ** 2) / hrad ** 2))[..., None]
        # slight hue drift across the screen (yellower one side)
        F[..., 0] += p.get("hue_drift", 6) * (self.xx - 0.5)
        self.F = F.astype(np.float32)
        self.gain = 1.0

    def frame(self, i, t):
        p = self.p
        rng = self.rng
        self.gain = 0.6 * (self.gain - 1) + 1 + rng.normal(0, p.get("flicker", 0.01))
        bg = self.F * self.gain
        if "fabric" in p:
            fb = p["fabric"]
            sh = np.zeros_like(self.xx)
            for (lam, amp, ph0, tilt, w) in fb["folds"]:
                phase = 2 * np.pi * (self.xx / lam + tilt * (1 - self.yy) ** 2) + ph0 + w * math.sin(t * 1.3 + ph0)
                sh += amp * np.sin(phase) * (0.6 + 0.4 * self.yy)
            # sag creases hanging from the top clips
            for cxp in fb.get("clips", []):
                sh -= 0.06 * np.exp(-((self.xx - cxp) / (0.02 + 0.1 * self.yy)) ** 2) * np.exp(-self.yy / 0.25)
            bg = bg * (1 + sh)[..., None]
        gs = p.get("grain", 2.0)
        if gs:
            n = rng.normal(0, gs, (self.H, self.W, 1)).astype(np.float32)
            cn = rng.normal(0, gs * 0.5, (self.H, self.W, 3)).astype(np.float32)
            bg = bg + n + cn
        return bg


# ----------------------------------------------------------------------------- colour / encode
def rgb_to_yuv420(rgb):
    f = rgb.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255
    H, W = Y.shape
    sub = lambda c: c.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    y = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    v = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([y, u.reshape(H // 4, W), v.reshape(H // 4, W)])


class Encoder:
    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(str(path), "w", format="mp4")
        s = self.c.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = W, H, "yuv420p"
        s.options = {"crf": str(crf), "preset": "medium", "threads": "1", "x264-params": "mbtree=0"}
        s.codec_context.thread_count = 1
        self.s, self.i = s, 0

    def add(self, rgb):
        f = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        f.pts = self.i
        self.i += 1
        for pk in self.s.encode(f):
            self.c.mux(pk)

    def close(self):
        for pk in self.s.encode():
            self.c.mux(pk)
        self.c.close()


def save_npz(path, arr):
    zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=3) as z:
        with z.open(zi, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, arr, allow_pickle=False)


# ----------------------------------------------------------------------------- effects
def wrap_weight(alpha, width, style):
    if style == "dist":
        m = (alpha >= 0.5).astype(np.uint8)
        d = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        F = np.clip(1 - (d - 1) / width, 0, 1) ** 1.4
        F[alpha < 0.5] = 1.0
    else:  # blurred inverse matte, normalised so a straight edge gets ~1 at its rim
        F = np.clip(2.1 * cv2.GaussianBlur(1 - alpha, (0, 0), width / 2.2), 0, 1)
    return F.astype(np.float32)


def glint_layer(H, W, pts, level, rng_phase):
    G = np.zeros((H, W), np.float32)
    for (x, y), lv in zip(pts, level):
        if lv <= 0.02:
            continue
        img = np.zeros((H, W), np.float32)
        L = 14 * lv + 4
        for ang, ln in ((0, L), (90, L), (45, L * 0.45), (135, L * 0.45)):
            d = dirv(ang + 90 + rng_phase)
            p0 = (int(round((x - d[0] * ln) * 8)), int(round((y - d[1] * ln) * 8)))
            p1 = (int(round((x + d[0] * ln) * 8)), int(round((y + d[1] * ln) * 8)))
            cv2.line(img, p0, p1, 1.0, 1, cv2.LINE_AA, 3)
        img = cv2.GaussianBlur(img, (0, 0), 0.6)
        yy, xx = np.mgrid[0:H, 0:W]
        rr = np.hypot(xx - x, yy - y).astype(np.float32)
        img *= np.exp(-rr / (L * 0.45))
        img += np.exp(-(rr / 1.3) ** 2)
        G += img * lv
    return G


# ----------------------------------------------------------------------------- pipeline
def case_rng(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def build_items(cfg, t):
    ch = cfg["char"]
    pose = cfg["pose"](t)
    Hc, cx, gy = cfg["Hc"], cfg["cx"], cfg["gy"]
    items, J = ch["builder"](ch, pose, t, Hc, cx, gy)
    g = cfg.get("xform")
    if g is not None:
        fn = g(t, J)
        transform(items, fn)
        J["glints"] = [fn(np.asarray(p)[None])[0] for p in J.get("glints", [])]
        if "crystal" in J:
            J["crystal"] = fn(np.asarray(J["crystal"])[None])[0]
    return items, J


def render_frame(cfg, t, fps, boil):
    W, H, S = cfg["W"], cfg["H"], cfg["S"]
    shutter = cfg.get("shutter", 0.0)
    if shutter <= 0:
        items, J = build_items(cfg, t)
        prem, a = render(items, W, H, S, boil)
        return prem, a, J
    h = shutter / fps / 2
    ia, _ = build_items(cfg, t - h)
    ib, _ = build_items(cfg, t + h)
    try:
        d = max(float(np.abs(pa - pb).max()) for x, y in zip(ia, ib) for pa, pb in zip(x["pts"], y["pts"]))
    except ValueError:
        d = 8.0
    K = 1 if d < 3.0 else int(np.clip(math.ceil(d / 2.0), 2, cfg.get("kmax", 64)))
    if K == 1:
        items, J = build_items(cfg, t)
        prem, a = render(items, W, H, S, boil)
        return prem, a, J
    prem = np.zeros((H, W, 3), np.float32)
    a = np.zeros((H, W), np.float32)
    for k in range(K):
        tk = t - h + (k + 0.5) * 2 * h / K
        items, J = build_items(cfg, tk)
        p_, a_ = render(items, W, H, S if K < 4 else 2, boil)  # blur hides the coarser coverage
        prem += p_
        a += a_
    _, J = build_items(cfg, t)
    return prem / K, a / K, J


def to_rgba8(prem, a):
    rgba = np.zeros(a.shape + (4,), np.uint8)
    A = np.clip(np.round(a * 255), 0, 255)
    nz = A > 0
    rgb = np.zeros_like(prem)
    rgb[nz] = prem[nz] / np.maximum(a[nz], 1e-6)[:, None]
    rgba[..., :3] = np.clip(np.round(rgb), 0, 255).astype(np.uint8) * nz[..., None]
    rgba[..., 3] = A.astype(np.uint8)
    return rgba


def trim_rgba(rgba, margin=4):
    ys, xs = np.nonzero(rgba[..., 3])
    y0, y1 = max(0, ys.min() - margin), min(rgba.shape[0], ys.max() + margin + 1)
    x0, x1 = max(0, xs.min() - margin), min(rgba.shape[1], xs.max() + margin + 1)
    return rgba[y0:y1, x0:x1]


def run_case(cfg):
    if isinstance(cfg, str):
        cfg = next(c for c in cases() if c["name"] == cfg)
    name = cfg["name"] + ("_clean" if CLEAN else "")
    t0 = time.time()
    rng = case_rng(cfg["name"])
    W, H, fps, n = cfg["W"], cfg["H"], cfg["fps"], cfg["n"]
    out = OUT / name
    out.mkdir(parents=True, exist_ok=True)
    screen = Screen(cfg["screen"], W, H, rng)
    # portrait: the rest pose as drawn (no boil, no blur)
    if cfg.get("portrait_scale"):
        k = cfg["portrait_scale"]
        pc = dict(cfg, W=W * k, H=H * k, Hc=cfg["Hc"] * k, cx=cfg["cx"] * k, gy=cfg["gy"] * k,
                  S=max(2, cfg["S"] - 1), xform=None)
        items, _ = build_items(pc, 0.0)
        pr, pa = render(items, pc["W"], pc["H"], pc["S"])
        portrait = trim_rgba(to_rgba8(pr, pa))
    else:
        items, _ = build_items(cfg, 0.0)
        pr, pa = render(items, W, H, cfg["S"])
        portrait = to_rgba8(pr, pa)
    Image.fromarray(portrait, "RGBA").save(out / "portrait.png", optimize=False, compress_level=6)
    truth = np.zeros((n, H, W, 4), np.uint8)
    enc = Encoder(out / "clip.mp4", W, H, fps, cfg["crf"])
    c0 = np.array(cfg.get("canvas0", (0, 255, 0)), np.float32)
    wrap = cfg.get("wrap", (4, 0.3, "blur"))
    prev_clean = None
    prev_out = None
    settle = cfg.get("settle", 3)
    glint_sched = cfg.get("glints")
    for i in range(n):
        t = i / fps
        boil = None
        if cfg.get("boil") and i > 0 and not CLEAN:
            amp = cfg["boil"]
            boil = (smooth_noise(rng, H, W, cfg.get("boil_cell", 9), amp),
                    smooth_noise(rng, H, W, cfg.get("boil_cell", 9), amp))
        if i == 0:
            items, J = build_items(cfg, 0.0)
            prem, a = render(items, W, H, cfg["S"])
        else:
            prem, a, J = render_frame(cfg, t, fps, boil)
        rgba = to_rgba8(prem, a)
        A = rgba[..., 3].astype(np.float32) / 255
        rgb = rgba[..., :3].astype(np.float32)
        G = None
        if glint_sched and i > 0 and not CLEAN:
            lv = [glint_sched(i, k) for k in range(len(J.get("glints", [])))]
            if any(l > 0.02 for l in lv):
                G = glint_layer(H, W, J["glints"], lv, 10 * i) * 235
                core = (A >= 0.99).astype(np.float32)
                warm = np.array([1.0, 0.97, 0.85], np.float32)
                rgb = np.clip(rgb + (G * core)[..., None] * warm, 0, 255)
                rgba[..., :3] = np.round(rgb).astype(np.uint8) * (rgba[..., 3:] > 0)
                rgb = rgba[..., :3].astype(np.float32)
        truth[i] = rgba
        if CLEAN:
            bg = np.broadcast_to(np.array(cfg["screen"]["col"], np.float32), (H, W, 3))
            comp = rgb * A[..., None] + bg * (1 - A[..., None])
            enc.add(np.clip(np.round(comp), 0, 255).astype(np.uint8))
            continue
        e = 1.0 if settle == 0 else min(1.0, i / settle)
        model_bg = screen.frame(i, t)
        if cfg.get("contact", 0) and e > 0:
            cs = contact_shadow(A, cfg, H, W)
            model_bg = model_bg * (1 - e * cs)[..., None]
        if cfg.get("wall_shadow") and e > 0:
            dx, dy, sig, k = cfg["wall_shadow"]
            M = np.array([[1.04, 0, dx], [0, 1.02, dy]], np.float32)
            sh = cv2.warpAffine(A, M, (W, H))
            sh = cv2.GaussianBlur(sh, (0, 0), sig) * k
            model_bg = model_bg * (1 - e * sh)[..., None]
        bg = c0 + (model_bg - c0) * e if e < 1 else model_bg
        if i == 0:
            bg = c0 + rng.normal(0, 0.8, (H, W, 1)).astype(np.float32)
        width, strength, style = wrap
        if e > 0 and strength > 0:
            Fw = wrap_weight(A, width, style) * strength * e
            bgb = cv2.GaussianBlur(bg, (0, 0), max(2.0, width))
            col = rgb + (bgb - rgb) * Fw[..., None]
        else:
            col = rgb
        comp = col * A[..., None] + bg * (1 - A[..., None])
        if G is not None:
            comp = comp + (G * (1 - (A >= 0.99)))[..., None] * np.array([1.0, 0.97, 0.85], np.float32)
        clean = comp
        if cfg.get("ghost") and prev_clean is not None:
            g = cfg["ghost"]
            comp = (1 - g) * comp + g * prev_clean
        if cfg.get("denoise") and prev_out is not None:
            k, sig = cfg["denoise"]
            lum = lambda x: x[..., 0] * 0.299 + x[..., 1] * 0.587 + x[..., 2] * 0.114
            d = cv2.blur(np.abs(lum(comp) - lum(prev_out)), (3, 3))
            w = (k * np.exp(-(d / sig) ** 2))[..., None]
            comp = comp + w * (prev_out - comp)
        prev_clean = clean
        prev_out = comp
        enc.add(np.clip(np.round(comp), 0, 255).astype(np.uint8))
    enc.close()
    save_npz(out / "truth.npz", truth)
    meta = {"action": cfg["action"], "expect_flags": cfg["expect"], "trial": 41,
            "models": cfg["about"], "size": [W, H], "fps": fps, "frames": n, "crf": cfg["crf"],
            "wrap": {"width_px": wrap[0], "strength": wrap[1], "style": wrap[2]}}
    if CLEAN:
        meta["models"] = "control: the rounded truth composited exactly over a flat screen"
    (out / "case.json").write_text(json.dumps(meta, indent=1) + "\n")
    return name, time.time() - t0


def contact_shadow(A, cfg, H, W):
    rows = np.nonzero(A.max(1) > 0.5)[0]
    if len(rows) == 0:
        return np.zeros((H, W), np.float32)
    yb = min(rows.max(), cfg["gy"] + 2) if cfg.get("float_shadow") is None else cfg["gy"]
    band = A[max(0, yb - int(cfg["Hc"] * 0.05)):yb + 1]
    cols = np.nonzero(band.max(0) > 0.5)[0]
    if len(cols) == 0:
        cols = np.nonzero(A.max(0) > 0.5)[0]
    x0, x1 = cols.min(), cols.max()
    cxs, rx = (x0 + x1) / 2, max(10.0, (x1 - x0) / 2 + cfg["Hc"] * 0.06)
    ry = rx * 0.16
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    return (cfg["contact"] * np.exp(-((xx - cxs) / rx) ** 2 - ((yy - yb - ry * 0.3) / ry) ** 2)).astype(np.float32)


# ----------------------------------------------------------------------------- cases
def turn_xform(t0, t1):
    def g(t, J):
        s = math.cos(np.pi * ss(t0, t1, t))
        cx = J["pel"][0]
        def fn(p):
            q = np.array(p, float, copy=True)
            q[:, 0] = cx + s * (q[:, 0] - cx) if abs(s) > 0.08 else cx + math.copysign(0.08, s if s else -1) * (q[:, 0] - cx)
            return q
        return fn
    return g


def reframe_xform(cx, gy, s1, dx1, dy1, t0, t1):
    def g(t, J):
        w = ss(t0, t1, t)
        s = 1 + (s1 - 1) * w
        def fn(p):
            q = np.array(p, float, copy=True)
            q[:, 0] = cx + s * (q[:, 0] - cx) + dx1 * w
            q[:, 1] = gy + s * (q[:, 1] - gy) + dy1 * w
            return q
        return fn
    return g


def drift_xform(vx, vy):
    def g(t, J):
        def fn(p):
            q = np.array(p, float, copy=True)
            q[:, 0] += vx * t
            q[:, 1] += vy * t
            return q
        return fn
    return g


def HUM(**kw):
    d = dict(builder=humanoid)
    d.update(kw)
    return d


def cases():
    C = []
    green = (38, 188, 62)
    # 1 boiling edges on a shaded knight
    C.append(dict(
        name="boil_knight_walk", W=448, H=448, fps=24, n=56, action="walk", crf=20, S=4,
        Hc=300, cx=224, gy=390, pose=lambda t: pose_walk(t),
        char=HUM(skin=(225, 180, 150), shirt=(150, 155, 165), sleeve=(150, 155, 165),
                 fore=(140, 145, 155), glove=(90, 70, 55), pants=(120, 124, 132),
                 boots=(80, 70, 60), hair_style="helmet", metal=(175, 180, 190), metal_spec=0.6,
                 plume=(190, 30, 35), shirt_spec=0.4, arm_spec=0.4, boot_spec=0.2,
                 torso=[tabard((20, 120, 120), trim=(210, 180, 70))],
                 back=[cape((30, 95, 100), L=0.5, tex="weave")], near_hand=[sword()]),
        screen=dict(col=green, grad=0.12, grad_ang=70, vig=0.2, grain=2.0, flicker=0.012),
        wrap=(4, 0.30, "blur"), contact=0.3, boil=0.75, shutter=0.5,
        expect=[], about="diffusion 'boiling': the whole drawing (edges, plume, cape, teal tabard) "
        "wobbles by a fresh smooth ~0.75 px field every frame, in the truth too; 4 px / 30 % wrap"))
    # 2 boiling ink imp, trident swing
    C.append(dict(
        name="boil_ink_imp_attack", W=512, H=512, fps=24, n=39, action="attack", crf=21, S=4,
        Hc=300, cx=262, gy=440, pose=lambda t: pose_attack(t),
        char=HUM(skin=(120, 150, 60), shirt=(90, 60, 100), pants=(70, 50, 80), boots=(50, 35, 30),
                 fore=(120, 150, 60), hair_style="bald", ears=(120, 150, 60), head=1.25,
                 style="cel", ink=1.4, ink_col=(20, 16, 20), eye=(250, 220, 40),
                 back=[tail((110, 140, 55), L=0.38)], near_hand=[trident()]),
        screen=dict(col=(30, 196, 70), grad=0.1, grad_ang=200, vig=0.18, grain=2.2, flicker=0.01),
        wrap=(3, 0.28, "blur"), contact=0.32, boil=0.9, boil_cell=7, shutter=0.5,
        expect=[], about="cel imp with olive-green skin and 1.4 px ink whose lines boil (~0.9 px "
        "fresh field per frame); a trident swung in ~2 frames, blurred over a 180-degree shutter"))
    # 3 gaps with wrap on both sides
    C.append(dict(
        name="gaps_ringblade_skill", W=640, H=640, fps=24, n=39, action="skill", crf=19, S=3,
        Hc=420, cx=320, gy=580,
        pose=lambda t: _gap_pose(t),
        char=HUM(skin=(205, 150, 110), shirt=(150, 40, 60), pants=(60, 45, 80), boots=(90, 60, 40),
                 hair=(30, 25, 30), hair_style="ponytail", belt=(200, 170, 60),
                 far_hand=[chakram()], tex={"shirt": "weave", "pants": "weave"}),
        screen=dict(col=(34, 182, 58), grad=0.14, grad_ang=100, vig=0.22, grain=2.0, flicker=0.01,
                    hot=(0.35, 0.3, 0.35, 0.12)),
        wrap=(5, 0.32, "dist"), contact=0.3, shutter=0.5,
        expect=[], about="holes the screen shows through, each wrapped from both sides: a hand on "
        "the hip (arm-body gap 4-8 px), a wide stance, a spinning spiked chakram's hole; "
        "5 px / 32 % wrap by distance (full strength in gaps)"))
    # 4 clumped hair with gaps, green shirt, run
    C.append(dict(
        name="hair_clumps_greenshirt_run", W=640, H=640, fps=24, n=56, action="run", crf=21, S=3,
        Hc=390, cx=330, gy=575, pose=lambda t: pose_run(t),
        char=HUM(skin=(235, 195, 165), shirt=(46, 128, 62), sleeve=(46, 128, 62), pants=(60, 60, 90),
                 boots=(70, 45, 30), hair=(120, 50, 30), hair_style="clumps", clumps=9,
                 hair_flow=1.3, hair_speed=9.0, tex={"shirt": "weave", "hair": "brush"},
                 front=[scarf((200, 180, 60))]),
        screen=dict(col=green, grad=0.1, grad_ang=80, vig=0.2, grain=2.5, flicker=0.015),
        wrap=(6, 0.35, "blur"), contact=0.3, shutter=0.5,
        expect=[], about="a runner in a green knit shirt under a 6 px / 35 % wrap; long auburn "
        "hair in 9 tapered clumps streaming back with 1-3 px gaps of screen between them; "
        "blurred legs and arms"))
    # 5 fabric backdrop, 16 fps idle monk
    C.append(dict(
        name="fabric_folds_monk_idle", W=512, H=512, fps=16, n=40, action="idle", crf=22, S=4,
        Hc=330, cx=256, gy=450, pose=lambda t: pose_idle(t, 1.5),
        char=HUM(skin=(200, 150, 110), shirt=(225, 120, 30), robe=(225, 120, 30),
                 robe_dark=(140, 55, 20), pants=(200, 100, 30), boots=(100, 70, 45),
                 hair_style="bald", tex={"robe": "weave", "shirt": "weave"}, robe_sway=0.03,
                 near_hand=[staff()], belt=(120, 40, 30)),
        screen=dict(col=(40, 178, 72), grad=0.16, grad_ang=20, vig=0.25, grain=1.8, flicker=0.01,
                    hot=(0.25, 0.2, 0.3, 0.15),
                    fabric=dict(folds=[(0.23, 0.06, 0.3, 0.15, 0.4), (0.11, 0.035, 1.7, -0.1, 0.6),
                                       (0.057, 0.02, 2.2, 0.05, 0.8), (0.37, 0.05, 4.0, 0.3, 0.3)],
                                clips=[0.1, 0.5, 0.9])),
        wrap=(4, 0.26, "blur"), contact=0.28,
        expect=[], about="a hung green cloth whose folds sway in a draught (fold shading +-15 %, "
        "changing every frame), sag creases from three clips, hot spot top left; 16 fps; orange "
        "robed monk breathing with a staff"))
    # 6 wall shadow brawler, 1280x720
    C.append(dict(
        name="wall_shadow_brawler_attack", W=1280, H=720, fps=24, n=39, action="attack", crf=20, S=3,
        Hc=440, cx=600, gy=640, pose=lambda t: pose_punch(t),
        char=HUM(skin=(190, 130, 95), shirt=(170, 40, 35), sleeve=(190, 130, 95), pants=(40, 60, 120),
                 boots=(40, 35, 35), glove=(235, 230, 215), hair_style="bald", bulk=1.35,
                 head=0.95, tex={"pants": "weave"}, belt=(30, 30, 30)),
        screen=dict(col=(36, 190, 66), grad=0.1, grad_ang=0, vig=0.22, grain=2.0, flicker=0.01),
        wrap=(4, 0.28, "blur"), contact=0.35, shutter=0.5, wall_shadow=(70, -28, 7, 0.45),
        expect=[], about="the character's own shadow cast on the back wall (offset 70 px right, "
        "28 up, 7 px blur, 45 % darker), moving with the punches, kept out of the truth; "
        "a jab and a blurred cross at 1280x720"))
    # 7 grey-green screen rogue
    C.append(dict(
        name="greygreen_screen_rogue_walk", W=640, H=640, fps=24, n=73, action="walk", crf=21, S=3,
        Hc=400, cx=320, gy=575, pose=lambda t: pose_walk(t, 1.05),
        char=HUM(skin=(230, 200, 180), shirt=(70, 70, 76), sleeve=(70, 70, 76), pants=(80, 60, 45),
                 boots=(45, 38, 34), hair=(25, 22, 22), hair_style="hood", hood=(80, 82, 88),
                 tex={"shirt": "noise", "hood": "weave"}, belt=(110, 75, 45),
                 front=[scarf((150, 30, 35), L=0.35)],
                 near_hand=[sword(col=(180, 185, 190), L=0.22, off=0, spec_=0.5)]),
        screen=dict(col=(96, 150, 100), grad=0.1, grad_ang=120, vig=0.18, grain=2.4, flicker=0.012,
                    hue_drift=4),
        wrap=(4, 0.3, "blur"), contact=0.3,
        expect=[], about="a washed-out grey-green screen (96, 150, 100: excess ~50, not a chroma "
        "green) under a hooded rogue in charcoal and grey with a steel dagger and red scarf"))
    # 8 temporal denoise (SMEAR decoy)
    C.append(dict(
        name="denoise_smear_mage_skill", W=448, H=448, fps=24, n=56, action="skill", crf=20, S=4,
        Hc=270, cx=215, gy=425, pose=lambda t: pose_skill(t),
        char=HUM(skin=(235, 205, 185), shirt=(70, 60, 140), robe=(70, 60, 140), robe_dark=(30, 25, 70),
                 pants=(60, 50, 120), boots=(50, 40, 60), hair=(220, 220, 230), hair_style="strands",
                 strands=36, strand_w=0.55, tex={"robe": "noise"},
                 back=[cape((40, 110, 90), L=0.62, tex="weave", flow=0.3, speed=2.5)],
                 near_hand=[staff(crystal=(120, 230, 250), L=0.6)]),
        screen=dict(col=green, grad=0.12, grad_ang=60, vig=0.2, grain=3.0, flicker=0.006),
        wrap=(4, 0.3, "blur"), contact=0.28, denoise=(0.7, 9.0),
        expect=[], about="a model's temporal denoise: every pixel keeps up to 70 % of the "
        "previous output where the two differ by less than ~9 levels (grain, slow cape and robe "
        "shading, wrap), none where the character moves; a SMEAR decoy"))
    # 9 reframed, portrait at another scale
    C.append(dict(
        name="reframed_portrait_archer_idle", W=480, H=832, fps=24, n=56, action="idle", crf=20, S=3,
        Hc=560, cx=230, gy=760, pose=lambda t: mix(pose_idle(t, 1.6), dict(sh_n=32, el_n=18), ss(0, 0.01, t + 1)),
        char=HUM(skin=(225, 185, 150), shirt=(50, 105, 50), sleeve=(50, 105, 50), pants=(90, 70, 45),
                 boots=(70, 50, 35), hair=(200, 160, 90), hair_style="hood", hood=(40, 95, 45),
                 tex={"shirt": "weave", "hood": "noise"}, belt=(100, 70, 40),
                 back=[quiver()], front=[lambda J: bow()(J, 1.0)]),
        portrait_scale=2,
        xform=reframe_xform(230, 760, 0.82, 16, -30, 1 / 24, 9 / 24),
        screen=dict(col=(42, 186, 70), grad=0.12, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.3,
        expect=[], about="the user's portrait is trimmed and twice the clip's scale; the model "
        "reframes from frame 1 (zooms out to 82 %, shifts 12 px right, 30 px up over 8 frames); "
        "a green-hooded archer with a bow (1 px string) and quiver"))
    # 10 shadow creature hurt
    C.append(dict(
        name="shadow_creature_hurt", W=448, H=448, fps=24, n=39, action="hurt", crf=20, S=4,
        Hc=330, cx=224, gy=420, pose=lambda t: pose_hurt(t),
        char=dict(builder=shadow_creature, col=(26, 22, 34), dark=(8, 7, 12), eyes=(190, 90, 255)),
        screen=dict(col=green, grad=0.1, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(5, 0.35, "blur"), contact=0.3, shutter=0.5,
        expect=[], about="a near-black shade (26, 22, 34) with violet eyes and claws of 1 px under a "
        "5 px / 35 % wrap; seven soft smoke tendrils at 72 % opacity kept in the truth; "
        "knocked back"))
    # 11 snow spirit skill
    C.append(dict(
        name="snow_spirit_white_robe_skill", W=512, H=512, fps=24, n=56, action="skill", crf=21, S=4,
        Hc=315, cx=245, gy=472, pose=lambda t: pose_skill(t),
        char=HUM(skin=(245, 240, 245), shirt=(244, 246, 252), sleeve=(244, 246, 252),
                 fore=(240, 238, 245), robe=(246, 248, 253), robe_dark=(180, 195, 225),
                 pants=(235, 238, 248), boots=(210, 220, 240), hair=(250, 250, 255),
                 hair_style="strands", strands=40, strand_w=0.6, eye=(80, 140, 220),
                 dark=(165, 182, 218), tex={"robe": "noise"},
                 near_hand=[staff(col=(200, 220, 240), crystal=(200, 240, 255), L=0.6)]),
        screen=dict(col=(34, 186, 64), grad=0.1, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.28,
        expect=[], about="a ghost-white snow spirit (robes 244-253, pale-blue shade) with 40 white "
        "strands and an ice staff under a 4 px / 30 % wrap: white edges turn mint, as a light "
        "outline would"))
    # 12 glints paladin
    C.append(dict(
        name="glint_paladin_hammer_attack", W=640, H=640, fps=24, n=39, action="attack", crf=20, S=3,
        Hc=420, cx=300, gy=585, pose=lambda t: pose_attack(t, 0.34, 0.44),
        char=HUM(skin=(225, 180, 150), shirt=(205, 175, 80), sleeve=(190, 190, 200), fore=(190, 190, 200),
                 pants=(170, 170, 182), boots=(150, 150, 160), glove=(150, 150, 160),
                 hair_style="helmet", metal=(200, 200, 210), metal_spec=0.8, shirt_spec=0.7,
                 arm_spec=0.6, boot_spec=0.5, torso=[pauldron((215, 185, 90))],
                 back=[cape((240, 240, 235), L=0.55, tex="noise")], near_hand=[hammer()]),
        screen=dict(col=green, grad=0.1, grad_ang=110, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.3, shutter=0.5,
        glints=lambda i, k: sum(max(0.0, 1 - abs(i - f) / 2.5) for f in ((8, 27), (14, 33), (20, 36))[k % 3]),
        expect=[], about="polished gold and steel with specular highlights; star glints flash on the "
        "pauldron and hammer (core in the truth, 4-point rays up to 12 px over the screen not); "
        "hammer blurred"))
    # 13 mixed styles
    C.append(dict(
        name="mixed_styles_bard_walk", W=1280, H=720, fps=16, n=48, action="walk", crf=22, S=3,
        Hc=450, cx=640, gy=650, pose=lambda t: pose_walk(t, 1.1),
        char=HUM(skin=(240, 200, 170), shirt=(60, 140, 150), sleeve=(60, 140, 150), pants=(130, 60, 40),
                 boots=(60, 40, 30), hair=(240, 190, 60), hair_style="cap", style="cel", ink=1.6,
                 back=[cape((150, 40, 120), dark=(70, 20, 70), L=0.6, tex="brush", soft=1.2, op=1.0)],
                 front=[lambda J: [sprite(lute_sprite(), J["An"][2] + np.array([0.01, -0.05]) * J["u"],
                                          rot(np.array([0.017, 0.0]), -35) * J["u"])]]),
        screen=dict(col=(40, 190, 60), grad=0.08, grad_ang=0, vig=0.25, grain=2.0, flicker=0.01),
        wrap=(5, 0.3, "blur"), contact=0.3,
        expect=[], about="mixed styles in one figure: a cel body with 1.6 px ink in teal, a painterly "
        "brushed cape whose edge fades over ~2 px (kept in the truth), a pixel-art lute at x7.7 "
        "nearest-neighbour; 16 fps, 1280x720"))
    # 14 QC: a turn that lasts
    C.append(dict(
        name="qc_turn_run_FACING", W=512, H=512, fps=24, n=73, action="run", crf=21, S=4,
        Hc=320, cx=256, gy=460, pose=lambda t: pose_run(t, 0.66),
        char=HUM(skin=(235, 200, 170), shirt=(200, 120, 40), pants=(60, 70, 110), boots=(70, 45, 30),
                 hair=(230, 110, 40), hair_style="ponytail", ears=(230, 110, 40),
                 back=[backpack()], near_hand=[sword(L=0.3)]),
        xform=turn_xform(27 / 24, 33 / 24),
        screen=dict(col=green, grad=0.1, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.3, shutter=0.5,
        expect=["FACING"], about="a fox-eared runner with a backpack and a sword turns round over "
        "frames 27-33 and runs the other way to the end (40 frames, 1.7 s)"))
    # 15 QC decoy: banner flips sides, body does not turn
    C.append(dict(
        name="qc_banner_wind_idle_none", W=448, H=448, fps=24, n=56, action="idle", crf=20, S=4,
        Hc=280, cx=230, gy=410, pose=lambda t: mix(pose_idle(t), dict(sh_n=30, el_n=80), 1.0),
        char=HUM(skin=(215, 170, 140), shirt=(60, 70, 130), pants=(90, 80, 70), boots=(60, 45, 35),
                 hair=(50, 35, 25), hair_style="cap", flip_t0=0.9, flip_t1=1.35, belt=(140, 100, 50),
                 near_hand=[banner()]),
        screen=dict(col=green, grad=0.1, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.3,
        expect=[], about="a standard-bearer who does not turn: the wind swings his big red banner "
        "from behind him to in front of him (frames 22-32) and it stays there"))
    # 16 QC: ghost
    C.append(dict(
        name="qc_ghost_lizard_walk_SMEAR", W=640, H=640, fps=24, n=56, action="walk", crf=20, S=3,
        Hc=400, cx=330, gy=580, pose=lambda t: pose_walk(t, 0.95, amp=24, arm=24),
        char=HUM(skin=(40, 150, 140), fore=(40, 150, 140), shirt=(140, 90, 50), sleeve=(40, 150, 140),
                 pants=(110, 80, 50), boots=(40, 150, 140), hair_style="bald", head=1.1,
                 tex={"shirt": "weave", "sleeve": "scale", "fore": "scale"},
                 back=[tail((40, 150, 140), dark=(15, 70, 70), L=0.55)], near_hand=[sword(L=0.3)]),
        screen=dict(col=green, grad=0.1, grad_ang=90, vig=0.2, grain=2.0, flicker=0.01),
        wrap=(4, 0.3, "blur"), contact=0.3, ghost=0.3,
        expect=["SMEAR"], about="a teal-skinned lizardman's walk with a 30 % ghost of the previous "
        "frame (as rendered, screen included) in every frame; truth without the ghost"))
    return C


def _gap_pose(t):
    p = pose_skill(t)
    # near hand stays on the hip (arm bent out: a gap between arm and body), wide stance
    q = dict(p)
    q.update(sh_n=-85 + 4 * math.sin(t * 4), el_n=100, hip_n=24, hip_f=-22, kn_n=8, kn_f=6)
    w = ss(0.0, 0.25, t)
    out = mix(p, q, w)
    out["wpn"] = 30 * t
    return out


def main(argv):
    names = [a for a in argv if not a.startswith("-")]
    todo = [c for c in cases() if not names or any(n in c["name"] for n in names)]
    if not todo:
        print("no case matches", " ".join(names))
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    order = sorted(todo, key=lambda c: -c["W"] * c["H"] * c["n"])
    jobs = int(os.environ.get("T41_JOBS", "2"))
    if jobs > 1 and len(order) > 1:
        with mp.get_context("fork").Pool(jobs) as pool:
            for name, dt in pool.imap_unordered(run_case, [c["name"] for c in order]):
                print(f"{name:40s} {dt:6.1f} s", flush=True)
    else:
        for c in order:
            name, dt = run_case(c)
            print(f"{name:40s} {dt:6.1f} s", flush=True)
    print(f"{len(todo)} cases in {time.time() - t0:.1f} s -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
