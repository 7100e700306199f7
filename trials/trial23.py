"""Trial 23: sixteen held-out chroma-screen clips that look like image-to-video model output.

Each case is a procedurally drawn character (2-D jointed rig, drawn twice oversize with
antialiased polygons and reduced, so edges and the truth alpha come out of the same
coverage), animated from its rest pose (frame 0 is the portrait placed on the screen) and
composited on a lit screen with light wrap, a soft contact shadow, flicker, grain and
H.264.  The angles this trial adds over the earlier ones:

  painted_knight_rim_idle      832x480  24 fps 49 f  green cyclorama, darker floor: painted
                               shading, ambient occlusion, warm back-light rim on the edge
  anime_swordsman_walk         832x480  24 fps 65 f  green: thick dark antialiased cel outlines
  chibi_crystal_staff_skill    512x512  16 fps 41 f  green: outlined chibi, green crystal (near key)
  tiny_ranger_run_drift       1280x720  24 fps 49 f  green cyclorama: character ~25 % of the
                               frame height, run cycle, slow camera drift
  giant_brute_attack_zoom      480x832  16 fps 41 f  green with a hotspot: character ~80 % of
                               the height, uppercut attack, slow zoom, exposure breathing, white rim
  lime_cloak_rogue_walk        832x480  24 fps 81 f  blue-green screen: lime/yellow-green cloak
  green_hair_idle              512x512  24 fps 97 f  yellow-green screen: green hair, ponytail
  potion_alchemist_skill       832x480  16 fps 49 f  green, uneven light: cel outlines, glowing
                               green potion raised and brightening
  teal_dress_blue_walk         480x832  24 fps 65 f  blue screen: teal/cyan dress
  fur_beast_hurt               512x512  24 fps 49 f  green cyclorama: fluffy silhouette of many
                               short tufts, hurt recoil
  feather_harpy_skill          832x480  24 fps 57 f  green with hotspot: two feathered wings
  green_blade_duelist_attack  1280x720  24 fps 49 f  green cyclorama: glowing green energy blade,
                               exposure breathing
  qc_facing_turn_walk          832x480  24 fps 57 f  turns round mid-clip, stays turned
                               (expect_flags ["FACING"])
  qc_smear_ghost_run           832x480  24 fps 49 f  30 % ghost of the previous frame blended
                               in (expect_flags ["SMEAR"])
  qc_pillarbox_idle           1280x720  24 fps 49 f  a 9:16 picture (404x720) inside black bars
                               (expect_flags [], the bars should be cropped)
  qc_heavy_swing_attack        512x512  16 fps 33 f  very fast sword swing with heavy true motion
                               blur, no ghosting (expect_flags [])

Truth (`truth.npz`, key `rgba`) is the character's own straight RGBA per frame at the video
size: rim light and exposure are in it (they are the character's colour as filmed); light
wrap, the contact shadow, the screen, grain, ghosting and compression are not.  Motion blur
is in both (averaged sub-frame renders over a trailing shutter).  `portrait.png` is the
rest pose at the video size, where frame 0 has it.

    .venv/bin/python trials/trial23.py [SUBSTRING]

writes trials/_out/trial23/<case>/{clip.mp4, portrait.png, truth.npz, case.json}
(TRIAL_OUT overrides trials/_out/trial23; SUBSTRING renders only the cases whose names
contain it).  Encoding is deterministic (own BT.601 limited-range 4:2:0 conversion,
single-threaded libx264), so two runs give identical bytes.
"""

import json
import math
import os
import sys
import time
from multiprocessing import Pool

import av
import cv2
import numpy as np
from PIL import Image

SS = 2  # oversampling of the character render (plus antialiased polygon edges)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_ROOT = os.environ.get("TRIAL_OUT", os.path.join(HERE, "_out", "trial23"))


# ----------------------------------------------------------------------------- geometry

def vdir(a):
    """Unit vector for an angle in degrees measured from straight down, positive toward +x
    (the way the character faces)."""
    r = math.radians(a)
    return np.array([math.sin(r), math.cos(r)])


def capsule(p0, p1, r0, r1, n=9):
    p0 = np.asarray(p0, float)
    p1 = np.asarray(p1, float)
    d = p1 - p0
    ang = math.atan2(d[1], d[0]) if np.hypot(*d) > 1e-9 else 0.0
    pts = []
    for k in range(n + 1):
        th = ang + math.pi / 2 - math.pi * k / n
        pts.append(p1 + r1 * np.array([math.cos(th), math.sin(th)]))
    for k in range(n + 1):
        th = ang - math.pi / 2 - math.pi * k / n
        pts.append(p0 + r0 * np.array([math.cos(th), math.sin(th)]))
    return np.array(pts)


def ellipse(c, rx, ry, rot=0.0, n=36):
    th = np.linspace(0, 2 * math.pi, n, endpoint=False)
    x = rx * np.cos(th)
    y = ry * np.sin(th)
    cr, sr = math.cos(math.radians(rot)), math.sin(math.radians(rot))
    return np.stack([c[0] + x * cr - y * sr, c[1] + x * sr + y * cr], 1)


def local(origin, up_angle, pts, fwd_sign=1.0):
    """Points given in a frame whose +y runs along `up_angle` and +x is perpendicular,
    pointing forward (for a bone pointing up) when fwd_sign is 1."""
    u = vdir(up_angle)
    f = vdir(up_angle - 90.0 * fwd_sign)
    pts = np.asarray(pts, float)
    return np.asarray(origin, float) + pts[:, :1] * f + pts[:, 1:2] * u


def chaikin(pts, it=2):
    pts = np.asarray(pts, float)
    for _ in range(it):
        q = np.roll(pts, -1, 0)
        pts = np.stack([0.75 * pts + 0.25 * q, 0.25 * pts + 0.75 * q], 1).reshape(-1, 2)
    return pts


def resample(poly, step):
    q = np.roll(poly, -1, 0)
    seg = np.hypot(*(q - poly).T)
    total = seg.sum()
    n = max(6, int(total / step))
    s = np.linspace(0, total, n, endpoint=False)
    cum = np.concatenate([[0], np.cumsum(seg)])
    idx = np.clip(np.searchsorted(cum, s, side="right") - 1, 0, len(poly) - 1)
    f = (s - cum[idx]) / np.maximum(seg[idx], 1e-9)
    pts = poly[idx] + (q[idx] - poly[idx]) * f[:, None]
    tang = q[idx] - poly[idx]
    tang /= np.maximum(np.hypot(*tang.T), 1e-9)[:, None]
    return pts, tang


def tufts(poly, seed, t, size):
    """Short pointed fur tufts standing out along a polygon outline, stirring a little."""
    rng = np.random.default_rng(seed)
    pts, tang = resample(poly, size * 0.4)
    x, y = poly[:, 0], poly[:, 1]
    area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    nrm = np.stack([tang[:, 1], -tang[:, 0]], 1) * (1 if area > 0 else -1)
    out = []
    n = len(pts)
    lens = size * rng.uniform(0.5, 1.1, n)
    widths = size * rng.uniform(0.55, 0.85, n)
    bends = rng.uniform(-28, 28, n)
    phases = rng.uniform(0, 2 * math.pi, n)
    for i in range(n):
        a = math.radians(bends[i] + 9 * math.sin(2 * math.pi * 1.1 * t + phases[i]))
        ca, sa = math.cos(a), math.sin(a)
        d = np.array([nrm[i, 0] * ca - nrm[i, 1] * sa, nrm[i, 0] * sa + nrm[i, 1] * ca])
        base = pts[i] - nrm[i] * size * 0.35
        side = tang[i] * widths[i] * 0.5
        tip = pts[i] + d * lens[i]
        mid1 = pts[i] + d * lens[i] * 0.5 + side * 0.55
        mid2 = pts[i] + d * lens[i] * 0.45 - side * 0.4
        out.append(np.array([base - side, mid2, tip, mid1, base + side]))
    return out


class Part:
    __slots__ = ("polys", "col", "thick", "mode", "spec", "line", "op", "core", "fur")

    def __init__(self, polys, col, thick, mode=None, spec=0.0, line=True, op=1.0, core=0.0, fur=False):
        self.polys = polys if isinstance(polys, list) else [polys]
        self.col = np.array(col, np.float32)
        self.thick = thick
        self.mode = mode
        self.spec = spec
        self.line = line
        self.op = op
        self.core = core
        self.fur = fur


# ----------------------------------------------------------------------------- rigs

ADULT = dict(torso=0.30, neck=0.035, head_rx=0.078, head_ry=0.088, sho_off=0.03,
             hip_off=0.026, upper=0.165, fore=0.15, thigh=0.235, shin=0.225, foot=0.08,
             ankle_h=0.032, r_upper=0.039, r_fore=0.032, r_hand=0.032, r_thigh=0.056,
             r_shin=0.042, ws=0.102, wp=0.082)
CHIBI = dict(torso=0.17, neck=0.01, head_rx=0.19, head_ry=0.175, sho_off=0.02,
             hip_off=0.03, upper=0.095, fore=0.085, thigh=0.10, shin=0.095, foot=0.06,
             ankle_h=0.028, r_upper=0.034, r_fore=0.031, r_hand=0.036, r_thigh=0.046,
             r_shin=0.042, ws=0.095, wp=0.09)
BRUTE = dict(ADULT, torso=0.33, neck=0.02, head_rx=0.066, head_ry=0.076, ws=0.135, wp=0.095,
             upper=0.17, fore=0.16, r_upper=0.056, r_fore=0.052, r_hand=0.058, thigh=0.2,
             shin=0.205, r_thigh=0.066, r_shin=0.052, foot=0.085)
BEAST = dict(ADULT, torso=0.30, neck=0.0, head_rx=0.115, head_ry=0.105, ws=0.15, wp=0.16,
             upper=0.15, fore=0.14, r_upper=0.052, r_fore=0.046, r_hand=0.045, thigh=0.16,
             shin=0.14, r_thigh=0.072, r_shin=0.06, foot=0.08, hip_off=0.05, sho_off=0.05)

REST = dict(lean=0.0, head=0.0, sh_b=-6.0, el_b=14.0, sh_f=9.0, el_f=16.0, hip_b=-5.0,
            kn_b=3.0, hip_f=6.0, kn_f=3.0, wpn=25.0, dx=0.0, dy=0.0, cape=0.0, hair=0.0,
            flap=0.0, glow=0.0, face=1.0)


