"""Accessibility elements and browser URLs over AT-SPI (the accessibility D-Bus), read
with dbus-fast in a background asyncio thread.

What is read, for the focused window only:

- its accessible frame's name (Chromium marks private windows there, "… (Incognito)");
- elements for resolving clicks: role, name and screen bounds of the showing elements
  whose role is in ``KEPT_ROLES`` (controls, links, tabs, menus, headings, documents),
  breadth-first, at most ``max_elements``, within a time budget. Text content is never
  read: no ``Text`` or ``Value`` interface call is made for an element, and the names of
  password fields are blanked;
- for browsers, the URL: the ``URI``/``DocURL`` attribute of the showing web document,
  else the address bar's text — read only while the address bar is *not* focused, so
  what the user is typing there is never taken.

When there is no accessibility bus, or an app does not expose itself, everything here
returns nothing and the recorder goes on without it (the log says so once).

The tree itself is read in ``atspi_tree``; here, the connection and its event-loop thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Awaitable, Mapping

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus

from .atspi_text import AtspiText, VisibleText
from .atspi_tree import Box, Inspection, T


class A11yUnavailable(RuntimeError):
    pass


class Accessibility(AtspiText):
    """A connection to the accessibility bus, served by its own event-loop thread."""

    def __init__(self, address: str, *, connect_timeout: float = 2.0) -> None:
        self.address = address
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="atspi", daemon=True)
        self._thread.start()
        self._bus: MessageBus | None = None
        self._pids: dict[str, int | None] = {}
        self._address_bars: dict[tuple[str, str], tuple[str, str]] = {}
        try:
            self._run(self._connect(), connect_timeout)
        except Exception as exc:
            self.close()
            raise A11yUnavailable(f"cannot connect to the accessibility bus ({exc})") from exc

    # ------------------------------------------------------------ plumbing

    def _run(self, coro: Awaitable[T], timeout: float) -> T:
        fut = asyncio.run_coroutine_threadsafe(_as_coro(coro), self._loop)
        try:
            return fut.result(timeout)
        except BaseException:
            fut.cancel()
            raise

    async def _connect(self) -> None:
        self._bus = await MessageBus(bus_address=self.address).connect()

    def close(self) -> None:
        if self._bus is not None:
            bus = self._bus
            self._bus = None
            with contextlib.suppress(Exception):
                self._run(_disconnect(bus), 1.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(1.0)

    # ------------------------------------------------------------ public

    def inspect(
        self,
        pid: int | None,
        title: str,
        *,
        elements: bool,
        url: bool,
        bounds: Box | None = None,
        max_elements: int = 400,
        max_nodes: int = 1500,
        timeout: float = 1.0,
    ) -> Inspection | None:
        """Look at the frame of process ``pid`` that shows ``title`` (at ``bounds`` on the
        screen, when known). None: the app does not expose itself."""
        fut = self.inspect_async(
            pid,
            title,
            elements=elements,
            url=url,
            bounds=bounds,
            max_elements=max_elements,
            max_nodes=max_nodes,
            timeout=timeout,
        )
        if fut is None:
            return None
        try:
            return fut.result(timeout + 1.0)  # the look itself gives up after timeout + 0.5
        except Exception:
            fut.cancel()
            return None

    def inspect_async(
        self,
        pid: int | None,
        title: str,
        *,
        elements: bool,
        url: bool,
        bounds: Box | None = None,
        max_elements: int = 400,
        max_nodes: int = 1500,
        timeout: float = 1.5,
    ) -> concurrent.futures.Future[Inspection | None] | None:
        """Like ``inspect`` but without waiting: the recorder collects the result later,
        so a slow application never holds up its commits."""
        if not pid or self._bus is None:
            return None

        async def bounded() -> Inspection | None:
            try:
                return await asyncio.wait_for(
                    self._inspect(
                        pid, title, bounds, elements, url, max_elements, max_nodes, timeout
                    ),
                    timeout + 0.5,
                )
            except Exception:
                return None

        return asyncio.run_coroutine_threadsafe(bounded(), self._loop)

    def visible_text_async(
        self,
        pid: int | None,
        title: str,
        *,
        bounds: Box | None = None,
        max_chars: int = 8_000,
        max_nodes: int = 1500,
        timeout: float = 1.5,
        typed: bool = False,
    ) -> concurrent.futures.Future[VisibleText | None] | None:
        """The showing text of ``pid``'s frame for ``title`` (``atspi_text``; with
        ``typed``, editable elements' contents too, never a password field's), without
        waiting; None when there is nothing to ask."""
        if not pid or self._bus is None:
            return None

        async def bounded() -> VisibleText | None:
            try:
                return await asyncio.wait_for(
                    self._visible_text(pid, title, bounds, max_chars, max_nodes, timeout, typed),
                    timeout + 0.5,
                )
            except Exception:
                return None

        return asyncio.run_coroutine_threadsafe(bounded(), self._loop)

    def address_bar_text(self, pid: int | None) -> str | None:
        """The cached address bar's text for ``pid``'s app (cheap: one or two calls), or
        None when it is focused (the user is typing there) or unknown."""
        if not pid or self._bus is None:
            return None
        try:
            return self._run(self._address_bar_text(pid), 0.5)
        except Exception:
            return None


async def _as_coro(aw: Awaitable[T]) -> T:
    return await aw


async def _disconnect(bus: MessageBus) -> None:
    bus.disconnect()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(bus.wait_for_disconnect(), 0.5)  # type: ignore[no-untyped-call]


def session_bus_a11y_address(env: Mapping[str, str], timeout: float = 1.0) -> str | None:
    """The accessibility bus address from the session bus (``org.a11y.Bus.GetAddress``),
    for desktops that do not announce it on the X root window."""
    address = env.get("DBUS_SESSION_BUS_ADDRESS")
    if not address:
        return None

    async def ask() -> str | None:
        bus = await MessageBus(bus_address=address).connect()
        try:
            reply = await bus.call(
                Message(
                    destination="org.a11y.Bus",
                    path="/org/a11y/bus",
                    interface="org.a11y.Bus",
                    member="GetAddress",
                )
            )
        finally:
            bus.disconnect()
        if reply is None or reply.message_type == MessageType.ERROR or not reply.body:
            return None
        return str(reply.body[0]) or None

    async def bounded() -> str | None:
        return await asyncio.wait_for(ask(), timeout)

    try:
        return asyncio.run(bounded())
    except Exception:
        return None
