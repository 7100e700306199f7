"""Runs tests/nodes/inside under the embedded ComfyUI's python (torch + comfy_api)."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import REPO


def test_nodes_execute_inside_comfyui_python(embedded_ready):
    """Every node's execute passes its direct tests in ComfyUI's own interpreter."""
    env = {**os.environ, "PYTHONPATH": f"{embedded_ready.comfyui}{os.pathsep}{REPO}"}
    proc = subprocess.run(
        [str(embedded_ready.python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--confcutdir", str(REPO / "tests/nodes/inside"), "--rootdir",
         str(REPO / "tests/nodes/inside"), str(REPO / "tests/nodes/inside")],
        cwd=embedded_ready.comfyui, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout
