"""Write UI-format copies of api_workflows/*.json into example_workflows/ (one card each, see
CARDS), so they show in ComfyUI's template browser. Widget order comes from a server's
/object_info (nodes it lacks keep their inputs' file order). Node titles are the API graph's:
readable words that keep the driver's markers ("Portrait @portrait").

    .venv/bin/python scripts/export_ui_workflows.py            # starts the embedded ComfyUI
    .venv/bin/python scripts/export_ui_workflows.py --url http://127.0.0.1:8188

Without --url it starts the embedded ComfyUI on a free port with our pack and the test-only
schemas of the H3 and KJNodes nodes that 0.3.75 lacks (tests/h3_schemas), so every node of
h3_sprite.json gets its real widget order; the tests compare against the same.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import requests

REPO = Path(__file__).resolve().parent.parent
# Template card (file name, also the card's title and description on ComfyUI 0.3.75, whose
# template browser shows nothing else for a custom node's template) <- api_workflows/ graph.
# Each card has a <card>.jpg thumbnail beside it.
CARDS = {
    "Portrait to animated sprite sheet on CPU, Preview Motion standing in for H3":
        "preview_sheet",
    "Portrait to sprite clip with the MiniMax H3 video model on a GPU": "h3_sprite",
}
WIDGET_TYPES = {"INT", "FLOAT", "STRING", "BOOLEAN", "COMBO"}


def _is_widget(spec) -> bool:
    kind = spec[0] if isinstance(spec, list) and spec else None
    return isinstance(kind, list) or kind in WIDGET_TYPES


def _layout(graph: dict) -> dict[str, int]:
    """Column of each node: its longest distance from a source."""
    depth: dict[str, int] = {}

    def d(nid: str) -> int:
        if nid not in depth:
            ups = [v[0] for v in graph[nid]["inputs"].values() if isinstance(v, list)]
            depth[nid] = 1 + max((d(u) for u in ups), default=-1)
        return depth[nid]

    for nid in graph:
        d(nid)
    return depth


def to_ui(graph: dict, info: dict) -> dict:
    ids = {nid: i + 1 for i, nid in enumerate(graph)}
    depth = _layout(graph)
    rows: dict[int, int] = {}
    nodes: list[dict] = []
    links: list[list] = []
    out_links: dict[tuple[str, int], list[int]] = {}
    for nid, node in graph.items():
        for v in node["inputs"].values():
            if isinstance(v, list):
                links.append([len(links) + 1, ids[v[0]], v[1], ids[nid], None, "*"])
                out_links.setdefault((v[0], v[1]), []).append(len(links))
    for nid, node in graph.items():
        spec = info.get(node["class_type"])
        declared = {}
        order = list(node["inputs"])
        outputs = []
        if spec:
            declared = {**spec["input"].get("required", {}), **spec["input"].get("optional", {})}
            order = [n for part in ("required", "optional")
                     for n in spec["input_order"].get(part, [])]
            outputs = list(zip(spec["output"], spec["output_name"], strict=False))
        inputs, widgets = [], []
        for name in order:
            if name not in node["inputs"] and name not in declared:
                continue
            v = node["inputs"].get(name)
            dspec = declared.get(name)
            widget = _is_widget(dspec) if dspec else not isinstance(v, list)
            if isinstance(v, list):
                link_id = next(link[0] for link in links if link[3] == ids[nid] and
                               link[1] == ids[v[0]] and link[2] == v[1] and link[4] is None)
                kind = (dspec[0] if dspec and not isinstance(dspec[0], list) else "COMBO") \
                    if dspec else "*"
                entry = {"name": name, "type": kind, "link": link_id}
                if widget:
                    entry["widget"] = {"name": name}
                inputs.append(entry)
                links[link_id - 1][4] = len(inputs) - 1
                links[link_id - 1][5] = kind
            if widget:
                widgets.append(v if not isinstance(v, list) else None)
                opts = dspec[1] if dspec and len(dspec) > 1 else {}
                # The frontend adds a "control after generate" widget after seeds.
                if opts.get("control_after_generate") or name in ("seed", "noise_seed"):
                    widgets.append("fixed")
        col = depth[nid]
        row = rows.get(col, 0)
        rows[col] = row + 1
        n_out = max(len(outputs), 1 + max((k[1] for k in out_links if k[0] == nid), default=-1))
        outs = []
        for slot in range(n_out):
            kind, name = outputs[slot] if slot < len(outputs) else ("*", f"out{slot}")
            outs.append({"name": name, "type": kind, "slot_index": slot,
                         "links": out_links.get((nid, slot), [])})
        nodes.append({
            # Rows 340 apart: Load Image and video nodes grow a preview; no overlaps.
            "id": ids[nid], "type": node["class_type"], "pos": [40 + col * 360, 40 + row * 340],
            "size": [320, 200], "flags": {}, "order": 0, "mode": 0, "inputs": inputs,
            "outputs": outs, "title": node.get("_meta", {}).get("title", node["class_type"]),
            "properties": {"Node name for S&R": node["class_type"]}, "widgets_values": widgets,
        })
    order = sorted(nodes, key=lambda n: depth[next(k for k, v in ids.items() if v == n["id"])])
    for i, n in enumerate(order):
        n["order"] = i
    return {"last_node_id": len(nodes), "last_link_id": len(links), "nodes": nodes,
            "links": links, "groups": [], "config": {}, "extra": {}, "version": 0.4}


def _info_from_embedded() -> dict:
    """/object_info of a throw-away embedded server with the pack and the H3 test schemas."""
    import socket
    import sys
    import tempfile

    sys.path.insert(0, str(REPO))
    from service import manager
    from service.config import resolve

    with tempfile.TemporaryDirectory(prefix="h3sprite-export-") as tmp, socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        base = Path(tmp) / "base"
        (base / "custom_nodes").mkdir(parents=True)
        (base / "custom_nodes" / "h3_test_schemas").symlink_to(REPO / "tests" / "h3_schemas")
        cfg = resolve({"port": port, "state_dir": Path(tmp) / "state",
                       "extra_args": ["--base-directory", str(base),
                                      "--database-url", "sqlite:///:memory:"]})
        res = manager.start(cfg)
        if res.code != manager.Exit.OK:
            raise SystemExit(f"export: could not start the embedded ComfyUI: {res.message}")
        try:
            return requests.get(f"http://127.0.0.1:{port}/object_info", timeout=60).json()
        finally:
            manager.stop(cfg)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", help="a running ComfyUI with our pack (default: start one)")
    args = ap.parse_args()
    if args.url:
        info = requests.get(f"{args.url}/object_info", timeout=30).json()
    else:
        info = _info_from_embedded()
    out = REPO / "example_workflows"
    out.mkdir(exist_ok=True)
    for card, name in CARDS.items():
        graph = json.loads((REPO / "api_workflows" / f"{name}.json").read_text())
        (out / f"{card}.json").write_text(json.dumps(to_ui(graph, info), indent=1) + "\n")
        print(out / f"{card}.json")


if __name__ == "__main__":
    main()
