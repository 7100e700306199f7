"""Trial 35: renders every case (or those whose names contain the optional argument)
into $TRIAL_OUT/<case>/ (default trials/_out/trial35/<case>/).

    .venv/bin/python trials/trial35/trial35.py [NAME_FILTER]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import cv2  # noqa: E402

from t35_cases import build_cases  # noqa: E402
from t35_render import render_case  # noqa: E402


def main(argv: list[str]) -> int:
    cv2.setNumThreads(1)
    filt = argv[1] if len(argv) > 1 else ""
    out = Path(os.environ.get("TRIAL_OUT", HERE.parent / "_out" / "trial35"))
    t0 = time.time()
    done = 0
    for c in build_cases():
        if filt and filt not in c.name:
            continue
        r = render_case(c, out / c.name)
        done += 1
        print(f"{r['name']:<44} {r['frames']:4d} frames {r['seconds']:6.1f} s"
              + ("  (touches the frame edge)" if r["edge"] else ""), flush=True)
    print(f"{done} cases in {time.time() - t0:.1f} s -> {out}")
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
