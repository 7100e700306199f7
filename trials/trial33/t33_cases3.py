"""Trial 33 cases on new ground: green bounce light from the floor, a camera pan and zoom
that slides the screen, true greens (dark glass, jade) in a 704x1280 clip, and a fast
blurred kick that must raise no flag. (Linear-light wrap and the FACING turn are in
t33_cases1.)"""
from __future__ import annotations

import math

import cv2
import numpy as np

import t33_common as C
import t33_figure as F
from t33_art import clean
from t33_cases1 import keys, shadow_at
from t33_cases2 import proc, skirt
from t33_rig import Canvas, rot, walk_pose
from trial33 import Spec, case


@case
def hiker_walk_bounce():
    W = H = 512
    u = 45.0
    key = (30, 206, 50)
    st = dict(F.DEFAULT, skin=(214, 170, 136), shirt=(170, 52, 42), pants=(192, 172, 132),
              boots=(196, 196, 190), hair=(84, 56, 36), style="shaded", tex=0.05, seed=15)
    per = 28.0

    def draw(cv, t):
        ph = t / per
        pose = walk_pose(ph, amp=0.44) if t else dict(thighF=0.12, kneeF=0.1, thighB=-0.1,
                                                       kneeB=0.12, shF=0.1, shB=-0.1)
        b = F.make_body((252, 262), u, pose)

        def pack(cv, b, p):
            side = rot(np.array([1.0, 0.0]), b.P["lean"])
            c = (b.chest * 0.6 + b.hip * 0.4) - side * 0.85 * u
            cv.ellipse(c, 0.55 * u, 1.05 * u, b.P["lean"], p.fill((86, 90, 112), r=0.5 * u))
        F.figure(cv, b, st, {"back": pack, "head": lambda cv, b, p: F.hair_cap(cv, b, p, st)})
        knee_y = min(b.legs["F"][1][1], b.legs["B"][1][1])
        sole_y = max(b.legs["F"][2][1], b.legs["B"][2][1], b.legs["F"][3][1],
                     b.legs["B"][3][1]) + 0.3 * u
        return {"feet_x": 252, "knee_y": knee_y, "sole_y": sole_y}

    L = np.array(key, np.float32) / 255.0
    ys = np.arange(H, dtype=np.float32)[:, None]

    def bounce(t, info, w):
        k = 0.24 * w * C.smooth((ys - info["knee_y"]) / (info["sole_y"] - info["knee_y"]))

        def fn(fg):
            return np.minimum(fg * (1 + 1.5 * k[..., None] * L[None, None]), 255)
        return fn
    return Spec("hiker_walk_bounce", "walk", W, H, proc(W, H, 3, draw),
                screen=dict(seed=3313, canvas=(0, 254, 0), key=key, settle=3,
                            grad=(0.0, 0.22), vignette=0.16, mottle=0.02, grain=2.2,
                            flicker=0.015),
                wrap=dict(width=3, strength=0.25, falloff="lin", source="blur", mode="mix"),
                crf=20, extra=bounce, shadow=shadow_at(W, H, 252, 432, 80, 9, 0.32),
                bounce={"light": list(key), "max": 0.24, "gain": 1.5,
                        "ramp": "smoothstep from the higher knee to 0.3u below the lowest sole",
                        "model": "fg * (1 + 1.5 k L): green floor light on albedo"},
                style="procedural, shaded",
                notes="NEW: GREEN BOUNCE LIGHT from the floor: the lower legs and feet (pale "
                      "khaki trousers (192,172,132), light-grey boots (196,196,190)) are lit "
                      "green by the screen floor, up to 24 % of the floor's light on their "
                      "albedo at the soles, fading to nothing at the knees - on OPAQUE interior "
                      "pixels, in the clip only, not in the truth. Red jacket, backpack; walk; "
                      "3 px / 25 % wrap as well.")


