"""QC flags: what a reviewer would reject, each with a stated criterion.

Flags are facts about the clip, not errors: the sheet is still written.
- TRUNCATED: the clip has fewer frames than the recipe's snapped length (17k+5).
- NOISE: not a character on a green screen: under half of the frame border matches the
  backdrop, or the character mask is mostly scattered specks (largest part < 60% of it),
  or it covers more than 85% of the frame, or most frames hold no character at all.
- STATIC: after alignment and a 5-frame moving average, no frame differs from the rest
  pose by more than 10% of the character's own signal (RMS); measured: subtle breathing
  ~25%, a still clip with noise and H.264 ~5%.
- CROPPED: in a sheet frame, the character touches the canvas edge (more than 1% of an
  edge's length of character pixels in its outermost row or column).
- FACING: the character ends the clip facing the other way: judged on the upper body
  (head and torso; legs swap sides in every walk), over the last quarter of the clip the
  mirror image of the rest pose is closer than the rest pose itself, by a median margin of
  5% of the signal; only when the rest pose's upper body is clearly asymmetric (mirror
  distance >= 15% of the signal). A lean or a turn that comes back is not flagged.
- SMEAR (trailing/ghosting) is not flagged yet: no criterion we tried separated ghosting
  from thin or backdrop-coloured parts reliably on our fixtures.
"""

from __future__ import annotations

import numpy as np

from .window import Features

STATIC_BELOW = 0.1
EDGE_SHARE = 0.01
FACING_MARGIN = 0.05
ASYMMETRY_MIN = 0.15


def truncated(frame_count: int, expected: int) -> bool:
    return frame_count < expected


def noise(masks: np.ndarray, backdrop_share: float, largest_share: list[float]) -> bool:
    """largest_share: per frame, the largest connected part's share of the raw mask."""
    if backdrop_share < 0.5:
        return True
    h, w = masks.shape[1:]
    totals = masks.sum(axis=(1, 2))
    n = len(masks)
    empty = int((totals < 8).sum())
    covering = int((totals > 0.85 * h * w).sum())
    scattered = sum(1 for t, s in zip(totals, largest_share, strict=True) if t >= 8 and s < 0.6)
    return empty > n / 2 or scattered > n / 3 or covering > n / 3


def signal(feat: Features, rest: int) -> float:
    return float(np.sqrt((feat.vectors[rest] ** 2).mean())) or 1e-6


def static(feat: Features, rest: int) -> tuple[bool, float]:
    """Largest departure from the rest pose, on a 5-frame moving average (so compression
    noise and mask flicker average out while breathing, a slow motion, survives)."""
    v = feat.vectors
    k = min(5, len(v))
    c = np.cumsum(np.vstack([np.zeros((1, v.shape[1]), v.dtype), v]), axis=0)
    smooth = (c[k:] - c[:-k]) / k
    r = min(rest, len(smooth) - 1)
    d = np.sqrt(((smooth - smooth[r]) ** 2).mean(1))
    motion = float(d.max()) / signal(feat, rest)
    return motion < STATIC_BELOW, motion


def cropped(masks: np.ndarray, frames: list[int]) -> bool:
    for t in frames:
        m = masks[t]
        h, w = m.shape
        edges = ((m[0].sum(), w), (m[-1].sum(), w), (m[:, 0].sum(), h), (m[:, -1].sum(), h))
        if any(count > max(1, EDGE_SHARE * length) for count, length in edges):
            return True
    return False


def _shift_tolerant(u: np.ndarray, ref: np.ndarray, side: int, shifts: int) -> np.ndarray:
    """RMS distance of each row-block u[t] to ref, at its best horizontal shift."""
    n = len(u)
    a = u.reshape(n, -1, side, 4)
    r = ref.reshape(-1, side, 4)
    best = np.full(n, np.inf)
    for s in range(-shifts, shifts + 1):
        d = np.sqrt(((a - np.roll(r, s, axis=1)[None]) ** 2).mean(axis=(1, 2, 3)))
        best = np.minimum(best, d)
    return best


def facing(feat: Features, rest: int) -> bool:
    from .window import FEATURE_SIDE

    u, um = feat.upper_body()
    scale = float(np.sqrt((u[rest] ** 2).mean())) or 1e-6
    # Up to 8% of the width of slack: the anchor is not exactly the body's mirror axis.
    shifts = max(1, FEATURE_SIDE // 12)
    same = _shift_tolerant(u, u[rest], FEATURE_SIDE, shifts) / scale
    turned = _shift_tolerant(u, um[rest], FEATURE_SIDE, shifts) / scale
    if turned[rest] < ASYMMETRY_MIN:
        return False  # a symmetric pose cannot tell which way it faces
    tail = slice(max(rest + 1, int(0.75 * len(u))), len(u))
    closer_mirrored = turned[tail] - same[tail]
    return bool(len(closer_mirrored)) and float(np.median(closer_mirrored)) < -FACING_MARGIN
