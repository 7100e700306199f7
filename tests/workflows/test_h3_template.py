"""api_workflows/h3_sprite.json against the ground truth: ComfyUI's own MiniMax H3 template
(comfyui-workflow-templates-json, pinned in the dev extras) and the real embedded ComfyUI,
which validates the bound graph with test-only schemas for the nodes 0.3.75 lacks."""

from __future__ import annotations

import json
import re
import sys
from importlib import resources
from pathlib import Path

import pytest
import requests

from driver.client import ComfyClient, ExecutionFailed
from driver.workflow import Workflow
from service import manager
from service.config import resolve
from tests.conftest import REPO, free_port
from tests.driver.conftest import draw_portrait
from tests.h3_schemas.schemas import KJNODES, SCHEMAS

WORKFLOW = REPO / "api_workflows" / "h3_sprite.json"
PREFIX = "H3Sprite_"
LOADERS = ("UNETLoader", "LoraLoaderModelOnly", "CLIPLoader", "VAELoader")
# What ComfyUI 0.3.75 itself rejects in the production graph because it predates H3, each
# with its reason. The test asserts that exactly these are rejected and nothing else.
EXPECTED_REJECTIONS = {
    ("CLIPLoader", "type", "value_not_in_list"):
        "0.3.75's CLIPLoader type list has no 'minimax' (H3's text encoder type)",
}


def _template() -> dict:
    path = resources.files("comfyui_workflow_templates_json") / "templates" / \
        "video_minimax_h3_i2v.json"
    return json.loads(path.read_text())


def _template_nodes(tpl: dict) -> dict[str, dict]:
    """class -> {inputs: {name: type}, widgets: {name: value}, outputs: [type]} over the
    template's top level and its subgraph (the same class's nodes merged)."""
    nodes = list(tpl["nodes"])
    for sg in tpl.get("definitions", {}).get("subgraphs", []):
        nodes += sg["nodes"]
    out: dict[str, dict] = {}
    for n in nodes:
        entry = out.setdefault(n["type"], {"inputs": {}, "widgets": {}, "outputs": []})
        for i in n.get("inputs", []):
            entry["inputs"][i["name"]] = i["type"]
        entry["widgets"].update(n.get("widgets_values_named") or {})
        if not entry["outputs"]:
            entry["outputs"] = [o["type"] for o in n.get("outputs", [])]
    return out


def _graph() -> dict:
    return json.loads(WORKFLOW.read_text())


# ------------------------------------------------------------- structure ---

def test_every_class_is_official_ours_or_kjnodes():
    tpl = _template_nodes(_template())
    for nid, node in _graph().items():
        cls = node["class_type"]
        assert cls in tpl or cls.startswith(PREFIX) or cls in KJNODES, (nid, cls)
    assert "MiniMaxH3ImageToVideo" in tpl  # the template is the one we think it is


def test_every_input_we_set_exists_on_that_node():
    """Template classes: in the template's inputs or named widgets; KJNodes: in its
    schema. (Our own nodes are checked by the real server below.)"""
    tpl = _template_nodes(_template())
    for nid, node in _graph().items():
        cls = node["class_type"]
        if cls in tpl:
            known = set(tpl[cls]["inputs"]) | set(tpl[cls]["widgets"])
        elif cls in KJNODES:
            known = {name for name, _, _ in SCHEMAS[cls]["inputs"]}
        else:
            continue
        assert set(node["inputs"]) <= known, (nid, cls, set(node["inputs"]) - known)


def test_link_types_match_the_template():
    """Every link between official/KJNodes nodes carries the type both ends declare."""
    tpl = _template_nodes(_template())
    kj = {c: {"inputs": {n: t for n, t, _ in SCHEMAS[c]["inputs"]},
              "outputs": [t for t, _ in SCHEMAS[c]["outputs"]]} for c in KJNODES}
    known = {**tpl, **kj}
    graph = _graph()
    checked = 0
    for nid, node in graph.items():
        for name, v in node["inputs"].items():
            if not isinstance(v, list):
                continue
            src = graph[v[0]]["class_type"]
            if node["class_type"] not in known or src not in known:
                continue
            want = known[node["class_type"]]["inputs"][name]
            got = known[src]["outputs"][v[1]]
            assert got == want, (nid, name, src, got, want)
            checked += 1
    assert checked >= 14


