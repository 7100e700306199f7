"""Sums over a pixel's colour channels: the last axis, 2 to 4 long, of float arrays.

numpy reduces a short last axis slowly, one small reduction per pixel; adding the channel
planes instead gives the same bits (the same additions in the same order, (c0 + c1) + c2)
many times faster. Measured on 12 000 pixels of RGB: (a * b).sum(-1) 290 us, dot(a, b)
18 us. (Integer arrays would wrap where .sum() widens: these are for float arrays.)
"""

from __future__ import annotations

import numpy as np


def total(a: np.ndarray) -> np.ndarray:
    """a.sum(-1), for a float array whose last axis is a pixel's channels."""
    out = a[..., 0] + a[..., 1]
    for i in range(2, a.shape[-1]):
        out += a[..., i]
    return out


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(a * b).sum(-1): the dot product of each pixel's channels."""
    return total(a * b)


def norm2(a: np.ndarray) -> np.ndarray:
    """(a ** 2).sum(-1): each pixel's squared length."""
    return total(a * a)


def max_abs(a: np.ndarray) -> np.ndarray:
    """np.abs(a).max(-1): each pixel's largest channel, in magnitude."""
    m = np.abs(a)
    out = np.maximum(m[..., 0], m[..., 1])
    for i in range(2, a.shape[-1]):
        np.maximum(out, m[..., i], out=out)
    return out
