"""A batch workspace: drawn portraits, a joblist, an isolated embedded server spot."""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import yaml
from PIL import Image

from comfy_nodes.core.util import poll_until
from service import manager
from service.config import resolve
from tests import synth
from tests.conftest import REPO, free_port, run_cli


def hero_joblist(root: Path, actions: tuple[str, ...] = ("idle",), name: str = "j.yaml",
                 with_state: bool = False, **changes) -> Path:
    """A one-character joblist in `root` (created): hero.png drawn beside it, the CPU
    preview workflow, `actions`, and `changes` merged over that; `with_state`: an empty
    state database in _out, as after a batch that did nothing."""
    from driver.store import Store

    root.mkdir(parents=True, exist_ok=True)
    draw_portrait(root / "hero.png", "hero")
    path = root / name
    path.write_text(yaml.safe_dump({
        "workflow": str(REPO / "api_workflows" / "preview.json"), "actions": list(actions),
        "wording": {"hero": "a hero"}, "characters": {"hero": {"portrait": "hero.png"}},
        **changes}))
    if with_state:
        Store(root / "_out" / "h3sprite.sqlite").close()
    return path


def draw_portrait(path: Path, palette: str, size=(160, 240), colour=None) -> None:
    char = synth.Character(palette=dict(synth.PALETTES[palette]))
    if colour is not None:  # every part one colour (e.g. the key green itself)
        char = synth.Character(palette={k: colour for k in synth.PALETTES[palette]})
    Image.fromarray(synth.portrait(char, size=size), "RGBA").save(path)


def wait_running(urls: list[str], proc: subprocess.Popen, timeout: float) -> bool:
    """Whether every server in urls was running a prompt at once within timeout seconds,
    while the driver `proc` kept running (its exit fails the test with its output)."""
    def running(url: str) -> bool:
        try:
            return bool(requests.get(f"{url}/queue", timeout=2).json()["queue_running"])
        except requests.RequestException:  # a server still starting, or killed
            return False

    def all_running() -> bool:
        assert proc.poll() is None, proc.communicate()
        return all(running(u) for u in urls)

    return bool(poll_until(all_running, timeout, interval=0.1))


@dataclass
class Workspace:
    root: Path
    port: int
    state_dir: Path
    base_dir: Path

    @property
    def joblist(self) -> Path:
        return self.root / "joblist.yaml"

    @property
    def out(self) -> Path:
        return self.root / "_out"

    def env(self) -> dict:
        return {"H3SPRITE_STATE_DIR": str(self.state_dir)}

    def write(self, **changes) -> Path:
        doc = {
            "server": {"url": "embedded", "port": self.port, "before_video": "switch",
                       "hang_seconds": 60,
                       "comfy_args": ["--base-directory", str(self.base_dir),
                                      "--database-url", "sqlite:///:memory:"]},
            "workflow": str(REPO / "api_workflows" / "preview.json"),
            "size": {"canvas": [256, 256]},
            "actions": ["idle", "attack"],
            "wording": {"hero": "a hero", "zombie": "a zombie"},
            "characters": {"hero": {"portrait": "hero.png"},
                           "zombie": {"portrait": "zombie.png"}},
        }
        for key, value in changes.items():
            if value is None:
                doc.pop(key, None)
            else:
                doc[key] = value
        self.joblist.write_text(yaml.safe_dump(doc))
        return self.joblist

    def batch(self, *args: str, timeout: float = 300):
        return run_cli("driver", "batch", str(self.joblist), *args, timeout=timeout,
                       env=self.env())

    def service_config(self):
        return resolve({"port": self.port, "state_dir": self.state_dir,
                        "extra_args": ["--base-directory", str(self.base_dir),
                                       "--database-url", "sqlite:///:memory:"]})

    def server_pid(self) -> int | None:
        st = manager.load_state(self.service_config())
        return st.pid if st else None

    def actions(self) -> dict:
        return json.loads((self.out / "actions.json").read_text())


@pytest.fixture(scope="module")
def workspace(tmp_path_factory, embedded_ready):
    root = tmp_path_factory.mktemp("batch")
    ws = Workspace(root, free_port(), root / "state", root / "base")
    ws.base_dir.mkdir()
    draw_portrait(root / "hero.png", "hero")
    draw_portrait(root / "zombie.png", "zombie")
    ws.write()
    old = os.environ.get("H3SPRITE_STATE_DIR")
    yield ws
    manager.stop(ws.service_config())
    if old is not None:
        os.environ["H3SPRITE_STATE_DIR"] = old
