"""Runs inside the embedded ComfyUI's python, with ComfyUI's root on sys.path."""

import importlib.util
import sys
from pathlib import Path

import pytest
from comfy.cli_args import args  # ComfyUI parses no argv here: defaults

args.cpu = True  # as the server's --cpu: this torch is a CPU build


@pytest.fixture
def output_dir(tmp_path):
    import folder_paths

    old = folder_paths.get_output_directory()
    folder_paths.set_output_directory(str(tmp_path))
    yield tmp_path
    folder_paths.set_output_directory(old)


@pytest.fixture(autouse=True)
def temp_dir(tmp_path_factory):
    """Previews (ComfyUI's temp folder) go to a test folder, not the shared ComfyUI's."""
    import folder_paths

    old = folder_paths.get_temp_directory()
    folder_paths.set_temp_directory(str(tmp_path_factory.mktemp("comfy_temp")))
    yield
    folder_paths.set_temp_directory(old)


def load_synth():
    """tests/synth.py by path: ComfyUI's root (first on sys.path here) has its own `tests`."""
    path = Path(__file__).resolve().parents[2] / "synth.py"
    spec = importlib.util.spec_from_file_location("h3sprite_test_synth", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
