"""The recorder's rows: the store it opens, the transaction it keeps, and every row it
writes (snapshots, merged input runs, AFK periods, elements, session states).

Durability: every write goes into an open transaction that is committed at least every
``COMMIT_MS`` while anything is pending (and always before a call that might block), so
an event is on disk well within a second of happening. The store is SQLite in WAL mode
with ``synchronous=NORMAL``: a killed process (SIGKILL) loses only the uncommitted tail
and never corrupts the file.
"""

from __future__ import annotations

import contextlib
import errno
import socket
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..errors import ActframesError
from . import retention
from .config import RecorderConfig
from .focus import Seen
from .idle import AfkEnded, AfkStarted
from .policy import View
from .store import StoreVersionError, open_store
from .xrecord import CLICK, Press

COMMIT_MS = 500  # pending rows are committed at least this often
RUN_MERGE_MS = 1_000  # keys (or scrolls) within this of a row's first one join that row
AFK_UPDATE_MS = 1_000  # an open AFK period's end is moved forward (and committed) this often


class StoreWriteError(ActframesError):
    """The store cannot be written (read-only, full disk, I/O error)."""


@dataclass
class _Run:
    """Input presses of one kind in one app, merged into one row."""

    ts_ms: int
    kind: str
    app: str
    count: int = 1
    x: int | None = None
    y: int | None = None


@dataclass
class Stats:
    snapshots: int = 0
    events: int = 0
    afk: int = 0
    elements: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


