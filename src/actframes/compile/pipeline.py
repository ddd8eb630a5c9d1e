"""compile_capture: the pure function from (rows, window, options) to the document."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from functools import partial
from typing import Any

from ..classify.aw_defaults import default_rules
from ..classify.ruleset import RuleSet
from ..doc_types import Compiled, Reattributed
from ..fast.records import FrozenRecord
from ..model import Capture, Snapshot, Span
from ..window import Window
from .attribute import Unattributed, attribute
from .classified import classify
from .constants import UNATTRIBUTED_MAX_RUNS, Rules
from .document import Doc, Hidden, assemble
from .flicker import fold_flickers
from .ledger import build_ledger
from .no_window import credit_nothing, has_no_window_rows
from .pieces import Piece, Row, Runs, held_runs
from .place import AwayClock, merge_spans, one_in_order, place_stream, streams
from .provenance import capture_digest, constants
from .reuse import Reuse
from .safe_text import safe_capture, text_notes
from .sessionize import sessionize


class Options(FrozenRecord):
    """What the caller may choose. Every field is part of the output's identity."""

    __slots__ = _fields = ("min_active_s", "rules", "classify")

    min_active_s: int  # frames with less active time are hidden (and disclosed)
    rules: Rules
    classify: RuleSet  # project and category rules (built-in and ActivityWatch's defaults)

    def __init__(
        self, min_active_s: int = 0, rules: Rules | None = None, classify: RuleSet | None = None
    ) -> None:
        init = object.__setattr__
        init(self, "min_active_s", min_active_s)
        init(self, "rules", Rules() if rules is None else rules)
        init(self, "classify", default_rules() if classify is None else classify)


def compile_capture(
    cap: Capture,
    window: Window,
    options: Options | None = None,
    *,
    digest: str | None = None,
    evidence_max_runs: int | None = UNATTRIBUTED_MAX_RUNS,
    reuse: Reuse | None = None,
) -> Doc:
    """The Tier-1 document; ``digest`` may be passed when the caller has it already.
    ``evidence_max_runs=None`` lists unattributed input however long the list (for
    ``verify.unattributed_ids``; the document's contract is the default). ``reuse``: the
    parts kept from the previous compile of the same growing window (``reuse.py``)."""
    doc, _ = compile_pieces(
        cap, window, options, digest=digest, evidence_max_runs=evidence_max_runs, reuse=reuse
    )
    return doc


def compile_pieces(
    cap: Capture,
    window: Window,
    options: Options | None = None,
    *,
    digest: str | None = None,
    evidence_max_runs: int | None = UNATTRIBUTED_MAX_RUNS,
    reuse: Reuse | None = None,
) -> tuple[Doc, list[Piece]]:
    """The document and the frames it was made of (each with its interruptions, rows and
    credited time), for views that need a row's own time (``compile/comms.py``).

    The cyclic garbage collector is paused for the compile (and left as it was found): a
    compile makes container objects by the thousand — rows, pieces, the document's
    dicts and lists — that stay alive until it returns, so a collection in the middle
    (one every 700 allocations) can free none of them, only walk them again and promote
    them, now and then into a full collection of the whole heap. What a compile drops
    is freed by reference counting: it leaves no cycle (a row does not point to its
    piece: attribution is told which piece holds which rows by ``held_runs``)."""
    paused = gc.isenabled()  # a caller that turned the collector off keeps it off
    if paused:
        gc.disable()
    try:
        return _compile_pieces(cap, window, options, digest, evidence_max_runs, reuse)
    finally:
        if paused:
            gc.enable()


