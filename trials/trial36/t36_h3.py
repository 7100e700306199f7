"""Trial 36: H3's clip format (shared/DOMAIN.md) and the case-folder writer.

H3 writes 24 fps, 17k+5 frames, sides that are multiples of 32, H.264 yuv420p.
The RGB -> BT.601 limited-range 4:2:0 conversion is done here in numpy (2x2 box
chroma), so the bytes fed to x264 never depend on swscale; x264 runs with one
thread and mbtree=0 so two runs give the same file.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

FPS = 24
SECONDS = {"idle": 2.0, "walk": 2.0, "run": 2.0, "attack": 1.0, "skill": 1.5, "hurt": 0.7}


def h3_frames(seconds: float) -> int:
    """H3's frame count for a requested duration: 17k+5, rounded up only."""
    n = max(5, round(seconds * 24))
    n += (5 - n % 17) % 17
    return n


def frames_for(action: str) -> int:
    return h3_frames(SECONDS[action])


def check_size(w: int, h: int) -> None:
    if w % 32 or h % 32 or min(w, h) > 768:
        raise ValueError(f"{w}x{h} is no H3 canvas (sides multiples of 32, short edge <= 768)")


def rgb_to_yuv420(rgb: np.ndarray) -> np.ndarray:
    """(H, W, 3) uint8 RGB -> (H*3/2, W) uint8 planar yuv420p, BT.601 limited range."""
    f = rgb.astype(np.float32)
    r, g, b = f[..., 0], f[..., 1], f[..., 2]
    y = 16.0 + 0.256788 * r + 0.504129 * g + 0.097906 * b
    cb = 128.0 - 0.148223 * r - 0.290993 * g + 0.439216 * b
    cr = 128.0 + 0.439216 * r - 0.367788 * g - 0.071427 * b
    h, w = y.shape

    def sub(c: np.ndarray) -> np.ndarray:
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    planes = [np.clip(np.rint(p), 0, 255).astype(np.uint8) for p in (y, sub(cb), sub(cr))]
    out = np.empty((h * 3 // 2, w), np.uint8)
    out[:h] = planes[0]
    out[h:h + h // 4] = planes[1].reshape(h // 4, w)
    out[h + h // 4:] = planes[2].reshape(h // 4, w)
    return out


class Encoder:
    """H.264 yuv420p mp4 at 24 fps, CRF as given, deterministic (1 thread, mbtree=0)."""

    def __init__(self, path: Path, w: int, h: int, crf: int, fps: int = FPS):
        check_size(w, h)
        self.c = av.open(str(path), "w", format="mp4")
        st = self.c.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = w, h, "yuv420p"
        cc = st.codec_context
        cc.thread_count = 1
        cc.time_base = Fraction(1, fps)
        cc.colorspace, cc.color_range, cc.color_primaries, cc.color_trc = 6, 1, 6, 6
        cc.options = {"crf": str(crf), "preset": "medium", "threads": "1",
                      "x264-params": "mbtree=0:threads=1:lookahead-threads=1"}
        self.st, self.n = st, 0

    def add(self, rgb: np.ndarray) -> None:
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        fr.colorspace, fr.color_range = 6, 1
        fr.pts = self.n
        self.n += 1
        for p in self.st.encode(fr):
            self.c.mux(p)

    def close(self) -> None:
        for p in self.st.encode():
            self.c.mux(p)
        self.c.close()


def save_truth(path: Path, rgba: np.ndarray) -> None:
    """truth.npz with one member rgba.npy, fixed zip timestamps (same bytes every run)."""
    assert rgba.dtype == np.uint8 and rgba.ndim == 4 and rgba.shape[-1] == 4
    zi = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    zi.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, allowZip64=True,
                         compresslevel=3) as z:
        with z.open(zi, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(rgba), allow_pickle=False)


def save_portrait(path: Path, rgba: np.ndarray) -> None:
    Image.fromarray(rgba, "RGBA").save(path, optimize=False)


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_case_json(path: Path, info: dict) -> None:
    Path(path).write_text(json.dumps(info, indent=2, sort_keys=False) + "\n")
