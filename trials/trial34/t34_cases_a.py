"""Trial 34, the issue's own kinds drawn with the jointed rig (six cases)."""
from __future__ import annotations

from t34_render import RigSource, build

PI = 3.14159265


def attack_keys(wind=2.7, wind_el=0.8, strike=0.45, s_wind=0.38, s_hold=0.42, s_hit=0.52, grip=0.9,
                lunge=0.55):
    """An overhead slash: anticipation, windup behind the head, a strike in a few frames,
    follow-through, partial recovery."""
    return [(0.0, {}),
            (0.12, dict(crouch=0.12, sh_n=0.3, el_n=0.6, grip=0.15)),
            (s_wind, dict(sh_n=wind, el_n=wind_el, grip=grip, lean=-0.08, th_n=-0.1, th_f=0.12, crouch=0.15,
                          sh_f=-0.5, el_f=0.6)),
            (s_hold, dict(sh_n=wind + 0.08, el_n=wind_el + 0.05, grip=grip, lean=-0.1, th_n=-0.1, th_f=0.12,
                          crouch=0.16, sh_f=-0.55, el_f=0.6)),
            (s_hit, dict(sh_n=strike, el_n=0.15, grip=grip, lean=0.28, th_n=lunge, kn_n=0.55, th_f=-0.35,
                         kn_f=0.25, crouch=0.22, sh_f=-0.7, el_f=0.4, head=0.1)),
            (0.72, dict(sh_n=strike - 0.2, el_n=0.3, grip=grip, lean=0.22, th_n=lunge * 0.9, kn_n=0.5, th_f=-0.3,
                        kn_f=0.2, crouch=0.18, sh_f=-0.6, el_f=0.4)),
            (1.0, dict(sh_n=0.25, el_n=0.45, grip=0.6, lean=0.06, th_n=0.15, kn_n=0.2, crouch=0.05))]


def skill_keys(raise_to=2.75):
    """Gathering power: crouch, both arms (and the staff) raised and held, a thrust forward."""
    return [(0.0, {}),
            (0.15, dict(crouch=0.25, sh_n=0.5, el_n=1.2, sh_f=0.4, el_f=1.1, lean=0.12, grip=-0.9)),
            (0.42, dict(crouch=-0.02, sh_n=raise_to, el_n=0.15, sh_f=raise_to - 0.2, el_f=0.2, lean=-0.1,
                        head=-0.2, grip=0.0, wind=0.5)),
            (0.6, dict(crouch=0.0, sh_n=raise_to + 0.1, el_n=0.1, sh_f=raise_to - 0.1, el_f=0.15, lean=-0.12,
                       head=-0.25, grip=0.0, wind=0.8)),
            (0.78, dict(crouch=0.15, sh_n=1.45, el_n=0.05, sh_f=1.3, el_f=0.1, lean=0.2, th_n=0.35, kn_n=0.35,
                        th_f=-0.25, grip=0.0, wind=0.9)),
            (1.0, dict(crouch=0.08, sh_n=0.9, el_n=0.3, sh_f=0.6, el_f=0.4, lean=0.1, th_n=0.2, kn_n=0.2,
                       grip=0.3, wind=0.3))]


def case_green_shirt_wrap6(root):
    spec = dict(height=330, style="shaded", seed=3401, skin=(226, 176, 138), hair=(62, 40, 28),
                shirt=(46, 152, 66), pants=(58, 64, 96), shoes=(48, 34, 28), belt=(96, 64, 36),
                strands=52, strand_len=(0.10, 0.24), strand_r=(0.3, 0.7), spec=0.12, tex=0.05, build=1.1)
    H = W = 448
    src = RigSource(spec, "walk", 56, (214, 424), period=22)
    return build(root, "green_shirt_wrap6", "walk", src, H, W,
                 dict(colour=(38, 192, 60), grad=(0.14, 0.3), grad_dir=(0.2, 1.0), vignette=0.22, mottle=4.0,
                      grain=2.2, flicker=0.03, settle=4),
                 dict(width=6, strength=0.35, gamma=1.0, mode="mix", settle=3), 20,
                 "The issue's hardest kind: a shaded walker in a green shirt (46,152,66) under a 6 px / 35 % "
                 "linear light wrap, 52 hair strands 0.3-0.7 px, soft contact shadow (not in the truth), "
                 "gradient+vignette+grain+flicker screen.",
                 dict(style="shaded", character=spec),
                 shadow=dict(cx=214, cy=426, rx=70, ry=9, k=0.35), seed=3401)


