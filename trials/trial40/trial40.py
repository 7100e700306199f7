"""Trial 40: sixteen held-out green-screen clips for h3sprite's QC flags, both ways.

    .venv/bin/python trials/trial40/trial40.py [NAME ...]  # all, or names containing NAME
    TRIAL_OUT=DIR ...                           # case folders into DIR (default trials/_out/trial40)

Eight clips a correct chain must flag and eight decoys it must not, each case.json naming
`expect_flags`.  One process, one x264 thread, mbtree=0, own BT.601 limited-range 4:2:0,
fixed zip times: the same bytes every run.

Characters are 2.5-D puppets (a bone rig in the sagittal plane, every part at a depth, the
facing angle theta projecting x*cos + z*sin, so a turn shows the far side and reorders the
parts) in three art styles no earlier trial drew: claymation (a dome from each part's
distance transform, lit from the top left in screen space, a thumbprint texture, a hard
specular), papercraft (flat card with a cream cut edge and a drop shadow of each part on
the parts below it) and halftone comic (ink outline, screen-space 45-degree dots in the
shade).  Parts are filled at 3-4x with cv2 at 1/16 px and box-filtered down, so every edge
carries its coverage; motion blur is the mean of premultiplied sub-frame renders over a
shutter centred on the frame time.

The truth is the quantised straight RGBA of the character alone.  The clip composites that
truth over a model-like screen (gradient, vignette, flicker, grain, camera zoom/pan), a
soft contact shadow, a light wrap of 2-5 px at 15-32 %, and where a case says so a ghost
(of the previous clean frame, or recursive) and letterbox bars; none of that is in the
truth.  Frame 0 is the portrait over the user's flat (0, 254, 0) canvas, the model's
screen and wrap settling in over frames 1-3.
"""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
import zipfile
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image

cv2.setNumThreads(1)
OUT = Path(os.environ.get("TRIAL_OUT", Path(__file__).resolve().parent.parent / "_out" / "trial40"))
TAU = 2 * math.pi
PI = math.pi


# ============================================================================ I/O

