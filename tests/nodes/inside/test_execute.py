"""Each node's execute, called directly on small CPU tensors of odd sizes."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import load_synth

from comfy_nodes import nodes_greenscreen, nodes_preview, nodes_snap, nodes_sprite
from comfy_nodes.core.reference import portrait_reference
from comfy_nodes.tensors import image_to_uint8

# ComfyUI's own tests/ package shadows ours here: the drawn characters come by file.
synth = load_synth()


def _ui_text(out) -> str:
    ui = out.ui if isinstance(out.ui, dict) else out.ui.as_dict()
    return ui["text"][0]


@pytest.mark.parametrize("seconds, frames", [(0.7, 22), (1, 39), (1.5, 39), (2, 56), (5, 124)])
def test_snap_length_table(seconds, frames):
    """Snap Length gives the table's frame counts and says so in the UI."""
    out = nodes_snap.SnapLength.execute(seconds)
    assert out.args[0] == frames
    assert abs(out.args[1] - frames / 24) < 1e-9
    assert _ui_text(out) == f"{seconds:g} s → {frames} frames ({frames / 24:.2f} s)"


def test_snap_length_ui_example():
    assert _ui_text(nodes_snap.SnapLength.execute(2.5)) == "2.5 s → 73 frames (3.04 s)"


def test_snap_size():
    """1:1 at 0.2 MP is 448x448; custom sizes snap to 32."""
    assert nodes_snap.SnapSize.execute(0.2, "1:1", 0, 0).args == (448, 448)
    assert nodes_snap.SnapSize.execute(0.2, "custom", 450, 250).args == (448, 256)
    out = nodes_snap.SnapSize.execute(0.98, "16:9", 0, 0)
    assert out.args == (1344, 768) and _ui_text(out) == "0.98 MP 16:9 → 1344×768"


def _portrait_tensors(w=37, h=53):
    rgba = synth.portrait(size=(w, h))
    image = torch.from_numpy(rgba[..., :3].astype(np.float32) / 255)[None]
    mask = torch.from_numpy(1 - rgba[..., 3].astype(np.float32) / 255)[None]  # LoadImage's
    return rgba, image, mask


def test_green_screen_prep_odd_portrait():
    """A 37x53 portrait lands feet-down in a 160x96 canvas on the key colour; the placement
    is data and matches the pixels."""
    _, image, mask = _portrait_tensors()
    out = nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08,
                                                   image=image, mask=mask)
    frame = image_to_uint8(out.args[0])[0]
    assert frame.shape == (96, 160, 3)
    place = json.loads(out.args[1])
    assert out.args[2:] == (160, 96)
    assert tuple(frame[0, 0]) == (0, 177, 64)  # the key, at a corner
    char = np.abs(frame.astype(int) - (0, 177, 64)).sum(-1) > 60
    ys, xs = np.nonzero(char)
    assert abs((ys.max() + 1) - place["feet_y"]) <= 1.5
    assert abs((xs.min() + xs.max()) / 2 - 80) <= 2


def test_green_screen_prep_refuses_no_alpha():
    """An image whose Load Image mask is the 64x64 placeholder (no alpha) is refused."""
    _, image, _ = _portrait_tensors()
    with pytest.raises(ValueError, match="^Green Screen Prep: the portrait needs a transparent "
                                         "background: save it as PNG or WebP"):
        nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08, image=image,
                                                  mask=torch.zeros((1, 64, 64)))
    with pytest.raises(ValueError, match="^Green Screen Prep: connect a portrait"):
        nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08)
    # an animated PNG's two frames, as Load Image batches them: its first was taken
    _, image, mask = _portrait_tensors()
    with pytest.raises(ValueError, match="^Green Screen Prep: the portrait is 2 images"):
        nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08,
                                                  image=torch.cat([image, image]),
                                                  mask=torch.cat([mask, mask]))


