"""Trial 38 cast: the bipeds of the cases, dressed from t38_human / t38_props, and the
ogre of painted blobs."""

from __future__ import annotations

import numpy as np

from t38_beasts import blobs_on, harpy_wings
from t38_geom import blade, capsule, closed_smooth, ellipse, poly, smooth_path, stroke
from t38_human import human
from t38_props import axe, backpack, cape, flask, gem, scarf, spear, staff, sword
from t38_raster import Paint


def robe(rig, rgb, length, w, z=1.0, tex=None, hem_rgb=None, flat=False):
    """A skirt or robe from the waist whose hem follows the legs."""
    def geom(pose):
        tf, tb = np.radians(pose.get("thigh_f", 0)), np.radians(pose.get("thigh_b", 0))
        fx = max(-np.sin(tf), -np.sin(tb)) * length * 0.8
        bx = min(-np.sin(tf), -np.sin(tb)) * length * 0.8
        sw = pose.get("sway", 0.0)
        pts = [(-6 * w, -3), (6 * w, -3), (7 * w + fx * 0.4, length * 0.45), (8 * w + fx, length),
               (0.5 * (fx + bx), length + 1.5), (-8 * w + bx - 2 * sw, length), (-7.5 * w + bx * 0.4 - sw, length * 0.45)]
        return [closed_smooth(pts, 6)]
    p = Paint(rgb) if flat else Paint(rgb, dome=(0, length * 0.4, 9 * w, length * 0.8), amb=0.6, dif=0.45)
    if tex and not flat:
        p.tex, p.tex_amt, p.tex_scale = tex
    if hem_rgb:
        p.grad = (length * 0.75, length * 0.95, hem_rgb)
    rig.add("hip", geom, p, z)


def ranger(rng):
    col = dict(skin=(226, 174, 142), shirt=(58, 142, 66), pants=(86, 66, 50), boots=(72, 48, 34),
               hair=(64, 42, 30), eye=(70, 120, 62))
    r = human("tex", col, rng=rng, hair=44, strand_w=0.17, hair_len=1.05, build=dict(wid=1.2),
              tex=dict(shirt=("knit", 0.22, 0.9), pants=("weave", 0.12, 1.0)))
    r.add("hip", stroke(smooth_path([(-5, -1), (-7, 6), (-6.5, 12)], 5), 1.6, 1.2), Paint((120, 80, 50), dome=(-6, 6, 2, 7)), 0.7)
    return r


def runner(rng):
    col = dict(skin=(196, 140, 108), shirt=(40, 118, 52), pants=(62, 82, 132), boots=(48, 44, 46),
               hair=(28, 24, 26), eye=(90, 60, 40))
    r = human("shaded", col, rng=rng, hair=26, strand_w=0.13, hair_len=0.7,
              tex=dict(shirt=("weave", 0.3, 1.4), pants=("noise", 0.2, 0.6)))
    scarf(r, (32, 146, 144), r.meta["T"], r.meta["w"])
    return r


