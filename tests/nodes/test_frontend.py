"""The ComfyUI page in headless Chromium: our nodes registered, our example graph loads
and turns back into exactly our API workflow. A screenshot is kept in tests/_outputs/."""

from __future__ import annotations

import json

import requests

from tests.browser import comfy_page, needs_chromium
from tests.conftest import REPO

pytestmark = needs_chromium


CPU_CARD = "Portrait to animated sprite sheet on CPU, Preview Motion standing in for H3"
# Search words -> the node listed first.
SEARCH = {"chroma key": "Sprite Matte (chroma key)", "green screen": "Green Screen Prep",
          "spritesheet": "Sprite Sheet", "loop": "Sprite Loop Window", "sprite": "Sprite Sheet"}


def _cards() -> set[str]:
    import sys

    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from export_ui_workflows import CARDS
    finally:
        sys.path.pop(0)
    return set(CARDS)


CARDS = _cards()


def _normal(graph: dict) -> dict:
    """class_type + inputs, numbers compared as floats."""
    def norm(v):
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v

    return {nid: (n["class_type"], {k: norm(v) for k, v in n["inputs"].items()})
            for nid, n in graph.items()}


def test_page_registers_nodes_and_loads_our_graph(comfy_server):
    """In the real frontend: all 7 H3Sprite node types are registered, the template list
    offers our cards, the CPU card's graph converts back to preview_sheet.json, and the
    search box (which indexes node ids and display names only, on 0.3.75) finds our nodes
    by the words users type."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    url = f"http://127.0.0.1:{comfy_server.port}"
    # A first visit opens the template browser over the graph: mark the tour as done.
    requests.post(f"{url}/settings/Comfy.TutorialCompleted", json=True, timeout=10)
    templates = requests.get(f"{url}/workflow_templates", timeout=10).json()
    assert set(templates.get("h3sprite", [])) == set(CARDS)
    ui = json.loads((REPO / "example_workflows" / f"{CPU_CARD}.json").read_text())
    out_dir = REPO / "tests" / "_outputs"
    out_dir.mkdir(exist_ok=True)
    with comfy_page(url, 1920, 1080) as (page, _errors):
        ours = page.evaluate("Object.keys(LiteGraph.registered_node_types)"
                             ".filter(k => k.startsWith('H3Sprite_'))")
        assert len(ours) == 7, ours
        page.evaluate("(w) => app.loadGraphData(w)", ui)
        page.wait_for_timeout(1000)
        page.evaluate("app.canvas.ds.offset = [40, 110]; app.canvas.ds.scale = 0.8; "
                      "app.canvas.setDirty(true, true)")
        page.wait_for_timeout(500)
        api = page.evaluate("async () => (await app.graphToPrompt()).output")
        page.screenshot(path=str(out_dir / "comfyui_preview_graph.png"))
        for _ in range(3):  # empty canvas: the node search box; on a busy machine the
            page.mouse.dblclick(900, 900)  # first double click may come too early
            try:
                page.wait_for_selector("input:focus", timeout=10000)
                break
            except PlaywrightTimeout:
                page.keyboard.press("Escape")
        found = {}
        for words in SEARCH:
            page.locator("input:focus").fill(words)
            page.wait_for_timeout(600)
            options = page.locator("[role=option]").all_inner_texts()
            found[words] = [o.split("\xa0")[0].strip() for o in options if o.strip()]
        page.screenshot(path=str(out_dir / "comfyui_search.png"))
    expected = json.loads((REPO / "api_workflows" / "preview_sheet.json").read_text())
    assert _normal(api) == _normal(expected)
    for words, node in SEARCH.items():
        assert found[words] and found[words][0] == node, (words, found[words])
