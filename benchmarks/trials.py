"""Trials on clips made apart from the fixtures: each case folder through the whole chain
with its portrait, its cells against its truth, as `benchmarks.quality` judges fixtures.

    python -m benchmarks.trials CASE_DIR [CASE_DIR ...]

A case folder holds `clip.mp4`, `portrait.png` (the unspilled RGBA rest pose),
`truth.npz` (`rgba`: the character's true straight RGBA for every video frame, uint8
(N, H, W, 4)) and `case.json` (`action`: idle, walk, run, attack, skill or hurt). The
generators of trials 12-14, written by engineers who read neither the fixtures nor
docs/quality.md, are in trials/ (see its README); their numbers are in docs/quality.md.
Prints per case IoU, holes, edge excess vs the truth, interior error, flags and the
verdict on the thresholds of tests/scores.py; exits 1 when any case fails them, 2 (one
line, before any case runs where it can) on a folder that is no readable case.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from comfy_nodes.core.greenscreen import PortraitError, load_portrait
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from comfy_nodes.core.video import ClipError
from tests import scores

FILES = ("clip.mp4", "portrait.png", "truth.npz", "case.json")


class CaseError(ValueError):
    """A case folder that cannot be scored; the message names the file and the fix."""


@dataclass(frozen=True)
class Case:
    """A trial's clip and truth, read as tests.scores.evaluate reads a fixture."""

    path: Path
    action: str
    portrait: np.ndarray
    frames: np.ndarray  # (N, H, W, 4) the true RGBA

    @classmethod
    def read(cls, folder: Path) -> Case:
        missing = [f for f in FILES if not (folder / f).is_file()]
        if missing:
            raise CaseError(f"{folder} is not a case folder: it lacks {', '.join(missing)}")
        try:
            action = json.loads((folder / "case.json").read_text()).get("action")
        except (ValueError, AttributeError, OSError) as e:
            raise CaseError(f"{folder / 'case.json'} is not a JSON object ({e})") from None
        if action not in DEFAULT_RECIPES:
            raise CaseError(f"{folder / 'case.json'}: \"action\" is {action!r}; give one of "
                            f"{', '.join(DEFAULT_RECIPES)}")
        try:
            portrait = load_portrait(folder / "portrait.png")
        except PortraitError as e:
            raise CaseError(str(e)) from None
        try:
            with np.load(folder / "truth.npz") as truth:
                frames = truth["rgba"]
        except (OSError, ValueError, KeyError) as e:
            raise CaseError(f"{folder / 'truth.npz'} holds no readable \"rgba\" array "
                            f"({e})") from None
        if frames.dtype != np.uint8 or frames.ndim != 4 or frames.shape[-1] != 4 \
                or not len(frames):
            raise CaseError(f"{folder / 'truth.npz'}: \"rgba\" is {frames.dtype} "
                            f"{frames.shape}; it must be uint8 (N, H, W, 4), N >= 1")
        return cls(folder / "clip.mp4", action, portrait, frames)

    def truth(self, t: int) -> np.ndarray:
        return self.frames[min(t, len(self.frames) - 1)]

    def body(self, t: int) -> np.ndarray:
        return self.truth(t)[..., 3]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.trials")
    ap.add_argument("cases", nargs="+", type=Path, help="case folders")
    args = ap.parse_args(argv)
    try:
        cases = [Case.read(folder) for folder in args.cases]  # every folder, before any run
    except CaseError as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{'case':<44} {'IoU':>5} {'holes':>6} {'edge±':>6} {'inside':>6}  flags  verdict")
    failed = 0
    for folder, case in zip(args.cases, cases, strict=True):
        try:
            r = scores.evaluate(folder.name, case)
        except ClipError as e:
            print(e, file=sys.stderr)
            return 2
        failed += not r.ok()
        print(f"{folder.name:<44} {r.mean('iou'):5.3f} {r.mean('holes') * 100:5.1f}% "
              f"{r.mean('edge_excess'):+6.1f} {r.mean('interior_error'):6.1f}  "
              f"{','.join(r.flags) or '-'}  {'ok' if r.ok() else 'FAIL'}")
    print(f"{len(args.cases) - failed} of {len(args.cases)} within the thresholds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
