"""Snap Length and Snap Size: H3's hard rules as nodes, so they cannot be got wrong."""

from __future__ import annotations

from comfy_api.latest import io, ui

from .core import snap
from .schema import PACK, PREFIX, declared_problem, schema


class SnapLength(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SnapLength",
            display_name="Snap Length (17k+5)",
            category=f"{PACK}/snap",
            description="Seconds -> the frame count H3 will really generate (17k+5, rounded "
                        "upward only) and the seconds that means.",
            search_aliases=["frames", "duration", "17k+5", "h3 length"],
            inputs=[io.Float.Input("seconds", default=2.0, min=0.05, max=20.0, step=0.05,
                                   tooltip="Wanted clip length; 2 s for loops (56 frames)")],
            outputs=[io.Int.Output("frames", tooltip="Snapped frame count (17k+5)"),
                     io.Float.Output("real_seconds", tooltip="frames / 24")],
        )

    @classmethod
    def execute(cls, seconds: float) -> io.NodeOutput:
        n = snap.snap_length(seconds)
        text = f"{seconds:g} s → {n} frames ({n / snap.FPS:.2f} s)"
        return io.NodeOutput(n, n / snap.FPS, ui=ui.PreviewText(text))


class SnapSize(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "SnapSize",
            display_name="Snap Size (×32)",
            category=f"{PACK}/snap",
            description="Megapixels and aspect -> width and height as ComfyUI's Resolution "
                        "Selector gives them at multiple 32 (a megapixel is 1024x1024; 0.98 "
                        "MP 16:9 is the official 768p, 1344x768; 1:1 at 0.2 MP is 448x448), "
                        "short edge capped at 768.",
            search_aliases=["resolution", "canvas", "multiple of 32", "h3 size"],
            inputs=[
                io.Float.Input("megapixels", default=0.2, min=0.01, max=4.0, step=0.01,
                               tooltip="Pixel budget; 0.2 MP suits sprites"),
                io.Combo.Input("aspect", options=[*snap.ASPECTS, "custom"], default="1:1",
                               tooltip="Canvas aspect; the reference must share it"),
                io.Int.Input("custom_width", default=448, min=32, max=4096, step=32,
                             tooltip="Used when aspect is custom (snapped to 32)"),
                io.Int.Input("custom_height", default=448, min=32, max=4096, step=32,
                             tooltip="Used when aspect is custom (snapped to 32)"),
            ],
            outputs=[io.Int.Output("width"), io.Int.Output("height")],
        )

    @classmethod
    def validate_inputs(cls, aspect: str | None = None) -> bool | str:
        # This ComfyUI checks no V3 combo's value itself (its check wants a list type)
        return declared_problem(cls, "Snap Size", aspect=aspect) or True

    @classmethod
    def execute(cls, megapixels: float, aspect: str, custom_width: int,
                custom_height: int) -> io.NodeOutput:
        if aspect == "custom":
            w, h = snap.snap_custom(custom_width, custom_height)
            text = f"custom {custom_width}×{custom_height} → {w}×{h}"
        else:
            w, h = snap.snap_size(megapixels, aspect)
            text = f"{megapixels:g} MP {aspect} → {w}×{h}"
        return io.NodeOutput(w, h, ui=ui.PreviewText(text))


NODES = [SnapLength, SnapSize]
