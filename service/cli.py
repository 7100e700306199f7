"""`comfy_service`: a thin CLI over service.manager. Parsing here, work there.

Every verb prints one line (or a JSON object with --json) and exits with a code of
manager.Exit; errors never print a traceback.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import signal
import sys
from pathlib import Path

import requests

from comfy_nodes.core.regularfile import NotRegular, stat_regular
from comfy_nodes.core.util import given_path
from service import embedded, every, manager
from service.api import NotJSON, request_error_line
from service.config import ConfigError, ServiceConfig, resolve
from service.manager import Exit, Result
from service.process import who_holds


def _given(text: str) -> Path:
    """A path flag's value: an empty one is refused, as Path("") is the current folder,
    which nobody named (`--state-dir ""` wrote the server's state and logs there)."""
    try:
        return given_path(text, "the path", "give one, or leave the flag out")
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _number(kind: type, least: float, strict: bool = False):
    """An argparse type: a number of `kind` at least `least` (above it where `strict`).
    `idle --reads 0` said idle while a prompt ran; `logs -n -5` printed all but 5 lines."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value):  # NaN, inf
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if value < least or (strict and value == least):
            raise argparse.ArgumentTypeError(
                f"{text} is too small: give {'more than' if strict else 'at least'} {least:g}")
        return value
    return parse


_COUNT = _number(int, 1)  # reads, workers
_LINES = _number(int, 0)
_POSITIVE = _number(float, 0, strict=True)  # seconds, GiB
_INDEX = _number(int, 0)


def _common(after_verb: bool) -> argparse.ArgumentParser:
    """The options every verb takes, accepted before and after the verb. After it they
    default to "not given" (SUPPRESS), so they never undo the same option given before."""
    common = argparse.ArgumentParser(
        add_help=False, argument_default=argparse.SUPPRESS if after_verb else None)
    common.add_argument("--json", action="store_true", help="print one JSON object")
    common.add_argument("--config", type=_given, help="settings file (YAML)")
    common.add_argument("--comfyui", type=_given, help="ComfyUI folder (with main.py)")
    common.add_argument("--python", type=_given, help="python of ComfyUI's environment")
    common.add_argument("--host", help="address to bind (default 127.0.0.1)")
    common.add_argument("--port", type=int, help="port (default 8188)")
    common.add_argument("--allow-remote", action="store_true", default=None,
                        help="allow a --host other than loopback (the server is then reachable "
                             "from the network)")
    common.add_argument("--state-dir", type=_given, help="where state and logs go")
    common.add_argument("-v", "--verbose", action="store_true")
    return common


def _parser() -> argparse.ArgumentParser:
    common = _common(after_verb=True)
    p = argparse.ArgumentParser(
        prog="comfy_service", description="Start, watch, free and stop a ComfyUI server.",
        parents=[_common(after_verb=False)])
    sub = p.add_subparsers(dest="verb", metavar="VERB")
    sub.required = True

    s = sub.add_parser("setup", parents=[common], help="build the embedded ComfyUI (idempotent)")
    s.add_argument("--force", action="store_true", help="rebuild even when up to date")

    for verb, text in (("start", "start ComfyUI detached"),
                       ("restart", "stop, then start with the running server's settings, but for "
                                   "those given here")):
        s = sub.add_parser(verb, parents=[common], help=text)
        s.add_argument("--placement", choices=["resident", "streaming", "phased", "auto", "none"],
                       help="weight placement preset (default auto)")
        s.add_argument("--model-gb", type=_POSITIVE, help="model size in GiB for --placement auto")
        s.add_argument("--start-timeout", type=_POSITIVE, help="seconds to wait for the server")
        s.add_argument("--gpu", type=_INDEX, help="the one GPU this server uses (sets "
                                               "CUDA_VISIBLE_DEVICES): one server per GPU")
        s.add_argument("comfy_args", nargs="*", metavar="-- COMFY_ARG",
                       help="extra ComfyUI flags after --, e.g. -- --disable-mmap")

    sub.add_parser("status", parents=[common], help="running / not running / stale / "
                   "unresponsive (without --port: every server we started)")
    s = sub.add_parser("stop", parents=[common], help="stop the server and its whole process "
                       "tree (without --port: every server we started)")
    s.add_argument("--timeout", type=_POSITIVE, default=15.0, help="seconds between TERM and KILL")
    s = sub.add_parser("free", parents=[common], help="unload models, free memory, report VRAM")
    s.add_argument("--timeout", type=_POSITIVE, default=60.0)
    s.add_argument("--restart-if-held", action="store_true",
                   help="restart when VRAM does not come back")
    s = sub.add_parser("idle", parents=[common], help="exit 0 idle, 9 busy, 10 unknown")
    s.add_argument("--reads", type=_COUNT, default=3)
    s.add_argument("--interval", type=_POSITIVE, default=1.0)
    s = sub.add_parser("switch", parents=[common], help="free the GPU for video or image models")
    s.add_argument("family", choices=["video", "image"])
    s.add_argument("--timeout", type=_POSITIVE, default=600.0)
    sub.add_parser("stacks", parents=[common], help="dump every server thread's stack")
    s = sub.add_parser("logs", parents=[common], help="print (or follow) the server log")
    s.add_argument("-f", "--follow", action="store_true")
    s.add_argument("-n", "--lines", type=_LINES, default=40)
    sub.add_parser("list", parents=[common], help="every server we started, with its state")
    s = sub.add_parser("who-holds", parents=[common], help="which processes hold a file open")
    s.add_argument("path", type=_given)
    s = sub.add_parser("link-pack", parents=[common],
                       help="link the node pack into a ComfyUI's custom_nodes")
    s.add_argument("--install-deps", action="store_true",
                   help="also pip-install the pack's packages into ComfyUI's python")
    _h3_parsers(sub, common)
    return p


def _h3_parsers(sub, common: argparse.ArgumentParser) -> None:
    """`models` and `doctor`: getting a box ready for H3 (service/models.py, doctor.py)."""
    s = sub.add_parser("models", parents=[common],
                       help="fetch the H3 workflow's model files into ComfyUI's models/")
    s.add_argument("--only", nargs="+", metavar="NAME", help="just these files (by name)")
    s.add_argument("--models-dir", type=_given, help="models folder (default: <comfyui>/models)")
    s.add_argument("--table", type=_given, help="model table JSON (default: the official files)")
    s.add_argument("--workflow", type=_given, help="workflow whose files to fetch "
                                                 "(default: api_workflows/h3_sprite.json)")
    s.add_argument("--workers", type=_COUNT, default=4, help="files fetched at once")
    s = sub.add_parser("doctor", parents=[common],
                       help="is this box ready for an H3 batch? one line per fact, then advice")
    s.add_argument("--models-dir", type=_given, help="models folder (default: the running "
                   "server's --base-directory/models, else <comfyui>/models)")
    s.add_argument("--table", type=_given, help="model table JSON (default: the official files)")
    s.add_argument("--workflow", type=_given, help="workflow to check (default: h3_sprite.json)")
    s.add_argument("--out", type=_given, default=Path("."), help="where the batch will write")


def _flags(args: argparse.Namespace) -> dict:
    """The settings as the command line gives them (None: not given)."""
    flags = {
        "comfyui": args.comfyui, "python": args.python, "host": args.host, "port": args.port,
        "state_dir": args.state_dir, "allow_remote": args.allow_remote,
        "placement": getattr(args, "placement", None),
        "model_gb": getattr(args, "model_gb", None),
        "start_timeout": getattr(args, "start_timeout", None),
        "gpu": getattr(args, "gpu", None),
    }
    if getattr(args, "comfy_args", None):
        flags["extra_args"] = args.comfy_args
    return flags


def _config(args: argparse.Namespace):
    return resolve(_flags(args), config_file=args.config)


def _new_settings(args: argparse.Namespace) -> dict:
    """What restart's command line changes on the running server: every setting it names
    but the port and the state folder, which say which server."""
    return {k: v for k, v in _flags(args).items()
            if v is not None and k not in ("port", "state_dir")}


def run(args: argparse.Namespace) -> Result:
    if args.verb == "setup":
        emb = embedded.build(force=args.force)
        return Result(Exit.OK, f"embedded ComfyUI {embedded.COMFYUI_VERSION} ready at "
                               f"{emb.comfyui}", {"comfyui": str(emb.comfyui),
                                                  "python": str(emb.python)})
    if args.verb == "who-holds":
        if not args.path.exists():
            return Result(Exit.ERROR, f"no such file: {args.path}", {})  # 2 is for usage
        holders = who_holds(args.path)
        if not holders:
            return Result(Exit.OK, f"no process holds {args.path}", {"holders": []})
        names = ", ".join(f"pid {h['pid']} ({h['name']}, {'/'.join(h['how'])})" for h in holders)
        return Result(Exit.OK, f"{args.path} is held by {names}", {"holders": holders})
    cfg = _config(args)
    if args.verb == "models":
        from service import models

        return models.run(cfg, models_dir=args.models_dir, table=args.table,
                          workflow=args.workflow, only=args.only, workers=args.workers)
    if args.verb == "doctor":
        from service import doctor

        return doctor.run(cfg, models_dir=args.models_dir, table=args.table,
                          workflow=args.workflow, out=args.out)
    if args.verb == "start":
        return manager.start(cfg)
    if args.verb == "restart":
        return manager.restart(cfg, _new_settings(args))
    # No port chosen anywhere (flag, environment, config file): every server we started.
    every_port = cfg.port == ServiceConfig.model_fields["port"].default and args.port is None
    if args.verb == "status":
        return every.on_each(cfg, "status", manager.status) if every_port \
            else manager.status(cfg)
    if args.verb == "stop":
        def stop(c):
            return manager.stop(c, timeout=args.timeout)

        return every.on_each(cfg, "stop", stop) if every_port else stop(cfg)
    if args.verb == "list":
        return every.listing(cfg)
    if args.verb == "free":
        return manager.free(cfg, timeout=args.timeout, restart_if_held=args.restart_if_held)
    if args.verb == "idle":
        return manager.idle(cfg, reads=args.reads, interval=args.interval)
    if args.verb == "switch":
        return manager.switch(cfg, args.family, timeout=args.timeout)
    if args.verb == "stacks":
        return manager.stacks(cfg)
    if args.verb == "link-pack":
        return manager.link_pack(cfg, install_deps=args.install_deps)
    if args.verb == "logs":
        log = manager.latest_log(cfg)
        if log is None or not log.exists():
            return Result(Exit.NOT_RUNNING, f"no server log for port {cfg.port} in "
                                            f"{cfg.state_dir / 'logs'}", {})
        try:  # the state file names it, and a hand may have edited that
            stat_regular(log)
        except (OSError, NotRegular) as e:
            why = e.reason if isinstance(e, NotRegular) else f"cannot be read: {e.strerror}"
            return Result(Exit.ERROR, f"logs: {log} {why}: the state file "
                                      f"{manager.state_path(cfg)} names it; move that file "
                                      "away if it is not ours", {"log": str(log)})
        if args.follow:
            print(manager.tail(log, args.lines), flush=True)
            manager.follow(log)
        return Result(Exit.OK, f"log {log}", {"log": str(log)},
                      detail=manager.tail(log, args.lines))
    raise AssertionError(args.verb)


def render(res: Result, as_json: bool) -> None:
    if as_json:
        print(res.to_json())
        return
    stream = sys.stdout if res.code == Exit.OK else sys.stderr
    if res.detail and res.code != Exit.OK:
        print(res.detail, file=stream)
    print(res.message if res.code == Exit.OK else f"comfy_service: {res.message}", file=stream)
    if res.detail and res.code == Exit.OK:
        print(res.detail, file=stream)


# What Ctrl-C leaves, for verbs that change something and do not say it themselves (start,
# stop and models do). `logs --follow` ends on Ctrl-C as `tail -f` does, without a word.
_INTERRUPTED = {
    "setup": "interrupted; run `comfy_service setup` again to finish the build",
    "restart": "interrupted; `comfy_service status` says whether a server runs",
    "free": "interrupted; the server may still be freeing memory (`comfy_service status`)",
    "switch": "interrupted; the server may still be freeing memory (`comfy_service status`)",
    "link-pack": "interrupted; run `comfy_service link-pack` again to finish",
    "logs": "",
}


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM (`timeout`, systemd, kill) ends a verb as Ctrl-C does: `timeout 3
    comfy_service start` exited 124 without a word and left the server it began running."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _terminated)
    parser = _parser()
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return Exit.USAGE if e.code else Exit.OK
    logging.basicConfig(level=logging.INFO if args.verbose or args.verb == "setup"
                        else logging.WARNING, format="%(message)s")
    try:
        res = run(args)
    except ConfigError as e:
        res = Result(Exit.CONFIG, str(e))
    except NotJSON as e:  # a ValueError too, but no bad setting of the user's
        res = Result(Exit.ERROR, str(e))
    except ValueError as e:  # ModelError and the like: bad input, named in one line
        res = Result(Exit.CONFIG, str(e))
    except embedded.EmbeddedBuildError as e:
        res = Result(Exit.ERROR, f"setup: {e}")
    except KeyboardInterrupt as e:  # the verb's own words where it said what it left
        if line := str(e) or _INTERRUPTED.get(args.verb, "interrupted; nothing was changed"):
            print(f"comfy_service {args.verb}: {line}", file=sys.stderr)
        return Exit.INTERRUPTED
    except requests.HTTPError as e:  # an OSError; its own words lack what to do
        res = Result(Exit.ERROR, request_error_line(e))
    except OSError as e:
        res = Result(Exit.ERROR, f"{e.strerror or e}: {getattr(e, 'filename', '') or ''}".rstrip(
            ": "))
    except Exception as e:  # a bug of ours: one line here, the traceback when asked for
        if os.environ.get("H3SPRITE_DEBUG"):
            raise
        res = Result(Exit.ERROR, f"internal error {type(e).__name__}: {e} (set "
                                 "H3SPRITE_DEBUG=1 for the traceback, and please report it)")
    render(res, getattr(args, "json", False))
    return int(res.code)


if __name__ == "__main__":
    sys.exit(main())
