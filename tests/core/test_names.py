"""Names that become folders and files never escape them; any language is welcome."""

import pytest

from comfy_nodes.core.names import safe_name


@pytest.mark.parametrize("name", ["hero", "boar_2", "Old Man", "侠客", "ゾンビ-01", "a.b"])
def test_plain_names_pass(name):
    assert safe_name(name) == name


@pytest.mark.parametrize("name", ["", ".", "..", "../x", "a/b", "a\\b", ".hidden", "x..y",
                                  "c:", "a\0b", "tab\tname", " padded", "q?", "x" * 101])
def test_escaping_or_odd_names_are_refused(name):
    with pytest.raises(ValueError, match="plain name"):
        safe_name(name)


@pytest.mark.parametrize("name", ["侠" * 40, "😀" * 30, "x" * 64],
                         ids=["40 CJK", "30 emoji", "64 Latin"])
def test_names_up_to_120_utf8_bytes_pass(name):
    assert safe_name(name) == name


@pytest.mark.parametrize("name, size", [("😀" * 64, 256), ("侠" * 41, 123)],
                         ids=["64 emoji", "41 CJK"])
def test_names_too_long_in_bytes_for_a_file_name_are_refused(name, size):
    """64 emoji are 64 characters but 256 bytes: a server answered 500 to the upload, a
    file system said "File name too long"."""
    with pytest.raises(ValueError, match=f"is {size} bytes in UTF-8.*at most 120 bytes"):
        safe_name(name, "character id")


def test_undecodable_bytes_from_the_shell_are_refused():
    """`--name $'\\xff\\xfe'` arrives as surrogates; encoding them failed later with
    "'utf-8' codec can't encode characters"."""
    with pytest.raises(ValueError, match=r"--name '\\udcff\\udcfe' is not valid UTF-8"):
        safe_name(b"\xff\xfe".decode("utf-8", "surrogateescape"), "--name")


@pytest.mark.parametrize("name, why", [
    ("<img src=x>", "'<', '>' in it: no '/', '\\' or any of ':*?\"<>|'"),
    ("a|b", "'|' in it"),
    ("../x", "a leading '.'"),
    ("x..y", "'..' in it"),
    ("tab\tname", "control characters in it"),
    (" padded", "spaces at its ends"),
    ("x" * 65, "it has 65 characters; at most 64 characters"),
    ("", "it is empty"),
])
def test_a_refused_name_says_which_rule_it_breaks(name, why):
    """The line named only some rules: `<img src=x>` was refused for a '<' it never
    mentioned. Now it says what in the name is the matter."""
    with pytest.raises(ValueError) as e:
        safe_name(name, "character id")
    assert f"is not a plain name ({why}" in str(e.value), str(e.value)