def test_green_screen_prep_wide_reference():
    """Above 16:9 the reference is 480 px on its short edge; the canvas stays."""
    _, image, mask = _portrait_tensors()
    out = nodes_greenscreen.GreenScreenPrep.execute(1792, 768, "#00B140", 0.6, 0.08,
                                                   image=image, mask=mask)
    assert tuple(out.args[0].shape) == (1, 480, 1120, 3)
    assert out.args[2:] == (1792, 768)


def test_preview_motion_frames_and_first_frame():
    """Preview Motion returns the snapped count, frame 0 unchanged, later frames moving."""
    _, image, mask = _portrait_tensors(61, 90)
    first = nodes_greenscreen.GreenScreenPrep.execute(192, 160, "#00B140", 0.6, 0.08,
                                                     image=image, mask=mask).args[0]
    clip = nodes_preview.PreviewMotion.execute(first, "walk", 22, 1).args[0]
    assert tuple(clip.shape) == (22, 160, 192, 3)
    assert torch.equal(clip[0], first[0])
    assert (clip[10] - clip[0]).abs().mean() > 0.002
    t = time.monotonic()
    nodes_preview.PreviewMotion.execute(first, "idle", 5, 0, simulate_seconds=0.5)
    assert time.monotonic() - t >= 0.5  # simulate_seconds makes it take that long
    assert nodes_preview.PreviewMotion.validate_inputs(frames=50).startswith("Preview Motion:")
    assert nodes_preview.PreviewMotion.validate_inputs(frames=56) is True


def _clip_tensor(action="walk", size=(192, 160), frames=56):
    rgb, _ = synth.clip(action, size=size, frames=frames)
    return torch.from_numpy(rgb.astype(np.float32) / 255)


def test_sprite_matte_shapes_and_alpha():
    """Sprite Matte returns RGB and an alpha MASK of the same odd size; backdrop is 0."""
    rgb, alpha = nodes_sprite.SpriteMatte.execute(_clip_tensor(size=(90, 66), frames=3),
                                                  True).args
    assert tuple(rgb.shape) == (3, 66, 90, 3) and tuple(alpha.shape) == (3, 66, 90)
    assert alpha[:, 0, 0].max() == 0 and alpha.max() == 1


def test_errors_leave_as_one_plain_sentence_naming_the_node():
    """A core error class (here an unknown action) reaches ComfyUI as a plain ValueError
    whose message starts with the node's display name."""
    with pytest.raises(ValueError) as e:
        nodes_preview.PreviewMotion.execute(torch.zeros((1, 64, 64, 3)), "moonwalk", 22, 0)
    assert type(e.value) is ValueError and str(e.value).startswith("Preview Motion")


def test_sprite_loop_window():
    """Loop Window picks 10 frames of a walk with a CLEAN grade."""
    out = nodes_sprite.SpriteLoopWindow.execute(_clip_tensor(), "walk", 0, 0.0, 24.0)
    window, indices, score, grade = out.args
    assert window.shape[0] == 10 and len(json.loads(indices)) == 10
    assert grade == "CLEAN" and 0 <= score < 0.5


def test_sprite_loop_window_of_screen_alone_is_not_graded():
    """A clip of screen alone (the character drawn below the frame): NOISE, and the loop
    of cells that hold nothing is NOT GRADED (score -1), never called a one-shot."""
    rgb, _ = synth.clip("walk", size=(192, 160), frames=56, feet_y=2.5)
    frames = torch.from_numpy(rgb.astype(np.float32) / 255)
    out = nodes_sprite.SpriteLoopWindow.execute(frames, "walk", 0, 0.0, 24.0)
    _, _, score, grade = out.args
    assert (grade, score) == ("NOT GRADED", -1.0)
    assert _ui_text(out) == "not graded · QC: NOISE"


