"""Trial 36: jointed characters as draw ops (see t36_draw).

A character is built in its own space (x forward, y down, pelvis at the origin,
sizes in clip pixels at scale 1) and mapped to the screen by
    X = root_x + sx * scale * x,  Y = root_y + scale * y,
sx = +-1 the facing (a turn squashes it through a narrow width and flips it).
Angles are measured from straight down, positive toward the facing direction.
"""

from __future__ import annotations

import numpy as np


def d(a):  # unit vector of an angle measured from straight down
    return np.array([np.sin(a), np.cos(a)], np.float64)


class Xf:
    """Character space -> screen."""

    def __init__(self, root, sx, scale):
        self.root = np.asarray(root, np.float64)
        self.sx, self.k = float(sx), float(scale)

    def p(self, q):
        q = np.asarray(q, np.float64)
        return self.root + np.array([self.sx, 1.0]) * q * self.k

    def cap(self, p0, p1, r0, r1, col, st):
        f = self.k * max(abs(self.sx), 0.6) ** 0.5
        return ("cap", self.p(p0), self.p(p1), r0 * f, r1 * f, col, st)

    def ell(self, c, a, b, ang, col, st):
        R = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        M = np.diag([self.sx * self.k, self.k]) @ R @ np.diag([a, b])
        U, S, _ = np.linalg.svd(M)
        ang2 = np.arctan2(U[1, 0], U[0, 0])
        return ("ell", self.p(c), max(S[0], 0.3), max(S[1], 0.3), ang2, col, st)

    def poly(self, pts, col, st):
        return ("poly", np.array([self.p(q) for q in pts]), col, st)

    def lines(self, ls, width, col, st):
        return ("lines", [np.array([self.p(q) for q in l]) for l in ls], width * self.k, col, st)


