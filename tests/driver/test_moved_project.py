"""A project folder (joblist, portraits, _out with the state database, _work) moved or
copied between two batches: it resumes where it is now. The state's rows keep the
absolute paths of the run that wrote them; nothing reads them back (real subprocesses
against the shared real ComfyUI)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import run_cli
from tests.driver.conftest import hero_joblist


def _project(root: Path, port: int) -> Path:
    return hero_joblist(root, ("idle", "attack"), name="joblist.yaml",
                        server={"url": f"http://127.0.0.1:{port}"},
                        size={"canvas": [256, 256]})


def _resumes_where_it_is(joblist: Path) -> None:
    """Nothing to do, and actions.json, status and the review page all list both sheets
    from the project's own _out."""
    out = joblist.parent / "_out"
    res = run_cli("driver", "batch", str(joblist), "-q", timeout=120)
    assert res.code == 0, res.err + res.out
    assert "done 0, skipped 2, failed 0" in res.out and "skipped 2: current" in res.out
    hero = json.loads((out / "actions.json").read_text())["characters"]["hero"]
    assert sorted(hero) == ["attack", "idle"]
    assert {hero[a]["sheet"] for a in hero} == {"hero/idle.json", "hero/attack.json"}
    status = run_cli("driver", "status", str(joblist), "--json", timeout=60)
    assert status.code == 0, status.err
    assert {r["job"]: r.get("grade") for r in json.loads(status.out)} == {
        "hero/idle": "CLEAN", "hero/attack": "one-shot"}
    review = run_cli("driver", "review", str(joblist), timeout=60)
    assert review.code == 0, review.err
    page = (out / "review.html").read_text()
    assert page.count('"image": "data:image/webp;base64,') == 2 and '"sheet": null' not in page


def test_a_moved_or_copied_project_resumes_where_it_is(tmp_path, comfy_server):
    """Moved, a rerun said "skipped 2: current" yet rewrote actions.json with no character
    (the sheets it read from the rows were at the old place), status lost the grades and the
    review page the sheets. Copied (the old folder still there), the rerun failed: "driver
    batch: '<old>/_out/hero/attack.json' is not in the subpath of '<new>/_out' ..."."""
    first = _project(tmp_path / "a", comfy_server.port)
    res = run_cli("driver", "batch", str(first), "-q", timeout=240)
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    copied = tmp_path / "copied"
    shutil.copytree(first.parent, copied, symlinks=True)
    # The old project's idle sheet now says WEAK: a copy that read the sheets where they
    # were written (where they still are) would report that, not its own CLEAN.
    old_idle = first.parent / "_out" / "hero" / "idle.json"
    kept = old_idle.read_text()
    doc = json.loads(kept)
    doc["meta"]["animation"]["loop_grade"] = "WEAK"
    old_idle.write_text(json.dumps(doc))
    _resumes_where_it_is(copied / "joblist.yaml")
    old_idle.write_text(kept)
    moved = tmp_path / "moved"
    shutil.move(first.parent, moved)
    _resumes_where_it_is(moved / "joblist.yaml")