@case
def monk_skill_panzoom():
    W = H = 512
    u = 44.0
    n = C.nframes("skill")
    st = dict(F.DEFAULT, skin=(200, 150, 110), shirt=(214, 112, 40), pants=(214, 112, 40),
              boots=(110, 70, 40), hair=(200, 150, 110), style="shaded", tex=0.04, seed=16)
    pal = [(0, 0.25), (1, 0.25), (9, 1.05), (16, 1.05), (21, 1.55), (30, 1.5), (38, 0.8)]
    elb = [(0, 0.4), (1, 0.4), (9, 1.6), (16, 1.6), (21, 0.1), (30, 0.1), (38, 0.9)]

    def draw(cv, t):
        a, e = keys(t, pal), keys(t, elb)
        step = keys(t, [(0, 0), (16, 0), (21, 0.35), (38, 0.3)])
        pose = dict(shF=a, elF=e, shB=a - 0.15, elB=e, thighF=0.15 + step, kneeF=0.15 + step * 0.5,
                    thighB=-0.1 - step * 0.6, kneeB=0.1, lean=0.05 * step / 0.35,
                    bob=0.15 * u * step / 0.35)
        b = F.make_body((246, 268), u, pose)

        def robe(cv, b, p):
            skirt(cv, b, p, st["shirt"], b.legs["F"][1][1] + 0.9 * u, 1.1 + step, wave=0.05)
            for i in range(11):  # prayer beads round the neck
                ang = math.pi * (0.15 + 0.07 * i)
                c = b.neck + np.array([0.55 * u * math.cos(ang) - 0.2 * u, 0.9 * u * math.sin(ang)])
                cv.ellipse(c, 0.1 * u, 0.1 * u, 0, p.fill((90, 50, 30), r=0.08 * u))
        F.figure(cv, b, st, {"neck": robe})
        return {"feet": (b.hip[0], 432.0)}
    world = proc(W, H, 3, draw)

    def cam(t):
        k = float(C.smooth(t / (n - 1)))
        z, px, py = 1 + 0.10 * k, 30 * k, -8 * k
        return np.float64([[z, 0, W / 2 - z * (W / 2 + px)], [0, z, H / 2 - z * (H / 2 + py)]])

    margin = 80

    def cam_field(t):
        M = cam(t).copy()
        M[:, 2] -= M[:, :2] @ np.array([margin, margin], float)
        return M

    def render(t):
        prem, info = world(t)
        if t:
            prem = clean(cv2.warpAffine(prem, cam(t), (W, H), flags=cv2.INTER_CUBIC))
        M = cam(t)
        fx, fy = info["feet"]
        info = {"fx": M[0, 0] * fx + M[0, 2], "fy": M[1, 1] * fy + M[1, 2], "z": M[0, 0]}
        return prem, info

    def shadow(t, info, w):
        return C.contact_shadow(W, H, info["fx"], info["fy"], 78 * info["z"], 9 * info["z"],
                                0.32 * w)
    return Spec("monk_skill_panzoom", "skill", W, H, render,
                screen=dict(seed=3314, canvas=(0, 254, 0), key=(34, 204, 56), settle=3,
                            grad=(0.2, 0.12), vignette=0.22, mottle=0.05, mottle_scale=70,
                            grain=2.2, flicker=0.015, margin=margin),
                wrap=dict(width=4, strength=0.30, falloff="smooth", source="blur", mode="mix"),
                crf=20, cam=cam_field, shadow=shadow,
                camera={"zoom": [1.0, 1.10], "pan_world_px": [30, -8], "ease": "smoothstep",
                        "about": "frame centre"},
                style="procedural, shaded",
                notes="NEW: CAMERA PAN AND SLOW ZOOM: over the clip the camera pans 30 px right "
                      "and 8 px up and zooms in 10 %, so the screen's strong gradient and mottle "
                      "slide and grow behind the character (the vignette stays with the lens) "
                      "and the character drifts and grows; frames resampled bicubically, the "
                      "truth through the same warp. A monk in an orange robe with prayer beads "
                      "brings his palms together and strikes forward.")


