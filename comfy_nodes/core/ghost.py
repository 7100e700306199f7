"""Ghosting undone where it left a trail: a clip flagged SMEAR shows in each frame a faint
copy of the pose before (`qc.ghosting` reads its share). Where the character has just been,
the matte read that copy as a half-transparent character in colours the despill could not
explain (a trail behind every limb on the sheet).

A video model's ghost is a blend of two poses, frame_t = (1 - s) clean_t + s clean_t-1, so
the clean frames come back one after another, each from its frame and the clean one before:

    clean_t = (frame_t - s * clean_t-1) / (1 - s)

An error in clean_t-1 (the first frame taken as clean, compression, a share a little off)
enters clean_t times -s / (1 - s): it alternates in sign and dies away (0.54x a frame at
35 %), and the recursion is started LEAD_IN frames before the first it must give. The
clip's own noise comes out 1 / sqrt(1 - 2s) as strong (1.8x at 35 %), in the trail only.

Where the ghost blends the previous frame as shown (frame_t = (1 - s) clean_t + s frame_t-1,
each pose living on at s^k: `qc.ghosting` tells it by what the frame before the previous
one leaves), one step undoes it: clean_t = (frame_t - s frame_t-1) / (1 - s).

Only pixels the clean frame shows as backdrop, and the character's rim within TRAIL_REACH
of them, take it: the trail. Elsewhere the frame is kept as it came, since not every ghost
blends the whole frame: one generator drew its ghost behind the current pose (the pose
itself unmixed), and there the whole clean frame took a share of the previous pose out of
the character (edge -10.5 against +0.5 untouched).
Measured on the 12 clips of trials 15-32 that SMEAR flags (eleven ghosts of 21-35 % from
seven generators, and a false flag): see docs/qc.md#smear.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .backdrop import KeyModel, colour_distance
from .qc import NOT_SOLID

# Frames the recursion runs before the first it must give, so that an error in the frame
# taken as clean (frame 0 may be the user's canvas) has died away: s / (1 - s) is at most
# 0.8 (qc.ghosting reads copies at most FAINT_SHARES' 0.8 of the previous frame: s <= 0.44),
# 0.8^16 = 3 % of it; at a 35 % ghost 0.54^16, nothing.
LEAD_IN = 16
# The trail reaches this far round the pixels whose clean colour is backdrop into the
# character: its trailing rim held the ghost of the pose's inside. Trial 28's run: edge
# -10.3 at 0 px, -7.0 at 1, -5.6 at 2; the clips whose truth has no ghost gained
# 0.001-0.018 IoU from 0 to 2.
TRAIL_REACH = 2
_REACH = np.ones((2 * TRAIL_REACH + 1,) * 2, np.uint8)


def unghosted(frames: np.ndarray, indices: Sequence[int], share: float,
              key: KeyModel, recursive: bool = False,
              whole: bool = False) -> dict[int, np.ndarray]:
    """The frames (uint8 RGB) of `frames` (N, H, W, 3) at `indices`, with the ghost's trail
    (pixels whose clean colour is backdrop, and TRAIL_REACH px round them) taken from the
    clean frames: `key` at the frames' size (`KeyModel.sized`). The frames from LEAD_IN
    before the first index to the last are read, one at a time into one float frame; a
    window nearer the clip's start than that starts at frame 0, taken as clean (an H3
    clip's first frame is the user's canvas, which the model has not yet ghosted). The
    result holds one frame per index: as many as the sheet has cells, beside the clip's
    own full-resolution frames (28 MB at 720p for 10 cells). A recursive ghost (a blend of
    the previous frame as shown: frame_t = (1 - s) clean_t + s frame_t-1) is undone from
    each frame and the one before it as it came, with no recursion to start."""
    wanted = set(indices)
    if recursive:
        out = {}
        for t in wanted:
            before = frames[max(t - 1, 0)].astype(np.float32)
            clean = np.clip((frames[t].astype(np.float32) - share * before) / (1 - share),
                            0, 255)
            out[t] = _taken(clean, frames[t], key, t, whole)
        return out
    start = max(0, min(wanted) - LEAD_IN)
    clean = frames[start].astype(np.float32)
    out = {start: frames[start]} if start in wanted else {}
    for t in range(start + 1, max(wanted) + 1):
        # Within the colours a frame can hold: an overshoot would feed the next frame.
        clean = np.clip((frames[t].astype(np.float32) - share * clean) / (1 - share), 0, 255)
        if t in wanted:
            out[t] = _taken(clean, frames[t], key, t, whole)
    return out


def _taken(clean: np.ndarray, frame: np.ndarray, key: KeyModel, t: int,
           whole: bool) -> np.ndarray:
    """Frame t (uint8): the clean frame (float) where `whole`, else the frame as it came
    with its trail taken from the clean one."""
    if whole:
        return (clean + 0.5).astype(np.uint8)
    return np.where(_trail(clean, key.at(t).plate, key.threshold)[..., None],
                    (clean + 0.5).astype(np.uint8), frame)


def _trail(clean: np.ndarray, plate: np.ndarray, threshold: float) -> np.ndarray:
    """(H, W) bool: where the clean frame shows the backdrop, and TRAIL_REACH px round it."""
    backdrop = colour_distance(clean, plate) <= NOT_SOLID * threshold
    return cv2.dilate(backdrop.astype(np.uint8), _REACH) > 0
