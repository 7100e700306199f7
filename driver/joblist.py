"""joblist.yaml: what to render, as pydantic models.

    server:                      # "embedded" (started by the service manager) or a URL
      url: embedded
      port: 8199
    # or several, one per GPU or machine; each entry is what server: is
    # servers: [{port: 8188, gpu: 0}, {port: 8189, gpu: 1}, {url: "http://10.0.0.7:8188"}]
    workflow: api_workflows/preview.json
    size: {megapixels: 0.2, aspect: "1:1"}     # or canvas: [448, 448]
    seed: {policy: fixed, base: 1234}          # fixed | per_job
    actions: [idle, walk]
    recipes: {walk: {frames: 12}}              # overrides of the recipe table
    prompts: {walk: "{wording}, walks in place, side view"}   # per action, {wording} filled
    wording: {hero: "a young swordsman in a red coat"}         # or wording_file: words.yaml
    characters:
      hero: {portrait: portraits/hero.png}
      boar: {portrait: portraits/boar.png, wording: boar, actions: [idle]}
    loop_closure: false          # true: looping actions end on their first frame (last_frame)
                                 # or per action {walk: true}; also per character
    out: _out
    work: _work
    formats: [texturepacker, aseprite, godot, frames]   # default: texturepacker
    image_format: webp                                   # or png

Paths are relative to the joblist's folder. Character ids and action names become folder
and file names, so they must be plain names.

This module is the model only; reading the file, locating errors and resolving paths and
tables is `driver/joblist_load.py` (`load`, `Loaded`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from comfy_nodes.core.names import safe_name
from comfy_nodes.core.safeyaml import short
from comfy_nodes.core.snap import MAX_SHORT_EDGE, snap_size
from service.config import is_loopback, own_flag

# H3's native canvas: a 768-px short edge, at most 768x1344 (COMFYUI.md, the template).
MAX_LONG_EDGE = 1344
MAX_OVERRIDE_TEXT = 10_000  # characters of one override value (a prompt is a few hundred)
# Characters of one wording or prompt template. ComfyUI's text encoders cut nothing (their
# max_length is 99999999), but video models are trained on about 512 tokens of text (Wan's
# umT5 text_len), some 2,000 characters of English: a character's description is a sentence.
MAX_TEXT = 2_000


def checked_text(value: str, where: str) -> str:
    """value if it is text worth sending to the model: not blank, at most MAX_TEXT."""
    if not value.strip():
        raise ValueError(f"{where} is empty: write what the model should see (a wording "
                         "such as 'a young swordsman in a green tunic')")
    if len(value) > MAX_TEXT:
        raise ValueError(f"{where} is {len(value)} characters long; the limit is {MAX_TEXT} "
                         "(a video model reads about 512 tokens): shorten it")
    return value


def once(actions: list[str]) -> list[str]:
    """actions if none is listed twice (the batch would plan that job twice)."""
    twice = sorted({a for a in actions if actions.count(a) > 1})
    if twice:
        raise ValueError(f"action {', '.join(twice)} is listed twice: list each action once")
    return actions


class Strict(BaseModel):
    # .nan failed a bound's test with "should be less than or equal to 4": a number that
    # is not finite is said to be so
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ServerSpec(Strict):
    url: str = "embedded"
    host: str = "127.0.0.1"  # where the embedded server binds; see allow_remote
    allow_remote: bool = False  # a non-loopback host must be asked for explicitly
    port: int = Field(8188, ge=1, le=65535)
    start: bool = True  # start the embedded server when it is not running
    before_video: Literal["restart", "switch", "none"] = "switch"
    restart_every: int = Field(0, ge=0, description="restart after this many jobs (0: never)")
    restart_above_rss_gb: float = Field(0.0, ge=0)
    hang_seconds: float = Field(600.0, gt=0)
    attempts: int = Field(3, ge=1, le=10)
    comfy_args: list[str] = Field(default_factory=list)
    gpu: int | None = Field(None, ge=0, description="embedded: the GPU it sees "
                                                    "(CUDA_VISIBLE_DEVICES)")

    @field_validator("url")
    @classmethod
    def _url(cls, v: str) -> str:
        """"embedded" or http(s)://host[:port][/path]: anything else passed check and was
        then reported as a server that is not reachable."""
        if v == "embedded":
            return v
        try:
            parts = urlsplit(v)
            ok = (parts.scheme in ("http", "https") and bool(parts.hostname)
                  and not parts.query and not parts.fragment and " " not in v)
            parts.port  # noqa: B018 (raises ValueError for a port that is not 0-65535)
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"{short(v, 80)} is not a server address: give embedded, or "
                             "http(s)://host:port such as http://127.0.0.1:8188")
        return v

    @field_validator("comfy_args")
    @classmethod
    def _no_own_flags(cls, v: list[str]) -> list[str]:
        flag = own_flag(v)  # a --listen here would expose the server behind our back
        if flag:
            raise ValueError(f"{flag} is not allowed in comfy_args: set "
                             f"server.{flag.setting} instead")
        return v

    @model_validator(mode="after")
    def _remote_is_explicit(self) -> ServerSpec:
        if not is_loopback(self.host) and not self.allow_remote:
            raise ValueError(f"server.host {self.host} is reachable from the network: add "
                             "server.allow_remote: true if you mean it, else use 127.0.0.1")
        return self

    @property
    def embedded(self) -> bool:
        return self.url == "embedded"

    @property
    def base_url(self) -> str:
        if not self.embedded:
            return self.url.rstrip("/")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"


class SizeSpec(Strict):
    megapixels: float = Field(0.2, gt=0, le=4)
    aspect: str = "1:1"
    canvas: tuple[int, int] | None = None

    def resolve(self) -> tuple[int, int]:
        if self.canvas:
            w, h = self.canvas
            if w % 32 or h % 32 or w <= 0 or h <= 0:
                raise ValueError(f"canvas {w}x{h} must be positive multiples of 32")
        else:
            w, h = snap_size(self.megapixels, self.aspect)
        if min(w, h) > MAX_SHORT_EDGE or max(w, h) > MAX_LONG_EDGE:
            what = "canvas" if self.canvas else f"size {self.megapixels} MP at {self.aspect}"
            raise ValueError(f"{what} gives {w}x{h}; H3 takes at most a {MAX_SHORT_EDGE}-px "
                             f"short edge and {MAX_SHORT_EDGE}x{MAX_LONG_EDGE}: choose a "
                             "smaller one")
        return w, h


def job_name(name: str, what: str) -> str:
    """A plain name (safe_name) that --only can name too: "," separates its items, "#"
    starts a comment in an @list and a leading "@" names a list file, so a character `a,b`
    or `@x` passed check and no re-roll could select it (the review page's commands
    failed)."""
    safe_name(name, what)
    if "," in name or "#" in name or name.startswith("@"):
        raise ValueError(f"{what} {name!r} has ',' or '#' or a leading '@', which --only "
                         "reads as its own: pick a simple name such as 'hero'")
    return name


class SeedSpec(Strict):
    policy: Literal["fixed", "per_job"] = "fixed"
    base: int = Field(1234, ge=0, le=2**31 - 1)


# Loop closure: the prepared first frame is also H3's last_frame, so the clip must return to
# its first pose. `true` means every looping action (recipe loop: true); a mapping names
# actions one by one ({walk: true, attack: true}). Off by default until a GPU run measures it.
LoopClosure = bool | dict[str, bool]


class CharacterSpec(Strict):
    portrait: Path
    wording: str | None = None  # key into the wording table; default: the character id
    actions: list[str] | None = None
    recipes: dict[str, dict[str, Any]] = Field(default_factory=dict)
    seed: int | None = Field(None, ge=0, le=2**31 - 1)  # as seed.base: -5 reached the server
    loop_closure: LoopClosure | None = None  # None: the joblist's setting

    @field_validator("actions")
    @classmethod
    def _actions(cls, v: list[str] | None) -> list[str] | None:
        if v is not None and not v:  # it ran every action of the joblist
            raise ValueError("names no action: list this character's actions, or leave "
                             "the key out for the joblist's")
        for a in v or []:  # they become file names too (issue 10: was unchecked here)
            job_name(a, "action")
        return v if v is None else once(v)


class Joblist(Strict):
    server: ServerSpec = Field(default_factory=lambda: ServerSpec())
    servers: list[ServerSpec] | None = Field(None, min_length=1, max_length=64)
    workflow: Path
    size: SizeSpec = Field(default_factory=lambda: SizeSpec())
    seed: SeedSpec = Field(default_factory=lambda: SeedSpec())
    actions: list[str]
    recipes: dict[str, dict[str, Any]] = Field(default_factory=dict)
    prompts: dict[str, str] = Field(default_factory=dict)
    wording: dict[str, str] | None = None
    wording_file: Path | None = None
    characters: dict[str, CharacterSpec]
    overrides: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="workflow inputs to set: {node id or @marker: "
                                          "{input: value}}")
    loop_closure: LoopClosure = False
    out: Path = Path("_out")
    work: Path = Path("_work")
    # ge: core/sheet.py's MIN_CELL, the least usable cell (not imported: it loads numpy
    # and Pillow, which `driver status` does without; a test holds the two equal)
    cell_height: int = Field(300, ge=16, le=2048)
    max_width: int = Field(8000, ge=64, le=16383)
    # Issue 12: sheet files per engine (core/export); texturepacker is always written.
    formats: list[str] = Field(default_factory=lambda: ["texturepacker"])
    image_format: Literal["webp", "png"] = "webp"

    @field_validator("formats")
    @classmethod
    def _formats(cls, v: list[str]) -> list[str]:
        from comfy_nodes.core.export import parse_formats

        return [f.value for f in parse_formats(v, "formats")]

    @field_validator("wording", "prompts")
    @classmethod
    def _texts(cls, v: dict[str, str] | None, info: ValidationInfo) -> dict[str, str] | None:
        for key, text in (v or {}).items():
            checked_text(text, f"{info.field_name}.{short(key, 40)}")
        return v

    @field_validator("overrides")
    @classmethod
    def _overrides(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """Only scalars, finite numbers and bounded text go into a graph's inputs: a list or
        mapping would replace a link, NaN passes ComfyUI's min/max checks."""
        for target, values in v.items():
            for name, value in values.items():
                where = f"{short(target, 40)}.{short(name, 40)}"
                if isinstance(value, bool) or value is None:
                    if value is None:
                        raise ValueError(f"{where} is empty: give a value")
                elif isinstance(value, float) and not math.isfinite(value):
                    raise ValueError(f"{where} is {value}: give a finite number")
                elif isinstance(value, str) and len(value) > MAX_OVERRIDE_TEXT:
                    raise ValueError(f"{where} is {len(value)} characters long; the limit "
                                     f"is {MAX_OVERRIDE_TEXT}")
                elif not isinstance(value, (int, float, str)):
                    raise ValueError(f"{where} must be a number, text or true/false, not "
                                     f"a {type(value).__name__} (links cannot be overridden)")
        return v

    @field_validator("characters")
    @classmethod
    def _names(cls, v: dict) -> dict:
        for cid in v:
            job_name(cid, "character id")
        if not v:
            raise ValueError("no characters")
        return v

    @field_validator("actions")
    @classmethod
    def _actions(cls, v: list[str]) -> list[str]:
        for a in v:
            job_name(a, "action")
        if not v:
            raise ValueError("no actions")
        return once(v)
