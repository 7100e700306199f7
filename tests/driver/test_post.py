"""A batch job's post-processing (driver/post.py), called as the batch calls it: a real
clip, a real joblist, state database and sheet folder."""

from __future__ import annotations

from comfy_nodes.core.pipeline import full_frames
from comfy_nodes.core.video import decode
from driver.generate import Generated
from driver.joblist_load import load
from driver.jobs import build_jobs
from driver.post import Post
from driver.report import Progress, Summary
from driver.store import Status, Store
from tests.conftest import REPO
from tests.driver.conftest import hero_joblist


def test_cells_max_width_shrinks_under_16_px_fail_the_job_naming_a_width(tmp_path):
    """max_width 96 leaves a hurt's 6 cells 16 px each (driver check lets it through), but
    this wolf, 1.8 times as wide as high, comes out 15x8 px a cell: the job fails in one
    line naming a max_width that keeps cells 16 px high, and no sheet is written (it was,
    graded, with its 8 px cells)."""
    loaded = load(hero_joblist(tmp_path, ("hurt",), max_width=96))
    (job,) = build_jobs(loaded, "workflow-sha", [])
    store, summary = Store(loaded.out / "h3sprite.sqlite"), Summary()
    clip = decode(REPO / "tests" / "clips" / "hurt_wolf_tail_raised.mp4",
                  keep=full_frames(job.recipe))
    Post(loaded, store, summary, Progress(quiet=True)).process(job, clip,
                                                                Generated("", reused=True))
    line = ("post-processing: max_width 96 shrinks the hurt cells to 15x8 px, under 16 px "
            "high: give max_width 192 or more")
    assert summary.failed == [("hero/hurt", line)] and not summary.done
    row = store.get("hero/hurt")
    assert row is not None and row.status == Status.FAILED and row.error == line
    assert not job.webp.exists() and not job.json.exists()
    store.close()
