"""Green Screen Prep: a transparent portrait -> H3's first frame on key green."""

from __future__ import annotations

import json
import os

import numpy as np
from comfy_api.latest import io, ui

from .core import greenscreen
from .schema import PACK, PREFIX, schema
from .tensors import image_to_uint8, mask_to_uint8, uint8_to_image


def _portrait_rgba(image, mask, file: str) -> np.ndarray:
    if file:
        import folder_paths

        base = os.path.realpath(folder_paths.get_input_directory())
        path = os.path.realpath(os.path.join(base, file))
        if os.path.commonpath([base, path]) != base:
            raise ValueError(f"file {file!r} is outside ComfyUI's input folder")
        return greenscreen.load_portrait(path)
    if image is None:
        raise ValueError("Green Screen Prep needs a portrait: connect image + mask (from "
                         "Load Image) or give a file name from the input folder")
    rgb = image_to_uint8(image)[0]
    if rgb.shape[-1] == 4:
        return rgb
    if mask is None:
        raise ValueError("the portrait has no alpha: connect Load Image's MASK output too "
                         "(a portrait without a transparent background is refused, not "
                         "keyed by guesswork)")
    m = mask_to_uint8(mask)[0]
    if m.shape != rgb.shape[:2]:
        raise ValueError(f"the portrait has no alpha channel (mask {m.shape[1]}x{m.shape[0]} "
                         f"vs image {rgb.shape[1]}x{rgb.shape[0]}): export it as PNG/WebP "
                         "with a transparent background")
    return np.dstack([rgb[..., :3], 255 - m])  # Load Image's MASK is 1 - alpha


class GreenScreenPrep(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "GreenScreenPrep",
            display_name="Green Screen Prep",
            category=f"{PACK}/greenscreen",
            description="Fit a transparent portrait into the snapped canvas, feet on a "
                        "baseline, headroom for the action, on key green: H3's first frame. "
                        "Above 16:9 the reference is shrunk to a 480-px short edge.",
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
    def execute(cls, width: int, height: int, key_color: str, height_share: float,
                feet_margin: float, image=None, mask=None, file: str = "") -> io.NodeOutput:
        rgba = _portrait_rgba(image, mask, file)
        frame, place = greenscreen.prepare_first_frame(
            rgba, width, height, key=key_color, height_share=height_share,
            feet_margin=feet_margin)
        text = (f"{width}×{height}, character ×{place.scale:.2f}, feet at "
                f"({place.feet_x:.0f}, {place.feet_y:.0f})")
        if (place.reference_w, place.reference_h) != (width, height):
            text += f"; reference {place.reference_w}×{place.reference_h} (wider than 16:9)"
        return io.NodeOutput(uint8_to_image(frame), json.dumps(place.as_dict()), width, height,
                             ui=ui.PreviewText(text))


NODES = [GreenScreenPrep]