def rgb_to_yuv420(rgb):
    """float RGB 0..1 (H, W, 3) -> planar yuv420p bytes, BT.601 limited range, chroma the
    mean of each 2x2 block."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 16 + 65.481 * r + 128.553 * g + 24.966 * b
    cb = 128 - 37.797 * r - 74.203 * g + 112.0 * b
    cr = 128 + 112.0 * r - 93.786 * g - 18.214 * b
    H, W = y.shape

    def half(c):
        return c.reshape(H // 2, 2, W // 2, 2).mean((1, 3))

    def q(a):
        return np.clip(np.floor(a + 0.5), 0, 255).astype(np.uint8)

    return np.concatenate([q(y), q(half(cb)).reshape(H // 4, W), q(half(cr)).reshape(H // 4, W)], 0)


class Encoder:
    def __init__(self, path, W, H, crf, fps):
        self.out = av.open(str(path), "w", format="mp4")
        st = self.out.add_stream("libx264", rate=fps)
        st.width, st.height, st.pix_fmt = W, H, "yuv420p"
        st.codec_context.thread_count = 1
        st.options = {"crf": str(crf), "preset": "medium",
                      "x264-params": "threads=1:lookahead-threads=1:sliced-threads=0:mbtree=0"}
        self.st, self.n = st, 0

    def add(self, rgb):
        fr = av.VideoFrame.from_ndarray(rgb_to_yuv420(rgb), format="yuv420p")
        fr.pts = self.n
        self.n += 1
        for pkt in self.st.encode(fr):
            self.out.mux(pkt)

    def close(self):
        for pkt in self.st.encode():
            self.out.mux(pkt)
        self.out.close()


def write_truth(path, frames):
    info = zipfile.ZipInfo("rgba.npy", date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o600 << 16
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        with z.open(info, "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.ascontiguousarray(frames), allow_pickle=False)


def write_png(path, rgba):
    buf = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buf, format="PNG", optimize=False, compress_level=6)
    path.write_bytes(buf.getvalue())


def to_rgba8(prem, alpha):
    a = np.clip(alpha, 0, 1)
    q = np.clip(np.floor(a * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb = np.where(a[..., None] > 1e-6, prem / np.maximum(a[..., None], 1e-6), 0)
    rgb = np.clip(np.floor(rgb * 255 + 0.5), 0, 255).astype(np.uint8)
    rgb[q == 0] = 0
    return np.concatenate([rgb, q[..., None]], -1)


def C(*v):
    return np.array(v, np.float32) / 255.0


# ============================================================================ textures

def periodic_noise(seed, n=256, sigma=2.0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n))
    f = np.fft.fftfreq(n)
    g = np.exp(-2 * (PI * sigma) ** 2 * (f[:, None] ** 2 + f[None, :] ** 2))
    a = np.real(np.fft.ifft2(np.fft.fft2(a) * g))
    a /= a.std() + 1e-9
    return a.astype(np.float32)


TEX_FINE = periodic_noise(4001, 256, 1.0)
TEX_COARSE = periodic_noise(4002, 256, 7.0)
TEX_PRINT = np.sin(TEX_COARSE * 4.0).astype(np.float32)      # thumbprint ridges of clay
TN = 256


def tex_at(tile, y0, x0, h, w):
    ys = (np.arange(h) + y0) % TN
    xs = (np.arange(w) + x0) % TN
    return tile[np.ix_(ys, xs)]


# ============================================================================ geometry

def ellipse_local(cx, cy, rx, ry, rot, sx, n=40):
    """Ellipse polygon in the projected plane (y up); x offsets scaled by sx (signed)."""
    a = np.linspace(0, TAU, n, endpoint=False)
    ox, oy = rx * np.cos(a), ry * np.sin(a)
    c, s = math.cos(rot), math.sin(rot)
    lx, ly = ox * c - oy * s, ox * s + oy * c
    return np.stack([cx + lx * sx, cy + ly], 1)


def capsule_local(p0, p1, r0, r1, n=12):
    d = p1 - p0
    L = float(np.hypot(d[0], d[1]))
    if L < 1e-6:
        return ellipse_local(p0[0], p0[1], max(r0, r1), max(r0, r1), 0.0, 1.0, 24)
    ang = math.atan2(d[1], d[0])
    a1 = ang + np.linspace(-PI / 2, PI / 2, n)
    a0 = ang + np.linspace(PI / 2, 3 * PI / 2, n)
    return np.concatenate([np.stack([p1[0] + r1 * np.cos(a1), p1[1] + r1 * np.sin(a1)], 1),
                           np.stack([p0[0] + r0 * np.cos(a0), p0[1] + r0 * np.sin(a0)], 1)])


def rot2(v, a):
    c, s = math.cos(a), math.sin(a)
    return np.array([v[0] * c - v[1] * s, v[0] * s + v[1] * c])


def dirv(a):
    """Unit vector of a limb angle: 0 points down, +pi/2 forward, pi up."""
    return np.array([math.sin(a), -math.cos(a)])


# A prim: dict(kind='cap'|'ell'|'poly', z, col, ...).  Local coords: x forward, y up, z near.
def cap(p0, p1, r0, r1, z, col, **kw):
    return dict(kind="cap", p0=np.asarray(p0, float), p1=np.asarray(p1, float), r0=r0, r1=r1,
                z=z, col=col, **kw)


def ell(c, rx, ry, z, col, rot=0.0, rz=None, **kw):
    return dict(kind="ell", c=np.asarray(c, float), rx=rx, ry=ry, rz=rx if rz is None else rz,
                rot=rot, z=z, col=col, **kw)


def poly(pts, z, col, **kw):
    return dict(kind="poly", pts=np.asarray(pts, float), z=z, col=col, **kw)


def project(prims, theta, root, s, spin=0.0, pivot=(0.0, 0.0)):
    """Local prims -> screen polygons, sorted far to near."""
    c, sn = math.cos(theta), math.sin(theta)
    out = []
    for i, p in enumerate(prims):
        z = p["z"]
        if p["kind"] == "poly" and p.get("wrap") is not None:
            # a part wrapped round the head: its x offsets from the head's centre keep the
            # head's projected width (an ellipsoid's), so a helmet stays a dome face-on
            pts, hc = p["pts"], p["wrap"]
            sx = math.sqrt(c * c + (0.92 * sn) ** 2)
            sx = sx if c >= 0 else -sx
            loc = np.stack([hc[0] * c + z * sn + (pts[:, 0] - hc[0]) * sx, pts[:, 1]], 1)
            xc = hc[0]
        elif p["kind"] == "poly":
            pts = p["pts"]
            loc = np.stack([pts[:, 0] * c + z * sn, pts[:, 1]], 1)
            xc = pts[:, 0].mean()
        elif p["kind"] == "cap":
            q0 = np.array([p["p0"][0] * c + z * sn, p["p0"][1]])
            q1 = np.array([p["p1"][0] * c + z * sn, p["p1"][1]])
            loc = capsule_local(q0, q1, p["r0"], p["r1"])
            xc = 0.5 * (p["p0"][0] + p["p1"][0])
        else:
            cc = p["c"]
            sx = math.sqrt((p["rx"] * c) ** 2 + (p["rz"] * sn) ** 2) / max(p["rx"], 1e-6)
            sx = sx if c >= 0 else -sx
            loc = ellipse_local(cc[0] * c + z * sn, cc[1], p["rx"], p["ry"], p["rot"], sx)
            xc = cc[0]
        depth = -xc * sn + z * c + p.get("bias", 0.0)
        if spin:
            v = loc - np.asarray(pivot)
            cs, ss_ = math.cos(spin), math.sin(spin)
            loc = np.stack([v[:, 0] * cs + v[:, 1] * ss_, -v[:, 0] * ss_ + v[:, 1] * cs], 1) + pivot
        scr = np.stack([root[0] + s * loc[:, 0], root[1] - s * loc[:, 1]], 1)
        col = p["col"]
        if p.get("limb"):
            far = np.clip(-math.copysign(1.0, z) * c, 0, 1)
            col = col * (1 - 0.17 * far)
        out.append(dict(pts=scr, col=col, depth=depth, order=i, detail=p.get("detail", False),
                        opacity=p.get("opacity", 1.0), soft=p.get("soft", 0.0)))
    out.sort(key=lambda q: (q["depth"], q["order"]))
    return out


# ============================================================================ raster + styles

LIGHT = np.array([-0.55, -0.62, 0.56]);  LIGHT /= np.linalg.norm(LIGHT)
HALFV = LIGHT + np.array([0, 0, 1.0]);   HALFV /= np.linalg.norm(HALFV)
INK = C(28, 22, 34)
PAPER_EDGE = C(238, 232, 214)


def dome(mask):
    d = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    R = max(float(d.max()), 1.0)
    u = np.minimum(d / R, 1.0)
    hgt = R * np.sqrt(np.clip(1 - (1 - u) ** 2, 0, 1))
    gy, gx = np.gradient(hgt)
    nz = 1.0 / np.sqrt(gx * gx + gy * gy + 1.0)
    nx, ny = -gx * nz, -gy * nz
    lam = np.clip(nx * LIGHT[0] + ny * LIGHT[1] + nz * LIGHT[2], 0, 1)
    spec = np.clip(nx * HALFV[0] + ny * HALFV[1] + nz * HALFV[2], 0, 1)
    return d, lam.astype(np.float32), spec.astype(np.float32)


def render_chars(plist, W, H, ss, style, tex_origin):
    """Screen polygons -> (x0, y0, prem (h, w, 3), alpha (h, w)) at final resolution."""
    if not plist:
        return None
    allp = np.concatenate([p["pts"] for p in plist])
    pad = 4
    x0 = max(0, int(math.floor(allp[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(allp[:, 1].min())) - pad)
    x1 = min(W, int(math.ceil(allp[:, 0].max())) + pad)
    y1 = min(H, int(math.ceil(allp[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return None
    ch, cw = (y1 - y0) * ss, (x1 - x0) * ss
    prem = np.zeros((ch, cw, 3), np.float32)
    alp = np.zeros((ch, cw), np.float32)
    ink_r = int(round(1.15 * ss))
    shadow = (int(round(0.9 * ss)), int(round(1.3 * ss)))
    pad_ss = ink_r + 2 * ss + 2
    tox, toy = int(round(tex_origin[0] * ss)), int(round(tex_origin[1] * ss))
    kern = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ink_r + 1, 2 * ink_r + 1))
    for pr in plist:
        p = (pr["pts"] - [x0, y0]) * ss - 0.5
        sx0 = max(0, int(math.floor(p[:, 0].min())) - pad_ss)
        sy0 = max(0, int(math.floor(p[:, 1].min())) - pad_ss)
        sx1 = min(cw, int(math.ceil(p[:, 0].max())) + pad_ss)
        sy1 = min(ch, int(math.ceil(p[:, 1].max())) + pad_ss)
        if sx1 <= sx0 or sy1 <= sy0:
            continue
        m = np.zeros((sy1 - sy0, sx1 - sx0), np.uint8)
        cv2.fillPoly(m, [np.round((p - [sx0, sy0]) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
        if not m.any():
            continue
        P = prem[sy0:sy1, sx0:sx1]
        A = alp[sy0:sy1, sx0:sx1]
        col = np.asarray(pr["col"], np.float32)
        hh, ww = m.shape
        if pr["soft"] > 0:   # soft-edged see-through blobs (embers): blur the mask
            k = cv2.GaussianBlur(m.astype(np.float32), (0, 0), pr["soft"] * ss) * pr["opacity"]
            P *= (1 - k)[..., None]
            P += col * k[..., None]
            A *= (1 - k)
            A += k
            continue
        if pr["detail"]:
            rgb = np.broadcast_to(col, (hh, ww, 3))
        else:
            gX, gY = x0 * ss + sx0, y0 * ss + sy0
            if style == "paper":
                # drop shadow of this card on the cards below it
                sh = np.zeros_like(m)
                dx, dy = shadow
                sh[dy:, dx:] = m[:hh - dy, :ww - dx]
                dark = (sh > 0) & (m == 0) & (A > 0.5)
                P[dark] *= 0.68
                d = cv2.distanceTransform(m, cv2.DIST_L2, 5)
                grain = tex_at(TEX_FINE, gY - toy, gX - tox, hh, ww)
                ramp = 1.0 + 0.05 * np.clip(1 - (gY + np.arange(hh)[:, None] - toy) / (400.0 * ss), -1, 1)
                body = col * (ramp * (1 + 0.025 * grain))[..., None]
                edge = (d <= 1.1 * ss)[..., None]
                rgb = np.where(edge, PAPER_EDGE * (1 + 0.02 * grain[..., None]), body)
            elif style == "clay":
                d, lam, spec = dome(m)
                pr_t = tex_at(TEX_PRINT, gY - toy, gX - tox, hh, ww)
                fn = tex_at(TEX_FINE, gY - toy, gX - tox, hh, ww)
                shade = (0.40 + 0.72 * lam) * (1 + 0.045 * pr_t + 0.03 * fn)
                rgb = col * shade[..., None] + (0.20 * spec ** 28)[..., None]
            else:  # comic
                dil = cv2.dilate(m, kern)
                ki = dil.astype(np.float32)
                P *= (1 - ki)[..., None]
                P += INK * ki[..., None]
                A *= (1 - ki)
                A += ki
                d, lam, spec = dome(m)
                per = 6.0 * ss
                X = (gX + np.arange(ww))[None, :].astype(np.float32)
                Y = (gY + np.arange(hh))[:, None].astype(np.float32)
                u = (X + Y) / (1.41421356 * per)
                v = (X - Y) / (1.41421356 * per)
                fu, fv = u - np.round(u), v - np.round(v)
                r = np.sqrt(fu * fu + fv * fv)
                dark = np.clip((0.62 - lam) / 0.62, 0, 1)
                dot = r < 0.62 * np.sqrt(dark)
                rgb = np.where(dot[..., None], col * 0.62, col)
                rgb = np.where((lam > 0.93)[..., None], np.minimum(col * 1.12 + 0.05, 1), rgb)
        k = m.astype(np.float32) * pr["opacity"]
        P *= (1 - k)[..., None]
        P += np.clip(rgb, 0, 1) * k[..., None]
        A *= (1 - k)
        A += k
    w, h = x1 - x0, y1 - y0
    prem_d = cv2.resize(prem, (w, h), interpolation=cv2.INTER_AREA)
    alp_d = cv2.resize(alp, (w, h), interpolation=cv2.INTER_AREA)
    return x0, y0, prem_d, alp_d


# ============================================================================ rig

BASE = dict(lean=0.03, head=0.0, th_n=0.10, kn_n=0.06, th_f=-0.07, kn_f=0.05, ft_n=0.0,
            ft_f=0.0, ua_n=0.12, el_n=0.28, ua_f=-0.05, el_f=0.22, theta=0.0, spin=0.0,
            lift=0.0, x=0.0, breath=1.0, prop=0.0, prop_f=0.0, sway=0.0)

DIMS = dict(thigh=0.22, shin=0.215, foot=0.085, foot_h=0.032, r_th=0.05, r_kn=0.038,
            r_an=0.03, torso=0.27, r_hip=0.085, r_chest=0.095, neck=0.035, head_r=0.1,
            upper=0.15, fore=0.14, r_up=0.036, r_el=0.03, r_wr=0.026, hand_r=0.034, zs=0.065,
            zl=0.04)


def skeleton(D, P, h):
    L = {k: D["dims"].get(k, v) * h for k, v in DIMS.items()}
    J = dict(L=L)
    feet_min = 1e9
    for sd in ("n", "f"):
        a, k = P["th_" + sd], P["kn_" + sd]
        knee = L["thigh"] * dirv(a)
        ank = knee + L["shin"] * dirv(a - k)
        fa = P["ft_" + sd]
        heel = ank + rot2([-0.28 * L["foot"], -L["foot_h"]], fa)
        toe = ank + rot2([L["foot"], -L["foot_h"]], fa)
        feet_min = min(feet_min, heel[1], toe[1])
        J["knee_" + sd], J["ank_" + sd], J["heel_" + sd], J["toe_" + sd] = knee, ank, heel, toe
    dy = -feet_min + P["lift"] * h
    for key in list(J):
        if key != "L":
            J[key] = J[key] + [0, dy]
    hip = np.array([0.0, dy])
    J["hip"] = hip
    lean = P["lean"]
    tdir = np.array([math.sin(lean), math.cos(lean)])
    J["neck"] = hip + L["torso"] * P["breath"] * tdir
    J["shoulder"] = hip + 0.86 * L["torso"] * P["breath"] * tdir
    ha = lean + P["head"]
    J["head"] = J["neck"] + (L["neck"] + L["head_r"]) * np.array([math.sin(ha), math.cos(ha)])
    J["head_ang"] = ha
    for sd in ("n", "f"):
        u, e = P["ua_" + sd], P["el_" + sd]
        el = J["shoulder"] + L["upper"] * dirv(u)
        wr = el + L["fore"] * dirv(u + e)
        J["elbow_" + sd], J["wrist_" + sd], J["fore_ang_" + sd] = el, wr, u + e
    return J


def head_pt(J, dx, dy):
    """A point on the head, in head units rotated with the head."""
    r = J["L"]["head_r"]
    return J["head"] + rot2([dx * r, dy * r], -J["head_ang"])


def humanoid(D, P, h):
    J = skeleton(D, P, h)
    L, col = J["L"], D["col"]
    zs, zl = L["zs"], L["zl"]
    prims = []
    for sd, z in (("f", -1), ("n", 1)):
        zz = z * zl
        prims.append(cap(J["hip"], J["knee_" + sd], L["r_th"], L["r_kn"], zz, col["pants"], limb=True))
        prims.append(cap(J["knee_" + sd], J["ank_" + sd], L["r_kn"], L["r_an"], zz,
                         col.get("shin", col["pants"]), limb=True, bias=0.001))
        a = J["ank_" + sd]
        fa = P["ft_" + sd]
        fp = [a + rot2(v, fa) for v in ([-0.3 * L["foot"], 0.2 * L["foot_h"]],
                                        [0.35 * L["foot"], 0.55 * L["foot_h"]],
                                        [1.05 * L["foot"], -0.45 * L["foot_h"]],
                                        [1.0 * L["foot"], -L["foot_h"]],
                                        [-0.3 * L["foot"], -L["foot_h"]])]
        prims.append(poly(fp, zz, col["boots"], limb=True, bias=0.002))
    prims.append(cap(J["hip"], J["neck"], L["r_hip"], L["r_chest"], 0.0, col["shirt"]))
    prims.append(ell(J["hip"] + [0.004 * h, 0.01 * h], L["r_hip"] * 1.12, L["r_hip"] * 0.8, 0.0,
                     col.get("belt", col["pants"]), bias=0.00005))
    prims.append(ell(J["head"], L["head_r"], L["head_r"] * D.get("head_ry", 1.05), 0.0,
                     col["skin"], rot=-J["head_ang"] * 0.5, rz=L["head_r"] * 0.92, bias=0.0001))
    for sd, z in (("f", -1), ("n", 1)):
        zz = z * zs + 0.003 * z
        prims.append(cap(J["shoulder"], J["elbow_" + sd], L["r_up"], L["r_el"], zz,
                         col.get("sleeve", col["shirt"]), limb=True))
        prims.append(cap(J["elbow_" + sd], J["wrist_" + sd], L["r_el"], L["r_wr"], zz,
                         col.get("arm", col["skin"]), limb=True, bias=0.001))
        prims.append(ell(J["wrist_" + sd] + 0.5 * L["hand_r"] * dirv(J["fore_ang_" + sd]),
                         L["hand_r"], L["hand_r"] * 0.9, zz, col.get("hand", col["skin"]),
                         limb=True, bias=0.002))
    # eyes: near and far, on the head's surface; hidden by depth when on the far side
    for z in (1, -1):
        prims.append(ell(head_pt(J, 0.55, 0.12), 0.13 * L["head_r"], 0.17 * L["head_r"],
                         z * 0.42 * L["head_r"], col.get("eye", C(30, 24, 28)), detail=True,
                         bias=0.0005))
    for f in D.get("extras", []):
        prims += f(J, D, P, h)
    return prims, J


# ---------------------------------------------------------------------------- extras

def x_snout(J, D, P, h):
    L, col = J["L"], D["col"]
    pts = [head_pt(J, *v) for v in ((0.3, 0.25), (1.75, -0.32), (1.78, -0.55), (1.0, -0.72), (0.2, -0.6))]
    nose = head_pt(J, 1.72, -0.38)
    ears = []
    for z in (-1, 1):
        e = [head_pt(J, *v) for v in ((-0.55, 0.65), (-0.15, 1.85), (0.35, 0.8))]
        ears.append(poly(e, z * 0.35 * L["head_r"], col["hair"], bias=-0.0002 * (1 - z)))
    chin = poly([head_pt(J, *v) for v in ((0.15, -0.25), (1.2, -0.6), (0.9, -0.85), (0.0, -0.8))],
                0.0, col["cream"], bias=0.0008)
    return [poly(pts, 0.0, col["skin"], bias=0.0006), chin,
            ell(nose, 0.16 * L["head_r"], 0.13 * L["head_r"], 0.0, C(25, 20, 22), detail=True,
                bias=0.001)] + ears


def x_tail(J, D, P, h):
    col = D["col"]
    base = J["hip"] + [-0.06 * h, 0.02 * h]
    sw = P["sway"]
    pts, prims = [base], []
    a = 2.3 + 0.25 * sw
    r = [0.05, 0.062, 0.066, 0.058, 0.042]
    for i in range(4):
        a += 0.25 + 0.12 * sw
        pts.append(pts[-1] + 0.09 * h * np.array([-abs(math.sin(a)), -math.cos(a)]))
    for i in range(4):
        c_ = col["hair"] if i < 3 else col["cream"]
        prims.append(cap(pts[i], pts[i + 1], r[i] * h, r[i + 1] * h, 0.0, c_, bias=-0.5 * h + 0.0001 * i))
    return prims


def x_satchel(J, D, P, h):
    col, L = D["col"], J["L"]
    c0 = J["hip"] + [-0.02 * h, 0.02 * h] + 0.3 * (J["knee_n"] - J["hip"]) * [0.3, 0]
    strap = cap(J["shoulder"] + [0.02 * h, 0.02 * h], c0 + [0.03 * h, 0.03 * h], 0.012 * h, 0.012 * h,
                L["r_chest"] * 0.95, col["accent"])
    bag = poly([c0 + v for v in ([-0.07 * h, 0.05 * h], [0.07 * h, 0.05 * h], [0.065 * h, -0.055 * h],
                                 [-0.065 * h, -0.055 * h])], L["r_chest"] * 1.0, col["accent2"])
    flap = poly([c0 + v for v in ([-0.07 * h, 0.05 * h], [0.07 * h, 0.05 * h], [0.05 * h, 0.0],
                                  [-0.05 * h, 0.0])], L["r_chest"] * 1.0 + 0.001, col["accent"])
    return [strap, bag, flap]


def x_helmet(J, D, P, h):
    col, L = D["col"], J["L"]
    dome_ = poly([head_pt(J, *v) for v in ((-1.08, 0.1), (-0.95, 0.75), (-0.3, 1.12), (0.45, 1.05),
                                             (1.05, 0.4), (1.25, 0.05), (-1.0, -0.25))],
                 0.0, col["metal"], bias=0.0009, wrap=J["head"])
    plume = [head_pt(J, -0.2, 1.0)]
    for i in range(4):
        plume.append(plume[-1] + 0.045 * h * np.array([-math.cos(0.5 + 0.25 * i + 0.2 * P["sway"]),
                                                       math.sin(0.9 - 0.35 * i)]))
    prims = [dome_]
    for i in range(4):
        prims.append(cap(plume[i], plume[i + 1], (0.03 - 0.004 * i) * h, (0.026 - 0.004 * i) * h,
                         0.0, col["accent"], bias=-0.001 + 0.0001 * i))
    return prims


def x_ponytail(J, D, P, h):
    col, L = D["col"], J["L"]
    cap_ = poly([head_pt(J, *v) for v in ((-1.08, 0.0), (-0.9, 0.8), (-0.1, 1.12), (0.8, 0.85),
                                           (1.05, 0.45), (0.55, 0.3), (-0.2, 0.05), (-0.75, -0.35))],
                0.0, col["hair"], bias=0.0009, wrap=J["head"])
    pts = [head_pt(J, -0.9, 0.3)]
    back = D.get("tail_back", 0.0)
    for i in range(5):
        a = -1.15 + 0.22 * i - back + 0.18 * P["sway"] * (i + 1) / 5
        pts.append(pts[-1] + 0.042 * h * dirv(a))
    out = [cap_]
    for i in range(5):
        out.append(cap(pts[i], pts[i + 1], (0.03 - 0.0035 * i) * h, (0.0265 - 0.0035 * i) * h,
                       0.0, col["hair"], bias=-0.001))
    brim = poly([head_pt(J, *v) for v in ((0.4, 0.62), (1.55, 0.42), (1.5, 0.3), (0.5, 0.42))],
                0.0, col["accent"], bias=0.001)
    return out + [brim]


def x_hat_cap(J, D, P, h):
    col = D["col"]
    top = poly([head_pt(J, *v) for v in ((-1.05, 0.3), (-0.8, 1.0), (0.2, 1.2), (0.95, 0.8),
                                          (1.0, 0.45))], 0.0, col["accent"], bias=0.0009, wrap=J["head"])
    brim = poly([head_pt(J, *v) for v in ((0.6, 0.55), (1.75, 0.42), (1.72, 0.3), (0.6, 0.36))],
                0.0, col["accent"], bias=0.001)
    return [top, brim]


def x_witch(J, D, P, h):
    col, L = D["col"], J["L"]
    sw = P["sway"]
    brim = poly([head_pt(J, *v) for v in ((-2.0, 0.62), (2.1, 0.75), (2.05, 0.5), (-1.95, 0.38))],
                0.0, col["hat"], bias=0.001, wrap=J["head"])
    cone = [head_pt(J, -0.9, 0.6), head_pt(J, 0.95, 0.65)]
    tipb = head_pt(J, -0.2, 2.3)
    tip = tipb + 0.09 * h * np.array([-math.cos(0.3 * sw), -0.45])
    hat = poly([cone[0], cone[1], tipb + [0.02 * h, 0.0], tip], 0.0, col["hat"], bias=0.0011, wrap=J["head"])
    band = poly([head_pt(J, *v) for v in ((-0.9, 0.6), (0.95, 0.65), (0.88, 0.95), (-0.82, 0.92))],
                0.0, col["accent"], bias=0.0012, wrap=J["head"])
    hair = poly([head_pt(J, *v) for v in ((-1.05, 0.5), (-1.2, -0.6), (-1.6, -1.6), (-0.5, -0.9),
                                           (-0.3, 0.2))], 0.0, col["hair"], bias=-0.001)
    # robe from chest to ankles, hiding the legs
    ank = 0.5 * (J["ank_n"] + J["ank_f"])
    hem_w = 0.22 * h + 0.04 * h * abs(J["knee_n"][0] - J["knee_f"][0]) / (0.1 * h + 1e-6)
    robe = poly([J["shoulder"] + [-0.08 * h, 0.0], J["shoulder"] + [0.08 * h, 0.0],
                 [ank[0] + hem_w * 0.55 + 0.02 * h * sw, ank[1] + 0.02 * h],
                 [ank[0] - hem_w * 0.6 + 0.03 * h * sw, ank[1] + 0.025 * h]],
                0.0, col["robe"], bias=0.045 * h)
    return [brim, hat, band, hair, robe]


def x_beard(J, D, P, h):
    col, L = D["col"], J["L"]
    sw = P["sway"]
    b = poly([head_pt(J, *v) for v in ((0.25, -0.2), (1.0, -0.35), (0.9, -1.4),
                                        (0.55 + 0.2 * sw, -2.3), (0.1, -1.3), (-0.3, -0.6))],
             0.0, col["hair"], bias=0.0013)
    brow = poly([head_pt(J, *v) for v in ((0.3, 0.35), (1.05, 0.35), (1.0, 0.22), (0.35, 0.24))],
                0.0, col["hair"], bias=0.0014)
    hood = poly([head_pt(J, *v) for v in ((-1.25, -0.6), (-1.2, 0.6), (-0.5, 1.3), (0.5, 1.25),
                                           (1.0, 0.7), (0.5, 0.8), (-0.2, 0.5), (-0.5, -0.4))],
                0.0, col["robe"], bias=0.0012)
    ank = 0.5 * (J["ank_n"] + J["ank_f"])
    robe = poly([J["shoulder"] + [-0.09 * h, 0.02 * h], J["shoulder"] + [0.08 * h, 0.0],
                 [ank[0] + 0.12 * h + 0.015 * h * sw, ank[1] + 0.05 * h],
                 [ank[0] - 0.13 * h + 0.02 * h * sw, ank[1] + 0.05 * h]], 0.0, col["robe"], bias=0.045 * h)
    return [b, brow, hood, robe]


def x_monk(J, D, P, h):
    col, L = D["col"], J["L"]
    ank = 0.5 * (J["ank_n"] + J["ank_f"])
    robe = poly([J["shoulder"] + [-0.085 * h, 0.01 * h], J["shoulder"] + [0.085 * h, 0.0],
                 [ank[0] + 0.14 * h, ank[1] + 0.06 * h], [ank[0] - 0.12 * h, ank[1] + 0.06 * h]],
                0.0, col["robe"], bias=0.045 * h)
    sash = poly([J["shoulder"] + [0.07 * h, 0.0], J["shoulder"] + [0.02 * h, 0.03 * h],
                 J["hip"] + [-0.08 * h, -0.03 * h], J["hip"] + [-0.03 * h, -0.06 * h]],
                0.0, col["accent"], bias=0.046 * h)
    ear = ell(head_pt(J, -0.1, 0.0), 0.2 * L["head_r"], 0.28 * L["head_r"], 0.5 * L["head_r"],
              col["skin"], bias=0.0006, detail=True)
    return [robe, sash, ear]


def x_boxer(J, D, P, h):
    col, L = D["col"], J["L"]
    band = poly([head_pt(J, *v) for v in ((-1.05, 0.35), (1.0, 0.45), (1.0, 0.2), (-1.05, 0.08))],
                0.0, col["accent"], bias=0.001)
    knot = [head_pt(J, -1.0, 0.25)]
    for i in range(2):
        knot.append(knot[-1] + 0.05 * h * np.array([-0.8, -0.5 - 0.4 * i + 0.3 * P["sway"]]))
    tails = [cap(knot[i], knot[i + 1], 0.014 * h, 0.011 * h, -0.3 * L["head_r"], col["accent"])
             for i in range(2)]
    shorts = poly([J["hip"] + [-0.1 * h, 0.03 * h], J["hip"] + [0.1 * h, 0.03 * h],
                   0.5 * (J["hip"] + J["knee_n"]) + [0.07 * h, 0], 0.5 * (J["hip"] + J["knee_f"]) + [-0.08 * h, 0]],
                  0.0, col["shorts"], bias=0.045 * h)
    hair = poly([head_pt(J, *v) for v in ((-1.05, 0.2), (-0.7, 1.0), (0.2, 1.15), (0.9, 0.7),
                                           (1.0, 0.45))], 0.0, col["hair"], bias=0.0009)
    return [hair, band, shorts] + tails


def x_frog(J, D, P, h):
    col, L = D["col"], J["L"]
    eyes = []
    for z in (1, -1):
        c0 = head_pt(J, 0.35, 0.85)
        eyes.append(ell(c0, 0.42 * L["head_r"], 0.42 * L["head_r"], z * 0.5 * L["head_r"],
                        col["skin"], bias=0.0007))
        eyes.append(ell(head_pt(J, 0.55, 0.9), 0.2 * L["head_r"], 0.24 * L["head_r"],
                        z * 0.5 * L["head_r"] + 0.0001, C(20, 16, 14), detail=True, bias=0.0009))
    mouth = poly([head_pt(J, *v) for v in ((0.0, -0.35), (1.12, -0.2), (1.1, -0.28), (0.0, -0.45))],
                 0.0, C(60, 20, 30), detail=True, bias=0.001)
    spots = [ell(J["hip"] + [0.01 * h, 0.16 * h], 0.03 * h, 0.025 * h, L["r_chest"] * 0.9,
                 C(20, 18, 26), detail=True), ell(J["hip"] + [-0.04 * h, 0.09 * h], 0.022 * h, 0.02 * h,
                                                 L["r_chest"] * 0.9, C(20, 18, 26), detail=True)]
    belly = ell(J["hip"] + [0.05 * h, 0.1 * h], 0.05 * h, 0.09 * h, L["r_chest"] * 0.8, col["cream"])
    return eyes + [mouth, belly] + spots


def x_golem(J, D, P, h):
    col, L = D["col"], J["L"]
    cracks = []
    for a, b in (((0.02, 0.2), (0.06, 0.12)), ((-0.05, 0.1), (0.0, 0.02))):
        p0 = J["hip"] + np.array(a) * h
        p1 = J["hip"] + np.array(b) * h
        cracks.append(cap(p0, p1, 0.008 * h, 0.006 * h, L["r_chest"] * 1.0, col["glow"], detail=True))
    shoulder_rock = ell(J["shoulder"] + [0.0, 0.02 * h], 0.08 * h, 0.06 * h, L["zs"] + 0.01 * h,
                        col["rock2"], rot=0.3)
    brow = poly([head_pt(J, *v) for v in ((-0.6, 0.55), (1.1, 0.55), (1.1, 0.25), (-0.6, 0.3))],
                0.0, col["rock2"], bias=0.001)
    eyeglow = ell(head_pt(J, 0.75, 0.05), 0.16 * L["head_r"], 0.1 * L["head_r"], 0.4 * L["head_r"],
                  col["glow"], detail=True, bias=0.0015)
    return cracks + [shoulder_rock, brow, eyeglow]


def x_kobold(J, D, P, h):
    col, L = D["col"], J["L"]
    snout = poly([head_pt(J, *v) for v in ((0.3, 0.3), (1.6, -0.05), (1.62, -0.4), (0.4, -0.6))],
                 0.0, col["skin"], bias=0.0006)
    horns = [poly([head_pt(J, *v) for v in ((-0.6, 0.7), (-1.7, 1.3), (-0.2, 0.95))], z * 0.3 * L["head_r"],
                  col["horn"], bias=-0.0002 * (1 - z)) for z in (1, -1)]
    vest = poly([J["shoulder"] + [-0.08 * h, 0.01 * h], J["shoulder"] + [0.08 * h, 0.0],
                 J["hip"] + [0.09 * h, 0.02 * h], J["hip"] + [-0.09 * h, 0.02 * h]],
                L["r_chest"] * 0.5, col["vest"])
    tail = [cap(J["hip"] + [-0.05 * h, 0.0], J["hip"] + [-0.2 * h, -0.1 * h + 0.02 * h * P["sway"]],
                0.04 * h, 0.015 * h, -0.02 * h, col["skin"])]
    return [snout, vest] + horns + tail


def x_quiver(J, D, P, h):
    col, L = D["col"], J["L"]
    t = J["shoulder"] + [-0.09 * h, 0.02 * h]
    b = J["hip"] + [-0.1 * h, 0.04 * h]
    q = cap(t, b, 0.035 * h, 0.03 * h, -0.02 * h, col["accent2"])
    fl = [poly([t + [i * 0.02 * h - 0.02 * h, 0], t + [i * 0.02 * h - 0.035 * h, 0.06 * h],
                t + [i * 0.02 * h - 0.005 * h, 0.055 * h]], -0.021 * h + 0.0001 * i, col["fletch"])
          for i in range(3)]
    hood = poly([head_pt(J, *v) for v in ((-1.15, -0.5), (-1.05, 0.7), (-0.2, 1.2), (0.7, 1.05),
                                           (1.05, 0.55), (0.5, 0.7), (-0.3, 0.45), (-0.6, -0.6))],
                0.0, col["accent"], bias=0.0012)
    return [q, hood] + fl


def x_postman(J, D, P, h):
    col, L = D["col"], J["L"]
    out = x_hat_cap(J, D, P, h)
    # parcel tucked under the far arm
    c0 = J["hip"] + [-0.1 * h, 0.1 * h]
    out.append(poly([c0 + v for v in ([-0.075 * h, 0.06 * h], [0.075 * h, 0.06 * h], [0.075 * h, -0.06 * h],
                                      [-0.075 * h, -0.06 * h])], -L["zs"] + 0.002, col["parcel"]))
    out.append(poly([c0 + v for v in ([-0.075 * h, 0.008 * h], [0.075 * h, 0.008 * h], [0.075 * h, -0.008 * h],
                                      [-0.075 * h, -0.008 * h])], -L["zs"] + 0.0025, col["accent2"],
                    detail=True))
    out += x_satchel(J, D, P, h)
    mo = poly([head_pt(J, *v) for v in ((0.75, -0.3), (1.1, -0.3), (1.1, -0.45), (0.7, -0.42))],
              0.0, col["hair"], detail=True, bias=0.0011)
    return out + [mo]


def x_shaman(J, D, P, h):
    col, L = D["col"], J["L"]
    mask = poly([head_pt(J, *v) for v in ((-0.2, 0.9), (1.15, 0.55), (1.2, -0.5), (0.3, -1.0),
                                           (-0.1, -0.2))], 0.0, col["mask"], bias=0.001)
    slit = poly([head_pt(J, *v) for v in ((0.45, 0.22), (1.0, 0.15), (0.98, 0.02), (0.45, 0.08))],
                0.0, C(30, 20, 20), detail=True, bias=0.0012)
    feathers = [slit]
    for i in range(4):
        p0 = head_pt(J, -0.4 + 0.25 * i, 0.9)
        p1 = p0 + 0.14 * h * np.array([-0.5 + 0.18 * i + 0.05 * P["sway"], 1.0])
        feathers.append(cap(p0, p1, 0.016 * h, 0.008 * h, -0.001 + 0.0002 * i,
                            col["feather"] if i % 2 else col["accent"]))
    ank = 0.5 * (J["ank_n"] + J["ank_f"])
    skirt = poly([J["hip"] + [-0.1 * h, 0.05 * h], J["hip"] + [0.1 * h, 0.05 * h],
                  [ank[0] + 0.1 * h, J["knee_n"][1] - 0.02 * h], [ank[0] - 0.11 * h, J["knee_f"][1] - 0.02 * h]],
                 0.0, col["robe"], bias=0.045 * h)
    return [mask, skirt] + feathers


# ---------------------------------------------------------------------------- props

def prop_sword(base, a, z, h, col, length=0.40):
    d = dirv(a)
    n = np.array([-d[1], d[0]])
    g0, g1 = base - 0.035 * h * d, base + 0.035 * h * d
    tip = base + length * h * d
    b0 = base + 0.05 * h * d
    blade = poly([b0 + 0.016 * h * n, b0 + (length - 0.07) * h * d + 0.014 * h * n, tip,
                  b0 + (length - 0.07) * h * d - 0.014 * h * n, b0 - 0.016 * h * n], z, col["blade"])
    guard = cap(b0 - 0.045 * h * n, b0 + 0.045 * h * n, 0.011 * h, 0.011 * h, z + 0.0001, col["guard"])
    grip = cap(g0, g1, 0.012 * h, 0.012 * h, z - 0.0001, col["grip"])
    return [grip, blade, guard]


def prop_club(base, a, z, h, col):
    d = dirv(a)
    return [cap(base - 0.03 * h * d, base + 0.36 * h * d, 0.022 * h, 0.055 * h, z, col["club"]),
            ell(base + 0.25 * h * d + 0.04 * h * np.array([-d[1], d[0]]), 0.015 * h, 0.015 * h, z + 0.0001,
                col["stud"], detail=True),
            ell(base + 0.31 * h * d - 0.04 * h * np.array([-d[1], d[0]]), 0.015 * h, 0.015 * h, z + 0.0001,
                col["stud"], detail=True)]


def prop_pike(base, a, z, h, col, below=0.55, above=0.75):
    d = dirv(a)
    n = np.array([-d[1], d[0]])
    t = base + above * h * d
    head_ = poly([t - 0.02 * h * n, t + 0.02 * h * n, t + 0.14 * h * d], z + 0.0001, col["blade"])
    shaft = cap(base - below * h * d, t, 0.011 * h, 0.011 * h, z, col["grip"])
    tassel = cap(t - 0.01 * h * d, t - 0.06 * h * d + 0.03 * h * n, 0.012 * h, 0.006 * h, z + 0.0002,
                 col["accent"])
    return [shaft, head_, tassel]


def prop_dagger(base, a, z, h, col):
    return prop_sword(base, a, z, h, col, length=0.2)


def prop_wand(base, a, z, h, col):
    d = dirv(a)
    return [cap(base - 0.02 * h * d, base + 0.2 * h * d, 0.009 * h, 0.005 * h, z, col["wand"]),
            ell(base + 0.21 * h * d, 0.018 * h, 0.018 * h, z + 0.0001, col["gem"])]


def prop_staff(base, a, z, h, col, below=0.42):
    d = dirv(a)
    top = base + 0.5 * h * d
    return [cap(base - below * h * d, top, 0.014 * h, 0.012 * h, z, col["wood"]),
            ell(top + 0.035 * h * d, 0.045 * h, 0.045 * h, z + 0.0001, col["orb"]),
            cap(top - 0.03 * h * np.array([-d[1], d[0]]), top + 0.03 * h * np.array([-d[1], d[0]]),
                0.01 * h, 0.01 * h, z + 0.0002, col["accent"])]


def prop_hammer(base, a, z, h, col):
    d = dirv(a)
    n = np.array([-d[1], d[0]])
    top = base + 0.34 * h * d
    return [cap(base - 0.04 * h * d, top, 0.013 * h, 0.013 * h, z, col["wood"]),
            poly([top - 0.08 * h * n - 0.03 * h * d, top + 0.08 * h * n - 0.03 * h * d,
                  top + 0.08 * h * n + 0.06 * h * d, top - 0.08 * h * n + 0.06 * h * d], z + 0.0001,
                 col["metal"])]


def prop_bow(base, a, z, h, col):
    d = dirv(a)
    n = np.array([-d[1], d[0]])
    pts_o, pts_i = [], []
    for s in np.linspace(-1, 1, 15):
        bend = 0.09 * h * (1 - s * s)
        pts_o.append(base + 0.3 * h * s * d + (bend + 0.011 * h) * n)
        pts_i.append(base + 0.3 * h * s * d + (bend - 0.005 * h) * n)
    limb = poly(pts_o + pts_i[::-1], z, col["wood"])
    string = cap(base - 0.3 * h * d, base + 0.3 * h * d, 0.0035 * h, 0.0035 * h, z - 0.0001, col["string"],
                 detail=True)
    return [string, limb]


def prop_beads(base, a, z, h, col, swing=0.0):
    out = []
    for i in range(7):
        ang = -0.9 + 0.3 * i + swing
        p = base + 0.06 * h * np.array([0.6 * math.sin(ang), -0.7 - 0.5 * math.cos(ang)])
        out.append(ell(p, 0.012 * h, 0.012 * h, z + 0.0001 * i, col["bead"]))
    return out


def prop_scimitar(base, a, z, h, col):
    d = dirv(a)
    n = np.array([-d[1], d[0]])
    pts = []
    for s in np.linspace(0, 1, 10):
        pts.append(base + (0.05 + 0.33 * s) * h * d + (0.05 * h * s * s + 0.02 * h * (1 - s)) * n)
    back = [base + (0.05 + 0.33 * s) * h * d + 0.045 * h * s * s * n - 0.018 * h * (1 - s) * n
            for s in np.linspace(1, 0, 10)]
    return [cap(base - 0.03 * h * d, base + 0.04 * h * d, 0.012 * h, 0.012 * h, z - 0.0001, col["grip"]),
            poly(pts + back, z, col["blade"])]


# ============================================================================ motion

def sm(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


def keyed(u, keys):
    """Interpolate pose dicts at keys [(u, dict)], smoothstep between neighbours."""
    if u <= keys[0][0]:
        return dict(keys[0][1])
    for (ua, A), (ub, B) in zip(keys, keys[1:]):
        if u <= ub:
            w = sm((u - ua) / max(ub - ua, 1e-9))
            return {k: A[k] + (B[k] - A[k]) * w for k in A}
    return dict(keys[-1][1])


def pose(**kw):
    p = dict(BASE)
    p.update(kw)
    return p


def walk(t, T=28.0, amp=1.0, arm=1.0):
    f = TAU * t / T
    p = dict(BASE)
    p.update(th_n=0.42 * amp * math.sin(f), th_f=0.42 * amp * math.sin(f + PI),
             kn_n=0.08 + 0.62 * amp * max(0.0, math.cos(f)) ** 1.3,
             kn_f=0.08 + 0.62 * amp * max(0.0, math.cos(f + PI)) ** 1.3,
             ft_n=0.22 * max(0.0, math.sin(f)) - 0.15 * max(0.0, -math.sin(f)),
             ft_f=0.22 * max(0.0, -math.sin(f)) - 0.15 * max(0.0, math.sin(f)),
             ua_n=-0.38 * arm * math.sin(f), ua_f=-0.38 * arm * math.sin(f + PI),
             el_n=0.3 + 0.15 * max(0.0, -math.sin(f)), el_f=0.3 + 0.15 * max(0.0, math.sin(f)),
             lean=0.07, head=-0.03 + 0.02 * math.sin(2 * f), sway=math.sin(f + 1.0))
    return p


def run(t, T=16.0):
    f = TAU * t / T
    p = dict(BASE)
    p.update(th_n=0.7 * math.sin(f), th_f=0.7 * math.sin(f + PI),
             kn_n=0.25 + 1.2 * max(0.0, math.cos(f)) ** 1.2,
             kn_f=0.25 + 1.2 * max(0.0, math.cos(f + PI)) ** 1.2,
             ft_n=0.3 * math.sin(f), ft_f=0.3 * math.sin(f + PI),
             ua_n=-0.7 * math.sin(f), ua_f=-0.7 * math.sin(f + PI), el_n=1.45, el_f=1.45,
             lean=0.24, head=-0.12, lift=0.03 * max(0.0, math.cos(2 * f)), sway=math.sin(f))
    return p


def idle(t, T=28.0, amp=1.0):
    f = TAU * t / T
    p = dict(BASE)
    p.update(lean=0.03 + 0.02 * amp * math.sin(f), breath=1.0 + 0.015 * amp * math.sin(f),
             ua_n=0.12 + 0.07 * amp * math.sin(f - 0.6), el_n=0.28 + 0.1 * amp * math.sin(f - 0.4),
             ua_f=-0.05 - 0.06 * amp * math.sin(f - 0.6), el_f=0.22 + 0.08 * amp * math.sin(f - 0.3),
             kn_n=0.06 + 0.05 * amp * (1 - math.cos(f)), kn_f=0.05 + 0.05 * amp * (1 - math.cos(f)),
             head=0.05 * amp * math.sin(f - 0.9), sway=math.sin(f))
    return p


def arm_ik(S, T, Lu, Lf):
    d = T - S
    dist = float(np.clip(np.hypot(*d), 1e-6, (Lu + Lf) * 0.999))
    a0 = math.atan2(d[0], -d[1])
    cb = np.clip((Lu * Lu + dist * dist - Lf * Lf) / (2 * Lu * dist), -1, 1)
    cg = np.clip((Lu * Lu + Lf * Lf - dist * dist) / (2 * Lu * Lf), -1, 1)
    return a0 - math.acos(cb), PI - math.acos(cg)


# ============================================================================ footage

class Screen:
    def __init__(self, W, H, key, seed, grad=0.08, vig=0.18, flicker=0.012, grain=2.0,
                 hot=(0.35, 0.3, 0.06)):
        self.W, self.H, self.key = W, H, np.asarray(key, np.float32)
        self.grad, self.vig, self.flicker, self.grain, self.hot = grad, vig, flicker, grain, hot
        self.rng = np.random.default_rng(seed)

    def frame(self, t, zoom=1.0, pivot=None, pan=(0.0, 0.0)):
        W, H = self.W, self.H
        px, py = pivot if pivot is not None else (W / 2, H / 2)
        xs = (np.arange(W, dtype=np.float32) - px) / zoom + px + pan[0]
        ys = (np.arange(H, dtype=np.float32) - py) / zoom + py + pan[1]
        X, Y = xs[None, :] / W, ys[:, None] / H
        g = 1 + self.grad * (0.5 - Y) + 0.04 * (X - 0.5)
        r2 = (X - 0.5) ** 2 + (Y - 0.5) ** 2
        g = g * (1 - self.vig * r2 * 2)
        hx, hy, hs = self.hot
        g = g + hs * np.exp(-((X - hx) ** 2 + (Y - hy) ** 2) / 0.05)
        g = g * (1 + self.flicker * math.sin(1.7 * t) + self.flicker * 0.5 * self.rng.standard_normal())
        img = self.key[None, None, :] * g[..., None]
        # the key's hue drifts a little across the screen (yellower top left, bluer low right)
        img[..., 0] += 0.02 * (0.5 - X - Y + 0.5) * self.key[1]
        img[..., 2] += 0.02 * (X + Y - 1.0) * self.key[1]
        return np.clip(img, 0, 1).astype(np.float32)


def contact_shadow(img, cx, gy, w, strength):
    if strength <= 0.01:
        return img
    H, W = img.shape[:2]
    y0, y1 = max(0, int(gy - 3 * 0.18 * w)), min(H, int(gy + 3 * 0.18 * w) + 1)
    x0, x1 = max(0, int(cx - 1.6 * w)), min(W, int(cx + 1.6 * w) + 1)
    if y1 <= y0 or x1 <= x0:
        return img
    X = (np.arange(x0, x1) - cx)[None, :] / w
    Y = (np.arange(y0, y1) - gy)[:, None] / (0.18 * w)
    g = np.exp(-(X * X + Y * Y) * 1.2)
    img[y0:y1, x0:x1] *= (1 - strength * g)[..., None]
    return img


def light_wrap(truth8, scr, width, strength):
    a = truth8[..., 3].astype(np.float32) / 255.0
    rgb = truth8[..., :3].astype(np.float32) / 255.0
    inside = (a > 0.5).astype(np.uint8)
    d = cv2.distanceTransform(np.pad(inside, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    w = strength * np.exp(-np.maximum(d - 0.5, 0) / (width / 2.3))
    w = np.where(d <= 2.2 * width, w, 0).astype(np.float32)
    w = np.where(a > 0, np.maximum(w, strength * (a < 0.999)), 0)
    blur = cv2.GaussianBlur(scr, (0, 0), 2.0)
    ch = rgb * (1 - w[..., None]) + blur * w[..., None]
    return scr * (1 - a[..., None]) + ch * a[..., None]


# ============================================================================ cases

def design(style, col, extras, dims=None, **kw):
    d = dict(style=style, col=col, extras=extras, dims=dims or {})
    d.update(kw)
    return d


PAL = dict(
    fox=dict(skin=C(222, 110, 40), hair=C(200, 92, 34), cream=C(246, 236, 220), shirt=C(70, 90, 160),
             pants=C(88, 64, 50), boots=C(50, 36, 30), accent=C(150, 60, 40), accent2=C(190, 150, 90),
             sleeve=C(70, 90, 160), arm=C(222, 110, 40), hand=C(60, 44, 36)),
    pike=dict(skin=C(230, 186, 150), hair=C(80, 50, 30), shirt=C(160, 40, 44), pants=C(220, 206, 170),
              boots=C(70, 46, 36), metal=C(170, 176, 186), accent=C(240, 200, 60), blade=C(210, 216, 226),
              grip=C(110, 74, 44), sleeve=C(160, 40, 44)),
    troll=dict(skin=C(150, 128, 170), hair=C(70, 50, 80), shirt=C(120, 80, 50), pants=C(96, 70, 46),
               boots=C(80, 60, 70), club=C(140, 96, 58), stud=C(200, 200, 210), arm=C(150, 128, 170),
               sleeve=C(150, 128, 170), belt=C(70, 46, 30)),
    witch=dict(skin=C(246, 210, 190), hair=C(230, 120, 40), shirt=C(90, 50, 120), pants=C(60, 40, 80),
               boots=C(40, 30, 40), hat=C(60, 36, 96), accent=C(240, 190, 60), robe=C(110, 60, 150),
               wand=C(90, 60, 40), gem=C(250, 120, 200), sleeve=C(110, 60, 150)),
    runner=dict(skin=C(140, 96, 70), hair=C(30, 24, 22), shirt=C(230, 220, 60), pants=C(40, 60, 130),
                boots=C(230, 230, 235), accent=C(220, 60, 60), sleeve=C(230, 220, 60)),
    boxer=dict(skin=C(236, 190, 150), hair=C(40, 30, 30), shirt=C(236, 190, 150), pants=C(236, 190, 150),
               shorts=C(200, 30, 40), boots=C(240, 240, 240), accent=C(250, 250, 250), hand=C(220, 30, 40),
               sleeve=C(236, 190, 150), shin=C(236, 190, 150)),
    kobold=dict(skin=C(170, 70, 50), horn=C(235, 220, 190), shirt=C(170, 70, 50), pants=C(90, 70, 50),
                boots=C(60, 40, 30), vest=C(110, 80, 140), blade=C(200, 205, 215), guard=C(200, 160, 60),
                grip=C(70, 40, 30), sleeve=C(170, 70, 50), eye=C(250, 220, 60)),
    monk=dict(skin=C(210, 160, 120), hair=C(40, 30, 24), shirt=C(220, 130, 40), pants=C(220, 130, 40),
              boots=C(120, 80, 50), robe=C(226, 136, 44), accent=C(150, 40, 36), bead=C(120, 60, 40),
              sleeve=C(226, 136, 44)),
    sword=dict(skin=C(240, 200, 170), hair=C(40, 40, 60), shirt=C(40, 80, 170), pants=C(60, 50, 50),
               boots=C(90, 50, 30), accent=C(220, 50, 50), blade=C(220, 226, 236), guard=C(230, 180, 60),
               grip=C(90, 50, 30), sleeve=C(40, 80, 170)),
    post=dict(skin=C(236, 196, 160), hair=C(120, 70, 40), shirt=C(60, 90, 170), pants=C(50, 60, 100),
              boots=C(40, 30, 30), accent=C(34, 40, 84), accent2=C(160, 40, 40), parcel=C(196, 150, 100),
              sleeve=C(60, 90, 170)),
    sage=dict(skin=C(228, 190, 160), hair=C(236, 236, 240), shirt=C(90, 70, 130), pants=C(90, 70, 130),
              boots=C(80, 60, 50), robe=C(88, 66, 128), wood=C(120, 80, 50), orb=C(240, 200, 90),
              accent=C(200, 160, 60), sleeve=C(88, 66, 128)),
    dervish=dict(skin=C(190, 130, 90), hair=C(30, 24, 24), shirt=C(230, 230, 230), pants=C(200, 40, 60),
                 boots=C(70, 40, 30), blade=C(220, 226, 236), grip=C(120, 60, 30), sleeve=C(230, 230, 230),
                 accent=C(230, 180, 50)),
    shaman=dict(skin=C(150, 100, 70), hair=C(30, 20, 20), shirt=C(150, 100, 70), pants=C(120, 70, 40),
                boots=C(90, 50, 30), mask=C(236, 226, 200), feather=C(220, 60, 40), accent=C(240, 190, 60),
                robe=C(150, 60, 40), wood=C(110, 70, 40), orb=C(255, 150, 60), sleeve=C(150, 100, 70)),
    archer=dict(skin=C(240, 206, 176), hair=C(120, 60, 30), shirt=C(120, 50, 60), pants=C(110, 90, 60),
                boots=C(70, 50, 40), accent=C(150, 40, 50), accent2=C(120, 80, 50), wood=C(150, 100, 50),
                string=C(230, 230, 220), fletch=C(240, 240, 240), sleeve=C(120, 50, 60)),
    frog=dict(skin=C(40, 110, 220), cream=C(250, 200, 60), shirt=C(40, 110, 220), pants=C(40, 110, 220),
              boots=C(40, 110, 220), wood=C(120, 80, 50), metal=C(150, 150, 165), sleeve=C(40, 110, 220),
              arm=C(40, 110, 220), hand=C(40, 110, 220), shin=C(40, 110, 220)),
    golem=dict(skin=C(168, 156, 144), shirt=C(156, 146, 136), pants=C(146, 136, 126), boots=C(124, 116, 110),
               rock2=C(186, 174, 160), glow=C(255, 150, 40), sleeve=C(168, 156, 144), arm=C(156, 146, 136),
               hand=C(176, 164, 152), eye=C(255, 150, 40)),
)


class Case:
    """One clip: the character's render per frame and the footage over it."""
    name = ""
    action = "idle"
    W = H = 448
    fps = 24
    N = 56
    ss = 4
    crf = 20
    expect: list = []
    key = (28, 200, 56)
    wrap = (3.0, 0.25)
    grain = 2.0
    ghost = None            # ("prev", share) or ("recursive", share)
    bars = None             # (top, bottom) px
    shutter = (1, 0.0)      # (sub-frames, shutter in frames)
    h_frac = 0.6
    ground = 0.88
    note = ""
    seed = 0

    def __init__(self):
        self.D = None

    # -- to override
    def pose(self, t):
        return dict(BASE)

    def root(self, t, P):
        return (self.W * 0.5 + P["x"] * self.h, self.H * self.ground)

    def camera(self, t):
        return 1.0, (self.W / 2, self.H / 2), (0.0, 0.0)

    def props(self, J, P, h):
        return []

    def spin_frame(self, t, P, J):
        """(pivot of an image-plane spin, extra height) in local px."""
        return (0.0, 0.0), 0.0

    def extra_prims(self, t):       # screen-space prims (particles)
        return []

    @property
    def h(self):
        return self.h_frac * self.H

    def prims_at(self, t):
        P = self.pose(t)
        prims, J = humanoid(self.D, P, self.h)
        prims += self.props(J, P, self.h)
        return P, prims, J

    def render_frame(self, t):
        """Straight premultiplied (prem, alpha) for frame time t, with sub-frame blur."""
        n, sh = self.shutter
        ts = [t] if n <= 1 else [t + sh * ((i + 0.5) / n - 0.5) for i in range(n)]
        prem = np.zeros((self.H, self.W, 3), np.float32)
        alp = np.zeros((self.H, self.W), np.float32)
        info = None
        for tt in ts:
            P, prims, J = self.prims_at(tt)
            zoom, pivot, _ = self.camera(tt)
            rx, ry = self.root(tt, P)
            rx = pivot[0] + zoom * (rx - pivot[0])
            ry = pivot[1] + zoom * (ry - pivot[1])
            s = zoom
            pv, raise_ = self.spin_frame(tt, P, J)
            ry -= s * raise_
            plist = project(prims, P["theta"], (rx, ry), s, P["spin"], pv)
            plist += self.extra_prims(tt)
            r = render_chars(plist, self.W, self.H, self.ss, self.D["style"], (rx, ry))
            if r is not None:
                x0, y0, pd, ad = r
                prem[y0:y0 + pd.shape[0], x0:x0 + pd.shape[1]] += pd / len(ts)
                alp[y0:y0 + ad.shape[0], x0:x0 + ad.shape[1]] += ad / len(ts)
            if tt == ts[len(ts) // 2] or info is None:
                info = dict(rx=rx, ry=ry, s=s, lift=P["lift"], hipx=rx + s * J["hip"][0] * math.cos(P["theta"]))
        return prem, alp, info

    def truth_frames(self):
        out, infos = [], []
        for t in range(self.N):
            prem, alp, info = self.render_frame(float(t))
            out.append(to_rgba8(prem, alp))
            infos.append(info)
        return np.stack(out), infos

    def check(self, truth):
        """Assertions that make the expected flags certain by the documented rules."""
        a = truth[..., 3] > 0
        m = self.min_margin(a)
        assert m >= 8, f"{self.name}: character within {m} px of the frame edge"

    def min_margin(self, a, top=0, bottom=0):
        rows = np.where(a.any((0, 2)))[0]
        cols = np.where(a.any((0, 1)))[0]
        return int(min(rows[0] - top, self.H - bottom - 1 - rows[-1], cols[0], self.W - 1 - cols[-1]))


# ---------------------------------------------------------------------------- the sixteen

class FoxLateTurn(Case):
    name = "t40_fox_late_turn_walk"
    action, N, W, H, crf, expect = "walk", 56, 448, 448, 20, ["FACING"]
    key, wrap, seed, h_frac = (30, 198, 58), (3.0, 0.26), 1, 0.6
    note = ("papercraft fox courier walking in place turns through its front view at frames "
            "30-35 (1.25-1.46 s) and walks the other way to the end: turned 21 frames = 37 %, 0.88 s")

    def __init__(self):
        super().__init__()
        self.D = design("paper", PAL["fox"], [x_snout, x_tail, x_satchel], dict(head_r=0.095))

    def pose(self, t):
        P = walk(t, 28.0)
        P["theta"] = -PI * sm((t - 30) / 5.0)
        return P


class PikemanTurn(Case):
    name = "t40_pikeman_turn_pike_stays_right"
    action, N, W, H, crf, expect, ss = "idle", 56, 480, 832, 21, ["FACING"], 3
    key, wrap, seed, h_frac, ground = (24, 206, 70), (4.0, 0.22), 2, 0.52, 0.86
    note = ("clay pikeman's guard idle: turns through his front view at frames 12-18 and stays "
            "turned to the end (38 frames, 68 %), the pike planted on the screen's right before and "
            "after (held in front, then behind him): the silhouette's weapon side does not change")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["pike"], [x_helmet], dict(r_chest=0.1))

    def pose(self, t):
        P = idle(t, 28.0, 1.2)
        th = -PI * sm((t - 12) / 6.0)
        P["theta"] = th
        return P

    def prims_at(self, t):
        P = self.pose(t)
        h = self.h
        J0 = skeleton(self.D, P, h)
        c = math.cos(P["theta"])
        T = np.array([0.19 * h * c, J0["shoulder"][1] - 0.06 * h])
        L = J0["L"]
        ua, el = arm_ik(J0["shoulder"], T, L["upper"], L["fore"])
        P["ua_n"], P["el_n"] = ua, el
        prims, J = humanoid(self.D, P, h)
        grip = J["wrist_n"] + 0.5 * L["hand_r"] * dirv(J["fore_ang_n"])
        butt_above = grip[1] / h - 0.005
        prims += prop_pike(grip, PI, L["zs"] + 0.004, h, self.D["col"], below=butt_above, above=0.45)
        return P, prims, J


