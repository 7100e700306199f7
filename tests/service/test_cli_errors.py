"""Bad input gets one clear line and a distinct non-zero exit, never a traceback."""

from __future__ import annotations

import http.server
import shutil
import subprocess
import sys
import threading

import pytest

from service.manager import Exit
from tests.conftest import free_port, run_cli


@pytest.mark.parametrize("args, code, needle", [
    (["bogus"], Exit.USAGE, "invalid choice"),
    (["status", "--port", "99999"], Exit.CONFIG, "port"),
    (["status", "--port", "x"], Exit.USAGE, "invalid int"),
    (["start", "--port", "0"], Exit.CONFIG, "port"),
    (["start", "--comfyui", "/nonexistent/ComfyUI"], Exit.CONFIG, "/nonexistent/ComfyUI"),
    (["start", "--python", "/nonexistent/bin/python"], Exit.CONFIG, "/nonexistent/bin/python"),
    (["start", "--config", "/nonexistent/service.yaml"], Exit.CONFIG, "/nonexistent/service.yaml"),
    (["who-holds", "/nonexistent/file"], Exit.ERROR, "no such file: /nonexistent/file"),
    # `idle --reads 0` said idle while a prompt ran; `logs -n -5` printed all but 5 lines
    (["idle", "--reads", "0"], Exit.USAGE, "argument --reads: 0 is too small: give at least 1"),
    (["logs", "-n", "-5"], Exit.USAGE, "argument -n/--lines: -5 is too small: give at least 0"),
    (["stop", "--timeout", "-5"], Exit.USAGE, "argument --timeout: -5 is too small: give more "
                                              "than 0"),
    (["free", "--timeout", "nan"], Exit.USAGE, "argument --timeout: 'nan' is not a finite number"),
    (["stop", "--timeout", "inf"], Exit.USAGE, "argument --timeout: 'inf' is not a finite number"),
    (["start", "--gpu", "-1"], Exit.USAGE, "argument --gpu: -1 is too small: give at least 0"),
])
def test_bad_input_is_one_clear_line(args, code, needle, tmp_path):
    """Each bad input maps to its exit code and names the offending value."""
    res = run_cli("service", *args, "--state-dir", str(tmp_path))
    assert res.code == code, res.err
    assert needle in res.err
    assert "Traceback" not in res.err


class _OtherProgram(http.server.BaseHTTPRequestHandler):
    """Another program on ComfyUI's port: every GET answered with an HTML page (`html`), or
    with 404 (`404`)."""

    kind = "html"

    def do_GET(self):  # noqa: N802 (http.server's name)
        if self.kind == "404":
            self.send_error(404)
            return
        body = b"<html><body>my own web app</body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet
        pass


NOT_COMFYUI = ("what listens there may not be ComfyUI (`comfy_service status` says whose the "
               "port is)")


@pytest.mark.parametrize("verb, kind, code, line", [
    # was "(http://127.0.0.1:P did not answer /queue: ConnectionError)" after the same URL
    ("idle", None, Exit.UNKNOWN, "unknown: {url} refused the connection (asked /queue)"),
    # was "({url}/queue ... 404 Client Error: Not Found for url: {url}/queue)"
    ("idle", "404", Exit.UNKNOWN, "unknown: {url}/queue answered 404 Not Found: " + NOT_COMFYUI),
    # was "unknown: ... (Expecting value: line 1 column 1 (char 0))"
    ("idle", "html", Exit.UNKNOWN, "unknown: {url}/queue answered with a page that is not "
                                   "ComfyUI's JSON: " + NOT_COMFYUI),
    ("free", None, Exit.NOT_RUNNING, "cannot free: {url} refused the connection (asked "
                                     "/system_stats)"),
    # was "404 Client Error: Not Found for url: {url}/system_stats"
    ("free", "404", Exit.ERROR, "{url}/system_stats answered 404 Not Found: " + NOT_COMFYUI),
    # was exit 8 (a bad setting of the user's) "Expecting value: line 1 column 1 (char 0)"
    ("free", "html", Exit.ERROR, "{url}/system_stats answered with a page that is not "
                                 "ComfyUI's JSON: " + NOT_COMFYUI),
])
def test_a_port_without_comfyui_is_named_with_its_url_and_why(tmp_path, verb, kind, code,
                                                                line):
    """idle and free against a port where nothing listens, or where another program answers
    with 404 or an HTML page: one line naming the URL and what was wrong in our words
    (requests' quoted urllib3 or a JSON parser's position), and what to do."""
    server = None
    if kind is None:
        port = free_port()
    else:
        handler = type("Handler", (_OtherProgram,), {"kind": kind})
        server = http.server.HTTPServer(("127.0.0.1", 0), handler)
        port = server.server_address[1]
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        res = run_cli("service", verb, "--port", str(port), "--state-dir", str(tmp_path),
                      timeout=60)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    assert res.code == code, res.err
    assert res.err == f"comfy_service: {line.format(url=f'http://127.0.0.1:{port}')}\n"


