"""One case from spec to folder: the character per frame (sub-frames averaged for motion
blur) is the truth; the picture is the screen, a contact shadow or floor reflection on
it, the character with light wrap composited over it, a ghost of the previous picture,
grain and letterbox bars; then the H.264 clip, truth.npz, portrait.png and case.json."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

import t35_fx as fx
import t35_h3 as h3
import t35_screen as scr


@dataclass
class Case:
    name: str
    action: str
    size: tuple                          # (w, h)
    char: Callable                       # t (float) -> premultiplied float RGBA (h, w, 4)
    portrait: Callable                   # () -> uint8 RGBA at portrait size
    screen: scr.ScreenSpec
    seed: int
    crf: int = 20
    blur: int = 1                        # sub-frames per frame
    shutter: float = 0.5                 # of a frame interval
    wrap: Callable = lambda t: (4.0, 0.25)   # t -> (width px, strength)
    wrap_gamma: float = 1.4
    bloom: float = 0.0
    ground: float | None = None          # contact shadow on this line (None: no shadow)
    shadow: float = 0.35
    reflect: float = 0.0                 # glossy floor reflection strength
    ghost: float = 0.0
    bar: int = 0                         # letterbox bar height
    matrix: str = "bt601"
    full: bool = False
    tag: bool = False
    expect: list = field(default_factory=list)
    notes: dict = field(default_factory=dict)
    art: list = field(default_factory=list)


def _shadow_bg(bg, alpha, c: Case):
    if c.ground is None:
        return bg
    a = alpha.astype(np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.5)
    if len(ys) == 0:
        return bg
    low = ys > ys.max() - 0.08 * (ys.max() - ys.min() + 1)
    cx = float(xs[low].mean())
    half = 0.5 * float(xs.max() - xs.min())
    rx = float(np.clip(half * 0.9, 35, 110))
    # lighter and wider when the feet leave the ground
    lift = max(0.0, c.ground - ys.max())
    k = 1.0 / (1.0 + lift / 40.0)
    return scr.contact_shadow(bg, cx, c.ground + 2, rx * (1.6 - 0.6 * k), rx * 0.16,
                              c.shadow * k)


def render_case(c: Case, out: Path) -> dict:
    t0 = time.time()
    w, h = c.size
    n = h3.h3_frames(h3.CLIP_SECONDS[c.action])
    out.mkdir(parents=True, exist_ok=True)
    sc = scr.Screen(w, h, c.screen, c.seed)
    truth = np.zeros((n, h, w, 4), np.uint8)
    enc = h3.Encoder(out / "clip.mp4", w, h, c.crf, c.matrix, c.full, c.tag)
    prev = None
    for t in range(n):
        if c.blur > 1 and t > 0:
            offs = (np.arange(c.blur) / (c.blur - 1) - 1.0) * c.shutter
            pm = sum(c.char(t + o) for o in offs) / c.blur
        else:
            pm = c.char(float(t))
        tr = fx.unpremul(pm)
        truth[t] = tr
        bg = sc.frame(t)
        if c.reflect > 0 and c.ground is not None:
            bg = scr.floor_reflection(bg, tr, int(round(c.ground)) + 1, c.reflect, 45.0)
        bg = _shadow_bg(bg, tr[..., 3], c)
        width, strength = c.wrap(t)
        rgb = fx.light_wrap(tr, bg, width, strength, c.wrap_gamma, c.bloom)
        pic = fx.composite(rgb, tr[..., 3], bg)
        clean = pic
        pic = fx.ghost(pic, prev, c.ghost)
        prev = clean
        pic = sc.grain(t, pic)
        pic = scr.letterbox(pic, c.bar, t, c.seed)
        enc.add(np.clip(pic, 0, 255))
    enc.close()
    if c.bar:
        assert not truth[:, :c.bar, :, 3].any() and not truth[:, h - c.bar:, :, 3].any(), \
            "character inside a letterbox bar"
    edge = truth[:, :, [0, -1], 3].any() or truth[:, [0, -1], :, 3].any()
    h3.save_truth(out / "truth.npz", truth)
    por = c.portrait()
    h3.save_portrait(out / "portrait.png", por)
    meta = {
        "action": c.action,
        "expect_flags": c.expect,
        "trial": 35,
        "size": [w, h], "frames": n, "fps": h3.FPS, "crf": c.crf,
        "pix_fmt": "yuv420p", "matrix": c.matrix, "range": "full (tagged)" if c.full else "limited",
        "colour_tags": bool(c.tag) or c.full,
        "portrait_size": [int(por.shape[1]), int(por.shape[0])],
        "motion_blur_subframes": c.blur, "shutter": c.shutter if c.blur > 1 else 0,
        "light_wrap": {"width_px_frame0": c.wrap(0)[0], "strength_frame0": c.wrap(0)[1],
                       "width_px_max": max(c.wrap(t)[0] for t in range(n)),
                       "strength_max": max(c.wrap(t)[1] for t in range(n)),
                       "falloff_gamma": c.wrap_gamma, "bloom": c.bloom,
                       "colour": "the screen behind, Gaussian-blurred (sigma 0.8 x width)"},
        "screen": {k: v for k, v in vars(c.screen).items()},
        "contact_shadow": None if c.ground is None else {"ground_y": c.ground, "strength": c.shadow},
        "floor_reflection": c.reflect, "ghost_share": c.ghost, "letterbox_bar_px": c.bar,
        "character_touches_frame_edge": bool(edge),
        "truth": "character RGBA only: no screen, spill/wrap, shadow, reflection, ghost, grain",
        "art": c.art or "procedural (trial 35's own rig)",
        "notes": c.notes,
    }
    h3.save_case(out / "case.json", meta)
    return {"name": c.name, "frames": n, "seconds": round(time.time() - t0, 1), "edge": edge}
