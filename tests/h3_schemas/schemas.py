"""Schemas of the real nodes that ComfyUI 0.3.75 lacks, as data (TEST-ONLY, never shipped).

MiniMaxH3ImageToVideo: ComfyUI core's native H3 node (comfy_extras, after 0.3.75), whose
inputs, widget names and types the official template (comfyui-workflow-templates-json
0.1.123, templates/video_minimax_h3_i2v.json) shows; ranges from the core source.
MiniMaxLowVRAMAttention / MiniMaxChunkFeedForward: ComfyUI-KJNodes nodes/minimax_nodes.py
(kijai/ComfyUI-KJNodes 3f20054, 2026-08-14).

Each input: (name, type, options); options as in the node's define_schema.
"""

from __future__ import annotations

MAX_RESOLUTION = 16384  # nodes.MAX_RESOLUTION

SCHEMAS: dict[str, dict] = {
    "MiniMaxH3ImageToVideo": {
        "display_name": "MiniMax H3 Image to Video",
        "category": "model/conditioning/minimax",
        "inputs": [
            ("clip", "CLIP", {}),
            ("vae", "VAE", {}),
            ("prompt", "STRING", {"multiline": True, "dynamic_prompts": True}),
            ("width", "INT", {"default": 1344, "min": 32, "max": MAX_RESOLUTION, "step": 32}),
            ("height", "INT", {"default": 768, "min": 32, "max": MAX_RESOLUTION, "step": 32}),
            ("length", "INT", {"default": 124, "min": 5, "max": 3600, "step": 17}),
            ("first_frame", "IMAGE", {"optional": True}),
            ("last_frame", "IMAGE", {"optional": True}),
        ],
        "outputs": [("CONDITIONING", "positive"), ("LATENT", "LATENT")],
    },
    "MiniMaxLowVRAMAttention": {
        "display_name": "MiniMax H3 Low VRAM Attention",
        "category": "KJNodes/experimental",
        "inputs": [
            ("model", "MODEL", {}),
            ("head_chunks", "INT", {"default": 4, "min": 1, "max": 56, "step": 1}),
        ],
        "outputs": [("MODEL", "model")],
    },
    "MiniMaxChunkFeedForward": {
        "display_name": "MiniMax H3 Chunk FeedForward",
        "category": "KJNodes/experimental",
        "inputs": [
            ("model", "MODEL", {}),
            ("chunks", "INT", {"default": 2, "min": 1, "max": 64, "step": 1}),
            ("seq_threshold", "INT", {"default": 4096, "min": 256, "max": 262144,
                                      "step": 256}),
        ],
        "outputs": [("MODEL", "model")],
    },
}
KJNODES = ("MiniMaxLowVRAMAttention", "MiniMaxChunkFeedForward")
