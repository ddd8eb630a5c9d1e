"""Input *counts* from the X RECORD extension: key presses, clicks, scrolls.

A second and third connection to the X server: one blocks in ``RecordEnableContext`` in a
daemon thread and receives every KeyPress and ButtonPress the server processes (from
any client, XTest included); the other controls the context. Only the event *type* and,
for buttons, the button number (1–3 and 8+ are clicks, 4–7 are wheel steps) are read.
The keycode byte is never read, so no key identity or text ever reaches the recorder's
memory beyond the raw bytes the X library hands over. Clicks keep their screen position,
which resolves a click against the accessibility elements of the window.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from Xlib import X
from Xlib.ext import record

from .x11_session import SessionError, open_display

KEY = "key"
CLICK = "click"
SCROLL = "scroll"

_SCROLL_BUTTONS = frozenset((4, 5, 6, 7))
_EVENT_SIZE = 32  # core X events are 32 bytes on the wire
_ORDER: Literal["little", "big"] = "little" if sys.byteorder == "little" else "big"


class Press(NamedTuple):
    ts_ms: int
    kind: str  # key | click | scroll
    x: int | None = None
    y: int | None = None


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def parse_presses(data: bytes, ts_ms: int) -> list[Press]:
    """The presses in one RECORD reply's data (a run of 32-byte device events)."""
    out: list[Press] = []
    for i in range(0, len(data) - _EVENT_SIZE + 1, _EVENT_SIZE):
        kind = data[i] & 0x7F
        if kind == X.KeyPress:
            out.append(Press(ts_ms, KEY))
        elif kind == X.ButtonPress:
            button = data[i + 1]
            if button in _SCROLL_BUTTONS:
                out.append(Press(ts_ms, SCROLL))
            else:
                # root-x and root-y: INT16 at offsets 20 and 22, in the byte order this
                # client announced to the server (python-xlib uses the machine's own).
                x = int.from_bytes(data[i + 20 : i + 22], _ORDER, signed=True)
                y = int.from_bytes(data[i + 22 : i + 24], _ORDER, signed=True)
                out.append(Press(ts_ms, CLICK, x, y))
    return out


class PressQueue:
    """What every input counter shares (XRecord here, evdev on Wayland): presses counted
    in a thread of its own (``_thread``), queued for the recorder's loop to ``drain``."""

    _thread: threading.Thread

    def __init__(self, clock: Callable[[], int], wake_fd: int | None) -> None:
        self.clock = clock
        self.wake_fd = wake_fd
        self._queue: deque[Press] = deque()
        # Set by the recorder's loop before a long sleep: the next press should wake it.
        self.wake_wanted = True
        self.last_input_ms = 0
        self.failed: str | None = None

    def start(self) -> None:
        self._thread.start()

    def _add(self, found: list[Press]) -> None:
        if not found:
            return
        was_empty = not self._queue
        self._queue.extend(found)
        if was_empty and self.wake_fd is not None and self.wake_wanted:
            # Wake the recorder's loop from a long idle sleep so the press is written
            # within the commit interval; while input flows it polls at a short tick
            # instead, so fast typing does not wake it for every key.
            self.wake_wanted = False
            with contextlib.suppress(OSError):
                os.write(self.wake_fd, b"\0")

    def drain(self) -> list[Press]:
        out: list[Press] = []
        q = self._queue
        while q:
            out.append(q.popleft())
        return out


class InputCounter(PressQueue):
    """Counts presses in a background thread; the recorder drains them."""

    def __init__(
        self, display_name: str, clock: Callable[[], int] = _now_ms, wake_fd: int | None = None
    ) -> None:
        super().__init__(clock, wake_fd)
        self.ctl = open_display(display_name)
        if not self.ctl.has_extension("RECORD"):
            self.ctl.close()
            raise SessionError(
                f"the X server on {display_name} lacks the RECORD extension, which "
                "actframes record needs to count input (enable it in the X server's config)"
            )
        self.rec = open_display(display_name)
        self._swapped = False
        ranges = [_range((X.KeyPress, X.KeyPress)), _range((X.ButtonPress, X.ButtonPress))]
        try:
            self.ctx = self.ctl.record_create_context(0, [record.AllClients], ranges)
            self.ctl.sync()
        except Exception as exc:
            raise SessionError(f"cannot create an X RECORD context ({exc})") from exc
        self._thread = threading.Thread(target=self._run, name="xrecord", daemon=True)

    def _run(self) -> None:
        try:
            self.rec.record_enable_context(self.ctx, self._on_reply)
        except Exception as exc:  # the server went away, or the context was freed
            self.failed = f"{type(exc).__name__}: {exc}"

    def _on_reply(self, reply: Any) -> None:
        if reply.category != record.FromServer:
            return
        presses = parse_presses(bytes(reply.data), self.clock())
        if presses:
            self.last_input_ms = presses[-1].ts_ms
            self._add(presses)

    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 1.0) -> None:
        try:
            self.ctl.record_disable_context(self.ctx)
            self.ctl.flush()
        except Exception:
            pass
        self._thread.join(timeout)
        for conn in (self.ctl, self.rec):
            with contextlib.suppress(Exception):
                conn.close()


def _range(device_events: tuple[int, int]) -> dict[str, Any]:
    return {
        "core_requests": (0, 0),
        "core_replies": (0, 0),
        "ext_requests": (0, 0, 0, 0),
        "ext_replies": (0, 0, 0, 0),
        "delivered_events": (0, 0),
        "device_events": device_events,
        "errors": (0, 0),
        "client_started": False,
        "client_died": False,
    }
