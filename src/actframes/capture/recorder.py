"""The X11 recorder's loop: watch the focused window, count input, mark AFK, write rows.

One thread owns the store and the main X connection; XRecord counts input in a second
thread and AT-SPI runs in a third (its own asyncio loop). The main thread sleeps in
``select`` on the X connection and a signal pipe, so it wakes for focus and title changes
as they happen and otherwise a few times a second to drain input counts.

Durability: every write goes into an open transaction that is committed at least every
``COMMIT_MS`` while anything is pending (and always before a call that might block), so
an event is on disk well within a second of happening. The store is SQLite in WAL mode
with ``synchronous=NORMAL``: a killed process (SIGKILL) loses only the uncommitted tail
and never corrupts the file. SIGTERM, SIGINT and SIGHUP flush, write a ``[stopped]``
marker row and exit 0.

Privacy: the focused window is checked against the privacy rules *before* anything about
it is written; an excluded or private window becomes a placeholder row (``[excluded]``,
``[private]``) with no title, URL, window id, executable, input counts or elements.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import select
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, Protocol, TextIO

import Xlib.error

from .. import __version__
from ..errors import ActframesError
from . import retention
from .browser import browser_kind, devtools_url
from .config import RecorderConfig
from .idle import AfkEnded, AfkStarted, IdleTracker
from .policy import Decision, SnapshotPolicy, View
from .privacy import EXCLUDED
from .store import StoreVersionError, open_store
from .x11 import SessionError, WindowInfo, X11Screen, session_check
from .xrecord import CLICK, KEY, InputCounter, Press

COMMIT_MS = 500  # pending rows are committed at least this often
TICK_MS = 250  # longest sleep while input may be pending
IDLE_POLL_MS = 1_000  # how often the X server's idle counter is read
URL_POLL_MS = 2_000  # how often a focused browser's address is re-read
PAUSE_POLL_MS = 1_000  # how often the pause flag is looked at (SIGUSR1 wakes sooner)
RETENTION_EVERY_MS = 3_600_000  # how often --keep-days prunes while running
RUN_MERGE_MS = 1_000  # keys (or scrolls) within this of a row's first one join that row
AFK_UPDATE_MS = 1_000  # an open AFK period's end is moved forward (and committed) this often
UNRESOLVED_MAX_MS = 3_000  # how long a Chromium window may wait for its accessible frame
NO_WINDOW_SETTLE_MS = 500  # "no focused window" must last this long to be written
X_IDLE_JITTER_MS = 250  # the X idle counter must move by more than this to count as input

EXCLUDED_APP = "[excluded]"
PRIVATE_APP = "[private]"
PAUSED_APP = "[paused]"
STOPPED_APP = "[stopped]"
NONE_APP = "[none]"
WAYLAND_APP = "[wayland]"
PLACEHOLDERS = frozenset(
    (EXCLUDED_APP, PRIVATE_APP, PAUSED_APP, STOPPED_APP, NONE_APP, WAYLAND_APP)
)


class PressCounter(Protocol):
    """What the loop needs of an input counter (XRecord on X11, evdev on Wayland)."""

    last_input_ms: int
    failed: str | None
    wake_wanted: bool

    def drain(self) -> list[Press]: ...

    def alive(self) -> bool: ...

    def stop(self, timeout: float = 1.0) -> None: ...


class StoreWriteError(ActframesError):
    """The store cannot be written (read-only, full disk, I/O error)."""


class AlreadyRunning(ActframesError):
    pass


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class Seen:
    """The focused window as the recorder sees it, after the privacy rules."""

    view: View
    since_ms: int
    info: WindowInfo | None = None  # None for placeholders
    monitor: str | None = None
    browser: str | None = None
    private: bool = False  # excluded or private: nothing about it is written
    # A Chromium window whose accessible frame is not found yet: whether it is incognito
    # is unknown, so nothing is written (and no input counted) until it is, for a while.
    unresolved: bool = False
    box: tuple[int, int, int, int] | None = None

    @property
    def recordable(self) -> bool:
        return not self.private and not self.unresolved and self.view.app not in PLACEHOLDERS


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


class Recorder:
    BACKEND = "x11"

    def __init__(
        self,
        db: Path,
        config: RecorderConfig,
        *,
        display: str | None = None,
        state_dir: Path | None = None,
        log: Callable[[str], None] | None = None,
        clock: Callable[[], int] = now_ms,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db = db
        self.cfg = config
        self.env = dict(os.environ if env is None else env)
        self.display = display or self.env.get("DISPLAY", "")
        self.state_dir = state_dir
        self._log = log or _stderr_log
        self.clock = clock
        self.stats = Stats()
        self._stop = False
        self._stop_signal = ""
        self._check_pause = True
        self._conn: sqlite3.Connection | None = None
        self._pending = False
        self._last_commit = 0
        self._runs: list[_Run] = []
        self._afk_row: int | None = None
        self._elements_job: tuple[Future[Any], int, int] | None = None
        self._pidfile: TextIO | None = None
        self._policy = SnapshotPolicy(heartbeat_ms=config.heartbeat_ms)
        self._last_snapshot_ts = 0
        self._seen: Seen | None = None
        self._prev: Seen | None = None
        self._wayland = False
        self.paused = False

    # ------------------------------------------------------------------ logging

    def log(self, message: str) -> None:
        self._log(message)

    # ------------------------------------------------------------------ store

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

    def _record_screen_size(self, screen: X11Screen) -> None:
        """Click resolution scales its tolerance by the screen's size: write it down
        (meta ``screen:<device>`` = ``WxH``; the recorder's one stream is device "")."""
        geo = screen.d.screen()
        size = f"{int(geo.width_in_pixels)}x{int(geo.height_in_pixels)}"
        assert self._conn is not None
        with self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", ("screen:", size)
            )

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

    # ------------------------------------------------------------------ input

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

    # ------------------------------------------------------------------ signals, pause

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if signum in (signal.SIGUSR1, signal.SIGUSR2):
            self._check_pause = True
            return
        self._stop = True
        self._stop_signal = signal.Signals(signum).name

    def pause_flag(self) -> Path | None:
        return self.state_dir / "paused" if self.state_dir else None

    def _read_pause(self) -> bool:
        flag = self.pause_flag()
        return bool(flag and flag.exists())

    # ------------------------------------------------------------------ pidfile

    def _take_pidfile(self) -> None:
        if self.state_dir is None:
            return
        path = self.state_dir / "recorder.pid"
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            fh = open(path, "a+")  # noqa: SIM115 - held open (and locked) while running
        except OSError as exc:
            raise StoreWriteError(f"cannot write the pidfile {path}: {exc.strerror}") from exc
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.seek(0)
            other = fh.read().strip()
            fh.close()
            raise AlreadyRunning(
                f"a recorder is already running (pid {other or '?'}); "
                "`actframes record stop` stops it"
            ) from None
        # Locked but empty until the recorder is actually recording: `start` waits for
        # the pid to appear, so it can report a failure to start instead of a pid.
        fh.seek(0)
        fh.truncate()
        fh.flush()
        self._pidfile = fh

    def _announce(self) -> None:
        if self._pidfile is not None:
            self._pidfile.write(f"{os.getpid()}\n")
            self._pidfile.flush()

    def _release_pidfile(self) -> None:
        if self._pidfile is None or self.state_dir is None:
            return
        with contextlib.suppress(OSError):
            (self.state_dir / "recorder.pid").unlink()
        self._pidfile.close()
        self._pidfile = None

    # ------------------------------------------------------------------ the run

    def run(self, ready: Callable[[], None] | None = None) -> int:
        """Record until a stop signal; raises ActframesError on a problem it cannot fix."""
        self._check_session()
        self._take_pidfile()
        counter: Any = None
        screen: Any = None
        a11y: Any = None
        old_handlers: dict[int, Any] = {}
        # Signals and the input thread wake the loop through this pipe.
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        try:
            self._conn = self._open_store()
            if self.cfg.keep_days:
                self._prune()
            screen, counter, a11y = self._connect(wake_w)
            for sig in (
                signal.SIGTERM,
                signal.SIGINT,
                signal.SIGHUP,
                signal.SIGUSR1,
                signal.SIGUSR2,
            ):
                old_handlers[sig] = signal.signal(sig, self._on_signal)
            old_wakeup = signal.set_wakeup_fd(wake_w)
            start = self.clock()
            detail = {
                "pid": os.getpid(),
                "version": __version__,
                **self._session_notes(screen, counter, a11y),
            }
            self._state(start, "start", json.dumps(detail, sort_keys=True))
            self._commit(start, force=True)
            self.log(self._start_message(detail))
            self._announce()
            if ready is not None:
                ready()
            try:
                self._loop(screen, counter, a11y, wake_r)
            except Xlib.error.ConnectionClosedError as exc:
                self._salvage(f"X connection closed: {exc}")
                raise SessionError(
                    f"lost the X11 display {self.display} (the X server closed the connection)"
                ) from exc
            except SessionError as exc:
                self._salvage(str(exc))
                raise
            finally:
                signal.set_wakeup_fd(old_wakeup)
            self._finish(counter, self.clock())
            self.log(
                f"stopped ({self._stop_signal or 'stop'}): {self.stats.snapshots} snapshots, "
                f"{self.stats.events} input presses, {self.stats.afk} AFK periods"
            )
            return 0
        finally:
            for signum, handler in old_handlers.items():
                signal.signal(signum, handler)
            if counter is not None:
                counter.stop()
            if a11y is not None:
                a11y.close()
            if screen is not None:
                screen.close()
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.rollback()
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
            os.close(wake_r)
            os.close(wake_w)
            self._release_pidfile()

    # The backend's own parts (X11 here; the Wayland recorder overrides them).

    def _check_session(self) -> None:
        warning = session_check({**self.env, "DISPLAY": self.display})
        if warning:
            self.log(warning)
        self._wayland = warning is not None

    def _connect(self, wake_w: int) -> tuple[Any, Any, Any]:
        """(screen, input counter, accessibility or None), connected and started."""
        screen = X11Screen(self.display)
        try:
            self._record_screen_size(screen)
            counter = InputCounter(self.display, self.clock, wake_fd=wake_w)
        except BaseException:
            screen.close()
            raise
        counter.start()
        a11y = self._connect_a11y(screen) if self.cfg.accessibility else None
        return screen, counter, a11y

    def _session_notes(self, screen: Any, counter: Any, a11y: Any) -> dict[str, Any]:
        """What the session's ``start`` row says about it (``record status`` shows it)."""
        return {
            "display": self.display,
            "wm": screen.wm_running(),
            "accessibility": a11y is not None,
            "wayland": self._wayland,
        }

    def _start_message(self, detail: dict[str, Any]) -> str:
        return (
            f"recording {self.display} into {self.db} (window manager: "
            f"{'yes' if detail['wm'] else 'no, using the input focus'}; accessibility: "
            f"{'yes' if detail['accessibility'] else 'no'})"
        )

    def _connect_a11y(self, screen: X11Screen) -> Any:
        try:
            from .atspi import A11yUnavailable, Accessibility, session_bus_a11y_address
        except ImportError:
            self.log("dbus-fast is not installed: no accessibility (elements, browser URLs)")
            return None

        address = screen.atspi_bus_address() or session_bus_a11y_address(self.env)
        if not address:
            self.log(
                "no accessibility bus (AT-SPI): no elements, browser URLs or Chromium "
                "incognito detection from accessibility"
            )
            return None
        try:
            return Accessibility(address)
        except A11yUnavailable as exc:
            self.log(f"{exc}: going on without accessibility")
            return None

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

    def _finish(self, counter: PressCounter, now: int) -> None:
        """A clean stop: count the last input, close AFK, mark the stop, commit."""
        # Presses the server sent just before the signal may still be on their way to the
        # input thread; a moment's grace counts them.
        time.sleep(0.05)
        self._drain(counter, now)
        if self._afk_row is not None:
            self._exec("UPDATE afk SET end_ms = ? WHERE id = ?", (now, self._afk_row))
            self._afk_row = None
        ts = max(now, self._last_snapshot_ts)
        self._write_snapshot(ts, View(0, STOPPED_APP, ""), "stop", None)
        self._state(ts, "stop", self._stop_signal)
        self._commit(now, force=True)

    # ------------------------------------------------------------------ the loop

    def _snapshot_step(self, now: int, policy: Any, a11y: Any) -> tuple[bool, int]:
        """Write a snapshot if the policy asks for one (never while a browser window's
        privacy is still unknown), start its elements, collect finished ones. Returns
        (look at the window again next tick, the settle time it was judged by). Shared by
        every backend's loop."""
        seen = self._seen
        assert seen is not None  # the loop looks at the screen before its first step
        view = seen.view
        decision = None
        settle = self._settle_ms()
        if seen.unresolved:
            again = True  # a browser window's privacy is not known yet: look again
        else:
            again = False
            if now >= settle:
                decision = policy.decide(now, view, seen.since_ms)
        if decision is not None:
            self._commit(now, force=self._pending)
            snap_id = self._write_snapshot(decision.ts_ms, view, decision.reason, seen)
            policy.written(decision, view, now)
            if a11y is not None and seen.recordable and _wants_elements(decision):
                self._start_elements(a11y, seen, snap_id, decision.ts_ms)
        self._collect_elements()
        return again, settle

    def _loop(self, screen: X11Screen, counter: InputCounter, a11y: Any, wake_r: int) -> None:
        policy = self._policy
        has_wm = screen.wm_running()
        start = self.clock()
        # Idle time before the recorder started is not recorded: with no input, an AFK
        # period begins (back-dated) at the start, never before it.
        idle = IdleTracker(self.cfg.idle_ms, last_input_ms=start)
        self._seen = self._prev = self._look(screen, a11y, has_wm, start, None)
        next_idle_poll = start
        next_url_poll = start + URL_POLL_MS
        next_pause_check = start
        next_wm_check = start + 10_000
        next_retention = start + RETENTION_EVERY_MS
        last_bar: str | None = None
        xfd = screen.fileno()
        dirty = False
        while not self._stop:
            now = self.clock()
            # -- pause
            if self._check_pause or now >= next_pause_check:
                self._check_pause = False
                next_pause_check = now + PAUSE_POLL_MS
                if self._read_pause() != self.paused:
                    self._toggle_pause(idle, now)
                    dirty = True
            # -- the window manager may start (or stop) after the recorder
            if now >= next_wm_check:
                next_wm_check = now + 10_000
                wm = screen.wm_running()
                if wm != has_wm:
                    has_wm, dirty = wm, True
            # -- focus and title
            if screen.drain_events():
                dirty = True
            if not has_wm and not self.paused:
                known = self._seen.info.window if self._seen.info else 0
                if screen.focused_window(False) != known:
                    dirty = True
            if dirty:
                dirty = False
                self._commit(now, force=self._pending)  # looking may block on AT-SPI
                if self._relook(screen, a11y, has_wm, now):
                    last_bar = None
            # -- a browser's address can change without a title change
            seen = self._seen
            if seen.browser and not seen.private and now >= next_url_poll and not idle.afk:
                next_url_poll = now + URL_POLL_MS
                bar = self._poll_url(a11y, seen)
                # An address taken from the address bar lacks its scheme (Chromium hides
                # it); look again until the page's document gives the full URL.
                partial = seen.view.url is not None and "://" not in seen.view.url
                if bar is not None and (bar != last_bar or partial):
                    if last_bar is not None or partial:
                        self._commit(now, force=self._pending)
                        self._relook(screen, a11y, has_wm, now)
                    last_bar = bar
            # -- input
            presses = self._drain(counter, now)
            if counter.failed or not counter.alive():
                raise SessionError(
                    f"lost the X11 display {self.display} (the input counter stopped: "
                    f"{counter.failed or 'ended'})"
                )
            # -- idle: input counts from XRecord, pointer motion from the server's counter
            last_input = counter.last_input_ms
            if now >= next_idle_poll:
                next_idle_poll = now + IDLE_POLL_MS
                x_idle = screen.idle_ms()
                # The server's idle counter and our clock disagree by a millisecond or
                # two from one reading to the next; only a clear step forward is input.
                if x_idle is not None and now - x_idle > idle.last_input_ms + X_IDLE_JITTER_MS:
                    last_input = max(last_input, now - x_idle)
            if presses:
                last_input = max(last_input, presses[-1].ts_ms)
            if not self.paused:
                self._afk_step(idle.update(now, last_input), now)
            view = self._seen.view
            again, settle = self._snapshot_step(now, policy, a11y)
            dirty = dirty or again
            if self.cfg.keep_days and now >= next_retention:
                next_retention = now + RETENTION_EVERY_MS
                self._prune()
            self._commit(now)
            # -- sleep until something happens or is due
            due = min(policy.next_due_ms(now, view), idle.next_check_ms(now), next_pause_check)
            if self._pending or self._runs or self._elements_job or not has_wm or dirty:
                due = min(due, now + TICK_MS)
            if self._seen.browser and not self._seen.private:
                due = min(due, next_url_poll)
            if self._afk_row is not None:
                due = min(due, self._last_commit + AFK_UPDATE_MS)
            if now < settle:
                due = min(due, settle)
            timeout = max(0, due - now) / 1000
            if screen.d.pending_events():
                timeout = 0.0  # events already read off the socket by an earlier request
            counter.wake_wanted = timeout > TICK_MS / 1000
            try:
                ready, _, _ = select.select([xfd, wake_r], [], [], timeout)
            except InterruptedError:
                ready = []
            if wake_r in ready:
                with contextlib.suppress(OSError):
                    os.read(wake_r, 512)

    def _settle_ms(self) -> int:
        """When the current view may be written. Window managers clear the active window
        for a moment while the focus moves; "no window" counts only once it lasts."""
        assert self._seen is not None
        if self._seen.view.app in (NONE_APP, WAYLAND_APP):
            return self._seen.since_ms + NO_WINDOW_SETTLE_MS
        return self._seen.since_ms

    def _relook(self, screen: X11Screen, a11y: Any, has_wm: bool, now: int) -> bool:
        """Look at the focused window again; True when what is recorded changed."""
        assert self._seen is not None
        new = self._look(screen, a11y, has_wm, now, self._seen)
        if new is self._seen:
            return False
        self._prev, self._seen = self._seen, new
        return True

    def _toggle_pause(self, idle: IdleTracker, now: int) -> None:
        self.paused = not self.paused
        self._commit(now, force=True)
        ended = idle.reset(now)
        if self.paused:
            if ended is not None:
                self._end_afk(ended.end_ms)
            self._state(now, "pause")
            self.log("paused")
        else:
            self._state(now, "resume")
            self.log("resumed")

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

    def _drain(self, counter: PressCounter, now: int) -> list[Press]:
        """Move counted presses into pending rows, each owned by the window focused when it
        happened (the previous one when it came before the current one was seen)."""
        presses = counter.drain()
        if not presses or self.paused or self._seen is None:
            return presses
        seen, prev = self._seen, self._prev
        for p in presses:
            owner = prev if prev is not None and p.ts_ms < seen.since_ms else seen
            if not owner.recordable:
                continue  # no counts for excluded, private or unknown windows
            self._add_press(p, owner.view.app)
            if p.kind == KEY:
                self._policy.on_key(p.ts_ms)
            elif p.kind == CLICK:
                self._policy.on_click(p.ts_ms)
        return presses

    # ------------------------------------------------------------------ looking

    def _look(
        self, screen: X11Screen, a11y: Any, has_wm: bool, now: int, current: Seen | None
    ) -> Seen:
        """What is focused now, after the privacy rules."""
        if self.paused:
            return self._keep(current, Seen(View(0, PAUSED_APP, ""), now, private=True))
        wid = screen.focused_window(has_wm)
        screen.watch(wid)
        info = screen.window_info(wid) if wid else None
        if info is None:
            app = WAYLAND_APP if self._wayland else NONE_APP
            return self._keep(current, Seen(View(0, app, ""), now))
        rules = self.cfg.privacy
        kind = browser_kind(info.names)
        # Cheap checks first: an excluded app or title is never looked at any further.
        verdict = rules.verdict(info.names, info.title)
        same_window = bool(current and current.info and current.info.window == wid)
        box = current.box if same_window and current is not None else screen.geometry(wid)
        url: str | None = None
        unresolved = False
        if verdict is None and kind is not None:
            url, frame_name, matched = self._browser_url(a11y, info, kind, box)
            verdict = rules.verdict(info.names, info.title, url, frame_name)
            if verdict is None and kind == "chromium" and a11y is not None and not matched:
                waited = now - current.since_ms if same_window and current is not None else 0
                unresolved = waited < UNRESOLVED_MAX_MS
        if verdict is not None:
            app = EXCLUDED_APP if verdict == EXCLUDED else PRIVATE_APP
            return self._keep(current, Seen(View(0, app, ""), now, private=True))
        monitor = current.monitor if same_window and current is not None else None
        if not same_window:
            monitor = screen.monitor_of(wid, box)
        seen = Seen(View(wid, info.app, info.title, url), now, info, monitor, kind)
        seen.unresolved, seen.box = unresolved, box
        if current is not None and current.unresolved and current.view == seen.view:
            current.unresolved = unresolved
        return self._keep(current, seen)

    @staticmethod
    def _keep(current: Seen | None, new: Seen) -> Seen:
        """Keep the first-seen time when nothing that matters changed."""
        if current is not None and current.view == new.view:
            current.info = new.info or current.info
            return current
        return new

    def _browser_url(
        self, a11y: Any, info: WindowInfo, kind: str, box: tuple[int, int, int, int] | None
    ) -> tuple[str | None, str | None, bool]:
        """(URL, accessible frame name, whether the frame surely is this window)."""
        url = frame_name = None
        matched = False
        if a11y is not None:
            found = a11y.inspect(
                info.pid, info.title, elements=False, url=True, bounds=box, timeout=0.6
            )
            if found is not None and found.matched:
                url, frame_name, matched = found.url, found.frame_name, True
        if url is None and self.cfg.devtools and kind == "chromium":
            url = devtools_url(self.cfg.devtools, info.title)
        return url, frame_name, matched

    def _poll_url(self, a11y: Any, seen: Seen) -> str | None:
        """A cheap token that changes when the browser's address changes."""
        if seen.info is None:
            return None
        if a11y is not None:
            text: str | None = a11y.address_bar_text(seen.info.pid)
            if text is not None:
                return text
        if self.cfg.devtools and seen.browser == "chromium":
            return devtools_url(self.cfg.devtools, seen.info.title)
        return None

    # ------------------------------------------------------------------ writing rows

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


def _wants_elements(decision: Decision) -> bool:
    return decision.reason in ("focus", "title", "click")


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


def _stderr_log(message: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    sys.stderr.write(f"{stamp} actframes record: {message}\n")
    sys.stderr.flush()
