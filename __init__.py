"""ComfyUI entry point when this repository is cloned into custom_nodes/<any name>.

ComfyUI imports this file as a package named after the folder, so everything is reached
by relative import: the pack itself lives in comfy_nodes/ (also linkable on its own).
pytest imports it too (the checkout is a package to it), as a plain module where the
folder's name is no Python name (`h3sprite-main` from a ZIP): then it has no package to
import from, and defines nothing (every test failed "attempted relative import").
"""

if __package__:
    from .comfy_nodes import WEB_DIRECTORY as _PACK_WEB
    from .comfy_nodes import comfy_entrypoint

    WEB_DIRECTORY = "./comfy_nodes/" + _PACK_WEB.removeprefix("./")

    __all__ = ["WEB_DIRECTORY", "comfy_entrypoint"]
