"""Trial 33: held-out green/blue-screen clips in MiniMax H3's format, with their truth.

    .venv/bin/python trials/trial33/trial33.py [NAME_PART]   # TRIAL_OUT=DIR (default trials/_out/trial33)

Each case folder: clip.mp4 (H.264 yuv420p, own BT.601 4:2:0, one x264 thread, mbtree=0),
portrait.png (the unspilled RGBA rest pose = frame 0's character), truth.npz (`rgba`,
uint8 (N,H,W,4): the character's true straight RGBA for every frame — no screen, wrap,
spill, bounce light or shadow) and case.json (action, expect_flags, notes, parameters).

H3's format (shared/DOMAIN.md): 24 fps, 17k+5 frames (idle/walk/run 2 s -> 56, attack 1 s
-> 39, skill 1.5 s -> 39, hurt 0.7 s -> 22), sides multiples of 32, frame 0 the portrait
over the user's flat canvas, the model's own screen (and its light wrap) settling in over
the next frames. Ten cases of issue 9's kinds (four of them Freedoom / crafter / craftax
sprites: BSD-3-Clause and MIT, provenance in case.json), six on new ground: light wrap in
linear light, green bounce light from the floor on the legs, a camera pan and zoom that
slides the screen's gradient, dark-green glass and jade that are truly green, a 704x1280
clip, and two QC cases (a turn that lasts -> FACING; a fast blurred kick -> nothing).
Written by a helper who read only the case format, trials/README.md, DOMAIN.md and the
issue; deterministic (fixed seeds), ~3-4 min on 2 cores.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import t33_common as C  # noqa: E402

CASES = []


class Spec:
    """One case. render(t) -> (premultiplied float RGBA HxWx4 at frame size, info dict)."""

    def __init__(self, name, action, W, H, render, screen, wrap=None, crf=20, expect=(),
                 notes="", linear=False, shadow=None, cam=None, extra=None, sources=None,
                 style="", n=None, **more):
        assert W % 32 == 0 and H % 32 == 0, (W, H)
        self.name, self.action, self.W, self.H = name, action, W, H
        self.render, self.screen, self.wrap, self.crf = render, screen, wrap, crf
        self.expect, self.notes, self.linear = list(expect), notes, linear
        self.shadow, self.cam, self.extra = shadow, cam, extra
        self.sources, self.style = sources or [], style
        self.n = n or C.nframes(action)
        self.more = more


def case(fn):
    """Register a function returning a Spec (built lazily: art loads only when rendered)."""
    CASES.append(fn)
    return fn


def produce(spec: Spec, root: Path):
    t0 = time.time()
    out = root / spec.name
    out.mkdir(parents=True, exist_ok=True)
    W, H, n = spec.W, spec.H, spec.n
    scr = C.Screen(W, H, **spec.screen)
    truth = np.zeros((n, H, W, 4), np.uint8)
    enc = C.Encoder(out / "clip.mp4", W, H, spec.crf)
    for t in range(n):
        prem, info = spec.render(t)
        tr = C.unpremult(prem)
        truth[t] = tr
        alpha = tr[..., 3].astype(np.float32) / 255.0
        fg = tr[..., :3].astype(np.float32)
        if t == 0:  # the user's input image: portrait over the flat canvas
            img = C.composite(fg, alpha, scr.frame(0))
        else:
            w = scr.settle_w(t)
            sh = spec.shadow(t, info, w) if spec.shadow else None
            cam = spec.cam(t) if spec.cam else None
            backdrop = scr.frame(t, cam=cam, shadow=sh)
            wrap = None
            if spec.wrap:
                wrap = dict(spec.wrap)
                wrap["strength"] = wrap["strength"] * w
            extra = spec.extra(t, info, w) if spec.extra else None
            img = C.composite(fg, alpha, backdrop, wrap=wrap, linear=spec.linear, extra=extra)
        enc.add(np.clip(np.round(img), 0, 255).astype(np.uint8))
    enc.close()
    C.save_png(out / "portrait.png", truth[0])
    C.save_truth(out / "truth.npz", truth)
    meta = {
        "action": spec.action,
        "expect_flags": spec.expect,
        "notes": spec.notes,
        "size": [W, H], "frames": n, "fps": C.FPS, "crf": spec.crf,
        "style": spec.style,
        "screen": {k: (list(map(float, v)) if isinstance(v, (tuple, list)) else v)
                   for k, v in spec.screen.items()},
        "wrap": spec.wrap and {**spec.wrap, "space": "linear" if spec.linear else "sRGB",
                               "applies_to": "opaque pixels within width of the silhouette "
                                             "and the soft edge; ramps in with the screen"},
        "encode": "libx264 yuv420p, own BT.601 limited 4:2:0, preset medium, threads=1, "
                  "mbtree=0, untagged",
        "truth": "straight RGBA of the character alone; no screen, wrap, spill, bounce or shadow",
        "sources": spec.sources,
        **spec.more,
    }
    C.write_json(out / "case.json", meta)
    print(f"{spec.name:28s} {W}x{H} {n:3d}f crf{spec.crf} {time.time() - t0:5.1f}s", flush=True)


def main(argv):
    import t33_cases1  # noqa: F401  (register cases)
    import t33_cases2  # noqa: F401
    import t33_cases3  # noqa: F401
    root = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parents[1] / "_out" / "trial33"))
    want = argv[1] if len(argv) > 1 else ""
    t0 = time.time()
    for fn in CASES:
        if want and want not in fn.__name__:
            continue
        produce(fn(), root)
    print(f"done in {time.time() - t0:.1f}s -> {root}")


if __name__ == "__main__":
    sys.modules.setdefault("trial33", sys.modules[__name__])
    main(sys.argv)