def test_test_schema_is_the_templates_node():
    """The test-only MiniMaxH3ImageToVideo declares the very inputs (names, types; the two
    keyframes optional, nothing else) and outputs the template's node has."""
    node = next(n for sg in _template()["definitions"]["subgraphs"] for n in sg["nodes"]
                if n["type"] == "MiniMaxH3ImageToVideo")
    spec = SCHEMAS["MiniMaxH3ImageToVideo"]
    assert {n: t for n, t, _ in spec["inputs"]} == {i["name"]: i["type"] for i in node["inputs"]}
    assert {n for n, _, o in spec["inputs"] if o.get("optional")} == {"first_frame",
                                                                      "last_frame"}
    assert [t for t, _ in spec["outputs"]] == [o["type"] for o in node["outputs"]]
    assert [n for _, n in spec["outputs"]] == [o["name"] for o in node["outputs"]]


# Nodes a link passes through unchanged, and the input it passes on: the template's LoRA
# switch (its "on" side: we always use the turbo LoRA) and the KJNodes pair (MODEL -> MODEL).
PASS_THROUGH = {"ComfySwitchNode": "on_true", **{c: "model" for c in KJNODES}}


def _template_links(tpl: dict) -> set[tuple[str, int, str, str]]:
    """(source class, source slot, target class, target input) of every link inside the
    template's subgraph, pass-through nodes resolved to what feeds them."""
    sg = tpl["definitions"]["subgraphs"][0]
    nodes = {n["id"]: n for n in sg["nodes"]}
    links = {link["id"]: link for link in sg["links"]}

    def source(nid: int, slot: int) -> tuple[str, int] | None:
        while nid in nodes and nodes[nid]["type"] in PASS_THROUGH:
            want = PASS_THROUGH[nodes[nid]["type"]]
            link = links[next(i["link"] for i in nodes[nid]["inputs"] if i["name"] == want)]
            nid, slot = link["origin_id"], link["origin_slot"]
        return (nodes[nid]["type"], slot) if nid in nodes else None  # else: a subgraph input

    out = set()
    for node in sg["nodes"]:
        for inp in node.get("inputs", []):
            if node["type"] in PASS_THROUGH or inp.get("link") is None:
                continue
            link = links[inp["link"]]
            src = source(link["origin_id"], link["origin_slot"])
            if src:
                out.add((src[0], src[1], node["type"], inp["name"]))
    # The top level: an output of the subgraph is the inner link into its output node (-20).
    top = {n["id"]: n for n in tpl["nodes"]}
    for _, origin, oslot, target, tslot, _ in tpl["links"]:
        if top[origin]["type"] != sg["id"] or top[target]["type"] == sg["id"]:
            continue
        inner = next(lk for lk in sg["links"] if lk["target_id"] == -20
                     and lk["target_slot"] == oslot)
        src = source(inner["origin_id"], inner["origin_slot"])
        if src:
            out.add((src[0], src[1], top[target]["type"], top[target]["inputs"][tslot]["name"]))
    return out


def _our_links(graph: dict) -> set[tuple[str, int, str, str]]:
    out = set()
    for node in graph.values():
        if node["class_type"] in PASS_THROUGH:
            continue
        for name, v in node["inputs"].items():
            if not isinstance(v, list):
                continue
            nid, slot = str(v[0]), v[1]
            while graph[nid]["class_type"] in PASS_THROUGH:
                nid, slot = (str(x) for x in graph[nid]["inputs"][
                    PASS_THROUGH[graph[nid]["class_type"]]])
                slot = int(slot)
            out.add((graph[nid]["class_type"], slot, node["class_type"], name))
    return out


def test_wiring_is_the_templates():
    """Every link of ours between the template's classes is a link of the template (same
    output slot into the same input), and every template link between classes we use is
    ours: types alone would let VAEDecode take H3's empty LATENT instead of the sampler's
    output, or the guider take the model without its LoRA."""
    tpl = _template()
    official = set(_template_nodes(tpl))
    graph = _graph()
    ours = _our_links(graph)
    theirs = _template_links(tpl)
    between_official = {lk for lk in ours if lk[0] in official and lk[2] in official}
    assert between_official <= theirs, between_official - theirs
    used = {n["class_type"] for n in graph.values()}
    assert {lk for lk in theirs if lk[0] in used and lk[2] in used} <= ours
    assert len(between_official) >= 12  # the sampler chain, loaders, decode, save
    # The KJNodes pair sits between the LoRA and both model users, in that order.
    chain = [graph["13"]["class_type"], graph[graph["13"]["inputs"]["model"][0]]["class_type"]]
    assert chain == ["MiniMaxChunkFeedForward", "MiniMaxLowVRAMAttention"]
    for user in ("BasicGuider", "BasicScheduler"):
        node = next(n for n in graph.values() if n["class_type"] == user)
        assert graph[node["inputs"]["model"][0]]["class_type"] == "MiniMaxChunkFeedForward"


