"""Trial 20: FACING both ways -- nine characters that turn round and stay turned, twelve
that only look as if they might. Written apart from the matte, its notes and its fixtures.

World model. Every character is a 2.5-D puppet: joints live in a body frame (f forward,
y up, s to the character's right) and a yaw turns that frame about the vertical axis
before an orthographic camera sees it (yaw 0 faces screen right, pi screen left, pi/2 the
camera, -pi/2 away). Limbs are tapered capsules, torsos tapered capsules whose width is the
projected width of an elliptic cross-section, heads and bodies are shaded spheres on which
eyes, hair, hood openings and visors are decals (so they slide round and hide behind the
head), and hats, hair, robes, capes, beaks and ears are hulls of projected 3-D points.
Parts are painted far to near with antialiased signed-distance coverage (pixel art: hard
coverage at a quarter size, then nearest-neighbour upscale); far limbs are darker. A turn
is a yaw ramp through the front or back over 0.25-0.7 s while the gait goes on in the body
frame, so the far side comes into view and side-bound items (shield, scabbard, quiver,
ribbon, sash) go round with their side. The screen is a key colour with a gradient and
vignette, a soft contact shadow, light wrap of the backdrop into the outer few pixels,
per-frame noise (sigma 1.5) and, on some cases, motion blur (mean of 6-8 sub-frames over half a frame).

Cases (T = turn, expect FACING; D = decoy, expect nothing; times in seconds):
  t01 walk   knight with shield (near arm) and plume walks left, turns via back at 0.9-1.5, walks right 2.5 s
  t02 run    hooded rogue runs right, turns via front at 1.3-1.6, runs left 1.4 s; motion blur
  t03 idle   mage (hat, staff, robe) idles right, turns via front 2.0-2.4, idles left the last 1.1 s (31 %); 480x832
  t04 attack archer with quiver turns via back 0.5-1.0, then draws and shoots to the left for 2.3 s; blue screen
  t05 skill  near-front 3/4 monk (yaw 57 deg) turns through front to the mirrored 3/4 at 1.0-1.6, palm strike; 16 fps
  t06 hurt   long-haired girl is hit at 0.6, spun round via back 0.75-1.25, staggers facing left 2.4 s; 12 fps
  t07 walk   chibi (big round head, 3/4 view) walks, turns via front 1.4-1.9, walks the other way 1.8 s
  t08 run    pixel-art adventurer runs right, turns via back 1.55-1.8, runs left the last 0.87 s (33 %)
  t09 walk   wolf walks right, turns round head-first towards the camera 1.5-2.2, walks left 1.55 s; blue
  d10 idle   hooded rogue looks back over the shoulder (head 145 deg round), holds 0.8 s, looks ahead again
  d11 attack knight raises the sword over and behind the head, holds it 1 s, slashes forward; 1280x720, blur
  d12 skill  mage casts a wind spell: cape and hat tip blown forward past the body for 85 % of the clip
  d13 attack monk spin kick: a full 360 deg spin in 0.6 s, lands facing the way he started
  d14 hurt   wolf is hit, rears back with head thrown up and tail raised high for 1.4 s, recovers
  d15 skill  horse facing left rears up on its hind legs for 1.5 s and comes down; 960x720
  d16 hurt   girl knocked back: slides back leaning far backwards, hair thrown forward, recovers; 12 fps
  d17 attack rogue slashes two daggers across the body, torso twisted to show the back for 0.6 s; blue
  d18 skill  slime with its eyes on the right squashes, jumps high, lands, hops again; 16 fps
  d19 idle   chibi crouches down for 0.6 s, stands, leans back stretching, leans forward
  d20 idle   bird hops, turns its head back to preen under the wing for 0.9 s, looks ahead, flaps; blue
  d21 walk   girl walks right with a tail wind blowing hair and skirt forward past her face the whole clip

    .venv/bin/python trials/trial20.py [NAME]     # into trials/_out/trial20/ (or $TRIAL_OUT)
"""
from __future__ import annotations

import json
import os
import sys
import time
from math import atan2, cos, pi as PI, sin, sqrt

import av
import cv2
import numpy as np
from PIL import Image

OUT = os.environ.get("TRIAL_OUT") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "_out", "trial20")

# ---------------------------------------------------------------- drawing primitives

def sd_capsule(X, Y, a, b, ra, rb):
    bx, by = b[0] - a[0], b[1] - a[1]
    px, py = X - a[0], Y - a[1]
    h = np.clip((px * bx + py * by) / (bx * bx + by * by + 1e-9), 0, 1)
    return np.hypot(px - bx * h, py - by * h) - (ra + (rb - ra) * h)

def sd_ellipse(X, Y, c, rx, ry):
    u, v = (X - c[0]) / rx, (Y - c[1]) / ry
    k0 = np.sqrt(u * u + v * v)
    k1 = np.sqrt(u * u / rx ** 2 + v * v / ry ** 2)
    return k0 * (k0 - 1) / np.maximum(k1, 1e-6)

def sd_poly(X, Y, pts):
    d = (X - pts[0][0]) ** 2 + (Y - pts[0][1]) ** 2
    s = np.ones(d.shape, np.float32)
    j = len(pts) - 1
    for i in range(len(pts)):
        (xi, yi), (xj, yj) = pts[i], pts[j]
        ex, ey, wx, wy = xj - xi, yj - yi, X - xi, Y - yi
        h = np.clip((wx * ex + wy * ey) / (ex * ex + ey * ey + 1e-9), 0, 1)
        d = np.minimum(d, (wx - ex * h) ** 2 + (wy - ey * h) ** 2)
        c1, c2, c3 = Y >= yi, Y < yj, ex * wy > ey * wx
        s = np.where((c1 & c2 & c3) | (~c1 & ~c2 & ~c3), -s, s)
        j = i
    return s * np.sqrt(d)

def bbox(p):
    if p[0] == "cap":
        a, b, r = p[1], p[2], max(p[3], p[4])
        return min(a[0], b[0]) - r, min(a[1], b[1]) - r, max(a[0], b[0]) + r, max(a[1], b[1]) + r
    if p[0] == "ell":
        c, rx, ry = p[1], p[2], p[3]
        return c[0] - rx, c[1] - ry, c[0] + rx, c[1] + ry
    q = np.asarray(p[1])
    return q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()

def sdf(p, X, Y):
    if p[0] == "cap":
        return sd_capsule(X, Y, *p[1:])
    if p[0] == "ell":
        return sd_ellipse(X, Y, *p[1:])
    return sd_poly(X, Y, p[1])

def hull(points):
    """Convex hull of projected points, as a polygon primitive."""
    q = np.array(points, np.float32).reshape(-1, 1, 2)
    return ("poly", [tuple(v) for v in cv2.convexHull(q)[:, 0, :]])

class Canvas:
    """Premultiplied RGBA; parts are painted far to near. k scales clip coordinates."""

    def __init__(self, w, h, sty, k=1.0):
        self.w, self.h, self.k, self.sty = w, h, k, sty
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.a = np.zeros((h, w), np.float32)
        lx, ly = sty.get("light", (-0.6, -0.8))
        self.l2 = np.array([lx, ly]) / np.hypot(lx, ly)
        l3 = np.array([lx, -ly, 0.9])
        self.l3 = l3 / np.linalg.norm(l3)
        self.gy = None

    def paint(self, parts):
        for p in sorted(parts, key=lambda p: p["z"]):
            self.draw(p)

    def draw(self, p):
        sty, hard = self.sty, self.sty.get("hard", False)
        ol = sty.get("ol", 0.0) * (1 if hard else self.k)
        if "sph" in p:
            (cx, cy), rx, ry = p["sph"]
            bb = (cx - rx, cy - ry, cx + rx, cy + ry)
        else:
            bbs = np.array([bbox(q) for q in p["prims"]])
            bb = (bbs[:, 0].min(), bbs[:, 1].min(), bbs[:, 2].max(), bbs[:, 3].max())
        x0, y0 = max(int(bb[0]) - 2, 0), max(int(bb[1]) - 2, 0)
        x1, y1 = min(int(bb[2]) + 3, self.w), min(int(bb[3]) + 3, self.h)
        if x1 <= x0 or y1 <= y0:
            return
        X = np.arange(x0, x1, dtype=np.float32)[None, :] + 0.5
        Y = np.arange(y0, y1, dtype=np.float32)[:, None] + 0.5
        base = np.array(p["col"], np.float32) / 255
        if "sph" in p:
            u, v = (X - cx) / rx, (Y - cy) / ry
            rr = u * u + v * v
            d = (np.sqrt(rr) - 1) * min(rx, ry)
            n = np.stack(np.broadcast_arrays(u, -v, np.sqrt(np.clip(1 - rr, 0, 1))), -1)
            lam = n @ self.l3
            if sty.get("shade") == "cel":
                shade = 1 - 0.26 * np.clip((0.12 - lam) * min(rx, ry) * 0.5 + 0.5, 0, 1)
            else:
                shade = 0.62 + 0.45 * np.clip(lam, 0, 1)
            col = np.broadcast_to(base, n.shape).copy()
            for vec, c, dcol in p.get("dec", ()):
                g = max(sqrt(max(1 - c * c, 0)), 0.04) / min(rx, ry)
                m = np.clip((n @ np.asarray(vec, np.float32) - c) / g + 0.5, 0, 1)
                m = (m > 0.5).astype(np.float32) if hard else m
                col += (np.array(dcol, np.float32) / 255 - col) * m[..., None]
            col *= shade[..., None]
        else:
            d = sdf(p["prims"][0], X, Y)
            for q in p["prims"][1:]:
                d = np.minimum(d, sdf(q, X, Y))
            ext = max(bb[2] - bb[0], bb[3] - bb[1], 1.0) / 2
            t = ((X - (bb[0] + bb[2]) / 2) * -self.l2[0] + (Y - (bb[1] + bb[3]) / 2) * -self.l2[1]) / ext
            if sty.get("shade") == "cel":
                shade = 1 - 0.25 * np.clip((-0.25 - t) * ext * 0.5 + 0.5, 0, 1)
            else:
                shade = (0.9 + 0.16 * np.clip(t, -1, 1)) * (0.84 + 0.16 * np.clip(-d / (3 * self.k), 0, 1))
            col = base * shade[..., None]
        cov = (d < 0).astype(np.float32) if hard else np.clip(0.5 - d, 0, 1)
        if ol > 0:
            m = np.clip(-d - ol + 0.5, 0, 1)
            m = (m > 0.5).astype(np.float32) if hard else m
            col = base * 0.28 + (col - base * 0.28) * m[..., None]
        a, rgb = self.a[y0:y1, x0:x1], self.rgb[y0:y1, x0:x1]
        rgb *= (1 - cov)[..., None]
        rgb += col * cov[..., None]
        a *= 1 - cov
        a += cov

