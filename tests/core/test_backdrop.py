"""The backdrop's key: a studio floor darker than the wall (backdrop.FLOOR_DARKER), and a
frame whose backdrop has a colour of its own (backdrop.FRAME_SHIFT)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core import backdrop, matte

WALL = np.array([45, 160, 70], np.float32)
H, W = 256, 384


def _cyclorama(n: int, floor: float, horizon: float, rise: float,
               vignette: float = 0.0) -> np.ndarray:
    """n frames (N, H, W, 3) uint8 of a green wall with a vertical gradient and vignetting
    (to 1 - vignette in the corners) and a floor `floor` darker below row `horizon` * H (a
    6 px soft step) that rises `rise` px a frame (a camera's drift), with a little noise."""
    rng = np.random.default_rng(3)
    yy = np.arange(H, dtype=np.float32)[:, None, None]
    xx = np.arange(W, dtype=np.float32)[None, :, None]
    r2 = (xx / W - 0.5) ** 2 + (yy / H - 0.5) ** 2
    wall = WALL * (1.0 - 0.08 * yy / H) * (1.0 - 2.0 * vignette * r2)
    out = np.empty((n, H, W, 3), np.uint8)
    for t in range(n):
        below = np.clip((yy - (horizon * H - rise * t)) / 6.0 + 0.5, 0.0, 1.0)
        frame = np.broadcast_to(wall * (1.0 - floor * below), (H, W, 3))
        out[t] = np.clip(frame + rng.normal(0, 1.5, (H, W, 3)) + 0.5, 0, 255)
    return out



def _mask_errors(frames: np.ndarray, key: backdrop.KeyModel,
                 box: tuple[slice, slice]) -> list[float]:
    """Each frame's share of coarse-mask pixels (at the key model's size) that disagree
    with the character being exactly the box (rows, columns) of the full frame."""
    masks = backdrop.coarse_masks(backdrop.shrink(frames, backdrop.model_factor(H, W)), key)
    f = H // masks.shape[1]
    truth = np.zeros((H, W), bool)
    truth[box] = True
    small_truth = truth[::f, ::f][:masks.shape[1], :masks.shape[2]]
    return [float(((m > 0) != small_truth).mean()) for m in masks]

@settings(max_examples=12, deadline=None)
@given(st.floats(0.15, 0.5), st.floats(0.45, 0.85), st.floats(0.0, 1.5))
def test_a_floor_darker_than_the_wall_is_backdrop(floor, horizon, rise):
    """A cyclorama's floor 15-50 % darker than its wall, its horizon anywhere from 45 to
    85 % of the height and rising with the camera by up to 1.5 px a frame, with a dark
    green box standing on it: the coarse masks hold the box and no floor, in every frame.
    (Judged against a smooth plate, a floor over 25 % darker was all character.)"""
    frames = _cyclorama(12, floor, horizon, rise)
    box = (slice(int(0.3 * H), int(0.9 * H)), slice(150, 230))
    frames[:, box[0], box[1]] = (150, 60, 40)
    key = backdrop.estimate_key(frames)
    errors = _mask_errors(frames, key, box)
    assert max(errors) < 0.01, errors


@pytest.mark.parametrize("vignette", [0.0, 0.3, 0.5])
def test_no_floor_leaves_the_key_as_it_was(vignette):
    """A wall with a gradient and vignetting up to 50 % in the corners but no floor: no row
    is a floor (the vignette darkens the lower rows at the frame's sides smoothly, with no
    step), so the key is the one learned without floors and such clips are matted as
    before."""
    frames = _cyclorama(6, 0.0, 0.7, 0.0, vignette)
    assert backdrop.estimate_key(frames).floor is None


def test_a_dark_green_part_at_one_side_is_no_floor():
    """A dark green part (the wall's colour at 60 %) touching the frame's left side and
    bottom, over rows where the right side shows the wall: judged at the brighter side, it
    is no floor (at the darker, it was), and stays character."""
    frames = _cyclorama(6, 0.0, 0.7, 0.0)
    part = (slice(100, None), slice(0, 60))
    frames[:, part[0], part[1]] = np.clip(WALL * 0.6, 0, 255).astype(np.uint8)
    key = backdrop.estimate_key(frames)
    assert key.floor is None
    masks = backdrop.coarse_masks(backdrop.shrink(frames, backdrop.model_factor(H, W)), key)
    f = H // masks.shape[1]
    assert masks[:, 110 // f:190 // f, 0:50 // f].all()


def test_each_frame_has_its_own_floor():
    """The floor's plate follows the horizon frame by frame (KeyModel.at), and refine
    refuses a key whose frame is not said (it would key one frame against another's
    floor)."""
    frames = _cyclorama(8, 0.4, 0.6, 3.0)
    key = backdrop.estimate_key(frames)
    assert key.floor is not None and key.floor.shape == (8, key.plate.shape[0])
    for t in (0, 7):
        plate = key.sized(H, W).at(t).plate
        lum = plate[:, W // 2].sum(1)
        step = int(np.argmax(lum[:-1] - lum[1:]))  # the steepest fall: the horizon
        assert abs(step - (0.6 * H - 3.0 * t)) <= 6, (t, step)
    with pytest.raises(ValueError, match="KeyModel.at"):
        matte.refine(frames[0], key)


def test_a_row_no_side_shows_is_read_as_its_neighbours():
    """A prop across the whole frame inside the floor (a red bar from side to side): its
    rows show no backdrop at either side, and are read as the rows round them, so the
    floor above the bar is still a floor (read as wall, the run of floor rows from the
    bottom stopped at the bar and the floor above it was character)."""
    frames = _cyclorama(4, 0.4, 0.6, 0.0)
    frames[:, 200:212] = (180, 40, 40)
    key = backdrop.estimate_key(frames)
    assert key.floor is not None
    f = H // key.floor.shape[1]
    assert (key.floor[:, 160 // f:196 // f] < 0.8).all(), key.floor[0, 150 // f:200 // f]


def test_a_black_clip_reads_no_floor_and_warns_nothing():
    """An all-black clip (a model's failed render) has no wall to measure a floor against:
    its rows are read as unseen, not divided by a zero wall (numpy's RuntimeWarning went
    to the user's terminal)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        key = backdrop.estimate_key(np.zeros((8, 64, 64, 3), np.uint8))
    assert key.floor is None


CANVAS = np.array([0, 255, 0], np.float32)  # the user's flat canvas: the first frame's


def _settling(n: int, settle: int) -> np.ndarray:
    """n frames (N, H, W, 3) uint8 of a red box on a backdrop that is the flat CANVAS in
    frame 0 and reaches the model's own green (WALL, with a gradient and noise) by frame
    `settle`, as an image-to-video model re-renders the canvas."""
    frames = _cyclorama(n, 0.0, 0.7, 0.0).astype(np.float32)
    for t in range(min(settle, n)):
        k = t / settle
        frames[t] = (1 - k) * CANVAS + k * frames[t]
    frames[:, 60:200, 150:230] = (150, 60, 40)
    return np.clip(frames + 0.5, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("settle", [1, 4, 6])
def test_a_frame_whose_backdrop_has_its_own_colour_is_keyed_against_it(settle):
    """The first frames' backdrop is the flat canvas, settling to the model's green (45,
    160, 70) within 1-6 frames, 100+ levels off in colour: each such frame's plate takes
    its own colour (KeyModel.shift), and its coarse mask holds the box alone; the settled
    frames keep the clip's plate. (Against the clip's plate, those frames' whole backdrop
    was character.)"""
    frames = _settling(12, settle)
    key = backdrop.estimate_key(frames)
    assert key.shift is not None and key.shift[0].any()
    assert not key.shift[settle:].any(), key.shift
    errors = _mask_errors(frames, key, (slice(60, 200), slice(150, 230)))
    assert max(errors) < 0.01, errors
    rgba = matte.refine(frames[0], key.sized(H, W).at(0))
    assert (rgba[..., 3] >= 128).sum() < 1.1 * 140 * 80
    with pytest.raises(ValueError, match="KeyModel.at"):
        matte.refine(frames[0], key)


@pytest.mark.parametrize("gain", [0.8, 1.0, 1.2])
def test_a_backdrop_that_only_flickers_keeps_one_plate(gain):
    """Frames whose backdrop is brighter or darker by up to 20 % (a model's flicker), but
    of the same colour: no frame gets a plate of its own (colour_distance forgives
    brightness), so such clips are keyed as before."""
    frames = _cyclorama(6, 0.0, 0.7, 0.0).astype(np.float32)
    frames[::2] *= gain
    frames = np.clip(frames, 0, 255).astype(np.uint8)
    frames[:, 60:200, 150:230] = (150, 60, 40)
    assert backdrop.estimate_key(frames).shift is None


@pytest.mark.parametrize("coat", [(150, 60, 40), (40, 150, 150), (60, 60, 64)])
def test_a_close_up_whose_coat_fills_the_ring_keeps_the_clips_plate(coat):
    """Three frames of a close-up: a red, a teal or a grey coat fills the frame but for a
    patch of the screen at the bottom, so most of the ring is the coat. The coat is no key
    colour (SHIFT_KEY_SHARE), so those frames keep the clip's plate and the coat stays
    character (taken for the frame's backdrop, the mask was the patch of screen)."""
    frames = _cyclorama(12, 0.0, 0.7, 0.0)
    frames[:, 60:200, 150:230] = (150, 60, 40)
    for t in (5, 6, 7):
        frames[t] = coat
        frames[t, 150:, 60:320] = (45, 150, 66)
    key = backdrop.estimate_key(frames)
    assert key.shift is None or not key.shift[5:8].any(), key.shift
    masks = backdrop.coarse_masks(backdrop.shrink(frames, backdrop.model_factor(H, W)), key)
    f = H // masks.shape[1]
    assert masks[5:8, :100 // f].mean() > 0.95  # the coat, above the patch
    assert masks[5:8, 170 // f:, 80 // f:300 // f].mean() < 0.05  # the screen's patch

def test_a_floor_whose_step_the_grain_hides_in_some_frames_is_still_the_sets():
    """A floor 11-13 % darker than the wall, its horizon soft: frame by frame its step
    reads either side of FLOOR_STEP (as grain made a runner's do), yet every frame that
    shows it gets the floor's rows
    (at the horizon of the frames whose step tells), and a flat opening frame (the user's
    canvas, no floor) gets none. (Frame by frame, half of a runner's frames lost their
    floor, and its cast shadow, deep against the wall, read as character.)"""
    frames = np.concatenate([_cyclorama(1, 0.0, 0.6, 0.0)]
                            + [_cyclorama(1, 0.13 if t % 2 else 0.11, 0.6, 0.0)
                               for t in range(1, 9)])
    # Alone (a clip of that frame twice), a 13 % frame shows its floor, an 11 % one not.
    alone = [backdrop.estimate_key(np.stack([f, f])).floor is not None for f in frames[1:3]]
    assert alone == [True, False], alone
    key = backdrop.estimate_key(frames)
    assert key.floor is not None
    floor_rows = (key.floor < 1.0).sum(1)
    assert floor_rows[0] == 0 and (floor_rows[1:] > 0).all(), floor_rows
    top = key.floor.shape[1] - floor_rows[1:]
    assert (np.abs(top - 0.6 * key.floor.shape[1]) <= 2).all(), top



@pytest.mark.parametrize("side", ["left", "right"])
def test_a_strong_side_light_is_backdrop_to_the_frames_edge(side):
    """A studio light falling from 115 % to 55 % across the frame, levelling off at its
    dark side (a smoothstep), after an opening frame of the user's flat canvas, a red box
    in the middle: the backdrop is backdrop to the frame's dark edge, and the box is
    character, in the model's frames and in the canvas (keyed against its own flat
    colour: KeyModel.canvas). (The plate was fitted only to pixels at least SHADOW_FLOOR
    as bright as the key: at the dark side, only the canvas's, and there it rose to the
    canvas's brightness, twice the screen's; a band down that side read as character.)"""
    rng = np.random.default_rng(5)
    x = np.linspace(0.0, 1.0, W, dtype=np.float32)
    ramp = 0.55 + 0.6 * x * x * (3 - 2 * x)
    if side == "right":
        ramp = ramp[::-1]
    screen = np.array([70, 188, 92], np.float32) * ramp[None, :, None]
    frames = np.clip(screen[None] + rng.normal(0, 1.5, (8, H, W, 3)) + 0.5, 0, 255)
    frames = frames.astype(np.uint8)
    frames[0] = (80, 200, 100)  # the canvas
    frames[:, 60:200, 150:230] = (150, 60, 40)
    key = backdrop.estimate_key(frames)
    assert key.canvas is not None and not np.isnan(key.canvas[0]).any()
    assert np.isnan(key.canvas[1:]).all()
    errors = _mask_errors(frames, key, (slice(60, 200), slice(150, 230)))
    assert max(errors) < 0.01, errors


def test_a_dark_green_band_across_frames_with_no_floor_is_no_floor():
    """After frames that show a floor 30 % darker below 75 % of the height, the camera
    tilts off it, and a dark green part (the wall's hue at 55 %) spans the frame from 78 to
    94 % of the height: those frames take no floor (their rows below the clip's horizon
    neither reach the bottom dark nor are mostly dark), and the part stays character. (A
    review's clip: read by the rows' median alone, the part was taken for the floor and
    keyed out whole.)"""
    yy = np.arange(H, dtype=np.float32)[:, None, None]
    rng = np.random.default_rng(1)

    def frame(floor: float) -> np.ndarray:
        below = np.clip((yy - 0.75 * H) / 6.0 + 0.5, 0.0, 1.0)
        f = np.broadcast_to(WALL * (1 - 0.08 * yy / H) * (1 - floor * below), (H, W, 3))
        return np.clip(f + rng.normal(0, 1.5, (H, W, 3)) + 0.5, 0, 255).astype(np.uint8)

    frames = np.stack([np.full((H, W, 3), (45, 160, 70), np.uint8)]
                      + [frame(0.3) for _ in range(5)] + [frame(0.0) for _ in range(6)])
    frames[:, 60:200, 150:230] = (150, 60, 40)
    frames[6:, int(0.78 * H):int(0.94 * H)] = (WALL * 0.55).astype(np.uint8)
    key = backdrop.estimate_key(frames)
    assert key.floor is not None
    assert (key.floor[1:6] < 1).any(axis=1).all() and (key.floor[6:] == 1).all()
    masks = backdrop.coarse_masks(backdrop.shrink(frames, backdrop.model_factor(H, W)), key)
    f = H // masks.shape[1]
    band = masks[6:, int(0.80 * H) // f:int(0.92 * H) // f]
    assert band.mean() > 0.95, band.mean()


@pytest.mark.parametrize("screen, keyed", [
    ((0, 177, 64), True), ((96, 150, 100), True),  # a screen, and one graded washed out
    ((128, 128, 128), False), ((140, 130, 120), False), ((110, 120, 140), False),  # walls
    ((200, 170, 130), False), ((180, 150, 120), False), ((135, 170, 210), False),  # rooms
    ((160, 165, 100), False), ((150, 160, 100), False),  # khaki and olive, green by a hair
    ((0, 60, 220), True)])  # a blue screen
def test_a_washed_out_screen_is_a_backdrop_and_a_grey_wall_is_not(screen, keyed):
    """backdrop_share (what NOISE reads: under 0.5 is no chroma-key backdrop) of a frame
    border in one colour with a little noise, a dark red figure in the middle. A model's
    washed-out green, (96, 150, 100), 0.16 in chromaticity, was flagged NOISE although it
    keys well; grey walls, warm or cool (0-0.08), and pastel rooms, beige, tan or sky blue
    (0.13-0.15: a model that drew a room, not a screen), stay refused."""
    rng = np.random.default_rng(5)
    frames = np.clip(np.array(screen, np.float32) + rng.normal(0, 2.0, (6, H, W, 3)), 0, 255)
    frames[:, 80:200, 150:230] = (120, 30, 40)
    share = backdrop.estimate_key(frames.astype(np.uint8)).backdrop_share
    assert (share >= 0.5) == keyed, share
