"""Trial 34: sixteen clips made the way MiniMax H3's green-screen footage looks, with their
truth, for h3sprite (issue 9).

    /work/main/.venv/bin/python trial34.py [NAME_PART]

writes the case folders into $TRIAL_OUT (default: trials/_out/trial34); a name argument
renders only the cases whose names contain it. H3's format: 24 fps, 17k+5 frames at the
action's length (idle/walk/run 56, attack/skill 39, hurt 22), sides multiples of 32,
frame 0 the portrait over the user's flat canvas, the model's screen and wrap settling in
after. Each folder: clip.mp4 (H.264 yuv420p, own BT.601 4:2:0, one x264 thread,
mbtree=0), portrait.png, truth.npz (`rgba`, the character's true straight RGBA per frame:
no screen, spill, shadow or ghost), case.json.

Nine cases of the issue's kinds (six drawn with a jointed SDF rig: shaded, flat, ink,
textured; three of real art: Kenney's CC0 zombie and abstract player from the procgen
0.10.7 wheel, the Overcooked-AI chef from overcooked-ai 1.1.0, MIT), four ghosting cases
(SMEAR) and three other QC cases (FACING, a fast blurred attack with no flag, CROPPED).
The art packages are downloaded with pip into /tmp/t34_art when missing.
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import t34_art  # noqa: E402
import t34_cases_a  # noqa: E402
import t34_cases_b  # noqa: E402

CASES = {}
CASES.update(t34_cases_a.CASES)
CASES.update(t34_art.CASES)
CASES.update(t34_cases_b.CASES)


def _run(name, root):
    t0 = time.time()
    CASES[name](root)
    return name, time.time() - t0


def main(argv):
    root = Path(os.environ.get("TRIAL_OUT", HERE.parent / "_out" / "trial34"))
    root.mkdir(parents=True, exist_ok=True)
    pick = [n for n in CASES if not argv or any(a in n for a in argv)]
    if not pick:
        print(f"no case matches {argv}; cases: {', '.join(CASES)}")
        return 2
    t0 = time.time()
    if any(n in t34_art.CASES for n in pick):
        t34_art.ensure_art()
    workers = min(2, len(pick))
    if workers == 1:
        done = [_run(n, root) for n in pick]
    else:
        with ProcessPoolExecutor(workers) as ex:
            done = list(ex.map(_run, pick, [root] * len(pick)))
    for n, dt in done:
        print(f"{n:28s} {dt:6.1f} s")
    print(f"{len(done)} cases into {root} in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
