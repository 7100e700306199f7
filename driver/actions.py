"""`_out/actions.json`: what the game reads instead of hard-coding counts and fps."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from pathlib import Path, PureWindowsPath

from comfy_nodes.core.export import Format, file_of
from comfy_nodes.core.safeyaml import read_limited
from comfy_nodes.core.sheet import json_bytes, write_atomic
from driver.outputs import ACTIONS_NAME, back_up

SHEET_JSON_LIMIT = 64 << 20  # bytes: 2,400 frames' JSON is under 2 MB


@dataclass(frozen=True)
class SheetInfo:
    """What the driver reads back from a sheet's JSON (TexturePacker's, with our meta)."""

    image: Path  # beside the JSON
    fps: float
    loop: bool
    frame_count: int
    cell: tuple[int, int]
    anchor: dict[str, float]  # the first frame's: x, y
    loop_grade: str | None
    loop_score: float | None
    qc: list[str]


def read_sheet(sheet_json: Path) -> SheetInfo | None:
    """The sheet's JSON as the driver reads it back; None where it is missing, no JSON, or
    lacks a field or has one of another type (damaged, cut, edited by hand): `driver
    status` stopped on it with a KeyError, and the caller says what a missing sheet means
    instead. Its image must be a plain name beside it (an absolute path put /etc/hostname
    into the review page)."""
    try:
        doc = json.loads(read_limited(sheet_json, "sheet JSON", SHEET_JSON_LIMIT))
        m, first = doc["meta"], next(iter(doc["frames"].values()))
        anim, image, qc = m["animation"], m["image"], m["animation"]["qc"]
        grade, score = anim["loop_grade"], anim["loop_score"]
        fps = float(anim["fps"])
        if not (isinstance(image, str) and _plain(image) and isinstance(qc, list)
                and math.isfinite(fps) and fps > 0
                and all(isinstance(f, str) for f in qc)
                and (grade is None or isinstance(grade, str))
                and (score is None or (isinstance(score, (int, float))
                                       and not isinstance(score, bool)
                                       and math.isfinite(score)))):
            return None
        return SheetInfo(sheet_json.parent / image, fps, bool(anim["loop"]),
                         int(anim["frame_count"]), (int(m["cell"]["w"]), int(m["cell"]["h"])),
                         {"x": float(first["anchor"]["x"]), "y": float(first["anchor"]["y"])},
                         grade, score, list(qc))
    except (ValueError, KeyError, TypeError, AttributeError, StopIteration, OverflowError,
            RecursionError):
        return None  # read_limited's OSErrors are ValueErrors (YamlLimitError)


def _plain(name: str) -> bool:
    """A file name with no folder (nor, on Windows, a drive: "C:x") in it."""
    return (name not in ("", ".", "..") and "/" not in name and "\\" not in name
            and not PureWindowsPath(name).drive)


def entry(sheet_json: Path, out_root: Path) -> dict | None:
    """actions.json's entry for one sheet; None where its JSON cannot be read."""
    info = read_sheet(sheet_json)
    if info is None:
        return None
    return {
        "sheet": sheet_json.relative_to(out_root).as_posix(),
        "image": info.image.relative_to(out_root).as_posix(),
        "fps": info.fps, "loop": info.loop, "frameCount": info.frame_count,
        "cell": {"w": info.cell[0], "h": info.cell[1]},
        "anchor": info.anchor,
        "loop_grade": info.loop_grade, "loop_score": info.loop_score, "qc": info.qc,
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
        e = entry(sheet_json, out_root)  # None: its JSON is gone or damaged
        if e is not None and (out_root / e["image"]).is_file():  # nor a sheet deleted since
            chars.setdefault(cid, {})[action] = e
    doc = {"version": 1, "generated": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
           "characters": chars}
    path = out_root / ACTIONS_NAME
    if path.exists() and not _ours(path):
        back_up([path], out_root)  # a user's own file of that name: moved aside, not lost
    write_atomic(path, json_bytes(doc))
    return path


INDEX_KEYS = {"version", "generated", "characters"}
MAX_INDEX_BYTES = 64 * 1024 * 1024  # ~200 000 sheets' entries; a larger file is no index of ours


def _ours(path: Path) -> bool:
    """Whether path holds an index this module wrote (its three keys, version 1): what
    else stands there is a user's, which rewriting it would lose."""
    try:
        doc = json.loads(read_limited(path, ACTIONS_NAME, MAX_INDEX_BYTES))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and set(doc) == INDEX_KEYS and doc["version"] == 1
