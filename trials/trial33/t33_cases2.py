"""Trial 33 cases of issue 9's own kinds, drawn procedurally: shaded, cel, flat and ink
styles; green / teal clothes and skin; hair strands and weapon tips; motion blur."""
from __future__ import annotations

import math

import numpy as np

import t33_common as C
import t33_figure as F
from t33_cases1 import keys, shadow_at
from t33_rig import Canvas, rot, walk_pose
from trial33 import Spec, case


def proc(W, H, S, draw, blur=None):
    """render(t): the figure drawn S x oversized; blur(t) -> (K, shutter in frames) renders
    K sub-frame instants across the shutter and averages them (motion blur, in the truth)."""
    def render(t):
        K, sh = blur(t) if (blur and t > 0) else (1, 0.0)
        subs = [t] if K == 1 else [t + (i / (K - 1) - 0.5) * sh for i in range(K)]
        acc = None
        info = {}
        for s in subs:
            cv = Canvas(W, H, S)
            info = draw(cv, s) or {}
            img = cv.finish()
            acc = img if acc is None else acc + img
        return acc / len(subs), info
    return render


def breath(t, per=28.0):
    return math.sin(2 * math.pi * t / per) if t else 0.0


@case
def shirt_idle_w6():
    W = H = 512
    u = 46.0
    st = dict(F.DEFAULT, skin=(226, 184, 152), shirt=(62, 150, 64), pants=(88, 68, 52),
              boots=(46, 36, 30), hair=(58, 38, 26), style="shaded", tex=0.06, seed=11)

    def draw(cv, t):
        s, s2 = breath(t), breath(t, 14.0)
        pose = dict(lean=0.025 * s, bob=0.05 * u * s2, head=0.06 * s, thighF=0.14, kneeF=0.1,
                    thighB=-0.1, kneeB=0.12, shF=0.12 + 0.08 * s, elF=0.28 + 0.06 * s,
                    shB=-0.08 - 0.06 * s, elB=0.3)
        b = F.make_body((250 + 5 * s, 272), u, pose)

        def hair(cv, b, p):
            F.hair_cap(cv, b, p, st)
            F.strands(cv, b, st, 44, 1.5, (0.45, 1.0), 0.12 * s + 0.05, seed=21)

        def collar(cv, b, p):  # a darker green shirt collar and a belt
            up = rot(np.array([0.0, -1.0]), b.P["lean"])
            cv.limb(b.hip + up * 0.3 * u - (0.55 * u, 0), b.hip + up * 0.3 * u + (0.5 * u, 0),
                    0.14 * u, 0.14 * u, (70, 50, 30))
            cv.limb(b.neck + up * 0.05 * u - (0.25 * u, 0), b.neck + (0.25 * u, 0.05 * u),
                    0.12 * u, 0.1 * u, F.dim(st["shirt"], 0.7))
        F.figure(cv, b, st, {"head": hair, "neck": collar})
        return {"feet_x": b.legs["F"][2][0] - 20}
    return Spec("shirt_idle_w6", "idle", W, H, proc(W, H, 3, draw),
                screen=dict(seed=3307, canvas=(0, 254, 0), key=(32, 208, 48), settle=3,
                            grad=(0.04, 0.14), vignette=0.2, mottle=0.025, grain=2.4,
                            flicker=0.02),
                wrap=dict(width=6, strength=0.35, falloff="smooth", source="blur", mode="mix"),
                crf=22, shadow=shadow_at(W, H, 250, 452, 80, 9, 0.35),
                style="procedural, shaded + fabric texture, drawn 3x and area-averaged",
                notes="The issue's hardest case drawn our own way: a shaded figure in a mid-green "
                      "shirt (62,150,64) under a 6 px / 35 % wrap (smoothstep falloff, blurred "
                      "backdrop light) with 44 hair strands 0.45-1 px wide swaying; idle breathing "
                      "and weight shift; contact shadow not in the truth.")


