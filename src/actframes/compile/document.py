"""Assemble the Tier-1 document (schema_version 1) from compiled pieces.

Keys appear in a fixed order and nothing depends on when or where it was compiled.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from operator import attrgetter
from typing import TypedDict

from .. import doc_types
from ..fast.records import FrozenRecord
from ..model import Capture, Span
from ..window import Window
from .attribute import Unattributed
from .classified import Classified, Labels, labels_key
from .clock import Clock as Clock  # (re-exported: the emitters and views use it)
from .constants import BY_QUERY, GAP_LIST_MIN_MS
from .disclosures import NO_INPUT_SPOT as NO_INPUT_SPOT  # (re-exported: emitters use it)
from .disclosures import blind_spots, rejected_list
from .labels import Shown, label, merge
from .ledger import LedgerEntry, host_ledgers, round_half_up_s
from .page_refs import PAGE
from .piece_views import PieceViews, Ref, Views, titles, views
from .pieces import Piece, Row
from .ranges import compact, compact_distinct, compact_within
from .reuse import Reuse, piece_key, rows_key, same_ids

SCHEMA_VERSION = 1
# Fields of every row, read in C (a day has tens of thousands of rows).
_START, _END = attrgetter("start_ms"), attrgetter("end_ms")
_PIECE_START = attrgetter("start_ms")  # Piece.start_ms

Doc = doc_types.Document  # the name the rest of the package imports (types in ``doc_types``)


class Hidden(FrozenRecord):
    """Frames a filter hid: how many, their active time, and the filter."""

    __slots__ = _fields = ("frames", "active_s", "reason")

    frames: int
    active_s: int
    reason: doc_types.OmittedBy | None

    def __init__(self, frames: int, active_s: int, reason: doc_types.OmittedBy | None) -> None:
        init = object.__setattr__
        init(self, "frames", frames)
        init(self, "active_s", active_s)
        init(self, "reason", reason)


def input_obj(counts: dict[str, int]) -> doc_types.InputCounts:
    get = counts.get
    return {
        "keys": get("keys", 0),
        "clicks": get("clicks", 0),
        "scrolls": get("scrolls", 0),
        "copies": get("copies", 0),
        "pastes": get("pastes", 0),
    }


# The document's optional keys, each as a mapping of its own that is empty when the key
# has no value: ``{..., **site_key(site), ...}`` keeps the key in its place, and mypy checks
# the whole object against its TypedDict.
class SiteKey(TypedDict, total=False):
    site: str


class _DeviceKey(TypedDict, total=False):
    device: str


class _LabelKey(TypedDict, total=False):
    label: str


class _CountKey(TypedDict, total=False):
    count: int


def site_key(site: str | None) -> SiteKey:
    return {} if site is None else {"site": site}


def _label_key(name: str | None) -> _LabelKey:
    return {} if name is None else {"label": name}


def pages(pv: PieceViews) -> list[doc_types.PageRef]:
    out: list[doc_types.PageRef] = []
    shown = pv.shown
    for ref, (n, _) in pv.views.items():
        titles_of = shown.get(ref)  # a reference from a title only has none: no label
        name = None if titles_of is None else label(ref[1], titles_of)
        page: doc_types.PageRef = {"kind": ref[0], "entity": ref[1]}
        if name is not None:
            page["label"] = name
        if n > 1:
            page["count"] = n
        out.append(page)
    return out


def viewed(
    pieces: Sequence[Piece], clock: Clock, views_of: dict[int, PieceViews]
) -> list[doc_types.ViewedRef]:
    """Every typed reference (any kind but ``page``) seen in any frame or interruption,
    before filtering: its label, first view and number of views, in order of first view."""
    merged: Views = {}
    shown: dict[Ref, Shown] = {}
    for p in pieces:
        pv = views_of[id(p)]
        for ref, (n, first) in pv.views.items():
            if ref[0] == PAGE:
                continue
            got = merged.get(ref)
            if got is None:
                merged[ref] = [n, first]
            else:
                got[0] += n
                got[1] = min(got[1], first)
            if ref in pv.shown:
                merge(shown.setdefault(ref, {}), pv.shown[ref])
    order = sorted(merged.items(), key=lambda kv: (kv[1][1], kv[0]))
    out: list[doc_types.ViewedRef] = []
    for (kind, entity), (n, first) in order:
        name = label(entity, shown.get((kind, entity), {}))
        out.append(
            {
                "kind": kind,
                "entity": entity,
                **_label_key(name),
                "first": clock.iso(first),
                "views": n,
            }
        )
    return out


def _viewed(
    pieces: Sequence[Piece], clock: Clock, views_of: dict[int, PieceViews], reuse: Reuse | None
) -> list[doc_types.ViewedRef]:
    """``viewed``, used again while every piece's references are the same, in the same
    order (kept ones are the very objects: compared by identity first)."""
    if reuse is None:
        return viewed(pieces, clock, views_of)
    key = (clock, tuple(views_of[id(p)] for p in pieces))
    return reuse.once("viewed", key, partial(viewed, pieces, clock, views_of))


def evidence(piece: Piece, distinct: bool = False) -> doc_types.Evidence:
    """``distinct``: the capture's event ids are (``Capture.distinct_ids``)."""
    return {
        "rows": compact([r.snap[0] for r in piece.rows]),  # (row ids)
        "events": (compact_distinct if distinct else compact)(piece.event_ids),
    }


