"""core/quantiles.py takes medians and percentiles without importing numpy.ma.
Invariants: the same bits, dtype and shape as numpy 2.4's median, nanmedian, percentile and
nanpercentile (the chain's numbers must not move with the change), NaN included, for any
float array, axis and percentile (numpy 2.0-2.3 round a float32 percentile's weight
otherwise: there, within a last bit); and a whole chain run does not import numpy.ma
(12-16 ms a process)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import PIL
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import quantiles, video
from tests import footage
from tests.conftest import REPO

NUMPY_24 = tuple(int(x) for x in np.__version__.split(".")[:2]) >= (2, 4)
PILLOW_122 = tuple(int(x) for x in PIL.__version__.split(".")[:2]) >= (12, 2)


@st.composite
def samples(draw: st.DrawFn, nan: bool) -> tuple[np.ndarray, int | None]:
    """A float32 or float64 array of 1-3 axes (one of them sometimes 700 long: numpy's
    nanmedian takes another path from 600 values), some values repeated, some NaN if
    asked."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.integers(1, 9)) for _ in range(ndim))
    if draw(st.integers(0, 9)) == 0:
        shape = (700, *shape[1:])
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
    """Equal to the bit (numpy 2.4 on), of the same dtype and shape, and a scalar where
    numpy gives a scalar."""
    assert isinstance(ours, np.ndarray) == isinstance(numpys, np.ndarray)
    ours, numpys = np.asarray(ours), np.asarray(numpys)
    assert ours.dtype == numpys.dtype and ours.shape == numpys.shape
    if NUMPY_24:
        assert np.array_equal(ours, numpys, equal_nan=True), (ours, numpys)
    else:
        np.testing.assert_allclose(ours, numpys, rtol=1e-6, equal_nan=True)


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


@pytest.mark.parametrize("a", [
    [3.0, 1.0, 2.0, 10.0], np.arange(11), np.array([True, True, False]), np.zeros(0),
    np.array(5.0), np.array([3e38, 1.0, 3.2e38], np.float32), np.array([1, 2, 3, 4], np.int64),
    np.array([np.inf, -np.inf, 1.0]), np.array([1.0, np.nan, 3.0])])
def test_lists_integers_booleans_empty_and_extremes_are_numpys(a):
    """Inputs the random arrays do not draw: ints and bools (nothing to leave out), no
    values, one value, a sum past float32's range, infinities."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        same(quantiles.median(a), np.median(a))
        same(quantiles.nanmedian(a), np.nanmedian(a))
        if np.size(a) and np.asarray(a).dtype != bool:  # numpy cannot subtract booleans
            same(quantiles.percentile(a, 50.0), np.percentile(a, 50.0))
            same(quantiles.nanpercentile(a, 37.5), np.nanpercentile(a, 37.5))


def test_a_percentile_outside_0_to_100_is_refused_as_numpy_refuses_it():
    for f in (quantiles.percentile, quantiles.nanpercentile):
        with pytest.raises(ValueError):
            f(np.arange(5.0), 101.0)


def test_a_chain_run_does_not_import_numpy_ma(tmp_path):
    """The import this module exists to avoid, and (Pillow 12.2 on, which can import one
    plugin alone) Pillow's plugins the sheet's encoders avoid: a fresh process runs the
    whole chain on a small clip and says what it holds after."""
    clip = tmp_path / "clip.mp4"
    video.encode(footage.film(footage.Spec(size=(160, 160), frames=24, blur=False)), clip)
    code = """
import json, sys
from pathlib import Path
from comfy_nodes.core.recipes import Recipe
from driver.process import process
process(Path(sys.argv[1]) / "clip.mp4", "walk", Recipe(seconds=2.0, frames=6, fps=10,
        loop=True), Path(sys.argv[1]), "walk")
print(json.dumps([m for m in ("numpy.ma", "PIL.JpegImagePlugin", "PIL.GifImagePlugin")
                  if m in sys.modules]))
"""
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    held = json.loads(out.strip().splitlines()[-1])
    assert "numpy.ma" not in held
    assert not held or not PILLOW_122, held
    assert (tmp_path / "walk.webp").is_file()
