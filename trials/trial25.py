"""Trial 25: sixteen held-out chroma-screen clips of REAL published sprite art.

Every character here is game art that shipped in a package, not a drawing made for the
trial: Kenney's platformer sprites (CC0) from the `arcade` 3.3.3 wheel on PyPI, and the
16x16 pixel cat (MIT) from the `pyxel` 2.9.9 wheel.  The art is used as it is: where the
package has animation frames (frog / frog_move, slimeBlue / slimeBlue_move,
wormGreen / wormGreen_move, alienBlue walk1 / walk2 / front / jump / fall) they are the
animation; otherwise the single image is animated by affine warps of the whole sprite
and of parts cut from it by colour (wings, a tail, a fin): bob, squash and stretch, lean,
sway, hop, lunge, recoil.  The art is upscaled to the video the way a video model renders
a small input, by warping the premultiplied RGBA with Lanczos-4 or bicubic (2.2-3.4x;
the pixel cat by nearest neighbour at 8x), so edges come out soft; the truth is that same
warped premultiplied RGBA, unpremultiplied.

  case                          size      fps  frames  art (package file)        tests
  frog_hop_walk                 832x480   24   56  frog, frog_move               green frog on a
                                blue-green screen, hopping walk across, landing squash
  slime_green_idle              512x512   24   73  slimeGreen                    green slime on a
                                blue-green screen, breathing squash / stretch
  slime_blue_walk_clean         832x480   24   56  slimeBlue, slimeBlue_move     clean walk
                                (expect_flags [])
  alien_glass_walk              480x832   24   73  alienBlue_walk1, _walk2       semi-transparent
                                glass helmet (alpha ~0.2) over the screen, hotspot screen
  mouse_idle_clean              448x448   16   49  mouse                         clean idle with
                                breathing and a swinging thin pink tail (expect_flags [])
  bee_sting_attack              512x512   24   56  bee                           flapping wings cut
                                from the sprite (motion-blurred, partly transparent), lunge
  fly_buzz_idle                 448x448   24   39  fly                           dark body, two
                                flapping wings, yellow-green screen
  worm_green_crawl_walk        1280x720   24   73  wormGreen, wormGreen_move     green worm on a
                                green cyclorama, small in the frame, inching crawl
  worm_pink_hurt                832x480   16   33  wormPink                      blue screen (1/2):
                                hit, knock-back, squash and shake
  fish_green_dash_run           832x480   24   39  fishGreen                     blue screen (2/2):
                                green fish, fast tail fin (cut part) with motion blur
  qc_ladybug_turn_walk          832x480   24   73  ladybug                       turns round at
                                frame 24-28 and walks back for 45 frames (expect ["FACING"])
  qc_slime_purple_smear_run     512x512   24   56  slimePurple                   fast hops with a
                                28 % ghost of the previous frame (expect ["SMEAR"])
  pixel_cat_idle_nearest        448x448   16   41  pyxel cat_16x16               16x16 pixel art
                                upscaled 8x nearest neighbour: hard stair-step edges
  cactus_sway_skill             480x832   16   49  cactus (tiles)                green plant with
                                thin arms on a green screen, sway, charge-up growth, release
  alien_jump_skill             1280x720   24   56  alienBlue_front, _jump, _fall yellow-green
                                screen: crouch, jump (sprite frames change), heavy motion
                                blur, landing squash
  slime_block_slam_attack       832x480   16   49  slimeBlock                    green block
                                leaps and slams, motion blur, dark strong vignette

Art sources (recorded per case in case.json "source"):
  * arcade 3.3.3 (PyPI wheel arcade-3.3.3-py3-none-any.whl, sha256 25f4e0e5...1ebd2),
    files arcade/resources/assets/images/{enemies,alien,tiles}/*.png; Kenney (kenney.nl),
    licence CC0 1.0 per arcade/resources/assets/images/License.txt and readme.txt
    ("Everything in this package is licensed CC0").
  * pyxel 2.9.9 (PyPI), file pyxel/examples/assets/cat_16x16.png (181 bytes, embedded
    below as base64, sha256 ad06a8ac...663a0f); MIT License, Copyright (c) 2018-2026
    Takashi Kitao (pyxel/LICENSE).
The arcade wheel is looked for in /tmp/t25_art/ and trials/_art/ and otherwise fetched
with `pip download --no-deps arcade==3.3.3 -d /tmp/t25_art`.

The screens look like video-model output: chroma greens from yellow-green to blue-green
(two blue screens; Kenney's greens are hue ~83 deg, so the green characters stand on screens
of hue 122-157 deg and the yellow-green screens, hue 88-110, hold the fly, the mouse and
an alien), vertical gradient, vignette, some hotspots and cyclorama floors,
per-frame flicker of the screen light and per-frame grain; light wrap (the screen colour
mixed into the character's opaque pixels near its silhouette, strongest at the edge,
fading over 2-6 px, 15-35 %); a soft contact shadow under the feet (fainter when the
character is in the air).  Truth (`truth.npz`, key `rgba`) is the character's own
straight RGBA per frame at the video size: no screen, light wrap, shadow, grain, ghost or
compression.  Motion blur (average of sub-frame renders over a trailing shutter) is in
both.  `portrait.png` is the rest pose at the video size where frame 0 has it (frame 0
of the clip is the portrait composited on the screen).  Encoding is ComfyUI SaveVideo's
path: PyAV `VideoFrame.from_ndarray(rgb, format='rgb24').reformat(format='yuv420p')`
(BT.601 video range, untagged), libx264 CRF 18-24, one thread, so runs are byte-identical.

    .venv/bin/python trials/trial25.py [SUBSTRING]      # 16 cases, ~3 min (2 busy cores)

writes trials/_out/trial25/<case>/{clip.mp4, portrait.png, truth.npz, case.json}
(TRIAL_OUT overrides trials/_out/trial25; SUBSTRING renders only the cases whose names
contain it), then checks each clip: it decodes the video and compares it, inside the
character (away from the edge) and on the screen away from it, with the truth composited
over the clean screen; both errors are printed (grain + compression only).
"""
import base64
import glob
import io
import json
import math
import os
import subprocess
import sys
import time
import zipfile

