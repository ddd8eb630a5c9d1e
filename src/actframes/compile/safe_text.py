"""Every text field of a capture made safe for every output, whatever reader made it.

Readers clean names as they read them (``text.clean_name``); this pass is the one place
that guarantees, for any reader, that the document holds no lone surrogate, bidirectional
control, escape sequence or control character, and no field longer than its bound
(``text.MAX_NAME_CHARS``, ``MAX_TITLE_CHARS``, ``MAX_URL_CHARS``). It also counts, for
``blind_spots``, the values in the window that were repaired or cut.

Values are looked at once per distinct value: a day repeats a few hundred of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any, cast

from ..model import Capture, EventColumn, InputEvent, Snapshot
from ..text import (
    MAX_NAME_CHARS,
    MAX_TITLE_CHARS,
    MAX_URL_CHARS,
    REPLACEMENT,
    safe_field,
    was_cut,
)

# Snapshot fields by index (Snapshot is a NamedTuple): app, title, url, device.
_APP, _TITLE, _URL, _DEVICE = itemgetter(2), itemgetter(3), itemgetter(4), itemgetter(5)


def safe_capture(
    cap: Capture, fields: Sequence[tuple[Any, ...]] | None = None
) -> tuple[Capture, bool]:
    """``cap`` itself when every field is safe already (the common case), else a copy with
    every field made safe; and whether any value is repaired or cut (``text_notes`` then
    has something to say). ``fields``: the snapshots' fields as columns (``zip(*snaps)``),
    when the caller made them."""
    snaps = cap.snapshots
    # Each field's distinct values gathered in C: a day has thousands of rows.
    app_col: Iterable[str]
    title_col: Iterable[str]
    url_col: Iterable[str | None]
    device_col: Iterable[str]
    if fields:
        app_col, title_col, url_col, device_col = fields[2], fields[3], fields[4], fields[5]
    else:
        app_col, title_col = map(_APP, snaps), map(_TITLE, snaps)
        url_col, device_col = map(_URL, snaps), map(_DEVICE, snaps)
    apps, noted_names = _fixes(set(app_col) | set(device_col), MAX_NAME_CHARS)
    titles, noted_titles = _fixes(set(title_col), MAX_TITLE_CHARS)
    url_values = set(url_col)
    url_values.discard(None)
    urls, noted_urls = _fixes(cast(set[str], url_values), MAX_URL_CHARS)
    noted = noted_names or noted_titles or noted_urls
    # Event columns and events one by one: their apps and devices, never grouped here.
    ev_values = {c.app for c in cap.event_columns} | {c.device for c in cap.event_columns}
    ev_values |= {e.app for e in cap.events} | {e.device for e in cap.events}
    ev_values.discard(None)
    ev_names, _ = _fixes(cast(set[str], ev_values), MAX_NAME_CHARS)
    if not (apps or titles or urls or ev_names):
        return cap, noted
    safe = Capture(
        kind=cap.kind,
        snapshots=[_safe_snapshot(s, apps, titles, urls) for s in snaps],
        events=[_safe_event(e, ev_names) for e in cap.events] if ev_names else cap.events,
        afk=cap.afk,
        rejected=cap.rejected,
        has_input=cap.has_input,
        has_afk=cap.has_afk,
        has_urls=cap.has_urls,
        interval=cap.interval,
        event_columns=(
            [_safe_column(c, ev_names) for c in cap.event_columns]
            if ev_names
            else cap.event_columns
        ),
        notes=cap.notes,
    )
    return safe, True


def text_notes(snaps: Iterable[Snapshot]) -> list[str]:
    """What ``blind_spots`` says of the window's text: values that held characters which
    are not valid text (shown as U+FFFD) and values cut at their bound."""
    repaired: set[tuple[int, str]] = set()
    cut: set[tuple[int, str]] = set()
    for s in snaps:
        for field, value, limit in (
            (0, s.app, MAX_NAME_CHARS),
            (1, s.title, MAX_TITLE_CHARS),
            (2, s.url or "", MAX_URL_CHARS),
            (3, s.device, MAX_NAME_CHARS),
        ):
            if REPLACEMENT in value:
                repaired.add((field, value))
            if was_cut(value, limit):
                cut.add((field, value))
    notes = []
    if repaired:
        notes.append(
            f"{len(repaired)} text value(s) held characters that are not valid text;"
            " they show as U+FFFD"
        )
    if cut:
        notes.append(
            f"{len(cut)} text value(s) were longer than their bound (names and titles"
            f" {MAX_TITLE_CHARS} characters, URLs {MAX_URL_CHARS:,}) and were cut, ending in …"
        )
    return notes


def _fixes(values: set[str], limit: int) -> tuple[dict[str, str], bool]:
    """The values that change when made safe, and whether any safe value is one
    ``text_notes`` reports (holding U+FFFD, or cut)."""
    out = {}
    noted = False
    seen = _SEEN
    if len(seen) > SEEN_MAX:
        seen.clear()
    for v in values:
        got = seen.get((v, limit))
        if got is None:
            safe = safe_field(v, limit)
            got = seen[(v, limit)] = (safe, REPLACEMENT in safe or was_cut(safe, limit))
        safe, note = got
        if safe != v:
            out[v] = safe
        noted = noted or note
    return out, noted


# Each value's safe form, kept between compiles (a day's apps, titles and URLs come round
# again at every compile of a resident server): (value, bound) -> (safe value, noted).
SEEN_MAX = 20_000
_SEEN: dict[tuple[str, int], tuple[str, bool]] = {}


def _safe_snapshot(
    s: Snapshot, apps: dict[str, str], titles: dict[str, str], urls: dict[str, str]
) -> Snapshot:
    app = apps.get(s.app, s.app)
    device = apps.get(s.device, s.device)
    title = titles.get(s.title, s.title)
    url = None if s.url is None else urls.get(s.url, s.url) or None
    if (app, title, url, device) == (s.app, s.title, s.url, s.device):
        return s
    return s._replace(app=app, title=title, url=url, device=device)


def _safe_event(e: InputEvent, names: dict[str, str]) -> InputEvent:
    app = None if e.app is None else names.get(e.app, e.app) or None
    device = None if e.device is None else names.get(e.device, e.device) or None
    return e if (app, device) == (e.app, e.device) else e._replace(app=app, device=device)


def _safe_column(c: EventColumn, names: dict[str, str]) -> EventColumn:
    app = None if c.app is None else names.get(c.app, c.app) or None
    device = None if c.device is None else names.get(c.device, c.device) or None
    return EventColumn(c.kind, app, device, c.ts, c.ids, c.counts, c.text)
