"""Trial 34's QC cases: four ways a video model ghosts (SMEAR, the truth without the ghost),
a turn that lasts (FACING), a fast blurred attack that must raise nothing, and a sword swung
out of the frame's top edge (CROPPED)."""
from __future__ import annotations

from t34_art import SpriteSource, chef_frames, over, upscale
from t34_cases_a import PI, attack_keys, skill_keys
from t34_render import RigSource, build

import numpy as np


def case_ghost25_run(root):
    spec = dict(height=300, style="shaded", seed=3410, skin=(214, 160, 120), hair=(30, 24, 22),
                shirt=(176, 52, 44), pants=(84, 62, 48), shoes=(40, 30, 26), belt=(60, 40, 30), strands=30,
                strand_len=(0.08, 0.18), strand_r=(0.35, 0.8), spec=0.1, tex=0.04)
    src = RigSource(spec, "run", 56, (228, 424), period=14)
    return build(root, "ghost25_run", "run", src, 448, 448,
                 dict(colour=(40, 190, 62), grad=(0.10, 0.2), grad_dir=(0.2, 1.0), vignette=0.18, mottle=4.0,
                      grain=2.0, flicker=0.025, settle=4),
                 dict(width=3, strength=0.20, gamma=1.2, mode="mix", settle=3), 20,
                 "Ghosting (a): every shown frame is 0.75 x this frame + 0.25 x the previous CLEAN frame (screen "
                 "included), on a run in a red tunic; the truth is the clean character alone.",
                 dict(style="shaded", character=spec, ghost_model="(1-g)*clean_t + g*clean_{t-1}"),
                 expect=("SMEAR",), ghost_g=0.25, shadow=dict(cx=228, cy=426, rx=80, ry=9, k=0.3), seed=3410)


def case_ghost40_attack(root):
    spec = dict(height=300, style="shaded", tex=0.1, seed=3411, skin=(200, 140, 100), hair=(150, 60, 30),
                shirt=(110, 80, 56), sleeve=(200, 140, 100), pants=(60, 56, 70), shoes=(50, 36, 28),
                belt=(40, 30, 24), strands=40, strand_len=(0.1, 0.22), strand_r=(0.4, 0.9), build=1.25,
                weapon="axe", weapon_len=0.4, metal=(170, 176, 186), spec=0.08)
    src = RigSource(spec, "attack", 39, (200, 462), keys=attack_keys(wind=2.6, wind_el=0.7, strike=0.6), ease=3.0)
    return build(root, "ghost40_attack", "attack", src, 480, 512,
                 dict(colour=(30, 178, 80), grad=(0.14, -0.4), grad_dir=(-1.0, 0.8), vignette=0.2, mottle=5.0,
                      grain=2.2, flicker=0.03, settle=4),
                 dict(width=4, strength=0.28, gamma=1.4, mode="mix", settle=3), 21,
                 "Ghosting (b): 0.6 x this frame + 0.4 x the previous clean frame on a barbarian's axe "
                 "attack (no motion blur: the ghost is a discrete second copy); the truth has no ghost.",
                 dict(style="textured", character=spec, ghost_model="(1-g)*clean_t + g*clean_{t-1}"),
                 expect=("SMEAR",), ghost_g=0.4, shadow=dict(cx=210, cy=464, rx=85, ry=9, k=0.3), seed=3411)


def case_ghost30_recursive_walk(root):
    spec = dict(height=270, style="flat", cel=True, seed=3412, skin=(250, 214, 190), hair=(110, 40, 90),
                shirt=(70, 90, 200), sleeve=(70, 90, 200), pants=(70, 90, 200), shin=(250, 214, 190),
                shoes=(120, 30, 50), belt=(240, 200, 80), strands=60, strand_len=(0.15, 0.3),
                strand_r=(0.3, 0.7), build=1.05)
    src = RigSource(spec, "walk", 56, (196, 366), period=20, amp=1.1)
    return build(root, "ghost30_recursive_walk", "walk", src, 384, 384,
                 dict(colour=(58, 200, 58), grad=(0.12, 0.5), grad_dir=(1.0, 0.2), vignette=0.14, mottle=3.0,
                      grain=2.6, flicker=0.03, settle=3),
                 dict(width=3, strength=0.25, gamma=1.0, mode="mix", settle=2), 22,
                 "Ghosting (c), recursive: shown_t = 0.7 x clean_t + 0.3 x shown_{t-1} (a decaying trail of "
                 "earlier poses) on a flat cel-shaded walker in blue with 60 long strands; truth is clean.",
                 dict(style="flat", character=spec, ghost_model="shown_t = (1-g)*clean_t + g*shown_{t-1}"),
                 expect=("SMEAR",), ghost_g=0.3, ghost_recursive=True,
                 shadow=dict(cx=196, cy=368, rx=64, ry=7, k=0.25), seed=3412)


