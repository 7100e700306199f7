"""Trial 22: synthetic image-to-video style test footage with exact ground truth.

Written apart from the project's own fixtures and trial generators.  Procedural,
articulated game characters (cel, shaded/textured, ink-outlined, flat styles; hair
strands, weapon tips, translucent capes and magic) are rendered at supersampled
resolution through an id map (painter's order), box-filtered down to coverage alpha
and straight colour, motion blurred by averaging sub-frame renders, and composited
onto a non-flat green or blue screen (gradient, vignette, cloth mottle, per-frame
noise, flicker, soft contact shadow) with light wrap on the opaque rim.  The video is
converted to BT.601 limited-range yuv420p in numpy and encoded with single-threaded
libx264 so the bytes are reproducible.

    python trials/trial22.py [SUBSTRING]     (TRIAL_OUT overrides the output folder)
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

cv2.setNumThreads(1)
F32 = np.float32
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("TRIAL_OUT") or os.path.join(HERE, "_out", "trial22")
SHEET = os.environ.get("TRIAL22_SHEET")  # optional folder for contact sheets (debug)
SHIFT = 4  # sub-pixel bits for cv2 polygon drawing


def hexc(s):
    s = s.lstrip("#")
    return np.array([int(s[i:i + 2], 16) for i in (0, 2, 4)], F32) / 255.0


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def dvec(a):
    """Unit vector at angle a measured from straight down, positive = forward (+x)."""
    return np.array([math.sin(a), math.cos(a)])


def capsule(p0, p1, r0, r1, n=7):
    p0 = np.asarray(p0, float)
    p1 = np.asarray(p1, float)
    d = p1 - p0
    a = math.atan2(d[1], d[0]) if np.hypot(*d) > 1e-9 else math.pi / 2
    t1 = np.linspace(-math.pi / 2, math.pi / 2, n) + a
    t0 = np.linspace(math.pi / 2, 1.5 * math.pi, n) + a
    arc1 = p1 + r1 * np.stack([np.cos(t1), np.sin(t1)], 1)
    arc0 = p0 + r0 * np.stack([np.cos(t0), np.sin(t0)], 1)
    return np.concatenate([arc1, arc0])


def ellipse(c, rx, ry, rot=0.0, n=24, a0=0.0, a1=2 * math.pi):
    t = np.linspace(a0, a1, n, endpoint=(a1 - a0) < 2 * math.pi - 1e-6)
    p = np.stack([rx * np.cos(t), ry * np.sin(t)], 1)
    c_, s_ = math.cos(rot), math.sin(rot)
    return np.asarray(c, float) + p @ np.array([[c_, s_], [-s_, c_]])


def frame_pts(origin, up, fw, pts):
    """Local (forward, up) coordinates to char space."""
    pts = np.asarray(pts, float)
    return np.asarray(origin, float) + pts[:, :1] * fw + pts[:, 1:2] * up


# ----------------------------------------------------------------------------------
# characters
# ----------------------------------------------------------------------------------
BASE_PROP = dict(head=0.095, neck=0.028, torso=0.29, uleg=0.215, lleg=0.205,
                 footh=0.026, foot=0.095, uarm=0.165, larm=0.15, hand=0.034,
                 r_uleg=(0.05, 0.04), r_lleg=(0.037, 0.029), r_uarm=(0.034, 0.029),
                 r_larm=(0.029, 0.024), sh_w=0.2, waist_w=0.15)
CHIBI_PROP = dict(head=0.165, neck=0.02, torso=0.21, uleg=0.14, lleg=0.13,
                  footh=0.028, foot=0.09, uarm=0.12, larm=0.11, hand=0.036,
                  r_uleg=(0.05, 0.042), r_lleg=(0.042, 0.034), r_uarm=(0.034, 0.03),
                  r_larm=(0.031, 0.027), sh_w=0.2, waist_w=0.17)


def make_char(spec, seed):
    ch = dict(BASE_PROP)
    if spec.get("chibi"):
        ch.update(CHIBI_PROP)
    ch.update(spec)
    ch["col"] = {k: hexc(v) for k, v in spec["colors"].items()}
    rng = np.random.default_rng(seed)
    strands = []
    hs = spec.get("strands")
    if hs:
        lo, hi = hs.get("arc", (-100, 200))
        for i in range(hs["n"]):
            strands.append(dict(
                phi=math.radians(rng.uniform(lo, hi)),
                length=hs["len"] * rng.uniform(0.55, 1.25),
                curl=rng.uniform(-0.12, 0.12),
                stiff=rng.uniform(0.15, 0.45) * hs.get("stiff", 1.0),
                ph=rng.uniform(0, 2 * math.pi),
                front=False,
                light=rng.uniform(-0.08, 0.12)))
            # strands rooted on the face side pass behind the head, the rest may lie over it
            strands[-1]["front"] = bool(rng.random() < hs.get("front", 0.5)) and math.cos(strands[-1]["phi"]) < 0.2
    ch["strand_list"] = strands
    if spec.get("texture"):
        n = rng.standard_normal((64, 64)).astype(F32)
        lo_ = cv2.resize(rng.standard_normal((8, 8)).astype(F32), (256, 256), interpolation=cv2.INTER_CUBIC)
        hi_ = cv2.resize(n, (256, 256), interpolation=cv2.INTER_LINEAR)
        fine = rng.standard_normal((256, 256)).astype(F32)
        tex = 0.45 * lo_ + 0.4 * hi_ + 0.35 * cv2.GaussianBlur(fine, (0, 0), 0.8)
        ch["tex"] = (tex / (tex.std() + 1e-6)).astype(F32)
    return ch


class Builder:
    def __init__(self):
        self.parts = []   # opaque, painter's order
        self.fxb = []     # translucent, behind
        self.fxf = []     # translucent, in front
        self.kp = []      # key points for motion measurement

    def add(self, pts, col, shade=True, outline=True, lines=None, th=None):
        self.parts.append(dict(pts=pts, col=np.asarray(col, F32), shade=shade,
                               outline=outline, lines=lines, th=th))


def build(ch, P):
    """Character in char space (x forward, y down, origin on the ground under the hip)."""
    H = ch["H"]
    u = lambda k: np.asarray(ch[k], float) * H  # noqa: E731
    C = ch["col"]
    B = Builder()
    dim = lambda c, k=0.8: np.clip(np.asarray(c) * k, 0, 1)  # noqa: E731

    # legs relative to the hip
    legs = {}
    for s in "bf":
        a = P["th_" + s]
        knee = dvec(a) * u("uleg")
        a2 = a - P["kn_" + s]
        ankle = knee + dvec(a2) * u("lleg")
        fa = -a2 + P["ft_" + s]
        fd = np.array([math.cos(fa), math.sin(fa)])
        fn = np.array([-fd[1], fd[0]])
        heel = ankle - fd * 0.3 * u("foot") + fn * u("footh")
        toe = ankle + fd * 0.8 * u("foot") + fn * u("footh")
        legs[s] = [knee, ankle, heel, toe, fd, fn]
    low = max(max(l_[2][1], l_[3][1]) for l_ in legs.values())
    hip = np.array([P["rx"] * H, -low - P["lift"] * H])
    for s in legs:
        for j in range(4):
            legs[s][j] = legs[s][j] + hip

    L = P["lean"]
    up = np.array([math.sin(L), -math.cos(L)])
    fw = np.array([math.cos(L), math.sin(L)])
    T = u("torso")
    neck = hip + up * T
    ha = L + P["head"]
    hup = np.array([math.sin(ha), -math.cos(ha)])
    hfw = np.array([math.cos(ha), math.sin(ha)])
    r = u("head")
    hc = neck + hup * (u("neck") + r * 0.9)
    sh = {"f": hip + up * T * 0.86 + fw * 0.005 * H, "b": hip + up * T * 0.86 - fw * 0.025 * H}
    arms = {}
    for s in "bf":
        a = P["sh_" + s]
        el = sh[s] + dvec(a) * u("uarm")
        a2 = a + P["el_" + s]
        wr = el + dvec(a2) * u("larm")
        arms[s] = (sh[s], el, wr, a2)

    def arm(s, k):
        shp, el, wr, a2 = arms[s]
        sl = C.get("sleeve", C["shirt"])
        lo_col = C["skin"] if ch.get("short_sleeves") else sl
        B.add(capsule(shp, el, u("r_uarm")[0] * 1.05, u("r_uarm")[1]), dim(sl, k))
        B.add(capsule(el, wr, u("r_larm")[0], u("r_larm")[1]), dim(lo_col, k))
        if ch.get("cuff"):
            B.add(capsule(wr - dvec(a2) * 0.02 * H, wr, u("r_larm")[1] * 1.25, u("r_larm")[1] * 1.25), dim(C["cuff"], k))
        hand = wr + dvec(a2) * u("hand") * 0.55
        B.add(ellipse(hand, u("hand"), u("hand") * 0.9, n=14), dim(C.get("glove", C["skin"]), k))
        return hand

    def leg(s, k):
        knee, ankle, heel, toe, fd, fn = legs[s]
        pc = C["pants"]
        B.add(capsule(hip + (0, -0.01 * H), knee, u("r_uleg")[0], u("r_uleg")[1]), dim(pc, k))
        B.add(capsule(knee, ankle, u("r_lleg")[0], u("r_lleg")[1]), dim(pc, k))
        bc = C["boots"]
        cuff_top = ankle + (knee - ankle) * 0.32
        B.add(capsule(cuff_top, ankle, u("r_lleg")[1] * 1.18, u("r_lleg")[1] * 1.05), dim(bc, k))
        fh = u("footh")
        foot = np.array([ankle - fd * 0.32 * u("foot") - fn * fh * 0.9,
                         ankle + fd * 0.45 * u("foot") - fn * fh * 0.5,
                         toe - fd * 0.05 * u("foot") - fn * fh * 0.3,
                         toe + fd * 0.02 * u("foot") + fn * fh * 0.2,
                         toe + fn * fh * 0.05 - fd * 0.02 * u("foot"),
                         heel + fn * 0.0, heel - fd * 0.03 * u("foot") - fn * fh * 0.6])
        B.add(foot, dim(bc, k))
        B.kp += [knee, ankle, toe]

    # ---- back arm, back leg
    hb = arm("b", 0.78)
    leg("b", 0.82)
    # ---- cape (opaque or translucent), behind torso
    if ch.get("cape"):
        cp = ch["cape"]
        w = P.get("wind", 0.0)
        hem_y = -0.12 * H
        top = [sh["b"] + fw * 0.02 * H - up * 0.01 * H, neck - fw * 0.05 * H]
        hem = []
        for j in range(7):
            f = j / 6
            x = sh["b"][0] - (0.06 + 0.2 * f + 0.25 * w) * H + 0.02 * H * math.sin(2 * math.pi * (P["t"] * 1.1) + f * 4)
            y = hem_y - (0.04 * f + 0.35 * w * f) * H + 0.01 * H * math.sin(P["t"] * 5 + f * 5)
            hem.append([x + 0.16 * H * (1 - f), y])
        pts = np.array(top + hem[::-1] + [hip - fw * 0.02 * H])
        if cp.get("alpha", 1.0) < 1.0:
            B.fxb.append(("poly", pts, hexc(cp["col"]), cp["alpha"]))
        else:
            B.add(pts, hexc(cp["col"]) * 0.85)
    # ---- torso
    ws, ww = u("sh_w") / 2, u("waist_w") / 2
    tl = [(-ww, -0.02), (ww, -0.02), (ww * 1.05, 0.3), (ws, 0.62), (ws * 0.95, 0.84), (ws * 0.6, 0.97),
          (-ws * 0.5, 1.0), (-ws * 0.95, 0.9), (-ws * 0.9, 0.55), (-ww * 1.05, 0.25)]
    tl = [(f, h * T) for f, h in tl]
    B.add(frame_pts(hip, up, fw, tl), C["shirt"])
    if "accent" in C and ch.get("emblem", True):
        em = [(-ws * 0.2, 0.97 * T), (ws * 0.55, 0.96 * T), (ws * 0.75, 0.86 * T), (ws * 0.2, 0.8 * T),
              (-ws * 0.35, 0.88 * T)]
        B.add(frame_pts(hip, up, fw, em), C["accent"])
        em2 = [(ws * 0.55, 0.84 * T), (ws * 0.8, 0.84 * T), (ww * 0.95, 0.16 * T), (ww * 0.75, 0.16 * T)]
        B.add(frame_pts(hip, up, fw, em2), C["accent"], shade=False)
    leg("f", 1.0)
    # pelvis / shorts top and belt
    B.add(frame_pts(hip, up, fw, ellipse((0, 0.02 * H), ww * 1.08, 0.07 * H, n=18)), C["pants"])
    if ch.get("robe"):
        kf, kb = legs["f"][0], legs["b"][0]
        hx0 = min(kf[0], kb[0]) - 0.06 * H
        hx1 = max(kf[0], kb[0]) + 0.07 * H
        hy = max(kf[1], kb[1]) + 0.08 * H
        robe = np.array([hip + up * 0.12 * T - fw * ww * 1.05, hip + up * 0.12 * T + fw * ww * 1.05,
                         [hx1, hy - 0.01 * H], [(hx0 + hx1) / 2, hy + 0.015 * H], [hx0, hy - 0.005 * H]])
        B.add(robe, C["robe"])
    if "belt" in C:
        bl = [(-ww * 1.08, 0.06 * T), (ww * 1.1, 0.06 * T), (ww * 1.1, 0.14 * T), (-ww * 1.08, 0.14 * T)]
        B.add(frame_pts(hip, up, fw, bl), C["belt"])
        bk = [(ww * 0.55, 0.05 * T), (ww * 1.12, 0.05 * T), (ww * 1.12, 0.15 * T), (ww * 0.55, 0.15 * T)]
        B.add(frame_pts(hip, up, fw, bk), C.get("buckle", C["belt"] * 1.4), outline=False)
    # ---- neck, hair back, head
    B.add(capsule(neck - up * 0.02 * H, neck + up * u("neck") * 1.2, 0.026 * H, 0.024 * H), C["skin"])
    hair = ch.get("hair", "short")
    hcol = C.get("hair", C["skin"])
    if hair == "long":
        sway = 0.02 * H * math.sin(P["t"] * 2.2) - P.get("wind", 0) * 0.1 * H
        pts = np.concatenate([ellipse(hc, r * 1.08, r * 1.05, n=16, a0=math.radians(-100), a1=math.radians(-190)),
                              [hc - hfw * r * 1.15 + hup * (-1.6 * r) + (sway, 0),
                               hc - hfw * r * 0.85 + hup * (-2.3 * r) + (sway * 1.4, 0),
                               hc - hfw * r * 0.25 + hup * (-1.9 * r) + (sway, 0),
                               hc + hup * (-0.5 * r)]])
        B.add(pts, dim(hcol, 0.85))
    strands = ch["strand_list"]
    sc = ch.get("strands", {})

    def strand_lines(front):
        lines = []
        w = P.get("wind", 0.0)
        for s_ in strands:
            if s_["front"] != front:
                continue
            a = s_["phi"] + ha
            p = hc + r * 1.0 * np.array([math.cos(a), math.sin(a)])
            th = a
            seg = s_["length"] * H / 6
            pts = [p]
            tgt = math.pi / 2 * (1 - min(w, 1)) + math.pi * min(w, 1) + sc.get("bias", 0.25)
            for k in range(6):
                sway = 0.13 * math.sin(P["t"] * 3.1 + s_["ph"] + k * 0.6) * (k + 1) / 6
                th = th + (tgt - th) * s_["stiff"] + s_["curl"] + sway * 0.35
                p = p + seg * np.array([math.cos(th), math.sin(th)])
                pts.append(p)
            lines.append(np.array(pts))
            B.kp.append(p)
        return lines

    if strands:
        bl_ = strand_lines(False)
        if bl_:
            B.add(None, np.clip(hcol * 0.9, 0, 1), shade=False, outline=False, lines=bl_, th=sc.get("th", 0.5))
    ears = ch.get("ears")
    if ears == "pointy":
        ep = np.array([hc - hfw * 0.1 * r + hup * 0.15 * r, hc - hfw * 0.75 * r + hup * 0.95 * r,
                       hc - hfw * 0.35 * r - hup * 0.2 * r])
        B.add(ep, C["skin"] * 0.92)
    B.add(ellipse(hc, r, r * 0.98, rot=-ha, n=30), C["skin"])
    # nose, ear, face
    B.add(np.array([hc + hfw * 0.9 * r + hup * 0.05 * r, hc + hfw * 1.12 * r - hup * 0.12 * r,
                    hc + hfw * 0.92 * r - hup * 0.28 * r]), C["skin"])
    if ears != "pointy" and hair != "long":
        B.add(ellipse(hc - hfw * 0.22 * r - hup * 0.02 * r, 0.15 * r, 0.21 * r, rot=-ha, n=12), C["skin"] * 0.9)
    eye_c = hc + hfw * 0.5 * r + hup * 0.08 * r
    es = 1.6 if ch.get("chibi") else 1.0
    if ch.get("eye_white", True):
        B.add(ellipse(eye_c, 0.13 * r * es, 0.19 * r * es, rot=-ha, n=14), hexc("f4f4f0"), shade=False, outline=False)
    B.add(ellipse(eye_c + hfw * 0.04 * r, 0.08 * r * es, 0.15 * r * es, rot=-ha, n=12), C.get("eye", hexc("1c1a22")),
          shade=False, outline=False)
    B.add(capsule(hc + hfw * 0.55 * r - hup * 0.5 * r, hc + hfw * 0.78 * r - hup * 0.45 * r, 0.025 * r, 0.025 * r, n=4),
          hexc("5a2a28"), shade=False, outline=False)
    # hair cap / hats
    if hair in ("short", "long", "spiky"):
        outer = ellipse(hc, r * 1.08, r * 1.06, rot=-ha, n=22, a0=math.radians(-30), a1=math.radians(-225))
        fr = [hc + hfw * 0.2 * r + hup * 0.45 * r, hc - hfw * 0.3 * r + hup * 0.25 * r, hc - hfw * 0.85 * r - hup * 0.2 * r]
        pts = np.concatenate([outer, fr[::-1]]) if hair != "long" else np.concatenate(
            [outer, [hc - hfw * 1.0 * r - hup * 0.6 * r], fr[::-1]])
        if hair == "spiky":
            sp = []
            for j, ang in enumerate(np.linspace(-20, -215, 9)):
                a = math.radians(ang) + ha
                d = np.array([math.cos(a), math.sin(a)])
                nrm = np.array([-d[1], d[0]])
                sp.append(hc + d * r * 1.0 - nrm * 0.2 * r)
                sp.append(hc + d * r * (1.55 + 0.15 * (j % 2)) + nrm * 0.1 * r + (-P.get("wind", 0) * 0.2 * r, 0))
            sp.append(hc - hfw * 0.9 * r - hup * 0.3 * r)
            pts = np.concatenate([np.array(sp), fr[::-1]])
        B.add(pts, hcol)
    hat = ch.get("hat")
    if hat == "helmet":
        hm = C["helmet"]
        B.add(ellipse(hc + hup * 0.05 * r, r * 1.14, r * 1.1, rot=-ha, n=22, a0=math.radians(-5), a1=math.radians(-200)), hm)
        B.add(np.array([hc + hfw * 1.2 * r + hup * 0.12 * r, hc - hfw * 1.15 * r + hup * 0.12 * r,
                        hc - hfw * 1.15 * r - hup * 0.05 * r, hc + hfw * 1.2 * r - hup * 0.05 * r]), hm * 0.85)
        B.add(capsule(hc + hup * 1.0 * r, hc + hup * 1.45 * r - hfw * 0.3 * r, 0.1 * r, 0.05 * r), C.get("plume", hm))
    elif hat == "wizard":
        hm = C["hat"]
        tip = hc + hup * 2.6 * r - hfw * (1.1 + 0.15 * math.sin(P["t"] * 2)) * r
        B.add(np.array([hc + hfw * 0.95 * r + hup * 0.35 * r, hc + hup * 1.3 * r + hfw * 0.1 * r, tip,
                        hc - hfw * 0.9 * r + hup * 0.5 * r]), hm)
        B.add(ellipse(hc + hup * 0.38 * r, r * 1.6, r * 0.28, rot=-ha, n=20), hm * 0.8)
    elif hat == "hood":
        hm = C["hat"]
        B.add(np.concatenate([ellipse(hc, r * 1.2, r * 1.18, rot=-ha, n=20, a0=math.radians(-10), a1=math.radians(-250)),
                              [hc - hfw * 0.4 * r - hup * 1.2 * r, hc + hfw * 0.3 * r - hup * 0.95 * r,
                               hc + hfw * 0.2 * r + hup * 0.6 * r]]), hm)
    if ch.get("antenna"):
        lines = []
        for j, off in enumerate((-0.2, 0.25)):
            base = hc + hup * 0.95 * r + hfw * off * r
            ang = -math.pi / 2 - ha - 0.35 + off + 0.12 * math.sin(P["t"] * 4 + j)
            mid = base + 0.9 * r * np.array([math.cos(ang), math.sin(ang)])
            end = mid + 0.7 * r * np.array([math.cos(ang - 0.5), math.sin(ang - 0.5)])
            lines.append(np.array([base, mid, end]))
            B.kp.append(end)
            B.add(ellipse(end, 0.13 * r, 0.13 * r, n=12), C["accent"])
        B.add(None, C["skin"] * 0.8, shade=False, outline=False, lines=lines, th=ch.get("antenna_th", 0.9))
    if strands:
        fl = strand_lines(True)
        if fl:
            B.add(None, np.clip(hcol * 1.12 + 0.03, 0, 1), shade=False, outline=False, lines=fl, th=sc.get("th", 0.5))
    # ---- front arm with weapon
    shp, el, wr, a2 = arms["f"]
    wa = a2 + P["grip"]
    wd = dvec(wa)
    hand = wr + dvec(a2) * u("hand") * 0.55
    sl = C.get("sleeve", C["shirt"])
    B.add(capsule(shp, el, u("r_uarm")[0] * 1.05, u("r_uarm")[1]), sl)
    if ch.get("pauldron"):
        B.add(ellipse(shp + up * 0.005 * H, 0.06 * H, 0.045 * H, rot=-L, n=16), C["helmet"])
    B.add(capsule(el, wr, u("r_larm")[0], u("r_larm")[1]), C["skin"] if ch.get("short_sleeves") else sl)
    if ch.get("cuff"):
        B.add(capsule(wr - dvec(a2) * 0.02 * H, wr, u("r_larm")[1] * 1.25, u("r_larm")[1] * 1.25), C["cuff"])
    weapon = ch.get("weapon")
    if weapon:
        tip = draw_weapon(B, weapon, hand, wd, H, C)
        B.kp.append(tip)
    B.add(ellipse(hand, u("hand"), u("hand") * 0.9, n=14), C.get("glove", C["skin"]))
    B.kp += [hip, neck, hc, el, wr, arms["b"][1], arms["b"][2], hb]
    # ---- effects
    fx = P.get("fx", 0.0)
    if fx > 0.01 and ch.get("orb"):
        ob = ch["orb"]
        if weapon == "staff":
            oc = hand + wd * 0.36 * H
        else:
            oc = (hand + hb) / 2 + fw * 0.09 * H
        R = (0.05 + 0.05 * fx + 0.01 * math.sin(P["t"] * 9)) * H
        B.fxf.append(("glow", oc, R, hexc(ob["core"]), hexc(ob["edge"]), min(1.0, 0.4 + 0.6 * fx)))
        for j in range(ob.get("sparks", 0)):
            a = P["t"] * (2.5 + 0.3 * j) + j * 2.1
            rr = R * (1.5 + 0.5 * math.sin(j * 1.7 + P["t"] * 3))
            c = oc + rr * np.array([math.cos(a), 0.6 * math.sin(a)])
            s = 0.012 * H * (0.7 + 0.3 * math.sin(P["t"] * 7 + j))
            star = np.array([c + (0, -2.2 * s), c + (0.5 * s, -0.5 * s), c + (2.2 * s, 0), c + (0.5 * s, 0.5 * s),
                             c + (0, 2.2 * s), c + (-0.5 * s, 0.5 * s), c + (-2.2 * s, 0), c + (-0.5 * s, -0.5 * s)])
            B.fxf.append(("poly", star, hexc(ob["spark"]), 0.85 * fx))
            B.kp.append(c)
        B.kp.append(oc)
    if ch.get("wisps"):
        wc = hexc(ch["wisps"])
        for j in range(3):
            f = j / 2
            base = hip + up * (0.1 + 0.25 * f) * T - fw * ws * 0.8
            pts = [base + up * 0.04 * H, base - up * 0.04 * H]
            for k in range(1, 6):
                tt = k / 5
                x = base[0] - (0.06 + 0.18 * tt + 0.1 * P.get("wind", 0)) * H
                y = base[1] + 0.03 * H * math.sin(P["t"] * 3 + k * 0.9 + j * 2) + tt * 0.05 * H
                pts.insert(1 + (k - 1), np.array([x, y - 0.025 * H * (1 - tt)]))
                pts.append(np.array([x + 0.01 * H, y + 0.025 * H * (1 - tt)]))
            B.fxb.append(("poly", np.array(pts), wc, 0.45 + 0.1 * j))
    B.feet = (legs["b"][2], legs["b"][3], legs["f"][2], legs["f"][3])
    return B


def draw_weapon(B, kind, hand, wd, H, C):
    nrm = np.array([-wd[1], wd[0]])
    steel, hilt = C.get("steel", hexc("c9ced6")), C.get("hilt", hexc("6b4a2b"))
    if kind in ("sword", "dagger"):
        Lb = 0.4 * H if kind == "sword" else 0.17 * H
        wb = 0.034 * H if kind == "sword" else 0.03 * H
        g0 = hand - wd * 0.07 * H
        gd = hand + wd * 0.04 * H
        B.add(capsule(g0, gd, 0.014 * H, 0.014 * H, n=5), hilt)
        B.add(ellipse(g0, 0.02 * H, 0.02 * H, n=10), C.get("accent", hilt))
        tip = gd + wd * Lb
        blade = np.array([gd + nrm * wb / 2, gd + wd * Lb * 0.84 + nrm * wb * 0.45, tip,
                          gd + wd * Lb * 0.84 - nrm * wb * 0.45, gd - nrm * wb / 2])
        B.add(blade, steel)
        B.add(np.array([gd + nrm * wb * 0.08, gd + wd * Lb * 0.8 + nrm * wb * 0.06, gd + wd * Lb * 0.8,
                        gd]), np.clip(steel * 1.15 + 0.05, 0, 1), shade=False, outline=False)
        B.add(capsule(gd - nrm * 0.065 * H, gd + nrm * 0.065 * H, 0.013 * H, 0.013 * H, n=5), C.get("guard", hexc("c8a030")))
        return tip
    if kind == "axe":
        h0 = hand - wd * 0.12 * H
        h1 = hand + wd * 0.42 * H
        B.add(capsule(h0, h1, 0.014 * H, 0.013 * H, n=5), hilt)
        c = hand + wd * 0.35 * H
        head = np.array([c - wd * 0.05 * H, c - wd * 0.06 * H + nrm * 0.06 * H, c - wd * 0.13 * H + nrm * 0.17 * H,
                         c - wd * 0.0 * H + nrm * 0.14 * H, c + wd * 0.13 * H + nrm * 0.17 * H,
                         c + wd * 0.06 * H + nrm * 0.06 * H, c + wd * 0.05 * H, c + wd * 0.03 * H - nrm * 0.05 * H,
                         c - wd * 0.03 * H - nrm * 0.05 * H])
        B.add(head, steel)
        return c + wd * 0.13 * H + nrm * 0.17 * H
    if kind == "spear":
        h0 = hand - wd * 0.3 * H
        h1 = hand + wd * 0.55 * H
        B.add(capsule(h0, h1, 0.008 * H, 0.008 * H, n=4), hilt)
        tip = h1 + wd * 0.14 * H
        B.add(np.array([h1 - nrm * 0.022 * H, h1 + wd * 0.03 * H - nrm * 0.026 * H, tip,
                        h1 + wd * 0.03 * H + nrm * 0.026 * H, h1 + nrm * 0.022 * H]), steel)
        B.add(None, C.get("accent", hilt), shade=False, outline=False,
              lines=[np.array([h1, h1 - wd * 0.02 * H - nrm * 0.05 * H, h1 - wd * 0.07 * H - nrm * 0.06 * H])], th=0.8)
        return tip
    if kind == "staff":
        h0 = hand - wd * 0.33 * H
        h1 = hand + wd * 0.3 * H
        B.add(capsule(h0, h1, 0.012 * H, 0.015 * H, n=5), hilt)
        for sgn in (-1, 1):
            B.add(capsule(h1, h1 + wd * 0.07 * H + nrm * sgn * 0.035 * H, 0.007 * H, 0.004 * H, n=4), C.get("guard", hilt))
        gem = h1 + wd * 0.05 * H
        B.add(ellipse(gem, 0.022 * H, 0.03 * H, rot=-math.atan2(wd[0], wd[1]), n=14), C.get("gem", hexc("e04080")),
              outline=False)
        return h1 + wd * 0.1 * H
    raise ValueError(kind)


# ----------------------------------------------------------------------------------
# actions
# ----------------------------------------------------------------------------------
REST = dict(rx=0.0, lift=0.0, lean=0.03, head=0.0,
            th_f=0.1, kn_f=0.06, ft_f=0.0, th_b=-0.08, kn_b=0.04, ft_b=0.0,
            sh_f=0.15, el_f=0.35, sh_b=-0.12, el_b=0.25, grip=2.3, wind=0.0, fx=0.0)


def lerp_pose(a, b, k):
    return {key: a[key] + (b[key] - a[key]) * k if key in a and key != "t" else b[key] for key in b}


def keyframes(u, keys):
    """keys: list of (u, dict); smoothstep interpolation between neighbours."""
    for (u0, p0), (u1, p1) in zip(keys, keys[1:]):
        if u0 <= u <= u1:
            return lerp_pose(p0, p1, smooth((u - u0) / max(u1 - u0, 1e-9)))
    return dict(keys[-1][1])


def pose_walk(t, a, base=REST):
    per = a.get("period", 1.0)
    ph = 2 * math.pi * t / per
    amp = a.get("amp_env", lambda t: 1.0)(t)
    run = a.get("run", False)
    A = (0.75 if run else 0.42) * amp
    K = (1.5 if run else 0.75) * amp
    Aa = (0.85 if run else 0.38) * amp
    d = dict(base)
    d.update(th_f=A * math.sin(ph), th_b=A * math.sin(ph + math.pi),
             kn_f=0.08 + K * max(0.0, math.cos(ph)) ** 1.3 + (0.25 * amp if run else 0),
             kn_b=0.08 + K * max(0.0, math.cos(ph + math.pi)) ** 1.3 + (0.25 * amp if run else 0),
             ft_f=-0.2 * math.sin(ph) * amp, ft_b=-0.2 * math.sin(ph + math.pi) * amp,
             sh_f=-Aa * math.sin(ph) + (0.25 if run else 0.05),
             sh_b=-Aa * math.sin(ph + math.pi) + (0.25 if run else 0.0),
             el_f=(1.55 if run else 0.35 + 0.2 * (1 + math.sin(ph)) / 2),
             el_b=(1.55 if run else 0.3 + 0.2 * (1 + math.sin(ph + math.pi)) / 2),
             lean=(0.22 if run else 0.06) * amp + 0.03,
             head=-0.05 * amp if run else 0.02 * math.sin(2 * ph),
             lift=(0.035 * max(0.0, math.sin(2 * ph - 0.6)) * amp if run else 0.0),
             wind=(0.55 if run else 0.12) * amp, grip=a.get("grip", 2.3))
    return d


def pose_idle(t, a):
    br = math.sin(2 * math.pi * t / a.get("period", 2.4))
    d = dict(REST)
    d.update(lean=0.03 + 0.015 * br, head=0.03 * math.sin(2 * math.pi * t / 3.1),
             kn_f=0.06 + 0.05 * (1 + br) / 2, kn_b=0.04 + 0.05 * (1 + br) / 2,
             th_f=0.1 + 0.025 * (1 + br) / 2, th_b=-0.08 + 0.02 * (1 + br) / 2,
             sh_f=0.15 + 0.05 * br, sh_b=-0.12 - 0.04 * br, el_f=0.35 + 0.08 * br,
             wind=0.05 + 0.05 * math.sin(t * 1.7), grip=a.get("grip", 2.3) + 0.04 * br)
    return d


def pose_attack(t, a):
    per = a.get("period", 1.0)
    u = (t % per) / per
    kind = a.get("style", "overhead")
    R = dict(REST)
    if kind == "thrust":
        guard = dict(R, sh_f=0.7, el_f=1.5, sh_b=0.4, el_b=1.2, th_f=0.35, kn_f=0.35, th_b=-0.3, kn_b=0.2,
                     lean=0.05, grip=0.0)
        back = dict(guard, sh_f=0.35, el_f=1.9, lean=-0.05, rx=-0.03, th_f=0.3)
        hit = dict(guard, sh_f=1.45, el_f=0.08, lean=0.3, rx=0.06, th_f=0.65, kn_f=0.7, th_b=-0.45)
        keys = [(0, guard), (0.4, back), (0.52, hit), (0.7, hit), (1.0, guard)]
        d = keyframes(u, keys)
        d["grip"] = 1.62 - (d["sh_f"] + d["el_f"])
        return d
    guard = dict(R, sh_f=0.35, el_f=1.1, sh_b=0.3, el_b=0.9, th_f=0.32, kn_f=0.3, th_b=-0.28, kn_b=0.18,
                 lean=0.06, grip=1.5)
    wind = dict(guard, sh_f=3.5, el_f=1.0, grip=1.1, lean=-0.14, sh_b=0.7, el_b=0.6, rx=-0.02, head=0.1)
    hit = dict(guard, sh_f=1.45, el_f=0.1, grip=0.35, lean=0.34, sh_b=-0.5, el_b=0.5, th_f=0.62, kn_f=0.65,
               th_b=-0.45, kn_b=0.15, rx=0.05, head=-0.08)
    follow = dict(hit, sh_f=0.85, el_f=0.2, grip=0.25, lean=0.3)
    keys = [(0, guard), (0.38, wind), (0.5, hit), (0.62, follow), (0.75, follow), (1.0, guard)]
    return keyframes(u, keys)


def pose_skill(t, a):
    per = a.get("period", 2.5)
    u = (t % per) / per
    R = dict(REST)
    ready = dict(R, fx=0.0)
    raise_ = dict(R, sh_f=1.75, el_f=0.35, sh_b=1.55, el_b=0.5, lean=-0.06, head=-0.1, fx=0.7,
                  grip=math.pi - 1.75 - 0.35 - 0.15, th_f=0.2, th_b=-0.15, wind=0.3)
    peak = dict(raise_, sh_f=2.2, el_f=0.2, sh_b=1.9, lean=-0.1, fx=1.0, grip=math.pi - 2.2 - 0.2 - 0.1, wind=0.6)
    keys = [(0, ready), (0.3, raise_), (0.55, peak), (0.7, peak), (1.0, ready)]
    d = keyframes(u, keys)
    if a.get("weapon") != "staff":
        d["grip"] = R["grip"]
    return d


def pose_hurt(t, a):
    d = dict(REST)
    k = 0.0
    for th in a.get("hits", (0.5,)):
        if t > th:
            x = (t - th) / 0.12
            k += x * math.exp(1 - x)
    k = min(k, 1.3)
    wob = math.sin(t * 30) * 0.04 * min(k, 1)
    d.update(lean=0.03 - 0.42 * k, head=-0.35 * k + wob, sh_f=0.15 + 0.9 * k, el_f=0.35 + 0.7 * k,
             sh_b=-0.12 + 1.1 * k, el_b=0.25 + 0.6 * k, rx=-0.07 * k, th_f=0.1 + 0.35 * k, kn_f=0.06 + 0.4 * k,
             th_b=-0.08 - 0.1 * k, kn_b=0.04 + 0.3 * k, wind=0.3 * k, grip=2.3 - 0.5 * k)
    return d


ACTIONS = dict(idle=pose_idle, walk=pose_walk, run=lambda t, a: pose_walk(t, dict(a, run=True)),
               attack=pose_attack, skill=pose_skill, hurt=pose_hurt)


def scene_at(cs, t):
    """Pose, world root x, ground y and facing scale at time t."""
    act = cs["action"]
    a = dict(cs.get("act", {}))
    a.setdefault("weapon", cs["char"].get("weapon"))
    rest = dict(REST, grip=a.get("grip", REST["grip"]))
    t_in = a.get("t_in", 0.3)
    k = smooth(t / t_in)
    P = lerp_pose(rest, ACTIONS[act](t, a), k)
    P["t"] = t
    x0, gy = cs["root"]
    v = cs.get("speed", 0.0)
    turn = cs.get("turn")
    fs = 1.0
    if turn:
        t1, dur = turn
        x = x0 + v * min(t, t1) - v * max(0.0, t - t1 - dur)
        if t1 <= t <= t1 + dur:
            c = math.cos(math.pi * (t - t1) / dur)
            fs = math.copysign(max(abs(c), 0.45), c)
        elif t > t1 + dur:
            fs = -1.0
    else:
        x = x0 + v * (t * t / (2 * t_in) if t < t_in else t - t_in / 2)
    return P, x, gy, fs * cs.get("facing", 1.0)


# ----------------------------------------------------------------------------------
# rendering
# ----------------------------------------------------------------------------------
def shifted(a, dx, dy):
    """out[y, x] = a[y + dy, x + dx], zero outside."""
    out = np.zeros_like(a)
    h, w = a.shape[:2]
    if abs(dx) >= w or abs(dy) >= h:
        return out
    out[max(0, -dy):h - max(0, dy), max(0, -dx):w - max(0, dx)] = \
        a[max(0, dy):h - max(0, -dy), max(0, dx):w - max(0, -dx)]
    return out


def to_world(pts, x0, gy, fs):
    pts = np.asarray(pts, float)
    return np.stack([x0 + fs * pts[:, 0], gy + pts[:, 1]], 1)


def world_bbox(B, x0, gy, fs):
    allp = [to_world(p["pts"], x0, gy, fs) for p in B.parts if p["pts"] is not None]
    allp += [to_world(ln, x0, gy, fs) for p in B.parts if p["lines"] for ln in p["lines"]]
    allp += [to_world(f[1], x0, gy, fs) for f in B.fxb + B.fxf if f[0] == "poly"]
    pts = np.concatenate(allp)
    lo, hi = pts.min(0), pts.max(0)
    for f in B.fxf:
        if f[0] == "glow":
            c = to_world([f[1]], x0, gy, fs)[0]
            lo = np.minimum(lo, c - 2.6 * f[2])
            hi = np.maximum(hi, c + 2.6 * f[2])
    return lo, hi


def render_sample(ch, B, x0, gy, fs, crop, ss):
    """Premultiplied RGBA (h, w, 4) float32 of one instant, over the crop."""
    cx0, cy0, w, h = crop
    hs, ws_ = h * ss, w * ss
    sc = float(1 << SHIFT)

    def ssp(pts):
        wp = to_world(pts, x0, gy, fs)
        return np.round(((wp - (cx0, cy0)) * ss - 0.5) * sc).astype(np.int32)

    idm = np.zeros((hs, ws_), np.uint8)
    n = len(B.parts)
    lut = np.zeros((n + 1, 3), F32)
    shade_ok = np.zeros(n + 1, bool)
    ol_ok = np.zeros(n + 1, bool)
    for i, p in enumerate(B.parts, 1):
        lut[i] = p["col"]
        shade_ok[i] = p["shade"]
        ol_ok[i] = p["outline"]
        if p["lines"] is not None:
            th = max(1, int(round(p["th"] * ss)))
            cv2.polylines(idm, [ssp(ln) for ln in p["lines"]], False, i, thickness=th, lineType=cv2.LINE_8, shift=SHIFT)
        else:
            cv2.fillPoly(idm, [ssp(p["pts"])], i, lineType=cv2.LINE_8, shift=SHIFT)
    style = ch["style"]
    H = ch["H"]
    sok = shade_ok[idm]
    ink = hexc(ch.get("ink_col", "1e1826"))
    if style in ("cel", "ink", "shaded"):
        d = max(1, int(round(0.028 * H * ss)))
        shadow = (shifted(idm, d, int(d * 0.6)) != idm) & sok
        hd = max(1, int(round(0.009 * H * ss)))
        high = (shifted(idm, -hd, -hd) != idm) & sok & ~shadow
    if style == "shaded" or "tex" in ch:
        # continuous shade factor, quantised to 63 levels of 1.5 % folded into the colour table
        NL, S0, ST = 64, 0.46, 0.015
        if style == "shaded":
            edge = np.zeros_like(sok)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                edge |= shifted(idm, dx, dy) != idm
            dist = cv2.distanceTransform((~edge).astype(np.uint8), cv2.DIST_L2, 3)
            R = 0.04 * H * ss
            sh_ = 0.64 + 0.36 * np.sqrt(np.minimum(dist / R, 1.0))
            k = max(3, (d // 2) * 2 + 1)
            sh_ *= 1 - 0.28 * cv2.blur(shadow.astype(F32), (k, k))
            sh_ += 0.12 * cv2.blur(high.astype(F32), (k // 2 * 2 + 1, k // 2 * 2 + 1))
        elif style in ("cel", "ink"):
            sh_ = np.where(shadow, F32(0.74), np.where(high, F32(1.1), F32(1.0)))
        else:
            sh_ = np.ones((hs, ws_), F32)
        if "tex" in ch:
            tex = ch["tex"]
            ys = np.floor(np.arange(hs) / ss + cy0 - gy).astype(np.int64) % 256
            xs = np.floor((np.arange(ws_) / ss + cx0 - x0) * fs).astype(np.int64) % 256
            sh_ *= 1 + ch.get("tex_amp", 0.07) * tex[ys[:, None], xs[None, :]]
        tone = np.clip(np.round((sh_ - S0) / ST), 0, NL - 2).astype(np.uint16)
        tone[~sok] = int(round((1 - S0) / ST))
        lev = (S0 + ST * np.arange(NL - 1)).astype(F32)
        lut4 = np.zeros((n + 1, NL, 4), F32)
        lut4[1:, :NL - 1, :3] = lut[1:, None, :] * lev[None, :, None]
        lut4[1:, NL - 1, :3] = ink
    else:
        NL = 4
        tone = np.zeros((hs, ws_), np.uint16)
        if style in ("cel", "ink"):
            tone[shadow] = 1
            tone[high] = 2
        lut4 = np.zeros((n + 1, NL, 4), F32)
        lut4[1:, 0, :3] = lut[1:]
        lut4[1:, 1, :3] = lut[1:] * np.array([0.7, 0.72, 0.84], F32)
        lut4[1:, 2, :3] = lut[1:] * 1.08 + 0.045
        lut4[1:, 3, :3] = ink
    lut4[1:, :, 3] = 1
    if style == "ink":
        rr = max(1, int(round(ch.get("ink", 1.6) * ss)))
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rr + 1, 2 * rr + 1))
        er = cv2.erode(idm, ker, borderType=cv2.BORDER_CONSTANT, borderValue=0)
        np.putmask(tone, (er < idm) & ol_ok[idm], NL - 1)
    np.clip(lut4, 0, 1, out=lut4)
    idx = idm.astype(np.uint16) * NL + tone
    body = lut4.reshape(-1, 4)[idx]
    body = cv2.resize(body, (w, h), interpolation=cv2.INTER_AREA)

    def fx_layer(items):
        acc = np.zeros((h, w, 4), F32)
        for f in items:
            if f[0] == "poly":
                wp = to_world(f[1], x0, gy, fs)
                bx0 = max(0, int(math.floor(wp[:, 0].min() - cx0)) - 1)
                by0 = max(0, int(math.floor(wp[:, 1].min() - cy0)) - 1)
                bx1 = min(w, int(math.ceil(wp[:, 0].max() - cx0)) + 2)
                by1 = min(h, int(math.ceil(wp[:, 1].max() - cy0)) + 2)
                if bx1 <= bx0 or by1 <= by0:
                    continue
                m = np.zeros(((by1 - by0) * ss, (bx1 - bx0) * ss), np.uint8)
                q = np.round(((wp - (cx0 + bx0, cy0 + by0)) * ss - 0.5) * sc).astype(np.int32)
                cv2.fillPoly(m, [q], 255, lineType=cv2.LINE_8, shift=SHIFT)
                cov = cv2.resize(m.astype(F32) * (f[3] / 255), (bx1 - bx0, by1 - by0), interpolation=cv2.INTER_AREA)
                lay = np.empty((by1 - by0, bx1 - bx0, 4), F32)
                lay[..., :3] = cov[..., None] * f[2]
                lay[..., 3] = cov
            else:
                _, c, R, core, edge_c, al = f
                cw = to_world([c], x0, gy, fs)[0]
                bx0 = max(0, int(cw[0] - cx0 - 2.6 * R))
                by0 = max(0, int(cw[1] - cy0 - 2.6 * R))
                bx1 = min(w, int(cw[0] - cx0 + 2.6 * R) + 2)
                by1 = min(h, int(cw[1] - cy0 + 2.6 * R) + 2)
                if bx1 <= bx0 or by1 <= by0:
                    continue
                yy, xx = np.mgrid[by0:by1, bx0:bx1].astype(F32)
                rr_ = np.hypot(xx + cx0 + 0.5 - cw[0], yy + cy0 + 0.5 - cw[1]) / R
                a_ = al * (0.92 * np.clip(1.6 - rr_ * 1.25, 0, 1) ** 0.7 + 0.4 * np.exp(-rr_ ** 2 * 0.8))
                a_ = np.clip(a_, 0, 0.97).astype(F32)
                mix = np.clip(rr_ / 1.3, 0, 1)[..., None]
                lay = np.empty((by1 - by0, bx1 - bx0, 4), F32)
                lay[..., :3] = (core * (1 - mix) + edge_c * mix) * a_[..., None]
                lay[..., 3] = a_
            sub = acc[by0:by1, bx0:bx1]
            sub *= 1 - lay[..., 3:4]
            sub += lay
        return acc

    out = body
    if B.fxf:
        fr = fx_layer(B.fxf)
        out = fr + out * (1 - fr[..., 3:4])
    if B.fxb:
        bk = fx_layer(B.fxb)
        out = out + bk * (1 - out[..., 3:4])
    return out


# ----------------------------------------------------------------------------------
# backdrop
# ----------------------------------------------------------------------------------
class Backdrop:
    def __init__(self, W, H, spec, rng):
        self.W, self.H = W, H
        self.rng = rng
        self.spec = spec
        c0, c1 = hexc(spec["c0"]), hexc(spec["c1"])
        yy, xx = np.mgrid[0:H, 0:W].astype(F32)
        th = math.radians(spec.get("grad_angle", 30))
        diag = math.hypot(W, H)
        g = np.clip(((xx - W / 2) * math.cos(th) + (yy - H / 2) * math.sin(th)) / diag + 0.5, 0, 1)
        base = c0 * (1 - g[..., None]) + c1 * g[..., None]
        cx, cy = W * spec.get("vig_c", (0.5, 0.45))[0], H * spec.get("vig_c", (0.5, 0.45))[1]
        rad = np.hypot((xx - cx) / (W / 2), (yy - cy) / (H / 2)) / math.sqrt(2)
        vig = 1 - spec.get("vignette", 0.2) * rad ** 2
        mott = cv2.resize(rng.standard_normal((max(2, H // 40), max(2, W // 40))).astype(F32), (W, H),
                          interpolation=cv2.INTER_CUBIC)
        wr = cv2.resize(rng.standard_normal((max(2, H // 12), max(2, W // 90))).astype(F32), (W, H),
                        interpolation=cv2.INTER_CUBIC)  # vertical cloth folds
        tex = 1 + spec.get("mottle", 0.02) * (0.7 * mott + 0.5 * wr)
        self.clean = (base * (vig * tex)[..., None]).astype(F32)
        self.noise = spec.get("noise", 0.011)
        self.flick = spec.get("flicker", 0.012)
        self.fph = rng.uniform(0, 6.28)

    def frame(self, i, t, shadow):
        gain = 1 + self.flick * (0.6 * math.sin(2 * math.pi * 1.3 * t + self.fph) + 0.4 * self.rng.standard_normal())
        clean = self.clean * F32(gain)
        img = clean.copy()
        if shadow is not None:
            sx, sy, rx, ry, st = shadow
            x0, x1 = max(0, int(sx - 3 * rx)), min(self.W, int(sx + 3 * rx) + 1)
            y0, y1 = max(0, int(sy - 4 * ry)), min(self.H, int(sy + 4 * ry) + 1)
            if x1 > x0 and y1 > y0:
                yy, xx = np.mgrid[y0:y1, x0:x1].astype(F32)
                s = st * np.exp(-(((xx + 0.5 - sx) / rx) ** 2 + ((yy + 0.5 - sy) / ry) ** 2))
                img[y0:y1, x0:x1] *= (1 - s)[..., None]
        lum = self.rng.standard_normal((self.H, self.W, 1), dtype=F32)
        chn = self.rng.standard_normal((self.H // 2, self.W // 2, 3), dtype=F32)
        chn = np.repeat(np.repeat(chn, 2, 0), 2, 1)
        img += self.noise * (0.85 * lum + 0.55 * chn)
        return img, clean


# ----------------------------------------------------------------------------------
# encoding
# ----------------------------------------------------------------------------------
def rgb_to_yuv420(img):
    img = np.clip(img, 0, 1)
    R, G, B_ = img[..., 0], img[..., 1], img[..., 2]
    Y = 16 + 219 * (0.299 * R + 0.587 * G + 0.114 * B_)
    Cb = 128 + 224 * (-0.168736 * R - 0.331264 * G + 0.5 * B_)
    Cr = 128 + 224 * (0.5 * R - 0.418688 * G - 0.081312 * B_)
    h, w = Y.shape

    def sub(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean((1, 3))

    Yq = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    U = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    V = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([Yq, U.reshape(h // 4, w), V.reshape(h // 4, w)], 0)


class Encoder:
    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(path, "w", format="mp4")
        st = self.c.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.thread_count = 1
        st.options = {"crf": str(crf), "preset": "fast", "threads": "1",
                      "x264-params": "threads=1:lookahead-threads=1:mbtree=0:colorprim=smpte170m:"
                                     "transfer=smpte170m:colormatrix=smpte170m:range=tv"}
        self.st = st
        self.i = 0

    def write(self, img):
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(img), format="yuv420p")
        fr.pts = self.i
        self.i += 1
        for pk in self.st.encode(fr):
            self.c.mux(pk)

    def close(self):
        for pk in self.st.encode():
            self.c.mux(pk)
        self.c.close()


# ----------------------------------------------------------------------------------
# one case
# ----------------------------------------------------------------------------------
def render_case(cs):
    t_start = time.time()
    name = cs["name"]
    W, Hh = cs["size"]
    fps, N = cs["fps"], cs["frames"]
    seed = cs["seed"]
    rng = np.random.default_rng(seed)
    ch = make_char(cs["char"], seed + 1)
    bd = Backdrop(W, Hh, cs["screen"], np.random.default_rng(seed + 2))
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    enc = Encoder(os.path.join(d, "clip.mp4"), W, Hh, fps, cs.get("crf", 20))
    truth = np.zeros((N, Hh, W, 4), np.uint8)
    shutter = cs.get("shutter", 0.5)
    kmax = cs.get("kmax", 14)
    wrap_s, wrap_w = cs.get("wrap", (0.25, 4.0))
    ghost = cs.get("ghost", 0.0)
    bars = cs.get("letterbox", 0)
    prev = None
    sheet = []
    for i in range(N):
        t = i / fps
        P, x0, gy, fs = scene_at(cs, t)
        if i == 0:
            times = [t]
        else:
            half = shutter / fps / 2
            Pa, xa, ga, fa = scene_at(cs, t - half)
            Pb, xb, gb, fb = scene_at(cs, t + half)
            ka = to_world(build(ch, Pa).kp, xa, ga, fa)
            kb = to_world(build(ch, Pb).kp, xb, gb, fb)
            n_ = min(len(ka), len(kb))
            disp = float(np.abs(kb[:n_] - ka[:n_]).max())
            K = 1 if disp < 0.8 else int(min(kmax, math.ceil(disp / 2.5) + 1))
            times = [t] if K == 1 else list(np.linspace(t - half, t + half, K))
        K = len(times)
        ss = cs.get("ss", 4 if ch["H"] < 380 else 3) if K == 1 else (3 if K <= 4 else 2)
        samples = []
        lo, hi = np.array([1e9, 1e9]), np.array([-1e9, -1e9])
        for tt in times:
            Pt, xt, gt, ft = scene_at(cs, tt)
            Bt = build(ch, Pt)
            a, b = world_bbox(Bt, xt, gt, ft)
            lo, hi = np.minimum(lo, a), np.maximum(hi, b)
            samples.append((Bt, xt, gt, ft))
        cx0 = max(0, int(math.floor(lo[0])) - 3)
        cy0 = max(0, int(math.floor(lo[1])) - 3)
        cx1 = min(W, int(math.ceil(hi[0])) + 4)
        cy1 = min(Hh, int(math.ceil(hi[1])) + 4)
        crop = (cx0, cy0, cx1 - cx0, cy1 - cy0)
        acc = np.zeros((crop[3], crop[2], 4), F32)
        for Bt, xt, gt, ft in samples:
            acc += render_sample(ch, Bt, xt, gt, ft, crop, ss)
        acc /= K
        A = acc[..., 3]
        Aq = np.clip(np.round(A * 255), 0, 255).astype(np.uint8)
        Fs = np.where(A[..., None] > 1e-6, acc[..., :3] / np.maximum(A, 1e-6)[..., None], 0)
        Fq = np.clip(np.round(Fs * 255), 0, 255).astype(np.uint8)
        Fq[Aq == 0] = 0
        truth[i, cy0:cy1, cx0:cx1, :3] = Fq
        truth[i, cy0:cy1, cx0:cx1, 3] = Aq
        # contact shadow under the feet (not part of the character)
        B0 = samples[len(samples) // 2][0]
        feet = to_world(np.array(B0.feet), x0, gy, fs)
        lift = max(0.0, gy - feet[:, 1].max())
        sx = float(feet[:, 0].mean())
        rx = 0.2 * ch["H"] * cs.get("shadow_w", 1.0)
        st = cs.get("shadow", 0.3) * math.exp(-lift / (0.06 * ch["H"]))
        img, clean = bd.frame(i, t, (sx, gy + 0.004 * ch["H"], rx, 0.035 * ch["H"] + 0.4 * lift, st))
        # light wrap: backdrop colour mixed into the rim of the character
        a = Aq.astype(F32) / 255
        fcol = Fq.astype(F32) / 255
        dist = cv2.distanceTransform((Aq >= 128).astype(np.uint8), cv2.DIST_L2, 5)
        w = wrap_s * np.clip(1 - dist / wrap_w, 0, 1) ** 1.6
        wrapc = cv2.GaussianBlur(clean[cy0:cy1, cx0:cx1], (0, 0), 2.0)
        fv = fcol * (1 - w[..., None]) + wrapc * w[..., None]
        region = img[cy0:cy1, cx0:cx1]
        img[cy0:cy1, cx0:cx1] = fv * a[..., None] + region * (1 - a[..., None])
        if bars:
            img[:bars] = 0
            img[Hh - bars:] = 0
        comp = img
        if ghost and prev is not None:
            comp = (1 - ghost) * img + ghost * prev
        prev = img
        enc.write(comp)
        if SHEET and i % max(1, N // 8) == 0 and len(sheet) < 8:
            sheet.append((np.clip(comp, 0, 1) * 255).astype(np.uint8))
    enc.close()
    assert (truth[..., 3] > 0).any(axis=(1, 2)).all(), name
    np.savez_compressed(os.path.join(d, "truth.npz"), rgba=truth)
    # portrait: frame 0 truth, cropped to the character with a margin
    a0 = truth[0, ..., 3]
    ys, xs = np.nonzero(a0)
    m = 8
    y0, y1 = max(0, ys.min() - m), min(Hh, ys.max() + m + 1)
    x0_, x1 = max(0, xs.min() - m), min(W, xs.max() + m + 1)
    Image.fromarray(truth[0, y0:y1, x0_:x1], "RGBA").save(os.path.join(d, "portrait.png"))
    meta = {"action": cs["action"], "notes": cs["notes"]}
    if "expect_flags" in cs:
        meta["expect_flags"] = cs["expect_flags"]
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if SHEET:
        os.makedirs(SHEET, exist_ok=True)
        row = np.concatenate(sheet, 1)
        tr = truth[:: max(1, N // 8)][:8]
        trc = [(t_[..., :3].astype(F32) * (t_[..., 3:] / 255.0) + 128 * (1 - t_[..., 3:] / 255.0)).astype(np.uint8)
               for t_ in tr]
        row2 = np.concatenate(trc, 1)
        sh_ = np.concatenate([row, row2], 0)
        sh_ = cv2.resize(sh_, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        cv2.imwrite(os.path.join(SHEET, name + ".png"), cv2.cvtColor(sh_, cv2.COLOR_RGB2BGR))
    return name, time.time() - t_start


# ----------------------------------------------------------------------------------
# the cases
# ----------------------------------------------------------------------------------
SCREENS = {
    "yellow_green": dict(c0="86c43c", c1="6fae34", vignette=0.22, mottle=0.02, noise=0.012, grad_angle=20),
    "green": dict(c0="3fba52", c1="2fa648", vignette=0.28, mottle=0.025, noise=0.011, grad_angle=60),
    "green_bright": dict(c0="48c85a", c1="38b04c", vignette=0.15, mottle=0.015, noise=0.009, grad_angle=-30),
    "blue_green": dict(c0="22b287", c1="1c9c78", vignette=0.25, mottle=0.02, noise=0.012, grad_angle=100),
    "blue": dict(c0="2a55d0", c1="1f45b8", vignette=0.3, mottle=0.02, noise=0.013, grad_angle=45),
    "blue_cyan": dict(c0="1f6fd6", c1="2a62c4", vignette=0.2, mottle=0.018, noise=0.011, grad_angle=-60),
}

CHARS = {
    "ranger": dict(style="cel", hair="short", weapon="dagger", short_sleeves=True,
                   colors=dict(skin="e8b48e", shirt="3f9a3a", sleeve="3f9a3a", pants="6b4a30", boots="3a2a1e",
                               hair="5a3420", belt="2e2018", buckle="d8b040", accent="2f7a2c")),
    "alien": dict(style="ink", hair="none", antenna=True, ink=1.5, eye_white=False,
                  colors=dict(skin="52c7c4", shirt="6a3f9a", pants="4a2f70", boots="2a2a3a", accent="f0d040",
                              belt="2a2a3a", eye="101018", cuff="f0d040"), cuff=True),
    "soldier": dict(style="shaded", texture=True, tex_amp=0.09, hat="helmet", hair="none",
                    colors=dict(skin="d9a47e", shirt="6b6f3a", pants="5e6234", boots="3b3326", helmet="59603a",
                                plume="59603a", belt="3e3424", accent="7d8248")),
    "paladin": dict(style="shaded", hat="helmet", hair="none", weapon="sword", pauldron=True,
                    colors=dict(skin="f3ddd0", shirt="eceae4", sleeve="dedcd6", pants="d8d6d2", boots="c8c4bc",
                                helmet="f4f4f2", plume="fafafa", belt="b8953a", accent="d4b050", steel="e6ebf0",
                                guard="d4b050", glove="e8e6e0")),
    "kid": dict(style="shaded", texture=True, tex_amp=0.05, hair="spiky",
                strands=dict(n=10, len=0.08, th=0.6, arc=(-150, -30), stiff=0.4, bias=-0.9, front=0.6),
                colors=dict(skin="c68a62", shirt="c83a34", sleeve="c83a34", pants="3456a0", boots="e8e8e8",
                            hair="2a1c14", belt="222222", accent="f0f0f0")),
    "mage": dict(style="ink", ink=1.3, hair="long", hat="wizard", weapon="staff", robe=True,
                 strands=dict(n=46, len=0.2, th=0.45, arc=(-120, 200), stiff=1.5, front=0.5),
                 orb=dict(core="fff4fc", edge="ff5ab4", spark="ffe070", sparks=5),
                 colors=dict(skin="f0c8a8", shirt="5a2e78", sleeve="5a2e78", pants="3a1e50", boots="2a1a30",
                             hair="e8e4f0", hat="4a2868", robe="5a2e78", belt="d0a040", accent="d0a040",
                             hilt="7a5630", gem="ff5ab4", guard="d0a040")),
    "punk": dict(style="shaded", hair="spiky", weapon=None,
                 strands=dict(n=70, len=0.13, th=0.4, arc=(-200, 40), stiff=0.25, front=0.55, bias=0.1),
                 colors=dict(skin="f0c4a0", shirt="8aa040", sleeve="8aa040", pants="2e2a32", boots="1e1a1e",
                             hair="f4d060", belt="a0a0a8", accent="d040a0")),
    "goblin": dict(style="cel", hair="none", ears="pointy", weapon="dagger", short_sleeves=True,
                   colors=dict(skin="9aa84a", shirt="7a5a34", pants="5c4a2c", boots="3a2c1c", belt="2a2018",
                               accent="c0a040", eye="f0d030")),
    "noble": dict(style="shaded", texture=True, tex_amp=0.06, hair="short", cape=dict(col="c02848", alpha=0.6),
                  colors=dict(skin="ecc0a0", shirt="2e3e8a", sleeve="2e3e8a", pants="e0dccc", boots="4a2e1e",
                              hair="b07030", belt="c09840", accent="c09840", buckle="f0d060")),
    "knight": dict(style="cel", hair="none", hat="helmet", weapon="sword", pauldron=True,
                   colors=dict(skin="e0b090", shirt="b83030", sleeve="9aa0a8", pants="707880", boots="50565e",
                               helmet="a8aeb8", plume="d83838", belt="4a3020", accent="e8c840", glove="80868e")),
    "ninja": dict(style="ink", ink=1.4, hat="hood", hair="none", weapon="dagger",
                  colors=dict(skin="e8c0a0", shirt="2a3458", pants="242c4c", boots="181c30", hat="2a3458",
                              belt="c03030", accent="c03030", glove="242c4c")),
    "barbarian": dict(style="ink", ink=1.8, hair="long", weapon="axe", short_sleeves=True,
                      strands=dict(n=24, len=0.16, th=0.6, arc=(-120, 180), stiff=1.0, front=0.4),
                      colors=dict(skin="d89868", shirt="7a5230", pants="5a3c24", boots="3a2618", hair="a03418",
                                  belt="2a1c10", accent="b0b0b8", steel="b8c0c8", hilt="5a3a1e")),
    "archer": dict(style="cel", hat="hood", hair="none", cape=dict(col="2a8a8a"), weapon=None,
                   colors=dict(skin="f0c8a0", shirt="2aa0a0", sleeve="2aa0a0", pants="4a5a30", boots="3a2a1c",
                               hat="2a9090", belt="5a3a20", accent="e0e0d0")),
    "guard": dict(style="cel", hat="helmet", hair="none", weapon="spear",
                  colors=dict(skin="d8a880", shirt="5a6230", sleeve="5a6230", pants="3858a8", boots="30303a",
                              helmet="8a9098", plume="c03030", belt="3a2a18", accent="c8b040", steel="d0d6de")),
    "ghost": dict(style="shaded", hair="long", wisps="e8f0ff", eye_white=False,
                  strands=dict(n=30, len=0.18, th=0.45, arc=(-110, 190), stiff=1.4, front=0.5),
                  orb=dict(core="ffffff", edge="9ad0ff", spark="ffffff", sparks=4),
                  colors=dict(skin="f2f0f4", shirt="e6e8f0", sleeve="e6e8f0", pants="d8dce8", boots="c8ccd8",
                              hair="f8f8ff", belt="b0b8d0", accent="a0c0e8", eye="4060a0")),
    "chibi": dict(style="flat", chibi=True, hair="short", emblem=False,
                  strands=dict(n=8, len=0.07, th=0.7, arc=(-180, -40), stiff=0.3, front=1.0),
                  colors=dict(skin="f6d2b8", shirt="f4f4f0", sleeve="f4f4f0", pants="58c0d8", boots="e85a8a",
                              hair="40d0d8", belt="e85a8a", accent="e85a8a")),
}


def turn_env(t):
    return 1 - 0.85 * (1 - smooth(abs(t - 2.0) / 0.45))


def C(name, **kw):
    d = dict(CHARS[name])
    d.update(kw)
    return d


CASES = [
    dict(name="idle_cel_greenshirt", size=(512, 512), fps=16, frames=49, screen="yellow_green", crf=20,
         char=C("ranger", H=300), action="idle", root=(250, 440), wrap=(0.3, 4.0),
         notes="flat cel ranger in a green shirt on a yellowish green screen; idle breathing; green clothes vs green "
               "screen under light wrap"),
    dict(name="walk_ink_tealskin", size=(448, 448), fps=24, frames=73, screen="green", crf=22,
         char=C("alien", H=250), action="walk", root=(200, 395), speed=8.0, wrap=(0.22, 3.0),
         notes="ink-outlined alien with teal/cyan skin and thin antennae walking nearly in place"),
    dict(name="run_textured_olive", size=(832, 480), fps=24, frames=65, screen="blue_green", crf=21,
         char=C("soldier", H=300), action="run", act=dict(period=0.6), root=(360, 430), speed=40.0,
         shutter=0.6, wrap=(0.28, 5.0),
         notes="shaded/textured soldier in olive drab running on a bluish green screen; motion blur on limbs"),
    dict(name="attack_pale_knight", size=(512, 512), fps=24, frames=57, screen="green", crf=19,
         char=C("paladin", H=290), action="attack", act=dict(period=1.1), root=(220, 450), shutter=0.5,
         wrap=(0.3, 4.0),
         notes="white/pale armoured paladin, overhead sword swings with a sharp blade tip; blurred swing"),
    dict(name="walk_jeans_bluescreen", size=(480, 832), fps=16, frames=49, screen="blue", crf=20,
         char=C("kid", H=470), action="walk", act=dict(period=1.1), root=(230, 740), speed=6.0, wrap=(0.3, 5.0),
         notes="portrait frame, shaded kid in blue jeans on a blue screen, spiky hair with a few strands"),
    dict(name="skill_mage_bluescreen", size=(512, 512), fps=24, frames=81, screen="blue_cyan", crf=21,
         char=C("mage", H=300), action="skill", act=dict(period=1.7), root=(240, 455), wrap=(0.25, 3.5),
         notes="ink-outlined mage with long white hair strands and a see-through glowing orb and sparks "
               "on a blue screen"),
    dict(name="hurt_strandhair", size=(448, 448), fps=16, frames=41, screen="green_bright", crf=22,
         char=C("punk", H=260), action="hurt", act=dict(hits=(0.7, 1.7)), root=(230, 400), wrap=(0.2, 3.0),
         notes="shaded character with a mane of sub-pixel hair strands and an olive-green jacket, hit twice"),
    dict(name="run_720p_cel_goblin", size=(1280, 720), fps=24, frames=49, screen="green", crf=23,
         char=C("goblin", H=420), action="run", act=dict(period=0.55), root=(560, 650), speed=60.0, ss=3,
         shutter=0.6, wrap=(0.3, 6.0),
         notes="720p cel goblin with olive-yellow skin running; motion blur; large frame"),
    dict(name="idle_720p_cape", size=(1280, 720), fps=16, frames=41, screen="yellow_green", crf=20,
         char=C("noble", H=460), action="idle", root=(640, 660), ss=3, wrap=(0.25, 5.0),
         notes="720p textured noble with a semi-transparent red cape (see-through alpha) swaying"),
    dict(name="qc_facing_turn", size=(512, 512), fps=16, frames=81, screen="green", crf=20,
         char=C("knight", H=270), action="walk", act=dict(amp_env=turn_env),
         root=(160, 440), speed=75.0,
         turn=(1.8, 0.4), wrap=(0.25, 4.0), expect_flags=["FACING"],
         notes="cel knight walks right, turns round at 1.8 s and walks left for the rest of the clip"),
    dict(name="qc_smear_ghost", size=(448, 448), fps=24, frames=57, screen="blue_green", crf=21,
         char=C("ninja", H=250), action="walk", act=dict(period=0.9), root=(210, 400), speed=10.0, ghost=0.3,
         wrap=(0.2, 3.0), expect_flags=["SMEAR"],
         notes="ink ninja walking; 30 % of the previous frame blended into every frame (ghosting)"),
    dict(name="qc_fast_attack_blur", size=(512, 512), fps=24, frames=49, screen="green", crf=20,
         char=C("barbarian", H=290), action="attack", act=dict(period=0.8), root=(210, 455), shutter=1.0,
         kmax=24, wrap=(0.25, 4.0), expect_flags=[],
         notes="fast axe attacks with heavy (360 degree shutter) motion blur on the swing, no ghosting"),
    dict(name="qc_letterbox", size=(832, 480), fps=24, frames=57, screen="green_bright", crf=20,
         char=C("archer", H=250), action="walk", root=(330, 400), speed=30.0, letterbox=56, wrap=(0.25, 4.0),
         expect_flags=[],
         notes="cel hooded archer in teal walking, with black letterbox bars top and bottom"),
    dict(name="attack_spear_small_blue", size=(448, 448), fps=16, frames=33, screen="blue", crf=22,
         char=C("guard", H=150), action="attack", act=dict(period=1.0, style="thrust"), root=(170, 330),
         wrap=(0.3, 2.5),
         notes="small cel guard in blue trousers on a blue screen thrusting a thin spear with a sharp tip"),
    dict(name="skill_pale_ghost", size=(480, 832), fps=24, frames=61, screen="green", crf=21,
         char=C("ghost", H=430), action="skill", act=dict(period=2.2), root=(250, 720), wrap=(0.35, 5.0),
         notes="white/pale spirit with long pale hair strands, translucent wisps and a pale glow orb"),
    dict(name="idle_long_chibi", size=(448, 448), fps=24, frames=121, screen="blue_green", crf=18,
         char=C("chibi", H=230), action="idle", act=dict(period=2.0), root=(224, 380), wrap=(0.3, 3.0),
         notes="flat chibi with cyan hair, white shirt and cyan shorts on a bluish green screen, long idle"),
]


def _prep(cs, i):
    cs = dict(cs)
    cs["seed"] = 2200 + 17 * i
    cs["screen"] = SCREENS[cs["screen"]]
    return cs


def main():
    sel = sys.argv[1] if len(sys.argv) > 1 else ""
    jobs = [_prep(cs, i) for i, cs in enumerate(CASES) if sel in cs["name"]]
    if not jobs:
        print("no case matches", repr(sel))
        return 1
    cost = lambda c: c["size"][0] * c["size"][1] * c["frames"]  # noqa: E731
    jobs.sort(key=cost, reverse=True)
    t0 = time.time()
    nproc = min(2, os.cpu_count() or 1, len(jobs))
    if nproc > 1:
        with Pool(nproc) as pool:
            for name, dt in pool.imap_unordered(render_case, jobs):
                print(f"{name}: {dt:.1f}s", flush=True)
    else:
        for cs in jobs:
            name, dt = render_case(cs)
            print(f"{name}: {dt:.1f}s", flush=True)
    print(f"total {time.time() - t0:.1f}s -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
