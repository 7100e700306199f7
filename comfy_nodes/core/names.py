"""Names from joblists, flags and node inputs must stay inside their folders.

Any language's letters are welcome (角色 ids like 侠客 are normal here); what is refused is
what could leave the folder or break a file system: path separators, '..', a leading '.',
control characters, the characters Windows forbids in file names, text that is not UTF-8
(bytes a shell passed through), and a name too long in bytes to be a file name.
"""

from __future__ import annotations

FORBIDDEN = set('/\\:*?"<>|')
MAX_NAME = 64  # characters; a name becomes a folder and file name and is echoed in lines
# A file name holds 255 bytes (ext4, XFS, btrfs, APFS); 64 emoji are 256 in UTF-8. Two names
# join as a work folder (<character>_<action>: at most 241 bytes), and one gets at most ~55
# bytes of ours around it (.h3sprite-<stem>.aseprite.json.<pid>.<thread>.tmp), so 120 bytes
# leave room: 64 Latin letters, 40 CJK characters, 30 emoji.
MAX_NAME_BYTES = 120


def safe_name(name: str, what: str = "name") -> str:
    """Return name if it is a plain file name, else raise ValueError naming it."""
    try:
        size = len(name.encode("utf-8")) if isinstance(name, str) else 0
    except UnicodeEncodeError:  # undecodable bytes from the shell arrive as surrogates
        raise ValueError(f"{what} {ascii(name)[:80]} is not valid UTF-8 text: give a name "
                         "in UTF-8, such as 'hero'") from None
    ok = (isinstance(name, str) and 0 < len(name) <= MAX_NAME and name == name.strip()
          and not name.startswith(".") and ".." not in name
          and not any(c in FORBIDDEN or ord(c) < 32 for c in name))
    shown = repr(name) if len(repr(name)) <= 80 else f"{repr(name)[:60]}...({len(name)} chars)"
    if not ok:
        raise ValueError(f"{what} {shown} is not a plain name (at most {MAX_NAME} characters; "
                         "no '/', '\\\\', ':', '..', leading '.' or control characters): pick a "
                         "simple name such as 'hero'")
    if size > MAX_NAME_BYTES:
        raise ValueError(f"{what} {shown} is {size} bytes in UTF-8, too long for a file name "
                         f"with what h3sprite adds to it: at most {MAX_NAME_BYTES} bytes "
                         "(40 CJK characters, 30 emoji): pick a shorter name")
    return name