def case_teal_goblin_flat_run(root):
    spec = dict(height=270, style="flat", cel=True, seed=3402, skin=(38, 168, 150), hair=(24, 60, 40),
                shirt=(112, 150, 40), sleeve=(112, 150, 40), pants=(64, 128, 52), shoes=(70, 48, 30),
                belt=(120, 80, 40), strands=18, strand_len=(0.05, 0.1), strand_r=(0.5, 1.0), head_r=0.095,
                weapon="sword", weapon_len=0.22, tip_r=0.35, metal=(190, 196, 200))
    H, W = 384, 512
    src = RigSource(spec, "run", 56, (262, 366), period=14)
    return build(root, "teal_goblin_flat_run", "run", src, H, W,
                 dict(colour=(72, 200, 44), grad=(0.22, 0.5), grad_dir=(1.0, 0.4), vignette=0.12, mottle=5.0,
                      grain=3.0, flicker=0.04, settle=3),
                 dict(width=4, strength=0.30, gamma=1.5, mode="screen", settle=2), 22,
                 "Flat cel-shaded goblin with teal skin (38,168,150), olive-lime vest and green trousers on a "
                 "yellow-green screen; run with sub-frame motion blur on the fast limbs (half-frame shutter); "
                 "4 px / 30 % wrap in screen-blend mode.",
                 dict(style="flat", character=spec),
                 blur=dict(shutter=0.5, px=2.0, kmax=16), shadow=dict(cx=262, cy=368, rx=80, ry=8, k=0.25),
                 seed=3402)


def case_ink_knight_attack(root):
    spec = dict(height=300, style="ink", ink=(24, 20, 30), ink_w=1.7, seed=3403, skin=(232, 196, 160),
                hair=(200, 170, 90), shirt=(150, 162, 184), sleeve=(130, 142, 170), forearm=(150, 162, 184),
                glove=(90, 70, 50), pants=(70, 72, 90), shin=(150, 162, 184), shoes=(60, 50, 45),
                belt=(120, 40, 40), strands=24, strand_len=(0.06, 0.14), strand_r=(0.4, 0.8),
                weapon="sword", weapon_len=0.44, tip_r=0.3, metal=(214, 218, 228))
    H, W = 512, 448
    src = RigSource(spec, "attack", 39, (170, 494), keys=attack_keys(wind=2.55, wind_el=0.75, strike=0.5),
                    ease=3.0)
    return build(root, "ink_knight_attack", "attack", src, H, W,
                 dict(colour=(44, 180, 70), grad=(0.10, -0.3), grad_dir=(-0.5, 1.0), vignette=0.25, mottle=3.0,
                      grain=2.6, flicker=0.02, settle=4),
                 dict(width=3, strength=0.25, gamma=1.2, mode="mix", blur=3.0, settle=3), 21,
                 "Outlined (1.7 px ink) armoured knight's overhead slash; the sword narrows to a 0.3 px tip "
                 "and is motion-blurred from sub-frame renders during the strike; 3 px / 25 % wrap taken "
                 "from the blurred backdrop.",
                 dict(style="ink", character=spec),
                 blur=dict(shutter=0.5, px=2.5, kmax=24), shadow=dict(cx=186, cy=496, rx=72, ry=8, k=0.3),
                 seed=3403)


