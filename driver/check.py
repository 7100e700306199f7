"""Checks before any GPU work: the joblist on its own (`check`), then against the server
(`preflight`). Each returns every problem found, one line each, so a user fixes them all
in one go."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from comfy_nodes.core.greenscreen import PortraitError, load_portrait
from comfy_nodes.core.safeyaml import short
from comfy_nodes.core.sheet import max_width_problem
from comfy_nodes.core.util import did_you_mean, folder_problem
from driver import disk
from driver.joblist_load import JoblistError, Loaded
from driver.outputs import out_problem, own_names
from driver.workflow import H3_CORE_CLASSES, KNOWN_PACKS, Workflow, WorkflowError
from service.config import ConfigError, resolve
from service.models import FileState, ModelError, human, inspect_path, load_table, models_dir_of

MIN_PORTRAIT_SIDE = 32
GGUF_REASON = {
    "diffusion_models": "the GGUF loader's architecture whitelist has no H3 (\"Unknown model "
                        "architecture\"); use the convrot int4/int8 safetensors with UNETLoader",
    "text_encoders": "the H3 text-encoder GGUF lacks general.architecture and is refused; use "
                     "the nvfp4_awq safetensors text encoder on the CPU",
}


def folder_problems(job: Loaded) -> list[str]:
    """`out` and `work` must be (or become) folders the batch can write into: a file in the
    way, or a read-only folder, is named before anything is created or generated."""
    problems = [out_problem(job.out, "out"), folder_problem(job.work, "work")]
    return [p for p in problems if p]


def shared_folders(job: Loaded) -> list[str]:
    """Jobs whose folders would be one: a work folder is named <character>_<action>, so
    x/run_fast and x_run/fast shared one clip and one character shipped the other's sprite;
    and names differing only in case are one folder on macOS and Windows."""
    folders: dict[Path, list[str]] = {}  # by the folder's name casefolded: the names in it
    first: dict[Path, Path] = {}  # the folder as the first name gives it
    for cid in job.spec.characters:
        paths = [(job.sheet_dir(cid), cid)] + [
            (job.work_dir(cid, a), f"{cid}/{a}") for a in job.actions_of(cid)]
        for path, name in paths:
            key = path.parent / path.name.casefold()
            folders.setdefault(key, []).append(name)
            first.setdefault(key, path)
    problems = [f"{job.path}: {' and '.join(names)} would share the folder {first[key]}: "
                "rename one of them" for key, names in folders.items() if len(names) > 1]
    # ... nor meet the out folder's own files: a character `actions.json` failed after its
    # clip was made, and one named `_logs` put its sheets among the logs.
    own = {job.out / n.casefold(): n for n in own_names()}
    for key, names in folders.items():
        if key in own:
            problems.append(f"{job.path}: {names[0]} would take the out folder's own "
                            f"{own[key]} ({first[key]}): rename it")
    return problems


def check(job: Loaded, characters: set[str] | None = None) -> list[str]:
    """What stops a batch before anything is submitted, one line each. `characters`: the
    ones a batch runs (--chars, --only): only their portraits are read, so one character's
    broken portrait does not stop a run of the others (`driver check` reads them all)."""
    problems = folder_problems(job)
    # Pitfall 7: the roster must match the wording table's keys exactly.
    roster = {job.wording_key(c) for c in job.spec.characters}
    words = set(job.wording)
    if roster != words:
        if roster - words:
            problems.append(f"wording table lacks {', '.join(sorted(roster - words))} "
                            "(characters without wording)")
        if words - roster:
            problems.append(f"wording table has {', '.join(sorted(words - roster))} that no "
                            "character uses (a roster drift?)")
    # Pitfall 6: every portrait fully decodes, has alpha and a usable size.
    for cid in job.spec.characters:
        if characters is not None and cid not in characters:
            continue
        path = job.portrait(cid)
        try:
            rgba = load_portrait(path)
        except PortraitError as e:
            problems.append(f"character {cid}: {e}")
            continue
        visible = rgba[..., 3] > 8
        ys, xs = visible.nonzero()
        vw, vh = int(np.ptp(xs)) + 1, int(np.ptp(ys)) + 1
        if min(vw, vh) < MIN_PORTRAIT_SIDE:
            problems.append(f"character {cid}: portrait {path} shows only {vw}x{vh} visible "
                            f"pixels (need "
                            f">= {MIN_PORTRAIT_SIDE} on each side)")
    longest = (0, "")  # the most sheet frames of any job, and its action
    for cid in job.spec.characters:  # every recipe, whatever its character's portrait
        for action in job.actions_of(cid):
            try:
                longest = max(longest, (job.recipe(cid, action).frames, action))
            except JoblistError as e:
                problems.append(str(e))
    problems += shared_folders(job)
    # One line for the action of most frames: the width it needs is enough for every other.
    if narrow := max_width_problem(job.spec.max_width, *longest, "max_width"):
        problems.append(f"{job.path}: {narrow}")
    known = set(job.spec.actions) | {a for c in job.spec.characters for a in job.actions_of(c)}
    settings = [("loop_closure", job.spec.loop_closure)] + [
        (f"characters.{c}.loop_closure", ch.loop_closure) for c, ch in job.spec.characters.items()]
    for where, setting in settings:
        if isinstance(setting, dict) and set(setting) - known:
            problems.append(f"{job.path}: {where} names {', '.join(sorted(set(setting) - known))}"
                            f", not an action of this joblist ({', '.join(sorted(known))})")
    for action in job.spec.prompts:  # `wlak:` was taken, and walk kept the default prompt
        if action not in known:
            problems.append(f"{job.where(('prompts', action))}: prompts: {short(action)} is "
                            "not an action of this joblist" + did_you_mean(action, known, True))
    try:
        base = Workflow.load(job.workflow)
        wf = base.with_overrides(job.spec.overrides)
    except WorkflowError as e:
        problems.append(str(e))
        return problems
    missing = wf.missing_markers()
    if missing:
        problems.append(f"workflow {job.workflow} lacks marker(s) {', '.join(missing)} in its "
                        "node titles")
    keyframe = wf.keyframe_problem()
    if keyframe:
        problems.append(keyframe)
    elif job.loop_closure_wanted() and (closure := wf.loop_closure_problem()):
        problems.append(closure)
    problems += override_problems(job, base)  # the graph as written: overrides add names
    for folder, name, node_id in wf.model_files():
        if name.lower().endswith(".gguf") and folder in GGUF_REASON:
            problems.append(f"workflow node {node_id} loads {name}: H3 GGUF files do not work: "
                            f"{GGUF_REASON[folder]}")
    problems += broken_model_files(wf, embedded_models_dir(job))
    return problems


def embedded_models_dir(job: Loaded) -> Path | None:
    """The models folder of the joblist's embedded server (its --base-directory, else the
    ComfyUI folder), as the batch will start it; None for a URL server, whose files we
    cannot see."""
    spec = job.spec.server
    if not spec.embedded:
        return None
    try:
        cfg = resolve({"port": spec.port, "extra_args": spec.comfy_args or None})
    except ConfigError:
        return None  # the batch's own start names a bad setting
    return models_dir_of(cfg)


def broken_model_files(wf: Workflow, models_dir: Path | None) -> list[str]:
    """Model files that are present but cannot be whole: 0 bytes, smaller than the model
    table's size or than their own safetensors header declares, or not safetensors at all.
    ComfyUI lists such a file like a good one, and the job would fail only after minutes of
    loading. A missing file is preflight's to name (the
    server may find it in another folder, extra_model_paths.yaml)."""
    if models_dir is None:
        return []
    try:
        table = {(m.folder, m.file): m for m in load_table()}
    except ModelError:
        table = {}
    problems = []
    for folder, name, node_id in wf.model_files():
        path = models_dir / folder / name
        mf = table.get((folder, name))
        state, size = inspect_path(path, mf)
        fix = (f"move it away, then `comfy_service models --models-dir {models_dir} "
               f"--only {name}`" if mf else "move it away and put the whole file there")
        where = f"workflow node {node_id}"
        if state is FileState.EMPTY:
            problems.append(f"model file {path} is 0 bytes (an empty or failed download; "
                            f"{where}): {fix}")
        elif state is FileState.TRUNCATED:
            of = f" of {mf.size_words()}" if mf else ", less than its own header declares"
            problems.append(f"model file {path} is {human(size)}{of}: a truncated download "
                            f"({where}): {fix}")
        elif state is FileState.INVALID:
            problems.append(f"model file {path} ({human(size)}) is not a safetensors file (an "
                            f"error page saved under its name?) ({where}): {fix}")
    return problems


def _input_spec(info: dict, cls: str, name: str) -> tuple[str, dict] | None:
    """(type, options) of a node class's input from /object_info, or None if it has none."""
    inputs = info.get(cls, {}).get("input", {})
    for group in ("required", "optional"):
        spec = inputs.get(group, {}).get(name)
        if isinstance(spec, list) and spec:
            kind = spec[0] if isinstance(spec[0], str) else "COMBO"
            opts = spec[1] if len(spec) > 1 and isinstance(spec[1], dict) else {}
            if kind == "COMBO" and isinstance(spec[0], list):
                opts = {**opts, "options": spec[0]}
            return kind, opts
    return None