def knight(rng):
    col = dict(skin=(232, 190, 160), shirt=(150, 160, 172), pants=(70, 76, 92), boots=(98, 104, 116),
               hair=(120, 70, 40), eye=(40, 40, 60))
    r = human("flat", col, rng=rng, build=dict(wid=1.15))
    Rh, T, w = r.meta["Rh"], r.meta["T"], r.meta["w"]
    helm = closed_smooth([(Rh * 1.05, -Rh * 1.3), (Rh * 0.7, -Rh * 2.05), (-Rh * 0.5, -Rh * 2.15), (-Rh * 1.2, -Rh * 1.4),
                          (-Rh * 1.1, -Rh * 0.3), (-Rh * 0.2, -Rh * 0.35), (Rh * 0.2, -Rh * 0.9), (Rh * 1.1, -Rh * 0.95)], 6)
    r.add("head", helm, Paint((164, 174, 186)), 3.8)
    r.add("head", closed_smooth([(-Rh * 0.9, -Rh * 1.9), (-Rh * 1.2, -Rh * 1.3), (-Rh * 1.1, -Rh * 0.35), (-Rh * 0.6, -Rh * 0.4)], 5),
          Paint((118, 126, 140)), 3.81)
    r.add("head", poly((Rh * 0.25, -Rh * 1.12), (Rh * 1.12, -Rh * 1.18), (Rh * 1.1, -Rh * 1.03), (Rh * 0.3, -Rh * 1.0)), Paint((30, 32, 40)), 3.82)
    r.add("head", stroke(smooth_path([(-Rh * 0.3, -Rh * 2.1), (-Rh * 1.4, -Rh * 2.6), (-Rh * 2.4, -Rh * 2.2)], 6), 2.2, 0.3),
          Paint((200, 40, 50)), 3.7)
    plate = closed_smooth([(-5.5 * w, -T * 0.1), (-6.8 * w, -T * 0.6), (-3 * w, -T - 0.5), (5 * w, -T + 0.5), (8 * w, -T * 0.6), (6 * w, -T * 0.05)], 6)
    r.add("torso", plate, Paint((184, 192, 204)), 0.3)
    r.add("torso", closed_smooth([(1 * w, -T * 0.1), (6.5 * w, -T * 0.25), (7.6 * w, -T * 0.6), (4 * w, -T + 1), (3 * w, -T * 0.5)], 5),
          Paint((140, 148, 162)), 0.31)
    sword(r, rgb=(34, 160, 156), length=38, width=2.8, flat=True)
    return r


def rogue(rng):
    col = dict(skin=(210, 160, 130), shirt=(70, 62, 72), pants=(52, 48, 56), boots=(40, 34, 32),
               hair=(30, 26, 24), eye=(120, 170, 60))
    r = human("cel", col, rng=rng, build=dict(wid=0.95))
    Rh, T, w = r.meta["Rh"], r.meta["T"], r.meta["w"]
    cape(r, (24, 96, 92), T, w, length=52, holes=7, rng=rng, tex=("noise", 0.15, 0.5), flare=16.0)
    hood = closed_smooth([(Rh * 0.95, -Rh * 1.55), (Rh * 0.5, -Rh * 2.3), (-Rh * 0.7, -Rh * 2.35), (-Rh * 1.5, -Rh * 1.2),
                          (-Rh * 1.4, Rh * 0.2), (-Rh * 0.2, -Rh * 0.05), (-Rh * 0.1, -Rh * 1.2), (Rh * 0.5, -Rh * 1.55)], 6)
    r.add("head", hood, Paint((24, 96, 92), dome=(-0.2 * Rh, -Rh * 1.2, Rh * 1.3, Rh * 1.2), cel=3), 3.9)
    r.add("weapon", [capsule(0, -3, 0, 3, 0.9, 0.9), closed_smooth([(-1.1, 4), (1.1, 4), (0.02, 17)], 3)],
          Paint((200, 205, 215), dome=(0, 10, 1.2, 7), spec=0.5), 4.5)
    return r


def mage(rng):
    col = dict(skin=(62, 150, 152), shirt=(100, 62, 136), pants=(86, 54, 118), boots=(50, 36, 60),
               hair=(214, 220, 226), eye=(250, 210, 90))
    r = human("shaded", col, rng=rng, build=dict(leg=1.3, torso=1.2, wid=0.72, head=0.9, arm=1.25),
              hair=64, strand_w=0.11, hair_len=1.7, tex=dict(shirt=("brush", 0.25, 0.7)))
    robe(r, (96, 58, 130), r.meta["Lth"] + r.meta["Lsh"] - 3, r.meta["w"], z=2.5, tex=("brush", 0.2, 0.6), hem_rgb=(150, 120, 60))
    r.bones["weapon"] = ("hand_f", 0, 1.5, 28)
    staff(r, gem_rgb=(30, 160, 80), length=74)
    return r


def scout(rng):
    col = dict(skin=(222, 176, 140), shirt=(120, 110, 70), pants=(92, 84, 58), boots=(70, 52, 36),
               hair=(150, 100, 50), eye=(40, 80, 40))
    r = human("cel", col, rng=rng, hair=10, strand_w=0.35, hair_len=0.8)
    cape(r, (104, 112, 48), r.meta["T"], r.meta["w"], length=38, holes=0)
    spear(r, length=62)
    return r


