"""Searching the words on screen, answered in activity frames (#37, SPEC.md §10a).

``ScreenSearch(store)`` keeps a store's index (``index_file.py``) and brings the days a
search covers up to date first (``build.py``). Matches are ranked: all the words as a
phrase first, then all of them near each other, then anywhere; within each, by FTS5's
BM25, then the latest first. They are grouped by the activity frame that holds their
capture (the day document's evidence rows, else the frame on screen at that time): each
result is ``{frame_id, day, app, site, start, end, at, snippet, rows}`` — ``at`` when the
best match was first on screen, ``snippet`` at most 200 characters around it with the
words marked «so», ``rows`` the capture rows of every match in the frame (evidence).
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..compile.document import Clock
from ..compile.ranges import compact, expand
from ..errors import SourceError
from ..timeparse import parse_iso_ms
from ..window import LocalDays, Window, day_window
from .build import bring_up_to_date, units
from .index_file import IndexFile, index_path
from .query import Query, QueryError

if TYPE_CHECKING:
    from ..api import Store
    from ..doc_types import Document, Frame

SNIPPET_CHARS = 200
CANDIDATES = 2_000  # matching texts ranked before grouping
MARK = ("«", "»")


class ScreenSearch:
    """The screen-text index of one store; ``search`` answers a query over windows."""

    def __init__(self, store: Store, cache_root: Path) -> None:
        from ..sources import open_source
        from ..sources.watch import StoreWatch

        self.store = store
        self.source = open_source(store.path, store.kind)
        self.index = IndexFile(
            index_path(cache_root, Path(store.path), self.source.kind), Path(store.path)
        )
        self.watch = StoreWatch(Path(store.path))
        self._checked: dict[int, object] = {}  # unit -> the store's token when checked
        self._places: dict[tuple[str, str], _Frames] = {}  # (zone, day) -> its frames

    def close(self) -> None:
        self.index.close()
        self.source.close()

    def update(self, start_ms: int, end_ms: int) -> dict[str, int]:
        """The index's units of [start_ms, end_ms) brought up to date with the store
        (skipped for units checked at the store's current change token)."""
        from ..redact import redact

        token = self.watch.token(self.source)
        todo = [
            u for u in units(start_ms, end_ms) if token is None or self._checked.get(u) != token
        ]
        read = getattr(self.source, "screen_text", None)
        if not callable(read):
            raise SourceError(
                f"{self.store.path}: this store keeps no screen text ({self.source.kind})"
            )
        stamp = getattr(self.source, "screen_text_stamp", None)

        def own_stamp(a: int, b: int) -> object:
            return stamp(a, b) if callable(stamp) else None

        done = bring_up_to_date(self.index, read, own_stamp, redact, todo)
        for u in todo:
            self._checked[u] = token
        return done

    def search(
        self,
        query: Query,
        windows: Sequence[Window],
        tz: str,
        app: str | None = None,
        limit: int = 10,
    ) -> list[dict[str, Any]]:
        start = min(w.start_ms for w in windows)
        end = max(w.end_ms for w in windows)
        self.update(start, end)
        hits = self._hits(query, start, end, app)
        results = _grouped(hits, self._places_of(hits, tz), tz, limit)
        for r in results:  # snippets of the shown results only (FTS5 makes them per row)
            tid = r.pop("_text")
            got = self.index.conn.execute(
                "SELECT snippet(fts, 0, ?, ?, '…', 24) FROM fts WHERE fts MATCH ? AND rowid = ?",
                (*MARK, query.all, tid),
            ).fetchone()
            r["snippet"] = _clip(got[0]) if got else ""
        return results

    def _places_of(self, hits: list[dict[str, Any]], tz: str) -> dict[str, _Frames]:
        """Each hit day's frames, found by row or time; kept while the day's document is
        the one they were made of (a resident store serves the same object)."""
        local = LocalDays(tz)
        days = sorted({local.day(h["first_ms"]) for h in hits})
        docs = self.store.compile_many([day_window(d, tz) for d in days])
        out: dict[str, _Frames] = {}
        for d, doc in zip(days, docs, strict=True):
            kept = self._places.get((tz, d))
            if kept is None or kept.doc is not doc:
                kept = self._places[(tz, d)] = _Frames(doc)
            out[d] = kept
        return out

    def _hits(self, q: Query, start: int, end: int, app: str | None) -> list[dict[str, Any]]:
        where = " AND t.first_ms < ? AND t.last_ms >= ?"
        args: list[Any] = [end, start]
        if app:
            where += " AND instr(lower(t.app), ?) > 0"
            args.append(app.lower())
        sql = (
            "SELECT t.id, t.kind, t.app, t.focused, t.first_ms, t.last_ms, t.capture_ids,"
            " t.row_ids, bm25(fts) FROM fts JOIN texts t ON t.id = fts.rowid WHERE fts MATCH ?"
            + where
            + " ORDER BY bm25(fts) LIMIT ?"
        )
        conn = self.index.conn
        try:
            rows = conn.execute(sql, [q.all, *args, CANDIDATES]).fetchall()
            tiers: list[set[int]] = []
            for expr in (q.phrase, q.near):
                if expr is None:
                    tiers.append(set())
                    continue
                found = conn.execute(
                    "SELECT t.id FROM fts JOIN texts t ON t.id = fts.rowid WHERE fts MATCH ?"
                    + where,
                    [expr, *args],
                )
                tiers.append({r[0] for r in found})
        except sqlite3.OperationalError as exc:  # FTS5 syntax asked for, and not parsed
            raise QueryError(f"query: {str(exc).splitlines()[0]}") from None
        phrase, near = tiers
        out = []
        for tid, kind, t_app, focused, first, last, caps, row_ids, score in rows:
            tier = 0 if tid in phrase else 1 if tid in near else 2
            out.append(
                {
                    "rank": (tier, score, -first, tid),
                    "id": tid,
                    "kind": kind,
                    "app": t_app,
                    "focused": bool(focused),
                    "first_ms": first,
                    "last_ms": last,
                    "captures": caps,  # (ranges: expanded only when they are needed)
                    "rows": row_ids,
                }
            )
        out.sort(key=lambda h: h["rank"])
        return out


def _clip(snippet: str) -> str:
    """At most ``SNIPPET_CHARS`` characters, kept around the first marked word."""
    text = " ".join(snippet.split())
    if len(text) <= SNIPPET_CHARS:
        return text
    at = max(text.find(MARK[0]), 0)
    begin = max(0, min(at - 60, len(text) - SNIPPET_CHARS + 2))
    cut = text[begin : begin + SNIPPET_CHARS - 2]
    return ("…" if begin else "") + cut + "…"


def _grouped(
    hits: list[dict[str, Any]], places: dict[str, _Frames], tz: str, limit: int
) -> list[dict[str, Any]]:
    """The hits by the frame that holds them, best first, at most ``limit`` frames; each
    frame's rows are the captures of all its hits."""
    local = LocalDays(tz)
    iso = Clock(tz).iso
    results: dict[tuple[str, str], dict[str, Any]] = {}
    order: list[tuple[str, str]] = []
    shown_days: set[str] = set()
    for h in hits:
        day = local.day(h["first_ms"])
        if len(order) >= limit and day not in shown_days:
            continue  # (no frame of this day is shown: nothing to add to)
        captures = expand(h["captures"])
        frame = places[day].find(captures, h["first_ms"])
        key = (day, frame["id"]) if frame is not None else (day, f"~{h['first_ms']}:{h['app']}")
        got = results.get(key)
        if got is None:
            if len(order) >= limit:
                continue
            got = results[key] = _result(day, frame, h, iso)
            got["_captures"] = set()
            got["_text"] = h["id"]
            order.append(key)
            shown_days.add(day)
        got["_captures"].update(captures or expand(h["rows"]))
    out = []
    for key in order:
        r = results[key]
        r["rows"] = compact(r.pop("_captures"))
        out.append(r)
    return out


def _result(day: str, frame: Frame | None, h: dict[str, Any], iso: Any) -> dict[str, Any]:
    if frame is None:
        return {
            "frame_id": None,
            "day": day,
            "app": h["app"],
            "site": None,
            "start": iso(h["first_ms"]),
            "end": iso(h["last_ms"]),
            "at": iso(h["first_ms"]),
            "snippet": "",
            "rows": "",
        }
    return {
        "frame_id": frame["id"],
        "day": day,
        "app": frame["app"],
        "site": frame.get("site"),
        "start": frame["start"],
        "end": frame["end"],
        "at": iso(h["first_ms"]),
        "snippet": "",
        "rows": "",
    }


class _Frames:
    """A day document's frames, found by a capture row of their evidence or by time."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.frames = doc["frames"]
        self.by_row: dict[int, Frame] = {}
        for f in self.frames:
            for r in expand(f["evidence"]["rows"]):
                self.by_row.setdefault(r, f)
        spans = sorted(
            (parse_iso_ms(f["start"]), parse_iso_ms(f["end"]), i) for i, f in enumerate(self.frames)
        )
        self.starts = [s[0] for s in spans]
        self.spans = spans

    def find(self, captures: list[int], at_ms: int) -> Frame | None:
        for c in captures:
            f = self.by_row.get(c)
            if f is not None:
                return f
        i = bisect.bisect_right(self.starts, at_ms) - 1
        if i >= 0 and self.spans[i][0] <= at_ms <= self.spans[i][1]:
            return self.frames[self.spans[i][2]]
        return None
