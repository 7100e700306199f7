"""Trial 37 screen and composite: the user's flat canvas in frame 0 (the model's input),
then the model's own green (gradient, vignette, mottle, grain, flicker) settling in; a soft
contact shadow; light wrap into opaque pixels near the edge; an optional pale rim; ghosting."""
from __future__ import annotations

import math

import cv2
import numpy as np


class Screen:
    def __init__(self, w, h, spec, seed):
        self.w, self.h, self.sp = w, h, spec
        self.rng = np.random.default_rng(seed)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        x, y = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
        ang, amp = spec.get("grad", (90, 0.08))
        g = 1 + amp * (math.cos(math.radians(ang)) * x + math.sin(math.radians(ang)) * y)
        r2 = (x * x * w * w + y * y * h * h) / float(w * w + h * h)  # 1 in the corners
        v = 1 - spec.get("vig", 0.12) * r2 ** 1.3
        lo = self.rng.normal(0, 1, (h // 48 + 3, w // 48 + 3)).astype(np.float32)
        mot = 1 + spec.get("mottle", 0.02) * cv2.resize(lo, (w, h), interpolation=cv2.INTER_CUBIC)
        self.base = (np.float32(spec["col"])[None, None] * (g * v * mot)[..., None]).astype(np.float32)
        self.canvas = np.float32(spec.get("canvas", (0, 255, 0)))

    def frame(self, t):
        """(backdrop (h, w, 3) float 0..255, settle 0..1) for video frame t."""
        sp = self.sp
        if t == 0:
            return np.broadcast_to(self.canvas, (self.h, self.w, 3)).astype(np.float32), 0.0
        e = min(1.0, t / max(sp.get("settle", 3), 1))
        e = e * e * (3 - 2 * e)
        f = sp.get("flicker", 0.02)
        gain = 1 + f * (0.6 * math.sin(2 * math.pi * t / 9.3) + 0.4 * self.rng.normal())
        tint = 1 + 0.004 * self.rng.normal(size=3).astype(np.float32)
        b = self.base * np.float32(gain) * tint
        gr = self.rng.normal(0, sp.get("grain", 3.0), (self.h, self.w, 1)).astype(np.float32)
        gr = cv2.GaussianBlur(gr, (0, 0), 0.7)[..., None] * 1.6
        b = b + gr
        return self.canvas * (1 - e) + b * e, e


def shadow(w, h, cx, gy, rx, ry, strength):
    """Multiplier (h, w) darkening a soft ellipse under the feet."""
    m = np.zeros((h, w), np.float32)
    cv2.ellipse(m, (int(cx * 4), int(gy * 4)), (int(rx * 4), int(ry * 4)), 0, 0, 360, 1.0, -1,
                cv2.LINE_AA, 2)
    m = cv2.GaussianBlur(m, (0, 0), max(2.0, ry * 0.9))
    return 1 - strength * m / max(m.max(), 1e-6)


def wrap_weight(a, width, strength, kind="blur", power=1.0):
    """How much of the backdrop's colour each character pixel takes (0 outside it)."""
    if width <= 0 or strength <= 0:
        return np.zeros_like(a)
    if kind == "blur":
        k = cv2.GaussianBlur(1 - a, (0, 0), width / 2.0)
        w = np.clip(2 * k, 0, 1) ** power
    else:
        m = (a > 0.5).astype(np.uint8)
        d = cv2.distanceTransform(m, cv2.DIST_L2, 5)
        w = np.where(m > 0, np.clip(1 - (d - 0.5) / width, 0, 1) ** power, 1.0)
    return (strength * w * (a > 0)).astype(np.float32)


def composite(prem, back, wrap, rim=None):
    """Character (premultiplied 0..1) over the backdrop (0..255) with light wrap."""
    a = prem[..., 3:4]
    width, strength, kind, power = wrap
    w = wrap_weight(prem[..., 3], width, strength, kind, power)[..., None]
    if strength > 0:
        spill = cv2.GaussianBlur(back, (0, 0), max(1.0, width * 1.5))
        fg = prem[..., :3] * 255 * (1 - w) + spill * w * a
    else:
        fg = prem[..., :3] * 255
    out = fg + back * (1 - a)
    if rim is not None:  # a pale outline the model draws round the figure (not the character)
        col, amt, px = rim
        ring = cv2.dilate(prem[..., 3], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * px + 1,) * 2))
        ring = cv2.GaussianBlur(np.clip(ring - prem[..., 3], 0, 1), (0, 0), 0.6)[..., None] * amt
        out = out * (1 - ring) + np.float32(col) * ring
    return out
