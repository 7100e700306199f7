"""Godot 4 `SpriteFrames` as a text resource (.tres), for AnimatedSprite2D/3D.

One animation named after the action; each frame an AtlasTexture region of the strip,
which is an ext_resource by a path relative to the .tres (Godot resolves such paths
against the file's own folder, so the pair can be copied anywhere in a project).
speed = fps, loop = the recipe's loop, every frame duration 1.0 (a multiple of 1/speed).

Godot draws a sprite centred on its node; to stand the feet on the node's origin set
`centered = false` and `offset = metadata/offset` (stored on the resource, in pixels),
or read `metadata/anchor` (a fraction of the frame).
"""

from __future__ import annotations

import json

from ..sheet import Sheet

STRIP_ID = "1_strip"


def _num(v: float) -> str:
    """Godot writes floats with a decimal point: 10 -> 10.0."""
    text = repr(float(v) + 0.0)  # + 0.0: no "-0.0"
    return text if "e" not in text else f"{v:.6f}"


def _string(text: str) -> str:
    """A Godot string literal: JSON's escapes are a subset Godot's parser reads."""
    return json.dumps(text, ensure_ascii=False)


def document(sheet: Sheet, image: str) -> str:
    cw, ch = sheet.cell_size
    n = sheet.frame_count
    ax, ay = sheet.anchor
    out = [f'[gd_resource type="SpriteFrames" load_steps={n + 2} format=3]', "",
           f'[ext_resource type="Texture2D" path={_string(image)} id="{STRIP_ID}"]', ""]
    for i in range(n):
        out += [f'[sub_resource type="AtlasTexture" id="AtlasTexture_{i}"]',
                f'atlas = ExtResource("{STRIP_ID}")',
                f"region = Rect2({i * cw}, 0, {cw}, {ch})", ""]
    frames = ", ".join(f'{{\n"duration": 1.0,\n"texture": SubResource("AtlasTexture_{i}")\n}}'
                       for i in range(n))
    out += ["[resource]",
            "animations = [{",
            f'"frames": [{frames}],',
            f'"loop": {"true" if sheet.loop else "false"},',
            f'"name": &{_string(sheet.action)},',
            f'"speed": {_num(sheet.fps)}',
            "}]",
            f"metadata/character = {_string(sheet.character)}",
            f"metadata/anchor = Vector2({_num(round(ax, 4))}, {_num(round(ay, 4))})",
            f"metadata/offset = Vector2({_num(-round(ax * cw, 2))}, {_num(-round(ay * ch, 2))})",
            ""]
    return "\n".join(out)
