"""Which recorder backend fits the desktop session: a pure choice from the environment.

- ``x11``: an X11 session (``DISPLAY`` without Wayland), or asked for explicitly — in a
  Wayland session with XWayland it sees XWayland windows only.
- ``wlroots``: a Wayland session on a wlroots compositor (sway, Hyprland, river, labwc,
  Wayfire, …), read through ``wlr-foreign-toplevel-management-unstable-v1``. It is also
  the choice on an unknown Wayland desktop: the compositor says at once whether it offers
  the protocol, and the recorder fails with a clear line when it does not.
- ``kde`` / ``gnome``: KDE Plasma and GNOME on Wayland offer no such protocol to ordinary
  clients; a KWin script or a GNOME Shell extension reports the focused window over the
  session bus (``desktop_bus.py``). When that cannot work (no extension, say) and
  ``DISPLAY`` is set, the command line falls back to XWayland (``x11``) and says why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import ActframesError

BACKENDS = ("auto", "x11", "wlroots", "kde", "gnome")
_WLROOTS = ("sway", "hyprland", "river", "labwc", "wayfire", "wlroots", "niri", "qtile")


class BackendError(ActframesError):
    """No backend can record this session."""


@dataclass(frozen=True, slots=True)
class SessionKind:
    backend: str  # x11 | wlroots | kde | gnome
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
    """The backend for this session (``wanted``: one of ``BACKENDS``)."""
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
        return SessionKind(desktop, desktop, True)
    if not env.get("WAYLAND_DISPLAY", "").strip():
        if has_x:
            return SessionKind("x11", desktop, True, "WAYLAND_DISPLAY is not set")
        raise BackendError(
            "this is a Wayland session but WAYLAND_DISPLAY is not set (start actframes "
            "record from inside the session, or export WAYLAND_DISPLAY)"
        )
    return SessionKind("wlroots", desktop, True)
