"""Trial 38 case rendering: one case's frames drawn, spilled, composited, encoded."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from t38_geom import scale, trans
from t38_io import Encoder, to_rgba8, write_case, write_png, write_truth
from t38_raster import render_blurred
from t38_screen import Screen, ScreenSpec, composite, light_wrap


@dataclass
class Case:
    name: str
    W: int
    H: int
    N: int
    action: str
    build: Callable          # rng -> Rig
    pose: Callable           # (t, rig) -> pose dict
    k: float                 # px per character unit
    cx: float                # root x in px
    ground: float            # feet line in px (the root sits rig.meta['feet'] * k above it)
    what: str
    screen: ScreenSpec = field(default_factory=ScreenSpec)
    wrap: tuple = (3.0, 0.25, "blur", False)  # width px, strength, mode, additive
    wrap_in: int = 3         # frames over which the wrap grows after frame 0
    crf: float = 20
    ss: int = 4
    shutter: float = 0.0     # motion blur shutter in frames (0.5: 180 degrees)
    max_samples: int = 12
    ghost: float = 0.0       # share of the previous shown frame blended in
    ghost_from: int = 2
    bars: int = 0            # letterbox bar height in px (from frame 1 on)
    expect: list | None = None
    seed: int = 0
    drift: tuple = (0.0, 0.0)  # px per frame of the whole character (camera)

    def place(self, rig, t):
        dx, dy = self.drift
        cy = self.ground - rig.meta["feet"] * self.k
        return trans(self.cx + dx * t, cy + dy * t) @ scale(self.k, self.k)


def render_case(case: Case, out: Path) -> dict:
    t0 = time.time()
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(3800 + case.seed)
    rig = case.build(rng)
    H, W, N = case.H, case.W, case.N
    spec = case.screen
    spec.seed = 3810 + case.seed * 7
    scr = Screen(spec, H, W)
    enc = Encoder(out / "clip.mp4", W, H, case.crf)
    truth = np.zeros((N, H, W, 4), np.uint8)
    width, strength, mode, additive = case.wrap
    prev = None
    edge_min = 1e9
    for t in range(N):
        place = case.place(rig, t)
        prem, alpha = render_blurred(rig, lambda tt: case.pose(tt, rig), t, place, (H, W), case.ss,
                                     case.shutter if t > 0 else 0.0, case.max_samples)
        rgba = to_rgba8(prem, alpha)
        truth[t] = rgba
        rgb = rgba[..., :3].astype(np.float32) / 255
        al = rgba[..., 3].astype(np.float32) / 255
        ys, xs = np.nonzero(al > 0)
        lim = case.bars if case.bars else 0
        edge_min = min(edge_min, xs.min(), W - 1 - xs.max(), ys.min() - lim, H - 1 - lim - ys.max())
        shown, clean = scr.frame(t, al)
        if t > 0:
            k = min(1.0, t / max(case.wrap_in, 1))
            rgb = light_wrap(rgb, al, clean, width, strength * k, mode, additive)
        frame = composite(rgb, al, shown)
        if case.ghost and t >= case.ghost_from and prev is not None:
            frame = (1 - case.ghost) * frame + case.ghost * prev
        prev = frame
        if case.bars and t >= 1:
            frame = frame.copy()
            frame[:case.bars] = 0
            frame[H - case.bars:] = 0
        enc.add(np.clip(frame, 0, 1))
    enc.close()
    write_truth(out / "truth.npz", truth)
    write_png(out / "portrait.png", truth[0])
    info = dict(action=case.action, what=case.what, size=[W, H], frames=N, fps=24, crf=case.crf,
                wrap=dict(width_px=width, strength=strength, mode=mode, additive=additive),
                screen=dict(canvas=list(spec.canvas), green=list(spec.green), noise=spec.noise,
                            flicker=spec.flicker, vignette=spec.vignette, shadow=spec.shadow),
                shutter_frames=case.shutter, ghost=case.ghost, bars_px=case.bars,
                char_height_frac=round(_height(truth[0]) / H, 3))
    if case.expect is not None:
        info["expect_flags"] = case.expect
    write_case(out / "case.json", info)
    return dict(name=case.name, secs=time.time() - t0, edge=int(edge_min), h=info["char_height_frac"])


def _height(rgba):
    rows = np.nonzero((rgba[..., 3] > 127).any(axis=1))[0]
    return rows[-1] - rows[0] + 1 if len(rows) else 0