def test_sprite_sheet_saves_safe_names(output_dir):
    """Sprite Sheet writes WebP + JSON under output/h3sprite/<character>/ with numbered
    names (never an overwrite) and refuses a character name that escapes the folder."""
    clip = _clip_tensor()
    for _ in range(2):
        out = nodes_sprite.SpriteSheet.execute(clip, "hero", "walk", 0, 0.0, 24.0, 120, 8000)
    files = sorted(p.name for p in (output_dir / "h3sprite" / "hero").iterdir())
    assert files == ["walk_00001_.json", "walk_00001_.webp", "walk_00002_.json",
                     "walk_00002_.webp"]
    meta = json.loads(out.args[2])
    assert meta["meta"]["image"] == "walk_00002_.webp" and meta["meta"]["size"]["h"] == 120
    assert set(meta["meta"]["comfyui"]) == {"prompt", "workflow"}
    ui = out.ui
    assert ui["animated"] == (True,) and ui["images"][0]["type"] == "temp"
    import folder_paths
    from PIL import Image

    with Image.open(Path(folder_paths.get_temp_directory()) / ui["images"][0]["filename"]) as im:
        assert im.n_frames == 10 and im.size == (meta["meta"]["cell"]["w"], 120)
        im.seek(1)
        im.load()  # Pillow reads a frame's duration when it decodes it
        assert im.info["duration"] == 100  # plays at the walk recipe's 10 fps
    assert "loop CLEAN" in ui["text"][0] and "QC: " in ui["text"][0]
    with pytest.raises(ValueError, match="^Sprite Sheet: character '../x' must be a plain"):
        nodes_sprite.SpriteSheet.execute(clip, "../x", "walk", 0, 0.0, 24.0, 120, 8000)


def test_green_screen_prep_shows_its_frame_and_placement():
    """The node's UI output: the first frame it made (a temp image) and the placement."""
    _, image, mask = _portrait_tensors()
    ui = nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08,
                                                  image=image, mask=mask).ui
    assert ui["images"][0]["type"] == "temp" and ui["images"][0]["filename"].endswith(".png")
    assert ui["text"][0].startswith("160×96, character ×")


def test_file_input_fingerprint_follows_the_content(tmp_path):
    """A portrait replaced under the same name changes the fingerprint (so ComfyUI reruns
    the node instead of serving a stale cached frame); a missing file still fingerprints."""
    import folder_paths

    old = folder_paths.get_input_directory()
    folder_paths.set_input_directory(str(tmp_path))
    try:
        fp = nodes_greenscreen.GreenScreenPrep.fingerprint_inputs
        (tmp_path / "p.png").write_bytes(b"one")
        first = fp(file="p.png")
        (tmp_path / "p.png").write_bytes(b"two")
        assert fp(file="p.png") != first
        assert fp(file="gone.png") == "missing:gone.png" and fp(file="") == ""
    finally:
        folder_paths.set_input_directory(old)


