"""Trial 18: an independent generator of test clips for the `FACING` flag.

Run:  .venv/bin/python trials/trial18.py [NAME ...]
Writes case folders (clip.mp4, portrait.png, truth.npz, case.json) into
trials/_out/trial18/ (or $TRIAL_OUT).

The characters are 2.5-D puppets: a skeleton posed in 3-D (yaw, pitch, lean, twist,
head yaw), limbs drawn as tapered capsules, the torso, robes and dresses as elliptic
tubes, the head as a texture-mapped sphere (hair line, fringe, eyes, helmets, hoods,
all in the head's own coordinates), hair masses, buns, plumes, ponytails, capes,
shields and weapons as 3-D points projected each frame and painted back to front.
A turn is a rotation of the yaw through the front (or the back), so the character
ends up showing its far side (the shield arm, the other side of the fringe, the
cape's lining, a sash's other end), not a mirror image of the opening.

Half the cases turn and stay turned (expect FACING); the other half are decoys that
change the silhouette a lot without turning (expect no flag).

Background: MiniMax H3's green #00B140 with a gradient, a fixed texture, per-frame
grain, a light wrap over the character's edge and a soft contact shadow.
Video: H.264 yuv420p, CRF 20, one x264 thread, mbtree=0, RGB->YUV (BT.601 limited)
done here in numpy.
"""

import json
import math
import os
import sys
import time

import av
import cv2
import numpy as np
from PIL import Image

OUT = os.environ.get("TRIAL_OUT") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "_out", "trial18")
GREEN = np.array([0.0, 177.0, 64.0], np.float32)
D = math.pi / 180.0
LIGHT3 = np.array([-0.45, 0.62, 0.64])
LIGHT3 = LIGHT3 / np.linalg.norm(LIGHT3)
SHADOW_DIR = np.array([0.55, 0.83])  # pixel coords (x right, y down): away from the light


# ----------------------------------------------------------------------------- easing

def clamp01(x):
    return min(1.0, max(0.0, float(x)))


def ease(x):
    x = clamp01(x)
    return x * x * (3 - 2 * x)


def ease5(x):
    x = clamp01(x)
    return x ** 3 * (x * (6 * x - 15) + 10)


def ramp(t, t0, t1):
    return ease((t - t0) / max(1e-6, t1 - t0))


def window(t, t0, t1, t2, t3):
    return ramp(t, t0, t1) * (1.0 - ramp(t, t2, t3))


def lerp(a, b, f):
    return a + (b - a) * f


def apply_keys(P, t, frames):
    """frames: [(time, {field: value})]; a field missing in a later key holds its
    previous value; eased between keys; fields not in the first key are ignored."""
    fields = list(frames[0][1].keys())
    filled, last = [], dict(frames[0][1])
    for tk, kv in frames:
        last = dict(last)
        last.update({k: v for k, v in kv.items() if k in fields})
        filled.append((tk, last))
    if t <= filled[0][0]:
        P.update(filled[0][1])
        return P
    for (t0, v0), (t1, v1) in zip(filled, filled[1:]):
        if t <= t1:
            f = ease((t - t0) / max(1e-6, t1 - t0))
            for k in fields:
                P[k] = lerp(v0[k], v1[k], f)
            return P
    P.update(filled[-1][1])
    return P


# ----------------------------------------------------------------------------- 3-D

def Tm(x, y, z):
    M = np.eye(4)
    M[:3, 3] = (x, y, z)
    return M


def Ry(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1.0]])


