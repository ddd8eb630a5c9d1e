"""What one piece (a frame or an interruption) showed: its distinct titles, and the
references it viewed with the titles shown beside each. Read once per piece; a piece's
rows share its app (the context key), and heartbeats repeat the row before."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..fast.records import FrozenRecord
from .constants import MAX_FRAME_TITLES
from .labels import Shown
from .page_refs import clean_title, row_ref
from .pieces import Row


def titles(app: str, raw: Iterable[str]) -> list[str]:
    """Distinct titles, first seen first, with the browser's own suffix taken off, of a
    piece of ``app`` whose distinct raw titles, in the order first seen, are ``raw``
    (``PieceViews.titles``): a piece's rows share its app (the key), so each distinct
    raw title is cleaned once."""
    seen: dict[str, None] = {}
    for title in raw:
        t = clean_title(app, title)
        if t and t not in seen:
            seen[t] = None
            if len(seen) >= MAX_FRAME_TITLES:
                break
    return list(seen)


Ref = tuple[str, str]  # (kind, entity)
Views = dict[Ref, list[int]]  # reference -> [views, first view ms]


class PieceViews(FrozenRecord):
    """One piece's references: views per reference, and the titles shown with each
    reference that came from a URL (for its label); and its distinct raw titles, in the
    order first seen (for its ``titles``)."""

    __slots__ = _fields = ("views", "shown", "titles")

    views: Views
    shown: dict[Ref, Shown]
    titles: tuple[str, ...]

    def __init__(self, views: Views, shown: dict[Ref, Shown], titles: tuple[str, ...]) -> None:
        object.__setattr__(self, "views", views)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "titles", titles)


def views(rows: Sequence[Row]) -> PieceViews:
    """Views per reference: a view is a run of consecutive rows that show one reference
    (the URL's page, else the entity the window title names). Rows that name nothing
    neither start nor end a view, so A, B, A counts A twice and B once. The rows' titles
    are gathered on the way, where a row is not a heartbeat of the row before."""
    seen: Views = {}
    raw: dict[str, None] = {}
    shown: dict[Ref, Shown] = {}
    prev: Ref | None = None
    titles_of: Shown | None = None  # the current row's reference's titles, for a URL
    app = rows[0].snap[2] if rows else ""  # a piece's rows share its app (the key)
    key = ("", "")  # (app, title) of the current row
    held = 0  # time the key has shown the URL's reference, not yet added
    last_title: object = seen  # no title or URL is this object: the first row is new
    last_url: object = seen
    for r in rows:
        s = r.snap
        title, url = s[3], s[4]
        if title is last_title and url is last_url:
            # A heartbeat repeats the row before (the same strings, from the reader):
            # the same reference, so the same view; only its time adds up.
            if titles_of is not None:
                held += r.end_ms - r.start_ms
            continue
        if titles_of is not None:
            titles_of[key] = titles_of.get(key, 0) + held
            held = 0
        last_title, last_url = title, url
        raw[title] = None
        ref = row_ref(app, title, url)
        if ref is None:
            titles_of = None
            continue
        titles_of = shown.setdefault(ref, {}) if url else None
        key = (app, title)
        if titles_of is not None:
            held = r.end_ms - r.start_ms
        if ref is not prev and ref != prev:
            got = seen.get(ref)
            if got is None:
                seen[ref] = [1, r.start_ms]
            else:
                got[0] += 1
        prev = ref
    if titles_of is not None:
        titles_of[key] = titles_of.get(key, 0) + held
    return PieceViews(seen, shown, tuple(raw))
