"""The one atomic_write, unique_path, poll_until and sha256_file (comfy_nodes/core/util.py),
and the one line driver.cli prints for an OSError (a file's, or an HTTP one)."""

from __future__ import annotations

import hashlib
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from comfy_nodes.core.util import atomic_write, poll_until, sha256_file, unique_path


def test_atomic_write_bytes_or_chunks_and_nothing_left_on_failure(tmp_path):
    p = tmp_path / "a.bin"
    atomic_write(p, b"one")
    atomic_write(p, iter([b"tw", b"o"]))
    assert p.read_bytes() == b"two"

    def broken():
        yield b"half"
        raise OSError("disk full")

    with pytest.raises(OSError):
        atomic_write(p, broken())
    assert p.read_bytes() == b"two"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.bin"]


def test_unique_path_never_hands_out_a_name_twice(tmp_path):
    got: list = []
    lock = threading.Lock()

    def take():
        for _ in range(10):
            p = unique_path(tmp_path / "logs", "run", ".log")
            with lock:
                got.append(p)

    threads = [threading.Thread(target=take) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 40 and all(p.is_file() for p in got)
    d = unique_path(tmp_path, "run", directory=True)
    assert d.is_dir() and d.name == "run"
    assert unique_path(tmp_path, "run", directory=True).name == "run-1"


def test_poll_until_returns_the_value_or_none_at_the_deadline():
    calls = []

    def ready():
        calls.append(1)
        return "yes" if len(calls) >= 3 else None

    assert poll_until(ready, timeout=5, interval=0.01) == "yes" and len(calls) == 3
    t = time.monotonic()
    assert poll_until(lambda: False, timeout=0.2, interval=0.05) is None
    assert 0.15 <= time.monotonic() - t < 2
    assert poll_until(lambda: 0, timeout=0) == 0  # 0 is a value, not "not yet"


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=300), chunk=st.integers(1, 64))
def test_sha256_file_is_the_sha256_of_the_bytes_whatever_the_chunk(data, chunk):
    """Chunked reading (a chunk far smaller than the file, or larger) hashes the same
    bytes as hashing the whole content at once."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.bin"
        path.write_bytes(data)
        assert sha256_file(path, chunk) == hashlib.sha256(data).hexdigest()
        assert sha256_file(str(path)) == hashlib.sha256(data).hexdigest()


def test_an_http_error_is_one_line_naming_the_url_and_what_to_do():
    """requests' errors are OSErrors without strerror or filename: the batch's line for a
    server answering 500 read "driver batch: None: None". A real server answers 500 here;
    an unreachable port and a file's error keep their own lines."""
    import http.server
    import threading

    import requests

    from driver.cli import os_error_line
    from service.api import NotJSON, request_error_line
    from tests.conftest import free_port

    class Broken(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_error(500)

        def log_message(self, *args):  # quiet
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Broken)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/object_info/LoadImage"
        with pytest.raises(requests.HTTPError) as e:
            requests.get(url, timeout=5).raise_for_status()
        line = (f"{url} answered 500 Internal Server Error: see the server's log "
                "(`comfy_service logs`), or restart it (`comfy_service restart`)")
        assert os_error_line(e.value) == line
        # A batch job's failure line for the same answer (it read "ComfyUI answered 500
        # Server Error: Internal Server Error for url: ...").
        assert request_error_line(e.value) == line
    finally:
        server.shutdown()
        server.server_close()
    port = free_port()
    with pytest.raises(requests.ConnectionError) as e:
        requests.get(f"http://127.0.0.1:{port}/object_info", timeout=5)
    # said "the ComfyUI server cannot be reached (HTTPConnectionPool(host='127.0.0.1',
    # port=P): Max retries exceeded with url: /object_info (Caused by NewConnectionError(...
    assert os_error_line(e.value) == (
        f"http://127.0.0.1:{port}/object_info refused the connection: is ComfyUI running? "
        "(`comfy_service status`)")
    # Another program's HTML page on the port: its own message, not "could not be reached".
    page = NotJSON("http://127.0.0.1:1/queue answered with a page that is not ComfyUI's JSON")
    assert os_error_line(page) == str(page)
    assert os_error_line(OSError(28, "No space left on device", "out/x.webp")) == (
        "No space left on device: out/x.webp: free some space on that disk, or choose a "
        "folder on another")
    # said "Operation not permitted: out/walk.json" and no more (an immutable file)
    assert os_error_line(OSError(1, "Operation not permitted", "out/walk.json")).endswith(
        ": out/walk.json: the system forbids changing it (an immutable or another user's "
        "file?); choose another folder")
    assert os_error_line(OSError(5, "Input/output error", "x")) == "Input/output error: x"


def test_did_you_mean_names_the_nearest_choice_or_all_of_them():
    from comfy_nodes.core.util import did_you_mean

    fields = ["seconds", "frames", "fps", "loop"]
    assert did_you_mean("frame", fields) == " (did you mean 'frames'?)"
    assert did_you_mean("zzz", ["b", "a"]) == ""
    assert did_you_mean("zzz", ["b", "a"], list_all=True) == " (one of: a, b)"
