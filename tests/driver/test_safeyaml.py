"""The limited YAML loader accepts every plain document safe_dump writes (seeded random
documents round-trip), and refuses what the limits name, wherever it sits."""

from __future__ import annotations

import random

import pytest
import yaml

from comfy_nodes.core.safeyaml import MAX_DEPTH, YamlLimitError, loads


def _doc(rng: random.Random, depth: int):
    kind = rng.random() if depth < 6 else 0.0
    if kind < 0.5:
        return rng.choice([0, -3, 2.5, True, None, "", "text", "侠客", "a: b", "1e3", "~"])
    if kind < 0.75:
        return [_doc(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {f"k{rng.randint(0, 99)}": _doc(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def test_plain_documents_round_trip():
    rng = random.Random(7)
    for _ in range(300):
        doc = {"root": _doc(rng, 0)}
        assert loads(yaml.safe_dump(doc, allow_unicode=True), "doc") == doc


@pytest.mark.parametrize("seed", range(20))
def test_a_duplicate_key_at_any_depth_is_named_with_both_lines(seed):
    rng = random.Random(seed)
    depth = rng.randint(0, 5)
    lines = [f"{'  ' * d}level{d}:" for d in range(depth)]
    pad = "  " * depth
    lines += [f"{pad}dup: 1", f"{pad}other: 2", f"{pad}dup: 3"]
    with pytest.raises(YamlLimitError, match=f"duplicate key 'dup' on lines {depth + 1} and "
                                             f"{depth + 3}"):
        loads("\n".join(lines) + "\n", "doc")


def test_depth_limit_is_exact():
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(ok, "doc") is not None
    with pytest.raises(YamlLimitError, match="nested deeper"):
        loads("[" + ok + "]", "doc")


@pytest.mark.parametrize("text", ["a: &x 1\nb: *x\n", "a: &x {k: 1}\n", "b: {<<: {k: 1}}\n"])
def test_anchors_aliases_and_merge_keys_are_refused(text):
    with pytest.raises(YamlLimitError):
        loads(text, "doc")
