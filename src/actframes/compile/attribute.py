"""Input attribution: every input event in the window is counted exactly once — in the
frame or interruption whose time span holds it, else as unattributed."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model import CLICK, COPY, KEY, PASTE, SCROLL, InputEvent
from .pieces import Piece, Row

INPUT_FIELDS: dict[str, str] = {
    KEY: "keys",
    CLICK: "clicks",
    SCROLL: "scrolls",
    COPY: "copies",
    PASTE: "pastes",
}

NO_FRAME = "no frame holds its time"
APP_MISMATCH = "its app differs from the frame at its time"


@dataclass(slots=True)
class Unattributed:
    input: dict[str, int] = field(default_factory=dict)
    event_ids: list[int] = field(default_factory=list)
    reasons: dict[str, int] = field(default_factory=dict)


class _Holds:
    """For one stream: which piece holds each instant, by row."""

    def __init__(self, pieces: Sequence[Piece]) -> None:
        owned: list[tuple[Row, Piece]] = []
        for f in pieces:
            owned.extend((r, f) for r in f.rows)
            for i in f.interruptions:
                owned.extend((r, i) for r in i.rows)
        owned.sort(key=lambda rp: (rp[0].start_ms, rp[0].snap.row_id))
        self.starts = [r.start_ms for r, _ in owned]
        self.spans: list[tuple[int, int, Piece]] = []
        for k, (r, p) in enumerate(owned):
            end = r.end_ms
            if k + 1 < len(owned) and owned[k + 1][1] is p:
                # Inside one piece the row holds everything up to the next row.
                end = max(end, owned[k + 1][0].start_ms)
            self.spans.append((r.start_ms, end, p))

    def at(self, t: int) -> Piece | None:
        k = bisect_right(self.starts, t) - 1
        if k < 0:
            return None
        start, end, piece = self.spans[k]
        return piece if (t < end or t == start) else None


def attribute(
    by_stream: dict[str, list[Piece]], events: Sequence[InputEvent], win_start: int, win_end: int
) -> Unattributed:
    holds = {dev: _Holds(pieces) for dev, pieces in by_stream.items()}
    if len(holds) == 1 and all(e.device is None or e.device in holds for e in events):
        return _attribute_one_stream(next(iter(holds.values())), events, win_start, win_end)
    return _attribute_any(holds, events, win_start, win_end)


def _attribute_any(
    holds: dict[str, _Holds], events: Sequence[InputEvent], win_start: int, win_end: int
) -> Unattributed:
    all_holds = [holds[d] for d in sorted(holds)]
    app_cf: dict[int, str] = {}  # piece identity -> case-folded app
    un = Unattributed()
    # Each event is judged on its own, so the order of events does not matter.
    for ev in events:
        t = ev.ts_ms
        if not win_start <= t < win_end:
            continue
        field_name = INPUT_FIELDS[ev.kind]
        dev_holds = holds.get(ev.device) if ev.device is not None else None
        scope = [dev_holds] if dev_holds is not None else all_holds
        chosen: Piece | None = None
        seen_any = False
        want = ev.app.casefold() if ev.app is not None else None
        for h in scope:
            p = h.at(t)
            if p is None:
                continue
            seen_any = True
            if want is None:
                chosen = p
                break
            cf = app_cf.get(id(p))
            if cf is None:
                cf = app_cf[id(p)] = p.app.casefold()
            if cf == want:
                chosen = p
                break
        if chosen is None:
            reason = APP_MISMATCH if seen_any else NO_FRAME
            un.reasons[reason] = un.reasons.get(reason, 0) + 1
            un.input[field_name] = un.input.get(field_name, 0) + ev.count
            un.event_ids.append(ev.event_id)
        else:
            chosen.input[field_name] = chosen.input.get(field_name, 0) + ev.count
            chosen.event_ids.append(ev.event_id)
    return un


def _attribute_one_stream(
    holds: _Holds, events: Sequence[InputEvent], win_start: int, win_end: int
) -> Unattributed:
    """The same rule as ``attribute`` for a capture with one stream, as one merge-like
    walk over events in time order: a day has tens of thousands of events."""
    un = Unattributed()
    spans = holds.spans
    n = len(spans)
    k = -1
    next_start = spans[0][0] if n else None
    app_cf: dict[int, str] = {}
    for ev in sorted(events, key=_by_time):
        t = ev.ts_ms
        if not win_start <= t < win_end:
            continue
        while next_start is not None and next_start <= t:
            k += 1
            next_start = spans[k + 1][0] if k + 1 < n else None
        piece: Piece | None = None
        if k >= 0:
            start, end, p = spans[k]
            if t < end or t == start:
                piece = p
        field_name = INPUT_FIELDS[ev.kind]
        if piece is not None and ev.app is not None:
            cf = app_cf.get(id(piece))
            if cf is None:
                cf = app_cf[id(piece)] = piece.app.casefold()
            if cf != ev.app.casefold():
                un.reasons[APP_MISMATCH] = un.reasons.get(APP_MISMATCH, 0) + 1
                piece = None
        elif piece is None:
            un.reasons[NO_FRAME] = un.reasons.get(NO_FRAME, 0) + 1
        target = un.input if piece is None else piece.input
        target[field_name] = target.get(field_name, 0) + ev.count
        (un.event_ids if piece is None else piece.event_ids).append(ev.event_id)
    return un


def _by_time(ev: InputEvent) -> int:
    return ev.ts_ms
