"""Trial 36: turning a rig, a look and an action into a renderable case spec.

The spec's `char(t)` draws the character at frame time t (float) in a fixed
box (found from the ops' extent over the whole clip, sampled every 1/4 frame),
`shadow(t)` gives its contact shadow on the screen.
"""

from __future__ import annotations

import numpy as np

import t36_h3 as h3
from t36_beast import wolf, wolf_pose
from t36_draw import render
from t36_motion import pose
from t36_rig import humanoid
from t36_comp import ops_bounds

BUILD = {"thigh": 52, "shin": 50, "torso": 80, "head": 24, "chest": 24, "uarm": 44,
         "farm": 40, "arm_r": 8.5, "leg_r": 11, "foot": 16}


def build(**kw) -> dict:
    return dict(BUILD, **kw)


def box_of(ops_at, n, size, margin=8):
    W, H = size
    lo, hi = np.array([1e9, 1e9]), np.array([-1e9, -1e9])
    for t in np.arange(-0.5, n - 0.5 + 1e-9, 0.25):
        b = ops_bounds(ops_at(t))
        lo, hi = np.minimum(lo, b[:2]), np.maximum(hi, b[2:])
    x0 = int(max(0, np.floor(lo[0]) - margin))
    y0 = int(max(0, np.floor(lo[1]) - margin))
    x1 = int(min(W, np.ceil(hi[0]) + margin))
    y1 = int(min(H, np.ceil(hi[1]) + margin))
    return (x0, y0, x1 - x0, y1 - y0)


def rig_case(name, action, size, look, screen, wrap, seed, ground, x0, notes, *,
             kind="human", turn=None, multiples=False, shadow=(0.38, 5.0), ss=4, **extra):
    n = h3.frames_for(action)
    k = look.get("scale", 1.0)

    def pose_at(t):
        if kind == "wolf":
            return wolf_pose(action, t, n, (x0, ground - 80 * k))
        return pose(action, t, n, look, ground, x0, turn)

    def ops_at(t):
        P = pose_at(t)
        if kind == "wolf":
            return wolf(P, look)
        ops = humanoid(P, look)
        if multiples:
            s = t / max(n - 1, 1)
            if 0.39 < s < 0.48:  # the strike: two drawn copies of arm and blade behind it
                na = len(humanoid(P, look, "arm"))
                extra_ops = []
                for back in (1.6, 0.8):
                    extra_ops += humanoid(pose_at(t - back), look, "arm")
                ops = ops[:-na] + extra_ops + ops[-na:]
        return ops

    box = box_of(ops_at, n, size)

    def char(t):  # drawn in the ops' own bounds, placed in the case's box
        ops = ops_at(t)
        lo0, lo1, hi0, hi1 = ops_bounds(ops)
        bx0, by0 = max(box[0], int(np.floor(lo0)) - 2), max(box[1], int(np.floor(lo1)) - 2)
        bx1 = min(box[0] + box[2], int(np.ceil(hi0)) + 2)
        by1 = min(box[1] + box[3], int(np.ceil(hi1)) + 2)
        out = np.zeros((box[3], box[2], 4), np.float32)
        out[by0 - box[1]:by1 - box[1], bx0 - box[0]:bx1 - box[0]] = \
            render(ops, (bx0, by0, bx1 - bx0, by1 - by0), ss)
        return out

    def shade(t):
        P = pose_at(t)
        if kind == "wolf":
            return [(P["root"][0] - 4 * k, ground + 2, 78 * k, 7 * k, shadow[0], shadow[1])]
        lift = (ground - P["root"][1]) / k - 112.0  # pelvis above its standing height
        s = shadow[0] * float(np.clip(1 - max(lift, 0) / 60, 0.4, 1))
        return [(P["root"][0] + 4 * P["sx"] * k, ground + 2, 44 * k, 6 * k, s, shadow[1])]

    spec = {"name": name, "action": action, "size": size, "screen": screen, "wrap": wrap,
            "seed": seed, "box": box, "char": char, "shadow": shade, "notes": notes}
    spec.update(extra)
    return spec
