"""Trial 28: green/blue-screen clips made the way MiniMax H3 footage looks, with their truth.

Run from the repository root:  .venv/bin/python trials/trial28.py [NAME_SUBSTRING]
Writes one case folder per clip (clip.mp4, portrait.png, truth.npz, case.json) into
$TRIAL_OUT, else trials/_out/trial28/.  Deterministic: the same bytes on every run.

How a clip is made
------------------
* The character is drawn per frame as premultiplied RGBA: procedural jointed rigs drawn
  with OpenCV at 4x supersampling and box-shrunk (coverage alpha), or Kenney's CC0 sprites
  (arcade==2.6.17 wheel, read with zipfile; fetched with `pip download` when not found in
  $ARCADE_WHEEL or /tmp/arc) warped with bicubic affine maps.  Fast parts get motion blur:
  sub-frames over a half-frame shutter (count set by the fastest point's travel, up to 20)
  are averaged, and the truth's alpha is that averaged coverage.  A slow colour drift of
  the whole character (1-3 % per channel by the end, at most ~7 levels) is part of the character, so it is in the
  truth; so are motion blur, antialiasing, the slow zoom of one case and the pixel-art
  softening.  The truth is quantised to uint8 first and the clip is composited from it.
* Frame 0 = the portrait's straight RGBA over the flat key colour (no noise, no wrap).
* From frame 1 (ramping in over ~4 frames): the key drifts to the model's own shade and
  keeps drifting slowly in hue; gradient x vignette; brightness flicker; low-frequency
  blotches and fine grain on the screen; a soft contact shadow under the feet (screen
  only); light wrap: the local screen colour mixed into the character's colour, full
  strength on edge pixels and fading to 0 over `wrap px` inward (w = s*(1-(d-1)/px)^1.5);
  in two cases also a pale, key-tinted 1-px rim (the "light outline").  A faint grain
  (sigma 1 level) covers the whole frame.  Then H.264 yuv420p, libx264 veryfast,
  threads=1, mbtree=0; AAC stereo 44.1 kHz where marked.
* None of wrap, rim, shadow, screen, grain, bars or ghosting is in the truth.

Cases (W x H, frames @ 24 fps, CRF, screen: first-frame key -> model key, wrap px/strength;
"height" = the rest pose's height over the canvas height)
-------------------------------------------------------------------------------------------
 1 kenney_adventurer_walk   walk   448x448  56  CRF20  green 00FF00->(30,230,48)  wrap 4/0.30  AAC
   Kenney male adventurer (flat vector, GREEN SHIRT on green), 8-pose walk cycle, each pose
   held 3 frames, bob and small drift; height 63%.                            flags []
 2 kenney_zombie_idle       idle   448x448  73  CRF23  green (0,177,64)->(20,168,72)  wrap 3/0.25 +rim 0.2
   Kenney zombie (TEAL SKIN, purple shirt), breathing squash + sway about the feet;
   longer than 2 s (73 frames); height 71%.                                   flags []
 3 kenney_robot_run_blue    run    512x320  56  CRF21  BLUE (0,71,187)->(14,84,196)  wrap 3/0.30  AAC
   Kenney robot (blue-grey metal on the blue screen), walk poses held 2 frames, forward
   lean and bounce; height 72%.                                               flags []
 4 ninja_attack_cel         attack 448x448  39  CRF20  green 00FF00->(36,226,52)  wrap 3/0.30  AAC
   Near-BLACK NINJA, flat cel with dark outlines, red scarf tails; katana with a ~2 px
   tip; wind-up, overhead slash in 4 frames (heavy motion blur), lunge; height 56%. []
 5 knight_skill_soft        skill  448x448  39  CRF22  green (16,200,40)->(40,214,58) wrap 5/0.35 +rim 0.25
   PALE/WHITE ARMOUR knight, soft shading; crouch, then sword raised overhead, trembling
   hold; slow zoom 1.00->1.04; portrait.png at 2x the canvas (896x896, its area-downscale
   is frame 0's truth); height 51%.                                           flags []
 6 witch_hurt_paint         hurt   448x448  22  CRF24  green 00FF00->(28,232,44)  wrap 4/0.25
   Painterly witch (brush texture, irregular edges), purple robe, ~20 THIN PALE HAIR
   STRANDS (0.5-1 px) waving; fast recoil, shake, partial recovery; height 62%.  []
 7 ranger_walk_cloak_wide   walk   768x448  56  CRF19  green (0,177,64)->(16,176,70) wrap 4/0.30  AAC
   Painterly ranger, GREEN HOOD AND CLOAK on green, fluttering; walk; height 74%.  []
 8 pixel_hero_run           run    448x448  56  CRF20  green 00FF00->(32,228,50)  wrap 2/0.20
   Pixel art drawn at 1/4 res, 1-px outline, nearest-neighbour x4, softened 0.55 px;
   red tunic, sword; run; height 56%.                                         flags []
 9 pixel_shaman_idle_tall   idle   320x512  56  CRF22  green (0,177,64)->(22,170,66)  wrap 2/0.20
   Portrait-orientation canvas; pixel-art goblin shaman (TEAL SKIN, purple robe, staff);
   breathing, robe sway; height 64%.                                          flags []
10 whip_attack_wide         attack 448x256  39  CRF21  green 00FF00->(30,230,46)  wrap 3/0.30
   Cel whip fighter FACING LEFT throughout; WHIP 1.5->0.75 px thick whose segments follow
   the handle's angle with a lag (wave runs to the tip); height 69%.          flags []
11 bluecoat_skill_blue      skill  448x448  39  CRF22  BLUE (0,0,255)->(28,52,232)  wrap 4/0.30
   Soft-shaded mage in BLUE CLOTHES on the blue screen, white trousers; staff raised
   overhead and held; height 55%.                                             flags []
12 monk_walk_letterbox      walk   448x448  56  CRF21  green 00FF00->(34,226,50)  wrap 3/0.25
   Soft-shaded bald monk, saffron robe; from frame 1 on, near-BLACK LETTERBOX BARS 48 px
   top and bottom baked into the video (frame 0 is the plain first frame); the character
   stays between them; height 53%.                                            flags []
13 facing_turn_walk         walk   448x448  56  CRF20  green 00FF00->(30,230,46)  wrap 3/0.30
   Cel swordsman with a shield on the front arm; walks facing right, turns during frames
   20-27 (narrowing, then mirrored) and walks facing LEFT from frame 27 to the end (52%
   of the clip); height 62%.                                        flags [FACING]
14 smear_run_ghost          run    448x448  56  CRF20  green 00FF00->(30,230,46)  wrap 3/0.30
   Cel runner (yellow top, spiky red hair); every frame from 1 on is 0.7 x its own
   render + 0.3 x the previous frame's (un-ghosted) render; height 60%.  flags [SMEAR]
15 cropped_spear_attack     attack 448x448  39  CRF21  green (0,177,64)->(20,170,70)  wrap 3/0.30
   Soft-shaded spearman near the right edge; the spear's tip crosses the edge in frames
   7-36 and the thrust takes the hand and forearm out in frames ~14-28 (frame 0 and
   the last two frames are fully inside); height 71%.              flags [CROPPED]
16 truncated_walk           walk   448x448  30  CRF22  green 00FF00->(30,230,46)  wrap 3/0.25
   Kenney female adventurer walking: a 2 s walk with only 30 frames; height 59%.
                                                                   flags [TRUNCATED]
17 ninja_idle_long_small    idle   448x256  90  CRF26  green (16,200,40)->(36,210,56)  wrap 2/0.30 AAC
   The ninja small (146 px) and idle for 90 frames (3.75 s); height 57%.     flags []

Every case without CROPPED keeps the character >= 4 px from the frame edges (and from
the bars) in every frame: run_case asserts it from the truth.
"""

from __future__ import annotations

import glob
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

FPS = 24
PI = np.pi
SHUTTER = 0.5  # of a frame interval


def h3_frames(seconds: float) -> int:
    n = max(5, round(seconds * FPS))
    return n + (5 - n % 17) % 17


def smooth(u):
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def seed_of(name: str) -> int:
    return zlib.crc32(name.encode())


# ----------------------------------------------------------------------------- Kenney sprites
_WHEEL = None


def _wheel() -> zipfile.ZipFile:
    global _WHEEL
    if _WHEEL is None:
        cands = [os.environ.get("ARCADE_WHEEL", "")] + sorted(glob.glob("/tmp/arc/arcade-2.6.17*.whl"))
        cands = [c for c in cands if c and os.path.isfile(c)]
        if not cands:
            d = os.path.join(tempfile.gettempdir(), "trial28_arcade")
            cands = sorted(glob.glob(os.path.join(d, "arcade-2.6.17*.whl")))
            if not cands:
                subprocess.run([sys.executable, "-m", "pip", "download", "arcade==2.6.17", "--no-deps",
                                "-d", d, "-q"], check=True)
                cands = sorted(glob.glob(os.path.join(d, "arcade-2.6.17*.whl")))
        _WHEEL = zipfile.ZipFile(cands[0])
    return _WHEEL


def kenney(folder: str, name: str) -> np.ndarray:
    """Premultiplied float32 RGBA of a Kenney sprite."""
    from PIL import Image
    data = _wheel().read(f"arcade/resources/images/animated_characters/{folder}/{name}.png")
    a = np.asarray(Image.open(io.BytesIO(data)).convert("RGBA"), dtype=np.float32) / 255.0
    a[..., :3] *= a[..., 3:4]
    # 2 px transparent border so bicubic sampling has room
    return np.pad(a, ((2, 2), (2, 2), (0, 0)))


