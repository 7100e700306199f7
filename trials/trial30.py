"""Trial 30: detached parts, holes, extreme sizes, studio light and creatures, as H3 makes them.

Each case: 24 fps H.264 yuv420p (BT.601 limited, untagged, one x264 thread, mbtree=0), a
17k+5 frame count, sides multiples of 32; frame 0 is the portrait over the user's flat
canvas (no wrap, no grain); from frame 1 the model's own screen (another shade, with its
studio light), light wrap into opaque pixels near the silhouette (holes too), sub-frame
motion blur on whatever moves fast, grain. Characters are drawn at 3-4x and shrunk (coverage
alpha). Truths hold the character's own colours and everything that belongs to it (thrown
daggers, sparks, a dropped shield, an arrow) and never the screen, wrap or shadows.

name                  action  size     frames CRF canvas->screen            tests                                                       flags
dagger_throw          attack  448x448  39  20  (0,255,0)->(22,234,40)    rogue tosses a spinning dagger: it leaves the hand (frame 17) and sticks in the floor ~80 px ahead  []
spark_skill           skill   512x512  39  21  (0,177,64)->(14,168,72)   mage with staff: 56 particles, 32 opaque hot sparks + 24 cyan/violet motes at 55-65 %, apart from the body  []
shield_drop_hurt      hurt    448x448  22  19  soft (72,190,96)->floor   white/grey knight knocked back, kite shield flung off and lying on the floor; floor plane + horizon  []
akimbo_holes_idle     idle    384x640  56  22  (0,255,0)->(26,230,44)    front view, hand on hip (triangle hole), wide stance, slit between hanging arm and body, grey hoodie  []
chakram_attack        attack  512x512  39  20  (0,177,64)->(12,172,66)   spiked ring weapon (40 px hole) swung round in a blurred arc  []
archer_bow            attack  576x448  39  23  (0,255,0)->(20,238,36)    bow + 1 px string (hole between), drawn to a V, arrow released and flying  []
tiny_imp_walk         walk    768x448  56  21  soft (72,190,96)->(64,181,90)  imp 22 % of the frame height, 1.3 px tail, horns, little wings  []
ogre_closeup_idle     idle    448x448  56  20  (0,177,64)->(16,166,70)   ogre 88 % of the height, 29/20 px from top/bottom, grey fur pelt, club, arm/leg gaps  []
greatsword_cropped    attack  512x512  39  22  (0,255,0)->(24,232,42)    barbarian 86 % tall, greatsword past the top and right edges for most of the swing  [CROPPED]
runner_cast_shadow    run     768x448  56  21  (0,177,64)->wall/floor    runner before a floor plane (horizon behind the hips), long cast shadow to the left, no dust  []
wolf_hotspot_run      run     640x384  56  20  (0,255,0)->hot spot       grey/white wolf galloping (quadruped), bright hot spot behind it  []
wyvern_gradient_idle  idle    512x512  56  22  soft (80,200,100)->(70,188,92) x0.55..1.15 L-R  wyvern hovering, thin finger bones, scalloped membranes, flap blur  []
mech_antenna_walk     walk    448x640  56  20  (0,177,64)->(10,172,70)   olive / dark green / yellow-green mech, 0.8-1.2 px antennae with tips  []
ranger_shake_attack   attack  512x512  39  21  (0,255,0)->(28,228,46)    camera shake (1-5 px a frame, whole picture), olive cloak, dark green tunic, yellow-green feather  []
horse_blue_run        run     768x448  56  20  (0,0,255)->(18,44,226)    horse gallop on blue: chestnut, black mane/tail strands, white blaze and socks  []
walk_truncated_blue   walk    448x448  39  22  (0,71,187)->(10,80,178)   a 2 s walk delivered as 39 frames (1 s asked), villager  [TRUNCATED]

    TRIAL_OUT=DIR .venv/bin/python trials/trial30.py [NAME_SUBSTRING]   # default trials/_out/trial30/

~2.5 min on 2 idle CPUs, ~3 min on a busy machine (two worker processes; TRIAL_JOBS=1 for one). Output is byte-identical run to run.
Each case.json also records "notes" (what it draws, and what the truth includes), the canvas,
the model's screen colour and the wrap. No case draws a dust cloud: whether a sprite keeps
kicked-up dust is ambiguous, so the runner's clip leaves it out.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)

HERE = Path(__file__).resolve().parent
OUT = Path(os.environ.get("TRIAL_OUT", HERE / "_out" / "trial30"))
FPS = 24
LDIR = np.array([-0.55, -0.835])
LDIR = LDIR / np.linalg.norm(LDIR)


# ----------------------------------------------------------------------------- helpers

def V(x, y):
    return np.array([x, y], float)


def rot(v, a):
    c, s = math.cos(a), math.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


def ss_(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def ramp(t, t0, t1):
    return ss_((t - t0) / (t1 - t0)) if t1 > t0 else float(t >= t0)


def kf(t, keys):
    """Smoothly eased keyframes: keys = [(t0, dict), (t1, dict), ...] -> dict at t."""
    if t <= keys[0][0]:
        return dict(keys[0][1])
    for (ta, a), (tb, b) in zip(keys, keys[1:]):
        if t <= tb:
            k = ss_((t - ta) / (tb - ta))
            return {n: a[n] + (b[n] - a[n]) * k for n in a}
    return dict(keys[-1][1])


def mul(c, k):
    return tuple(float(min(255.0, max(0.0, v * k))) for v in c)


def mix(c0, c1, k):
    return tuple(float(a + (b - a) * k) for a, b in zip(c0, c1))


# ----------------------------------------------------------------------------- shapes

def op(kind, oid, col, a=1.0, sh=0.3, ol=None, grad=None, **g):
    d = dict(k=kind, id=oid, c=tuple(float(v) for v in col), a=float(a), sh=sh, ol=ol, grad=grad)
    d.update(g)
    return d


def cap(oid, p0, p1, r0, r1, col, **kw):
    return op("cap", oid, col, p0=np.asarray(p0, float), p1=np.asarray(p1, float),
              r0=float(r0), r1=float(r1), **kw)


def circ(oid, c, r, col, **kw):
    return op("ell", oid, col, cen=np.asarray(c, float), rx=float(r), ry=float(r), ang=0.0, **kw)


def ell(oid, c, rx, ry, ang, col, **kw):
    return op("ell", oid, col, cen=np.asarray(c, float), rx=float(rx), ry=float(ry),
              ang=float(ang), **kw)


def poly(oid, pts, col, **kw):
    return op("poly", oid, col, pts=np.asarray(pts, float), **kw)


def multi(oid, polys_, col, **kw):
    return op("multi", oid, col, pts=np.concatenate([np.asarray(p, float) for p in polys_]),
              parts=[len(p) for p in polys_], **kw)


def stroke(oid, pts, w, col, **kw):
    return op("stroke", oid, col, pts=np.asarray(pts, float), w=float(w), **kw)


def ring(oid, c, ro, ri, col, **kw):
    return op("ring", oid, col, cen=np.asarray(c, float), ro=float(ro), ri=float(ri), **kw)


def ell_pts(c, rx, ry, ang, n=None):
    n = n or int(np.clip(max(rx, ry) * 2.2, 20, 200))
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    p = np.stack([rx * np.cos(a), ry * np.sin(a)], 1)
    ca, sa = math.cos(ang), math.sin(ang)
    return np.stack([c[0] + ca * p[:, 0] - sa * p[:, 1], c[1] + sa * p[:, 0] + ca * p[:, 1]], 1)


def ctl(o):
    """Control points of a shape (output px), to measure how far it moves in a shutter."""
    k = o["k"]
    if k == "cap":
        d = o["p1"] - o["p0"]
        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
        return np.stack([o["p0"], o["p1"], o["p0"] + n * o["r0"], o["p1"] + n * o["r1"]])
    if k == "ell":
        c = o["cen"]
        return np.stack([c, c + rot(V(o["rx"], 0), o["ang"]), c + rot(V(0, o["ry"]), o["ang"])])
    if k == "ring":
        return np.stack([o["cen"], o["cen"] + V(o["ro"], 0)])
    return o["pts"]


def outline_of(o):
    """An op with an outline becomes the outline (the shape grown by w) and then the fill."""
    if not o.get("ol"):
        return [o]
    col, w = o["ol"]
    b = dict(o)
    b.update(c=tuple(float(v) for v in col), ol=None, grad=None, sh=0.08, dil=float(w), id=o["id"] + ":ol")
    f = dict(o)
    f["ol"] = None
    return [b, f]


def expand(ops):
    out = []
    for o in ops:
        out.extend(outline_of(o))
    return out


def raster(o, ss, ox, oy, Ws, Hs):
    """(x0, y0, A, P) of one op on the supersampled grid (A coverage*opacity, P premultiplied)."""
    if o["a"] <= 0:
        return None
    k = o["k"]
    dil = o.get("dil", 0.0)
    holes = []
    if k == "cap":
        pts = np.concatenate([ell_pts(o["p0"], o["r0"], o["r0"], 0), ell_pts(o["p1"], o["r1"], o["r1"], 0)])
        outer = cv2.convexHull(pts.astype(np.float32))[:, 0].astype(float)
    elif k == "ell":
        outer = ell_pts(o["cen"], o["rx"], o["ry"], o["ang"])
    elif k == "ring":
        outer = ell_pts(o["cen"], o["ro"], o["ro"], 0)
        holes = [ell_pts(o["cen"], o["ri"], o["ri"], 0)]
    elif k in ("poly", "stroke", "multi"):
        outer = o["pts"]
    pad = 2 + dil + (o["w"] if k == "stroke" else 0)
    allp = (outer - (ox, oy)) * ss
    x0 = int(math.floor(allp[:, 0].min() - pad * ss))
    y0 = int(math.floor(allp[:, 1].min() - pad * ss))
    x1 = int(math.ceil(allp[:, 0].max() + pad * ss))
    y1 = int(math.ceil(allp[:, 1].max() + pad * ss))
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, Ws), min(y1, Hs)
    if x1 <= x0 or y1 <= y0:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    q = lambda p: np.round(((p - (ox, oy)) * ss - (x0, y0)) * 16).astype(np.int32)  # noqa: E731
    if k == "stroke":
        th = max(1, int(round(o["w"] * ss)))
        cv2.polylines(m, [q(outer)], False, 255, thickness=th, lineType=cv2.LINE_AA, shift=4)
    elif k == "multi":
        i0 = 0
        for n_ in o["parts"]:
            cv2.fillPoly(m, [q(outer[i0:i0 + n_])], 255, lineType=cv2.LINE_AA, shift=4)
            i0 += n_
    else:
        cv2.fillPoly(m, [q(outer)], 255, lineType=cv2.LINE_AA, shift=4)
        for h in holes:
            cv2.fillPoly(m, [q(h)], 0, lineType=cv2.LINE_AA, shift=4)
    if dil > 0:
        r = max(1, int(round(dil * ss)))
        m = cv2.dilate(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    A = m.astype(np.float32) * (o["a"] / 255.0)
    h, w = m.shape
    X = (np.arange(w, dtype=np.float32) + x0 + 0.5) / ss + ox
    Y = (np.arange(h, dtype=np.float32) + y0 + 0.5) / ss + oy
    col = np.array(o["c"], np.float32)
    if o.get("grad") is not None:
        p0, c0, p1, c1 = o["grad"]
        d = np.asarray(p1, float) - np.asarray(p0, float)
        L2 = float(d @ d) + 1e-9
        u = ((X[None, :] - p0[0]) * d[0] + (Y[:, None] - p0[1]) * d[1]) / L2
        u = np.clip(u, 0, 1)[..., None]
        C = np.array(c0, np.float32) * (1 - u) + np.array(c1, np.float32) * u
    else:
        C = np.broadcast_to(col, (h, w, 3))
    if o["sh"]:
        if k == "cap":
            p0, p1 = o["p0"], o["p1"]
            d = p1 - p0
            L = float(np.linalg.norm(d)) + 1e-9
            d = d / L
            dx = X[None, :] - p0[0]
            dy = Y[:, None] - p0[1]
            t = np.clip((dx * d[0] + dy * d[1]) / L, 0, 1)
            vx, vy = dx - t * L * d[0], dy - t * L * d[1]
            r = o["r0"] + (o["r1"] - o["r0"]) * t
            s = (vx * LDIR[0] + vy * LDIR[1]) / (r + dil)
        else:
            c = o["cen"] if k in ("ell", "ring") else outer.mean(0)
            R = (max(o["rx"], o["ry"]) if k == "ell" else o["ro"] if k == "ring"
                 else float(np.linalg.norm(outer - c, axis=1).max())) + dil + 1e-6
            s = ((X[None, :] - c[0]) * LDIR[0] + (Y[:, None] - c[1]) * LDIR[1]) / R
        s = np.clip(s, -1, 1).astype(np.float32)
        C = np.clip(C * (1 + o["sh"] * s)[..., None], 0, 255)
    return x0, y0, A, A[..., None] * C


class Layer:
    """Supersampled premultiplied RGBA of a region of interest of the frame."""

    def __init__(self, roi, ss):
        self.ox, self.oy, x1, y1 = roi
        self.w, self.h, self.ss = x1 - self.ox, y1 - self.oy, ss
        self.buf = np.zeros((self.h * ss, self.w * ss, 4), np.float32)

    def comp(self, x0, y0, A, P):
        h, w = A.shape
        sub = self.buf[y0:y0 + h, x0:x0 + w]
        sub *= (1 - A)[..., None]
        sub[..., :3] += P
        sub[..., 3] += A

    def draw(self, o):
        r = raster(o, self.ss, self.ox, self.oy, self.buf.shape[1], self.buf.shape[0])
        if r:
            self.comp(*r)

    def draw_blurred(self, samples):
        rs = [raster(o, self.ss, self.ox, self.oy, self.buf.shape[1], self.buf.shape[0]) for o in samples]
        rs = [r for r in rs if r]
        if not rs:
            return
        x0 = min(r[0] for r in rs)
        y0 = min(r[1] for r in rs)
        x1 = max(r[0] + r[2].shape[1] for r in rs)
        y1 = max(r[1] + r[2].shape[0] for r in rs)
        A = np.zeros((y1 - y0, x1 - x0), np.float32)
        P = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        for rx, ry, a, p in rs:
            A[ry - y0:ry - y0 + a.shape[0], rx - x0:rx - x0 + a.shape[1]] += a
            P[ry - y0:ry - y0 + a.shape[0], rx - x0:rx - x0 + a.shape[1]] += p
        n = float(len(samples))
        self.comp(x0, y0, A / n, P / n)

    def down(self):
        return cv2.resize(self.buf, (self.w, self.h), interpolation=cv2.INTER_AREA)


def render_char(case, t, blur=True, K=11):
    """Straight RGBA float (H, W, 4) of the character at frame time t."""
    lay = Layer(case.roi, case.ss)
    center = expand(case.pose(t))
    if blur and case.shutter > 0:
        subt = t + (np.linspace(0, 1, K) - 0.5) * case.shutter
        lists = [{o["id"]: o for o in expand(case.pose(float(s)))} for s in subt]
        assert all(len(lst) == len(center) for lst in lists), "pose ids must be unique and kept"
    else:
        lists = None
    for i, o in enumerate(center):
        if lists is None:
            lay.draw(o)
            continue
        samp = [byid[o["id"]] for byid in lists]
        disp = max(float(np.abs(ctl(s) - ctl(o)).max()) if s["a"] > 0 and o["a"] > 0
                   and ctl(s).shape == ctl(o).shape else 99.0 for s in samp)
        alph = [s["a"] for s in samp]
        if disp < 0.35 and max(alph) == min(alph):
            lay.draw(o)
        else:
            m = int(min(K, max(3, math.ceil(disp * 1.5) + 1)))
            idx = np.round(np.linspace(0, K - 1, m)).astype(int)
            lay.draw_blurred([samp[j] for j in idx])
    d = lay.down()
    full = np.zeros((case.H, case.W, 4), np.float32)
    x0, y0, x1, y1 = case.roi
    full[y0:y1, x0:x1] = d
    a = full[..., 3:4]
    rgb = np.where(a > 1e-6, full[..., :3] / np.maximum(a, 1e-6), 0)
    return np.concatenate([np.clip(rgb, 0, 255), np.clip(a, 0, 1)], 2)


# ----------------------------------------------------------------------------- screen

def make_screen(case, M):
    """The model's static screen, (H+2M, W+2M, 3) float, frame pixel (x, y) at [y+M, x+M]."""
    H, W = case.H + 2 * M, case.W + 2 * M
    s = case.scr
    X = (np.arange(W, dtype=np.float32) - M)[None, :] / case.W
    Y = (np.arange(H, dtype=np.float32) - M)[:, None] / case.H
    wall = np.array(s["col"], np.float32)
    img = np.broadcast_to(wall, (H, W, 3)).astype(np.float32).copy()
    if "floor" in s:
        hy, fcol, soft, fgrad = s["floor"]
        fl = np.array(fcol, np.float32)
        k = np.clip((Y * case.H - hy * case.H) / soft + 0.5, 0, 1)
        depth = np.clip((Y - hy) / (1 - hy + 1e-6), 0, 1)
        floor = fl[None, None, :] * (1 + fgrad * depth)[..., None]
        img = img * (1 - k[..., None]) + floor * k[..., None]
        # the cyc corner: a faint darker band where the wall meets the floor
        band = np.exp(-((Y * case.H - hy * case.H) / (soft * 0.8)) ** 2) * s.get("corner", 0.06)
        img *= (1 - band)[..., None]
    if "lr" in s:
        g0, g1 = s["lr"]
        img *= (g0 + (g1 - g0) * np.clip(X, 0, 1))[..., None]
    if "tb" in s:
        g0, g1 = s["tb"]
        img *= (g0 + (g1 - g0) * np.clip(Y, 0, 1))[..., None]
    if "hot" in s:
        hx, hy, sig, amt, hcol = s["hot"]
        r2 = ((X - hx) * case.W) ** 2 + ((Y - hy) * case.H) ** 2
        g = amt * np.exp(-r2 / (2 * (sig * case.W) ** 2))
        img = img * (1 - g[..., None]) + np.array(hcol, np.float32) * g[..., None]
    if s.get("vig"):
        r2 = ((X - 0.5) * 2) ** 2 + ((Y - 0.5) * 2) ** 2
        img *= (1 - s["vig"] * np.clip(r2 / 2, 0, 1))[..., None]
    rng = np.random.default_rng(case.seed + 7)
    mot = rng.normal(0, 1, (H // 16 + 2, W // 16 + 2, 1)).astype(np.float32)
    mot = cv2.resize(mot, (W, H), interpolation=cv2.INTER_CUBIC)
    mot = cv2.GaussianBlur(mot, (0, 0), 10)
    mot = mot / (mot.std() + 1e-6)
    img += s.get("mottle", 2.0) * mot[..., None]
    return np.clip(img, 0, 255)


def cast_shadow(alpha, case, dx, dy):
    """Darkening factor (H, W) of a long cast shadow on the floor (never in the truth)."""
    kx, ky, strength, blur = case.shadow
    yf = case.ground + dy
    M = np.float32([[1, -kx, kx * yf], [0, -ky, (1 + ky) * yf]])
    sh = cv2.warpAffine(alpha.astype(np.float32), M, (case.W, case.H), flags=cv2.INTER_LINEAR)
    sh = cv2.GaussianBlur(sh, (0, 0), blur)
    hy = case.scr["floor"][0] * case.H + dy
    yy = np.arange(case.H, dtype=np.float32)[:, None]
    onfloor = np.clip((yy - hy) / 4.0, 0, 1)
    return 1 - strength * np.clip(sh, 0, 1) * onfloor


# ----------------------------------------------------------------------------- encode

def rgb_to_yuv420(rgb):
    f = rgb.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255
    H, W = Y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    y = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8).reshape(H // 4, W)
    v = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8).reshape(H // 4, W)
    return np.concatenate([y, u, v], 0)


def encode(path, frames_yuv, W, H, crf):
    c = av.open(str(path), "w", format="mp4")
    s = c.add_stream("libx264", rate=FPS)
    s.width, s.height, s.pix_fmt = W, H, "yuv420p"
    s.codec_context.thread_count = 1
    s.options = {"crf": str(crf), "preset": "medium", "threads": "1", "x264-params": "mbtree=0"}
    for i, f in enumerate(frames_yuv):
        vf = av.VideoFrame.from_ndarray(f, format="yuv420p")
        vf.pts = i
        for p in s.encode(vf):
            c.mux(p)
    for p in s.encode():
        c.mux(p)
    c.close()


# ----------------------------------------------------------------------------- a case

class Case:
    def __init__(self, name, action, W, H, n, crf, canvas, scr, pose, notes, flags=(),
                 ss=3, shutter=0.5, wrap=(0.28, 4.0), grain=2.0, roi=None, settle=1,
                 shadow=None, ground=None, shake=None, flicker=0.012, seed=0):
        assert W % 32 == 0 and H % 32 == 0 and n % 17 == 5
        self.name, self.action, self.W, self.H, self.n, self.crf = name, action, W, H, n, crf
        self.canvas, self.scr, self.pose, self.notes, self.flags = canvas, scr, pose, notes, list(flags)
        self.ss, self.shutter, self.wrap, self.grain = ss, shutter, wrap, grain
        self.roi = roi or (0, 0, W, H)
        self.settle, self.shadow, self.ground, self.shake = settle, shadow, ground, shake
        self.flicker, self.seed = flicker, seed or (sum(map(ord, name)) * 7919)
        self.pose_fn = pose

    def offset(self, i):
        if self.shake is None or i == 0:
            return 0, 0
        return self.shake(i)


def build(case):
    t0 = time.time()
    d = OUT / case.name
    d.mkdir(parents=True, exist_ok=True)
    W, H, n = case.W, case.H, case.n
    M = 0 if case.shake is None else 12
    screen = make_screen(case, M)
    canvas = np.array(case.canvas, np.float32)
    rng = np.random.default_rng(case.seed)
    base_pose = case.pose_fn
    truth = np.zeros((n, H, W, 4), np.uint8)
    yuv = []
    S, Wd = case.wrap
    for i in range(n):
        dx, dy = case.offset(i)
        if dx or dy:
            case.pose = lambda t, dx=dx, dy=dy: shift_ops(base_pose(t), dx, dy)
        else:
            case.pose = base_pose
        ch = render_char(case, float(i), blur=(i > 0))
        tr = np.concatenate([np.round(ch[..., :3]), np.round(ch[..., 3:] * 255)], 2)
        tr = np.clip(tr, 0, 255).astype(np.uint8)
        tr[tr[..., 3] == 0] = 0
        truth[i] = tr
        a = tr[..., 3:].astype(np.float32) / 255
        rgb = tr[..., :3].astype(np.float32)
        if i == 0:
            out = canvas * (1 - a) + rgb * a
        else:
            bg = screen[M + dy:M + dy + H, M + dx:M + dx + W].copy()
            k = min(1.0, i / case.settle) if case.settle > 1 else 1.0
            if k < 1:
                bg = canvas * (1 - k) + bg * k
            bg *= 1 + case.flicker * math.sin(i * 0.9 + case.seed % 5) * (0.6 + 0.4 * math.sin(i * 0.37))
            if case.shadow is not None:
                bg *= cast_shadow(a[..., 0], case, dx, dy)[..., None] * k + (1 - k)
            wrapcol = cv2.GaussianBlur(bg, (0, 0), max(1.0, Wd * 0.8))
            dist = cv2.distanceTransform((a[..., 0] > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
            w = S * np.clip(1 - dist / Wd, 0, 1) ** 1.3
            rgbw = rgb * (1 - w[..., None]) + wrapcol * w[..., None]
            out = bg * (1 - a) + rgbw * a
            g = rng.normal(0, 1, (H, W, 1)).astype(np.float32) * 0.8 + \
                rng.normal(0, 1, (H, W, 3)).astype(np.float32) * 0.6
            out = out + case.grain * g
        yuv.append(rgb_to_yuv420(np.clip(out, 0, 255)))
        if i in (0, n // 2):
            Image.fromarray(np.clip(out, 0, 255).astype(np.uint8)).save(d / f"_f{i:02d}.png") \
                if os.environ.get("TRIAL_DEBUG") else None
    case.pose = base_pose
    encode(d / "clip.mp4", yuv, W, H, case.crf)
    Image.fromarray(truth[0], "RGBA").save(d / "portrait.png")
    np.savez_compressed(d / "truth.npz", rgba=truth)
    (d / "case.json").write_text(json.dumps({
        "action": case.action, "expect_flags": case.flags, "notes": case.notes,
        "size": [W, H], "frames": n, "fps": FPS, "crf": case.crf,
        "canvas": list(case.canvas), "screen": case.scr.get("col"),
        "wrap": {"strength": S, "width_px": Wd}}, indent=1))
    # self-checks: nothing touches the frame edge unless the case is CROPPED
    al = truth[..., 3]
    edge = max(al[:, :3].max(), al[:, -3:].max(), al[:, :, :3].max(), al[:, :, -3:].max())
    if ("CROPPED" in case.flags) != (edge > 0):
        print(f"  !! {case.name}: edge alpha {edge} but flags {case.flags}")
    x0, y0, x1, y1 = case.roi
    if case.roi != (0, 0, W, H):
        r = al[:, y0:y1, x0:x1]
        redge = max(r[:, :2].max(), r[:, -2:].max(), r[:, :, :2].max(), r[:, :, -2:].max())
        if redge:
            print(f"  !! {case.name}: touches its ROI edge")
    ys = np.where(al.max(0).max(1) > 0)[0]
    hs = [(np.where(f.max(1) > 0)[0]) for f in al]
    hfr = np.mean([(h[-1] - h[0] + 1) / H for h in hs if len(h)])
    print(f"{case.name:22s} {case.action:7s} {W}x{H} n={n} crf={case.crf} "
          f"height {hfr*100:4.1f}% rows {ys[0]}-{ys[-1]} {time.time()-t0:5.1f}s", flush=True)


def shift_ops(ops, dx, dy):
    out = []
    for o in ops:
        o = dict(o)
        for k in ("p0", "p1", "cen", "pts"):
            if k in o:
                o[k] = o[k] + (dx, dy)
        if o.get("grad") is not None:
            p0, c0, p1, c1 = o["grad"]
            o["grad"] = (np.asarray(p0) + (dx, dy), c0, np.asarray(p1) + (dx, dy), c1)
        out.append(o)
    return out


# ----------------------------------------------------------------------------- rigs

def dv(a, f=1):
    """Unit vector at angle a from straight down, positive toward the facing side f."""
    return V(f * math.sin(a), math.cos(a))


def humanoid(P, S, pre="h"):
    """Side view (3/4) humanoid facing P['f'] (+1 right). Angles are absolute from straight
    down (positive = forward). Returns (groups of ops, joints)."""
    u, f = S["h"], P.get("f", 1)
    lean = P.get("lean", 0.0)
    ol = S.get("ol")
    dark = S.get("far", 0.78)
    legs = {}
    for side in ("far", "near"):
        at, kn, fa = P["t_" + side], P["k_" + side], P.get("a_" + side, 0.0)
        hj = V(f * (-0.012 * u if side == "far" else 0.012 * u), 0)
        knee = hj + 0.25 * u * dv(at, f)
        ank = knee + 0.235 * u * dv(at - kn, f)
        toe = ank + 0.085 * u * V(f * math.cos(fa), -math.sin(fa))
        legs[side] = [hj, knee, ank, toe]
    if "y" in P:
        hy = P["y"]
    else:
        low = max(max(lg[2][1], lg[3][1]) for lg in legs.values()) + 0.028 * u
        hy = P["ground"] - low - P.get("lift", 0.0)
    hip = V(P["x"], hy)
    for side in legs:
        legs[side] = [hip + p for p in legs[side]]
    up = V(f * math.sin(lean), -math.cos(lean))
    fwd = V(-up[1], up[0]) * f
    neck = hip + 0.30 * u * up
    hd = lean + P.get("head", 0.0)
    headc = neck + 0.088 * u * V(f * math.sin(hd), -math.cos(hd))
    J = dict(hip=hip, neck=neck, head=headc, up=up, fwd=fwd, u=u, f=f, legs=legs)
    G = {k: [] for k in ("far_arm", "far_leg", "torso", "near_leg", "head", "near_arm")}
    # legs
    for side in ("far", "near"):
        hj, knee, ank, toe = legs[side]
        k = dark if side == "far" else 1.0
        g = G[side + "_leg"]
        g.append(cap(f"{pre}{side}thigh", hj, knee, 0.052 * u, 0.04 * u, mul(S["pants"], k), ol=ol))
        g.append(cap(f"{pre}{side}shin", knee, ank, 0.038 * u, 0.028 * u, mul(S.get("pants2", S["pants"]), k), ol=ol))
        g.append(cap(f"{pre}{side}foot", ank + (toe - ank) * 0.05, toe, 0.034 * u, 0.024 * u, mul(S["boot"], k), ol=ol))
    # torso: front/back profile along the up axis
    prof = [(0.0, 0.068, 0.075), (0.33, 0.055, 0.052), (0.68, 0.078, 0.062), (0.93, 0.055, 0.06), (1.0, 0.03, 0.03)]
    tw = S.get("tw", 1.0)
    front = [hip + up * (s * 0.30 * u) + fwd * (a * u * tw) for s, a, b in prof]
    back = [hip + up * (s * 0.30 * u) - fwd * (b * u * tw) for s, a, b in prof][::-1]
    G["torso"].append(poly(f"{pre}torso", front + back, S["top"], ol=ol, sh=0.35))
    if S.get("belt"):
        G["torso"].append(poly(f"{pre}belt", [hip + up * 0.07 * u + fwd * 0.066 * u * tw, hip + up * 0.115 * u + fwd * 0.06 * u * tw,
                                             hip + up * 0.115 * u - fwd * 0.058 * u * tw, hip + up * 0.07 * u - fwd * 0.07 * u * tw],
                               S["belt"], sh=0.2))
    # head
    hg = G["head"]
    hup = V(f * math.sin(hd), -math.cos(hd))
    hfw = V(-hup[1], hup[0]) * f
    hg.append(cap(f"{pre}neck", neck - up * 0.01 * u, headc - hup * 0.04 * u, 0.028 * u, 0.026 * u, S["skin"], ol=ol))
    if S.get("hair"):
        hg.append(ell(f"{pre}hairb", headc - hfw * 0.018 * u - hup * 0.004 * u, 0.074 * u, 0.08 * u, hd, S["hair"], ol=ol))
    hg.append(ell(f"{pre}head", headc + hfw * 0.006 * u, 0.066 * u, 0.077 * u, hd, S["skin"], ol=ol, sh=0.3))
    hg.append(circ(f"{pre}nose", headc + hfw * 0.068 * u + hup * 0.0, 0.014 * u, S["skin"], sh=0.3))
    if S.get("hair"):
        hg.append(poly(f"{pre}fringe", [headc + hup * 0.082 * u - hfw * 0.06 * u, headc + hup * 0.085 * u + hfw * 0.03 * u,
                                         headc + hup * 0.045 * u + hfw * 0.07 * u, headc + hup * 0.03 * u + hfw * 0.01 * u,
                                         headc + hup * 0.0 * u - hfw * 0.06 * u], S["hair"], sh=0.25))
    hg.append(ell(f"{pre}eye", headc + hfw * 0.04 * u + hup * 0.012 * u, 0.009 * u, 0.013 * u, hd, S.get("eye", (30, 22, 20)), sh=0))
    # arms
    for side in ("far", "near"):
        k = dark if side == "far" else 1.0
        sa, el = P["s_" + side], P["e_" + side]
        shj = hip + up * 0.255 * u + fwd * (-0.01 * u if side == "far" else 0.0)
        elb = shj + 0.165 * u * dv(sa + 0 * lean, f)
        wri = elb + 0.15 * u * dv(sa + el, f)
        hand = wri + 0.022 * u * dv(sa + el, f)
        g = G[side + "_arm"]
        g.append(cap(f"{pre}{side}upper", shj, elb, 0.036 * u, 0.029 * u, mul(S.get("sleeve", S["top"]), k), ol=ol))
        g.append(cap(f"{pre}{side}fore", elb, wri, 0.029 * u, 0.023 * u, mul(S.get("fore", S.get("sleeve", S["top"])), k), ol=ol))
        g.append(circ(f"{pre}{side}hand", hand, 0.03 * u, mul(S.get("glove", S["skin"]), k), ol=ol))
        J[side + "_hand"] = hand
        J[side + "_dir"] = sa + el  # absolute forearm angle
        J[side + "_sh"] = shj
    return G, J


def order(G, *names):
    out = []
    for n in names:
        out.extend(G[n] if isinstance(n, str) else n)
    return out


def walk_pose(ph, amp=1.0):
    """Angles of a walk at phase ph (cycles)."""
    s, c = math.sin(2 * math.pi * ph), math.cos(2 * math.pi * ph)
    P = dict(t_near=0.42 * amp * s, t_far=-0.42 * amp * s,
             k_near=0.08 + 0.75 * amp * max(0.0, c) ** 1.5, k_far=0.08 + 0.75 * amp * max(0.0, -c) ** 1.5,
             s_near=-0.38 * amp * s, s_far=0.38 * amp * s, e_near=0.25 + 0.15 * max(0, -s), e_far=0.25 + 0.15 * max(0, s),
             a_near=0.25 * amp * s * 0.5, a_far=-0.25 * amp * s * 0.5, lean=0.04, head=-0.02,
             lift=-0.0)
    return P


def run_pose(ph, amp=1.0):
    s, c = math.sin(2 * math.pi * ph), math.cos(2 * math.pi * ph)
    P = dict(t_near=0.7 * amp * s, t_far=-0.7 * amp * s,
             k_near=0.25 + 1.35 * amp * max(0.0, c) ** 1.2, k_far=0.25 + 1.35 * amp * max(0.0, -c) ** 1.2,
             s_near=-0.85 * amp * s, s_far=0.85 * amp * s, e_near=1.35 + 0.2 * s, e_far=1.35 - 0.2 * s,
             a_near=0.4 * s, a_far=-0.4 * s, lean=0.22, head=-0.12)
    return P


def blade_ops(pre, grip, d, L, wdt, hl, blade=(205, 210, 222), edge=(140, 146, 160), guard=(196, 158, 58),
              handle=(72, 44, 30), a=1.0, ol=None):
    """A dagger/sword: grip point, unit direction d, blade length L, width wdt, handle length hl."""
    d = np.asarray(d, float) / np.linalg.norm(d)
    n = V(-d[1], d[0])
    tip = grip + d * (L + 0.5 * hl)
    base = grip + d * 0.5 * hl
    bl = [base + n * wdt / 2, base + d * L * 0.8 + n * wdt * 0.42, tip, base + d * L * 0.8 - n * wdt * 0.42, base - n * wdt / 2]
    gw = wdt * 1.9
    return [cap(pre + "handle", grip - d * 0.5 * hl, base, wdt * 0.3, wdt * 0.28, handle, a=a, ol=ol),
            poly(pre + "blade", bl, blade, a=a, sh=0.0, ol=ol, grad=(base + n * wdt / 2, blade, base - n * wdt / 2, edge)),
            cap(pre + "guard", base - n * gw, base + n * gw, wdt * 0.22, wdt * 0.22, guard, a=a, ol=ol)]


# 1 -------------------------------------------------------------------------- dagger throw
def case_dagger_throw():
    W = H = 448
    u, ground, x0 = 250.0, 404.0, 150.0
    S = dict(h=u, skin=(226, 182, 150), hair=(45, 32, 30), top=(74, 46, 98), fore=(92, 62, 40), pants=(58, 52, 64),
             boot=(64, 42, 30), belt=(96, 64, 36), ol=((32, 20, 34), 0.8))
    rest = dict(t_near=0.26, k_near=0.32, t_far=-0.22, k_far=0.18, s_near=0.45, e_near=1.35, s_far=-0.1, e_far=0.7,
                lean=0.08, head=0.0, a_near=0.0, a_far=0.0, dx=0.0)
    wind = dict(rest, s_near=-2.35, e_near=-0.55, lean=-0.14, t_near=0.4, k_near=0.2, t_far=-0.36, k_far=0.3,
                s_far=0.9, e_far=0.5, head=0.1, dx=-6.0)
    rel = dict(rest, s_near=1.45, e_near=0.12, lean=0.28, t_near=0.48, k_near=0.5, t_far=-0.48, k_far=0.28,
               s_far=-0.5, e_far=0.4, head=-0.15, dx=8.0)
    foll = dict(rel, s_near=0.75, e_near=0.25, lean=0.32, s_far=-0.7, dx=12.0)
    keys = [(0, rest), (6, dict(rest, s_near=0.35, lean=0.05)), (14, wind), (18, rel), (23, foll),
            (31, dict(rest, s_near=0.25, e_near=0.9, dx=6.0)), (38, dict(rest, dx=4.0))]
    t_rel = 16.9

    def held(t):
        P = kf(t, keys)
        P.update(x=x0 + P.pop("dx"), ground=ground)
        G, J = humanoid(P, S, "r")
        return G, J
    _, Jr = held(t_rel)
    grip_r = Jr["near_hand"]
    a_r = Jr["near_dir"] + 0.35  # absolute angle of the blade at release
    vx, vy, g = 9.0, 3.0, 0.9
    hl = 0.055 * u
    Lb = 0.13 * u
    # land when the tip reaches the floor, blade 0.55 rad from straight down, pointing forward
    a_land = 0.55
    # find the landing time by stepping
    tau = 0.0
    while True:
        tau += 0.05
        gy = grip_r[1] + vy * tau + 0.5 * g * tau * tau
        if gy + math.cos(a_land) * (Lb + 0.5 * hl) >= ground - 2:
            break
    tau_land = tau
    k = max(1, round((0.75 * tau_land - (a_land - a_r)) / (2 * math.pi)))
    om = (a_land + 2 * math.pi * k - a_r) / tau_land

    def pose(t):
        G, J = held(t)
        if t < t_rel:
            grip, ang = J["near_hand"], J["near_dir"] + 0.35
        else:
            tau = min(t - t_rel, tau_land)
            grip = grip_r + V(vx * tau, vy * tau + 0.5 * g * tau * tau)
            ang = a_r + om * tau
        d = dv(ang, 1)
        dag = blade_ops("dag", grip, d, Lb, 0.03 * u, hl, ol=((30, 26, 30), 0.7))
        u_ = S["h"]
        hood = [poly("hood", [J["head"] + V(-0.085, 0.06) * u_, J["head"] + V(-0.1, -0.04) * u_,
                              J["head"] + V(-0.03, -0.095) * u_, J["head"] + V(0.05, -0.085) * u_,
                              J["head"] + V(0.075, -0.03) * u_, J["head"] + V(0.0, -0.05) * u_,
                              J["head"] + V(-0.03, 0.05) * u_], (82, 52, 108), ol=((32, 20, 34), 0.8), sh=0.3),
                cap("scarf", J["neck"] + V(-0.03, 0.01) * u_, J["neck"] + V(0.035, 0.0) * u_, 0.028 * u_, 0.024 * u_,
                    (172, 36, 42), ol=((32, 20, 34), 0.8))]
        if t < t_rel:
            return order(G, "far_arm", "far_leg", "torso", "near_leg", "head", hood, "near_arm", dag)
        return order(G, "far_arm", "far_leg", "torso", "near_leg", "head", hood, dag, "near_arm")
    return Case("dagger_throw", "attack", W, H, 39, 20, (0, 255, 0),
                dict(col=(22, 234, 40), tb=(1.03, 0.95), vig=0.08, mottle=2.5), pose,
                "rogue (purple hood, red scarf, thin dark outline) winds up and tosses a spinning dagger at "
                "frame 17: it leaves the hand, arcs down and sticks tip-first in the floor ~80 px ahead of him "
                "(~100 px from the right edge), where it stays; the truth includes the dagger in every frame (motion-blurred "
                "in flight); screen slightly darker at the bottom", wrap=(0.3, 3.5), grain=2.2)


def front_humanoid(P, S, pre="F"):
    """Front view humanoid. Angles from straight down, positive = outward (away from the
    midline). S may scale proportions: leg, torso, hipw, shw, chest, head."""
    u = S["h"]
    ol = S.get("ol")
    legL, torL = S.get("leg", 1.0), S.get("torso", 1.0)
    hipw, shw = S.get("hipw", 0.055), S.get("shw", 0.1)
    cx = P["x"]
    legs = {}
    for sd in (-1, 1):
        a1, a2 = P[f"t{sd}"], P[f"k{sd}"]
        hj = V(sd * hipw * u, 0)
        knee = hj + 0.25 * legL * u * V(sd * math.sin(a1), math.cos(a1))
        ank = knee + 0.235 * legL * u * V(sd * math.sin(a2), math.cos(a2))
        legs[sd] = [hj, knee, ank]
    low = max(lg[2][1] for lg in legs.values()) + 0.05 * u
    hy = P["ground"] - low - P.get("lift", 0.0)
    hip = V(cx, hy)
    br = P.get("breath", 0.0)
    sway = P.get("sway", 0.0)  # torso lean sideways (radians, + = screen right)
    up = V(math.sin(sway), -math.cos(sway))
    rt = V(-up[1], up[0])
    T = 0.30 * torL * u * (1 + br)
    neck = hip + up * T
    hd = sway + P.get("head", 0.0)
    hup = V(math.sin(hd), -math.cos(hd))
    hrt = V(-hup[1], hup[0])
    hs = S.get("head", 1.0)
    headc = neck + hup * 0.09 * u * hs
    G = {k: [] for k in ("back", "legs", "torso", "arms_behind", "head", "arms")}
    J = dict(hip=hip, neck=neck, head=headc, up=up, rt=rt, u=u)
    for sd in (-1, 1):
        hj, knee, ank = [hip + p for p in legs[sd]]
        tag = "L" if sd < 0 else "R"
        kk = 0.9 if sd < 0 else 1.0
        g = G["legs"]
        tr = S.get("thigh_r", 0.055)
        g.append(cap(f"{pre}{tag}thigh", hj, knee, tr * u, tr * 0.78 * u, mul(S["pants"], kk), ol=ol))
        g.append(cap(f"{pre}{tag}shin", knee, ank, tr * 0.74 * u, tr * 0.55 * u, mul(S.get("pants2", S["pants"]), kk), ol=ol))
        g.append(ell(f"{pre}{tag}foot", ank + V(sd * 0.012 * u, 0.028 * u), 0.042 * u * S.get("foot", 1.0),
                     0.03 * u, 0.0, mul(S["boot"], kk), ol=ol))
        J[f"ank{sd}"] = ank
    # torso
    cw = S.get("chest", 1.0)
    prof = [(0.0, 0.08), (0.33, 0.068), (0.66, 0.092), (0.9, 0.1), (1.0, 0.035)]
    pts = [hip + up * (s_ * T) + rt * (w * u * cw) for s_, w in prof] + \
          [hip + up * (s_ * T) - rt * (w * u * cw) for s_, w in prof][::-1]
    G["torso"].append(poly(f"{pre}torso", pts, S["top"], ol=ol, sh=0.3))
    J["torso_pts"] = pts
    # head
    hg = G["head"]
    hg.append(cap(f"{pre}neck", neck + up * 0.01 * u, headc - hup * 0.05 * u * hs, 0.032 * u, 0.03 * u, S["skin"], ol=ol))
    if S.get("hair"):
        hg.append(ell(f"{pre}hairb", headc + hup * 0.022 * u * hs, 0.071 * u * hs, 0.074 * u * hs, hd, S["hair"], ol=ol))
    hg.append(ell(f"{pre}head", headc + hup * 0.004 * u * hs, 0.064 * u * hs, 0.077 * u * hs, hd, S["skin"], ol=ol, sh=0.3))
    if S.get("hair"):
        hg.append(poly(f"{pre}fringe", [headc + (hup * 0.085 - hrt * 0.066) * u * hs, headc + (hup * 0.09 + hrt * 0.06) * u * hs,
                                        headc + (hup * 0.035 + hrt * 0.066) * u * hs, headc + (hup * 0.055 + hrt * 0.0) * u * hs,
                                        headc + (hup * 0.03 - hrt * 0.066) * u * hs], S["hair"], sh=0.2))
    for sd in (-1, 1):
        hg.append(ell(f"{pre}eye{sd}", headc + (hrt * sd * 0.026 - hup * 0.004) * u * hs, 0.008 * u * hs, 0.012 * u * hs, hd,
                      S.get("eye", (28, 22, 20)), sh=0))
    hg.append(cap(f"{pre}mouth", headc + (-hup * 0.045 - hrt * 0.014) * u * hs, headc + (-hup * 0.045 + hrt * 0.014) * u * hs,
                  0.004 * u * hs, 0.004 * u * hs, mul(S["skin"], 0.55), sh=0))
    # arms
    for sd in (-1, 1):
        tag = "L" if sd < 0 else "R"
        sa, fa = P[f"s{sd}"], P[f"f{sd}"]
        shj = hip + up * (T * 0.88) + rt * (sd * shw * u * cw)
        ar = S.get("arm_r", 0.036)
        al = S.get("arm", 1.0)
        elb = shj + 0.165 * al * u * V(sd * math.sin(sa), math.cos(sa))
        wri = elb + 0.15 * al * u * V(sd * math.sin(fa), math.cos(fa))
        hand = wri + 0.02 * u * V(sd * math.sin(fa), math.cos(fa))
        g = G["arms"]
        g.append(cap(f"{pre}{tag}upper", shj, elb, ar * u, ar * 0.82 * u, S.get("sleeve", S["top"]), ol=ol))
        g.append(cap(f"{pre}{tag}fore", elb, wri, ar * 0.82 * u, ar * 0.66 * u, S.get("fore", S.get("sleeve", S["top"])), ol=ol))
        g.append(circ(f"{pre}{tag}hand", hand, ar * 0.9 * u, S.get("glove", S["skin"]), ol=ol))
        J[f"hand{sd}"], J[f"sh{sd}"], J[f"elb{sd}"] = hand, shj, elb
    return G, J


def chaikin(pts, it=3):
    P = np.asarray(pts, float)
    for _ in range(it):
        Q = np.roll(P, -1, 0)
        P = np.stack([0.75 * P + 0.25 * Q, 0.25 * P + 0.75 * Q], 1).reshape(-1, 2)
    return P


def seg_box(oid, p0, p1, w0, w1, col, **kw):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    n = V(-d[1], d[0]) / (np.linalg.norm(d) + 1e-9)
    return poly(oid, [p0 + n * w0 / 2, p1 + n * w1 / 2, p1 - n * w1 / 2, p0 - n * w0 / 2], col, **kw)


def cplx_path(v0, k, om, tau):
    """Displacement after tau frames of a particle with initial velocity v0 (complex),
    drag k and a velocity turning at om rad/frame."""
    z = complex(-k, om)
    return v0 * (np.exp(z * tau) - 1) / z


def ballistic(p0, v, g, tau):
    return p0 + V(v[0] * tau, v[1] * tau + 0.5 * g * tau * tau)


# 2 -------------------------------------------------------------------------- spark skill
def case_spark_skill():
    W = H = 512
    u, ground, x0 = 272.0, 484.0, 150.0
    S = dict(h=u, skin=(236, 196, 168), hair=(200, 200, 206), top=(48, 58, 152), sleeve=(48, 58, 152),
             pants=(40, 48, 126), boot=(70, 50, 40), belt=(206, 170, 70))
    rest = dict(t_near=0.1, k_near=0.08, t_far=-0.08, k_far=0.06, s_near=0.35, e_near=0.9, s_far=0.05, e_far=0.35,
                lean=0.02, head=0.0, a_near=0.0, a_far=0.0, st=0.08)
    cast = dict(rest, t_near=0.28, k_near=0.3, t_far=-0.2, k_far=0.1, s_near=1.55, e_near=0.3, s_far=1.3, e_far=0.2,
                lean=0.1, head=-0.1, st=-0.75)
    keys = [(0, rest), (4, rest), (12, cast), (21, dict(cast, s_near=1.65, lean=0.12, st=-0.8)),
            (29, dict(cast, s_near=1.6, lean=0.09)), (37, dict(rest, s_near=0.45, e_near=0.85)), (38, rest)]
    Ls = 0.78 * u

    def body(t):
        P = kf(t, keys)
        st = P.pop("st")
        P.update(x=x0, ground=ground)
        G, J = humanoid(P, S, "m")
        sd = dv(st, 1)
        top = J["near_hand"] - sd * 0.62 * Ls
        return G, J, top, sd

    rng = np.random.default_rng(2)
    parts = []
    for i in range(56):
        hot = i < 32
        b = float(rng.uniform(11, 31))
        life = float(rng.uniform(7, 14))
        ang = float(rng.uniform(-2.6, 1.2)) if hot else float(rng.uniform(-2.0, 0.9))
        sp = float(rng.uniform(6, 11)) if hot else float(rng.uniform(3.5, 6.5))
        life = life + 3
        parts.append(dict(b=b, life=life, v0=sp * complex(math.cos(ang), math.sin(ang)), k=0.1 if hot else 0.07,
                          om=float(rng.choice([-1, 1]) * rng.uniform(0.04, 0.11)),
                          r=float(rng.uniform(1.6, 3.0)) if hot else float(rng.uniform(3.0, 5.0)),
                          col=[(255, 214, 96), (255, 246, 204), (255, 160, 60)][i % 3] if hot
                          else [(112, 214, 255), (204, 120, 255)][i % 2],
                          a=1.0 if hot else float(rng.uniform(0.55, 0.65)),
                          off=V(*rng.normal(0, 4, 2)), src="orb" if (hot or i % 3) else "palm"))
    cache = {}

    def src(tb, which):
        key = (round(tb, 4), which)
        if key not in cache:
            G, J, top, sd = body(tb)
            cache[key] = top if which == "orb" else J["far_hand"] + V(0.02 * u, 0)
        return cache[key]

    def pose(t):
        G, J, top, sd = body(t)
        hand = J["near_hand"]
        staff = [cap("staff", top + sd * 0.02 * u, hand + sd * 0.38 * Ls, 0.013 * u, 0.011 * u, (110, 72, 40), sh=0.35),
                 stroke("prong1", [top + sd * 0.02 * u + rot(V(0.035, 0) * u, 0), top - sd * 0.05 * u + V(0.02, 0) * u], 0.008 * u,
                        (180, 150, 70), sh=0),
                 stroke("prong2", [top + sd * 0.02 * u - V(0.035, 0) * u, top - sd * 0.05 * u - V(0.02, 0) * u], 0.008 * u,
                        (180, 150, 70), sh=0),
                 circ("orb", top - sd * 0.02 * u, 0.036 * u, (244, 150, 44), sh=0.45)]
        hc = J["head"]
        hat = [ell("brim", hc + V(0.0, -0.06) * u, 0.115 * u, 0.022 * u, -0.05, (40, 48, 120), sh=0.2),
               poly("cone", [hc + V(-0.075, -0.065) * u, hc + V(0.07, -0.07) * u, hc + V(-0.02, -0.2) * u,
                             hc + V(-0.13, -0.27) * u, hc + V(-0.06, -0.16) * u], (44, 52, 128), sh=0.35)]
        beard = [poly("beard", [hc + V(0.0, 0.035) * u, hc + V(0.07, 0.03) * u, hc + V(0.06, 0.12) * u,
                                hc + V(0.02, 0.19) * u, hc + V(-0.015, 0.09) * u], (202, 202, 208), sh=0.25)]
        lg = J["legs"]
        xs = [p[0] for sd_ in lg.values() for p in sd_[1:3]]
        hem_y = ground - 0.07 * u
        robe = [poly("robe", [J["hip"] + V(0.08, -0.06) * u, V(max(xs) + 0.06 * u, hem_y), V(min(xs) - 0.07 * u, hem_y + 4),
                              J["hip"] + V(-0.085, -0.06) * u], (46, 56, 146), sh=0.3),
                cap("trim", V(min(xs) - 0.07 * u, hem_y + 3), V(max(xs) + 0.06 * u, hem_y), 0.012 * u, 0.012 * u,
                    (206, 170, 70), sh=0.2)]
        ps = []
        for i, p in enumerate(parts):
            tau = t - p["b"]
            if tau < 0 or tau > p["life"]:
                ps.append(circ(f"p{i}", V(0, 0), 1, p["col"], a=0.0))
                continue
            o = src(p["b"], p["src"]) + p["off"]
            dz = cplx_path(p["v0"], p["k"], p["om"], tau)
            pos = o + V(dz.real, dz.imag) + V(0, -0.25 * tau if p["a"] < 1 else 0.12 * tau * tau * 0.3)
            r = p["r"] * (1 - 0.8 * tau / p["life"])
            ps.append(circ(f"p{i}", pos, r, p["col"], a=p["a"], sh=0.0))
        return order(G, "far_arm", "far_leg", "near_leg", "torso", robe, "head", beard, hat, staff, "near_arm", ps)
    return Case("spark_skill", "skill", W, H, 39, 21, (0, 177, 64),
                dict(col=(14, 168, 72), lr=(1.04, 0.96), vig=0.1, mottle=2.0), pose,
                "old mage (blue robe, grey beard and hair that take the screen tint, amber orb staff) raises the staff "
                "and casts: 56 particles leave the orb and the left hand from frame 11 to 48, 32 opaque hot sparks "
                "(r 1.6-3 px) and 24 cyan/violet motes at 55-65 % opacity (r 3-5 px), flying up to ~90 px out, curving and "
                "shrinking, apart from the body; the truth includes every particle (motion-blurred)",
                wrap=(0.26, 3.0), grain=2.0)


# 3 -------------------------------------------------------------------------- shield drop
def case_shield_drop():
    W = H = 448
    u, ground, x0 = 262.0, 424.0, 214.0
    S = dict(h=u, skin=(230, 190, 160), top=(214, 216, 222), sleeve=(200, 203, 210), fore=(188, 191, 199),
             pants=(170, 174, 182), boot=(122, 126, 136), glove=(110, 112, 120), belt=(90, 62, 40))
    rest = dict(t_near=0.22, k_near=0.25, t_far=-0.2, k_far=0.15, s_near=0.55, e_near=0.95, s_far=0.1, e_far=0.9,
                lean=0.06, head=0.0, a_near=0.0, a_far=0.0, dx=0.0)
    hit = dict(rest, t_near=0.1, k_near=0.55, t_far=-0.5, k_far=0.35, s_near=1.95, e_near=0.25, s_far=-0.9,
               e_far=0.5, lean=-0.36, head=0.32, dx=-22.0)
    keys = [(0, rest), (2.5, rest), (6, hit), (11, dict(hit, lean=-0.25, head=0.18, s_near=1.2, dx=-26.0)),
            (21, dict(rest, lean=-0.08, s_near=0.35, e_near=0.5, k_near=0.45, dx=-24.0))]

    def body(t):
        P = kf(t, keys)
        P.update(x=x0 + P.pop("dx"), ground=ground)
        return humanoid(P, S, "k")
    shl = np.array([(0, -0.17), (0.07, -0.145), (0.078, -0.02), (0.0, 0.2), (-0.078, -0.02), (-0.07, -0.145)]) * u
    t_rel = 4.6
    _, Jr = body(t_rel)
    c_r = Jr["near_hand"] + V(0.015 * u, 0.01 * u)
    th_r = 0.15 * (Jr["near_dir"] - 0.9)
    vx, vy, g = 5.2, -4.0, 2.5
    tau = 0.0
    while ballistic(c_r, (vx, vy), g, tau)[1] < ground - 0.03 * u:
        tau += 0.02
    tau_land = tau
    c_land = V(c_r[0] + vx * tau_land, ground - 0.03 * u)

    def shield(t, J):
        if t < t_rel:
            c = J["near_hand"] + V(0.015 * u, 0.01 * u)
            th, sx = 0.15 * (J["near_dir"] - 0.9), 1.0
        else:
            tau = min(t - t_rel, tau_land)
            c = ballistic(c_r, (vx, vy), g, tau) if t - t_rel < tau_land else c_land
            k = ramp(tau, 0, tau_land)
            th = th_r + (-math.pi / 2 - 2 * math.pi - th_r) * k
            sx = 1 - 0.7 * ramp(tau, tau_land * 0.5, tau_land)
        pts = [c + rot(V(p[0] * sx, p[1]), th) for p in shl]
        emb = [c + rot(V(p[0] * sx, p[1]), th) for p in np.array([(0, -0.11), (0.045, -0.03), (0.0, 0.1), (-0.045, -0.03)]) * u]
        return [poly("shield", pts, (42, 64, 150), ol=((212, 172, 62), 2.2), sh=0.35),
                poly("emblem", emb, (226, 228, 234), sh=0.2)]

    def pose(t):
        G, J = body(t)
        hc = J["head"]
        helm = [ell("helm", hc + V(0.0, -0.004) * u, 0.078 * u, 0.086 * u, 0.0, (206, 209, 216), sh=0.4),
                cap("visor", hc + V(0.01, 0.0) * u, hc + V(0.075, 0.002) * u, 0.009 * u, 0.009 * u, (38, 40, 48), sh=0),
                poly("plume", [hc + V(-0.02, -0.08) * u, hc + V(0.03, -0.1) * u, hc + V(-0.06, -0.15) * u,
                               hc + V(-0.14, -0.09) * u, hc + V(-0.1, -0.07) * u], (176, 30, 40), sh=0.3)]
        hp, up, fw = J["hip"], J["up"], J["fwd"]
        tab = [poly("tabard", [hp + up * 0.26 * u + fw * 0.05 * u, hp - up * 0.12 * u + fw * 0.055 * u,
                               hp - up * 0.12 * u - fw * 0.01 * u, hp + up * 0.26 * u - fw * 0.02 * u], (168, 30, 38), sh=0.3)]
        sw = blade_ops("sw", J["far_hand"], dv(J["far_dir"] + 0.6), 0.3 * u, 0.03 * u, 0.07 * u)
        sh = shield(t, J)
        if t < t_rel:
            return order(G, sw, "far_arm", "far_leg", "torso", tab, "near_leg", "head", helm, "near_arm", sh)
        return order(G, sw, "far_arm", "far_leg", "torso", tab, "near_leg", "head", helm, sh, "near_arm")
    return Case("shield_drop_hurt", "hurt", W, H, 22, 19, (72, 190, 96),
                dict(col=(66, 182, 92), floor=(0.66, (74, 172, 88), 5.0, -0.08), corner=0.07, mottle=1.8, vig=0.06), pose,
                "knight in white/grey plate (takes the screen tint) with a red tabard and plume is hit from the "
                "front at frame 3 and knocked back; the kite shield (blue, gold rim) is flung from the hand at "
                "frame 4.6, tumbles and lies flat on the floor from frame ~18, ~60 px in front of him; the truth "
                "includes the shield throughout; the screen is a soft studio green whose floor meets the wall "
                "at y=296, behind the knight's thighs", wrap=(0.24, 4.5), grain=1.6, settle=3)


# 4 -------------------------------------------------------------------------- akimbo idle
def case_akimbo_idle():
    W, H = 384, 640
    u, ground, x0 = 452.0, 614.0, 190.0
    S = dict(h=u, skin=(150, 100, 72), hair=(26, 22, 24), top=(196, 198, 204), sleeve=(190, 192, 198),
             pants=(52, 60, 88), boot=(236, 236, 236), eye=(20, 16, 16), foot=1.15, arm_r=0.03, chest=0.86, arm=1.1)

    def pose(t):
        ph = 2 * math.pi * t / 56
        br = 0.012 * (1 - math.cos(2 * ph)) * ramp(t, 0, 6)
        sw = 0.02 * math.sin(ph) * ramp(t, 0, 10)
        P = dict(x=x0 + 3 * math.sin(ph) * ramp(t, 0, 10), ground=ground, breath=br, sway=sw,
                 head=0.05 * math.sin(ph + 0.8) * ramp(t, 0, 10),
                 **{"t-1": 0.17 - sw, "k-1": 0.09 - sw, "t1": 0.17 + sw, "k1": 0.09 + sw,
                    # left (screen) arm: hand on hip; right arm hanging, a slit from the body
                    "s-1": 0.8 + 0.03 * math.sin(2 * ph), "f-1": -1.12 + 0.03 * math.sin(2 * ph),
                    "s1": 0.17 + 0.015 * math.sin(2 * ph + 1), "f1": 0.1 + 0.02 * math.sin(2 * ph + 1)})
        G, J = front_humanoid(P, S, "a")
        hc, up, rt = J["head"], J["up"], J["rt"]
        hood = [ell("hood", hc + up * (-0.06 * u), 0.1 * u, 0.06 * u, 0.0, (176, 178, 184), sh=0.3)]
        hp, nk = J["hip"], J["neck"]
        pocket = [poly("pocket", [hp + up * 0.02 * u - rt * 0.06 * u, hp + up * 0.1 * u - rt * 0.045 * u,
                                  hp + up * 0.1 * u + rt * 0.045 * u, hp + up * 0.02 * u + rt * 0.06 * u], (168, 170, 176), sh=0.2)]
        strings = [stroke("str-1", [nk - up * 0.02 * u - rt * 0.02 * u, nk - up * 0.1 * u - rt * 0.024 * u], 1.4, (240, 240, 240), sh=0),
                   stroke("str1", [nk - up * 0.02 * u + rt * 0.02 * u, nk - up * 0.095 * u + rt * 0.018 * u], 1.4, (240, 240, 240), sh=0)]
        soles = [cap(f"sole{sd}", J[f"ank{sd}"] + V(sd * 0.012 * u - 0.04 * u, 0.052 * u), J[f"ank{sd}"] + V(sd * 0.012 * u + 0.04 * u, 0.052 * u),
                     0.008 * u, 0.008 * u, (150, 150, 154), sh=0) for sd in (-1, 1)]
        return order(G, hood, "legs", soles, "torso", pocket, strings, "head", "arms")
    return Case("akimbo_holes_idle", "idle", W, H, 56, 22, (0, 255, 0),
                dict(col=(26, 230, 44), tb=(1.05, 0.93), lr=(0.97, 1.03), mottle=2.4), pose,
                "front view: a young man in a light grey hoodie (takes the screen tint), dark jeans, white "
                "sneakers, one hand on the hip (a ~35x60 px triangular hole between arm and body), the other "
                "arm hanging ~8-10 px from the body (a slit open at the bottom), legs apart (a tall triangle "
                "of screen between them); breathing and a slow sway; light wrap also inside the holes",
                wrap=(0.32, 4.0), grain=2.4)


# 5 -------------------------------------------------------------------------- chakram
def chakram_ops(pre, c, spin, ro, ri, col=(222, 192, 96), edge=(176, 180, 192)):
    ops = [ring(pre + "ring", c, ro, ri, col, sh=0.4, ol=((96, 72, 30), 0.8))]
    sp = []
    for k in range(8):
        a = spin + k * math.pi / 4
        d = V(math.cos(a), math.sin(a))
        n = V(-d[1], d[0])
        sp.append([c + d * ro * 0.9 + n * ro * 0.2, c + d * ro * 1.42 - n * ro * 0.05, c + d * ro * 0.9 - n * ro * 0.08])
    ops.insert(0, multi(pre + "spikes", sp, edge, sh=0.3))
    return ops


def case_chakram():
    W = H = 512
    u, ground, x0 = 300.0, 472.0, 200.0
    S = dict(h=u, skin=(204, 150, 110), hair=(34, 26, 22), top=(206, 124, 54), sleeve=(206, 124, 54), fore=(204, 150, 110),
             pants=(82, 56, 40), boot=(62, 46, 34), belt=(180, 40, 40), ol=((50, 30, 20), 0.7))
    ready = dict(t_near=0.3, k_near=0.35, t_far=-0.25, k_far=0.2, s_near=0.6, e_near=0.9, s_far=0.2, e_far=1.2,
                 lean=0.1, head=0.0, a_near=0.0, a_far=0.0, dx=0.0)
    wind = dict(ready, s_near=-1.3, e_near=1.9, lean=-0.05, t_near=0.4, k_near=0.3, t_far=-0.35, s_far=0.9, e_far=0.6, dx=-8.0)
    sweep = dict(ready, s_near=2.35, e_near=0.15, lean=0.2, t_near=0.5, k_near=0.55, t_far=-0.45, k_far=0.3, s_far=-0.6,
                 e_far=0.6, head=-0.1, dx=10.0)
    down = dict(sweep, s_near=0.9, e_near=0.25, lean=0.3, dx=14.0)
    keys = [(0, ready), (5, ready), (12, wind), (17, sweep), (22, down), (30, dict(ready, dx=8.0)), (38, dict(ready, dx=4.0))]
    ro, ri = 0.1 * u, 0.07 * u

    def pose(t):
        P = kf(t, keys)
        P.update(x=x0 + P.pop("dx"), ground=ground)
        G, J = humanoid(P, S, "c")
        d = dv(J["near_dir"] + 0.2)
        c = J["near_hand"] + d * (ro * 0.85)
        spin = 0.25 * t + 2.6 * ramp(t, 11, 22) * math.pi
        ck = chakram_ops("ck", c, spin, ro, ri)
        grip = [cap("grip", J["near_hand"] - V(-d[1], d[0]) * 0.025 * u, J["near_hand"] + V(-d[1], d[0]) * 0.025 * u,
                    0.012 * u, 0.012 * u, (70, 40, 30), sh=0.2)]
        hc = J["head"]
        knot = [circ("topknot", hc + V(-0.04, -0.08) * u, 0.03 * u, (34, 26, 22), ol=((20, 14, 10), 0.7))]
        c2 = J["far_hand"] + V(-0.01 * u, 0.03 * u)
        ck2 = chakram_ops("ck2", c2, 0.4, ro * 0.75, ri * 0.72, col=(200, 172, 86))
        return order(G, ck2, "far_arm", "far_leg", "torso", "near_leg", knot, "head", ck, "near_arm", grip)
    return Case("chakram_attack", "attack", W, H, 39, 20, (0, 177, 64),
                dict(col=(12, 172, 66), lr=(0.95, 1.06), vig=0.08, mottle=2.0), pose,
                "warrior (orange tunic, red sash, thin outline) swings a spiked gold chakram (outer r 30 px, a 42 px "
                "hole the screen shows through) from behind the back round over the head and down, spinning; a "
                "smaller chakram (32 px hole) hangs in the far hand; the swing is motion-blurred, which fills "
                "the moving hole partly (the truth is the time-averaged coverage)", wrap=(0.28, 3.0), grain=2.0)


# 6 -------------------------------------------------------------------------- archer
def case_archer():
    W, H = 576, 448
    u, ground, x0 = 286.0, 424.0, 150.0
    S = dict(h=u, skin=(232, 190, 156), hair=(120, 70, 36), top=(210, 190, 150), sleeve=(210, 190, 150), fore=(120, 80, 46),
             pants=(100, 78, 56), boot=(84, 56, 36), belt=(84, 56, 36), glove=(120, 80, 46))
    rest = dict(t_near=0.2, k_near=0.15, t_far=-0.22, k_far=0.1, s_near=0.95, e_near=1.45, s_far=1.47, e_far=0.03,
                lean=0.0, head=0.05, a_near=0.0, a_far=0.0, dr=0.0)
    drawn = dict(rest, s_near=-1.95, e_near=3.72, lean=-0.03, head=0.08, dr=1.0)
    keys = [(0, rest), (4, rest), (17, drawn), (29, dict(drawn, s_far=1.5)), (29.5, dict(drawn, s_near=-2.2, e_near=3.6, dr=0.0)),
            (34, dict(drawn, s_near=-2.3, e_near=3.3, s_far=1.45, dr=0.0)), (38, dict(drawn, s_near=-1.7, e_near=2.8, dr=0.0))]
    t_rel = 29.2
    Lb, k0 = 0.27 * u, 0.07 * u

    def body(t):
        P = kf(t, keys)
        dr = P.pop("dr")
        P.update(x=x0, ground=ground)
        G, J = humanoid(P, S, "b")
        return G, J, dr

    def bow_geom(J, dr, t):
        grip = J["far_hand"]
        up = V(0.12, -1.0)
        up = up / np.linalg.norm(up)
        bk = V(-up[1], up[0]) * -1  # toward the archer
        if bk[0] > 0:
            bk = -bk
        k = k0 + 0.035 * u * dr
        L = Lb * (1 - 0.06 * dr)
        ys = np.linspace(-1, 1, 25)
        cl = [grip + up * (y * L) + bk * (k * y * y) for y in ys]
        return grip, up, bk, L, k, cl

    _, Jr, _ = body(t_rel)
    grip_r, up_r, bk_r, L_r, k_r, cl_r = bow_geom(Jr, 1.0, t_rel)
    nock_r = Jr["near_hand"]
    adir = (grip_r - nock_r) / np.linalg.norm(grip_r - nock_r)

    def pose(t):
        G, J, dr = body(t)
        grip, up, bk, L, k, cl = bow_geom(J, dr, t)
        tips = cl[0], cl[-1]
        ys = np.linspace(-1, 1, 25)
        wid = 0.022 * u * (1 - 0.72 * np.abs(ys))
        nrm = [V(1, 0) * 0.0 + (-bk) for _ in ys]
        left = [p + n * w / 2 for p, n, w in zip(cl, nrm, wid)]
        right = [p - n * w / 2 for p, n, w in zip(cl, nrm, wid)]
        bow = [poly("bow", left + right[::-1], (150, 98, 50), sh=0.3),
               cap("bowgrip", grip - up * 0.03 * u, grip + up * 0.03 * u, 0.014 * u, 0.014 * u, (70, 45, 30), sh=0.2)]
        if t < t_rel:
            nock = J["near_hand"] if t > 1.5 else mix(tuple((tips[0] + tips[1]) / 2), tuple(J["near_hand"]), ramp(t, 0, 1.5))
            nock = np.asarray(nock, float)
        else:
            mid = (tips[0] + tips[1]) / 2
            vib = 0.02 * u * math.exp(-(t - t_rel) / 2.0) * math.sin((t - t_rel) * 2.6)
            nock = mid + bk * vib
        string = [stroke("string", [tips[0], nock, tips[1]], 0.9, (234, 228, 212), sh=0)]
        if t < t_rel:
            a0, ad = nock, (grip - nock) / np.linalg.norm(grip - nock)
        else:
            tau = t - t_rel
            a0 = nock_r + adir * 24.0 * tau + V(0, 0.08 * tau * tau)
            ad = adir
        al = 0.34 * u
        an = V(-ad[1], ad[0])
        tip = a0 + ad * al
        arrow = [stroke("shaft", [a0, tip - ad * 0.02 * u], 1.7, (206, 176, 124), sh=0),
                 poly("head", [tip, tip - ad * 0.04 * u + an * 0.012 * u, tip - ad * 0.04 * u - an * 0.012 * u], (150, 152, 162), sh=0.1),
                 poly("flet1", [a0 + ad * 0.01 * u, a0 + ad * 0.06 * u, a0 + ad * 0.0 * u + an * 0.018 * u], (240, 236, 228), sh=0),
                 poly("flet2", [a0 + ad * 0.01 * u, a0 + ad * 0.06 * u, a0 + ad * 0.0 * u - an * 0.018 * u], (190, 40, 40), sh=0)]
        hc = J["head"]
        hood = [poly("hood", [hc + V(-0.09, 0.07) * u, hc + V(-0.095, -0.05) * u, hc + V(-0.02, -0.098) * u,
                              hc + V(0.05, -0.085) * u, hc + V(0.072, -0.03) * u, hc + V(0.0, -0.055) * u,
                              hc + V(-0.03, 0.06) * u], (132, 40, 46), sh=0.3)]
        quiver = [seg_box("quiver", J["neck"] + V(-0.1, 0.0) * u, J["hip"] + V(-0.07, -0.02) * u, 0.05 * u, 0.045 * u,
                          (96, 60, 34), sh=0.3)]
        return order(G, quiver, "far_arm", "far_leg", "torso", "near_leg", "head", hood, bow, arrow, string, "near_arm")
    return Case("archer_bow", "attack", W, H, 39, 23, (0, 255, 0),
                dict(col=(20, 238, 36), tb=(1.02, 0.95), vig=0.12, mottle=2.5), pose,
                "archer (red hood, tan shirt) holds a wooden bow (6 px at the grip, 2 px at the tips) with a 0.9 px "
                "pale string: the D between bow and string shows the screen (~20 px deep), drawn to a large V with "
                "the arrow crossing it (frames 4-29); the arrow is released at frame 29 and flies right 24 px a "
                "frame, ending ~40 px from the edge; the truth includes bow, string and arrow in every frame",
                wrap=(0.3, 3.5), grain=2.2)


# 7 -------------------------------------------------------------------------- tiny imp
def case_tiny_imp():
    W, H = 768, 448
    u, ground, x0 = 92.0, 352.0, 380.0
    red = (190, 54, 44)
    S = dict(h=u, skin=red, top=red, pants=(44, 32, 32), pants2=red, boot=(120, 34, 30), eye=(250, 222, 60),
             ol=((48, 12, 10), 0.7), far=0.72)

    def pose(t):
        P = walk_pose(t / 28.0, amp=ramp(t, 0, 4) * 0.25 + 0.75)
        P.update(x=x0 + 2 * math.sin(2 * math.pi * t / 56), ground=ground, lean=0.08)
        G, J = humanoid(P, S, "i")
        hc, hp, up, fw = J["head"], J["hip"], J["up"], J["fwd"]
        horns = [poly("horn1", [hc + V(0.0, -0.06) * u, hc + V(0.035, -0.07) * u, hc + V(-0.02, -0.14) * u], (232, 216, 170), sh=0.2,
                      ol=((48, 12, 10), 0.6)),
                 poly("horn2", [hc + V(-0.05, -0.05) * u, hc + V(-0.02, -0.07) * u, hc + V(-0.09, -0.12) * u], (206, 190, 150), sh=0.2,
                      ol=((48, 12, 10), 0.6))]
        flap = 0.25 * math.sin(2 * math.pi * t / 9)
        sh = hp + up * 0.24 * u - fw * 0.04 * u
        wing = [sh + rot(V(x, y) * u, flap) for x, y in [(0, 0), (-0.12, -0.16), (-0.2, -0.1), (-0.17, -0.05), (-0.2, 0.0), (-0.14, 0.02), (-0.12, 0.07)]]
        wings = [poly("wing", wing, (92, 30, 32), sh=0.2, ol=((48, 12, 10), 0.6))]
        sw = math.sin(2 * math.pi * t / 28 + 1.0)
        base = hp - fw * 0.05 * u
        pts = [base + V(-0.08 * i - 0.01 * i * i, 0.06 * i - 0.035 * i * i + 0.03 * sw * i * i / 4) * u for i in range(5)]
        tail = [stroke("tail", pts, 1.3, (170, 46, 38), sh=0)]
        tip = pts[-1]
        dd = (pts[-1] - pts[-2]) / np.linalg.norm(pts[-1] - pts[-2])
        nn = V(-dd[1], dd[0])
        tail.append(poly("tailtip", [tip + dd * 0.05 * u, tip + nn * 0.025 * u - dd * 0.01 * u, tip - nn * 0.025 * u - dd * 0.01 * u],
                         (150, 36, 30), sh=0, ol=((48, 12, 10), 0.5)))
        return order(G, wings, tail, "far_arm", "far_leg", "torso", "near_leg", horns[1:], "head", horns[:1], "near_arm")
    return Case("tiny_imp_walk", "walk", W, H, 56, 21, (72, 190, 96),
                dict(col=(64, 181, 90), tb=(1.03, 0.96), vig=0.1, mottle=1.6), pose,
                "a red imp ~100 px tall (22 % of the frame height) walking in place in the middle of a 768x448 "
                "frame: cream horns, small bat wings flapping, a 1.3 px tail with a spade tip, 0.7 px dark "
                "outline; soft studio green", ss=4, roi=(250, 170, 520, 380), wrap=(0.25, 2.5), grain=1.8)


# 8 -------------------------------------------------------------------------- ogre close-up
def case_ogre_closeup():
    W = H = 448
    u, ground = 410.0, 422.0
    S = dict(h=u, skin=(164, 138, 112), top=(164, 138, 112), sleeve=(164, 138, 112), pants=(156, 130, 106),
             boot=(96, 72, 52), eye=(40, 20, 14), leg=0.78, torso=1.12, hipw=0.075, shw=0.135, chest=1.55,
             head=1.05, thigh_r=0.075, arm_r=0.052, arm=1.12, foot=1.5, ol=((52, 38, 30), 1.2))

    def pose(t):
        ph = 2 * math.pi * t / 56
        r = ramp(t, 0, 8)
        br = 0.018 * (1 - math.cos(2 * ph)) * r
        P = {"x": 218.0 + 2 * math.sin(ph) * r, "ground": ground, "breath": br, "sway": 0.015 * math.sin(ph) * r,
             "head": -0.04 * math.sin(ph + 0.5) * r, "t-1": 0.12, "k-1": 0.05, "t1": 0.12, "k1": 0.05,
             "s-1": 0.42 + 0.02 * math.sin(2 * ph), "f-1": 0.18 + 0.03 * math.sin(2 * ph),
             "s1": 0.38 + 0.05 * math.sin(ph) * r, "f1": -0.05 + 0.12 * (0.5 - 0.5 * math.cos(ph)) * r}
        G, J = front_humanoid(P, S, "o")
        hc, up, rt, hp = J["head"], J["up"], J["rt"], J["hip"]
        hs = u * 1.05
        tusks = [poly(f"tusk{s_}", [hc + (-up * 0.045 + rt * s_ * 0.03) * hs, hc + (-up * 0.045 + rt * s_ * 0.045) * hs,
                                    hc + (-up * 0.012 + rt * s_ * 0.04) * hs], (236, 228, 204), sh=0.1, ol=((52, 38, 30), 0.8))
                 for s_ in (-1, 1)]
        brow = [cap("brow", hc + (up * 0.028 - rt * 0.05) * hs, hc + (up * 0.028 + rt * 0.05) * hs, 0.012 * hs, 0.012 * hs,
                    (120, 98, 80), sh=0)]
        ears = [ell(f"ear{s_}", hc + rt * s_ * 0.07 * hs, 0.022 * hs, 0.032 * hs, s_ * 0.4, (156, 128, 104), ol=((52, 38, 30), 1.0))
                for s_ in (-1, 1)]
        # grey fur pelt over the shoulders, jagged lower edge
        nk = J["neck"]
        top_y = -0.005
        pel = [nk + rt * (-0.2 * u) + up * (-0.02 * u)]
        for i in range(13):
            x = -0.2 + 0.4 * i / 12
            pel.append(nk + rt * (x * u) + up * ((-0.085 if i % 2 else -0.055) * u - 0.02 * u * (1 - (x / 0.2) ** 2)))
        pel += [nk + rt * (0.2 * u) + up * (-0.02 * u), nk + rt * (0.14 * u) + up * (top_y * u + 0.02 * u),
                nk + rt * (-0.14 * u) + up * (top_y * u + 0.02 * u)]
        pelt = [poly("pelt", pel, (178, 178, 172), sh=0.3, ol=((70, 70, 68), 1.0))]
        loin = [poly("loin", [hp + up * 0.05 * u - rt * 0.125 * u, hp + up * 0.05 * u + rt * 0.125 * u,
                              hp - up * 0.1 * u + rt * 0.08 * u, hp - up * 0.07 * u, hp - up * 0.11 * u - rt * 0.08 * u],
                      (110, 74, 44), sh=0.3, ol=((52, 38, 30), 1.0)),
                cap("obelt", hp + up * 0.06 * u - rt * 0.13 * u, hp + up * 0.06 * u + rt * 0.13 * u, 0.018 * u, 0.018 * u,
                    (70, 50, 34), sh=0.2)]
        hd = J["hand1"]
        cd = V(0.38, 1.0)
        cd = cd / np.linalg.norm(cd)
        club = [cap("club", hd - cd * 0.03 * u, hd + cd * 0.33 * u, 0.022 * u, 0.05 * u, (122, 82, 46), sh=0.4,
                    ol=((52, 38, 30), 1.0)),
                circ("knot1", hd + cd * 0.22 * u + V(-cd[1], cd[0]) * 0.03 * u, 0.012 * u, (92, 60, 34), sh=0),
                circ("knot2", hd + cd * 0.29 * u - V(-cd[1], cd[0]) * 0.025 * u, 0.01 * u, (92, 60, 34), sh=0)]
        return order(G, "legs", "torso", loin, ears, "head", tusks, brow, club, "arms", pelt)
    return Case("ogre_closeup_idle", "idle", W, H, 56, 20, (0, 177, 64),
                dict(col=(16, 166, 70), tb=(1.04, 0.95), mottle=2.0, vig=0.1), pose,
                "close-up: a stocky grey-tan ogre filling 88 % of the frame height (head ~29 px from the top, "
                "feet ~20 px from the bottom, never touching), grey fur pelt over the shoulders (takes the "
                "screen tint), tusks, loincloth, a club in the right hand resting forward; gaps of screen "
                "between arms and body and between the legs; breathing idle", wrap=(0.3, 5.0), grain=2.0)


# 9 -------------------------------------------------------------------------- greatsword, cropped
def case_greatsword_cropped():
    W = H = 512
    u, ground, x0 = 436.0, 492.0, 178.0
    S = dict(h=u, skin=(204, 152, 112), hair=(92, 60, 34), top=(204, 152, 112), sleeve=(204, 152, 112),
             pants=(124, 88, 52), pants2=(100, 70, 44), boot=(82, 56, 36), belt=(60, 40, 28), glove=(110, 74, 46),
             ol=((44, 30, 22), 1.0))
    guard = dict(t_near=0.3, k_near=0.3, t_far=-0.24, k_far=0.18, s_near=0.55, e_near=1.0, s_far=0.45, e_far=1.05,
                 lean=0.06, head=0.0, a_near=0.0, a_far=0.0, sa=2.3, dx=0.0)
    over = dict(guard, s_near=2.75, e_near=0.3, s_far=2.6, e_far=0.35, lean=-0.12, head=0.1, sa=3.7, dx=-6.0)
    slash = dict(guard, s_near=1.3, e_near=0.15, s_far=1.25, e_far=0.2, lean=0.28, head=-0.12, sa=1.42, t_near=0.5,
                 k_near=0.6, t_far=-0.4, dx=10.0)
    keys = [(0, guard), (4, guard), (12, over), (15, over), (19, slash), (30, dict(slash, sa=1.5, lean=0.24)),
            (38, dict(guard, dx=4.0))]

    def pose(t):
        P = kf(t, keys)
        sa = P.pop("sa")
        P.update(x=x0 + P.pop("dx"), ground=ground)
        G, J = humanoid(P, S, "g")
        grip = (J["near_hand"] + J["far_hand"]) / 2
        sw = blade_ops("gs", grip, dv(sa), 0.56 * u, 0.05 * u, 0.12 * u, ol=((44, 30, 22), 1.0))
        hc = J["head"]
        hair = [poly("mane", [hc + V(-0.07, -0.06) * u, hc + V(0.02, -0.085) * u, hc + V(-0.02, -0.03) * u,
                              hc + V(-0.05, 0.04) * u, hc + V(-0.1, 0.14) * u, hc + V(-0.12, 0.05) * u], (92, 60, 34), sh=0.3,
                      ol=((44, 30, 22), 1.0))]
        hp, up, fw = J["hip"], J["up"], J["fwd"]
        kilt = [poly("kilt", [hp + up * 0.05 * u - fw * 0.08 * u, hp + up * 0.05 * u + fw * 0.075 * u,
                              hp - up * 0.12 * u + fw * 0.09 * u, hp - up * 0.1 * u, hp - up * 0.13 * u - fw * 0.1 * u],
                      (130, 96, 58), sh=0.3, ol=((44, 30, 22), 1.0))]
        return order(G, "far_arm", "far_leg", "torso", kilt, "near_leg", "head", hair, sw, "near_arm")
    return Case("greatsword_cropped", "attack", W, H, 39, 22, (0, 255, 0),
                dict(col=(24, 232, 42), tb=(1.03, 0.95), vig=0.1, mottle=2.2), pose,
                "close-up barbarian 86 % of the frame height swings a 240 px greatsword: raised overhead its "
                "blade leaves the top edge (frames ~7-17), the slash and the held follow-through carry it past "
                "the right edge (frames ~17-33); the body itself stays inside; should raise CROPPED",
                flags=("CROPPED",), wrap=(0.26, 4.0), grain=2.0)


# 10 ------------------------------------------------------------------------- runner, cast shadow
def case_runner_shadow():
    W, H = 768, 448
    u, ground, x0 = 272.0, 404.0, 500.0
    S = dict(h=u, skin=(232, 190, 160), hair=(96, 58, 36), top=(232, 112, 32), sleeve=(232, 112, 32),
             pants=(40, 46, 84), boot=(238, 238, 238), belt=(40, 46, 84))

    def pose(t):
        a = ramp(t, 0, 3)
        P = run_pose(t / 14.0 + 0.1)
        R = dict(t_near=0.15, k_near=0.2, t_far=-0.15, k_far=0.15, s_near=-0.3, e_near=1.2, s_far=0.3, e_far=1.2,
                 a_near=0.0, a_far=0.0, lean=0.1, head=-0.05)
        P = {k: R[k] + (P[k] - R[k]) * a for k in R}
        ph = 2 * math.pi * (t / 14.0 + 0.1)
        P.update(x=x0, ground=ground, lift=a * 10 * max(0.0, math.sin(2 * ph + 0.6)))
        G, J = humanoid(P, S, "u")
        hc = J["head"]
        cap_ = [ell("cap", hc + V(-0.005, -0.045) * u, 0.07 * u, 0.045 * u, 0.0, (236, 236, 236), sh=0.35),
                ell("brim", hc + V(0.06, -0.03) * u, 0.045 * u, 0.01 * u, 0.1, (162, 162, 168), sh=0.1)]
        tail = [hc + V(-0.07, -0.01) * u]
        for i in range(1, 5):
            sw = 0.02 * math.sin(ph - i * 0.7)
            tail.append(tail[-1] + V(-0.03, 0.035 + sw) * u)
        pony = [cap(f"pony{i}", tail[i], tail[i + 1], 0.02 * u * (1 - i * 0.18), 0.02 * u * (1 - (i + 1) * 0.18), (96, 58, 36), sh=0.3)
                for i in range(4)]
        soles = []
        for side in ("far", "near"):
            hj, knee, ank, toe = J["legs"][side]
            soles.append(cap(f"sole{side}", ank + (toe - ank) * 0.05 + V(0, 0.02 * u), toe + V(0, 0.016 * u), 0.012 * u, 0.01 * u,
                             (150, 150, 156) if side == "near" else (118, 118, 124), sh=0))
        return order(G, pony, "far_arm", "far_leg", soles[:1], "torso", "near_leg", soles[1:], "head", cap_, "near_arm")
    return Case("runner_cast_shadow", "run", W, H, 56, 21, (0, 177, 64),
                dict(col=(16, 170, 74), floor=(0.585, (24, 148, 60), 6.0, -0.12), corner=0.08, mottle=2.0, vig=0.06), pose,
                "a runner (orange jacket, navy trousers, white cap and white/grey sneakers that take the tint) "
                "runs in place before a studio cyclorama: darker green floor meeting the wall at y=262, behind "
                "the hips; a long soft cast shadow falls ~370 px to the left on the floor (not in the truth); "
                "no dust cloud is drawn (whether a sprite keeps kicked-up dust is ambiguous)",
                shadow=(-1.3, -0.2, 0.45, 2.0), ground=ground, wrap=(0.24, 3.0), grain=2.0, settle=2)


# 14 ------------------------------------------------------------------------- ranger, camera shake
def case_ranger_shake():
    W = H = 512
    u, ground, x0 = 292.0, 470.0, 200.0
    S = dict(h=u, skin=(226, 184, 150), hair=(70, 46, 30), top=(36, 76, 42), sleeve=(36, 76, 42), fore=(110, 80, 50),
             pants=(96, 72, 46), boot=(58, 42, 30), belt=(80, 56, 34), glove=(110, 80, 50), ol=((24, 30, 20), 0.8))
    ready = dict(t_near=0.28, k_near=0.35, t_far=-0.25, k_far=0.2, s_near=0.4, e_near=1.1, s_far=0.2, e_far=0.9,
                 lean=0.1, head=0.0, a_near=0.0, a_far=0.0, dx=0.0, lift=0.0, ax=0.9)
    crouch = dict(ready, t_near=0.75, k_near=1.4, t_far=0.1, k_far=1.3, s_near=-2.5, e_near=-0.4, s_far=0.8, e_far=0.4,
                  lean=0.3, head=-0.15, ax=-0.3, dx=-4.0)
    jump = dict(ready, t_near=0.9, k_near=1.2, t_far=-0.3, k_far=0.8, s_near=-2.9, e_near=-0.6, s_far=1.2, e_far=0.3,
                lean=0.05, head=0.0, lift=44.0, ax=-0.2, dx=20.0)
    chop = dict(ready, t_near=0.7, k_near=1.3, t_far=-0.1, k_far=1.2, s_near=1.0, e_near=0.05, s_far=-0.4, e_far=0.5,
                lean=0.42, head=-0.2, lift=0.0, ax=1.2, dx=36.0)
    keys = [(0, ready), (5, ready), (11, crouch), (16, jump), (20, chop), (27, chop), (38, dict(ready, dx=30.0))]

    def shake(i):
        A = 1.0 + (5.0 * math.exp(-(i - 20) / 4.0) if i >= 20 else 0.0)
        dx = A * (0.6 * math.sin(i * 2.3 + 0.4) + 0.4 * math.sin(i * 5.1))
        dy = A * (0.6 * math.sin(i * 1.7 + 1.9) + 0.4 * math.sin(i * 4.3 + 0.7))
        return int(round(dx)), int(round(dy))

    def pose(t):
        P = kf(t, keys)
        ax = P.pop("ax")
        P.update(x=x0 + P.pop("dx"), ground=ground)
        G, J = humanoid(P, S, "n")
        d = dv(J["near_dir"] + ax)
        hd = J["near_hand"]
        n = V(-d[1], d[0])
        top = hd + d * 0.15 * u
        axe = [cap("haft", hd - d * 0.05 * u, top + d * 0.01 * u, 0.011 * u, 0.011 * u, (112, 76, 44), sh=0.3,
                   ol=((24, 30, 20), 0.7)),
               poly("axehead", [top - d * 0.035 * u, top - d * 0.05 * u + n * 0.075 * u, top + d * 0.03 * u + n * 0.085 * u,
                                top + d * 0.022 * u], (188, 192, 204), sh=0.2, ol=((24, 30, 20), 0.7),
                    grad=(top, (150, 154, 168), top + n * 0.08 * u, (222, 226, 236)))]
        hc, nk, hp = J["head"], J["neck"], J["hip"]
        sway = 0.05 * math.sin(t * 0.5)
        cloak = [poly("cloak", [nk + V(-0.03, -0.01) * u, nk + V(0.02, 0.01) * u, hp + V(-0.04, 0.05) * u,
                                hp + V(-0.12 - sway, 0.2) * u, hp + V(-0.2 - sway, 0.15) * u, hp + V(-0.14, 0.0) * u],
                      (106, 106, 52), sh=0.3, ol=((24, 30, 20), 0.8))]
        hat = [ell("hatbrim", hc + V(-0.005, -0.05) * u, 0.1 * u, 0.02 * u, -0.12, (112, 82, 50), sh=0.2, ol=((24, 30, 20), 0.7)),
               poly("hatcrown", [hc + V(-0.065, -0.055) * u, hc + V(0.05, -0.065) * u, hc + V(0.02, -0.12) * u,
                                 hc + V(-0.05, -0.11) * u], (112, 82, 50), sh=0.3, ol=((24, 30, 20), 0.7)),
               poly("feather", [hc + V(-0.04, -0.09) * u, hc + V(-0.1, -0.2) * u, hc + V(-0.16, -0.22) * u,
                                hc + V(-0.08, -0.1) * u], (162, 192, 44), sh=0.25, ol=((24, 30, 20), 0.6))]
        return order(G, cloak, "far_arm", "far_leg", "torso", "near_leg", "head", hat, axe, "near_arm")
    return Case("ranger_shake_attack", "attack", W, H, 39, 21, (0, 255, 0),
                dict(col=(28, 228, 46), tb=(1.04, 0.94), lr=(1.03, 0.97), vig=0.08, mottle=2.4), pose,
                "ranger (olive cloak, dark green tunic, yellow-green feather on a brown hat, thin outline) leaps and "
                "chops down with a hand axe; the camera shakes: the whole picture (screen included) moves 1 px "
                "a frame from frame 1 and up to 5-6 px on the impact at frame 20, decaying; the truth follows the "
                "character where the shaken frame shows it", wrap=(0.3, 3.5), grain=2.2, shake=shake)


# 16 ------------------------------------------------------------------------- truncated walk, blue
def case_walk_truncated():
    W = H = 448
    u, ground, x0 = 262.0, 418.0, 220.0
    S = dict(h=u, skin=(236, 196, 160), hair=(60, 40, 26), top=(192, 52, 46), sleeve=(192, 52, 46), pants=(104, 72, 46),
             boot=(70, 50, 35), belt=(70, 50, 35))

    def pose(t):
        P = walk_pose(t / 24.0, amp=0.6 + 0.4 * ramp(t, 0, 4))
        P.update(x=x0, ground=ground)
        G, J = humanoid(P, S, "v")
        hc = J["head"]
        hat = [ell("vbrim", hc + V(0.0, -0.045) * u, 0.12 * u, 0.022 * u, -0.05, (224, 192, 112), sh=0.25),
               ell("vcrown", hc + V(-0.005, -0.07) * u, 0.07 * u, 0.045 * u, -0.05, (214, 180, 100), sh=0.3),
               cap("vband", hc + V(-0.07, -0.055) * u, hc + V(0.065, -0.06) * u, 0.009 * u, 0.009 * u, (150, 40, 36), sh=0)]
        return order(G, "far_arm", "far_leg", "torso", "near_leg", "head", hat, "near_arm")
    return Case("walk_truncated_blue", "walk", W, H, 39, 22, (0, 71, 187),
                dict(col=(10, 80, 178), tb=(1.05, 0.93), vig=0.1, mottle=1.8), pose,
                "a villager (red shirt, brown trousers, straw hat) walks in place on a blue screen, but the clip "
                "has 39 frames (1.6 s: 1 s was asked for) where a walk needs 2 s (56); clean otherwise; should "
                "raise TRUNCATED", flags=("TRUNCATED",), wrap=(0.22, 3.0), grain=1.8)


# ---------------------------------------------------------------------------- quadruped rig
def quadruped(P, S, pre="q"):
    """Side view quadruped facing right. L = body length (px). P: x, ground, pitch, lift, neck (elevation
    of the neck), legs {name: (a1, a2, a3)} absolute angles from straight down (+ = forward)."""
    L = S["L"]
    p = P.get("pitch", 0.0)
    e = V(math.cos(p), -math.sin(p))
    n = V(-math.sin(p), -math.cos(p))  # up
    segs = S["legs"]  # (upper, lower, foot) lengths as fractions of L, front and rear
    # legs relative to the body centre
    roots = {"fn": 0.36 * L * e - 0.1 * L * n, "ff": 0.33 * L * e - 0.1 * L * n,
             "rn": -0.36 * L * e - 0.06 * L * n, "rf": -0.39 * L * e - 0.06 * L * n}
    chains = {}
    for k, r in roots.items():
        ls = segs["f" if k[0] == "f" else "r"]
        a = P["legs"][k]
        pts = [r]
        for ang, ln in zip(a, ls):
            pts.append(pts[-1] + ln * L * V(math.sin(ang), math.cos(ang)))
        chains[k] = pts
    low = max(c[-1][1] for c in chains.values()) + S.get("paw", 0.03) * L
    C = V(P["x"], P["ground"] - low - P.get("lift", 0.0))
    chains = {k: [C + q for q in c] for k, c in chains.items()}
    G = {k: [] for k in ("far_legs", "tail", "body", "near_legs", "head")}
    ol = S.get("ol")
    lr = S["leg_r"]
    for k, c in chains.items():
        far = k[1] == "f"
        g = G["far_legs" if far else "near_legs"]
        kk = S.get("far", 0.72) if far else 1.0
        cols = S["leg_cols"]["f" if k[0] == "f" else "r"]
        rads = lr["f" if k[0] == "f" else "r"]
        for i in range(3):
            g.append(cap(f"{pre}{k}{i}", c[i], c[i + 1], rads[i] * L, rads[i + 1] * L, mul(cols[i], kk), ol=ol))
        g.append(ell(f"{pre}{k}paw", c[3] + V(0.012 * L, 0.0), S.get("paw", 0.03) * L * 1.3, S.get("paw", 0.03) * L, 0.0,
                     mul(S["paw_col"], kk), ol=ol, sh=0.2))
    # body outline along the spine: (s from rear -0.5 to front 0.5, top offset, bottom offset)
    prof = S["body"]
    top = [C + e * (s * L) + n * (tp * L) for s, tp, bt in prof]
    bot = [C + e * (s * L) - n * (bt * L) for s, tp, bt in prof][::-1]
    G["body"].append(poly(pre + "body", chaikin(top + bot), S["col"], ol=ol, sh=0.25,
                          grad=(C + n * 0.16 * L, S["back"], C - n * 0.16 * L, S["belly"])))
    # neck and head
    nk = P.get("neck", 0.7) + p
    sh_pt = C + e * (0.38 * L) + n * (0.06 * L)
    hc = sh_pt + S["neck_len"] * L * V(math.cos(nk), -math.sin(nk))
    G["body"].append(cap(pre + "neck", sh_pt, hc, S["neck_r"][0] * L, S["neck_r"][1] * L, S["col"], ol=ol, sh=0.25,
                         grad=(sh_pt + n * 0.12 * L, S["back"], sh_pt - n * 0.1 * L, S["belly"])))
    ha = P.get("head", 0.5) + p
    hd = V(math.cos(ha), math.sin(ha))  # snout direction, head pitched down by ha
    hn = V(hd[1], -hd[0])
    G["head"].append(ell(pre + "skull", hc, S["skull"][0] * L, S["skull"][1] * L, ha, S["col"], ol=ol, sh=0.3))
    G["head"].append(cap(pre + "snout", hc + hd * 0.03 * L, hc + hd * S["snout"][0] * L, S["snout"][1] * L, S["snout"][2] * L,
                         S.get("snout_col", S["col"]), ol=ol, sh=0.3))
    G["head"].append(circ(pre + "nose", hc + hd * (S["snout"][0] + S["snout"][2] * 0.6) * L, S["snout"][2] * 0.8 * L,
                          S.get("nose", (30, 28, 28)), sh=0.2))
    G["head"].append(ell(pre + "eye", hc + hd * 0.03 * L + hn * 0.035 * L, 0.012 * L, 0.009 * L, ha, (30, 22, 16), sh=0))
    for i, (ex, ey, col) in enumerate(S["ears"]):
        b = hc + hd * ex * L + hn * ey * L
        G["head"].append(poly(f"{pre}ear{i}", [b - hd * 0.03 * L, b + hd * 0.03 * L, b + hn * S["ear_h"] * L - hd * 0.03 * L],
                              col, ol=ol, sh=0.2))
    J = dict(C=C, e=e, n=n, head=hc, hd=hd, hn=hn, sh=sh_pt, rear=C - e * 0.45 * L + n * 0.08 * L, chains=chains, L=L)
    return G, J


def gallop(ph, amp=1.0, front=(0.55, 1.0), rear=(0.5, 0.9), offs=None):
    """Leg angles of a gallop at phase ph (cycles); offs: per-leg phase offsets."""
    offs = offs or {"rf": 0.0, "rn": 0.1, "ff": 0.5, "fn": 0.6}
    legs = {}
    for k, o in offs.items():
        w = 2 * math.pi * (ph + o)
        s, c = math.sin(w), math.cos(w)
        if k[0] == "f":
            a1 = amp * front[0] * s + 0.05
            lift = max(0.0, c) * amp
            a2 = a1 - front[1] * lift * 1.1 - 0.05
            a3 = a2 + 0.3 + 0.9 * lift
            legs[k] = (a1, a2, a3 - 0.2 * (1 - lift))
        else:
            a1 = amp * rear[0] * s + 0.15
            lift = max(0.0, c) * amp
            a2 = a1 - 0.75 - rear[1] * lift * 0.8
            a3 = a2 + 0.85 + 0.3 * lift
            legs[k] = (a1, a2, a3)
    return legs


# 11 ------------------------------------------------------------------------- wolf, hot spot
def case_wolf_hotspot():
    W, H = 640, 384
    L = 206.0
    S = dict(L=L, col=(150, 150, 158), back=(100, 100, 108), belly=(212, 212, 218), leg_r={"f": (0.065, 0.042, 0.03, 0.026),
             "r": (0.085, 0.055, 0.032, 0.026)}, legs={"f": (0.26, 0.24, 0.11), "r": (0.26, 0.25, 0.15)},
             leg_cols={"f": [(170, 170, 176), (206, 206, 212), (222, 222, 226)], "r": [(128, 128, 136), (176, 176, 182), (214, 214, 218)]},
             paw_col=(200, 200, 206), paw=0.028,
             body=[(-0.55, 0.06, 0.06), (-0.46, 0.14, 0.12), (-0.3, 0.16, 0.1), (-0.1, 0.15, 0.07), (0.15, 0.16, 0.13),
                   (0.38, 0.19, 0.19), (0.5, 0.15, 0.16), (0.56, 0.04, 0.08)],
             neck_len=0.3, neck_r=(0.15, 0.1), skull=(0.12, 0.1), snout=(0.21, 0.06, 0.035), snout_col=(226, 226, 230),
             nose=(26, 24, 26), ears=[(-0.05, 0.06, (96, 96, 104)), (-0.1, 0.05, (80, 80, 88))], ear_h=0.1,
             ol=((40, 40, 46), 0.9), far=0.7)

    def pose(t):
        a = ramp(t, 0, 4)
        ph = t / 13.0
        legs = gallop(ph, amp=0.35 + 0.65 * a)
        w = 2 * math.pi * ph
        P = dict(x=300.0, ground=352.0, pitch=0.07 * math.sin(w + 1.2) * a, lift=a * 9 * max(0.0, math.sin(w + 0.3)),
                 neck=0.55 + 0.06 * math.sin(w + 2.0) * a, head=0.55, legs=legs)
        G, J = quadruped(P, S, "w")
        C, e, n = J["C"], J["e"], J["n"]
        p_ = P["pitch"]
        # tail: bushy, hanging back and down, swinging
        tail = []
        pts = [J["rear"] + n * 0.02 * L]
        for i in range(4):
            beta = 0.6 + 0.2 * i + 0.18 * math.sin(w - i * 0.7) * a
            pts.append(pts[-1] + 0.1 * L * V(-math.cos(beta + p_), math.sin(beta + p_)))
        for i in range(4):
            col = (70, 70, 78) if i == 3 else (128, 128, 136)
            tail.append(cap(f"tail{i}", pts[i], pts[i + 1], (0.035 + 0.014 * i) * L, (0.045 + 0.012 * i) * L * (0.55 if i == 3 else 1),
                            col, ol=((40, 40, 46), 0.9), sh=0.3))
        # ruff: jagged fur along the back of the neck; a white chest; the haunch
        sh_pt, hc = J["sh"], J["head"]
        d = (hc - sh_pt) / np.linalg.norm(hc - sh_pt)
        nn = V(d[1], -d[0])
        if nn[0] > 0:
            nn = -nn
        ruff = []
        for i in range(6):
            q = sh_pt + (hc - sh_pt) * (0.05 + i / 7.0)
            ruff.append([q + nn * 0.07 * L - d * 0.03 * L, q + nn * 0.125 * L - d * 0.055 * L, q + nn * 0.07 * L + d * 0.035 * L])
        ruffs = [multi("ruff", ruff, (112, 112, 120), sh=0.2, ol=((40, 40, 46), 0.7))]
        chest = [ell("chest", sh_pt - n * 0.13 * L + e * 0.05 * L, 0.07 * L, 0.12 * L, p_ + 0.3, (232, 232, 236), sh=0.2)]
        haunch = [ell("haunch", C - e * 0.33 * L - n * 0.02 * L, 0.13 * L, 0.14 * L, p_, (146, 146, 154), sh=0.3)]
        return order(G, "far_legs", tail, "body", ruffs, haunch, chest, "near_legs", "head")
    return Case("wolf_hotspot_run", "run", W, H, 56, 20, (0, 255, 0),
                dict(col=(20, 236, 38), hot=(0.47, 0.45, 0.2, 0.42, (150, 255, 160)), vig=0.12, mottle=2.0), pose,
                "a grey wolf (dark grey back, white chest, muzzle and legs that take the tint, bushy tail, jagged "
                "neck ruff) gallops in place, 13-frame stride with a flight phase; a bright studio hot spot "
                "behind its body lifts the screen toward pale green (150,255,160) by up to 42 %",
                wrap=(0.3, 4.0), grain=2.0)


# 15 ------------------------------------------------------------------------- horse, blue
def case_horse_blue():
    W, H = 768, 448
    L = 222.0
    chest = (152, 80, 40)
    S = dict(L=L, col=chest, back=(128, 64, 30), belly=(172, 98, 56),
             leg_r={"f": (0.07, 0.04, 0.026, 0.024), "r": (0.1, 0.05, 0.028, 0.024)},
             legs={"f": (0.3, 0.27, 0.16), "r": (0.3, 0.3, 0.2)},
             leg_cols={"f": [chest, (140, 74, 36), (236, 234, 230)], "r": [chest, (140, 74, 36), (236, 234, 230)]},
             paw_col=(52, 48, 46), paw=0.026,
             body=[(-0.55, 0.06, 0.05), (-0.47, 0.17, 0.12), (-0.3, 0.18, 0.13), (-0.05, 0.13, 0.15), (0.25, 0.15, 0.16),
                   (0.45, 0.19, 0.16), (0.56, 0.06, 0.08)],
             neck_len=0.42, neck_r=(0.13, 0.075), skull=(0.1, 0.075), snout=(0.26, 0.06, 0.045), nose=(60, 40, 36),
             ears=[(-0.04, 0.06, (128, 64, 30))], ear_h=0.09, ol=((50, 28, 18), 0.9), far=0.7)

    def pose(t):
        a = ramp(t, 0, 4)
        ph = t / 14.0
        legs = gallop(ph, amp=0.3 + 0.7 * a, front=(0.6, 1.1), rear=(0.55, 1.0), offs={"rf": 0.0, "rn": 0.12, "ff": 0.45, "fn": 0.57})
        w = 2 * math.pi * ph
        P = dict(x=384.0, ground=424.0, pitch=0.06 * math.sin(w + 1.0) * a, lift=a * 8 * max(0.0, math.sin(w + 0.2)),
                 neck=0.95 + 0.08 * math.sin(w + 2.2) * a, head=1.15, legs=legs)
        G, J = quadruped(P, S, "x")
        hc, hd, hn, sh_pt = J["head"], J["hd"], J["hn"], J["sh"]
        blaze = [poly("blaze", [hc + hn * 0.04 * L - hd * 0.02 * L, hc + hd * 0.1 * L + hn * 0.03 * L, hc + hd * 0.29 * L + hn * 0.02 * L,
                                hc + hd * 0.29 * L - hn * 0.01 * L, hc + hd * 0.1 * L - hn * 0.0 * L, hc + hn * 0.02 * L - hd * 0.03 * L],
                      (238, 236, 232), sh=0.1)]
        d = (hc - sh_pt) / np.linalg.norm(hc - sh_pt)
        nn = V(d[1], -d[0]) * -1
        if nn[1] > 0:
            nn = -nn
        back = -J["e"]
        mane = []
        for i in range(9):
            q = sh_pt + (hc - sh_pt) * (0.1 + 0.85 * i / 8) + nn * 0.07 * L
            wv = 0.03 * math.sin(w * 1.0 - i * 0.6)
            mane.append(stroke(f"mane{i}", [q, q + back * 0.06 * L + nn * 0.02 * L + V(0, wv * L),
                                            q + back * 0.12 * L + V(0, 0.03 * L + wv * L)], 1.8, (30, 22, 20), sh=0))
        tail = []
        r0 = J["rear"]
        for i in range(9):
            q = r0 + V(0, (i - 4) * 0.006 * L)
            pts = [q]
            for k in range(5):
                wv = 0.05 * math.sin(w - k * 0.8 + i * 0.35)
                pts.append(pts[-1] + V(-0.06 - 0.005 * i, 0.035 + 0.01 * k + wv) * L)
            tail.append(stroke(f"tail{i}", pts, 1.4 + 0.08 * (i % 3), (34, 24, 20), sh=0))
        return order(G, "far_legs", tail, "body", "near_legs", "head", blaze, mane)
    return Case("horse_blue_run", "run", W, H, 56, 20, (0, 0, 255),
                dict(col=(18, 44, 226), tb=(1.06, 0.92), vig=0.12, mottle=2.2), pose,
                "a chestnut horse gallops in place on a blue screen: long thin legs with white socks and dark "
                "hooves, a white blaze, a mane of nine 1.8 px dark strands and a tail of nine 1.4-1.6 px strands "
                "waving (screen between the strands), 14-frame stride", wrap=(0.26, 3.5), grain=2.0)


# 12 ------------------------------------------------------------------------- wyvern, gradient
def case_wyvern_gradient():
    W = H = 512
    body_c = (126, 54, 48)
    belly = (226, 202, 150)
    memb0, memb1 = (104, 38, 70), (150, 72, 104)
    bone = (204, 174, 140)
    olc = ((44, 18, 24), 0.9)

    def wing(pre, S0, flap, sc, dark, hip):
        k = dark
        loc = dict(E=V(-0.1, -0.55), Wr=V(-0.32, -1.1), t1=V(-1.55, -1.2), t2=V(-1.7, -0.45), t3=V(-1.25, 0.25))
        fy = 0.72 + 0.28 * math.cos(flap)  # foreshortening of the stroke

        def X(v):
            return S0 + rot(V(v[0], v[1] * fy), flap * 0.9) * 100 * sc
        E, Wr, t1, t2, t3 = (X(loc[k_]) for k_ in ("E", "Wr", "t1", "t2", "t3"))
        sc1 = (t1 + t2) / 2 + (Wr - (t1 + t2) / 2) * 0.28
        sc2 = (t2 + t3) / 2 + (Wr - (t2 + t3) / 2) * 0.28
        sc3 = (t3 + hip) / 2 + (Wr - (t3 + hip) / 2) * 0.22
        memb = chaikin([S0, E, Wr, t1, sc1, t2, sc2, t3, sc3, hip], 0)
        ops = [poly(pre + "memb", memb, mul(memb1, k), sh=0.15, grad=(Wr, mul(memb0, k), (t2 + t3) / 2, mul(memb1, k)))]
        ops.append(cap(pre + "arm", S0, E, 0.06 * 100 * sc, 0.045 * 100 * sc, mul(body_c, k), ol=olc))
        ops.append(cap(pre + "fore", E, Wr, 0.045 * 100 * sc, 0.03 * 100 * sc, mul(body_c, k), ol=olc))
        for i, tp in enumerate((t1, t2, t3)):
            ops.append(stroke(f"{pre}f{i}", [Wr, Wr + (tp - Wr) * 0.5 + rot(tp - Wr, 1.57) * 0.03, tp + (tp - Wr) * 0.04],
                              1.6 * sc, mul(bone, k), sh=0))
        ops.append(poly(pre + "claw", [Wr + V(-2, -2) * sc, Wr + V(4, -16) * sc, Wr + V(5, -1) * sc], mul((226, 214, 190), k), sh=0))
        return ops

    def pose(t):
        a = ramp(t, 0, 5)
        w = 2 * math.pi * t / 14.0
        flap = (0.55 * math.sin(w) + 0.1) * a + 0.1 * (1 - a)
        bob = 7 * math.sin(w - 1.2) * a
        C = V(262, 286 + bob)
        pitch = -0.28
        e = V(math.cos(pitch), math.sin(pitch))
        n = V(e[1], -e[0])
        body = chaikin([C - e * 62 + n * 8, C - e * 30 + n * 30, C + e * 30 + n * 34, C + e * 62 + n * 18, C + e * 66 - n * 10,
                        C + e * 30 - n * 34, C - e * 20 - n * 28, C - e * 64 - n * 6], 2)
        ops_body = [poly("wbody", body, body_c, ol=olc, sh=0.3, grad=(C + n * 30, mul(body_c, 0.8), C - n * 30, mix(body_c, belly, 0.4)))]
        for i in range(4):
            ops_body.append(cap(f"stripe{i}", C + e * (20 - i * 16) - n * 26 + e * 4, C + e * (24 - i * 16) - n * 18, 4.5, 4,
                                belly, sh=0.1))
        # neck and head
        npts = [C + e * 52 + n * 14]
        ang = -1.0 + 0.08 * math.sin(w + 0.6) * a
        for i in range(4):
            ang += 0.18
            npts.append(npts[-1] + 22 * V(math.cos(ang), math.sin(ang)))
        neck = [cap(f"neck{i}", npts[i], npts[i + 1], 15 - 2.2 * i, 15 - 2.2 * (i + 1), body_c, ol=olc, sh=0.3) for i in range(4)]
        hc = npts[-1] + V(8, -2)
        ha = 0.25 + 0.06 * math.sin(w + 1.4) * a
        hd = V(math.cos(ha), math.sin(ha))
        hn = V(hd[1], -hd[0])
        head = [ell("whead", hc, 20, 13, ha, body_c, ol=olc, sh=0.3),
                cap("wsnout", hc + hd * 8, hc + hd * 34 + hn * 1, 9, 6, body_c, ol=olc, sh=0.3),
                ell("weye", hc + hd * 6 + hn * 4, 3.2, 2.4, ha, (250, 214, 60), sh=0),
                poly("horn1", [hc - hd * 8 + hn * 8, hc - hd * 2 + hn * 11, hc - hd * 34 + hn * 26], (230, 218, 190), sh=0.2, ol=olc),
                poly("horn2", [hc - hd * 12 + hn * 4, hc - hd * 6 + hn * 8, hc - hd * 32 + hn * 12], (200, 188, 160), sh=0.2, ol=olc)]
        # tail
        tpts = [C - e * 55 - n * 2]
        ang = 2.4
        for i in range(7):
            ang += 0.1 + 0.12 * math.sin(w * 0.5 - i * 0.6) * a
            tpts.append(tpts[-1] + 21 * V(math.cos(ang), math.sin(ang)))
        tail = [cap(f"tail{i}", tpts[i], tpts[i + 1], 12 * (1 - i / 8) + 1.5, 12 * (1 - (i + 1) / 8) + 1.5, body_c, ol=olc, sh=0.3)
                for i in range(7)]
        td = (tpts[-1] - tpts[-2]) / np.linalg.norm(tpts[-1] - tpts[-2])
        tn = V(-td[1], td[0])
        tail.append(poly("spade", [tpts[-1] - td * 2, tpts[-1] + tn * 11 + td * 4, tpts[-1] + td * 20, tpts[-1] - tn * 11 + td * 4],
                         mul(body_c, 0.85), ol=olc, sh=0.2))
        # legs dangling
        legs = []
        for i, (dx, kk) in enumerate(((-8, 0.75), (6, 1.0))):
            hp = C - e * 34 + e * dx - n * 18
            kn = hp + V(14, 26) + V(0, 2 * math.sin(w + i))
            ft = kn + V(-10, 26)
            legs.append([cap(f"thigh{i}", hp, kn, 11, 7, mul(body_c, kk), ol=olc, sh=0.3),
                         cap(f"shin{i}", kn, ft, 6, 4, mul(body_c, kk), ol=olc, sh=0.3),
                         poly(f"claws{i}", [ft + V(-6, -2), ft + V(10, 2), ft + V(4, 8), ft + V(-2, 5)], mul((220, 206, 180), kk), sh=0)])
        S_near = C + e * 30 + n * 22
        S_far = C + e * 40 + n * 26
        wf = wing("wf", S_far, flap - 0.12, 0.82, 0.7, C - e * 10 + n * 20)
        wn = wing("wn", S_near, flap, 1.0, 1.0, C - e * 40 + n * 6)
        return order({}, wf, legs[0], tail, ops_body, neck, head, legs[1], wn)
    return Case("wyvern_gradient_idle", "idle", W, H, 56, 22, (80, 200, 100),
                dict(col=(70, 188, 92), lr=(0.55, 1.15), tb=(1.02, 0.96), mottle=1.8), pose,
                "a red-brown wyvern hovers (idle) and beats its wings (14-frame beat, 4 strokes): opaque maroon "
                "membranes between 1.6 px finger bones that reach past their scalloped edges (notches of screen "
                "between the fingers), horns, a spade tail, dangling legs; the wing tips are motion-blurred on "
                "the fast strokes; a strong left-to-right studio gradient (55 % to 115 % brightness)",
                wrap=(0.28, 3.5), grain=1.8)


# 13 ------------------------------------------------------------------------- mech, antennae
def case_mech_antenna():
    W, H = 448, 640
    u, ground, x0 = 400.0, 610.0, 214.0
    olive, dgreen, ygreen, grey, dark = (112, 112, 58), (40, 72, 42), (172, 192, 52), (140, 140, 146), (56, 60, 52)
    olc = ((26, 30, 22), 1.0)

    def pose(t):
        a = ramp(t, 0, 4)
        ph = t / 28.0
        w = 2 * math.pi * ph
        bob = 6 * abs(math.sin(w)) * a
        sway = 0.03 * math.sin(w) * a
        hip = V(x0, ground - 0.46 * u + bob)
        legs = {}
        for side, o in (("far", math.pi), ("near", 0.0)):
            s_ = math.sin(w + o)
            c_ = math.cos(w + o)
            at = 0.3 * s_ * a
            kn = 0.15 + 0.6 * max(0.0, c_) * a
            hj = hip + V(-6 if side == "far" else 6, 0)
            knee = hj + 0.22 * u * dv(at)
            ank = knee + 0.21 * u * dv(at - kn)
            legs[side] = (hj, knee, ank)
        low = max(l_[2][1] for l_ in legs.values()) + 0.035 * u
        dy = ground - low
        hip = hip + V(0, dy)
        legs = {k_: tuple(p_ + V(0, dy) for p_ in v) for k_, v in legs.items()}
        up = V(math.sin(sway), -math.cos(sway))
        fw = V(-up[1], up[0])
        ops = {k_: [] for k_ in ("far_leg", "far_arm", "body", "near_leg", "near_arm", "ant")}
        for side in ("far", "near"):
            kk = 0.7 if side == "far" else 1.0
            hj, knee, ank = legs[side]
            g = ops[side + "_leg"]
            g.append(seg_box(f"m{side}thigh", hj, knee, 0.11 * u, 0.085 * u, mul(dgreen, kk), ol=olc, sh=0.3))
            g.append(seg_box(f"m{side}shin", knee, ank, 0.09 * u, 0.07 * u, mul(olive, kk), ol=olc, sh=0.3))
            g.append(circ(f"m{side}knee", knee, 0.05 * u, mul(grey, kk), ol=olc, sh=0.4))
            g.append(poly(f"m{side}foot", [ank + V(-0.07, 0.0) * u, ank + V(0.09, 0.0) * u, ank + V(0.11, 0.035) * u,
                                           ank + V(-0.08, 0.035) * u], mul(dark, kk), ol=olc, sh=0.2))
            g.append(seg_box(f"m{side}stripe", knee + (ank - knee) * 0.3, knee + (ank - knee) * 0.45, 0.09 * u, 0.086 * u,
                             mul(ygreen, kk), sh=0.1))
        # body
        b = ops["body"]
        b.append(poly("pelvis", [hip + (-0.09 * fw + 0.02 * up) * u, hip + (0.09 * fw + 0.02 * up) * u,
                                 hip + (0.07 * fw - 0.05 * up) * u, hip + (-0.07 * fw - 0.05 * up) * u], dgreen, ol=olc, sh=0.3))
        T = hip + up * 0.03 * u
        torso = [T - fw * 0.12 * u, T + fw * 0.13 * u, T + fw * 0.17 * u + up * 0.2 * u, T + fw * 0.1 * u + up * 0.3 * u,
                 T - fw * 0.14 * u + up * 0.3 * u, T - fw * 0.17 * u + up * 0.16 * u]
        b.append(poly("torso", torso, olive, ol=olc, sh=0.35))
        b.append(stroke("panel1", [T - fw * 0.1 * u + up * 0.15 * u, T + fw * 0.13 * u + up * 0.15 * u], 1.0, (60, 62, 34), sh=0))
        b.append(stroke("panel2", [T + fw * 0.02 * u + up * 0.02 * u, T + fw * 0.02 * u + up * 0.28 * u], 1.0, (60, 62, 34), sh=0))
        chev = []
        for i in range(3):
            c0 = T + fw * (0.05 + 0.035 * i) * u + up * 0.22 * u
            chev.append([c0, c0 + fw * 0.02 * u, c0 + fw * 0.04 * u - up * 0.04 * u, c0 + fw * 0.02 * u - up * 0.04 * u])
        b.append(multi("chevrons", chev, ygreen, sh=0.1))
        hc = T + up * 0.36 * u + fw * 0.02 * u
        b.append(poly("mhead", [hc - fw * 0.07 * u - up * 0.05 * u, hc + fw * 0.08 * u - up * 0.05 * u, hc + fw * 0.1 * u + up * 0.01 * u,
                                hc + fw * 0.05 * u + up * 0.06 * u, hc - fw * 0.07 * u + up * 0.06 * u], olive, ol=olc, sh=0.35))
        b.append(poly("visor", [hc + fw * 0.03 * u + up * 0.0 * u, hc + fw * 0.095 * u + up * 0.005 * u, hc + fw * 0.075 * u + up * 0.035 * u,
                                hc + fw * 0.03 * u + up * 0.03 * u], (30, 36, 30), sh=0.1))
        b.append(circ("lamp", hc + fw * 0.06 * u + up * 0.018 * u, 0.008 * u, (232, 64, 40), sh=0))
        # antennae: springy, lagging the bob
        ant = ops["ant"]
        for i, (bx, ln, wd, tipc, tr) in enumerate(((-0.04, 0.19, 1.2, (222, 52, 40), 2.4), (0.02, 0.14, 0.8, (180, 200, 60), 1.9))):
            base = hc + fw * bx * u + up * 0.06 * u
            wob = 0.1 * math.sin(w * 2 - 1.2 - i * 0.8) * a + 0.04 * math.sin(w * 5 + i) * a
            ang = -0.25 - 0.2 * i + wob
            pts = [base]
            for k_ in range(4):
                pts.append(pts[-1] + (ln * u / 4) * V(math.sin(ang * (1 + 0.35 * k_)) * -1, -math.cos(ang * (1 + 0.35 * k_))))
            ant.append(cap(f"antbase{i}", base - up * 0.005 * u, base + up * 0.012 * u, 0.01 * u, 0.008 * u, grey, sh=0.3))
            ant.append(stroke(f"ant{i}", pts, wd, (70, 74, 70), sh=0))
            ant.append(circ(f"anttip{i}", pts[-1], tr, tipc, sh=0.2))
        # arms: shoulder pods, grey upper arms, olive forearms, a gun on the near one
        for side, o in (("far", 0.0), ("near", math.pi)):
            kk = 0.7 if side == "far" else 1.0
            sh_ = T + up * 0.26 * u + fw * (-0.02 if side == "far" else 0.0) * u
            sa = 0.25 * math.sin(w + o) * a + 0.1
            elb = sh_ + 0.15 * u * dv(sa)
            wri = elb + 0.14 * u * dv(sa + 0.7)
            g = ops[side + "_arm"]
            g.append(seg_box(f"m{side}upper", sh_, elb, 0.05 * u, 0.045 * u, mul(grey, kk), ol=olc, sh=0.35))
            g.append(seg_box(f"m{side}fore", elb, wri, 0.085 * u, 0.075 * u, mul(olive, kk), ol=olc, sh=0.35))
            if side == "near":
                d = dv(sa + 0.7)
                g.append(seg_box("gun", wri - d * 0.03 * u, wri + d * 0.08 * u, 0.03 * u, 0.03 * u, dark, ol=olc, sh=0.3))
            g.append(ell(f"m{side}pod", sh_ + up * 0.02 * u, 0.085 * u, 0.06 * u, sway, mul(dgreen, kk), ol=olc, sh=0.4))
            g.append(seg_box(f"m{side}podstripe", sh_ + up * 0.02 * u - fw * 0.06 * u, sh_ + up * 0.02 * u + fw * 0.06 * u,
                             0.018 * u, 0.018 * u, mul(ygreen, kk), sh=0.1))
        return order(ops, "far_arm", "far_leg", "ant", "body", "near_leg", "near_arm")
    return Case("mech_antenna_walk", "walk", W, H, 56, 20, (0, 177, 64),
                dict(col=(10, 172, 70), tb=(1.04, 0.94), vig=0.1, mottle=2.0), pose,
                "a boxy walker mech in olive drab and dark green with yellow-green chevrons and stripes (near-key "
                "greens on a green screen), grey joints, a red lamp, and two springy antennae 1.2 px and 0.8 px "
                "wide (76 and 56 px long) with 2-2.4 px tips that wobble; 28-frame stomp cycle",
                wrap=(0.25, 3.0), grain=2.0)




def _cases():
    return [f for n, f in globals().items() if n.startswith("case_") and callable(f)]


def _build_one(i):
    c = _cases()[i]()
    build(c)
    return c.name


def main():
    sel = sys.argv[1] if len(sys.argv) > 1 else ""
    t0 = time.time()
    OUT.mkdir(parents=True, exist_ok=True)
    todo = [i for i, mk in enumerate(_cases()) if sel in mk().name]
    jobs = int(os.environ.get("TRIAL_JOBS", "2"))
    if jobs > 1 and len(todo) > 1:
        import multiprocessing as mp
        # the slow ones (quadrupeds, wings, close-ups) first, so two workers finish together
        todo.sort(key=lambda i: -_cases()[i]().W * _cases()[i]().H * _cases()[i]().n)
        with mp.get_context("fork").Pool(jobs) as pool:
            list(pool.imap_unordered(_build_one, todo))
    else:
        for i in todo:
            _build_one(i)
    print(f"done in {time.time() - t0:.1f}s -> {OUT}")


if __name__ == "__main__":
    main()