def tint(col, f):
    return tuple(min(255.0, c * f) for c in col)

# ---------------------------------------------------------------- the 2.5-D rig

class Rig:
    """Body frame -> screen: yaw about the vertical, optional whole-body pitch about a
    pivot (positive tips the top forward), orthographic projection. Z is towards the viewer."""

    def __init__(self, cv, yaw, x, gy, S, pitch=0.0, pivot=(0.0, 0.0)):
        self.yaw, self.c, self.sn = yaw, cos(yaw), sin(yaw)
        self.x, self.gy, self.S = x * cv.k, gy * cv.k, S * cv.k
        self.pitch, self.pivot = pitch, pivot
        cv.gy = gy

    def P(self, p):
        f, y, s = p
        if self.pitch:
            pf, py = self.pivot
            df, dy = f - pf, y - py
            f, y = pf + df * cos(self.pitch) + dy * sin(self.pitch), py + dy * cos(self.pitch) - df * sin(self.pitch)
        return (self.x + (f * self.c - s * self.sn) * self.S, self.gy - y * self.S), f * self.sn + s * self.c

    def vec(self, f, y, s, pitch=0.0):
        p = pitch + self.pitch
        f, y = f * cos(p) + y * sin(p), y * cos(p) - f * sin(p)
        v = np.array([f * self.c - s * self.sn, y, f * self.sn + s * self.c])
        return v / (np.linalg.norm(v) + 1e-9)

    def w(self, df, ws):
        """Projected half-width (px) of an elliptic cross-section, df deep and ws wide."""
        return sqrt((df * self.c) ** 2 + (ws * self.sn) ** 2) * self.S

    def far(self, sd):
        return 1 - 0.24 * min(max(0.5 - sd * self.c, 0), 1)

def rot(f, s, a):
    return f * cos(a) - s * sin(a), f * sin(a) + s * cos(a)

STAND = {1: (0.1, 0.08), -1: (-0.08, 0.05)}
HANG = {1: (0.08, 0.1, 0.2), -1: (-0.05, 0.1, 0.25)}

