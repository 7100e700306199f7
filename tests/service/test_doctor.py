"""`comfy_service doctor` on the plain embedded CPU server: not ready, and every missing
piece named (H3 class, KJNodes pair, each model file: missing, empty, truncated)."""

from __future__ import annotations

import json

from service.models import load_table
from tests.conftest import run_cli


def test_doctor_names_every_missing_piece(tmp_path, comfy_server):
    models = tmp_path / "models"
    by_name = {m.file: m for m in load_table()}
    (models / "vae").mkdir(parents=True)
    (models / "vae" / "minimax_h3_video_vae_int8_convrot.safetensors").write_bytes(b"")
    (models / "loras").mkdir()
    (models / "loras" / "minimax_h3_fl2v_turbo_8step_v1.0_comfyui_bf16.safetensors") \
        .write_bytes(b"\0" * 4096)
    args = ["doctor", "--port", str(comfy_server.port), "--models-dir", str(models),
            "--out", str(tmp_path)]
    res = run_cli("service", *args, timeout=120)
    assert res.code == 1 and "Traceback" not in res.err
    err = res.err
    assert "FAIL  ComfyUI: MiniMaxH3ImageToVideo: not in this ComfyUI (0.3.75)" in err
    assert "CLIPLoader has no type 'minimax'" in err
    for cls in ("MiniMaxLowVRAMAttention", "MiniMaxChunkFeedForward"):
        assert f"FAIL  KJNodes: {cls} missing: it comes from the ComfyUI-KJNodes pack" in err
    unet = by_name["minimax_h3_fl2va_pruned_int8_convrot.safetensors"]
    assert (f"FAIL  models/diffusion_models/{unet.file}: missing (expected "
            f"{unet.size_words()}") in err
    assert "models/text_encoders/qwen3vl_32b_minimax_h3_nvfp4_awq.safetensors: missing" in err
    assert ("models/vae/minimax_h3_video_vae_int8_convrot.safetensors: 0 bytes, expected "
            "~2.62 GB: an empty file") in err
    assert "4.10 KB of ~1.82 GB: a truncated download" in err
    for topic in ("RAM", "VRAM", "disk", "THP", "flags"):
        assert f" {topic}: " in err, topic
    assert "--cpu" in err  # the flags in effect, read from the running server
    assert "advice:" in err
    assert (f"comfy_service models --models-dir {models} --only {unet.file}") in err
    assert err.strip().splitlines()[-1].startswith("comfy_service: not ready for an H3 batch")
    data = json.loads(run_cli("service", *args, "--json", timeout=120).out)
    assert data["ready"] is False and data["exit"] == 1
    levels = {f["topic"]: f["level"] for f in data["facts"]}
    assert levels["KJNodes"] == "FAIL" and levels["disk"] == "ok"


def test_doctor_looks_in_the_models_folder_of_the_server_that_answers(tmp_path, comfy_server):
    """Without --models-dir, doctor reads the running server's --base-directory from its argv
    (not its own defaults) and names a 0-byte file there, even one outside the model table;
    an H3 GGUF is refused with the reason. The file's name is unique, so the shared
    server's other tests do not see it."""
    name = f"doctor-probe-{tmp_path.name}.safetensors"
    wf = tmp_path / "wf.json"
    wf.write_text(json.dumps({
        "1": {"class_type": "VAELoader", "inputs": {"vae_name": name}},
        "2": {"class_type": "UNETLoader", "inputs": {"unet_name": "h3-Q4_K_M.gguf",
                                                      "weight_dtype": "default"}}}))
    probe = comfy_server.base_dir / "models" / "vae" / name
    probe.parent.mkdir(parents=True, exist_ok=True)
    probe.touch()
    try:
        res = run_cli("service", "doctor", "--port", str(comfy_server.port), "--workflow",
                      str(wf), "--out", str(tmp_path), timeout=120)
    finally:
        probe.unlink()
    assert res.code == 1 and "Traceback" not in res.err
    assert f"FAIL  models/vae/{name}: 0 bytes, not in the model table: an empty file" in res.err
    assert f"move {probe} away, then put the whole {name} in {probe.parent}" in res.err
    assert ("FAIL  models/diffusion_models/h3-Q4_K_M.gguf: GGUF (node 2): the GGUF loader's "
            "architecture whitelist has no H3") in res.err
    assert f"--base-directory {comfy_server.base_dir}" in res.err  # the flags, with values


def test_doctor_without_a_server_says_so(tmp_path):
    from tests.conftest import free_port

    res = run_cli("service", "doctor", "--port", str(free_port()), "--models-dir",
                  str(tmp_path), timeout=60)
    assert res.code == 1 and "no server answers at http://127.0.0.1:" in res.err
    assert "comfy_service start" in res.err and "Traceback" not in res.err


def test_doctor_names_another_program_on_the_port(tmp_path):
    """A program that is not ComfyUI answers on the port (here python's file server, 404 on
    /system_stats): doctor says so, not "no server answers"."""
    import subprocess
    import sys
    import time

    import requests

    from tests.conftest import free_port

    port = free_port()
    other = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind",
                              "127.0.0.1", "--directory", str(tmp_path)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                requests.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        res = run_cli("service", "doctor", "--port", str(port), "--models-dir",
                      str(tmp_path), timeout=60)
    finally:
        other.kill()
        other.wait()
    assert res.code == 1 and "Traceback" not in res.err
    assert (f"FAIL  ComfyUI: another program answers at http://127.0.0.1:{port}, not ComfyUI "
            "(/system_stats answered 404 File not found)") in res.err, res.err
    assert "no server answers" not in res.err
