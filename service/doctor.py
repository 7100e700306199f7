"""`comfy_service doctor`: is this box ready for an H3 batch? One line per fact, then advice.

Facts: the running ComfyUI's version and H3 classes, KJNodes, each model file of the
workflow in its folder with its size against the expected one (a truncated download is
named), GGUF files refused with the reason, RAM for the text encoder kept on the CPU, free
VRAM against the placement rule, free disk, transparent huge pages, the flags in effect.
Exit 0 when ready, 1 when not.
"""

from __future__ import annotations

import enum
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil
import requests

from driver.check import GGUF_REASON
from driver.workflow import H3_CORE_CLASSES, KNOWN_PACKS, Workflow, WorkflowError
from service import placement
from service.config import ServiceConfig
from service.manager import Exit, Result, served
from service.models import (
    DEFAULT_WORKFLOW,
    FileState,
    ModelFile,
    human,
    inspect_path,
    load_table,
    models_dir_of,
)

GIB = 2**30
RAM_HEADROOM_GIB = 16  # besides the text encoder: ComfyUI, the OS, the page cache of weights
RAM_GOOD_GIB = 60  # 64 GB boxes ran 25 s per clip warm; 32 GB 6-10 min (field notes)
VRAM_FLOOR_GIB = 7.4  # peak 7505 MiB measured with --lowvram and KJNodes' chunking
DISK_NEED_GIB = 5.0  # clips, sheets and logs of a night's batch, with room to spare
MMAP_LIMIT = 20 * 10**9  # Windows crashes mmapping safetensors above this (--disable-mmap)
THP_FILE = Path("/sys/kernel/mm/transparent_hugepage/enabled")


