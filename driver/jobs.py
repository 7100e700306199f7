"""One job = one character x one action: its inputs, fingerprints, paths, and verification."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from comfy_nodes.core.imagefile import open_image
from comfy_nodes.core.recipes import Recipe
from comfy_nodes.core.snap import snap_length
from comfy_nodes.core.video import ClipError, decode
from driver.joblist import Loaded

# Bump when post-processing changes in a way that should re-run existing sheets.
POST_VERSION = 1


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _digest(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


@dataclass
class Job:
    cid: str
    action: str
    recipe: Recipe
    portrait: Path
    prompt: str
    seed: int
    size: tuple[int, int]
    work_dir: Path
    out_dir: Path
    gen_fingerprint: str = ""
    fingerprint: str = ""

    @property
    def key(self) -> str:
        return f"{self.cid}/{self.action}"

    @property
    def clip_path(self) -> Path:
        return self.work_dir / "clip.mp4"

    @property
    def webp(self) -> Path:
        return self.out_dir / f"{self.action}.webp"

    @property
    def json(self) -> Path:
        return self.out_dir / f"{self.action}.json"

    @property
    def frames(self) -> int:
        return snap_length(self.recipe.seconds)


def build_jobs(job: Loaded, workflow_sha: str, models: list[str]) -> list[Job]:
    portraits: dict[str, str] = {}
    out = []
    for cid in job.spec.characters:
        pth = job.portrait(cid)
        if cid not in portraits:
            portraits[cid] = sha256_file(pth)
        for action in job.actions_of(cid):
            recipe = job.recipe(cid, action)
            j = Job(cid, action, recipe, pth, job.prompt(cid, action), job.seed(cid, action),
                    job.size, job.work / f"{cid}_{action}", job.out / cid)
            gen = {
                "portrait": portraits[cid], "prompt": j.prompt, "workflow": workflow_sha,
                "models": sorted(models), "seed": j.seed, "frames": j.frames,
                "size": list(j.size), "action": action, "overrides": job.spec.overrides,
            }
            j.gen_fingerprint = _digest(gen)
            j.fingerprint = _digest({
                "gen": j.gen_fingerprint, "recipe": recipe.model_dump(), "post": POST_VERSION,
                "cell_height": job.spec.cell_height, "max_width": job.spec.max_width})
            out.append(j)
    return out


def clip_ok(path: Path, frames: int) -> bool:
    """The clip exists, decodes, and has the snapped frame count."""
    if not path.is_file():
        return False
    try:
        return len(decode(path).frames) == frames
    except ClipError:
        return False


def outputs_ok(j: Job) -> bool:
    """The sheet and its JSON exist, parse, and agree with each other."""
    try:
        meta = json.loads(j.json.read_text())
        with open_image(j.webp, "sheet") as im:
            im.verify()
            size = im.size
    except (OSError, ValueError, SyntaxError):
        return False
    m = meta.get("meta", {})
    return (m.get("image") == j.webp.name and size == (m.get("size", {}).get("w"),
                                                       m.get("size", {}).get("h")))
