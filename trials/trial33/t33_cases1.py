"""Trial 33 cases from real published sprite art (Freedoom via vizdoom; crafter; craftax)."""
from __future__ import annotations

import math

import cv2
import numpy as np

import t33_art as A
import t33_common as C
from trial33 import Spec, case

GREEN_CANVAS = (0, 254, 0)


def shadow_at(W, H, cx, cy, rx, ry, s):
    cache = {}

    def fn(t, info, w):
        x = info.get("feet_x", cx)
        k = (round(x), round(w * 20))
        if k not in cache:
            cache[k] = C.contact_shadow(W, H, x, cy, rx, ry, s * w)
        return cache[k]
    return fn


# ---------------------------------------------------------------- Freedoom walkers
def doom_walk_frames(n, rot_of_t, hold=3):
    """Sprite frame name for each video frame: A-D walk, each pose held `hold` frames;
    frame 0 is the rest pose A."""
    out = []
    for t in range(n):
        letter = "A" if t == 0 else "ABCD"[((t - 1) // hold) % 4]
        out.append(f"PLAY{letter}{rot_of_t(t)}")
    return out


def doom_render(frames, W, H, scale, feet, soften=0.55, xpos=None, warp=None):
    def render(t):
        img, (lo, to) = A.doom_sprite(frames[t])
        x = xpos(t) if xpos else feet[0]
        rot, sx, sy = warp(t) if warp else (0.0, 1.0, 1.0)
        M = A.feet_affine((lo, to), (x, feet[1]), scale, rot, sx, sy)
        return A.place(img, M, W, H, soften=soften), {"feet_x": x}
    return render


@case
def doomguy_walk_w6():
    W = H = 448
    n = C.nframes("walk")
    frames = doom_walk_frames(n, lambda t: 3)
    bob = lambda t: (0.0, 1.0, 1.0 + 0.012 * math.sin(t * 2 * math.pi / 6)) if t else (0.0, 1, 1)
    render = doom_render(frames, W, H, 5.0, (224, 392), warp=bob)
    return Spec("doomguy_walk_w6", "walk", W, H, render,
                screen=dict(seed=3301, canvas=GREEN_CANVAS, key=(28, 204, 44), settle=3,
                            grad=(0.05, 0.16), vignette=0.18, mottle=0.02, grain=2.2,
                            flicker=0.015),
                wrap=dict(width=6, strength=0.35, falloff="lin", source="blur", mode="mix"),
                crf=20, shadow=shadow_at(W, H, 224, 393, 62, 9, 0.35),
                style="real art, shaded/textured (Freedoom player, green armour), Lanczos x5",
                notes="Freedoom's player in green armour walking in place with its own four "
                      "walk frames (rotation 3, each held 3 frames), upscaled 5x from 56 px "
                      "as a model renders a small input; the issue's hardest wrap (6 px, 35 %, "
                      "linear falloff, blurred backdrop light) on a shaded green-clad figure; "
                      "gradient, vignette, mottle, grain, flicker; contact shadow (not in truth).",
                sources=[A.doom_source(frames)])


@case
def doomguy_turn_facing():
    W, H = 576, 448
    n = C.nframes("walk")
    turn = {21: 2, 22: 2, 23: 1, 24: 1, 25: 8, 26: 8}

    def rot_of(t):
        if t <= 20:
            return 3
        return turn.get(t, 7)
    frames = doom_walk_frames(n, rot_of)
    # rotation 3 walks toward screen-left in Freedoom's view; 7 (its mirror) toward right
    xs = np.zeros(n)
    x = 330.0
    for t in range(1, n):
        r = rot_of(t)
        x += -0.9 if r == 3 else (0.9 if r == 7 else 0.0)
        xs[t] = x
    xs[0] = 330.0
    render = doom_render(frames, W, H, 4.6, (330, 398), xpos=lambda t: xs[t])
    return Spec("doomguy_turn_facing", "walk", W, H, render,
                screen=dict(seed=3302, canvas=(0, 255, 0), key=(40, 196, 62), settle=4,
                            grad=(0.14, 0.08), vignette=0.22, mottle=0.03, grain=2.6,
                            flicker=0.02),
                wrap=dict(width=4, strength=0.3, falloff="smooth", source="blur", mode="mix"),
                crf=21, expect=["FACING"], shadow=shadow_at(W, H, 330, 399, 56, 8, 0.3),
                style="real art, shaded (Freedoom player), Lanczos x4.6",
                notes="Freedoom's player walks left with its own walk frames (rotation 3), "
                      "turns at frames 21-26 through its own front views (rotations 2, 1, 8) "
                      "and walks right (rotation 7, the mirrored side view) for the remaining "
                      "29 frames (52 % of the clip): a turn that lasts -> FACING.",
                sources=[A.doom_source(frames)])


@case
def serpent_hurt():
    W = H = 448
    n = C.nframes("hurt")
    seq = ["TROOA1"] * 4 + ["TROOH1"] * 9 + ["TROOA1"] * 3 + ["TROOB1"] * 3 + ["TROOA1"] * 3
    seq = seq[:n]
    kb = lambda t: 0 if t < 4 else (14 * math.exp(-(t - 4) / 5.0) * min(1, (t - 3) / 2))

    def warp(t):
        k = kb(t)
        return (-math.radians(k * 0.5), 1.0, 1.0 - 0.004 * k)
    render = doom_render(seq, W, H, 5.2, (228, 384), xpos=lambda t: 228 - kb(t) * 1.4,
                         warp=warp, soften=0.45)
    return Spec("serpent_hurt", "hurt", W, H, render,
                screen=dict(seed=3303, canvas=GREEN_CANVAS, key=(36, 212, 58), settle=2,
                            grad=(0.12, 0.06), vignette=0.25, mottle=0.015, grain=3.0,
                            flicker=0.03),
                wrap=dict(width=3, strength=0.28, falloff="exp", source="blur", mode="mix"),
                crf=21, shadow=shadow_at(W, H, 228, 385, 60, 9, 0.3),
                style="real art, shaded (Freedoom serpentipede), Lanczos x5.2",
                notes="Freedoom's serpentipede takes a hit: its own pain frame (H, held 9 frames), a "
                      "knock-back of 20 px that settles, then its idle frames A/B; thin "
                      "tentacle tips, dark olive skin; "
                      "3 px / 28 % wrap with an exponential falloff; strong flicker.",
                sources=[A.doom_source(seq)])


@case
def titan_idle_linear():
    W = H = 448
    n = C.nframes("idle")
    frames = ["BOS2A1"] * n

    def warp(t):
        p = 2 * math.pi * t / 27.5
        return (math.radians(1.3) * math.sin(p / 2), 1.0 + 0.01 * math.sin(p + 1),
                1.0 + 0.022 * (0.5 - 0.5 * math.cos(p)))
    render = doom_render(frames, W, H, 4.3, (224, 404), warp=warp, soften=0.6)
    return Spec("titan_idle_linear", "idle", W, H, render,
                screen=dict(seed=3304, canvas=GREEN_CANVAS, key=(24, 200, 40), settle=3,
                            grad=(0.0, 0.12), vignette=0.15, grain=2.0, flicker=0.01),
                wrap=dict(width=5, strength=0.35, falloff="lin", source="blur", mode="mix"),
                linear=True, crf=19, shadow=shadow_at(W, H, 224, 405, 70, 10, 0.35),
                style="real art, shaded silver armour (Freedoom 'BOS2' knight), Lanczos x4.3",
                notes="NEW: light wrap and the edge composite computed in LINEAR light (then "
                      "encoded to sRGB): the green bleeds brighter into the silver armour and "
                      "the soft edge is greener than an sRGB mix of the same alpha. Idle "
                      "breathing (2.2 % stretch) and a 1.3-degree sway about the feet.",
                sources=[A.doom_source(frames[:1])])


# ---------------------------------------------------------------- 16 px sprites in parts
def part_masks(img, boxes):
    """Named boolean masks: each part = opaque pixels inside its listed (col, row) cells
    or boxes; 'rest' = what remains."""
    op = img[..., 3] > 0
    taken = np.zeros_like(op)
    out = {}
    for name, cells in boxes.items():
        m = np.zeros_like(op)
        for c0, r0, c1, r1 in cells:
            m[r0:r1 + 1, c0:c1 + 1] = True
        m &= op & ~taken
        taken |= m
        out[name] = m
    out["rest"] = op & ~taken
    return out


def render_parts(img, masks, order, mats, W, H, S=2, soften=0.5):
    """Nearest-neighbour pixel art: each part warped by its 2x3 (sprite->frame) matrix at
    S x oversampling, stacked in order, area-averaged down, softened a little."""
    acc = np.zeros((H * S, W * S, 4), np.float32)
    Sm = np.diag([S, S])
    seen_rest = False
    for name in order:
        part = img.copy()
        part[~masks[name]] = 0
        if name == "rest":
            seen_rest = True
        elif not seen_rest:  # behind the body: grow 1 px under it, so no seam shows
            grow = np.zeros_like(masks[name])
            for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                sh = np.roll(masks[name], (dy, dx), (0, 1))
                new = sh & masks["rest"] & ~masks[name] & ~grow
                part[new] = np.roll(img, (dy, dx), (0, 1))[new]
                grow |= new
        M = np.asarray(mats[name], np.float64)
        Ms = np.hstack([Sm @ M[:, :2], (S * M[:, 2])[:, None]])
        # pixel centres: sprite pixel (i+0.5) maps through M; cv2 maps pixel centres at i
        Ms[:, 2] += Ms[:, :2] @ np.array([0.5, 0.5]) - 0.5
        lay = cv2.warpAffine(A.prem(part), Ms, (W * S, H * S), flags=cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        acc = C.over(lay, acc)
    out = cv2.resize(acc, (W, H), interpolation=cv2.INTER_AREA)
    if soften:
        out = cv2.GaussianBlur(out, (0, 0), soften)
    return A.clean(out)


def about(M, pivot, ang, dy=0.0, sy=1.0):
    """M composed with a rotation (and vertical squash/offset) about a sprite-px pivot."""
    c, s = math.cos(ang), math.sin(ang)
    R = np.array([[c, -s], [s, c]]) @ np.diag([1.0, sy])
    p = np.asarray(pivot, float)
    T = np.hstack([R, (p - R @ p + (0, dy))[:, None]])
    M3 = np.vstack([M, [0, 0, 1]])
    return (M3 @ np.vstack([T, [0, 0, 1]]))[:2]


def keys(t, ks):
    """Smoothstep-eased value at time t through keyframes [(t, v), ...]."""
    if t <= ks[0][0]:
        return ks[0][1]
    for (t0, v0), (t1, v1) in zip(ks, ks[1:]):
        if t <= t1:
            return v0 + (v1 - v0) * float(C.smooth((t - t0) / (t1 - t0)))
    return ks[-1][1]


ZOMBIE = "crafter-1.8.3/crafter/assets/zombie.png"


@case
def zombie_walk_px():
    W = H = 448
    img = A.png("crafter", ZOMBIE)
    masks = part_masks(img, {"head": [(6, 0, 9, 3)], "armL": [(2, 6, 3, 11)],
                             "armR": [(12, 6, 13, 11)], "legL": [(5, 12, 6, 15)],
                             "legR": [(9, 12, 10, 15)]})
    k, per = 19.0, 14.0

    def render(t):
        s = math.sin(2 * math.pi * t / per) if t else 0.0
        c = math.cos(2 * math.pi * t / per) if t else 1.0
        sway = 0.035 * s
        bob = -0.35 * (1 - abs(c)) if t else 0.0
        x = 224 + 4 * s
        M0 = A.feet_affine((8, 15), (x, 400 + bob * k), k, sway)
        mats = {
            "legL": about(M0, (6, 12), 0.10 * s, dy=-0.9 * max(0, s) + 0.35 * (1 - abs(c)) * 0),
            "legR": about(M0, (10, 12), 0.10 * s, dy=-0.9 * max(0, -s)),
            "rest": M0,
            "armL": about(M0, (3.5, 6.3), 0.22 * s + 0.05, sy=1 - 0.06 * abs(s)),
            "armR": about(M0, (12.5, 6.3), 0.22 * s - 0.05, sy=1 - 0.06 * abs(s)),
            "head": about(M0, (8, 4), -0.09 * s + 0.04 * math.sin(t * 0.31)),
        }
        if t == 0:
            mats = {n: M0 for n in mats}
        out = render_parts(img, masks, ["legL", "legR", "rest", "armL", "armR", "head"],
                           mats, W, H, S=2, soften=0.55)
        return out, {"feet_x": x}
    return Spec("zombie_walk_px", "walk", W, H, render,
                screen=dict(seed=3305, canvas=GREEN_CANVAS, key=(34, 202, 52), settle=3,
                            grad=(0.0, 0.2), vignette=0.12, mottle=0.04, mottle_scale=90,
                            grain=1.6, flicker=0.012),
                wrap=dict(width=3, strength=0.30, falloff="lin", source="key",
                          key=(34, 202, 52), mode="mix"),
                crf=19, shadow=shadow_at(W, H, 224, 401, 58, 8, 0.32),
                style="real art, flat pixel art (crafter zombie: three greens), nearest x19",
                notes="Crafter's 16 px zombie (mint, mid and dark green skin: green on green) "
                      "cut into head, arms, legs and body, shambling with rotations about its "
                      "joints, drawn nearest-neighbour at 19x with 2x supersampling and a "
                      "0.55 px soften; 3 px / 30 % wrap of the pure key colour; uneven mottled "
                      "screen darker at the floor.",
                sources=[A.source("crafter", ZOMBIE)])


ORC = "craftax/craftax/assets/orc_soldier.png"


@case
def orc_attack_px():
    W = H = 448
    img = A.png("craftax", ORC)
    masks = part_masks(img, {"armS": [(0, 1, 2, 10), (3, 8, 4, 10)],
                             "armB": [(11, 8, 13, 10)], "head": [(5, 1, 10, 5)],
                             "legL": [(5, 13, 6, 15)], "legR": [(9, 13, 10, 15)]})
    k = 17.0
    swing = [(0, 0.0), (1, 0.0), (12, 0.62), (13, 0.62), (16.5, -2.2), (19, -2.05),
             (26, -2.1), (38, 0.0)]
    lean = [(0, 0.0), (1, 0.0), (12, 0.05), (13, 0.05), (16.5, -0.07), (26, -0.06), (38, 0.0)]

    def pose(tt):
        a, ln = keys(tt, swing), keys(tt, lean)
        M0 = A.feet_affine((8, 16), (236, 404), k, ln)
        return {"legL": about(M0, (6, 13), -0.5 * ln), "legR": about(M0, (10, 13), 0.3 * ln),
                "rest": M0, "armB": about(M0, (11, 8), -0.6 * ln),
                "head": about(M0, (8, 6), 0.5 * ln), "armS": about(M0, (5, 8), a)}

    order = ["legL", "legR", "rest", "armB", "head", "armS"]

    def render(t):
        fast = 12 <= t <= 18
        K = 10 if fast else 1
        subs = [t] if K == 1 else [t + (i / (K - 1) - 0.5) * 0.5 for i in range(K)]
        acc = sum(render_parts(img, masks, order, pose(s), W, H, S=2, soften=0.5) for s in subs)
        return acc / len(subs), {}
    return Spec("orc_attack_px", "attack", W, H, render,
                screen=dict(seed=3306, canvas=GREEN_CANVAS, key=(30, 210, 70), settle=3,
                            grad=(0.1, 0.1), vignette=0.2, mottle=0.02, grain=2.5,
                            flicker=0.02),
                wrap=dict(width=4, strength=0.25, falloff="smooth", source="blur", mode="mix"),
                crf=22, shadow=shadow_at(W, H, 236, 405, 60, 8, 0.3),
                style="real art, flat pixel art (craftax orc soldier, dark green skin), "
                      "nearest x17",
                notes="Craftax's 16 px orc soldier (dark green skin, grey sword) cut into parts: "
                      "wind-up, then a 160-degree slash in 3.5 frames drawn with 10 sub-frame "
                      "samples over a half-frame shutter (motion blur on the sword arm, in the "
                      "truth too), follow-through and recovery; 4 px / 25 % wrap; teal-ish key.",
                sources=[A.source("craftax", ORC)])
