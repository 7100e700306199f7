"""A jointed side-view humanoid: a Look (colours, proportions, style, hair, weapon,
robe) and a Pose (joint angles) turn into rig Parts. Facing is a horizontal scale about
the hips: +1 right, -1 left, values between are the squash of a turn."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from t35_rig import Figure, Line, Part


@dataclass
class Look:
    height: float = 300.0            # px, feet to crown
    skin: tuple = (236, 196, 160)
    shirt: tuple = (60, 150, 70)
    pants: tuple = (60, 70, 120)
    boots: tuple = (70, 48, 34)
    hair: tuple = (60, 36, 24)
    style: str = "shaded"            # flat | shaded | tex
    ink: float = 0.0
    tex_amp: float = 0.0
    strands: int = 0                 # thin hair strands down the back
    strand_w: float = 0.5
    strand_len: float = 0.35         # of height
    weapon: str | None = None        # sword | staff | spear
    weapon_color: tuple = (205, 210, 220)
    robe: tuple | None = None        # colour of a robe/dress over the legs
    belt: tuple | None = (90, 60, 30)
    eye: tuple = (30, 24, 28)
    back_dim: float = 0.78           # far limbs darker


@dataclass
class Pose:
    x: float                         # hips x
    ground: float                    # feet y
    bob: float = 0.0                 # hips raised by
    lean: float = 0.0                # rad, torso forward
    thigh: tuple = (0.0, 0.0)        # rad from down, forward +, (near, far)
    knee: tuple = (0.0, 0.0)         # bend, rad, backward +
    arm: tuple = (0.0, 0.0)          # upper arm from down, forward +
    elbow: tuple = (0.2, 0.2)        # bend, forward +
    head: float = 0.0                # tilt
    weapon: float = 0.0              # weapon angle relative to forearm
    hair_sway: float = 0.0           # rad, strands swing back +
    hem: float = 0.0                 # robe hem swing
    facing: float = 1.0


def _pt(o, ang, L):
    """From o, a segment of length L at angle ang from straight down, forward +."""
    return (o[0] + np.sin(ang) * L, o[1] + np.cos(ang) * L)


def _shade(c, k):
    return tuple(float(min(255, v * k)) for v in c)


def build(look: Look, pose: Pose) -> Figure:
    H = look.height
    thighL, shinL, footL = 0.24 * H, 0.24 * H, 0.11 * H
    torsoL, neckL, headR = 0.30 * H, 0.04 * H, 0.085 * H
    uarmL, farmL = 0.16 * H, 0.15 * H
    limbR, armR = 0.045 * H, 0.034 * H
    # plant the lowest foot on the floor (y = 0), `bob` px above it when airborne
    low = max(_pt(_pt((0.0, 0.0), pose.thigh[i], thighL), pose.thigh[i] - pose.knee[i], shinL)[1]
              for i in (0, 1))
    hip = (0.0, -(low + 0.046 * H) - pose.bob)
    neck = (hip[0] + np.sin(pose.lean) * torsoL, hip[1] - np.cos(pose.lean) * torsoL)
    head = (neck[0] + np.sin(pose.lean + pose.head) * (neckL + headR),
            neck[1] - np.cos(pose.lean + pose.head) * (neckL + headR))
    shoulder = (neck[0] - np.sin(pose.lean) * 0.05 * H, neck[1] + np.cos(pose.lean) * 0.05 * H)
    sty = dict(style=look.style, ink=look.ink, tex_amp=look.tex_amp)
    parts: list[Part] = []
    lines: dict = {}

    def leg(i, dim):
        k = hip
        kn = _pt(k, pose.thigh[i], thighL)
        an = _pt(kn, pose.thigh[i] - pose.knee[i], shinL)
        toe = (an[0] + footL, an[1] + 0.01 * H)
        c = lambda col: _shade(col, dim)
        return [Part("cap", (*k, *kn, limbR * 1.1, limbR * 0.95), c(look.pants), **sty),
                Part("cap", (*kn, *an, limbR * 0.95, limbR * 0.8), c(look.pants), **sty),
                Part("cap", (an[0] - 0.01 * H, an[1] + 0.005 * H, *toe, limbR * 0.9, limbR * 0.55),
                     c(look.boots), **sty)], an

    def arm(i, dim):
        el = _pt(shoulder, pose.arm[i], uarmL)
        ha = _pt(el, pose.arm[i] + pose.elbow[i], farmL)
        c = lambda col: _shade(col, dim)
        ps = [Part("cap", (*shoulder, *el, armR * 1.15, armR), c(look.shirt), **sty),
              Part("cap", (*el, *ha, armR, armR * 0.85), c(look.skin), **sty),
              Part("ell", (ha[0], ha[1], armR * 1.25, armR * 1.1, 0.0), c(look.skin), **sty)]
        return ps, ha, pose.arm[i] + pose.elbow[i]

    far_leg, far_ankle = leg(1, look.back_dim)
    near_leg, near_ankle = leg(0, 1.0)
    far_arm, far_hand, _ = arm(1, look.back_dim)
    near_arm, near_hand, fa_ang = arm(0, 1.0)
    parts += far_arm + far_leg
    if look.robe is None:
        parts += near_leg
    # torso
    parts.append(Part("cap", (*hip, *shoulder, 0.085 * H, 0.095 * H), look.shirt, **sty))
    if look.robe is not None:
        sw = pose.hem * 0.08 * H
        hemy = hip[1] + 0.40 * H
        robe = [(shoulder[0] - 0.07 * H, shoulder[1] + 0.02 * H),
                (shoulder[0] + 0.07 * H, shoulder[1] + 0.02 * H),
                (hip[0] + 0.15 * H + sw, hemy), (hip[0] + 0.02 * H + sw * 1.3, hemy + 0.015 * H),
                (hip[0] - 0.14 * H + sw * 1.6, hemy - 0.01 * H)]
        parts.append(Part("poly", robe, look.robe, **sty))
        parts += [near_leg[2]]
    if look.belt is not None:
        bx, by = hip[0] + np.sin(pose.lean) * 0.05 * H, hip[1] - 0.05 * H
        parts.append(Part("cap", (bx - 0.085 * H, by, bx + 0.085 * H, by, 0.018 * H, 0.018 * H),
                          look.belt, **sty))
    # head, hair cap, eye
    parts.append(Part("cap", (*neck, *_pt(neck, np.pi + pose.lean, neckL + 0.02 * H),
                              0.03 * H, 0.03 * H), look.skin, **sty))
    parts.append(Part("ell", (head[0], head[1], headR * 0.95, headR, 0.0), look.skin, **sty))
    hair_i = len(parts)
    parts.append(Part("ell", (head[0] - 0.25 * headR, head[1] - 0.35 * headR, headR * 0.9,
                              headR * 0.75, -15.0), look.hair, **sty))
    parts.append(Part("ell", (head[0] + 0.45 * headR, head[1] - 0.05 * headR, 0.12 * headR,
                              0.16 * headR, 0.0), look.eye, style="flat"))
    if look.strands:
        rng = np.random.default_rng(int(look.height) + look.strands)
        strands = []
        for j in range(look.strands):
            u = j / max(1, look.strands - 1)
            ang0 = -2.3 + 1.4 * u + rng.normal(0, 0.05)
            root = (head[0] + np.sin(ang0) * headR * 0.9, head[1] - np.cos(ang0) * headR * 0.9)
            L = look.strand_len * H * (0.6 + 0.5 * rng.random())
            pts = [root]
            a = -0.35 - 0.5 * (1 - u) + pose.hair_sway * (0.8 + 0.4 * rng.random())
            seg = L / 6
            for k in range(6):
                a2 = a + 0.12 * k * (0.6 + pose.hair_sway) + 0.04 * np.sin(j * 1.7 + k)
                p = pts[-1]
                pts.append((p[0] - np.sin(-a2) * seg, p[1] + np.cos(a2) * seg))
            strands.append(Line(pts, look.strand_w * (0.7 + 0.6 * rng.random()),
                                _shade(look.hair, 0.85 + 0.3 * rng.random()), taper=True))
        lines[hair_i] = strands
    parts += near_arm
    if look.weapon:
        wl = {"sword": 0.42, "staff": 0.62, "spear": 0.75}[look.weapon] * H
        ang = fa_ang + pose.weapon
        base = _pt(near_hand, ang + np.pi, 0.04 * H if look.weapon == "sword" else 0.25 * wl)
        tip = _pt(near_hand, ang, wl if look.weapon == "sword" else 0.75 * wl)
        d = np.array(tip) - np.array(base)
        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-6)
        if look.weapon == "sword":
            wdt = 0.018 * H
            blade = [tuple(np.array(near_hand) + n * wdt), tuple(np.array(tip) + n * 0.001),
                     tuple(np.array(tip) - n * 0.001), tuple(np.array(near_hand) - n * wdt)]
            hilt = Part("cap", (*(np.array(near_hand) - n * 0.04 * H),
                                *(np.array(near_hand) + n * 0.04 * H), 0.012 * H, 0.012 * H),
                        (120, 90, 40), style="flat", ink=look.ink)
            parts.insert(len(parts) - 1, Part("poly", blade, look.weapon_color, style="flat",
                                              ink=look.ink))
            parts.append(hilt)
        else:
            parts.insert(len(parts) - 1, Part("cap", (*base, *tip, 0.011 * H, 0.008 * H),
                                              look.weapon_color, **sty))
            if look.weapon == "spear":
                tipe = _pt(tip, ang, 0.07 * H)
                head_pts = [tuple(np.array(tip) + n * 0.02 * H), tipe, tuple(np.array(tip) - n * 0.02 * H)]
                parts.insert(len(parts) - 1, Part("poly", head_pts, (200, 205, 215), style="flat",
                                                  ink=look.ink))
    fig = Figure(parts, lines)
    return place(fig, pose.x, pose.ground, pose.facing)


def place(fig: Figure, x: float, ground: float, sx: float) -> Figure:
    """Move from body coords (hips at x=0, feet at y=0) to the frame, scaling x by sx."""
    def tp(q):
        return (x + q[0] * sx, ground + q[1])
    out = []
    for p in fig.parts:
        g = p.geom
        if p.kind == "cap":
            a, b = tp(g[0:2]), tp(g[2:4])
            geom = (*a, *b, g[4], g[5])
        elif p.kind == "ell":
            c = tp(g[0:2])
            k = abs(sx)
            ang = np.deg2rad(g[4])
            # scaled ellipse: approximate by scaling the x semi-axis of an unrotated one
            geom = (c[0], c[1], max(0.6, g[2] * (k if abs(ang) < 1e-3 else (k + 1) / 2)), g[3],
                    g[4] * np.sign(sx) if sx != 0 else 0.0)
        else:
            geom = [tp(q) for q in g]
        out.append(Part(p.kind, geom, p.color, p.style, p.ink, p.ink_color, p.tex_amp, p.tex_scale))
    lines = {i: [Line([tp(q) for q in ln.pts], ln.width, ln.color, ln.taper) for ln in ls]
             for i, ls in fig.lines_after.items()}
    return Figure(out, lines)
