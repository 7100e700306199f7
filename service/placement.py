"""Weight-placement presets (shared/DOMAIN.md, "Weight placement") as ComfyUI flags.

Measured on H3 (fp8 transformer 19.5 GiB, 124 frames): per-step compute is the same in
every mode; what differs is weight traffic per job and peak VRAM.
- resident  (--highvram): weights stay on the card; fastest (105.0 s at 768p), peak 29.8 GiB.
- streaming (--lowvram):  weights stream over PCIe; +1% at 768p, +13% at 480p; peak 10.9 GiB.
- phased    (--disable-smart-memory): load/unload every job (137.6 s); frees the card
  between jobs for another model family.
- auto: resident when free VRAM holds the model with the measured headroom (peak/model =
  29.8/19.5 = 1.53), else streaming; no GPU -> --cpu.
"""

from __future__ import annotations

import shutil
import subprocess

PRESETS = {
    "resident": ["--highvram"],
    "streaming": ["--lowvram"],
    "phased": ["--disable-smart-memory"],
    "none": [],
}
RESIDENT_HEADROOM = 29.8 / 19.5
# ComfyUI's VRAM modes are mutually exclusive: when the user passes one, ours step aside.
VRAM_MODE_FLAGS = {"--cpu", "--gpu-only", "--highvram", "--normalvram", "--lowvram", "--novram"}


def gpu_free_gib(gpu: int | None = None) -> float | None:
    """Free VRAM of the given NVIDIA GPU (index as nvidia-smi counts; None: the first),
    via nvidia-smi; None when there is no such GPU."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    query = [smi, "--query-gpu=memory.free", "--format=csv,noheader,nounits"]
    if gpu is not None:
        query.append(f"--id={gpu}")
    try:
        out = subprocess.run(query, capture_output=True, text=True, timeout=10,
                             check=True).stdout.split()
        return float(out[0]) / 1024 if out else None
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def choose(placement: str, model_gb: float, free_gib: float | None) -> tuple[str, list[str]]:
    """(the preset that applies, its flags). Only "auto" looks at the GPU."""
    if placement != "auto":
        return placement, list(PRESETS[placement])
    if free_gib is None:
        return "cpu", ["--cpu"]
    if free_gib >= model_gb * RESIDENT_HEADROOM:
        return "resident", list(PRESETS["resident"])
    return "streaming", list(PRESETS["streaming"])


def flags_for(placement: str, model_gb: float, extra_args: list[str],
              gpu: int | None = None) -> tuple[str, list[str]]:
    """`gpu`: the card this server is given (one server per GPU), else the first."""
    if VRAM_MODE_FLAGS & set(extra_args) and placement in ("auto", "resident", "streaming"):
        return "from extra args", []
    free = gpu_free_gib(gpu) if placement == "auto" else None
    return choose(placement, model_gb, free)
