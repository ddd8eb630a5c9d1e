"""The screen-text search an MCP service keeps (#37): made on first use, used from one
thread of its own (SQLite objects stay in the thread that made them)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ActframesError
from ..periods import Span, day_windows

if TYPE_CHECKING:
    from ..api import Store


class ScreenText:
    """A service's screen-text search of ``store`` in zone ``tz``, made on first use,
    used from one thread."""

    def __init__(self, store: Store, db: Path, tz: str) -> None:
        self.store, self.db, self.tz = store, db, tz
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="actframes-screen")
        self.finder: Any = None

    def run(self, query: Any, span: Span, app: str | None, limit: int) -> list[dict[str, Any]]:
        from ..screen_index.search import ScreenSearch

        if self.finder is None:
            from ..screen_index.config import cache_root_for_search

            self.finder = ScreenSearch(self.store, cache_root_for_search(self.db))
        found: list[dict[str, Any]] = self.finder.search(
            query, day_windows(span, self.tz), self.tz, app, limit
        )
        return found

    def close(self) -> None:
        def shut() -> None:
            if self.finder is not None:
                self.finder.close()

        self.thread.submit(shut).result()
        self.thread.shutdown()


def screen_matches(
    screen: ScreenText, query: str, days: list[str], frame_id: str | None = None
) -> list[dict[str, Any]]:
    """The screen-text matches of ``query`` in ``days`` (of one frame when ``frame_id``),
    for ``get_frame`` found by words; [] when the store keeps no screen text, the feature
    is off, or the query has no word."""
    from ..screen_index.query import Query

    if not days:
        return []
    try:
        q = Query(query)
        span = Span(min(days), max(days))
        found = screen.thread.submit(screen.run, q, span, None, 10).result()
    except (ActframesError, OSError):
        return []
    return [r for r in found if frame_id is None or r["frame_id"] == frame_id]
