"""The shipped CPU template, opened from the real template browser and run in the real
frontend (headless Chromium): the card has its thumbnail and sentence, the sample
portrait is found, every node shows its result, the sheet preview animates, and the
search words are tested in test_frontend.py. Screenshots are kept in tests/_outputs/."""

from __future__ import annotations

import contextlib
import json

import numpy as np
import requests
from PIL import Image

from tests.browser import comfy_page, needs_chromium
from tests.conftest import REPO

pytestmark = needs_chromium
CARD = "Portrait to animated sprite sheet on CPU, Preview Motion standing in for H3"
TEXT_NODES = ["H3Sprite_SnapLength", "H3Sprite_SnapSize", "H3Sprite_GreenScreenPrep",
              "H3Sprite_SpriteLoopWindow", "H3Sprite_SpriteSheet"]
TEXT_OF = """(type) => { const n = app.graph.nodes.find(n => n.type === type);
    return n?.widgets?.find(w => w.name === 'h3sprite_result')?.element.value ?? null; }"""


def _node_box(page, node_type: str) -> dict:
    """The node's rectangle on the page, in CSS pixels."""
    return page.evaluate("""(type) => {
        const n = app.graph.nodes.find(n => n.type === type);
        const r = app.canvasEl.getBoundingClientRect(), ds = app.canvas.ds;
        const [x, y] = ds.convertOffsetToCanvas([n.pos[0], n.pos[1] - LiteGraph.NODE_TITLE_HEIGHT]);
        return {x: r.left + x, y: r.top + y, width: n.size[0] * ds.scale,
                height: (n.size[1] + LiteGraph.NODE_TITLE_HEIGHT) * ds.scale}; }""", node_type)


def test_template_runs_and_shows_results_on_the_nodes(comfy_server):
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    url = f"http://127.0.0.1:{comfy_server.port}"
    requests.post(f"{url}/settings/Comfy.TutorialCompleted", json=True, timeout=10)
    assert CARD in requests.get(f"{url}/workflow_templates", timeout=10).json()["h3sprite"]
    thumb = requests.get(f"{url}/api/workflow_templates/h3sprite/{CARD}.jpg", timeout=10)
    assert thumb.status_code == 200 and thumb.content[:3] == b"\xff\xd8\xff"  # a JPEG
    out = REPO / "tests" / "_outputs"
    out.mkdir(exist_ok=True)
    with comfy_page(url, 1600, 1000) as (page, errors):
        # Open it as a user does: Templates → h3sprite → the card (a thumbnail and the
        # sentence under it), which loads the graph.
        page.evaluate("app.extensionManager.command.execute('Comfy.BrowseTemplates')")
        page.get_by_text("h3sprite", exact=True).first.click()
        card = page.locator(f'[data-testid="template-workflow-{CARD}"]')
        card.wait_for(timeout=30000)
        with contextlib.suppress(PlaywrightTimeout):  # the assertion below says which
            page.wait_for_function("""() => { const imgs = Array.from(document
                .querySelectorAll('[data-testid^="template-workflow-"] img'));
                return imgs.length >= 2 && imgs.every(i => i.complete && i.naturalWidth);
                }""", timeout=30000)
        cards = page.evaluate("""() => Array.from(document.querySelectorAll(
            '[data-testid^="template-workflow-"]')).map(e => [e.dataset.testid,
            e.querySelector('img')?.naturalWidth ?? 0, e.innerText])""")
        page.screenshot(path=str(out / "template_cards.png"))
        card.click()
        page.wait_for_function("app.graph.nodes.some(n => n.type === 'H3Sprite_SpriteSheet')",
                               timeout=30000)
        # The dialog closes and the new workflow tab settles before Run.
        page.locator('[data-testid="template-workflows-content"]').wait_for(
            state="detached", timeout=30000)
        page.wait_for_timeout(1500)
        n_nodes = page.evaluate("app.graph.nodes.length")
        page.evaluate("app.queuePrompt(0)")
        # Output nodes run in no set order: wait for every node's text (the assertions
        # below say which one is missing).
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"""() => {json.dumps(TEXT_NODES)}.every(
                t => ({TEXT_OF})(t)) && ({TEXT_OF})('H3Sprite_SpriteSheet').includes('QC')""",
                timeout=240000)
        texts = {t: page.evaluate(f"({TEXT_OF})('{t}')") for t in TEXT_NODES}
        sheet = texts["H3Sprite_SpriteSheet"] or ""
        # Frame the Sprite Sheet node and take two shots a little apart.
        page.evaluate("""() => { const n = app.graph.nodes.find(
                n => n.type === 'H3Sprite_SpriteSheet');
            app.canvas.ds.scale = 1; app.canvas.ds.offset = [500 - n.pos[0], 150 - n.pos[1]];
            app.canvas.setDirty(true, true); }""")
        page.wait_for_timeout(1500)
        box = _node_box(page, "H3Sprite_SpriteSheet")
        page.screenshot(path=str(out / "template_sheet_1.png"))
        page.wait_for_timeout(150)
        page.screenshot(path=str(out / "template_sheet_2.png"))
        a, b = (np.asarray(Image.open(out / f"template_sheet_{i}.png").convert("RGB"))
                for i in (1, 2))
        y0, x0 = int(box["y"]), int(box["x"])
        region = np.s_[y0:y0 + int(box["height"]), x0:x0 + int(box["width"])]
        changed = np.abs(a[region].astype(int) - b[region]).sum(-1) > 30
        page.evaluate("app.canvas.ds.scale = 0.62; app.canvas.ds.offset = [20, 40]; "
                      "app.canvas.setDirty(true, true)")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / "template_graph.png"))
    assert len(cards) == 2 and all(width > 0 for _, width, _ in cards), cards  # thumbnails
    assert any(CARD in text for _, _, text in cards)  # the card's sentence is shown
    assert n_nodes == 10
    assert "loop CLEAN" in sheet and "QC: " in sheet, sheet
    assert texts["H3Sprite_SnapLength"] == "2 s → 56 frames (2.33 s)"
    assert texts["H3Sprite_SnapSize"] == "0.2 MP 1:1 → 448×448"
    assert "feet at" in (texts["H3Sprite_GreenScreenPrep"] or ""), (texts, errors)
    assert "QC: " in (texts["H3Sprite_SpriteLoopWindow"] or ""), (texts, errors)
    assert changed.sum() > 200, "the sheet preview did not animate between the two shots"
    # The sheet's JSON records the prompt and the UI workflow that made it.
    made = sorted((comfy_server.base_dir / "output" / "h3sprite" / "hero").glob("walk_*_.json"))
    meta = json.loads(made[-1].read_text())["meta"]
    assert meta["comfyui"]["prompt"]["10"]["class_type"] == "H3Sprite_SpriteSheet"
    assert len(meta["comfyui"]["workflow"]["nodes"]) == 10
