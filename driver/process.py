"""`driver process`: one clip -> a sheet in every format asked for (a plain function)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from comfy_nodes.core import export, pipeline
from comfy_nodes.core.export import DEFAULT_FORMATS, Format, ImageFormat, Written
from comfy_nodes.core.greenscreen import load_portrait
from comfy_nodes.core.recipes import Recipe
from comfy_nodes.core.reference import Reference, portrait_reference
from comfy_nodes.core.sheet import Sheet, shrunk_cells_problem
from comfy_nodes.core.video import decode
from driver.outputs import OLD_DIR, back_up


@dataclass(frozen=True)
class Processed:
    sheet: Sheet
    written: Written


def write_sheet(sheet: Sheet, folder: Path, stem: str, backup_root: Path,
                formats: Iterable[Format] = DEFAULT_FORMATS,
                image_format: ImageFormat = ImageFormat.WEBP) -> Written:
    """The driver's way (process and batch): files being replaced move under
    backup_root/_actions_old/<timestamp>/ first."""
    return export.write_sheet(sheet, folder, stem, formats, image_format,
                              back_up=lambda paths: back_up(paths, backup_root))


def inputs_in_the_way(out_dir: Path, stem: str, inputs: dict[str, Path | None]) -> str | None:
    """One line where an input (named by its key: "the clip", "--portrait") is a file the
    sheet would replace: a clip `walk.webp` beside `--out`'s folder, sheet named walk,
    was moved away as a previous sheet, and a portrait `walk.png` the same. None where
    none is."""
    sheet_files = [p for p in export.candidates(out_dir, stem) if p.exists()]
    for what, path in inputs.items():
        if path is None or not path.exists():
            continue
        for file in sheet_files:
            # the file itself, or one inside a frames folder (a cell PNG as the portrait);
            # by samefile, which a case-insensitive disk's spellings agree on
            inside = file.is_dir() and any(up.samefile(file) for up in path.resolve().parents)
            if inside or file.samefile(path):
                return (f"{what} {path} is where the sheet {stem!r} would be written: give "
                        "--name another name, or --out another folder")
    return None


def load_reference(path: Path | None) -> Reference | None:
    """What the portrait tells the despill: colours of the character no backdrop has
    spilled on, and its outline's."""
    return None if path is None else portrait_reference(load_portrait(path))


def process(clip_path: Path, action: str, recipe: Recipe, out_dir: Path, stem: str,
            character: str = "character", cell_height: int = 300, max_width: int = 8000,
            formats: Iterable[Format] = DEFAULT_FORMATS,
            image_format: ImageFormat = ImageFormat.WEBP,
            backup_root: Path | None = None, portrait: Path | None = None) -> Processed:
    """Decode, post-process and write. Raises ClipError, or ValueError (cells max_width
    shrank too far), before anything is written; a Ctrl-C while writing leaves as a
    KeyboardInterrupt whose message says what may be missing."""
    reference = load_reference(portrait)
    clip = decode(clip_path, keep=pipeline.full_frames(recipe))
    sheet = pipeline.process_clip(clip, action, recipe, character=character,
                                  cell_height=cell_height, max_width=max_width,
                                  reference=reference)
    if problem := shrunk_cells_problem(sheet, "--max-width"):
        raise ValueError(problem)
    root = backup_root or out_dir
    try:
        written = write_sheet(sheet, out_dir, stem, root, formats, image_format)
    except KeyboardInterrupt:
        # Each file is written whole or not at all, and a file it replaces was moved first.
        raise KeyboardInterrupt(f"interrupted while writing the sheet into {out_dir}: some "
                                f"of its files may be missing (any it replaced are under "
                                f"{root / OLD_DIR}); run it again") from None
    return Processed(sheet, written)