def skirt(cv, b, p, col, hem, flare, wave=0.0, n=9, far=False):
    """An A-line skirt or robe from the waist to y = hem (frame px), hem waving."""
    u = b.u
    up = rot(np.array([0.0, -1.0]), b.P["lean"])
    w0 = b.hip + up * 0.55 * u
    xs = np.linspace(-1, 1, n)
    hemx = b.hip[0] + xs * flare * u + 0.15 * u
    hemy = hem + wave * u * np.sin(xs * 3.0 + b.P.get("ph", 0.0) * 2 * math.pi)
    pts = [w0 + (-0.72 * u, 0)] + [np.array([x, y]) for x, y in zip(hemx, hemy)] + \
          [w0 + (0.66 * u, 0)]
    cv.poly(np.array(pts), p.fill(col, far, r=1.0 * u), outline=p.outline())


def cape(cv, b, p, col, length, trail, ph):
    """A cape from the shoulders, trailing `trail` u behind, hem rippling with phase ph."""
    u = b.u
    top0, top1 = b.sh + (-0.55 * u, -0.1 * u), b.sh + (0.25 * u, -0.15 * u)
    k = np.linspace(0, 1, 8)
    hem = [b.sh + (0.1 * u - (0.9 + trail) * u * kk + 0.25 * u * math.sin(2 * math.pi * (ph + kk)),
                   length * u - 0.5 * u * kk * trail + 0.2 * u * math.cos(2 * math.pi * (ph + kk)))
           for kk in k]
    cv.poly(np.array([top1] + hem + [top0]), p.fill(col, True, r=0.9 * u), outline=p.outline())


@case
def dryad_idle_hair():
    W = H = 512
    u = 44.0
    st = dict(F.DEFAULT, skin=(72, 168, 158), shirt=(46, 140, 64), pants=(72, 168, 158),
              boots=(112, 82, 50), hair=(36, 120, 104), style="flat", sleeve=False, seed=12)

    def draw(cv, t):
        s, s2 = breath(t), breath(t, 18.7)
        pose = dict(lean=0.02 * s, bob=0.04 * u * s2, head=-0.05 * s, thighF=0.1, kneeF=0.06,
                    thighB=-0.06, kneeB=0.08, shF=0.35 + 0.16 * s, elF=0.5 + 0.14 * s,
                    shB=-0.25 - 0.08 * s, elB=0.4, ph=t / 28.0)
        b = F.make_body((256 + 6 * s, 276), u, pose)

        def back_hair(cv, b, p):  # long hair hanging down the back, 90 strands
            F.strands(cv, b, st, 90, 3.4, (0.5, 1.1), 0.05 * s + 0.03 * s2, seed=31, droop=-0.2,
                      spread=0.6)

        def dress(cv, b, p):
            skirt(cv, b, p, st["shirt"], b.hip[1] + 1.5 * u, 1.15, wave=0.08)
            rng = np.random.default_rng(7)
            for i in range(14):  # leaves round the hem, two greens
                x = b.hip[0] + (-1.1 + 2.2 * i / 13) * u + 0.15 * u
                y = b.hip[1] + 1.5 * u + 0.1 * u * math.sin(i * 2.1 + 6 * t / 28)
                cv.ellipse((x, y), 0.22 * u, 0.12 * u, 1.2 + 0.5 * rng.random(),
                           (30, 104, 44) if i % 2 else (96, 172, 72))

        def crown(cv, b, p):
            F.hair_cap(cv, b, p, st)
            for i in range(5):  # a leaf crown
                a = math.pi * (1.15 + 0.16 * i)
                c = b.headc + 0.72 * u * np.array([math.cos(a), math.sin(a)])
                cv.ellipse(c, 0.2 * u, 0.09 * u, a + 1.5, (96, 172, 72))
        F.figure(cv, b, st, {"back": back_hair, "neck": dress, "head": crown})
        return {"feet_x": b.hip[0]}
    return Spec("dryad_idle_hair", "idle", W, H, proc(W, H, 3, draw),
                screen=dict(seed=3308, canvas=(0, 254, 0), key=(38, 214, 66), settle=3,
                            grad=(0.02, 0.1), vignette=0.16, mottle=0.05, mottle_scale=40,
                            grain=4.0, chroma_grain=1.2, flicker=0.035, pulse=0.015),
                wrap=dict(width=5, strength=0.30, falloff="lin", source="blur", mode="mix"),
                crf=24, shadow=shadow_at(W, H, 256, 437, 70, 8, 0.3),
                style="procedural, flat fills (no shading)",
                notes="A flat-coloured dryad with TEAL skin (72,168,158), a green leaf dress and "
                      "90 teal-green hair strands 0.5-1.1 px wide hanging down her back; idle "
                      "sway; a noisy (grain 4, chroma grain), mottled, flickering and pulsing "
                      "screen; 5 px / 30 % wrap; CRF 24.")


