"""`comfy_service models` against a local server speaking the hub's resolve protocol
(HF_ENDPOINT): a cut mid-file fails the run with one line, the next run resumes from the
partial download (a Range request), sizes are checked, nothing in place is overwritten."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from service.models import (
    STAGING,
    FileState,
    ModelFile,
    human,
    inspect,
    inspect_path,
    safetensors_size,
)
from tests.conftest import REPO, run_cli
from tests.service.hub import Hub


def _safetensors(n: int) -> bytes:
    """A valid safetensors file of one n-byte U8 tensor (random content)."""
    header = json.dumps({"t": {"dtype": "U8", "shape": [n], "data_offsets": [0, n]}}).encode()
    return len(header).to_bytes(8, "little") + header + os.urandom(n)


# huggingface_hub writes in 10 MiB pieces: a cut loses the piece in flight, so the file must
# be larger than one piece for a partial file to be kept.
BIG = _safetensors(24_000_000)
SMALL = _safetensors(120_000)


@pytest.fixture
def setup(tmp_path):
    hub = Hub({"Org/H3/diffusion_models/big.safetensors": BIG,
               "other/turbo/small.safetensors": SMALL})
    url = hub.start()
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"files": [
        {"file": "big.safetensors", "folder": "diffusion_models", "repo": "Org/H3",
         "path": "diffusion_models/big.safetensors", "size": len(BIG), "size_exact": True},
        {"file": "small.safetensors", "folder": "loras", "repo": "other/turbo",
         "path": "small.safetensors", "size": len(SMALL), "size_exact": True},
    ]}))
    wf = tmp_path / "wf.json"
    wf.write_text(json.dumps({
        "1": {"class_type": "UNETLoader", "inputs": {"unet_name": "big.safetensors",
                                                      "weight_dtype": "default"}},
        "2": {"class_type": "LoraLoaderModelOnly", "inputs": {
            "model": ["1", 0], "lora_name": "small.safetensors", "strength_model": 1.0}}}))
    models = tmp_path / "models"
    env = {"HF_ENDPOINT": url, "HF_HOME": str(tmp_path / "hf"), "HF_HUB_DISABLE_TELEMETRY": "1"}

    def run(*extra: str):
        return run_cli("service", "models", "--models-dir", str(models), "--table", str(table),
                       "--workflow", str(wf), *extra, env=env, timeout=120)

    yield hub, models, run
    hub.stop()


def test_cut_download_resumes_on_the_next_run(setup):
    hub, models, run = setup
    hub.cut_after, hub.refuse_after_cut = 15_000_000, True
    res = run("--only", "big.safetensors")
    assert res.code == 1 and "Traceback" not in res.err
    # The hub's client retried the cut itself and then met the 503.
    assert ("FAIL  big.safetensors: the hub answered HTTP 503 for diffusion_models/"
            "big.safetensors of Org/H3") in res.err
    assert "run models again later to resume" in res.err
    assert not (models / "diffusion_models" / "big.safetensors").exists()
    partial = [p for p in (models / STAGING).rglob("*") if p.is_file()]
    assert len(partial) == 1
    kept = partial[0].stat().st_size
    assert 0 < kept <= 15_000_000 and partial[0].read_bytes() == BIG[:kept]

    hub.heal()
    hub.requests.clear()
    sent_before = hub.bytes_sent
    hub.meet = 2  # each GET waits for the other: a one-at-a-time fetch would stall 10 s
    res = run()  # the workflow's two files, fetched at once
    assert res.code == 0, res.err
    assert hub.most_at_once == 2
    assert (models / "diffusion_models" / "big.safetensors").read_bytes() == BIG
    assert (models / "loras" / "small.safetensors").read_bytes() == SMALL
    big_gets = [r for r in hub.requests if r[0] == "GET" and "big" in r[1]]
    assert [r[2] for r in big_gets] == [f"bytes={kept}-"]  # resumed, not restarted
    assert hub.bytes_sent - sent_before == len(BIG) - kept + len(SMALL)
    assert not list((models / STAGING).rglob("*.part"))

    hub.requests.clear()
    res = run()
    assert res.code == 0 and res.out.count("present:") == 2
    assert not [r for r in hub.requests if r[0] == "GET"]


def test_file_in_place_with_the_wrong_size_is_named_and_kept(setup):
    """A 0-byte (or truncated) file in place is named with its size and left untouched."""
    hub, models, run = setup
    (models / "loras").mkdir(parents=True)
    (models / "loras" / "small.safetensors").write_bytes(b"")
    res = run("--only", "small.safetensors")
    assert res.code == 1
    assert f"loras/small.safetensors is 0 B, expected {human(len(SMALL))} (empty)" in res.err
    assert (models / "loras" / "small.safetensors").read_bytes() == b""
    assert not [r for r in hub.requests if r[0] == "GET"]


def test_sha256_of_the_table_is_checked(setup, tmp_path):
    """A file whose hash differs from the table's is not moved into place; the right hash
    is. (Table sizes are exact here, so only the hash can tell.)"""
    hub, models, run = setup
    table = tmp_path / "table.json"
    doc = json.loads(table.read_text())
    small = next(f for f in doc["files"] if f["file"] == "small.safetensors")
    small["sha256"] = hashlib.sha256(SMALL[::-1]).hexdigest()
    table.write_text(json.dumps(doc))
    res = run("--only", "small.safetensors")
    assert res.code == 1 and "small.safetensors: sha256 differs from the table's" in res.err
    assert not (models / "loras" / "small.safetensors").exists()
    small["sha256"] = hashlib.sha256(SMALL).hexdigest()
    table.write_text(json.dumps(doc))
    res = run("--only", "small.safetensors")
    assert res.code == 0, res.err
    assert (models / "loras" / "small.safetensors").read_bytes() == SMALL


def test_unknown_name_is_one_line(setup):
    _, _, run = setup
    res = run("--only", "nope.safetensors")
    assert res.code == 8 and "nope.safetensors: not in the model table" in res.err
    assert "Traceback" not in res.err


def _limit_memory() -> None:
    """In the child: at most 2 GiB of address space, so reading /dev/zero whole fails fast
    instead of filling the machine (it reached 9.7 GB in ten seconds)."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("verb", ["models", "doctor"])
