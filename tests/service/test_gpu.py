"""One server per GPU: `comfy_service start --gpu N` and placement on the GPU it is given."""

from __future__ import annotations

import os
import stat

import psutil

from service import placement
from service.manager import Exit


def test_start_gpu_n_gives_the_server_only_that_card(spot):
    """The real ComfyUI process started with --gpu 1 sees CUDA_VISIBLE_DEVICES=1 (on this
    CPU machine it runs on the CPU, but the variable is what the driver sets per GPU)."""
    started = spot.service("start", "--gpu", "1", "--json")
    assert started.code == Exit.OK, started.err
    env = psutil.Process(started.json()["pid"]).environ()
    assert env.get("CUDA_VISIBLE_DEVICES") == "1"


def test_auto_placement_reads_the_gpu_it_is_given(tmp_path, monkeypatch):
    """There is no GPU here, so nvidia-smi is a stand-in script answering per --id the
    way the real one does (one line of MiB): card 0 is full, card 1 is free. Placement
    for card 1 must read card 1."""
    smi = tmp_path / "nvidia-smi"
    smi.write_text('#!/bin/sh\ncase "$*" in\n  *--id=1*) echo 81000 ;;\n'
                   '  *--id=0*) echo 2000 ;;\n  *) printf "2000\\n81000\\n" ;;\nesac\n')
    smi.chmod(smi.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert placement.gpu_free_gib(1) == 81000 / 1024
    assert placement.gpu_free_gib(0) == placement.gpu_free_gib() == 2000 / 1024
    assert placement.flags_for("auto", 19.5, [], gpu=1) == ("resident", ["--highvram"])
    assert placement.flags_for("auto", 19.5, [], gpu=0) == ("streaming", ["--lowvram"])
