#!/usr/bin/env python3
"""Independent test-footage generator: imitation image-to-video chroma-key clips
of procedurally drawn 2D game characters, with ground truth.

Per case directory: clip.mp4, portrait.png, truth.npz (rgba uint8 N,H,W,4 straight
alpha), case.json.

Usage:  python make.py            # all cases
        python make.py NAME ...   # selected cases (substring match)
        python make.py --list
        python make.py --probe NAME   # only print fit/blur statistics, no rendering
Deterministic: every random draw comes from a generator seeded by the case name.
"""
import bisect
import json
import math
import os
import sys
import time
import zlib

import av
import cv2
import numpy as np

cv2.setNumThreads(1)
HERE = os.path.dirname(os.path.abspath(__file__))
# Where the case folders go: $TRIAL_OUT, or trials/_out/trial12/ (git-ignored).
OUT = os.environ.get('TRIAL_OUT', os.path.join(HERE, '_out', 'trial12'))
SS = int(os.environ.get("SS", "2"))            # supersampling factor of the character renderer
FX = 16           # cv2 fixed point (shift=4)
SPACING = 1.3     # max px between consecutive sub-frame samples of the fastest vertex
MAX_SAMPLES = 128

# --------------------------------------------------------------------------- pose
PN = ['rx', 'ry', 'lean', 'head', 'nsh', 'nel', 'fsh', 'fel', 'nhip', 'nkn',
      'fhip', 'fkn', 'nft', 'fft', 'wpn', 'glow']
IX = {k: i for i, k in enumerate(PN)}
STANCE = dict(lean=0.04, head=0.0, nsh=0.12, nel=0.3, fsh=-0.1, fel=0.35,
              nhip=0.11, nkn=0.06, fhip=-0.1, fkn=0.04, nft=0.0, fft=0.0,
              wabs=1.9)


def pvec(d):
    v = np.zeros(len(PN))
    for k, x in d.items():
        if k in IX:
            v[IX[k]] = x
    # weapon: absolute angle given, stored relative to the forearm
    v[IX['wpn']] = d.get('wabs', 1.9) - v[IX['nsh']] - v[IX['nel']]
    return v


def ease(u, kind):
    if kind == 'lin':
        return u
    if kind == 'in':
        return u * u
    if kind == 'out':
        return 1 - (1 - u) ** 2
    if kind == 'in3':
        return u ** 3
    if kind == 'out3':
        return 1 - (1 - u) ** 3
    return u * u * (3 - 2 * u)


class Keys:
    """Keyframed pose; each key inherits unspecified fields from the previous one."""

    def __init__(self, keys, base, period=None):
        cur = dict(STANCE)
        cur.update(base)
        self.t, self.v, self.e = [], [], []
        for k in keys:
            cur = dict(cur)
            cur.update(k[1])
            self.t.append(k[0])
            self.v.append(pvec(cur))
            self.e.append(k[2] if len(k) > 2 else 'io')
        self.period = period

    def __call__(self, t):
        if self.period:
            t = t % self.period
        ts = self.t
        if t <= ts[0]:
            return self.v[0].copy()
        if t >= ts[-1]:
            return self.v[-1].copy()
        i = bisect.bisect_right(ts, t) - 1
        u = ease((t - ts[i]) / (ts[i + 1] - ts[i]), self.e[i + 1])
        return self.v[i] + (self.v[i + 1] - self.v[i]) * u


def with_breath(f, period=2.2, amp=1.0, phase=0.0):
    def g(t):
        v = f(t)
        b = math.sin(2 * math.pi * t / period + phase)
        v[IX['lean']] += 0.012 * amp * b
        v[IX['head']] += 0.015 * amp * math.sin(2 * math.pi * t / period + phase - 0.6)
        v[IX['nsh']] += 0.03 * amp * b
        v[IX['fsh']] += 0.03 * amp * b
        v[IX['nkn']] += 0.03 * amp * (1 + b)
        v[IX['fkn']] += 0.03 * amp * (1 + b)
        v[IX['nhip']] += 0.015 * amp * (1 + b)
        v[IX['fhip']] += 0.015 * amp * (1 + b)
        return v
    return g


def m_idle(base=None, period=2.2, amp=1.0, sway=0.0):
    d = dict(STANCE)
    d.update(base or {})
    v0 = pvec(d)

    def f(t):
        v = v0.copy()
        s = math.sin(2 * math.pi * t / (period * 2.0))
        v[IX['nel']] += 0.08 * sway * s
        v[IX['fel']] -= 0.06 * sway * s
        v[IX['rx']] += 0.006 * sway * s
        return v
    return with_breath(f, period, amp)


def m_gait(period, hip, knee, arm, elbow, lean, hip0=0.03, knee0=0.08,
           bob=0.0, toe=0.45, base=None, arm0=0.0, fixed_near_arm=None):
    d = dict(STANCE)
    d.update(base or {})
    v0 = pvec(d)

    def f(t):
        v = v0.copy()
        ph = 2 * math.pi * t / period
        for sd, off in (('n', 0.0), ('f', math.pi)):
            q = ph + off
            v[IX[sd + 'hip']] = hip0 + hip * math.sin(q)
            c = math.cos(q - 0.3)
            v[IX[sd + 'kn']] = knee0 + knee * max(0.0, c) ** 1.4
            v[IX[sd + 'ft']] = 0.12 * max(0.0, c) - toe * max(0.0, -math.sin(q)) ** 2
            v[IX[sd + 'sh']] = arm0 - arm * math.sin(q)
            v[IX[sd + 'el']] = elbow + 0.25 * elbow * max(0.0, math.sin(q))
        if fixed_near_arm is not None:
            v[IX['nsh']] = fixed_near_arm[0] + 0.15 * arm * math.sin(ph)
            v[IX['nel']] = fixed_near_arm[1]
        v[IX['lean']] = lean + 0.02 * math.sin(2 * ph)
        v[IX['head']] = -0.4 * lean + 0.015 * math.sin(2 * ph + 1)
        v[IX['ry']] = bob * max(0.0, math.sin(2 * ph - 0.4))
        v[IX['wpn']] = d['wabs'] - v[IX['nsh']] - v[IX['nel']]
        return v
    return f


# --------------------------------------------------------------------------- geometry
def capsule(a, b, ra, rb, n=7):
    """Convex hull of two discs (outer tangents), as a polygon."""
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    d = b - a
    ln = math.hypot(d[0], d[1])
    if ln < abs(ra - rb) + 1e-6:
        c, r = (a, ra) if ra >= rb else (b, rb)
        th = np.linspace(0, 2 * math.pi, 2 * n, endpoint=False)[:, None]
        return c + r * np.hstack([np.cos(th), np.sin(th)])
    u = d / ln
    nr = np.array([-u[1], u[0]])
    al = math.asin((ra - rb) / ln)
    tb = np.linspace(al, math.pi - al, n)[:, None]
    ta = np.linspace(math.pi - al, 2 * math.pi + al, n + 1)[1:-1, None]
    cb = b + rb * (nr * np.cos(tb) + u * np.sin(tb))
    ca = a + ra * (nr * np.cos(ta) + u * np.sin(ta))
    return np.vstack([cb, ca])


def ellipse(c, rx, ry, ang=0.0, n=28, a0=0.0, a1=2 * math.pi):
    th = np.linspace(a0, a1, n, endpoint=(a1 - a0) < 2 * math.pi - 1e-6)
    ca, sa = math.cos(ang), math.sin(ang)
    x = rx * np.cos(th)
    y = ry * np.sin(th)
    return np.stack([c[0] + ca * x - sa * y, c[1] + sa * x + ca * y], 1)


def ribbon(pts, widths):
    pts = np.asarray(pts, float)
    d = np.gradient(pts, axis=0)
    d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-9)[:, None]
    nr = np.stack([-d[:, 1], d[:, 0]], 1)
    w = np.asarray(widths, float)[:, None] / 2
    return np.vstack([pts + nr * w, (pts - nr * w)[::-1]])


def chain(anchor, angles, seg):
    p = [np.asarray(anchor, float)]
    for a in angles:
        p.append(p[-1] + seg * np.array([math.sin(a), -math.cos(a)]))
    return np.array(p)


def dirv(phi):
    return np.array([math.sin(phi), -math.cos(phi)])


