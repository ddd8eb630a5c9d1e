"""The words on screen a screenpipe store keeps, as ``ScreenText`` records for the search
index (SPEC.md §1.2e gives the facts per version, with the upstream files).

Per frame of the window: ``accessibility`` is ``frames.accessibility_text`` (unless
``text_source = 'ocr'``: then it is OCR text); ``ocr`` is each ``ocr_text`` row where the
table exists (row id: its rowid), else what ``frames.full_text`` adds to the accessibility
text (screenpipe writes ``full_text`` as a copy: the accessibility text, else the OCR text,
``hybrid`` frames both joined by a newline); ``element`` is each ``elements`` row of
source ``accessibility`` (OCR elements repeat the OCR text word by word). A hybrid-parquet
store's sealed frames and archived elements are read from their Parquet files
(``screen_payloads``). A store without any of these columns (screenpipe before mid-2024,
the reference recorder's databases) yields nothing.

The read is one snapshot of the store (a read transaction), a UTC day at a time, and
within it in batches of frames in time order (so memory holds one batch's texts); the
records of each batch are ordered by (time, kind, row id), and batches do not overlap in
time, so the whole read is in that order.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping
from typing import Any

from ...model import ACCESSIBILITY, ELEMENT, OCR, ScreenText
from .._rows import Names, parse_ts
from ..base import fetch, table_columns, tables
from .frames import is_false
from .schema import Schema
from .screen_payloads import PayloadFiles, archived_elements, frame_texts
from .timestamps import RANGE_HI, RANGE_LO, Span, instant_or_text, odd_rows_sql

DAY_MS = 86_400_000
BATCH_FRAMES = 500  # frames whose texts are read at once
_LOW = -(1 << 63)  # below every row id: no ``after`` for the kind
_IN = "IN (SELECT value FROM json_each(?))"
# (frame id, instant, stored app, stored focus) of a frame of the window
_Frame = tuple[int, int, object, object]


class TextLayout:
    """Where this store keeps each kind of text."""

    __slots__ = ("bulk_elements", "elements", "fcols", "ocols", "ocr_table", "payloads")

    def __init__(self, conn: sqlite3.Connection, schema: Schema) -> None:
        present = tables(conn)
        self.fcols = schema.fcols
        ocols = table_columns(conn, "ocr_text") if "ocr_text" in present else set()
        self.ocr_table = {"frame_id", "text"} <= ocols
        self.ocols = frozenset(ocols) if self.ocr_table else frozenset()
        need = {"id", "frame_id", "source", "role", "text"}
        # With parquet-bulk-v1, ``elements`` is a virtual table only screenpipe can open:
        # its rows are the staged ``_bulk_element_rows`` and the archived ranges.
        staged = "_bulk_element_rows" in present
        if staged:
            ecols = table_columns(conn, "_bulk_element_rows")
            staged = (
                need | {"_archive_deleted"} <= ecols
                and {
                    "_bulk_element_ranges",
                    "_bulk_element_frames",
                    "_bulk_files",
                }
                <= present
            )
            self.elements = staged
        else:
            self.elements = "elements" in present and need <= _columns(conn, "elements")
        self.bulk_elements = staged
        self.payloads = {"frame_payloads", "payload_files"} <= present

    @property
    def ocr_from_frames(self) -> bool:
        return not self.ocr_table and (
            "full_text" in self.fcols or {"accessibility_text", "text_source"} <= self.fcols
        )

    @property
    def frame_text(self) -> bool:
        return "accessibility_text" in self.fcols or self.ocr_from_frames

    def sources(self) -> dict[str, str]:
        """The table whose row ids each kind of text carries (a kind the store lacks is
        absent): when one changes, that kind's ids start over."""
        out = {}
        if "accessibility_text" in self.fcols:
            out[ACCESSIBILITY] = "frames"
        if self.ocr_table:
            out[OCR] = "ocr_text"
        elif self.ocr_from_frames:
            out[OCR] = "frames"
        if self.elements:
            out[ELEMENT] = "elements"
        return out


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    try:
        return table_columns(conn, table)
    except sqlite3.DatabaseError:  # a virtual table of a module not registered here
        return set()


