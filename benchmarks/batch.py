"""Batch on 1, 2, 3 servers: jobs whose generation takes a set time (Preview Motion's
simulate_seconds) on real embedded ComfyUI servers, started before timing.

For each server count it prints the wall time against the servers' own execution time
shared out among them: ratio = wall / (sum of execution / servers), target <= 1.10 (post-
processing hides behind generation; the client's overhead is small). Then the speed-up of
each count over one server (two servers: target <= 0.6x the wall of one), and the time
from `run()` to the first prompt starting on a server (the set-up before the first job).

    python -m benchmarks.batch [--seconds 3] [--jobs 8] [--servers 1,2,3]
                               [--joblist examples/joblist.yaml]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import requests
import yaml
from PIL import Image

from driver.batch import Batch, Options
from driver.joblist_load import load
from service import manager
from service.config import resolve
from tests import synth

REPO = Path(__file__).resolve().parent.parent


def synthetic(root: Path, jobs: int) -> dict[str, Any]:
    actions = ["idle", "walk", "run", "attack", "skill", "hurt"][: max(1, jobs // 4)]
    chars = {}
    for i, palette in enumerate(["hero", "zombie", "ranger", "knight"]):
        Image.fromarray(synth.portrait(synth.Character(palette=synth.PALETTES[palette])),
                        "RGBA").save(root / f"c{i}.png")
        chars[f"c{i}"] = {"portrait": str(root / f"c{i}.png")}
    return {"workflow": str(REPO / "api_workflows" / "preview.json"), "actions": actions,
            "wording": {c: c for c in chars}, "characters": chars}


def from_file(path: Path) -> dict[str, Any]:
    """A user's joblist with its paths made absolute (it is rewritten into a temp folder)."""
    doc = yaml.safe_load(path.read_text())
    base = path.parent.resolve()
    doc["workflow"] = str(base / doc["workflow"])
    for ch in doc["characters"].values():
        ch["portrait"] = str(base / ch["portrait"])
    if "wording_file" in doc:
        doc["wording_file"] = str(base / doc["wording_file"])
    for key in ("server", "servers", "out", "work"):
        doc.pop(key, None)
    return doc


def first_start(urls: list[str], since: float) -> float:
    """Seconds from `since` (time.time()) to the first execution_start on any server."""
    starts = []
    for url in urls:
        for entry in requests.get(f"{url}/history", timeout=10).json().values():
            for kind, data in entry["status"]["messages"]:
                if kind == "execution_start" and data["timestamp"] / 1000 >= since:
                    starts.append(data["timestamp"] / 1000)
    return min(starts) - since if starts else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.batch")
    ap.add_argument("--seconds", type=float, default=3.0, help="generation time per job")
    ap.add_argument("--jobs", type=int, default=8, help="jobs (4 characters x N actions)")
    ap.add_argument("--servers", default="1,2,3", help="server counts to run, e.g. 1,2")
    ap.add_argument("--port", type=int, default=8197, help="first port; the next ones follow")
    ap.add_argument("--joblist", type=Path, help="run this joblist's roster instead")
    args = ap.parse_args(argv)
    counts = [int(n) for n in args.servers.split(",")]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        doc = from_file(args.joblist) if args.joblist else synthetic(root, args.jobs)
        doc["overrides"] = {**doc.get("overrides", {}),
                            "@action": {"simulate_seconds": args.seconds}}
        specs, cfgs = [], []
        for i in range(max(counts)):
            comfy_args = ["--base-directory", str(root / f"base{i}"), "--database-url",
                          "sqlite:///:memory:"]
            specs.append({"url": "embedded", "port": args.port + i, "comfy_args": comfy_args})
            cfgs.append(resolve({"port": args.port + i, "extra_args": comfy_args}))
        with ThreadPoolExecutor(len(cfgs)) as ex:  # started before timing
            list(ex.map(manager.start, cfgs))
        rows = []
        try:
            for n in counts:
                doc.update(servers=specs[:n], out=str(root / f"out{n}"),
                           work=str(root / f"work{n}"))
                path = root / f"joblist{n}.yaml"
                path.write_text(yaml.safe_dump(doc))
                batch = Batch(load(path), Options(quiet=True, force=True))
                since, t = time.time(), time.monotonic()
                try:
                    summary = batch.run()
                finally:
                    batch.release()
                wall = time.monotonic() - t
                urls = [f"http://127.0.0.1:{s['port']}" for s in specs[:n]]
                rows.append((n, wall, sum(summary.gen_seconds), len(summary.done),
                             first_start(urls, since), summary.per_server))
                ok &= not summary.failed
        finally:
            for cfg in cfgs:
                manager.stop(cfg)
    print(f"generation set to {args.seconds:g} s per job (Preview Motion), "
          f"{rows[0][3]} jobs")
    print("servers  wall s  sum exec s  wall/(exec/servers)  vs 1 server  to first job s  "
          "jobs per server")
    one = next((r[1] for r in rows if r[0] == 1), None)
    for n, wall, execution, _, first, per in rows:
        ratio = wall / (execution / n) if execution else float("nan")
        speed = f"{wall / one:10.2f}x" if one else "         -"
        print(f"{n:7d} {wall:7.1f} {execution:11.1f} {ratio:20.3f} {speed} {first:15.2f}  "
              f"{' '.join(str(v) for v in per.values())}")
    print("targets: wall/(exec/servers) <= 1.10; 2 servers <= 0.60x of 1")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