@case
def inkwitch_skill_blue():
    W, H = 448, 576
    u = 50.0
    st = dict(F.DEFAULT, skin=(236, 214, 200), shirt=(36, 104, 168), pants=(36, 104, 168),
              boots=(40, 30, 36), hair=(44, 30, 56), style="ink", ink=(22, 18, 30), ink_w=1.6)
    raise_ = [(0, 0.25), (1, 0.25), (10, 2.7), (28, 2.55), (37, 0.3)]
    other = [(0, -0.2), (1, -0.2), (12, 1.2), (27, 1.3), (37, -0.15)]

    def draw(cv, t):
        a, o = keys(t, raise_), keys(t, other)
        w = math.sin(t * 0.9) * 0.12 if 10 < t < 30 else 0.0
        pose = dict(lean=-0.04 * (a - 0.25) / 2.4, shF=a + w, elF=0.15, shB=o, elB=0.2,
                    thighF=0.08, kneeF=0.05, thighB=-0.05, kneeB=0.05, head=-0.1 * (a - 0.25) / 2.4)
        b = F.make_body((214, 352), u, pose)

        def robe(cv, b, p):
            skirt(cv, b, p, st["shirt"], b.legs["F"][2][1] - 0.05 * u, 1.25, wave=0.04)

        def hair(cv, b, p):
            F.strands(cv, b, st, 30, 2.2, (0.5, 1.0), 0.06 * math.sin(t * 0.5), seed=41, droop=-0.1)
            F.hair_cap(cv, b, p, st)
            c, ang = b.headc, b.P["lean"] + b.P["head"]
            brim = [c + rot(np.array(q) * u, ang) for q in [(-1.15, -0.42), (1.1, -0.5),
                                                              (1.05, -0.36), (-1.1, -0.28)]]
            cv.poly(np.array(brim), (30, 28, 40), outline=p.outline())
            cone = [c + rot(np.array(q) * u, ang) for q in [(-0.55, -0.45), (0.5, -0.5),
                                                              (0.1, -1.4), (-0.55, -2.05)]]
            cv.poly(np.array(cone), (30, 28, 40), outline=p.outline())

        def staff(cv, b, side):
            ha, el = b.arms[side][2], b.arms[side][1]
            d = (ha - el) / np.linalg.norm(ha - el)
            n = np.array([-d[1], d[0]])
            top, bot = ha + n * 2.4 * u, ha - n * 1.9 * u
            cv.limb(bot, top, 0.045 * u, 0.03 * u, (74, 52, 36), outline=((22, 18, 30), 0.9))
            tip = top + n * 0.45 * u
            cv.poly(np.array([top + d * 0.12 * u, tip, top - d * 0.12 * u]), (60, 200, 190),
                    outline=((22, 18, 30), 0.8))
        F.figure(cv, b, st, {"neck": robe, "head": hair, "item": staff})
        return {"feet_x": b.hip[0]}
    return Spec("inkwitch_skill_blue", "skill", W, H, proc(W, H, 3, draw),
                screen=dict(seed=3309, canvas=(0, 0, 254), key=(24, 64, 204), settle=4,
                            grad=(0.06, 0.14), vignette=0.2, mottle=0.02, grain=2.0,
                            flicker=0.015),
                wrap=dict(width=4, strength=0.30, falloff="smooth", source="blur", mode="mix"),
                crf=20, shadow=shadow_at(W, H, 214, 536, 66, 8, 0.3),
                style="procedural, ink: flat fills with a 1.6 px outline round every part",
                notes="BLUE screen: an ink-outlined witch in a teal-blue robe (36,104,168) on a "
                      "blue key, raising a 2-4 px staff with a thin teal crystal tip overhead, "
                      "hat cone and brim, 30 hair strands; 4 px / 30 % wrap of blue light.")


