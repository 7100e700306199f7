"""Trial 37 rig: jointed 2-D characters. Each part is baked once per case at SS x its final
size (albedo, coverage, a dome normal map, shading and gloss weights), warped into place by
forward kinematics, then the whole figure is lit in world space (smooth, cel or none) and
box-filtered down, so edges carry true coverage alpha. Hair strands and glows are drawn live."""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

LIGHT = (np.float32([-0.45, -0.65, 0.62]) / np.float32(np.linalg.norm([-0.45, -0.65, 0.62]))).astype(np.float32)


def cap(l, r0, r1, x=0.0, y=0.0, ang=0.0):
    """Tapered capsule from (x, y) along angle `ang` (0 = down, +y), length l."""
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    dx, dy = -math.sin(ang), math.cos(ang)
    c0 = np.c_[x + r0 * np.cos(t), y + r0 * np.sin(t)]
    c1 = np.c_[x + dx * l + r1 * np.cos(t), y + dy * l + r1 * np.sin(t)]
    pts = np.concatenate([c0, c1]).astype(np.float32)
    return cv2.convexHull(pts)[:, 0, :].astype(np.float64)


def ell(cx, cy, rx, ry, rot=0.0):
    t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    x, y = rx * np.cos(t), ry * np.sin(t)
    c, s = math.cos(rot), math.sin(rot)
    return np.c_[cx + c * x - s * y, cy + s * x + c * y]


def poly(pts, smooth=2):
    p = np.asarray(pts, np.float64)
    for _ in range(smooth):  # Chaikin corner cutting
        q = np.roll(p, -1, axis=0)
        p = np.stack([0.75 * p + 0.25 * q, 0.25 * p + 0.75 * q], 1).reshape(-1, 2)
    return p


@dataclass
class Part:
    name: str
    bone: str
    shapes: list
    color: tuple
    z: int
    shade: float = 1.0
    spec: float = 0.0
    tex: float = 0.0
    details: list = field(default_factory=list)  # ("line", pts, rgb, w) | ("fill", pts, rgb)
    far: bool = False


@dataclass
class Char:
    bones: dict          # name -> (parent or None, (ox, oy))
    parts: list
    rest: dict
    style: str = "shaded"  # shaded | cel | flat | pixel
    ink: tuple = (22, 18, 26)
    ink_w: float = 0.0     # per-part outline width, final px
    strands: list = field(default_factory=list)  # dicts: anchor, len, w, ang, curl, col
    strand_z: int = 0
    leg: float = 146.0
    name: str = ""

    def order(self):
        out, left = [], dict(self.bones)
        while left:
            for b, (p, _) in list(left.items()):
                if p is None or p in out:
                    out.append(b)
                    del left[b]
        return out


