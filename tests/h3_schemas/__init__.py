"""TEST-ONLY ComfyUI node module (never shipped): declares the exact schemas of the H3 and
KJNodes nodes that ComfyUI 0.3.75 lacks, so that the real server validates our production
graph. Their execute refuses: there is no model here. Linked into a test server's
custom_nodes by tests/workflows/test_h3_template.py."""

from __future__ import annotations

from .schemas import SCHEMAS

_TYPES = {"CLIP": "Clip", "VAE": "Vae", "STRING": "String", "INT": "Int", "IMAGE": "Image",
          "MODEL": "Model", "CONDITIONING": "Conditioning", "LATENT": "Latent"}


def _node(node_id: str, spec: dict):
    from comfy_api.latest import io

    def define_schema(cls):
        inputs = [getattr(io, _TYPES[kind]).Input(name, **opts)
                  for name, kind, opts in spec["inputs"]]
        outputs = [getattr(io, _TYPES[kind]).Output(display_name=name)
                   for kind, name in spec["outputs"]]
        return io.Schema(node_id=node_id, display_name=spec["display_name"] + " (test schema)",
                         category=spec["category"], inputs=inputs, outputs=outputs)

    def execute(cls, **_):
        raise RuntimeError(f"{node_id} is a test-only schema stand-in and cannot run")

    return type(node_id, (io.ComfyNode,), {"define_schema": classmethod(define_schema),
                                          "execute": classmethod(execute)})


async def comfy_entrypoint():
    from comfy_api.latest import ComfyExtension

    nodes = [_node(node_id, spec) for node_id, spec in SCHEMAS.items()]

    class H3TestSchemas(ComfyExtension):
        async def get_node_list(self):
            return nodes

    return H3TestSchemas()
