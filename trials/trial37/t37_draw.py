"""Trial 37 figure renderer: poses -> the character's premultiplied RGBA at final size,
sub-frame renders averaged for motion blur, pixel art drawn small and scaled up."""
from __future__ import annotations

import math

import cv2
import numpy as np

from t37_rig import Char, bake, bone_mats, light, over, part_corners, tr


class Figure:
    def __init__(self, ch: Char, scale: float, ss: int = 3, pix: int = 0):
        self.ch, self.pix = ch, pix
        self.scale = scale / pix if pix else scale
        self.ss = 1 if pix else ss
        self.k = self.scale * self.ss
        self.baked = [(p, *bake(p, self.k, ch.ink, ch.ink_w / (pix or 1)))
                      for p in sorted(ch.parts, key=lambda p: p.z)]

    def _mats(self, pose):
        r = pose["root"]
        if self.pix:
            r = (r[0] / self.pix, r[1] / self.pix)
        return bone_mats(self.ch, pose, self.scale, r, pose.get("sx", 1.0))

    def _strands(self, mats, pose):
        """[(colour, width px, points (n, 2) world)] in the figure's working pixels."""
        out = []
        sx = pose.get("sx", 1.0)
        hd = mats["head"]
        t, wind = pose.get("t", 0.0), pose.get("wind", 0.0)
        for i, s in enumerate(self.ch.strands):
            p = hd @ np.array([s["anchor"][0], s["anchor"][1], 1.0])
            th = s["ang"] + wind * s.get("wk", 1.0) + 0.09 * math.sin(2 * math.pi * t / 1.4 + i * 0.7)
            pts, cur = [p[:2].copy()], p[:2].copy()
            n, seg = 9, s["len"] * self.scale / 9
            for j in range(n):
                a = th + s["curl"] * (j + 1) / n
                cur = cur + np.array([-math.sin(a) * sx, math.cos(a)]) * seg
                pts.append(cur.copy())
            out.append((s["col"], s["w"], np.array(pts)))
        return out

    def points(self, pose, mats=None):
        """Part corners and strand points in world px (for extents and motion)."""
        mats = mats or self._mats(pose)
        pts = [part_corners(tex, org, mats[p.bone], self.k) for p, tex, org in self.baked]
        pts += [q for _, _, q in self._strands(mats, pose)]
        return np.concatenate(pts) * (self.pix or 1)

    def bbox(self, pose):
        mats = self._mats(pose)
        pts = [self.points(pose, mats) / (self.pix or 1)]
        if pose.get("orb"):
            c = self._orb_center(mats, pose)
            r = pose["orb"][1] * self.scale * 2.6
            pts.append(np.array([[c[0] - r, c[1] - r], [c[0] + r, c[1] + r]]))
        p = np.concatenate(pts)
        f = self.pix or 1
        return p.min(0) * f, p.max(0) * f

    def _orb_center(self, mats, pose):
        b, lx, ly = pose["orb"][2]
        return (mats[b] @ np.array([lx, ly, 1.0]))[:2]

    def draw(self, pose, org, size):
        """The figure lit, (h, w, 4) premultiplied at working size, crop at `org`."""
        ss, h, w = self.ss, size[0] * self.ss, size[1] * self.ss
        C = np.zeros((h, w, 9), np.float32)
        S = np.diag([ss, ss, 1.0]) @ tr(-org[0], -org[1])
        mats = self._mats(pose)
        interp = cv2.INTER_NEAREST if self.pix else cv2.INTER_LINEAR
        strands_done = False
        for p, tex, o in self.baked:
            if not strands_done and p.z > self.ch.strand_z:
                self._draw_strands(C, S, mats, pose)
                strands_done = True
            M = S @ mats[p.bone] @ np.diag([1 / self.k, 1 / self.k, 1.0]) @ tr(o[0], o[1])
            th, tw = tex.shape[:2]
            c = (M[:2, :2] @ np.array([[0, tw, 0, tw], [0, 0, th, th]], np.float64)).T + M[:2, 2]
            x0, y0 = np.floor(c.min(0)).astype(int) - 1
            x1, y1 = np.ceil(c.max(0)).astype(int) + 1
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            M2 = tr(-x0, -y0) @ M
            wp = cv2.warpAffine(tex, M2[:2], (int(x1 - x0), int(y1 - y0)), flags=interp,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
            A = mats[p.bone][:2, :2]
            A = A / math.sqrt(abs(np.linalg.det(A)))
            wp[..., 4:6] = wp[..., 4:6] @ np.linalg.inv(A)
            over(C, wp, y0, x0)
        if not strands_done:
            self._draw_strands(C, S, mats, pose)
        if pose.get("orb"):
            self._draw_orb(C, S, mats, pose)
        return light(C, self.ch.style)

    def _draw_strands(self, C, S, mats, pose):
        ss, groups = self.ss, {}
        for col, wpx, pts in self._strands(mats, pose):
            groups.setdefault(col, []).append((wpx, (S[:2, :2] @ pts.T).T + S[:2, 2]))
        for col, items in groups.items():
            q = np.concatenate([x[1] for x in items])
            x0, y0 = np.floor(q.min(0)).astype(int) - 4
            x1, y1 = np.ceil(q.max(0)).astype(int) + 4
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, C.shape[1]), min(y1, C.shape[0])
            if x1 <= x0 or y1 <= y0:
                continue
            m = np.zeros((y1 - y0, x1 - x0), np.uint8)
            for wpx, p in items:  # sub-pixel strands drawn 1 px at their share of coverage
                cv2.polylines(m, [np.rint((p - (x0, y0)) * 16).astype(np.int32)], False,
                              int(255 * min(1.0, wpx * ss)), max(1, int(round(wpx * ss))), cv2.LINE_AA, 4)
            a = m.astype(np.float32) / 255
            lay = np.zeros((y1 - y0, x1 - x0, 9), np.float32)
            lay[..., :3] = np.float32(col) / 255
            lay[..., 3] = 1
            lay[..., 6] = 1
            lay[..., 7] = 0.6
            lay[..., 8] = 0.4
            lay *= a[..., None]
            over(C, lay, y0, x0)

    def _draw_orb(self, C, S, mats, pose):
        inten, rad, _, col = pose["orb"]
        c = (S @ np.r_[self._orb_center(mats, pose), 1.0])[:2]
        R = rad * self.scale * self.ss
        if inten <= 0 or R < 1:
            return
        g = int(R * 2.8) + 2
        x0, y0 = int(c[0]) - g, int(c[1]) - g
        yy, xx = np.mgrid[y0:y0 + 2 * g, x0:x0 + 2 * g].astype(np.float32)
        r = np.hypot(xx - c[0], yy - c[1])
        core = np.clip((R * 0.55 - r) / 1.5 + 0.5, 0, 1)
        glow = np.clip(inten, 0, 1) * 0.6 * np.exp(-(r / (R * 1.25)) ** 2)
        a = np.clip(core * min(inten, 1) + glow * (1 - core), 0, 1)
        hot = np.clip(1.2 - r / R, 0, 1) ** 2
        rgb = np.float32(col) / 255 * (1 - hot[..., None]) + hot[..., None]
        lay = np.zeros((2 * g, 2 * g, 9), np.float32)
        lay[..., :3], lay[..., 3], lay[..., 6] = rgb, 1, 1
        lay *= a[..., None]
        over(C, lay, y0, x0)

    def frame(self, poses, shape, margin=8):
        """Average of the sub-frame poses: ((h, w, 4) premultiplied at final size, (x0, y0))."""
        lo = np.min([self.bbox(p)[0] for p in poses], 0)
        hi = np.max([self.bbox(p)[1] for p in poses], 0)
        f = self.pix or 1
        x0 = int(math.floor((lo[0] - margin) / f)) * f
        y0 = int(math.floor((lo[1] - margin) / f)) * f
        x1 = int(math.ceil((hi[0] + margin) / f)) * f
        y1 = int(math.ceil((hi[1] + margin) / f)) * f
        acc = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
        for p in poses:
            img = self.draw(p, (x0 / f, y0 / f), ((y1 - y0) // f, (x1 - x0) // f))
            if self.pix:
                img = pixelize(img, f, self.ch.ink)
            else:
                img = cv2.resize(img, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
            acc += img
        return acc / len(poses), (x0, y0)


def pixelize(img, f, ink):
    """Hard-edged sprite with a 1 px ink outline, scaled up f x nearest, softened a little
    as an image-to-video model renders a pixel-art input."""
    a = img[..., 3]
    on = a >= 0.5
    rgb = img[..., :3] / np.maximum(a, 1e-5)[..., None]
    ring = cv2.dilate(on.astype(np.uint8), np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], np.uint8)) > 0
    ring &= ~on
    rgb[ring] = np.float32(ink) / 255
    al = (on | ring).astype(np.float32)
    small = np.dstack([np.clip(rgb, 0, 1) * al[..., None], al])
    up = cv2.resize(small, (small.shape[1] * f, small.shape[0] * f), interpolation=cv2.INTER_NEAREST)
    return cv2.GaussianBlur(up, (0, 0), 0.55)