def test_loop_window_judges_with_the_portrait_as_sprite_sheet_does():
    """A contact shadow running out of the frame's bottom is character to the key alone,
    so the clip is CROPPED; with the portrait (whose colours it is near none of) it is
    dropped, as Sprite Sheet drops it, and the window is the one the sheet takes."""
    from comfy_nodes.core import pipeline
    from comfy_nodes.core.recipes import DEFAULT_RECIPES
    from comfy_nodes.core.video import Clip

    frame = np.tile(np.array([40, 190, 70], np.float32), (158, 200, 1))
    yy, xx = np.mgrid[0:158, 0:200]
    dark = 0.45 * np.clip(1.6 - ((xx - 100) / 45.0) ** 2 - ((yy - 150) / 9.0) ** 2, 0, 1)
    frame *= 1 - np.minimum(dark, 0.45)[..., None]
    frame[40:125, 82:118] = (150, 60, 50)  # a red tunic
    frame[125:150, 85:98] = frame[125:150, 102:115] = (60, 40, 30)  # two boots
    rng = np.random.default_rng(2)
    clip = np.stack([np.clip(frame + rng.normal(0, 2.0, frame.shape), 0, 255)
                     for _ in range(24)]).astype(np.uint8)
    portrait = np.zeros((90, 40, 4), np.uint8)
    portrait[:60, 5:35] = (150, 60, 50, 255)
    portrait[60:, 8:18] = portrait[60:, 22:32] = (60, 40, 30, 255)
    image = torch.from_numpy(portrait[..., :3].astype(np.float32) / 255)[None]
    mask = torch.from_numpy(1.0 - portrait[..., 3].astype(np.float32) / 255)[None]
    frames = torch.from_numpy(clip.astype(np.float32) / 255)
    plain = nodes_sprite.SpriteLoopWindow.execute(frames, "idle", 0, 0.0, 24.0)
    assert "CROPPED" in _ui_text(plain)
    out = nodes_sprite.SpriteLoopWindow.execute(frames, "idle", 0, 0.0, 24.0,
                                                portrait=image, portrait_mask=mask)
    sheet = pipeline.process_clip(Clip(clip, 24.0), "idle", DEFAULT_RECIPES["idle"],
                                  reference=portrait_reference(portrait))
    assert "CROPPED" not in _ui_text(out) and "CROPPED" not in sheet.qc
    assert json.loads(out.args[1]) == [c.source_index for c in sheet.sources]


def test_loop_window_runs_as_an_output_and_messages_name_the_node():
    """Loop Window is an output node (it runs with nothing downstream); a missing file
    says so in one sentence naming the node, without a path."""
    assert nodes_sprite.SpriteLoopWindow.define_schema().is_output_node
    with pytest.raises(ValueError) as e:
        nodes_greenscreen.GreenScreenPrep.execute(160, 96, "#00B140", 0.6, 0.08,
                                                  file="nobody.png")
    assert str(e.value) == ("Green Screen Prep: 'nobody.png' is not in the input folder: "
                            "upload it, or connect Load Image.")


def test_sprite_sheet_refuses_a_max_width_too_narrow_for_its_cells(output_dir):
    """max_width 64 (the input's minimum) left a walk's 10 cells 6 px each: refused at
    validation when sheet_frames is a constant, and by execute (a linked sheet_frames is
    not known at validation), in one sentence naming the width that does; nothing saved."""
    line = ("Sprite Sheet: max_width 64 leaves 6 px per cell for walk's 10 frames; a cell "
            "needs at least 16 px: give max_width 160 or more.")
    check = nodes_sprite.SpriteSheet.validate_inputs
    assert check(action="walk", sheet_frames=0, max_width=64) == line
    assert check(action="walk", sheet_frames=4, max_width=64) is True  # 16 px each
    assert check(action="walk", sheet_frames=None, max_width=64) is True  # linked
    with pytest.raises(ValueError) as e:
        nodes_sprite.SpriteSheet.execute(_clip_tensor(), "hero", "walk", 0, 0.0, 24.0, 120, 64)
    assert str(e.value) == line
    assert not (output_dir / "h3sprite").exists()


def test_sprite_sheet_writes_every_format(output_dir):
    """formats=all, image_format=png: PNG strip, TexturePacker and Aseprite JSON, Godot
    .tres and per-cell PNGs, all under one fresh numbered stem."""
    out = nodes_sprite.SpriteSheet.execute(_clip_tensor(), "hero", "walk", 0, 0.0, 24.0, 120,
                                           8000, formats="all", image_format="png")
    folder = output_dir / "h3sprite" / "hero"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["walk_00001_.aseprite.json", "walk_00001_.json", "walk_00001_.png",
                     "walk_00001_.tres", "walk_00001__frames"]
    assert len(list((folder / "walk_00001__frames").glob("*.png"))) == 10
    assert json.loads(out.args[2])["meta"]["image"] == "walk_00001_.png"


