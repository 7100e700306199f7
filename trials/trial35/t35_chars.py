"""Characters as (char(t), portrait()) pairs: char gives premultiplied float RGBA at
frame size for a (possibly fractional) frame time, portrait the unspilled RGBA rest pose
(frame 0's pose) as the user's file."""

from __future__ import annotations

import numpy as np

import t35_art as art
import t35_fx as fx
import t35_poses as poses
import t35_rig as rig
from t35_figure import Look, build


def procedural(look: Look, motion, w: int, h: int):
    def char(t: float) -> np.ndarray:
        return rig.render(build(look, motion(t)), w, h)

    def portrait() -> np.ndarray:
        return fx.unpremul(char(0.0))
    return char, portrait


# ------------------------------------------------------------------ Gil
def gil_walk(t: float, period: float = 20.0, turn_at: float | None = None):
    k = poses.ease(t, 0, 5)
    ph = 2 * np.pi * t / period
    s, c = np.sin(ph), np.cos(ph)
    ang = {
        "pierna1": -0.45 * s * k, "pierna2": 0.45 * s * k,
        "bota1": 0.55 * k * max(0.0, np.sin(ph + 0.9)), "bota2": 0.55 * k * max(0.0, -np.sin(ph + 0.9)),
        "brazo1": 0.38 * s * k, "brazo2": -0.38 * s * k,
        "mano1": -0.25 * k - 0.15 * k * (1 + s), "mano2": -0.25 * k - 0.15 * k * (1 - s),
        "cuerpo": -0.04 * k, "cara": 0.04 * np.sin(2 * ph) * k, "peluca": 0.05 * np.sin(ph - 1) * k,
    }
    facing = 1.0 if turn_at is None else poses.turn_facing(t, turn_at, 6.0)
    return ang, 5.0 * abs(c) * k, facing


def gil(w: int, h: int, x: float, ground: float, scale: float, turn_at=None, drift=0.0):
    parts, prov = art.gil_parts()

    def char(t: float) -> np.ndarray:
        ang, bob, facing = gil_walk(t, turn_at=turn_at)
        xx = x + drift * np.sin(2 * np.pi * t / 56.0)
        return art.render_gil(parts, w, h, xx, ground, scale, ang, facing, bob)

    def portrait() -> np.ndarray:
        return fx.unpremul(char(0.0))
    return char, portrait, prov


# ------------------------------------------------------------------ grossini's sister
def sister(which: int, w: int, h: int, x: float, ground: float, scale: float,
           period: float = 26.0, hair_rows: float = 60.0):
    img, prov = art.sister(which)
    ys = np.nonzero(img[..., 3] > 0)[0]
    waist = ys.min() + 0.55 * (ys.max() - ys.min())

    def char(t: float) -> np.ndarray:
        k = poses.ease(t, 0, 6)
        ph = 2 * np.pi * t / period
        tilt = 0.07 * k * np.sin(ph)
        breathe = 0.03 * k * (1 - np.cos(2 * ph)) / 2
        hair = 4.0 * k * np.sin(ph - 0.9)
        bob = 5.0 * k * (1 - np.cos(2 * ph)) / 2
        return art.render_sprite_deform(img, w, h, x + 6 * k * np.sin(ph), ground - bob, scale,
                                        waist, tilt, breathe, hair_rows, hair)

    def portrait() -> np.ndarray:
        return fx.unpremul(char(0.0))
    return char, portrait, [prov]


# ------------------------------------------------------------------ sokoban robot
def robot(w: int, h: int, cx: int, ground: int, k: int, blue: bool, hold: int = 3,
          drift: int = 0, soften: float = 0.7, portrait_scale: int = 1):
    img, prov = art.robot(blue)

    def frame(t: float, kk: int, sc: int) -> np.ndarray:
        i = int(np.floor(t + 1e-6))
        step = 0 if i < 2 else ((i - 2) // hold) % 4
        ant = 0 if i < 2 else ((i - 2) // (2 * hold)) % 2
        spr = art.robot_pose(img, step, ant)
        dx = int(round(drift * np.sin(2 * np.pi * max(0, i - 2) / 44.0))) * sc
        x0 = cx * sc - spr.shape[1] * kk // 2 + dx
        y0 = ground * sc - spr.shape[0] * kk
        return art.render_pixel(spr, w * sc, h * sc, x0, y0, kk, soften * sc)

    def char(t: float) -> np.ndarray:
        return frame(t, k, 1)

    def portrait() -> np.ndarray:
        return fx.unpremul(frame(0.0, k * portrait_scale, portrait_scale))
    return char, portrait, [prov]
