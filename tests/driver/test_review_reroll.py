"""The morning after, against the real embedded ComfyUI (api_workflows/preview.json): the
joblist's formats written by the batch and listed in actions.json; --only in all its forms,
--reroll drawing a seed for one job only, kept on resume; `driver review`'s page opened
from file:// in headless Chromium.

The tests share one workspace (one character, two actions) and run in order."""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import sqlite3
import subprocess

import pytest

from tests.conftest import REPO, run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


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
    # Every test here reads a batch's state: made here, not by whichever test runs first
    # (the review page's test alone found "no batch has run").
    res = workspace.batch()
    assert res.code == 0, res.err + res.out
    return workspace


def test_batch_writes_the_joblists_formats(ws):
    """formats: [godot, aseprite] + image_format: png: every sheet has its PNG strip,
    TexturePacker JSON, .aseprite.json and .tres, and actions.json lists each file."""
    res = ws.batch("--force")
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
    old_dir = ws.out / "_actions_old"
    backed_up = {*old_dir.glob("*/hero/idle.png"), *old_dir.glob("*/hero/idle.tres")}
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
    olds = [p for p in old_dir.glob("*/hero/idle.png") if p not in backed_up]
    assert len(olds) == 1 and _sha(olds[0]) == before["idle"]
    assert len([p for p in old_dir.glob("*/hero/idle.tres") if p not in backed_up]) == 1
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


def test_review_page_animates_filters_and_exports_rejects(ws, tmp_path):
    """review.html from file:// with no other request: one card per job of the roster
    (zombie never ran), each sheet animated (frame indices advance), filters change the
    count, the background switches, a reject mark exports a list --only @file takes."""
    if not CHROMIUM:
        pytest.skip("no chromium (apt-get install chromium; make browser does it)")
    from playwright.sync_api import sync_playwright

    ws.write(characters={"hero": {"portrait": "hero.png"}, "zombie": {"portrait": "zombie.png"}},
             wording={"hero": "a hero", "zombie": "a zombie"}, formats=["godot", "aseprite"],
             image_format="png")
    res = run_cli("driver", "review", str(ws.joblist))
    assert res.code == 0, res.err
    page_path = ws.out / "review.html"
    assert page_path.is_file() and "file://" in res.out
    out_dir = REPO / "tests" / "_outputs"
    out_dir.mkdir(exist_ok=True)
    foreign: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800},
                                    accept_downloads=True)
            page.on("request", lambda r: None if r.url.startswith(("file:", "data:", "blob:"))
                    else foreign.append(r.url))
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(page_path.as_uri())
            labels = page.eval_on_selector_all(".card .label", "els => els.map(e => e.textContent)")
            assert labels == ["hero/idle", "hero/attack", "zombie/idle", "zombie/attack"]
            assert page.locator(".sprite").count() == 2
            seen: list[set[str]] = [set(), set()]
            for _ in range(12):
                frames = page.eval_on_selector_all(".sprite",
                                                   "els => els.map(e => e.dataset.frame)")
                for s, f in zip(seen, frames, strict=True):
                    s.add(f)
                page.wait_for_timeout(120)
            assert all(len(s) >= 3 for s in seen), seen
            page.screenshot(path=str(out_dir / "review.png"), full_page=True)

            def shown() -> int:
                return page.locator(".card:not([hidden])").count()

            assert page.inner_text("#count") == "4 of 4 shown"
            page.click("#filters button[data-f=failed]")
            assert shown() == 2 and page.inner_text("#count") == "2 of 4 shown"
            page.click("#filters button[data-f=all]")
            assert shown() == 4
            page.click("#bgs button[data-bg=magenta]")
            bg = page.eval_on_selector(".stage", "e => getComputedStyle(e).backgroundColor")
            assert bg == "rgb(255, 0, 255)"
            page.check(".card[data-key='hero/idle'] input[type=checkbox]")
            page.click("#filters button[data-f=rejected]")
            assert shown() == 1
            with page.expect_download() as dl:
                page.click("#export-btn")
            listed = tmp_path / "rejects.txt"
            dl.value.save_as(listed)
            assert page.input_value("#export-text") == "hero/idle\n"
            command = page.text_content("#export-cmd") or ""
            page.reload()  # the marks are kept in the page
            assert page.locator(".card[data-key='hero/idle'] input:checked").count() == 1
            assert not errors, errors
        finally:
            browser.close()
    assert not foreign, foreign
    assert listed.read_text() == "hero/idle\n"
    res = ws.batch("--only", f"@{listed}", "--dry-run")
    assert res.code == 0, res.err
    assert list(_plan(res)) == ["hero/idle"]
    # The page's command, as copied, beside the list it saved (with --dry-run added)
    words = shlex.split(command)
    words.insert(words.index("--"), "--dry-run")
    run = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, **ws.env()})
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[:3] == ["hero/idle", "generate+process", "re-roll:"], run.stdout


@pytest.mark.parametrize("verb", ["review", "status"])
def test_review_and_status_before_any_batch_are_one_line(tmp_path, verb):
    """`driver review` and `driver status` with no batch state yet: exit 1, one line
    naming the verb and the missing file; nothing is written (no database either)."""
    import yaml

    from .conftest import draw_portrait

    draw_portrait(tmp_path / "hero.png", "hero")
    (tmp_path / "j.yaml").write_text(yaml.safe_dump({
        "workflow": str(REPO / "api_workflows" / "preview.json"), "actions": ["idle"],
        "characters": {"hero": {"portrait": "hero.png"}}}))
    res = run_cli("driver", verb, str(tmp_path / "j.yaml"))
    assert res.code == 1 and f"driver {verb}: no batch has run" in res.err
    assert "h3sprite.sqlite" in res.err
    assert len(res.err.strip().splitlines()) == 1
    assert not (tmp_path / "_out" / "review.html").exists()
    assert not (tmp_path / "_out" / "h3sprite.sqlite").exists()