# ----------------------------------------------------------------------------- drawing
class Pad:
    """Supersampled drawing surface for one crop of the canvas."""

    def __init__(self, x0, y0, w, h, k, shift=4):
        self.x0, self.y0, self.k, self.sh = x0, y0, k, shift
        self.rgb = np.zeros((h, w, 3), np.uint8)
        self.a = np.zeros((h, w), np.uint8)

    def P(self, pts):
        pts = (np.asarray(pts, np.float64).reshape(-1, 2) - (self.x0, self.y0)) * self.k
        return np.round(pts * (1 << self.sh)).astype(np.int32)

    def R(self, r):
        return max(1, int(round(r * self.k * (1 << self.sh))))

    def circle(self, c, r, col):
        c = tuple(int(v) for v in self.P(c)[0])
        rr = self.R(r)
        cv2.circle(self.rgb, c, rr, tuple(float(v) for v in col), -1, cv2.LINE_8, self.sh)
        cv2.circle(self.a, c, rr, 255, -1, cv2.LINE_8, self.sh)

    def poly(self, pts, col):
        p = [self.P(pts)]
        cv2.fillPoly(self.rgb, p, tuple(float(v) for v in col), cv2.LINE_8, self.sh)
        cv2.fillPoly(self.a, p, 255, cv2.LINE_8, self.sh)

    def line(self, pts, th, col):
        t = max(1, int(round(th * self.k)))
        p = self.P(pts)
        cv2.polylines(self.rgb, [p], False, tuple(float(v) for v in col), t, cv2.LINE_8, self.sh)
        cv2.polylines(self.a, [p], False, 255, t, cv2.LINE_8, self.sh)


def capsule_outline(p0, p1, r0, r1, jitter=None, n=10):
    p0, p1 = np.asarray(p0, float), np.asarray(p1, float)
    d = p1 - p0
    L = np.hypot(*d)
    ang = np.arctan2(d[1], d[0]) if L > 1e-6 else 0.0
    pts = []
    for i in range(n + 1):
        a = ang - PI / 2 + PI * i / n
        pts.append(p1 + r1 * np.array([np.cos(a), np.sin(a)]))
    for i in range(n + 1):
        a = ang + PI / 2 + PI * i / n
        pts.append(p0 + r0 * np.array([np.cos(a), np.sin(a)]))
    pts = np.array(pts)
    if jitter is not None:
        c = pts.mean(0)
        pts = c + (pts - c) * (1 + jitter[: len(pts), None])
    return pts


def shade(col, f, add=0.0):
    return tuple(float(np.clip(v * f + add, 0, 255)) for v in col)


def draw_shapes(pad: Pad, shapes, style, ol_col=(20, 16, 22)):
    for sh in shapes:
        kind = sh[0]
        if kind == "line":
            _, pts, th, col = sh
            pad.line(pts, th, col)
            continue
        if kind == "lines":  # tapered polyline: list of (p0, p1, th)
            _, segs, col = sh
            for p0, p1, th in segs:
                pad.line([p0, p1], th, col)
            continue
        if kind == "cap":
            _, p0, p1, r0, r1, col, ol, tag = sh
        elif kind == "circ":
            _, p0, r0, col, ol, tag = sh
            p1, r1 = p0, r0
        else:  # poly
            _, pts, col, ol, tag = sh
        if kind in ("cap", "circ"):
            if style == "paint":
                rs = np.random.default_rng(tag)
                jit = 0.07 * rs.standard_normal(32)
                jit = np.convolve(np.r_[jit, jit[:3]], np.ones(3) / 3, "valid")[:32]
                if ol:
                    pad.poly(capsule_outline(p0, p1, r0 + ol, r1 + ol, jit, 12), shade(col, 0.55))
                pad.poly(capsule_outline(p0, p1, r0, r1, jit, 12), col)
                continue
            if ol:
                pad.poly(capsule_outline(p0, p1, r0 + ol, r1 + ol), ol_col)
            if style == "soft":
                pad.poly(capsule_outline(p0, p1, r0, r1), shade(col, 0.70))
                o = np.array([-0.12, -0.15])
                pad.poly(capsule_outline(np.asarray(p0) + o * r0, np.asarray(p1) + o * r1, 0.78 * r0, 0.78 * r1), col)
                o = np.array([-0.28, -0.32])
                pad.poly(capsule_outline(np.asarray(p0) + o * r0, np.asarray(p1) + o * r1, 0.36 * r0, 0.36 * r1),
                         shade(col, 1.12, 18))
            else:
                pad.poly(capsule_outline(p0, p1, r0, r1), col)
        else:
            pts = np.asarray(pts, float)
            if ol:
                pad.poly(pts, ol_col)
                pad.line(np.r_[pts, pts[:1]], 2 * ol, ol_col)
            if style == "soft":
                pad.poly(pts, shade(col, 0.72))
                c = pts.mean(0)
                size = np.ptp(pts, 0).max()
                pad.poly(c + (pts - c) * 0.8 + np.array([-0.05, -0.06]) * size, col)
            else:
                pad.poly(pts, col)


def shapes_bbox(shapes, margin):
    pts, rmax = [], 0.0
    for sh in shapes:
        if sh[0] == "cap":
            pts += [sh[1], sh[2]]
            rmax = max(rmax, sh[3] + sh[6], sh[4] + sh[6])
        elif sh[0] == "circ":
            pts.append(sh[1])
            rmax = max(rmax, sh[2] + sh[4])
        elif sh[0] == "poly":
            pts += list(np.asarray(sh[1]))
            rmax = max(rmax, 2 * sh[3])
        elif sh[0] == "line":
            pts += list(np.asarray(sh[1]))
            rmax = max(rmax, sh[2])
        elif sh[0] == "lines":
            for p0, p1, th in sh[1]:
                pts += [p0, p1]
                rmax = max(rmax, th)
    pts = np.asarray(pts, float)
    return pts.min(0) - rmax - margin, pts.max(0) + rmax + margin


# ----------------------------------------------------------------------------- the rig
PROP = dict(leg=47.0, torso=29.0, neck=11.0, head=10.5, thigh=24.0, shin=22.0, foot=8.5,
            uarm=17.0, farm=15.0)

REST = dict(lean=0.03, head=0.0, hip_dx=0.0, hip_dy=0.0, thigh_b=-0.10, thigh_f=0.12, knee_b=0.06,
            knee_f=0.08, uarm_b=-0.12, uarm_f=0.18, elbow_b=0.25, elbow_f=0.45, wpn=1.65, flut=0.0,
            rootdx=0.0, rootdy=0.0, wamp=0.3, whip=0.0)


def D(th):
    return np.array([np.sin(th), np.cos(th)])


def fk(p):
    L = PROP
    J = {}
    hip = np.array([p["hip_dx"], -L["leg"] + p["hip_dy"]])
    up = np.array([np.sin(p["lean"]), -np.cos(p["lean"])])
    neck = hip + L["torso"] * up
    J.update(hip=hip, up=up, neck=neck)
    ha = p["lean"] + p["head"]
    J["head"] = neck + L["neck"] * np.array([np.sin(ha), -np.cos(ha)])
    J["hang"] = ha
    sh = neck - 2.5 * up
    for s, dx in (("b", -1.5), ("f", 1.5)):
        th = p["thigh_" + s]
        knee = hip + L["thigh"] * D(th)
        sa = th - p["knee_" + s]
        ank = knee + L["shin"] * D(sa)
        fa = 0.45 * max(0.0, -sa) + p.get("foot_" + s, 0.0)
        toe = ank + L["foot"] * np.array([np.cos(fa), np.sin(fa)])
        J.update({"knee" + s: knee, "ank" + s: ank, "toe" + s: toe})
        shs = sh + np.array([dx, 0.0])
        ua = p["uarm_" + s]
        elb = shs + L["uarm"] * D(ua)
        fa2 = ua + p["elbow_" + s]
        wr = elb + L["farm"] * D(fa2)
        J.update({"sh" + s: shs, "elb" + s: elb, "hand" + s: wr, "fa" + s: fa2})
    J["wdir"] = p["wpn"] + J["faf"]
    return J


@dataclass
class Look:
    name: str
    style: str  # cel | soft | paint | pixel
    skin: tuple
    top: tuple
    sleeve: tuple
    pants: tuple
    boots: tuple
    hair: tuple = (70, 45, 30)
    hair_kind: str = "short"  # short|spiky|strands|bald|helmet|ninja|hood|goblin
    hand: tuple | None = None
    belt: tuple = (90, 60, 35)
    weapon: str | None = None  # sword|katana|spear|staff|whip|None
    metal: tuple = (200, 205, 215)
    ol: float = 0.0  # outline, units
    cloak: tuple | None = None
    robe: tuple | None = None
    scarf: tuple | None = None
    shield: tuple | None = None
    backsword: bool = False
    eye: tuple = (25, 20, 30)
    strands: int = 0
    bulk: float = 1.3  # limb and torso thickness
    head_r: float = 11.5


class Xf:
    """local units (x forward, y down, ground at 0) -> canvas px."""

    def __init__(self, x, y, s, f=1.0, z=1.0):
        self.x, self.y, self.s, self.f, self.z = x, y, s, f, z

    def __call__(self, q):
        q = np.asarray(q, float)
        return np.array([self.x + self.f * self.s * self.z * q[..., 0], self.y + self.s * self.z * q[..., 1]]).T

    def r(self, r):
        return r * self.s * self.z