def read_screen_text(
    conn: sqlite3.Connection,
    schema: Schema,
    start_ms: int,
    end_ms: int,
    after: Mapping[str, int] | None = None,
    problems: list[str] | None = None,
) -> Iterator[list[ScreenText]]:
    """The store's screen text of frames in ``[start_ms, end_ms)``, in batches, each in
    (time, kind, row id) order; ``after`` keeps only the rows of a kind whose id is larger
    than its value. Runs in one read transaction of ``conn``, ended when done."""
    if end_ms <= start_ms:
        return
    began = not conn.in_transaction
    if began:
        conn.execute("BEGIN")
    try:
        layout = TextLayout(conn, schema)
        if not layout.sources():
            return
        above = {k: int((after or {}).get(k, _LOW)) for k in (OCR, ACCESSIBILITY, ELEMENT)}
        batch = _Batch(conn, layout, above, PayloadFiles.of(conn, problems))
        odd = _odd_frames(conn, schema, start_ms, end_ms)
        lo, hi = _stored_days(conn, start_ms, end_ms)
        day = lo
        while day < hi:
            a, b = max(start_ms, day), min(end_ms, day + DAY_MS)
            frames = _frames(conn, schema, a, b) + [f for f in odd if a <= f[1] < b]
            frames.sort(key=lambda f: (f[1], f[0]))
            for part in _parts(frames):
                out = batch.records(part)
                if out:
                    yield out
            day += DAY_MS
    finally:
        if began and conn.in_transaction:
            conn.rollback()


def _stored_days(conn: sqlite3.Connection, start_ms: int, end_ms: int) -> tuple[int, int]:
    """The UTC days of [start_ms, end_ms) that can hold a frame: from the day before the
    first stored date to the day after the last (an offset moves a row by up to a day),
    found at the two ends of the timestamp index; the rows no date holds are read apart."""
    first, last = fetch(
        conn,
        "SELECT (SELECT min(timestamp) FROM frames WHERE timestamp >= ? AND timestamp < ?),"
        " (SELECT max(timestamp) FROM frames WHERE timestamp >= ? AND timestamp < ?)",
        (RANGE_LO, RANGE_HI) * 2,
    )[0]
    day = start_ms - start_ms % DAY_MS
    if not (isinstance(first, str) and isinstance(last, str)):
        return day, day
    # by month: a text such as 2026-02-30 names no day, its month is still right
    lo, hi = (parse_ts(v[:7] + "-01T00:00:00Z", "frames", 0) for v in (first, last))
    if not (isinstance(lo, int) and isinstance(hi, int)):
        return day, end_ms  # no month either: every day of the window
    return max(day, lo - DAY_MS), min(end_ms, hi + 33 * DAY_MS)


def _opt(s: Schema) -> str:
    return ", ".join(c if c in s.fcols else "NULL" for c in ("app_name", "focused"))


def _frames(conn: sqlite3.Connection, s: Schema, a: int, b: int) -> list[_Frame]:
    """The frames whose instant lies in [a, b), as the time reader finds them (§1.2)."""
    span = Span(a, b)
    q = f"SELECT frames.id, {instant_or_text(span.ms)}, {_opt(s)} FROM" + (
        f" {span.rows('frames', s.frames_indexed)}"
    )
    out = []
    for fid, ts, app, foc in fetch(conn, q):
        if type(ts) is not int:
            parsed = parse_ts(ts, "frames", fid)
            ts = parsed if isinstance(parsed, int) else None
        if type(fid) is int and ts is not None and a <= ts < b:
            out.append((fid, ts, app, foc))
    return out


def _odd_frames(conn: sqlite3.Connection, s: Schema, a: int, b: int) -> list[_Frame]:
    """Frames whose timestamp text no date's index range holds, placed by Python."""
    q = odd_rows_sql("frames", f"id, timestamp, {_opt(s)}", "", s.frames_indexed)
    out = []
    for fid, raw, app, foc in fetch(conn, q):
        ts = parse_ts(raw, "frames", fid)
        if type(fid) is int and isinstance(ts, int) and a <= ts < b:
            out.append((fid, ts, app, foc))
    return out