def humanoid(R, L, st):
    g, S, parts = st.get, R.S, []
    hd, tor, leg, arm = L["head"], L["torso"], L["leg"], L["arm"]
    hipw, sw, lr, dfc = L["hipw"], L["sw"], L["limb"], L["dfc"]
    items = L.get("items", {})

    def add(prims, col, z, **kw):
        parts.append(dict(prims=prims, col=col, z=z, **kw))

    def cap(p, q, ra, rb, col, bias=0.0):
        (pa, za), (pb, zb) = R.P(p), R.P(q)
        add([("cap", pa, pb, ra * S, rb * S)], col, (za + zb) / 2 + bias)

    fk = {}
    for sd, (a, k) in g("legs", STAND).items():
        kn = (leg / 2 * sin(a), -leg / 2 * cos(a))
        fk[sd] = (kn, (kn[0] + leg / 2 * sin(a - k), kn[1] - leg / 2 * cos(a - k)))
    hy = max(-v[1][1] for v in fk.values()) + L["foot"] + g("lift", 0.0)
    ln = g("lean", 0.0)

    def up(f, y, s=0.0):  # hip-relative upper-body point, leaned
        return (f * cos(ln) + y * sin(ln), hy + y * cos(ln) - f * sin(ln), s)

    for sd, (kn, an) in fk.items():  # legs and feet
        s, fr = sd * hipw, R.far(sd)
        K, A = (kn[0], hy + kn[1], s), (an[0], hy + an[1], s)
        cap((0, hy, s), K, lr * 1.25, lr * 1.05, tint(L["pants"], fr))
        cap(K, A, lr * 1.05, lr * 0.9, tint(L["shin"], fr))
        fy = A[1] - L["foot"] * 0.5
        cap((A[0] - 0.012, fy, s), (A[0] + L["footl"], fy - 0.004, s), L["foot"] * 0.55, L["foot"] * 0.48,
            tint(L["shoe"], fr), 0.002)
    C, N = up(0, tor * 0.7), up(0, tor)
    (h2, _), (c2, zt), (n2, _) = R.P(up(0, 0.02)), R.P(C), R.P(N)
    rh, rc = R.w(L["dfh"], hipw + lr), R.w(dfc, sw)
    add([("cap", h2, c2, rh, rc), ("cap", c2, n2, rc, rc * 0.7)], L["shirt"], zt)
    add([("cap", h2, R.P(up(0, 0.06))[0], rh * 1.02, rh * 1.02)], L.get("hips", L["pants"]), zt + 0.001)
    b2 = R.P(up(0, 0.075))[0]
    add([("cap", (b2[0] - rh * cos(ln), b2[1] - rh * sin(ln)), (b2[0] + rh * cos(ln), b2[1] + rh * sin(ln)),
          0.011 * S, 0.011 * S)], L.get("belt", (70, 45, 30)), zt + 0.002)
    fwdz = R.vec(1, 0, 0, ln)[2]
    if "sash" in items and abs(fwdz) > 0.12:  # band over the right shoulder to the left hip
        sg = 1 if fwdz > 0 else -1
        pts = []
        for s_, y_ in ((sw * 0.75, tor - 0.02), (sw * 0.35, tor - 0.02), (-hipw - 0.01, 0.1), (-hipw + 0.03, 0.03)):
            f_ = sg * dfc * 1.04 * sqrt(max(0.0, 1 - (s_ / (sw * 1.05)) ** 2))
            pts.append(R.P(up(f_, y_, s_))[0])
        add([("poly", pts)], items["sash"], zt + 0.003)
    hands = {}  # arms
    ua, fa = arm * 0.52, arm * 0.48
    for sd, (a, b, e) in g("arms", HANG).items():
        s0, shy = sd * sw, tor - 0.035
        d1 = (sin(a) * cos(b), -cos(a) * cos(b), sd * sin(b))
        d2 = (sin(a + e) * cos(b), -cos(a + e) * cos(b), sd * sin(b))
        el = (ua * d1[0], shy + ua * d1[1], s0 + ua * d1[2])
        hn = (el[0] + fa * d2[0], el[1] + fa * d2[1], el[2] + fa * d2[2])
        fr = R.far(sd)
        cap(up(0, shy, s0), up(*el), lr * 1.15, lr * 0.95, tint(L["sleeve"], fr), 0.004)
        cap(up(*el), up(*hn), lr * 0.95, lr * 0.8, tint(L["glove"], fr), 0.005)
        H3 = up(*hn)
        hands[sd] = (H3, atan2(d2[1], d2[0]) - ln, fr)
        p2, zh = R.P(H3)
        add([("ell", p2, lr * 1.25 * S, lr * 1.25 * S)], tint(L["glove"], fr), zh + 0.008)
    # head
    hyo, hpo = g("head_yaw", 0.0), g("head_pitch", 0.0)
    hc = tor + L["neck"] + hd

    def hpt(f, y, s):
        f, s = rot(f, s, hyo)
        f, y = f * cos(hpo) + y * sin(hpo), y * cos(hpo) - f * sin(hpo)
        return up(f, hc + y, s)

    def hv(f, y, s):
        f, s = rot(f, s, hyo)
        return R.vec(f, y, s, ln + hpo)

    cap(N, hpt(0, -hd * 0.5, 0), hd * 0.38, hd * 0.38, tint(L["skin"], 0.9), 0.01)
    (hc2, zh) = R.P(hpt(0, 0, 0))
    zh += 0.02
    dec = []
    kind = L.get("headwear", "hair")
    r = hd * (1.18 if kind == "hood" else 1.0)
    if kind == "hair":
        dec.append((hv(-0.5, 0.86, 0), L.get("hairc", -0.1), L["hair"]))
        dec += [(hv(0.1, 1, 0), 0.35, L["hair"])] if L.get("bangs") else []
    if kind in ("hair", "bald"):
        es, ec = L.get("eyes", (0.45, 0.988))
        for sd in (1, -1):
            if ec < 0.97:  # big anime eyes: white, iris, highlight
                dec += [(hv(0.8, 0.05, sd * es), ec, (250, 250, 250)),
                        (hv(0.84, 0.03, sd * es * 0.95), ec + (1 - ec) * 0.45, L.get("eyecol", (40, 30, 40))),
                        (hv(0.82, 0.12, sd * es * 0.9), 0.997, (255, 255, 255))]
            else:
                dec.append((hv(0.8, 0.1, sd * es), ec, L.get("eyecol", (40, 30, 40))))
        dec.append((hv(0.93, -0.37, 0), 0.993, (150, 60, 60)))
    elif kind == "hood":
        dec.append((hv(1, -0.15, 0), 0.3, tint(L["skin"], 0.55)))
        for sd in (1, -1):
            dec.append((hv(0.85, 0.02, sd * 0.38), 0.993, (240, 230, 180)))
    elif kind == "helmet":
        dec += [(hv(1, -0.08, 0), 0.8, (35, 35, 45)), (hv(0, 1, 0), 0.9, tint(L["hood"], 1.15))]
    head_col = L["hood"] if kind in ("hood", "helmet") else L["skin"]
    parts.append(dict(sph=(hc2, r * S, r * S), col=head_col, dec=dec, z=zh))

    def hcap(p, q, ra, rb, col, bias):  # a part hung on the head: depth relative to the head
        (pa, za), (pb, zb) = R.P(p), R.P(q)
        add([("cap", pa, pb, ra * S, rb * S)], col, zh + ((za + zb) / 2 - (zh - 0.02)) + bias)

    def bump(p, rx, ry, col, bias):  # nose or ear: drawn on the head while on the visible side
        p2, zb = R.P(p)
        if zb - (zh - 0.02) > -0.22 * hd:
            add([("ell", p2, rx * hd * S, ry * hd * S)], col, zh + bias)

    if kind in ("hair", "bald") and L.get("nose", True):
        bump(hpt(hd * 0.97, -hd * 0.12, 0), 0.17, 0.17, tint(L["skin"], 0.95), 0.001)
    for sd in (1, -1) if L.get("ears") else ():
        bump(hpt(-hd * 0.08, -hd * 0.05, sd * hd * 0.97), 0.2, 0.28, tint(L["skin"], 0.9), 0.002)
    if kind == "hood":
        hcap(hpt(-hd * 0.8, -hd * 0.1, 0), hpt(-hd * 1.7, -hd * 1.1 + g("tailw", 0.0) * hd, 0),
             hd * 0.6, hd * 0.14, L["hood"], -0.002)
        bump(hpt(hd * 1.0, -hd * 0.15, 0), 0.16, 0.16, tint(L["skin"], 0.6), 0.001)
    if kind == "helmet":
        w_ = g("plume", 0.0)
        hcap(hpt(0, hd * 1.05, 0), hpt(-hd * 0.9, hd * 1.55 + w_ * hd, 0), hd * 0.22, hd * 0.3, items["plume"], 0.001)
        hcap(hpt(-hd * 0.9, hd * 1.55 + w_ * hd, 0), hpt(-hd * 1.8, hd * 0.9 + w_ * hd, 0), hd * 0.3, hd * 0.12,
             items["plume"], 0.001)
    if "hat" in items:
        b2, _ = R.P(hpt(0, hd * 0.62, 0))
        add([("ell", b2, 1.75 * hd * S, 0.36 * hd * S)], items["hat"], zh + 0.004)
        ring = [R.P(hpt(hd * 0.95 * cos(a), hd * 0.62, hd * 0.95 * sin(a)))[0] for a in np.linspace(0, 2 * PI, 10)]
        tip = g("hat_tip", -1.2)
        mid = [R.P(hpt(tip * hd * 0.3 + hd * 0.4 * cos(a), hd * 1.75, hd * 0.4 * sin(a)))[0]
               for a in np.linspace(0, 2 * PI, 8)]
        add([hull(ring + mid)], items["hat"], zh + 0.005)
        hcap(hpt(tip * hd * 0.3, hd * 1.75, 0), hpt(tip * hd, hd * 2.4, 0), hd * 0.38, hd * 0.07, items["hat"], 0.006)
    if "long" in items:  # hair mass down the back; wind pushes it forward
        wf = g("hair_wind", 0.0)
        sw_ = 0.15 * hd * sin(g("t", 0) * 7)
        pts = []
        for sd in (1, -1):
            pts += [hpt(-hd * 0.2, hd * 0.85, sd * hd * 0.7), hpt(-hd * 1.08, hd * 0.1, sd * hd * 0.95),
                    hpt(-hd * (1.35 - 3.8 * wf) + sw_, -hd * (3.5 - 3.6 * wf), sd * hd * 0.85),
                    hpt(-hd * (0.6 - 2.6 * wf) + sw_, -hd * (3.6 - 2.2 * wf), sd * hd * 0.75)]
        pr = [R.P(p) for p in pts]
        add([hull([q[0] for q in pr])], tint(L["hair"], 0.9), zt + 0.005 + np.mean([q[1] for q in pr]) - (zh - 0.02))
    if "pony" in items:
        wf, t = g("hair_wind", 0.0), g("t", 0.0)
        p0 = hpt(-hd * 0.95, hd * 0.4, 0)
        ang = -PI / 2 - 0.6 + wf * 2.3 + 0.15 * sin(t * 6) + g("pony_kick", 0.0)
        for j in range(3):
            p1 = (p0[0] + cos(ang) * hd * 0.75, p0[1] + sin(ang) * hd * 0.75, p0[2])
            hcap(p0, p1, hd * (0.3 - 0.07 * j), hd * (0.23 - 0.07 * j), L["hair"], -0.001)
            p0, ang = p1, ang - 0.25 + 0.1 * sin(t * 6 + j)
        p2, zr = R.P(hpt(-hd * 0.95, hd * 0.45, 0))
        add([("ell", p2, hd * 0.22 * S, hd * 0.22 * S)], items["pony"], zh + (zr - zh + 0.02))
    if "ribbon" in items:  # bow on the right side of the head
        for dy in (0.2, -0.2):
            p2, zr = R.P(hpt(-hd * 0.25, hd * (0.7 + dy * 0.5), hd * 0.9))
            add([("ell", p2, hd * 0.24 * S, hd * 0.16 * S)], items["ribbon"], zr + 0.03)
    if "ahoge" in items:
        hcap(hpt(0, hd * 0.95, 0), hpt(-hd * 0.35, hd * 1.4, 0), hd * 0.09, hd * 0.07, L["hair"], 0.001)
        hcap(hpt(-hd * 0.35, hd * 1.4, 0), hpt(0.05 * hd, hd * 1.6, 0), hd * 0.07, hd * 0.03, L["hair"], 0.001)
    # items on the body
    if "robe" in items:
        col, hem, fl = items["robe"]
        wind = g("robe_wind", 0.0)
        ring = [R.P(up(L["dfh"] * cos(a), 0.05, (hipw + lr) * sin(a)))[0] for a in np.linspace(0, 2 * PI, 10)]
        ring += [R.P((L["dfh"] * fl * cos(a) + wind * 0.12 + 0.015 * sin(g("t", 0) * 5 + a), hem,
                      (hipw + lr) * fl * sin(a)))[0] for a in np.linspace(0, 2 * PI, 12)]
        add([hull(ring)], col, 0.075)
    if "cape" in items:
        wind, t = g("cape_wind", 0.0), g("t", 0.0)
        pts = []
        for sd in (1, -1):  # a sail: shoulders to a free edge E1 (hem) - E2 (billow)
            fl = 0.03 * sin(t * 8 + sd)
            pts += [up(-dfc * 0.6, tor - 0.02, sd * sw * 0.9),
                    (-0.12 + wind * 0.6 + fl, 0.15 + wind * 0.35 + fl, sd * sw * (1.4 + 0.3 * wind)),
                    (-0.19 + wind * 0.45 - fl, 0.5 + wind * 0.35, sd * sw * (1.3 + 0.3 * wind))]
        pr = [R.P(p) for p in pts]
        add([hull([q[0] for q in pr])], items["cape"], np.mean([q[1] for q in pr]) - 0.12 + 0.15 * wind)
    if "scabbard" in items:
        sd = items["scabbard"]
        s = sd * (hipw + 0.055)
        cap((0.03, hy + 0.02, s), (-0.17, hy - 0.27, s), 0.017, 0.013, (60, 40, 30))
        cap((0.03, hy + 0.02, s), (0.09, hy + 0.11, s), 0.011, 0.011, (120, 100, 70), 0.001)
    if "pouch" in items:
        sd, col = items["pouch"]
        p2, zp = R.P((0.02, hy - 0.04, sd * (hipw + 0.05)))
        add([("ell", p2, 0.04 * S, 0.05 * S)], col, zp)
    if "quiver" in items:
        q0, q1 = up(-dfc - 0.02, tor * 0.3, 0.03), up(-dfc - 0.06, tor * 1.05, -0.02)
        cap(q0, q1, 0.022, 0.026, items["quiver"], 0.006)
        for j in range(3):
            a_ = up(-dfc - 0.06 + 0.014 * (j - 1), tor * 1.05, -0.02 + 0.012 * j)
            cap(a_, up(-dfc - 0.08 + 0.02 * j, tor * 1.05 + 0.07, -0.02 + 0.012 * j), 0.008, 0.012, (235, 230, 220), 0.007)
    if "scarf" in items:
        t = g("t", 0.0)
        p0 = up(-dfc * 0.8, tor - 0.01, 0)
        for j in range(2):
            p1 = (p0[0] - 0.06, p0[1] - 0.07 + 0.025 * sin(t * 9 + j * 1.3) + 0.05 * g("scarf_up", 0.0), p0[2])
            cap(p0, p1, 0.025 - j * 0.005, 0.02 - j * 0.005, items["scarf"], -0.03)
            p0 = p1
        cap(up(-dfc * 0.6, tor - 0.01, 0), up(dfc * 0.5, tor - 0.02, 0), 0.035, 0.035, items["scarf"], 0.012)
    if "shield" in items:
        sd, rad, face, back = items["shield"]
        H3, _, fr = hands[sd]
        ctr = (H3[0] - 0.03, H3[1] + 0.03, H3[2] + sd * 0.06)
        p2, zs = R.P(ctr)
        outz = sd * R.c
        rx = rad * max(abs(R.c), 0.14) * S
        add([("ell", p2, rx, rad * 1.2 * S)], tint(face if outz > 0 else back, fr), zs + 0.01)
        if outz > 0.15:
            add([("ell", p2, rx * 0.4, rad * 0.5 * S)], items["emblem"], zs + 0.011)
    for sd, kind_ in L.get("held", {}).items():
        H3, fa_ang, fr = hands[sd]
        ang = g("wa", {}).get(sd, fa_ang + PI / 2 - 0.35)
        d = (cos(ang), sin(ang))
        zhand = R.P(H3)[1]

        def at(k, side=0.0):
            return (H3[0] + d[0] * k - d[1] * side, H3[1] + d[1] * k + d[0] * side, H3[2])
        if kind_ == "sword" or kind_ == "dagger":
            ln_ = 0.5 if kind_ == "sword" else 0.16
            cap(at(0.03), at(ln_), 0.014, 0.006, tint((205, 210, 220), fr), 0.006)
            cap(at(0.03, -0.045), at(0.03, 0.045), 0.01, 0.01, tint((150, 120, 60), fr), 0.007)
        elif kind_ == "staff":
            cap(at(-0.42), at(0.5), 0.015, 0.015, tint((110, 75, 45), fr), -0.002)
            p2, zo = R.P(at(0.55))
            parts.append(dict(sph=(p2, 0.045 * S, 0.045 * S), col=items.get("orb", (240, 120, 60)), z=zo - 0.001))
        elif kind_ == "bow":
            ph = g("bow_axis", PI / 2 + 0.1)
            ax, bk = (cos(ph), sin(ph)), (-sin(ph), cos(ph))
            pts = [(H3[0] + ax[0] * 0.3 * u + bk[0] * 0.09 * u * u, H3[1] + ax[1] * 0.3 * u + bk[1] * 0.09 * u * u, H3[2])
                   for u in np.linspace(-1, 1, 7)]
            prj = [R.P(p) for p in pts]
            add([("cap", prj[i][0], prj[i + 1][0], 0.012 * S, 0.012 * S) for i in range(6)], tint((120, 70, 35), fr),
                zhand - 0.003)
            pull = g("pull")
            mid = hands[pull][0] if pull else ((pts[0][0] + pts[6][0]) / 2, (pts[0][1] + pts[6][1]) / 2, H3[2])
            mid = (mid[0], mid[1], H3[2])
            add([("cap", prj[0][0], R.P(mid)[0], 0.0035 * S, 0.0035 * S),
                 ("cap", R.P(mid)[0], prj[6][0], 0.0035 * S, 0.0035 * S)], (230, 225, 210), zhand - 0.002)
            if pull:
                tip = (H3[0] - bk[0] * 0.1, H3[1] - bk[1] * 0.1, H3[2])
                add([("cap", R.P(mid)[0], R.P(tip)[0], 0.006 * S, 0.006 * S)], (200, 170, 120), zhand - 0.001)
    return parts

