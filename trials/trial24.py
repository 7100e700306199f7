"""Trial 24: seventeen held-out chroma-screen clips, each saved the way one of ComfyUI's real
save nodes writes it (codec, pixel format, YUV matrix, range and colour tags).

Each case is a procedurally drawn 2-D jointed character (capsule/polygon rig, rendered 3x
oversize with antialiased signed-distance coverage and reduced by area averaging, so edges
and the truth alpha come out of the same coverage), animated from its rest pose (frame 0 is
the portrait placed on the screen) and composited on a lit screen (gradient, vignette,
per-frame flicker, grain) with light wrap into the opaque rim (15-35 %, fading 2-6 px
inward), a soft contact shadow and motion blur (averaged sub-frame renders, also in the
truth).  Characters carry the colours a matrix mix-up hurts most: green shirts, teal skin,
a teal cloak, saturated red and blue, skin, white, near-black, 1-px hair strands, blade tips.
The angle of this trial is the writer:

  core_savevideo_h264_ranger_walk      832x480 24 fps 49 f  ComfyUI core SaveVideo: PyAV
                          libx264 yuv420p, default crf (23), swscale default BT.601 tv, UNtagged
  core_savevideo_h264_tealmage_skill   512x512 16 fps 41 f  same writer; teal skin, blue robe,
                          violet orb with a semi-transparent glow, white hair strands
  vhs_h264_8bit_redknight_attack      1280x720 24 fps 49 f  VHS video/h264-mp4: libx264 yuv420p
                          crf 19, scale out_color_matrix=bt709, tagged bt709/tv
  vhs_h264_10bit_rogue_run             832x480 24 fps 57 f  VHS h264-mp4 pix_fmt yuv420p10le
                          (High 10), bt709/tv; teal cloak on a bluish-green screen
  vhs_h265_10bit_monk_idle             480x832 24 fps 65 f  VHS video/h265-mp4: libx265 medium
                          crf 22 yuv420p10le, hvc1, bt709/tv, write_colr
  vhs_h265_10bit_brute_hurt            448x448 16 fps 33 f  same writer; green shirt, red pants
  vhs_webm_vp9_ranger_run              512x512 24 fps 49 f  VHS video/webm: libvpx-vp9 yuv420p
                          crf 20 -b:v 0, bt709/tv; yellowish-green screen
  vhs_webm_vp9_tealmage_walk_bluescreen 480x832 16 fps 41 f  same writer, BLUE screen, teal skin
  vhs_av1_webm_redknight_idle          832x480 24 fps 97 f  VHS video/av1-webm: libsvtav1
                          yuv420p10le crf 23, bt709/tv
  vhs_av1_webm_monk_attack             448x448 16 fps 41 f  same writer
  vhs_prores4444_rogue_skill_mov      1280x720 24 fps 41 f  VHS video/ProRes profile 4444:
                          prores_ks yuv444p10le, .mov, bt709 tags, range UNSPECIFIED (data tv;
                          FFmpeg's decoder reports tv and hands out yuv444p12le)
  vhs_proreshq_brute_walk_mov          832x480 16 fps 49 f  VHS ProRes profile hq: yuv422p10le
  core_savewebm_vp9_crf32_ranger_attack 512x512 16 fps 33 f  ComfyUI core SaveWEBM vp9:
                          libvpx-vp9 yuv420p crf 32, PyAV's implicit BT.601 tv conversion, untagged
  core_savewebm_av1_redknight_run      832x480 24 fps 49 f  core SaveWEBM av1: libsvtav1
                          yuv420p10le crf 32 preset 6, BT.601 tv, untagged
  vhs_ffv1_mkv_rgba64_tealmage_hurt    448x448 24 fps 41 f  VHS video/ffv1-mkv defaults: ffv1
                          level 3, rgba64le (lossless RGB, decodes as gbrap16le), 16-bit input
  h264_fullrange_bt601_monk_walk       480x832 24 fps 57 f  libx264 yuv420p FULL (JPEG/pc)
                          range BT.601, tagged smpte170m/pc
  mismatch_h264_bt709_untagged_unknowable_rogue_idle  512x512 24 fps 49 f  libx264 yuv420p
                          converted as BT.709 tv but left UNTAGGED: no reader can know the
                          matrix; a correct reader assumes BT.601 and its colours come out
                          shifted (greens brighter/purer), so this case is EXPECTED to be off.

Truth (`truth.npz`, key `rgba`) is the character's own straight RGBA per frame at the video
size (motion blur and the hurt flash in it); light wrap, the shadow, the screen, flicker,
grain and compression are not.  `portrait.png` is the rest pose at the video size.  All
files are named `clip.mp4` whatever their container (webm, mov, mkv): readers probe content.

    .venv/bin/python trials/trial24.py [SUBSTRING]

writes trials/_out/trial24/<case>/{clip.mp4, portrait.png, truth.npz, case.json}
(TRIAL_OUT overrides trials/_out/trial24; SUBSTRING renders only the cases whose names
contain it) and prints per case the stream as PyAV reads it back (codec, pix_fmt, tags),
which YUV matrix/range the luma plane really fits (mean |error| in code values under
each hypothesis), and a truth check: the truth composited over the clean screen against
the decoded frame, interior pixels >= 7 px inside the silhouette and screen pixels >= 10 px
away, and the same with the other matrix (what a reader that got the matrix wrong sees).
The 49-frame walk/run/idle clips at 24 fps are shorter than the recipes' lengths, so the
chain flags them `TRUNCATED` (no `expect_flags` is set).  About 3.5-4 minutes on 2 cores
(206-244 s measured).  Encoding is deterministic: swscale with one thread,
single-threaded libx264/libvpx, x265 with pools=none:frame-threads=1 (the only deviation
from the writers' settings), and containers muxed with fflags=+bitexact.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
from av.video.reformatter import VideoReformatter
from PIL import Image

os.environ.setdefault("SVT_LOG", "1")
S = 3  # oversize factor

# ----------------------------------------------------------------------------- characters

CHARS = {
    "ranger": dict(style="cel", skin=(0.93, 0.76, 0.62), hair=(0.24, 0.14, 0.07),
                   shirt=(0.17, 0.56, 0.22), sleeve=(0.17, 0.56, 0.22), pants=(0.42, 0.29, 0.16),
                   boots=(0.07, 0.06, 0.06), belt=(0.47, 0.31, 0.10), weapon="sword",
                   strands=7, strand_len=0.16, bulk=1.0, outline=(0.07, 0.06, 0.06)),
    "tealmage": dict(style="painted", skin=(0.24, 0.64, 0.66), hair=(0.97, 0.97, 0.98),
                     shirt=(0.09, 0.17, 0.86), sleeve=(0.09, 0.17, 0.86), pants=(0.06, 0.06, 0.08),
                     boots=(0.06, 0.06, 0.08), belt=(0.95, 0.82, 0.25), weapon="staff",
                     strands=9, strand_len=0.22, bulk=0.95, robe=True),
    "redknight": dict(style="textured", skin=(0.86, 0.65, 0.51), hair=(0.98, 0.98, 0.97),
                      shirt=(0.83, 0.07, 0.06), sleeve=(0.83, 0.07, 0.06), pants=(0.06, 0.06, 0.07),
                      boots=(0.05, 0.05, 0.05), belt=(0.10, 0.10, 0.12), weapon="sword",
                      strands=6, strand_len=0.13, bulk=1.1, helmet=(0.83, 0.07, 0.06)),
    "rogue": dict(style="painted", skin=(0.80, 0.57, 0.43), hair=(0.05, 0.05, 0.06),
                  shirt=(0.08, 0.08, 0.10), sleeve=(0.08, 0.08, 0.10), pants=(0.08, 0.08, 0.10),
                  boots=(0.05, 0.04, 0.04), belt=(0.86, 0.05, 0.10), weapon="dagger",
                  strands=8, strand_len=0.12, bulk=0.9, cloak=(0.07, 0.52, 0.49)),
    "monk": dict(style="cel", skin=(0.42, 0.27, 0.18), hair=(0.04, 0.04, 0.04),
                 shirt=(0.96, 0.96, 0.94), sleeve=(0.96, 0.96, 0.94), pants=(0.96, 0.96, 0.94),
                 boots=(0.42, 0.27, 0.18), belt=(0.10, 0.20, 0.86), weapon=None,
                 strands=5, strand_len=0.10, bulk=1.0, outline=(0.05, 0.04, 0.05)),
    "brute": dict(style="textured", skin=(0.88, 0.67, 0.53), hair=(0.30, 0.16, 0.06),
                  shirt=(0.20, 0.63, 0.20), sleeve=(0.88, 0.67, 0.53), pants=(0.82, 0.10, 0.08),
                  boots=(0.07, 0.06, 0.06), belt=(0.06, 0.06, 0.07), weapon="club",
                  strands=6, strand_len=0.09, bulk=1.4),
}

REST = dict(hx=0.0, hy=0.0, torso=0.04, head=0.0,
            sh_n=0.18, el_n=0.35, sh_f=-0.12, el_f=0.25,
            hp_n=0.10, kn_n=0.06, hp_f=-0.10, kn_f=0.06, wp=0.9, glow=0.0, flash=0.0,
            sway=0.0)


def smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def pose(action, t):
    """Pose parameters at time t (seconds); t <= 0 is the rest pose exactly."""
    p = dict(REST)
    if t <= 0:
        return p
    e = smooth(t / 0.3)  # ease in from the rest pose
    d = {}
    if action == "idle":
        ph = 2 * np.pi * t / 2.4
        d = dict(torso=0.035 * np.sin(ph), hy=0.006 * np.sin(ph), sh_n=0.05 * np.sin(ph + 0.5),
                 sh_f=-0.05 * np.sin(ph + 0.5), head=0.04 * np.sin(ph + 1.2),
                 sway=0.25 * np.sin(ph * 1.3))
    elif action == "walk":
        ph = 2 * np.pi * t / 1.0
        d = dict(hp_n=0.45 * np.sin(ph), hp_f=-0.45 * np.sin(ph),
                 kn_n=0.55 * max(0.0, np.sin(ph - 1.6)), kn_f=0.55 * max(0.0, np.sin(ph + 1.5)),
                 sh_n=-0.38 * np.sin(ph), sh_f=0.38 * np.sin(ph), torso=0.05,
                 hx=0.015 * np.sin(ph / 2), sway=0.5 * np.sin(ph))
    elif action == "run":
        ph = 2 * np.pi * t / 0.6
        d = dict(hp_n=0.85 * np.sin(ph), hp_f=-0.85 * np.sin(ph),
                 kn_n=0.3 + 1.1 * max(0.0, np.sin(ph - 1.7)), kn_f=0.3 + 1.1 * max(0.0, np.sin(ph + 1.4)),
                 sh_n=-0.8 * np.sin(ph), sh_f=0.8 * np.sin(ph), el_n=1.35, el_f=1.35, torso=0.22,
                 hy=-0.025 * abs(np.sin(ph)), sway=1.0 * np.sin(ph) - 0.6, wp=1.3)
    elif action == "attack":
        s = (t % 1.3) / 1.3
        if s < 0.45:
            a = smooth(s / 0.45)
            sh = 0.18 + a * (-2.6 - 0.18)
            lean = -0.08 * a
        elif s < 0.58:
            a = smooth((s - 0.45) / 0.13)
            sh = -2.6 + a * (1.25 + 2.6)
            lean = -0.08 + a * 0.36
        else:
            a = smooth((s - 0.58) / 0.42)
            sh = 1.25 + a * (0.18 - 1.25)
            lean = 0.28 - a * 0.28
        d = dict(sh_n=sh, el_n=0.25, torso=lean, hp_n=0.1 + 0.35 * max(0, lean) / 0.28,
                 kn_f=0.06 + 0.4 * max(0, lean) / 0.28, sh_f=-0.12 - lean, head=-0.3 * lean,
                 wp=0.35, sway=-2.0 * lean)
    elif action == "skill":
        up = smooth((t - 0.1) / 0.7)
        ph = 2 * np.pi * t / 0.9
        d = dict(sh_n=0.18 + up * (2.1 - 0.18), el_n=0.35 - 0.25 * up, torso=0.04 - 0.1 * up,
                 head=-0.12 * up, sh_f=-0.12 - 0.4 * up, el_f=0.25 + 0.6 * up,
                 glow=up * (0.75 + 0.25 * np.sin(ph)), wp=0.0 + 0.2 * up,
                 sway=0.4 * np.sin(ph) + 0.5 * up, hy=-0.01 * up)
    elif action == "hurt":
        s = t % 1.2
        r = s / 0.1 if s < 0.1 else np.exp(-(s - 0.1) / 0.3)
        d = dict(torso=0.04 - 0.45 * r, head=-0.45 * r, hx=-0.10 * r, sh_n=0.18 + 0.9 * r,
                 el_n=0.35 + 0.6 * r, sh_f=-0.12 + 0.7 * r, el_f=0.25 + 0.6 * r,
                 kn_n=0.06 + 0.35 * r, kn_f=0.06 + 0.3 * r, hp_n=0.1 + 0.3 * r,
                 flash=max(0.0, 1 - s / 0.25), sway=1.2 * r)
    for k, v in d.items():
        p[k] = REST[k] + e * (v - REST[k])
    return p


def down(a):  # unit vector at angle a from straight down, positive = forward (+x)
    return np.array([np.sin(a), np.cos(a)])


def build(ch, p, L, gx, gy):
    """Parts (in z order) of the character in video px.  L = figure height in px."""
    b = ch["bulk"]
    thigh, shin, torso_l, neck_l, head_r = .235 * L, .235 * L, .30 * L, .045 * L, .085 * L
    uarm, farm = .17 * L, .16 * L
    legs = {}
    for side in ("n", "f"):
        ta = p["hp_" + side]
        sa = ta - p["kn_" + side]
        legs[side] = (ta, sa)
    # hip height so the lowest foot touches the ground
    drop = max(thigh * np.cos(ta) + shin * np.cos(sa) for ta, sa in legs.values())
    hip = np.array([gx + p["hx"] * L, gy - drop - .03 * L + p["hy"] * L])
    tv = np.array([np.sin(p["torso"]), -np.cos(p["torso"])])
    neck = hip + torso_l * tv
    shoulder = hip + (torso_l - .035 * L) * tv
    hc = neck + (neck_l + head_r) * np.array([np.sin(p["torso"] + p["head"]),
                                              -np.cos(p["torso"] + p["head"])])
    parts = []
    style = ch["style"]

    def cap(p0, p1, r0, r1, col, shade=1.0, outline=True, **kw):
        parts.append(dict(kind="cap", p0=np.asarray(p0, float), p1=np.asarray(p1, float),
                          r0=float(r0), r1=float(r1), col=np.array(col, float) * shade,
                          outline=outline, **kw))

    def poly(pts, col, shade=1.0, outline=True):
        parts.append(dict(kind="poly", pts=np.asarray(pts, float),
                          col=np.array(col, float) * shade, outline=outline))

    def arm(side, shade):
        sa = p["sh_" + side]
        fa = sa + p["el_" + side]
        el = shoulder + uarm * down(sa)
        wr = el + farm * down(fa)
        cap(shoulder, el, .034 * L * b, .028 * L * b, ch["sleeve"], shade)
        cap(el, wr, .027 * L * b, .022 * L * b, ch["sleeve"] if ch.get("robe") else ch["skin"], shade)
        cap(wr, wr + .025 * L * down(fa), .026 * L * b, .024 * L * b, ch["skin"], shade)
        return wr, fa

    def leg(side, shade):
        ta, sa = legs[side]
        kn = hip + np.array([0.0, 0.0]) + thigh * down(ta)
        an = kn + shin * down(sa)
        cap(hip, kn, .047 * L * b, .038 * L * b, ch["pants"], shade)
        cap(kn, an, .036 * L * b, .029 * L * b, ch["boots"] if style != "cel" else ch["pants"], shade)
        cap(an, an + np.array([.075 * L, 0.0]), .03 * L * b, .024 * L, ch["boots"], shade)

    # cloak behind everything
    if "cloak" in ch:
        sw = p["sway"]
        back = -np.array([tv[1], -tv[0]])  # perpendicular, pointing backwards
        hem_y = gy - .10 * L
        pts = [neck + .02 * L * back, neck - .05 * L * back,
               np.array([hip[0] - .02 * L, hem_y + .02 * L]),
               np.array([hip[0] - .22 * L - .05 * L * sw, hem_y - .01 * L]),
               np.array([hip[0] - .16 * L - .03 * L * sw, hip[1] - .05 * L]),
               neck + .09 * L * back + np.array([0, .04 * L])]
        poly(pts, ch["cloak"], 0.82)
    arm("f", 0.78)
    leg("f", 0.8)
    if ch.get("robe"):
        sw = p["sway"]
        poly([hip + np.array([-.09 * L, -.04 * L]), hip + np.array([.09 * L, -.04 * L]),
              np.array([hip[0] + .13 * L + .02 * L * sw, hip[1] + .30 * L]),
              np.array([hip[0] - .15 * L + .02 * L * sw, hip[1] + .30 * L])], ch["shirt"])
    leg("n", 1.0)
    cap(hip, neck, .075 * L * b, .095 * L * b, ch["shirt"])
    bn = np.array([tv[1], -tv[0]])
    cap(hip + .02 * L * tv - .08 * L * b * bn, hip + .02 * L * tv + .08 * L * b * bn,
        .02 * L, .02 * L, ch["belt"])
    if "cloak" in ch:  # scarf: saturated red
        cap(neck - .05 * L * bn, neck + .05 * L * bn, .028 * L, .028 * L, ch["belt"])
    cap(neck - .01 * L * tv, hc, .03 * L, .03 * L, ch["skin"])
    # hair strands behind the head (thin, 1-2 px)
    hdir = p["torso"] + p["head"]
    rng = np.random.default_rng(len(ch["hair"]) + ch["strands"])
    for k in range(ch["strands"]):
        a0 = -2.2 + 1.3 * k / max(1, ch["strands"] - 1) + hdir
        root = hc + head_r * 0.92 * np.array([np.sin(a0), -np.cos(a0)])
        ang = -2.2 - 0.5 * k / max(1, ch["strands"] - 1) + hdir + 0.12 * rng.standard_normal()
        pt = root
        seg = ch["strand_len"] * L / 4
        for j in range(4):
            ang += -0.10 + 0.06 * p["sway"] + 0.05 * rng.standard_normal()
            nxt = pt + seg * np.array([np.sin(ang), -np.cos(ang)])
            w = max(0.45, (.009 * L) * (1 - j / 4.5))
            cap(pt, nxt, w, max(0.4, w * 0.8), ch["hair"], outline=False)
            pt = nxt
    cap(hc, hc, head_r, head_r, ch["skin"], cx=hc)
    # hair cap / helmet
    fwd = np.array([np.cos(hdir), np.sin(hdir)])
    upv = np.array([np.sin(hdir), -np.cos(hdir)])
    top = hc + head_r * (0.3 * upv - 0.38 * fwd)
    if "helmet" in ch:
        cap(top, top, head_r * 0.92, head_r * 0.92, ch["helmet"])
        cap(hc + head_r * down(np.pi + hdir - 0.2) * 0.9, hc + head_r * down(np.pi + hdir - 0.6) * 1.5,
            .012 * L, .005 * L, ch["hair"], outline=False)  # white plume
    else:
        cap(top - .2 * head_r * fwd, top, head_r * 0.8, head_r * 0.76, ch["hair"])
    eye = hc + head_r * 0.55 * fwd + .012 * L * down(hdir)
    cap(eye, eye, max(0.8, .011 * L), max(0.8, .011 * L), (0.04, 0.04, 0.05), outline=False)
    wr, fa = arm("n", 1.0)
    wv = down(fa + p["wp"] - np.pi / 2)  # weapon direction
    wk = ch["weapon"]
    if wk in ("sword", "dagger"):
        ln = .38 * L if wk == "sword" else .16 * L
        wd = .024 * L if wk == "sword" else .02 * L
        nv = np.array([-wv[1], wv[0]])
        hand = wr + .02 * L * down(fa)
        cap(hand - .05 * L * wv, hand + .03 * L * wv, .013 * L, .013 * L, (0.20, 0.12, 0.06))
        base = hand + .035 * L * wv
        cap(base - .045 * L * nv, base + .045 * L * nv, .011 * L, .011 * L, (0.75, 0.62, 0.2))
        tip = base + ln * wv
        poly([base - wd / 2 * nv, base + wd / 2 * nv, tip - .18 * ln * wv + wd * .35 * nv, tip,
              tip - .18 * ln * wv - wd * .35 * nv], (0.80, 0.83, 0.88))
    elif wk == "staff":
        hand = wr + .02 * L * down(fa)
        a = hand - .22 * L * wv
        bb = hand + .35 * L * wv
        cap(a, bb, .012 * L, .012 * L, (0.36, 0.22, 0.10))
        orb = bb + .03 * L * wv
        g = p["glow"]
        if g > 0.01:
            parts.append(dict(kind="glow", c=orb, sigma=.07 * L, amp=0.55 * g,
                              col=np.array((0.95, 0.75, 1.0))))
        cap(orb, orb, .035 * L, .035 * L, np.clip(np.array((0.62, 0.18, 0.92)) * (1 + 0.5 * g), 0, 1))
    if wk != "staff" and p["glow"] > 0.01:  # skill: a glow gathering in the hand
        hand = wr + .03 * L * down(fa)
        parts.append(dict(kind="glow", c=hand, sigma=.06 * L, amp=0.6 * p["glow"],
                          col=np.array((1.0, 0.88, 0.45))))
        cap(hand, hand, .022 * L * (0.5 + p["glow"]), .022 * L * (0.5 + p["glow"]),
            (1.0, 0.97, 0.85), outline=False)
    if wk == "club":
        hand = wr + .02 * L * down(fa)
        cap(hand - .04 * L * wv, hand + .30 * L * wv, .016 * L, .045 * L, (0.45, 0.20, 0.12))
    return parts, hip


# ----------------------------------------------------------------------------- rendering

def noise_tile(seed, n=128):
    r = np.random.default_rng(seed).standard_normal((n, n)).astype(np.float32)
    r = cv2.GaussianBlur(r, (0, 0), 1.5, borderType=cv2.BORDER_REFLECT)
    return r / r.std()


def part_bbox(pt, pad):
    if pt["kind"] == "cap":
        r = max(pt["r0"], pt["r1"]) + pad
        lo = np.minimum(pt["p0"], pt["p1"]) - r
        hi = np.maximum(pt["p0"], pt["p1"]) + r
    elif pt["kind"] == "poly":
        lo, hi = pt["pts"].min(0) - pad, pt["pts"].max(0) + pad
    else:
        lo, hi = pt["c"] - 3 * pt["sigma"], pt["c"] + 3 * pt["sigma"]
    return lo, hi


def render(parts, ch, W, H, L, tile, flash):
    """Straight-independent premultiplied RGB and alpha (H, W) of one instant, by 3x
    oversize coverage reduced with area averaging; returns (prem, alpha, (x0, y0))."""
    ow = 0.007 * L if ch["style"] == "cel" else 0.0
    los, his = zip(*(part_bbox(pt, ow + 2) for pt in parts))
    x0, y0 = np.floor(np.min(los, 0)).astype(int)
    x1, y1 = np.ceil(np.max(his, 0)).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(W, x1), min(H, y1)
    w, h = x1 - x0, y1 - y0
    prem = np.zeros((h * S, w * S, 3), np.float32)
    alpha = np.zeros((h * S, w * S), np.float32)
    style = ch["style"]

    def over(sl, m, col):
        a = alpha[sl]
        alpha[sl] = a + m * (1 - a)
        prem[sl] = prem[sl] * (1 - m[..., None]) + col * m[..., None]

    for pt in parts:
        lo, hi = part_bbox(pt, ow + 1.5)
        bx0 = int(np.clip(np.floor((lo[0] - x0) * S), 0, w * S))
        by0 = int(np.clip(np.floor((lo[1] - y0) * S), 0, h * S))
        bx1 = int(np.clip(np.ceil((hi[0] - x0) * S), 0, w * S))
        by1 = int(np.clip(np.ceil((hi[1] - y0) * S), 0, h * S))
        if bx1 <= bx0 or by1 <= by0:
            continue
        sl = (slice(by0, by1), slice(bx0, bx1))
        xs = x0 + (np.arange(bx0, bx1, dtype=np.float32) + 0.5) / S
        ys = y0 + (np.arange(by0, by1, dtype=np.float32) + 0.5) / S
        X, Y = np.meshgrid(xs, ys)
        col = pt.get("col")
        if pt["kind"] == "glow":
            d2 = (X - pt["c"][0]) ** 2 + (Y - pt["c"][1]) ** 2
            m = (pt["amp"] * np.exp(-d2 / pt["sigma"] ** 2)).astype(np.float32)
            over(sl, m, pt["col"].astype(np.float32))
            continue
        if pt["kind"] == "cap":
            p0, p1 = pt["p0"], pt["p1"]
            v = p1 - p0
            ll = float(np.hypot(*v))
            if ll < 1e-6:
                u = np.zeros_like(X)
                dx, dy = X - p0[0], Y - p0[1]
                vv = np.zeros_like(X)
            else:
                vn = v / ll
                u = np.clip(((X - p0[0]) * vn[0] + (Y - p0[1]) * vn[1]) / ll, 0, 1)
                dx, dy = X - (p0[0] + u * v[0]), Y - (p0[1] + u * v[1])
                vv = (X - p0[0]) * -vn[1] + (Y - p0[1]) * vn[0]
            dist = np.sqrt(dx * dx + dy * dy)
            r = pt["r0"] + (pt["r1"] - pt["r0"]) * u
            sdf = dist - r
            if pt["outline"] and ow > 0:
                mo = np.clip(0.5 - (sdf - ow) * S, 0, 1)
                over(sl, mo, np.array(ch["outline"], np.float32))
            m = np.clip(0.5 - sdf * S, 0, 1).astype(np.float32)
            nrm = np.clip(vv / np.maximum(r, 1e-3), -1, 1)
            lu, lv = u * ll, vv
        else:
            pts = (pt["pts"] - [x0 + bx0 / S, y0 + by0 / S]) * S
            ipts = np.round(pts * 16).astype(np.int32)
            if pt["outline"] and ow > 0:
                mo = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
                cv2.fillPoly(mo, [ipts], 255, cv2.LINE_AA, 4)
                cv2.polylines(mo, [ipts], True, 255, max(1, int(round(2 * ow * S))), cv2.LINE_AA, 4)
                over(sl, mo.astype(np.float32) / 255, np.array(ch["outline"], np.float32))
            mm = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
            cv2.fillPoly(mm, [ipts], 255, cv2.LINE_AA, 4)
            m = mm.astype(np.float32) / 255
            cy = pt["pts"][:, 1].mean()
            nrm = np.clip((Y - cy) / max(1.0, np.ptp(pt["pts"][:, 1]) / 2), -1, 1)
            lu, lv = X - pt["pts"][0, 0], Y - pt["pts"][0, 1]
        c = np.broadcast_to(col.astype(np.float32), X.shape + (3,))
        if style == "painted":
            sh = 0.80 + 0.32 * np.sqrt(np.clip(1 - nrm * nrm, 0, 1)) - 0.10 * nrm
            c = c * sh[..., None]
        elif style == "textured":
            ti = (np.asarray(lu) * 0.7).astype(np.int32) % tile.shape[0]
            tj = (np.asarray(lv) * 0.7 + 64).astype(np.int32) % tile.shape[1]
            tx = tile[ti, tj]
            sh = 0.88 + 0.16 * np.sqrt(np.clip(1 - nrm * nrm, 0, 1)) + 0.07 * tx
            c = c * sh[..., None]
        if flash > 0:
            c = c * (1 - 0.35 * flash) + np.array([1.0, 0.25, 0.2], np.float32) * 0.35 * flash
        over(sl, m, np.clip(c, 0, 1).astype(np.float32))
    pr = cv2.resize(prem, (w, h), interpolation=cv2.INTER_AREA)
    al = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_AREA)
    return pr, al, (x0, y0)


def character_frame(ch, action, t, dt, W, H, L, gx, gy, tile, sub):
    """Motion-blurred premultiplied RGB, alpha (full frame) and hip of time t."""
    prem = np.zeros((H, W, 3), np.float32)
    alpha = np.zeros((H, W), np.float32)
    hip = None
    for k in range(sub):
        ts = max(0.0, t - 0.5 * dt * k / max(1, sub - 1)) if sub > 1 else t
        p = pose(action, ts)
        parts, hp = build(ch, p, L, gx, gy)
        hip = hp if hip is None else hip
        pr, al, (x0, y0) = render(parts, ch, W, H, L, tile, p["flash"])
        h, w = al.shape
        prem[y0:y0 + h, x0:x0 + w] += pr / sub
        alpha[y0:y0 + h, x0:x0 + w] += al / sub
    return prem, alpha, hip


# ----------------------------------------------------------------------------- screen

def screen(W, H, scr, t_idx, rng):
    col = np.array(scr["col"], np.float32)
    x = np.linspace(-1, 1, W, dtype=np.float32)[None, :]
    y = np.linspace(-1, 1, H, dtype=np.float32)[:, None]
    illum = 1 + scr["gx"] * x + scr["gy"] * y - scr["vig"] * (x * x + y * y) / 2
    flick = 1 + scr["flicker"] * np.sin(0.9 * t_idx + 0.3) * 0.5 + scr["flicker"] * 0.5 * rng.standard_normal()
    bg = col[None, None, :] * (illum * flick)[..., None]
    return bg.astype(np.float32)


# ----------------------------------------------------------------------------- writers

BT = {"bt601": (0.299, 0.114), "bt709": (0.2126, 0.0722)}


def wr(container, codec, pix, options=None, conv=(None, None), interp="BILINEAR", tags=None,
       codec_tag=None, cont_opts=None, rgb_in="rgb24", note=""):
    return dict(container=container, codec=codec, pix=pix, options=options or {}, conv=conv,
                interp=interp, tags=tags, codec_tag=codec_tag, cont_opts=cont_opts or {},
                rgb_in=rgb_in, note=note)


BT709_TV = dict(colorspace=1, color_range=1, color_primaries=1, color_trc=1)
BT709_NORANGE = dict(colorspace=1, color_range=0, color_primaries=1, color_trc=1)
WRITERS = {
    # ComfyUI core SaveVideo (comfy_api VideoFromComponents.save_to): PyAV, add_stream('h264'),
    # frame.reformat(format='yuv420p') (swscale default BT.601 tv), no tags, default crf
    "core_savevideo": wr("mp4", "h264", "yuv420p", cont_opts={"movflags": "use_metadata_tags"}),
    # VHS video/h264-mp4: -c:v libx264 -pix_fmt yuv420p|yuv420p10le -crf 19
    # -vf scale=out_color_matrix=bt709 -color_range tv -colorspace bt709 ...
    "vhs_h264": wr("mp4", "libx264", "yuv420p", {"crf": "19"}, ("itu709", "MPEG"), "BICUBIC", BT709_TV),
    "vhs_h264_10": wr("mp4", "libx264", "yuv420p10le", {"crf": "19"}, ("itu709", "MPEG"), "BICUBIC", BT709_TV),
    # VHS video/h265-mp4: libx265 -vtag hvc1 yuv420p10le crf 22 preset medium, bt709
    "vhs_h265": wr("mp4", "libx265", "yuv420p10le",
                   {"crf": "22", "preset": "medium",
                    "x265-params": "log-level=quiet:pools=none:frame-threads=1"},
                   ("itu709", "MPEG"), "BICUBIC", BT709_TV, codec_tag="hvc1",
                   cont_opts={"movflags": "+faststart+write_colr"}),
    # VHS video/webm: libvpx-vp9 yuv420p crf 20 -b:v 0, bt709
    "vhs_webm": wr("webm", "libvpx-vp9", "yuv420p", {"crf": "20", "b": "0"}, ("itu709", "MPEG"),
                   "BICUBIC", BT709_TV),
    # VHS video/av1-webm: libsvtav1 yuv420p10le crf 23, bt709
    "vhs_av1": wr("webm", "libsvtav1", "yuv420p10le", {"crf": "23"}, ("itu709", "MPEG"), "BICUBIC",
                  BT709_TV),
    # VHS video/ProRes: prores_ks -profile:v 4444|hq, scale bt709 + setparams, tags w/o range
    "vhs_prores4444": wr("mov", "prores_ks", "yuv444p10le", {"profile": "4444"}, ("itu709", "MPEG"),
                         "BICUBIC", BT709_NORANGE),
    "vhs_proreshq": wr("mov", "prores_ks", "yuv422p10le", {"profile": "hq"}, ("itu709", "MPEG"),
                       "BICUBIC", BT709_NORANGE),
    # ComfyUI core SaveWEBM: stream.bit_rate=0, options crf (default 32), av1 preset 6;
    # rgb24 frames handed to encode() (PyAV's implicit conversion: BT.601 tv), no tags
    "core_webm_vp9": wr("webm", "libvpx-vp9", "yuv420p", {"crf": "32", "b": "0"}),
    "core_webm_av1": wr("webm", "libsvtav1", "yuv420p10le", {"crf": "32", "b": "0", "preset": "6"}),
    # VHS video/ffv1-mkv defaults: level 3 coder 1 context 1 g 1 slices 16 slicecrc 1 rgba64le,
    # 16-bit input
    "vhs_ffv1": wr("matroska", "ffv1", "rgba64le",
                   {"level": "3", "coder": "1", "context": "1", "g": "1", "slices": "16",
                    "slicecrc": "1"}, rgb_in="rgba64le"),
    # full-range BT.601 H.264, tagged smpte170m / pc
    "h264_full601": wr("mp4", "libx264", "yuv420p", {"crf": "19"}, ("itu601", "JPEG"), "BICUBIC",
                       dict(colorspace=6, color_range=2, color_primaries=6, color_trc=6)),
    # BT.709 tv conversion but untagged: unknowable to a reader
    "h264_709_untagged": wr("mp4", "libx264", "yuv420p", {"crf": "19"}, ("itu709", "MPEG"), "BICUBIC"),
}


def encode(path, frames, fps, spec):
    cont_opts = dict(spec["cont_opts"], fflags="+bitexact")
    out = av.open(str(path), "w", format=spec["container"], options=cont_opts)
    rate = Fraction(round(fps * 1000), 1000)
    st = out.add_stream(spec["codec"], rate=rate, options=dict(spec["options"]))
    H, W = frames[0].shape[:2]
    st.width, st.height, st.pix_fmt = W, H, spec["pix"]
    cc = st.codec_context
    cc.thread_count = 1
    if spec["codec_tag"]:
        cc.codec_tag = spec["codec_tag"]
    if spec["tags"]:
        for k, v in spec["tags"].items():
            setattr(cc, k, v)
    R = VideoReformatter()
    cs, rg = spec["conv"]
    for i, f in enumerate(frames):
        if spec["rgb_in"] == "rgba64le":
            a = np.concatenate([f.astype(np.uint16) * 257, np.full(f.shape[:2] + (1,), 65535, np.uint16)], 2)
            vf = av.VideoFrame.from_ndarray(a, format="rgba64le")
        else:
            vf = av.VideoFrame.from_ndarray(f, format="rgb24")
        kw = dict(format=spec["pix"], interpolation=spec["interp"], threads=1)
        if cs:
            kw.update(dst_colorspace=cs, dst_color_range=rg)
        yf = R.reformat(vf, **kw)
        yf.pts = i
        yf.time_base = 1 / rate
        for pk in st.encode(yf):
            out.mux(pk)
    for pk in st.encode(None):
        out.mux(pk)
    out.close()


def depth(fmt):
    for b in (16, 14, 12, 10, 9):
        if f"p{b}" in fmt or fmt.endswith(f"{b}le"):
            return b
    return 8


def planes(fr):
    fmt = fr.format.name
    bps = 2 if depth(fmt) > 8 else 1
    res = []
    for pl in fr.planes:
        a = np.frombuffer(bytes(pl), np.uint16 if bps == 2 else np.uint8)
        a = a.reshape(pl.height, pl.line_size // bps)[:, :pl.width]
        res.append(a.astype(np.float32))
    return res


def yuv_to_rgb(pl, fmt, matrix, full):
    Y, U, V = pl[:3]
    bits = depth(fmt)
    mx = (1 << bits) - 1
    sc = 1 << (bits - 8)
    if full:
        y, u, v = Y / mx, (U - 128 * sc) / mx, (V - 128 * sc) / mx
    else:
        y, u, v = (Y - 16 * sc) / (219 * sc), (U - 128 * sc) / (224 * sc), (V - 128 * sc) / (224 * sc)
    H, W = Y.shape
    u = cv2.resize(u, (W, H), interpolation=cv2.INTER_LINEAR)
    v = cv2.resize(v, (W, H), interpolation=cv2.INTER_LINEAR)
    kr, kb = BT[matrix]
    kg = 1 - kr - kb
    r = y + 2 * (1 - kr) * v
    b = y + 2 * (1 - kb) * u
    g = (y - kr * r - kb * b) / kg
    return np.clip(np.stack([r, g, b], -1) * 255, 0, 255)


def luma(rgb, matrix, full, bits):
    kr, kb = BT[matrix]
    y = (kr * rgb[..., 0] + (1 - kr - kb) * rgb[..., 1] + kb * rgb[..., 2]) / 255
    sc = 1 << (bits - 8)
    return y * ((1 << bits) - 1) if full else (16 + 219 * y) * sc


# ----------------------------------------------------------------------------- cases

SCREENS = {
    "green": dict(col=(0.16, 0.72, 0.25), gx=0.10, gy=-0.08, vig=0.22, flicker=0.02, grain=2.0),
    "yellowgreen": dict(col=(0.42, 0.78, 0.12), gx=-0.08, gy=0.06, vig=0.28, flicker=0.025, grain=2.5),
    "bluegreen": dict(col=(0.05, 0.66, 0.44), gx=0.06, gy=0.10, vig=0.18, flicker=0.015, grain=1.5),
    "deepgreen": dict(col=(0.10, 0.56, 0.17), gx=-0.12, gy=-0.05, vig=0.30, flicker=0.03, grain=3.0),
    "blue": dict(col=(0.10, 0.24, 0.82), gx=0.08, gy=-0.10, vig=0.25, flicker=0.02, grain=2.0),
}

# name: (writer, char, action, W, H, fps, frames, screen, figure height frac, wrap, falloff, seed)
CASES = {
    "core_savevideo_h264_ranger_walk": ("core_savevideo", "ranger", "walk", 832, 480, 24, 49, "green", .72, .25, 4, 1),
    "core_savevideo_h264_tealmage_skill": ("core_savevideo", "tealmage", "skill", 512, 512, 16, 41, "green", .66, .30, 3, 2),
    "vhs_h264_8bit_redknight_attack": ("vhs_h264", "redknight", "attack", 1280, 720, 24, 49, "deepgreen", .62, .20, 5, 3),
    "vhs_h264_10bit_rogue_run": ("vhs_h264_10", "rogue", "run", 832, 480, 24, 57, "bluegreen", .70, .28, 3, 4),
    "vhs_h265_10bit_monk_idle": ("vhs_h265", "monk", "idle", 480, 832, 24, 65, "green", .62, .18, 6, 5),
    "vhs_h265_10bit_brute_hurt": ("vhs_h265", "brute", "hurt", 448, 448, 16, 33, "yellowgreen", .70, .32, 2, 6),
    "vhs_webm_vp9_ranger_run": ("vhs_webm", "ranger", "run", 512, 512, 24, 49, "yellowgreen", .68, .22, 4, 7),
    "vhs_webm_vp9_tealmage_walk_bluescreen": ("vhs_webm", "tealmage", "walk", 480, 832, 16, 41, "blue", .60, .25, 3, 8),
    "vhs_av1_webm_redknight_idle": ("vhs_av1", "redknight", "idle", 832, 480, 24, 97, "green", .74, .15, 5, 9),
    "vhs_av1_webm_monk_attack": ("vhs_av1", "monk", "attack", 448, 448, 16, 41, "bluegreen", .62, .35, 2, 10),
    "vhs_prores4444_rogue_skill_mov": ("vhs_prores4444", "rogue", "skill", 1280, 720, 24, 41, "deepgreen", .66, .24, 4, 11),
    "vhs_proreshq_brute_walk_mov": ("vhs_proreshq", "brute", "walk", 832, 480, 16, 49, "green", .70, .30, 3, 12),
    "core_savewebm_vp9_crf32_ranger_attack": ("core_webm_vp9", "ranger", "attack", 512, 512, 16, 33, "green", .62, .20, 5, 13),
    "core_savewebm_av1_redknight_run": ("core_webm_av1", "redknight", "run", 832, 480, 24, 49, "yellowgreen", .70, .26, 3, 14),
    "vhs_ffv1_mkv_rgba64_tealmage_hurt": ("vhs_ffv1", "tealmage", "hurt", 448, 448, 24, 41, "bluegreen", .68, .22, 4, 15),
    "h264_fullrange_bt601_monk_walk": ("h264_full601", "monk", "walk", 480, 832, 24, 57, "deepgreen", .60, .28, 3, 16),
    "mismatch_h264_bt709_untagged_unknowable_rogue_idle": ("h264_709_untagged", "rogue", "idle", 512, 512, 24, 49, "green", .70, .25, 4, 17),
}
SUB = {"idle": 1, "walk": 3, "skill": 3, "run": 4, "attack": 5, "hurt": 4}


def make_case(name, out_root):
    t0 = time.time()
    wname, cname, action, W, H, fps, N, sname, frac, wrap, fall, seed = CASES[name]
    ch, scr, spec = CHARS[cname], SCREENS[sname], WRITERS[wname]
    rng = np.random.default_rng(1000 + seed)
    tile = noise_tile(seed)
    L = frac * H
    gy = H * 0.92
    gx = W * 0.46 - (0.05 * L if action in ("attack", "run") else 0)
    folder = out_root / name
    folder.mkdir(parents=True, exist_ok=True)
    truth = np.zeros((N, H, W, 4), np.uint8)
    frames = np.zeros((N, H, W, 3), np.uint8)
    clean = np.zeros((N, H, W, 3), np.uint8)  # truth over the shadowed screen, no wrap/grain
    far = np.zeros((N, H, W), bool)
    deep = np.zeros((N, H, W), bool)
    for i in range(N):
        t = i / fps
        prem, a, hip = character_frame(ch, action, t, 1 / fps, W, H, L, gx, gy, tile, SUB[action])
        straight = np.where(a[..., None] > 1e-6, prem / np.maximum(a, 1e-6)[..., None], 0)
        straight = np.clip(straight, 0, 1)
        au8 = np.round(a * 255).astype(np.uint8)
        truth[i, ..., :3] = np.round(straight * 255) * (au8[..., None] > 0)
        truth[i, ..., 3] = au8
        if i == 0:
            Image.fromarray(truth[0], "RGBA").save(folder / "portrait.png")
        # the truth as stored is what the clip is made of
        s = truth[i, ..., :3].astype(np.float32) / 255
        a = truth[i, ..., 3].astype(np.float32) / 255
        bg = screen(W, H, scr, i, rng)
        X = np.arange(W, dtype=np.float32)[None, :]
        Y = np.arange(H, dtype=np.float32)[:, None]
        sh = np.exp(-((X - hip[0] - 0.02 * L) / (0.24 * L)) ** 2 - ((Y - gy + 0.005 * L) / (0.035 * L)) ** 2)
        bg = bg * (1 - 0.38 * sh)[..., None]
        # light wrap into the opaque rim: blurred screen colour, fading over `fall` px inward
        inside = (a > 0.5).astype(np.uint8)
        dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
        wgt = wrap * np.clip(1 - (dist - 0.5) / fall, 0, 1) * (a > 0)
        wcol = cv2.GaussianBlur(bg, (0, 0), 6)
        c = s * (1 - wgt[..., None]) + wcol * wgt[..., None]
        comp = c * a[..., None] + bg * (1 - a[..., None])
        clean[i] = np.round(np.clip(s * a[..., None] + bg * (1 - a[..., None]), 0, 1) * 255)
        grain = rng.standard_normal((H, W, 1)).astype(np.float32) * scr["grain"] \
            + rng.standard_normal((H, W, 3)).astype(np.float32) * scr["grain"] * 0.5
        frames[i] = np.clip(np.round(comp * 255 + grain), 0, 255).astype(np.uint8)
        deep[i] = dist >= 7
        far[i] = cv2.distanceTransform((a <= 0).astype(np.uint8), cv2.DIST_L2, 5) >= 10
    np.savez_compressed(folder / "truth.npz", rgba=truth)
    (folder / "case.json").write_text(json.dumps({"action": action}) + "\n")
    t1 = time.time()
    encode(folder / "clip.mp4", frames, fps, spec)
    t2 = time.time()
    return name, verify(folder / "clip.mp4", frames, clean, deep, far, spec), (t1 - t0, t2 - t1)


def verify(path, frames, clean, deep, far, spec):
    c = av.open(str(path))
    st = c.streams.video[0]
    cc = st.codec_context
    lines = []
    tags = (f"{c.format.name} {cc.name} {cc.pix_fmt or ''} {st.width}x{st.height} "
            f"{float(st.average_rate or 0):.3g}fps tag={cc.codec_tag!r} "
            f"cs={int(cc.colorspace)} range={int(cc.color_range)} prim={int(cc.color_primaries)} "
            f"trc={int(cc.color_trc)}")
    fits = {}
    errs_i, errs_b, errs_a, n = [], [], [], 0
    matrix, full = None, None
    for i, fr in enumerate(c.decode(video=0)):
        n += 1
        fmt = fr.format.name
        pl = planes(fr)
        if fmt.startswith("gbr"):
            g, b, r = pl[:3]
            dec = np.stack([r, g, b], -1) / 257.0
        else:
            bits = depth(fmt)
            if i in (0, len(frames) // 2):
                for m in ("bt601", "bt709"):
                    for f in (False, True):
                        e = np.abs(pl[0] - luma(frames[i].astype(np.float32), m, f, bits)).mean()
                        fits.setdefault((m, "pc" if f else "tv"), []).append(e / (1 << (bits - 8)))
            if matrix is None:
                tagcs, tagr = int(cc.colorspace), int(cc.color_range)
                matrix = "bt709" if tagcs == 1 else "bt601"
                full = tagr == 2
            dec = yuv_to_rgb(pl, fmt, matrix, full)
            alt = yuv_to_rgb(pl, fmt, "bt601" if matrix == "bt709" else "bt709", full)
            da = np.abs(alt - clean[i].astype(np.float32))
            errs_a.append(da[deep[i]].mean(0) if deep[i].any() else np.zeros(3))
        if i < len(frames):
            d = np.abs(dec - clean[i].astype(np.float32))
            errs_i.append(d[deep[i]].mean(0) if deep[i].any() else np.zeros(3))
            errs_b.append(d[far[i]].mean(0))
    lines.append(tags + f" frames={n} decoded_as={fr.format.name}")
    if fits:
        fs = {k: float(np.mean(v)) for k, v in fits.items()}
        best = min(fs, key=fs.get)
        lines.append("luma fits (MAE, 8-bit code values): " + ", ".join(
            f"{m}/{r}={v:.2f}" for (m, r), v in sorted(fs.items())) + f"  -> holds {best[0]}/{best[1]}")
        lines.append(f"decoded per tags as {matrix}/{'pc' if full else 'tv'}")
    ei, eb = np.mean(errs_i, 0), np.mean(errs_b, 0)
    lines.append(f"truth-over-screen vs decoded, mean |err| RGB: interior {ei.round(2).tolist()}, "
                 f"screen {eb.round(2).tolist()}")
    if errs_a:
        lines.append(f"  (decoded with the other matrix instead: interior "
                     f"{np.mean(errs_a, 0).round(2).tolist()})")
    return lines


def _work(args):
    name, root = args
    return make_case(name, Path(root))


def main(argv):
    root = Path(os.environ.get("TRIAL_OUT", Path(__file__).parent / "_out" / "trial24"))
    sel = [n for n in CASES if not argv or any(a in n for a in argv)]
    t0 = time.time()
    order = sorted(sel, key=lambda n: -CASES[n][3] * CASES[n][4] * CASES[n][6])
    with mp.get_context("fork").Pool(min(2, len(order))) as pool:
        for name, lines, (tr, te) in pool.imap_unordered(_work, [(n, str(root)) for n in order]):
            print(f"{name}  (render {tr:.1f}s, encode {te:.1f}s)")
            for ln in lines:
                print("    " + ln)
            sys.stdout.flush()
    print(f"{len(sel)} cases in {time.time() - t0:.1f}s -> {root}")
    return 0


if __name__ == "__main__":
    main(sys.argv[1:])
