"""The library's public surface; the CLI, the MCP server, the demo and the benches are
thin shells over it.

``open_store(path)`` gives a ``Store``: a store held open for reading (a context manager)
that compiles windows (``window.resolve`` makes them), the communications view, steps,
patterns and routines. A one-shot command opens it, asks once and closes it; a long-lived
process opens it ``resident=True`` and is served warm documents (``resident.py``) while
the store does not change for the window asked.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from .sources import Source, open_source
from .window import Window, day_window, span_window

if TYPE_CHECKING:
    from concurrent.futures import Future

    from .cache import DocCache
    from .classify.ruleset import RuleSet
    from .compile.document import Doc
    from .compile.pipeline import Options, compile_capture
    from .doc_types import CommsView
    from .emit.context import to_context
    from .emit.context_parse import parse_context
    from .emit.json_out import to_json
    from .emit.markdown import to_markdown
    from .emit.yaml_out import to_yaml
    from .model import Capture
    from .resident import ResidentCache
    from .resident_routines import ResidentRoutines
    from .routines.mine import Rules
    from .routines.store_mining import Mining
    from .verify import Report

# Emitters load on first use, so a command that prints JSON never imports the rest; the
# compiler too, so that ``day`` can load it while the store's rows are being read.
_LAZY = {
    "Options": ".compile.pipeline",
    "compile_capture": ".compile.pipeline",
    "to_json": ".emit.json_out",
    "to_yaml": ".emit.yaml_out",
    "to_markdown": ".emit.markdown",
    "to_context": ".emit.context",
    "parse_context": ".emit.context_parse",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def compile_window(source: Source, window: Window, options: Options | None = None) -> Doc:
    """The Tier-1 document for any window of a source."""
    from .compile.pipeline import compile_capture
    from .sources.base import reading

    with reading(source.path):
        cap = source.read(window.start_ms, window.end_ms)
    return compile_capture(cap, window, options)


def compile_comms(source: Source, window: Window, options: Options | None = None) -> CommsView:
    """The communications view of a window (``compile/comms.py``)."""
    from .compile.comms import communications
    from .compile.pipeline import compile_pieces

    cap = source.read(window.start_ms, window.end_ms)
    doc, frames = compile_pieces(cap, window, options)
    return communications(doc, frames)


def compile_day(source: Source, day: str, tz: str, options: Options | None = None) -> Doc:
    """The Tier-1 document for one local calendar day (23 or 25 hours across DST)."""
    return compile_window(source, day_window(day, tz), options)


def compile_path(path: str | Path, day: str, tz: str, options: Options | None = None) -> Doc:
    """Open, compile one day, close."""
    with open_store(path, disk_cache=False) as store:
        return store.compile(day_window(day, tz), options)


class Store:
    """A store opened for reading, and what the library answers from it.

    Documents of whole days go through the document cache on disk (``cache.py``) unless
    ``disk_cache`` is off; with ``resident`` they are kept in memory too and served while
    the store shows no change for the window (``resident.py``: for a server, a notebook,
    anything that asks more than once). The store's file is opened on first use and
    closed by ``close()`` or the end of a ``with`` block. A one-shot store belongs to the
    thread that asks it (SQLite objects stay in their thread); a resident store's reads
    run in its cache's own thread, so it may be asked from any thread. ``audible_active``
    (ActivityWatch only) is ``sources.open_source``'s, for every read of the store.
    """

    def __init__(
        self,
        path: str | Path,
        kind: str | None = None,
        *,
        disk_cache: bool = True,
        resident: bool = False,
        audible_active: bool = True,
        projects: Path | None = None,
        categories: Path | None = None,
    ) -> None:
        from .sources.screenpipe.storage import store_path
        from .store_rules import StoreRules

        self.path, self.kind = store_path(path, kind), kind  # a migrated store: its index
        self.audible_active = audible_active
        self.rules = StoreRules(projects, categories)
        self.disk: DocCache | None = _disk_cache() if disk_cache else None
        self._source: Source | None = None
        self._resident: ResidentCache | None = None
        if resident:
            from .resident import ResidentCache

            self._resident = ResidentCache(
                self.path, kind, self.disk, audible_active=audible_active
            )
        self._kept: ResidentRoutines | None = None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def rule_set(self) -> RuleSet:
        """The project and category rules this store's documents use (``store_rules``)."""
        return self.rules.rules(self._reading)

    @property
    def resident(self) -> ResidentCache | None:
        """The documents kept in memory (None unless opened ``resident``)."""
        return self._resident

    def compile(self, window: Window, options: Options | None = None, *, cache: bool = True) -> Doc:
        """The Tier-1 document of ``window``. ``cache=False`` compiles it afresh from the
        rows, neither reading nor writing a cache (``--no-cache``)."""
        options = self.rules.options(options, self._reading)
        if cache and self._resident is not None:
            return self._resident.document(window, options)
        from .cache import compile_window_cached
        from .sources.base import reading

        disk = self.disk if cache and window.day is not None else None
        with self._reading() as src, reading(src.path):
            doc, _ = compile_window_cached(src, window, options, disk)
        return doc

    def compile_many(self, windows: Sequence[Window], options: Options | None = None) -> list[Doc]:
        """``[compile(w, options) for w in windows]``, the windows' fingerprints taken at
        once first (``cache.compile_windows_cached``)."""
        options = self.rules.options(options, self._reading)
        if self._resident is not None:
            return self._resident.documents(windows, options)
        if self.disk is None or any(w.day is None for w in windows):
            return [self.compile(w, options) for w in windows]
        from .cache import compile_windows_cached
        from .sources.base import reading

        with self._reading() as src, reading(src.path):
            return [doc for doc, _ in compile_windows_cached(src, windows, options, self.disk)]

    def render(
        self, window: Window, options: Options | None, how: Hashable, make: Callable[[Doc], Any]
    ) -> Any:
        """``make(document)`` (a context block at a budget, say); a resident store keeps it
        with the document under ``how`` and makes it again only when the document is."""
        options = self.rules.options(options, self._reading)
        if self._resident is not None:
            return self._resident.render(window, options, how, make)
        return make(self.compile(window, options))

    def render_future(
        self, window: Window, options: Options | None, how: Hashable, make: Callable[[Doc], Any]
    ) -> Future[Any]:
        """``render`` as a future: a resident store's runs in its cache's thread (awaited
        by an event loop); a one-shot store's is made here and returned done."""
        options = self.rules.options(options, self._reading)
        if self._resident is not None:
            return self._resident.render_future(window, options, how, make)
        return _done(lambda: self.render(window, options, how, make))

    def render_many(
        self,
        windows: Sequence[Window],
        options: Options | None,
        how: Hashable,
        make: Callable[[list[Doc]], Any],
    ) -> Future[Any]:
        """``make(documents)`` of several windows (a period's days), as ``render_future``."""
        options = self.rules.options(options, self._reading)
        if self._resident is not None:
            return self._resident.render_many_future(windows, options, how, make)
        return _done(lambda: make(self.compile_many(windows, options)))

    def read(self, window: Window) -> Capture:
        """The window's rows as the compiler reads them (evidence rows, reports)."""
        from .sources.base import reading

        with self._reading() as src, reading(src.path):
            return src.read(window.start_ms, window.end_ms)

    def read_and_compile(
        self, window: Window, options: Options | None = None
    ) -> tuple[Capture, Doc]:
        """The window's rows and their document, the rows read once (no cache)."""
        from .compile.pipeline import compile_capture
        from .sources.base import reading

        options = self.rules.options(options, self._reading)
        with self._reading() as src, reading(src.path):
            cap = src.read(window.start_ms, window.end_ms)
        return cap, compile_capture(cap, window, options)

    def comms(self, window: Window, options: Options | None = None) -> CommsView:
        """The communications view of a window (``compile/comms.py``), read afresh."""
        from .sources.base import reading

        options = self.rules.options(options, self._reading)
        with self._reading() as src, reading(src.path):
            return compile_comms(src, window, options)

    def verify(self, doc: Doc) -> Report:
        """``doc`` audited against the store's rows now (``verify.py``, SPEC §3a)."""
        from .sources.base import reading
        from .verify import verify

        with self._reading() as src, reading(src.path):
            return verify(doc, src, self.rule_set())

    def steps(
        self,
        tz: str,
        frame_id: str,
        day: str | None = None,
        include_text: bool = False,
        layout: str | None = None,
    ) -> tuple[str, list[dict[str, Any]]]:
        """(the frame's local day, its rendered steps in order) (``steps/store_queries.py``)."""
        from .steps.store_queries import steps_of_frame

        aa = self.audible_active
        return steps_of_frame(
            self.path, self.kind, tz, frame_id, day, include_text, layout, audible_active=aa
        )

    def find(self, tz: str, query: str, day: str, limit: int = 10) -> list[dict[str, Any]]:
        """The frames of one local day matching ``query``, best first."""
        from .steps.store_queries import find_in_day

        return find_in_day(
            self.path, self.kind, tz, query, day, limit, audible_active=self.audible_active
        )

    def patterns(
        self,
        tz: str,
        days: int,
        last: str,
        include_text: bool = False,
        layout: str | None = None,
    ) -> tuple[str, list[dict[str, Any]]]:
        """(first day, the measured patterns of the ``days`` local days up to ``last``)."""
        from .steps.store_queries import patterns_over

        aa = self.audible_active
        return patterns_over(
            self.path, self.kind, tz, days, last, include_text, layout, audible_active=aa
        )

    def routines(
        self,
        tz: str,
        start_ms: int,
        end_ms: int,
        rules: Rules,
        include_text: bool = False,
        stage: Callable[[str], None] | None = None,
    ) -> Mining:
        """Routines mined from the steps of [start_ms, end_ms), the days' steps kept
        (``resident_routines``): only the days that changed are read again."""
        return self.routines_kept.mining(tz, start_ms, end_ms, rules, include_text, stage)

    @property
    def routines_kept(self) -> ResidentRoutines:
        if self._kept is None:
            from .day_steps_cache import DayStepsCache
            from .resident_routines import ResidentRoutines

            resident = self._resident
            token = resident.store_token if resident is not None else lambda: None
            disk = DayStepsCache(self.disk.root.parent) if self.disk is not None else None
            self._kept = ResidentRoutines(
                self.path, self.kind, token, disk=disk, audible_active=self.audible_active
            )
        return self._kept

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
        if self._resident is not None:
            self._resident.close()
            self._resident = None

    @contextmanager
    def _reading(self) -> Iterator[Source]:
        """The open source. A one-shot store holds one; a resident store's own reads run
        in its cache's thread, so other reads open the file afresh and close it after."""
        if self._resident is not None:
            with open_source(self.path, self.kind, audible_active=self.audible_active) as src:
                yield src
            return
        if self._source is None:
            self._source = open_source(self.path, self.kind, audible_active=self.audible_active)
        yield self._source


