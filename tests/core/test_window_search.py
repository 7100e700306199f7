"""The loop window's search: candidates costed all at once, the near-best re-costed
exactly, must choose what trying every candidate exactly chooses."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import window


def _every_candidate(dist, count, nominal_span, still, floor):
    """The search as it was: every (span, start) costed exactly, the first minimum wins."""
    n = len(dist)
    lo = max(count, int(round(nominal_span * window.SPAN_RANGE[0])), 2)
    hi = max(lo, int(round(nominal_span * window.SPAN_RANGE[1])))
    best = None
    for span in range(lo, hi + 1):
        for i in range(still, n - span):
            cost, score = window._loop_cost(dist, i, span, count, nominal_span, floor)
            if best is None or cost < best[0]:
                best = (cost, score, i, span)
    return best


@settings(max_examples=60, deadline=None)
@given(n=st.integers(8, 70), count=st.integers(1, 12), nominal=st.integers(2, 40),
       still=st.integers(0, 6), levels=st.sampled_from([3, 50, 0]),
       period=st.integers(0, 20), seed=st.integers(0, 2**31 - 1),
       floor=st.sampled_from([1e-6, 1e-3, 0.05]))
def test_same_window_as_trying_every_candidate(n, count, nominal, still, levels, period,
                                               seed, floor):
    """Random distances, coarse ones (many exact ties) and periodic ones (a walk cycle:
    near-equal seams one period apart)."""
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(n, 3))
    if period:
        t = np.arange(n)
        pts[:, 0] += 3 * np.sin(2 * np.pi * t / period)
        pts[:, 1] += 3 * np.cos(2 * np.pi * t / period)
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1)).astype(np.float32)
    if levels:
        dist = (np.round(dist * levels / dist.max()) / levels).astype(np.float32)
    win = window.loop_window(dist, count, nominal, still, floor)
    best = _every_candidate(dist, count, nominal, still, floor)
    if best is None:
        assert win.loop_score is None
    else:
        _, score, i, span = best
        assert (win.start, win.span, win.loop_score) == (i, span, round(score, 3))
