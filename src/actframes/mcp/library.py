"""The library calls behind the MCP tools, with the store, zone and clock fixed.

One resident ``Store`` (``api.open_store``) answers every call: a window's document is
served from memory while the store shows no change for it (``resident.py``), so a
recorder appending to the same WAL store is seen as it writes and every answer is the
bytes a fresh compile gives. Library errors become one-line tool errors.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterator
from datetime import date, timedelta
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError

from ..api import open_store
from ..compile.period import period_document
from ..compile.period_compare import compare
from ..compile.pipeline import Options
from ..doc_types import CommsView, Document
from ..emit.context import to_context
from ..emit.json_out import to_json
from ..emit.kept_lines import KeptLines
from ..errors import ActframesError
from ..period_types import PeriodDocument
from ..periods import Span, parse_span, split_days
from ..sources.base import is_locked, locked
from ..window import (
    MAX_SPAN_DAYS,
    Window,
    day_or_word,
    day_window,
    local_day_of,
    parse_day,
    resolve,
)

MAX_SEARCH_DAYS = MAX_SPAN_DAYS  # days looked through one by one (search, frames, patterns)
DAYS_AT_ONCE = 28  # days compiled in one batch by compile_days (the store keeps 40)
MAX_ROUTINE_DAYS = 92  # routines need repetitions across days: a quarter at most
_T = TypeVar("_T")


class Service:
    """The library calls behind the tools, with the store, zone and clock fixed."""

    def __init__(
        self,
        db: Path,
        tz: str,
        source: str | None,
        now_ms: Callable[[], int],
        *,
        audible_active: bool = True,
        projects: Path | None = None,
        categories: Path | None = None,
    ) -> None:
        self.db, self.tz, self.source, self.now_ms = db, tz, source, now_ms
        # ``audible_active``: False for --no-audible-active (``sources.open_source``);
        # ``projects``, ``categories``: the rule files (``store_rules.py``).
        self.store = open_store(
            db,
            source,
            resident=True,
            audible_active=audible_active,
            projects=projects,
            categories=categories,
        )
        self._lines = KeptLines()  # frame lines of the latest context block
        self._screen: Any = None  # the screen-text search, made on first use

    def close(self) -> None:
        if self._screen is not None:
            self._screen.close()
        self.store.close()

    def screen_text(self) -> Any:
        """The screen-text search (``mcp/screen_search.py``), made on first use."""
        if self._screen is None:
            from .screen_search import ScreenText

            self._screen = ScreenText(self.store, self.db, self.tz)
        return self._screen

    def today(self) -> str:
        return local_day_of(self.now_ms(), self.tz)

    def day(self, text: str, name: str = "day") -> str:
        """A tool's ``name`` argument as YYYY-MM-DD: "today" and "yesterday" (any case)
        are the server's zone's local days at this call; anything else must be a date."""
        try:
            resolved = day_or_word(text, self.tz, self.now_ms())
            parse_day(resolved)
        except ActframesError as exc:
            raise ToolError(f"{name}: {one_line(str(exc))}") from exc
        return resolved

    def compile(self, window: Window, min_minutes: float = 0) -> Document:
        options = self._options(min_minutes)
        doc = self._guard(lambda: self.store.compile(window, options))
        return doc

    def compile_days(self, days: list[str]) -> Iterator[tuple[str, Document]]:
        """Each local day with its document, in order, ``DAYS_AT_ONCE`` at a time: the
        days of a batch have their fingerprints taken together (``Store.compile_many``),
        and no more documents are held at once than the store keeps anyway."""
        for i in range(0, len(days), DAYS_AT_ONCE):
            batch = days[i : i + DAYS_AT_ONCE]
            windows = [self.window(day=d) for d in batch]
            docs = self._guard(partial(self.store.compile_many, windows))
            yield from zip(batch, docs, strict=True)

    async def rendered(
        self,
        window: Window,
        how: Hashable,
        make: Callable[[Document], _T],
        min_minutes: float = 0,
    ) -> _T:
        """``make(document)`` of the window, kept with its document under ``how`` while
        the window is unchanged: one trip to the store's thread, awaited on the server's
        event loop rather than by a thread parked on it."""
        options = self._options(min_minutes)
        try:
            got: _T = await asyncio.wrap_future(
                self.store.render_future(window, options, how, make)
            )
        except ToolError:
            raise
        except Exception as exc:
            raise self._tool_error(exc) from exc
        return got

    async def document(self, window: Window, min_minutes: float = 0) -> Document:
        """The window's document, as ``compile`` gives it, awaited (``rendered``)."""
        return await self.rendered(window, "document", _same, min_minutes)

    async def context(self, window: Window, budget_tokens: int) -> tuple[Document, str]:
        """The window's document and its context block, both kept while it is unchanged
        (and both from one call into the store: one document, one trip to its thread)."""
        return await self.rendered(
            window,
            ("context", budget_tokens),
            lambda d: (d, to_context(d, budget_tokens, kept=self._lines)),
        )

    async def document_json(self, window: Window, min_minutes: float) -> tuple[Document, str]:
        """The window's document and its JSON text, both kept while it is unchanged: an
        unchanged day is not serialised again at every call."""
        return await self.rendered(window, "json", lambda d: (d, to_json(d)), min_minutes)

    async def period(
        self, window: Window, how: Hashable, make: Callable[[PeriodDocument], _T]
    ) -> _T:
        """``make(period)`` of the local days ``window`` covers (whole days as ``day``
        compiles them, a partial first or last day as its part), kept while every day's
        document is unchanged: a warm month is one trip to the store's thread."""
        pieces = split_days(window)
        days = [d for d, _ in pieces]

        def assemble(docs: list[Document]) -> _T:
            return make(period_document(list(zip(days, docs, strict=True))))

        try:
            got: _T = await asyncio.wrap_future(
                self.store.render_many([w for _, w in pieces], self._options(0), how, assemble)
            )
        except ToolError:
            raise
        except Exception as exc:
            raise self._tool_error(exc) from exc
        return got

    async def compared(self, window: Window, compare_to: str) -> dict[str, Any]:
        """The comparison of the whole days of ``window`` with the period ``compare_to``
        (``periods.parse_span``; "previous": the same number of days just before)."""
        pieces = split_days(window)
        if not all(w.day is not None for _, w in pieces):
            raise ToolError("compare_to needs whole days: give day, or since/until as dates")
        this = Span(pieces[0][0], pieces[-1][0])
        try:
            other = parse_span(compare_to, self.tz, self.now_ms(), this)
        except ActframesError as exc:
            raise ToolError(f"compare_to: {one_line(str(exc))}") from exc
        a = await self.period(window, "period", _period)
        b = await self.period(self.span_window(other), "period", _period)
        return compare(a, b)

    def span_window(self, span: Span) -> Window:
        """The window from the first day's start through the last day's end."""
        first, last = day_window(span.since, self.tz), day_window(span.until, self.tz)
        return first if first == last else Window(first.start_ms, last.end_ms, self.tz)

    def comms(self, window: Window) -> CommsView:
        """The communications view of a window (``compile/comms.py``), read afresh."""
        view = self._guard(lambda: self.store.comms(window))
        return view

    def rows(self, window: Window) -> Any:
        """The window's rows (a frame's evidence)."""
        return self.store.read(window)

    def window(
        self,
        *,
        hours: float | None = None,
        day: str | None = None,
        since: str | None = None,
        until: str | None = None,
        default_hours: float | None = None,
    ) -> Window:
        """The one resolver (``window.resolve``), its limits and its words."""
        try:
            return resolve(
                tz=self.tz,
                now_ms=self.now_ms(),
                day=None if day is None else self.day(day),
                hours=hours,
                since=since,
                until=until,
                default_hours=default_hours,
            )
        except ActframesError as exc:
            raise ToolError(one_line(str(exc))) from exc

    def steps(self, frame_id: str, day: str) -> list[dict[str, Any]]:
        try:
            _, rendered = self.store.steps(self.tz, frame_id, day)
        except ActframesError as exc:
            raise ToolError(one_line(str(exc))) from exc
        return rendered

    def patterns(self, days: int, until: str | None) -> tuple[str, str, list[dict[str, Any]]]:
        last = self.days_back(1, until)[0]
        if not 1 <= days <= MAX_SEARCH_DAYS:
            raise ToolError(f"days must be between 1 and {MAX_SEARCH_DAYS}")
        first, found = self._guard(lambda: self.store.patterns(self.tz, days, last))
        return first, last, found

    def routines(self, days: int, until: str | None, min_days: int) -> list[dict[str, Any]]:
        from ..routines.mine import Rules
        from ..routines.store_mining import check_rules, window_of

        if not 1 <= days <= MAX_ROUTINE_DAYS:
            raise ToolError(f"days must be between 1 and {MAX_ROUTINE_DAYS}")
        last = self.day(until, "until") if until is not None else self.today()

        def mine() -> list[dict[str, Any]]:
            start, end = window_of(self.tz, days, last)
            rules = check_rules(Rules(min_days=min_days))
            # Mining reads every step of the window: the store keeps each day's steps and
            # reads again only the days that changed (resident_routines.py).
            found: list[dict[str, Any]] = self.store.routines(self.tz, start, end, rules).routines
            return found

        found: list[dict[str, Any]] = self._guard(mine)
        return found

    def routine(self, routine_id: str, days: int, until: str | None, min_days: int) -> Any:
        for r in self.routines(days, until, min_days):
            if r["id"] == routine_id:
                return r
        raise ToolError(f"no routine {routine_id} in the last {days} days (see list_routines)")

    def days_back(self, days: int, until: str | None = None) -> list[str]:
        if not 1 <= days <= MAX_SEARCH_DAYS:
            raise ToolError(f"days must be between 1 and {MAX_SEARCH_DAYS}")
        last = date.fromisoformat(self.today() if until is None else self.day(until, "until"))
        return [(last - timedelta(days=i)).isoformat() for i in range(days)]

    def _options(self, min_minutes: float) -> Options:
        if not 0 <= min_minutes <= 24 * 60:
            raise ToolError("min_minutes must be between 0 and 1440")
        return Options(min_active_s=round(min_minutes * 60))

    def _guard(self, call: Callable[[], _T]) -> _T:
        try:
            return call()
        except ToolError:
            raise
        except Exception as exc:
            raise self._tool_error(exc) from exc

    def tool_error(self, exc: Exception) -> ToolError:
        return self._tool_error(exc)

    def _tool_error(self, exc: Exception) -> ToolError:
        """What a failed library call says to the client: one line."""
        if isinstance(exc, ActframesError):
            return ToolError(one_line(str(exc)))
        if is_locked(exc):  # a writer mid-transaction: busy, not broken
            return ToolError(str(locked(self.db)))
        # a vanished store, a disk error
        return ToolError(one_line(f"{self.db}: cannot read ({exc})"))


def _same(doc: Document) -> Document:
    return doc


def _period(doc: PeriodDocument) -> PeriodDocument:
    return doc


def one_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "error"
