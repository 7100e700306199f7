# tests/nodes/inside/ runs under the embedded ComfyUI's own python (it needs torch and
# comfy_api); test_node_execute.py starts that run. The outer run must not collect it.
collect_ignore = ["inside"]
