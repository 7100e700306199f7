"""Trial 36: art styles and the characters' looks (colours, builds, gear)."""

from __future__ import annotations

from t36_build import build

SHADE = dict(mode="shade", amb=0.45, spec=0.12)
GLOSS = dict(mode="shade", amb=0.42, spec=0.3)
CEL = dict(mode="cel", thr=0.42, low=0.7)
FLAT = dict(mode="flat")
INK = dict(mode="cel", thr=0.45, low=0.72, outline=1.6, ink=(26, 20, 34))
TEX = dict(mode="shade", amb=0.42, spec=0.06, tex=0.2, tscale=1.3)

SKIN = (228, 184, 152)

GREENSHIRT = dict(style=SHADE, build=build(), skin=SKIN, shirt=(58, 138, 62),
                  sleeve=(58, 138, 62), pants=(64, 66, 96), boots=(72, 48, 34),
                  hair=(92, 58, 36), strands=30, hair_len=2.0, strand_w=0.6, seed=11,
                  belt=(90, 60, 40))

GOBLIN = dict(style=CEL, scale=0.9,
              build=build(head=30, chest=22, torso=68, thigh=46, shin=44, uarm=38, farm=36),
              skin=(72, 168, 158), shirt=(86, 128, 48), sleeve=(86, 128, 48),
              pants=(110, 80, 50), boots=(60, 40, 30), hair=(40, 36, 30),
              weapon=dict(kind="sword", len=42, width=3.5, col=(200, 200, 210),
                          guard=(90, 70, 40)))

RANGER = dict(style=TEX, build=build(), skin=(236, 198, 170), shirt=(150, 110, 70),
              sleeve=(150, 110, 70), pants=(80, 70, 60), boots=(60, 45, 35),
              hair=(230, 200, 120), strands=70, hair_len=2.7, strand_w=0.45, seed=23,
              cape=(86, 96, 52), grip=2.55,
              weapon=dict(kind="spear", len=150, col=(210, 210, 220), shaft=(120, 85, 50)))

INKKNIGHT = dict(style=INK, build=build(), skin=(232, 190, 160), shirt=(168, 40, 48),
                 sleeve=(180, 185, 195), pants=(150, 155, 165), boots=(90, 90, 100),
                 hair=(60, 40, 30), helmet=(180, 185, 195),
                 weapon=dict(kind="sword", len=85, width=4.5, col=(215, 220, 230),
                             guard=(140, 110, 50)))

TEALMAGE = dict(style=SHADE, build=build(), skin=(240, 205, 180), shirt=(40, 138, 150),
                sleeve=(40, 138, 150), pants=(36, 120, 132), boots=(70, 50, 40),
                hair=(225, 225, 230), strands=40, hair_len=2.2, strand_w=0.5, seed=5,
                grip=2.7, weapon=dict(kind="staff", len=100, col=(235, 170, 40),
                                      shaft=(110, 75, 45)))

ORC = dict(style=TEX, build=build(chest=30, arm_r=11, leg_r=13, head=26, torso=84),
           skin=(108, 142, 72), shirt=(120, 90, 60), sleeve=(108, 142, 72),
           pants=(70, 60, 50), boots=(50, 40, 35), hair=(30, 28, 25), belt=(60, 40, 25))

WOLF = dict(style=TEX, scale=1.15, fur=(128, 116, 104), belly=(206, 196, 180),
            nose=(30, 26, 26), tip=(230, 225, 215), strand_w=0.7)

BLUETUNIC = dict(style=SHADE, build=build(), skin=(200, 150, 120), shirt=(50, 80, 160),
                 sleeve=(50, 80, 160), pants=(90, 70, 55), boots=(50, 35, 30),
                 hair=(30, 25, 25), strands=20, hair_len=1.6, strand_w=0.7, seed=8,
                 belt=(40, 30, 25))

TRAVELLER = dict(style=FLAT, build=build(), skin=(250, 215, 185), shirt=(230, 120, 40),
                 sleeve=(230, 120, 40), pants=(60, 60, 70), boots=(40, 30, 30),
                 hair=(120, 60, 140), strands=24, hair_len=2.0, strand_w=0.7, seed=31,
                 grip=2.5, weapon=dict(kind="spear", len=140, col=(200, 205, 215),
                                       shaft=(140, 95, 55)))

GUARD = dict(style=SHADE, scale=1.35, build=build(), skin=(222, 176, 146),
             shirt=(150, 40, 40), sleeve=(170, 172, 182), pants=(70, 60, 55),
             boots=(60, 45, 40), hair=(70, 50, 40), helmet=(175, 178, 188),
             cape=(120, 30, 35), belt=(80, 60, 30),
             weapon=dict(kind="sword", len=90, width=4.5, col=(210, 215, 225),
                         guard=(150, 120, 50)))

PALADIN = dict(style=GLOSS, scale=1.05, build=build(), skin=(235, 195, 165),
               shirt=(200, 200, 210), sleeve=(200, 200, 210), pants=(190, 190, 200),
               boots=(120, 120, 130), hair=(200, 170, 90), helmet=(205, 205, 215),
               cape=(40, 70, 160),
               weapon=dict(kind="sword", len=80, width=5.0, col=(225, 228, 235),
                           guard=(170, 140, 60)))

DANCER = dict(style=CEL, build=build(), skin=(235, 190, 160), shirt=(200, 60, 90),
              sleeve=(235, 190, 160), pants=(50, 50, 120), boots=(60, 40, 40),
              hair=(250, 230, 120), strands=30, hair_len=2.3, strand_w=0.6, seed=17)

RUNNER = dict(style=SHADE, build=build(), skin=(150, 100, 70), shirt=(230, 230, 235),
              sleeve=(150, 100, 70), pants=(40, 40, 50), boots=(200, 50, 40),
              hair=(20, 20, 20), strands=14, hair_len=1.2, strand_w=0.8, seed=3)

SAMURAI = dict(style=dict(CEL, outline=1.2, ink=(20, 18, 30)), build=build(),
               skin=(238, 200, 170), shirt=(60, 60, 90), sleeve=(60, 60, 90),
               pants=(40, 40, 60), boots=(30, 28, 30), hair=(15, 15, 20), strands=10,
               hair_len=1.4, strand_w=0.8, seed=29, belt=(180, 150, 60),
               weapon=dict(kind="sword", len=88, width=3.5, col=(220, 225, 235),
                           guard=(40, 35, 30)))