def test_unknown_key_in_config_file_names_file_and_key(tmp_path):
    """A typo in the config file is named with the file and the known keys."""
    cfg = tmp_path / "service.yaml"
    cfg.write_text("prot: 8188\n")
    res = run_cli("service", "status", "--config", str(cfg), "--state-dir", str(tmp_path))
    assert res.code == Exit.CONFIG
    assert str(cfg) in res.err and "prot" in res.err and "port" in res.err


def test_python_that_cannot_run_comfyui_fails_start_with_log_tail(tmp_path, embedded_ready):
    """A python without ComfyUI's packages: start fails, exit START_FAILED, log tail shown."""
    res = run_cli("service", "start", "--python", sys.executable, "--port", str(free_port()),
                  "--state-dir", str(tmp_path), "--", "--base-directory", str(tmp_path / "b"))
    assert res.code == Exit.START_FAILED
    assert "exited with code" in res.err and "ModuleNotFoundError" in res.err
    assert ("during start-up: a package is missing from ComfyUI's python (the last lines "
            "name it): run `comfy_service setup`") in res.err.splitlines()[-1]


@pytest.mark.skipif(shutil.which("nvidia-smi") is not None, reason="a GPU may be here")
@pytest.mark.parametrize("placement", ["resident", "none"])
def test_a_gpu_placement_on_a_cpu_build_names_the_setting(tmp_path, embedded_ready,
                                                          placement):
    """--placement resident (--highvram) on the embedded CPU torch: ComfyUI's traceback
    ended "Torch not compiled with CUDA enabled", and our line said only that it exited.
    It names the setting and the fix; `none` (no flag: ComfyUI's default is CUDA) fails
    the same way, and the line advised it; auto passes --cpu only where nvidia-smi finds
    no GPU (a GPU machine with a CPU torch fails with auto too): `-- --cpu` always works."""
    res = run_cli("service", "start", "--placement", placement, "--port", str(free_port()),
                  "--state-dir", str(tmp_path), "--", "--base-directory", str(tmp_path / "b"))
    assert res.code == Exit.START_FAILED
    assert ("during start-up: its torch has no CUDA (a CPU build, or no GPU here), which "
            "ComfyUI uses unless told --cpu (only --placement auto tells it, and only where "
            "nvidia-smi finds no GPU): start it with `comfy_service start -- --cpu`"
            ) in res.err.splitlines()[-1]