import av
import cv2
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.environ.get("TRIAL_OUT", os.path.join(HERE, "_out", "trial25"))
ARCADE = "arcade==3.3.3"
ARCADE_DIR = "/tmp/t25_art"
IMG = "arcade/resources/assets/images/"
SRC_ARCADE = ("arcade 3.3.3 (PyPI wheel) %s, Kenney (kenney.nl), CC0 1.0 "
              "(arcade/resources/assets/images/License.txt)")
SRC_PYXEL = ("pyxel 2.9.9 (PyPI wheel) pyxel/examples/assets/cat_16x16.png, "
             "MIT License, Copyright (c) 2018-2026 Takashi Kitao (pyxel/LICENSE)")

# pyxel 2.9.9 pyxel/examples/assets/cat_16x16.png (MIT, Takashi Kitao), 181 bytes
CAT_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAMAAAAoLQ9TAAAAAXNSR0IArs4c6QAAAAxQTFRFo6OjAAAA04RB7cewDfXKmAAAAFdJ"
    "REFUGJVtTwEOACEIgvz/n0+Bq61laqGoCQAEttdrcXvjYkv70FgRmtapyICSOT8UMYJUY8ZgqoQKnB593PkKnLme9AysZstUMbNG"
    "fWU5f5n/gsxS0g/WBwGfWaer0wAAAABJRU5ErkJggg==")


# ----------------------------------------------------------------------------- art
_wheel = None


def arcade_wheel():
    global _wheel
    if _wheel is None:
        pats = [os.path.join(ARCADE_DIR, "arcade-3.3.3-*.whl"),
                os.path.join(HERE, "_art", "arcade-3.3.3-*.whl")]
        found = [f for p in pats for f in sorted(glob.glob(p))]
        if not found:
            os.makedirs(ARCADE_DIR, exist_ok=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", ARCADE,
                            "-d", ARCADE_DIR], check=True)
            found = sorted(glob.glob(pats[0]))
        _wheel = zipfile.ZipFile(found[0])
    return _wheel


class Art:
    """A sprite: premultiplied float RGBA padded with transparency, its foot point
    (bottom centre of the opaque box, in padded source pixel coordinates)."""
    PAD = 6

    def __init__(self, rgba, foot=None):
        p = self.PAD
        rgba = np.pad(rgba, ((p, p), (p, p), (0, 0)))
        a = rgba[..., 3:4].astype(np.float32) / 255
        self.straight = rgba
        self.pm = np.concatenate([rgba[..., :3].astype(np.float32) / 255 * a, a], -1)
        ys, xs = np.nonzero(rgba[..., 3] > 0)
        self.box = (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
        self.foot = foot or ((xs.min() + xs.max()) / 2.0, ys.max() + 0.5)
        self.w, self.h = xs.max() - xs.min() + 1, ys.max() - ys.min() + 1

    def part(self, mask):
        """(rest, part): two Arts with this geometry; mask (unpadded) selects the part."""
        m = np.pad(mask, self.PAD)[..., None]
        p = self.PAD
        rest = Art(np.where(m, 0, self.straight)[p:-p, p:-p], self.foot)
        part = Art(np.where(m, self.straight, 0)[p:-p, p:-p], self.foot)
        return rest, part

    def centroid(self):
        a = self.pm[..., 3]
        ys, xs = np.mgrid[:a.shape[0], :a.shape[1]]
        return float((xs * a).sum() / a.sum()), float((ys * a).sum() / a.sum())


_arts = {}


def art(name):
    if name not in _arts:
        if name == "cat":
            im = Image.open(io.BytesIO(CAT_PNG))
            idx = np.array(im)
            rgba = np.array(im.convert("RGBA"))
            rgba[idx == 0] = 0          # palette index 0 (grey) is the background
        else:
            rgba = np.array(Image.open(io.BytesIO(arcade_wheel().read(IMG + name))).convert("RGBA"))
            rgba[rgba[..., 3] == 0] = 0
        _arts[name] = Art(rgba)
    return _arts[name]


def raw(name):
    return np.array(Image.open(io.BytesIO(arcade_wheel().read(IMG + name))).convert("RGBA"))


# ----------------------------------------------------------------------------- geometry
def T(x, y):
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def R(deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)


def S(sx, sy):
    return np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1]], np.float64)