def Rx(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def Rz(a):
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def about(R, p):
    return Tm(*p) @ R @ Tm(-p[0], -p[1], -p[2])


def ap(M, p):
    p = np.asarray(p, float)
    return M[:3, :3] @ p + M[:3, 3]


def dv(M, v):
    return M[:3, :3] @ np.asarray(v, float)


def nrm(v):
    v = np.asarray(v, float)
    n = np.linalg.norm(v)
    return v / n if n > 1e-9 else v


# ----------------------------------------------------------------------------- characters

BASE = dict(
    hr=0.095, neck=0.035, sy=0.80, sw=0.115, hy=0.49, hw=0.06,
    ua=0.16, fa=0.15, th=0.225, sh=0.225, ft=0.065,
    r_ua=0.034, r_el=0.028, r_wr=0.022, r_hand=0.028, r_th=0.05, r_kn=0.037,
    r_an=0.029, r_foot=0.03, r_sh=0.042,
    chest=(0.11, 0.072), waist=(0.082, 0.062), pelvis=(0.088, 0.066),
    style="cel", ink=(34, 26, 38), ink_w=0.007,
    skin=(238, 196, 160), hair=(90, 58, 40), shirt=(60, 130, 80), sleeve=None,
    pants=(70, 66, 90), boots=(80, 52, 36), glove=None, belt=(60, 40, 28),
    buckle=(220, 190, 80), eye=(40, 60, 110), mouth=(150, 60, 60),
    hair_style="short", hairline=0.42, fringe=(0.5, 0.25), back_hair=0.4,
    eye_size=(0.13, 0.17), eye_lon=0.44, eye_lat=-0.02, brows=True,
    ears=True, nose=True, beard=None, helmet=None, hood=None, bun=None,
    pony=None, plume=None, long_hair=None, mark=None,
    sash=None, robe=None, cape=None, shield=None, weapon=None, scarf=None,
    back_sword=None, pauldron=None, necklace=None, boots_high=True,
    bare_arms=False,
)


class Ch(dict):
    def __getattr__(self, k):
        return self[k]


def make_char(**kw):
    c = Ch(BASE)
    c.update(kw)
    if c["sleeve"] is None:
        c["sleeve"] = c["shirt"]
    return c


# ----------------------------------------------------------------------------- poses

def base_pose():
    return dict(
        yaw=60.0, pitch=0.0, pivot_y=0.5, tx=0.0, air=0.0, ground=1.0, lean=0.0,
        twist=0.0, roll=0.0, head_yaw=0.0, head_pitch=0.0, breath=0.0,
        aL=6.0, bL=8.0, eL=14.0, aR=6.0, bR=8.0, eR=14.0,
        pL=3.0, kL=4.0, pR=-3.0, kR=4.0, fL=0.0, fR=0.0, sL=2.0, sR=2.0,
        w=0.0, wx=0.0, wspin=None, cape_back=0.15, cape_fwd=0.0, flutter=0.0,
        hair_swing=0.0, hem_x=0.0, hem_z=0.0, scarf_back=0.3,
    )


def idle(t, amp=1.0, period=2.3):
    P = base_pose()
    br = math.sin(2 * math.pi * t / period)
    br2 = math.sin(2 * math.pi * t / (period * 1.37) + 1.1)
    P.update(breath=br * amp,
             aL=7 + 3 * br * amp, aR=5 - 3 * br * amp, bL=9 + 2 * br2 * amp,
             bR=9 - 2 * br2 * amp, eL=15 + 4 * br * amp, eR=15 + 4 * br * amp,
             lean=1.5 + 1.5 * br * amp, head_pitch=-1.5 * br * amp + 2 * br2 * amp,
             tx=0.006 * br2 * amp, pL=4, pR=-5, kL=6 + 3 * br * amp, kR=4,
             hair_swing=0.3 * br2, flutter=br2, hem_x=0.006 * br2)
    return P


def walk(t, T=1.0, amp=1.0):
    P = base_pose()
    ph = 2 * math.pi * t / T
    s, c = math.sin(ph), math.cos(ph)
    P.update(pR=26 * s * amp, pL=-26 * s * amp,
             kR=6 + 42 * max(0.0, c) ** 1.3 * amp, kL=6 + 42 * max(0.0, -c) ** 1.3 * amp,
             fR=10 * max(0.0, -s), fL=10 * max(0.0, s),
             aR=8 - 22 * s * amp, aL=8 + 22 * s * amp, eR=18 + 8 * max(0, -s),
             eL=18 + 8 * max(0, s), bL=7, bR=7, lean=4, air=0.006 * abs(c),
             head_pitch=2 * math.sin(2 * ph), twist=5 * s, breath=0.3 * s,
             hair_swing=0.5 * math.sin(ph * 2 - 0.8), flutter=math.sin(2 * ph),
             hem_z=0.03 * abs(s), hem_x=0.008 * s)
    return P


def run(t, T=0.62):
    P = base_pose()
    ph = 2 * math.pi * t / T
    s, c = math.sin(ph), math.cos(ph)
    P.update(pR=12 + 42 * s, pL=12 - 42 * s,
             kR=25 + 75 * max(0.0, c) ** 1.2, kL=25 + 75 * max(0.0, -c) ** 1.2,
             fR=15 * max(0.0, -s), fL=15 * max(0.0, s),
             aR=10 - 48 * s, aL=10 + 48 * s, eR=85 - 10 * s, eL=85 + 10 * s,
             bL=10, bR=10, lean=13, air=0.035 * abs(math.sin(ph)), twist=9 * s,
             head_pitch=-6 + 2 * math.sin(2 * ph), breath=0.5 * s,
             hair_swing=1.0 + 0.6 * math.sin(2 * ph - 0.7), flutter=1.5 * math.sin(2 * ph),
             cape_back=0.8, scarf_back=1.0)
    return P


def crouch_legs(ch, P, drop, fwdL=0.04, fwdR=-0.03):
    """IK both legs so the hips drop by `drop` with the feet kept on the ground."""
    for s, fz in (("L", fwdL), ("R", fwdR)):
        h = ch.hy - drop - (ch.r_an + 0.005)
        L = min(ch.th + ch.sh - 1e-4, math.hypot(h, fz))
        base = math.atan2(fz, h)  # forward angle of hip->ankle
        ca = (ch.th ** 2 + L ** 2 - ch.sh ** 2) / (2 * ch.th * L)
        cb = (ch.sh ** 2 + L ** 2 - ch.th ** 2) / (2 * ch.sh * L)
        al = math.acos(max(-1, min(1, ca)))
        be = math.acos(max(-1, min(1, cb)))
        P["p" + s] = (base + al) / D
        P["k" + s] = (al + be) / D
        P["f" + s] = (be - base) / D  # keeps the foot flat
    return P


def turn(P, t, y0, y1, ts, dur, lead=0.2, step=True):
    f = ease5((t - ts) / dur)
    prog = clamp01((t - ts) / dur)
    P["yaw"] = lerp(y0, y1, f)
    bump = math.sin(math.pi * prog)
    P["head_yaw"] += lead * (y1 - y0) * bump * (1 - prog) * 1.3
    if step and 0 < prog < 1:
        P["kR"] += 28 * bump
        P["pR"] += 14 * bump
        P["kL"] += 10 * math.sin(math.pi * min(1, prog * 1.4))
    P["hem_x"] += 0.05 * bump * (1 if y1 < y0 else -1)
    P["flutter"] += 2.0 * bump
    P["hair_swing"] += 1.2 * bump * (1 if y1 < y0 else -1)
    return P


# ----------------------------------------------------------------------------- prims
# prim: dict(k=kind, ...), coordinates in world units (x right, y up)

def cap(p1, p2, r1, r2, col, **o):
    return dict(k="cap", p1=np.asarray(p1[:2], float), p2=np.asarray(p2[:2], float),
                r1=r1, r2=r2, col=col, **o)


def circ(c, r, col, **o):
    return dict(k="circ", c=np.asarray(c[:2], float), r=r, col=col, **o)


def poly(pts, col, **o):
    return dict(k="poly", pts=np.asarray([p[:2] for p in pts], float), col=col, **o)


def leg_fk(ch, P, s):
    sg = 1.0 if s == "L" else -1.0
    p, k, f, sp = P["p" + s] * D, P["k" + s] * D, P["f" + s] * D, P["s" + s] * D
    hip = np.array([sg * ch.hw, ch.hy, 0.0])
    d1 = np.array([sg * math.sin(sp), -math.cos(sp) * math.cos(p), math.cos(sp) * math.sin(p)])
    knee = hip + ch.th * d1
    q = p - k
    d2 = np.array([sg * math.sin(sp) * 0.5, -math.cos(q), math.sin(q)])
    ankle = knee + ch.sh * nrm(d2)
    fd = np.array([0.0, math.sin(q + f), math.cos(q + f)])
    toe = ankle + ch.ft * fd
    return hip, knee, ankle, toe


def arm_fk(ch, P, s, breath):
    sg = 1.0 if s == "L" else -1.0
    a, b, e = P["a" + s] * D, P["b" + s] * D, P["e" + s] * D
    S = np.array([sg * ch.sw, ch.sy + 0.004 * breath, 0.0])
    d1 = np.array([sg * math.sin(b), -math.cos(b) * math.cos(a), math.cos(b) * math.sin(a)])
    E = S + ch.ua * d1
    d2 = np.array([sg * math.sin(b), -math.cos(b) * math.cos(a + e), math.cos(b) * math.sin(a + e)])
    H = E + ch.fa * d2
    return S, E, H


def tube(M, rings, col, **o):
    """rings: [(center3, rx, rz)] in the space of M -> polygon around them."""
    cs = [ap(M, c) for c, _, _ in rings]
    left, right = [], []
    for i, (c3, rx, rz) in enumerate(rings):
        a = cs[max(0, i - 1)]
        b = cs[min(len(cs) - 1, i + 1)]
        ax = nrm((b - a)[:2])
        n = np.array([-ax[1], ax[0]])
        u = dv(M, (rx, 0, 0))[:2]
        v = dv(M, (0, 0, rz))[:2]
        hw = math.sqrt(float(u @ n) ** 2 + float(v @ n) ** 2)
        left.append(cs[i][:2] + hw * n)
        right.append(cs[i][:2] - hw * n)
    pts = left + right[::-1]
    th = 2 * max(max(r[1], r[2]) for r in rings)
    return poly(pts, col, th=th, **o), cs


def tube_surface(rings, y, phi, k=1.0):
    ys = [r[0][1] for r in rings]
    order = np.argsort(ys)
    ys_s = np.array(ys)[order]
    rx = np.interp(y, ys_s, np.array([rings[i][1] for i in order]))
    rz = np.interp(y, ys_s, np.array([rings[i][2] for i in order]))
    zc = np.interp(y, ys_s, np.array([rings[i][0][2] for i in order]))
    xc = np.interp(y, ys_s, np.array([rings[i][0][0] for i in order]))
    p = np.array([xc + k * rx * math.sin(phi), y, zc + k * rz * math.cos(phi)])
    n = nrm((math.sin(phi) / rx, 0, math.cos(phi) / rz))
    return p, n


def surface_stroke(M, rings, pts, r, col, steps=6):
    """pts: [(y, phi)] on a tube; visible pieces as capsules."""
    out = []
    dense = []
    for (y0, f0), (y1, f1) in zip(pts, pts[1:]):
        for i in range(steps):
            u = i / steps
            dense.append((lerp(y0, y1, u), lerp(f0, f1, u)))
    dense.append(pts[-1])
    prev = None
    for y, f in dense:
        p, n = tube_surface(rings, y, f, 1.0)
        pw, nw = ap(M, p), dv(M, n)
        vis = nw[2] > 0.08
        if prev is not None and vis and prev[1]:
            out.append(cap(prev[0], pw, r, r, col, flat=True))
        prev = (pw, vis)
    return out


def disk(center, normal, e1, R, col, n_pts=28, **o):
    e2 = np.cross(normal, e1)
    e1 = np.cross(e2, normal)
    e1, e2 = nrm(e1), nrm(e2)
    pts = [center + R * (math.cos(a) * e1 + math.sin(a) * e2)
           for a in np.linspace(0, 2 * math.pi, n_pts, endpoint=False)]
    return poly(pts, col, th=2 * R * max(0.3, abs(normal[2])), **o)


# ----------------------------------------------------------------------------- head texture

def head_texture(ch, x, y, z):
    """Unit normals in head coordinates (x: character's left, y up, z forward) ->
    colour (N,3) and a 'matte' weight (1 where shading applies)."""
    n = x.shape[0]
    col = np.empty((n, 3), np.float32)
    col[:] = ch.skin
    lon = np.arctan2(x, z)
    lat = np.arcsin(np.clip(y, -1, 1))
    alon = np.abs(lon)
    if ch.helmet:
        hm = ch.helmet
        col[:] = hm["col"]
        slit = (lat > -0.12) & (lat < 0.07) & (alon < 1.15)
        col[slit] = hm.get("slit", (25, 22, 30))
        ridge = (np.abs(x) < 0.07) & (lat > 0.1) & (z > -0.2)
        col[ridge] = hm.get("ridge", tuple(min(255, c + 35) for c in hm["col"]))
        if hm.get("band"):
            band = (lat > 0.22) & (lat < 0.32)
            col[band] = hm["band"]
        if hm.get("cheek"):  # one cheek guard painted (asymmetric)
            cg = (lon > 0.5) & (lon < 1.3) & (lat < -0.15) & (lat > -0.7)
            col[cg] = hm["cheek"]
        return col
    if ch.beard:
        bd = (lat < -0.18 - 0.15 * (alon / 1.4)) & (alon < 1.45)
        col[bd] = ch.beard["col"]
    # eyes
    ew, eh = ch.eye_size
    for sgn in (1, -1):
        du = (lon - sgn * ch.eye_lon) / ew
        dl = (lat - ch.eye_lat) / eh
        r2 = du * du + dl * dl
        white = r2 < 1.0
        col[white] = (245, 245, 245)
        iris = ((du * 1.35) ** 2 + (dl * 1.1 + 0.1) ** 2) < 1.0
        col[iris & white] = ch.eye
        pup = ((du * 2.6) ** 2 + (dl * 2.0 + 0.2) ** 2) < 1.0
        col[pup & white] = (20, 18, 25)
        hl = ((du * 4 + 1.2) ** 2 + (dl * 4 - 1.6) ** 2) < 1.0
        col[hl & white] = (255, 255, 255)
        if ch.brows:
            bdl = (lat - ch.eye_lat - eh * 1.45) / (eh * 0.22)
            brow = (np.abs(du) < 1.1) & (np.abs(bdl + 0.3 * du * du) < 1.0)
            col[brow] = tuple(0.6 * np.array(ch.hair))
        if ch.mark and ch.mark.get("eye") == sgn:  # eye patch on one eye
            patch = r2 < 1.5
            col[patch] = ch.mark["col"]
    if ch.mark and ch.mark.get("strap"):  # strap of the patch across the head
        sg = ch.mark["eye"]
        strap = np.abs(lat - (0.25 - 0.45 * np.cos(lon - sg * 0.3))) < 0.05
        col[strap] = ch.mark["col"]
    # mouth
    mth = ((lon / 0.15) ** 2 + ((lat + 0.5) / 0.045) ** 2) < 1.0
    col[mth] = ch.mouth
    if ch.mark and ch.mark.get("scar"):
        sc = ch.mark["scar"]  # (lon, lat) centre on one cheek
        sl = np.abs((lon - sc[0]) * 0.8 + (lat - sc[1])) < 0.035
        col[sl & (np.abs(lon - sc[0]) < 0.18)] = ch.mark["col"]
    # ears painted on the sphere
    if ch.ears and ch.hair_style not in ("long",):
        for sgn in (1, -1):
            ear = (((lon - sgn * 1.62) / 0.2) ** 2 + ((lat + 0.05) / 0.28) ** 2) < 1
            col[ear] = tuple(0.85 * np.array(ch.skin))
    # hair: hairline by longitude, fringe lowered on one side
    if ch.hair_style and ch.hair_style != "bald":
        fr_lon, fr_drop = ch.fringe
        front = ch.hairline - fr_drop * np.exp(-((lon - fr_lon) / 0.45) ** 2)
        if ch.hair_style == "spiky":
            front = front - 0.09 * np.abs(np.sin(lon * 7.0))
        back = -0.55
        f = np.clip((alon - 1.0) / 0.8, 0, 1)
        f = f * f * (3 - 2 * f)
        thr = front * (1 - f) + back * f
        hair = lat > thr
        col[hair] = ch.hair
        if ch.hair_style == "short" or ch.hair_style == "spiky":
            streak = hair & (np.abs(np.sin(lon * 9 + lat * 3)) < 0.15) & (lat > thr + 0.12)
            col[streak] = tuple(np.clip(np.array(ch.hair) * 1.18 + 10, 0, 255))
    if ch.hood:
        open_ = (alon < 1.2) & (lat < 0.55) & (lat > -0.95)
        col[~open_] = ch.hood["col"]
        rim = (~open_) & (alon < 1.4) & (lat < 0.75) & (lat > -1.1)
        col[rim] = ch.hood["rim"]
    return col


# ----------------------------------------------------------------------------- build one pose

def build(ch, P):
    """Pose -> list of (depth, [prims]) in world units, plus bits for the shadow."""
    yaw, pitch = P["yaw"] * D, P["pitch"] * D
    R0 = Ry(yaw) @ about(Rx(pitch), (0, P["pivot_y"], 0)) @ about(Rz(P["roll"] * D), (0, 0, 0))
    Ml = about(Ry(P["twist"] * D) @ Rx(P["lean"] * D), (0, ch.hy, 0))
    neck_y = ch.sy + 0.01
    Mhl = about(Ry(P["head_yaw"] * D) @ Rx(P["head_pitch"] * D), (0, neck_y, 0))
    legs = {s: leg_fk(ch, P, s) for s in "LR"}
    ground_ty = -min(ap(R0, p)[1] - ch.r_foot for s in "LR" for p in legs[s][2:4])
    ty = P["air"] + (ground_ty if P["ground"] >= 1 else ch.get("stand_ty", 0.0))
    if 0 < P["ground"] < 1:
        ty = P["air"] + lerp(ch.get("stand_ty", 0.0), ground_ty, P["ground"])
    Mb = Tm(P["tx"], ty, 0) @ R0
    Mu = Mb @ Ml
    Mh = Mu @ Mhl
    parts = []
    sk, hrc = ch.skin, ch.hr
    robe = ch.robe

    # --- legs
    for s in "LR":
        hip, knee, ankle, toe = [ap(Mb, p) for p in legs[s]]
        pr = []
        pr.append(cap(hip, knee, ch.r_th, ch.r_kn, ch.pants))
        if ch.boots_high:
            mid = knee + 0.35 * (ankle - knee)
            pr.append(cap(knee, mid, ch.r_kn, ch.r_kn * 0.95, ch.pants))
            pr.append(cap(mid, ankle, ch.r_kn * 1.05, ch.r_an * 1.1, ch.boots))
        else:
            pr.append(cap(knee, ankle, ch.r_kn, ch.r_an, ch.pants if not ch.get("bare_legs") else sk))
        pr.append(cap(ankle, toe, ch.r_foot, ch.r_foot * 0.85, ch.boots))
        dep = (hip[2] + knee[2] + ankle[2]) / 3
        if robe:
            dep = -5 + dep
        parts.append((dep, pr))
    ankles = [ap(Mb, legs[s][2]) for s in "LR"]

    # --- torso
    cz, wz, pz = ch.chest, ch.waist, ch.pelvis
    rings_u = [((0, ch.hy - 0.05, 0), pz[0], pz[1]), ((0, ch.hy + 0.07, 0), wz[0], wz[1]),
               ((0, ch.sy - 0.07, 0.005), cz[0], cz[1]), ((0, ch.sy + 0.015, 0), cz[0] * 0.78, cz[1] * 0.8)]
    tp = []
    lower, _ = tube(Mu, rings_u[:2] + [((0, ch.hy + 0.09, 0), wz[0], wz[1])], ch.pants)
    upper, cs = tube(Mu, rings_u[1:], ch.shirt)
    tp += [lower, upper]
    # belt
    belt, _ = tube(Mu, [((0, ch.hy + 0.05, 0), wz[0] * 1.06, wz[1] * 1.08),
                        ((0, ch.hy + 0.09, 0), wz[0] * 1.04, wz[1] * 1.06)], ch.belt)
    if not robe or robe.get("belt", True):
        tp.append(belt)
        bp, bn = tube_surface(rings_u, ch.hy + 0.07, 0.0, 1.08)
        if dv(Mu, bn)[2] > 0.1:
            tp.append(circ(ap(Mu, bp), 0.018, ch.buckle, flat=True))
    if ch.sash:
        sa = ch.sash
        tp += surface_stroke(Mu, rings_u, sa["front"], sa["w"], sa["col"])
        tp += surface_stroke(Mu, rings_u, sa["back"], sa["w"], sa["col"])
        if sa.get("pouch"):
            pp, pn = tube_surface(rings_u, ch.hy + 0.02, sa["pouch"], 1.15)
            ppw = ap(Mu, pp)
            parts.append((ppw[2] + 0.001, [circ(ppw, 0.04, sa["pcol"])]))
    if ch.necklace:
        nk = ch.necklace
        for i in range(22):
            f = -math.pi + 2 * math.pi * i / 22
            p, n = tube_surface(rings_u, ch.sy - 0.01 - 0.05 * math.cos(f) ** 2, f, 1.05)
            if dv(Mu, n)[2] > 0.05:
                big = (i == 0)
                tp.append(circ(ap(Mu, p), 0.02 if big else 0.011, nk["big"] if big else nk["col"], flat=True))
    if ch.get("emblem"):
        em = ch.emblem  # a badge on one side of the chest
        p, n = tube_surface(rings_u, ch.sy - 0.09, em["phi"], 1.0)
        if dv(Mu, n)[2] > 0.15:
            tp.append(circ(ap(Mu, p), em["r"], em["col"], flat=True))
    parts.append((ap(Mu, (0, ch.sy - 0.15, 0))[2], tp))

    # --- robe / dress (hides the legs)
    if robe:
        top_y = ch.hy + robe.get("top", 0.08)
        hem_y = robe.get("hem", 0.035)
        flare = robe.get("flare", (0.2, 0.17))
        zlead = max(legs["L"][2][2], legs["R"][2][2])
        hz = P["hem_z"] + 0.45 * zlead
        hx = P["hem_x"]
        rings_top = [((0, top_y, 0), wz[0] * 1.08, wz[1] * 1.1)]
        rings_low = [((hx * 0.3, ch.hy - 0.06, hz * 0.3), lerp(wz[0], flare[0], 0.45), lerp(wz[1], flare[1], 0.45)),
                     ((hx, hem_y, hz), flare[0], flare[1])]
        # top ring through the upper body, lower rings through the body
        pts_top = [ap(Mu, rings_top[0][0])]
        pts_low = [ap(Mb, r[0]) for r in rings_low]
        cs3 = pts_top + pts_low
        allr = rings_top + rings_low
        left, right = [], []
        for i, (c3, rx, rz) in enumerate(allr):
            a_ = cs3[max(0, i - 1)]
            b_ = cs3[min(len(cs3) - 1, i + 1)]
            ax = nrm((b_ - a_)[:2])
            n = np.array([-ax[1], ax[0]])
            M = Mu if i == 0 else Mb
            u = dv(M, (rx, 0, 0))[:2]
            v = dv(M, (0, 0, rz))[:2]
            hw = math.sqrt(float(u @ n) ** 2 + float(v @ n) ** 2)
            left.append(cs3[i][:2] + hw * n)
            right.append(cs3[i][:2] - hw * n)
        # rounded hem: sample the hem ellipse's lower half
        hem_c = cs3[-1]
        u = dv(Mb, (flare[0], 0, 0))
        v = dv(Mb, (0, 0, flare[1]))
        hem_pts = []
        for a in np.linspace(0, 2 * math.pi, 24, endpoint=False):
            q = hem_c + math.cos(a) * u + math.sin(a) * v
            hem_pts.append(q[:2])
        hem_pts = np.array(hem_pts)
        rp = [poly(left + right[::-1], robe["col"], th=2 * flare[0])]
        rp.append(poly(hem_pts, robe["col"], th=2 * flare[0], flat=True))
        # trim at the hem (front half visible band) and the front opening
        trim = robe.get("trim")
        if trim:
            rg = [((hx, hem_y, hz), flare[0], flare[1]),
                  ((lerp(hx, hx * 0.3, 0.15), lerp(hem_y, ch.hy - 0.06, 0.15), lerp(hz, hz * 0.3, 0.15)),
                   lerp(flare[0], lerp(wz[0], flare[0], 0.45), 0.15),
                   lerp(flare[1], lerp(wz[1], flare[1], 0.45), 0.15))]
            for f in np.linspace(-math.pi, math.pi, 25)[:-1]:
                p, n = tube_surface(rg, hem_y + 0.012, f, 1.0)
                if dv(Mb, n)[2] > 0.0:
                    rp.append(circ(ap(Mb, p), 0.016, trim, flat=True))
            op = robe.get("open", 0.35)  # front opening off centre (far-side cue)
            lowr = [((0, top_y, 0), wz[0] * 1.08, wz[1] * 1.1)] + rings_low
            for i in range(10):
                y = lerp(top_y - 0.01, hem_y + 0.02, i / 9)
                y2 = lerp(top_y - 0.01, hem_y + 0.02, (i + 1) / 9)
                if i == 9:
                    break
                p1, n1 = tube_surface(lowr, y, op * (0.3 + 0.7 * i / 9), 1.0)
                p2, _ = tube_surface(lowr, y2, op * (0.3 + 0.7 * (i + 1) / 9), 1.0)
                if dv(Mb, n1)[2] > 0.1:
                    rp.append(cap(ap(Mb, p1), ap(Mb, p2), 0.011, 0.011, trim, flat=True))
        parts.append((ap(Mu, (0, ch.hy, 0))[2] + 0.002, rp))

    # --- cape (two panels, lining shows from the front)
    if ch.cape:
        cp = ch.cape
        back, fwd, fl = P["cape_back"], P["cape_fwd"], P["flutter"]
        ztop = -ch.chest[1] - 0.012
        by = ch.hy + cp.get("end", -0.25)
        for sgn in (1.0, -1.0):
            tc = np.array([0.0, ch.sy + 0.03, ztop])
            ts = np.array([sgn * (ch.sw + 0.03), ch.sy + 0.005, -0.015])
            wob = 0.02 * math.sin(fl * 1.7 + sgn)
            bs = np.array([sgn * (ch.sw + 0.07 + 0.02 * back), by + 0.08 * back + 0.03 * wob,
                           ztop - 0.06 - 0.32 * back + wob])
            bc = np.array([0.0, by - 0.01 + 0.1 * back, ztop - 0.05 - 0.36 * back - wob])
            if fwd > 0:
                # gust from behind: the cape lifts and wraps forward; the near panel
                # (the character's right) crosses in front of the body
                cross = 1.0 if sgn < 0 else 0.35
                bs = bs + fwd * np.array([sgn * -0.02 + (0.17 * cross if sgn < 0 else 0.04),
                                          0.25 + 0.04 * math.sin(fl * 2.3),
                                          0.38 * cross + 0.12 + 0.03 * math.sin(fl * 3.1)])
                bc = bc + fwd * np.array([-0.08, 0.2, 0.3 + 0.03 * math.sin(fl * 2.7)])
            mid_out = 0.5 * (ts + bs) + np.array([sgn * 0.035, 0, -0.02 - 0.03 * back])
            pts3 = [tc, ts, mid_out, bs, bc]
            pw = [ap(Mu, p) for p in pts3]
            nb = nrm(np.cross(ts - tc, bc - tc) * sgn) + np.array([sgn * 0.9, 0, 0])
            nw = dv(Mu, nb)
            colr = cp["col"] if nw[2] > 0 else cp["lining"]
            dep = float(np.mean([p[2] for p in pw]))
            parts.append((dep, [poly(pw, colr, th=0.2)]))
        # clasp at the collar
        clp = ap(Mu, (0, ch.sy + 0.005, ch.chest[1] * 0.8))
        if dv(Mu, (0, 0, 1))[2] > 0.2:
            parts.append((clp[2] + 0.03, [circ(clp, 0.02, cp.get("clasp", (230, 200, 90)), flat=True)]))

    # --- scarf tail (one side)
    if ch.scarf:
        sc = ch.scarf
        sb = P["scarf_back"]
        fl = P["flutter"]
        base_ = np.array([sc.get("side", 1) * 0.03, ch.sy + 0.02, -ch.chest[1] * 0.8])
        pts = [base_]
        for i in range(1, 4):
            pts.append(base_ + np.array([sc.get("side", 1) * 0.03 * i, -0.07 * i * (1 - 0.5 * sb) + 0.012 * math.sin(fl * 2 + i),
                                         -0.06 * i * (0.4 + sb)]))
        pw = [ap(Mu, p) for p in pts]
        pr = [cap(pw[i], pw[i + 1], 0.025, 0.02, sc["col"]) for i in range(3)]
        parts.append((float(np.mean([p[2] for p in pw])), pr))
        ring = [((0, ch.sy + 0.01, 0), ch.chest[0] * 0.62, ch.chest[1] * 0.75),
                ((0, ch.sy + 0.06, 0), ch.chest[0] * 0.5, ch.chest[1] * 0.65)]
        wrap, _ = tube(Mu, ring, sc["col"])
        parts.append((ap(Mu, (0, ch.sy, 0))[2] + 0.02, [wrap]))

    # --- sword sheathed on the back
    if ch.back_sword:
        bsw = ch.back_sword
        a3 = np.array([0.09, ch.sy + 0.1, -ch.chest[1] - 0.02])
        b3 = np.array([-0.1, ch.hy - 0.07, -ch.chest[1] - 0.03])
        pa, pb = ap(Mu, a3), ap(Mu, b3)
        hilt = ap(Mu, a3 + 0.6 * (a3 - b3) / np.linalg.norm(a3 - b3) * 0.2)
        parts.append(((pa[2] + pb[2]) / 2 - 0.001,
                      [cap(pa, pb, 0.028, 0.024, bsw["sheath"]), cap(pa, hilt, 0.014, 0.014, bsw["hilt"]),
                       circ(pa, 0.022, bsw["guard"])]))

    # --- arms
    hands = {}
    for s in "LR":
        S, E, H = arm_fk(ch, P, s, P["breath"])
        hands[s] = H
        Sw, Ew, Hw = ap(Mu, S), ap(Mu, E), ap(Mu, H)
        up = [circ(Sw, ch.r_sh, ch.shirt if not ch.bare_arms else sk),
              cap(Sw, Ew, ch.r_ua, ch.r_el, ch.sleeve if not ch.bare_arms else sk)]
        if ch.pauldron:
            pc = ch.pauldron
            if pc.get("side", "both") in ("both", s):
                up.append(circ(ap(Mu, S + np.array([0, 0.012, 0])), ch.r_sh * 1.45, pc["col"]))
        parts.append(((Sw[2] + Ew[2]) / 2, up))
        fore_col = ch.get("fore", sk)
        fo = [cap(Ew, Hw, ch.r_el, ch.r_wr, fore_col),
              circ(Hw, ch.r_hand, ch.glove or sk)]
        if ch.get("bracer"):
            mid = Ew + 0.55 * (Hw - Ew)
            fo.insert(1, cap(mid, Hw, ch.r_el * 1.12, ch.r_wr * 1.2, ch.bracer))
        parts.append((Hw[2] + 0.002, fo))
        # shield on the left forearm
        if ch.shield and s == ch.shield.get("arm", "L"):
            sd = ch.shield
            sg = 1.0 if s == "L" else -1.0
            fdir = nrm(H - E)
            nloc = nrm(np.array([sg, 0, 0]) - fdir * (fdir[0] * sg))
            cen = E + 0.55 * (H - E) + nloc * 0.05
            cw = ap(Mu, cen)
            nw = dv(Mu, nloc)
            e1 = dv(Mu, fdir)
            R = sd["r"]
            sp = [disk(cw - nw * 0.012, nw, e1, R * 1.06, sd["rim"])]
            if nw[2] > 0:
                sp.append(disk(cw, nw, e1, R, sd["col"]))
                # emblem: a diagonal band and a boss, only on the face
                e2 = np.cross(nw, e1)
                band = [cw + R * 0.92 * (math.cos(a) * e1 + math.sin(a) * e2) for a in (0.5, 0.9)]
                band += [cw + R * 0.92 * (math.cos(a) * e1 + math.sin(a) * e2) for a in (0.9 + math.pi, 0.5 + math.pi)]
                sp.append(poly(band, sd["band"], flat=True))
                sp.append(disk(cw + nw * 0.01, nw, e1, R * 0.22, sd["boss"], n_pts=14))
            else:
                sp.append(disk(cw, nw, e1, R * 0.95, sd["back"]))
                e2 = np.cross(nw, e1)
                sp.append(cap(cw - 0.6 * R * e1, cw + 0.6 * R * e1, 0.012, 0.012, sd["strap"], flat=True))
            parts.append((cw[2], sp))

    # --- weapon
    if ch.weapon:
        parts += weapon_parts(ch, P, Mu, hands)

    # --- neck and head
    nb_ = ap(Mu, (0, neck_y - 0.02, 0))
    hc_l = np.array([0, neck_y + ch.neck + hrc * 0.95, 0.008])
    hc = ap(Mh, hc_l)
    parts.append((nb_[2] + 0.01, [cap(nb_, ap(Mh, (0, neck_y + ch.neck + 0.01, 0.0)),
                                      ch.get("r_neck", 0.032), ch.get("r_neck", 0.032) * 0.95,
                                      ch.get("neck_col", sk))]))
    Rh = Mh[:3, :3]
    hb = 0.03
    hp = [dict(k="sphere", c=hc[:2], r=hrc, R=Rh, ch=ch)]
    parts_head = []
    # nose
    if ch.nose and not ch.helmet:
        nn = np.array([0, -0.12, 0.99])
        npos = ap(Mh, hc_l + hrc * 0.97 * nn)
        nd = dv(Mh, nn)[2]
        if nd > -0.3:
            parts_head.append((npos[2] + hb, [circ(npos, hrc * 0.14, ch.skin)]))
    if ch.helmet and ch.helmet.get("nasal"):
        nn = np.array([0, -0.05, 1.0])
        npos = ap(Mh, hc_l + hrc * 1.0 * nn)
        if dv(Mh, nn)[2] > -0.3:
            parts_head.append((npos[2] + hb, [circ(npos, hrc * 0.12, ch.helmet["ridge"])]))
    # hair mass behind / hood
    if ch.back_hair and ch.hair_style not in ("bald", None) and not ch.helmet:
        bc3 = hc_l + hrc * np.array([0, 0.1, -0.3])
        bw = ap(Mh, bc3)
        parts_head.append((bw[2] - 0.004 + hb, [circ(bw, hrc * (1 + ch.back_hair * 0.2), ch.hair)]))
    if ch.hood:
        bc3 = hc_l + hrc * np.array([0, 0.15, -0.3])
        bw = ap(Mh, bc3)
        parts_head.append((bw[2] - 0.004 + hb, [circ(bw, hrc * 1.2, ch.hood["col"])]))
        tip3 = hc_l + hrc * np.array([0.15, 0.6, -1.35])  # hood's point flops to one side
        parts_head.append((ap(Mh, tip3)[2] + hb - 0.006,
                           [cap(bw, ap(Mh, tip3), hrc * 0.9, hrc * 0.25, ch.hood["col"])]))
    if ch.long_hair:
        lh = ch.long_hair
        L_ = lh["len"]
        sw_ = P["hair_swing"] * 0.02
        pts3 = [hc_l + hrc * np.array([-0.95, 0.2, -0.15]), hc_l + hrc * np.array([0.95, 0.2, -0.15]),
                hc_l + np.array([0.11 + sw_, -L_, -0.09 - 0.01 * P["flutter"]]),
                hc_l + np.array([0.0 + sw_, -L_ - 0.03, -0.11]),
                hc_l + np.array([-0.11 + sw_, -L_, -0.09])]
        pw = [ap(Mh, p) for p in pts3]
        parts_head.append((float(np.mean([p[2] for p in pw])) + hb - 0.01, [poly(pw, ch.hair, th=0.2)]))
    if ch.pony:
        py = ch.pony
        base3 = hc_l + hrc * np.array([0.0, 0.35, -0.95])
        pts = [base3]
        sw_ = P["hair_swing"]
        for i in range(1, 5):
            pts.append(base3 + np.array([0.012 * sw_ * i, -0.05 * i + 0.015 * abs(sw_) * i,
                                         -0.035 * i - 0.01 * abs(sw_) * i]))
        pw = [ap(Mh, p) for p in pts]
        pr = [circ(pw[0], 0.03, py.get("tie", ch.hair))]
        for i in range(4):
            pr.append(cap(pw[i], pw[i + 1], 0.034 - 0.006 * i, 0.028 - 0.006 * i, ch.hair))
        parts_head.append((float(np.mean([p[2] for p in pw])) + hb - 0.002, pr))
    if ch.bun:
        bn = ch.bun  # one bun on one side of the head
        lon, lat = bn["lon"], bn["lat"]
        n3 = np.array([math.sin(lon) * math.cos(lat), math.sin(lat), math.cos(lon) * math.cos(lat)])
        bw = ap(Mh, hc_l + hrc * 1.05 * n3)
        pr = [circ(bw, hrc * bn["r"], ch.hair)]
        rb = ap(Mh, hc_l + hrc * 1.0 * n3 + hrc * np.array([0, -0.25, 0.15]))
        pr.append(circ(rb, hrc * 0.16, bn["ribbon"]))
        parts_head.append((bw[2] + hb, pr))
    if ch.plume:
        pl = ch.plume
        sw_ = P["hair_swing"] * 0.01
        pts3 = [hc_l + hrc * np.array([0.1, 1.0, -0.1]), hc_l + hrc * np.array([0.35, 1.55, -0.7]),
                hc_l + hrc * np.array([0.5, 1.35, -1.5]) + np.array([0, 0, -sw_]),
                hc_l + hrc * np.array([0.55, 0.8, -2.0]) + np.array([sw_, 0, -sw_])]
        pw = [ap(Mh, p) for p in pts3]
        pr = [cap(pw[i], pw[i + 1], hrc * (0.22 + 0.04 * i), hrc * (0.26 + 0.03 * i), pl["col"]) for i in range(3)]
        parts_head.append((float(np.mean([p[2] for p in pw])) + hb - 0.003, pr))
    if ch.beard and ch.beard.get("long"):
        pts3 = [hc_l + hrc * np.array(v) for v in
                [(-0.75, -0.45, 0.55), (0.75, -0.45, 0.55), (0.45, -1.5, 0.75), (0.1, -1.95, 0.8),
                 (-0.3, -1.7, 0.75)]]
        pw = [ap(Mh, p) for p in pts3]
        parts_head.append((float(np.mean([p[2] for p in pw])) + hb, [poly(pw, ch.beard["col"], th=hrc)]))
    if ch.helmet and ch.helmet.get("horn"):
        for sg in (1, -1):
            pts3 = [hc_l + hrc * np.array([0.85 * sg, 0.45, 0.0]), hc_l + hrc * np.array([1.35 * sg, 0.9, 0.05]),
                    hc_l + hrc * np.array([1.4 * sg, 1.45, 0.15])]
            pw = [ap(Mh, p) for p in pts3]
            parts_head.append((float(np.mean([p[2] for p in pw])) + hb,
                               [cap(pw[0], pw[1], hrc * 0.2, hrc * 0.14, ch.helmet["hornc"]),
                                cap(pw[1], pw[2], hrc * 0.14, hrc * 0.05, ch.helmet["hornc"])]))
    # head-borne parts sort by the neck's depth (the head always sits over its torso),
    # offset by how far in front of / behind the head's centre they are
    base_d = nb_[2] + hb
    parts.append((base_d, hp))
    parts += [(d_ - hb - hc[2] + base_d, pr_) for d_, pr_ in parts_head]
    # shadow info: feet
    info = dict(feet_x=float(np.mean([a[0] for a in ankles])),
                feet_y=float(min(a[1] for a in ankles)))
    return parts, info


def weapon_parts(ch, P, Mu, hands):
    wp = ch.weapon
    kind = wp["kind"]
    w = P["w"] * D
    if P.get("wspin") is not None:
        d_u = nrm(P["wspin"])
        edge_u = nrm(np.cross(d_u, (1, 0, 0))) if abs(d_u[0]) < 0.9 else np.array([0, 1.0, 0])
    else:
        d_u = nrm((P["wx"], -math.cos(w), math.sin(w)))
        edge_u = nrm(np.cross(np.cross(d_u, np.array([0, -math.sin(w), -math.cos(w)])), d_u))
        if np.linalg.norm(edge_u) < 1e-6:
            edge_u = np.array([0, -math.sin(w), -math.cos(w)])
    grip_hand = wp.get("hand", "R")
    g = hands[grip_hand] if grip_hand != "both" else 0.5 * (hands["L"] + hands["R"])
    g = g + d_u * wp.get("grip_off", 0.0)
    back, length = wp["back"], wp["len"]
    butt, tip = g - back * d_u, g + length * d_u
    gw, bw_, tw = ap(Mu, g), ap(Mu, butt), ap(Mu, tip)
    dW, eW = dv(Mu, d_u), dv(Mu, edge_u)
    handle_col = wp.get("handle", (110, 72, 40))
    out = []
    hp = [cap(bw_, tw if kind not in ("sword", "greatsword", "katana") else gw + dW * 0.05,
              wp.get("r", 0.014), wp.get("r", 0.014), handle_col)]
    blade = []
    if kind in ("sword", "greatsword", "katana"):
        bl_w = wp.get("width", 0.035)
        b0 = gw + dW * 0.06
        pts = [b0 + eW * bl_w / 2, tw - dW * bl_w * 1.2 + eW * bl_w / 2, tw,
               tw - dW * bl_w * 1.2 - eW * bl_w / 2, b0 - eW * bl_w / 2]
        if kind == "katana":
            pts = [b0 + eW * bl_w / 2, tw - dW * 0.05 + eW * bl_w * 0.2, tw, b0 - eW * bl_w / 2]
        blade.append(poly(pts, wp["blade"], th=bl_w * 1.2))
        blade.append(cap(b0 - dW * 0.03, b0 + dW * 0.3 * length, bl_w * 0.12, bl_w * 0.08,
                         wp.get("fuller", wp["blade"]), flat=True))
        gx = dv(Mu, (1, 0, 0))
        guard_dir = nrm(gx + 0.6 * eW)
        hp.append(cap(gw + dW * 0.05 - guard_dir * wp.get("guard", 0.06), gw + dW * 0.05 + guard_dir * wp.get("guard", 0.06),
                      0.012, 0.012, wp.get("guardc", (200, 170, 70))))
        hp.append(circ(bw_, 0.017, wp.get("guardc", (200, 170, 70))))
    elif kind == "axe":
        A = tw - dW * 0.03
        B = tw - dW * 0.22
        pts = [A, A + eW * 0.06 + dW * 0.03, A + eW * 0.17 + dW * 0.07, B + eW * 0.2 - dW * 0.02,
               B + eW * 0.17 - dW * 0.06, B + eW * 0.06, B]
        blade.append(poly(pts, wp["blade"], th=0.12))
        blade.append(poly([A + eW * 0.15 + dW * 0.06, A + eW * 0.185 + dW * 0.07, B + eW * 0.205 - dW * 0.02,
                           B + eW * 0.17 - dW * 0.05], wp.get("edge", (235, 235, 240)), flat=True))
        blade.append(poly([A - dW * 0.03, A - eW * 0.09 - dW * 0.08, B + dW * 0.06], wp["blade"], th=0.05))
    elif kind == "hammer":
        C = tw - dW * 0.07
        pts = [C + dW * 0.08 + eW * 0.14, C + dW * 0.08 - eW * 0.14, C - dW * 0.08 - eW * 0.14,
               C - dW * 0.08 + eW * 0.14]
        blade.append(poly(pts, wp["blade"], th=0.16))
        blade.append(poly([C + dW * 0.085 + eW * 0.03, C + dW * 0.085 - eW * 0.03, C - dW * 0.085 - eW * 0.03,
                           C - dW * 0.085 + eW * 0.03], wp.get("band", (180, 140, 60)), flat=True))
    elif kind == "spear":
        pts = [tw + dW * 0.03, tw - dW * 0.1 + eW * 0.04, tw - dW * 0.2, tw - dW * 0.1 - eW * 0.04]
        blade.append(poly(pts, wp["blade"], th=0.08))
        blade.append(circ(tw - dW * 0.2, 0.02, wp.get("tassel", (200, 40, 40))))
    elif kind == "staff":
        blade.append(circ(tw + dW * 0.03, wp.get("orb_r", 0.045), wp["orb"]))
        blade.append(cap(tw - dW * 0.05 + eW * 0.05, tw + dW * 0.06 + eW * 0.06, 0.012, 0.008, wp["blade"]))
        if wp.get("butt_orb"):
            blade.append(circ(bw_ - dW * 0.01, 0.02, wp["blade"]))
    hand_d = ap(Mu, hands["R"] if grip_hand != "L" else hands["L"])[2]
    out.append((min(gw[2], hand_d) - 0.004, hp))
    if blade:
        cen = np.mean([tw, tw - dW * 0.15], axis=0)
        out.append((cen[2] - 0.003, blade))
    return out


# ----------------------------------------------------------------------------- raster

def _bbox_prim(pr, f):
    if pr["k"] == "cap":
        r = max(pr["r1"], pr["r2"])
        lo = np.minimum(pr["p1"], pr["p2"]) - r
        hi = np.maximum(pr["p1"], pr["p2"]) + r
    elif pr["k"] in ("circ", "sphere"):
        lo, hi = pr["c"] - pr["r"], pr["c"] + pr["r"]
    else:
        lo, hi = pr["pts"].min(0), pr["pts"].max(0)
    return lo, hi


def world_bbox(parts):
    lo = np.array([1e9, 1e9])
    hi = -lo
    for _, prs in parts:
        for pr in prs:
            a, b = _bbox_prim(pr, None)
            lo = np.minimum(lo, a)
            hi = np.maximum(hi, b)
    return lo, hi


class Canvas:
    def __init__(self, W, H, S, ox, oy, style, ink, ink_px, binary):
        self.W, self.H, self.S, self.ox, self.oy = W, H, S, ox, oy
        self.style, self.ink, self.ink_px, self.binary = style, np.array(ink, np.float32), ink_px, binary
        self.C = np.zeros((H, W, 3), np.float32)
        self.A = np.zeros((H, W), np.float32)

    def px(self, p):
        p = np.asarray(p, float)
        return np.stack([self.ox + p[..., 0] * self.S, self.oy - p[..., 1] * self.S], -1)

    def comp(self, x0, y0, m, col):
        """composite a local soft mask m (h,w) with colour col ((h,w,3) or (3,))."""
        h, w = m.shape
        X0, Y0 = max(0, x0), max(0, y0)
        X1, Y1 = min(self.W, x0 + w), min(self.H, y0 + h)
        if X1 <= X0 or Y1 <= Y0:
            return
        mm = m[Y0 - y0:Y1 - y0, X0 - x0:X1 - x0]
        if isinstance(col, np.ndarray) and col.ndim == 3:
            cc = col[Y0 - y0:Y1 - y0, X0 - x0:X1 - x0]
        else:
            cc = np.asarray(col, np.float32)
        sub = self.C[Y0:Y1, X0:X1]
        sa = self.A[Y0:Y1, X0:X1]
        m3 = mm[..., None]
        sub *= (1 - m3)
        sub += cc * m3
        sa *= (1 - mm)
        sa += mm

    def raster(self, pr):
        k = pr["k"]
        SH = 8
        if k == "sphere":
            c = self.px(pr["c"])
            r = pr["r"] * self.S
            x0, y0 = int(math.floor(c[0] - r - 3)), int(math.floor(c[1] - r - 3))
            x1, y1 = int(math.ceil(c[0] + r + 3)), int(math.ceil(c[1] + r + 3))
            yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            nx = (xx + 0.5 - c[0]) / r
            ny = -(yy + 0.5 - c[1]) / r
            d2 = nx * nx + ny * ny
            dist = np.sqrt(d2) * r
            if self.binary:
                m = (dist <= r).astype(np.float32)
            else:
                m = np.clip(r - dist + 0.5, 0, 1).astype(np.float32)
            inside = m > 0
            nz = np.sqrt(np.clip(1 - d2, 0, 1))
            n_v = np.stack([nx[inside], ny[inside], nz[inside]], 1)
            n_v /= np.maximum(1e-6, np.linalg.norm(n_v, axis=1, keepdims=True))
            n_h = n_v @ pr["R"]  # inverse rotation (R orthonormal): R^T n
            col = head_texture(pr["ch"], n_h[:, 0], n_h[:, 1], n_h[:, 2])
            lam = np.clip(n_v @ LIGHT3, 0, 1)
            col = self._shade_sphere(col, lam, n_v)
            img = np.zeros(m.shape + (3,), np.float32)
            img[inside] = col
            return x0, y0, m, img, 2 * r
        if k == "cap":
            p1, p2 = self.px(pr["p1"]), self.px(pr["p2"])
            r1, r2 = max(0.5, pr["r1"] * self.S), max(0.5, pr["r2"] * self.S)
            ang = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            ring = np.stack([np.cos(ang), np.sin(ang)], 1)
            pts = np.concatenate([p1 + r1 * ring, p2 + r2 * ring])
            pts = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
            thick = r1 + r2
        elif k == "circ":
            c = self.px(pr["c"])
            r = max(0.5, pr["r"] * self.S)
            ang = np.linspace(0, 2 * math.pi, 32, endpoint=False)
            pts = c + r * np.stack([np.cos(ang), np.sin(ang)], 1)
            thick = 2 * r
        else:
            pts = self.px(pr["pts"])
            thick = pr.get("th", None)
            thick = thick * self.S if thick else None
        pad = int(self.ink_px + 3 + (0.35 * thick if thick else 6))
        x0, y0 = int(math.floor(pts[:, 0].min())) - pad, int(math.floor(pts[:, 1].min())) - pad
        x1, y1 = int(math.ceil(pts[:, 0].max())) + pad, int(math.ceil(pts[:, 1].max())) + pad
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        loc = np.round((pts - (x0, y0)) * SH).astype(np.int32)
        if k == "poly":
            cv2.fillPoly(m, [loc], 255, cv2.LINE_8 if self.binary else cv2.LINE_AA, SH.bit_length() - 1)
        else:
            cv2.fillConvexPoly(m, loc, 255, cv2.LINE_8 if self.binary else cv2.LINE_AA, SH.bit_length() - 1)
        m = m.astype(np.float32) / 255.0
        if self.binary:
            m = (m > 0.5).astype(np.float32)
        if thick is None:
            thick = max(2.0, min(x1 - x0, y1 - y0) - 2 * pad)
        return x0, y0, m, None, thick

    def _shade_sphere(self, col, lam, n_v):
        st = self.style
        if st == "shaded":
            f = 0.55 + 0.55 * lam
            spec = np.clip((lam - 0.9) / 0.1, 0, 1) * 30
            return np.clip(col * f[:, None] + spec[:, None], 0, 255)
        if st in ("cel", "ink", "pixel"):
            f = np.where(lam < 0.3, 0.74, 1.0)
            rim = (n_v[:, 2] < 0.25) & (lam > 0.5)
            out = col * f[:, None]
            out[rim] = np.clip(out[rim] * 1.12 + 12, 0, 255)
            return out
        return col

    def _shift(self, a, v):
        dx, dy = int(round(v[0])), int(round(v[1]))
        out = np.zeros_like(a)
        h, w = a.shape
        # out[y, x] = a[y+dy, x+dx]
        ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else (slice(0, h + dy), slice(-dy, h))
        xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else (slice(0, w + dx), slice(-dx, w))
        out[yd, xd] = a[ys, xs]
        return out

    def draw(self, pr):
        x0, y0, m, img, thick = self.raster(pr)
        base = np.array(pr.get("col", (0, 0, 0)), np.float32)
        st = self.style
        if self.ink_px > 0 and not pr.get("noink"):
            kz = int(round(self.ink_px))
            if pr.get("flat"):
                kz = max(1, int(round(self.ink_px * 0.6))) if st != "pixel" else 0
            if kz > 0:
                ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE if st != "pixel" else cv2.MORPH_CROSS,
                                                (2 * kz + 1, 2 * kz + 1))
                md = cv2.dilate(m, ker)
                self.comp(x0, y0, md, self.ink)
        if img is not None:
            self.comp(x0, y0, m, img)
            return
        if pr.get("flat") or st == "flat":
            self.comp(x0, y0, m, base)
            return
        if st in ("cel", "ink", "pixel"):
            v = SHADOW_DIR * max(1.0, 0.3 * thick)
            ms = self._shift(m, v)
            sh = np.clip(m - ms, 0, 1)
            if st == "pixel":
                sh = (sh > 0.5).astype(np.float32)
            col = base[None, None, :] * (1 - 0.27 * sh[..., None])
            if st != "pixel":
                mh = self._shift(m, -SHADOW_DIR * max(1.0, 0.12 * thick))
                hl = np.clip(m - mh, 0, 1) * (1 - sh)
                col = col + hl[..., None] * np.clip(base * 0.15 + 18, 0, 60)
            self.comp(x0, y0, m, np.clip(col, 0, 255))
            return
        # shaded: soft gradient from the lit side, darker rim
        sig = max(1.0, 0.3 * thick)
        g = cv2.GaussianBlur(m, (0, 0), sig)
        gs = self._shift(g, SHADOW_DIR * 0.55 * thick)
        lit = np.clip((gs - 0.15) / 0.7, 0, 1)
        core = np.clip(g * 1.6 - 0.3, 0, 1)
        f = 0.6 + 0.45 * lit * (0.55 + 0.45 * core)
        spec = np.clip((lit * core - 0.8) / 0.2, 0, 1) * 22
        col = base[None, None, :] * f[..., None] + spec[..., None]
        self.comp(x0, y0, m, np.clip(col, 0, 255))

    def rgba(self):
        a = np.clip(self.A, 0, 1)
        rgb = np.where(a[..., None] > 1e-4, self.C / np.maximum(a[..., None], 1e-4), 0)
        out = np.zeros((self.H, self.W, 4), np.uint8)
        out[..., :3] = np.clip(np.round(rgb), 0, 255).astype(np.uint8)
        out[..., 3] = np.clip(np.round(a * 255), 0, 255).astype(np.uint8)
        out[out[..., 3] == 0, :3] = 0
        return out


