"""The focused window on KDE Plasma and GNOME (Wayland), from the desktop's shell over the
session bus; idle from the desktop too.

Neither KWin nor GNOME Shell lets an ordinary Wayland client see other programs' windows,
so a small piece runs inside the shell and reports the focused window:

- **KDE** (KWin 5.27 and 6): the recorder owns ``org.actframes.Recorder`` and loads a KWin
  script (``desktop/kwin_focus.js``) through KWin's ``org.kde.kwin.Scripting`` D-Bus
  interface; the script calls ``org.actframes.Recorder1.WindowActivated(s id, s app,
  s title, pid)`` (the pid as int32, uint32, int64 or double: whatever KWin's script
  engine makes of a JavaScript number) whenever the active window or its caption
  changes, and once when it starts. The script is unloaded when the recorder stops.
  Idle comes from the compositor's Wayland idle protocol (``ext-idle-notify-v1`` or
  ``org_kde_kwin_idle``) in a thread of its own.
- **GNOME** (43 and later): a Shell extension (``desktop/gnome-extension``, installed by
  ``actframes record install-gnome-extension``) owns ``org.actframes.Shell`` and offers
  ``org.actframes.Shell1.GetFocus() -> (s id, s app, s title, u pid)`` and the signal
  ``FocusChanged`` with the same values. Idle comes from ``org.gnome.Mutter.IdleMonitor``
  watches (an idle watch of ``idle_ms``, then a user-active watch).
- Last resort on either desktop: ``org.freedesktop.ScreenSaver``'s ``ActiveChanged``
  signal — away from when the screen saver starts until it stops (coarse: the desktop's
  own screen-saver delay, not ``idle_ms``, decides when).

``app`` is the resource class (KDE) or WM class (GNOME); an empty ``id`` means that no
window has the focus. The screen has the face of ``wayland.WaylandScreen`` (``fileno``,
``prepare``, ``dispatch``, ``focused``, ``take_changed``, ``take_notices``), so the same
loop records it: a bus thread writes to a pipe the loop sleeps on.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from .wayland import IdleNotice, Toplevel
from .wayland_idle import WaylandIdle
from .window_info import decode_text
from .window_reports import SILENT_AFTER_MS, is_window_report
from .x11_session import SessionError

HERE = Path(__file__).resolve().parent
KWIN_SCRIPT = HERE / "desktop" / "kwin_focus.js"
KWIN_PLUGIN = "actframes-focus"

RECORDER_NAME = "org.actframes.Recorder"
RECORDER_PATH = "/org/actframes/Recorder"
RECORDER_IFACE = "org.actframes.Recorder1"
SHELL_NAME = "org.actframes.Shell"
SHELL_PATH = "/org/actframes/Shell"
SHELL_IFACE = "org.actframes.Shell1"
KWIN_NAME = "org.kde.KWin"
KWIN_SCRIPTING_PATH = "/Scripting"
KWIN_SCRIPTING_IFACE = "org.kde.kwin.Scripting"
KWIN_SCRIPT_IFACE = "org.kde.kwin.Script"
MUTTER_IDLE_NAME = "org.gnome.Mutter.IdleMonitor"
MUTTER_IDLE_PATH = "/org/gnome/Mutter/IdleMonitor/Core"
MUTTER_IDLE_IFACE = "org.gnome.Mutter.IdleMonitor"
MUTTER_IDLE = "org.gnome.Mutter.IdleMonitor"
SCREENSAVER_NAME = "org.freedesktop.ScreenSaver"
SCREENSAVER_PATH = "/org/freedesktop/ScreenSaver"
SCREENSAVER_IFACE = "org.freedesktop.ScreenSaver"
SCREENSAVER = "org.freedesktop.ScreenSaver"

GNOME_EXTENSION_MISSING = (
    "the actframes GNOME Shell extension is not running: install it with `actframes record "
    "install-gnome-extension`, enable it, then log out and in"
)


class DesktopError(SessionError):
    """The desktop's shell cannot report windows (extension or KWin missing, no bus)."""


