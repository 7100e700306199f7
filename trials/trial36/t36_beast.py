"""Trial 36: a four-legged creature (a wolf) as draw ops, and its gaits.

Built like t36_rig's humanoid: its own space (x forward, y down, the middle of
the back at the origin), mapped to the screen by t36_rig.Xf.
"""

from __future__ import annotations

import numpy as np

from t36_rig import Xf, d, _strands


def wolf(P, look) -> list:
    xf = Xf(P["root"], P["sx"], look.get("scale", 1.0))
    st = look["style"]
    far = dict(st, dark=st.get("dark", 1.0) * 0.78)
    fur, belly, dark = look["fur"], look["belly"], look["nose"]
    pitch = P["pitch"]
    R = np.array([[np.cos(pitch), -np.sin(pitch)], [np.sin(pitch), np.cos(pitch)]])

    def body(q):
        return R @ np.asarray(q, np.float64)

    sh, hp = body((52, 4)), body((-50, 2))
    ops = []

    def leg(top, a, k, style, hind):
        L1, L2 = 36.0, 38.0
        kn = top + d(a) * L1
        bend = k if hind else -k
        ft = kn + d(a + bend) * L2
        return [xf.cap(top, kn, 11 if hind else 9.5, 6.5, fur, style),
                xf.cap(kn, ft, 6.0, 4.5, fur, style),
                xf.ell(ft + np.array([4.5, 1.0]), 7.5, 4.0, 0.0, fur, style)]

    # tail: three segments waving, fur tufts at the tip
    base = body((-68, -8))
    a = -2.0 + 0.25 * np.sin(P["tail"])
    p1 = base + d(a) * 22
    p2 = p1 + d(a - 0.35 + 0.2 * np.sin(P["tail"] - 0.8)) * 22
    p3 = p2 + d(a - 0.6 + 0.25 * np.sin(P["tail"] - 1.6)) * 18
    ops += [xf.cap(base, p1, 8, 9, fur, far), xf.cap(p1, p2, 9, 8, fur, st),
            xf.cap(p2, p3, 8, 3, look.get("tip", fur), st)]
    ops.append(xf.lines(_strands(p3, 14, 12, -2.4 + 0.3 * np.sin(P["tail"]), 0.3, 5, 4.0, 0.2),
                        look.get("strand_w", 0.7), look.get("tip", fur), dict(st, outline=0)))
    ops += leg(hp + body((-6, 0)), P["hF"], P["hkF"], far, True)
    ops += leg(sh + body((-5, 0)), P["fF"], P["fkF"], far, False)
    ops.append(xf.ell(body((0, 0)), 66, 27, pitch, fur, st))
    ops.append(xf.ell(body((-6, 16)), 48, 12, pitch, belly, st))
    ops.append(xf.ell(body((40, 2)), 30, 30, pitch, fur, st))
    # back fur tufts
    tufts = []
    for i in range(18):
        q = body((-50 + i * 5.5, -24 - 2 * np.sin(i)))
        tufts.append([q, q + d(-2.6 - 0.2 * np.sin(i * 1.7)) * (7 + 3 * np.sin(i * 2.3))])
    ops.append(xf.lines(tufts, look.get("strand_w", 0.7), fur, dict(st, outline=0)))
    ops += leg(hp, P["hN"], P["hkN"], st, True)
    # neck and head
    nb = body((58, -10))
    hd = nb + d(np.pi * 0.62 + P["head"]) * 30
    ops.append(xf.cap(nb, hd, 20, 15, fur, st))
    ha = P["head"]
    ax = d(np.pi / 2 + 0.25 + ha)
    ops.append(xf.ell(hd, 19, 16, 0.2 + ha, fur, st))
    snout0 = hd + ax * 8
    snout1 = hd + ax * 30 + np.array([0, 4])
    jaw = P.get("jaw", 0.0)
    ops.append(xf.cap(snout0 + np.array([0, 6]), snout1 + np.array([-2, 6 + 10 * jaw]), 7, 4,
                      belly, st))
    ops.append(xf.cap(snout0, snout1, 10, 6, fur, st))
    ops.append(xf.ell(snout1 + ax * 2, 4.2, 3.6, 0.0, dark, dict(st, spec=0.4)))
    ops.append(xf.ell(hd + np.array([6, -5]), 3.2, 2.4, 0.3, (250, 210, 80),
                      dict(st, mode="flat", tex=0.0, outline=0)))
    for k, sty in ((-7, far), (0, st)):
        e0 = hd + np.array([k - 6, -10])
        ops.append(xf.poly([e0, e0 + np.array([-6, -20 + 3 * np.sin(P["tail"])]),
                            e0 + np.array([8, -4])], fur, sty))
    ops += leg(sh, P["fN"], P["fkN"], st, False)
    return ops


def wolf_pose(action: str, t: float, n: int, root0, rng_phase=0.0) -> dict:
    """Pose at frame time t (float, frames) of a clip of n frames."""
    P = {"root": np.array(root0, np.float64), "sx": 1.0, "head": 0.0, "jaw": 0.0}
    if action == "run":  # a gallop, 14 frames a stride
        ph = 2 * np.pi * t / 14.0 + rng_phase
        P["pitch"] = 0.07 * np.sin(ph)
        P["root"] = P["root"] + [0, -9 * np.sin(ph + 0.4) ** 2 + 4]
        for key, off, amp in (("fN", 0.0, 0.75), ("fF", 0.5, 0.75),
                              ("hN", 2.6, 0.7), ("hF", 3.1, 0.7)):
            P[key] = amp * np.sin(ph + off) + (0.05 if key[0] == "f" else -0.05)
            P[key[0] + "k" + key[1]] = 0.55 + 0.5 * np.sin(ph + off + 1.2)
        P["head"] = 0.08 * np.sin(ph + 1.0)
        P["jaw"] = 0.3 + 0.2 * np.sin(ph)
        P["tail"] = ph * 1.0
    else:  # walk: a four-beat gait, 24 frames a stride
        ph = 2 * np.pi * t / 24.0 + rng_phase
        P["pitch"] = 0.02 * np.sin(2 * ph)
        P["root"] = P["root"] + [0, -3 * np.abs(np.sin(ph))]
        for key, off in (("fN", 0.0), ("hF", 1.57), ("fF", 3.14), ("hN", 4.71)):
            P[key] = 0.4 * np.sin(ph + off)
            P[key[0] + "k" + key[1]] = 0.35 + 0.3 * np.sin(ph + off + 1.3)
        P["head"] = 0.05 * np.sin(2 * ph)
        P["tail"] = ph
    return P