def fk(P, p):
    ta = 180.0 - p["lean"]
    pel = np.zeros(2)
    j = {"ta": ta, "pel": pel}
    j["neck"] = pel + P["torso"] * vdir(ta)
    j["head_a"] = ta - p["head"]
    j["head"] = j["neck"] + (P["neck"] + P["head_ry"] * 0.92) * vdir(j["head_a"])
    sho = pel + P["torso"] * 0.86 * vdir(ta)
    j["sho_b"] = sho + np.array([-P["sho_off"], 0.0])
    j["sho_f"] = sho + np.array([P["sho_off"] * 0.35, 0.006])
    for s in "bf":
        j["elb_" + s] = j["sho_" + s] + P["upper"] * vdir(p["sh_" + s])
        j["fa_" + s] = p["sh_" + s] + p["el_" + s]
        j["wri_" + s] = j["elb_" + s] + P["fore"] * vdir(j["fa_" + s])
        j["hip_" + s] = pel + np.array([(-1 if s == "b" else 1) * P["hip_off"], 0.0])
        j["kne_" + s] = j["hip_" + s] + P["thigh"] * vdir(p["hip_" + s])
        sa = p["hip_" + s] - p["kn_" + s]
        j["ank_" + s] = j["kne_" + s] + P["shin"] * vdir(sa)
        j["foot_a_" + s] = 90.0 + 0.4 * sa
        j["toe_" + s] = j["ank_" + s] + P["foot"] * vdir(j["foot_a_" + s])
    low = max(j["ank_b"][1] + P["ankle_h"], j["ank_f"][1] + P["ankle_h"],
              j["toe_b"][1] + P["ankle_h"] * 0.6, j["toe_f"][1] + P["ankle_h"] * 0.6)
    off = np.array([p["dx"], -low + p["dy"]])
    for k, v in list(j.items()):
        if isinstance(v, np.ndarray):
            j[k] = v + off
    return j


def shade_col(c, k):
    return tuple(min(1.0, x * k) for x in c)


def limb_parts(S, s, t):
    """A list for the parts of the arm or leg of side s ('b' back, darker; 'f' front) and
    the function that adds one (with fur tufts where the character has fur)."""
    parts = []
    fur = S.get("fur")
    k = 0.8 if s == "b" else 1.0

    def add(poly, col, thick, seed):
        polys = [poly]
        if fur:
            polys += tufts(poly, seed, t, fur)
        parts.append(Part(polys, shade_col(col, k), thick, fur=bool(fur)))
    return parts, add


def arm_parts(S, j, P, s, t):
    parts, add = limb_parts(S, s, t)
    seed = 11 if s == "b" else 21
    add(capsule(j["sho_" + s], j["elb_" + s], P["r_upper"], P["r_upper"] * 0.88),
        S["sleeve"], P["r_upper"] * 2, seed)
    add(capsule(j["elb_" + s], j["wri_" + s], P["r_fore"], P["r_fore"] * 0.85),
        S.get("fore", S["sleeve"]), P["r_fore"] * 2, seed + 1)
    hc = j["wri_" + s] + P["r_hand"] * 0.6 * vdir(j["fa_" + s])
    add(ellipse(hc, P["r_hand"], P["r_hand"] * 1.15, rot=-j["fa_" + s], n=20),
        S.get("glove", S["skin"]), P["r_hand"] * 2, seed + 2)
    return parts


def leg_parts(S, j, P, s, t):
    parts, add = limb_parts(S, s, t)
    seed = 31 if s == "b" else 41
    add(capsule(j["hip_" + s], j["kne_" + s], P["r_thigh"], P["r_thigh"] * 0.8),
        S["legs"], P["r_thigh"] * 2, seed)
    add(capsule(j["kne_" + s], j["ank_" + s], P["r_shin"], P["r_shin"] * 0.85),
        S.get("boots", S["legs"]), P["r_shin"] * 2, seed + 1)
    ank, toe = j["ank_" + s], j["toe_" + s]
    boot = capsule(ank + np.array([0, P["ankle_h"] * 0.2]), toe + np.array([0, P["ankle_h"] * 0.1]),
                   P["r_shin"] * 0.95, P["ankle_h"] * 0.75)
    add(boot, S.get("boots", S["legs"]), P["r_shin"] * 1.6, seed + 2)
    return parts


def weapon_parts(S, j, P, p, t):
    w = S.get("weapon")
    parts = []
    if not w:
        return parts
    fa = j["fa_f"]
    hand = j["wri_f"] + P["r_hand"] * 0.6 * vdir(fa)
    wa = fa + p["wpn"]
    if w == "staff":  # held upright, leaning a little with the arm
        wa = 176 - 0.16 * (fa - 25)
    d = vdir(wa)
    n = np.array([-d[1], d[0]])
    if w in ("sword", "greenblade"):
        L = S.get("blade_len", 0.42)
        parts.append(Part(capsule(hand - d * 0.045, hand + d * 0.035, 0.012, 0.012),
                          S.get("grip", (0.32, 0.2, 0.12)), 0.024))
        g0 = hand + d * 0.04
        parts.append(Part(capsule(g0 - n * 0.045, g0 + n * 0.045, 0.011, 0.011),
                          S.get("guard", (0.78, 0.62, 0.25)), 0.022, spec=0.3))
        wb = S.get("blade_w", 0.022)
        s_ = np.linspace(0, 1, 12)
        half = wb * (1 - 0.35 * s_) * np.where(s_ > 0.86, np.sqrt(np.maximum(0, 1 - s_) / 0.14), 1)
        edge1 = g0 + d * 0.012 + np.outer(s_ * L, d) + np.outer(half, n)
        edge2 = g0 + d * 0.012 + np.outer(s_ * L, d) - np.outer(half, n)
        blade = np.concatenate([edge1, edge2[::-1]])
        if w == "sword":
            parts.append(Part(blade, S.get("steel", (0.74, 0.78, 0.84)), wb * 2, spec=0.45))
        else:
            glow = 0.75 + 0.25 * p["glow"]
            parts.append(Part(blade, (0.30 * glow, 0.98, 0.42 * glow), wb * 2, mode="emissive",
                              core=0.55 + 0.3 * p["glow"]))
    elif w == "staff":
        top = hand + d * 0.36
        parts.append(Part(capsule(hand - d * 0.26, top, 0.014, 0.016), (0.42, 0.27, 0.14), 0.03))
        glow = p["glow"]
        cr = local(top + d * 0.055, wa + 180, [[0, -0.07], [0.035, 0.0], [0, 0.075], [-0.035, 0.0]],
                   fwd_sign=1)
        parts.append(Part(chaikin(cr, 1), (0.30 + 0.25 * glow, 0.95, 0.45 + 0.2 * glow), 0.06,
                          mode="emissive", core=0.35 + 0.45 * glow))
        parts.append(Part(capsule(top - n * 0.03, top + n * 0.03, 0.012, 0.012),
                          (0.78, 0.62, 0.25), 0.024, spec=0.3))
    elif w == "potion":
        c = hand + np.array([0.0, -0.055])
        glow = p["glow"]
        parts.append(Part(capsule(c + np.array([0, -0.05]), c + np.array([0, -0.085]), 0.016, 0.016),
                          (0.84, 0.9, 0.93), 0.03))
        parts.append(Part(ellipse(c + np.array([0, -0.09]), 0.018, 0.012, n=14),
                          (0.55, 0.36, 0.2), 0.024))
        parts.append(Part(ellipse(c, 0.052, 0.05, n=30), (0.84, 0.9, 0.93), 0.1))
        liq = ellipse(c + np.array([0, 0.006]), 0.043, 0.04, n=30)
        parts.append(Part(liq, (0.32 + 0.25 * glow, 0.92, 0.38 + 0.2 * glow), 0.08,
                          mode="emissive", core=0.25 + 0.5 * glow, line=False))
        parts.append(Part(ellipse(c + np.array([-0.018, -0.018]), 0.01, 0.014, rot=30, n=12),
                          (0.97, 1.0, 0.97), 0.02, mode="flat", line=False))
    return parts


def wing_parts(root, flap, k, t, seed):
    """A feathered wing: three bones, primaries, secondaries and coverts."""
    rng = np.random.default_rng(seed)
    a1 = 222 + 38 * flap
    a2 = a1 + 38 - 22 * flap
    a3 = a2 + 30 - 10 * flap
    r1 = root + 0.15 * vdir(a1)
    r2 = r1 + 0.16 * vdir(a2)
    r3 = r2 + 0.13 * vdir(a3)
    cream = np.array([0.94, 0.89, 0.8])
    tan = np.array([0.74, 0.58, 0.42])
    brown = np.array([0.42, 0.28, 0.19])
    parts = []
    feathers = []
    for row, (bone0, bone1, a, nf, l0, l1) in enumerate(((r2, r3, a3, 8, 0.27, 0.2),
                                                          (r1, r2, a2, 8, 0.21, 0.25),
                                                          (root, r1, a1, 5, 0.13, 0.19))):
        perp = a - 90
        for i in range(nf):
            f = (i + 0.5) / nf
            base = bone0 + (bone1 - bone0) * f
            if row == 0:
                fan = perp + (a - perp) * (f ** 1.3) * 0.85
            else:
                fan = perp + 8 * (f - 0.5)
            fan += rng.uniform(-4, 4) + 4 * math.sin(2 * math.pi * 1.7 * t + i)
            ln = (l0 + (l1 - l0) * f) * rng.uniform(0.92, 1.06)
            col = (brown, tan, cream)[row] * rng.uniform(0.93, 1.05)
            feathers.append((base, fan, ln, col))
    for base, fan, ln, col in feathers:
        s_ = np.linspace(0, 1, 9)
        w = 0.03 * np.sin(np.pi * np.clip(s_ * 0.92 + 0.08, 0, 1)) ** 0.6
        pts_l = np.stack([w * 0.75, s_ * ln], 1)
        pts_r = np.stack([-w * 1.1, s_ * ln], 1)[::-1]
        poly = local(base, fan, np.concatenate([pts_l, pts_r]), fwd_sign=1)
        parts.append(Part(poly, np.clip(col * k, 0, 1), 0.04))
    cov = [capsule(root, r1, 0.045, 0.05), capsule(r1, r2, 0.05, 0.034), capsule(r2, r3, 0.034, 0.016)]
    for q in cov:
        parts.append(Part(q, cream * k, 0.09))
    return parts


