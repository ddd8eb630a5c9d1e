"""Events read in bulk: SQL groups counted events by (type, app, device) and hands each
group back as comma-joined ids and instants; this turns the groups into columns."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model import EventColumn
from ..text import clean_name


class DuplicateIds(Exception):
    """Two events share an id: the caller falls back to reading events one by one."""


def columns_from_groups(
    groups: Iterable[tuple[Any, ...]], kind_of: Callable[[str], str | None]
) -> list[EventColumn]:
    """Rows of (type, app, device, ids, instants, counts-or-None), comma-joined."""
    merged: dict[
        tuple[str, str | None, str | None], list[tuple[list[int], list[int], list[int] | None]]
    ] = {}
    total = 0
    for etype, app_raw, dev_raw, ids_text, ts_text, counts_text in groups:
        kind = kind_of(etype) if isinstance(etype, str) else None
        if kind is None or not ids_text:
            continue
        ids = list(map(int, str(ids_text).split(",")))
        ts = list(map(int, str(ts_text).split(",")))
        counts = list(map(int, str(counts_text).split(","))) if counts_text else None
        if counts is not None and all(n == 1 for n in counts):
            counts = None
        total += len(ids)
        key = (kind, clean_name(app_raw) or None, dev_raw or None)
        merged.setdefault(key, []).append((ids, ts, counts))
    out = []
    all_ids: set[int] = set()
    for (kind, app, dev), parts in merged.items():
        ids = [i for p in parts for i in p[0]]
        ts = [t for p in parts for t in p[1]]
        counts = None
        if any(p[2] is not None for p in parts):
            counts = [n for p in parts for n in (p[2] or [1] * len(p[0]))]
        # SQL hands each group over in (time, id) order; merged groups are sorted again.
        if len(parts) > 1 or ts != sorted(ts):
            order = sorted(range(len(ts)), key=lambda k: (ts[k], ids[k]))
            ids, ts = [ids[k] for k in order], [ts[k] for k in order]
            if counts is not None:
                counts = [counts[k] for k in order]
        all_ids.update(ids)
        out.append(EventColumn(kind, app, dev, ts, ids, counts))
    if len(all_ids) != total:
        raise DuplicateIds()
    return out
