"""The pipeline's result as a typed value (`Sheet`), and the strip's pixels and bytes.

A `Sheet` is what post-processing made of one clip: the cells, their geometry and timing,
the loop grade, the QC flags and the numbers behind them. Files are rendered from it by
`comfy_nodes.core.export` (TexturePacker, Aseprite, Godot, per-cell PNGs), so no caller
digs into one engine's JSON to learn the fps or the grade.
"""

from __future__ import annotations

import io
import json
import math
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Any

import numpy as np

# WebP's plugin by name, for a Pillow that cannot import one plugin alone: there save()
# in a format no plugin has registered yet imports every plugin (~25 ms a process).
from PIL import Image, WebPImagePlugin  # noqa: F401

from .util import atomic_write

WEBP_MAX_SIDE = 16383
PNG_MAX_SIDE = 65535
# The least side of a usable cell, in pixels: the least cell_height the Sprite Sheet node
# and a joblist accept (and `driver process`, whose own floor of 8 let --max-width 10 make a
# walk of ten 1x1 cells, graded CLEAN). A strip that leaves a cell less than this, or cells
# shrunk to fit max_width under this high, is refused: nothing a game can show is in it.
MIN_CELL = 16


class QCFlag(str, Enum):
    """What the automatic checks found wrong with a clip (DOMAIN.md's failure modes)."""

    TRUNCATED = "TRUNCATED"  # fewer frames than the graph asked for
    NOISE = "NOISE"  # no character on a backdrop: the model made noise
    STATIC = "STATIC"  # the character hardly moves
    CROPPED = "CROPPED"  # the character leaves the frame on sheet frames
    FACING = "FACING"  # the character turns round and stays turned
    SMEAR = "SMEAR"  # ghosting: a share of the previous frame blended into the next

    def __str__(self) -> str:  # "NOISE", not "QCFlag.NOISE", in messages
        return self.value


class LoopGrade(str, Enum):
    """How well the loop closes (window.CLEAN_BELOW / OK_BELOW); one-shots have none, nor
    has a loop whose cells lack the character or do not move (window.Shortfall)."""

    CLEAN = "CLEAN"
    OK = "OK"
    WEAK = "WEAK"

    def __str__(self) -> str:
        return self.value


def grade_label(loop: bool, grade: str | None) -> str:
    """The loop grade as people read it in messages: CLEAN, OK or WEAK; "one-shot" for an
    action that does not loop; "not graded" for a loop without a grade (its cells lack the
    character or do not move, or the clip is too short to loop), which "one-shot" would
    misname."""
    if grade:
        return str(grade)
    return "not graded" if loop else "one-shot"


@dataclass(frozen=True)
class Cell:
    name: str
    source_index: int
    source_rect: tuple[float, float, float, float]  # x, y, w, h in clip pixels


@dataclass(frozen=True)
class ClipWindow:
    """Which part of the clip became the sheet, and what the clip was."""

    start: int
    span: int  # clip frames covered
    still_frames: int  # the still opening skipped
    clip_frames: int
    clip_fps: float
    clip_size: tuple[int, int]  # w, h
    expected_frames: int  # what the recipe asked the model for
    # How the clip was read: letterbox crop, frames taken by timestamp (VFR), the horizon of
    # frames kept at full resolution; each key only when it applies (meta.clip.<key>).
    notes: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class AlignmentInfo:
    """What alignment removed: camera drift and zoom, and how much the character moves."""

    drift_px: tuple[float, float]
    zoom_change: float
    motion: float


@dataclass(frozen=True)
class KeyColour:
    """The backdrop learned from the clip."""

    rgb: tuple[float, float, float]
    noise: float
    threshold: float


@dataclass(frozen=True, eq=False)
class Sheet:
    """One action of one character, ready to export. Cells are RGBA, all `cell_size`."""

    character: str
    action: str
    cells: tuple[np.ndarray, ...]
    sources: tuple[Cell, ...]  # per cell: its name and where in the clip it came from
    cell_size: tuple[int, int]  # w, h
    anchor: tuple[float, float]  # the feet, as a fraction of the cell (x right, y down)
    fps: float
    loop: bool
    loop_score: float | None  # None for one-shots
    loop_grade: LoopGrade | None
    qc: tuple[QCFlag, ...]
    window: ClipWindow
    alignment: AlignmentInfo
    key: KeyColour
    scale: float  # clip pixels -> cell pixels
    shrunk_from: int | None = None  # the cell height asked for, when max_width shrank cells
    max_width: int | None = None
    timings: dict[str, float] = field(default_factory=dict, compare=False)
    # Where the sheet came from, recorded in its JSON's meta.comfyui (the Sprite Sheet node
    # puts ComfyUI's prompt and workflow here, as Save Image does in a PNG).
    provenance: dict | None = field(default=None, compare=False)
    smear: float | None = None  # the ghosting score behind SMEAR (meta.qc.smear)
    # flagged SMEAR: the share of each frame in the next that the cells were matted without
    # (meta.qc.unghosted; core/ghost.py)
    unghosted: float | None = None

    def __post_init__(self) -> None:
        if not self.cells or len(self.cells) != len(self.sources):
            raise ValueError("a sheet needs one source per cell, and at least one cell")
        w, h = self.cell_size
        for c in self.cells:
            if c.shape != (h, w, 4):
                raise ValueError(f"cell {c.shape} is not {h}x{w} RGBA")

    @property
    def frame_count(self) -> int:
        return len(self.cells)

    @property
    def duration_ms(self) -> int:
        """Per frame, as the engines want it (whole milliseconds)."""
        return round(1000 / self.fps)

    @property
    def size(self) -> tuple[int, int]:
        """The strip: cells side by side."""
        return self.cell_size[0] * len(self.cells), self.cell_size[1]

    @cached_property
    def rgba(self) -> np.ndarray:
        return strip(list(self.cells))

    @property
    def frame_names(self) -> list[str]:
        return [c.name for c in self.sources]


