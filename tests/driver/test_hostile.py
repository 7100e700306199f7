"""Hostile joblists and images: each gets one clean line and exit 1, in bounded memory and
time, from a real `python -m driver` subprocess (its peak RSS read back with wait4)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from tests.driver.conftest import draw_portrait

MAX_RSS_MB = 300
TIMEOUT_S = 60  # a hang fails here; the cases themselves take about a second


@dataclass
class Bounded:
    code: int
    err: str
    rss_mb: float
    seconds: float


# Runs `python -m driver` and, at its exit, writes the process's own peak RSS (VmHWM of its
# memory map, which exec starts afresh) to a file. wait4's ru_maxrss would not do: Linux
# carries the forking parent's peak (this pytest process, often over 1 GB) into the child.
PEAK_WRAPPER = """
import atexit, runpy, sys
def _peak():
    for line in open('/proc/self/status'):
        if line.startswith('VmHWM:'):
            open(_out, 'w').write(line.split()[1])
_out = sys.argv[1]
atexit.register(_peak)
sys.argv = ['driver', *sys.argv[2:]]
runpy.run_module('driver', run_name='__main__')
"""


def run_bounded(*args: str, env: dict | None = None) -> Bounded:
    """`python -m driver args` with its exit code, stderr, own peak RSS and wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        peak = Path(tmp) / "peak_kb"
        t0 = time.monotonic()
        try:
            proc = subprocess.run([sys.executable, "-c", PEAK_WRAPPER, str(peak), *args],
                                  cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  env={**os.environ, **(env or {})}, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"driver {' '.join(args)} hung for {TIMEOUT_S} s")
        seconds = time.monotonic() - t0
        rss_mb = int(peak.read_text()) / 1024 if peak.exists() else 0.0
    res = Bounded(proc.returncode, proc.stderr.decode("utf-8", "replace"), rss_mb, seconds)
    print(f"bounds: driver {args[0]}: exit {res.code}, {res.rss_mb:.0f} MB, "
          f"{res.seconds:.2f} s")  # shown with -s: the numbers behind the promise
    return res


def assert_clean(res: Bounded, *needles: str) -> None:
    assert res.code == 1, res.err
    assert "Traceback" not in res.err and "internal error" not in res.err, res.err
    for n in needles:
        assert n in res.err, res.err
    assert all(len(line) < 600 for line in res.err.splitlines()), res.err[:2000]
    assert 0 < res.rss_mb < MAX_RSS_MB, res.rss_mb


def base_doc(root: Path) -> dict:
    draw_portrait(root / "hero.png", "hero")
    return {"server": {"url": "embedded", "port": 1},
            "workflow": str(REPO / "api_workflows" / "preview.json"),
            "size": {"canvas": [256, 256]}, "actions": ["idle"],
            "wording": {"hero": "a hero"}, "characters": {"hero": {"portrait": "hero.png"}}}


def write(root: Path, doc: dict | str) -> Path:
    path = root / "joblist.yaml"
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc))
    return path


def check_and_dry_run(path: Path, *needles: str) -> None:
    """Both `check` and `batch --dry-run` refuse it cleanly and write nothing."""
    before = sorted(p for p in path.parent.rglob("*"))
    for verb in (["check"], ["batch", "--dry-run"]):
        res = run_bounded(*verb, str(path), env={"H3SPRITE_STATE_DIR": str(path.parent / "state")})
        assert_clean(res, *needles)
    assert sorted(p for p in path.parent.rglob("*")) == before


# ---------------------------------------------------------------- joblists ---

def test_billion_laughs_is_refused_at_the_alias(tmp_path):
    doc = yaml.safe_dump(base_doc(tmp_path))
    laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        prev = chr(ord("a") + i - 1)
        laughs.append(f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} [{','.join(['*' + prev] * 9)}]")
    text = doc + "overrides:\n  '1':\n" + "".join(f"    {line}\n" for line in laughs)
    check_and_dry_run(write(tmp_path, text), "anchors", "joblist.yaml:")


def test_deep_nesting_is_refused(tmp_path):
    text = yaml.safe_dump(base_doc(tmp_path)) + "recipes: " + "[" * 5000 + "]" * 5000 + "\n"
    check_and_dry_run(write(tmp_path, text), "nested deeper than")


