"""Game engines' own loaders in headless Chromium: npm packages in tests/_engines/ (git-
ignored; `make engines` or the first run installs them), pages served by Playwright's
request routing (no server), the sheets made by `driver process` itself."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli
from tests.core.conftest import fixture

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ENGINES = REPO / "tests" / "_engines"
# folder -> (npm spec, the browser build inside it)
PACKAGES = {
    "phaser3": ("phaser@3", "node_modules/phaser/dist/phaser.min.js"),
    "phaser4": ("phaser@4", "node_modules/phaser/dist/phaser.min.js"),
    "pixi8": ("pixi.js@8", "node_modules/pixi.js/dist/pixi.min.js"),
}
OUTPUTS = REPO / "tests" / "_outputs"


def engine_js(name: str) -> Path:
    """The engine's browser build, installed with npm on first use; skip when it cannot be
    (no npm, no registry and no copy yet)."""
    spec, rel = PACKAGES[name]
    js = ENGINES / name / rel
    if js.is_file():
        return js
    npm = shutil.which("npm")
    if not npm:
        pytest.skip(f"no npm to install {spec} (make engines, or apt-get install npm)")
    proc = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefer-offline",
                           "--prefix", str(ENGINES / name), spec],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode or not js.is_file():
        pytest.skip(f"npm could not install {spec}: {proc.stderr.strip()[-300:]}")
    return js


@pytest.fixture(scope="session")
def sheets(tmp_path_factory) -> Path:
    """walk (a loop) and attack (a one-shot) in every format, as a user makes them."""
    out = tmp_path_factory.mktemp("sheets")
    for name in ("walk", "attack"):
        res = run_cli("driver", "process", str(fixture(name).path), "--action", name,
                      "--out", str(out), "--character", "hero",
                      "--formats", "texturepacker,aseprite,godot,frames")
        assert res.code == 0, res.err
    return out


@pytest.fixture(scope="module")  # not session: a live sync Playwright would stop other
def browser():                     # modules' tests from starting their own
    if not CHROMIUM:
        pytest.skip("no chromium (apt-get install chromium; make browser does it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def open_page(browser, files: dict[str, Path], html: str):
    """A page at http://game.test/ whose files are served from disk by request routing."""
    page = browser.new_page(viewport={"width": 800, "height": 450})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def serve(route):
        name = route.request.url.split("http://game.test/", 1)[1].split("?")[0]
        if name == "index.html":
            route.fulfill(body=html, content_type="text/html")
        elif name in files:
            route.fulfill(path=str(files[name]))
        else:
            route.fulfill(status=404, body="not found")

    page.route("http://game.test/**", serve)
    page.goto("http://game.test/index.html")
    return page, errors
