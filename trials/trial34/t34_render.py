"""Trial 34's case builder: a character source rendered per frame (sub-frame renders where
it moves fast), composited over the model's screen with wrap and shadow, ghosted where the
case says, and written as a case folder."""
from __future__ import annotations

import numpy as np

from t34_common import Screen, action_frames, composite, ghost, shadow_field, to_u8_rgba, write_case
from t34_rig import Char, posed
from t34_sdf import Painter, straight


class RigSource:
    """A jointed character posed by frame time; facing(t) may turn it round."""

    def __init__(self, spec, action, n, origin, period=None, keys=None, amp=1.0, ease=4.0,
                 facing=None, drift=(0.0, 0.0)):
        self.ch = Char(spec)
        self.action, self.n, self.origin = action, n, np.asarray(origin, np.float32)
        self.period, self.keys, self.amp, self.ease = period, keys, amp, ease
        self.facing = facing or (lambda t: 1)
        self.drift = drift

    def pose(self, t):
        return posed(self.action, t, self.n, ease=self.ease, period=self.period, keys=self.keys, amp=self.amp)

    def org(self, t):
        return self.origin + np.array(self.drift, np.float32) * t

    def points(self, t):
        return self.ch.tip(self.pose(t), self.org(t), self.facing(t))

    def render(self, t, H, W):
        P = Painter(H, W)
        self.ch.draw(P, self.pose(t), self.org(t), self.facing(t), t)
        return P.rgba()


def render_truth(src, n, H, W, blur=None):
    """Straight float RGBA per frame. blur = dict(shutter (frames), px (max step between
    sub-frames), kmax): sub-frame renders averaged premultiplied where parts move fast."""
    out, ks = [], []
    for t in range(n):
        if t == 0 or not blur:
            C, A = src.render(float(t), H, W)
            ks.append(1)
        else:
            sh = blur["shutter"]
            t0, t1 = t - sh / 2, t + sh / 2
            disp = float(np.max(np.linalg.norm(src.points(t1) - src.points(t0), axis=1)))
            k = int(np.clip(np.ceil(disp / blur.get("px", 2.0)), 1, blur.get("kmax", 24)))
            ks.append(k)
            if k == 1:
                C, A = src.render(float(t), H, W)
            else:
                C = np.zeros((H, W, 3), np.float32)
                A = np.zeros((H, W), np.float32)
                for j in range(k):
                    tj = t0 + (j + 0.5) / k * (t1 - t0)
                    c, a = src.render(tj, H, W)
                    C += c
                    A += a
                C /= k
                A /= k
        out.append(straight(C, A))
    return out, ks


def build(root, name, action, src, H, W, screen_kw, wrap, crf, notes, params, expect=(),
          blur=None, shadow=None, ghost_g=0.0, ghost_recursive=False, seed=1, n=None,
          truth=None, post=None):
    """Render, composite, ghost, encode and write one case; returns (folder, truth_u8, clip)."""
    n = n or action_frames(action)
    if truth is None:
        truth, ks = render_truth(src, n, H, W, blur)
    else:
        ks = [1] * n
    scr = Screen(H, W, seed, **screen_kw)
    sh = None
    if shadow:
        sh = shadow_field(H, W, shadow["cx"], shadow["cy"], shadow["rx"], shadow["ry"])
    clean = []
    for t in range(n):
        w = scr.settle_w(t)
        wr = None
        if wrap:
            wr = dict(wrap)
            ramp = min(1.0, t / max(1, wrap.get("settle", 3)))
            wr["strength"] = wrap["strength"] * ramp
        clean.append(composite(truth[t], scr.frame(t), wr if t > 0 else None, sh,
                               shadow["k"] if shadow else 0.0, w))
    shown = ghost(clean, ghost_g, ghost_recursive) if ghost_g > 0 else clean
    if post is not None:
        shown = post(shown)
    clip = [np.clip(np.round(f), 0, 255).astype(np.uint8) for f in shown]
    truth_u8 = np.stack([to_u8_rgba(f) for f in truth])
    p = dict(params)
    skw = dict(canvas=(0, 255, 0), settle=4)
    skw.update(screen_kw)
    p.update(user_canvas=list(skw["canvas"]), screen_settle_frames=skw["settle"],
             screen={k: (list(v) if isinstance(v, tuple) else v) for k, v in skw.items()},
             wrap=wrap, shadow=shadow, subframes_per_frame=ks, ghost=ghost_g,
             ghost_recursive=ghost_recursive, seed=seed)
    folder = write_case(root, name, action, list(expect), notes, p, truth_u8, clip, crf)
    return folder, truth_u8, clip
