"""The import graph of ``src/actframes`` runs one way: sources → compile → emit → service →
CLI/MCP (docs/architecture.md). The graph is read with ``ast`` from the source files, every
``import`` counted wherever it stands (module level, inside a function, under
``TYPE_CHECKING``), relative imports resolved. A string in the entry-point spelling
``"actframes.module:name"`` counts too (the CLI loads its sub-commands lazily that way);
other imports spelled as strings (``importlib.import_module(".emit.json_out", ...)``) are
not seen.

Each module has a layer (``LAYERS`` below, longest prefix wins; a new module must be
placed there). Two ratchets hold today's debt and let it only shrink: ``KNOWN_UPWARD`` (an
import from a lower layer into a higher one) and ``KNOWN_MODULE_CYCLES`` /
``KNOWN_PACKAGE_CYCLES`` (import circles between modules, and between packages). A test
fails on a new entry and on a listed one that is gone, so the lists stay true: fix an
entry, then delete its line.

Layers, lowest first (a module may import its own layer and any lower one):

====  ===========  ==================================================================
rank  layer        modules
====  ===========  ==================================================================
0     foundation   errors, model, native_schema, window, timeparse, text, progress,
                   demo_constants, doc_types (the document's shape as types), atomic_write, fast
                   (speed helpers), form_roles (roles named by their contents), redact
                   (secrets in screen text), the package root (version)
1     rules        entities (URL and title rule tables, one matcher), classify (project
                   and category rule tables, their files' parsers)
2     sources      sources (one reader per store family)
3     compile      compile (pure passes: capture → document)
4     steps        steps (actions, steps and patterns inside frames)
5     routines     routines (step sequences mined across days, plans, replay)
6     emit         emit (pure renderers of the document)
7     service      api, cache, resident, tail, verify, tier2, demo, rule_files,
                   store_rules, rule_check,
                   simulate, bench, team, capture (the recorder writes stores;
                   readers must not need it)
8     edge         cli (the command-line package), mcp (the MCP server package)
====  ===========  ==================================================================
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = "actframes"

LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "foundation",
        (
            "actframes",
            "actframes.errors",
            "actframes.model",
            "actframes.native_schema",  # the native store's identity: recorder and readers
            "actframes.window",
            "actframes.periods",  # runs of whole local days (weeks, months) and their windows
            "actframes.timeparse",
            "actframes.text",
            "actframes.fast",  # speed helpers: records, fasthash, recache, lazyre
            "actframes.progress",
            "actframes.demo_constants",
            "actframes.atomic_write",
            "actframes.doc_types",
            "actframes.period_types",  # the period document's shape
            "actframes.form_roles",  # roles named by their contents: recorder and readers
            "actframes.redact",  # secrets in screen text: recorder and screen index
        ),
    ),
    ("rules", ("actframes.entities", "actframes.classify")),
    ("sources", ("actframes.sources",)),
    ("compile", ("actframes.compile",)),
    ("steps", ("actframes.steps",)),
    ("routines", ("actframes.routines",)),
    ("emit", ("actframes.emit",)),
    (
        "service",
        (
            "actframes.api",
            "actframes.cache",
            "actframes.resident",
            "actframes.resident_routines",  # routine steps kept per day (#20)
            "actframes.day_steps_cache",  # and on disk for the CLI (#20)
            "actframes.tail",
            "actframes.verify",
            "actframes.tier2",
            "actframes.demo",
            "actframes.simulate",
            "actframes.bench",
            "actframes.capture",
            "actframes.team",  # team mining across many people's stores
            "actframes.rule_files",  # project and category rule files, read at the edge
            "actframes.store_rules",  # a store's rule set
            "actframes.rule_check",  # projects --check-rules
            "actframes.screen_index",  # the screen-text index and its search (#37)
        ),
    ),
    ("edge", ("actframes.cli", "actframes.mcp")),
)

# Imports from a lower layer into a higher one that exist today: (importer, imported) →
# why it is debt. Delete a line when its import goes.
KNOWN_UPWARD: dict[tuple[str, str], str] = {}

# Import circles that exist today, each the full set of modules (or packages) of one
# strongly connected component. Delete a line when its circle is broken.
KNOWN_MODULE_CYCLES: dict[frozenset[str], str] = {}
KNOWN_PACKAGE_CYCLES: dict[frozenset[str], str] = {}


@dataclass(frozen=True, order=True)
class Edge:
    importer: str
    imported: str
    file: str
    line: int

    def where(self) -> str:
        return f"{self.file}:{self.line}: {self.importer} imports {self.imported}"


def modules(src: Path, root: str) -> dict[str, Path]:
    """Dotted module name → file, for every ``.py`` under ``src/root``."""
    out: dict[str, Path] = {}
    for path in sorted((src / root).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_edges(src: Path, root: str) -> list[Edge]:
    """Every import of a module of ``root`` by a module of ``root``. ``from P import x``
    points at ``P.x`` when that is a module, else at ``P``."""
    mods = modules(src, root)
    edges: set[Edge] = set()
    entry_point = re.compile(rf"{re.escape(root)}(\.\w+)+:\w+")
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        shown = path.relative_to(src.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if entry_point.fullmatch(node.value):
                    targets = [node.value.partition(":")[0]]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names
                ]
            for target in targets:
                # ``import actframes.x.y`` names a module; walk up to the nearest one known
                while target and target not in mods:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(Edge(name, target, shown, node.lineno))
    return sorted(edges)


def layer_of(module: str) -> int:
    best, rank = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            # the root package names itself only, or it would place every module
            hit = module == p or (
                p != ROOT
                and (module.startswith(p + ".") or (p.endswith("_") and module.startswith(p)))
            )
            if hit and len(p) > best:
                best, rank = len(p), i
    return rank


def package_of(module: str) -> str:
    """The top-level package a module belongs to (a root-level module stands alone)."""
    return ".".join(module.split(".")[:2])


def cycles(nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one node (Tarjan)."""
    succ: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b in edges:
        if a != b:
            succ.setdefault(a, set()).add(b)
            succ.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(succ[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(frozenset(comp))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def upward(edges: Iterable[Edge]) -> dict[tuple[str, str], list[Edge]]:
    out: dict[tuple[str, str], list[Edge]] = {}
    for e in edges:
        if layer_of(e.importer) < layer_of(e.imported):
            out.setdefault((e.importer, e.imported), []).append(e)
    return out


def all_cycles(edges: list[Edge], by_package: bool) -> dict[frozenset[str], list[Edge]]:
    """Circles between modules, or between packages (a root-level module is its own
    package), each with the imports that make it."""
    node = package_of if by_package else (lambda m: m)
    pairs = [(node(e.importer), node(e.imported)) for e in edges]
    return {
        comp: [
            e for e, (a, b) in zip(edges, pairs, strict=True) if a in comp and b in comp and a != b
        ]
        for comp in cycles({a for a, _ in pairs}, pairs)
    }


def _explain(comp: frozenset[str], edges: list[Edge], known: Iterable[frozenset[str]]) -> str:
    """A circle that grew from a known one shows only the imports of its new members."""
    for k in known:
        if k < comp:
            added = comp - k
            shown = [
                e
                for e in edges
                if e.importer in added
                or e.imported in added
                or package_of(e.importer) in added
                or package_of(e.imported) in added
            ]
            return (
                f"{sorted(k)} grew by {sorted(added)} (better: drop the new import; else add"
                " the module to the listed circle):\n" + _listing({comp: shown}, [comp])
            )
    return f"{sorted(comp)}:\n" + _listing({comp: edges}, [comp])


def _listing(found: Mapping[object, list[Edge]], keys: Iterable[object]) -> str:
    shown = sorted((e.file, e.line, e.where()) for k in keys for e in found[k])
    return "\n".join(f"  {w}" for _, _, w in shown)


EDGES = import_edges(SRC, ROOT)


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in modules(SRC, ROOT) if layer_of(m) < 0]
    assert not unplaced, f"place these modules in LAYERS (tests/test_layers.py): {unplaced}"


def test_no_new_upward_import() -> None:
    found = upward(EDGES)
    new = sorted(set(found) - set(KNOWN_UPWARD))
    assert not new, (
        "imports from a lower layer into a higher one (see docs/architecture.md):\n"
        + "\n".join(
            f"  {e.where()}  [{LAYERS[layer_of(e.importer)][0]} → "
            f"{LAYERS[layer_of(e.imported)][0]}]"
            for e in sorted((e for k in new for e in found[k]), key=lambda e: (e.file, e.line))
        )
    )


def test_known_upward_imports_still_exist() -> None:
    gone = sorted(set(KNOWN_UPWARD) - set(upward(EDGES)))
    assert not gone, (
        "these known upward imports are gone; delete them from KNOWN_UPWARD: "
        + ", ".join(f"{a} → {b}" for a, b in gone)
    )


@pytest.mark.parametrize("by_package", [False, True], ids=["modules", "packages"])
def test_no_new_import_cycle(by_package: bool) -> None:
    known = KNOWN_PACKAGE_CYCLES if by_package else KNOWN_MODULE_CYCLES
    found = all_cycles(EDGES, by_package)
    new = [c for c in found if c not in known]
    assert not new, "new import circles; the imports that make them:\n" + "\n\n".join(
        _explain(c, found[c], known) for c in new
    )


@pytest.mark.parametrize("by_package", [False, True], ids=["modules", "packages"])
def test_known_cycles_still_exist(by_package: bool) -> None:
    known = KNOWN_PACKAGE_CYCLES if by_package else KNOWN_MODULE_CYCLES
    found = all_cycles(EDGES, by_package)
    gone = [sorted(c) for c in known if c not in found]
    name = "KNOWN_PACKAGE_CYCLES" if by_package else "KNOWN_MODULE_CYCLES"
    assert not gone, f"these known circles are gone or changed; update {name}: {gone}"


# The graph reader itself, on a package written for the test.
def test_import_edges_resolve_relative_and_nested_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "VERSION = '1'\n",
        "base.py": "from . import VERSION\n",
        "sub/__init__.py": "from .leaf import f\n",
        "sub/leaf.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from ..top import T\n"
            "def f() -> None:\n    from .. import base\n"
        ),
        "top.py": (
            "import pkg.sub.leaf\nfrom pkg.sub import leaf, f\nT = 1\n"
            "LAZY = {'x': 'pkg.base:VERSION'}\n"
        ),
    }
    for rel, text in files.items():
        (pkg / rel).write_text(text)
    got = {(e.importer, e.imported, e.line) for e in import_edges(tmp_path, "pkg")}
    assert got == {
        ("pkg.base", "pkg", 1),
        ("pkg.sub", "pkg.sub.leaf", 1),
        ("pkg.sub.leaf", "pkg.top", 3),
        ("pkg.sub.leaf", "pkg.base", 5),
        ("pkg.top", "pkg.sub.leaf", 1),
        ("pkg.top", "pkg.sub.leaf", 2),
        ("pkg.top", "pkg.sub", 2),
        ("pkg.top", "pkg.base", 4),
    }
    edges = import_edges(tmp_path, "pkg")
    # top imports the package sub (for f) as well as its module leaf
    assert all_cycles(edges, by_package=False).keys() == {
        frozenset({"pkg.sub", "pkg.sub.leaf", "pkg.top"})
    }
    assert all_cycles(edges, by_package=True).keys() == {frozenset({"pkg.sub", "pkg.top"})}


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("actframes.cli.steps", "edge"),
        ("actframes.compile.pipeline", "compile"),
        ("actframes.fast.lazyre", "foundation"),
        ("actframes.entities.url_rules", "rules"),
        ("actframes.mcp.client_config", "edge"),
        ("actframes", "foundation"),
        ("actframes.no_such_module", None),
    ],
)
def test_layer_of_takes_the_longest_prefix(module: str, layer: str | None) -> None:
    rank = layer_of(module)
    assert (LAYERS[rank][0] if rank >= 0 else None) == layer


def test_cli_modules_are_one_package() -> None:
    assert {package_of(m) for m in ("actframes.cli", "actframes.cli.steps")} == {"actframes.cli"}
    assert package_of("actframes.compile.pipeline") == "actframes.compile"
    assert package_of("actframes.demo") == "actframes.demo"