def test_sprite_sheet_and_matte_despill_with_the_portrait(output_dir):
    """Given the portrait (Load Image's IMAGE and MASK), Sprite Sheet makes the sheet the
    driver makes with `--portrait`: the despill un-mixes against the portrait's colours
    and its ink outline (not the same sheet as without it). Sprite Matte takes it too. A
    portrait IMAGE without its MASK is refused in one line naming the node."""
    import cv2

    from comfy_nodes.core import pipeline
    from comfy_nodes.core.recipes import DEFAULT_RECIPES
    from comfy_nodes.core.video import Clip

    rgba, _, mask = _portrait_tensors(120, 180)
    # An ink line round it (2 px), so that the portrait's outline takes part too.
    solid = rgba[..., 3] >= 250
    rgba[solid & (cv2.dilate((~solid).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0),
         :3] = (34, 28, 40)
    image = torch.from_numpy(rgba[..., :3].astype(np.float32) / 255)[None]
    assert portrait_reference(rgba).outline is not None
    clip = _clip_tensor()
    out = nodes_sprite.SpriteSheet.execute(clip, "hero", "walk", 0, 0.0, 24.0, 120, 8000,
                                           portrait=image, portrait_mask=mask)
    got = np.dstack([image_to_uint8(out.args[0])[0],
                     np.round(out.args[1][0].numpy() * 255).astype(np.uint8)])
    arr = image_to_uint8(clip)[..., :3]
    want = pipeline.process_clip(Clip(arr, 24.0), "walk", DEFAULT_RECIPES["walk"],
                                 character="hero", cell_height=120,
                                 reference=portrait_reference(rgba)).rgba
    plain = pipeline.process_clip(Clip(arr, 24.0), "walk", DEFAULT_RECIPES["walk"],
                                  character="hero", cell_height=120).rgba
    assert np.array_equal(got, want) and not np.array_equal(want, plain)
    three = clip[8:11]
    with_p = nodes_sprite.SpriteMatte.execute(three, True, portrait=image,
                                              portrait_mask=mask).args
    without = nodes_sprite.SpriteMatte.execute(three, True).args
    assert tuple(with_p[1].shape) == (3, 160, 192)
    assert not (np.array_equal(with_p[0].numpy(), without[0].numpy())
                and np.array_equal(with_p[1].numpy(), without[1].numpy()))
    with pytest.raises(ValueError, match="^Sprite Sheet: connect Load Image's MASK to "
                                         "portrait_mask too"):
        nodes_sprite.SpriteSheet.execute(clip, "hero", "walk", 0, 0.0, 24.0, 120, 8000,
                                         portrait=image)
    with pytest.raises(ValueError, match="^Sprite Matte: portrait_mask is connected but "
                                         "portrait is not"):
        nodes_sprite.SpriteMatte.execute(three, True, portrait_mask=mask)


def test_sprite_matte_takes_the_colours_the_model_drew_the_clip_in():
    """A clip whose shirt the model pushed from the portrait's sage (90, 140, 100) nearer
    the key, to (58, 164, 78): with the portrait, Sprite Matte reads the first frame's
    colours too, as the driver does, and keeps the shirt opaque: 2.5 % of the body lost
    over the clip, as without a portrait (with the portrait's colours alone the shirt read
    as the backdrop seen through glass: 21 %)."""
    rgb, truth = synth.clip("walk", synth.Character(palette=synth.PALETTES["villager_pushed"]),
                            size=(160, 192), frames=24)
    rgba = synth.portrait(synth.Character(palette=synth.PALETTES["villager"]), size=(120, 180))
    image = torch.from_numpy(rgba[..., :3].astype(np.float32) / 255)[None]
    mask = torch.from_numpy(1 - rgba[..., 3].astype(np.float32) / 255)[None]
    frames = torch.from_numpy(rgb.astype(np.float32) / 255)
    alpha = nodes_sprite.SpriteMatte.execute(frames, True, portrait=image,
                                             portrait_mask=mask).args[1].numpy()
    body = truth[..., 3] == 255
    lost = ((alpha < 0.5) & body).sum() / body.sum()
    assert lost < 0.05, lost