def test_official_settings_and_files():
    """CLIPLoader type minimax, the official file names, the template's sampler chain."""
    tpl = _template_nodes(_template())
    by_class: dict[str, list[dict]] = {}
    for node in _graph().values():
        by_class.setdefault(node["class_type"], []).append(node["inputs"])
    clip = by_class["CLIPLoader"][0]
    assert clip["type"] == "minimax" and clip["device"] == "cpu"  # the field notes' choice
    for cls, key in [("UNETLoader", "unet_name"), ("LoraLoaderModelOnly", "lora_name"),
                     ("CLIPLoader", "clip_name"), ("KSamplerSelect", "sampler_name")]:
        assert by_class[cls][0][key] == tpl[cls]["widgets"][key], cls
    assert by_class["VAELoader"][0]["vae_name"] == "minimax_h3_video_vae_int8_convrot.safetensors"
    assert by_class["BasicScheduler"][0]["scheduler"] == tpl["BasicScheduler"]["widgets"][
        "scheduler"]
    assert by_class["BasicScheduler"][0]["steps"] == 8  # the 8-step turbo LoRA
    for cls, key in [("UNETLoader", "weight_dtype"), ("LoraLoaderModelOnly", "strength_model"),
                     ("BasicScheduler", "denoise")]:
        assert by_class[cls][0][key] == tpl[cls]["widgets"][key], (cls, key)
    kj = {cls: by_class[cls][0] for cls in KJNODES}
    assert kj["MiniMaxLowVRAMAttention"]["head_chunks"] == 4
    assert (kj["MiniMaxChunkFeedForward"]["chunks"],
            kj["MiniMaxChunkFeedForward"]["seq_threshold"]) == (2, 4096)
    # The template saves with format/codec "auto" (mp4, h264 in ComfyUI); we name them, since
    # the driver decodes that very file.
    assert (by_class["SaveVideo"][0]["format"], by_class["SaveVideo"][0]["codec"]) == \
        ("mp4", "h264")
    assert by_class["CreateVideo"][0]["fps"] == tpl["CreateVideo"]["widgets"]["fps"] == 24
    assert "VAEDecodeAudio" not in by_class  # sprites need no sound
    h3 = by_class["MiniMaxH3ImageToVideo"][0]
    assert isinstance(h3["prompt"], str) and isinstance(h3["first_frame"], list)
    assert "CLIPTextEncode" not in by_class


def test_markers_drive_the_official_inputs(tmp_path):
    """@prompt lands in MiniMaxH3ImageToVideo.prompt, @seed in RandomNoise.noise_seed; loop
    closure links the first frame's source to last_frame too."""
    wf = Workflow.load(WORKFLOW)
    g = wf.bind(portrait="p.png", prompt="walks", seconds=2.0, size=(608, 352), seed=77,
                clip_prefix="x/y", loop_closure=True)
    h3 = next(n for n in g.values() if n["class_type"] == "MiniMaxH3ImageToVideo")
    assert h3["inputs"]["prompt"] == "walks"
    assert h3["inputs"]["last_frame"] == h3["inputs"]["first_frame"]
    noise = next(n for n in g.values() if n["class_type"] == "RandomNoise")
    assert noise["inputs"]["noise_seed"] == 77
    plain = wf.bind(portrait="p.png", prompt="walks", seconds=2.0, size=(608, 352), seed=77,
                    clip_prefix="x/y")
    assert "last_frame" not in next(n for n in plain.values()
                                    if n["class_type"] == "MiniMaxH3ImageToVideo")["inputs"]


# ------------------------------------------------------- the real server ---

@pytest.fixture(scope="module")
def schema_server(tmp_path_factory, embedded_ready):
    """The embedded ComfyUI 0.3.75 with our pack, the test-only schema module in its
    custom_nodes, and placeholder files under the official names in its model folders."""
    root = tmp_path_factory.mktemp("h3_schemas")
    base = root / "base"
    (base / "custom_nodes").mkdir(parents=True)
    (base / "custom_nodes" / "h3_test_schemas").symlink_to(REPO / "tests" / "h3_schemas")
    for folder, name, _ in Workflow.load(WORKFLOW).model_files():
        (base / "models" / folder).mkdir(parents=True, exist_ok=True)
        (base / "models" / folder / name).write_bytes(b"placeholder, not a model\n")
    cfg = resolve({"port": free_port(), "state_dir": root / "state",
                   "extra_args": ["--base-directory", str(base),
                                  "--database-url", "sqlite:///:memory:"]})
    res = manager.start(cfg)
    if res.code != manager.Exit.OK:
        pytest.fail(f"could not start the embedded ComfyUI: {res.message}\n{res.detail}")
    yield cfg, root
    manager.stop(cfg)


