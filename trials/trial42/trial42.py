#!/usr/bin/env python3
"""Trial 42: held-out clips for h3sprite, drawn the way H3 (and video models like it)
render a game character on a green screen, with the true straight RGBA of every frame.

    .venv/bin/python trials/trial42/trial42.py [NAME ...]  # all 16 cases, or those whose
                                                          # names contain a NAME
    TRIAL_OUT=DIR   case folders go to DIR/<case>/ (default: trials/_out/trial42/)
    T42_CLEAN=1     every case as a control: the truth composited exactly over a flat
                    screen (no wrap, rim, shadow, noise, flicker, key change)
    T42_JOBS=N      worker processes (default 2)
    T42_PREVIEW=1   also write OUT/_prev_<case>.png (5 clip frames over 5 truth frames on magenta)

Each case folder: clip.mp4 (H.264 yuv420p, BT.601 limited range, untagged, one x264
thread, mbtree=0, our own RGB->4:2:0 conversion), portrait.png (the unspilled RGBA rest
pose = truth frame 0), truth.npz (`rgba`, uint8 (N,H,W,4), fixed zip timestamps) and
case.json (action, expect_flags, and what the clip models).

Characters are jointed 2-D rigs whose parts are polygons filled at SSx and box-filtered
down (coverage alpha), painted flat, cel (two tones + ink), shaded (dome + ambient
occlusion), painterly (texture + ragged edge) or pixel art (drawn at 1/k and scaled up
nearest-neighbour); fast frames are averaged from sub-frame renders (premultiplied), and
the average is the truth. The footage adds what the truth lacks: the model's screen
(gradient, vignette, fresh noise, flicker, a key colour settling in from the user's flat
canvas over frames 1-3), light wrap into opaque pixels near the silhouette, soft contact
shadows, in one case a pale green-tinted outline the model draws (none of these in the
truth). Colour drift, hit flashes and see-through magic ARE in the truth (case.json says).

The cases (24 fps, H3 sizes and 17k+5 frame counts; frame 0 = the portrait over the user's
flat (0,255,0) canvas): a cel knight whose colours random-walk frame to frame; a rogue in
near-black and teal whose screen is re-rendered bluer mid-clip; a wizard casting see-through
violet ribbons and an orb (kept in the truth); a spear that leaves the frame for 5-6 frames
(no CROPPED) and a greatsword held out of the top while charging (CROPPED); a priestess
given back as a still illustration with only colour drift (STATIC); a chibi mascot with a
pale green-tinted outline; a mech with hard white specular edges; a fox (quadruped); an
adventurer with a separate owl companion; a dancer with a turning hoop and a small ring
(holes); a pixel-art goblin's hurt with a hit flash; an elf archer in a green tunic under
a 6 px / 35 % wrap with a 0.6 px string; a tentacled eye monster; a flat control; a
paladin with a torn cape who barely moves for 14 frames.
"""
from __future__ import annotations

import io
import json
import math
import os
import sys
import time
import zipfile
from multiprocessing import Pool

import av
import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("TRIAL_OUT") or os.path.join(os.path.dirname(HERE), "_out", "trial42")
CLEAN = os.environ.get("T42_CLEAN") == "1"
FPS = 24
LIGHT = np.array([-0.55, -0.835])  # toward the light: top left
LIGHT = LIGHT / np.linalg.norm(LIGHT)

cv2.setNumThreads(1)

# ----------------------------------------------------------------------------- geometry


def V(x, y):
    return np.array([x, y], dtype=np.float64)


def dirv(deg):
    """Unit vector at `deg` from straight down, positive swinging toward +x."""
    r = math.radians(deg)
    return V(math.sin(r), math.cos(r))


def perp(d):
    return V(-d[1], d[0])


def ellipse_pts(c, rx, ry, ang=0.0, n=56, a0=0.0, a1=360.0):
    t = np.radians(np.linspace(a0, a1, n, endpoint=(a1 - a0) < 360))
    x, y = rx * np.cos(t), ry * np.sin(t)
    ca, sa = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    return np.stack([c[0] + x * ca - y * sa, c[1] + x * sa + y * ca], 1)


def capsule_pts(p0, p1, r0, r1, n=9):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    L = float(np.hypot(*d))
    if L < 1e-6:
        return ellipse_pts(p0, max(r0, r1), max(r0, r1))
    d = d / L
    base = math.atan2(d[1], d[0])
    pts = []
    for a in np.linspace(-math.pi / 2, math.pi / 2, n):
        pts.append(p1 + r1 * V(math.cos(base + a), math.sin(base + a)))
    for a in np.linspace(math.pi / 2, 3 * math.pi / 2, n):
        pts.append(p0 + r0 * V(math.cos(base + a), math.sin(base + a)))
    return np.array(pts)


def strip_pts(pts, widths):
    """Polygon of a polyline with a width (output px) per point; a point-width tip."""
    pts = np.asarray(pts, float)
    widths = np.broadcast_to(np.asarray(widths, float), (len(pts),))
    d = np.gradient(pts, axis=0)
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    n = np.stack([-d[:, 1], d[:, 0]], 1)
    left = pts + n * (widths[:, None] / 2)
    right = pts - n * (widths[:, None] / 2)
    return np.concatenate([left, right[::-1]], 0)


def bezier(p0, p1, p2, n=16):
    t = np.linspace(0, 1, n)[:, None]
    return (1 - t) ** 2 * p0 + 2 * (1 - t) * t * p1 + t ** 2 * p2


def box_pts(c, w, h, ang=0.0, bevel=0.0):
    """A rotated rectangle (w across, h along the angle's 'down' axis), corners bevelled."""
    d = dirv(ang)
    n = perp(d)
    hw, hh = w / 2, h / 2
    b = min(bevel, hw * 0.9, hh * 0.9)
    loc = [(-hw + b, -hh), (hw - b, -hh), (hw, -hh + b), (hw, hh - b), (hw - b, hh),
           (-hw + b, hh), (-hw, hh - b), (-hw, -hh + b)]
    return np.array([c + x * n + y * d for x, y in loc])


def lerp(a, b, t):
    return a + (b - a) * t


def ease(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def keys(t, ks):
    """Smoothly eased piecewise interpolation through (time, value) keys."""
    if t <= ks[0][0]:
        return ks[0][1]
    for (t0, v0), (t1, v1) in zip(ks, ks[1:]):
        if t <= t1:
            return v0 + (v1 - v0) * ease((t - t0) / max(t1 - t0, 1e-9))
    return ks[-1][1]


# ----------------------------------------------------------------------------- paint ops


def part(contour, col, style="flat", c=None, R=None, alpha=1.0, ink=None, tex=0.0,
         ragged=0.0, spec=None, holes=(), ao=0.0, alpha_fn=None, light=1.0):
    """One filled part.  contour: (N,2) output px or a list of them (union).  col: RGB.
    style: flat | dome | cel | soft.  c, R: centre and radius for shading.  ink: (rgb,
    width px) outline drawn inside the part's edge.  tex: texture amplitude.  ragged:
    px of brushed edge.  spec: (width px, strength) hard white highlight on the edge
    facing the light.  holes: contours cut out.  alpha_fn(xs, ys) -> alpha field."""
    cs = contour if isinstance(contour, list) else [contour]
    cs = [np.asarray(q, float) for q in cs]
    allp = np.concatenate(cs, 0)
    if c is None:
        c = allp.mean(0)
    if R is None:
        R = max(2.0, float(np.abs(allp - c).max()))
    return dict(cs=cs, col=np.asarray(col, float), style=style, c=np.asarray(c, float),
                R=float(R), alpha=alpha, ink=ink, tex=tex, ragged=ragged, spec=spec,
                holes=[np.asarray(h, float) for h in holes], ao=ao, alpha_fn=alpha_fn,
                light=light)


def outline(col, width):
    """Ink round the whole silhouette drawn so far, beneath it."""
    return dict(outline=True, col=np.asarray(col, float), width=width)


def _noise_tile(seed=42, size=256):
    rng = np.random.default_rng(seed)
    acc = np.zeros((size, size), np.float32)
    for octave, amp in ((8, 0.55), (16, 0.3), (48, 0.15)):
        g = rng.random((octave, octave)).astype(np.float32)
        g = np.tile(g, (3, 3))
        up = cv2.resize(g, (size * 3, size * 3), interpolation=cv2.INTER_CUBIC)
        acc += amp * up[size:2 * size, size:2 * size]
    acc -= acc.min()
    return acc / acc.max()


NOISE = _noise_tile()


def _disk(r):
    r = max(1, int(round(r)))
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))


