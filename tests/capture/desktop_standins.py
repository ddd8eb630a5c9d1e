"""Stand-ins for the desktop side of the KDE and GNOME adapters, on a real session bus.

- ``ShellStandIn`` speaks what the GNOME Shell extension (``desktop/gnome-extension``)
  and Mutter speak: it owns ``org.actframes.Shell`` (``GetFocus``, signal
  ``FocusChanged``), ``org.gnome.Mutter.IdleMonitor`` (``AddIdleWatch``,
  ``AddUserActiveWatch``, ``RemoveWatch``, signal ``WatchFired``) and, when asked,
  ``org.freedesktop.ScreenSaver`` (``GetActive``, signal ``ActiveChanged``).
- ``KWinStandIn`` speaks what KWin speaks to the recorder: it owns ``org.kde.KWin`` with
  ``/Scripting`` ``loadScript`` / ``unloadScript`` and ``/Scripting/Script<id>``
  ``run``, and once the script runs it plays the script's part, calling the recorder's
  ``org.actframes.Recorder1.WindowActivated`` as ``kwin_focus.js`` does.

Each runs its own asyncio loop in a thread, with dbus-fast, as an independent client of
the bus; the test drives it (focus changes, idle watches) and reads what it was asked.
"""

from __future__ import annotations

import asyncio
import subprocess
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus

from .xsession import wait_for


def session_bus(tmp: Path, procs: list[subprocess.Popen[Any]]) -> str:
    """A private session bus (``dbus-daemon --session``); its address."""
    log = tmp / "dbus.log"
    proc = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=open(log, "wb"),  # noqa: SIM115 - lives with the process
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    procs.append(proc)
    line = wait_for(
        "the session bus",
        lambda: next((ln for ln in log.read_text().splitlines() if "unix:" in ln), ""),
    )
    return str(line).strip()


async def _connect(address: str) -> Any:
    return await MessageBus(bus_address=address).connect()


