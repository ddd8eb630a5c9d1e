"""Fixtures shared by the CLI tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.demo import build_demo_store


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store, built once per test module."""
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    build_demo_store(db)
    return db