def humanoid(S, p, t):
    P = S["prop"]
    j = fk(P, p)
    parts = []
    ta = j["ta"]
    hc, ha = j["head"], j["head_a"]
    hrx, hry = P["head_rx"], P["head_ry"]
    fur = S.get("fur")

    if S.get("wings"):
        sho = (j["sho_b"] + j["sho_f"]) / 2
        parts += wing_parts(sho + np.array([-0.06, 0.02]), p["flap"], 0.78, t, 5)
        parts += wing_parts(sho + np.array([-0.02, 0.0]), p["flap"] * 0.92, 1.0, t + 0.03, 6)
    if S.get("cloak"):
        sway = p["cape"]
        nb = j["neck"] + np.array([-0.01, 0.01])
        top_b = j["sho_b"] + np.array([-0.04, 0.0])
        top_f = j["sho_f"] + np.array([0.035, 0.01])
        hem_y = max(j["ank_b"][1], j["ank_f"][1]) - 0.14
        hb = np.array([j["pel"][0] - 0.17 - 0.07 * sway, hem_y + 0.02 * sway])
        hf = np.array([j["pel"][0] + 0.07 - 0.03 * sway, hem_y - 0.02])
        mid_b = np.array([j["pel"][0] - 0.13 - 0.04 * sway, j["pel"][1] - 0.12])
        hem = [hf + (hb - hf) * f + np.array([0, 0.02 * math.sin(9 * f + 3 * t + sway)])
               for f in np.linspace(0, 1, 7)]
        cl = np.array([nb, top_f] + hem + [mid_b, top_b])
        parts.append(Part(chaikin(cl, 2), S["cloak"], 0.16))
    if S.get("hair") == "long":
        sw = p["hair"] * 0.03
        hb = [hc + np.array([0.2 * hrx, -1.0 * hry]), hc + np.array([-1.15 * hrx, -0.5 * hry]),
              hc + np.array([-1.35 * hrx + sw, 0.9 * hry]), j["neck"] + np.array([-0.07 + sw, 0.16]),
              j["neck"] + np.array([-0.0 + sw, 0.15]), hc + np.array([0.1 * hrx, 0.8 * hry])]
        parts.append(Part(chaikin(hb, 2), S["hair_col"], hrx * 1.6))
    if S.get("bow"):
        c = j["neck"] + 0.16 * vdir(ta + 180) + np.array([-0.05, 0])
        arc = [c + 0.2 * vdir(ta + 180 + a) * np.array([0.55, 1.0]) for a in np.linspace(-70, 70, 15)]
        arc = np.array(arc)
        parts.append(Part(np.concatenate([arc, arc[::-1] + np.array([0.013, 0])]),
                          (0.45, 0.3, 0.15), 0.02))
    if S.get("scarf"):
        n0 = j["neck"] + np.array([-0.02, 0.02])
        pts = [n0]
        ang = 250 + 10 * p["cape"]
        for i in range(5):
            ang += 8 * math.sin(2 * math.pi * 2.2 * t - 0.9 * i) + 4
            pts.append(pts[-1] + 0.05 * vdir(ang))
        pts = np.array(pts)
        top = pts + np.array([0, -0.012])
        bot = pts + np.array([0, 0.014]) + np.linspace(0, 0.012, len(pts))[:, None] * np.array([0, 1])
        parts.append(Part(np.concatenate([top, bot[::-1]]), S["scarf"], 0.03))

    parts += arm_parts(S, j, P, "b", t)
    if S.get("shield_back"):
        c = (j["elb_b"] + j["wri_b"]) / 2
        parts.append(Part(ellipse(c, 0.085, 0.095, n=32), shade_col(S["shield_back"], 0.85), 0.17,
                          spec=0.2))
    parts += leg_parts(S, j, P, "b", t)
    parts += leg_parts(S, j, P, "f", t)

    T, ws, wp = P["torso"], P["ws"], P["wp"]
    tor = [(-wp, -0.03), (-wp * 1.05, 0.3 * T), (-ws * 0.95, 0.68 * T), (-ws * 0.9, 0.92 * T),
           (-ws * 0.45, 1.02 * T), (ws * 0.45, 1.02 * T), (ws * 0.98, 0.86 * T), (ws * 1.06, 0.6 * T),
           (wp * 1.08, 0.3 * T), (wp, -0.03), (0.0, -0.08)]
    if fur:
        tor = [(-wp * 1.1, -0.02), (-ws * 1.05, 0.35 * T), (-ws * 0.95, 0.8 * T), (-ws * 0.4, 1.05 * T),
               (ws * 0.4, 1.05 * T), (ws * 1.0, 0.8 * T), (ws * 1.12, 0.35 * T), (wp * 1.05, -0.05),
               (0, -0.1)]
    tor = chaikin(local(j["pel"], ta, tor), 2)
    polys = [tor] + (tufts(tor, 51, t, fur) if fur else [])
    parts.append(Part(polys, S["top"], ws * 2, fur=bool(fur)))
    if not fur:
        parts.append(Part(ellipse(j["pel"] + 0.01 * vdir(ta), wp * 1.12, 0.055, rot=-ta, n=28),
                          S["legs"], wp * 1.5))
        belt = local(j["pel"], ta, [(-wp * 1.08, 0.08 * T), (wp * 1.12, 0.08 * T),
                                    (wp * 1.12, 0.15 * T), (-wp * 1.08, 0.15 * T)])
        parts.append(Part(belt, S.get("belt", (0.3, 0.2, 0.12)), 0.02))
    if S.get("tabard"):
        tb = local(j["pel"], ta, [(-ws * 0.5, 0.75 * T), (ws * 0.75, 0.75 * T), (wp * 0.9, -0.1),
                                  (wp * 0.75, -0.2), (-wp * 0.3, -0.2), (-wp * 0.5, -0.1)])
        parts.append(Part(tb, S["tabard"], ws))
    if S.get("dress"):
        kb, kf = j["kne_b"], j["kne_f"]
        hem_y = max(kb[1], kf[1]) + 0.03
        x0 = min(kb[0], kf[0]) - 0.06
        x1 = max(kb[0], kf[0]) + 0.06
        waist = local(j["pel"], ta, [(wp * 1.05, 0.32 * T), (-wp * 1.05, 0.32 * T)])
        hem = [np.array([x0 + (x1 - x0) * f, hem_y + 0.012 * math.sin(14 * f + 5 * t)])
               for f in np.linspace(0, 1, 9)]
        dr = np.array([waist[1], np.array([x0 + 0.01, (waist[1][1] + hem_y) / 2])] + hem
                      + [np.array([x1 - 0.005, (waist[0][1] + hem_y) / 2]), waist[0]])
        parts.append(Part(chaikin(dr, 2), S["dress"], 0.2))
        parts.append(Part(capsule(hem[0] + np.array([0, -0.004]), hem[-1] + np.array([0, -0.004]),
                                  0.008, 0.008), S["trim"], 0.016))
        bod = local(j["pel"], ta, [(-ws * 0.9, 0.3 * T), (ws * 1.0, 0.3 * T), (ws * 1.02, 0.86 * T),
                                   (ws * 0.3, 1.0 * T), (-ws * 0.85, 0.9 * T)])
        parts.append(Part(chaikin(bod, 1), S["dress"], ws * 2))

    # head
    if S.get("hood"):
        hood_b = ellipse(hc + np.array([-0.3 * hrx, 0.05 * hry]), hrx * 1.35, hry * 1.25, n=32)
        parts.append(Part(hood_b, shade_col(S["cloak"], 0.8), hrx * 2.4))
    parts.append(Part(capsule(j["neck"] - 0.02 * vdir(ta), j["neck"] + 0.03 * vdir(ta), 0.028, 0.025),
                      S["skin"], 0.05))
    if S.get("hair") == "ponytail":
        sw = p["hair"]
        root = hc + np.array([-0.9 * hrx, -0.45 * hry])
        pts = [root]
        ang = 258 - 10 * sw
        for i in range(5):
            ang += 16 + 6 * math.sin(2 * math.pi * 0.8 * t - 0.7 * i) - 3 * sw
            pts.append(pts[-1] + 0.045 * vdir(ang))
        pts = np.array(pts)
        radii = np.array([0.03, 0.036, 0.034, 0.028, 0.02, 0.008])
        seg_polys = [capsule(pts[i], pts[i + 1], radii[i], radii[i + 1]) for i in range(5)]
        parts.append(Part(seg_polys, S["hair_col"], 0.06))
    head = ellipse(hc, hrx, hry, rot=-ha, n=40)
    hpolys = [head]
    if fur:
        for sgn, ex in ((-1, 0.55), (1, 0.05)):
            ear = local(hc, ha, [(ex * hrx - 0.3 * hrx, 0.75 * hry), (ex * hrx, 1.5 * hry),
                                 (ex * hrx + 0.35 * hrx, 0.7 * hry)])
            hpolys.append(ear)
        snout = ellipse(hc + (hrx * 0.75) * vdir(ha - 90) + 0.02 * vdir(ha + 180), hrx * 0.42,
                        hry * 0.34, n=24)
        hpolys.append(snout)
        hpolys += tufts(head, 61, t, fur)
    parts.append(Part(hpolys, S["skin"] if not fur else S["top"], hrx * 2, fur=bool(fur)))
    fwd = vdir(ha - 90)
    upv = vdir(ha)
    if S.get("helmet"):
        hel = ellipse(hc + upv * hry * 0.12 - fwd * hrx * 0.04, hrx * 1.1, hry * 0.98, rot=-ha)
        parts.append(Part(hel, S["metal"], hrx * 2, spec=0.5))
        slit = capsule(hc + upv * hry * 0.05 + fwd * hrx * 0.25, hc + upv * hry * 0.05 + fwd * hrx * 1.02,
                       0.008, 0.008)
        parts.append(Part(slit, (0.08, 0.07, 0.1), 0.016, mode="flat", line=False))
        pl = [hc + upv * hry * 1.0 - fwd * hrx * 0.1]
        for i in range(6):
            pl.append(pl[-1] + 0.032 * vdir(ha + 25 + 24 * i + 5 * math.sin(2 * math.pi * t + i)))
        pl = np.array(pl)
        wdt = np.linspace(0.03, 0.008, len(pl))[:, None]
        plume = np.concatenate([pl + upv * wdt * 0.3, (pl - upv * wdt)[::-1]])
        parts.append(Part(chaikin(plume, 1), S["plume"], 0.035))
    else:
        eye_c = hc + fwd * hrx * 0.5 - upv * hry * 0.12
        ew = S.get("eye_size", 0.13)
        parts.append(Part(ellipse(eye_c, hrx * ew, hry * ew * 1.5, rot=-ha, n=14),
                          S.get("eye", (0.1, 0.08, 0.1)), 0.01, mode="flat", line=False))
        if S.get("eye_hl"):
            parts.append(Part(ellipse(eye_c + upv * hry * 0.06 + fwd * hrx * 0.03, hrx * ew * 0.35,
                                      hry * ew * 0.45, n=10), (1, 1, 1), 0.01, mode="flat", line=False))
        if fur:
            nose = hc + fwd * hrx * 1.12 - upv * 0.01
            parts.append(Part(ellipse(nose, 0.018, 0.013, n=12), (0.18, 0.12, 0.12), 0.02, mode="flat"))
    if S.get("hair") in ("short", "long", "ponytail"):
        cap = ellipse(hc + upv * hry * 0.5 - fwd * hrx * 0.14, hrx * 1.07, hry * 0.6,
                      rot=-ha, n=36)
        bang = local(hc, ha, [(0.15 * hrx, 0.95 * hry), (1.1 * hrx, 0.35 * hry), (0.6 * hrx, 0.2 * hry),
                              (0.45 * hrx, 0.42 * hry), (0.2 * hrx, 0.35 * hry)])
        back = local(hc, ha, [(-1.05 * hrx, 0.4 * hry), (-0.95 * hrx, -0.35 * hry), (-0.55 * hrx, -0.2 * hry),
                              (-0.4 * hrx, 0.5 * hry)])
        parts.append(Part([cap, chaikin(bang, 1), chaikin(back, 1)], S["hair_col"], hrx * 1.4))
    if S.get("hat"):
        brim = ellipse(hc + upv * hry * 0.55, hrx * 1.45, hry * 0.22, rot=-ha, n=30)
        cone = local(hc, ha, [(-0.95 * hrx, 0.6 * hry), (0.85 * hrx, 0.6 * hry), (0.2 * hrx, 1.3 * hry),
                              (-0.6 * hrx, 2.05 * hry + 0.02 * p["hair"]), (-0.5 * hrx, 1.3 * hry)])
        parts.append(Part([brim, chaikin(cone, 1)], S["hat"], hrx * 1.5))
    if S.get("hood"):
        hood_f = ellipse(hc + upv * hry * 0.45 - fwd * hrx * 0.12, hrx * 1.18, hry * 0.75,
                         rot=-ha, n=32)
        parts.append(Part(hood_f, S["cloak"], hrx * 2))
    if S.get("cloak"):
        clasp = j["neck"] + 0.03 * vdir(ta + 180) + np.array([0.02, 0])
        parts.append(Part(ellipse(clasp, 0.016, 0.016, n=12), (0.85, 0.7, 0.3), 0.03, spec=0.4))

    # front arm and what it holds
    wpn = weapon_parts(S, j, P, p, t)
    arm = arm_parts(S, j, P, "f", t)
    if S.get("weapon") in ("potion",):
        parts += arm + wpn
    else:
        parts += arm[:2] + wpn + arm[2:]
    if S.get("shield"):
        c = (j["elb_f"] + j["wri_f"] * 1.3) / 2.3
        sh = ellipse(c + np.array([0.01, 0]), 0.075, 0.1, rot=-j["fa_f"], n=30)
        parts.append(Part(sh, S["shield"], 0.17, spec=0.25))
        parts.append(Part(ellipse(c + np.array([0.012, 0]), 0.022, 0.022, n=14), S["metal"], 0.04,
                          spec=0.5))
    return parts, j


