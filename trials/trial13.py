#!/usr/bin/env python3
"""trial13: independent chroma-key test-footage generator.

Imitates image-to-video model output of a 2D game character acting in front of
a flat chroma-key backdrop, with exact ground truth.

Per case directory:  clip.mp4, portrait.png, truth.npz (rgba: N,H,W,4 straight),
case.json.

Characters: ~60 % Kenney CC0 sprites from the `arcade` wheel (read straight
from the wheel zip), ~40 % procedurally drawn side-view humanoids.  Both are
rendered through one 2D bone rig (parts = premultiplied RGBA images with a
pivot, attached to a parent at an attach point, rotated per sample).

Image model for a video frame f:
  truth premult  P_f = mean_k  render(t_k)       (sub-frame shutter samples)
  plate          B_f = key * gradient * vignette * flicker * (1 - shadow)
  composite      C   = B_f (1 - a) + P
  light wrap     C  <- lerp(C, blur(B_f), w * a),  w = s * min(1, 2 blur(1-a))
  noise          C  += N(0, sigma)   (whole frame), round, H.264 yuv420p.

Usage: make.py [case-name-prefix ...]   (default: all cases)
"""
import glob
import io
import json
import math
import os
import subprocess
import sys
import time
import zipfile
from fractions import Fraction

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)

# Determinism: libx264 (through PyAV) reads some uninitialised heap bytes, so its
# output depended on what the process had allocated before (batch vs single-case
# runs gave different bitstreams).  glibc's M_PERTURB fills every malloc'd block
# with a fixed byte, which makes the encoded clips bit-identical run to run.
try:
    import ctypes
    ctypes.CDLL(None).mallopt(-6, 165)        # M_PERTURB
except Exception:                              # non-glibc: clips may differ in bits
    pass
HERE = os.path.dirname(os.path.abspath(__file__))
# Where the case folders go: $TRIAL_OUT, or trials/_out/trial13/ (git-ignored).
OUT = os.environ.get('TRIAL_OUT', os.path.join(HERE, '_out', 'trial13'))

# --------------------------------------------------------------------------
# small affine helpers (3x3, y down, positive angle = clockwise on screen)


def T(x, y):
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def R(deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def S(sx, sy=None):
    return np.diag([sx, sx if sy is None else sy, 1.0])


def apply(M, pts):
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    return pts @ M[:2, :2].T + M[:2, 2]


def smooth(u):
    u = min(max(u, 0.0), 1.0)
    return u * u * (3 - 2 * u)


EASE = {
    'io': smooth,
    'in': lambda u: min(max(u, 0.0), 1.0) ** 2.2,
    'out': lambda u: 1 - (1 - min(max(u, 0.0), 1.0)) ** 2.2,
    'lin': lambda u: min(max(u, 0.0), 1.0),
}


def keyed(t, keys, base=None):
    """keys: list of (time, dict, ease); the ease shapes the segment ending at that key.
    A channel not named in a key keeps its previous value (carry forward)."""
    names = []
    for _, d, _ in keys:
        names += [k for k in d if k not in names]
    cur = {}
    for k in names:
        if base is not None and k in base:
            cur[k] = base[k]
        else:
            cur[k] = next(d[k] for _, d, _ in keys if k in d)
    full = []
    for tk, d, e in keys:
        cur = dict(cur, **d)
        full.append((tk, cur, e))
    if t <= full[0][0]:
        return dict(full[0][1])
    for (t0, d0, _), (t1, d1, e) in zip(full[:-1], full[1:]):
        if t <= t1:
            u = EASE[e]((t - t0) / max(t1 - t0, 1e-9))
            return {k: d0[k] + (d1[k] - d0[k]) * u for k in names}
    return dict(full[-1][1])


def col(c, a=1.0):
    return (c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, a)


def shade(c, k):
    return tuple(int(max(0, min(255, round(v * k)))) for v in c)


def mix(c1, c2, u):
    return tuple(int(round(a + (b - a) * u)) for a, b in zip(c1, c2))


# --------------------------------------------------------------------------
# supersampled part drawing


class Sketch:
    """Draw opaque shapes in part-local float coords (pivot = 0,0) at SSx, then
    area-downsample to a premultiplied float32 RGBA part image."""

    def __init__(self, x0, y0, x1, y1, ss=4):
        self.ox, self.oy, self.ss = math.floor(x0), math.floor(y0), ss
        self.w = int(math.ceil(x1) - self.ox)
        self.h = int(math.ceil(y1) - self.oy)
        self.img = np.zeros((self.h * ss, self.w * ss, 4), np.float32)

    def P(self, pts):
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        q = ((pts - [self.ox, self.oy]) * self.ss - 0.5) * 4.0
        return np.round(q).astype(np.int32)

    def poly(self, pts, c):
        cv2.fillPoly(self.img, [self.P(pts)], col(c), cv2.LINE_8, 2)

    def ellipse(self, cx, cy, ax, ay, c, ang=0.0):
        q = self.P([(cx, cy)])[0]
        cv2.ellipse(self.img, (int(q[0]), int(q[1])),
                    (max(1, int(round(ax * self.ss * 4))), max(1, int(round(ay * self.ss * 4)))),
                    ang, 0, 360, col(c), -1, cv2.LINE_8, 2)

    def line(self, pts, width, c, closed=False):
        th = max(1, int(round(width * self.ss)))
        cv2.polylines(self.img, [self.P(pts)], closed, col(c), th, cv2.LINE_8, 2)

    def capsule(self, p0, p1, r, c):
        self.line([p0, p1], 2 * r, c)

    def finish(self, outline=0.0, ink=(20, 16, 24)):
        img = self.img
        if outline > 0:
            rad = max(1, int(round(outline * self.ss)))
            k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rad + 1, 2 * rad + 1))
            A = img[..., 3]
            D = cv2.dilate(A, k)
            ringa = (D * (1 - A))[..., None]
            inkc = np.array(col(ink), np.float32)
            img = img + ringa * inkc[None, None, :]
        small = cv2.resize(img, (self.w, self.h), interpolation=cv2.INTER_AREA)
        small[..., 3] = np.clip(small[..., 3], 0, 1)
        small[..., :3] = np.minimum(np.clip(small[..., :3], 0, 1), small[..., 3:4])
        pivot = (-self.ox - 0.5, -self.oy - 0.5)
        return small, pivot

    def to_img(self, x, y):
        """part-local coords -> image pixel coords (pixel-centre convention)"""
        return (x - self.ox - 0.5, y - self.oy - 0.5)


# --------------------------------------------------------------------------
# rig


class Part:
    def __init__(self, name, imgs, pivot, parent=None, attach=(0.0, 0.0), z=0.0):
        self.name = name
        self.imgs = imgs if isinstance(imgs, list) else [imgs]
        self.pivot = pivot
        self.parent = parent
        self.attach = attach
        self.z = z


class Rig:
    def __init__(self, parts, feet=(), interp=cv2.INTER_LINEAR):
        self.parts = parts            # parents before children
        self.by = {p.name: p for p in parts}
        self.feet = list(feet)        # (part, (x, y) image coords)
        self.interp = interp

    def autocrop(self, pad=2):
        """crop every part's images to their joint alpha bbox; fix pivots/attach points.
        returns {part: (dx, dy)} offsets that were subtracted."""
        offs = {}
        for p in self.parts:
            if p.imgs[0] is None:
                offs[p.name] = (0, 0)
                continue
            m = np.zeros(p.imgs[0].shape[:2], bool)
            for im in p.imgs:
                m |= im[..., 3] > 1e-4
            ys, xs = np.nonzero(m)
            h, w = m.shape
            x0, y0 = max(0, xs.min() - pad), max(0, ys.min() - pad)
            x1, y1 = min(w, xs.max() + pad + 1), min(h, ys.max() + pad + 1)
            p.imgs = [np.ascontiguousarray(im[y0:y1, x0:x1]) for im in p.imgs]
            p.pivot = (p.pivot[0] - x0, p.pivot[1] - y0)
            if hasattr(p, 'hand'):
                p.hand = (p.hand[0] - x0, p.hand[1] - y0)
            offs[p.name] = (x0, y0)
        for p in self.parts:
            if p.parent is not None:
                ox, oy = offs[p.parent]
                p.attach = (p.attach[0] - ox, p.attach[1] - oy)
        self.feet = [(n, (pt[0] - offs[n][0], pt[1] - offs[n][1])) for n, pt in self.feet]
        return offs

    def world(self, pose, root):
        mats = {}
        for p in self.parts:
            q = pose.get(p.name, {})
            ang = q.get('a', 0.0)
            sx, sy = q.get('sx', 1.0), q.get('sy', 1.0)
            local = R(ang) @ S(sx, sy) @ T(-p.pivot[0], -p.pivot[1])
            if p.parent is None:
                mats[p.name] = root @ local
            else:
                mats[p.name] = mats[p.parent] @ T(*p.attach) @ local
        return mats

    def key_points(self, mats):
        pts = []
        for p in self.parts:
            if p.imgs[0] is None:
                continue
            h, w = p.imgs[0].shape[:2]
            pts.append(apply(mats[p.name], [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1),
                                             (w / 2, h / 2)]))
        return np.concatenate(pts, 0)


def over_into(canvas, img, x0, y0, box):
    h, w = img.shape[:2]
    reg = canvas[y0:y0 + h, x0:x0 + w]
    reg *= (1.0 - img[..., 3:4])
    reg += img
    box[0] = min(box[0], x0)
    box[1] = min(box[1], y0)
    box[2] = max(box[2], x0 + w)
    box[3] = max(box[3], y0 + h)


