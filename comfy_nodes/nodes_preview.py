"""Preview Motion (no model): a CPU stand-in for H3, named as a preview everywhere."""

from __future__ import annotations

import time

from comfy_api.latest import io

from .core import preview, snap
from .schema import PACK, PREFIX, declared_problem, schema, speaks_as
from .tensors import image_to_uint8, uint8_to_image


class PreviewMotion(io.ComfyNode):
    @classmethod
    def define_schema(cls):
        return schema(
            node_id=PREFIX + "PreviewMotion",
            display_name="Preview Motion (no model, not H3)",
            category=f"{PACK}/preview",
            description="A CPU PREVIEW that stands in for the MiniMax H3 video model: it "
                        "moves the character of the first frame per action (breathing, "
                        "stride, lunge, rise, knockback) after a short still opening. It is "
                        "not H3 and makes no new drawing; use it for dry runs and tests.",
            search_aliases=["preview", "dry run", "fake video", "stand-in"],
            not_idempotent=True,
            inputs=[
                io.Image.Input("first_frame", tooltip="From Green Screen Prep"),
                io.Combo.Input("action", options=list(preview.ACTIONS), default="walk",
                               tooltip="Which motion to preview"),
                io.Int.Input("frames", default=56, min=5, max=1024,
                             tooltip="17k+5 frames (from Snap Length)"),
                io.Int.Input("seed", default=0, min=0, max=2**31 - 1,
                             tooltip="Varies the motion's phase a little"),
                io.String.Input("prompt", default="", multiline=True, optional=True,
                                tooltip="Recorded for parity with H3; not interpreted"),
                io.Image.Input("last_frame", optional=True,
                               tooltip="Like H3's last_frame: the clip ends on it (loop "
                                       "closure: give the first frame again)"),
                io.Float.Input("simulate_seconds", default=0.0, min=0.0, max=600.0,
                               step=0.1, optional=True,
                               tooltip="Take at least this long, like a real generation "
                                       "(to measure batch pipelining on a CPU)"),
            ],
            outputs=[io.Image.Output("clip", display_name="frames",
                                     tooltip="The previewed clip")],
        )

    @classmethod
    def validate_inputs(cls, frames: int | None = None, action: str | None = None
                        ) -> bool | str:
        # Only the inputs named here skip ComfyUI's own range checks (no **kwargs: with
        # it, none were checked), and this ComfyUI checks no V3 combo's value itself. A
        # linked input (from Snap Length) is None here.
        if problem := declared_problem(cls, "Preview Motion", frames=frames, action=action):
            return problem
        if frames is not None and not snap.is_valid_length(frames):
            return (f"Preview Motion: {frames} frames is not 17k+5 (22, 39, 56, 73…): "
                    "connect Snap Length.")
        return True

    @classmethod
    @speaks_as("Preview Motion")
    def execute(cls, first_frame, action: str, frames: int, seed: int, prompt: str = "",
                simulate_seconds: float = 0.0, last_frame=None) -> io.NodeOutput:
        start = time.monotonic()
        first = image_to_uint8(first_frame)[0]
        last = image_to_uint8(last_frame)[0] if last_frame is not None else None
        clip = preview.animate(first, action, frames, seed=seed, last=last)
        _wait_interruptibly(start + simulate_seconds)
        return io.NodeOutput(uint8_to_image(clip))


def _wait_interruptibly(until: float) -> None:
    """Sleep until `until` (monotonic), honouring ComfyUI's Cancel / POST /interrupt the
    way a sampler does between steps. Silent otherwise: like a long decode, it sends no
    progress events (which is what a hang watchdog must cope with)."""
    if until <= time.monotonic():
        return
    import comfy.model_management as mm

    while (left := until - time.monotonic()) > 0:
        mm.throw_exception_if_processing_interrupted()
        time.sleep(min(0.1, left))


NODES = [PreviewMotion]