# ---------------------------------------------------------------- beasts, a bird and a slime

WOLF = dict(chest=(0.28, 0.56, 0.18, 0.16, 0.12), hip=(-0.28, 0.58, 0.16, 0.14, 0.11), fx=0.29, hx=-0.3,
            legw=0.075, top=0.52, up=0.23, lo=0.25, legr=0.036, paw=0.032, front=(-0.05, 0.1), hind=(0.3, 0.6),
            neck=((0.34, 0.62), (0.52, 0.77), 0.075), head=0.1, snout=((0.06, -0.03), (0.21, -0.07), 0.058, 0.03),
            ear=0.1, tail=(-0.43, 0.62), tlen=0.13, tr=(0.045, 0.06, 0.05, 0.03), mane=None,
            fur=(150, 148, 155), light=(215, 210, 205), dark=(60, 55, 60), eye=(230, 170, 40))
HORSE = dict(chest=(0.32, 0.86, 0.2, 0.19, 0.15), hip=(-0.32, 0.88, 0.2, 0.19, 0.15), fx=0.33, hx=-0.33,
             legw=0.09, top=0.8, up=0.36, lo=0.38, legr=0.042, paw=0.045, front=(0.0, 0.05), hind=(0.25, 0.5),
             neck=((0.38, 0.95), (0.62, 1.3), 0.095), head=0.1, snout=((0.03, -0.03), (0.13, -0.27), 0.075, 0.055),
             ear=0.07, tail=(-0.5, 0.95), tlen=0.17, tr=(0.05, 0.06, 0.055, 0.04), mane=(45, 30, 25),
             fur=(140, 85, 50), light=(190, 150, 115), dark=(40, 28, 22), eye=(30, 20, 15))

def beast(R, B, st):
    g, S, parts = st.get, R.S, []

    def cap(p, q, ra, rb, col, bias=0.0):
        (pa, za), (pb, zb) = R.P(p), R.P(q)
        parts.append(dict(prims=[("cap", pa, pb, ra * S, rb * S)], col=col, z=(za + zb) / 2 + bias))

    legs = g("legs", {})
    reach = {}
    for key in ((1, 1), (1, -1), (-1, 1), (-1, -1)):  # (front/hind, side)
        a0, k0 = B["front"] if key[0] > 0 else B["hind"]
        a, k = legs.get(key, (0.0, 0.0))
        a, k = a0 + a, k0 + k
        kn = (B["up"] * sin(a), -B["up"] * cos(a))
        reach[key] = (kn, (kn[0] + B["lo"] * sin(a - k), kn[1] - B["lo"] * cos(a - k)))
    dy = max(-v[1][1] for v in reach.values()) + B["paw"] - B["top"] + g("lift", 0.0)
    for (fh, sd), (kn, an) in reach.items():
        f0, s, fr = B["fx"] if fh > 0 else B["hx"], sd * B["legw"], R.far(sd)
        top = (f0, B["top"] + dy, s)
        K, A = (f0 + kn[0], top[1] + kn[1], s), (f0 + an[0], top[1] + an[1], s)
        cap((f0, top[1] + 0.06, s), K, B["legr"] * 1.7, B["legr"] * 1.1, tint(B["fur"], fr * 0.97), -0.01)
        cap(K, A, B["legr"] * 1.05, B["legr"] * 0.85, tint(B["fur"], fr * 0.93))
        cap(A, (A[0] + B["paw"] * 0.8, A[1] - B["paw"] * 0.3, s), B["paw"], B["paw"] * 0.9, tint(B["dark"], fr), 0.001)
    for key in ("hip", "chest"):
        f, y, rf, ry, rs = B[key]
        p2, z = R.P((f, y + dy, 0))
        parts.append(dict(sph=(p2, R.w(rf, rs), ry * S), col=B["fur"], z=z,
                          dec=[(R.vec(0.2, -1, 0), 0.55, B["light"])]))
    (c, cz), (h, hz) = R.P((B["chest"][0], B["chest"][1] + dy, 0)), R.P((B["hip"][0], B["hip"][1] + dy, 0))
    parts.append(dict(prims=[("cap", c, h, B["chest"][3] * 0.85 * S, B["hip"][3] * 0.88 * S)], col=B["fur"],
                      z=(cz + hz) / 2 - 0.002))
    t = g("t", 0.0)
    p0, ang = (B["tail"][0], B["tail"][1] + dy, 0.0), g("tail", PI + 0.9)
    for j in range(4):
        p1 = (p0[0] + cos(ang) * B["tlen"], p0[1] + sin(ang) * B["tlen"], 0.02 * sin(t * 5 + j) * g("wag", 1.0))
        cap(p0, p1, B["tr"][j], B["tr"][min(j + 1, 3)], tint(B["mane"] or B["fur"], 1.0 - 0.04 * j), -0.004)
        p0, ang = p1, ang + g("curl", -0.2)
    (n0, nh), nr = B["neck"][:2], B["neck"][2]
    hp_, hyo = g("head_pitch", 0.0), g("head_yaw", 0.0)
    H = (n0[0] + (nh[0] - n0[0]) * cos(hp_) - (nh[1] - n0[1]) * sin(hp_) * 0.6,
         n0[1] + dy + (nh[1] - n0[1]) + (nh[0] - n0[0]) * sin(hp_) * 0.6, 0.0)
    cap((n0[0], n0[1] + dy, 0), H, nr * 1.3, nr, B["fur"], 0.001)
    if B["mane"]:
        cap((n0[0] - 0.05, n0[1] + dy + 0.1, 0), (H[0] - 0.06, H[1] + 0.05, 0), 0.035, 0.03, B["mane"], 0.002)
    hd = B["head"]

    def hpt(f, y, s):
        f, s = rot(f, s, hyo)
        f, y = f * cos(hp_) + y * sin(hp_), y * cos(hp_) - f * sin(hp_)
        return (H[0] + f, H[1] + y, s)

    h2, zh = R.P(H)
    zh += 0.01
    dec = []
    for sd in (1, -1):
        fv, sv = rot(0.55, sd * 0.72, hyo)
        dec += [(R.vec(fv, 0.35, sv, hp_), 0.982, B["eye"]), (R.vec(fv, 0.36, sv, hp_), 0.995, (20, 15, 15))]
    parts.append(dict(sph=(h2, hd * S, hd * S), col=B["fur"], dec=dec, z=zh))
    (sa, sb), ra, rb = B["snout"][:2], B["snout"][2], B["snout"][3]
    for sd in (1, -1):
        P3 = [R.P(hpt(-0.02 * hd / 0.1, hd * 0.6, sd * hd * 0.35)), R.P(hpt(0.04 * hd / 0.1, hd * 0.7, sd * hd * 0.55)),
              R.P(hpt(-0.03 * hd / 0.1 - g("ears_back", 0.0) * hd, hd * 0.6 + B["ear"], sd * hd * 0.6))]
        parts.append(dict(prims=[hull([q[0] for q in P3])], col=tint(B["fur"], R.far(sd) * 0.95),
                          z=zh + (np.mean([q[1] for q in P3]) - zh) + 0.009))
    (pa, za), (pb, zb) = R.P(hpt(*sa, 0)), R.P(hpt(*sb, 0))
    parts.append(dict(prims=[("cap", pa, pb, ra * S, rb * S)], col=B["light"], z=zh + (za + zb) / 2 - (zh - 0.01) + 0.001))
    tip, zt = R.P(hpt(sb[0] + rb * 0.5, sb[1] + rb * 0.2, 0))
    parts.append(dict(prims=[("ell", tip, rb * 0.75 * S, rb * 0.6 * S)], col=B["dark"],
                      z=zh + (zt - (zh - 0.01)) + 0.002))
    return parts

