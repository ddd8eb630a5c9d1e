"""A window's fingerprint in a screenpipe-style store, from its raw rows (SPEC.md §3a).

screenpipe's tables keep no change counters, so "has this window changed?" is answered by
the rows themselves, before Python parses any: SQLite writes, for each index range of the
read (``screenpipe_time.text_ranges``) and for the rows no date holds, every column the
reader uses of every row it may read as JSON text, and only that text is hashed here. The
rows, per table:

- ``frames``: id, timestamp, app, title, URL, focus;
- ``ocr_text`` rows of those frames whose stored app may clean to nothing (the only
  frames whose app the reader takes from ``ocr_text``): frame, app, window, focus;
- ``ui_events`` of every type (a row whose type changes to a counted one is in the
  text): id, timestamp, type, modifiers, the stored text's length by the reader's own
  expression (``screenpipe_input.STORED_CHARS``; never the text), text_length, clicks, app.

Each column of the rows is written by ``json_group_array`` (one JSON array per column,
rows in the query's order) — NULL, an integer, text in quotes with its quotes and
controls escaped — so a row's values are told apart from any other's, and so are their
types ('1' and 1 differ); the arrays go to the hash one after the other, after the
count of rows and their lengths, never joined in Python. JSON cannot hold a blob and
writes a finite real to 15 digits only, always with a '.': a part where SQLite refuses
(a blob), or where the array of a column that may hold a real (any affinity but TEXT)
has a '.' or a quote, is written again by ``quote()``, which is exact for both (a real
to its last bit, a blob in hex). Arrays of integers and NULLs (and ``Inf``) are exact.

The ranges cover the read's and more (whole hours at the edges, where the read keeps
rows by their instant): a change beside the window can only cost a reading, never serve
a changed window. The tables' definitions (``sqlite_master``) and what the reader
detected of them go in too. A range's text is hashed once per state of the store (its
``PRAGMA data_version``): the windows of a history share their days.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any

from ..fast.fasthash import sha256
from .base import fetch
from .parallel_parts import made_at_once
from .screenpipe_input import STORED_CHARS
from .screenpipe_schema import Schema
from .screenpipe_time import (
    UTC_SHAPE,
    Span,
    after_prefix,
    in_ranges,
    ms_expr,
    odd_rows_sql,
    text_at,
)

# Bumped whenever the reader starts to read another column, so that older fingerprints
# (kept in document caches) never match.
FINGERPRINT_VERSION = "sp-rows-2"

# A stored app the reader never replaces from ocr_text: text with a letter or digit and
# no escape character (clean_name only strips invisible characters, folds controls to
# spaces, trims, and removes ANSI sequences, which start with ESC or CSI). Every other
# value (NULL, a number, a blob, text that may clean to nothing) counts its OCR rows.
_KEEPS_OWN_APP = (
    "(typeof(app_name) = 'text' AND app_name GLOB '*[A-Za-z0-9]*'"
    " AND instr(app_name, char(27)) = 0 AND instr(app_name, char(155)) = 0)"
)


def _cols(wanted: tuple[str, ...], present: frozenset[str]) -> list[str]:
    return [c if c in present else "NULL" for c in wanted]


class RowsFingerprint:
    """Fingerprints of windows of one store, over one connection that only reads."""

    def __init__(self, conn: sqlite3.Connection, s: Schema) -> None:
        self._conn, self._s = conn, s
        self._memo: dict[tuple[str, str], bytes] = {}
        self._version: int | None = None
        self._schema_memo: tuple[int, bytes] | None = None
        self._frame_cols = [
            "id",
            "timestamp",
            *_cols(("app_name", "window_name", "browser_url", "focused"), s.fcols),
        ]
        self._event_cols = [
            "id",
            "timestamp",
            *[
                (STORED_CHARS if c == "text_content" else c) if c in s.ecols else "NULL"
                for c in (
                    "event_type",
                    "modifiers",
                    "text_content",
                    "text_length",
                    "click_count",
                    "app_name",
                )
            ],
        ]
        self._ocr_cols = ["frame_id", "app_name", *_cols(("window_name", "focused"), s.ocols)]
        always = {"timestamp", STORED_CHARS, "NULL"}
        self._never_real = {
            "frames": always | _text_affinity(conn, "frames") | _key(s.frame_ids_ok),
            "events": always | _text_affinity(conn, "ui_events") | _key(s.event_ids_ok),
        }
        # Frames that may take their app from ocr_text (every frame without an app column).
        self._pending = f"NOT {_KEEPS_OWN_APP}" if "app_name" in s.fcols else "1"

    def window(self, span: Span) -> str | None:
        """The fingerprint of a read of ``span``; None when the store changed meanwhile."""
        return self.windows([span], [])[0]  # one window: its parts made on this connection

    def windows(self, spans: list[Span], conns: list[sqlite3.Connection]) -> list[str | None]:
        """``[window(span) for span in spans]``, the parts made once each, at once, on this
        connection and on ``conns`` (``parallel_parts``). All None when a commit landed
        between this connection's first and last ``data_version``: only then are parts
        read on several connections known to be of one state of the store."""
        version = self._fresh_memo()
        schema = self._schema_part()
        plans = [self._plan(span) for span in spans]
        todo: dict[PartKey, Callable[[RowsFingerprint], bytes]] = {}
        for plan in plans:
            for key, kept, make in plan:
                if not (kept and key in self._memo):
                    todo.setdefault(key, make)
        workers = [self, *(self._on(conn) for conn in conns)]
        made = made_at_once(todo, workers)
        if self._data_version() != version:
            return [None] * len(spans)
        found: list[str | None] = []
        for plan in plans:
            h = sha256(FINGERPRINT_VERSION.encode())
            h.update(schema)
            for key, kept, _ in plan:
                part = self._memo[key] if kept and key in self._memo else made[key]
                if kept:
                    self._memo[key] = part
                h.update(part)
            found.append(f"{FINGERPRINT_VERSION}:{h.hexdigest()}")
        return found

    def _plan(self, span: Span) -> list[tuple[PartKey, bool, Callable[[RowsFingerprint], bytes]]]:
        """The parts of ``window(span)`` in hashing order: a key naming the rows, whether
        it is kept for other windows (whole dates, the rows no date holds), and how a
        fingerprinter (of any connection) makes it."""
        s = self._s
        parts: list[tuple[PartKey, bool, Callable[[RowsFingerprint], bytes]]] = []
        if s.frames_indexed and (s.events_indexed or not s.ecols):
            # Whole dates one index search each, shared between windows (a history's
            # days); the few hours at the edges, one query for all.
            edges = []
            for lo, hi in span.ranges:
                if len(lo) == 10 and hi == after_prefix(lo):
                    parts.append(((lo, hi), True, partial(_rows_of, [(lo, hi)])))
                else:
                    edges.append((lo, hi))
            parts.append((("edges", repr(edges)), False, partial(_rows_of, edges)))
        else:  # one scan for all of them (in_ranges)
            parts.append((("all", repr(span.ranges)), False, partial(_rows_of, span.ranges)))
        parts.append((("odd", ""), True, _odd_of))
        return parts

    def _on(self, conn: sqlite3.Connection) -> RowsFingerprint:
        """This fingerprinter reading through ``conn``, another connection of the store."""
        other = copy.copy(self)
        other._conn, other._memo = conn, {}
        return other

    def kept(self, span: Span) -> str | None:
        """The fingerprint of the rows a read of ``span`` keeps (``Span.keeps_sql``: by
        instant, the unparsed ones too) and of the rows no date holds. Unlike ``window``,
        rows of the ranges that another day keeps leave it alone, so a row added today
        moves no earlier day's (``resident_routines``); None when the store changed
        meanwhile."""
        version = self._fresh_memo()
        h = sha256(b"kept:" + FINGERPRINT_VERSION.encode())
        h.update(self._schema_part())
        h.update(self._rows_digest(span.ranges, span.keeps_sql()))
        h.update(self._part(("odd", ""), self._odd_digest))
        if self._data_version() != version:
            return None
        return h.hexdigest()

    def settled(self, span: Span, cut_ms: int) -> str | None:
        """What identifies the rows of a read of ``span`` whose instant lies before
        ``cut_ms``, and the rows no date holds: equal marks mean that since, rows were
        only inserted, none before the cut (``tail.py``). It hashes every row of the
        read's ranges whose text orders before a second after the cut and from a second
        before the read's start (index ranges, no row tested), before that the rows
        without a UTC timestamp, and from a second after the cut on (the short tail) the
        rows SQLite places before the cut or cannot place."""
        version = self._fresh_memo()
        later = text_at(cut_ms + 1000)
        below = [(lo, min(hi, later)) for lo, hi in span.ranges if lo < later]
        above = [(max(lo, later), hi) for lo, hi in span.ranges if hi > later]
        # Rows with a UTC timestamp whose text orders before the second before the read's
        # first instant are dropped by every read, by their text (``Span.keeps_sql``): of
        # the rows there (a day of UTC offsets, often yesterday's), only the others count.
        start = "" if span.a % 1000 or span.b % 1000 else text_at(span.a - 1000)
        inner = [(max(lo, start), hi) for lo, hi in below if hi > start]
        outer = [(lo, min(hi, start)) for lo, hi in below if lo < start]
        h = sha256(b"settled:" + FINGERPRINT_VERSION.encode())
        h.update(self._schema_part())
        # The rows from the read's start in two parts, split at the cut's hour: at a verdict
        # that moves the cut within the hour (``screenpipe_tail``), both marks share the
        # first part's digest (one state of the store), and the second mark hashes the
        # hour only. Each row is in one part; the parts depend on the cut alone.
        hour = later[:13]
        early = [(lo, min(hi, hour)) for lo, hi in inner if lo < hour]
        h.update(self._part(("settled", repr(early)), partial(self._rows_digest, early)))
        h.update(self._rows_digest([(max(lo, hour), hi) for lo, hi in inner if hi > hour]))
        h.update(self._rows_digest(outer, f"NOT {UTC_SHAPE}"))
        h.update(self._rows_digest(above, f"coalesce({ms_expr()} < {cut_ms}, 1)"))
        h.update(self._part(("odd", ""), self._odd_digest))
        if self._data_version() != version:
            return None
        return h.hexdigest()

    def settled_in_utc(self, span: Span, cut_ms: int, since_ms: int | None = None) -> bool:
        """Whether every row ``settled`` hashes for ``cut_ms`` (frames and events whose
        text orders before a second after the cut) has a UTC timestamp in screenpipe's
        shape (``UTC_SHAPE``): while the mark stands, a read from near the cut then
        needs no row whose text orders before that read's start (``tail_span``). The
        timestamp index alone answers. With ``since_ms``, only the rows whose text
        orders from a second after that earlier cut on are looked at (the caller knows
        the others: the mark at ``since_ms`` held)."""
        later = text_at(cut_ms + 1000)
        below = [(lo, min(hi, later)) for lo, hi in span.ranges if lo < later]
        if since_ms is not None:
            earlier = text_at(since_ms + 1000)
            below = [(max(lo, earlier), hi) for lo, hi in below if hi > earlier]
        s = self._s
        tables = [("frames", s.frames_indexed)]
        if s.ecols:
            tables.append(("ui_events", s.events_indexed))
        for table, indexed in tables:
            q = f"SELECT count(*) FROM {in_ranges(table, below, indexed)} AND NOT {UTC_SHAPE}"
            if fetch(self._conn, q, ())[0][0]:
                return False
        return True

    # ------------------------------------------------------------------ internals

    def _data_version(self) -> int:
        return int(fetch(self._conn, "PRAGMA data_version", ())[0][0])

    def _fresh_memo(self) -> int:
        """The store's data_version now; what was kept for another one is dropped."""
        version = self._data_version()
        if version != self._version:
            self._memo.clear()
            self._version = version
        return version

    def _schema_part(self) -> bytes:
        """The tables' definitions, hashed again only when ``PRAGMA schema_version``
        moves (SQLite raises it with every change of ``sqlite_master``)."""
        cookie = int(fetch(self._conn, "PRAGMA schema_version", ())[0][0])
        if self._schema_memo is None or self._schema_memo[0] != cookie:
            self._schema_memo = (cookie, _sha256(self._schema_text()).digest())
        return self._schema_memo[1]

    def _part(self, key: tuple[str, str], make: Callable[[], bytes]) -> bytes:
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = make()
        return got

    def _schema_text(self) -> bytes:
        tables = fetch(
            self._conn,
            "SELECT group_concat(quote(type) || quote(name) || quote(tbl_name) || quote(sql),"
            " ';') FROM (SELECT * FROM sqlite_master ORDER BY type, name)",
            (),
        )[0][0]
        # Sorted: a frozenset's order changes from one process to the next.
        detected = [
            sorted(v) if isinstance(v, frozenset) else v
            for v in (getattr(self._s, k) for k in Schema.__slots__)
        ]
        return f"{tables}|{detected!r}".encode("utf-8", "surrogatepass")

    def _rows_digest(self, ranges: list[tuple[str, str]], where: str = "1") -> bytes:
        """The digest of the rows of ``ranges`` (and ``where``) of every table read."""
        s = self._s
        h = _sha256()
        frames = in_ranges("frames", ranges, s.frames_indexed) + f" AND {where}"
        self._joined(h, "frames", self._frame_cols, lambda r: f"SELECT {r} FROM {frames}")
        if s.ocols:
            self._ocr(h, f"SELECT frames.id FROM {frames} AND {self._pending}")
        if s.ecols:
            events = in_ranges("ui_events", ranges, s.events_indexed) + f" AND {where}"
            self._joined(h, "events", self._event_cols, lambda r: f"SELECT {r} FROM {events}")
        return h.digest()  # type: ignore[no-any-return]

    def _odd_digest(self) -> bytes:
        """The digest of the rows no date holds (odd_rows_sql), read for every window."""
        s = self._s
        h = _sha256()
        self._joined(
            h,
            "frames-odd",
            self._frame_cols,
            lambda r: odd_rows_sql("frames", r, "", s.frames_indexed),
        )
        if s.ocols:
            pending = f" AND {self._pending}"
            self._ocr(h, odd_rows_sql("frames", "id", pending, s.frames_indexed))
        if s.ecols:
            self._joined(
                h,
                "events-odd",
                self._event_cols,
                lambda r: odd_rows_sql("ui_events", r, "", s.events_indexed),
            )
        return h.digest()  # type: ignore[no-any-return]

    def _ocr(self, h: Any, frame_ids_sql: str) -> None:
        where = f"FROM ocr_text WHERE frame_id IN ({frame_ids_sql})"
        self._joined(h, "ocr", self._ocr_cols, lambda r: f"SELECT {r} {where}")

    def _joined(self, h: Any, label: str, cols: list[str], rows_sql: Callable[[str], str]) -> None:
        """Feeds ``h`` the rows' values, one JSON array per column (or quote()d rows, see
        the module docstring), with how many rows, which writing and each text's length.
        ``rows_sql``: the query of the rows, given the select list."""
        # A real is only possible in a column whose affinity is not TEXT (SQLite stores
        # numbers there as text), and never in a timestamp of a range (numbers never
        # compare between text bounds) or in length(). JSON writes a finite real with a
        # '.' always ("%!.15g"), text in quotes: an array of such a column with neither
        # holds integers, NULLs and infinities only (all exact), else quote() writes the
        # rows. A per-row sum() said as much at a millisecond a day of events.
        checks = [i for i, c in enumerate(cols) if c not in self._never_real.get(label, set())]
        named = ", ".join(f"{c} AS k{i}" for i, c in enumerate(cols))
        arrays = ", ".join(f"CAST(json_group_array(k{i}) AS BLOB)" for i in range(len(cols)))
        exact = label.endswith("-odd") or label == "ocr"
        texts: list[bytes] = []
        if not exact:
            try:
                n, *texts = fetch(
                    self._conn, f"SELECT count(*), {arrays} FROM ({rows_sql(named)})"
                )[0]
                exact = any(b"." in texts[i] or b'"' in texts[i] for i in checks)
            except sqlite3.OperationalError:  # a blob: JSON cannot hold it
                exact = True
        if exact:
            quoted = rows_sql(_quoted_row(cols))
            q = f"SELECT count(*), CAST(group_concat(r, ';') AS BLOB) FROM ({quoted})"
            n, text = fetch(self._conn, q, ())[0]
            texts = [text if isinstance(text, bytes) else b""]
            label += ":quote"
        # The lengths first: the texts that follow are then told apart from any others.
        h.update(f"{label}:{n}:{','.join(str(len(t)) for t in texts)};".encode())
        for t in texts:
            h.update(t)


