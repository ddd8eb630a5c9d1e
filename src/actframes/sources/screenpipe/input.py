"""Input counts from a screenpipe-style ``ui_events`` table (SPEC.md §1.2, Input).

Counted events of a clean store are read in bulk: SQL groups them by (type, app) and each
group becomes an ``EventColumn``; when any row needs a report (unparseable time,
non-integer or duplicate id) they are read one by one instead, with the same result.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from ...model import CLICK, COPY, KEY, PASTE, SCROLL, Capture, InputEvent
from ...text import clean_name
from ...timeparse import MAX_TS_MS, MIN_TS_MS
from .._columns import DuplicateIds, UnplacedRows, columns_from_groups
from .._rows import first_of_each_id
from ..base import fetch
from .payloads import ARCHIVE_COLUMNS, BulkReader, archives, sqlite_chars
from .schema import Schema
from .timestamps import Span, instant, instant_or_text, odd_rows_sql, split

# Stored event types and the input kind each counts as. screenpipe writes ordinary typing
# as ``text`` rows (one per burst, counted by its characters) and ``key`` rows only for
# shortcuts; copy, cut and paste are all ``clipboard`` rows told apart by ``modifiers``
# (see CLIPBOARD_OPS). Mouse moves, app switches and focus changes are not input counts.
# ``copy``/``paste``/``keydown``... are other recorders' names for the same actions.
EVENT_KINDS: dict[str, str] = {
    "key": KEY,
    "keydown": KEY,
    "key_press": KEY,
    "text": KEY,
    "click": CLICK,
    "mouse_click": CLICK,
    "scroll": SCROLL,
    "clipboard": COPY,
    "copy": COPY,
    "paste": PASTE,
}
# A clipboard row's ``modifiers`` holds the operation's character code: 'c' copy,
# 'x' cut, 'v' paste. A cut puts content on the clipboard as a copy does, so it counts
# as a copy (steps show it as a cut).
CLIPBOARD_OPS: dict[int, str] = {ord("c"): "copy", ord("x"): "cut", ord("v"): "paste"}
_CLIPBOARD_KINDS = {"copy": COPY, "cut": COPY, "paste": PASTE}
# screenpipe's macOS clipboard poller (since 2026-05-20) writes 'p' (112) each time the
# pasteboard changes: alongside the 'c'/'x' row of a keyboard copy or cut (0-750 ms
# apart, either first), and alone for a menu copy. A 'p' row within POLL_ECHO_MS of a
# 'c'/'x' row of the same app (or either without app) is that copy again, not counted;
# a lone 'p' is a copy.
POLL_ECHO_MS = 1000
_POLLED_KEY = f"clipboard:{ord('p')}"
_KEYBOARD_KEYS = (f"clipboard:{ord('c')}", f"clipboard:{ord('x')}")

# A text row's characters as the reader counts them: SQLite's length() — of text, its
# characters up to the first NUL; of a blob, its bytes; of a number, its text's length.
# The fingerprints hash this very expression (``fingerprint``), never the
# text: the two agree for every stored value, a NUL and what follows it included.
STORED_CHARS = "length(text_content)"

ESTIMATE_NOTE = (
    "typed characters are estimated from text_length (UTF-8 bytes) where screenpipe"
    " stored no typed text: non-ASCII text counts more than once"
)


def event_sql(s: Schema) -> tuple[str, str, str]:
    """(type key, characters, filter) expressions over ui_events: the type key tells
    clipboard operations apart; characters is a text row's count (its stored text's
    characters, else ``text_length``, UTF-8 bytes, as an estimate); the filter keeps
    the counted types and drops the accessibility look-up rows screenpipe writes after
    each click (``click_count = 0``: no click of their own). Types are compared with
    NOCASE rather than through lower(): no string is made per row."""
    c = s.ecols
    types = ",".join(f"'{t}'" for t in EVENT_KINDS)
    key = "event_type"
    if "modifiers" in c:
        key = (
            "CASE WHEN event_type = 'clipboard' COLLATE NOCASE THEN 'clipboard:' ||"
            " coalesce(modifiers, '') ELSE event_type END"
        )
    stored = STORED_CHARS if "text_content" in c else "NULL"
    nbytes = "text_length" if "text_length" in c else "NULL"
    chars = f"max(1, coalesce({stored}, {nbytes}, 1))"
    where = f" AND event_type COLLATE NOCASE IN ({types})"
    if "click_count" in c:
        where += " AND (click_count IS NOT 0 OR event_type <> 'click' COLLATE NOCASE)"
    return key, chars, where


def _estimated_sql(s: Schema) -> str:
    """Per group, how many rows' characters are estimates: read for text groups only
    (``is_text``), so no row is tested for its type here."""
    c = s.ecols
    if "text_length" not in c:
        return "0"
    stored = "text_content IS NULL AND " if "text_content" in c else ""
    return f"sum({stored}text_length IS NOT NULL)"


def is_text(key: object) -> bool:
    """Whether a group's type key is ``text`` (as SQL's NOCASE compares: ASCII only)."""
    return isinstance(key, str) and key.isascii() and key.lower() == "text"


def events_query(s: Schema, span: Span) -> str:
    """The counted events of the span per (type, app), ids, instants and text rows'
    characters comma-joined."""
    app = "app_name" if "app_name" in s.ecols else "NULL"
    key, chars, where = event_sql(s)
    # Each instant is computed once, and no row is sorted in SQL: group_concat skips
    # the NULL instants of rows SQLite could not parse (the counts then differ), and
    # columns_from_groups puts each column in (time, id) order. Every row's characters
    # are joined, though only text groups use them (read_events): a test of each row's
    # type would cost more than the digits of the others.
    integer_ids = "1" if s.event_ids_ok else "min(typeof(id) = 'integer')"
    return (
        f"SELECT {integer_ids}, count(*), {key} AS k, {app} AS a, NULL,"
        f" group_concat(id), group_concat({span.ms}), group_concat({chars}),"
        f" {_estimated_sql(s)} FROM {span.rows('ui_events', s.events_indexed)}{where} GROUP BY k, a"
    )


def read_events(
    conn: sqlite3.Connection, s: Schema, cap: Capture, span: Span, groups: list[Any]
) -> None:
    """In bulk when every row is clean; row by row when some row needs a report.
    ``groups``: the rows of events_query."""
    _, _, where = event_sql(s)
    if any(g[2] == _POLLED_KEY for g in groups):
        groups = _without_echoes(groups)
    archived: dict[int, int] = {}
    if any(g[8] and is_text(g[2]) for g in groups) and archives(s.ecols):
        archived = _archived_chars(conn, s, span, cap)
        groups = [_with_archived(g, archived) if g[8] and is_text(g[2]) else g for g in groups]
    if any(g[8] and is_text(g[2]) for g in groups):
        cap.notes.append(ESTIMATE_NOTE)
    odd = fetch(conn, odd_rows_sql("ui_events", "id", where, s.events_indexed), ())
    if not odd and all(g[0] == 1 for g in groups):
        try:
            cap.event_columns = columns_from_groups(
                ((*g[2:7], g[7] if is_text(g[2]) else None) for g in groups),
                kind_of,
                sizes=[g[1] for g in groups],
                exact_text=True,  # integer ids (checked above) and instants
                unique_ids=s.event_ids_ok,
            )
            cap.distinct_ids = True  # (the key's, or checked)
            return
        except (DuplicateIds, UnplacedRows):
            pass
    _read_events_rowwise(conn, s, cap, span, archived)
    cap.distinct_ids = True  # (one event kept per id)


def _archived_chars(
    conn: sqlite3.Connection, s: Schema, span: Span, cap: Capture
) -> dict[int, int]:
    """The characters of the span's text rows whose text screenpipe moved to Parquet
    (parquet-bulk-v1, SPEC.md §1.2d), by id, as ``STORED_CHARS`` counts them."""
    q = (
        f"SELECT ui_events.id, {', '.join(ARCHIVE_COLUMNS)}"
        f" FROM {span.rows('ui_events', s.events_indexed)}"
        " AND event_type = 'text' COLLATE NOCASE AND text_content IS NULL"
        " AND _archive_file IS NOT NULL"
    )
    reader = BulkReader(conn)
    got = reader.values(fetch(conn, q, ()), ["text_content"])
    cap.notes.extend(n for n in reader.problems if n not in cap.notes)
    return {
        rid: max(1, sqlite_chars(v["text_content"]))
        for rid, v in got.items()
        if isinstance(v.get("text_content"), str)
    }


def _with_archived(g: Any, archived: dict[int, int]) -> Any:
    """A text group of events_query with the archived rows' characters in place of
    their estimates (and fewer estimated rows)."""
    ids, chars = str(g[5]).split(","), str(g[7]).split(",")
    if not archived or len(ids) != len(chars):
        return g
    found = 0
    for i, rid in enumerate(ids):
        n = archived.get(int(rid)) if rid.isdigit() else None
        if n is not None:
            chars[i] = str(n)
            found += 1
    return (*g[:7], ",".join(chars), g[8] - found) if found else g


def _read_events_rowwise(
    conn: sqlite3.Connection, s: Schema, cap: Capture, span: Span, archived: dict[int, int]
) -> None:
    app = "app_name" if "app_name" in s.ecols else "NULL"
    # Only the counted types are read: stores hold far more mouse moves than clicks.
    key, chars, counted = event_sql(s)
    n = f"CASE WHEN event_type = 'text' COLLATE NOCASE THEN {chars} ELSE 1 END"
    q = (
        f"SELECT ui_events.id, {instant_or_text(span.ms)}, {key}, {app}, {n}"
        f" FROM {span.rows('ui_events', s.events_indexed)}{counted}"
    )
    rows = fetch(conn, q, ())
    odd = fetch(
        conn,
        odd_rows_sql("ui_events", f"id, timestamp, {key}, {app}, {n}", counted, s.events_indexed),
        (),
    )
    for rid, ts_raw, *rest in odd:
        placed = instant(rid, None, ts_raw, "ui_events", cap)
        if placed is not None and span.keeps(placed):
            rows.append((rid, placed, *rest))
    events: list[InputEvent] = []
    apps: dict[object, str | None] = {}
    kinds: dict[object, str | None] = {}
    if archived:
        rows = [(r[0], r[1], r[2], r[3], archived.get(r[0], r[4])) for r in rows]
    for rid, ts, kind_raw, app_raw, count in rows:
        # The common row (integer id, an instant SQLite parsed) takes the short path.
        if type(rid) is not int or type(ts) is not int or not MIN_TS_MS <= ts < MAX_TS_MS:
            placed = instant(rid, *split(ts), "ui_events", cap)
            if placed is None or not span.keeps(placed):
                continue
            ts = placed
        kind: str | None = kinds.get(kind_raw, "")
        if kind == "":
            kind = kinds[kind_raw] = _kind_of_row(kind_raw) if isinstance(kind_raw, str) else None
        if kind is None:
            continue
        ev_app: str | None = apps.get(app_raw, "")
        if ev_app == "":
            ev_app = apps[app_raw] = clean_name(app_raw) or None
        events.append(InputEvent(rid, ts, kind, ev_app, None, count if type(count) is int else 1))
    if _POLLED_KEY in kinds or any(k in kinds for k in _KEYBOARD_KEYS):
        events = _events_without_echoes(events)
    cap.events, dropped = first_of_each_id(events, "ui_events")
    cap.rejected.extend(dropped)


_POLLED, _KEYBOARD = "clipboard-polled", "clipboard-keyboard"  # row-by-row path only


def _kind_of_row(kind_raw: str) -> str | None:
    if kind_raw == _POLLED_KEY:
        return _POLLED
    return _KEYBOARD if kind_raw in _KEYBOARD_KEYS else kind_of(kind_raw)


def echoes(
    polled: list[tuple[int, str | None]], keyboard: list[tuple[int, str | None]]
) -> set[int]:
    """Indices of the ``polled`` (instant, app) rows that repeat a ``keyboard`` copy or
    cut: one lies within POLL_ECHO_MS, of the same app or either without app. Each
    keyboard row repeats at most one polled row (earliest first), so a menu copy just
    after a keyboard copy still counts. Depends on the rows' values only, never their
    order."""
    from bisect import bisect_left

    near = sorted(keyboard, key=lambda r: (r[0], r[1] or ""))
    times = [t for t, _ in near]
    used = [False] * len(near)
    out: set[int] = set()
    for i in sorted(range(len(polled)), key=lambda k: (polled[k][0], polled[k][1] or "")):
        t, app = polled[i]
        j = bisect_left(times, t - POLL_ECHO_MS)
        while j < len(near) and near[j][0] <= t + POLL_ECHO_MS:
            other = near[j][1]
            if not used[j] and (app is None or other is None or other == app):
                used[j] = True
                out.add(i)
                break
            j += 1
    return out


def _without_echoes(groups: list[Any]) -> list[Any]:
    """events_query's groups with the polled rows that repeat a keyboard copy left out."""
    keyboard: list[tuple[int, str | None]] = []
    polled: list[tuple[int, str | None]] = []
    where: list[tuple[int, int]] = []  # (group, position) of each polled row
    for gi, g in enumerate(groups):
        if not g[5] or not g[6]:
            continue
        app = clean_name(g[3]) or None
        ts = str(g[6]).split(",")
        if g[2] in _KEYBOARD_KEYS:
            keyboard.extend((int(t), app) for t in ts)
        elif g[2] == _POLLED_KEY and len(ts) == len(str(g[5]).split(",")):
            # (a group with an unplaced row is left whole for the row-by-row read)
            polled.extend((int(t), app) for t in ts)
            where.extend((gi, k) for k in range(len(ts)))
    drop: dict[int, set[int]] = {}
    for i in echoes(polled, keyboard):
        gi, k = where[i]
        drop.setdefault(gi, set()).add(k)
    out: list[Any] = []
    for gi, g in enumerate(groups):
        if gi not in drop:
            out.append(g)
            continue
        ids, ts = str(g[5]).split(","), str(g[6]).split(",")
        keep = [k for k in range(len(ids)) if k not in drop[gi]]
        if keep:
            kept_ids = ",".join(ids[k] for k in keep)
            kept_ts = ",".join(ts[k] for k in keep)
            out.append((g[0], len(keep), g[2], g[3], g[4], kept_ids, kept_ts, g[7], g[8]))
    return out


