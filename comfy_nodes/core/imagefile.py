"""The one way an image file from a user is opened: stat first, header second, pixels last.

- Only regular files are opened: a FIFO blocks the reader for ever, a device never ends and
  a folder is not an image; `stat` tells them apart without reading, and what was opened is
  checked again (core/regularfile.py).
- The header says how many pixels a decode would make; above MAX_PIXELS the file is refused
  before anything is decoded (a 560 KB PNG can declare 12000x12000 = 2.3 GB of RGBA).
- Pillow's own decompression-bomb guard is kept as a second line and turned into the same
  one-line error.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from .regularfile import Kind, NotRegular, open_regular, stat_regular

MAX_PIXELS = 64_000_000  # 64 MP: 8000x8000, far above any portrait; 256 MB as RGBA
MAX_FILE_BYTES = 512 << 20


class ImageFileError(ValueError):
    """The file cannot be used as an image; the message names it and what to do."""


def _refused(e: OSError | NotRegular, path: Path, what: str, limit: int,
             kind: str = "an image file") -> ImageFileError:
    """The one line for a file that cannot be opened, or is no regular file under `limit`;
    `kind` is what the file should be ("a video file"), named where it is something else."""
    if isinstance(e, FileNotFoundError):
        return ImageFileError(f"{what} {path} does not exist")
    if isinstance(e, OSError):
        return ImageFileError(f"{what} {path} cannot be read: {e.strerror}")
    if e.kind is Kind.FOLDER:
        return ImageFileError(f"{what} {path} is a folder, not {kind}: give the file itself")
    if e.kind is Kind.SPECIAL:
        return ImageFileError(f"{what} {path} is not a regular file (a pipe or a device?): "
                              "give a file")
    size = e.size or 0  # always known here: only read_regular finds more than stat said
    return ImageFileError(f"{what} {path} is {size / 2**20:.0f} MiB; the limit is "
                          f"{limit / 2**20:.0f} MiB")


def check_regular(path: Path, what: str, limit: int = MAX_FILE_BYTES,
                  kind: str = "an image file") -> os.stat_result:
    """stat the path (never open it) and refuse anything but a regular file under `limit`;
    `kind` is what the file should be, as the refusal names it ("a video file")."""
    try:
        return stat_regular(path, limit)
    except (OSError, NotRegular) as e:
        raise _refused(e, path, what, limit, kind) from None


@contextmanager
def open_image(path: str | Path, what: str = "image", max_pixels: int = MAX_PIXELS,
               give: str = "give a PNG, WebP or JPEG file") -> Iterator[Image.Image]:
    """An opened (not yet decoded) PIL image whose header passed the pixel limit. `give` is
    the fix the refusal of a file that is no image ends with."""
    path = Path(path)
    try:  # opened here, not by Pillow: known by stat first, and what was opened checked too
        f = open_regular(path, MAX_FILE_BYTES)
    except (OSError, NotRegular) as e:
        raise _refused(e, path, what, MAX_FILE_BYTES) from None
    with f:
        try:
            with warnings.catch_warnings():
                # Pillow warns between MAX_IMAGE_PIXELS and twice that: make it an error too.
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                im = Image.open(f)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
            # Pillow's words: "Image size (400000000 pixels) exceeds limit of ..."
            size = re.search(r"\((\d+) pixels\)", str(e))
            declared = (f"{int(size.group(1)) / 1e6:.0f} MP" if size else
                        f"over {(Image.MAX_IMAGE_PIXELS or max_pixels) // 10**6} MP")
            raise ImageFileError(f"{what} {path} declares {declared} (a decompression "
                                 f"bomb?); the limit is {max_pixels // 10**6} MP: shrink it"
                                 ) from None
        except UnidentifiedImageError:
            # Pillow's words name only the file object we opened ("cannot identify image
            # file <_io.BufferedReader name=3>"): say what the file is not instead.
            raise ImageFileError(f"{what} {path} is not an image file (its content is no "
                                 f"PNG, WebP, JPEG or other image format): {give}") from None
        except (OSError, SyntaxError, ValueError):
            raise ImageFileError(f"{what} {path} is a damaged image (its header does not "
                                 f"parse): {give}") from None
        with im:
            w, h = im.size
            if w * h > max_pixels:
                raise ImageFileError(f"{what} {path} is {w}x{h} = {w * h / 1e6:.0f} MP; the "
                                     f"limit is {max_pixels // 10**6} MP: shrink it (a "
                                     "portrait needs well under 4 MP)")
            yield im
