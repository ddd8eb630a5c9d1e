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
    devices = sorted(holds)
    un = Unattributed()
    for ev in sorted(events, key=lambda e: (e.ts_ms, e.event_id)):
        if not win_start <= ev.ts_ms < win_end:
            continue
        field_name = INPUT_FIELDS[ev.kind]
        scope = [ev.device] if ev.device is not None and ev.device in holds else devices
        candidates = [p for d in scope if (p := holds[d].at(ev.ts_ms)) is not None]
        chosen: Piece | None = None
        if ev.app is None:
            chosen = candidates[0] if candidates else None
        else:
            want = ev.app.casefold()
            chosen = next((p for p in candidates if p.app.casefold() == want), None)
        if chosen is None:
            reason = APP_MISMATCH if candidates else NO_FRAME
            un.reasons[reason] = un.reasons.get(reason, 0) + 1
            un.input[field_name] = un.input.get(field_name, 0) + ev.count
            un.event_ids.append(ev.event_id)
        else:
            chosen.input[field_name] = chosen.input.get(field_name, 0) + ev.count
            chosen.event_ids.append(ev.event_id)
    return un
