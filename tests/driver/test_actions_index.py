"""actions.json: the game's index of every sheet, rewritten after each job."""

from __future__ import annotations

import json

from driver import actions
from driver.outputs import OLD_DIR


def test_a_users_own_actions_json_is_moved_aside_not_overwritten(tmp_path):
    """A file of that name the batch did not write (a user's, another tool's) goes to
    _actions_old whole before the index is written; the index itself, rewritten after the
    next job, is not backed up each time."""
    mine = tmp_path / "actions.json"
    mine.write_text('{"mine": true}\n')
    assert actions.write(tmp_path, []) == mine
    kept = list((tmp_path / OLD_DIR).glob("*/actions.json"))
    assert [p.read_text() for p in kept] == ['{"mine": true}\n']
    doc = json.loads(mine.read_text())
    assert set(doc) == {"version", "generated", "characters"} and doc["characters"] == {}
    actions.write(tmp_path, [])
    assert len(list((tmp_path / OLD_DIR).glob("*/actions.json"))) == 1


def test_an_index_that_only_looks_like_ours_is_kept_too(tmp_path):
    """Our three keys and another version, an extra key, a list, damaged JSON: each is
    someone else's and is moved aside."""
    for i, text in enumerate(['{"version": 2, "generated": "", "characters": {}}',
                              '{"version": 1, "generated": "", "characters": {}, "x": 1}',
                              '[1, 2]', '{"version": 1,']):
        (tmp_path / "actions.json").write_text(text)
        actions.write(tmp_path, [])
        kept = sorted(p.read_text() for p in (tmp_path / OLD_DIR).glob("*/actions.json"))
        assert len(kept) == i + 1 and text in kept