PartKey = tuple[str, str]  # the rows a part of a fingerprint hashes (a range, "odd", ...)


def _rows_of(ranges: list[tuple[str, str]], fp: RowsFingerprint) -> bytes:
    return fp._rows_digest(ranges)


def _odd_of(fp: RowsFingerprint) -> bytes:
    return fp._odd_digest()


def _key(ids_ok: bool) -> set[str]:
    return {"id"} if ids_ok else set()  # the table's key: integers only


def _text_affinity(conn: sqlite3.Connection, table: str) -> set[str]:
    """Columns of ``table`` that hold text, blobs and NULL only (declared type with CHAR,
    CLOB or TEXT and without INT: SQLite's affinity rules)."""
    found = set()
    for row in fetch(conn, f"PRAGMA table_info({table})", ()):
        declared = str(row[2] or "").upper()
        if "INT" not in declared and any(k in declared for k in ("CHAR", "CLOB", "TEXT")):
            found.add(str(row[1]))
    return found


def _sha256(data: bytes = b"") -> Any:
    import hashlib  # OpenSSL's, several times the built-in one's speed on long texts

    return hashlib.sha256(data)


def _quoted_row(cols: list[str]) -> str:
    return " || ',' || ".join(f"quote({c})" for c in cols) + " AS r"
