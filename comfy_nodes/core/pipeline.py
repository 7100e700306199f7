"""Clip -> sprite strip: the whole post-processing chain as one plain function.

decode -> learn the backdrop -> coarse masks of every frame (small) -> measures and the
alignment trend -> aligned features -> window (loop or one-shot) -> QC -> full-resolution
matte/despill/defringe of the sheet frames only -> one warp per cell -> strip.

The costly full-resolution work touches only the frames that end up on the sheet; every
whole-clip decision is made on small frames.
"""

from __future__ import annotations

import functools
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from . import align as align_mod
from . import backdrop, drawn, ghost, matte, qc, silhouette
from . import window as window_mod
from .qc import NO_GHOSTING, Ghosting
from .quantiles import median, nanmedian
from .recipes import Recipe
from .reference import Reference
from .sheet import AlignmentInfo, Cell, ClipWindow, KeyColour, LoopGrade, QCFlag, Sheet
from .video import Clip, ClipError

CELL_MARGIN = 0.04  # of the character's height, around the union of its poses
FRAME_SLACK = 8  # frames kept at full resolution beyond the recipe's generated length


def _premultiplied_warp(rgba: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Resample RGBA without dark or green fringes: warp premultiplied, then divide.

    Only the part of the frame that lands in the cell is touched."""
    inv = cv2.invertAffineTransform(m)
    cw, ch = size
    corners = inv @ np.array([[0, cw, 0, cw], [0, 0, ch, ch], [1, 1, 1, 1]], np.float64)
    h, w = rgba.shape[:2]
    x0 = int(np.clip(np.floor(corners[0].min()) - 2, 0, w))
    x1 = int(np.clip(np.ceil(corners[0].max()) + 2, 0, w))
    y0 = int(np.clip(np.floor(corners[1].min()) - 2, 0, h))
    y1 = int(np.clip(np.ceil(corners[1].max()) + 2, 0, h))
    if x1 <= x0 or y1 <= y0:
        return np.zeros((ch, cw, 4), np.uint8)
    src = rgba[y0:y1, x0:x1]
    m = m.copy()
    m[:, 2] += m[:, :2] @ np.array([x0, y0], np.float64)
    # Plane by plane with OpenCV: numpy's broadcasts over a 4-long last axis took 2.7x as
    # long, the same bits (3.3 -> 1.2 ms a 448 px frame).
    *rgb, a = cv2.split(src.astype(np.float32))
    a255 = a / 255
    prem = cv2.merge([cv2.multiply(c, a255) for c in rgb] + [a])
    k = math.sqrt(abs(np.linalg.det(m[:, :2])))
    if k < 0.75:  # shrinking: low-pass first so fine detail does not alias
        prem = cv2.GaussianBlur(prem, (0, 0), 0.45 / k)
    out = cv2.warpAffine(prem, m, size, flags=cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    *rgb, alpha = cv2.split(out)
    unpremultiply = 255 / np.maximum(alpha, 1e-3)
    res = cv2.merge([np.clip(c * unpremultiply + 0.5, 0, 255).astype(np.uint8) for c in rgb]
                    + [np.clip(alpha + 0.5, 0, 255).astype(np.uint8)])
    res[res[..., 3] == 0] = 0
    return res


@dataclass
class Analysis:
    """Every whole-clip decision, made on small frames."""

    key: backdrop.KeyModel
    scale: float  # small frames / full resolution
    masks: np.ndarray
    measures: align_mod.Measures
    alignment: align_mod.Alignment
    window: window_mod.Window
    qc: list[str]
    motion: float
    timings: dict[str, float]
    crop: tuple[int, int, int, int] = (0, 0, 0, 0)  # x, y, w, h of the picture (bars cut)
    ghosting: Ghosting = NO_GHOSTING  # (its qc field hides the module here)

    @property
    def smear(self) -> float:
        """SMEAR's score (meta.qc.smear)."""
        return self.ghosting.score

    @property
    def ghost_share(self) -> float:
        """The share of each clean frame in the next that a clip flagged SMEAR is matted
        without (core/ghost.py); 0.0 for any other clip."""
        return self.ghosting.undo_share if "SMEAR" in self.qc else 0.0


def full_frames(recipe: Recipe) -> int:
    """How many leading frames of a clip the sheet may use, so a decode keeps only those
    at full resolution: the recipe's generated length and a few to spare. A longer clip's
    window is chosen within them (meta.clip.horizon); the whole clip is still analysed
    (QC) on its reduced copy. Memory then follows the sheet, not the clip."""
    return recipe.clip_frames + FRAME_SLACK


def _views(clip: Clip) -> tuple[np.ndarray, np.ndarray, int]:
    """(full-resolution frames, reduced copy of every frame, shrink factor)."""
    if clip.small is not None:
        return clip.frames, clip.small, clip.factor
    h, w = clip.frames.shape[1:3]
    factor = backdrop.model_factor(h, w)
    return clip.frames, backdrop.shrink(clip.frames, factor), factor


class Stopwatch:
    """Per-stage seconds: lap("name") records the time since the previous lap."""

    def __init__(self, timings: dict[str, float] | None = None):
        self.timings = timings if timings is not None else {}
        self.t0 = time.perf_counter()

    def __call__(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name] = round(now - self.t0, 4)
        self.t0 = now


@dataclass
class _Decided:
    """What the sheet's pixels depend on (backdrop, masks, alignment, window), and the QC
    flags judged on the way. The turn (FACING) and ghosting (SMEAR) checks change no pixel
    and are the costliest: they are judged after, while the cells are being made (51 and
    54 ms of a 448 px clip's 123 ms of whole-clip work, run on one core while the others
    waited). FACING keeps the features' vectors (36 KB a frame) until it is judged."""

    key: backdrop.KeyModel
    scale: float
    small: np.ndarray  # the reduced frames, bars cut
    masks: np.ndarray
    measures: align_mod.Measures
    alignment: align_mod.Alignment
    window: window_mod.Window
    crop: tuple[int, int, int, int]
    flags: list[str]
    motion: float
    is_noise: bool
    is_static: bool
    lap: Stopwatch
    body: np.ndarray  # the features' vectors, for FACING
    height: float  # the character's height in full-resolution pixels
    rest: int  # the rest pose (the end of a still opening)
    fps: float
    cut: np.ndarray  # (N,) bool: frames whose character the frame's edge cuts (qc.cut)


def coarse_masks(small: np.ndarray, key: backdrop.KeyModel, palette: np.ndarray | None,
                 parts: list | None = None) -> np.ndarray:
    """backdrop.coarse_masks of the reduced frames; with the portrait's colours (K, 3,
    Reference.colours), the
    full-resolution silhouette's own corrections too (silhouette.by_reference): a skin or
    shirt under the key's threshold is kept where it is a portrait colour, a deep contact
    shadow is dropped. Measured on independent trials: a green zombie (skin 25 levels off
    a noisy screen whose threshold is 41) had lost 24 % of its body and was NOISE; a
    robot's shadow running out of a 352-px frame, and a dark corner under a hurt's feet,
    made their clips CROPPED."""
    if palette is None:
        return backdrop.coarse_masks(small, key, parts)

    def correct(p: np.ndarray, plate: np.ndarray, d: np.ndarray, raw: np.ndarray
                ) -> np.ndarray:
        return silhouette.by_reference(p, plate, d, raw, palette, key, coarse=True)[0]

    return backdrop.coarse_masks(small, key, parts, correct)


def _decide(clip: Clip, recipe: Recipe, palette: np.ndarray | None = None) -> _Decided:
    """Backdrop, coarse masks, alignment, window and the QC flags but FACING and SMEAR of
    a clip (_judge's). palette: the portrait's colours (K, 3), or None."""
    lap = Stopwatch()

    frames, small, factor = _views(clip)
    n = len(small)
    if n < recipe.frames:
        raise ClipError(f"clip {clip.path or '(in memory)'} has {n} frame(s); a sheet of "
                        f"{recipe.frames} frames needs at least that many: give the whole "
                        f"clip, or lower the recipe's frames")
    # Letterbox bars are no backdrop: cut them before anything learns from the border.
    top, bottom, left, right = qc.bars(small)
    hs, ws = small.shape[1:3]
    small = small[:, top:hs - bottom, left:ws - right]
    h, w = frames.shape[1:3]
    y0, x0 = top * factor, left * factor
    y1 = h if not bottom else (hs - bottom) * factor
    x1 = w if not right else (ws - right) * factor
    crop = (x0, y0, x1 - x0, y1 - y0)
    key = backdrop.estimate_key(small)
    lap("key")
    scale = 1.0 / factor
    largest_share: list[float] = []
    masks = coarse_masks(small, key, palette, largest_share)
    lap("masks")
    measures = align_mod.measure(masks, scale)
    alignment = align_mod.fit(measures, trend=recipe.loop)
    height = float(nanmedian(measures.height)) if np.isfinite(measures.height).any() else h
    feat = window_mod.features(small, masks, alignment, scale, height)
    lap("align")

    noise_floor = 0.01 * (float(np.sqrt((feat.vectors ** 2).mean())) or 1.0)
    # The window lies within the frames held at full resolution.
    m = min(n, len(frames))
    dist = feat.distances[:m, :m]
    still = window_mod.still_opening(dist, noise_floor)
    rest = max(0, still)
    nominal = max(1, round(recipe.duration * clip.fps))
    # What a sheet's cells must do: hold the character, and move by STATIC's threshold.
    check = window_mod.CellCheck(masks[:m].sum(axis=(1, 2)) >= align_mod.EMPTY_BELOW,
                                 window_mod.steady_distances(feat.vectors[:m]),
                                 qc.STATIC_BELOW * qc.signal(feat, rest))
    if recipe.loop:
        win = window_mod.loop_window(dist, recipe.frames, nominal, still, noise_floor, check)
    else:
        win = window_mod.oneshot_window(dist, recipe.frames, nominal, still, check)
    lap("window")

    flags = []
    if qc.truncated(n, clip.fps, recipe.seconds):
        flags.append("TRUNCATED")
    is_noise = qc.noise(masks, key.backdrop_share, largest_share)
    if is_noise:
        flags.append("NOISE")
    # FACING and SMEAR judge the whole clip's motion, so only the clip's own STATIC skips
    # them: a clip that moves, but nowhere its sheet can use, is judged by them all the same.
    is_static, motion = qc.static(feat, rest)
    frozen = win.shortfall is window_mod.Shortfall.FROZEN
    if (is_static or frozen) and not is_noise:
        flags.append("STATIC")
    cut = qc.cut(masks)  # CROPPED's frames, and those FACING leaves out
    # A cell with no character at all is cropped to nothing: the character left the frame.
    empty = win.shortfall is window_mod.Shortfall.EMPTY
    if not is_noise and (cut[win.indices].any() or empty):
        flags.append("CROPPED")
    lap("qc")
    return _Decided(key, scale, small, masks, measures, alignment, win, crop, flags, motion,
                    is_noise, is_static, lap, feat.vectors, height, rest, clip.fps, cut)


JUDGED = ("facing", "smear")  # _judge's own laps


def _judge(d: _Decided) -> Analysis:
    """FACING and SMEAR, the flags that change no pixel, and the Analysis of the clip. Its
    laps are its own (JUDGED, from its start): in process_clip it runs beside the cells."""
    lap = Stopwatch()
    flags = list(d.flags)
    if not d.is_noise and not d.is_static and qc.facing(
            window_mod.head_rows(d.small, d.masks, d.alignment, d.scale, d.height), d.body,
            d.rest, d.fps, d.cut):
        flags.append("FACING")
    lap("facing")
    ghosting = qc.ghosting(d.small, d.masks, d.key) if not d.is_noise else qc.NO_GHOSTING
    if not d.is_static and ghosting.score > qc.SMEAR_ABOVE:
        flags.append("SMEAR")
    lap("smear")
    return Analysis(d.key, d.scale, d.masks, d.measures, d.alignment, d.window, flags,
                    d.motion, {**d.lap.timings, **lap.timings}, d.crop, ghosting)


def analyse(clip: Clip, recipe: Recipe, reference: Reference | None = None) -> Analysis:
    """Backdrop, coarse masks, alignment, window and QC of a clip; with the portrait, as
    process_clip judges them (its coarse masks take the portrait's colours)."""
    return _judge(_decide(clip, recipe, Reference.colours(reference)))


def process_clip(clip: Clip, action: str, recipe: Recipe, character: str = "character",
                 cell_height: int = 300, max_width: int = 8000,
                 reference: Reference | None = None) -> Sheet:
    """The clip as a typed Sheet; exporters (core.export) render its files.

    reference: what the character's portrait tells the despill (portrait_reference):
    its unspilled colours, which light wrap is un-mixed against, and its outline's colour."""
    d = _decide(clip, recipe, Reference.colours(reference))
    lap = d.lap

    cx, cy, cw_, ch_ = d.crop
    frames = clip.frames[:, cy:cy + ch_, cx:cx + cw_]
    n = clip.frame_count
    h, w = frames.shape[1:3]
    key, masks, alignment, win, scale = d.key, d.masks, d.alignment, d.window, d.scale
    # Cell geometry: the union of the sheet frames' aligned boxes, plus a margin.
    boxes = []
    for t in win.indices:
        ys, xs = np.nonzero(masks[t])
        if len(xs) == 0:
            continue
        bx = np.array([xs.min(), xs.max() + 1]) / scale
        by = np.array([ys.min(), ys.max() + 1]) / scale
        ax, ay = align_mod.aligned_points(alignment, t, bx, by)
        boxes.append((ax[0], ay[0], ax[1], ay[1]))
    if boxes:
        b = np.array(boxes)
        x0, y0, x1, y1 = b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()
    else:  # nothing found: the whole frame
        x0, y0, x1, y1 = 0.0, 0.0, float(w), float(h)
    ref_x, ref_y = alignment.ref
    y1 = max(y1, ref_y)  # the baseline is always inside the cell
    pad = CELL_MARGIN * max(y1 - y0, 1.0)
    # Symmetric about the anchor, so flipping the sprite in the game keeps its feet put.
    half_w = max(ref_x - x0, x1 - ref_x) + pad
    x0, x1 = ref_x - half_w, ref_x + half_w
    y0, y1 = y0 - pad, y1 + pad
    k = cell_height / (y1 - y0)
    cw = max(1, int(math.ceil((x1 - x0) * k)))
    ch = cell_height
    shrunk = None
    if cw * len(win.indices) > max_width:
        k2 = k * max_width / (cw * len(win.indices))
        shrunk = {"requested_cell_height": cell_height, "max_width": max_width}
        k = k2
        cw = max(1, int(math.floor((x1 - x0) * k)))
        ch = max(1, int(math.floor((y1 - y0) * k)))
        while cw * len(win.indices) > max_width:
            cw -= 1
    offset = (-x0 * k + (cw - (x1 - x0) * k) / 2, -y0 * k)
    anchor = ((ref_x * k + offset[0]) / cw, (ref_y * k + offset[1]) / ch)
    lap("layout")

    margin = int(8 / scale) + 8
    key = key.sized(h, w)  # the plate at full resolution once, not once per cell

    def box_at(t: int) -> tuple[int, int, int, int] | None:
        """Where the character can be in frame t, at full resolution (None: not found)."""
        ys, xs = np.nonzero(masks[t])
        if not len(xs):
            return None
        return (int(xs.min() / scale) - margin, int(ys.min() / scale) - margin,
                int((xs.max() + 1) / scale) + margin, int((ys.max() + 1) / scale) + margin)

    if reference is not None:
        # The model's drawing of the portrait: a part it drew in another colour (a green
        # shirt pushed nearer the key) is no see-through part.
        reference = drawn.drawn_reference(reference, frames, d.small, masks, key, box_at(0))

    def make_cell(m_i: int, t: int, clean: dict[int, np.ndarray] | None = None
                  ) -> tuple[np.ndarray, Cell]:
        moving = silhouette.moving_at(masks, t, (h, w))
        rgba = matte.refine(frames[t] if clean is None else clean[t], key.at(t), box=box_at(t),
                            reference=reference, moving=moving)
        m = alignment.matrix(t, extra_scale=k, offset=offset)
        inv = cv2.invertAffineTransform(m)
        corners = inv @ np.array([[0, cw, 0, cw], [0, 0, ch, ch], [1, 1, 1, 1]], np.float64)
        x0, y0 = corners[0].min(), corners[1].min()
        rect = (x0 + cx, y0 + cy, corners[0].max() - x0, corners[1].max() - y0)  # clip pixels
        return (_premultiplied_warp(rgba, m, (cw, ch)),
                Cell(f"{character}/{action}/{m_i:02d}", int(t), rect))

    # Cells are independent and OpenCV/numpy release the GIL: use the cores we have. The
    # turn and ghosting checks change no pixel: they are judged while the cells are being
    # made, first in the pool (on the main thread beside two cell workers FACING took twice
    # as long: three threads on two cores). A ghosted clip's cells are made again from its
    # frames with the ghost taken out (core/ghost.py): rare, so no clean clip waits for it.
    with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
        judging = pool.submit(_judge, d)
        made = list(pool.map(make_cell, range(len(win.indices)), win.indices))
        an = judging.result()
        if an.ghost_share:
            clean = ghost.unghosted(frames, win.indices, an.ghost_share, key,
                                    an.ghosting.recursive, an.ghosting.undo_whole)
            made = list(pool.map(functools.partial(make_cell, clean=clean),
                                 range(len(win.indices)), win.indices))
    flags, motion = an.qc, an.motion
    cells = [c for c, _ in made]
    cell_meta = [m for _, m in made]
    lap.timings.update((k, an.timings[k]) for k in JUDGED)  # beside the cells, not after
    lap("matte+warp")  # since the layout: the cells, and the checks beside them
    # The anchor's height from the cells themselves, at full resolution: the median over
    # cells of the lowest opaque row (the coarse masks put it only within a few pixels).
    lows = [np.nonzero((c[..., 3] >= 128).any(1))[0] for c in cells]
    lows = [r[-1] + 1 for r in lows if len(r)]
    if lows:
        anchor = (anchor[0], float(median(lows)) / ch)

    clip_notes: dict[str, Any] = {}
    if (cw_, ch_) != (clip.frames.shape[2], clip.frames.shape[1]):
        clip_notes["crop"] = {"x": cx, "y": cy, "w": cw_, "h": ch_, "why": "letterbox"}
    if clip.timing:
        clip_notes["timing"] = clip.timing
    if clip.display:
        clip_notes["display"] = clip.display
    if len(clip.frames) < n:
        clip_notes["horizon"] = len(clip.frames)
    lap("pack")
    return Sheet(
        character=character, action=action, cells=tuple(cells), sources=tuple(cell_meta),
        cell_size=(cw, ch), anchor=anchor, fps=recipe.fps, loop=recipe.loop,
        loop_score=win.loop_score,
        loop_grade=LoopGrade(win.loop_grade) if win.loop_grade else None,
        qc=tuple(QCFlag(f) for f in flags),
        window=ClipWindow(start=win.start, span=win.span, still_frames=win.still_frames,
                          clip_frames=n, clip_fps=clip.fps,
                          clip_size=(clip.frames.shape[2], clip.frames.shape[1]),
                          expected_frames=recipe.clip_frames, notes=clip_notes),
        alignment=AlignmentInfo(drift_px=alignment.drift_px,
                                zoom_change=alignment.zoom_change, motion=motion),
        key=KeyColour(rgb=(float(key.key[0]), float(key.key[1]), float(key.key[2])),
                      noise=key.noise, threshold=key.threshold),
        scale=k, shrunk_from=shrunk["requested_cell_height"] if shrunk else None,
        max_width=max_width if shrunk else None, smear=an.smear,
        unghosted=an.ghost_share or None, timings=lap.timings)
