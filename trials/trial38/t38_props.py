"""Trial 38 props: weapons with sub-pixel tips, a tattered cape with holes, a glass
flask (see-through, kept see-through in the truth), gems, a backpack, a scarf, armour."""

from __future__ import annotations

import numpy as np

from t38_geom import blade, capsule, closed_smooth, ellipse, poly, smooth_path, stroke
from t38_raster import Paint


def metal(rgb, dome=(0, 18, 2.5, 22), spec=0.55, cel=0):
    return Paint(rgb, dome=dome, amb=0.55, dif=0.5, spec=spec, shin=24, cel=cel)


def sword(rig, rgb=(38, 168, 160), length=36.0, width=2.8, bone="weapon", z=4.4, ink=0.0,
          flat=False):
    """A blade tapering to a point (zero width) along the bone's +y, grip at 0."""
    m = Paint(rgb) if flat else metal(rgb, (0, 6 + length / 2, width / 1.5, length * 0.7))
    rig.add(bone, blade(length, width, 0.0) + (0, 5.0), m, z, ink=ink)
    edge = blade(length * 0.92, width * 0.28, 0.0) + (width * 0.18, 5.5)
    rig.add(bone, edge, Paint(tuple(min(c * 1.35 + 30, 255) for c in rgb)), z + 0.01)
    rig.add(bone, capsule(-4.5, 4.6, 4.5, 4.6, 0.9, 0.9), metal((150, 120, 60), (0, 4.6, 4.5, 1.5)), z + 0.02, ink=ink)
    rig.add(bone, capsule(0, -4, 0, 4, 1.0, 1.0), Paint((70, 40, 30)) if flat else
            Paint((70, 40, 30), dome=(0, 0, 1.1, 4)), z - 0.01, ink=ink)
    rig.add(bone, ellipse(0, -4.6, 1.4, 1.4, 16), metal((150, 120, 60), (0, -4.6, 1.4, 1.4)), z, ink=ink)


def axe(rig, bone="weapon", z=4.4, ink=0.0, head_rgb=(170, 175, 185)):
    haft = stroke([(0, -5), (0, 26)], 1.8, 1.5)
    rig.add(bone, haft, Paint((110, 72, 40), dome=(0, 10, 1.0, 18), tex="brush", tex_amt=0.25), z, ink=ink)
    head = closed_smooth([(0.5, 19), (6, 15.5), (10.5, 13.0), (11.5, 20.5), (10.5, 28.5),
                          (6, 26.0), (0.5, 24.5)], 5)
    rig.add(bone, head, metal(head_rgb, (5, 21, 6, 8)), z + 0.1, ink=ink)
    edge = stroke(smooth_path([(10.3, 13.4), (11.6, 20.5), (10.4, 28.1)], 6), 0.5, 0.05, 1.0)
    rig.add(bone, edge, Paint((235, 240, 245)), z + 0.2)
    rig.add(bone, poly((-0.4, 18.5), (-3.5, 21.5), (-0.4, 24.0)), metal(head_rgb, (-1, 21, 3, 3)), z + 0.1, ink=ink)


def staff(rig, gem_rgb=(24, 150, 72), bone="weapon", z=1.5, length=70.0):
    rig.add(bone, stroke(smooth_path([(0, 14), (0.5, -10), (-0.5, -length * 0.75), (1.5, -length + 6)], 6), 1.6, 1.1),
            Paint((96, 66, 42), dome=(0, -20, 1.0, 40), tex="brush", tex_amt=0.3), z)
    claw = [stroke(smooth_path([(1.5, -length + 7), (4.0 + k, -length + 2 - k), (1.0 + 2 * k, -length - 3)], 5), 0.9, 0.1)
            for k in (-3, 0, 2)]
    rig.add(bone, claw, Paint((96, 66, 42)), z + 0.1)
    rig.add(bone, ellipse(1.5, -length + 2, 2.6, 3.2, 24), Paint(gem_rgb, dome=(1.5, -length + 2, 2.6, 3.2),
            amb=0.55, dif=0.6, spec=0.9, shin=40), z + 0.05)


def spear(rig, bone="weapon", z=4.4, length=60.0, ink=0.0):
    rig.add(bone, stroke([(0, -length * 0.35), (0, length * 0.6)], 1.3, 1.1), Paint((120, 84, 50), dome=(0, 0, 0.8, 30)), z, ink=ink)
    rig.add(bone, [blade(11, 2.8, 0.0) + (0, length * 0.6 - 0.5)], metal((190, 195, 200), (0, length * 0.6 + 5, 1.4, 6)), z + 0.1, ink=ink)


