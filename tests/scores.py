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

from comfy_nodes.core.reference import portrait_reference

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


@dataclass(frozen=True)
class Report:
    """One fixture through the whole chain, its sheet's cells against the truth."""

    name: str
    scores: list[Score]  # per cell
    flags: list[str]
    loop_grade: str | None
    feet_jitter: float  # px in the cell: spread (std) of the true lowest row over cells
    seconds: float  # decode + post-processing
    smear: float
    meta: dict
    panel: np.ndarray  # RGB: our middle cell and the truth, on magenta and on white

    def mean(self, field: str) -> float:
        return float(np.mean([getattr(s, field) for s in self.scores]))

    def ok(self) -> bool:
        return (self.mean("iou") >= MIN_IOU and self.mean("holes") <= MAX_HOLES
                and EDGE_EXCESS[0] <= self.mean("edge_excess") <= EDGE_EXCESS[1]
                and self.mean("interior_error") <= MAX_INTERIOR_ERROR)


def _cell_matrix(rect: list[float], cell: tuple[int, int]) -> np.ndarray:
    x, y, w, _ = rect
    k = cell[0] / w
    return np.array([[k, 0.0, -x * k], [0.0, k, -y * k]], np.float64)


def _on(rgba: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    a = rgba[..., 3:4].astype(np.float32) / 255
    return (rgba[..., :3] * a + np.array(colour, np.float32) * (1 - a) + 0.5).astype(np.uint8)


def evaluate(name: str, fx, cell_height: int = 300) -> Report:
    """Run fixture fx (tests.footage.Footage) as `driver process --portrait` does."""
    import time

    from comfy_nodes.core import pipeline, video
    from comfy_nodes.core.export import texturepacker
    from comfy_nodes.core.recipes import DEFAULT_RECIPES

    recipe = DEFAULT_RECIPES[fx.action]
    t0 = time.perf_counter()
    clip = video.decode(fx.path, keep=pipeline.full_frames(recipe))
    res = pipeline.process_clip(clip, fx.action, recipe, cell_height=cell_height,
                                reference=portrait_reference(fx.portrait))
    seconds = time.perf_counter() - t0
    meta = texturepacker.document(res, f"{fx.action}.webp")  # the JSON a user gets
    cw, ch = meta["meta"]["cell"]["w"], meta["meta"]["cell"]["h"]
    key_channel = int(np.argmax(meta["meta"]["key"]["rgb"]))
    scores, lows, panel = [], [], None
    for i, (cell, frame) in enumerate(zip(res.cells, meta["frames"].values(), strict=True)):
        t = frame["source"]["index"]
        if clip.decoded_index is not None:  # resampled by timestamp: the frame drawn
            t = clip.decoded_index[t]
        m = _cell_matrix(frame["source"]["rect"], (cw, ch))
        truth = pipeline._premultiplied_warp(fx.truth(t), m, (cw, ch))
        body = fx.body(t)
        body_rgba = np.dstack([np.zeros(body.shape + (3,), np.uint8), body])
        body_c = pipeline._premultiplied_warp(body_rgba, m, (cw, ch))[..., 3]
        scores.append(score(cell, truth, body_c, key_channel))
        rows = np.nonzero((truth[..., 3] >= 128).any(1))[0]
        if len(rows):
            lows.append(rows[-1])
        if i == len(res.cells) // 2:
            panel = np.concatenate([_on(cell, (255, 0, 255)), _on(truth, (255, 0, 255)),
                                    _on(cell, (255, 255, 255)), _on(truth, (255, 255, 255))],
                                   axis=1)
    anim = meta["meta"]["animation"]
    assert panel is not None  # a sheet has at least one cell
    return Report(name, scores, [str(f) for f in res.qc], anim["loop_grade"],
                  float(np.std(lows)) if lows else 0.0, seconds,
                  meta["meta"]["qc"]["smear"], meta, panel)
