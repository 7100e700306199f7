"""Clip decode and encode with PyAV (frames are RGB uint8, shape (N, H, W, 3))."""

from __future__ import annotations

import itertools
import os
import re
import warnings
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import IntEnum
from fractions import Fraction
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
    display: dict | None = None  # how stored frames were turned or stretched for display
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
MIN_FRAME_SIDE = 32  # H3 snaps sides to multiples of 32
# Larger frames are area-averaged down to this many pixels (1080p's) as they are decoded:
# a sheet's cells are 300 px high by default, and every frame the sheet may use is kept at
# this size (a 4096x2160 clip of 56 frames peaked at 3.0 GB kept at its own size, 7680x4320
# at 11.2 GB).
MAX_WORK_PIXELS = 1920 * 1080
# The longest clip taken, in frames at its nominal rate (100 s at 24 fps): a sprite clip
# lasts seconds, and even the reduced copy of every frame grows with the clip (a 60 s
# timestamp gap in a 56-frame clip became 1,440 frames and 469 MB; a 1 h gap asked for
# 28 GB).
MAX_CLIP_FRAMES = 2400
# The longest gap between two frames' timestamps taken as a held frame (a variable-rate
# encoder's pause): longer, the file's timing is broken (a bad remux or edit).
MAX_GAP_SECONDS = 5.0
# Frames a file may decode short of the count its header lists before it is taken as cut
# short (an interrupted download or copy): an edit list may hide a frame or two.
CUT_SHORT_SLACK = 2


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
            wh, ww = _working_size(h, w)
            fps = nominal_rate(source.average_fps)
            factor = max(1, int(round(max(wh, ww) / SMALL_SIDE)))
            full = _Store((wh, ww, 3), source.expect + 2, keep)
            small = _Store(((wh // factor) or 1, (ww // factor) or 1, 3), source.expect + 2)
            sampler = _Sampler(fps, path)
            for time, rgb in source.frames:
                if rgb.shape[:2] != (h, w):
                    raise ClipError(f"clip {path} changes size mid-stream "
                                    f"({w}x{h} -> {rgb.shape[1]}x{rgb.shape[0]})")
                slots = sampler.slots(time)
                if not slots:
                    continue
                if (wh, ww) != (h, w):
                    rgb = cv2.resize(rgb, (ww, wh), interpolation=cv2.INTER_AREA)
                reduced = _shrink_one(rgb, factor)
                for i in slots:
                    full.put(i, rgb)
                    small.put(i, reduced)
    except ClipError:
        raise
    except av.FFmpegError as e:  # its strerror, without FFmpeg's errno and file name
        raise ClipError(f"clip {path} is not a readable video ({e.strerror}): give the "
                        "whole file the model wrote (is it cut short?)") from None
    except (OSError, ValueError, Image.DecompressionBombError,
            Image.DecompressionBombWarning) as e:
        raise ClipError(f"clip {path} is not a readable video: {e}") from None
    if small.n == 0:
        raise ClipError(f"clip {path} has no frames")
    if source.declared and sampler.decoded < source.declared - CUT_SHORT_SLACK:
        raise ClipError(f"clip {path} ends after {sampler.decoded} of the "
                        f"{source.declared} frames its header lists: the file is cut short "
                        "(an interrupted download or copy?); copy it again")
    listed, ends = source.listed_end, source.decoded_end[0]
    if listed and ends is not None and \
            ends < listed - (CUT_SHORT_SLACK + 0.5) / source.average_fps:
        raise ClipError(f"clip {path} ends at {ends:.2f} s of the {listed:.2f} s its header "
                        "lists: the file is cut short (an interrupted download or copy?); "
                        "copy it again")
    timing, index = None, None
    if sampler.uneven:
        timing = {"variable_frame_rate": True, "decoded_frames": sampler.decoded,
                  "average_fps": round(source.average_fps, 3), "resampled_to_fps": fps}
        index = tuple(sampler.source[:small.n])
    display = source.display
    if (wh, ww) != (h, w):
        display = {**(display or {}), "shrunk_from": {"w": w, "h": h}}
    return Clip(full.result(), fps, str(path), small.result(), factor, small.n, timing,
                display, index)


def _working_size(h: int, w: int) -> tuple[int, int]:
    """(h, w) the frames are kept at: as shown, or area-averaged down to MAX_WORK_PIXELS,
    the aspect kept."""
    if h * w <= MAX_WORK_PIXELS:
        return h, w
    s = (MAX_WORK_PIXELS / (h * w)) ** 0.5
    return max(1, int(h * s)), max(1, int(w * s))


@dataclass(frozen=True)
class _Source:
    """An open clip: its average rate, frame size (h, w) as displayed, a guess at its
    frame count (for preallocation; more or fewer frames are fine) and its frames as
    (time in seconds or None, RGB (h, w, 3) uint8), decoded one at a time; the count its
    header lists where it lists one, and how its stored frames are turned or stretched
    for display (None: as stored)."""

    average_fps: float
    size: tuple[int, int]
    expect: int
    frames: Iterator[tuple[float | None, np.ndarray]]
    declared: int | None = None
    display: dict | None = None
    listed_end: float | None = None  # where no count is listed (Matroska, WebM): when its
    # video stream ends, in seconds on the frames' clock, which a file cut short still lists
    decoded_end: list[float | None] = field(default_factory=lambda: [None])  # when the last
    # frame decoded so far stops showing (its time plus its duration), on that clock


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
        if fmt == "gif" and not _gif_complete(path):
            raise ClipError(f"clip {path} is cut short (it lacks the GIF's closing byte: an "
                            "interrupted download or copy?); copy it again")
        stream = _main_stream(path, container)
        if stream.metadata.get("alpha_mode") == "1":  # WebM's tag: FFmpeg's VP8/VP9
            # decoders drop the alpha plane, so the frames would look opaque.
            raise ClipError(f"clip {path} carries an alpha channel (WebM alpha_mode): "
                            f"{_MATTED}")
        stream.thread_type = "AUTO"
        average = float(stream.average_rate or stream.guessed_rate or 24)
        expect = int(stream.frames or 0) or int(
            float(stream.duration * stream.time_base) * nominal_rate(average)
            if stream.duration and stream.time_base else 0) or 64
        _check_size(path, stream.codec_context.height, stream.codec_context.width)
        _check_colour(path, stream.codec_context.colorspace, stream.codec_context.color_trc)
        decoded = container.decode(stream)
        first = next(decoded, None)
        if first is None:
            raise ClipError(f"clip {path} has no frames")
        if len(first.format.components) in (2, 4):  # it may carry alpha
            _check_opaque(path, first.to_ndarray(format="rgba")[..., 3])
        shown = _Display.of(path, first, stream.sample_aspect_ratio)
        _check_size(path, *shown.size(first.height, first.width))

        end: list[float | None] = [None]

        def frames() -> Iterator[tuple[float | None, np.ndarray]]:
            swscale = VideoReformatter()
            for frame in itertools.chain([first], decoded):
                if frame.time is not None:  # a held last frame lasts longer than 1 / fps
                    shown_for = (float(frame.duration * frame.time_base)
                                 if frame.duration and frame.time_base else 1.0 / average)
                    last = frame.time + shown_for  # the latest, not the last decoded
                    end[0] = last if end[0] is None else max(end[0], last)
                yield frame.time, shown.apply(_rgb(frame, swscale))

        declared = int(stream.frames or 0) or None
        yield _Source(average, shown.size(first.height, first.width), expect, frames(),
                      declared, shown.notes(), None if declared else _listed_end(stream), end)


def _gif_complete(path: Path) -> bool:
    """A GIF ends with its trailer byte (0x3B); one cut short decodes as a shorter clip.
    NULs or a newline some writers leave after it are no damage (every reader ignores
    them)."""
    with open(path, "rb") as f:
        f.seek(max(0, os.path.getsize(path) - 16))
        return f.read().rstrip(b"\x00 \t\r\n").endswith(b";")


def _listed_end(stream: av.video.stream.VideoStream) -> float | None:
    """When the video stream ends as its header lists it, on its frames' clock: its start
    plus its duration, or the per-track DURATION tag FFmpeg's Matroska and WebM muxers
    write ("00:00:02.334000000"), which is already that end (a track starting at 1 s
    with 2 s of frames lists 3 s); None where neither is (the container's duration would
    count a longer audio track)."""
    if stream.duration and stream.time_base:
        return float((stream.duration + (stream.start_time or 0)) * stream.time_base)
    tag = stream.metadata.get("DURATION") or stream.metadata.get("duration")
    m = re.fullmatch(r"(\d+):(\d\d):(\d\d(?:\.\d+)?)", (tag or "").strip())
    if not m:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def _main_stream(path: Path, container: av.container.InputContainer) -> av.VideoStream:
    """The clip's picture, as FFmpeg's command line picks it: of the video streams that
    are no cover art, the default one, else the largest (a small preview or thumbnail
    track may come first)."""
    streams = [s for s in container.streams.video
               if not s.disposition & av.stream.Disposition.attached_pic]
    if not streams:
        raise ClipError(f"clip {path} has no video stream")
    return max(streams, key=lambda s: (bool(s.disposition & av.stream.Disposition.default),
                                       s.codec_context.width * s.codec_context.height,
                                       -s.index))


@dataclass(frozen=True)
class _Display:
    """How a stored frame is shown: stretched by its sample aspect ratio (anamorphic
    video), then turned by its display matrix (a phone's portrait clip is stored
    landscape), as players and FFmpeg's command line show it."""

    quarter_turns: int  # counter-clockwise, 0..3
    aspect: Fraction  # a stored pixel's width over its height

    @classmethod
    def of(cls, path: Path, frame: av.VideoFrame, sar: Fraction | None) -> _Display:
        degrees = int(round(frame.rotation or 0))
        if degrees % 90:
            raise ClipError(f"clip {path} is tagged to be shown turned by {degrees} "
                            "degrees, not a quarter turn: re-encode it upright")
        aspect = Fraction(sar) if sar and sar > 0 else Fraction(1)
        if not Fraction(1, 4) <= aspect <= 4:
            raise ClipError(f"clip {path} has a sample aspect ratio of {aspect}: re-encode "
                            "it with square pixels")
        return cls((degrees // 90) % 4, aspect)

    def size(self, h: int, w: int) -> tuple[int, int]:
        """(h, w) of a stored h x w frame as shown."""
        w = max(1, round(w * self.aspect))
        return (w, h) if self.quarter_turns % 2 else (h, w)

    def apply(self, rgb: np.ndarray) -> np.ndarray:
        if self.aspect != 1:
            h, w = rgb.shape[:2]
            wide = max(1, round(w * self.aspect))
            rgb = cv2.resize(rgb, (wide, h), interpolation=cv2.INTER_AREA if wide < w
                             else cv2.INTER_CUBIC)
        if self.quarter_turns:
            rgb = np.ascontiguousarray(np.rot90(rgb, self.quarter_turns))
        return rgb

    def notes(self) -> dict | None:
        """What meta.clip says of it; None where frames are shown as stored."""
        notes: dict = {}
        if self.quarter_turns:  # clockwise, as players and MediaInfo say it
            notes["rotated_degrees_clockwise"] = -90 * self.quarter_turns % 360
        if self.aspect != 1:
            notes["sample_aspect_ratio"] = str(self.aspect)
        return notes or None


# A clip with transparent pixels was matted already (or is a sprite animation): its
# backdrop is gone, and without it the key has nothing to read.
_MATTED = ("h3sprite mattes the video model's green-screen clip; give the clip before any "
           "background removal")


def _check_opaque(path: Path, alpha: np.ndarray) -> None:
    if int(alpha.min()) < 255:
        raise ClipError(f"clip {path} has transparent pixels: {_MATTED}")


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
        raise ClipError(f"clip {path} has {w}x{h} frames, more pixels than 8K (7680x4320, "
                        "33 MP): give the clip the model wrote, at its own size")
    if min(h, w) < MIN_FRAME_SIDE:  # a 1x1 clip gave a sheet of empty cells, exit 0
        raise ClipError(f"clip {path} has {w}x{h} frames, under {MIN_FRAME_SIDE} px a side: "
                        "too small to hold a character; give the clip the model wrote")


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
    in time. Even timing gives one slot per frame; uneven timing repeats or drops. A clip
    that would run past MAX_CLIP_FRAMES, or whose timestamps jump by more than
    MAX_GAP_SECONDS, is refused before any slot past them is made."""

    def __init__(self, fps: float, path: Path):
        self.fps = fps
        self.path = path
        self.t0: float | None = None
        self.next_slot = 0
        self.decoded = 0
        self.uneven = False
        self.last_time: float | None = None
        self.source: list[int] = []  # decoded frame of each slot

    def slots(self, time: float | None) -> list[int]:
        self.decoded += 1
        if time is None:  # no timestamp: one slot per frame
            self._check_length(self.next_slot)
            self.next_slot += 1
            self.source.append(self.decoded - 1)
            return [self.next_slot - 1]
        if self.t0 is None:
            self.t0 = time
        if self.last_time is not None and time - self.last_time > MAX_GAP_SECONDS:
            raise ClipError(f"clip {self.path} has a {time - self.last_time:.0f} s gap in "
                            f"its timestamps after frame {self.decoded - 2}: its timing is "
                            "broken (a bad remux or edit?); re-encode it at a constant rate "
                            "(e.g. ffmpeg -i IN -vf fps=24 OUT.mp4)")
        self.last_time = time
        pos = (time - self.t0) * self.fps  # in nominal frames
        if abs(pos - (self.decoded - 1)) > 0.25:
            self.uneven = True
        # This frame is the nearest for every slot up to halfway to a frame one nominal
        # period later; the next frame claims the slots after its own midpoint.
        first = self.next_slot
        last = int(np.floor(pos + 0.5))
        if last < first:
            return []
        self._check_length(last)
        self.next_slot = last + 1
        self.source += [self.decoded - 1] * (last + 1 - first)
        return list(range(first, last + 1))

    def _check_length(self, slot: int) -> None:
        if slot >= MAX_CLIP_FRAMES:
            raise ClipError(f"clip {self.path} runs past {MAX_CLIP_FRAMES} frames at "
                            f"{self.fps:g} fps: give the model's clip of one action (a "
                            "few seconds), or cut it to the part you want")


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
