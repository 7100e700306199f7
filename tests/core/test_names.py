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
