"""The compiler's shortcuts for rows that repeat the row before (readers hand heartbeats
the very same string objects) and for one stream's frames (already in order) never show
in the output."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.clock import Clock
from actframes.compile.pipeline import compile_pieces
from actframes.emit.json_out import to_json
from actframes.model import Capture, Snapshot

from .caps import T0, cap, compile_
from .test_properties import WIN, captures

PR = "https://github.com/psf/requests/pull/1"


@st.composite
def heartbeats(draw: st.DrawFn) -> Capture:
    """Rows that mostly repeat the row before, as a recorder's heartbeats do, with a few
    titles per page (a page's label is the title shown longest)."""
    snaps: list[Snapshot] = []
    t = T0 - 700_000
    for rid in range(1, draw(st.integers(1, 50)) + 1):
        t += draw(st.sampled_from([0, 1_000, 5_000, 25_000, 400_000]))
        if snaps and draw(st.integers(0, 9)) < 7:
            snaps.append(snaps[-1]._replace(row_id=rid, ts_ms=t))
            continue
        app = draw(st.sampled_from(["Google Chrome", "Code"]))
        url = draw(st.sampled_from([None, PR, "https://mail.google.com/mail/u/0/"]))
        title = draw(st.sampled_from(["Fix retries", "Fix retries - Google Chrome", "Inbox"]))
        snaps.append(Snapshot(rid, t, app, title, url if app == "Google Chrome" else None))
    return cap(snaps)


def _copy(text: str | None) -> str | None:
    """An equal string that is another object (slicing a longer string makes one)."""
    return None if text is None else (text + ".")[:-1]


def _with_strings(c: Capture, shared: bool) -> Capture:
    pool: dict[str | None, str | None] = {}

    def one(text: str | None) -> str | None:
        return pool.setdefault(text, text) if shared else _copy(text)

    snaps = [
        Snapshot(s.row_id, s.ts_ms, one(s.app) or "", one(s.title) or "", one(s.url), s.device)
        for s in c.snapshots
    ]
    return Capture(c.kind, snaps, list(c.events), list(c.afk), [], has_input=c.has_input)


@settings(max_examples=300, deadline=None)
@given(st.one_of(captures(), heartbeats()))
def test_same_bytes_whether_equal_strings_are_one_object_or_many(c: Capture) -> None:
    shared, fresh = _with_strings(c, shared=True), _with_strings(c, shared=False)
    for s, f in zip(shared.snapshots[1:], fresh.snapshots[1:], strict=True):
        assert f.title is not s.title or not s.title  # the copies are other objects
    assert to_json(compile_(shared, WIN)) == to_json(compile_(fresh, WIN))


@settings(max_examples=150, deadline=None)
@given(captures())
def test_one_streams_frames_are_in_start_then_row_order(c: Capture) -> None:
    one_device = [s._replace(device="") for s in c.snapshots]
    _, frames = compile_pieces(Capture(c.kind, one_device, list(c.events), list(c.afk), []), WIN)
    keys = [(f.start_ms, f.device, f.rows[0].snap.row_id) for f in frames]
    assert keys == sorted(keys)


@settings(max_examples=300, deadline=None)
@given(captures(), st.data())
def test_coverage_runs_from_the_earliest_row_start_to_the_latest_row_end(
    c: Capture, data: st.DataObject
) -> None:
    if data.draw(st.booleans()):  # an interval source: rows with observed spans
        durs = st.sampled_from([0, 4_000, 60_000, 700_000])
        snaps = [s._replace(dur_ms=data.draw(durs)) for s in c.snapshots]
        c = Capture(c.kind, snaps, list(c.events), list(c.afk), [], interval=True)
    doc, frames = compile_pieces(c, WIN)
    rows = [r for f in frames for p in [f, *f.interruptions] for r in p.rows]
    cov, iso = doc["coverage"], Clock(WIN.tz).iso
    assert cov["first"] == (iso(min(r.start_ms for r in rows)) if rows else None)
    assert cov["last"] == (iso(max(r.end_ms for r in rows)) if rows else None)
