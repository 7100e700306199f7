"""Trial 34 shared pieces: H3's clip format, the model's screen, light wrap, contact
shadow, ghosting, compositing, a deterministic H.264 encode and the case folder writer."""
from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

FPS = 24
ACTION_SECONDS = {"idle": 2.0, "walk": 2.0, "run": 2.0, "attack": 1.0, "skill": 1.5, "hurt": 0.7}


def h3_frames(seconds: float) -> int:
    """H3's frame count: 17k+5, rounded only upward (DOMAIN.md)."""
    n = max(5, round(seconds * 24))
    n += (5 - n % 17) % 17
    return n


def action_frames(action: str) -> int:
    return h3_frames(ACTION_SECONDS[action])


def smoothstep(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


# --------------------------------------------------------------------------- screen
class Screen:
    """The backdrop as the model paints it. Frame 0 is the user's flat canvas; from frame 1
    the model's own screen (colour, gradient, vignette, mottling, per-frame grain and
    flicker) settles in over `settle` frames."""

    def __init__(self, H, W, seed, canvas=(0, 255, 0), colour=(40, 196, 58), grad=(0.10, -0.6),
                 grad_dir=(0.3, 1.0), vignette=0.18, mottle=4.0, grain=2.0, flicker=0.025,
                 settle=4, drift=0.0):
        self.H, self.W = H, W
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.canvas = np.array(canvas, np.float32)
        self.colour = np.array(colour, np.float32)
        self.grain, self.flicker, self.settle, self.drift = grain, flicker, settle, drift
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        u, v = (xx / W - 0.5) * 2, (yy / H - 0.5) * 2
        gd = np.array(grad_dir, np.float32)
        gd /= np.linalg.norm(gd)
        g = (u * gd[0] + v * gd[1]) * 0.5  # -0.5..0.5 along the gradient
        # grad = (amplitude of the brightness ramp, hue shift toward yellow(+)/cyan(-))
        amp, hue = grad
        r2 = (u * u * (W / max(H, W)) ** 2 + v * v * (H / max(H, W)) ** 2)
        vig = 1.0 - vignette * np.clip(r2, 0, 2) ** 1.3
        lowres = self.rng.normal(0, 1, (6, 8, 3)).astype(np.float32)
        mot = cv2.resize(lowres, (W, H), interpolation=cv2.INTER_CUBIC)
        base = self.colour[None, None, :] * (1.0 - amp * g)[..., None] * vig[..., None]
        tint = np.stack([hue * 40 * g, np.zeros_like(g), -hue * 40 * g], -1)
        self.field = np.clip(base + tint + mottle * mot, 0, 255).astype(np.float32)
        self._cache = {}

    def settle_w(self, t: int) -> float:
        if t <= 0:
            return 0.0
        return float(smoothstep(t / max(1, self.settle)))

    def frame(self, t: int) -> np.ndarray:
        if t in self._cache:
            return self._cache[t]
        if t == 0:
            out = np.broadcast_to(self.canvas, (self.H, self.W, 3)).astype(np.float32)
        else:
            rng = np.random.default_rng([self.seed, t])
            gain = 1.0 + self.flicker * (0.6 * np.sin(t * 1.7) + 0.4 * rng.uniform(-1, 1))
            fld = self.field * (1.0 + self.drift * t)
            noise = rng.normal(0, self.grain, (self.H, self.W, 1)).astype(np.float32)
            noise = noise + rng.normal(0, self.grain * 0.5, (self.H, self.W, 3)).astype(np.float32)
            model = np.clip(fld * gain + noise, 0, 255)
            w = self.settle_w(t)
            out = (1 - w) * self.canvas + w * model
        self._cache[t] = out
        return out


def shadow_field(H, W, cx, cy, rx, ry):
    """A soft elliptical contact shadow, 0..1."""
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    d = ((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2
    return np.exp(-1.6 * d).astype(np.float32)


# --------------------------------------------------------------------------- wrap
def wrap_weight(alpha, width, strength, gamma=1.3):
    """Spill weight on the character: full at the silhouette (fractional edge included),
    fading over `width` px into the opaque body."""
    hard = (alpha >= 0.5).astype(np.uint8)
    dist = cv2.distanceTransform(hard, cv2.DIST_L2, 5)  # ~1 on the outermost opaque row
    d = np.maximum(dist - 0.5, 0.0)
    w = strength * np.clip(1.0 - d / width, 0, 1) ** gamma
    return (w * (alpha > 0)).astype(np.float32)


def composite(rgba, screen, wrap=None, shadow=None, shadow_k=0.0, settle=1.0):
    """Character (straight float RGBA 0..1 alpha, 0..255 colour) over the screen, with the
    screen's light wrapped onto the character and a contact shadow darkening the screen.
    wrap = dict(width, strength, gamma, mode, blur)."""
    S = screen.copy()
    if shadow is not None and shadow_k > 0:
        S = S * (1.0 - shadow_k * settle * shadow)[..., None]
    C = rgba[..., :3]
    a = rgba[..., 3:4]
    if wrap and settle > 0:
        w = wrap_weight(rgba[..., 3], wrap["width"], wrap["strength"] * settle,
                        wrap.get("gamma", 1.3))[..., None]
        spill = S
        if wrap.get("blur", 0) > 0:  # the backdrop seen round the edge, blurred
            k = wrap["blur"]
            spill = cv2.GaussianBlur(screen, (0, 0), k)
        mode = wrap.get("mode", "mix")
        if mode == "mix":
            C = (1 - w) * C + w * spill
        elif mode == "add":  # added light, then clipped
            C = np.clip(C + w * spill * 0.8, 0, 255)
        elif mode == "screen":
            C = 255 - (255 - C) * (1 - w * spill / 255.0)
    return a * C + (1 - a) * S


def ghost(frames, g, recursive=False, start=1):
    """(1-g)·this + g·previous clean frame, or the previous frame as shown (recursive)."""
    out = [frames[0].copy()]
    for t in range(1, len(frames)):
        if t < start:
            out.append(frames[t].copy())
            continue
        prev = out[t - 1] if recursive else frames[t - 1]
        out.append((1 - g) * frames[t] + g * prev)
    return out


# --------------------------------------------------------------------------- encode
def rgb_to_yuv420(rgb_u8):
    """BT.601 limited range, 4:2:0 by 2x2 averaging: the array from_ndarray takes."""
    f = rgb_u8.astype(np.float32) / 255.0
    R, G, B = f[..., 0], f[..., 1], f[..., 2]
    Y = 16 + 65.481 * R + 128.553 * G + 24.966 * B
    Cb = 128 - 37.797 * R - 74.203 * G + 112.0 * B
    Cr = 128 + 112.0 * R - 93.786 * G - 18.214 * B
    H, W = Y.shape

    def sub(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean(axis=(1, 3))

    U, V = sub(Cb), sub(Cr)
    y8 = np.clip(np.round(Y), 0, 255).astype(np.uint8)
    u8 = np.clip(np.round(U), 0, 255).astype(np.uint8).reshape(H // 4, W)
    v8 = np.clip(np.round(V), 0, 255).astype(np.uint8).reshape(H // 4, W)
    return np.concatenate([y8, u8, v8], 0)


def encode(frames_u8, path, crf=20, preset="medium"):
    """H.264 yuv420p, one thread, mbtree=0: the same bytes every run."""
    H, W = frames_u8[0].shape[:2]
    with av.open(str(path), "w", format="mp4") as c:
        s = c.add_stream("libx264", rate=FPS)
        s.width, s.height, s.pix_fmt = W, H, "yuv420p"
        s.thread_count = 1
        s.codec_context.thread_count = 1
        s.options = {"crf": str(crf), "preset": preset, "threads": "1",
                     "x264-params": "mbtree=0:threads=1:sliced-threads=0:lookahead-threads=1"}
        for i, fr in enumerate(frames_u8):
            vf = av.VideoFrame.from_ndarray(rgb_to_yuv420(fr), format="yuv420p")
            vf.pts = i
            for p in s.encode(vf):
                c.mux(p)
        for p in s.encode():
            c.mux(p)


# --------------------------------------------------------------------------- case folder
def to_u8_rgba(rgba):
    """float straight RGBA (colour 0..255, alpha 0..1) -> uint8 straight RGBA."""
    out = np.empty(rgba.shape, np.uint8)
    a = np.clip(rgba[..., 3], 0, 1)
    out[..., 3] = np.round(a * 255).astype(np.uint8)
    col = np.clip(np.round(rgba[..., :3]), 0, 255).astype(np.uint8)
    col[out[..., 3] == 0] = 0
    out[..., :3] = col
    return out


def save_npz_fixed(path, **arrays):
    """np.savez_compressed with fixed zip timestamps, so two runs give the same bytes."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        for k, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(arr), allow_pickle=False)
            zi = zipfile.ZipInfo(k + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, buf.getvalue())


def check_bounds(truth_u8, margin, must_crop=False):
    """Parts of the character that touch the frame edge (alpha > 0 within margin px)."""
    a = truth_u8[..., 3] > 0
    edge = np.zeros(a.shape[1:], bool)
    edge[:margin] = edge[-margin:] = True
    edge[:, :margin] = edge[:, -margin:] = True
    touching = [int(t) for t in range(len(a)) if (a[t] & edge).any()]
    return touching


def write_case(root, name, action, expect_flags, notes, params, truth_u8, clip_u8, crf,
               margin=6):
    """Check the H3 format and the frame edges, then write the case folder."""
    folder = Path(root) / name
    folder.mkdir(parents=True, exist_ok=True)
    N, H, W = truth_u8.shape[:3]
    assert len(clip_u8) == N, (len(clip_u8), N)
    assert H % 32 == 0 and W % 32 == 0, (H, W)
    if "TRUNCATED" not in expect_flags:
        assert N == action_frames(action), (name, N, action_frames(action))
    assert N % 17 == 5
    touching = check_bounds(truth_u8, margin)
    if "CROPPED" in expect_flags:
        top = [t for t in range(N) if truth_u8[t, 0, :, 3].max() > 0]
        assert len(top) >= 3, f"{name}: nothing leaves the frame"
        a = truth_u8[..., 3] > 0
        other = [t for t in range(N) if a[t, -margin:].any() or a[t, :, :margin].any() or a[t, :, -margin:].any()]
        assert not other, f"{name}: the character also reaches the bottom/left/right edge in {other[:5]}"
        params = dict(params, frames_out_of_top_edge=top)
    else:
        assert not touching, f"{name}: the character comes within {margin} px of the edge in {touching[:5]}"
    encode(clip_u8, folder / "clip.mp4", crf=crf)
    Image.fromarray(truth_u8[0], "RGBA").save(folder / "portrait.png", optimize=False)
    save_npz_fixed(folder / "truth.npz", rgba=truth_u8)
    meta = {"action": action, "expect_flags": list(expect_flags), "notes": notes,
            "fps": FPS, "frames": int(N), "width": int(W), "height": int(H), "crf": crf,
            "params": params}
    (folder / "case.json").write_text(json.dumps(meta, indent=2, default=_jsonable) + "\n")
    return folder


def _jsonable(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(type(o))
