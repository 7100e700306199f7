"""Trial 35's cases: eight procedural characters of the issue's kinds, four of real
published art, five on ground earlier trials had not covered."""

from __future__ import annotations

import numpy as np

import t35_chars as chars
import t35_poses as poses
from t35_figure import Look
from t35_render import Case
from t35_screen import ScreenSpec

G = ScreenSpec()                                           # a usual green screen
BLUE = ScreenSpec(color=(22, 64, 196), grad=(-0.06, 0.08), vignette=0.25)


def wrap_const(width, strength):
    return lambda t: (width, strength)


def wrap_flicker(t):
    """Width 2..6 px and strength 12..35 %, changing every frame."""
    return (2.0 + 4.0 * (0.5 + 0.5 * np.sin(0.71 * t + 0.4)),
            0.12 + 0.23 * abs(np.sin(1.31 * t + 0.2)))


def build_cases() -> list[Case]:
    cs: list[Case] = []

    # ---- procedural, the kinds ------------------------------------------
    lk = Look(height=300, style="shaded", shirt=(64, 158, 58), pants=(58, 62, 96),
              strands=40, strand_w=0.5, hair=(72, 44, 22))
    ch, po = chars.procedural(lk, lambda t: poses.walk(t, 224, 418), 448, 448)
    cs.append(Case("p01_shaded_greenshirt_wrap6_walk", "walk", (448, 448), ch, po, G, 101,
                   crf=20, blur=4, shutter=0.4, wrap=wrap_const(6.0, 0.35), ground=418,
                   notes={"kinds": "issue's hardest: shaded character, green shirt (64,158,58), "
                          "light wrap 6 px at 35 %, 40 hair strands 0.35-0.65 px, contact shadow"}))

    lk = Look(height=280, style="flat", skin=(72, 172, 166), shirt=(38, 112, 62),
              pants=(96, 110, 48), boots=(40, 34, 30), hair=(20, 60, 58), strands=18,
              strand_w=0.7)
    ch, po = chars.procedural(lk, lambda t: poses.run(t, 214, 412), 448, 448)
    cs.append(Case("p02_flat_tealskin_greenclothes_run_blur", "run", (448, 448), ch, po, G, 102,
                   crf=22, blur=5, shutter=0.5, wrap=wrap_const(4.0, 0.25), ground=412,
                   notes={"kinds": "flat style, teal skin (72,172,166), dark-green shirt, olive "
                          "trousers, motion blur from 5 sub-frames over 50 % of a frame"}))

    lk = Look(height=300, style="flat", ink=1.4, shirt=(186, 190, 204), pants=(120, 124, 136),
              boots=(60, 60, 70), skin=(226, 186, 150), hair=(40, 30, 30), weapon="sword",
              weapon_color=(214, 220, 232))
    ch, po = chars.procedural(lk, lambda t: poses.attack(t, 39, 236, 470), 512, 512)
    cs.append(Case("p03_ink_knight_attack_swordtip", "attack", (512, 512), ch, po, G, 103,
                   crf=19, blur=8, shutter=0.5, wrap=wrap_const(3.0, 0.30), ground=470,
                   notes={"kinds": "outlined (1.4 px ink), white armour, a blade tapering to a "
                          "sub-pixel tip, a slash in ~2 frames under 50 % shutter blur (8 sub-frames); no flag"}))

    lk = Look(height=290, style="tex", tex_amp=0.14, shirt=(120, 132, 60), robe=(104, 120, 52),
              skin=(200, 150, 110), hair=(28, 22, 20), strands=70, strand_w=0.3,
              strand_len=0.42, weapon="staff", weapon_color=(120, 84, 44))
    ch, po = chars.procedural(lk, lambda t: poses.skill(t, 39, 236, 490), 512, 512)
    cs.append(Case("p04_textured_monk_skill_70strands", "skill", (512, 512), ch, po, G, 104,
                   crf=21, blur=6, shutter=0.3, wrap=wrap_const(5.0, 0.28), ground=490,
                   notes={"kinds": "textured olive robe and tunic (noise + weave fixed to each part), "
                          "70 strands 0.2-0.4 px that lift during the skill, a staff"}))

    lk = Look(height=290, style="shaded", shirt=(50, 80, 170), pants=(50, 50, 60),
              hair=(200, 160, 60), strands=24, strand_w=0.6)
    ch, po = chars.procedural(lk, lambda t: poses.run(t, 214, 414, period=14.0), 448, 448)
    cs.append(Case("p05_ghost30_run", "run", (448, 448), ch, po, G, 105, crf=21,
                   wrap=wrap_const(4.0, 0.25), ground=414, ghost=0.30, expect=["SMEAR"],
                   notes={"kinds": "ghosting: every picture is 70 % itself + 30 % the previous "
                          "picture (character, screen and shadow); the truth has no ghost"}))

    lk = Look(height=300, style="shaded", shirt=(170, 60, 50), pants=(60, 50, 40),
              hair=(30, 24, 20), strands=20)
    ch, po = chars.procedural(
        lk, lambda t: poses.walk(t, 224, 416, facing=poses.turn_facing(t, 21.0, 6.0)), 448, 448)
    cs.append(Case("p06_turn_walk_lasting", "walk", (448, 448), ch, po, G, 106, crf=20,
                   blur=1, wrap=wrap_const(4.0, 0.25), ground=416, expect=["FACING"],
                   notes={"kinds": "walks right, turns in frames 21-27 (a squash through the "
                          "front), walks left for frames 27-55 (52 % of the clip)"}))

    lk = Look(height=250, style="shaded", shirt=(150, 90, 170), pants=(40, 40, 50),
              hair=(230, 220, 200), strands=30, strand_w=0.45)
    ch, po = chars.procedural(lk, lambda t: poses.idle(t, 224, 350), 448, 448)
    cs.append(Case("p07_letterbox64_idle", "idle", (448, 448), ch, po, G, 107, crf=20,
                   wrap=wrap_const(4.0, 0.3), ground=350, bar=64, expect=[],
                   notes={"kinds": "letterbox: near-black bars 64 px top and bottom (Y~19 with "
                          "grain); to be cropped, not flagged"}))

    lk = Look(height=300, style="flat", ink=1.0, skin=(238, 200, 170), shirt=(40, 150, 140),
              robe=(36, 142, 134), pants=(40, 40, 40), hair=(150, 40, 30), strands=36,
              strand_w=0.5)
    ch, po = chars.procedural(lk, lambda t: poses.hurt(t, 22, 236, 420), 448, 448)
    cs.append(Case("p08_ink_tealdress_hurt", "hurt", (448, 448), ch, po, G, 108, crf=20,
                   blur=5, shutter=0.5, wrap=wrap_const(5.0, 0.30), ground=420,
                   notes={"kinds": "teal dress (36,142,134), 1 px ink, knocked back (22 frames)"}))

    # ---- real art ---------------------------------------------------------------
    ch, po, prov = chars.gil(448, 448, 224, 420, 0.62, drift=6.0)
    cs.append(Case("a01_cocos_gil_walk", "walk", (448, 448), ch, po, G, 201, crf=20, blur=5,
                   shutter=0.4, wrap=wrap_const(4.0, 0.25), ground=420, art=prov,
                   notes={"kinds": "cocos2d's Gil (11 cut parts of its skeleton demo) walking, "
                          "scaled 0.62 with area averaging, flat cartoon with black hair and "
                          "trousers; contact shadow"}))

    ch, po, prov = chars.gil(448, 448, 224, 420, 0.62, turn_at=22.0)
    cs.append(Case("a02_cocos_gil_turn_walk", "walk", (448, 448), ch, po, G, 202, crf=21,
                   wrap=wrap_const(3.0, 0.30), ground=420, art=prov, expect=["FACING"],
                   notes={"kinds": "Gil turns in frames 22-28 (a cut-out's flip through a sliver) "
                          "and walks on facing left for the remaining 50 %"}))

    ch, po, prov = chars.sister(1, 448, 448, 224, 424, 2.6)
    cs.append(Case("a03_cocos_sister_idle_upscaled", "idle", (448, 448), ch, po, G, 203,
                   crf=21, wrap=wrap_const(3.0, 0.30), ground=424, art=prov,
                   notes={"kinds": "grossini's sister (91x139) upscaled 2.6x bicubic; hair "
                          "strands of the art, blue jeans; body sway, breath, hair swing"}))

    ch, po, prov = chars.robot(448, 448, 224, 400, 16, blue=False, hold=3, drift=10)
    cs.append(Case("a04_sokoban_greenrobot_on_blue_walk", "walk", (448, 448), ch, po, BLUE, 204,
                   crf=20, wrap=wrap_const(3.0, 0.25), ground=400, art=prov,
                   notes={"kinds": "gym-sokoban's green robot (41,202,26) 16x nearest-neighbour, "
                          "softened 0.7 px, on a blue screen; its eyes are holes the screen "
                          "shows through; pixel-art walk, 3 frames a pose"}))

    # ---- new ground ----------------------------------------------------------------
    two = ScreenSpec(color=(96, 206, 38), color2=(18, 184, 124), seam_angle=0.35,
                     seam_width=0.10, grad=(0.0, -0.08))
    lk = Look(height=330, style="shaded", shirt=(120, 96, 70), robe=(42, 138, 150),
              pants=(50, 44, 40), hair=(210, 200, 180), strands=40, strand_w=0.45)
    ch, po = chars.procedural(lk, lambda t: poses.walk(t, 384, 420, period=20.0), 768, 448)
    cs.append(Case("n01_twotone_hue_seam_tealcloak_walk", "walk", (768, 448), ch, po, two, 301,
                   crf=20, blur=4, shutter=0.4, wrap=wrap_const(4.0, 0.30), ground=420,
                   notes={"new": "two-tone screen in hue: lime (96,206,38) on the left, teal-green "
                          "(18,184,124) on the right, a soft diagonal seam through the character; "
                          "a key from one global screen colour sees the other half off-key, and "
                          "the teal cloak (42,138,150) sits near the right half's hue",
                          "why": "earlier two-tone screens differ in brightness (floor vs wall), "
                          "none in hue within one frame"}))

    dim = ScreenSpec(gain=0.50, grain=4.5, flicker=0.05, mottle=0.08, vignette=0.3)
    lk = Look(height=300, style="shaded", shirt=(180, 70, 90), pants=(70, 60, 90),
              hair=(240, 200, 90), strands=30, strand_w=0.5)
    ch, po = chars.procedural(lk, lambda t: poses.walk(t, 224, 418), 448, 448)
    cs.append(Case("n02_dim_screen_heavy_grain_walk", "walk", (448, 448), ch, po, dim, 302,
                   crf=23, wrap=wrap_const(4.0, 0.30), ground=418,
                   notes={"new": "under-lit screen at half exposure (~(14,98,26) in the middle, "
                          "darker in the corners), grain sigma 4.5, 5 % flicker, while the "
                          "character keeps its key light",
                          "why": "earlier screens were bright; a dim one narrows the gap between "
                          "screen and dark clothes and lifts the grain relative to it"}))

    lk = Look(height=290, style="shaded", shirt=(230, 230, 236), pants=(180, 40, 40),
              boots=(30, 30, 34), hair=(30, 24, 20), strands=16)
    ch, po = chars.procedural(lk, lambda t: poses.walk(t, 224, 392), 448, 448)
    cs.append(Case("n03_glossy_floor_reflection_walk", "walk", (448, 448), ch, po, G, 303,
                   crf=20, wrap=wrap_const(4.0, 0.25), ground=392, reflect=0.22,
                   notes={"new": "a glossy floor: the character mirrored below its feet at 22 % "
                          "fading over 45 px, blurred, plus the contact shadow; neither is in "
                          "the truth",
                          "why": "models often paint a reflective studio floor; no earlier trial "
                          "had a reflection"}))

    ch, po, prov = chars.robot(832, 352, 416, 334, 16, blue=True, hold=2, drift=14,
                               portrait_scale=2)
    cs.append(Case("n04_wide832x352_fullrange_bluerobot_run", "run", (832, 352), ch, po, G, 304,
                   crf=18, wrap=wrap_const(3.0, 0.30), ground=334, full=True, art=prov,
                   notes={"new": "2.36:1 canvas 832x352 (both multiples of 32), full-range "
                          "(0-255, tagged) H.264, and a portrait at twice the canvas size "
                          "(1664x704), as a user's hi-res reference",
                          "why": "no earlier canvas was wider than 16:9 and portraits were "
                          "canvas-sized"}))

    ch, po, prov = chars.sister(2, 1280, 704, 640, 684, 4.2)
    cs.append(Case("n05_1280x704_bt709_wrapflicker_sister", "idle", (1280, 704), ch, po, G, 305,
                   crf=22, wrap=wrap_flicker, ground=684, matrix="bt709", tag=True, art=prov,
                   notes={"new": "light wrap that changes every frame (2-6 px, 12-35 %), on the "
                          "second sister upscaled 4.2x (afro, hoop earrings), BT.709 tagged",
                          "why": "earlier wraps were constant through a clip; a model's spill "
                          "breathes with the exposure"}))
    return cs
