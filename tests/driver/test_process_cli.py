"""`python -m driver process` as a user runs it: real files, a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from tests.conftest import REPO, run_cli
from tests.core.conftest import fixture


def test_process_writes_sheet_and_json(tmp_path):
    """WebP + JSON appear under --out with the stem; the WebP's size is the JSON's."""
    clip = fixture("walk").path
    res = run_cli("driver", "process", str(clip), "--action", "walk", "--out", str(tmp_path),
                  "--name", "hero_walk", "--character", "hero", "--json")
    assert res.code == 0, res.err
    info = json.loads(res.out)
    assert info["loop_grade"] == "CLEAN" and info["frame_count"] == 10
    assert info["files"] == {"texturepacker": str(tmp_path / "hero_walk.json")}
    meta = json.loads((tmp_path / "hero_walk.json").read_text())
    img = Image.open(tmp_path / "hero_walk.webp")
    assert img.size == (meta["meta"]["size"]["w"], meta["meta"]["size"]["h"])
    assert meta["meta"]["image"] == "hero_walk.webp"
    assert list(meta["frames"])[0] == "hero/walk/00"


def test_rerun_backs_up_the_previous_sheet(tmp_path):
    """A second run moves the first sheet to _actions_old/<timestamp>/; nothing is lost;
    --keep-frames writes the cells as STEM_frames/0000.png... (the frames format)."""
    clip = fixture("walk").path
    args = ["process", str(clip), "--action", "walk", "--out", str(tmp_path)]
    assert run_cli("driver", *args).code == 0
    first = (tmp_path / "walk.webp").read_bytes()
    res = run_cli("driver", *args, "--keep-frames")
    assert res.code == 0 and "moved to" in res.out
    olds = list((tmp_path / "_actions_old").glob("*/walk.webp"))
    assert len(olds) == 1 and olds[0].read_bytes() == first
    frames = sorted((tmp_path / "walk_frames").glob("*.png"))
    assert [f.name for f in frames] == [f"{i:04d}.png" for i in range(10)]
    assert np.array(Image.open(frames[0])).shape[2] == 4
    first_cell = frames[0].read_bytes()
    assert run_cli("driver", *args, "--image-format", "png").code == 0
    # The frames folder and the WebP of the run before went to the backup, whole.
    old_cells = list((tmp_path / "_actions_old").glob("*/walk_frames/0000.png"))
    assert len(old_cells) == 1 and old_cells[0].read_bytes() == first_cell
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_actions_old", "walk.json",
                                                          "walk.png"]


def test_recipe_file_overrides_frames_and_fps(tmp_path):
    """A YAML recipe file changes the sheet's frame count and fps."""
    recipes = tmp_path / "r.yaml"
    recipes.write_text("walk: {frames: 6, fps: 8}\n")
    res = run_cli("driver", "process", str(fixture("walk").path), "--action", "walk",
                  "--out", str(tmp_path / "o"), "--recipes", str(recipes))
    assert res.code == 0, res.err
    meta = json.loads((tmp_path / "o" / "walk.json").read_text())["meta"]
    assert meta["animation"]["frame_count"] == 6 and meta["frameTags"][0]["fps"] == 8


def test_process_imports_only_what_it_needs(tmp_path):
    """A whole `driver process` run with the built-in recipes loads neither pydantic, PyYAML
    nor the batch's modules (~0.1 s of a 0.8 s process: python -m benchmarks.memory)."""
    heavy = ("pydantic", "yaml", "tqdm", "sqlite3", "requests", "websocket")
    args = ["process", str(fixture("walk").path), "--action", "walk", "--out", str(tmp_path)]
    code = ("import sys, driver.cli\n"
            f"code = driver.cli.main({args!r})\n"
            f"print(code, [m for m in {heavy!r} if m in sys.modules])")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=120, check=True)
    assert proc.stdout.strip().splitlines()[-1] == "0 []"
    assert any(tmp_path.rglob("*.webp"))  # it ran to the end