class TrollClubGhost(Case):
    name = "t40_troll_club_ghost28"
    action, N, W, H, crf, expect = "attack", 39, 512, 512, 20, ["SMEAR"]
    key, wrap, seed, h_frac, ground = (34, 194, 62), (3.5, 0.24), 3, 0.56, 0.87
    ghost = ("prev", 0.28)
    shutter = (10, 0.5)
    note = ("clay troll's overhead club smash with a lunge, every frame holding 28 % of the previous "
            "clean frame (a two-pose ghost); motion continuous, a 0.5-frame shutter's blur (10 sub-frames) in the truth")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["troll"], [], dict(r_chest=0.12, r_hip=0.1, head_r=0.09, upper=0.16,
                                                        fore=0.15, r_up=0.045, r_el=0.04, hand_r=0.045))

    def pose(self, t):
        u = t / (self.N - 1)
        b = pose(ua_n=0.3, el_n=0.6, ua_f=-0.1, el_f=0.4, lean=0.08, prop=1.0)
        K = [(0.0, b),
             (0.1, pose(ua_n=-0.4, el_n=1.0, ua_f=0.2, el_f=0.5, lean=0.02, th_n=0.0, kn_n=0.15, prop=1.4, x=-0.02)),
             (0.32, pose(ua_n=-2.7, el_n=0.5, ua_f=0.6, el_f=0.8, lean=-0.18, head=0.1, th_n=-0.1, kn_n=0.2,
                         th_f=-0.2, kn_f=0.25, prop=1.2, x=-0.05)),
             (0.46, pose(ua_n=1.3, el_n=0.1, ua_f=0.2, el_f=0.3, lean=0.42, head=0.15, th_n=0.5, kn_n=0.55,
                         th_f=-0.35, kn_f=0.2, prop=0.3, x=0.06)),
             (0.58, pose(ua_n=0.9, el_n=0.15, ua_f=-0.2, el_f=0.4, lean=0.48, head=0.05, th_n=0.5, kn_n=0.7,
                         th_f=-0.4, kn_f=0.25, prop=0.2, x=0.07)),
             (0.8, pose(ua_n=0.5, el_n=0.4, ua_f=-0.1, el_f=0.4, lean=0.2, th_n=0.3, kn_n=0.3, prop=0.7, x=0.04)),
             (1.0, dict(b, x=0.0))]
        P = keyed(u, K)
        P["sway"] = math.sin(t * 0.5)
        return P

    def root(self, t, P):
        return (self.W * 0.4 + P["x"] * self.h, self.H * self.ground)

    def props(self, J, P, h):
        return prop_club(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                         J["fore_ang_n"] + P["prop"] + 0.4, J["L"]["zs"] + 0.006, h, self.D["col"])


