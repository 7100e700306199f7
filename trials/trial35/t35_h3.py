"""H3's output format (DOMAIN.md): 24 fps, 17k+5 frames, sides multiples of 32, and the
writers for a case folder: clip.mp4 (own RGB->YCbCr 4:2:0, one x264 thread, mbtree=0),
truth.npz with fixed zip timestamps, portrait.png, case.json."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

FPS = 24
CLIP_SECONDS = {"idle": 2.0, "walk": 2.0, "run": 2.0, "attack": 1.0, "skill": 1.5, "hurt": 0.7}


def h3_frames(seconds: float) -> int:
    """n = max(5, round(s*24)); rounded up to the form 17k+5."""
    n = max(5, round(seconds * 24))
    return n + (5 - n % 17) % 17


def check_size(w: int, h: int) -> None:
    assert w % 32 == 0 and h % 32 == 0 and min(w, h) <= 768, (w, h)


# Y'CbCr matrices (Kr, Kb)
MATRIX = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722)}


def rgb_to_yuv420(rgb: np.ndarray, matrix: str = "bt601", full: bool = False) -> np.ndarray:
    """(H, W, 3) float RGB 0..255 -> (H*3/2, W) uint8 planar I420; chroma by 2x2 box
    average (centre-sited), as a camera/encoder front end does."""
    kr, kb = MATRIX[matrix]
    kg = 1.0 - kr - kb
    r, g, b = (rgb[..., i].astype(np.float32) / 255.0 for i in range(3))
    y = kr * r + kg * g + kb * b
    cb = (b - y) / (2 * (1 - kb))
    cr = (r - y) / (2 * (1 - kr))
    if full:
        Y = y * 255.0
        U = cb * 255.0 + 128.0
        V = cr * 255.0 + 128.0
    else:
        Y = 16.0 + 219.0 * y
        U = 128.0 + 224.0 * cb
        V = 128.0 + 224.0 * cr
    h, w = Y.shape
    U = U.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    V = V.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))
    out = np.empty((h * 3 // 2, w), np.uint8)
    out[:h] = np.clip(np.rint(Y), 0, 255)
    q = (h // 2) * (w // 2)
    flat = out[h:].reshape(-1)
    flat[:q] = np.clip(np.rint(U), 0, 255).reshape(-1)
    flat[q:] = np.clip(np.rint(V), 0, 255).reshape(-1)
    return out


class Encoder:
    """H.264 yuv420p writer, deterministic: one thread, mbtree off, fixed preset."""

    def __init__(self, path: Path, w: int, h: int, crf: int, matrix: str = "bt601",
                 full: bool = False, tag: bool = False):
        check_size(w, h)
        self.matrix, self.full = matrix, full
        self.c = av.open(str(path), "w")
        s = self.c.add_stream("libx264", rate=Fraction(FPS))
        s.width, s.height, s.pix_fmt = w, h, "yuv420p"
        s.options = {"crf": str(crf), "preset": "medium", "x264-params": "mbtree=0"}
        cc = s.codec_context
        cc.thread_count = 1
        if full:
            cc.color_range = 2
        if tag:  # colour description as the matrix says (1 = BT.709, 6 = SMPTE170M)
            code = 1 if matrix == "bt709" else 6
            cc.colorspace, cc.color_primaries, cc.color_trc = code, code, code
        self.s, self.i = s, 0

    def add(self, rgb: np.ndarray) -> None:
        f = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb, self.matrix, self.full),
                                       format="yuv420p")
        f.pts = self.i
        if self.full:
            f.color_range = 2
        self.i += 1
        for p in self.s.encode(f):
            self.c.mux(p)

    def close(self) -> None:
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


def save_truth(path: Path, rgba: np.ndarray) -> None:
    """npz with one member rgba.npy, fixed timestamp: the same bytes every run."""
    assert rgba.dtype == np.uint8 and rgba.ndim == 4 and rgba.shape[-1] == 4
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(rgba), allow_pickle=False)
    info = zipfile.ZipInfo("rgba.npy", date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(info, buf.getvalue(), compresslevel=3)


def save_portrait(path: Path, rgba: np.ndarray) -> None:
    Image.fromarray(rgba, "RGBA").save(path, optimize=False)


def save_case(path: Path, meta: dict) -> None:
    path.write_text(json.dumps(meta, indent=2, sort_keys=False) + "\n")


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def to_u8(x: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)
