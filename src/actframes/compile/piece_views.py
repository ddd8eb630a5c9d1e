"""What one piece (a frame or an interruption) showed: its distinct titles, and the
references it viewed with the titles shown beside each. Read once per piece; a piece's
rows share its app (the context key), and heartbeats repeat the row before."""

from __future__ import annotations

from collections.abc import Sequence

from ..fast.records import FrozenRecord
from .constants import MAX_FRAME_TITLES
from .labels import Shown
from .page_refs import clean_title, row_ref
from .pieces import Row


def titles(rows: Sequence[Row]) -> list[str]:
    """Distinct titles, first seen first, with the browser's own suffix taken off. A
    piece's rows share its app (the key), so its distinct raw titles, gathered in C in
    the order first seen, are each cleaned once."""
    app = rows[0].snap[2]
    seen: dict[str, None] = {}
    # (A comprehension reads a row's slot in specialised bytecode, faster than attrgetter.)
    for title in dict.fromkeys([r.snap[3] for r in rows]):
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
    reference that came from a URL (for its label)."""

    __slots__ = _fields = ("views", "shown")

    views: Views
    shown: dict[Ref, Shown]

    def __init__(self, views: Views, shown: dict[Ref, Shown]) -> None:
        object.__setattr__(self, "views", views)
        object.__setattr__(self, "shown", shown)


def views(rows: Sequence[Row]) -> PieceViews:
    """Views per reference: a view is a run of consecutive rows that show one reference
    (the URL's page, else the entity the window title names). Rows that name nothing
    neither start nor end a view, so A, B, A counts A twice and B once."""
    seen: Views = {}
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
    return PieceViews(seen, shown)