class WitchRecursiveGhost(Case):
    name = "t40_witch_cast_recursive_ghost30"
    action, N, W, H, crf, expect, ss = "skill", 39, 640, 640, 21, ["SMEAR"], 3
    key, wrap, seed, h_frac, ground = (22, 208, 64), (4.0, 0.2), 4, 0.55, 0.88
    ghost = ("recursive", 0.30)
    note = ("halftone-comic witch's cast: arms circle up, thrust and sweep while she rises 9 % of "
            "her height, each frame blended with 30 % of the previous frame as shown (recursive ghost)")

    def __init__(self):
        super().__init__()
        self.D = design("comic", PAL["witch"], [x_witch], dict(head_r=0.1))

    def pose(self, t):
        u = t / (self.N - 1)
        b = pose(ua_n=0.2, el_n=0.5, ua_f=-0.1, el_f=0.3)
        K = [(0.0, b),
             (0.22, pose(ua_n=-2.8, el_n=0.3, ua_f=-2.5, el_f=0.4, lean=-0.12, head=-0.15, lift=0.04)),
             (0.45, pose(ua_n=1.6, el_n=0.05, ua_f=1.35, el_f=0.1, lean=0.22, head=0.05, lift=0.09)),
             (0.62, pose(ua_n=0.5, el_n=0.2, ua_f=-1.3, el_f=0.3, lean=0.05, head=-0.05, lift=0.07)),
             (0.82, pose(ua_n=-0.6, el_n=0.9, ua_f=0.4, el_f=0.6, lean=0.1, lift=0.03)),
             (1.0, b)]
        P = keyed(u, K)
        P["sway"] = math.sin(t * 0.45)
        return P

    def props(self, J, P, h):
        return prop_wand(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                         J["fore_ang_n"] + 0.9, J["L"]["zs"] + 0.006, h, self.D["col"])


