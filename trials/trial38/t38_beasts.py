"""Trial 38 creatures: a furred wolf (tufted silhouette), a teal dragonling with strutted
wings, an ogre of layered painted blobs on the biped rig, and a harpy's feathered wings."""

from __future__ import annotations

import numpy as np

from t38_geom import Rig, capsule, closed_smooth, ellipse, feather, poly, smooth_path, stroke, tufts
from t38_raster import Paint


def fur(rgb, dome, amt=0.28):
    return Paint(rgb, dome=dome, amb=0.6, dif=0.5, tex="fur", tex_amt=amt, tex_scale=0.6)


def wolf(rng, coat=(118, 108, 98), belly=(172, 160, 146), eye=(70, 200, 90)):
    r = Rig()
    r.bone("body", None)
    r.bone("neck", "body", 19, -6)
    r.bone("head", "neck", 7, -9)
    r.bone("jaw", "head", 6, 2)
    r.bone("ear", "head", -1, -5)
    for near, dim, z in (("f", 1.0, 2.0), ("b", 0.72, -2.0)):
        r.bone(f"leg_{near}f_1", "body", 15, 4)
        r.bone(f"leg_{near}f_2", f"leg_{near}f_1", 0, 13)
        r.bone(f"leg_{near}f_3", f"leg_{near}f_2", 0, 12)
        r.bone(f"leg_{near}h_1", "body", -17, 2)
        r.bone(f"leg_{near}h_2", f"leg_{near}h_1", 0, 15, 0)
        r.bone(f"leg_{near}h_3", f"leg_{near}h_2", 0, 13)
        c = tuple(v * dim for v in coat)
        r.add(f"leg_{near}f_1", capsule(0, -2, 0, 13, 4.2, 2.6), fur(c, (0, 5, 4, 9)), z)
        r.add(f"leg_{near}f_2", capsule(0, 0, 0, 12, 2.7, 2.1), fur(c, (0, 6, 2.4, 8)), z + 0.1)
        r.add(f"leg_{near}f_3", closed_smooth([(-2, -1), (2, -1), (4.8, 1.6), (4.2, 3), (-2.2, 2.8)], 4), fur(c, (1, 1, 4, 3)), z + 0.2)
        r.add(f"leg_{near}h_1", closed_smooth([(-6, -4), (5, -5), (4, 8), (0.5, 15.5), (-3, 12)], 5), fur(c, (0, 4, 6, 10)), z)
        r.add(f"leg_{near}h_2", capsule(0, 0, 0, 13, 2.8, 2.0), fur(c, (0, 6, 2.4, 8)), z + 0.1)
        r.add(f"leg_{near}h_3", closed_smooth([(-2, -1), (2, -1), (4.6, 1.6), (4, 3), (-2.2, 2.8)], 4), fur(c, (1, 1, 4, 3)), z + 0.2)
    body = closed_smooth([(-24, -4), (-16, -11), (0, -10), (16, -11), (23, -5), (21, 7), (10, 10),
                          (-4, 8), (-18, 9), (-25, 3)], 6)
    back = [body] + tufts([(-23, -3.5), (-13, -9.2), (2, -8.6), (16, -9.2)], 28, 3.4, 2.2, rng) \
        + tufts([(18, 7), (4, 8), (-10, 7), (-19, 6.5)], 16, 2.8, 2.0, rng)
    r.add("body", back, fur(coat, (0, -2, 26, 14)), 0.0)
    r.add("body", closed_smooth([(14, 2), (21, 5), (12, 10), (-2, 8.5), (-14, 8.5), (-8, 5), (4, 5)], 5),
          fur(belly, (4, 7, 14, 4)), 0.1)
    ruff = [closed_smooth([(0, 4), (9, -4), (10, -12), (2, -13), (-6, -4), (-4, 6)], 5)] + \
        tufts([(-5, 5), (-6, -4), (1, -13), (9, -13)], 14, 3.4, 2.2, rng, side=-1.0)
    r.add("neck", ruff, fur(coat, (2, -4, 9, 9)), 0.5)
    skull = closed_smooth([(-5, -3), (0, -7), (6, -5), (16, -1.5), (17, 1.5), (8, 2.5), (0, 4), (-5, 2)], 6)
    r.add("head", skull, fur(coat, (3, -1, 9, 6), 0.18), 1.0)
    r.add("head", closed_smooth([(14, -1.5), (17.4, -0.6), (17.2, 1.2), (14.5, 1.0)], 3), Paint((30, 26, 26), dome=(16, 0, 2, 1.5), spec=0.4), 1.1)
    r.add("jaw", closed_smooth([(-1, -0.5), (9, -0.3), (9.5, 1.5), (0, 3)], 4), fur(belly, (4, 1, 6, 2), 0.12), 0.9)
    r.add("ear", [poly((-2.5, 1), (0.5, -7), (2.5, 1.5))], fur(coat, (0, -2, 2.5, 4), 0.1), 0.95)
    r.add("head", ellipse(7.0, -2.4, 1.3, 0.95, 16), Paint(eye, dome=(7.0, -2.4, 1.3, 0.95), amb=0.7, dif=0.5, spec=0.6), 1.2)
    r.add("head", ellipse(7.3, -2.4, 0.35, 0.75, 10), Paint((10, 10, 10)), 1.3)
    for k in range(1, 5):
        r.bone(f"tail_{k}", "body" if k == 1 else f"tail_{k - 1}", -24 if k == 1 else 0, -3 if k == 1 else 7,
               105 if k == 1 else -8)
        rr = (2.6, 3.6, 3.8, 3.0)[k - 1]
        shape = [ellipse(0, 3.5, rr, 6.5, 24)] + tufts([(-rr * 0.8, 0), (-rr * 0.8, 4), (-rr * 0.6, 9)], 6, 1.4 + 0.3 * k, 1.8, rng, side=-1.0) \
            + tufts([(rr * 0.8, 0), (rr * 0.8, 4), (rr * 0.6, 9)], 6, 1.4 + 0.3 * k, 1.8, rng)
        if k == 4:
            shape += [closed_smooth([(-2.6, 7), (2.6, 7), (0.3, 14.5)], 4)]
        r.add(f"tail_{k}", shape, fur(coat if k < 4 else (88, 80, 74), (0, 4, rr + 3, 14)), -3.0 + 0.01 * k)
    r.meta = dict(feet=27.0, top=-26.0)
    return r


