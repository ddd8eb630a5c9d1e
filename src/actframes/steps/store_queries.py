"""Steps of a frame and patterns over days, from a store path: the library calls behind
``actframes steps``, ``actframes patterns`` and the MCP server."""

from __future__ import annotations

from datetime import date as Date
from datetime import timedelta
from pathlib import Path
from typing import Any

from ..compile.document import Clock
from ..compile.pipeline import compile_capture
from ..compile.reattribute import reattributed
from ..errors import UsageError
from ..sources import actions as store_actions
from ..window import day_window, local_day_of
from .build import frame_steps, render
from .layouts import LayoutSpan, apply_layouts
from .patterns import find_patterns
from .resolve import resolve_all


def steps_of_frame(
    path: Path,
    source: str | None,
    zone: str,
    frame_id: str,
    date: str | None = None,
    include_text: bool = False,
    layout: str | None = None,
    *,
    audible_active: bool = True,
) -> tuple[str, list[dict[str, Any]]]:
    """(the frame's local day, its rendered steps in order). ``audible_active``: as for
    ``sources.open_source``."""
    if not frame_id.startswith("F") or not frame_id[1:].isdigit():
        raise UsageError(f"frame id {frame_id!r} is not of the form F<row id>")
    fam = store_actions.family(path, source)
    if date is None:
        ts = store_actions.row_time(path, fam, int(frame_id[1:]))
        if ts is None:
            raise UsageError(f"{path}: no row {frame_id[1:]} for frame {frame_id} (try --date)")
        date = local_day_of(ts, zone)
    window = day_window(date, zone)
    cap = store_actions.read_capture(
        path, fam, window.start_ms, window.end_ms, audible_active=audible_active
    )
    doc = compile_capture(cap, window)
    frame = next((f for f in doc["frames"] if f["id"] == frame_id), None)
    if frame is None:
        raise UsageError(f"{path}: no frame {frame_id} on {date} ({zone})")
    acts, elements, screens = store_actions.actions(
        path, fam, cap, window.start_ms - 300_000, window.end_ms + 300_000, include_text
    )
    # The compiler re-attributes stale events itself: the actions take the same times.
    acts = reattributed(acts, cap)
    if layout and include_text:
        acts = apply_layouts(acts, [LayoutSpan(layout)])
    acts, how = resolve_all(acts, elements, screens)
    steps = frame_steps(frame, acts, cap.snapshots, how, include_text)
    return date, render(steps, Clock(zone).iso)


def find_in_day(
    path: Path,
    source: str | None,
    zone: str,
    query: str,
    date: str,
    limit: int = 10,
    *,
    audible_active: bool = True,
) -> list[dict[str, Any]]:
    """The frames of one local day matching ``query``, best first (``compile/find.py``)."""
    from ..compile.find import find_frames, query_words

    if not query_words(query):
        raise UsageError(f"--find {query!r} has no word to look for")
    fam = store_actions.family(path, source)
    window = day_window(date, zone)
    cap = store_actions.read_capture(
        path, fam, window.start_ms, window.end_ms, audible_active=audible_active
    )
    doc = compile_capture(cap, window)
    return find_frames(doc, query, limit)


def patterns_over(
    path: Path,
    source: str | None,
    zone: str,
    days: int,
    last: str,
    include_text: bool = False,
    layout: str | None = None,
    *,
    audible_active: bool = True,
) -> tuple[str, list[dict[str, Any]]]:
    """(the first day, the measured patterns of the ``days`` local days ending on
    ``last``, each with its evidence and times in the zone). Stale input events are
    re-attributed first, as the compiler and ``read_steps`` do."""
    if days < 1:
        raise UsageError("--days must be at least 1")
    first = Date.fromisoformat(day_window(last, zone).day or last) - timedelta(days=days - 1)
    start = day_window(first.isoformat(), zone).start_ms
    end = day_window(last, zone).end_ms
    fam = store_actions.family(path, source)
    cap = store_actions.read_capture(path, fam, start, end, audible_active=audible_active)
    snaps = [s for s in cap.snapshots if start <= s.ts_ms < end]
    acts, elements, screens = store_actions.actions(path, fam, cap, start, end, include_text)
    # Stale events take the times the compiler's re-attribution gives them, so a pattern's
    # times and evidence agree with the frames and with ``read_steps`` (routines).
    acts = reattributed(acts, cap)
    if layout and include_text:
        acts = apply_layouts(acts, [LayoutSpan(layout)])
    acts, _ = resolve_all(acts, elements, screens)
    iso = Clock(zone).iso
    out = []
    for p in find_patterns(acts, snaps, zone, include_text):
        q: dict[str, Any] = {}
        for k, v in p.items():
            if k.endswith("_ms") and isinstance(v, int):
                q[k[:-3]] = iso(v)
            elif k == "at_ms":
                q["at"] = [iso(t) for t in v]
            else:
                q[k] = v
        out.append(q)
    return first.isoformat(), out