def ik(sh, target, l1, l2):
    d = target - sh
    dist = math.hypot(d[0], d[1])
    D = min(max(dist, abs(l1 - l2) + 1e-4), l1 + l2 - 1e-4)
    base = math.atan2(d[1], d[0])
    A = math.acos(max(-1.0, min(1.0, (l1 * l1 + D * D - l2 * l2) / (2 * l1 * D))))
    best = None
    for sg in (1, -1):
        a1 = base + sg * A
        el = sh + l1 * np.array([math.cos(a1), math.sin(a1)])
        if best is None or el[1] < best[1]:
            best = el
    hand = sh + d / max(dist, 1e-9) * D
    return best, hand


def shade(c, k):
    return tuple(float(min(255.0, max(0.0, x * k))) for x in c)


DEFAULT_L = dict(thigh=0.24, shin=0.23, footh=0.034, foot=0.088, torso=0.28,
                 neck=0.03, headrx=0.074, headry=0.084, uarm=0.165, farm=0.155)


class Char:
    def __init__(self, **kw):
        self.pal = dict(skin=(228, 188, 158), hair=(80, 55, 35), shirt=(150, 45, 45),
                        sleeve=None, pants=(70, 62, 84), boots=(62, 44, 32),
                        belt=(95, 62, 30), cape=None, metal=(188, 194, 206),
                        wood=(118, 80, 44), plume=(200, 40, 40), glove=None,
                        helmet=None, skirt=None, robe=None, trim=None,
                        eye=(22, 20, 26), ink=(24, 20, 28), orb=(120, 220, 255),
                        head=None, strand=None)
        self.pal.update(kw.pop('pal', {}))
        self.style = kw.pop('style', 'flat')
        self.limb = kw.pop('limb', 1.0)
        self.arm = kw.pop('arm', 1.0)
        self.build = kw.pop('build', 1.0)
        self.weapon = kw.pop('weapon', None)
        self.hair = kw.pop('hair', 'short')
        self.strands = kw.pop('strands', 0)
        self.strand_px = kw.pop('strand_px', (1.0, 2.5))
        self.strand_len = kw.pop('strand_len', 0.2)
        self.cape = kw.pop('cape', False)
        self.cape_len = kw.pop('cape_len', 0.48)
        self.wind = kw.pop('wind', 0.0)
        self.plume = kw.pop('plume', False)
        self.helmet = kw.pop('helmet', False)
        self.hood = kw.pop('hood', False)
        self.skirt = kw.pop('skirt', False)
        self.robe = kw.pop('robe', False)
        self.mask = kw.pop('mask', False)
        self.far_dark = kw.pop('far_dark', 0.8)
        self.ink_px = kw.pop('ink_px', 2.5)
        self.tex_amt = kw.pop('tex_amt', 0.0)
        self.weapon_len = kw.pop('weapon_len', None)
        self.whip_delay = kw.pop('whip_delay', 0.011)
        self.L = dict(DEFAULT_L)
        self.L.update(kw.pop('L', {}))
        if kw:
            raise TypeError('unknown Char fields %s' % list(kw))
        self.textured = self.style == 'textured' or self.tex_amt > 0
        if self.style == 'textured' and self.tex_amt == 0:
            self.tex_amt = 0.12


def fk(ch, p):
    L = ch.L
    legs = {}
    lowest = 1e9
    for sd in 'nf':
        h, k, fa = p[IX[sd + 'hip']], p[IX[sd + 'kn']], p[IX[sd + 'ft']]
        knee = L['thigh'] * dirv(h)
        s = h - k
        ankle = knee + L['shin'] * dirv(s)
        f = np.array([math.cos(fa), math.sin(fa)])
        dn = np.array([math.sin(fa), -math.cos(fa)])
        heel = ankle + dn * L['footh'] * 0.45 - f * L['footh'] * 0.3
        toe = ankle + dn * L['footh'] * 0.45 + f * L['foot']
        legs[sd] = [knee, ankle, heel, toe]
        lowest = min(lowest, heel[1], toe[1])
    rf = L['footh'] * 0.55
    hip = np.array([p[IX['rx']], -(lowest - rf) + p[IX['ry']]])
    for sd in 'nf':
        legs[sd] = [hip + q for q in legs[sd]]
    g = dict(hip=hip, legs=legs, rf=rf)
    lean = p[IX['lean']]
    td = np.array([math.sin(lean), math.cos(lean)])
    fw = np.array([math.cos(lean), -math.sin(lean)])
    g['td'], g['fw'] = td, fw
    g['chest'] = hip + td * L['torso']
    ha = lean + p[IX['head']]
    hd = np.array([math.sin(ha), math.cos(ha)])
    g['ha'] = ha
    g['head'] = g['chest'] + td * L['neck'] + hd * L['headry'] * 0.92 + fw * 0.012
    arms = {}
    for sd in 'nf':
        sh = hip + td * L['torso'] * 0.93 + fw * (0.0 if sd == 'n' else -0.012)
        a, e = p[IX[sd + 'sh']], p[IX[sd + 'el']]
        el = sh + L['uarm'] * dirv(a)
        hand = el + L['farm'] * dirv(a + e)
        arms[sd] = [sh, el, hand]
    g['arms'] = arms
    g['phiw'] = p[IX['nsh']] + p[IX['nel']] + p[IX['wpn']]
    g['wd'] = dirv(g['phiw'])
    return g


class Part:
    __slots__ = ('polys', 'col', 'tex', 'shade', 'ink', 'convex')

    def __init__(self, polys, col, tex=0.0, shade=0.0, ink=True, convex=False):
        self.polys = polys if isinstance(polys, list) else [polys]
        self.col = tuple(float(c) for c in col)
        self.tex = tex
        self.shade = shade      # characteristic radius (char units) for cel shading, 0 = none
        self.ink = ink
        self.convex = convex


