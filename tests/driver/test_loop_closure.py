"""Loop closure (first frame = last_frame) and canvas changes: joblist settings, job
fingerprints, the dry run's reasons, and a real run through Preview Motion."""

from __future__ import annotations

import numpy as np
import yaml

from comfy_nodes.core import video
from driver import joblist_load
from driver.client import ComfyClient
from driver.jobs import build_jobs
from driver.plan import Options, plan
from driver.store import Store
from tests.conftest import REPO, run_cli
from tests.driver.conftest import draw_portrait


def _load(tmp_path, **changes) -> joblist_load.Loaded:
    for cid in ("hero", "boar"):
        if not (tmp_path / f"{cid}.png").exists():
            draw_portrait(tmp_path / f"{cid}.png", "hero" if cid == "hero" else "zombie")
    doc = {"workflow": str(REPO / "api_workflows" / "preview.json"),
           "size": {"megapixels": 0.2, "aspect": "1:1"},
           "actions": ["idle", "walk", "attack"], "wording": {"hero": "h", "boar": "b"},
           "characters": {"hero": {"portrait": "hero.png"}, "boar": {"portrait": "boar.png"}},
           "out": "_out", "work": "_work"}
    doc.update(changes)
    path = tmp_path / "joblist.yaml"
    path.write_text(yaml.safe_dump(doc))
    return joblist_load.load(path)


def test_loop_closure_settings_resolve(tmp_path):
    """Default off; `true` counts for looping actions only; a mapping names actions; a
    character's setting wins over the joblist's."""
    tmp = tmp_path
    job = _load(tmp)
    assert not any(job.loop_closure(c, a) for c in ("hero", "boar")
                   for a in ("idle", "walk", "attack"))
    job = _load(tmp, loop_closure=True)
    assert job.loop_closure("hero", "walk") and job.loop_closure("hero", "idle")
    assert not job.loop_closure("hero", "attack")  # a one-shot action
    job = _load(tmp, loop_closure={"attack": True},
                characters={"hero": {"portrait": "hero.png", "loop_closure": False},
                            "boar": {"portrait": "boar.png", "loop_closure": {"walk": True}}})
    assert not job.loop_closure("hero", "attack")
    assert job.loop_closure("boar", "walk") and job.loop_closure("boar", "attack")
    assert not job.loop_closure("boar", "idle")


def test_unknown_action_in_loop_closure_is_named(tmp_path):
    _load(tmp_path, loop_closure={"wakl": True})
    res = run_cli("driver", "check", str(tmp_path / "joblist.yaml"))
    assert res.code == 1 and "loop_closure names wakl" in res.err


def test_fingerprint_covers_canvas_and_loop_closure(tmp_path):
    """A new canvas re-generates every job; loop closure re-generates only the jobs it
    changes; the dry run says what changed."""
    base = {j.key: j for j in build_jobs(_load(tmp_path), "wf", [])}
    wide = {j.key: j for j in build_jobs(_load(tmp_path, size={"megapixels": 0.2,
                                                              "aspect": "16:9"}), "wf", [])}
    looped = {j.key: j for j in build_jobs(_load(tmp_path, loop_closure=True), "wf", [])}
    for key, j in base.items():
        assert wide[key].gen_fingerprint != j.gen_fingerprint
        changed = looped[key].gen_fingerprint != j.gen_fingerprint
        assert changed == j.recipe.loop, key
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    for j in base.values():
        store.put(j.key, fingerprint=j.fingerprint, gen_fingerprint=j.gen_fingerprint,
                  status="done", parts=j.parts)
    reasons = {p.job.key: p.why for p in plan(list(wide.values()), store, Options())}
    assert reasons["hero/walk"] == "inputs changed: canvas 448x448 -> 608x352"
    reasons = {p.job.key: p.why for p in plan(list(looped.values()), store, Options())}
    assert reasons["boar/idle"] == "inputs changed: loop_closure False -> True"
    assert not reasons["boar/attack"].startswith("inputs changed")
    store.close()


def test_preview_clip_returns_to_its_first_frame(tmp_path, comfy_server):
    """A real batch on the real server with loop closure: Preview Motion gets the prepared
    frame as last_frame too, so the clip's last frame is its first (up to H.264)."""
    draw_portrait(tmp_path / "hero.png", "hero")
    doc = {"server": {"url": f"http://127.0.0.1:{comfy_server.port}"},
           "workflow": str(REPO / "api_workflows" / "preview.json"),
           "size": {"canvas": [192, 192]}, "actions": ["walk"], "loop_closure": True,
           "wording": {"hero": "h"}, "characters": {"hero": {"portrait": "hero.png"}}}
    path = tmp_path / "joblist.yaml"
    path.write_text(yaml.safe_dump(doc))
    env = {"H3SPRITE_STATE_DIR": str(tmp_path / "state")}
    res = run_cli("driver", "batch", str(path), "-q", env=env)
    assert res.code == 0, res.err
    # The graph the server ran links the first frame's source to last_frame as well.
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    prompt_id = store.get("hero/walk").meta["prompt_ids"][-1]
    store.close()
    ran = ComfyClient(f"http://127.0.0.1:{comfy_server.port}").history(prompt_id)["prompt"][2]
    motion = next(n for n in ran.values() if n["class_type"] == "H3Sprite_PreviewMotion")
    assert motion["inputs"]["last_frame"] == motion["inputs"]["first_frame"]
    frames = video.decode(tmp_path / "_work" / "hero_walk" / "clip.mp4").frames
    assert np.abs(frames[-1].astype(int) - frames[0]).mean() < 2
    assert np.abs(frames[len(frames) // 2].astype(int) - frames[0]).mean() > 1
    doc["size"] = {"canvas": [224, 192]}
    path.write_text(yaml.safe_dump(doc))
    res = run_cli("driver", "batch", str(path), "--dry-run", env=env)
    assert res.code == 0 and "canvas 192x192 -> 224x192" in res.out, res.out
