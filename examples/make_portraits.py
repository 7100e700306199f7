"""Draw the example portraits (transparent PNGs) with the project's procedural characters.

    .venv/bin/python examples/make_portraits.py

The PNGs are committed; this script is how they were made (and how to make more).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the drawn characters live with the tests

from tests import synth  # noqa: E402


def main() -> None:
    out = HERE / "portraits"
    out.mkdir(exist_ok=True)
    for name, palette, outline in (("hero", "hero", None), ("zombie", "zombie", None),
                                   ("ranger", "ranger", (246, 246, 238))):
        char = synth.Character(palette=synth.PALETTES[palette], outline=outline)
        rgba = synth.portrait(char, size=(320, 480))
        Image.fromarray(rgba, "RGBA").save(out / f"{name}.png", optimize=True)
        print(out / f"{name}.png")


if __name__ == "__main__":
    main()
