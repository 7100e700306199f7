"""Preview Motion: a CPU stand-in for H3 (NOT the model) that animates a first frame.

It cuts the character out of the green first frame with the core matte, then moves it per
action (idle breathing, walk/run bob and stride, attack lunge and return, skill rise, hurt
knockback) and composites it back on the backdrop, after a short still opening as a real
image-to-video model has. Frame 0 is the first frame, unchanged. It exists so the demo,
the tests and a user's dry run exercise every other part of the pipeline for real.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from . import matte
from .backdrop import estimate_key
from .quantiles import median

ACTIONS = ("idle", "walk", "run", "attack", "skill", "hurt")
STILL_FRAMES = 3
FPS = 24


def _motion(action: str, t: float, span: float) -> dict:
    """Global motion at time t (s) of an action lasting `span` seconds."""
    ph = 2 * math.pi * t
    if action == "idle":
        return {"sy": 1 + 0.015 * math.sin(ph * 0.8), "sx": 1 - 0.006 * math.sin(ph * 0.8)}
    if action in ("walk", "run"):
        f = 1.0 if action == "walk" else 1.5
        amp = 0.10 if action == "walk" else 0.16
        return {"dy": -0.02 * abs(math.sin(ph * f)), "rot": (3 if action == "walk" else 7),
                "stride": amp * math.sin(ph * f)}
    x = min(max(t / max(span, 1e-3), 0.0), 1.0)
    bump = math.sin(math.pi * x) ** 2
    if action == "attack":
        wind = -0.3 * math.sin(2 * math.pi * x) if x < 0.5 else 0.0
        return {"dx": 0.12 * bump + 0.03 * wind, "rot": 10 * bump - 4 * wind,
                "sx": 1 + 0.05 * bump}
    if action == "skill":
        return {"dy": -0.08 * bump, "sy": 1 + 0.06 * bump, "glow": 0.35 * bump}
    if action == "hurt":
        return {"dx": -0.10 * bump, "rot": -12 * bump, "flash": 0.5 * bump}
    raise ValueError(f"Preview Motion has no motion for action {action!r}; "
                     f"choose one of {', '.join(ACTIONS)}")


def animate(first: np.ndarray, action: str, frames: int, seed: int = 0,
            last: np.ndarray | None = None) -> np.ndarray:
    """(frames, H, W, 3) uint8; frames[0] is `first` unchanged. With `last` (H3's
    last_frame, loop closure), the motion eases into it over the final quarter and the
    final frame is `last` unchanged."""
    if last is not None and last.shape != first.shape:
        raise ValueError(f"last_frame is {last.shape[1]}x{last.shape[0]} but first_frame is "
                         f"{first.shape[1]}x{first.shape[0]}: give both the same size")
    if action not in ACTIONS:
        _motion(action, 0, 1)
    if frames < 1:
        raise ValueError(f"frames must be >= 1, got {frames}")
    h, w, _ = first.shape
    key = estimate_key(first[None]).at(0)
    rgba = matte.refine(first, key, defringe=False)
    a = rgba[..., 3:4].astype(np.float32) / 255
    if (a > 0.5).sum() < 16:
        raise ValueError("Preview Motion found no character on the first frame's backdrop")
    plate = key.plate_at(h, w)
    # The backdrop with the character lifted off; widened so no edge pixel stays behind.
    a_bg = cv2.dilate(a[..., 0], np.ones((5, 5), np.uint8))[..., None]
    behind = first * (1 - a_bg) + plate * a_bg
    ys, xs = np.nonzero(a[..., 0] > 0.5)
    feet = (float(median(xs)), float(ys.max() + 1))
    top = float(ys.min())
    size = feet[1] - top
    prem = np.concatenate([rgba[..., :3] * a, a * 255], axis=-1).astype(np.float32)
    rng = np.random.default_rng(seed)
    phase = rng.uniform(0, 0.25)  # seeds vary the motion a little, as a sampler would
    span = max(frames - STILL_FRAMES, 1) / FPS * 0.85
    out = np.empty((frames, h, w, 3), np.uint8)
    out[0] = first
    yy = np.arange(h, dtype=np.float32)
    for i in range(1, frames):
        if i < STILL_FRAMES:
            out[i] = first
            continue
        t = (i - STILL_FRAMES) / FPS + (phase if action in ("idle", "walk", "run") else 0)
        mo = _motion(action, t, span)
        # Rotate (positive leans forward, i.e. clockwise on screen) and scale about the
        # feet, then shift; all in one affine.
        rot = cv2.getRotationMatrix2D(feet, -mo.get("rot", 0.0), 1.0)[:, :2]
        lin = rot @ np.diag([mo.get("sx", 1.0), mo.get("sy", 1.0)])
        shift = np.array(feet) - lin @ np.array(feet)
        shift += (mo.get("dx", 0.0) * size, mo.get("dy", 0.0) * size)
        m = np.hstack([lin, shift[:, None]])
        layer = cv2.warpAffine(prem, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=0)
        stride = mo.get("stride", 0.0)
        if stride:
            # Legs: shear the lower half sideways, more at the feet (a stride, cheaply).
            hip = top + 0.55 * size
            ramp = np.clip((yy - hip) / max(feet[1] - hip, 1), 0, 1) * stride * size
            map_x = (np.arange(w, dtype=np.float32)[None, :] - ramp[:, None]).astype(np.float32)
            map_y = np.repeat(yy[:, None], w, axis=1)
            layer = cv2.remap(layer, map_x, map_y, cv2.INTER_LINEAR, borderValue=0)
        la = layer[..., 3:4] / 255
        colour = layer[..., :3]
        if mo.get("flash"):
            colour = colour + (255 * la - colour) * mo["flash"]
        if mo.get("glow"):
            colour = colour * (1 + mo["glow"])
        frame = colour + behind * (1 - la)
        out[i] = np.clip(frame + 0.5, 0, 255).astype(np.uint8)
    if last is not None and frames > 1:
        _ease_into(out, last)
    return out


def _ease_into(out: np.ndarray, last: np.ndarray) -> None:
    """Blend the final quarter of `out` (at least 2 frames) into `last`, smoothly."""
    n = len(out)
    tail = min(n - 1, max(2, n // 4))
    for j in range(1, tail + 1):
        i = n - 1 - tail + j
        k = j / tail
        k = k * k * (3 - 2 * k)  # smoothstep: no jolt where the blend starts
        out[i] = np.clip(out[i] * (1 - k) + last.astype(np.float32) * k + 0.5, 0,
                         255).astype(np.uint8)
