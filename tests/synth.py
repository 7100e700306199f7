"""Procedural characters for tests and the example portraits: drawn by code, with real alpha.

A character is a few capsules and discs (legs, torso, arms, head, weapon) posed per frame,
so clips have real articulated motion. Palettes deliberately include green clothes and
teal skin, which a naive green keyer would eat. Drawn at 4x and area-downsampled, so edges
carry true fractional alpha.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

SS = 4  # supersampling factor

PALETTES = {
    "hero": {"skin": (236, 190, 150), "shirt": (40, 120, 50), "legs": (60, 60, 90),
             "hair": (60, 40, 30), "weapon": (200, 200, 215), "eye": (20, 20, 20)},
    "zombie": {"skin": (70, 160, 150), "shirt": (120, 90, 60), "legs": (70, 70, 60),
               "hair": (30, 50, 40), "weapon": (120, 80, 40), "eye": (240, 60, 40)},
    "ranger": {"skin": (200, 150, 110), "shirt": (60, 190, 70), "legs": (30, 90, 80),
               "hair": (200, 170, 60), "weapon": (130, 90, 50), "eye": (20, 20, 60)},
    "knight": {"skin": (230, 200, 170), "shirt": (150, 30, 40), "legs": (90, 90, 100),
               "hair": (20, 20, 20), "weapon": (220, 220, 230), "eye": (20, 20, 20)},
    "villager": {"skin": (225, 180, 140), "shirt": (90, 140, 100), "legs": (110, 80, 60),
                 "hair": (90, 60, 40), "weapon": (150, 150, 160), "eye": (20, 20, 20)},
}
# The villager as a video model may draw it on the default key (40, 200, 70), seen at
# about (36, 180, 63): its sage shirt pushed 60 % of the way, 31 levels from it and 46
# from the portrait's.
PALETTES["villager_pushed"] = {**PALETTES["villager"], "shirt": (58, 164, 78)}
# A goblin whose skin is 27 levels off the default key: under its threshold on a noisy
# screen, where only the portrait tells it from the backdrop.
PALETTES["goblin"] = {**PALETTES["villager"], "skin": (52, 190, 92), "hair": (40, 30, 30)}


@dataclass(frozen=True)
class Pose:
    """Angles in degrees (0 = straight down for limbs); offsets in body heights."""

    leg_l: float = 4.0
    leg_r: float = -4.0
    arm_l: float = 10.0
    arm_r: float = -10.0
    lean: float = 0.0
    dx: float = 0.0
    dy: float = 0.0  # up is positive
    breathe: float = 0.0  # torso scale offset
    facing: int = 1  # +1 faces right, -1 faces left


@dataclass(frozen=True)
class Character:
    palette: dict = field(default_factory=lambda: dict(PALETTES["hero"]))
    outline: tuple[int, int, int] | None = None  # a light outline (描边), as models draw
    outline_px: float = 2.5
    weapon: bool = True
    strands: int = 0  # thin hair strands (under a pixel wide), as fine art has
    thin_weapon: bool = False  # a needle-thin blade: its tip is a pixel or two wide


def _capsule(img, a, b, r, colour):
    a = tuple(int(round(v)) for v in a)
    b = tuple(int(round(v)) for v in b)
    cv2.line(img, a, b, colour, int(round(2 * r)), lineType=cv2.LINE_8)
    cv2.circle(img, a, int(round(r)), colour, -1)
    cv2.circle(img, b, int(round(r)), colour, -1)


def _limb(origin, length, angle_deg, facing):
    t = math.radians(angle_deg) * facing
    return origin[0] + math.sin(t) * length, origin[1] + math.cos(t) * length


def render(char: Character, pose: Pose, size: tuple[int, int], height_px: float,
           feet: tuple[float, float]) -> np.ndarray:
    """RGBA uint8 (H, W, 4) of the posed character; feet at pixel `feet`, body height_px."""
    w, h = size
    u = height_px * SS
    fx, fy = (feet[0] + pose.dx * height_px) * SS, (feet[1] - pose.dy * height_px) * SS
    pal, f = char.palette, pose.facing
    lean = math.radians(pose.lean) * f

    def at(x, y):  # body coords (x right, y up, in body heights) -> pixels, with lean
        xr = x * math.cos(lean) + y * math.sin(lean)
        yr = -x * math.sin(lean) + y * math.cos(lean)
        return fx + xr * u, fy - yr * u

    hip_y, sh_y = 0.47, 0.78 + pose.breathe * 0.5
    parts: list[tuple[str, tuple, tuple]] = []  # (kind, geometry, colour), back to front
    for side, ang in ((-1, pose.leg_l), (1, pose.leg_r)):
        hip = at(side * 0.06, hip_y)
        foot = _limb(hip, 0.44 * u, ang, f)
        parts.append(("cap", (hip, foot, 0.055 * u), pal["legs"]))
    torso_a, torso_b = at(0, hip_y + 0.03), at(0, sh_y - 0.02)
    parts.append(("cap", (torso_a, torso_b, (0.12 + pose.breathe * 0.2) * u), pal["shirt"]))
    back_arm = at(-0.11 * f, sh_y)
    parts.insert(0, ("cap", (back_arm, _limb(back_arm, 0.33 * u, pose.arm_l, f), 0.04 * u),
                     pal["skin"]))
    front_sh = at(0.11 * f, sh_y)
    hand = _limb(front_sh, 0.33 * u, pose.arm_r, f)
    if char.weapon:
        tip = _limb(hand, 0.42 * u, pose.arm_r - 70, f)
        parts.append(("cap", (hand, tip, (0.006 if char.thin_weapon else 0.018) * u),
                      pal["weapon"]))
    parts.append(("cap", (front_sh, hand, 0.042 * u), pal["skin"]))
    head = at(0, sh_y + 0.13)
    parts.append(("disc", (head, 0.1 * u), pal["skin"]))
    parts.append(("disc", ((head[0] - 0.03 * u * f, head[1] - 0.05 * u), 0.075 * u), pal["hair"]))
    parts.append(("disc", ((head[0] + 0.05 * u * f, head[1] - 0.01 * u), 0.016 * u), pal["eye"]))
    for k in range(char.strands):  # fanned out from the back of the head
        ang = math.radians(100 + 50 * k / max(char.strands - 1, 1)) * f
        root = (head[0] - 0.04 * u * f, head[1] - 0.06 * u)
        end = (root[0] - math.sin(ang) * 0.16 * u, root[1] - math.cos(ang) * 0.16 * u)
        parts.append(("line", (root, end), pal["hair"]))

    # Draw only the box the parts can reach (aligned to whole output pixels): the canvas
    # is mostly empty, and drawing at 4x is the slow part of making a clip.
    grow_max = (char.outline_px * SS if char.outline is not None else 0.0) + 2 * SS
    xs_, ys_ = [], []
    for kind, g, _ in parts:
        pts, r = ((g[0], g[1]), g[2]) if kind == "cap" else ((g[0], g[1]), 0.0) \
            if kind == "line" else ((g[0],), g[1])
        for px, py in pts:
            xs_ += [px - r, px + r]
            ys_ += [py - r, py + r]
    bx0 = int(np.clip((min(xs_) - grow_max) // SS, 0, w))
    bx1 = int(np.clip(-(-(max(xs_) + grow_max) // SS) + 1, 0, w))
    by0 = int(np.clip((min(ys_) - grow_max) // SS, 0, h))
    by1 = int(np.clip(-(-(max(ys_) + grow_max) // SS) + 1, 0, h))
    out = np.zeros((h, w, 4), np.uint8)
    if bx1 <= bx0 or by1 <= by0:
        return out
    ox, oy = bx0 * SS, by0 * SS
    col = np.zeros(((by1 - by0) * SS, (bx1 - bx0) * SS, 3), np.uint8)
    mask = np.zeros(col.shape[:2], np.uint8)

    def sh(pt):
        return pt[0] - ox, pt[1] - oy

    def draw(target, colour, grow=0.0):
        for kind, g, c in parts:
            cc = colour if colour is not None else c
            if kind == "cap":
                _capsule(target, sh(g[0]), sh(g[1]), g[2] + grow, cc)
            elif kind == "line":  # 0.75 px wide after the downsampling
                _capsule(target, sh(g[0]), sh(g[1]), max(1.5, SS * 0.375) + grow, cc)
            else:
                cv2.circle(target, tuple(int(round(v)) for v in sh(g[0])),
                           int(round(g[1] + grow)), cc, -1)

    if char.outline is not None:
        grow = char.outline_px * SS
        draw(col, char.outline, grow)
        draw(mask, 255, grow)
    draw(col, None)
    draw(mask, 255)
    size_ = (bx1 - bx0, by1 - by0)
    a = cv2.resize(mask, size_, interpolation=cv2.INTER_AREA)
    # Colour was drawn opaque over black: un-premultiply the edge pixels.
    prem = cv2.resize(col * (mask[..., None] > 0), size_, interpolation=cv2.INTER_AREA)
    af = np.maximum(a.astype(np.float32), 1)[..., None] / 255
    rgb = np.where(a[..., None] > 0, np.clip(prem / af, 0, 255), 0).astype(np.uint8)
    out[by0:by1, bx0:bx1] = np.dstack([rgb, a])
    return out


def backdrop(size: tuple[int, int], key=(40, 200, 70), gradient: float = 0.25,
             vignette: float = 0.3, noise: float = 3.0, seed: int = 0) -> np.ndarray:
    """A generated-looking green backdrop: tint gradient, vignetting, noise. RGB uint8."""
    w, h = size
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / h - 0.5
    base = np.array(key, np.float32)
    tint = np.array([18, -10, 25], np.float32) * gradient * 4
    img = base + (xn[..., None] + 0.5 * yn[..., None]) * tint
    img *= (1 - vignette * (xn**2 + yn**2) * 2)[..., None]
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def composite(rgba: np.ndarray, rgb: np.ndarray) -> np.ndarray:
    a = rgba[..., 3:4].astype(np.float32) / 255
    return (rgba[..., :3] * a + rgb * (1 - a) + 0.5).astype(np.uint8)


def pose_at(action: str, t: float, period: float = 1.0) -> Pose:
    """The pose of `action` at time t (seconds); loops repeat every `period` seconds."""
    ph = 2 * math.pi * t / period
    if action == "idle":
        return Pose(breathe=0.02 * math.sin(ph), arm_l=10 + 2 * math.sin(ph),
                    arm_r=-10 - 2 * math.sin(ph), dy=0.004 * math.sin(ph))
    if action in ("walk", "run"):
        amp = 28 if action == "walk" else 42
        s = math.sin(ph)
        return Pose(leg_l=amp * s, leg_r=-amp * s, arm_l=-amp * 0.8 * s, arm_r=amp * 0.8 * s,
                    dy=0.015 * abs(math.cos(ph)), lean=4 if action == "walk" else 10)
    if action in ("attack", "skill", "hurt"):
        # t in [0, period]: wind-up, peak, recovery
        x = min(max(t / period, 0.0), 1.0)
        bump = math.sin(math.pi * x) ** 2
        if action == "attack":
            wind = -40 * math.sin(2 * math.pi * x) if x < 0.5 else 0.0
            return Pose(arm_r=-10 + wind + 95 * bump, lean=10 * bump, dx=0.05 * bump,
                        leg_l=-15 * bump, leg_r=20 * bump)
        if action == "skill":
            return Pose(arm_r=-10 + 160 * bump, arm_l=10 - 160 * bump, dy=0.08 * bump,
                        breathe=0.03 * bump)
        return Pose(lean=-18 * bump, dx=-0.1 * bump, arm_l=40 * bump, arm_r=-40 * bump)
    raise ValueError(f"no synthetic motion for action {action!r}")


def clip(action: str, char: Character | None = None, size=(448, 448), frames: int = 56,
         fps: float = 24, still: int = 4, period: float = 1.0, height_frac: float = 0.55,
         drift=(0.0, 0.0), zoom: float = 0.0, seed: int = 0, key=(40, 200, 70),
         facing_flip_at: int | None = None, trail: float = 0.0, feet_y: float = 0.86,
         noise: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """(frames RGB (N,H,W,3), true RGBA (N,H,W,4)) of a character acting on a backdrop.

    drift: pixels per frame (x, y); zoom: relative size change per frame; trail: blend of
    the previous frame (ghosting); facing_flip_at: frame from which the character faces
    the other way; still: frames of stillness first, as image-to-video models do.
    """
    char = char or Character()
    w, h = size
    bg = backdrop(size, key=key, seed=seed, noise=0.0)
    rng = np.random.default_rng(seed + 1)
    out, truth = [], []
    prev = None
    for i in range(frames):
        t = max(0, i - still) / fps
        pose = pose_at(action, t, period) if i >= still else pose_at(action, 0, period)
        if facing_flip_at is not None and i >= facing_flip_at:
            pose = replace(pose, facing=-1)
        hp = h * height_frac * (1 + zoom * i)
        feet = (w / 2 + drift[0] * i, h * feet_y + drift[1] * i)
        rgba = render(char, pose, size, hp, feet)
        rgb = composite(rgba, bg)
        if trail and prev is not None:
            rgb = (rgb * (1 - trail) + prev * trail).astype(np.uint8)
        prev = rgb
        noisy = np.clip(rgb + rng.normal(0, noise, rgb.shape), 0, 255).astype(np.uint8)
        out.append(noisy)
        truth.append(rgba)
    return np.stack(out), np.stack(truth)


def portrait(char: Character | None = None, size=(320, 480)) -> np.ndarray:
    """A transparent standing portrait (RGBA), as a user's artist would hand over."""
    w, h = size
    return render(char or Character(), Pose(), size, h * 0.9, (w / 2, h * 0.96))