def _events_without_echoes(events: list[InputEvent]) -> list[InputEvent]:
    keyboard = [(e.ts_ms, e.app) for e in events if e.kind == _KEYBOARD]
    polled = [e for e in events if e.kind == _POLLED]
    drop = {polled[i].event_id for i in echoes([(e.ts_ms, e.app) for e in polled], keyboard)}
    out: list[InputEvent] = []
    for e in events:
        if e.kind == _KEYBOARD:
            out.append(e._replace(kind=COPY))
        elif e.kind == _POLLED:
            if e.event_id not in drop:
                out.append(e._replace(kind=COPY))
        else:
            out.append(e)
    return out


def kind_of(event_type: str) -> str | None:
    if event_type.startswith("clipboard:"):
        return _CLIPBOARD_KINDS.get(clipboard_op(event_type[10:]), COPY)
    return EVENT_KINDS.get(event_type) or EVENT_KINDS.get(event_type.lower())


def clipboard_op(modifiers: object) -> str:
    """copy, cut or paste, from a clipboard row's ``modifiers`` (stored as a number, or
    as the text SQL's ``||`` made of it); an unknown code reads as a copy, the meaning
    ``clipboard`` has in stores that do not record the operation."""
    try:
        code = int(str(modifiers)) if modifiers is not None and modifiers != "" else None
    except ValueError:
        code = None
    return CLIPBOARD_OPS.get(code, "copy") if code is not None else "copy"


