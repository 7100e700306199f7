"""Trial 37: 16 green-screen clips as MiniMax H3 renders a game character, with truth.

    .venv/bin/python trials/trial37/trial37.py [NAME_FILTER]  (TRIAL_OUT=DIR, default trials/_out/trial37)
"""
from __future__ import annotations

import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from t37_cases import CASES  # noqa: E402
from t37_make import render_case  # noqa: E402

OUT = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parent.parent / "_out" / "trial37"))


def _one(cs):
    t = time.time()
    msg = render_case(cs, OUT / cs["name"])
    return f"{msg} ({time.time() - t:.1f}s)"


def main(argv):
    pick = [c for c in CASES if not argv or any(a in c["name"] for a in argv)]
    if not pick:
        print("no case matches", argv, file=sys.stderr)
        return 1
    t0 = time.time()
    workers = int(os.environ.get("T37_WORKERS", "2"))
    if workers > 1 and len(pick) > 1:
        cost = lambda c: c["size"][0] * c["size"][1] * c["sec"] * c.get("blur", (1, 0))[0]  # noqa: E731
        with Pool(workers) as pool:  # the dearest first, so the two workers end together
            for m in pool.imap_unordered(_one, sorted(pick, key=cost, reverse=True)):
                print(m, flush=True)
    else:
        for cs in pick:
            print(_one(cs), flush=True)
    print(f"{len(pick)} cases into {OUT} in {time.time() - t0:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
