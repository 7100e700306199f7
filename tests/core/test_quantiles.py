"""core/quantiles.py takes medians and percentiles without importing numpy.ma.
Invariants: the same bits, dtype and shape as numpy's median, nanmedian, percentile and
nanpercentile (the chain's numbers must not move with the change), NaN included, for any
float array, axis and percentile; and a whole chain run does not import numpy.ma (12-16 ms
a process)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import quantiles, video
from tests import footage
from tests.conftest import REPO


@st.composite
def samples(draw: st.DrawFn, nan: bool) -> tuple[np.ndarray, int | None]:
    """A float32 or float64 array of 1-3 axes, some values repeated, some NaN if asked."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(ndim))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    a = rng.normal(0, 50, shape).astype(dtype)
    if draw(st.booleans()):  # ties, as pixel values have
        a = np.round(a / 10) * 10
    if nan:
        a[rng.random(shape) < draw(st.sampled_from([0.0, 0.2, 0.7, 1.0]))] = np.nan
    axis = draw(st.sampled_from([None, *range(-ndim, ndim)]))
    return a, axis


def same(ours: np.ndarray, numpys: np.ndarray) -> None:
    ours, numpys = np.asarray(ours), np.asarray(numpys)
    assert ours.dtype == numpys.dtype and ours.shape == numpys.shape
    assert np.array_equal(ours, numpys, equal_nan=True), (ours, numpys)


@settings(max_examples=300, deadline=None)
@given(samples(nan=False), st.floats(0, 100))
def test_median_and_percentile_are_numpys(case, q):
    a, axis = case
    same(quantiles.median(a, axis), np.median(a, axis))
    same(quantiles.percentile(a, q, axis), np.percentile(a, q, axis))


@settings(max_examples=300, deadline=None)
@given(samples(nan=True), st.floats(0, 100))
def test_nan_forms_and_nan_slices_are_numpys(case, q):
    a, axis = case
    with warnings.catch_warnings():  # numpy warns of an all-NaN slice; the NaN is the fact
        warnings.simplefilter("ignore", RuntimeWarning)
        same(quantiles.median(a, axis), np.median(a, axis))
        same(quantiles.percentile(a, q, axis), np.percentile(a, q, axis))
        same(quantiles.nanmedian(a, axis), np.nanmedian(a, axis))
        same(quantiles.nanpercentile(a, q, axis), np.nanpercentile(a, q, axis))


def test_a_list_and_even_counts():
    assert quantiles.median([3.0, 1.0, 2.0, 10.0]) == 2.5
    assert quantiles.percentile(np.arange(11, dtype=np.float64), 90) == 9.0
    assert np.isnan(quantiles.median(np.array([1.0, np.nan, 3.0])))
    assert quantiles.nanmedian(np.array([1.0, np.nan, 3.0])) == 2.0


def test_a_chain_run_does_not_import_numpy_ma(tmp_path):
    """The import this module exists to avoid, and Pillow's plugins the sheet's encoders
    avoid: a fresh process runs the whole chain on a small clip and lists what it loaded."""
    clip = tmp_path / "clip.mp4"
    video.encode(footage.film(footage.Spec(size=(160, 160), frames=24, blur=False)), clip)
    code = """
import sys
from pathlib import Path
from comfy_nodes.core.recipes import Recipe
from driver.process import process
loaded = set(sys.modules)
process(Path(sys.argv[1]) / "clip.mp4", "walk", Recipe(seconds=2.0, frames=6, fps=10,
        loop=True), Path(sys.argv[1]), "walk")
print(sorted(m for m in set(sys.modules) - loaded
             if m.startswith(("numpy.ma", "PIL.Jpeg", "PIL.Gif"))))
"""
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
    assert (tmp_path / "walk.webp").is_file()
