"""Re-roll and job selection against the real embedded ComfyUI (workflows/preview.json):
--only in all its forms, --reroll drawing a seed for one job only, kept on resume; the
joblist's formats written by the batch and listed in actions.json.

The tests share one workspace (one character, two actions) and run in order."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from tests.conftest import run_cli


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _plan(res) -> dict[str, tuple[str, str]]:
    out = {}
    for line in res.out.splitlines():
        key, what, reason = line.split(None, 2)
        out[key] = (what, reason)
    return out


@pytest.fixture(scope="module")
def ws(workspace):
    workspace.write(characters={"hero": {"portrait": "hero.png"}}, wording={"hero": "a hero"},
                    formats=["godot", "aseprite"], image_format="png")
    return workspace


def test_batch_writes_the_joblists_formats(ws):
    """formats: [godot, aseprite] + image_format: png: every sheet has its PNG strip,
    TexturePacker JSON, .aseprite.json and .tres, and actions.json lists each file."""
    res = ws.batch()
    assert res.code == 0, res.err + res.out
    assert "done 2, skipped 0, failed 0" in res.out
    entry = ws.actions()["characters"]["hero"]["idle"]
    assert entry["image"] == "hero/idle.png"
    assert entry["files"] == {"texturepacker": "hero/idle.json",
                              "aseprite": "hero/idle.aseprite.json", "godot": "hero/idle.tres"}
    for rel in entry["files"].values():
        assert (ws.out / rel).is_file()
    assert not (ws.out / "hero" / "idle.webp").exists()


def test_reroll_dry_run_shows_the_new_seed_and_changes_nothing(ws):
    res = ws.batch("--only", "hero/idle", "--reroll", "--dry-run")
    assert res.code == 0, res.err
    plan = _plan(res)
    assert list(plan) == ["hero/idle"]
    what, reason = plan["hero/idle"]
    assert what == "generate+process" and reason.startswith("re-roll: seed 1234 -> ")
    db = sqlite3.connect(ws.out / "h3sprite.sqlite")
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
    db.close()
    assert "seeds" not in tables  # a dry run records nothing


def test_reroll_changes_that_jobs_seed_and_clip_only(ws):
    """A new seed for hero/idle: its clip and sheet change, the old sheet is backed up,
    hero/attack is untouched; a plain run afterwards keeps the drawn seed (nothing to do)."""
    work = ws.root / "_work"
    idle_clip, attack_clip = work / "hero_idle" / "clip.mp4", work / "hero_attack" / "clip.mp4"
    before = {"idle_clip": _sha(idle_clip), "attack_clip": _sha(attack_clip),
              "idle": _sha(ws.out / "hero" / "idle.png"),
              "attack": _sha(ws.out / "hero" / "attack.png")}
    res = ws.batch("--only", "hero/idle", "--reroll")
    assert res.code == 0, res.err + res.out
    assert "done 1, skipped 0, failed 0" in res.out
    db = sqlite3.connect(ws.out / "h3sprite.sqlite")
    seeds = dict(db.execute("SELECT key, seed FROM seeds"))
    db.close()
    assert list(seeds) == ["hero/idle"] and seeds["hero/idle"] != 1234
    assert _sha(idle_clip) != before["idle_clip"]
    assert _sha(ws.out / "hero" / "idle.png") != before["idle"]
    assert _sha(attack_clip) == before["attack_clip"]
    assert _sha(ws.out / "hero" / "attack.png") == before["attack"]
    olds = list((ws.out / "_actions_old").glob("*/hero/idle.png"))
    assert len(olds) == 1 and _sha(olds[0]) == before["idle"]
    assert len(list((ws.out / "_actions_old").glob("*/hero/idle.tres"))) == 1
    again = ws.batch("--dry-run")
    assert {k: v[1] for k, v in _plan(again).items()} == {"hero/idle": "current",
                                                          "hero/attack": "current"}


def test_only_takes_a_list_file_and_every_form(ws, tmp_path):
    """@file (comments and blank lines skipped), char/, action and char/action."""
    listed = tmp_path / "rejects.txt"
    listed.write_text("# rejected in review\nhero/attack\n\n")
    for only, keys in ((f"@{listed}", ["hero/attack"]), ("hero/", ["hero/idle", "hero/attack"]),
                       ("idle", ["hero/idle"]), ("hero/attack,idle", ["hero/idle", "hero/attack"])):
        res = ws.batch("--only", only, "--dry-run")
        assert res.code == 0, res.err
        assert sorted(_plan(res)) == sorted(keys), only


@pytest.mark.parametrize("only, needle", [
    ("hero/dance", "hero has no action 'dance'"),
    ("hero", "write hero/"),
    ("boar/", "no character 'boar'"),
    ("@missing.txt", "No such file"),
    ("a/b/c", "is not char/action"),
])
def test_only_names_the_bad_item(ws, only, needle):
    res = ws.batch("--only", only, "--dry-run")
    assert res.code == 1 and needle in res.err and "Traceback" not in res.err
    assert len(res.err.strip().splitlines()) == 1


def test_reroll_needs_only(ws):
    res = run_cli("driver", "batch", str(ws.joblist), "--reroll", "--dry-run")
    assert res.code == 1 and "--reroll needs --only" in res.err
