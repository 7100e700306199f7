"""Clips built in code: a procedural character on a generated green backdrop, encoded with
libx264 yuv420p like a video model's output, then decoded back. Cached per session."""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from comfy_nodes.core import video
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from tests import synth

_DIR = Path(tempfile.mkdtemp(prefix="h3sprite-clips-"))


@dataclass(frozen=True)
class Fixture:
    path: Path
    clip: video.Clip
    truth: np.ndarray  # (N, H, W, 4) the character's true RGBA per frame, outline included
    action: str
    body: np.ndarray  # (N, H, W) true alpha of the character without its outline


@functools.cache
def make(name: str, action: str, palette: str = "hero", outline: bool = False,
         frames: int | None = None, size: tuple[int, int] = (448, 448), static: bool = False,
         **kw) -> Fixture:
    char = synth.Character(palette=synth.PALETTES[palette],
                           outline=(246, 246, 238) if outline else None)
    n = frames or DEFAULT_RECIPES[action].clip_frames
    rgb, truth = synth.clip(action, char, size=size, frames=n, **dict(kw))
    if static:  # one still picture, with fresh noise per frame
        rng = np.random.default_rng(7)
        rgb = np.clip(rgb[:1] + rng.normal(0, 3, rgb.shape), 0, 255).astype(np.uint8)
        truth = np.repeat(truth[:1], n, axis=0)
    body = truth[..., 3]
    if outline:
        plain = synth.Character(palette=synth.PALETTES[palette])
        body = synth.clip(action, plain, size=size, frames=n, **dict(kw))[1][..., 3]
    path = _DIR / f"{name}.mp4"
    video.encode(rgb, path)
    return Fixture(path, video.decode(path), truth, action, body)


def fixture(name: str) -> Fixture:
    """The named cases every core test draws from."""
    cases = {
        "walk": dict(action="walk"),
        "walk_green": dict(action="walk", palette="ranger", outline=True),
        "idle_teal": dict(action="idle", palette="zombie"),
        "idle_static": dict(action="idle", static=True),
        "run_red": dict(action="run", palette="knight"),
        "attack": dict(action="attack", period=0.8),
        "skill": dict(action="skill", palette="zombie", period=1.0),
        "hurt": dict(action="hurt", period=0.6),
        "walk_drift_zoom": dict(action="walk", drift=(0.5, -0.25), zoom=0.003),
        "idle_drift_zoom": dict(action="idle", drift=(0.5, -0.25), zoom=0.003),
        "walk_cropped": dict(action="walk", feet_y=1.04),
        "walk_turns": dict(action="walk", facing_flip_at=30),
        "walk_aperiodic": dict(action="walk", period=9.0),
        "odd_size": dict(action="walk", size=(320, 256)),
        "walk_blue": dict(action="walk", palette="ranger", key=(20, 60, 200)),
    }
    kw = cases[name]
    return make(name, **{k: (tuple(v) if isinstance(v, list) else v) for k, v in kw.items()})
