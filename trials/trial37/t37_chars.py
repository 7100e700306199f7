"""Trial 37 characters: one jointed humanoid builder (body build, palette, headwear, robe,
beard, satchel, weapon, hair strands) and the cast made with it."""
from __future__ import annotations

import math

import numpy as np

from t37_rig import Char, Part, cap, ell, poly

PI = math.pi


def _weapon(kind, pal):
    st, wd = pal.get("steel", (196, 202, 214)), pal.get("wood", (112, 74, 42))
    if kind == "spear":
        return [Part("shaft", "weapon", [cap(210, 2.3, 2.0, 0, 60, PI)], wd, 23, tex=0.15),
                Part("tip", "weapon", [poly([(-6.5, -150), (0, -190), (6.5, -150), (0, -143)], 1)],
                     st, 24, spec=0.9),
                Part("tassel", "weapon", [poly([(-5, -146), (5, -146), (3, -128), (-3, -130)], 1)],
                     pal.get("accent", (180, 40, 40)), 24)]
    if kind in ("sword", "great", "dagger"):
        L, W = {"sword": (100, 4.8), "great": (150, 8.0), "dagger": (46, 3.6)}[kind]
        return [Part("grip", "weapon", [cap(26, 2.7, 2.7, 0, 14, PI)], (60, 40, 30), 23),
                Part("guard", "weapon", [ell(0, -12, 13, 3.2)], pal.get("gold", (200, 160, 60)), 24, spec=0.6),
                Part("blade", "weapon", [poly([(-W, -14), (W, -14), (W * 0.8, -L), (0, -L - 18 - W),
                                               (-W * 0.8, -L)], 0)], st, 23, spec=0.9,
                     details=[("line", [(0, -16), (0, -L)], tuple(int(c * 0.8) for c in st), 0.8)])]
    if kind == "axe":
        return [Part("haft", "weapon", [cap(140, 3.2, 2.8, 0, 34, PI)], wd, 23, tex=0.2),
                Part("axehead", "weapon", [poly([(1, -72), (24, -98), (34, -80), (33, -58), (25, -46), (1, -56)], 1)],
                     st, 24, spec=0.8, details=[("line", [(26, -95), (33, -70), (26, -49)], (235, 238, 245), 1.2)])]
    if kind == "staff":
        return [Part("staff", "weapon", [cap(196, 3.0, 2.6, 0, 72, PI)], wd, 23, tex=0.2),
                Part("crystal", "weapon", [poly([(0, -150), (7, -134), (0, -118), (-7, -134)], 0)],
                     pal.get("gem", (240, 120, 200)), 24, spec=1.0)]
    return []