def least_max_width(frames: int) -> int:
    """The least max_width that leaves each of `frames` cells MIN_CELL px of the strip."""
    return frames * MIN_CELL


def max_width_problem(max_width: int, frames: int, action: str, option: str) -> str | None:
    """Why a strip `max_width` px wide cannot hold `frames` usable cells, as the one line to
    print (naming `option`, the setting as its user writes it), or None. Needs only the
    recipe's frame count, so it is asked before any decode or generation."""
    least = least_max_width(frames)
    if max_width >= least:
        return None
    return (f"{option} {max_width} leaves {max(max_width, 0) // frames} px per cell for {action}'s "
            f"{frames} frames; a cell needs at least {MIN_CELL} px: give {option} {least} "
            "or more")


def shrunk_cells_problem(sheet: Sheet, option: str) -> str | None:
    """Cells that max_width shrank under MIN_CELL px high (a character wide for its height
    gets them from a width max_width_problem lets through), as the one line naming a
    max_width that keeps them MIN_CELL px high, or None. A shrunk cell is floor(H) px high,
    H proportional to max_width, so scaling max_width by MIN_CELL / the height reached is
    enough, and at most 1/height more than the least (7 % at 15 px)."""
    w, h = sheet.cell_size
    if sheet.shrunk_from is None or sheet.max_width is None or h >= MIN_CELL:
        return None
    need = max(math.ceil(sheet.max_width * MIN_CELL / h), least_max_width(sheet.frame_count))
    if need > WEBP_MAX_SIDE:  # advice that cannot be taken: the CLI refuses such a width
        return (f"{option} {sheet.max_width} shrinks the {sheet.action} cells to {w}x{h} px, "
                f"under {MIN_CELL} px high, and even the widest strip ({WEBP_MAX_SIDE} px) "
                f"would: the character is far wider than tall; give fewer sheet frames (a "
                f"recipe's frames) or a clip that frames it taller")
    return (f"{option} {sheet.max_width} shrinks the {sheet.action} cells to {w}x{h} px, "
            f"under {MIN_CELL} px high: give {option} {need} or more")


def strip(cells: list[np.ndarray]) -> np.ndarray:
    """Cells (RGBA, same size) side by side."""
    return np.concatenate(cells, axis=1)


def encode_webp(rgba: np.ndarray) -> bytes:
    h, w = rgba.shape[:2]
    if max(h, w) > WEBP_MAX_SIDE:
        raise ValueError(f"sheet {w}x{h} exceeds WebP's {WEBP_MAX_SIDE}-px side limit")
    # Lossless at the fastest effort: 15 ms instead of 110 ms (method 1) for a 10-cell
    # strip, for files ~15% larger; still smaller than PNG.
    return _encoded(rgba, ".webp", lossless=True, quality=10, method=0, exact=False)


def encode_png(rgba: np.ndarray) -> bytes:
    """For engines without WebP. Level 3: most of level 9's size at a fraction of its time."""
    h, w = rgba.shape[:2]
    if max(h, w) > PNG_MAX_SIDE:
        raise ValueError(f"sheet {w}x{h} exceeds PNG's {PNG_MAX_SIDE}-px side limit")
    return _encoded(rgba, ".png", compress_level=3)


def _encoded(rgba: np.ndarray, extension: str, **params: Any) -> bytes:
    """The image file's bytes, through its format's plugin alone: save(fp, FORMAT) first
    imports Pillow's five common plugins (BMP, GIF, JPEG with subprocess, PPM, PNG: ~10 ms a
    process), where given no format, Pillow 12.2 on imports only the plugin for the file
    name's extension, and takes a file object's name as its file name (an older Pillow
    imports the five either way, and writes the same bytes)."""
    buf = io.BytesIO()
    buf.name = f"sheet{extension}"
    Image.fromarray(rgba, "RGBA").save(buf, **params)
    return buf.getvalue()


write_atomic = atomic_write  # the one atomic write (core/util.py), by its older name


def json_bytes(doc: dict) -> bytes:
    """The JSON files we write: UTF-8, names in any language kept readable."""
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
