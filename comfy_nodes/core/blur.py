"""Normalized convolution: a weighted Gaussian average that fills holes smoothly. The matte
uses it for "the colour nearby" wherever only some pixels may speak (the character's
unreachable interior, the backdrop seen round the silhouette)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .channels import gather


def normalized_blur(values: np.ndarray, weight: np.ndarray, sigma: float,
                    at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """values (H, W, 3) averaged with weights (H, W) over a Gaussian of sigma, at the pixels
    `at` ((H, W) bool, M of them): (the average (M, 3), the blurred weight (M,), which says
    how much support each average has). Divided only where asked: every caller needs a
    band of the box, not all of it."""
    return normalized_blurs(values, weight, (sigma,), at)[0]


def normalized_blurs(values: np.ndarray, weight: np.ndarray, sigmas: Sequence[float],
                     at: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """normalized_blur at several sigmas, weighting the values once. Wide blurs run on a
    copy shrunk by sigma/3 (a smooth estimate loses nothing there; the cost of a Gaussian
    grows with sigma)."""
    h, w = weight.shape
    weighted = np.empty(values.shape, np.result_type(values, weight))
    for c in range(values.shape[-1]):  # by plane: twice as fast as broadcasting weight
        np.multiply(values[..., c], weight, out=weighted[..., c])
    index = np.flatnonzero(at)
    out = []
    for sigma in sigmas:
        f = int(sigma // 3)
        if f >= 2 and min(h, w) >= 4 * f:
            small = (max(1, w // f), max(1, h // f))
            nv = cv2.resize(weighted, small, interpolation=cv2.INTER_AREA)
            dv = cv2.resize(weight, small, interpolation=cv2.INTER_AREA)
            nv = cv2.GaussianBlur(nv, (0, 0), sigma / f)
            dv = cv2.GaussianBlur(dv, (0, 0), sigma / f)
            num = cv2.resize(nv, (w, h), interpolation=cv2.INTER_LINEAR)
            den = cv2.resize(dv, (w, h), interpolation=cv2.INTER_LINEAR)
        else:
            num = cv2.GaussianBlur(weighted, (0, 0), sigma)
            den = cv2.GaussianBlur(weight, (0, 0), sigma)
        num = num.reshape(h, w, -1)  # OpenCV drops a single channel's axis
        support = gather(den, index)
        out.append((gather(num, index) / np.maximum(support, 1e-6)[:, None], support))
    return out