@pytest.mark.parametrize("kind", ["/dev/zero", "fifo", "folder"])
def test_model_table_must_be_a_small_regular_file(tmp_path, verb, kind):
    """--table is read as the joblist is: stat first, a size limit, one line, exit 8."""
    table = {"fifo": tmp_path / "t.json", "folder": tmp_path}.get(kind, Path(kind))
    if kind == "fifo":
        os.mkfifo(table)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "service", verb, "--table", str(table), "--models-dir",
             str(tmp_path / "models"), "--state-dir", str(tmp_path / "state")],
            cwd=REPO, capture_output=True, text=True, timeout=60, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"comfy_service {verb} --table {kind} hung")
    assert proc.returncode == 8, proc.stderr + proc.stdout
    assert f"model table {table} " in proc.stderr and "Traceback" not in proc.stderr
    assert ("a folder" if kind == "folder" else "not a regular file") in proc.stderr


def test_no_comfyui_folder_is_one_line(tmp_path):
    res = run_cli("service", "models", "--comfyui", str(tmp_path / "nowhere"), timeout=60)
    assert res.code == 8 and "no ComfyUI at" in res.err and "--models-dir" in res.err
    assert not (tmp_path / "nowhere").exists()


def test_safetensors_size_is_what_the_real_library_writes(tmp_path, embedded_ready):
    """The size a file declares in its header equals the size safetensors itself writes
    (run in the embedded ComfyUI's python, which has the library), metadata included."""
    path = tmp_path / "real.safetensors"
    subprocess.run([str(embedded_ready.python), "-c",
                    "import numpy as np, sys; from safetensors.numpy import save_file; "
                    "save_file({'a': np.ones((3, 5), np.float16), 'b': np.zeros(7, np.int64)},"
                    " sys.argv[1], metadata={'format': 'pt'})", str(path)], check=True)
    assert safetensors_size(path) == path.stat().st_size


def test_a_cut_within_the_tables_tolerance_is_still_truncated(tmp_path):
    """Table sizes are rounded (1% slack: 195 MB of the 19.53 GB model); the file's own
    header names a cut anywhere. Garbage under the name is not a safetensors file."""
    whole = _safetensors(1_000_000)
    mf = ModelFile(file="m.safetensors", folder="vae", repo="o/r", path="m.safetensors",
                   size=len(whole))
    target = mf.target(tmp_path)
    target.parent.mkdir(parents=True)
    target.write_bytes(whole)
    assert inspect(mf, tmp_path) == (FileState.OK, len(whole))
    target.write_bytes(whole[:-5000])  # 0.5% short: within the table's slack
    assert inspect(mf, tmp_path) == (FileState.TRUNCATED, len(whole) - 5000)
    assert inspect_path(target) == (FileState.TRUNCATED, len(whole) - 5000)  # no table
    target.write_bytes(b"<!DOCTYPE html><title>401</title>".ljust(len(whole), b" "))
    assert inspect(mf, tmp_path)[0] is FileState.INVALID


