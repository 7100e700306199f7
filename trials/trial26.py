"""Trial 26: colour drift between the portrait and the clip (held-out generator).

An image-to-video model does not redraw the character in its portrait's exact light.
Over the clip the colours drift: a global white balance (warm or cool), exposure up or
down, more or less saturation, a gamma / contrast change, darks lifted toward grey, a
coloured key light or rim light from one side, a grade that changes gradually over the
clip, or one part recoloured while the rest keeps the portrait's light.  This generator
draws such clips on green (and a few blue) screens, with what real model output on a
chroma screen carries besides: light wrap (the local screen colour mixed into OPAQUE
pixels near the silhouette, strongest at the edge, fading over 2-6 px inward, 10-35 %),
antialiased soft edges, a screen with a gradient, vignette, blotches, per-frame flicker
and noise, soft contact shadows on some, motion blur on fast limbs (sub-frame
rendering, 180 degree shutter), and H.264 yuv420p at CRF 18-24.

The truth is the character as drawn in the CLIP's light: the drifted colours are true
(the model did draw them), the light wrap, the screen, its noise and the contact
shadow are not.  `portrait.png` is the rest pose in the ORIGINAL light (what the user
gave the model), on the clip's canvas at frame 0's placement.  Frame 0 is the rest pose,
already in the drifted light where the drift is global from the start; where the drift
is gradual (`ramp` in case.json), frame 0 is in the portrait's light.

Three cases are controls in exactly the portrait's light, and two carry the model's own
shading (highlights and shadows that follow the pose, not a global tint): a correct
chain must leave those colours alone.

Characters: Kenney "Platformer Characters" sprites (CC0, taken from the `arcade==3.3.3`
wheel on PyPI, downloaded with `pip download --no-deps` when absent), scaled up with
premultiplied bilinear filtering, and procedural rigs (knight, rogue, mage, brawler,
ranger) drawn at 2-3x supersampling from capsules and polygons with per-part colours
and pose-following shading, some with outlines, thin hair strands, a bow string, a
sword / dagger / staff.  The light wrap is measured from the opaque region's border:
`strength` on the edge's partly transparent pixels and the first opaque pixel, fading
linearly-ish (power 1.3) to zero `fade_px` further in; it mixes the blurred local
screen colour (times the frame's flicker) into the truth colour before compositing.

| case                       | size     | fps | frames | action | screen | what it tests                                               |
|----------------------------|----------|-----|--------|--------|--------|-------------------------------------------------------------|
| ctrl_kenney_advf_idle      | 512x512  | 24  | 49     | idle   | green  | control: portrait light exactly (Kenney female adventurer)  |
| ctrl_knight_idle           | 832x480  | 16  | 33     | idle   | green  | control: portrait light exactly (steel, red cape, sword)    |
| ctrl_ranger_walk           | 448x448  | 24  | 57     | walk   | green  | control: green-shirted ranger, bow string, ponytail strands |
| shade_rogue_attack         | 480x832  | 24  | 57     | attack | green  | model's own strong pose-following shading, teal rogue       |
| shade_kenney_adv_walk      | 512x512  | 16  | 41     | walk   | green  | moving shadow/highlight tied to the step, green shirt       |
| warm_kenney_vest_idle      | 512x512  | 24  | 65     | idle   | green  | warm white balance, white/pale vest                         |
| cool_mage_skill            | 480x832  | 24  | 73     | skill  | green  | cool white balance, white robe, long pale hair strands      |
| expo_up_zombie_hurt        | 448x448  | 24  | 49     | hurt   | green  | exposure up ~18 %, teal-skinned zombie                      |
| expo_down_robot_run        | 832x480  | 24  | 57     | run    | blue   | exposure down ~15 %, blue-grey robot on blue, motion blur   |
| satup_kenney_advf_walk     | 512x512  | 16  | 41     | walk   | green  | saturation up 1.35 with slight exposure up                  |
| desat_gamma_knight_attack  | 1280x720 | 24  | 49     | attack | green  | saturation down, gamma and contrast change, fast sword      |
| lift_brawler_hurt          | 512x512  | 24  | 49     | hurt   | blue   | black outlines and hair lifted toward grey, lower contrast  |
| key_ranger_walk            | 832x480  | 24  | 65     | walk   | green  | warm key light from the left, cool fill on the right        |
| rim_alien_idle             | 480x832  | 16  | 49     | idle   | blue   | orange rim light from the right (opaque, at the edge)       |
| rim_knight_run             | 1280x720 | 24  | 49     | run    | green  | pink rim light from the left + slight cool, motion blur     |
| ramp_sunset_ranger_run     | 1280x720 | 24  | 65     | run    | green  | grade drifting gradually warm/darker over the clip          |
| part_cape_knight_skill     | 512x512  | 16  | 49     | skill  | green  | only the cape recoloured (hue/value), rest in portrait light |
| part_shirt_kenney_girl_walk| 832x480  | 16  | 97     | walk   | green  | only the green shirt drifts (gradually, toward teal/darker) |

Grade order (case.json `drift` records the parameters): in linear light (sRGB EOTF)
per-channel `gains`, `exposure` (a linear gain; `exposure_srgb_mid` is its effect on an
sRGB mid grey), `key` (gains lerped left->right across the character), the model's own
`shade` map, `rim` (at the silhouette on one side, weight w = strength x rim map:
lin -> lin (1 - 0.6 w) + w color); then on sRGB codes
`gamma` (x**gamma), `contrast` (about 0.5), `sat` (about Rec.709 luma), `lift`
(x -> lift + (1 - lift) x); `part` (HSV hue/sat/value on one part's pixels, blended by
its coverage).  With `ramp` [f0, f1] every parameter goes from identity at frame f0 to
its value at f1 (smoothstep).

    python trials/trial26.py [NAME_SUBSTRING]      (TRIAL_OUT=DIR overrides the output root)
"""

import io
import json
import math
import os
import subprocess
import sys
import time
import zipfile
import zlib
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(os.environ.get("TRIAL_OUT", ROOT / "trials" / "_out" / "trial26"))
ART = Path(os.environ.get("T26_ART", "/tmp/t26_art"))
ARCADE = "arcade==3.3.3"
KENNEY_SRC = ("Kenney 'Platformer Characters' (CC0, kenney.nl), from the arcade==3.3.3 wheel on PyPI: "
              "arcade/resources/assets/images/")

cv2.setNumThreads(1)


# ----------------------------------------------------------------------------- colour

def srgb2lin(x):
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4).astype(np.float32)


def lin2srgb(x):
    x = np.clip(x, 0.0, None)
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055).astype(np.float32)


