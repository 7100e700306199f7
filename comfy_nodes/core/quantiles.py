"""Medians and percentiles as numpy takes them, without numpy.ma.

numpy's median, nanmedian, percentile and nanpercentile of a float array reach for
`np.ma` (to look for NaN, or through np.unique), and numpy imports numpy.ma on its first
use: 12-16 ms a process, about 2 % of a whole `driver process` run on a 448x448 clip. These
take the same order statistics the same way (np.partition or np.sort, then numpy's mean of
the middle two or its linear interpolation), so they return what numpy 2.4 returns, to the
bit, NaN included (numpy 2.0-2.3 round a float32 percentile's weight otherwise: a last-bit
difference); tests/core/test_quantiles.py holds them to numpy. ruff bans the numpy forms in
the pack (pyproject.toml), so a new call cannot bring the import back.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

# (each slice's count of non-NaN values) -> the two order statistics to take
Picks = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


def median(a: npt.ArrayLike, axis: int | None = None) -> Any:
    """np.median(a, axis): NaN where a slice holds one."""
    a, axis = _along(a, axis)
    n = a.shape[axis]
    if n == 0:
        return np.mean(a, axis=axis)  # NaN, with numpy's warning, as np.median gives
    middle = [n // 2 - 1, n // 2] if n % 2 == 0 else [n // 2]
    part = np.partition(a, [*middle, -1], axis=axis)  # -1: a NaN sorts to the end
    ends = [slice(None)] * part.ndim
    ends[axis] = slice(middle[0], middle[-1] + 1)
    out = np.mean(part[tuple(ends)], axis=axis)
    return _nan_where_nan(out, part.take(-1, axis=axis))


def percentile(a: npt.ArrayLike, q: float, axis: int | None = None) -> Any:
    """np.percentile(a, q, axis) with numpy's default (linear) method, for a float q."""
    _check(q)
    a, axis = _along(a, axis)
    part = np.moveaxis(a, axis, 0)
    n = part.shape[0]
    virtual = (n - 1) * (q / 100)
    below = min(max(math.floor(virtual), 0), n - 1)  # numpy clamps to the ends
    above = min(below + 1, n - 1) if 0 <= virtual < n - 1 else below
    part = np.partition(part, sorted({0, n - 1, below, above}), axis=0)
    # A Python float: numpy 2.4 weighs the values at their own precision, as this does.
    out = _lerp(part[below], part[above], virtual - math.floor(virtual))
    return _nan_where_nan(out, part[-1])


def nanmedian(a: npt.ArrayLike, axis: int | None = None) -> Any:
    """np.nanmedian(a, axis): NaN where a slice holds nothing else."""
    a = np.asarray(a)
    if a.dtype.kind != "f":
        return median(a, axis)  # nothing to leave out, as numpy says
    low, high, count = _nan_order(a, axis, lambda c: ((c - 1) // 2, c // 2))
    with np.errstate(invalid="ignore", over="ignore"):
        out = np.where(count % 2 == 1, low, np.true_divide(low + high, 2)).astype(a.dtype)
    return _all_nan(out, count)


def nanpercentile(a: npt.ArrayLike, q: float, axis: int | None = None) -> Any:
    """np.nanpercentile(a, q, axis) with numpy's default (linear) method, for a float q."""
    _check(q)
    a = np.asarray(a)
    if a.dtype.kind != "f":
        return percentile(a, q, axis)

    def at(count: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        below = np.clip(np.floor((count - 1) * (q / 100)), 0, count - 1).astype(np.intp)
        return below, np.minimum(below + 1, count - 1)

    low, high, count = _nan_order(a, axis, at)
    virtual = (count - 1) * (q / 100)
    t = virtual - np.floor(virtual)  # numpy takes it per slice as a Python float: at the
    diff = high - low  # values' precision, as is 1 - t
    with np.errstate(invalid="ignore"):
        out = np.where(t >= 0.5, high - diff * (1 - t).astype(a.dtype),
                       low + diff * t.astype(a.dtype))
    return _all_nan(out, count)


def _check(q: float) -> None:
    if not 0 <= q <= 100:
        raise ValueError(f"percentile {q} is not within 0..100")


def _along(a: npt.ArrayLike, axis: int | None) -> tuple[np.ndarray, int]:
    """The array and the axis to reduce: axis None is the whole array, flattened."""
    a = np.asarray(a)
    return (a.ravel(), 0) if axis is None else (a, axis)


def _lerp(a: np.ndarray, b: np.ndarray, t: float) -> Any:
    """numpy's quantile interpolation: from the nearer end, so t = 1 gives b exactly."""
    diff = b - a
    out = np.asanyarray(np.add(a, diff * t))
    np.subtract(b, diff * (1 - t), out=out, where=t >= 0.5, casting="unsafe")
    return out[()] if out.ndim == 0 else out


def _nan_where_nan(out: Any, last: np.ndarray) -> Any:
    """`out` with NaN wherever its slice's largest value (sorted last) is NaN."""
    nan = np.isnan(last)
    if not nan.any():
        return out
    if isinstance(out, np.generic) or np.ndim(out) == 0:
        return last
    np.copyto(out, last, where=nan)
    return out


def _nan_order(a: np.ndarray, axis: int | None, picks: Picks
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The values at two order statistics of each slice's non-NaN values (NaN sorts last),
    where `picks(count)` names them; and each slice's count of non-NaN values."""
    a, axis = _along(a, axis)
    ordered = np.moveaxis(np.sort(a, axis=axis), axis, -1)
    count = np.count_nonzero(~np.isnan(ordered), axis=-1)
    if ordered.shape[-1] == 0:
        nan = np.full(count.shape, np.nan, a.dtype)
        return nan, nan, count
    first, second = (np.maximum(i, 0)[..., None] for i in picks(count))
    low = np.take_along_axis(ordered, first, -1)[..., 0]
    high = np.take_along_axis(ordered, second, -1)[..., 0]
    return low, high, count


def _all_nan(out: np.ndarray, count: np.ndarray) -> Any:
    """NaN where a slice had no value but NaN; a scalar for a whole array's statistic."""
    out = np.where(count > 0, out, np.nan).astype(out.dtype)
    return out[()] if out.ndim == 0 else out
