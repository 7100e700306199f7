"""Sprite Matte, Sprite Loop Window and Sprite Sheet: the clip -> sheet chain as nodes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from comfy_api.latest import io, ui

from .core import export, matte, pipeline
from .core.export import texturepacker
from .core.names import safe_name
from .core.recipes import DEFAULT_RECIPES, Recipe
from .core.video import Clip
from .schema import PACK, PREFIX, schema
from .tensors import image_to_uint8, uint8_to_image, uint8_to_mask

# The node's format choice -> core.export formats (texturepacker is always written).
FORMAT_CHOICES = {
    "texturepacker": "texturepacker",
    "texturepacker+aseprite": "aseprite",
    "texturepacker+godot": "godot",
    "texturepacker+frames": "frames",
    "all": "aseprite,godot,frames",
}


def _recipe_inputs():
    return [
        io.Combo.Input("action", options=list(DEFAULT_RECIPES), default="walk",
                       tooltip="Recipe: sheet frames, fps and looping"),
        io.Int.Input("sheet_frames", default=0, min=0, max=256,
                     tooltip="0 = the recipe's frame count"),
        io.Float.Input("sheet_fps", default=0.0, min=0.0, max=120.0, step=0.5,
                       tooltip="0 = the recipe's fps"),
        io.Float.Input("clip_fps", default=24.0, min=1.0, max=120.0, step=1.0,
                       tooltip="Frame rate of the incoming clip (H3: 24)"),
    ]


def _recipe(action: str, sheet_frames: int, sheet_fps: float) -> Recipe:
    base = DEFAULT_RECIPES[action]
    return base.model_copy(update={"frames": sheet_frames or base.frames,
                                   "fps": sheet_fps or base.fps})


def _grade_text(anim: dict) -> str:
    grade = (f"loop {anim['loop_grade']} ({anim['loop_score']})" if anim.get("loop_grade")
             else "one-shot")
    flags = ", QC: " + " ".join(anim["qc"]) if anim["qc"] else ", QC: none"
    return grade + flags


class SpriteMatte(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SpriteMatte",
            display_name="Sprite Matte",
            category=f"{PACK}/sprite",
            description="Key the green backdrop of a clip (learned from the clip itself), "
                        "despill the edges and remove light outlines; green and teal parts "
                        "of the character are kept.",
            search_aliases=["chroma key", "keying", "green screen", "despill", "matte"],
            inputs=[io.Image.Input("frames", tooltip="The clip's frames (IMAGE batch)"),
                    io.Boolean.Input("defringe", default=True,
                                     tooltip="Remove light outlines and faint halos")],
            outputs=[io.Image.Output("rgb", tooltip="Despilled colour"),
                     io.Mask.Output("alpha", tooltip="1 = character (not inverted)")],
        )

    @classmethod
    def execute(cls, frames, defringe: bool) -> io.NodeOutput:
        arr = image_to_uint8(frames)[..., :3]
        key = matte.estimate_key(arr)
        rgba = np.stack([matte.refine(f, key, defringe=defringe) for f in arr])
        return io.NodeOutput(uint8_to_image(rgba[..., :3]), uint8_to_mask(rgba[..., 3]))


class SpriteLoopWindow(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SpriteLoopWindow",
            display_name="Sprite Loop Window",
            category=f"{PACK}/sprite",
            description="Pick the sheet's frames: for loops the window after the still "
                        "opening whose seam shows least (graded CLEAN/OK/WEAK); for one-shots "
                        "the span from wind-up through peak to recovery.",
            search_aliases=["loop", "frame window", "seamless", "cycle"],
            inputs=[io.Image.Input("frames", tooltip="The clip's frames"), *_recipe_inputs()],
            outputs=[io.Image.Output("window", tooltip="The chosen clip frames, in order"),
                     io.String.Output("indices", tooltip="JSON list of clip frame indices"),
                     io.Float.Output("loop_score", tooltip="-1 for one-shot actions"),
                     io.String.Output("grade")],
        )

    @classmethod
    def execute(cls, frames, action: str, sheet_frames: int, sheet_fps: float,
                clip_fps: float) -> io.NodeOutput:
        arr = image_to_uint8(frames)[..., :3]
        an = pipeline.analyse(Clip(arr, clip_fps), _recipe(action, sheet_frames, sheet_fps))
        win = an.window
        anim = {"loop_grade": win.loop_grade, "loop_score": win.loop_score, "qc": an.qc}
        return io.NodeOutput(uint8_to_image(arr[win.indices]), json.dumps(win.indices),
                             -1.0 if win.loop_score is None else float(win.loop_score),
                             win.loop_grade or "ONE-SHOT", ui=ui.PreviewText(_grade_text(anim)))


class SpriteSheet(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SpriteSheet",
            display_name="Sprite Sheet",
            category=f"{PACK}/sprite",
            description="Clip -> one horizontal strip (lossless WebP) + TexturePacker "
                        "JSON-Hash that PixiJS and Phaser load; matte, alignment, one scale, "
                        "loop window and QC flags included. Saved under the output folder.",
            search_aliases=["sprite sheet", "spritesheet", "atlas", "texturepacker", "strip"],
            is_output_node=True,
            inputs=[
                io.Image.Input("frames", tooltip="The clip's frames"),
                io.String.Input("character", default="hero",
                                tooltip="Character id: frame names and the sub-folder"),
                *_recipe_inputs(),
                io.Int.Input("cell_height", default=300, min=16, max=2048,
                             tooltip="Cell height in pixels"),
                io.Int.Input("max_width", default=8000, min=64, max=16383,
                             tooltip="The strip never gets wider; cells shrink instead"),
                # Issue 12: which engines' files to write beside the strip (core/export).
                io.Combo.Input("formats", options=list(FORMAT_CHOICES), default="texturepacker",
                               optional=True,
                               tooltip="Files to write: TexturePacker JSON always; Aseprite "
                                       "JSON (Phaser createFromAseprite), Godot 4 .tres, "
                                       "per-cell PNGs"),
                io.Combo.Input("image_format", options=["webp", "png"], default="webp",
                               optional=True,
                               tooltip="The strip's image: lossless WebP, or PNG for engines "
                                       "without WebP"),
            ],
            outputs=[io.Image.Output("sheet"), io.Mask.Output("alpha"),
                     io.String.Output("json", tooltip="The sheet's JSON")],
        )

    @classmethod
    def execute(cls, frames, character: str, action: str, sheet_frames: int,
                sheet_fps: float, clip_fps: float, cell_height: int,
                max_width: int, formats: str = "texturepacker",
                image_format: str = "webp") -> io.NodeOutput:
        import folder_paths

        character = safe_name(character, "character")
        arr = image_to_uint8(frames)[..., :3]
        res = pipeline.process_clip(Clip(arr, clip_fps), action,
                                    _recipe(action, sheet_frames, sheet_fps),
                                    character=character, cell_height=cell_height,
                                    max_width=max_width)
        subfolder = f"h3sprite/{character}"
        folder = Path(folder_paths.get_output_directory()) / subfolder
        n = 1
        while any(p.exists() for p in export.candidates(folder, f"{action}_{n:05d}")):
            n += 1  # ComfyUI's way: a new numbered file, never an overwrite
        written = export.write_sheet(res, folder, f"{action}_{n:05d}",
                                     export.parse_formats(FORMAT_CHOICES[formats]),
                                     export.parse_image_format(image_format))
        doc = texturepacker.document(res, written.image.name)
        saved = ui.SavedResult(written.image.name, subfolder, io.FolderType.output)
        text = f"{subfolder}/{written.image.name}: " + _grade_text(doc["meta"]["animation"])
        return io.NodeOutput(uint8_to_image(res.rgba[..., :3]), uint8_to_mask(res.rgba[..., 3]),
                             json.dumps(doc),
                             ui={"images": [saved], "text": [text]})


NODES = [SpriteMatte, SpriteLoopWindow, SpriteSheet]
