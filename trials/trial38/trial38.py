"""Trial 38: clips of issue 9's kinds, made apart from the fixtures (see README.md).

    python trial38.py [NAME ...]   # all cases, or those whose names contain an argument
    TRIAL_OUT=DIR python trial38.py   # case folders into DIR (default trials/_out/trial38)
    TRIAL_JOBS=N                      # worker processes (default: 2, or 1 on one core)
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from t38_cases import CASES  # noqa: E402
from t38_run import render_case  # noqa: E402


def _one(args):
    i, out = args
    case = CASES[i]
    return render_case(case, Path(out) / case.name)


def main(argv):
    out = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parent.parent / "_out" / "trial38"))
    picked = [i for i, c in enumerate(CASES) if not argv or any(a in c.name for a in argv)]
    if not picked:
        print(f"no case matches {' '.join(argv)}", file=sys.stderr)
        return 2
    jobs = int(os.environ.get("TRIAL_JOBS", min(2, os.cpu_count() or 1)))
    t0 = time.time()
    work = [(i, str(out)) for i in picked]
    if jobs > 1 and len(work) > 1:
        with ProcessPoolExecutor(jobs) as ex:
            results = list(ex.map(_one, work))
    else:
        results = [_one(w) for w in work]
    for r in results:
        warn = "  (near the frame edge!)" if r["edge"] < 8 else ""
        print(f"{r['name']:<40} {r['secs']:6.1f} s  height {r['h']:.2f}  margin {r['edge']} px{warn}")
    print(f"{len(results)} cases into {out} in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
