"""Shared node-schema conventions: one pack category, permanent prefixed ids."""

from __future__ import annotations

import dataclasses

PACK = "h3sprite"
PREFIX = "H3Sprite_"


def schema(**kw):
    """io.Schema(**kw), dropping fields this ComfyUI does not know yet (search_aliases
    arrived after 0.3.75); the node loads in old and current ComfyUI alike."""
    from comfy_api.latest import io

    known = {f.name for f in dataclasses.fields(io.Schema)}
    for out in kw.get("outputs") or []:
        if not out.display_name:  # else the UI labels every socket by its type ("INT")
            out.display_name = out.id
    return io.Schema(**{k: v for k, v in kw.items() if k in known})


def declared_problem(node_cls, node: str, **values) -> str | None:
    """The line for the first value outside what node_cls's schema declares for it (its
    options, min, max), among the inputs its validate_inputs names: ComfyUI leaves those
    checks to it (and, to a validate_inputs taking **kwargs, every input's: a Sprite
    Sheet's sheet_fps of -1 was written into the sheet). None where all are in range or
    linked (None: not known until the graph runs)."""
    inputs = {i.id: i for i in node_cls.define_schema().inputs}
    for name, value in values.items():
        if value is None:
            continue
        declared = inputs[name]
        options = getattr(declared, "options", None)
        if options is not None and value not in options:
            return f"{node}: {name} {value!r} is not one of {', '.join(map(str, options))}."
        low, high = getattr(declared, "min", None), getattr(declared, "max", None)
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{node}: {name} {value} is outside {low}..{high}."
    return None


class NodeError(ValueError):
    """What a node says when it cannot run: one sentence that starts with the node's display
    name and says what to do. A ValueError, so ComfyUI's dialog titles it "ValueError", not
    with one of our module paths."""

    def __init__(self, node: str, message: str):
        super().__init__(f"{node}: {message}")


def raise_for_user(node: str, message: str) -> None:
    """Raise NodeError as a plain ValueError (the dialog names the exception's class)."""
    raise ValueError(str(NodeError(node, message))) from None


def speaks_as(node: str):
    """Decorator for execute: any ValueError leaves as a plain ValueError whose message
    starts with the node's display name (our own error classes would show their module
    path in ComfyUI's dialog)."""
    import functools

    def wrap(fn):
        @functools.wraps(fn)
        def execute(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except ValueError as e:
                msg = str(e)
                if type(e) is ValueError and msg.startswith(node):
                    raise
                raise ValueError(msg if msg.startswith(node) else f"{node}: {msg}") from None
        return execute
    return wrap