def test_duplicate_key_names_both_lines(tmp_path):
    text = yaml.safe_dump(base_doc(tmp_path)) + "actions: [walk]\n"
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("actions:")) + 1
    check_and_dry_run(write(tmp_path, text), "duplicate key 'actions'",
                      f"lines {first} and {len(lines)}")


def test_oversized_joblist_is_refused_unread(tmp_path):
    text = yaml.safe_dump(base_doc(tmp_path)) + "#" * (2 << 20) + "\n"
    check_and_dry_run(write(tmp_path, text), "the limit is")


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder"])
def test_wording_file_must_be_a_small_regular_file(tmp_path, target):
    doc = base_doc(tmp_path)
    del doc["wording"]
    if target == "fifo":
        os.mkfifo(tmp_path / "words.yaml")
        target = "words.yaml"
    elif target == "folder":
        (tmp_path / "words").mkdir()
    doc["wording_file"] = target
    check_and_dry_run(write(tmp_path, doc), "wording_file")


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "folder", "big"])
def test_only_list_must_be_a_small_regular_file(tmp_path, target):
    """`--only @FILE` is read as the joblist is: /dev/zero filled memory, a FIFO hung."""
    path = write(tmp_path, base_doc(tmp_path))
    if target == "fifo":
        os.mkfifo(tmp_path / "jobs.txt")
        target = str(tmp_path / "jobs.txt")
    elif target == "folder":
        (tmp_path / "jobs").mkdir()
        target = str(tmp_path / "jobs")
    elif target == "big":
        (tmp_path / "big.txt").write_text("hero/idle\n" * 200_000)  # 2 MB
        target = str(tmp_path / "big.txt")
    before = sorted(tmp_path.rglob("*"))
    for extra in (["--dry-run"], []):
        res = run_bounded("batch", str(path), "--only", f"@{target}", *extra,
                          env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
        assert_clean(res, f"--only list {target}")
        assert len(res.err.splitlines()) == 1, res.err
    assert sorted(tmp_path.rglob("*")) == before


def test_long_name_is_refused_and_not_echoed_whole(tmp_path):
    doc = base_doc(tmp_path)
    doc["actions"] = ["x" * 100_000]
    check_and_dry_run(write(tmp_path, doc), "at most 64 characters", "100000 chars")


def test_name_too_long_in_bytes_is_refused(tmp_path):
    """64 emoji pass a 64-character rule but are 256 bytes: the server answered 500 to the
    portrait's upload."""
    doc = base_doc(tmp_path)
    doc["characters"] = {"😀" * 64: doc["characters"]["hero"]}
    doc["wording"] = {"😀" * 64: "a hero"}
    check_and_dry_run(write(tmp_path, doc), "character id", "is 256 bytes in UTF-8")


@pytest.mark.parametrize("canvas", [[32000, 32000], [800, 800], [768, 1376]])
def test_canvas_beyond_h3_is_refused(tmp_path, canvas):
    doc = base_doc(tmp_path)
    doc["size"] = {"canvas": canvas}
    check_and_dry_run(write(tmp_path, doc), "768x1344")


@pytest.mark.parametrize("value,needle", [(float("nan"), "finite"), ([1, 2], "links"),
                                          ({"a": 1}, "links"), (None, "empty"),
                                          ("x" * 20_000, "limit")])
def test_override_values_are_finite_scalars(tmp_path, value, needle):
    doc = base_doc(tmp_path)
    doc["overrides"] = {"@seed": {"seed": value}}
    check_and_dry_run(write(tmp_path, doc), needle)


def test_override_input_must_exist_on_the_node(tmp_path):
    doc = base_doc(tmp_path)
    doc["overrides"] = {"@seed": {"no_such_input": 3}}
    check_and_dry_run(write(tmp_path, doc), "no_such_input", "has no such input")


# ------------------------------------------------------------------ images ---

def png_header(w: int, h: int) -> bytes:
    """A PNG that declares w x h RGBA pixels but is a few hundred bytes on disk."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\0" * 4096)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("side,needle", [(12000, "declares 144 MP"), (20000, "declares 400 MP"),
                                         (60000, "declares 3600 MP")])
def test_huge_portrait_is_refused_by_its_header(tmp_path, side, needle):
    doc = base_doc(tmp_path)
    (tmp_path / "hero.png").write_bytes(png_header(side, side))
    check_and_dry_run(write(tmp_path, doc), "hero.png", needle, "limit is 64 MP")


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_portrait_must_be_a_regular_file(tmp_path, kind):
    doc = base_doc(tmp_path)
    (tmp_path / "hero.png").unlink()
    if kind == "fifo":
        os.mkfifo(tmp_path / "hero.png")
    elif kind == "folder":
        (tmp_path / "hero.png").mkdir()
    else:
        (tmp_path / "hero.png").symlink_to("/dev/zero")
    check_and_dry_run(write(tmp_path, doc), "hero.png")


# ------------------------------------------------------- nothing is written ---

def test_check_and_dry_run_write_nothing_anywhere(tmp_path):
    """A valid joblist with absolute out/work folders elsewhere: check and --dry-run exit 0,
    print the plan, and neither folder, nor the state folder, nor a log appears."""
    root, elsewhere = tmp_path / "jobs", tmp_path / "elsewhere"
    root.mkdir()
    elsewhere.mkdir()
    doc = base_doc(root)
    doc.update(out=str(elsewhere / "out"), work=str(elsewhere / "work"))
    path = write(root, doc)
    before = sorted(tmp_path.rglob("*"))
    for verb in (["check"], ["batch", "--dry-run"]):
        res = run_bounded(*verb, str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "st")})
        assert res.code == 0, res.err
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("server,needle", [
    ({"comfy_args": ["--listen", "0.0.0.0"]}, "set server.host"),
    ({"comfy_args": ["--lis", "0.0.0.0"]}, "--lis (--listen) is not allowed"),
    ({"comfy_args": ["--por=8487"]}, "set server.port"),
    ({"host": "0.0.0.0"}, "allow_remote")])
def test_joblist_cannot_expose_the_server_by_accident(tmp_path, server, needle):
    doc = base_doc(tmp_path)
    doc["server"].update(server)
    check_and_dry_run(write(tmp_path, doc), needle)


def test_override_values_are_checked_against_the_servers_object_info(tmp_path, comfy_server):
    """With a server known, each override value must fit the input's type and range from
    the real /object_info (here our Preview Motion and ComfyUI's own nodes)."""
    from driver.check import override_problems
    from driver.client import ComfyClient
    from driver.joblist_load import load
    from driver.workflow import Workflow

    doc = base_doc(tmp_path)
    doc["overrides"] = {"@action": {"simulate_seconds": -1, "seed": 2.5},
                        "@clip": {"format": "gif"}, "@size": {"megapixels": 0.3}}
    job = load(write(tmp_path, doc))
    info = ComfyClient(f"http://127.0.0.1:{comfy_server.port}").object_info()
    problems = override_problems(job, Workflow.load(job.workflow), info)
    assert len(problems) == 3, problems
    def one(*needles: str) -> bool:
        return any(all(n in p for n in needles) for p in problems)

    assert one("simulate_seconds", "-1 is below the input's minimum 0")
    assert one("'seed'", "2.5 is not a whole number")
    assert one("'format'", "'gif' is not one of the input's choices")


# ------------------------------------------------- the other files we read ---

def test_workflow_that_is_a_fifo_or_too_deep_is_refused(tmp_path):
    doc = base_doc(tmp_path)
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    for name, needle in (("fifo.json", "not a regular file"), ("deep.json", "nested")):
        doc["workflow"] = name
        res = run_bounded("check", str(write(tmp_path, doc)))
        assert_clean(res, name, needle)


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_workflow_with_a_number_json_has_not_is_refused(tmp_path, value):
    """Python's json reads NaN and Infinity, the request to ComfyUI cannot carry them: check
    and batch named a lost server three times. Refused at load, naming node and input."""
    text = (REPO / "api_workflows" / "preview.json").read_text()
    graph = json.loads(text)
    graph["6"]["inputs"]["simulate_seconds"] = float(value.replace("Infinity", "inf"))
    (tmp_path / "nan.json").write_text(json.dumps(graph))  # json writes NaN / Infinity
    assert value in (tmp_path / "nan.json").read_text()
    doc = base_doc(tmp_path)
    doc["workflow"] = "nan.json"
    check_and_dry_run(write(tmp_path, doc), f"nan.json holds {value} at node 6 "
                      "(H3Sprite_PreviewMotion) input 'simulate_seconds'")


def test_recipe_file_and_clip_of_driver_process(tmp_path):
    os.mkfifo(tmp_path / "clip.mp4")
    (tmp_path / "r.yaml").write_text("a: &x [1]\nb: *x\n")
    res = run_bounded("process", str(tmp_path / "clip.mp4"), "--action", "idle", "--out",
                      str(tmp_path / "o"))
    assert_clean(res, "clip.mp4", "not a regular file")
    (tmp_path / "clip.mp4").unlink()
    (tmp_path / "clip.mp4").write_bytes(b"not a clip")  # the recipes fail first
    res = run_bounded("process", str(tmp_path / "clip.mp4"), "--action", "idle", "--out",
                      str(tmp_path / "o"), "--recipes", str(tmp_path / "r.yaml"))
    assert_clean(res, "recipe file", "anchors")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("url", ["ftp://x", "not a url", "http://", "http://h:99999",
                                 "127.0.0.1:8188"])
def test_server_url_must_be_an_http_address(tmp_path, url):
    """check refused nothing, and batch then said "ComfyUI at ftp://x is not reachable"."""
    doc = base_doc(tmp_path)
    doc["server"] = {"url": url}
    check_and_dry_run(write(tmp_path, doc), "server.url", f"{url!r} is not a server address")
    doc.pop("server")
    doc["servers"] = [{"url": "http://127.0.0.1:8188"}, {"url": url}]
    check_and_dry_run(write(tmp_path, doc), "servers.1.url")


@pytest.mark.parametrize("where, text, needle", [
    ("wording", "x" * 200_000, "wording.'hero' is 200000 characters long; the limit is 2000"),
    ("wording", "", "wording.'hero' is empty"),
    ("wording", "   ", "wording.'hero' is empty"),
    ("prompts", "y" * 5000, "prompts.'idle' is 5009 characters long"),
    ("wording_file", "z" * 3000, "words.yaml: 'hero' is 3000 characters long"),
    ("wording_file", "", "words.yaml: 'hero' is empty"),
], ids=["long", "empty", "blank", "long prompt", "long in file", "empty in file"])
def test_wording_and_prompts_are_bounded_text(tmp_path, where, text, needle):
    """A wording of 200,000 characters, or an empty one, passed check and a dry run."""
    doc = base_doc(tmp_path)
    if where == "wording":
        doc["wording"] = {"hero": text}
    elif where == "prompts":
        doc["prompts"] = {"idle": text + "{wording}"}
    else:
        del doc["wording"]
        (tmp_path / "words.yaml").write_text(yaml.safe_dump({"hero": text}))
        doc["wording_file"] = "words.yaml"
    check_and_dry_run(write(tmp_path, doc), needle)


def test_an_action_listed_twice_is_refused(tmp_path):
    """actions: [walk, walk] passed check, and the dry run listed the job twice."""
    doc = base_doc(tmp_path)
    doc["actions"] = ["walk", "idle", "walk"]
    check_and_dry_run(write(tmp_path, doc), "actions: ", "action walk is listed twice")
    doc["actions"] = ["idle"]
    doc["characters"]["hero"]["actions"] = ["idle", "idle"]
    check_and_dry_run(write(tmp_path, doc), "characters.hero.actions", "action idle is listed")


@pytest.mark.parametrize("field", ["size", "recipes", "hang_seconds"])
def test_a_number_that_is_not_finite_is_named_so(tmp_path, field):
    """megapixels: .nan said "Input should be less than or equal to 4"."""
    doc = base_doc(tmp_path)
    if field == "size":
        doc["size"] = {"megapixels": float("nan")}
    elif field == "recipes":
        doc["recipes"] = {"idle": {"fps": float("nan")}}
    else:
        doc["server"]["hang_seconds"] = float("inf")
    check_and_dry_run(write(tmp_path, doc), "Input should be a finite number")