def frame_obj(
    f: Piece,
    clock: Clock,
    views_of: dict[int, PieceViews],
    distinct: bool = False,
    labels: Labels = None,
) -> doc_types.Frame:
    # Piece's properties (start, end, id, app, site) read straight from its rows: a day
    # has a hundred or more frames, and each property is a call.
    rows = f.rows
    first = rows[0]
    snap, site, start, end = first.snap, first.site, first.start_ms, rows[-1].end_ms
    iso, get = clock.iso, f.input.get
    pv = views_of[id(f)]
    device: _DeviceKey = {"device": snap.device} if snap.device else {}
    return {
        "id": f"F{snap.row_id}",
        "app": snap.app,
        **site_key(site),
        **device,
        **labels_key(labels),
        "start": iso(start),
        "end": iso(end),
        "active_s": f.active_s,
        "wall_s": round_half_up_s(end - start),
        "titles": titles(snap.app, pv.titles),
        "pages": pages(pv),
        "input": {  # (input_obj, written out)
            "keys": get("keys", 0),
            "clicks": get("clicks", 0),
            "scrolls": get("scrolls", 0),
            "copies": get("copies", 0),
            "pastes": get("pastes", 0),
        },
        # Most frames have no interruption: nothing to sort then.
        "interruptions": [
            interruption_obj(i, clock, distinct) for i in sorted(f.interruptions, key=_PIECE_START)
        ]
        if f.interruptions
        else [],
        "evidence": {
            # Row ids by a comprehension: reading a slot there is specialised bytecode,
            # faster than attrgetter's generic look-up.
            "rows": compact([r.snap[0] for r in rows]),
            "events": (compact_distinct if distinct else compact)(f.event_ids),
        },
    }


def interruption_obj(i: Piece, clock: Clock, distinct: bool = False) -> doc_types.Interruption:
    return {
        "app": i.app,
        **site_key(i.site),
        "at": clock.iso(i.start_ms),
        "active_s": i.active_s,
        "input": input_obj(i.input),
        "evidence": evidence(i, distinct),
    }


def ledger_obj(e: LedgerEntry) -> doc_types.LedgerEntry:
    return {
        "app": e.app,
        **site_key(e.site),
        "active_s": e.active_s,
        "keys": e.keys,
        "clicks": e.clicks,
    }


def hosts_obj(cap: Capture, pieces: Sequence[Piece]) -> list[doc_types.Host] | None:
    """``hosts``: the ledger per machine, for ActivityWatch captures of several hosts
    (absent otherwise, so one machine's document is unchanged)."""
    if cap.kind != "activitywatch":
        return None
    per_host = host_ledgers(pieces)
    if len(per_host) < 2:
        return None
    return [
        {
            "host": host,
            "active_s": sum(s for _, _, s in entries),
            "ledger": [{"app": app, **site_key(site), "active_s": s} for app, site, s in entries],
        }
        for host, entries in per_host
    ]


def span_list(spans: Sequence[Span], clock: Clock) -> list[doc_types.Period]:
    return [
        {
            "start": clock.iso(s.start_ms),
            "end": clock.iso(s.end_ms),
            "s": round_half_up_s(s.end_ms - s.start_ms),
        }
        for s in spans
        if s.end_ms - s.start_ms >= GAP_LIST_MIN_MS
    ]


