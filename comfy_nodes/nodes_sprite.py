"""Sprite Matte, Sprite Loop Window and Sprite Sheet: the clip -> sheet chain as nodes."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import numpy as np
from comfy_api.latest import io, ui

from .core import backdrop, drawn, export, matte, pipeline, silhouette
from .core import sheet as sheet_mod
from .core.export import texturepacker
from .core.names import safe_name
from .core.recipes import DEFAULT_RECIPES, MIN_FPS, Recipe
from .core.reference import Reference, portrait_reference
from .core.sheet import grade_label
from .core.video import Clip
from .nodes_greenscreen import portrait_from_image
from .schema import PACK, PREFIX, declared_problem, raise_for_user, schema, speaks_as
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


def _portrait_inputs(does: str = "its colours make a cleaner despill"):
    # Optional: the despill un-mixes against the portrait's own, unspilled colours (a fast
    # arm's blur, light wrap on a green shirt, legs a pixel apart), as the batch does.
    return [
        io.Image.Input("portrait", optional=True,
                       tooltip=f"The character's transparent portrait (Load Image's IMAGE): "
                               f"{does}"),
        io.Mask.Input("portrait_mask", optional=True,
                      tooltip="Load Image's MASK of the same portrait (its transparency)"),
    ]


def _reference(node: str, portrait, portrait_mask) -> Reference | None:
    """What the portrait tells the despill, or None without a portrait."""
    if portrait is None:
        if portrait_mask is not None:
            raise_for_user(node, "portrait_mask is connected but portrait is not: connect "
                                 "Load Image's IMAGE to portrait too.")
        return None
    return portrait_reference(portrait_from_image(node, portrait, portrait_mask,
                                                        "portrait_mask"))


def _recipe(node: str, action: str, sheet_frames: int, sheet_fps: float) -> Recipe:
    base = DEFAULT_RECIPES[action]
    if 0 < sheet_fps < MIN_FPS:  # the widget steps by 0.5; a recipe file's bound holds here
        raise_for_user(node, f"sheet_fps {sheet_fps:g} is under one frame a second: give "
                             f"{MIN_FPS:g} or more, or 0 for the {action} recipe's {base.fps:g}.")
    return dataclasses.replace(base, frames=sheet_frames or base.frames,
                               fps=sheet_fps or base.fps)


def _grade_text(anim: dict) -> str:
    """'loop CLEAN (seam 0.03) · QC: no flags': what Loop Window and Sprite Sheet show."""
    grade = (f"loop {anim['loop_grade']} (seam {float(anim['loop_score']):.2f})"
             if anim.get("loop_grade") else grade_label(anim["loop"], None))
    return f"{grade} · QC: " + (" ".join(anim["qc"]) if anim["qc"] else "no flags")


class SpriteMatte(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SpriteMatte",
            display_name="Sprite Matte (chroma key)",
            category=f"{PACK}/sprite",
            description="Key the green backdrop of a clip (learned from the clip itself), "
                        "despill the edges and remove light outlines; green and teal parts "
                        "of the character are kept.",
            search_aliases=["chroma key", "keying", "green screen", "despill", "matte"],
            inputs=[io.Image.Input("frames", tooltip="The clip's frames (IMAGE batch)"),
                    io.Boolean.Input("defringe", default=True,
                                     tooltip="Remove light outlines and faint halos"),
                    *_portrait_inputs()],
            outputs=[io.Image.Output("rgb", tooltip="Despilled colour"),
                     io.Mask.Output("alpha", tooltip="1 = character (not inverted)")],
        )

    @classmethod
    @speaks_as("Sprite Matte")
    def execute(cls, frames, defringe: bool, portrait=None,
                portrait_mask=None) -> io.NodeOutput:
        reference = _reference("Sprite Matte", portrait, portrait_mask)
        arr = image_to_uint8(frames)[..., :3]
        key = backdrop.estimate_key(arr)
        h, w = arr.shape[1:3]
        # Where the silhouette moved between neighbouring frames (a part may be blurred
        # there), from the key's coarse masks, as Sprite Sheet and the driver do.
        small = backdrop.shrink(arr, backdrop.model_factor(h, w))
        masks = pipeline.coarse_masks(small, key, Reference.colours(reference))
        full = key.sized(h, w)
        if reference is not None and len(arr):  # the colours the model drew it in, too
            reference = drawn.drawn_reference(reference, arr, small, masks, full)
        rgba = np.stack([matte.refine(f, full.at(i), defringe=defringe, reference=reference,
                                      moving=silhouette.moving_at(masks, i, (h, w)))
                         for i, f in enumerate(arr)])
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
            # An output: it runs and shows its grade with nothing connected downstream.
            is_output_node=True,
            inputs=[io.Image.Input("frames", tooltip="The clip's frames"), *_recipe_inputs(),
                    *_portrait_inputs("with it, the frames Sprite Sheet picks with it (a "
                                      "near-key skin kept, a contact shadow dropped)")],
            outputs=[io.Image.Output("window", tooltip="The chosen clip frames, in order"),
                     io.String.Output("indices", tooltip="JSON list of clip frame indices"),
                     io.Float.Output("loop_score", tooltip="-1 for one-shot actions"),
                     io.String.Output("grade", tooltip="CLEAN, OK or WEAK; ONE-SHOT for "
                                      "one-shot actions; NOT GRADED for a loop whose frames "
                                      "lack the character or do not move (see its QC flags)")],
        )

    @classmethod
    def validate_inputs(cls, action: str | None = None) -> bool | str:
        # This ComfyUI checks no V3 combo's value itself (its check wants a list type)
        return declared_problem(cls, "Sprite Loop Window", action=action) or True

    @classmethod
    @speaks_as("Sprite Loop Window")
    def execute(cls, frames, action: str, sheet_frames: int, sheet_fps: float,
                clip_fps: float, portrait=None, portrait_mask=None) -> io.NodeOutput:
        # With the portrait, the frames Sprite Sheet picks with it (its masks take the
        # portrait's colours: a near-key skin kept, a contact shadow dropped).
        reference = _reference("Sprite Loop Window", portrait, portrait_mask)
        arr = image_to_uint8(frames)[..., :3]
        recipe = _recipe("Sprite Loop Window", action, sheet_frames, sheet_fps)
        an = pipeline.analyse(Clip(arr, clip_fps), recipe, reference)
        win = an.window
        anim = {"loop": recipe.loop, "loop_grade": win.loop_grade,
                "loop_score": win.loop_score, "qc": an.qc}
        return io.NodeOutput(uint8_to_image(arr[win.indices]), json.dumps(win.indices),
                             -1.0 if win.loop_score is None else float(win.loop_score),
                             grade_label(recipe.loop, win.loop_grade).upper(),
                             ui=ui.PreviewText(_grade_text(anim)))


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
                io.Int.Input("cell_height", default=300, min=sheet_mod.MIN_CELL, max=2048,
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
                *_portrait_inputs(),
            ],
            outputs=[io.Image.Output("sheet"), io.Mask.Output("alpha"),
                     io.String.Output("json", tooltip="The sheet's JSON")],
        )

    @classmethod
    def validate_inputs(cls, action: str | None = None, sheet_frames: int | None = None,
                        max_width: int | None = None, formats: str | None = None,
                        image_format: str | None = None) -> bool | str:
        # Only the inputs named here skip ComfyUI's own checks (no **kwargs: with it,
        # sheet_fps -1 and cell_height 0 went through), and this ComfyUI checks no V3
        # combo's value itself. A linked input is not known yet at validation (None):
        # execute asks again.
        if problem := declared_problem(cls, "Sprite Sheet", action=action,
                                       sheet_frames=sheet_frames, max_width=max_width,
                                       formats=formats, image_format=image_format):
            return problem
        if action in DEFAULT_RECIPES and sheet_frames is not None and max_width is not None:
            frames = sheet_frames or DEFAULT_RECIPES[action].frames
            if problem := sheet_mod.max_width_problem(max_width, frames, action, "max_width"):
                return f"Sprite Sheet: {problem}."
        return True

    @classmethod
    @speaks_as("Sprite Sheet")
    def execute(cls, frames, character: str, action: str, sheet_frames: int,
                sheet_fps: float, clip_fps: float, cell_height: int,
                max_width: int, formats: str = "texturepacker",
                image_format: str = "webp", portrait=None,
                portrait_mask=None) -> io.NodeOutput:
        import folder_paths

        try:
            character = safe_name(character, "character")
        except ValueError:
            raise_for_user("Sprite Sheet", f"character {character!r} must be a plain name "
                                           "(letters, digits, - or _), e.g. hero.")
        recipe = _recipe("Sprite Sheet", action, sheet_frames, sheet_fps)
        # Asked in validate_inputs too, where a linked sheet_frames is not known yet.
        if problem := sheet_mod.max_width_problem(max_width, recipe.frames, action,
                                                  "max_width"):
            raise_for_user("Sprite Sheet", f"{problem}.")
        reference = _reference("Sprite Sheet", portrait, portrait_mask)
        arr = image_to_uint8(frames)[..., :3]
        res = pipeline.process_clip(Clip(arr, clip_fps), action, recipe,
                                    character=character, cell_height=cell_height,
                                    max_width=max_width, reference=reference)
        if problem := sheet_mod.shrunk_cells_problem(res, "max_width"):
            raise_for_user("Sprite Sheet", f"{problem}.")
        res = dataclasses.replace(res, provenance=_provenance(cls))
        folder, stem, subfolder = _numbered(f"h3sprite/{character}/{action}",
                                            folder_paths.get_output_directory(), res.rgba)
        written = export.write_sheet(res, folder, stem,
                                     export.parse_formats(FORMAT_CHOICES[formats]),
                                     export.parse_image_format(image_format))
        doc = texturepacker.document(res, written.image.name)
        preview = _animated_preview(res.rgba, res.cell_size[0], float(res.fps))
        text = (f"{_grade_text(doc['meta']['animation'])}\n{res.frame_count} frames at "
                f"{res.fps:g} fps → {subfolder}/{written.image.name} + .json")
        return io.NodeOutput(uint8_to_image(res.rgba[..., :3]), uint8_to_mask(res.rgba[..., 3]),
                             json.dumps(doc),
                             ui={"images": [preview], "animated": (True,), "text": [text]})


def _provenance(cls) -> dict:
    """The prompt and the UI workflow that made the sheet (ComfyUI's hidden inputs), as
    Save Image puts them in a PNG: the sheet can be traced and the graph reloaded."""
    hidden = getattr(cls, "hidden", None)
    prompt = getattr(hidden, "prompt", None)
    extra = getattr(hidden, "extra_pnginfo", None) or {}
    return {"prompt": prompt, "workflow": extra.get("workflow")}


def _numbered(prefix: str, output_dir: str, rgba: np.ndarray) -> tuple[Path, str, str]:
    """ComfyUI's numbering (name_00001_, as Save Image): never an overwrite."""
    import folder_paths

    folder, name, n, subfolder, _ = folder_paths.get_save_image_path(
        prefix, output_dir, rgba.shape[1], rgba.shape[0])
    folder_p = Path(folder)
    folder_p.mkdir(parents=True, exist_ok=True)
    while any(p.exists() for p in export.candidates(folder_p, f"{name}_{n:05}_")):
        n += 1  # a file written since the folder was listed
    return folder_p, f"{name}_{n:05}_", subfolder


def _animated_preview(rgba: np.ndarray, cell_w: int, fps: float) -> ui.SavedResult:
    """The sheet's cells as an animated WebP in ComfyUI's temp folder, playing at the sheet's
    fps: what the node shows (the frontend plays animated images as they are)."""
    import folder_paths
    from PIL import Image

    temp = folder_paths.get_temp_directory()
    folder, name, n, subfolder, _ = folder_paths.get_save_image_path(
        "h3sprite_sheet_preview", temp, cell_w, rgba.shape[0])
    os.makedirs(folder, exist_ok=True)
    cells = [Image.fromarray(rgba[:, x:x + cell_w], "RGBA")
             for x in range(0, rgba.shape[1] - cell_w + 1, cell_w)]
    file = f"{name}_{n:05}_.webp"
    cells[0].save(os.path.join(folder, file), save_all=True, append_images=cells[1:],
                  duration=max(1, round(1000 / fps)), loop=0, quality=85, method=0)
    return ui.SavedResult(file, subfolder, io.FolderType.temp)


NODES = [SpriteMatte, SpriteLoopWindow, SpriteSheet]