def alchemist(rng):
    col = dict(skin=(236, 196, 170), shirt=(224, 216, 198), pants=(80, 70, 96), boots=(90, 60, 40),
               hair=(170, 60, 40), eye=(60, 150, 90))
    r = human("tex", col, rng=rng, hair=30, strand_w=0.2, hair_len=0.9, build=dict(wid=1.1),
              tex=dict(shirt=("weave", 0.1, 1.2)))
    T, w = r.meta["T"], r.meta["w"]
    apron = closed_smooth([(2.0 * w, -T * 0.75), (7.5 * w, -T * 0.7), (8 * w, -T * 0.2), (8.5 * w, 18), (1 * w, 20), (-1 * w, 2)], 6)
    r.add("torso", apron, Paint((160, 186, 58), dome=(4 * w, -2, 7 * w, T * 0.8), tex="weave", tex_amt=0.14, tex_scale=1.0), 2.1)
    r.add("torso", stroke([(2.5 * w, -T * 0.76), (-1 * w, -T - 1), (-5 * w, -T * 0.6)], 1.0), Paint((120, 140, 40)), 2.11)
    r.bones["weapon"] = ("hand_f", 0, 3.0, 0)
    flask(r, glass_alpha=0.32, size=1.6)
    return r


def runner_girl(rng):
    col = dict(skin=(240, 204, 178), shirt=(60, 96, 190), pants=(240, 204, 178), boots=(150, 50, 50),
               hair=(232, 128, 40), eye=(40, 140, 90))
    r = human("cel", col, rng=rng, hair=22, strand_w=0.4, hair_len=1.3, build=dict(head=1.15, wid=0.9))
    robe(r, (52, 128, 70), 18, r.meta["w"], z=1.2)
    return r


def traveller(rng):
    col = dict(skin=(214, 168, 134), shirt=(170, 60, 50), pants=(60, 62, 80), boots=(60, 40, 30),
               hair=(40, 30, 26), eye=(50, 90, 140))
    r = human("shaded", col, rng=rng, hair=16, strand_w=0.2, hair_len=0.8, tex=dict(shirt=("weave", 0.25, 1.0)))
    backpack(r, r.meta["T"], r.meta["w"])
    r.bones["weapon"] = ("torso", -5, -6, 150)
    sword(r, rgb=(170, 176, 186), length=26, width=2.2, z=-0.8)
    return r


def hatter(rng):
    col = dict(skin=(230, 180, 150), shirt=(210, 160, 60), pants=(60, 70, 110), boots=(50, 36, 30),
               hair=(90, 50, 30), eye=(30, 30, 30))
    r = human("cel", col, rng=rng, hair=12, strand_w=0.3, hair_len=0.7)
    Rh = r.meta["Rh"]
    r.add("head", closed_smooth([(-Rh * 1.9, -Rh * 1.55), (Rh * 1.9, -Rh * 1.75), (Rh * 1.7, -Rh * 1.5), (-Rh * 1.7, -Rh * 1.35)], 5),
          Paint((110, 70, 40), dome=(0, -Rh * 1.6, Rh * 2, Rh * 0.4), cel=3), 3.9)
    r.add("head", closed_smooth([(-Rh * 0.9, -Rh * 1.5), (-Rh * 0.7, -Rh * 2.5), (Rh * 0.6, -Rh * 2.55), (Rh * 0.9, -Rh * 1.6)], 5),
          Paint((110, 70, 40), dome=(0, -Rh * 2, Rh, Rh * 0.7), cel=3), 3.91)
    r.add("head", poly((-Rh * 0.85, -Rh * 1.62), (Rh * 0.88, -Rh * 1.7), (Rh * 0.86, -Rh * 1.95), (-Rh * 0.8, -Rh * 1.88)), Paint((40, 120, 120)), 3.92)
    return r


