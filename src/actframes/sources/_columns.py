"""Events read in bulk: SQL groups counted events by (type, app, device) and hands each
group back as comma-joined ids and instants; this turns the groups into columns."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from itertools import chain, compress, islice
from operator import eq, le, lt
from typing import Any

from ..model import EventColumn
from ..text import clean_name


class DuplicateIds(Exception):
    """Two events share an id: the caller falls back to reading events one by one."""


class UnplacedRows(Exception):
    """A group holds rows without an id or an instant: the caller reads one by one."""


def columns_from_groups(
    groups: Iterable[tuple[Any, ...]],
    kind_of: Callable[[str], str | None],
    sizes: Sequence[int] | None = None,
    exact_text: bool = False,
    unique_ids: bool = False,
) -> list[EventColumn]:
    """Rows of (type, app, device, ids, instants, counts-or-None), comma-joined, in any
    order within a group. ``sizes``, when given, is each group's number of rows: a group
    whose ids or instants are fewer (group_concat skips NULLs) raises UnplacedRows.
    ``exact_text``: every id and instant is an integer written the way ``str`` writes it
    (SQL integers are), so a column made of one group in its order keeps the text.
    ``unique_ids``: the store's key guarantees distinct ids; they are not checked again."""
    merged: dict[
        tuple[str, str | None, str | None],
        list[tuple[list[int], list[int], list[int] | None, tuple[str, str]]],
    ] = {}
    total = 0
    for g, (etype, app_raw, dev_raw, ids_text, ts_text, counts_text) in enumerate(groups):
        if sizes is not None and (ids_text is None or ts_text is None):
            raise UnplacedRows()
        kind = kind_of(etype) if isinstance(etype, str) else None
        if kind is None or not ids_text:
            continue
        if exact_text:  # integers as SQL writes them: a JSON array's numbers, parsed in C
            ids, ts = json.loads(f"[{ids_text}]"), json.loads(f"[{ts_text}]")
        else:
            ids = list(map(int, str(ids_text).split(",")))
            ts = list(map(int, str(ts_text).split(",")))
        if sizes is not None and not len(ids) == len(ts) == sizes[g]:
            raise UnplacedRows()
        counts = None
        # All ones (the usual text group: one character per row) is told by comparing
        # the text, without making a number of each.
        if counts_text and counts_text != "1," * (len(ids) - 1) + "1":
            counts = list(map(int, str(counts_text).split(",")))
            if counts.count(1) == len(counts):  # all ones, counted in C
                counts = None
        total += len(ids)
        key = (kind, clean_name(app_raw) or None, dev_raw or None)
        merged.setdefault(key, []).append((ids, ts, counts, (str(ids_text), str(ts_text))))
    out = []
    all_ids: set[int] = set()
    for (kind, app, dev), parts in merged.items():
        if len(parts) == 1:  # one group: its lists as they are
            ids, ts, counts = parts[0][0], parts[0][1], parts[0][2]
        else:  # joined in C
            ids = list(chain.from_iterable(p[0] for p in parts))
            ts = list(chain.from_iterable(p[1] for p in parts))
            counts = None
            if any(p[2] is not None for p in parts):
                counts = list(chain.from_iterable(p[2] or [1] * len(p[0]) for p in parts))
        # Groups usually come in time order already; a column not in (time, id) order
        # (merged groups, rows out of order) is sorted by (time, id). Ties in time with
        # ids in order (a burst of input within one millisecond) need no sort.
        text = None
        if not all(map(lt, ts, islice(ts, 1, None))) and not _in_order(ts, ids):
            order = sorted(range(len(ts)), key=lambda k: (ts[k], ids[k]))
            ids, ts = [ids[k] for k in order], [ts[k] for k in order]
            if counts is not None:
                counts = [counts[k] for k in order]
        elif exact_text:  # each part's text is its lists': joined, the joined lists'
            text = parts[0][3]
            if len(parts) > 1:
                text = (",".join(p[3][0] for p in parts), ",".join(p[3][1] for p in parts))
        if not unique_ids:
            all_ids.update(ids)
        out.append(EventColumn(kind, app, dev, ts, ids, counts, text))
    if not unique_ids and len(all_ids) != total:
        raise DuplicateIds()
    return out


def _in_order(ts: list[int], ids: list[int]) -> bool:
    """Whether (time, id) pairs strictly increase: times never decrease (compared in C),
    and where two times are equal, the ids increase (only the ties are looked at)."""
    if not all(map(le, ts, islice(ts, 1, None))):
        return False
    ties = compress(range(len(ts) - 1), map(eq, ts, islice(ts, 1, None)))
    return all(ids[k] < ids[k + 1] for k in ties)
