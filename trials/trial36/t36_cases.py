"""Trial 36: the cases.  Each is built lazily (a name filter renders only some)."""

from __future__ import annotations

import t36_art as art
import t36_h3 as h3
import t36_looks as L
from t36_build import rig_case


def scr(rgb, **kw):
    base = dict(rgb=rgb, grad=0.14, grad_dir=1.3, vignette=0.22, grain=2.5, flicker=0.02,
                canvas=(0, 254, 0), settle=3)
    base.update(kw)
    return base


def art_case(name, action, size, rgba, prov, scale, foot, field, screen, wrap, seed, notes,
             shadow=(0.36, 5.0), **extra):
    sh, sw = rgba.shape[:2]
    W, H = size
    m = int(0.18 * max(sh, sw) * scale)
    x0 = int(max(0, foot[0] - sw * scale / 2 - m))
    x1 = int(min(W, foot[0] + sw * scale / 2 + m))
    y0 = int(max(0, foot[1] - sh * scale - m))
    y1 = int(min(H, foot[1] + m // 3))
    box = (x0, y0, x1 - x0, y1 - y0)
    char = art.Warped(rgba, scale, foot, box, field)
    shade = [(foot[0], foot[1] + 1, sw * scale * 0.42, 6, shadow[0], shadow[1])]
    spec = {"name": name, "action": action, "size": size, "screen": screen, "wrap": wrap,
            "seed": seed, "box": box, "char": char, "shadow": lambda t: shade,
            "notes": notes, "art": prov}
    spec.update(extra)
    return spec


def c_greenshirt():
    return rig_case("t36_greenshirt_walk_w6", "walk", (448, 448), L.GREENSHIRT,
                    scr((38, 196, 70), grad=0.15, vignette=0.25, flicker=0.02),
                    (6, 0.35, "mix"), 3601, 410, 224,
                    "Shaded human in a mid-green shirt, 30 hair strands 0.6 px, walking; "
                    "light wrap 6 px at 35 % (the issue's hardest fixture kind), CRF 20, "
                    "contact shadow.", crf=20)


def c_goblin():
    return rig_case("t36_tealgoblin_run_blur", "run", (448, 448), L.GOBLIN,
                    scr((30, 182, 58), grad=0.1, vignette=0.3, grain=3.0, flicker=0.025),
                    (4, 0.28, "mix"), 3602, 404, 224,
                    "Cel-shaded goblin with teal skin and a green tunic, dagger, running; "
                    "motion blur from 5 sub-frames over 0.6 frame; wrap 4 px 28 %; CRF 22.",
                    crf=22, blur=(5, 0.6))


def c_ranger():
    return rig_case("t36_ranger_idle_strands", "idle", (512, 512), L.RANGER,
                    scr((44, 200, 78), grad=0.12, grad_dir=0.3, vignette=0.2, grain=2.0),
                    (3, 0.3, "add"), 3603, 470, 250,
                    "Textured (noise-modulated shading) ranger: 70 blond hair strands 0.45 px, "
                    "olive cape, spear with a sharp tip; breathing idle; additive wrap 3 px "
                    "30 %; 512x512, CRF 19.", crf=19)


def c_inkknight():
    return rig_case("t36_inkknight_attack", "attack", (448, 448), L.INKKNIGHT,
                    scr((45, 200, 80), grad=0.12, vignette=0.2, grain=2.2, flicker=0.015),
                    (3, 0.25, "mix"), 3604, 408, 214,
                    "Outlined (1.6 px ink) cel knight, red tabard and grey armour; an overhead "
                    "sword cut whose swing (~3.5 rad in 4 frames) is motion blurred (6 sub-frames "
                    "a frame, 32 in the swing); wrap 3 px 25 %; CRF 21. A fast attack: no SMEAR.",
                    crf=21, blur=(6, 0.55), blur_fast=(32, 0.36, 0.5))


def c_tealmage():
    return rig_case("t36_tealmage_skill", "skill", (448, 448), L.TEALMAGE,
                    scr((25, 185, 95), grad=0.14, vignette=0.22, grain=2.0),
                    (5, 0.22, "mix"), 3605, 410, 200,
                    "Shaded mage in a teal robe, 40 white strands, staff with an amber gem "
                    "raised overhead then thrust; light blur (3 sub-frames); cyan-green screen; "
                    "wrap 5 px 22 %; CRF 20.", crf=20, blur=(3, 0.4))


def c_orc():
    return rig_case("t36_orc_hurt", "hurt", (448, 448), L.ORC,
                    scr((78, 202, 62), grad=0.16, vignette=0.25, grain=3.0, flicker=0.03),
                    (4, 0.3, "add"), 3606, 408, 236,
                    "Textured orc with olive-green skin and bare arms, knocked back and "
                    "recovering (22 frames); yellowish-green screen; additive wrap 4 px 30 %; "
                    "CRF 22.", crf=22, blur=(3, 0.5))


def c_wolf():
    return rig_case("t36_wolf_run", "run", (768, 448), L.WOLF,
                    scr((40, 190, 66), grad=0.2, grad_dir=0.0, vignette=0.3, grain=2.5),
                    (4, 0.25, "mix"), 3607, 400, 384,
                    "Textured wolf galloping (creature, four legs), fur tufts along the back "
                    "and a tufted tail tip (0.7 px), motion blur 5 sub-frames; 768x448; wrap "
                    "4 px 25 %; CRF 21.", kind="wolf", crf=21, blur=(5, 0.6))


def c_dino():
    rgba, prov = art.sprite("dinosaur-pygame", "dinosaur_pygame/images/dinosaur.png")
    return art_case("t36_dino_walk_art", "walk", (448, 448), rgba, prov, 5.6, (224, 410),
                    art.dino_walk, scr((35, 190, 75)), (3, 0.3, "mix"), 3608,
                    "Real art: dinosaur-pygame's green dinosaur (MIT), bicubic 5.6x, a stomping "
                    "walk by warps (legs lifted in turn, rocking, bobbing). Green skin with a "
                    "dark outline on a green screen; wrap 3 px 30 %; CRF 20.", crf=20)


def c_bronto():
    rgba, prov = art.sprite("dinosaur-pygame",
                            "dinosaur_pygame/first_version/images/dinosaurio.png")
    prov = dict(prov, edit="green cut-out fringe pixels repainted (201,188,156)")
    return art_case("t36_bronto_idle_art", "idle", (576, 448), art.clean_bronto(rgba), prov,
                    6.4, (288, 420), art.bronto_idle, scr((50, 200, 90), grad_dir=0.2),
                    (4, 0.25, "add"), 3609,
                    "Real art: dinosaur-pygame's brontosaurus (MIT), bicubic 6.4x, idle "
                    "(breathing, neck sway, tail); 576x448; additive wrap 4 px 25 %; CRF 21.",
                    crf=21)


def c_agent():
    rgba, prov = art.sprite("lbforaging", "lbforaging/foraging/icons/agent.png")
    n = h3.frames_for("hurt")
    return art_case("t36_shadowfolk_hurt_art", "hurt", (448, 448), rgba, prov, 4.2,
                    (236, 404), art.agent_hurt(n), scr((30, 186, 60), vignette=0.3),
                    (5, 0.3, "mix"), 3610,
                    "Real art: lbforaging's person icon (MIT), a near-black flat silhouette, "
                    "bicubic 4.2x, struck back, squashed and recovering (22 frames); wrap 5 px "
                    "30 % shows strongly on black; CRF 22.", crf=22)


def c_ghost():
    return rig_case("t36_ghost_walk_smear", "walk", (448, 448), L.BLUETUNIC,
                    scr((36, 194, 68)), (4, 0.3, "mix"), 3611, 410, 224,
                    "Ghosting: every frame from 1 on shows 30 % of the previous clean frame "
                    "(character and screen) blended in; the truth has no ghost. Shaded human in "
                    "a blue tunic walking; wrap 4 px 30 %; CRF 20.", crf=20, ghost=0.3,
                    expect_flags=["SMEAR"])


def c_turn():
    return rig_case("t36_turn_walk_facing", "walk", (448, 448), L.TRAVELLER,
                    scr((40, 198, 72), vignette=0.28), (3, 0.3, "mix"), 3612, 410, 224,
                    "A turn that lasts: a flat-coloured traveller with a spear walks facing "
                    "right, turns (squash and mirror) over frames 22-28 and walks facing left "
                    "to the end (28 of 56 frames, 50 %); wrap 3 px 30 %; CRF 21.",
                    crf=21, turn=(22, 6), expect_flags=["FACING"])


def c_letterbox():
    return rig_case("t36_letterbox_idle_720", "idle", (1280, 704), L.GUARD,
                    scr((36, 194, 72), grad=0.16, vignette=0.28), (4, 0.3, "mix"), 3613, 594,
                    640,
                    "Letterbox: 80 px near-black bars top and bottom on every frame of a "
                    "1280x704 clip (720p-class); a shaded guard with helmet, red cape and sword "
                    "idles inside the picture; wrap 4 px 30 %; CRF 20. Bars are to be "
                    "cropped, not flagged.", crf=20, letterbox=80)


def c_paladin():
    return rig_case("t36_paladin_attack_tall", "attack", (448, 768), L.PALADIN,
                    scr((38, 192, 70), grad=0.18, grad_dir=1.57, vignette=0.25), (5, 0.3, "add"),
                    3614, 722, 214,
                    "Glossy-shaded paladin (white armour, blue cape, gold hair) in a 448x768 "
                    "portrait clip, overhead sword cut blurred (6 sub-frames, 32 in the swing); additive wrap "
                    "5 px 30 % on white armour; CRF 19.", crf=19, blur=(6, 0.5),
                    blur_fast=(32, 0.36, 0.5))


def c_twos():
    return rig_case("t36_ontwos_walk", "walk", (448, 448), L.DANCER,
                    scr((42, 196, 74), grain=3.5, flicker=0.03), (4, 0.3, "mix"), 3615, 410,
                    224,
                    "New ground: animated on twos. The character's pose (and so its truth) "
                    "changes only every second frame, as anime-style footage often does, while "
                    "the screen's grain and flicker are fresh every frame. Cel-shaded, 30 "
                    "strands; wrap 4 px 30 %; CRF 21.", crf=21, hold=2,
                    new_ground="poses held for 2 frames (animation on twos) under a per-frame "
                               "screen: no earlier trial held poses; a chain must not read the "
                               "held pairs as a still or the changing screen as motion")


def c_bands():
    return rig_case("t36_ledbands_run", "run", (448, 448), L.RUNNER,
                    scr((38, 194, 70), bands=(0.07, 56, 0.9), grain=2.0), (4, 0.3, "mix"),
                    3616, 404, 224,
                    "New ground: an LED-backlit screen filmed with a rolling shutter: "
                    "horizontal bands of +-7 % gain (period 56 px, a second at 151 px) roll "
                    "through the screen every frame (the character is lit steadily, so the "
                    "truth is untouched; the wrap carries the bands). A shaded runner in white, "
                    "blurred by 5 sub-frames; wrap 4 px 30 %; CRF 21.", crf=21, blur=(5, 0.55),
                    new_ground="rolling horizontal flicker bands in the screen (not a global "
                               "flicker, not a fixed gradient): earlier trials had exposure "
                               "pumping and fixed hot spots, no moving bands")


def c_multiples():
    return rig_case("t36_multiples_attack", "attack", (448, 448), L.SAMURAI,
                    scr((36, 196, 72)), (3, 0.28, "mix"), 3617, 408, 216,
                    "New ground: a 2-D animator's smear. In the strike (frames 15-18) the arm "
                    "and sword are drawn three times along the arc, opaque, as hand-drawn "
                    "'multiples'; they are part of the character and in the truth. No motion "
                    "blur. Outlined cel samurai; wrap 3 px 28 %; CRF 20.", crf=20,
                    multiples=True,
                    new_ground="drawn multiples (opaque copies of a limb in one frame) are not "
                               "ghosting: SMEAR must not fire, and the matte must keep them")


CASES = [("t36_greenshirt_walk_w6", c_greenshirt), ("t36_tealgoblin_run_blur", c_goblin),
         ("t36_ranger_idle_strands", c_ranger), ("t36_inkknight_attack", c_inkknight),
         ("t36_tealmage_skill", c_tealmage), ("t36_orc_hurt", c_orc), ("t36_wolf_run", c_wolf),
         ("t36_dino_walk_art", c_dino), ("t36_bronto_idle_art", c_bronto),
         ("t36_shadowfolk_hurt_art", c_agent), ("t36_ghost_walk_smear", c_ghost),
         ("t36_turn_walk_facing", c_turn), ("t36_letterbox_idle_720", c_letterbox),
         ("t36_paladin_attack_tall", c_paladin), ("t36_ontwos_walk", c_twos),
         ("t36_ledbands_run", c_bands), ("t36_multiples_attack", c_multiples)]
