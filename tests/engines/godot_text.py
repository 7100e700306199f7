"""A small reader of Godot 4 text resources (.tres), strict where Godot's is.

Grammar (core/io/resource_format_text.cpp + core/variant/variant_parser.cpp):
    file     := section*
    section  := '[' TAG (KEY '=' value)* ']' assignment*
    assignment := KEY '=' value          (KEY may hold '/', as in metadata/foo)
    value    := number | string | '&' string (StringName) | '^' string (NodePath)
              | true | false | null | IDENT '(' [value (',' value)*] ')'
              | '[' [value (',' value)*] ']' | '{' [value ':' value (',' ...)*] '}'
    comments run from ';' to the end of the line.
Constructor calls come back as Call(name, args); StringName as StringName(text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\n]+) | (?P<comment>;[^\n]*)
  | (?P<string>"(?:[^"\\]|\\.)*")
  | (?P<number>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_/]*)
  | (?P<punct>[\[\]{}(),:=&^])
""", re.X)


class GodotSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple


@dataclass(frozen=True)
class StringName:
    text: str


@dataclass
class Section:
    tag: str
    attrs: dict
    props: dict = field(default_factory=dict)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise GodotSyntaxError(f"line {line}: unexpected {text[pos:pos + 10]!r}")
        kind = m.lastgroup
        if kind not in ("ws", "comment"):
            out.append((kind, m.group(), text.count("\n", 0, pos) + 1))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, value: str | None = None, kind: str | None = None) -> str:
        tok = self.peek()
        if tok is None:
            raise GodotSyntaxError("unexpected end of file")
        if (value is not None and tok[1] != value) or (kind is not None and tok[0] != kind):
            raise GodotSyntaxError(f"line {tok[2]}: expected {value or kind}, got {tok[1]!r}")
        self.i += 1
        return tok[1]

    def string(self) -> str:
        import json

        return json.loads(self.take(kind="string"))

    def value(self):
        kind, text, line = self.peek() or ("", "", 0)
        if kind == "string":
            return self.string()
        if kind == "number":
            self.i += 1
            return float(text) if any(c in text for c in ".eE") else int(text)
        if text in ("&", "^"):
            self.i += 1
            s = self.string()
            return StringName(s) if text == "&" else ("NodePath", s)
        if text == "[":
            return self.seq("[", "]")
        if text == "{":
            self.take("{")
            d = {}
            while self.peek() and self.peek()[1] != "}":
                k = self.value()
                self.take(":")
                d[k if not isinstance(k, StringName) else k.text] = self.value()
                if self.peek() and self.peek()[1] == ",":
                    self.take(",")
            self.take("}")
            return d
        if kind == "ident":
            self.i += 1
            if text in ("true", "false"):
                return text == "true"
            if text == "null":
                return None
            return Call(text, tuple(self.seq("(", ")")))
        raise GodotSyntaxError(f"line {line}: unexpected {text!r}")

    def seq(self, open_: str, close: str) -> list:
        self.take(open_)
        items = []
        while self.peek() and self.peek()[1] != close:
            items.append(self.value())
            if self.peek() and self.peek()[1] == ",":
                self.take(",")
        self.take(close)
        return items

    def sections(self) -> list[Section]:
        out: list[Section] = []
        while self.peek():
            self.take("[")
            tag = self.take(kind="ident")
            attrs = {}
            while self.peek() and self.peek()[1] != "]":
                key = self.take(kind="ident")
                self.take("=")
                attrs[key] = self.value()
            self.take("]")
            sec = Section(tag, attrs)
            while self.peek() and self.peek()[1] != "[":
                key = self.take(kind="ident")
                self.take("=")
                sec.props[key] = self.value()
            out.append(sec)
        return out


def parse(text: str) -> list[Section]:
    return _Parser(text).sections()
