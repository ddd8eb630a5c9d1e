"""Which backend the recorder picks from the session's environment, and the one-line
errors of `actframes record run` where none fits."""

from __future__ import annotations

import os
import subprocess

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.capture.session import BackendError, choose, desktop_of, is_wayland

from .xsession import record_argv


@pytest.mark.parametrize(
    ("env", "backend", "desktop"),
    [
        ({"DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "XFCE"}, "x11",
         "xfce"),
        ({"DISPLAY": ":0"}, "x11", ""),
        ({"XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-1",
          "XDG_CURRENT_DESKTOP": "sway"}, "wlroots", "sway"),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "Hyprland"}, "wlroots",
         "hyprland"),
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":1", "XDG_CURRENT_DESKTOP": "river"},
         "wlroots", "river"),
        # An unknown Wayland desktop: try the wlroots protocol (the compositor says).
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "Newcomer"}, "wlroots",
         "newcomer"),
        # KDE and GNOME on Wayland: their shells report the focus over D-Bus.
        ({"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland",
          "XDG_CURRENT_DESKTOP": "ubuntu:GNOME"}, "gnome", "gnome"),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE"}, "kde", "kde"),
        # A session that says X11 is X11, whatever a stray WAYLAND_DISPLAY says.
        ({"XDG_SESSION_TYPE": "x11", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"},
         "x11", ""),
    ],
)  # fmt: skip
def test_auto_choice(env: dict[str, str], backend: str, desktop: str) -> None:
    kind = choose(env)
    assert (kind.backend, kind.desktop) == (backend, desktop)
    if backend == "x11" and kind.wayland:
        assert kind.note  # falling back to XWayland is always said


def test_asked_for_wins() -> None:
    env = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "sway"}
    assert choose(env, "x11").backend == "x11"
    assert choose({"DISPLAY": ":0"}, "wlroots").backend == "wlroots"
    with pytest.raises(BackendError, match="unknown backend"):
        choose(env, "mir")


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"}, "WAYLAND_DISPLAY"),
    ],
)
def test_no_backend_fits(env: dict[str, str], words: str) -> None:
    with pytest.raises(BackendError, match=words):
        choose(env)


_names = st.sampled_from(["GNOME", "ubuntu", "KDE", "sway", "Unity", "X-Cinnamon", "", " "])


@given(st.lists(_names, max_size=4), st.booleans(), st.booleans(), st.booleans())
def test_choice_is_total_and_honest(desktops: list[str], wl: bool, x: bool, typed: bool) -> None:
    """Every environment gets a backend or a BackendError (nothing else); a Wayland
    session is never recorded as plain X11 without a note saying so."""
    env = {"XDG_CURRENT_DESKTOP": ":".join(desktops)}
    if wl:
        env["WAYLAND_DISPLAY"] = "wayland-0"
    if x:
        env["DISPLAY"] = ":0"
    if typed:
        env["XDG_SESSION_TYPE"] = "wayland" if wl else "x11"
    try:
        kind = choose(env)
    except BackendError:
        assert is_wayland(env) and not x
        return
    assert kind.backend in ("x11", "wlroots", "kde", "gnome")
    assert kind.desktop == desktop_of(env)
    if kind.backend == "x11" and is_wayland(env):
        assert kind.note


def test_record_run_says_why_in_one_line(tmp_path: object) -> None:
    """KDE Plasma without a session bus: one line, exit 1, no traceback, no store."""
    env = {"PATH": "/usr/bin:/bin", "WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE",
           "XDG_STATE_HOME": str(tmp_path), "HOME": str(tmp_path)}  # fmt: skip
    res = subprocess.run(
        record_argv("run", "--db", f"{tmp_path}/c.db"),
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert res.returncode == 1
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "no session bus" in lines[0], res.stderr
    assert "Traceback" not in res.stderr
    assert not os.path.exists(f"{tmp_path}/c.db")
