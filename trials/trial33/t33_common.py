"""Trial 33 shared helpers: H3 format, the model's screen, light wrap, compositing,
own BT.601 4:2:0 conversion, deterministic H.264 encoding and case writing."""
from __future__ import annotations

import io
import json
import zipfile
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np

FPS = 24
SECONDS = {"idle": 2.0, "walk": 2.0, "run": 2.0, "attack": 1.0, "skill": 1.5, "hurt": 0.7}


def h3_frames(seconds: float) -> int:
    """H3's frame count: 17k+5, rounded upward (DOMAIN.md)."""
    n = max(5, round(seconds * 24))
    return n + (5 - n % 17) % 17


def nframes(action: str) -> int:
    return h3_frames(SECONDS[action])


def smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


# ---------------------------------------------------------------- colour spaces
def to_lin(c):
    """sRGB 0..255 -> linear 0..1."""
    c = np.asarray(c, np.float32) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def to_srgb(c):
    """linear 0..1 -> sRGB 0..255."""
    c = np.clip(c, 0.0, 1.0)
    return (255.0 * np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)).astype(np.float32)


# ---------------------------------------------------------------- the screen
class Screen:
    """The backdrop as a model paints it. Frame 0 is the user's flat canvas; from frame 1
    the model's own screen settles in over `settle` frames. A static field (gradient,
    mottle) lives in world coordinates (so a camera move slides it); vignette, flicker
    and grain belong to the lens/sensor and stay put in the frame."""

    def __init__(self, W, H, seed, canvas, key, settle=3, grad=(0.0, 0.10), grad_tint=None,
                 vignette=0.12, mottle=0.0, mottle_scale=60, grain=2.0, chroma_grain=0.5,
                 flicker=0.015, pulse=0.0, margin=0):
        self.W, self.H, self.margin = W, H, margin
        self.canvas = np.array(canvas, np.float32)
        self.key = np.array(key, np.float32)
        self.settle, self.grain, self.cgrain = settle, grain, chroma_grain
        self.seed = seed
        rng = np.random.default_rng(seed)
        WW, HH = W + 2 * margin, H + 2 * margin
        ys, xs = np.mgrid[0:HH, 0:WW].astype(np.float32)
        u = (xs - WW / 2) / W * grad[0] + (ys - HH / 2) / H * grad[1]
        field = np.repeat((1.0 - u)[..., None], 3, 2)  # brighter where u < 0
        if grad_tint is not None:  # colour drift across the screen (e.g. yellower at top)
            field = field + (-u)[..., None] * np.array(grad_tint, np.float32)[None, None] / 255.0
        if mottle > 0:
            m = rng.standard_normal((HH // 8 + 2, WW // 8 + 2)).astype(np.float32)
            m = cv2.GaussianBlur(m, (0, 0), mottle_scale / 8)
            m = cv2.resize(m / (m.std() + 1e-6), (WW, HH), interpolation=cv2.INTER_CUBIC)
            field = field * (1 + mottle * m[..., None])
        self.field = field.astype(np.float32)
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
        r2 = ((xs - W / 2) / (W / 2)) ** 2 + ((ys - H / 2) / (H / 2)) ** 2
        self.vig = (1 - vignette * np.clip(r2 / 2, 0, 1) ** 0.9).astype(np.float32)[..., None]
        n = 400
        f = cv2.GaussianBlur(rng.standard_normal((n, 1)).astype(np.float32), (1, 0), 1.2)[:, 0]
        self.flick = 1 + flicker * f / (f.std() + 1e-6)
        self.pulse = pulse

    def settle_w(self, t):
        if t == 0:
            return 0.0
        return float(smooth(t / max(self.settle, 1)))

    def frame(self, t, cam=None, shadow=None):
        """float32 HxWx3 (0..255). cam: 2x3 affine world->frame (None = centred).
        shadow: HxW multiplier (1 = none)."""
        W, H = self.W, self.H
        if t == 0:
            return np.broadcast_to(self.canvas, (H, W, 3)).astype(np.float32)
        if cam is None:
            m = self.margin
            fld = self.field[m:m + H, m:m + W]
        else:
            fld = cv2.warpAffine(self.field, cam, (W, H), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REFLECT)
        g = self.flick[t] * (1 + self.pulse * np.sin(t * 0.9))
        img = self.key[None, None] * fld * self.vig * g
        rng = np.random.default_rng(self.seed * 1000 + t)
        lum = rng.standard_normal((H, W, 1)).astype(np.float32) * self.grain
        chrom = rng.standard_normal((H, W, 3)).astype(np.float32) * self.cgrain
        img = img + lum + chrom
        w = self.settle_w(t)
        if w < 1:
            img = self.canvas[None, None] * (1 - w) + img * w
        if shadow is not None:
            img = img * shadow[..., None]
        return np.clip(img, 0, 255).astype(np.float32)


def contact_shadow(W, H, cx, cy, rx, ry, strength, blur=None):
    """Multiplier map of a soft elliptical contact shadow (not in the truth)."""
    m = np.zeros((H, W), np.float32)
    cv2.ellipse(m, (int(round(cx * 4)), int(round(cy * 4))), (int(rx * 4), int(ry * 4)), 0, 0, 360,
                1.0, -1, cv2.LINE_AA, shift=2)
    m = cv2.GaussianBlur(m, (0, 0), blur or max(ry * 0.8, 3))
    return 1 - strength * m / max(m.max(), 1e-6)


# ---------------------------------------------------------------- light wrap + composite
def wrap_weight(alpha, width, strength, falloff="lin"):
    """Weight of backdrop light on each character pixel: `strength` at the silhouette,
    fading to 0 over `width` px inward, on opaque pixels too."""
    inside = (alpha > 0.5).astype(np.uint8)
    d = cv2.distanceTransform(inside, cv2.DIST_L2, 5) - 0.5
    d = np.where(inside > 0, np.maximum(d, 0), 0).astype(np.float32)
    x = d / width
    if falloff == "lin":
        f = np.clip(1 - x, 0, 1)
    elif falloff == "smooth":
        f = 1 - smooth(x)
    elif falloff == "exp":
        f = np.exp(-2.6 * x) * (x < 1.6)
    elif falloff == "sqrt":
        f = np.sqrt(np.clip(1 - x, 0, 1))
    else:
        raise ValueError(falloff)
    return (strength * f * (alpha > 0.002)).astype(np.float32)


def backdrop_light(screen, alpha, sigma):
    """The visible backdrop, blurred (normalised convolution: hidden parts don't count)."""
    vis = (1 - alpha).astype(np.float32)
    num = cv2.GaussianBlur(screen * vis[..., None], (0, 0), sigma)
    den = cv2.GaussianBlur(vis, (0, 0), sigma)[..., None]
    return num / np.maximum(den, 1e-3)


def composite(fg, alpha, screen, wrap=None, linear=False, extra=None):
    """Clip pixels: straight fg (0..255) over screen, with light wrap on the fg.
    wrap: dict(width, strength, falloff, source='blur'|'key', mode='mix'|'add', key=(r,g,b)).
    extra(fg) -> fg: a further change to the character in the clip only (e.g. bounce)."""
    a = alpha[..., None]
    if extra is not None:
        fg = extra(fg)
    if wrap is not None:
        w = wrap_weight(alpha, wrap["width"], wrap["strength"], wrap.get("falloff", "lin"))[..., None]
        if wrap.get("source", "blur") == "blur":
            src = backdrop_light(screen, alpha, max(wrap["width"] * 0.8, 1.5))
        else:
            src = np.broadcast_to(np.array(wrap["key"], np.float32), fg.shape)
        if linear:
            fl, sl = to_lin(fg), to_lin(src)
            if wrap.get("mode", "mix") == "add":
                fl = fl + sl * w
            else:
                fl = fl * (1 - w) + sl * w
            out = fl * a + to_lin(screen) * (1 - a)
            return to_srgb(out)
        if wrap.get("mode", "mix") == "add":
            fg = np.minimum(fg + src * w * 0.8, 255)
        else:
            fg = fg * (1 - w) + src * w
    if linear:
        return to_srgb(to_lin(fg) * a + to_lin(screen) * (1 - a))
    return fg * a + screen * (1 - a)


# ---------------------------------------------------------------- RGBA helpers
def unpremult(prem):
    """premultiplied float RGBA (0..1) -> straight uint8 RGBA."""
    a = prem[..., 3:4]
    rgb = np.where(a > 1e-4, prem[..., :3] / np.maximum(a, 1e-4), 0)
    out = np.concatenate([np.clip(rgb, 0, 1), np.clip(a, 0, 1)], -1)
    out = np.round(out * 255).astype(np.uint8)
    out[out[..., 3] == 0] = 0
    return out


def over(top, bottom):
    return top + bottom * (1 - top[..., 3:4])


def warp_prem(prem, M, W, H, interp=cv2.INTER_LINEAR):
    return cv2.warpAffine(prem, M, (W, H), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=0)


def paste(prem_box, x0, y0, W, H):
    """Place a premultiplied box at integer (x0, y0) on an empty WxH frame (clipped)."""
    out = np.zeros((H, W, 4), np.float32)
    h, w = prem_box.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, W), min(y0 + h, H)
    if xb > xa and yb > ya:
        out[ya:yb, xa:xb] = prem_box[ya - y0:yb - y0, xa - x0:xb - x0]
    return out


# ---------------------------------------------------------------- 4:2:0 and encoding
def rgb_to_yuv420(rgb):
    """uint8 HxWx3 RGB -> (H*3/2, W) yuv420p planes, BT.601 limited range (untagged, as
    ComfyUI's SaveVideo writes). Own conversion so every run gives the same planes."""
    f = rgb.astype(np.float32)
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + (65.481 * R + 128.553 * G + 24.966 * B) / 255
    Cb = 128 + (-37.797 * R - 74.203 * G + 112.0 * B) / 255
    Cr = 128 + (112.0 * R - 93.786 * G - 18.214 * B) / 255
    H, W = Y.shape
    cb = Cb.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    cr = Cr.reshape(H // 2, 2, W // 2, 2).mean((1, 3))
    q = lambda x: np.clip(np.round(x), 0, 255).astype(np.uint8)
    return np.concatenate([q(Y).ravel(), q(cb).ravel(), q(cr).ravel()]).reshape(H * 3 // 2, W)


class Encoder:
    """H.264 yuv420p, one x264 thread, mbtree=0: the same bytes on every run."""

    def __init__(self, path, W, H, crf, fps=FPS, preset="medium"):
        self.c = av.open(str(path), "w")
        st = self.c.add_stream("libx264", rate=Fraction(fps))
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.codec_context.thread_count = 1
        st.options = {"crf": str(crf), "preset": preset, "x264-params": "mbtree=0:threads=1"}
        self.st, self.i = st, 0

    def add(self, rgb_u8):
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb_u8), format="yuv420p")
        fr.pts = self.i
        self.i += 1
        for p in self.st.encode(fr):
            self.c.mux(p)

    def close(self):
        for p in self.st.encode():
            self.c.mux(p)
        self.c.close()


def save_truth(path, truth):
    """truth.npz with a fixed zip timestamp, so two runs give the same bytes."""
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(truth), allow_pickle=False)
    info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(info, buf.getvalue(), compresslevel=6)


def save_png(path, arr):
    from PIL import Image
    Image.fromarray(arr).save(path, optimize=False)


def write_json(path, obj):
    Path(path).write_text(json.dumps(obj, indent=2, sort_keys=False) + "\n")
