"""A local HTTP server that speaks the Hugging Face hub's resolve protocol, for
`comfy_service models` tests (HF_ENDPOINT points at it): HEAD gives the commit, ETag and
size; GET serves the bytes and honours Range. It can cut a connection mid-file and then
refuse, as a flaky link does."""

from __future__ import annotations

import hashlib
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Hub:
    files: dict[str, bytes]  # "owner/repo/path/in/repo" -> content
    cut_after: int | None = None  # cut every GET after this many bytes ...
    refuse_after_cut: bool = False  # ... and answer 503 to every GET after a cut
    requests: list[tuple[str, str, str]] = field(default_factory=list)  # method, path, Range
    bytes_sent: int = 0
    meet: int = 1  # a GET sends nothing until this many GETs are in flight (or 10 s passed)
    url: str = ""  # once started
    trickle: int | None = None  # send GETs' bodies this many bytes every 0.05 s (a slow link)
    most_at_once: int = 0  # the most GETs in flight together
    _cut: bool = False
    _active: int = 0
    _lock: threading.Condition = field(default_factory=threading.Condition)

    def start(self) -> str:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def _lookup(self) -> bytes | None:
                m = re.fullmatch(r"/([^/]+/[^/]+)/resolve/[^/]+/(.+)", self.path.split("?")[0])
                return hub.files.get(f"{m.group(1)}/{m.group(2)}") if m else None

            def _head(self, data: bytes, status=200, length=None, extra=None):
                self.send_response(status)
                self.send_header("X-Repo-Commit", COMMIT)
                self.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
                self.send_header("Content-Length", str(len(data) if length is None else length))
                self.send_header("Accept-Ranges", "bytes")
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()

            def do_HEAD(self):
                hub.requests.append(("HEAD", self.path, ""))
                data = self._lookup()
                if data is None:
                    self.send_error(404)
                    return
                self._head(data)

            def do_GET(self):
                with hub._lock:
                    hub._active += 1
                    hub.most_at_once = max(hub.most_at_once, hub._active)
                    hub._lock.notify_all()
                    hub._lock.wait_for(lambda: hub._active >= hub.meet, timeout=10)
                try:
                    self._get()
                finally:
                    with hub._lock:
                        hub._active -= 1

            def _get(self):
                rng = self.headers.get("Range", "")
                hub.requests.append(("GET", self.path, rng))
                data = self._lookup()
                if data is None:
                    self.send_error(404)
                    return
                if hub._cut and hub.refuse_after_cut:
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                start = int(m.group(1)) if (m := re.match(r"bytes=(\d+)-", rng)) else 0
                body = data[start:]
                if start:
                    self._head(data, 206, len(body), {
                        "Content-Range": f"bytes {start}-{len(data) - 1}/{len(data)}"})
                else:
                    self._head(data)
                if hub.cut_after is not None and not hub._cut:
                    hub._cut = True
                    self.wfile.write(body[:hub.cut_after])
                    hub.bytes_sent += min(len(body), hub.cut_after)
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)  # the cut: mid-file, no more bytes
                    return
                step = hub.trickle or len(body) or 1
                for i in range(0, len(body), step):
                    self.wfile.write(body[i:i + step])
                    hub.bytes_sent += len(body[i:i + step])
                    if hub.trickle:
                        self.wfile.flush()
                        time.sleep(0.05)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        return self.url

    def heal(self) -> None:
        self.cut_after, self.refuse_after_cut, self._cut = None, False, False

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
