"""QC flags: what a reviewer would reject, each with a stated criterion.

Flags are facts about the clip, not errors: the sheet is still written.
- TRUNCATED: the clip has fewer frames than the recipe's snapped length (17k+5); at
  another frame rate than H3's 24 (not H3's clip, its length not snapped), it lasts less
  than the recipe's seconds.
- NOISE: not a character on a green screen: under half of the frame border matches the
  backdrop, or the character mask is mostly scattered specks (largest part < 60% of it),
  or it covers more than 85% of the frame, or most frames hold no character at all.
- STATIC: after alignment and a 5-frame moving average, no frame differs from the rest
  pose by more than 10% of the character's own signal (RMS); measured: subtle breathing
  ~25%, a still clip with noise and H.264 ~5%. Or the sheet's cells do not move: no two
  differ by 10% of that signal (each frame averaged with its two neighbours first:
  window.steady_distances), where the clip offers no window whose cells do (it moves
  only after the frames the sheet may use, or too slowly for any window's cells to lie
  10% apart).
- CROPPED: in a sheet frame, the character touches the canvas edge (more than 1% of an
  edge's length of character pixels in its outermost row or column), or is not in it at
  all (fewer than align.EMPTY_BELOW pixels: it has left the frame), where the clip offers
  no window whose every cell holds the character.
- A window whose cells lack the character or do not move (window.Shortfall) is taken
  only where no other exists, and its loop is not graded: identical cells loop
  "perfectly" and would be CLEAN.
- FACING: the character turns to face the other way and stays turned: a frame matches the
  mirror image of one of the opening's poses (the rest pose and the quarter second after
  it, less any that has already turned) better than any of those poses themselves, by 5%
  of the signal (5-frame running median), for a run of at least a quarter of the clip and
  half a second, wherever in the clip it is (the run goes on through up to a quarter
  second of frames still nearer the mirrors, if by less: BRIDGE_SECONDS). The match is
  judged twice and the two margins averaged: on the head and shoulders (the top two fifths
  of the character, on a 96 px canvas of their own: window.head_rows), which keep facing
  the same way while a strike or a lunge carries the arms and torso across the anchor for
  as long as a turn lasts, and on the whole body (the window's 48 px features), which
  stays unturned while something raised beside the head (a wolf's tail, an axe swung up)
  fills the head's rows on the side it faces away from. A head whose rest pose is nearly
  symmetric (mirror distance < 15% of its signal: front-facing art) cannot tell, and the
  clip is not judged; a body so symmetric is left out, the head judging alone. A lean, a
  hurt's recoil, a held strike, or a glance back shorter than that, is not flagged.
  Measured with the head and shoulders alone on 48 px, on clips since lost: on 45 clips 10
  of 11 turns flagged (missed: a front-facing girl whose head is nearly symmetric) and 0
  of 34 clean attacks, hurts, skills, walks and idles; judged on head and torso, 2 of the
  34 were flagged (two whip attacks of another generator, their strike held 0.6 s); trials
  10 and 11: their four turns, none of 35 other clips. Trials 12-19 (144 clips of eight
  independent generators, 12 turns of 2.5-D puppets that show their far side): on the head
  rows alone at 96 px 9 of 12 turns and 3 false flags (trial 19's wolf, an axe overhead, a
  rogue's slash: margins -0.095...-0.10 for 8-20 frames); on the whole body alone 10 of 12
  and 2 (a knock-back, an axe attack); the mean of both 10 of 12 and none (missed: a chibi
  whose round head is 45% of her height, a monk turning mid-walk, 12 frames of 13). Held
  out, trial 20 (21 clips of a fifteenth generator written after the rule): 8 of 9 turns
  and one false flag (a horse rearing 1.5 s), where the head alone gave 8 and three (a
  look back held 0.8 s, hair blown forward, the horse).
- SMEAR (ghosting: a share of the previous frame blended into the next): where the
  previous frame showed the character and this one shows a weaker colour on the same line
  from the backdrop (cosine >= 0.95, 20-80% of the previous distance) in pixels the
  character has left (not solid now). Ghosting leaves every such pixel at the same share
  (its blend share); motion blur leaves a ramp of shares (a limb's coverage fades across
  its trail). So what counts is how far the densest cluster of shares (the most pixels
  within a window 0.12 wide) holds more pixels than a flat spread of as many would put
  there, less two standard deviations of that count, as a share of the character's area.
  The allowance matters for small characters: a walk 27 px tall in the reduced copy leaves
  ~15 faint pixels a frame, and their densest cluster alone scored 0.04, above most ghosts.
  A limb narrower than its sweep leaves its blur at one share too, but on both sides of
  it: the shutter spans the frame's moment, so the trail reaches where the limb goes next
  as far as where it was. A ghost is only where it was. So the same measure is taken on
  the pixels only the next frame will show (a faint copy of the next frame), and on the
  side left behind only where the next frame does not show the character (a limb swinging
  back covers both); the score is the median over the moving frames of the side left
  behind less the median of the side ahead; flagged above 0.003. Measured (python -m
  benchmarks.smear, and trial 10's 20 clips of a fifth generator): ghosted clips 0.0038-
  0.082 (26 of 27 flagged; missed: an idle at 40 %, 0.0021, which leaves almost nothing
  behind), clean clips at most 0.0015 (0 of 63, real sprite art with held poses the
  highest). The threshold was chosen on those 90 clips, none held out; trials 7-9 were
  not scored again (their clips are lost). Made after: benchmarks.smear's wide-blur set
  (runs and an attack blurred over 1-1.5 frames), 2 of 2 ghosts (0.016, 0.042) and 0 of 3
  clean clips (at most 0.0015); trial 11 (19 clips of a sixth generator, made to test the
  flags): 5 of 7 ghosts (0.022-0.079), 0 of 12 clean clips (at most 0.0008), missing a
  hurt ghosted at 15 % (0.0013: under the faint shares read) and an idle at 25 % (0.0008).
  Known limit: a motion that swings back every frame (a shake: poses A, B, A, B) puts the
  previous and the next pose on the same pixels, so nothing lies on the side left behind
  alone and its ghost scores 0 (a 30 % ghost of an arm swinging 36 px back and forth: 0;
  moving on 36 px a frame: 0.066).
  The threshold was 0.0025 (between the 90 clips' 0.0015 and 0.0038) until held-out trial
  22's clean hurt, a mane of 70 sub-pixel hair strands tossed by two hits, scored 0.00251
  and was flagged. Scored again over all 198 clips of trials 12-22 (11 generators): the
  clean ones at most 0.00251 (then 0.0020, a dark 16 fps walk), the ghosted 0.0045-0.055;
  so 0.003, between the highest clean score and the lowest ghost (0.0038) of all.
  Counting the side left behind alone, with the threshold at 0.0065, overlapped: ghosts
  from 0.0017 (25 of 27 flagged), clean clips up to 0.0088 (2 of 63: a hurt's 0.4 s
  recoil, and trial 10's run, its thin limbs blurred 32 px, 0.0072); and subtracting the
  side ahead without the disjoint sides cancelled real-art ghosts whose poses swing back
  (0.0027). Before it, on clips lost since: trial 7's 24 clean clips at most 0.003 and
  trial 8's two ghosts (0.012, 0.039) and 29 clean clips (at most 0.0058), both on the
  side behind alone.
- Letterbox bars (black rows or columns round the picture, uniform in every frame) are
  cut before the backdrop is learned: not NOISE, and the crop is in meta.clip.crop.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import snap
from .align import EMPTY_BELOW
from .backdrop import KeyModel, colour_distance
from .channels import dot, norm2, spread
from .quantiles import median
from .window import FEATURE_SIDE, HEAD_SIDE, Features, rms_distances

STATIC_BELOW = 0.1
EDGE_SHARE = 0.01
FACING_MARGIN = 0.05
ASYMMETRY_MIN = 0.15
TURN_SHARE = 0.25  # of the clip: how long a turn must last
TURN_SECONDS = 0.5  # ... and at least this
# A turned walk passes through poses no reference shows (the opening holds one step; a
# stride's far end is as far from every reference as from its mirror): the run of clearly
# turned frames goes on through up to this long a gap of frames still nearer the mirrors
# (margin < 0). Trial 23's squash-and-flip turn walked turned for 30 frames at 24 fps
# in two runs of 6 and 7 clear frames, 6 frames apart (margins -0.02...-0.04); bridging
# 0.25-0.5 s flags it, and no decoy of the 247 trial clips gains a frame of run.
BRIDGE_SECONDS = 0.25
OPENING_SECONDS = 0.25  # after the rest pose: the poses a turned frame is compared with
# An opening pose nearer the mirrored rest pose than this share of the rest pose's asymmetry
# has turned already.
TURNED_SHARE = 0.5
# Later frames that may join the references (evenly spaced, at most this many: the
# distances cost frames x references), and how long before a frame a reference must be
# (a turn taking longer than this could walk its own frames into the references: 0.5 s
# is the shortest a turn must last, TURN_SECONDS). Measured on 214 trial clips' FACING
# (every case of trials 12-23): 5 wrong -> 3 (a monk's walking turn is flagged, a horse
# rearing no longer is; still missed: a chibi's, a 3/4 monk's and trial 23's squash-and-
# flip turns); joining at any margin >= 0 caught trial 23's but lost a turn while
# attacking, and at 0.03, 3 wrong as well. 48 candidates gave the same verdicts at 3-4x
# the cost; at 12, FACING takes 68 ms for 56 frames (40 before) and ~150 ms for 600 (57).
GROW_CANDIDATES = 12
GROW_LAG = TURN_SECONDS
SMEAR_ABOVE = 0.003
# A flagged clip's ghost is undone (core/ghost.py) where its copies in pixels only the
# previous frame showed cluster in at least this share of the character's area: the share
# is read there. On the ghosts of trials 15-32 0.034-0.32, of benchmarks.smear's drawn
# characters 0.013-0.46; real art swapping its own frames in place leaves almost none
# (Kenney's girl and zombie ghosted 25-45 %: 0.001-0.006), nor do the clean clips SMEAR
# flags (trial 25's nearest-neighbour cat 0.0013, undone at 0.34 its IoU fell 0.993 ->
# 0.970; trial 33's breathing knight 0): those keep their frames as they came.
COPIES_SHARE = 0.01
# A ghost blends the previous frame as shown (recursive: each pose lives on, fading by the
# share a frame) where the frame before the previous one still shows, in pixels only it
# held, more than this part of the share its copies imply squared; a blend of the previous
# clean pose leaves nothing there. Measured (echo against the copies' ratio squared): the
# recursive ghosts of trials 34 and 38 0.075 against 0.073 and 0.096 against 0.106, the
# fixture's 45 % walk 0.223; the ghosts of the clean pose of trials 17-37 -0.058..0.034
# against 0.09-0.45 (and trial 15's, of two frames back as well, 0.067 against 0.13: read
# recursive, edge +2.5 -> +1.5).
ECHO_PART = 0.5
# A ghost blended over the whole frame dims the pose's fresh pixels (inside the pose now and
# in the next two frames, backdrop in the two before) to 1 - share of their next value (a
# blend of the clean pose) or 1 / (1 + share) (of the frame as shown); a ghost drawn only
# on the screen behind the pose leaves them at 1. The pose is read as blended where their
# median ratio lies below the midpoint. Measured on the 21 ghosted clips of trials 15-38:
# 0.61-0.82 where the whole frame is blended, 0.99-1.01 where it is not (trial 27's ghost
# on the screen alone, trial 15's double exposure, trial 21's ghost character idle).
POSE_FRESH_MAX = 1.6  # above: the pixel is a faint copy of the pose in the next frame (1 / s)
# A pixel nearer the plate than this many key thresholds is no solid character (where
# SMEAR reads faint copies, and core/ghost.py's trail).
NOT_SOLID = 2.5
SMEAR_WINDOW = 0.12  # width of the cluster of shares a ghost's pixels fall in
FAINT_SHARES = (0.2, 0.8)  # a faint copy's share of the previous frame's colour
FAINT_SPAN = FAINT_SHARES[1] - FAINT_SHARES[0]
_SQUARE = np.ones((3, 3), np.uint8)
BAR_LUMA = 40.0  # a bar row is darker than this everywhere, in nearly every frame:
# all but this share of them. A model's first frame is the user's canvas, without the bars
# the model then draws (an independent trial's letterboxed walk: bars from frame 1 on;
# required in every frame, none were cut, the key was learned from their black and the
# clip read as NOISE, IoU 0.06).
BAR_FRAMES_WITHOUT = 0.125
# A bar is at most this share of the frame's height or width: a 9:16 picture inside a 16:9
# frame leaves 34 % a side (under a third, its bars went uncut and the backdrop was learned
# from their black: the whole picture came out as character).
BAR_SHARE = 0.42


def truncated(frame_count: int, fps: float, seconds: float) -> bool:
    """Whether the clip ended early. At H3's 24 fps: fewer frames than H3 makes for a
    recipe of `seconds` (snap_length, the next 17k+5). At another rate the clip is not H3's
    (another model's 16 fps, a 30 fps edit), its length not snapped: shorter than
    `seconds`, by more than half a frame's rounding."""
    if abs(fps - snap.FPS) < 0.5:  # 23.976 too
        return frame_count < snap.snap_length(seconds)
    return frame_count < seconds * fps - 0.5


def noise(masks: np.ndarray, backdrop_share: float, largest_share: list[float]) -> bool:
    """largest_share: per frame, the largest connected part's share of the raw mask."""
    if backdrop_share < 0.5:
        return True
    h, w = masks.shape[1:]
    totals = masks.sum(axis=(1, 2))
    n = len(masks)
    empty = int((totals < EMPTY_BELOW).sum())
    covering = int((totals > 0.85 * h * w).sum())
    scattered = sum(1 for t, s in zip(totals, largest_share, strict=True)
                    if t >= EMPTY_BELOW and s < 0.6)
    return empty > n / 2 or scattered > n / 3 or covering > n / 3


def signal(feat: Features, rest: int) -> float:
    return float(np.sqrt((feat.vectors[rest] ** 2).mean())) or 1e-6


def static(feat: Features, rest: int) -> tuple[bool, float]:
    """Largest departure from the rest pose, on a 5-frame moving average (so compression
    noise and mask flicker average out while breathing, a slow motion, survives)."""
    v = feat.vectors
    k = min(5, len(v))
    # Running sums row by row: np.cumsum down axis 0 of a C-ordered array walks each column
    # in turn, 7 ms at 56 x 9216 where this takes 0.25 ms (the same additions, same bits).
    c = np.zeros((len(v) + 1, v.shape[1]), v.dtype)
    for i in range(len(v)):
        np.add(c[i], v[i], out=c[i + 1])
    smooth = (c[k:] - c[:-k]) / k
    r = min(rest, len(smooth) - 1)
    d = np.sqrt(((smooth - smooth[r]) ** 2).mean(1))
    motion = float(d.max()) / signal(feat, rest)
    return motion < STATIC_BELOW, motion


def cut(masks: np.ndarray) -> np.ndarray:
    """(N,) bool: the frames of coarse masks (N, h, w) whose character touches the frame's
    edge (more than EDGE_SHARE of an edge's length in its outermost row or column): CROPPED
    where any frame of the sheet's window is."""
    h, w = masks.shape[1:]
    edges = ((masks[:, 0], w), (masks[:, -1], w), (masks[:, :, 0], h), (masks[:, :, -1], h))
    return np.logical_or.reduce([(edge > 0).sum(1) > max(1, EDGE_SHARE * length)
                                 for edge, length in edges])


SHIFT_CHUNK = 64  # frames compared at once
# References shifted at once: 8 x 17 shifts of the head's rows hold 5 MB (all 36 of a clip's
# held 22 MB, the analysis's largest array at 448 px).
REF_CHUNK = 8


def _shift_tolerant(u: np.ndarray, refs: np.ndarray, side: int, shifts: int) -> np.ndarray:
    """(n, m) RMS distance of each row-block u[t] (n, D) to each of refs (m, D), at its best
    horizontal shift. A turn's margin is a difference of near distances, and |a|^2 + |b|^2
    - 2 a.b loses them to rounding where the vectors are long: both sides are taken
    relative to the refs' mean first (a distance does not change), in float32."""
    m = len(refs)
    centre = refs.mean(0, dtype=np.float32)
    out = np.empty((len(u), m), np.float64)
    for j in range(0, m, REF_CHUNK):
        mj = min(REF_CHUNK, m - j)
        blocks = refs[j:j + mj].astype(np.float32).reshape(mj, -1, side, 4)
        shifted = np.concatenate([np.roll(blocks, s, axis=2).reshape(mj, -1)
                                  for s in range(-shifts, shifts + 1)])
        shifted -= centre
        r2 = (shifted * shifted).sum(1)
        for i in range(0, len(u), SHIFT_CHUNK):
            d = rms_distances(u[i:i + SHIFT_CHUNK] - centre, shifted, r2)
            out[i:i + SHIFT_CHUNK, j:j + mj] = d.reshape(len(d), -1, mj).min(1)
    return out


def _turn_margins(u: np.ndarray, side: int, rest: int, fps: float) -> np.ndarray | None:
    """Per frame, how much nearer the mirrored reference poses than the reference poses
    themselves the frame's image u[t] is (rows of `side` px, 4 channels), as a share of
    the rest pose's signal, after a 5-frame running median; None when the rest pose is
    too symmetric to tell which way it faces (ASYMMETRY_MIN).

    The references are first the opening's poses: the rest pose and the quarter second
    after it, a walk's first steps, less any that has already turned. A turned walk
    matches the mirror of the same step; a hurt's recoil or a lean matches neither, and
    against the rest pose alone it sat nearer the mirror image for 12+ frames (profile
    figures, whose mirror is only 0.27-0.42 of the signal away, measured on the window's
    48 px canvas). A later frame joins them once it is as clearly unturned (FACING_MARGIN
    nearer the references than their mirrors) as a turned frame must be turned, judged
    against references at least GROW_LAG earlier: a clip that opens still and then
    walks has steps as far from the still pose as from its mirror, and its turned walk
    read neither way (trial 18's monk turning mid-walk); its own earlier steps tell."""
    def mirrored(frames: np.ndarray) -> np.ndarray:  # (only the references are mirrored)
        return u[frames].reshape(len(frames), -1, side, 4)[:, :, ::-1].reshape(
            len(frames), -1)

    scale = float(np.sqrt((u[rest] ** 2).mean())) or 1e-6
    # Up to 8% of the width of slack: the anchor is not exactly the body's mirror axis.
    shifts = max(1, side // 12)
    opening = np.arange(rest, min(len(u), rest + max(1, round(OPENING_SECONDS * fps))))
    to_mirror = _shift_tolerant(u[opening], mirrored(np.array([rest])), side, shifts)[:, 0]
    asymmetry = float(to_mirror[0])  # the rest pose's own distance to its mirror
    if asymmetry / scale < ASYMMETRY_MIN:
        return None  # a symmetric pose cannot tell which way it faces
    # A pose of the opening that is already near the mirrored rest pose has turned (a quick
    # turn right after a still start): it is no reference. A turn came within 0.15 of the
    # signal of the mirrored rest pose, a recoil no nearer than 0.27 (on a 48 px canvas;
    # the rest pose itself, at its full asymmetry, always stays).
    opening = opening[to_mirror >= TURNED_SHARE * asymmetry]
    n_open = len(opening)
    # Spaced by a fraction of a frame, not a whole stride: a stride that divides a walk's
    # period would only ever offer the same few steps.
    cand = np.concatenate([opening, spread(int(opening[-1]) + 1, len(u) - 1, GROW_CANDIDATES)])
    m = len(cand)
    both = _shift_tolerant(u, np.concatenate([u[cand], mirrored(cand)]), side, shifts)
    lag = max(1, round(GROW_LAG * fps))
    of_opening = np.arange(m) < n_open
    active = of_opening.copy()
    margin = np.empty(len(u))
    at = {int(c): j for j, c in enumerate(cand)}
    for s in range(len(u)):
        use = active & ((cand <= s - lag) | of_opening)
        margin[s] = (both[s, m:][use].min() - both[s, :m][use].min()) / scale
        j = at.get(s)
        if j is not None and j >= n_open and margin[s] >= FACING_MARGIN:
            active[j] = True
    k = min(5, len(margin) - (len(margin) + 1) % 2)  # odd: n values in, n out
    if k >= 3:  # running median: a frame or two of mask noise neither makes nor breaks a run
        pad = np.pad(margin, (k // 2, k // 2), mode="edge")
        margin = median(np.lib.stride_tricks.sliding_window_view(pad, k), axis=1)
    return margin


def facing(head: np.ndarray, body: np.ndarray, rest: int, fps: float,
           cut_frames: np.ndarray | None = None) -> bool:
    """Whether the character turns to face the other way and stays turned (see FACING).
    head: every frame's head and shoulders (window.head_rows, HEAD_SIDE px wide); body:
    the whole character (window.features' vectors, FEATURE_SIDE px wide); cut_frames
    (N,) bool: the frames whose character the frame's edge cuts (`cut`), left out of the
    run: a part out of the frame moves the rest on the canvas (an independent trial's spear
    attack, its arm out of the frame for 15 frames, sat nearer its mirror image there).

    The head tells which way the character faces where a strike carries the arms across;
    the whole body tells it where the head's rows hold something else (a wolf's raised
    tail beside its head read as its mirror image). A turn turns both: the margin judged
    is their mean. A head too symmetric to tell (front-facing art) is not judged at all:
    the body alone flagged a knock-back and an axe attack; a body too symmetric to tell
    leaves the head alone to judge; where both can tell, a frame either reads unturned is
    not clearly turned (both_turned)."""
    if len(head) != len(body):
        raise ValueError(f"facing: {len(head)} head rows but {len(body)} bodies")
    head_margin = _turn_margins(head, HEAD_SIDE, rest, fps)
    if head_margin is None:
        return False
    body_margin = _turn_margins(body, FEATURE_SIDE, rest, fps)
    margin = head_margin if body_margin is None else both_turned(head_margin, body_margin)
    need = max(max(3, round(TURN_SECONDS * fps)), int(np.ceil(TURN_SHARE * len(head))))
    judged = margin[rest + 1:]
    if cut_frames is not None:
        judged = judged[~cut_frames[rest + 1:]]
    return turned_run(judged, round(BRIDGE_SECONDS * fps)) >= need


def both_turned(head: np.ndarray, body: np.ndarray) -> np.ndarray:
    """(N,) the margin judged from the head's and the whole body's (N,): their mean, but
    where either still reads nearer its unturned poses (margin >= 0) no clearer than
    -FACING_MARGIN: a turn turns both, and may pass through such a frame (bridged, as
    through a stride the references lack) but not consist of them. Measured: an
    independent trial's ogre leaning forward after a smash, his head rows nearer their
    mirror (-0.33) for 12 frames while his body stayed unturned (+0.02..+0.08), was FACING
    on the mean; of the 27 turns of trials 17-31 that are flagged, none was lost (a run
    of 25 frames became 24 against the 23 needed; in every other, every clearly turned
    frame had both margins below 0)."""
    mean = (head + body) / 2
    return np.where(np.maximum(head, body) >= 0, np.maximum(mean, -FACING_MARGIN), mean)


def turned_run(margin: np.ndarray, bridge: int) -> int:
    """The longest run of frames turned: clearly (margin < -FACING_MARGIN) at both ends,
    through gaps of up to `bridge` frames still nearer the mirrors (margin < 0), which
    count: the character was turned through them."""
    run = best = gap = 0
    for m in margin:
        if m < -FACING_MARGIN:
            run, gap = (run + gap + 1 if run else 1), 0
        elif run and m < 0 and gap < bridge:
            gap += 1
        else:
            run = gap = 0
        best = max(best, run)
    return best


def bars(small: np.ndarray) -> tuple[int, int, int, int]:
    """Letterbox/pillarbox bars of reduced frames (N, h, w, 3): rows (top, bottom) and
    columns (left, right) that are dark across their whole length in all frames but
    BAR_FRAMES_WITHOUT of them, plus one row or column of the blurred seam. (0, 0, 0, 0)
    when there are none."""
    luma = small.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)
    allowed = int(BAR_FRAMES_WITHOUT * len(luma))  # frames a bar may be missing from
    # Each row's (column's) brightest pixel per frame, then the brightest over the frames
    # left when the `allowed` brightest are set aside.
    rank = len(luma) - 1 - allowed
    row_max = np.partition(luma.max(axis=2), rank, axis=0)[rank]
    col_max = np.partition(luma.max(axis=1), rank, axis=0)[rank]

    def run(v: np.ndarray) -> int:
        dark = v < BAR_LUMA
        n = int(np.argmin(dark)) if not dark.all() else len(v)
        return n + 1 if 0 < n < BAR_SHARE * len(v) else 0

    return run(row_max), run(row_max[::-1]), run(col_max), run(col_max[::-1])


@dataclass(frozen=True)
class Ghosting:
    """What the clip's faint copies of its previous frames say (see SMEAR above)."""

    score: float  # SMEAR's score
    # The densest cluster of faint copies in pixels only the previous frame showed (see
    # `ghosting`), as a share of the character's area (its median over the clip).
    copies: float
    # The share of the previous frame blended into each, read off that cluster (0.0 where
    # there is none): of the previous clean pose, or where `recursive`, of the previous
    # frame as shown.
    share: float
    # The median share of the frame before the previous one in pixels only it showed (see
    # `ghosting`): about share^2 where the ghost blends the previous frame as shown,
    # 0 where it blends the previous clean pose.
    echo: float = 0.0
    recursive: bool = False
    # The median ratio of the pose's fresh pixels to their next value (see POSE_FRESH_MAX);
    # 1.0 where none were read.
    pose: float = 1.0

    @property
    def blends_pose(self) -> bool:
        """Whether the ghost is blended over the current pose too, not only the screen."""
        dimmed = 1 / (1 + self.share) if self.recursive else 1 - self.share
        return self.pose < (1 + dimmed) / 2

    @property
    def undo_whole(self) -> bool:
        """Whether `ghost.unghosted` takes the whole frame clean, the pose included, not
        only the trail: for a recursive ghost blended over the pose. A blend of the clean
        pose is undone in the trail only: its share is read to +-0.04 (trial 28's 30 % as
        0.342), and over the whole frame an overshoot pushes the pose's fresh rim away
        from the backdrop by (read - true) / (1 - read) of its colour (trial 28: edge -5.6
        -> -9.3), where a recursive ghost's share reads low if anything (see `ghosting`)."""
        return self.recursive and self.blends_pose

    @property
    def undo_share(self) -> float:
        """The share a clip flagged SMEAR is matted without (`ghost.unghosted`): `share`
        where its copies are many enough to read it from (COPIES_SHARE), else 0.0."""
        return self.share if self.copies >= COPIES_SHARE else 0.0


NO_GHOSTING = Ghosting(0.0, 0.0, 0.0)


def smear(small: np.ndarray, masks: np.ndarray, key: KeyModel) -> float:
    """SMEAR's score of a clip (`ghosting`'s)."""
    return ghosting(small, masks, key).score


def ghosting(small: np.ndarray, masks: np.ndarray, key: KeyModel) -> Ghosting:
    """Share of the character's area that is a faint copy of the previous frame at one
    share where only the previous frame showed it, beyond the faint copy of the next frame
    where only the next one does (see SMEAR above); medians over the frames where the
    character moved, never below 0. The first and last frames have no neighbour on one
    side and are not scored: a clip of fewer than 3 frames scores 0. And the faint copies
    in pixels only the previous frame showed, and the share they cluster at."""
    if len(small) < 3:
        return NO_GHOSTING
    behind, ahead, left, echoes, fresh_pose = [], [], [], [], []
    # Frame by frame, four at a time: no float copy of the clip.
    plate, next_plate = key.at(0).plate, key.at(1).plate  # each frame's: a floor's rows
    prev = small[0].astype(np.float32) - plate
    older = prev
    cur = small[1].astype(np.float32) - next_plate
    for t in range(1, len(small) - 1):
        plate, next_plate = next_plate, key.at(t + 1).plate
        nxt = small[t + 1].astype(np.float32) - next_plate
        was, will, now = masks[t - 1] > 0, masks[t + 1] > 0, masks[t] > 0
        area = int(now.sum())
        moved = int((was ^ now).sum())
        if area >= 8 and moved >= max(2, area // 50):
            not_solid = colour_distance(small[t], plate) <= NOT_SOLID * key.threshold
            shares = _faint_shares(cur, prev, was & ~will & not_solid, key)
            behind.append(cluster_excess(shares, SMEAR_WINDOW, FAINT_SPAN) / area)
            ahead.append(cluster_excess(_faint_shares(cur, nxt, will & ~was & not_solid, key),
                                        SMEAR_WINDOW, FAINT_SPAN) / area)
            if t >= 2:
                # Pixels only the previous frame showed: not this one's soft rim (a copy
                # of the previous rim at ~0.5), nor the one before's (whose copy in the
                # previous frame is no ghost's share of it).
                fresh = was & ~will & ~now & ~(masks[t - 2] > 0)
                left.append(_faint_shares(cur, prev, fresh, key))
                # Pixels only the frame before the previous one showed, solid there: what
                # of it this frame still holds, by projection (a faint share is lost in
                # noise for _faint_shares' test of direction).
                gone = (masks[t - 2] > 0) & ~was & ~now & ~will
                b = older[gone]
                solid = np.sqrt(norm2(b)) > 2 * key.threshold
                echoes.append(dot(cur[gone][solid], b[solid]) / norm2(b[solid]))
                after = masks[min(t + 2, len(masks) - 1)] > 0
                fresh_pose.append(_pose_ratios(cur, nxt, now, will & after & ~was
                                               & ~(masks[t - 2] > 0), key))
        older, prev, cur = prev, cur, nxt
    if not behind:
        return NO_GHOSTING
    score = max(0.0, float(median(behind) - median(ahead)))
    pooled = np.concatenate(left) if left else np.zeros(0, np.float32)
    copies = densest_cluster(pooled, SMEAR_WINDOW) / max(float(median(masks.sum((1, 2)))), 1.0)
    # A pixel only the previous frame showed holds `share` of the character where that
    # frame, itself ghosted, held 1 - share: the copies read share / (1 - share) of it. A
    # recursive ghost holds `share` of the previous frame as shown: the copies read it.
    ratio = cluster_centre(pooled, SMEAR_WINDOW)
    pooled_echo = np.concatenate(echoes) if echoes else np.zeros(0, np.float32)
    echo = float(median(pooled_echo)) if len(pooled_echo) else 0.0
    recursive = bool(ratio) and echo > ECHO_PART * ratio * ratio
    # A recursive ghost's copies read it high where few are fresh (a slow walk's are
    # mostly the soft rim's: 0.67 for 45 %); the echo reads its square.
    share = min(ratio, float(np.sqrt(echo))) if recursive else ratio / (1 + ratio)
    dimming = [float(median(r)) for r in fresh_pose if len(r) >= 4]
    pose = float(median(np.array(dimming))) if dimming else 1.0
    return Ghosting(score, copies, share, echo, recursive, pose)


def _pose_ratios(cur: np.ndarray, nxt: np.ndarray, pose: np.ndarray, where: np.ndarray,
                 key: KeyModel) -> np.ndarray:
    """|cur| / |nxt| (differences from the plate) in the pixels `where` of the pose that
    are off its rim (`pose` eroded by one pixel: its own antialiasing), solid in the next
    frame and in the same direction from the backdrop there; without the faint copies of
    the pose (POSE_FRESH_MAX)."""
    inner = where & (cv2.erode(pose.astype(np.uint8), _SQUARE) > 0)
    a, b = cur[inner], nxt[inner]
    na, nb = np.sqrt(norm2(a)), np.sqrt(norm2(b))
    ok = (nb > 2 * key.threshold) & (dot(a, b) >= 0.97 * na * nb)
    ratio = na[ok] / nb[ok]
    return ratio[ratio < POSE_FRESH_MAX]


def _faint_shares(cur: np.ndarray, other: np.ndarray, where: np.ndarray,
                  key: KeyModel) -> np.ndarray:
    """The shares of `other`'s colour that the pixels `where` show (both as differences
    from the plate) where they are a faint copy of it: on the same line from the backdrop
    (cosine >= 0.95), 20-80 % of the way."""
    a, b = cur[where], other[where]
    nb = np.sqrt(norm2(b)) + 1e-3
    na = np.sqrt(norm2(a)) + 1e-3
    cos = dot(a, b) / (na * nb)
    ratio = na / nb
    lo, hi = FAINT_SHARES
    faint = (cos >= 0.95) & (ratio >= lo) & (ratio <= hi) & (nb > 2 * key.threshold)
    return ratio[faint]


def cluster_excess(values: np.ndarray, width: float, span: float) -> float:
    """How far the densest cluster of `values` (`width` wide, within a range `span` wide)
    holds more values than a flat spread of as many would put there, less two standard
    deviations of that count (Poisson); never below 0. An even ramp scores 0, one share
    ~0.8 of len(values). Without the allowance a small character's few faint pixels score
    high by chance (a walk 27 px tall in the reduced copy: 0.04 against ghosts' 0.03)."""
    flat = len(values) * width / span
    return max(0.0, densest_cluster(values, width) - flat - 2.0 * float(np.sqrt(flat)))


def densest_cluster(values: np.ndarray, width: float) -> int:
    """The most of `values` (1-D) that lie within one interval `width` wide."""
    return len(_densest(values, width))


def cluster_centre(values: np.ndarray, width: float) -> float:
    """The median of the densest cluster of `values` (1-D); 0.0 when there are none."""
    cluster = _densest(values, width)
    return float(median(cluster)) if len(cluster) else 0.0


def _densest(values: np.ndarray, width: float) -> np.ndarray:
    """The most of `values` that lie within one interval `width` wide, sorted."""
    if not len(values):
        return values
    v = np.sort(values)
    counts = np.searchsorted(v, v + width, side="right") - np.arange(len(v))
    i = int(counts.argmax())
    return v[i:i + counts[i]]
