"""`python -m benchmarks.trials`: a trial's case folder is scored as its fixture is, and a
folder that is no readable case is refused in one line (exit 2) before anything runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from benchmarks import trials
from tests import footage, scores


def _case_from_fixture(name: str, folder: Path) -> footage.Footage:
    """A case folder holding a fixture: its clip, portrait, every frame's truth."""
    fx = footage.footage(name)
    folder.mkdir()
    shutil.copy(fx.path, folder / "clip.mp4")
    Image.fromarray(fx.portrait).save(folder / "portrait.png")
    n = len(fx.clip.frames)
    np.savez_compressed(folder / "truth.npz", rgba=np.stack([fx.truth(t) for t in range(n)]))
    (folder / "case.json").write_text(json.dumps({"action": fx.action}))
    return fx


@pytest.fixture(scope="module")
def walk_case(tmp_path_factory) -> tuple[Path, footage.Footage]:
    """The flat walk fixture as a case folder (it has no light outline, so a case's body,
    its truth's alpha, is the fixture's body)."""
    folder = tmp_path_factory.mktemp("trial") / "walk"
    return folder, _case_from_fixture("walk_flat", folder)


def test_a_case_folder_scores_as_its_fixture(walk_case, capsys):
    """The walk fixture written out as a case folder: the same IoU, edge and interior
    numbers as the fixture's own report, and exit 0 (it is within the thresholds)."""
    folder, fx = walk_case
    assert trials.main([str(folder)]) == 0
    line = capsys.readouterr().out.splitlines()[1].split()
    r = scores.evaluate("walk_flat", fx)
    assert line[0] == "walk"
    assert float(line[1]) == pytest.approx(r.mean("iou"), abs=0.0005)
    assert float(line[3]) == pytest.approx(r.mean("edge_excess"), abs=0.05)
    assert float(line[4]) == pytest.approx(r.mean("interior_error"), abs=0.05)


@pytest.fixture(scope="module")
def turn_case(tmp_path_factory) -> Path:
    """The walk that turns round (FACING) as a case folder."""
    folder = tmp_path_factory.mktemp("trial") / "turns"
    _case_from_fixture("walk_turns", folder)
    return folder


@pytest.mark.parametrize("case, expect_flags, ok", [
    ("walk", [], True), ("walk", ["FACING"], False),  # a flag missing
    ("turns", ["FACING"], True), ("turns", [], False),  # a flag not expected
])
def test_a_case_that_names_its_flags_is_judged_on_them(walk_case, turn_case, tmp_path,
                                                       capsys, case, expect_flags, ok):
    """The walk raises no flag, the turning walk FACING, each within the thresholds: a
    case passes (exit 0) when its flags are the ones it names, and fails (exit 1) on a
    flag missing or one not named; the flags column shows the expected ones."""
    folder = tmp_path / case
    shutil.copytree(walk_case[0] if case == "walk" else turn_case, folder)
    (folder / "case.json").write_text(json.dumps({"action": "walk",
                                                  "expect_flags": expect_flags}))
    assert trials.main([str(folder)]) == (0 if ok else 1)
    out = capsys.readouterr().out.splitlines()
    raised = "-" if case == "walk" else "FACING"
    assert out[1].endswith(" ok" if ok else " FAIL"), out[1]
    assert f" {raised} ({','.join(expect_flags) or '-'}) " in out[1], out[1]
    assert out[-1].startswith(f"{int(ok)} of 1 within the thresholds (and raising"), out[-1]


@pytest.mark.parametrize("case_json, truth, expect", [
    (None, None, "lacks case.json"),
    ("{not json", None, "is not a JSON object"),
    ('["walk"]', None, "is not a JSON object"),
    ('{"act": "walk"}', None, '"action" is None'),
    ('{"action": "dance"}', None, '"action" is \'dance\''),
    ('{"action": "walk", "expect_flags": ["FACE"]}', None, '"expect_flags" is [\'FACE\']'),
    ('{"action": "walk", "expect_flags": "SMEAR"}', None, '"expect_flags" is \'SMEAR\''),
    ('{"action": "walk", "expect_flags": [["FACING"]]}', None, '"expect_flags" is [['),
    ('{"action": "walk", "expect_flags": [' + ", ".join(['"X"'] * 100000) + "]}", None,
     '"expect_flags" is [\'X\', \'X\''),
    ('{"action": ' + "[" * 5000 + "]" * 5000 + "}", None, "is not a JSON object"),
    ('{"action": "walk"}', np.zeros((4, 8, 8, 3), np.uint8), "must be uint8 (N, H, W, 4)"),
    ('{"action": "walk"}', b"not an npz", 'holds no readable "rgba"'),
])
def test_a_bad_case_folder_is_refused_in_one_line(walk_case, tmp_path, capsys, case_json,
                                                  truth, expect):
    """Each fault of a case folder, listed after a good one: exit 2, one line on stderr
    naming the file, nothing on stdout (no case ran, not even the good one), no
    traceback."""
    good = walk_case[0]
    bad = tmp_path / "bad"
    shutil.copytree(good, bad)
    if case_json is None:
        (bad / "case.json").unlink()
    else:
        (bad / "case.json").write_text(case_json)
    if isinstance(truth, np.ndarray):
        np.savez(bad / "truth.npz", rgba=truth)
    elif truth is not None:
        (bad / "truth.npz").write_bytes(truth)
    assert trials.main([str(good), str(bad)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and expect in out.err, out.err[:300]
    assert len(out.err) < 500  # quoting a few values of a huge one
    assert str(bad) in out.err


def test_a_portrait_without_alpha_is_refused(walk_case, tmp_path, capsys):
    """The portrait is read as the batch reads it (greenscreen.load_portrait): one without
    alpha is refused, with the fix."""
    folder = tmp_path / "walk"
    shutil.copytree(walk_case[0], folder)
    Image.open(folder / "portrait.png").convert("RGB").save(folder / "portrait.png")
    assert trials.main([str(folder)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no alpha channel" in err


def test_a_clip_that_does_not_decode_is_refused_in_one_line(walk_case, tmp_path, capsys):
    """A truncated clip.mp4 (its first 2 kB): the decoder's ClipError, one line, exit 2."""
    folder = tmp_path / "walk"
    shutil.copytree(walk_case[0], folder)
    (folder / "clip.mp4").write_bytes((walk_case[0] / "clip.mp4").read_bytes()[:2048])
    assert trials.main([str(folder)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "clip.mp4" in err, err
