"""Trial 36: from a case spec to a case folder (clip.mp4, truth.npz, portrait.png, case.json).

Per frame: the character is rendered (sub-frames averaged for motion blur) as
premultiplied RGBA in its box; the truth is that, straight and quantized; the
clip is the quantized truth over the screen (with the contact shadow), its
opaque pixels near the silhouette mixed with (or lit by) the blurred screen
behind them (light wrap: strongest at the edge, gone `width` px inside), a
share of the previous clean frame blended in where the case has ghosting,
letterbox bars last.  The truth never holds screen, wrap, ghost or shadow.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

import t36_h3 as h3
from t36_screen import Screen, letterbox


def ops_bounds(ops):
    """(xmin, ymin, xmax, ymax) of draw ops in clip pixels."""
    lo, hi = np.array([1e9, 1e9]), np.array([-1e9, -1e9])
    for op in ops:
        k = op[0]
        if k == "cap":
            r = max(op[3], op[4])
            pts, pad = np.array([op[1], op[2]]), r
        elif k == "ell":
            pts, pad = np.array([op[1]]), max(op[2], op[3])
        elif k == "poly":
            pts, pad = np.asarray(op[1]), 0.0
        else:
            pts, pad = np.concatenate(op[1]), op[2]
        pad += op[-1].get("outline", 0.0) + 1
        lo = np.minimum(lo, pts.min(0) - pad)
        hi = np.maximum(hi, pts.max(0) + pad)
    return (*lo, *hi)


def straight(pm: np.ndarray) -> np.ndarray:
    """premult float (h, w, 4) -> straight RGBA uint8."""
    a = pm[..., 3]
    A = np.clip(np.rint(a * 255), 0, 255).astype(np.uint8)
    rgb = np.where(a[..., None] > 1e-6, pm[..., :3] / np.maximum(a, 1e-6)[..., None], 0)
    rgb = np.clip(np.rint(rgb), 0, 255).astype(np.uint8)
    rgb[A == 0] = 0
    return np.concatenate([rgb, A[..., None]], axis=-1)


def wrap(F, A, Bbox, width, strength, mode, gamma=1.3):
    """Light wrap on straight colour F (h, w, 3 float) with alpha A (uint8) over Bbox."""
    inside = (A >= 128).astype(np.uint8)
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    f = np.clip(1 - (dist - 1) / width, 0, 1) ** gamma
    w = (strength * f * (A > 0))[..., None].astype(np.float32)
    Bw = cv2.GaussianBlur(Bbox, (0, 0), max(1.0, width * 0.7))
    if mode == "add":
        return np.clip(F + w * Bw * 0.85, 0, 255)
    return F * (1 - w) + Bw * w


def render_case(c: dict, out: Path) -> dict:
    t0 = time.time()
    out.mkdir(parents=True, exist_ok=True)
    W, H = c["size"]
    n = h3.frames_for(c["action"])
    x0, y0, bw, bh = c["box"]
    scr = Screen(W, H, n, c["screen"], c["seed"])
    enc = h3.Encoder(out / "clip.mp4", W, H, c.get("crf", 20))
    truth = np.zeros((n, H, W, 4), np.uint8)
    K, shutter = c.get("blur", (1, 0.0))
    hold = c.get("hold", 1)
    prev = None
    bar = c.get("letterbox", 0)
    for i in range(n):
        tq = np.floor(i / hold) * hold
        pm = np.zeros((bh, bw, 4), np.float32)
        Ki = K
        fast = c.get("blur_fast")  # (sub-frames, from, to): more where the swing is fastest
        if fast and fast[1] <= i / (n - 1) <= fast[2]:
            Ki = fast[0]
        for k in range(Ki):
            pm += c["char"](tq + shutter * ((k + 0.5) / Ki - 0.5) if Ki > 1 else tq)
        pm /= Ki
        if c.get("soft"):
            pm = cv2.GaussianBlur(pm, (0, 0), c["soft"])
        tr = straight(pm)
        truth[i, y0:y0 + bh, x0:x0 + bw] = tr
        B = scr.frame(i, c["shadow"](tq) if c.get("shadow") else ())
        F = tr[..., :3].astype(np.float32)
        A = tr[..., 3]
        Bbox = B[y0:y0 + bh, x0:x0 + bw]
        ww, ws, wm = c["wrap"]
        ws = ws * scr.wrap_mix(i)
        if ws > 0:
            F = wrap(F, A, Bbox, ww, ws, wm)
        a = (A.astype(np.float32) / 255)[..., None]
        comp = B.copy()
        comp[y0:y0 + bh, x0:x0 + bw] = F * a + Bbox * (1 - a)
        shown = comp
        g = c.get("ghost", 0.0)
        if g and prev is not None and i >= c.get("ghost_from", 1):
            shown = comp * (1 - g) + prev * g
        prev = comp
        if bar:
            shown = letterbox(shown, bar, c["seed"] * 1000 + i)
        enc.add(np.clip(np.rint(shown), 0, 255).astype(np.uint8))
    enc.close()
    check_edges(c, truth, bar)
    h3.save_truth(out / "truth.npz", truth)
    h3.save_portrait(out / "portrait.png", truth[0])
    info = {"action": c["action"], "expect_flags": c.get("expect_flags", []),
            "trial": 36, "name": c["name"], "frames": n, "size": [W, H], "fps": h3.FPS,
            "crf": c.get("crf", 20), "holds": c["notes"], "new_ground": c.get("new_ground"),
            "light_wrap": {"width_px": c["wrap"][0], "strength": c["wrap"][1],
                           "mode": c["wrap"][2]},
            "screen": {k: (list(v) if isinstance(v, tuple) else v)
                       for k, v in c["screen"].items()},
            "motion_blur_subframes": K, "shutter_frames": shutter,
            "motion_blur_fast": c.get("blur_fast"),
            "ghost_share": c.get("ghost", 0.0), "letterbox_px": bar, "hold_frames": hold,
            "art": c.get("art"),
            "truth_is": "the character's straight RGBA per frame (motion blur included); no "
                        "screen, no light wrap, no contact shadow, no ghost, no bars",
            "portrait": "truth frame 0 (the rest pose, unspilled)",
            "frame0": "the portrait over the user's flat canvas (screen.canvas), no wrap; the "
                      "model's screen and wrap take over in screen.settle frames",
            "clip_sha256": h3.sha256(out / "clip.mp4")}
    h3.write_case_json(out / "case.json", info)
    return {"name": c["name"], "seconds": round(time.time() - t0, 1)}


def check_edges(c, truth, bar):
    """The character may not reach the frame's edge (nor the bars) unless CROPPED is expected."""
    if "CROPPED" in c.get("expect_flags", []):
        return
    a = truth[..., 3]
    m = 2 + bar
    edge = max(int(a[:, :m].max()), int(a[:, -m:].max()), int(a[:, :, :2].max()),
               int(a[:, :, -2:].max()))
    if edge:
        raise RuntimeError(f"{c['name']}: the character reaches the frame edge")
    if not a[0].any():
        raise RuntimeError(f"{c['name']}: empty first frame")
