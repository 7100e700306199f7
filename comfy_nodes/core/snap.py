"""H3's hard rules: clip length 17k+5 frames (rounded upward only), canvas sides multiples of 32.

From the field notes: `n = max(5, round(seconds*24)); n += (5 - n % 17) % 17`
(0.7 s -> 22, 1 s -> 39, 1.5 s -> 39, 2 s -> 56, 2.5 s -> 73, 5 s -> 124), and 1:1 at
0.2 MP is 448x448; the short edge is at most 768 on any local card.

Sizes follow ComfyUI's own Resolution Selector, which H3's official template uses: a
megapixel is 1024x1024 pixels and each side is rounded to the nearest multiple of 32
(0.98 MP 16:9 -> 1344x768, the official 768p).
"""

from __future__ import annotations

import math

FPS = 24
SIDE_STEP = 32
MEGAPIXEL = 1024 * 1024  # ComfyUI's Resolution Selector counts a megapixel so
MAX_SHORT_EDGE = 768
ASPECTS = {"1:1": (1, 1), "16:9": (16, 9), "9:16": (9, 16), "4:3": (4, 3), "3:4": (3, 4),
           "21:9": (21, 9)}
# Above 16:9 the video reference is shrunk to a 480-px short edge (the reference is ~88% of
# the packed sequence; weight-placement notes). Snapped 16:9 canvases such as 1376x768
# (1.79) still count as 16:9; 21:9 (2.33) is "above".
WIDE_REFERENCE_SHORT_EDGE = 480
WIDE_ABOVE = 1.85


def _round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5))


def snap_length(seconds: float) -> int:
    """Frames H3 will generate for `seconds`: the next 17k+5 at or above round(seconds*24)."""
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"seconds must be a positive number, got {seconds!r}")
    n = max(5, _round_half_up(seconds * FPS))
    return n + (5 - n % 17) % 17


def snapped_seconds(seconds: float) -> float:
    """The real duration of the snapped clip (2.5 s asks for 73 frames = 3.04 s)."""
    return snap_length(seconds) / FPS


def is_valid_length(frames: int) -> bool:
    return frames >= 5 and frames % 17 == 5


def parse_aspect(aspect: str) -> tuple[float, float]:
    """'16:9' or a preset name -> (w, h); raises ValueError naming the accepted forms."""
    if aspect in ASPECTS:
        return ASPECTS[aspect]
    try:
        w, h = (float(p) for p in aspect.split(":"))
    except ValueError:
        raise ValueError(f"aspect {aspect!r} is not W:H (e.g. 4:3) or one of "
                         f"{', '.join(ASPECTS)}") from None
    if w <= 0 or h <= 0:
        raise ValueError(f"aspect {aspect!r} must have positive sides")
    return w, h


def snap_size(megapixels: float, aspect: str | tuple[float, float] = "1:1") -> tuple[int, int]:
    """(width, height) as ComfyUI's Resolution Selector gives them at multiple 32
    (megapixel = 1024x1024, each side to the nearest multiple of 32, Python's round), with
    the short edge capped at 768."""
    if not math.isfinite(megapixels) or megapixels <= 0:
        raise ValueError(f"megapixels must be positive, got {megapixels!r}")
    aw, ah = parse_aspect(aspect) if isinstance(aspect, str) else aspect
    scale = math.sqrt(megapixels * MEGAPIXEL / (aw * ah))
    width, height = aw * scale, ah * scale
    short = min(width, height)
    if short > MAX_SHORT_EDGE:
        width, height = width * MAX_SHORT_EDGE / short, height * MAX_SHORT_EDGE / short
    w = max(SIDE_STEP, round(width / SIDE_STEP) * SIDE_STEP)
    h = max(SIDE_STEP, round(height / SIDE_STEP) * SIDE_STEP)
    while min(w, h) > MAX_SHORT_EDGE:  # rounding up may cross the cap
        if w <= h:
            w -= SIDE_STEP
        else:
            h -= SIDE_STEP
    return w, h


def reference_size(width: int, height: int) -> tuple[int, int]:
    """Size of the video reference for a canvas: above 16:9, a 480-px short edge."""
    long_, short = max(width, height), min(width, height)
    if long_ / short <= WIDE_ABOVE:
        return width, height
    k = WIDE_REFERENCE_SHORT_EDGE / short
    return _round_half_up(width * k), _round_half_up(height * k)


def snap_custom(width: int, height: int) -> tuple[int, int]:
    """Exact sides snapped to the nearest multiple of 32, short edge capped at 768."""
    w = max(SIDE_STEP, _round_half_up(width / SIDE_STEP) * SIDE_STEP)
    h = max(SIDE_STEP, _round_half_up(height / SIDE_STEP) * SIDE_STEP)
    short = min(w, h)
    if short > MAX_SHORT_EDGE:
        k = MAX_SHORT_EDGE / short
        w = max(SIDE_STEP, int(w * k) // SIDE_STEP * SIDE_STEP)
        h = max(SIDE_STEP, int(h * k) // SIDE_STEP * SIDE_STEP)
    return w, h
