"""A window's fingerprint in a screenpipe-style store, from its raw rows (SPEC.md §3a).

screenpipe's tables keep no change counters, so "has this window changed?" is answered by
the rows themselves, before Python parses any: SQLite writes, for each index range of the
read (``timestamps.text_ranges``) and for the rows no date holds, every column the
reader uses of every row it may read as JSON text, and only that text is hashed here. The
rows, per table:

- ``frames``: id, timestamp, app, title, URL, focus;
- ``ocr_text`` rows of those frames whose stored app may clean to nothing (the only
  frames whose app the reader takes from ``ocr_text``): frame, app, window, focus;
- ``ui_events`` of every type (a row whose type changes to a counted one is in the
  text): id, timestamp, type, modifiers, the stored text's length by the reader's own
  expression (``input.STORED_CHARS``; never the text), text_length, clicks, app.

Each column of the rows is written by ``json_group_array`` (``rowtext``: one
JSON array per column, rows in the query's order) — NULL, an integer, text in quotes
with its quotes and controls escaped — so a row's values are told apart from any
other's, and so are their types ('1' and 1 differ); the arrays go to the hash one after
the other, after the count of rows and their lengths, never joined in Python. JSON
cannot hold a blob and writes a finite real to 15 digits only, always with a '.': a
part where SQLite refuses (a blob), or where the array of a column that may hold a real
(any affinity but TEXT) has a '.' or a quote, is written again by ``quote()``, which is
exact for both (a real to its last bit, a blob in hex). Arrays of integers and NULLs
(and ``Inf``) are exact.

The ranges cover the read's and more (whole hours at the edges, where the read keeps
rows by their instant): a change beside the window can only cost a reading, never serve
a changed window. The tables' definitions (``sqlite_master``) and what the reader
detected of them go in too. A range's text is hashed once per state of the store (its
``PRAGMA data_version``): the windows of a history share their days.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ...fast.fasthash import sha256
from ..base import fetch
from .input import STORED_CHARS
from .parallel_parts import made_at_once, nothing
from .rowtext import Job, texts
from .schema import Schema
from .timestamps import Span, after_prefix, in_ranges, odd_rows_sql

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


PartKey = tuple[str, str]  # the rows a part of a fingerprint hashes (a range, "odd", ...)
# A fingerprint's parts in hashing order: a key naming the rows, whether the part is kept
# for other windows of this state of the store, and how a fingerprinter (of any of the
# store's connections) makes it.
Plan = list[tuple[PartKey, bool, "Callable[[RowsFingerprint], bytes]"]]


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

    @property
    def pending(self) -> str:
        """The SQL condition on ``frames`` of the frames whose OCR rows are hashed."""
        return self._pending

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conn

    @property
    def schema(self) -> Schema:
        return self._s

    def window(self, span: Span) -> str | None:
        """The fingerprint of a read of ``span``; None when the store changed meanwhile."""
        return self.windows([span], [])[0]  # one window: its parts made on this connection

    def windows(self, spans: list[Span], conns: Sequence[sqlite3.Connection]) -> list[str | None]:
        """``[window(span) for span in spans]``, the parts made once each, at once, on this
        connection and on ``conns`` (``parallel_parts``). All None when a commit landed
        between this connection's first and last ``data_version``: only then are parts
        read on several connections known to be of one state of the store."""
        version, schema = self._begin()
        made = self._made([self._plan(span) for span in spans], conns)
        if not self._still(version):
            return [None] * len(spans)
        found: list[str | None] = []
        for parts in made:
            h = sha256(FINGERPRINT_VERSION.encode())
            h.update(schema)
            for part in parts:
                h.update(part)
            found.append(f"{FINGERPRINT_VERSION}:{h.hexdigest()}")
        return found

    def _plan(self, span: Span) -> Plan:
        """The parts of ``window(span)`` in hashing order: a key naming the rows, whether
        it is kept for other windows (whole dates, the rows no date holds), and how a
        fingerprinter (of any connection) makes it."""
        s = self._s
        parts: Plan = []
        if s.frames_indexed and (s.events_indexed or not s.ecols):
            # Whole dates one index search each, shared between windows (a history's
            # days); the few hours at the edges, one query for all.
            edges = []
            for lo, hi in span.ranges:
                if len(lo) == 10 and hi == after_prefix(lo):
                    parts.append(((lo, hi), True, partial(rows_of, [(lo, hi)])))
                else:
                    edges.append((lo, hi))
            parts.append((("edges", repr(edges)), False, partial(rows_of, edges)))
        else:  # one scan for all of them (in_ranges)
            parts.append((("all", repr(span.ranges)), False, partial(rows_of, span.ranges)))
        parts.append((("odd", ""), True, odd_of))
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
        rows = partial(rows_where, span.ranges, span.keeps_sql())
        plan: Plan = [(("kept", repr(span.ranges)), False, rows), (("odd", ""), True, odd_of)]
        return self.digest(b"kept:", plan, [])

    def digest(
        self,
        label: bytes,
        plan: Plan,
        conns: Sequence[sqlite3.Connection],
        ready: Callable[[], None] = nothing,
    ) -> str | None:
        """The hash of ``plan``'s parts in order (after ``label``, the version and the
        tables' definitions), made at once on this connection and ``conns`` (each in a read
        transaction of this one's state of the store: ``settled``); None when
        the store changed meanwhile. ``ready``: called once the parts' threads started."""
        version, schema = self._begin()
        h = sha256(label + FINGERPRINT_VERSION.encode())
        h.update(schema)
        for part in self._made([plan], conns, ready)[0]:
            h.update(part)
        if not self._still(version):
            return None
        return h.hexdigest()  # type: ignore[no-any-return]

    def _made(
        self,
        plans: list[Plan],
        conns: Sequence[sqlite3.Connection],
        ready: Callable[[], None] = nothing,
    ) -> list[list[bytes]]:
        """Each plan's parts, those kept for other windows from the memo when there; the
        others made once each, at once on this connection and on ``conns``."""
        todo: dict[PartKey, Callable[[RowsFingerprint], bytes]] = {}
        for plan in plans:
            for key, kept, make in plan:
                if not (kept and key in self._memo):
                    todo.setdefault(key, make)
        made = made_at_once(todo, [self, *(self._on(conn) for conn in conns)], ready)
        found = []
        for plan in plans:
            parts = []
            for key, kept, _ in plan:
                part = self._memo[key] if kept and key in self._memo else made[key]
                if kept:
                    self._memo[key] = part
                parts.append(part)
            found.append(parts)
        return found

    # ------------------------------------------------------------------ internals

    def _begin(self) -> tuple[int, bytes]:
        """The store's data_version and the digest of the tables' definitions. What was
        kept for another version is dropped; the definitions are hashed again only when
        ``PRAGMA schema_version`` moves (SQLite raises it with every change of
        ``sqlite_master``). The version is read by the PRAGMA statement, which within a
        read transaction fixes its snapshot (the ``pragma_data_version`` table does
        not): every later read of the transaction sees the state it names."""
        version = int(fetch(self._conn, "PRAGMA data_version")[0][0])
        cookie = int(fetch(self._conn, "PRAGMA schema_version")[0][0])
        if version != self._version:
            self._memo.clear()
            self._version = version
        if self._schema_memo is None or self._schema_memo[0] != cookie:
            self._schema_memo = (cookie, _sha256(self._schema_text()).digest())
        return version, self._schema_memo[1]

    def _still(self, version: int) -> bool:
        """Whether the store is still at ``version``: always, within a read transaction
        (``_begin`` fixed its snapshot); else by asking again."""
        if self._conn.in_transaction:
            return True
        return int(fetch(self._conn, "PRAGMA data_version")[0][0]) == version

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
        return self.digests([self.rows_jobs(ranges, where)])[0]

    def _odd_digest(self) -> bytes:
        """The digest of the rows no date holds (odd_rows_sql), read for every window."""
        return self.digests([self.odd_jobs()])[0]

    def digests(self, groups: list[list[Job]]) -> list[bytes]:
        """The digest of each group's rows, all written by one statement (``rowtext``):
        per job, how many rows, which writing and each text's length, then the texts."""
        found = iter(texts(self._conn, [job for jobs in groups for job in jobs]))
        out = []
        for jobs in groups:
            h = _sha256()
            for label, n, written in (next(found) for _ in jobs):
                # The lengths first: the texts that follow are then told apart from any others.
                h.update(f"{label}:{n}:{','.join(str(len(t)) for t in written)};".encode())
                for t in written:
                    h.update(t)
            out.append(h.digest())
        return out

    def rows_jobs(self, ranges: list[tuple[str, str]], where: str = "1") -> list[Job]:
        s = self._s
        frames = in_ranges("frames", ranges, s.frames_indexed) + f" AND {where}"
        jobs = [self._job("frames", self._frame_cols, lambda r: f"SELECT {r} FROM {frames}")]
        if s.ocols:
            jobs.append(self._ocr(f"SELECT frames.id FROM {frames} AND {self._pending}"))
        if s.ecols:
            events = in_ranges("ui_events", ranges, s.events_indexed) + f" AND {where}"
            jobs.append(
                self._job("events", self._event_cols, lambda r: f"SELECT {r} FROM {events}")
            )
        return jobs

    def odd_jobs(self) -> list[Job]:
        s = self._s
        jobs = [
            self._job(
                "frames-odd",
                self._frame_cols,
                lambda r: odd_rows_sql("frames", r, "", s.frames_indexed),
            )
        ]
        if s.ocols:
            pending = f" AND {self._pending}"
            jobs.append(self._ocr(odd_rows_sql("frames", "id", pending, s.frames_indexed)))
        if s.ecols:
            jobs.append(
                self._job(
                    "events-odd",
                    self._event_cols,
                    lambda r: odd_rows_sql("ui_events", r, "", s.events_indexed),
                )
            )
        return jobs

    def _ocr(self, frame_ids_sql: str) -> Job:
        where = f"FROM ocr_text WHERE frame_id IN ({frame_ids_sql})"
        return self._job("ocr", self._ocr_cols, lambda r: f"SELECT {r} {where}")

    def _job(self, label: str, cols: list[str], rows_sql: Callable[[str], str]) -> Job:
        never = self._never_real.get(label, set())
        return Job(label, cols, rows_sql, [i for i, c in enumerate(cols) if c not in never])


def rows_of(ranges: list[tuple[str, str]], fp: RowsFingerprint) -> bytes:
    return fp._rows_digest(ranges)


def rows_where(ranges: list[tuple[str, str]], where: str, fp: RowsFingerprint) -> bytes:
    return fp._rows_digest(ranges, where)


def odd_of(fp: RowsFingerprint) -> bytes:
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
