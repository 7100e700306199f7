"""Planning is pure: a job, its stored row and the options decide what happens and why."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from comfy_nodes.core.recipes import DEFAULT_RECIPES
from driver.jobs import PARTS, Job, fingerprint_parts
from driver.plan import Options, Reason, decide
from driver.store import JobRow

GEN = {"portrait": "p1", "prompt": "a hero", "workflow": "w1", "overrides": {}, "models": [],
       "seed": 1, "frames": 29, "size": [256, 256], "action": "idle"}
POST = {"recipe": {"frames": 8}, "post": 1, "cell_height": 300, "max_width": 8000}


def job(tmp: Path, gen: dict, post: dict) -> Job:
    j = Job("hero", "idle", DEFAULT_RECIPES["idle"], tmp / "hero.png", gen["prompt"],
            gen["seed"], tuple(gen["size"]), tmp / "work", tmp / "out")
    j.parts = fingerprint_parts(gen, post)
    j.gen_fingerprint = "|".join(j.parts[k] for k in list(PARTS)[:8])
    j.fingerprint = "|".join(j.parts.values())
    return j


def test_the_plan_names_each_changed_input(tmp_path):
    """Changing one input at a time: the plan names exactly that input, with old -> new
    values where they are short enough to read."""
    old = job(tmp_path, GEN, POST)
    row = JobRow(old.key, old.fingerprint, old.gen_fingerprint, "done", parts=old.parts)
    changes = {"portrait": ({"portrait": "p2"}, {}), "wording": ({"prompt": "a knight"}, {}),
               "seed 1 -> 2": ({"seed": 2}, {}),
               "canvas 256x256 -> 320x192": ({"size": [320, 192]}, {}),
               "length 29 frames -> 49 frames": ({"frames": 49}, {}),
               "loop_closure False -> True": ({"loop_closure": True}, {}),
               "workflow": ({"overrides": {"@action": {"x": 1}}}, {}),
               "recipe": ({}, {"recipe": {"frames": 6}}),
               "post-processing": ({}, {"cell_height": 200}),
               "formats": ({}, {"files": [["texturepacker", "godot"], "webp"]})}
    for name, (gen_change, post_change) in changes.items():
        new = job(tmp_path, {**GEN, **gen_change}, {**POST, **post_change})
        p = decide(new, row, Options())
        assert (p.reason, p.why, p.generate) == (
            Reason.CHANGED, f"inputs changed: {name}", True), name


def test_reasons_without_files(tmp_path):
    j = job(tmp_path, GEN, POST)
    assert decide(j, None, Options()).reason == Reason.NEW
    assert decide(j, None, Options(force=True)).reason == Reason.FORCED
    failed = JobRow(j.key, j.fingerprint, j.gen_fingerprint, "failed", error="OOM")
    assert decide(j, failed, Options()).why == "failed before (OOM)"
    running = JobRow(j.key, j.fingerprint, j.gen_fingerprint, "running")
    assert decide(j, running, Options()).reason == Reason.INTERRUPTED
    done = JobRow(j.key, j.fingerprint, j.gen_fingerprint, "done")  # its files are missing
    assert decide(j, done, Options()).reason == Reason.OUTPUTS_BAD
    old_row = JobRow(j.key, "other", "other", "done")  # written before parts were stored
    assert decide(j, old_row, Options()).why == "inputs changed"
    p = decide(j, old_row, Options(reuse_video=True))  # no clip kept: nothing to do
    assert (p.reason, p.process) == (Reason.NO_CLIP, False)


def test_forced_with_reuse_video_every_job_is_processed_from_its_clip(tmp_path):
    """--force --reuse-video: each job whose clip is kept (made from the same generation
    inputs, with its frames) is processed again from it, generating nothing; one without
    a clip is skipped. Before, forcing made no clip reusable and every job was skipped."""
    from comfy_nodes.core import video

    j = job(tmp_path, GEN, POST)
    done = JobRow(j.key, j.fingerprint, j.gen_fingerprint, "done", parts=j.parts)
    forced = Options(force=True, reuse_video=True)
    assert (decide(j, done, forced).reason, decide(j, done, forced).process) == (
        Reason.NO_CLIP, False)  # no clip yet
    j.clip_path.parent.mkdir(parents=True)
    video.encode(np.zeros((j.frames, 32, 32, 3), np.uint8), j.clip_path)
    p = decide(j, done, forced)
    assert (p.reason, p.process, p.generate, p.why) == (
        Reason.FORCED, True, False, "forced, clip reused")
    p = decide(j, done, Options(force=True))  # forced alone: generated again
    assert (p.process, p.generate) == (True, True)
