"""One job = one character x one action: its inputs, fingerprints, paths, and verification."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from comfy_nodes.core.export import (
    DEFAULT_FORMATS,
    Format,
    ImageFormat,
    file_of,
    image_name,
    parse_formats,
)
from comfy_nodes.core.imagefile import open_image
from comfy_nodes.core.recipes import Recipe
from comfy_nodes.core.snap import snap_length
from comfy_nodes.core.util import sha256_file
from comfy_nodes.core.video import ClipError, decode
from driver.joblist_load import Loaded

# Bump when post-processing changes in a way that should re-run existing sheets.
POST_VERSION = 2  # 2: meta.scale is "1" (PixiJS read the old value as a resolution)


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
    loop_closure: bool = False
    gen_fingerprint: str = ""
    fingerprint: str = ""
    parts: dict[str, str] = field(default_factory=dict)  # input -> value or digest (PARTS)
    formats: tuple[Format, ...] = DEFAULT_FORMATS  # issue 12: the files written per sheet
    image_format: ImageFormat = ImageFormat.WEBP

    @property
    def key(self) -> str:
        return f"{self.cid}/{self.action}"

    @property
    def clip_path(self) -> Path:
        return self.work_dir / "clip.mp4"

    @property
    def webp(self) -> Path:
        """The strip image (WebP, or PNG when the joblist says image_format: png)."""
        return self.out_dir / image_name(self.action, self.image_format)

    @property
    def json(self) -> Path:
        return self.out_dir / f"{self.action}.json"

    @property
    def frames(self) -> int:
        return snap_length(self.recipe.seconds)


def build_jobs(job: Loaded, workflow_sha: str, models: list[str],
               seeds: dict[str, int] | None = None) -> list[Job]:
    """seeds: per job key, a seed drawn by --reroll (driver/reroll.py) over the joblist's."""
    portraits: dict[str, str] = {}
    formats = parse_formats(job.spec.formats)
    image_format = ImageFormat(job.spec.image_format)
    out = []
    for cid in job.spec.characters:
        pth = job.portrait(cid)
        if cid not in portraits:
            portraits[cid] = sha256_file(pth)
        for action in job.actions_of(cid):
            recipe = job.recipe(cid, action)
            seed = (seeds or {}).get(f"{cid}/{action}", job.seed(cid, action))
            j = Job(cid, action, recipe, pth, job.prompt(cid, action), seed,
                    job.size, job.work_dir(cid, action), job.sheet_dir(cid),
                    loop_closure=job.loop_closure(cid, action),
                    formats=formats, image_format=image_format)
            gen = {
                "portrait": portraits[cid], "prompt": j.prompt, "workflow": workflow_sha,
                "models": sorted(models), "seed": j.seed, "frames": j.frames,
                "size": list(j.size), "action": action, "overrides": job.spec.overrides,
                # Only when on, so that fingerprints made before the option stay valid.
                **({"loop_closure": True} if j.loop_closure else {}),
            }
            j.gen_fingerprint = _digest(gen)
            post = {"recipe": asdict(recipe), "post": POST_VERSION,
                    "cell_height": job.spec.cell_height, "max_width": job.spec.max_width}
            if formats != DEFAULT_FORMATS or image_format is not ImageFormat.WEBP:
                # Only when not the default, so sheets written before formats existed stay
                # current.
                post["files"] = [[f.value for f in formats], image_format.value]
            j.fingerprint = _digest({"gen": j.gen_fingerprint, **post})
            j.parts = fingerprint_parts(gen, post)
            out.append(j)
    return out


# The inputs a plan names when a job's fingerprint changed, and what each is made of.
PARTS = {
    "portrait": ("portrait",), "wording": ("prompt",), "workflow": ("workflow", "overrides"),
    "models": ("models",), "seed": ("seed",), "canvas": ("size",), "length": ("frames",),
    "loop_closure": ("loop_closure",), "recipe": ("recipe",),
    "post-processing": ("post", "cell_height", "max_width"), "formats": ("files",),
}
# Parts stored as their value, not a digest, so a plan can say "canvas 448x448 -> 608x352".
READABLE = ("seed", "canvas", "length", "loop_closure")


def fingerprint_parts(gen: dict, post: dict) -> dict[str, str]:
    """Per input of PARTS: its value when short and readable (READABLE), else a digest."""
    both = {**gen, **post}
    parts = {name: _digest([both.get(k) for k in keys])[:16] for name, keys in PARTS.items()}
    parts.update(seed=str(both["seed"]), canvas="x".join(str(n) for n in both["size"]),
                 length=f"{both['frames']} frames",
                 loop_closure=str(bool(both.get("loop_closure", False))))
    return parts


def clip_ok(path: Path, frames: int) -> bool:
    """The clip exists, decodes, and has the snapped frame count."""
    if not path.is_file():
        return False
    try:
        return decode(path, keep=1).frame_count == frames  # counting needs no full frames
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
    others = all((j.out_dir / file_of(j.action, f)).exists() for f in j.formats)
    return (others and m.get("image") == j.webp.name
            and size == (m.get("size", {}).get("w"), m.get("size", {}).get("h")))