def _compile_pieces(
    cap: Capture,
    window: Window,
    options: Options | None,
    digest: str | None,
    evidence_max_runs: int | None,
    reuse: Reuse | None,
) -> tuple[Doc, list[Piece]]:
    opts = options or Options()
    rules = opts.rules
    source_cap = cap
    snaps = cap.snapshots
    # The rows' fields as columns, made once for the passes that read a field of every
    # row (safety, streams, placing, the digest).
    fields = list(zip(*snaps, strict=True)) if reuse is None else reuse.columns(snaps)
    cap, text_noted = (
        safe_capture(cap, fields) if reuse is None else reuse.safe(cap, fields, safe_capture)
    )
    if cap is not source_cap:  # some text made safe (rare): the columns of the safe rows
        fields = list(zip(*cap.snapshots, strict=True))
    away = AwayClock(cap.afk)
    snaps = cap.snapshots
    points = not fields or fields[6].count(None) == len(snaps)  # no row has a duration
    no_window = bool(fields) and has_no_window_rows(fields[2])
    interval = cap.interval or not points

    by_stream: dict[str, list[Piece]] = {}
    rows_by_stream: dict[str, list[Row]] = {}
    runs_by_stream: dict[str, Runs] = {}  # which piece holds which rows, for attribution
    placed: list[Row] = []
    # One stream in the rows' own order (``same``, the usual case): its times are the column's.
    if reuse is None:
        by_device = streams(snaps, fields)
        same = one_in_order(by_device, snaps)
    else:
        by_device, same = reuse.streams(snaps, fields, streams)
    context = (window.start_ms, window.end_ms, rules, tuple(merge_spans(cap.afk)))
    for device, stream in by_device.items():
        if reuse is None:
            rows = place_stream(
                stream, window.start_ms, window.end_ms, away, rules, points,
                fields[1] if same else None,
            )  # fmt: skip
        else:  # today again: the rows of the settled prefix are the previous compile's
            place = partial(
                place_stream, win_start=window.start_ms, win_end=window.end_ms, away=away,
                rules=rules, points=points,
            )  # fmt: skip
            rows = reuse.placed(device, stream, context, place)
        if not rows:
            continue
        if no_window:
            credit_nothing(rows)
        placed.extend(rows)
        sessions = sessionize(rows) if reuse is None else reuse.sessions(device, rows, sessionize)
        sizes = [len(p.rows) for p in sessions]  # (before a fold adds rows to some)
        owners: list[Piece] = []
        pieces = fold_flickers(sessions, rules.flicker_ms, owners)
        by_stream[device] = pieces
        rows_by_stream[device] = rows
        runs_by_stream[device] = held_runs(sizes, owners)

    frames = [f for pieces in by_stream.values() for f in pieces]
    if len(by_stream) > 1:
        # One stream's frames are in this order already: their first rows are in (time,
        # row id) order, and a row's start is cut to the window only when no earlier
        # row of the stream reaches into the window (each holds time to the next).
        frames.sort(key=lambda f: (f.start_ms, f.device, f.rows[0].snap.row_id))
    everything = frames + [i for f in frames for i in f.interruptions]

    segs: dict[int, Any] = {}  # a stream's time segments, shared by both attribution passes
    unattributed = attribute(
        rows_by_stream, cap.all_columns(), window.start_ms, window.end_ms, segs, runs_by_stream
    )
    reattributed = _reattribute(
        cap, by_device, rows_by_stream, unattributed, window, (segs, runs_by_stream),
        (fields[1], fields[2]) if same else None,
    )  # fmt: skip
    ledger = build_ledger(everything)  # before any filtering: hiding never changes it
    classified = classify(frames, opts.classify)  # (like the ledger, before filtering)

    shown, hidden = _filter(frames, opts)
    rejected_in_window = [
        r for r in cap.rejected if r.ts_ms is None or window.start_ms <= r.ts_ms < window.end_ms
    ]
    cap_view = Capture(
        kind=cap.kind,
        rejected=rejected_in_window,
        has_input=cap.has_input,
        has_afk=cap.has_afk,
        has_urls=cap.has_urls,
        interval=interval,
        notes=cap.notes,
    )
    doc = assemble(
        cap=cap_view,
        window=window,
        shown=shown,
        pieces=everything,
        hidden=hidden,
        ledger=ledger,
        classified=classified,
        rows=placed,
        gaps=coverage_gaps(placed, rules.session_gap_ms, several=len(rows_by_stream) > 1),
        away=_clip(merge_spans(cap.afk), window),
        events_in_window=unattributed.in_window,
        unattributed=unattributed,
        interval=interval,
        # The streams are the snapshots in the digest's order already: no second sort.
        # The digest is of the capture as read, before any field was made safe.
        digest=digest
        or capture_digest(
            source_cap,
            _in_order(by_device) if cap is source_cap else None,
            fields=fields if same and cap is source_cap else None,
        ),
        text_notes=text_notes(r.snap for r in placed) if text_noted else [],
        reattributed=reattributed,
        compiled=compiled_obj(opts),
        evidence_max_runs=evidence_max_runs,
        reuse=reuse,
        span=_span(rows_by_stream),
        distinct_ids=source_cap.distinct_ids,
    )
    return doc, frames