def _noise(h, w, seed, k):
    rng = np.random.default_rng(seed)
    lo = cv2.resize(rng.normal(0, 1, (max(2, h // int(6 * k) + 2), max(2, w // int(6 * k) + 2))).astype(np.float32),
                    (w, h), interpolation=cv2.INTER_CUBIC)
    fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), max(0.6, k * 0.5))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weave = np.sin(xx * 2.1 / k) * np.sin(yy * 2.1 / k)
    return 0.45 * lo + 0.9 * fine * 2.0 + 0.25 * weave


def bake(part: Part, k: float, ink=(0, 0, 0), ink_w=0.0):
    """Part -> (tex (h, w, 9) premultiplied float32, (x0, y0) its top-left in SS px)."""
    polys = [np.asarray(s, np.float64) * k for s in part.shapes]
    allp = np.concatenate(polys)
    x0, y0 = np.floor(allp.min(0)) - 4
    x1, y1 = np.ceil(allp.max(0)) + 4
    w, h = int(x1 - x0), int(y1 - y0)
    mask = np.zeros((h, w), np.uint8)
    for p in polys:
        cv2.fillPoly(mask, [np.rint((p - (x0, y0)) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    a = mask.astype(np.float32) / 255
    d = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 5)
    u = np.clip(d / max(d.max() * 0.95, 1.0), 0, 1)
    gx = cv2.Sobel(d, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(d, cv2.CV_32F, 0, 1, ksize=3)
    gn = np.sqrt(gx * gx + gy * gy) + 1e-6
    nz = np.sqrt(np.clip(1 - (1 - u) ** 2, 0, 1))
    nx, ny = -gx / gn * (1 - u), -gy / gn * (1 - u)
    alb = np.zeros((h, w, 3), np.uint8)
    alb[:] = part.color
    for det in part.details:
        pts = [np.rint((np.asarray(det[1], np.float64) * k - (x0, y0)) * 16).astype(np.int32)]
        if det[0] == "line":
            cv2.polylines(alb, pts, False, det[2], max(1, int(round(det[3] * k))), cv2.LINE_AA, 4)
        else:
            cv2.fillPoly(alb, pts, det[2], cv2.LINE_AA, 4)
    alb = alb.astype(np.float32) / 255
    if part.tex:
        alb *= (1 + part.tex * _noise(h, w, zlib.crc32(part.name.encode()), k))[..., None]
    if part.far:
        alb *= 0.78
    if ink_w:
        m = np.clip(ink_w * k - d + 0.5, 0, 1)[..., None]
        alb = alb * (1 - m) + np.float32(ink) / 255 * m
    alb = np.clip(alb, 0, 1)
    ch = [alb[..., 0], alb[..., 1], alb[..., 2], np.ones_like(a), nx, ny, nz,
          np.full_like(a, part.shade), np.full_like(a, part.spec)]
    return np.dstack([c * a for c in ch]).astype(np.float32), (x0, y0)


def rot(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def tr(x, y):
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1.0]])


def bone_mats(ch: Char, pose: dict, scale: float, root, sx: float = 1.0):
    """Bone -> 3x3 matrix from its local units to world (final) pixels."""
    mats = {}
    for b in ch.order():
        par, (ox, oy) = ch.bones[b]
        ang = ch.rest.get(b, 0.0) + pose.get(b, 0.0)
        if par is None:
            base = tr(*root) @ np.diag([sx * scale, scale, 1.0])
            mats[b] = base @ tr(ox, oy) @ rot(ang)
        else:
            mats[b] = mats[par] @ tr(ox, oy) @ rot(ang)
    return mats


def over(dst, src, y, x):
    """Premultiplied `src` over `dst` at (y, x), clipped to dst."""
    h, w = src.shape[:2]
    ya, xa, yb, xb = max(y, 0), max(x, 0), min(y + h, dst.shape[0]), min(x + w, dst.shape[1])
    if ya >= yb or xa >= xb:
        return
    s = src[ya - y:yb - y, xa - x:xb - x]
    d = dst[ya:yb, xa:xb]
    d *= 1 - s[..., 3:4]
    d += s


def part_corners(tex, org, M, k):
    h, w = tex.shape[:2]
    c = np.array([[0, 0], [w, 0], [0, h], [w, h]], np.float64) + org
    c = c / k
    return (M[:2, :2] @ c.T).T + M[:2, 2]


def light(C, style):
    """Lit premultiplied RGBA (h, w, 4) from the 9-channel canvas (covered pixels only)."""
    out = np.zeros(C.shape[:2] + (4,), np.float32)
    idx = np.nonzero(C[..., 3] > 1e-4)
    c = C[idx]
    a = c[:, 3:4]
    inv = 1 / a
    alb = c[:, :3] * inv
    n = c[:, 4:7]
    n = n / (np.sqrt((n * n).sum(1, keepdims=True)) + 1e-6)
    s, sp = c[:, 7:8] * inv, c[:, 8] * inv[:, 0]
    ndl = n @ LIGHT
    cel = style in ("cel", "pixel")
    if cel:
        diff = 0.55 * np.clip((ndl - 0.2) / 0.06 + 0.5, 0, 1) + 0.45 * np.clip((ndl - 0.75) / 0.06 + 0.5, 0, 1)
    else:
        diff = np.clip(ndl, 0, 1)
    hv = LIGHT + np.float32([0, 0, 1])
    hv /= np.linalg.norm(hv)
    gl = sp * np.clip(n @ hv, 0, 1) ** 28 * 0.7
    if cel:
        gl = sp * 0.6 * (gl > 0.2 * sp)
    lit = alb * (0.5 + 0.62 * diff)[:, None] + gl[:, None]
    col = alb if style == "flat" else alb * (1 - s) + lit * s
    out[idx] = np.concatenate([np.clip(col, 0, 1) * a, a], 1)
    return out