def bird(R, st):
    g, S, parts = st.get, R.S, []
    brown, breast = (125, 85, 60), (225, 110, 50)
    lift = g("lift", 0.0)
    for sd in (1, -1):  # legs and toes
        for a, b in (((0.0, 0.26), (0.02, 0.02)), ((0.02, 0.02), (0.1, 0.0)), ((0.02, 0.02), (-0.06, 0.0))):
            (pa, za), (pb, zb) = R.P((a[0], a[1] + lift, sd * 0.05)), R.P((b[0], b[1] + lift, sd * 0.05))
            parts.append(dict(prims=[("cap", pa, pb, 0.012 * S, 0.01 * S)], col=tint((210, 150, 60), R.far(sd)),
                              z=(za + zb) / 2))
    b2, zb = R.P((0, 0.4 + lift, 0))
    parts.append(dict(sph=(b2, R.w(0.24, 0.15), 0.17 * S), col=brown, z=zb,
                      dec=[(R.vec(0.85, -0.45, 0), 0.35, breast)]))
    tail = [R.P((f, y + lift, s)) for f, y, s in ((-0.18, 0.42, 0.04), (-0.18, 0.42, -0.04), (-0.45, 0.33, 0.08),
                                                  (-0.45, 0.33, -0.08), (-0.44, 0.29, 0))]
    parts.append(dict(prims=[hull([q[0] for q in tail])], col=tint(brown, 0.85), z=np.mean([q[1] for q in tail]) - 0.02))
    fl = g("flap", 0.0)
    for sd in (1, -1):
        pts = [(0.1, 0.5, sd * 0.14), (-0.05, 0.52, sd * 0.15),
               (-0.3 + 0.12 * fl, 0.36 + 0.45 * fl, sd * (0.15 + 0.2 * fl)), (-0.22 + 0.05 * fl, 0.3 + 0.3 * fl, sd * 0.14)]
        pr = [R.P((f, y + lift, s)) for f, y, s in pts]
        parts.append(dict(prims=[hull([q[0] for q in pr])], col=tint((100, 70, 50), R.far(sd)),
                          z=np.mean([q[1] for q in pr]) + 0.01 * sd * R.c))
    hyo, hp_ = g("head_yaw", 0.0), g("head_pitch", 0.0)
    H = (0.2, 0.62 + lift, 0)

    def hpt(f, y, s):
        f, s = rot(f, s, hyo)
        f, y = f * cos(hp_) + y * sin(hp_), y * cos(hp_) - f * sin(hp_)
        return (H[0] + f, H[1] + y, s)
    h2, zh = R.P(H)

    def hv(f, y, s):
        f, s = rot(f, s, hyo)
        return R.vec(f, y, s, hp_)
    dec = [(hv(-0.5, 0.5, 0), 0.55, tint(brown, 0.9)), (hv(0.8, -0.5, 0), 0.75, breast)]
    for sd in (1, -1):
        dec += [(hv(0.35, 0.3, sd * 0.85), 0.975, (20, 15, 15)), (hv(0.35, 0.34, sd * 0.85), 0.998, (255, 255, 255))]
    parts.append(dict(sph=(h2, 0.11 * S, 0.11 * S), col=brown, dec=dec, z=zh + 0.03))
    bk = [R.P(hpt(*p)) for p in ((0.08, 0.03, 0), (0.08, -0.03, 0), (0.08, 0, 0.03), (0.08, 0, -0.03), (0.22, -0.01, 0))]
    parts.append(dict(prims=[hull([q[0] for q in bk])], col=(240, 190, 60), z=zh + 0.03 + (bk[4][1] - zh) * 0.5 + 0.001))
    return parts

def slime(R, st):
    g, S = st.get, R.S
    q, lift, r = g("squash", 0.0), g("lift", 0.0), 0.5
    rx, ry = r * (1 + q), r * (1 - q)
    c2, _ = R.P((0, ry + lift, 0))
    dec = [(R.vec(0, -1, 0), 0.8, (200, 80, 140))]
    for sd in (1, -1):
        dec += [(R.vec(0.75, 0.25, sd * 0.34), 0.975, (35, 20, 40)), (R.vec(0.73, 0.3, sd * 0.3), 0.997, (255, 255, 255))]
    dec += [(R.vec(0.9, -0.1, 0), 0.995, (120, 30, 70)), (np.array([-0.45, 0.55, 0.7]), 0.985, (255, 230, 245))]
    parts = [dict(sph=(c2, R.w(rx, rx * 0.9), ry * S), col=(235, 120, 175), dec=dec, z=0.0)]
    a2, za = R.P((-0.12, 2 * ry + lift - 0.03, 0))
    b2, zb = R.P((-0.3, 2 * ry + lift + 0.1 + 0.05 * q, 0.0))
    parts.append(dict(prims=[("cap", a2, b2, 0.035 * S, 0.06 * S)], col=(120, 170, 60), z=-0.01))
    return parts

# ---------------------------------------------------------------- motion

def ss(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)

def rmp(t, t0, t1):
    return ss((t - t0) / (t1 - t0))

def gait(t, hz, A, K, k0, aa, ae, lean, bob=0.0):
    p = 2 * PI * hz * t
    legs, arms = {}, {}
    for sd in (1, -1):
        ps = p + (0 if sd > 0 else PI)
        legs[sd] = (A * sin(ps), k0 + K * max(0.0, cos(ps)) ** 2)
        arms[sd] = (-aa * sin(ps) + 0.1, 0.1, ae)
    return dict(legs=legs, arms=arms, lean=lean, lift=bob * abs(sin(p)), t=t)

def walk(t):
    return gait(t, 0.85, 0.42, 0.8, 0.08, 0.45, 0.25, 0.04)

def run(t):
    return gait(t, 1.4, 0.72, 1.5, 0.3, 0.9, 1.5, 0.22, 0.03)

def idle(t):
    b = sin(2 * PI * 0.6 * t)
    return dict(legs={1: (0.14, 0.1 + 0.03 * b), -1: (-0.12, 0.06 + 0.03 * b)}, lean=0.02 + 0.02 * b, t=t,
                arms={1: (0.12 + 0.05 * b, 0.12, 0.25 + 0.05 * b), -1: (-0.06 - 0.04 * b, 0.12, 0.3)})

def quad_walk(t, hz=0.9, A=0.35, K=0.7):
    p = 2 * PI * hz * t
    legs = {}
    for key, off in (((-1, -1), 0), ((1, -1), 0.5 * PI), ((-1, 1), PI), ((1, 1), 1.5 * PI)):
        legs[key] = (A * sin(p + off), K * max(0.0, cos(p + off)) ** 2)
    return dict(legs=legs, t=t, lift=0.012 * abs(sin(2 * p)), head_pitch=0.05 * sin(2 * p), tail=PI + 0.8)

# ---------------------------------------------------------------- characters

BASE = dict(head=0.085, torso=0.3, leg=0.45, arm=0.4, neck=0.03, hipw=0.055, sw=0.1, limb=0.027, dfc=0.075,
            dfh=0.065, foot=0.03, footl=0.06, skin=(235, 190, 160), hair=(70, 45, 30), shirt=(180, 60, 50),
            sleeve=(180, 60, 50), glove=(235, 190, 160), pants=(70, 60, 90), shin=(70, 60, 90), shoe=(60, 40, 30))
KNIGHT = dict(BASE, headwear="helmet", hood=(165, 168, 178), shirt=(170, 172, 182), sleeve=(150, 152, 162),
              glove=(110, 110, 120), pants=(120, 122, 132), shin=(140, 142, 150), shoe=(90, 90, 98),
              items=dict(plume=(200, 40, 45), shield=(-1, 0.12, (190, 45, 45), (120, 85, 50)), emblem=(235, 200, 70),
                         scabbard=-1), held={})
ROGUE = dict(BASE, headwear="hood", hood=(120, 45, 40), shirt=(110, 80, 55), sleeve=(95, 68, 48),
             glove=(70, 50, 35), pants=(65, 55, 50), shin=(80, 55, 40), skin=(215, 170, 140),
             items=dict(scarf=(150, 45, 40), pouch=(-1, (150, 110, 60))), held={})
MAGE = dict(BASE, hair=(220, 220, 225), skin=(230, 195, 170), shirt=(110, 55, 140), sleeve=(110, 55, 140),
            pants=(90, 45, 115), shin=(90, 45, 115), shoe=(70, 45, 40), hairc=0.0,
            items=dict(hat=(90, 40, 120), robe=((110, 55, 140), 0.06, 1.9), orb=(250, 150, 60)), held={1: "staff"})
