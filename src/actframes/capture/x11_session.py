"""Whether there is an X11 session to record, and opening its display: one line naming
the display and the cause when it cannot be (no display, Wayland, refused)."""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from Xlib import display, error

from ..errors import ActframesError


class SessionError(ActframesError):
    """The desktop session cannot be recorded (no X11 display, Wayland, a missing extension)."""


def session_check(env: Mapping[str, str]) -> str | None:
    """Raise SessionError when there is no X11 display to record; return a warning to
    log when only part of the desktop is visible (Wayland with XWayland)."""
    display = env.get("DISPLAY", "").strip()
    wayland = bool(env.get("WAYLAND_DISPLAY")) or env.get("XDG_SESSION_TYPE") == "wayland"
    if not display:
        if wayland:
            raise SessionError(
                "this is a Wayland session without an X11 display: the x11 backend sees "
                "XWayland windows only, when DISPLAY is set (on a wlroots compositor, "
                "--backend wlroots records native windows)"
            )
        raise SessionError(
            "no X11 display: DISPLAY is not set (actframes record needs an X11 session; "
            "try DISPLAY=:0)"
        )
    if wayland:
        return (
            "Wayland session: only XWayland windows are visible to actframes record; "
            "time in native Wayland windows is written as app '[wayland]' without a title"
        )
    return None


def _precheck_display(name: str) -> None:
    """Fail fast, instead of hanging, when the display's server is not there."""
    host, _, rest = name.rpartition(":")
    number = rest.split(".", 1)[0]
    if not number.isdigit():
        raise SessionError(f"DISPLAY={name!r} is not an X11 display name")
    if host in ("", "unix") or host.startswith("/"):
        sock = Path(f"/tmp/.X11-unix/X{number}")
        if host.startswith("/"):
            return  # a launchd-style socket path: let Xlib try it
        if not sock.exists():
            raise SessionError(f"cannot open X11 display {name}: no X server socket {sock}")
        return
    try:
        with socket.create_connection((host, 6000 + int(number)), timeout=5.0):
            pass
    except OSError as exc:
        raise SessionError(f"cannot open X11 display {name}: {exc.strerror or exc}") from exc


def open_display(name: str) -> Any:
    _precheck_display(name)
    try:
        return display.Display(name)
    except (error.DisplayError, error.ConnectionClosedError, OSError) as exc:
        text = str(exc).strip().replace("\n", " ") or type(exc).__name__
        raise SessionError(f"cannot open X11 display {name}: {text}") from exc