class Background:
    """One query run to the end in another thread, on a connection of its own that the
    thread may use (``check_same_thread=False``) and no other thread uses meanwhile;
    ``result`` waits for its rows, or raises its error."""

    def __init__(self, conn: sqlite3.Connection, sql: str, params: tuple[object, ...]) -> None:
        import _thread

        self._rows: list[Any] = []
        self._exc: BaseException | None = None
        self._done = _thread.allocate_lock()
        self._done.acquire()
        started = _thread.allocate_lock()
        started.acquire()
        _thread.start_new_thread(self._run, (conn, sql, params, started))
        # Waiting lets the new thread take the interpreter's lock at once and go into
        # SQLite, rather than after this thread's next switch interval.
        started.acquire()

    def _run(
        self, conn: sqlite3.Connection, sql: str, params: tuple[object, ...], started: Any
    ) -> None:
        try:
            started.release()
            self._rows = fetch(conn, sql, params)
        except BaseException as exc:  # handed to the caller
            self._exc = exc
        finally:
            self._done.release()

    def wait(self) -> Background:
        """Itself, once its query has ended (rows or error)."""
        self._done.acquire()
        self._done.release()
        return self

    def result(self) -> list[Any]:
        self.wait()
        if self._exc is not None:
            raise self._exc
        return self._rows