def bow_on_back(cv, b, u):
    """A bow slung across the back: a 2.4 px wooden arc and a 0.7 px string."""
    up = rot(np.array([0.0, -1.0]), b.P["lean"])
    side = rot(np.array([1.0, 0.0]), b.P["lean"])
    c = (b.chest + b.hip) / 2 - side * 0.75 * u
    tt = np.linspace(-1.0, 1.0, 24)
    ax = rot(np.array([0.0, -1.0]), b.P["lean"] + 0.5)
    nx = np.array([-ax[1], ax[0]])
    arc = np.array([c + ax * 2.0 * u * k - nx * 0.55 * u * (1 - k * k) for k in tt])
    cv.stroke(arc, 2.4, (112, 72, 38))
    cv.stroke(np.array([arc[0], arc[-1]]), 0.7, (226, 218, 196))


@case
def archer_run_blur():
    W, H = 576, 448
    u = 40.0
    st = dict(F.DEFAULT, skin=(210, 160, 120), shirt=(104, 122, 52), pants=(92, 66, 44),
              boots=(60, 44, 30), hair=(40, 128, 118), style="shaded", tex=0.12, seed=13)
    per = 12.0

    def draw(cv, t):
        ph = t / per
        pose = walk_pose(ph, amp=0.5, run=True) if t else dict(thighF=0.1, kneeF=0.1,
                                                                 thighB=-0.1, kneeB=0.1)
        b = F.make_body((288, 266), u, pose)

        def back(cv, b, p):
            cape(cv, b, p, (40, 128, 118), 2.6, 1.2 if t else 0.3, ph)
            bow_on_back(cv, b, u)

        def hood(cv, b, p):
            F.hair_cap(cv, b, p, st)
        F.figure(cv, b, st, {"back": back, "head": hood})
        return {"feet_x": 288}
    blur = lambda t: (5, 0.5)
    return Spec("archer_run_blur", "run", W, H, proc(W, H, 3, draw, blur),
                screen=dict(seed=3310, canvas=(0, 254, 0), key=(46, 200, 34), settle=2,
                            grad=(0.18, 0.05), grad_tint=(12, -4, 0), vignette=0.15,
                            grain=2.0, flicker=0.015),
                wrap=dict(width=3, strength=0.35, falloff="exp", source="blur", mode="mix"),
                crf=18, shadow=shadow_at(W, H, 288, 412, 74, 8, 0.3),
                style="procedural, shaded + 12 % fabric texture",
                notes="An archer running in place (12-frame cycle) in an olive tunic and a TEAL "
                      "hood and cape; every frame is 5 sub-frame instants over a half-frame "
                      "shutter, so the fast legs and arms are motion-blurred (in the truth too); "
                      "a bow on the back with a 0.7 px string; yellowish key with a left-right "
                      "gradient; 3 px / 35 % wrap with an exponential falloff; CRF 18.")