def case_ghost30_greenshirt_skill(root):
    spec = dict(height=290, style="shaded", seed=3413, skin=(236, 190, 160), hair=(220, 120, 40),
                shirt=(52, 160, 72), pants=(80, 70, 60), shoes=(50, 40, 36), belt=(120, 90, 50), strands=36,
                strand_len=(0.1, 0.2), strand_r=(0.35, 0.7), spec=0.12, tex=0.05,
                weapon="staff", weapon_len=0.36, weapon_back=0.2, shaft=(110, 80, 50), orb=(250, 120, 60))
    src = RigSource(spec, "skill", 39, (188, 430), keys=skill_keys(2.7), ease=3.0)
    return build(root, "ghost30_greenshirt_skill", "skill", src, 448, 448,
                 dict(colour=(42, 194, 58), grad=(0.12, 0.3), grad_dir=(0.3, 1.0), vignette=0.2, mottle=4.0,
                      grain=2.0, flicker=0.03, settle=4),
                 dict(width=5, strength=0.30, gamma=1.1, mode="mix", settle=3), 20,
                 "Ghosting (d): a shaded caster in a green shirt (52,160,72) under a 5 px / 30 % wrap, shown as "
                 "0.7 x this frame + 0.3 x the previous clean frame; truth has neither ghost nor wrap.",
                 dict(style="shaded", character=spec, ghost_model="(1-g)*clean_t + g*clean_{t-1}"),
                 expect=("SMEAR",), ghost_g=0.3, shadow=dict(cx=188, cy=432, rx=70, ry=8, k=0.3), seed=3413)


def case_turn_chef_walk(root):
    names = ["EAST", "EAST-redhat", "SOUTH", "SOUTH-redhat", "WEST", "WEST-redhat"]
    fr, prov = chef_frames(names)
    frames = {d.lower(): upscale(over(fr[d], fr[d + "-redhat"]), 17, "nearest") for d in ("EAST", "SOUTH", "WEST")}
    turn0, turn1 = 22, 25

    def sched(t):
        key = "east" if t < turn0 else ("south" if t < turn1 else "west")
        if t < 3:
            return key, 0, 0, 0, 1, 1, False
        ph = (t - 3) / 10.0
        bob = -10 * abs(np.sin(np.pi * ph))
        rock = 3.5 * np.sin(np.pi * ph) * (1 if key != "south" else 0.3)
        return key, 0, bob, rock, 1.0, 1.0 + 0.02 * abs(np.sin(np.pi * ph)), False

    src = SpriteSource(frames, sched, (224, 404))
    return build(root, "turn_chef_walk", "walk", src, 448, 448,
                 dict(colour=(34, 190, 60), grad=(0.12, 0.0), grad_dir=(0.0, 1.0), vignette=0.2, mottle=4.0,
                      grain=2.0, flicker=0.03, settle=4),
                 dict(width=3, strength=0.25, gamma=1.2, mode="mix", settle=3), 20,
                 "FACING: the Overcooked-AI chef (MIT, red hat) walks in place facing right, turns through "
                 "its front view at frames 22-24 and walks on facing LEFT for the remaining 31 frames "
                 "(55 % of the clip): its own EAST, SOUTH and WEST drawings, 17x nearest, bob and rock.",
                 dict(style="real art, pixel", art=[prov], upscale="17x nearest", turn_frames=[turn0, turn1]),
                 expect=("FACING",), shadow=dict(cx=224, cy=406, rx=85, ry=9, k=0.3), seed=3414)


