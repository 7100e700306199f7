"""h3sprite node pack for ComfyUI (V3 schema).

Only comfy_entrypoint is exported (a module exporting NODE_CLASS_MAPPINGS would be loaded
the V1 way and this entry point ignored). Node modules are imported inside it, so importing
the package does no work and needs neither torch nor ComfyUI.
"""


async def comfy_entrypoint():
    from comfy_api.latest import ComfyExtension

    from . import nodes_greenscreen, nodes_preview, nodes_snap, nodes_sprite

    nodes = [*nodes_snap.NODES, *nodes_greenscreen.NODES, *nodes_sprite.NODES,
             *nodes_preview.NODES]

    class H3SpriteExtension(ComfyExtension):
        async def get_node_list(self):
            return nodes

    return H3SpriteExtension()
