"""Green-screen matte, despill and defringe of the sheet's frames, at full resolution.

The backdrop comes from core/backdrop.py (a plate learned from the clip), the silhouette
from core/silhouette.py. The soft edge comes from the compositing equation
P = a*F + (1-a)*B solved in a band around the silhouette and the light wrap's reach, with F
a colour the spill cannot reach and B the backdrop seen nearby (the un-mixing itself is
core/despill.py). This module runs the steps on one frame (`refine`), each in its own home:
where to un-mix (core/edgezone.py), with which candidate colours (core/candidates.py), the
colour that follows (core/solve.py: a limiter relative to the chosen colour removes what is
left without touching the character's own greens), the alpha (core/coverage.py:
translucent where a part is blurred by motion; light outlines, core/outline.py) and parts
the backdrop shows through (core/seethrough.py). The colours the model drew the character
in beside the portrait's are core/drawn.py's.
"""

from __future__ import annotations

import cv2
import numpy as np

from . import outline, silhouette, strands
from .backdrop import KeyModel
from .candidates import candidate_colours, frame_colours, unspilled
from .coverage import zone_alpha
from .edgezone import CHROMA_SMEAR, edge_zone, soft_edge, this_frames_plate, wrap_depth
from .reference import Reference
from .seethrough import drawn_see_through, see_through
from .solve import ink_mix, solve


def refine(frame: np.ndarray, key: KeyModel, defringe: bool = True,
           box: tuple[int, int, int, int] | None = None,
           reference: Reference | None = None,
           moving: np.ndarray | None = None) -> np.ndarray:
    """Full-resolution RGBA (uint8) of one frame (H, W, 3) uint8: soft matte, despill,
    defringe. key: the frame's own (KeyModel.at: a floor's rows differ frame by frame).

    box (x0, y0, x1, y1): where the character can be (from the coarse mask); the work is
    done there only and the rest of the frame is transparent. reference: what the portrait
    tells (reference.portrait_reference): colours of the character known to be unspilled, to
    un-mix against, and its outline's colour (or, outlined in a shade of each part, that
    shade).
    moving: (H, W) bool, where the silhouette moved between the neighbouring frames (see
    silhouette.moving_region): there a part may be blurred, translucent in the sprite.
    """
    fh, fw = frame.shape[:2]
    if key.frame_plates is not None:  # a floor's rows, a frame's own backdrop colour
        if key.frame_plates != 1:
            raise ValueError("matte.refine needs the frame's own key: KeyModel.at(t)")
        key = key.at(0)
    if box is not None:
        x0, y0, x1, y1 = clamp_box(box, fh, fw)
        out = np.zeros((fh, fw, 4), np.uint8)
        if x1 > x0 and y1 > y0:
            plate = key.plate_at(fh, fw)[y0:y1, x0:x1]
            out[y0:y1, x0:x1] = _refine(frame[y0:y1, x0:x1], plate, key, defringe, (fh, fw),
                                        reference,
                                        None if moving is None else moving[y0:y1, x0:x1],
                                        (x0 > 0, y0 > 0, x1 < fw))
        return out
    return _refine(frame, key.plate_at(fh, fw), key, defringe, (fh, fw), reference, moving)


def clamp_box(box: tuple[int, int, int, int] | None, h: int,
              w: int) -> tuple[int, int, int, int]:
    """A box (x0, y0, x1, y1), padded past the frame's edges, cut to the frame (h, w); the
    whole frame for None. Empty (x1 <= x0 or y1 <= y0) where it lies outside."""
    if box is None:
        return 0, 0, w, h
    return max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])



def _refine(frame: np.ndarray, plate: np.ndarray, key: KeyModel, defringe: bool,
            full: tuple[int, int], reference: Reference | None = None,
            moving: np.ndarray | None = None,
            cut: silhouette.Sides = (False, False, False)) -> np.ndarray:
    # The portrait's colours, or None (no portrait, or an empty palette): the steps below
    # that use them are skipped then.
    ref = Reference.colours(reference)
    ink = None if reference is None else reference.outline  # the portrait's drawn outline
    ink_shade = None if reference is None else reference.ink_shade  # ... or shaded one
    p = frame.astype(np.float32)
    sil = silhouette.find(p, plate, key, full, ref, moving, cut)  # cut: the box's sides
    alpha = sil.fg.astype(np.float32)
    rgb = frame.copy()  # outside the zone the frame's own colour
    if not sil.fg.any():
        return _pack(rgb, alpha)
    plate = this_frames_plate(p, plate, sil)
    depth = cv2.distanceTransform(sil.fg, cv2.DIST_L2, 5)  # 1 on the silhouette's outer ring
    wrap = wrap_depth(*full)
    r = soft_edge(sil.distance, depth, sil.r, wrap)  # sil.r, or wider on soft art
    deep, src = unspilled(p, plate, depth, wrap, r, ref, key)
    colours = frame_colours(src, deep, plate, sil.outer, ref, key)
    edge = edge_zone(p, plate, sil, depth, r, wrap, key, ref, moving, colours.known)
    C, prior, local = candidate_colours(src, deep, colours, edge, wrap, ref, ink, ink_shade,
                                        key.noise, key.channel)
    solved = solve(edge, C, prior, key, ref)
    if reference is not None and ref is not None and len(reference.thin):
        solved = strands.reread(edge, solved, p[edge.box], plate[edge.box], reference.thin,
                                ref, key)
    if ink is not None:
        solved = ink_mix(edge, solved, ink)
    a, Fp, light_outlined = zone_alpha(edge, solved, local, defringe, ref, key.noise,
                                       depth[edge.box],
                                       reference is not None and reference.light_ink)
    alpha_s = alpha[edge.box]
    alpha_s[edge.mask] = a
    rgb[edge.box][edge.mask] = np.clip(Fp, 0, 255).astype(np.uint8)
    if light_outlined:
        outline.clear_ring(p[edge.box], plate[edge.box], sil.fg[edge.box], sil.gaps[edge.box],
                           sil.kernel, sil.r, alpha_s)
    if ref is not None:
        see_through(p, plate, depth, wrap + CHROMA_SMEAR, ref, key, defringe, moving,
                    alpha, rgb)
    if reference is not None and reference.see_through:
        drawn_see_through(p, plate, depth, r + CHROMA_SMEAR, reference.translucent, ref,
                          wrap, defringe, alpha, rgb)
    return _pack(rgb, alpha)


def _pack(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """RGBA uint8 from colour (H, W, 3) uint8 and alpha (H, W) in 0..1; fully transparent
    pixels black (a multiply: masked assignment into the strided view cost twice as much)."""
    a8 = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
    out = np.empty((*alpha.shape, 4), np.uint8)
    np.multiply(rgb, (a8 > 0)[..., None], out=out[..., :3], casting="unsafe")
    out[..., 3] = a8
    return out