class RunnerFrozenGlide(Case):
    name = "t40_runner_frozen_pose_glides"
    action, N, W, H, crf, expect = "run", 56, 832, 480, 20, ["STATIC"]
    key, wrap, seed, h_frac, ground = (30, 202, 48), (3.0, 0.25), 5, 0.62, 0.9
    note = ("clay runner frozen mid-stride for the whole clip while the picture slides 1 px per "
            "frame to the right (55 px): the model panned instead of animating; no part moves")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["runner"], [x_ponytail], {}, tail_back=0.7)
        self.D["col"] = dict(self.D["col"], accent=C(220, 60, 60))

    def pose(self, t):
        return run(5.0)

    def root(self, t, P):
        return (self.W * 0.4, self.H * self.ground)

    def truth_frames(self):
        prem, alp, info = self.render_frame(0.0)
        f0 = to_rgba8(prem, alp)
        out, infos = [], []
        for t in range(self.N):
            f = np.zeros_like(f0)
            f[:, t:] = f0[:, :self.W - t]
            out.append(f)
            infos.append(dict(info, rx=info["rx"] + t, hipx=info["hipx"] + t))
        tr = np.stack(out)
        assert not f0[:, self.W - self.N:].any()
        return tr, infos


class BoxerPushIn(Case):
    name = "t40_boxer_push_in_cuts_feet"
    action, N, W, H, crf, expect = "idle", 56, 448, 448, 20, ["CROPPED"]
    key, wrap, seed, h_frac, ground = (26, 204, 60), (3.0, 0.24), 6, 0.6, 0.9
    note = ("halftone-comic boxer bouncing in guard (a jab at frames 30-36) while the camera pushes in "
            "1.0 -> 1.5x over frames 1-15 about (W/2, 0.38H): feet and shins below the bottom edge "
            "from frame 7 to the end")

    def __init__(self):
        super().__init__()
        self.D = design("comic", PAL["boxer"], [x_boxer], dict(hand_r=0.05, r_chest=0.1))

    def camera(self, t):
        return 1.0 + 0.5 * sm((t - 1) / 14.0), (self.W / 2, self.H * 0.38), (0.0, 0.0)

    def pose(self, t):
        f = TAU * t / 12.0
        b = 0.5 - 0.5 * math.cos(f)
        jab = sm((t - 30) / 3.0) * (1 - sm((t - 33) / 3.0))
        return pose(th_n=0.3, kn_n=0.25 + 0.2 * b, th_f=-0.25, kn_f=0.22 + 0.2 * b, ft_n=0.0, ft_f=-0.05,
                    lean=0.14 + 0.03 * math.sin(f), head=-0.05 + 0.04 * math.sin(f + 0.5),
                    ua_n=0.9 + 0.15 * math.sin(f) + 0.7 * jab, el_n=2.0 - 1.8 * jab,
                    ua_f=0.7 + 0.12 * math.sin(f + 1), el_f=2.1, lift=0.01 * b, sway=math.sin(f))

    def check(self, truth):
        bottom = (truth[:, -1, :, 3] > 127).sum(1)
        assert bottom[:3].max() == 0
        assert (bottom[8:] > 0.05 * self.W).all(), bottom
        a = truth[..., 3] > 0
        rows = np.where(a.any((0, 2)))[0]
        assert rows[0] >= 8


