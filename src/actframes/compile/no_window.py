"""Rows that say no window had the focus earn no time (SPEC.md §2, "No focused window").

The recorder writes ``[none]`` while no window has the focus and ``[silent]`` while its
window source reports nothing (``native_schema.NO_WINDOW_APPS``). Such a row is a frame
like any other — the app before it stops earning where it begins — but the time it holds
is credited to nobody, so the ledger never shows time nobody's window had.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..native_schema import NO_WINDOW_APPS
from .pieces import Row


def has_no_window_rows(apps: Iterable[str]) -> bool:
    """Whether any of the rows' apps says no window had the focus."""
    return not NO_WINDOW_APPS.isdisjoint(apps)


def credit_nothing(rows: Sequence[Row]) -> None:
    """Zero the credited time of the rows that say no window had the focus."""
    for r in rows:
        if r.key[0] in NO_WINDOW_APPS:
            r.credit_ms = 0
