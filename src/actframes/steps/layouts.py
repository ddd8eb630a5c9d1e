"""Keyboard layouts: explicit operator maps, never guessed.

Recorders that log typed text see key *positions* as a US-QWERTY keyboard would name
them. An operator whose keyboard is laid out otherwise chooses the layout for a store or
a time span; the map then turns each recorded character into the one the key actually
carries. Applied only to text the operator opted in to (``Action.text``): counts never
change, and without ``--include-text`` there is no text to map.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..model import Action

# US-QWERTY key positions, row by row (unshifted, then shifted).
_US = ("qwertyuiop[]", "asdfghjkl;'", "zxcvbnm,./", "QWERTYUIOP{}", 'ASDFGHJKL:"', "ZXCVBNM<>?")

# What the same positions carry on each layout (same rows, same lengths).
_LAYOUT_ROWS: dict[str, tuple[str, ...]] = {
    "azerty": (
        "azertyuiop^$",
        "qsdfghjklmù",
        "wxcvbn,;:!",
        "AZERTYUIOP¨£",
        "QSDFGHJKLM%",
        "WXCVBN?./§",
    ),
    "qwertz": (
        "qwertzuiopü+",
        "asdfghjklöä",
        "yxcvbnm,.-",
        "QWERTZUIOPÜ*",
        "ASDFGHJKLÖÄ",
        "YXCVBNM;:_",
    ),
    "dvorak": (
        "',.pyfgcrl/=",
        "aoeuidhtns-",
        ";qjkxbmwvz",
        '"<>PYFGCRL?+',
        "AOEUIDHTNS_",
        ":QJKXBMWVZ",
    ),
    "colemak": (
        "qwfpgjluy;[]",
        "arstdhneio'",
        "zxcvbkm,./",
        "QWFPGJLUY:{}",
        'ARSTDHNEIO"',
        "ZXCVBKM<>?",
    ),
}


def _table(rows: tuple[str, ...]) -> dict[int, str]:
    table: dict[int, str] = {}
    for us, lay in zip(_US, rows, strict=True):
        assert len(us) == len(lay), (us, lay)
        for a, b in zip(us, lay, strict=True):
            if a != b:
                table[ord(a)] = b
    return table


LAYOUTS: dict[str, dict[int, str]] = {name: _table(rows) for name, rows in _LAYOUT_ROWS.items()}


class LayoutSpan(NamedTuple):
    """The operator's choice: ``layout`` for events in [start_ms, end_ms) (None: all)."""

    layout: str
    start_ms: int | None = None
    end_ms: int | None = None


def remap(text: str, layout: str) -> str:
    """``text`` as typed on ``layout`` (characters outside the map pass unchanged)."""
    try:
        table = LAYOUTS[layout]
    except KeyError:
        raise ValueError(
            f"unknown keyboard layout {layout!r} (known: {', '.join(LAYOUTS)})"
        ) from None
    return text.translate(table)


def apply_layouts(actions: Sequence[Action], spans: Sequence[LayoutSpan]) -> list[Action]:
    """Opted-in text remapped where the operator chose a layout; the first span that
    holds an action's time wins. Actions without text are returned untouched."""
    for s in spans:
        if s.layout not in LAYOUTS:
            raise ValueError(f"unknown keyboard layout {s.layout!r} (known: {', '.join(LAYOUTS)})")
    out = []
    for a in actions:
        if a.text:
            for s in spans:
                if (s.start_ms is None or a.ts_ms >= s.start_ms) and (
                    s.end_ms is None or a.ts_ms < s.end_ms
                ):
                    a = a._replace(text=remap(a.text, s.layout))
                    break
        out.append(a)
    return out
