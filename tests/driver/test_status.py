"""`driver status` as text: the server column of a batch on several servers, aligned,
from a real store file through the real CLI (no server is needed to read it)."""

from __future__ import annotations

import yaml

from driver.store import Status, Store
from tests.conftest import REPO, run_cli

LOCAL, REMOTE = "http://127.0.0.1:8190", "http://10.0.0.7:8188"


def _workspace(tmp_path, servers: dict, other: str = REMOTE) -> None:
    """A joblist with `servers`, and a store whose hero/attack ran on `other`."""
    doc = {"workflow": str(REPO / "api_workflows" / "preview.json"),
           "actions": ["idle", "attack"], "wording": {"hero": "h", "boar": "b"},
           "characters": {"hero": {"portrait": "hero.png"}, "boar": {"portrait": "boar.png"}},
           **servers}
    (tmp_path / "joblist.yaml").write_text(yaml.safe_dump(doc))
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    store.put("hero/idle", status=Status.DONE, attempts=1, meta={"server": LOCAL})
    store.put("hero/attack", status=Status.FAILED, attempts=3, error="lost the server",
              meta={"server": other})
    store.put("boar/idle", status=Status.DONE, attempts=2, meta={"server": LOCAL})
    store.close()  # boar/attack never ran


def _status(tmp_path) -> dict[str, str]:
    res = run_cli("driver", "status", str(tmp_path / "joblist.yaml"))
    assert res.code == 1, res.err  # hero/attack failed
    return {line.split()[0]: line for line in res.out.splitlines()}


def test_status_names_each_jobs_server_in_an_aligned_column(tmp_path):
    _workspace(tmp_path, {"servers": [{"port": 8190}, {"url": REMOTE}]})
    lines = _status(tmp_path)
    assert set(lines) == {"hero/idle", "hero/attack", "boar/idle", "boar/attack"}
    assert lines["hero/idle"].split()[1:4] == ["done", LOCAL, "tries"]
    assert lines["hero/attack"].split()[1:4] == ["failed", REMOTE, "tries"]
    assert lines["hero/attack"].endswith("(lost the server)")
    assert lines["boar/attack"].split()[1:4] == ["never", "run", "-"]
    assert len({line.index(" tries ") for line in lines.values()}) == 1  # one column


def test_status_on_one_server_has_no_server_column_unless_rows_name_two(tmp_path):
    _workspace(tmp_path, {"server": {"port": 8190}}, other=LOCAL)
    lines = _status(tmp_path)
    assert not any("http" in line for line in lines.values())
    assert lines["hero/idle"].split()[1:4] == ["done", "tries", "1"]
    # the joblist went from servers: to server: since those jobs ran: still told apart
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    store.put("boar/idle", meta={"server": REMOTE})
    store.close()
    lines = _status(tmp_path)
    assert lines["boar/idle"].split()[1:3] == ["done", REMOTE]


def test_a_killed_batchs_job_is_interrupted_and_a_lost_sheet_missing(tmp_path):
    """A job the database calls running, with no batch holding the out folder (its batch
    was killed: SIGKILL leaves the row as it was), reads "interrupted", not "running" for
    ever; while a batch holds the folder it is "running". A done job whose recorded sheet
    is gone reads "missing" and `status` exits 1 (it said done, exit 0)."""
    from driver.outputs import hold

    _workspace(tmp_path, {"server": {"port": 8190}}, other=LOCAL)
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    store.put("hero/attack", status=Status.RUNNING, error=None)
    store.put("hero/idle", outputs={"json": str(tmp_path / "_out" / "hero" / "idle.json")})
    store.close()
    res = run_cli("driver", "status", str(tmp_path / "joblist.yaml"))
    lines = {line.split()[0]: line.split()[1] for line in res.out.splitlines()}
    assert lines == {"hero/idle": "missing", "hero/attack": "interrupted", "boar/idle": "done",
                     "boar/attack": "never"}, res.out
    assert res.code == 1
    lock = hold(tmp_path / "_out")  # a batch at work (this process)
    try:
        res = run_cli("driver", "status", str(tmp_path / "joblist.yaml"))
    finally:
        lock.release()
    lines = {line.split()[0]: line.split()[1] for line in res.out.splitlines()}
    assert lines["hero/attack"] == "running", res.out


GOOD = (b'{"meta": {"image": "idle.webp", "cell": {"w": 1, "h": 1}, "animation": {"fps": 12, '
        b'"loop": true, "frame_count": 1, "loop_grade": "CLEAN", "loop_score": 0.9, '
        b'"qc": []}}, "frames": {"hero/idle/00": {"anchor": {"x": 0.5, "y": 1.0}}}}')
DAMAGED = {"not json": b"{not json", "empty object": b"{}",
           # each ended in exit 70 (OverflowError, RecursionError), or was read as
           # ['N', 'O', 'I', 'S', 'E'], or named a file outside the sheet's folder
           "huge count": GOOD.replace(b'"frame_count": 1', b'"frame_count": 1e999'),
           "deep": b"[" * 100_000 + b"]" * 100_000,
           "qc a string": GOOD.replace(b'"qc": []', b'"qc": "NOISE"'),
           "absolute image": GOOD.replace(b'"idle.webp"', b'"/etc/hostname"'),
           "image up": GOOD.replace(b'"idle.webp"', b'"../idle.webp"'),
           "no loop": b'{"meta": {"animation": {}}}', "binary": bytes(range(256)) * 4,
           "frames empty": b'{"meta": {"image": "idle.webp", "cell": {"w": 1, "h": 1}, '
                           b'"animation": {"fps": 12, "loop": true, "frame_count": 1, '
                           b'"loop_grade": "CLEAN", "loop_score": 0.9, "qc": []}}, '
                           b'"frames": {}}'}


def test_a_damaged_sheet_json_reads_as_missing_not_a_traceback(tmp_path):
    """`driver status` read a done job's sheet JSON bare: "{not json" printed json's words
    with no file named, and "{}" ended in "internal error KeyError: 'meta'" (exit 70).
    A JSON that cannot be read back is a sheet the next run must make: "missing", exit 1,
    nothing on stderr; the intact one beside it still shows its grade."""
    _workspace(tmp_path, {"server": {"port": 8190}}, other=LOCAL)
    folder = tmp_path / "_out" / "hero"
    folder.mkdir(parents=True)
    sheet = folder / "idle.json"
    (folder / "idle.webp").write_bytes(b"RIFF")
    sheet.write_bytes(GOOD)
    store = Store(tmp_path / "_out" / "h3sprite.sqlite")
    store.put("hero/idle", outputs={"json": str(sheet)})
    store.close()

    def hero_idle() -> list[str]:
        res = run_cli("driver", "status", str(tmp_path / "joblist.yaml"))
        assert res.code == 1 and res.err == "", res.err  # hero/attack failed
        return next(ln.split() for ln in res.out.splitlines() if ln.startswith("hero/idle"))

    assert hero_idle()[1:5] == ["done", "tries", "1", "CLEAN"]
    for what, data in DAMAGED.items():
        sheet.write_bytes(data)
        assert hero_idle()[1:4] == ["missing", "tries", "1"], what
