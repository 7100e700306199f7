"""Trial 37 driver: one case -> clip.mp4, portrait.png, truth.npz, case.json."""
from __future__ import annotations

import math
import zlib
from pathlib import Path

import numpy as np

from t37_cases import cast
from t37_draw import Figure
from t37_io import FPS, Encoder, h3_frames, save_case, save_portrait, save_truth, straight_u8
from t37_motion import pose_fn
from t37_screen import Screen, composite, shadow


def facing(t, turn):
    if not turn or t < turn[0]:
        return 1.0
    u = (t - turn[0]) / turn[1]
    if u >= 1:
        return -1.0
    c = math.cos(math.pi * u)
    return math.copysign(max(abs(c), 0.25), c)


def render_case(cs: dict, out: Path) -> str:
    out.mkdir(parents=True, exist_ok=True)
    seed = zlib.crc32(cs["name"].encode())
    rng = np.random.default_rng(seed)
    ch = cast(cs["char"])
    W, H = cs["size"]
    assert W % 32 == 0 and H % 32 == 0
    N = h3_frames(cs["sec"])
    sc = cs["scale"]
    fig = Figure(ch, sc, ss=cs.get("ss", 2), pix=cs.get("pix", 0))
    motion = pose_fn(cs["motion"], ch.rest, N / FPS)
    ax, gy = cs["at"]

    def pose(t):
        p = motion(t)
        p["root"] = (ax + p.get("dx", 0.0) * sc, gy - ch.leg * sc + p.get("dy", 0.0) * sc)
        p["sx"] = facing(t, cs.get("turn"))
        if cs.get("orb") and p.get("orb", 0) > 0.01:
            rad, anchor, col = cs["orb"]
            p["orb"] = (p["orb"], rad * (0.55 + 0.45 * min(p["orb"], 1.0)), anchor, col)
        else:
            p.pop("orb", None)
        return p

    K, shutter = cs.get("blur", (1, 0.0))
    scr = Screen(W, H, cs["screen"], seed)
    truth = np.zeros((N, H, W, 4), np.uint8)
    enc = Encoder(out / "clip.mp4", W, H, cs["crf"])
    prev = None
    for t in range(N):
        k = 1
        if t and K > 1:  # sub-frames enough for ~2.5 px steps of the fastest point
            dp = fig.points(pose((t - shutter / 2) / FPS)) - fig.points(pose((t + shutter / 2) / FPS))
            k = int(min(K, max(1, math.ceil(np.sqrt((dp * dp).sum(1)).max() / 2.5))))
        ts = [t / FPS + shutter / FPS * ((i + 0.5) / k - 0.5) for i in range(k)]
        poses = [pose(x) for x in ts]
        img, (x0, y0) = fig.frame(poses, (H, W))
        full = np.zeros((H, W, 4), np.float32)
        ya, xa, yb, xb = max(y0, 0), max(x0, 0), min(y0 + img.shape[0], H), min(x0 + img.shape[1], W)
        full[ya:yb, xa:xb] = img[ya - y0:yb - y0, xa - x0:xb - x0]
        full = np.clip(full, 0, 1)
        truth[t] = straight_u8(full)
        back, e = scr.frame(t)
        if e > 0 and cs.get("shadow"):
            p0 = poses[len(poses) // 2]
            lift = min(1.0, max(0.45, 1 + p0.get("dy", 0.0) / 30))
            cx = ax + p0.get("dx", 0.0) * sc
            back = back * shadow(W, H, cx, gy - 2, 62 * sc, 9 * sc, cs["shadow"] * e * lift)[..., None]
        w, s, kind, pw = cs["wrap"]
        frame = composite(full, back, (w, s * e, kind, pw), cs.get("rim") if e > 0 else None)
        clean = frame
        if cs.get("ghost") and prev is not None:
            frame = (1 - cs["ghost"]) * frame + cs["ghost"] * prev
        prev = clean
        frame = frame + rng.normal(0, 1.2 if t else 0.6, frame.shape).astype(np.float32)
        enc.add(np.clip(frame, 0, 255))
    enc.close()
    save_truth(out / "truth.npz", truth)
    save_portrait(out / "portrait.png", truth[0])
    info = {"action": cs["action"], "trial": 37, "character": cs["char"], "style": ch.style,
            "frames": N, "fps": FPS, "size": [W, H], "crf": cs["crf"],
            "light_wrap": {"px": cs["wrap"][0], "strength": cs["wrap"][1], "kind": cs["wrap"][2]},
            "motion": cs["motion"], "motion_blur": {"max_subframes": K, "shutter": shutter},
            "screen": cs["screen"], "contact_shadow": cs.get("shadow", 0)}
    for k in ("pix", "turn", "ghost", "rim", "orb"):
        if cs.get(k):
            info[k] = cs[k]
    if "expect" in cs:
        info["expect_flags"] = cs["expect"]
    save_case(out / "case.json", info)
    return f"{cs['name']}: {N} frames {W}x{H}"
