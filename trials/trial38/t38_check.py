"""Trial 38 eye check: a contact sheet per case folder (rows: clip frame as decoded, the
truth over magenta, the truth's alpha) and a few numbers (frame count, size, the green
excess of the truth's and the clip's outer 2 px band).

    python t38_check.py CASE_DIR [...]   # writes <out>_sheets/<case>.png beside <out>/
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import av
import cv2
import numpy as np


def decode(path):
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


def excess(rgb, band):
    x = rgb.astype(np.int32)
    ge = x[..., 1] - np.maximum(x[..., 0], x[..., 2])
    return float(ge[band].mean()) if band.any() else float("nan")


def sheet(folder: Path, cols=6, width=1500):
    frames = decode(folder / "clip.mp4")
    with np.load(folder / "truth.npz") as z:
        truth = z["rgba"]
    case = json.loads((folder / "case.json").read_text())
    n = len(frames)
    idx = sorted({0, 1, *np.linspace(3, n - 1, cols - 2).astype(int)})[:cols]
    tiles = []
    stats = []
    for i in idx:
        f, tr = frames[i], truth[i]
        a = tr[..., 3:].astype(np.float32) / 255
        mag = (tr[..., :3] * a + np.array([255, 0, 255]) * (1 - a)).astype(np.uint8)
        alpha = np.repeat(tr[..., 3:], 3, 2)
        tiles.append(np.concatenate([f, mag, alpha], 0))
        solid = (tr[..., 3] > 127).astype(np.uint8)
        band = (solid > 0) & (cv2.erode(solid, np.ones((5, 5), np.uint8)) == 0)
        stats.append((excess(tr[..., :3], band), excess(f, band)))
    img = np.concatenate(tiles, 1)
    k = width / img.shape[1]
    img = cv2.resize(img, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    out = folder.parent.with_name(folder.parent.name + "_sheets")
    out.mkdir(exist_ok=True)
    cv2.imwrite(str(out / f"{folder.name}.png"), cv2.cvtColor(img, cv2.COLOR_RGB2BGR))
    tr_e = np.nanmean([s[0] for s in stats[2:]])
    cl_e = np.nanmean([s[1] for s in stats[2:]])
    print(f"{folder.name:<40} {n:3d} fr {frames[0].shape[1]}x{frames[0].shape[0]}  truth {truth.shape[0]}  "
          f"edge excess truth {tr_e:6.1f} clip {cl_e:6.1f}  {case['action']} {case.get('expect_flags', '')}")


if __name__ == "__main__":
    for d in sys.argv[1:]:
        sheet(Path(d))
