"""TexturePacker JSON-Hash (superset): what PixiJS `Assets.load` and Phaser `load.atlas` read.

We add per-frame `anchor`, `duration` (ms) and `source` (the clip frame and the clip
rectangle resampled onto the cell), and `meta.frameTags` / `meta.animation` for the game's
data. The shape is the one h3sprite has always written (games already read it), except
meta.scale, see below.
"""

from __future__ import annotations

from typing import Any

from ..sheet import Sheet


def document(sheet: Sheet, image: str) -> dict:
    cw, ch = sheet.cell_size
    ax, ay = sheet.anchor
    frames = {}
    for i, c in enumerate(sheet.sources):
        frames[c.name] = {
            "frame": {"x": i * cw, "y": 0, "w": cw, "h": ch},
            "rotated": False,
            "trimmed": False,
            "spriteSourceSize": {"x": 0, "y": 0, "w": cw, "h": ch},
            "sourceSize": {"w": cw, "h": ch},
            "anchor": {"x": round(ax, 4), "y": round(ay, 4)},
            "duration": sheet.duration_ms,
            "source": {"index": c.source_index,
                       "rect": [round(v, 2) for v in c.source_rect]},
        }
    n = sheet.frame_count
    tag = {"name": sheet.action, "from": 0, "to": n - 1, "direction": "forward",
           "fps": sheet.fps, "loop": sheet.loop, "frameCount": n}
    win, al, key = sheet.window, sheet.alignment, sheet.key
    cell: dict[str, Any] = {"w": cw, "h": ch}
    if sheet.shrunk_from is not None:
        cell["shrunk_to_fit"] = {"requested_cell_height": sheet.shrunk_from,
                                 "max_width": sheet.max_width}
    doc: dict[str, Any] = {
        "frames": frames,
        "animations": {sheet.action: sheet.frame_names},
        "meta": {
            "app": "h3sprite",
            "version": "1",
            "image": image,
            "format": "RGBA8888",
            "size": {"w": sheet.size[0], "h": sheet.size[1]},
            # TexturePacker's texture scale, which PixiJS takes as the strip's resolution
            # (frame sizes are divided by it): always 1 here. Until issue 12 this held the
            # clip -> cell factor and PixiJS drew sprites that much too small; that factor
            # is meta.clip.scale now.
            "scale": "1",
            "frameTags": [tag],
            "character": sheet.character,
            "animation": {
                "name": sheet.action, "fps": sheet.fps, "loop": sheet.loop, "frame_count": n,
                "loop_score": sheet.loop_score,
                "loop_grade": sheet.loop_grade.value if sheet.loop_grade else None,
                "qc": [f.value for f in sheet.qc],
            },
            "cell": cell,
            "clip": {"frames": win.clip_frames, "fps": win.clip_fps,
                     "scale": round(sheet.scale, 6),
                     "size": {"w": win.clip_size[0], "h": win.clip_size[1]},
                     "expected_frames": win.expected_frames,
                     "window": {"start": win.start, "span": win.span,
                                "still_frames": win.still_frames}, **win.notes},
            "alignment": {"drift_px": [round(v, 2) for v in al.drift_px],
                          "zoom_change": round(al.zoom_change, 4),
                          "motion": round(al.motion, 4)},
            "key": {"rgb": [round(float(v), 1) for v in key.rgb], "noise": round(key.noise, 2),
                    "threshold": round(key.threshold, 2)},
        },
    }
    if sheet.smear is not None:
        doc["meta"]["qc"] = {"smear": round(sheet.smear, 4)}
        if sheet.unghosted is not None:
            doc["meta"]["qc"]["unghosted"] = round(sheet.unghosted, 3)
    if sheet.provenance is not None:
        doc["meta"]["comfyui"] = sheet.provenance
    return doc
