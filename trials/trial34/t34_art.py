"""Trial 34's real art: Kenney's CC0 zombie and abstract green player from the procgen 0.10.7
wheel (openai/procgen, whose ASSET_LICENSES.md credits "Many Game Asset Packs, Author:
kenney, CC0"), and the Overcooked-AI chef from the overcooked-ai 1.1.0 sdist (MIT, the
HumanCompatibleAI/overcooked_ai repository's LICENSE; the sdist's PKG-INFO says UNKNOWN).
Fetched with pip into /tmp/t34_art when missing; animated by their own frames, swapped whole
(no cross-fades), and by smooth affine motion; upscaled as a model renders a small input."""
from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from t34_render import build

ART = Path("/tmp/t34_art")
PROCGEN = ("procgen", "0.10.7", "procgen-0.10.7-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl")
OVERCOOKED = ("overcooked-ai", "1.1.0", "overcooked_ai-1.1.0.tar.gz")
PG_DIR = "procgen/data/assets/"
OC_CHEFS = "overcooked_ai-1.1.0/src/overcooked_ai_py/data/graphics/chefs"
LIC_PG = ("CC0 1.0 (Kenney, kenney.nl; openai/procgen ASSET_LICENSES.md: 'Many Game Asset Packs, Author: "
          "kenney, CC0'); the wheel itself MIT")
LIC_OC = ("MIT (HumanCompatibleAI/overcooked_ai LICENSE, 'Copyright (c) 2019 Center for Human-Compatible AI'); "
          "the sdist's PKG-INFO says License: UNKNOWN")


def ensure_art():
    ART.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(ART)]
    if not (ART / PROCGEN[2]).exists():
        subprocess.run(pip + ["--only-binary=:all:", "--python-version", "3.10", "--platform",
                              "manylinux_2_17_x86_64", f"{PROCGEN[0]}=={PROCGEN[1]}"], check=True)
    if not (ART / OVERCOOKED[2]).exists():
        subprocess.run(pip + ["--no-binary=:all:", f"{OVERCOOKED[0]}=={OVERCOOKED[1]}"], check=True)


def _png(data):
    return np.array(Image.open(io.BytesIO(data)).convert("RGBA"))


def procgen_png(rel):
    with zipfile.ZipFile(ART / PROCGEN[2]) as z:
        data = z.read(PG_DIR + rel)
    return _png(data), dict(package=f"{PROCGEN[0]} {PROCGEN[1]}", archive=PROCGEN[2], file=PG_DIR + rel,
                            sha256=hashlib.sha256(data).hexdigest(), licence=LIC_PG)


def chef_frames(names):
    """Frames cut from the chefs.png atlas by chefs.json; hats composed over the chef."""
    with tarfile.open(ART / OVERCOOKED[2]) as t:
        png = t.extractfile(OC_CHEFS + ".png").read()
        atlas = json.loads(t.extractfile(OC_CHEFS + ".json").read())
    sheet = _png(png)
    out = {}
    for n in names:
        f = atlas["frames"][n + ".png"]["frame"]
        out[n] = sheet[f["y"]:f["y"] + f["h"], f["x"]:f["x"] + f["w"]]
    prov = dict(package=f"{OVERCOOKED[0]} {OVERCOOKED[1]}", archive=OVERCOOKED[2],
                file=OC_CHEFS + ".png (+ .json atlas)", frames=list(names),
                sha256=hashlib.sha256(png).hexdigest(), licence=LIC_OC)
    return out, prov


def over(a, b):
    """b over a, straight uint8 RGBA."""
    fa, fb = a.astype(np.float32) / 255, b.astype(np.float32) / 255
    A = fb[..., 3:] + fa[..., 3:] * (1 - fb[..., 3:])
    C = (fb[..., :3] * fb[..., 3:] + fa[..., :3] * fa[..., 3:] * (1 - fb[..., 3:])) / np.maximum(A, 1e-6)
    return (np.concatenate([C, A], -1) * 255 + 0.5).astype(np.uint8)