@case
def alchemist_skill_tall():
    W, H = 704, 1280
    u = 108.0
    glass, jade = (18, 72, 40), (88, 160, 118)
    st = dict(F.DEFAULT, skin=(226, 190, 164), shirt=(112, 62, 92), pants=(112, 62, 92),
              boots=(60, 40, 34), hair=(196, 196, 204), style="shaded", tex=0.05, seed=17)
    lift = [(0, 0.35), (1, 0.35), (12, 2.45), (28, 2.45), (38, 1.6)]
    elb = [(0, 0.9), (1, 0.9), (12, 0.35), (28, 0.35), (38, 0.7)]

    def draw(cv, t):
        shake = 0.16 * math.sin(2 * math.pi * t / 4.0) if 13 <= t <= 27 else 0.0
        a, e = keys(t, lift), keys(t, elb)
        pose = dict(shF=a + shake, elF=e, shB=-0.15 - 0.1 * (a - 0.35), elB=0.7, thighF=0.1,
                    kneeF=0.08, thighB=-0.08, kneeB=0.08, head=-0.12 * (a - 0.35) / 2.1,
                    lean=-0.03 * (a - 0.35) / 2.1)
        b = F.make_body((340, 780), u, pose)

        def robe(cv, b, p):
            skirt(cv, b, p, st["shirt"], b.legs["F"][2][1] - 0.15 * u, 1.05, wave=0.03)
            cv.limb(b.hip + (-0.7 * u, -0.55 * u), b.hip + (0.66 * u, -0.55 * u), 0.1 * u, 0.1 * u,
                    (70, 46, 30))
            c = b.chest + (0.25 * u, 0.35 * u)  # the jade amulet on a cord
            cv.stroke(np.array([b.neck + (-0.2 * u, 0), c, b.neck + (0.35 * u, 0.05 * u)]), 1.2,
                      (60, 40, 30))
            cv.ellipse(c, 0.26 * u, 0.34 * u, 0.1, p.fill(jade, r=0.18 * u), outline=((70, 54, 30), 2.0))

        def beard(cv, b, p):
            F.hair_cap(cv, b, p, st)
            c, ang = b.headc, b.P["lean"] + b.P["head"]
            pts = [c + rot(np.array(q) * u, ang) for q in [(0.05, 0.35), (0.55, 0.25), (0.3, 1.2),
                                                             (0.0, 1.0)]]
            cv.poly(np.array(pts), p.fill(st["hair"], r=0.2 * u))
            F.strands(cv, b, st, 36, 1.3, (0.6, 1.2), 0.05 * math.sin(t * 0.4), seed=61)

        def bottle(cv, b, side):
            ha, el = b.arms[side][2], b.arms[side][1]
            d = (ha - el) / np.linalg.norm(ha - el)
            n = np.array([-d[1], d[0]])
            c = ha + d * 0.1 * u - n * 0.15 * u
            ang = math.atan2(n[1], n[0]) + math.pi / 2
            cv.ellipse(c - n * 0.25 * u, 0.42 * u, 0.52 * u, ang,
                       F.Painter(st, u).fill(glass, r=0.3 * u))
            cv.limb(c + n * 0.1 * u, c + n * 0.75 * u, 0.13 * u, 0.11 * u, glass)
            cv.limb(c + n * 0.75 * u, c + n * 0.92 * u, 0.12 * u, 0.12 * u, (150, 110, 70))
            cv.limb(c - n * 0.5 * u - d * 0.2 * u, c - n * 0.05 * u - d * 0.25 * u, 0.04 * u,
                    0.03 * u, (70, 130, 90))  # a highlight in the glass (still dark green)

        def bracelet(cv, b, side):
            ha, el = b.arms[side][2], b.arms[side][1]
            w = el + (ha - el) * 0.85
            cv.ellipse(w, 0.2 * u, 0.12 * u, math.atan2(*(ha - el)[::-1]) + math.pi / 2,
                       F.Painter(st, u).fill(jade, r=0.1 * u))
        F.figure(cv, b, st, {"neck": robe, "head": beard, "item": bottle, "item_back": bracelet})
        return {"feet_x": 340}
    return Spec("alchemist_skill_tall", "skill", W, H, proc(W, H, 2, draw),
                screen=dict(seed=3315, canvas=(0, 254, 0), key=(30, 200, 50), settle=3,
                            grad=(0.03, 0.16), vignette=0.2, mottle=0.02, grain=2.4,
                            flicker=0.015),
                wrap=dict(width=5, strength=0.30, falloff="lin", source="blur", mode="mix"),
                crf=22, shadow=shadow_at(W, H, 340, 1176, 170, 18, 0.32),
                true_greens={"glass_bottle": list(glass), "jade": list(jade)},
                style="procedural, shaded, drawn 2x",
                notes="NEW: TRUE GREENS and a TALL clip: 704x1280 (a 720x1280 request snapped to "
                      "multiples of 32), a grey-bearded alchemist 880 px tall raises a DARK-GREEN "
                      "GLASS BOTTLE (18,72,40) overhead and shakes it; a JADE amulet and bracelet "
                      "(88,160,118) - green hues far from the screen's, opaque and in the truth, "
                      "which despill must not grey out; 36 beard/hair strands; 5 px / 30 % wrap.")


