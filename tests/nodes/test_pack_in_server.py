"""The pack inside a real embedded ComfyUI: registration, and preview.json end to end."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from comfy_nodes.core import greenscreen, video
from driver.client import ComfyClient, ExecutionFailed, ValidationFailed, output_files
from driver.workflow import Workflow
from service import manager
from tests import synth
from tests.conftest import REPO

NODES = {
    "H3Sprite_SnapLength": ["seconds"],
    "H3Sprite_SnapSize": ["megapixels", "aspect", "custom_width", "custom_height"],
    "H3Sprite_GreenScreenPrep": ["width", "height", "key_color", "image", "mask", "file"],
    "H3Sprite_SpriteMatte": ["frames", "defringe"],
    "H3Sprite_SpriteLoopWindow": ["frames", "action", "sheet_frames", "sheet_fps"],
    "H3Sprite_SpriteSheet": ["frames", "character", "action", "cell_height", "max_width"],
    "H3Sprite_PreviewMotion": ["first_frame", "action", "frames", "seed", "simulate_seconds"],
}


@pytest.fixture(scope="module")
def client(comfy_server):
    return ComfyClient(f"http://127.0.0.1:{comfy_server.port}")


def test_every_node_is_registered_with_tooltips(client, comfy_server):
    """/object_info lists every node, in the pack's category, with its inputs, each input
    with a tooltip; the server log shows no import error for the pack."""
    info = client.object_info()
    for node_id, inputs in NODES.items():
        assert node_id in info, node_id
        spec = info[node_id]
        assert spec["category"].startswith("h3sprite/")
        declared = {**spec["input"].get("required", {}), **spec["input"].get("optional", {})}
        assert set(inputs) <= set(declared), (node_id, declared.keys())
        for name, (_, opts) in declared.items():
            assert opts.get("tooltip"), f"{node_id}.{name} has no tooltip"
        assert all(n not in ("INT", "FLOAT", "IMAGE") for n in spec["output_name"])
    assert "not H3" in info["H3Sprite_PreviewMotion"]["display_name"]
    log = Path(manager.latest_log(comfy_server.config())).read_text()
    assert not re.search(r"IMPORT FAILED.*h3sprite|comfy_entrypoint in .*h3sprite", log)


def _portrait(tmp_path: Path, palette="knight") -> tuple[Path, np.ndarray]:
    rgba = synth.portrait(synth.Character(palette=synth.PALETTES[palette]))
    path = tmp_path / f"{palette}.png"
    cv2.imwrite(str(path), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA))
    return path, rgba


@pytest.mark.parametrize("seconds, frames, action", [(2.0, 56, "walk"), (0.7, 22, "hurt")])
def test_preview_workflow_makes_the_snapped_clip(client, tmp_path, seconds, frames, action):
    """preview.json on the real server yields an mp4 with the snapped frame count whose
    first frame is the prepared first frame (mean error < 3 levels after H.264)."""
    path, rgba = _portrait(tmp_path)
    name = client.upload(path, f"knight_{action}.png")
    wf = Workflow.load(REPO / "api_workflows" / "preview.json")
    graph = wf.bind(portrait=name, prompt="test", seconds=seconds, size=(448, 448), seed=3,
                    clip_prefix=f"h3sprite/test/knight_{action}", action=action)
    run = client.run(graph)
    files = output_files(run.outputs, wf.markers()["@clip"][0])
    assert len(files) == 1 and files[0]["filename"].endswith(".mp4")
    clip = video.decode(client.download(files[0], tmp_path / "clip.mp4"))
    assert clip.frames.shape == (frames, 448, 448, 3)
    first, _ = greenscreen.prepare_first_frame(rgba, 448, 448)
    assert np.abs(clip.frames[0].astype(int) - first).mean() < 3
    assert np.abs(clip.frames[-1].astype(int) - first).mean() > 0.5 or action == "hurt"


def test_a_clip_saved_by_comfyuis_save_animated_webp_is_read(client, tmp_path):
    """preview.json with ComfyUI's own SaveAnimatedWEBP in place of SaveVideo (a graph a
    user may wire): the file the real node writes (41 ms frames for 24 fps) decodes to
    every frame, at 24 fps, evenly, and its first frame is the prepared first frame (the
    node saves losslessly: within a level)."""
    path, rgba = _portrait(tmp_path)
    name = client.upload(path, "knight_webp.png")
    wf = Workflow.load(REPO / "api_workflows" / "preview.json")
    graph = wf.bind(portrait=name, prompt="test", seconds=2.0, size=(448, 448), seed=3,
                    clip_prefix="h3sprite/test/knight_webp", action="walk")
    save = wf.markers()["@clip"][0]
    images = graph[graph[save]["inputs"]["video"][0]]["inputs"]["images"]
    graph[save] = {"class_type": "SaveAnimatedWEBP",
                   "inputs": {"images": images, "filename_prefix": "h3sprite/test/webp",
                              "fps": 24.0, "lossless": True, "quality": 80,
                              "method": "fastest"}}
    run = client.run(graph)
    files = output_files(run.outputs, save)
    assert len(files) == 1 and files[0]["filename"].endswith(".webp")
    clip = video.decode(client.download(files[0], tmp_path / "clip.webp"))
    assert clip.frames.shape == (56, 448, 448, 3) and clip.fps == 24 and clip.timing is None
    first, _ = greenscreen.prepare_first_frame(rgba, 448, 448)
    assert np.abs(clip.frames[0].astype(int) - first).max() <= 1


def test_bad_frame_count_is_a_validation_error(client):
    """Preview Motion refuses a frame count that is not 17k+5, before anything runs."""
    graph = {
        "1": {"class_type": "EmptyImage", "inputs": {"width": 64, "height": 64,
                                                      "batch_size": 1, "color": 0x00B140}},
        "2": {"class_type": "H3Sprite_PreviewMotion",
              "inputs": {"first_frame": ["1", 0], "action": "walk", "frames": 50, "seed": 0}},
        "3": {"class_type": "PreviewImage", "inputs": {"images": ["2", 0]}},
    }
    with pytest.raises(ValidationFailed, match="17k\\+5"):
        client.run(graph)


def test_portrait_without_alpha_fails_with_clear_message(client, tmp_path):
    """An opaque RGB portrait is refused by Green Screen Prep in one sentence that names
    the node and the fix, with no internal sizes (it used to say "mask 64x64 vs ...")."""
    path = tmp_path / "opaque.png"
    cv2.imwrite(str(path), np.full((40, 30, 3), 128, np.uint8))
    name = client.upload(path, "opaque.png")
    wf = Workflow.load(REPO / "api_workflows" / "preview.json")
    graph = wf.bind(portrait=name, prompt="x", seconds=0.7, size=(128, 128), seed=0,
                    clip_prefix="h3sprite/test/opaque", action="idle")
    with pytest.raises(ExecutionFailed, match="Green Screen Prep: the portrait needs a "
                                              "transparent background") as e:
        client.run(graph)
    assert not re.search(r"\d+x\d+|mask|comfy_nodes", str(e.value)), str(e.value)


def test_example_workflows_are_in_sync_with_the_api_graphs(client):
    """The UI-format templates are what scripts/export_ui_workflows.py makes of
    api_workflows/*.json today (regenerate them after editing a workflow)."""
    import json
    import sys

    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from export_ui_workflows import CARDS, to_ui
    finally:
        sys.path.pop(0)
    info = client.object_info()
    assert {p.stem for p in (REPO / "example_workflows").glob("*.json")} == set(CARDS)
    for card, name in CARDS.items():
        assert (REPO / "example_workflows" / f"{card}.jpg").is_file(), f"{card}: no thumbnail"
        if name == "h3_sprite":  # needs the H3 schemas this server lacks: test_h3_template.py
            continue
        graph = json.loads((REPO / "api_workflows" / f"{name}.json").read_text())
        committed = json.loads((REPO / "example_workflows" / f"{card}.json").read_text())
        assert to_ui(graph, info) == committed, name


def test_file_input_replaced_under_the_same_name_reruns(client, tmp_path):
    """Green Screen Prep's `file` input is fingerprinted by content: the same name with a
    new portrait runs again (a new placement), the same file again is served from cache."""
    path, rgba = _portrait(tmp_path, "hero")
    graph = {
        "1": {"class_type": "H3Sprite_GreenScreenPrep",
              "inputs": {"file": "", "width": 128, "height": 128, "key_color": "#00B140",
                         "height_share": 0.6, "feet_margin": 0.08}},
        "2": {"class_type": "PreviewImage", "inputs": {"images": ["1", 0]}},
    }
    graph["1"]["inputs"]["file"] = client.upload(path, "swap.png")
    first = client.run(graph)
    small = cv2.resize(rgba, (rgba.shape[1] // 2, rgba.shape[0] // 2),
                       interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(path), cv2.cvtColor(small, cv2.COLOR_RGBA2BGRA))
    client.upload(path, "swap.png")  # same name, new content
    second = client.run(graph)
    third = client.run(graph)
    assert "1" not in second.cached and "1" in third.cached
    assert first.outputs["1"]["text"] != second.outputs["1"]["text"]


def test_loop_window_runs_with_nothing_after_it(client, tmp_path):
    """Sprite Loop Window is an output node: a graph that ends in it runs (ComfyUI refuses
    a prompt without outputs) and its grade comes back as the node's text."""
    path, _ = _portrait(tmp_path, "hero")
    graph = {
        "1": {"class_type": "H3Sprite_GreenScreenPrep",
              "inputs": {"file": client.upload(path, "lw.png"), "width": 128, "height": 128,
                         "key_color": "#00B140", "height_share": 0.6, "feet_margin": 0.08}},
        "2": {"class_type": "H3Sprite_PreviewMotion",
              "inputs": {"first_frame": ["1", 0], "action": "walk", "frames": 56, "seed": 0}},
        "3": {"class_type": "H3Sprite_SpriteLoopWindow",
              "inputs": {"frames": ["2", 0], "action": "walk", "sheet_frames": 0,
                         "sheet_fps": 0.0, "clip_fps": 24.0}},
    }
    text = client.run(graph).outputs["3"]["text"][0]
    assert text.startswith("loop ") and " · QC: " in text, text


SHEET_INPUTS = {"character": "hero", "action": "walk", "sheet_frames": 0, "sheet_fps": 0.0,
                "clip_fps": 24.0, "cell_height": 120, "max_width": 8000,
                "formats": "texturepacker", "image_format": "webp"}


@pytest.mark.parametrize("node, name, value, words", [
    # our validate_inputs took **kwargs, so ComfyUI checked no input's range: each of
    # these ran and failed inside, or wrote a sheet of fps -1
    ("sheet", "sheet_fps", -1.0, "smaller than min"),
    ("sheet", "sheet_fps", 1e9, "bigger than max"),
    ("sheet", "cell_height", 0, "smaller than min"),
    ("preview", "simulate_seconds", 100000.0, "bigger than max"),
    # the inputs validate_inputs names are its own to check, and so is every combo: this
    # ComfyUI checks a V3 combo's value against nothing (its check wants a list type)
    ("sheet", "action", "dance", "Sprite Sheet: action 'dance' is not one of idle, walk"),
    ("sheet", "formats", "bogus", "Sprite Sheet: formats 'bogus' is not one of "
                                  "texturepacker"),
    ("sheet", "image_format", "gif", "Sprite Sheet: image_format 'gif' is not one of webp, "
                                     "png."),
    ("sheet", "sheet_frames", -1, "Sprite Sheet: sheet_frames -1 is outside 0..256."),
    ("sheet", "max_width", 99999, "Sprite Sheet: max_width 99999 is outside 64..16383."),
    ("preview", "frames", 17 * 100 + 5, "Preview Motion: frames 1705 is outside 5..1024."),
    ("preview", "action", "dance", "Preview Motion: action 'dance' is not one of idle"),
    ("loop", "action", "dance", "Sprite Loop Window: action 'dance' is not one of idle"),
    ("snap", "aspect", "2:1", "Snap Size: aspect '2:1' is not one of 1:1"),
])
def test_an_input_out_of_its_declared_range_is_refused_before_anything_runs(
        client, node, name, value, words):
    def given(of: str) -> dict:
        return {name: value} if node == of else {}

    preview = {"first_frame": ["1", 0], "action": "walk", "frames": 56, "seed": 0}
    recipe = {k: SHEET_INPUTS[k] for k in ("action", "sheet_frames", "sheet_fps", "clip_fps")}
    graph = {
        "1": {"class_type": "EmptyImage", "inputs": {"width": 64, "height": 64,
                                                      "batch_size": 1, "color": 0x00B140}},
        "2": {"class_type": "H3Sprite_PreviewMotion", "inputs": {**preview, **given("preview")}},
        "3": ({"class_type": "H3Sprite_SpriteLoopWindow",
               "inputs": {"frames": ["2", 0], **recipe, **given("loop")}} if node == "loop" else
              {"class_type": "H3Sprite_SpriteSheet",
               "inputs": {"frames": ["2", 0], **SHEET_INPUTS, **given("sheet")}}),
    }
    if node == "snap":
        graph = {
            "1": {"class_type": "H3Sprite_SnapSize",
                  "inputs": {"megapixels": 0.2, "aspect": value, "custom_width": 448,
                             "custom_height": 448}},
            "2": {"class_type": "EmptyImage", "inputs": {"width": ["1", 0], "height": ["1", 1],
                                                          "batch_size": 1, "color": 0}},
            "3": {"class_type": "PreviewImage", "inputs": {"images": ["2", 0]}},
        }
    with pytest.raises(ValidationFailed) as e:
        client.run(graph)
    assert words in str(e.value), str(e.value)


@pytest.mark.parametrize("node", ["H3Sprite_SpriteSheet", "H3Sprite_SpriteLoopWindow"])
def test_a_sheet_fps_under_one_is_refused_as_a_recipe_file_refuses_it(client, node,
                                                                      tmp_path):
    """The widget steps by 0.5 from 0 (the recipe's fps); 0.5 made a frame last 2 s, where
    a recipe file needs 1 or more."""
    path, _ = _portrait(tmp_path, "hero")
    inputs = SHEET_INPUTS if node == "H3Sprite_SpriteSheet" else {
        k: SHEET_INPUTS[k] for k in ("action", "sheet_frames", "clip_fps")}
    graph = {
        "1": {"class_type": "H3Sprite_GreenScreenPrep",
              "inputs": {"file": client.upload(path, "fps.png"), "width": 128, "height": 128,
                         "key_color": "#00B140", "height_share": 0.6, "feet_margin": 0.08}},
        "2": {"class_type": "H3Sprite_PreviewMotion",
              "inputs": {"first_frame": ["1", 0], "action": "walk", "frames": 39, "seed": 5}},
        "3": {"class_type": node,
              "inputs": {"frames": ["2", 0], **inputs, "sheet_fps": 0.5}},
    }
    with pytest.raises(ExecutionFailed, match="sheet_fps 0.5 is under one frame a second: "
                                              "give 1 or more, or 0 for the walk recipe's 10"):
        client.run(graph)


def test_a_greyscale_portrait_whose_transparency_load_image_drops_is_told_how_to_save(
        client, tmp_path):
    """A greyscale PNG with a transparent colour (tRNS) shows a transparent background in
    any viewer, but ComfyUI's Load Image keeps the alpha of RGBA, LA and palette images
    only: its MASK comes opaque. The refusal says so and how to save it."""
    from PIL import Image

    grey = np.zeros((64, 48), np.uint8)
    grey[10:54, 12:36] = 180
    path = tmp_path / "grey.png"
    Image.fromarray(grey, "L").save(path, transparency=0)
    assert Image.open(path).convert("RGBA").getchannel("A").getextrema() == (0, 255)
    wf = Workflow.load(REPO / "api_workflows" / "preview.json")
    graph = wf.bind(portrait=client.upload(path, "grey.png"), prompt="x", seconds=0.7,
                    size=(128, 128), seed=0, clip_prefix="h3sprite/test/grey", action="idle")
    with pytest.raises(ExecutionFailed, match="as RGBA: Load Image drops a greyscale PNG's "
                                              "transparency"):
        client.run(graph)