class DesktopBusScreen:
    """Focus from KWin (``desktop="kde"``) or GNOME Shell (``desktop="gnome"``)."""

    def __init__(self, desktop: str, env: dict[str, str], clock: Callable[[], int],
                 idle_ms: int, *, script: Path = KWIN_SCRIPT) -> None:  # fmt: skip
        address = env.get("DBUS_SESSION_BUS_ADDRESS", "").strip()
        if not address:
            raise DesktopError("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
        self.desktop = desktop
        self.clock = clock
        self.idle_ms = idle_ms
        self.script = script
        self.source = "KWin script" if desktop == "kde" else "GNOME Shell extension"
        self.gives_pids = True  # both shells name the focused window's process
        self.idle_protocol: str | None = None
        self.changed = False
        self.notices: list[IdleNotice] = []
        self._lock = threading.Lock()
        self._closed = False
        self._focus: Toplevel | None = None
        self.reports = 0  # window reports taken (the first at start, on both desktops)
        self._refused = 0
        self._started_ms = clock()
        self._keys: dict[str, int] = {}
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="desktop-bus",
                                        daemon=True)  # fmt: skip
        self._thread.start()
        self._bus: Any = None
        self._idle_watch = 0
        self._active_watch = 0
        self._pending_watch: asyncio.Future[None] | None = None
        self._wl_idle: WaylandIdle | None = None
        try:
            self._bus = self._run(_connect(address), 5.0)
            self._bus.add_message_handler(self._on_message)
            if desktop == "kde":
                self._run(self._start_kde(), 10.0)
                self._wl_idle = WaylandIdle.start(env, clock, idle_ms, self._add_notice)
                self.idle_protocol = self._wl_idle.protocol if self._wl_idle else None
            else:
                self._run(self._start_gnome(), 10.0)
            if self.idle_protocol is None:
                self._run(self._start_screensaver(), 5.0)
        except BaseException:
            self.close()
            raise
        self.changed = False

    # ---------------------------------------------------------------- bus plumbing

    def _run(self, coro: Coroutine[Any, Any, Any], timeout: float) -> Any:
        fut = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return fut.result(timeout)
        except TimeoutError as exc:
            fut.cancel()
            raise DesktopError(f"the session bus did not answer within {timeout:g} s") from exc

    async def _call(self, dest: str, path: str, iface: str, member: str, sig: str = "",
                    body: tuple[Any, ...] = ()) -> list[Any]:  # fmt: skip
        from dbus_fast import Message, MessageType

        msg = Message(
            destination=dest, path=path, interface=iface, member=member, signature=sig,
            body=list(body),
        )  # fmt: skip
        reply = await self._bus.call(msg)
        if reply is None or reply.message_type == MessageType.ERROR:
            name = reply.error_name if reply is not None else "no reply"
            detail = reply.body[0] if reply is not None and reply.body else ""
            raise LookupError(f"{name}: {detail}" if detail else str(name))
        return list(reply.body)

    async def _match(self, rule: str) -> None:
        await self._call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                         "org.freedesktop.DBus", "AddMatch", "s", (rule,))  # fmt: skip

    def _on_message(self, msg: Any) -> Any:
        from dbus_fast import Message, MessageType

        if (
            msg.message_type == MessageType.METHOD_CALL
            and msg.path == RECORDER_PATH
            and msg.interface == RECORDER_IFACE
        ):
            if msg.member == "WindowActivated" and is_window_report(msg.signature):
                self._set_focus(*msg.body)
                return Message.new_method_return(msg)
            self._refused += 1
            self._wake()
            return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod",
                                     f"no method {msg.member}({msg.signature})")  # fmt: skip
        if msg.message_type != MessageType.SIGNAL:
            return None
        if msg.interface == SHELL_IFACE and msg.member == "FocusChanged":
            if is_window_report(msg.signature):
                self._set_focus(*msg.body)
            else:
                self._refused += 1
                self._wake()
        elif msg.interface == MUTTER_IDLE_IFACE and msg.member == "WatchFired" and msg.body:
            self._watch_fired(int(msg.body[0]))
        elif (
            msg.interface == SCREENSAVER_IFACE
            and msg.member == "ActiveChanged"
            and msg.signature == "b"
            and self.idle_protocol == SCREENSAVER
        ):
            now = self.clock()
            self._add_notice(IdleNotice(now, bool(msg.body[0]), now))
        return None

    # ---------------------------------------------------------------- KDE

    async def _start_kde(self) -> None:
        from dbus_fast import RequestNameReply

        reply = await self._bus.request_name(RECORDER_NAME)
        if reply not in (RequestNameReply.PRIMARY_OWNER, RequestNameReply.ALREADY_OWNER):
            raise DesktopError(f"{RECORDER_NAME} is taken: is another recorder running?")
        scripting = (KWIN_NAME, KWIN_SCRIPTING_PATH, KWIN_SCRIPTING_IFACE)
        try:
            # A script left by a recorder that was killed would report twice: unload it.
            await self._call(*scripting, "unloadScript", "s", (KWIN_PLUGIN,))
            (script_id,) = await self._call(*scripting, "loadScript", "ss",
                                            (str(self.script), KWIN_PLUGIN))  # fmt: skip
        except LookupError as exc:
            raise DesktopError(
                f"cannot load the KWin script over D-Bus ({exc}); is this a KDE Plasma "
                "session (KWin 5.27 or 6)?"
            ) from exc
        if int(script_id) < 0:
            raise DesktopError(f"KWin refused the script {self.script}")
        # KWin 6 and late 5.x name the script's object /Scripting/Script<id>; older /<id>.
        for path in (f"/Scripting/Script{int(script_id)}", f"/{int(script_id)}"):
            with contextlib.suppress(LookupError):
                await self._call(KWIN_NAME, path, KWIN_SCRIPT_IFACE, "run")
                return
        raise DesktopError("KWin loaded the script but would not run it")

    async def _stop_kde(self) -> None:
        with contextlib.suppress(LookupError):
            await self._call(KWIN_NAME, KWIN_SCRIPTING_PATH, KWIN_SCRIPTING_IFACE,
                             "unloadScript", "s", (KWIN_PLUGIN,))  # fmt: skip

    # ---------------------------------------------------------------- GNOME

    async def _start_gnome(self) -> None:
        await self._match(f"type='signal',interface='{SHELL_IFACE}',member='FocusChanged'")
        try:
            body = await self._call(SHELL_NAME, SHELL_PATH, SHELL_IFACE, "GetFocus")
        except LookupError as exc:
            raise DesktopError(GNOME_EXTENSION_MISSING) from exc
        self._set_focus(*body)
        await self._match(f"type='signal',interface='{MUTTER_IDLE_IFACE}',member='WatchFired'")
        try:
            (self._idle_watch,) = await self._call(
                MUTTER_IDLE_NAME,
                MUTTER_IDLE_PATH,
                MUTTER_IDLE_IFACE,
                "AddIdleWatch",
                "t",
                (self.idle_ms,),
            )
        except LookupError:
            return  # no idle monitor: no away periods, said in the start row
        self.idle_protocol = MUTTER_IDLE

    # ---------------------------------------------------------------- the last resort

    async def _start_screensaver(self) -> None:
        await self._match(f"type='signal',interface='{SCREENSAVER_IFACE}',member='ActiveChanged'")
        try:
            (active,) = await self._call(SCREENSAVER_NAME, SCREENSAVER_PATH, SCREENSAVER_IFACE,
                                         "GetActive")  # fmt: skip
        except (LookupError, ValueError):
            return  # no screen saver either: no away periods, said in the start row
        self.idle_protocol = SCREENSAVER
        if active:
            now = self.clock()
            self._add_notice(IdleNotice(now, True, now))

    def _watch_fired(self, watch: int) -> None:
        if watch and watch == self._idle_watch:
            self._on_notice(True)
            # The user-active watch fires once, at the next input.
            self._pending_watch = asyncio.ensure_future(self._add_active_watch(), loop=self._loop)
        elif watch and watch == self._active_watch:
            self._active_watch = 0
            self._on_notice(False)

    async def _add_active_watch(self) -> None:
        with contextlib.suppress(LookupError):
            (self._active_watch,) = await self._call(
                MUTTER_IDLE_NAME, MUTTER_IDLE_PATH, MUTTER_IDLE_IFACE, "AddUserActiveWatch"
            )

    # ---------------------------------------------------------------- state

    def _set_focus(self, wid: str, app: str, title: str, pid: float) -> None:
        number = int(pid)  # (a double from KWin's script engine: a whole number)
        with self._lock:
            self.reports += 1
            if not wid:
                self._focus = None
            else:
                key = self._keys.setdefault(wid, len(self._keys) + 1)
                self._focus = Toplevel(key, decode_text(app, None), decode_text(title, None),
                                       True, pid=number if number > 0 else None)  # fmt: skip
            self.changed = True
        self._wake()

    def silence(self, now: int) -> str | None:
        """Why the window source is taken to be silent (None: it reports): every report
        it sent was refused, or none came within ``SILENT_AFTER_MS`` of the start (the
        KWin script and the GNOME extension both report once at once)."""
        with self._lock:
            if self.reports:
                return None
            if self._refused:
                return f"the {self.source}'s window reports are refused ({self._refused})"
            if now - self._started_ms >= SILENT_AFTER_MS:
                return f"no window report from the {self.source} in {SILENT_AFTER_MS // 1000} s"
        return None

    def silence_due_ms(self) -> int | None:
        """When ``silence`` may next change by itself (None: only a report changes it)."""
        with self._lock:
            return None if self.reports or self._refused else self._started_ms + SILENT_AFTER_MS

    @property
    def refused(self) -> int:
        """Window reports refused for their D-Bus types (none, with every shell we know)."""
        return self._refused

    def _on_notice(self, idle: bool) -> None:
        self._add_notice(IdleNotice(self.clock(), idle))

    def _add_notice(self, notice: IdleNotice) -> None:
        with self._lock:
            self.notices.append(notice)
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"\0")

    # ---------------------------------------------------------------- the loop's side

    def fileno(self) -> int:
        return self._wake_r

    def prepare(self) -> None:
        pass

    def dispatch(self) -> None:
        with contextlib.suppress(OSError):
            os.read(self._wake_r, 4096)
        if self._bus is None or not self._bus.connected:
            raise DesktopError("lost the session bus")

    def focused(self) -> Toplevel | None:
        with self._lock:
            return self._focus

    def take_changed(self) -> bool:
        with self._lock:
            changed, self.changed = self.changed, False
        return changed

    def take_notices(self) -> list[IdleNotice]:
        with self._lock:
            out, self.notices = self.notices, []
        return out

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._wl_idle is not None:
            self._wl_idle.stop()
        if self._bus is not None:
            if self.desktop == "kde":
                with contextlib.suppress(Exception):
                    self._run(self._stop_kde(), 2.0)
            bus, self._bus = self._bus, None
            with contextlib.suppress(Exception):
                bus.disconnect()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(1.0)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


async def _connect(address: str) -> Any:
    from dbus_fast.aio import MessageBus

    # Made inside the bus thread's loop, which dbus-fast takes as its own.
    return await MessageBus(bus_address=address).connect()


def probe(desktop: str, env: dict[str, str]) -> str | None:
    """Why the ``kde`` or ``gnome`` backend cannot record this session (None: it can)."""
    try:
        DesktopBusScreen(desktop, env, lambda: 0, 1_000).close()
    except (DesktopError, OSError) as exc:
        return str(exc)
    return None