ARCHER = dict(BASE, hair=(170, 95, 40), shirt=(70, 120, 60), sleeve=(95, 140, 70), glove=(120, 80, 50),
              pants=(120, 95, 70), shin=(95, 65, 45), items=dict(quiver=(130, 80, 45), pony=(200, 40, 40)),
              held={-1: "bow"})
MONK = dict(BASE, headwear="bald", ears=True, skin=(225, 175, 130), shirt=(235, 140, 40), sleeve=(235, 140, 40),
            glove=(225, 175, 130), pants=(200, 110, 35), shin=(200, 110, 35), shoe=(120, 80, 50),
            items=dict(sash=(150, 40, 40), pouch=(-1, (170, 130, 70))))
GIRL = dict(BASE, hair=(90, 50, 35), bangs=True, shirt=(235, 225, 210), sleeve=(235, 225, 210),
            pants=(235, 190, 160), shin=(235, 190, 160), shoe=(140, 60, 50), eyes=(0.45, 0.985), hips=(190, 55, 70),
            items=dict(long=1, pony=(220, 60, 80), ribbon=(220, 60, 80), robe=((190, 55, 70), 0.2, 1.7)))
CHIBI = dict(BASE, head=0.2, torso=0.2, leg=0.2, arm=0.18, neck=0.01, hipw=0.055, sw=0.08, limb=0.032, dfc=0.07,
             dfh=0.065, foot=0.03, footl=0.04, hair=(240, 180, 60), shirt=(220, 90, 70), sleeve=(220, 90, 70),
             pants=(70, 80, 120), shin=(70, 80, 120), shoe=(120, 60, 40), nose=False, eyes=(0.42, 0.94),
             eyecol=(60, 40, 110), hairc=-0.25, bangs=True, items=dict(ahoge=1, ribbon=(240, 240, 250)))
HERO = dict(BASE, head=0.1, torso=0.27, leg=0.4, arm=0.36, limb=0.04, hipw=0.06, sw=0.1, hair=(250, 210, 60),
            shirt=(200, 40, 40), sleeve=(200, 40, 40), pants=(90, 60, 40), shin=(120, 70, 40), nose=False,
            eyes=(0.4, 0.985), items=dict(scarf=(250, 250, 250), scabbard=-1), held={})

# ---------------------------------------------------------------- cases

CASES = []
G1, G2, TEAL, B1, B2 = (0, 177, 64), (20, 200, 60), (0, 168, 128), (20, 80, 210), (35, 60, 190)

def case(name, action, turn, notes, size, fps, n, key, sty, blur=0, pix=0):
    def reg(fn):
        CASES.append(dict(name=name, action=action, expect=["FACING"] if turn else [], notes=notes, size=size,
                          fps=fps, n=n, key=key, sty=sty, blur=blur, pix=pix, fn=fn))
        return fn
    return reg

SOFT, CEL, INK = dict(shade="soft"), dict(shade="cel"), dict(shade="cel", ol=2.0)

@case("t01_walk_knight_turn_early_back", "walk", True, "A knight with a shield on his near arm walks left, "
      "turns round through his back at 0.9-1.5 s (the shield goes to the far side) and walks right for the last 2.5 s.",
      (960, 540), 24, 96, G1, SOFT)
def t01(cv, t):
    st = walk(t)
    st["arms"][-1] = (0.45 + 0.05 * sin(t * 5), 0.2, 1.0)
    st["plume"] = 0.1 * sin(t * 6)
    cv.paint(humanoid(Rig(cv, PI + PI * rmp(t, 0.9, 1.5), 480, 470, 330), KNIGHT, st))

@case("t02_run_rogue_turn_mid_front_blur", "run", True, "A hooded rogue runs right, turns through the front at "
      "1.3-1.6 s and runs left for the last 1.4 s.", (800, 480), 24, 72, G2, INK, blur=6)
def t02(cv, t):
    st = run(t)
    st["tailw"], st["scarf_up"] = 0.4, 0.8
    cv.paint(humanoid(Rig(cv, PI * rmp(t, 1.3, 1.6), 400, 410, 290), ROGUE, st))

@case("t03_idle_mage_turn_late_portrait", "idle", True, "A mage with a bent hat and a staff idles facing right, "
      "turns through the front at 2.0-2.4 s and idles facing left for the last 1.1 s.", (480, 832), 24, 84, TEAL, SOFT)
def t03(cv, t):
    st = idle(t)
    st["arms"][1] = (0.5 + 0.05 * sin(t * 3.7), 0.15, 0.5)
    st["wa"] = {1: PI / 2 - 0.1 + 0.06 * sin(t * 3.7)}
    cv.paint(humanoid(Rig(cv, PI * rmp(t, 2.0, 2.4), 240, 725, 440), MAGE, st))

@case("t04_attack_archer_turn_then_shoot_blue", "attack", True, "An archer with a quiver turns round through her back "
      "at 0.5-1.0 s, then draws and looses an arrow to the left and draws again (2.3 s turned).",
      (720, 540), 24, 80, B1, CEL)
def t04(cv, t):
    st = idle(t)
    d1, d2 = rmp(t, 1.1, 1.6) - rmp(t, 2.0, 2.1), rmp(t, 2.6, 3.1)
    draw = max(d1, d2)
    st["arms"] = {-1: (0.1 + (PI / 2 - 0.1) * draw, 0.05, 0.3 * (1 - draw)),
                  1: (0.1 + (PI / 2 - 0.1) * draw + 0.3 * rmp(t, 2.0, 2.1) * (1 - d2), -0.2 * draw,
                      0.2 + 2.4 * draw - 2.0 * rmp(t, 2.0, 2.1) * (1 - d2))}
    st["bow_axis"] = PI / 2 + 0.1
    if draw > 0.6:
        st["pull"] = 1
    st["lean"] = -0.03 * draw
    cv.paint(humanoid(Rig(cv, -PI * rmp(t, 0.5, 1.0), 360, 465, 300), ARCHER, st))

@case("t05_skill_monk_threequarter_turn_16fps", "skill", True, "A bald monk seen nearly from the front (3/4 towards "
      "the right) turns through the front to the mirrored 3/4 at 1.0-1.6 s and strikes with both palms to the left.",
      (640, 640), 16, 60, G1, CEL)
def t05(cv, t):
    st = idle(t)
    s = rmp(t, 1.9, 2.2) - rmp(t, 3.0, 3.4)
    st["arms"] = {sd: (0.15 + (PI / 2 - 0.15) * s - 0.1 * sd * s, 0.15 - 0.1 * s, 0.3 * (1 - s)) for sd in (1, -1)}
    st["legs"] = {1: (0.12 + 0.25 * s, 0.1 + 0.15 * s), -1: (-0.12 - 0.2 * s, 0.06 + 0.1 * s)}
    st["lean"] = 0.03 + 0.12 * s
    yaw = 1.0 + (PI - 2.0) * rmp(t, 1.0, 1.6)
    cv.paint(humanoid(Rig(cv, yaw, 320, 560, 380), MONK, st))

@case("t06_hurt_girl_knocked_round_12fps", "hurt", True, "A long-haired girl is hit at 0.6 s, spun round through her "
      "back at 0.75-1.25 s and staggers on facing left, hunched, for the last 2.4 s.", (640, 480), 12, 44, G2, SOFT)
def t06(cv, t):
    st = idle(t)
    hit, hunch = rmp(t, 0.6, 0.8) - rmp(t, 1.0, 1.4), rmp(t, 1.2, 1.6)
    st["lean"] = -0.35 * hit + 0.3 * hunch + 0.04 * sin(t * 3)
    st["arms"] = {1: (0.3 + 1.2 * hit + 0.5 * hunch, 0.3, 0.4 + 1.2 * hunch),
                  -1: (0.1 + 0.9 * hit + 0.2 * hunch, 0.3, 0.3 + 0.5 * hunch)}
    st["legs"] = {1: (0.2 + 0.15 * sin(t * 2.5) * hunch, 0.12 + 0.2 * hunch), -1: (-0.15, 0.1 + 0.2 * hunch)}
    st["hair_wind"], st["pony_kick"] = 0.1 * hit, 1.2 * hit
    st["head_pitch"] = -0.3 * hit + 0.2 * hunch
    cv.paint(humanoid(Rig(cv, -PI * rmp(t, 0.75, 1.25), 320 - 25 * hit, 420, 300), GIRL, st))

@case("t07_walk_chibi_turn_front", "walk", True, "A chibi with a big round head, seen 3/4 from the right, walks, turns "
      "through the front at 1.4-1.9 s and walks 3/4 to the left for the last 1.8 s.", (640, 640), 24, 88, TEAL, INK)
def t07(cv, t):
    st = walk(t)
    cv.paint(humanoid(Rig(cv, 0.55 + (PI - 1.1) * rmp(t, 1.4, 1.9), 320, 560, 440), CHIBI, st))

@case("t08_run_pixel_turn_late_back", "run", True, "A pixel-art hero with a scarf runs right, turns through his back "
      "at 1.55-1.8 s and runs left for the last 0.87 s (a third of the clip).", (768, 576), 24, 64, G1,
      dict(shade="cel", ol=1.0, hard=True), pix=4)
def t08(cv, t):
    st = run(t)
    cv.paint(humanoid(Rig(cv, -PI * rmp(t, 1.55, 1.8), 384, 490, 300), HERO, st))

@case("t09_walk_wolf_turn_blue", "walk", True, "A wolf walks right, turns round head first towards the camera at "
      "1.5-2.2 s and walks left for the last 1.55 s.", (960, 600), 24, 90, B1, SOFT)
def t09(cv, t):
    st = quad_walk(t)
    cv.paint(beast(Rig(cv, PI * rmp(t, 1.5, 2.2), 480, 490, 340), WOLF, st))

