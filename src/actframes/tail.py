"""Incremental today: a window whose store only grew at its end is read from a cut on.

A resident cache (``resident.py``) keeps, with the latest document it compiled, the
capture it was compiled from, a *cut* (an instant ``CUT_SLACK_MS`` before the capture's
last snapshot) and the store's ``settled_mark`` of the rows before the cut. At the next
call, when the mark is unchanged (rows were only added from the cut on), only the tail
is read — ``source.read(cut, window end)``, a few minutes of rows — and spliced onto the
kept rows before the cut (``sources/splice.py``); the document is then compiled from the
spliced capture, which is the capture a read of the whole window gives. Anything else
(a changed mark, a store without marks, a tail the splice is unsure of) reads the whole
window. SPEC.md, "Incremental today", states the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from operator import itemgetter

from .compile.reuse import Reuse
from .fast.records import Record
from .model import Capture, Snapshot
from .sources import Source
from .sources.splice import splice
from .window import Window

# Rows are taken as settled only this long before the newest snapshot: a recorder writes
# input counts in batches, stamped a little before the rows it writes next.
CUT_SLACK_MS = 60_000
# The cut moves on only once it trails by this much: most calls then take one mark, not
# two, and the tail read grows by at most this many seconds of rows.
CUT_STEP_MS = 60_000
_TS = itemgetter(1)  # Snapshot.ts_ms


class Tail(Record):
    """What a tail read continues from: the capture, its cut and the store's mark of the
    rows before the cut (taken before the capture's rows from the cut on were read, or
    from one state of the store with that read)."""

    __slots__ = _fields = ("cap", "cut_ms", "mark", "reuse", "last_ms")

    cap: Capture
    cut_ms: int
    mark: Hashable
    reuse: Reuse  # the frames of the chain's latest compile (``compile/reuse.py``)
    last_ms: int | None  # ``last_in(cap, window)``, when known (else found when asked)

    def __init__(
        self,
        cap: Capture,
        cut_ms: int,
        mark: Hashable,
        reuse: Reuse,
        last_ms: int | None = None,
    ) -> None:
        self.cap = cap
        self.cut_ms = cut_ms
        self.mark = mark
        self.reuse = reuse
        self.last_ms = last_ms


def _mark(source: Source, window: Window, cut_ms: int) -> Hashable:
    method = getattr(source, "settled_mark", None)
    if not callable(method):
        return None
    found: Hashable = method(window.start_ms, window.end_ms, cut_ms)
    return found


def last_in(snaps: Sequence[Snapshot], window: Window, since_ms: int | None = None) -> int | None:
    """The time of the last of ``snaps`` before the window's end (and from ``since_ms``
    on, when given); None without one."""
    # (In C: a generator over a day's rows costs ~0.5 ms at every call of today.)
    times: Iterable[int] = filter(window.end_ms.__gt__, map(_TS, snaps))
    if since_ms is not None:
        times = filter(since_ms.__le__, times)
    return max(times, default=None)


def cut_of(cap: Capture, window: Window, last_ms: int | None = None) -> int | None:
    """The cut for a capture of ``window``: ``CUT_SLACK_MS`` before its last snapshot in
    the window (``last_ms``, when the caller knows it), down to a whole second; None
    without one."""
    last = last_in(cap.snapshots, window) if last_ms is None else last_ms
    # A whole second: a screenpipe-style read from it then places most rows by their
    # text, where a read from any other instant parses every row of the day before it.
    return None if last is None else (last - CUT_SLACK_MS) // 1000 * 1000


def after_full_read(
    source: Source, window: Window, cap: Capture, unchanged: Callable[[], bool], reuse: Reuse
) -> Tail | None:
    """The tail state after reading the whole window: its mark is taken after the read,
    so it stands only when nothing was committed in between (``unchanged``)."""
    last = last_in(cap.snapshots, window)
    cut = cut_of(cap, window, last)
    if cut is None:
        return None
    mark = _mark(source, window, cut)
    if mark is None or not unchanged():
        return None
    return Tail(cap, cut, mark, reuse, last)


def _spliced_last(tail: Tail, read: Capture, window: Window) -> int | None:
    """``last_in`` of the capture spliced from ``tail`` and ``read`` (a read from the
    tail's cut), found from the read's rows alone where they tell (None: not known). The
    spliced rows before the cut are the tail capture's, all earlier than any read row
    from the cut on; and their last is the tail capture's last when that was before the
    cut (the cut is before the window's end)."""
    later = last_in(read.snapshots, window, since_ms=tail.cut_ms)
    if later is not None:
        return later
    if tail.last_ms is not None and tail.last_ms < tail.cut_ms < window.end_ms:
        return tail.last_ms
    return None


def read_spliced(
    source: Source, window: Window, tail: Tail
) -> tuple[Capture, Callable[[], Tail | None]] | None:
    """The window's capture from a read of its tail only, and ``settle``: the state the
    next call continues from, or None when the rows before the cut changed — then the
    capture is not the window's and whatever was made of it must be dropped. (A store
    may check its mark while the caller compiles; ``settle`` waits for it.) None when
    the splice is unsure."""
    nxt = cut_of(tail.cap, window, tail.last_ms)
    if nxt is None or nxt < tail.cut_ms:
        return None
    if nxt - tail.cut_ms < CUT_STEP_MS:
        nxt = tail.cut_ms
    got = _read_tail(source, window, tail, nxt)
    if got is None:
        return None
    read, verdict = got
    cap = splice(tail.cap, read, tail.cut_ms)
    if cap is None:
        verdict()  # the store's mark in flight, finished before the store is read again
        return None

    last = _spliced_last(tail, read, window)

    def settle() -> Tail | None:
        next_mark = verdict()
        return None if next_mark is None else Tail(cap, nxt, next_mark, tail.reuse, last)

    return cap, settle


def _read_tail(
    source: Source, window: Window, tail: Tail, nxt: int
) -> tuple[Capture, Callable[[], Hashable | None]] | None:
    """The read from the tail's cut, and the mark at ``nxt`` if the mark at the cut is
    still the tail's (else None). A source that offers ``settled_read`` takes the marks
    and the read from one state of the store; otherwise both marks are taken before the
    read (an edit after them shows at the next call)."""
    method = getattr(source, "settled_read", None)
    if callable(method):
        found: tuple[Capture, Callable[[], Hashable | None]] | None = method(
            window.start_ms, window.end_ms, tail.cut_ms, tail.mark, nxt
        )
        return found
    if _mark(source, window, tail.cut_ms) != tail.mark:
        return None
    next_mark = _mark(source, window, nxt) if nxt != tail.cut_ms else tail.mark
    if next_mark is None:
        return None
    return source.read(tail.cut_ms, window.end_ms), lambda: next_mark
