"""Runs inside the embedded ComfyUI's python, with ComfyUI's root on sys.path."""

import sys

import pytest

if "--cpu" not in sys.argv:
    sys.argv.append("--cpu")  # comfy's option parsing reads argv on first import


@pytest.fixture
def output_dir(tmp_path):
    import folder_paths

    old = folder_paths.get_output_directory()
    folder_paths.set_output_directory(str(tmp_path))
    yield tmp_path
    folder_paths.set_output_directory(old)