class _StandIn:
    names: tuple[str, ...] = ()

    def __init__(self, address: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.calls: list[tuple[str, str, list[Any]]] = []  # (path, member, body)
        self.bus: Any = self.run(_connect(address))
        self.bus.add_message_handler(self._handle)
        for name in self.names:
            self.run(self.bus.request_name(name))

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 5.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def _handle(self, msg: Message) -> Message | None:
        if msg.message_type != MessageType.METHOD_CALL:
            return None
        self.calls.append((str(msg.path), str(msg.member), list(msg.body)))
        return self.answer(msg)

    def answer(self, msg: Message) -> Message | None:
        raise NotImplementedError

    def signal(self, path: str, iface: str, member: str, sig: str, body: list[Any]) -> None:
        async def send() -> None:
            await self.bus.send(
                Message.new_signal(path, iface, member, sig, body)  # type: ignore[arg-type]
            )

        self.run(send())

    def close(self) -> None:
        self.bus.disconnect()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(2)


class ShellStandIn(_StandIn):
    """GNOME Shell with the actframes extension enabled, and Mutter's idle monitor."""

    names = ("org.actframes.Shell", "org.gnome.Mutter.IdleMonitor")

    def __init__(self, address: str, *, idle_monitor: bool = True,
                 screensaver: bool = False) -> None:  # fmt: skip
        self.focus: list[Any] = ["", "", "", 0]
        self.idle_monitor = idle_monitor
        self.screensaver = screensaver
        self.saver_active = False
        if screensaver:
            self.names = (*self.names, "org.freedesktop.ScreenSaver")
        self.watches: dict[int, str] = {}  # id -> "idle <ms>" | "active"
        self.next_watch = 0
        super().__init__(address)

    def answer(self, msg: Message) -> Message | None:
        if msg.path == "/org/actframes/Shell" and msg.member == "GetFocus":
            return Message.new_method_return(msg, "sssu", list(self.focus))
        if msg.path == "/org/gnome/Mutter/IdleMonitor/Core" and self.idle_monitor:
            if msg.member == "AddIdleWatch" and msg.signature == "t":
                return self._watch(msg, f"idle {msg.body[0]}")
            if msg.member == "AddUserActiveWatch":
                return self._watch(msg, "active")
            if msg.member == "RemoveWatch":
                self.watches.pop(int(msg.body[0]), None)
                return Message.new_method_return(msg)
        saver = msg.path == "/org/freedesktop/ScreenSaver" and self.screensaver
        if saver and msg.member == "GetActive":
            return Message.new_method_return(msg, "b", [self.saver_active])
        return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such")

    def saver(self, active: bool) -> None:
        """The screen saver starts or stops (``ActiveChanged``)."""
        self.saver_active = active
        self.signal("/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver",
                    "ActiveChanged", "b", [active])  # fmt: skip

    def _watch(self, msg: Message, kind: str) -> Message:
        self.next_watch += 1  # ids are never reused, as in Mutter
        wid = self.next_watch
        self.watches[wid] = kind
        return Message.new_method_return(msg, "u", [wid])

    def set_focus(self, wid: str, app: str, title: str, pid: int) -> None:
        """What the extension does on ``notify::focus-window`` / ``notify::title``."""
        self.focus = [wid, app, title, pid]
        self.signal("/org/actframes/Shell", "org.actframes.Shell1", "FocusChanged", "sssu",
                    list(self.focus))  # fmt: skip

    def fire(self, kind_prefix: str) -> None:
        """Mutter: the first watch of that kind fires (an active watch only once)."""
        wid = next(w for w, k in self.watches.items() if k.startswith(kind_prefix))
        if kind_prefix == "active":
            del self.watches[wid]
        self.signal("/org/gnome/Mutter/IdleMonitor/Core", "org.gnome.Mutter.IdleMonitor",
                    "WatchFired", "u", [wid])  # fmt: skip


class KWinStandIn(_StandIn):
    """KWin's scripting interface; after ``run`` it plays the loaded script's part."""

    names = ("org.kde.KWin",)
    SCRIPT_ID = 7

    def __init__(self, address: str) -> None:
        self.loaded: dict[str, str] = {}  # plugin -> script path
        self.running = False
        super().__init__(address)

    def answer(self, msg: Message) -> Message | None:
        if msg.path == "/Scripting" and msg.member == "loadScript" and msg.signature == "ss":
            path, plugin = msg.body
            if plugin in self.loaded:
                return Message.new_method_return(msg, "i", [-1])  # as KWin: already loaded
            self.loaded[plugin] = path
            return Message.new_method_return(msg, "i", [self.SCRIPT_ID])
        if msg.path == "/Scripting" and msg.member == "unloadScript":
            found = self.loaded.pop(msg.body[0], None) is not None
            self.running = self.running and not found
            return Message.new_method_return(msg, "b", [found])
        if msg.path == f"/Scripting/Script{self.SCRIPT_ID}" and msg.member == "run":
            self.running = bool(self.loaded)
            return Message.new_method_return(msg)
        return Message.new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod", "no such")

    def activate(
        self,
        wid: str,
        app: str,
        title: str,
        pid: float,
        pid_type: str = "i",
        *,
        refused: bool = False,
    ) -> None:
        """What kwin_focus.js's ``callDBus`` sends: KWin 5.27 makes the process id an
        int32 (``i``); other script engines may pick ``u``, ``x`` or ``d``. The reply
        must be a method return (an error when ``refused``)."""
        assert self.running, "the recorder never ran its KWin script"

        async def call() -> Any:
            msg = Message(
                destination="org.actframes.Recorder", path="/org/actframes/Recorder",
                interface="org.actframes.Recorder1", member="WindowActivated",
                signature="sss" + pid_type, body=[wid, app, title, pid],
            )  # fmt: skip
            return await self.bus.call(msg)

        reply = self.run(call())
        want = MessageType.ERROR if refused else MessageType.METHOD_RETURN
        assert reply.message_type == want, reply.body