@case
def duelist_attack_ink():
    W, H = 576, 512
    u = 40.0
    st = dict(F.DEFAULT, skin=(230, 190, 160), shirt=(34, 120, 62), pants=(222, 212, 182),
              boots=(44, 30, 22), hair=(90, 56, 30), style="ink", ink=(40, 26, 18), ink_w=2.0)
    K = dict(
        hx=[(0, 0), (6, 0), (14, -0.25), (17.5, 1.25), (27, 1.2), (38, 0)],
        lean=[(0, 0.02), (6, 0.02), (14, -0.06), (17.5, 0.26), (27, 0.24), (38, 0.02)],
        thF=[(0, 0.3), (6, 0.3), (14, 0.2), (17.5, 1.05), (27, 1.0), (38, 0.3)],
        knF=[(0, 0.35), (14, 0.3), (17.5, 0.75), (27, 0.7), (38, 0.35)],
        thB=[(0, -0.3), (14, -0.35), (17.5, -0.55), (27, -0.5), (38, -0.3)],
        shF=[(0, 0.9), (6, 0.9), (14, 0.55), (17.5, 1.62), (27, 1.6), (38, 0.9)],
        elF=[(0, 0.6), (6, 0.6), (14, 0.9), (17.5, -0.02), (27, 0.0), (38, 0.6)],
        shB=[(0, -0.6), (14, -0.9), (17.5, -1.4), (27, -1.35), (38, -0.6)])

    def draw(cv, t):
        v = {k: keys(t, ks) for k, ks in K.items()}
        pose = dict(lean=v["lean"], thighF=v["thF"], kneeF=v["knF"], thighB=v["thB"], kneeB=0.1,
                    shF=v["shF"], elF=v["elF"], shB=v["shB"], elB=0.9, head=-0.5 * v["lean"])
        b = F.make_body((200 + v["hx"] * u, 282), u, pose)

        def rapier(cv, b, side):
            ha, el = b.arms[side][2], b.arms[side][1]
            d = (ha - el) / np.linalg.norm(ha - el)
            n = np.array([-d[1], d[0]])
            base, tip = ha + d * 0.15 * u, ha + d * 2.9 * u
            cv.poly(np.array([base + n * 0.8, tip + n * 0.12, tip - n * 0.12, base - n * 0.8]),
                    (212, 216, 226))
            cv.limb(ha - n * 0.3 * u, ha + n * 0.3 * u, 0.07 * u, 0.07 * u, (190, 160, 60),
                    outline=((40, 26, 18), 1.0))

        def hat(cv, b, p):
            F.hair_cap(cv, b, p, st)
            c, a = b.headc, b.P["lean"] + b.P["head"]
            brim = [c + rot(np.array(q) * u, a) for q in [(-1.0, -0.45), (0.95, -0.5),
                                                            (0.9, -0.36), (-1.0, -0.3)]]
            cv.poly(np.array(brim), (24, 80, 44), outline=p.outline())
            crown = [c + rot(np.array(q) * u, a) for q in [(-0.55, -0.45), (0.5, -0.48),
                                                             (0.35, -1.05), (-0.45, -1.0)]]
            cv.poly(np.array(crown), (24, 80, 44), outline=p.outline())
            q0 = c + rot(np.array([-0.4, -0.9]) * u, a)  # a red feather, 18 thin barbs
            sp = [q0 + rot(np.array([-1.4 * k * u, -0.5 * u * math.sin(k * 2.2)]), a)
                  for k in np.linspace(0, 1, 10)]
            cv.stroke(np.array(sp), 1.3, (196, 40, 40))
            for i in range(1, 19):
                k = i / 19
                q = sp[int(k * 9)]
                cv.stroke(np.array([q, q + rot(np.array([-0.12, -0.28 + 0.56 * (i % 2)]) * u, a)]),
                          0.5, (210, 60, 50))
        F.figure(cv, b, st, {"head": hat, "item": rapier})
        return {"feet_x": b.hip[0]}
    blur = lambda t: (16, 0.5) if 13 <= t <= 19 else (1, 0)
    return Spec("duelist_attack_ink", "attack", W, H, proc(W, H, 3, draw, blur),
                screen=dict(seed=3311, canvas=(0, 254, 0), key=(50, 215, 60), settle=3,
                            grad=(-0.1, 0.12), vignette=0.3, grain=2.8, flicker=0.02),
                wrap=dict(width=2, strength=0.22, falloff="lin", source="blur", mode="mix"),
                crf=23, shadow=shadow_at(W, H, 250, 442, 90, 9, 0.3),
                style="procedural, ink: flat fills, 2 px dark-brown outline",
                notes="An ink-outlined duelist in a GREEN coat (34,120,62) lunges: the rapier "
                      "blade tapers to a 0.25 px tip, the feather has 18 barbs 0.5 px wide; "
                      "the lunge (frames 14-18) is drawn from 16 sub-frame instants (motion "
                      "blur, in the truth); strong vignette; 2 px / 22 % wrap; CRF 23.")