class Level(enum.Enum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass
class Fact:
    level: Level
    topic: str
    text: str
    advice: str = ""


@dataclass
class Report:
    facts: list[Fact] = field(default_factory=list)

    def add(self, level: Level, topic: str, text: str, advice: str = "") -> None:
        self.facts.append(Fact(level, topic, text, advice))

    @property
    def ready(self) -> bool:
        return all(f.level is not Level.FAIL for f in self.facts)

    def lines(self) -> list[str]:
        out = [f"{f.level.value:<5} {f.topic}: {f.text}" for f in self.facts]
        advice = [f.advice for f in self.facts if f.advice and f.level is not Level.OK]
        if advice:
            out += ["advice:"] + [f"  - {a}" for a in dict.fromkeys(advice)]
        return out


def _server(rep: Report, cfg: ServiceConfig, wf: Workflow) -> list[str]:
    """Version, node classes, CLIPLoader's minimax type; returns the server's argv."""
    try:
        stats = _comfy_json(cfg.base_url, "/system_stats", 5)
        info = _comfy_json(cfg.base_url, "/object_info", 30)
    except (requests.ConnectionError, requests.Timeout):
        rep.add(Level.FAIL, "ComfyUI", f"no server answers at {cfg.base_url}",
                "start it (comfy_service start) and run doctor again to check its nodes")
        return []
    except (requests.RequestException, ValueError) as e:  # it answered, not as ComfyUI
        rep.add(Level.FAIL, "ComfyUI", f"another program answers at {cfg.base_url}, not "
                f"ComfyUI ({e})", "stop that program, or start ComfyUI on another port "
                "(--port); `comfy_service status` says whose the port is")
        return []
    version = stats.get("system", {}).get("comfyui_version", "unknown")
    missing = sorted(wf.class_types() - set(info))
    h3 = [c for c in missing if c in H3_CORE_CLASSES]
    if h3:
        rep.add(Level.FAIL, "ComfyUI", f"{', '.join(h3)}: not in "
                f"this ComfyUI ({version}) at {cfg.base_url}; H3 needs a ComfyUI with native "
                "H3 nodes",
                "update ComfyUI to a release with native MiniMax H3 support")
    else:
        rep.add(Level.OK, "ComfyUI", f"{version} at {cfg.base_url}, native H3 nodes present")
    types = info.get("CLIPLoader", {}).get("input", {}).get("required", {}).get("type", [[]])
    if "CLIPLoader" in wf.class_types() and "minimax" not in types[0]:
        rep.add(Level.FAIL, "ComfyUI", "CLIPLoader has no type 'minimax' (H3's text encoder)",
                "update ComfyUI to a release with native MiniMax H3 support")
    kj = [c for c in missing if c in KNOWN_PACKS]
    for cls in kj:
        rep.add(Level.FAIL, "KJNodes", f"{cls} missing: it comes from {KNOWN_PACKS[cls]}",
                "install ComfyUI-KJNodes into custom_nodes (git clone "
                "https://github.com/kijai/ComfyUI-KJNodes) and restart ComfyUI")
    if not kj and any(c in KNOWN_PACKS for c in wf.class_types()):
        rep.add(Level.OK, "KJNodes", "MiniMaxLowVRAMAttention and MiniMaxChunkFeedForward present")
    for cls in missing:
        if cls not in H3_CORE_CLASSES and cls not in KNOWN_PACKS:
            rep.add(Level.FAIL, "nodes", f"{cls} missing (a node pack the workflow needs)",
                    f"install the node pack that provides {cls}")
    return [str(a) for a in stats.get("system", {}).get("argv", [])]


def _comfy_json(base_url: str, route: str, timeout: float) -> dict:
    """The JSON object that ComfyUI answers on `route`, or a ValueError naming what came
    back instead: a program that answered with a 404 or a page was "no server answers"."""
    r = requests.get(f"{base_url}{route}", timeout=timeout)
    if not r.ok:
        raise ValueError(f"{route} answered {r.status_code} {r.reason}")
    try:
        doc = r.json()
    except ValueError:
        raise ValueError(f"{route} answered with a page that is not JSON") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{route} answered JSON that is no object")
    return doc


def _served_models_dir(argv: list[str]) -> Path | None:
    """The models folder of the server that answers, when it runs with --base-directory
    (a server started with other flags than this doctor was given)."""
    for i, arg in enumerate(argv):
        if arg.startswith("--base-directory="):
            return Path(arg.split("=", 1)[1]) / "models"
        if arg == "--base-directory" and i + 1 < len(argv):
            return Path(argv[i + 1]) / "models"
    return None


def _models(rep: Report, wf: Workflow, table: list[ModelFile], models_dir: Path) -> int:
    """Each model file of the workflow; returns the text encoder's expected bytes."""
    by_name = {m.file: m for m in table}
    encoder = 15 * 10**9
    for folder, name, node_id in wf.model_files():
        topic = f"models/{folder}/{name}"
        if name.lower().endswith(".gguf") and folder in GGUF_REASON:
            rep.add(Level.FAIL, topic, f"GGUF (node {node_id}): {GGUF_REASON[folder]}",
                    "use the safetensors files of the model table (comfy_service models)")
            continue
        mf = by_name.get(name)
        if mf is not None and mf.folder != folder:
            mf = None
        if mf is not None and folder == "text_encoders":
            encoder = mf.size
        path = models_dir / folder / name
        state, size = inspect_path(path, mf)
        expected = f"expected {mf.size_words()}" if mf else "not in the model table"
        fetch = (f"comfy_service models --models-dir {models_dir} --only {name}" if mf else
                 f"put the whole {name} in {models_dir / folder}")
        away = f"move {path} away, then {fetch}"
        if state is FileState.OK and (mf or path.suffix == ".safetensors"):
            rep.add(Level.OK, topic, f"{human(size)} ({expected}"
                    f"{'' if mf else '; whole by its own header'})")
        elif state is FileState.OK:
            rep.add(Level.WARN, topic, f"present, {human(size)}, expected size not known "
                    f"({expected})", f"check that {path} is the whole file")
        elif state is FileState.MISSING:
            rep.add(Level.FAIL, topic, f"missing ({expected}{', ' + mf.role if mf else ''})",
                    fetch)
        elif state is FileState.EMPTY:
            rep.add(Level.FAIL, topic, f"0 bytes, {expected}: an empty file", away)
        elif state is FileState.TRUNCATED:
            of = f"of {mf.size_words()}" if mf else "(less than its own header declares)"
            rep.add(Level.FAIL, topic, f"{human(size)} {of}: a truncated download", away)
        elif state is FileState.INVALID:
            rep.add(Level.FAIL, topic, f"{human(size)}, not a safetensors file (an error "
                    "page saved under its name?)", away)
        else:
            rep.add(Level.WARN, topic, f"{human(size)}, larger than the {expected}: another "
                    "build of the file?", f"check {name} against the model table")
    for folder in GGUF_REASON:
        for p in sorted((models_dir / folder).glob("*.gguf")):
            if "h3" in p.name.lower() or "minimax" in p.name.lower():
                rep.add(Level.WARN, f"models/{folder}/{p.name}", f"an H3 GGUF: "
                        f"{GGUF_REASON[folder]}", "H3 GGUF files do not load; remove or ignore")
    return encoder


def _machine(rep: Report, cfg: ServiceConfig, encoder: int, out: Path, argv: list[str],
             largest: int) -> None:
    total = psutil.virtual_memory().total
    need = encoder / GIB + RAM_HEADROOM_GIB
    ram = f"{total / GIB:.1f} GiB; the text encoder (~{encoder / 1e9:.1f} GB) stays on the CPU"
    if total / GIB < need:
        rep.add(Level.FAIL, "RAM", f"{ram}, needs >= {need:.0f} GiB with headroom",
                "H3 on this box re-reads weights every step (16 GB: ~25 min per clip): "
                "use a box with 32 GB RAM or more (64 GB: ~25 s warm)")
    elif total / GIB < RAM_GOOD_GIB:
        rep.add(Level.WARN, "RAM", f"{ram}; 32 GB ran 6-10 min per clip, 64 GB ~25 s warm",
                "more RAM (64 GB) makes clips much faster on 8-12 GB cards")
    else:
        rep.add(Level.OK, "RAM", ram)
    free = placement.gpu_free_gib()
    if free is None:
        rep.add(Level.FAIL, "VRAM", "no NVIDIA GPU found (nvidia-smi); H3 cannot run here",
                "run the batch on a box with an NVIDIA GPU (8 GB or more) and CUDA torch")
    else:
        preset, flags = placement.choose("auto", cfg.model_gb, free)
        text = (f"{free:.1f} GiB free; placement auto -> {preset} ({' '.join(flags) or '-'}) "
                f"for a {cfg.model_gb:g} GiB model")
        if free < VRAM_FLOOR_GIB:
            rep.add(Level.FAIL, "VRAM", text + f"; below the {VRAM_FLOOR_GIB} GiB peak "
                    "measured with --lowvram", "free the GPU (comfy_service free) or use a "
                    "card with 8 GB or more")
        else:
            rep.add(Level.OK, "VRAM", text)
        if preset == "streaming" and argv and "--lowvram" not in argv:
            rep.add(Level.WARN, "flags", "the model does not fit resident but the server "
                    "runs without --lowvram", "restart with --placement streaming "
                    "(or -- --lowvram)")
    out_free = shutil.disk_usage(out if out.exists() else Path.cwd()).free / GIB
    rep.add(Level.OK if out_free >= DISK_NEED_GIB else Level.WARN, "disk",
            f"{out_free:.1f} GiB free under {out.resolve()}",
            f"free some disk: a batch wants ~{DISK_NEED_GIB:g} GiB")
    try:
        thp = THP_FILE.read_text().split("[")[1].split("]")[0]
        rep.add(Level.OK, "THP", f"transparent huge pages '{thp}' system-wide; the launcher "
                "turns them off for ComfyUI (hangs before decode were cured so)")
    except (OSError, IndexError):
        rep.add(Level.OK, "THP", "no transparent huge pages setting here")
    if argv:
        # The server's own argv after main.py, values included (where its models are).
        rep.add(Level.OK, "flags", "in effect: " + (" ".join(argv[1:]) or "none"))
        if sys.platform == "win32" and largest > MMAP_LIMIT and "--disable-mmap" not in argv:
            rep.add(Level.WARN, "flags", "a safetensors file above 20 GB without "
                    "--disable-mmap crashes ComfyUI on Windows",
                    "restart with -- --disable-mmap")


def gather(cfg: ServiceConfig, *, models_dir: Path | None = None, table: Path | None = None,
           workflow: Path | None = None, out: Path = Path(".")) -> Report:
    rep = Report()
    cfg = served(cfg)  # the host our server on the port was started with
    try:
        wf = Workflow.load(workflow or DEFAULT_WORKFLOW)
    except WorkflowError as e:
        rep.add(Level.FAIL, "workflow", str(e))
        return rep
    files = load_table(table)
    argv = _server(rep, cfg, wf)
    encoder = _models(rep, wf, files, models_dir or _served_models_dir(argv)
                      or models_dir_of(cfg))
    _machine(rep, cfg, encoder, out, argv, max((m.size for m in files), default=0))
    return rep


def run(cfg: ServiceConfig, *, models_dir: Path | None, table: Path | None,
        workflow: Path | None, out: Path) -> Result:
    rep = gather(cfg, models_dir=models_dir, table=table, workflow=workflow, out=out)
    fails = [f for f in rep.facts if f.level is Level.FAIL]
    data = {"ready": rep.ready,
            "facts": [{**asdict(f), "level": f.level.value} for f in rep.facts]}
    text = "\n".join(rep.lines())
    if rep.ready:
        return Result(Exit.OK, "ready for an H3 batch", data, detail=text)
    return Result(Exit.ERROR, f"not ready for an H3 batch: {len(fails)} problem(s)", data,
                  detail=text)
