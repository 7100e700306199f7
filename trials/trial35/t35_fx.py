"""What the model does to the character on its way into the picture: light wrap of the
screen into opaque pixels near the silhouette, the composite over the screen, ghosting of
the previous frame. The truth is the character before any of these."""

from __future__ import annotations

import cv2
import numpy as np


def premul(rgba: np.ndarray) -> np.ndarray:
    """uint8 or float straight RGBA (0..255) -> float32 premultiplied, alpha 0..1."""
    f = rgba.astype(np.float32)
    a = f[..., 3:4] / 255.0
    return np.concatenate([f[..., :3] * a, a], axis=-1)


def unpremul(pm: np.ndarray) -> np.ndarray:
    """float32 premultiplied (alpha 0..1) -> uint8 straight RGBA."""
    a = np.clip(pm[..., 3:4], 0.0, 1.0)
    rgb = np.where(a > 1e-4, pm[..., :3] / np.maximum(a, 1e-4), 0.0)
    out = np.concatenate([np.clip(rgb, 0, 255), a * 255.0], axis=-1)
    out = np.clip(np.rint(out), 0, 255).astype(np.uint8)
    out[out[..., 3] == 0, :3] = 0
    return out


def bbox(alpha: np.ndarray, pad: int, shape: tuple) -> tuple[slice, slice] | None:
    ys, xs = np.nonzero(alpha)
    if len(ys) == 0:
        return None
    h, w = shape[:2]
    return (slice(max(0, ys.min() - pad), min(h, ys.max() + pad + 1)),
            slice(max(0, xs.min() - pad), min(w, xs.max() + pad + 1)))


def light_wrap(rgba: np.ndarray, bg: np.ndarray, width: float, strength: float,
               gamma: float = 1.4, bloom: float = 0.0) -> np.ndarray:
    """The character's colour (float (H, W, 3)) with the screen's blurred light mixed
    into its pixels near the silhouette: `strength` at the edge, fading to nothing
    `width` px inward, opaque pixels included. `bloom` adds part of it as light instead."""
    rgb = rgba[..., :3].astype(np.float32)
    if strength <= 0 or width <= 0:
        return rgb
    a = rgba[..., 3]
    box = bbox(a > 0, int(3 * width + 8), a.shape)
    if box is None:
        return rgb
    sub_a = a[box].astype(np.float32) / 255.0
    mask = (sub_a >= 0.5).astype(np.uint8)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    d = np.where(mask > 0, dist - 0.5, 0.0)
    w = strength * np.clip(1.0 - d / width, 0.0, 1.0) ** gamma
    w = np.where(sub_a > 0, w, 0.0)[..., None].astype(np.float32)
    light = cv2.GaussianBlur(bg[box], (0, 0), sigmaX=max(1.0, width * 0.8))
    out = rgb.copy()
    mixed = rgb[box] * (1 - w) + light * w
    if bloom > 0:
        mixed = mixed + bloom * w * light * 0.5
    out[box] = mixed
    return out


def composite(rgb: np.ndarray, alpha_u8: np.ndarray, bg: np.ndarray) -> np.ndarray:
    a = alpha_u8.astype(np.float32)[..., None] / 255.0
    return rgb * a + bg * (1.0 - a)


def ghost(cur: np.ndarray, prev: np.ndarray | None, share: float) -> np.ndarray:
    """A share of the previous picture blended into this one."""
    if prev is None or share <= 0:
        return cur
    return cur * (1.0 - share) + prev * share


def shift_rgba(rgba: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """Sub-pixel translate of straight uint8 RGBA (through premultiplied)."""
    if abs(dx) < 1e-6 and abs(dy) < 1e-6:
        return rgba
    pm = premul(rgba)
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    pm = cv2.warpAffine(pm, m, (rgba.shape[1], rgba.shape[0]), flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return unpremul(pm)
