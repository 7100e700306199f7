"""Trial 37 motions: loops (idle, walk, run) eased in from the rest pose over the first
frames, as a model leaves its input image, and keyframed one-shots (thrust, slash, chop,
cast, hurt). Angles add to the rest pose; 0 points a limb down, + swings it back."""
from __future__ import annotations

import math

PI = math.pi
ARM_N = ("pelvis", "torso", "uarm_n", "farm_n", "hand_n")


def smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def keyed(keys, u):
    """Smoothstep between keyframes [(u, {name: value})]; names absent from a key are 0."""
    for (u0, a), (u1, b) in zip(keys, keys[1:]):
        if u <= u1:
            s = smooth((u - u0) / max(u1 - u0, 1e-9))
            return {k: a.get(k, 0.0) * (1 - s) + b.get(k, 0.0) * s for k in set(a) | set(b)}
    return dict(keys[-1][1])


def loop(kind, t, period, amp=1.0):
    ph = 2 * PI * t / period
    s, c = math.sin(ph), math.cos(ph)
    if kind == "idle":
        return {"dx": 1.6 * s, "dy": 1.2 * math.sin(2 * ph), "torso": 0.025 * s, "head": 0.035 * math.sin(ph + 1),
                "uarm_n": 0.05 * s, "uarm_f": -0.04 * s, "farm_n": -0.06 * math.sin(ph + 0.5),
                "farm_f": -0.05 * s, "thigh_n": -0.02 * s, "thigh_f": 0.02 * s, "wind": 0.05 * s}
    big = kind == "run"
    A, K = (0.78, 1.35) if big else (0.42, 0.62)
    cn, cf = max(0.0, c), max(0.0, -c)
    p = {"thigh_n": -A * s, "thigh_f": A * s,
         "shin_n": 0.12 + K * cn ** 1.5, "shin_f": 0.12 + K * cf ** 1.5,
         "uarm_n": (0.75 if big else 0.34) * s, "uarm_f": -(0.75 if big else 0.34) * s,
         "farm_n": (-1.35 if big else -0.25) - 0.2 * max(0.0, s),
         "farm_f": (-1.35 if big else -0.25) - 0.2 * max(0.0, -s),
         "torso": 0.22 if big else 0.04, "head": (-0.12 if big else -0.02) + 0.03 * math.sin(2 * ph),
         "dy": (-7.0 if big else -2.8) * math.cos(2 * ph) - (4 if big else 0),
         "wind": (0.55 if big else 0.16) + 0.08 * math.sin(2 * ph)}
    p["foot_n"] = -0.7 * (p["thigh_n"] + p["shin_n"]) + (0.3 * cn if big else 0)
    p["foot_f"] = -0.7 * (p["thigh_f"] + p["shin_f"]) + (0.3 * cf if big else 0)
    return {k: v * amp for k, v in p.items()}


THRUST = [(0, {"wpn": 0.05}), (0.12, {"wpn": 0.05}),
          (0.36, {"uarm_n": 0.75, "farm_n": -1.9, "wpn": PI / 2 - 0.15, "torso": -0.12, "dx": -8,
                  "thigh_n": -0.3, "thigh_f": 0.3, "shin_n": 0.3, "uarm_f": -0.4, "wind": 0.1}),
          (0.47, {"uarm_n": -1.42, "farm_n": -0.12, "wpn": PI / 2 + 0.05, "torso": 0.3, "dx": 24,
                  "thigh_n": -0.65, "shin_n": 0.55, "thigh_f": 0.5, "shin_f": 0.15, "uarm_f": 0.7,
                  "foot_n": 0.3, "wind": 0.5}),
          (0.64, {"uarm_n": -1.3, "farm_n": -0.2, "wpn": PI / 2 + 0.1, "torso": 0.24, "dx": 22,
                  "thigh_n": -0.6, "shin_n": 0.5, "thigh_f": 0.45, "shin_f": 0.15, "uarm_f": 0.5, "wind": 0.3}),
          (1.0, {"uarm_n": -0.3, "farm_n": -0.9, "wpn": 0.25, "dx": 6, "thigh_n": -0.2, "thigh_f": 0.1,
                 "wind": 0.1})]


BODY = ("dx", "torso", "head", "thigh_n", "shin_n", "thigh_f", "shin_f", "uarm_f", "farm_f")


