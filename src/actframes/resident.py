"""Documents a long-lived process keeps in memory (the MCP server, a library ``Store``).

Each entry holds the document of one (window, options), the store's change token when it
was compiled (``sources/watch.py``) and the window's fingerprint where the store keeps one. A
call is answered, cheapest first:

1. the store's token is the one the entry saw: nothing was committed since — served as is;
2. the store keeps change counters (native) and the window's fingerprint is unchanged —
   served, the new token noted;
3. the store grew only after the entry's cut (``tail.py``: the store's ``settled_mark``,
   native and screenpipe-style stores) — only the tail is read, spliced onto the kept
   rows, and compiled (or, when it digests as the entry did, served as is);
4. the window's rows are read and digested (``source.digest`` of the document): the same
   digest — served, nothing compiled;
5. otherwise compiled, and kept when the window is a whole day (the least recently used
   of ``max_entries`` goes; "the last N hours" is another window at every call).

Every answer is therefore the bytes a fresh compile of the store gives (a property test
holds this after random appends, edits and deletions). The source is held open between
calls and opened afresh when the store's file is replaced or an export file changes.
Renderings of a document (a context block at a budget) are kept with it, so an
unchanged window costs neither a compile nor a render. All work on the store runs in one
thread of the cache's own: SQLite objects stay in the thread that made them, whichever
thread (a server's worker pool) asks.
"""

from __future__ import annotations

import gc
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .cache import DocCache, compile_window_cached, compile_windows_cached
from .compile.document import Doc
from .compile.pipeline import Options, compile_capture
from .compile.provenance import capture_digest
from .compile.reuse import Reuse
from .sources import Source, open_source
from .sources.watch import StoreWatch
from .tail import Tail, after_full_read, read_spliced
from .window import Window

_T = TypeVar("_T")
# Whole days kept (other windows move with the clock): a month and the one before it.
MAX_ENTRIES = 64
MAX_MANY = 8  # renderings of several windows (periods) kept


class _Entry:
    __slots__ = ("doc", "fingerprint", "renders", "rows_fp", "tail", "token")

    def __init__(
        self, token: Hashable, fingerprint: str | None, doc: Doc, tail: Tail | None = None
    ) -> None:
        self.token = token
        self.fingerprint = fingerprint
        self.doc = doc
        self.renders: dict[Hashable, Any] = {}
        self.tail = tail  # what a tail read continues from (the latest entry only)
        self.rows_fp: str | None = None  # its rows' fingerprint (``_recheck``)


