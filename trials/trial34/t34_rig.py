"""Trial 34's jointed side-view characters: a skeleton posed by angles, drawn with the SDF
painter part by part (far limbs first, darker), with hair strands, weapons and a cape."""
from __future__ import annotations

import numpy as np

from t34_sdf import Capsule, Ellipse, Painter, Poly, Polyline

PI = np.pi
KEYS = ("x", "y", "lean", "head", "th_n", "kn_n", "th_f", "kn_f", "sh_n", "el_n", "sh_f",
        "el_f", "grip", "wind", "crouch")
REST = dict(x=0.0, y=0.0, lean=0.03, head=0.0, th_n=0.06, kn_n=0.08, th_f=-0.06, kn_f=0.06,
            sh_n=0.12, el_n=0.35, sh_f=-0.08, el_f=0.3, grip=0.5, wind=0.0, crouch=0.0)


def dirv(a, s=1):
    return np.array([s * np.sin(a), np.cos(a)], np.float32)


class Char:
    def __init__(self, spec):
        self.s = dict(spec)
        self.h = float(spec["height"])
        self.rng = np.random.default_rng(spec.get("seed", 1))
        n = spec.get("strands", 0)
        r = self.rng
        self.strands = [dict(a=r.uniform(-0.45, 1.95), L=r.uniform(*spec.get("strand_len", (0.12, 0.28))),
                             r=r.uniform(*spec.get("strand_r", (0.3, 0.75))), curl=r.uniform(-0.4, 0.4),
                             ph=r.uniform(0, 2 * PI), tone=r.uniform(0.8, 1.15)) for _ in range(n)]

    # ------------------------------------------------------------------ skeleton
    def joints(self, p, origin, facing=1):
        h, s = self.h, facing
        leg_th, leg_sh = 0.245 * h, 0.225 * h
        ox, oy = origin
        crouch = p.get("crouch", 0.0)
        hip = np.array([ox + s * p["x"] * h, oy - (leg_th + leg_sh + 0.035 * h) + p["y"] * h + crouch * 0.08 * h],
                       np.float32)
        J = {"hip": hip}
        tang = PI - p["lean"]
        neck = hip + 0.30 * h * dirv(tang, s)
        J["neck"] = neck
        J["shoulder"] = hip + 0.27 * h * dirv(tang, s)
        J["head"] = neck + (0.035 * h + self.s.get("head_r", 0.085) * h) * dirv(tang - p["head"], s)
        for side in ("n", "f"):
            th = p["th_" + side] + crouch * 0.5
            kn = p["kn_" + side] + crouch * 1.0
            knee = hip + leg_th * dirv(th, s)
            ankle = knee + leg_sh * dirv(th - kn, s)
            toe = ankle + 0.085 * h * dirv(th - kn + PI / 2 - 0.1, s)
            J["knee_" + side], J["ankle_" + side], J["toe_" + side] = knee, ankle, toe
            sh = p["sh_" + side]
            el = p["el_" + side]
            sho = J["shoulder"] + np.array([0, 0], np.float32)
            elbow = sho + 0.16 * h * dirv(sh, s)
            wrist = elbow + 0.145 * h * dirv(sh + el, s)
            J["elbow_" + side], J["wrist_" + side] = elbow, wrist
            J["fa_" + side] = sh + el
        return J

    def weapon_pts(self, p, J, facing=1):
        w = self.s.get("weapon")
        if not w:
            return None
        ang = J["fa_n"] + p["grip"]
        if self.s.get("weapon_angle") is not None:  # held at a fixed angle (a staff carried upright)
            ang = self.s["weapon_angle"] + 0.3 * p["lean"]
        d = dirv(ang, facing)
        hand = J["wrist_n"] + 0.02 * self.h * dirv(J["fa_n"], facing)
        L = self.s.get("weapon_len", 0.45) * self.h
        back = self.s.get("weapon_back", 0.06) * self.h
        return hand - d * back, hand, hand + d * L, d

    def tip(self, p, origin, facing=1):
        """Points whose speed sets how many sub-frames a frame needs."""
        J = self.joints(p, origin, facing)
        pts = [J["wrist_n"], J["wrist_f"], J["toe_n"], J["toe_f"], J["head"]]
        w = self.weapon_pts(p, J, facing)
        if w is not None:
            pts.append(w[2])
        return np.array(pts)

    # ------------------------------------------------------------------ drawing
    def draw(self, P: Painter, p, origin, facing=1, t=0.0):
        S, h = self.s, self.h
        J = self.joints(p, origin, facing)
        style = S.get("style", "shaded")
        kw = dict(style="flat" if style == "flat" else "shaded", spec=S.get("spec", 0.0))
        if style == "ink":
            kw.update(ink=S.get("ink", (22, 18, 26)), ink_w=S.get("ink_w", 1.6), cel=True)
            kw["style"] = "flat"
        if style == "flat":
            kw["cel"] = S.get("cel", False)
        tex = S.get("tex", 0.0)
        far = S.get("far_dim", 0.78)

        def draw(prim, col, dim=1.0, t_amt=None, seed=0, **extra):
            k = dict(kw)
            k.update(extra)
            P.draw(prim, col, dim=dim, tex=tex if t_amt is None else t_amt, tex_seed=seed, **k)

        cape = S.get("cape")
        if cape is not None:
            self._cape(draw, J, p, facing, t, cape)
        # far arm, far leg
        self._arm(draw, J, "f", far, facing)
        self._leg(draw, J, "f", far)
        # torso
        self._torso(draw, J, p, facing)
        self._leg(draw, J, "n", 1.0)
        self._head(draw, P, J, p, facing, t)
        self._arm(draw, J, "n", 1.0, facing)
        w = self.weapon_pts(p, J, facing)
        if w is not None:
            self._weapon(draw, w, facing)
        return J

    def _leg(self, draw, J, sd, dim):
        S, h = self.s, self.h
        pants, shoes = S["pants"], S["shoes"]
        draw(Capsule(J["hip"] + (0, -0.01 * h), J["knee_" + sd], 0.052 * h, 0.038 * h), pants, dim, seed=11)
        draw(Capsule(J["knee_" + sd], J["ankle_" + sd], 0.038 * h, 0.028 * h), S.get("shin", pants), dim, seed=12)
        draw(Capsule(J["ankle_" + sd] + (0, 0.005 * h), J["toe_" + sd], 0.03 * h, 0.022 * h), shoes, dim, seed=13)

    def _arm(self, draw, J, sd, dim, facing):
        S, h = self.s, self.h
        sleeve = S.get("sleeve", S["shirt"])
        draw(Capsule(J["shoulder"], J["elbow_" + sd], 0.036 * h, 0.029 * h), sleeve, dim, seed=21)
        draw(Capsule(J["elbow_" + sd], J["wrist_" + sd], 0.029 * h, 0.023 * h), S.get("forearm", S["skin"]), dim, seed=22)
        draw(Ellipse(J["wrist_" + sd] + 0.012 * h * dirv(J["fa_" + sd], facing), 0.03 * h, 0.026 * h, 0.0),
             S.get("glove", S["skin"]), dim, seed=23)

    def _torso(self, draw, J, p, facing):
        S, h = self.s, self.h
        hip, neck = J["hip"], J["neck"]
        ax = neck - hip
        ax = ax / (np.linalg.norm(ax) + 1e-6)
        fw = facing * np.array([-ax[1], ax[0]], np.float32)  # toward facing
        wb = S.get("build", 1.0)
        pts = [hip - fw * 0.075 * h * wb + ax * (-0.02 * h), hip + fw * 0.07 * h * wb + ax * (-0.02 * h),
               hip + ax * 0.17 * h + fw * 0.085 * h * wb, neck - ax * 0.02 * h + fw * 0.06 * h * wb,
               neck + ax * 0.005 * h - fw * 0.055 * h * wb, hip + ax * 0.15 * h - fw * 0.085 * h * wb]
        draw(Poly(pts, R=0.07 * h), S["shirt"], seed=31)
        if S.get("belt") is not None:
            draw(Capsule(hip - fw * 0.07 * h * wb, hip + fw * 0.068 * h * wb, 0.018 * h), S["belt"], seed=32)
        draw(Capsule(neck - ax * 0.02 * h, neck + ax * 0.03 * h, 0.032 * h), S["skin"], seed=33)

    def _head(self, draw, P, J, p, facing, t):
        S, h = self.s, self.h
        c = J["head"]
        r = S.get("head_r", 0.085) * h
        tilt = (PI - p["lean"] - p["head"])
        up = dirv(tilt, facing)
        fw = facing * np.array([-up[1], up[0]], np.float32)
        hair = S.get("hair")
        draw(Ellipse(c, r * 0.95, r, 0.0), S["skin"], seed=41)
        draw(Ellipse(c + fw * r * 0.9 - up * r * 0.05, r * 0.16, r * 0.12), S["skin"], seed=42)  # nose
        if hair is not None:
            hc = c + up * r * 0.36 - fw * r * 0.34
            draw(Ellipse(hc, r * 0.86, r * 0.72, float(np.arctan2(up[0], -up[1]))), hair, seed=43, t_amt=0.1)
        eye = c + fw * r * 0.52 - up * r * 0.02
        P.draw(Ellipse(eye, r * 0.11, r * 0.15), S.get("eye", (25, 22, 30)), style="flat")
        if S.get("hat") is not None:
            hat = S["hat"]
            P.draw(Poly([c + up * r * 0.55 - fw * r * 1.25, c + up * r * 0.55 + fw * r * 1.25,
                         c + up * r * 0.95 + fw * r * 0.5, c + up * r * 2.2 - fw * r * 0.3,
                         c + up * r * 0.95 - fw * r * 0.7], R=r * 0.4), hat, style="shaded",
                   tex=S.get("tex", 0.0), tex_seed=44)
        if self.strands:
            wind = p.get("wind", 0.0)
            for k, st in enumerate(self.strands):
                a0 = st["a"]
                root = c + r * 0.93 * (np.cos(a0) * (-fw) + np.sin(a0) * up)
                L = st["L"] * h
                sway = 0.25 * np.sin(2 * PI * t / 30.0 + st["ph"]) + st["curl"]
                pts = [root]
                for j in range(1, 5):
                    f = j / 4
                    ang = float(np.clip(1.35 - 0.85 * f + wind * 0.55 * f + 0.18 * sway, 0.05, 1.75))
                    dv = -fw * np.sin(ang) - up * np.cos(ang)
                    pts.append(pts[-1] + dv * L / 4)
                col = np.clip(np.asarray(hair, np.float32) * st["tone"], 0, 255)
                P.draw(Polyline(pts, st["r"] * 1.25, st["r"] * 0.6), col, style="flat")

    def _weapon(self, draw, w, facing):
        S, h = self.s, self.h
        back, hand, tipp, d = w
        kind = S["weapon"]
        metal = S.get("metal", (200, 204, 214))
        if kind in ("sword", "axe"):
            draw(Capsule(back, hand + d * 0.03 * h, 0.016 * h), S.get("grip_col", (70, 45, 30)), t_amt=0.0)
            perp = np.array([-d[1], d[0]], np.float32)
            g = hand + d * 0.035 * h
            draw(Capsule(g - perp * 0.05 * h, g + perp * 0.05 * h, 0.012 * h), S.get("guard", (170, 140, 60)), t_amt=0.0)
            if kind == "sword":
                draw(Capsule(g, tipp, 0.024 * h, S.get("tip_r", 0.3)), metal, t_amt=0.0, spec=0.5)
            else:
                draw(Capsule(g, tipp, 0.014 * h), S.get("grip_col", (70, 45, 30)), t_amt=0.0)
                hd = tipp - d * 0.05 * h
                draw(Poly([hd - perp * 0.02 * h, hd + perp * 0.13 * h - d * 0.06 * h,
                           hd + perp * 0.16 * h + d * 0.07 * h, hd + d * 0.04 * h], R=0.03 * h), metal,
                     t_amt=0.0, spec=0.4)
        else:  # spear or staff
            draw(Capsule(back, tipp - d * 0.08 * h, 0.014 * h, 0.012 * h), S.get("shaft", (120, 86, 50)), seed=51)
            if kind == "spear":
                draw(Capsule(tipp - d * 0.1 * h, tipp, 0.026 * h, S.get("tip_r", 0.25)), metal, t_amt=0.0, spec=0.5)
            else:
                draw(Ellipse(tipp - d * 0.05 * h, 0.04 * h, 0.04 * h), S.get("orb", (230, 200, 90)), t_amt=0.0,
                     spec=0.6)

    def _cape(self, draw, J, p, facing, t, col):
        h = self.h
        sh = J["shoulder"]
        back = np.array([-facing, 0], np.float32)
        wind = p.get("wind", 0.0)
        wave = 0.03 * h * np.sin(2 * PI * t / 18.0)
        L = 0.42 * h
        pts = [sh + back * 0.02 * h, sh - back * 0.05 * h,
               sh + np.array([0, L], np.float32) + back * (0.10 * h + wind * 0.25 * h) + (wave, 0),
               sh + np.array([0, L * 0.95], np.float32) + back * (0.22 * h + wind * 0.32 * h) + (wave * 1.5, 0),
               sh + back * 0.10 * h + np.array([0, 0.05 * h], np.float32)]
        draw(Poly(pts, R=0.05 * h), col, dim=0.9, seed=61)


