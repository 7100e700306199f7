"""Trial 38 motions: pose dicts (bone -> degrees, plus root, sx, sway) as functions of
a fractional frame time, so sub-frame renders can sample them. Every motion starts from
the rest pose at frame 0 (the portrait) and eases into its cycle over a few frames."""

from __future__ import annotations

import numpy as np

REST = dict(arm_f=-8.0, fore_f=-22.0, arm_b=7.0, fore_b=-16.0, thigh_f=-5.0, thigh_b=5.0,
            shin_f=3.0, shin_b=3.0, foot_f=1.0, foot_b=-4.0)


def smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def ramp(t, t1=5.0):
    return float(smooth(t / t1))


def grounded(pose, meta, lift=0.0):
    """Put the lower foot on the ground line: root y from the legs' vertical reach."""
    Lth, Lsh = meta["Lth"], meta["Lsh"]
    reach = []
    for s in "fb":
        th = np.radians(pose.get("thigh_" + s, 0.0) + pose.get("rot", 0.0) + pose.get("torso_hip", 0.0))
        sh = np.radians(pose.get("shin_" + s, 0.0))
        reach.append(Lth * np.cos(th) + Lsh * np.cos(th + sh))
    rx, _ = pose.get("root", (0.0, 0.0))
    pose["root"] = (rx, (Lth + Lsh) - max(reach) - lift)
    return pose


def with_rest(delta, a, base=REST):
    out = dict(base)
    for k, v in delta.items():
        if k in ("root", "sx", "sy", "sway", "rot"):
            out[k] = v
        else:
            out[k] = out.get(k, 0.0) * (1 - a) + v * a if k in base else v * a
    return out


def walk(t, meta, period=24.0, run=False, amp=1.0):
    a = ramp(t) * amp
    ph = 2 * np.pi * t / period
    s, c = np.sin(ph), np.cos(ph)
    if run:
        th, kn, ar, fo, lean = 38, 85, 38, -75, 11
    else:
        th, kn, ar, fo, lean = 24, 42, 20, -16, 4
    d = dict(thigh_f=-th * s, thigh_b=th * s,
             shin_f=6 + kn * max(0.0, c) ** 1.4, shin_b=6 + kn * max(0.0, -c) ** 1.4,
             arm_f=ar * s, arm_b=-ar * s,
             fore_f=fo - 14 * max(0.0, -s), fore_b=fo - 14 * max(0.0, s),
             torso=lean + 1.5 * np.cos(2 * ph), head=-lean * 0.5 - np.cos(2 * ph),
             weapon=6 * s, offhand=0.0)
    pose = with_rest(d, a)
    for sd in "fb":
        pose["foot_" + sd] = -0.55 * (pose["thigh_" + sd] + pose["shin_" + sd]) + (
            8 * a if run else 0.0)
    pose["sway"] = a * (0.5 + 0.5 * s if not run else 1.2 + 0.4 * s)
    if run:  # airborne at full stride, lowest as the legs cross: no foot is planted
        pose["root"] = (0.0, a * (2.5 - 3.5 * abs(s)))
        return pose
    return grounded(pose, meta)


def idle(t, meta, period=28.0, amp=1.0):
    a = ramp(t, 6.0) * amp
    ph = 2 * np.pi * t / period
    s, c = np.sin(ph), np.cos(ph)
    d = dict(arm_f=-10 + 7 * s, fore_f=-28 - 9 * s, arm_b=9 - 6 * s, fore_b=-18 + 6 * s,
             thigh_f=-5 - 2 * s, thigh_b=5 + 2 * s, shin_f=3 + 5 * (1 - c) / 2,
             shin_b=3 + 5 * (1 - c) / 2, torso=2 * s, head=-3 * s + 2 * c,
             weapon=8 * s, offhand=-6 * c)
    pose = with_rest(d, a)
    for sd in "fb":
        pose["foot_" + sd] = -(pose["thigh_" + sd] + pose["shin_" + sd])
    pose["sway"] = a * 0.5 * s
    return grounded(pose, meta)


def keyed(t, keys, meta=None, ground=True):
    """Interpolate key poses [(frame, {bone: deg}), ...] with eased segments; a key may
    give "ease": "lin" for a constant-speed (fast) segment into it."""
    frames = [k[0] for k in keys]
    if t <= frames[0]:
        pose = dict(keys[0][1])
    elif t >= frames[-1]:
        pose = dict(keys[-1][1])
    else:
        i = int(np.searchsorted(frames, t, side="right")) - 1
        (f0, p0), (f1, p1) = keys[i], keys[i + 1]
        x = (t - f0) / (f1 - f0)
        x = x if p1.get("ease") == "lin" else float(smooth(x))
        pose = {}
        for k in set(p0) | set(p1):
            if k == "ease":
                continue
            v0, v1 = p0.get(k, REST.get(k, 0.0)), p1.get(k, REST.get(k, 0.0))
            if isinstance(v0, tuple):
                pose[k] = tuple(np.array(v0) * (1 - x) + np.array(v1) * x)
            else:
                pose[k] = v0 * (1 - x) + v1 * x
    pose.pop("ease", None)
    out = dict(REST)
    out.update(pose)
    if meta is not None and ground:
        for sd in "fb":
            if "foot_" + sd not in pose:
                out["foot_" + sd] = -(out["thigh_" + sd] + out["shin_" + sd]) * 0.8
        lift = out.pop("lift", 0.0)
        rx = out.get("root", (0.0, 0.0))[0]
        out["root"] = (rx, 0.0)
        grounded(out, meta, lift)
        out["root"] = (rx + out.get("dx", 0.0), out["root"][1])
    return out


def turned(pose, t, t0, dur):
    """A turn that lasts: the figure narrows through its edge-on view and stays mirrored."""
    x = np.clip((t - t0) / dur, 0, 1)
    sx = float(np.cos(np.pi * smooth(x)))
    if abs(sx) < 0.12:
        sx = 0.12 if sx >= 0 else -0.12
    pose["sx"] = sx * pose.get("sx", 1.0)
    return pose


def gallop(t, period=12.0):
    """Quadruped rotary gallop; bones leg_{fh,bh,ff,bf}_{1,2,3}, body pitch, tail, head."""
    a = ramp(t, 4.0)
    ph = 2 * np.pi * t / period
    pose = {}
    for leg, off in (("ff", 0.0), ("bf", 0.55), ("fh", 2.6), ("bh", 3.2)):
        s, c = np.sin(ph + off), np.cos(ph + off)
        hind = leg.endswith("h")
        pose[f"leg_{leg}_1"] = a * (38 * s) + (8 if hind else -4)
        pose[f"leg_{leg}_2"] = a * ((-55 if hind else 60) * max(0.0, c) ** 1.3) + (-18 if hind else 10)
        pose[f"leg_{leg}_3"] = a * ((40 if hind else -30) * max(0.0, c)) + (10 if hind else -6)
    pose["rot"] = a * 5 * np.sin(ph + 1.2)
    pose["root"] = (0.0, -a * 4.0 * max(0.0, np.sin(ph + 0.4)))
    pose["neck"] = a * 8 * np.sin(ph + 2.0)
    pose["head"] = -a * 6 * np.sin(ph + 2.0)
    for k in range(1, 5):
        pose[f"tail_{k}"] = a * 9 * np.sin(ph - 0.8 * k)
    pose["jaw"] = a * 6 * (1 + np.sin(ph))
    pose["ear"] = a * 8 * np.sin(ph)
    return pose