def dragonling(rng, scale_rgb=(44, 150, 142), belly=(176, 192, 84), wing=(76, 124, 104),
               eye=(235, 170, 40)):
    r = Rig()
    r.bone("body", None)
    r.bone("neck", "body", 8, -8)
    r.bone("head", "neck", 4, -10)
    r.bone("wing_1", "body", -2, -8, 180)
    r.bone("wing_2", "wing_1", 0, 14)
    r.bone("wingn_1", "body", 1, -7, 188)
    r.bone("wingn_2", "wingn_1", 0, 13)
    r.bone("leg_f", "body", 4, 8)
    r.bone("leg_b", "body", -3, 8)
    sc = Paint(scale_rgb, dome=(0, 0, 12, 12), amb=0.58, dif=0.55, spec=0.25, tex="scales", tex_amt=0.22, tex_scale=0.9)
    r.add("body", closed_smooth([(-11, -2), (-4, -11), (7, -10), (12, -2), (8, 9), (-6, 10)], 6), sc, 0.0)
    r.add("body", closed_smooth([(2, -6), (9, -4), (8, 6), (0, 9), (-3, 3)], 5), Paint(belly, dome=(4, 1, 6, 8), tex="weave", tex_amt=0.12, tex_scale=0.8), 0.1)
    r.add("neck", capsule(0, 0, 3, -10, 4.0, 3.2), Paint(scale_rgb, dome=(1, -5, 4, 6), amb=0.6, dif=0.5), 0.2)
    head = closed_smooth([(-4, -2), (0, -6), (7, -4), (12, -1), (11.5, 2), (3, 3.5), (-3, 3)], 5)
    r.add("head", head, Paint(scale_rgb, dome=(3, -1, 8, 5), amb=0.6, dif=0.5, spec=0.2), 0.3)
    for dx, z in ((-1.0, 0.25), (1.5, 0.35)):
        r.add("head", stroke(smooth_path([(dx - 1, -4.5), (dx - 5, -8), (dx - 9, -8.5)], 6), 2.0, 0.0), Paint((220, 210, 180), dome=(dx - 5, -7, 4, 2)), z)
    r.add("head", ellipse(4.5, -2.0, 1.5, 1.2, 16), Paint(eye, dome=(4.5, -2.0, 1.5, 1.2), amb=0.7, dif=0.5, spec=0.6), 0.4)
    r.add("head", ellipse(4.8, -2.0, 0.4, 1.0, 10), Paint((15, 10, 10)), 0.41)
    for leg, dim, z in (("leg_f", 1.0, 0.5), ("leg_b", 0.75, -0.5)):
        c = tuple(v * dim for v in scale_rgb)
        r.add(leg, [capsule(0, 0, 1, 7, 2.6, 1.8), closed_smooth([(-1, 6), (4, 6.5), (4.5, 8.5), (-1.5, 8.5)], 3)],
              Paint(c, dome=(0, 4, 3, 5)), z)
        r.add(leg, [stroke([(3.5 + k, 8.2), (5.0 + k * 1.3, 9.5)], 0.6, 0.0) for k in (-1.5, 0, 1.5)], Paint((230, 220, 200)), z + 0.01)
    for k in range(1, 6):
        r.bone(f"tail_{k}", "body" if k == 1 else f"tail_{k - 1}", -10 if k == 1 else 0, 4 if k == 1 else 6, 75 if k == 1 else 8)
        rr = 3.2 - 0.5 * k
        r.add(f"tail_{k}", capsule(0, 0, 0, 6.5, max(rr, 0.4), max(rr - 0.5, 0.3)), Paint(scale_rgb, dome=(0, 3, 2.5, 4), amb=0.6, dif=0.45), -1.0)
    r.add("tail_5", poly((0, 5), (-3, 9), (0, 13), (3, 9)), Paint(belly, dome=(0, 9, 3, 4)), -0.99)

    def membrane(pose):
        f = pose.get("fold", 0.0)
        tips = [(-4 + 2 * f, 24 - 4 * f), (5 + f, 22 - 6 * f), (12, 16 - 5 * f), (16 - 2 * f, 8 - 2 * f)]
        pts = [(-6, -14), (-4, 2)]
        for i, tp in enumerate(tips):
            pts.append(tp)
            if i + 1 < len(tips):
                nx = tips[i + 1]
                pts.append(((tp[0] + nx[0]) / 2 - 1.2, (tp[1] + nx[1]) / 2 - 3.2))
        pts += [(10, -4), (3, -13)]
        return [closed_smooth(pts, 4)]

    def struts(pose):
        f = pose.get("fold", 0.0)
        tips = [(-4 + 2 * f, 24 - 4 * f), (5 + f, 22 - 6 * f), (12, 16 - 5 * f), (16 - 2 * f, 8 - 2 * f)]
        return [stroke([(0, 0), tp], 1.1, 0.25) for tp in tips] + [capsule(0, -14, 0, 0, 1.6, 1.3)]
    for bone, z, dim in (("wing_2", -2.0, 0.8), ("wingn_2", 0.45, 1.0)):
        r.add(bone, membrane, Paint(tuple(v * dim for v in wing), dome=(4, 6, 16, 18), amb=0.65, dif=0.4, tex="noise", tex_amt=0.12), z)
        r.add(bone, struts, Paint(tuple(v * 0.7 * dim for v in scale_rgb), dome=(4, 6, 16, 18), amb=0.7, dif=0.3), z + 0.01)
    r.meta = dict(feet=26.0, top=-30.0)
    return r