@pytest.mark.parametrize("case, needle", [
    ("missing", "does not exist"),
    ("clip_empty", "the clip path is empty: give the video file"),
    ("empty", "is empty"),
    ("text", "not a readable video"),
    ("image", "still image"),
    ("audio", "no video stream"),
    ("action", "unknown action 'dance'"),
    ("recipes", "recipe file"),
    ("recipe_key", "frames"),
    ("name", "--name '../escape' is not a plain name"),
    ("action_path", "--action '../../etc' is not a plain name"),
    ("format", "unknown format 'unity'"),
    ("recipe_nan", "action 'walk', fps: Input should be a finite number"),
    ("name_bytes", "is 256 bytes in UTF-8"),
    ("name_not_utf8", "--name '\\udcff\\udcfe' is not valid UTF-8 text"),
    # --max-width 10 made a walk of ten 1x1 cells, graded CLEAN; 8 px cells passed too
    ("max_width", "--max-width 10 leaves 1 px per cell for walk's 10 frames; a cell needs at "
                  "least 16 px: give --max-width 160 or more"),
    ("cell_height", "--cell-height 8 is under 16 px, the least usable cell: give 16 or more"),
    ("clip_folder", "is a folder, not a video file: give the file itself"),  # "not an image"
    # said "not a readable image (cannot identify image file <_io.BufferedReader name=3>)"
    ("portrait_text", "is not an image file (its content is no PNG, WebP, JPEG or other image "
                      "format): give the character's portrait as a PNG or WebP with a "
                      "transparent background"),
    ("portrait_cut", "is cut short or damaged (its pixels do not decode): re-export it as PNG "
                     "or WebP with a transparent background"),
    # said "<path> is fully transparent: nothing to place", naming no portrait and no fix
    ("portrait_clear", "is fully transparent (no pixel is visible): give the character's "
                       "portrait, opaque on a transparent background"),
    ("portrait_1x1", "has no transparent background (alpha is opaque everywhere): export it "
                     "with the background removed"),
    # an animation's first frame was taken without a word
    ("portrait_webp_animated", "is animated (3 frames): give one still image"),
    ("portrait_png_animated", "is animated (2 frames): give one still image"),
])
def test_bad_input_one_line_nothing_written(tmp_path, case, needle):
    """Each bad input: exit 1, one line naming the thing, no traceback, no file written."""
    out = tmp_path / "out"
    clip = fixture("walk").path
    action, extra = "walk", []
    if case == "missing":
        clip = tmp_path / "nope.mp4"
    elif case == "clip_empty":  # said "clip . is a folder, not an image file"
        clip = ""
    elif case == "empty":
        clip = tmp_path / "empty.mp4"
        clip.write_bytes(b"")
    elif case == "text":
        clip = tmp_path / "text.mp4"
        clip.write_text("not a video at all")
    elif case == "image":
        clip = tmp_path / "still.png"
        Image.new("RGB", (8, 8)).save(clip)
    elif case == "audio":
        import av

        clip = tmp_path / "sound.m4a"
        with av.open(str(clip), "w") as c:
            s = c.add_stream("aac", rate=8000)
            frame = av.AudioFrame.from_ndarray(np.zeros((1, 1024), np.float32), format="fltp",
                                               layout="mono")
            frame.sample_rate = 8000
            for packet in s.encode(frame):
                c.mux(packet)
            for packet in s.encode():
                c.mux(packet)
    elif case == "action":
        action = "dance"
    elif case == "recipes":
        bad = tmp_path / "bad.yaml"
        bad.write_text("walk: [unclosed\n")
        extra = ["--recipes", str(bad)]
    elif case == "recipe_key":
        bad = tmp_path / "bad.yaml"
        bad.write_text("walk: {frames: -3}\n")
        extra = ["--recipes", str(bad)]
    elif case == "name":
        extra = ["--name", "../escape"]
    elif case == "action_path":  # the stem defaults to the action: named as the action
        action = "../../etc"
    elif case == "format":
        extra = ["--formats", "godot,unity"]
    elif case == "recipe_nan":  # said "Input should be less than or equal to 120"
        bad = tmp_path / "bad.yaml"
        bad.write_text("walk: {fps: .nan}\n")
        extra = ["--recipes", str(bad)]
    elif case == "name_bytes":  # 64 characters, 256 bytes: "File name too long"
        extra = ["--name", "😀" * 64]
    elif case == "name_not_utf8":  # $'\xff\xfe' from a shell
        extra = ["--name", b"\xff\xfe".decode("utf-8", "surrogateescape")]
    elif case == "max_width":
        extra = ["--max-width", "10"]
    elif case == "cell_height":
        extra = ["--cell-height", "8"]
    elif case == "clip_folder":
        clip = tmp_path / "clips"
        clip.mkdir()
        needle = f"clip {clip} {needle}"
    elif case.startswith("portrait_"):
        portrait = tmp_path / ("hero.webp" if "webp" in case else "hero.png")
        if case.endswith("_animated"):
            poses = [Image.new("RGBA", (32, 32), (0, 0, 0, 0)) for _ in range(3 if "webp" in case
                                                                             else 2)]
            for i, pose in enumerate(poses):
                pose.paste((200, 40 * i, 40, 255), (4 + 4 * i, 4, 20 + 4 * i, 28))
            poses[0].save(portrait, save_all=True, append_images=poses[1:], duration=100,
                          lossless=True)
        elif case == "portrait_text":
            portrait.write_text("hello, I am not a PNG\n")
        elif case == "portrait_cut":
            noise = np.random.default_rng(0).integers(0, 256, (64, 64, 4), np.uint8)
            Image.fromarray(noise, "RGBA").save(portrait)
            portrait.write_bytes(portrait.read_bytes()[:4000])
        else:
            Image.new("RGBA", (20, 12) if case == "portrait_clear" else (1, 1),
                      (255, 0, 0, 0 if case == "portrait_clear" else 255)).save(portrait)
        extra = ["--portrait", str(portrait)]
        needle = f"portrait {portrait} {needle}"
    res = run_cli("driver", "process", str(clip), "--action", action, "--out", str(out), *extra)
    assert res.code == 1
    assert needle in res.err and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                    reason="one usable core: OpenBLAS starts no thread of its own")
