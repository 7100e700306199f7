"""Trial 38 output: H.264 yuv420p written with one x264 thread and no macroblock tree
(the same bytes on every run), the RGB -> BT.601 limited-range 4:2:0 conversion done
here (chroma the mean of each 2x2 block), the truth as an .npz with fixed zip times, the
portrait as a PNG and case.json."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import av
import numpy as np
from PIL import Image


def rgb_to_yuv420(rgb):
    """float RGB 0..1 (H, W, 3) -> (H * 3 / 2, W) uint8 planes, BT.601 limited range."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    cb = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    cr = 128 + 112.0 * r - 93.786 * g - 18.214 * b
    H, W = y.shape

    def down(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean((1, 3))

    q = lambda a: np.clip(np.floor(a + 0.5), 0, 255).astype(np.uint8)  # noqa: E731
    cb, cr = q(down(cb)), q(down(cr))
    return np.concatenate([q(y), cb.reshape(H // 4, W), cr.reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path: Path, W: int, H: int, crf: float, fps: int = 24):
        self.out = av.open(str(path), "w", format="mp4")
        st = self.out.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.codec_context.thread_count = 1
        st.options = {"crf": f"{crf:g}", "preset": "medium",
                      "x264-params": "threads=1:lookahead-threads=1:sliced-threads=0:mbtree=0"}
        self.st, self.n = st, 0

    def add(self, rgb):
        frame = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        frame.pts = self.n
        self.n += 1
        for pkt in self.st.encode(frame):
            self.out.mux(pkt)

    def close(self):
        for pkt in self.st.encode():
            self.out.mux(pkt)
        self.out.close()


def to_rgba8(prem, alpha):
    """Premultiplied float colour and alpha -> straight uint8 RGBA (colour 0 where clear)."""
    a = np.clip(alpha, 0, 1)
    q = np.clip(np.floor(a * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb = np.where(a[..., None] > 1e-6, prem / np.maximum(a[..., None], 1e-6), 0)
    rgb = np.clip(np.floor(rgb * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb[q == 0] = 0
    return np.concatenate([rgb, q[..., None]], -1)


def write_truth(path: Path, frames: np.ndarray):
    info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(info, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(frames), allow_pickle=False)


def write_png(path: Path, rgba: np.ndarray):
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG", optimize=False, compress_level=6)
    path.write_bytes(buf.getvalue())


def write_case(path: Path, case: dict):
    path.write_text(json.dumps(case, indent=1, sort_keys=True) + "\n")
