"""Trial 38 geometry: vector shapes as polygons in a bone's local units, and the rig.

Every shape is a closed polygon (an (n, 2) float array, x right, y down). Limbs hang
along their bone's local +y; a bone's angle turns it clockwise on screen (y down), so
-90 degrees points a hanging limb forward (+x) for a character facing right.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np


def ellipse(cx, cy, rx, ry, n=40, rot=0.0):
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    x, y = rx * np.cos(a), ry * np.sin(a)
    c, s = np.cos(np.radians(rot)), np.sin(np.radians(rot))
    return np.stack([cx + c * x - s * y, cy + s * x + c * y], 1)


def capsule(x0, y0, x1, y1, r0, r1, n=12):
    """A tapered limb: round caps of radius r0 at (x0, y0) and r1 at (x1, y1)."""
    phi = np.arctan2(y1 - y0, x1 - x0)
    a1 = np.linspace(phi - np.pi / 2, phi + np.pi / 2, n)
    a0 = np.linspace(phi + np.pi / 2, phi + 3 * np.pi / 2, n)
    p1 = np.stack([x1 + r1 * np.cos(a1), y1 + r1 * np.sin(a1)], 1)
    p0 = np.stack([x0 + r0 * np.cos(a0), y0 + r0 * np.sin(a0)], 1)
    return np.concatenate([p1, p0])


def bezier(ctrl, n=20):
    """A chain of cubic Bezier segments (3k+1 control points) sampled to a polyline."""
    ctrl = np.asarray(ctrl, float)
    out = []
    for i in range(0, len(ctrl) - 1, 3):
        p0, p1, p2, p3 = ctrl[i:i + 4]
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        out.append((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1
                   + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3)
    out.append(ctrl[-1:])
    return np.concatenate(out)


def smooth_path(pts, n=8):
    """A Catmull-Rom curve through the points (open)."""
    p = np.asarray(pts, float)
    p = np.concatenate([p[:1] * 2 - p[1:2], p, p[-1:] * 2 - p[-2:-1]])
    out = []
    t = np.linspace(0, 1, n, endpoint=False)[:, None]
    for i in range(1, len(p) - 2):
        a, b, c, d = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t ** 2
                          + (-a + 3 * b - 3 * c + d) * t ** 3))
    out.append(p[-2:-1])
    return np.concatenate(out)


def closed_smooth(pts, n=8):
    """A closed Catmull-Rom curve through the points."""
    p = np.asarray(pts, float)
    q = np.concatenate([p[-1:], p, p[:2]])
    return smooth_path(q, n)[n:-1 - n] if len(p) > 2 else p


def stroke(path, w0, w1=None, wmid=None):
    """A strip of width w0 at the start tapering to w1 at the end (0 gives a point)."""
    p = np.asarray(path, float)
    w1 = w0 if w1 is None else w1
    s = np.linspace(0, 1, len(p))
    w = w0 + (w1 - w0) * s
    if wmid is not None:
        w = w + (wmid - (w0 + w1) / 2) * np.sin(np.pi * s)
    d = np.gradient(p, axis=0)
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    nrm = np.stack([-d[:, 1], d[:, 0]], 1) * (w / 2)[:, None]
    return np.concatenate([p + nrm, (p - nrm)[::-1]])


def poly(*pts):
    return np.asarray(pts, float)


def blade(length, w, tip=0.0, guard=0.0, curve=0.0):
    """A blade along +y from the grip at 0: full width w, tapering to `tip` at the end."""
    y = np.linspace(0, length, 16)
    half = np.where(y < length * 0.8, w / 2,
                    w / 2 + (tip / 2 - w / 2) * (y - length * 0.8) / (length * 0.2))
    x = curve * (y / length) ** 2
    return np.concatenate([np.stack([x + half, y], 1), np.stack([x - half, y], 1)[::-1]])


def tufts(path, count, length, width, rng, jitter=0.35, side=1.0):
    """Fur or feather points along a path, each a thin triangle pointing out of it."""
    p = smooth_path(path, 10)
    seg = np.hypot(*np.diff(p, axis=0).T)
    cum = np.concatenate([[0], np.cumsum(seg)])
    out = []
    for k in range(count):
        s = (k + rng.uniform(0.2, 0.8)) / count * cum[-1]
        i = min(np.searchsorted(cum, s), len(p) - 1)
        i0 = max(i - 1, 0)
        d = p[i] - p[i0] if i > i0 else p[1] - p[0]
        d = d / max(np.hypot(*d), 1e-9)
        nrm = np.array([d[1], -d[0]]) * side
        L = length * rng.uniform(1 - jitter, 1 + jitter)
        tipdir = nrm + d * rng.uniform(-0.6, -0.1)
        tipdir /= np.hypot(*tipdir)
        base = p[i]
        out.append(np.array([base - d * width / 2, base + tipdir * L,
                             base + d * width / 2, base - nrm * width * 0.4]))
    return out


def feather(length, w, curl=0.0):
    """A long feather along +y: a leaf shape with a slight curl."""
    y = np.linspace(0, length, 14)
    half = w / 2 * np.sin(np.pi * np.clip(y / length, 0, 1)) ** 0.7
    half[0] = w * 0.08
    x = curl * (y / length) ** 2
    return np.concatenate([np.stack([x + half, y], 1), np.stack([x - half, y], 1)[::-1]])


# ---------------------------------------------------------------- rig

def rot(deg):
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def trans(x, y):
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1.0]])


def scale(sx, sy):
    return np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1.0]])


@dataclass
class Part:
    bone: str
    geom: list | Callable  # list of polygons, or fn(pose) -> list of polygons
    paint: object
    z: float = 0.0
    alpha: float = 1.0
    holes: list | Callable | None = None
    ink: float = 0.0  # outline width in output pixels


@dataclass
class Rig:
    bones: dict = field(default_factory=dict)  # name -> (parent, x, y, angle)
    parts: list = field(default_factory=list)
    ink_rgb: tuple = (0.08, 0.06, 0.07)

    def bone(self, name, parent, x=0.0, y=0.0, a=0.0):
        self.bones[name] = (parent, x, y, a)

    def add(self, bone, geom, paint, z=0.0, **kw):
        self.parts.append(Part(bone, geom if callable(geom) or isinstance(geom, list)
                               else [geom], paint, z, **kw))

    def world(self, pose):
        """Each bone's 3x3 local-units -> character-units matrix for a pose dict."""
        rx, ry = pose.get("root", (0.0, 0.0))
        root = (trans(rx, ry) @ scale(pose.get("sx", 1.0), pose.get("sy", 1.0))
                @ rot(pose.get("rot", 0.0)))
        out = {}

        def get(name):
            if name in out:
                return out[name]
            parent, x, y, a = self.bones[name]
            m = (root if parent is None else get(parent)) @ trans(x, y) @ rot(a + pose.get(name, 0.0))
            out[name] = m
            return m

        for name in self.bones:
            get(name)
        return out