def upscale(rgba, f, method):
    """Premultiplied upscale: (Cp float 0..255, A 0..1)."""
    a = rgba[..., 3:].astype(np.float32) / 255
    cp = rgba[..., :3].astype(np.float32) * a
    pm = np.concatenate([cp, a * 255], -1)
    interp = {"nearest": cv2.INTER_NEAREST, "lanczos": cv2.INTER_LANCZOS4, "cubic": cv2.INTER_CUBIC}[method]
    big = cv2.resize(pm, (int(round(rgba.shape[1] * f)), int(round(rgba.shape[0] * f))), interpolation=interp)
    A = np.clip(big[..., 3] / 255, 0, 1)
    Cp = np.clip(big[..., :3], 0, None)
    Cp = np.minimum(Cp, A[..., None] * 255)
    A[A < 1.5 / 255] = 0
    Cp[A == 0] = 0
    return Cp, A


class SpriteSource:
    """Whole sprite frames placed by an affine per frame: schedule(t) -> (frame key, dx, dy,
    angle in degrees about the feet, sx, sy, mirror)."""

    def __init__(self, frames, schedule, origin, anchor=None):
        self.frames = frames  # key -> (Cp, A) upscaled
        self.schedule, self.origin = schedule, np.asarray(origin, np.float32)
        self.anchor = anchor or {}

    def _M(self, t):
        key, dx, dy, ang, sx, sy, mirror = self.schedule(t)
        Cp, A = self.frames[key]
        h, w = A.shape
        ys, xs = np.nonzero(A > 0.5)
        ax, ay = self.anchor.get(key, ((xs.min() + xs.max()) / 2, ys.max() + 1))
        c, s = np.cos(np.radians(ang)), np.sin(np.radians(ang))
        m = -1.0 if mirror else 1.0
        L = np.array([[c * sx * m, -s * sy], [s * sx * m, c * sy]], np.float32)
        off = self.origin + np.array([dx, dy], np.float32) - L @ np.array([ax, ay], np.float32)
        return key, np.concatenate([L, off[:, None]], 1)

    def render(self, t, H, W):
        key, M = self._M(t)
        Cp, A = self.frames[key]
        pm = np.concatenate([Cp, A[..., None] * 255], -1)
        out = cv2.warpAffine(pm, M, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=0)
        A2 = np.clip(out[..., 3] / 255, 0, 1)
        A2[A2 < 1.5 / 255] = 0
        C2 = np.minimum(np.clip(out[..., :3], 0, None), A2[..., None] * 255)
        return C2.astype(np.float32), A2.astype(np.float32)

    def points(self, t):
        key, M = self._M(t)
        h, w = self.frames[key][1].shape
        pts = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float32)
        return pts @ M.T


def _bump(x):
    return float(np.exp(-x * x))