def open_store(
    path: str | Path,
    kind: str | None = None,
    *,
    disk_cache: bool = True,
    resident: bool = False,
    audible_active: bool = True,
    projects: Path | None = None,
    categories: Path | None = None,
) -> Store:
    """Open a store for reading (``kind`` forces a reader; default: detected).

    The file is checked and opened at the first question, so a missing or foreign file is
    a one-line ``SourceError`` then. ``disk_cache``: whole days through the document cache
    ($ACTFRAMES_CACHE, "off" disables it); ``resident``: keep documents in memory;
    ``audible_active`` (ActivityWatch only): audible browser tabs count as active time, as
    ActivityWatch's web UI counts them (the CLI's --no-audible-active turns it off);
    ``projects``, ``categories``: rule files (SPEC.md §3b, ``store_rules.py``).
    """
    kw = {"disk_cache": disk_cache, "resident": resident, "audible_active": audible_active}
    return Store(path, kind, **kw, projects=projects, categories=categories)


def _done(call: Callable[[], Any]) -> Future[Any]:
    """A future done with ``call()``'s value or error (concurrent.futures imported only
    here: ~10 ms of a one-shot command's start)."""
    from concurrent.futures import Future

    done: Future[Any] = Future()
    try:
        done.set_result(call())
    except Exception as exc:
        done.set_exception(exc)
    return done


def _disk_cache() -> DocCache | None:
    from .cache import DocCache, default_cache_dir

    root = default_cache_dir()
    return DocCache(root) if root else None


__all__ = [
    "Options",
    "Store",
    "Window",
    "compile_capture",
    "compile_comms",
    "compile_day",
    "compile_path",
    "compile_window",
    "day_window",
    "open_source",
    "open_store",
    "parse_context",
    "span_window",
    "to_context",
    "to_json",
    "to_markdown",
    "to_yaml",
]