def case_fast_slash_blur(root):
    spec = dict(height=290, style="ink", ink=(30, 24, 34), ink_w=1.4, seed=3415, skin=(228, 184, 150),
                hair=(30, 30, 40), shirt=(130, 40, 60), sleeve=(130, 40, 60), pants=(40, 40, 56),
                shoes=(30, 26, 30), belt=(200, 170, 60), cape=(90, 26, 40), strands=30, strand_len=(0.1, 0.2),
                strand_r=(0.35, 0.7), weapon="sword", weapon_len=0.46, tip_r=0.3, metal=(220, 224, 232))
    keys = attack_keys(wind=2.7, wind_el=0.8, strike=0.35, s_wind=0.36, s_hold=0.44, s_hit=0.48, lunge=0.6)
    src = RigSource(spec, "attack", 39, (190, 450), keys=keys, ease=3.0)
    return build(root, "fast_slash_blur", "attack", src, 480, 512,
                 dict(colour=(38, 186, 66), grad=(0.12, 0.2), grad_dir=(0.5, 1.0), vignette=0.2, mottle=4.0,
                      grain=2.2, flicker=0.03, settle=4),
                 dict(width=3, strength=0.25, gamma=1.2, mode="mix", settle=3), 21,
                 "No flag: an ink duelist's slash whose strike crosses about 2.5 rad in 1.5 frames under a "
                 "full-frame shutter (up to 40 sub-frame renders averaged): long continuous blur streaks "
                 "across body and blade, no ghost, no turn, nothing out of frame.",
                 dict(style="ink", character=spec),
                 expect=(), blur=dict(shutter=1.0, px=2.0, kmax=40),
                 shadow=dict(cx=200, cy=452, rx=80, ry=9, k=0.3), seed=3415)


def case_sword_top_crop(root):
    spec = dict(height=300, style="shaded", seed=3416, skin=(222, 176, 140), hair=(240, 230, 210),
                shirt=(190, 196, 210), sleeve=(160, 166, 184), forearm=(190, 196, 210), glove=(100, 80, 60),
                pants=(60, 60, 80), shin=(190, 196, 210), shoes=(60, 50, 44), belt=(150, 40, 40), strands=20,
                strand_len=(0.08, 0.16), strand_r=(0.4, 0.8), weapon="sword", weapon_len=0.5, tip_r=0.3,
                metal=(225, 228, 236), spec=0.2)
    keys = [(0.0, {}),
            (0.12, dict(crouch=0.1, sh_n=0.4, el_n=0.5, grip=0.1)),
            (0.3, dict(sh_n=PI - 0.05, el_n=0.1, grip=0.05, lean=-0.05, sh_f=-0.4, el_f=0.5, head=-0.15)),
            (0.5, dict(sh_n=PI + 0.05, el_n=0.1, grip=0.05, lean=-0.06, sh_f=-0.45, el_f=0.5, head=-0.2)),
            (0.62, dict(sh_n=0.7, el_n=0.1, grip=0.3, lean=0.25, th_n=0.5, kn_n=0.5, th_f=-0.3, kn_f=0.2,
                        crouch=0.2, sh_f=-0.6, el_f=0.4)),
            (1.0, dict(sh_n=0.35, el_n=0.35, grip=0.5, lean=0.08, th_n=0.2, kn_n=0.2, crouch=0.05))]
    src = RigSource(spec, "attack", 39, (150, 366), keys=keys, ease=3.0)
    return build(root, "sword_top_crop", "attack", src, 384, 448,
                 dict(colour=(40, 192, 64), grad=(0.1, 0.2), grad_dir=(0.0, 1.0), vignette=0.2, mottle=4.0,
                      grain=2.0, flicker=0.025, settle=4),
                 dict(width=3, strength=0.25, gamma=1.2, mode="mix", settle=3), 20,
                 "CROPPED: a paladin raises a long sword straight overhead and holds it; blade and hands leave "
                 "the frame's top edge for a third of the clip before the downward cut.",
                 dict(style="shaded", character=spec),
                 expect=("CROPPED",), blur=dict(shutter=0.5, px=2.5, kmax=20),
                 shadow=dict(cx=160, cy=368, rx=75, ry=8, k=0.3), seed=3416)


CASES = {f.__name__[5:]: f for f in (case_ghost25_run, case_ghost40_attack, case_ghost30_recursive_walk,
                                      case_ghost30_greenshirt_skill, case_turn_chef_walk, case_fast_slash_blur,
                                      case_sword_top_crop)}
