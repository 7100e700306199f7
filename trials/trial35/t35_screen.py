"""The backdrop a video model paints behind the character: a screen with gradient,
vignette, static mottling, per-frame flicker and grain; variants: two hues with a soft
diagonal seam, a dim underexposed screen; plus what lies on it and is not the character:
a soft contact shadow, a glossy floor's reflection, letterbox bars."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class ScreenSpec:
    color: tuple = (28, 196, 52)          # the screen's middle colour
    color2: tuple | None = None           # second hue (two-tone), or None
    seam_angle: float = 0.35              # rad from vertical, two-tone seam
    seam_width: float = 0.18              # fraction of the width, soft seam
    grad: tuple = (0.08, -0.10)           # brightness change across x and down y
    vignette: float = 0.22                # darkening at the corners
    mottle: float = 0.05                  # static low-frequency unevenness
    flicker: float = 0.025                # per-frame global gain wobble
    drift: float = 0.03                   # per-frame low-frequency moving unevenness
    grain: float = 2.0                    # per-frame grain sigma (levels)
    gain: float = 1.0                     # exposure (dim screen < 1)


def _lowfreq(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.standard_normal((cells, max(2, cells * w // h))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (big.std() + 1e-6)


class Screen:
    def __init__(self, w: int, h: int, spec: ScreenSpec, seed: int):
        self.w, self.h, self.spec = w, h, spec
        rng = np.random.default_rng(seed)
        self.seed = seed
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u, v = xx / (w - 1) - 0.5, yy / (h - 1) - 0.5
        shade = 1.0 + spec.grad[0] * 2 * u + spec.grad[1] * 2 * v
        r2 = (u * 2) ** 2 * 0.5 + (v * 2) ** 2 * 0.5
        shade *= 1.0 - spec.vignette * np.clip(r2, 0, 1.2) ** 1.3
        shade *= 1.0 + spec.mottle * _lowfreq(rng, h, w, 5)
        c1 = np.array(spec.color, np.float32)
        if spec.color2 is None:
            col = np.broadcast_to(c1, (h, w, 3))
        else:
            c2 = np.array(spec.color2, np.float32)
            s = (u * np.cos(spec.seam_angle) + v * np.sin(spec.seam_angle)) / spec.seam_width
            m = 1.0 / (1.0 + np.exp(-4.0 * s))  # 0 left .. 1 right
            col = c1 * (1 - m[..., None]) + c2 * m[..., None]
        self.base = (col * shade[..., None] * spec.gain).astype(np.float32)
        self.drift_a = _lowfreq(rng, h, w, 3)
        self.drift_b = _lowfreq(rng, h, w, 3)

    def frame(self, t: int) -> np.ndarray:
        """The screen in frame t, float32 (H, W, 3), before shadow and character."""
        sp = self.spec
        rng = np.random.default_rng(self.seed * 1000 + t + 7)
        ph = 2 * np.pi * t / 37.0
        g = 1.0 + sp.flicker * (0.6 * np.sin(2 * np.pi * t / 5.3) + 0.8 * rng.standard_normal())
        g = g * (1.0 + sp.drift * (np.cos(ph) * self.drift_a + np.sin(ph) * self.drift_b))
        out = self.base * g[..., None]
        return out

    def grain(self, t: int, img: np.ndarray) -> np.ndarray:
        """Per-frame grain over the whole picture (luma-heavy, a little chroma)."""
        sp = self.spec
        if sp.grain <= 0:
            return img
        rng = np.random.default_rng(self.seed * 7919 + t)
        n = rng.standard_normal((self.h, self.w, 1), dtype=np.float32) * sp.grain
        c = rng.standard_normal((self.h // 2, self.w // 2, 3), dtype=np.float32) * sp.grain * 0.35
        c = cv2.resize(c, (self.w, self.h), interpolation=cv2.INTER_LINEAR)
        return img + n + c


def contact_shadow(bg: np.ndarray, cx: float, cy: float, rx: float, ry: float,
                   strength: float) -> np.ndarray:
    """Darken the screen in a soft ellipse under the feet (not part of the truth)."""
    h, w = bg.shape[:2]
    x0, x1 = int(max(0, cx - 2.5 * rx)), int(min(w, cx + 2.5 * rx))
    y0, y1 = int(max(0, cy - 3 * ry)), int(min(h, cy + 3 * ry))
    if x1 <= x0 or y1 <= y0:
        return bg
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d2 = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
    m = np.exp(-1.2 * d2) * strength
    out = bg.copy()
    out[y0:y1, x0:x1] *= (1.0 - m)[..., None]
    return out


def floor_reflection(bg: np.ndarray, rgba: np.ndarray, floor_y: int, strength: float,
                     fade: float) -> np.ndarray:
    """A glossy floor: the character mirrored about floor_y, blurred downward and
    fading with distance, laid on the screen below the floor line (not in the truth)."""
    h = bg.shape[0]
    n = min(h - floor_y, floor_y)
    if n <= 2:
        return bg
    src = rgba[floor_y - n:floor_y][::-1].astype(np.float32) / 255.0  # row floor_y-1 first
    a = src[..., 3:4]
    pm = np.concatenate([src[..., :3] * a, a], axis=-1)
    pm = cv2.GaussianBlur(pm, (0, 0), sigmaX=1.2, sigmaY=3.0)
    k = (strength * np.exp(-np.arange(n, dtype=np.float32) / fade))[:, None, None]
    out = bg.copy()
    seg = out[floor_y:floor_y + n]
    seg[:] = seg * (1 - k * pm[..., 3:4]) + k * pm[..., :3] * 255.0 * 0.8
    return out


def letterbox(img: np.ndarray, bar: int, t: int, seed: int) -> np.ndarray:
    """Near-black bars top and bottom (the picture between them is the clip)."""
    if bar <= 0:
        return img
    rng = np.random.default_rng(seed + 31 * t)
    out = img.copy()
    for sl in (slice(0, bar), slice(img.shape[0] - bar, img.shape[0])):
        out[sl] = 3.0 + rng.standard_normal(out[sl].shape[:2] + (1,)).astype(np.float32) * 0.8
    return out