@case("d10_idle_rogue_lookback_held", "idle", False, "A hooded rogue idles facing right, looks back over his shoulder "
      "at 0.9-1.3 s, holds the look for 0.8 s and faces ahead again by 2.5 s.", (720, 560), 24, 84, G2, INK)
def d10(cv, t):
    st = idle(t)
    lb = rmp(t, 0.9, 1.3) - rmp(t, 2.1, 2.5)
    st["head_yaw"], st["tailw"] = 2.55 * lb, 0.2 * lb
    st["arms"][1] = (0.12 + 0.3 * lb, 0.2, 0.3 + 0.4 * lb)
    cv.paint(humanoid(Rig(cv, 0.45 * lb, 360, 480, 330), ROGUE, st))

@case("d11_attack_knight_overhead_hold_720p", "attack", False, "A knight raises his sword over and behind his head at "
      "0.5-0.9 s, holds it there for 1 s, slashes forward at 2.0 s and recovers, facing right throughout.",
      (1280, 720), 24, 84, G1, SOFT, blur=8)
def d11(cv, t):
    st = idle(t)
    up_, sl, rec = rmp(t, 0.5, 0.9), rmp(t, 1.95, 2.15), rmp(t, 2.7, 3.2)
    a = 0.3 + 2.7 * up_ - 2.3 * sl - 0.1 * rec
    st["arms"] = {1: (a + 0.03 * sin(t * 4), 0.1, 0.7 - 0.5 * sl), -1: (0.5, 0.2, 1.0)}
    wa = 0.6 + (PI + 1.0 - 0.6) * up_ - (PI + 1.0 + 0.7) * sl + 0.9 * rec
    st["wa"] = {1: wa}
    st["lean"] = -0.08 * up_ + 0.25 * sl - 0.2 * rec
    st["legs"] = {1: (0.3, 0.15 + 0.1 * sl), -1: (-0.25, 0.1)}
    cv.paint(humanoid(Rig(cv, 0.0, 620, 630, 380), dict(KNIGHT, held={1: "sword"}), st))

@case("d12_skill_mage_cape_blown_forward", "skill", False, "A mage with a long cape raises his staff and casts a wind "
      "that blows the cape and hat tip forward past him from 0.3 s to the end; he faces right throughout.",
      (704, 528), 24, 80, TEAL, CEL)
def d12(cv, t):
    st = idle(t)
    w = rmp(t, 0.3, 0.9)
    st["cape_wind"] = w * (0.85 + 0.15 * sin(t * 7))
    st["hat_tip"] = -1.2 + 2.2 * w
    st["robe_wind"] = w
    st["arms"][1] = (0.5 + 1.4 * rmp(t, 0.2, 0.7), 0.15, 0.5)
    st["wa"] = {1: PI / 2 - 0.1 + 0.6 * rmp(t, 0.2, 0.7)}
    L = dict(MAGE, items=dict(MAGE["items"], cape=(170, 40, 50)))
    cv.paint(humanoid(Rig(cv, 0.0, 330, 465, 255), L, st))

@case("d13_attack_monk_spin_kick", "attack", False, "A monk in a guard stance spins a full turn with a high kick at "
      "1.0-1.6 s and lands facing right again, the way he started.", (640, 576), 24, 72, G2, CEL)
def d13(cv, t):
    st = idle(t)
    sp, k = rmp(t, 1.0, 1.6), sin(PI * min(max((t - 1.0) / 0.6, 0), 1))
    st["arms"] = {1: (0.9 - 0.6 * k, 0.2, 1.4), -1: (1.1 - 0.6 * k, 0.3, 1.3)}
    st["legs"] = {1: (0.15 + 1.2 * k, 0.1 - 0.05 * k), -1: (-0.15, 0.15)}
    st["lift"] = 0.08 * k
    cv.paint(humanoid(Rig(cv, 2 * PI * sp, 320, 500, 330), MONK, st))

@case("d14_hurt_wolf_tail_raised_blue", "hurt", False, "A wolf facing right is hit at 0.6 s, recoils with its head "
      "thrown up and its tail raised high, holds it 1.4 s and settles, still facing right.", (896, 576), 24, 72, B2, SOFT)
def d14(cv, t):
    st = quad_walk(0.0)
    h = rmp(t, 0.6, 0.85) - rmp(t, 2.25, 2.7)
    st["tail"] = PI + 0.8 - 2.1 * h
    st["curl"] = -0.2 - 0.15 * h
    st["head_pitch"] = -0.55 * h + 0.03 * sin(t * 9) * h
    st["ears_back"] = 0.6 * h
    st["legs"] = {(1, 1): (-0.35 * h, 0.0), (1, -1): (-0.25 * h, 0.0),
                  (-1, 1): (0.2 * h, 0.3 * h), (-1, -1): (0.3 * h, 0.3 * h)}
    pitch = -0.18 * h
    cv.paint(beast(Rig(cv, 0.0, 470 - 50 * h, 470, 330, pitch, (-0.3, 0.0)), WOLF, st))

@case("d15_skill_horse_rearing", "skill", False, "A horse facing left rears up on its hind legs at 0.8-1.3 s, paws the "
      "air for 1.5 s and comes down at 2.3-2.8 s.", (960, 720), 24, 84, G1, SOFT)
def d15(cv, t):
    st = quad_walk(0.0)
    r = rmp(t, 0.8, 1.3) - rmp(t, 2.3, 2.8)
    paw = sin(t * 9)
    st["legs"] = {(1, 1): (1.3 * r + 0.3 * r * paw, 1.8 * r), (1, -1): (1.1 * r - 0.3 * r * paw, 1.6 * r),
                  (-1, 1): (0.35 * r, 0.1 * r), (-1, -1): (0.25 * r, 0.0)}
    st["head_pitch"] = 0.3 * r + 0.05 * sin(t * 4)
    st["tail"] = PI + 1.2 + 0.2 * r
    st["curl"] = 0.05
    cv.paint(beast(Rig(cv, PI, 470, 620, 300, -0.8 * r, (-0.36, 0.0)), HORSE, st))

@case("d16_hurt_girl_knockback_lean_12fps", "hurt", False, "A girl facing left is knocked back at 0.5 s, slides back "
      "leaning far backwards with her hair thrown forward, and recovers by 2.2 s, still facing left.",
      (640, 512), 12, 44, G2, INK)
def d16(cv, t):
    st = idle(t)
    h = rmp(t, 0.5, 0.8) - rmp(t, 1.6, 2.2)
    st["lean"] = -0.5 * h + 0.02
    st["head_pitch"] = 0.35 * h
    st["arms"] = {1: (0.2 + 1.3 * h, 0.3, 0.4), -1: (0.1 + 1.1 * h, 0.4, 0.3)}
    st["legs"] = {1: (0.14 + 0.4 * h, 0.1 + 0.3 * h), -1: (-0.12 + 0.25 * h, 0.06 + 0.5 * h)}
    st["hair_wind"], st["pony_kick"], st["robe_wind"] = 0.7 * h, 1.8 * h, 0.6 * h
    x = 320 + 70 * rmp(t, 0.5, 0.9) - 50 * rmp(t, 1.4, 2.4)
    cv.paint(humanoid(Rig(cv, PI, x, 440, 300), GIRL, st))

@case("d17_attack_rogue_slash_across_blue", "attack", False, "A rogue facing left slashes two daggers across his body "
      "at 0.8 s, holds the follow-through twisted so his back shows for 0.6 s, recovers, and slashes once more.",
      (720, 480), 24, 72, B1, CEL)
def d17(cv, t):
    st = idle(t)
    wind, sl, rec = rmp(t, 0.5, 0.8), rmp(t, 0.8, 1.0), rmp(t, 1.6, 2.1)
    s2 = rmp(t, 2.3, 2.45) - rmp(t, 2.6, 2.9)
    ab = 0.5 * wind - 1.6 * sl + 1.1 * rec - 0.8 * s2
    st["arms"] = {sd: (0.3 + 1.0 * wind - 0.1 * sl - 0.6 * rec + 0.8 * s2, ab * (1 if sd > 0 else 0.7), 0.6 - 0.4 * sl)
                  for sd in (1, -1)}
    st["legs"] = {1: (0.3 * (wind - rec) + 0.12, 0.2), -1: (-0.2, 0.12)}
    st["lean"] = 0.25 * sl * (1 - rec) + 0.1 * s2
    twist = 0.8 * (sl - rec) + 0.35 * s2
    st["head_yaw"] = -0.6 * twist
    cv.paint(humanoid(Rig(cv, PI + twist, 360, 400, 270), dict(ROGUE, held={1: "dagger", -1: "dagger"}), st))

@case("d18_skill_slime_crouch_jump_16fps", "skill", False, "A slime with its eyes on the right squashes down, jumps "
      "high at 0.9 s, lands at 1.6 s, wobbles and hops again, its eyes on the right throughout.",
      (512, 512), 16, 64, G1, INK)
def d18(cv, t):
    if t < 0.9:
        q, y = 0.05 * sin(t * 6) + 0.25 * rmp(t, 0.5, 0.85), 0.0
    elif t < 1.6:
        u = (t - 0.9) / 0.7
        q, y = -0.15 * sin(PI * u), 4 * 0.95 * u * (1 - u)
    elif t < 2.4:
        q, y = 0.3 * np.exp(-(t - 1.6) * 5) * cos((t - 1.6) * 18), 0.0
    else:
        u = min((t - 2.4) / 0.45, 1.0)
        q, y = -0.08 * sin(PI * u), 0.35 * 4 * u * (1 - u)
    cv.paint(slime(Rig(cv, 0.45, 256, 440, 140), dict(squash=q, lift=y)))

