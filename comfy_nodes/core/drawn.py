"""The colours the model drew the character in, read from the clip beside its portrait's.

A video model's first frame is its drawing of the portrait, and over the clip it may drift
from it: a part drawn in another colour (a green shirt pushed nearer the key) would read,
against the portrait's colours alone, as the backdrop seen through glass (matte's
see-through step) and be keyed out. `drawn_reference` adds those colours to the portrait's
reference: the first frame's (opening_colours), and those the clip's colours drift to,
step by step from them (drifted_colours). Not for a portrait with see-through parts: the
clip shows those over the backdrop, a colour of no part.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import despill, silhouette
from .backdrop import KeyModel
from .candidates import WORN_DISTANCE
from .channels import key_excess, norm2
from .edgezone import CHROMA_SMEAR, wrap_depth
from .matte import clamp_box
from .reference import PALETTE_SAMPLES, Reference, palette
from .seethrough import SEE_THROUGH_SHARE

# A colour over this share of the interior beyond the spill's reach, where the next frame
# has the same colour, WORN_DISTANCE from every known colour, is one the model drew.
OPENING_SHARE = 0.05
# Drift is followed on the reduced frames every this many frames: a colour drifting over
# a second moves a few levels a step, well within WORN_DISTANCE.
DRIFT_STEP = 4
# Fewer interior pixels than this tell no colour: a palette of PALETTE_SIZE over them would
# be the noise's.
MIN_PIXELS = 50
# A model may draw the whole character in another light than its portrait: warmer,
# cooler, paler (a grade, its white balance). A tint (per-channel gains, then a
# saturation about the luma, then a lift) fitted from the portrait's colours to the
# first frame's is taken when it explains the first frame's colours this much better
# (its RMS distance to the nearest tinted portrait colour at most TINT_GAIN of the
# untinted one's): one part recoloured (a goblin's skin pushed toward the key) moves the
# fit less than that, a tint of the whole more. Pairs farther apart than TINT_PAIRED are
# no colour and its tint; at least TINT_PAIRED_SHARE of the interior must pair. Gains
# and saturation are kept within TINT_LIMITS. And a tint of the whole brings every
# colour nearer: where colours worn over TINT_WORSE_SHARE of the interior end TINT_WORSE
# levels farther from the portrait's, the fit bent the light to one part (trial 21's
# goblin, its skin pushed toward the key: its brown tunic and belt, 58 % of it, 1-2
# levels from the portrait's, went to 6-7).
TINT_WORSE = 3.0
TINT_WORSE_SHARE = 0.25
TINT_COLOURS = 3  # paired colours: 5 numbers fit one or two pairs whatever their light
TINT_GREY = 4.0  # levels from luma (RMS): colours this grey tell no saturation
TINT_GAIN = 0.6
# ... and a light explains the colours it pairs within this RMS: a strong grade can pair a
# colour with another part's (a skin's tint nearer a grey's) and the fit then settles on a
# light between, 40 % nearer but 14.5 off (a property test's counterexample: 17 levels
# from the true light). Not every such light is refused: of 2500 random lifted lights
# found, 3 were 4+ levels off, one 19 (tests/core/test_drawn.py). The lights taken on
# trial clips left 2.7-11.9 (a warm knight 9.4, the cool runner 10.1, a warm walk 11.9).
TINT_FIT = 13.0
# A first frame within this RMS of its portrait's colours is taken as in the portrait's
# light: the shading a model gives a pose moves the colours that much (trial 17's 2.5-D
# puppets, drawn in their portraits' colours: 8.6-14), and a tint fitted to it is the
# shading's, not a grade's (their edges rose 1.5-4 levels with it, one over the line).
TINT_NOISE = 15.0
TINT_PAIRED = 40.0
TINT_PAIRED_SHARE = 0.5
TINT_LIMITS = (0.75, 1.3)
# A grade may also lift the darks toward grey (black 0.12 of the way to white with the
# contrast 0.92 about mid grey, trial 26's brawler: its black outline 36 levels up, its
# white 9 down), which no gain gives: the tint then takes each colour toward white by
# a lift, at most TINT_LIFT. The first round pairs colours up to TINT_FIRST_PAIRED apart
# (lifted darks lie 40-55 from their portrait colour until the lift is known); later
# rounds, and the judgement, at TINT_PAIRED. Without it the brawler on a blue screen, its
# navy shoes read as a red's mix with the screen and its outline as the portrait's
# black, came out IoU 0.880 with 6.7 % holes, edge -21.6 (0.967, 0.2 %, -4.3 with it).
TINT_LIFT = 0.3
TINT_FIRST_PAIRED = 60.0


@dataclass(frozen=True)
class Tint:
    """The light a model drew the character in, against its portrait's: each channel times
    `gains`, then the colour's distance from its luma times `saturation`, then taken
    `lift` of the way to white (darks lifted toward grey)."""

    gains: tuple[float, float, float]
    saturation: float
    lift: float = 0.0

    def __call__(self, colours: np.ndarray) -> np.ndarray:
        q = np.asarray(colours, np.float32) * np.array(self.gains, np.float32)
        y = (q @ despill.LUMA)[..., None]
        graded = y + self.saturation * (q - y)
        lifted = self.lift * 255.0 + (1.0 - self.lift) * graded
        return np.clip(lifted, 0.0, 255.0).astype(np.float32)


def fit_tint(worn: np.ndarray, shares: np.ndarray, portrait: np.ndarray,
             rounds: int = 5) -> Tint | None:
    """The Tint that takes the portrait's colours (K, 3) to the colours worn (k, 3, with
    their shares of the interior (k,)), each worn colour paired with the nearest tinted
    portrait colour within TINT_PAIRED (TINT_FIRST_PAIRED in the first round; paired again
    after each round's fit). Judged on the colours it pairs (one far from every portrait
    colour is a colour of its own, which drawn_reference adds): None where they are under
    TINT_PAIRED_SHARE of the interior or fewer than TINT_COLOURS, within TINT_NOISE of the
    portrait's own, not TINT_GAIN nearer or farther than TINT_FIT, TINT_WORSE_SHARE of
    them farther, or where the fit reached TINT_LIMITS or TINT_LIFT."""
    if (rounds < 1 or not len(worn) or not len(portrait) or not np.isfinite(worn).all()
            or not np.isfinite(shares).all() or shares.sum() <= 0):
        return None
    untinted, j = despill.closest(worn, portrait)
    d = untinted
    lo, hi = TINT_LIMITS
    gains, saturation, lift = np.ones(3), 1.0, 0.0
    for round_ in range(rounds):
        paired = d < (TINT_FIRST_PAIRED if round_ == 0 else TINT_PAIRED)
        if paired.sum() < TINT_COLOURS:
            return None
        w = shares[paired].astype(np.float64)
        f, p = worn[paired].astype(np.float64), portrait[j[paired]].astype(np.float64)
        for _ in range(3):  # each is linear given the other: least squares in turn
            gains, lift = _gains_and_lift(f, p, w, saturation)
            gains = np.clip(gains, lo, hi)
            unlifted = (f - lift * 255.0) / (1.0 - lift)
            saturation = float(np.clip(_saturation(unlifted, p * gains, w), lo, hi))
        tint = Tint((float(gains[0]), float(gains[1]), float(gains[2])), saturation, lift)
        d, j = despill.closest(worn, tint(portrait))
    paired = d < TINT_PAIRED
    w = shares[paired]
    if paired.sum() < TINT_COLOURS or w.sum() < TINT_PAIRED_SHARE * shares.sum():
        return None

    def rms(dist: np.ndarray) -> float:
        return float(np.sqrt((w * dist * dist).sum() / w.sum()))

    before, after = rms(untinted[paired]), rms(d[paired])
    worse = w[d[paired] > untinted[paired] + TINT_WORSE].sum() / w.sum()
    # A fit that ran into TINT_LIMITS wanted more than a grade gives: a part pushed toward
    # the key reads as saturation (trial 19's shirt and tunic asked 1.3), darks lifted to
    # grey read as gains of 1.23-1.3 (its ninja) before the tint had a lift; a lift of
    # TINT_LIFT, darks a third of the way to white, is a washed-out frame, not a grade.
    bounded = (any(np.isclose(v, lo) or np.isclose(v, hi) for v in (*gains, saturation))
               or np.isclose(lift, TINT_LIFT))
    if (before < TINT_NOISE or after > TINT_GAIN * before or after > TINT_FIT
            or worse >= TINT_WORSE_SHARE or bounded):
        return None
    return tint


def _gains_and_lift(f: np.ndarray, p: np.ndarray, w: np.ndarray, saturation: float
                    ) -> tuple[np.ndarray, float]:
    """The gains g (3,) and lift l (within 0..TINT_LIFT) that best take colours p (n, 3) to
    f (n, 3), weights w (n,), at the given saturation: f = 255 l + (1 - l) M(g p), with
    M the saturation about the luma, is linear in h = (1 - l) g and l, solved together
    (the two trade off: apart, they crept to a wrong light). Held a little toward no
    change (a channel no colour has, all 0 there, keeps its gain of 1 at any lift)."""
    m = saturation * np.eye(3) + (1 - saturation) * np.outer(np.ones(3), despill.LUMA)
    a = np.concatenate([m[None] * p[:, None, :], np.full((len(p), 3, 1), 255.0)], axis=2)
    lhs = np.einsum("i,ikj,ikl->jl", w, a, a)  # (4, 4): M diag(p_i) beside 255
    rhs = np.einsum("i,ikj,ik->j", w, a, f)
    # The hold: each gain toward 1, i.e. h_c + l toward 1 (h_c + l - 1 = (1 - l)(g_c - 1)),
    # at one weight for the three (a dim channel's own weight would hold it too little),
    # and the lift toward 0.
    k = 1e-3 * float(np.trace(lhs[:3, :3])) / 3 + 1e-6
    e = np.c_[np.eye(3), np.ones(3)]
    lhs = lhs + k * e.T @ e
    rhs = rhs + k * e.sum(0)
    lhs[3, 3] += 1e-3 * lhs[3, 3]
    h_l = np.linalg.solve(lhs, rhs)
    lift = float(np.clip(h_l[3], 0.0, TINT_LIFT))
    clipped = lift != h_l[3]  # then the gains for that lift
    h = np.linalg.solve(lhs[:3, :3], rhs[:3] - lhs[:3, 3] * lift) if clipped else h_l[:3]
    return h / (1.0 - lift), lift


def _saturation(f: np.ndarray, q: np.ndarray, w: np.ndarray) -> float:
    """The s that best takes colours q (n, 3) to f (n, 3) about their luma, weights w; 1
    where they are greys (within TINT_GREY of their luma: no saturation to tell)."""
    luma = (q @ despill.LUMA)[:, None]
    chroma = q - luma
    spread = float((w[:, None] * chroma * chroma).sum())
    if spread < TINT_GREY ** 2 * float(w.sum()):
        return 1.0
    return float((w[:, None] * (f - luma) * chroma).sum() / spread)


def drawn_reference(reference: Reference, frames: np.ndarray, small: np.ndarray,
                    masks: np.ndarray, key: KeyModel,
                    box: tuple[int, int, int, int] | None = None) -> Reference:
    """The portrait's reference with the colours the model drew the character in that the
    portrait lacks: those of the first frame (frames (N, H, W, 3) at full resolution, N >=
    1; box: where the character is in it, as matte.refine's) and those the clip's drift to
    (small (N', h, w, 3): the reduced frames, and masks (N', h, w) their coarse masks;
    key: the backdrop at full size). As it is where the portrait has see-through parts."""
    if reference.see_through:
        return reference
    worn, shares = opening_palette(frames[0], frames[min(1, len(frames) - 1)], key.at(0),
                                   reference.palette, box)
    tint = fit_tint(worn, shares, reference.palette)
    if tint is not None:
        reference = reference.tinted(tint)
    first = _lacking(worn, shares, reference.palette)
    known = np.concatenate([reference.palette, first])
    return reference.wearing(np.concatenate(
        [first, drifted_colours(small, masks, key, known, frames.shape[1:3])]))


def _interior_colours(p: np.ndarray, nxt: np.ndarray, inside: np.ndarray,
                      threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """(colours (k, 3), shares (k,)): the main colours of p (H, W, 3) float32 where inside
    and unchanged in the next frame nxt (by under the key's threshold: noise aside)."""
    still = norm2(p - nxt.astype(np.float32)) < threshold ** 2
    px = p[inside & still]
    if len(px) < MIN_PIXELS:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32)
    pal = palette(px)
    _, which = despill.closest(px[:: max(1, len(px) // PALETTE_SAMPLES)], pal)
    return pal, (np.bincount(which, minlength=len(pal)) / len(which)).astype(np.float32)


def opening_colours(first: np.ndarray, second: np.ndarray, key: KeyModel, ref: np.ndarray,
                    box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """(k, 3) the colours the character wears in the clip's first frame (H, W, 3) uint8
    that its portrait's (ref, (K, 3)) lack (OPENING_SHARE), read where the spill cannot
    reach and the second frame shows the same colour (a limb's blur changes from frame
    to frame: its mix with the backdrop is no colour of the character's).
    box: where the character can be, as matte.refine's."""
    return _lacking(*opening_palette(first, second, key, ref, box), ref)


def _lacking(worn: np.ndarray, shares: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """The colours worn (k, 3) over OPENING_SHARE of the interior (shares (k,)) that are
    WORN_DISTANCE from every colour of ref (K, 3), shaded or lit."""
    far = despill.shade_distance(worn, ref) > WORN_DISTANCE
    return worn[far & (shares >= OPENING_SHARE)]


def opening_palette(first: np.ndarray, second: np.ndarray, key: KeyModel, ref: np.ndarray,
                    box: tuple[int, int, int, int] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(colours (k, 3), shares (k,)): the main colours of the clip's first frame's interior
    (as opening_colours reads it), the silhouette found with the portrait's colours ref."""
    fh, fw = first.shape[:2]
    x0, y0, x1, y1 = clamp_box(box, fh, fw)
    if x1 <= x0 or y1 <= y0 or not len(ref):
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32)
    p = first[y0:y1, x0:x1].astype(np.float32)
    plate = key.plate_at(fh, fw)[y0:y1, x0:x1]
    sil = silhouette.find(p, plate, key, (fh, fw), ref, None)
    depth = cv2.distanceTransform(sil.fg, cv2.DIST_L2, 5)
    return _interior_colours(p, second[y0:y1, x0:x1],
                             depth > wrap_depth(fh, fw) + CHROMA_SMEAR + 1, key.threshold)


def drifted_colours(small: np.ndarray, masks: np.ndarray, key: KeyModel, known: np.ndarray,
                    full: tuple[int, int]) -> np.ndarray:
    """(k, 3) colours the clip's character drifts to from its known colours (known (K, 3):
    the portrait's and the first frame's): every DRIFT_STEP frames of the reduced frames
    small (N, h, w, 3) uint8, within their masks (N, h, w) beyond the spill's reach (of
    frames of size full (H, W)), a main colour (OPENING_SHARE) WORN_DISTANCE from every
    known colour, keeping SEE_THROUGH_SHARE of the key's excess, that lies within
    WORN_DISTANCE of one the character wore the step before joins them. A flash appears at
    once, far from every colour worn before."""
    if not len(known) or len(small) < 2:
        return np.zeros((0, 3), np.float32)
    h, w = small.shape[1:3]
    reach = math.ceil(wrap_depth(*full) * h / full[0]) + 1  # in the reduced frames' pixels
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    threshold = key.threshold
    # Only a drift toward the key is followed: the one that would read as the backdrop seen
    # through glass (matte's see-through step). A glow ramping up over a few frames drifts
    # too, but away from the key (a pink orb over a lime screen: trial 13's cast IoU 0.961
    # -> 0.935 while it was followed).
    keyward = SEE_THROUGH_SHARE * float(key_excess(key.key[None], key.channel)[0])

    def worn(t: int) -> tuple[np.ndarray, np.ndarray]:
        inside = cv2.erode(masks[t].astype(np.uint8), kernel).astype(bool)
        return _interior_colours(small[t].astype(np.float32), small[t + 1], inside, threshold)

    added: list[np.ndarray] = []
    pal, share = worn(0)
    before = pal[(share >= OPENING_SHARE) & (despill.shade_distance(pal, known) <= WORN_DISTANCE)]
    for t in range(DRIFT_STEP, len(small) - 1, DRIFT_STEP):
        pal, share = worn(t)
        main = share >= OPENING_SHARE
        if not main.any():
            continue
        known_now = np.concatenate([known, *added]) if added else known
        new = despill.shade_distance(pal, known_now) > WORN_DISTANCE
        new &= key_excess(pal, key.channel) >= keyward
        followed = (despill.shade_distance(pal, before) <= WORN_DISTANCE if len(before)
                    else np.zeros(len(pal), bool))
        if (main & new & followed).any():
            added.append(pal[main & new & followed])
        before = pal[main & (~new | followed)]
    return np.concatenate(added) if added else np.zeros((0, 3), np.float32)
