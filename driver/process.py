"""`driver process`: one clip -> DIR/STEM.webp + DIR/STEM.json (a plain function)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from comfy_nodes.core import matte, pipeline
from comfy_nodes.core.greenscreen import load_portrait
from comfy_nodes.core.recipes import Recipe
from comfy_nodes.core.sheet import encode_webp, json_bytes, write_atomic
from comfy_nodes.core.video import decode
from driver.outputs import back_up, new_folder


@dataclass(frozen=True)
class Processed:
    webp: Path
    json: Path
    result: pipeline.SheetResult
    backup: Path | None
    frames_dir: Path | None


def write_sheet(result: pipeline.SheetResult, webp: Path, js: Path,
                backup_root: Path) -> Path | None:
    """Write a sheet's WebP and JSON atomically; an older pair is moved under
    backup_root/_actions_old/ first. Returns the backup folder, if anything was moved."""
    webp_bytes = encode_webp(result.rgba)  # before touching any file: a failure writes nothing
    webp.parent.mkdir(parents=True, exist_ok=True)
    backup = back_up([webp, js], backup_root)
    write_atomic(webp, webp_bytes)
    write_atomic(js, json_bytes(result.meta))
    return backup


def portrait_reference(path: Path | None) -> np.ndarray | None:
    """The portrait's palette: colours of the character no backdrop has spilled on."""
    return None if path is None else matte.portrait_palette(load_portrait(path))


def process(clip_path: Path, action: str, recipe: Recipe, out_dir: Path, stem: str,
            character: str = "character", cell_height: int = 300, max_width: int = 8000,
            keep_frames: bool = False, backup_root: Path | None = None,
            portrait: Path | None = None) -> Processed:
    """Decode, post-process and write. Raises ClipError before anything is written."""
    reference = portrait_reference(portrait)
    clip = decode(clip_path, keep=pipeline.full_frames(recipe))
    result = pipeline.process_clip(clip, action, recipe, character=character,
                                   cell_height=cell_height, max_width=max_width,
                                   image_name=f"{stem}.webp", reference=reference)
    webp, js = out_dir / f"{stem}.webp", out_dir / f"{stem}.json"
    backup = write_sheet(result, webp, js, backup_root or out_dir)
    frames_dir = None
    if keep_frames:
        frames_dir = new_folder(out_dir / "_frames", stem)
        for name, cell in zip(result.meta["frames"], result.cells, strict=True):
            index = result.meta["frames"][name]["source"]["index"]
            cv2.imwrite(str(frames_dir / f"{name.rsplit('/', 1)[-1]}_clip{index:03d}.png"),
                        cv2.cvtColor(cell, cv2.COLOR_RGBA2BGRA))
    return Processed(webp, js, result, backup, frames_dir)