def override_problems(job: Loaded, wf: Workflow, info: dict | None = None) -> list[str]:
    """Each override names a node (or marker) of the workflow and an input that node has;
    with the server's /object_info, the value must also fit the input's type and range."""
    problems: list[str] = []
    marks = wf.markers()
    for target, values in job.spec.overrides.items():
        if target not in wf.graph and target not in marks:
            problems.append(f"overrides: {short(target)} is neither a node id nor a marker of "
                            f"workflow {job.workflow}")
            continue
        for node_id in marks.get(target, [target]):
            node = wf.graph[node_id]
            cls = node["class_type"]
            for name, value in values.items():
                where = f"overrides: {short(target)}.{short(name)} (node {node_id}, {cls})"
                spec = _input_spec(info, cls, name) if info is not None else None
                if name not in node["inputs"] and spec is None:
                    have = ", ".join(sorted(node["inputs"]))[:200]
                    problems.append(f"{where}: the node has no such input; it has {have}")
                    continue
                if isinstance(node["inputs"].get(name), list):
                    problems.append(f"{where}: that input is linked to another node; "
                                    "override the node that feeds it")
                    continue
                if spec is not None:
                    bad = _out_of_spec(value, *spec)
                    if bad:
                        problems.append(f"{where}: {short(value)} {bad}")
    return problems


