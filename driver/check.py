"""Checks before any GPU work: the joblist on its own (`check`), then against the server
(`preflight`). Each returns every problem found, one line each, so a user fixes them all
in one go."""

from __future__ import annotations

import numpy as np

from comfy_nodes.core.greenscreen import PortraitError, load_portrait
from comfy_nodes.core.safeyaml import short
from driver import disk
from driver.joblist import JoblistError, Loaded
from driver.workflow import KNOWN_PACKS, Workflow, WorkflowError

MIN_PORTRAIT_SIDE = 32
GGUF_REASON = {
    "diffusion_models": "the GGUF loader's architecture whitelist has no H3 (\"Unknown model "
                        "architecture\"); use the convrot int4/int8 safetensors with UNETLoader",
    "text_encoders": "the H3 text-encoder GGUF lacks general.architecture and is refused; use "
                     "the nvfp4_awq safetensors text encoder on the CPU",
}


def check(job: Loaded) -> list[str]:
    problems: list[str] = []
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
        for action in job.actions_of(cid):
            try:
                job.recipe(cid, action)
            except JoblistError as e:
                problems.append(str(e))
    try:
        wf = Workflow.load(job.workflow)
    except WorkflowError as e:
        problems.append(str(e))
        return problems
    missing = wf.missing_markers()
    if missing:
        problems.append(f"workflow {job.workflow} lacks marker(s) {', '.join(missing)} in its "
                        "node titles")
    problems += override_problems(job, wf)
    for folder, name, node_id in wf.model_files():
        if name.lower().endswith(".gguf") and folder in GGUF_REASON:
            problems.append(f"workflow node {node_id} loads {name}: H3 GGUF files do not work: "
                            f"{GGUF_REASON[folder]}")
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
    wf = Workflow.load(job.workflow)
    info = client.object_info()
    missing = sorted(wf.class_types() - set(info))
    for cls in missing:
        pack = KNOWN_PACKS.get(cls)
        problems.append(f"server {client.base_url} lacks node class {cls}"
                        f"{' (from ' + pack + ')' if pack else ''}")
    problems += override_problems(job, wf, info)  # now with the server's types and ranges
    listed: dict[str, list[str] | None] = {}
    for folder, name, node_id in wf.model_files():
        if folder not in listed:
            listed[folder] = client.models(folder)
        files = listed[folder]
        if files is not None and name not in files:
            problems.append(f"server {client.base_url} has no {folder}/{name} (workflow node "
                            f"{node_id}); put the file in ComfyUI's models/{folder}")
    free = disk.free_bytes(job.out)  # of the nearest existing folder: creates nothing
    need = disk.need_for(n_jobs)
    if free < need:
        problems.append(f"only {free / 2**30:.1f} GiB free under {job.out}; need about "
                        f"{need / 2**30:.1f} GiB")
    return problems
