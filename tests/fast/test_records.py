"""fast/records.py: what ``@dataclass(slots=True[, frozen=True])`` gives, without it."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.fast.records import FrozenRecord, Record


class Point(Record):
    __slots__ = ("note", "x", "y")
    _fields = ("x", "y")  # ``note`` is neither compared nor shown

    def __init__(self, x: int, y: int, note: str = "") -> None:
        self.x, self.y, self.note = x, y, note


class Key(FrozenRecord):
    __slots__ = _fields = ("a", "b")

    a: int
    b: str

    def __init__(self, a: int, b: str) -> None:
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)


class Other(FrozenRecord):
    __slots__ = _fields = ("a", "b")

    def __init__(self, a: int, b: str) -> None:
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)


def test_equality_and_repr_follow_the_listed_fields() -> None:
    assert Point(1, 2, "one") == Point(1, 2, "two")
    assert Point(1, 2) != Point(2, 1)
    assert repr(Point(1, 2, "x")) == "Point(x=1, y=2)"
    p = Point(1, 2)
    p.x = 5  # a plain record is mutable
    assert p == Point(5, 2)


def test_records_of_other_classes_are_never_equal() -> None:
    assert Key(1, "a") != Other(1, "a")
    assert Key(1, "a").__eq__(Other(1, "a")) is NotImplemented
    assert Key(1, "a") != (1, "a")


def test_a_repr_that_comes_round_again_shows_dots() -> None:
    p = Point(1, 2)
    p.y = p  # type: ignore[assignment]
    assert repr(p) == "Point(x=1, y=...)"


def test_a_frozen_record_refuses_assignment_and_deletion() -> None:
    k = Key(1, "a")
    with pytest.raises(AttributeError, match="cannot assign to field 'a'"):
        k.a = 2
    with pytest.raises(AttributeError, match="cannot delete field 'b'"):
        del k.b
    assert k == Key(1, "a")


@given(st.integers(), st.text())
def test_a_frozen_record_hashes_copies_and_pickles_by_its_fields(a: int, b: str) -> None:
    k = Key(a, b)
    assert hash(k) == hash(Key(a, b)) == hash((a, b))
    assert len({k, Key(a, b)}) == 1
    for again in (copy.copy(k), copy.deepcopy(k), pickle.loads(pickle.dumps(k))):
        assert again == k and again is not k and type(again) is Key
        with pytest.raises(AttributeError):
            again.a = 0


def test_records_have_no_instance_dict() -> None:
    with pytest.raises(AttributeError):
        Key(1, "a").__dict__  # noqa: B018
    with pytest.raises(AttributeError):
        Point(1, 2).z = 3  # type: ignore[attr-defined]
