"""Motions for the procedural humanoid, as functions of the frame time t (float, so
sub-frames give motion blur). Frame 0 is the rest pose, the portrait's pose, and each
motion eases in from it over the first frames as a model's clip does."""

from __future__ import annotations

import numpy as np

from t35_figure import Pose


def ease(t: float, t0: float, t1: float) -> float:
    u = np.clip((t - t0) / max(t1 - t0, 1e-6), 0, 1)
    return float(u * u * (3 - 2 * u))


def rest(x: float, ground: float) -> Pose:
    return Pose(x, ground, thigh=(0.08, -0.08), knee=(0.05, 0.05), arm=(0.12, -0.1),
                elbow=(0.25, 0.2))


def walk(t: float, x: float, ground: float, period: float = 18.0, amp: float = 1.0,
         facing: float = 1.0) -> Pose:
    k = ease(t, 0, 5) * amp
    ph = 2 * np.pi * t / period
    s, c = np.sin(ph), np.cos(ph)
    thigh = (0.08 + k * 0.42 * s, -0.08 - k * 0.42 * s)
    knee = (0.05 + k * 0.55 * max(0.0, -np.sin(ph - 0.9)), 0.05 + k * 0.55 * max(0.0, np.sin(ph - 0.9)))
    arm = (0.12 - k * 0.45 * s, -0.1 + k * 0.45 * s)
    elbow = (0.25 + k * 0.2 * (1 - s), 0.2 + k * 0.2 * (1 + s))
    return Pose(x, ground, bob=0.0, lean=0.05 * k, thigh=thigh, knee=knee,
                arm=arm, elbow=elbow, head=0.03 * np.sin(ph * 2), hair_sway=0.25 * np.sin(ph - 1.0) * k,
                hem=0.5 * s * k, facing=facing)


def run(t: float, x: float, ground: float, period: float = 12.0) -> Pose:
    k = ease(t, 0, 4)
    ph = 2 * np.pi * t / period
    s, c = np.sin(ph), np.cos(ph)
    thigh = (0.08 + k * (0.35 + 0.75 * s), -0.08 + k * (0.35 - 0.75 * s))
    knee = (0.05 + k * (0.9 + 0.7 * np.sin(ph + 1.4)), 0.05 + k * (0.9 - 0.7 * np.sin(ph + 1.4)))
    arm = (0.12 - k * 0.95 * s, -0.1 + k * 0.95 * s)
    elbow = (0.25 + k * 1.3, 0.2 + k * 1.3)
    return Pose(x, ground, bob=k * 10.0 * max(0.0, np.cos(2 * ph)), lean=0.22 * k, thigh=thigh, knee=knee,
                arm=arm, elbow=elbow, head=-0.1 * k, hair_sway=k * (0.5 + 0.3 * np.sin(ph - 1.2)),
                hem=0.8 * s * k)


def attack(t: float, n: int, x: float, ground: float) -> Pose:
    """Wind-up over 35 % of the clip, a slash in ~2 frames, a hold, a recovery."""
    t_w, t_s = 0.18 * n, 0.42 * n
    wind = ease(t, 2, t_w + 2) * (1 - ease(t, t_s, t_s + 2.0))
    strike = ease(t, t_s, t_s + 2.0) * (1 - ease(t, 0.75 * n, n - 2))
    p = rest(x, ground)
    arm0 = 0.12 + wind * 2.9 - strike * 0.6 * (1 - wind)
    arm1 = -0.1 - wind * 0.4 + strike * 0.5
    elbow0 = 0.25 + wind * 0.6 - strike * 0.15
    lean = -0.12 * wind + 0.28 * strike
    p.arm, p.elbow = (arm0, arm1), (elbow0, 0.4 + 0.5 * wind)
    p.thigh = (0.08 + 0.45 * strike, -0.08 - 0.35 * strike)
    p.knee = (0.05 + 0.4 * strike, 0.05 + 0.2 * strike)
    p.lean = lean  # no negative bob: it would sink the feet through the floor
    p.weapon = 0.4 + 0.9 * wind - 0.2 * strike
    p.hair_sway = 0.4 * wind - 0.6 * strike
    p.x = x + 14 * strike
    return p


def skill(t: float, n: int, x: float, ground: float) -> Pose:
    """Staff raised overhead, held while the hair lifts, then thrust forward."""
    up = ease(t, 2, 0.4 * n)
    out = ease(t, 0.62 * n, 0.72 * n)
    p = rest(x, ground)
    p.arm = (0.12 + up * 2.6 - out * 1.2, -0.1 + up * 2.2 - out * 2.0)
    p.elbow = (0.25 - up * 0.1, 0.2 + up * 0.3)
    p.weapon = -0.3 * up
    p.bob = 10 * up * (1 - out) + 3 * np.sin(2 * np.pi * t / 9) * up * (1 - out)
    p.hair_sway = 1.0 * up * (1 - out) + 0.2 * np.sin(2 * np.pi * t / 6) * up
    p.hem = 0.6 * up * np.sin(2 * np.pi * t / 7)
    p.lean = -0.08 * up + 0.2 * out
    p.thigh = (0.08 + 0.3 * out, -0.08 - 0.2 * out)
    return p


def hurt(t: float, n: int, x: float, ground: float) -> Pose:
    """Knocked back from frame 3: lean back, arms fly, a step back, a slow recovery."""
    hit = ease(t, 3, 5) * (1 - 0.7 * ease(t, 9, n - 1))
    p = rest(x, ground)
    p.lean = -0.45 * hit
    p.head = -0.35 * hit
    p.arm = (0.12 + 1.6 * hit, -0.1 + 1.2 * hit)
    p.elbow = (0.25 + 0.8 * hit, 0.2 + 0.9 * hit)
    p.thigh = (0.08 + 0.5 * hit, -0.08 - 0.3 * hit)
    p.knee = (0.05 + 0.6 * hit, 0.05 + 0.2 * hit)
    p.x = x - 22 * hit
    p.hair_sway = 0.9 * hit
    p.hem = 0.8 * hit
    return p


def idle(t: float, x: float, ground: float, period: float = 28.0) -> Pose:
    k = ease(t, 0, 6)
    ph = 2 * np.pi * t / period
    p = rest(x, ground)
    p.knee = (0.05 + 0.18 * k * (1 - np.cos(ph)) / 2, 0.05 + 0.18 * k * (1 - np.cos(ph)) / 2)
    p.thigh = (0.08 + 0.09 * k * (1 - np.cos(ph)) / 2, -0.08 + 0.09 * k * (1 - np.cos(ph)) / 2)
    p.arm = (0.12 + 0.25 * k * np.sin(ph), -0.1 - 0.2 * k * np.sin(ph))
    p.elbow = (0.25 + 0.3 * k * (1 - np.cos(ph)), 0.2 + 0.2 * k * (1 - np.cos(ph)))
    p.head = 0.08 * k * np.sin(ph + 0.7)
    p.hair_sway = 0.3 * k * np.sin(ph - 0.8)
    p.hem = 0.4 * k * np.sin(ph - 0.5)
    return p


def turn_facing(t: float, t0: float, dur: float = 6.0) -> float:
    """+1 before t0, a squash through 0, -1 from t0+dur on (the turn lasts)."""
    u = ease(t, t0, t0 + dur)
    return float(np.cos(np.pi * u))
