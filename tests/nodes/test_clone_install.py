"""Install as ComfyUI-Manager, comfy-cli and the Registry do: `git clone` this repository
(this checkout as it is now, uncommitted files included) into a fresh ComfyUI's
custom_nodes/<any name>, install requirements.txt + install.py with ComfyUI's python,
start it: seven nodes, the templates and the web extension are there."""

from __future__ import annotations

import subprocess
from pathlib import Path

import requests

from service import manager
from service.config import resolve
from tests.conftest import REPO, free_port

FOLDER = "my-sprite-nodes"  # not our name, not a Python identifier


def _snapshot_repo(dest) -> None:
    """A git repository holding exactly this checkout's tracked and untracked, not ignored
    files (what a commit of the working tree would be), to clone from."""
    files = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=REPO,
                           capture_output=True, check=True).stdout.split(b"\0")
    dest.mkdir()
    subprocess.run(["git", "init", "-q", str(dest)], check=True)
    for name in filter(None, files):
        src = REPO / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            (dest / name.decode()).write_bytes(src.read_bytes())
    subprocess.run(["git", "add", "-A"], cwd=dest, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "s"],
                   cwd=dest, check=True)


def test_git_clone_into_custom_nodes_loads_the_pack(tmp_path, embedded_ready):
    _snapshot_repo(tmp_path / "src")
    base = tmp_path / "base"
    pack = base / "custom_nodes" / FOLDER
    subprocess.run(["git", "clone", "-q", str(tmp_path / "src"), str(pack)], check=True)
    py = str(embedded_ready.python)
    pip = subprocess.run([py, "-m", "pip", "install", "--no-index", "-r", "requirements.txt"],
                         cwd=pack, capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    wanted = [ln for ln in (pack / "requirements.txt").read_text().splitlines()
              if ln and not ln.startswith("#")]
    for req in wanted:  # each one already there: nothing downloaded, nothing replaced
        assert f"Requirement already satisfied: {req} " in pip.stdout, req
    assert "Successfully installed" not in pip.stdout
    inst = subprocess.run([py, "install.py"], cwd=pack, capture_output=True, text=True,
                          timeout=120)
    assert inst.returncode == 0 and "OpenCV already installed" in inst.stdout, inst.stdout

    port = free_port()
    cfg = resolve({"port": port, "state_dir": tmp_path / "state", "link_pack": False,
                   "extra_args": ["--base-directory", str(base),
                                  "--database-url", "sqlite:///:memory:"]})
    res = manager.start(cfg)
    try:
        assert res.code == manager.Exit.OK, f"{res.message}\n{res.detail}"
        url = f"http://127.0.0.1:{port}"
        info = requests.get(f"{url}/object_info", timeout=30).json()
        ours = sorted(k for k in info if k.startswith("H3Sprite_"))
        assert len(ours) == 7, ours
        templates = requests.get(f"{url}/workflow_templates", timeout=10).json()
        assert set(templates) == {FOLDER}, templates  # the API graphs are not cards
        assert len(templates[FOLDER]) == 2
        assert f"/extensions/{FOLDER}/h3sprite.js" in requests.get(
            f"{url}/extensions", timeout=10).json()
        assert (base / "input" / "h3sprite_sample_hero.png").is_file()
        log = Path(manager.latest_log(cfg)).read_text().splitlines()
        assert not [ln for ln in log if "IMPORT FAILED" in ln and FOLDER in ln]
    finally:
        manager.stop(cfg)


def test_a_checkout_named_as_no_python_name_runs_its_tests(tmp_path):
    """`h3sprite-main` (GitHub's ZIP) or a clone named `my-sprite-nodes`: pytest imports the
    checkout's __init__.py as a plain module there, and its relative import failed every
    test ("attempted relative import with no known parent package"). Reached through a
    link of that name, a test module of the suite passes."""
    import sys

    checkout = tmp_path / "h3sprite-main"
    checkout.symlink_to(REPO, target_is_directory=True)
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"--rootdir={checkout}", str(checkout / "tests" / "driver" /
                                                        "test_select.py")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