def dwarf(rng):
    col = dict(skin=(226, 170, 140), shirt=(40, 132, 128), pants=(92, 70, 50), boots=(70, 50, 36),
               hair=(190, 80, 36), eye=(40, 40, 40))
    r = human("ink", col, rng=rng, ink=1.4, build=dict(leg=0.62, torso=0.92, wid=1.55, head=1.2, arm=0.95))
    Rh, w = r.meta["Rh"], r.meta["w"]
    beard = closed_smooth([(Rh * 0.9, -Rh * 0.7), (Rh * 1.0, Rh * 0.1), (Rh * 0.5, Rh * 1.3), (-Rh * 0.1, Rh * 1.1),
                           (-Rh * 0.5, -Rh * 0.4), (0, -Rh * 0.8)], 6)
    r.add("head", beard, Paint((190, 80, 36), dome=(Rh * 0.3, 0, Rh, Rh * 1.2), cel=3, tex="brush", tex_amt=0.2), 3.6, ink=1.4)
    r.add("head", closed_smooth([(Rh * 1.0, -Rh * 1.35), (Rh * 0.6, -Rh * 2.1), (-Rh * 0.6, -Rh * 2.15), (-Rh * 1.1, -Rh * 1.3),
                                 (Rh * 0.2, -Rh * 1.4)], 6), Paint((150, 156, 166), dome=(0, -Rh * 1.7, Rh, Rh * 0.6), cel=3, spec=0.3), 3.95, ink=1.4)
    for dx in (-1, 1):
        r.add("head", stroke(smooth_path([(dx * Rh * 0.6, -Rh * 1.9), (dx * Rh * 1.3, -Rh * 2.4), (dx * Rh * 1.4, -Rh * 3.0)], 6), 2.6, 0.0),
              Paint((236, 226, 200), dome=(dx * Rh, -Rh * 2.4, Rh * 0.5, Rh * 0.6), cel=3), 3.94, ink=1.4)
    r.add("torso", closed_smooth([(-6.5 * w, -2), (6.5 * w, -2), (6 * w, 3.5), (-6 * w, 3.5)], 4), Paint((100, 70, 40)), 1.0, ink=1.4)
    axe(r, ink=1.4, head_rgb=(160, 170, 180))
    return r


def goblin(rng):
    col = dict(skin=(130, 162, 56), shirt=(110, 84, 56), pants=(84, 72, 46), boots=(60, 46, 34),
               hair=(40, 36, 30), eye=(50, 210, 70))
    r = human("tex", col, rng=rng, build=dict(head=1.45, leg=0.78, wid=1.05, arm=1.1), hair=0, strand_w=0.3,
              hair_len=0.7, tex=dict(skin=("noise", 0.12, 0.8), shirt=("brush", 0.35, 0.7)), cap=False)
    Rh = r.meta["Rh"]
    ear = closed_smooth([(-Rh * 0.05, -Rh * 1.05), (-Rh * 0.9, -Rh * 1.4), (-Rh * 2.2, -Rh * 1.85), (-Rh * 1.0, -Rh * 0.65)], 5)
    r.add("head", ear, Paint(col["skin"], dome=(-Rh, -Rh * 1.1, Rh * 0.9, Rh * 0.4), tex="noise", tex_amt=0.1), 3.4)
    r.add("head", stroke(smooth_path([(Rh * 0.45, -Rh * 0.35), (Rh * 0.8, -Rh * 0.3), (Rh * 0.95, -Rh * 0.45)], 5), 0.5, 0.3), Paint((60, 30, 30)), 3.3)
    r.add("weapon", [blade(14, 2.2, 0.0)], Paint((150, 140, 120), dome=(0, 7, 1.2, 7), spec=0.3), 4.4)
    return r


def harpy(rng):
    col = dict(skin=(236, 200, 172), shirt=(40, 136, 128), pants=(40, 136, 128), boots=(210, 170, 60),
               hair=(26, 58, 52), eye=(60, 180, 80))
    r = human("shaded", col, rng=rng, hair=40, strand_w=0.16, hair_len=1.6, build=dict(wid=0.9),
              tex=dict(pants=("fur", 0.25, 1.0), shirt=("fur", 0.2, 1.0)))
    harpy_wings(r, (36, 132, 124), (196, 216, 80), rng)
    gem(r, "head", r.meta["Rh"] * 0.55, -r.meta["Rh"] * 1.6, 1.1, (170, 214, 36), 3.95)
    return r