class KoboldStab22(Case):
    name = "t40_kobold_stab_22_frames"
    action, N, W, H, crf, expect = "attack", 22, 448, 448, 19, ["TRUNCATED"]
    key, wrap, seed, h_frac, ground = (32, 196, 66), (2.5, 0.28), 7, 0.56, 0.88
    note = ("clay kobold's dagger stab, a complete action in 22 frames (0.92 s, what a 0.7 s request "
            "gives): the attack recipe's snapped length at 24 fps is 39; 22 >= the 8 cells")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["kobold"], [x_kobold], dict(head_r=0.105))

    def pose(self, t):
        u = t / (self.N - 1)
        b = pose(ua_n=0.3, el_n=0.9, ua_f=0.2, el_f=0.8, lean=0.12, th_n=0.2, kn_n=0.2, th_f=-0.15, kn_f=0.2)
        K = [(0.0, b),
             (0.3, pose(ua_n=-0.8, el_n=2.0, ua_f=0.6, el_f=0.7, lean=0.0, th_n=0.05, kn_n=0.35, th_f=-0.2,
                        kn_f=0.35, x=-0.04, head=0.05)),
             (0.48, pose(ua_n=1.55, el_n=0.05, ua_f=-0.5, el_f=0.3, lean=0.38, th_n=0.55, kn_n=0.6, th_f=-0.4,
                         kn_f=0.15, x=0.06, head=0.0)),
             (0.62, pose(ua_n=1.45, el_n=0.1, ua_f=-0.4, el_f=0.3, lean=0.36, th_n=0.55, kn_n=0.6, th_f=-0.4,
                         kn_f=0.15, x=0.06)),
             (1.0, b)]
        P = keyed(u, K)
        P["sway"] = math.sin(t * 0.7)
        return P

    def props(self, J, P, h):
        return prop_dagger(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                           J["fore_ang_n"] + 1.45, J["L"]["zs"] + 0.006, h, self.D["col"])


