"""The MCP tool for screen text (#37): where were these words on the screen, answered as
frames with the moment, a snippet and the capture rows (``screen_search.py`` keeps the
index)."""

from __future__ import annotations

import asyncio
import json

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from ..errors import ActframesError
from ..periods import Span, last_days
from .library import MAX_SEARCH_DAYS, Service, one_line
from .limits import Day, Limit
from .tools import result

DEFAULT_DAYS = 7


async def search_screen(
    svc: Service,
    query: str,
    day: Day | None = None,
    since: Day | None = None,
    until: Day | None = None,
    app: str | None = None,
    limit: Limit = 10,
    fts: bool = False,
) -> CallToolResult:
    """Where were these words on the screen? Frames whose screen text matches, best first.

    Searches the text the store keeps of each capture (screenpipe's OCR and accessibility
    text, the recorder's with --screen-text) in a local `day`, or `since` through `until`
    (whole days; default the last 7 days), optionally in one `app`. Each result: the
    frame (frame_id, app, site, start, end), `at` (when the words were first on screen),
    a snippet (at most 200 characters, the words marked «so») and `rows` (the capture
    rows: evidence). A plain query is words (quotes, colons and dashes are searched as
    words); `fts` takes FTS5 syntax. Secrets and form values are never indexed or shown.
    """
    if day is not None and (since or until):
        raise ToolError("give day, or since/until, not both")
    if until is not None and since is None:
        raise ToolError("until needs since")
    try:
        from ..screen_index.query import Query

        q = Query(query, fts=fts)
        if day is not None:
            d = svc.day(day)
            span = Span(d, d)
        elif since is not None:
            from ..periods import days_span

            last = svc.day(until, "until") if until else svc.today()
            span = days_span(svc.day(since, "since"), last, MAX_SEARCH_DAYS)
        else:
            span = last_days(svc.today(), DEFAULT_DAYS)
    except ActframesError as exc:
        raise ToolError(one_line(str(exc))) from exc
    screen = svc.screen_text()
    try:
        found = await asyncio.wrap_future(screen.thread.submit(screen.run, q, span, app, limit))
    except ToolError:
        raise
    except Exception as exc:
        raise svc.tool_error(exc) from exc
    lines = [
        f"- {r['frame_id'] or '(no frame)'} {r['start']}–{r['end'][11:]} {r['app']}"
        + (f" / {r['site']}" if r.get("site") else "")
        + f" at {r['at'][11:19]}: {json.dumps(r['snippet'], ensure_ascii=False)} rows {r['rows']}"
        for r in found
    ]
    text = "\n".join(lines) or f"no frame shows {query!r} on screen in {span.label}"
    return result(text, {"query": query, "results": found})
