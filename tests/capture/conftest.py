"""Fixtures for recorder tests on a real X server or a real Wayland compositor (skipped
when Xvfb or sway is not installed, failed instead in CI)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .wlsession import WaylandSession, wayland_session
from .xsession import XSession, x_session


@pytest.fixture
def xs(tmp_path: Path) -> Iterator[XSession]:
    """Xvfb on a free display with openbox managing windows; both ended by pid."""
    with x_session(tmp_path) as session:
        yield session


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[WaylandSession]:
    """Headless sway (as an unprivileged user when the tests run as root), ended by pid."""
    with wayland_session(tmp_path) as session:
        yield session
