"""Where the ComfyUI server lives and how to launch it: flag > environment > file > default.

The default is the embedded ComfyUI this checkout builds (`comfy_service setup`). A user
with their own ComfyUI points at it with a config file or environment variables:

    # ~/.config/h3sprite/service.yaml   (or --config FILE, or $H3SPRITE_SERVICE_CONFIG)
    comfyui: /opt/ComfyUI          # folder with main.py
    python: /opt/ComfyUI/venv/bin/python
    port: 8188
    placement: streaming
    extra_args: ["--disable-mmap"]
"""

from __future__ import annotations

import ipaddress
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from comfy_nodes.core.safeyaml import YamlLimitError, load_file
from comfy_nodes.core.util import folder_problem
from service.embedded import default_embedded

Placement = Literal["resident", "streaming", "phased", "auto", "none"]

DEFAULT_CONFIG_FILE = Path.home() / ".config" / "h3sprite" / "service.yaml"
# setting name -> environment variable (all strings; pydantic converts)
ENV_VARS = {
    "comfyui": "H3SPRITE_COMFYUI",
    "python": "H3SPRITE_COMFY_PYTHON",
    "host": "H3SPRITE_HOST",
    "port": "H3SPRITE_PORT",
    "placement": "H3SPRITE_PLACEMENT",
    "model_gb": "H3SPRITE_MODEL_GB",
    "extra_args": "H3SPRITE_COMFY_ARGS",
    "state_dir": "H3SPRITE_STATE_DIR",
    "start_timeout": "H3SPRITE_START_TIMEOUT",
    "link_pack": "H3SPRITE_LINK_PACK",
    "allow_remote": "H3SPRITE_ALLOW_REMOTE",
}
PATH_SETTINGS = ("comfyui", "python", "state_dir")
# ComfyUI flags that would contradict what we record and report: they have settings of ours.
OWN_FLAGS = {"--listen": "host", "--port": "port"}


class ConfigError(ValueError):
    """A setting is wrong; the message names where it came from and how to fix it."""



@dataclass(frozen=True)
class OwnFlag:
    """An argument among ComfyUI's that sets one of our own settings."""

    given: str  # as written, without a value: "--liste"
    flag: str  # the ComfyUI flag it is: "--listen"

    @property
    def setting(self) -> str:
        return OWN_FLAGS[self.flag]

    def __str__(self) -> str:
        return self.given if self.given == self.flag else f"{self.given} ({self.flag})"


def own_flag(args: list[str]) -> OwnFlag | None:
    """The first of args that sets one of our own settings (--listen, --port), or None.
    ComfyUI's argparse takes any unambiguous prefix of a flag, and `--x=value` too:
    `--liste 127.0.0.3` and `--por 8487` passed a guard that knew only the full names, and
    the server listened where our state said it did not."""
    for arg in args:
        given = arg.split("=", 1)[0]
        for flag in OWN_FLAGS:
            # "--" alone ends the options; "--l" and "--p" are ambiguous to ComfyUI (it
            # refuses them), refused here too
            if len(given) > 2 and flag.startswith(given):
                return OwnFlag(given, flag)
    return None


class ServiceConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    comfyui: Path = Field(description="ComfyUI folder (the one with main.py)")
    python: Path = Field(description="the python of ComfyUI's environment")
    host: str = "127.0.0.1"
    port: int = Field(8188, ge=1, le=65535)
    placement: Placement = "auto"
    model_gb: float = Field(19.5, gt=0, description="model weights in GiB, for placement=auto")
    extra_args: list[str] = Field(default_factory=list)
    state_dir: Path = Field(description="where state files and server logs go")
    start_timeout: float = Field(180.0, gt=0)
    link_pack: bool = True  # load our node pack through an extra-model-paths file
    gpu: int | None = Field(None, ge=0, description="the one GPU this server sees "
                                                    "(CUDA_VISIBLE_DEVICES); None: all")
    allow_remote: bool = False  # a host other than loopback must be asked for explicitly

    @field_validator(*PATH_SETTINGS, mode="before")
    @classmethod
    def _given(cls, v: Any) -> Any:
        # Path("") is the current folder: a settings file's `state_dir: ""` put the state
        # and logs wherever the verb was run (the flags refuse "" the same way)
        if isinstance(v, str) and not v:
            raise ValueError("is empty: give a path, or leave the setting out")
        return v

    @field_validator("host")
    @classmethod
    def _a_host(cls, v: str) -> str:
        # "" reached the remote check: "host  is reachable from the network"
        if not v.strip():
            raise ValueError("is empty: give an address to bind, such as 127.0.0.1")
        return v

    @field_validator("state_dir")
    @classmethod
    def _a_folder(cls, v: Path) -> Path:
        # a file there made `start` fail on its custom_nodes and `status` say "not running"
        problem = folder_problem(v, "state_dir", writable=False)  # reading needs no writing
        if problem:
            raise ValueError(problem)
        return v

    @field_validator("extra_args", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return shlex.split(v) if isinstance(v, str) else v

    @field_validator("extra_args")
    @classmethod
    def _no_own_flags(cls, v: list[str]) -> list[str]:
        # The last --listen wins in ComfyUI: one among extra args would expose the server
        # while our state and `status` still said 127.0.0.1.
        flag = own_flag(v)
        if flag:
            raise ValueError(f"{flag} is not allowed among extra ComfyUI arguments: use the "
                             f"`{flag.setting}` setting (--{flag.setting})")
        return v

    @model_validator(mode="after")
    def _remote_is_explicit(self) -> ServiceConfig:
        if not is_loopback(self.host) and not self.allow_remote:
            raise ValueError(f"host {self.host} is reachable from the network: set "
                             "allow_remote: true (or --allow-remote) if you mean it, else use "
                             "127.0.0.1")
        return self

    @property
    def remote(self) -> bool:
        return not is_loopback(self.host)

    @property
    def base_url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


def defaults() -> dict[str, Any]:
    emb = default_embedded()
    return {"comfyui": emb.comfyui, "python": emb.python, "state_dir": emb.home / "run"}


def _read_file(path: Path) -> dict[str, Any]:
    try:  # a small regular file; YAML without aliases, deep nesting or duplicate keys
        data = load_file(path, "config file")
    except YamlLimitError as e:
        raise ConfigError(str(e)) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"config file {path} must be a mapping of settings, not {type(data).__name__}")
    unknown = sorted(set(data) - set(ServiceConfig.model_fields))
    if unknown:
        raise ConfigError(
            f"config file {path}: unknown setting(s) {', '.join(unknown)}; "
            f"known: {', '.join(ServiceConfig.model_fields)}"
        )
    return data


def resolve(
    flags: dict[str, Any] | None = None,
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServiceConfig:
    """Merge the four layers (flag > environment > file > default) into one config."""
    environ = os.environ if environ is None else environ
    layers: list[tuple[str, dict[str, Any]]] = [("defaults", defaults())]
    if config_file is None and environ.get("H3SPRITE_SERVICE_CONFIG"):
        config_file = Path(environ["H3SPRITE_SERVICE_CONFIG"])
    if config_file is not None:
        layers.append((f"config file {config_file}", _read_file(Path(config_file))))
    elif DEFAULT_CONFIG_FILE.is_file():
        layers.append((f"config file {DEFAULT_CONFIG_FILE}", _read_file(DEFAULT_CONFIG_FILE)))
    # An empty variable is unset, but for a path: H3SPRITE_STATE_DIR= silently meant the
    # default folder, where the flag and the file refuse "" (_given)
    env_layer = {k: environ[v] for k, v in ENV_VARS.items()
                 if environ.get(v, "") != "" or (k in PATH_SETTINGS and v in environ)}
    layers.append(("environment", env_layer))
    layers.append(("flags", {k: v for k, v in (flags or {}).items() if v is not None}))

    merged: dict[str, Any] = {}
    origin: dict[str, str] = {}
    for name, layer in layers:
        for key, value in layer.items():
            merged[key] = value
            origin[key] = name
    try:
        return ServiceConfig(**merged)
    except ValidationError as e:
        err = e.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "host"
        where = origin.get(key, "settings")
        if where == "environment":
            where = f"environment variable {ENV_VARS.get(key, key)}"
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise ConfigError(f"bad setting {key!r} from {where}: {msg}") from None


def check_paths(cfg: ServiceConfig) -> None:
    """Fail early, naming the fix, when the ComfyUI folder or its python is missing."""
    if not (cfg.comfyui / "main.py").is_file():
        hint = (
            "run `comfy_service setup` to build the embedded one"
            if cfg.comfyui == defaults()["comfyui"]
            else f"set `comfyui:` or {ENV_VARS['comfyui']} to the folder that has main.py"
        )
        raise ConfigError(f"no ComfyUI at {cfg.comfyui} (main.py missing): {hint}")
    if not cfg.python.exists():
        raise ConfigError(
            f"ComfyUI's python {cfg.python} does not exist: set `python:` or "
            f"{ENV_VARS['python']} to the interpreter of ComfyUI's environment"
        )
