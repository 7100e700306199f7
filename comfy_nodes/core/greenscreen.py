"""The first frame: a transparent portrait placed on a key-green canvas at H3's size.

The portrait is trimmed to its visible pixels, scaled so the character is a set share of
the canvas height (capped so it fits between the side margins), anchored at the feet on a
baseline near the bottom, centred, and composited over the key colour. The placement is
returned as data so later steps (and the game) know where the character sits. H3 needs the
reference to have the canvas's aspect, or it keeps the input's aspect and the character
ends up small in the middle; above 16:9 the reference itself is shrunk to a 480-px short
edge (the output size does not change).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import ImageOps, UnidentifiedImageError

from .imagefile import ImageFileError, open_image
from .snap import reference_size

DEFAULT_KEY = "#00B140"  # broadcast chroma green: saturated, not neon


class PortraitError(ValueError):
    """The portrait cannot be used; the message says which and what to do."""


@dataclass(frozen=True)
class Placement:
    scale: float  # canvas pixels per portrait pixel
    offset_x: float  # where the trimmed portrait's top-left lands on the canvas
    offset_y: float
    canvas_w: int
    canvas_h: int
    reference_w: int
    reference_h: int
    feet_x: float  # the anchor on the canvas
    feet_y: float
    trim: tuple[int, int, int, int]  # x, y, w, h of the visible part of the portrait

    def as_dict(self) -> dict:
        return asdict(self)


def parse_colour(text: str) -> tuple[int, int, int]:
    t = text.strip().lstrip("#")
    if len(t) != 6:
        raise ValueError(f"key colour {text!r} is not #RRGGBB")
    try:
        return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)
    except ValueError:
        raise ValueError(f"key colour {text!r} is not #RRGGBB") from None


PORTRAIT_FIX = "give the character's portrait as a PNG or WebP with a transparent background"


ANIMATED_FORMATS = frozenset({"GIF", "PNG", "WEBP"})  # Pillow's names: GIF, APNG, WebP

ORIENTATION = 0x0112  # the EXIF tag: 1 is upright


def load_portrait(path: str | Path) -> np.ndarray:
    """RGBA uint8 of an image file, fully decoded; refuses files without real alpha. Every
    refusal names the file as the portrait and says what to give instead."""
    path = Path(path)
    try:
        # stat, then the header's pixel count, before any decode (core/imagefile.py)
        with open_image(path, "portrait", give=PORTRAIT_FIX) as im:
            # Animations only: a TIFF's thumbnail page or an MPO's second view is no pose.
            frames = getattr(im, "n_frames", 1) if im.format in ANIMATED_FORMATS else 1
            im.load()  # a full decode: a truncated file fails here, not inside ComfyUI
            if im.getexif().get(ORIENTATION, 1) != 1:  # upright, as ComfyUI's LoadImage
                im = ImageOps.exif_transpose(im)  # shows it (a phone's photo of a drawing)
            has_alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
            # Already RGBA: one copy into numpy, not a converted image and then a copy
            # (an 8000x8000 portrait: 256 MB each).
            rgba = np.array(im if im.mode == "RGBA" else im.convert("RGBA"))
    except ImageFileError as e:
        raise PortraitError(str(e)) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        # Pillow's words ("image file is truncated (5 bytes not processed)") say less than
        # this, and may name its internals.
        raise PortraitError(f"portrait {path} is cut short or damaged (its pixels do not "
                            "decode): re-export it as PNG or WebP with a transparent "
                            "background") from None
    # An animation's first frame, taken without a word, is a guess at which pose the user
    # meant (an earlier run's strip given by mistake, say).
    if frames > 1:
        raise PortraitError(f"portrait {path} is animated ({frames} frames): give one still "
                            "image, e.g. the pose it should start from saved as PNG")
    if not has_alpha:
        raise PortraitError(f"portrait {path} has no alpha channel: export it with a "
                            "transparent background (PNG/WebP RGBA); it is not keyed by guess")
    check_alpha(rgba, f"portrait {path}")
    return rgba


def check_alpha(rgba: np.ndarray, what: str = "portrait") -> None:
    """Refuse a portrait with nothing visible, or nothing transparent; `what` names it
    ("portrait hero.png") at the start of the one line."""
    a = rgba[..., 3]
    if (a > 8).sum() == 0:
        raise PortraitError(f"{what} is fully transparent (no pixel is visible): give the "
                            "character's portrait, opaque on a transparent background")
    if (a < 250).mean() < 0.01:
        raise PortraitError(f"{what} has no transparent background (alpha is opaque "
                            "everywhere): export it with the background removed")


def prepare_first_frame(rgba: np.ndarray, width: int, height: int, key: str = DEFAULT_KEY,
                        height_share: float = 0.6, feet_margin: float = 0.08,
                        side_margin: float = 0.08) -> tuple[np.ndarray, Placement]:
    """(reference image RGB uint8, placement). The image has the canvas's aspect; above
    16:9 it is smaller than the canvas (see reference_size)."""
    if width % 32 or height % 32:
        raise ValueError(f"canvas {width}x{height} is not a multiple of 32 on both sides: "
                         "use Snap Size")
    if not 0.05 <= height_share <= 1.0:
        raise ValueError(f"height_share {height_share} must be within 0.05..1")
    check_alpha(rgba)
    key_rgb = np.array(parse_colour(key), np.float32)
    ys, xs = np.nonzero(rgba[..., 3] > 8)
    x0, y0, x1, y1 = xs.min(), ys.min(), xs.max() + 1, ys.max() + 1
    trimmed = rgba[y0:y1, x0:x1]
    ph, pw = trimmed.shape[:2]
    feet_y = height * (1 - feet_margin)
    avail_w = width * (1 - 2 * side_margin)
    scale = min(height * height_share / ph, avail_w / pw, feet_y / ph)
    ox = (width - pw * scale) / 2
    oy = feet_y - ph * scale
    placement_m = np.array([[scale, 0, ox], [0, scale, oy]], np.float64)

    a = trimmed[..., 3:4].astype(np.float32) / 255
    prem = np.concatenate([trimmed[..., :3] * a, a * 255], axis=-1)
    if scale < 0.75:
        prem = cv2.GaussianBlur(prem, (0, 0), 0.45 / scale)
    placed = cv2.warpAffine(prem, placement_m, (width, height), flags=cv2.INTER_AREA
                            if scale < 1 else cv2.INTER_LINEAR, borderValue=0)
    alpha = placed[..., 3:4] / 255
    rgb = placed[..., :3] + key_rgb * (1 - alpha)  # premultiplied "over"
    frame: np.ndarray = np.clip(rgb + 0.5, 0, 255).astype(np.uint8)
    rw, rh = reference_size(width, height)
    if (rw, rh) != (width, height):
        frame = cv2.resize(frame, (rw, rh), interpolation=cv2.INTER_AREA)
    return frame, Placement(float(scale), float(ox), float(oy), width, height, rw, rh,
                            float(width / 2), float(feet_y),
                            (int(x0), int(y0), int(pw), int(ph)))
