"""Loading joblist.yaml: read it safely, validate it against the model in
`driver/joblist.py`, and turn every validation error into one line naming the file, line
and key (with a "did you mean" for a typo). `Loaded` is the validated joblist with every
path made absolute and every table (wording, recipes, prompts, seeds, servers) resolved;
the rest of the driver works from it."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any, get_args, get_origin
from urllib.parse import urlsplit

import yaml
from pydantic import BaseModel, ValidationError

from comfy_nodes.core.recipes import DEFAULT_RECIPES, Recipe, RecipeError, merge
from comfy_nodes.core.safeyaml import (
    LimitedLoader,
    YamlLimitError,
    load_file,
    loads,
    read_limited,
    short,
)
from comfy_nodes.core.util import did_you_mean
from driver.joblist import Joblist, ServerSpec, checked_text

DEFAULT_PROMPTS = {
    "idle": "{wording}, standing idle and breathing, full body, side view, plain green "
            "background, the camera does not move",
    "walk": "{wording}, walking in place, full body, side view, plain green background, "
            "the camera does not move",
    "run": "{wording}, running in place, full body, side view, plain green background, "
           "the camera does not move",
    "attack": "{wording}, one quick attack and back to stance, full body, side view, plain "
              "green background, the camera does not move",
    "skill": "{wording}, casts a skill and returns to stance, full body, side view, plain "
             "green background, the camera does not move",
    "hurt": "{wording}, is hit and recoils, full body, side view, plain green background, "
            "the camera does not move",
}


class JoblistError(ValueError):
    """The joblist is wrong; the message names the file, line and key."""


class Loaded:
    """A validated joblist with every path made absolute and every table resolved."""

    def __init__(self, path: Path, spec: Joblist, text: str | None = None):
        self.path = path
        self.text = text  # the YAML as read, to name a line in later errors
        self.root = path.parent.resolve()
        self.spec = spec
        self.workflow = self._abs(spec.workflow)
        self.out = self._abs(spec.out)
        self.work = self._abs(spec.work)
        self.wording = self._wording()
        self.size = spec.size.resolve()
        self.servers = self._servers()
        try:
            self.base_recipes = merge(DEFAULT_RECIPES, spec.recipes, f"{path}: recipes")
        except RecipeError as e:
            raise self._recipe_error(e, ("recipes",)) from None

    def _recipe_error(self, e: RecipeError, parent: tuple[str, ...]) -> JoblistError:
        """The recipe's error as the joblist's: its file, line and key, where it knows the
        key (merge's loc), else merge's own words."""
        if not e.loc:
            return JoblistError(str(e))
        loc = (*parent, *e.loc)
        return JoblistError(f"{self.where(loc)}: {'.'.join(loc)}: {e.reason}")

    def where(self, loc: tuple[str, ...]) -> str:
        """"joblist.yaml:12" for a key path (loc) the text has, else the joblist's path."""
        line = _line_of(self.text, loc) if self.text is not None else None
        return f"{self.path}{':' + str(line) if line else ''}"

    def _servers(self) -> list[ServerSpec]:
        """`servers:` (one ComfyUI per GPU or machine), or the one `server:`."""
        if self.spec.servers is None:
            return [self.spec.server]
        if "server" in self.spec.model_fields_set:
            raise JoblistError(f"{self.path}: give either server or servers, not both")
        seen: dict[tuple[str, str, int, str], int] = {}
        for i, srv in enumerate(self.spec.servers):
            if srv.gpu is not None and not srv.embedded:
                raise JoblistError(f"{self.path}: servers.{i}: gpu is for an embedded server; "
                                   f"start the one at {srv.url} with comfy_service start "
                                   "--gpu N there")
            place = _place(srv.base_url)
            if place in seen:
                first = self.spec.servers[seen[place]].base_url
                same = (f"{first} again (as servers.{seen[place]})" if srv.base_url == first
                        else f"{srv.base_url}, the same server as servers.{seen[place]} "
                             f"({first})")
                raise JoblistError(f"{self.path}: servers.{i} is {same}: give each its own "
                                   "port or url")
            seen[place] = i
        return list(self.spec.servers)

    def _abs(self, p: Path) -> Path:
        return p if p.is_absolute() else (self.root / p)

    def _wording(self) -> dict[str, str]:
        if self.spec.wording is not None and self.spec.wording_file is not None:
            raise JoblistError(f"{self.path}: give either wording or wording_file, not both")
        if self.spec.wording_file is not None:
            wf = self._abs(self.spec.wording_file)
            try:
                data = load_file(wf, "wording_file")
            except YamlLimitError as e:
                raise JoblistError(f"{self.path}: {e}") from None
            if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
                raise JoblistError(f"wording file {wf} must map wording keys to text")
            try:
                for key, text in data.items():
                    checked_text(text, f"wording file {wf}: {short(str(key), 40)}")
            except ValueError as e:
                raise JoblistError(f"{self.path}: {e}") from None
            return {str(k): v for k, v in data.items()}
        return dict(self.spec.wording or {})

    def portrait(self, cid: str) -> Path:
        return self._abs(self.spec.characters[cid].portrait)

    def sheet_dir(self, cid: str) -> Path:
        """The folder of a character's sheets (jobs.Job.out_dir)."""
        return self.out / cid

    def work_dir(self, cid: str, action: str) -> Path:
        """The folder of a job's clip and first frame (jobs.Job.work_dir). One name for the
        pair: `check` refuses two jobs whose names meet (x/run_fast and x_run/fast)."""
        return self.work / f"{cid}_{action}"

    def sheet_json(self, cid: str, action: str) -> Path:
        """A job's sheet JSON (jobs.Job.json), from where the joblist is now. Readers of
        the state take it from here, not from the row's stored outputs: those are absolute
        paths of the run that wrote them, which a moved or copied project leaves behind."""
        return self.sheet_dir(cid) / f"{action}.json"

    def wording_key(self, cid: str) -> str:
        return self.spec.characters[cid].wording or cid

    def actions_of(self, cid: str) -> list[str]:
        own = self.spec.characters[cid].actions
        return self.spec.actions if own is None else own

    def recipe(self, cid: str, action: str) -> Recipe:
        ch = self.spec.characters[cid]
        try:
            table = merge(self.base_recipes, ch.recipes, f"{self.path}: characters.{cid}.recipes")
        except RecipeError as e:
            raise self._recipe_error(e, ("characters", cid, "recipes")) from None
        if action not in table:
            known = ", ".join(sorted(table))
            raise JoblistError(f"{self.path}: action {short(action)} has no recipe: known "
                               f"{known if len(known) < 200 else known[:200] + '...'}; add "
                               "it under recipes")
        return table[action]

    def prompt(self, cid: str, action: str) -> str:
        template = self.spec.prompts.get(action, DEFAULT_PROMPTS.get(action, "{wording}"))
        return template.replace("{wording}", self.wording.get(self.wording_key(cid), ""))

    def loop_closure(self, cid: str, action: str) -> bool:
        """Whether this job binds the first frame to last_frame too: the character's
        setting, else the joblist's; `true` counts for looping actions only."""
        for setting in (self.spec.characters[cid].loop_closure, self.spec.loop_closure):
            if isinstance(setting, bool):
                return setting and self.recipe(cid, action).loop
            if isinstance(setting, dict) and action in setting:
                return setting[action]
        return False

    def loop_closure_wanted(self) -> bool:
        """Whether any job of the joblist asks for loop closure."""
        return any(self.loop_closure(cid, a) for cid in self.spec.characters
                   for a in self.actions_of(cid))

    def seed(self, cid: str, action: str) -> int:
        ch = self.spec.characters[cid]
        if ch.seed is not None:
            return ch.seed
        if self.spec.seed.policy == "fixed":
            return self.spec.seed.base
        return (self.spec.seed.base + zlib.crc32(f"{cid}/{action}".encode())) % 2**31


def _line_of(text: str, loc: tuple) -> int | None:
    """Best-effort line of a key path in the YAML text (for error messages)."""
    try:
        node = yaml.compose(text, Loader=LimitedLoader)
    except (yaml.YAMLError, RecursionError):
        return None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = None
            for k, v in node.value:
                if k.value == str(key):
                    nxt = (k, v)
                    break
            if nxt is None:  # a key that is missing: the line of the mapping that lacks it
                break
            line, node = nxt[0].start_mark.line + 1, nxt[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and \
                key < len(node.value):
            node = node.value[key]
            line = node.start_mark.line + 1
        else:
            break
    return locals().get("line")


def _flatten(ann: Any) -> list[Any]:
    """A type annotation and every type inside it (Optional, list, dict arguments)."""
    return [ann, *(t for a in get_args(ann) for t in _flatten(a))]


def _suggest(key: str, parent: tuple) -> str:
    model: type[BaseModel] = Joblist
    keyed = False  # the part before was a mapping of names to models (characters.hero)
    for part in parent:
        if isinstance(part, int) or keyed:
            # an index into a list (servers.1.port) or a name in a mapping
            # (characters.hero.portriat): the entry's model is known
            keyed = False
            continue
        field = model.model_fields.get(str(part))
        keyed = field is not None and any(get_origin(t) is dict
                                          for t in _flatten(field.annotation))
        ann = getattr(field, "annotation", None) if field else None
        # list[ServerSpec] | None -> ServerSpec
        models = [a for a in _flatten(ann) if isinstance(a, type) and issubclass(a, BaseModel)]
        if not models:
            return ""
        model = models[0]
    return did_you_mean(key, model.model_fields)


def load(path: Path) -> Loaded:
    path = Path(path)
    try:
        text = read_limited(path, "joblist")
        data = loads(text, str(path))
    except YamlLimitError as e:
        raise JoblistError(str(e)) from None
    if not isinstance(data, dict):
        raise JoblistError(f"{path}: a joblist is a mapping (server, workflow, characters, "
                           "actions, ...)")
    try:
        spec = Joblist(**data)
    except ValidationError as e:
        # A typo shows up twice (an unknown key and a missing one): name the typo first.
        errors = sorted(e.errors(), key=lambda x: x["type"] != "extra_forbidden")
        lines = []
        for err in errors[:5]:
            loc = tuple(err["loc"])
            line = _line_of(text, loc)
            key = ".".join(str(p)[:64] for p in loc) or "(top)"
            msg = err["msg"][:300]
            if err["type"] == "extra_forbidden":
                msg = "unknown key" + _suggest(str(loc[-1]), loc[:-1])
            lines.append(f"{path}{':' + str(line) if line else ''}: {key}: {msg}")
        raise JoblistError("\n".join(lines)) from None
    try:
        return Loaded(path, spec, text)
    except ValueError as e:
        if isinstance(e, JoblistError):
            raise
        raise JoblistError(f"{path}: {e}") from None


def _place(url: str) -> tuple[str, str, int, str]:
    """Where a server's URL leads: scheme, host (every loopback name one: localhost,
    127.0.0.1, ::1), port (the scheme's own where none is given) and path (two ComfyUIs
    behind one proxy differ there). `localhost:8408/` and `127.0.0.1:8408` passed as two
    servers, and the batch kept two prompts in flight on one ComfyUI."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host == "localhost" or host == "::1" or host.startswith("127."):
        host = "loopback"
    return (parts.scheme, host, parts.port or (443 if parts.scheme == "https" else 80),
            parts.path.rstrip("/"))
