"""What the user's RGBA portrait tells the despill (a `Reference`): the character's unspilled
colours (`portrait_palette`, k-means by `palette`), its ink outline's colour
(`outline_colour`) or an outline drawn in a dark shade of each part (`shaded_outline`), and
the colours of parts it draws see-through (`see_through_colours`), and those it wears on
parts finer than a few pixels (`thin_colours`: strands). core/despill.py un-mixes against
them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .blur import normalized_blur
from .channels import dot, norm2
from .despill import LUMA, closest
from .outline import FRINGE_LIGHTER
from .quantiles import median

PALETTE_SIZE = 8
PALETTE_SAMPLES = 4000  # pixels a palette is fitted to: k-means time, not the image's size

# Outlined art: a portrait whose silhouette's outer ring is mostly (this share, within this
# many levels) one colour has an outline of that colour, which its frames keep. On the rim,
# the outline costs this many levels less than the other candidates: a spilled ink line and
# a dark-green part lie on nearly the same line from a green backdrop, and only this tells
# them apart. Measured over the outlined fixtures and unseen clips (edge excess): ink on a
# zombie +9.6 -> +4.7, on a knight with 6 px wrap -8.9 -> -6.9; a bonus of 2 to 12 moved
# each monotonically by under 1.5, and no portrait without an outline has a ring above 0.34.
RING_SHARE = 0.5
RING_SPREAD = 20.0
# ... and the colour goes round the silhouette: it holds at least half the ring in this
# share of RING_SECTORS directions from the silhouette's centre. Dark hair of long strands
# and dark boots fill much of an unoutlined character's ring (an independent trial's cel
# runner: 0.60 of it) but in few directions (7 of 16, her face, shirt and trousers none);
# its "ink" then explained her blue trousers' edge on a blue screen as ink over the
# backdrop. Measured over 90 portraits: every outlined one 11-16 of 16, the unoutlined
# ones whose ring passed RING_SHARE 6-7 of 16.
RING_SECTORS = 16
RING_ROUND = 0.6
# A dark line (its brightest channel at most THIN_INK_DARK) a pixel or so wide, drawn
# antialiased, leaves the outermost opaque ring half line and half the part inside (the
# line's outer half is partly transparent): there a ring pixel counts as on the line
# when it, or a pixel beside it one ring further in, is. An independent trial's cel
# characters with 1 px black outlines: 0.52 of the ring, in 8 of 16 directions, read as
# no outline, and their rims took a red cloth's colour (edge -10.9, -12.1). Over 299
# portraits, 5 more are read as outlined (all drawn with a dark line); a pale knight whose
# grey armour fills its ring would have been too, at any brightness.
THIN_INK_DARK = 80.0
OUTLINE_BONUS = 8.0


def palette(rgb: np.ndarray, k: int = PALETTE_SIZE, max_samples: int = PALETTE_SAMPLES,
            seed: int = 0) -> np.ndarray:
    """(k', 3) float32 main colours of (M, 3) pixels (k-means), for the despill's colour
    reference: a portrait's opaque pixels, or a frame's pixels the spill cannot reach."""
    px = np.asarray(rgb, np.float32).reshape(-1, 3)
    if len(px) == 0:
        return np.zeros((0, 3), np.float32)
    if len(px) > max_samples:
        px = px[np.random.default_rng(seed).choice(len(px), max_samples, replace=False)]
    if len(px) <= k:  # as many centres as pixels: the pixels (OpenCV reads one (1, 3)
        return px.copy()  # sample as three of one channel, and returned (1, 1))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    # Seeded by farthest points, not OpenCV's random seeding (its RNG is per thread, and
    # cells are matted on a pool): the same frame always gets the same palette.
    centres = [px.mean(0)]
    d2 = norm2(px - centres[0])  # to the nearest centre so far
    labels = np.zeros(len(px), np.int32)
    for j in range(1, k):
        centres.append(px[int(np.argmax(d2))])
        dj = norm2(px - centres[-1])
        labels[dj < d2] = j  # the nearest centre; a tie keeps the earlier one, as argmin
        d2 = np.minimum(d2, dj)
    cv2.setRNGSeed(seed)  # this thread's RNG refills a cluster that empties
    _, _, found = cv2.kmeans(px, k, labels.reshape(-1, 1), crit, 1,
                             cv2.KMEANS_USE_INITIAL_LABELS)
    return np.asarray(found, np.float32)


# k-means merges a small part of a colour of its own (a spear's brown shaft, 5 % of a
# shaded soldier) into its larger neighbours: the shaft's wrap mix was then read as the
# red shirt's. While this share of the portrait or more lies this far from every centre,
# the colour most of those pixels lie near joins the palette (up to PORTRAIT_PALETTE_MAX
# colours in all), if it covers MISSED_COLOUR_SHARE itself: rarer ones are antialiased
# lines between parts, an eye. A spearman's 1 px mauve line where his shaft crossed his
# trousers (0.3 %) was taken for a colour, and his blurred shaft on blue read as it,
# opaque. Measured (trials 12-18, fixtures): the spearman +9.2 -> +3.9, a 16 fps run on
# blue +7.8 -> +4.4, a blue robe on blue IoU 0.949 -> 0.953 (passes); a blue idle on
# blue -5.7 -> -7.8 (bound -8) and a priest 0.983 -> 0.980 the most lost. At 1 % the
# same gains and an ink barbarian's strands, but a denim run on blue fell 0.952 -> 0.948
# and three edges went to -7.2..-7.8.
MISSED_DISTANCE = 30.0
MISSED_SHARE = 0.01
MISSED_COLOUR_SHARE = 0.005
PORTRAIT_PALETTE_MAX = 16


def portrait_palette(rgba: np.ndarray, max_samples: int = PALETTE_SAMPLES) -> np.ndarray:
    """The unspilled colour reference from the user's RGBA portrait: its opaque pixels, or
    for a character drawn translucent all over (a ghost), its mostly opaque ones. Their
    main colours (`palette`), and each colour k-means left out (`MISSED_DISTANCE`)."""
    alpha = rgba[..., 3]
    solid = alpha >= 250
    if not solid.any():
        solid = alpha >= 128
    px = rgba[..., :3][solid].astype(np.float32)
    if len(px) > max_samples:  # the same sample palette() takes
        px = px[np.random.default_rng(0).choice(len(px), max_samples, replace=False)]
    colours = palette(px)
    while len(colours) < PORTRAIT_PALETTE_MAX:
        missed = px[closest(px, colours)[0] > MISSED_DISTANCE]
        if len(missed) < max(MISSED_SHARE * len(px), 1):
            break
        near = densest(missed, MISSED_DISTANCE / 2)
        if len(near) < max(MISSED_COLOUR_SHARE * len(px), 1):
            break  # colours missed, but none common: antialiased boundaries, an eye
        colours = np.vstack([colours, median(near, 0).astype(np.float32)])
    return colours


def densest(px: np.ndarray, reach: float) -> np.ndarray:
    """The pixels (of px, (M, 3)) within reach // 4 bins of 4 levels (12-15 levels at a
    reach of 15) of the colour most pixels lie that near: the commonest colour at that
    scale. A shaded part spreads over many bins, a flat 1 px line into one: the commonest
    single bin was a spearman's 0.3 % antialiased shaft line, not his 8 % shaded armour.
    Each bin's neighbourhood is summed over the 64^3 bins one axis at a time (2 MiB)."""
    bins = np.clip(px // 4, 0, 63).astype(np.int64)
    w = int(reach // 4)  # bins either side
    keys = bins @ np.array([4096, 64, 1])
    grid = np.bincount(keys, minlength=64 ** 3).reshape(64, 64, 64)
    at = np.arange(64)
    for axis in range(3):  # a box sum along each axis in turn: the box's sum in all three
        running = np.concatenate([np.zeros_like(grid.take([0], axis)),
                                  grid.cumsum(axis)], axis)
        grid = (running.take(np.minimum(at + w + 1, 64), axis)
                - running.take(np.maximum(at - w, 0), axis))
    density = grid.reshape(-1)[keys]
    top = np.flatnonzero(density == density.max())
    centre = bins[top[np.argmin(keys[top])]]  # a tie: the lowest bin, the same every run
    return px[np.abs(bins - centre).max(1) <= w]


@dataclass(frozen=True, eq=False)
class Reference:
    """What the user's RGBA portrait tells the despill: the character's unspilled colours
    (K, 3); its outline's colour (3,) where the art is outlined in one colour, else None;
    and, where it is outlined in a dark shade of each part's own colour instead, that
    shade's brightness (ink_shade, see shaded_outline), else None; the straight colours
    (k, 3) of the parts it draws see-through (see_through_colours: glass, an insect's
    wings, a jelly, a ghost), (0, 3) when none; and those of its parts thinner than
    THIN_PART px (thin_colours: strands, whiskers), (0, 3) when none. Kept as read-only
    float32 copies: one Reference is shared by the threads that matte cells."""

    palette: np.ndarray
    outline: np.ndarray | None = None
    ink_shade: float | None = None
    translucent: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    thin: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    # Whether the art draws its own light line round the silhouette (light_ink: papercraft's
    # cut edges, a sticker's border), which the frames' defringe must keep rather than
    # clear as a model's light outline (描边).
    light_ink: bool = False

    def __post_init__(self) -> None:
        if self.outline is not None and self.ink_shade is not None:
            raise ValueError("a Reference has one outline: a colour or a shade, not both")
        palette = np.array(self.palette, np.float32).reshape(-1, 3)
        palette.flags.writeable = False
        object.__setattr__(self, "palette", palette)
        for name in ("translucent", "thin"):
            colours = np.array(getattr(self, name), np.float32).reshape(-1, 3)
            colours.flags.writeable = False
            object.__setattr__(self, name, colours)
        if self.outline is not None:
            outline = np.array(self.outline, np.float32).reshape(3)
            outline.flags.writeable = False
            object.__setattr__(self, "outline", outline)

    @staticmethod
    def colours(reference: Reference | None) -> np.ndarray | None:
        """The portrait's colours (K, 3), or None without a portrait or with an empty
        palette (a portrait all translucent): the steps that use them are skipped then."""
        return None if reference is None or not len(reference.palette) else reference.palette

    @property
    def see_through(self) -> bool:
        """Whether the portrait draws parts the backdrop shows through."""
        return len(self.translucent) > 0

    def tinted(self, tint: Callable[[np.ndarray], np.ndarray]) -> Reference:
        """This reference in another light (core/drawn.py's Tint): its colours, the
        outline's, the see-through parts' and the thin parts' mapped by tint."""
        return replace(self, palette=tint(self.palette), translucent=tint(self.translucent),
                       outline=None if self.outline is None else tint(self.outline),
                       thin=tint(self.thin))

    def wearing(self, colours: np.ndarray) -> Reference:
        """This reference with colours (k, 3) the character is drawn in beside the
        portrait's (core/drawn.py: a part the model drew in another colour)."""
        if not len(colours):
            return self
        return replace(self, palette=np.concatenate([self.palette, colours]))


# A portrait whose longer side is over this is read shrunk by a whole factor (an area average
# of its premultiplied colours): an artist's 8000x8000 export, read whole, peaked at 3.6 GB
# in `driver process` (its float copies; 1.0 GB halved). A whole factor halves a portrait
# just over the limit, and a 1-2 px line can fade under the outline's reading there, so the
# limit is high: every portrait up to 4K is read as it is (the 347 trial portraits are at
# most 1664 px).
REFERENCE_SIDE = 4096
SHRINK_BAND = 64  # output rows shrunk at once: the float copy of a band, not the portrait


def shrunk_portrait(rgba: np.ndarray, side: int = REFERENCE_SIDE) -> np.ndarray:
    """The portrait (H, W, 4) uint8, its longer side at most `side`: each f x f block's
    premultiplied colour and alpha averaged (f the smallest whole factor that fits, at
    most its shorter side), colour straight again (a transparent pixel's colour, often
    black, does not darken the edge); the portrait itself where it fits."""
    h, w = rgba.shape[:2]
    f = min(-(-max(h, w) // side), h, w)  # (a side under f would shrink to nothing)
    if f <= 1:
        return rgba
    oh, ow = h // f, w // f
    out = np.empty((oh, ow, 4), np.uint8)
    for r0 in range(0, oh, SHRINK_BAND):
        r1 = min(oh, r0 + SHRINK_BAND)
        band = rgba[r0 * f:r1 * f, :ow * f].astype(np.float32)
        band[..., :3] *= band[..., 3:] / 255.0
        block = band.reshape(r1 - r0, f, ow, f, 4).mean(axis=(1, 3))
        a = block[..., 3:]
        block[..., :3] = np.where(a > 0, block[..., :3] * 255.0 / np.maximum(a, 1e-6), 0.0)
        out[r0:r1] = np.clip(block + 0.5, 0, 255).astype(np.uint8)
    return out


def portrait_reference(rgba: np.ndarray) -> Reference:
    """What the portrait (H, W, 4) uint8 tells the despill, read at most REFERENCE_SIDE
    px on its longer side (shrunk_portrait)."""
    rgba = shrunk_portrait(rgba)
    light = light_line(rgba)
    outline = outline_colour(rgba) if light is None else light
    return Reference(portrait_palette(rgba), outline,
                     None if outline is not None else shaded_outline(rgba),
                     see_through_colours(rgba), thin_colours(rgba), light is not None)


# The share of the portrait's outermost opaque ring lighter than the parts just inside it
# (outline.fringe's test), at or above which the art draws its own light outline. Measured
# on 56 trial portraits: trial 40's four papercraft characters (cream cut edges round
# every part) 0.64-0.72; every other 0-0.27 (trial 23's painted back-light rims 0.27,
# trial 39's small scout 0.20, the rest under 0.08).
LIGHT_INK_SHARE = 0.5


def light_line(rgba: np.ndarray) -> np.ndarray | None:
    """The colour (3,) of the portrait's (H, W, 4) own light outline, where it has one: at
    least LIGHT_INK_SHARE of its outermost opaque ring lighter, by outline.FRINGE_LIGHTER
    in luma, than its colour 4-8 px in nearby (the most common of those light pixels); else
    None. The frames' defringe then keeps such a line rather than clearing it as a model's
    light outline (描边), and the rim is un-mixed with its colour as an outline's: trial
    40's papercraft fox lost its cream edges (IoU 0.913)."""
    solid = rgba[..., 3] >= 250
    depth = cv2.distanceTransform(solid.astype(np.uint8), cv2.DIST_L2, 5)
    ring = solid & (depth <= 1.5)
    inner = (depth >= 4) & (depth <= 8)
    rgb = rgba[..., :3].astype(np.float32)
    nearby, support = normalized_blur(rgb, inner.astype(np.float32), 4.0, ring)
    seen = support > 1e-3
    if not seen.any():
        return None
    light = (rgb[ring] @ LUMA > nearby @ LUMA + FRINGE_LIGHTER) & seen
    if float(light[seen].mean()) < LIGHT_INK_SHARE:
        return None
    # The line's own colour: its most common. The median of the light pixels was the
    # line mixed with the dark parts its antialiased inner boundary meets: a papercraft
    # archer's cream (234, 229, 213) read (203, 185, 165), and its rim, un-mixed against
    # that with the outline's bonus, came out tan (edge -8.0).
    return mode_colour(rgb[ring][light])


# Parts of the portrait thinner than this (px: what an opening of its opaque mask by a
# square this wide removes) are strands, whiskers, a blade's tip; in the frames, where the
# wrap and 4:2:0 leave no pixel of theirs unspilled, core/strands.py reads them by these
# colours. Only parts reaching THIN_RUN px or more out of the body count (a cutout's ragged
# edge leaves specks of every body colour, 8-connected along it), and only THIN_MIN_PIXELS
# of their pixels or more tell anything.
THIN_PART = 3
THIN_RUN = 2 * THIN_PART
THIN_MIN_PIXELS = 30
THIN_COLOURS = 4


def thin_colours(rgba: np.ndarray) -> np.ndarray:
    """(k, 3) float32: the distinct main colours (at most THIN_COLOURS) of the portrait's
    mostly opaque pixels on parts thinner than THIN_PART px that reach THIN_RUN px or more
    out of the rest; (0, 3) when it has fewer than THIN_MIN_PIXELS of them."""
    solid = (rgba[..., 3] >= 128).astype(np.uint8)
    opened = cv2.morphologyEx(solid, cv2.MORPH_OPEN, np.ones((THIN_PART, THIN_PART), np.uint8),
                              borderType=cv2.BORDER_CONSTANT, borderValue=0)
    thin = ((solid > 0) & (opened == 0)).astype(np.uint8)
    n, labels = cv2.connectedComponents(thin, connectivity=8)
    out_of_body = cv2.distanceTransform((opened == 0).astype(np.uint8), cv2.DIST_L2, 3)
    reach = np.zeros(n, np.float32)
    np.maximum.at(reach, labels[thin > 0], out_of_body[thin > 0])
    reach[0] = 0.0  # the background
    kept = (reach >= THIN_RUN)[labels]
    if np.count_nonzero(kept) < THIN_MIN_PIXELS:
        return np.zeros((0, 3), np.float32)
    return np.unique(np.round(palette(rgba[..., :3][kept], THIN_COLOURS)), axis=0)


# A portrait with parts drawn see-through: over this share of its pixels translucent
# (alpha 5-95 %) and flat (alpha changing by under SEE_THROUGH_FLAT levels a pixel, as a
# pane's does: a soft edge ramps, by 25 levels a pixel when upscaled 5x bicubic, by 8 over
# 30 px), beyond its outermost 2 px (antialiasing's). 1 %: a pane in a visor is ~2 % of a
# knight; the 186 portraits of the trials, fixtures and examples have none at all.
SEE_THROUGH_PORTRAIT = 0.01
SEE_THROUGH_FLAT = 6.0
# Of those pixels, a colour under SEE_THROUGH_COLOUR_SHARE is a highlight or a boundary:
# along the line to the backdrop it would explain a jelly's rim as well as the jelly's own
# colour. Near black (brightest channel under SEE_THROUGH_DARK) is a drop shadow drawn
# under the feet, and a colour held at over SEE_THROUGH_MOST alpha a feathered edge (a
# soft glow round the art): neither is a part the backdrop shows through.
SEE_THROUGH_COLOUR_SHARE = 0.03
SEE_THROUGH_DARK = 40.0
SEE_THROUGH_MOST = 0.85


def see_through_colours(rgba: np.ndarray) -> np.ndarray:
    """(k, 3) float32 the straight colours (0..255) of the parts the portrait (H, W, 4)
    uint8 draws see-through (glass, an insect's wings, a jelly, a ghost's body): its main
    translucent colours; (0, 3) when it has none. In the clip those parts show the backdrop
    through them, at a share each pixel tells (a rim or two wings overlapping change it)."""
    none = np.zeros((0, 3), np.float32)
    alpha = rgba[..., 3].astype(np.float32)
    body = alpha >= 13
    if not body.any():
        return none
    depth = cv2.distanceTransform(np.pad(body, 1).astype(np.uint8), cv2.DIST_L2, 5)[1:-1, 1:-1]
    slope = np.hypot(cv2.Sobel(alpha, cv2.CV_32F, 1, 0), cv2.Sobel(alpha, cv2.CV_32F, 0, 1)) / 8
    flat = (alpha <= 242) & (depth > 2) & (slope < SEE_THROUGH_FLAT)
    if flat.sum() <= SEE_THROUGH_PORTRAIT * body.sum():
        return none
    px, a = rgba[..., :3][flat].astype(np.float32), alpha[flat] / 255
    colours = palette(px)
    _, which = closest(px, colours)
    count = np.bincount(which, minlength=len(colours))
    keep = [k for k in np.flatnonzero(count >= SEE_THROUGH_COLOUR_SHARE * len(px))
            if colours[k].max() >= SEE_THROUGH_DARK
            and median(a[which == k]) <= SEE_THROUGH_MOST]
    return colours[keep]


# Art outlined in a dark shade of each part's own colour (coloured line art; "selout" in
# pixel art): most (SHADED_INK_SHARE) of the outermost opaque ring is k times the colour
# 4-7 px inside it, within SHADED_INK_FIT levels, k in SHADED_INK_RANGE, judged where
# that colour is bright enough to tell (SHADED_INK_INNER), on at least SHADED_INK_TOLD of
# the ring. Over 165 portraits of nine independent generators: the two of trial 20 drawn
# so (each part over a copy of itself at 0.28-0.31 grown by 2 px) 0.93 and 0.75, a
# Kenney robot outlined in dark shades 0.83; every other portrait without a one-colour
# outline at most 0.20, but a pixel-art hero's 0.84 of the 14 % of its ring that has a
# bright part inside. One-colour inks fit too (up to 0.99: dark grey is k times pale
# grey), but outline_colour takes those first.
SHADED_INK_SHARE = 0.6
SHADED_INK_RANGE = (0.1, 0.55)
SHADED_INK_FIT = 12.0
SHADED_INK_INNER = 60.0  # a part darker than this (its brightest channel) says nothing
SHADED_INK_TOLD = 0.5
# A line thinner than a pixel, drawn antialiased, never fills a pixel: it lives in the
# antialiased ring just outside the opaque one, whose straight colour is the line's. That
# ring (its pixels at least this alpha: fainter ones' colour is 8-bit noise) is judged the
# same way where the opaque ring is not. An independent trial's characters outlined
# 0.7-1 px in a dark shade: 0.59-0.89 of that ring a shade at 0.36-0.58 (their opaque
# rings read 0.2), that trial's unlined ones 0.00-0.03; of the other 315 trial portraits
# only one passes (a trial-18 decoy, whose matte gained: IoU 0.977 -> 0.983). A portrait
# saved with its colours already multiplied by alpha (a dark fringe) reads so too, k the
# alpha: the clip's first frame shows that dark rim, which the model keeps, so its rim
# is un-mixed against a dark shade as well (a review: edge -1.3 -> -1.6, IoU the same).
SUB_PIXEL_INK = 64
SUB_PIXEL_INK_MAX = 0.7


def shaded_outline(rgba: np.ndarray) -> float | None:
    """The brightness k of an outline drawn in a dark shade of each part's own colour: the
    median k of the outermost opaque ring's pixels that are k times the colour inside
    them (a Gaussian average, sigma 3, of the band 4-7 px in: it also reaches ~9 px along
    the ring) (SHADED_INK_*), when most are; else the same of the antialiased ring just
    outside it (SUB_PIXEL_INK); else None. On such art a rim pixel's ink is k times the
    part's colour: no single ink colour explains the rim, and a pixel's chroma, smeared
    there by 4:2:0 from the part and the backdrop, matches a dark part colour of the
    palette as well as the ink."""
    alpha = rgba[..., 3]
    solid = alpha >= 250
    depth = cv2.distanceTransform(solid.astype(np.uint8), cv2.DIST_L2, 5)
    band = ((depth >= 4) & (depth <= 7)).astype(np.float32)
    if not band.any():
        return None
    rgb = rgba[..., :3].astype(np.float32)
    beside = cv2.dilate(solid.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    for ring, k_max in ((solid & (depth <= 1.0), SHADED_INK_RANGE[1]),
                        (beside & ~solid & (alpha >= SUB_PIXEL_INK), SUB_PIXEL_INK_MAX)):
        k = _shade_of_inside(rgb, ring, band, k_max)
        if k is not None:
            return k
    return None


def _shade_of_inside(rgb: np.ndarray, ring: np.ndarray, band: np.ndarray,
                     k_max: float) -> float | None:
    """shaded_outline's k (up to k_max) on one ring ((H, W) bool) of the portrait's colours
    rgb (H, W, 3) float32, against the band ((H, W) float32 weights) inside it; None when
    most of the ring is no dark shade of it."""
    if ring.sum() < 50:
        return None
    inner, support = normalized_blur(rgb, band, 3.0, ring)
    told = (support > 0.01) & (inner.max(1) > SHADED_INK_INNER)
    R, inside = rgb[ring][told], inner[told]
    if len(R) < 50 or float(told.mean()) < SHADED_INK_TOLD:
        return None
    k = dot(R, inside) / np.maximum(norm2(inside), 1.0)
    fit = np.sqrt(norm2(R - k[:, None] * inside))
    on = (k >= SHADED_INK_RANGE[0]) & (k <= k_max) & (fit < SHADED_INK_FIT)
    if float(on.mean()) < SHADED_INK_SHARE:
        return None
    return float(median(k[on]))


def mode_colour(px: np.ndarray) -> np.ndarray:
    """(3,) float32: the most common colour of px (N, 3), N >= 1: the median of those
    within 12 levels of the fullest 4-level bin. A line's own colour, where the median of
    all would be pulled toward what its antialiased boundary mixes it with."""
    bins = (px // 4).astype(np.int64) @ np.array([4096, 64, 1])
    values, counts = np.unique(bins, return_counts=True)
    mode = values[np.argmax(counts)]
    centre = np.array([mode // 4096, mode // 64 % 64, mode % 64], np.float32) * 4 + 1.5
    return median(px[np.abs(px - centre).max(1) <= 12], 0).astype(np.float32)


def outline_colour(rgba: np.ndarray) -> np.ndarray | None:
    """The colour of the portrait's outline (an ink line round the silhouette): the most
    common colour of its outermost opaque ring, when RING_SHARE of the ring is within
    RING_SPREAD levels of it and a band further in is not. None for art without one:
    a flat or shaded character's ring is its parts' colours (at most 0.34 of it one colour
    in our fixtures); a one-colour character's, or a cloak's, colour runs on inward."""
    solid = rgba[..., 3] >= 250
    outside = cv2.dilate((~solid).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    px = rgba[..., :3][solid & outside].astype(np.float32)
    if len(px) < 50:
        return None
    colour = mode_colour(px)
    on = np.abs(px - colour).max(1) <= RING_SPREAD
    if float(colour.max()) <= THIN_INK_DARK:
        on = _on_or_inside(rgba[..., :3], colour, solid, outside)
    if float(on.mean()) < RING_SHARE or _round_share(solid & outside, solid, on) < RING_ROUND:
        return None
    # An outline is a line: a band further in (4-8 px) is mostly other colours. A
    # one-colour character, or a dark cloak round most of one, has no outline.
    kernel = np.ones((9, 9), np.uint8)
    in4 = cv2.erode(solid.astype(np.uint8), kernel)
    band = (in4 > 0) & (cv2.erode(in4, kernel) == 0)
    inner = rgba[..., :3][band].astype(np.float32)
    if len(inner) and float((np.abs(inner - colour).max(1) <= RING_SPREAD).mean()) >= (
            RING_SHARE):
        return None
    return colour


def _on_or_inside(rgb: np.ndarray, colour: np.ndarray, solid: np.ndarray,
                  outside: np.ndarray) -> np.ndarray:
    """(N,) bool for the N pixels of the outermost opaque ring (solid & outside, (H, W)
    bool, row-major): the pixel, or one beside it on that ring or the next one in, is
    within RING_SPREAD of colour (3,) (see THIN_INK_DARK)."""
    ring = solid & outside
    inner = cv2.erode(solid.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    second = inner & (cv2.erode(inner.astype(np.uint8), np.ones((3, 3), np.uint8)) == 0)
    line = (np.abs(rgb.astype(np.float32) - colour).max(2) <= RING_SPREAD) & (ring | second)
    return (cv2.dilate(line.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)[ring]


def _round_share(ring: np.ndarray, solid: np.ndarray, on: np.ndarray) -> float:
    """The share of RING_SECTORS directions from the centre of `solid` ((H, W) bool) in
    which at least half the pixels of `ring` ((H, W) bool) are `on` ((N,) bool, the
    ring's pixels in row-major order): how far round the silhouette a colour goes."""
    ys, xs = np.nonzero(ring)
    sy, sx = np.nonzero(solid)
    angle = np.arctan2(ys - sy.mean(), xs - sx.mean())
    sector = np.minimum((angle + np.pi) / (2 * np.pi) * RING_SECTORS,
                        RING_SECTORS - 1).astype(np.int64)
    pixels = np.bincount(sector, minlength=RING_SECTORS)
    inked = np.bincount(sector, weights=on, minlength=RING_SECTORS)
    seen = pixels > 0
    return float((2 * inked[seen] >= pixels[seen]).mean())
