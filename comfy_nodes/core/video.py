"""Clip decode and encode with PyAV (frames are RGB uint8, shape (N, H, W, 3))."""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import cast

import av
import cv2
import numpy as np
from av.video.reformatter import ColorRange, ColorTrc, VideoReformatter
from PIL import Image

from .quantiles import median


class ClipError(ValueError):
    """The clip cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Clip:
    """A decoded clip. `frames` holds full resolution for the first frames only when the
    decode was told how many the sheet may use (`keep`); `small` is the reduced copy of
    every frame that the whole-clip analysis works on (None: made from `frames`)."""

    frames: np.ndarray  # (M, H, W, 3) uint8 RGB, M <= count
    fps: float
    path: str = ""
    small: np.ndarray | None = None  # (N, h, w, 3) uint8, area-averaged by `factor`
    factor: int = 1
    count: int | None = None  # frames in the clip (None: len(frames))
    timing: dict | None = None  # how a variable-frame-rate clip was resampled
    decoded_index: tuple[int, ...] | None = None  # resampled: each frame's decoded frame

    @property
    def size(self) -> tuple[int, int]:
        return self.frames.shape[2], self.frames.shape[1]

    @property
    def frame_count(self) -> int:
        return self.count if self.count is not None else len(self.frames)


# Frame rates a file's average rate is snapped to when its frames are timed unevenly.
COMMON_RATES = (8, 10, 12, 15, 16, 24, 25, 30, 48, 50, 60)
SMALL_SIDE = 128  # the reduced copy's longer side (backdrop.model_factor's default)
# The largest frame taken (8K UHD): memory follows the frames kept at full size, and a
# few hundred bytes of WebP or H.264 can claim a frame of gigabytes.
MAX_FRAME_PIXELS = 7680 * 4320


def nominal_rate(average: float) -> float:
    """The rate a clip was meant to play at: its average, snapped to a common rate
    within 5 % (a variable-frame-rate file's average is a little off)."""
    best = min(COMMON_RATES, key=lambda r: abs(r - average))
    return float(best) if abs(best - average) <= 0.05 * best else average


class Matrix(IntEnum):
    """FFmpeg's AVColorSpace: the YUV matrix a frame or stream is tagged with (its
    `colorspace`). Not PyAV's Colorspace enum, which numbers swscale's tables: there
    SMPTE 170M is 5, here 6 (only BT.709's 1 is the same in both)."""

    RGB = 0
    BT709 = 1
    UNSPECIFIED = 2
    FCC = 4
    BT470BG = 5
    SMPTE170M = 6
    SMPTE240M = 7
    YCGCO = 8
    BT2020_NCL = 9
    BT2020_CL = 10
    SMPTE2085 = 11
    CHROMA_DERIVED_NCL = 12
    CHROMA_DERIVED_CL = 13
    ICTCP = 14


# Tags under which a frame is plain BT.601 video range: what ComfyUI's SaveVideo writes
# (swscale's default conversion, untagged). BT.470BG and SMPTE 170M are the same matrix.
_BT601 = frozenset({Matrix.UNSPECIFIED, Matrix.BT470BG, Matrix.SMPTE170M})
_VIDEO_RANGE = frozenset({ColorRange.UNSPECIFIED, ColorRange.MPEG})  # MPEG: 16-235


def _rgb(frame: av.VideoFrame, swscale: VideoReformatter) -> np.ndarray:
    """RGB of a decoded frame, by the matrix and range the frame is tagged with: VHS's
    Video Combine writes BT.709 (read as BT.601, greens come out up to 26 levels off).
    Untagged or BT.601 video-range yuv420p (ComfyUI's SaveVideo) goes through OpenCV,
    within a level of the exact conversion; anything else (BT.709, full range, 10-bit,
    4:2:2, 4:4:4, RGB) through swscale, which follows the frame's tags (and rounds down:
    up to 3 levels darker). One reformatter for the clip: a context per frame took 3.5x
    as long (1.4 against 0.4 ms a 720p frame)."""
    if (frame.format.name == "yuv420p" and frame.width % 2 == 0 and frame.height % 2 == 0
            and frame.colorspace in _BT601 and frame.color_range in _VIDEO_RANGE):
        return cv2.cvtColor(frame.to_ndarray(), cv2.COLOR_YUV2RGB_I420)
    return swscale.reformat(frame, format="rgb24").to_ndarray()


class _Store:
    """Preallocated frame storage that grows by half when a clip has more frames than its
    header said (growing copies once; a list + np.stack would hold every frame twice)."""

    def __init__(self, shape: tuple[int, ...], capacity: int, limit: int | None = None):
        self.limit = limit
        self.data = np.empty((max(1, min(capacity, limit or capacity)), *shape), np.uint8)
        self.n = 0

    def put(self, i: int, value: np.ndarray) -> None:
        if self.limit is not None and i >= self.limit:
            return
        if i >= len(self.data):
            grow = max(i + 1, len(self.data) * 3 // 2)
            if self.limit is not None:
                grow = min(grow, self.limit)
            bigger = np.empty((grow, *self.data.shape[1:]), np.uint8)
            bigger[:self.n] = self.data[:self.n]
            self.data = bigger
        self.data[i] = value
        self.n = max(self.n, i + 1)

    def result(self) -> np.ndarray:
        return self.data[:self.n]


def _shrink_one(rgb: np.ndarray, factor: int) -> np.ndarray:
    if factor == 1:
        return rgb
    h, w = rgb.shape[:2]
    sh, sw = max(1, h // factor), max(1, w // factor)
    return cv2.resize(rgb[:sh * factor, :sw * factor], (sw, sh), interpolation=cv2.INTER_AREA)


def decode(path: str | Path, keep: int | None = None) -> Clip:
    """Every frame of the first video stream, in display order, in one streaming pass.

    keep: how many leading frames to hold at full resolution (None: all); every frame is
    also kept reduced (longer side ~128 px) for the whole-clip analysis. Frames are taken
    by timestamp at the clip's nominal rate: a variable-frame-rate clip is resampled (a
    frame repeated or dropped where the timing demands) and `timing` says so. An
    animated WebP (ComfyUI's SaveAnimatedWEBP writes one; FFmpeg cannot decode its
    frames) is read with Pillow."""
    path = Path(path)
    if not path.is_file():
        raise ClipError(f"clip {path} does not exist")
    if path.stat().st_size == 0:
        raise ClipError(f"clip {path} is empty (0 bytes)")
    try:
        with _opened(path) as source:
            h, w = source.size
            fps = nominal_rate(source.average_fps)
            factor = max(1, int(round(max(h, w) / SMALL_SIDE)))
            full = _Store((h, w, 3), source.expect + 2, keep)
            small = _Store(((h // factor) or 1, (w // factor) or 1, 3), source.expect + 2)
            sampler = _Sampler(fps)
            for time, rgb in source.frames:
                if rgb.shape[:2] != (h, w):
                    raise ClipError(f"clip {path} changes size mid-stream "
                                    f"({w}x{h} -> {rgb.shape[1]}x{rgb.shape[0]})")
                slots = sampler.slots(time)
                if not slots:
                    continue
                reduced = _shrink_one(rgb, factor)
                for i in slots:
                    full.put(i, rgb)
                    small.put(i, reduced)
    except ClipError:
        raise
    except (av.FFmpegError, OSError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as e:
        raise ClipError(f"clip {path} is not a readable video: {e}") from None
    if small.n == 0:
        raise ClipError(f"clip {path} has no frames")
    timing, index = None, None
    if sampler.uneven:
        timing = {"variable_frame_rate": True, "decoded_frames": sampler.decoded,
                  "average_fps": round(source.average_fps, 3), "resampled_to_fps": fps}
        index = tuple(sampler.source[:small.n])
    return Clip(full.result(), fps, str(path), small.result(), factor, small.n, timing,
                index)


@dataclass(frozen=True)
class _Source:
    """An open clip: its average rate, frame size (h, w), a guess at its frame count (for
    preallocation; more or fewer frames are fine) and its frames as (time in seconds or
    None, RGB (h, w, 3) uint8), decoded one at a time."""

    average_fps: float
    size: tuple[int, int]
    expect: int
    frames: Iterator[tuple[float | None, np.ndarray]]


@contextmanager
def _opened(path: Path) -> Iterator[_Source]:
    """The clip at `path` as a _Source, through PyAV, or Pillow for an animated WebP;
    still images, clips without video and frames over MAX_FRAME_PIXELS are refused."""
    with av.open(str(path)) as container:
        fmt = container.format.name
        if fmt == "webp_pipe":
            with warnings.catch_warnings():  # a frame past Pillow's limit: an error here
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                image = Image.open(path)
            with image:
                yield _animated_webp(path, image)
            return
        if fmt == "image2" or fmt.endswith("_pipe"):
            raise ClipError(f"clip {path} is a still image ({fmt}), not a video: "
                            "give the mp4 the model wrote")
        if not container.streams.video:
            raise ClipError(f"clip {path} has no video stream")
        stream = container.streams.video[0]
        stream.thread_type = "AUTO"
        average = float(stream.average_rate or stream.guessed_rate or 24)
        expect = int(stream.frames or 0) or int(
            float(stream.duration * stream.time_base) * nominal_rate(average)
            if stream.duration and stream.time_base else 0) or 64
        size = (stream.codec_context.height, stream.codec_context.width)
        _check_size(path, *size)
        _check_colour(path, stream.codec_context.colorspace, stream.codec_context.color_trc)

        def frames() -> Iterator[tuple[float | None, np.ndarray]]:
            swscale = VideoReformatter()
            for i, frame in enumerate(container.decode(stream)):
                if i == 0 and len(frame.format.components) in (2, 4):  # it may carry alpha
                    _check_opaque(path, frame.to_ndarray(format="rgba")[..., 3])
                yield frame.time, _rgb(frame, swscale)

        yield _Source(average, size, expect, frames())


def _check_opaque(path: Path, alpha: np.ndarray) -> None:
    """A clip with transparent pixels was matted already (or is a sprite animation):
    its backdrop is gone, and without it the key has nothing to read."""
    if int(alpha.min()) < 255:
        raise ClipError(f"clip {path} has transparent pixels: h3sprite mattes the video "
                        "model's green-screen clip; give the clip before any background "
                        "removal")


# Transfer characteristics of HDR video: PQ and HLG. Their code values are not the sRGB-like
# levels a sprite is drawn in (VHS tags its sRGB frames BT.709's transfer, which is read as
# it is), and reading them as such washes every colour out.
_HDR_TRANSFERS: dict[int, str] = {ColorTrc.SMPTE2084: "PQ (SMPTE 2084)",
                                  ColorTrc.ARIB_STD_B67: "HLG (ARIB STD-B67)"}
# Matrices swscale has no coefficients for: it refuses them ("Operation not supported").
_UNREADABLE_MATRICES = frozenset({Matrix.YCGCO, Matrix.BT2020_CL, Matrix.SMPTE2085,
                                  Matrix.CHROMA_DERIVED_NCL, Matrix.CHROMA_DERIVED_CL,
                                  Matrix.ICTCP})


def _check_colour(path: Path, matrix: int, transfer: int) -> None:
    if transfer in _HDR_TRANSFERS:
        raise ClipError(f"clip {path} is HDR video ({_HDR_TRANSFERS[transfer]}), which a "
                        "sprite cannot be read from: save the model's output as SDR video "
                        "(BT.709 or BT.601, not PQ/HLG)")
    if matrix in _UNREADABLE_MATRICES:
        raise ClipError(f"clip {path} is tagged with the YUV matrix {Matrix(matrix).name}, "
                        "which cannot be converted to RGB here: save the model's output "
                        "as BT.709 or BT.601 (H.264 yuv420p)")


def _check_size(path: Path, h: int, w: int) -> None:
    if h * w > MAX_FRAME_PIXELS:
        raise ClipError(f"clip {path} has {w}x{h} frames, more than 8K (7680x4320): "
                        "give the clip the model wrote, at its own size")


def _animated_webp(path: Path, image: Image.Image) -> _Source:
    """An animated WebP's frames through Pillow, timed by their durations (ms; Pillow
    knows a frame's once it is decoded, so they are read in a first pass that keeps no
    pixels). libwebp merges identical consecutive frames into one that lasts as long as
    they did (ComfyUI's SaveAnimatedWEBP, 24 fps, wrote a model's three-frame still
    opening as one 123 ms frame among 41 ms ones), and durations are whole milliseconds
    (41 ms for 24 fps: timed by them, 60 frames drift most of a frame). So where every
    duration is a whole number of the commonest one, the clip is even at that rate and a
    merged frame is repeated; otherwise it is timed by its durations and resampled. A
    frame without a duration takes the others' median; with none at all, 24 fps."""
    count = getattr(image, "n_frames", 1)
    if count < 2:
        raise ClipError(f"clip {path} is a still image (webp), not a video: give the mp4 "
                        "the model wrote")
    _check_size(path, image.height, image.width)
    durations = []
    for i in range(count):
        image.seek(i)
        image.load()
        durations.append(float(image.info.get("duration") or 0))
    known = [d for d in durations if d > 0]
    typical = float(median(known)) if known else 1000.0 / 24
    durations = [d if d > 0 else typical for d in durations]
    step = Counter(durations).most_common(1)[0][0]
    repeats = [max(1, round(d / step)) for d in durations]
    even = all(abs(d - k * step) <= k for d, k in zip(durations, repeats, strict=True))
    average = 1000.0 / step if even else count * 1000.0 / sum(durations)

    def frames() -> Iterator[tuple[float | None, np.ndarray]]:
        start = 0.0
        for i in range(count):
            image.seek(i)
            if i == 0 and image.mode == "RGBA":
                _check_opaque(path, np.asarray(image.getchannel("A")))
            rgb = np.asarray(image.convert("RGB"))
            for _ in range(repeats[i] if even else 1):
                yield (None if even else start / 1000.0), rgb
            start += durations[i]

    return _Source(average, (image.height, image.width), sum(repeats), frames())


class _Sampler:
    """Which output slots (frame k at k / fps) each decoded frame fills: the frame nearest
    in time. Even timing gives one slot per frame; uneven timing repeats or drops."""

    def __init__(self, fps: float):
        self.fps = fps
        self.t0: float | None = None
        self.next_slot = 0
        self.decoded = 0
        self.uneven = False
        self.source: list[int] = []  # decoded frame of each slot

    def slots(self, time: float | None) -> list[int]:
        self.decoded += 1
        if time is None:  # no timestamp: one slot per frame
            self.next_slot += 1
            self.source.append(self.decoded - 1)
            return [self.next_slot - 1]
        if self.t0 is None:
            self.t0 = time
        pos = (time - self.t0) * self.fps  # in nominal frames
        if abs(pos - (self.decoded - 1)) > 0.25:
            self.uneven = True
        # This frame is the nearest for every slot up to halfway to a frame one nominal
        # period later; the next frame claims the slots after its own midpoint.
        first = self.next_slot
        last = int(np.floor(pos + 0.5))
        if last < first:
            return []
        self.next_slot = last + 1
        self.source += [self.decoded - 1] * (last + 1 - first)
        return list(range(first, last + 1))


def encode(frames: np.ndarray, path: str | Path, fps: float = 24, crf: int = 18,
           codec: str = "libx264", threads: int = 1) -> None:
    """Encode RGB frames to H.264 yuv420p mp4, like a video model's output. One thread by
    default: x264's output depends on its thread count, which follows the machine's CPUs
    (measured: a fixture encoded on 1 CPU and on 2 scored +6.29 and +5.73 edge excess)."""
    n, h, w, _ = frames.shape
    if w % 2 or h % 2:
        raise ValueError(f"libx264 needs even sides, got {w}x{h}")
    with av.open(str(path), "w") as out:
        stream = cast(av.VideoStream, out.add_stream(codec, rate=round(fps)))
        stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
        stream.options = {"crf": str(crf), "preset": "veryfast", "threads": str(threads)}
        for rgb in frames:
            out.mux(stream.encode(av.VideoFrame.from_ndarray(np.ascontiguousarray(rgb),
                                                             format="rgb24")))
        out.mux(stream.encode())