def place(a, x, y, s, flip=1.0, rot=0.0, sx=1.0, sy=1.0, shear=0.0):
    """src -> dst: the art's foot goes to (x, y); squash, shear (top leans +x for
    shear>0) and rotation about the foot; flip=-1 mirrors."""
    sh = np.array([[1, -shear, 0], [0, 1, 0], [0, 0, 1]], np.float64)
    return T(x, y) @ R(rot) @ sh @ S(s * sx * flip, s * sy) @ T(-a.foot[0], -a.foot[1])


def local(pivot, rot=0.0, along=1.0, axis_deg=0.0):
    """a part's own motion in source space: scale by `along` on the axis at axis_deg
    through pivot, then rotate by rot about the pivot."""
    px, py = pivot
    return (T(px, py) @ R(rot) @ R(axis_deg) @ S(along, 1) @ R(-axis_deg) @ T(-px, -py))


def wings(a, mask):
    """split a sprite into body and wing parts (connected components of mask); each
    wing's pivot is its pixel nearest the body centroid, its axis points away from it."""
    body, allw = a.part(mask)
    cx, cy = body.centroid()
    p = Art.PAD
    n, lab = cv2.connectedComponents(mask.astype(np.uint8))
    parts = []
    for k in range(1, n):
        m = lab == k
        if m.sum() < 30:
            continue
        _, w = a.part(m)
        ys, xs = np.nonzero(m)
        xs, ys = xs + p, ys + p
        d = (xs - cx) ** 2 + (ys - cy) ** 2
        i = int(np.argmin(d))
        pivot = (float(xs[i]), float(ys[i]))
        wx, wy = w.centroid()
        ang = math.degrees(math.atan2(wy - pivot[1], wx - pivot[0]))
        parts.append((w, pivot, ang))
    return body, parts