class ResidentCache:
    """The documents of one store, kept across calls (callable from any thread)."""

    def __init__(
        self,
        path: Path,
        kind: str | None = None,
        disk: DocCache | None = None,
        max_entries: int = MAX_ENTRIES,
        *,
        audible_active: bool = True,
    ) -> None:
        self.path, self.kind, self.disk, self.max_entries = path, kind, disk, max_entries
        self.audible_active = audible_active  # as for ``sources.open_source``
        self.watch = StoreWatch(path)
        self._source: Source | None = None
        self._source_token: Hashable = None
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._many: OrderedDict[Hashable, tuple[list[Doc], Any]] = OrderedDict()
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="actframes-store")
        self.stats = {"served": 0, "fingerprint": 0, "digest": 0, "tail": 0, "compiled": 0}

    def document(self, window: Window, options: Options | None = None) -> Doc:
        """The window's document, from memory when the store has not changed for it."""
        opts = options or Options()
        return self._run(lambda: self._entry(window, opts).doc)

    def documents(self, windows: Sequence[Window], options: Options | None = None) -> list[Doc]:
        """``[document(w, options) for w in windows]``. The whole days held nowhere in
        memory are first taken from the disk cache together (``compile_windows_cached``:
        on a store that fingerprints many windows at once), as ``document`` takes each."""
        opts = options or Options()

        def run() -> list[Doc]:
            self._from_disk([w for w in windows if _key(w, opts) not in self._entries], opts)
            self._recheck(windows, opts)
            docs = [self._entry(w, opts).doc for w in windows]
            self._note_rows(windows, opts)
            return docs

        return self._run(run)

    def render(
        self, window: Window, options: Options | None, how: Hashable, make: Callable[[Doc], Any]
    ) -> Any:
        """``make(document)``, kept with the document under ``how`` (e.g. a context block
        at a budget): made again only when the document is."""
        return self.render_future(window, options, how, make).result()

    def render_future(
        self, window: Window, options: Options | None, how: Hashable, make: Callable[[Doc], Any]
    ) -> Future[Any]:
        """``render``, handed to the store's thread and not waited for: an event loop
        awaits it (``asyncio.wrap_future``) instead of parking a thread of its own on it,
        one thread hop per call rather than two."""
        opts = options or Options()

        def run() -> Any:
            entry = self._entry(window, opts, (how, make))
            if how not in entry.renders:
                entry.renders[how] = make(entry.doc)
            return entry.renders[how]

        return self._submit(run)

    def render_many_future(
        self,
        windows: Sequence[Window],
        options: Options | None,
        how: Hashable,
        make: Callable[[list[Doc]], Any],
    ) -> Future[Any]:
        """``make(documents)`` of several windows (a period's days), in the store's thread;
        kept while every window's document is the very one it was made from."""
        opts = options or Options()

        def run() -> Any:
            self._from_disk([w for w in windows if _key(w, opts) not in self._entries], opts)
            self._recheck(windows, opts)
            docs = [self._entry(w, opts).doc for w in windows]
            self._note_rows(windows, opts)
            key = (how, tuple(_key(w, opts) for w in windows))
            kept = self._many.get(key)
            if kept is not None and all(a is b for a, b in zip(kept[0], docs, strict=True)):
                self._many.move_to_end(key)
                return kept[1]
            value = make(docs)
            if all(w.day is not None for w in windows):  # (else other windows next time)
                self._many[key] = (docs, value)
                while len(self._many) > MAX_MANY:
                    self._many.popitem(last=False)
            return value

        return self._submit(run)

    def store_token(self) -> Hashable:
        """The store's change token now (``sources/watch.py``): equal tokens, unchanged store."""
        return self._worker.submit(lambda: self.watch.token(self._source)).result()

    def close(self) -> None:
        def run() -> None:
            if self._source is not None:
                self._source.close()
            self._source = None
            self.watch.close()
            self._entries.clear()
            self._many.clear()

        self._worker.submit(run).result()
        self._worker.shutdown()

    # ------------------------------------------------------------------ internals

    def _run(self, job: Callable[[], _T]) -> _T:
        return self._submit(job).result()

    def _submit(self, job: Callable[[], _T]) -> Future[_T]:
        """``job()`` in the worker thread, the cyclic garbage collector paused meanwhile
        (and left as it was found), as ``compile_pieces`` does for the same reason: a call
        makes thousands of container objects (the tail's rows, the document, its
        renderings) that outlive it, so a collection in the middle frees none of them, only
        walks them and promotes them, and now and then into a full collection of the
        whole heap (tens of ms in a server). Nothing is kept from collection: what the
        call drops is freed by reference counting, or by the next collection after it."""

        def paused() -> _T:
            was = gc.isenabled()
            if was:
                gc.disable()
            try:
                return job()
            finally:
                if was:
                    gc.enable()

        return self._worker.submit(paused)

    def _entry(
        self,
        window: Window,
        options: Options,
        render: tuple[Hashable, Callable[[Doc], Any]] | None = None,
    ) -> _Entry:
        """In the worker thread only. ``render``: the rendering asked with the document,
        made while the store checks a tail's mark (see below)."""
        key = _key(window, options)
        entry = self._entries.get(key)
        # The token is taken before anything is read: a write after it makes the next
        # call look again, never serves rows older than the token.
        token = self.watch.token(self._source)
        # No token (a running ActivityWatch server: no file to look at) says nothing: the
        # window is asked again below, never served for being "unchanged".
        if entry is not None and token is not None and entry.token == token:
            self._entries.move_to_end(key)
            self.stats["served"] += 1
            return entry
        source = self._open(token)
        fingerprint = _fingerprint(source, window)
        if entry is not None and fingerprint is not None and entry.fingerprint == fingerprint:
            entry.token = token
            self._entries.move_to_end(key)
            self.stats["fingerprint"] += 1
            return entry
        if entry is not None and entry.tail is not None:
            # Rows only appended after the entry's cut: read the tail, splice, compile.
            got = read_spliced(source, window, entry.tail)
            if got is not None:
                cap, settle = got
                # The digest is the compiler's first step anyway: the same rows (a
                # store that grew only beside the window) need no compile.
                digest = capture_digest(cap, memo=entry.tail.reuse.digest)
                same = entry.doc["source"]["digest"] == digest
                doc = None
                renders: dict[Hashable, Any] = {}
                if not same:
                    doc = compile_capture(
                        cap, window, options, digest=digest, reuse=entry.tail.reuse
                    )
                    if render is not None:
                        renders[render[0]] = render[1](doc)
                # Only now is it known that the rows before the cut are as they were
                # (the store checks while this thread compiles and renders): else read
                # whole, and what was made here is dropped.
                tail = settle()
                if tail is not None and doc is None:
                    entry.token, entry.fingerprint, entry.tail = token, fingerprint, tail
                    self._entries.move_to_end(key)
                    self.stats["digest"] += 1
                    return entry
                if tail is not None and doc is not None:
                    self.stats["tail"] += 1
                    fresh = _Entry(token, fingerprint, doc, tail)
                    fresh.renders.update(renders)
                    return self._keep(key, fresh, window)
        if entry is None and self.disk is not None and window.day is not None:
            doc, _ = compile_window_cached(source, window, options, self.disk)
            self.stats["compiled"] += 1
            return self._keep(key, _Entry(token, fingerprint, doc), window)
        cap = source.read(window.start_ms, window.end_ms)
        reuse = Reuse()
        kept = after_full_read(
            source, window, cap, lambda: self.watch.token(source) == token, reuse
        )
        digest = capture_digest(cap, memo=reuse.digest)
        if entry is not None and entry.doc["source"]["digest"] == digest:
            entry.token, entry.fingerprint, entry.tail = token, fingerprint, kept
            self._entries.move_to_end(key)
            self.stats["digest"] += 1
            return entry
        doc = compile_capture(cap, window, options, digest=digest, reuse=reuse)
        self.stats["compiled"] += 1
        return self._keep(key, _Entry(token, fingerprint, doc, kept), window)

    def _from_disk(self, windows: list[Window], options: Options) -> None:
        """In the worker thread only: the whole days of ``windows`` (none in memory) from
        the disk cache at once and kept, as ``_entry`` keeps one it finds nowhere in
        memory; only on a store whose fingerprints are taken many at once (and from its
        rows: such an entry holds no fingerprint, ``_fingerprint``)."""
        days = [w for w in windows if w.day is not None]
        if self.disk is None or len(days) < 2:
            return
        token = self.watch.token(self._source)  # before anything is read
        source = self._open(token)
        rows_hashed = getattr(source, "fingerprint_reads_rows", False)
        if not (rows_hashed and callable(getattr(source, "fingerprints", None))):
            return
        fps: list[str | None] = []
        served = compile_windows_cached(source, days, options, self.disk, fps)
        if self.watch.token(source) != token:  # a commit meanwhile: not the docs' rows
            fps = []
        for window, (doc, _), fp in zip(days, served, fps or [None] * len(days), strict=True):
            self.stats["compiled"] += 1
            self._keep(_key(window, options), _Entry(token, None, doc), window).rows_fp = fp

    def _rows_fps(self, token: Hashable, windows: list[Window]) -> list[str | None] | None:
        """In the worker thread only: the windows' rows' fingerprints at once (screenpipe-
        style stores); None when it cannot, or a commit moved its token meanwhile."""
        source = self._open(token)
        batch = getattr(source, "fingerprints", None)
        if not (getattr(source, "fingerprint_reads_rows", False) and callable(batch)):
            return None
        found = batch([(w.start_ms, w.end_ms) for w in windows])
        if not isinstance(found, list) or len(found) != len(windows):
            return None
        return found if self.watch.token(source) == token else None

    def _recheck(self, windows: Sequence[Window], options: Options) -> None:
        """In the worker thread only: kept whole days the store's token moved past, checked
        at once by their rows' fingerprints (one batched look, not a read of every day): a
        day whose rows give its document's fingerprint is served; others go to ``_entry``."""
        token = self.watch.token(self._source)
        if token is None:
            return
        kept = self._kept_days(windows, options)
        stale = [(e, w) for e, w in kept if e.rows_fp is not None and e.token != token]
        if len(stale) < 2:  # one day: _entry's own checks (a tail read) cost no more
            return
        found = self._rows_fps(token, [w for _, w in stale])
        for (entry, _), fp in zip(stale, found or (), strict=False):
            if fp is not None and fp == entry.rows_fp:
                entry.token = token
                self.stats["fingerprint"] += 1
            elif fp is not None:  # its rows changed: noted again once it is served
                entry.rows_fp = None

    def _note_rows(self, windows: Sequence[Window], options: Options) -> None:
        """In the worker thread only: the rows' fingerprints of whole days just served, at
        the token they were served at (their documents' rows), for ``_recheck``."""
        token = self.watch.token(self._source)
        if token is None:
            return
        kept = self._kept_days(windows, options)
        need = [(e, w) for e, w in kept if e.rows_fp is None and e.token == token]
        found = self._rows_fps(token, [w for _, w in need]) if need else None
        for (entry, _), fp in zip(need, found or (), strict=False):
            if isinstance(fp, str):
                entry.rows_fp = fp

    def _kept_days(self, windows: Sequence[Window], opts: Options) -> list[tuple[_Entry, Window]]:
        pairs = ((self._entries.get(_key(w, opts)), w) for w in windows if w.day is not None)
        return [(e, w) for e, w in pairs if e is not None]

    def _keep(self, key: Hashable, entry: _Entry, window: Window) -> _Entry:
        if window.day is None:  # not a whole day: another window at the next call
            return entry
        if entry.tail is not None:  # one capture kept in memory: the latest compiled
            for other in self._entries.values():
                other.tail = None
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
        return entry

    def _open(self, token: Hashable) -> Source:
        """The held source; opened afresh when the store's file is another one, when a
        file read whole (an export) changed, or when an ActivityWatch store may have: its
        readers list the buckets (and each one's longest event) when opened, and a commit
        may add a bucket or lengthen an event (a running server: at every call)."""
        moved = token is None or token != self._source_token
        stale = self._source is not None and (
            _identity(token) != _identity(self._source_token)
            or (isinstance(token, tuple) and token[:1] == ("stat",) and moved)
            or (moved and self._source.kind == "activitywatch")
        )
        if stale and self._source is not None:
            self._source.close()
            self._source = None
        if self._source is None:
            self._source = open_source(self.path, self.kind, audible_active=self.audible_active)
        self._source_token = token
        return self._source


def _key(window: Window, options: Options) -> Hashable:
    return (window.start_ms, window.end_ms, window.tz, window.day, options)


def _identity(token: Hashable) -> Hashable:
    """The file a token names (SQLite tokens: device and inode)."""
    if isinstance(token, tuple) and token[:1] == ("sqlite",):
        ident: Hashable = token[1]
        return ident
    return None


def _fingerprint(source: Source, window: Window) -> str | None:
    # Only fingerprints from change counters: one hashed from the rows (screenpipe-style)
    # costs a good part of a read, and after a change token moved, today (the window
    # asked most) has changed.
    if getattr(source, "fingerprint_reads_rows", False):
        return None
    method = getattr(source, "fingerprint", None)
    found = method(window.start_ms, window.end_ms) if callable(method) else None
    return found if isinstance(found, str) else None
