"""Peak memory and whole-process time of `driver process` on clips of three sizes, each in
a fresh process, against a bare PyAV decode process on the same clip.

    python -m benchmarks.memory [--runs 5]

Clips: 448x448 x 56 frames (walk, 2 s recipe), 1280x720 x 121 and x 600 frames (a 5 s
walk recipe); a drawn walk cycle, looped, H.264 yuv420p CRF 20. Goals (issue 9): peak RSS
under 200 / 600 / 800 MB, the 600-frame clip at most 1.3x the 121-frame one, and the
whole 448x448 process at most 2.5x a bare decode process. The whole process loads numpy
with one OpenBLAS thread, as `python -m driver` does (driver/blas.py). Bare and whole runs
alternate; times are medians, and the fastest run of each is printed too (on a machine
that other work loads now and then, the fastest runs are the ones it did not).
"""

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent

BARE = """
import sys, time, av
t = time.perf_counter()
with av.open(sys.argv[1]) as c:
    s = c.streams.video[0]; s.thread_type = "AUTO"
    frames = [f.to_ndarray(format="rgb24") for f in c.decode(s)]
print(PEAK())
"""

CHAIN = """
from driver.blas import one_blas_thread
one_blas_thread()  # as `python -m driver` does, before numpy loads
import sys, tempfile
from pathlib import Path
from comfy_nodes.core.recipes import Recipe
from driver.process import process
seconds = float(sys.argv[2])
recipe = Recipe(seconds=seconds, frames=10, fps=10, loop=True)
with tempfile.TemporaryDirectory() as out:
    process(Path(sys.argv[1]), "walk", recipe, Path(out), "walk")
print(PEAK())
"""
# VmHWM, not ru_maxrss: Linux carries ru_maxrss across exec, so a child would report the
# benchmark's own peak.
PEAK = """
def PEAK():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
"""


def make_clip(path: Path, size: tuple[int, int], frames: int) -> None:
    from comfy_nodes.core import video
    from tests import footage

    cycle = footage.film(footage.Spec(size=size, frames=min(frames, 28), blur=False))
    reps = np.empty((frames, *cycle.shape[1:]), np.uint8)
    for i in range(frames):  # the cycle, looped (drawing 600 frames takes minutes)
        reps[i] = cycle[i % len(cycle)]
    video.encode(reps, path, crf=20)


def run(code: str, *args: str) -> tuple[float, float]:
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", PEAK + code, *args], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    return time.perf_counter() - t, float(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.memory")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    cases = [("448x448 x 56", (448, 448), 56, 2.0, 200),
             ("1280x720 x 121", (1280, 720), 121, 5.0, 600),
             ("1280x720 x 600", (1280, 720), 600, 5.0, 800)]
    # Byte-compiled first, as an installed package is (pip compiles it; a checkout writes
    # __pycache__ on its first run): where PYTHONDONTWRITEBYTECODE is set, every timed run
    # would otherwise compile our sources again (~45 ms), which no user's second run does.
    for package in ("comfy_nodes", "driver"):
        compileall.compile_dir(REPO / package, quiet=1)
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, size, n, seconds, goal in cases:
            path = Path(tmp) / f"{n}_{size[0]}.mp4"
            make_clip(path, size, n)
            bare, chain = [], []
            for _ in range(args.runs):  # alternating: a load that comes and goes hits both
                bare.append(run(BARE, str(path)))
                chain.append(run(CHAIN, str(path), str(seconds)))
            b_t = statistics.median(t for t, _ in bare)
            c_t = statistics.median(t for t, _ in chain)
            b_min, c_min = min(t for t, _ in bare), min(t for t, _ in chain)
            rss = max(m for _, m in chain)
            rows[name] = rss
            print(f"{name:<16} peak RSS {rss:6.0f} MB (goal < {goal}), bare decode process "
                  f"{max(m for _, m in bare):5.0f} MB; whole process {c_t:5.2f} s vs bare "
                  f"decode process {b_t:5.2f} s: {c_t / b_t:4.2f}x (medians; fastest runs "
                  f"{c_min:5.2f} s vs {b_min:5.2f} s: {c_min / b_min:4.2f}x)")
    ratio = rows["1280x720 x 600"] / rows["1280x720 x 121"]
    print(f"600 / 121 frames peak RSS: {ratio:.2f}x (goal <= 1.3x)")
    print(json.dumps({"peak_rss_mb": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
