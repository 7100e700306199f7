"""Seeded fuzz: a few hundred mutated joblists through `check` and `batch --dry-run`,
in-process. None may end in exit 70 (an internal error), print a traceback, hang, or
write a file. H3SPRITE_FUZZ_CASES raises the count (CI runs the default)."""

from __future__ import annotations

import contextlib
import copy
import io
import math
import os
import random
import signal
from pathlib import Path

import pytest
import yaml

from driver.cli import main
from tests.conftest import REPO
from tests.driver.conftest import draw_portrait

CASES = int(os.environ.get("H3SPRITE_FUZZ_CASES", "240"))
SEED = int(os.environ.get("H3SPRITE_FUZZ_SEED", "20261130"))
CASE_SECONDS = 10  # per case; a hang fails the test through SIGALRM

HOSTILE = [
    None, True, 0, -1, 2**63, -(2**70), 1e308, math.nan, math.inf, -math.inf, "", " ", "..",
    "../escape", "/etc/passwd", "/dev/zero", "/", "x" * 5000, "侠客", "\x00", "a/b", "hero",
    "@seed", "@nope", [], [1, 2], {}, {"a": 1}, {"seed": {"seed": 3}}, [[[[[]]]]], "1:1",
    "99999:1", "0:0", [448, 448], [0, 0], [-32, 64], [1e9, 32], "embedded", "http://[::1",
    "restart", 3.5,
]
TEXT_SNIPPETS = ["&a [1]", "*a", "<<: *a", "!!python/object:os.system", "{", "[", "'",
                 "\"\\u0000\"", "? [a]\n: 1", "---\n", "- - -", "\t", "key: value",
                 "[" * 300, "%YAML 1.1", "!!binary AAAA", "~", ": :"]


def base(root: Path) -> dict:
    return {
        "server": {"url": "embedded", "port": 1, "hang_seconds": 30},
        "workflow": str(REPO / "api_workflows" / "preview.json"),
        "size": {"megapixels": 0.2, "aspect": "1:1"},
        "seed": {"policy": "per_job", "base": 7},
        "actions": ["idle", "attack"],
        "recipes": {"idle": {"frames": 8}},
        "prompts": {"idle": "{wording}, idle"},
        "wording": {"hero": "a hero", "boar": "a boar"},
        "characters": {"hero": {"portrait": "hero.png"},
                       "boar": {"portrait": "boar.png", "actions": ["idle"], "seed": 3}},
        "overrides": {"@seed": {"seed": 5}},
        "out": "_out", "work": "_work", "cell_height": 300,
    }


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


def _set(doc, path, value):
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def mutate_structure(rng: random.Random, doc: dict) -> str:
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(doc) if p]
        path = rng.choice(paths)
        kind = rng.random()
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if kind < 0.6:
            _set(doc, path, rng.choice(HOSTILE))
        elif kind < 0.75 and isinstance(parent, dict):
            del parent[path[-1]]
        elif kind < 0.9 and isinstance(parent, dict):
            parent[rng.choice(["x" * 80, "portrait", "url", "canvas", "frames", "1", "@clip",
                               "wording_file", "comfy_args"])] = rng.choice(HOSTILE)
        else:
            _set(doc, path, {"k": copy.deepcopy(doc.get("characters"))})
    return yaml.safe_dump(doc, allow_unicode=True)


def mutate_text(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.random()
        if kind < 0.25:
            del lines[i]
            lines = lines or ["{}"]
        elif kind < 0.45:
            lines.insert(i, lines[rng.randrange(len(lines))])  # duplicate keys, often
        elif kind < 0.7:
            lines[i] = lines[i] + " " + rng.choice(TEXT_SNIPPETS)
        elif kind < 0.85:
            lines[i] = " " * rng.randint(0, 6) + lines[i].lstrip()
        else:
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + "".join(chr(rng.randrange(1, 0x3000))
                                                for _ in range(rng.randint(1, 4)))
    return "\n".join(lines) + "\n"


def _run(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue() + err.getvalue()


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang


@pytest.fixture
def roster(tmp_path):
    draw_portrait(tmp_path / "hero.png", "hero")
    draw_portrait(tmp_path / "boar.png", "zombie")
    return tmp_path


def test_mutated_joblists_never_crash_hang_or_write(roster, monkeypatch):
    monkeypatch.setenv("H3SPRITE_STATE_DIR", str(roster / "state"))
    monkeypatch.delenv("H3SPRITE_DEBUG", raising=False)
    rng = random.Random(SEED)
    path = roster / "joblist.yaml"
    before = sorted(p for p in roster.rglob("*") if p != path)
    codes: dict[int, int] = {}
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(CASES):
            doc = base(roster)
            text = (mutate_structure(rng, doc) if rng.random() < 0.6
                    else mutate_text(rng, yaml.safe_dump(doc)))
            path.write_text(text, encoding="utf-8")
            for argv in (["check", str(path)], ["batch", "--dry-run", str(path)]):
                signal.alarm(CASE_SECONDS)
                try:
                    code, output = _run(argv)
                except Hang:
                    pytest.fail(f"case {case} ({argv[0]}) hung; joblist:\n{text[:2000]}")
                finally:
                    signal.alarm(0)
                codes[code] = codes.get(code, 0) + 1
                assert code in (0, 1), f"case {case} {argv[0]} exit {code}:\n{output}\n{text}"
                assert "Traceback" not in output, f"case {case}:\n{output}"
                assert all(len(line) < 1000 for line in output.splitlines()), \
                    f"case {case}: {output[:1500]}"
            assert sorted(p for p in roster.rglob("*") if p != path) == before, \
                f"case {case} wrote a file; joblist:\n{text}"
    finally:
        signal.signal(signal.SIGALRM, old)
    assert codes.get(1, 0) > CASES // 2  # the mutations really do break joblists
    print(f"fuzz: {CASES} joblists x 2 verbs, exit codes {codes}")
