"""Trial 38 cases: sixteen clips in H3's format (24 fps, 17k+5 frames, sides multiples
of 32, frame 0 the portrait over the user's flat canvas)."""

from __future__ import annotations

import numpy as np

from t38_beasts import dragonling, wolf
from t38_chars import (alchemist, dwarf, goblin, harpy, hatter, knight, mage, ogre, ranger,
                       rogue, runner, runner_girl, scout, traveller)
from t38_motion import REST, gallop, idle, keyed, ramp, turned, walk
from t38_run import Case
from t38_screen import ScreenSpec as S

STANCE = dict(thigh_f=-20, thigh_b=16, shin_f=14, shin_b=10)


def knight_attack(t, rig):
    keys = [(0, {}), (3, dict(arm_f=-30, fore_f=-30)),
            (10, dict(arm_f=-200, fore_f=-25, weapon=-5, torso=-8, head=4, arm_b=25, fore_b=-30, **STANCE)),
            (13, dict(ease="lin", arm_f=-45, fore_f=-10, weapon=10, torso=14, head=-4, arm_b=-20, fore_b=-40, **STANCE)),
            (14.5, dict(ease="lin", arm_f=-22, fore_f=-4, weapon=22, torso=17, head=-6, arm_b=-25, fore_b=-40, **STANCE)),
            (21, dict(arm_f=-18, fore_f=-8, weapon=15, torso=13, head=-4, arm_b=-15, fore_b=-35, **STANCE)),
            (31, {}), (38, {})]
    return keyed(t, keys, rig.meta)


def dwarf_attack(t, rig):
    keys = [(0, {}), (8, dict(arm_f=45, fore_f=-15, weapon=-10, torso=-6, arm_b=30, **STANCE)),
            (11, dict(ease="lin", arm_f=-120, fore_f=-40, weapon=-50, torso=10, arm_b=-30, **STANCE)),
            (12.5, dict(ease="lin", arm_f=-165, fore_f=-30, weapon=-40, torso=12, arm_b=-40, **STANCE)),
            (20, dict(arm_f=-160, fore_f=-35, weapon=-45, torso=9, arm_b=-35, **STANCE)), (31, {}), (38, {})]
    return keyed(t, keys, rig.meta)


def alchemist_skill(t, rig):
    keys = [(0, {}), (9, dict(arm_f=-128, fore_f=-12, torso=-6, head=-10, arm_b=20, fore_b=-40)),
            (27, dict(arm_f=-122, fore_f=-22, torso=-5, head=-12, arm_b=22, fore_b=-45)), (37, {}), (38, {})]
    p = keyed(t, keys, rig.meta)
    swirl = 22 * np.sin(2 * np.pi * (t - 9) / 6) if 9 <= t <= 27 else 0.0
    p["weapon"] = -(p["arm_f"] + p["fore_f"]) + swirl + p.get("torso", 0) * -1
    return p


def harpy_skill(t, rig):
    up = float(np.clip(min(t / 7, (38 - t) / 8), 0, 1))
    up = up * up * (3 - 2 * up)
    fl = np.sin(2 * np.pi * (t - 7) / 9) * (1 if 7 <= t <= 34 else 0) * up
    p = dict(REST)
    for s, sgn in (("f", 1.0), ("b", 1.0)):
        p["arm_" + s] = REST["arm_" + s] * (1 - up) + (-150 + 35 * fl) * up * sgn
        p["fore_" + s] = REST["fore_" + s] * (1 - up) + (-30 - 20 * fl) * up
    p.update(thigh_f=-5 - 35 * up, thigh_b=5 - 20 * up, shin_f=3 + 60 * up, shin_b=3 + 55 * up,
             torso=-4 * up, head=-8 * up)
    p["foot_f"], p["foot_b"] = 30 * up, 30 * up
    p["root"] = (0.0, -14 * up - 3 * fl)
    p["sway"] = 0.8 * up + 0.5 * fl
    return p


def goblin_hurt(t, rig):
    hit = dict(torso=-28, head=-24, arm_f=50, fore_f=-45, arm_b=60, fore_b=-30, thigh_f=-25, thigh_b=18,
               shin_f=20, shin_b=8, dx=-7, sway=1.2)
    keys = [(0, {}), (3, {}), (5, dict(hit, ease="lin")), (8, dict(hit, torso=-34, head=-30, dx=-11)),
            (16, dict(torso=-10, head=-6, arm_f=15, fore_f=-35, arm_b=20, thigh_f=-12, thigh_b=10, dx=-11, sway=0.4)),
            (28, dict(dx=-8)), (38, dict(dx=-7))]
    return keyed(t, keys, rig.meta)