def test_the_driver_runs_one_blas_thread_and_its_children_inherit_nothing():
    """`python -m driver` loads numpy and OpenCV with one OpenBLAS thread each (their threads
    spin against the chain's own), and drops the variable again, so a process it starts
    (ComfyUI) gets the user's environment. Threads counted in /proc against a bare
    interpreter's: an OpenBLAS starts its own as it loads."""
    probe = """
import os, runpy, sys
sys.argv = ["driver", "--version"]
try:
    runpy.run_module("driver", run_name="__main__")
except SystemExit:
    pass
print(len(os.listdir("/proc/self/task")), "OPENBLAS_NUM_THREADS" in os.environ)
"""
    count = "import os{}; print(len(os.listdir('/proc/self/task')))"
    env = {k: v for k, v in os.environ.items()  # the variables OpenBLAS also reads
           if k not in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")}

    def run(code: str) -> list[str]:
        return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True,
                              capture_output=True, text=True).stdout.split()

    bare = int(run(count.format(""))[0])
    if int(run(count.format(", numpy, cv2"))[0]) == bare:
        pytest.skip("this OpenBLAS starts no thread here: nothing to tell apart")
    threads, inherited = run(probe)
    assert int(threads) == bare and inherited == "False"


@pytest.mark.parametrize("case", ["file", "under_file", "backup_file", "read_only"])
def test_out_that_cannot_take_the_sheet_is_named(tmp_path, request, case):
    """An --out that is a file (or lies under one), a user's file named _actions_old where
    replaced sheets go, a read-only folder: one line naming the user's path and what is
    wrong, before any decode (was "File exists: ..." or a temporary file's name)."""
    mine = tmp_path / "notes.txt"
    out = {"file": mine, "under_file": mine / "sheets", "backup_file": tmp_path / "o",
           "read_only": None}[case]
    if case == "backup_file":
        out.mkdir()
        mine = out / "_actions_old"
    if case == "read_only":
        out = request.getfixturevalue("read_only_folder")
    else:
        mine.write_text("my notes")
    res = run_cli("driver", "process", str(fixture("walk").path), "--action", "walk",
                  "--out", str(out))
    assert res.code == 1, res.err
    needle = {"file": f"--out {out} is a file, not a folder: give a folder",
              "under_file": f"--out {out} is under {mine}, which is a file, not a folder",
              "backup_file": f"backup folder {mine} is a file, not a folder: move that file",
              "read_only": f"cannot write into --out {out}: it is on a read-only file system",
              }[case]
    assert needle in res.err, res.err
    assert len(res.err.strip().splitlines()) == 1 and "Traceback" not in res.err
    if case != "read_only":
        assert mine.read_text() == "my notes"
    if case == "backup_file":
        assert list(out.iterdir()) == [mine]  # no sheet was written either