def _parts(frames: list[_Frame]) -> Iterator[list[_Frame]]:
    """Runs of about BATCH_FRAMES frames, cut only between two instants."""
    start = 0
    while start < len(frames):
        end = min(start + BATCH_FRAMES, len(frames))
        while end < len(frames) and frames[end][1] == frames[end - 1][1]:
            end += 1
        yield frames[start:end]
        start = end


def has_text(v: object) -> bool:
    return isinstance(v, str) and not v.isspace() and v != ""


def split_frame_text(
    acc: object, full: object, source: object, ocr_from_frames: bool
) -> tuple[str | None, str | None]:
    """(accessibility text, OCR text) of one frame's row. ``full_text`` is screenpipe's
    copy: the accessibility text, else the OCR text, and for ``hybrid`` frames
    ``accessibility_text + "\\n" + OCR text``; only what it adds is OCR text. A frame of
    ``text_source = 'ocr'`` holds OCR text in both columns."""
    a = acc if isinstance(acc, str) and has_text(acc) else None
    f = full if isinstance(full, str) and has_text(full) else None
    if source == "ocr":
        return None, (f or a) if ocr_from_frames else None
    if not ocr_from_frames or f is None or f == a:
        return a, None
    if a is not None and f.startswith(a + "\n"):
        rest = f[len(a) + 1 :]
        return a, rest if has_text(rest) else None
    return a, f


