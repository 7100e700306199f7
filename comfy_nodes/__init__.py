"""h3sprite node pack for ComfyUI (V3 schema). Imports nothing heavy at import time."""


async def comfy_entrypoint():
    from comfy_api.latest import ComfyExtension

    class H3SpriteExtension(ComfyExtension):
        async def get_node_list(self):
            return []

    return H3SpriteExtension()
