"""Pack cells into one horizontal strip: lossless WebP + TexturePacker JSON-Hash (superset).

PixiJS and Phaser load the JSON as is (`frames`, `animations`, `meta`); we add per-frame
`anchor`, `duration` (ms) and `source` (the clip frame and the clip rectangle that was
resampled onto the cell), and `meta.frameTags` / `meta.animation` for the game's data.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

WEBP_MAX_SIDE = 16383


@dataclass(frozen=True)
class Cell:
    name: str
    source_index: int
    source_rect: tuple[float, float, float, float]  # x, y, w, h in clip pixels


def strip(cells: list[np.ndarray]) -> np.ndarray:
    """Cells (RGBA, same size) side by side."""
    return np.concatenate(cells, axis=1)


def encode_webp(rgba: np.ndarray) -> bytes:
    h, w = rgba.shape[:2]
    if max(h, w) > WEBP_MAX_SIDE:
        raise ValueError(f"sheet {w}x{h} exceeds WebP's {WEBP_MAX_SIDE}-px side limit")
    buf = io.BytesIO()
    # Lossless at the fastest effort: 15 ms instead of 110 ms (method 1) for a 10-cell
    # strip, for files ~15% larger; still smaller than PNG.
    Image.fromarray(rgba, "RGBA").save(buf, "WEBP", lossless=True, quality=10, method=0,
                                       exact=False)
    return buf.getvalue()


def layout(character: str, action: str, cells: list[Cell], cell_size: tuple[int, int],
           anchor: tuple[float, float], fps: float, loop: bool, image_name: str,
           scale: float, extra_meta: dict) -> dict:
    cw, ch = cell_size
    frames = {}
    duration = round(1000 / fps)
    for i, c in enumerate(cells):
        frames[c.name] = {
            "frame": {"x": i * cw, "y": 0, "w": cw, "h": ch},
            "rotated": False,
            "trimmed": False,
            "spriteSourceSize": {"x": 0, "y": 0, "w": cw, "h": ch},
            "sourceSize": {"w": cw, "h": ch},
            "anchor": {"x": round(anchor[0], 4), "y": round(anchor[1], 4)},
            "duration": duration,
            "source": {"index": c.source_index,
                       "rect": [round(v, 2) for v in c.source_rect]},
        }
    names = [c.name for c in cells]
    tag = {"name": action, "from": 0, "to": len(cells) - 1,
           "direction": "forward" if loop else "forward", "fps": fps, "loop": loop,
           "frameCount": len(cells)}
    return {
        "frames": frames,
        "animations": {action: names},
        "meta": {
            "app": "h3sprite",
            "version": "1",
            "image": image_name,
            "format": "RGBA8888",
            "size": {"w": cw * len(cells), "h": ch},
            "scale": round(scale, 6),
            "frameTags": [tag],
            "character": character,
            **extra_meta,
        },
    }


def write_atomic(path: Path, data: bytes) -> None:
    """Write beside, then rename: a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:  # a full disk leaves no half-written temporary file behind
        tmp.unlink(missing_ok=True)
        if e.filename is None:
            e.filename = str(path)
        raise


def json_bytes(doc: dict) -> bytes:
    """The JSON files we write: UTF-8, names in any language kept readable."""
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
