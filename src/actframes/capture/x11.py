"""The focused X11 window: which one, its title, its app — through python-xlib.

The focused window is the root's ``_NET_ACTIVE_WINDOW`` (set by every EWMH window
manager); with no window manager running the X input focus is used instead, walked up
to the top-level window that carries ``WM_CLASS``. Titles come from ``_NET_WM_NAME``
(UTF8_STRING) or ``WM_NAME`` (STRING is Latin-1; UTF8_STRING and COMPOUND_TEXT are read
as UTF-8), always decoded with replacement, never raising. The app is the ``WM_CLASS``
class; the executable name comes from ``_NET_WM_PID`` (or, when a client does not set
it, the X-Resource extension's client PID) through ``/proc``.

Changes are noticed from PropertyNotify events on the root (active window) and on the
focused window (title), so the recorder sleeps in ``select`` instead of polling.

The session check is in ``x11_session``; window names and their decoding in
``window_info``.
"""

from __future__ import annotations

import contextlib
import socket
from typing import Any

from Xlib import X, error

from .window_info import WindowInfo, decode_text, exe_name, split_wm_class
from .x11_session import open_display

_TITLE_PROPS = ("_NET_WM_NAME", "WM_NAME")


class X11Screen:
    """One connection to the X server: focus, titles, idle time, monitors."""

    def __init__(self, display_name: str) -> None:
        self.name = display_name
        self.d = open_display(display_name)
        # Errors from requests on windows that vanished meanwhile are expected; they must
        # not reach stderr (python-xlib prints them by default).
        self.d.set_error_handler(lambda *args: None)
        self.root = self.d.screen().root
        self._atoms: dict[str, int] = {}
        self._atom_names: dict[int, str] = {}
        self.root.change_attributes(event_mask=X.PropertyChangeMask)
        self._watched: int = 0
        self.host = socket.gethostname()
        self.has_screensaver = self.d.has_extension("MIT-SCREEN-SAVER")
        self.has_res = self.d.has_extension("X-Resource")
        self.has_randr = self.d.has_extension("RANDR")
        self._monitors: list[tuple[str, int, int, int, int]] | None = None
        self.d.flush()

    def fileno(self) -> int:
        return int(self.d.fileno())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.d.close()

    def atom(self, name: str) -> int:
        a = self._atoms.get(name)
        if a is None:
            a = int(self.d.intern_atom(name))
            self._atoms[name] = a
            self._atom_names[a] = name
        return a

    def atom_name(self, atom: int) -> str:
        name = self._atom_names.get(atom)
        if name is None:
            try:
                name = str(self.d.get_atom_name(atom))
            except Exception:
                name = ""
            self._atom_names[atom] = name
        return name

    # ------------------------------------------------------------ events

    def drain_events(self) -> bool:
        """Read queued X events; True when the focus or the focused title may have changed."""
        changed = False
        interesting = {self.atom("_NET_ACTIVE_WINDOW"), *(self.atom(p) for p in _TITLE_PROPS)}
        while self.d.pending_events():
            ev = self.d.next_event()
            if (ev.type == X.PropertyNotify and ev.atom in interesting) or ev.type in (
                X.DestroyNotify,
                X.UnmapNotify,
            ):
                changed = True
        return changed

    # ------------------------------------------------------------ focus

    def wm_running(self) -> bool:
        """An EWMH window manager announces itself on the root (and keeps the window)."""
        prop = self._prop(self.root, "_NET_SUPPORTING_WM_CHECK")
        if prop is None or not prop.value:
            return False
        child = self._window(int(prop.value[0]))
        check = self._prop(child, "_NET_SUPPORTING_WM_CHECK")
        return check is not None and bool(check.value) and int(check.value[0]) == int(prop.value[0])

    def focused_window(self, has_wm: bool) -> int:
        """The focused top-level client window id (0: none)."""
        if has_wm:
            prop = self._prop(self.root, "_NET_ACTIVE_WINDOW")
            # Unset or 0 means no client has the focus (the desktop): the input focus then
            # sits on a window of the window manager's own, which is not an app.
            if prop is not None and prop.value is not None and len(prop.value):
                return int(prop.value[0])
            return 0
        return self._input_focus_client()

    def _input_focus_client(self) -> int:
        try:
            focus = self.d.get_input_focus().focus
        except error.ConnectionClosedError:
            raise
        except Exception:
            return 0
        wid = focus if isinstance(focus, int) else int(focus.id)
        if wid in (X.NONE, X.PointerRoot) or wid == self.root.id:
            return 0
        # Walk up to the top-level window, then find the client carrying WM_CLASS (the
        # top-level itself without a WM, a child of the WM's frame with one).
        top = wid
        for _ in range(64):
            try:
                tree = self._window(top).query_tree()
            except error.ConnectionClosedError:
                raise
            except Exception:
                return 0
            if tree.parent is None or int(tree.parent.id) in (0, self.root.id):
                break
            if self._prop(self._window(top), "WM_CLASS") is not None:
                return top
            top = int(tree.parent.id)
        return self._client_below(top, depth=3) or top

    def _client_below(self, wid: int, depth: int) -> int:
        if self._prop(self._window(wid), "WM_CLASS") is not None:
            return wid
        if depth == 0:
            return 0
        try:
            children = self._window(wid).query_tree().children
        except error.ConnectionClosedError:
            raise
        except Exception:
            return 0
        for child in children:
            found = self._client_below(int(child.id), depth - 1)
            if found:
                return found
        return 0

    def watch(self, wid: int) -> None:
        """Listen for title changes on ``wid`` only (the focused window)."""
        if wid == self._watched:
            return
        if self._watched:
            self._window(self._watched).change_attributes(event_mask=X.NoEventMask)
        if wid:
            self._window(wid).change_attributes(
                event_mask=X.PropertyChangeMask | X.StructureNotifyMask
            )
        self._watched = wid
        self.d.flush()

    def window_info(self, wid: int) -> WindowInfo | None:
        """Title, class and process of ``wid``; None when it vanished meanwhile."""
        if not wid:
            return None
        w = self._window(wid)
        cls = self._prop(w, "WM_CLASS")
        if cls is None and self._prop(w, "WM_NAME") is None:
            # Not a client window we can read (vanished, or a bare frame).
            try:
                w.get_geometry()
            except error.ConnectionClosedError:
                raise
            except Exception:
                return None
        instance, klass = split_wm_class(cls.value if cls is not None else None)
        title = ""
        for prop_name in _TITLE_PROPS:
            prop = self._prop(w, prop_name)
            if prop is not None and prop.value is not None and len(prop.value):
                title = decode_text(prop.value, self.atom_name(int(prop.property_type)))
                break
        pid = self._pid(w)
        exe = exe_name(pid) if pid and self._local(w) else None
        return WindowInfo(wid, title, instance, klass, pid, exe)

    def _pid(self, w: Any) -> int | None:
        prop = self._prop(w, "_NET_WM_PID")
        if prop is not None and prop.value is not None and len(prop.value):
            return int(prop.value[0]) or None
        if not self.has_res:
            return None
        try:
            from Xlib.ext import res

            reply = self.d.res_query_client_ids(
                [{"client": int(w.id), "mask": res.LocalClientPIDMask}]
            )
            for item in reply.ids:
                if item.value:
                    return int(item.value[0]) or None
        except Exception:
            return None
        return None

    def _local(self, w: Any) -> bool:
        """Whether the client runs on this machine (so its PID names a local process)."""
        prop = self._prop(w, "WM_CLIENT_MACHINE")
        if prop is None or not prop.value:
            return True
        machine = decode_text(prop.value, "STRING")
        return machine in (self.host, self.host.split(".")[0], "localhost")

    # ------------------------------------------------------------ idle, monitors, a11y

    def idle_ms(self) -> int | None:
        """Milliseconds since the last input of any kind (pointer motion included)."""
        if not self.has_screensaver:
            return None
        try:
            return int(self.root.screensaver_query_info().idle)
        except Exception:
            return None

    def geometry(self, wid: int) -> tuple[int, int, int, int] | None:
        """``wid``'s (x, y, width, height) on the screen (root coordinates)."""
        if not wid:
            return None
        try:
            w = self._window(wid)
            geo = w.get_geometry()
            # Where the root's origin lies in the window's coordinates: minus its position.
            pos = w.translate_coords(self.root, 0, 0)
        except error.ConnectionClosedError:
            raise
        except Exception:
            return None
        return -int(pos.x), -int(pos.y), int(geo.width), int(geo.height)

    def monitor_of(self, wid: int, box: tuple[int, int, int, int] | None = None) -> str | None:
        """The name of the monitor holding the centre of ``wid``."""
        if not self.has_randr or not wid:
            return None
        try:
            if self._monitors is None:
                self._monitors = [
                    (self.atom_name(int(m.name)), m.x, m.y, m.width_in_pixels, m.height_in_pixels)
                    for m in self.root.xrandr_get_monitors(is_active=True).monitors
                ]
        except error.ConnectionClosedError:
            raise
        except Exception:
            return None
        box = box or self.geometry(wid)
        if box is None:
            return None
        cx, cy = box[0] + box[2] // 2, box[1] + box[3] // 2
        for name, x, y, width, height in self._monitors:
            if x <= cx < x + width and y <= cy < y + height:
                return name or None
        return self._monitors[0][0] if len(self._monitors) == 1 else None

    def forget_monitors(self) -> None:
        self._monitors = None

    def atspi_bus_address(self) -> str | None:
        """The accessibility bus the AT-SPI launcher announces on the root window."""
        prop = self._prop(self.root, "AT_SPI_BUS")
        if prop is None or prop.value is None or not len(prop.value):
            return None
        return decode_text(prop.value, "STRING") or None

    # ------------------------------------------------------------ helpers

    def _window(self, wid: int) -> Any:
        return self.d.create_resource_object("window", wid)

    def _prop(self, w: Any, name: str) -> Any:
        try:
            return w.get_full_property(self.atom(name), X.AnyPropertyType)
        except error.ConnectionClosedError:
            raise
        except Exception:
            # BadWindow when the window vanished between the event and the request.
            return None
