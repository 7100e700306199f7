"""Trial 36: held-out green-screen clips of the issue's kinds, with their truth.

    python trial36.py [NAME_FILTER]          # renders into $TRIAL_OUT/<case>/
                                             # (default trials/_out/trial36/<case>/)

Two worker processes (one case each at a time, x264 single-threaded inside);
each case folder holds clip.mp4, truth.npz, portrait.png and case.json as
benchmarks/trials.py reads them.  Every case renders the same bytes on every run.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from t36_cases import CASES  # noqa: E402


def out_root() -> Path:
    return Path(os.environ.get("TRIAL_OUT", str(HERE.parent / "_out" / "trial36")))


def _one(name: str) -> dict:
    from t36_comp import render_case
    factory = dict(CASES)[name]
    return render_case(factory(), out_root() / name)


def main(argv: list[str]) -> int:
    filt = argv[0] if argv else ""
    names = [n for n, _ in CASES if filt in n]
    if not names:
        print(f"no case matches {filt!r}", file=sys.stderr)
        return 1
    t0 = time.time()
    workers = int(os.environ.get("TRIAL_JOBS", "2"))
    # the heaviest first, so two workers finish together
    heavy = ["t36_letterbox_idle_720", "t36_paladin_attack_tall", "t36_wolf_run"]
    names.sort(key=lambda n: (n not in heavy, heavy.index(n) if n in heavy else 0))
    if workers <= 1:
        results = [_one(n) for n in names]
    else:
        with ProcessPoolExecutor(workers) as ex:
            results = list(ex.map(_one, names))
    for r in results:
        print(f"{r['name']:<34} {r['seconds']:6.1f} s")
    print(f"{len(results)} cases into {out_root()} in {time.time() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