@case
def brawler_fastkick_clean():
    W = H = 448
    u = 38.0
    st = dict(F.DEFAULT, skin=(186, 130, 96), shirt=(196, 40, 44), pants=(34, 32, 40),
              boots=(30, 28, 30), hair=(24, 20, 20), style="shaded", sleeve=False, seed=18)
    K = dict(th=[(0, 0.15), (1, 0.15), (8, 1.25), (9, 1.3), (10.5, 1.6), (16, 1.55), (23, 0.2),
                 (38, 0.15)],
             kn=[(0, 0.15), (1, 0.15), (8, 1.7), (9, 1.75), (10.5, 0.02), (16, 0.05), (19, 1.4),
                 (23, 0.2), (38, 0.15)],
             lean=[(0, 0.05), (8, -0.15), (10.5, -0.35), (16, -0.3), (23, 0.05), (38, 0.05)])

    def draw(cv, t):
        th, kn, ln = (keys(t, K[k]) for k in ("th", "kn", "lean"))
        g = 0.05 * math.sin(t * 0.7) if t > 23 else 0.0
        pose = dict(thighF=th, kneeF=kn, thighB=-0.12, kneeB=0.2 + 0.2 * th, lean=ln,
                    shF=1.0 + g, elF=1.9, shB=0.5 - g, elB=2.0, bob=0.1 * u * th, head=-0.5 * ln)
        b = F.make_body((190, 276), u, pose)
        F.figure(cv, b, st, {"head": lambda cv, b, p: F.hair_cap(cv, b, p, st)})
        return {"feet_x": 176}
    def blur(t):  # enough instants that the streak is smooth (< 2 px apart at the foot)
        if 9 <= t <= 11:
            return (40, 0.85)
        return (14, 0.85) if 8 <= t <= 12 or 16 <= t <= 22 else (1, 0)
    return Spec("brawler_fastkick_clean", "attack", W, H, proc(W, H, 3, draw, blur),
                screen=dict(seed=3316, canvas=(0, 254, 0), key=(26, 210, 46), settle=3,
                            grad=(0.06, 0.12), vignette=0.18, grain=2.2, flicker=0.015),
                wrap=dict(width=3, strength=0.28, falloff="lin", source="blur", mode="mix"),
                crf=21, expect=[], shadow=shadow_at(W, H, 176, 420, 62, 8, 0.3),
                style="procedural, shaded",
                notes="QC: a FAST snap kick: the shin whips 100 degrees in 1.5 frames and "
                      "retracts; frames 8-12 and 16-22 are 14-40 sub-frame instants over an "
                      "0.85-frame shutter, so the leg is a long translucent streak - motion blur "
                      "of the current pose, NOT a blend of the previous frame: no SMEAR, no "
                      "other flag should fire.")
