"""A cache of compiled documents.

One file per (store, window, zone, options, compiler version), holding the document, the
digest of the rows it was compiled from and the store's fingerprint for the window. A
store that keeps change counters (the native store, from schema 3) answers "has anything
in this window changed?" without reading a row; a screenpipe-style store by a hash of the
window's raw rows, made in SQLite before anything is parsed. When the fingerprint
matches, the document is served at once. Otherwise the rows are read and digested; when
the digest matches, the stored document is served and nothing is recompiled. A
fingerprint is looked up, and stored with a document, only when no commit landed from
before it was taken until the rows were read (``_fingerprint``). Writes go to a temporary
file that replaces the old one atomically, so a crash mid-write leaves either the old
entry or the new one, never a torn file; an unreadable entry is treated as absent.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from . import __version__
from .atomic_write import write_json_atomically
from .fast.fasthash import sha256
from .sources import Source
from .window import Window

if TYPE_CHECKING:  # the compiler loads when used: ``day`` loads it while rows are read
    from .compile.document import Doc
    from .compile.pipeline import Options


def default_cache_dir() -> Path | None:
    """$ACTFRAMES_CACHE (a folder, or "off"), else $XDG_CACHE_HOME/actframes."""
    env = os.environ.get("ACTFRAMES_CACHE")
    if env:
        return None if env.lower() in ("off", "0", "no", "false") else Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "actframes"


class DocCache:
    def __init__(self, root: Path) -> None:
        self.root = root / "docs"

    def entry(self, source: Source, window: Window, options: Options) -> Path:
        from .entities import rules_digest

        ident = json.dumps(
            [
                str(Path(source.path).resolve()),
                source.kind,
                window.start_ms,
                window.end_ms,
                window.tz,
                window.day,
                options.min_active_s,
                [
                    options.rules.dwell_cap_ms,
                    options.rules.session_gap_ms,
                    options.rules.flicker_ms,
                ],
                __version__,
                rules_digest(),  # page references depend on the entity rules
                options.classify.digest,  # projects and categories on theirs
            ]
        )
        return self.root / (sha256(ident.encode()).hexdigest()[:32] + ".json")

    def get(
        self, path: Path, digest: str | None = None, fingerprint: str | None = None
    ) -> Doc | None:
        """The stored document when its digest (or, if given, fingerprint) matches."""
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(stored, dict):
            return None
        if fingerprint is not None:
            if stored.get("fingerprint") != fingerprint:
                return None
        elif digest is None or stored.get("digest") != digest:
            return None
        doc = stored.get("doc")
        # The boundary where a document comes back from disk: an entry this cache wrote
        # from a compiled document, served only for the digest or fingerprint it was made
        # from, so its shape is the compiler's (an unreadable entry counts as absent).
        return cast("Doc", doc) if isinstance(doc, dict) else None

    def put(self, path: Path, digest: str, doc: Doc, fingerprint: str | None = None) -> None:
        entry = {"digest": digest, "fingerprint": fingerprint, "doc": doc}
        write_json_atomically(path, entry, durable=True)

    def clear(self) -> int:
        n = 0
        if self.root.is_dir():
            for p in self.root.iterdir():
                if p.suffix == ".json" or p.name.startswith(".tmp-"):
                    p.unlink(missing_ok=True)
                    n += 1
        return n

    def stats(self) -> dict[str, Any]:
        files = [p for p in self.root.glob("*.json")] if self.root.is_dir() else []
        return {
            "path": str(self.root),
            "entries": len(files),
            "bytes": sum(p.stat().st_size for p in files),
        }


def compile_window_cached(
    source: Source, window: Window, options: Options | None, cache: DocCache | None
) -> tuple[Doc, bool]:
    """The document for the window, and whether it came from the cache."""
    if cache is None:
        cap = source.read(window.start_ms, window.end_ms)
        from .compile.pipeline import compile_capture  # loaded while the rows were read, if asked

        return compile_capture(cap, window, options), False
    from .compile.pipeline import Options

    seen = _commits_seen(source)
    return _served(
        source, window, options or Options(), cache, seen, _fingerprint(source, window, seen)
    )


def compile_windows_cached(
    source: Source,
    windows: Sequence[Window],
    options: Options | None,
    cache: DocCache | None,
    taken: list[str | None] | None = None,
) -> list[tuple[Doc, bool]]:
    """``[compile_window_cached(source, w, options, cache) for w in windows]``: the same
    documents and cache entries, with every window's fingerprint taken first, at once,
    where the store can (``fingerprints``: a screenpipe-style store's on two connections
    side by side). The batch is taken under one commit mark, as one window's fingerprint
    is: a window whose fingerprint the batch could not give (a commit landed meanwhile)
    is served one by one. ``taken`` receives the fingerprints."""
    batch = getattr(source, "fingerprints", None)
    if cache is None or len(windows) < 2 or not callable(batch):
        return [compile_window_cached(source, w, options, cache) for w in windows]
    from .compile.pipeline import Options

    opts = options or Options()
    seen = _commits_seen(source)
    found = batch([(w.start_ms, w.end_ms) for w in windows]) if seen is not None else None
    if not isinstance(found, list) or len(found) != len(windows) or _commits_seen(source) != seen:
        found = [None] * len(windows)
    if taken is not None:  # the fingerprints, for a caller that keeps them (``resident``)
        taken[:] = found
    return [
        _served(source, w, opts, cache, seen, fp)
        if isinstance(fp, str)
        else compile_window_cached(source, w, opts, cache)
        for w, fp in zip(windows, found, strict=True)
    ]


def _served(
    source: Source,
    window: Window,
    opts: Options,
    cache: DocCache,
    seen: int | None,
    fingerprint: str | None,
) -> tuple[Doc, bool]:
    """The window's document from ``cache``, else compiled and kept. ``fingerprint`` was
    taken with the store's commit mark at ``seen`` and none landed until it was taken
    (``_fingerprint``); it is stored beside the document only if none landed until the
    rows were read either."""
    from .compile.pipeline import compile_capture
    from .compile.provenance import capture_digest

    entry = cache.entry(source, window, opts)
    if fingerprint is not None:
        hit = cache.get(entry, fingerprint=fingerprint)
        if hit is not None:
            return hit, True
    cap = source.read(window.start_ms, window.end_ms)
    if fingerprint is not None and _commits_seen(source) != seen:
        # A commit landed between the fingerprint and the read: the rows read may be
        # newer than the fingerprinted ones, so the document is kept by digest only.
        fingerprint = None
    digest = capture_digest(cap)
    hit = cache.get(entry, digest=digest)
    if hit is not None:
        if fingerprint is not None:  # the entry learns the new fingerprint
            cache.put(entry, digest, hit, fingerprint)
        return hit, True
    doc = compile_capture(cap, window, opts, digest=digest)
    cache.put(entry, digest, doc, fingerprint)
    return doc, False


def _fingerprint(source: Source, window: Window, seen: int | None) -> str | None:
    """The window's fingerprint, if the store keeps one and no commit landed while it
    was taken (``seen``: the store's commit mark before).

    Why a commit mark and not one read transaction around fingerprint and read: the
    screenpipe reader reads its events on a second connection, which no transaction of
    the first one covers; and in rollback-journal mode a read transaction held through
    a whole read keeps the recorder from committing meanwhile. Why not the fingerprint
    taken again after the read: a raw-row fingerprint (screenpipe) is equal again when
    an edit made during the read is undone, whereas ``PRAGMA data_version`` never goes
    back (``sources.base.data_version``). A source without a commit mark gets no
    fingerprint used: the digest of the rows read is always sound."""
    method = getattr(source, "fingerprint", None)
    if seen is None or not callable(method):
        return None
    found = method(window.start_ms, window.end_ms)
    if not isinstance(found, str) or _commits_seen(source) != seen:
        return None
    return found


def _commits_seen(source: Source) -> int | None:
    """The store's commit mark (``commits_seen``: SQLite readers), None without one."""
    method = getattr(source, "commits_seen", None)
    found = method() if callable(method) else None
    return found if isinstance(found, int) else None
