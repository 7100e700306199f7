"""Trial 38 biped: a side-view figure facing right, built from vector shapes on a
14-bone rig, in one of five styles (flat, shaded, cel, textured, ink)."""

from __future__ import annotations

import numpy as np

from t38_geom import Rig, capsule, closed_smooth, ellipse, poly, smooth_path, stroke
from t38_raster import Paint

STYLES = ("flat", "shaded", "cel", "tex", "ink")


def paint(style, rgb, dome=None, tex=None, amt=0.0, tscale=1.0, spec=0.0, dim=1.0, **kw):
    """A Paint for `style`; dim darkens far-side limbs."""
    rgb = tuple(float(c) * dim for c in rgb)
    if style == "flat":
        return Paint(rgb, **kw)
    cel = 3 if style in ("cel", "ink") else 0
    p = Paint(rgb, dome=dome, cel=cel, spec=spec if style != "ink" else 0.0, **kw)
    if style in ("tex", "shaded") and tex:
        p.tex, p.tex_amt, p.tex_scale = tex, amt * (1.0 if style == "tex" else 0.4), tscale
    return p


def human(style, col, build=None, rng=None, hair=0, ink=0.0, strand_w=0.16,
          hair_len=1.0, tex=None, cap=True):
    """col: dict of skin, shirt, pants, boots, hair, eye (+ optional belt, sleeve, glove).
    build: leg, torso, head, wid, arm multipliers. hair: number of loose strands."""
    b = dict(leg=1.0, torso=1.0, head=1.0, wid=1.0, arm=1.0)
    b.update(build or {})
    rng = rng or np.random.default_rng(0)
    tex = tex or {}
    Lth, Lsh = 22 * b["leg"], 21 * b["leg"]
    T, w, Rh = 30 * b["torso"], b["wid"], 9 * b["head"]
    Lua, Lfa = 14 * b["arm"], 13 * b["arm"]
    r = rig = Rig()
    r.bone("hip", None)
    r.bone("torso", "hip")
    r.bone("neck", "torso", 1.0 * w, -T)
    r.bone("head", "neck", 0, -2)
    for s, dx in (("b", -1.5), ("f", 1.5)):
        r.bone("arm_" + s, "torso", dx * w, -T + 4)
        r.bone("fore_" + s, "arm_" + s, 0, Lua)
        r.bone("hand_" + s, "fore_" + s, 0, Lfa)
        r.bone("thigh_" + s, "hip", dx * 0.8 * w, 1)
        r.bone("shin_" + s, "thigh_" + s, 0, Lth)
        r.bone("foot_" + s, "shin_" + s, 0, Lsh)
    r.bone("weapon", "hand_f", 0, 1.5, -70)
    r.bone("offhand", "hand_b", 0, 1.5, -60)
    ik = dict(ink=ink)

    def P(key, dome, dim=1.0, spec=0.0, t=None):
        tx = tex.get(key, t)
        return paint(style, col[key], dome, tx[0] if tx else None, tx[1] if tx else 0.0,
                     tx[2] if tx else 1.0, spec, dim)

    for s, dim, z in (("b", 0.78, -3.0), ("f", 1.0, 2.4)):
        zl = -1.0 if s == "b" else 2.0
        rt, rk = 3.4 * w, 2.8 * w
        r.add("thigh_" + s, capsule(0, 0, 0, Lth, rt, rk), P("pants", (0, Lth / 2, rt, Lth / 1.6), dim), zl, **ik)
        r.add("shin_" + s, capsule(0, 0, 0, Lsh, rk, 2.3 * w), P("pants", (0, Lsh / 2, rk, Lsh / 1.6), dim), zl + 0.1, **ik)
        boot = closed_smooth([(-2.6 * w, -6), (2.6 * w, -6), (3.0 * w, -1.5), (9 * w, 0.8),
                              (9.2 * w, 2.8), (-3.0 * w, 3.0)], 5)
        r.add("foot_" + s, boot, P("boots", (2 * w, -1, 7 * w, 5), dim, 0.12), zl + 0.2, **ik)
        ra = 2.7 * w
        r.add("arm_" + s, capsule(0, 0, 0, Lua, ra * 1.15, ra), P(col.get("sleeve_key", "shirt"), (0, Lua / 2, ra, Lua / 1.5), dim), z, **ik)
        r.add("fore_" + s, capsule(0, 0, 0, Lfa, ra * 0.95, ra * 0.8), P(col.get("fore_key", "skin"), (0, Lfa / 2, ra, Lfa / 1.5), dim), z + 0.1, **ik)
        hand = closed_smooth([(-2.2, -0.5), (2.4, -0.5), (2.8, 3.5), (0.5, 5.2), (-2.0, 3.8)], 5)
        r.add("hand_" + s, [h * w for h in [hand]], P(col.get("hand_key", "skin"), (0, 2, 3, 3.5), dim), z + 0.6, **ik)
    torso = closed_smooth([(-5.5 * w, 2.5), (-7.0 * w, -T * 0.55), (-6.2 * w, -T + 1), (-2 * w, -T - 1.5),
                           (4.5 * w, -T + 0.5), (7.5 * w, -T * 0.62), (6.2 * w, -T * 0.2), (5.5 * w, 2.5)], 6)
    r.add("torso", torso, P("shirt", (0.5 * w, -T * 0.55, 7.5 * w, T * 0.75), spec=0.05), 0.0, **ik)
    pelvis = closed_smooth([(-5.8 * w, -2), (5.8 * w, -2), (5.5 * w, 4), (0, 5.5), (-5.5 * w, 4)], 5)
    r.add("hip", pelvis, P("pants", (0, 1, 6 * w, 5)), 0.5, **ik)
    belt = poly((-6.0 * w, -2.6), (6.2 * w, -2.6), (6.0 * w, 0.2), (-5.9 * w, 0.2))
    r.add("hip", belt, P(col.get("belt_key", "boots"), (0, -1, 6 * w, 3), spec=0.2), 0.6, **ik)
    r.add("neck", capsule(0, 0, 0, -3, 2.6 * w, 2.6 * w), P("skin", (0, -1.5, 2.6, 3)), 0.7, **ik)
    head = closed_smooth([(-Rh * 0.9, -Rh), (-Rh * 0.6, -Rh * 1.85), (Rh * 0.5, -Rh * 1.95),
                          (Rh * 1.0, -Rh * 1.2), (Rh * 1.12, -Rh * 0.75), (Rh * 0.95, -Rh * 0.35),
                          (Rh * 0.5, Rh * 0.02), (-Rh * 0.5, -Rh * 0.1)], 6)
    r.add("head", head, P("skin", (0.1 * Rh, -Rh, Rh, Rh * 1.05), spec=0.08), 3.0, **ik)
    nose = closed_smooth([(Rh * 0.95, -Rh * 1.05), (Rh * 1.3, -Rh * 0.78), (Rh * 1.0, -Rh * 0.68)], 4)
    r.add("head", nose, P("skin", (Rh, -Rh * 0.8, Rh * 0.3, Rh * 0.3)), 3.1, **ik)
    r.add("head", ellipse(Rh * 0.55, -Rh * 1.05, Rh * 0.17, Rh * 0.21, 20), Paint((250, 248, 240)), 3.2)
    r.add("head", ellipse(Rh * 0.62, -Rh * 1.05, Rh * 0.11, Rh * 0.16, 20), Paint(col["eye"], dome=(Rh * 0.62, -Rh * 1.05, Rh * 0.15, Rh * 0.2), amb=0.7, dif=0.4, spec=0.5, shin=30), 3.3)
    r.add("head", ellipse(-Rh * 0.15, -Rh * 0.85, Rh * 0.2, Rh * 0.27, 16), P("skin", (-Rh * 0.15, -Rh * 0.85, Rh * 0.2, Rh * 0.27), 0.92), 3.35, **ik)
    capshape = closed_smooth([(Rh * 0.85, -Rh * 1.45), (Rh * 0.55, -Rh * 2.05), (-Rh * 0.4, -Rh * 2.15),
                         (-Rh * 1.15, -Rh * 1.5), (-Rh * 1.2, -Rh * 0.55), (-Rh * 0.55, -Rh * 0.3),
                         (-Rh * 0.25, -Rh * 1.15), (Rh * 0.35, -Rh * 1.55)], 6)
    if cap:
        r.add("head", capshape, P("hair", (-0.1 * Rh, -Rh * 1.3, Rh * 1.1, Rh * 1.0), spec=0.25, t=("brush", 0.5, 0.6)), 3.5, **ik)
    if hair:
        add_strands(rig, "head", hair, Rh, col["hair"], rng, strand_w, hair_len, style)
    rig.meta = dict(Lth=Lth, Lsh=Lsh, T=T, Rh=Rh, w=w, feet=Lth + Lsh + 3.0, top=-T - 2 - 2.1 * Rh)
    return rig