def hover(t, rig):
    a = ramp(t, 5)
    ph = 2 * np.pi * t / 14
    p = dict(wing_1=a * 55 * np.sin(ph), wing_2=a * 35 * np.sin(ph - 0.7), fold=0.25 + 0.25 * a * np.sin(ph + 0.6),
             wingn_1=a * 50 * np.sin(ph - 0.25), wingn_2=a * 32 * np.sin(ph - 0.95),
             root=(0.0, -a * 4 * np.sin(ph + 1.6)), neck=a * 5 * np.sin(ph + 2.2), head=-a * 4 * np.sin(ph + 2.2),
             leg_f=a * 10 * np.sin(ph), leg_b=a * 8 * np.sin(ph + 0.5))
    for k in range(1, 6):
        p[f"tail_{k}"] = a * 7 * np.sin(2 * np.pi * t / 28 - 0.7 * k)
    return p


def walker(**kw):
    return lambda t, rig: walk(t, rig.meta, **kw)


def idler(**kw):
    return lambda t, rig: idle(t, rig.meta, **kw)


def turner(t0, dur):
    return lambda t, rig: turned(walk(t, rig.meta), t, t0, dur)


CASES = [
    Case("shirt_ranger_wrap6_walk", 448, 448, 56, "walk", ranger, walker(), 3.1, 214, 418,
         "knit green shirt, textured, 44 strands, 6 px / 35 % compositor wrap",
         S(green=(32, 206, 50), grad=0.14, grad_deg=80, vignette=0.22, noise=2.0, flicker=0.012, shadow=0.35),
         wrap=(6, 0.35, "blur", False), crf=20, seed=1),
    Case("shirt_runner_wrap6_blur_run", 1280, 704, 56, "run", runner, walker(period=16, run=True), 5.3, 640, 650,
         "woven green shirt, teal scarf, jeans, run with 180-degree blur, 6 px / 35 % linear wrap",
         S(canvas=(0, 254, 0), green=(42, 200, 44), grad=0.18, grad_deg=10, vignette=0.28, noise=2.5, shadow=0.3),
         wrap=(6, 0.35, "lin", False), crf=22, ss=3, shutter=0.5, seed=2),
    Case("vector_knight_teal_sword_attack", 768, 448, 39, "attack", knight, knight_attack, 3.0, 330, 420,
         "flat vector knight, teal sword to a zero-width tip swung overhead in 3 frames under a 180-degree shutter",
         S(canvas=(0, 177, 64), green=(20, 172, 70), grad=0.1, vignette=0.15, noise=1.5, shadow=0.25),
         wrap=(3, 0.25, "exp", False), crf=19, shutter=0.5, max_samples=48, expect=[], seed=3),
    Case("blob_ogre_olive_idle", 512, 512, 56, "idle", ogre, idler(period=28, amp=1.4), 3.9, 240, 484,
         "ogre of layered painted blobs, olive skin, club; yellowish screen, strong vignette, added-light wrap",
         S(green=(60, 208, 40), grad=0.1, grad_deg=120, vignette=0.36, mottle=0.04, noise=3.0),
         wrap=(4, 0.3, "blur", True), crf=23, seed=4),
    Case("fur_wolf_gallop_run", 768, 448, 56, "run", wolf, lambda t, rig: gallop(t, 12.0), 5.2, 372, 392,
         "tufted fur silhouette, green eyes, gallop with leg blur, contact shadow",
         S(green=(28, 198, 56), grad=0.2, grad_deg=0, vignette=0.2, noise=2.0, shadow=0.4),
         wrap=(3, 0.2, "lin", False), crf=21, shutter=0.5, max_samples=10, seed=5),
    Case("feather_harpy_teal_skill", 448, 768, 39, "skill", harpy, harpy_skill, 3.9, 184, 700,
         "teal feathered wings with yellow-green tips, 40 dark-teal strands, yellow-green gem; bluish-green screen",
         S(green=(24, 190, 78), grad=0.15, grad_deg=90, vignette=0.2, noise=2.0),
         wrap=(5, 0.3, "blur", False), crf=20, shutter=0.5, seed=6),
    Case("cape_holes_rogue_walk", 512, 512, 56, "walk", rogue, walker(), 3.4, 262, 470,
         "cel rogue, dark-teal cape with 7 torn holes the screen shows through, heavy grain",
         S(canvas=(0, 254, 0), green=(36, 204, 46), noise=4.5, flicker=0.02, shadow=0.3),
         wrap=(4, 0.28, "exp", False), crf=22, seed=7),
    Case("tall_mage_teal_skin_idle", 576, 1024, 56, "idle", mage, idler(period=28), 6.4, 320, 975,
         "tall thin mage, teal skin, 64 silver strands to 0.7 px, staff with an emerald",
         S(green=(30, 210, 52), grad=0.12, vignette=0.2, noise=2.0), wrap=(3, 0.35, "blur", False), crf=18, ss=3, seed=8),
    Case("tiny_scout_olive_walk", 1280, 704, 56, "walk", scout, walker(), 1.4, 640, 560,
         "cel scout at ~20 % of the frame height, olive cloak, spear; grain and flicker at CRF 24",
         S(canvas=(0, 177, 64), green=(16, 170, 66), noise=3.5, flicker=0.03, shadow=0.3),
         wrap=(2, 0.35, "lin", False), crf=24, ss=6, seed=9),
    Case("glass_flask_alchemist_skill", 512, 512, 39, "skill", alchemist, alchemist_skill, 3.3, 240, 480,
         "yellow-green apron, a see-through glass flask (32 % alpha, kept in the truth) raised and swirled",
         S(green=(34, 202, 50), grad=0.1, vignette=0.2, noise=2.0, shadow=0.25), wrap=(3, 0.25, "blur", False),
         crf=20, shutter=0.5, seed=10),
    Case("ghost_girl_run_smear", 448, 448, 56, "run", runner_girl, walker(period=16, run=True), 3.1, 224, 418,
         "cel runner in a green skirt; from frame 2 each frame carries 35 % of the previous shown frame",
         S(green=(30, 205, 48), noise=1.5), wrap=(3, 0.2, "blur", False), crf=20, ghost=0.35,
         expect=["SMEAR"], seed=11),
    Case("turn_traveller_walk_facing", 512, 512, 56, "walk", traveller, turner(22, 4), 3.4, 256, 470,
         "backpacked traveller walks right, turns through edge-on at frame 22-26 and walks left to the end",
         S(canvas=(0, 254, 0), green=(30, 204, 50), noise=1.8, shadow=0.3), wrap=(3, 0.22, "lin", False),
         crf=21, expect=["FACING"], seed=12),
    Case("letterbox_hatter_walk", 768, 448, 56, "walk", hatter, walker(), 2.3, 384, 360,
         "cel walker in a wide hat; 60 px black bars top and bottom from frame 1 (cropped, not flagged)",
         S(green=(30, 205, 50), noise=1.5, shadow=0.25), wrap=(2, 0.2, "blur", False), crf=20, bars=60,
         expect=[], seed=13),
    Case("ink_dwarf_teal_axe_attack", 448, 448, 39, "attack", dwarf, dwarf_attack, 3.6, 200, 420,
         "1.4 px ink outlines, chunky dwarf in teal mail, axe uppercut blurred, CRF 24",
         S(green=(30, 204, 50), noise=2.0, shadow=0.3), wrap=(4, 0.3, "exp", False), crf=24, shutter=0.5,
         max_samples=32, seed=14),
    Case("goblin_yellowgreen_hurt_flicker", 448, 448, 39, "hurt", goblin, goblin_hurt, 3.0, 240, 420,
         "yellow-green goblin skin, green eyes, knocked back; strong flicker, mottle and grain",
         S(green=(40, 206, 44), flicker=0.05, noise=4.0, mottle=0.05, shadow=0.3), wrap=(5, 0.35, "blur", False),
         crf=22, shutter=0.5, seed=15),
    Case("teal_dragonling_hover_idle", 640, 640, 56, "idle", dragonling, hover, 6.2, 350, 560,
         "teal scaled dragonling hovering, strutted wings flapping with blur, yellow-green belly, added-light wrap",
         S(green=(26, 200, 60), grad=0.12, vignette=0.25, noise=2.0), wrap=(4, 0.3, "lin", True), crf=21,
         shutter=0.5, seed=16),
]
