"""API-format workflows and their markers: the driver's inputs found by node title.

A user exports any graph with "Save (API)", then marks nodes by putting markers in their
titles (several markers may share one title, with other words around them):

    @portrait  LoadImage-like node: its `image` input gets the uploaded portrait's name
    @prompt    its `text` (or `value`, `prompt`) input gets the action's wording
    @seconds   its `seconds` input (or `length` / `frames`, snapped to 17k+5)
    @size      Snap Size (`aspect`=custom + custom_width/height) or a node with width/height
    @seed      its `seed` (or `noise_seed`) input
    @clip      the video-saving node: its `filename_prefix` gets a per-job prefix
    @action    optional: its `action` input gets the action name (Preview Motion)

The video node needs no marker: it is the node whose `first_frame` input is linked (to the
prepared portrait). Loop closure links the same source to its `last_frame` as well, so the
clip must come back to its first pose.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass
from pathlib import Path

from comfy_nodes.core.safeyaml import YamlLimitError, read_limited
from comfy_nodes.core.snap import snap_length

REQUIRED_MARKERS = ("@portrait", "@prompt", "@seconds", "@size", "@seed", "@clip")
OPTIONAL_MARKERS = ("@action",)
TEXT_INPUTS = ("text", "value", "prompt")
SEED_INPUTS = ("seed", "noise_seed")
# Loader inputs that name model files, and the /models/<folder> that must list them.
MODEL_INPUTS = {
    ("UNETLoader", "unet_name"): "diffusion_models",
    ("LoraLoaderModelOnly", "lora_name"): "loras",
    ("LoraLoader", "lora_name"): "loras",
    ("CLIPLoader", "clip_name"): "text_encoders",
    ("DualCLIPLoader", "clip_name1"): "text_encoders",
    ("DualCLIPLoader", "clip_name2"): "text_encoders",
    ("VAELoader", "vae_name"): "vae",
    ("CheckpointLoaderSimple", "ckpt_name"): "checkpoints",
}
# Node classes not in every ComfyUI, and where they come from (for preflight's messages).
KNOWN_PACKS = {
    "MiniMaxLowVRAMAttention": "the ComfyUI-KJNodes pack (kijai/ComfyUI-KJNodes)",
    "MiniMaxChunkFeedForward": "the ComfyUI-KJNodes pack (kijai/ComfyUI-KJNodes)",
}
# Native in ComfyUI core since H3 support landed (after the 0.3.75 we embed).
H3_CORE_CLASSES = ("MiniMaxH3ImageToVideo",)
FIRST_FRAME, LAST_FRAME = "first_frame", "last_frame"
# Classes known to take a last_frame (preflight asks the server about any other).
LAST_FRAME_CLASSES = ("MiniMaxH3ImageToVideo", "H3Sprite_PreviewMotion")


class WorkflowError(ValueError):
    """The workflow file cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class Workflow:
    path: Path
    graph: dict

    @classmethod
    def load(cls, path: Path) -> Workflow:
        constants: list[str] = []  # NaN, Infinity: Python's json takes them, ComfyUI's not

        def constant(name: str) -> float:
            constants.append(name)
            return float(name)

        try:  # a regular file of bounded size, never deeper than Python recurses (issue 10)
            data = json.loads(read_limited(Path(path), "workflow", limit=16 << 20),
                              parse_constant=constant)
        except YamlLimitError as e:
            raise WorkflowError(str(e)) from None
        except RecursionError:
            raise WorkflowError(f"workflow {path} is nested too deeply") from None
        except ValueError as e:
            raise WorkflowError(f"workflow {path} is not JSON: {e}") from None
        if isinstance(data, dict) and "nodes" in data and "links" in data:
            raise WorkflowError(f"workflow {path} is in UI format: export it from ComfyUI with "
                                "\"Save (API)\"")
        if not isinstance(data, dict) or not data or not all(
                isinstance(n, dict) and "class_type" in n and "inputs" in n
                for n in data.values()):
            raise WorkflowError(f"workflow {path} is not an API-format graph (a mapping of "
                                "node id -> {class_type, inputs})")
        if constants:  # strict JSON only: the server's request would fail, not this check
            where = next((f"node {nid} ({n['class_type']}) input {name!r}"
                          for nid, n in data.items() if isinstance(n["inputs"], dict)
                          for name, v in n["inputs"].items()
                          if isinstance(v, float) and not math.isfinite(v)), "")
            raise WorkflowError(f"workflow {path} holds {constants[0]}"
                                f"{' at ' + where if where else ''}: JSON has no such number "
                                "(a request to ComfyUI cannot carry it); give a finite value")
        return cls(Path(path), data)

    def with_overrides(self, overrides: dict[str, dict]) -> Workflow:
        """The graph with a joblist's `overrides` applied ({node id or @marker: {input:
        value}}), so checks see the model files the jobs will really load."""
        if not overrides:
            return self
        g = copy.deepcopy(self.graph)
        marks = self.markers()
        for target, values in overrides.items():
            for node_id in marks.get(target, [target]):
                if node_id in g:
                    g[node_id]["inputs"].update(values)
        return Workflow(self.path, g)

    def markers(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for node_id, node in self.graph.items():
            title = str(node.get("_meta", {}).get("title", ""))
            for token in title.split():
                if token.startswith("@"):
                    found.setdefault(token, []).append(node_id)
        return found

    def missing_markers(self) -> list[str]:
        have = self.markers()
        return [m for m in REQUIRED_MARKERS if m not in have]

    def class_types(self) -> set[str]:
        return {n["class_type"] for n in self.graph.values()}

    def keyframe_nodes(self) -> list[str]:
        """Ids of the nodes whose `first_frame` input is linked (the video node)."""
        return [nid for nid, node in self.graph.items()
                if isinstance(node["inputs"].get(FIRST_FRAME), list)]

    def _upstream(self, node_id: str) -> set[str]:
        seen: set[str] = set()
        todo = [node_id]
        while todo:
            nid = todo.pop()
            for v in self.graph.get(nid, {}).get("inputs", {}).values():
                if isinstance(v, list) and v and str(v[0]) not in seen:
                    seen.add(str(v[0]))
                    todo.append(str(v[0]))
        return seen

    def keyframe_problem(self) -> str | None:
        """Why the portrait does not reach a video node's first_frame, or None."""
        portraits = self.markers().get("@portrait", [])
        nodes = self.keyframe_nodes()
        if not nodes:
            return (f"workflow {self.path} has no node with a linked {FIRST_FRAME} input: "
                    f"connect the prepared portrait to the video node's {FIRST_FRAME}")
        if portraits and not any(set(portraits) & self._upstream(n) for n in nodes):
            return (f"workflow {self.path}: the {FIRST_FRAME} of node(s) "
                    f"{', '.join(nodes)} does not come from the @portrait node: connect "
                    "the prepared portrait to it")
        return None

    def loop_closure_problem(self, info: dict | None = None) -> str | None:
        """Why loop closure cannot be bound, or None. Without the server's /object_info
        only known classes (or a last_frame already in the graph) count as able."""
        for nid in self.keyframe_nodes():
            node = self.graph[nid]
            cls = node["class_type"]
            if LAST_FRAME in node["inputs"] or cls in LAST_FRAME_CLASSES:
                return None
            if info is None or cls not in info:
                return None  # cannot tell here: offline, or the class itself is missing
            spec = info[cls].get("input", {})
            if LAST_FRAME in {**spec.get("required", {}), **spec.get("optional", {})}:
                return None
        return (f"loop_closure is on but workflow {self.path} has no video node with a "
                f"{LAST_FRAME} input (node(s) {', '.join(self.keyframe_nodes()) or 'none'}): "
                "set loop_closure: false or use a graph whose video node takes last_frame")

    def model_files(self) -> list[tuple[str, str, str]]:
        """(folder, file name, node id) of every model file the graph names."""
        out = []
        for node_id, node in self.graph.items():
            for (cls_name, inp), folder in MODEL_INPUTS.items():
                value = node["inputs"].get(inp)
                if node["class_type"] == cls_name and isinstance(value, str):
                    out.append((folder, value, node_id))
        return out

    def bind(self, *, portrait: str, prompt: str, seconds: float, size: tuple[int, int],
             seed: int, clip_prefix: str, action: str | None = None,
             loop_closure: bool = False) -> dict:
        """A copy of the graph with the job's values set at the marked nodes; with
        `loop_closure`, the first frame is also the last (the clip must return to it)."""
        missing = self.missing_markers()
        if missing:
            raise WorkflowError(f"workflow {self.path} lacks marker(s) {', '.join(missing)}: "
                                "put them in the titles of the nodes they drive")
        g = copy.deepcopy(self.graph)
        marks = self.markers()

        def each(marker: str):
            for node_id in marks.get(marker, []):
                yield node_id, g[node_id]["inputs"]

        def set_one(marker: str, names: tuple[str, ...], value) -> None:
            for node_id, inputs in each(marker):
                name = next((n for n in names if n in inputs), None)
                if name is None:
                    raise WorkflowError(
                        f"workflow {self.path}: node {node_id} marked {marker} has none of the "
                        f"inputs {', '.join(names)}")
                inputs[name] = value

        set_one("@portrait", ("image",), portrait)
        set_one("@prompt", TEXT_INPUTS, prompt)
        set_one("@seed", SEED_INPUTS, int(seed))
        set_one("@clip", ("filename_prefix",), clip_prefix)
        for node_id, inputs in each("@seconds"):
            if "seconds" in inputs:
                inputs["seconds"] = float(seconds)
            elif "length" in inputs or "frames" in inputs:
                inputs["length" if "length" in inputs else "frames"] = snap_length(seconds)
            else:
                raise WorkflowError(f"workflow {self.path}: node {node_id} marked @seconds has "
                                    "no seconds, length or frames input")
        w, h = size
        for node_id, inputs in each("@size"):
            if "custom_width" in inputs:
                inputs.update(aspect="custom", custom_width=int(w), custom_height=int(h))
            elif "width" in inputs and "height" in inputs:
                inputs.update(width=int(w), height=int(h))
            else:
                raise WorkflowError(f"workflow {self.path}: node {node_id} marked @size has "
                                    "neither custom_width/custom_height nor width/height")
        if action is not None:
            for _, inputs in each("@action"):
                if "action" in inputs:
                    inputs["action"] = action
        if loop_closure:
            problem = self.keyframe_problem() or self.loop_closure_problem()
            if problem:
                raise WorkflowError(problem)
            for nid in self.keyframe_nodes():
                g[nid]["inputs"][LAST_FRAME] = list(g[nid]["inputs"][FIRST_FRAME])
        return g