EMPTY_FLAGS = {  # a path flag given as "": the one line each verb answers
    "process-clip": (["process", "", "--action", "walk", "--out", "o"],
                     "the clip path is empty: give the video file to make the sheet from"),
    "process-out": (["process", "{clip}", "--action", "walk", "--out", ""],
                    "--out is empty: give the folder for the sheet (--out . for the current "
                    "one)"),
    "process-recipes": (["process", "{clip}", "--action", "walk", "--out", "o", "--recipes", ""],
                        "--recipes is empty: give the YAML or JSON recipe file, or drop "
                        "--recipes"),
    "process-portrait": (["process", "{clip}", "--action", "walk", "--out", "o", "--portrait",
                          ""], "--portrait is empty: give the character's portrait image, or "
                               "drop --portrait"),
    # not a path, but read as not given it named the sheet after the action
    "process-name": (["process", "{clip}", "--action", "walk", "--out", "o", "--name", ""],
                     "--name '' is not a plain name (it is empty): pick a simple name such as "
                     "'hero'"),
    "review-out": (["review", "{joblist}", "--out", ""],
                   "--out is empty: give the page's file name, or drop --out for the "
                   "joblist's out/review.html"),
    **{f"{verb}-joblist": ([verb, ""], "the joblist path is empty: give the joblist file "
                                       "(YAML)") for verb in ("check", "status", "review",
                                                              "batch")},
    "batch-only": (["batch", "{joblist}", "--dry-run", "--only", "hero/walk,@"],
                   "the file name after --only @ is empty: give the list of jobs, e.g. "
                   "--only @rejects.txt"),
}


