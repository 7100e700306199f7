"""Recipes: a plain dataclass, checked by pydantic when a user's file gives the fields."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from comfy_nodes.core.recipes import DEFAULT_RECIPES, Recipe, RecipeError, merge, validated


@given(st.integers(1, 20), st.integers(1, 256), st.integers(1, 120), st.booleans())
def test_whole_numbers_become_floats_however_typed(seconds, frames, fps, loop):
    """Seconds and fps are floats whether typed 10 or 10.0, built directly or validated:
    the sheet's JSON and the batch's fingerprints (json of the recipe) must not differ."""
    direct = Recipe(seconds=seconds, frames=frames, fps=fps, loop=loop)
    checked = validated({"seconds": seconds, "frames": frames, "fps": fps, "loop": loop})
    floats = Recipe(seconds=float(seconds), frames=frames, fps=float(fps), loop=loop)
    assert direct == checked == floats
    assert json.dumps(vars(direct)) == json.dumps(vars(floats))
    assert type(direct.fps) is float and type(direct.seconds) is float


@pytest.mark.parametrize("field, value", [("seconds", 0), ("seconds", 20.5), ("frames", 0),
                                          ("frames", 257), ("fps", 0), ("fps", 121),
                                          ("frames", 2.5), ("loop", "sometimes"),
                                          # taken before: a 1-frame sheet, a frame shown for
                                          # 17 minutes, a loop from a word
                                          ("frames", True), ("fps", 0.001), ("fps", True),
                                          ("seconds", False), ("loop", "yes"), ("loop", 1)])
def test_out_of_bounds_fields_are_refused(field, value):
    fields = {**vars(DEFAULT_RECIPES["walk"]), field: value}
    with pytest.raises(ValidationError) as e:
        validated(fields)
    assert e.value.errors()[0]["loc"] == (field,)


def test_unknown_field_is_refused():
    with pytest.raises(ValidationError, match="Extra inputs"):
        validated({**vars(DEFAULT_RECIPES["walk"]), "fpss": 12})


def test_the_fingerprints_json_is_what_pydantic_wrote():
    """The batch fingerprints a job by the recipe's JSON: the built-in recipes give, byte for
    byte, what `model_dump()` gave when Recipe was a pydantic model (commit 20a886b), so no
    finished job reruns; a validated recipe file's fields are floats too."""
    assert {k: json.dumps(asdict(v)) for k, v in DEFAULT_RECIPES.items()} == {
        "idle": '{"seconds": 2.0, "frames": 8, "fps": 6.0, "loop": true}',
        "walk": '{"seconds": 2.0, "frames": 10, "fps": 10.0, "loop": true}',
        "run": '{"seconds": 2.0, "frames": 10, "fps": 12.0, "loop": true}',
        "attack": '{"seconds": 1.0, "frames": 8, "fps": 12.0, "loop": false}',
        "skill": '{"seconds": 1.5, "frames": 10, "fps": 10.0, "loop": false}',
        "hurt": '{"seconds": 0.7, "frames": 6, "fps": 12.0, "loop": false}',
    }
    checked = validated({"seconds": 2, "frames": 10, "fps": 12, "loop": True})
    assert type(checked.fps) is float and type(checked.seconds) is float
    assert type(checked.frames) is int


@pytest.mark.parametrize("overrides, needle", [
    ({"walk": {1: 2}}, "action 'walk', field 1 is not one of"),
    ({3: {"frames": 4}}, "action 3 must be a name"),
])
def test_keys_that_are_not_names_are_refused_in_one_line(overrides, needle):
    """YAML allows numbers as keys: a recipe file's action and field must be names, refused
    as a RecipeError naming them (not a TypeError from the model, an internal error)."""
    with pytest.raises(RecipeError, match=needle):
        merge(DEFAULT_RECIPES, overrides, "recipe file r.yaml")


@pytest.mark.parametrize("text", ["[]", "0", "- walk"])
def test_a_recipe_file_that_is_no_mapping_is_refused(tmp_path, text):
    """`[]` was read as no override at all, silently; an empty file still is none."""
    from comfy_nodes.core.recipes import load_recipes

    path = tmp_path / "r.yaml"
    path.write_text(text)
    with pytest.raises(RecipeError, match="expected a mapping of action -> fields"):
        load_recipes(path)
    path.write_text("")
    assert load_recipes(path) == DEFAULT_RECIPES