# ----------------------------------------------------------------------------- motion

def smooth(s):
    s = min(1.0, max(0.0, s))
    return s * s * (3 - 2 * s)


EASE = {"smooth": smooth, "lin": lambda s: min(1.0, max(0.0, s)),
        "in": lambda s: min(1.0, max(0.0, s)) ** 2.6,
        "out": lambda s: 1 - (1 - min(1.0, max(0.0, s))) ** 2.6}


def mix(a, b, s):
    return {k: a[k] + (b[k] - a[k]) * s for k in a}


def with_rest(**kw):
    d = dict(REST)
    d.update(kw)
    return d


def keyed(t, keys):
    """keys: [(time, pose, ease into this key)] with poses full dicts."""
    if t <= keys[0][0]:
        return dict(keys[0][1])
    for (t0, p0, _), (t1, p1, e) in zip(keys, keys[1:]):
        if t <= t1:
            return mix(p0, p1, EASE[e]((t - t0) / (t1 - t0)))
    return dict(keys[-1][1])


def ramp_in(t, cyc, dur=0.4):
    return mix(REST, cyc, smooth(t / dur))


def idle(t, M):
    b = math.sin(2 * math.pi * t / M.get("breath", 2.4))
    s = math.sin(2 * math.pi * t / 3.7 + 0.6)
    c = with_rest(lean=REST["lean"] + 1.6 * b, head=-2.0 * b + 1.2 * s, sh_f=REST["sh_f"] + 3 * b + 1.5 * s,
                  el_f=REST["el_f"] + 4 * b, sh_b=REST["sh_b"] - 2.5 * b, el_b=REST["el_b"] + 3 * s,
                  kn_b=3 + 2.5 * (1 + b), kn_f=3 + 2.5 * (1 + b), hip_f=REST["hip_f"] + 1.2 * (1 + b),
                  hip_b=REST["hip_b"] - 1.0 * (1 + b), hair=0.6 * s + 0.3 * b, cape=0.4 * s,
                  flap=0.25 * b, wpn=REST["wpn"] + 3 * s, dx=0.004 * s)
    return ramp_in(t, c, 0.6)


def walk(t, M):
    ph = 2 * math.pi * t / M.get("period", 1.0)
    sf, cf = math.sin(ph), math.cos(ph)

    def leg(sn, cs):
        hip = 3 + 24 * sn
        kn = 6 + 40 * max(0.0, cs) ** 1.4 + 6 * max(0.0, -sn)
        return hip, kn
    hf, kf = leg(sf, cf)
    hb, kb = leg(-sf, -cf)
    c = with_rest(lean=4 + 1.0 * math.cos(2 * ph), head=-2 + 1.5 * math.cos(2 * ph),
                  hip_f=hf, kn_f=kf, hip_b=hb, kn_b=kb,
                  sh_f=8 - 22 * sf, el_f=18 + 8 * max(0, -sf), sh_b=-2 + 22 * sf, el_b=18 + 8 * max(0, sf),
                  cape=0.6 + 0.4 * math.sin(2 * ph), hair=0.5 * math.sin(2 * ph + 1),
                  dx=M.get("drift", 0.0) * math.sin(2 * math.pi * t / 3.0), wpn=REST["wpn"] + 4 * sf)
    return ramp_in(t, c, 0.45)


def run(t, M):
    ph = 2 * math.pi * t / M.get("period", 0.62)
    sf, cf = math.sin(ph), math.cos(ph)

    def leg(sn, cs):
        hip = 8 + 38 * sn
        kn = 14 + 80 * max(0.0, cs) ** 1.2 + 10 * max(0.0, -sn)
        return hip, kn
    hf, kf = leg(sf, cf)
    hb, kb = leg(-sf, -cf)
    c = with_rest(lean=13, head=-8, hip_f=hf, kn_f=kf, hip_b=hb, kn_b=kb,
                  sh_f=10 - 42 * sf, el_f=75, sh_b=10 + 42 * sf, el_b=75,
                  dy=-0.028 * abs(math.sin(ph)), cape=1.0 + 0.4 * math.sin(2 * ph),
                  hair=1.0 + 0.5 * math.sin(2 * ph), wpn=40)
    return ramp_in(t, c, 0.35)


def attack(t, M):
    """Wind-up, strike, follow-through, recover.  The arm (and what it holds) moves on its
    own fast timing; the body leans and lunges on a slower one, as in real footage."""
    t0 = M.get("start", 0.25)
    sp = M.get("speed", 1.0)
    sw = M.get("swing", 0.13)
    r = REST
    if M.get("style") == "punch":
        wind = with_rest(lean=-7, head=3, sh_f=-40, el_f=118, sh_b=25, el_b=100, hip_f=14, kn_f=12,
                         hip_b=-12, kn_b=10, dx=-0.02)
        strike = with_rest(lean=12, head=-8, sh_f=128, el_f=30, sh_b=-20, el_b=95, hip_f=26, kn_f=28,
                           hip_b=-18, kn_b=8, dx=0.03)
        follow = with_rest(lean=13, head=-9, sh_f=140, el_f=32, sh_b=-22, el_b=90, hip_f=26, kn_f=30,
                           hip_b=-18, kn_b=8, dx=0.035)
    else:
        wind = with_rest(lean=-8, head=4, sh_f=205, el_f=55, wpn=70, sh_b=-30, el_b=30, hip_f=16,
                         kn_f=14, hip_b=-14, kn_b=10, dx=-0.02)
        strike = with_rest(lean=14, head=-6, sh_f=28, el_f=6, wpn=48, sh_b=-40, el_b=20, hip_f=30,
                           kn_f=34, hip_b=-20, kn_b=8, dx=0.045)
        follow = with_rest(lean=16, head=-4, sh_f=-10, el_f=10, wpn=40, sh_b=-45, el_b=25, hip_f=30,
                           kn_f=36, hip_b=-20, kn_b=8, dx=0.05)
    ta = t0 + 0.42 / sp
    th = t0 + 0.52 / sp
    ts = th + sw
    tf = ts + 0.12
    tr = tf + 0.3
    te = t0 + 1.45 / sp + sw
    arm = keyed(t, [(0.0, r, "lin"), (t0, r, "lin"), (ta, wind, "smooth"), (th, wind, "lin"),
                    (ts, strike, "in"), (tf, follow, "out"), (tr, follow, "lin"), (te, r, "smooth")])
    p = keyed(t, [(0.0, r, "lin"), (t0, r, "lin"), (ta, wind, "smooth"), (th - 0.05, wind, "lin"),
                  (ts + 0.15, strike, "smooth"), (tf + 0.15, follow, "out"), (tr, follow, "lin"),
                  (te, r, "smooth")])
    for k in ("sh_f", "el_f", "wpn"):
        p[k] = arm[k]
    for k in ("lean", "head", "dx"):
        p[k] = r[k] + M.get("body", 1.0) * (p[k] - r[k])
    p["glow"] = smooth((t - t0) / 0.5) * (1 - smooth((t - te + 0.4) / 0.4))
    return p