def humanoid(name, pal, style="shaded", build=None, head="hair", robe=False, beard=False,
             satchel=False, weapon=None, strands=0, strand_len=(40, 110), ink_w=0.0, tex=0.0,
             seed=0, rest=None, gloss=0.0):
    b = dict(tl=100, sw=1.0, hw=1.0, th=70, sh=68, hs=1.0, ar=1.0, al=52, fl=48)
    b.update(build or {})
    sw, hw, hs, ar = b["sw"], b["hw"], b["hs"], b["ar"]
    tl, th, sh = b["tl"], b["th"], b["sh"]
    bones = {"pelvis": (None, (0, 0)), "torso": ("pelvis", (0, 0)), "head": ("torso", (3, -tl)),
             "thigh_f": ("pelvis", (-3, 2)), "shin_f": ("thigh_f", (0, th)), "foot_f": ("shin_f", (0, sh)),
             "thigh_n": ("pelvis", (3, 2)), "shin_n": ("thigh_n", (0, th)), "foot_n": ("shin_n", (0, sh)),
             "uarm_f": ("torso", (-2, -tl + 12)), "farm_f": ("uarm_f", (0, b["al"])),
             "hand_f": ("farm_f", (0, b["fl"])),
             "uarm_n": ("torso", (4, -tl + 12)), "farm_n": ("uarm_n", (0, b["al"])),
             "hand_n": ("farm_n", (0, b["fl"])), "weapon": ("hand_n", (0, 3))}
    skin, shirt, pants = pal["skin"], pal["shirt"], pal["pants"]
    boot, hair = pal.get("boot", (70, 46, 32)), pal.get("hair", (48, 32, 24))
    sleeve = pal.get("sleeve", shirt)
    dk = lambda c, f=0.72: tuple(int(v * f) for v in c)  # noqa: E731
    P = []
    for side, zb, far in (("f", 0, True), ("n", 14, False)):
        P += [Part("thigh_" + side, "thigh_" + side, [cap(th, 12.5 * hw, 10 * hw)], pants, zb + 4, far=far, tex=tex),
              Part("shin_" + side, "shin_" + side, [cap(sh, 10 * hw, 7.5 * hw)], pants, zb + 5, far=far, tex=tex,
                   details=[("fill", [(-12, sh * 0.55), (12, sh * 0.55), (12, sh + 9), (-12, sh + 9)], boot)]),
              Part("foot_" + side, "foot_" + side,
                   [poly([(-8, -7), (-8, 8), (23, 8), (23, 1), (11, -7)], 1)], boot, zb + 6, far=far, spec=0.2)]
    for side, zb, far in (("f", 0, True), ("n", 21, False)):
        P += [Part("uarm_" + side, "uarm_" + side, [cap(b["al"], 10 * ar, 8 * ar)], sleeve, zb + 1, far=far, tex=tex, spec=gloss,
                   details=[("fill", [(-12, b["al"] * 0.62), (12, b["al"] * 0.62), (12, b["al"] * 0.74),
                                      (-12, b["al"] * 0.74)], dk(sleeve, 0.8))]),
              Part("farm_" + side, "farm_" + side, [cap(b["fl"], 8 * ar, 6.5 * ar)], skin, zb + 2, far=far),
              Part("hand_" + side, "hand_" + side, [ell(0, 5, 7.5 * ar, 8.5 * ar)], skin, zb + 3 + (2 if side == "n" else 0), far=far)]
    torso = poly([(-20 * hw, 2), (20 * hw, 2), (22 * sw, -tl * 0.42), (21 * sw, -tl * 0.86), (10, -tl - 2),
                   (-9, -tl - 2), (-19 * sw, -tl * 0.88), (-21 * sw, -tl * 0.5)])
    P += [Part("hips", "pelvis", [ell(0, 5, 21 * hw, 13)], pants, 10, tex=tex),
          Part("torso", "torso", [torso], shirt, 12, tex=tex, spec=gloss,
               details=[("fill", [(-30, -10), (30, -10), (30, 0), (-30, 0)], pal.get("belt", (60, 40, 28))),
                        ("line", [(8, -tl + 2), (14, -tl + 22), (19, -tl + 2)], dk(shirt, 0.6), 1.6),
                        ("line", [(-16, -tl * 0.55), (-6, -tl * 0.35)], dk(shirt, 0.8), 1.0)]),
          Part("neck", "head", [cap(16, 8, 8, 0, 4, PI)], skin, 13),
          Part("head", "head", [ell(4, -30 * hs, 23 * hs, 27 * hs), poly([(22 * hs, -36 * hs), (31 * hs, -26 * hs),
                                                                          (22 * hs, -22 * hs)], 1)], skin, 14,
               details=[("fill", ell(17 * hs, -33 * hs, 2.6, 3.6), (24, 20, 28)),
                        ("line", [(13 * hs, -41 * hs), (21 * hs, -42 * hs)], dk(hair, 0.9), 1.4),
                        ("line", [(18 * hs, -14 * hs), (24 * hs, -15 * hs)], dk(skin, 0.55), 1.1),
                        ("fill", ell(-3 * hs, -28 * hs, 4.5, 7), dk(skin, 0.85))])]
    if head == "hair":
        P.append(Part("haircap", "head", [poly([(-21 * hs, -22 * hs), (-22 * hs, -44 * hs), (-4, -60 * hs),
                                                (18 * hs, -58 * hs), (27 * hs, -44 * hs), (12 * hs, -46 * hs),
                                                (-6, -38 * hs), (-12, -20 * hs)])], hair, 15, spec=0.3))
    elif head == "hood":
        P.append(Part("hood", "head", [poly([(-28 * hs, -4), (-26 * hs, -46 * hs), (-4, -64 * hs), (22 * hs, -56 * hs),
                                             (30 * hs, -40 * hs), (16 * hs, -44 * hs), (6, -30 * hs), (4, -2)])],
                      pal.get("hood", shirt), 15, tex=tex))
    elif head == "helm":
        P.append(Part("helm", "head", [poly([(-24 * hs, -18 * hs), (-24 * hs, -48 * hs), (2, -64 * hs), (26 * hs, -50 * hs),
                                             (28 * hs, -36 * hs), (12 * hs, -38 * hs), (10 * hs, -18 * hs)])],
                      pal.get("steel", (180, 186, 196)), 15, spec=0.9, tex=tex,
                      details=[("line", [(-20 * hs, -38 * hs), (26 * hs, -40 * hs)], (90, 92, 100), 1.6)]))
    elif head == "cap":
        P.append(Part("cap", "head", [poly([(-22 * hs, -36 * hs), (-16, -58 * hs), (18, -60 * hs), (26 * hs, -44 * hs),
                                            (40 * hs, -40 * hs), (24 * hs, -36 * hs)], 1)], pal.get("hat", (170, 40, 40)), 15))
    if robe:
        P.append(Part("robe", "pelvis", [poly([(-22, -8), (22, -8), (34, th + sh * 0.7), (-31, th + sh * 0.72)], 1)],
                      pal.get("robe", shirt), 21, tex=tex,
                      details=[("line", [(2, -6), (5, th + sh * 0.7)], dk(pal.get("robe", shirt), 0.7), 1.3)]))
    if beard:
        P.append(Part("beard", "head", [poly([(4, -24 * hs), (30 * hs, -22 * hs), (26 * hs, 6), (10, 18), (-2, 4)])],
                      pal.get("beard", hair), 16, tex=0.25))
    if satchel:
        P.append(Part("satchel", "pelvis", [poly([(-36, -30), (-14, -32), (-12, 2), (-36, 4)], 1)],
                      pal.get("bag", (120, 84, 50)), 17, tex=0.2,
                      details=[("fill", [(-36, -30), (-13, -32), (-13, -22), (-36, -20)], (96, 64, 40))]))
        P[[p.name for p in P].index("torso")].details.append(("line", [(-16, -tl * 0.9), (20, -8)], (96, 64, 40), 4))
    P += _weapon(weapon, pal)
    rng = np.random.default_rng(seed)
    sl = []
    for i in range(strands):
        ph = PI * (1.0 + 0.5 * rng.random())
        sl.append(dict(anchor=(4 + 21 * hs * math.cos(ph), -30 * hs + 25 * hs * math.sin(ph)),
                       len=float(rng.uniform(*strand_len)), w=float(rng.uniform(0.35, 0.95)),
                       ang=float(0.25 + 0.35 * rng.random()), curl=float(rng.normal(0, 0.25)),
                       wk=float(rng.uniform(0.7, 1.2)),
                       col=tuple(int(min(255, c * (0.78, 1.0, 1.22)[i % 3])) for c in hair)))
    r = {"thigh_n": -0.1, "thigh_f": 0.08, "shin_n": 0.06, "shin_f": 0.04, "foot_n": 0.04, "foot_f": -0.12,
         "uarm_n": -0.12, "farm_n": -0.35, "uarm_f": 0.12, "farm_f": -0.2, "weapon": 0.0}
    r.update(rest or {})
    return Char(bones, P, r, style=style, ink_w=ink_w, strands=sl, strand_z=13, leg=th + sh + 8,
                name=name, ink=pal.get("ink", (24, 18, 26)))