def ogre(rng):
    r = human("shaded", dict(skin=(0, 0, 0), shirt=(0, 0, 0), pants=(0, 0, 0), boots=(0, 0, 0), hair=(0, 0, 0), eye=(0, 0, 0)),
              build=dict(leg=0.72, torso=1.05, wid=1.9, head=1.15, arm=1.3))
    r.parts = []
    m, skin = r.meta, (134, 150, 66)
    T, w, Rh, Lth, Lsh = m["T"], m["w"], m["Rh"], m["Lth"], m["Lsh"]
    Lua, Lfa = 14 * 1.3, 13 * 1.3
    r.bones["neck"] = ("torso", 4 * w, -T + 4, 0)
    m["top"] = -T + 2 - 2 * Rh
    for s, dim, z in (("b", 0.78, -3.0), ("f", 1.0, 2.0)):
        zl = -1.0 if s == "b" else 2.0
        blobs_on(r, "thigh_" + s, 0, Lth / 2, 6.0, Lth / 1.6, 5, skin, rng, zl, dim=dim)
        blobs_on(r, "shin_" + s, 0, Lsh / 2, 4.6, Lsh / 1.6, 4, skin, rng, zl + 0.1, dim=dim)
        blobs_on(r, "foot_" + s, 3, 0.5, 7.5, 3.6, 3, (100, 104, 52), rng, zl + 0.2, dim=dim)
        blobs_on(r, "arm_" + s, 0, Lua / 2, 5.8, Lua / 1.55, 5, skin, rng, z, dim=dim)
        blobs_on(r, "fore_" + s, 0, Lfa / 2, 5.0, Lfa / 1.55, 4, skin, rng, z + 0.1, dim=dim)
        blobs_on(r, "hand_" + s, 0, 3.5, 5.2, 5.0, 3, skin, rng, z + 0.6, dim=dim)
    blobs_on(r, "torso", 1 * w, -T * 0.5, 8.5 * w, T * 0.62, 9, skin, rng, 0.0)
    blobs_on(r, "torso", 4.0 * w, -T * 0.28, 6.5 * w, T * 0.4, 5, (158, 168, 86), rng, 0.05)
    blobs_on(r, "torso", 1.0 * w, -T * 0.88, 7.5 * w, T * 0.3, 5, skin, rng, 0.06)
    r.add("hip", closed_smooth([(-10, -4), (11, -4), (12, 12), (3, 9), (-4, 15), (-11, 10)], 5),
          Paint((124, 86, 52), dome=(0, 4, 10, 9), tex="brush", tex_amt=0.3), 0.5)
    blobs_on(r, "head", Rh * 0.4, -Rh * 0.85, Rh * 1.1, Rh * 0.95, 6, skin, rng, 3.0)
    blobs_on(r, "head", Rh * 0.75, -Rh * 0.3, Rh * 0.85, Rh * 0.5, 3, (150, 162, 80), rng, 3.1)
    blobs_on(r, "head", Rh * 0.85, -Rh * 1.25, Rh * 0.6, Rh * 0.25, 2, (100, 112, 50), rng, 3.2)
    blobs_on(r, "head", -Rh * 0.4, -Rh * 0.95, Rh * 0.3, Rh * 0.4, 2, skin, rng, 3.25, dim=0.9)
    r.add("head", ellipse(Rh * 1.0, -Rh * 1.0, Rh * 0.16, Rh * 0.12, 14), Paint((236, 206, 60)), 3.3)
    r.add("head", poly((Rh * 1.2, -Rh * 0.5), (Rh * 1.45, -Rh * 1.0), (Rh * 1.05, -Rh * 0.55)), Paint((240, 232, 210), dome=(Rh * 1.2, -Rh * 0.7, 2, 3)), 3.3)
    r.bones["weapon"] = ("hand_f", 0, 3.0, -165)
    r.add("weapon", stroke(smooth_path([(0, 6), (0.5, -8), (1.5, -18), (2.5, -27)], 6), 2.8, 7.5),
          Paint((118, 82, 48), dome=(1, -12, 4, 20), tex="brush", tex_amt=0.35), 4.5)
    r.add("weapon", [stroke([(2.5 - k, -13 - 5 * k), (7 - k, -15 - 5 * k)], 1.1, 0.0) for k in range(3)], Paint((210, 210, 210)), 4.51)
    return r