def _span(rows_by_stream: dict[str, list[Row]]) -> tuple[int, int] | None:
    """The earliest start and the latest end of any row. A stream's rows start in order
    and end in order (a row holds time up to the next row's start at most), so each
    stream's first and last row hold them."""
    if not rows_by_stream:
        return None
    streams = rows_by_stream.values()
    return min(r[0].start_ms for r in streams), max(r[-1].end_ms for r in streams)


def _reattribute(
    cap: Capture,
    by_device: dict[str, list[Snapshot]],
    rows_by_stream: dict[str, list[Row]],
    un: Unattributed,
    window: Window,
    held: tuple[dict[int, Any], dict[str, Runs]],
    cols: tuple[Sequence[int], Sequence[str]] | None = None,
) -> Reattributed:
    """Stale-event re-attribution (compile/reattribute.py), applied to the events the time
    rule left unattributed — events it placed already agree with their stream. A moved
    event takes its snapshot's time and is attributed again; the rest stay unattributed."""
    from ..model import group_events
    from .reattribute import reattribute, reattribute_columns

    if not un.slices and not un.singles:
        return {"events": 0, "keys": 0, "clicks": 0, "left_unattributed": 0}
    moved, report = reattribute_columns(cap.snapshots, by_device, un.slices, cols)
    if un.singles:
        fixed, more = reattribute(cap.snapshots, un.singles, by_device)
        moved += [e for e in fixed if e.event_id in more.moved]
        report.merge(more)
    if moved:
        un.forget(moved)  # by id, kind and count, which a move keeps
        segs, runs = held  # the streams' segments (kept) and which piece holds which rows
        again = attribute(
            rows_by_stream, group_events(moved), window.start_ms, window.end_ms, segs, runs
        )
        un.input = {
            k: un.input.get(k, 0) + again.input.get(k, 0) for k in set(un.input) | set(again.input)
        }
        un.event_ids += again.event_ids
    return report.summary()


def _in_order(by_device: dict[str, list[Snapshot]]) -> list[Snapshot]:
    """Every stream's snapshots, streams in device order (the digest's order)."""
    if len(by_device) == 1:  # one stream, the usual case: the list itself, not a copy
        return next(iter(by_device.values()))
    return [s for st in by_device.values() for s in st]


def compiled_obj(opts: Options) -> Compiled:
    """What the document was compiled with: the compiler, the options and the constants."""
    from .. import __version__

    return {
        "by": f"actframes {__version__}",
        "options": {"min_active_s": opts.min_active_s, "rules": opts.classify.digest},
        "constants": constants(opts.rules),
    }


def coverage_gaps(rows: Sequence[Row], session_gap_ms: int, several: bool = True) -> list[Span]:
    """Spans over the session gap in which no stream of any device holds time. Rows of one
    stream arrive in time order; several streams are merged first."""
    gaps: list[Span] = []
    reach: int | None = None
    ordered = sorted(rows, key=lambda r: (r.start_ms, r.snap.row_id)) if several else rows
    for r in ordered:
        start, end = r.start_ms, r.end_ms
        if reach is not None and start - reach > session_gap_ms:
            gaps.append(Span(reach, start))
        if reach is None or end > reach:  # max(), without its call
            reach = end
    return gaps


def _filter(frames: Sequence[Piece], opts: Options) -> tuple[list[Piece], Hidden]:
    threshold = opts.min_active_s
    if threshold <= 0:
        return list(frames), Hidden(0, 0, None)
    shown = [f for f in frames if f.active_s >= threshold]
    hidden = [f for f in frames if f.active_s < threshold]
    hidden_s = sum(f.active_s for f in hidden)
    return shown, Hidden(len(hidden), hidden_s, {"min_active_s": threshold})


def _clip(spans: Sequence[Span], window: Window) -> list[Span]:
    out = []
    for s in spans:
        lo, hi = max(s.start_ms, window.start_ms), min(s.end_ms, window.end_ms)
        if hi > lo:
            out.append(Span(lo, hi))
    return out
