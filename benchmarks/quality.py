"""The quality report: every model-like fixture (tests/footage.py) through the whole chain,
its sheet against the truth. Prints per fixture matte IoU, holes, edge green excess vs the
truth, interior colour error, feet jitter, loop grade, QC flags and the chain's time as a
multiple of a bare PyAV decode; writes one PNG per fixture (our middle cell and the truth,
on magenta and on white) under benchmarks/_quality/ (git-ignored).

    python -m benchmarks.quality [NAME ...]      (or: make quality)

Thresholds (issue 9; tests/core/test_footage.py asserts the same): IoU >= 0.95, holes
<= 2 %, edge excess within -8..+6 levels of the truth, interior error <= 12 levels.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from benchmarks.chain import bare_decode
from tests import footage, scores

OUT = Path(__file__).resolve().parent / "_quality"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.quality")
    ap.add_argument("names", nargs="*", help=f"fixtures (default: all): {' '.join(footage.CASES)}")
    args = ap.parse_args(argv)
    names = args.names or list(footage.CASES)
    unknown = [n for n in names if n not in footage.CASES]
    if unknown:
        print(f"unknown fixture(s) {', '.join(unknown)}: known are {', '.join(footage.CASES)}",
              file=sys.stderr)
        return 2
    OUT.mkdir(exist_ok=True)
    print(f"{'fixture':<26} {'IoU':>5} {'holes':>6} {'edge±':>6} {'inside':>6} {'feet':>5} "
          f"{'loop':<6} {'xdec':>5}  flags (expected)  verdict")
    failed = 0
    for name in names:
        fx = footage.footage(name)
        r = scores.evaluate(name, fx)
        dec = min(bare_decode(fx.path) for _ in range(3))
        want = footage.FLAGS[name]
        flags_ok = set(r.flags) == want
        judged = name not in footage.NOT_JUDGED
        ok = flags_ok and (r.ok() or not judged)
        failed += not ok
        verdict = ("ok" if ok else "FAIL") + ("" if judged else " (flag case: colour not judged)")
        # A loop without a grade (cells that lack the character or do not move) is no "once".
        loop = r.loop_grade or ("-" if r.meta["meta"]["animation"]["loop"] else "once")
        print(f"{name:<26} {r.mean('iou'):5.3f} {r.mean('holes') * 100:5.1f}% "
              f"{r.mean('edge_excess'):+6.1f} {r.mean('interior_error'):6.1f} "
              f"{r.feet_jitter:5.2f} {loop:<6} {r.seconds / dec:5.2f}  "
              f"{','.join(r.flags) or '-'} ({','.join(sorted(want)) or '-'})  {verdict}")
        cv2.imwrite(str(OUT / f"{name}.png"), cv2.cvtColor(r.panel, cv2.COLOR_RGB2BGR))
    print(f"panels in {OUT}/ (ours | truth on magenta, ours | truth on white)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
