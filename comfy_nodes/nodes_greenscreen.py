"""Green Screen Prep: a transparent portrait -> H3's first frame on key green."""

from __future__ import annotations

import json
import os

import numpy as np
from comfy_api.latest import io, ui

from .core import greenscreen
from .core.util import sha256_file
from .schema import PACK, PREFIX, raise_for_user, schema
from .tensors import image_to_uint8, mask_to_uint8, uint8_to_image

NAME = "Green Screen Prep"


def _input_file(file: str) -> str:
    """The real path of `file` inside ComfyUI's input folder (refused outside it)."""
    import folder_paths

    base = os.path.realpath(folder_paths.get_input_directory())
    path = os.path.realpath(os.path.join(base, file))
    if os.path.commonpath([base, path]) != base:
        raise_for_user(NAME, f"use a file from ComfyUI's input folder ({file!r} is not one).")
    return path


def _portrait_rgba(image, mask, file: str) -> np.ndarray:
    if file:
        try:
            return greenscreen.load_portrait(_input_file(file))
        except greenscreen.PortraitError as e:
            text = str(e)
            if "does not exist" in text:
                raise_for_user(NAME, f"{file!r} is not in the input folder: upload it, or "
                                     "connect Load Image.")
            if "no alpha" in text or "no transparent" in text:
                raise_for_user(NAME, _NO_ALPHA)
            if "fully transparent" in text:
                raise_for_user(NAME, f"{file!r} is fully transparent: pick the portrait.")
            raise_for_user(NAME, f"{file!r} is not a readable image: save it as PNG or WebP.")
    if image is None:
        raise_for_user(NAME, "connect a portrait (Load Image's IMAGE and MASK) or type a "
                             "file name from the input folder.")
    return portrait_from_image(NAME, image, mask)


def portrait_from_image(node: str, image, mask, mask_input: str = "mask") -> np.ndarray:
    """The RGBA portrait from Load Image's IMAGE and MASK (its MASK is 1 - alpha), or from
    an RGBA IMAGE; `node` and its `mask_input` are named in the one-line error."""
    if len(image) > 1:  # Load Image reads every frame of an animated PNG, GIF or WebP
        raise_for_user(node, f"the portrait is {len(image)} images (an animation, or a "
                             "batch): give one still image, e.g. the pose to start from "
                             "saved as PNG.")
    rgb = image_to_uint8(image)[0]
    if rgb.shape[-1] == 4:
        rgba = rgb
    else:
        if mask is None:
            raise_for_user(node, f"connect Load Image's MASK to {mask_input} too: it "
                                 "carries the portrait's transparent background.")
        m = mask_to_uint8(mask)[0]
        if m.shape != rgb.shape[:2]:  # Load Image's stand-in mask: the file has no alpha
            raise_for_user(node, _NO_ALPHA)
        rgba = np.dstack([rgb[..., :3], 255 - m])  # Load Image's MASK is 1 - alpha
    try:
        greenscreen.check_alpha(rgba)
    except greenscreen.PortraitError as e:
        raise_for_user(node, "the portrait is fully transparent: pick another image."
                       if "fully transparent" in str(e) else _NO_ALPHA)
    return rgba


# Load Image keeps the alpha of RGBA, LA and palette images only: a greyscale PNG's
# transparent colour (tRNS) reaches this node as an opaque MASK, whatever the file shows.
_NO_ALPHA = ("the portrait needs a transparent background: save it as PNG or WebP with the "
             "background removed (as RGBA: Load Image drops a greyscale PNG's transparency).")


def _fingerprint(file: str) -> str:
    """A file input's content hash, so a portrait replaced under the same name reruns."""
    if not file:
        return ""
    try:
        return sha256_file(_input_file(file))
    except (OSError, ValueError):
        return f"missing:{file}"  # execute says what is wrong


class GreenScreenPrep(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "GreenScreenPrep",
            display_name=NAME,
            category=f"{PACK}/greenscreen",
            description="Green screen / chroma key backdrop for a transparent portrait: fit "
                        "it into the snapped canvas, feet on a baseline, headroom for the "
                        "action, on key green: H3's first frame (the reference image). Above "
                        "16:9 the reference is shrunk to a 480-px short edge.",
            search_aliases=["green screen", "chroma key", "first frame", "reference"],
            inputs=[
                io.Image.Input("image", optional=True, tooltip="Portrait from Load Image"),
                io.Mask.Input("mask", optional=True,
                              tooltip="Load Image's MASK (1 = transparent); required "
                                      "with image unless the image has 4 channels"),
                io.String.Input("file", default="", optional=True,
                                tooltip="Or a portrait file in ComfyUI's input folder"),
                io.Int.Input("width", default=448, min=32, max=4096, step=32,
                             tooltip="Canvas width (from Snap Size)"),
                io.Int.Input("height", default=448, min=32, max=4096, step=32,
                             tooltip="Canvas height (from Snap Size)"),
                io.String.Input("key_color", default=greenscreen.DEFAULT_KEY,
                                tooltip="Backdrop colour #RRGGBB"),
                io.Float.Input("height_share", default=0.6, min=0.05, max=1.0, step=0.01,
                               tooltip="Character height / canvas height; the rest is "
                                       "headroom for jumps, raised arms and weapons"),
                io.Float.Input("feet_margin", default=0.08, min=0.0, max=0.5, step=0.01,
                               tooltip="Gap under the feet, as a share of the height"),
            ],
            outputs=[
                io.Image.Output("first_frame", tooltip="The reference for H3"),
                io.String.Output("placement", tooltip="JSON: scale, offset, feet, canvas"),
                io.Int.Output("canvas_width", display_name="width",
                              tooltip="The video's width (unchanged by the reference rule)"),
                io.Int.Output("canvas_height", display_name="height"),
            ],
        )

    @classmethod
    def fingerprint_inputs(cls, file: str = "", **_) -> str:
        return _fingerprint(file)

    @classmethod
    def execute(cls, width: int, height: int, key_color: str, height_share: float,
                feet_margin: float, image=None, mask=None, file: str = "") -> io.NodeOutput:
        rgba = _portrait_rgba(image, mask, file)
        try:
            frame, place = greenscreen.prepare_first_frame(
                rgba, width, height, key=key_color, height_share=height_share,
                feet_margin=feet_margin)
        except ValueError as e:
            if "key colour" in str(e):
                raise_for_user(NAME, f"key_color {key_color!r} is not a colour: write it as "
                                     "#RRGGBB (e.g. #00B140).")
            raise_for_user(NAME, "width and height must be multiples of 32: connect Snap Size.")
        text = (f"{width}×{height}, character ×{place.scale:.2f}, feet at "
                f"({place.feet_x:.0f}, {place.feet_y:.0f})")
        if (place.reference_w, place.reference_h) != (width, height):
            text += f"; reference {place.reference_w}×{place.reference_h} (wider than 16:9)"
        image = uint8_to_image(frame)
        # The first frame it made, as Preview Image shows it, and the placement as text.
        shown = ui.PreviewImage(image).as_dict()
        return io.NodeOutput(image, json.dumps(place.as_dict()), width, height,
                             ui={**shown, "text": [text]})


NODES = [GreenScreenPrep]
