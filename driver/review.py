"""`driver review joblist.yaml`: one self-contained HTML page for the morning after.

Every character x action of the joblist, animated from its sheet at its own fps and
standing on a baseline (the sheet's anchor), over a background you switch to spot fringes;
grade and QC badges, filters, the portrait and the clip's first frame beside it, timings,
a copy-ready re-roll command, and reject marks (kept in the browser) exported as a list
that `driver batch --only @rejects.txt --reroll` takes. Images are embedded as data URIs,
so the page opens from file:// with no server and can be mailed or archived.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shlex
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from PIL import Image, ImageOps

from comfy_nodes.core.imagefile import open_image
from comfy_nodes.core.regularfile import Kind, NotRegular, open_regular, stat_regular
from comfy_nodes.core.sheet import write_atomic
from driver import actions as actions_mod
from driver import reroll
from driver.joblist_load import Loaded
from driver.outputs import ACTIONS_NAME, REVIEW_NAME, STATE_NAME
from driver.store import Store

THUMB_HEIGHT = 160  # portrait and first frame, in the page
MIME = {".webp": "image/webp", ".png": "image/png"}


@dataclass
class Entry:
    """One job as the page shows it (serialised into the page as JSON)."""

    key: str
    status: str  # done | failed | running | pending | never run
    attempts: int = 0
    error: str | None = None
    seed: int = 0
    reroll: str = ""  # the command that re-rolls just this job
    generation_s: float | None = None
    post_s: float | None = None
    sheet: dict | None = None  # strip data URI, cell, anchor, fps, loop, frames, grade, qc
    portrait: str | None = None  # data URI
    first_frame: str | None = None  # data URI
    files: dict = field(default_factory=dict)


def _data_uri(data: bytes, mime: str) -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def _thumb(img: Image.Image, fmt: str = "PNG") -> str:
    img = img.copy()
    img.thumbnail((THUMB_HEIGHT * 2, THUMB_HEIGHT))
    buf = io.BytesIO()
    if fmt == "JPEG":
        img.convert("RGB").save(buf, "JPEG", quality=85)
    else:
        img.save(buf, "PNG")
    return _data_uri(buf.getvalue(), f"image/{fmt.lower()}")


def _first_frame(clip: Path) -> str | None:
    """The clip's first frame (what the model made of the portrait), decoded alone."""
    if not clip.is_file():
        return None
    import av

    try:
        with av.open(str(clip)) as c:
            frame = next(c.decode(video=0))
            return _thumb(frame.to_image(), "JPEG")
    except (av.FFmpegError, StopIteration, OSError):
        pass
    from comfy_nodes.core.video import MAX_FRAME_PIXELS

    try:  # an animated WebP (a graph saving with SaveAnimatedWEBP): FFmpeg cannot decode it
        with Image.open(clip) as im:
            if im.width * im.height > MAX_FRAME_PIXELS:
                return None
            return _thumb(im.convert("RGB"), "JPEG")
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


def _sheet(sheet_json: Path) -> dict | None:
    info = actions_mod.read_sheet(sheet_json)
    if info is None:
        return None
    try:
        data = info.image.read_bytes()
    except OSError:
        return None
    return {"image": _data_uri(data, MIME.get(info.image.suffix.lower(), "image/webp")),
            "cell": list(info.cell), "anchor": [info.anchor["x"], info.anchor["y"]],
            "fps": info.fps, "loop": info.loop, "frames": info.frame_count,
            "grade": info.loop_grade, "score": info.loop_score, "qc": info.qc}


def entries(loaded: Loaded, joblist_arg: str) -> list[Entry]:
    db = loaded.out / STATE_NAME
    store = Store(db, read_only=True)  # the page writes nothing into the state
    keys = [(c, a) for c in loaded.spec.characters for a in loaded.actions_of(c)]
    joblist_seeds = {f"{c}/{a}": loaded.seed(c, a) for c, a in keys}
    seeds = {**joblist_seeds, **reroll.kept(store, joblist_seeds)}
    portraits: dict[str, str | None] = {}
    out = []
    try:
        for cid, action in keys:
            key = f"{cid}/{action}"
            if cid not in portraits:
                try:  # the one way a user's image is opened: a FIFO, a bomb refused
                    with open_image(loaded.portrait(cid), "portrait") as im:
                        portraits[cid] = _thumb(ImageOps.exif_transpose(im))  # as shown
                except (OSError, ValueError, SyntaxError):  # ImageFileError is a ValueError
                    portraits[cid] = None  # the page shows none; `check` says why
            row = store.get(key)
            e = Entry(key, row.status if row else "never run", seed=seeds[key],
                      portrait=portraits[cid],
                      reroll=batch_command(joblist_arg, f"--only={key}", "--reroll"))
            if row:
                e.attempts, e.error = row.attempts, row.error
                e.generation_s = row.timings.get("generation")
                e.post_s = row.timings.get("post")
                if row.outputs.get("json"):
                    sheet_json = loaded.sheet_json(cid, action)
                    e.sheet = _sheet(sheet_json)
                    e.files = actions_mod.files(sheet_json, loaded.out)
            e.first_frame = _first_frame(loaded.work_dir(cid, action) / "clip.mp4")
            out.append(e)
    finally:
        store.close()
    return out


