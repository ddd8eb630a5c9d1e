"""Which recorder backend fits the desktop session: a pure choice from the environment.

- ``x11``: an X11 session (``DISPLAY`` without Wayland), or asked for explicitly — in a
  Wayland session with XWayland it sees XWayland windows only.
- ``wlroots``: a Wayland session on a wlroots compositor (sway, Hyprland, river, labwc,
  Wayfire, …), read through ``wlr-foreign-toplevel-management-unstable-v1``. It is also
  the choice on an unknown Wayland desktop: the compositor says at once whether it offers
  the protocol, and the recorder fails with a clear line when it does not.
- KDE Plasma and GNOME on Wayland offer no such protocol to ordinary clients. Until their
  adapters exist the recorder falls back to XWayland (``x11``, with the warning that
  native windows show as ``[wayland]``) when ``DISPLAY`` is set, and refuses otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import ActframesError

BACKENDS = ("auto", "x11", "wlroots")
_WLROOTS = ("sway", "hyprland", "river", "labwc", "wayfire", "wlroots", "niri", "qtile")


class BackendError(ActframesError):
    """No backend can record this session."""


@dataclass(frozen=True, slots=True)
class SessionKind:
    backend: str  # x11 | wlroots
    desktop: str  # from XDG_CURRENT_DESKTOP, lower case ("" when unset)
    wayland: bool  # the session is a Wayland session
    note: str = ""  # why this backend, when it is not the obvious one


def desktop_of(env: Mapping[str, str]) -> str:
    """The desktop's name: the first entry of ``XDG_CURRENT_DESKTOP`` that we know, else
    its first entry (``ubuntu:GNOME`` is GNOME)."""
    names = [n.strip().lower() for n in env.get("XDG_CURRENT_DESKTOP", "").split(":")]
    names = [n for n in names if n]
    for n in names:
        if n in ("kde", "gnome") or n in _WLROOTS:
            return n
    return names[0] if names else ""


def is_wayland(env: Mapping[str, str]) -> bool:
    kind = env.get("XDG_SESSION_TYPE", "").strip().lower()
    if kind == "x11":
        return False
    return kind == "wayland" or bool(env.get("WAYLAND_DISPLAY", "").strip())


def choose(env: Mapping[str, str], wanted: str = "auto") -> SessionKind:
    """The backend for this session (``wanted``: auto, x11 or wlroots)."""
    if wanted not in BACKENDS:
        raise BackendError(f"unknown backend {wanted!r} (choose from {', '.join(BACKENDS)})")
    desktop = desktop_of(env)
    wayland = is_wayland(env)
    has_x = bool(env.get("DISPLAY", "").strip())
    if wanted != "auto":
        return SessionKind(wanted, desktop, wayland, "asked for")
    if not wayland:
        return SessionKind("x11", desktop, False)
    if desktop in ("kde", "gnome"):
        name = "KDE Plasma" if desktop == "kde" else "GNOME"
        if has_x:
            return SessionKind(
                "x11",
                desktop,
                True,
                f"{name} on Wayland has no window protocol for other programs yet: "
                "recording XWayland windows only",
            )
        raise BackendError(
            f"{name} on Wayland is not supported by actframes record yet, and there is no "
            "XWayland display (DISPLAY) to fall back on"
        )
    if not env.get("WAYLAND_DISPLAY", "").strip():
        if has_x:
            return SessionKind("x11", desktop, True, "WAYLAND_DISPLAY is not set")
        raise BackendError(
            "this is a Wayland session but WAYLAND_DISPLAY is not set (start actframes "
            "record from inside the session, or export WAYLAND_DISPLAY)"
        )
    return SessionKind("wlroots", desktop, True)