def warp_into(canvas, img, M, interp, box):
    H, W = canvas.shape[:2]
    h, w = img.shape[:2]
    c = apply(M, [(-0.5, -0.5), (w - 0.5, -0.5), (-0.5, h - 0.5), (w - 0.5, h - 0.5)])
    x0 = max(0, int(math.floor(c[:, 0].min())) - 1)
    y0 = max(0, int(math.floor(c[:, 1].min())) - 1)
    x1 = min(W, int(math.ceil(c[:, 0].max())) + 2)
    y1 = min(H, int(math.ceil(c[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    Ml = T(-x0, -y0) @ M
    out = cv2.warpAffine(img, Ml[:2], (x1 - x0, y1 - y0), flags=interp,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    if out.ndim == 2:
        out = out[..., None]
    over_into(canvas, out, x0, y0, box)


def draw_world_lines(canvas, segs, width, c, box, ss=4):
    """antialiased polyline(s) in frame coords; segs: list of point lists"""
    pts = np.concatenate([np.asarray(s, np.float64) for s in segs], 0)
    x0 = int(math.floor(pts[:, 0].min() - width - 2))
    y0 = int(math.floor(pts[:, 1].min() - width - 2))
    x1 = int(math.ceil(pts[:, 0].max() + width + 2))
    y1 = int(math.ceil(pts[:, 1].max() + width + 2))
    sk = Sketch(x0, y0, x1, y1, ss)
    for s in segs:
        sk.line(s, width, c)
    img, _ = sk.finish()
    paste_clipped(canvas, img, sk.ox, sk.oy, box)


def paste_clipped(canvas, img, x0, y0, box):
    H, W = canvas.shape[:2]
    h, w = img.shape[:2]
    ax0, ay0 = max(0, x0), max(0, y0)
    ax1, ay1 = min(W, x0 + w), min(H, y0 + h)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    over_into(canvas, np.ascontiguousarray(img[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0]), ax0, ay0, box)


def draw_glow(canvas, cx, cy, radius, c, peak, box, core=0.0, core_c=(255, 255, 255)):
    """soft radial glow (semi-transparent, part of the character's VFX)"""
    r = int(math.ceil(radius * 2.6)) + 2
    x0, y0 = int(math.floor(cx)) - r, int(math.floor(cy)) - r
    yy, xx = np.mgrid[0:2 * r + 1, 0:2 * r + 1].astype(np.float32)
    d2 = ((xx + x0 - cx) ** 2 + (yy + y0 - cy) ** 2) / (radius * radius)
    a = peak * np.exp(-d2)
    img = np.zeros((2 * r + 1, 2 * r + 1, 4), np.float32)
    cc = np.array(col(c)[:3], np.float32)
    img[..., :3] = a[..., None] * cc
    img[..., 3] = a
    if core > 0:
        ac = np.clip(core * 1.6 * (1.0 - np.sqrt(d2) / 0.6), 0, 1)   # bright, nearly opaque core
        ccc = np.array(col(core_c)[:3], np.float32)
        img[..., :3] = img[..., :3] * (1 - ac[..., None]) + ac[..., None] * ccc
        img[..., 3] = img[..., 3] * (1 - ac) + ac
    paste_clipped(canvas, img, x0, y0, box)


def tinted(img, tint, k, alpha=1.0):
    out = img
    if k > 0:
        tc = np.array(col(tint)[:3], np.float32)
        out = img.copy()
        out[..., :3] = img[..., :3] * (1 - k) + img[..., 3:4] * tc * k
    if alpha < 1.0:
        out = out * alpha
    return out


def render_sample(rig, pose, root, canvas, box, ground=None):
    mats = rig.world(pose, root)
    if ground is not None and rig.feet:
        fy = max(apply(mats[n], [pt])[0, 1] for n, pt in rig.feet)
        dy = ground - pose.get('_air', 0.0) - fy
        for k in mats:
            mats[k] = T(0, dy) @ mats[k]
    items = []
    for p in rig.parts:
        if p.imgs[0] is None:
            continue
        q = pose.get(p.name, {})
        if q.get('alpha', 1.0) <= 0.0:
            continue
        items.append((q.get('z', p.z), 0, p, q))
    for i, ex in enumerate(pose.get('_extras', [])):
        items.append((ex[0], 1, ex, i))
    items.sort(key=lambda it: it[0])
    for z, kind, a, b in items:
        if kind == 0:
            p, q = a, b
            img = p.imgs[int(q.get('img', 0))]
            img = tinted(img, pose.get('_tint', (255, 255, 255)), pose.get('_tintk', 0.0), q.get('alpha', 1.0))
            warp_into(canvas, img, mats[p.name], rig.interp, box)
        else:
            a[1](canvas, mats, box)
    return mats


# --------------------------------------------------------------------------
# Kenney sprites (CC0) from the arcade wheel

WHEEL_GLOBS = ['/tmp/arc/arcade-*.whl', os.path.join(HERE, '_art', 'arcade-*.whl')]
KEN = {'fa': 'female_adventurer/femaleAdventurer', 'fp': 'female_person/femalePerson',
       'ma': 'male_adventurer/maleAdventurer', 'mp': 'male_person/malePerson',
       'robot': 'robot/robot', 'zombie': 'zombie/zombie'}
_ZIP = None


def wheel():
    global _ZIP
    if _ZIP is None:
        found = []
        for g in WHEEL_GLOBS:
            found += sorted(glob.glob(g))
        if not found:
            os.makedirs('/tmp/arc', exist_ok=True)
            subprocess.run([sys.executable, '-m', 'pip', 'download', 'arcade==2.6.17', '--no-deps',
                            '-d', '/tmp/arc'], check=True)
            found = sorted(glob.glob(WHEEL_GLOBS[0]))
        _ZIP = zipfile.ZipFile(found[0])
    return _ZIP


def load_sprite(who, pose):
    name = 'arcade/resources/images/animated_characters/%s_%s.png' % (KEN[who], pose)
    im = Image.open(io.BytesIO(wheel().read(name))).convert('RGBA')
    return np.asarray(im).astype(np.float32) / 255.0      # straight, (128, 96, 4)


def recolour(rgba, mode):
    out = rgba.copy()
    rgb = out[..., :3]
    lum = rgb @ np.array([0.299, 0.587, 0.114], np.float32)
    if mode == 'pale':          # ghostly pale variant: everything washed to near white
        white = np.array([0.93, 0.95, 0.97], np.float32)
        k = np.where(lum < 0.25, 0.45, 0.72)[..., None]
        out[..., :3] = rgb * (1 - k) + white * k
    elif mode == 'dark':        # shadow variant: near-black, eyes kept light
        dark = np.array([0.035, 0.04, 0.055], np.float32)
        keep = (lum > 0.8)[..., None]
        d = rgb * 0.2 + dark
        out[..., :3] = np.where(keep, rgb * 0.8, d)
    return out


def premul(rgba):
    out = rgba.copy()
    out[..., :3] *= out[..., 3:4]
    return out


def upscale(prem, s, method):
    flag = {'nearest': cv2.INTER_NEAREST, 'cubic': cv2.INTER_CUBIC, 'lanczos': cv2.INTER_LANCZOS4}[method]
    h, w = prem.shape[:2]
    out = cv2.resize(prem, (int(round(w * s)), int(round(h * s))), interpolation=flag)
    out[out[..., 3] < 0.015] = 0.0          # drop the faint outer ringing lobe of cubic/lanczos
    out[..., 3] = np.clip(out[..., 3], 0, 1)
    out[..., :3] = np.minimum(np.clip(out[..., :3], 0, 1), out[..., 3:4])
    return out


def add_ink(prem, width, ink=(22, 18, 30)):
    """ink outline under the sprite: dilated silhouette in ink colour, composited behind"""
    A = prem[..., 3]
    rad = max(1, int(round(width)))
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rad + 1, 2 * rad + 1))
    D = np.clip(cv2.GaussianBlur(cv2.dilate(A, k), (0, 0), 0.6), 0, 1)
    out = prem.copy()
    inkc = np.array(col(ink)[:3], np.float32)
    out[..., :3] = prem[..., :3] + ((1 - A) * D)[..., None] * inkc
    out[..., 3] = A + (1 - A) * D
    return out


def kenney_arms(src):
    """split an idle sprite (straight RGBA, source res) into body / left arm / right arm masks.
    The arms hang beside the torso; below some row they are separate blobs."""
    A = (src[..., 3] > 0).astype(np.uint8)
    Astrong = (src[..., 3] > 0.5).astype(np.uint8)
    for ycut in range(90, 106):
        low = Astrong.copy()
        low[:ycut] = 0
        n, lab, stats, cent = cv2.connectedComponentsWithStats(low, connectivity=4)
        left = np.zeros_like(A)
        right = np.zeros_like(A)
        for i in range(1, n):
            cx = cent[i][0]
            if cx < 34:
                left[lab == i] = 1
            elif cx > 61.5:
                right[lab == i] = 1
        if left.sum() > 80 and right.sum() > 80:
            break
    body_strong = Astrong & ~(left | right) & 1
    body_strong[:ycut] = Astrong[:ycut]
    info = {}
    k3 = np.ones((3, 3), np.uint8)
    for side, m in (('l', left), ('r', right)):
        ys, xs = np.nonzero(m)
        top = ys.min()
        bot = ys.max()
        topx = xs[ys <= top + 3].mean()
        botx = xs[ys >= bot - 5].mean()
        # grow over the faint antialiased rim, but never onto the body's solid pixels
        grow = cv2.dilate(m, k3, iterations=2) & (1 - body_strong)
        grow[:ycut] = 0
        info[side] = dict(mask=(grow & A).astype(np.float32) + 0.0 * grow, pivot=(topx + (2 if side == 'l' else -2), top - 4.0),
                          hand=(botx, bot - 4.0), ycut=ycut)
        info[side]['mask'] = grow.astype(np.float32)
    return info


def kenney_cut(hi, src, s, sides=('l', 'r')):
    """body image with arms removed + arm images, all at hi-res (premult)"""
    info = kenney_arms(src)
    H, W = hi.shape[:2]
    body = hi.copy()
    arms = {}
    for side in sides:
        d = info[side]
        m = cv2.resize(d['mask'], (W, H), interpolation=cv2.INTER_NEAREST)
        disc = np.zeros((H * 4, W * 4), np.float32)
        px, py = d['pivot']
        cv2.circle(disc, (int((px + 0.5) * s * 4), int((py + 0.5) * s * 4)), int(6.5 * s * 4), 1.0, -1)
        disc = cv2.resize(disc, (W, H), interpolation=cv2.INTER_AREA)
        lowonly = m.copy()
        armmask = np.maximum(m, disc * (np.arange(H)[:, None] < (d['ycut'] + 2) * s))
        arms[side] = dict(img=hi * armmask[..., None], pivot=((px + 0.5) * s - 0.5, (py + 0.5) * s - 0.5),
                          hand=((d['hand'][0] + 0.5) * s - 0.5, (d['hand'][1] + 0.5) * s - 0.5))
        body = body * (1 - lowonly[..., None])
    return body, arms


# --------------------------------------------------------------------------
# weapons / props (drawn), all with their grip at (0,0); blade/shaft toward -y


def draw_sword(L, ink=0.0, blade=(214, 222, 232), guard=(190, 150, 60), grip=(90, 50, 30), w=None):
    w = w or max(3.0, L * 0.075)
    sk = Sketch(-w * 2.2, -L - 4, w * 2.2, L * 0.22 + 4)
    sk.poly([(-w / 2, -L * 0.08), (w / 2, -L * 0.08), (w / 2, -L * 0.9), (0, -L), (-w / 2, -L * 0.9)], blade)
    sk.poly([(0, -L * 0.08), (w / 2, -L * 0.08), (w / 2, -L * 0.9), (0, -L)], shade(blade, 0.78))
    sk.line([(0, -L * 0.12), (0, -L * 0.85)], max(0.8, w * 0.12), shade(blade, 0.6))
    sk.capsule((-w * 1.6, -L * 0.07), (w * 1.6, -L * 0.07), w * 0.28, guard)
    sk.capsule((0, -L * 0.06), (0, L * 0.16), w * 0.3, grip)
    sk.ellipse(0, L * 0.18, w * 0.42, w * 0.42, guard)
    return sk.finish(ink, (18, 16, 22))


def draw_dagger(L, ink=0.0):
    return draw_sword(L, ink, blade=(170, 176, 190), guard=(60, 60, 70), grip=(30, 28, 34), w=max(3.0, L * 0.12))


def draw_spear(L, ink=0.0, shaft=(120, 80, 45), tip=(205, 212, 225)):
    r = max(1.4, L * 0.013)
    sk = Sketch(-r * 6, -L * 0.72 - 6, r * 6, L * 0.3 + 4)
    sk.capsule((0, L * 0.28), (0, -L * 0.6), r, shaft)
    sk.line([(r * 0.4, L * 0.26), (r * 0.4, -L * 0.58)], max(0.7, r * 0.5), shade(shaft, 0.75))
    sk.poly([(0, -L * 0.72), (r * 3.2, -L * 0.6), (r * 1.0, -L * 0.56), (-r * 1.0, -L * 0.56), (-r * 3.2, -L * 0.6)], tip)
    sk.poly([(0, -L * 0.72), (r * 3.2, -L * 0.6), (r * 1.0, -L * 0.56), (0, -L * 0.56)], shade(tip, 0.75))
    sk.capsule((-r * 1.5, -L * 0.555), (r * 1.5, -L * 0.555), r * 0.7, (150, 40, 40))
    return sk.finish(ink, (18, 16, 22))


def draw_axe(L, ink=0.0, handle=(110, 70, 40), head=(160, 166, 178)):
    r = max(1.6, L * 0.03)
    sk = Sketch(-L * 0.32, -L - 4, L * 0.14, L * 0.25)
    sk.capsule((0, L * 0.2), (0, -L * 0.92), r, handle)
    sk.poly([(r * 0.5, -L * 0.9), (r * 0.5, -L * 0.68), (-L * 0.12, -L * 0.66), (-L * 0.28, -L * 0.56),
             (-L * 0.3, -L * 0.8), (-L * 0.26, -L * 1.0), (-L * 0.12, -L * 0.9)], head)
    sk.poly([(-L * 0.28, -L * 0.56), (-L * 0.3, -L * 0.8), (-L * 0.26, -L * 1.0), (-L * 0.22, -L * 0.78)],
            shade(head, 1.25))
    sk.capsule((-r, -L * 0.72), (r, -L * 0.72), r * 0.9, shade(handle, 0.6))
    return sk.finish(ink, (18, 16, 22))


def draw_staff(L, ink=0.0, wood=(95, 60, 40), gem=(250, 240, 150)):
    r = max(1.6, L * 0.017)
    sk = Sketch(-L * 0.1, -L * 0.78, L * 0.1, L * 0.3)
    sk.capsule((0, L * 0.27), (0, -L * 0.62), r, wood)
    sk.line([(0, -L * 0.6), (-L * 0.05, -L * 0.68), (-L * 0.02, -L * 0.75)], r * 1.3, wood)
    sk.line([(0, -L * 0.6), (L * 0.05, -L * 0.68), (L * 0.02, -L * 0.75)], r * 1.3, wood)
    sk.ellipse(0, -L * 0.68, L * 0.035, L * 0.045, gem)
    return sk.finish(ink, (18, 16, 22)), (0.0, -L * 0.68)


def draw_bow(L, ink=0.0, wood=(130, 85, 45)):
    """bow with grip at (0,0), long axis along y, belly bulging toward +x; returns tips (local)"""
    r = max(1.5, L * 0.018)
    sk = Sketch(-L * 0.2, -L * 0.55, L * 0.25, L * 0.55)
    pts = []
    for i in range(25):
        u = -1 + 2 * i / 24
        pts.append((L * 0.16 * (1 - u * u) - L * 0.05 * u ** 4, u * L * 0.5))
    sk.line(pts, 2 * r, wood)
    sk.line(pts[8:17], 3 * r, shade(wood, 0.7))
    tips = [(pts[0][0], pts[0][1]), (pts[-1][0], pts[-1][1])]
    img, piv = sk.finish(ink, (18, 16, 22))
    return img, piv, tips


# --------------------------------------------------------------------------
# procedural side-view humanoid


def build_humanoid(sp, Hc):
    """sp: spec dict of colours/options. Hc: standing height in px. facing +x."""
    u = Hc
    ow = sp.get('outline', 0.0)
    ink = sp.get('ink', (20, 16, 26))
    far = sp.get('far', 0.72)
    skin, hair = sp['skin'], sp['hair']
    shirt, pants, boots = sp['shirt'], sp['pants'], sp['boots']
    belt = sp.get('belt', (70, 45, 30))
    glove = sp.get('glove', skin)
    sleeve_long = sp.get('long_sleeve', False)
    parts = []

    def fin(sk):
        return sk.finish(ow, ink)

    # pelvis (hip / pants block)
    sk = Sketch(-0.1 * u, -0.08 * u, 0.1 * u, 0.08 * u)
    sk.ellipse(0, 0.0, 0.078 * u, 0.06 * u, pants)
    sk.poly([(-0.078 * u, -0.06 * u), (0.08 * u, -0.06 * u), (0.078 * u, 0.0), (-0.078 * u, 0.0)], pants)
    sk.poly([(-0.078 * u, -0.06 * u), (-0.03 * u, -0.06 * u), (-0.03 * u, 0.02 * u), (-0.078 * u, 0.0)], shade(pants, 0.8))
    img, piv = fin(sk)
    parts.append(Part('pelvis', img, piv, None, z=9))
    pel_sk = sk

    # torso, pivot at hip (0,0)
    skirt = sp.get('skirt')
    sk = Sketch(-0.13 * u, -0.34 * u, 0.13 * u, 0.16 * u)
    body = [(-0.075 * u, -0.02 * u), (0.078 * u, -0.02 * u), (0.082 * u, -0.12 * u), (0.092 * u, -0.2 * u),
            (0.075 * u, -0.272 * u), (0.03 * u, -0.3 * u), (-0.045 * u, -0.3 * u), (-0.08 * u, -0.262 * u),
            (-0.082 * u, -0.12 * u)]
    sk.poly(body, shirt)
    sk.poly([(-0.075 * u, -0.02 * u), (-0.02 * u, -0.02 * u), (-0.03 * u, -0.2 * u), (-0.045 * u, -0.3 * u),
             (-0.08 * u, -0.262 * u), (-0.082 * u, -0.12 * u)], shade(shirt, 0.78))
    if sp.get('armor'):
        a = sp['armor']
        sk.poly([(-0.05 * u, -0.1 * u), (0.086 * u, -0.1 * u), (0.094 * u, -0.2 * u), (0.07 * u, -0.27 * u),
                 (-0.04 * u, -0.27 * u), (-0.065 * u, -0.2 * u)], a)
        sk.poly([(0.0, -0.1 * u), (0.086 * u, -0.1 * u), (0.094 * u, -0.2 * u), (0.07 * u, -0.27 * u),
                 (0.03 * u, -0.27 * u)], shade(a, 1.18))
        sk.line([(-0.04 * u, -0.185 * u), (0.09 * u, -0.185 * u)], max(1.0, 0.006 * u), shade(a, 0.6))
    if skirt:
        sk.poly([(-0.082 * u, -0.05 * u), (0.082 * u, -0.05 * u), (0.1 * u, 0.12 * u), (0.02 * u, 0.1 * u),
                 (-0.04 * u, 0.125 * u), (-0.1 * u, 0.1 * u)], skirt)
        sk.poly([(-0.082 * u, -0.05 * u), (-0.03 * u, -0.05 * u), (-0.04 * u, 0.125 * u), (-0.1 * u, 0.1 * u)],
                shade(skirt, 0.75))
    sk.poly([(-0.079 * u, -0.055 * u), (0.08 * u, -0.055 * u), (0.08 * u, -0.025 * u), (-0.077 * u, -0.025 * u)], belt)
    sk.poly([(0.03 * u, -0.06 * u), (0.06 * u, -0.06 * u), (0.06 * u, -0.02 * u), (0.03 * u, -0.02 * u)], (200, 170, 80))
    if sp.get('scarf'):
        sc = sp['scarf']
        sk.ellipse(0.01 * u, -0.29 * u, 0.07 * u, 0.03 * u, sc)
    img, piv = fin(sk)
    parts.append(Part('torso', img, piv, 'pelvis', attach=pel_sk.to_img(0, -0.03 * u), z=10))
    tor_sk = sk

    # cape (two segments), hung from upper back
    if sp.get('cape'):
        cc = sp['cape']
        L1, L2 = 0.3 * u, 0.3 * u
        sk = Sketch(-0.16 * u, -0.04 * u, 0.09 * u, L1 + 0.03 * u)
        sk.poly([(-0.03 * u, -0.03 * u), (0.06 * u, -0.03 * u), (0.05 * u, L1 + 0.02 * u), (-0.14 * u, L1 + 0.02 * u)], cc)
        sk.poly([(-0.03 * u, -0.03 * u), (0.0, -0.03 * u), (-0.06 * u, L1 + 0.02 * u), (-0.14 * u, L1 + 0.02 * u)],
                shade(cc, 0.72))
        img, piv = fin(sk)
        parts.append(Part('cape1', img, piv, 'torso', attach=tor_sk.to_img(-0.03 * u, -0.27 * u), z=2))
        c1 = sk
        sk = Sketch(-0.2 * u, -0.03 * u, 0.14 * u, L2 + 0.06 * u)
        hem = []
        n = 7
        for i in range(n + 1):
            x = 0.1 * u + (-0.16 * u - 0.1 * u) * i / n
            hem.append((x, L2 + (0.035 * u if i % 2 else 0.0)))
        sk.poly([(-0.096 * u, -0.02 * u), (0.096 * u, -0.02 * u)] + hem, cc)
        sk.poly([(-0.096 * u, -0.02 * u), (-0.015 * u, -0.02 * u), (-0.06 * u, L2), (-0.16 * u, L2 + 0.02 * u)],
                shade(cc, 0.72))
        img, piv = fin(sk)
        parts.append(Part('cape2', img, piv, 'cape1', attach=c1.to_img(-0.045 * u, L1), z=1.9))

    # head, pivot at neck base
    sk = Sketch(-0.15 * u, -0.28 * u, 0.15 * u, 0.04 * u)
    hcx, hcy = 0.015 * u, -0.125 * u
    sk.poly([(-0.025 * u, 0.02 * u), (0.03 * u, 0.02 * u), (0.03 * u, -0.06 * u), (-0.025 * u, -0.06 * u)], shade(skin, 0.85))
    sk.ellipse(hcx, hcy, 0.092 * u, 0.1 * u, skin)
    sk.ellipse(hcx + 0.03 * u, hcy + 0.055 * u, 0.055 * u, 0.04 * u, skin)           # jaw
    sk.ellipse(hcx + 0.092 * u, hcy + 0.012 * u, 0.012 * u, 0.014 * u, skin)         # nose
    hs = sp.get('hair_style', 'short')
    hpoly = [(hcx - 0.1 * u, hcy + 0.04 * u), (hcx - 0.105 * u, hcy - 0.04 * u), (hcx - 0.07 * u, hcy - 0.1 * u),
             (hcx, hcy - 0.118 * u), (hcx + 0.07 * u, hcy - 0.095 * u), (hcx + 0.1 * u, hcy - 0.045 * u),
             (hcx + 0.06 * u, hcy - 0.05 * u), (hcx + 0.04 * u, hcy - 0.03 * u), (hcx + 0.01 * u, hcy - 0.055 * u),
             (hcx - 0.03 * u, hcy - 0.02 * u), (hcx - 0.045 * u, hcy + 0.06 * u)]
    if hs == 'spiky':
        hpoly = hpoly[:3] + [(hcx - 0.06 * u, hcy - 0.16 * u), (hcx - 0.02 * u, hcy - 0.115 * u),
                             (hcx + 0.02 * u, hcy - 0.17 * u), (hcx + 0.05 * u, hcy - 0.105 * u),
                             (hcx + 0.11 * u, hcy - 0.13 * u)] + hpoly[5:]
    if hs == 'hood':
        hpoly = [(hcx - 0.12 * u, hcy + 0.12 * u), (hcx - 0.12 * u, hcy - 0.05 * u), (hcx - 0.07 * u, hcy - 0.12 * u),
                 (hcx + 0.02 * u, hcy - 0.135 * u), (hcx + 0.09 * u, hcy - 0.1 * u), (hcx + 0.115 * u, hcy - 0.03 * u),
                 (hcx + 0.075 * u, hcy - 0.06 * u), (hcx + 0.0, hcy - 0.05 * u), (hcx - 0.04 * u, hcy + 0.02 * u),
                 (hcx - 0.03 * u, hcy + 0.12 * u)]
        sk.poly(hpoly, sp['hood'])
        sk.poly(hpoly[:3] + [(hcx - 0.05 * u, hcy + 0.1 * u)], shade(sp['hood'], 0.75))
    else:
        sk.poly(hpoly, hair)
        sk.poly(hpoly[:3] + [(hcx - 0.03 * u, hcy - 0.03 * u), (hcx - 0.05 * u, hcy + 0.06 * u)], shade(hair, 0.8))
    if sp.get('mask'):
        sk.poly([(hcx - 0.02 * u, hcy + 0.02 * u), (hcx + 0.1 * u, hcy + 0.02 * u), (hcx + 0.1 * u, hcy + 0.07 * u),
                 (hcx + 0.04 * u, hcy + 0.1 * u), (hcx - 0.03 * u, hcy + 0.09 * u)], sp['mask'])
    if hs != 'hood':
        sk.ellipse(hcx - 0.01 * u, hcy + 0.005 * u, 0.018 * u, 0.024 * u, shade(skin, 0.82))   # ear
    eye = sp.get('eye', (40, 30, 30))
    sk.ellipse(hcx + 0.055 * u, hcy - 0.002 * u, 0.011 * u, 0.02 * u, (245, 245, 240))
    sk.ellipse(hcx + 0.06 * u, hcy + 0.0 * u, 0.008 * u, 0.016 * u, eye)
    sk.line([(hcx + 0.035 * u, hcy - 0.035 * u), (hcx + 0.08 * u, hcy - 0.03 * u)], max(1.0, 0.008 * u), shade(hair, 0.7))
    if not sp.get('mask'):
        sk.line([(hcx + 0.055 * u, hcy + 0.058 * u), (hcx + 0.08 * u, hcy + 0.055 * u)], max(1.0, 0.006 * u), shade(skin, 0.6))
    if sp.get('helmet'):
        hm = sp['helmet']
        sk.poly([(hcx - 0.105 * u, hcy + 0.0), (hcx - 0.1 * u, hcy - 0.07 * u), (hcx - 0.04 * u, hcy - 0.12 * u),
                 (hcx + 0.05 * u, hcy - 0.115 * u), (hcx + 0.1 * u, hcy - 0.06 * u), (hcx + 0.105 * u, hcy - 0.03 * u),
                 (hcx - 0.03 * u, hcy - 0.03 * u), (hcx - 0.05 * u, hcy + 0.03 * u)], hm)
        sk.poly([(hcx - 0.04 * u, hcy - 0.12 * u), (hcx + 0.05 * u, hcy - 0.115 * u), (hcx + 0.1 * u, hcy - 0.06 * u),
                 (hcx + 0.0, hcy - 0.075 * u)], shade(hm, 1.2))
    img, piv = fin(sk)
    parts.append(Part('head', img, piv, 'torso', attach=tor_sk.to_img(0.005 * u, -0.295 * u), z=13))
    head_sk = sk

    # hair strands (separate part so it sways), pivot at the back of the head
    if sp.get('strands'):
        ns, sw, slen = sp['strands'], sp.get('strand_w', 1.5), sp.get('strand_len', 0.3) * u
        rng = np.random.default_rng(sp.get('seed', 1))
        sk = Sketch(-slen * 0.7 - 0.05 * u, -0.06 * u, 0.07 * u, slen + 0.05 * u)
        if sp.get('hair_mass', True):
            sk.poly([(-0.01 * u, -0.04 * u), (0.05 * u, -0.02 * u), (0.02 * u, slen * 0.45), (-0.05 * u, slen * 0.75),
                     (-0.07 * u, slen * 0.4), (-0.05 * u, 0.0)], hair)
        for i in range(ns):
            x0 = rng.uniform(-0.04, 0.03) * u
            ln = slen * rng.uniform(0.7, 1.05)
            bend = rng.uniform(-0.35, -0.1) * ln
            wig = rng.uniform(0.01, 0.03) * u
            ph = rng.uniform(0, 6.28)
            pts = []
            for j in range(14):
                v = j / 13
                pts.append((x0 + bend * v * v + wig * math.sin(ph + v * 7), -0.02 * u + ln * v))
            c = hair if i % 3 else shade(hair, 0.75 if sum(hair) > 200 else 1.5)
            sk.line(pts, sw * rng.uniform(0.7, 1.3), c)
        img, piv = sk.finish(0.0)
        parts.append(Part('hair', img, piv, 'head', attach=head_sk.to_img(hcx - 0.075 * u, hcy - 0.05 * u), z=11))

    # limbs
    UA, FA, TH, SH = 0.15 * u, 0.13 * u, 0.2 * u, 0.19 * u
    ra, rf, rt, rs = 0.034 * u, 0.029 * u, 0.045 * u, 0.037 * u

    def limb(L, r, c_top, c_bot, split, extra=None, dk=1.0):
        sk = Sketch(-r - 0.03 * u, -r - 2, r + 0.12 * u, L + r + 0.06 * u)
        sk.capsule((0, 0), (0, L), r, shade(c_bot, dk * 0.78))
        sk.capsule((r * 0.15, 0), (r * 0.15, L), r * 0.8, shade(c_bot, dk))
        if split > 0:
            sk.capsule((0, 0), (0, L * split), r * 1.04, shade(c_top, dk * 0.78))
            sk.capsule((r * 0.15, 0), (r * 0.15, L * split), r * 0.84, shade(c_top, dk))
        if extra:
            extra(sk, dk)
        return sk

    sides = [('f', far, 3.0), ('n', 1.0, 15.0)]
    shoulder = tor_sk.to_img(-0.005 * u, -0.255 * u)
    hip = pel_sk.to_img(0.005 * u, 0.0)
    feet = []
    for sd, dk, z in sides:
        sk = limb(UA, ra, shirt, sleeve_long and shirt or skin, 0.55 if not sleeve_long else 1.0, dk=dk)
        if sp.get('pauldron'):
            sk.ellipse(0, 0.01 * u, ra * 1.5, ra * 1.25, shade(sp['pauldron'], dk))
        img, piv = fin(sk)
        parts.append(Part('uarm_' + sd, img, piv, 'torso', attach=shoulder, z=z + 1))
        ua_sk = sk

        def hand(sk, dk):
            sk.ellipse(0.004 * u, FA + 0.012 * u, 0.034 * u, 0.032 * u, shade(glove, dk))
        sk = limb(FA, rf, sleeve_long and shirt or skin, glove if sp.get('gauntlet') else (sleeve_long and shirt or skin),
                  0.0 if not sp.get('gauntlet') else 0.0, hand, dk)
        img, piv = fin(sk)
        parts.append(Part('farm_' + sd, img, piv, 'uarm_' + sd, attach=ua_sk.to_img(0, UA), z=z + 2))
        fa_sk = sk
        parts[-1].hand = fa_sk.to_img(0.004 * u, FA + 0.012 * u)

        zl = 4.0 if sd == 'f' else 14.0
        sk = limb(TH, rt, pants, pants, 0.0, dk=dk)
        img, piv = fin(sk)
        parts.append(Part('thigh_' + sd, img, piv, 'pelvis', attach=hip, z=zl))
        th_sk = sk

        def foot(sk, dk):
            sk.poly([(-0.035 * u, SH * 0.82), (0.03 * u, SH * 0.86), (0.095 * u, SH + 0.015 * u),
                     (0.095 * u, SH + 0.045 * u), (-0.04 * u, SH + 0.045 * u), (-0.042 * u, SH * 0.9)], shade(boots, dk))
            sk.line([(-0.04 * u, SH + 0.04 * u), (0.095 * u, SH + 0.04 * u)], max(1.0, 0.01 * u), shade(boots, dk * 0.55))
        sk = limb(SH, rs, pants, boots, 0.45, foot, dk)
        img, piv = fin(sk)
        parts.append(Part('shin_' + sd, img, piv, 'thigh_' + sd, attach=th_sk.to_img(0, TH), z=zl + 0.5))
        feet += [('shin_' + sd, sk.to_img(-0.04 * u, SH + 0.045 * u + 0.5)),
                 ('shin_' + sd, sk.to_img(0.095 * u, SH + 0.045 * u + 0.5))]

    # weapon
    wp = sp.get('weapon')
    extras = {}
    if wp:
        hand_part = 'farm_' + sp.get('weapon_hand', 'n')
        hp = [p for p in parts if p.name == hand_part][0]
        zw = hp.z - 0.5 if sp.get('weapon_hand', 'n') == 'n' else hp.z + 0.5
        if wp == 'sword':
            img, piv = draw_sword(0.5 * u, ow * 0.8)
        elif wp == 'dagger':
            img, piv = draw_dagger(0.27 * u, ow * 0.8)
        elif wp == 'spear':
            img, piv = draw_spear(1.0 * u, ow * 0.8)
        elif wp == 'axe':
            img, piv = draw_axe(0.5 * u, ow * 0.8)
        elif wp == 'staff':
            (img, piv), gem = draw_staff(0.95 * u, ow * 0.8)
            extras['gem'] = (gem[0] + piv[0], gem[1] + piv[1])
        elif wp == 'bow':
            img, piv, tips = draw_bow(0.62 * u, ow * 0.8)
            extras['tips'] = [(x + piv[0], y + piv[1]) for x, y in tips]
        parts.append(Part('weapon', img, piv, hand_part, attach=hp.hand, z=zw))
        if sp.get('weapon2'):       # off-hand copy (dual daggers)
            hp2 = [p for p in parts if p.name == 'farm_f'][0]
            parts.append(Part('weapon2', img, piv, 'farm_f', attach=hp2.hand, z=hp2.z + 0.5))
    rig = Rig(parts, feet)
    offs = rig.autocrop()
    if 'weapon' in offs:
        ox, oy = offs['weapon']
        for k in ('gem',):
            if k in extras:
                extras[k] = (extras[k][0] - ox, extras[k][1] - oy)
        if 'tips' in extras:
            extras['tips'] = [(x - ox, y - oy) for x, y in extras['tips']]
    rig.u = u
    rig.extras = extras
    return rig


LIMB_SIGN = {'uarm': -1, 'farm': -1, 'thigh': -1, 'shin': 1}


def hpose(ch):
    """channel values (degrees, intuitive) -> rig pose dict"""
    pose = {}
    for k, v in ch.items():
        if k.startswith('_'):
            pose[k] = v
            continue
        base = k.split('_')[0]
        sgn = LIMB_SIGN.get(base, 1)
        pose[k] = {'a': sgn * v}
    return pose


STANCE = dict(torso=3, head=-2, hair=6, cape1=5, cape2=3, uarm_n=8, farm_n=18, uarm_f=-6, farm_f=12,
              thigh_n=7, shin_n=5, thigh_f=-7, shin_f=8, weapon=60, weapon2=60)


def humanoid_channels(action, t, A):
    """A: action parameter dict. returns channel dict (intuitive degrees) + root extras."""
    ch = dict(STANCE)
    ch.update(A.get('stance', {}))
    u = A['u']
    br = math.sin(2 * math.pi * t / A.get('breath', 2.3))
    ch['_x'] = 0.0
    ch['_air'] = 0.0
    if action == 'idle':
        ch['torso'] += 1.6 * br
        ch['head'] += -1.2 * br + 1.0 * math.sin(2 * math.pi * t / 3.1)
        ch['uarm_n'] += 2.5 * br
        ch['uarm_f'] -= 2.0 * br
        ch['farm_n'] += 3 * math.sin(2 * math.pi * t / 2.9)
        ch['thigh_n'] += 1.5 * br
        ch['cape1'] += 4 * math.sin(2 * math.pi * t / 1.7)
        ch['cape2'] += 6 * math.sin(2 * math.pi * t / 1.7 - 0.9)
        ch['hair'] += 5 * math.sin(2 * math.pi * t / 1.9 - 0.4) + 2 * math.sin(2 * math.pi * t / 0.7)
        ch['_x'] = 0.012 * u * math.sin(2 * math.pi * t / 3.4)
    elif action in ('walk', 'run'):
        run = action == 'run'
        P = A.get('period', 0.62 if run else 1.05)
        ph = 2 * math.pi * t / P + A.get('phase0', 0.0)
        amp = 42 if run else 24
        for sd, off in (('n', 0.0), ('f', math.pi)):
            p = ph + off
            ch['thigh_' + sd] = amp * math.sin(p) + (12 if run else 2)
            ch['shin_' + sd] = (14 if run else 6) + (95 if run else 45) * max(0.0, math.cos(p - 0.3)) ** 1.4
            ch['uarm_' + sd] = -(48 if run else 22) * math.sin(p) + (10 if run else 2)
            ch['farm_' + sd] = (80 if run else 18) + (15 if run else 10) * max(0.0, -math.sin(p))
        ch['torso'] = (14 if run else 4) + 2 * math.sin(2 * ph)
        ch['head'] = -(8 if run else 3) + 2 * math.sin(2 * ph + 0.5)
        ch['cape1'] = (45 if run else 12) + (9 if run else 4) * math.sin(2 * ph)
        ch['cape2'] = (25 if run else 6) + (14 if run else 6) * math.sin(2 * ph - 0.9)
        ch['hair'] = (35 if run else 10) + (10 if run else 5) * math.sin(2 * ph - 0.6)
        ch['_air'] = (0.05 * u * max(0.0, math.sin(2 * ph - 0.6)) if run else 0.0)
        ch['weapon'] = A.get('carry', ch['weapon'])
        for k, v in A.get('hold', {}).items():      # e.g. a spear carried steadily
            ch[k] = v + 4 * math.sin(ph + 0.5)
    elif action in ('attack', 'hurt', 'skill'):
        keys = A['keys']
        d = keyed(t, keys, ch)
        ch.update(d)
        # secondary motion
        ch['hair'] += 4 * math.sin(2 * math.pi * t / 0.9)
        ch['cape2'] += 5 * math.sin(2 * math.pi * t / 1.1 - 0.5)
        ch['torso'] += 1.0 * br
        if 'shake' in A:
            t0, t1, amp, hz = A['shake']
            if t0 <= t <= t1:
                dec = 1 - (t - t0) / (t1 - t0)
                s = amp * dec * math.sin(2 * math.pi * hz * (t - t0))
                ch['torso'] += s
                ch['head'] += 1.5 * s
                ch['_x'] += 0.01 * u * s
    return ch


# --------------------------------------------------------------------------
# backdrop, compositing, encoding


def make_plate(W, H, key, rng, grad, vign):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    ang = rng.uniform(0, 2 * math.pi)
    d = ((xx - W / 2) * math.cos(ang) + (yy - H / 2) * math.sin(ang)) / (0.5 * math.hypot(W, H))
    g = 1 + grad * d
    r2 = ((xx - W / 2 - rng.uniform(-0.1, 0.1) * W) / (0.5 * W)) ** 2 + ((yy - H / 2) / (0.5 * H)) ** 2
    v = 1 - vign * np.clip(r2 / 2.0, 0, 1) ** 1.3
    # very low-frequency colour unevenness (lighting on the screen)
    lf = cv2.resize(rng.normal(0, 1, (3, 4, 3)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    plate = np.array(key, np.float32)[None, None, :] * (g * v)[..., None] + lf * 2.0
    return plate


def shadow_mult(W, H, cx, cy, sw, sh, depth):
    m = np.ones((H, W), np.float32)
    x0, x1 = max(0, int(cx - 2.5 * sw)), min(W, int(cx + 2.5 * sw) + 1)
    y0, y1 = max(0, int(cy - 3 * sh)), min(H, int(cy + 3 * sh) + 1)
    if x1 <= x0 or y1 <= y0:
        return m
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    e = ((xx - cx) / sw) ** 2 + ((yy - cy) / sh) ** 2
    m[y0:y1, x0:x1] = 1 - depth * np.exp(-e ** 1.3 * 1.6)
    return m


class Encoder:
    """libx264 / yuv420p / single thread.  Frames get explicit pts + time base:
    without them PyAV's encoder output depended on how many encoders the process
    had opened before (not deterministic across batch vs single-case runs)."""

    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(path, 'w')
        self.s = self.c.add_stream('libx264', rate=fps)
        self.s.width, self.s.height = W, H
        self.s.pix_fmt = 'yuv420p'
        self.tb = Fraction(1, fps)
        self.s.time_base = self.tb
        self.s.codec_context.time_base = self.tb
        self.s.options = {'crf': str(crf), 'threads': '1'}
        self.n = 0

    def add(self, rgb):
        fr = av.VideoFrame.from_ndarray(rgb, format='rgb24')
        fr.pts = self.n
        fr.time_base = self.tb
        self.n += 1
        for p in self.s.encode(fr):
            self.c.mux(p)

    def close(self):
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


# --------------------------------------------------------------------------
# character / action set-up (returns a pose function t -> (pose, root, ground))


class Scene:
    pass


def kenney_scene(cs, W, H, rng):
    who, s, meth = cs['who'], cs['scale'], cs['up']
    interp = cv2.INTER_NEAREST if meth == 'nearest' else cv2.INTER_LINEAR
    names = ['idle'] + ['walk%d' % i for i in range(8)] + ['jump', 'fall']
    hi = {}
    src = {}
    for n in names:
        a = load_sprite(who, n)
        if cs.get('recolour'):
            a = recolour(a, cs['recolour'])
        src[n] = a
        im = upscale(premul(a), s, meth)
        if cs.get('ink'):
            im = add_ink(im, cs['ink'])
        hi[n] = im
    Hs, Ws = hi['idle'].shape[:2]
    pivot = (Ws / 2 - 0.5, Hs - 0.5)           # feet, bottom centre
    sc = Scene()
    sc.interp = interp
    cut = cs.get('cut')
    parts = []
    if cut:
        body, arms = kenney_cut(hi['idle'], src['idle'], s, cut)
        imgs = [body] + [hi[n] for n in names]
        parts.append(Part('body', imgs, pivot, None, z=10))
        for side in cut:
            a = arms[side]
            parts.append(Part('arm_' + side, a['img'], a['pivot'], 'body', attach=a['pivot'], z=12))
            parts[-1].hand = a['hand']
        sc.index = {n: i + 1 for i, n in enumerate(names)}
        sc.index['cut'] = 0
    else:
        parts.append(Part('body', [hi[n] for n in names], pivot, None, z=10))
        sc.index = {n: i for i, n in enumerate(names)}
    wp = cs.get('weapon')
    if wp:
        side = cs['weapon_side']
        arm = [p for p in parts if p.name == 'arm_' + side][0]
        L = cs['weapon_len'] * s
        if wp == 'sword':
            img, piv = draw_sword(L)
        elif wp == 'axe':
            img, piv = draw_axe(L, 0.0, handle=(95, 60, 35), head=(150, 156, 170))
        parts.append(Part('weapon', img, piv, 'arm_' + side, attach=arm.hand, z=11.5))
    rig = Rig(parts, [], interp)
    rig.autocrop()
    sc.rig = rig
    sc.s = s
    sc.src_h = Hs
    # the hand that is raised in the jump pose (for the skill orb)
    A = src['jump'][..., 3] > 0.5
    ys, xs = np.nonzero(A[:, 70:])
    top = ys.min()
    sc.jump_hand = ((xs[ys <= top + 6].mean() + 70 + 0.5) * s - 0.5 - pivot[0], (top + 6 + 0.5) * s - 0.5 - pivot[1])
    return sc


KBASE = dict(squash=1.0, scale=1.0, rot=0.0, dx=0.0, az=12.0, wz=11.5, img=0.0)


def kenney_pose(cs, sc, t, W, H, D):
    """returns pose dict, root matrix params"""
    act = cs['action']
    s = sc.s
    idx = sc.index
    pose = {'body': {'a': 0.0, 'img': idx.get('cut', idx['idle'])}}
    for side in ('l', 'r'):
        if 'arm_' + side in sc.rig.by:
            pose['arm_' + side] = {'a': 0.0}
    x = cs['x0'] * W
    y_air = 0.0
    rot = 0.0
    sx = sy = 1.0
    flip = cs.get('flip', 1)
    tint, tintk = (255, 60, 50), 0.0
    extras = []
    br = math.sin(2 * math.pi * t / 2.1)
    if act in ('walk', 'run'):
        P = cs.get('period', 0.8 if act == 'walk' else 0.46)
        # sprite pose is held for the whole shutter (chosen at the frame's centre time);
        # only the root motion is sampled across the shutter -> no cross-faded ghost limbs
        tp = getattr(sc, 't_frame', t)
        fi = int(math.floor((tp / P) * 8 + cs.get('phase0', 0))) % 8
        pose['body']['img'] = idx['walk%d' % fi]
        ph = 2 * math.pi * t / P * 2
        if act == 'run':
            rot = cs.get('lean', 7) + 1.5 * math.sin(ph)
            y_air = 0.035 * sc.src_h * max(0.0, math.sin(ph))
        else:
            y_air = 0.008 * sc.src_h * max(0.0, math.sin(ph))
        x = (cs['x0'] + (cs['x1'] - cs['x0']) * t / D) * W
    elif act == 'idle':
        sy = 1 + 0.013 * br
        sx = 1 - 0.006 * br
        rot = 1.2 * math.sin(2 * math.pi * t / 3.3)
        x += 0.004 * W * math.sin(2 * math.pi * t / 3.3)
        for side, sg in (('l', 1), ('r', -1)):
            if 'arm_' + side in pose:
                pose['arm_' + side]['a'] = sg * (2.5 + 2.5 * br)
    elif act == 'attack':
        d = keyed(t, cs['keys'], KBASE)
        rot = d.get('rot', 0.0)
        sx = sy = d.get('scale', 1.0)
        sy *= d.get('squash', 1.0)
        sx /= d.get('squash', 1.0) ** 0.5
        x += d.get('dx', 0.0) * W
        for side in ('l', 'r'):
            if 'arm_' + side in pose:
                pose['arm_' + side]['a'] = d.get('arm_' + side, 0.0)
        if 'weapon' in sc.rig.by:
            pose['weapon'] = {'a': d.get('weapon', 0.0), 'z': d.get('wz', 11.5)}
        for side in ('l', 'r'):
            if 'arm_' + side in pose:
                pose['arm_' + side]['z'] = d.get('az', 12)
    elif act == 'hurt':
        d = keyed(t, cs['keys'], KBASE)
        rot = d['rot']
        x += d['dx'] * W
        sy = d.get('squash', 1.0)
        sx = 1 / sy ** 0.5
        if d.get('img', 0) > 0.5:
            pose['body']['img'] = idx['fall']
            for side in ('l', 'r'):
                if 'arm_' + side in pose:
                    pose['arm_' + side]['alpha'] = 0.0
        t0, t1, amp, hz = cs['shake']
        if t0 <= t <= t1:
            dec = 1 - (t - t0) / (t1 - t0)
            sh = amp * dec * math.sin(2 * math.pi * hz * (t - t0))
            rot += sh
            x += 0.004 * W * sh
        ft = cs['flash']
        if ft <= t <= ft + 0.35:
            tintk = 0.55 * (1 - (t - ft) / 0.35) ** 1.5
    elif act == 'skill':
        d = keyed(t, cs['keys'], KBASE)
        sy = d['squash']
        sx = 1 / sy ** 0.5
        y_air = d['air'] * sc.src_h
        rot = d.get('rot', 0.0)
        if d['jump'] > 0.5:
            pose['body']['img'] = idx['jump']
        g = d['glow']
        if g > 0.01:
            hx, hy = sc.jump_hand
            pul = 1 + 0.15 * math.sin(2 * math.pi * t * 5.0)
            gcol = cs['glow_col']

            def orb(canvas, mats, box, g=g, pul=pul, t=t):
                M = mats['body']
                p = sc.rig.by['body'].pivot
                cx, cy = apply(M, [(p[0] + hx, p[1] + hy - 0.13 * sc.src_h)])[0]
                rad = 0.1 * sc.src_h * g * pul
                draw_glow(canvas, cx, cy, rad, gcol, 0.8 * g, box, core=0.95 * g)
                for k in range(5):
                    a = 2 * math.pi * (k / 5 + t * 0.9)
                    rr = 0.16 * sc.src_h * g
                    draw_glow(canvas, cx + rr * math.cos(a), cy + 0.6 * rr * math.sin(a), 0.03 * sc.src_h,
                              gcol, 0.9 * g, box, core=0.8)
            extras.append((20, orb))
    pose['_tint'] = tint
    pose['_tintk'] = tintk
    pose['_extras'] = extras
    ground = cs['ground'] * H
    root = T(x, ground - y_air) @ S(flip, 1) @ R(rot) @ S(sx, sy)
    return pose, root, None


def proc_scene(cs, W, H, rng):
    sc = Scene()
    Hc = cs['hfrac'] * H
    sc.rig = build_humanoid(cs['char'], Hc)
    sc.u = Hc
    return sc


def proc_pose(cs, sc, t, W, H, D):
    A = dict(cs.get('act', {}))
    A['u'] = sc.u
    ch = humanoid_channels(cs['action'], t, A)
    pose = proc_build(cs, sc, ch, t, A)
    flip = cs.get('flip', 1)
    x = cs['x0'] * W
    if cs['action'] in ('walk', 'run') and 'x1' in cs:
        x = (cs['x0'] + (cs['x1'] - cs['x0']) * t / D) * W
    x += flip * ch.get('_x', 0.0) + flip * ch.get('dx', 0.0) * sc.u
    root = T(x, 0.0) @ S(flip, 1) @ R(ch.get('rot', 0.0))
    return pose, root, cs['ground'] * H


def proc_build(cs, sc, ch, t, A):
    pose = hpose(ch)
    u = sc.u
    extras = []
    tintk = 0.0
    if cs['action'] == 'hurt' and t is not None:
        ft = A['flash']
        if ft <= t <= ft + 0.3:
            tintk = 0.6 * (1 - (t - ft) / 0.3) ** 1.5
    pose['_tint'] = A.get('flash_col', (255, 70, 60))
    pose['_tintk'] = tintk
    rig = sc.rig
    if 'glow' in ch and ch['glow'] > 0.01 and 'gem' in rig.extras:
        g = ch['glow']
        gem = rig.extras['gem']
        gcol = A.get('glow_col', (120, 255, 240))

        def orb(canvas, mats, box, g=g, t=t):
            cx, cy = apply(mats['weapon'], [gem])[0]
            pul = 1 + 0.18 * math.sin(2 * math.pi * 6 * t)
            draw_glow(canvas, cx, cy, 0.07 * u * g * pul, gcol, 0.6 * g, box, core=0.9 * g)
            for k in range(6):
                a = 2 * math.pi * (k / 6 + 0.8 * t) + 0.3 * k
                rr = (0.12 + 0.04 * math.sin(3 * t + k)) * u * g
                draw_glow(canvas, cx + rr * math.cos(a), cy + 0.55 * rr * math.sin(a), 0.014 * u, gcol, 0.95 * g,
                          box, core=0.85)
        extras.append((25, orb))
    if 'tips' in rig.extras:
        tips = rig.extras['tips']
        draw = ch.get('draw', 0.0)        # 1: string pulled to the near hand
        arrow = ch.get('arrow', 0.0)      # 1: arrow nocked
        fly = ch.get('fly', -1.0)         # >=0: arrow released, seconds since release
        sw = max(1.0, 0.0035 * u)

        def string(canvas, mats, box, draw=draw, arrow=arrow, fly=fly):
            p0, p1 = apply(mats['weapon'], tips)
            hn = rig.by['farm_n']
            hand = apply(mats['farm_n'], [hn.hand])[0]
            mid = (p0 + p1) / 2
            nock = mid + (hand - mid) * draw
            draw_world_lines(canvas, [[p0, nock, p1]], sw, (235, 230, 210), box)
            grip = apply(mats['weapon'], [rig.by['weapon'].pivot])[0]
            d = grip - nock
            d = d / (np.linalg.norm(d) + 1e-6)
            AL = 0.5 * u
            if arrow > 0.5:
                a0 = nock
                a1 = nock + d * AL
                draw_world_lines(canvas, [[a0, a1]], max(1.2, 0.009 * u), (150, 110, 70), box)
                draw_world_lines(canvas, [[a1 - d * 0.05 * u, a1]], max(1.6, 0.016 * u), (200, 205, 215), box)
                nrm = np.array([-d[1], d[0]])
                draw_world_lines(canvas, [[a0, a0 + d * 0.07 * u + nrm * 0.02 * u],
                                          [a0, a0 + d * 0.07 * u - nrm * 0.02 * u]], max(1.0, 0.006 * u),
                                 (200, 60, 50), box)
        extras.append((15.0 if draw > 0.05 else rig.by['weapon'].z + 0.1, string))
        if fly >= 0:
            def flying(canvas, mats, box, fly=fly):
                grip = apply(mats['weapon'], [rig.by['weapon'].pivot])[0]
                spd = A['arrow_speed'] * u
                fade = max(0.0, 1 - fly / A['arrow_life'])
                if fade <= 0:
                    return
                a0 = grip + np.array([spd * fly - 0.05 * u, 0.0])
                a1 = a0 + np.array([0.5 * u, 0.0])
                sub = []
                sub.append(([[a0, a1]], max(1.2, 0.009 * u), (150, 110, 70)))
                sub.append(([[a1 - [0.05 * u, 0], a1]], max(1.6, 0.016 * u), (200, 205, 215)))
                for segs, wdt, cc in sub:
                    x0 = int(min(p[0] for s_ in segs for p in s_) - wdt - 3)
                    y0 = int(min(p[1] for s_ in segs for p in s_) - wdt - 3)
                    x1 = int(max(p[0] for s_ in segs for p in s_) + wdt + 3)
                    y1 = int(max(p[1] for s_ in segs for p in s_) + wdt + 3)
                    sk = Sketch(x0, y0, x1, y1)
                    for s_ in segs:
                        sk.line(s_, wdt, cc)
                    img, _ = sk.finish()
                    paste_clipped(canvas, img * fade, sk.ox, sk.oy, box)
            extras.append((30, flying))
    pose['_extras'] = extras
    pose['_air'] = ch.get('_air', 0.0) + ch.get('air', 0.0) * u
    return pose


# --------------------------------------------------------------------------
# the renderer


def render_case(cs, outdir):
    t_start = time.time()
    W, H = cs['size']
    fps = cs['fps']
    N = cs['frames']
    D = N / fps
    rng = np.random.default_rng(cs['seed'])
    kind = cs['kind']
    sc = kenney_scene(cs, W, H, rng) if kind == 'kenney' else proc_scene(cs, W, H, rng)
    posef = kenney_pose if kind == 'kenney' else proc_pose
    rig = sc.rig

    def sample(t, canvas, box):
        pose, root, ground = posef(cs, sc, t, W, H, D)
        return render_sample(rig, pose, root, canvas, box, ground)

    def keypts(t):
        pose, root, ground = posef(cs, sc, t, W, H, D)
        mats = rig.world(pose, root)
        if ground is not None and rig.feet:
            fy = max(apply(mats[n], [pt])[0, 1] for n, pt in rig.feet)
            dy = ground - pose.get('_air', 0.0) - fy
            mats = {k: T(0, dy) @ m for k, m in mats.items()}
        return rig.key_points(mats)

    os.makedirs(outdir, exist_ok=True)

    # ---- portrait: rest pose, unflipped, no blur / tint / effects
    big = np.zeros((int(H * 1.6), int(W * 1.6) + 400, 4), np.float32)
    box = [10 ** 9, 10 ** 9, 0, 0]
    if kind == 'kenney':
        pose = {'body': {'a': 0.0, 'img': sc.index.get('cut', sc.index['idle'])}}
        for p in rig.parts[1:]:
            pose[p.name] = {'a': 0.0}
        if 'weapon' in rig.by:
            pose['weapon'] = {'a': cs['keys'][0][1]['weapon']}
        root = T(big.shape[1] / 2, big.shape[0] - 20)
        render_sample(rig, pose, root, big, box, None)
    else:
        ch = dict(STANCE)
        ch.update(cs.get('act', {}).get('stance', {}))
        A = dict(cs.get('act', {}))
        A['u'] = sc.u
        ch.update(draw=0.0, arrow=0.0, fly=-1.0, glow=0.0)
        pose = proc_build(cs, sc, ch, None, A)
        pose['_tintk'] = 0.0
        render_sample(rig, pose, T(big.shape[1] / 2, 0), big, box, big.shape[0] - 20)
    a = big[..., 3]
    ys, xs = np.nonzero(a >= 0.5 / 255)
    y0, y1 = max(0, ys.min() - 4), min(big.shape[0], ys.max() + 5)
    x0, x1 = max(0, xs.min() - 4), min(big.shape[1], xs.max() + 5)
    crop = big[y0:y1, x0:x1]
    Image.fromarray(to_straight8(crop), 'RGBA').save(os.path.join(outdir, 'portrait.png'))
    port_h = ys.max() - ys.min() + 1

    # ---- backdrop
    key = cs['key']
    plate0 = make_plate(W, H, key, rng, cs['grad'], cs['vign'])
    noise_sd = cs['noise']
    wrap_s, wrap_sig = cs['wrap']
    shadow_d = cs['shadow']
    L, mode = cs['shutter']
    off = {'centre': -L / 2, 'lead': 0.0, 'trail': -L}[mode]
    flick = np.cumsum(rng.normal(0, 1, N + 8))
    flick = np.convolve(flick - flick.mean(), np.ones(5) / 5, 'same')
    flick = 1 + cs.get('flicker', 0.012) * flick / (np.abs(flick).max() + 1e-6)

    enc = Encoder(os.path.join(outdir, 'clip.mp4'), W, H, fps, cs['crf'])
    truth = np.zeros((N, H, W, 4), np.uint8)
    canvas = np.zeros((H, W, 4), np.float32)
    acc = np.zeros((H, W, 4), np.float32)
    maxblur = 0.0
    nsamp = 0
    ground_y = cs['ground'] * H
    bbox_all = [W, H, 0, 0]
    for f in range(N):
        sc.t_frame = f / fps
        ta, tb = (f + off) / fps, (f + off + L) / fps
        tt = np.linspace(ta, tb, 6)
        kp = [keypts(t) for t in tt]
        path = sum(np.linalg.norm(kp[i + 1] - kp[i], axis=1) for i in range(5))
        pmax = float(path.max())
        maxblur = max(maxblur, pmax)
        K = int(np.clip(math.ceil(pmax / 1.6), cs.get('kmin', 5), 48))
        nsamp += K
        acc[:] = 0
        ubox = [10 ** 9, 10 ** 9, 0, 0]
        for k in range(K):
            t = (f + off + L * (k + 0.5) / K) / fps
            box = [10 ** 9, 10 ** 9, 0, 0]
            sample(t, canvas, box)
            if box[2] > box[0]:
                x0, y0, x1, y1 = box
                acc[y0:y1, x0:x1] += canvas[y0:y1, x0:x1]
                canvas[y0:y1, x0:x1] = 0
                ubox = [min(ubox[0], x0), min(ubox[1], y0), max(ubox[2], x1), max(ubox[3], y1)]
        acc *= 1.0 / K
        prem = acc
        prem[..., 3] = np.clip(prem[..., 3], 0, 1)
        prem[..., :3] = np.minimum(np.clip(prem[..., :3], 0, 1), prem[..., 3:4])
        truth[f] = to_straight8(prem)
        alpha = prem[..., 3]
        ys, xs = np.nonzero(truth[f, ..., 3])
        if len(xs):
            bbox_all = [min(bbox_all[0], xs.min()), min(bbox_all[1], ys.min()),
                        max(bbox_all[2], xs.max()), max(bbox_all[3], ys.max())]
        # contact shadow under the feet
        fx = np.nonzero(alpha[int(ground_y) - int(0.06 * port_h):int(ground_y) + 2].sum(0) > 0.05)[0]
        if len(fx):
            cx, sw = (fx.min() + fx.max()) / 2, max(0.5 * (fx.max() - fx.min()), 0.12 * port_h)
            depth = shadow_d
        else:
            cols = np.nonzero(alpha.sum(0) > 0.05)[0]
            cx = (cols.min() + cols.max()) / 2 if len(cols) else W / 2
            sw = 0.2 * port_h
            low = np.nonzero(alpha.sum(1) > 0.05)[0]
            gap = (ground_y - low.max()) if len(low) else port_h
            depth = shadow_d * math.exp(-max(gap, 0) / (0.15 * port_h))
        shm = shadow_mult(W, H, cx, ground_y + 0.01 * port_h, sw * 1.05, 0.045 * port_h + 3, depth)
        plate = plate0 * (flick[f] * shm)[..., None]
        comp = plate * (1 - alpha[..., None]) + prem[..., :3] * 255.0
        # light wrap: backdrop bleeds over the silhouette, fading inward
        if ubox[2] > ubox[0] and wrap_s > 0:
            m = int(8 * wrap_sig) + 16
            x0, y0 = max(0, ubox[0] - m), max(0, ubox[1] - m)
            x1, y1 = min(W, ubox[2] + m), min(H, ubox[3] + m)
            a_r = alpha[y0:y1, x0:x1]
            bl = cv2.GaussianBlur(1.0 - a_r, (0, 0), wrap_sig)
            w = wrap_s * np.clip(2.0 * bl, 0, 1) * a_r
            wc = cv2.GaussianBlur(plate[y0:y1, x0:x1], (0, 0), 2.5 * wrap_sig + 2)
            cr = comp[y0:y1, x0:x1]
            comp[y0:y1, x0:x1] = cr * (1 - w[..., None]) + wc * w[..., None]
        comp += rng.standard_normal((H, W, 3), dtype=np.float32) * noise_sd
        enc.add(np.clip(np.rint(comp), 0, 255).astype(np.uint8))
    enc.close()
    np.savez_compressed(os.path.join(outdir, 'truth.npz'), rgba=truth)
    meta = {'action': cs['action'], 'key': list(map(int, key)), 'fps': fps, 'size': [W, H], 'notes': cs['notes']}
    with open(os.path.join(outdir, 'case.json'), 'w') as fh:
        json.dump(meta, fh, indent=1)
    dt = time.time() - t_start
    hmax = 0
    for f in range(0, N, 4):
        ys = np.nonzero(truth[f, ..., 3].max(1))[0]
        if len(ys):
            hmax = max(hmax, ys.max() - ys.min() + 1)
    inside = bbox_all[0] > 0 and bbox_all[1] > 0 and bbox_all[2] < W - 1 and bbox_all[3] < H - 1
    print('%-34s %5.1fs  K/frame %5.1f  max blur %5.1f px  portrait h %4d (%.0f%%)  bbox %s %s' % (
        os.path.basename(outdir), dt, nsamp / N, maxblur, port_h, 100.0 * port_h / H, bbox_all,
        'ok' if inside else 'OUTSIDE!'), flush=True)
    return dt


def to_straight8(prem):
    a = prem[..., 3]
    a8 = np.rint(np.clip(a, 0, 1) * 255).astype(np.uint8)
    rgb = prem[..., :3] / np.maximum(a, 1e-6)[..., None]
    rgb8 = np.rint(np.clip(rgb, 0, 1) * 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.dstack([rgb8, a8])


# --------------------------------------------------------------------------
# the 20 cases

def cases():
    C = []

    def common(name, seed, key, size, fps, frames, crf, shutter, noise, wrap, shadow, grad=0.1, vign=0.12,
               ground=0.93):
        return dict(name=name, seed=seed, key=key, size=size, fps=fps, frames=frames, crf=crf, shutter=shutter,
                    noise=noise, wrap=wrap, shadow=shadow, grad=grad, vign=vign, ground=ground)

    # ---------------- Kenney-based (12) ----------------
    c = common('k01_zombie_walk_teal_on_green', 101, (0, 177, 64), (512, 512), 24, 73, 20, (1.0, 'centre'),
               2.0, (0.25, 1.5), 0.25)
    c.update(kind='kenney', who='zombie', scale=3.6, up='lanczos', action='walk', x0=0.5, x1=0.5, period=0.85,
             notes='teal-green zombie skin and green-grey hair very close to the green key; walk cycle in place')
    C.append(c)

    c = common('k02_robot_run_blue_on_blue', 102, (30, 60, 200), (832, 480), 24, 57, 22, (1.0, 'trail'),
               2.5, (0.3, 1.2), 0.3, grad=0.14)
    c.update(kind='kenney', who='robot', scale=3.0, up='nearest', action='run', x0=0.25, x1=0.75, lean=8,
             notes='blue robot on a blue screen, nearest-neighbour pixel art running across frame with trailing blur')
    C.append(c)

    kA = [(0.0, dict(arm_r=0, weapon=30, rot=0, dx=0), 'io'),
          (0.45, dict(arm_r=-8, weapon=35, rot=-1, dx=0), 'io'),
          (0.95, dict(arm_r=-155, weapon=165, rot=-5, dx=-0.01), 'io'),
          (1.05, dict(arm_r=-160, weapon=170, rot=-6, dx=-0.012), 'io'),
          (1.3, dict(arm_r=-45, weapon=165, rot=5, dx=0.015), 'in'),
          (1.55, dict(arm_r=-40, weapon=162, rot=4, dx=0.015), 'out'),
          (2.3, dict(arm_r=-5, weapon=40, rot=0, dx=0.0), 'io'),
          (3.1, dict(arm_r=0, weapon=30, rot=0, dx=0), 'io')]
    c = common('k03_femaleperson_sword_green_shirt', 103, (40, 190, 70), (1280, 720), 24, 73, 19, (0.5, 'centre'),
               2.0, (0.2, 2.0), 0.22)
    c.update(kind='kenney', who='fp', scale=4.5, up='cubic', action='attack', x0=0.44, cut=('r',), weapon='sword',
             weapon_side='r', weapon_len=32, keys=kA, ground=0.94,
             notes='green shirt on green key; overhead sword swing with a long fast blurred blade arc')
    C.append(c)

    c = common('k04_maleadventurer_idle_16fps', 104, (0, 150, 90), (448, 448), 16, 49, 21, (0.7, 'centre'),
               1.8, (0.18, 1.0), 0.2, grad=0.08, vign=0.18)
    c.update(kind='kenney', who='ma', scale=3.0, up='nearest', action='idle', x0=0.5, cut=('l', 'r'),
             notes='green shirt on a teal-green key, blocky nearest-neighbour edges, subtle breathing only (16 fps)')
    C.append(c)

    c = common('k05_femaleadventurer_hurt_blue', 105, (20, 90, 220), (512, 512), 24, 57, 20, (1.0, 'centre'),
               2.2, (0.28, 1.5), 0.25)
    kH = [(0.0, dict(rot=0, dx=0, img=0, squash=1.0), 'io'),
          (0.55, dict(rot=0, dx=0, img=0, squash=1.0), 'io'),
          (0.68, dict(rot=-16, dx=-0.07, img=1, squash=0.95), 'out'),
          (1.05, dict(rot=-11, dx=-0.1, img=1, squash=0.97), 'out'),
          (1.5, dict(rot=-3, dx=-0.1, img=0, squash=1.0), 'io'),
          (2.4, dict(rot=0, dx=-0.1, img=0, squash=1.0), 'io')]
    c.update(kind='kenney', who='fa', scale=3.4, up='cubic', action='hurt', x0=0.56, keys=kH,
             shake=(0.68, 1.35, 4.0, 9.0), flash=0.6,
             notes='blue shirt and blue headband on a blue key; knock-back with red hit-flash tint not in the portrait')
    C.append(c)

    kS = [(0.0, dict(squash=1.0, air=0.0, jump=0, glow=0.0), 'io'),
          (0.45, dict(squash=1.0, air=0.0, jump=0, glow=0.0), 'io'),
          (0.7, dict(squash=0.9, air=0.0, jump=0, glow=0.0), 'io'),
          (0.85, dict(squash=1.04, air=0.12, jump=1, glow=0.3), 'out'),
          (1.2, dict(squash=1.0, air=0.16, jump=1, glow=1.0), 'out'),
          (2.1, dict(squash=1.0, air=0.15, jump=1, glow=1.0), 'io'),
          (2.45, dict(squash=1.0, air=0.0, jump=1, glow=0.0), 'in'),
          (2.6, dict(squash=0.93, air=0.0, jump=0, glow=0.0), 'out'),
          (3.1, dict(squash=1.0, air=0.0, jump=0, glow=0.0), 'io')]
    c = common('k06_maleperson_skill_glow', 106, (90, 220, 60), (832, 480), 24, 73, 21, (0.8, 'lead'),
               2.0, (0.22, 1.6), 0.3, grad=0.12)
    c.update(kind='kenney', who='mp', scale=2.9, up='lanczos', action='skill', x0=0.45, keys=kS,
             glow_col=(255, 150, 230),
             notes='black hair and white vest; jump-cast with a semi-transparent pink glow orb and sparks (soft alpha VFX)')
    C.append(c)

    kZ = [(0.0, dict(arm_l=0, arm_r=0, rot=0, scale=1.0, squash=1.0), 'io'),
          (0.5, dict(arm_l=3, arm_r=-3, rot=0, scale=1.0, squash=1.0), 'io'),
          (0.9, dict(arm_l=125, arm_r=-125, rot=0, scale=0.98, squash=0.95), 'io'),
          (1.05, dict(arm_l=140, arm_r=-140, rot=0, scale=0.98, squash=0.94), 'io'),
          (1.38, dict(arm_l=-25, arm_r=25, rot=3, scale=1.05, squash=1.03, az=12), 'in'),
          (1.65, dict(arm_l=-30, arm_r=30, rot=3, scale=1.05, squash=1.0), 'out'),
          (2.2, dict(arm_l=0, arm_r=0, rot=0, scale=1.0, squash=1.0), 'io'),
          (3.1, dict(arm_l=0, arm_r=0, rot=0, scale=1.0, squash=1.0), 'io')]
    c = common('k07_zombie_claw_attack_blue', 107, (30, 60, 200), (1280, 720), 24, 73, 18, (1.0, 'centre'),
               2.6, (0.3, 2.0), 0.28)
    c.update(kind='kenney', who='zombie', scale=4.4, up='lanczos', action='attack', x0=0.5, cut=('l', 'r'), keys=kZ,
             ground=0.94,
             notes='teal skin and purple shirt on a blue key; both arms slam down with heavy motion blur')
    C.append(c)

    c = common('k08_robot_walk_ink_outline', 108, (60, 200, 80), (448, 448), 24, 73, 23, (0.6, 'centre'),
               2.0, (0.2, 1.2), 0.2)
    c.update(kind='kenney', who='robot', scale=3.0, up='cubic', action='walk', x0=0.34, x1=0.66, ink=4.0, period=0.9,
             notes='added dark ink outline (~4 px) around the sprite; key must not eat the outline or leave green halo')
    C.append(c)

    c = common('k09_pale_person_run_blue', 109, (30, 60, 200), (512, 512), 24, 57, 22, (1.4, 'centre'),
               2.4, (0.35, 1.8), 0.32, grad=0.15)
    c.update(kind='kenney', who='fp', scale=3.0, up='lanczos', action='run', x0=0.72, x1=0.28, flip=-1,
             recolour='pale', lean=7,
             notes='washed-out near-white character (white picks up blue wrap easily), running leftwards with long blur')
    C.append(c)

    c = common('k10_dark_person_walk_16fps', 110, (30, 60, 200), (832, 480), 16, 49, 20, (0.9, 'centre'),
               2.0, (0.25, 1.5), 0.3)
    c.update(kind='kenney', who='mp', scale=3.5, up='cubic', action='walk', x0=0.5, x1=0.5, recolour='dark',
             period=0.9,
             notes='near-black shadow character on a dark blue key (low luminance contrast), 16 fps walk in place')
    C.append(c)

    c = common('k11_femaleadventurer_walk_long_shutter', 111, (40, 190, 70), (1280, 720), 24, 73, 24,
               (1.5, 'trail'), 2.8, (0.22, 1.3), 0.2, grad=0.07)
    c.update(kind='kenney', who='fa', scale=5.0, up='lanczos', action='walk', x0=0.3, x1=0.7, period=0.7,
             notes='1.5-frame trailing shutter smears the walking legs; orange hair and skin against green; CRF 24')
    C.append(c)

    kX = [(0.0, dict(arm_l=0, weapon=-20, rot=0), 'io'),
          (0.4, dict(arm_l=2, weapon=-22, rot=0), 'io'),
          (0.85, dict(arm_l=165, weapon=-155, rot=-6), 'io'),
          (1.0, dict(arm_l=170, weapon=-160, rot=-7), 'io'),
          (1.28, dict(arm_l=45, weapon=-145, rot=6, squash=0.96), 'in'),
          (1.55, dict(arm_l=40, weapon=-140, rot=5, squash=0.97), 'out'),
          (2.2, dict(arm_l=0, weapon=-20, rot=0, squash=1.0), 'io'),
          (3.1, dict(arm_l=0, weapon=-20, rot=0, squash=1.0), 'io')]
    c = common('k12_maleadventurer_axe_chop', 112, (70, 210, 60), (512, 512), 24, 73, 21, (0.8, 'centre'),
               2.0, (0.25, 1.4), 0.25)
    c.update(kind='kenney', who='ma', scale=3.0, up='nearest', action='attack', x0=0.6, cut=('l',), weapon='axe',
             weapon_side='l', weapon_len=44, keys=kX,
             notes='green shirt on yellow-green key; pixel-art axe chop, blurred steel blade crosses the body')
    C.append(c)

    # ---------------- procedural (8) ----------------
    knight = dict(skin=(235, 190, 160), hair=(90, 55, 30), shirt=(70, 110, 50), pants=(60, 70, 50),
                  boots=(70, 45, 30), armor=(165, 172, 185), helmet=(165, 172, 185), pauldron=(150, 158, 170),
                  cape=(78, 92, 40), glove=(90, 70, 50), gauntlet=True, skirt=(70, 110, 50), outline=2.0,
                  weapon='sword', hair_style='short', seed=5)
    sw = [(0.0, {}, 'io'),
          (0.5, dict(uarm_n=25, farm_n=55, weapon=75, torso=5), 'io'),
          (0.95, dict(uarm_n=165, farm_n=45, weapon=70, torso=-8, head=-6, thigh_n=12, thigh_f=-10), 'io'),
          (1.05, dict(uarm_n=170, farm_n=40, weapon=75, torso=-9, head=-6), 'io'),
          (1.4, dict(uarm_n=35, farm_n=10, weapon=95, torso=18, head=4, thigh_n=32, shin_n=25, thigh_f=-28,
                      shin_f=20, cape1=30, cape2=25, dx=0.06), 'in'),
          (1.65, dict(uarm_n=20, farm_n=5, weapon=100, torso=16, dx=0.07, cape1=12, cape2=8), 'out'),
          (2.1, dict(uarm_n=25, farm_n=55, weapon=75, torso=5, dx=0.04, thigh_n=7, shin_n=5, thigh_f=-7,
                     shin_f=8), 'io'),
          (2.3, dict(uarm_n=95, farm_n=-5, weapon=88, torso=14, dx=0.1, thigh_n=28, thigh_f=-25), 'in'),
          (2.55, dict(uarm_n=90, farm_n=0, weapon=90, torso=12, dx=0.1), 'out'),
          (3.1, dict(uarm_n=25, farm_n=55, weapon=75, torso=5, dx=0.06, thigh_n=7, thigh_f=-7), 'io')]
    c = common('p01_knight_olive_cloak_attack', 201, (0, 170, 80), (832, 480), 24, 73, 20, (0.6, 'centre'),
               2.0, (0.25, 1.5), 0.25)
    c.update(kind='proc', char=knight, hfrac=0.56, action='attack', x0=0.42, act=dict(keys=sw),
             notes='ink-outlined knight with an olive-green cloak and green tabard on green; fast sword slash + thrust')
    C.append(c)

    elf = dict(skin=(240, 205, 175), hair=(230, 200, 120), shirt=(60, 140, 70), pants=(90, 80, 50),
               boots=(80, 55, 35), belt=(100, 70, 40), long_sleeve=True, weapon='bow', weapon_hand='f',
               hair_style='short', strands=14, strand_w=1.0, strand_len=0.36, seed=7)
    bowst = dict(uarm_f=-4, farm_f=6, weapon=0)
    bk = [(0.0, dict(draw=0, arrow=0, fly=-1), 'io'),
          (0.3, dict(draw=0, arrow=0, fly=-1), 'io'),
          (0.65, dict(uarm_f=88, farm_f=2, weapon=90, uarm_n=75, farm_n=60, torso=2, head=0, arrow=1, draw=0.1,
                      thigh_n=14, thigh_f=-12), 'io'),
          (1.15, dict(uarm_f=90, farm_f=0, weapon=90, uarm_n=-88, farm_n=168, torso=-2, head=2, arrow=1, draw=1.0,
                      hair=12), 'io'),
          (1.5, dict(uarm_f=90, farm_f=0, weapon=90, uarm_n=-92, farm_n=170, torso=-2, arrow=1, draw=1.0), 'io'),
          (1.52, dict(uarm_f=92, farm_f=0, weapon=90, uarm_n=-100, farm_n=150, arrow=0, draw=0.0, fly=0.0), 'lin'),
          (1.72, dict(uarm_f=88, farm_f=0, weapon=90, uarm_n=-110, farm_n=120, fly=0.2, hair=16), 'lin'),
          (2.4, dict(uarm_f=-4, farm_f=6, weapon=0, uarm_n=8, farm_n=18, torso=3, head=-2, fly=0.9,
                     thigh_n=7, thigh_f=-7, hair=6), 'io')]
    c = common('p02_elf_archer_bow_skill', 202, (60, 200, 80), (1280, 720), 24, 57, 19, (0.8, 'centre'),
               2.2, (0.25, 1.6), 0.22)
    c.update(kind='proc', char=elf, hfrac=0.6, action='skill', x0=0.36,
             act=dict(keys=bk, stance=bowst, arrow_speed=4.0, arrow_life=0.13), kmin=12,
             notes='green tunic on green; 1 px bow string and 1 px blond hair strands; arrow released and fades')
    C.append(c)

    mage = dict(skin=(70, 190, 185), hair=(230, 235, 240), shirt=(40, 70, 170), pants=(35, 55, 140),
                boots=(50, 40, 60), belt=(200, 170, 60), long_sleeve=True, skirt=(45, 80, 185), cape=(30, 50, 120),
                weapon='staff', hair_style='spiky', strands=10, strand_w=2.0, strand_len=0.3, eye=(250, 220, 60),
                seed=9)
    mk = [(0.0, dict(glow=0.0), 'io'),
          (0.4, dict(glow=0.0), 'io'),
          (0.8, dict(torso=16, head=6, thigh_n=38, shin_n=62, thigh_f=20, shin_f=55, uarm_n=30, farm_n=50,
                     weapon=60, glow=0.15, cape1=8), 'io'),
          (1.3, dict(torso=-4, head=-10, thigh_n=8, shin_n=6, thigh_f=-8, shin_f=10, uarm_n=100, farm_n=22,
                     weapon=128, glow=0.8, cape1=35, cape2=30, hair=30, air=0.05), 'out'),
          (2.1, dict(torso=-5, head=-12, uarm_n=104, farm_n=18, weapon=128, glow=1.0, cape1=40, cape2=35, hair=35,
                     air=0.05), 'io'),
          (2.5, dict(torso=3, head=-2, thigh_n=7, shin_n=5, thigh_f=-7, shin_f=8, uarm_n=20, farm_n=30, weapon=30,
                     glow=0.0, cape1=5, cape2=3, hair=6, air=0.0), 'io'),
          (3.1, dict(glow=0.0), 'io')]
    c = common('p03_teal_mage_blue_robe_skill', 203, (20, 90, 220), (512, 512), 24, 73, 21, (1.0, 'lead'),
               2.0, (0.3, 1.6), 0.28)
    c.update(kind='proc', char=mage, hfrac=0.5, action='skill', x0=0.44,
             act=dict(keys=mk, stance=dict(weapon=30, farm_n=30, uarm_n=20), glow_col=(110, 255, 235)),
             notes='teal skin, blue robe and navy cape on a blue key; cyan glow VFX with soft alpha, hair strands')
    C.append(c)

    spear = dict(skin=(200, 150, 110), hair=(40, 30, 30), shirt=(30, 80, 200), pants=(50, 60, 110),
                 boots=(60, 45, 35), belt=(140, 100, 60), pauldron=(40, 90, 210), weapon='spear', hair_style='spiky',
                 strands=6, strand_w=2.5, strand_len=0.2, scarf=(200, 40, 40), seed=11)
    c = common('p04_spearman_run_blue_on_blue', 204, (30, 60, 200), (1280, 720), 24, 73, 20, (1.0, 'centre'),
               2.4, (0.3, 1.5), 0.3)
    c.update(kind='proc', char=spear, hfrac=0.56, action='run', x0=0.2, x1=0.82,
             act=dict(period=0.58, hold=dict(uarm_n=12, farm_n=75, weapon=78)),
             notes='royal-blue tunic on a blue key, running across with a long thin spear; blurred arms and legs')
    C.append(c)

    whitec = dict(skin=(250, 232, 222), hair=(245, 245, 250), shirt=(240, 240, 236), pants=(225, 225, 230),
                  boots=(200, 200, 210), belt=(190, 180, 160), long_sleeve=True, skirt=(245, 245, 240),
                  weapon='sword', strands=16, strand_w=1.4, strand_len=0.42, eye=(90, 140, 200), seed=13)
    hk = [(0.0, {}, 'io'),
          (0.55, {}, 'io'),
          (0.67, dict(torso=-26, head=-28, uarm_n=70, farm_n=45, uarm_f=60, farm_f=40, thigh_n=-12, shin_n=30,
                      thigh_f=18, shin_f=20, dx=-0.16, hair=-25, weapon=110), 'out'),
          (1.0, dict(torso=-18, head=-14, uarm_n=40, farm_n=40, uarm_f=35, farm_f=35, thigh_n=-6, shin_n=20,
                     thigh_f=14, shin_f=24, dx=-0.22, hair=-5, weapon=90), 'out'),
          (1.5, dict(torso=12, head=10, uarm_n=10, farm_n=25, uarm_f=-10, farm_f=20, thigh_n=20, shin_n=45,
                     thigh_f=-10, shin_f=40, dx=-0.22, hair=10, weapon=70), 'io'),
          (2.1, dict(torso=3, head=-2, uarm_n=8, farm_n=18, uarm_f=-6, farm_f=12, thigh_n=7, shin_n=5,
                     thigh_f=-7, shin_f=8, dx=-0.2, hair=6, weapon=60), 'io'),
          (2.5, dict(dx=-0.2), 'io')]
    c = common('p05_white_swordswoman_hurt', 205, (90, 220, 60), (448, 448), 24, 57, 22, (0.9, 'centre'),
               2.2, (0.33, 2.0), 0.25)
    c.update(kind='proc', char=whitec, hfrac=0.64, action='hurt', x0=0.56,
             act=dict(keys=hk, flash=0.57, shake=(0.67, 1.3, 5.0, 8.0), flash_col=(255, 80, 70)),
             notes='all-white clothes and long white 1-2 px hair on yellow-green key; hit flash and knock-back')
    C.append(c)

    rogue = dict(skin=(190, 160, 140), hair=(14, 14, 18), shirt=(22, 22, 28), pants=(16, 16, 20), boots=(10, 10, 12),
                 belt=(40, 35, 35), long_sleeve=True, hair_style='hood', hood=(20, 22, 26), mask=(26, 26, 30),
                 weapon='dagger', weapon2=True, glove=(18, 18, 22), scarf=(28, 28, 34), strands=5, strand_w=3.0,
                 strand_len=0.32, hair_mass=False, eye=(200, 40, 40), seed=17)
    rk = [(0.0, dict(weapon=100, weapon2=100), 'io'),
          (0.45, dict(uarm_n=10, farm_n=70, uarm_f=20, farm_f=80, torso=12, weapon=100, weapon2=100,
                      thigh_n=20, shin_n=25, thigh_f=-15, shin_f=25), 'io'),
          (0.75, dict(uarm_n=-40, farm_n=120, uarm_f=60, farm_f=60, torso=8, weapon=120, weapon2=100), 'io'),
          (0.95, dict(uarm_n=120, farm_n=-10, uarm_f=-30, farm_f=70, torso=24, weapon=70, weapon2=110, dx=0.22,
                      thigh_n=40, shin_n=20, thigh_f=-35, shin_f=30, hair=45, cape1=30), 'in'),
          (1.2, dict(uarm_n=100, farm_n=0, torso=22, dx=0.24, weapon=75), 'out'),
          (1.45, dict(uarm_n=-20, farm_n=90, uarm_f=110, farm_f=-5, torso=20, weapon=110, weapon2=60, dx=0.26,
                      hair=40), 'in'),
          (1.75, dict(uarm_n=10, farm_n=70, uarm_f=20, farm_f=80, torso=12, weapon=100, weapon2=100, dx=0.18,
                      thigh_n=20, shin_n=25, thigh_f=-15, shin_f=25, hair=10), 'io'),
          (3.1, dict(dx=0.18), 'io')]
    c = common('p06_dark_rogue_dual_daggers_16fps', 206, (40, 200, 90), (512, 512), 16, 49, 20, (1.0, 'centre'),
               2.0, (0.25, 1.4), 0.3)
    c.update(kind='proc', char=rogue, hfrac=0.6, action='attack', x0=0.36, act=dict(keys=rk),
             notes='near-black hooded rogue (clothes 10-30 levels); lunge with two daggers, big limb blur at 16 fps')
    C.append(c)

    ranger = dict(skin=(225, 180, 140), hair=(120, 70, 35), shirt=(85, 95, 45), pants=(70, 60, 40), boots=(60, 45, 30),
                  belt=(90, 60, 35), cape=(60, 75, 30), hair_style='short', strands=18, strand_w=1.2,
                  strand_len=0.38, weapon='bow', weapon_hand='n', long_sleeve=True, seed=19)
    c = common('p07_ranger_olive_cloak_idle', 207, (0, 150, 90), (832, 480), 24, 57, 18, (0.5, 'centre'),
               1.6, (0.2, 1.2), 0.2, grad=0.06)
    c.update(kind='proc', char=ranger, hfrac=0.7, action='idle', x0=0.5,
             act=dict(stance=dict(uarm_n=-2, farm_n=10, weapon=-8)),
             notes='olive/dark-green cloak and tunic on green; idle sway, fine auburn hair strands, thin bow')
    C.append(c)

    barb = dict(skin=(210, 150, 110), hair=(200, 90, 30), shirt=(120, 70, 40), pants=(70, 50, 100),
                boots=(60, 40, 30), belt=(50, 35, 25), weapon='axe', hair_style='spiky', strands=12, strand_w=2.5,
                strand_len=0.34, outline=2.5, ink=(15, 12, 20), pauldron=(110, 110, 120), seed=23)
    c = common('p08_barbarian_axe_walk_ink', 208, (20, 90, 220), (512, 512), 24, 73, 22, (0.7, 'centre'),
               2.0, (0.25, 1.6), 0.22)
    c.update(kind='proc', char=barb, hfrac=0.62, action='walk', x0=0.7, x1=0.3, flip=-1,
             act=dict(period=1.0, carry=55),
             notes='thick ink outlines (2.5 px) and purple trousers on blue key; 2-3 px orange hair strands; walks left')
    C.append(c)
    return C


def main(argv):
    sel = [a for a in argv if not a.startswith('-')]
    allc = cases()
    todo = [c for c in allc if not sel or any(c['name'].startswith(s) for s in sel)]
    t0 = time.time()
    for c in todo:
        render_case(c, os.path.join(OUT, c['name']))
    print('total %.1fs for %d cases' % (time.time() - t0, len(todo)))


if __name__ == '__main__':
    main(sys.argv[1:])
