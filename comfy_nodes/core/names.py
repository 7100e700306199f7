"""Names from joblists, flags and node inputs must stay inside their folders."""

from __future__ import annotations

import re

_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_\-. ]*$")


def safe_name(name: str, what: str = "name") -> str:
    """Return name if it is a plain file name: no '/', '\\', '..', leading '.', NUL."""
    if (not isinstance(name, str) or not _PLAIN.match(name) or ".." in name
            or len(name) > 100):
        raise ValueError(f"{what} {name!r} is not a plain name (letters, digits, '_', '-', "
                         f"'.', no '/' or '..'): pick a simple name such as 'hero'")
    return name
