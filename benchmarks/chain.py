"""The post-processing chain on a 56-frame 448x448 clip, against a bare PyAV decode.

Prints the median of several runs of
- bare decode: `frame.to_ndarray(format="rgb24")` for every frame (what any tool does);
- the chain: our decode + matte/align/window/QC/pack + lossless WebP encode;
their ratio (target <= 3x), a per-stage breakdown, and the process's peak RSS (target
< 500 MB). Run in a fresh process so peak memory is this clip's.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import av

from comfy_nodes.core import pipeline, video
from comfy_nodes.core.recipes import DEFAULT_RECIPES
from comfy_nodes.core.sheet import encode_webp
from tests import synth


def bare_decode(path: Path) -> float:
    t = time.perf_counter()
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        s.thread_type = "AUTO"
        frames = [f.to_ndarray(format="rgb24") for f in c.decode(s)]
    assert frames
    return time.perf_counter() - t


def chain(path: Path, action: str) -> tuple[float, dict]:
    t = time.perf_counter()
    clip = video.decode(path)
    t_dec = time.perf_counter() - t
    res = pipeline.process_clip(clip, action, DEFAULT_RECIPES[action], "bench")
    t1 = time.perf_counter()
    encode_webp(res.rgba)
    t_webp = time.perf_counter() - t1
    stages = {"decode": t_dec, **res.timings, "webp": t_webp}
    return time.perf_counter() - t, stages


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--action", default="walk")
    args = ap.parse_args(argv)
    recipe = DEFAULT_RECIPES[args.action]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "clip.mp4"
        char = synth.Character(palette=synth.PALETTES["ranger"], outline=(245, 245, 235))
        frames, _ = synth.clip(args.action, char, size=(448, 448), frames=recipe.clip_frames)
        video.encode(frames, path)
        del frames
        bare_decode(path), chain(path, args.action)  # warm caches and imports
        bare, total, stages = [], [], []
        for _ in range(args.runs):
            bare.append(bare_decode(path))
            t, s = chain(path, args.action)
            total.append(t)
            stages.append(s)
    b, c = statistics.median(bare), statistics.median(total)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"clip: {recipe.clip_frames} frames 448x448 H.264, action {args.action}, "
          f"{args.runs} runs (median)")
    print(f"bare PyAV decode   {b * 1000:7.1f} ms")
    print(f"whole chain        {c * 1000:7.1f} ms   ratio {c / b:.2f}x  (target <= 3x)")
    for name in stages[0]:
        med = statistics.median(s[name] for s in stages)
        beside = "  (beside the cells, within matte+warp)" if name in pipeline.JUDGED else ""
        print(f"  {name:<14} {med * 1000:7.1f} ms  {med / b:5.2f}x decode{beside}")
    print(f"peak RSS           {peak_mb:7.0f} MB   (target < 500 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
