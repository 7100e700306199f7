"""Normalized convolution: a weighted Gaussian average that fills holes smoothly. The matte
uses it for "the colour nearby" wherever only some pixels may speak (the character's
unreachable interior, the backdrop seen round the silhouette)."""

from __future__ import annotations

import cv2
import numpy as np


def normalized_blur(values: np.ndarray, weight: np.ndarray, sigma: float) -> tuple[
        np.ndarray, np.ndarray]:
    """values (H, W, 3) averaged with weights (H, W) over a Gaussian of sigma: (the average,
    the blurred weight, which says how much support each pixel's average has). Wide blurs
    run on a copy shrunk by sigma/3 (a smooth estimate loses nothing there; the cost of a
    Gaussian grows with sigma)."""
    h, w = weight.shape
    f = int(sigma // 3)
    if f >= 2 and min(h, w) >= 4 * f:
        small = (max(1, w // f), max(1, h // f))
        nv = cv2.resize(values * weight[..., None], small, interpolation=cv2.INTER_AREA)
        dv = cv2.resize(weight, small, interpolation=cv2.INTER_AREA)
        nv = cv2.GaussianBlur(nv, (0, 0), sigma / f)
        dv = cv2.GaussianBlur(dv, (0, 0), sigma / f)
        num = cv2.resize(nv, (w, h), interpolation=cv2.INTER_LINEAR)
        den = cv2.resize(dv, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        num = cv2.GaussianBlur(values * weight[..., None], (0, 0), sigma)
        den = cv2.GaussianBlur(weight, (0, 0), sigma)
    return num / np.maximum(den, 1e-6)[..., None], den