def skill(t, M):
    t0 = M.get("start", 0.2)
    raise_ = with_rest(lean=-6, head=-10, sh_f=150, el_f=25, sh_b=165, el_b=20, wpn=95, hip_f=10,
                       hip_b=-9, kn_f=6, kn_b=6, flap=0.9, hair=0.5, cape=0.5)
    k = [(0.0, REST, "lin"), (t0, REST, "lin"), (t0 + 0.55, raise_, "smooth"),
         (t0 + 1.5, raise_, "lin"), (t0 + 2.2, REST, "smooth")]
    p = keyed(t, k)
    hold = smooth((t - t0 - 0.4) / 0.3) * (1 - smooth((t - t0 - 1.45) / 0.4))
    w = math.sin(2 * math.pi * (t - t0) * 1.6)
    p["sh_f"] += 6 * w * hold
    p["sh_b"] -= 6 * w * hold
    p["glow"] = hold * (0.8 + 0.2 * math.sin(2 * math.pi * t * 3.0))
    if M.get("wings"):
        fl = math.sin(2 * math.pi * (t - t0) * M.get("flap_hz", 1.3))
        amt = smooth((t - t0) / 0.4)
        p["flap"] = (1 - amt) * 0.0 + amt * (0.2 + 0.85 * fl) * (1 - 0.6 * smooth((t - t0 - 1.9) / 0.4))
        p["dy"] = -0.03 * amt * (0.5 + 0.5 * fl) * (1 - smooth((t - t0 - 1.9) / 0.4))
    return p


def hurt(t, M):
    t0 = M.get("start", 0.3)
    hit = with_rest(lean=-22, head=-26, sh_f=70, el_f=40, sh_b=-55, el_b=40, hip_f=24, kn_f=30,
                    hip_b=-10, kn_b=22, dx=-0.07, hair=1.0, cape=1.0, wpn=60)
    sag = with_rest(lean=12, head=14, sh_f=20, el_f=30, sh_b=-10, el_b=30, hip_f=18, kn_f=34,
                    hip_b=-14, kn_b=30, dx=-0.08, hair=-0.5)
    k = [(0.0, REST, "lin"), (t0, REST, "lin"), (t0 + 0.1, hit, "out"), (t0 + 0.3, hit, "lin"),
         (t0 + 0.65, sag, "smooth"), (t0 + 1.0, sag, "lin"), (t0 + 1.6, REST, "smooth")]
    p = keyed(t, k)
    shake = math.exp(-max(0.0, t - t0) * 6) * (t > t0)
    p["dx"] += 0.012 * shake * math.sin(2 * math.pi * 11 * (t - t0))
    p["head"] += 6 * shake * math.sin(2 * math.pi * 9 * (t - t0))
    return p


ACTIONS = {"idle": idle, "walk": walk, "run": run, "attack": attack, "skill": skill, "hurt": hurt}


# ----------------------------------------------------------------------------- character render

