"""The focused window on a wlroots compositor, and its idle notices — through pywayland.

``wlr-foreign-toplevel-management-unstable-v1`` announces every toplevel window with its
``app_id``, ``title`` and state (``activated`` marks the focused one); changes arrive in
batches closed by a ``done`` event, so a window's new state is taken only at ``done``.
Idle comes from ``ext-idle-notify-v1`` when offered, else KDE's older ``org_kde_kwin_idle``
(sway 1.7 has only that one): the compositor says "idle" after ``idle_ms`` without input
(pointer motion included) and "resumed" at the next input.

The recorder sleeps in ``select`` on the connection's socket and calls ``dispatch`` when
it is readable, so it wakes for focus and title changes as they happen.
"""

from __future__ import annotations

import contextlib
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from .sway_ipc import SwayIpc
from .window_info import decode_text
from .x11_session import SessionError

_ACTIVATED = 2  # zwlr_foreign_toplevel_handle_v1.state.activated
EXT_IDLE = "ext-idle-notify-v1"
KDE_IDLE = "org_kde_kwin_idle"


class WaylandError(SessionError):
    """The Wayland session cannot be recorded (no compositor, a missing protocol)."""


@dataclass
class Toplevel:
    """One window as the compositor last described it (after a ``done``)."""

    key: int  # our own number for the window, stable while it lives
    app_id: str = ""
    title: str = ""
    activated: bool = False
    closed: bool = False
    pid: int | None = None  # known on KDE and GNOME (their shells say), not on wlroots


class IdleNotice(NamedTuple):
    ts_ms: int
    idle: bool  # True: idle began (after idle_ms without input); False: input resumed
    # When the away time began, if the source knows it (a screen saver starting); else
    # it is idle_ms before the notice.
    since_ms: int | None = None


def socket_path(name: str, env: dict[str, str]) -> Path:
    """Where the display's socket is: an absolute name, or one under XDG_RUNTIME_DIR."""
    if name.startswith("/"):
        return Path(name)
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if not runtime:
        raise WaylandError(f"cannot find the Wayland display {name}: XDG_RUNTIME_DIR is not set")
    return Path(runtime) / name


def activated(state: bytes) -> bool:
    """Whether a toplevel's state array (uint32 values, host byte order) holds activated."""
    n = len(state) // 4
    return _ACTIVATED in struct.unpack(f"={n}I", state[: n * 4])


