"""Rasteriser for procedural characters: capsules, ellipses and polygons drawn with
OpenCV at 4x in a box round the figure, coloured flat, shaded (a dome normal from each
part's own distance field, lit from the upper left), textured (a noise pattern fixed to
the part), with ink outlines; strands and blades as sub-pixel lines; box-averaged down
so the edges carry coverage alpha. Returns premultiplied float RGBA at frame size."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

S = 4          # supersampling
SH = 4         # cv2 fractional bits
LIGHT = np.array([-0.45, -0.62, 0.64], np.float32)
LIGHT /= np.linalg.norm(LIGHT)


@dataclass
class Part:
    kind: str                 # 'cap' (x0,y0,x1,y1,r0,r1) | 'ell' (cx,cy,rx,ry,deg) | 'poly' [(x,y)..]
    geom: tuple
    color: tuple
    style: str = "flat"       # flat | shaded | tex
    ink: float = 0.0          # outline width in px (final)
    ink_color: tuple = (22, 18, 24)
    tex_amp: float = 0.0
    tex_scale: float = 1.0


@dataclass
class Line:
    pts: list                 # [(x, y), ...] final px
    width: float              # px (final); 0.25 is one supersample pixel
    color: tuple
    taper: bool = False       # thins to a point at the end


@dataclass
class Figure:
    parts: list = field(default_factory=list)   # drawn in order (painter)
    lines_after: dict = field(default_factory=dict)  # index -> [Line] drawn after part i


def _tex(seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    t = rng.standard_normal((256, 256)).astype(np.float32)
    big = np.tile(t, (3, 3))  # blur the tiled copy: the middle tile stays seamless
    a = cv2.GaussianBlur(big, (0, 0), 2.0)[256:512, 256:512]
    b = cv2.GaussianBlur(big, (0, 0), 0.8)[256:512, 256:512]
    weave = np.sin(np.arange(256, dtype=np.float32) * 2 * np.pi / 8)[None, :] * 0.6
    t = a / a.std() + 0.5 * b / b.std() + weave
    return t / t.std()


TEX = _tex()


def _part_bounds(p: Part) -> tuple[float, float, float, float]:
    e = p.ink + 1.5
    if p.kind == "cap":
        x0, y0, x1, y1, r0, r1 = p.geom
        r = max(r0, r1) + e
        return min(x0, x1) - r, min(y0, y1) - r, max(x0, x1) + r, max(y0, y1) + r
    if p.kind == "ell":
        cx, cy, rx, ry, _ = p.geom
        r = max(rx, ry) + e
        return cx - r, cy - r, cx + r, cy + r
    xs = [q[0] for q in p.geom]
    ys = [q[1] for q in p.geom]
    return min(xs) - e, min(ys) - e, max(xs) + e, max(ys) + e


def _fx(v: float) -> int:
    return int(round(v * S * (1 << SH)))


def _draw(mask: np.ndarray, p: Part, ox: float, oy: float, grow: float) -> None:
    """Fill part p (grown by `grow` final px) into mask, origin (ox, oy) final px."""
    if p.kind == "cap":
        x0, y0, x1, y1, r0, r1 = p.geom
        x0, y0, x1, y1 = x0 - ox, y0 - oy, x1 - ox, y1 - oy
        r0, r1 = r0 + grow, r1 + grow
        for (x, y, r) in ((x0, y0, r0), (x1, y1, r1)):
            cv2.circle(mask, (_fx(x), _fx(y)), max(1, _fx(r)), 255, -1, cv2.LINE_8, SH)
        dx, dy = x1 - x0, y1 - y0
        L = max(np.hypot(dx, dy), 1e-6)
        nx, ny = -dy / L, dx / L
        quad = np.array([[_fx(x0 + nx * r0), _fx(y0 + ny * r0)], [_fx(x1 + nx * r1), _fx(y1 + ny * r1)],
                         [_fx(x1 - nx * r1), _fx(y1 - ny * r1)], [_fx(x0 - nx * r0), _fx(y0 - ny * r0)]],
                        np.int32)
        cv2.fillConvexPoly(mask, quad, 255, cv2.LINE_8, SH)
    elif p.kind == "ell":
        cx, cy, rx, ry, deg = p.geom
        cv2.ellipse(mask, (_fx(cx - ox), _fx(cy - oy)), (_fx(rx + grow), _fx(ry + grow)), deg,
                    0, 360, 255, -1, cv2.LINE_8, SH)
    else:
        pts = np.array([[_fx(x - ox), _fx(y - oy)] for x, y in p.geom], np.int32)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_8, SH)
        if grow > 0:
            cv2.polylines(mask, [pts], True, 255, max(1, int(round(2 * grow * S))), cv2.LINE_8, SH)


def _anchor(p: Part) -> tuple[float, float, float]:
    if p.kind == "cap":
        x0, y0, x1, y1 = p.geom[:4]
        return x0, y0, np.arctan2(y1 - y0, x1 - x0)
    if p.kind == "ell":
        return p.geom[0], p.geom[1], np.deg2rad(p.geom[4])
    return p.geom[0][0], p.geom[0][1], 0.0


def _color(p: Part, mask: np.ndarray, bx: float, by: float) -> np.ndarray:
    h, w = mask.shape
    col = np.empty((h, w, 3), np.float32)
    col[:] = np.array(p.color, np.float32)
    if p.style in ("shaded", "tex"):
        d = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 5)
        R = max(float(d.max()), 1.0)
        q = np.clip(d / R, 0, 1)
        hgt = np.sqrt(np.clip(q * (2 - q), 0, 1)) * R
        gy, gx = np.gradient(hgt)
        nz = np.ones_like(gx)
        n = np.sqrt(gx * gx + gy * gy + nz)
        lam = np.clip((-gx * LIGHT[0] - gy * LIGHT[1] + nz * LIGHT[2]) / n, 0, 1)
        shade = 0.38 + 0.72 * lam
        col *= shade[..., None]
    if p.tex_amp > 0:
        ax, ay, ang = _anchor(p)
        c, s = np.cos(ang), np.sin(ang)
        k = 1.0 / (S * p.tex_scale)
        # dst (supersample px in box) -> texture coords, fixed to the part
        tx0, ty0 = (bx - ax) * S, (by - ay) * S
        m = np.float32([[c * k, s * k, (c * tx0 + s * ty0) * k],
                        [-s * k, c * k, (-s * tx0 + c * ty0) * k]])
        tex = cv2.warpAffine(TEX, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                             borderMode=cv2.BORDER_WRAP)
        col *= (1.0 + p.tex_amp * tex)[..., None]
    return np.clip(col, 0, 255)


def _line(buf_rgb, buf_a, ln: Line, ox: float, oy: float) -> None:
    pts = [(_fx(x - ox), _fx(y - oy)) for x, y in ln.pts]
    n = len(pts) - 1
    for i in range(n):
        wpx = ln.width * (1.0 - (i / n) * 0.85 if ln.taper else 1.0)
        th = max(1, int(round(wpx * S)))
        cv2.line(buf_rgb, pts[i], pts[i + 1], tuple(float(c) for c in ln.color), th, cv2.LINE_8, SH)
        cv2.line(buf_a, pts[i], pts[i + 1], 255, th, cv2.LINE_8, SH)


def render(fig: Figure, w: int, h: int) -> np.ndarray:
    """Premultiplied float32 RGBA (h, w, 4), RGB 0..255, alpha 0..1."""
    bs = [_part_bounds(p) for p in fig.parts]
    for lines in fig.lines_after.values():
        for ln in lines:
            xs = [q[0] for q in ln.pts]
            ys = [q[1] for q in ln.pts]
            bs.append((min(xs) - 2, min(ys) - 2, max(xs) + 2, max(ys) + 2))
    x0 = max(0, int(np.floor(min(b[0] for b in bs))) - 2)
    y0 = max(0, int(np.floor(min(b[1] for b in bs))) - 2)
    x1 = min(w, int(np.ceil(max(b[2] for b in bs))) + 2)
    y1 = min(h, int(np.ceil(max(b[3] for b in bs))) + 2)
    out = np.zeros((h, w, 4), np.float32)
    if x1 <= x0 or y1 <= y0:
        return out
    W, H = (x1 - x0) * S, (y1 - y0) * S
    rgb = np.zeros((H, W, 3), np.float32)
    cov = np.zeros((H, W), np.uint8)
    for i, p in enumerate(fig.parts):
        bx0, by0, bx1, by1 = _part_bounds(p)
        bx0, by0 = max(x0, int(np.floor(bx0))), max(y0, int(np.floor(by0)))
        bx1, by1 = min(x1, int(np.ceil(bx1))), min(y1, int(np.ceil(by1)))
        if bx1 > bx0 and by1 > by0:
            sy, sx = slice((by0 - y0) * S, (by1 - y0) * S), slice((bx0 - x0) * S, (bx1 - x0) * S)
            shape = ((by1 - by0) * S, (bx1 - bx0) * S)
            if p.ink > 0:
                ink = np.zeros(shape, np.uint8)
                _draw(ink, p, bx0, by0, p.ink)
                sel = ink > 0
                rgb[sy, sx][sel] = np.array(p.ink_color, np.float32)
                np.maximum(cov[sy, sx], ink, out=cov[sy, sx])
            m = np.zeros(shape, np.uint8)
            _draw(m, p, bx0, by0, 0.0)
            col = _color(p, m, bx0, by0)
            np.copyto(rgb[sy, sx], col, where=(m > 0)[..., None])
            np.maximum(cov[sy, sx], m, out=cov[sy, sx])
        for ln in fig.lines_after.get(i, []):
            _line(rgb, cov, ln, x0, y0)
    a = cov.astype(np.float32) / 255.0
    pm = np.concatenate([rgb * a[..., None], a[..., None]], axis=-1)
    small = cv2.resize(pm, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    out[y0:y1, x0:x1] = small
    return out
