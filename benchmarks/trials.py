"""Trials on clips made apart from the fixtures: each case folder through the whole chain
with its portrait, its cells against its truth, as `benchmarks.quality` judges fixtures.

    python -m benchmarks.trials CASE_DIR [CASE_DIR ...]

A case folder holds `clip.mp4`, `portrait.png` (the unspilled RGBA rest pose),
`truth.npz` (`rgba`: the character's true straight RGBA for every video frame, uint8
(N, H, W, 4)) and `case.json` (`action`: idle, walk, run, attack, skill or hurt;
optionally `expect_flags`, the QC flags a correct chain raises: then a case whose flags
differ fails too, and the flags column shows the expected ones in brackets). The
generators of trials 12-20, written by engineers who read neither the fixtures nor
docs/quality.md, are in trials/ (see its README); their numbers are in docs/quality.md.
Prints per case IoU, holes, edge excess vs the truth, interior error, flags and the
verdict on the thresholds of tests/scores.py (and on the expected flags, where given);
exits 1 when any case fails, 2 (one line, before any case runs where it can) on a folder
that is no readable case.
"""

from __future__ import annotations

import argparse
import json
import reprlib
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from comfy_nodes.core.greenscreen import PortraitError, load_portrait
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from comfy_nodes.core.sheet import QCFlag
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
    expect_flags: frozenset[str] | None  # None: the case does not say

    @classmethod
    def read(cls, folder: Path) -> Case:
        action, portrait, expect = check(folder)
        with np.load(folder / "truth.npz") as truth:
            frames = truth["rgba"]
        return cls(folder / "clip.mp4", action, portrait, frames, expect)

    def truth(self, t: int) -> np.ndarray:
        return self.frames[min(t, len(self.frames) - 1)]

    def body(self, t: int) -> np.ndarray:
        return self.truth(t)[..., 3]


def check(folder: Path) -> tuple[str, np.ndarray, frozenset[str] | None]:
    """(action, portrait, expected flags or None) of a case folder, every file checked,
    the truth by its array's header alone (a 720p truth is ~450 MB: main checks every
    folder before any case runs, and holding them all at once took 2 GB for 16 cases);
    CaseError names the file and what is wrong, quoting at most a few of its values."""
    missing = [f for f in FILES if not (folder / f).is_file()]
    if missing:
        raise CaseError(f"{folder} is not a case folder: it lacks {', '.join(missing)}")
    try:
        case = json.loads((folder / "case.json").read_text())
        action, expect = case.get("action"), case.get("expect_flags")
    except (ValueError, AttributeError, OSError, RecursionError) as e:
        raise CaseError(f"{folder / 'case.json'} is not a JSON object "
                        f"({reprlib.repr(str(e))})") from None
    if not isinstance(action, str) or action not in DEFAULT_RECIPES:
        raise CaseError(f"{folder / 'case.json'}: \"action\" is {reprlib.repr(action)}; "
                        f"give one of {', '.join(DEFAULT_RECIPES)}")
    known = {str(f) for f in QCFlag}
    if expect is not None and (not isinstance(expect, list)
                               or not all(isinstance(f, str) and f in known for f in expect)):
        raise CaseError(f"{folder / 'case.json'}: \"expect_flags\" is "
                        f"{reprlib.repr(expect)}; give a list of {', '.join(sorted(known))}")
    try:
        portrait = load_portrait(folder / "portrait.png")
    except PortraitError as e:
        raise CaseError(str(e)) from None
    shape, dtype = _truth_header(folder / "truth.npz")
    if dtype != np.uint8 or len(shape) != 4 or shape[-1] != 4 or not shape[0]:
        raise CaseError(f"{folder / 'truth.npz'}: \"rgba\" is {dtype} {shape}; it must be "
                        "uint8 (N, H, W, 4), N >= 1")
    return action, portrait, None if expect is None else frozenset(expect)


def _truth_header(path: Path) -> tuple[tuple[int, ...], np.dtype]:
    """(shape, dtype) of the "rgba" array in an .npz, from its .npy header only."""
    try:
        with zipfile.ZipFile(path) as z, z.open("rgba.npy") as f:
            version = np.lib.format.read_magic(f)
            read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                    else np.lib.format.read_array_header_2_0)
            shape, _, dtype = read(f)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise CaseError(f"{path} holds no readable \"rgba\" array ({e})") from None
    return shape, dtype


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.trials")
    ap.add_argument("cases", nargs="+", type=Path, help="case folders")
    args = ap.parse_args(argv)
    try:
        for folder in args.cases:  # every folder, before any case runs
            check(folder)
    except CaseError as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{'case':<44} {'IoU':>5} {'holes':>6} {'edge±':>6} {'inside':>6}  flags  verdict")
    failed = judged = 0
    for folder in args.cases:  # one case's truth in memory at a time
        try:
            case = Case.read(folder)
            r = scores.evaluate(folder.name, case)
        except ClipError as e:
            print(e, file=sys.stderr)
            return 2
        flags = ",".join(r.flags) or "-"
        flags_ok = case.expect_flags is None or set(r.flags) == case.expect_flags
        if case.expect_flags is not None:
            flags += f" ({','.join(sorted(case.expect_flags)) or '-'})"
            judged += 1
        ok = r.ok() and flags_ok
        failed += not ok
        print(f"{folder.name:<44} {r.mean('iou'):5.3f} {r.mean('holes') * 100:5.1f}% "
              f"{r.mean('edge_excess'):+6.1f} {r.mean('interior_error'):6.1f}  "
              f"{flags}  {'ok' if ok else 'FAIL'}")
    print(f"{len(args.cases) - failed} of {len(args.cases)} within the thresholds"
          + (f" (and raising the flags expected, where {judged} say)" if judged else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