@case("d19_idle_chibi_crouch_lean", "idle", False, "A chibi (3/4 to the right) crouches down at 0.8-1.2 s, holds it, "
      "stands, leans back stretching at 2.1-2.5 s, then leans forward, facing right throughout.",
      (560, 560), 24, 80, TEAL, INK)
def d19(cv, t):
    st = idle(t)
    c, b = rmp(t, 0.8, 1.2) - rmp(t, 1.8, 2.1), rmp(t, 2.1, 2.5) - rmp(t, 2.7, 3.0)
    f = rmp(t, 2.8, 3.0)
    st["legs"] = {1: (0.14 + 1.0 * c, 0.1 + 2.0 * c), -1: (-0.12 + 1.0 * c, 0.06 + 2.0 * c)}
    st["lean"] = 0.35 * c - 0.35 * b + 0.2 * f
    st["arms"] = {sd: (0.1 + 0.8 * c + 2.6 * b, 0.25, 0.3 + 0.3 * c - 0.2 * b) for sd in (1, -1)}
    st["head_pitch"] = -0.2 * b
    cv.paint(humanoid(Rig(cv, 0.55, 280, 490, 380), CHIBI, st))

@case("d20_idle_bird_preen_lookback_blue", "idle", False, "A robin facing right hops twice, turns its head back to "
      "preen for 0.9 s, looks ahead again at 2.0-2.3 s and flaps its wings.", (640, 480), 24, 84, B2, SOFT)
def d20(cv, t):
    h = rmp(t, 0.8, 1.1) - rmp(t, 2.0, 2.3)
    hop = max(0.0, sin(PI * t / 0.3)) * (t < 0.6) * 0.12
    flap = max(0.0, sin((t - 2.5) * 14)) * (2.5 < t < 3.2)
    st = dict(head_yaw=2.8 * h, head_pitch=0.35 * h + 0.15 * h * sin(t * 12), lift=hop, flap=flap)
    cv.paint(bird(Rig(cv, 0.15, 320, 400, 400), st))

@case("d21_walk_girl_hair_blown_forward", "walk", False, "A girl walks right with a tail wind that blows her hair, "
      "ponytail and skirt forward past her face from 0.4 s to the end; she faces right throughout.",
      (800, 600), 24, 80, G1, CEL)
def d21(cv, t):
    st = walk(t)
    w = rmp(t, 0.2, 0.6) * (0.9 + 0.1 * sin(t * 8))
    st["hair_wind"], st["robe_wind"], st["pony_kick"] = w, 0.7 * w, 0.3 * w
    cv.paint(humanoid(Rig(cv, 0.0, 400, 510, 370), GIRL, st))

# ---------------------------------------------------------------- the screen and the files

def character(c, t, k=1.0):
    """Premultiplied RGB and alpha of the character at time t (clip size times k)."""
    W, H = c["size"]
    pix = c["pix"]
    if pix:
        cv = Canvas(W // pix, H // pix, c["sty"], 1.0 / pix)
        c["fn"](cv, t)
        rep = int(pix * k)
        return np.repeat(np.repeat(cv.rgb, rep, 0), rep, 1), np.repeat(np.repeat(cv.a, rep, 0), rep, 1), cv.gy
    subs = [t] if (c["blur"] == 0 or k != 1.0) else [t + (j + 0.5 - c["blur"] / 2) * 0.5 / c["fps"] / c["blur"]
                                                     for j in range(c["blur"])]
    rgb, a = 0, 0
    for ts in subs:
        cv = Canvas(int(W * k), int(H * k), c["sty"], k)
        c["fn"](cv, max(ts, 0.0))
        rgb, a = rgb + cv.rgb / len(subs), a + cv.a / len(subs)
    return rgb, a, cv.gy

def backdrop(W, H, key, rng):
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    x, y = x / W * 2 - 1, y / H * 2 - 1
    gx, gy = rng.uniform(-0.07, 0.07, 2)
    bg = np.array(key, np.float32) * ((1 + gx * x + gy * y) * (1 - 0.12 * (x * x + y * y)))[..., None]
    return bg

def shadow(a, gy, W, H):
    rows = np.nonzero(a.max(1) > 0.5)[0]
    if len(rows) == 0:
        return np.zeros_like(a)
    low = rows[-1]
    band = a[max(low - int(0.1 * H), 0):low + 1].max(0) > 0.5
    xs = np.nonzero(band)[0]
    h = max(gy - low, 0)
    strength = 0.35 * max(0.0, 1 - h / (0.3 * H))
    rx = max((xs[-1] - xs[0]) / 2 * 1.2 * (1 + h / H), 10)
    m = np.zeros_like(a)
    cv2.ellipse(m, (int((xs[0] + xs[-1]) / 2), int(gy)), (int(rx), int(rx * 0.16) + 2), 0, 0, 360, 1.0, -1,
                cv2.LINE_AA)
    return cv2.GaussianBlur(m, (0, 0), 2 + rx * 0.08) * strength

def to_yuv420(rgb):
    """BT.601 limited range, 2x2 chroma average: done here so that every run gives the same bytes."""
    r, g, b = [rgb[..., i].astype(np.float32) for i in range(3)]
    Y = 16 + 0.256788 * r + 0.504129 * g + 0.097906 * b
    U = 128 - 0.148223 * r - 0.290993 * g + 0.439216 * b
    V = 128 + 0.439216 * r - 0.367788 * g - 0.071427 * b
    H, W = Y.shape
    U = U.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    V = V.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    q = lambda p: np.clip(np.round(p), 0, 255).astype(np.uint8)
    return np.concatenate([q(Y), q(U).reshape(H // 4, W), q(V).reshape(H // 4, W)])

def render(c):
    t0 = time.time()
    W, H = c["size"]
    n, fps = c["n"], c["fps"]
    seed = sum(map(ord, c["name"]))
    rng = np.random.default_rng(seed)
    folder = os.path.join(OUT, c["name"])
    os.makedirs(folder, exist_ok=True)
    bg0 = backdrop(W, H, c["key"], rng)
    wrap_px, wrap_k, crf = 2 + seed % 3, 0.15 + 0.05 * (seed % 4), 20 + seed % 5
    truth = np.zeros((n, H, W, 4), np.uint8)
    box = [W, H, 0, 0]
    out = av.open(os.path.join(folder, "clip.mp4"), "w")
    s = out.add_stream("libx264", rate=fps)
    s.width, s.height, s.pix_fmt = W, H, "yuv420p"
    s.codec_context.thread_count = 1
    s.options = {"crf": str(crf), "preset": "medium", "x264-params": "mbtree=0:threads=1"}
    for i in range(n):
        prem, a, gy = character(c, i / fps)
        fg = np.where(a[..., None] > 1e-4, prem / np.maximum(a, 1e-4)[..., None], 0).clip(0, 1) * 255
        truth[i, ..., :3] = np.round(fg)
        truth[i, ..., 3] = np.round(a * 255)
        ys, xs = np.nonzero(truth[i, ..., 3] > 8)
        box = [min(box[0], xs.min()), min(box[1], ys.min()), max(box[2], xs.max()), max(box[3], ys.max())]
        bg = bg0 * (1 - shadow(a, gy, W, H))[..., None]
        inv = 1 - a
        bgb = cv2.GaussianBlur(bg * inv[..., None], (0, 0), 3) / (cv2.GaussianBlur(inv, (0, 0), 3) + 1e-3)[..., None]
        m = np.clip(2 * (1 - cv2.GaussianBlur(a, (0, 0), wrap_px / 2)), 0, 1) * wrap_k
        fg = fg * (1 - m[..., None]) + bgb * m[..., None]
        img = fg * a[..., None] + bg * inv[..., None] + rng.normal(0, 1.5, (H, W, 3))
        frame = av.VideoFrame.from_ndarray(to_yuv420(np.clip(np.round(img), 0, 255)), format="yuv420p")
        frame.pts = i
        for p in s.encode(frame):
            out.mux(p)
    for p in s.encode():
        out.mux(p)
    out.close()
    np.savez_compressed(os.path.join(folder, "truth.npz"), rgba=truth)
    prem, a, _ = character(c, 0.0, 2.0 if c["pix"] else 1.5)
    rgba = np.dstack([np.where(a[..., None] > 1e-4, prem / np.maximum(a, 1e-4)[..., None], 0).clip(0, 1), a])
    ys, xs = np.nonzero(a > 0.01)
    pad = 12
    rgba = rgba[max(ys.min() - pad, 0):ys.max() + pad, max(xs.min() - pad, 0):xs.max() + pad]
    Image.fromarray(np.round(rgba * 255).astype(np.uint8), "RGBA").save(os.path.join(folder, "portrait.png"))
    with open(os.path.join(folder, "case.json"), "w") as f:
        json.dump(dict(action=c["action"], notes=c["notes"], expect_flags=c["expect"]), f, indent=1)
    margin = min(box[0] / W, box[1] / H, (W - 1 - box[2]) / W, (H - 1 - box[3]) / H)
    return f"{c['name']:<44} {W}x{H} {n:3d}f@{fps} crf{crf}  min margin {margin:5.1%}  {time.time() - t0:5.1f}s"

def main(argv):
    todo = [c for c in CASES if not argv or any(a in c["name"] for a in argv)]
    t0 = time.time()
    workers = min(2, os.cpu_count() or 1, len(todo))
    if workers > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(workers) as pool:
            for line in pool.imap(render, todo):
                print(line, flush=True)
    else:
        for c in todo:
            print(render(c), flush=True)
    print(f"{len(todo)} cases into {OUT} in {time.time() - t0:.0f} s")

if __name__ == "__main__":
    main(sys.argv[1:])
