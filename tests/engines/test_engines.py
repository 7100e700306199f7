"""Each export read by the engine it is for: Phaser 3/4 `createFromAseprite` and PixiJS 8
`Assets.load` in headless Chromium, the Godot .tres against Godot 4's text-resource grammar
and SpriteFrames property names, the per-cell PNGs against the strip."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from .conftest import OUTPUTS, engine_js, open_page
from .godot_text import Call, GodotSyntaxError, StringName, parse

PHASER_PAGE = """<!doctype html><html><body style="margin:0;background:#334">
<script src="engine.js"></script><script>
window.result = null;
new Phaser.Game({type: Phaser.CANVAS, width: 800, height: 450, banner: false,
  backgroundColor: '#334455', audio: {noAudio: true},
  scene: {
    preload() {
      this.load.aseprite('hero_walk', 'walk.webp', 'walk.aseprite.json');
      this.load.aseprite('hero_attack', 'attack.webp', 'attack.aseprite.json');
      this.load.atlas('tp_walk', 'walk.webp', 'walk.json');
    },
    create() {
      const out = {};
      const seen = {};
      for (const [key, x] of [['hero_walk', 250], ['hero_attack', 550]]) {
        const made = this.anims.createFromAseprite(key);
        const anim = made[0];
        const sprite = this.add.sprite(x, 225, key).play({key: anim.key, repeat: -1});
        seen[anim.key] = new Set();
        out[anim.key] = {made: made.length, frames: anim.frames.length,
                         frameRate: anim.frameRate, width: sprite.frame.width,
                         height: sprite.frame.height, origin: [sprite.originX, sprite.originY],
                         sprite: sprite};
      }
      const tp = this.add.sprite(0, 0, 'tp_walk', 'hero/walk/00');
      window.atlas = {names: this.textures.get('tp_walk').getFrameNames().length,
                      width: tp.frame.width, origin: [tp.originX, tp.originY]};
      const timer = this.time.addEvent({delay: 40, loop: true, callback: () => {
        for (const k in out) seen[k].add(out[k].sprite.anims.currentFrame.index);
      }});
      this.time.delayedCall(1600, () => {
        timer.remove();
        for (const k in out) { out[k].seen = seen[k].size; delete out[k].sprite; }
        window.result = out;
      });
    }
  }
});
</script></body></html>"""

PIXI_PAGE = """<!doctype html><html><body><script src="engine.js"></script><script>
window.result = null;
(async () => {
  try {
    const out = {};
    for (const name of ['walk', 'attack']) {
      const sheet = await PIXI.Assets.load(name + '.json');
      const textures = sheet.animations[name];
      const sprite = new PIXI.AnimatedSprite(textures);
      sprite.animationSpeed = sheet.data.meta.animation.fps / 60;
      sprite.play();
      const seen = new Set();
      const timer = setInterval(() => seen.add(sprite.currentFrame), 30);
      await new Promise(r => setTimeout(r, 1200));
      clearInterval(timer);
      out[name] = {frames: textures.length, width: textures[0].frame.width,
                   height: textures[0].frame.height, x1: textures[1].frame.x,
                   anchor: [textures[0].defaultAnchor.x, textures[0].defaultAnchor.y],
                   seen: seen.size};
    }
    window.result = out;
  } catch (e) { window.result = {error: String(e)}; }
})();
</script></body></html>"""


def _meta(sheets, name: str) -> dict:
    return json.loads((sheets / f"{name}.json").read_text())


def _served(sheets, engine: str) -> dict:
    files = {"engine.js": engine_js(engine)}
    for name in ("walk", "attack"):
        for suffix in (".webp", ".json", ".aseprite.json"):
            files[name + suffix] = sheets / f"{name}{suffix}"
    return files


@pytest.mark.parametrize("engine", ["phaser3", "phaser4"])
def test_phaser_create_from_aseprite_plays_every_frame(browser, sheets, engine):
    """Phaser's Aseprite path (load.aseprite + anims.createFromAseprite) builds one
    animation per sheet with all its frames (the TexturePacker JSON gave 0), at the sheet's
    fps and cell size, the feet as the sprite's origin, and a playing sprite steps through
    them; load.atlas reads the TexturePacker JSON with the same origin."""
    page, errors = open_page(browser, _served(sheets, engine), PHASER_PAGE)
    try:
        page.wait_for_function("window.result !== null", timeout=60000)
        result = page.evaluate("window.result")
        atlas = page.evaluate("window.atlas")
        page.screenshot(path=str(OUTPUTS / f"engine_{engine}.png"))
    finally:
        page.close()
    assert not errors, errors
    for name in ("walk", "attack"):
        meta = _meta(sheets, name)["meta"]
        got = result[name]
        assert got["made"] == 1
        assert got["frames"] == meta["animation"]["frame_count"] > 1
        assert got["frameRate"] == pytest.approx(meta["animation"]["fps"], rel=0.02)
        assert (got["width"], got["height"]) == (meta["cell"]["w"], meta["cell"]["h"])
        assert got["seen"] >= min(got["frames"], 5)  # the frame index advanced
        anchor = next(iter(_meta(sheets, name)["frames"].values()))["anchor"]
        assert got["origin"] == pytest.approx([anchor["x"], anchor["y"]])  # feet at x, y
    # load.atlas on the TexturePacker JSON: every frame, cell size, our anchor as origin.
    walk = _meta(sheets, "walk")
    first = next(iter(walk["frames"].values()))["anchor"]
    assert atlas["names"] == walk["meta"]["animation"]["frame_count"]
    assert atlas["width"] == walk["meta"]["cell"]["w"]
    assert atlas["origin"] == pytest.approx([first["x"], first["y"]])


def test_pixi_assets_load_reads_the_texturepacker_json(browser, sheets):
    """PixiJS 8 Assets.load turns our JSON into a Spritesheet: the action's animation has
    every frame, cells at their strip offsets, our anchor as the textures' default anchor,
    and an AnimatedSprite steps through it."""
    page, errors = open_page(browser, _served(sheets, "pixi8"), PIXI_PAGE)
    try:
        page.wait_for_function("window.result !== null", timeout=60000)
        result = page.evaluate("window.result")
    finally:
        page.close()
    assert not errors, errors
    assert "error" not in result, result
    for name in ("walk", "attack"):
        doc = _meta(sheets, name)
        meta, first = doc["meta"], next(iter(doc["frames"].values()))
        got = result[name]
        assert got["frames"] == meta["animation"]["frame_count"]
        assert (got["width"], got["height"]) == (meta["cell"]["w"], meta["cell"]["h"])
        assert got["x1"] == meta["cell"]["w"]
        assert got["anchor"] == pytest.approx([first["anchor"]["x"], first["anchor"]["y"]])
        assert got["seen"] >= 3


ATLAS_PROPS = {"atlas", "region", "margin", "filter_clip", "resource_name"}
FRAMES_PROPS = {"animations", "resource_name", "resource_local_to_scene"}
ANIM_KEYS = {"name", "speed", "loop", "frames"}  # SpriteFrames::_set_animations requires
FRAME_KEYS = {"texture", "duration"}


@pytest.mark.parametrize("name", ["walk", "attack"])
def test_godot_tres_is_a_valid_spriteframes(sheets, name):
    """The .tres parses by Godot 4's text-resource grammar; header, ids and load_steps
    agree; only real AtlasTexture/SpriteFrames properties are set; the animation has the
    keys SpriteFrames requires with the right types; the regions tile the strip."""
    meta = _meta(sheets, name)["meta"]
    sections = parse((sheets / f"{name}.tres").read_text())
    head, *rest = sections
    assert head.tag == "gd_resource"
    assert head.attrs["type"] == "SpriteFrames" and head.attrs["format"] == 3
    ext = {s.attrs["id"]: s for s in rest if s.tag == "ext_resource"}
    sub = {s.attrs["id"]: s for s in rest if s.tag == "sub_resource"}
    res = [s for s in rest if s.tag == "resource"]
    assert len(res) == 1 and rest[-1] is res[0]
    assert head.attrs["load_steps"] == len(ext) + len(sub) + 1
    (strip,) = ext.values()
    assert strip.attrs["type"] == "Texture2D"
    image = sheets / strip.attrs["path"]  # relative to the .tres, as Godot resolves it
    w, h = Image.open(image).size
    cover = np.zeros((h, w), int)
    for s in sub.values():
        assert s.attrs["type"] == "AtlasTexture"
        assert set(s.props) <= ATLAS_PROPS
        assert s.props["atlas"] == Call("ExtResource", (strip.attrs["id"],))
        rect = s.props["region"]
        assert rect.name == "Rect2"
        x, y, rw, rh = rect.args
        assert (rw, rh) == (meta["cell"]["w"], meta["cell"]["h"])
        cover[y:y + rh, x:x + rw] += 1
    assert cover.min() == cover.max() == 1
    props = res[0].props
    assert {k for k in props if not k.startswith("metadata/")} <= FRAMES_PROPS
    (anim,) = props["animations"]
    assert set(anim) == ANIM_KEYS
    assert anim["name"] == StringName(name)
    assert isinstance(anim["speed"], float) and anim["speed"] == meta["animation"]["fps"]
    assert anim["loop"] is meta["animation"]["loop"]
    assert len(anim["frames"]) == meta["animation"]["frame_count"]
    xs = []
    for f in anim["frames"]:
        assert set(f) == FRAME_KEYS and isinstance(f["duration"], float) and f["duration"] > 0
        assert f["texture"].name == "SubResource" and f["texture"].args[0] in sub
        xs.append(sub[f["texture"].args[0]].props["region"].args[0])
    assert xs == sorted(xs)  # play order is strip order
    ax, ay = props["metadata/anchor"].args
    first = next(iter(_meta(sheets, name)["frames"].values()))
    assert (ax, ay) == pytest.approx((first["anchor"]["x"], first["anchor"]["y"]))


def test_godot_reader_rejects_broken_text():
    """The reader is strict: an unclosed header or a stray token fails."""
    with pytest.raises(GodotSyntaxError):
        parse('[gd_resource type="SpriteFrames" format=3\n')
    with pytest.raises(GodotSyntaxError):
        parse('[resource]\nanimations = [{"name": &walk}]\n')


def test_aseprite_json_is_array_form_with_index_names(sheets):
    """Aseprite's array export: frames[i].filename == str(i), tags cover them in order."""
    doc = json.loads((sheets / "walk.aseprite.json").read_text())
    tp = _meta(sheets, "walk")
    assert [f["filename"] for f in doc["frames"]] == [str(i) for i in range(len(doc["frames"]))]
    assert [f["frame"] for f in doc["frames"]] == [f["frame"] for f in tp["frames"].values()]
    (tag,) = doc["meta"]["frameTags"]
    assert (tag["name"], tag["from"], tag["to"]) == ("walk", 0, len(doc["frames"]) - 1)
    assert doc["meta"]["image"] == "walk.webp" and "repeat" not in tag
    attack = json.loads((sheets / "attack.aseprite.json").read_text())
    assert attack["meta"]["frameTags"][0]["repeat"] == "1"  # a one-shot plays once


def test_frames_are_the_strip_cells(sheets):
    """STEM_frames/0000.png... are exactly the strip's cells, in order."""
    meta = _meta(sheets, "walk")["meta"]
    strip = np.array(Image.open(sheets / "walk.webp").convert("RGBA"))
    cw = meta["cell"]["w"]
    pngs = sorted((sheets / "walk_frames").glob("*.png"))
    assert len(pngs) == meta["animation"]["frame_count"]
    for i, p in enumerate(pngs):
        cell = np.array(Image.open(p))
        part = strip[:, i * cw:(i + 1) * cw]
        assert cell.shape == part.shape
        assert (cell[..., 3] == part[..., 3]).all()
        visible = part[..., 3] > 0
        assert (cell[visible] == part[visible]).all()
