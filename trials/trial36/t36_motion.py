"""Trial 36: humanoid actions as poses over time (t in frames, a float for sub-frames).

Cycles: walk 24 frames a stride, run 16, idle 28 (two breaths in a 56-frame
clip); one-shot actions (attack, skill, hurt) by keyframes on the clip's length,
eased with smoothstep.  The pelvis is lifted so that the lower foot touches the
ground line: the body bobs as the legs swing.
"""

from __future__ import annotations

import numpy as np

from t36_rig import d

REST = {"lean": 0.03, "head": 0.0, "shN": 0.16, "elN": 0.3, "shF": -0.12, "elF": 0.22,
        "hipN": 0.1, "knN": 0.06, "hipF": -0.1, "knF": 0.06, "wrist": 0.0, "sway": 0.0}


def _ease(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def keyed(s: float, keys) -> dict:
    """Pose between keyframes [(s_i, {key: value}), ...]; missing keys from REST."""
    full = [(k, dict(REST, **v)) for k, v in keys]
    if s <= full[0][0]:
        return dict(full[0][1])
    for (s0, a), (s1, b) in zip(full, full[1:]):
        if s <= s1:
            w = _ease((s - s0) / max(s1 - s0, 1e-6))
            return {k: a[k] + (b[k] - a[k]) * w for k in a}
    return dict(full[-1][1])


def foot_drop(P, B) -> float:
    """How far below the pelvis the lower foot reaches (character space)."""
    ys = []
    for h, k in (("hipN", "knN"), ("hipF", "knF")):
        ys.append(d(P[h])[1] * B["thigh"] + d(P[h] - P[k])[1] * B["shin"] + B["leg_r"] * 0.75 + 2)
    return max(ys)


def pose(action: str, t: float, n: int, look, ground, x0, turn=None) -> dict:
    B = look["build"]
    k = look.get("scale", 1.0)
    P = dict(REST)
    dx = 0.0
    if action == "walk":
        ph = 2 * np.pi * t / 24.0
        s, c = np.sin(ph), np.cos(ph)
        P.update(hipN=0.42 * s, hipF=-0.42 * s, lean=0.07, head=0.03 * np.sin(2 * ph),
                 knN=0.08 + 0.75 * max(0.0, c) ** 1.4, knF=0.08 + 0.75 * max(0.0, -c) ** 1.4,
                 shN=0.06 - 0.38 * s, elN=0.25 + 0.2 * max(0.0, -s),
                 shF=0.38 * s - 0.02, elF=0.25 + 0.2 * max(0.0, s),
                 wrist=0.1 * s, sway=0.35 + 0.25 * np.sin(2 * ph - 1.0))
    elif action == "run":
        ph = 2 * np.pi * t / 16.0
        s, c = np.sin(ph), np.cos(ph)
        P.update(hipN=0.72 * s + 0.05, hipF=-0.72 * s + 0.05, lean=0.24,
                 knN=0.2 + 1.3 * max(0.0, c) ** 1.2, knF=0.2 + 1.3 * max(0.0, -c) ** 1.2,
                 shN=0.1 - 0.75 * s, elN=1.25, shF=0.75 * s + 0.1, elF=1.25,
                 head=-0.12 + 0.04 * np.sin(2 * ph), wrist=-0.5,
                 sway=0.75 + 0.25 * np.sin(2 * ph - 1.2))
    elif action == "idle":
        ph = 2 * np.pi * t / 28.0
        s = np.sin(ph)
        P.update(knN=0.1 + 0.09 * (1 + s), knF=0.1 + 0.09 * (1 + s), hipN=0.1 + 0.04 * (1 + s),
                 hipF=-0.1 + 0.04 * (1 + s), lean=0.03 + 0.035 * np.sin(ph - 0.6),
                 head=0.06 * np.sin(ph - 1.1), shN=0.2 + 0.08 * np.sin(ph - 0.5),
                 elN=0.35 + 0.1 * np.sin(ph - 0.9), shF=-0.12 - 0.1 * np.sin(ph - 0.4),
                 elF=0.25 + 0.12 * np.sin(ph - 0.8), wrist=0.06 * np.sin(ph - 1.3),
                 sway=0.15 + 0.25 * np.sin(ph - 1.5))
    else:
        s = t / max(n - 1, 1)
        P = keyed(s, KEYS[look.get("keys", action)])
        dx = P.pop("dx", 0.0) if "dx" in P else 0.0
    P["sx"] = 1.0
    if turn is not None:  # a turn that lasts: squash through a narrow width, then mirrored
        t0, T = turn
        c = np.cos(np.pi * np.clip((t - t0) / T, 0, 1))
        P["sx"] = c if abs(c) >= 0.3 else (0.3 if c >= 0 else -0.3)
    drop = foot_drop(P, B)
    if action == "run":
        drop += 7 * abs(np.sin(2 * np.pi * t / 16.0 + 0.3))  # flight phase
    P["root"] = np.array([x0 + dx * k, ground - drop * k])
    return P


KEYS = {
    "attack": [  # an overhead cut: the arm goes back and up, then over the top
        (0.0, {}),
        (0.08, {}),
        (0.34, dict(shN=-2.35, elN=0.25, wrist=0.1, lean=-0.14, hipN=0.32, knN=0.25, hipF=-0.3,
                    knF=0.15, shF=0.35, elF=0.5, head=-0.08, sway=-0.2, dx=-6.0)),
        (0.38, dict(shN=-2.5, elN=0.3, wrist=0.1, lean=-0.16, hipN=0.34, knN=0.28, hipF=-0.3,
                    knF=0.16, shF=0.4, elF=0.5, head=-0.1, sway=-0.3, dx=-7.0)),
        (0.47, dict(shN=1.15 - 2 * np.pi, elN=0.05, wrist=0.1, lean=0.32, hipN=0.5, knN=0.45,
                    hipF=-0.45, knF=0.1, shF=-0.6, elF=0.6, head=0.1, sway=0.9, dx=12.0)),
        (0.66, dict(shN=1.05 - 2 * np.pi, elN=0.1, wrist=0.1, lean=0.28, hipN=0.48, knN=0.42,
                    hipF=-0.42, knF=0.1, shF=-0.5, elF=0.6, head=0.08, sway=0.5, dx=12.0)),
        (1.0, dict(shN=REST["shN"] - 2 * np.pi, dx=4.0, sway=0.1)),
    ],
    "skill": [  # staff raised overhead (the arms come up in front), then thrust forward
        (0.0, {}),
        (0.1, {}),
        (0.35, dict(shN=2.85, elN=0.2, shF=2.6, elF=0.3, lean=-0.1, knN=0.55, knF=0.5,
                    hipN=0.3, hipF=0.05, head=-0.25, wrist=-2.9, sway=0.6)),
        (0.5, dict(shN=2.95, elN=0.1, shF=2.75, elF=0.2, lean=-0.16, knN=0.1, knF=0.1,
                   hipN=0.15, hipF=-0.15, head=-0.3, wrist=-2.95, sway=0.9)),
        (0.62, dict(shN=1.35, elN=0.05, shF=0.9, elF=0.4, lean=0.25, knN=0.4, knF=0.1,
                    hipN=0.45, hipF=-0.35, head=0.05, wrist=-2.55, sway=1.0, dx=8.0)),
        (0.82, dict(shN=1.3, elN=0.08, shF=0.85, elF=0.4, lean=0.22, knN=0.38, knF=0.1,
                    hipN=0.43, hipF=-0.33, head=0.05, wrist=-2.5, sway=0.6, dx=8.0)),
        (1.0, dict(dx=3.0, sway=0.2)),
    ],
    "hurt": [
        (0.0, {}),
        (0.06, {}),
        (0.2, dict(lean=-0.38, head=-0.45, shN=0.7, elN=1.0, shF=-0.75, elF=0.8, hipN=0.35,
                   knN=0.4, hipF=-0.05, knF=0.25, wrist=-0.4, sway=-0.8, dx=-16.0)),
        (0.38, dict(lean=-0.28, head=-0.3, shN=0.55, elN=0.9, shF=-0.5, elF=0.7, hipN=0.25,
                    knN=0.45, hipF=-0.15, knF=0.3, wrist=-0.3, sway=-0.4, dx=-20.0)),
        (1.0, dict(lean=0.08, head=0.05, shN=0.25, elN=0.4, knN=0.15, knF=0.12, dx=-18.0,
                   sway=0.1)),
    ],
}
for _k in KEYS.values():
    for _s, _v in _k:
        _v.setdefault("dx", 0.0)
REST["dx"] = 0.0