def _bound(client: ComfyClient, root: Path, loop_closure: bool) -> dict:
    draw_portrait(root / "hero.png", "hero")
    name = client.upload(root / "hero.png", "hero.png")
    return Workflow.load(WORKFLOW).bind(
        portrait=name, prompt="a knight walks in place", seconds=0.7, size=(448, 448), seed=5,
        clip_prefix="h3sprite/test/h3", action="walk", loop_closure=loop_closure)


def _rejections(base_url: str, graph: dict) -> set[tuple[str, str, str]]:
    resp = requests.post(f"{base_url}/prompt", json={"prompt": graph}, timeout=30)
    if resp.status_code == 200:
        return set()
    body = resp.json()
    out = set()
    for ne in body.get("node_errors", {}).values():
        for e in ne["errors"]:
            out.add((ne["class_type"], e.get("extra_info", {}).get("input_name", ""),
                     e["type"]))
    assert out, body  # a refusal without node errors would be a different failure
    return out


@pytest.mark.parametrize("loop_closure", [False, True])
def test_real_comfyui_rejects_only_what_predates_h3(schema_server, loop_closure):
    """POST /prompt of the bound production graph: the only rejections are the expected
    ones (named above, with their reason); every other node and link is accepted."""
    cfg, root = schema_server
    base_url = f"http://127.0.0.1:{cfg.port}"
    graph = _bound(ComfyClient(base_url), root, loop_closure)
    assert _rejections(base_url, graph) == set(EXPECTED_REJECTIONS)


def test_accepted_graph_fails_exactly_at_a_placeholder_model(schema_server):
    """With the expected rejections set to values 0.3.75 accepts, the graph is accepted and
    the run stops at loading a placeholder model file, not anywhere before."""
    cfg, root = schema_server
    base_url = f"http://127.0.0.1:{cfg.port}"
    client = ComfyClient(base_url)
    graph = _bound(client, root, loop_closure=True)
    info = client.object_info()
    for cls, name, _ in EXPECTED_REJECTIONS:
        for node in graph.values():
            if node["class_type"] == cls:
                node["inputs"][name] = info[cls]["input"]["required"][name][0][0]
    assert _rejections(base_url, graph) == set()
    with pytest.raises(ExecutionFailed) as err:
        client.run(graph, idle_timeout=120)
    assert err.value.node_type in LOADERS, str(err.value)
    # safetensors read the placeholder's text as a header: the file itself, nothing else.
    assert "Error while deserializing header" in str(err.value), str(err.value)
    loader_ids = {nid for _, _, nid in Workflow.load(WORKFLOW).model_files()}
    node_id = re.search(r"\(node (\w+)\)", str(err.value)).group(1)
    assert node_id in loader_ids


def test_link_types_by_the_server(schema_server):
    """Every link's source output type is what its target input declares, per the server's
    /object_info (our pack, core 0.3.75 and the test schemas)."""
    cfg, _ = schema_server
    info = ComfyClient(f"http://127.0.0.1:{cfg.port}").object_info()
    graph = _graph()
    for nid, node in graph.items():
        spec = info[node["class_type"]]["input"]
        declared = {**spec.get("required", {}), **spec.get("optional", {})}
        for name, v in node["inputs"].items():
            assert name in declared, (nid, node["class_type"], name)
            if isinstance(v, list):
                out_type = info[graph[v[0]]["class_type"]]["output"][v[1]]
                assert out_type == declared[name][0], (nid, name, out_type, declared[name][0])


def test_ui_copy_is_in_sync(schema_server):
    """The H3 template card in example_workflows/ is what scripts/export_ui_workflows.py
    makes of api_workflows/h3_sprite.json with the full schemas."""
    cfg, _ = schema_server
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from export_ui_workflows import CARDS, to_ui
    finally:
        sys.path.pop(0)
    info = ComfyClient(f"http://127.0.0.1:{cfg.port}").object_info()
    card = next(c for c, name in CARDS.items() if name == "h3_sprite")
    committed = json.loads((REPO / "example_workflows" / f"{card}.json").read_text())
    assert to_ui(_graph(), info) == committed
    titles = [n["title"] for n in committed["nodes"]]
    assert "Portrait @portrait" in titles
    # Readable titles that keep every marker the driver needs.
    for marker in Workflow.load(WORKFLOW).markers():
        assert any(marker in t.split() and t != marker for t in titles), marker