def add_strands(rig, bone, n, Rh, rgb, rng, width, length, style, z_front=3.6, z_back=-4.0):
    """Loose strands from the scalp, flowing back and down, swaying with pose['sway']."""
    specs = []
    for i in range(n):
        a = np.radians(rng.uniform(-178, -72))
        start = np.array([np.cos(a) * Rh * 1.0 - Rh * 0.15, -Rh * 1.15 + np.sin(a) * Rh * 0.95])
        L = Rh * length * rng.uniform(1.2, 2.6)
        bend = rng.uniform(-0.5, 0.5)
        wid = width * rng.uniform(0.55, 1.35)
        shade = rng.uniform(0.8, 1.2)
        specs.append((start, L, bend, wid, shade, rng.uniform(0, 6.28)))
    groups = {}
    for k, (start, L, bend, wid, shade, ph) in enumerate(specs):
        groups.setdefault(round(shade * 4) / 4, []).append(k)
    for sh, idx in groups.items():
        def geom(pose, idx=idx):
            sway = pose.get("sway", 0.0)
            out = []
            for k in idx:
                start, L, bend, wid, _, ph = specs[k]
                sw = sway * (1 + 0.3 * np.sin(ph))
                pts = [start,
                       start + (-0.22 * L + bend * 0.08 * L, 0.22 * L),
                       start + (-0.3 * L - sw * 0.12 * L, 0.6 * L),
                       start + (-0.3 * L - sw * 0.32 * L + bend * 0.15 * L, 0.98 * L)]
                out.append(stroke(smooth_path(pts, 6), wid, wid * 0.2))
            return out
        c = tuple(min(v * sh, 255) for v in rgb)
        p = Paint(c) if style == "flat" else Paint(c, amb=1.0, dif=0.0)
        rig.add(bone, geom, p, z_back if sh < 1.0 else z_front)
