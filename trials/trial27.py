"""Trial 27: the chain's original specification, rebuilt as held-out clips.

Each case imitates an image-to-video model's clip of a game character on a chroma
screen: light wrap (the local screen colour mixed into opaque pixels near the
silhouette, strongest at the edge, fading inward over `wrap_px` pixels, at most
`wrap` of the colour), antialiased edges (supersampled drawing), H.264 yuv420p at CRF
18-24 (4:2:0 conversion done here, BT.601 limited range, untagged), a screen with a
gradient, a vignette, per-frame flicker and noise, motion blur from sub-frame averaging
(renders over the shutter, averaged premultiplied: in the truth as partial alpha), a
soft contact shadow under the feet (screen only, not in the truth), and several art
styles. Frame 0 is the rest pose, which is also portrait.png (the straight, unspilled
RGBA the user gave the model). Light wrap, screen, shadow, noise, ghosting and bars are
never in truth.npz.

 case                    size      fps  N  action screen height style  crf wrap/px blur     expect
 idle_zombie_teal        512x512   16  49 idle   green  62 %  Kenney 20  0.30/4  -
 walk_person_greenshirt  832x480   24  65 walk   green  72 %  Kenney 22  0.25/3  -
 hurt_robot_blue         448x448   24  41 hurt   blue   60 %  Kenney 19  0.33/5  0.6/16
 run_adventurer_720      1280x720  16  49 run    blue   55 %  Kenney 23  0.22/3  -
 idle_knight_small       1280x720  24  49 idle   green  34 %  flat   21  0.30/2  -
 walk_ranger_greentunic  512x512   24  73 walk   green  70 %  shaded 20  0.30/5  0.5/12
 run_ink_bluejacket      832x480   24  49 run    blue   75 %  ink    21  0.28/4  0.5/20
 attack_spear_pale       832x480   16  49 attack green  60 %  shaded 20  0.35/4  0.6/24
 skill_ninja_black       480x832   24  65 skill  green  60 %  ink    19  0.30/4  -
 idle_witch_large        480x832   16  97 idle   green  80 %  shaded 22  0.25/6  -
 hurt_goblin_teal        448x448   16  33 hurt   green  55 %  ink    24  0.32/3  0.6/16
 attack_axe_bluebrute    832x480   16  41 attack blue   52 %  shaded 20  0.30/4  0.6/24
 skill_mage_blue         1280x720  24  57 skill  blue   48 %  flat   21  0.30/5  -
 qc_facing_turn          512x512   16  49 idle   green  62 %  ink    20  0.28/4  -        FACING
 qc_ghost_run            832x480   24  49 run    green  72 %  shaded 20  0.25/4  0.4/12   SMEAR
 qc_fast_attack_blur     448x448   24  41 attack green  50 %  flat   20  0.28/3  1.0/64   (none)
 qc_letterbox            1280x720  16  41 walk   green  50 %  shaded 21  0.28/4  -        (none)

Who is who: the zombie has teal skin; femalePerson, the maleAdventurer, the ranger (green
hood and tunic) and the goblin (teal skin, green top) are green-on-green; the robot, the
runner's blue jacket and jeans, the brute's blue tunic and the mage's blue robe are
blue-on-blue; the spearman is white-robed, pale and white-haired; the ninja is near-black
(grey ink). Thin hair strands: ranger, spearman, witch, mage, ghost runner; thin weapon
tips: spear (and tassel), swords, axe spike, the witch's and mage's forked staffs.
"height" is the rest pose's standing height over the frame height (the witch's staff
reaches higher). "wrap/px": the light wrap's weight at the edge and its inward fade.
"blur": shutter (in frames) / most sub-frames; each frame takes as many sub-frames as
keep its joints and weapon tip within ~1.5 px between two of them (a still frame takes
one), so the blur is a continuous smear, not a few copies. qc_facing_turn mirrors the
character over 38-50 % of the clip and keeps it mirrored; qc_ghost_run blends 30 % of
the previous (clean) frame into the visible screen only; qc_letterbox's bars are pure
black over 88 rows at the top and bottom.

    .venv/bin/python trials/trial27.py            # all cases into trials/_out/trial27/
    .venv/bin/python trials/trial27.py qc_        # only the cases whose names contain "qc_"
    TRIAL_OUT=/tmp/t27 .venv/bin/python trials/trial27.py

Kenney's CC0 sprites are read from PyPI's arcade 3.3.3 wheel (pip-downloaded into
/tmp/t27_art when missing; the wheel is never unpacked, only read). The procedural
characters are drawn here. Encoding: PyAV libx264, threads=1, x264-params mbtree=0,
yuv420p, so the same bytes come out on every run.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("TRIAL_OUT", ROOT / "trials" / "_out" / "trial27"))
ART = Path("/tmp/t27_art")
ARCADE = "arcade==3.3.3"
KENNEY = "arcade/resources/assets/images/animated_characters/"
F32 = np.float32


# --------------------------------------------------------------------------- art


def arcade_wheel() -> Path:
    found = sorted(ART.glob("arcade-3.3.3-*.whl"))
    if not found:
        ART.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", ARCADE,
                        "-d", str(ART)], check=True, stdout=subprocess.DEVNULL)
        found = sorted(ART.glob("arcade-3.3.3-*.whl"))
    return found[0]


def kenney(names: list[str]) -> list[np.ndarray]:
    with zipfile.ZipFile(arcade_wheel()) as z:
        out = []
        for n in names:
            with z.open(KENNEY + n) as f:
                out.append(np.array(Image.open(f).convert("RGBA")))
    return out


# --------------------------------------------------------------------------- canvas


class Canvas:
    """Premultiplied float RGBA at `ss` times the output resolution, covering the
    output-pixel box (ox, oy, w, h)."""

    def __init__(self, ox: int, oy: int, w: int, h: int, ss: int):
        self.ox, self.oy, self.w, self.h, self.ss = ox, oy, w, h, ss
        self.P = np.zeros((h * ss, w * ss, 3), F32)
        self.A = np.zeros((h * ss, w * ss), F32)

    def clear(self):
        self.P.fill(0)
        self.A.fill(0)

    def c(self, p):  # frame coords -> canvas (supersampled) coords
        return ((p[0] - self.ox) * self.ss, (p[1] - self.oy) * self.ss)

    def over(self, x0, y0, m, col):
        """Composite mask m (float 0..1, local box at canvas x0,y0) of colour col
        ((h,w,3) or (3,)) over the canvas."""
        h, w = m.shape
        inv = 1.0 - m
        if np.ndim(col) == 1:
            C = np.empty((h, w, 3), F32)
            C[:] = col
        else:
            C = np.ascontiguousarray(col, F32)
        self.P[y0:y0 + h, x0:x0 + w] = cv2.blendLinear(C, self.P[y0:y0 + h, x0:x0 + w], m, inv)
        A = self.A[y0:y0 + h, x0:x0 + w]
        A *= inv
        A += m

    def down(self):
        """(premultiplied rgb, alpha) at output resolution."""
        if self.ss == 1:
            return self.P.copy(), self.A.copy()
        P = cv2.resize(self.P, (self.w, self.h), interpolation=cv2.INTER_AREA)
        A = cv2.resize(self.A, (self.w, self.h), interpolation=cv2.INTER_AREA)
        return P, A


SH = 4  # cv2 drawing shift bits
FX = 1 << SH


def _pt(p, x0, y0):
    return (int(round((p[0] - x0) * FX)), int(round((p[1] - y0) * FX)))


def _draw(img, shape, x0, y0, grow):
    """Draw one shape (canvas coords) into the uint8 mask img whose origin is x0,y0."""
    kind = shape[0]
    if kind == "cap":  # tapered capsule p0 -> p1, radii r0, r1
        _, p0, p1, r0, r1 = shape
        r0, r1 = r0 + grow, r1 + grow
        dx, dy = p1[0] - p0[0], p1[1] - p0[1]
        L = math.hypot(dx, dy) or 1e-3
        nx, ny = -dy / L, dx / L
        quad = np.array([_pt((p0[0] + nx * r0, p0[1] + ny * r0), x0, y0),
                         _pt((p1[0] + nx * r1, p1[1] + ny * r1), x0, y0),
                         _pt((p1[0] - nx * r1, p1[1] - ny * r1), x0, y0),
                         _pt((p0[0] - nx * r0, p0[1] - ny * r0), x0, y0)], np.int32)
        cv2.fillConvexPoly(img, quad, 255, cv2.LINE_AA, SH)
        for p, r in ((p0, r0), (p1, r1)):
            if r * FX >= 1:
                cv2.circle(img, _pt(p, x0, y0), int(round(r * FX)), 255, -1, cv2.LINE_AA, SH)
    elif kind == "ell":
        _, c, ax, ay, ang = shape
        cv2.ellipse(img, _pt(c, x0, y0), (int(round((ax + grow) * FX)), int(round((ay + grow) * FX))),
                    ang, 0, 360, 255, -1, cv2.LINE_AA, SH)
    elif kind == "poly":
        pts = np.array([_pt(p, x0, y0) for p in shape[1]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA, SH)
        if grow > 0:
            cv2.polylines(img, [pts], True, 255, max(1, int(round(2 * grow))), cv2.LINE_AA, SH)
    elif kind == "strand":  # polyline with width tapering w0 -> w1
        _, pts, w0, w1 = shape
        n = len(pts) - 1
        for k in range(n):
            ra = (w0 + (w1 - w0) * k / n) / 2
            rb = (w0 + (w1 - w0) * (k + 1) / n) / 2
            _draw(img, ("cap", pts[k], pts[k + 1], ra, rb), x0, y0, grow)


def _bbox(shape):
    kind = shape[0]
    if kind == "cap":
        _, p0, p1, r0, r1 = shape
        r = max(r0, r1)
        return (min(p0[0], p1[0]) - r, min(p0[1], p1[1]) - r, max(p0[0], p1[0]) + r, max(p0[1], p1[1]) + r)
    if kind == "ell":
        _, c, ax, ay, _a = shape
        r = max(ax, ay)
        return (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
    pts = shape[1]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    r = shape[2] / 2 if kind == "strand" else 0
    return (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)


def scale_shape(shape, cv: Canvas):
    """Frame-coordinate shape -> canvas-coordinate shape."""
    s = cv.ss
    kind = shape[0]
    if kind == "cap":
        _, p0, p1, r0, r1 = shape
        return ("cap", cv.c(p0), cv.c(p1), r0 * s, r1 * s)
    if kind == "ell":
        _, c, ax, ay, a = shape
        return ("ell", cv.c(c), ax * s, ay * s, a)
    if kind == "poly":
        return ("poly", [cv.c(p) for p in shape[1]])
    _, pts, w0, w1 = shape
    return ("strand", [cv.c(p) for p in pts], w0 * s, w1 * s)


def part(cv: Canvas, shapes, fill, ink=None, ink_w=0.0):
    """Draw the union of shapes filled by fill (colour tuple 0..1 or callable(X, Y) on
    frame coords -> (h,w,3)), with an ink outline of width ink_w output px first."""
    cs = [scale_shape(s, cv) for s in shapes]
    g = ink_w * cv.ss if ink is not None else 0.0
    bb = [_bbox(s) for s in cs]
    x0 = int(math.floor(min(b[0] for b in bb) - g - 3))
    y0 = int(math.floor(min(b[1] for b in bb) - g - 3))
    x1 = int(math.ceil(max(b[2] for b in bb) + g + 3))
    y1 = int(math.ceil(max(b[3] for b in bb) + g + 3))
    H, W = cv.A.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    layers = []
    if ink is not None and g > 0:
        layers.append((g, ink))
    layers.append((0.0, fill))
    for grow, col in layers:
        img = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for s in cs:
            _draw(img, s, x0, y0, grow)
        m = img[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(F32) * (1 / 255)
        if callable(col):  # evaluated about once per output pixel, then upsampled
            s = cv.ss
            xs = (np.arange(cx0, cx1 + s, s, dtype=F32) + 0.5 * (s - 1)) / s + cv.ox
            ys = (np.arange(cy0, cy1 + s, s, dtype=F32) + 0.5 * (s - 1)) / s + cv.oy
            X, Y = np.meshgrid(xs, ys)
            c = col(X, Y)
            if s > 1:
                c = cv2.resize(c, ((cx1 - cx0 + s - 1) // s * s + s, len(ys) * s), interpolation=cv2.INTER_LINEAR)
                c = c[s // 2:s // 2 + cy1 - cy0, s // 2:s // 2 + cx1 - cx0]
        else:
            c = np.array(col, F32)
        cv.over(cx0, cy0, m, c)


# --------------------------------------------------------------------------- fills

_TILE = None


def tile():
    global _TILE
    if _TILE is None:
        r = np.random.default_rng(2727)
        t = np.zeros((128, 128), F32)
        for s, a in ((8, 0.6), (16, 0.3), (64, 0.2)):
            n = r.standard_normal((s, s)).astype(F32)
            t += a * cv2.resize(np.tile(n, (3, 3)), (384, 384), interpolation=cv2.INTER_CUBIC)[128:256, 128:256]
        t /= t.std()
        _TILE = t
    return _TILE


def texture(u, v, scale):
    return cv2.remap(tile(), (u / scale) % 128, (v / scale) % 128, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_WRAP)


def shaded_cap(col, p0, p1, r, tex=0.06, tscale=2.0, light=0.35):
    """Cylindrical shading across a capsule, lit from the upper left, with a cloth
    texture attached to the part."""
    col = np.array(col, F32)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    L = math.hypot(dx, dy) or 1e-3
    ux, uy = dx / L, dy / L

    def f(X, Y):
        rx, ry = X - p0[0], Y - p0[1]
        u = rx * ux + ry * uy
        v = np.clip((-rx * uy + ry * ux) / max(r, 1e-3), -1.3, 1.3)
        lit = 0.6 * uy - 0.8 * ux  # n . l with n = (-uy, ux), light from the upper left
        s = 1.0 + light * (0.2 - 0.45 * v * v + 0.35 * v * lit)
        if tex:
            s = s + tex * texture(u, v * r, tscale)
        return np.clip(col * s[..., None], 0, 1)

    return f


def shaded_ell(col, c, r, tex=0.05, tscale=2.0, light=0.35):
    col = np.array(col, F32)

    def f(X, Y):
        dx, dy = (X - c[0]) / r, (Y - c[1]) / r
        d2 = (dx + 0.35) ** 2 + (dy + 0.4) ** 2
        s = 1.0 + light * (0.35 - 0.35 * d2)
        if tex:
            s = s + tex * texture(X - c[0], Y - c[1], tscale)
        return np.clip(col * s[..., None], 0, 1)

    return f


def shaded_lin(col, p0, p1, tex=0.06, tscale=2.0, light=0.3):
    """Linear gradient from p0 (light) to p1 (dark) with texture, for polygons."""
    col = np.array(col, F32)
    dx, dy = p1[0] - p0[0], p1[1] - p0[1]
    L2 = dx * dx + dy * dy or 1e-3

    def f(X, Y):
        t = np.clip(((X - p0[0]) * dx + (Y - p0[1]) * dy) / L2, 0, 1)
        s = 1.0 + light * (0.5 - t)
        if tex:
            s = s + tex * texture(X - p0[0], Y - p0[1], tscale)
        return np.clip(col * s[..., None], 0, 1)

    return f


def rgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


# --------------------------------------------------------------------------- rig


def ease(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def D(a):  # direction of angle a (degrees from straight down, + forward), y down
    r = math.radians(a)
    return (math.sin(r), math.cos(r))


def add(p, d, s=1.0):
    return (p[0] + d[0] * s, p[1] + d[1] * s)


REST = dict(hipN=5, hipF=-5, kneeN=-3, kneeF=-3, shN=12, elN=14, shF=-10, elF=10,
            lean=0.0, head=0.0, rx=0.0, lift=0.0, grip=None, hair=0.0, wave=0.0, sx=1.0, wabs=0.0, wmix=0.0)


class Rig:
    """A cut-out humanoid facing +x: body angles in degrees from straight down."""

    def __init__(self, H, style, pal, *, head=0.11, weapon=None, strands=0, strand_len=0.25,
                 strand_w=(1.6, 0.45), ponytail=False, cape=False, scarf=False, ink_w=1.6,
                 hood=False, robe=False, build=1.0, ears=False):
        self.H, self.style, self.pal = H, style, {k: rgb(v) for k, v in pal.items()}
        self.head_r = head * H
        self.weapon, self.strands, self.strand_len, self.strand_w = weapon, strands, strand_len, strand_w
        self.ponytail, self.cape, self.scarf, self.hood, self.robe = ponytail, cape, scarf, hood, robe
        self.ink_w, self.build, self.ears = ink_w, build, ears
        u = H
        self.thigh, self.shin = 0.205 * u, 0.19 * u
        self.torso = 0.27 * u
        self.ua, self.fa = 0.15 * u, 0.14 * u
        self.r_th, self.r_sh = 0.05 * u * build, 0.039 * u * build
        self.r_ua, self.r_fa = 0.036 * u * build, 0.031 * u * build
        self.foot = 0.075 * u
        self.sole = 0.022 * u
        self.hip_y = self.thigh + self.shin + self.sole  # above ground at full extension

    # fill helpers --------------------------------------------------------
    def capfill(self, col, p0, p1, r):
        if self.style == "shaded":
            return shaded_cap(col, p0, p1, r)
        return col

    def ellfill(self, col, c, r):
        if self.style == "shaded":
            return shaded_ell(col, c, r)
        return col

    def polyfill(self, col, p0, p1):
        if self.style == "shaded":
            return shaded_lin(col, p0, p1)
        return col

    def P(self, cv, shapes, fill):
        ink = self.pal.get("ink") if self.style == "ink" else None
        part(cv, shapes, fill, ink, self.ink_w if ink else 0.0)

    # skeleton ------------------------------------------------------------
    def joints(self, q, cx, gy):
        sx = q["sx"]
        H = self.H

        def T(p):  # char-local (x fwd, y down from ground) -> frame
            return (cx + q["rx"] * H * abs(sx) + sx * p[0], gy + p[1])

        hip = (0.0, 0.0)
        legs = {}
        for s in ("N", "F"):
            a = q["hip" + s]
            knee = add(hip, D(a), self.thigh)
            ank = add(knee, D(a + q["knee" + s]), self.shin)
            legs[s] = (knee, ank)
        low = max(legs["N"][1][1], legs["F"][1][1])
        hy = -(low + self.sole) - q["lift"] * H  # hip height so the lower foot stands on y=0
        J = {"hip": (0.0, hy)}
        for s in ("N", "F"):
            knee, ank = legs[s]
            J["knee" + s] = (knee[0], knee[1] + hy)
            J["ank" + s] = (ank[0], ank[1] + hy)
            a = q["hip" + s] + q["knee" + s]
            fa = min(max(a * 0.5, -40), 60)
            J["toe" + s] = add(J["ank" + s], (math.cos(math.radians(fa)), math.sin(math.radians(fa)) * 0.3), self.foot)
        neck = add(J["hip"], D(180 + q["lean"]), self.torso)
        J["neck"] = neck
        sh = add(neck, D(q["lean"]), 0.035 * H)
        J["sh"] = sh
        for s in ("N", "F"):
            el = add(sh, D(q["sh" + s]), self.ua)
            wr = add(el, D(q["sh" + s] + q["el" + s]), self.fa)
            J["el" + s], J["wr" + s] = el, wr
        J["head"] = add(neck, D(180 + q["lean"] + q["head"]), self.head_r * 0.95 + 0.02 * H)
        return {k: T(v) for k, v in J.items()}, T, sx

    # drawing -------------------------------------------------------------
    def draw(self, cv: Canvas, q, cx, gy, t):
        p, H = self.pal, self.H
        J, T, sx = self.joints(q, cx, gy)
        f = 1.0 if sx >= 0 else -1.0
        dark = lambda c, k=0.78: tuple(min(1, x * k) for x in c)
        hr = self.head_r
        lean = q["lean"]
        # cape / back hair behind everything
        if self.cape:
            top = J["sh"]
            sway = 0.05 * H * math.sin(t * 5.0) * (0.4 + abs(q["wave"]))
            bot_y = J["hip"][1] + 0.3 * H
            back = -f * (0.12 * H + 0.06 * H * abs(q["wave"]))
            pts = [(top[0] + f * 0.02 * H, top[1]), (top[0] - f * 0.05 * H, top[1] + 0.01 * H),
                   (top[0] + back + sway, bot_y), (top[0] + back * 0.3 + sway * 0.6, bot_y + 0.02 * H)]
            self.P(cv, [("poly", pts)], self.polyfill(dark(p["cape"], 0.9), pts[0], pts[2]))
        if self.ponytail:
            self.hair_strands(cv, J, q, t, back=True, n=7, length=0.3, w=(3.2, 0.6), spread=14)
        if self.strands:
            self.hair_strands(cv, J, q, t, back=True, n=self.strands, length=self.strand_len,
                              w=self.strand_w, spread=40)
        # far arm
        self.arm(cv, J, "F", q, dark)
        # far leg
        self.leg(cv, J, "F", dark)
        if self.robe:  # legs under the robe
            self.leg(cv, J, "N", lambda c, k=1.0: c)
        # torso
        hip, neck = J["hip"], J["neck"]
        w_sh, w_hp = 0.1 * H * self.build, 0.085 * H * self.build
        nx, ny = -(neck[1] - hip[1]), neck[0] - hip[0]
        L = math.hypot(nx, ny) or 1
        nx, ny = nx / L, ny / L
        if self.robe:
            flare = 0.11 * H + 0.02 * H * math.sin(t * 3)
            low = (hip[0], hip[1] + 0.24 * H)
            pts = [(neck[0] + nx * w_sh, neck[1] + ny * w_sh), (low[0] + flare + 0.02 * H * q["wave"], low[1]),
                   (low[0] - flare, low[1]), (neck[0] - nx * w_sh, neck[1] - ny * w_sh)]
        else:
            pts = [(neck[0] + nx * w_sh, neck[1] + ny * w_sh), (hip[0] + nx * w_hp, hip[1] + ny * w_hp),
                   (hip[0] - nx * w_hp, hip[1] - ny * w_hp), (neck[0] - nx * w_sh, neck[1] - ny * w_sh)]
        torso = [("poly", pts), ("ell", neck, w_sh, 0.03 * H, -lean * f)]
        if not self.robe:
            torso.append(("ell", hip, w_hp * 1.05, 0.045 * H, -lean * f))
        self.P(cv, torso, self.polyfill(p["shirt"], (neck[0] - f * w_sh, neck[1]), (hip[0] + f * w_hp, hip[1])))
        if not self.robe:
            belt = add(hip, D(180 + lean), 0.03 * H)
            self.P(cv, [("cap", (belt[0] - w_hp * 1.02, belt[1]), (belt[0] + w_hp * 1.02, belt[1]), 0.014 * H, 0.014 * H)],
                   p.get("belt", dark(p["pants"], 0.6)))
            if "emblem" in p:  # an off-centre badge: shows which way the character faces
                em = (neck[0] + f * 0.045 * H, neck[1] + 0.07 * H)
                self.P(cv, [("ell", em, 0.02 * H, 0.02 * H, 0)], p["emblem"])
        # near leg
        if not self.robe:
            self.leg(cv, J, "N", lambda c, k=1.0: c)
        # scarf
        if self.scarf:
            self.scarf_strands(cv, J, q, t, f)
        # head
        hc = J["head"]
        self.P(cv, [("cap", neck, add(hc, (0, 0)), 0.028 * H, 0.028 * H)], dark(p["skin"], 0.9))
        if self.ears:
            ear = (hc[0] - f * 0.2 * hr, hc[1] - 0.1 * hr)
            tip = (hc[0] - f * 1.45 * hr, hc[1] - 0.75 * hr)
            self.P(cv, [("poly", [ear, (ear[0], ear[1] + 0.45 * hr), tip])], dark(p["skin"], 0.92))
        self.P(cv, [("ell", hc, hr, hr * 1.05, 0)], self.ellfill(p["skin"], hc, hr))
        eye = (hc[0] + f * 0.5 * hr, hc[1] - 0.02 * hr)
        part(cv, [("ell", eye, 0.11 * hr, 0.16 * hr, 0)], p.get("eye", (0.08, 0.06, 0.07)))
        mouth0 = (hc[0] + f * 0.35 * hr, hc[1] + 0.45 * hr)
        part(cv, [("cap", mouth0, (mouth0[0] + f * 0.3 * hr, mouth0[1] - 0.04 * hr), 0.03 * hr, 0.03 * hr)],
             dark(p["skin"], 0.55))
        # hair cap / hood
        if self.hood:
            pts = [(hc[0] + f * 1.15 * hr, hc[1] - 0.1 * hr), (hc[0] + f * 0.6 * hr, hc[1] - 1.25 * hr),
                   (hc[0] - f * 0.7 * hr, hc[1] - 1.15 * hr), (hc[0] - f * 1.45 * hr, hc[1] + 0.1 * hr),
                   (hc[0] - f * 1.2 * hr, hc[1] + 1.05 * hr), (hc[0] - f * 0.3 * hr, hc[1] + 0.5 * hr),
                   (hc[0] + f * 0.15 * hr, hc[1] - 0.55 * hr)]
            self.P(cv, [("poly", pts)], self.polyfill(p["hood"], pts[1], pts[4]))
        elif "hair" in p:
            c = (hc[0] - f * 0.12 * hr, hc[1] - 0.3 * hr)
            pts = [(hc[0] + f * 0.95 * hr, hc[1] - 0.35 * hr), (hc[0] + f * 0.6 * hr, hc[1] - 1.0 * hr),
                   (hc[0] - f * 0.5 * hr, hc[1] - 1.15 * hr), (hc[0] - f * 1.12 * hr, hc[1] - 0.2 * hr),
                   (hc[0] - f * 0.9 * hr, hc[1] + 0.55 * hr), (hc[0] - f * 0.2 * hr, hc[1] - 0.45 * hr)]
            self.P(cv, [("poly", pts)], self.ellfill(p["hair"], c, hr))
        # near arm + weapon
        self.arm(cv, J, "N", q, lambda c, k=1.0: c, weapon=self.weapon)

    def leg(self, cv, J, s, dark):
        p, H = self.pal, self.H
        hip, knee, ank, toe = J["hip"], J["knee" + s], J["ank" + s], J["toe" + s]
        self.P(cv, [("cap", hip, knee, self.r_th, self.r_th * 0.85)],
               self.capfill(dark(p["pants"]), hip, knee, self.r_th))
        self.P(cv, [("cap", knee, ank, self.r_th * 0.8, self.r_sh)],
               self.capfill(dark(p.get("legs", p["pants"])), knee, ank, self.r_sh))
        self.P(cv, [("cap", ank, toe, self.r_sh * 1.05, self.r_sh * 0.8)],
               self.capfill(dark(p["boots"]), ank, toe, self.r_sh))

    def arm(self, cv, J, s, q, dark, weapon=None):
        p, H = self.pal, self.H
        sh, el, wr = J["sh"], J["el" + s], J["wr" + s]
        sleeve = p.get("sleeve", p["shirt"])
        self.P(cv, [("cap", sh, el, self.r_ua, self.r_fa)], self.capfill(dark(sleeve), sh, el, self.r_ua))
        self.P(cv, [("cap", el, wr, self.r_fa, self.r_fa * 0.9)],
               self.capfill(dark(p.get("forearm", p["skin"])), el, wr, self.r_fa))
        if weapon:
            self.draw_weapon(cv, J, q, weapon)
        hand = add(wr, (wr[0] - el[0], wr[1] - el[1]), 0.18)
        self.P(cv, [("ell", hand, 0.03 * H, 0.03 * H, 0)], dark(p.get("glove", p["skin"])))

    REACH = {"spear": 0.62 * 0.78 + 0.13, "sword": 0.6, "axe": 0.55, "staff": 0.68 * 0.9 + 0.05}

    def weapon_axis(self, J, q, weapon):
        """(hand, unit direction) of the weapon: held at a grip angle to the forearm,
        or (wmix of the way) at the absolute angle wabs."""
        el, wr = J["elN"], J["wrN"]
        f = 1.0 if q["sx"] >= 0 else -1.0
        fa = math.degrees(math.atan2((wr[0] - el[0]) * f, wr[1] - el[1]))  # forearm angle
        grip = q["grip"] if q["grip"] is not None else {"spear": 148, "sword": 95, "axe": 100, "staff": 150}[weapon]
        a = fa + grip
        if q.get("wmix", 0) > 0:
            a += q["wmix"] * ((q["wabs"] - a + 180) % 360 - 180)
        d = D(a)
        d = (d[0] * f, d[1])
        return add(wr, (wr[0] - el[0], wr[1] - el[1]), 0.18), d

    def keypoints(self, q, cx, gy):
        """Joints and weapon tip, for choosing how many sub-frames a blurred frame needs."""
        J = self.joints(q, cx, gy)[0]
        pts = list(J.values())
        if self.weapon:
            hand, d = self.weapon_axis(J, q, self.weapon)
            pts.append(add(hand, d, self.REACH[self.weapon] * self.H))
        return np.array(pts)

    def draw_weapon(self, cv, J, q, weapon):
        p, H = self.pal, self.H
        hand, d = self.weapon_axis(J, q, weapon)
        metal, wood = p.get("metal", rgb("d8dde6")), p.get("wood", rgb("7a5230"))
        if weapon == "spear":
            L = 0.78 * H
            a0, a1 = add(hand, d, -0.3 * L), add(hand, d, 0.62 * L)
            self.P(cv, [("cap", a0, a1, 0.009 * H, 0.008 * H)], self.capfill(wood, a0, a1, 0.009 * H))
            n = (-d[1], d[0])
            tipb = add(a1, d, -0.01 * H)
            tip = add(a1, d, 0.13 * H)
            pts = [add(tipb, n, 0.022 * H), add(add(tipb, d, 0.04 * H), n, 0.018 * H), tip,
                   add(add(tipb, d, 0.04 * H), n, -0.018 * H), add(tipb, n, -0.022 * H)]
            self.P(cv, [("poly", pts)], self.polyfill(metal, pts[0], pts[4]))
            # a thin tassel under the blade
            tb = add(a1, d, -0.015 * H)
            for k in (-1, 1):
                pts2 = [tb] + [add(add(tb, d, -0.03 * H * j), n, k * 0.01 * H * j + 0.012 * H * math.sin(q["wave"] * 3 + j)) for j in (1, 2, 3)]
                self.P(cv, [("strand", pts2, 1.4, 0.4)], p.get("tassel", rgb("c0392b")))
        elif weapon == "sword":
            L = 0.5 * H
            n = (-d[1], d[0])
            g0 = add(hand, d, -0.05 * H)
            self.P(cv, [("cap", g0, add(hand, d, 0.03 * H), 0.012 * H, 0.012 * H)], wood)
            gb = add(hand, d, 0.035 * H)
            self.P(cv, [("cap", add(gb, n, -0.045 * H), add(gb, n, 0.045 * H), 0.01 * H, 0.01 * H)], p.get("guard", rgb("c9a227")))
            b0 = add(gb, d, 0.01 * H)
            tip = add(b0, d, L)
            pts = [add(b0, n, 0.022 * H), add(add(b0, d, L * 0.85), n, 0.018 * H), tip,
                   add(add(b0, d, L * 0.85), n, -0.018 * H), add(b0, n, -0.022 * H)]
            self.P(cv, [("poly", pts)], self.polyfill(metal, pts[0], pts[4]))
        elif weapon == "axe":
            L = 0.55 * H
            a0, a1 = add(hand, d, -0.1 * L), add(hand, d, 0.9 * L)
            self.P(cv, [("cap", a0, a1, 0.014 * H, 0.012 * H)], self.capfill(wood, a0, a1, 0.014 * H))
            n = (-d[1], d[0])
            hb = add(a1, d, -0.08 * H)
            pts = [add(hb, d, 0.07 * H), add(add(hb, n, 0.15 * H), d, 0.11 * H), add(add(hb, n, 0.17 * H), d, 0.0),
                   add(add(hb, n, 0.14 * H), d, -0.1 * H), add(hb, d, -0.04 * H)]
            self.P(cv, [("poly", pts)], self.polyfill(metal, pts[1], pts[4]))
            spike = [add(hb, n, -0.01 * H), add(add(hb, n, -0.09 * H), d, 0.015 * H), add(hb, d, 0.03 * H)]
            self.P(cv, [("poly", spike)], metal)
        elif weapon == "staff":
            L = 0.9 * H
            a0, a1 = add(hand, d, -0.35 * L), add(hand, d, 0.65 * L)
            self.P(cv, [("cap", a0, a1, 0.01 * H, 0.008 * H)], self.capfill(wood, a0, a1, 0.01 * H))
            n = (-d[1], d[0])
            # a thin forked crescent at the top, hair-thin tips
            for k in (-1, 1):
                pts = [a1] + [add(add(a1, d, 0.03 * H * j), n, k * (0.035 * H * math.sin(j * 0.55))) for j in (1, 2, 3, 4)]
                self.P(cv, [("strand", pts, 2.2, 0.35)], metal)
            self.P(cv, [("ell", add(a1, d, 0.02 * H), 0.017 * H, 0.017 * H, 0)], p.get("gem", rgb("e05cc8")))

    def hair_strands(self, cv, J, q, t, back, n, length, w, spread):
        p, H, hr = self.pal, self.H, self.head_r
        hc = J["head"]
        f = 1.0 if q["sx"] >= 0 else -1.0
        col = p.get("hair", p.get("hood"))
        rng = np.random.default_rng(n * 31 + int(length * 100))
        offs = rng.uniform(0, 2 * math.pi, n)
        lens = rng.uniform(0.75, 1.1, n)
        groups = ([], [])
        for k in range(n):
            u = (k + 0.5) / n
            phi = math.radians(25 + u * spread)  # from the crown round the back of the head
            root = (hc[0] - f * hr * 0.92 * math.sin(phi), hc[1] - hr * 0.92 * math.cos(phi))
            pts = [root]
            seg = length * H * lens[k] / 8
            a0 = 75 - 30 * u + 30 * q["hair"]  # leaves the head backwards ...
            a1 = 6 + 8 * u + 45 * q["hair"]  # ... and falls (blown back by q["hair"])
            for j in range(8):
                a2 = a0 + (a1 - a0) * min(1.0, (j + 1) / 4) \
                    + (3 + 16 * abs(q["wave"])) * math.sin(t * 4.0 + offs[k] - 0.6 * j) * (j / 8)
                d = D(a2)
                pts.append((pts[-1][0] - f * d[0] * seg, pts[-1][1] + d[1] * seg))
            groups[k % 2].append(("strand", pts, w[0], w[1]))
        for g, shade in zip(groups, (0.85, 1.0)):
            if g:
                self.P(cv, g, dark_or(col, shade))

    def scarf_strands(self, cv, J, q, t, f):
        p, H = self.pal, self.H
        neck = J["neck"]
        self.P(cv, [("cap", (neck[0] - 0.05 * H, neck[1]), (neck[0] + 0.05 * H, neck[1] + 0.01 * H), 0.025 * H, 0.025 * H)],
               p["scarf"])
        tails = []
        for k, (w0, w1, ln) in enumerate(((6.0, 1.5, 0.28), (4.5, 0.8, 0.34), (1.5, 0.4, 0.3))):
            pts = [(neck[0] - f * 0.03 * H, neck[1] + 0.005 * H * k)]
            seg = ln * H / 8
            for j in range(8):
                a = 70 + 25 * q["hair"] + 12 * math.sin(t * 6 + j * 0.7 + k) * (j / 8) - 8 * k
                d = D(a)
                pts.append((pts[-1][0] - f * d[0] * seg, pts[-1][1] + d[1] * seg * 0.6))
            tails.append(("strand", pts, w0, w1))
        self.P(cv, tails, p["scarf"])


def dark_or(c, k):
    return tuple(min(1, x * k) for x in c)


# --------------------------------------------------------------------------- actions


WIND = {"spear": dict(shN=-30, elN=110, wabs=95, lean=-6, shF=25, elF=40, hipF=-12),
        "chop": dict(shN=185, elN=50, wabs=215, lean=-8, shF=30, elF=30, kneeN=-8)}
STRIKE = {"spear": dict(shN=78, elN=8, wabs=90, lean=14, shF=-40, elF=20, hipN=32, kneeN=-22, hipF=-22, rx=0.07),
          "chop": dict(shN=62, elN=6, wabs=68, lean=18, shF=-35, elF=20, hipN=30, kneeN=-25, hipF=-20, rx=0.06)}


def attack(t, T, weapon, t0, t1, dur, t3):
    """Wind up over t0..t1, strike over dur seconds, hold, recover to rest from t3."""
    q = dict(REST)
    style = "spear" if weapon == "spear" else "chop"
    Wd, Sd = WIND[style], STRIKE[style]
    wind = ease((t - t0) / (t1 - t0))
    strike = ease((t - t1) / dur) if t >= t1 else 0.0
    k = 1 - (ease((t - t3) / (T - t3)) if t > t3 else 0.0)
    for key in set(Wd) | set(Sd):
        if key == "wabs":
            continue
        v = REST[key]
        w = Wd.get(key, v)
        q[key] = v + k * ((w - v) * wind + (Sd.get(key, w) - w) * strike)
    q["wabs"] = Wd["wabs"] + (Sd["wabs"] - Wd["wabs"]) * strike
    q["wmix"] = k * wind
    q["head"] = -0.5 * q["lean"]
    q["wave"] = k * (0.8 * strike + 0.2 * wind)
    q["hair"] = 0.5 * k * strike
    return q


def pose(action, t, T, weapon=None):
    """Joint angles at time t (s) of a clip of length T (s); t=0 is the rest pose."""
    q = dict(REST)
    if action == "idle":
        e = ease(t / 0.6)
        b = math.sin(2 * math.pi * t / 2.2)
        q["lean"] += 1.5 * e * math.sin(2 * math.pi * t / 3.1)
        q["shN"] += 4 * e * b
        q["shF"] -= 4 * e * b
        q["elN"] += 5 * e * (1 - math.cos(2 * math.pi * t / 2.2))
        q["head"] += 3 * e * math.sin(2 * math.pi * t / 2.7 + 1)
        q["kneeN"] -= 4 * e * (1 + b) / 2
        q["kneeF"] -= 4 * e * (1 + b) / 2
        q["rx"] = 0.01 * e * math.sin(2 * math.pi * t / 3.1)
        q["wave"] = 0.15 * e
        return q
    if action in ("walk", "run"):
        run = action == "run"
        per = 0.62 if run else 1.05
        e = ease(t / (0.35 if run else 0.5))
        ph = 2 * math.pi * t / per
        A = (38 if run else 24) * e
        for s, o in (("N", 0.0), ("F", math.pi)):
            sw = math.sin(ph + o)
            q["hip" + s] = A * sw + (8 * e if run else 0)
            lift = max(0.0, math.cos(ph + o))  # swinging forward phase
            q["knee" + s] = -(8 + (85 if run else 42) * lift ** 1.5) * e - 3
            q["sh" + s] = -(A * 1.1) * sw * (0.9 if s == "N" else 1) + (10 if s == "N" else -10)
            q["el" + s] = (75 if run else 18) * e + 10
        q["lean"] = (12 if run else 3) * e
        q["head"] = -q["lean"] * 0.6
        q["lift"] = (0.03 * e * max(0.0, math.sin(2 * ph)) if run else 0.0)
        q["wave"] = (0.9 if run else 0.45) * e * math.sin(ph)
        q["hair"] = (0.6 if run else 0.2) * e
        return q
    if action == "attack":
        return attack(t, T, weapon, 0.18 * T, 0.42 * T, 0.12, 0.78 * T)
    if action == "skill":
        up = ease((t - 0.1 * T) / (0.3 * T))
        down = ease((t - 0.8 * T) / (0.2 * T))
        k = up * (1 - down)
        fl = math.sin(2 * math.pi * t / 1.3)
        q["shN"] = REST["shN"] + k * (138 + 6 * fl)
        q["elN"] = REST["elN"] + k * (-25)
        q["shF"] = REST["shF"] + k * (140 - 6 * fl)
        q["elF"] = REST["elF"] + k * 5
        q["wabs"], q["wmix"] = 180.0, k
        q["lift"] = k * (0.07 + 0.012 * fl)
        q["kneeN"] = REST["kneeN"] - k * 20
        q["kneeF"] = REST["kneeF"] - k * 35
        q["hipF"] = REST["hipF"] + k * 10
        q["head"] = -8 * k
        q["lean"] = -4 * k
        q["hair"] = 1.4 * k
        q["wave"] = 0.6 * k
        return q
    if action == "hurt":
        th = 0.16 * T
        hit = ease((t - th) / 0.09)
        rec = ease((t - th - 0.25) / (0.6 * T)) if t > th + 0.25 else 0.0
        k = hit * (1 - rec)
        wob = math.exp(-max(t - th, 0) * 4) * math.sin(max(t - th, 0) * 30) * hit
        q["lean"] = -24 * k + 4 * wob
        q["head"] = -14 * k - 6 * wob
        q["shN"] = REST["shN"] + 70 * k
        q["elN"] = REST["elN"] + 50 * k
        q["shF"] = REST["shF"] + 95 * k
        q["elF"] = REST["elF"] + 40 * k
        q["hipN"] = REST["hipN"] + 22 * k
        q["kneeN"] = REST["kneeN"] - 15 * k
        q["hipF"] = REST["hipF"] - 12 * k
        q["rx"] = -0.08 * k + 0.006 * wob
        q["wave"] = 0.8 * k
        q["hair"] = 0.5 * k
        return q
    raise ValueError(action)


# --------------------------------------------------------------------------- sprites


class Sprite:
    """A Kenney sprite, scaled once (premultiplied, cubic), posed by affine warps."""

    def __init__(self, cells, height, flip=False):
        al = cells[0][..., 3]
        ys, xs = np.nonzero(al > 8)
        self.foot = ((xs.min() + xs.max() + 1) / 2, ys.max() + 1.0)
        self.s = height / (ys.max() + 1 - ys.min())
        self.cells = []
        for c in cells:
            if flip:
                c = c[:, ::-1]
            a = c[..., 3:4].astype(F32) / 255
            pm = np.concatenate([c[..., :3].astype(F32) / 255 * a, a], -1)
            pad = 4
            pm = np.pad(pm, ((pad, pad), (pad, pad), (0, 0)))
            big = cv2.resize(pm, None, fx=self.s, fy=self.s, interpolation=cv2.INTER_CUBIC)
            big = np.clip(big, 0, 1)
            # cubic upscaling stretches the art's 1 px antialiased edge to ~s px: bring
            # the alpha ramp back to ~1.5 px, keeping the straight colour
            a0 = big[..., 3:4]
            col = np.clip(big[..., :3] / np.maximum(a0, 1e-3), 0, 1)
            a1 = np.clip((a0 - 0.5) * max(1.0, self.s / 1.5) + 0.5, 0, 1)
            big = np.concatenate([col * a1, a1], -1).astype(F32)
            self.cells.append(big)
        if flip:
            self.foot = (cells[0].shape[1] - self.foot[0], self.foot[1])
        self.foot = ((self.foot[0] + 4) * self.s, (self.foot[1] + 4) * self.s)
        self.height = height

    def draw(self, cv: Canvas, cell, cx, gy, rot=0.0, sx=1.0, sy=1.0, pivot_h=0.0):
        """Feet at frame (cx, gy); rotate by rot degrees (positive = lean back, i.e.
        counter-clockwise on screen) about a point pivot_h*height above the feet."""
        src = self.cells[cell]
        s = cv.ss
        C = np.array([[s, 0, -cv.ox * s], [0, s, -cv.oy * s], [0, 0, 1]])
        M = (C @ self.affine(cx, gy, rot, sx, sy, pivot_h))[:2]
        w = cv2.warpAffine(src, M, (cv.P.shape[1], cv.P.shape[0]), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        inv = 1 - w[..., 3]
        cv.P *= inv[..., None]
        cv.P += w[..., :3]
        cv.A *= inv
        cv.A += w[..., 3]

    def affine(self, cx, gy, rot=0.0, sx=1.0, sy=1.0, pivot_h=0.0):
        """3x3 map from scaled-cell pixels to frame pixels."""
        fx, fy = self.foot
        # source -> feet-origin, scale, rotate about pivot, -> canvas
        S = np.array([[sx, 0, -fx * sx], [0, sy, -fy * sy], [0, 0, 1]], np.float64)
        py = -pivot_h * self.height
        r = math.radians(-rot)
        R = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
        Tp = np.array([[1, 0, 0], [0, 1, py], [0, 0, 1]])
        Tm = np.array([[1, 0, 0], [0, 1, -py], [0, 0, 1]])
        Cf = np.array([[1, 0, cx], [0, 1, gy], [0, 0, 1]])
        return Cf @ Tp @ R @ Tm @ S

    def keypoints(self, cell, cx, gy, rot=0.0, sx=1.0, sy=1.0, pivot_h=0.0):
        h, w = self.cells[cell].shape[:2]
        M = self.affine(cx, gy, rot, sx, sy, pivot_h)
        pts = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1], [w / 2, h / 2, 1]], np.float64)
        return (pts @ M.T)[:, :2]


def sprite_pose(action, t, T, fps_cells, ncells):
    """(cell, rot, sx, sy, dx_frac, lift_frac) of a Kenney character."""
    if action == "idle":
        e = ease(t / 0.6)
        b = math.sin(2 * math.pi * t / 2.0)
        return 0, 1.6 * e * math.sin(2 * math.pi * t / 3.2), 1 - 0.008 * e * b, 1 + 0.016 * e * b, \
            0.01 * e * math.sin(2 * math.pi * t / 3.2), 0.0
    if action in ("walk", "run"):
        if t <= 0:
            return 0, 0.0, 1.0, 1.0, 0.0, 0.0
        cell = 1 + int(t * fps_cells) % ncells
        e = ease(t / 0.4)
        lean = (-7.0 if action == "run" else -1.5) * e
        bob = 0.012 * e * abs(math.sin(math.pi * t * fps_cells / 4)) if action == "run" else 0.0
        return cell, lean, 1.0, 1.0, 0.0, bob
    if action == "hurt":
        th = 0.18 * T
        hit = ease((t - th) / 0.08)
        rec = ease((t - th - 0.2) / (0.6 * T)) if t > th + 0.2 else 0.0
        k = hit * (1 - rec)
        dt = max(t - th, 0)
        wob = math.exp(-dt * 5) * math.sin(dt * 38) * hit
        return 0, 15 * k + 3 * wob, 1 + 0.03 * k, 1 - 0.05 * k, -0.09 * k + 0.012 * wob, 0.0
    raise ValueError(action)


# --------------------------------------------------------------------------- screen


SCREENS = {"green": np.array([0.17, 0.72, 0.26], F32), "blue": np.array([0.10, 0.28, 0.80], F32)}


class Screen:
    def __init__(self, w, h, kind, rng, grad=0.12, vig=0.28, noise=2.8, flicker=0.02, bars=0):
        self.w, self.h, self.rng, self.noise, self.flicker, self.bars = w, h, rng, noise, flicker, bars
        base = SCREENS[kind] * F32(rng.uniform(0.92, 1.05)) + rng.uniform(-0.03, 0.03, 3).astype(F32)
        yy, xx = np.mgrid[0:h, 0:w].astype(F32)
        ang = rng.uniform(0, 2 * math.pi)
        g = ((xx / w - 0.5) * math.cos(ang) + (yy / h - 0.5) * math.sin(ang)) * 2  # -1..1-ish
        tint = rng.uniform(-0.04, 0.04, 3).astype(F32)
        r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) / 0.5
        field = base[None, None] * (1 + grad * g[..., None]) + tint * g[..., None]
        field *= (1 - vig * r2 ** 1.2)[..., None]
        self.field = np.clip(field, 0, 1).astype(F32)
        self.phase = rng.uniform(0, 6.28, 2)
        self.bank = rng.standard_normal((h + 61, w + 67, 3), dtype=F32)

    def grain(self):
        """Per-frame noise: a randomly offset, randomly signed window of a noise bank."""
        oy, ox = self.rng.integers(0, 61), self.rng.integers(0, 67)
        g = self.bank[oy:oy + self.h, ox:ox + self.w]
        return g if self.rng.random() < 0.5 else -g

    def frame(self, i):
        r = self.rng
        gain = 1 + self.flicker * (0.6 * math.sin(i * 0.9 + self.phase[0]) + r.standard_normal() * 0.5)
        low = r.standard_normal((max(2, self.h // 40), max(2, self.w // 40), 3)).astype(F32)
        low = cv2.resize(low, (self.w, self.h), interpolation=cv2.INTER_LINEAR) * F32(0.012)
        return self.field * F32(gain) + low * self.field


def shadow_mask(w, h, cx, gy, H, lift, strength):
    """Soft contact shadow (0..strength): its box (y0, y1, x0, x1) and float map."""
    k = max(0.0, 1 - lift / 0.15)
    ax, ay = 0.24 * H * (0.7 + 0.3 * k), 0.035 * H * (0.7 + 0.3 * k)
    sig = max(1.5, 0.025 * H)
    pad = int(ax + 4 * sig)
    x0, x1 = max(0, int(cx) - pad), min(w, int(cx) + pad)
    y0, y1 = max(0, int(gy) - pad), min(h, int(gy) + pad)
    loc = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.ellipse(loc, (int(round((cx - x0) * 16)), int(round((gy + 0.01 * H - y0) * 16))),
                (int(ax * 16), int(ay * 16)), 0, 0, 360, 255, -1, cv2.LINE_AA, 4)
    loc = cv2.GaussianBlur(loc.astype(F32) / 255, (0, 0), sig)
    return y0, y1, x0, x1, loc * F32(strength * (0.4 + 0.6 * k))


def light_wrap(A, wmax, L):
    """Weight of screen colour in each character pixel: wmax at the edge (partial
    alpha), fading to 0 about L px inward."""
    core = (A >= 0.5).astype(np.uint8)
    d = cv2.distanceTransform(core, cv2.DIST_L2, 3)
    w = np.clip(1 - (d - 1) / L, 0, 1) ** 1.4
    w[core == 0] = 1
    return (w * wmax).astype(F32)


# --------------------------------------------------------------------------- encode


M601 = np.array([[0.256788, 0.504129, 0.097906, 16.5],
                 [-0.148223, -0.290993, 0.439216, 128.5],
                 [0.439216, -0.367788, -0.071427, 128.5]], F32)  # BT.601 limited; +0.5 rounds


def to_yuv420(rgb8):
    """BT.601 limited-range 4:2:0 (chroma of each 2x2 block averaged), as I420 planes."""
    h, w = rgb8.shape[:2]
    x = rgb8.astype(F32)
    Y = cv2.transform(x, M601[:1])
    half = cv2.resize(x, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    UV = cv2.transform(half, M601[1:])
    q = lambda a: np.clip(a, 0, 255).astype(np.uint8)
    return np.concatenate([q(Y).reshape(h, w), q(UV[..., 0]).reshape(h // 4, w), q(UV[..., 1]).reshape(h // 4, w)], 0)


class Encoder:
    def __init__(self, path, w, h, fps, crf):
        self.c = av.open(str(path), "w")
        s = self.c.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = w, h, "yuv420p"
        s.options = {"crf": str(crf), "preset": "medium", "threads": "1", "x264-params": "mbtree=0"}
        self.s, self.n = s, 0

    def add(self, rgb8):
        f = av.VideoFrame.from_ndarray(to_yuv420(rgb8), format="yuv420p")
        f.pts = self.n
        self.n += 1
        for p in self.s.encode(f):
            self.c.mux(p)

    def close(self):
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


# --------------------------------------------------------------------------- cases

G = "green"
B = "blue"

PAL = {
    "knight": dict(skin="f1c27d", hair="6b3e26", shirt="9aa3ad", sleeve="8a939c", pants="6e7781", boots="3b3f45",
                   cape="b0232a", glove="5a5f66", metal="e3e8ee", belt="5b3a1e", ink="1a1414"),
    "ranger": dict(skin="e0ac7e", hair="3a2a1a", hood="2f8a3a", shirt="3fa34d", sleeve="2e8b3d", pants="5a4632",
                   boots="3d2b1f", belt="2a1d12", ink="141a12"),
    "jacket": dict(skin="d99a6c", hair="1c1c24", shirt="2f5fd0", sleeve="2b55c0", pants="3456a0", legs="2c4a8c",
                   boots="e8e8ea", belt="1b2a55", emblem="ffd23f", ink="10131c"),
    "pale": dict(skin="f6e7de", hair="f4f4f2", shirt="f2f2ee", sleeve="e8e8e4", pants="e6e4dc", boots="cfc9bd",
                 belt="c8b48a", metal="f0f4f8", wood="d9cdb8", tassel="e8e0d0", ink="8a8f99"),
    "ninja": dict(skin="2a2a30", hair="0e0e12", shirt="141418", sleeve="121216", pants="101014", boots="0a0a0c",
                  belt="24242a", scarf="1a1a20", eye="d8d8e0", glove="0c0c0e", ink="3a3a44"),
    "witch": dict(skin="f0c8a8", hair="d8862a", shirt="5b2a86", sleeve="4e2475", pants="3a1a5a", boots="2a1630",
                  wood="6a4426", metal="e8e0c0", gem="3fd0ff", ink="1a1020"),
    "goblin": dict(skin="3fae9c", hair="1e3a2a", shirt="4caf50", sleeve="3fae9c", forearm="3fae9c", pants="3f8f3a",
                   legs="3fae9c", boots="5a3a22", belt="6a4a2a", eye="ffe14a", ink="0f1a16"),
    "brute": dict(skin="c98b62", hair="2a1a10", shirt="2d5ccf", sleeve="c98b62", pants="244a9e", boots="4a3020",
                  belt="6a4a2a", metal="c9ced6", wood="5e3b22", ink="141414"),
    "mage": dict(skin="f0c29a", hair="e8e2d0", shirt="2656c8", sleeve="2a60d8", pants="1f48a8", boots="1a2a55",
                 wood="8a5a30", gem="ffd23f", metal="ffd23f", ink="111827"),
    "swords": dict(skin="e8b48a", hair="b5331f", shirt="8a5cc2", sleeve="7a4fb0", pants="3a3a52", boots="2a2030",
                   belt="caa040", emblem="ffe14a", metal="dfe6ee", ink="151020"),
    "runner": dict(skin="c98f6a", hair="2a1a14", shirt="e0872f", sleeve="d07a28", pants="5a3d8a", boots="f0f0f0",
                   belt="333333", ink="141414"),
    "fencer": dict(skin="f0c8a0", hair="ffcc33", shirt="cc3344", sleeve="b82e3c", pants="2a2a3a", boots="1e1e28",
                   belt="1e1e28", metal="e6ecf2", ink="101010"),
    "walker": dict(skin="d8a07a", hair="5a3218", shirt="e0d24a", sleeve="d4c43c", pants="7a4a2a", boots="3a2418",
                   belt="3a2418", ink="141414"),
}

CASES = [
    dict(name="idle_zombie_teal", kind="kenney", art=["zombie/zombie_idle.png"], action="idle",
         size=(512, 512), fps=16, n=49, screen=G, hfrac=0.62, crf=20, wrap=0.3, wrap_px=4, K=1,
         what="Kenney zombie (teal skin, purple shirt) breathing and swaying on a green screen",
         source="Kenney 'Toon Characters' zombie_idle.png, CC0, from PyPI arcade 3.3.3 wheel"),
    dict(name="walk_person_greenshirt", kind="kenney", action="walk",
         art=["female_person/femalePerson_idle.png"] + [f"female_person/femalePerson_walk{i}.png" for i in range(8)],
         size=(832, 480), fps=24, n=65, screen=G, hfrac=0.72, crf=22, wrap=0.25, wrap_px=3, K=1, cells_fps=10,
         what="Kenney female person in a green shirt walking in place (8 walk cells) on a green screen",
         source="Kenney 'Toon Characters' femalePerson idle+walk0-7, CC0, from PyPI arcade 3.3.3 wheel"),
    dict(name="hurt_robot_blue", kind="kenney", art=["robot/robot_idle.png"], action="hurt",
         size=(448, 448), fps=24, n=41, screen=B, hfrac=0.6, crf=19, wrap=0.33, wrap_px=5, K=16, shutter=0.6,
         what="Kenney blue-steel robot knocked back and recovering on a blue screen, blur on the recoil",
         source="Kenney 'Toon Characters' robot_idle.png, CC0, from PyPI arcade 3.3.3 wheel"),
    dict(name="run_adventurer_720", kind="kenney", action="run",
         art=["male_adventurer/maleAdventurer_idle.png"] + [f"male_adventurer/maleAdventurer_walk{i}.png" for i in range(8)],
         size=(1280, 720), fps=16, n=49, screen=B, hfrac=0.55, crf=23, wrap=0.22, wrap_px=3, K=1, cells_fps=16,
         what="Kenney adventurer (green shirt) running in place, leaning, on a blue screen at 720p",
         source="Kenney 'Toon Characters' maleAdventurer idle+walk0-7, CC0, from PyPI arcade 3.3.3 wheel"),
    dict(name="idle_knight_small", kind="rig", pal="knight", style="flat", action="idle",
         size=(1280, 720), fps=24, n=49, screen=G, hfrac=0.34, crf=21, wrap=0.3, wrap_px=2, K=1,
         rig=dict(weapon="sword", cape=True), ss=4,
         what="small (34 % of height) flat-shaded armoured knight with a red cape and sword, idle, green screen",
         source="procedural (drawn by trial27.py)"),
    dict(name="walk_ranger_greentunic", kind="rig", pal="ranger", style="shaded", action="walk",
         size=(512, 512), fps=24, n=73, screen=G, hfrac=0.7, crf=20, wrap=0.3, wrap_px=5, K=12, shutter=0.5,
         rig=dict(hood=True, strands=9, strand_len=0.16), ss=3,
         what="textured ranger in a green hood and green tunic walking, loose hair strands, green screen",
         source="procedural (drawn by trial27.py)"),
    dict(name="run_ink_bluejacket", kind="rig", pal="jacket", style="ink", action="run",
         size=(832, 480), fps=24, n=49, screen=B, hfrac=0.75, crf=21, wrap=0.28, wrap_px=4, K=20, shutter=0.5,
         rig=dict(ink_w=1.8), ss=2,
         what="ink-outlined runner in a blue jacket and jeans on a blue screen, motion blur on the limbs",
         source="procedural (drawn by trial27.py)"),
    dict(name="attack_spear_pale", kind="rig", pal="pale", style="shaded", action="attack",
         size=(832, 480), fps=16, n=49, screen=G, hfrac=0.6, crf=20, wrap=0.35, wrap_px=4, K=24, shutter=0.6, cx=0.3,
         rig=dict(weapon="spear", strands=12, strand_len=0.3, strand_w=(1.4, 0.35)), ss=3,
         what="pale, white-robed, white-haired spearman thrusting, thin spear tip and hair, green screen",
         source="procedural (drawn by trial27.py)"),
    dict(name="skill_ninja_black", kind="rig", pal="ninja", style="ink", action="skill",
         size=(480, 832), fps=24, n=65, screen=G, hfrac=0.6, crf=19, wrap=0.3, wrap_px=4, K=1,
         rig=dict(scarf=True, ink_w=1.2), ss=3,
         what="near-black ninja levitating with raised arms, thin scarf tails, green screen",
         source="procedural (drawn by trial27.py)"),
    dict(name="idle_witch_large", kind="rig", pal="witch", style="shaded", action="idle",
         size=(480, 832), fps=16, n=97, screen=G, hfrac=0.8, crf=22, wrap=0.25, wrap_px=6, K=1,
         rig=dict(weapon="staff", strands=22, strand_len=0.34, strand_w=(1.3, 0.3), robe=True), ss=2,
         what="large (80 % of height) textured witch in a purple robe, long thin hair strands, forked staff",
         source="procedural (drawn by trial27.py)"),
    dict(name="hurt_goblin_teal", kind="rig", pal="goblin", style="ink", action="hurt",
         size=(448, 448), fps=16, n=33, screen=G, hfrac=0.55, crf=24, wrap=0.32, wrap_px=3, K=16, shutter=0.6,
         rig=dict(ears=True, build=1.1, ink_w=1.4), ss=3,
         what="ink-outlined teal-skinned goblin in a green top knocked back, green screen, CRF 24",
         source="procedural (drawn by trial27.py)"),
    dict(name="attack_axe_bluebrute", kind="rig", pal="brute", style="shaded", action="attack",
         size=(832, 480), fps=16, n=41, screen=B, hfrac=0.52, crf=20, wrap=0.3, wrap_px=4, K=24, shutter=0.6, cx=0.38,
         rig=dict(weapon="axe", build=1.3), ss=2,
         what="textured brute in a blue tunic and blue trousers swinging an axe, blue screen, blurred swing",
         source="procedural (drawn by trial27.py)"),
    dict(name="skill_mage_blue", kind="rig", pal="mage", style="flat", action="skill",
         size=(1280, 720), fps=24, n=57, screen=B, hfrac=0.48, crf=21, wrap=0.3, wrap_px=5, K=1,
         rig=dict(weapon="staff", robe=True, strands=10, strand_len=0.2, strand_w=(1.5, 0.4)), ss=2,
         what="flat-coloured mage in a blue robe casting (arms up, hovering), thin hair strands, blue screen",
         source="procedural (drawn by trial27.py)"),
    dict(name="qc_facing_turn", kind="rig", pal="swords", style="ink", action="idle", turn=(0.38, 0.5),
         size=(512, 512), fps=16, n=49, screen=G, hfrac=0.62, crf=20, wrap=0.28, wrap_px=4, K=1,
         rig=dict(weapon="sword", ponytail=True, ink_w=1.4), ss=3, expect_flags=["FACING"],
         what="QC: swordsman idles, turns round between 38 % and 50 % of the clip and stays facing the other way",
         source="procedural (drawn by trial27.py)"),
    dict(name="qc_ghost_run", kind="rig", pal="runner", style="shaded", action="run", ghost=0.3,
         size=(832, 480), fps=24, n=49, screen=G, hfrac=0.72, crf=20, wrap=0.25, wrap_px=4, K=12, shutter=0.4,
         rig=dict(strands=6, strand_len=0.14), ss=2, expect_flags=["SMEAR"],
         what="QC: runner with a 30 % copy of the previous frame blended into the visible screen (ghosting)",
         source="procedural (drawn by trial27.py)"),
    dict(name="qc_fast_attack_blur", kind="rig", pal="fencer", style="flat", action="attack", fast=True,
         size=(448, 448), fps=24, n=41, screen=G, hfrac=0.5, crf=20, wrap=0.28, wrap_px=3, K=64, shutter=1.0, cx=0.4, step=1.0,
         rig=dict(weapon="sword"), ss=2, expect_flags=[],
         what="QC: sword strike in about three frames with heavy sub-frame motion blur (full shutter), no ghosting",
         source="procedural (drawn by trial27.py)"),
    dict(name="qc_letterbox", kind="rig", pal="walker", style="shaded", action="walk", bars=88,
         size=(1280, 720), fps=16, n=41, screen=G, hfrac=0.5, crf=21, wrap=0.28, wrap_px=4, K=1,
         rig=dict(strands=5, strand_len=0.12), ss=2, expect_flags=[],
         what="QC: walker on a green screen inside 88 px black letterbox bars top and bottom",
         source="procedural (drawn by trial27.py)"),
]


def fast_attack(t, T, weapon):
    """A strike that crosses ~120 degrees of arm (and ~150 of blade) in ~3 frames at 24 fps."""
    return attack(t, T, weapon, 0.2 * T, 0.45 * T, 0.13, 0.75 * T)


def render_case(c, out_root):
    t_start = time.time()
    W, Hf = c["size"]
    fps, N = c["fps"], c["n"]
    T = N / fps
    seed = sum(ord(ch) * (i + 1) for i, ch in enumerate(c["name"])) % 100000
    rng = np.random.default_rng(seed)
    bars = c.get("bars", 0)
    cy0, cy1 = bars, Hf - bars  # content area
    ch = c["hfrac"] * Hf
    gy = cy1 - (cy1 - cy0) * 0.09  # ground line
    cx = W * c.get("cx", 0.5)
    Kmax = c.get("K", 1)
    shutter = c.get("shutter", 0.5)

    if c["kind"] == "kenney":
        sp = Sprite(kenney(c["art"]), ch)
        ss = 1
        ncells = len(c["art"]) - 1
    else:
        rig = Rig(ch, c["style"], PAL[c["pal"]], **c.get("rig", {}))
        ss = c.get("ss", 2)
    # character canvas box (output px), generous for weapons and strands
    bx0 = int(max(0, cx - 1.0 * ch))
    bx1 = int(min(W, cx + 1.1 * ch))
    by0 = int(max(0, gy - 1.75 * ch))
    by1 = int(min(Hf, gy + 0.08 * ch))
    cv = Canvas(bx0, by0, bx1 - bx0, by1 - by0, ss)

    def state(t):
        if c["kind"] == "kenney":
            cell, rot, sx, sy, dx, lift = sprite_pose(c["action"], t, T, c.get("cells_fps", 10), max(ncells, 1))
            return (cell, cx + dx * ch, gy - lift * ch, rot, sx, sy), lift
        q = fast_attack(t, T, rig.weapon) if c.get("fast") else pose(c["action"], t, T, rig.weapon)
        if "turn" in c:
            a, b = c["turn"]
            u = ease((t / T - a) / (b - a))
            s = math.cos(math.pi * u)
            q["sx"] = math.copysign(max(abs(s), 0.3), s if abs(s) > 1e-6 else (1 if u < 0.5 else -1))
        return q, q["lift"]

    def keypoints(st):
        return sp.keypoints(*st) if c["kind"] == "kenney" else rig.keypoints(st, cx, gy)

    def draw(st, t):
        cv.clear()
        if c["kind"] == "kenney":
            cell, x, y, rot, sx, sy = st
            sp.draw(cv, cell, x, y, rot=rot, sx=sx, sy=sy)
        else:
            rig.draw(cv, st, cx, gy, t)

    def subframes(t):
        """Sub-frame times over the shutter (closing at t): enough that no key point
        moves more than `step` px between two of them, at most Kmax."""
        if Kmax <= 1 or t <= 0:
            return [t]
        t_open = max(0.0, t - shutter / fps)
        d = np.abs(keypoints(state(t)[0]) - keypoints(state(t_open)[0])).max()
        k = int(min(Kmax, max(1, math.ceil(d / c.get("step", 1.5)) + 1)))
        return [t] if k == 1 else [t_open + (t - t_open) * j / (k - 1) for j in range(k)]

    out = out_root / c["name"]
    out.mkdir(parents=True, exist_ok=True)
    screen = Screen(W, Hf, c["screen"], rng, grad=rng.uniform(0.08, 0.16), vig=rng.uniform(0.18, 0.34),
                    noise=rng.uniform(1.2, 2.2), flicker=rng.uniform(0.012, 0.028))
    truth = np.zeros((N, Hf, W, 4), np.uint8)
    shadow_k = rng.uniform(0.3, 0.42)
    enc = Encoder(out / "clip.mp4", W, Hf, fps, c["crf"])
    prev = None
    ks = []
    crop = (slice(by0, by1), slice(bx0, bx1))
    for i in range(N):
        t = i / fps
        subs = subframes(t)
        ks.append(len(subs))
        Pc = np.zeros((cv.h, cv.w, 3), F32)
        Ac = np.zeros((cv.h, cv.w), F32)
        lifts = []
        for ts in subs:
            st, lift = state(ts)
            lifts.append(lift)
            draw(st, ts)
            p_, a_ = cv.down()
            Pc += p_
            Ac += a_
        Pc /= len(subs)
        Ac /= len(subs)
        Ac = np.clip(Ac, 0, 1)
        Pc = np.minimum(np.clip(Pc, 0, 1), Ac[..., None])
        # truth: straight RGBA (zero outside the character's box)
        a8 = np.rint(Ac * 255).astype(np.uint8)
        st = Pc / np.maximum(Ac[..., None], 1e-4)
        st8 = np.rint(np.clip(st, 0, 1) * 255).astype(np.uint8)
        st8[a8 == 0] = 0
        truth[i][crop + (slice(0, 3),)] = st8
        truth[i][crop + (3,)] = a8
        # video frame: screen, contact shadow, ghost, light-wrapped character, noise
        img = screen.frame(i)
        sy0, sy1, sx0, sx1, sh = shadow_mask(W, Hf, cx, gy, ch, float(np.mean(lifts)), shadow_k)
        img[sy0:sy1, sx0:sx1] *= (1 - sh)[..., None]
        bgc = img[crop].copy()
        if c.get("ghost"):
            cur = img.copy()
            if prev is not None:
                img *= F32(1 - c["ghost"])
                img += F32(c["ghost"]) * prev
        wgt = light_wrap(Ac, c["wrap"], c["wrap_px"])[..., None]
        fg = (1 - wgt) * Pc + wgt * Ac[..., None] * bgc
        inv = (1 - Ac)[..., None]
        if c.get("ghost"):
            cur[crop] = fg + inv * bgc
            prev = cur
        img[crop] = fg + inv * img[crop]
        noise = screen.grain()
        img *= 255
        img += noise * F32(screen.noise)
        img[crop] += noise[crop] * (F32(1.0 - screen.noise) * Ac)[..., None]
        if bars:
            img[:bars] = 0
            img[Hf - bars:] = 0
        np.clip(img, 0, 255, out=img)
        img += 0.5
        enc.add(img.astype(np.uint8))
    enc.close()
    Image.fromarray(truth[0], "RGBA").save(out / "portrait.png")
    np.savez_compressed(out / "truth.npz", rgba=truth)
    meta = {"action": c["action"], "what": c["what"], "source": c["source"], "size": [W, Hf],
            "fps": fps, "frames": N}
    if "expect_flags" in c:
        meta["expect_flags"] = c["expect_flags"]
    (out / "case.json").write_text(json.dumps(meta, indent=1) + "\n")
    # the character must lie wholly inside its drawing box and the picture
    al = truth[..., 3]
    edges = {"top": al[:, max(by0, cy0), :], "bottom": al[:, min(by1, cy1) - 1, :],
             "left": al[:, :, bx0], "right": al[:, :, bx1 - 1]}
    cut = [k for k, v in edges.items() if v.any()]
    note = f"sub-frames max {max(ks)} mean {np.mean(ks):.1f}"
    if cut:
        note += "  WARNING: character touches the " + ", ".join(cut) + " edge of its box"
    return time.time() - t_start, note


def main(argv):
    pick = argv[1] if len(argv) > 1 else ""
    cv2.setNumThreads(1)
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    for c in CASES:
        if pick in c["name"]:
            dt, note = render_case(dict(c), OUT)
            print(f"{c['name']:26s} {c['size'][0]}x{c['size'][1]} {c['n']:3d}f  {dt:5.1f}s  {note}", flush=True)
    print(f"total {time.time() - t0:.1f}s -> {OUT}")


if __name__ == "__main__":
    main(sys.argv)
