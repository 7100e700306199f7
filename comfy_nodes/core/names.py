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
    shown = repr(name) if len(repr(name)) <= 80 else f"{repr(name)[:60]}...({len(name)} chars)"
    if why := _not_plain(name):
        raise ValueError(f"{what} {shown} is not a plain name ({why}): pick a simple name "
                         "such as 'hero'")
    if size > MAX_NAME_BYTES:
        raise ValueError(f"{what} {shown} is {size} bytes in UTF-8, too long for a file name "
                         f"with what h3sprite adds to it: at most {MAX_NAME_BYTES} bytes "
                         "(40 CJK characters, 30 emoji): pick a shorter name")
    return name


def _not_plain(name: object) -> str:
    """Why name is no plain file name, in words ("" where it is one): the line named only
    some of the rules, and `<img src=x>` was refused for a '<' it did not mention."""
    if not isinstance(name, str) or not name:
        return "it is empty"
    if len(name) > MAX_NAME:
        return f"it has {len(name)} characters; at most {MAX_NAME} characters"
    if name != name.strip():
        return "spaces at its ends"
    if name.startswith("."):
        return "a leading '.'"
    if ".." in name:
        return "'..' in it"
    bad = sorted({c for c in name if c in FORBIDDEN})
    if bad:
        return (f"{', '.join(repr(c) for c in bad)} in it: no '/', '\\' or any of "
                "':*?\"<>|', which file systems refuse")
    if any(ord(c) < 32 for c in name):
        return "control characters in it"
    return ""