def cape(rig, rgb, T, w, length=45.0, holes=0, rng=None, z=-6.0, tex=None, ink=0.0, flare=4.0):
    """A cape from the shoulders, flaring back with pose['sway']; holes torn through it."""
    rng = rng or np.random.default_rng(5)
    hole_specs = [(0.3 + 0.55 * (k + rng.uniform(0.2, 0.8)) / max(holes, 1), rng.uniform(0.5, 0.82),
                   rng.uniform(0.07, 0.11), rng.uniform(0.05, 0.085), rng.uniform(0, 180)) for k in range(holes)]
    hem = rng.uniform(0.0, 1.0, 9)

    def mapper(pose):
        sway = pose.get("sway", 0.0)

        def at(s, r):
            s, r = np.asarray(s, float), np.asarray(r, float)
            wave = np.sin(s * 5.5 - sway * 2.0) * 1.5 * s
            front = 1.5 * w - 2.5 * s
            back = -6.5 * w - (flare + 9 * sway) * s ** 1.1 + wave
            x = front + (back - front) * r
            y = -T + 2 + s * length - (2 + 5 * sway) * s ** 2 * r
            return np.stack([x, y], -1)
        return at

    def geom(pose):
        at = mapper(pose)
        s = np.linspace(0, 1, 24)
        rr = np.linspace(0, 1, 10)
        hem_s = 1 - 0.06 * np.interp(np.linspace(0, 8, 10), np.arange(9), hem)
        left = at(s, 0 * s)
        bottom = np.array([at(hs, r) for hs, r in zip(hem_s, rr)])
        right = at(s[::-1], 0 * s + 1)
        return [np.concatenate([left, bottom, right])]

    def hole_geom(pose):
        at = mapper(pose)
        out = []
        for hs, hr, a, b, ang in hole_specs:
            e = ellipse(0, 0, a, b, 14, ang)
            e *= 1 + 0.25 * np.sin(np.arange(14) * 2.3)[:, None]
            out.append(np.array([at(hs + p[1], hr + p[0]) for p in e]))
        return out

    p = Paint(rgb, dome=(-3 * w, -T + length * 0.5, 9 * w, length * 0.7), amb=0.6, dif=0.45)
    if tex:
        p.tex, p.tex_amt, p.tex_scale = tex
    rig.add("torso", geom, p, z, holes=hole_geom if holes else None, ink=ink)


def flask(rig, bone="weapon", z=4.7, liquid=(205, 75, 40), glass_alpha=0.34, size=1.0):
    """A round-bottomed glass flask: see-through glass, a dense liquid, an opaque cork."""
    k = size
    body = closed_smooth([(-1.1, -9), (1.1, -9), (1.2, -5.5), (5.2, -2.0), (5.4, 2.5),
                          (2.5, 5.5), (-2.5, 5.5), (-5.4, 2.5), (-5.2, -2.0), (-1.2, -5.5)], 5) * k
    rig.add(bone, body, Paint((226, 236, 244), dome=(0, 0, 5.4 * k, 6 * k), amb=0.9, dif=0.15, spec=0.3), z, alpha=glass_alpha)
    liq = closed_smooth([(-4.9, 0.2), (4.9, 0.2), (5.0, 2.4), (2.4, 5.0), (-2.4, 5.0), (-5.0, 2.4)], 5) * k
    rig.add(bone, liq, Paint(liquid, dome=(0, 2.5 * k, 5 * k, 3.5 * k), amb=0.7, dif=0.4), z + 0.01, alpha=0.82)
    rig.add(bone, stroke(smooth_path([(-3.8, -1.5), (-4.3, 1.0), (-3.2, 3.5)], 5) * k, 0.8 * k, 0.3 * k), Paint((255, 255, 255)), z + 0.02, alpha=0.75)
    rig.add(bone, capsule(0, -11 * k, 0, -8.6 * k, 1.3 * k, 1.2 * k), Paint((140, 100, 60), dome=(0, -10 * k, 1.3 * k, 1.5 * k)), z + 0.03)


def gem(rig, bone, x, y, r, rgb, z):
    rig.add(bone, ellipse(x, y, r, r * 1.2, 18), Paint(rgb, dome=(x, y, r, r * 1.2), amb=0.5, dif=0.6, spec=0.9, shin=40), z)


def backpack(rig, T, w, z=-0.5, ink=0.0):
    pack = closed_smooth([(-5.5 * w, -T + 3), (-12 * w, -T + 4), (-13 * w, -T * 0.35), (-11 * w, -4), (-5.5 * w, -5)], 5)
    rig.add("torso", pack, Paint((130, 85, 45), dome=(-9 * w, -T * 0.55, 5 * w, T * 0.45), tex="brush", tex_amt=0.2), z, ink=ink)
    roll = capsule(-13.5 * w, -T + 2.5, -4 * w, -T + 1.0, 3.0, 3.0)
    rig.add("torso", roll, Paint((170, 40, 40), dome=(-9 * w, -T + 2, 8 * w, 3)), z + 0.1, ink=ink)
    rig.add("torso", stroke([(5.5 * w, -T + 1), (0, -T * 0.5), (-6 * w, -6)], 1.2), Paint((80, 50, 30)), 0.1)


def scarf(rig, rgb, T, w, z=3.4, ink=0.0):
    rig.add("neck", capsule(-3.2 * w, -1, 3.2 * w, -1, 2.4, 2.4), Paint(rgb, dome=(0, -1, 3.5 * w, 2.4)), z, ink=ink)

    def tail(pose):
        sw = pose.get("sway", 0.0)
        pts = [(-2.5 * w, 0), (-7 - 3 * sw, 2 - 3 * sw), (-12 - 6 * sw, 3 - 6 * sw + 2 * np.sin(sw * 4)),
               (-16 - 9 * sw, 5 - 8 * sw)]
        return [stroke(smooth_path(pts, 6), 3.6, 2.2)]
    rig.add("neck", tail, Paint(rgb, amb=0.8, dif=0.0, tex="weave", tex_amt=0.15), -4.5, ink=ink)