@pytest.mark.parametrize("case", list(EMPTY_FLAGS))
def test_an_empty_path_flag_is_refused_not_the_current_folder(tmp_path, case):
    """A path flag given as "" was read as "." (Path("") is the current folder): --out ""
    wrote the sheet there, and the others answered about a folder nobody named (". is a
    folder"). Each is refused in one line naming the flag; the current folder is untouched,
    and every other argument is good, so that line is the empty flag's."""
    from tests.driver.conftest import hero_joblist

    joblist = hero_joblist(tmp_path / "inputs", ("walk",), with_state=True)
    cwd = tmp_path / "here"
    cwd.mkdir()
    args, line = EMPTY_FLAGS[case]
    args = [a.format(clip=fixture("walk").path, joblist=joblist) for a in args]
    proc = subprocess.run([sys.executable, "-m", "driver", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == f"driver {args[0]}: {line}\n"
    assert list(cwd.iterdir()) == []


def test_a_max_width_that_shrinks_cells_under_16_px_names_one_that_works(tmp_path):
    """A width that leaves each cell 16 px of the strip can still shrink a character wide
    for its height (this wolf's cells are 1.8 times as wide as high) under 16 px high: one
    line naming a --max-width that works, nothing written; that width then makes cells at
    least 16 px high (96 made 15x8 cells, graded and written)."""
    clip = REPO / "tests" / "clips" / "hurt_wolf_tail_raised.mp4"
    args = ["process", str(clip), "--action", "hurt", "--out", str(tmp_path / "o")]
    res = run_cli("driver", *args, "--max-width", "96")
    assert res.code == 1, res.err
    assert res.err == ("driver process: --max-width 96 shrinks the hurt cells to 15x8 px, "
                       "under 16 px high: give --max-width 192 or more\n")
    assert not (tmp_path / "o").exists()
    res = run_cli("driver", *args, "--max-width", "192", "--json")
    assert res.code == 0, res.err
    size = json.loads(res.out)["size"]
    assert size["w"] <= 192 and size["h"] >= 16


# Sends this process a real SIGINT (what Ctrl-C sends) as `driver process` enters the
# function named, then runs the driver's main as `python -m driver` does.
CTRL_C_AT = """
import os, signal, sys
import driver.process as where
signal.signal(signal.SIGINT, signal.default_int_handler)
name = sys.argv[1]
real = getattr(where, name)
def hooked(*a, **k):
    os.kill(os.getpid(), signal.SIGINT)
    return real(*a, **k)
setattr(where, name, hooked)
from driver.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("at, line", [
    ("decode", "driver process: interrupted; nothing was written\n"),
    ("write_sheet", "driver process: interrupted while writing the sheet into {out}: some of "
                    "its files may be missing (any it replaced are under "
                    "{out}/_actions_old); run it again\n")])
def test_ctrl_c_during_process_says_what_was_written(tmp_path, at, line):
    """Ctrl-C in `driver process` said "state is saved, run again to resume", the batch's
    words: process keeps no state. Before the sheet is written it says nothing was; while
    it is written, that files may be missing and where replaced ones went. Exit 130."""
    out = tmp_path / "o"
    proc = subprocess.run(
        [sys.executable, "-c", CTRL_C_AT, at, "process", str(fixture("walk").path),
         "--action", "walk", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == line.format(out=out)
    if at == "decode":
        assert not out.exists()


def test_ctrl_c_while_the_driver_loads_is_one_line():
    """A Ctrl-C in the first few tenths of a second (Python importing numpy, OpenCV, PyAV)
    printed a KeyboardInterrupt traceback: one line now, exit 130. The SIGINT is sent as
    `python -m driver` imports driver.cli."""
    probe = """
import importlib.abc, os, runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
class AtCli(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "driver.cli":
            os.kill(os.getpid(), signal.SIGINT)
sys.meta_path.insert(0, AtCli())
sys.argv = ["driver", "check", "nothing.yaml"]
runpy.run_module("driver", run_name="__main__")
"""
    proc = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 130 and proc.stderr == "driver: interrupted; nothing was written\n"


def test_a_loop_without_a_grade_says_so(tmp_path):
    """A clip of screen alone (the character drawn wholly below the frame) is NOISE, and
    its loop has no grade (cells that hold nothing): the text says "loop not graded", not
    "loop None (None)", and --json gives null for both the grade and the score."""
    from tests import footage

    clip = footage.make("screen_only", footage.Spec(feet_y=2.5)).path
    args = ["process", str(clip), "--action", "walk", "--out", str(tmp_path)]
    res = run_cli("driver", *args)
    assert res.code == 0, res.err
    assert "loop not graded, QC NOISE)" in res.out, res.out
    info = json.loads(run_cli("driver", *args, "--json").out)
    assert (info["loop_grade"], info["loop_score"], info["qc"]) == (None, None, ["NOISE"])


@pytest.mark.parametrize("ms", [167, 42])
def test_a_clip_at_saveanimatedwebps_default_rate_gets_a_note(tmp_path, ms):
    """The walk saved as an animated WebP at 6 fps (ComfyUI's SaveAnimatedWEBP default):
    its loop is sought at 6 fps and graded WEAK where the same frames at 24 fps are CLEAN,
    with no flag to say why. A note on stderr names the rate and the fix; at 24 fps none."""
    frames = [Image.fromarray(f) for f in fixture("walk").clip.frames]
    clip = tmp_path / "walk.webp"
    frames[0].save(clip, save_all=True, append_images=frames[1:], duration=ms, quality=90)
    res = run_cli("driver", "process", str(clip), "--action", "walk", "--out",
                  str(tmp_path / "out"))
    assert res.code == 0, res.err
    note = ("driver process: note: the clip plays at 6.0 fps; H3 draws 24 a second, and the "
            "loop is sought at the clip's rate. Saved by ComfyUI's SaveAnimatedWEBP (6 fps "
            "unless set)? Save it again at 24 fps")
    assert res.err.strip() == (note if ms == 167 else "")


@pytest.mark.parametrize("what", ["clip", "portrait", "cell"])
def test_an_input_where_the_sheet_would_go_is_refused_not_moved(tmp_path, what):
    """A clip saved as walk.webp (ComfyUI's SaveAnimatedWEBP) processed into its own folder
    with the sheet named walk, or a portrait walk.png with --image-format png: each input was
    moved to _actions_old as a "previous sheet", and the next run could not find it. Now
    refused in one line before any work, the folder as it was; another --name works."""
    import shutil

    folder = tmp_path / "work"
    folder.mkdir()
    clip = folder / "walk.mp4"
    shutil.copy(fixture("walk").path, clip)
    portrait = folder / "portrait.png"
    Image.fromarray(fixture("walk").truth[0]).save(portrait)  # the rest pose
    args = ["process", str(clip), "--action", "walk", "--out", str(folder),
            "--portrait", str(portrait)]
    if what == "clip":  # the sheet's JSON would be the clip's name: walk.json
        inputs = folder / "walk.json"
        os.replace(clip, inputs)
        args[1] = str(inputs)
        named, path = "the clip", inputs
    elif what == "portrait":
        args += ["--name", "portrait", "--image-format", "png"]
        named, path = "--portrait", portrait
    else:  # a cell of an earlier run's frames folder, an RGBA pose, as the portrait
        cells = folder / "walk_frames"
        cells.mkdir()
        os.replace(portrait, cells / "0000.png")
        args[-1] = str(cells / "0000.png")
        named, path = "--portrait", cells / "0000.png"
    before = {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    res = run_cli("driver", *args)
    stem = "portrait" if what == "portrait" else "walk"
    assert res.code == 1 and res.err == (
        f"driver process: {named} {path} is where the sheet {stem!r} would be written: give "
        "--name another name, or --out another folder\n"), res.err
    assert {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*")
            if p.is_file()} == before
    args = [a for a in args if a not in ("--name", "portrait")] if what == "portrait" else args
    assert run_cli("driver", *args, "--name", "hero_walk").code == 0
