"""`driver review`'s first-frame thumbnail of each job's clip.mp4, whatever the graph's
save node wrote there."""

from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image

from comfy_nodes.core import video
from driver import review


def _thumb_pixels(uri: str) -> np.ndarray:
    head, data = uri.split(",", 1)
    assert head == "data:image/jpeg;base64"
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))


def test_first_frame_of_an_mp4_and_of_an_animated_webp(tmp_path):
    """A clip.mp4 that is an H.264 mp4 (SaveVideo) or an animated WebP under that name (a
    graph saving with SaveAnimatedWEBP; FFmpeg cannot decode it) gives the same first
    frame: red, not the later frames' blue."""
    frames = np.zeros((6, 64, 64, 3), np.uint8)
    frames[0, ..., 0] = 220
    frames[1:, ..., 2] = 220
    mp4 = tmp_path / "a" / "clip.mp4"
    mp4.parent.mkdir()
    video.encode(frames, mp4)
    webp = tmp_path / "b" / "clip.mp4"
    webp.parent.mkdir()
    images = [Image.fromarray(f) for f in frames]
    images[0].save(webp, "WEBP", save_all=True, append_images=images[1:], duration=41,
                   lossless=True)
    for clip in (mp4, webp):
        uri = review._first_frame(clip)
        assert uri is not None, clip
        px = _thumb_pixels(uri).reshape(-1, 3).mean(0)
        assert px[0] > 180 and px[2] < 40, (clip, px)


def test_no_first_frame_from_a_file_that_is_no_clip(tmp_path):
    """Text named clip.mp4, or no file at all: no thumbnail, no error."""
    bad = tmp_path / "clip.mp4"
    bad.write_text("not a video")
    assert review._first_frame(bad) is None
    assert review._first_frame(tmp_path / "missing.mp4") is None