class _Batch:
    """Reads the texts of a run of frames."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        layout: TextLayout,
        above: dict[str, int],
        files: PayloadFiles,
    ) -> None:
        self.conn, self.layout, self.above, self.files = conn, layout, above, files
        self.names = Names()

    def records(self, frames: list[_Frame]) -> list[ScreenText]:
        ids = json.dumps([f[0] for f in frames])
        ocr = self._ocr_rows(ids) if self.layout.ocr_table else {}
        shown: dict[int, tuple[int, str, bool]] = {}  # frame id -> (instant, app, focus)
        for fid, ts, app_raw, foc_raw in frames:
            shown[fid] = (ts, *self._app_focus(app_raw, foc_raw, ocr.get(fid, [])))
        out: list[ScreenText] = []
        for fid, rows in ocr.items():
            ts, app, focused = shown[fid]
            for rowid, text, own_app, _, own_foc in rows:
                if has_text(text):
                    foc = focused if own_foc is None else not is_false(own_foc)
                    out.append(ScreenText(rowid, ts, OCR, text, fid, own_app or app, foc))
        if self.layout.frame_text:
            self._frame_records(ids, shown, out)
        if self.layout.elements:
            for eid, fid, role, text in self._elements(ids, set(shown)):
                if has_text(text):
                    ts, app, focused = shown[fid]
                    role = role if isinstance(role, str) else ""
                    out.append(ScreenText(eid, ts, ELEMENT, text, fid, app, focused, role))
        out.sort(key=lambda r: (r.ts_ms, r.kind, r.row_id))
        return out

    def _ocr_rows(self, ids: str) -> dict[int, list[tuple[Any, ...]]]:
        """Every ocr_text row of the frames (app, window, focus: the frame's app may come
        from them), with its text only when its rowid is above ``after``."""
        oc = self.layout.ocols
        app = "app_name" if "app_name" in oc else "NULL"
        win = "window_name" if "window_name" in oc else "NULL"
        # Focus is known only for rows written with it: focused and window_name came in
        # one release (an older row reads focused = 0 by the column's default).
        foc = f"CASE WHEN {win} IS NULL THEN NULL ELSE focused END" if "focused" in oc else "NULL"
        q = (
            f"SELECT rowid, frame_id, CASE WHEN rowid > ? THEN text END, {app}, {win}, {foc}"
            f" FROM ocr_text WHERE frame_id {_IN}"
        )
        out: dict[int, list[tuple[Any, ...]]] = {}
        for rowid, fid, text, app_raw, win_raw, f in fetch(self.conn, q, (self.above[OCR], ids)):
            if type(rowid) is int:
                row = (rowid, text, self.names.app(app_raw), win_raw, f)
                out.setdefault(fid, []).append(row)
        return out

    def _app_focus(
        self, app_raw: object, foc_raw: object, ocr: list[tuple[Any, ...]]
    ) -> tuple[str, bool]:
        """The frame's app and focus as the time reader decides them (frames.py): its
        own app, else its focused OCR window's (the least by app and window when several
        claim focus); its own focus, else none of its known windows focused is unfocused."""
        seen = [(app, win if isinstance(win, str) else "", f) for _, _, app, win, f in ocr if app]
        app = self.names.app(app_raw)
        if not app and seen:
            focused = [w for w in seen if w[2] is not None and not is_false(w[2])]
            app = min(focused or seen, key=lambda w: (w[0], w[1]))[0]
        if foc_raw is not None:
            return app, not is_false(foc_raw)
        known = [w for w in seen if w[2] is not None]
        return app, not (known and all(is_false(w[2]) for w in known))

    def _frame_records(
        self, ids: str, shown: dict[int, tuple[int, str, bool]], out: list[ScreenText]
    ) -> None:
        fc, lay = self.layout.fcols, self.layout
        cols = ", ".join(
            c if c in fc else "NULL" for c in ("accessibility_text", "full_text", "text_source")
        )
        kinds = [ACCESSIBILITY] * ("accessibility_text" in fc) + [OCR] * lay.ocr_from_frames
        low = min(self.above[k] for k in kinds)
        q = f"SELECT id, {cols} FROM frames WHERE id {_IN} AND id > ?"
        rows = fetch(self.conn, q, (ids, low))
        sealed = self._sealed([r[0] for r in rows if r[1] is None and r[2] is None])
        for fid, acc, full, source in rows:
            if fid in sealed:
                full, acc = sealed[fid]
            a, o = split_frame_text(acc, full, source, lay.ocr_from_frames)
            ts, app, focused = shown[fid]
            if a is not None and fid > self.above[ACCESSIBILITY]:
                out.append(ScreenText(fid, ts, ACCESSIBILITY, a, fid, app, focused))
            if o is not None and fid > self.above[OCR]:
                out.append(ScreenText(fid, ts, OCR, o, fid, app, focused))

    def _sealed(self, ids: list[int]) -> dict[int, tuple[object, object]]:
        """Texts of the frames (without text in the index) a hybrid store has sealed."""
        if not ids or not self.layout.payloads:
            return {}
        q = (
            "SELECT p.frame_id, p.generation, f.search_path, f.search_checksum"
            " FROM frame_payloads AS p JOIN payload_files AS f ON f.id = p.file_id"
            f" WHERE p.state = 'sealed' AND p.frame_id {_IN}"
        )
        return frame_texts(self.files, fetch(self.conn, q, (json.dumps(ids),)))

    def _elements(self, ids: str, frames: set[int]) -> list[tuple[Any, ...]]:
        """(id, frame id, role, text) of the frames' accessibility elements above
        ``after``: rows of ``elements``, or a hybrid store's staged and archived rows (a
        staged row, or its tombstone, wins over the archived one)."""
        above = self.above[ELEMENT]
        table = "_bulk_element_rows" if self.layout.bulk_elements else "elements"
        gone = " AND _archive_deleted = 0" if self.layout.bulk_elements else ""
        q = (
            f"SELECT id, frame_id, role, text FROM {table} WHERE frame_id {_IN}"
            f" AND source = 'accessibility' AND id > ?{gone}"
        )
        rows = [r for r in fetch(self.conn, q, (ids, above)) if r[1] in frames]
        if not self.layout.bulk_elements:
            return rows
        q = (
            "SELECT DISTINCT r.first_id, r.last_id, p.path, p.checksum"
            " FROM _bulk_element_frames AS x"
            " JOIN _bulk_element_ranges AS r ON r.file_id = x.file_id"
            f" JOIN _bulk_files AS p ON p.id = r.file_id WHERE x.frame_id {_IN}"
            " ORDER BY r.first_id"
        )
        archived = archived_elements(self.files, fetch(self.conn, q, (ids,)), frames, above)
        if archived:
            staged_q = f"SELECT id FROM _bulk_element_rows WHERE id {_IN}"
            staged = {
                r[0] for r in fetch(self.conn, staged_q, (json.dumps([a[0] for a in archived]),))
            }
            rows += [a for a in archived if a[0] not in staged]
        return rows


def text_sources(conn: sqlite3.Connection, schema: Schema) -> dict[str, str]:
    return TextLayout(conn, schema).sources()


__all__ = ["TextLayout", "read_screen_text", "split_frame_text", "text_sources"]
