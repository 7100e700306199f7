"""Strands finer than a pixel, in bundles: hair, a mane, a tassel. The light wrap and
H.264's 4:2:0 colour leave no pixel of a strand unspilled, and a brown strand mixed with a
green screen is the colour of a green shirt: where one hangs near, the shirt's colour is
the "interior" nearby that explains the strand best (core/candidates.py), and the hair came
out green. Colour cannot tell them apart; shape can. A strand is a thin ridge of distance
from the backdrop, with the screen (or a gap of it) on both sides, where a shirt's rim ramps
from the backdrop to the shirt (`bundles`). Where a bundle hangs from a part of a colour
the portrait wears on its thin parts (`attached`), a pixel whose chosen colour is itself
such a colour's mix with the backdrop is re-read as that mix (`reread`, against
core/reference.thin_colours).
"""

from __future__ import annotations

import cv2
import numpy as np

from . import despill, unblur
from .backdrop import KeyModel
from .channels import key_excess
from .edgezone import Edge
from .solve import Solved

# A pixel lies on a strand where its distance from the backdrop exceeds what an opening of
# that distance by a 3x3 square leaves there (what lies on parts 3 px or wider, a rim's
# ramp included) by this share of it, and that distance is over STRAND_FLOOR levels; a
# bundle is its strands and the pixels beside them (the gaps: mixes too). Measured (edge excess) on
# three independent trials' shaded characters in green shirts with brown strands under a
# 6 px, 35 % wrap, before -> as landed: +6.8 -> +1.4, +6.4 -> +3.9, +7.8 -> +5.6. While
# the step was built (before the root, the chosen colour's test and BUNDLE_DEPTH) 0.15
# and 0.25 left the last +6.2 and +6.7 against +5.6 at 0.1.
STRAND_CONTRAST = 0.1
STRAND_FLOOR = 20.0
# Only a bundle that touches (within a 5x5 square: the rim between is a mix) pixels of a
# thin colour itself, the strands' root: a light-blue shirt's mottle on a blue screen read
# as strands, and its pixels as the portrait's yellow plume mixed with the blue (edge
# +0.9 -> -3.9, yellow specks in the shirt). (Round a dark strand colour, UNBLUR_KEEP
# takes in ink and dark shades too: there the tests below must hold.)
ROOT_REACH = 5
# Only pixels whose chosen colour is itself a mix of a thin colour with the backdrop
# (within UNBLUR_RESIDUAL levels of its line): a white character on blue took a beige
# strand colour's mix without this (edge -0.3 -> -3.2). Measured against asking for a
# colour of the key's hue (20+ levels of excess), which left a teal-skinned nereid's navy
# strands (they chose a teal) at +8.8: +2.3 (passes); the three green shirts +5.8, +3.9,
# +1.4 (+5.8, +3.7, +0.7), the strands fixture +5.8 (+5.6).
# ... and that a thin colour explains within this many levels of how well the chosen one
# does (in RGB, or by luma where 4:2:0 smeared the colour).
FIT_SLACK = 8.0
# A bundle's mask fills the gaps between its strands, so they lie deeper than the rim:
# within this many px of the silhouette's edge a strand's colour may be read at any share;
# deeper, at most the wrap's (an opaque shirt's mottle in a VP9 clip at CRF 32 read as a
# 37 % mix of the ranger's brown hair, painted brown and opaque). Measured before the
# chosen colour's test: at 4 px the three trials' green shirts kept +6.0, +4.1, +0.8
# (+5.8, +3.7, +0.7 at 6).
BUNDLE_DEPTH = 6.0
SHARE_SLACK = 0.02


def bundles(p: np.ndarray, plate: np.ndarray) -> np.ndarray:
    """(h, w) bool: the pixels of p (h, w, 3) on or beside a strand over the backdrop plate
    (h, w, 3)."""
    distance = np.sqrt(((p - plate) ** 2).sum(-1)).astype(np.float32)
    square = np.ones((3, 3), np.uint8)
    ridge = distance - cv2.morphologyEx(distance, cv2.MORPH_OPEN, square)
    strand = (ridge >= STRAND_CONTRAST * distance) & (distance > STRAND_FLOOR)
    return cv2.dilate(strand.astype(np.uint8), square) > 0