def render(ops, H, W, SS, pad=4):
    """Premultiplied RGB (H,W,3) and alpha (H,W) float32 of the ops painted in order,
    each filled at SSx and box-filtered down."""
    pts = [q for op in ops if "cs" in op for q in op["cs"]]
    P = np.zeros((H, W, 3), np.float32)
    A = np.zeros((H, W), np.float32)
    if not pts:
        return P, A
    allp = np.concatenate(pts, 0)
    x0 = max(0, int(math.floor(allp[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(allp[:, 1].min())) - pad)
    x1 = min(W, int(math.ceil(allp[:, 0].max())) + pad)
    y1 = min(H, int(math.ceil(allp[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return P, A
    cw, ch = (x1 - x0) * SS, (y1 - y0) * SS
    cP = np.zeros((ch, cw, 3), np.float32)
    cA = np.zeros((ch, cw), np.float32)
    for op in ops:
        if op.get("outline"):
            k = _disk(op["width"] * SS)
            hard = (cA > 0.5).astype(np.uint8)
            ring = (cv2.dilate(hard, k) > 0) & (hard == 0)
            r = ring.astype(np.float32) * (1 - cA)
            cP += r[..., None] * op["col"][None, None, :].astype(np.float32)
            cA += r
            continue
        _paint(op, cP, cA, x0, y0, SS)
    dP = cv2.resize(cP, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    dA = cv2.resize(cA, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    P[y0:y1, x0:x1] = dP
    A[y0:y1, x0:x1] = dA
    return P, A


def _paint(op, cP, cA, x0, y0, SS):
    ch, cw = cA.shape
    m = 3 + int(math.ceil((op["ragged"] + (op["ink"][1] if op["ink"] else 0)) * SS)) + 2
    allp = np.concatenate(op["cs"], 0)
    bx0 = max(0, int(math.floor((allp[:, 0].min() - x0) * SS)) - m)
    by0 = max(0, int(math.floor((allp[:, 1].min() - y0) * SS)) - m)
    bx1 = min(cw, int(math.ceil((allp[:, 0].max() - x0) * SS)) + m)
    by1 = min(ch, int(math.ceil((allp[:, 1].max() - y0) * SS)) + m)
    if bx1 <= bx0 or by1 <= by0:
        return
    bw, bh = bx1 - bx0, by1 - by0
    mask = np.zeros((bh, bw), np.uint8)
    off = np.array([x0 + bx0 / SS, y0 + by0 / SS])
    for q in op["cs"]:
        qi = np.round((q - off) * SS * 8).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(mask, [qi], 1, lineType=cv2.LINE_8, shift=3)
    for q in op["holes"]:
        qi = np.round((q - off) * SS * 8).astype(np.int32).reshape(-1, 1, 2)
        cv2.fillPoly(mask, [qi], 0, lineType=cv2.LINE_8, shift=3)
    sl = (slice(by0, by1), slice(bx0, bx1))
    if (op["style"] == "flat" and not op["ragged"] and not op["tex"] and not op["ink"]
            and not op["spec"] and not op["ao"] and op["alpha_fn"] is None):
        if op["alpha"] == 1.0:
            m = mask.view(bool)
            cP[sl][m] = op["col"].astype(np.float32)
            cA[sl][m] = 1.0
            return
        a = mask.astype(np.float32) * float(op["alpha"])
        a3 = a[..., None]
        cP[sl] = cP[sl] * (1 - a3) + op["col"].astype(np.float32) * a3
        cA[sl] = cA[sl] * (1 - a) + a
        return
    xs = off[0] + (np.arange(bw, dtype=np.float32) + 0.5) / SS
    ys = off[1] + (np.arange(bh, dtype=np.float32) + 0.5) / SS
    X, Y = xs[None, :], ys[:, None]
    if op["ragged"] > 0:
        f = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), op["ragged"] * SS * 0.6)
        nz = NOISE[((Y - op["c"][1]) * 3.1).astype(np.int32) % 256,
                   ((X - op["c"][0]) * 0.9).astype(np.int32) % 256]
        mask = (f + (nz - 0.5) * 0.9 > 0.5).astype(np.uint8)
    iy, ix = np.nonzero(mask)
    if not len(iy):
        return
    Xp, Yp = xs[ix], ys[iy]
    u = ((Xp - op["c"][0]) * LIGHT[0] + (Yp - op["c"][1]) * LIGHT[1]) / op["R"]
    u = np.clip(u, -1, 1) * op["light"]
    st = op["style"]
    if st == "flat":
        f = np.ones_like(u)
    elif st == "cel":
        f = np.where(u > -0.12, 1.06, 0.76).astype(np.float32)
    elif st == "soft":
        f = 1 + 0.16 * u
    else:  # dome
        f = 1 + 0.3 * u
    if op["ao"] > 0 or op["spec"]:
        dist = (cv2.distanceTransform(mask, cv2.DIST_L2, 5) / SS)[iy, ix]
    if op["ao"] > 0:
        f = f * (1 - op["ao"] * np.exp(-dist / 2.2))
    if op["tex"] > 0:
        nz = NOISE[((Yp - op["c"][1]) * 2.3).astype(np.int32) % 256,
                   ((Xp - op["c"][0]) * 2.3).astype(np.int32) % 256]
        f = f * (1 + op["tex"] * (nz - 0.5) * 2)
    col = np.clip(f[:, None] * op["col"][None, :], 0, 255).astype(np.float32)
    if op["spec"]:
        w, s = op["spec"]
        hit = (dist < w) & (u > 0.18)
        col[hit] = col[hit] * (1 - s) + np.array([250, 251, 248], np.float32) * s
    if op["ink"]:
        icol, iw = op["ink"]
        inner = cv2.erode(mask, _disk(iw * SS))
        col[inner[iy, ix] == 0] = np.asarray(icol, np.float32)
    subP, subA = cP[sl], cA[sl]
    if op["alpha"] == 1.0 and op["alpha_fn"] is None:
        subP[iy, ix] = col
        subA[iy, ix] = 1.0
        return
    a = np.full(len(iy), float(op["alpha"]), np.float32)
    if op["alpha_fn"] is not None:
        a = a * op["alpha_fn"](Xp, Yp).astype(np.float32)
    subP[iy, ix] = subP[iy, ix] * (1 - a[:, None]) + col * a[:, None]
    subA[iy, ix] = subA[iy, ix] * (1 - a) + a


# ----------------------------------------------------------------------------- colour


def hue_matrix(deg, gain=1.0, sat=1.0):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    M = np.array([[0.213 + 0.787 * c - 0.213 * s, 0.715 - 0.715 * c - 0.715 * s, 0.072 - 0.072 * c + 0.928 * s],
                  [0.213 - 0.213 * c + 0.143 * s, 0.715 + 0.285 * c + 0.140 * s, 0.072 - 0.072 * c - 0.283 * s],
                  [0.213 - 0.213 * c - 0.787 * s, 0.715 - 0.715 * c + 0.715 * s, 0.072 + 0.928 * c + 0.072 * s]])
    lum = np.array([0.213, 0.715, 0.072])
    S = sat * np.eye(3) + (1 - sat) * np.outer(np.ones(3), lum)
    return gain * (S @ M)


def drift_walk(n, seed, hue_sd, gain_sd, sat_sd=0.0, keep=0.85):
    """A mean-reverting random walk of (hue deg, gain, sat) per frame, 0 at frame 0."""
    rng = np.random.default_rng(seed)
    h = g = s = 0.0
    out = [(0.0, 1.0, 1.0)]
    for _ in range(1, n):
        h = keep * h + rng.normal(0, hue_sd)
        g = keep * g + rng.normal(0, gain_sd)
        s = keep * s + rng.normal(0, sat_sd)
        out.append((h, 1 + g, 1 + s))
    return out


def to_yuv420(rgb):
    """BT.601 limited range, 2x2-averaged chroma: what SaveVideo's swscale writes."""
    f = rgb.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255
    H, W = Y.shape
    Cb = Cb.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    Cr = Cr.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    q = lambda a: np.clip(np.floor(a + 0.5), 0, 255).astype(np.uint8)
    return np.concatenate([q(Y), q(Cb).reshape(H // 4, W), q(Cr).reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path, W, H, crf):
        self.c = av.open(path, "w", format="mp4")
        s = self.c.add_stream("libx264", rate=FPS)
        s.width, s.height, s.pix_fmt = W, H, "yuv420p"
        s.codec_context.thread_count = 1
        s.options = {"crf": str(crf), "x264-params": "mbtree=0", "threads": "1",
                     "preset": "medium"}
        self.s, self.i = s, 0

    def add(self, rgb):
        vf = av.VideoFrame.from_ndarray(to_yuv420(rgb), format="yuv420p")
        vf.pts = self.i
        self.i += 1
        for p in self.s.encode(vf):
            self.c.mux(p)

    def close(self):
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


def save_truth(path, arr):
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
    zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zi, buf.getvalue(), compresslevel=1)


# ----------------------------------------------------------------------------- humanoid rig

BASE = dict(dx=0.0, dy=0.0, lean=0.0, head=0.0, sh_n=8.0, el_n=14.0, sh_f=-6.0, el_f=16.0,
            hip_n=5.0, kn_n=5.0, hip_f=-4.0, kn_f=4.0, wpn=75.0, sway=0.0, lift=0.0,
            fx=0.0, hoop=0.0)


def dark(col, k):
    return tuple(float(c) * k for c in col)


def humanoid(sp, pose, t):
    """Ops (back to front), keypoints and contact of a side-on (facing +x) figure."""
    h = sp["h"]
    gx, gy = sp["pos"]
    g = lambda k: sp[k] * h
    q = dict(BASE)
    q.update(pose)
    lean = q["lean"]
    up = -dirv(lean)  # torso axis (pointing up)
    P = V(0, 0)
    C = P + up * g("torso")
    Nk = C + up * g("neck")
    hd = dirv(lean + q["head"])
    head_c = Nk - hd * g("head_r") * 0.92
    Sn, Sf = C + V(0.012 * h, 0.01 * h), C + V(-0.01 * h, 0.012 * h)
    Hn, Hf = P + V(0.012 * h, 0.0), P + V(-0.012 * h, 0.0)

    def leg(Hp, a, k):
        K = Hp + dirv(a) * g("thigh")
        An = K + dirv(a - k) * g("shin")
        fd = dirv(90 + (a - k) * 0.5)  # toes forward, tilting with the shin
        heel = An - fd * g("foot") * 0.25
        toe = An + fd * g("foot") * 0.75
        return K, An, heel, toe

    def arm(Sp, a, e):
        E = Sp + dirv(a + lean) * g("ua")
        Wr = E + dirv(a + e + lean) * g("fa")
        return E, Wr, a + e + lean

    Kn, An, heeln, toen = leg(Hn, q["hip_n"], q["kn_n"])
    Kf, Af, heelf, toef = leg(Hf, q["hip_f"], q["kn_f"])
    fr = g("foot_r")
    low = max(An[1], Af[1], heeln[1], heelf[1], toen[1], toef[1]) + fr
    shift = V(gx + q["dx"] * h, gy - low - q["lift"] * h + q["dy"] * h)
    T = lambda p: p + shift
    P, C, Nk, head_c, Sn, Sf, Hn, Hf = map(T, (P, C, Nk, head_c, Sn, Sf, Hn, Hf))
    Kn, An, heeln, toen, Kf, Af, heelf, toef = map(T, (Kn, An, heeln, toen, Kf, Af, heelf, toef))
    En, Wn, fan = arm(Sn, q["sh_n"], q["el_n"])
    Ef, Wf, faf = arm(Sf, q["sh_f"], q["el_f"])

    st, ink, tex, rg, ao = sp["style"], sp.get("ink"), sp.get("tex", 0.0), sp.get("ragged", 0.0), sp.get("ao", 0.0)
    FD = sp.get("far", 0.78)

    def P_(cont, col, c=None, R=None, **kw):
        kw.setdefault("style", st)
        kw.setdefault("ink", ink)
        kw.setdefault("tex", tex)
        kw.setdefault("ragged", rg)
        kw.setdefault("ao", ao)
        return part(cont, col, c=c, R=R, **kw)

    ops = []
    kp = {}
    ctx = dict(h=h, t=t, q=q, P=P, C=C, Nk=Nk, head_c=head_c, Sn=Sn, Sf=Sf, En=En, Wn=Wn,
               Ef=Ef, Wf=Wf, fan=fan, faf=faf, An=An, Af=Af, toen=toen, toef=toef, up=up,
               lean=lean, P_=P_, kp=kp, sp=sp, FD=FD)
    for hook in sp.get("back", []):  # cape, long hair, quiver
        ops += hook(ctx)
    # far arm
    ra, rf = g("arm_r"), g("arm_r") * 0.85
    ops += sp.get("far_item", lambda c: [])(ctx)
    ops.append(P_(capsule_pts(Sf, Ef, ra, rf), dark(sp["sleeve"], FD)))
    ops.append(P_(capsule_pts(Ef, Wf, rf, rf * 0.9), dark(sp.get("forearm", sp["skin"]), FD)))
    ops.append(P_(ellipse_pts(Wf + dirv(faf) * rf * 0.9, rf * 1.15, rf * 1.15), dark(sp.get("glove", sp["skin"]), FD)))
    ops += sp.get("far_item_front", lambda c: [])(ctx)
    # far leg
    rl, rs = g("leg_r"), g("leg_r") * 0.82
    ops.append(P_(capsule_pts(Hf, Kf, rl, rs), dark(sp["pants"], FD)))
    ops.append(P_(capsule_pts(Kf, Af, rs, rs * 0.85), dark(sp.get("shin_col", sp["pants"]), FD)))
    ops.append(P_(capsule_pts(heelf, toef, fr, fr * 0.85), dark(sp["boots"], FD)))
    # torso
    ws, wh = g("chest_r"), g("hip_r")
    ops.append(P_(capsule_pts(P, C, wh, ws), sp["shirt"], c=(P + C) / 2, R=g("torso") * 0.7))
    ops += sp.get("torso_extra", lambda c: [])(ctx)
    # near leg
    ops.append(P_(capsule_pts(Hn, Kn, rl, rs), sp["pants"]))
    ops.append(P_(capsule_pts(Kn, An, rs, rs * 0.85), sp.get("shin_col", sp["pants"])))
    ops.append(P_(capsule_pts(heeln, toen, fr, fr * 0.85), sp["boots"]))
    ops += sp.get("over_legs", lambda c: [])(ctx)
    # neck, head
    ops.append(P_(capsule_pts(C + up * g("neck") * 0.2, Nk, g("head_r") * 0.33, g("head_r") * 0.3), sp["skin"]))
    hr = g("head_r")
    ops.append(P_(ellipse_pts(head_c, hr * 0.92, hr, lean + q["head"]), sp["skin"], c=head_c, R=hr))
    ops += sp.get("head_extra", lambda c: [])(ctx)
    # near arm and weapon
    ops += sp.get("near_item", lambda c: [])(ctx)
    ops.append(P_(capsule_pts(Sn, En, ra, rf), sp["sleeve"]))
    ops.append(P_(capsule_pts(En, Wn, rf, rf * 0.9), sp.get("forearm", sp["skin"])))
    ops.append(P_(ellipse_pts(Wn + dirv(fan) * rf * 0.9, rf * 1.15, rf * 1.15), sp.get("glove", sp["skin"])))
    ops += sp.get("front", lambda c: [])(ctx)
    if sp.get("outline"):
        ops.append(outline(*sp["outline"]))
    kp.update(hn=Wn, hf=Wf, tn=toen, tf=toef, head=head_c, kn=Kn, kf=Kf)
    contact = (float(P[0]), float(gy), 0.17 * h, 1.0 - min(1.0, q["lift"] * 8))
    return ops, kp, contact


# hooks ----------------------------------------------------------------------


def hair_hook(n, length, col, w0, w1, seed, spread=(150, 320), cap_col=None, flow=-1.0,
              back=True, curl=0.25, jig=0.012):
    """Strands rooted on the back of the scalp, flowing back (flow -1) and down."""
    rng = np.random.default_rng(seed)
    roots = rng.uniform(*spread, n)
    lens = length * rng.uniform(0.65, 1.0, n)
    ph = rng.uniform(0, 2 * math.pi, n)
    cols = [np.clip(np.asarray(col) * rng.uniform(0.82, 1.12), 0, 255) for _ in range(n)]

    def hook(cx):
        h, hc, hr, q = cx["h"], cx["head_c"], cx["sp"]["head_r"] * cx["h"], cx["q"]
        ops = []
        if cap_col is not None and not back:
            ops.append(cx["P_"](ellipse_pts(hc + V(-0.12 * hr, -0.18 * hr), hr * 0.98, hr * 0.86, cx["lean"]),
                                cap_col, c=hc, R=hr))
        if not back:
            return ops
        for i in range(n):
            a = math.radians(roots[i])
            root = hc + V(math.cos(a) * hr * 0.9, math.sin(a) * hr * 0.95)
            L = lens[i] * h
            sw = q["sway"] * 0.25 * h + math.sin(cx["t"] * 0.35 + ph[i]) * jig * h
            tip = root + V(flow * (0.25 * L) - sw + q["lean"] * 0.004 * L * -1, L * 0.95)
            ctrl = root + V(flow * 0.35 * L - sw * 0.3, 0.25 * L) + V(math.sin(ph[i]) * curl * 0.2 * L, 0)
            pts = bezier(root, ctrl, tip, 14)
            wid = np.linspace(w0, w1, 14)
            ops.append(part(strip_pts(pts, wid), cols[i], style="flat"))
        return ops
    return hook


def cape_hook(col, length, width, holes=0, seed=3, style=None, lining=None, alpha=1.0):
    rng = np.random.default_rng(seed)
    hole_uv = [(rng.uniform(0.35, 0.8), rng.uniform(0.45, 0.88), rng.uniform(0.04, 0.07)) for _ in range(holes)]

    def hook(cx):
        h, C, q, t = cx["h"], cx["C"], cx["q"], cx["t"]
        L, Wd = length * h, width * h
        sw = q["sway"] * h
        top_l, top_r = C + V(-0.03 * h, -0.01 * h), C + V(0.04 * h, 0.0)
        bot_r = top_r + V(-0.05 * h - sw * 0.6, L)
        bot_l = top_l + V(-Wd - sw, L * 0.96)
        n = 18
        bottom = [lerp(bot_l, bot_r, s) + V(0, math.sin(s * 7 + t * 0.5) * 0.012 * h) for s in np.linspace(0, 1, n)]
        left = bezier(top_l, top_l + V(-Wd * 0.5 - sw * 0.2, L * 0.5), bot_l, 12)
        right = bezier(bot_r, top_r + V(0.02 * h, L * 0.5), top_r, 12)
        poly = np.concatenate([left, np.array(bottom), right], 0)
        hs = []
        for (u, v, r) in hole_uv:
            top = lerp(top_l, top_r, 0.5)
            bot = lerp(bot_l, bot_r, u)
            cc = lerp(top, bot, v)
            hs.append(ellipse_pts(cc, r * h * 0.8, r * h * 1.3, 20 + 10 * math.sin(t * 0.2), n=20))
        st = style or cx["sp"]["style"]
        return [cx["P_"](poly, col, style=st, holes=hs, c=lerp(top_l, bot_l, 0.5), R=L * 0.6, alpha=alpha)]
    return hook


def sword_hook(length, width, blade, guard, grip, tip_w=0.3, pommel=None, spec=False):
    def hook(cx):
        h, Wn, fan, q = cx["h"], cx["Wn"], cx["fan"], cx["q"]
        d = dirv(fan + q["wpn"])
        hand = Wn + dirv(fan) * cx["sp"]["arm_r"] * h * 0.9
        L = length * h
        base = hand + d * 0.05 * h
        tip = base + d * L
        n = perp(d)
        bw = width * h
        blade_poly = np.array([base + n * bw / 2, base + d * L * 0.82 + n * bw * 0.45,
                               tip + n * tip_w / 2, tip - n * tip_w / 2,
                               base + d * L * 0.82 - n * bw * 0.45, base - n * bw / 2])
        ops = [part(blade_poly, blade, style="soft" if not spec else "dome", c=base + d * L / 2, R=L / 2,
                    spec=(1.2, 0.8) if spec else None, ink=cx["sp"].get("ink"))]
        ops.append(part(capsule_pts(base - n * bw * 1.6, base + n * bw * 1.6, bw * 0.35, bw * 0.35), guard,
                        style="soft", ink=cx["sp"].get("ink")))
        ops.append(part(capsule_pts(hand - d * 0.06 * h, base, bw * 0.3, bw * 0.3), grip, style="flat"))
        cx["kp"]["tip"] = tip
        return ops
    return hook


# ----------------------------------------------------------------------------- the footage


class Case:
    """A clip: a character (t -> ops, keypoints, contacts) and how the model filmed it."""

    def __init__(self, name, W, H, n, action, flags, char, *, crf=20, SS=3, key_user=(0, 255, 0),
                 key=(30, 200, 50), key_fn=None, settle=3, grad=(0.06, -0.08), vignette=0.16,
                 noise=2.5, blotch=3.0, flicker=0.012, wrap=("dist", 4.0, 0.3), shadow=0.35,
                 rim=None, shutter=0.5, maxsub=6, blurstep=2.5, colour=None, notes=None, clean=False, seed=0, raster=None):
        self.__dict__.update(locals())
        del self.__dict__["self"]
        if CLEAN:
            self.clean = True
        if self.clean:
            self.key_fn, self.settle, self.grad, self.vignette = None, 0, (0, 0), 0
            self.noise = self.blotch = self.flicker = 0
            self.wrap, self.shadow, self.rim = None, 0, None
            self.key_user = self.key

    def keycol(self, t):
        return np.asarray(self.key_fn(t) if self.key_fn else self.key, np.float32)


def subframes(case, t):
    if t == 0 or case.shutter <= 0:
        return [float(t)]
    s = case.shutter
    fn = (lambda x: case.char(x)[1]) if case.raster is None else (lambda x: case.raster(x)[2])
    k0, k1 = fn(t - s / 2), fn(t + s / 2)
    v = max(float(np.hypot(*(k1[k] - k0[k]))) for k in k0 if k in k1)
    ns = int(min(case.maxsub, max(1, math.ceil(v / case.blurstep))))
    if ns == 1:
        return [float(t)]
    return [t + s * ((i + 0.5) / ns - 0.5) for i in range(ns)]


def truth_frame(case, t):
    P = np.zeros((case.H, case.W, 3), np.float32)
    A = np.zeros((case.H, case.W), np.float32)
    ts = subframes(case, t)
    contacts = []
    for tt in ts:
        if case.raster is not None:
            p, a, kp, ct = case.raster(tt)
        else:
            ops, kp, ct = case.char(tt)
            p, a = render(ops, case.H, case.W, case.SS)
        P += p
        A += a
        if tt == ts[len(ts) // 2]:
            contacts = ct if isinstance(ct, list) else [ct]
    P /= len(ts)
    A /= len(ts)
    rgb = P / np.maximum(A, 1e-6)[..., None]
    if case.colour is not None:
        rgb = case.colour(t, rgb, A)
    a8 = np.clip(np.floor(A * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb8 = np.clip(np.floor(rgb + 0.5), 0, 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.dstack([rgb8, a8]), contacts


class Screen:
    def __init__(self, case):
        self.c = case
        H, W = case.H, case.W
        y, x = np.mgrid[0:H, 0:W].astype(np.float32)
        self.xn, self.yn = x / (W - 1) * 2 - 1, y / (H - 1) * 2 - 1
        self.X, self.Y = x, y
        self.rng = np.random.default_rng(1000 + case.seed)
        self.base = ((1 + case.grad[0] * self.xn + case.grad[1] * self.yn)
                     * (1 - case.vignette * (0.5 * self.xn ** 2 + 0.5 * self.yn ** 2) ** 1.2))

    def frame(self, t, contacts):
        c = self.c
        H, W = c.H, c.W
        user = np.broadcast_to(np.asarray(c.key_user, np.float32), (H, W, 3))
        if t == 0 and not c.clean:
            return np.array(user), None
        fl = 1 + (self.rng.normal(0, c.flicker) if c.flicker else 0.0)
        S = self.base[..., None] * c.keycol(t)[None, None, :] * fl
        if c.noise:
            S = S + self.rng.standard_normal((H, W, 3), dtype=np.float32) * c.noise
        if c.blotch:
            lo = self.rng.standard_normal((H // 24 + 2, W // 24 + 2, 3), dtype=np.float32)
            S = S + cv2.resize(lo, (W, H), interpolation=cv2.INTER_CUBIC) * c.blotch
        light = S  # the screen's light, before the shadow: what wraps round the figure
        if c.shadow:
            sh = np.zeros((H, W), np.float32)
            for (x, y, hw, k) in contacts:
                sh = np.maximum(sh, k * np.exp(-((self.X - x) / hw) ** 2 - ((self.Y - y) / (0.2 * hw)) ** 2))
            S = S * (1 - c.shadow * sh)[..., None]
        if c.settle and t < c.settle:
            k = t / c.settle
            S = user + (S - user) * k
            light = user + (light - user) * k
        return S, light


def compose(case, truth, S, light, t):
    a8 = truth[..., 3]
    a = (a8.astype(np.float32) / 255)[..., None]
    fg = truth[..., :3].astype(np.float32)
    c = case
    if c.wrap and t > 0 and light is not None:
        form, width, s = c.wrap[:3]
        s = s * min(1.0, t / 3.0)
        inside = (a8 >= 128).astype(np.uint8)
        if form == "blurinv":
            inv = 1 - a[..., 0]
            w = s * np.clip(cv2.GaussianBlur(inv, (0, 0), width * 0.55) * 2.0, 0, 1)
        else:
            d = cv2.distanceTransform(inside, cv2.DIST_L2, 5) - 0.5
            d = np.where(inside > 0, d, 0)
            x = np.clip(d / width, 0, 1)
            w = s * ((1 - x) ** 2 if form == "dist" else (1 - x))
        w = w[..., None]
        wc = cv2.GaussianBlur(light, (0, 0), max(1.0, width * 0.8))
        if form == "add":
            fg = fg + w * wc * 0.75
        else:
            fg = fg * (1 - w) + wc * w
    C = fg * a + S * (1 - a)
    if c.rim and t > 0:
        col, width, op = c.rim
        hard = (a8 >= 128).astype(np.uint8)
        ring = cv2.dilate(hard, _disk(width)).astype(np.float32) - hard
        ring = cv2.GaussianBlur(ring, (0, 0), 0.6) * op * (1 - a[..., 0]) * min(1.0, t / 3.0)
        C = C * (1 - ring[..., None]) + np.asarray(col, np.float32) * ring[..., None]
    return np.clip(np.floor(C + 0.5), 0, 255).astype(np.uint8)


def run_case(case):
    t0 = time.time()
    d = os.path.join(OUT, case.name)
    os.makedirs(d, exist_ok=True)
    scr = Screen(case)
    enc = Encoder(os.path.join(d, "clip.mp4"), case.W, case.H, case.crf)
    truth = np.zeros((case.n, case.H, case.W, 4), np.uint8)
    prev = os.environ.get("T42_PREVIEW")
    shots = []
    for t in range(case.n):
        tr, contacts = truth_frame(case, t)
        truth[t] = tr
        S, light = scr.frame(t, contacts)
        rgb = compose(case, tr, S, light, t)
        enc.add(rgb)
        if prev and t in (0, case.n // 4, case.n // 2, (3 * case.n) // 4, case.n - 1):
            shots.append((rgb, tr))
    enc.close()
    Image.fromarray(truth[0], "RGBA").save(os.path.join(d, "portrait.png"))
    save_truth(os.path.join(d, "truth.npz"), truth)
    meta = dict(action=case.action, expect_flags=list(case.flags), size=[case.W, case.H],
                frames=case.n, fps=FPS, crf=case.crf, clean=case.clean)
    if not case.clean:
        meta.update(key_user=list(case.key_user), key_model=[float(v) for v in case.keycol(case.n - 1)],
                    wrap=None if not case.wrap else dict(form=case.wrap[0], width_px=case.wrap[1],
                                                          strength=case.wrap[2]),
                    noise_sd=case.noise, flicker_sd=case.flicker, contact_shadow=case.shadow,
                    shadow_in_truth=False, settle_frames=case.settle)
    touch = []
    for t in range(case.n):
        a = truth[t, ..., 3]
        if any(int((b > 0).sum()) > 0.01 * len(b) for b in (a[0], a[-1], a[:, 0], a[:, -1])):
            touch.append(t)
    meta["truth_edge_touch_frames"] = touch  # >1 % of an edge's pixels with alpha > 0
    meta.update(case.notes or {})
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
    if prev:
        row1 = np.concatenate([s[0] for s in shots], 1)
        mag = np.array([255, 0, 255], np.float32)
        row2 = np.concatenate([(s[1][..., :3] * (s[1][..., 3:] / 255.0) + mag * (1 - s[1][..., 3:] / 255.0)).astype(np.uint8)
                               for s in shots], 1)
        Image.fromarray(np.concatenate([row1, row2], 0)).save(os.path.join(OUT, f"_prev_{case.name}.png"))
    return case.name, time.time() - t0


# ----------------------------------------------------------------------------- actions


def act_walk(t, period, amp=1.0):
    ph = 2 * math.pi * t / period
    s, c = math.sin(ph), math.cos(ph)
    return dict(hip_n=22 * s * amp, hip_f=-22 * s * amp, kn_n=6 + 34 * amp * max(0, c) ** 1.5,
                kn_f=6 + 34 * amp * max(0, -c) ** 1.5, sh_n=-20 * s * amp, sh_f=20 * s * amp,
                el_n=16 + 10 * max(0, -s), el_f=16 + 10 * max(0, s), lean=4 * amp,
                dy=-0.012 * amp * math.cos(2 * ph), head=1.5 * math.sin(2 * ph),
                sway=0.03 * amp + 0.012 * math.sin(2 * ph + 0.7))


def act_run(t, period):
    ph = 2 * math.pi * t / period
    s, c = math.sin(ph), math.cos(ph)
    return dict(hip_n=38 * s, hip_f=-38 * s, kn_n=12 + 82 * max(0, c) ** 1.2,
                kn_f=12 + 82 * max(0, -c) ** 1.2, sh_n=-48 * s, sh_f=48 * s, el_n=82, el_f=82,
                lean=13, lift=0.028 * max(0.0, math.sin(2 * ph - 0.6)), head=-6 + 2 * math.sin(2 * ph),
                sway=0.1 + 0.03 * math.sin(2 * ph))


def act_idle(t, period, amp=1.0):
    ph = 2 * math.pi * t / period
    s = math.sin(ph)
    return dict(dy=0.008 * amp * s, lean=2.0 * amp * s, sh_n=8 + 5 * amp * math.sin(ph + 0.5),
                sh_f=-6 - 5 * amp * math.sin(ph + 0.4), el_n=14 + 6 * amp * s, el_f=16 + 6 * amp * s,
                head=3 * amp * math.sin(ph + 1.0), sway=0.02 * amp * math.sin(ph - 0.5),
                kn_n=5 + 5 * amp * (1 + s) / 2, kn_f=4 + 5 * amp * (1 + s) / 2,
                hip_n=5 + 2 * amp * s, hip_f=-4 - 2 * amp * s, dx=0.006 * amp * math.sin(ph / 2))


def blend(rest, pose, k):
    out = dict(BASE)
    out.update(rest)
    for key, v in pose.items():
        out[key] = out.get(key, 0.0) + (v - out.get(key, 0.0)) * k
    return out


def eased(rest, pose, t, ein=5.0):
    return blend(rest, pose, ease(t / ein))


def drift_colour(walk, lo=0.0):
    """Colour of the drawn character wandering frame to frame (diffusion drift)."""
    def f(t, rgb, A):
        hdeg, g, s = walk[int(t)]
        M = hue_matrix(hdeg, g, s).astype(np.float32)
        return np.clip(rgb @ M.T, 0, 255)
    return f


# ----------------------------------------------------------------------------- the roster

PROP = dict(head_r=0.07, torso=0.27, neck=0.035, ua=0.15, fa=0.14, thigh=0.225, shin=0.215,
            foot=0.085, foot_r=0.024, arm_r=0.037, leg_r=0.048, chest_r=0.096, hip_r=0.082)
INK = (34, 30, 38)


def helmet_hook(col, plume=None, visor=None, seed=5):
    rng = np.random.default_rng(seed)
    nst = 0 if plume is None else plume[1]
    ang = rng.uniform(-40, 10, nst)
    ln = rng.uniform(0.7, 1.0, nst)

    def hook(cx):
        h, hc, lean, q = cx["h"], cx["head_c"], cx["lean"], cx["q"]
        hr = cx["sp"]["head_r"] * h
        a = lean + q["head"]
        ops = [cx["P_"](ellipse_pts(hc, hr * 1.06, hr * 1.02, a, a0=170, a1=370, n=40), col, c=hc, R=hr * 1.1)]
        ops.append(cx["P_"](capsule_pts(hc + V(-hr * 1.05, hr * 0.0), hc + V(-hr * 0.55, hr * 0.9),
                                         hr * 0.28, hr * 0.22), col, c=hc, R=hr))
        if visor is not None:
            ops.append(part(capsule_pts(hc + V(hr * 0.15, -hr * 0.05), hc + V(hr * 0.9, -hr * 0.05),
                                        hr * 0.09, hr * 0.07), visor, style="flat"))
        if plume is not None:
            pc, _, L = plume
            root = hc + V(-hr * 0.1, -hr * 1.0)
            for i in range(nst):
                d = dirv(180 + ang[i] - 20 + 8 * math.sin(cx["t"] * 0.4 + i) - q["sway"] * 60)
                tip = root + d * L * h * ln[i]
                ctrl = root + V(0, -L * h * 0.5) + V(-L * h * 0.2, 0)
                ops.append(part(strip_pts(bezier(root, ctrl, tip, 12), np.linspace(2.2, 0.45, 12)), pc, style="flat"))
        return ops
    return hook


def knight_spec(h, pos, style="cel", tabard=(62, 150, 72), plume=(238, 238, 232)):
    sp = dict(PROP, h=h, pos=pos, style=style, ink=(INK, 1.0), outline=(INK, 1.2),
              skin=(226, 182, 150), shirt=(158, 166, 178), sleeve=(150, 158, 170),
              forearm=(140, 148, 160), glove=(92, 84, 80), pants=(120, 126, 138), boots=(58, 50, 50))
    sp["shin_col"] = (150, 156, 168)

    def tabard_hook(cx):
        h, P, C, up, lean = cx["h"], cx["P"], cx["C"], cx["up"], cx["lean"]
        n = perp(-up)
        top = C - up * 0.02 * h
        bot = P + V(0.01 * h, 0.07 * h)
        poly = np.array([top + n * 0.06 * h, top - n * 0.055 * h, bot - n * 0.05 * h + V(-cx["q"]["sway"] * 0.2 * h, 0),
                         bot + V(0.01 * h, 0.03 * h), bot + n * 0.06 * h])
        belt = capsule_pts(P + up * 0.05 * h - n * 0.075 * h, P + up * 0.05 * h + n * 0.075 * h, 0.014 * h, 0.014 * h)
        return [cx["P_"](poly, tabard, c=(top + bot) / 2, R=0.18 * h), cx["P_"](belt, (96, 66, 40))]

    def shield_hook(cx):
        h, Wf, faf = cx["h"], cx["Wf"], cx["faf"]
        c = Wf + dirv(faf + 90) * 0.02 * h
        return [cx["P_"](ellipse_pts(c, 0.085 * h, 0.12 * h, 0), dark((170, 60, 50), cx["FD"]), c=c, R=0.12 * h),
                cx["P_"](ellipse_pts(c, 0.03 * h, 0.03 * h), dark((220, 190, 90), cx["FD"]))]

    sp["torso_extra"] = tabard_hook
    sp["far_item_front"] = shield_hook
    sp["head_extra"] = helmet_hook((168, 176, 188), plume=(plume, 26, 0.16))
    sp["near_item"] = sword_hook(0.34, 0.032, (205, 212, 222), (200, 170, 70), (80, 50, 30), tip_w=0.35)
    return sp


def case_knight_drift():
    n, W, H = 56, 512, 512
    sp = knight_spec(380, (262, 470))
    rest = dict(BASE)

    def char(t):
        return humanoid(sp, eased(rest, act_walk(t, 28), t), t)
    walk = drift_walk(n, 11, hue_sd=1.7, gain_sd=0.012, sat_sd=0.02, keep=0.88)
    return Case("knight_huedrift_walk", W, H, n, "walk", [], char, crf=20, SS=3,
                key=(34, 198, 52), wrap=("dist", 4.0, 0.30), colour=drift_colour(walk), seed=1,
                notes=dict(models="cel knight, green tabard, 26 plume strands; the drawn colours "
                                  "random-walk frame to frame (hue sd ~3.5 deg, gain ~2.5 %, sat ~4 %) "
                                  "as diffusion video drifts; the drift IS in the truth",
                           drift=[[round(a, 2), round(b, 4), round(c, 4)] for a, b, c in walk]))


def spear_hook(length, shaft, head, tip_w=0.35, ink=None):
    def hook(cx):
        h, Wn, fan, q = cx["h"], cx["Wn"], cx["fan"], cx["q"]
        d = dirv(q["wpn"])
        n = perp(d)
        hand = Wn + dirv(fan) * cx["sp"]["arm_r"] * h * 0.9
        L = length * h
        butt, neck = hand - d * 0.42 * L, hand + d * 0.5 * L
        tip = neck + d * 0.08 * L
        ops = [part(capsule_pts(butt, neck, 0.011 * h, 0.010 * h), shaft, style="soft", ink=ink)]
        leaf = np.array([neck + n * 0.004 * h, neck + d * 0.02 * L + n * 0.017 * h,
                         tip + n * tip_w / 2, tip - n * tip_w / 2, neck + d * 0.02 * L - n * 0.017 * h,
                         neck - n * 0.004 * h])
        ops.append(part(leaf, head, style="dome", c=neck + d * 0.04 * L, R=0.05 * L, ink=None))
        cx["kp"]["tip"] = tip
        return ops
    return hook


def hood_hook(col, ink=None):
    def hook(cx):
        h, hc, lean, q = cx["h"], cx["head_c"], cx["lean"], cx["q"]
        hr = cx["sp"]["head_r"] * h
        a = lean + q["head"]
        pts = ellipse_pts(hc + V(-0.22 * hr, -0.08 * hr), hr * 1.08, hr * 1.08, a, a0=150, a1=345, n=40)
        tail = hc + V(-1.25 * hr - q["sway"] * 0.5 * h, 0.7 * hr)
        poly = np.concatenate([pts, [hc + V(0.1 * hr, -0.3 * hr), hc + V(-0.25 * hr, 0.3 * hr), hc + V(-0.4 * hr, 1.0 * hr), tail]], 0)
        return [cx["P_"](poly, col, c=hc, R=hr * 1.2)]
    return hook


def case_rogue_keyjump():
    n, W, H = 56, 640, 640
    sp = dict(PROP, h=470, pos=(330, 600), style="dome", ao=0.25, ink=None,
              skin=(206, 160, 130), shirt=(30, 37, 33), sleeve=(38, 42, 44), forearm=(34, 36, 38),
              glove=(24, 22, 24), pants=(46, 42, 54), boots=(26, 22, 24))
    sp["back"] = [cape_hook((38, 124, 128), 0.46, 0.16, style="dome")]
    sp["head_extra"] = hood_hook((40, 128, 132))
    sp["near_item"] = sword_hook(0.15, 0.03, (214, 218, 226), (150, 130, 90), (60, 40, 30), tip_w=0.3)
    sp["torso_extra"] = lambda cx: [cx["P_"](capsule_pts(cx["P"] + cx["up"] * 0.05 * cx["h"] - perp(-cx["up"]) * 0.085 * cx["h"],
                                                          cx["P"] + cx["up"] * 0.05 * cx["h"] + perp(-cx["up"]) * 0.085 * cx["h"],
                                                          0.013 * cx["h"], 0.013 * cx["h"]), (92, 60, 36))]
    rest = dict(BASE, wpn=95)
    k1, k2 = np.array([40, 196, 58.0]), np.array([20, 182, 116.0])

    def key(t):
        return k1 + (k2 - k1) * ease((t - 27) / 3.0)

    def char(t):
        pose = act_run(t, n / 3)
        pose["wpn"] = 100
        return humanoid(sp, eased(rest, pose, t, 6), t)
    return Case("rogue_keyjump_run", W, H, n, "run", [], char, crf=21, SS=3, key_fn=key,
                wrap=("dist", 3.5, 0.28), grad=(-0.07, -0.05), seed=2, maxsub=6,
                notes=dict(models="shaded rogue in near-black green-tinted leather, teal cloak and hood; "
                                  "the model re-renders the screen mid-clip: its key moves from (40,196,58) "
                                  "to (20,182,116) over frames 27-30 (about 20 deg of hue toward the cloak) "
                                  "and stays; the wrap follows the screen",
                           key_change_frames=[27, 30]))


def case_spear_brief_exit():
    n, W, H = 39, 832, 480
    sp = dict(PROP, h=340, pos=(0, 456), style="cel", ink=(INK, 0.9), outline=(INK, 1.1),
              skin=(214, 168, 128), shirt=(126, 88, 54), sleeve=(116, 80, 50), forearm=(214, 168, 128),
              glove=(80, 56, 40), pants=(98, 100, 62), boots=(54, 40, 32))
    sp["head_extra"] = helmet_hook((150, 120, 80))
    sp["torso_extra"] = lambda cx: [cx["P_"](capsule_pts(cx["C"] - cx["up"] * 0.01 * cx["h"] + V(-0.07, 0) * cx["h"],
                                                          cx["C"] + V(0.08, 0.02) * cx["h"], 0.03 * cx["h"], 0.026 * cx["h"]),
                                             (58, 132, 70))]
    sp["near_item"] = spear_hook(1.25, (130, 96, 60), (196, 202, 212), tip_w=0.35, ink=(INK, 0.8))
    rest = dict(BASE, sh_n=20, el_n=60, wpn=84, sh_f=30, el_f=40)

    def pose_at(t):
        p = dict(rest)
        p["sh_n"] = keys(t, [(0, 20), (6, 20), (16, -10), (23, -12), (26.5, 62), (28, 62), (32, 20)])
        p["el_n"] = keys(t, [(0, 60), (6, 60), (16, 95), (23, 95), (26.5, 18), (28, 18), (32, 60)])
        p["lean"] = keys(t, [(0, 0), (16, -6), (23, -6), (26.5, 16), (28, 16), (34, 0)])
        p["dx"] = keys(t, [(0, 0), (16, -0.04), (23, -0.04), (26.5, 0.17), (28, 0.17), (34, 0.0)])
        p["hip_n"] = keys(t, [(0, 5), (16, 0), (23, 0), (26.5, 36), (28, 36), (34, 5)])
        p["kn_n"] = keys(t, [(0, 5), (16, 10), (23, 10), (26.5, 34), (28, 34), (34, 5)])
        p["hip_f"] = keys(t, [(0, -4), (16, -12), (26.5, -30), (28, -30), (34, -4)])
        p["wpn"] = keys(t, [(0, 84), (16, 88), (26.5, 86), (33, 84)])
        p["sh_f"] = keys(t, [(0, 30), (16, 10), (26.5, 60), (33, 30)])
        return p
    sp0 = dict(sp)
    tips = [humanoid(sp0, pose_at(t), t)[1]["tip"][0] for t in range(n)]
    peak = max(tips)
    gx = W + 24 - peak  # the tip leaves the right edge by 24 px at its furthest
    sp["pos"] = (gx, 456)
    out = [i for i, x in enumerate(tips) if x + gx > W - 1]

    def char(t):
        return humanoid(sp, pose_at(t), t)
    return Case("qc_spear_brief_exit_attack", W, H, n, "attack", [], char, crf=20, SS=3,
                key=(36, 202, 48), wrap=("blurinv", 3.0, 0.24), seed=3, maxsub=7,
                notes=dict(models="cel spearman winds up slowly and lunges late; the spear's tip crosses the "
                                  "right edge (up to 24 px out) in frames %s (unblurred tip; the blurred tip also "
                                  "grazes the edge in frame 25, 5 px at alpha <= 57) and comes back; frames 0-24 "
                                  "hold the whole figure (a 1 s window, 8 cells): per the README no CROPPED (a window "
                                  "of the clip has the character in every cell)" % out,
                           tip_out_frames_unblurred=out))


def case_greatsword_out():
    n, W, H = 39, 640, 640
    sp = dict(PROP, h=470, pos=(250, 620), style="dome", ao=0.3, tex=0.08, ragged=0.6, ink=None,
              skin=(220, 176, 146), shirt=(150, 40, 44), sleeve=(60, 64, 74), forearm=(70, 74, 86),
              glove=(44, 40, 40), pants=(56, 60, 70), boots=(36, 32, 34))
    sp["shin_col"] = (82, 86, 98)
    sp["head_extra"] = helmet_hook((84, 90, 104), visor=(20, 18, 22))
    sp["near_item"] = sword_hook(0.6, 0.05, (204, 208, 218), (210, 170, 70), (60, 40, 30), tip_w=0.5)
    rest = dict(BASE, sh_n=18, el_n=40, wpn=92)

    def pose_at(t):
        p = dict(rest)
        tr = 1.5 * math.sin(t * 2.1) if 8 < t < 27 else 0.0
        p["sh_n"] = keys(t, [(0, 18), (2, 18), (6.5, 172), (26, 176), (29.5, 62), (31, 55), (36, 150), (38, 152)]) + tr
        p["el_n"] = keys(t, [(0, 40), (2, 40), (6.5, 8), (26, 8), (29.5, 10), (31, 12), (36, 40), (38, 40)])
        p["wpn"] = keys(t, [(0, 92), (2, 92), (6.5, 0), (26, 0), (29.5, 30), (31, 40), (36, 20), (38, 20)])
        p["lean"] = keys(t, [(0, 0), (6.5, -8), (26, -8), (29.5, 18), (31, 18), (38, 2)])
        p["hip_n"] = keys(t, [(0, 5), (6.5, 10), (26, 10), (29.5, 26), (38, 12)])
        p["kn_n"] = keys(t, [(0, 5), (6.5, 12), (26, 12), (29.5, 28), (38, 10)])
        p["hip_f"] = keys(t, [(0, -4), (6.5, -14), (29.5, -20), (38, -8)])
        p["sh_f"] = keys(t, [(0, -6), (6.5, 150), (26, 150), (29.5, 50), (36, 10)])
        p["el_f"] = keys(t, [(0, 16), (6.5, 30), (29.5, 30), (36, 20)])
        p["dy"] = keys(t, [(0, 0), (26, 0), (29.5, 0.03), (31, 0.03), (38, 0.0)])
        return p
    tips = [humanoid(sp, pose_at(t), t)[1]["tip"] for t in range(n)]
    out = [i for i, tp in enumerate(tips) if tp[1] < 0 or tp[0] > W - 1]

    def char(t):
        return humanoid(sp, pose_at(t), t)
    return Case("qc_greatsword_out_attack", W, H, n, "attack", ["CROPPED"], char, crf=21, SS=3,
                key=(44, 198, 60), wrap=("dist", 4.5, 0.3), seed=4, maxsub=8,
                notes=dict(models="painterly dark knight raises a greatsword overhead and charges it with the "
                                  "blade out of the top edge, slashes down (re-entering), and rests it on his "
                                  "shoulder out of the top again; the blade's tip is out of the frame in frames %s, "
                                  "so every 1 s window of 8 cells holds a cut cell: CROPPED" % out,
                           tip_out_frames_unblurred=out))


def staff_hook(length, col, ring=None, gem=None, hand="f"):
    def hook(cx):
        h = cx["h"]
        W_ = cx["Wf"] if hand == "f" else cx["Wn"]
        fa = cx["faf"] if hand == "f" else cx["fan"]
        FD = cx["FD"] if hand == "f" else 1.0
        hand_p = W_ + dirv(fa) * cx["sp"]["arm_r"] * h * 0.9
        d = dirv(180 + cx["q"].get("staff", 4))
        top = hand_p + d * length * 0.55 * h
        bot = hand_p - d * length * 0.45 * h
        ops = [cx["P_"](capsule_pts(bot, top, 0.01 * h, 0.012 * h), dark(col, FD), c=(top + bot) / 2, R=length * h / 2)]
        if ring is not None:
            rc, rr, th = ring
            c = top + d * rr * h
            ops.append(cx["P_"](ellipse_pts(c, rr * h, rr * h * 1.15), dark(rc, FD), holes=[ellipse_pts(c, rr * h - th, rr * h * 1.15 - th)],
                                c=c, R=rr * h))
        if gem is not None:
            c = top + d * (ring[1] if ring else 0.02) * h
            ops.append(part(ellipse_pts(c, 0.014 * h, 0.02 * h), gem, style="dome", c=c, R=0.02 * h))
        cx["kp"]["staff"] = top
        return ops
    return hook


def case_still_priestess():
    n, W, H = 56, 448, 448
    sp = dict(PROP, h=350, pos=(220, 430), style="dome", ao=0.2, tex=0.1, ragged=0.5, ink=None,
              skin=(236, 206, 186), shirt=(236, 234, 226), sleeve=(232, 230, 222), forearm=(236, 206, 186),
              glove=(236, 206, 186), pants=(226, 224, 216), boots=(180, 150, 90))

    def robe(cx):
        h, P = cx["h"], cx["P"]
        hem_y = max(cx["An"][1], cx["Af"][1]) - 0.01 * h
        x0 = min(cx["An"][0], cx["Af"][0]) - 0.07 * h
        x1 = max(cx["An"][0], cx["Af"][0]) + 0.08 * h
        poly = np.array([P + V(-0.085 * h, -0.03 * h), P + V(0.085 * h, -0.03 * h), V(x1, hem_y), V(x0, hem_y)])
        trim = np.array([V(x0, hem_y - 0.025 * h), V(x1, hem_y - 0.025 * h), V(x1, hem_y), V(x0, hem_y)])
        return [cx["P_"](poly, (234, 232, 224), c=(P + V((x0 + x1) / 2, hem_y)) / 2, R=0.25 * h),
                cx["P_"](trim, (212, 172, 78))]
    sp["over_legs"] = robe
    sp["back"] = [hair_hook(40, 0.42, (26, 22, 28), 1.6, 0.5, seed=8, spread=(140, 300), curl=0.15, jig=0.0008)]
    sp["head_extra"] = lambda cx: [cx["P_"](ellipse_pts(cx["head_c"] + V(-0.1, -0.2) * cx["sp"]["head_r"] * cx["h"],
                                                        cx["sp"]["head_r"] * cx["h"] * 0.98, cx["sp"]["head_r"] * cx["h"] * 0.82,
                                                        cx["lean"]), (28, 24, 30), c=cx["head_c"], R=cx["h"] * 0.07),
                                   part(ellipse_pts(cx["head_c"] + V(0.45, -0.05) * cx["sp"]["head_r"] * cx["h"], 2.2, 3.0),
                                        (40, 30, 40), style="flat")]
    sp["far_item_front"] = staff_hook(0.95, (170, 130, 70), ring=((214, 176, 80), 0.045, 3.0), gem=(120, 200, 230))
    rest = dict(BASE, sh_f=35, el_f=55, sh_n=6, el_n=20, staff=6)

    def char(t):
        p = blend(rest, act_idle(t, 28, amp=0.04), 1.0)
        p["staff"] = 6
        return humanoid(sp, p, t)
    walk = drift_walk(n, 21, hue_sd=1.0, gain_sd=0.008, sat_sd=0.015, keep=0.88)
    return Case("qc_still_priestess_idle", W, H, n, "idle", ["STATIC"], char, crf=22, SS=3,
                key=(30, 204, 46), wrap=("dist", 3.0, 0.26), seed=5, colour=drift_colour(walk),
                notes=dict(models="painterly priestess in near-white robes, 40 near-black strands, staff with a "
                                  "ring (hole) top; the model gave back a still illustration: the pose moves "
                                  "under 0.5 px (breathing at 4 % of a normal idle; alpha differs from frame 0 by "
                                  "at most 2.3 % of the area), only the drawn colours drift "
                                  "(hue sd ~2 deg, gain ~1.5 %, in the truth) and the screen flickers: STATIC",
                           drift=[[round(a, 2), round(b, 4), round(c, 4)] for a, b, c in walk]))


def robe_hook(col, trim, flare=0.09):
    def hook(cx):
        h, P, q = cx["h"], cx["P"], cx["q"]
        hem_y = max(cx["An"][1], cx["Af"][1]) + 0.005 * h
        x0 = min(cx["An"][0], cx["Af"][0]) - flare * h - q["sway"] * 0.3 * h
        x1 = max(cx["An"][0], cx["Af"][0]) + flare * h * 0.8
        top_l, top_r = P + V(-0.09 * h, -0.04 * h), P + V(0.09 * h, -0.04 * h)
        hem = [V(x, hem_y + 0.008 * h * math.sin(x * 0.08 + cx["t"] * 0.4)) for x in np.linspace(x1, x0, 10)]
        poly = np.array([top_l, top_r] + hem)
        trim_poly = np.array([V(x1, hem_y - 0.03 * h), V(x1, hem_y)] + hem[1:-1] + [V(x0, hem_y), V(x0, hem_y - 0.03 * h)])
        return [cx["P_"](poly, col, c=(P + V((x0 + x1) / 2, hem_y)) / 2, R=0.3 * h),
                cx["P_"](trim_poly, trim, c=V((x0 + x1) / 2, hem_y), R=0.2 * h)]
    return hook


def case_mage_veil():
    n, W, H = 39, 480, 832
    sp = dict(PROP, h=560, pos=(215, 790), style="dome", ao=0.22, tex=0.12, ragged=0.7, ink=None,
              skin=(232, 196, 170), shirt=(44, 52, 120), sleeve=(48, 56, 128), forearm=(48, 56, 128),
              glove=(232, 196, 170), pants=(44, 52, 120), boots=(60, 44, 36))
    sp["over_legs"] = robe_hook((46, 54, 124), (72, 168, 84))
    sp["torso_extra"] = lambda cx: [cx["P_"](strip_pts([cx["C"] + V(0.05, -0.01) * cx["h"], cx["P"] + V(0.06, 0.05) * cx["h"]],
                                                        0.035 * cx["h"]), (72, 168, 84))]

    def hat(cx):
        h, hc, lean, q = cx["h"], cx["head_c"], cx["lean"], cx["q"]
        hr = cx["sp"]["head_r"] * h
        brim = ellipse_pts(hc + V(0, -0.45 * hr), hr * 1.7, hr * 0.32, lean)
        base_l, base_r = hc + V(-0.95 * hr, -0.5 * hr), hc + V(0.95 * hr, -0.5 * hr)
        tip = hc + V(-1.2 * hr - q["sway"] * 2 * hr, -3.1 * hr)
        cone = np.concatenate([[base_l], bezier(base_l, hc + V(-0.4 * hr, -2.0 * hr), tip, 10),
                               bezier(tip, hc + V(0.5 * hr, -1.6 * hr), base_r, 10)], 0)
        beard = []
        rng = np.random.default_rng(31)
        for i in range(22):
            root = hc + V(rng.uniform(0.0, 0.75) * hr, rng.uniform(0.45, 0.8) * hr)
            L = rng.uniform(0.9, 1.7) * hr
            tip_b = root + V(-0.15 * L + math.sin(cx["t"] * 0.3 + i) * 0.05 * L, L)
            beard.append(part(strip_pts(bezier(root, root + V(0.12 * L, 0.5 * L), tip_b, 10), np.linspace(1.6, 0.4, 10)),
                              (236, 236, 228), style="flat"))
        return [cx["P_"](brim, (62, 40, 92), c=hc, R=hr * 1.7), cx["P_"](cone, (66, 42, 98), c=hc + V(0, -1.6 * hr), R=1.6 * hr)] + beard

    sp["head_extra"] = hat
    sp["far_item_front"] = staff_hook(1.02, (120, 84, 50), gem=(240, 120, 190))

    def veil(cx):
        t, h, q = cx["t"], cx["h"], cx["q"]
        env = keys(t, [(0, 0), (7, 0), (12, 1), (30, 1), (35, 0)])
        if env <= 0.01:
            return []
        ops = []
        mid = (cx["P"] + cx["C"]) / 2
        for k in range(3):
            ph = t * 0.32 + k * 2.1
            s = np.linspace(0, 1, 40)
            ang = ph + s * 5.0
            pts = np.stack([mid[0] + np.cos(ang) * (0.22 + 0.06 * k) * h * (0.6 + 0.4 * s),
                            mid[1] + 0.25 * h - s * (0.55 * h) + np.sin(ang) * 0.05 * h], 1)
            wid = 0.024 * h * np.sin(np.pi * s) ** 0.7 * env + 0.3
            ops.append(part(strip_pts(pts, wid), (190, 128, 250), style="flat", alpha=0.42 * env))
        hand = cx["Wn"] + dirv(cx["fan"]) * 0.06 * h
        r = 0.075 * h * (0.6 + 0.4 * env)
        fn = lambda X, Y: np.clip(1 - np.hypot(X - hand[0], Y - hand[1]) / r, 0, 1) ** 0.8 * 0.78 * env
        ops.append(part(ellipse_pts(hand, r, r), (214, 170, 255), style="flat", alpha_fn=fn))
        cx["kp"]["orb"] = hand
        return ops
    sp["front"] = veil
    rest = dict(BASE, sh_f=30, el_f=50, sh_n=10, el_n=20)

    def pose_at(t):
        p = dict(rest)
        p["sh_n"] = keys(t, [(0, 10), (3, 10), (10, 120), (22, 132), (25, 92), (30, 92), (37, 12)])
        p["el_n"] = keys(t, [(0, 20), (3, 20), (10, 25), (22, 30), (25, 4), (30, 4), (37, 20)])
        p["lean"] = keys(t, [(0, 0), (10, -6), (22, -8), (25, 8), (30, 8), (37, 0)])
        p["head"] = keys(t, [(0, 0), (10, -8), (22, -10), (25, 4), (37, 0)])
        p["sway"] = keys(t, [(0, 0), (10, 0.03), (22, 0.05), (25, -0.04), (37, 0.0)])
        return p

    def char(t):
        return humanoid(sp, pose_at(t), t)
    return Case("mage_veil_skill", W, H, n, "skill", [], char, crf=20, SS=3,
                key=(24, 196, 60), wrap=("blurinv", 4.0, 0.3), grad=(0.04, -0.1), vignette=0.22, seed=6,
                notes=dict(models="painterly wizard (navy robe with a green trim, 22 white beard strands, staff "
                                  "with a pink gem) casting: three violet see-through ribbons (alpha 0.42) spiral "
                                  "round him and a glowing orb (radial alpha to 0.78) grows in his hand, frames 7-35",
                           effect_in_truth=True, effect_alpha=[0.42, 0.78]))


def case_chibi_rim():
    n, W, H = 56, 640, 640
    sp = dict(PROP, h=430, pos=(300, 600), style="flat", ink=None, head_r=0.2, torso=0.2, neck=0.01,
              ua=0.1, fa=0.09, thigh=0.12, shin=0.11, foot=0.09, foot_r=0.032, arm_r=0.04, leg_r=0.05,
              chest_r=0.105, hip_r=0.11,
              skin=(252, 236, 222), shirt=(146, 226, 184), sleeve=(146, 226, 184), forearm=(252, 236, 222),
              glove=(252, 236, 222), pants=(40, 44, 84), boots=(248, 248, 246), far=0.86)

    def face(cx):
        h, hc, lean, q = cx["h"], cx["head_c"], cx["lean"], cx["q"]
        hr = cx["sp"]["head_r"] * h
        a = lean + q["head"]
        hood = ellipse_pts(hc + V(-0.06 * hr, -0.1 * hr), hr * 1.06, hr * 0.98, a, a0=150, a1=380, n=50)
        ears = [np.array([hc + V(-0.75 * hr, -0.6 * hr), hc + V(-0.55 * hr, -1.45 * hr), hc + V(-0.15 * hr, -0.9 * hr)]),
                np.array([hc + V(0.1 * hr, -0.95 * hr), hc + V(0.45 * hr, -1.5 * hr), hc + V(0.7 * hr, -0.7 * hr)])]
        ops = [part(hood, (150, 230, 188), style="cel", c=hc, R=hr), part(ears[0], (140, 218, 178), style="flat"),
               part(ears[1], (150, 230, 188), style="flat"),
               part(ears[1] * 0.6 + np.mean(ears[1], 0) * 0.4, (250, 190, 200), style="flat")]
        for ex, sc in ((0.2, 0.8), (0.62, 1.0)):
            c = hc + V(ex * hr, 0.12 * hr)
            ops.append(part(ellipse_pts(c, 0.1 * hr * sc, 0.17 * hr), (34, 28, 40), style="flat"))
            ops.append(part(ellipse_pts(c + V(-0.03 * hr, -0.06 * hr), 0.035 * hr, 0.045 * hr), (255, 255, 255), style="flat"))
        ops.append(part(ellipse_pts(hc + V(0.72 * hr, 0.42 * hr), 0.11 * hr, 0.06 * hr), (250, 170, 170), style="flat"))
        # tail
        return ops

    def tail(cx):
        h, P, t = cx["h"], cx["P"], cx["t"]
        base = P + V(-0.09 * h, -0.02 * h)
        pts = bezier(base, base + V(-0.16 * h, 0.02 * h), base + V(-0.2 * h, -0.18 * h + 0.03 * h * math.sin(t * 0.9)), 16)
        return [part(strip_pts(pts, np.linspace(0.06 * h, 0.025 * h, 16)), (146, 226, 184), style="cel", c=base, R=0.1 * h)]
    sp["back"] = [tail]
    sp["head_extra"] = face
    rest = dict(BASE, sh_n=12, sh_f=-10)

    def char(t):
        p = act_run(t, 14)
        p["lean"] = 8
        return humanoid(sp, eased(rest, p, t, 5), t)
    return Case("chibi_mascot_palerim_run", W, H, n, "run", [], char, crf=21, SS=3,
                key=(30, 206, 54), wrap=("dist", 3.0, 0.22), rim=((214, 250, 220), 1.6, 0.75), seed=7,
                notes=dict(models="flat-vector chibi mascot (head 40 % of its height) in a mint cat-ear hoodie, "
                                  "cream skin and white shoes, running; the model draws a pale green-tinted outline "
                                  "(214,250,220), 1.6 px wide at 75 % just OUTSIDE the silhouette (the notes' "
                                  "描边): not in the truth",
                           pale_rim_in_truth=False))


def case_hoop():
    n, W, H = 56, 512, 512
    sp = dict(PROP, h=370, pos=(280, 488), style="cel", ink=(INK, 0.9), outline=(INK, 1.0),
              skin=(198, 148, 108), shirt=(200, 48, 60), sleeve=(198, 148, 108), forearm=(198, 148, 108),
              glove=(198, 148, 108), pants=(240, 236, 228), boots=(120, 40, 44))
    sp["back"] = [hair_hook(18, 0.2, (22, 20, 24), 2.0, 0.6, seed=12, spread=(180, 280))]
    sp["head_extra"] = lambda cx: [cx["P_"](ellipse_pts(cx["head_c"] + V(-0.15, -0.25) * cx["sp"]["head_r"] * cx["h"],
                                                        cx["sp"]["head_r"] * cx["h"] * 0.95, cx["sp"]["head_r"] * cx["h"] * 0.75),
                                            (24, 20, 26), c=cx["head_c"], R=30),
                                   cx["P_"](ellipse_pts(cx["head_c"] + V(-0.7, -0.9) * cx["sp"]["head_r"] * cx["h"],
                                                        cx["sp"]["head_r"] * cx["h"] * 0.4, cx["sp"]["head_r"] * cx["h"] * 0.4),
                                            (24, 20, 26))]
    sp["torso_extra"] = lambda cx: [cx["P_"](capsule_pts(cx["P"] + V(-0.08, -0.04) * cx["h"], cx["P"] + V(0.08, -0.04) * cx["h"],
                                                          0.02 * cx["h"], 0.02 * cx["h"]), (230, 190, 80))]

    def hoop(cx):
        h, t = cx["h"], cx["t"]
        hand = cx["Wf"] + dirv(cx["faf"]) * 0.03 * h
        R = 0.27 * h
        rx = R * (0.56 + 0.44 * math.cos(2 * math.pi * t / 56))
        c = hand + V(-rx * 0.95, -0.02 * h)
        th = 7.0
        outer = ellipse_pts(c, rx, R, 4, n=72)
        inner = ellipse_pts(c, max(rx - th, 0.2), R - th, 4, n=72)
        ops = [cx["P_"](outer, dark((230, 190, 80), cx["FD"]), holes=[inner] if rx - th > 0.3 else [], c=c, R=R)]
        rng = np.random.default_rng(9)
        for k in range(3):
            a0 = math.radians(200 + 40 * k)
            root = c + V(rx * math.cos(a0), R * math.sin(a0))
            L = (0.2 + 0.05 * k) * h
            tip = root + V(-0.3 * L + math.sin(t * 0.5 + k) * 0.15 * L, L)
            ops.append(part(strip_pts(bezier(root, root + V(0.2 * L, 0.5 * L), tip, 14), np.linspace(2.2, 1.2, 14)),
                            [(240, 80, 120), (250, 210, 90), (90, 120, 230)][k], style="flat"))
        cx["kp"]["hoop"] = c + V(-rx, 0)
        return ops
    sp["far_item"] = hoop

    def ring(cx):
        h, t = cx["h"], cx["t"]
        hand = cx["Wn"] + dirv(cx["fan"]) * 0.035 * h
        r = 0.07 * h
        c = hand + dirv(cx["fan"]) * (r - 2)
        rx = r * (0.75 + 0.25 * math.sin(2 * math.pi * t / 28 + 1))
        cx["kp"]["ring"] = c
        return [cx["P_"](ellipse_pts(c, rx, r, 0, n=48), (230, 190, 80), holes=[ellipse_pts(c, rx - 4.5, r - 4.5, 0, n=48)],
                         c=c, R=r)]
    sp["front"] = ring
    rest = dict(BASE, sh_n=70, el_n=10, sh_f=120, el_f=20)

    def char(t):
        p = blend(rest, act_idle(t, 28, amp=1.2), 1.0)
        p["sh_n"] = 70 + 8 * math.sin(2 * math.pi * t / 28)
        p["el_n"] = 10 + 6 * math.sin(2 * math.pi * t / 28)
        p["sh_f"] = 120 + 10 * math.sin(2 * math.pi * t / 28 + 0.4)
        p["el_f"] = 20
        p["hip_n"], p["kn_n"], p["hip_f"], p["kn_f"] = 16, 4, -16, 4
        return humanoid(sp, p, t)
    return Case("hoop_dancer_idle", W, H, n, "idle", [], char, crf=20, SS=3,
                key=(36, 200, 52), wrap=("dist", 4.0, 0.3), seed=8,
                notes=dict(models="cel dancer, wide stance, holding up a gold hoop (7 px ring) that turns about "
                                  "its vertical axis, so its hole narrows from about 0.5x0.5 of her height to a "
                                  "sliver 7 px wide and back, and holding out a small ring (4.5 px rim, hole ~17x21 "
                                  "px) that also turns; three ribbons; the screen shows through every gap"))


def case_control():
    n, W, H = 56, 448, 448
    sp = dict(PROP, h=340, pos=(216, 420), style="flat", ink=None,
              skin=(232, 190, 160), shirt=(236, 210, 130), sleeve=(236, 210, 130), forearm=(232, 190, 160),
              glove=(232, 190, 160), pants=(52, 82, 156), boots=(92, 60, 40))
    sp["head_extra"] = lambda cx: [part(ellipse_pts(cx["head_c"] + V(-0.12, -0.22) * cx["sp"]["head_r"] * cx["h"],
                                                    cx["sp"]["head_r"] * cx["h"] * 0.95, cx["sp"]["head_r"] * cx["h"] * 0.72),
                                        (110, 66, 36), style="flat")]
    sp["torso_extra"] = lambda cx: [part(capsule_pts(cx["P"] + V(-0.02, 0.02) * cx["h"], cx["C"] + V(0.0, 0.03) * cx["h"],
                                                      0.07 * cx["h"], 0.06 * cx["h"]), (52, 82, 156), style="flat")]
    rest = dict(BASE)

    def char(t):
        return humanoid(sp, eased(rest, act_walk(t, 28), t), t)
    return Case("control_flat_villager_walk", W, H, n, "walk", [], char, crf=18, SS=3, key=(30, 200, 50),
                clean=True, shutter=0.5, seed=9,
                notes=dict(models="CONTROL: flat-vector villager walking; the clip is the truth composited "
                                  "exactly over a flat (30,200,50) screen, no wrap, rim, shadow, noise or flicker"))


def case_paladin():
    n, W, H = 73, 480, 832
    sp = dict(PROP, h=590, pos=(250, 800), style="dome", ao=0.25, tex=0.1, ragged=0.7, ink=None,
              skin=(226, 186, 160), shirt=(178, 184, 198), sleeve=(172, 178, 192), forearm=(172, 178, 192),
              glove=(150, 156, 170), pants=(160, 166, 180), boots=(110, 116, 130))
    sp["back"] = [cape_hook((170, 36, 42), 0.58, 0.2, holes=4, seed=14, style="dome")]

    def tabard(cx):
        h, P, C, up = cx["h"], cx["P"], cx["C"], cx["up"]
        n_ = perp(-up)
        top, bot = C - up * 0.02 * h, P + V(0.01 * h, 0.12 * h)
        poly = np.array([top + n_ * 0.07 * h, top - n_ * 0.065 * h, bot - n_ * 0.06 * h + V(-cx["q"]["sway"] * 0.3 * h, 0),
                         bot + n_ * 0.065 * h])
        cross_v = capsule_pts(lerp(top, bot, 0.15), lerp(top, bot, 0.6), 0.012 * h, 0.012 * h)
        cross_h = capsule_pts(lerp(top, bot, 0.3) - n_ * 0.04 * h, lerp(top, bot, 0.3) + n_ * 0.04 * h, 0.012 * h, 0.012 * h)
        return [cx["P_"](poly, (242, 240, 232), c=(top + bot) / 2, R=0.2 * h),
                cx["P_"]([cross_v, cross_h], (214, 176, 80))]
    sp["torso_extra"] = tabard
    sp["head_extra"] = helmet_hook((186, 192, 206), plume=((242, 242, 236), 20, 0.12), seed=15)

    def hammer(cx):
        h, Wn, fan = cx["h"], cx["Wn"], cx["fan"]
        d = dirv(fan + cx["q"]["wpn"])
        hand = Wn + dirv(fan) * 0.03 * h
        top = hand + d * 0.3 * h
        ops = [cx["P_"](capsule_pts(hand - d * 0.06 * h, top, 0.011 * h, 0.011 * h), (110, 76, 46))]
        ops.append(cx["P_"](box_pts(top, 0.17 * h, 0.08 * h, fan + cx["q"]["wpn"], bevel=0.01 * h), (190, 196, 210),
                            c=top, R=0.09 * h))
        cx["kp"]["tip"] = top
        return ops
    sp["near_item"] = hammer
    rest = dict(BASE, wpn=150)

    def char(t):
        still = blend(rest, act_idle(t, 28, amp=0.15), 1.0)
        walk = dict(act_walk(t - 14, 28), wpn=150)
        return humanoid(sp, blend(still, walk, ease((t - 14) / 6.0)), t)
    return Case("paladin_tatteredcape_easein_walk", W, H, n, "walk", [], char, crf=22, SS=2,
                key=(40, 194, 64), wrap=("add", 3.5, 0.25), grad=(0.0, -0.12), vignette=0.2, seed=10,
                notes=dict(models="painterly paladin, near-white tabard with a gold cross, silver plate, red cape "
                                  "with four torn holes showing the screen, war hammer; like a model's first "
                                  "stretch he barely moves for 14 frames, then walks (eases in over 6 frames); "
                                  "additive light wrap"))


def seg_box(A, B, w, extra=0.0):
    d = B - A
    ang = math.degrees(math.atan2(d[0], d[1]))
    return box_pts((A + B) / 2, w, float(np.hypot(*d)) + extra, ang, bevel=w * 0.18)


def case_elf_archer():
    n, W, H = 39, 704, 1280
    h = 900
    sp = dict(PROP, h=h, pos=(200, 1240), style="dome", ao=0.3, tex=0.05, ink=None,
              skin=(236, 200, 176), shirt=(58, 138, 64), sleeve=(58, 138, 64), forearm=(120, 84, 52),
              glove=(236, 200, 176), pants=(96, 72, 50), boots=(70, 50, 36))
    sp["back"] = [hair_hook(44, 0.26, (230, 200, 120), 1.1, 0.45, seed=16, spread=(150, 330), curl=0.3)]

    def head_extra(cx):
        hc, hr = cx["head_c"], cx["sp"]["head_r"] * cx["h"]
        cap = ellipse_pts(hc + V(-0.3 * hr, -0.3 * hr), hr * 0.85, hr * 0.75, cx["lean"])
        ear = np.array([hc + V(-0.05 * hr, 0.1 * hr), hc + V(-0.45 * hr, -0.75 * hr), hc + V(-0.3 * hr, 0.25 * hr)])
        eye = ellipse_pts(hc + V(0.5 * hr, 0.0), 0.07 * hr, 0.09 * hr)
        return [cx["P_"](cap, (230, 200, 120), c=hc, R=hr), cx["P_"](ear, (236, 200, 176)), part(eye, (40, 60, 40))]
    sp["head_extra"] = head_extra
    RELEASE = 22

    def bow(cx):
        t, h, q = cx["t"], cx["h"], cx["q"]
        hand = cx["Wn"] + dirv(cx["fan"]) * 0.03 * h
        a = cx["fan"]
        d, ax = dirv(a), perp(dirv(a))
        draw = cx["Wf"] + dirv(cx["faf"]) * 0.03 * h
        drawn = 8 <= t < RELEASE - 0.5
        pull = float(np.hypot(*(draw - hand))) if drawn else 0.0
        Lb = 0.29 * h
        flex = 0.05 * h + (0.04 * h * min(1.0, pull / (0.35 * h)) if drawn else 0.0)
        tip1, tip2 = hand + ax * Lb - d * flex, hand - ax * Lb - d * flex
        limb1 = bezier(hand, hand + ax * Lb * 0.6 + d * 0.03 * h, tip1, 14)
        limb2 = bezier(hand, hand - ax * Lb * 0.6 + d * 0.03 * h, tip2, 14)
        ops = [part(strip_pts(limb1, np.linspace(7, 1.6, 14)), (120, 80, 44), style="dome", c=hand, R=Lb),
               part(strip_pts(limb2, np.linspace(7, 1.6, 14)), (120, 80, 44), style="dome", c=hand, R=Lb)]
        if drawn:
            N = draw
        else:
            vib = 0.012 * h * math.exp(-(t - RELEASE) / 2.0) * math.cos((t - RELEASE) * 4.0) if t >= RELEASE - 0.5 else 0.0
            N = (tip1 + tip2) / 2 - d * vib
        ops.append(part(strip_pts(np.array([tip1, N]), 0.6), (236, 232, 220), style="flat"))
        ops.append(part(strip_pts(np.array([N, tip2]), 0.6), (236, 232, 220), style="flat"))
        L = 0.34 * h
        show = None
        if drawn and pull >= L - 30:
            ad = (hand - N) / max(1e-6, pull)
            show = (hand + ad * 20 - ad * L, ad)
        elif RELEASE - 0.5 <= t < RELEASE + 0.5:
            show = (hand + d * 20 - d * L + d * 120 * (t - RELEASE + 0.5), d)
        if show is not None:
            nock, ad = show
            tip = nock + ad * L
            an = perp(ad)
            ops.append(part(strip_pts(np.array([nock, tip - ad * 14]), 1.4), (150, 110, 70), style="flat"))
            ops.append(part(np.array([tip - ad * 16 + an * 4, tip + an * 0.15, tip - an * 0.15, tip - ad * 16 - an * 4]),
                            (200, 204, 214), style="flat"))
            for sgn in (1, -1):
                ops.append(part(np.array([nock + ad * 3, nock + ad * 24, nock + ad * 2 + an * 7 * sgn]), (236, 236, 230),
                                style="flat"))
            cx["kp"]["arrow"] = tip
        cx["kp"]["bow1"], cx["kp"]["bow2"] = tip1, tip2
        return ops
    sp["front"] = bow
    rest = dict(BASE, sh_n=15, el_n=12, sh_f=-6, el_f=16)

    def pose_at(t):
        p = dict(rest)
        p["sh_n"] = keys(t, [(0, 15), (3, 15), (9, 86), (30, 86), (37, 15)])
        p["el_n"] = keys(t, [(0, 12), (3, 12), (9, 2), (30, 2), (37, 12)])
        p["sh_f"] = keys(t, [(0, -6), (4, -6), (8, 72), (10, 72), (19, -92), (RELEASE, -92), (RELEASE + 1.2, -112), (30, -60), (37, -6)])
        p["el_f"] = keys(t, [(0, 16), (4, 16), (8, 14), (10, 14), (19, 186), (RELEASE, 186), (RELEASE + 1.2, 160), (30, 80), (37, 16)])
        p["lean"] = keys(t, [(0, 0), (9, -3), (RELEASE, -4), (RELEASE + 2, -1), (37, 0)])
        p["hip_n"] = keys(t, [(0, 5), (6, 14), (30, 14), (37, 5)])
        p["hip_f"] = keys(t, [(0, -4), (6, -12), (30, -12), (37, -4)])
        p["head"] = keys(t, [(0, 0), (9, 4), (30, 4), (37, 0)])
        return p

    def char(t):
        q = pose_at(t)
        ops, kp, ct = humanoid(sp, q, t)
        return ops, kp, ct
    return Case("elf_archer_greenwrap_attack", W, H, n, "attack", [], char, crf=19, SS=2,
                key=(40, 190, 70), wrap=("dist", 6.0, 0.35), grad=(0.05, -0.06), seed=11, maxsub=7,
                notes=dict(models="shaded elf archer in a green tunic (58,138,64) under a 6 px, 35 % wrap (the "
                                  "issue's hardest kind), 44 blond strands 1.1-0.45 px, a 0.6 px bow string, an "
                                  "arrow with a 0.3 px point; draws, releases at frame 22 (the arrow flies blurred "
                                  "for that frame and is gone after, as models drop it), the string vibrates"))


def fox_ops(t, L, gx, gy, period, st):
    ph = 2 * math.pi * t / period
    O, W_, D, T = (214, 112, 44), (244, 240, 232), (52, 36, 32), (30, 146, 150)
    body_y = 0.0
    Hq, Sq = V(-0.3 * L, body_y), V(0.3 * L, body_y - 0.02 * L)
    legs = []
    for name, base, phase, hind, near in (("lh", Hq, 0.0, True, False), ("lf", Sq, 0.25, False, False),
                                          ("rh", Hq, 0.5, True, True), ("rf", Sq, 0.75, False, True)):
        a = 24 * math.sin(ph + 2 * math.pi * phase)
        k = 38 * max(0.0, math.cos(ph + 2 * math.pi * phase)) ** 1.5
        b = base + V(0.02 * L if near else -0.02 * L, 0.05 * L)
        if hind:
            kn = b + dirv(a + 28) * 0.22 * L
            an = kn + dirv(a - 32 - k * 0.6) * 0.2 * L
        else:
            kn = b + dirv(a - 5) * 0.2 * L
            an = kn + dirv(a + 8 - k) * 0.2 * L
        paw = an + dirv(90) * 0.04 * L
        legs.append((name, b, kn, an, paw, near, hind))
    low = max(max(l[3][1], l[4][1]) for l in legs) + 0.03 * L
    sh = V(gx, gy - low + 0.008 * L * math.cos(2 * ph))
    ops, kp = [], {}

    def leg_ops(lg, k):
        name, b, kn, an, paw, near, hind = lg
        b, kn, an, paw = b + sh, kn + sh, an + sh, paw + sh
        r0 = 0.075 * L if hind else 0.055 * L
        return [part(capsule_pts(b, kn, r0, 0.035 * L), dark(O, k), style=st, c=b, R=0.12 * L, tex=0.15, ragged=0.6),
                part(capsule_pts(kn, an, 0.03 * L, 0.024 * L), dark(D, k), style=st, c=kn, R=0.1 * L),
                part(capsule_pts(an, paw, 0.028 * L, 0.026 * L), dark(D, k), style=st, c=an, R=0.05 * L)]
    for lg in legs:
        if not lg[5]:
            ops += leg_ops(lg, 0.72)
    # tail
    tb = Hq + sh + V(-0.08 * L, -0.05 * L)
    sw = 0.06 * L * math.sin(ph + 0.8)
    tail = bezier(tb, tb + V(-0.3 * L, -0.14 * L), tb + V(-0.62 * L, 0.02 * L + sw), 24)
    wid = 0.03 * L + 0.17 * L * np.sin(np.linspace(0.15, 1.0, 24) * math.pi) ** 0.8
    ops.append(part(strip_pts(tail, wid), O, style=st, c=tail[12], R=0.2 * L, tex=0.15, ragged=0.8))
    ops.append(part(strip_pts(tail[17:], wid[17:] * 0.96), W_, style=st, c=tail[20], R=0.1 * L, tex=0.1, ragged=0.8))
    rng = np.random.default_rng(4)
    for i in range(28):
        j = int(rng.integers(6, 24))
        nrm = perp(tail[min(j + 1, 23)] - tail[j - 1])
        nrm = nrm / max(1e-6, float(np.hypot(*nrm))) * (1 if rng.random() < 0.5 else -1)
        root = tail[j] + nrm * wid[j] * 0.42
        tip = root + nrm * rng.uniform(0.03, 0.07) * L + V(-rng.uniform(0.01, 0.04) * L, 0)
        ops.append(part(strip_pts(bezier(root, (root + tip) / 2 + V(-0.01 * L, 0), tip, 6), np.linspace(1.0, 0.35, 6)),
                        W_ if j >= 18 else O, style="flat"))
    # body
    ops.append(part(capsule_pts(Hq + sh, Sq + sh, 0.15 * L, 0.17 * L), O, style=st, c=(Hq + Sq) / 2 + sh, R=0.35 * L,
                    tex=0.15, ragged=0.8, ao=0.2))
    ops.append(part(ellipse_pts(Sq + sh + V(0.05 * L, 0.08 * L), 0.12 * L, 0.1 * L, 20), W_, style=st, c=Sq + sh, R=0.15 * L,
                    tex=0.1, ragged=1.0))
    for lg in legs:
        if lg[5]:
            ops += leg_ops(lg, 1.0)
    # neck and head
    hb = Sq + sh + V(0.14 * L, -0.2 * L) + V(0, 0.01 * L * math.sin(2 * ph))
    ops.append(part(capsule_pts(Sq + sh + V(0.02 * L, -0.04 * L), hb, 0.12 * L, 0.085 * L), O, style=st, c=hb, R=0.15 * L,
                    tex=0.15, ragged=0.7))
    ops.append(part(capsule_pts(Sq + sh + V(0.09 * L, -0.1 * L), Sq + sh + V(0.0, -0.16 * L), 0.025 * L, 0.025 * L), T,
                    style="dome", c=Sq + sh, R=0.05 * L))
    ops.append(part(ellipse_pts(Sq + sh + V(0.1 * L, -0.08 * L), 0.016 * L, 0.02 * L), (230, 190, 70), style="dome"))
    hc = hb + V(0.04 * L, -0.04 * L)
    ops.append(part(ellipse_pts(hc, 0.12 * L, 0.1 * L), O, style=st, c=hc, R=0.12 * L, tex=0.12, ragged=0.6))
    ops.append(part(capsule_pts(hc + V(0.05 * L, 0.02 * L), hc + V(0.21 * L, 0.05 * L), 0.06 * L, 0.022 * L), O,
                    style=st, c=hc, R=0.15 * L))
    ops.append(part(capsule_pts(hc + V(0.03 * L, 0.06 * L), hc + V(0.19 * L, 0.065 * L), 0.04 * L, 0.014 * L), W_,
                    style=st, c=hc, R=0.15 * L))
    ops.append(part(ellipse_pts(hc + V(0.215 * L, 0.045 * L), 0.018 * L, 0.014 * L), (20, 16, 16), style="flat"))
    ops.append(part(ellipse_pts(hc + V(0.07 * L, -0.02 * L), 0.014 * L, 0.01 * L, -15), (26, 20, 18), style="flat"))
    for ex in (-0.07, 0.0):
        e = np.array([hc + V((ex - 0.03) * L, -0.06 * L), hc + V((ex + 0.0) * L, -0.22 * L), hc + V((ex + 0.05) * L, -0.06 * L)])
        ops.append(part(e, O if ex == 0.0 else dark(O, 0.8), style=st, c=hc, R=0.1 * L))
        ops.append(part(e * 0.4 + e[1] * 0.6, (40, 30, 28), style="flat"))
    rng = np.random.default_rng(5)
    for i in range(16):
        root = Sq + sh + V(rng.uniform(0.0, 0.12) * L, rng.uniform(0.02, 0.15) * L)
        tip = root + V(rng.uniform(0.02, 0.05) * L, rng.uniform(0.03, 0.06) * L)
        ops.append(part(strip_pts(np.array([root, tip]), np.array([1.2, 0.35])), W_, style="flat"))
    kp.update(paws=[l[4] + sh for l in legs][3], paw2=[l[4] + sh for l in legs][2], tail=tail[-1], head=hc)
    return ops, kp, (float(gx), float(gy), 0.42 * L, 1.0)


def case_fox():
    n, W, H = 56, 832, 480
    L = 360

    def char(t):
        return fox_ops(t, L, 430, 452, 28, "dome")
    return Case("fox_companion_walk", W, H, n, "walk", [], char, crf=21, SS=3,
                key=(28, 204, 56), wrap=("blurinv", 3.5, 0.3), grad=(0.07, -0.04), seed=12, maxsub=6,
                notes=dict(models="painterly fox companion walking (a quadruped: four legs in a lateral-sequence "
                                  "gait), ragged-edged orange fur, white chest and tail tip, 28 tail and 16 chest "
                                  "fur strands 1.2-0.35 px, teal collar with a gold tag, dark socks"))


def owl_ops(t, c, s, period=10.0):
    th = 55 * math.sin(2 * math.pi * t / period)
    B, Cr, Dk = (140, 100, 66), (236, 220, 190), (86, 60, 40)
    sh = c + V(-0.04 * s, -0.14 * s)

    def wing(k, side):
        ang = -(100 + th) + side * 10
        d = dirv(ang)
        tip = sh + d * 0.95 * s
        xa = math.degrees(math.atan2(d[1], d[0]))
        ops_w = [part(ellipse_pts(sh + d * 0.45 * s, 0.5 * s, 0.19 * s, xa), dark(B, k), style="dome", c=sh, R=0.6 * s, tex=0.15)]
        n_ = perp(d)
        for j in range(4):
            fc_ = sh + d * (0.62 + 0.1 * j) * s - n_ * (0.1 - 0.04 * j) * s * (1 if side > 0 else 1)
            ops_w.append(part(ellipse_pts(fc_, 0.16 * s, 0.06 * s, xa + 10 + 8 * j), dark(Dk, k * 1.2), style="soft", c=sh, R=0.6 * s))
        return ops_w, tip
    ops = []
    w1, tip1 = wing(0.7, -1)
    ops += w1
    ops.append(part(ellipse_pts(c, 0.36 * s, 0.5 * s), B, style="dome", c=c, R=0.5 * s, tex=0.12, ao=0.2))
    ops.append(part(ellipse_pts(c + V(0.08 * s, 0.12 * s), 0.24 * s, 0.32 * s), Cr, style="dome", c=c, R=0.4 * s, tex=0.25))
    fc = c + V(0.12 * s, -0.27 * s)
    ops.append(part(ellipse_pts(fc, 0.27 * s, 0.2 * s), (222, 204, 172), style="dome", c=fc, R=0.3 * s))
    for e in (-0.1, 0.12):
        ec = fc + V(e * s, -0.01 * s)
        ops.append(part(ellipse_pts(ec, 0.08 * s, 0.08 * s), (240, 200, 40), style="flat"))
        ops.append(part(ellipse_pts(ec + V(0.015 * s, 0), 0.04 * s, 0.045 * s), (12, 10, 10), style="flat"))
    ops.append(part(np.array([fc + V(0.0, 0.04 * s), fc + V(0.06 * s, 0.06 * s), fc + V(0.01 * s, 0.14 * s)]),
                    (230, 150, 40), style="flat"))
    for e in (-0.2, 0.16):
        ops.append(part(np.array([fc + V(e * s, -0.12 * s), fc + V((e - 0.02) * s, -0.3 * s), fc + V((e + 0.1) * s, -0.14 * s)]),
                        Dk, style="flat"))
    for e in (-0.06, 0.08):
        ops.append(part(capsule_pts(c + V(e * s, 0.45 * s), c + V((e + 0.03) * s, 0.58 * s), 0.03 * s, 0.025 * s),
                        (200, 140, 60), style="flat"))
    w2, tip2 = wing(1.0, 1)
    ops += w2
    return ops, dict(owl1=tip1, owl2=tip2, owlc=c)


def case_hero_owl():
    n, W, H = 56, 1280, 704
    sp = dict(PROP, h=460, pos=(520, 670), style="cel", ink=(INK, 1.1), outline=(INK, 1.3),
              skin=(222, 178, 144), shirt=(110, 72, 46), sleeve=(104, 68, 44), forearm=(104, 68, 44),
              glove=(70, 50, 36), pants=(44, 56, 92), boots=(62, 44, 32))
    sp["back"] = [hair_hook(20, 0.1, (96, 60, 34), 3.0, 1.0, seed=18, spread=(170, 300), curl=0.4),
                  lambda cx: sword_hook(0.3, 0.03, (200, 206, 216), (180, 150, 70), (70, 46, 30))(
                      dict(cx, Wn=cx["C"] + V(0.06, 0.05) * cx["h"], fan=-140.0, q=dict(cx["q"], wpn=0.0)))]

    def scarf(cx):
        h, Nk, t, q = cx["h"], cx["Nk"], cx["t"], cx["q"]
        root = Nk + V(-0.02 * h, 0.02 * h)
        pts = [root + V(-0.04 * h * i - q["sway"] * 0.2 * h * i, 0.012 * h * i + 0.018 * h * math.sin(t * 0.6 + i * 0.9) * (i / 6))
               for i in range(5)]
        return [cx["P_"](capsule_pts(Nk + V(-0.03 * h, 0.015 * h), Nk + V(0.04 * h, 0.02 * h), 0.025 * h, 0.025 * h), (56, 140, 70)),
                cx["P_"](strip_pts(np.array(pts), np.linspace(0.04 * h, 0.025 * h, 5)), (56, 140, 70), c=root, R=0.2 * h)]
    sp["head_extra"] = lambda cx: [cx["P_"](ellipse_pts(cx["head_c"] + V(-0.12, -0.3) * cx["sp"]["head_r"] * cx["h"],
                                                        cx["sp"]["head_r"] * cx["h"], cx["sp"]["head_r"] * cx["h"] * 0.7),
                                            (96, 60, 34), c=cx["head_c"], R=30)] + scarf(cx)
    rest = dict(BASE)

    def char(t):
        ops, kp, ct = humanoid(sp, eased(rest, act_walk(t, 28), t), t)
        oc = V(830 + 14 * math.sin(2 * math.pi * t / 28), 300 + 16 * math.sin(2 * math.pi * t / 14 + 1))
        o_ops, o_kp = owl_ops(t, oc, 110)
        kp.update(o_kp)
        return ops + o_ops, kp, [ct, (float(oc[0]), 670.0, 60.0, 0.35)]
    return Case("hero_owl_pair_walk", W, H, n, "walk", [], char, crf=21, SS=2,
                key=(34, 200, 46), wrap=("dist", 4.0, 0.3), grad=(0.08, -0.05), vignette=0.2, seed=13, maxsub=8,
                blurstep=3.0,
                notes=dict(models="cel adventurer (brown coat, green scarf, sword on his back) walking with an owl "
                                  "companion flapping beside his head, 70-125 px clear of him: two separate parts, both "
                                  "in the truth; blurred wing beats; a faint shadow under the owl"))


def mech_ops(sp, q, t):
    h = sp["h"]
    gx, gy = sp["pos"]
    lean = q["lean"]
    up = -dirv(lean)
    P = V(0, 0)
    C = P + up * 0.3 * h
    Hn, Hf = P + V(0.05 * h, 0.03 * h), P + V(-0.05 * h, 0.03 * h)

    def leg(Hp, a, k):
        K = Hp + dirv(a) * 0.21 * h
        A = K + dirv(a - k) * 0.22 * h
        return K, A
    Kn, An = leg(Hn, q["hip_n"], q["kn_n"])
    Kf, Af = leg(Hf, q["hip_f"], q["kn_f"])
    low = max(An[1], Af[1]) + 0.05 * h
    shv = V(gx + q["dx"] * h, gy - low)
    P, C, Hn, Hf, Kn, An, Kf, Af = [x + shv for x in (P, C, Hn, Hf, Kn, An, Kf, Af)]
    Sn, Sf = C + V(0.1 * h, 0.02 * h), C + V(-0.08 * h, 0.0)
    En = Sn + dirv(q["sh_n"] + lean) * 0.15 * h
    Wn = En + dirv(q["sh_n"] + q["el_n"] + lean) * 0.16 * h
    Ef = Sf + dirv(q["sh_f"] + lean) * 0.14 * h
    Wf = Ef + dirv(q["sh_f"] + q["el_f"] + lean) * 0.12 * h
    Wh, Or, Dk, Jt = (214, 218, 226), (232, 122, 34), (72, 76, 86), (16, 16, 20)
    spec = (2.2, 0.95)
    arm = lambda cont, col, k=1.0, **kw: part(cont, dark(col, k), style="dome", light=0.6, **kw)
    ops = []
    # far leg, far arm (cannon)
    ops += [arm(seg_box(Hf, Kf, 0.09 * h), Dk, 0.7), arm(ellipse_pts(Kf, 0.045 * h, 0.045 * h), Jt),
            arm(seg_box(Kf, Af, 0.12 * h, 0.03 * h), Wh, 0.72, spec=spec),
            arm(np.array([Af + V(-0.07 * h, -0.01 * h), Af + V(0.1 * h, 0.0), Af + V(0.12 * h, 0.05 * h), Af + V(-0.08 * h, 0.05 * h)]), Dk, 0.7)]
    ops += [arm(seg_box(Sf, Ef, 0.08 * h), Dk, 0.7), arm(ellipse_pts(Ef, 0.04 * h, 0.04 * h), Jt)]
    bd = dirv(q["sh_f"] + q["el_f"] + lean)
    ops += [arm(seg_box(Ef, Ef + bd * 0.3 * h, 0.075 * h), (92, 96, 108), 0.75, spec=spec),
            arm(seg_box(Ef + bd * 0.28 * h, Ef + bd * 0.34 * h, 0.095 * h), Jt)]
    # pelvis, torso, head
    ops.append(arm(box_pts(P + V(0, 0.01 * h), 0.2 * h, 0.09 * h, lean, bevel=0.02 * h), Dk))
    ops += [arm(ellipse_pts(Hf, 0.04 * h, 0.04 * h), Jt), arm(ellipse_pts(Hn, 0.045 * h, 0.045 * h), Jt)]
    tc = P + up * 0.17 * h
    ops.append(arm(box_pts(tc, 0.34 * h, 0.26 * h, lean, bevel=0.05 * h), Wh, c=tc, R=0.2 * h, spec=spec))
    ops.append(arm(box_pts(tc + V(0.07 * h, 0.02 * h), 0.1 * h, 0.12 * h, lean, bevel=0.015 * h), Or, c=tc, R=0.15 * h, spec=spec))
    for i in range(3):
        ops.append(part(box_pts(tc + V(-0.07 * h, (-0.05 + 0.04 * i) * h), 0.1 * h, 0.012 * h, lean), Jt, style="flat"))
    hc = C + up * 0.07 * h + V(0.02 * h, 0)
    ops.append(arm(box_pts(hc, 0.15 * h, 0.1 * h, lean, bevel=0.02 * h), Wh, c=hc, R=0.1 * h, spec=spec))
    ops.append(part(box_pts(hc + V(0.035 * h, 0.0), 0.07 * h, 0.022 * h, lean), (90, 230, 240), style="flat"))
    ant0 = hc + V(-0.05 * h, -0.05 * h)
    ant1 = ant0 + V(-0.03 * h + 0.004 * h * math.sin(t * 1.3), -0.13 * h)
    ops.append(part(strip_pts(np.array([ant0, (ant0 + ant1) / 2 + V(0.003 * h, 0), ant1]), np.array([2.2, 1.2, 0.8])), Dk, style="flat"))
    ops.append(part(ellipse_pts(ant1, 2.6, 2.6), (230, 40, 40), style="flat"))
    # near leg
    ops += [arm(seg_box(Hn, Kn, 0.1 * h), Dk), arm(ellipse_pts(Kn, 0.05 * h, 0.05 * h), Jt),
            arm(seg_box(Kn, An, 0.13 * h, 0.03 * h), Wh, c=(Kn + An) / 2, R=0.12 * h, spec=spec),
            arm(seg_box(lerp(Kn, An, 0.3), lerp(Kn, An, 0.5), 0.135 * h), Or),
            arm(np.array([An + V(-0.08 * h, -0.01 * h), An + V(0.1 * h, 0.0), An + V(0.13 * h, 0.055 * h), An + V(-0.09 * h, 0.055 * h)]),
                Dk, spec=spec)]
    # near arm with the fist, pauldron
    ops += [arm(seg_box(Sn, En, 0.085 * h), Dk), arm(ellipse_pts(En, 0.045 * h, 0.045 * h), Jt),
            arm(seg_box(En, Wn, 0.12 * h, 0.02 * h), Wh, c=(En + Wn) / 2, R=0.1 * h, spec=spec)]
    fd = dirv(q["sh_n"] + q["el_n"] + lean)
    fist = Wn + fd * 0.05 * h
    ops.append(arm(box_pts(fist, 0.11 * h, 0.1 * h, q["sh_n"] + q["el_n"] + lean, bevel=0.02 * h), Dk, spec=spec))
    ops.append(arm(box_pts(Sn + V(0, -0.02 * h), 0.17 * h, 0.13 * h, lean - 10, bevel=0.035 * h), Or, c=Sn, R=0.1 * h, spec=spec))
    kp = dict(fist=fist, muzzle=Ef + bd * 0.34 * h, an=An, af=Af, head=hc)
    return ops, kp, (float(P[0]), float(gy), 0.3 * h, 1.0)


def case_mech():
    n, W, H = 39, 1280, 704
    sp = dict(h=560, pos=(540, 680))
    rest = dict(BASE, sh_n=10, el_n=30, sh_f=40, el_f=50, hip_n=10, kn_n=10, hip_f=-10, kn_f=8)

    def pose_at(t):
        p = dict(rest)
        p["sh_n"] = keys(t, [(0, 10), (3, 10), (11, -45), (13, -45), (15.5, 88), (22, 88), (31, 10)])
        p["el_n"] = keys(t, [(0, 30), (3, 30), (11, 100), (13, 100), (15.5, 0), (22, 0), (31, 30)])
        p["lean"] = keys(t, [(0, 0), (11, -5), (13, -5), (15.5, 9), (22, 9), (31, 0)])
        p["dx"] = keys(t, [(0, 0), (11, -0.02), (15.5, 0.04), (22, 0.04), (31, 0.0)])
        p["hip_n"] = keys(t, [(0, 10), (11, 6), (15.5, 24), (22, 24), (31, 10)])
        p["kn_n"] = keys(t, [(0, 10), (11, 14), (15.5, 26), (22, 26), (31, 10)])
        p["hip_f"] = keys(t, [(0, -10), (15.5, -20), (22, -20), (31, -10)])
        p["sh_f"] = keys(t, [(0, 40), (11, 55), (15.5, 20), (22, 20), (31, 40)])
        p["el_f"] = keys(t, [(0, 50), (11, 40), (15.5, 60), (31, 50)])
        return p

    def char(t):
        return mech_ops(sp, pose_at(t), t)
    return Case("mech_specular_attack", W, H, n, "attack", [], char, crf=20, SS=2,
                key=(32, 200, 60), wrap=("dist", 3.0, 0.25), grad=(-0.06, -0.06), seed=14, maxsub=8,
                notes=dict(models="white-and-orange mech (hard panels) with HARD near-white specular edges "
                                  "(250,251,248) 2.2 px wide on every panel edge facing the light, in the truth: "
                                  "true white at the silhouette, where a light fringe would be; near-black joints, "
                                  "cyan visor, 0.8 px antenna; a blurred rocket punch"))


def eye_ops(t, cx0, cy0, R, st="dome"):
    lift = keys(t, [(0, 0), (6, 0), (16, -0.22), (18, -0.24), (21, 0.08), (24, 0.05), (38, 0)]) * R
    pulse = 1 + keys(t, [(0, 0), (16, 0.03), (19, 0.09), (23, 0.0)])
    spread = keys(t, [(0, 0), (6, 0), (16, 1.0), (18, 1.0), (21, -0.6), (25, -0.4), (38, 0)])
    c = V(cx0, cy0 + lift + 0.03 * R * math.sin(t * 0.5))
    Pu, Dk, Sc = (118, 64, 140), (30, 20, 34), (242, 238, 226)
    ops, kp = [], {}
    base_angles = [28, 52, 74, 96, 116, 138, 160, 84]
    for i, ba in enumerate(base_angles):
        far = i % 2 == 1
        a0 = math.radians(ba)
        root = c + V(math.cos(a0), math.sin(a0)) * R * 0.78
        Ln = R * (1.15 + 0.22 * (i % 3))
        s = np.linspace(0, 1, 26)
        out = (90 - ba) * 0.8
        dir0 = out * (1 + 0.9 * max(0.0, spread)) * (1 - 0.4 * max(0.0, -spread))
        curl = (70 * spread * s if spread > 0 else 0 * s) * (1 if out >= 0 else -1)
        bend = dir0 + 28 * np.sin(4.0 * s - t * 0.45 + i) * s + curl
        pts = [root]
        for k in range(1, 26):
            pts.append(pts[-1] + dirv(float(bend[k])) * Ln / 25)
        pts = np.array(pts)
        wid = 0.3 * R * (1 - s) ** 1.1 + 0.3
        op = part(strip_pts(pts, wid), dark(Pu, 0.75 if far else 0.95), style=st, c=root, R=Ln * 0.5, tex=0.12, ragged=0.0)
        ops.insert(0, op) if far else ops.append(op)
        kp[f"tip{i}"] = pts[-1]
    ops.append(part(ellipse_pts(c, R * pulse, R * 0.95 * pulse), Pu, style=st, c=c, R=R, tex=0.15, ragged=0.8, ao=0.25))
    for k in range(3):
        b = c + V((-0.4 + 0.4 * k) * R, -0.88 * R)
        ops.append(part(np.array([b + V(-0.12 * R, 0.1 * R), b + V(0.03 * R * (k - 1), -0.42 * R), b + V(0.12 * R, 0.1 * R)]),
                        Dk, style=st, c=b, R=0.3 * R))
    ec = c + V(0.12 * R, 0.02 * R)
    er = 0.52 * R * (1 + 0.25 * max(0.0, spread))
    ops.append(part(ellipse_pts(ec, er, er * 0.9), Sc, style="soft", c=ec, R=er))
    ops.append(part(ellipse_pts(ec + V(0.15 * er, 0), 0.45 * er, 0.45 * er), (24, 150, 140), style="dome", c=ec, R=0.4 * er))
    ops.append(part(ellipse_pts(ec + V(0.2 * er, 0), 0.2 * er, 0.3 * er), (10, 8, 12), style="flat"))
    ops.append(part(ellipse_pts(ec + V(0.05 * er, -0.2 * er), 0.08 * er, 0.08 * er), (255, 255, 255), style="flat"))
    lid = ellipse_pts(ec, er * 1.08, er * 1.0, 0, a0=180, a1=360, n=30)
    lid = np.concatenate([lid, ellipse_pts(ec + V(0, -0.25 * er), er * 1.0, er * 0.5, 0, a0=0, a1=-180, n=30)], 0)
    ops.append(part(lid, dark(Pu, 0.85), style=st, c=ec, R=er))
    kp["c"] = c
    return ops, kp, (float(c[0]), 610.0, 1.1 * R, 0.45)


def case_eye():
    n, W, H = 39, 640, 640

    def char(t):
        return eye_ops(t, 320, 235, 118)
    return Case("eye_tentacle_monster_skill", W, H, n, "skill", [], char, crf=21, SS=3,
                key=(30, 196, 54), wrap=("blurinv", 4.5, 0.3), grad=(0.05, -0.1), vignette=0.25, seed=15, maxsub=7,
                notes=dict(models="painterly floating eye monster: purple body, near-white eye with a teal iris, "
                                  "near-black horns, eight tentacles tapering from 35 px to 0.3 px tips that wave, "
                                  "spread and whip (blurred) in the skill; it hovers: only a faint shadow far below"))


def pixel_goblin(t, k=7, LW=64, LH=64):
    hit = keys(t, [(0, 0), (1, 0), (2.2, 1), (5, 1), (12, 0.2), (18, 0)])
    sp = dict(PROP, h=44, pos=(30.5, 60.0), style="cel", ink=None, head_r=0.13, torso=0.22, neck=0.02,
              ua=0.13, fa=0.12, thigh=0.17, shin=0.16, foot=0.1, foot_r=0.035, arm_r=0.045, leg_r=0.055,
              chest_r=0.11, hip_r=0.1, skin=(112, 150, 58), shirt=(110, 76, 44), sleeve=(112, 150, 58),
              forearm=(112, 150, 58), glove=(112, 150, 58), pants=(60, 48, 40), boots=(40, 30, 26), far=0.8)

    def head_extra(cx):
        hc, hr = cx["head_c"], cx["sp"]["head_r"] * cx["h"]
        ear = np.array([hc + V(-0.3 * hr, -0.2 * hr), hc + V(-1.6 * hr, -0.7 * hr), hc + V(-0.4 * hr, 0.25 * hr)])
        return [part(ear, (100, 136, 50), style="flat"),
                part(ellipse_pts(hc + V(0.5 * hr, -0.1 * hr), 0.16 * hr, 0.16 * hr), (220, 40, 30), style="flat"),
                part(np.array([hc + V(0.55 * hr, 0.35 * hr), hc + V(1.2 * hr, 0.5 * hr), hc + V(0.6 * hr, 0.6 * hr)]),
                     (100, 136, 50), style="flat")]
    sp["head_extra"] = head_extra
    sp["near_item"] = sword_hook(0.3, 0.06, (190, 196, 206), (120, 90, 50), (80, 56, 36), tip_w=0.5)
    sp["outline"] = ((28, 24, 20), 1)
    p = dict(BASE, wpn=80)
    p["lean"] = keys(t, [(0, 0), (1, 0), (3, -22), (6, -18), (14, 2), (21, 0)])
    p["dx"] = keys(t, [(0, 0), (1, 0), (3, -0.09), (7, -0.1), (16, -0.02), (21, 0)])
    p["head"] = keys(t, [(0, 0), (1, 0), (3, -18), (7, -10), (16, 0)])
    p["sh_n"] = keys(t, [(0, 8), (1, 8), (3, 60), (8, 40), (16, 8)])
    p["sh_f"] = keys(t, [(0, -6), (1, -6), (3, 70), (8, 30), (16, -6)])
    p["kn_n"] = keys(t, [(0, 5), (3, 25), (10, 15), (18, 5)])
    p["kn_f"] = keys(t, [(0, 4), (3, 20), (10, 12), (18, 4)])
    p["hip_n"] = keys(t, [(0, 5), (3, 22), (10, 12), (18, 5)])
    ops, kp, ct = humanoid(sp, p, t)
    P, A = render(ops, LH, LW, 1, pad=2)
    col = P / np.maximum(A, 1e-6)[..., None]
    col = np.round(col / 12) * 12
    A = (A > 0.5).astype(np.float32)
    col = col * (1 - hit * 0.7) + np.array([255, 250, 240], np.float32) * hit * 0.7
    P = col * A[..., None]
    P = np.repeat(np.repeat(P, k, 0), k, 1)
    A = np.repeat(np.repeat(A, k, 0), k, 1)
    kp = {a: b * k for a, b in kp.items()}
    return P.astype(np.float32), A, kp, (ct[0] * k, ct[1] * k, ct[2] * k, ct[3])


def case_pixel_goblin():
    n, W, H = 22, 448, 448
    return Case("pixel_goblin_flash_hurt", W, H, n, "hurt", [], None, crf=20, SS=1, raster=pixel_goblin,
                key=(38, 202, 50), wrap=("dist", 3.0, 0.28), shutter=0.0, seed=16,
                notes=dict(models="pixel-art goblin drawn at 64x64 and scaled x7 nearest-neighbour: olive-green "
                                  "skin (112,150,58) near the key, 1-art-pixel dark outline, a knockback in whole "
                                  "art pixels; a hit flash (70 % toward white, frames 2-5, fading by 18) IS in the "
                                  "truth"))


CASES = [case_knight_drift, case_rogue_keyjump, case_mage_veil, case_spear_brief_exit, case_greatsword_out,
         case_still_priestess, case_chibi_rim, case_mech, case_fox, case_hero_owl, case_hoop, case_pixel_goblin,
         case_elf_archer, case_eye, case_control, case_paladin]


def _run_index(i):
    return run_case(CASES[i]())


def main(argv):
    names = [a for a in argv if not a.startswith("-")]
    todo = [(i, f()) for i, f in enumerate(CASES)]
    if names:
        todo = [(i, c) for i, c in todo if any(nm in c.name for nm in names)]
    t0 = time.time()
    jobs = int(os.environ.get("T42_JOBS", "2"))
    todo.sort(key=lambda ic: -ic[1].W * ic[1].H * ic[1].n)
    idx = [i for i, _ in todo]
    if jobs > 1 and len(idx) > 1:
        with Pool(jobs) as pool:
            for name, dt in pool.imap_unordered(_run_index, idx):
                print(f"{name:<40} {dt:6.1f} s", flush=True)
    else:
        for i in idx:
            name, dt = _run_index(i)
            print(f"{name:<40} {dt:6.1f} s", flush=True)
    print(f"{len(idx)} cases in {time.time() - t0:.1f} s -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
