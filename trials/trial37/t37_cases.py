"""Trial 37 cast and cases: who is drawn, how, on which screen, in which H3 format."""
from __future__ import annotations

from t37_chars import humanoid

SKIN = (228, 178, 140)


def cast(name):
    if name == "moss":  # shaded ranger, green shirt, dark hair strands, spear
        return humanoid("moss", dict(skin=SKIN, shirt=(50, 138, 60), pants=(150, 118, 80), boot=(78, 50, 34),
                                     hair=(46, 30, 22), accent=(170, 40, 36)),
                        "shaded", weapon="spear", strands=44, strand_len=(45, 120), tex=0.05, seed=1,
                        rest={"weapon": 0.62, "uarm_n": -0.22})
    if name == "moss_bare":  # the same ranger running without his spear
        return humanoid("moss", dict(skin=SKIN, shirt=(50, 138, 60), pants=(150, 118, 80), boot=(78, 50, 34),
                                     hair=(46, 30, 22)), "shaded", strands=44, strand_len=(45, 120), tex=0.05, seed=1)
    if name == "tide":  # cel sea-elf mage: teal skin, violet robe, silver strands, staff
        return humanoid("tide", dict(skin=(70, 165, 158), shirt=(112, 72, 150), robe=(96, 60, 136),
                                     pants=(60, 50, 80), hair=(214, 220, 232), gem=(255, 150, 80)),
                        "cel", robe=True, weapon="staff", strands=30, strand_len=(60, 140), seed=2,
                        build=dict(sw=0.9, hw=0.9), rest={"weapon": 0.5})
    if name == "marsh":  # flat frog brawler: teal skin, bare chest, orange shorts
        return humanoid("marsh", dict(skin=(52, 152, 140), shirt=(52, 152, 140), sleeve=(52, 152, 140),
                                      pants=(226, 122, 40), boot=(38, 108, 100), belt=(120, 60, 30)),
                        "flat", head="bald", build=dict(sw=1.2, hw=1.15, ar=1.2, hs=1.1, tl=92, th=62, sh=60))
    if name == "brik":  # flat dwarf: yellow tunic, red beard
        return humanoid("brik", dict(skin=(236, 184, 150), shirt=(230, 180, 50), pants=(110, 70, 40),
                                     hair=(178, 70, 30), beard=(186, 76, 34)),
                        "flat", beard=True, build=dict(tl=82, th=46, sh=42, sw=1.25, hw=1.2, hs=1.15, al=42, fl=40))
    if name == "ink":  # ink-outlined fighter: white gi, red sash, black ponytail, axe
        return humanoid("ink", dict(skin=(240, 200, 168), shirt=(236, 232, 222), pants=(52, 52, 72),
                                    belt=(200, 40, 40), hair=(22, 18, 24), ink=(20, 16, 22)),
                        "cel", weapon="axe", strands=22, strand_len=(50, 90), ink_w=1.8, seed=3,
                        rest={"weapon": 0.3})
    if name == "rust":  # textured knight: plate, mail, helm, sword
        return humanoid("rust", dict(skin=(222, 170, 140), shirt=(150, 150, 160), sleeve=(135, 136, 146),
                                     pants=(118, 118, 124), boot=(70, 60, 56), steel=(176, 180, 192)),
                        "shaded", head="helm", weapon="sword", tex=0.22, gloss=0.7, rest={"weapon": 2.97})
    if name == "goblin":  # pixel-art goblin thief: olive-green skin, purple hood, dagger
        return humanoid("goblin", dict(skin=(120, 152, 60), shirt=(92, 60, 130), hood=(100, 62, 140),
                                       pants=(100, 70, 44), boot=(60, 40, 30)),
                        "pixel", head="hood", weapon="dagger",
                        build=dict(tl=80, th=50, sh=46, hs=1.3, al=44, fl=40), rest={"weapon": 2.9})
    if name == "hero":  # pixel-art hero: blue tunic, blond, sword
        return humanoid("hero", dict(skin=(238, 190, 150), shirt=(50, 90, 180), pants=(96, 64, 40),
                                     hair=(232, 190, 90)), "pixel", weapon="sword", rest={"weapon": 2.95})
    if name == "druid":  # textured druid: green cloak and hood over a green shirt
        return humanoid("druid", dict(skin=(204, 152, 120), shirt=(50, 140, 72), hood=(64, 118, 52),
                                      robe=(70, 110, 56), pants=(80, 64, 48)),
                        "shaded", head="hood", robe=True, tex=0.18)
    if name == "nereid":  # shaded teal-skinned walker in a dark green vest, navy strands
        return humanoid("nereid", dict(skin=(60, 170, 165), shirt=(40, 102, 70), sleeve=(60, 170, 165),
                                       pants=(70, 60, 100), boot=(50, 44, 60), hair=(30, 40, 82)),
                        "shaded", strands=50, strand_len=(50, 130), seed=4, build=dict(sw=0.92, hw=0.95))
    if name == "courier":  # shaded courier: red cap, satchel on his back
        return humanoid("courier", dict(skin=(240, 200, 170), shirt=(200, 150, 60), pants=(60, 80, 130),
                                        hat=(180, 40, 40), hair=(70, 44, 30)), "shaded", head="cap", satchel=True)
    if name == "scout":  # cel scout: orange jacket, brown strands
        return humanoid("scout", dict(skin=(236, 190, 160), shirt=(222, 112, 40), pants=(40, 40, 48),
                                      hair=(96, 60, 36)), "cel", strands=24, strand_len=(35, 80), seed=5)
    if name == "warden":  # shaded warden: purple gambeson, helm, greatsword
        return humanoid("warden", dict(skin=(220, 170, 140), shirt=(90, 60, 110), pants=(60, 56, 64),
                                       steel=(190, 194, 206)), "shaded", head="helm", weapon="great", tex=0.08,
                        rest={"weapon": 2.97})
    raise KeyError(name)