# ---------------------------------------------------------------------- poses
def lerp_pose(a, b, w):
    return {k: a.get(k, REST[k]) * (1 - w) + b.get(k, REST[k]) * w for k in KEYS}


def keyframes(keys, s):
    """keys: [(s, dict)], s in 0..1, smoothstep between neighbours."""
    full = [(k, dict(REST, **d)) for k, d in keys]
    if s <= full[0][0]:
        return full[0][1]
    for (s0, p0), (s1, p1) in zip(full, full[1:]):
        if s <= s1:
            w = (s - s0) / max(1e-6, s1 - s0)
            return lerp_pose(p0, p1, w * w * (3 - 2 * w))
    return full[-1][1]


def cycle_pose(kind, t, period, amp=1.0):
    ph = 2 * PI * t / period
    sn, cs = np.sin(ph), np.cos(ph)
    if kind == "walk":
        return dict(REST, th_n=0.42 * amp * sn, th_f=-0.42 * amp * sn,
                    kn_n=0.1 + 0.65 * amp * max(0.0, cs) ** 1.5, kn_f=0.1 + 0.65 * amp * max(0.0, -cs) ** 1.5,
                    sh_n=-0.38 * amp * sn, sh_f=0.38 * amp * sn, el_n=0.3 + 0.12 * sn, el_f=0.3 - 0.12 * sn,
                    y=-0.012 * np.cos(2 * ph), lean=0.05, head=0.02 * np.sin(2 * ph), wind=0.2)
    if kind == "run":
        return dict(REST, th_n=0.78 * amp * sn, th_f=-0.78 * amp * sn,
                    kn_n=0.3 + 1.35 * amp * max(0.0, cs), kn_f=0.3 + 1.35 * amp * max(0.0, -cs),
                    sh_n=-0.95 * amp * sn, sh_f=0.95 * amp * sn, el_n=1.45, el_f=1.45,
                    y=-0.03 * abs(np.sin(ph)), lean=0.2, head=-0.08, wind=0.9)
    if kind == "idle":
        return dict(REST, y=0.006 * np.sin(ph), sh_n=REST["sh_n"] + 0.07 * np.sin(ph + 0.5),
                    sh_f=REST["sh_f"] - 0.06 * np.sin(ph + 0.5), head=0.04 * np.sin(ph * 0.5),
                    crouch=0.04 * (1 + np.sin(ph)), wind=0.1 + 0.1 * np.sin(ph * 0.7))
    raise ValueError(kind)


def posed(action, t, n, ease=4.0, period=None, keys=None, amp=1.0):
    """The pose at (fractional) frame t: the rest pose at 0, the action eased in."""
    if keys is not None:
        act = keyframes(keys, t / (n - 1))
    else:
        act = cycle_pose(action, t, period, amp)
    return lerp_pose(REST, act, float(np.clip(t / ease, 0, 1)) ** 2 * (3 - 2 * min(1.0, t / ease)))