def slash(strike=0.08, start=0.42, weapon_rest=2.5, chop=False, body_lag=0.0):
    """Wind-up, strike, follow-through; with body_lag the body finishes its lunge that much
    later than the arm and blade (a whip-fast cut from a body that moves at its own pace)."""
    up = -0.3 if chop else -0.5
    down = 2.2 if chop else 1.9
    wind = {"uarm_n": 2.75, "farm_n": -0.45, "wpn": up, "torso": -0.18, "dx": -6, "thigh_f": 0.22,
            "uarm_f": -0.5, "farm_f": -0.8, "head": -0.1, "wind": 0.1}
    hit = {"uarm_n": -0.95, "farm_n": -0.15, "wpn": down, "torso": 0.36, "dx": 20, "thigh_n": -0.6,
           "shin_n": 0.6, "thigh_f": 0.5, "shin_f": 0.2, "uarm_f": 0.6, "head": 0.1, "wind": 0.6}
    follow = {"uarm_n": -0.5, "farm_n": -0.2, "wpn": down + 0.6, "torso": 0.3, "dx": 20, "thigh_n": -0.55,
              "shin_n": 0.55, "thigh_f": 0.45, "shin_f": 0.2, "uarm_f": 0.4, "wind": 0.25}
    keys = [(0, {"wpn": weapon_rest}), (0.14, {"wpn": weapon_rest}), (start, wind)]
    if body_lag:
        mid = dict(hit)
        for k in BODY:
            mid[k] = 0.6 * wind.get(k, 0.0) + 0.4 * hit.get(k, 0.0)
        keys += [(start + strike, mid), (start + strike + body_lag, hit)]
    else:
        keys.append((start + strike, hit))
    end = keys[-1][0]
    return keys + [(end + 0.16, follow),
                   (1.0, {"uarm_n": -0.2, "farm_n": -0.6, "wpn": weapon_rest - 0.1, "dx": 6,
                          "thigh_n": -0.15, "thigh_f": 0.1})]


CAST = [(0, {"orb": 0, "wpn": 0.03}), (0.1, {"orb": 0, "wpn": 0.03}),
        (0.3, {"shin_n": 0.35, "shin_f": 0.35, "thigh_n": -0.2, "thigh_f": -0.12, "dy": 7, "uarm_n": -0.6,
               "farm_n": -1.1, "uarm_f": -0.4, "farm_f": -1.3, "orb": 0.25, "torso": 0.08, "wpn": 0.1}),
        (0.58, {"uarm_n": -2.1, "farm_n": -0.3, "uarm_f": -1.9, "farm_f": -0.45, "dy": -4, "torso": -0.1,
                "head": -0.15, "orb": 1.0, "wind": 0.2, "wpn": 0.55}),
        (0.8, {"uarm_n": -1.5, "farm_n": -0.1, "uarm_f": -1.4, "farm_f": -0.2, "torso": 0.15, "dx": 8,
               "orb": 1.3, "wind": 0.4, "wpn": 0.75}),
        (1.0, {"uarm_n": -1.2, "farm_n": -0.3, "uarm_f": -1.0, "farm_f": -0.4, "torso": 0.1, "dx": 8,
               "orb": 0.8, "wind": 0.2, "wpn": 0.6})]

HURT = [(0, {}), (0.1, {}),
        (0.28, {"dx": -16, "torso": -0.42, "head": -0.35, "uarm_n": 0.9, "farm_n": -0.9, "uarm_f": 1.1,
                "farm_f": -0.5, "thigh_n": -0.35, "shin_n": 0.3, "thigh_f": 0.15, "shin_f": 0.35, "dy": 4,
                "wind": -0.3}),
        (0.55, {"dx": -20, "torso": -0.25, "head": -0.1, "thigh_n": -0.5, "shin_n": 0.8, "thigh_f": -0.1,
                "shin_f": 0.8, "dy": 10, "uarm_n": 0.4, "farm_n": -0.6, "uarm_f": 0.5, "wind": 0.1}),
        (1.0, {"dx": -18, "torso": -0.08, "thigh_n": -0.2, "shin_n": 0.35, "shin_f": 0.3, "dy": 4,
               "farm_n": -0.3})]

ONESHOTS = {"thrust": THRUST, "slash": slash(), "fastslash": slash(strike=0.035, start=0.44, body_lag=0.1),
            "chop": slash(strike=0.06, start=0.4, weapon_rest=0.3, chop=True, body_lag=0.06), "cast": CAST, "hurt": HURT}


def pose_fn(spec, rest, duration):
    """t (s) -> pose deltas for a case: spec = {"kind", "period", "amp", "ramp", "turn"}."""
    kind = spec["kind"]

    def at(t):
        if kind in ONESHOTS:
            p = keyed(ONESHOTS[kind], t / duration)
        else:
            amp = spec.get("amp", 1.0) * smooth(t / spec.get("ramp", 0.3))
            p = loop(kind, t, spec["period"], amp)
            swing = sum(p.get(b, 0.0) for b in ARM_N)  # a carried weapon keeps its angle, swaying
            p["wpn"] = sum(rest.get(b, 0.0) for b in ARM_N) + rest.get("weapon", 0.0) + 0.2 * swing
        if "wpn" in p:  # a weapon angle in the world: subtract what the arm already turns
            arm = sum(rest.get(b, 0.0) + p.get(b, 0.0) for b in ARM_N)
            p["weapon"] = p.pop("wpn") - arm - rest.get("weapon", 0.0)
        p["t"] = t
        return p
    return at
