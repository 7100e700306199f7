"""h3sprite node pack for ComfyUI (V3 schema).

Only comfy_entrypoint (and WEB_DIRECTORY, the small web extension that shows each
node's text on the node) is exported (a module exporting NODE_CLASS_MAPPINGS would be loaded
the V1 way and this entry point ignored). Node modules are imported inside it, so importing
the package does no work and needs neither torch nor ComfyUI.
"""

WEB_DIRECTORY = "./web"


SAMPLES = ("h3sprite_sample_hero.png",)  # samples/ -> ComfyUI's input folder


def install_samples(input_dir: str) -> list[str]:
    """Copy the sample portrait(s) the templates' Load Image names into ComfyUI's input
    folder, so a template runs with no manual step. A file already there is kept as it is
    (it may be the user's own)."""
    import shutil
    from pathlib import Path

    here = Path(__file__).resolve().parent / "samples"
    copied = []
    for name in SAMPLES:
        dest = Path(input_dir) / name
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(here / name, dest)
            copied.append(name)
    return copied


async def comfy_entrypoint():
    import logging

    import folder_paths
    from comfy_api.latest import ComfyExtension

    try:
        import cv2  # noqa: F401
    except ImportError:
        raise ImportError("h3sprite needs OpenCV: run the pack's install.py with ComfyUI's "
                          "python (or pip install opencv-python-headless)") from None

    from . import nodes_greenscreen, nodes_preview, nodes_snap, nodes_sprite

    nodes = [*nodes_snap.NODES, *nodes_greenscreen.NODES, *nodes_sprite.NODES,
             *nodes_preview.NODES]

    try:
        install_samples(folder_paths.get_input_directory())
    except OSError as e:  # a read-only input folder: the templates need an upload instead
        logging.warning("h3sprite: could not copy the sample portrait into the input "
                        "folder (%s); upload a portrait to run the templates", e.strerror)

    class H3SpriteExtension(ComfyExtension):
        async def get_node_list(self):
            return nodes

    return H3SpriteExtension()
