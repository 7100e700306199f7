"""The loop window's search: candidates costed all at once, the near-best re-costed
exactly, must choose what trying every candidate exactly chooses."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import window


def _every_candidate(dist, count, nominal_span, still, floor, check):
    """The search as it was, over the windows whose cells lack least: every (span, start)
    costed exactly, the first minimum wins. What cells lack, judged cell by cell: some
    cell's frame without the character is worst (the fewer such cells the better), then
    no two of (at most 16 of) the cells check.moving_at apart."""
    n = len(dist)
    lo = max(count, int(round(nominal_span * window.SPAN_RANGE[0])), 2)
    hi = max(lo, int(round(nominal_span * window.SPAN_RANGE[1])))

    def lack(cells):
        empty = sum(not check.present[c] for c in cells)
        spread_out = {round(j) for j in np.linspace(0, len(cells) - 1, min(len(cells), 16))}
        judged = [cells[j] for j in sorted(spread_out)]
        moves = any(check.steady[a, b] >= check.moving_at for a in judged for b in judged)
        return (2, empty) if empty else (0 if moves else 1, 0)

    tried = [(span, i) for span in range(lo, hi + 1) for i in range(still, n - span)]
    if not tried:
        return None
    least = min(lack(window._sample_loop(i, span, count)) for span, i in tried)
    best = None
    for span, i in tried:
        if lack(window._sample_loop(i, span, count)) != least:
            continue
        cost, score = window._loop_cost(dist, i, span, count, nominal_span, floor)
        if best is None or cost < best[0]:
            best = (cost, score, i, span, least[0])
    return best


@settings(max_examples=60, deadline=None)
@given(n=st.integers(8, 70), count=st.integers(1, 12), nominal=st.integers(2, 40),
       still=st.integers(0, 6), levels=st.sampled_from([3, 50, 0]),
       period=st.integers(0, 20), seed=st.integers(0, 2**31 - 1),
       floor=st.sampled_from([1e-6, 1e-3, 0.05]), absent=st.sampled_from([0.0, 0.2, 0.9]),
       held=st.sampled_from([0, 10, 40]), moving_at=st.sampled_from([0.0, 0.5, 2.0]))
def test_same_window_as_trying_every_candidate(n, count, nominal, still, levels, period,
                                               seed, floor, absent, held, moving_at):
    """Random distances, coarse ones (many exact ties) and periodic ones (a walk cycle:
    near-equal seams one period apart); frames without the character, and a stretch of
    one frame held (its distances 0), so that windows lack something."""
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(n, 3))
    if period:
        t = np.arange(n)
        pts[:, 0] += 3 * np.sin(2 * np.pi * t / period)
        pts[:, 1] += 3 * np.cos(2 * np.pi * t / period)
    at = int(rng.integers(0, n))
    pts[at:at + held] = pts[at]
    present = rng.random(n) >= absent
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1)).astype(np.float32)
    if levels:
        top = float(dist.max()) or 1.0  # (a clip all one held frame: every distance 0)
        dist = (np.round(dist * levels / top) / levels).astype(np.float32)
    check = window.CellCheck(present, dist, moving_at)
    win = window.loop_window(dist, count, nominal, still, floor, check)
    best = _every_candidate(dist, count, nominal, still, floor, check)
    if best is None:
        assert win.loop_score is None
    else:
        _, score, i, span, lack = best
        assert (win.start, win.span, win.shortfall) == (i, span, lack)
        assert win.loop_score == (round(score, 3) if lack == window.Shortfall.NONE else None)


def test_a_walk_cycles_windows_as_before_the_vectorized_search():
    """Pinned to what the search chose before it was vectorized (commit 20a886b), so a
    change to the cost itself (which both sides of the property above share) shows: a
    12-frame cycle with noise, three (count, nominal span, still, floor) settings."""
    rng = np.random.default_rng(7)
    n, period = 60, 12
    t = np.arange(n)
    pts = rng.normal(size=(n, 3)) * 0.3
    pts[:, 0] += 3 * np.sin(2 * np.pi * t / period)
    pts[:, 1] += 3 * np.cos(2 * np.pi * t / period)
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1)).astype(np.float32)
    for args, want in [((10, 12, 4, 1e-3), (47, 12, 0.148)), ((8, 24, 2, 0.05), (3, 24, 0.052)),
                       ((6, 11, 0, 1e-6), (47, 12, 0.092))]:
        w = window.loop_window(dist, *args, window.CellCheck.anything(n))
        assert (w.start, w.span, w.loop_score) == want, args