def build(ch, motion, t, scale):
    """Parts (char coordinates, painter order) of the character at time t."""
    p = motion(t)
    g = fk(ch, p)
    L, pal = ch.L, ch.pal
    dt = 0.04
    g0 = fk(ch, motion(t - dt))
    vhead = (g['head'] - g0['head']) / dt
    vchest = (g['chest'] - g0['chest']) / dt
    lr, ar, bd = ch.limb, ch.arm, ch.build
    fd = ch.far_dark
    tx = ch.tex_amt
    parts = []
    bare = pal['sleeve'] == 'bare'
    sleeve = pal['skin'] if bare else (pal['sleeve'] or pal['shirt'])
    glove = pal['glove'] or pal['skin']
    px = 1.0 / scale

    def limb_parts(sd, k):
        sh, el, hand = g['arms'][sd]
        r0, r1, r2 = 0.036 * ar, 0.026 * ar, 0.020 * ar
        return [Part(capsule(sh, el, r0, r1), shade(sleeve, k), tx, r0),
                Part(capsule(el, hand, r1, r2), shade(sleeve, k), tx, r1)]

    def hand_part(sd, k):
        hand = g['arms'][sd][2]
        r = max(0.024 * ar, 0.017)
        return Part(capsule(hand - g['wd'] * 0.004, hand + g['wd'] * 0.004, r, r, 6), shade(glove, k), tx * 0.4, r)

    def leg_parts(sd, k):
        knee, ankle, heel, toe = g['legs'][sd]
        hip = g['hip'] + g['fw'] * (0.0 if sd == 'n' else -0.01)
        out = [Part(capsule(hip, knee, 0.048 * lr, 0.036 * lr), shade(pal['pants'], k), tx, 0.045 * lr),
               Part(capsule(knee, ankle, 0.034 * lr, 0.025 * lr), shade(pal['pants'], k), tx, 0.03 * lr)]
        bt = knee + (ankle - knee) * 0.5
        out.append(Part(capsule(bt, ankle, 0.030 * lr, 0.027 * lr), shade(pal['boots'], k), tx, 0.028 * lr))
        fr = L['footh'] * 0.55
        out.append(Part(capsule(heel, toe, fr, fr * 0.85), shade(pal['boots'], k), tx, fr))
        return out

    # ---- cape (behind everything)
    if ch.cape:
        n = 9
        seg = ch.cape_len / n
        anchor = g['chest'] - g['fw'] * 0.055 + g['td'] * 0.01
        drag = -0.35 * vchest[0] + ch.wind
        ang = []
        for i in range(n):
            u = (i + 1) / n
            ang.append(-0.10 - 0.04 * i * 0.3 - drag * u * 1.1
                       + (0.10 + 0.25 * min(1.0, abs(ch.wind))) * u *
                       math.sin(2 * math.pi * (1.4 + 2.0 * abs(ch.wind)) * t - 0.7 * i)
                       + 0.4 * p[IX['lean']] * u)
        cl = chain(anchor, ang, seg)
        w = np.linspace(0.06, 0.15, n + 1)
        parts.append(Part(ribbon(cl, w), pal['cape'], tx, 0.05))

    # ---- far arm (with IK when the weapon is two-handed)
    if ch.weapon == 'spear':
        sh = g['arms']['f'][0]
        tgt = g['arms']['n'][2] - g['wd'] * 0.2
        el, hand = ik(sh, tgt, L['uarm'], L['farm'])
        g['arms']['f'] = [sh, el, hand]
    parts += limb_parts('f', fd)
    parts.append(hand_part('f', fd))
    # ---- far leg
    parts += leg_parts('f', fd)
    # ---- torso
    hip, chest = g['hip'], g['chest']
    parts.append(Part(capsule(hip, chest, 0.076 * bd, 0.092 * bd), pal['shirt'], tx, 0.08 * bd))
    parts.append(Part(capsule(chest - g['td'] * 0.01, g['head'] - g['td'] * 0.04, 0.026, 0.024),
                      pal['skin'], tx * 0.3, 0.02))
    parts.append(Part(capsule(hip + g['td'] * 0.035 - g['fw'] * 0.07 * bd, hip + g['td'] * 0.035 + g['fw'] * 0.07 * bd,
                              0.016, 0.016), pal['belt'], tx, 0.0))
    # ---- near leg
    parts += leg_parts('n', 1.0)
    # ---- skirt / robe
    if ch.robe:
        kn, an = g['legs']['n'][0], g['legs']['n'][1]
        kf, af = g['legs']['f'][0], g['legs']['f'][1]
        front = max(kn[0], kf[0], an[0], af[0]) + 0.055
        back = min(kn[0], kf[0], an[0], af[0]) - 0.055
        kfront = max(kn[0], kf[0]) + 0.05
        kback = min(kn[0], kf[0]) - 0.05
        ky = 0.5 * (kn[1] + kf[1])
        hem = min(an[1], af[1]) + 0.045
        poly = np.array([hip + g['td'] * 0.06 - g['fw'] * 0.075 * bd, hip + g['td'] * 0.06 + g['fw'] * 0.075 * bd,
                         [kfront, ky], [front, hem], [0.5 * (front + back), hem - 0.012], [back, hem], [kback, ky]])
        parts.append(Part(poly, pal['robe'], tx, 0.06))
        if pal['trim'] is not None:
            parts.append(Part(capsule([back + 0.01, hem + 0.006], [front - 0.01, hem + 0.006], 0.011, 0.011),
                              pal['trim'], tx, 0.0))
    elif ch.skirt:
        kn, kf = g['legs']['n'][0], g['legs']['f'][0]
        front = max(kn[0], kf[0]) + 0.04
        back = min(kn[0], kf[0]) - 0.04
        hem = hip[1] - 0.14
        poly = np.array([hip + g['td'] * 0.05 - g['fw'] * 0.07 * bd, hip + g['td'] * 0.05 + g['fw'] * 0.07 * bd,
                         [front, hem], [back, hem]])
        parts.append(Part(poly, pal['skirt'] or pal['shirt'], tx, 0.05))
    # ---- head
    hc, ha = g['head'], g['ha']
    hrx, hry = L['headrx'], L['headry']
    headcol = pal['head'] or pal['skin']
    # hair behind head (long)
    if ch.hair == 'long':
        anchor = hc + np.array([-hrx * 0.7, hry * 0.1])
        ang = [-0.25 - 0.1 * i - 0.3 * vhead[0] * 0.2 + 0.05 * math.sin(2 * math.pi * 0.9 * t - i) for i in range(5)]
        cl = chain(anchor, ang, 0.04)
        parts.append(Part(ribbon(cl, np.linspace(0.07, 0.03, 6)), pal['hair'], tx, 0.03))
    parts.append(Part(ellipse(hc, hrx, hry, ha, 26), headcol, tx * 0.3, hrx, convex=True))
    # nose
    hfw = np.array([math.cos(ha), -math.sin(ha)])
    hup = np.array([math.sin(ha), math.cos(ha)])
    nb = hc + hfw * hrx * 0.9
    parts.append(Part(capsule(nb + hup * 0.004, nb + hfw * 0.016 - hup * 0.008, 0.010, 0.006, 5),
                      headcol, 0.0, 0.0, ink=False))
    if ch.mask:
        # dark hood-mask (head colour) with a skin-coloured eye band
        parts.append(Part(capsule(hc + hup * 0.012 + hfw * 0.005, hc + hup * 0.012 + hfw * hrx * 0.86, 0.016, 0.014, 6),
                          pal['skin'], 0.0, 0.0, ink=False, convex=True))
    if ch.helmet:
        parts.append(Part(ellipse(hc, hrx * 1.12, hry * 1.1, ha, 24, 0.05 * math.pi, 1.1 * math.pi), pal['helmet'] or pal['metal'], tx, hrx))
    elif ch.hood:
        parts.append(Part(ellipse(hc + np.array([-0.008, 0.004]), hrx * 1.22, hry * 1.18, ha, 26, 0.2 * math.pi, 1.65 * math.pi),
                          pal['cape'] or pal['hair'], tx, hrx))
    elif ch.hair in ('short', 'long') and not ch.mask:
        parts.append(Part(ellipse(hc, hrx * 1.1, hry * 1.1, ha, 24, 0.28 * math.pi, 1.3 * math.pi), pal['hair'], tx, hrx))
    # eye
    eye = hc + np.array([math.cos(ha) * hrx * 0.45 - math.sin(ha) * hry * 0.12, -math.sin(ha) * hrx * 0.45 + math.cos(ha) * hry * 0.12])
    parts.append(Part(ellipse(eye, max(0.009, 1.6 * px), max(0.013, 2.2 * px), ha, 10), pal['eye'], 0.0, 0.0, ink=False, convex=True))
    # strands (1-3 px wide) and plume
    if ch.strands:
        rng = np.random.default_rng(7)
        for j in range(ch.strands):
            a0 = 0.55 * math.pi + 0.55 * math.pi * j / max(1, ch.strands - 1)
            anchor = hc + np.array([math.cos(a0 + ha) * hrx, math.sin(a0 + ha) * hry]) * 0.95
            n = 8
            ln = ch.strand_len * (0.75 + 0.5 * rng.random())
            ph = rng.random() * 6.28
            ang = [-0.4 - 0.25 * j / max(1, ch.strands) - 0.04 * i
                   - 0.25 * vhead[0] * (i + 1) / n - ch.wind * 0.8 * (i + 1) / n
                   + (0.12 + 0.2 * abs(ch.wind)) * math.sin(2 * math.pi * (0.8 + 1.5 * abs(ch.wind)) * t - 0.8 * i + ph)
                   for i in range(n)]
            cl = chain(anchor, ang, ln / n)
            w0 = ch.strand_px[1] * px
            w1 = ch.strand_px[0] * px
            parts.append(Part(ribbon(cl, np.linspace(w0, w1, n + 1)), pal['strand'] or shade(pal['hair'], 1.12), 0.0, 0.0, ink=False))
    if ch.plume:
        top = hc + np.array([-math.sin(ha), math.cos(ha)]) * hry * 1.05
        n = 8
        ang = [3.3 + 0.2 * i + (0.25 * vhead[0] + ch.wind * 0.4) * (i + 1) / n
               + 0.08 * math.sin(2 * math.pi * 1.1 * t - 0.7 * i) for i in range(n)]
        cl = chain(top, ang, 0.028)
        parts.append(Part(ribbon(cl, np.linspace(0.035, 0.012, n + 1)), pal['plume'], tx, 0.015))
        for j in range(3):
            cl2 = chain(cl[3 + j], [a + 0.5 + 0.25 * j for a in ang[3 + j:]], 0.03)
            parts.append(Part(ribbon(cl2, np.linspace(2.2 * px, 1.0 * px, len(cl2))), pal['plume'], 0.0, 0.0, ink=False))
    # ---- near arm + weapon
    parts += limb_parts('n', 1.0)
    hand = g['arms']['n'][2]
    wd = g['wd']
    wn = np.array([-wd[1], wd[0]])
    if ch.weapon == 'sword':
        bl = ch.weapon_len or 0.42
        parts.append(Part(capsule(hand - wd * 0.05, hand + wd * 0.03, 0.011, 0.011), pal['wood'], 0.0, 0.0))
        parts.append(Part(capsule(hand + wd * 0.035 - wn * 0.05, hand + wd * 0.035 + wn * 0.05, 0.011, 0.011),
                          shade(pal['metal'], 0.7), 0.0, 0.0))
        b0 = hand + wd * 0.045
        bw = 0.013
        blade = np.array([b0 + wn * bw, b0 + wd * (bl - 0.06) + wn * bw, b0 + wd * bl,
                          b0 + wd * (bl - 0.06) - wn * bw, b0 - wn * bw])
        parts.append(Part(blade, pal['metal'], 0.0, bw, convex=True))
    elif ch.weapon == 'spear':
        sl = ch.weapon_len or 0.55
        parts.append(Part(capsule(hand - wd * 0.45, hand + wd * sl, 0.0068, 0.0068), pal['wood'], tx * 0.5, 0.0))
        h0 = hand + wd * sl
        head = np.array([h0 - wd * 0.01, h0 + wd * 0.035 + wn * 0.021, h0 + wd * 0.13,
                         h0 + wd * 0.035 - wn * 0.021])
        parts.append(Part(head, pal['metal'], 0.0, 0.015, convex=True))
    elif ch.weapon == 'staff':
        parts.append(Part(capsule(hand - wd * 0.42, hand + wd * 0.33, 0.010, 0.012), pal['wood'], tx, 0.01))
        glow = p[IX['glow']]
        oc = tuple(c + (255 - c) * 0.65 * glow for c in pal['orb'])
        parts.append(Part(ellipse(hand + wd * 0.37, 0.038, 0.038, 0, 20), oc, 0.0, 0.03, convex=True))
    elif ch.weapon == 'whip':
        parts.append(Part(capsule(hand - wd * 0.03, hand + wd * 0.085, 0.012, 0.011), shade(pal['wood'], 0.8), 0.0, 0.0))
        n = 22
        seg = (ch.weapon_len or 0.72) / n
        cur = hand + wd * 0.085
        w0, w1 = max(0.011, 3.2 * px), 1.0 * px
        for i in range(n):
            ti = t - (i + 1) * ch.whip_delay
            phi = fk_phiw(motion(ti))
            gi = 0.45 * (i + 1) / n
            # droop toward hanging (phi=0) and slightly backward
            phi = (1 - gi) * phi + gi * (-0.1)
            nxt = cur + seg * dirv(phi)
            nxt[1] = max(nxt[1], 0.006)      # the floor: a slack whip lies on the ground
            r = 0.5 * (w0 + (w1 - w0) * (i + 0.5) / n)
            parts.append(Part(capsule(cur, nxt, r, r, 5), pal['wood'], 0.0, 0.0, ink=False, convex=True))
            cur = nxt
    parts.append(hand_part('n', 1.0))
    return parts, g, p