def attached(found: np.ndarray, p: np.ndarray, thin: np.ndarray) -> np.ndarray:
    """The bundles of found ((h, w) bool) that touch, within ROOT_REACH // 2 + 1 px (a
    ROOT_REACH square round each, then 8-connected), pixels of p (h, w, 3) of a thin
    colour itself (within UNBLUR_KEEP levels of one of thin)."""
    own = despill.closest(p.reshape(-1, 3), thin)[0].reshape(found.shape) <= unblur.UNBLUR_KEEP
    root = cv2.dilate(own.astype(np.uint8), np.ones((ROOT_REACH, ROOT_REACH), np.uint8)) > 0
    n, labels = cv2.connectedComponents((found | root).astype(np.uint8), connectivity=8)
    touching = np.zeros(n, bool)
    touching[labels[root]] = True
    return found & touching[labels]


def reread(edge: Edge, solved: Solved, p: np.ndarray, plate: np.ndarray, thin: np.ndarray,
           ref: np.ndarray, key: KeyModel) -> Solved:
    """solved, where zone pixels in a bundle of strands attached to its root (p, plate:
    the zone's box) chose a colour that is itself a mix of one of the portrait's thin
    parts' colours (thin, (k, 3)) with the backdrop, whose nearest portrait colour (of
    ref) is none of those, and are a mix of one of those with the backdrop (within
    UNBLUR_RESIDUAL levels, and FIT_SLACK of the chosen colour's fit) at a share their
    place allows (BUNDLE_DEPTH): that colour, at that share. Thin colours of the key's hue
    are left out: spill on them cannot be told from the part."""
    thin = thin[key_excess(thin, key.channel) <= 0]
    if not len(thin):
        return solved
    rows = np.flatnonzero(attached(bundles(p, plate), p, thin)[edge.mask])
    chosen = solved.F[rows]
    as_mix = [despill.line_residual(chosen, edge.B[rows], np.broadcast_to(c, chosen.shape))
              for c in thin]
    rows = rows[np.min(as_mix, axis=0) <= unblur.UNBLUR_RESIDUAL]
    _, near = despill.closest(solved.F[rows], ref)
    rows = rows[despill.closest(ref[near], thin)[0] > unblur.UNBLUR_KEEP]
    if not len(rows):
        return solved
    P, B, chosen = edge.P[rows], edge.B[rows], solved.F[rows]
    t, f = despill.unmix(P, B, np.broadcast_to(thin, (len(rows), *thin.shape)),
                         np.full(len(rows), despill.MAX_BLUR, np.float32),
                         2.0 * key.noise + 4.0)
    resid = despill.line_residual(P, B, f)
    fits = (t < 1.0) & (resid < unblur.UNBLUR_RESIDUAL) & (
        resid <= despill.line_residual(P, B, chosen) + FIT_SLACK)
    # Off the RGB line where 4:2:0 averaged a strand's chroma with the gaps' (x264 rings
    # there: a brown strand on green read (4, 120, 22)): a mix by luma.
    smeared = ~fits & edge.smeared[rows]
    if smeared.any():
        Ps, Bs = P[smeared], B[smeared]
        f_luma, t_luma, by_luma = unblur.luma_mix(Ps, Bs, thin, despill.MAX_BLUR)
        cap = np.full(len(Ps), despill.MAX_BLUR, np.float32)
        cost = [despill.SmearedParts.of(Ps, Bs, c[:, None]).at(cap)[1][:, 0]
                for c in (f_luma, chosen[smeared])]
        by_luma &= cost[0] <= cost[1] + FIT_SLACK
        f[smeared] = np.where(by_luma[:, None], f_luma, f[smeared])
        t[smeared] = np.where(by_luma, t_luma, t[smeared])
        fits[smeared] = by_luma
    # A share the pixel's place allows (BUNDLE_DEPTH).
    fits &= (edge.depth[rows] <= BUNDLE_DEPTH) | (1 - t <= edge.cap[rows] + SHARE_SLACK)
    rows, t, f = rows[fits], t[fits], f[fits]
    share, F, Fp = solved.t.copy(), solved.F.copy(), solved.Fp.copy()
    share[rows], F[rows], Fp[rows] = t, f, f
    # The pixel's opacity stays as solve judged it (solved.blurred): off the rim, a strand
    # taken for opaque stays opaque, now in its colour. Judged again by the new share,
    # the bundles' deeper pixels went translucent: a small spearman in blue on blue, whose
    # trousers near his spear's shaft read as its mix, went 4.6 -> 7.1 % holes, a green
    # shirt in a VP9 clip 0.4 -> 0.7 %, and the strands gained nothing.
    return solved._replace(t=share, F=F, Fp=Fp)
