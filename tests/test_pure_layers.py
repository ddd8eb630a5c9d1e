"""The compiler, the steps and the emitters are pure functions over the model: none of
their modules opens a store. Only ``steps/store_queries.py``, the edge behind
``actframes steps`` and ``patterns``, reads one, through ``sources/``. The import graph is
read as ``tests/test_layers.py`` reads it."""

from __future__ import annotations

import ast

import pytest

from tests.test_layers import EDGES, ROOT, SRC, modules

PURE = ("actframes.compile", "actframes.steps", "actframes.emit")
EDGE_MODULES = {"actframes.steps.store_queries"}  # reads a store through sources/
STORE_PACKAGES = ("actframes.sources", "actframes.capture")
# (json and csv are how the emitters write; reading an export is a reader's job all the same)
STORE_LIBRARIES = {"sqlite3", "shelve", "dbm"}


def pure_modules() -> list[str]:
    return sorted(
        m
        for m in modules(SRC, ROOT)
        if m.startswith(tuple(p + "." for p in PURE)) or m in PURE
        if m not in EDGE_MODULES
    )


def test_the_pure_packages_have_modules() -> None:
    assert len(pure_modules()) > 20


@pytest.mark.parametrize("module", pure_modules())
def test_a_pure_module_imports_no_reader(module: str) -> None:
    readers = [
        e.where() for e in EDGES if e.importer == module and e.imported.startswith(STORE_PACKAGES)
    ]
    assert not readers, "a pure module reads no store; move the reading to sources/:\n" + (
        "\n".join(readers)
    )


@pytest.mark.parametrize("module", pure_modules())
def test_a_pure_module_imports_no_store_library(module: str) -> None:
    path = modules(SRC, ROOT)[module]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        found += [
            f"{path.name}:{node.lineno} {n}" for n in names if n.split(".")[0] in STORE_LIBRARIES
        ]
    assert not found, f"{module} opens files of a store's kind: {found}"


def test_the_edge_reads_through_sources() -> None:
    """The one exception reads stores only through the action readers of sources/."""
    imported = {e.imported for e in EDGES if e.importer in EDGE_MODULES}
    assert "actframes.sources.actions" in imported