SCR = dict(col=(38, 196, 58), grad=(100, 0.08), vig=0.12, mottle=0.03, grain=3.0, flicker=0.02, settle=3)


def S(**kw):
    d = dict(SCR)
    d.update(kw)
    return d


CASES = [
    dict(name="s01_moss_shaded_greenshirt_walk_w6", char="moss", action="walk", size=(448, 448), scale=1.05,
         at=(220, 420), motion=dict(kind="walk", period=1.0), sec=2.0, blur=(8, 0.5), crf=20, ss=3,
         wrap=(6, 0.35, "blur", 1.0), shadow=0.32, screen=S()),
    dict(name="s02_moss_shaded_greenshirt_thrust_w6", char="moss", action="attack", size=(832, 480), scale=1.0,
         at=(330, 452), motion=dict(kind="thrust"), sec=1.0, blur=(12, 0.5), crf=21, ss=3,
         wrap=(6, 0.35, "dist", 1.5), shadow=0.3, screen=S(col=(50, 185, 70), grad=(0, 0.12), vig=0.22)),
    dict(name="s03_tide_cel_tealskin_idle", char="tide", action="idle", size=(512, 768), scale=1.35,
         at=(250, 720), motion=dict(kind="idle", period=2.3), sec=2.0, crf=19,
         wrap=(4, 0.28, "blur", 1.2), shadow=0.28, screen=S(col=(30, 205, 45), grad=(80, 0.1))),
    dict(name="s04_marsh_flat_tealskin_run", char="marsh", action="run", size=(832, 480), scale=1.05,
         at=(400, 455), motion=dict(kind="run", period=0.62), sec=2.0, blur=(12, 0.5), crf=22,
         wrap=(3, 0.25, "dist", 1.0), shadow=0.35, screen=S(col=(60, 180, 80), grain=4.0, vig=0.12)),
    dict(name="s05_brik_flat_walk", char="brik", action="walk", size=(448, 448), scale=1.35,
         at=(224, 418), motion=dict(kind="walk", period=0.9), sec=2.0, blur=(8, 0.5), crf=18,
         wrap=(2, 0.15, "blur", 1.0), shadow=0.3, screen=S(col=(20, 200, 60), grad=(60, 0.05))),
    dict(name="s06_tide_cel_tealskin_skill", char="tide", action="skill", size=(512, 768), scale=1.2,
         at=(184, 724), motion=dict(kind="cast"), sec=1.5, blur=(8, 0.5), crf=20,
         orb=(15, ("weapon", 0, -134), (255, 170, 90)), wrap=(5, 0.3, "blur", 1.0), shadow=0.28,
         screen=S(col=(34, 200, 52), vig=0.2)),
    dict(name="s07_ink_outlined_axe_attack", char="ink", action="attack", size=(832, 480), scale=0.95,
         at=(390, 455), motion=dict(kind="chop"), sec=1.0, blur=(12, 0.5), crf=21, rim=((200, 240, 200), 0.35, 2),
         wrap=(3, 0.22, "dist", 1.0), shadow=0.3, screen=S(col=(44, 192, 64), grad=(180, 0.1))),
    dict(name="s08_rust_textured_knight_hurt", char="rust", action="hurt", size=(448, 448), scale=1.1,
         at=(250, 425), motion=dict(kind="hurt"), sec=0.7, blur=(8, 0.5), crf=20,
         wrap=(4, 0.3, "blur", 1.0), shadow=0.3, screen=S(col=(40, 190, 60), vig=0.25, mottle=0.05)),
    dict(name="s09_goblin_pixel_x8_idle", char="goblin", action="idle", size=(448, 448), scale=1.0, pix=8,
         at=(224, 416), motion=dict(kind="idle", period=2.0), sec=2.0, crf=20,
         wrap=(2, 0.2, "dist", 1.0), shadow=0.25, screen=S(col=(28, 198, 50))),
    dict(name="s10_hero_pixel_x6_walk_1280", char="hero", action="walk", size=(1280, 704), scale=1.5, pix=6,
         at=(636, 660), motion=dict(kind="walk", period=1.0), sec=2.0, crf=22,
         wrap=(3, 0.25, "blur", 1.0), shadow=0.3, screen=S(col=(36, 194, 62), grad=(0, 0.1), vig=0.25)),
    dict(name="s11_moss_shaded_greenshirt_run_1280", char="moss_bare", action="run", size=(1280, 704),
         scale=1.55, at=(600, 668), motion=dict(kind="run", period=0.64), sec=2.0, blur=(6, 0.5), crf=21,
         wrap=(5, 0.32, "blur", 1.0), shadow=0.35, screen=S(col=(42, 188, 66), vig=0.25, grain=3.5)),
    dict(name="s12_druid_textured_greencloak_skill_w6", char="druid", action="skill", size=(512, 768),
         scale=1.3, at=(236, 726), motion=dict(kind="cast"), sec=1.5, blur=(8, 0.5), crf=23,
         orb=(16, ("hand_n", 0, 22), (240, 230, 120)), wrap=(6, 0.35, "dist", 1.3), shadow=0.3,
         screen=S(col=(30, 200, 56), grad=(120, 0.1), flicker=0.035)),
    dict(name="s13_nereid_shaded_tealskin_walk", char="nereid", action="walk", size=(512, 768), scale=1.4,
         at=(256, 730), motion=dict(kind="walk", period=1.1), sec=2.0, blur=(8, 0.5), crf=24,
         wrap=(5, 0.3, "blur", 1.0), shadow=0.3, screen=S(col=(48, 186, 70), grain=4.5, mottle=0.05)),
    dict(name="q14_courier_turn_walk", char="courier", action="walk", size=(448, 448), scale=1.1,
         at=(224, 422), motion=dict(kind="walk", period=1.0), sec=2.0, blur=(8, 0.5), crf=20,
         turn=(0.75, 0.25), wrap=(3, 0.25, "blur", 1.0), shadow=0.3, screen=S(), expect=["FACING"]),
    dict(name="q15_scout_ghost_run", char="scout", action="run", size=(448, 448), scale=1.05,
         at=(224, 424), motion=dict(kind="run", period=0.62), sec=2.0, blur=(8, 0.5), crf=20, ghost=0.35,
         wrap=(3, 0.25, "blur", 1.0), shadow=0.3, screen=S(col=(36, 200, 58)), expect=["SMEAR"]),
    dict(name="q16_warden_fast_greatsword_blur", char="warden", action="attack", size=(640, 640), scale=0.9,
         at=(250, 612), motion=dict(kind="fastslash"), sec=1.0, blur=(16, 1.0), crf=20,
         wrap=(4, 0.3, "blur", 1.0), shadow=0.3, screen=S(col=(40, 194, 60)), expect=[]),
]
