"""`driver review --out FILE` writes the page only where nothing is or over an earlier page
of ours; anything else there is refused in one line and left as it was (real subprocesses;
the state is an empty batch database, so no server is needed)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli
from tests.driver.conftest import hero_joblist


@pytest.fixture
def joblist(tmp_path) -> Path:
    return hero_joblist(tmp_path, with_state=True)  # a batch has run (nothing done)


def _snapshot(path: Path) -> tuple[bool, bool, bytes | None]:
    """What is at path, without opening anything but a regular file."""
    is_link, is_dir = path.is_symlink(), path.is_dir()
    regular = path.is_file() and not is_link
    return is_link, is_dir, path.read_bytes() if regular else None


@pytest.mark.parametrize("kind,needle", [
    ("notes", "is not a review page of h3sprite"),
    ("joblist", "is the joblist"),
    ("portrait", "is hero's portrait"),
    ("fifo", "not a regular file"),
    ("folder", "is a folder"),
    ("device", "not a regular file")])  # a link to /dev/zero: stat sees the device
def test_review_never_replaces_what_is_not_its_own_page(joblist, kind, needle):
    root = joblist.parent
    target = {"joblist": joblist, "portrait": root / "hero.png"}.get(kind, root / "page.html")
    if kind == "notes":
        target.write_text("<html>my own notes</html>\n")
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
        (target / "keep.txt").write_text("mine")
    elif kind == "device":
        target.symlink_to("/dev/zero")
    before = _snapshot(target)
    res = run_cli("driver", "review", str(joblist), "--out", str(target), timeout=60)
    assert res.code == 1, res.err + res.out
    assert res.err.count("\n") == 1 and needle in res.err and str(target) in res.err, res.err
    assert _snapshot(target) == before
    assert kind != "folder" or (target / "keep.txt").read_text() == "mine"


def test_review_writes_a_new_page_and_replaces_its_own(joblist):
    """The default page and an --out page: written when absent, written again over an
    earlier page of ours (it is made afresh from the state and sheets)."""
    for args in ([], ["--out", str(joblist.parent / "elsewhere" / "page.html")]):
        for _ in range(2):
            res = run_cli("driver", "review", str(joblist), *args, timeout=60)
            assert res.code == 0, res.err
    for page in (joblist.parent / "_out" / "review.html", joblist.parent / "elsewhere" /
                 "page.html"):
        assert page.read_text().startswith("<!doctype html>")
        assert "h3sprite review: j.yaml" in page.read_text()


def test_the_reroll_command_is_one_a_shell_can_run(tmp_path):
    """The page's copy-ready re-roll command for a character named `o'brien & co`: a shell
    splits it into the batch's own arguments, the job's key whole (unquoted, the key's
    quote broke the command: "unexpected EOF while looking for matching `''")."""
    import shlex

    from driver import review
    from driver.joblist_load import load

    name = "o'brien & co"
    path = hero_joblist(tmp_path / "my jobs", with_state=True, wording={name: "a hero"},
                        characters={name: {"portrait": "hero.png"}})
    (entry,) = review.entries(load(path), str(path))
    assert shlex.split(entry.reroll) == [sys.executable, "-m", "driver", "batch",
                                         f"--only={name}/idle", "--reroll", "--", str(path)]


@pytest.mark.parametrize("name", ["-rf", "--help"])
def test_the_reroll_command_runs_as_copied_for_a_character_named_like_an_option(
        tmp_path, name):
    """A character `-rf`: the page's `--only -rf/idle --reroll` failed ("argument --only:
    expected one argument"), and its `python` was not the venv's ("No module named
    driver" where the venv is not active). Run as the page gives it (with --dry-run), from
    another folder, it plans that job's re-roll."""
    import shlex
    import subprocess

    from driver import review
    from driver.joblist_load import load

    path = hero_joblist(tmp_path / "jobs", with_state=True, wording={name: "a hero"},
                        characters={name: {"portrait": "hero.png"}})
    (entry,) = review.entries(load(path), str(path))
    words = shlex.split(entry.reroll)
    words.insert(words.index("--"), "--dry-run")
    res = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(REPO)})
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[:2] == [f"{name}/idle", "generate+process"], res.stdout


@pytest.mark.parametrize("side", [12000, 20000])
def test_a_huge_portrait_is_left_out_of_the_page_not_decoded(joblist, side):
    """review opened portraits with Pillow bare: one declaring 20000x20000 ended in
    "internal error DecompressionBombError" (exit 70), one of 12000x12000 was decoded
    (1.8 GB) with Pillow's warning on stderr. It is opened the one way a user's image is
    (its header against the 64 MP limit): the page is written without its thumbnail."""
    from tests.driver.test_hostile import png_header

    (joblist.parent / "hero.png").write_bytes(png_header(side, side))
    res = run_cli("driver", "review", str(joblist))
    assert res.code == 0 and res.err == "", res.err
    page = (joblist.parent / "_out" / "review.html").read_text()
    assert '"portrait": null' in page
