"""YAML from users, loaded so that it cannot be turned against us.

`yaml.safe_load` builds no objects, but it still expands aliases (a 1 KB "billion laughs"
grows to gigabytes), recurses once per nesting level (5,000 levels is a RecursionError),
and lets a duplicate key silently win. The loader here refuses all three, and `read_limited`
reads only regular files up to a size limit (a FIFO or /dev/zero never blocks or fills
memory). Every error is a YamlLimitError whose message names the file and line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .regularfile import Kind, NotRegular, read_regular

MAX_FILE_BYTES = 1 << 20  # a joblist or wording table is a few KB; 1 MiB is generous
MAX_DEPTH = 32  # the deepest real joblist is 4 levels
MAX_NODES = 100_000


class YamlLimitError(ValueError):
    """The file is not a YAML document we accept; the message names the file and line."""


def short(value: Any, limit: int = 60) -> str:
    """repr() of a user's value, cut to `limit` characters: error lines stay one line."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 12]}...({len(text)} chars)"


def read_limited(path: Path, what: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes (regularfile.read_regular: known
    by stat before it is opened, and the read capped)."""
    try:
        data = read_regular(path, limit)
    except NotRegular as e:
        clause = {Kind.FOLDER: "is a folder: give a regular file",
                  Kind.SPECIAL: "is not a regular file: give a regular file"}
        raise YamlLimitError(f"{what} {path} {clause.get(e.kind, e.reason)}") from None
    except OSError as e:
        raise YamlLimitError(f"cannot read {what} {path}: {e.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise YamlLimitError(f"{what} {path} is not UTF-8 text (byte {e.start})") from None


class LimitedLoader(yaml.SafeLoader):
    """SafeLoader without aliases, with a nesting and node limit, refusing duplicate keys."""

    max_depth = MAX_DEPTH
    max_nodes = MAX_NODES

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0
        self._nodes = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise yaml.MarkedYAMLError(None, None, "anchors and aliases (*name) are not "
                                       "allowed here: write the value out", event.start_mark)
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent,
                              yaml.MappingStartEvent)) and event.anchor is not None:
            raise yaml.MarkedYAMLError(None, None, "anchors (&name) are not allowed here: "
                                       "write the value out", event.start_mark)
        self._nodes += 1
        if self._nodes > self.max_nodes:
            raise yaml.MarkedYAMLError(None, None, f"more than {self.max_nodes} values",
                                       event.start_mark)
        self._depth += 1
        try:
            if self._depth > self.max_depth:
                raise yaml.MarkedYAMLError(None, None, f"nested deeper than {self.max_depth} "
                                           "levels", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):  # type: ignore[no-untyped-def]
        seen = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise yaml.MarkedYAMLError(None, None, "merge keys (<<) are not allowed here",
                                           key_node.start_mark)
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise yaml.MarkedYAMLError(None, None, "a mapping key must be a plain value",
                                           key_node.start_mark) from None
            line = key_node.start_mark.line + 1
            if key in seen:
                raise yaml.MarkedYAMLError(None, None, f"duplicate key {short(key)} on lines "
                                           f"{seen[key]} and {line}: keep one",
                                           key_node.start_mark)
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def loads(text: str, where: str) -> Any:
    """Parse one YAML document with the limits above; errors name `where` and the line."""
    loader = None
    try:
        loader = LimitedLoader(text)  # the reader refuses control characters already here
        return loader.get_single_data()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise YamlLimitError(f"{where}{line}: not a valid YAML document: {problem}") from None
    except RecursionError:  # a guard behind the depth limit, never expected
        raise YamlLimitError(f"{where}: nested too deeply") from None
    finally:
        if loader is not None:
            loader.dispose()


def load_file(path: Path, what: str, limit: int = MAX_FILE_BYTES) -> Any:
    return loads(read_limited(path, what, limit), f"{what} {path}")