@case
def bard_walk_cloak():
    W = H = 512
    u = 44.0
    st = dict(F.DEFAULT, skin=(200, 150, 110), shirt=(44, 150, 140), pants=(120, 60, 62),
              boots=(88, 56, 34), hair=(156, 92, 40), style="cel", seed=14)
    per = 28.0

    def draw(cv, t):
        ph = t / per
        pose = walk_pose(ph, amp=0.42) if t else dict(thighF=0.12, kneeF=0.1, thighB=-0.1,
                                                       kneeB=0.12, shF=0.1, shB=-0.1)
        b = F.make_body((250, 268), u, pose)

        def back(cv, b, p):
            cape(cv, b, p, (24, 104, 54), 3.3, 0.7 if t else 0.25, ph * 2)

        def beret(cv, b, p):
            F.hair_cap(cv, b, p, st)
            F.strands(cv, b, st, 24, 1.1, (0.5, 0.9), 0.1 * math.sin(2 * math.pi * ph), seed=51)
            c, a = b.headc, b.P["lean"] + b.P["head"]
            cv.ellipse(c + rot(np.array([-0.15, -0.62]) * u, a), 0.78 * u, 0.26 * u, a - 0.15,
                       p.fill((170, 36, 40), r=0.3 * u))
            q0 = c + rot(np.array([-0.5, -0.75]) * u, a)  # a yellow feather, 14 barbs
            sp = [q0 + rot(np.array([-1.3 * k * u, -0.7 * u * k + 0.2 * u * k * k]), a)
                  for k in np.linspace(0, 1, 8)]
            cv.stroke(np.array(sp), 1.1, (226, 190, 60))
            for i in range(1, 15):
                q = sp[int(i / 15 * 7)]
                cv.stroke(np.array([q, q + rot(np.array([0.1, 0.22 if i % 2 else -0.22]) * u, a)]),
                          0.5, (236, 204, 80))
        F.figure(cv, b, st, {"back": back, "head": beret})
        return {"feet_x": 250}
    return Spec("bard_walk_cloak", "walk", W, H, proc(W, H, 3, draw),
                screen=dict(seed=3312, canvas=(0, 177, 64), key=(20, 190, 104), settle=5,
                            grad=(0.08, 0.1), vignette=0.12, mottle=0.02, grain=1.8,
                            flicker=0.012),
                wrap=dict(width=4, strength=0.30, falloff="sqrt", source="blur", mode="mix"),
                crf=21, shadow=shadow_at(W, H, 250, 430, 72, 8, 0.3),
                style="procedural, cel: two hard tones per part",
                notes="A cel-shaded bard walking in place (28-frame cycle) in a TEAL shirt "
                      "(44,150,140) with a dark-green cloak (24,104,54) rippling behind, 24 hair "
                      "strands and a feather with 14 barbs 0.5 px wide; the user's canvas is "
                      "broadcast green (0,177,64), the model's screen a cyan-green; 4 px / 30 % "
                      "wrap with a square-root (slow) falloff.")