def render_parts(parts, W, H, S, ox, oy, ch, pixel=0):
    style = ch.style
    if pixel:
        f = pixel
        cv_ = Canvas(W // f, H // f, S / f, ox / f, oy / f, "pixel", ch.ink, 1, True)
    else:
        ink_px = ch.ink_w * S if style == "ink" else 0
        cv_ = Canvas(W, H, S, ox, oy, style, ch.ink, ink_px, False)
    for _, prs in sorted(parts, key=lambda p: p[0]):
        for pr in prs:
            cv_.draw(pr)
    out = cv_.rgba()
    if pixel:
        a = out[..., 3] > 127
        # a one-pixel dark outline around the whole sprite
        ker = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
        ring = cv2.dilate(a.astype(np.uint8), ker).astype(bool) & ~a
        out[a, 3] = 255
        out[~a] = 0
        out[ring, :3] = ch.ink
        out[ring, 3] = 255
        out = np.repeat(np.repeat(out, pixel, 0), pixel, 1)
    return out


# ----------------------------------------------------------------------------- screen / video

def make_background(W, H, rng, grad):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    u, v = xx / W - 0.5, yy / H - 0.5
    g = 1.0 + grad[0] * u + grad[1] * v - grad[2] * (u * u + v * v)
    tex = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 9) * 14
    bg = GREEN[None, None, :] * g[..., None] + tex[..., None] * np.array([0.25, 0.6, 0.3], np.float32)
    return np.clip(bg, 0, 255).astype(np.float32)


