"""Checks stop a batch before anything is submitted, naming what is wrong."""

from __future__ import annotations

import json
import re
import shutil

import pytest
import requests
import yaml

from tests.conftest import REPO, free_port, run_cli
from tests.driver.conftest import draw_portrait


def _joblist(tmp_path, port=None, **changes):
    draw_portrait(tmp_path / "hero.png", "hero")
    draw_portrait(tmp_path / "boar.png", "zombie")
    doc = {
        "server": {"url": "embedded", "port": port or free_port(),
                   "comfy_args": ["--base-directory", str(tmp_path / "base")]},
        "workflow": str(REPO / "api_workflows" / "preview.json"),
        "actions": ["idle"],
        "wording": {"hero": "h", "boar": "b"},
        "characters": {"hero": {"portrait": "hero.png"}, "boar": {"portrait": "boar.png"}},
    }
    doc.update(changes)
    path = tmp_path / "joblist.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def _both(path, tmp_path):
    env = {"H3SPRITE_STATE_DIR": str(tmp_path / "state")}
    return (run_cli("driver", "check", str(path), env=env),
            run_cli("driver", "batch", str(path), env=env))


def test_truncated_portrait_is_named_before_submission(tmp_path):
    """A truncated PNG: check and batch name the file; no server was started."""
    path = _joblist(tmp_path)
    data = (tmp_path / "boar.png").read_bytes()
    (tmp_path / "boar.png").write_bytes(data[: len(data) // 2])
    for res in _both(path, tmp_path):
        assert res.code == 1
        assert "boar.png" in res.err and "Traceback" not in res.err
    assert not (tmp_path / "state").exists()  # nothing started, nothing submitted


def test_a_run_of_some_characters_is_not_stopped_by_anothers_portrait(tmp_path):
    """boar's portrait is cut short: `check` names it, and so does a batch of the whole
    roster; a batch of hero alone (--chars, or --only) plans its job (it failed on boar's
    portrait: a roster could not be run in part while one portrait was being fixed)."""
    path = _joblist(tmp_path)
    data = (tmp_path / "boar.png").read_bytes()
    (tmp_path / "boar.png").write_bytes(data[: len(data) // 2])
    env = {"H3SPRITE_STATE_DIR": str(tmp_path / "state")}
    for args in (["check"], ["batch", "--dry-run"], ["batch", "--dry-run", "--chars", "boar"]):
        res = run_cli("driver", *args, str(path), env=env)
        assert res.code == 1 and "character boar: portrait" in res.err, (args, res.err)
    for extra in (["--chars", "hero"], ["--only", "hero/idle"], ["--only", "hero/"]):
        res = run_cli("driver", "batch", str(path), "--dry-run", *extra, env=env)
        assert res.code == 0, (extra, res.err)
        assert res.out.split()[:2] == ["hero/idle", "generate+process"], res.out


def test_a_max_width_too_narrow_for_the_sheets_is_one_line_before_submission(tmp_path):
    """max_width 100 for idle (8 frames) and walk (10): both would get cells under 16 px
    wide (the batch made them; a width of 10 made 1x1 cells). check and batch say so in one
    line, for the action of most frames, with the width that does for every action; no
    server was started."""
    path = _joblist(tmp_path, actions=["idle", "walk"], max_width=100)
    for verb, res in zip(("check", "batch"), _both(path, tmp_path), strict=True):
        assert res.code == 1, res.err
        lines = [line for line in res.err.splitlines() if "max_width" in line]
        assert lines == [f"driver {verb}: {path}: max_width 100 leaves 10 px per cell for "
                         "walk's 10 frames; a cell needs at least 16 px: give max_width 160 "
                         "or more"], res.err
        assert "Traceback" not in res.err
    assert not (tmp_path / "state").exists()


def test_a_joblist_takes_no_cell_height_under_the_least_usable_cell():
    """The joblist's cell_height floor is core/sheet.py's MIN_CELL, written out so that
    loading a joblist needs no numpy or Pillow."""
    from annotated_types import Ge

    from comfy_nodes.core.sheet import MIN_CELL
    from driver.joblist import Joblist

    floors = [m.ge for m in Joblist.model_fields["cell_height"].metadata if isinstance(m, Ge)]
    assert floors == [MIN_CELL]


def test_roster_wording_mismatch_names_both_sides(tmp_path):
    """The roster and the wording table must match exactly; both sides are named."""
    path = _joblist(tmp_path, wording={"hero": "h", "bandit": "x"})
    for res in _both(path, tmp_path):
        assert res.code == 1
        assert "lacks boar" in res.err and "has bandit" in res.err


def test_portrait_without_alpha_is_refused(tmp_path):
    path = _joblist(tmp_path)
    from PIL import Image

    Image.new("RGB", (64, 96), (200, 100, 50)).save(tmp_path / "boar.png")
    res = run_cli("driver", "check", str(path))
    assert res.code == 1 and "no alpha" in res.err


def test_unknown_key_names_file_line_and_key(tmp_path):
    """A typo in the joblist names the file, the line and the key."""
    path = _joblist(tmp_path)
    path.write_text(path.read_text().replace("actions:", "actoins:"))
    res = run_cli("driver", "check", str(path))
    assert res.code == 1
    assert f"{path}:" in res.err and "actoins" in res.err and "unknown key" in res.err


def test_a_typo_inside_a_character_gets_a_suggestion_too(tmp_path):
    """characters.hero.portriat: the key under a character's name is checked against a
    character's keys (it got no suggestion: the name was looked up as a field)."""
    path = _joblist(tmp_path)
    path.write_text(path.read_text().replace("portrait: hero.png", "portriat: hero.png"))
    res = run_cli("driver", "check", str(path))
    assert res.code == 1
    assert "characters.hero.portriat: unknown key (did you mean 'portrait'?)" in res.err


def test_escaping_names_and_missing_markers(tmp_path):
    """Character ids that would escape their folder are refused; a workflow without the
    markers is named with the missing ones."""
    path = _joblist(tmp_path, characters={"../x": {"portrait": "hero.png"}})
    res = run_cli("driver", "check", str(path))
    assert res.code == 1 and "not a plain name" in res.err
    wf = tmp_path / "wf.json"
    shutil.copy(REPO / "api_workflows" / "preview.json", wf)
    wf.write_text(wf.read_text().replace("@seed @action", "Preview"))
    path = _joblist(tmp_path, workflow=str(wf))
    res = run_cli("driver", "check", str(path))
    assert res.code == 1 and "@seed" in res.err


def test_gguf_model_is_refused_with_the_reason(tmp_path):
    wf = tmp_path / "wf.json"
    wf.write_text((REPO / "api_workflows" / "h3_sprite.json").read_text().replace(
        "minimax_h3_fl2va_pruned_int8_convrot.safetensors", "h3-Q4_K_M.gguf"))
    path = _joblist(tmp_path, workflow=str(wf))
    res = run_cli("driver", "check", str(path))
    assert res.code == 1 and "h3-Q4_K_M.gguf" in res.err and "Unknown model architecture" in \
        res.err


def test_checks_see_the_overridden_model_file(tmp_path):
    """Another quantisation set through the joblist's overrides is what the checks see."""
    path = _joblist(tmp_path, workflow=str(REPO / "api_workflows" / "h3_sprite.json"),
                    overrides={"10": {"unet_name": "h3-Q4_K_M.gguf"}})
    res = run_cli("driver", "check", str(path))
    assert res.code == 1 and "workflow node 10 loads h3-Q4_K_M.gguf" in res.err


def _sparse_safetensors(path, size: int) -> None:
    """A whole safetensors file of `size` bytes without writing them: a valid header for
    one tensor that fills the rest, then a hole."""
    end = size
    for _ in range(3):  # the header's length depends on the number written in it
        header = json.dumps({"w": {"dtype": "U8", "shape": [end],
                                   "data_offsets": [0, end]}}).encode()
        end = size - 8 - len(header)
    assert 8 + len(header) + end == size
    with open(path, "wb") as f:
        f.write(len(header).to_bytes(8, "little") + header)
        f.truncate(size)


def test_empty_and_truncated_model_files_are_named(tmp_path):
    """The embedded server's model folders (here its --base-directory) are ours to see: a
    0-byte model file, a truncated download and a file that is not safetensors at all each
    get one line naming the file, from check and batch alike, before any server starts.
    Whole and absent files get none."""
    path = _joblist(tmp_path, workflow=str(REPO / "api_workflows" / "h3_sprite.json"))
    models = tmp_path / "base" / "models"
    for folder in ("diffusion_models", "vae", "loras"):
        (models / folder).mkdir(parents=True)
    (models / "diffusion_models" / "minimax_h3_fl2va_pruned_int8_convrot.safetensors").touch()
    with open(models / "vae" / "minimax_h3_video_vae_int8_convrot.safetensors", "wb") as f:
        f.truncate(10**9)  # sparse: 1 GB of the 2.62 GB file
    # The LoRA, whole (the table's size and its own header agree): not named.
    _sparse_safetensors(models / "loras" /
                        "minimax_h3_fl2v_turbo_8step_v1.0_comfyui_bf16.safetensors", 1_820_000_000)
    (models / "text_encoders").mkdir()
    with open(models / "text_encoders" / "qwen3vl_32b_minimax_h3_nvfp4_awq.safetensors",
              "wb") as f:
        f.truncate(14_610_000_000)  # the right size, but zeros: no safetensors header
    for res in _both(path, tmp_path):
        assert res.code == 1 and "Traceback" not in res.err
        model_lines = [ln for ln in res.err.splitlines() if "model file" in ln]
        assert len(model_lines) == 3, res.err
        empty, = (ln for ln in model_lines if " is 0 bytes " in ln)
        short, = (ln for ln in model_lines if ": a truncated download" in ln)
        invalid, = (ln for ln in model_lines if "not a safetensors file" in ln)
        assert "qwen3vl_32b_minimax_h3_nvfp4_awq.safetensors (14.61 GB)" in invalid
        assert "minimax_h3_fl2va_pruned_int8_convrot.safetensors is 0 bytes" in empty
        assert f"comfy_service models --models-dir {models} --only minimax_h3_fl2va" in empty
        assert "minimax_h3_video_vae_int8_convrot.safetensors is 1.00 GB of ~2.62 GB" in short
        assert "truncated download" in short
    assert not (tmp_path / "state").exists()  # nothing started


def test_model_files_of_a_url_server_are_not_guessed(tmp_path):
    """For someone else's server (a URL) the local folders say nothing about its files."""
    path = _joblist(tmp_path, workflow=str(REPO / "api_workflows" / "h3_sprite.json"),
                    server={"url": "http://127.0.0.1:9",
                            "comfy_args": ["--base-directory", str(tmp_path / "base")]})
    (tmp_path / "base" / "models" / "vae").mkdir(parents=True)
    (tmp_path / "base" / "models" / "vae" / "minimax_h3_video_vae_int8_convrot.safetensors"
     ).touch()
    res = run_cli("driver", "check", str(path))
    assert res.code == 0 and "model file" not in res.err, res.err


def test_missing_h3_pieces_are_named_by_preflight(tmp_path, comfy_server):
    """The production workflow on the plain CPU server (0.3.75, no H3, no KJNodes, no model
    files): preflight names the H3 class and why, each KJNodes class with its pack, and each
    official model file with its folder; nothing is submitted."""
    path = _joblist(tmp_path, workflow=str(REPO / "api_workflows" / "h3_sprite.json"),
                    server={"url": f"http://127.0.0.1:{comfy_server.port}"})
    res = run_cli("driver", "batch", str(path))
    assert res.code == 1 and "Traceback" not in res.err
    assert re.search(r"MiniMaxH3ImageToVideo: not in this ComfyUI \(0\.3\.75\).*H3 needs a "
                     r"ComfyUI with native H3 nodes", res.err)
    for cls in ("MiniMaxLowVRAMAttention", "MiniMaxChunkFeedForward"):
        assert re.search(cls + r": not in ComfyUI .* ComfyUI-KJNodes", res.err), cls
    for folder, name in [
            ("diffusion_models", "minimax_h3_fl2va_pruned_int8_convrot.safetensors"),
            ("loras", "minimax_h3_fl2v_turbo_8step_v1.0_comfyui_bf16.safetensors"),
            ("text_encoders", "qwen3vl_32b_minimax_h3_nvfp4_awq.safetensors"),
            ("vae", "minimax_h3_video_vae_int8_convrot.safetensors")]:
        assert f"model file missing: {name} in models/{folder}" in res.err, name
    assert "prompt_id" not in res.out


def test_graph_without_first_frame_is_refused(tmp_path):
    """A graph whose video node has no first_frame from the portrait: one line, exit 1."""
    wf = tmp_path / "wf.json"
    graph = json.loads((REPO / "api_workflows" / "preview.json").read_text())
    motion = next(n for n in graph.values() if n["class_type"] == "H3Sprite_PreviewMotion")
    motion["inputs"]["image"] = motion["inputs"].pop("first_frame")
    wf.write_text(json.dumps(graph))
    res = run_cli("driver", "check", str(_joblist(tmp_path, workflow=str(wf))))
    assert res.code == 1 and "Traceback" not in res.err
    assert "no node with a linked first_frame input" in res.err


def test_loop_closure_needs_a_last_frame_input(tmp_path, comfy_server):
    """Loop closure asked of a graph whose video node takes no last_frame (a real 0.3.75 node
    with first_frame only): preflight says so in one line and exits 1."""
    wf = tmp_path / "wf.json"
    graph = json.loads((REPO / "api_workflows" / "preview.json").read_text())
    info = requests.get(f"http://127.0.0.1:{comfy_server.port}/object_info",
                        timeout=30).json()
    # Any server class with a first_frame but no last_frame input will do.
    cls = next(c for c, spec in info.items()
               if "first_frame" in {**spec["input"].get("required", {}),
                                    **spec["input"].get("optional", {})}
               and "last_frame" not in {**spec["input"].get("required", {}),
                                        **spec["input"].get("optional", {})})
    motion = next(n for n in graph.values() if n["class_type"] == "H3Sprite_PreviewMotion")
    motion["class_type"] = cls
    wf.write_text(json.dumps(graph))
    path = _joblist(tmp_path, workflow=str(wf), loop_closure=True,
                    server={"url": f"http://127.0.0.1:{comfy_server.port}"})
    res = run_cli("driver", "batch", str(path))
    assert res.code == 1 and "Traceback" not in res.err
    lines = [ln for ln in res.err.splitlines() if "loop_closure" in ln]
    assert len(lines) == 1 and "no video node with a last_frame input" in lines[0]


def test_port_taken_by_another_program_names_the_setting(tmp_path):
    """The embedded server's port is held by someone else: one line naming server.port;
    the holder is left running."""
    import socket

    holder = socket.create_server(("127.0.0.1", 0))
    try:
        port = holder.getsockname()[1]
        path = _joblist(tmp_path, port=port)
        res = run_cli("driver", "batch", str(path),
                      env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
        assert res.code == 1 and "server.port" in res.err and str(port) in res.err
        assert "Traceback" not in res.err
        # The holder was not disturbed: it still accepts a connection on its port.
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
    finally:
        holder.close()


def test_servers_list_mistakes_are_named(tmp_path):
    """servers: two entries on one port, server and servers together, gpu on a URL."""
    from driver.joblist_load import JoblistError, load

    cases = {
        "is http://127.0.0.1:8301 again": {"servers": [{"port": 8301}, {"port": 8301}]},
        "either server or servers": {"server": {"port": 8302}, "servers": [{"port": 8303}]},
        "gpu is for an embedded server": {"servers": [{"url": "http://10.0.0.7:8188",
                                                       "gpu": 1}]},
        "servers.1.prot: unknown key (did you mean 'port'?)": {
            "servers": [{"port": 8305}, {"prot": 8306}]},
        # one ComfyUI by two names: two prompts in flight on it
        "servers.1 is http://127.0.0.1:8307, the same server as servers.0 "
        "(http://localhost:8307)": {
            "servers": [{"url": "http://localhost:8307/"}, {"url": "http://127.0.0.1:8307"}]},
        "servers.1 is http://LOCALHOST:8308, the same server as servers.0 "
        "(http://127.0.0.1:8308)": {
            "servers": [{"port": 8308}, {"url": "http://LOCALHOST:8308"}]},
        "servers.1 is https://h, the same server as servers.0 (https://h:443)": {
            "servers": [{"url": "https://h:443"}, {"url": "https://h"}]},
    }
    for message, change in cases.items():
        path = _joblist(tmp_path, **change)
        if "server" not in change:
            doc = yaml.safe_load(path.read_text())
            del doc["server"]
            path.write_text(yaml.safe_dump(doc))
        try:
            load(path)
        except JoblistError as e:
            assert message in str(e), (message, str(e))
        else:
            raise AssertionError(f"no error for {change}")
    for proxied in ([{"url": "http://gpu.lan/comfy-a"}, {"url": "http://gpu.lan/comfy-b/"}],):
        path = _joblist(tmp_path, servers=proxied)  # two ComfyUIs behind one proxy
        doc = yaml.safe_load(path.read_text())
        del doc["server"]
        path.write_text(yaml.safe_dump(doc))
        assert len(load(path).servers) == 2
    path = _joblist(tmp_path, servers=[{"port": 8304, "gpu": 0}, {"url": "http://h:1"}])
    doc = yaml.safe_load(path.read_text())
    del doc["server"]
    path.write_text(yaml.safe_dump(doc))
    assert [s.base_url for s in load(path).servers] == ["http://127.0.0.1:8304", "http://h:1"]


def test_no_usable_server_stops_the_batch_naming_each(tmp_path):
    """Every servers: entry unreachable: the batch stops before any job, one line each."""
    dead = [f"http://127.0.0.1:{free_port()}" for _ in range(2)]
    path = _joblist(tmp_path, servers=[{"url": u} for u in dead])
    doc = yaml.safe_load(path.read_text())
    del doc["server"]
    path.write_text(yaml.safe_dump(doc))
    res = run_cli("driver", "batch", str(path),
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
    assert res.code == 1 and "no server can be used" in res.err, res.err
    assert all(f"{u}: ComfyUI at {u} is not reachable" in res.err for u in dead)
    assert "Traceback" not in res.err


@pytest.mark.parametrize("key, case", [("out", "file"), ("work", "file"),
                                       ("out", "backup_file"), ("out", "read_only"),
                                       ("work", "read_only")])
def test_out_and_work_must_be_folders_we_can_write(tmp_path, request, key, case):
    """`out:` or `work:` that is a file, a user's file named out/_actions_old, or a read-only
    folder: check, --dry-run and batch each name it in one line, before anything is created
    (check said ok, then batch said "File exists: .../preview.json")."""
    mine = tmp_path / "preview.json"
    folder = mine
    if case == "backup_file":
        folder = tmp_path / "sheets"
        folder.mkdir()
        mine = folder / "_actions_old"
    if case == "read_only":
        folder = request.getfixturevalue("read_only_folder")
    else:
        mine.write_text("{}")
    path = _joblist(tmp_path, **{key: str(folder)})
    needle = {"file": f"{key} {folder} is a file, not a folder: give a folder",
              "backup_file": f"backup folder {mine} is a file, not a folder",
              "read_only": f"cannot write into {key} {folder}: it is on a read-only file "
                           "system"}[case]
    before = sorted(tmp_path.rglob("*"))
    env = {"H3SPRITE_STATE_DIR": str(tmp_path / "state")}
    for verb in (["check"], ["batch", "--dry-run"], ["batch"]):
        res = run_cli("driver", *verb, str(path), env=env)
        assert res.code == 1, (verb, res.err)
        assert needle in res.err and res.err.count("\n") == 1, (verb, res.err)
    assert sorted(tmp_path.rglob("*")) == before
    if case != "read_only":
        assert mine.read_text() == "{}"


def test_jobs_whose_folders_would_be_one_are_refused_before_submission(tmp_path):
    """A work folder is named <character>_<action>: character x's run_fast and character
    x_run's fast shared one clip, and x's sheet was made from x_run's (exit 0, no word).
    Characters named apart only by case share their sheet folder on macOS and Windows.
    check and batch name both jobs and the folder; no server was started."""
    draw_portrait(tmp_path / "x.png", "hero")
    path = _joblist(tmp_path, actions=["idle"],
                    recipes={a: {"seconds": 2.0, "frames": 8, "fps": 8, "loop": True}
                             for a in ("run_fast", "fast")},
                    wording={"hero": "h", "boar": "b", "x": "x", "x_run": "xr", "Hero": "H"},
                    characters={"hero": {"portrait": "hero.png"},
                                "Hero": {"portrait": "hero.png"},
                                "boar": {"portrait": "boar.png"},
                                "x": {"portrait": "x.png", "actions": ["run_fast"]},
                                "x_run": {"portrait": "x.png", "actions": ["fast"]}})
    for verb, res in zip(("check", "batch"), _both(path, tmp_path), strict=True):
        assert res.code == 1, res.err
        shared = sorted(line for line in res.err.splitlines() if "would share" in line)
        assert shared == [
            f"driver {verb}: {path}: Hero and hero would share the folder "
            f"{tmp_path / '_out' / 'Hero'}: rename one of them",
            f"driver {verb}: {path}: Hero/idle and hero/idle would share the folder "
            f"{tmp_path / '_work' / 'Hero_idle'}: rename one of them",
            f"driver {verb}: {path}: x/run_fast and x_run/fast would share the folder "
            f"{tmp_path / '_work' / 'x_run_fast'}: rename one of them"], res.err
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize("value, forced", [("1", True), ("yes", True), ("TRUE", True),
                                           ("0", False), ("false", False), ("no", False),
                                           ("off", False), ("", False)])
def test_force_in_the_environment_is_read_as_on_or_off(tmp_path, value, forced):
    """FORCE=false and FORCE=no had forced every job (anything but "" and "0" was on)."""
    path = _joblist(tmp_path)
    res = run_cli("driver", "batch", str(path), "--dry-run", "--only", "hero/idle",
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state"), "FORCE": value})
    assert res.code == 0, res.err
    assert ("forced" in res.out) == forced, res.out


def test_force_neither_on_nor_off_is_refused_in_one_line(tmp_path):
    res = run_cli("driver", "batch", str(_joblist(tmp_path)), "--dry-run",
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state"), "FORCE": "maybe"})
    assert res.code == 1 and "Traceback" not in res.err
    assert res.err.strip().splitlines() == [
        "driver batch: FORCE='maybe' is neither on nor off: give FORCE=1 (or true, yes, on) "
        "or FORCE=0 (or false, no, off, empty)"], res.err


def test_a_character_named_as_the_out_folders_own_files_is_refused(tmp_path):
    """A character `actions.json` failed after its clip was made (its folder stood where
    the index goes), one `h3sprite.sqlite` on the state's name, and one `_logs` put its
    sheets among the logs; in any case (macOS and Windows fold it)."""
    names = ["actions.json", "H3sprite.sqlite", "_logs", "_actions_old", "review.html"]
    for n in names:
        draw_portrait(tmp_path / f"{n}.png", "hero")
    path = _joblist(tmp_path, wording={n: "w" for n in names},
                    characters={n: {"portrait": f"{n}.png"} for n in names})
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    assert res.code == 1 and "Traceback" not in res.err
    lines = [line for line in res.err.splitlines() if "would take the out folder's own" in line]
    assert len(lines) == len(names), res.err
    assert "H3sprite.sqlite would take the out folder's own h3sprite.sqlite" in res.err


@pytest.mark.parametrize("extra", [[], ["--reroll"]])
def test_only_and_chars_that_select_no_job_together_are_refused(tmp_path, extra):
    """--chars hero --only boar/idle: each names a job, none of both; the batch said
    "done 0" and exit 0, and a re-roll asked for silently did nothing."""
    res = run_cli("driver", "batch", str(_joblist(tmp_path)), "--dry-run", "--chars", "hero",
                  "--only", "boar/idle", *extra,
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
    assert res.code == 1 and "Traceback" not in res.err
    assert res.err.strip().splitlines() == [
        "driver batch: --only boar/idle and --chars hero select no job together: name a job "
        "of those characters, or leave one flag out"], res.err


def test_reuse_video_with_no_clip_to_reuse_is_refused_not_current(tmp_path):
    """A fresh out folder: every job "skip no reusable clip", yet the batch said "nothing to
    do: 2 job(s) current" and exited 0. No server is started."""
    res = run_cli("driver", "batch", str(_joblist(tmp_path)), "--reuse-video",
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
    assert res.code == 1 and "Traceback" not in res.err
    assert ("driver batch: --reuse-video: none of the 2 selected job(s) has a clip to reuse: "
            "run without --reuse-video to generate them") in res.err, res.err
    assert "current" not in res.err
    assert not (tmp_path / "state").exists()  # no server was started


@pytest.mark.parametrize("character, words", [
    ({"seed": -5}, "characters.hero.seed"),
    ({"seed": 2**64}, "characters.hero.seed"),
    ({"actions": []}, "characters.hero.actions"),
])
def test_a_characters_seed_out_of_range_or_empty_actions_are_refused(tmp_path, character,
                                                                     words):
    """A seed of -5 passed check and preflight, started the server and failed every job
    there; `actions: []` silently meant every action of the joblist."""
    path = _joblist(tmp_path, characters={"hero": {"portrait": "hero.png", **character},
                                          "boar": {"portrait": "boar.png"}})
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    assert res.code == 1 and "Traceback" not in res.err
    assert words in res.err and len(res.err.strip().splitlines()) == 1, res.err


def test_an_embedded_server_not_to_be_started_names_start_true_not_url_embedded(tmp_path):
    """server.start: false with nothing running: the line advised "set server.url:
    embedded", which it already was."""
    path = _joblist(tmp_path)
    doc = yaml.safe_load(path.read_text())
    doc["server"]["start"] = False
    path.write_text(yaml.safe_dump(doc))
    res = run_cli("driver", "batch", str(path), "--only", "hero/idle",
                  env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
    assert res.code == 1 and "Traceback" not in res.err
    assert "server.start is false: set server.start: true" in res.err, res.err
    assert "server.url: embedded" not in res.err + res.out


def test_a_reader_that_closes_the_pipe_early_gets_no_error_line(tmp_path):
    """`driver check J | head -c 0`: the output's reader has gone before it is written;
    the driver printed "driver status: Broken pipe" and exited 1 (a failed job, per the
    README). It now says nothing and exits 141, as a shell reports SIGPIPE."""
    import subprocess
    import sys

    path = _joblist(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "driver", "check", str(path)], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader goes away before anything is written
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141 and err == "", (proc.returncode, err)


def test_a_prompt_for_no_action_is_named_with_its_line_and_the_near_one(tmp_path):
    """prompts: {wlak: ...}: check said ok and walk kept its default prompt."""
    path = _joblist(tmp_path, actions=["idle", "walk"],
                    prompts={"wlak": "{wording}, walking", "idle": "{wording}, idle"})
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    assert res.code == 1 and "Traceback" not in res.err
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "wlak" in t)
    assert res.err.strip().splitlines() == [
        f"driver check: {path}:{line}: prompts: 'wlak' is not an action of this joblist "
        "(did you mean 'walk'?)"], res.err


@pytest.mark.parametrize("where", ["top", "character"])
def test_a_misspelt_recipe_field_is_named_with_its_line_and_the_near_one(tmp_path, where):
    """recipes: {idle: {frame: 3}} said "recipes: action 'idle', frame: Extra inputs are
    not permitted", with no line and no suggestion."""
    bad = {"idle": {"frame": 3}}
    if where == "top":
        path, key = _joblist(tmp_path, recipes=bad), "recipes.idle.frame"
    else:
        path = _joblist(tmp_path, characters={"hero": {"portrait": "hero.png", "recipes": bad},
                                              "boar": {"portrait": "boar.png"}})
        key = "characters.hero.recipes.idle.frame"
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    assert res.code == 1 and "Traceback" not in res.err
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "frame:" in t)
    assert (f"{path}:{line}: {key}: unknown field 'frame' (did you mean 'frames'?)"
            in res.err), res.err


@pytest.mark.parametrize("name", ["a,b", "h#1", "@x"])
def test_a_character_id_that_only_cannot_name_is_refused(tmp_path, name):
    """`a,b`, `h#1` and `@x` passed check, and no --only (nor the review page's re-roll
    command, nor an exported rejects list) could select their jobs."""
    draw_portrait(tmp_path / "c.png", "hero")
    path = _joblist(tmp_path, wording={name: "w"}, characters={name: {"portrait": "c.png"}})
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    assert res.code == 1 and "Traceback" not in res.err
    assert "which --only reads as its own" in res.err and len(res.err.splitlines()) == 1, res.err


def test_a_new_actions_missing_recipe_field_is_named_at_its_actions_line(tmp_path):
    """A new action without seconds: the line was lost (the key path ends in a key the
    text lacks); it is the action's."""
    path = _joblist(tmp_path, actions=["idle", "dance"], recipes={"dance": {"frames": 3}})
    res = run_cli("driver", "check", str(path), env={"H3SPRITE_STATE_DIR": str(tmp_path / "s")})
    line = next(n for n, t in enumerate(path.read_text().splitlines(), 1) if "dance:" in t)
    assert res.code == 1 and f"{path}:{line}: recipes.dance.seconds: Field required" in res.err, \
        res.err
