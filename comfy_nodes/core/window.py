"""Which clip frames become the sheet: the loop window or the one-shot action window.

Frames are compared after alignment (drift and zoom removed) as small premultiplied RGBA
images, so a good loop is not hidden by the camera. A loop seam is judged as in "video
textures" (Schödl et al. 2000): looping from frame j back to frame i is good when the
frames *around* j look like the frames around i, compared over a short run across the
seam, so the motion continues as well as the pose.

Loop score = seam cost / the typical step between consecutive sheet frames. 0 is a perfect
loop; 1 means the seam jumps as far as one ordinary step of the animation.

A seam is only worth judging between cells that hold the character and move: frames the
character has left are all alike, and so are the frames of a held pose, so either loops
"perfectly" (score 0). The search therefore ranks windows by what their cells lack first
(Shortfall) and by their seams only within the best rank; a window that lacks anything is
not graded.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import cv2
import numpy as np

from .align import Alignment
from .channels import spread
from .quantiles import percentile

FEATURE_SIDE = 48
SEAM_RUN = 2  # frames compared on each side of the seam
# Grades: the field notes measured 0.32 for a clean 2 s walk and 1.16 for a weak 1 s one.
CLEAN_BELOW = 0.5
OK_BELOW = 1.0
# Loop spans may stretch or squeeze the recipe's timing by this much to find a better seam.
SPAN_RANGE = (0.75, 1.35)
# One-shot spans may squeeze up to this much to hold the whole action.
ONESHOT_MAX_STRETCH = 1.5


def grade(score: float | None) -> str | None:
    if score is None:
        return None
    if score < CLEAN_BELOW:
        return "CLEAN"
    if score < OK_BELOW:
        return "OK"
    return "WEAK"


@dataclass(frozen=True)
class Features:
    """Aligned small images of every frame: vectors (N, D) and their distances."""

    vectors: np.ndarray
    distances: np.ndarray  # (N, N) RMS distance between frames


def rms_distances(a: np.ndarray, b: np.ndarray, b2: np.ndarray | None = None) -> np.ndarray:
    """(n, m) RMS distance of each of a (n, D) to each of b (m, D), in their dtype:
    |a|^2 + |b|^2 - 2 a.b, one matrix product. b2: |b|^2 (m,), when b is used again."""
    if b2 is None:
        b2 = (b * b).sum(1)
    d2 = (a * a).sum(1)[:, None] + b2[None, :] - 2 * (a @ b.T)
    return np.sqrt(np.maximum(d2, 0) / a.shape[1])


def features(small: np.ndarray, masks: np.ndarray, align: Alignment, scale: float,
             char_height: float) -> Features:
    """small (N,h,w,3) uint8 frames and masks (N,h,w) at `scale` of full resolution.

    Each frame is warped so that its anchor lands at the centre column, 80% down, and the
    character is about 60% of the feature height (so that mirroring about the centre
    column mirrors about the body's own axis: head_rows, for FACING).
    """
    out = _aligned(small, masks, align, scale, char_height, FEATURE_SIDE, (0.0, 1.0))
    vec = out.reshape(len(out), -1)
    return Features(vec, rms_distances(vec, vec))


HEAD_SIDE = 96  # the canvas of the head rows FACING compares (see head_rows)
HEAD_ROWS = (0.1, 0.35)  # rows 10%..35% of the canvas: the head and shoulders


def head_rows(small: np.ndarray, masks: np.ndarray, align: Alignment, scale: float,
              char_height: float) -> np.ndarray:
    """The head and shoulders of every frame, aligned as `features` aligns a frame but on
    a HEAD_SIDE canvas, as vectors (N, D) (row-major (rows, HEAD_SIDE, 4): mirrored,
    reversed along HEAD_SIDE). The character spans rows 20%..80% of the canvas; rows
    10%..35% hold its top two fifths and what rises above it. The arms and torso are left
    out: a strike or a lunge moves them to the other side of the anchor for as long as a
    turn lasts, while the head keeps facing the same way. On the window's 48 px canvas a
    head is ~8 px tall: a slow turn in a dress, turned, sat as near the opening poses as
    their mirrors, and a greatsword held up behind the head read as a turn (an
    independent trial's 19 clips: 5 of 9 turns, 1 false flag in 10 decoys; at 96 px, 6
    of 9 and none; a chibi's round head, a pixel-art hero and a monk mid-walk are missed
    on both)."""
    out = _aligned(small, masks, align, scale, char_height, HEAD_SIDE, HEAD_ROWS)
    return out.reshape(len(out), -1)


def _aligned(small: np.ndarray, masks: np.ndarray, align: Alignment, scale: float,
             char_height: float, side: int, rows: tuple[float, float]) -> np.ndarray:
    """(N, r, side, 4) float32 premultiplied RGBA of each frame warped onto a side x side
    canvas (see `features`), of which only rows[0]..rows[1] (shares of side) are kept."""
    k = 0.6 * side / max(char_height, 1.0)  # full-res px -> feature px
    n = len(small)
    r0, r1 = int(rows[0] * side), int(rows[1] * side)
    out = np.empty((n, r1 - r0, side, 4), np.float32)
    inv_s = 1.0 / scale
    rgba = np.empty((*small.shape[1:3], 4), np.float32)  # reused: np.dstack allocates twice
    for t in range(n):
        m = align.matrix(t, extra_scale=k, offset=(side / 2 - align.ref[0] * k,
                                                  (0.8 * side - r0) - align.ref[1] * k))
        m = m.copy()
        m[:, :2] *= inv_s  # the input is the small frame: small px -> full px first
        a = masks[t].astype(np.float32)
        np.multiply(small[t].astype(np.float32) / 255, a[..., None], out=rgba[..., :3])
        rgba[..., 3] = a
        out[t] = cv2.warpAffine(rgba, m, (side, r1 - r0), flags=cv2.INTER_AREA
                                if k * inv_s < 1 else cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out


def still_opening(dist: np.ndarray, floor: float) -> int:
    """Frames at the start that do not move yet (image-to-video models open still)."""
    n = len(dist)
    if n < 3:
        return 0
    from_first = dist[0]
    motion = percentile(from_first, 90)
    thr = max(floor, 0.15 * motion)
    moving = np.nonzero(from_first > thr)[0]
    return int(max(0, moving[0] - 1)) if len(moving) else 0


class Shortfall(IntEnum):
    """What a window's cells lack, from nothing to the worst. The loop search takes a window
    of a lower rank over any of a higher one, whatever their seams."""

    NONE = 0  # every cell holds the character, and the cells move
    # Every cell holds the character, but no two differ by CellCheck.moving_at (STATIC's
    # threshold): a held pose, a model that froze, a timestamp gap filled with copies of
    # one frame.
    FROZEN = 1
    EMPTY = 2  # some cell holds no character (align.EMPTY_BELOW): it left the frame, or never came


@dataclass(frozen=True)
class Window:
    indices: list[int]  # clip frames, in play order
    start: int
    span: int  # clip frames covered
    loop_score: float | None  # None: a one-shot, a clip too short to loop, or a shortfall
    loop_grade: str | None
    still_frames: int
    shortfall: Shortfall = Shortfall.NONE


MOTION_CELLS = 16  # at most this many cells, spread over a window, judge whether it moves


def steady_distances(vectors: np.ndarray) -> np.ndarray:
    """(N, N) RMS distances between the frames' feature vectors (N, D), each averaged with
    its two neighbours first (an end frame with itself and its one), so that a jump of one
    frame's own (the mask's, the codec's) counts a third: unaveraged, frame 16 of a test
    walk standing still for 70 frames stood 0.116 of the signal from its neighbours and
    made a window of still frames "move". The average takes some of a fast motion's swing
    too: the window chosen for trial 27's run at 16 fps (8 frames a cycle) spans
    0.46 of the signal unaveraged, 0.168 over 3 frames, 0.126 over STATIC's 5."""
    padded = np.concatenate([vectors[:1], vectors, vectors[-1:]])
    steady = (padded[:-2] + padded[1:-1] + padded[2:]) / 3
    return rms_distances(steady, steady)


@dataclass(frozen=True)
class CellCheck:
    """What a window's cells are judged on (Shortfall), for the N frames a window may use."""

    present: np.ndarray  # (N,) bool: the frames that hold the character
    steady: np.ndarray  # (N, N) steady_distances of the frames' features
    moving_at: float  # the steady distance two cells must lie apart for the cells to move

    @classmethod
    def anything(cls, n: int) -> CellCheck:
        """Every frame holds the character and every window moves: the seams alone decide."""
        return cls(np.ones(n, bool), np.zeros((n, n), np.float32), 0.0)

    def shortfalls(self, cells: np.ndarray) -> np.ndarray:
        """The Shortfall of each of k windows, cells (k, c): their clip frames. Their
        motion is judged on MOTION_CELLS cells at most (the pairs cost cells squared).

        Measured as a share of STATIC's signal (qc.signal), on the windows chosen for the
        445 clips of trials 12-37 and the footage fixtures (loops and one-shots): the
        still clips' hold no two cells more than 0.044 apart (a still picture under fresh
        noise and H.264); every other holds two at least 0.133 apart (a real-art idle
        breathing 1.5 %). STATIC_BELOW, 0.1, lies between."""
        c = cells.shape[1]
        held = self.present[cells].all(axis=1)
        judged = cells[:, spread(0, c - 1, MOTION_CELLS)]
        apart = self.steady[judged[:, :, None], judged[:, None, :]].max(axis=(1, 2))
        moves = apart >= self.moving_at
        return np.where(~held, Shortfall.EMPTY,
                        np.where(moves, Shortfall.NONE, Shortfall.FROZEN))

    def shortfall(self, indices: list[int]) -> Shortfall:
        """The Shortfall of one window's cells."""
        return Shortfall(self.shortfalls(np.array([indices]))[0])


def _judged(indices: list[int], start: int, span: int, score: float | None, still: int,
            lack: Shortfall) -> Window:
    """A window with its score and grade, which a window that lacks anything goes without:
    a seam between empty or unmoving cells measures nothing."""
    if lack is not Shortfall.NONE:
        score = None
    return Window(indices, start, span, None if score is None else round(score, 3),
                  grade(score), still, lack)


def _sample_loop(start: int, span: int, count: int) -> list[int]:
    return [start + int(round(m * span / count)) for m in range(count)]


def _sample_once(start: int, span: int, count: int) -> list[int]:
    if count == 1:
        return [start]
    return [start + int(round(m * (span - 1) / (count - 1))) for m in range(count)]


def _loop_cost(dist: np.ndarray, i: int, span: int, count: int, nominal_span: int,
               floor: float) -> tuple[float, float]:
    """(cost, loop score) of looping frames i .. i+span back to i."""
    n = len(dist)
    j = i + span
    pairs = [(i + k, j + k) for k in range(-SEAM_RUN, SEAM_RUN)
             if i + k >= 0 and j + k < n]
    seam = float(np.mean([dist[a, b] for a, b in pairs]))
    idx = _sample_loop(i, span, count)
    steps = [dist[a, b] for a, b in zip(idx, idx[1:], strict=False)] or [floor]
    step = max(float(np.mean(steps)), floor)
    score = seam / step
    # Prefer the recipe's timing when seams are about equally good.
    return score + 0.3 * abs(span - nominal_span) / nominal_span, score


def _loop_costs(dist: np.ndarray, spans: range, count: int, nominal_span: int, still: int,
                floor: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """_loop_cost of every (span, start) at once, in float64: (costs, spans, starts), in
    the order the candidates are tried. Within ~1e-6 of the exact costs (their means are
    taken over float32 distances), so only a near-tie needs the exact cost."""
    n = len(dist)
    d = dist.astype(np.float64)
    costs, all_spans, starts = [], [], []
    for span in spans:
        i = np.arange(still, n - span)
        if not len(i):
            continue
        j = i + span
        seam_sum = np.zeros(len(i))
        seam_n = np.zeros(len(i))
        for k in range(-SEAM_RUN, SEAM_RUN):
            ok = (i + k >= 0) & (j + k < n)
            seam_sum += np.where(ok, d[np.clip(i + k, 0, n - 1), np.clip(j + k, 0, n - 1)], 0)
            seam_n += ok
        offsets = _sample_loop(0, span, count)
        if len(offsets) > 1:
            step = np.mean([d[i + a, i + b] for a, b in zip(offsets, offsets[1:],
                                                           strict=False)], axis=0)
        else:
            step = np.full(len(i), floor)
        score = seam_sum / seam_n / np.maximum(step, floor)
        costs.append(score + 0.3 * abs(span - nominal_span) / nominal_span)
        all_spans.append(np.full(len(i), span))
        starts.append(i)
    if not costs:
        return np.zeros(0), np.zeros(0, int), np.zeros(0, int)
    return np.concatenate(costs), np.concatenate(all_spans), np.concatenate(starts)


def loop_window(dist: np.ndarray, count: int, nominal_span: int, still: int,
                floor: float, check: CellCheck) -> Window:
    """The loop window: of the windows whose cells lack least (Shortfall, judged by
    `check`), the one whose seam costs least."""
    n = len(dist)
    lo = max(count, int(round(nominal_span * SPAN_RANGE[0])), 2)
    hi = max(lo, int(round(nominal_span * SPAN_RANGE[1])))
    costs, spans, starts = _loop_costs(dist, range(lo, hi + 1), count, nominal_span, still,
                                       floor)
    best = None
    if len(costs):
        lacks, empties = np.empty(len(costs), int), np.empty(len(costs), int)
        for span in sorted(set(spans.tolist())):  # (np.unique imports numpy.ma)
            of_span = spans == span
            cells = starts[of_span, None] + np.array(_sample_loop(0, span, count))
            lacks[of_span] = check.shortfalls(cells)
            empties[of_span] = (~check.present[cells]).sum(axis=1)
        # Only the windows that lack least are candidates: a held pose or an empty stretch
        # loops "perfectly" and would beat every window of moving cells on its seam. Where
        # every window has empty cells, those with the fewest: a reviewer sees what is left.
        pool = np.nonzero(lacks == lacks.min())[0]
        pool = pool[empties[pool] == empties[pool].min()]
        # The exact cost (float32 means, as always) decides among the near-best only: the
        # same window as trying every candidate exactly, at a fraction of the time.
        finite = costs[pool][np.isfinite(costs[pool])]
        low = float(finite.min()) if len(finite) else np.inf
        # (NaN costs are "near" too, and judged exactly as they always were.)
        near = pool[~(costs[pool] > low + 1e-5 * max(1.0, abs(low)))]
        for c in near:  # in the order tried: the first of equal costs wins
            cost, score = _loop_cost(dist, int(starts[c]), int(spans[c]), count,
                                     nominal_span, floor)
            if best is None or cost < best[0]:
                best = (cost, score, int(starts[c]), int(spans[c]), Shortfall(lacks[c]))
    if best is None:  # the clip is shorter than any loop span: use all of it
        span = max(1, n - still)
        idx = [min(x, n - 1) for x in _sample_loop(still, span, count)]
        return _judged(idx, still, span, None, still, check.shortfall(idx))
    _, score, i, span, lack = best
    return _judged(_sample_loop(i, span, count), i, span, score, still, lack)


def oneshot_window(dist: np.ndarray, count: int, nominal_span: int, still: int,
                   check: CellCheck) -> Window:
    """The span that holds the action: from just before it leaves the rest pose, through
    its peak, to its recovery; sampled evenly with both ends included. What its cells lack
    (Shortfall, judged by `check`) is told, not avoided: the action is where it is."""
    n = len(dist)
    rest = max(0, still)
    dev = dist[rest]
    after = np.arange(n) >= rest
    peak = int(np.argmax(np.where(after, dev, -1)))
    quiet = dev < 0.1 * dev[peak]
    before = np.nonzero(quiet[:peak] & after[:peak])[0]
    onset = int(before[-1]) if len(before) else rest
    later = np.nonzero(quiet[peak:])[0]
    end = int(peak + later[0]) if len(later) else n - 1
    span = end - onset + 1
    span = int(np.clip(span, min(nominal_span, n), min(n, round(nominal_span *
                                                               ONESHOT_MAX_STRETCH))))
    start = int(np.clip(onset, 0, n - span))
    idx = _sample_once(start, span, count)
    return _judged(idx, start, span, None, still, check.shortfall(idx))
