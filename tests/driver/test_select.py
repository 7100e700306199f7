"""--only's grammar: char/action, action, char/ and @file; bad items named."""

from __future__ import annotations

import pytest

from driver.select import Selector, parse, selected, unknown
from tests.conftest import REPO, run_cli

ROSTER = {"hero": ["idle", "walk"], "boar": ["idle", "attack"]}
JOBS = [(c, a) for c, acts in ROSTER.items() for a in acts]


def _picked(text: str) -> list[str]:
    sel = parse(text)
    assert not unknown(sel, ROSTER)
    return [f"{c}/{a}" for c, a in JOBS if selected(sel, c, a)]


@pytest.mark.parametrize("text, jobs", [
    ("hero/walk", ["hero/walk"]),
    ("idle", ["hero/idle", "boar/idle"]),
    ("boar/", ["boar/idle", "boar/attack"]),
    ("hero/walk, attack", ["hero/walk", "boar/attack"]),
])
def test_forms(text, jobs):
    assert _picked(text) == jobs


def test_list_file(tmp_path):
    f = tmp_path / "rejects.txt"
    f.write_text("# from the review page\nhero/walk\n\n  boar/  # all of boar\n")
    assert parse(f"@{f}") == [Selector("hero", "walk"), Selector("boar", None)]
    assert _picked(f"@{f},idle") == ["hero/idle", "hero/walk", "boar/idle", "boar/attack"]


def test_a_list_saved_with_a_bom_reads_as_without(tmp_path):
    """Notepad's UTF-8 starts with a BOM: the first item read "no character '\ufeffhero'"."""
    f = tmp_path / "rejects.txt"
    f.write_bytes("hero/walk\r\nboar/idle\r\n".encode("utf-8-sig"))
    assert parse(f"@{f}") == [Selector("hero", "walk"), Selector("boar", "idle")]


@pytest.mark.parametrize("text, needle", [
    ("hero/dance", "hero has no action 'dance'; it has idle, walk"),
    ("hero", "write hero/"),
    ("wolf/idle", "no character 'wolf'"),
    ("jump", "no action 'jump'; the joblist has attack, idle, walk"),
])
def test_unknown_items_are_named(text, needle):
    (problem,) = unknown(parse(text), ROSTER)
    assert needle in problem


@pytest.mark.parametrize("text, needle", [
    ("a/b/c", "not char/action"), ("/walk", "not char/action"), (" , ", "names no job"),
])
def test_malformed(text, needle):
    with pytest.raises(ValueError, match=needle):
        parse(text)


def test_bad_list_files(tmp_path):
    with pytest.raises(ValueError, match="No such file"):
        parse(f"@{tmp_path / 'none.txt'}")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(ValueError, match="the list is empty"):
        parse(f"@{empty}")
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        parse(f"@{binary}")
    bad = tmp_path / "bad.txt"
    bad.write_text("hero/walk\nx/y/z\n")
    with pytest.raises(ValueError, match=r"bad.txt:2"):
        parse(f"@{bad}")



@pytest.mark.parametrize(("flag", "value", "line"), [
    ("--only", "", "driver batch: --only: names no job; give char/action, action, char/ or @file"),
    ("--chars", " , ", "driver batch: --chars ' , ' names nothing: give names, or leave the "
                       "flag out"),
])
def test_an_empty_selection_is_refused_not_read_as_every_job(tmp_path, flag, value, line):
    """`--only "$JOBS"` with JOBS unset ran the whole roster, as if the flag were not there.
    One line naming the flag, exit 1, nothing written (the joblist's out folder untouched)."""
    res = run_cli("driver", "batch", str(REPO / "examples" / "joblist.yaml"), flag, value,
                  "--dry-run", env={"H3SPRITE_STATE_DIR": str(tmp_path / "state")})
    assert res.code == 1 and res.err.strip() == line, res.err
