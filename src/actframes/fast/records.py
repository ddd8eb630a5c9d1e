"""Plain record classes: what ``@dataclass(slots=True)`` writes — equality and a repr
over the fields, in order — and, for ``FrozenRecord``, what ``frozen=True`` adds: a hash
and no assignment. Without ``dataclasses``, which imports ``inspect`` (~10 ms of every
``actframes day``) and writes its methods with ``exec`` at import.

A subclass lists its fields in ``__slots__``, and in ``_fields`` the ones compared and
shown (all of them for a frozen record), and writes its own ``__init__``; a frozen one
sets its fields with ``object.__setattr__``.
"""

from __future__ import annotations

from reprlib import recursive_repr
from typing import Any, ClassVar


class Record:
    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()  # compared and shown, in order

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self._fields])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    @recursive_repr()  # a row's frame holds the row: "..." where a repr comes round again
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({shown})"


class FrozenRecord(Record):
    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:
        return hash(self._values())

    # (copy and pickle: the fields, all of them, set past __setattr__)
    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for name, value in zip(self._fields, state, strict=True):
            object.__setattr__(self, name, value)
