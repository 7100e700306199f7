"""Names from joblists, flags and node inputs must stay inside their folders.

Any language's letters are welcome (角色 ids like 侠客 are normal here); what is refused is
what could leave the folder or break a file system: path separators, '..', a leading '.',
control characters, and the characters Windows forbids in file names.
"""

from __future__ import annotations

FORBIDDEN = set('/\\:*?"<>|')
MAX_NAME = 64  # characters; a name becomes a folder and file name and is echoed in lines


def safe_name(name: str, what: str = "name") -> str:
    """Return name if it is a plain file name, else raise ValueError naming it."""
    ok = (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name == name.strip()
          and not name.startswith(".") and ".." not in name
          and not any(c in FORBIDDEN or ord(c) < 32 for c in name))
    if not ok:
        shown = repr(name) if len(repr(name)) <= 80 else f"{repr(name)[:60]}...({len(name)} chars)"
        raise ValueError(f"{what} {shown} is not a plain name (at most {MAX_NAME} characters; "
                         "no '/', '\\\\', ':', '..', leading '.' or control characters): pick a "
                         "simple name such as 'hero'")
    return name
