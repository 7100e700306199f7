"""Batch pipelining: 8 jobs whose generation takes a set time (Preview Motion's
simulate_seconds) on the real embedded ComfyUI. Prints the batch's wall time against the
sum of the server's own execution times (target <= 1.10): post-processing must hide behind
generation, and the client's own overhead must be small.

    python -m benchmarks.batch [--seconds 3] [--jobs 8]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml
from PIL import Image

from driver.batch import Batch, Options
from driver.joblist import load
from service import manager
from service.config import resolve
from tests import synth

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.batch")
    ap.add_argument("--seconds", type=float, default=3.0, help="generation time per job")
    ap.add_argument("--jobs", type=int, default=8, help="jobs (4 characters x N actions)")
    ap.add_argument("--port", type=int, default=8197)
    args = ap.parse_args(argv)
    actions = ["idle", "walk", "run", "attack", "skill", "hurt"][: max(1, args.jobs // 4)]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        chars = {}
        for i, palette in enumerate(["hero", "zombie", "ranger", "knight"]):
            Image.fromarray(synth.portrait(synth.Character(palette=synth.PALETTES[palette])),
                            "RGBA").save(root / f"c{i}.png")
            chars[f"c{i}"] = {"portrait": f"c{i}.png"}
        comfy_args = ["--base-directory", str(root / "base"), "--database-url",
                      "sqlite:///:memory:"]
        (root / "joblist.yaml").write_text(yaml.safe_dump({
            "server": {"url": "embedded", "port": args.port, "comfy_args": comfy_args},
            "workflow": str(REPO / "api_workflows" / "preview.json"),
            "actions": actions, "wording": {c: c for c in chars}, "characters": chars,
            "overrides": {"@action": {"simulate_seconds": args.seconds}},
        }))
        cfg = resolve({"port": args.port, "extra_args": comfy_args})
        manager.start(cfg)  # started before timing: the batch's wall excludes it anyway
        try:
            batch = Batch(load(root / "joblist.yaml"), Options(quiet=True))
            t = time.monotonic()
            summary = batch.run()
            wall = time.monotonic() - t
        finally:
            manager.stop(cfg)
    server = sum(summary.gen_seconds)
    post = sum(summary.post_seconds)
    n = len(summary.done)
    print(f"{n} jobs, generation set to {args.seconds:g} s each (Preview Motion)")
    print(f"server execution, summed  {server:7.2f} s")
    print(f"post-processing, summed   {post:7.2f} s  (overlapped with generation)")
    print(f"batch wall time           {wall:7.2f} s  ratio {wall / server:.3f} (target <= 1.10)")
    return 0 if n == args.jobs else 1


if __name__ == "__main__":
    sys.exit(main())
