"""Anchor, drift and zoom: one smooth transform per frame, never per-frame fitting.

Per frame we measure, from the coarse masks, the feet baseline (a high percentile of the
character's rows), the body centre (median column) and the body height. A video model's
drift and slow zoom are steady, while the action's own motion (bob, lunge, jump, crouch)
is fast; a robust straight-line trend (Theil-Sen) of each measure separates the two. We
undo only the trend, so the size never pulses and a jump stays a jump, while the feet sit
on one baseline and the body is centred on average.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .quantiles import median

# A frame whose coarse mask holds fewer pixels than this holds no character: it has no
# measures here, counts as empty for NOISE, and no sheet cell may show it (window.Shortfall).
EMPTY_BELOW = 8


@dataclass(frozen=True)
class Measures:
    """Per-frame measures in full-resolution pixels; NaN where a frame has no character."""

    cx: np.ndarray
    baseline: np.ndarray
    top: np.ndarray

    @property
    def height(self) -> np.ndarray:
        return self.baseline - self.top


def _quantile_position(hist: np.ndarray, q: float) -> np.ndarray:
    """Per row of hist (N, L): where, in bins (0..L, continuous), the cumulative count
    reaches share q, interpolated inside the bin. The whole-bin answer moved in steps of
    a coarse row (4 px at 448): a feet line sinking 13 px over a clip read as 10.5."""
    c = np.cumsum(hist, axis=1, dtype=np.float64)
    target = q * c[:, -1]
    i = np.argmax(c >= target[:, None], axis=1)
    rows = np.arange(len(hist))
    before = np.where(i > 0, c[rows, np.maximum(i - 1, 0)], 0.0)
    inside = hist[rows, i].astype(np.float64)
    return i + np.clip((target - before) / np.maximum(inside, 1.0), 0.0, 1.0)


def measure(masks: np.ndarray, scale: float) -> Measures:
    """masks (N, h, w) at `scale` of full resolution -> per-frame measures in full-res px.

    From row and column histograms of all frames at once: baseline at the 99.5th
    percentile row, top at the 0.5th, centre at the median column."""
    rows = masks.sum(axis=2, dtype=np.int64)
    cols = masks.sum(axis=1, dtype=np.int64)
    empty = rows.sum(axis=1) < EMPTY_BELOW
    cx = _quantile_position(cols, 0.5) / scale
    base = _quantile_position(rows, 0.995) / scale
    top = _quantile_position(rows, 0.005) / scale
    for v in (cx, base, top):
        v[empty] = np.nan
    return Measures(cx, base, top)


def theil_sen(y: np.ndarray) -> tuple[float, float]:
    """Robust line y ~ a + b*t over t = 0..N-1, ignoring NaN: (a, b)."""
    t = np.arange(len(y), dtype=np.float64)
    ok = np.isfinite(y)
    t, y = t[ok], y[ok]
    if len(y) == 0:
        return 0.0, 0.0
    if len(y) < 3:
        return float(median(y)), 0.0
    i, j = np.triu_indices(len(y), 1)
    b = float(median((y[j] - y[i]) / (t[j] - t[i])))
    a = float(median(y - b * t))
    return a, b


@dataclass(frozen=True)
class Alignment:
    """Frame t's pixel p maps to aligned coordinates (p - anchor_t) / zoom_t + ref."""

    anchor_x: np.ndarray  # trend of the body centre per frame
    anchor_y: np.ndarray  # trend of the feet baseline per frame
    zoom: np.ndarray  # trend of the body size relative to the reference frame
    ref: tuple[float, float]  # where the anchor lands in aligned coordinates
    drift_px: tuple[float, float]  # total drift over the clip that was removed
    zoom_change: float  # total relative size change over the clip that was removed

    def matrix(self, t: int, extra_scale: float = 1.0,
               offset: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
        """2x3 affine: frame t pixels -> aligned pixels * extra_scale + offset."""
        k = extra_scale / self.zoom[t]
        ox = (self.ref[0] * extra_scale + offset[0]) - k * self.anchor_x[t]
        oy = (self.ref[1] * extra_scale + offset[1]) - k * self.anchor_y[t]
        return np.array([[k, 0.0, ox], [0.0, k, oy]], np.float64)


def fit(measures: Measures, trend: bool = True, min_zoom_change: float = 0.01,
        rest: int = 0) -> Alignment:
    """trend=False (one-shot actions: a lunge or knockback spans the whole short clip and
    would read as drift) holds the anchor and size of the rest frame instead."""
    n = len(measures.cx)
    t = np.arange(n)
    ax, bx = theil_sen(measures.cx)
    ay, by = theil_sen(measures.baseline)
    h = measures.height
    az, bz = theil_sen(np.log(np.where(h > 1, h, np.nan)))
    if not trend:
        def at_rest(v: np.ndarray, fallback: float) -> float:
            ok = np.nonzero(np.isfinite(v))[0]
            return float(v[ok[np.argmin(np.abs(ok - rest))]]) if len(ok) else fallback
        ax, bx, ay, by, bz = at_rest(measures.cx, ax), 0.0, at_rest(measures.baseline, ay), \
            0.0, 0.0
    zoom_change = float(np.exp(bz * (n - 1)) - 1) if n > 1 else 0.0
    if abs(zoom_change) < min_zoom_change:  # below measurement noise: do not touch size
        bz, zoom_change = 0.0, 0.0
    anchor_x = ax + bx * t
    anchor_y = ay + by * t
    zoom = np.exp(bz * t)
    return Alignment(anchor_x, anchor_y, zoom, (float(anchor_x[0]), float(anchor_y[0])),
                     (float(bx * (n - 1)), float(by * (n - 1))), zoom_change)


def aligned_points(align: Alignment, t: int, x: np.ndarray, y: np.ndarray) -> tuple[
        np.ndarray, np.ndarray]:
    m = align.matrix(t)
    return m[0, 0] * x + m[0, 2], m[1, 1] * y + m[1, 2]
