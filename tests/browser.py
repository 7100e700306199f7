"""The real ComfyUI frontend in headless Chromium (Debian's chromium, not playwright's own
download): what the page tests share. `make browser` installs chromium where it may."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM, reason="no chromium (apt-get install chromium; make test does it where it may)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
# The app is up once the graph and the node registry are (ComfyUI registers ~600 types).
APP_READY = ("window.app && window.app.graph && window.LiteGraph && "
             "Object.keys(LiteGraph.registered_node_types).length > 50")


@contextlib.contextmanager
def comfy_page(url: str, width: int, height: int) -> Iterator[tuple[Any, list[str]]]:
    """(page, console errors) of the ComfyUI frontend at url, once its app is ready; the
    browser is closed on the way out, whatever happened."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(url, wait_until="domcontentloaded", timeout=60000)
            page.wait_for_function(APP_READY, timeout=90000)
            yield page, errors
        finally:
            browser.close()
