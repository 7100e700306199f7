"""Aseprite's JSON export, array form (`--format json-array --filename-format {frame}`).

Phaser's `anims.createFromAseprite` looks each tag's frames up as `frames[String(i)]` in
the JSON and as texture frame `String(i)`, so frames are an array whose `filename` is the
index; other Aseprite-JSON readers take `frames[i].frame` and `meta.frameTags` the same way.
Our own numbers (anchor, fps, grade) ride along under `meta.h3sprite`, which readers ignore.
"""

from __future__ import annotations

from typing import Any

from ..sheet import Sheet


def document(sheet: Sheet, image: str) -> dict:
    cw, ch = sheet.cell_size
    anchor = {"x": round(sheet.anchor[0], 4), "y": round(sheet.anchor[1], 4)}
    frames = [{
        "filename": str(i),
        "frame": {"x": i * cw, "y": 0, "w": cw, "h": ch},
        "rotated": False,
        "trimmed": False,
        "spriteSourceSize": {"x": 0, "y": 0, "w": cw, "h": ch},
        "sourceSize": {"w": cw, "h": ch},
        "duration": sheet.duration_ms,
        # Not Aseprite's, and ignored by its readers; Phaser's JSON parsers take it as the
        # frame's pivot, so sprites stand on their feet at the sprite's position.
        "anchor": anchor,
    } for i in range(sheet.frame_count)]
    tag: dict[str, Any] = {"name": sheet.action, "from": 0, "to": sheet.frame_count - 1,
                           "direction": "forward", "color": "#000000ff"}
    if not sheet.loop:
        tag["repeat"] = "1"  # Aseprite 1.3: play once (absent = forever)
    return {
        "frames": frames,
        "meta": {
            "app": "https://www.aseprite.org/",  # what Aseprite writes; readers check it
            "version": "1.3",
            "image": image,
            "format": "RGBA8888",
            "size": {"w": sheet.size[0], "h": sheet.size[1]},
            "scale": "1",
            "frameTags": [tag],
            "layers": [{"name": sheet.character, "opacity": 255, "blendMode": "normal"}],
            "slices": [],
            "h3sprite": {
                "character": sheet.character, "action": sheet.action, "fps": sheet.fps,
                "loop": sheet.loop,
                "anchor": anchor,
                "loop_grade": sheet.loop_grade.value if sheet.loop_grade else None,
                "qc": [f.value for f in sheet.qc],
            },
        },
    }