class _Answers(BaseHTTPRequestHandler):
    """Every request answered with one status and no body, as the hub does for a file it
    lacks (404) or a gated repository without a token (401, 403)."""

    status = 404

    def log_message(self, *a):
        pass

    def do_HEAD(self):
        self.send_response(self.status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_HEAD


@pytest.mark.parametrize(("status", "words"), [
    (404, "the hub has no small.safetensors of other/turbo at {url} (HTTP 404): check the "
          "repo and path in the model table"),
    (401, "the hub refused small.safetensors of other/turbo at {url} (HTTP 401): the "
          "repository is gated, private, or not there; check the table's repo, or accept its "
          "terms"),
    (403, "the hub refused small.safetensors of other/turbo at {url} (HTTP 403)"),
    (500, "the hub answered HTTP 500 for small.safetensors of other/turbo at {url}: run "
          "models again later to resume"),
    (None, "the hub refused the connection for small.safetensors of other/turbo at {url}: "
           "check HF_ENDPOINT"),
])
def test_a_failed_download_says_why_in_our_words(tmp_path, status, words):
    """Each way the hub fails has its own line and fix; httpx's text ("Client error '404 Not
    Found' for url ...", "[Errno 111] Connection refused", a 403's "Forbidden: None.") is
    not shown."""
    handler = type("Answers", (_Answers,), {"status": status or 200})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    if status is None:
        server.server_close()  # nothing listens on the port: refused
    else:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    table = tmp_path / "table.json"
    table.write_text(json.dumps({"files": [
        {"file": "small.safetensors", "folder": "loras", "repo": "other/turbo",
         "path": "small.safetensors", "size": len(SMALL), "size_exact": True}]}))
    try:
        res = run_cli("service", "models", "--models-dir", str(tmp_path / "models"),
                      "--table", str(table), "--only", "small.safetensors",
                      env={"HF_ENDPOINT": url, "HF_HOME": str(tmp_path / "hf"),
                           "HF_HUB_DISABLE_TELEMETRY": "1"}, timeout=120)
    finally:
        if status is not None:
            server.shutdown()
            server.server_close()
    assert res.code == 1, res.err
    assert f"FAIL  small.safetensors: {words.format(url=url)}" in res.err
    for library in ("Client error", "for url", "Errno", "Error:", "None.", "Traceback"):
        assert library not in res.err
    assert not (tmp_path / "models" / "loras" / "small.safetensors").exists()


def test_ctrl_c_leaves_the_partial_download_and_the_next_run_resumes(setup):
    """SIGINT mid-download: the process ends at once (a thread pool's workers were joined at
    exit: it went on to finish the file, then said nothing), one line says where the
    partial file is, nothing is in place, and the next run resumes it with a Range request."""
    hub, models, run = setup
    hub.trickle = 100_000  # 2 MB/s: BIG takes 12 s
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "models", "--models-dir", str(models), "--table",
         str(models.parent / "table.json"), "--workflow", str(models.parent / "wf.json"),
         "--only", "big.safetensors"], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HF_ENDPOINT": hub.url, "HF_HOME": str(models.parent / "hf"),
             "HF_HUB_DISABLE_TELEMETRY": "1"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as in a terminal
    deadline = time.monotonic() + 60
    while hub.bytes_sent < 11_000_000 and time.monotonic() < deadline:  # past one 10 MiB piece
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert hub.bytes_sent < len(BIG)  # it did not go on to the end
    assert err.strip().splitlines()[-1] == (
        f"comfy_service models: interrupted; partial downloads stay in {models / STAGING}: "
        "run models again to resume")
    assert not (models / "diffusion_models" / "big.safetensors").exists()
    partial = [p for p in (models / STAGING).rglob("*") if p.is_file()]
    assert len(partial) == 1 and 0 < partial[0].stat().st_size < len(BIG)
    kept = partial[0].stat().st_size
    hub.trickle = None
    res = run("--only", "big.safetensors")
    assert res.code == 0, res.err
    assert (models / "diffusion_models" / "big.safetensors").read_bytes() == BIG
    gets = [r for r in hub.requests if r[0] == "GET"]
    assert gets[-1][2] == f"bytes={kept}-"
