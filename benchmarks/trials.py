"""Trials on clips made apart from the fixtures: each case folder through the whole chain
with its portrait, its cells against its truth, as `benchmarks.quality` judges fixtures.

    python -m benchmarks.trials CASE_DIR [CASE_DIR ...]

A case folder holds `clip.mp4`, `portrait.png` (the unspilled RGBA rest pose),
`truth.npz` (`rgba`: the character's true straight RGBA for every video frame, uint8
(N, H, W, 4)) and `case.json` (`action`: idle, walk, run, attack, skill or hurt). The
generators of trials 12 and 13, written by engineers who read neither the fixtures nor
docs/quality.md, are in trials/ (see its README); their numbers are in docs/quality.md.
Prints per case IoU, holes, edge excess vs the truth, interior error, flags and the
verdict on the thresholds of tests/scores.py; exits 1 when any case fails them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from tests import scores


@dataclass(frozen=True)
class Case:
    """A trial's clip and truth, read as tests.scores.evaluate reads a fixture."""

    path: Path
    action: str
    portrait: np.ndarray
    frames: np.ndarray  # (N, H, W, 4) the true RGBA

    @classmethod
    def read(cls, folder: Path) -> Case:
        action = json.loads((folder / "case.json").read_text())["action"]
        portrait = np.asarray(Image.open(folder / "portrait.png").convert("RGBA"))
        with np.load(folder / "truth.npz") as truth:
            frames = truth["rgba"]
        return cls(folder / "clip.mp4", action, portrait, frames)

    def truth(self, t: int) -> np.ndarray:
        return self.frames[min(t, len(self.frames) - 1)]

    def body(self, t: int) -> np.ndarray:
        return self.truth(t)[..., 3]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.trials")
    ap.add_argument("cases", nargs="+", type=Path, help="case folders")
    args = ap.parse_args(argv)
    missing = [str(c) for c in args.cases
               if not all((c / f).is_file() for f in
                          ("clip.mp4", "portrait.png", "truth.npz", "case.json"))]
    if missing:
        print(f"not a case folder (clip.mp4, portrait.png, truth.npz, case.json): "
              f"{', '.join(missing)}", file=sys.stderr)
        return 2
    print(f"{'case':<44} {'IoU':>5} {'holes':>6} {'edge±':>6} {'inside':>6}  flags  verdict")
    failed = 0
    for folder in args.cases:
        r = scores.evaluate(folder.name, Case.read(folder))
        failed += not r.ok()
        print(f"{folder.name:<44} {r.mean('iou'):5.3f} {r.mean('holes') * 100:5.1f}% "
              f"{r.mean('edge_excess'):+6.1f} {r.mean('interior_error'):6.1f}  "
              f"{','.join(r.flags) or '-'}  {'ok' if r.ok() else 'FAIL'}")
    print(f"{len(args.cases) - failed} of {len(args.cases)} within the thresholds")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