def _with_hosts(doc: doc_types.Document, hosts: list[doc_types.Host]) -> doc_types.Document:
    """``doc`` with ``hosts`` in its place, after the ledger."""
    return {
        "schema_version": doc["schema_version"],
        "source": doc["source"],
        "compiled": doc["compiled"],
        "window": doc["window"],
        "coverage": doc["coverage"],
        "ledger": doc["ledger"],
        "hosts": hosts,
        "projects": doc["projects"],
        "categories": doc["categories"],
        "viewed": doc["viewed"],
        "frames": doc["frames"],
        "omitted": doc["omitted"],
        "rejected_rows": doc["rejected_rows"],
        "blind_spots": doc["blind_spots"],
    }


def assemble(
    *,
    cap: Capture,
    window: Window,
    shown: Sequence[Piece],
    pieces: Sequence[Piece],
    hidden: Hidden,
    ledger: Sequence[LedgerEntry],
    classified: Classified,
    rows: Sequence[Row],
    gaps: Sequence[Span],
    away: Sequence[Span],
    events_in_window: int,
    unattributed: Unattributed,
    interval: bool,
    digest: str,
    compiled: doc_types.Compiled,
    reattributed: doc_types.Reattributed,
    evidence_max_runs: int | None = None,
    text_notes: Sequence[str] = (),
    reuse: Reuse | None = None,
    span: tuple[int, int] | None = None,
    distinct_ids: bool = False,
) -> Doc:
    """``span``: the rows' earliest start and latest end, when the caller knows them;
    ``distinct_ids``: no two of the capture's events share an id (its reader says so)."""
    clock = Clock.shared(window.tz)
    project_of, category_of = classified.project_of.get, classified.category_of.get
    if reuse is None:
        views_of = {id(p): views(p.rows) for p in pieces}  # each piece's rows read once
        frames = [
            frame_obj(f, clock, views_of, distinct_ids, (project_of(id(f)), category_of(id(f))))
            for f in shown
        ]
    else:  # today again: the frames whose parts did not change are the same objects
        views_of = {
            id(p): reuse.get(("views", rows_key(p)), partial(views, p.rows), p) for p in pieces
        }
        make = partial(frame_obj, clock=clock, views_of=views_of, distinct=distinct_ids)
        frames = []
        for f in shown:
            labels = (project_of(id(f)), category_of(id(f)))
            frames.append(
                reuse.get(
                    (piece_key(f), labels),
                    partial(make, f, labels=labels),
                    f,
                    partial(same_ids, f),
                )
            )
        reuse.done()
    start, end = clock.iso(window.start_ms), clock.iso(window.end_ms)
    win: doc_types.WindowInfo = (
        {"start": start, "end": end, "tz": window.tz}
        if window.day is None
        else {"day": window.day, "start": start, "end": end, "tz": window.tz}
    )
    if span is None:
        first = min(map(_START, rows), default=None)
        last = max(map(_END, rows), default=None)
    else:
        first, last = span
    # Past UNATTRIBUTED_MAX_RUNS ranges the ids are found by query instead (SPEC.md §3):
    # a day of stale input would otherwise carry a string of hundreds of kilobytes.
    listed = compact_within(unattributed.event_ids, evidence_max_runs)
    un: doc_types.UnattributedInput = {
        "events": len(unattributed.event_ids),
        **input_obj(unattributed.input),
        "evidence": BY_QUERY if listed is None else listed,
    }
    coverage: doc_types.Coverage = {
        "first": clock.iso(first) if first is not None else None,
        "last": clock.iso(last) if last is not None else None,
        "active_s": sum(e.active_s for e in ledger),
        "span_s": round_half_up_s(last - first) if first is not None and last is not None else 0,
        "rows": len(rows),
        "input_events": events_in_window,
        "unattributed_input": un,
        "reattributed": reattributed,
        "gaps": span_list(gaps, clock),
        "away": span_list(away, clock),
    }
    omitted: doc_types.Omitted = {"frames": hidden.frames, "active_s": hidden.active_s}
    if hidden.reason:
        omitted["by"] = hidden.reason
    doc: doc_types.Document = {
        "schema_version": SCHEMA_VERSION,
        "source": {"kind": cap.kind, "digest": digest},
        "compiled": compiled,
        "window": win,
        "coverage": coverage,
        "ledger": [ledger_obj(e) for e in ledger],
        "projects": classified.projects,
        "categories": classified.categories,
        "viewed": _viewed(pieces, clock, views_of, reuse),
        "frames": frames,
        "omitted": omitted,
        "rejected_rows": rejected_list(cap.rejected),
        "blind_spots": [*blind_spots(cap, interval), *text_notes],
    }
    hosts = hosts_obj(cap, pieces)
    return doc if hosts is None else _with_hosts(doc, hosts)