def soft_blur(m, sigma):
    """Gaussian blur with constant (zero) borders; large sigmas at reduced resolution."""
    if sigma <= 0.3:
        return m
    f = int(max(1, sigma // 3))
    if f > 1:
        h, w = m.shape[:2]
        sm = cv2.resize(m, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
        sm = cv2.GaussianBlur(sm, (0, 0), sigma / f, borderType=cv2.BORDER_CONSTANT)
        return cv2.resize(sm, (w, h), interpolation=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(m, (0, 0), sigma, borderType=cv2.BORDER_CONSTANT)


def smoothstep_arr(e0, e1, x):
    s = np.clip((x - e0) / (e1 - e0), 0, 1)
    return s * s * (3 - 2 * s)


class Look:
    """How a case's character is drawn (in frame pixels)."""

    def __init__(self, style="painted", key_light=(0.55, -0.83), line_px=0.0,
                 line_col=(0.1, 0.07, 0.1), ao=0.35, rim=None):
        self.style = style
        self.key = np.array(key_light) / np.hypot(*key_light)
        self.line_px = line_px
        self.line_col = np.array(line_col, np.float32)
        self.ao = ao
        self.rim = rim  # dict(col, dir, dist, k)


def render_character(parts, xf, W, H, unit, look, ss=SS):
    """Draw the parts (char units) through xf (Nx2 char -> Nx2 frame px).  Returns
    (x0, y0, premultiplied colour, alpha) at frame resolution, or None."""
    polys_px = [[xf(q) for q in part.polys] for part in parts]
    allp = np.concatenate([q for pp in polys_px for q in pp])
    lp = look.line_px
    ao_sig = 0.012 * unit * ss
    margin = 4 + lp + 3 * 0.012 * unit
    x0 = int(max(0, math.floor(allp[:, 0].min() - margin)))
    y0 = int(max(0, math.floor(allp[:, 1].min() - margin)))
    x1 = int(min(W, math.ceil(allp[:, 0].max() + margin)))
    y1 = int(min(H, math.ceil(allp[:, 1].max() + margin)))
    if x1 <= x0 or y1 <= y0:
        return None
    hs, ws_ = (y1 - y0) * ss, (x1 - x0) * ss
    C = np.zeros((hs, ws_, 3), np.float32)
    A = np.zeros((hs, ws_), np.float32)
    org = np.array([x0, y0], float)
    kx, ky = look.key
    for part, pp in zip(parts, polys_px):
        qs = [(q - org) * ss for q in pp]
        qa = np.concatenate(qs)
        lw = lp * ss if (look.style == "cel" and part.line) else 0.0
        pad = int(math.ceil(lw / 2 + 2))
        bx0 = max(0, int(math.floor(qa[:, 0].min())) - pad)
        by0 = max(0, int(math.floor(qa[:, 1].min())) - pad)
        bx1 = min(ws_, int(math.ceil(qa[:, 0].max())) + pad)
        by1 = min(hs, int(math.ceil(qa[:, 1].max())) + pad)
        if bx1 <= bx0 or by1 <= by0:
            continue
        mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        ints = [np.round((q - (bx0, by0)) * 16).astype(np.int32) for q in qs]
        for q in ints:
            cv2.fillPoly(mask, [q], 255, cv2.LINE_AA, shift=4)
        m = mask.astype(np.float32) / 255.0
        thick = max(1.0, part.thick * unit * ss)
        proj = qa[:, 0] * kx + qa[:, 1] * ky
        pc, pe = 0.5 * (proj.max() + proj.min()), max(1.0, 0.5 * (proj.max() - proj.min()))
        xs = np.arange(bx0, bx1, dtype=np.float32) * kx
        ys = np.arange(by0, by1, dtype=np.float32) * ky
        g = np.clip((ys[:, None] + xs[None, :] - pc) / pe, -1, 1)
        base = part.col
        mode = part.mode or look.style
        if mode in ("painted", "cel", "emissive"):
            vol = soft_blur(m, max(0.8, 0.28 * thick))
            vn = np.clip((vol - 0.42) / 0.5, 0, 1)
            if part.fur:  # thin tufts are lit through, not dark
                vn = 0.5 + 0.5 * vn
        if mode == "painted":
            shade = (0.42 + 0.58 * vn * (1.6 - 0.6 * vn)) * (0.8 + 0.3 * g)
            cool = np.array([0.025, 0.022, 0.045], np.float32)
            col = base * shade[..., None] + cool * (1 - vn)[..., None]
            if part.spec:
                hl = np.clip((g - 0.25) / 0.75, 0, 1)
                hl = hl * hl * vn * vn * part.spec
                col = col + hl[..., None]
        elif mode == "cel":
            tt = 0.5 * g + 1.2 * (vn - 0.55)
            s = smoothstep_arr(-0.05, 0.05, tt)
            shadow = base * np.array([0.66, 0.64, 0.76], np.float32)
            col = shadow + (base - shadow) * s[..., None]
            if part.spec:
                col = col + (part.spec * smoothstep_arr(0.55, 0.65, g * vn))[..., None]
        elif mode == "emissive":
            core = part.core * vn * vn
            col = base + (1.0 - base) * core[..., None]
        else:
            col = np.broadcast_to(base * (0.94 + 0.08 * g)[..., None], m.shape + (3,))
        a = m
        if lw > 0:
            lmask = np.zeros_like(mask)
            for q in ints:
                cv2.polylines(lmask, [q], True, 255, int(max(1, round(lw))), cv2.LINE_AA, shift=4)
            lm = lmask.astype(np.float32) / 255.0
            a = np.maximum(m, lm)
            col = col + (look.line_col - col) * lm[..., None]
        a = a * part.op
        if look.style == "painted" and look.ao > 0:  # soft occlusion on what lies below
            pa = int(math.ceil(3 * ao_sig))
            ax0, ay0 = max(0, bx0 - pa), max(0, by0 - pa)
            ax1, ay1 = min(ws_, bx1 + pa), min(hs, by1 + pa)
            big = np.zeros((ay1 - ay0, ax1 - ax0), np.float32)
            big[by0 - ay0:by1 - ay0, bx0 - ax0:bx1 - ax0] = a
            C[ay0:ay1, ax0:ax1] *= (1 - look.ao * soft_blur(big, ao_sig))[..., None]
        sl = (slice(by0, by1), slice(bx0, bx1))
        ia = 1 - a
        C[sl] = col * a[..., None] + C[sl] * ia[..., None]
        A[sl] = a + A[sl] * ia
    w, h = x1 - x0, y1 - y0
    C = cv2.resize(C, (w, h), interpolation=cv2.INTER_AREA)
    A = cv2.resize(A, (w, h), interpolation=cv2.INTER_AREA)
    if look.rim:
        r = look.rim
        d = np.array(r["dir"], float)
        d = d / np.hypot(*d) * r["dist"]
        Ms = np.float32([[1, 0, -d[0]], [0, 1, -d[1]]])
        Ash = cv2.warpAffine(A, Ms, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        rim = np.clip(A - Ash, 0, 1)
        rim = cv2.GaussianBlur(rim, (0, 0), max(0.5, r["dist"] * 0.3)) * A
        F = C / np.maximum(A, 1e-6)[..., None]
        F = F + (np.array(r["col"], np.float32) - F) * np.clip(r["k"] * rim, 0, 1)[..., None]
        C = F * A[..., None]
    return x0, y0, np.clip(C, 0, None), np.clip(A, 0, 1)


# ----------------------------------------------------------------------------- screen

def make_screen(W, H, sc, rng):
    """The backdrop in world coordinates with a margin (for camera moves)."""
    mg = 64
    Wb, Hb = W + 2 * mg, H + 2 * mg
    y, x = np.mgrid[0:Hb, 0:Wb].astype(np.float32)
    x -= mg
    y -= mg
    key = np.array(sc["key"], np.float32)
    gv, gh = sc.get("grad", (0.12, 0.06))
    wall = key[None, None, :] * ((1 - gv * (y / H - 0.5)) * (1 + gh * (x / W - 0.5)))[..., None]
    field = rng.random((5, 8)).astype(np.float32)
    field = cv2.resize(field, (Wb, Hb), interpolation=cv2.INTER_CUBIC)
    wall *= (1 + sc.get("uneven", 0.05) * (field - 0.5) * 2)[..., None]
    if sc.get("floor") is not None:
        fy = sc["floor_y"] * H
        floor_key = np.array(sc["floor"], np.float32)
        fl = floor_key[None, None, :] * (1 - 0.18 * np.clip((y - fy) / (H - fy + 1), 0, 1.5))[..., None]
        fl *= (1 + 0.5 * sc.get("uneven", 0.05) * (field - 0.5))[..., None]
        cove = 0.035 * H
        tb = smoothstep_arr(fy - cove, fy + cove, y)[..., None]
        wall = wall * (1 - tb) + fl * tb
    if sc.get("hotspot"):
        hx, hy, hr, hs = sc["hotspot"]
        d2 = ((x - hx * W) ** 2 + (y - hy * H) ** 2) / (hr * H) ** 2
        hot = hs * np.exp(-0.5 * d2)
        wall = wall * (1 + hot[..., None]) + (hot * 0.25)[..., None] * (1 - wall)
    return np.clip(wall, 0, 1).astype(np.float32), mg


def contact_shadow(feet, gy, u, strength, W, H):
    """Multiplier for the floor: a soft ellipse under the feet plus a darker blob per foot,
    fading as the feet leave the ground."""
    lift = max(0.0, gy - float(feet[:, 1].max()))
    dark = strength * math.exp(-lift / (0.08 * u))
    sx = float(np.mean(feet[:, 0]))
    spread = max(0.14 * u, 0.6 * float(np.ptp(feet[:, 0])))
    x0, x1 = int(max(0, sx - 4 * spread)), int(min(W, sx + 4 * spread + 1))
    y0, y1 = int(max(0, gy - 0.12 * u)), int(min(H, gy + 0.12 * u + 1))
    mul = np.ones((H, W), np.float32)
    if x1 <= x0 or y1 <= y0:
        return mul
    yy, xx = np.ogrid[y0:y1, x0:x1]
    sh = np.exp(-0.5 * (((xx - sx) / spread) ** 2 + ((yy - gy) / (0.025 * u)) ** 2))
    for q in feet:
        sh = np.maximum(sh, np.exp(-0.5 * (((xx - q[0]) / (0.05 * u)) ** 2 + ((yy - gy) / (0.012 * u)) ** 2)))
    mul[y0:y1, x0:x1] = 1 - dark * sh
    return mul


def vignette(W, H, amount):
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    r2 = (((x - W / 2) / (W / 2)) ** 2 + ((y - H / 2) / (H / 2)) ** 2) / 2
    return (1 - amount * r2 ** 1.2).astype(np.float32)


def rgb_to_yuv420(rgb):
    H, W = rgb.shape[:2]
    R, G, B = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    Y = 16 + 65.481 * R + 128.553 * G + 24.966 * B
    Cb = 128 - 37.797 * R - 74.203 * G + 112.0 * B
    Cr = 128 + 112.0 * R - 93.786 * G - 18.214 * B
    Cb = Cb.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    Cr = Cr.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    flat = np.concatenate([np.clip(np.round(v), 0, 255).astype(np.uint8).ravel() for v in (Y, Cb, Cr)])
    return flat.reshape(H * 3 // 2, W)


class Encoder:
    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(path, "w")
        self.s = self.c.add_stream("libx264", rate=fps)
        self.s.width, self.s.height = W, H
        self.s.pix_fmt = "yuv420p"
        self.s.codec_context.thread_count = 1
        self.s.options = {
            "crf": str(crf), "preset": "medium", "threads": "1",
            "x264-params": "threads=1:lookahead-threads=1:mbtree=0:colormatrix=smpte170m:"
                           "colorprim=smpte170m:transfer=smpte170m:range=tv"}
        self.i = 0

    def add(self, rgb):
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        fr.pts = self.i
        self.i += 1
        for pk in self.s.encode(fr):
            self.c.mux(pk)

    def close(self):
        for pk in self.s.encode():
            self.c.mux(pk)
        self.c.close()


# ----------------------------------------------------------------------------- cases

GREEN = (0.2, 0.68, 0.3)
PAINT_RIM_WARM = dict(col=(1.0, 0.84, 0.6), dir=(-0.75, -0.66), dist=2.2, k=0.85)


def C(**kw):
    base = dict(fps=24, frames=49, crf=20, seed=0, action="idle", motion={}, height=0.6, ground=0.9,
                x=0.5, camera={}, shutter=0.5, blur_step=4.0, blur_cap=28, wrap=(0.33, 2.0),
                shadow=0.42, noise=2.0, flicker=0.012, vignette=0.18, qc=None, expect=None)
    base.update(kw)
    return base


KNIGHT = dict(prop=ADULT, skin=(0.86, 0.66, 0.52), sleeve=(0.55, 0.58, 0.64), fore=(0.6, 0.63, 0.69),
              glove=(0.35, 0.3, 0.3), legs=(0.5, 0.53, 0.6), boots=(0.36, 0.3, 0.28),
              top=(0.58, 0.61, 0.68), tabard=(0.62, 0.12, 0.14), metal=(0.62, 0.66, 0.72),
              helmet=True, plume=(0.8, 0.16, 0.14), weapon="sword", shield_back=(0.55, 0.18, 0.16),
              belt=(0.36, 0.22, 0.12))

CASES = [
    C(name="painted_knight_rim_idle", size=(832, 480), frames=49, crf=20, seed=1, action="idle",
      wrap=(0.35, 2.5),
      height=0.62, ground=0.91, x=0.47,
      screen=dict(key=GREEN, floor=(0.13, 0.47, 0.2), floor_y=0.74, grad=(0.14, 0.08), uneven=0.05),
      look=dict(style="painted", ao=0.4, rim=PAINT_RIM_WARM), char=KNIGHT),
    C(name="anime_swordsman_walk", size=(832, 480), frames=65, crf=21, seed=2, action="walk",
      wrap=(0.3, 1.6),
      motion=dict(period=1.05, drift=0.015), height=0.7, ground=0.93, x=0.5,
      screen=dict(key=(0.16, 0.7, 0.28), grad=(0.1, -0.05), uneven=0.04), vignette=0.25,
      look=dict(style="cel", line_px=3.2, line_col=(0.09, 0.06, 0.1)),
      char=dict(prop=ADULT, skin=(0.98, 0.82, 0.7), sleeve=(0.2, 0.26, 0.55), fore=(0.95, 0.95, 0.97),
                glove=(0.98, 0.82, 0.7), legs=(0.16, 0.15, 0.2), boots=(0.42, 0.26, 0.16),
                top=(0.22, 0.28, 0.58), hair="short", hair_col=(0.16, 0.12, 0.2), weapon="sword",
                belt=(0.75, 0.6, 0.25), eye=(0.25, 0.15, 0.45), eye_size=0.17, eye_hl=True,
                scarf=(0.85, 0.15, 0.18))),
    C(name="chibi_crystal_staff_skill", size=(512, 512), fps=16, frames=41, crf=21, seed=3,
      wrap=(0.28, 1.5),
      action="skill", motion=dict(start=0.25), height=0.55, ground=0.86, x=0.5,
      screen=dict(key=(0.19, 0.66, 0.3), grad=(0.12, 0.1), uneven=0.05),
      look=dict(style="cel", line_px=3.0, line_col=(0.12, 0.07, 0.14)),
      char=dict(prop=CHIBI, skin=(1.0, 0.86, 0.76), sleeve=(0.42, 0.3, 0.7), glove=(1.0, 0.86, 0.76),
                legs=(0.3, 0.22, 0.5), boots=(0.48, 0.3, 0.2), top=(0.45, 0.33, 0.74), hair="short",
                hair_col=(0.95, 0.78, 0.4), hat=(0.36, 0.24, 0.62), weapon="staff",
                eye=(0.2, 0.35, 0.6), eye_size=0.2, eye_hl=True, belt=(0.9, 0.75, 0.3))),
    C(name="tiny_ranger_run_drift", size=(1280, 720), frames=49, crf=22, seed=4, action="run",
      wrap=(0.3, 1.4),
      motion=dict(period=0.6), height=0.25, ground=0.8, x=0.5,
      camera=dict(drift=(46.0, -12.0)),
      screen=dict(key=(0.21, 0.69, 0.31), floor=(0.15, 0.52, 0.24), floor_y=0.66, grad=(0.1, 0.1)),
      look=dict(style="painted", ao=0.3, rim=dict(col=(1.0, 0.95, 0.85), dir=(-0.8, -0.6), dist=1.3,
                                                  k=0.7)),
      char=dict(prop=ADULT, skin=(0.85, 0.62, 0.48), sleeve=(0.48, 0.32, 0.2), fore=(0.4, 0.27, 0.18),
                glove=(0.32, 0.22, 0.15), legs=(0.3, 0.26, 0.24), boots=(0.26, 0.18, 0.12),
                top=(0.55, 0.38, 0.24), hair="short", hair_col=(0.55, 0.24, 0.12), bow=True,
                scarf=(0.92, 0.5, 0.12))),
    C(name="giant_brute_attack_zoom", size=(480, 832), fps=16, frames=41, crf=20, seed=5,
      wrap=(0.35, 3.0),
      action="attack", motion=dict(start=0.35, speed=0.9, swing=0.1, style="punch"), height=0.8,
      ground=0.955, x=0.44, camera=dict(zoom=1.06, breathe=0.035), shutter=0.55,
      screen=dict(key=(0.2, 0.67, 0.3), grad=(0.08, 0.05), hotspot=(0.35, 0.3, 0.35, 0.22)),
      look=dict(style="painted", ao=0.4, rim=dict(col=(0.98, 0.98, 1.0), dir=(0.7, -0.7), dist=3.0,
                                                  k=0.75)),
      char=dict(prop=BRUTE, skin=(0.6, 0.5, 0.62), sleeve=(0.6, 0.5, 0.62), glove=(0.4, 0.3, 0.25),
                legs=(0.36, 0.26, 0.2), boots=(0.3, 0.22, 0.18), top=(0.55, 0.45, 0.58),
                fore=(0.42, 0.3, 0.24), belt=(0.3, 0.2, 0.12), hair="short", hair_col=(0.18, 0.14, 0.16),
                eye=(0.85, 0.75, 0.2))),
    C(name="lime_cloak_rogue_walk", size=(832, 480), frames=81, crf=21, seed=6, action="walk",
      wrap=(0.33, 2.2),
      motion=dict(period=1.1, drift=0.01), height=0.68, ground=0.92, x=0.5,
      screen=dict(key=(0.1, 0.66, 0.46), grad=(0.1, 0.06), uneven=0.06),
      look=dict(style="painted", ao=0.35, rim=dict(col=(1.0, 1.0, 0.94), dir=(0.8, -0.6), dist=1.8, k=0.6)),
      char=dict(prop=ADULT, skin=(0.88, 0.7, 0.58), sleeve=(0.22, 0.2, 0.2), fore=(0.3, 0.24, 0.2),
                glove=(0.25, 0.18, 0.14), legs=(0.2, 0.19, 0.2), boots=(0.3, 0.2, 0.14),
                top=(0.26, 0.24, 0.24), cloak=(0.64, 0.8, 0.16), hood=True, weapon="sword",
                blade_len=0.2, blade_w=0.016, hair="short", hair_col=(0.3, 0.18, 0.1))),
    C(name="green_hair_idle", size=(512, 512), frames=97, crf=20, seed=7, action="idle",
      wrap=(0.35, 2.6),
      motion=dict(breath=2.8), height=0.6, ground=0.88, x=0.5,
      screen=dict(key=(0.42, 0.74, 0.17), grad=(0.12, 0.05), uneven=0.05),
      look=dict(style="painted", ao=0.35, rim=dict(col=(1.0, 1.0, 1.0), dir=(-0.6, -0.8), dist=2.0, k=0.7)),
      char=dict(prop=ADULT, skin=(0.96, 0.8, 0.7), sleeve=(0.95, 0.94, 0.92), fore=(0.96, 0.8, 0.7),
                legs=(0.72, 0.16, 0.2), boots=(0.32, 0.2, 0.16), top=(0.95, 0.94, 0.92),
                hair="ponytail", hair_col=(0.24, 0.78, 0.33), belt=(0.72, 0.16, 0.2),
                eye=(0.2, 0.5, 0.3), eye_size=0.15)),
    C(name="potion_alchemist_skill", size=(832, 480), fps=16, frames=49, crf=22, seed=8,
      wrap=(0.3, 2.0),
      action="skill", motion=dict(start=0.3), height=0.66, ground=0.92, x=0.48,
      screen=dict(key=(0.2, 0.7, 0.3), grad=(0.2, 0.14), uneven=0.09, hotspot=(0.78, 0.25, 0.4, 0.16)),
      vignette=0.3,
      look=dict(style="cel", line_px=2.8, line_col=(0.14, 0.08, 0.06)),
      char=dict(prop=ADULT, skin=(0.95, 0.78, 0.64), sleeve=(0.5, 0.22, 0.3), glove=(0.95, 0.78, 0.64),
                legs=(0.35, 0.25, 0.2), boots=(0.3, 0.2, 0.15), top=(0.55, 0.25, 0.34),
                hair="long", hair_col=(0.85, 0.84, 0.88), weapon="potion", belt=(0.6, 0.45, 0.2),
                eye=(0.3, 0.15, 0.1))),
    C(name="teal_dress_blue_walk", size=(480, 832), frames=65, crf=21, seed=9, action="walk",
      wrap=(0.35, 2.4),
      motion=dict(period=1.15), height=0.6, ground=0.86, x=0.5, noise=2.2,
      screen=dict(key=(0.1, 0.26, 0.78), floor=(0.08, 0.2, 0.62), floor_y=0.72, grad=(0.1, 0.08)),
      look=dict(style="painted", ao=0.35, rim=dict(col=(1.0, 0.93, 0.85), dir=(-0.7, -0.7), dist=2.2, k=0.6)),
      char=dict(prop=ADULT, skin=(0.93, 0.76, 0.64), sleeve=(0.18, 0.72, 0.76), fore=(0.93, 0.76, 0.64),
                legs=(0.93, 0.76, 0.64), boots=(0.85, 0.85, 0.9), top=(0.18, 0.72, 0.76),
                dress=(0.16, 0.7, 0.74), trim=(0.55, 0.92, 0.96), hair="long", hair_col=(0.3, 0.18, 0.12),
                eye=(0.2, 0.3, 0.5))),
    C(name="fur_beast_hurt", size=(512, 512), frames=49, crf=21, seed=10, action="hurt",
      wrap=(0.3, 2.5),
      motion=dict(start=0.35), height=0.58, ground=0.9, x=0.52,
      screen=dict(key=(0.2, 0.69, 0.3), floor=(0.14, 0.5, 0.22), floor_y=0.72, grad=(0.12, 0.06)),
      look=dict(style="painted", ao=0.3, rim=dict(col=(1.0, 0.9, 0.75), dir=(-0.6, -0.8), dist=1.8, k=0.55)),
      char=dict(prop=BEAST, fur=0.032, skin=(0.9, 0.84, 0.76), sleeve=(0.86, 0.78, 0.68),
                glove=(0.8, 0.72, 0.62), legs=(0.84, 0.76, 0.66), boots=(0.8, 0.72, 0.62),
                top=(0.88, 0.8, 0.7), eye=(0.1, 0.08, 0.1), eye_size=0.12)),
    C(name="feather_harpy_skill", size=(832, 480), frames=57, crf=21, seed=11, action="skill",
      wrap=(0.33, 2.2),
      motion=dict(start=0.3, wings=True, flap_hz=1.4), height=0.55, ground=0.9, x=0.53,
      screen=dict(key=(0.19, 0.68, 0.29), grad=(0.1, 0.1), hotspot=(0.3, 0.35, 0.3, 0.18)),
      look=dict(style="painted", ao=0.3, rim=PAINT_RIM_WARM),
      char=dict(prop=ADULT, skin=(0.9, 0.72, 0.58), sleeve=(0.9, 0.72, 0.58), legs=(0.5, 0.36, 0.26),
                boots=(0.35, 0.26, 0.2), top=(0.62, 0.34, 0.22), hair="long", hair_col=(0.6, 0.3, 0.15),
                wings=True, belt=(0.8, 0.62, 0.3), eye=(0.55, 0.35, 0.1))),
    C(name="green_blade_duelist_attack", size=(1280, 720), frames=49, crf=21, seed=12, action="attack",
      wrap=(0.35, 2.8),
      motion=dict(start=0.3, swing=0.12), height=0.6, ground=0.9, x=0.44, shutter=0.5,
      camera=dict(breathe=0.025),
      screen=dict(key=(0.2, 0.68, 0.3), floor=(0.15, 0.54, 0.25), floor_y=0.72, grad=(0.12, 0.06)),
      look=dict(style="painted", ao=0.35, rim=dict(col=(0.95, 0.97, 1.0), dir=(-0.75, -0.66), dist=2.4,
                                                  k=0.7)),
      char=dict(prop=ADULT, skin=(0.8, 0.6, 0.46), sleeve=(0.18, 0.16, 0.22), fore=(0.22, 0.2, 0.26),
                glove=(0.2, 0.18, 0.2), legs=(0.2, 0.18, 0.24), boots=(0.18, 0.14, 0.14),
                top=(0.3, 0.26, 0.36), hair="short", hair_col=(0.9, 0.9, 0.92), weapon="greenblade",
                blade_len=0.48, guard=(0.3, 0.3, 0.34), belt=(0.5, 0.35, 0.2))),
    C(name="qc_facing_turn_walk", size=(832, 480), frames=57, crf=21, seed=13, action="walk",
      motion=dict(period=1.0), height=0.62, ground=0.9, x=0.5, qc="facing", expect=["FACING"],
      screen=dict(key=(0.2, 0.69, 0.3), grad=(0.1, 0.06)),
      look=dict(style="cel", line_px=2.6),
      char=dict(prop=ADULT, skin=(0.98, 0.8, 0.66), sleeve=(0.75, 0.3, 0.15), glove=(0.4, 0.3, 0.22),
                legs=(0.3, 0.3, 0.36), boots=(0.4, 0.28, 0.18), top=(0.82, 0.36, 0.18), hair="short",
                hair_col=(0.25, 0.2, 0.35), weapon="sword", blade_len=0.3, shield=(0.3, 0.42, 0.7),
                metal=(0.8, 0.78, 0.7), eye=(0.1, 0.1, 0.2))),
    C(name="qc_smear_ghost_run", size=(832, 480), frames=49, crf=21, seed=14, action="run",
      motion=dict(period=0.58), height=0.62, ground=0.9, x=0.5, qc="smear", expect=["SMEAR"],
      screen=dict(key=(0.21, 0.69, 0.3), grad=(0.12, 0.06)),
      look=dict(style="painted", ao=0.35, rim=dict(col=(1.0, 0.95, 0.8), dir=(-0.7, -0.7), dist=2.0, k=0.6)),
      char=dict(prop=ADULT, skin=(0.7, 0.5, 0.38), sleeve=(0.85, 0.82, 0.75), fore=(0.7, 0.5, 0.38),
                glove=(0.7, 0.5, 0.38), legs=(0.22, 0.3, 0.5), boots=(0.9, 0.9, 0.9),
                top=(0.85, 0.2, 0.2), hair="short", hair_col=(0.1, 0.08, 0.08))),
    C(name="qc_pillarbox_idle", size=(1280, 720), picture=(404, 720), frames=49, crf=20, seed=15,
      action="idle", height=0.5, ground=0.84, x=0.5, qc="pillarbox", expect=[],
      screen=dict(key=(0.2, 0.68, 0.3), grad=(0.1, 0.08), hotspot=(0.5, 0.35, 0.3, 0.12)),
      look=dict(style="painted", ao=0.35, rim=dict(col=(0.9, 0.92, 1.0), dir=(0.7, -0.7), dist=1.8, k=0.6)),
      char=dict(prop=ADULT, skin=(0.92, 0.74, 0.62), sleeve=(0.25, 0.3, 0.62), glove=(0.92, 0.74, 0.62),
                legs=(0.22, 0.24, 0.45), boots=(0.35, 0.25, 0.2), top=(0.28, 0.33, 0.66),
                hair="long", hair_col=(0.55, 0.15, 0.12), hat=(0.2, 0.22, 0.48), weapon="staff",
                belt=(0.85, 0.7, 0.3))),
    C(name="qc_heavy_swing_attack", size=(512, 512), fps=16, frames=33, crf=21, seed=16, action="attack",
      motion=dict(start=0.3, speed=1.2, swing=0.07, body=0.5), height=0.55, ground=0.9, x=0.4, shutter=1.0,
      blur_step=1.5, blur_cap=96, qc="swing", expect=[],
      screen=dict(key=(0.2, 0.68, 0.3), floor=(0.15, 0.52, 0.24), floor_y=0.7, grad=(0.1, 0.06)),
      look=dict(style="painted", ao=0.35, rim=PAINT_RIM_WARM),
      char=dict(KNIGHT, helmet=False, hair="short", hair_col=(0.4, 0.25, 0.12), blade_len=0.55,
                blade_w=0.026, shield_back=None)),
]


# ----------------------------------------------------------------------------- one case

def pose_at(case, t):
    p = ACTIONS[case["action"]](max(0.0, t), case["motion"])
    if case["qc"] == "facing":
        fps = case["fps"]
        t1, dur = 0.42 * case["frames"] / fps, 0.3
        u = min(1.0, max(0.0, (t - t1) / dur))
        c = math.cos(math.pi * smooth(u))
        p["face"] = math.copysign(max(0.22, abs(c)), c)  # a paper turn, then mirrored
    return p


def render_case(case, out_dir):
    t_start = time.time()
    W, H = case["size"]
    PW, PH = case.get("picture", (W, H))
    fps, N = case["fps"], case["frames"]
    rng = np.random.default_rng(1000 + case["seed"])
    S = case["char"]
    look = Look(**case["look"])

    rest_parts, _ = humanoid(S, dict(REST), 0.0)
    allp = np.concatenate([q for pt in rest_parts for q in pt.polys])
    rest_h = allp[:, 1].max() - allp[:, 1].min()
    unit = case["height"] * PH / rest_h
    ground = case["ground"] * PH
    cx_char = case["x"] * PW - unit * 0.5 * (allp[:, 0].max() + allp[:, 0].min())
    cam = case["camera"]
    zoom_end = cam.get("zoom", 1.0)
    drift = np.array(cam.get("drift", (0.0, 0.0)))
    zc = np.array([case["x"] * PW, ground - 0.5 * case["height"] * PH])
    dur = (N - 1) / fps

    def cam_m(t):
        u = smooth(t / dur)
        z = 1 + (zoom_end - 1) * u
        d = drift * u
        return z, zc * (1 - z) + d

    def xform(p, t):
        z, off = cam_m(t)
        face = p["face"]

        def f(q):
            wx = cx_char + unit * face * q[:, 0]
            wy = ground + unit * q[:, 1]
            return np.stack([wx * z + off[0], wy * z + off[1]], 1)
        return f

    def render_at(t):
        p = pose_at(case, t)
        parts, j = humanoid(S, p, t)
        return parts, j, xform(p, t)

    bg_world, mg = make_screen(PW, PH, case["screen"], rng)
    vig = vignette(PW, PH, case["vignette"])

    truth = np.zeros((N, H, W, 4), np.uint8)
    ox = (W - PW) // 2
    enc = Encoder(os.path.join(out_dir, "clip.mp4"), W, H, fps, case["crf"])
    prev_rgb = None
    wrap_k, wrap_sig = case["wrap"]
    shutter = case["shutter"] / fps
    for i in range(N):
        t = i / fps
        # sub-frame count from how far the outline moves over the (trailing) shutter
        pa, ja, fa = render_at(t)
        pb, _, fb = render_at(max(0.0, t - shutter))
        va = np.concatenate([fa(q) for pt in pa for q in pt.polys])
        vb = np.concatenate([fb(q) for pt in pb for q in pt.polys])
        disp = float(np.max(np.hypot(*(va - vb).T))) if va.shape == vb.shape else 8.0
        K = int(min(case["blur_cap"], max(1, math.ceil(disp / case["blur_step"]))))
        ss = SS if K < 2 else 1  # many sub-frames: each drawn at 1x (edges still antialiased)
        Cacc = np.zeros((PH, PW, 3), np.float32)
        Aacc = np.zeros((PH, PW), np.float32)
        for k in range(K):
            if k == 0:
                parts, f = pa, fa
            else:
                parts, _, f = render_at(max(0.0, t - shutter * k / K))
            r = render_character(parts, f, PW, PH, unit, look, ss)
            if r is None:
                continue
            x0, y0, Cw, Aw = r
            h, w = Aw.shape
            Cacc[y0:y0 + h, x0:x0 + w] += Cw
            Aacc[y0:y0 + h, x0:x0 + w] += Aw
        feet = fa(np.array([ja["ank_b"], ja["ank_f"], ja["toe_b"], ja["toe_f"]]))
        Cacc /= K
        Aacc /= K
        z, off = cam_m(t)
        gain = 1 + cam.get("breathe", 0.0) * math.sin(2 * math.pi * t / 1.9)
        A = np.clip(Aacc, 0, 1)
        F = np.where(A[..., None] > 1e-5, Cacc / np.maximum(A, 1e-5)[..., None], 0)
        F = np.clip(F * gain, 0, 1)

        # truth
        A8 = np.round(A * 255).astype(np.uint8)
        F8 = np.where(A8[..., None] > 0, np.round(F * 255), 0).astype(np.uint8)
        truth[i, :, ox:ox + PW, :3] = F8
        truth[i, :, ox:ox + PW, 3] = A8

        # screen through the camera, with flicker, vignette, contact shadow, grain
        Mcam = np.float32([[z, 0, off[0] + mg * z], [0, z, off[1] + mg * z]])
        Minv = cv2.invertAffineTransform(Mcam)
        bg = cv2.warpAffine(bg_world, Minv, (PW, PH), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REFLECT)
        flick = 1 + case["flicker"] * (math.sin(2 * math.pi * 0.9 * t + case["seed"])
                                       + 0.6 * rng.standard_normal())
        bg *= (vig * flick)[..., None]
        if case["shadow"] > 0:
            bg *= contact_shadow(feet, ground * z + off[1], unit * z, case["shadow"], PW, PH)[..., None]
        noise = rng.standard_normal((PH, PW)).astype(np.float32) * (case["noise"] / 255)
        cn = rng.standard_normal((PH // 2, PW // 2, 2)).astype(np.float32) * (case["noise"] * 0.7 / 255)
        cn = cv2.resize(cn, (PW, PH), interpolation=cv2.INTER_LINEAR)
        noise = cv2.GaussianBlur(noise, (0, 0), 0.6)
        bg = bg + noise[..., None] + np.stack([cn[..., 0], -0.5 * cn[..., 0] - 0.5 * cn[..., 1],
                                               cn[..., 1]], -1)
        bg = bg * gain

        # light wrap: the blurred screen bleeds into the opaque rim, fading inward
        bgb = cv2.GaussianBlur(bg, (0, 0), 5.0)
        L = cv2.GaussianBlur(1 - A, (0, 0), wrap_sig)
        wk = np.clip(2.2 * L, 0, 1) ** 1.3 * wrap_k
        Fw = F + (bgb - F) * wk[..., None]
        rgb = Fw * A[..., None] + bg * (1 - A[..., None])
        rgb = np.clip(rgb, 0, 1)
        if case.get("picture"):
            full = rng.standard_normal((H, W, 1)).astype(np.float32) * 0.0015 + np.zeros(3, np.float32)
            full[:, ox:ox + PW] = rgb
            rgb = np.clip(full, 0, 1)
        out = rgb
        if case["qc"] == "smear" and prev_rgb is not None:
            out = 0.7 * rgb + 0.3 * prev_rgb
        prev_rgb = rgb
        enc.add(out)
    enc.close()
    Image.fromarray(truth[0], "RGBA").save(os.path.join(out_dir, "portrait.png"))
    np.savez_compressed(os.path.join(out_dir, "truth.npz"), rgba=truth)
    meta = {"action": case["action"]}
    if case["expect"] is not None:
        meta["expect_flags"] = case["expect"]
    with open(os.path.join(out_dir, "case.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    return case["name"], time.time() - t_start


def run_one(name):
    cv2.setNumThreads(1)
    case = next(c for c in CASES if c["name"] == name)
    d = os.path.join(OUT_ROOT, name)
    os.makedirs(d, exist_ok=True)
    return render_case(case, d)


def main():
    sub = sys.argv[1] if len(sys.argv) > 1 else ""
    names = [c["name"] for c in CASES if sub in c["name"]]
    if not names:
        sys.exit(f"no case name contains {sub!r}")
    t0 = time.time()
    # longest first so two workers finish together
    weight = {c["name"]: c["frames"] * c["size"][0] * c["size"][1] for c in CASES}
    names.sort(key=lambda n: -weight[n])
    if len(names) == 1:
        results = [run_one(names[0])]
    else:
        with Pool(min(2, len(names))) as pool:
            results = pool.map(run_one, names, chunksize=1)
    for n, s in results:
        print(f"{n:32s} {s:6.1f} s")
    print(f"{len(results)} cases in {time.time() - t0:.1f} s -> {OUT_ROOT}")


if __name__ == "__main__":
    main()
