"""Trial 33: a side-view humanoid drawn from t33_rig.Body in one of three styles:
'shaded' (form shading, optional texture), 'cel' (two hard tones) and 'ink' (flat fill
with an outline round every part)."""
from __future__ import annotations

import math

import numpy as np

from t33_rig import Body, rot, shaded

DEFAULT = dict(skin=(224, 182, 150), shirt=(60, 140, 70), pants=(80, 70, 60),
               boots=(50, 40, 35), hair=(60, 40, 28), style="shaded", ink=(25, 20, 20),
               ink_w=1.4, tex=0.0, sleeve=True, light=(-0.55, -0.8), seed=1)


def dim(c, k):
    return tuple(min(255, max(0, int(v * k))) for v in c)


class Painter:
    """Fills for one figure in one style; `far` parts are dimmed (they sit in shade)."""

    def __init__(self, st, u):
        self.st, self.u = st, u

    def fill(self, col, far=False, r=None, tex=None):
        st = self.st
        base = dim(col, 0.78) if far else col
        if st["style"] == "shaded":
            return shaded(base, r=r or 0.45 * self.u, ldir=st["light"], dark=0.5, lit=1.12,
                          tex=st["tex"] if tex is None else tex, seed=st["seed"])
        if st["style"] == "cel":
            return cel(base, r=r or 0.45 * self.u, ldir=st["light"])
        return base

    def outline(self):
        st = self.st
        return (st["ink"], st["ink_w"]) if st["style"] == "ink" else None


def cel(base, r, ldir):
    f = shaded(base, r=r, ldir=ldir, dark=0.62, lit=1.05)

    def fn(m, x0, y0, cv):
        col = f(m, x0, y0, cv)
        b = np.asarray(base, np.float32) / 255.0
        lum = col.mean(-1, keepdims=True) / max(b.mean(), 1e-3)
        return np.where(lum > 0.86, b[None, None] * 1.03, b[None, None] * 0.68).clip(0, 1)
    return fn


def leg(cv, b, side, p, st):
    u, far = b.u, side == "B"
    hip, knee, ankle, toe = b.legs[side]
    o = p.outline()
    cv.limb(hip, knee, 0.5 * u, 0.37 * u, p.fill(st["pants"], far), outline=o)
    cv.limb(knee, ankle, 0.36 * u, 0.27 * u, p.fill(st["pants"], far), outline=o)
    boot_top = knee + (ankle - knee) * 0.62
    cv.limb(boot_top, ankle, 0.3 * u, 0.28 * u, p.fill(st["boots"], far), outline=o)
    cv.limb(ankle, toe, 0.27 * u, 0.19 * u, p.fill(st["boots"], far), outline=o)


def arm(cv, b, side, p, st, hand_item=None):
    u, far = b.u, side == "B"
    sh, el, ha = b.arms[side]
    o = p.outline()
    cv.limb(sh, el, 0.31 * u, 0.24 * u, p.fill(st["shirt"] if st["sleeve"] else st["skin"], far),
            outline=o)
    cv.limb(el, ha, 0.24 * u, 0.18 * u, p.fill(st["skin"], far), outline=o)
    if hand_item:
        hand_item(cv, b, side)
    cv.ellipse(ha, 0.22 * u, 0.24 * u, 0.0, p.fill(st["skin"], far, r=0.15 * u), outline=o)


def torso(cv, b, p, st):
    u = b.u
    o = p.outline()
    up = rot(np.array([0.0, -1.0]), b.P["lean"])
    side = rot(np.array([1.0, 0.0]), b.P["lean"])
    hip = b.hip + up * 0.2 * u
    pts = [hip - side * 0.7 * u, hip + side * 0.62 * u, b.chest + side * 0.78 * u + up * 0.1 * u,
           b.sh + side * 0.45 * u + up * 0.3 * u, b.sh - side * 0.6 * u + up * 0.3 * u,
           b.chest - side * 0.82 * u]
    cv.poly(np.array(pts), p.fill(st["shirt"], r=0.8 * u), outline=o)
    cv.limb(b.neck - up * 0.1 * u, b.neck + up * 0.25 * u, 0.2 * u, 0.18 * u,
            p.fill(st["skin"]), outline=None)


def head(cv, b, p, st, face=True):
    u = b.u
    o = p.outline()
    c = b.headc
    a = b.P["lean"] + b.P["head"]
    cv.ellipse(c, 0.58 * u, 0.68 * u, a, p.fill(st["skin"], r=0.6 * u), outline=o)
    if face:
        eye = c + rot(np.array([0.34 * u, -0.08 * u]), a)
        cv.ellipse(eye, 0.06 * u, 0.09 * u, a, (30, 25, 25))


def hair_cap(cv, b, p, st):
    """Hair mass over the back and top of the head."""
    u, c, a = b.u, b.headc, b.P["lean"] + b.P["head"]
    t = np.linspace(math.pi * 0.9, math.pi * 1.93, 30)
    pts = np.stack([0.66 * u * np.cos(t), 0.76 * u * np.sin(t)], 1)
    pts = np.concatenate([pts, [[-0.2 * u, 0.1 * u], [-0.62 * u, 0.55 * u]]])
    pts = np.array([c + rot(q, a) for q in pts])
    cv.poly(pts, p.fill(st["hair"], r=0.5 * u), outline=p.outline())


def strands(cv, b, st, n, length, width, sway, seed, color=None, spread=1.0, droop=0.0):
    """n thin hair strands from the back of the head, each a 6-point curve swaying
    with `sway` (radians) — 0.45..1.1 px wide at frame scale."""
    rng = np.random.default_rng(seed)
    u, c, a = b.u, b.headc, b.P["lean"] + b.P["head"]
    col = color or st["hair"]
    for i in range(n):
        th = math.pi * (0.95 + 0.55 * spread * rng.random())
        root = c + rot(np.array([0.6 * u * math.cos(th), 0.7 * u * math.sin(th)]), a)
        L = length * u * (0.6 + 0.5 * rng.random())
        ang0 = math.pi / 2 + 0.25 + 0.5 * rng.random() + droop
        pts, q, ang = [root], root.copy(), ang0
        for k in range(6):
            ang += sway * (0.5 + 0.6 * rng.random()) * (k + 1) / 6 + 0.04 * rng.standard_normal()
            q = q + L / 6 * np.array([math.cos(ang), math.sin(ang)])
            pts.append(q.copy())
        w = width[0] + (width[1] - width[0]) * rng.random()
        shade = 0.7 + 0.5 * rng.random()
        cv.stroke(np.array(pts), w, dim(col, shade))


def figure(cv, b, st, hooks=None):
    """Draw far limbs, torso, near leg, head, near arm; hooks[name](cv, b, painter) are
    called at 'back', 'mid', 'head', 'front' and 'item' (hand item for the near arm)."""
    h = hooks or {}
    p = Painter(st, b.u)
    call = lambda k: h[k](cv, b, p) if k in h else None
    call("back")
    arm(cv, b, "B", p, st, h.get("item_back"))
    leg(cv, b, "B", p, st)
    call("mid")
    torso(cv, b, p, st)
    leg(cv, b, "F", p, st)
    call("neck")
    head(cv, b, p, st, face=st.get("face", True))
    call("head")
    arm(cv, b, "F", p, st, h.get("item"))
    call("front")
    return p


def make_body(hip, u, pose):
    return Body(hip, u, pose)
