"""Action recipes: clip seconds, sheet frames, fps and looping. Data, never game code.

Defaults are the table of the field notes; a YAML or JSON file may override any field of
any action, or add actions:

    walk: {frames: 12, fps: 12}
    dance: {seconds: 2.0, frames: 12, fps: 10, loop: true}
"""

from __future__ import annotations

import functools
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .snap import snap_length
from .util import did_you_mean

MIN_FPS = 1.0  # the least a sheet's fps may be, from a recipe file or the Sprite Sheet node


@dataclass(frozen=True)
class Recipe:
    """One action's recipe. A plain dataclass: pydantic checks recipes read from files
    (`validated`, the bounds are there) and is imported only then, so `driver process`
    with the built-in recipes does without it (~80 ms of a 0.8 s process)."""

    seconds: float
    frames: int
    fps: float
    loop: bool

    def __post_init__(self) -> None:
        # As pydantic did: a whole number of seconds or fps is a float (10 -> 10.0), so
        # the JSON written and the batch's fingerprints do not depend on how it was typed.
        object.__setattr__(self, "seconds", float(self.seconds))
        object.__setattr__(self, "fps", float(self.fps))

    @property
    def clip_frames(self) -> int:
        """Frames H3 generates for this recipe (the snapped 17k+5 length)."""
        return snap_length(self.seconds)

    @property
    def duration(self) -> float:
        """Seconds of animation the sheet plays."""
        return self.frames / self.fps


@functools.cache
def _fields_model() -> Any:
    """The pydantic model a user's recipe fields must pass (the same fields as Recipe)."""
    from pydantic import BaseModel, ConfigDict, Field, field_validator

    class RecipeFields(BaseModel):
        # NaN fails every bound ("should be less than or equal to 120"): say what it is
        model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

        seconds: float = Field(gt=0, le=20)
        # strict: `frames: true` was read as 1 (a one-frame sheet), "yes" as a loop
        frames: int = Field(ge=1, le=256, strict=True)
        fps: float = Field(ge=MIN_FPS, le=120)  # 0.001 fps: a frame lasted 17 minutes
        loop: bool = Field(strict=True)

        @field_validator("seconds", "fps", mode="before")
        @classmethod
        def _no_bool(cls, value: Any) -> Any:
            if isinstance(value, bool):
                raise ValueError("should be a number, not true or false")
            return value

    return RecipeFields


def validated(values: dict[str, Any]) -> Recipe:
    """A recipe from a user's fields; pydantic's ValidationError says what is wrong."""
    return Recipe(**_fields_model()(**values).model_dump())


DEFAULT_RECIPES: dict[str, Recipe] = {
    "idle": Recipe(seconds=2.0, frames=8, fps=6, loop=True),
    "walk": Recipe(seconds=2.0, frames=10, fps=10, loop=True),
    "run": Recipe(seconds=2.0, frames=10, fps=12, loop=True),
    "attack": Recipe(seconds=1.0, frames=8, fps=12, loop=False),
    "skill": Recipe(seconds=1.5, frames=10, fps=10, loop=False),
    "hurt": Recipe(seconds=0.7, frames=6, fps=12, loop=False),
}


class RecipeError(ValueError):
    """A recipe file or action is wrong; the message names the file, action and field.
    loc: where in the overrides (action, field), and reason: what is wrong there, for a
    caller that can name the line (a joblist)."""

    def __init__(self, message: str, loc: tuple[str, ...] = (), reason: str = ""):
        super().__init__(message)
        self.loc, self.reason = loc, reason or message


FIELDS = ("seconds", "frames", "fps", "loop")


def merge(base: dict[str, Recipe], overrides: dict, source: str) -> dict[str, Recipe]:
    if not isinstance(overrides, dict):
        raise RecipeError(f"{source}: expected a mapping of action -> fields")
    from pydantic import ValidationError

    out = dict(base)
    for action, given in overrides.items():
        if not isinstance(action, str):
            raise RecipeError(f"{source}: action {action!r} must be a name, e.g. walk")
        if not isinstance(given, dict):
            raise RecipeError(f"{source}: action {action!r} must map to fields "
                              f"(seconds, frames, fps, loop)")
        odd = [k for k in given if not isinstance(k, str)]
        if odd:  # YAML allows any key; a field is a name (pydantic would raise TypeError)
            raise RecipeError(f"{source}: action {action!r}, field {odd[0]!r} is not one of "
                              f"seconds, frames, fps, loop")
        try:
            current = asdict(out[action]) if action in out else {}
            out[action] = validated({**current, **given})
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) if err["loc"] else "fields"
            reason = err["msg"]
            if err["type"] == "extra_forbidden":  # a typo: `frame: 3` said only "Extra inputs"
                reason = f"unknown field {where!r}" + did_you_mean(where, FIELDS, True)
            raise RecipeError(f"{source}: action {action!r}, {where}: {reason}",
                              (action, *(str(p) for p in err["loc"])), reason) from None
    return out


def load_recipes(path: Path | None = None) -> dict[str, Recipe]:
    """Default recipes, overridden by a YAML/JSON file when given."""
    if path is None:
        return dict(DEFAULT_RECIPES)
    # Imported here: `driver process` without a recipe file needs no YAML parser (~11 ms).
    from .safeyaml import YamlLimitError, loads, read_limited

    try:  # a small regular file; YAML without aliases or deep nesting (safeyaml)
        text = read_limited(Path(path), "recipe file")
        where = f"recipe file {path}"
        data = json.loads(text) if str(path).endswith(".json") else loads(text, where)
    except YamlLimitError as e:
        raise RecipeError(str(e)) from None
    except (ValueError, RecursionError) as e:
        raise RecipeError(f"recipe file {path} is not valid: {str(e).splitlines()[0]}") from None
    # an empty file is no override; `[]` or `0` is no mapping (it was read as none)
    return merge(DEFAULT_RECIPES, {} if data is None else data, f"recipe file {path}")


def recipe_for(action: str, recipes: dict[str, Recipe]) -> Recipe:
    if action not in recipes:
        raise RecipeError(f"unknown action {action!r}: known actions are "
                          f"{', '.join(sorted(recipes))} (add it in a recipe file)")
    return recipes[action]
