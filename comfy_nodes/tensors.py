"""The only torch bridge: ComfyUI IMAGE (B,H,W,C float 0..1) / MASK (B,H,W) <-> uint8 numpy.

ComfyUI's LoadImage returns MASK = 1 - alpha (1 where transparent); our nodes' MASK
outputs are alpha (1 = character), as matting nodes use it. Inputs say which they expect.
"""

from __future__ import annotations

import numpy as np


def image_to_uint8(image) -> np.ndarray:
    """(B,H,W,C) float tensor -> (B,H,W,C) uint8 array."""
    arr = image.detach().cpu().float().clamp(0, 1).numpy()
    return (arr * 255 + 0.5).astype(np.uint8)


def uint8_to_image(arr: np.ndarray):
    import torch

    a = arr if arr.ndim == 4 else arr[None]
    return torch.from_numpy(a.astype(np.float32) / 255)


def mask_to_uint8(mask) -> np.ndarray:
    m = mask.detach().cpu().float().clamp(0, 1).numpy()
    if m.ndim == 2:
        m = m[None]
    return (m * 255 + 0.5).astype(np.uint8)


def uint8_to_mask(arr: np.ndarray):
    import torch

    a = arr if arr.ndim == 3 else arr[None]
    return torch.from_numpy(a.astype(np.float32) / 255)
