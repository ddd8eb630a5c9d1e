"""Test-wide setup: the document cache and the recorder's state live in a temporary
folder, never in the user's home."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_xdg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("xdg")
    saved = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "ACTFRAMES_CACHE")}
    os.environ["XDG_CACHE_HOME"] = str(Path(root) / "cache")
    os.environ["XDG_STATE_HOME"] = str(Path(root) / "state")
    os.environ.pop("ACTFRAMES_CACHE", None)
    yield
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store (``actframes demo``'s day), built once per test module."""
    from actframes.demo import build_demo_store

    path = tmp_path_factory.mktemp("demo") / "demo.db"
    build_demo_store(path)
    return path
