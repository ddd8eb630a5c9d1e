"""Test-wide setup: the document cache, the recorder's state and the user's rule files
(projects.toml) live in a temporary folder, never in the user's home."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True, scope="session")
def _isolated_xdg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.mktemp("xdg")
    names = ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "ACTFRAMES_CACHE")
    saved = {k: os.environ.get(k) for k in names}
    os.environ["XDG_CACHE_HOME"] = str(Path(root) / "cache")
    os.environ["XDG_STATE_HOME"] = str(Path(root) / "state")
    os.environ["XDG_CONFIG_HOME"] = str(Path(root) / "config")
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