def _out_of_spec(value, kind: str, opts: dict) -> str:
    if kind in ("INT", "FLOAT"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"is not a number ({kind})"
        if kind == "INT" and not float(value).is_integer():
            return "is not a whole number"
        lo, hi = opts.get("min"), opts.get("max")
        if lo is not None and value < lo:
            return f"is below the input's minimum {lo}"
        if hi is not None and value > hi:
            return f"is above the input's maximum {hi}"
    elif kind == "BOOLEAN" and not isinstance(value, bool):
        return "is not true/false"
    elif kind == "STRING" and not isinstance(value, str):
        return "is not text"
    elif kind == "COMBO" and "options" in opts and value not in opts["options"]:
        return f"is not one of the input's choices ({short(opts['options'], 120)})"
    return ""


def preflight(job: Loaded, client, n_jobs: int) -> list[str]:
    """Against the live server: node classes, model files, free disk."""
    problems: list[str] = []
    base = Workflow.load(job.workflow)
    wf = base.with_overrides(job.spec.overrides)
    info = client.node_info(wf.class_types())  # overrides add no nodes: base's classes too
    missing = sorted(wf.class_types() - set(info))
    version = client.comfyui_version() if missing else ""
    for cls in missing:
        if cls in H3_CORE_CLASSES:
            problems.append(f"{cls}: not in this ComfyUI ({version}) at {client.base_url}; H3 "
                            "needs a ComfyUI with native H3 nodes (update ComfyUI)")
        elif cls in KNOWN_PACKS:
            problems.append(f"{cls}: not in ComfyUI at {client.base_url}; it comes from "
                            f"{KNOWN_PACKS[cls]}: install it into custom_nodes")
        else:
            problems.append(f"{cls}: not in ComfyUI at {client.base_url} (a node pack the "
                            "workflow needs is not installed)")
    if job.loop_closure_wanted() and (closure := wf.loop_closure_problem(info)):
        problems.append(closure)
    # Against the graph as written (the overridden one has every overridden name), now with
    # the server's types and ranges.
    problems += override_problems(job, base, info)
    listed: dict[str, list[str] | None] = {}
    for folder, name, node_id in wf.model_files():
        if folder not in listed:
            listed[folder] = client.models(folder)
        files = listed[folder]
        if files is not None and name not in files:
            problems.append(f"model file missing: {name} in models/{folder} (workflow node "
                            f"{node_id}, server {client.base_url}); `comfy_service models` "
                            "fetches the official files")
    free = disk.free_bytes(job.out)  # of the nearest existing folder: creates nothing
    need = disk.need_for(n_jobs)
    if free < need:
        problems.append(f"only {free / 2**30:.1f} GiB free under {job.out}; need about "
                        f"{need / 2**30:.1f} GiB")
    return problems
