"""The settled mark of a screenpipe-style store (``tail.py``): what identifies the rows a
read of a span holds before a cut, from their raw rows as the fingerprint hashes them
(``fingerprint``). Equal marks mean that since, rows were only inserted, none
before the cut. It costs most of a tail call (every row of the day before the cut), so
its big part, the rows from the read's start to the cut's hour, is hashed in two halves,
made at once when the caller gives another connection in the same state of the store
(``tail``): SQLite works with the interpreter's lock released.

The halves meet at the timestamp of the row whose id is halfway between the first and
the last of those rows' (about as many rows each: screenpipe's ids ascend with time), or,
where that row lies outside the middle of their time, halfway in time between the first
row and the cut's hour; found in the same state of the store as the parts: while the
rows are unchanged, so is the point, and so is the mark. Whatever the point, each row is
in one part, so the parts together hash exactly the rows one part would: another point
can only make another mark (a whole read), never an equal mark of other rows.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from ..base import fetch
from .fingerprint import Plan, RowsFingerprint, rows_of
from .parallel_parts import nothing
from .settled_parts import EarlyParts, Make
from .timestamps import UTC_SHAPE, Span, in_ranges, middle_text, ms_expr, text_at

Ranges = list[tuple[str, str]]


def settled(
    rows: RowsFingerprint,
    span: Span,
    cut_ms: int,
    conns: Sequence[sqlite3.Connection] = (),
    ready: Callable[[], None] = nothing,
    early: EarlyParts | None = None,
) -> str | None:
    """The mark of the rows of a read of ``span`` whose instant lies before ``cut_ms``,
    and of the rows no date holds; None when the store changed meanwhile. ``conns``:
    other connections in a read transaction of ``rows``' state of the store, which make
    parts of it at once; ``ready`` is called once their threads have started.
    ``early``: how the parts before the cut's hour are made when the WAL pins that state
    (``settled_parts``: the same bytes, kept while their rows are unchanged).

    It hashes every row of the read's ranges whose text orders before a second after
    the cut and from a second before the read's start (index ranges, no row tested),
    before that the rows without a UTC timestamp, and from a second after the cut on
    (the short tail) the rows SQLite places before the cut or cannot place."""
    later = text_at(cut_ms + 1000)
    below = [(lo, min(hi, later)) for lo, hi in span.ranges if lo < later]
    above = [(max(lo, later), hi) for lo, hi in span.ranges if hi > later]
    # Rows with a UTC timestamp whose text orders before the second before the read's
    # first instant are dropped by every read, by their text (``Span.keeps_sql``): of
    # the rows there (a day of UTC offsets, often yesterday's), only the others count.
    start = "" if span.a % 1000 or span.b % 1000 else text_at(span.a - 1000)
    inner = [(max(lo, start), hi) for lo, hi in below if hi > start]
    outer = [(lo, min(hi, start)) for lo, hi in below if lo < start]
    # The rows from the read's start up to the cut's hour, then the hour's: at a verdict
    # that moves the cut within the hour (``tail``), both marks share the
    # first parts' digests (one state of the store), and the second mark hashes the
    # hour only. Each row is in one part.
    hour = later[:13]
    before = [(lo, min(hi, hour)) for lo, hi in inner if lo < hour]
    plan: Plan = []
    for half in _halves(rows, before, hour):
        key, make = ("settled", repr(half)), partial(rows_of, half)
        plan.append((key, True, make if early is None else early(key, half, make)))
    # The other rows, few, in one part (one statement): the cut's hour, before the start
    # the rows without a UTC timestamp, after the cut those placed before it or nowhere,
    # and the rows no date holds.
    rest = [
        (_from(inner, hour), "1"),
        (outer, f"NOT {UTC_SHAPE}"),
        (above, f"coalesce({ms_expr()} < {cut_ms}, 1)"),
    ]
    # The hour's rows are hashed as a part of their own would be (``rows_of``): with the
    # WAL followed, they are kept and served like the halves (the same bytes).
    hour_rows = rest[0][0]
    own: Make | None = None
    if early is not None and hour_rows:
        own = early(("settled-hour", repr(hour_rows)), hour_rows, partial(rows_of, hour_rows))
    plan.append((("rest", f"{rest!r}"), False, partial(_rest, rest, own)))
    return rows.digest(b"settled:", plan, conns, ready)


def settled_in_utc(
    rows: RowsFingerprint, span: Span, cut_ms: int, since_ms: int | None = None
) -> bool:
    """Whether every row ``settled`` hashes for ``cut_ms`` (frames and events whose text
    orders before a second after the cut) has a UTC timestamp in screenpipe's shape
    (``UTC_SHAPE``): while the mark stands, a read from near the cut then needs no row
    whose text orders before that read's start (``tail_span``). The timestamp index
    alone answers. With ``since_ms``, only the rows whose text orders from a second
    after that earlier cut on are looked at (the caller knows the others: the mark at
    ``since_ms`` held)."""
    later = text_at(cut_ms + 1000)
    below = [(lo, min(hi, later)) for lo, hi in span.ranges if lo < later]
    if since_ms is not None:
        below = _from(below, text_at(since_ms + 1000))
    s = rows.schema
    tables = [("frames", s.frames_indexed)]
    if s.ecols:
        tables.append(("ui_events", s.events_indexed))
    for table, indexed in tables:
        q = f"SELECT count(*) FROM {in_ranges(table, below, indexed)} AND NOT {UTC_SHAPE}"
        if fetch(rows.conn, q, ())[0][0]:
            return False
    return True


def _rest(parts: list[tuple[Ranges, str]], hour: Make | None, rows: RowsFingerprint) -> bytes:
    """The digest of each part's rows, then of the rows no date holds (one statement);
    the first part's by ``hour`` where given (the same bytes: each digest is its own)."""
    first = [] if hour is None else [hour(rows)]
    jobs = [rows.rows_jobs(ranges, where) for ranges, where in parts[len(first) :]]
    return b"".join([*first, *rows.digests([*jobs, rows.odd_jobs()])])


