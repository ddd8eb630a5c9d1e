"""What every recorder backend shares: the run's lifecycle (pidfile, signals, pause, the
``start`` and ``stop`` rows, a clean stop or a salvaged one) and the steps each tick of a
backend's loop takes (drain input into rows, write the snapshot the policy asks for).

One thread owns the store and the display connection; the input counter runs in a second
thread and AT-SPI in a third (its own asyncio loop). SIGTERM, SIGINT and SIGHUP flush,
write a ``[stopped]`` marker row and exit 0; SIGUSR1/SIGUSR2 make the loop look at the
pause flag at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, Protocol

import Xlib.error

from .. import __version__
from .config import RecorderConfig
from .focus import STOPPED_APP, Seen, settle_ms
from .idle import IdleTracker
from .pidfile import PidFile
from .policy import Decision, SnapshotPolicy, View
from .row_writer import RowWriter
from .screen_text import ScreenTextKeeper, make_keeper
from .x11_session import SessionError
from .xrecord import CLICK, KEY, Press

# The cadence of every backend's loop.
TICK_MS = 250  # longest sleep while input may be pending
URL_POLL_MS = 2_000  # how often a focused browser's address is re-read
PAUSE_POLL_MS = 1_000  # how often the pause flag is looked at (SIGUSR1 wakes sooner)
RETENTION_EVERY_MS = 3_600_000  # how often --keep-days prunes while running


class PressCounter(Protocol):
    """What the loop needs of an input counter (XRecord on X11, evdev on Wayland)."""

    last_input_ms: int
    failed: str | None
    wake_wanted: bool

    def drain(self) -> list[Press]: ...

    def alive(self) -> bool: ...

    def stop(self, timeout: float = 1.0) -> None: ...


def now_ms() -> int:
    return time.time_ns() // 1_000_000


class RecorderCore(RowWriter):
    """The backend-independent recorder; a backend supplies ``_check_session``,
    ``_connect``, ``_session_notes``, ``_start_message`` and ``_loop`` (the shared one is
    in ``recorder_loop``)."""

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
        super().__init__(db, config, clock, log or _stderr_log)
        self.env = dict(os.environ if env is None else env)
        self.display = display or self.env.get("DISPLAY", "")
        self.state_dir = state_dir
        self._stop = False
        self._stop_signal = ""
        self._check_pause = True
        self._pidfile = PidFile(state_dir)
        self._policy = SnapshotPolicy(heartbeat_ms=config.heartbeat_ms)
        self._seen: Seen | None = None
        self._prev: Seen | None = None
        self._wayland = False
        self._screen_text: ScreenTextKeeper | None = None
        self.paused = False

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

    # ------------------------------------------------------------------ the run
    def run(self, ready: Callable[[], None] | None = None) -> int:
        """Record until a stop signal; raises ActframesError on a problem it cannot fix."""
        self._check_session()
        self._pidfile.take()
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
            self._screen_text = make_keeper(self.cfg, a11y, self._grabber(screen), self.log)
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
            if self._screen_text is not None:
                detail["screen_text"] = "ocr" if self._screen_text.grab else "accessibility"
            self._state(start, "start", json.dumps(detail, sort_keys=True))
            self._commit(start, force=True)
            self.log(self._start_message(detail))
            self._pidfile.announce()
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
            if self._screen_text is not None:
                self._screen_text.close()
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
            self._pidfile.release()

    # The backend's own parts.

    def _check_session(self) -> None:
        raise NotImplementedError

    def _connect(self, wake_w: int) -> tuple[Any, Any, Any]:
        """(screen, input counter, accessibility or None), connected and started."""
        raise NotImplementedError

    def _session_notes(self, screen: Any, counter: Any, a11y: Any) -> dict[str, Any]:
        """What the session's ``start`` row says about it (``record status`` shows it)."""
        raise NotImplementedError

    def _start_message(self, detail: dict[str, Any]) -> str:
        raise NotImplementedError

    def _loop(self, screen: Any, counter: Any, a11y: Any, wake_r: int) -> None:
        raise NotImplementedError

    def _grabber(self, screen: Any) -> Callable[[int, Any], Any] | None:
        """What reads the focused window's pixels for OCR (X11 only), refusing once the
        window asked about is no longer the recordable focused one."""
        if self.BACKEND != "x11" or getattr(screen, "root", None) is None:
            return None

        def grab(window: int, box: Any) -> Any:
            seen = self._seen
            if seen is None or not seen.recordable or seen.view.window != window:
                return None
            from .ocr import grab_window

            return grab_window(screen, box)

        return grab

    def _open_accessibility(
        self, bus_address: Callable[[], str | None] | None, missing: str
    ) -> Any:
        """AT-SPI at the backend's bus address (``bus_address``), else the one the session
        bus names; None, with a log line saying why (``missing`` when no bus is found),
        when there is none."""
        try:
            from .atspi import A11yUnavailable, Accessibility, session_bus_a11y_address
        except ImportError:
            self.log("dbus-fast is not installed: no accessibility (elements, browser URLs)")
            return None
        address = bus_address() if bus_address is not None else None
        address = address or session_bus_a11y_address(self.env)
        if not address:
            self.log(missing)
            return None
        try:
            return Accessibility(address)
        except A11yUnavailable as exc:
            self.log(f"{exc}: going on without accessibility")
            return None

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

    # ------------------------------------------------------------------ steps of a tick

    def _snapshot_step(self, now: int, policy: Any, a11y: Any) -> tuple[bool, int]:
        """Write a snapshot if the policy asks for one (never while a browser window's
        privacy is still unknown), start its elements, collect finished ones. Returns
        (look at the window again next tick, the settle time it was judged by). Shared by
        every backend's loop."""
        seen = self._seen
        assert seen is not None  # the loop looks at the screen before its first step
        view = seen.view
        decision = None
        settle = settle_ms(seen)
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
            if self._screen_text is not None:
                self._screen_text.ask(seen, snap_id, decision.ts_ms)
        self._collect_elements()
        if self._screen_text is not None:
            row = self._screen_text.step(a11y)
            if row is not None:
                self._exec(
                    "INSERT INTO screen_text (ts_ms, snapshot_id, kind, text) VALUES (?,?,?,?)",
                    row,
                )
        return again, settle

    def _reading_text(self) -> bool:
        """Whether screen text is being read or waits to be (the loop then ticks)."""
        return self._screen_text is not None and self._screen_text.busy()

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


def _wants_elements(decision: Decision) -> bool:
    return decision.reason in ("focus", "title", "click")


def _stderr_log(message: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    sys.stderr.write(f"{stamp} actframes record: {message}\n")
    sys.stderr.flush()
