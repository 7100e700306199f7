"""`--only`: which jobs of a joblist to run.

    hero/walk    one job            walk    that action of every character
    hero/        every action of hero
    @list.txt    the jobs named in a file, one per line (`driver review` exports such a
                 list); blank lines and # comments are skipped; a relative path is from
                 the current folder
Items are comma-separated and may be mixed. Anything that names no job of the joblist is
an error naming the item, so a typo never silently runs nothing (or everything).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from comfy_nodes.core.safeyaml import read_limited
from comfy_nodes.core.util import given_path

MAX_LIST_BYTES = 1 << 20  # a list of job names, not a data file


@dataclass(frozen=True)
class Selector:
    char: str | None  # None: any character
    action: str | None  # None: any action

    def matches(self, cid: str, action: str) -> bool:
        return self.char in (None, cid) and self.action in (None, action)

    def __str__(self) -> str:
        return f"{self.char or ''}/{self.action or ''}" if self.char else str(self.action)


def _item(text: str, where: str) -> Selector:
    if text.count("/") > 1 or text.startswith("/"):
        raise ValueError(f"{where}: {text!r} is not char/action, action or char/")
    if "/" in text:
        char, action = text.split("/")
        return Selector(char, action or None)
    return Selector(None, text)


def parse(text: str, flag: str = "--only") -> list[Selector]:
    """'hero/walk,idle,@rejects.txt' -> selectors."""
    out: list[Selector] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        if item.startswith("@"):
            out += read_list(given_path(item[1:], f"the file name after {flag} @",
                                        f"give the list of jobs, e.g. {flag} @rejects.txt"),
                             flag)
        else:
            out.append(_item(item, flag))
    if not out:
        raise ValueError(f"{flag}: names no job; give char/action, action, char/ or @file")
    return out


def read_list(path: Path, flag: str = "--only") -> list[Selector]:
    # A regular file of bounded size, read as the joblist is: a FIFO would block and
    # /dev/zero would fill memory.
    text = read_limited(path, f"{flag} list", limit=MAX_LIST_BYTES)
    # A BOM (Notepad's UTF-8) was read into the first item: "no character '\ufeffhero'".
    text = text.removeprefix("\ufeff")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(_item(line, f"{flag} @{path}:{n}"))
    if not out:
        raise ValueError(f"{flag} @{path}: names no job (the list is empty)")
    return out


def unknown(selectors: list[Selector], roster: dict[str, list[str]]) -> list[str]:
    """One line per selector that matches no job of the roster (character -> actions)."""
    problems = []
    actions = sorted({a for acts in roster.values() for a in acts})
    for s in selectors:
        if any(s.matches(c, a) for c, acts in roster.items() for a in acts):
            continue
        if s.char is None and s.action in roster:
            problems.append(f"--only {s}: no action {s.action!r}; for every action of "
                            f"character {s.action!r} write {s.action}/")
        elif s.char is not None and s.char not in roster:
            problems.append(f"--only {s}: no character {s.char!r}; the joblist has "
                            f"{', '.join(roster)}")
        elif s.char is not None:
            problems.append(f"--only {s}: {s.char} has no action {s.action!r}; it has "
                            f"{', '.join(roster[s.char])}")
        else:
            problems.append(f"--only {s}: no action {s.action!r}; the joblist has "
                            f"{', '.join(actions)}")
    return problems


def selected(selectors: list[Selector] | None, cid: str, action: str) -> bool:
    return selectors is None or any(s.matches(cid, action) for s in selectors)
