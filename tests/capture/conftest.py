"""Fixtures for recorder tests on a real X server (skipped when Xvfb is not installed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .xsession import XSession


@pytest.fixture
def xs(tmp_path: Path) -> Iterator[XSession]:
    """Xvfb on a free display with openbox managing windows; both ended by pid."""
    session = XSession(tmp_path)
    try:
        yield session
    finally:
        session.close()