class RowWriter:
    """The store side of the recorder: one connection, one open transaction, the rows."""

    BACKEND = "x11"
    display: str

    def __init__(
        self,
        db: Path,
        config: RecorderConfig,
        clock: Callable[[], int],
        log: Callable[[str], None],
    ) -> None:
        self.db = db
        self.cfg = config
        self.clock = clock
        self._log = log
        self.stats = Stats()
        self._conn: sqlite3.Connection | None = None
        self._pending = False
        self._last_commit = 0
        self._runs: list[_Run] = []
        self._afk_row: int | None = None
        self._elements_job: tuple[Future[Any], int, int] | None = None
        self._last_snapshot_ts = 0

    def log(self, message: str) -> None:
        self._log(message)

    # ------------------------------------------------------------------ the store

    def _open_store(self) -> sqlite3.Connection:
        try:
            conn = open_store(self.db)
            conn.execute("PRAGMA busy_timeout=2000")
            with conn:
                for key, value in (
                    ("recorder", f"actframes {__version__} {self.BACKEND}"),
                    ("host", socket.gethostname()),
                    ("display", self.display),
                ):
                    conn.execute(
                        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)
                    )
        except StoreVersionError as exc:
            raise StoreWriteError(f"{self.db}: {exc}") from exc
        except (sqlite3.Error, OSError) as exc:
            raise StoreWriteError(_store_problem(self.db, exc)) from exc
        return conn

    def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        assert self._conn is not None
        try:
            cur = self._conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise StoreWriteError(_store_problem(self.db, exc)) from exc
        self._pending = True
        return int(cur.lastrowid or 0)

    def _commit(self, now: int, force: bool = False) -> None:
        if self._conn is None:
            return
        if not force:
            since = now - self._last_commit
            # An open AFK period's end moves forward at least every second, so a kill
            # shortens it by at most that.
            afk_due = self._afk_row is not None and since >= AFK_UPDATE_MS
            if not afk_due and (not (self._pending or self._runs) or since < COMMIT_MS):
                return
        self._flush_runs()
        if self._afk_row is not None:
            self._exec("UPDATE afk SET end_ms = ? WHERE id = ?", (max(now, 0), self._afk_row))
        try:
            self._conn.commit()
        except sqlite3.Error as exc:
            raise StoreWriteError(_store_problem(self.db, exc)) from exc
        self._pending = False
        self._last_commit = now

    def _state(self, ts: int, state: str, detail: str = "") -> None:
        self._exec(
            "INSERT INTO recorder_state (ts_ms, state, detail) VALUES (?,?,?)", (ts, state, detail)
        )

    def _prune(self) -> None:
        assert self._conn is not None
        self._commit(self.clock(), force=True)
        cut = retention.cutoff_ms(self.clock(), self.cfg.keep_days)
        try:
            deleted = retention.prune(self._conn, cut)
        except sqlite3.Error as exc:
            raise StoreWriteError(_store_problem(self.db, exc)) from exc
        total = sum(deleted.values())
        if total:
            self.log(f"retention: deleted {total} rows older than {self.cfg.keep_days} days")

    def _salvage(self, why: str) -> None:
        """The session ended under us: keep what was recorded (it is sound), say why."""
        now = self.clock()
        with contextlib.suppress(ActframesError, sqlite3.Error):
            if self._afk_row is not None:
                self._end_afk(now)
            self._state(now, "error", why)
            self._commit(now, force=True)

    # ------------------------------------------------------------------ input runs

    def _add_press(self, p: Press, app: str) -> None:
        self.stats.events += 1
        last = self._runs[-1] if self._runs else None
        if (
            p.kind != CLICK
            and last is not None
            and last.kind == p.kind
            and last.app == app
            and p.ts_ms - last.ts_ms < RUN_MERGE_MS
        ):
            last.count += 1
            return
        self._runs.append(_Run(p.ts_ms, p.kind, app, 1, p.x, p.y))
        self._pending = True

    def _flush_runs(self) -> None:
        if not self._runs or self._conn is None:
            return
        try:
            self._conn.executemany(
                "INSERT INTO input_events (ts_ms, kind, count, device, app, x, y)"
                " VALUES (?,?,?,NULL,?,?,?)",
                [(r.ts_ms, r.kind, r.count, r.app, r.x, r.y) for r in self._runs],
            )
        except sqlite3.Error as exc:
            raise StoreWriteError(_store_problem(self.db, exc)) from exc
        self._runs.clear()
        self._pending = True

    # ------------------------------------------------------------------ AFK periods

    def _afk_step(self, step: AfkStarted | AfkEnded | None, now: int) -> None:
        if isinstance(step, AfkStarted):
            self._afk_row = self._exec(
                "INSERT INTO afk (start_ms, end_ms) VALUES (?, ?)",
                (step.start_ms, max(now, step.start_ms + 1)),
            )
            self.stats.afk += 1
        elif isinstance(step, AfkEnded):
            self._end_afk(step.end_ms)

    def _end_afk(self, end_ms: int) -> None:
        if self._afk_row is not None:
            self._exec("UPDATE afk SET end_ms = ? WHERE id = ?", (end_ms, self._afk_row))
            self._afk_row = None

    # ------------------------------------------------------------------ snapshots, elements

    def _write_snapshot(self, ts: int, view: View, reason: str, seen: Seen | None) -> int:
        info = seen.info if seen is not None and seen.recordable else None
        row = self._exec(
            "INSERT INTO snapshots (ts_ms, device, app, title, url, reason, window, exe, monitor)"
            " VALUES (?,?,?,?,?,?,?,?,?)",
            (
                ts,
                "",
                view.app,
                view.title,
                view.url,
                reason,
                f"0x{info.window:x}" if info is not None else None,
                info.exe if info is not None else None,
                seen.monitor if seen is not None and info is not None else None,
            ),
        )
        self._last_snapshot_ts = ts
        self.stats.snapshots += 1
        self.stats.reasons[reason] = self.stats.reasons.get(reason, 0) + 1
        return row

    def _start_elements(self, a11y: Any, seen: Seen, snap_id: int, ts: int) -> None:
        if self._elements_job is not None or seen.info is None:
            return  # one inspection at a time; the next snapshot will try again
        fut = a11y.inspect_async(
            seen.info.pid, seen.info.title, elements=True, url=False, bounds=seen.box
        )
        if fut is not None:
            self._elements_job = (fut, snap_id, ts)

    def _collect_elements(self) -> None:
        if self._elements_job is None:
            return
        fut, snap_id, ts = self._elements_job
        if not fut.done():
            return
        self._elements_job = None
        try:
            found = fut.result()
        except Exception:
            return
        # Elements of a frame that is only a guess (the app's active window, not surely
        # this one) are not kept.
        if found is None or not found.matched or not found.elements:
            return
        assert self._conn is not None
        rules = self.cfg.privacy
        ids: list[int] = []
        for e in found.elements:
            parent = ids[e.parent] if e.parent is not None and e.parent < len(ids) else None
            # A background tab or a list entry can name something excluded: such a name
            # is dropped, the element keeps its role and place.
            name = "" if rules.title_excluded(e.name) or rules.is_private(e.name) else e.name
            ids.append(
                self._exec(
                    "INSERT INTO elements (snapshot_id, ts_ms, parent, depth, role, name,"
                    " x, y, w, h) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (snap_id, ts, parent, e.depth, e.role, name, e.x, e.y, e.w, e.h),
                )
            )
        self.stats.elements += len(ids)


def _store_problem(path: Path, exc: BaseException) -> str:
    """One line naming the store and the cause, in words a user can act on."""
    text = str(exc).strip() or type(exc).__name__
    if isinstance(exc, OSError) and exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"cannot write the store {path}: {exc.strerror} (read-only location?)"
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"cannot write the store {path}: the disk is full"
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        return f"cannot write the store {path}: {text} (read-only location?)"
    if "disk is full" in low:
        return f"cannot write the store {path}: the disk is full"
    if "unable to open" in low:
        return (
            f"cannot open the store {path} for writing: {text} "
            "(missing folder, read-only, or full disk?)"
        )
    return f"cannot write the store {path}: {text}"
