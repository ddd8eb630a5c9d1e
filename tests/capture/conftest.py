"""Fixtures for recorder tests on a real X server or a real Wayland compositor (skipped
when Xvfb, sway, KWin or GNOME Shell is not installed, failed instead in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .gnome_session import GnomeSession, gnome_session
from .kwin_session import KWinSession, kwin_session
from .wlsession import WaylandSession, wayland_session
from .xsession import XSession, need, wait_for, x_session

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"


@pytest.fixture
def xs(tmp_path: Path) -> Iterator[XSession]:
    """Xvfb on a free display with openbox managing windows; both ended by pid."""
    with x_session(tmp_path) as session:
        yield session


@pytest.fixture
def a11y_env(xs: XSession) -> dict[str, str]:
    """A session bus and an accessibility bus for this X display (ended by pid)."""
    need("dbus-daemon", LAUNCHER)
    xs.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], log="dbus.log")
    address = wait_for(
        "the session bus",
        lambda: next(
            (ln for ln in (xs.tmp / "dbus.log").read_text().splitlines() if "unix:" in ln), ""
        ),
    )
    env = {k: v for k, v in xs.env.items() if k != "NO_AT_BRIDGE"}
    env["DBUS_SESSION_BUS_ADDRESS"] = address.strip()
    xs.spawn([LAUNCHER, "--launch-immediately"], log="atspi.log", env=env)
    wait_for(
        "the accessibility bus",
        lambda: "unix:" in xs.run(["xprop", "-root", "AT_SPI_BUS"], check=False),
        15,
    )
    return env


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[WaylandSession]:
    """Headless sway (as an unprivileged user when the tests run as root), ended by pid."""
    with wayland_session(tmp_path) as session:
        yield session


@pytest.fixture
def ks(tmp_path: Path) -> Iterator[KWinSession]:
    """Headless KWin 5.27 on a private session bus (as an unprivileged user), ended by pid."""
    with kwin_session(tmp_path) as session:
        yield session


@pytest.fixture
def gs(tmp_path: Path) -> Iterator[GnomeSession]:
    """Headless GNOME Shell on private session and system buses, ended by pid."""
    with gnome_session(tmp_path) as session:
        yield session