class WaylandScreen:
    """One client connection to the compositor: windows, focus, idle notices."""

    def __init__(self, display_name: str, env: dict[str, str], clock: Callable[[], int],
                 idle_ms: int, *, windows: bool = True) -> None:  # fmt: skip
        from pywayland.client.display import Display

        from . import wlproto

        self.clock = clock
        self.name = display_name
        path = socket_path(display_name, env)
        if not path.exists():
            raise WaylandError(
                f"cannot connect to the Wayland display {display_name}: no socket {path}"
            )
        binds = wlproto.load()
        self.d: Any = Display(str(path))
        try:
            self.d.connect()
        except Exception as exc:  # pywayland raises ValueError/RuntimeError
            raise WaylandError(
                f"cannot connect to the Wayland display {display_name}: {exc}"
            ) from exc
        self.toplevels: dict[Any, Toplevel] = {}
        self.notices: list[IdleNotice] = []
        self.changed = False
        self._next_key = 1
        self._finished = False
        globals_: dict[str, tuple[int, int]] = {}
        # Kept for the connection's life: pywayland finds the display through the live
        # registry when an event creates an object (a new window's handle).
        self._registry = registry = self.d.get_registry()

        def on_global(registry: Any, name: int, iface: str, version: int) -> None:
            globals_.setdefault(iface, (name, version))

        registry.dispatcher["global"] = on_global
        self.d.roundtrip()
        manager = globals_.get("zwlr_foreign_toplevel_manager_v1")
        self.source = "wlr-foreign-toplevel-management"
        if manager is None and windows:
            self.close()
            raise WaylandError(
                f"the compositor on {display_name} does not offer "
                "wlr-foreign-toplevel-management (a wlroots compositor such as sway, Hyprland, "
                "river, labwc or Wayfire does); try --backend x11 for XWayland windows"
            )
        self.compositor_globals = frozenset(globals_)
        # sway's IPC names the focused window's process, which the protocol does not.
        swaysock = env.get("SWAYSOCK", "")
        self._sway = SwayIpc(swaysock) if swaysock and Path(swaysock).exists() else None
        self.gives_pids = self._sway is not None
        if windows and manager is not None:
            self._manager = registry.bind(manager[0], binds.toplevel_manager, min(manager[1], 3))
            self._manager.dispatcher["toplevel"] = self._on_toplevel
            self._manager.dispatcher["finished"] = self._on_finished
        self.idle_protocol: str | None = None
        self._idle_obj: Any = None
        self._idle_factory: Any = None
        seat = globals_.get("wl_seat")
        if seat is not None:
            self._seat = registry.bind(seat[0], binds.seat, 1)
            timeout = max(1, min(idle_ms, 0xFFFFFFFF))
            if "ext_idle_notifier_v1" in globals_:
                name, _ = globals_["ext_idle_notifier_v1"]
                # Every proxy is kept while the connection lives (see the registry's).
                self._idle_factory = notifier = registry.bind(name, binds.ext_idle_notifier, 1)
                self._idle_obj = notifier.get_idle_notification(timeout, self._seat)
                self._idle_obj.dispatcher["idled"] = lambda o: self._on_idle(True)
                self._idle_obj.dispatcher["resumed"] = lambda o: self._on_idle(False)
                self.idle_protocol = EXT_IDLE
            elif KDE_IDLE in globals_ and binds.kde_idle is not None:
                self._idle_factory = idle = registry.bind(globals_[KDE_IDLE][0], binds.kde_idle, 1)
                self._idle_obj = idle.get_idle_timeout(self._seat, timeout)
                self._idle_obj.dispatcher["idle"] = lambda o: self._on_idle(True)
                self._idle_obj.dispatcher["resumed"] = lambda o: self._on_idle(False)
                self.idle_protocol = KDE_IDLE
        # Two round trips: the manager's toplevel events, then each handle's first batch.
        self.d.roundtrip()
        self.d.roundtrip()
        self.changed = False

    # ---------------------------------------------------------------- events

    def _on_toplevel(self, manager: Any, handle: Any) -> None:
        top = Toplevel(self._next_key)
        self._next_key += 1
        pending: dict[str, Any] = {}
        self.toplevels[handle] = top
        handle.dispatcher["title"] = lambda h, t: pending.__setitem__("title", t)
        handle.dispatcher["app_id"] = lambda h, a: pending.__setitem__("app_id", a)
        handle.dispatcher["state"] = lambda h, s: pending.__setitem__(
            "activated", activated(bytes(s))
        )
        handle.dispatcher["done"] = lambda h: self._on_done(top, pending)
        handle.dispatcher["closed"] = lambda h: self._on_closed(h)

    def _on_done(self, top: Toplevel, pending: dict[str, Any]) -> None:
        if "title" in pending:
            top.title = decode_text(pending.pop("title"), None)
        if "app_id" in pending:
            top.app_id = decode_text(pending.pop("app_id"), None)
        if "activated" in pending:
            top.activated = bool(pending.pop("activated"))
        self.changed = True

    def _on_closed(self, handle: Any) -> None:
        top = self.toplevels.pop(handle, None)
        if top is not None:
            top.closed = True
            self.changed = True
        with contextlib.suppress(Exception):
            handle.destroy()

    def _on_finished(self, manager: Any) -> None:
        self._finished = True

    def _on_idle(self, idle: bool) -> None:
        self.notices.append(IdleNotice(self.clock(), idle))

    # ---------------------------------------------------------------- the loop's side

    def fileno(self) -> int:
        return int(self.d.get_fd())

    def prepare(self) -> None:
        """Before sleeping: run events already read, send what is queued."""
        self.d.dispatch(block=False)
        self.d.flush()

    def dispatch(self) -> None:
        """The socket is readable: read and run its events. A closed connection (the
        compositor went away) raises WaylandError."""
        try:
            if self.d.dispatch(block=True) < 0:
                raise RuntimeError("read error")
        except RuntimeError as exc:
            raise WaylandError(
                f"lost the Wayland display {self.name} (the compositor closed the connection)"
            ) from exc
        if self._finished:
            raise WaylandError(f"the compositor on {self.name} stopped listing windows")

    def focused(self) -> Toplevel | None:
        """The activated window (the newest, if a compositor marks several)."""
        found = [t for t in self.toplevels.values() if t.activated and not t.closed]
        top = max(found, key=lambda t: t.key) if found else None
        if top is not None and top.pid is None and self._sway is not None:
            top.pid = self._sway.focused_pid(top.app_id)
        return top

    def take_notices(self) -> list[IdleNotice]:
        out, self.notices = self.notices, []
        return out

    def take_changed(self) -> bool:
        changed, self.changed = self.changed, False
        return changed

    def close(self) -> None:
        # pywayland destroys the proxies, then the connection; left to the garbage
        # collector at exit, they go in any order and the C library crashes.
        with contextlib.suppress(Exception):
            self.d.disconnect()


def probe(env: dict[str, str]) -> str | None:
    """Why the wlroots backend cannot record this session (None: it can)."""
    try:
        import pywayland  # noqa: F401
    except ImportError:
        return "pywayland is not installed"
    try:
        WaylandScreen(display_name(env), env, lambda: 0, 1_000).close()
    except WaylandError as exc:
        return str(exc)
    return None


def display_name(env: dict[str, str]) -> str:
    return env.get("WAYLAND_DISPLAY", "").strip() or "wayland-0"