def batch_command(joblist_arg: str, *flags: str) -> str:
    """The batch's command line as the page shows it to copy: this Python (a plain
    `python` has no driver where it was installed in a venv), the flags as `--only=KEY`
    and the joblist after `--`, so a character `-rf` or a joblist `-j.yaml` is no option;
    each word shell-quoted."""
    words = [sys.executable, "-m", "driver", "batch", *flags, "--", joblist_arg]
    return " ".join(shlex.quote(w) for w in words)


def render(loaded: Loaded, joblist_arg: str, items: list[Entry]) -> str:
    data = {"joblist": joblist_arg, "generated": time.strftime("%Y-%m-%d %H:%M"),
            "reroll_rejects": batch_command(joblist_arg, "--only=@rejects.txt", "--reroll"),
            "jobs": [asdict(e) for e in items]}
    # "</" inside the JSON would end the script element early.
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    title = f"h3sprite review: {loaded.path.name}"
    return (PAGE.replace("{{TITLE}}", _html_escape(title))
            .replace("{{DATA}}", payload))


def _html_escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def inputs(loaded: Loaded) -> list[tuple[str, Path]]:
    """What the run reads and keeps, by name: a page must never take their place."""
    found = [("the joblist", loaded.path), ("the workflow", loaded.workflow),
             ("the batch's state", loaded.out / STATE_NAME),
             (ACTIONS_NAME, loaded.out / ACTIONS_NAME)]
    if loaded.spec.wording_file is not None:
        found.append(("the wording file", loaded.root / loaded.spec.wording_file))
    found += [(f"{cid}'s portrait", loaded.portrait(cid)) for cid in loaded.spec.characters]
    return found


def check_target(loaded: Loaded, path: Path) -> None:
    """The page is written only where nothing is, or over an earlier page of ours (it is
    made again from the state and sheets). Anything else is refused, never replaced: a
    folder, a device or a pipe (known by stat, never opened), an input of the run, or any
    other file (a user's own notes.html)."""
    try:
        stat_regular(path)
    except FileNotFoundError:
        return
    except NotRegular as e:
        kind = ("is a folder" if e.kind is Kind.FOLDER
                else "is not a regular file (a device or a pipe?)")
        raise ValueError(f"{path} {kind}: give --out the page's file name") from None
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror}") from None
    for what, p in inputs(loaded):
        if p.exists() and os.path.samefile(p, path):
            raise ValueError(f"{path} is {what}: give --out another file name")
    # open_regular checks what it opened: a pipe put there since the stat is refused
    # (NotRegular, a ValueError naming the path), not waited on
    with open_regular(path) as f:
        ours = f.read(len(OUR_HEAD)) == OUR_HEAD
    if not ours:
        raise ValueError(f"{path} exists and is not a review page of h3sprite, so it is not "
                         "replaced: give --out another name, or move that file away")


def write(loaded: Loaded, joblist_arg: str, out: Path | None = None) -> tuple[Path, int]:
    """Write the page (atomically) where check_target allows; returns its path and the
    number of jobs on it."""
    path = out or loaded.out / REVIEW_NAME
    check_target(loaded, path)
    items = entries(loaded, joblist_arg)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, render(loaded, joblist_arg, items).encode("utf-8"))
    return path, len(items)


# The page itself (HTML, CSS and script, no outside resources): driver/review.html.
PAGE = Path(__file__).with_name("review.html").read_text(encoding="utf-8")
# How every page we write begins, up to its title's fixed words: an earlier page of ours.
OUR_HEAD = (PAGE.split("{{TITLE}}")[0] + "h3sprite review: ").encode("utf-8")