def case_textured_monk_run(root):
    spec = dict(height=220, style="shaded", tex=0.22, seed=3404, skin=(180, 120, 84), hair=None,
                shirt=(132, 142, 52), sleeve=(132, 142, 52), forearm=(180, 120, 84), pants=(110, 120, 44),
                shoes=(92, 64, 40), belt=(170, 60, 40), spec=0.05,
                weapon="staff", weapon_len=0.42, weapon_back=0.36, weapon_angle=PI - 0.25, shaft=(134, 96, 52),
                orb=(120, 200, 90))
    H, W = 320, 576
    src = RigSource(spec, "run", 56, (290, 306), period=15, amp=1.05)
    return build(root, "textured_monk_run", "run", src, H, W,
                 dict(colour=(22, 208, 62), grad=(0.28, 0.0), grad_dir=(0.0, 1.0), vignette=0.30, mottle=7.0,
                      grain=2.5, flicker=0.035, settle=5),
                 dict(width=3, strength=0.25, gamma=2.0, mode="add", settle=4), 21,
                 "Textured (woven-cloth noise) monk in an olive-lime robe running with a staff tipped by a "
                 "green orb; sub-frame motion blur; 3 px / 25 % added-light wrap; mottled screen with a "
                 "strong vignette; dark contact shadow.",
                 dict(style="textured", character=spec),
                 blur=dict(shutter=0.5, px=2.0, kmax=16), shadow=dict(cx=290, cy=304, rx=75, ry=8, k=0.45),
                 seed=3404)


def case_small_spear_idle(root):
    spec = dict(height=166, style="shaded", seed=3405, skin=(240, 206, 176), hair=(232, 206, 120),
                shirt=(222, 216, 200), pants=(120, 90, 60), shoes=(80, 56, 40), belt=(60, 120, 110),
                cape=(32, 150, 138), strands=22, strand_len=(0.08, 0.16), strand_r=(0.25, 0.5),
                weapon="spear", weapon_len=0.78, weapon_back=0.25, tip_r=0.25, spec=0.1)
    H = W = 512
    src = RigSource(spec, "idle", 56, (250, 420), period=40)
    return build(root, "small_spear_idle", "idle", src, H, W,
                 dict(colour=(50, 184, 66), grad=(0.08, 0.2), grad_dir=(1.0, 1.0), vignette=0.15, mottle=6.0,
                      grain=4.5, flicker=0.06, settle=3),
                 dict(width=2, strength=0.35, gamma=0.7, mode="mix", settle=2), 24,
                 "A small figure (a third of the frame) breathing at idle: pale tunic, teal cape, blond "
                 "strands 0.25-0.5 px and a spear narrowing to a 0.25 px tip; a steep 2 px / 35 % wrap; "
                 "heavy grain and 6 % flicker; CRF 24.",
                 dict(style="shaded", character=spec),
                 shadow=dict(cx=250, cy=422, rx=48, ry=6, k=0.3), seed=3405)


def case_teal_mage_blue(root):
    spec = dict(height=270, style="shaded", seed=3406, skin=(238, 200, 170), hair=(196, 190, 220),
                shirt=(28, 138, 150), sleeve=(28, 138, 150), pants=(24, 110, 124), shin=(24, 110, 124),
                shoes=(60, 44, 70), belt=(200, 170, 80), cape=(40, 56, 120), strands=72,
                strand_len=(0.14, 0.32), strand_r=(0.3, 0.65), spec=0.15, tex=0.06,
                weapon="staff", weapon_len=0.36, weapon_back=0.22, shaft=(90, 60, 40), orb=(240, 220, 120))
    H, W = 480, 384
    src = RigSource(spec, "skill", 39, (160, 462), keys=skill_keys(), ease=3.0)
    return build(root, "teal_mage_blue", "skill", src, H, W,
                 dict(canvas=(0, 0, 255), colour=(30, 64, 206), grad=(0.16, -0.3), grad_dir=(0.0, 1.0),
                      vignette=0.2, mottle=4.0, grain=2.0, flicker=0.025, settle=4),
                 dict(width=4, strength=0.30, gamma=1.2, mode="mix", blur=4.0, settle=3), 19,
                 "Blue screen: a mage in a teal robe (28,138,150) and navy cape with 72 lavender strands "
                 "casting (staff raised and thrust); 4 px / 30 % wrap from the blurred blue backdrop.",
                 dict(style="shaded", character=spec),
                 blur=dict(shutter=0.4, px=2.5, kmax=12), shadow=dict(cx=166, cy=464, rx=66, ry=8, k=0.3),
                 seed=3406)


CASES = {f.__name__[5:]: f for f in (case_green_shirt_wrap6, case_teal_goblin_flat_run, case_ink_knight_attack,
                                      case_textured_monk_run, case_small_spear_idle, case_teal_mage_blue)}