class MonkIdle30fps(Case):
    name = "t40_monk_idle_56f_at_30fps"
    action, N, W, H, crf, expect, fps = "idle", 56, 512, 512, 20, ["TRUNCATED"], 30
    key, wrap, seed, h_frac, ground = (36, 192, 54), (3.0, 0.22), 8, 0.6, 0.88
    note = ("papercraft monk's prayer idle (a slow bow each 1.17 s, nod, beads swung) with H3's 56 frames but at "
            "30 fps: 1.87 s, less than the idle recipe's 2.0 s, so not H3's and truncated by seconds")

    def __init__(self):
        super().__init__()
        self.D = design("paper", PAL["monk"], [x_monk], dict(head_r=0.1))

    def pose(self, t):
        f = TAU * t / 28.0
        P = idle(t, 28.0, 1.6)
        bow = 0.5 - 0.5 * math.cos(f)
        P.update(ua_n=0.55 + 0.3 * math.sin(f), el_n=1.5 + 0.3 * math.sin(f + 0.7),
                 ua_f=0.35 + 0.2 * math.sin(f + 0.3), el_f=1.4, head=0.12 * math.sin(f - 0.8) + 0.1 * bow,
                 lean=0.03 + 0.22 * bow, kn_n=0.06 + 0.12 * bow, kn_f=0.05 + 0.12 * bow)
        return P

    def props(self, J, P, h):
        return prop_beads(J["wrist_n"], 0, J["L"]["zs"] + 0.006, h, self.D["col"],
                          swing=0.8 * P["sway"])


class SwordsmanSwap(Case):
    name = "t40_swordsman_weapon_swap_walk"
    action, N, W, H, crf, expect = "walk", 56, 448, 448, 21, []
    key, wrap, seed, h_frac, ground = (28, 200, 60), (3.5, 0.26), 9, 0.58, 0.88
    note = ("decoy: halftone-comic swordsman walking in place tosses his sword from the front hand "
            "to the back hand (frames 22-27, the sword in the air) and carries it pointing back-down "
            "to the end; his face, cap brim and ponytail keep facing right")

    def __init__(self):
        super().__init__()
        self.D = design("comic", PAL["sword"], [x_ponytail], {})

    def pose(self, t):
        return walk(t, 28.0, arm=0.7)

    def prims_at(self, t):
        P = self.pose(t)
        h = self.h
        prims, J = humanoid(self.D, P, h)
        col, L = self.D["col"], J["L"]
        if t <= 22:
            grip = J["wrist_n"] + 0.5 * L["hand_r"] * dirv(J["fore_ang_n"])
            prims += prop_sword(grip, J["fore_ang_n"] + 1.6, L["zs"] + 0.006, h, col)
        elif t >= 27:
            grip = J["wrist_f"] + 0.5 * L["hand_r"] * dirv(J["fore_ang_f"])
            prims += prop_sword(grip, -0.5, -L["zs"] - 0.006 + 0.0, h, col)
        else:
            _, J0 = humanoid(self.D, self.pose(22.0), h)
            _, J1 = humanoid(self.D, self.pose(27.0), h)
            g0 = J0["wrist_n"] + 0.5 * L["hand_r"] * dirv(J0["fore_ang_n"])
            g1 = J1["wrist_f"] + 0.5 * L["hand_r"] * dirv(J1["fore_ang_f"])
            a0, a1 = J0["fore_ang_n"] + 1.6, -0.5 - TAU
            u = (t - 22) / 5.0
            g = g0 + (g1 - g0) * u + np.array([0.0, 0.32 * h * 4 * u * (1 - u)])
            prims += prop_sword(g, a0 + (a1 - a0) * u, 0.0, h, col)
        return P, prims, J


class PostmanDrift(Case):
    name = "t40_postman_walk_drifts_across"
    action, N, W, H, crf, expect, ss = "walk", 56, 832, 480, 20, [], 4
    key, wrap, seed, h_frac, ground = (26, 198, 52), (3.0, 0.25), 10, 0.6, 0.88
    note = ("decoy: papercraft postman walks across the frame, not in place: the hip travels from "
            "x=0.28W to 0.66W (316 px, 1.8 px/frame while the feet step) under a slow camera pan")

    def __init__(self):
        super().__init__()
        self.D = design("paper", PAL["post"], [x_postman], {})

    def pose(self, t):
        return walk(t, 28.0)

    def root(self, t, P):
        return (self.W * (0.28 + 0.38 * t / (self.N - 1)), self.H * self.ground)

    def camera(self, t):
        return 1.0, (self.W / 2, self.H / 2), (0.5 * t, 0.0)


class SageSlowStart(Case):
    name = "t40_sage_idle_frozen_then_moves"
    action, N, W, H, crf, expect = "idle", 56, 448, 448, 20, []
    key, wrap, seed, h_frac, ground = (30, 204, 58), (3.0, 0.22), 11, 0.6, 0.88
    note = ("decoy: clay sage holds perfectly still for frames 0-20 (0.875 s), then stretches "
            "(staff raised forward, free arm up, lean back, frames 20-38) and breathes to the end: 35 moving "
            "frames, more than the idle sheet's 1.33 s window")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["sage"], [x_beard], {})

    def pose(self, t):
        b = pose(ua_n=0.45, el_n=0.55, ua_f=-0.05, el_f=0.25)
        if t <= 20:
            return b
        st = pose(ua_n=-1.1, el_n=0.5, ua_f=-2.7, el_f=0.6, lean=-0.16, head=-0.25, th_n=0.12, kn_n=0.0,
                  th_f=-0.08, kn_f=0.0, breath=1.03)
        mid = pose(ua_n=0.3, el_n=0.45, ua_f=0.35, el_f=0.3, lean=0.1, head=0.14, kn_n=0.2, kn_f=0.2)
        if t <= 29:
            return keyed((t - 20) / 9.0, [(0.0, b), (1.0, st)])
        if t <= 38:
            return keyed((t - 29) / 9.0, [(0.0, st), (1.0, mid)])
        P = idle(t - 38, 14.0, 2.2)
        w = sm((t - 38) / 4.0)
        P2 = {k: mid[k] * (1 - w) + P[k] * w for k in P}
        P2["ua_n"] = mid["ua_n"] * (1 - w) + (0.45 + 0.2 * math.sin(TAU * (t - 38) / 14.0)) * w
        return P2

    def props(self, J, P, h):
        return prop_staff(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                          PI - 0.22 + 0.08 * P["sway"], J["L"]["zs"] + 0.006, h, self.D["col"], below=0.34)


class DervishSomersault(Case):
    name = "t40_dervish_somersault_blur"
    action, N, W, H, crf, expect = "attack", 39, 512, 512, 20, []
    key, wrap, seed, h_frac, ground = (34, 200, 60), (3.0, 0.24), 12, 0.42, 0.86
    shutter = (16, 1.0)
    note = ("decoy: halftone-comic dervish leaps into two tucked forward somersaults (720 deg over "
            "frames 9-29, ~34 deg a frame) with a scimitar held out, blurred over a 360-degree shutter "
            "centred on each frame (16 sub-frames): blur on every moving frame, as far ahead as behind")

    def __init__(self):
        super().__init__()
        self.D = design("comic", PAL["dervish"], [x_ponytail], {})
        self.D["col"] = dict(self.D["col"], accent=C(230, 180, 50))

    def pose(self, t):
        b = pose(ua_n=0.4, el_n=0.8, ua_f=-0.1, el_f=0.4)
        crouch = pose(th_n=0.6, kn_n=1.2, th_f=0.4, kn_f=1.1, lean=0.45, ua_n=-0.5, el_n=0.6, ua_f=-0.7,
                      el_f=0.5, head=0.1)
        tuck = pose(th_n=1.9, kn_n=2.3, th_f=1.7, kn_f=2.2, lean=0.5, ua_n=1.7, el_n=0.0, ua_f=1.0,
                    el_f=1.4, head=0.2)
        if t <= 8:
            P = keyed(t / 8.0, [(0.0, b), (1.0, crouch)])
        elif t <= 29:
            w = sm((t - 8) / 3.0) * (1 - sm((t - 26) / 3.0))
            P = {k: crouch[k] * (1 - w) + tuck[k] * w for k in crouch}
            P["spin"] = TAU * 2 * min(max((t - 9) / 20.0, 0.0), 1.0)
        else:
            P = keyed((t - 29) / 9.0, [(0.0, crouch), (1.0, b)])
        P["sway"] = math.sin(t * 0.6)
        return P

    def spin_frame(self, t, P, J):
        # the tucked body turns about its own centre, carried up along an arc and back
        pv = 0.5 * (J["hip"] + J["shoulder"])
        if not 8 < t < 29:
            return pv, 0.0
        w = sm((t - 8) / 2.5) * (1 - sm((t - 26.5) / 2.5))
        target = 0.52 * self.h + 0.2 * self.h * math.sin(PI * (t - 8) / 21.0)
        return pv, w * (target - pv[1])

    def props(self, J, P, h):
        return prop_scimitar(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                             J["fore_ang_n"] + 0.35, J["L"]["zs"] + 0.006, h, self.D["col"])