def rig_shapes(lk: Look, p, X: Xf, tau: float):
    J = fk(p)
    S = []
    ol = lk.ol
    R = X.r
    dk = 0.74
    tagn = [0]

    def tag():
        tagn[0] += 1
        return seed_of(lk.name) + tagn[0]

    def cap(a, b, r0, r1, col, o=ol):
        S.append(("cap", X(a), X(b), R(r0), R(r1), col, R(o), tag()))

    def circ(c, r, col, o=ol):
        S.append(("circ", X(c), R(r), col, R(o), tag()))

    def poly(pts, col, o=ol):
        S.append(("poly", X(np.asarray(pts)), col, R(o), tag()))

    B, Bh = lk.bulk, np.sqrt(lk.bulk)
    w = p["wamp"]
    up, hip, neck, head = J["up"], J["hip"], J["neck"], J["head"]
    perp = np.array([-up[1], up[0]])  # forward-pointing normal of the torso

    # cloak (behind everything)
    if lk.cloak is not None:
        fl = p["flut"]
        pts = [neck + 3.5 * perp + 1.0 * up * -1, neck - 4.5 * perp]
        for i in range(1, 6):
            u = i / 5
            base = neck + (hip + np.array([0, 30.0]) - neck) * u
            off = 8.0 + 7.0 * u + 6.0 * u * fl + 2.0 * u * w * np.sin(2 * PI * tau / 17 - 2.2 * u)
            pts.append(base - off * np.array([np.cos(0.25 * fl * u), np.sin(0.25 * fl * u) * -1]))
        hem_y = hip[1] + 30.0 - 4.0 * fl
        for i in range(1, 4):
            u = i / 4
            x = pts[-1][0] * (1 - u) + (hip[0] + 1.0) * u
            pts.append(np.array([x, hem_y + 1.5 * w * np.sin(2 * PI * tau / 13 + 3 * u)]))
        pts.append(hip + np.array([2.0, 0.0]))
        poly(pts, lk.cloak)

    # long hair strands behind the body
    def strands(n, front=False):
        rs = np.random.default_rng(seed_of(lk.name) + (7 if front else 3))
        ha = J["hang"]
        rot = np.array([[np.cos(ha), -np.sin(ha)], [np.sin(ha), np.cos(ha)]])
        for i in range(n):
            a0 = rs.uniform(-2.6, -0.9) if not front else rs.uniform(-1.2, -0.4)
            root = head + rot @ (lk_r * np.array([np.sin(a0), -np.cos(a0)]) * 0.95)
            L = rs.uniform(26, 42) if not front else rs.uniform(9, 14)
            nseg = 8
            pts = [root]
            ang = (-0.55 if not front else 0.35) + rs.uniform(-0.15, 0.15)
            ph = rs.uniform(0, 2 * PI)
            for k in range(nseg):
                u = (k + 1) / nseg
                a = ang + u * (0.35 if not front else 0.1) + w * 0.22 * u * np.sin(2 * PI * tau / 15 + ph - 3 * u) \
                    - 0.6 * p["lean"] * u
                pts.append(pts[-1] + (L / nseg) * D(a))
            th = rs.uniform(0.6, 1.0)
            col = shade(lk.hair, rs.uniform(0.85, 1.12))
            S.append(("line", X(np.array(pts)), th, col))

    lk_r = lk.head_r
    if lk.strands:
        strands(lk.strands)

    # scarf tails behind
    if lk.scarf is not None:
        base = neck + 1.0 * up - 3.0 * perp
        pts = [base]
        for k in range(6):
            u = (k + 1) / 6
            a = -1.25 - 0.3 * p["flut"] + 0.35 * w * np.sin(2 * PI * tau / 11 - 2.5 * u) + 0.3 * u
            pts.append(pts[-1] + 3.6 * D(a))
        for j, dy in enumerate((0.0, 2.5)):
            q = [pt + np.array([0, dy]) for pt in pts]
            for a_, b_ in zip(q[:-1], q[1:]):
                cap(a_, b_, 1.6 - 0.15 * j, 1.6 - 0.15 * j, shade(lk.scarf, 0.8 - 0.1 * j), 0.0)

    if lk.backsword:
        a = neck - 5.5 * perp + 2 * up
        b = hip - 7.0 * perp - 12 * up * -1
        cap(a, b, 1.4, 1.0, lk.metal)
        cap(a, a + 5.5 * up, 1.1, 1.1, (90, 60, 40))

    # back arm
    hand_col = lk.hand or lk.skin
    cap(J["shb"], J["elbb"], 3.6 * B, 3.1 * B, shade(lk.sleeve, dk))
    cap(J["elbb"], J["handb"], 3.0 * B, 2.6 * B, shade(lk.sleeve if lk.hand else lk.skin, dk))
    circ(J["handb"], 3.0 * Bh, shade(hand_col, dk))
    # back leg
    cap(hip, J["kneeb"], 5.2 * B, 4.2 * B, shade(lk.pants, dk))
    cap(J["kneeb"], J["ankb"], 4.0 * B, 3.2 * B, shade(lk.pants, dk))
    cap(J["ankb"] + np.array([0, -1.5]), J["toeb"], 3.2 * Bh, 2.4 * Bh, shade(lk.boots, dk))
    # torso
    poly([hip + 7.5 * B * perp, neck + 8.5 * B * perp - 2 * up, neck + 4 * B * perp + 1.0 * up,
          neck - 6.5 * B * perp, hip - 7.5 * B * perp], lk.top)
    cap(hip - 6.0 * B * perp, hip + 6.0 * B * perp, 2.2, 2.2, lk.belt)
    # front leg
    cap(hip, J["kneef"], 5.2 * B, 4.2 * B, lk.pants)
    cap(J["kneef"], J["ankf"], 4.0 * B, 3.2 * B, lk.pants)
    cap(J["ankf"] + np.array([0, -1.5]), J["toef"], 3.2 * Bh, 2.4 * Bh, lk.boots)
    # robe skirt over the thighs
    if lk.robe is not None:
        ww = p["wamp"]
        hem = hip + np.array([0.0, 25.0])
        pts = [hip + 8.0 * B * perp + 1 * up, hem + np.array([13.0 + 3 * max(0, p["thigh_f"]), 1.0])]
        for i in range(1, 5):
            u = i / 5
            pts.append(hem + np.array([13.0 - 29.0 * u, 1.0 + 1.2 * ww * np.sin(2 * PI * tau / 14 + 4 * u)]))
        pts += [hem + np.array([-16.0 + 3 * min(0, p["thigh_b"]), 0.0]), hip - 8.0 * B * perp + 1 * up]
        poly(pts, lk.robe)
    # head and hair
    hk = lk.hair_kind
    ha = J["hang"]
    rot = np.array([[np.cos(ha), -np.sin(ha)], [np.sin(ha), np.cos(ha)]])
    H = lambda v: head + rot @ np.asarray(v, float)  # noqa: E731
    r = lk.head_r
    if hk == "hood":
        circ(H([-1.8, -1.0]), r + 1.6, lk.cloak)
        circ(H([1.5, 0.8]), r - 1.4, lk.skin, 0.0)
        cap(H([-2.0, -r - 0.5]), H([6.0, -r + 1.0]), 2.2, 1.2, lk.cloak, 0.0)
    elif hk == "helmet":
        circ(head, r + 0.3, lk.top)
        cap(H([2.0, -1.0]), H([r - 0.5, -1.0]), 1.0, 1.0, (40, 40, 50), 0.0)
        cap(H([-r + 1, -r + 1.5]), H([2.0, -r - 2.5]), 1.5, 2.5, lk.belt, 0.0)  # crest
    elif hk == "ninja":
        circ(head, r, lk.top)
        cap(H([2.0, -1.5]), H([r - 2.2, -1.5]), 2.3, 2.0, lk.skin, 0.0)
        circ(H([5.6, -1.7]), 1.2, lk.eye, 0.0)
        if lk.scarf is not None:
            cap(neck - 5.0 * perp + 0.5 * up, neck + 5.5 * perp + 0.5 * up, 2.6, 2.6, lk.scarf)
    elif hk == "goblin":
        circ(head, r, lk.skin)
        poly([H([-3, -4]), H([-15, -9]), H([-4, 1])], lk.skin)  # ear
        circ(H([5.4, -1.5]), 1.6, (250, 230, 60), 0.0)
        circ(H([5.8, -1.5]), 0.8, lk.eye, 0.0)
        poly([H([-r, -2]), H([-4, -r - 9]), H([4, -r - 1]), H([r, -3])], lk.hair)  # hat
    else:
        if hk in ("short", "spiky", "strands"):
            circ(H([-1.4, -1.8]), r + 0.8, lk.hair)
            if hk == "spiky":
                for a0 in (-2.4, -1.7, -1.0, -0.3):
                    b = H(1.0 * (r - 1) * np.array([np.sin(a0), -np.cos(a0)]))
                    tip = H((r + 7.5) * np.array([np.sin(a0 - 0.35), -np.cos(a0 - 0.35)]))
                    side = H((r - 1) * np.array([np.sin(a0 + 0.7), -np.cos(a0 + 0.7)]))
                    poly([b, tip, side], lk.hair)
            circ(H([1.8, 1.0]), r - 1.2, lk.skin, 0.0)
            cap(H([1.0, -r + 1.8]), H([r - 1.5, -r + 3.5]), 2.0, 1.2, lk.hair, 0.0)  # fringe
        else:  # bald
            circ(head, r, lk.skin)
            circ(H([-3.5, -1.0]), 2.0, shade(lk.skin, 0.85), 0.0)  # ear
        circ(H([5.8, -1.2]), 1.25, lk.eye, 0.0)
        cap(H([4.0, 4.5]), H([7.2, 4.0]), 0.5, 0.5, shade(lk.skin, 0.6), 0.0)  # mouth
    if lk.strands:
        strands(max(3, lk.strands // 5), front=True)

    # weapon in the front hand
    hf = J["handf"]
    wd = D(J["wdir"])
    wn = np.array([-wd[1], wd[0]])
    wk = lk.weapon
    if wk in ("sword", "katana"):
        blen, hw0, hw1 = (40.0, 1.7, 0.7) if wk == "sword" else (44.0, 1.15, 0.45)
        cap(hf - 5.0 * wd, hf + 2.0 * wd, 1.1, 1.1, (70, 45, 35))
        g = hf + 2.8 * wd
        if wk == "sword":
            cap(g - 4.0 * wn, g + 4.0 * wn, 1.0, 1.0, (210, 170, 60))
        else:
            circ(g, 1.8, (60, 55, 50))
        b0 = g + 0.5 * wd
        tipb = b0 + 0.9 * blen * wd
        tip = b0 + blen * wd
        curve = 0.0 if wk == "sword" else 1.2
        poly([b0 + hw0 * wn, tipb + hw1 * wn + curve * wn, tip + curve * 1.3 * wn, tipb - hw1 * wn + curve * wn,
              b0 - hw0 * wn], lk.metal, 0.0 if lk.style != "cel" else 0.25)
    elif wk == "spear":
        cap(hf - 22.0 * wd, hf + 50.0 * wd, 0.9, 0.9, (120, 85, 50))
        b0 = hf + 50.0 * wd
        poly([b0 + 1.6 * wn, b0 + 5.0 * wd + 2.6 * wn, b0 + 13.0 * wd, b0 + 5.0 * wd - 2.6 * wn, b0 - 1.6 * wn],
             lk.metal)
    elif wk == "staff":
        cap(hf - 20.0 * wd, hf + 28.0 * wd, 1.3, 1.1, (110, 75, 45))
        circ(hf + 30.0 * wd, 3.2, lk.belt)
    elif wk == "whip":
        cap(hf - 3.0 * wd, hf + 4.0 * wd, 1.2, 1.2, (60, 40, 30))
        segs = []
        pts = p["whip_pts"]
        Pp = X(pts)
        n = len(Pp) - 1
        for i in range(n):
            segs.append((Pp[i], Pp[i + 1], 1.6 - 0.8 * i / n))
        S.append(("lines", segs, (75, 50, 35)))
    # front arm
    cap(J["shf"], J["elbf"], 3.6 * B, 3.1 * B, lk.sleeve)
    cap(J["elbf"], J["handf"], 3.0 * B, 2.6 * B, lk.sleeve if lk.hand else lk.skin)
    circ(J["handf"], 3.0 * Bh, hand_col)
    if lk.shield is not None:
        c = J["elbf"] * 0.35 + J["handf"] * 0.65 + np.array([1.5, 0])
        circ(c, 9.5, lk.shield)
        circ(c, 2.5, lk.belt)
    return S


def whip_points(hand_angle_at, hf_local, tau, n=18, length=70.0):
    """Whip segment angles follow the handle's angle history with a lag (wave to the tip)."""
    pts = [hf_local + 4.0 * D(hand_angle_at(tau))]
    for i in range(n):
        a = hand_angle_at(tau - 0.55 * (i + 1))
        a = a * (1 - 0.015 * i) + 0.0
        pts.append(pts[-1] + (length / n) * D(a))
    return np.array(pts)


# ----------------------------------------------------------------------------- poses
def mix(a, b, u):
    return {k: a[k] + (b.get(k, a[k]) - a[k]) * u for k in a}


def keyed(keys, tau):
    """keys: [(t, pose-dict-delta)] with full REST-based dicts; smoothstep between keys."""
    if tau <= keys[0][0]:
        return dict(keys[0][1])
    for (t0, p0), (t1, p1) in zip(keys[:-1], keys[1:]):
        if tau <= t1:
            return mix(p0, p1, smooth((tau - t0) / (t1 - t0)))
    return dict(keys[-1][1])


def P(**kw):
    d = dict(REST)
    d.update(kw)
    return d


def cycle(tau, period, env, run=False, rest=REST):
    ph = 2 * PI * tau / period
    p = dict(rest)
    if run:
        A, Kb, Ka, arm, lean, bob, el = 0.72, 0.35, 1.45, 0.85, 0.22, 3.0, 1.45
    else:
        A, Kb, Ka, arm, lean, bob, el = 0.42, 0.08, 0.80, 0.38, 0.06, 1.3, 0.35
    for s, off in (("f", 0.0), ("b", PI)):
        psi = ph + off
        tgt_th = A * np.sin(psi) + (0.08 if run else 0.02)
        tgt_kn = Kb + Ka * max(0.0, np.cos(psi)) ** 1.3
        p["thigh_" + s] = rest["thigh_" + s] + (tgt_th - rest["thigh_" + s]) * env
        p["knee_" + s] = rest["knee_" + s] + (tgt_kn - rest["knee_" + s]) * env
        tgt_arm = -arm * np.sin(psi) + (0.15 if run else 0.05)
        p["uarm_" + s] = rest["uarm_" + s] + (tgt_arm - rest["uarm_" + s]) * env
        p["elbow_" + s] = rest["elbow_" + s] + (el + 0.2 * max(0.0, -np.sin(psi)) - rest["elbow_" + s]) * env
    p["hip_dy"] = rest["hip_dy"] + env * bob * (-np.cos(2 * ph)) + env * (2.5 if run else 0.4)
    p["lean"] = rest["lean"] + env * (lean + 0.02 * np.sin(2 * ph))
    p["head"] = rest["head"] - 0.4 * env * lean
    p["flut"] = rest["flut"] + env * (1.6 if run else 0.5)
    p["wamp"] = rest["wamp"] + env * (1.2 if run else 0.7)
    return p


def idle(tau, period, env, rest=REST):
    ph = 2 * PI * tau / period
    p = dict(rest)
    b = np.sin(ph)
    p["hip_dy"] = rest["hip_dy"] + env * 0.9 * (1 - np.cos(ph)) * 0.5
    p["lean"] = rest["lean"] + env * 0.025 * b
    p["head"] = rest["head"] + env * 0.05 * np.sin(ph - 0.6)
    p["uarm_f"] = rest["uarm_f"] + env * 0.07 * np.sin(ph - 0.4)
    p["uarm_b"] = rest["uarm_b"] - env * 0.06 * np.sin(ph - 0.4)
    p["elbow_f"] = rest["elbow_f"] + env * 0.08 * np.sin(ph - 0.9)
    p["knee_f"] = rest["knee_f"] + env * 0.06 * (1 - np.cos(ph))
    p["knee_b"] = rest["knee_b"] + env * 0.06 * (1 - np.cos(ph))
    p["thigh_f"] = rest["thigh_f"] + env * 0.03 * (1 - np.cos(ph))
    p["wpn"] = rest["wpn"] + env * 0.06 * np.sin(ph - 1.0)
    p["wamp"] = rest["wamp"] + env * 0.4
    p["flut"] = rest["flut"] + env * 0.2 * (1 + np.sin(ph))
    return p


# ----------------------------------------------------------------------------- characters as renderers
class Character:
    """render(tau, t, hi=1) -> premultiplied float32 (H*hi, W*hi, 4) without motion blur."""

    def probe(self, tau, t):
        raise NotImplementedError


class RigChar(Character):
    def __init__(self, look, W, H, pose_fn, root_fn, height_px, ss=4, pixel=4, facing_fn=None, zoom_fn=None,
                 texture=None):
        self.lk, self.W, self.H = look, W, H
        self.pose_fn, self.root_fn = pose_fn, root_fn
        self.s = height_px / 100.0
        self.ss, self.pixel = ss, pixel
        self.facing_fn = facing_fn or (lambda tau: 1.0)
        self.zoom_fn = zoom_fn or (lambda tau: 1.0)
        self.tex = texture

    def xf(self, tau, p, lowres=1.0):
        rx, ry = self.root_fn(tau)
        f = self.facing_fn(tau)
        fs = np.sign(f) if f != 0 else 1.0
        rx = rx + fs * p["rootdx"]
        ry = ry + p["rootdy"]
        return Xf(rx / lowres, ry / lowres, self.s / lowres, f, self.zoom_fn(tau))

    def shapes(self, tau, lowres=1.0):
        p = self.pose_fn(tau)
        X = self.xf(tau, p, lowres)
        return rig_shapes(self.lk, p, X, tau), X

    def probe(self, tau):
        S, _ = self.shapes(tau)
        pts = []
        for sh in S:
            if sh[0] in ("cap",):
                pts += [sh[1], sh[2]]
            elif sh[0] == "circ":
                pts.append(sh[1])
            elif sh[0] in ("poly", "line"):
                pts += list(np.asarray(sh[1]))
            elif sh[0] == "lines":
                pts += [s[1] for s in sh[1]]
        return np.asarray(pts)

    def ground(self, tau):
        p = self.pose_fn(tau)
        X = self.xf(tau, p)
        J = fk(p)
        feet = X(np.array([J["ankb"], J["ankf"], J["toeb"], J["toef"]]))
        return float(feet[:, 0].mean()), float(X.y), float(np.ptp(feet[:, 0]) + 26 * self.s)

    def render(self, tau, hi=1):
        W, H = self.W * hi, self.H * hi
        if self.lk.style == "pixel":
            P_ = self.pixel
            S, X = self.shapes(tau, lowres=P_ / hi)
            lw, lh = W // P_, H // P_
            pad = Pad(0, 0, lw + 2, lh + 2, 1.0, shift=0)  # pixel art: integer coordinates, no sub-pixel
            draw_shapes(pad, S, "flat")
            m = pad.a > 0
            ring = cv2.dilate(m.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))) > 0
            ring &= ~m
            pad.rgb[ring] = (28, 20, 30)
            pad.a[ring] = 255
            rgb = pad.rgb[:lh, :lw].astype(np.float32) / 255
            a = pad.a[:lh, :lw].astype(np.float32) / 255
            prem = np.dstack([rgb * a[..., None], a])
            prem = cv2.resize(prem, (lw * P_, lh * P_), interpolation=cv2.INTER_NEAREST)
            out = np.zeros((H, W, 4), np.float32)
            out[: prem.shape[0], : prem.shape[1]] = prem[:H, :W]
            out = cv2.GaussianBlur(out, (3, 3), 0.55 * hi)
            return out
        S, X = self.shapes(tau)
        if hi != 1:
            S = scale_shapes(S, hi)
        lo, hi_ = shapes_bbox(S, 6 * hi)
        x0, y0 = int(np.floor(max(0, lo[0]))), int(np.floor(max(0, lo[1])))
        x1, y1 = int(np.ceil(min(W, hi_[0]))), int(np.ceil(min(H, hi_[1])))
        out = np.zeros((H, W, 4), np.float32)
        if x1 <= x0 or y1 <= y0:
            return out
        k = self.ss // hi
        pad = Pad(x0, y0, (x1 - x0) * k, (y1 - y0) * k, k)
        draw_shapes(pad, S, self.lk.style)
        rgb = pad.rgb.astype(np.float32) * (1 / 255)
        a = pad.a.astype(np.float32) * (1 / 255)
        if self.lk.style in ("soft", "paint"):
            sig = (1.6 if self.lk.style == "soft" else 0.7) * self.ss  # canvas px -> supersampled px
            num = cv2.GaussianBlur(rgb * a[..., None], (0, 0), sig)
            den = cv2.GaussianBlur(a, (0, 0), sig)
            rgb = np.where(den[..., None] > 1e-4, num / np.maximum(den, 1e-4)[..., None], rgb)
        prem = np.dstack([rgb * a[..., None], a])
        prem = cv2.resize(prem, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        if self.tex is not None:
            rx, ry = self.root_fn(tau)
            T = self.tex
            th_, tw_ = T.shape[:2]
            ox = int(round(tw_ / 2 - rx * hi)) + x0
            oy = int(round(th_ / 2 - ry * hi)) + y0
            tcrop = T[oy: oy + (y1 - y0), ox: ox + (x1 - x0)]
            prem[..., :3] *= tcrop
            prem[..., :3] = np.minimum(prem[..., :3], prem[..., 3:4])
        out[y0:y1, x0:x1] = prem
        return out


def scale_shapes(S, k):
    out = []
    for sh in S:
        if sh[0] == "cap":
            out.append(("cap", sh[1] * k, sh[2] * k, sh[3] * k, sh[4] * k, sh[5], sh[6] * k, sh[7]))
        elif sh[0] == "circ":
            out.append(("circ", sh[1] * k, sh[2] * k, sh[3], sh[4] * k, sh[5]))
        elif sh[0] == "poly":
            out.append(("poly", np.asarray(sh[1]) * k, sh[2], sh[3] * k, sh[4]))
        elif sh[0] == "line":
            out.append(("line", np.asarray(sh[1]) * k, sh[2] * k, sh[3]))
        elif sh[0] == "lines":
            out.append(("lines", [(a * k, b * k, t * k) for a, b, t in sh[1]], sh[2]))
    return out


def paint_texture(W, H, seed):
    """Brush-stroke texture: anisotropic noise at two scales, per-channel tint; ~ +-8%."""
    rs = np.random.default_rng(seed)
    h, w = 2 * H + 64, 2 * W + 64
    n = rs.standard_normal((h, w)).astype(np.float32)
    ker = np.zeros((15, 15), np.float32)
    cv2.line(ker, (1, 11), (13, 3), 1.0, 1)
    ker /= ker.sum()
    n1 = cv2.filter2D(cv2.GaussianBlur(n, (0, 0), 0.8), -1, ker)
    n1 /= n1.std() + 1e-6
    n2 = cv2.resize(rs.standard_normal((h // 24 + 2, w // 24 + 2)).astype(np.float32), (w, h),
                    interpolation=cv2.INTER_CUBIC)
    n2 /= n2.std() + 1e-6
    T = 1.0 + 0.065 * n1 + 0.035 * n2
    tint = [cv2.resize(rs.standard_normal((h // 16 + 2, w // 16 + 2)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC) for _ in range(3)]
    T3 = np.dstack([T + 0.025 * c for c in tint])
    return np.clip(T3, 0.8, 1.2).astype(np.float32)


class SpriteChar(Character):
    def __init__(self, W, H, folder, stem, frames_fn, root_fn, height_px):
        self.W, self.H = W, H
        names = {"idle"} | {f"walk{i}" for i in range(8)}
        self.img = {n: kenney(folder, f"{stem}_{n}") for n in names}
        a = self.img["idle"][..., 3]
        ys, xs = np.nonzero(a > 0.02)
        self.anchor = np.array([(xs.min() + xs.max() + 1) / 2, ys.max() + 1.0])
        self.scale = height_px / (ys.max() + 1 - ys.min())
        self.frames_fn, self.root_fn = frames_fn, root_fn

    def matrix(self, tau, hi=1):
        name, sx, sy, rot, dx, dy = self.frames_fn(tau)
        rx, ry = self.root_fn(tau)
        c, s = np.cos(rot), np.sin(rot)
        A = np.array([[c, -s], [s, c]]) @ np.diag([sx * self.scale, sy * self.scale]) * hi
        t = np.array([rx + dx, ry + dy]) * hi - A @ self.anchor
        return name, np.hstack([A, t[:, None]])

    def probe(self, tau):
        _, M = self.matrix(tau)
        h, w = self.img["idle"].shape[:2]
        corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1], [w / 2, h / 2, 1]], float)
        return corners @ M.T

    def ground(self, tau):
        rx, ry = self.root_fn(tau)
        name, sx, sy, rot, dx, dy = self.frames_fn(tau)
        return rx + dx, ry, 60 * self.scale

    def render(self, tau, hi=1):
        name, M = self.matrix(tau, hi)
        out = cv2.warpAffine(self.img[name], M, (self.W * hi, self.H * hi), flags=cv2.INTER_CUBIC,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        out[..., 3] = np.clip(out[..., 3], 0, 1)
        out[..., :3] = np.clip(out[..., :3], 0, out[..., 3:4])
        out[out[..., 3] < 1.5 / 255] = 0
        return out


def render_frame(ch: Character, t: int):
    """Motion-blurred premultiplied RGBA at frame t (sub-frames over the shutter)."""
    if t == 0:
        return ch.render(0.0)
    a, b = t - SHUTTER / 2, t + SHUTTER / 2
    d = np.sqrt(((ch.probe(b) - ch.probe(a)) ** 2).sum(-1)).max()
    K = int(np.clip(np.ceil(d / 2.5), 1, 20))
    if K == 1:
        return ch.render(float(t))
    acc = None
    for k in range(K):
        tau = a + (b - a) * (k + 0.5) / K
        r = ch.render(tau)
        acc = r if acc is None else acc + r
    return acc / K


# ----------------------------------------------------------------------------- screen, compositing, encoding
@dataclass
class Screen:
    key0: tuple
    key1: tuple
    hue: tuple = (0, 0, 0)  # drift of the key by the clip's end, levels
    gx: float = 0.04
    gy: float = -0.07
    vig: float = 0.16
    vig_c: tuple = (0.5, 0.45)
    grain: float = 2.0
    blotch: float = 2.5
    flick: float = 0.012
    wrap_px: float = 3.0
    wrap_s: float = 0.3
    rim: float = 0.0
    shadow: float = 0.32
    bars: int = 0


def quantise(prem):
    a = prem[..., 3]
    a8 = np.round(np.clip(a, 0, 1) * 255).astype(np.uint8)
    rgb = np.where(a[..., None] > 1e-6, prem[..., :3] / np.maximum(a, 1e-6)[..., None], 0)
    rgb8 = np.round(np.clip(rgb, 0, 1) * 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.dstack([rgb8, a8])


class Compositor:
    def __init__(self, sc: Screen, W, H, N, seed):
        self.sc, self.W, self.H, self.N = sc, W, H, N
        self.rs = np.random.default_rng(seed)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        u, v = xx / W - 0.5, yy / H - 0.5
        r2 = ((xx / W - sc.vig_c[0]) ** 2 + (yy / H - sc.vig_c[1]) ** 2) / 0.5
        self.G = ((1 + sc.gx * u + sc.gy * v) * (1 - sc.vig * r2)).astype(np.float32)
        self.yy, self.xx = yy, xx
        self.fph = self.rs.uniform(0, 2 * PI)

    def clean(self, t):
        sc = self.sc
        ramp = min(1.0, t / 4.0)
        k0, k1 = np.array(sc.key0, np.float32), np.array(sc.key1, np.float32)
        key = k0 + (k1 - k0) * ramp + np.array(sc.hue, np.float32) * (t / max(1, self.N - 1))
        fl = 1 + ramp * (sc.flick * np.sin(2 * PI * t / 11.3 + self.fph) + 0.5 * sc.flick * self.rs.standard_normal())
        G = 1 + (self.G - 1) * ramp
        return np.clip(G[..., None] * key * fl, 0, 255)

    def shadow(self, t, ground):
        gx, gy, gw = ground
        sc = self.sc
        m = np.zeros((self.H, self.W), np.float32)
        cv2.ellipse(m, (int(round(gx * 4)), int(round((gy + 1.5) * 4))), (int(gw * 0.55 * 4), int(gw * 0.09 * 4)),
                    0, 0, 360, 1.0, -1, cv2.LINE_AA, 2)
        m = cv2.GaussianBlur(m, (0, 0), max(2.0, gw * 0.06))
        return 1 - sc.shadow * min(1.0, t / 3.0) * m

    def frame(self, t, truth, ground):
        sc = self.sc
        a = truth[..., 3:4].astype(np.float32) / 255
        C = truth[..., :3].astype(np.float32)
        if t == 0:
            out = C * a + np.array(sc.key0, np.float32) * (1 - a)
            return out
        bg0 = self.clean(t)
        bg = bg0 * self.shadow(t, ground)[..., None]
        bl = cv2.resize(self.rs.standard_normal((self.H // 16 + 2, self.W // 16 + 2)).astype(np.float32),
                        (self.W, self.H), interpolation=cv2.INTER_CUBIC)
        bg = bg + (sc.blotch * bl)[..., None] + sc.grain * self.rs.standard_normal((self.H, self.W, 3)).astype(
            np.float32)
        # light wrap
        ramp = min(1.0, t / 3.0)
        mask = (a[..., 0] >= 0.5).astype(np.uint8)
        d = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        w = sc.wrap_s * ramp * np.clip(1 - (d - 1) / sc.wrap_px, 0, 1) ** 1.5
        w = np.where(mask > 0, w, sc.wrap_s * ramp).astype(np.float32)[..., None]
        C2 = C * (1 - w) + bg0 * w
        if sc.rim > 0:
            rim = (sc.rim * ramp * ((d > 0) & (d <= 1.5))).astype(np.float32)[..., None]
            pale = 0.8 * 245 + 0.2 * bg0
            C2 = C2 * (1 - rim) + pale * rim
        out = C2 * a + bg * (1 - a)
        out += 1.0 * self.rs.standard_normal(out.shape).astype(np.float32)
        if sc.bars:
            b = sc.bars
            out[:b] = 3 + 0.8 * self.rs.standard_normal((b, self.W, 3))
            out[-b:] = 3 + 0.8 * self.rs.standard_normal((b, self.W, 3))
        return out


def make_audio(N, seed, kind):
    sr = 44100
    n = int(np.ceil(N / FPS * sr / 1024)) * 1024
    rs = np.random.default_rng(seed)
    t = np.arange(n) / sr
    x = 0.015 * rs.standard_normal((2, n))
    x = np.cumsum(x, axis=1) * 0.02  # brownish rumble
    x -= np.mean(x, axis=1, keepdims=True)
    beat = 0.5 if kind in ("walk", "idle") else 0.33
    for k in np.arange(0.1, n / sr, beat):
        i = int(k * sr)
        m = min(n - i, 6000)
        env = np.exp(-np.arange(m) / 900.0)
        x[:, i:i + m] += 0.2 * env * np.sin(2 * PI * 90 * np.arange(m) / sr)
    x += 0.03 * np.sin(2 * PI * 220 * t) * (0.5 + 0.5 * np.sin(2 * PI * 0.7 * t))
    return np.clip(x, -1, 1).astype(np.float32)


def write_npz(path, rgba):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
        zi.compress_type = zipfile.ZIP_DEFLATED
        zi.external_attr = 0o644 << 16
        with z.open(zi, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, rgba, allow_pickle=False)


# ----------------------------------------------------------------------------- cases
@dataclass
class Case:
    name: str
    action: str
    W: int
    H: int
    N: int
    crf: int
    screen: Screen
    build: object  # () -> Character
    flags: list = field(default_factory=list)
    audio: bool = False
    smear: float = 0.0
    drift: tuple = (0.015, -0.01, 0.012)  # relative colour drift of the character by the end
    portrait_hi: int = 1


def drift_root(x, y, amp=4.0, period=None, N=56):
    return lambda tau: (x + amp * np.sin(2 * PI * tau / (period or N * 1.3)), y)


def env_in(tau, n=6.0):
    return smooth(tau / n)


GREEN = (0, 255, 0)
CHROMA = (0, 177, 64)
GREEN2 = (16, 200, 40)

NINJA = Look("ninja", "cel", skin=(226, 188, 158), top=(30, 30, 37), sleeve=(34, 34, 42), pants=(28, 28, 35),
             boots=(20, 20, 26), hand=(40, 40, 48), hair_kind="ninja", belt=(60, 60, 70), weapon="katana",
             metal=(205, 210, 222), ol=0.55, scarf=(190, 30, 40), eye=(15, 12, 15), bulk=1.2)
KNIGHT = Look("knight", "soft", skin=(232, 196, 170), top=(226, 229, 234), sleeve=(214, 218, 226),
              pants=(206, 210, 220), boots=(190, 194, 204), hand=(200, 204, 214), hair_kind="helmet",
              belt=(200, 160, 60), weapon="sword", metal=(235, 238, 244), bulk=1.55)
WITCH = Look("witch", "paint", skin=(238, 204, 182), top=(112, 58, 140), sleeve=(98, 50, 126), pants=(60, 40, 70),
             boots=(52, 36, 40), hair=(238, 222, 170), hair_kind="strands", belt=(170, 120, 60), robe=(104, 54, 132),
             strands=20, weapon=None, bulk=1.25)
RANGER = Look("ranger", "paint", skin=(214, 170, 138), top=(120, 84, 52), sleeve=(104, 72, 46), pants=(84, 66, 50),
              boots=(60, 44, 34), hair_kind="hood", cloak=(58, 126, 62), belt=(70, 50, 36), weapon="sword",
              metal=(190, 196, 204), bulk=1.35)
PIXHERO = Look("pixhero", "pixel", skin=(240, 196, 150), top=(200, 40, 44), sleeve=(170, 30, 36),
               pants=(70, 60, 110), boots=(90, 56, 36), hair=(120, 70, 30), hair_kind="short", belt=(230, 190, 60),
               weapon="sword", metal=(210, 220, 230), bulk=1.45)
SHAMAN = Look("shaman", "pixel", skin=(64, 168, 158), top=(110, 60, 150), sleeve=(96, 50, 132), pants=(70, 50, 60),
              boots=(80, 56, 40), hair=(150, 40, 40), hair_kind="goblin", belt=(240, 200, 80), robe=(100, 56, 138),
              weapon="staff", bulk=1.4)
WHIPPER = Look("whipper", "cel", skin=(196, 140, 104), top=(150, 40, 40), sleeve=(130, 90, 60), pants=(70, 60, 55),
               boots=(50, 35, 30), hair=(30, 24, 20), hair_kind="short", belt=(200, 170, 80), weapon="whip",
               ol=0.5, bulk=1.3)
BLUECOAT = Look("bluecoat", "soft", skin=(236, 200, 176), top=(40, 74, 176), sleeve=(34, 64, 160),
                pants=(232, 232, 236), boots=(60, 50, 46), hair=(40, 30, 26), hair_kind="short", belt=(220, 180, 70),
                weapon="staff", bulk=1.3)
MONK = Look("monk", "soft", skin=(222, 176, 132), top=(236, 140, 40), sleeve=(226, 128, 34), pants=(200, 110, 30),
            boots=(120, 80, 50), hair_kind="bald", belt=(120, 40, 30), robe=(230, 132, 36), weapon=None, bulk=1.45)
SWORDSMAN = Look("swordsman", "cel", skin=(240, 200, 170), top=(170, 40, 46), sleeve=(150, 34, 40),
                 pants=(60, 60, 84), boots=(70, 46, 32), hair=(235, 235, 240), hair_kind="short", belt=(90, 60, 30),
                 weapon=None, ol=0.5, shield=(120, 90, 60), backsword=True, metal=(200, 205, 215), bulk=1.35)
RUNNER = Look("runner", "cel", skin=(230, 186, 150), top=(246, 196, 40), sleeve=(236, 180, 30), pants=(50, 56, 70),
              boots=(200, 60, 50), hair=(190, 60, 30), hair_kind="spiky", belt=(40, 40, 40), weapon=None, ol=0.55, bulk=1.25)
SPEARMAN = Look("spearman", "soft", skin=(200, 150, 112), top=(150, 96, 52), sleeve=(130, 82, 46),
                pants=(90, 70, 56), boots=(66, 48, 36), hair=(30, 26, 24), hair_kind="short", belt=(180, 150, 70),
                weapon="spear", metal=(196, 200, 210), bulk=1.35)


def case_list():
    C = []
    A56 = h3_frames(2.0)
    A39 = h3_frames(1.0)
    S39 = h3_frames(1.5)
    H22 = h3_frames(0.7)

    # 1 Kenney adventurer walk
    def b1():
        def fr(tau):
            if tau < 2.0:
                return ("idle", 1, 1, 0, 0, 0)
            i = int((tau - 2.0) // 3) % 8
            return (f"walk{i}", 1, 1, 0.0, 0, -3.0 * abs(np.sin(PI * (tau - 2) / 12)) * min(1, (tau - 2) / 4))
        return SpriteChar(448, 448, "male_adventurer", "maleAdventurer", fr, drift_root(224, 392, 5, N=56), 278)
    C.append(Case("kenney_adventurer_walk", "walk", 448, 448, A56, 20,
                  Screen(GREEN, (30, 230, 48), hue=(6, -4, 4), wrap_px=4, wrap_s=0.30), b1, audio=True))

    # 2 Kenney zombie idle (73 frames)
    def b2():
        n = 73

        def fr(tau):
            e = env_in(tau, 8)
            ph = 2 * PI * tau / (n / 3)
            return ("idle", 1 - 0.006 * e * np.sin(ph), 1 + 0.013 * e * np.sin(ph), 0.025 * e * np.sin(2 * PI * tau / n),
                    0, 0)
        return SpriteChar(448, 448, "zombie", "zombie", fr, drift_root(220, 410, 3, N=73), 312)
    C.append(Case("kenney_zombie_idle", "idle", 448, 448, 73, 23,
                  Screen(CHROMA, (20, 168, 72), hue=(-4, 5, 3), gx=-0.05, gy=-0.05, vig=0.2, wrap_px=3,
                         wrap_s=0.25, rim=0.2), b2, drift=(-0.012, 0.01, 0.016)))

    # 3 Kenney robot run on blue
    def b3():
        def fr(tau):
            if tau < 1.0:
                return ("idle", 1, 1, 0, 0, 0)
            e = env_in(tau - 1, 5)
            i = int((tau - 1.0) // 2) % 8
            return (f"walk{i}", 1, 1, 0.09 * e, 0, -7.0 * e * abs(np.sin(PI * (tau - 1) / 8)))
        return SpriteChar(512, 320, "robot", "robot", fr, drift_root(250, 300, 6, N=56), 228)
    C.append(Case("kenney_robot_run_blue", "run", 512, 320, A56, 21,
                  Screen((0, 71, 187), (14, 84, 196), hue=(4, 6, -6), gx=0.06, gy=-0.05, wrap_px=3, wrap_s=0.30,
                         grain=2.5), b3, audio=True, drift=(0.02, 0.012, -0.01)))

    # 4 ninja attack
    def b4():
        R0 = P(wpn=0.55, uarm_f=0.35, elbow_f=0.8, thigh_f=0.25, thigh_b=-0.2, knee_f=0.3, knee_b=0.15, hip_dy=2.0,
               lean=0.08)
        keys = [(0, R0), (3, R0),
                (13, P(uarm_f=2.95, elbow_f=0.5, wpn=0.45, lean=-0.14, head=0.1, thigh_f=0.38, thigh_b=-0.28,
                       knee_f=0.35, knee_b=0.2, hip_dy=2.5, uarm_b=-0.5, elbow_b=0.6, rootdx=-4, wamp=0.8,
                       flut=0.5)),
                (17, P(uarm_f=0.95, elbow_f=0.1, wpn=-0.35, lean=0.32, head=-0.1, thigh_f=0.75, thigh_b=-0.55,
                       knee_f=0.6, knee_b=0.25, hip_dy=6.5, uarm_b=-0.9, elbow_b=0.4, rootdx=18, wamp=1.4,
                       flut=1.6)),
                (25, P(uarm_f=0.85, elbow_f=0.12, wpn=-0.4, lean=0.28, head=-0.08, thigh_f=0.72, thigh_b=-0.52,
                       knee_f=0.58, knee_b=0.25, hip_dy=6.0, uarm_b=-0.8, elbow_b=0.45, rootdx=18, wamp=0.9,
                       flut=1.0)),
                (38, mix(R0, P(rootdx=14, lean=0.1, wpn=0.3, uarm_f=0.5), 0.6))]
        return RigChar(NINJA, 448, 448, lambda tau: keyed(keys, tau), drift_root(200, 388, 2, N=39), 246)
    C.append(Case("ninja_attack_cel", "attack", 448, 448, A39, 20,
                  Screen(GREEN, (36, 226, 52), hue=(4, -3, 5), wrap_px=3, wrap_s=0.30), b4, audio=True,
                  drift=(0.03, 0.02, 0.03)))

    # 5 knight skill, soft, slow zoom, 2x portrait
    def b5():
        R0 = P(wpn=1.75)
        keys = [(0, R0), (3, R0),
                (11, P(lean=0.26, head=0.12, hip_dy=7.0, thigh_f=0.6, thigh_b=0.1, knee_f=1.15, knee_b=1.0,
                       uarm_f=0.45, elbow_f=0.5, uarm_b=0.3, elbow_b=0.6, wpn=1.3)),
                (18, P(lean=-0.07, head=-0.22, hip_dy=-1.0, thigh_f=0.08, thigh_b=-0.1, knee_f=0.02, knee_b=0.02,
                       uarm_f=2.95, elbow_f=0.15, uarm_b=2.75, elbow_b=0.25, wpn=0.05)),
                (31, P(lean=-0.06, head=-0.2, hip_dy=-0.8, thigh_f=0.08, thigh_b=-0.1, knee_f=0.03, knee_b=0.03,
                       uarm_f=2.9, elbow_f=0.2, uarm_b=2.7, elbow_b=0.3, wpn=0.08)),
                (38, P(lean=-0.02, head=-0.1, hip_dy=0.0, uarm_f=2.5, elbow_f=0.35, uarm_b=2.3, elbow_b=0.4,
                       wpn=0.2))]

        def pose(tau):
            p = keyed(keys, tau)
            if 18 <= tau <= 31:  # tremble in the held pose
                p["uarm_f"] += 0.025 * np.sin(tau * 2.7)
                p["lean"] += 0.008 * np.sin(tau * 3.1)
            return p
        return RigChar(KNIGHT, 448, 448, pose, drift_root(214, 424, 2, N=39), 212,
                       zoom_fn=lambda tau: 1 + 0.04 * smooth(tau / 38))
    C.append(Case("knight_skill_soft", "skill", 448, 448, S39, 22,
                  Screen(GREEN2, (40, 214, 58), hue=(-5, 4, 6), gx=0.05, gy=-0.08, vig=0.22, wrap_px=5, wrap_s=0.35,
                         rim=0.25), b5, portrait_hi=2, drift=(-0.015, -0.012, 0.01)))

    # 6 witch hurt, painterly, hair strands
    def b6():
        R0 = P(uarm_f=0.25, elbow_f=0.55, wamp=0.5)
        keys = [(0, R0), (1, R0),
                (5, P(lean=-0.42, head=-0.38, hip_dx=-2.5, hip_dy=3.5, thigh_f=0.35, thigh_b=-0.05, knee_f=0.45,
                      knee_b=0.35, uarm_f=1.35, elbow_f=0.6, uarm_b=1.0, elbow_b=0.7, rootdx=-16, wamp=1.6)),
                (10, P(lean=-0.32, head=-0.25, hip_dx=-2.0, hip_dy=3.0, thigh_f=0.3, knee_f=0.4, knee_b=0.3,
                       uarm_f=1.0, elbow_f=0.7, uarm_b=0.7, elbow_b=0.7, rootdx=-18, wamp=1.2)),
                (21, P(lean=-0.1, head=-0.05, hip_dy=1.0, uarm_f=0.5, elbow_f=0.6, uarm_b=0.2, elbow_b=0.5,
                       rootdx=-15, wamp=0.8))]

        def pose(tau):
            p = keyed(keys, tau)
            if 5 <= tau <= 12:
                p["lean"] += 0.04 * np.sin(tau * 4.1) * (12 - tau) / 7
            return p
        tex = paint_texture(448, 448, seed_of("witch"))
        return RigChar(WITCH, 448, 448, pose, drift_root(236, 392, 1, N=22), 262, texture=tex)
    C.append(Case("witch_hurt_paint", "hurt", 448, 448, H22, 24,
                  Screen(GREEN, (28, 232, 44), hue=(3, -5, 2), wrap_px=4, wrap_s=0.25, grain=2.5, blotch=3.0), b6,
                  drift=(0.02, 0.015, -0.012)))

    # 7 ranger walk, green cloak, 768x448
    def b7():
        tex = paint_texture(768, 448, seed_of("ranger"))
        return RigChar(RANGER, 768, 448, lambda tau: cycle(tau, 24, env_in(tau, 6), rest=P(wpn=-0.2)),
                       drift_root(384, 404, 8, N=56), 312, texture=tex)
    C.append(Case("ranger_walk_cloak_wide", "walk", 768, 448, A56, 19,
                  Screen(CHROMA, (16, 176, 70), hue=(5, 3, -4), gx=0.08, gy=-0.06, vig=0.25, wrap_px=4, wrap_s=0.30),
                  b7, audio=True, drift=(0.012, -0.015, 0.02)))

    # 8 pixel hero run
    def b8():
        return RigChar(PIXHERO, 448, 448, lambda tau: cycle(tau, 16, env_in(tau, 5), run=True, rest=P(wpn=1.2)),
                       drift_root(216, 360, 4, N=56), 224, pixel=4)
    C.append(Case("pixel_hero_run", "run", 448, 448, A56, 20,
                  Screen(GREEN, (32, 228, 50), hue=(-3, 2, 6), wrap_px=2, wrap_s=0.20), b8, drift=(0.02, 0.02, 0.02)))

    # 9 pixel shaman idle, portrait orientation
    def b9():
        R0 = P(uarm_f=0.55, elbow_f=0.9, wpn=1.69)
        return RigChar(SHAMAN, 320, 512, lambda tau: idle(tau, 28, env_in(tau, 6), rest=R0),
                       drift_root(150, 420, 2, N=56), 282, pixel=4)
    C.append(Case("pixel_shaman_idle_tall", "idle", 320, 512, A56, 22,
                  Screen(CHROMA, (22, 170, 66), hue=(3, 4, -3), gx=0.03, gy=-0.09, wrap_px=2, wrap_s=0.20), b9,
                  drift=(-0.015, 0.012, 0.015)))

    # 10 whip attack, facing left, 448x256
    def b10():
        # handle angle (absolute, from down, forward positive) over time
        def hang(tau):
            ks = [(0, 0.9), (4, 0.9), (13, 2.75), (17, 1.55), (22, 1.45), (38, 0.9)]
            if tau <= ks[0][0]:
                return ks[0][1]
            for (t0, a0), (t1, a1) in zip(ks[:-1], ks[1:]):
                if tau <= t1:
                    return a0 + (a1 - a0) * smooth((tau - t0) / (t1 - t0))
            return ks[-1][1]
        keys = [(0, P(uarm_f=0.45, elbow_f=0.3)), (4, P(uarm_f=0.45, elbow_f=0.3)),
                (13, P(uarm_f=2.7, elbow_f=0.6, lean=-0.12, thigh_f=0.3, thigh_b=-0.25, knee_f=0.3, hip_dy=2)),
                (17, P(uarm_f=1.2, elbow_f=0.15, lean=0.22, thigh_f=0.55, thigh_b=-0.4, knee_f=0.5, hip_dy=4,
                       rootdx=10)),
                (24, P(uarm_f=1.1, elbow_f=0.2, lean=0.2, thigh_f=0.5, thigh_b=-0.4, knee_f=0.5, hip_dy=4,
                       rootdx=10)),
                (38, P(uarm_f=0.6, elbow_f=0.3, lean=0.06, hip_dy=1, rootdx=6))]

        def pose(tau):
            p = keyed(keys, tau)
            J = fk(p)
            p["wpn"] = hang(tau) - J["faf"]
            p["whip_pts"] = whip_points(hang, J["handf"], tau, n=18, length=52.0)
            return p
        return RigChar(WHIPPER, 448, 256, pose, drift_root(290, 238, 2, N=39), 168, facing_fn=lambda tau: -1.0)
    C.append(Case("whip_attack_wide", "attack", 448, 256, A39, 21,
                  Screen(GREEN, (30, 230, 46), hue=(4, -4, 4), gx=-0.05, wrap_px=3, wrap_s=0.30), b10,
                  drift=(0.015, 0.01, 0.02)))

    # 11 bluecoat skill on blue
    def b11():
        R0 = P(uarm_f=0.3, elbow_f=0.7, wpn=2.2)
        keys = [(0, R0), (4, R0),
                (12, P(lean=0.18, head=0.1, hip_dy=4.0, thigh_f=0.45, knee_f=0.8, knee_b=0.6, uarm_f=0.2,
                       elbow_f=1.2, uarm_b=-0.4, elbow_b=0.9, wpn=2.4, wamp=0.6)),
                (20, P(lean=-0.1, head=-0.25, hip_dy=-1.5, uarm_f=2.9, elbow_f=0.1, uarm_b=2.2, elbow_b=0.4,
                       wpn=0.15, wamp=1.0)),
                (32, P(lean=-0.08, head=-0.22, hip_dy=-1.2, uarm_f=2.85, elbow_f=0.15, uarm_b=2.3, elbow_b=0.45,
                       wpn=0.2, wamp=1.0)),
                (38, P(lean=-0.04, head=-0.12, hip_dy=-0.5, uarm_f=2.5, elbow_f=0.3, uarm_b=1.6, elbow_b=0.5,
                       wpn=0.3))]
        return RigChar(BLUECOAT, 448, 448, lambda tau: keyed(keys, tau), drift_root(224, 412, 2, N=39), 236)
    C.append(Case("bluecoat_skill_blue", "skill", 448, 448, S39, 22,
                  Screen((0, 0, 255), (28, 52, 232), hue=(5, 4, -8), gx=0.05, gy=-0.06, vig=0.2, wrap_px=4,
                         wrap_s=0.30), b11, drift=(0.012, 0.018, -0.01)))

    # 12 monk walk, letterbox bars
    def b12():
        return RigChar(MONK, 448, 448, lambda tau: cycle(tau, 24, env_in(tau, 6), rest=P(uarm_f=0.1, elbow_f=0.6)),
                       drift_root(224, 370, 4, N=56), 232)
    C.append(Case("monk_walk_letterbox", "walk", 448, 448, A56, 21,
                  Screen(GREEN, (34, 226, 50), hue=(-3, 3, 5), wrap_px=3, wrap_s=0.25, bars=48), b12,
                  drift=(-0.012, -0.015, 0.01)))

    # 13 facing turn
    def b13():
        def facing(tau):
            u = smooth((tau - 20) / 7.0)
            c = np.cos(PI * u)
            return float(np.sign(c) * max(0.35, abs(c))) if c != 0 else -0.35
        return RigChar(SWORDSMAN, 448, 448, lambda tau: cycle(tau, 24, env_in(tau, 6)), drift_root(224, 388, 3, N=56),
                       262, facing_fn=facing)
    C.append(Case("facing_turn_walk", "walk", 448, 448, A56, 20,
                  Screen(GREEN, (30, 230, 46), hue=(3, -3, 5), wrap_px=3, wrap_s=0.30), b13, flags=["FACING"],
                  drift=(0.015, 0.012, -0.01)))

    # 14 smear run
    def b14():
        return RigChar(RUNNER, 448, 448, lambda tau: cycle(tau, 16, env_in(tau, 5), run=True),
                       drift_root(220, 386, 4, N=56), 250)
    C.append(Case("smear_run_ghost", "run", 448, 448, A56, 20,
                  Screen(GREEN, (30, 230, 46), hue=(-4, 2, 4), wrap_px=3, wrap_s=0.30), b14, flags=["SMEAR"],
                  smear=0.30, drift=(0.012, 0.015, 0.015)))

    # 15 cropped spear attack
    def b15():
        R0 = P(uarm_f=0.35, elbow_f=0.75, wpn=1.95)
        keys = [(0, R0), (3, R0),
                (10, P(uarm_f=-0.55, elbow_f=1.9, wpn=0.85, lean=-0.12, thigh_f=0.25, thigh_b=-0.25, knee_f=0.3,
                       hip_dy=2.5, rootdx=-8, uarm_b=0.4, elbow_b=0.9)),
                (15, P(uarm_f=1.5, elbow_f=0.05, wpn=0.0, lean=0.36, thigh_f=0.8, thigh_b=-0.62, knee_f=0.62,
                       knee_b=0.2, hip_dy=6.5, rootdx=40, uarm_b=-0.7, elbow_b=0.5)),
                (26, P(uarm_f=1.45, elbow_f=0.08, wpn=0.0, lean=0.33, thigh_f=0.78, thigh_b=-0.6, knee_f=0.6,
                       knee_b=0.2, hip_dy=6.0, rootdx=40, uarm_b=-0.65, elbow_b=0.5)),
                (33, P(uarm_f=0.6, elbow_f=0.7, wpn=1.35, lean=0.12, thigh_f=0.35, thigh_b=-0.3, knee_f=0.3,
                       hip_dy=2.0, rootdx=16)),
                (38, P(uarm_f=0.4, elbow_f=0.75, wpn=1.9, lean=0.05, rootdx=8))]
        return RigChar(SPEARMAN, 448, 448, lambda tau: keyed(keys, tau), lambda tau: (330.0, 392.0), 270)
    C.append(Case("cropped_spear_attack", "attack", 448, 448, A39, 21,
                  Screen(CHROMA, (20, 170, 70), hue=(4, 3, -3), gx=-0.06, gy=-0.05, wrap_px=3, wrap_s=0.30), b15,
                  flags=["CROPPED"], drift=(0.015, -0.01, 0.012)))

    # 16 truncated walk (Kenney female adventurer)
    def b16():
        def fr(tau):
            if tau < 2.0:
                return ("idle", 1, 1, 0, 0, 0)
            i = int((tau - 2.0) // 3) % 8
            return (f"walk{i}", 1, 1, 0.0, 0, -2.5 * abs(np.sin(PI * (tau - 2) / 12)) * min(1, (tau - 2) / 4))
        return SpriteChar(448, 448, "female_adventurer", "femaleAdventurer", fr, drift_root(226, 384, 4, N=30), 262)
    C.append(Case("truncated_walk", "walk", 448, 448, 30, 22,
                  Screen(GREEN, (30, 230, 46), hue=(4, -2, 3), wrap_px=3, wrap_s=0.25), b16, flags=["TRUNCATED"],
                  drift=(0.012, 0.012, -0.012)))

    # 17 ninja idle, small, long
    def b17():
        R0 = P(wpn=0.55, uarm_f=0.35, elbow_f=0.8, thigh_f=0.25, thigh_b=-0.2, knee_f=0.3, knee_b=0.15, hip_dy=2.0,
               lean=0.08)
        return RigChar(NINJA, 448, 256, lambda tau: idle(tau, 30, env_in(tau, 6), rest=R0),
                       drift_root(214, 222, 3, N=90), 142)
    C.append(Case("ninja_idle_long_small", "idle", 448, 256, 90, 26,
                  Screen(GREEN2, (36, 210, 56), hue=(-4, 3, 5), wrap_px=2, wrap_s=0.30, grain=3.0, blotch=3.5), b17,
                  audio=True, drift=(0.025, 0.02, 0.03)))
    return C


# ----------------------------------------------------------------------------- run one case
def geometry(truth, bars=0):
    """Per frame: the character's smallest distance (px) to the frame edge or a letterbox bar."""
    N, H, W = truth.shape[:3]
    out = []
    for t in range(N):
        ys, xs = np.nonzero(truth[t, ..., 3] > 0)
        if len(xs) == 0:
            out.append(float(min(H, W)))
            continue
        out.append(float(min(xs.min(), W - 1 - xs.max(), ys.min() - (bars if t else 0),
                             H - 1 - (bars if t else 0) - ys.max())))
    return out


def run_case(c: Case, root: Path):
    out = root / c.name
    out.mkdir(parents=True, exist_ok=True)
    ch = c.build()
    seed = seed_of(c.name)
    comp = Compositor(c.screen, c.W, c.H, c.N, seed)
    truth = np.zeros((c.N, c.H, c.W, 4), np.uint8)
    drift = np.array(c.drift, np.float32)

    tmp = out / "clip.mp4.part"
    cont = av.open(str(tmp), "w", format="mp4")
    vs = cont.add_stream("libx264", rate=FPS)
    vs.width, vs.height, vs.pix_fmt = c.W, c.H, "yuv420p"
    vs.options = {"crf": str(c.crf), "preset": "veryfast", "threads": "1", "x264-params": "mbtree=0"}
    vs.codec_context.time_base = Fraction(1, FPS)
    if c.audio:
        ast = cont.add_stream("aac", rate=44100, layout="stereo")
        snd = make_audio(c.N, seed + 1, c.action)
    ai = 0
    prev = None
    for t in range(c.N):
        prem = render_frame(ch, t)
        f = smooth(t / max(1, c.N - 1))
        prem[..., :3] *= (1 + drift * f)
        prem[..., :3] = np.minimum(prem[..., :3], prem[..., 3:4])
        tr = quantise(prem)
        truth[t] = tr
        img = comp.frame(t, tr, ch.ground(float(t)))
        if c.smear and t > 0:
            shown = (1 - c.smear) * img + c.smear * prev
        else:
            shown = img
        prev = img
        rgb = np.clip(np.round(shown), 0, 255).astype(np.uint8)
        vf = av.VideoFrame.from_ndarray(rgb, format="rgb24")
        vf.pts = t
        for pk in vs.encode(vf):
            cont.mux(pk)
        if c.audio:
            while (ai + 1) * 1024 <= snd.shape[1] and ai * 1024 < (t + 1) * 44100 / FPS:
                af = av.AudioFrame.from_ndarray(np.ascontiguousarray(snd[:, ai * 1024:(ai + 1) * 1024]),
                                                format="fltp", layout="stereo")
                af.sample_rate, af.pts = 44100, ai * 1024
                for pk in ast.encode(af):
                    cont.mux(pk)
                ai += 1
    for pk in vs.encode(None):
        cont.mux(pk)
    if c.audio:
        for pk in ast.encode(None):
            cont.mux(pk)
    cont.close()
    os.replace(tmp, out / "clip.mp4")

    # portrait: the rest pose, straight RGBA, transparent background
    hi = c.portrait_hi
    if hi == 1:
        por = truth[0]
    else:
        por = quantise(ch.render(0.0, hi=hi))
    margins = geometry(truth, c.screen.bars)
    if "CROPPED" in c.flags:
        assert margins[0] >= 4 and min(margins) < 0.5, (c.name, margins)
    else:
        assert min(margins) >= 4, (c.name, min(margins), int(np.argmin(margins)))
    cv2.imwrite(str(out / "portrait.png"), cv2.cvtColor(por, cv2.COLOR_RGBA2BGRA))
    write_npz(out / "truth.npz", truth)
    (out / "case.json").write_text(json.dumps({"action": c.action, "expect_flags": list(c.flags)}, indent=1) + "\n")
    del truth, ch, comp


def main(argv):
    sub = argv[1] if len(argv) > 1 else ""
    root = Path(os.environ.get("TRIAL_OUT") or Path(__file__).resolve().parent / "_out" / "trial28")
    root.mkdir(parents=True, exist_ok=True)
    cv2.setNumThreads(1)
    t00 = time.time()
    for c in case_list():
        if sub and sub not in c.name:
            continue
        t0 = time.time()
        run_case(c, root)
        print(f"{c.name:28s} {c.action:6s} {c.W}x{c.H} {c.N:3d} fr  {time.time() - t0:5.1f}s", flush=True)
    print(f"total {time.time() - t00:.1f}s -> {root}")


if __name__ == "__main__":
    main(sys.argv)
