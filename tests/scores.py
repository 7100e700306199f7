"""How close a matted frame is to the truth: the measures the quality report prints and the
tests assert (issue 9's thresholds).

- IoU of the opaque silhouette (alpha >= 128) with the true body (light outline excluded);
- holes: share of the true body's interior (1 px in) that came out transparent;
- edge green excess: in the outermost 2 px of the true body, the mean of g - max(r, b)
  (for a blue screen, b - max(r, g)) of what we kept, minus the same of the truth;
- interior colour error: mean absolute RGB difference (levels, per channel) over the true
  body deeper than 2 px, light-wrap zone included.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_IOU = 0.95
MAX_HOLES = 0.02
EDGE_EXCESS = (-8.0, 6.0)
MAX_INTERIOR_ERROR = 12.0
EDGE_PX = 2


@dataclass(frozen=True)
class Score:
    iou: float
    holes: float
    edge_excess: float  # ours minus truth, levels
    interior_error: float  # levels

    def ok(self) -> bool:
        return (self.iou >= MIN_IOU and self.holes <= MAX_HOLES
                and EDGE_EXCESS[0] <= self.edge_excess <= EDGE_EXCESS[1]
                and self.interior_error <= MAX_INTERIOR_ERROR)


def _excess(rgb: np.ndarray, key_channel: int) -> np.ndarray:
    rgb = rgb.astype(np.float32)
    others = [c for c in range(3) if c != key_channel]
    return rgb[..., key_channel] - np.maximum(rgb[..., others[0]], rgb[..., others[1]])


def score(got: np.ndarray, truth: np.ndarray, body: np.ndarray, key_channel: int = 1) -> Score:
    """got, truth: (H, W, 4) RGBA uint8; body: (H, W) true alpha without a light outline."""
    mine = got[..., 3] >= 128
    solid = body >= 128
    iou = float((mine & solid).sum() / max((mine | solid).sum(), 1))
    depth = cv2.distanceTransform(solid.astype(np.uint8), cv2.DIST_L2, 5)
    inner = (body == 255) & (depth > 1)
    holes = float((inner & ~mine).sum() / max(inner.sum(), 1))
    edge = solid & (depth <= EDGE_PX) & mine
    excess = float(_excess(got[..., :3][edge], key_channel).mean()
                   - _excess(truth[..., :3][edge], key_channel).mean()) if edge.any() else 0.0
    deep = (body == 255) & (depth > EDGE_PX) & mine
    err = float(np.abs(got[..., :3][deep].astype(np.float32)
                       - truth[..., :3][deep]).mean()) if deep.any() else 0.0
    return Score(iou, holes, excess, err)
