"""Shared fixtures: free ports, the real embedded ComfyUI, and running our CLIs for real."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from service import manager
from service.config import resolve
from service.embedded import default_embedded

REPO = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class CliRun:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


def run_cli(module: str, *args: str, timeout: float = 240, env: dict | None = None) -> CliRun:
    """Run `python -m module args` as a real subprocess of our own interpreter."""
    proc = subprocess.run([sys.executable, "-m", module, *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})
    return CliRun(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture(scope="session")
def embedded_ready():
    emb = default_embedded()
    if not emb.is_ready():
        pytest.fail("the embedded ComfyUI is not built: run `make test` (it runs "
                    "`comfy_service setup` first)")
    return emb


@dataclass
class ServerSpot:
    """Where one isolated test server lives: its port, state folder and base directory."""

    port: int
    state_dir: Path
    base_dir: Path

    def args(self) -> list[str]:
        return ["--port", str(self.port), "--state-dir", str(self.state_dir)]

    def comfy_args(self) -> list[str]:
        return ["--", "--base-directory", str(self.base_dir),
                "--database-url", "sqlite:///:memory:"]

    def config(self):
        return resolve({"port": self.port, "state_dir": self.state_dir,
                        "extra_args": self.comfy_args()[1:]})

    def service(self, verb: str, *extra: str, timeout: float = 240) -> CliRun:
        args = [verb, *self.args(), *extra]
        if verb in ("start", "restart"):
            args += self.comfy_args()
        return run_cli("service", *args, timeout=timeout)


def make_spot(root: Path) -> ServerSpot:
    spot = ServerSpot(free_port(), root / "state", root / "base")
    spot.base_dir.mkdir(parents=True, exist_ok=True)
    return spot


@pytest.fixture
def spot(tmp_path, embedded_ready):
    """A fresh server spot; whatever the test started there is stopped afterwards."""
    s = make_spot(tmp_path)
    yield s
    manager.stop(s.config())


@pytest.fixture(scope="session")
def comfy_server(tmp_path_factory, embedded_ready):
    """One real embedded ComfyUI with our pack, shared by the tests that only talk to it."""
    s = make_spot(tmp_path_factory.mktemp("comfy_server"))
    res = manager.start(s.config())
    if res.code != manager.Exit.OK:
        pytest.fail(f"could not start the embedded ComfyUI: {res.message}\n{res.detail}")
    yield s
    manager.stop(s.config())


@pytest.fixture
def read_only_folder(tmp_path):
    """An empty folder that nobody, root included, can write into: a read-only bind mount
    of itself (root only, like the full-disk tests; a chmod does not stop root)."""
    folder = tmp_path / "read_only"
    folder.mkdir()
    res = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True,
                         text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot bind-mount here ({res.stderr.strip()}): needs root")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True,
                       capture_output=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
