"""The out-of-memory ladder: what to try next when the GPU ran out of memory.

From the notes: shorter first (it frees most), then a smaller canvas, steps last.
"""

from __future__ import annotations

from comfy_nodes.core.snap import snap_length

LADDER_CANVASES = [(512, 320), (448, 256)]
LADDER_STEPS = [6, 4]


def next_rung(seconds: float, size: tuple[int, int], steps: int | None,
              has_steps: bool) -> tuple[float, tuple[int, int], int | None, str] | None:
    """The next rung of the OOM ladder, or None at the bottom: (seconds, canvas, steps, what).

    Shorter first (one 17k+5 length down, to 22 frames at least), then a smaller canvas of
    the same orientation (512x320, then 448x256), then fewer steps (6, then 4)."""
    frames = snap_length(seconds)
    if frames - 17 >= 22:
        shorter = (frames - 17) / 24
        return shorter, size, steps, f"{frames - 17} frames ({shorter:.2f} s)"
    landscape = size[0] >= size[1]
    for w, h in LADDER_CANVASES:
        cw, ch = (w, h) if landscape else (h, w)
        if cw * ch < size[0] * size[1]:
            return seconds, (cw, ch), steps, f"canvas {cw}x{ch}"
    for s in LADDER_STEPS:
        if has_steps and (steps is None or s < steps):
            return seconds, size, s, f"{s} steps"
    return None