def blobs_on(rig, bone, cx, cy, rx, ry, n, rgb, rng, z, jitter=0.1, dim=1.0):
    """A painted mass: n overlapping lit blobs with jittered hues over one ellipse."""
    for k in range(n):
        a = rng.uniform(0, 2 * np.pi)
        d = np.sqrt(rng.uniform(0, 1)) * 0.45
        bx, by = cx + np.cos(a) * rx * d, cy + np.sin(a) * ry * d
        brx, bry = rx * rng.uniform(0.45, 0.7), ry * rng.uniform(0.45, 0.7)
        c = tuple(np.clip(np.array(rgb) * dim * (1 + rng.uniform(-jitter, jitter, 3)), 0, 255))
        p = Paint(c, dome=(cx, cy, rx * 1.05, ry * 1.05), amb=0.6, dif=0.5, tex="brush",
                  tex_amt=0.18, tex_scale=rng.uniform(0.6, 1.2))
        rig.add(bone, ellipse(bx, by, brx, bry, 28, rng.uniform(0, 180)), p, z + k * 1e-3)
    rig.add(bone, ellipse(cx, cy, rx * 0.92, ry * 0.92, 36),
            Paint(tuple(np.array(rgb) * dim), dome=(cx, cy, rx, ry), amb=0.6, dif=0.5), z - 0.01)


def harpy_wings(rig, rgb, tip_rgb, rng, n=9):
    """Replace the arms with wings: rows of feathers on arm and forearm bones."""
    rig.parts = [p for p in rig.parts if not p.bone.startswith(("arm_", "fore_", "hand_"))]
    for s, dim, z in (("b", 0.75, -3.5), ("f", 1.0, 4.0)):
        for bone, count, L0, z0 in ((f"arm_{s}", n // 2 + 1, 22, z), (f"fore_{s}", n, 32, z + 0.2)):
            for k in range(count):
                y = 1 + k * (12.0 / count)
                L = L0 * (0.75 + 0.35 * k / count) * rng.uniform(0.93, 1.07)
                f = feather(L, 4.4, curl=-3.0) @ np.array([[np.cos(0.5), np.sin(0.5)], [-np.sin(0.5), np.cos(0.5)]]) + (0.5, y)
                c = tuple(np.array(rgb) * dim * rng.uniform(0.9, 1.08))
                rig.add(bone, f, Paint(c, dome=(-2, y + L / 3, 3, L / 2), grad=(y + L * 0.55, y + L * 1.05, tuple(np.array(tip_rgb) * dim)),
                                       amb=0.62, dif=0.45, tex="fur", tex_amt=0.15, tex_scale=1.2), z0 - k * 0.01)
        rig.add(f"arm_{s}", capsule(0, 0, 0, 14, 3.2, 2.6), Paint(tuple(np.array(rgb) * dim), dome=(0, 7, 3, 8)), z + 0.3)
        rig.add(f"fore_{s}", capsule(0, 0, 0, 13, 2.6, 1.8), Paint(tuple(np.array(rgb) * dim), dome=(0, 6, 2.6, 8)), z + 0.4)
