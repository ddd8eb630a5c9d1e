"""The actions of a store of any family, for steps and patterns: which family a path is,
its capture, its actions with their targets, element trees and screen sizes, a row's time."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import SourceError
from ..model import Action, Capture, Element, ScreenSize
from .base import connect_ro, fetch


def family(path: Path, forced: str | None = None) -> str:
    if forced:
        return forced
    from .uilog import is_uilog

    if path.exists() and path.is_file() and is_uilog(path):
        return "uilog"
    from . import detect

    return detect(path)


def open_any(path: Path, fam: str, *, audible_active: bool = True) -> Any:
    if fam == "uilog":
        from .uilog import UILogSource

        return UILogSource(path)
    from . import open_source

    return open_source(path, fam, audible_active=audible_active)


def read_capture(
    path: Path, fam: str, start_ms: int, end_ms: int, *, audible_active: bool = True
) -> Capture:
    """The capture of [start_ms, end_ms), the store opened read-only and closed again
    (``audible_active``: as for ``open_source``)."""
    src = open_any(path, fam, audible_active=audible_active)
    try:
        cap: Capture = src.read(start_ms, end_ms)
    finally:
        src.close()
    return cap


def row_time(path: Path, fam: str, row_id: int) -> int | None:
    """The time of snapshot row ``row_id`` (a frame id is ``F`` + its first row id)."""
    if fam == "uilog":
        from .uilog import read_rows

        rows, _ = read_rows(path)
        return next((r.ts_ms for r in rows if r.row == row_id), None)
    if fam in ("native", "screenpipe"):
        conn = connect_ro(path)
        try:
            if fam == "native":
                got = fetch(conn, "SELECT ts_ms FROM snapshots WHERE id = ?", (row_id,))
                return got[0][0] if got and isinstance(got[0][0], int) else None
            got = fetch(conn, "SELECT timestamp FROM frames WHERE id = ?", (row_id,))
        finally:
            conn.close()
        if not got or not isinstance(got[0][0], str):
            return None
        from ..timeparse import TimestampError, parse_iso_ms

        try:
            return parse_iso_ms(got[0][0])
        except TimestampError:
            return None
    return None


def steps_fingerprints(path: Path, fam: str, spans: Sequence[tuple[int, int]]) -> list[str | None]:
    """For each [start_ms, end_ms) of ``spans``: everything its action steps read,
    identified without reading it, where the family's reader can tell (native,
    screenpipe, aw-server-rust); None otherwise."""
    if fam == "native":
        from .native import actions as native_actions

        return native_actions.fingerprints(path, spans)
    if fam == "screenpipe":
        from .screenpipe import steps_fingerprint as screenpipe_steps_fingerprint

        return screenpipe_steps_fingerprint.fingerprints(path, spans)
    if fam == "activitywatch":
        from .activitywatch import steps_fingerprint as aw_steps_fingerprint

        return aw_steps_fingerprint.fingerprints(path, spans)
    return [None] * len(spans)


def days_fingerprinted(path: Path, fam: str) -> bool:
    """Does ``steps_fingerprints`` identify the store's days? Native and screenpipe-style
    stores, and aw-server-rust's database (not an export, read whole at every read)."""
    if fam in ("native", "screenpipe"):
        return True
    if fam == "activitywatch":
        from .activitywatch.steps_fingerprint import is_aw_sqlite

        return is_aw_sqlite(path)
    return False


def actions(
    path: Path, fam: str, cap: Capture, start_ms: int, end_ms: int, include_text: bool
) -> tuple[list[Action], list[Element], dict[str, ScreenSize]]:
    """Actions of [start_ms, end_ms) with element fields, element trees, screen sizes."""
    if fam == "uilog":
        from .uilog import actions_of, read_rows

        rows, _ = read_rows(path)
        acts = [a for a in actions_of(rows, include_text) if start_ms <= a.ts_ms < end_ms]
        return acts, [], {}
    if fam == "native":
        from .native import actions as native_actions

        return native_actions.read(path, start_ms, end_ms, include_text)
    if fam == "screenpipe":
        from .screenpipe import actions as screenpipe_actions

        return screenpipe_actions.read(path, start_ms, end_ms, include_text)
    if fam == "activitywatch":
        # Counts only: no targets, no points, no text.
        evs = [e for e in cap.all_events() if start_ms <= e.ts_ms < end_ms]
        return [Action(e.event_id, e.ts_ms, e.kind, e.app, device=e.device) for e in evs], [], {}
    raise SourceError(f"{path}: unknown source kind {fam!r}")