def _halves(rows: RowsFingerprint, early: Ranges, hour: str) -> list[Ranges]:
    """``early`` in two parts of about as many rows (of the events, the bigger table,
    when there are any): split at the timestamp of the row whose id is halfway between
    the ids of the first and the last row there (screenpipe's ids ascend with time), or,
    where that row lies outside their middle (ids out of time order) or the ids are not
    the table's key, halfway in time between the first row and ``hour``. Index seeks
    only. One part where either part has no range, or without an index (each part
    would scan the table)."""
    s = rows.schema
    if not early or not (s.frames_indexed and (s.events_indexed or not s.ecols)):
        return [early]
    t, keyed = ("ui_events", s.event_ids_ok) if s.ecols else ("frames", s.frame_ids_ok)
    within = f"FROM {t} WHERE timestamp >= ? AND timestamp < ? ORDER BY timestamp"
    ends = fetch(
        rows.conn,
        f"SELECT f.timestamp, CASE WHEN {int(keyed)} AND typeof(f.id) = 'integer'"
        " AND typeof(l.id) = 'integer'"
        f" THEN (SELECT timestamp FROM {t} WHERE id >= f.id / 2 + l.id / 2 ORDER BY id"
        f" LIMIT 1) END FROM (SELECT timestamp, id {within} LIMIT 1) AS f,"
        f" (SELECT id {within} DESC LIMIT 1) AS l",
        (early[0][0], hour) * 2,
    )
    if not ends:
        return [early]
    first, by_id = ends[0]
    cut = by_id if _central(first, by_id, hour) else middle_text(first, hour + ":00:00")
    if cut is None:
        return [early]
    low, high = [(lo, min(hi, cut)) for lo, hi in early if lo < cut], _from(early, cut)
    return [low, high] if low and high else [early]


def _central(first: object, at: object, hour: str) -> bool:
    """Whether the timestamp text ``at`` lies in the middle four fifths of the time from
    ``first`` to ``hour`` (a row by id far from there, as the ids of rows written later
    for earlier times are, would make one half hold most rows)."""
    if not (isinstance(first, str) and isinstance(at, str) and first < at < hour):
        return False
    try:
        lo, t = datetime.fromisoformat(first[:19]), datetime.fromisoformat(at[:19])
        hi = datetime.fromisoformat(hour + ":00:00")
    except ValueError:  # not ISO text
        return False
    return lo + (hi - lo) / 10 <= t <= hi - (hi - lo) / 10


def _from(ranges: Ranges, at: str) -> Ranges:
    """The parts of ``ranges`` from the text ``at`` on."""
    return [(max(lo, at), hi) for lo, hi in ranges if hi > at]
