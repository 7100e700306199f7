"""Sheet -> files, for every engine; `write_sheet` is the one way a sheet reaches disk.

    texturepacker  STEM.json + STEM.webp|png  (always: the record the batch, `driver
                   status`, `driver review` and actions.json read)
    aseprite       STEM.aseprite.json         (Phaser createFromAseprite, Aseprite readers)
    godot          STEM.tres                  (Godot 4 SpriteFrames on the same strip)
    frames         STEM_frames/0000.png ...   (one PNG per cell: Defold, Unity, editors)

Every byte is rendered before any file is touched, so a failure writes nothing; files
being replaced go to the caller's backup first (nothing is overwritten without one).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from ..sheet import Sheet, encode_png, encode_webp, json_bytes
from ..util import publish, staged_write, temp_path
from . import aseprite, godot, texturepacker


class Format(str, Enum):
    TEXTUREPACKER = "texturepacker"
    ASEPRITE = "aseprite"
    GODOT = "godot"
    FRAMES = "frames"

    def __str__(self) -> str:
        return self.value


class ImageFormat(str, Enum):
    WEBP = "webp"
    PNG = "png"

    def __str__(self) -> str:
        return self.value


DEFAULT_FORMATS: tuple[Format, ...] = (Format.TEXTUREPACKER,)


def parse_formats(names: Iterable[str] | str, what: str = "formats") -> tuple[Format, ...]:
    """'aseprite,godot' or a list -> formats in canonical order, texturepacker always first."""
    if isinstance(names, str):
        names = names.split(",")
    chosen = {Format.TEXTUREPACKER}
    for raw in names:
        name = raw.strip().lower()
        if not name:
            continue
        try:
            chosen.add(Format(name))
        except ValueError:
            raise ValueError(f"{what}: unknown format {raw.strip()!r}; choose from "
                             f"{', '.join(f.value for f in Format)}") from None
    return tuple(f for f in Format if f in chosen)


def parse_image_format(name: str, what: str = "image_format") -> ImageFormat:
    try:
        return ImageFormat(name.strip().lower())
    except ValueError:
        raise ValueError(f"{what}: unknown image format {name!r}; choose webp or png") from None


def image_name(stem: str, image_format: ImageFormat) -> str:
    return f"{stem}.{image_format.value}"


def file_of(stem: str, fmt: Format) -> str:
    """The file (or, for frames, the folder) a format writes, relative to the sheet's folder."""
    return {Format.TEXTUREPACKER: f"{stem}.json", Format.ASEPRITE: f"{stem}.aseprite.json",
            Format.GODOT: f"{stem}.tres", Format.FRAMES: f"{stem}_frames"}[fmt]


def render(sheet: Sheet, stem: str, formats: Iterable[Format] = DEFAULT_FORMATS,
           image_format: ImageFormat = ImageFormat.WEBP) -> dict[str, bytes]:
    """Every file's bytes by path relative to the sheet's folder (the image first, the
    TexturePacker JSON last: a reader that sees the JSON finds everything it names)."""
    formats = set(formats) | {Format.TEXTUREPACKER}
    image = image_name(stem, image_format)
    encode = encode_webp if image_format is ImageFormat.WEBP else encode_png
    files: dict[str, bytes] = {image: encode(sheet.rgba)}
    if Format.FRAMES in formats:
        folder = file_of(stem, Format.FRAMES)
        for i, cell in enumerate(sheet.cells):
            files[f"{folder}/{i:04d}.png"] = encode_png(cell)
    if Format.ASEPRITE in formats:
        files[file_of(stem, Format.ASEPRITE)] = json_bytes(aseprite.document(sheet, image))
    if Format.GODOT in formats:
        files[file_of(stem, Format.GODOT)] = godot.document(sheet, image).encode("utf-8")
    files[file_of(stem, Format.TEXTUREPACKER)] = json_bytes(
        texturepacker.document(sheet, image))
    return files


def candidates(folder: Path, stem: str) -> list[Path]:
    """Every path a sheet named `stem` may occupy in `folder`, whatever its formats."""
    return ([folder / image_name(stem, i) for i in ImageFormat]
            + [folder / file_of(stem, f) for f in Format])


def _stage(files: dict[str, bytes], folder: Path,
           frames_dir: str) -> list[tuple[Path, Path]]:
    """Every file written under its temporary name: (temporary, final) pairs in render's
    order, the frames folder (one hidden folder) first. On failure none is left."""
    staged: list[tuple[Path, Path]] = []
    try:
        cells = {rel: data for rel, data in files.items() if rel.startswith(frames_dir + "/")}
        if cells:
            tmp = temp_path(folder / frames_dir)
            shutil.rmtree(tmp, ignore_errors=True)  # our own leftover from a crash
            tmp.mkdir()
            staged.append((tmp, folder / frames_dir))
            for rel, data in cells.items():
                (tmp / rel.split("/", 1)[1]).write_bytes(data)
        for rel, data in files.items():
            if rel not in cells:
                staged.append((staged_write(folder / rel, data), folder / rel))
    except BaseException:
        _unstage(staged)
        raise
    return staged


def _unstage(staged: list[tuple[Path, Path]]) -> None:
    for tmp, _ in staged:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            tmp.unlink(missing_ok=True)


@dataclass(frozen=True)
class Written:
    folder: Path
    image: Path
    files: dict[Format, Path]  # per format its file (frames: its folder)
    backup: Path | None  # where the files they replaced went

    @property
    def json(self) -> Path:
        return self.files[Format.TEXTUREPACKER]


def write_sheet(sheet: Sheet, folder: Path, stem: str,
                formats: Iterable[Format] = DEFAULT_FORMATS,
                image_format: ImageFormat = ImageFormat.WEBP,
                back_up: Callable[[list[Path]], Path | None] | None = None) -> Written:
    """Render, write every file under a temporary name beside its own, move what would be
    replaced aside with `back_up(paths)` (a refusal when there is none: pick a fresh stem
    instead), then rename each into place; the per-cell PNGs go into a hidden folder that
    is renamed into place whole. A failure while writing (a full disk) or backing up (a
    file that will not move) leaves the previous sheet where it was."""
    formats = tuple(set(formats) | {Format.TEXTUREPACKER})
    files = render(sheet, stem, formats, image_format)  # a failure here writes nothing
    # Every name any format writes for this stem, so a file left by another choice of
    # formats does not linger beside the new ones looking current.
    existing = [p for p in candidates(folder, stem) if p.exists()]
    if existing and back_up is None:
        raise FileExistsError(f"{existing[0]} exists; choose another name")
    folder.mkdir(parents=True, exist_ok=True)
    staged = _stage(files, folder, file_of(stem, Format.FRAMES))
    try:
        backup = back_up(existing) if existing and back_up is not None else None
    except BaseException:
        _unstage(staged)
        raise
    for i, (tmp, path) in enumerate(staged):
        try:
            if tmp.is_dir():
                os.replace(tmp, path)
            else:
                publish(tmp, path)
        except BaseException:
            _unstage(staged[i:])
            raise
    return Written(folder, folder / image_name(stem, image_format),
                   {f: folder / file_of(stem, f) for f in formats}, backup)
