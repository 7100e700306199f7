"""`_out/actions.json`: what the game reads instead of hard-coding counts and fps."""

from __future__ import annotations

import json
import time
from pathlib import Path

from comfy_nodes.core.export import Format, file_of
from comfy_nodes.core.sheet import json_bytes, write_atomic


def entry(sheet_json: Path, out_root: Path) -> dict:
    meta = json.loads(sheet_json.read_text())
    m = meta["meta"]
    first = next(iter(meta["frames"].values()))
    anim = m["animation"]
    return {
        "sheet": sheet_json.relative_to(out_root).as_posix(),
        "image": (sheet_json.parent / m["image"]).relative_to(out_root).as_posix(),
        "fps": anim["fps"], "loop": anim["loop"], "frameCount": anim["frame_count"],
        "cell": {"w": m["cell"]["w"], "h": m["cell"]["h"]},
        "anchor": first["anchor"],
        "loop_grade": anim["loop_grade"], "loop_score": anim["loop_score"], "qc": anim["qc"],
        "files": files(sheet_json, out_root),
    }


def files(sheet_json: Path, out_root: Path) -> dict[str, str]:
    """Each format's file beside the sheet (frames: its folder, with a trailing slash).
    Whatever exists is current: write_sheet moves the files of other formats aside."""
    stem = sheet_json.name.removesuffix(".json")
    found = {}
    for fmt in Format:
        path = sheet_json.parent / file_of(stem, fmt)
        if path.exists():
            rel = path.relative_to(out_root).as_posix()
            found[fmt.value] = rel + "/" if path.is_dir() else rel
    return found


def write(out_root: Path, done: list[tuple[str, str, Path]]) -> Path:
    """Rewrite actions.json atomically from the finished jobs (character, action, json)."""
    chars: dict[str, dict] = {}
    for cid, action, sheet_json in sorted(done):
        if sheet_json.is_file():
            e = entry(sheet_json, out_root)
            if (out_root / e["image"]).is_file():  # a sheet deleted since: a game cannot load it
                chars.setdefault(cid, {})[action] = e
    doc = {"version": 1, "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "characters": chars}
    path = out_root / "actions.json"
    write_atomic(path, json_bytes(doc))
    return path