def composite(rgba, bg, shadow, rng, wrap_k, noise):
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    fg = rgba[..., :3].astype(np.float32)
    b = bg.copy()
    if shadow is not None:
        cx, cy, rx, ry, s = shadow
        sm = np.zeros(bg.shape[:2], np.float32)
        if s > 0.01:
            cv2.ellipse(sm, (int(cx), int(cy)), (max(1, int(rx)), max(1, int(ry))), 0, 0, 360, 1.0, -1,
                        cv2.LINE_AA)
            sm = cv2.GaussianBlur(sm, (0, 0), max(2.0, ry * 0.6)) * s
            b *= (1 - sm[..., None])
    if wrap_k > 0:
        bb = cv2.GaussianBlur(b, (0, 0), 7)
        wr = cv2.GaussianBlur(1 - a[..., 0], (0, 0), 2.2)[..., None] * a * wrap_k
        fg = fg * (1 - wr) + bb * wr
    out = fg * a + b * (1 - a)
    out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def rgb_to_yuv420(rgb):
    r, g, b = [rgb[..., i].astype(np.float64) / 255.0 for i in range(3)]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    cb = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    cr = 128 + 112.0 * r - 93.786 * g - 18.214 * b
    H, W = y.shape
    cb = cb.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    cr = cr.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    Y = np.clip(np.round(y), 0, 255).astype(np.uint8)
    U = np.clip(np.round(cb), 0, 255).astype(np.uint8)
    V = np.clip(np.round(cr), 0, 255).astype(np.uint8)
    return np.concatenate([Y.ravel(), U.ravel(), V.ravel()]).reshape(H * 3 // 2, W)


def encode(path, frames, fps, crf):
    H, W = frames[0].shape[:2]
    with av.open(path, "w") as ct:
        st = ct.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.thread_count = 1
        st.options = {"crf": str(crf), "preset": "medium", "x264-params": "mbtree=0:threads=1"}
        try:
            cc = st.codec_context
            cc.color_range = 1
            cc.colorspace = 6
            cc.color_primaries = 6
            cc.color_trc = 6
        except Exception:
            pass
        for i, fr in enumerate(frames):
            vf = av.VideoFrame.from_ndarray(rgb_to_yuv420(fr), format="yuv420p")
            vf.pts = i
            for pk in st.encode(vf):
                ct.mux(pk)
        for pk in st.encode():
            ct.mux(pk)


# ----------------------------------------------------------------------------- palettes

def hexc(s):
    s = s.lstrip("#")
    return tuple(int(s[i:i + 2], 16) for i in (0, 2, 4))


# ----------------------------------------------------------------------------- cases

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# ---- TRUE turns --------------------------------------------------------------

@case
def turn_robe_mage():
    ch = make_char(style="shaded", skin=hexc("e9c3a0"), hair=hexc("d8d4cc"), shirt=hexc("2b3f8c"),
                   sleeve=hexc("2b3f8c"), pants=hexc("2b3f8c"), boots=hexc("3b2a22"),
                   belt=hexc("c9a23a"), buckle=hexc("f0d878"), eye=hexc("3a5a40"),
                   hair_style="short", hairline=0.5, fringe=(0.6, 0.1),
                   beard=dict(col=hexc("e4e0d8"), long=True), hood=dict(col=hexc("233473"), rim=hexc("c9a23a")),
                   back_hair=0.0, robe=dict(col=hexc("2b3f8c"), trim=hexc("c9a23a"), flare=(0.2, 0.17), open=0.4),
                   sash=dict(front=[(0.82, 0.9), (0.5, -0.6)], back=[(0.5, -2.3), (0.82, 2.3)], w=0.014,
                             col=hexc("7a4b2a"), pouch=0.9, pcol=hexc("7a4b2a")),
                   weapon=dict(kind="staff", back=0.5, len=0.62, r=0.015, handle=hexc("6b4a2b"),
                               orb=hexc("8fe0ff"), blade=hexc("c9a23a"), hand="R"),
                   ears=False, fore=hexc("2b3f8c"))

    def pose(t):
        P = idle(t, 0.9)
        P.update(aR=22, bR=6, eR=55 + 3 * P["breath"], w=176, aL=10 + 2 * P["breath"], eL=40, bL=10)
        turn(P, t, 58, -58, 1.3, 0.45, step=True)
        return P
    return dict(ch=ch, pose=pose, W=512, H=512, fps=24, dur=3.2, action="idle", frac=0.7,
                expect=["FACING"],
                notes="Hooded old mage in a floor-length robe (legs hidden), staff in his right hand, "
                      "idle facing right; at 1.30 s he turns round through the front in 0.45 s and "
                      "stays facing left (staff now on the far side, robe opening and satchel strap "
                      "seen from the other side) for the last 1.45 s.")


@case
def turn_chibi_35pct():
    ch = make_char(style="cel", hr=0.2, neck=0.012, sy=0.42, sw=0.085, hy=0.24, hw=0.045,
                   ua=0.09, fa=0.08, th=0.115, sh=0.105, ft=0.05, r_ua=0.03, r_el=0.026,
                   r_wr=0.022, r_hand=0.03, r_th=0.045, r_kn=0.038, r_an=0.032, r_foot=0.034,
                   r_sh=0.035, chest=(0.085, 0.07), waist=(0.075, 0.065), pelvis=(0.085, 0.07),
                   skin=hexc("ffe0c8"), hair=hexc("f07aa8"), shirt=hexc("ffd84a"), pants=hexc("5a7be0"),
                   boots=hexc("e05a5a"), belt=hexc("5a7be0"), eye=hexc("6a3aa0"),
                   hair_style="spiky", hairline=0.35, fringe=(-0.35, 0.35), back_hair=0.55,
                   eye_size=(0.2, 0.27), eye_lon=0.42, eye_lat=-0.12, brows=False,
                   bun=dict(lon=1.25, lat=0.65, r=0.42, ribbon=hexc("5ac8e0")),
                   boots_high=False, r_neck=0.03,
                   emblem=dict(phi=-0.6, r=0.022, col=hexc("e05a5a")))

    def pose(t):
        P = idle(t, 1.4, period=1.6)
        P["air"] = 0.0
        turn(P, t, -62, 62, 1.05, 0.35, step=True, lead=0.25)
        return P
    return dict(ch=ch, pose=pose, W=448, H=448, fps=16, dur=3.0, action="idle", frac=0.62,
                expect=["FACING"],
                notes="Chibi girl (head ~45 % of her height, one hair bun on her left side, swept "
                      "fringe), bouncy idle facing left; at 1.05 s (35 % of the clip) she turns "
                      "round through the front in 0.35 s and faces right for the last 1.6 s.")


@case
def turn_knight_walk():
    ch = make_char(style="ink", ink=(28, 24, 34), ink_w=0.007, skin=hexc("d9a782"),
                   shirt=hexc("8d99ab"), sleeve=hexc("7b8799"), pants=hexc("4d5566"), boots=hexc("5b6577"),
                   belt=hexc("5a3a22"), buckle=hexc("d8c070"), glove=hexc("6b5b4b"),
                   hair_style=None, helmet=dict(col=(168, 176, 190), slit=(20, 18, 26), ridge=(200, 206, 218),
                                                band=(150, 60, 50), cheek=(150, 60, 50), nasal=True),
                   plume=dict(col=hexc("d03a3a")), pauldron=dict(col=hexc("a8b0bf"), side="R"),
                   shield=dict(arm="L", r=0.15, col=hexc("2f5aa8"), rim=hexc("c8b060"), band=hexc("f2e6c0"),
                               boss=hexc("d8c070"), back=hexc("7a5230"), strap=hexc("3a2a1a")),
                   weapon=dict(kind="sword", back=0.08, len=0.5, handle=hexc("3a2a1a"), blade=hexc("dfe4ea"),
                               fuller=hexc("aab2bd"), guardc=hexc("c8a040"), width=0.04, hand="R"),
                   bracer=hexc("a8b0bf"), ears=False, nose=False, fore=hexc("7b8799"),
                   sash=dict(front=[(0.76, -0.8), (0.52, 0.7)], back=[(0.52, 2.4), (0.76, -2.4)], w=0.013,
                             col=hexc("d03a3a")))

    def pose(t):
        P = walk(t, T=1.1)
        P.update(aL=38, bL=14, eL=72, wx=0.0)
        P["w"] = P["aR"] + P["eR"] + 40
        turn(P, t, 55, 295, 1.6, 0.5, step=False, lead=0.12)
        return P
    return dict(ch=ch, pose=pose, W=640, H=640, fps=24, dur=3.4, action="walk", frac=0.66,
                expect=["FACING"],
                notes="Armoured knight walking in place facing right, round shield on his left arm "
                      "(seen from behind, strap side) and a sword in his right; at 1.60 s he turns "
                      "round through his back in 0.5 s (yaw 55 -> 180 -> 295) and walks facing left "
                      "for the last 1.3 s with the painted shield face now toward the viewer.")


@case
def turn_cape_65pct():
    ch = make_char(style="cel", skin=hexc("f0c8a8"), hair=hexc("6b3a1e"), shirt=hexc("3f8a4a"),
                   pants=hexc("5a4632"), boots=hexc("3a2a1e"), belt=hexc("2a1e14"), eye=hexc("2a6a8a"),
                   hair_style="short", hairline=0.4, fringe=(0.55, 0.3),
                   cape=dict(col=hexc("b32633"), lining=hexc("f0d890"), end=-0.3, clasp=hexc("e8c050")),
                   sash=dict(front=[(0.78, 0.85), (0.54, -0.5)], back=[(0.54, -2.4), (0.78, 2.3)], w=0.012,
                             col=hexc("e8c050")),
                   mark=dict(scar=(-0.55, -0.25), col=hexc("b05a4a")))

    def pose(t):
        P = idle(t, 1.0)
        P["cape_back"] = 0.18 + 0.06 * math.sin(t * 2.1)
        turn(P, t, 60, -60, 2.6, 0.4, step=True)
        P["cape_back"] += 0.25 * math.sin(math.pi * clamp01((t - 2.6) / 0.7))
        return P
    return dict(ch=ch, pose=pose, W=768, H=432, fps=24, dur=4.0, action="idle", frac=0.72,
                expect=["FACING"],
                notes="Young hero in a red cape with a cream lining, idle facing right; at 2.60 s "
                      "(65 % of the clip) he turns round through the front in 0.4 s; the cape swings "
                      "with the turn; he faces left for the last 1.0 s.")


@case
def turn_pixel_hero():
    ch = make_char(style="cel", skin=hexc("f8c898"), hair=hexc("f8d838"), shirt=hexc("3858d8"),
                   pants=hexc("784828"), boots=hexc("582818"), belt=hexc("a86828"), buckle=hexc("f8f878"),
                   eye=hexc("183888"), ink=(24, 16, 40), hair_style="spiky", hairline=0.38, fringe=(0.5, 0.3),
                   scarf=dict(col=hexc("e83828"), side=1),
                   back_sword=dict(sheath=hexc("683818"), hilt=hexc("a8a8b8"), guard=hexc("f8b838")),
                   eye_size=(0.15, 0.2), brows=False)

    def pose(t):
        P = idle(t, 1.3, period=1.5)
        turn(P, t, 58, -58, 1.3, 0.3, step=True, lead=0.15)
        P["scarf_back"] = 0.35 + 0.2 * math.sin(t * 3)
        return P
    return dict(ch=ch, pose=pose, W=432, H=768, fps=16, dur=3.0, action="idle", frac=0.5, pixel=6,
                expect=["FACING"],
                notes="Pixel-art hero (drawn at 72x128, nearest-neighbour x6), red scarf tail and a "
                      "sword sheathed across his back, idle facing right; at 1.30 s he turns round "
                      "through the front in 0.3 s and faces left for the last 1.4 s.")


@case
def turn_run():
    ch = make_char(style="shaded", skin=hexc("c98e66"), hair=hexc("1e1a24"), shirt=hexc("f08a24"),
                   sleeve=hexc("202028"), pants=hexc("202028"), boots=hexc("e8e8f0"), belt=hexc("202028"),
                   eye=hexc("402818"), hair_style="short", hairline=0.42, fringe=(-0.4, 0.22),
                   pony=dict(tie=hexc("40c0e0")), back_hair=0.3, boots_high=False,
                   sash=dict(front=[(0.8, -0.2), (0.5, -0.2)], back=[(0.5, 3.0), (0.8, 3.0)], w=0.016,
                             col=hexc("202028")),
                   emblem=dict(phi=0.55, r=0.024, col=hexc("ffffff")))

    def pose(t):
        P = run(t, T=0.6)
        turn(P, t, 62, -62, 1.2, 0.35, step=False, lead=0.15)
        return P
    return dict(ch=ch, pose=pose, W=768, H=432, fps=24, dur=3.0, action="run", frac=0.7,
                expect=["FACING"],
                notes="Sporty runner with a ponytail running in place facing right; at 1.20 s (40 %) "
                      "she turns round through the front in 0.35 s while running and keeps running "
                      "facing left for the last 1.45 s.")


@case
def turn_attack_behind():
    ch = make_char(style="ink", ink=(20, 18, 26), ink_w=0.008, skin=hexc("f0c8a0"), hair=hexc("2a2030"),
                   shirt=hexc("f2efe6"), sleeve=hexc("f2efe6"), pants=hexc("3a3f6a"), boots=hexc("2a2426"),
                   belt=hexc("8a2030"), eye=hexc("302030"), hair_style="short", hairline=0.36,
                   fringe=(0.5, 0.18), pony=dict(tie=hexc("8a2030")),
                   sash=dict(front=[(0.84, 0.9), (0.56, -0.9)], back=[(0.56, -2.2), (0.84, 2.2)], w=0.02,
                             col=hexc("8a2030")),
                   weapon=dict(kind="katana", back=0.12, len=0.62, handle=hexc("2a2030"), blade=hexc("e6ecf2"),
                               guardc=hexc("c8a040"), width=0.03, hand="R", guard=0.03))

    def pose(t):
        P = idle(t, 0.7)
        # ready stance: sword in front
        apply_keys(P, t, [
            (0.0, dict(aR=48, eR=40, bR=4, aL=40, eL=50, bL=-14, w=125, lean=6, twist=0)),
            (0.7, dict()),
            (1.02, dict(aR=185, eR=25, aL=170, eL=35, w=205, lean=-4, twist=-10)),
            (1.28, dict(aR=55, eR=5, aL=50, eL=15, w=95, lean=16, twist=15)),
            (1.55, dict(aR=30, eR=10, aL=28, eL=20, w=70, lean=12, twist=10)),
            (2.0, dict(aR=48, eR=40, aL=40, eL=50, w=125, lean=6, twist=0)),
        ])
        P.update(sL=14, sR=10)
        crouch_legs(ch, P, 0.04 + 0.03 * window(t, 1.02, 1.25, 1.5, 2.0), 0.07, -0.06)
        turn(P, t, 58, -58, 0.7, 0.35, step=False, lead=0.25)
        return P
    return dict(ch=ch, pose=pose, W=640, H=640, fps=24, dur=3.2, action="attack", frac=0.64,
                expect=["FACING"],
                notes="Swordswoman in a ready stance facing right; at 0.70 s she wheels round "
                      "through the front in 0.35 s while raising her katana, cuts down at 1.05-1.3 s "
                      "toward the left (behind her original facing) and holds her guard facing left "
                      "for the last 1.9 s.")


@case
def turn_slow_dress():
    ch = make_char(style="shaded", skin=hexc("f6d2bc"), hair=hexc("9a2e2e"), shirt=hexc("5a3c8c"),
                   sleeve=hexc("5a3c8c"), pants=hexc("5a3c8c"), boots=hexc("2a1e30"), belt=hexc("e6c35a"),
                   buckle=hexc("f6e49a"), eye=hexc("2e6a3e"), hair_style="short", hairline=0.46,
                   fringe=(0.45, 0.32), back_hair=0.5, long_hair=dict(len=0.3),
                   robe=dict(col=hexc("6a48a0"), trim=hexc("e6c35a"), flare=(0.23, 0.2), open=-0.45),
                   chest=(0.095, 0.068), waist=(0.07, 0.055), sw=0.1, fore=hexc("f6d2bc"),
                   bun=dict(lon=-1.1, lat=0.45, r=0.28, ribbon=hexc("e6c35a")),
                   emblem=dict(phi=-0.5, r=0.02, col=hexc("e6c35a")))

    def pose(t):
        P = idle(t, 0.8, period=2.6)
        P.update(aL=10 + 2 * P["breath"], eL=60, bL=14, aR=10, eR=60, bR=14)
        turn(P, t, 55, 305, 1.1, 0.7, step=False, lead=0.15)
        return P
    return dict(ch=ch, pose=pose, W=512, H=512, fps=24, dur=3.4, action="idle", frac=0.72,
                expect=["FACING"],
                notes="Lady in a floor-length purple dress (no legs visible), long red hair, a "
                      "hair bun and ribbon on her right side, hands folded; at 1.10 s she turns "
                      "slowly (0.7 s) through her back (yaw 55 -> 180 -> 305) and faces left for "
                      "the last 1.6 s.")


@case
def turn_monk_walk():
    ch = make_char(style="ink", ink=(40, 24, 14), ink_w=0.006, skin=hexc("d9a070"), hair=hexc("2a1e14"),
                   shirt=hexc("e8862a"), sleeve=hexc("e8862a"), pants=hexc("e8862a"), boots=hexc("8a5a2a"),
                   belt=hexc("a8321e"), eye=hexc("2a1e14"), hair_style="bald", hairline=0.9,
                   back_hair=0.0, robe=dict(col=hexc("e8862a"), trim=hexc("a8321e"), flare=(0.17, 0.15),
                                             hem=0.13, open=0.5),
                   necklace=dict(col=hexc("5a2a14"), big=hexc("c84830")), boots_high=False,
                   sash=dict(front=[(0.84, 1.0), (0.52, -0.4)], back=[(0.52, -2.6), (0.84, 2.2)], w=0.03,
                             col=hexc("d89a3a")),
                   mark=dict(scar=(0.5, 0.35), col=hexc("8a4a2a")))

    def pose(t):
        P = walk(t, T=1.0)
        turn(P, t, -57, 57, 1.8, 0.4, step=False, lead=0.15)
        return P
    return dict(ch=ch, pose=pose, W=640, H=640, fps=16, dur=3.2, action="walk", frac=0.66,
                expect=["FACING"],
                notes="Bald monk in an orange robe to mid-shin with a shoulder drape and prayer "
                      "beads, walking in place facing left; at 1.80 s (56 %) he turns round through "
                      "the front in 0.4 s and walks facing right for the last 1.0 s.")


# ---- DECOYS -----------------------------------------------------------------

def barbarian(**kw):
    c = make_char(style="shaded", skin=hexc("d39a72"), hair=hexc("3a2418"), shirt=hexc("d39a72"),
                  sleeve=hexc("d39a72"), pants=hexc("6a4a2e"), boots=hexc("4a3020"), belt=hexc("2a1c12"),
                  buckle=hexc("c0c0c8"), eye=hexc("4a3a2a"), hair_style="short", hairline=0.36,
                  fringe=(-0.5, 0.2), back_hair=0.6, sw=0.14, chest=(0.14, 0.085), waist=(0.1, 0.072),
                  pelvis=(0.1, 0.075), r_ua=0.045, r_el=0.036, r_wr=0.03, r_hand=0.034, r_th=0.06,
                  r_kn=0.045, r_sh=0.055, bare_arms=True, beard=dict(col=hexc("3a2418")),
                  sash=dict(front=[(0.85, -0.9), (0.5, 0.8)], back=[(0.5, 2.3), (0.85, -2.3)], w=0.022,
                            col=hexc("6a4a2e")), pauldron=dict(col=hexc("7a7a86"), side="L"),
                  bracer=hexc("6a4a2e"))
    c.update(kw)
    return c


@case
def decoy_axe_overhead():
    ch = barbarian(weapon=dict(kind="axe", back=0.22, len=0.5, r=0.017, handle=hexc("7a4a26"),
                               blade=hexc("a8aeb8"), edge=hexc("e8eef4"), hand="both", grip_off=-0.02))

    def pose(t):
        P = idle(t, 0.7)
        apply_keys(P, t, [
            (0.0, dict(aR=40, eR=45, bR=-14, aL=42, eL=45, bL=-14, w=140, lean=6, twist=0, hp=-2)),
            (0.55, dict()),
            (0.95, dict(aR=192, eR=55, aL=190, eL=55, w=266, lean=-9, twist=-8, hp=6)),
            (1.85, dict(aR=188, eR=52, aL=186, eL=52, w=262, lean=-8, twist=-8, hp=5)),
            (2.08, dict(aR=70, eR=8, aL=68, eL=8, w=96, lean=22, twist=12, hp=-8)),
            (2.45, dict(aR=60, eR=15, aL=60, eL=15, w=85, lean=18, twist=8, hp=-4)),
            (3.0, dict(aR=40, eR=45, aL=42, eL=45, w=140, lean=6, twist=0, hp=-2)),
        ])
        P["head_pitch"] += P.pop("hp")
        hold = window(t, 0.95, 1.0, 1.8, 1.85)
        P["aR"] += 1.5 * math.sin(t * 23) * hold
        P["aL"] += 1.5 * math.sin(t * 23) * hold
        P.update(sL=12, sR=10)
        crouch_legs(ch, P, 0.03 + 0.05 * window(t, 1.85, 2.08, 2.45, 3.0), 0.08, -0.07)
        P["yaw"] = 58
        return P
    return dict(ch=ch, pose=pose, W=640, H=640, fps=24, dur=3.3, action="attack", frac=0.6,
                expect=[],
                notes="Barbarian facing right raises a two-handed axe over and behind his head "
                      "(0.55-0.95 s), holds it there 0.9 s (0.95-1.85 s), chops down in front at "
                      "2.08 s and recovers. Never turns.")


@case
def decoy_hammer_overhead():
    ch = make_char(style="cel", hr=0.11, sy=0.64, sw=0.14, hy=0.36, hw=0.07, ua=0.14, fa=0.13,
                   th=0.16, sh=0.155, chest=(0.15, 0.1), waist=(0.14, 0.1), pelvis=(0.12, 0.085),
                   r_ua=0.045, r_el=0.04, r_wr=0.034, r_hand=0.036, r_th=0.06, r_kn=0.05, r_an=0.04,
                   r_foot=0.04, r_sh=0.055, skin=hexc("f0b090"), hair=hexc("c8602a"),
                   shirt=hexc("4a6a3a"), sleeve=hexc("4a6a3a"), pants=hexc("5a4a3a"), boots=hexc("3a2a1e"),
                   belt=hexc("3a2a1e"), buckle=hexc("e0b040"), eye=hexc("2a3a6a"), hairline=0.9,
                   hair_style="short", back_hair=0.2, beard=dict(col=hexc("c8602a"), long=True),
                   helmet=None, eye_size=(0.1, 0.13),
                   weapon=dict(kind="hammer", back=0.16, len=0.52, r=0.018, handle=hexc("6a4424"),
                               blade=hexc("8a8e98"), band=hexc("e0b040"), hand="both"),
                   sash=dict(front=[(0.6, 0.9), (0.4, -0.8)], back=[(0.4, -2.3), (0.6, 2.3)], w=0.018,
                             col=hexc("e0b040")))
    ch["hair_style"] = "short"

    def pose(t):
        P = idle(t, 0.8)
        apply_keys(P, t, [
            (0.0, dict(aR=35, eR=50, bR=-14, aL=37, eL=50, bL=-14, w=150, lean=4, hp=0)),
            (0.45, dict()),
            (0.85, dict(aR=195, eR=60, aL=193, eL=60, w=248, lean=-10, hp=8)),
            (1.85, dict(aR=190, eR=58, aL=189, eL=58, w=244, lean=-9, hp=7)),
            (2.05, dict(aR=75, eR=5, aL=73, eL=5, w=100, lean=20, hp=-6)),
            (2.4, dict(aR=65, eR=12, aL=63, eL=12, w=92, lean=16, hp=-4)),
            (2.9, dict(aR=35, eR=50, aL=37, eL=50, w=150, lean=4, hp=0)),
        ])
        P["head_pitch"] += P.pop("hp")
        P.update(sL=14, sR=12)
        crouch_legs(ch, P, 0.02 + 0.04 * window(t, 1.85, 2.05, 2.4, 2.9), 0.06, -0.05)
        P["yaw"] = -62
        return P
    return dict(ch=ch, pose=pose, W=512, H=512, fps=16, dur=3.2, action="attack", frac=0.62,
                expect=[],
                notes="Stocky dwarf facing left lifts a two-handed war hammer over and behind his "
                      "head (0.45-0.85 s), holds it there 1.0 s (0.85-1.85 s), smashes down in front "
                      "at 2.05 s and recovers. Never turns.")


@case
def decoy_greatsword_back():
    ch = make_char(style="ink", ink=(22, 22, 30), ink_w=0.007, skin=hexc("e8c0a0"), hair=hexc("e8e8f0"),
                   shirt=hexc("2a2a3a"), sleeve=hexc("2a2a3a"), pants=hexc("3a3040"), boots=hexc("1e1a22"),
                   belt=hexc("a02a2a"), eye=hexc("a02a2a"), hair_style="spiky", hairline=0.4,
                   fringe=(0.45, 0.3), back_hair=0.5, pauldron=dict(col=hexc("6a6a7a"), side="L"),
                   mark=dict(eye=1, col=hexc("1e1a22"), strap=True),
                   weapon=dict(kind="greatsword", back=0.16, len=0.88, handle=hexc("3a2a1a"),
                               blade=hexc("c8d0da"), fuller=hexc("8a96a6"), guardc=hexc("9a7a3a"),
                               width=0.065, hand="both", guard=0.09),
                   sash=dict(front=[(0.84, -0.9), (0.52, 0.7)], back=[(0.52, 2.4), (0.84, -2.4)], w=0.016,
                             col=hexc("a02a2a")))

    def pose(t):
        P = idle(t, 0.8)
        apply_keys(P, t, [
            (0.0, dict(aR=30, eR=40, bR=-12, aL=32, eL=42, bL=-14, w=120, lean=5, twist=0, hy_=0)),
            (0.5, dict()),
            (0.9, dict(aR=165, eR=95, aL=160, eL=100, w=215, lean=-4, twist=-28, hy_=28)),
            (1.9, dict(aR=162, eR=92, aL=158, eL=97, w=212, lean=-3, twist=-26, hy_=26)),
            (2.12, dict(aR=75, eR=10, aL=72, eL=12, w=88, lean=18, twist=14, hy_=-8)),
            (2.45, dict(aR=60, eR=15, aL=58, eL=18, w=80, lean=15, twist=10, hy_=-6)),
            (3.0, dict(aR=30, eR=40, aL=32, eL=42, w=120, lean=5, twist=0, hy_=0)),
        ])
        P["head_yaw"] += P.pop("hy_")
        P.update(sL=14, sR=12)
        crouch_legs(ch, P, 0.03 + 0.04 * window(t, 0.5, 0.9, 1.9, 2.12), 0.08, -0.08)
        P["yaw"] = 57
        return P
    return dict(ch=ch, pose=pose, W=768, H=432, fps=24, dur=3.2, action="attack", frac=0.62,
                expect=[],
                notes="White-haired swordsman with an eye patch, facing right, winds a two-handed "
                      "greatsword up behind his back (shoulders twisted back, head still forward) "
                      "0.5-0.9 s, holds it there 1.0 s, then swings it down in front at 2.1 s.")


@case
def decoy_staff_twirl():
    ch = make_char(style="cel", skin=hexc("fbe0cc"), hair=hexc("3a5ad8"), shirt=hexc("f4f4fa"),
                   sleeve=hexc("f4f4fa"), pants=hexc("283a8a"), boots=hexc("283a8a"), belt=hexc("d8a030"),
                   eye=hexc("d83a6a"), hair_style="short", hairline=0.4, fringe=(0.5, 0.3),
                   pony=dict(tie=hexc("d8a030")), back_hair=0.45,
                   robe=dict(col=hexc("283a8a"), trim=hexc("d8a030"), flare=(0.16, 0.14), hem=0.2, open=0.0,
                             belt=True),
                   boots_high=False,
                   weapon=dict(kind="staff", back=0.48, len=0.48, r=0.014, handle=hexc("8a5a2a"),
                               orb=hexc("ff6ad0"), blade=hexc("d8a030"), hand="R", butt_orb=True, orb_r=0.04))

    def pose(t):
        P = idle(t, 0.8)
        t0, t1 = 0.6, 2.1
        spin_on = window(t, t0, t0 + 0.25, t1 - 0.25, t1)
        apply_keys(P, t, [
            (0.0, dict(aR=20, eR=55, bR=8, lean=2, aL=8, eL=20, bL=12)),
            (t0, dict()),
            (t0 + 0.25, dict(aR=172, eR=8, bR=14, lean=-2, aL=30, eL=40, bL=28)),
            (t1 - 0.25, dict()),
            (t1 + 0.1, dict(aR=20, eR=55, bR=8, lean=2, aL=8, eL=20, bL=12)),
        ])
        # spin angle: about two turns a second while the staff is up
        psi = 2 * math.pi * 2.0 * (min(max(t, t0), t1) - t0)
        spin = np.array([math.cos(psi), 0.12, math.sin(psi)])
        rest = np.array([0.0, 1.0, 0.08])
        P["wspin"] = nrm(rest * (1 - spin_on) + spin * spin_on)
        P["yaw"] = 60
        return P
    return dict(ch=ch, pose=pose, W=448, H=448, fps=24, dur=2.9, action="skill", frac=0.55,
                expect=[],
                notes="Blue-haired mage girl facing right lifts her staff overhead at 0.6 s and "
                      "twirls it level over her head, about two turns a second (ends sweeping in "
                      "front and behind her head), until 2.1 s, then plants it again. Never turns.")


@case
def decoy_spear_behind():
    ch = make_char(style="shaded", skin=hexc("8a5a3e"), hair=hexc("141016"), shirt=hexc("c8b070"),
                   sleeve=hexc("c8b070"), pants=hexc("6a2a2a"), boots=hexc("3a2418"), belt=hexc("6a2a2a"),
                   eye=hexc("2a1a12"), hair_style="short", hairline=0.46, fringe=(-0.4, 0.18),
                   back_hair=0.5, pony=dict(tie=hexc("c8b070")),
                   weapon=dict(kind="spear", back=0.5, len=0.75, r=0.013, handle=hexc("7a5030"),
                               blade=hexc("d8dce4"), tassel=hexc("d8302a"), hand="both"),
                   sash=dict(front=[(0.82, 0.8), (0.52, -0.7)], back=[(0.52, -2.4), (0.82, 2.4)], w=0.014,
                             col=hexc("6a2a2a")), bracer=hexc("6a2a2a"))

    def pose(t):
        P = idle(t, 0.7)
        apply_keys(P, t, [
            (0.0, dict(aR=45, eR=45, bR=-10, aL=50, eL=40, bL=-18, w=96, twist=0, lean=6, hy_=0)),
            (0.5, dict()),
            (0.85, dict(aR=-35, eR=40, bR=10, aL=35, eL=95, bL=-30, w=252, twist=-22, lean=-2, hy_=16)),
            (1.7, dict(aR=-32, eR=38, bR=10, aL=33, eL=93, bL=-30, w=250, twist=-20, lean=-2, hy_=15)),
            (1.92, dict(aR=85, eR=5, bR=-8, aL=80, eL=8, bL=-18, w=92, twist=22, lean=16, hy_=-10)),
            (2.3, dict(aR=80, eR=8, aL=76, eL=10, w=90, twist=18, lean=14, hy_=-8)),
            (2.9, dict(aR=45, eR=45, bR=-10, aL=50, eL=40, bL=-18, w=96, twist=0, lean=6, hy_=0)),
        ])
        P["head_yaw"] += P.pop("hy_")
        P.update(sL=14, sR=10)
        crouch_legs(ch, P, 0.03 + 0.03 * window(t, 0.5, 0.85, 1.9, 2.5), 0.09, -0.08)
        P["yaw"] = 60
        return P
    return dict(ch=ch, pose=pose, W=768, H=432, fps=24, dur=3.1, action="attack", frac=0.58,
                expect=[],
                notes="Spearman facing right swings his long spear round behind him (shoulders "
                      "twisted back, tip pointing behind at head height) 0.5-0.85 s, holds it 0.85 s, "
                      "thrusts forward at 1.9 s and recovers. Never turns.")


@case
def decoy_cape_forward():
    ch = make_char(style="cel", skin=hexc("f2d0b8"), hair=hexc("e8e0c8"), shirt=hexc("2a4a6a"),
                   pants=hexc("2a2a36"), boots=hexc("5a3a24"), belt=hexc("5a3a24"), eye=hexc("5a8ac8"),
                   hair_style="short", hairline=0.42, fringe=(-0.5, 0.3), back_hair=0.5,
                   cape=dict(col=hexc("1e6a5a"), lining=hexc("a83a3a"), end=-0.36, clasp=hexc("d8d8e0")),
                   sash=dict(front=[(0.8, -0.8), (0.54, 0.6)], back=[(0.54, 2.4), (0.8, -2.4)], w=0.012,
                             col=hexc("d8d8e0")))

    def pose(t):
        P = idle(t, 1.0)
        g = window(t, 0.7, 1.1, 2.1, 2.6)
        P["cape_fwd"] = g
        P["cape_back"] = 0.15 * (1 - g)
        P["flutter"] = t * 4.0
        P["lean"] += 5 * g
        P["aR"] += 55 * g
        P["eR"] += 70 * g
        P["head_pitch"] += 8 * g
        P["hair_swing"] = 1.5 * g
        P["yaw"] = 58
        return P
    return dict(ch=ch, pose=pose, W=512, H=512, fps=24, dur=3.0, action="idle", frac=0.66,
                expect=[],
                notes="White-haired wanderer facing right; a gust from behind at 0.7-1.1 s blows his "
                      "long green cape forward and across the front of his body (red lining showing), "
                      "he shields his face with his right arm; the cape falls back at 2.1-2.6 s. Never "
                      "turns.")


@case
def decoy_hurt_arms_up():
    ch = make_char(style="ink", ink=(30, 20, 20), ink_w=0.009, skin=hexc("f4c4a4"), hair=hexc("e87a2a"),
                   shirt=hexc("e8e4d4"), sleeve=hexc("4a8a3a"), pants=hexc("4a6aa8"), boots=hexc("6a3a2a"),
                   belt=hexc("6a3a2a"), eye=hexc("3a6a3a"), hair_style="spiky", hairline=0.38,
                   fringe=(0.4, 0.25), back_hair=0.5,
                   sash=dict(front=[(0.82, 0.85), (0.52, -0.7)], back=[(0.52, -2.4), (0.82, 2.4)], w=0.014,
                             col=hexc("6a3a2a")))

    def pose(t):
        P = idle(t, 0.9)
        apply_keys(P, t, [
            (0.0, dict(pitch=0, tx=0, hp=0, aR=6, aL=7, bR=9, bL=9, eR=15, eL=15, pR=-5, kR=4)),
            (0.55, dict()),
            (0.72, dict(pitch=-17, tx=-0.07, hp=-22, aR=165, aL=172, bR=30, bL=38, eR=25, eL=18, pR=-25, kR=25)),
            (1.15, dict(pitch=-12, tx=-0.1, hp=-15, aR=150, aL=155, bR=30, bL=34, eR=30, eL=25)),
            (1.4, dict(pitch=-5, hp=-6, aR=60, aL=62, bR=55, bL=60, eR=30, eL=28, pR=-12, kR=12)),
            (1.7, dict(pitch=0, tx=-0.1, hp=0, aR=6, aL=7, bR=9, bL=9, eR=15, eL=15, pR=-5, kR=4)),
        ])
        P["head_pitch"] += P.pop("hp")
        P["pivot_y"] = 0.0
        P["hair_swing"] = 1.5 * window(t, 0.55, 0.75, 1.1, 1.6)
        P["yaw"] = -60
        P["tx"] = -P["tx"]  # knocked back to the right (it faces left)
        return P
    return dict(ch=ch, pose=pose, W=448, H=448, fps=16, dur=2.75, action="hurt", frac=0.6,
                expect=[],
                notes="Ginger adventurer facing left is hit at 0.55 s: recoils backward (to the "
                      "right), leaning back 17 degrees with the head thrown back and both arms flung "
                      "up over his head, holds 0.4 s and recovers by 1.7 s. Never turns.")


@case
def decoy_look_back():
    ch = make_char(style="shaded", skin=hexc("f0cfb4"), hair=hexc("2a1a12"), shirt=hexc("a8324a"),
                   sleeve=hexc("a8324a"), pants=hexc("30303a"), boots=hexc("20181a"), belt=hexc("20181a"),
                   eye=hexc("5a3a1a"), hair_style="short", hairline=0.4, fringe=(0.5, 0.3),
                   long_hair=dict(len=0.26), back_hair=0.5,
                   sash=dict(front=[(0.82, -0.85), (0.52, 0.7)], back=[(0.52, 2.4), (0.82, -2.4)], w=0.014,
                             col=hexc("e6c35a")),
                   emblem=dict(phi=0.6, r=0.02, col=hexc("e6c35a")))

    def pose(t):
        P = idle(t, 1.0)
        g = window(t, 1.2, 1.32, 1.57, 1.72)
        P["head_yaw"] += -118 * g
        P["twist"] += -28 * g
        P["aL"] += 10 * g
        P["hair_swing"] = -1.0 * g
        P["yaw"] = 60
        return P
    return dict(ch=ch, pose=pose, W=432, H=768, fps=24, dur=3.0, action="idle", frac=0.5,
                expect=[],
                notes="Woman with long hair idling facing right; at 1.2 s she glances back over her "
                      "left shoulder (head turned 118 degrees, shoulders 28) in 0.12 s, holds it "
                      "0.25 s and turns back by 1.72 s. The body never turns.")


@case
def decoy_somersault():
    ch = make_char(style="cel", skin=hexc("e8b48a"), hair=hexc("1a1a22"), shirt=hexc("e8d83a"),
                   sleeve=hexc("e8d83a"), pants=hexc("2a2a2a"), boots=hexc("d83a2a"), belt=hexc("d83a2a"),
                   eye=hexc("2a2a3a"), hair_style="spiky", hairline=0.4, fringe=(-0.45, 0.28),
                   back_hair=0.4, pony=dict(tie=hexc("d83a2a")), boots_high=False,
                   sash=dict(front=[(0.82, 0.0), (0.52, 0.0)], back=[(0.52, 3.14), (0.82, 3.14)], w=0.02,
                             col=hexc("2a2a2a")), emblem=dict(phi=-0.5, r=0.022, col=hexc("d83a2a")))
    ch["stand_ty"] = 0.0

    def pose(t):
        P = idle(t, 0.8)
        P["yaw"] = 62
        t_c, t_up, t_land = 0.5, 0.9, 1.72
        drop = 0.16 * window(t, t_c, t_c + 0.3, t_up - 0.08, t_up) + 0.17 * window(t, t_land, t_land + 0.12, 2.1, 2.6)
        if t < t_up or t >= t_land:
            crouch_legs(ch, P, drop, 0.03, -0.02)
            P["lean"] += 120 * drop
            arm = window(t, t_c, t_c + 0.3, t_up - 0.1, t_up)
            P["aR"] += -40 * arm
            P["aL"] += -40 * arm
            land = window(t, t_land, t_land + 0.12, 2.1, 2.6)
            P["aR"] += 60 * land
            P["aL"] += 70 * land
            P["bR"] += 25 * land
            P["bL"] += 25 * land
        else:
            u = (t - t_up) / (t_land - t_up)
            P["ground"] = 0.0
            P["air"] = 4 * 0.5 * u * (1 - u) + 0.01
            P["pivot_y"] = 0.55
            P["pitch"] = 360 * ease(u)
            tuck = math.sin(math.pi * u) ** 0.6
            P.update(pL=lerp(5, 115, tuck), pR=lerp(-5, 110, tuck), kL=lerp(5, 140, tuck),
                     kR=lerp(5, 140, tuck), aL=lerp(170, 40, tuck), aR=lerp(170, 45, tuck),
                     eL=lerp(10, 100, tuck), eR=lerp(10, 100, tuck), lean=lerp(0, 20, tuck), sL=4, sR=4,
                     head_pitch=20 * tuck)
            P["hair_swing"] = 1.5
        return P
    return dict(ch=ch, pose=pose, W=640, H=640, fps=24, dur=3.0, action="skill", frac=0.5,
                expect=[],
                notes="Acrobat facing right crouches (0.5-0.82 s), jumps at 0.9 s and turns a full "
                      "tucked forward somersault in the air (0.9-1.72 s), lands in a crouch and "
                      "stands up facing right again. Never turns round.")


@case
def decoy_crouch_low_pixel():
    ch = make_char(style="cel", skin=hexc("f8b888"), hair=hexc("783818"), shirt=hexc("38a858"),
                   sleeve=hexc("38a858"), pants=hexc("585878"), boots=hexc("383848"), belt=hexc("b87828"),
                   buckle=hexc("f8e858"), eye=hexc("183818"), ink=(20, 20, 36), hair_style="spiky",
                   hairline=0.38, fringe=(-0.5, 0.3), back_hair=0.5, brows=False, eye_size=(0.14, 0.19),
                   weapon=dict(kind="sword", back=0.08, len=0.46, handle=hexc("583818"), blade=hexc("d8e8f8"),
                               guardc=hexc("f8b838"), width=0.045, hand="R"),
                   scarf=dict(col=hexc("f8e858"), side=-1))

    def pose(t):
        P = idle(t, 1.0, period=1.7)
        c = window(t, 0.5, 0.85, 1.95, 2.05)
        apply_keys(P, t, [
            (0.0, dict(aR=20, eR=40, bR=6, w=120, aL=8, eL=20, lean=3, hp=0)),
            (0.5, dict()),
            (0.85, dict(aR=-45, eR=15, bR=12, w=292, aL=55, eL=30, lean=28, hp=-20)),
            (1.95, dict(aR=-42, eR=14, bR=12, w=290, aL=52, eL=30, lean=27, hp=-19)),
            (2.2, dict(aR=165, eR=5, bR=6, w=178, aL=20, eL=20, lean=-5, hp=-2)),
            (2.75, dict(aR=20, eR=40, bR=6, w=120, aL=8, eL=20, lean=3, hp=0)),
        ])
        P["head_pitch"] += P.pop("hp")
        P.update(sL=12, sR=10)
        crouch_legs(ch, P, 0.2 * c + 0.01, 0.1, -0.1)
        P["yaw"] = -58
        return P
    return dict(ch=ch, pose=pose, W=512, H=512, fps=16, dur=3.0, action="attack", frac=0.6, pixel=4,
                expect=[],
                notes="Pixel-art swordsman (drawn at 128x128, nearest x4) facing left drops into a "
                      "deep crouch at 0.5-0.85 s with his sword held low behind him, holds it 1.1 s, "
                      "then rises with an upward slash at 2.2 s and recovers. Never turns.")


# ----------------------------------------------------------------------------- driver

def render_case(name, spec, out_root):
    t_start = time.time()
    ch, pose = spec["ch"], spec["pose"]
    W, H, fps, dur = spec["W"], spec["H"], spec["fps"], spec["dur"]
    n = int(round(dur * fps))
    pixel = spec.get("pixel", 0)
    built = [build(ch, pose(i / fps)) for i in range(n)]
    lo0, hi0 = world_bbox(built[0][0])
    lo = np.min([world_bbox(b[0])[0] for b in built], 0)
    hi = np.max([world_bbox(b[0])[1] for b in built], 0)
    rest_h = hi0[1] - min(0.0, lo0[1])
    S = spec["frac"] * H / rest_h
    margin = max(14.0, 0.05 * min(W, H))
    ink_pad = (ch.ink_w if ch.style == "ink" else 0.0) + 0.01
    uw, uh = (hi[0] - lo[0]) + 2 * ink_pad, (hi[1] - lo[1]) + 2 * ink_pad
    S = min(S, (W - 2 * margin) / uw, (H - 2 * margin) / uh)
    if pixel:
        S = math.floor(S / pixel * 4) / 4 * pixel
    cxw = 0.5 * (lo[0] + hi[0])
    ox = W / 2 - cxw * S
    # vertical: ground a little below the middle of the free space, clamped so all fits
    top_w = hi[1] + ink_pad
    bot_w = lo[1] - ink_pad
    free = H - 2 * margin - (top_w - bot_w) * S
    oy = margin + top_w * S + free * 0.62
    if pixel:
        ox = round(ox / pixel) * pixel
        oy = round(oy / pixel) * pixel
    rng = np.random.default_rng(sum(map(ord, name)) * 7919)
    grad = (rng.uniform(-0.08, 0.08), rng.uniform(-0.1, 0.04), rng.uniform(0.05, 0.2))
    bg = make_background(W, H, rng, grad)
    wrap_k = rng.uniform(0.25, 0.45)
    noise = rng.uniform(1.6, 2.6)
    truth, frames = [], []
    for i, (parts, info) in enumerate(built):
        rgba = render_parts(parts, W, H, S, ox, oy, ch, pixel)
        truth.append(rgba)
        air = max(0.0, info["feet_y"] - ch.r_an)
        sh = (ox + info["feet_x"] * S, oy + 0.01 * S, 0.2 * S * (1 - 0.4 * min(1, air * 2)),
              0.035 * S, 0.42 * max(0.0, 1 - air * 2.2))
        frames.append(composite(rgba, bg, sh, rng, wrap_k, noise))
    truth = np.stack(truth)
    a = truth[..., 3]
    edge = max(a[:, :2].max(), a[:, -2:].max(), a[:, :, :2].max(), a[:, :, -2:].max())
    assert edge == 0, f"{name}: character touches the frame edge"
    d = os.path.join(out_root, name)
    os.makedirs(d, exist_ok=True)
    encode(os.path.join(d, "clip.mp4"), frames, fps, 20)
    Image.fromarray(truth[0], "RGBA").save(os.path.join(d, "portrait.png"))
    np.savez_compressed(os.path.join(d, "truth.npz"), rgba=truth)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(dict(action=spec["action"], notes=spec["notes"], expect_flags=spec["expect"],
                       fps=fps, size=[W, H], frames=n), f, indent=1)
    ys, xs = np.nonzero(a.max(0))
    print(f"{name:26s} {W}x{H} {fps}fps {n:3d} frames  bbox x {xs.min()}-{xs.max()} y {ys.min()}-{ys.max()}"
          f"  expect {spec['expect']}  {time.time() - t_start:.1f}s", flush=True)


def main(argv):
    names = argv or list(CASES)
    for nm in names:
        if nm not in CASES:
            sys.exit(f"unknown case {nm}; known: {', '.join(CASES)}")
    os.makedirs(OUT, exist_ok=True)
    t0 = time.time()
    for nm in names:
        render_case(nm, CASES[nm](), OUT)
    print(f"{len(names)} cases in {time.time() - t0:.1f}s -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1:])
