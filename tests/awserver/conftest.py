"""The ActivityWatch server fixtures. CI sets ACTFRAMES_REQUIRE_AW=1, so a lost install
step fails these tests instead of skipping them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .server import AWServer, AWUnavailable, ensure_venv

REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_AW") == "1"


@pytest.fixture(scope="session")
def aw_python() -> Path:
    try:
        return ensure_venv()
    except AWUnavailable as exc:
        if REQUIRED:
            pytest.fail(f"ACTFRAMES_REQUIRE_AW=1, but {exc}")
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def aw_server(aw_python: Path) -> Iterator[AWServer]:
    server = AWServer(aw_python)
    try:
        yield server
    finally:
        server.cleanup()
