"""Trial 38 screen and spill: the backdrop a video model paints behind the character
(colour gradient, vignette, slow mottle, per-frame grain and flicker, settling in from the
user's flat canvas after frame 0), a soft contact shadow cast from the feet (screen
only, never the truth), and light wrap: the screen's light mixed into the character's
opaque pixels near its silhouette, fading inward over `width` px."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass
class ScreenSpec:
    canvas: tuple = (0, 255, 0)      # the user's flat canvas under the portrait (frame 0)
    green: tuple = (30, 204, 48)     # the model's screen from frame `settle` on
    grad: float = 0.12               # brightness change across the frame (fraction)
    grad_deg: float = 70.0           # gradient direction (0: left to right, 90: top down)
    grad_rgb: tuple = (0, 0, 0)      # colour added at the gradient's far end (levels)
    vignette: float = 0.2            # corner darkening (fraction)
    mottle: float = 0.025            # slow drifting blotches (fraction)
    noise: float = 2.0               # per-frame grain, sigma in levels
    flicker: float = 0.015           # per-frame brightness wobble (fraction)
    settle: int = 3                  # frames from the canvas to the model's screen
    shadow: float = 0.0              # contact shadow depth (fraction), 0: none
    ground: float | None = None      # ground line in px for the shadow (default: feet)
    seed: int = 0


class Screen:
    def __init__(self, spec: ScreenSpec, H: int, W: int):
        self.s, self.H, self.W = spec, H, W
        rng = np.random.default_rng(spec.seed)
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        a = np.radians(spec.grad_deg)
        g = ((xx - W / 2) * np.cos(a) + (yy - H / 2) * np.sin(a)) / (0.5 * np.hypot(W, H))
        r2 = ((xx - W / 2) / (W / 2)) ** 2 + ((yy - H / 2) / (H / 2)) ** 2
        vig = 1 - spec.vignette * np.clip(r2 / 2, 0, 1) ** 1.3
        base = np.array(spec.green, np.float32) / 255
        self.base = (base * (1 + spec.grad * g)[..., None] * vig[..., None]
                     + (np.array(spec.grad_rgb, np.float32) / 255) * (0.5 + 0.5 * g)[..., None])
        self.flick = 1 + spec.flicker * np.convolve(rng.standard_normal(400), [0.5, 0.5], "same")
        small = rng.standard_normal((6, 16, 16)).astype(np.float32)
        self.mottle = [cv2.resize(m, (2 * W, 2 * H), interpolation=cv2.INTER_CUBIC) for m in small]
        self.rng = np.random.default_rng(spec.seed + 1)
        self.canvas = np.broadcast_to(np.array(spec.canvas, np.float32) / 255, (H, W, 3))

    def model(self, t):
        """The model's screen at frame t, without grain (what the light wrap carries)."""
        s = self.s
        k = (t * 0.07) % len(self.mottle)
        i, f = int(k), k - int(k)
        m0, m1 = self.mottle[i], self.mottle[(i + 1) % len(self.mottle)]
        ox, oy = int(self.W * 0.5 * (1 + np.sin(t * 0.05))), int(self.H * 0.5 * (1 + np.cos(t * 0.04)))
        mot = (m0 * (1 - f) + m1 * f)[oy:oy + self.H, ox:ox + self.W]
        scr = self.base * (self.flick[t] * (1 + s.mottle * mot))[..., None]
        return scr

    def frame(self, t, alpha=None):
        """(screen as shown, screen the wrap carries) for frame t; frame 0 is the canvas."""
        s = self.s
        if t == 0:
            c = np.array(self.canvas, np.float32)
            return c, c
        clean = self.model(t)
        if t < s.settle:
            k = t / s.settle
            clean = self.canvas * (1 - k) + clean * k
        if s.shadow and alpha is not None:
            clean = clean * (1 - s.shadow * self.shadow(alpha))[..., None]
        grain = self.rng.standard_normal((self.H, self.W, 3)).astype(np.float32)
        lum = self.rng.standard_normal((self.H, self.W, 1)).astype(np.float32)
        shown = clean + (s.noise / 255) * (0.55 * grain + 0.8 * lum)
        return shown, clean

    def shadow(self, alpha):
        """A soft dark ellipse under the feet: the alpha's lowest band, spread and blurred."""
        rows = np.nonzero(alpha.max(1) > 0.5)[0]
        if not len(rows):
            return np.zeros_like(alpha)
        feet = rows[-1] if self.s.ground is None else int(self.s.ground)
        band = alpha[max(feet - 10, 0):feet + 1].max(0)
        if band.max() < 0.3:
            band = alpha.max(0) * 0.3
        prof = cv2.GaussianBlur(band[None, :].astype(np.float32), (0, 0), 9)[0]
        xs = np.nonzero(prof > 0.05)[0]
        if len(xs):
            cx, half = (xs[0] + xs[-1]) / 2, (xs[-1] - xs[0]) / 2
            prof = np.maximum(prof, 0.6 * np.exp(-((np.arange(self.W) - cx) / (half * 1.25 + 4)) ** 2))
        ry = max(3.0, 0.012 * self.H)
        yy = np.arange(self.H, dtype=np.float32) - (feet - 0.5 * ry)
        vert = np.exp(-(yy / ry) ** 2)
        return np.clip(prof[None, :] * vert[:, None], 0, 1)


def wrap_weight(alpha, width, strength, mode):
    """How much screen light each pixel of the character takes, 0..strength."""
    if mode == "blur":  # a compositor's light wrap: the screen's mask blurred inward
        m = cv2.GaussianBlur(1 - alpha, (0, 0), width / 2.0)
        return strength * np.clip(2 * m, 0, 1) ** 1.2
    solid = (alpha >= 0.5).astype(np.uint8)
    d = cv2.distanceTransform(solid, cv2.DIST_L2, 5) - 0.5
    d = np.where(solid > 0, d, 0.0).astype(np.float32)
    if mode == "lin":
        w = np.clip(1 - d / width, 0, 1) ** 1.5
    elif mode == "exp":
        w = np.exp(-3.0 * d / width)
    else:
        raise ValueError(mode)
    return (strength * cv2.GaussianBlur(w, (0, 0), 0.7)).astype(np.float32)


def light_wrap(rgb, alpha, clean, width, strength, mode="blur", additive=False):
    """The character's straight colour with the screen's light wrapped into its edge."""
    if strength <= 0:
        return rgb
    w = wrap_weight(alpha, width, strength, mode)[..., None]
    src = cv2.GaussianBlur(clean, (0, 0), max(width / 1.5, 1.0))
    if additive:  # light added over the colour rather than mixed into it
        return np.clip(rgb + w * src * 0.9, 0, 1)
    return rgb * (1 - w) + src * w


def composite(rgb, alpha, shown):
    a = alpha[..., None]
    return rgb * a + shown * (1 - a)