def smoothstep(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


LUMA = np.array([0.2126, 0.7152, 0.0722], np.float32)


def grade(rgb, alpha, spec, w, ctx):
    """rgb: straight sRGB float (h,w,3); spec: drift dict; w: 0..1 how much of it applies."""
    if not spec and "shade" not in ctx:
        return rgb
    lerp = lambda ident, v: ident + (np.asarray(v, np.float32) - ident) * w
    out = rgb
    lin_ops = any(k in spec for k in ("gains", "exposure", "key", "rim")) or "shade" in ctx
    if lin_ops:
        lin = srgb2lin(out)
        if "gains" in spec:
            lin = lin * lerp(1.0, spec["gains"])
        if "exposure" in spec:
            lin = lin * float(lerp(1.0, spec["exposure"]))
        if "key" in spec:
            xr = ctx["xr"][..., None]  # -1 left .. +1 right
            k = spec["key"]
            gl, gr = lerp(1.0, k["left"]), lerp(1.0, k["right"])
            lin = lin * (gl + (gr - gl) * (xr + 1) * 0.5)
        if "shade" in ctx:
            lin = lin * ctx["shade"][..., None]
        if "rim" in spec:
            r = spec["rim"]
            rw = ctx["rim"][..., None] * float(r["strength"]) * w
            lin = lin * (1 - 0.6 * rw) + rw * np.asarray(r["color"], np.float32)
        out = lin2srgb(lin)
    out = np.clip(out, 0, 1)
    if "gamma" in spec:
        out = np.power(out, float(lerp(1.0, spec["gamma"])))
    if "contrast" in spec:
        out = 0.5 + (out - 0.5) * float(lerp(1.0, spec["contrast"]))
    if "sat" in spec:
        y = (out * LUMA).sum(-1, keepdims=True)
        out = y + (out - y) * float(lerp(1.0, spec["sat"]))
    if "lift" in spec:
        lf = lerp(0.0, spec["lift"])
        out = lf + (1 - lf) * out
    out = np.clip(out, 0, 1).astype(np.float32)
    if "part" in spec:
        p = spec["part"]
        cov = ctx["part"][..., None]
        hsv = cv2.cvtColor(out, cv2.COLOR_RGB2HSV)  # float: H in degrees
        hsv[..., 0] = (hsv[..., 0] + float(lerp(0.0, p.get("hue", 0.0)))) % 360.0
        hsv[..., 1] = np.clip(hsv[..., 1] * float(lerp(1.0, p.get("sat", 1.0))), 0, 1)
        hsv[..., 2] = np.clip(hsv[..., 2] * float(lerp(1.0, p.get("val", 1.0))), 0, 1)
        po = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
        out = out * (1 - cov) + po * cov
    return np.clip(out, 0, 1).astype(np.float32)


def rim_weight(alpha, direction, width):
    """Weight of a rim light falling from `direction` (x right, y down): strongest on the
    opaque pixels at the silhouette facing the light, fading ~`width` px inward."""
    inside = (alpha >= 0.5).astype(np.uint8)
    d = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    ab = cv2.GaussianBlur(alpha, (0, 0), max(1.5, width * 0.7))
    gx = cv2.Sobel(ab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(ab, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy) + 1e-6
    dx, dy = direction
    n = math.hypot(dx, dy)
    facing = np.clip(-(gx * dx + gy * dy) / (n * mag), 0, 1) ** 0.8
    facing *= np.clip(mag / 0.02, 0, 1)
    return (facing * np.exp(-np.maximum(d - 0.5, 0) / width)).astype(np.float32)


# ----------------------------------------------------------------------------- screen

class Screen:
    def __init__(self, W, H, color, rng, grad=(0.08, -0.06), vignette=0.22, blotch=0.025,
                 flicker=0.015, noise=2.2):
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        xx = xx / (W - 1) * 2 - 1
        yy = yy / (H - 1) * 2 - 1
        g = 1 + grad[0] * xx + grad[1] * yy
        v = 1 - vignette * (xx * xx + yy * yy) / 2
        b = rng.normal(0, 1, (6, 8)).astype(np.float32)
        b = cv2.resize(b, (W, H), interpolation=cv2.INTER_CUBIC)
        b = b / (np.abs(b).max() + 1e-6)
        base = np.asarray(color, np.float32)
        self.static = np.clip(base * (g * v * (1 + blotch * b))[..., None], 0, 1).astype(np.float32)
        self.blur = cv2.GaussianBlur(self.static, (0, 0), 6)
        self.rng = rng
        self.noise = noise / 255.0
        self.flick_amp = flicker
        self.ph = rng.uniform(0, 2 * np.pi, 2)
        self.W, self.H = W, H
        self.desc = dict(color=[round(float(c), 3) for c in color], gradient=list(grad), vignette=vignette,
                         blotch=blotch, flicker=flicker, noise_sigma_255=noise)

    def frame(self, i):
        f = 1 + self.flick_amp * (0.6 * math.sin(2 * math.pi * i / 23.0 + self.ph[0])
                                  + 0.4 * math.sin(2 * math.pi * i / 5.3 + self.ph[1])
                                  + 0.5 * float(self.rng.normal()))
        nz = self.rng.standard_normal(self.static.shape, dtype=np.float32)
        nz *= self.noise
        nz += self.static * f
        fr = nz
        return fr, f


def contact_shadow(frame, cx, gy, rx, ry, k):
    H, W = frame.shape[:2]
    x0, x1 = max(int(cx - 3 * rx), 0), min(int(cx + 3 * rx) + 1, W)
    y0, y1 = max(int(gy - 3 * ry), 0), min(int(gy + 3 * ry) + 1, H)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    m = np.exp(-(((xx - cx) / rx) ** 2 + ((yy - gy) / ry) ** 2) * 1.5)
    frame[y0:y1, x0:x1] *= (1 - k * m)[..., None]


def light_wrap(fg, alpha, bg, strength, fall):
    """Screen colour mixed into the character near its silhouette (not part of the truth):
    `strength` on the edge's partly transparent pixels and on the first opaque pixel,
    fading to nothing `fall` px further in."""
    inside = (alpha >= 0.99).astype(np.uint8)
    d = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    w = strength * np.clip(1 - np.maximum(d - 1, 0) / fall, 0, 1) ** 1.3
    w = w[..., None].astype(np.float32)
    return fg * (1 - w) + bg * w


# ----------------------------------------------------------------------------- encode

def rgb_to_yuv420p(rgb8):
    f = rgb8.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    H, W = R.shape
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255
    Cb = Cb.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    Cr = Cr.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    out = np.concatenate([np.rint(Y).ravel(), np.rint(Cb).ravel(), np.rint(Cr).ravel()])
    return np.clip(out, 0, 255).astype(np.uint8).reshape(H * 3 // 2, W)


class Encoder:
    def __init__(self, path, W, H, fps, crf):
        self.c = av.open(str(path), "w", format="mp4")
        s = self.c.add_stream("libx264", rate=fps)
        s.width, s.height = W, H
        s.pix_fmt = "yuv420p"
        s.time_base = Fraction(1, fps)
        s.codec_context.thread_count = 1
        s.options = {"crf": str(crf), "preset": "medium", "threads": "1", "x264-params": "mbtree=0"}
        self.s = s
        self.i = 0

    def add(self, rgb8):
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420p(rgb8), format="yuv420p")
        fr.pts = self.i
        self.i += 1
        for p in self.s.encode(fr):
            self.c.mux(p)

    def close(self):
        for p in self.s.encode():
            self.c.mux(p)
        self.c.close()


# ----------------------------------------------------------------------------- Kenney

def _wheel():
    whl = sorted(ART.glob("arcade-3.3.3-*.whl"))
    if not whl:
        ART.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", ARCADE, "-d", str(ART)],
                       check=True, stdout=subprocess.DEVNULL)
        whl = sorted(ART.glob("arcade-3.3.3-*.whl"))
    return zipfile.ZipFile(whl[0])


_ZIP = None


def kenney_png(rel):
    global _ZIP
    if _ZIP is None:
        _ZIP = _wheel()
    im = Image.open(io.BytesIO(_ZIP.read("arcade/resources/assets/images/" + rel))).convert("RGBA")
    return np.asarray(im).astype(np.float32) / 255.0


def fill_glass(rgba, glass):
    """Make a sprite's translucent interior (the alien's helmet glass) opaque."""
    a = rgba[..., 3]
    m = (a > 0.02).astype(np.uint8)
    h, w = m.shape
    ff = np.pad(m, 1).copy()
    mask = np.zeros((h + 4, w + 4), np.uint8)
    cv2.floodFill(ff, mask, (0, 0), 2)
    filled = (ff[1:-1, 1:-1] != 2).astype(np.float32)
    # keep the outer antialiased rim: interior = filled and not on the outer border
    interior = cv2.erode(filled, np.ones((3, 3), np.uint8)) > 0
    out = rgba.copy()
    ai = a[interior][:, None]
    out[..., :3][interior] = rgba[..., :3][interior] * ai + np.asarray(glass, np.float32) * (1 - ai)
    out[..., 3][interior] = 1.0
    return out


class KenneyChar:
    """A Kenney sprite animated by frame choice plus an affine (bob, squash, lean, travel)."""

    DIRS = {"maleAdventurer": "animated_characters/male_adventurer/",
            "femaleAdventurer": "animated_characters/female_adventurer/",
            "malePerson": "animated_characters/male_person/",
            "femalePerson": "animated_characters/female_person/",
            "zombie": "animated_characters/zombie/",
            "robot": "animated_characters/robot/"}

    def __init__(self, who, part_hue=None, glass=None):
        self.who = who
        self.part_hue = part_hue
        self.cache = {}
        if who == "alienBlue":
            names = {"idle": "alien/alienBlue_front.png"}
        else:
            d = self.DIRS[who]
            names = {k: f"{d}{who}_{k}.png" for k in
                     ["idle", "fall", "jump"] + [f"walk{i}" for i in range(8)]}
        self.names = names
        self.glass = glass
        idle = self.sprite("idle")
        a = idle[..., 3]
        ys, xs = np.nonzero(a > 0.1)
        self.anchor = (0.5 * (xs.min() + xs.max() + 1), float(ys.max() + 1))
        self.src_h = float(ys.max() + 1 - ys.min())
        self.files = sorted(set(names.values()))

    def sprite(self, key):
        if key not in self.cache:
            s = kenney_png(self.names[key])
            if self.glass is not None:
                s = fill_glass(s, self.glass)
            s = np.pad(s, ((4, 4), (4, 4), (0, 0)))
            prem = s.copy()
            prem[..., :3] *= s[..., 3:4]
            extra = np.zeros(s.shape[:2] + (2,), np.float32)
            if self.part_hue is not None:
                hsv = cv2.cvtColor(np.ascontiguousarray(s[..., :3]), cv2.COLOR_RGB2HSV)
                lo, hi = self.part_hue
                m = (hsv[..., 0] >= lo) & (hsv[..., 0] <= hi) & (hsv[..., 1] > 0.35) & (hsv[..., 2] > 0.3)
                extra[..., 1] = m.astype(np.float32) * s[..., 3]
            self.cache[key] = (prem, extra, s)
        return self.cache[key][2][4:-4, 4:-4]

    def matrix(self, st):
        """st: dict(scale, sx, sy, rot, x, y) -> 2x3 from padded-sprite px to frame px."""
        ax, ay = self.anchor[0] + 4, self.anchor[1] + 4
        c, s = math.cos(math.radians(st["rot"])), math.sin(math.radians(st["rot"]))
        sx, sy = st["scale"] * st.get("sx", 1.0), st["scale"] * st.get("sy", 1.0)
        A = np.array([[c * sx, -s * sy], [s * sx, c * sy]], np.float64)
        t = np.array([st["x"], st["y"]]) - A @ np.array([ax, ay])
        return np.hstack([A, t[:, None]])

    def render(self, states, W, H, shade_fn=None):
        """Average of the warped sprite over sub-frame states (motion blur)."""
        boxes = []
        for st in states:
            self.sprite(st["key"])
            prem = self.cache[st["key"]][0]
            h, w = prem.shape[:2]
            M = self.matrix(st)
            cs = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ M.T
            boxes.append(cs)
        cs = np.vstack(boxes)
        x0, y0 = max(int(cs[:, 0].min()) - 3, 0), max(int(cs[:, 1].min()) - 3, 0)
        x1, y1 = min(int(cs[:, 0].max()) + 4, W), min(int(cs[:, 1].max()) + 4, H)
        acc = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
        ex = np.zeros((y1 - y0, x1 - x0, 2), np.float32)
        for st in states:
            prem, extra, _ = self.cache[st["key"]]
            M = self.matrix(st)
            M[:, 2] -= (x0, y0)
            w = cv2.warpAffine(prem, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            acc += w
            if self.part_hue is not None:  # part coverage, premultiplied by alpha
                ex[..., 1] += cv2.warpAffine(extra[..., 1], M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            if shade_fn is not None:  # the model's shading: a straight field, weighted by alpha
                sh = cv2.warpAffine(shade_fn(st, prem.shape[:2]), M, (x1 - x0, y1 - y0),
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                ex[..., 0] += sh * w[..., 3]
        n = len(states)
        acc /= n
        ex /= n
        a = np.clip(acc[..., 3], 0, 1)
        a[a < 1.5 / 255] = 0
        prem = np.minimum(np.clip(acc[..., :3], 0, None), a[..., None])
        safe = np.maximum(a, 1e-6)
        info = {"part": np.clip(ex[..., 1] / safe, 0, 1) * (a > 0)}
        if shade_fn is not None:
            sh = ex[..., 0] / np.maximum(acc[..., 3], 1e-6)
            info["shade"] = np.where(a > 0, np.clip(sh, 0.3, 2.0), 1.0).astype(np.float32)
        return (x0, y0, x1, y1), prem, a, info


def kenney_state(action, tau, T, c):
    """Pose of a Kenney sprite at time tau (s). c: placement dict (x, y, scale, ...)."""
    A = smoothstep(tau / 0.3)
    st = dict(key="idle", scale=c["scale"], sx=1.0, sy=1.0, rot=0.0, x=c["x"], y=c["y"])
    if action == "idle":
        ph = 2 * math.pi * tau / 2.4
        st["sy"] = 1 + 0.014 * A * math.sin(ph)
        st["sx"] = 1 - 0.006 * A * math.sin(ph)
        st["rot"] = 1.2 * A * math.sin(ph * 0.5)
    elif action in ("walk", "run"):
        per = 0.9 if action == "walk" else 0.5
        if tau > 0.08:
            ph = ((tau - 0.08) / per) % 1.0
            st["key"] = f"walk{int(ph * 8) % 8}"
        ph = 2 * math.pi * tau / per
        st["y"] = c["y"] - A * c["scale"] * (1.5 if action == "walk" else 4.0) * abs(math.sin(ph))
        if action == "run":
            st["rot"] = 7 * A
            st["x"] = c["x"] + c.get("travel", 0) * (tau - 0.15 * (1 - math.exp(-tau / 0.15))) / T
    elif action == "hurt":
        k = [(0.0, 0, 0, 1.0), (0.12, 0, 0, 1.0), (0.2, -12, -0.06, 0.96), (0.45, -8, -0.05, 0.98),
             (0.7, -2, -0.01, 1.0), (1.0, 0, 0, 1.0)]
        tn = tau / T
        for (t0, r0, x0, s0), (t1, r1, x1, s1) in zip(k, k[1:]):
            if t0 <= tn <= t1:
                u = smoothstep((tn - t0) / (t1 - t0))
                st["rot"] = r0 + (r1 - r0) * u
                st["x"] = c["x"] + (x0 + (x1 - x0) * u) * c["scale"] * 128
                st["sy"] = s0 + (s1 - s0) * u
                break
        if 0.15 < tn < 0.55:
            st["key"] = "fall"
            st["x"] += 3 * math.sin(tau * 60) * (0.55 - tn)
    return st


# ----------------------------------------------------------------------------- procedural rig

LIGHT = np.array([-0.45, -0.65, 0.62], np.float32)
LIGHT /= np.linalg.norm(LIGHT)
HALF = LIGHT + np.array([0, 0, 1], np.float32)
HALF /= np.linalg.norm(HALF)


class Canvas:
    def __init__(self, h, w):
        self.h, self.w = h, w
        self.rgb = np.zeros((h, w, 3), np.float32)
        self.a = np.zeros((h, w), np.float32)
        self.pid = np.zeros((h, w), np.uint8)


def shade_px(col, nx, ny, nz, mat):
    amb, kd, ks, shin, *cel = mat
    ndl = nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2]
    if cel:
        s = np.where(ndl > 0.25, 1.0, 0.8)[:, None] * np.asarray(col)[None, :]
        return s
    ndh = np.clip(nx * HALF[0] + ny * HALF[1] + nz * HALF[2], 0, 1)
    c = np.asarray(col)[None, :] * (amb + kd * np.clip(ndl, 0, 1))[:, None]
    return c + (ks * ndh ** shin)[:, None]


def capsule(cv, a, b, r0, r1, col, pid, mat):
    """A tapered capsule a->b (canvas px, radii r0 -> r1), rasterised with cv2 and shaded
    as a tube: the normal from the offset to the axis, lit by the fixed LIGHT."""
    rm = max(r0, r1)
    x0 = max(int(math.floor(min(a[0], b[0]) - rm - 1)), 0)
    x1 = min(int(math.ceil(max(a[0], b[0]) + rm + 2)), cv.w)
    y0 = max(int(math.floor(min(a[1], b[1]) - rm - 1)), 0)
    y1 = min(int(math.ceil(max(a[1], b[1]) + rm + 2)), cv.h)
    if x1 <= x0 or y1 <= y0:
        return
    dx, dy = b[0] - a[0], b[1] - a[1]
    L2 = dx * dx + dy * dy
    mk = np.zeros((y1 - y0, x1 - x0), np.uint8)
    fa = (int(round((a[0] - x0) * 16)), int(round((a[1] - y0) * 16)))
    fb = (int(round((b[0] - x0) * 16)), int(round((b[1] - y0) * 16)))
    cv2.circle(mk, fa, int(round(r0 * 16)), 1, -1, cv2.LINE_8, 4)
    cv2.circle(mk, fb, int(round(r1 * 16)), 1, -1, cv2.LINE_8, 4)
    if L2 > 1e-6:
        L = math.sqrt(L2)
        nx, ny = -dy / L, dx / L
        q = np.array([[a[0] + nx * r0, a[1] + ny * r0], [b[0] + nx * r1, b[1] + ny * r1],
                      [b[0] - nx * r1, b[1] - ny * r1], [a[0] - nx * r0, a[1] - ny * r0]])
        q = np.round((q - (x0, y0)) * 16).astype(np.int32)
        cv2.fillConvexPoly(mk, q, 1, cv2.LINE_8, 4)
    iy, ix = np.nonzero(mk)
    if iy.size == 0:
        return
    iy += y0
    ix += x0
    if mat is None:
        c = np.asarray(col, np.float32)[None, :]
    else:
        X = ix.astype(np.float32)
        Y = iy.astype(np.float32)
        if L2 > 1e-6:
            t = np.clip(((X - a[0]) * dx + (Y - a[1]) * dy) / L2, 0, 1)
        else:
            t = np.zeros_like(X)
        vx = X - (a[0] + t * dx)
        vy = Y - (a[1] + t * dy)
        rr = np.maximum(r0 + (r1 - r0) * t, 1e-3)
        qx, qy = vx / rr, vy / rr
        qz = np.sqrt(np.clip(1 - qx * qx - qy * qy, 0, 1))
        c = shade_px(col, qx, qy, qz, mat)
    cv.rgb[iy, ix] = c
    cv.a[iy, ix] = 1.0
    cv.pid[iy, ix] = pid


def polygon(cv, pts, col, pid, mat, outline=None, ow=0):
    p = np.round(np.asarray(pts, np.float64) * 16).astype(np.int32)
    if outline is not None:
        mo = np.zeros((cv.h, cv.w), np.uint8)
        cv2.polylines(mo, [p], True, 1, thickness=max(1, int(round(2 * ow))), lineType=cv2.LINE_8, shift=4)
        mm = mo > 0
        cv.rgb[mm] = outline
        cv.a[mm] = 1
        cv.pid[mm] = PID["outline"]
    mk = np.zeros((cv.h, cv.w), np.uint8)
    cv2.fillPoly(mk, [p], 1, lineType=cv2.LINE_8, shift=4)
    m = mk > 0
    if not m.any():
        return
    ys = np.nonzero(m.any(1))[0]
    yy = np.broadcast_to(np.arange(cv.h, dtype=np.float32)[:, None], m.shape)[m]
    g = 1 - 0.14 * (yy - ys[0]) / max(1, ys[-1] - ys[0])
    amb, kd = mat[0], mat[1]
    xx = np.broadcast_to(np.arange(cv.w, dtype=np.float32)[None, :], m.shape)[m]
    fold = 1 + 0.05 * np.sin(xx * 0.09 / max(1, cv.w / 600))
    cv.rgb[m] = np.asarray(col)[None, :] * ((amb + kd * 0.6) * g * fold)[:, None]
    cv.a[m] = 1
    cv.pid[m] = pid


PARTS = ["none", "outline", "skin", "hair", "torso", "sleeve", "pants", "boots", "belt", "cape", "metal",
         "blade", "hilt", "robe", "gem", "wood", "string", "eye", "scarf", "band", "quiver", "fletch"]
PID = {n: i for i, n in enumerate(PARTS)}

MAT_CLOTH = (0.62, 0.48, 0.06, 10)
MAT_SKIN = (0.64, 0.44, 0.10, 14)
MAT_METAL = (0.45, 0.55, 0.55, 28)
MAT_HAIR = (0.6, 0.45, 0.18, 20)


def rgb(*c):
    return tuple(v / 255.0 for v in c)


KNIGHT = dict(
    name="knight", outline=None, hair="short", weapon="sword", cape=True, pauldrons=True,
    col=dict(skin=rgb(236, 188, 150), hair=rgb(104, 66, 38), torso=rgb(170, 178, 190), sleeve=rgb(112, 116, 128),
             forearm=rgb(150, 156, 168), hand=rgb(160, 166, 178), pants=rgb(50, 58, 94), boots=rgb(88, 56, 34),
             belt=rgb(72, 46, 28), cape=rgb(168, 30, 38), metal=rgb(186, 192, 204), blade=rgb(206, 212, 222),
             hilt=rgb(196, 156, 60), grip=rgb(60, 36, 22), eye=rgb(30, 24, 20)),
    mat=dict(torso=MAT_METAL, metal=MAT_METAL, blade=(0.5, 0.5, 0.9, 40), hilt=MAT_METAL, hand=MAT_METAL,
             forearm=MAT_METAL),
    strands=[], rest=dict(wpn=55))

ROGUE = dict(
    name="rogue", outline=None, hair="short", weapon="dagger", scarf=True,
    col=dict(skin=rgb(214, 160, 120), hair=rgb(36, 30, 34), torso=rgb(22, 132, 128), sleeve=rgb(18, 110, 108),
             forearm=rgb(18, 110, 108), hand=rgb(214, 160, 120), pants=rgb(56, 56, 64), boots=rgb(66, 48, 38),
             belt=rgb(92, 60, 34), scarf=rgb(170, 40, 50), blade=rgb(200, 206, 214), hilt=rgb(60, 40, 30),
             grip=rgb(60, 40, 30), eye=rgb(20, 18, 18)),
    mat=dict(blade=(0.5, 0.5, 0.9, 40)),
    strands=[((-0.085, 0.05), -70, 0.05, 3, 15, 1.2), ((-0.08, 0.07), -95, 0.045, 3, 18, 0.9)],
    rest=dict(wpn=40))

MAGE = dict(
    name="mage", outline=None, hair="long", weapon="staff", robe=True,
    col=dict(skin=rgb(244, 214, 194), hair=rgb(226, 228, 236), torso=rgb(238, 236, 228), sleeve=rgb(232, 230, 222),
             forearm=rgb(232, 230, 222), hand=rgb(244, 214, 194), pants=rgb(200, 196, 190), boots=rgb(120, 88, 60),
             belt=rgb(204, 164, 70), robe=rgb(238, 236, 228), wood=rgb(112, 76, 44), gem=rgb(80, 150, 250),
             eye=rgb(40, 60, 90)),
    mat=dict(gem=(0.6, 0.5, 0.7, 30)),
    strands=[((-0.095 + 0.006 * k, 0.05 - 0.012 * k), -14 - 3 * k, 0.075, 4, 3 + k, 0.8) for k in range(9)],
    rest=dict(aF=22, eF=45, wpn=174), sleeve_r=(0.044, 0.05))

BRAWLER = dict(
    name="brawler", outline=rgb(18, 16, 22), hair="spiky", weapon=None, cel=True,
    col=dict(skin=rgb(240, 190, 140), hair=rgb(28, 28, 34), torso=rgb(240, 128, 30), sleeve=rgb(240, 128, 30),
             forearm=rgb(240, 190, 140), hand=rgb(240, 190, 140), pants=rgb(232, 120, 28), boots=rgb(40, 58, 150),
             belt=rgb(24, 22, 26), band=rgb(200, 36, 40), eye=rgb(18, 16, 22)),
    mat=dict(), strands=[((0.0, 0.11), 165, 0.09, 3, -30, 0.8), ((0.03, 0.1), 150, 0.07, 3, -35, 0.6)],
    rest=dict())

RANGER = dict(
    name="ranger", outline=None, hair="short", weapon="bow", quiver=True,
    col=dict(skin=rgb(200, 140, 100), hair=rgb(150, 70, 40), torso=rgb(64, 150, 70), sleeve=rgb(56, 132, 62),
             forearm=rgb(120, 86, 56), hand=rgb(200, 140, 100), pants=rgb(110, 85, 60), boots=rgb(60, 45, 35),
             belt=rgb(80, 54, 32), wood=rgb(130, 86, 48), string=rgb(232, 228, 212), quiver=rgb(96, 60, 36),
             fletch=rgb(220, 220, 226), eye=rgb(30, 24, 20)),
    mat=dict(),
    strands=[((-0.1, 0.03 + 0.008 * k), -55 - 4 * k, 0.085, 4, 12 + 2 * k, 0.9) for k in range(6)],
    rest=dict(aF=14, eF=22, wpn=176))

REST = dict(rx=0.0, ry=0.0, lean=0.0, tilt=0.0, aF=10.0, eF=14.0, aB=-8.0, eB=12.0, tF=5.0, kF=3.0, tB=-5.0,
            kB=3.0, wpn=55.0, wind=0.0)


def rest_pose(ch):
    p = dict(REST)
    p.update(ch.get("rest", {}))
    return p


def lerp_pose(p0, p1, u):
    return {k: p0[k] + (p1[k] - p0[k]) * u for k in p0}


def keyframed(keys, tn):
    for (t0, q0), (t1, q1) in zip(keys, keys[1:]):
        if t0 <= tn <= t1:
            return lerp_pose(q0, q1, smoothstep((tn - t0) / max(t1 - t0, 1e-6)))
    return dict(keys[-1][1])


def proc_pose(ch, action, tau, T):
    R = rest_pose(ch)
    P = dict(R)
    A = smoothstep(tau / 0.3)
    tn = tau / T
    if action == "idle":
        ph = 2 * math.pi * tau / 2.2
        P["ry"] = R["ry"] + 0.004 * A * math.sin(ph)
        P["lean"] = 1.2 * A * math.sin(ph)
        P["aF"] += 3 * A * math.sin(ph + 0.5)
        P["aB"] -= 3 * A * math.sin(ph + 0.5)
        P["tilt"] = 2 * A * math.sin(ph * 0.5)
        P["wpn"] += 4 * A * math.sin(ph)
        P["wind"] = 0.2 * A * math.sin(ph)
    elif action in ("walk", "run"):
        run = action == "run"
        per = 0.62 if run else 1.0
        ph = 2 * math.pi * tau / per
        s, c = math.sin(ph), math.cos(ph)
        amp_t, amp_a = (42, 55) if run else (24, 20)
        act = dict(P)
        act.update(tF=amp_t * s, tB=-amp_t * s,
                   kF=8 + (75 if run else 32) * max(0.0, c) + 6 * max(0.0, -c),
                   kB=8 + (75 if run else 32) * max(0.0, -c) + 6 * max(0.0, c),
                   aF=R["aF"] * 0.3 - amp_a * s, aB=-amp_a * -s, eF=R["eF"] + (70 if run else 12),
                   eB=(85 if run else 20), lean=11 if run else 3, tilt=-4 if run else 0,
                   ry=(0.028 if run else 0.008) * abs(s), wind=1.0 if run else 0.35,
                   wpn=R["wpn"] - (25 if run else 6) * s)
        if ch["weapon"] in ("staff", "bow"):
            act["aF"] = R["aF"] - (10 if run else 5) * s
            act["eF"] = R["eF"] + (25 if run else 0)
            act["wpn"] = R["wpn"] - (15 if run else 4) * s
        P = lerp_pose(R, act, A)
    elif action == "attack":
        w = dict(R)
        if ch["weapon"] == "dagger":
            wind = dict(R, aF=-35, eF=95, wpn=95, lean=-6, tF=-5, tB=-10, kF=10, kB=12, aB=20, eB=40)
            stab = dict(R, aF=80, eF=2, wpn=88, lean=16, tF=32, kF=30, tB=-22, kB=6, aB=-40, eB=20, rx=0.05,
                        wind=0.8)
            keys = [(0, R), (0.1, R), (0.3, wind), (0.38, stab), (0.5, stab), (0.6, wind), (0.66, stab),
                    (0.76, stab), (1.0, R)]
        else:
            wind = dict(R, aF=200, eF=25, wpn=215, lean=-7, tF=-2, kF=6, tB=-12, kB=10, aB=-30, eB=30)
            swing = dict(R, aF=70, eF=8, wpn=100, lean=13, tF=30, kF=26, tB=-20, kB=8, aB=-45, eB=20, rx=0.04,
                         wind=1.0)
            follow = dict(swing, aF=35, eF=25, wpn=70, lean=10)
            keys = [(0, R), (0.12, R), (0.38, wind), (0.47, swing), (0.56, follow), (0.7, follow), (1.0, R)]
        P = keyframed(keys, tn)
    elif action == "skill":
        if ch["weapon"] == "staff":
            up = dict(R, aF=150, eF=10, wpn=180, aB=130, eB=20, lean=-4, tilt=-8, ry=0.035, wind=0.6,
                      tF=8, kF=14, tB=-6, kB=12)
        else:
            up = dict(R, aF=165, eF=8, wpn=182, aB=150, eB=15, lean=-3, tilt=-8, ry=0.0, wind=0.4)
        up2 = dict(up, ry=up["ry"] + 0.012, aB=up["aB"] - 8, tilt=up["tilt"] + 3)
        keys = [(0, R), (0.12, R), (0.32, up), (0.5, up2), (0.68, up), (0.88, R), (1.0, R)]
        P = keyframed(keys, tn)
    elif action == "hurt":
        hit = dict(R, lean=-20, tilt=-16, rx=-0.07, aF=75, eF=45, aB=60, eB=40, tF=22, kF=12, tB=-8, kB=8,
                   wind=1.0)
        wob = dict(hit, lean=-13, tilt=-8, rx=-0.085, aF=40, aB=30)
        keys = [(0, R), (0.12, R), (0.2, hit), (0.32, wob), (0.5, dict(wob, lean=-9)), (0.8, R), (1.0, R)]
        P = keyframed(keys, tn)
        if 0.12 < tn < 0.5:
            P["rx"] += 0.006 * math.sin(tau * 55) * (0.5 - tn) / 0.38
    P["tau"] = tau
    return P


def _dir(a):
    r = math.radians(a)
    return np.array([math.sin(r), -math.cos(r)])


def skeleton(P):
    J = {}
    lean = math.radians(P["lean"])
    up = np.array([math.sin(lean), math.cos(lean)])
    hip = np.array([P["rx"], 0.46])

    def leg(side):
        h = hip + (0.013 * side, 0)
        t = P["tF"] if side > 0 else P["tB"]
        k = P["kF"] if side > 0 else P["kB"]
        kn = h + 0.205 * _dir(t)
        an = kn + 0.2 * _dir(t - k)
        return h, kn, an

    # dir() gives y-down image direction; in rig units v is up, so flip y
    lf, lb = leg(1), leg(-1)
    ground = 0.05 - min(lf[2][1], lb[2][1])
    off = np.array([0, ground + P["ry"]])
    J["hipF"], J["kneeF"], J["ankleF"] = [p + off for p in lf]
    J["hipB"], J["kneeB"], J["ankleB"] = [p + off for p in lb]
    hip = hip + off
    J["hip"] = hip
    J["neck"] = hip + 0.27 * up
    J["chest"] = hip + 0.2 * up
    sh = hip + 0.235 * up
    tl = lean + math.radians(P["tilt"])
    J["head"] = J["neck"] + 0.115 * np.array([math.sin(tl), math.cos(tl)])
    J["tilt"] = tl
    for side, nm in ((1, "F"), (-1, "B")):
        s = sh + (0.02 * side, 0)
        a, e = P["a" + nm], P["e" + nm]
        el = s + 0.15 * _dir(a)
        wr = el + 0.14 * _dir(a + e)
        J["sh" + nm], J["el" + nm], J["wr" + nm] = s, el, wr
        J["fa" + nm] = a + e
    J["wpn"] = P["wpn"]
    J["tipF"] = J["wrF"] + 0.62 * _dir(P["wpn"])
    J["top"] = J["head"] + (0, 0.16)
    return J


def draw_proc(ch, P, cv, tf, S, Hc):
    """Draw the rig into canvas cv; tf maps rig units -> canvas px."""
    J = skeleton(P)
    col, mats = ch["col"], ch["mat"]
    out = ch["outline"]
    ow = 1.7 * S  # outline width in canvas px
    u2p = Hc * S
    cel = ch.get("cel", False)
    shade_k = ch.get("shade_k", 1.0)

    def M(part):
        m = mats.get(part)
        if m is None:
            m = MAT_SKIN if part in ("skin", "hand") else MAT_HAIR if part == "hair" else MAT_CLOTH
        if cel:
            return (0, 0, 0, 0, True)
        if shade_k != 1.0:
            amb, kd, ks, sh = m
            m = (amb * (2 - shade_k) ** 0.5 - 0.05 * (shade_k - 1), kd * shade_k, ks * shade_k, sh)
        return m

    def C(part, dark=1.0):
        return tuple(v * dark for v in col[part])

    def cap(a, b, r0, r1, part, pidname=None, dark=1.0):
        pa, pb = tf(a), tf(b)
        if out is not None:
            capsule(cv, pa, pb, r0 * u2p + ow, r1 * u2p + ow, out, PID["outline"], None)
        capsule(cv, pa, pb, r0 * u2p, r1 * u2p, C(part, dark), PID[pidname or part], M(part))

    def strand(anchor, ang0, seglen, nseg, curl, rpx, dark=1.0):
        p = np.array(anchor, np.float64)
        tau = P["tau"]
        for k in range(nseg):
            ang = ang0 - math.degrees(J["tilt"]) + curl * k + (6 + 10 * P["wind"]) * math.sin(2 * math.pi * tau / 1.3 - 0.7 * k) \
                - 18 * P["wind"] * k / nseg
            q = p + seglen / nseg * _dir(ang)
            r0 = rpx * S * (1 - 0.3 * k / nseg)  # rpx: final px
            r1 = rpx * S * (1 - 0.3 * (k + 1) / nseg)
            capsule(cv, tf(p), tf(q), r0, r1, C("hair", dark), PID["hair"], M("hair"))
            p = q

    def head_pt(dx, dy):
        c, s = math.cos(J["tilt"]), math.sin(J["tilt"])
        return J["head"] + np.array([dx * c + dy * s, -dx * s + dy * c])

    dark = 0.78
    # -- cape / quiver / long hair behind everything
    if ch.get("cape"):
        w = P["wind"]
        sway = 0.02 * math.sin(2 * math.pi * P["tau"] / 1.1)
        n = J["neck"]
        pts = [n + (-0.075, -0.01), n + (0.02, -0.01), J["hip"] + (-0.015 - 0.05 * w, -0.27 + 0.1 * w),
               J["hip"] + (-0.17 - 0.22 * w + sway, -0.25 + 0.16 * w)]
        polygon(cv, [tf(p) for p in pts], C("cape", 0.92), PID["cape"], MAT_CLOTH, out, ow)
    if ch.get("quiver"):
        qa = J["chest"] + (-0.075, 0.06)
        qb = J["hip"] + (-0.03, -0.04)
        for k in range(3):
            tip = qa + (-0.02 + 0.018 * k, 0.08 + 0.01 * k)
            capsule(cv, tf(qa + (0.005 * k, 0)), tf(tip), 0.0045 * u2p, 0.0045 * u2p, C("wood"), PID["wood"], None)
            capsule(cv, tf(tip + (0, -0.01)), tf(tip + (-0.012, -0.035)), 0.008 * u2p, 0.003 * u2p, C("fletch"),
                    PID["fletch"], MAT_CLOTH)
        cap(qa, qb, 0.032, 0.028, "quiver")
    if ch["hair"] == "long":
        for (ax, ay), a0, L, n, curl, rpx in ch["strands"]:
            strand(head_pt(ax, ay), a0, L * 3.2, n, curl * 0.4, rpx)
    # -- back arm
    sr = ch.get("sleeve_r", (0.034, 0.029))
    cap(J["shB"], J["elB"], sr[0], sr[0] * 0.9, "sleeve", dark=dark)
    cap(J["elB"], J["wrB"], sr[1] * 0.95, sr[1] * 0.85, "forearm", "sleeve", dark=dark)
    if ch.get("cel"):
        cap(J["wrB"] - 0.02 * _dir(J["faB"]), J["wrB"], 0.03, 0.03, "band", dark=dark)
    cap(J["wrB"], J["wrB"] + 0.018 * _dir(J["faB"]), 0.03, 0.028, "hand", "skin", dark=dark)
    # -- legs
    for nm, dk in (("B", dark), ("F", 1.0)):
        cap(J["hip" + nm], J["knee" + nm], 0.047, 0.04, "pants", dark=dk)
        cap(J["knee" + nm], J["ankle" + nm], 0.039, 0.033, "boots" if ch["name"] == "knight" else "pants",
            dark=dk)
        toe = J["ankle" + nm] + np.array([0.065, -0.018])
        cap(J["ankle" + nm] + (-0.01, -0.012), toe, 0.034, 0.028, "boots", dark=dk)
    if ch.get("robe"):
        h = J["hip"]
        w = P["wind"]
        pts = [h + (-0.08, 0.06), h + (0.08, 0.06), J["ankleF"] + (0.07, 0.0), h + (0.0, -0.41),
               J["ankleB"] + (-0.08 - 0.04 * w, 0.01)]
        polygon(cv, [tf(p) for p in pts], C("robe"), PID["robe"], MAT_CLOTH, out, ow)
    # -- torso
    cap(J["hip"] + (0, 0.02), J["chest"], 0.088, 0.098, "torso")
    lean = math.radians(P["lean"])
    side = np.array([math.cos(lean), -math.sin(lean)])
    cap(J["hip"] + 0.02 * np.array([math.sin(lean), math.cos(lean)]) - 0.07 * side,
        J["hip"] + 0.02 * np.array([math.sin(lean), math.cos(lean)]) + 0.075 * side, 0.022, 0.022, "belt")
    cap(J["chest"], J["neck"] + (0, 0.01), 0.035, 0.032, "skin")
    if ch.get("scarf"):
        cap(J["neck"] + (-0.05, -0.01), J["neck"] + (0.045, 0.0), 0.033, 0.03, "scarf")
        cap(J["neck"] + (-0.05, -0.01), J["neck"] + (-0.1 - 0.08 * P["wind"], -0.09 + 0.05 * P["wind"]),
            0.022, 0.012, "scarf")
    # -- head
    hr = 0.105
    if ch["hair"] == "spiky":
        for k, (dx, dy, ang, L) in enumerate([(-0.06, 0.07, 215, 0.09), (-0.02, 0.09, 190, 0.1),
                                              (0.03, 0.09, 165, 0.09), (-0.08, 0.03, 240, 0.08),
                                              (0.06, 0.07, 140, 0.07)]):
            b = head_pt(dx, dy)
            e = b + L * _dir(ang + math.degrees(-J["tilt"]) + 4 * math.sin(P["tau"] * 3 + k))
            cap(b, e, 0.032, 0.004, "hair")
    cap(head_pt(-0.012, 0.014), head_pt(-0.012, 0.014), hr * 1.07, hr * 1.07, "hair")
    cap(head_pt(0.012, -0.008), head_pt(0.012, -0.008), hr * 0.93, hr * 0.93, "skin")
    cap(head_pt(0.058, 0.012), head_pt(0.058, 0.002), 0.011, 0.011, "eye")
    if ch["hair"] in ("short", "long"):
        cap(head_pt(-0.04, 0.078), head_pt(0.07, 0.06), 0.032, 0.02, "hair")
    if ch["hair"] != "long":
        for (ax, ay), a0, L, n, curl, rpx in ch["strands"]:
            strand(head_pt(ax, ay), a0, L * 1.6, n, curl, rpx)
    # -- front arm + weapon
    cap(J["shF"], J["elF"], sr[0], sr[0] * 0.9, "sleeve")
    if ch.get("pauldrons"):
        cap(J["shB"] + (-0.01, 0.01), J["shB"] + (-0.01, 0.01), 0.05, 0.05, "metal", dark=dark)
        cap(J["shF"] + (0.0, 0.01), J["shF"] + (0.0, 0.01), 0.052, 0.052, "metal")
    cap(J["elF"], J["wrF"], sr[1] * 0.95, sr[1] * 0.85, "forearm", "sleeve")
    if ch.get("cel"):
        cap(J["wrF"] - 0.02 * _dir(J["faF"]), J["wrF"], 0.03, 0.03, "band")
    hand = J["wrF"] + 0.02 * _dir(J["faF"])
    wd = _dir(J["wpn"])
    wp = ch["weapon"]
    if wp == "sword":
        cap(hand - 0.05 * wd, hand + 0.03 * wd, 0.012, 0.012, "grip", "hilt")
        perp = np.array([-wd[1], wd[0]])
        cap(hand + 0.035 * wd - 0.045 * perp, hand + 0.035 * wd + 0.045 * perp, 0.012, 0.012, "hilt")
        cap(hand + 0.045 * wd, hand + 0.38 * wd, 0.018, 0.006, "blade")
    elif wp == "dagger":
        cap(hand - 0.03 * wd, hand + 0.03 * wd, 0.011, 0.011, "hilt")
        cap(hand + 0.035 * wd, hand + 0.17 * wd, 0.014, 0.004, "blade")
    elif wp == "staff":
        cap(hand - 0.42 * wd, hand + 0.5 * wd, 0.011, 0.013, "wood")
        cap(hand + 0.53 * wd, hand + 0.53 * wd, 0.032, 0.032, "gem")
        cap(hand + 0.47 * wd + (-0.03, 0), hand + 0.56 * wd + (-0.035, 0.02), 0.006, 0.003, "wood")
        cap(hand + 0.47 * wd + (0.03, 0), hand + 0.56 * wd + (0.035, 0.02), 0.006, 0.003, "wood")
    elif wp == "bow":
        perp = np.array([-wd[1], wd[0]])
        fwd = perp if perp[0] >= 0 else -perp
        pts = [hand + wd * 0.25 * s + fwd * (0.055 * (1 - s * s) - 0.01) for s in np.linspace(-1, 1, 9)]
        for p, q in zip(pts, pts[1:]):
            cap(p, q, 0.011, 0.011, "wood")
        capsule(cv, tf(pts[0] - fwd * 0.006), tf(pts[-1] - fwd * 0.006), 0.5 * S, 0.5 * S, C("string"),
                PID["string"], None)
    cap(J["wrF"], hand, 0.032, 0.03, "hand", "metal" if ch["name"] == "knight" else "skin")
    return J


class ProcChar:
    def __init__(self, spec, Hc, cx, ground, S):
        self.ch, self.Hc, self.cx, self.ground, self.S = spec, Hc, cx, ground, S

    def render(self, poses, W, H, part=None):
        Hc, S = self.Hc, self.S
        # bbox of all sub-frame skeletons (rig units -> frame px)
        xs, ys = [], []
        for P in poses:
            J = skeleton(P)
            for k, v in J.items():
                if isinstance(v, np.ndarray):
                    xs.append(self.cx + v[0] * Hc)
                    ys.append(self.ground - v[1] * Hc)
        m = 0.3 * Hc
        x0, x1 = max(int(min(xs) - m), 0), min(int(max(xs) + m), W)
        y0, y1 = max(int(min(ys) - 0.12 * Hc), 0), min(int(max(ys) + 0.12 * Hc), H)
        h, w = y1 - y0, x1 - x0
        acc = np.zeros((h, w, 4), np.float32)
        pc = np.zeros((h, w), np.float32)
        cxs, gs = (self.cx - x0) * S - 0.5, (self.ground - y0) * S - 0.5

        def tf(p):
            return (cxs + p[0] * Hc * S, gs - p[1] * Hc * S)

        for P in poses:
            cv = Canvas(h * S, w * S)
            draw_proc(self.ch, P, cv, tf, S, Hc)
            cv.rgb *= cv.a[..., None]
            acc[..., :3] += cv2.resize(cv.rgb, (w, h), interpolation=cv2.INTER_AREA)
            acc[..., 3] += cv2.resize(cv.a, (w, h), interpolation=cv2.INTER_AREA)
            if part is not None:
                pm = (cv.pid == PID[part]).astype(np.float32)
                pc += cv2.resize(pm, (w, h), interpolation=cv2.INTER_AREA)
        acc /= len(poses)
        pc /= len(poses)
        a = np.clip(acc[..., 3], 0, 1)
        a[a < 1.5 / 255] = 0
        prem = np.minimum(np.clip(acc[..., :3], 0, None), a[..., None])
        info = {"part": np.clip(pc / np.maximum(a, 1e-6), 0, 1) * (a > 0)}
        return (x0, y0, x1, y1), prem, a, info


# ----------------------------------------------------------------------------- cases

GREEN = [(0.09, 0.69, 0.22), (0.20, 0.74, 0.30), (0.05, 0.61, 0.17), (0.27, 0.78, 0.36), (0.12, 0.66, 0.27)]
BLUE = [(0.07, 0.27, 0.78), (0.12, 0.35, 0.86), (0.05, 0.22, 0.70)]


def exposure_note(g):
    mid = 0.5
    return round(float(lin2srgb(srgb2lin(np.float32(mid)) * g) / mid - 1), 3)


CASES = [
    dict(name="ctrl_kenney_advf_idle", char=("kenney", "femaleAdventurer"), size=(512, 512), fps=24, frames=49,
         action="idle", screen=GREEN[0], wrap=(0.22, 3.5), crf=20, shadow=0.3, drift={},
         what="control: Kenney female adventurer breathing in exactly the portrait's light"),
    dict(name="ctrl_knight_idle", char=("proc", KNIGHT), size=(832, 480), fps=16, frames=33, action="idle",
         screen=GREEN[1], wrap=(0.18, 3.0), crf=19, shadow=0.0, drift={},
         what="control: procedural knight (steel, red cape, sword) idle in exactly the portrait's light"),
    dict(name="ctrl_ranger_walk", char=("proc", RANGER), size=(448, 448), fps=24, frames=57, action="walk",
         screen=GREEN[4], wrap=(0.25, 4.0), crf=21, shadow=0.35, drift={},
         what="control: green-shirted ranger walking with bow (thin string) and ponytail strands, portrait light"),
    dict(name="shade_rogue_attack", char=("proc", dict(ROGUE, shade_k=1.6)), size=(480, 832), fps=24, frames=57,
         action="attack", screen=GREEN[2], wrap=(0.28, 4.0), crf=20, shadow=0.0, drift={}, blur=16,
         what="model's own strong shading that follows the pose (lit sides flip as limbs swing), teal rogue; "
              "no global tint"),
    dict(name="shade_kenney_adv_walk", char=("kenney", "maleAdventurer"), size=(512, 512), fps=16, frames=41,
         action="walk", screen=GREEN[3], wrap=(0.2, 3.0), crf=22, shadow=0.25, drift={}, kshade=True,
         what="model's own shading: a soft shadow band and a highlight that move with the step, green shirt; "
              "no global tint"),
    dict(name="warm_kenney_vest_idle", char=("kenney", "malePerson"), size=(512, 512), fps=24, frames=65,
         action="idle", screen=GREEN[0], wrap=(0.3, 4.5), crf=19, shadow=0.3,
         drift=dict(gains=(1.10, 1.0, 0.86)),
         what="global warm white balance on a white/pale vest character"),
    dict(name="cool_mage_skill", char=("proc", MAGE), size=(480, 832), fps=24, frames=73, action="skill",
         screen=GREEN[1], wrap=(0.25, 5.0), crf=20, shadow=0.0, blur=6, hc=0.47,
         drift=dict(gains=(0.88, 0.98, 1.14)),
         what="global cool white balance on a white-robed mage with long pale hair strands and a staff"),
    dict(name="expo_up_zombie_hurt", char=("kenney", "zombie"), size=(448, 448), fps=24, frames=49,
         action="hurt", screen=GREEN[2], wrap=(0.15, 2.5), crf=21, shadow=0.3, blur=4,
         drift=dict(exposure=1.45),
         what="exposure up (~+18% on sRGB mid grey) on the teal-skinned zombie, hurt knockback"),
    dict(name="expo_down_robot_run", char=("kenney", "robot"), size=(832, 480), fps=24, frames=57, action="run",
         screen=BLUE[0], wrap=(0.25, 3.5), crf=22, shadow=0.25, blur=4, travel=0.42,
         drift=dict(exposure=0.70),
         what="exposure down (~-15% on sRGB mid grey) on the blue-grey robot running across a BLUE screen"),
    dict(name="satup_kenney_advf_walk", char=("kenney", "femaleAdventurer"), size=(512, 512), fps=16, frames=41,
         action="walk", screen=GREEN[4], wrap=(0.2, 3.0), crf=23, shadow=0.3,
         drift=dict(exposure=1.08, sat=1.35),
         what="saturation up 1.35 with a slight exposure lift"),
    dict(name="desat_gamma_knight_attack", char=("proc", KNIGHT), size=(1280, 720), fps=24, frames=49,
         action="attack", screen=GREEN[3], wrap=(0.22, 4.0), crf=20, shadow=0.3, blur=16, hc=0.56,
         drift=dict(gamma=1.18, contrast=1.12, sat=0.72),
         what="saturation down, gamma up (darker mids) and contrast up on the knight's fast sword swing"),
    dict(name="lift_brawler_hurt", char=("proc", BRAWLER), size=(512, 512), fps=24, frames=49, action="hurt",
         screen=BLUE[1], wrap=(0.3, 3.0), crf=19, shadow=0.3, blur=6,
         drift=dict(lift=(0.12, 0.12, 0.13), contrast=0.92),
         what="darks lifted toward grey (black outlines/hair ~31/255) and lower contrast, outlined brawler on BLUE"),
    dict(name="key_ranger_walk", char=("proc", RANGER), size=(832, 480), fps=24, frames=65, action="walk",
         screen=GREEN[0], wrap=(0.2, 3.5), crf=21, shadow=0.35,
         drift=dict(key=dict(left=(1.32, 1.10, 0.84), right=(0.88, 0.93, 1.06))),
         what="warm key light from the left, cool fill on the right, on the green-shirted ranger"),
    dict(name="rim_alien_idle", char=("kenney", "alienBlue"), size=(480, 832), fps=16, frames=49, action="idle",
         screen=BLUE[2], wrap=(0.2, 4.0), crf=20, shadow=0.25,
         drift=dict(rim=dict(color=(1.0, 0.45, 0.1), strength=1.0, dir=(1.0, -0.25), width=5.0)),
         what="orange rim light from the right (opaque pixels at the silhouette, ~5 px) on the pale alien, BLUE"),
    dict(name="rim_knight_run", char=("proc", KNIGHT), size=(1280, 720), fps=24, frames=49, action="run",
         screen=GREEN[4], wrap=(0.3, 5.0), crf=22, shadow=0.3, blur=5,
         drift=dict(gains=(0.95, 0.98, 1.05),
                    rim=dict(color=(1.0, 0.3, 0.65), strength=0.8, dir=(-1.0, -0.3), width=4.0)),
         what="pink rim light from the left plus a slight cool balance on the running knight (motion blur)"),
    dict(name="ramp_sunset_ranger_run", char=("proc", RANGER), size=(1280, 720), fps=24, frames=65,
         action="run", screen=GREEN[1], wrap=(0.22, 4.0), crf=21, shadow=0.3, blur=5,
         drift=dict(gains=(1.14, 0.97, 0.80), exposure=0.80, sat=1.1, ramp=(4, 56)),
         what="grade drifting gradually from the portrait's light to warm and darker (frames 4..56)"),
    dict(name="part_cape_knight_skill", char=("proc", KNIGHT), size=(512, 512), fps=16, frames=49,
         action="skill", screen=GREEN[2], wrap=(0.25, 3.0), crf=20, shadow=0.3, blur=6, part="cape", hc=0.56,
         drift=dict(part=dict(name="cape", hue=28.0, sat=0.9, val=0.86,
                              selected_by="the rig's cape polygon (exact supersampled coverage)")),
         what="only the cape is redrawn in another colour (hue +28, value x0.86); the rest in portrait light"),
    dict(name="part_shirt_kenney_girl_walk", char=("kenney", "femalePerson"), size=(832, 480), fps=16,
         frames=97, action="walk", screen=GREEN[0], wrap=(0.2, 3.5), crf=24, shadow=0.3, part=(120, 170),
         drift=dict(part=dict(name="shirt (green)", hue=22.0, sat=0.8, val=0.85,
                              selected_by="source-sprite pixels with HSV hue 120-170 deg, sat > 0.35, "
                                          "value > 0.3 (warped with the sprite)"), ramp=(8, 60)),
         what="only the green shirt drifts gradually (hue +22 toward teal, sat x0.8, value x0.85), rest unchanged"),
]


def kenney_shade(action, T, per):
    """The model's own shading on a Kenney sprite: a soft shadow band over the lower body
    and a highlight on the upper body, both following the step phase (sprite coords)."""
    def fn(st, shape):
        h, w = shape
        tau = st["tau"]
        A = smoothstep(tau / 0.3)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ph = 2 * math.pi * tau / per
        bx = w * (0.5 + 0.22 * math.sin(ph))
        band = np.exp(-((xx - bx) * 0.9 + (yy - h * 0.78) * 0.45) ** 2 / (2 * 9.0 ** 2))
        hx, hy = w * (0.42 - 0.12 * math.sin(ph)), h * (0.42 + 0.03 * math.cos(ph))
        hl = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * 11.0 ** 2))
        return (1 - 0.33 * A * band + 0.28 * A * hl).astype(np.float32)
    return fn


def run_case(c):
    t0 = time.time()
    W, H = c["size"]
    N, fps = c["frames"], c["fps"]
    T = (N - 1) / fps
    dt = 1.0 / fps
    rng = np.random.default_rng(zlib.crc32(c["name"].encode()))
    out = OUT / c["name"]
    out.mkdir(parents=True, exist_ok=True)
    kind, who = c["char"]
    drift = c["drift"]
    nblur = c.get("blur", 1)
    ground = H * (0.9 if H <= W else 0.86)

    if kind == "kenney":
        ch = KenneyChar(who, part_hue=c.get("part") if isinstance(c.get("part"), tuple) else None,
                        glass=(0.80, 0.88, 0.96) if who == "alienBlue" else None)
        Hc = (0.72 if H <= W else 0.55) * H
        place = dict(scale=Hc / ch.src_h, x=W * (0.3 if c["action"] == "run" else 0.5), y=ground,
                     travel=c.get("travel", 0) * W)
        shade_fn = kenney_shade(c["action"], T, 0.9) if c.get("kshade") else None

        def render(times):
            sts = []
            for tau in times:
                st = kenney_state(c["action"], tau, T, place)
                st["tau"] = tau
                sts.append(st)
            box, prem, a, info = ch.render(sts, W, H, shade_fn)
            info["cx"] = sts[len(sts) // 2]["x"]
            info["foot"] = sts[len(sts) // 2]["x"]
            return box, prem, a, info

        def motion(t0, t1):
            s0, s1 = kenney_state(c["action"], t0, T, place), kenney_state(c["action"], t1, T, place)
            return math.hypot(s1["x"] - s0["x"], s1["y"] - s0["y"]) + abs(math.radians(s1["rot"] - s0["rot"])) * Hc
        source = KENNEY_SRC + ", ".join(ch.files)
        Hc_eff = ch.src_h * place["scale"]
    else:
        spec = who
        Hc = c.get("hc", 0.66 if H <= W else 0.52) * H
        S = 3 if Hc < 330 else 2
        cx = W * (0.42 if c["action"] in ("attack", "run") else 0.5)
        pc = ProcChar(spec, Hc, cx, ground, S)
        part = c.get("part") if isinstance(c.get("part"), str) else None

        def render(times):
            poses = [proc_pose(spec, c["action"], tau, T) for tau in times]
            box, prem, a, info = pc.render(poses, W, H, part)
            P = poses[len(poses) // 2]
            info["cx"] = cx + P["rx"] * Hc
            info["foot"] = cx + P["rx"] * Hc + 0.02 * Hc
            return box, prem, a, info

        def motion(t0, t1):
            J0 = skeleton(proc_pose(spec, c["action"], t0, T))
            J1 = skeleton(proc_pose(spec, c["action"], t1, T))
            return max(float(np.hypot(*(J1[k] - J0[k]))) for k in J0 if isinstance(J0[k], np.ndarray)) * Hc
        source = (f"procedural rig '{spec['name']}' drawn by trials/trial26.py (capsules/polygons, "
                  f"{S}x supersampled)")
        Hc_eff = Hc

    scr = Screen(W, H, c["screen"], rng, grad=(rng.uniform(-0.12, 0.12), rng.uniform(-0.1, 0.1)),
                 vignette=rng.uniform(0.12, 0.3), noise=rng.uniform(1.6, 3.2), flicker=rng.uniform(0.008, 0.02))
    ramp = drift.get("ramp")

    def weight(i):
        if ramp is None:
            return 1.0
        return smoothstep((i - ramp[0]) / max(ramp[1] - ramp[0], 1))

    # -- portrait: rest pose, original light
    box, prem, a, info = render([0.0])
    x0, y0, x1, y1 = box
    portrait = np.zeros((H, W, 4), np.uint8)
    st = prem / np.maximum(a, 1e-6)[..., None]
    a8 = np.rint(a * 255).astype(np.uint8)
    rgb8 = np.where(a8[..., None] > 0, np.rint(np.clip(st, 0, 1) * 255), 0).astype(np.uint8)
    portrait[y0:y1, x0:x1] = np.dstack([rgb8, a8])
    Image.fromarray(portrait, "RGBA").save(out / "portrait.png", optimize=False)
    port_mean = rgb8[a8 == 255].reshape(-1, 3).mean(0)

    truth = np.zeros((N, H, W, 4), np.uint8)
    enc = Encoder(out / "clip.mp4", W, H, fps, c["crf"])
    means = []
    nsub = []
    for i in range(N):
        tau = i * dt
        # sub-frames over a 180 degree shutter, about one per 3 px of the fastest joint's travel
        n = 1
        if i > 0 and nblur > 1:
            n = min(nblur, max(1, math.ceil(motion(tau - 0.25 * dt, tau + 0.25 * dt) / 3.0)))
        times = [tau + ((k + 0.5) / n - 0.5) * 0.5 * dt for k in range(n)]
        nsub.append(n)
        box, prem, a, info = render(times)
        x0, y0, x1, y1 = box
        st = prem / np.maximum(a, 1e-6)[..., None]
        ctx = {}
        if "part" in drift:
            ctx["part"] = info["part"]
        if "shade" in info:
            ctx["shade"] = info["shade"]
        if "key" in drift:
            xs = np.arange(x0, x1, dtype=np.float32)[None, :]
            ctx["xr"] = np.broadcast_to(np.clip((xs - info["cx"]) / (0.32 * Hc_eff), -1, 1), a.shape)
        if "rim" in drift:
            ctx["rim"] = rim_weight(a, drift["rim"]["dir"], drift["rim"]["width"])
        w_i = weight(i)
        shaded = "shade" in ctx and float(np.abs(ctx["shade"] - 1.0).max()) > 1e-4
        if (drift and w_i > 0) or shaded:
            st = grade(st, a, drift, w_i, ctx)
        a8 = np.rint(a * 255).astype(np.uint8)
        rgb8 = np.where(a8[..., None] > 0, np.rint(st * 255), 0).astype(np.uint8)
        truth[i, y0:y1, x0:x1] = np.dstack([rgb8, a8])
        if (a8 == 255).any():
            means.append(rgb8[a8 == 255].reshape(-1, 3).mean(0))
        # -- composite: screen (+contact shadow), light wrap, character
        fr, flick = scr.frame(i)
        if c.get("shadow"):
            contact_shadow(fr, info["foot"], ground + 0.01 * Hc_eff, 0.26 * Hc_eff, 0.035 * Hc_eff, c["shadow"])
        af = (a8.astype(np.float32) / 255)
        fg = rgb8.astype(np.float32) / 255
        fg = light_wrap(fg, af, scr.blur[y0:y1, x0:x1] * flick, *c["wrap"])
        roi = fr[y0:y1, x0:x1]
        fr[y0:y1, x0:x1] = fg * af[..., None] + roi * (1 - af[..., None])
        enc.add(np.clip(np.rint(fr * 255), 0, 255).astype(np.uint8))
    enc.close()
    np.savez_compressed(out / "truth.npz", rgba=truth)

    d = {k: v for k, v in drift.items()}
    if "exposure" in d:
        d["exposure_srgb_mid"] = exposure_note(d["exposure"])
    if "ramp" in d:
        d["ramp_note"] = "identity at frame ramp[0], full at ramp[1], smoothstep between"
    d["order"] = ("linear light: gains, exposure, key (left->right across the character), shade, rim; "
                  "then sRGB: gamma, contrast@0.5, sat@Rec709 luma, lift; then part (HSV) by coverage")
    d["whole_character"] = bool(drift) and "part" not in drift
    if not drift:
        d["kind"] = ("none: portrait light + the model's own pose-following shading"
                     if c["name"].startswith("shade") else "none: control, exactly the portrait's light")
    d["measured_mean_rgb_opaque"] = dict(portrait=[round(float(v), 1) for v in port_mean],
                                         frame0=[round(float(v), 1) for v in means[0]],
                                         last=[round(float(v), 1) for v in means[-1]])
    meta = dict(action=c["action"], what=c["what"], source=source, size=[W, H], fps=fps, frames=N,
                screen=("blue" if c["screen"] in BLUE else "green"), screen_params=scr.desc,
                light_wrap=dict(strength=c["wrap"][0], fade_px=c["wrap"][1]),
                contact_shadow=c.get("shadow", 0.0), motion_blur_subframes_max=nblur,
                motion_blur_subframes_used=dict(min=min(nsub), max=max(nsub), mean=round(sum(nsub) / N, 2)),
                crf=c["crf"],
                codec="libx264 yuv420p (BT.601 limited range, own conversion), threads=1, mbtree=0",
                drift=d)
    (out / "case.json").write_text(json.dumps(meta, indent=1, default=lambda o: list(o)) + "\n")
    return time.time() - t0


def main():
    pick = sys.argv[1] if len(sys.argv) > 1 else ""
    cases = [c for c in CASES if pick in c["name"]]
    if not cases:
        sys.exit(f"no case matches {pick!r}")
    t = time.time()
    for c in cases:
        dt = run_case(c)
        print(f"{c['name']:30s} {c['size'][0]}x{c['size'][1]} {c['frames']:3d}f  {dt:6.1f}s", flush=True)
    print(f"total {time.time() - t:.1f}s -> {OUT}")


if __name__ == "__main__":
    main()