class ShamanEmbers(Case):
    name = "t40_shaman_ember_swirl_skill"
    action, N, W, H, crf, expect, ss = "skill", 39, 640, 640, 21, [], 3
    key, wrap, seed, h_frac, ground = (30, 196, 62), (3.5, 0.24), 13, 0.5, 0.9
    note = ("decoy: clay shaman raises a staff and 140 soft embers (1.4-3.2 px across, 70-100 % opaque at birth, kept in "
            "the truth) spiral out of its orb and down round his body, fading; a few % of the character's area")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["shaman"], [x_shaman], {})
        rng = np.random.default_rng(4013)
        n = 140
        self.emb = dict(birth=rng.uniform(8, 30, n), life=rng.uniform(7, 16, n), a0=rng.uniform(0, TAU, n),
                        w=rng.uniform(0.18, 0.4, n) * rng.choice([-1, 1], n), r1=rng.uniform(60, 150, n),
                        rise=rng.uniform(1.0, 3.0, n), size=rng.uniform(1.4, 3.2, n),
                        op=rng.uniform(0.7, 1.0, n), hue=rng.uniform(0, 1, n))
        self._orb = {}

    def pose(self, t):
        u = t / (self.N - 1)
        b = pose(ua_n=0.3, el_n=0.9, ua_f=-0.05, el_f=0.3)
        K = [(0.0, b),
             (0.25, pose(ua_n=-1.7, el_n=0.25, ua_f=-0.9, el_f=0.6, lean=-0.1, head=-0.2, kn_n=0.15, kn_f=0.15)),
             (0.7, pose(ua_n=-1.85, el_n=0.2, ua_f=-1.1, el_f=0.5, lean=-0.12, head=-0.25, kn_n=0.2, kn_f=0.2,
                        lift=0.0)),
             (1.0, b)]
        P = keyed(u, K)
        P["sway"] = math.sin(t * 0.5)
        return P

    def props(self, J, P, h):
        return prop_staff(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                          self.staff_angle(P), J["L"]["zs"] + 0.006, h, self.D["col"])

    @staticmethod
    def staff_angle(P):
        return PI - 0.1 + 0.12 * P["sway"]

    def orb_screen(self, t):
        key = round(t, 3)
        if key not in self._orb:
            P, prims, J = Case.prims_at(self, t)
            g = J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"])
            d = dirv(self.staff_angle(P))
            top = g + 0.535 * self.h * d
            rx, ry = self.root(t, P)
            c = math.cos(P["theta"])
            self._orb[key] = np.array([rx + top[0] * c + (J["L"]["zs"]) * math.sin(P["theta"]), ry - top[1]])
        return self._orb[key]

    def extra_prims(self, t):
        e = self.emb
        out = []
        for i in range(len(e["birth"])):
            age = t - e["birth"][i]
            if age < 0 or age > e["life"][i]:
                continue
            o = self.orb_screen(float(math.floor(e["birth"][i])))
            k = age / e["life"][i]
            r = 8 + e["r1"][i] * k
            a = e["a0"][i] + e["w"][i] * age
            body = np.array([self.W * 0.5, self.H * self.ground - 0.55 * self.h])
            ctr = o + (body - o) * 0.85 * k
            p = ctr + np.array([r * math.cos(a), 0.55 * r * math.sin(a) - e["rise"][i] * age])
            colr = C(255, 200, 80) * (1 - e["hue"][i]) + C(255, 110, 40) * e["hue"][i]
            sz = e["size"][i] * (1 - 0.4 * k)
            out.append(dict(pts=ellipse_local(p[0], p[1], sz, sz, 0.0, 1.0, 12), col=colr, depth=99.0,
                            order=1000 + i, detail=True, opacity=float(e["op"][i] * (1 - 0.7 * k)),
                            soft=0.3))
        return out


class ArcherUnevenBars(Case):
    name = "t40_archer_uneven_bars_walk"
    action, N, W, H, crf, expect, ss = "walk", 56, 640, 640, 20, [], 3
    key, wrap, seed, h_frac, ground = (28, 202, 56), (3.0, 0.24), 14, 0.52, 0.8
    bars = (44, 84)
    note = ("decoy: papercraft archer walking in place in a 640x640 clip whose model added uneven "
            "letterbox bars from frame 1 (44 px top, 84 px bottom, near-black 10-14 levels with grain)")

    def __init__(self):
        super().__init__()
        self.D = design("paper", PAL["archer"], [x_quiver], {})

    def pose(self, t):
        P = walk(t, 28.0, arm=0.6)
        P["ua_f"] = 0.35 + 0.1 * math.sin(TAU * t / 28.0)
        P["el_f"] = 0.5
        return P

    def props(self, J, P, h):
        return prop_bow(J["wrist_f"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_f"]), PI - 0.15,
                        -J["L"]["zs"] - 0.006, h, self.D["col"])

    def check(self, truth):
        a = truth[..., 3] > 0
        m = self.min_margin(a, top=self.bars[0], bottom=self.bars[1])
        assert m >= 12, m


class FrogLeapSlam(Case):
    name = "t40_frog_leap_slam_stays_in_frame"
    action, N, W, H, crf, expect = "attack", 39, 512, 512, 20, []
    key, wrap, seed, h_frac, ground = (30, 200, 64), (3.0, 0.25), 15, 0.46, 0.9
    shutter = (6, 0.5)
    note = ("decoy: halftone-comic poison-dart frog crouches, leaps with its hammer overhead to "
            "10 px under the top edge (frames 13-17) and slams down; never touches an edge")
    jump = 0.5

    def __init__(self):
        super().__init__()
        self.D = design("comic", PAL["frog"], [x_frog], dict(head_r=0.13, neck=0.0, torso=0.25, r_chest=0.11,
                                                              r_hip=0.11, thigh=0.2, shin=0.2, foot=0.11))

    def pose(self, t):
        b = pose(ua_n=0.4, el_n=0.9, ua_f=0.1, el_f=0.5, th_n=0.25, kn_n=0.5, th_f=0.05, kn_f=0.45, lean=0.1)
        crouch = pose(ua_n=-0.6, el_n=1.2, ua_f=-0.3, el_f=0.6, th_n=0.9, kn_n=1.8, th_f=0.7, kn_f=1.7,
                      lean=0.35, head=-0.1)
        up = pose(ua_n=-2.9, el_n=0.5, ua_f=-2.6, el_f=0.7, th_n=0.2, kn_n=0.5, th_f=-0.2, kn_f=0.8,
                  lean=-0.1, head=-0.15, lift=self.jump)
        slam = pose(ua_n=1.4, el_n=0.1, ua_f=1.1, el_f=0.2, th_n=0.9, kn_n=1.7, th_f=0.6, kn_f=1.6,
                    lean=0.5, head=0.15, x=0.05)
        K = [(0, b), (8, crouch), (15, up), (22, slam), (27, slam), (38, b)]
        P = keyed(t, K)
        P["sway"] = math.sin(t * 0.6)
        return P

    def props(self, J, P, h):
        return prop_hammer(J["wrist_n"] + 0.5 * J["L"]["hand_r"] * dirv(J["fore_ang_n"]),
                           J["fore_ang_n"] + 1.3, J["L"]["zs"] + 0.006, h, self.D["col"])

    def calibrate(self):
        """Set the jump so the highest frame's top is 10 px under the top edge."""
        for _ in range(3):
            tops = []
            for t in range(12, 19):
                prem, alp, _ = self.render_frame(float(t))
                rows = np.where((alp * 255 >= 0.5).any(1))[0]
                tops.append(rows[0])
            m = min(tops)
            if m == 10:
                break
            self.jump += (m - 10) / self.h

    def check(self, truth):
        a = truth[..., 3] > 0
        rows = np.where(a.any((0, 2)))[0]
        assert 8 <= rows[0] <= 12, rows[0]
        assert self.min_margin(a) >= 8


class GolemHurt22(Case):
    name = "t40_golem_hurt_22_frames"
    action, N, W, H, crf, expect = "hurt", 22, 448, 448, 22, []
    key, wrap, seed, h_frac, ground = (28, 196, 60), (3.0, 0.28), 16, 0.6, 0.88
    shutter = (3, 0.4)
    note = ("decoy: clay golem with glowing cracks knocked back (frames 1-6) and recovering, 22 "
            "frames: exactly the hurt recipe's snapped length (0.7 s -> 17 -> 22), not truncated")

    def __init__(self):
        super().__init__()
        self.D = design("clay", PAL["golem"], [x_golem], dict(r_chest=0.12, r_hip=0.1, head_r=0.085, r_up=0.05,
                                                              r_el=0.045, r_wr=0.04, hand_r=0.05, r_th=0.06,
                                                              r_kn=0.05, r_an=0.045))

    def pose(self, t):
        b = pose(ua_n=0.2, el_n=0.5, ua_f=0.0, el_f=0.4, lean=0.1)
        hit = pose(ua_n=0.9, el_n=0.6, ua_f=1.2, el_f=0.3, lean=-0.38, head=-0.4, th_n=0.4, kn_n=0.3,
                   th_f=-0.1, kn_f=0.35, x=-0.1)
        K = [(0, b), (4, hit), (8, dict(hit, lean=-0.3, x=-0.12)), (21, b)]
        P = keyed(t, K)
        P["sway"] = math.sin(t)
        return P


CASES = [FoxLateTurn, PikemanTurn, TrollClubGhost, WitchRecursiveGhost, RunnerFrozenGlide, BoxerPushIn,
         KoboldStab22, MonkIdle30fps, SwordsmanSwap, PostmanDrift, SageSlowStart, DervishSomersault,
         ShamanEmbers, ArcherUnevenBars, FrogLeapSlam, GolemHurt22]


# ============================================================================ footage + write

def make_case(cls):
    c = cls()
    t0 = time.time()
    if hasattr(c, "calibrate"):
        c.calibrate()
    truth, infos = c.truth_frames()
    c.check(truth)
    d = OUT / c.name
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(9100 + c.seed)
    scr = Screen(c.W, c.H, np.array(c.key, np.float32) / 255, 9200 + c.seed, grain=c.grain)
    enc = Encoder(d / "clip.mp4", c.W, c.H, c.crf, c.fps)
    flat = np.zeros((c.H, c.W, 3), np.float32)
    flat[..., 1] = 254 / 255
    prev_clean = prev_shown = None
    for t in range(c.N):
        tr = truth[t]
        a = tr[..., 3:].astype(np.float32) / 255
        rgb = tr[..., :3].astype(np.float32) / 255
        if t == 0:
            img = flat * (1 - a) + rgb * a
            clean = img
        else:
            settle = min(1.0, t / 3.0)
            zoom, pivot, pan = c.camera(float(t))
            s = scr.frame(float(t), zoom, pivot, pan)
            s = flat * (1 - settle) + s * settle
            inf = infos[t]
            lift = inf["lift"]
            s = contact_shadow(s, inf["hipx"], inf["ry"] + 2, 0.2 * c.h * inf["s"],
                               0.38 * max(0.0, 1 - lift / 0.12))
            clean = light_wrap(tr, s, c.wrap[0], c.wrap[1] * settle)
        if c.ghost and t >= 1:
            kind, share = c.ghost
            img = (1 - share) * clean + share * (prev_clean if kind == "prev" else prev_shown)
        else:
            img = clean
        prev_clean, prev_shown = clean, img
        out = img
        if t >= 1:
            out = out + rng.normal(0, c.grain / 255, out.shape).astype(np.float32)
            if c.bars:
                top, bot = c.bars
                bar = 12 / 255 + rng.normal(0, 1.0 / 255, (c.H, c.W, 1)).astype(np.float32)
                out[:top] = bar[:top]
                out[c.H - bot:] = bar[c.H - bot:]
        enc.add(np.clip(out, 0, 1))
    enc.close()
    write_truth(d / "truth.npz", truth)
    write_png(d / "portrait.png", truth[0])
    meta = dict(action=c.action, expect_flags=list(c.expect), trial=40, frames=c.N, fps=c.fps,
                size=[c.W, c.H], crf=c.crf, style=c.D["style"], light_wrap_px=c.wrap[0],
                light_wrap_share=c.wrap[1], ghost=list(c.ghost) if c.ghost else None,
                bars=list(c.bars) if c.bars else None, note=c.note)
    (d / "case.json").write_text(json.dumps(meta, indent=1) + "\n")
    return time.time() - t0


def main(argv):
    names = argv[1:]
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    for cls in CASES:
        if names and not any(n in cls.name for n in names):
            continue
        dt = make_case(cls)
        print(f"{cls.name:<40} {cls.expect!s:<14} {dt:6.1f}s", flush=True)
    print(f"total {time.time() - t0:.1f}s -> {OUT}")


if __name__ == "__main__":
    main(sys.argv)
