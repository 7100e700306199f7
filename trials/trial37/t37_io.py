"""Trial 37 output: H3-like H.264 (own BT.601 limited 4:2:0, one x264 thread, mbtree=0,
untagged as ComfyUI's SaveVideo writes it), the truth as an .npz with fixed zip times,
the portrait PNG and case.json. Same inputs give the same bytes on every run."""
from __future__ import annotations

import json
import zipfile
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from PIL import Image

FPS = 24


def h3_frames(seconds: float) -> int:
    """H3's frame count: max(5, round(s*24)) rounded up to the form 17k+5."""
    n = max(5, round(seconds * FPS))
    return n + (5 - n % 17) % 17


def rgb_to_yuv420(rgb: np.ndarray) -> np.ndarray:
    """(H, W, 3) float or uint8 RGB -> (H*3/2, W) uint8 yuv420p, BT.601 limited range,
    chroma the 2x2 box mean of the full-resolution Cb/Cr."""
    x = rgb.astype(np.float32)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    y = 16.0 + 0.256788 * r + 0.504129 * g + 0.097906 * b
    cb = 128.0 - 0.148223 * r - 0.290993 * g + 0.439216 * b
    cr = 128.0 + 0.439216 * r - 0.367788 * g - 0.071427 * b
    h, w = y.shape

    def half(c):
        return c.reshape(h // 2, 2, w // 2, 2).mean(axis=(1, 3))

    planes = [np.clip(np.rint(p), 0, 255).astype(np.uint8) for p in (y, half(cb), half(cr))]
    u = planes[1].reshape(h // 4, w)
    v = planes[2].reshape(h // 4, w)
    return np.concatenate([planes[0], u, v], axis=0)


class Encoder:
    """Streams RGB frames into clip.mp4: libx264, yuv420p, CRF, deterministic."""

    def __init__(self, path: Path, w: int, h: int, crf: int, preset: str = "medium"):
        self.box = av.open(str(path), "w", options={"fflags": "+bitexact"})
        st = self.box.add_stream("libx264", rate=FPS)
        st.width, st.height, st.pix_fmt = w, h, "yuv420p"
        st.time_base = Fraction(1, FPS)
        st.thread_count = 1
        st.codec_context.options = {"crf": str(crf), "preset": preset,
                                    "x264-params": "mbtree=0:threads=1"}
        self.st, self.n = st, 0

    def add(self, rgb: np.ndarray) -> None:
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        fr.pts = self.n
        fr.time_base = Fraction(1, FPS)
        self.n += 1
        for pkt in self.st.encode(fr):
            self.box.mux(pkt)

    def close(self) -> None:
        for pkt in self.st.encode():
            self.box.mux(pkt)
        self.box.close()


def save_truth(path: Path, rgba: np.ndarray) -> None:
    """`rgba` into an .npz numpy can load, its zip entry dated 1980-01-01."""
    info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w", compresslevel=3) as z:
        with z.open(info, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(rgba), allow_pickle=False)


def save_portrait(path: Path, rgba: np.ndarray) -> None:
    Image.fromarray(rgba, "RGBA").save(path, optimize=False, compress_level=6)


def save_case(path: Path, info: dict) -> None:
    path.write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")


def straight_u8(prem: np.ndarray) -> np.ndarray:
    """Premultiplied float RGBA in 0..1 -> straight uint8 RGBA (rgb 0 where alpha rounds to 0)."""
    a = np.clip(prem[..., 3], 0.0, 1.0)
    a8 = np.rint(a * 255).astype(np.uint8)
    rgb = prem[..., :3] / np.maximum(a, 1e-6)[..., None]
    rgb = np.clip(np.rint(rgb * 255), 0, 255).astype(np.uint8)
    rgb[a8 == 0] = 0
    return np.dstack([rgb, a8])