def fk_phiw(p):
    return p[IX['nsh']] + p[IX['nel']] + p[IX['wpn']]


# --------------------------------------------------------------------------- rendering
class Placement:
    def __init__(self, facing, scale, x0, yg):
        self.s, self.scale, self.x0, self.yg = facing, scale, x0, yg

    def pts(self, a):
        a = np.asarray(a, float)
        return np.stack([self.x0 + self.s * self.scale * a[:, 0], self.yg - self.scale * a[:, 1]], 1)

    def pt(self, a):
        return np.array([self.x0 + self.s * self.scale * a[0], self.yg - self.scale * a[1]])


def all_vertices(parts):
    return np.vstack([q for pa in parts for q in pa.polys])


class Renderer:
    def __init__(self, ch, W, H, plc, rng):
        self.ch, self.W, self.H, self.plc = ch, W, H, plc
        lx, ly = 0.45, 0.9
        n = math.hypot(lx, ly)
        self.light = np.array([plc.s * lx / n, -ly / n])    # image coordinates
        self.ink_px = ch.ink_px if ch.style == 'ink' else 0.0
        self.pad = int(math.ceil(self.ink_px)) + 3
        self.noise = None
        if ch.textured:
            M = int(0.5 * plc.scale * SS) + 8
            self.M = M
            hh, ww = H * SS + 2 * M, W * SS + 2 * M
            coarse = rng.standard_normal((hh // 24 + 2, ww // 24 + 2)).astype(np.float32)
            mid = rng.standard_normal((hh // 4 + 2, ww // 4 + 2)).astype(np.float32)
            nz = cv2.resize(coarse, (ww, hh), interpolation=cv2.INTER_CUBIC) * 0.45
            nz += cv2.resize(mid, (ww, hh), interpolation=cv2.INTER_LINEAR) * 0.4
            nz += rng.standard_normal((hh, ww)).astype(np.float32) * 0.35
            # woven look: faint stripes along one axis
            nz += 0.25 * np.sin(np.arange(ww, dtype=np.float32) * (2 * math.pi / (3.0 * SS)))[None, :]
            self.noise = np.clip(nz, -2.5, 2.5)

    def render(self, parts, root_img, clip_box=None, pad=None):
        """Premultiplied RGBA (float32 0..1, output resolution) of one instant, and its box.

        Parts are drawn in painter order with OpenCV's antialiased fills at SS x; an
        antialiased fill of an opaque colour into a premultiplied RGBA uint8 canvas is
        exactly the 'over' operator with the pixel's coverage."""
        plc = self.plc
        ipolys = [[plc.pts(q) for q in pa.polys] for pa in parts]
        allp = np.vstack([q for qs in ipolys for q in qs])
        pad = self.pad if pad is None else pad
        x0 = int(math.floor(allp[:, 0].min())) - pad
        y0 = int(math.floor(allp[:, 1].min())) - pad
        x1 = int(math.ceil(allp[:, 0].max())) + pad + 1
        y1 = int(math.ceil(allp[:, 1].max())) + pad + 1
        if clip_box is not None:
            cx0, cy0, cx1, cy1 = clip_box
            x0, y0, x1, y1 = max(x0, cx0), max(y0, cy0), min(x1, cx1), min(y1, cy1)
        w, h = x1 - x0, y1 - y0
        Wss, Hss = w * SS, h * SS
        canvas = np.zeros((Hss, Wss, 4), np.uint8)
        texc = np.zeros((Hss, Wss), np.uint8) if self.noise is not None else None
        ink_t = int(round(2 * self.ink_px * SS))
        inkc = tuple(int(round(c)) for c in self.ch.pal['ink']) + (255,)
        off = (SS - 1) / 2.0
        style = self.ch.style
        shaded = style in ('shaded', 'textured')
        AA = cv2.LINE_AA
        for pa, qs in zip(parts, ipolys):
            P = [(q - (x0, y0)) * SS + off for q in qs]
            Q = [np.round(p * FX).astype(np.int32) for p in P]
            col = pa.col
            ci = tuple(int(round(c)) for c in col) + (255,)
            if pa.ink and ink_t > 0:
                cv2.polylines(canvas, Q, True, inkc, ink_t, AA, 4)
                for q in Q:
                    if pa.convex:
                        cv2.fillConvexPoly(canvas, q, inkc, AA, 4)
                    else:
                        cv2.fillPoly(canvas, [q], inkc, AA, 4)
            tones = [(Q, ci)]
            if shaded and pa.shade > 0 and pa.convex:
                r_px = pa.shade * plc.scale * SS
                dark = tuple(int(round(c * 0.68)) for c in col) + (255,)
                tones = [(Q, dark)]
                shifts = [(0.7, ci)]
                if style == 'shaded':
                    shifts.append((1.55, tuple(int(min(255, round(c * 1.18 + 12))) for c in col) + (255,)))
                for k, c in shifts:
                    d = self.light * r_px * k
                    qq = []
                    for p in P:
                        p32 = p.astype(np.float32)
                        area, inter = cv2.intersectConvexConvex(p32, p32 + d.astype(np.float32))
                        if inter is not None and area > 0.5:
                            qq.append(np.round(inter.reshape(-1, 2) * FX).astype(np.int32))
                    if qq:
                        tones.append((qq, c))
            for qq, c in tones:
                for q in qq:
                    if pa.convex:
                        cv2.fillConvexPoly(canvas, q, c, AA, 4)
                    else:
                        cv2.fillPoly(canvas, [q], c, AA, 4)
            if texc is not None:
                tv = int(round(255 * pa.tex))
                for q in Q:
                    if pa.convex:
                        cv2.fillConvexPoly(texc, q, tv, AA, 4)
                    else:
                        cv2.fillPoly(texc, [q], tv, AA, 4)
        f = canvas.astype(np.float32) * (1 / 255.0)
        if texc is not None:
            M = self.M
            ox = int(round(x0 * SS - (root_img[0] - plc.x0) * SS)) + M
            oy = int(round(y0 * SS - (root_img[1] - plc.yg) * SS)) + M
            ox = min(max(ox, 0), self.noise.shape[1] - Wss)
            oy = min(max(oy, 0), self.noise.shape[0] - Hss)
            k = 1.0 + texc.astype(np.float32) * (1 / 255.0) * self.noise[oy:oy + Hss, ox:ox + Wss]
            f[..., :3] *= k[..., None]
            np.minimum(f[..., :3], f[..., 3:], out=f[..., :3])
        out = cv2.resize(f, (w, h), interpolation=cv2.INTER_AREA) if SS > 1 else f
        return out, (x0, y0, x1, y1)


# --------------------------------------------------------------------------- backdrop
def make_backdrop(W, H, key, rng, grad=0.07, vig=0.14):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    xn = (xx - W / 2) / (W / 2)
    yn = (yy - H / 2) / (H / 2)
    ga = rng.uniform(0, 2 * math.pi)
    g = 1 + grad * (math.cos(ga) * xn + math.sin(ga) * yn)
    r2 = (xn * xn * (W / max(W, H)) ** 2 + yn * yn * (H / max(W, H)) ** 2)
    v = 1 - vig * r2 ** 1.3
    blot = cv2.resize(rng.standard_normal((4, 6)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    bg = np.array(key, np.float32)[None, None, :] * (g * v * (1 + 0.015 * blot))[..., None]
    # slight hue drift across the plate: one channel gets its own gradient
    ch = int(rng.integers(0, 3))
    bg[..., ch] *= 1 + 0.03 * (math.sin(ga) * xn - math.cos(ga) * yn)
    return bg, xx, yy


def smooth_series(rng, n, amp, corr=4.0):
    x = rng.standard_normal(n + 20)
    k = np.exp(-0.5 * (np.arange(-10, 11) / corr) ** 2)
    y = np.convolve(x, k / np.sqrt((k * k).sum()), 'same')[10:10 + n]
    # an occasional small step, like a model's exposure jump
    if rng.random() < 0.5:
        y[int(rng.integers(n // 3, n)):] += rng.choice([-1, 1]) * 0.8
    return 1.0 + amp * y


# --------------------------------------------------------------------------- clip
def fit(case, ch, motion, W, H, times):
    frac = case['height']
    g0 = fk(ch, motion(0.0))
    rest_h = g0['head'][1] + ch.L['headry'] * (1.12 if (ch.helmet or ch.hood) else 1.1)
    yg = H - max(8, int(round(H * case.get('bottom', 0.05))))
    scale = frac * H / rest_h
    for _ in range(3):
        pts = np.vstack([all_vertices(build(ch, motion, t, scale)[0]) for t in times])
        xmin, xmax = pts[:, 0].min(), pts[:, 0].max()
        ymin, ymax = pts[:, 1].min(), pts[:, 1].max()
        m = 10
        sx = (W - 2 * m) / ((xmax - xmin) * scale)
        sy = (yg - m) / (ymax * scale)
        sb = (H - m - yg) / (-ymin * scale) if ymin < 0 else 9.0
        k = min(1.0, sx, sy, sb)
        if k >= 1.0:
            break
        scale *= k * 0.995
    s = case['facing']
    cx = 0.5 * (xmin + xmax)
    x0 = W / 2 - s * scale * cx + case.get('xshift', 0.0) * W
    plc = Placement(s, scale, x0, yg)
    ip = plc.pts(pts)
    if ip[:, 0].min() < 6 or ip[:, 0].max() > W - 6 or ip[:, 1].min() < 6 or ip[:, 1].max() > H - 6:
        x0 = W / 2 - s * scale * cx
        plc = Placement(s, scale, x0, yg)
        ip = plc.pts(pts)
    box = (max(0, int(ip[:, 0].min()) - 16), max(0, int(ip[:, 1].min()) - 16),
           min(W, int(ip[:, 0].max()) + 17), min(H, int(ip[:, 1].max()) + 18))
    return plc, box, scale * rest_h / H, ip


def shutter_interval(tc, fps, sh, mode):
    d = sh / fps
    if mode == 'centred':
        return tc - d / 2, tc + d / 2
    if mode == 'leading':
        return tc, tc + d
    return tc - d, tc


def vertex_path(ch, motion, plc, scale, ta, tb, k=5):
    V = [plc.pts(all_vertices(build(ch, motion, t, scale)[0])) for t in np.linspace(ta, tb, k)]
    path = np.zeros(len(V[0]))
    for a, b in zip(V[:-1], V[1:]):
        path += np.hypot(*(b - a).T)
    return path


def run_case(case, probe=False):
    name = case['name']
    t_start = time.time()
    seed = zlib.crc32(name.encode())
    rng = np.random.default_rng(seed)
    W, H = case['size']
    fps = case['fps']
    N = case['frames']
    ch = case['char']
    motion = case['motion']
    sh, mode = case['shutter']
    times = []
    for i in range(N):
        ta, tb = shutter_interval(i / fps, fps, sh, mode)
        times += [ta, 0.5 * (ta + tb), tb]
    plc, box, hfrac, _ = fit(case, ch, motion, W, H, times)
    scale = plc.scale
    # blur statistics / sample counts
    nsamp, peaks = [], []
    for i in range(N):
        ta, tb = shutter_interval(i / fps, fps, sh, mode)
        path = vertex_path(ch, motion, plc, scale, ta, tb)
        pk = float(path.max())
        peaks.append(pk)
        nsamp.append(int(min(MAX_SAMPLES, max(1, math.ceil(pk / SPACING)))))
    peaks = np.array(peaks)
    stats = dict(height_frac=round(float(hfrac), 3), scale=round(float(scale), 1), peak_blur_px=round(float(peaks.max()), 1),
                 p90_frame_blur_px=round(float(np.percentile(peaks, 90)), 1), samples=int(sum(nsamp)))
    print('%-40s %s' % (name, stats), flush=True)
    if probe:
        return stats
    out_dir = os.path.join(OUT, name)
    os.makedirs(out_dir, exist_ok=True)
    rend = Renderer(ch, W, H, plc, rng)
    bx0, by0, bx1, by1 = box
    bw, bh = bx1 - bx0, by1 - by0

    # ---- portrait: frame 0's pose, one instant
    parts, g, _ = build(ch, motion, 0.0, scale)
    img, (px0, py0, px1, py1) = rend.render(parts, plc.pt(g['hip']), pad=8)
    img[..., :3] *= 255.0
    a = img[..., 3]
    ys, xs = np.nonzero(a > 0.5 / 255)
    cy0, cy1 = max(0, ys.min() - 4), min(img.shape[0], ys.max() + 5)
    cx0, cx1 = max(0, xs.min() - 4), min(img.shape[1], xs.max() + 5)
    pimg = img[cy0:cy1, cx0:cx1]
    cv2.imwrite(os.path.join(out_dir, 'portrait.png'), cv2.cvtColor(to_straight_u8(pimg), cv2.COLOR_RGBA2BGRA))

    # ---- backdrop and per-frame randomness
    key = case['key']
    bg0, xx, yy = make_backdrop(W, H, key, rng, case.get('grad', 0.07), case.get('vig', 0.14))
    flick = smooth_series(rng, N, case.get('flicker', float(rng.uniform(0.006, 0.015))))
    nsig = case.get('noise', float(rng.uniform(1.5, 3.0)))
    wrap_s, wrap_len = case.get('wrap', (float(rng.uniform(0.15, 0.35)), float(rng.uniform(2.0, 6.0))))
    shadow_k = case.get('shadow', float(rng.uniform(0.15, 0.35)))
    char_h = hfrac * H

    truth = np.zeros((N, H, W, 4), np.uint8)
    container = av.open(os.path.join(out_dir, 'clip.mp4'), 'w')
    stream = container.add_stream('libx264', rate=fps)
    stream.width, stream.height = W, H
    stream.pix_fmt = 'yuv420p'
    stream.options = {'crf': str(case.get('crf', 20)), 'preset': 'medium', 'threads': '1'}

    acc = np.zeros((bh, bw, 4), np.float32)
    for i in range(N):
        ta, tb = shutter_interval(i / fps, fps, sh, mode)
        n = nsamp[i]
        acc[:] = 0
        for j in range(n):
            t = ta + (j + 0.5) / n * (tb - ta)
            parts, g, _ = build(ch, motion, t, scale)
            img, (x0, y0, x1, y1) = rend.render(parts, plc.pt(g['hip']), clip_box=box)
            acc[y0 - by0:y1 - by0, x0 - bx0:x1 - bx0] += img
        acc *= 1.0 / n
        acc[..., :3] *= 255.0
        np.clip(acc[..., 3], 0.0, 1.0, out=acc[..., 3])
        truth[i, by0:by1, bx0:bx1] = to_straight_u8(acc)

        # backdrop of this frame: flicker, contact shadow
        _, g, p = build(ch, motion, i / fps, scale)
        feet = np.array([plc.pt(g['legs'][s][k]) for s in 'nf' for k in (2, 3)])
        lift = max(0.0, p[IX['ry']])
        sx = 0.5 * (feet[:, 0].min() + feet[:, 0].max())
        rx = 0.5 * (feet[:, 0].max() - feet[:, 0].min()) + 0.09 * char_h
        ry = 0.022 * char_h + 2
        inten = shadow_k / (1 + 8 * lift)
        shad = inten * np.exp(-1.6 * (((xx - sx) / rx) ** 2 + ((yy - (plc.yg - 0.2 * ry)) / ry) ** 2))
        bg = bg0 * (flick[i] * (1 - shad))[..., None]

        # composite with light wrap, inside the box
        A = acc[..., 3]
        C = acc[..., :3]
        bgc = bg[by0:by1, bx0:bx1]
        # light wrap: strength wrap_s at the silhouette, decaying inward to ~10 % over wrap_len px
        D = cv2.distanceTransform((A > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
        w = np.exp(-np.maximum(D - 1.0, 0.0) * (2.3 / wrap_len))
        w = wrap_s * cv2.GaussianBlur(w, (0, 0), 0.7, borderType=cv2.BORDER_REPLICATE)
        w *= (A > 0)
        bgl = cv2.GaussianBlur(bgc, (0, 0), 2.0, borderType=cv2.BORDER_REPLICATE)
        comp = C * (1 - w)[..., None] + (A * w)[..., None] * bgl + (1 - A)[..., None] * bgc
        frame = bg.copy()
        frame[by0:by1, bx0:bx1] = comp
        frame += rng.standard_normal(frame.shape, dtype=np.float32) * nsig
        fr8 = np.clip(frame + 0.5, 0, 255).astype(np.uint8)
        vf = av.VideoFrame.from_ndarray(fr8, format='rgb24')
        for pkt in stream.encode(vf):
            container.mux(pkt)
    for pkt in stream.encode():
        container.mux(pkt)
    container.close()
    np.savez_compressed(os.path.join(out_dir, 'truth.npz'), rgba=truth)
    sdesc = '%.2g-frame %s shutter' % (sh, mode)
    notes = '%s. %s, peak blur ~%d px, light wrap %d%% over ~%.0f px, height %.0f%%.' % (
        case['notes'], sdesc, round(peaks.max()), round(100 * wrap_s), wrap_len, 100 * hfrac)
    with open(os.path.join(out_dir, 'case.json'), 'w') as f:
        json.dump(dict(action=case['action'], key=list(key), fps=fps, size=[W, H], notes=notes), f, indent=1)
    stats['seconds'] = round(time.time() - t_start, 1)
    print('   done in %.1fs' % stats['seconds'], flush=True)
    return stats


def to_straight_u8(pm):
    a = np.clip(pm[..., 3], 0, 1)
    a8 = np.round(a * 255).astype(np.uint8)
    rgb = pm[..., :3] / np.maximum(a, 1e-6)[..., None]
    rgb = np.clip(np.round(rgb), 0, 255).astype(np.uint8)
    rgb[a8 == 0] = 0
    return np.dstack([rgb, a8])


# --------------------------------------------------------------------------- cases
def sword_attack(base, wind=0.40, strike=0.24, period=1.25):
    k = [(0.0, {}),
         (wind, dict(nsh=2.75, nel=0.75, wabs=4.1, lean=-0.08, head=-0.05, fsh=-0.35, fel=0.5, nkn=0.18, fkn=0.1)),
         (wind + 0.07, dict(nsh=2.45, nel=0.6, wabs=3.8), 'io'),
         (wind + 0.07 + strike, dict(nsh=0.75, nel=0.05, wabs=1.15, lean=0.3, head=0.1, nkn=0.55, fkn=0.25, fsh=0.25, fel=0.6), 'in'),
         (wind + 0.15 + strike, dict(nsh=0.5, nel=0.05, wabs=0.8, lean=0.33), 'out'),
         (period - 0.2, base),
         (period, base)]
    return with_breath(Keys(k, base, period), 1.9, 0.6)


def cases():
    C = []
    green_a, green_b, green_c, green_d, green_e = (40, 200, 70), (20, 180, 60), (0, 150, 90), (90, 220, 60), (60, 210, 80)
    blue_a, blue_b = (30, 60, 200), (20, 90, 220)

    # ------------------------------------------------------------------ wide blur
    goblin = Char(pal=dict(skin=(150, 110, 70), shirt=(120, 70, 40), pants=(90, 70, 50), boots=(50, 35, 25),
                           sleeve='bare', hair=(40, 30, 20)),
                  style='shaded', limb=0.22, arm=0.28, build=0.9, hair='none', strands=3, strand_px=(1.0, 2.0))
    C.append(dict(name='run_thin_legs_wide_blur_green', action='run', size=(1280, 720), fps=24, frames=61,
                  key=green_a, char=goblin, facing=1, height=0.7, shutter=(0.5, 'centred'), crf=20,
                  motion=m_gait(0.6, 0.78, 1.5, 0.85, 1.35, 0.22, hip0=0.18, knee0=0.2, bob=0.03, arm0=0.1),
                  notes='stick-thin shaded legs/arms (about 5 px) in a fast run; feet smear far wider than the limbs, blur alpha is low'))
    skel = Char(pal=dict(skin=(226, 222, 204), shirt=(226, 222, 204), pants=(226, 222, 204), boots=(210, 205, 188),
                         sleeve='bare', head=(232, 228, 212), belt=(120, 90, 60), eye=(30, 20, 20)),
                style='ink', ink_px=2.0, limb=0.2, arm=0.22, build=0.55, hair='none')
    C.append(dict(name='run_skeleton_bone_legs_trailing_blur_blue', action='run', size=(512, 512), fps=24, frames=49,
                  key=blue_b, char=skel, facing=-1, height=0.66, shutter=(0.8, 'trailing'), crf=22,
                  motion=m_gait(0.55, 0.8, 1.55, 0.9, 1.4, 0.2, hip0=0.18, knee0=0.2, bob=0.03, arm0=0.1),
                  notes='pale bone-thin ink-outlined limbs; trailing shutter smears legs into faint fans on blue'))
    soldier = Char(pal=dict(shirt=(170, 40, 35), pants=(80, 70, 60), helmet=(150, 150, 160), plume=(220, 200, 60)),
                   style='shaded', weapon='spear', helmet=True, plume=True)
    C.append(dict(name='attack_spear_thrust_wide_blur_green', action='attack', size=(832, 480), fps=24, frames=61,
                  key=green_b, char=soldier, facing=1, height=0.62, shutter=(0.8, 'leading'), crf=20,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.35, dict(nsh=0.25, nel=1.45, wabs=1.75, lean=-0.05, nkn=0.25, fkn=0.3, rx=-0.03)),
                      (0.45, dict(nsh=0.3, nel=1.4, wabs=1.72)),
                      (0.57, dict(nsh=1.45, nel=0.05, wabs=1.5, lean=0.3, nkn=0.6, nhip=0.55, rx=0.05), 'in'),
                      (0.75, dict(nsh=1.4, nel=0.08, wabs=1.52)),
                      (1.1, dict(nsh=0.55, nel=1.1, wabs=1.62, lean=0.06, nkn=0.15, nhip=0.3, rx=0.0)),
                      (1.25, {})],
                      dict(nsh=0.55, nel=1.1, wabs=1.62, fsh=0.6, fel=0.5, nhip=0.3, nkn=0.15, fhip=-0.25, fkn=0.05),
                      1.25), 1.8, 0.6),
                  notes='spear shaft about 4 px wide thrust and tilted fast; the spearhead and shaft end smear, two-handed grip'))
    samurai = Char(pal=dict(shirt=(60, 60, 110), pants=(40, 40, 60), skin=(235, 200, 170), hair=(20, 18, 22),
                            belt=(200, 60, 50), metal=(215, 220, 230)),
                   style='ink', ink_px=2.5, weapon='sword', hair='long', strands=2, strand_px=(1.0, 2.0))
    sbase = dict(nsh=0.4, nel=0.9, wabs=2.3, fsh=0.3, fel=0.8, lean=0.06, nhip=0.25, nkn=0.22, fhip=-0.22, fkn=0.12)
    C.append(dict(name='attack_sword_swing_ink_green', action='attack', size=(512, 512), fps=24, frames=61,
                  key=green_a, char=samurai, facing=1, height=0.58, shutter=(0.5, 'centred'), crf=19,
                  motion=sword_attack(sbase, strike=0.24),
                  notes='ink-outlined swordsman, overhead swing: thin blade sweeps a wide arc, ink outline smears too'))
    knight = Char(pal=dict(shirt=(150, 150, 165), sleeve=(140, 140, 155), pants=(110, 110, 125), boots=(80, 80, 90),
                           helmet=(170, 170, 185), plume=(210, 35, 35), cape=(150, 25, 30), metal=(220, 225, 235)),
                  style='shaded', weapon='sword', helmet=True, plume=True, cape=True, weapon_len=0.5)
    C.append(dict(name='attack_sword_swing_knight_trailing_blue_720p', action='attack', size=(1280, 720), fps=24, frames=61,
                  key=blue_a, char=knight, facing=-1, height=0.6, shutter=(0.5, 'trailing'), crf=21,
                  motion=sword_attack(sbase, strike=0.32, wind=0.45, period=1.4),
                  notes='long blade overhead swing, trailing shutter; red cape and plume flutter on blue'))
    whipper = Char(pal=dict(shirt=(180, 150, 110), pants=(90, 70, 50), boots=(70, 45, 30), wood=(80, 50, 30),
                            hair=(120, 70, 30)),
                   style='textured', weapon='whip', hair='long', weapon_len=0.75, whip_delay=0.012)
    wbase = dict(nsh=0.35, nel=0.6, wabs=0.6, fsh=-0.1, fel=0.4, nhip=0.22, nkn=0.12, fhip=-0.18)
    C.append(dict(name='attack_whip_crack_thin_green', action='attack', size=(832, 480), fps=24, frames=61,
                  key=green_c, char=whipper, facing=1, height=0.6, shutter=(1.0, 'centred'), crf=20,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.4, dict(nsh=2.6, nel=0.9, wabs=3.8, lean=-0.1)),
                      (0.62, dict(nsh=1.2, nel=0.1, wabs=1.5, lean=0.2, nkn=0.4), 'in'),
                      (0.8, dict(nsh=0.8, nel=0.15, wabs=1.1, lean=0.15), 'out'),
                      (1.3, {}),
                      (1.5, {})], wbase, 1.5), 2.0, 0.7),
                  notes='whip 1-3 px wide lashing out; its tip moves far per frame and thins to near-zero alpha'))
    hero = Char(pal=dict(shirt=(40, 70, 160), pants=(60, 50, 45), cape=(200, 40, 40), hair=(230, 180, 60),
                         belt=(60, 40, 30)),
                style='flat', hair='short', strands=4, strand_px=(1.0, 2.5), cape=True, wind=0.9, cape_len=0.44)
    C.append(dict(name='run_sprint_cape_16fps_green', action='run', size=(448, 448), fps=16, frames=49,
                  key=green_b, char=hero, facing=1, height=0.72, shutter=(0.6, 'centred'), crf=22,
                  motion=m_gait(0.5, 0.8, 1.6, 0.9, 1.3, 0.25, hip0=0.2, knee0=0.2, bob=0.035, arm0=0.1),
                  notes='16 fps sprint: large per-frame limb travel, streaming cape and blond 1-2 px hair strands'))

    # ------------------------------------------------------------------ near-key clothing
    ranger = Char(pal=dict(shirt=(60, 165, 75), skirt=(55, 160, 70), pants=(95, 80, 55), boots=(70, 50, 35),
                           hair=(150, 90, 40), belt=(80, 55, 30)),
                  style='shaded', skirt=True, hair='short')
    C.append(dict(name='walk_green_tunic_on_green', action='walk', size=(512, 512), fps=24, frames=49,
                  key=green_a, char=ranger, facing=1, height=0.7, shutter=(0.8, 'centred'), crf=20,
                  motion=m_gait(1.0, 0.42, 0.7, 0.45, 0.35, 0.07),
                  notes='green tunic almost the key hue; the tunic must stay opaque'))
    druid = Char(pal=dict(shirt=(100, 110, 45), cape=(35, 78, 42), pants=(60, 60, 40), boots=(55, 45, 30),
                          skin=(220, 180, 150), hair=(60, 40, 25), robe=(105, 115, 48), trim=(35, 78, 42)),
                 style='textured', robe=True, hood=True, cape=True, cape_len=0.55, hair='short', weapon='staff',
                 tex_amt=0.12)
    C.append(dict(name='idle_olive_cloak_darkgreen_hood_on_green', action='idle', size=(832, 480), fps=24, frames=61,
                  key=green_b, char=druid, facing=-1, height=0.76, shutter=(1.0, 'centred'), crf=21,
                  motion=m_idle(dict(nsh=0.45, nel=0.9, wabs=2.9, fsh=0.05), period=2.4, sway=1.0),
                  notes='olive robe and dark-green hood/cloak on green key, textured cloth'))
    teen = Char(pal=dict(shirt=(238, 238, 235), sleeve=(238, 238, 235), pants=(48, 78, 150), boots=(235, 235, 235),
                         skin=(205, 155, 125), hair=(25, 20, 20)),
                style='flat', hair='short', strands=3, strand_px=(1.0, 2.0), strand_len=0.12)
    C.append(dict(name='walk_blue_jeans_on_blue', action='walk', size=(448, 448), fps=24, frames=49,
                  key=blue_a, char=teen, facing=1, height=0.74, shutter=(1.5, 'leading'), crf=22,
                  motion=m_gait(0.95, 0.45, 0.75, 0.5, 0.35, 0.06),
                  notes='blue jeans close to the blue key and a white shirt that picks up blue wrap'))
    mage = Char(pal=dict(shirt=(38, 72, 185), sleeve=(38, 72, 185), robe=(36, 70, 188), trim=(225, 185, 60),
                         skin=(240, 215, 195), hair=(220, 220, 225), hood=None, cape=(30, 60, 160), orb=(120, 230, 255),
                         belt=(225, 185, 60)),
                style='shaded', robe=True, hood=True, weapon='staff')
    mbase = dict(nsh=0.45, nel=0.8, wabs=2.9, fsh=0.2, fel=0.5)
    C.append(dict(name='skill_blue_robe_staff_on_blue', action='skill', size=(512, 512), fps=24, frames=61,
                  key=blue_b, char=mage, facing=1, height=0.68, shutter=(0.8, 'centred'), crf=20,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.5, dict(nsh=2.6, nel=0.3, wabs=3.0, fsh=2.3, fel=0.4, lean=-0.12, head=-0.15, glow=0.6)),
                      (0.8, dict(nsh=2.75, nel=0.2, wabs=3.05, glow=1.0)),
                      (1.05, dict(nsh=1.5, nel=0.1, wabs=2.2, fsh=1.3, fel=0.2, lean=0.2, head=0.05, nkn=0.35, glow=0.8), 'in'),
                      (1.7, dict(glow=0.5)),
                      (2.3, dict(mbase, lean=0.04, head=0.0, nkn=0.06, fkn=0.04, glow=0.0)),
                      (3.0, {})], mbase), 2.0, 0.8),
                  notes='blue robe and hood on a blue key; staff raised and swung down, glowing orb'))

    # ------------------------------------------------------------------ teal / pale skin
    orc = Char(pal=dict(skin=(62, 168, 152), shirt=(110, 80, 50), sleeve='bare', pants=(80, 60, 45),
                        boots=(60, 45, 30), hair=(25, 25, 25), belt=(150, 120, 60)),
               style='shaded', build=1.25, hair='long', strands=3, strand_px=(1.2, 2.5))
    C.append(dict(name='idle_teal_skin_orc_green', action='idle', size=(512, 512), fps=24, frames=61,
                  key=green_c, char=orc, facing=-1, height=0.72, shutter=(1.0, 'centred'), crf=20,
                  motion=m_idle(dict(lean=0.08, nsh=0.2, nel=0.4, fsh=-0.05, nhip=0.14, fhip=-0.13), 2.0, 1.3, 1.0),
                  notes='teal (green-blue) skin on a green key: bare arms and head are near-key'))
    paladin = Char(pal=dict(shirt=(236, 236, 230), sleeve=(236, 236, 230), pants=(228, 228, 222), boots=(210, 210, 205),
                            skin=(246, 226, 216), hair=(242, 236, 210), cape=(246, 246, 242), helmet=None,
                            belt=(220, 200, 140), metal=(240, 240, 245)),
                   style='shaded', cape=True, hair='long', strands=3, strand_px=(1.0, 2.0), weapon='sword')
    hbase = dict(nsh=0.3, nel=0.7, wabs=2.0, fsh=-0.05, fel=0.4)
    C.append(dict(name='hurt_pale_white_paladin_yellowgreen', action='hurt', size=(832, 480), fps=24, frames=61,
                  key=green_d, char=paladin, facing=1, height=0.74, shutter=(1.0, 'centred'), crf=20,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.25, {}),
                      (0.4, dict(rx=-0.06, lean=-0.35, head=-0.3, nsh=1.0, nel=0.6, wabs=2.6, fsh=1.2, fel=0.4, nkn=0.3, fkn=0.3), 'out'),
                      (0.6, dict(rx=-0.09, lean=-0.42, head=-0.25), 'out'),
                      (1.3, dict(hbase, rx=0.0, lean=0.04, head=0.0, nkn=0.06, fkn=0.04)),
                      (1.55, dict(rx=-0.06, lean=-0.35, head=-0.3, nsh=1.0, nel=0.6, wabs=2.6, fsh=1.2, fel=0.4, nkn=0.3, fkn=0.3), 'out'),
                      (1.8, dict(rx=-0.09, lean=-0.42, head=-0.25), 'out'),
                      (2.6, dict(hbase, rx=0.0, lean=0.04, head=0.0, nkn=0.06, fkn=0.04))], hbase), 1.8, 0.6),
                  notes='white/pale character and white cape on a yellowish-green key; recoil blur; wrap tints the white'))
    alien = Char(pal=dict(skin=(95, 195, 205), shirt=(60, 50, 70), pants=(50, 45, 60), boots=(30, 30, 35), sleeve='bare'),
                 style='textured', hair='none', tex_amt=0.1)
    C.append(dict(name='walk_cyan_skin_on_blue_720p', action='walk', size=(1280, 720), fps=24, frames=73,
                  key=blue_a, char=alien, facing=-1, height=0.55, shutter=(1.0, 'trailing'), crf=21,
                  motion=m_gait(1.1, 0.4, 0.65, 0.5, 0.3, 0.05),
                  notes='cyan skin with bare arms on a blue key, textured, trailing shutter'))

    # ------------------------------------------------------------------ ordinary
    rogue = Char(pal=dict(shirt=(130, 50, 120), pants=(60, 50, 60), boots=(40, 30, 30), hair=(190, 60, 40),
                          belt=(200, 170, 60)),
                 style='ink', ink_px=3.0, hair='short', strands=2)
    C.append(dict(name='walk_ink_outlined_green', action='walk', size=(512, 512), fps=24, frames=49,
                  key=green_a, char=rogue, facing=1, height=0.62, shutter=(0.6, 'centred'), crf=19,
                  motion=m_gait(1.0, 0.42, 0.7, 0.45, 0.35, 0.07),
                  notes='3 px dark ink outline around every part; plain walk'))
    girl = Char(pal=dict(shirt=(230, 120, 60), pants=(60, 70, 90), hair=(90, 45, 20), strand=(110, 60, 30)),
                style='textured', hair='long', strands=6, strand_px=(1.0, 3.0), strand_len=0.25)
    C.append(dict(name='idle_textured_hair_strands_16fps_green', action='idle', size=(448, 448), fps=16, frames=49,
                  key=green_e, char=girl, facing=1, height=0.78, shutter=(1.2, 'centred'), crf=23,
                  motion=m_idle({}, 1.8, 1.0, 1.0),
                  notes='textured clothing and six 1-3 px hair strands swaying at 16 fps'))
    brute = Char(pal=dict(shirt=(190, 150, 60), sleeve='bare', pants=(110, 60, 40), skin=(200, 140, 100),
                          hair=(50, 30, 20)),
                 style='shaded', build=1.3, hair='short')
    C.append(dict(name='hurt_shaded_brute_blue', action='hurt', size=(512, 512), fps=24, frames=61,
                  key=blue_b, char=brute, facing=-1, height=0.66, shutter=(0.9, 'leading'), crf=21,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.2, {}),
                      (0.28, dict(rx=-0.07, lean=-0.4, head=-0.35, nsh=1.1, nel=0.5, fsh=1.3, fel=0.5, nkn=0.35, fkn=0.3), 'out'),
                      (0.5, dict(rx=-0.1, lean=-0.45, head=-0.3), 'out'),
                      (1.3, dict(STANCE, rx=0.0)),
                      (2.5, {})], {}), 2.0, 1.0),
                  notes='three-tone shaded brute, sudden recoil (leading shutter)'))
    ninja = Char(pal=dict(shirt=(24, 24, 30), sleeve=(24, 24, 30), pants=(22, 22, 28), boots=(18, 18, 22),
                          hair=(26, 26, 32), head=(26, 26, 32), skin=(205, 165, 135), belt=(150, 30, 30), glove=(22, 22, 26),
                          metal=(170, 175, 185)),
                 style='shaded', mask=True, hair='none', weapon='sword', weapon_len=0.36, strands=2,
                 strand_px=(1.5, 3.0), strand_len=0.22, far_dark=0.9)
    C.append(dict(name='idle_near_black_ninja_green', action='idle', size=(832, 480), fps=24, frames=61,
                  key=green_a, char=ninja, facing=1, height=0.7, shutter=(1.0, 'centred'), crf=22,
                  motion=m_idle(dict(nsh=0.5, nel=1.0, wabs=2.6, lean=0.12, nhip=0.3, nkn=0.35, fhip=-0.25, fkn=0.25),
                                1.6, 1.0, 1.0),
                  notes='near-black costume: dark pixels where wrap and compression shift colour most; mask tails 1.5-3 px'))
    bard = Char(pal=dict(shirt=(200, 60, 80), sleeve=(240, 220, 180), pants=(80, 60, 120), helmet=(60, 40, 90),
                         plume=(250, 250, 250), hair=(120, 70, 30)),
                style='textured', helmet=True, plume=True, strands=2, hair='short')
    C.append(dict(name='skill_textured_plume_cast_green_720p', action='skill', size=(1280, 720), fps=24, frames=61,
                  key=green_d, char=bard, facing=1, height=0.66, shutter=(0.8, 'centred'), crf=20,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.4, dict(nsh=2.9, nel=0.2, fsh=2.7, fel=0.3, lean=-0.1, head=-0.2, nkn=0.15, fkn=0.15)),
                      (0.75, dict(nsh=3.0, nel=0.15, fsh=2.8, fel=0.2)),
                      (0.9, dict(nsh=1.6, nel=0.05, fsh=1.5, fel=0.1, lean=0.22, head=0.05, nkn=0.45, nhip=0.4), 'in'),
                      (1.6, {}),
                      (2.2, dict(STANCE)),
                      (3.0, {})], {}), 1.9, 0.8),
                  notes='arms raised then thrust forward; white plume with thin 1-2 px fronds on a yellow-green key'))
    monk = Char(pal=dict(shirt=(230, 140, 40), robe=(230, 140, 40), trim=(140, 40, 30), skin=(200, 150, 110),
                         belt=(140, 40, 30), orb=(255, 120, 60)),
                style='ink', ink_px=2.0, robe=True, hair='none', weapon='staff')
    C.append(dict(name='attack_staff_strike_ink_blue', action='attack', size=(512, 512), fps=24, frames=57,
                  key=blue_a, char=monk, facing=-1, height=0.64, shutter=(0.7, 'centred'), crf=21,
                  motion=with_breath(Keys([
                      (0.0, {}),
                      (0.4, dict(nsh=2.4, nel=0.5, wabs=3.6, lean=-0.1, glow=0.4)),
                      (0.62, dict(nsh=1.1, nel=0.1, wabs=1.6, lean=0.25, nkn=0.4, glow=1.0), 'in'),
                      (0.75, dict(nsh=1.0, nel=0.1, wabs=1.5), 'out'),
                      (1.3, dict(glow=0.0, nsh=0.45, nel=0.8, wabs=2.9, lean=0.04, nkn=0.06)),
                      (1.6, {})], dict(nsh=0.45, nel=0.8, wabs=2.9, fsh=0.2, fel=0.5), 1.6), 2.0, 0.8),
                  notes='orange-robed monk with ink outline swings a staff down; thick staff blur on blue'))
    return C


def main():
    args = sys.argv[1:]
    probe = '--probe' in args
    args = [a for a in args if a != '--probe']
    all_cases = cases()
    if '--list' in args:
        for c in all_cases:
            print(c['name'])
        return
    sel = [c for c in all_cases if not args or any(a in c['name'] for a in args)]
    t0 = time.time()
    for c in sel:
        run_case(c, probe)
    print('total %.1fs for %d cases' % (time.time() - t0, len(sel)))


if __name__ == '__main__':
    main()
