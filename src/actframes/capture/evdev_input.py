"""Input *counts* from the kernel's evdev devices, for Wayland sessions.

Wayland gives a client no global view of input, but a user in the ``input`` group may read
``/dev/input/event*``. Each read returns ``struct input_event`` records — a timeval, then
``type`` (u16), ``code`` (u16) and ``value`` (s32), in host byte order and size — which are
classified and forgotten at once:

- ``EV_KEY`` with value 1 (a press; 0 is a release, 2 an auto-repeat, neither counted):
  codes ``BTN_LEFT`` … ``BTN_TASK`` are clicks; keyboard codes are keys. The code is read
  only to tell the two apart and is never kept, so no key identity leaves this module.
- ``EV_REL`` ``REL_WHEEL`` / ``REL_HWHEEL``: scroll steps (one per notch).

Click positions are unknown (the kernel reports relative motion only), so clicks carry no
``x``/``y``. Devices are found with python-evdev (those that have keys, mouse buttons or a
wheel); a device that disappears is dropped, the others go on.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import struct
import threading
import time
from collections.abc import Callable, Iterable, Mapping

from .xrecord import CLICK, KEY, SCROLL, Press, PressQueue

EVENT = struct.Struct("@llHHi")  # struct input_event on this machine (24 bytes on 64-bit)
EV_KEY = 0x01
EV_REL = 0x02
REL_HWHEEL = 0x06
REL_WHEEL = 0x08
BTN_LEFT = 0x110
BTN_TASK = 0x117
KEY_A = 30
_KEYBOARD_END = 0x100  # codes below are keyboard keys (KEY_ESC … KEY_MICMUTE)
_MORE_KEYS = range(0x160, 0x300)  # KEY_OK … : media and special keys
READ_BYTES = EVENT.size * 64
DEVICES_VAR = "ACTFRAMES_INPUT_DEVICES"


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def kind_of(ev_type: int, code: int, value: int) -> tuple[str, int] | None:
    """(kind, how many) for one event, or None when it is no press."""
    if ev_type == EV_KEY and value == 1:
        if BTN_LEFT <= code <= BTN_TASK:
            return CLICK, 1
        if 0 < code < _KEYBOARD_END or code in _MORE_KEYS:
            return KEY, 1
        return None
    if ev_type == EV_REL and code in (REL_WHEEL, REL_HWHEEL) and value:
        return SCROLL, abs(value)
    return None


def presses(data: bytes, ts_ms: int) -> list[Press]:
    """The presses in a run of whole ``input_event`` records (a trailing part is ignored)."""
    out: list[Press] = []
    usable = len(data) - len(data) % EVENT.size
    for _sec, _usec, ev_type, code, value in EVENT.iter_unpack(data[:usable]):
        found = kind_of(ev_type, code, value)
        if found is not None:
            out.extend(Press(ts_ms, found[0]) for _ in range(found[1]))
    return out


def open_devices(env: Mapping[str, str]) -> tuple[list[int], str]:
    """File descriptors of the readable input devices that have keys, mouse buttons or a
    wheel, and a note on what was (not) found. ``ACTFRAMES_INPUT_DEVICES`` (paths separated
    by ``:``) names the devices to read instead, e.g. to leave a device uncounted."""
    chosen = [p for p in env.get(DEVICES_VAR, "").split(":") if p.strip()]
    if chosen:
        return _open_paths(chosen)
    try:
        import evdev
    except ImportError:
        return [], "python evdev is not installed"
    try:
        paths = evdev.list_devices()
    except OSError as exc:
        return [], f"cannot list /dev/input ({exc.strerror})"
    if not paths:
        return [], "no readable input devices in /dev/input (is the user in the 'input' group?)"
    fds: list[int] = []
    for path in paths:
        try:
            dev = evdev.InputDevice(path)
        except OSError:
            continue
        caps = dev.capabilities()
        keys = set(caps.get(EV_KEY, ()))
        rels = set(caps.get(EV_REL, ()))
        if KEY_A in keys or BTN_LEFT in keys or REL_WHEEL in rels:
            fds.append(os.dup(dev.fd))
        dev.close()
    if not fds:
        return [], "no readable keyboard or pointer in /dev/input"
    return fds, f"{len(fds)} input device(s)"


def _open_paths(paths: list[str]) -> tuple[list[int], str]:
    fds: list[int] = []
    for path in paths:
        try:
            fds.append(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            return [], f"cannot read {path} from {DEVICES_VAR} ({exc.strerror})"
    return fds, f"{len(fds)} input device(s) from {DEVICES_VAR}"


class EvdevCounter(PressQueue):
    """Counts presses from device fds in a background thread; the recorder drains them.

    The same face as the X11 counter: ``start``, ``drain``, ``last_input_ms``, ``alive``,
    ``failed``, ``wake_wanted``, ``stop``."""

    def __init__(self, fds: Iterable[int], clock: Callable[[], int] = _now_ms,
                 wake_fd: int | None = None) -> None:  # fmt: skip
        super().__init__(clock, wake_fd)
        self.fds = list(fds)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="evdev", daemon=True)

    def _run(self) -> None:
        live = list(self.fds)
        # A device returns whole records; a part left over (a pipe) waits for the rest.
        rest = {fd: b"" for fd in live}
        while live:
            ready, _, _ = select.select([*live, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            for fd in ready:
                try:
                    data = os.read(fd, READ_BYTES)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.ENODEV, errno.EIO):
                        self.failed = f"reading an input device: {exc.strerror}"
                        return
                    data = b""
                if not data:  # unplugged (or the end of a recorded stream)
                    live.remove(fd)
                    continue
                data = rest[fd] + data
                cut = len(data) - len(data) % EVENT.size
                rest[fd] = data[cut:]
                self.last_input_ms = self.clock()  # any event, pointer motion included
                self._add(presses(data[:cut], self.last_input_ms))

    def alive(self) -> bool:
        # A counter whose devices all went away is not an error: it just counts nothing.
        return self.failed is None

    def stop(self, timeout: float = 1.0) -> None:
        with contextlib.suppress(OSError):
            os.write(self._stop_w, b"\0")
        if self._thread.is_alive():
            self._thread.join(timeout)
        for fd in (*self.fds, self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)
