"""The backdrop's key, learned from the clip itself: its colour, a smooth plate, its noise.

Why not a fixed #00FF00 key: a generated backdrop carries gradients, vignetting, noise and
H.264 chroma subsampling. We estimate a smooth *plate* (the backdrop colour at every pixel)
from pixels whose chromaticity matches the border's, and judge each pixel by how far it is
from the plate *in colour, not in brightness*: a shadow or vignette darkens the backdrop
along its own colour ray, a green shirt leaves that ray. So characters wearing green or teal
keep their colours, and contact shadows do not become character. The coarse masks (one per
frame, at the reduced size) follow from it; core/matte.py refines the sheet's frames.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .channels import key_excess, max_abs, norm2, spread, total
from .quantiles import median, nanmedian, nanpercentile, percentile

# The plate already models gradients and vignetting, so only soft shadows remain: darker
# than this share of the plate is character (a dark green shirt must not read as shadow).
SHADOW_FLOOR = 0.75
# Backdrop brighter than this multiple of the plate is a highlight on the character.
HIGHLIGHT_CEIL = 1.3
# A key colour must be saturated (pure green spans ~0.6 in chromaticity; grey spans 0,
# a warm grey wall (140, 130, 120) 0.05, a blue-grey one (110, 120, 140) 0.08, a beige
# room (200, 170, 130) 0.14, a sky-blue one (135, 170, 210) 0.15). A model's washed-out
# grade of a green screen, (96, 150, 100), spans 0.16 and keys well (a held-out trial's
# rogue: IoU 0.980), but at 0.2 it was flagged NOISE, and a user would re-roll it: a
# green, and only a green, counts from MIN_GREEN_KEY_SATURATION.
MIN_KEY_SATURATION = 0.2
MIN_GREEN_KEY_SATURATION = 0.12
# ... where green leads both other channels by this much in chromaticity: the washed-out
# screen by 0.14, a khaki (160, 165, 100) or olive (150, 160, 100) wall, green by a level
# or ten, by 0.01-0.03 (a second review: they read as screens).
GREEN_LEAD = 0.05
# A row whose backdrop reads under this share of the wall's brightness (the frame's 80th
# percentile of its rows') at both sides of the frame is a floor: a studio cyclorama's
# floor is darker than its wall (generated footage draws one often: 62-68 % of the wall
# in an independent trial), a step the smooth plate cannot follow, and under
# SHADOW_FLOOR the whole floor was character (IoU 0.07-0.56, the sheet's cells the
# frame's width). Such rows' plate is darkened to the backdrop seen at the frame's
# sides, frame by frame (a camera's drift moves the horizon: 20 px over 49 frames
# there). Judged at the brighter side, so a dark green part touching one side of the
# frame is no floor; rows within this share stay as fitted (the plate already models
# gradients and vignetting), so clips with no floor are matted as before. A row neither
# side shows the backdrop in (a prop across the frame) takes its neighbours' reading.
# Known limit: the floor's rows are read at the model's size (~128 px), so at full size
# a sharp horizon is spread over about two of its rows; a floor 60 % darker than the
# wall behind a sharp horizon left a faint band of character there (the trials' soft
# horizons at 62-68 % did not).
FLOOR_DARKER = 0.9
# ... rows that reach the frame's bottom and begin with a step down of this share of the
# wall's brightness over 5 % of the height: a vignette darkens the lower rows as much,
# smoothly (a quality fixture's 30 % vignette read as a floor from 84 % down).
FLOOR_STEP = 0.12
# A frame whose own step the grain hid shows the clip's floor where this share of its rows
# from the clip's horizon down, the bottom row among them, read under FLOOR_DARKER
# (_shows_floor). A review's clip: a dark green part across frames the camera had tilted
# off the floor, from 78 to 94 % of the height, taken for a floor when the rows' median
# alone was asked, and keyed out whole.
FLOOR_SHOWN = 0.75
# A frame whose backdrop, seen round the frame's edge, lies this share of the key's
# threshold off the plate in colour (not in brightness, which colour_distance forgives)
# has its own: a model's first frame is the user's flat canvas (#00FF00), and the model
# then renders the screen its own way within a few frames (an independent trial's clips:
# (0, 254, 0) in frame 0 to (27, 205, 41) by frame 4). Read against the clip's plate,
# those frames' whole backdrop was character: sheets cut at the frame's edge (CROPPED),
# a cell of green (IoU 0.08), and frame 0's "colours" added to the portrait's.
FRAME_SHIFT = 0.5
SHIFT_SAMPLE = 4
# ... and only where the frame's colour is still a key's: its key channel exceeding the
# other two by this share of the key's own excess (the canvas (0, 254, 0) 1.5, the model's
# (27, 205, 41) 1). A close-up whose coat fills most of the ring would otherwise take the
# coat for that frame's backdrop and key the character out (a review's clip: the mask of a
# red coat filling 72 % of the frame came out the 28 % of backdrop).
SHIFT_KEY_SHARE = 0.5
# The plate is learned from the model's frames, not frame 0: that is the user's flat
# canvas, and the model renders its own screen after it, which may be lit unlike it. A
# frame whose ring is one colour (within CANVAS_FLAT of the threshold, on CANVAS_SHARE of
# the ring: the portrait on the canvas keeps off the frame's edge; a floor below the wall
# fills half the sides) where the plate's ring is not (a quarter of it a threshold or
# more off its median), a key's colour, is keyed against that flat colour. An
# independent trial's wyvern under a studio light falling from 115 % to 55 % across the
# frame, after a flat canvas: the plate, fitted to the canvas at the dark side (the
# model's frames there were under SHADOW_FLOOR of the key), rose there to twice the
# screen's brightness, and a band down that side read as character in every frame
# (NOISE, IoU 0.84); learned without frame 0, 0.98; the canvas frame against that plate
# 0.49, against its own colour 0.98.
CANVAS_FLAT = 0.5
CANVAS_SHARE = 0.9


@dataclass(frozen=True)
class KeyModel:
    key: np.ndarray  # (3,) float32: median backdrop colour (RGB)
    plate: np.ndarray  # (h, w, 3) float32 backdrop colour at the model's resolution
    noise: float  # robust sigma of the backdrop's colour distance, in 0..255 units
    threshold: float  # colour distance above which a pixel is character
    backdrop_share: float  # share of the frame border that looks like the backdrop
    # (N, h) each frame's row brightness where a floor darkens the plate (FLOOR_DARKER), 1
    # elsewhere; None where no row of any frame is a floor.
    floor: np.ndarray | None = None
    # (N, 3) each frame's backdrop colour less the plate's where it has its own
    # (FRAME_SHIFT), 0 elsewhere; None where no frame has.
    shift: np.ndarray | None = None
    # (N, 3) the flat colour of each frame that is the user's canvas (CANVAS_FLAT), NaN
    # for the others; None where no frame is.
    canvas: np.ndarray | None = None

    @property
    def frame_plates(self) -> int | None:
        """How many frames the model holds a plate of their own for (use `at(t)`'s); None:
        one plate for all."""
        for per_frame in (self.floor, self.shift, self.canvas):
            if per_frame is not None:
                return len(per_frame)
        return None

    @property
    def channel(self) -> int:
        """The key's own channel, its largest (0, 1, 2 for R, G, B): 1 on a green screen."""
        return int(np.argmax(self.key))

    def plate_at(self, height: int, width: int) -> np.ndarray:
        if self.plate.shape[:2] == (height, width):
            return self.plate
        return cv2.resize(self.plate, (width, height), interpolation=cv2.INTER_LINEAR)

    def sized(self, height: int, width: int) -> KeyModel:
        """This model with its plate at full size, for refining many frames of that size
        (refine would resize the plate for each)."""
        return dataclasses.replace(self, plate=self.plate_at(height, width))

    def at(self, t: int) -> KeyModel:
        """The model of frame t: its plate darkened where frame t shows a floor, and in its
        own backdrop colour where it has one, or flat where it is the user's canvas (this
        model itself where no frame is any of these)."""
        if self.frame_plates is None:
            return self
        if self.canvas is not None and not np.isnan(self.canvas[t, 0]):
            flat = np.broadcast_to(self.canvas[t], self.plate.shape).astype(np.float32)
            return dataclasses.replace(self, plate=flat, floor=None, shift=None, canvas=None)
        plate = self.plate
        if self.floor is not None:
            rows = self.floor[t].reshape(-1, 1).astype(np.float32)
            h, w = plate.shape[:2]
            if len(rows) != h:  # rows at the plate's size, as plate_at resizes the plate
                rows = cv2.resize(rows, (1, h), interpolation=cv2.INTER_LINEAR)
            plate = plate * rows.reshape(h, 1, 1)
        if self.shift is not None and self.shift[t].any():
            plate = np.maximum(plate + self.shift[t], 0.0)
        return dataclasses.replace(self, plate=plate, floor=None, shift=None, canvas=None)


def model_factor(h: int, w: int, model_side: int = 128) -> int:
    """Integer shrink factor so the longer side is about model_side (integer factors take
    OpenCV's fast area-averaging path)."""
    return max(1, int(round(max(h, w) / model_side)))


def shrink(frames: np.ndarray, factor: int) -> np.ndarray:
    """Area-average (N, H, W, 3) frames by an integer factor (a ragged edge is dropped)."""
    n, h, w, c = frames.shape
    sh, sw = max(1, h // factor), max(1, w // factor)
    if factor == 1:
        return frames.copy()
    cropped = frames[:, :sh * factor, :sw * factor]
    # One call for the whole stack: with an integer factor no output row mixes two frames.
    tall = np.ascontiguousarray(cropped).reshape(n * sh * factor, sw * factor, c)
    return cv2.resize(tall, (sw, n * sh), interpolation=cv2.INTER_AREA).reshape(n, sh, sw, c)


def _chromaticity(rgb: np.ndarray) -> np.ndarray:
    s = total(rgb)[..., None] + 1e-3
    return rgb / s


def _border(a: np.ndarray, width: int) -> np.ndarray:
    """Pixels of the outer ring of each frame of (N, h, w, C), flattened to (M, C)."""
    top, bottom = a[:, :width], a[:, -width:]
    left, right = a[:, width:-width, :width], a[:, width:-width, -width:]
    return np.concatenate([x.reshape(-1, a.shape[-1]) for x in (top, bottom, left, right)])


def colour_distance(rgb: np.ndarray, plate: np.ndarray) -> np.ndarray:
    """How far each pixel is from the backdrop, ignoring darkening/brightening of it.

    Split P - B into the part along B's colour ray (brightness: shadows, vignetting) and
    the part across it (colour). Across counts fully; along counts only beyond the range a
    shadow or highlight on the backdrop can reach. Planar float32 arithmetic: reductions
    over a length-3 axis are many times slower in numpy.
    """
    proj, norm_b, d = _along_across(rgb, plate)
    d += np.maximum(SHADOW_FLOOR * norm_b - proj, 0.0)
    d += np.maximum(proj - HIGHLIGHT_CEIL * norm_b, 0.0)
    return d


def shade(rgb: np.ndarray, plate: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(brightness, across): each pixel's length along the plate's colour ray as a share of
    the plate's (0.6: the backdrop darkened to 60 %), and its distance from that ray, in
    levels (the colour part of colour_distance)."""
    proj, norm_b, across = _along_across(rgb, plate)
    return proj / norm_b, across


def _along_across(rgb: np.ndarray, plate: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P's length along B's ray, |B|, P's distance from that ray) for pixels P over the
    plate B."""
    p = rgb.astype(np.float32, copy=False)
    pr, pg, pb = p[..., 0], p[..., 1], p[..., 2]
    br, bg, bb = plate[..., 0], plate[..., 1], plate[..., 2]
    norm_b = np.sqrt(br * br + bg * bg + bb * bb) + 1e-3
    proj = (pr * br + pg * bg + pb * bb) / norm_b  # length of P along B's ray
    across2 = pr * pr + pg * pg + pb * pb - proj * proj
    return proj, norm_b, np.sqrt(np.maximum(across2, 0.0))


def estimate_key(frames: np.ndarray, model_side: int = 128, samples: int = 8) -> KeyModel:
    """Learn the backdrop of a clip (N, H, W, 3) uint8 RGB."""
    n, h, w, _ = frames.shape
    # Frame 0 is the user's canvas, which the model then re-renders as its own screen
    # (DOMAIN.md): the plate is learned from the model's frames (CANVAS_FLAT).
    first = 1 if n > 1 else 0
    idx = spread(first, n - 1, min(samples, n - first))
    factor = model_factor(h, w, model_side)
    small = shrink(frames[idx], factor).astype(np.float32)
    sh, sw = small.shape[1:3]
    ring = max(1, round(min(sw, sh) / 40))
    border = _border(small, ring)
    key = median(border, axis=0)
    key_chroma = _chromaticity(key)
    border_dist = max_abs(_chromaticity(border) - key_chroma)
    # The border's own chroma spread sets the tolerance (gradients, noise), within bounds.
    tol = float(np.clip(percentile(border_dist, 90) * 1.5, 0.02, 0.12))
    backdrop_share = float((border_dist <= tol).mean())
    green = key_chroma[1] - max(key_chroma[0], key_chroma[2]) >= GREEN_LEAD
    least = MIN_GREEN_KEY_SATURATION if green else MIN_KEY_SATURATION
    if key_chroma.max() - key_chroma.min() < least:
        backdrop_share = 0.0  # a grey border, or a pastel wall, is no chroma-key backdrop

    sides = _sides(frames, factor, (sh, sw), ring)
    floor = _floor(sides, key, key_chroma, tol)
    lifted = small if floor is None else small / floor[idx][..., None, None]
    plate, noise = _plate(lifted, key, key_chroma, tol)
    threshold = float(np.clip(4.0 * noise + 8.0, 14.0, 60.0))
    seen, behind = _rings(frames, factor, sides, plate, floor)
    canvas = _canvas(seen, behind, threshold, key)
    if canvas is not None:  # those frames are keyed against their own flat colour
        seen = np.where(np.isnan(canvas)[:, None], seen, behind)
    shift = _frame_shift(seen, behind, threshold, key)
    return KeyModel(key.astype(np.float32), plate, noise, threshold, backdrop_share, floor,
                    shift, canvas)


def _rings(frames: np.ndarray, factor: int, sides: tuple[np.ndarray, np.ndarray],
           plate: np.ndarray, floor: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(seen, behind): every SHIFT_SAMPLE-th pixel of the top and side rings of the frames
    (N, H, W, 3) at the model's size (sides: _sides' of them), (N, M, 3) float32, and the
    plate at the same pixels, each frame's floor applied."""
    left, right = sides
    sh, ring = left.shape[1:3]
    sw = plate.shape[1]
    f = factor
    top = shrink(frames[:, :ring * f, :sw * f], f).astype(np.float32)
    rows = np.ones((len(frames), sh), np.float32) if floor is None else floor
    seen = np.concatenate([left.reshape(len(frames), -1, 3), right.reshape(len(frames), -1, 3),
                           top.reshape(len(frames), -1, 3)], axis=1)
    behind = np.concatenate([
        (plate[:, :ring][None] * rows[:, :, None, None]).reshape(len(frames), -1, 3),
        (plate[:, sw - ring:][None] * rows[:, :, None, None]).reshape(len(frames), -1, 3),
        (plate[:ring][None] * rows[:, :ring, None, None]).reshape(len(frames), -1, 3)], axis=1)
    return seen[:, ::SHIFT_SAMPLE], behind[:, ::SHIFT_SAMPLE]


def _frame_shift(seen: np.ndarray, behind: np.ndarray, threshold: float,
                 key: np.ndarray) -> np.ndarray | None:
    """(N, 3) each frame's backdrop colour less the plate's, from its ring's pixels seen
    (N, M, 3) over the plate's there (behind: _rings'), where it lies FRAME_SHIFT of the
    threshold off the plate in colour; 0 elsewhere; None where no frame does. A ring's
    pixels the frame's median offset does not explain within the threshold (the character
    at the edge) are left out; under half of them left, or a colour no longer a key's
    (SHIFT_KEY_SHARE of the key colour `key`'s own excess): 0."""
    diff = seen - behind  # (N, M, 3)
    first = median(diff, axis=1)  # every frame at once: a loop over 600 frames took 60 ms
    fits = np.sqrt(norm2(diff - first[:, None])) < threshold
    offset = nanmedian(np.where(fits[..., None], diff, np.nan), axis=1)
    counted = fits.sum(1)[:, None]
    mean_behind = (behind * fits[..., None]).sum(1) / np.maximum(counted, 1)
    seen_colour = mean_behind + np.nan_to_num(offset)
    moved = colour_distance(seen_colour, mean_behind)
    own = (fits.mean(1) >= 0.5) & (moved > FRAME_SHIFT * threshold) & _keyish(seen_colour, key)
    shift = np.where(own[:, None], np.nan_to_num(offset), 0.0).astype(np.float32)
    return shift if shift.any() else None


def _keyish(colour: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Whether each colour (..., 3) is still a key's (SHIFT_KEY_SHARE)."""
    c = int(np.argmax(key))
    return key_excess(colour, c) >= SHIFT_KEY_SHARE * float(key_excess(key, c))


def _canvas(seen: np.ndarray, behind: np.ndarray, threshold: float,
            key: np.ndarray) -> np.ndarray | None:
    """(N, 3) the flat colour of each frame whose ring (seen over behind, as _rings gives
    them) is one colour (CANVAS_FLAT, CANVAS_SHARE) where the plate there is not, and is
    a key's; NaN for other frames; None where none is."""
    colour = median(seen, axis=1)  # (N, 3)
    flat = ((np.sqrt(norm2(seen - colour[:, None])) < CANVAS_FLAT * threshold).mean(1)
            >= CANVAS_SHARE)
    plate_colour = median(behind, axis=1)
    varied = (np.sqrt(norm2(behind - plate_colour[:, None])) >= threshold).mean(1) >= 0.25
    own = flat & varied & _keyish(colour, key)
    if not own.any():
        return None
    return np.where(own[:, None], colour, np.nan).astype(np.float32)


def _plate(small: np.ndarray, key: np.ndarray, key_chroma: np.ndarray, tol: float
           ) -> tuple[np.ndarray, float]:
    """(the plate, the backdrop's noise) of reduced frames (n, h, w, 3) float32."""
    dist = max_abs(_chromaticity(small) - key_chroma)
    bright = total(small) >= SHADOW_FLOOR * key.sum()
    candidate = (dist <= tol) & bright
    # A smooth surface (gradient + vignette) fitted robustly to the backdrop pixels: a
    # character's own greens are outliers to it and cannot bend it, unlike a local average.
    plate = _fit_plate(small, candidate, key)
    d = colour_distance(small, plate[None])
    resid = d[candidate]
    if resid.size < 16:
        return plate, 8.0
    return plate, float(1.4826 * median(np.abs(resid - median(resid)))
                        + median(resid))


def _sides(frames: np.ndarray, factor: int, size: tuple[int, int], ring: int
           ) -> tuple[np.ndarray, np.ndarray]:
    """The left and right `ring` columns of every frame (N, H, W, 3) at the model's size
    (size: its (h, w)), as float32 (N, h, ring, 3) each: only they are reduced, not the
    frames."""
    sh, sw = size
    f = factor
    left = shrink(frames[:, :sh * f, :ring * f], f)
    right = shrink(frames[:, :sh * f, (sw - ring) * f:sw * f], f)
    return left.astype(np.float32), right.astype(np.float32)


def _floor(sides: tuple[np.ndarray, np.ndarray], key: np.ndarray, key_chroma: np.ndarray,
           tol: float) -> np.ndarray | None:
    """(N, h) each frame's row brightness, as a share of its wall's, where the backdrop at
    both sides of the frame reads under FLOOR_DARKER of it from the frame's horizon down
    (its own step, or the clip's where the frame shows the floor without one: see below),
    1 elsewhere; None where no frame shows a floor. A row's brightness is its brighter
    side's median over the ring's backdrop-coloured pixels; the wall's is the frame's 80th
    percentile of its rows' (a floor may fill most of the frame's height but not all of
    it)."""
    seen = []
    for strip in sides:
        brightness, _ = shade(strip, key)
        seen.append(np.where(max_abs(_chromaticity(strip) - key_chroma) <= tol,
                             brightness, np.nan))
    with warnings.catch_warnings():  # a row (or frame) with no backdrop pixel: NaN, said below
        warnings.simplefilter("ignore", RuntimeWarning)
        # NaN only where neither side shows the backdrop
        row = np.fmax(nanmedian(seen[0], axis=2), nanmedian(seen[1], axis=2))
        wall = nanpercentile(row, 80, axis=1)[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):  # a black wall: no row is seen
        share = np.where(wall > 0, row / wall, np.nan).astype(np.float32)
    rows = np.arange(share.shape[1])
    for s in share:  # a row neither side shows: as the rows round it read
        seen_rows = ~np.isnan(s)
        s[:] = np.interp(rows, rows[seen_rows], s[seen_rows]) if seen_rows.any() else 1.0
    tops = [_floor_top(s) for s in share]
    found = [top for top in tops if top is not None]
    if not found:
        return None
    # A floor is the set's, not the frame's: a frame whose own step the grain hid (a floor
    # 12-14 % below its wall with a soft horizon: its step read 0.114-0.125 frame by
    # frame) takes the rows below the median horizon of the frames that show one, where
    # they show it (_shows_floor; a flat opening canvas does not). Frame by frame, half
    # the frames of an independent trial's runner lost their floor, and its long cast
    # shadow (0.52 of the plate there, 0.63 of the floor) read as character (IoU 0.944;
    # 0.968 with the set's floor).
    clip_top = int(median(np.asarray(found, np.float32)))
    floor = np.ones_like(share)
    for t, (s, top) in enumerate(zip(share, tops, strict=True)):
        if top is None and _shows_floor(s[clip_top:]):
            top = clip_top
        if top is not None:
            floor[t, top:] = np.minimum(s[top:], 1.0)
    return floor


def _shows_floor(below: np.ndarray) -> bool:
    """Whether a frame's rows from the clip's horizon down (their brightness as a share of
    the wall's) show the floor: they read under FLOOR_DARKER down to the frame's bottom,
    nearly all of them (a dark green part across the frame, or a vignette, does not reach
    the bottom row or leaves rows above it lit)."""
    dark = below < FLOOR_DARKER
    return bool(dark[-1]) and float(dark.mean()) >= FLOOR_SHOWN


def _floor_top(share: np.ndarray) -> int | None:
    """The first row of a frame's floor (share (h,): its rows' brightness as a share of the
    wall's): the rows under FLOOR_DARKER that reach the frame's bottom, where they begin
    with a step of FLOOR_STEP (a vignette darkens the lower rows too, but smoothly)."""
    dark = share < FLOOR_DARKER
    if not dark[-1]:
        return None
    top = len(share) - int(np.argmin(dark[::-1])) if not dark.all() else 0
    k = max(2, len(share) // 20)
    if top < k:
        return None  # no wall above: no step to see
    return top if float(median(share[top - k:top]) - median(share[top:top + k])) >= (
        FLOOR_STEP) else None


def _poly_terms(h: int, w: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = xx / max(w - 1, 1) - 0.5, yy / max(h - 1, 1) - 0.5
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y, x**3, x * x * y, x * y * y,
                     y**3], -1).reshape(h * w, -1)


def _fit_plate(small: np.ndarray, candidate: np.ndarray, key: np.ndarray,
               max_samples: int = 12000) -> np.ndarray:
    """Cubic surface per channel, iteratively reweighted (Tukey) to shed non-backdrop."""
    n, h, w, _ = small.shape
    terms = _poly_terms(h, w)
    idx_f, idx_p = np.nonzero(candidate.reshape(n, -1))
    if len(idx_p) < 50:
        return np.broadcast_to(key, (h, w, 3)).astype(np.float32).copy()
    if len(idx_p) > max_samples:
        pick = np.random.default_rng(0).choice(len(idx_p), max_samples, replace=False)
        idx_f, idx_p = idx_f[pick], idx_p[pick]
    a = terms[idx_p].astype(np.float64)
    b = small.reshape(n, -1, 3)[idx_f, idx_p].astype(np.float64)
    wts = np.ones(len(b))
    ridge = 1e-6 * np.eye(a.shape[1])
    for _ in range(4):
        aw = a * wts[:, None]  # normal equations: a 10x10 solve instead of a tall lstsq
        # einsum, not BLAS: a threaded BLAS may split these long sums by its thread count,
        # and the plate must not depend on the machine's cores.
        coef = np.linalg.solve(np.einsum("ni,nj->ij", aw, a) + ridge,
                               np.einsum("ni,nj->ij", aw, b))
        r = np.sqrt(norm2(a @ coef - b))
        c = 4.685 * max(1.4826 * median(r), 1.0) * 1.5
        wts = np.where(r < c, (1 - (r / c) ** 2) ** 2, 0.0)
    return (terms @ coef).reshape(h, w, 3).astype(np.float32)


def clean_mask(fg: np.ndarray, min_speck: int, max_hole: int,
                parts: list | None = None) -> np.ndarray:
    """Drop specks of character smaller than min_speck; fill enclosed holes up to max_hole.
    When `parts` is a list, the share of the largest part in the mask is appended to it."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    if parts is not None:
        areas = stats[1:, cv2.CC_STAT_AREA]
        parts.append(float(areas.max() / areas.sum()) if len(areas) else 0.0)
    keep = stats[:, cv2.CC_STAT_AREA] >= min_speck
    keep[0] = False
    fg = keep[labels].astype(np.uint8)
    inv = 1 - fg
    n, labels, stats, _ = cv2.connectedComponentsWithStats(inv, connectivity=4)
    h, w = fg.shape
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    touches = (x == 0) | (y == 0) | (x + stats[:, cv2.CC_STAT_WIDTH] >= w) | (
        y + stats[:, cv2.CC_STAT_HEIGHT] >= h)
    fill = (~touches) & (stats[:, cv2.CC_STAT_AREA] <= max_hole)
    fill[0] = False  # label 0 of the inverted mask is the character itself
    return np.maximum(fg, fill[labels].astype(np.uint8))


def coarse_masks(small: np.ndarray, key: KeyModel, parts: list | None = None,
                 correct: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                                   np.ndarray] | None = None) -> np.ndarray:
    """Character masks of frames already at the key model's size: (N, h, w) uint8 0/1.
    `parts` (a list) receives each frame's largest-part share, before speck removal.
    `correct(frame, plate, distance, mask)`: the key's mask corrected (pipeline's, by the
    portrait's colours), or None."""
    n, h, w, _ = small.shape
    area = h * w
    out = np.empty((n, h, w), np.uint8)
    for i in range(n):  # frame by frame: a float copy of a long clip would dwarf the rest
        p = small[i].astype(np.float32)
        plate = key.at(i).plate
        d = colour_distance(p, plate)
        fg = (d > key.threshold).astype(np.uint8)
        if correct is not None:
            fg = correct(p, plate, d, fg)
        out[i] = clean_mask(fg, max(2, area // 4000), area // 400, parts)
    return out
