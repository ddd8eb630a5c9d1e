import pytest

from actframes.model import Action
from actframes.steps.layouts import LAYOUTS, LayoutSpan, apply_layouts, remap


def test_maps() -> None:
    assert set(LAYOUTS) >= {"azerty", "qwertz", "dvorak", "colemak"}
    assert remap("qwerty", "azerty") == "azerty"
    assert remap("zy", "qwertz") == "yz"
    assert remap("qwerty", "dvorak") == "',.pyf"
    assert remap("hello", "colemak") == "hfiiy"
    assert remap("123 é", "azerty") == "123 é"


def test_unknown_layout() -> None:
    with pytest.raises(ValueError, match="unknown keyboard layout"):
        remap("x", "bepo")


def test_only_opted_in_text_in_span() -> None:
    acts = [
        Action(1, 100, "text", text="qw"),
        Action(2, 300, "text", text="qw"),
        Action(3, 150, "key"),
    ]
    out = apply_layouts(acts, [LayoutSpan("azerty", 0, 200)])
    assert [a.text for a in out] == ["az", "qw", None]