def test_who_holds_names_the_holder(tmp_path):
    """A process that keeps a file open is listed by pid; a free file has no holder."""
    target = tmp_path / "clip.mp4"
    target.write_bytes(b"x")
    holder = subprocess.Popen([sys.executable, "-c",
                               f"f=open({str(target)!r});print('ok',flush=True);"
                               "import time;time.sleep(60)"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "ok"
        res = run_cli("service", "who-holds", str(target), "--json")
        assert res.code == Exit.OK
        assert holder.pid in [h["pid"] for h in res.json()["holders"]]
    finally:
        holder.kill()
        holder.wait()
    res = run_cli("service", "who-holds", str(target))
    assert res.code == Exit.OK and "no process holds" in res.out


def test_link_pack_links_once_and_never_replaces(tmp_path):
    """link-pack creates custom_nodes/h3sprite -> the repository (loaded as a clone is), is
    idempotent, and refuses to replace a folder that is not its link."""
    comfy = tmp_path / "ComfyUI"
    comfy.mkdir()
    (comfy / "main.py").write_text("")
    args = ["link-pack", "--comfyui", str(comfy), "--python", sys.executable]
    first = run_cli("service", *args)
    assert first.code == 0 and "linked" in first.out
    link = comfy / "custom_nodes" / "h3sprite"
    assert link.is_symlink() and (link / "__init__.py").is_file()
    assert (link / "example_workflows").is_dir() and (link / "requirements.txt").is_file()
    assert "already linked" in run_cli("service", *args).out
    link.unlink()
    link.mkdir()
    (link / "mine.txt").write_text("user data")
    res = run_cli("service", *args)
    assert res.code == Exit.ERROR and "not our link" in res.err
    assert (link / "mine.txt").read_text() == "user data"


def test_link_pack_install_deps_installs_as_the_manager_does(tmp_path, embedded_ready):
    """--install-deps runs requirements.txt then install.py with ComfyUI's python; on the
    embedded ComfyUI everything is already there (OpenCV included), so nothing changes."""
    comfy = tmp_path / "ComfyUI"
    comfy.mkdir()
    (comfy / "main.py").write_text("")
    res = run_cli("service", "link-pack", "--comfyui", str(comfy), "--python",
                  str(embedded_ready.python), "--install-deps")
    assert res.code == 0, res.err
    assert f"installed the pack's requirements into {embedded_ready.python}" in res.out


@pytest.mark.parametrize("verb", ["start", "status", "list", "stop"])
def test_state_dir_that_is_a_file_is_a_bad_setting(tmp_path, verb):
    """--state-dir naming a file is a bad setting (exit 8) for every verb, named in one
    line (start said "Not a directory: .../custom_nodes", status "not running"); the file
    is left as it was."""
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes")
    res = run_cli("service", verb, "--port", str(free_port()), "--state-dir", str(mine))
    assert res.code == Exit.CONFIG, res.err
    assert f"state_dir {mine} is a file, not a folder: give a folder" in res.err
    assert res.err.count("\n") == 1 and "Traceback" not in res.err
    assert mine.read_text() == "my notes"


def test_start_names_a_read_only_state_dir(read_only_folder, embedded_ready):
    """start writes its state file and log into the state folder: a read-only one is a bad
    setting named before anything starts; status only reads it."""
    port = str(free_port())
    res = run_cli("service", "start", "--port", port, "--state-dir", str(read_only_folder))
    assert res.code == Exit.CONFIG, res.err
    assert (f"cannot write into state_dir {read_only_folder}: it is on a read-only file "
            "system" in res.err)
    res = run_cli("service", "status", "--port", port, "--state-dir", str(read_only_folder))
    assert res.code == Exit.NOT_RUNNING, res.err


@pytest.mark.parametrize("content, why", [(b'{"pid": 12', "it is not JSON"),
                                          (b"\xff\xfe", "it is not text"),
                                          (b"[1]", "it is not a JSON object")],
                         ids=["cut", "binary", "list"])
def test_an_unreadable_state_file_is_named_not_taken_for_not_running(tmp_path, content, why):
    """status and list said "not running on port N" over a corrupt comfyui-N.json (a list
    record was an internal error): the record may be all that knows a live server, so its
    file is named, with what to do, and left as it is."""
    port = free_port()
    record = tmp_path / f"comfyui-{port}.json"
    record.write_bytes(content)
    res = run_cli("service", "status", "--port", str(port), "--state-dir", str(tmp_path))
    assert res.code == Exit.ERROR, res.err
    assert res.err.startswith(f"comfy_service: state file {record} cannot be read ({why}")
    assert res.err.endswith(f"; nothing listens on port {port}: move the file away\n")
    assert res.err.count("\n") == 1, res.err
    res = run_cli("service", "list", "--state-dir", str(tmp_path))
    assert f"port {port}: state file {record} cannot be read ({why}" in res.out, res.out
    assert record.read_bytes() == content


@pytest.mark.parametrize("args", [
    ["status", "--state-dir", ""],
    ["start", "--state-dir", ""],
    ["start", "--comfyui", ""],
    ["stop", "--config", ""],
    ["models", "--table", ""],
])
def test_an_empty_path_flag_is_refused_not_the_current_folder(args, tmp_path):
    """An empty path is no path: Path("") is the current folder, where `start --state-dir ""`
    would have written the server's state and logs. Refused as a usage error naming the
    flag, before anything runs; the folder it ran in stays empty."""
    proc = subprocess.run([sys.executable, "-m", "service", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    flag = args[args.index("") - 1]
    assert proc.returncode == Exit.USAGE, proc.stderr
    assert f"argument {flag}: the path is empty" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not any(tmp_path.iterdir())


def test_a_tail_of_no_lines_is_empty(tmp_path):
    """`logs -n 0` printed the whole log ([-0:] is every line), where tail prints none."""
    from service.manager import tail

    log = tmp_path / "a.log"
    log.write_text("one\ntwo\nthree\n")
    assert tail(log, 0) == "" and tail(log, 2) == "two\nthree" and tail(log, 9) == (
        "one\ntwo\nthree")