def _strands(anchor, n, length, lean, sway, seed, spread, curl=0.0):
    """n hair strands hanging from around `anchor`, bending back with `lean`."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        off = np.array([rng.uniform(-spread, spread * 0.4), rng.uniform(-spread * 0.5, spread * 0.3)])
        L = length * rng.uniform(0.7, 1.15)
        ph = rng.uniform(0, 6.28)
        pts, p = [], np.asarray(anchor, np.float64) + off
        for k in range(7):
            s = k / 6
            a = lean + sway * s * s + curl * np.sin(3 * s + ph) * s
            pts.append(p.copy())
            p = p + d(a) * (L / 6)
        out.append(pts)
    return out


def humanoid(P, look, part="all") -> list:
    """Draw ops of a humanoid for pose dict P and look dict L (colours, style, gear);
    part="arm": only the near arm and its weapon (for drawn multiples)."""
    xf = Xf(P["root"], P["sx"], look.get("scale", 1.0))
    st = look["style"]
    far = dict(st, dark=st.get("dark", 1.0) * 0.8)
    B = look["build"]
    up = np.array([np.sin(P["lean"]), -np.cos(P["lean"])])  # torso axis; lean > 0 forward
    pel = np.zeros(2)
    neck = pel + up * B["torso"]
    shoulder = pel + up * B["torso"] * 0.86
    head_up = np.array([np.sin(P["lean"] + P["head"]), -np.cos(P["lean"] + P["head"])])
    head = neck + head_up * B["head"] * 1.05
    ops = []
    # the arm and leg of the far side first
    def arm(sh, a, e, style, near):
        el = sh + d(a) * B["uarm"]
        ha = el + d(a + e) * B["farm"]
        o = [xf.cap(sh, el, B["arm_r"], B["arm_r"] * 0.85, look["sleeve"], style),
             xf.cap(el, ha, B["arm_r"] * 0.85, B["arm_r"] * 0.7, look["skin"], style),
             xf.ell(ha + d(a + e) * 2, B["arm_r"] * 0.95, B["arm_r"] * 0.8, 0.0, look["skin"], style)]
        return o, ha, a + e

    def leg(hp, a, k, style):
        kn = hp + d(a) * B["thigh"]
        an = kn + d(a - k) * B["shin"]
        toe = an + np.array([B["foot"], 2.0])
        return [xf.cap(hp, kn, B["leg_r"], B["leg_r"] * 0.85, look["pants"], style),
                xf.cap(kn, an, B["leg_r"] * 0.85, B["leg_r"] * 0.7, look["pants"], style),
                xf.cap(an + np.array([-2.0, 1.0]), toe, B["leg_r"] * 0.75, B["leg_r"] * 0.55,
                       look["boots"], style)]

    if look.get("cape"):
        sw = P.get("sway", 0.0)
        cb = shoulder + np.array([-B["chest"] * 0.7, 2])
        ops.append(xf.poly([shoulder + np.array([-2, -5]), cb,
                            cb + np.array([-20 - 22 * sw, B["torso"] * 1.9]),
                            np.array([-10 - 16 * sw, B["thigh"] * 1.45]),
                            np.array([2, B["thigh"] * 0.6])],
                           look["cape"], dict(st, dark=0.85 * st.get("dark", 1.0))))
    if look.get("strands"):
        ops.append(xf.lines(_strands(head + np.array([-B["head"] * 0.55, -B["head"] * 0.2]),
                                     look["strands"], B["head"] * look.get("hair_len", 2.4),
                                     -0.35 - 0.5 * P.get("sway", 0.0) - 0.4 * P["lean"],
                                     -0.25 - 0.35 * P.get("sway", 0.0), look.get("seed", 1),
                                     B["head"] * 0.5, 0.12),
                            look.get("strand_w", 0.6), look["hair"], dict(st, outline=0.0)))
    o, _, _ = arm(shoulder + np.array([-3, 0]), P["shF"], P["elF"], far, False)
    ops += o
    ops += leg(pel + np.array([-3, 0]), P["hipF"], P["knF"], far)
    # torso: hips, chest, belt
    ops.append(xf.ell(pel + np.array([0, 2]), B["chest"] * 0.9, B["leg_r"] * 1.5, 0.0,
                      look["pants"], st))
    ops.append(xf.cap(pel + up * 6, shoulder, B["chest"] * 0.8, B["chest"], look["shirt"], st))
    if look.get("belt"):
        ops.append(xf.cap(pel + up * 8 + np.array([-B["chest"] * 0.75, 0]),
                          pel + up * 8 + np.array([B["chest"] * 0.75, 0]), 3.2, 3.2,
                          look["belt"], st))
    ops += leg(pel + np.array([3, 0]), P["hipN"], P["knN"], st)
    ops.append(xf.cap(neck - up * 6, neck + head_up * 4, B["head"] * 0.32, B["head"] * 0.3,
                      look["skin"], st))
    # hair mass behind, head, face toward the front, fringe
    ops.append(xf.ell(head + np.array([-B["head"] * 0.22, -B["head"] * 0.15]), B["head"] * 1.02,
                      B["head"] * 0.98, 0.0, look["hair"], st))
    ops.append(xf.ell(head, B["head"] * 0.86, B["head"], 0.0, look["skin"], st))
    ops.append(xf.cap(head + np.array([B["head"] * 0.8, 0.05 * B["head"]]),
                      head + np.array([B["head"] * 0.98, 0.25 * B["head"]]), 2.2, 1.6,
                      look["skin"], dict(st, outline=0.0)))
    ops.append(xf.ell(head + np.array([B["head"] * 0.45, -0.08 * B["head"]]), 2.3, 3.2, 0.0,
                      (30, 24, 28), dict(st, mode="flat", outline=0.0, tex=0.0)))
    ops.append(xf.poly([head + B["head"] * np.array(q) for q in
                        [(-0.9, -0.3), (-0.6, -1.0), (0.2, -1.08), (0.8, -0.6), (0.2, -0.55),
                         (-0.5, -0.45)]], look["hair"], st))
    if look.get("helmet"):
        ops.append(xf.ell(head + np.array([0, -B["head"] * 0.35]), B["head"] * 1.0,
                          B["head"] * 0.72, 0.0, look["helmet"], dict(st, spec=0.35)))
    o, hand, fa = arm(shoulder + np.array([3, 0]), P["shN"], P["elN"], st, True)
    w = look.get("weapon")
    arm_ops = weapon(xf, hand, fa + P.get("wrist", 0.0) + look.get("grip", 0.0), w, st) if w else []
    arm_ops += o
    return arm_ops if part == "arm" else ops + arm_ops


def weapon(xf, hand, ang, w, st) -> list:
    kind, L = w["kind"], w["len"]
    ax = d(ang)
    pr = np.array([-ax[1], ax[0]])
    steel = dict(st, spec=0.45, tex=0.0)
    if kind == "sword":
        base = hand + ax * 7
        hw = w.get("width", 4.5)
        tip = base + ax * L
        blade = [base + pr * hw, base + ax * L * 0.8 + pr * hw * 0.8, tip,
                 base + ax * L * 0.8 - pr * hw * 0.8, base - pr * hw]
        return [xf.poly(blade, w["col"], steel),
                xf.cap(hand + ax * 6 + pr * 11, hand + ax * 6 - pr * 11, 2.6, 2.6, w["guard"], st),
                xf.cap(hand - ax * 8, hand + ax * 5, 2.4, 2.4, w["guard"], st)]
    if kind == "spear":
        tip = hand + ax * L
        head = [tip - ax * 26 + pr * 6, tip, tip - ax * 26 - pr * 6, tip - ax * 20]
        return [xf.cap(hand - ax * L * 0.35, tip - ax * 22, 2.4, 2.4, w["shaft"], st),
                xf.poly(head, w["col"], steel)]
    # staff with a gem
    top = hand + ax * L
    return [xf.cap(hand - ax * L * 0.25, top, 3.0, 2.6, w["shaft"], st),
            xf.ell(top + ax * 7, 7.5, 9.5, 0.0, w["col"], dict(st, spec=0.5))]
