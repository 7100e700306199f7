"""core/channels.py adds channel planes in place of numpy's reductions over the last axis.
Invariant: the same bits as the reduction it replaces (the matte's output must not move
with a speed-up), for any float values, dtypes and channel counts it is used on."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from comfy_nodes.core import channels

floats = st.floats(-1e4, 1e4, allow_nan=False, width=32)


def pixels(dtype: type) -> st.SearchStrategy[np.ndarray]:
    shape = st.tuples(st.integers(1, 40), st.integers(2, 4))
    return arrays(dtype, shape, elements=floats)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([np.float32, np.float64]).flatmap(
    lambda d: st.tuples(pixels(d), st.integers(0, 2**32 - 1))))
def test_sums_are_numpys_reductions_bit_for_bit(case):
    a, seed = case
    b = np.random.default_rng(seed).normal(0, 100, a.shape).astype(a.dtype)
    assert np.array_equal(channels.total(a), a.sum(-1))
    assert np.array_equal(channels.dot(a, b), (a * b).sum(-1))
    assert np.array_equal(channels.norm2(a), (a ** 2).sum(-1))
    assert np.array_equal(channels.max_abs(a), np.abs(a).max(-1))
    assert channels.total(a).dtype == a.dtype


def test_leading_axes_are_kept():
    a = np.arange(2 * 5 * 7 * 3, dtype=np.float32).reshape(2, 5, 7, 3)
    assert channels.total(a).shape == (2, 5, 7)
    assert np.array_equal(channels.total(a), a.sum(-1))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(1, 30), st.integers(0, 2**32 - 1), st.booleans())
def test_gather_is_boolean_indexing(h, w, seed, view):
    rng = np.random.default_rng(seed)
    image = rng.normal(size=(h + 4, w + 4, 3)).astype(np.float32)
    a = image[2:2 + h, 1:1 + w] if view else image[:h, :w].copy()  # a box of a frame, or not
    mask = rng.random((h, w)) < 0.4
    assert np.array_equal(channels.gather(a, np.flatnonzero(mask)), a[mask])
    assert np.array_equal(channels.gather(a[..., 0], np.flatnonzero(mask)), a[..., 0][mask])


@settings(max_examples=300, deadline=None)
@given(st.integers(-5, 50), st.integers(-5, 20000), st.integers(-2, 13000))
def test_spread_is_each_index_once_in_order_from_first_to_last(first, last, count):
    got = channels.spread(first, last, count)
    if count <= 0 or last < first:
        assert len(got) == 0
        return
    assert got[0] == first and (got[-1] == last or count == 1)
    assert (np.diff(got) > 0).all()  # in order, each once
    assert len(got) == min(count, last - first + 1)  # as many as asked, where there are
    # and evenly: no gap more than one step of the even spacing, rounded, wider than another
    steps = np.diff(got)
    assert len(steps) == 0 or steps.max() - steps.min() <= 1