# ----------------------------------------------------------------------------- render
def warp_layers(layers, W, H, interp):
    acc = np.zeros((H, W, 4), np.float32)
    for a, M in layers:
        x0, y0, x1, y1 = a.box
        pts = M @ np.array([[x0 - 2, x1 + 2, x0 - 2, x1 + 2],
                            [y0 - 2, y0 - 2, y1 + 2, y1 + 2], [1, 1, 1, 1]], np.float64)
        bx0 = int(max(0, math.floor(pts[0].min()) - 4))
        by0 = int(max(0, math.floor(pts[1].min()) - 4))
        bx1 = int(min(W, math.ceil(pts[0].max()) + 4))
        by1 = int(min(H, math.ceil(pts[1].max()) + 4))
        if bx1 <= bx0 or by1 <= by0:
            continue
        Mr = (T(-bx0, -by0) @ M)[:2].astype(np.float64)
        w = cv2.warpAffine(a.pm, Mr, (bx1 - bx0, by1 - by0), flags=interp,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        w[..., 3] = np.clip(w[..., 3], 0, 1)
        w[..., :3] = np.clip(w[..., :3], 0, w[..., 3:4])
        roi = acc[by0:by1, bx0:bx1]
        roi[:] = w + roi * (1 - w[..., 3:4])
    return acc


def to_straight_u8(pm):
    a = np.clip(pm[..., 3], 0, 1)
    a8 = np.round(a * 255).astype(np.uint8)
    rgb = pm[..., :3] / np.maximum(a, 1e-6)[..., None]
    rgb8 = np.round(np.clip(rgb, 0, 1) * 255).astype(np.uint8)
    rgb8[a8 == 0] = 0
    return np.concatenate([rgb8, a8[..., None]], -1)


def make_screen(W, H, c):
    """the clean screen (float RGB) of a case's screen settings."""
    yy, xx = np.mgrid[:H, :W].astype(np.float32)
    y, x = yy / H, xx / W
    base = np.array(c["color"], np.float32)
    g = 1 + c.get("grad", 0.10) * (0.5 - y)
    tint = 1 + c.get("tilt", 0.04) * (x - 0.5)
    r2 = ((x - 0.5) ** 2 + ((y - 0.5) * H / W) ** 2) / 0.5
    vig = 1 - c.get("vig", 0.18) * r2
    img = base[None, None] * (g * tint * vig)[..., None]
    if "hot" in c:
        hx, hy, hs, hr = c["hot"]
        img = img + hs * np.exp(-((x - hx) ** 2 + ((y - hy) * H / W) ** 2) / (2 * hr ** 2))[..., None] \
            * (base[None, None] * 0.6 + 0.4)
    if "floor" in c:
        fy = c["floor"]
        t = 1 / (1 + np.exp(-(y - fy) / 0.02))
        img = img * (1 - 0.08 * t)[..., None]
    return np.clip(img, 0, 1).astype(np.float32)


def shadow_map(W, H, sh):
    if sh is None:
        return None
    x, y, hw, lift, dark = sh
    f = min(max(lift, 0) / 220.0, 1.0)
    rx, ry = hw * (1 + 0.35 * f), max(6.0, hw * 0.16) * (1 + 0.3 * f)
    d = dark * (1 - 0.7 * f)
    x0, x1 = int(max(0, x - 2 * rx)), int(min(W, x + 2 * rx))
    y0, y1 = int(max(0, y - 2.5 * ry)), int(min(H, y + 2.5 * ry))
    m = np.zeros((H, W), np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    m[y0:y1, x0:x1] = d * np.exp(-(((xx - x) / rx) ** 2 + ((yy - y) / ry) ** 2) * 1.6)
    return m


def light_wrap(A, strength, width):
    m = (A >= 0.5).astype(np.uint8)
    if not m.any():
        return np.zeros_like(A)
    dist = cv2.distanceTransform(m, cv2.DIST_L2, 5)
    w = strength * np.clip(1 - (np.maximum(dist, 0.5) - 0.5) / width, 0, 1) ** 1.3
    w[A <= 0] = 0
    # the thin edge pixels (alpha < .5) carry the edge strength too
    w[(A > 0) & (A < 0.5)] = strength
    return w.astype(np.float32)


# ----------------------------------------------------------------------------- encode
def encode(path, frames_iter, W, H, fps, crf):
    c = av.open(path, "w", format="mp4")
    s = c.add_stream("libx264", rate=fps)
    s.width, s.height, s.pix_fmt = W, H, "yuv420p"
    s.codec_context.thread_count = 1
    s.options = {"crf": str(crf), "threads": "1"}
    for rgb in frames_iter:
        f = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(format="yuv420p")
        for p in s.encode(f):
            c.mux(p)
    for p in s.encode():
        c.mux(p)
    c.close()


def decode(path):
    with av.open(path) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


# ----------------------------------------------------------------------------- cases
CASES = []


def case(name, **kw):
    kw["name"] = name
    CASES.append(kw)
    return kw


def ease(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def seg(t, t0, t1):
    return ease((t - t0) / float(t1 - t0))


# 1 frog: hop walk with the two frames of the sprite set
def anim_frog(t):
    s, gy, P, hop = 2.2, 432, 14, 52.0
    n, p = divmod(t, P)
    x = 290 + hop * n
    if p < 6:                                   # on the ground (rest pose at t=0)
        sq = 0.10 * math.exp(-p / 1.4) if t >= P else 0.0
        a = art("enemies/frog.png")
        M = place(a, x, gy, s, sx=1 + 0.6 * sq, sy=1 - sq)
        h = 0.0
    else:                                       # in the air
        q = (p - 6) / (P - 6)
        h = 70 * math.sin(math.pi * q)
        a = art("enemies/frog_move.png")
        M = place(a, x + hop * q, gy - h, s, rot=-6 * math.cos(math.pi * q))
        x = x + hop * q
    return [(a, M)], (x, gy, 0.45 * s * 104, h, 0.40)


case("frog_hop_walk", action="walk", size=(832, 480), fps=24, n=56, seed=2501, crf=20,
     screen=dict(color=(0.16, 0.74, 0.36), grad=0.12, vig=0.20, floor=0.86),
     wrap=(0.25, 3.5), interp=cv2.INTER_LANCZOS4, blur=(3, 0.5), anim=anim_frog,
     files=["enemies/frog.png", "enemies/frog_move.png"],
     what="green frog on a blue-green screen, hopping walk with the sprite's two frames")


# 2 green slime breathing
def anim_slime_green(t):
    a = art("enemies/slimeGreen.png")
    b = math.sin(2 * math.pi * t / 24)
    M = place(a, 256, 438, 3.0, sx=1 - 0.035 * b, sy=1 + 0.05 * b,
              rot=2.0 * math.sin(2 * math.pi * t / 36))
    return [(a, M)], (256, 438, 0.45 * 3.0 * 88, 0, 0.35)


case("slime_green_idle", action="idle", size=(512, 512), fps=24, n=73, seed=2502, crf=19,
     screen=dict(color=(0.10, 0.72, 0.48), grad=0.10, vig=0.22),
     wrap=(0.20, 3.0), interp=cv2.INTER_LANCZOS4, blur=(1, 0), anim=anim_slime_green,
     files=["enemies/slimeGreen.png"],
     what="green slime on a blue-green screen, breathing squash and stretch")


# 3 blue slime walk (clean)
def anim_slime_blue(t):
    mv = (int(t) // 6) % 2 == 1
    a = art("enemies/slimeBlue_move.png" if mv else "enemies/slimeBlue.png")
    x = 300 + 3.0 * t
    M = place(a, x, 440, 2.4, sy=1 + 0.02 * math.sin(2 * math.pi * t / 12))
    return [(a, M)], (x, 440, 0.45 * 2.4 * 90, 0, 0.38)


case("slime_blue_walk_clean", action="walk", size=(832, 480), fps=24, n=56, seed=2503,
     crf=20, screen=dict(color=(0.22, 0.73, 0.27), grad=0.10, vig=0.18, floor=0.88),
     wrap=(0.20, 3.0), interp=cv2.INTER_CUBIC, blur=(3, 0.4), anim=anim_slime_blue,
     files=["enemies/slimeBlue.png", "enemies/slimeBlue_move.png"], expect=[],
     what="blue slime sliding right with the sprite's two frames (clean walk)")


# 4 alien walk, glass helmet
def anim_alien_walk(t):
    w2 = (int(t) // 6) % 2 == 1
    a = art("alien/alienBlue_walk2.png" if w2 else "alien/alienBlue_walk1.png")
    x = 215 + 0.8 * t
    bob = 7 * abs(math.sin(math.pi * t / 6))
    M = place(a, x, 782 - bob, 2.4)
    return [(a, M)], (x, 782, 0.42 * 2.4 * 134, bob, 0.35)


case("alien_glass_walk", action="walk", size=(480, 832), fps=24, n=73, seed=2504, crf=21,
     screen=dict(color=(0.26, 0.77, 0.30), grad=0.14, vig=0.20, hot=(0.6, 0.3, 0.10, 0.25)),
     wrap=(0.28, 4.0), interp=cv2.INTER_LANCZOS4, blur=(3, 0.4), anim=anim_alien_walk,
     files=["alien/alienBlue_walk1.png", "alien/alienBlue_walk2.png"],
     what="blue alien walking in place, semi-transparent glass helmet over the screen")


# 5 mouse idle (clean): breathing, tail swing
_mouse = {}


def anim_mouse(t):
    if not _mouse:
        r = raw("enemies/mouse.png")
        xs = np.arange(128)[None, :]
        pink = (r[..., 3] > 0) & (r[..., 0] > 200) & (r[..., 1] < 200) & (xs > 95)
        body, tail = art("enemies/mouse.png").part(pink)
        cx, cy = body.centroid()
        ys, xs2 = np.nonzero(np.pad(pink, Art.PAD))
        i = int(np.argmin((xs2 - cx) ** 2 + (ys - cy) ** 2))
        _mouse.update(body=body, tail=tail, pivot=(float(xs2[i]), float(ys[i])))
    b = math.sin(2 * math.pi * t / 16)
    M = place(_mouse["body"], 224, 398, 2.8, sx=1 - 0.02 * b, sy=1 + 0.035 * b,
              rot=1.5 * math.sin(2 * math.pi * t / 32))
    L = local(_mouse["pivot"], rot=14 * math.sin(2 * math.pi * t / 24))
    return [(_mouse["body"], M), (_mouse["tail"], M @ L)], (224, 398, 0.45 * 2.8 * 100, 0, 0.35)


case("mouse_idle_clean", action="idle", size=(448, 448), fps=16, n=49, seed=2505, crf=19,
     screen=dict(color=(0.33, 0.79, 0.24), grad=0.10, vig=0.16),
     wrap=(0.18, 2.5), interp=cv2.INTER_CUBIC, blur=(1, 0), anim=anim_mouse,
     files=["enemies/mouse.png"], expect=[],
     what="grey mouse breathing, thin pink tail (cut part) swinging (clean idle)")


# 6/7 flying insects: wings cut by colour (light grey)
_ins = {}


def insect(name):
    if name not in _ins:
        r = raw(name).astype(int)
        mx, mn = r[..., :3].max(-1), r[..., :3].min(-1)
        m = (r[..., 3] > 0) & (mn > 175) & (mx - mn < 40)
        _ins[name] = wings(art(name), m)
    return _ins[name]


def anim_bee(t):
    body, ws = insect("enemies/bee.png")
    x, y, rot = 295.0, 372 + 8 * math.sin(2 * math.pi * t / 20), 0.0
    x += 20 * seg(t, 18, 26) - 95 * seg(t, 26, 30) + 75 * seg(t, 36, 50)
    rot = 10 * seg(t, 18, 26) - 25 * seg(t, 26, 30) + 15 * seg(t, 36, 50)
    M = place(body, x, y, 2.6, rot=rot)
    k = 0.6 + 0.4 * math.cos(2 * math.pi * t / 3)
    layers = [(body, M)]
    for w, pv, ang in ws:
        layers.append((w, M @ local(pv, rot=-8 * (1 - k), along=k, axis_deg=ang)))
    return layers, (x, 470, 0.4 * 2.6 * 100, 470 - y, 0.30)


case("bee_sting_attack", action="attack", size=(512, 512), fps=24, n=56, seed=2506, crf=20,
     screen=dict(color=(0.18, 0.70, 0.33), grad=0.10, vig=0.20),
     wrap=(0.22, 3.0), interp=cv2.INTER_LANCZOS4, blur=(8, 0.5), anim=anim_bee,
     files=["enemies/bee.png"],
     what="bee hovering with flapping (motion-blurred) wings, wind-up and fast lunge")


def anim_fly(t):
    body, ws = insect("enemies/fly.png")
    x = 224 + 10 * math.sin(2 * math.pi * t / 39)
    y = 330 + 6 * math.sin(2 * math.pi * t / 13)
    M = place(body, x, y, 2.4, rot=3 * math.sin(2 * math.pi * t / 13))
    k = 0.55 + 0.45 * math.cos(2 * math.pi * t / 4)
    layers = [(body, M)]
    for w, pv, ang in ws:
        layers.append((w, M @ local(pv, rot=-10 * (1 - k), along=k, axis_deg=ang)))
    return layers, (x, 420, 0.4 * 2.4 * 100, 420 - y, 0.28)


case("fly_buzz_idle", action="idle", size=(448, 448), fps=24, n=39, seed=2507, crf=21,
     screen=dict(color=(0.52, 0.82, 0.18), grad=0.12, vig=0.18),
     wrap=(0.30, 3.0), interp=cv2.INTER_LANCZOS4, blur=(3, 0.5), anim=anim_fly,
     files=["enemies/fly.png"],
     what="dark fly hovering, two flapping wings, on a yellow-green screen")


# 8 green worm crawl, 720p
def anim_worm_green(t):
    mv = (int(t) // 8) % 2 == 1
    a = art("enemies/wormGreen_move.png" if mv else "enemies/wormGreen.png")
    x = 780 - 2.5 * t
    M = place(a, x, 640, 3.2, sx=1 + 0.05 * math.sin(2 * math.pi * t / 16))
    return [(a, M)], (x, 640, 0.45 * 3.2 * 116, 0, 0.35)


case("worm_green_crawl_walk", action="walk", size=(1280, 720), fps=24, n=73, seed=2508,
     crf=22, screen=dict(color=(0.22, 0.76, 0.30), grad=0.12, vig=0.22, floor=0.80),
     wrap=(0.24, 4.0), interp=cv2.INTER_LANCZOS4, blur=(1, 0), anim=anim_worm_green,
     files=["enemies/wormGreen.png", "enemies/wormGreen_move.png"],
     what="green worm crawling left on a green cyclorama, small in a 720p frame")


# 9 pink worm hurt (blue screen)
def anim_worm_pink(t):
    a = art("enemies/wormPink.png")
    h = t - 5
    if h < 0:
        x, sx, sy, rot = 400.0, 1, 1, 0
    else:
        e = math.exp(-h / 3.0)
        x = 400 + 70 * (1 - math.exp(-h / 2.0)) - 25 * seg(t, 16, 32)
        x += 5 * math.exp(-h / 4) * math.sin(2.5 * h)
        sy = 1 - 0.25 * e * math.cos(0.9 * h)
        sx = 1 + 0.15 * e * math.cos(0.9 * h)
        rot = 9 * e
    M = place(a, x, 432, 3.0, sx=sx, sy=sy, rot=rot)
    return [(a, M)], (x, 432, 0.45 * 3.0 * 116, 0, 0.35)


case("worm_pink_hurt", action="hurt", size=(832, 480), fps=16, n=33, seed=2509, crf=20,
     screen=dict(color=(0.14, 0.30, 0.82), grad=0.10, vig=0.20),
     wrap=(0.22, 3.0), interp=cv2.INTER_LANCZOS4, blur=(3, 0.5), anim=anim_worm_pink,
     files=["enemies/wormPink.png"],
     what="pink worm on a blue screen: hit, knock-back, squash, shake")


# 10 green fish dash (blue screen), tail fin cut
_fish = {}


def anim_fish(t):
    if not _fish:
        r = raw("enemies/fishGreen.png")
        xs = np.arange(128)[None, :]
        m = (r[..., 3] > 0) & (xs >= 98)
        body, tail = art("enemies/fishGreen.png").part(m)
        cx, cy = body.centroid()
        ys, xs2 = np.nonzero(np.pad(m, Art.PAD))
        i = int(np.argmin((xs2 - cx) ** 2 + (ys - cy) ** 2))
        _fish.update(body=body, tail=tail, pivot=(float(xs2[i]), float(ys[i])))
    x = 470 - 4.0 * t
    y = 330 + 10 * math.sin(2 * math.pi * t / 13)
    M = place(_fish["body"], x, y, 2.6, rot=4 * math.sin(2 * math.pi * t / 6 + 1.0) - 4 * math.sin(1.0))
    L = local(_fish["pivot"], rot=24 * math.sin(2 * math.pi * t / 6))
    return [(_fish["tail"], M @ L), (_fish["body"], M)], (x, 450, 0.4 * 2.6 * 110, 450 - y, 0.25)


case("fish_green_dash_run", action="run", size=(832, 480), fps=24, n=39, seed=2510, crf=21,
     screen=dict(color=(0.10, 0.38, 0.76), grad=0.12, vig=0.18),
     wrap=(0.26, 3.5), interp=cv2.INTER_LANCZOS4, blur=(6, 0.5), anim=anim_fish,
     files=["enemies/fishGreen.png"],
     what="green fish on a blue screen dashing left, fast tail fin with motion blur")


# 11 ladybug turns round (FACING)
def anim_ladybug(t):
    a = art("enemies/ladybug.png")
    if t < 24:
        x, flip = 560 - 3.0 * t, 1.0
    elif t < 28:
        x, flip = 488.0, math.cos(math.pi * (t - 24) / 4)
        flip = math.copysign(max(abs(flip), 0.06), flip)
    else:
        x, flip = 488 + 3.0 * (t - 28), -1.0
    step = math.sin(2 * math.pi * t / 8)
    bob = 3 * abs(step)
    M = place(a, x, 440 - bob, 2.5, flip=flip, rot=2.5 * step)
    return [(a, M)], (x, 440, 0.45 * 2.5 * 106, bob, 0.38)


case("qc_ladybug_turn_walk", action="walk", size=(832, 480), fps=24, n=73, seed=2511,
     crf=20, screen=dict(color=(0.24, 0.74, 0.24), grad=0.10, vig=0.18, floor=0.87),
     wrap=(0.20, 3.0), interp=cv2.INTER_LANCZOS4, blur=(3, 0.4), anim=anim_ladybug,
     files=["enemies/ladybug.png"], expect=["FACING"],
     what="ladybug walks left, turns round over frames 24-28, walks right for 45 frames")


# 12 purple slime fast hops with a ghost (SMEAR)
def anim_slime_purple(t):
    a = art("enemies/slimePurple.png")
    P = 8
    p = t % P
    h = 75 * math.sin(math.pi * p / P)
    sq = 0.18 * math.exp(-p / 1.2) if t >= P else 0.0
    sy = 1 - sq + 0.08 * math.sin(math.pi * p / P)
    x = 256 + 40 * math.sin(2 * math.pi * t / 28)
    M = place(a, x, 450 - h, 2.8, sx=1 / math.sqrt(sy), sy=sy)
    return [(a, M)], (x, 450, 0.45 * 2.8 * 88, h, 0.38)


case("qc_slime_purple_smear_run", action="run", size=(512, 512), fps=24, n=56, seed=2512,
     crf=20, screen=dict(color=(0.15, 0.72, 0.40), grad=0.10, vig=0.20),
     wrap=(0.22, 3.0), interp=cv2.INTER_LANCZOS4, blur=(3, 0.5), ghost=0.28,
     anim=anim_slime_purple, files=["enemies/slimePurple.png"], expect=["SMEAR"],
     what="purple slime hopping fast, 28 % ghost of the previous frame blended in")


# 13 pixel cat, nearest neighbour 8x
def anim_cat(t):
    a = art("cat")
    p = int(t) % 10
    up = [0, 0, 0, 4, 8, 8, 4, 0, 0, 0][p] if t >= 3 else 0
    side = 8 * ((int(t) // 20) % 2)
    M = place(a, 224.5 + side, 392.5 - up, 8.0)
    return [(a, M)], (224 + side, 392, 0.45 * 8 * 16, up, 0.35)


case("pixel_cat_idle_nearest", action="idle", size=(448, 448), fps=16, n=41, seed=2513,
     crf=18, screen=dict(color=(0.30, 0.80, 0.32), grad=0.10, vig=0.16),
     wrap=(0.18, 2.0), interp=cv2.INTER_NEAREST, blur=(1, 0), anim=anim_cat,
     files=["cat"], src=SRC_PYXEL,
     what="16x16 pixel-art cat upscaled 8x nearest neighbour, small hops")


# 14 cactus skill
def anim_cactus(t):
    a = art("tiles/cactus.png")
    sway = 0.06 * math.sin(2 * math.pi * t / 24) * (1 - seg(t, 12, 18))
    grow = 0.10 * seg(t, 16, 30) - 0.14 * seg(t, 30, 33) + 0.04 * seg(t, 33, 44)
    shake = (3.0 if int(t) % 2 else -3.0) * seg(t, 18, 22) * (1 - seg(t, 29, 31))
    snap = -0.10 * seg(t, 30, 32) + 0.10 * seg(t, 32, 42)
    sc = 1 + grow
    M = place(a, 240 + shake, 770, 3.4, sx=sc, sy=sc, shear=sway + snap)
    return [(a, M)], (240, 770, 0.45 * 3.4 * 75, 0, 0.36)


case("cactus_sway_skill", action="skill", size=(480, 832), fps=16, n=49, seed=2514, crf=22,
     screen=dict(color=(0.24, 0.78, 0.26), grad=0.14, vig=0.18, floor=0.90),
     wrap=(0.30, 4.5), interp=cv2.INTER_LANCZOS4, blur=(3, 0.5), anim=anim_cactus,
     files=["tiles/cactus.png"],
     what="green cactus with thin arms on a green screen: sway, charge, release")


# 15 alien jump, 720p
def anim_alien_jump(t):
    s, gy, x = 2.2, 680, 640.0
    if t < 16 or t >= 38:
        a = art("alien/alienBlue_front.png")
        c = seg(t, 10, 14) * (1 - seg(t, 14, 16)) if t < 16 else math.exp(-(t - 38) / 2.5)
        amp = 0.12 if t < 16 else 0.14
        b = 0.01 * math.sin(2 * math.pi * t / 24) if t < 10 else 0.0
        M = place(a, x, gy, s, sx=1 + 0.5 * amp * c, sy=1 - amp * c + b)
        h = 0.0
    else:
        q = (t - 16) / 22.0
        h = 200 * math.sin(math.pi * q)
        a = art("alien/alienBlue_jump.png" if t < 27 else "alien/alienBlue_fall.png")
        M = place(a, x + 30 * math.sin(math.pi * q), gy - h, s)
    return [(a, M)], (x, gy, 0.42 * s * 131, h, 0.38)


case("alien_jump_skill", action="skill", size=(1280, 720), fps=24, n=56, seed=2515, crf=22,
     screen=dict(color=(0.45, 0.80, 0.20), grad=0.12, vig=0.22, floor=0.92,
                 hot=(0.35, 0.25, 0.08, 0.3)),
     wrap=(0.25, 5.0), interp=cv2.INTER_LANCZOS4, blur=(8, 0.6), anim=anim_alien_jump,
     files=["alien/alienBlue_front.png", "alien/alienBlue_jump.png", "alien/alienBlue_fall.png"],
     what="blue alien on a yellow-green screen crouches, jumps (jump/fall sprite frames), lands with a squash")


# 16 slime block slam
def anim_block(t):
    a = art("enemies/slimeBlock.png")
    x = 280 + 220 * seg(t, 14, 20) - 90 * seg(t, 30, 46)
    h = 120 * math.sin(math.pi * min(max((t - 14) / 6.0, 0), 1))
    w = seg(t, 8, 14) * (1 - seg(t, 14, 15))
    slam = math.exp(-(t - 20) / 2.0) * math.cos(0.8 * (t - 20)) if t >= 20 else 0.0
    b = 0.015 * math.sin(2 * math.pi * t / 16) if t < 8 else 0.0
    sy = 1 - 0.18 * w - 0.30 * slam + b
    sx = 1 + 0.10 * w + 0.25 * slam
    M = place(a, x, 440 - h, 2.3, sx=sx, sy=sy, rot=-10 * math.sin(math.pi * min(max((t - 14) / 6.0, 0), 1)))
    return [(a, M)], (x, 440, 0.45 * 2.3 * 92, h, 0.40)


case("slime_block_slam_attack", action="attack", size=(832, 480), fps=16, n=49, seed=2516,
     crf=21, screen=dict(color=(0.22, 0.70, 0.30), grad=0.16, vig=0.38),
     wrap=(0.24, 3.0), interp=cv2.INTER_LANCZOS4, blur=(8, 0.6), anim=anim_block,
     files=["enemies/slimeBlock.png"],
     what="green slime block winds up, leaps and slams, motion blur, dark vignette")


# ----------------------------------------------------------------------------- run
def render_case(c):
    W, H = c["size"]
    n, fps = c["n"], c["fps"]
    rng = np.random.default_rng(c["seed"])
    d = os.path.join(OUT, c["name"])
    os.makedirs(d, exist_ok=True)
    clean = make_screen(W, H, c["screen"])
    K, shutter = c["blur"]
    strength, width = c["wrap"]
    ghost = c.get("ghost", 0.0)
    grain = c["screen"].get("grain", 0.010)
    flick = np.cumsum(rng.normal(0, 0.006, n))
    flick = 1 + 0.5 * (flick - flick.mean()) + rng.normal(0, 0.004, n)
    truth = np.zeros((n, H, W, 4), np.uint8)
    probe = {}

    def frames():
        prev = None
        for i in range(n):
            acc = np.zeros((H, W, 4), np.float32)
            sh = None
            for k in range(K):
                tau = max(0.0, i - shutter * k / max(K - 1, 1)) if K > 1 else float(i)
                layers, shk = c["anim"](tau)
                acc += warp_layers(layers, W, H, c["interp"])
                if k == 0:
                    sh = shk
            tr = to_straight_u8(acc / K)
            truth[i] = tr
            A = tr[..., 3].astype(np.float32)[..., None] / 255
            F = tr[..., :3].astype(np.float32) / 255
            scr = clean * flick[i]
            bg = scr.copy()
            sm = shadow_map(W, H, sh)
            if sm is not None:
                bg *= (1 - sm)[..., None]
            w = light_wrap(A[..., 0], strength, width)[..., None]
            Fw = F * (1 - w) + scr * w
            out = Fw * A + bg * (1 - A)
            if ghost and prev is not None:
                cur = out
                out = (1 - ghost) * out + ghost * prev
                prev = cur
            else:
                prev = out
            g = rng.normal(0, grain, (H, W, 3)).astype(np.float32)
            g = cv2.GaussianBlur(g, (0, 0), 0.6) * 1.6
            rgb = np.clip(np.round((out + g) * 255), 0, 255).astype(np.uint8)
            if i % 8 == 0:
                # for the check: truth over the screen, shadow included, no wrap/grain/ghost
                probe[i] = (np.clip(F * A + bg * (1 - A), 0, 1) * 255, tr[..., 3])
            yield rgb

    encode(os.path.join(d, "clip.mp4"), frames(), W, H, fps, c["crf"])
    Image.fromarray(truth[0], "RGBA").save(os.path.join(d, "portrait.png"))
    np.savez_compressed(os.path.join(d, "truth.npz"), rgba=truth)
    src = c.get("src") or "; ".join(SRC_ARCADE % (IMG + f) for f in c["files"])
    meta = {"action": c["action"], "source": src, "what": c["what"],
            "size": [W, H], "fps": fps, "frames": n}
    if "expect" in c:
        meta["expect_flags"] = c["expect"]
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump(meta, f, indent=1)

    # check: decoded frames vs the truth composited over the screen, away from edges
    dec = decode(os.path.join(d, "clip.mp4"))
    assert len(dec) == n and dec[0].shape == (H, W, 3), (len(dec), dec[0].shape)
    e_in, e_bg = [], []
    ker = np.ones((3, 3), np.uint8)
    for i, (ref, a8) in probe.items():
        di = dec[i].astype(np.float32)
        inner = cv2.erode((a8 == 255).astype(np.uint8), ker, iterations=8).astype(bool)
        outer = ~cv2.dilate((a8 > 0).astype(np.uint8), ker, iterations=10).astype(bool)
        if ghost:
            # the ghost also sits on the interior; skip frames where it moved a lot
            pass
        if inner.any():
            e_in.append(np.abs(di[inner] - ref[inner]).mean())
        e_bg.append(np.abs(di[outer] - ref[outer]).mean())
    return (float(np.mean(e_in)) if e_in else float("nan"), float(np.mean(e_bg)),
            float((truth[..., 3] > 127).mean()))


def main():
    sel = sys.argv[1] if len(sys.argv) > 1 else ""
    todo = [c for c in CASES if sel in c["name"]]
    if not todo:
        sys.exit("no case matches %r" % sel)
    t0 = time.time()
    for c in todo:
        t1 = time.time()
        e_in, e_bg, cov = render_case(c)
        W, H = c["size"]
        print("%-28s %4dx%-4d %2d fps %3d f  |interior err| %.2f  |screen err| %.2f  "
              "coverage %.3f  %.1fs" % (c["name"], W, H, c["fps"], c["n"], e_in, e_bg, cov,
                                        time.time() - t1), flush=True)
    print("%d cases in %.1fs -> %s" % (len(todo), time.time() - t0, OUT))


if __name__ == "__main__":
    main()