def case_zombie_procgen_walk(root):
    names = {"idle": "platformer/zombie_idle.png", "walk1": "platformer/zombie_walk1.png",
             "walk2": "platformer/zombie_walk2.png"}
    frames, prov = {}, []
    for k, rel in names.items():
        img, p = procgen_png(rel)
        frames[k] = upscale(img, 3.6, "lanczos")
        prov.append(p)
    step = 5  # frames per drawing: a 2-drawing walk at 4.8 drawings/s

    def sched(t):
        if t < 3:
            return "idle", 0, 0, 0, 1, 1, False
        k = int((t - 3) // step)
        ph = ((t - 3) % step) / step
        key = "walk1" if k % 2 == 0 else "walk2"
        bob = -9 * np.sin(np.pi * ph)
        sway = 2.2 * (1 if k % 2 == 0 else -1) * np.sin(np.pi * ph)
        return key, 1.5 * np.sin(t / 9.0), bob, sway, 1.0, 1.0 + 0.015 * np.sin(np.pi * ph), False

    src = SpriteSource(frames, sched, (222, 432))
    return build(root, "zombie_procgen_walk", "walk", src, 448, 448,
                 dict(colour=(36, 186, 72), grad=(0.12, 0.4), grad_dir=(0.6, 1.0), vignette=0.2, mottle=4.0,
                      grain=2.0, flicker=0.03, settle=4),
                 dict(width=5, strength=0.30, gamma=1.2, mode="mix", settle=3), 20,
                 "Real art: Kenney's CC0 zombie (green skin, grey hair, outlined and shaded) from the procgen "
                 "0.10.7 wheel, upscaled 3.6x Lanczos, walking with its own two walk drawings (swapped whole "
                 "every 5 frames) plus a bob and sway; green skin on a green screen under a 5 px / 30 % wrap; "
                 "contact shadow.",
                 dict(style="real art, outlined/shaded", art=prov, upscale="3.6x lanczos"),
                 shadow=dict(cx=222, cy=434, rx=90, ry=10, k=0.35), seed=3407)


def case_blob_procgen_skill(root):
    base = "kenney-abstract/Players/Player Green/playerGreen_"
    keys = ["stand", "duck", "hit", "switch1"]
    frames, prov = {}, []
    for k in keys:
        img, p = procgen_png(base + k + ".png")
        frames[k] = upscale(img, 6.0, "cubic")
        prov.append(p)

    def sched(t):
        if t < 5:
            return "stand", 0, 0, 0, 1, 1, False
        if t < 13:  # charging: squashed and trembling
            sq = 0.04 * min(1, (t - 5) / 3)
            return "duck", 2.0 * np.sin(t * 2.9), 0, 0, 1 + sq, 1 - sq, False
        if t < 24:  # power: rises and swells
            u = (t - 13) / 11
            return "hit", 0, -26 * np.sin(np.pi * min(1, u * 1.3)) ** 1, 3 * np.sin(t * 1.3), 1 + 0.05 * u, 1 + 0.05 * u, False
        if t < 34:  # casts: pointing forward, leaning into it
            u = (t - 24) / 10
            return "switch1", 6 * np.sin(np.pi * u), 0, 6 * np.sin(np.pi * u), 1.03, 1.0, False
        return "stand", 0, 0, 0, 1, 1, False

    src = SpriteSource(frames, sched, (190, 424))
    return build(root, "blob_procgen_skill", "skill", src, 448, 384,
                 dict(colour=(26, 200, 96), grad=(0.10, -0.5), grad_dir=(-0.4, 1.0), vignette=0.16, mottle=3.5,
                      grain=1.8, flicker=0.02, settle=3),
                 dict(width=3, strength=0.22, gamma=1.0, mode="mix", blur=2.0, settle=2), 23,
                 "Real art: Kenney's CC0 abstract-platformer green player (flat teal-green (71,176,123) all "
                 "over) from the procgen 0.10.7 wheel, upscaled 6x bicubic; a skill made of its own drawings "
                 "(duck to charge, hit to power up, switch1 to cast) with squash, rise and tremble; flat teal "
                 "on a green screen; 3 px / 22 % wrap.",
                 dict(style="real art, flat", art=prov, upscale="6x bicubic"),
                 shadow=dict(cx=190, cy=426, rx=80, ry=9, k=0.3), seed=3408)


def case_chef_greenhat_hurt(root):
    fr, prov = chef_frames(["SOUTH", "SOUTH-greenhat"])
    chef = over(fr["SOUTH"], fr["SOUTH-greenhat"])
    frames = {"south": upscale(chef, 18, "nearest")}

    def sched(t):
        if t < 4:
            return "south", 0, 0, 0, 1, 1, False
        u = t - 4
        k = np.exp(-u / 5.0)
        ang = -13 * np.sin(min(np.pi / 2, u * 0.55)) * (k if u > 3 else 1) * np.cos(max(0, u - 3) * 0.5)
        dx = -22 * (1 - np.exp(-u / 1.5)) * (0.55 + 0.45 * k)
        dy = -14 * np.sin(min(np.pi, u * 0.45)) if u < 7 else 0
        sq = 0.07 * np.exp(-((u - 1.5) ** 2) / 2.0)
        return "south", dx, dy, ang, 1 + sq, 1 - sq, False

    src = SpriteSource(frames, sched, (232, 400))
    return build(root, "chef_greenhat_hurt", "hurt", src, 448, 448,
                 dict(colour=(48, 196, 64), grad=(0.15, 0.2), grad_dir=(0.0, 1.0), vignette=0.22, mottle=5.0,
                      grain=2.4, flicker=0.035, settle=3),
                 dict(width=3, strength=0.25, gamma=1.0, mode="mix", settle=2), 20,
                 "Real art: the Overcooked-AI chef (MIT) facing the viewer with its green hat, 15 px pixel art "
                 "upscaled 18x nearest, knocked back (tilt, slide, hop, squash) and recovering; a green hat "
                 "on a green screen; 3 px / 25 % wrap.",
                 dict(style="real art, pixel", art=[prov], upscale="18x nearest"),
                 shadow=dict(cx=232, cy=402, rx=85, ry=9, k=0.3), seed=3409)


CASES = {f.__name__[5:]: f for f in (case_zombie_procgen_walk, case_blob_procgen_skill, case_chef_greenhat_hurt)}
