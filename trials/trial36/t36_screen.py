"""Trial 36: the green (or blue) screen as a video model renders it.

A base colour with a linear gradient and a vignette (fixed per clip), a global
flicker (smoothed random gain per frame), fresh grain every frame (luma grain
plus weaker chroma grain, slightly soft), optional rolling bands (an LED-lit
screen filmed by a rolling shutter: a few % of gain in horizontal bands that
drift every frame), and a soft contact shadow under the feet.  Frame 0 is the
portrait over the user's flat canvas; the model's own screen takes over in
`settle` frames.
"""

from __future__ import annotations

import cv2
import numpy as np


class Screen:
    def __init__(self, w, h, n, spec: dict, seed: int):
        self.w, self.h, self.n, self.s = w, h, n, spec
        rng = np.random.default_rng(seed)
        self.rng = rng
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = spec.get("grad_dir", 1.2)
        u = ((xx - w / 2) * np.cos(ang) + (yy - h / 2) * np.sin(ang)) / max(w, h)
        field = 1.0 + spec.get("grad", 0.12) * u * 2
        r = np.hypot((xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)) / np.sqrt(2)
        field *= 1.0 - spec.get("vignette", 0.2) * r ** 2.2
        base = np.asarray(spec["rgb"], np.float32)
        tint = np.asarray(spec.get("tint", (0, 0, 0)), np.float32)  # colour shift across u
        self.static = field[..., None] * base + (u * 2)[..., None] * tint
        g = rng.normal(0, 1, n + 8)
        g = np.convolve(g, np.ones(4) / 4, "same")[4:4 + n]
        self.gain = 1.0 + spec.get("flicker", 0.015) * g / (np.abs(g).max() + 1e-6)
        self.phase = rng.uniform(0, 6.28)
        self.canvas = np.asarray(spec.get("canvas", (0, 254, 0)), np.float32)
        self.settle = spec.get("settle", 3)

    def frame(self, i: int, shadows=()) -> np.ndarray:
        """(h, w, 3) float32 backdrop of frame i with the given contact shadows."""
        s, h, w = self.s, self.h, self.w
        img = self.static * self.gain[i]
        bands = s.get("bands")
        if bands:
            amp, period, speed = bands
            y = np.arange(h, dtype=np.float32)
            gy = 1 + amp * np.sin(2 * np.pi * (y / period) + self.phase + speed * i)
            gy *= 1 + 0.35 * amp * np.sin(2 * np.pi * y / (period * 2.7) - 0.6 * speed * i)
            img = img * gy[:, None, None]
        sig = s.get("grain", 2.5)
        if sig:
            lum = self.rng.normal(0, sig, (h, w, 1)).astype(np.float32)
            chro = self.rng.normal(0, sig * 0.45, (h, w, 3)).astype(np.float32)
            nz = cv2.GaussianBlur(lum + chro, (0, 0), 0.6)
            img = img + nz
        for sh in shadows:
            img = apply_shadow(img, *sh)
        if i < self.settle:  # frame 0 is the flat canvas, then the model's screen
            a = (i / self.settle) ** 0.8
            img = self.canvas * (1 - a) + img * a
        return np.clip(img, 0, 255)

    def wrap_mix(self, i: int) -> float:
        """How much light wrap frame i has (none on the input frame)."""
        return float(min(1.0, i / max(self.settle, 1)))


def apply_shadow(img, cx, cy, rx, ry, strength, blur):
    """Darken an elliptic soft patch (a contact shadow) of img in place; returns img."""
    h, w = img.shape[:2]
    m = int(3 * blur + ry + 4)
    x0, x1 = max(0, int(cx - rx - m)), min(w, int(cx + rx + m))
    y0, y1 = max(0, int(cy - ry - m)), min(h, int(cy + ry + m))
    if x1 <= x0 or y1 <= y0:
        return img
    pat = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.ellipse(pat, (int(round((cx - x0) * 4)), int(round((cy - y0) * 4))),
                (int(rx * 4), int(ry * 4)), 0, 0, 360, 1.0, -1, cv2.LINE_AA, 2)
    pat = cv2.GaussianBlur(pat, (0, 0), blur)
    img[y0:y1, x0:x1] *= (1 - strength * pat)[..., None]
    return img


def letterbox(rgb: np.ndarray, bar: int, seed: int) -> np.ndarray:
    """Near-black bars of `bar` px at top and bottom (the model's letterbox)."""
    rng = np.random.default_rng(seed)
    out = rgb.copy()
    for sl in (slice(0, bar), slice(rgb.shape[0] - bar, None)):
        blk = 3 + rng.normal(0, 0.8, out[sl].shape)
        out[sl] = np.clip(blk, 0, 255)
    return out
