"""The document's types (``actframes.doc_types``) against what the compiler writes and
what SPEC.md says.

Three ways round, so none can drift alone:

- every document compiled here — the golden day (as its bytes on disk and compiled
  afresh, with and without a filter), the demo day, a two-host ActivityWatch export, a
  Tier-2 layer, communications views, and days of the real corpora where present — is
  walked against the ``TypedDict``s: each key it holds is declared, each required key is
  there, keys come in the declared order, and each value has its declared type, down to
  the last list item;
- the SPEC's §3 table is parsed into its keys (``?`` = left out when empty), nested
  objects and lists of objects, and must list the same keys, in the same order, with
  the same optional ones, as the types; likewise §10's outline of the communications view;
- a document with a wrong key, a missing key or a value of the wrong type is refused by
  the walk, so it is not a check that passes on anything.
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes import doc_types
from actframes.api import compile_comms, compile_path, compile_window
from actframes.compile.attribute import INPUT_FIELDS
from actframes.compile.comms import communications
from actframes.compile.pipeline import Options, compile_pieces
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.doc_types import CommsView, Document, Inferred
from actframes.model import Capture
from actframes.sources import open_source
from actframes.tier2 import label_frames, load_rules, merge
from actframes.window import Window, day_window

from .cli.test_hosts import DAY as HOSTS_DAY
from .cli.test_hosts import TZ as HOSTS_TZ
from .cli.test_hosts import two_host_export
from .compile.test_properties import WIN, captures
from .test_golden import GOLDEN, build

DAY, TZ = "2026-03-10", "Europe/Berlin"
ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "SPEC.md"
CORPORA = ROOT.parent / "shared" / "corpora"
HOUR_MS = 3_600_000
MHACKS = CORPORA / "activitywatch-mhacks-2023" / "aw-buckets-export.json"


# ---------------------------------------------------------------- the walk


def problems(value: Any, tp: Any, where: str = "$") -> Iterator[str]:
    """Every way ``value`` departs from the type ``tp`` (a TypedDict, list, dict, union
    or plain class), each as ``path: what``."""
    if is_typeddict(tp):
        if not isinstance(value, dict):
            yield f"{where}: {type(value).__name__}, not an object ({tp.__name__})"
            return
        hints = get_type_hints(tp)
        declared = list(hints)
        for key in value:
            if key not in hints:
                yield f"{where}: key {key!r} not declared in {tp.__name__}"
        for key in tp.__required_keys__:
            if key not in value:
                yield f"{where}: required key {key!r} of {tp.__name__} missing"
        present = [k for k in value if k in hints]
        if present != [k for k in declared if k in value]:
            yield f"{where}: keys in the order {present}, declared {declared}"
        for key in present:
            yield from problems(value[key], hints[key], f"{where}.{key}")
        return
    origin = get_origin(tp)
    if origin is list:
        if not isinstance(value, list):
            yield f"{where}: {type(value).__name__}, not a list"
            return
        (item,) = get_args(tp)
        for i, v in enumerate(value):
            yield from problems(v, item, f"{where}[{i}]")
        return
    if origin is dict:
        if not isinstance(value, dict):
            yield f"{where}: {type(value).__name__}, not an object"
            return
        k_tp, v_tp = get_args(tp)
        for k, v in value.items():
            yield from problems(k, k_tp, f"{where} key")
            yield from problems(v, v_tp, f"{where}.{k}")
        return
    if origin in (types.UnionType, typing.Union):
        options = get_args(tp)
        if not any(not list(problems(value, o, where)) for o in options):
            yield f"{where}: {value!r} is none of {options}"
        return
    if tp is type(None):
        if value is not None:
            yield f"{where}: {value!r}, not null"
        return
    # Plain classes: bool is an int to Python, never to the document.
    if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
        yield f"{where}: {value!r} is not {tp.__name__}"


def assert_shape(value: Any, tp: Any) -> None:
    found = list(problems(value, tp))
    assert not found, "\n".join(found[:20])


def keys_used(value: Any, tp: Any, path: str, out: set[str]) -> None:
    """Every declared key path the value holds (``Frame.site`` …), to show that the
    documents under test reach the optional keys too."""
    if is_typeddict(tp) and isinstance(value, dict):
        hints = get_type_hints(tp)
        for key in value:
            out.add(f"{tp.__name__}.{key}")
            keys_used(value[key], hints[key], f"{path}.{key}", out)
    elif get_origin(tp) is list and isinstance(value, list):
        (item,) = get_args(tp)
        for v in value:
            keys_used(v, item, path, out)


# ---------------------------------------------------------------- documents to walk


@pytest.fixture(scope="module")
def golden_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("types") / "g.db")


@pytest.fixture(scope="module")
def documents(golden_db: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Documents of every kind the compiler writes, by name."""
    out: dict[str, Any] = {}
    out["golden file"] = json.loads((GOLDEN / "day.json").read_text(encoding="utf-8"))
    out["golden"] = compile_path(golden_db, DAY, TZ)
    out["golden, filtered"] = compile_path(golden_db, DAY, TZ, Options(min_active_s=60))
    src = open_source(golden_db)
    try:
        day = day_window(DAY, TZ)  # 09:00-10:00: a window that names no day
        out["golden, a window"] = compile_window(
            src, Window(day.start_ms + 9 * HOUR_MS, day.start_ms + 10 * HOUR_MS, TZ)
        )
    finally:
        src.close()
    rules = load_rules('[[label]]\nname = "code"\napp = "^Code$"\n')
    by_rules = label_frames(out["golden"], rules)
    by_rows: Inferred = {
        "label": "someone.else/reading",
        "confidence": "speculative",
        "evidence": {"rows": "1-2"},
        "note": "rows only, with a note",
    }
    out["tier 2"] = merge(out["golden"], [*by_rules, by_rows])
    tmp = tmp_path_factory.mktemp("types-more")
    demo = tmp / "demo.db"
    build_demo_store(demo)
    out["demo"] = compile_path(demo, DEMO_DAY, DEMO_TZ)
    hosts = two_host_export(tmp / "aw.json")
    out["two hosts"] = compile_path(hosts, HOSTS_DAY, HOSTS_TZ)
    out["two hosts, a browser"] = compile_path(browsing_export(tmp / "web.json"), DAY, "UTC")
    return out


def browsing_export(path: Path) -> Path:
    """An ActivityWatch export of two hosts, one of them browsing pull request 1, then
    2, then 1 again: a host ledger with a site, and a page viewed twice in one frame."""

    def ev(offset_s: int, dur_s: int, **data: str) -> dict[str, Any]:
        return {"timestamp": f"{DAY}T09:{offset_s // 60:02d}:{offset_s % 60:02d}+00:00",
                "duration": dur_s, "data": data}  # fmt: skip

    pr = "https://github.com/psf/requests/pull/"
    buckets = {
        "aw-watcher-window_lap": {"type": "currentwindow", "hostname": "lap", "events": [
            ev(0, 150, app="Google Chrome", title="Pull requests - Chrome")]},
        "aw-watcher-web-chrome_lap": {"type": "web.tab.current", "hostname": "lap", "events": [
            ev(0, 60, url=pr + "1", title="PR 1"), ev(60, 30, url=pr + "2", title="PR 2"),
            ev(90, 60, url=pr + "1", title="PR 1")]},
        "aw-watcher-afk_lap": {"type": "afkstatus", "hostname": "lap", "events": [
            ev(0, 150, status="not-afk")]},
        "aw-watcher-window_desk": {"type": "currentwindow", "hostname": "desk", "events": [
            ev(0, 120, app="Code", title="main.rs")]},
        "aw-watcher-afk_desk": {"type": "afkstatus", "hostname": "desk", "events": [
            ev(0, 120, status="not-afk")]},
    }  # fmt: skip
    path.write_text(json.dumps({"buckets": buckets}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def views(golden_db: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out: dict[str, Any] = {}
    src = open_source(golden_db)
    try:
        out["golden"] = compile_comms(src, day_window(DAY, TZ))
    finally:
        src.close()
    demo = tmp_path_factory.mktemp("types-comms") / "demo.db"
    build_demo_store(demo)
    src = open_source(demo)
    try:
        out["demo"] = compile_comms(src, day_window(DEMO_DAY, DEMO_TZ))
    finally:
        src.close()
    return out


NAMES = ["golden file", "golden", "golden, filtered", "golden, a window", "tier 2", "demo"]


@pytest.mark.parametrize("name", [*NAMES, "two hosts", "two hosts, a browser"])
def test_compiled_documents_have_the_declared_shape(documents: dict[str, Any], name: str) -> None:
    assert_shape(documents[name], Document)


def test_the_documents_reach_every_optional_key(documents: dict[str, Any]) -> None:
    """The walk above is only as good as the keys it meets: between them the documents
    hold every optional key of the document and of its Tier-2 layer."""
    used: set[str] = set()
    for doc in documents.values():
        keys_used(doc, Document, "$", used)
    optional = {
        f"{tp.__name__}.{key}" for tp in _typeddicts(Document) for key in tp.__optional_keys__
    }
    assert optional - used == set()


@pytest.mark.parametrize("name", ["golden", "demo"])
def test_communications_views_have_the_declared_shape(views: dict[str, Any], name: str) -> None:
    assert views[name]["surfaces"], "a view with surfaces walks more than its header"
    assert_shape(views[name], CommsView)


@pytest.mark.parametrize("day", ["2023-11-18", "2023-11-19"])
def test_corpus_days_have_the_declared_shape(day: str) -> None:
    """Real ActivityWatch capture: hundreds of pages with labels and counts, and a
    communications view with named conversations and a surface that is part of a ledger
    entry."""
    if not MHACKS.exists():
        pytest.skip(f"corpus not present: {MHACKS}")
    src = open_source(MHACKS)
    try:
        window = day_window(day, "America/Detroit")
        doc = compile_window(src, window)
        view = compile_comms(src, window)
    finally:
        src.close()
    assert doc["frames"] and view["surfaces"]
    assert_shape(doc, Document)
    assert_shape(view, CommsView)


def test_input_counts_are_the_compilers_input_fields() -> None:
    assert list(doc_types.InputCounts.__annotations__) == list(INPUT_FIELDS.values())
    input_keys = list(doc_types.InputCounts.__annotations__)
    assert list(doc_types.UnattributedInput.__annotations__) == [
        "events",
        *input_keys,
        "evidence",
    ]


@settings(max_examples=100, deadline=None)
@given(captures(), st.sampled_from([0, 30, 600]))
def test_arbitrary_captures_compile_to_the_declared_shape(c: Capture, min_active_s: int) -> None:
    """Empty windows (null coverage), filters, flickers, several devices, URLs: whatever
    the rows, the document and its communications view keep the declared shape."""
    doc, frames = compile_pieces(c, WIN, Options(min_active_s=min_active_s))
    assert_shape(doc, Document)
    assert_shape(communications(doc, frames), CommsView)


# ---------------------------------------------------------------- the walk refuses


def test_the_walk_refuses_what_the_types_do_not_allow(documents: dict[str, Any]) -> None:
    def refused(change: Callable[[dict[str, Any]], object], says: str) -> None:
        doc = json.loads(json.dumps(documents["golden"]))
        assert_shape(doc, Document)
        change(doc)
        found = list(problems(doc, Document))
        assert any(says in p for p in found), found

    refused(lambda d: d["frames"][0].update(colour="red"), "'colour' not declared in Frame")
    refused(lambda d: d["frames"][0].pop("wall_s"), "required key 'wall_s' of Frame")
    # A bool is not an integer count of seconds, though Python says it is an int.
    refused(lambda d: d["frames"][0].update(wall_s=True), "wall_s: True is not int")
    refused(lambda d: d["frames"][0].update(titles=["a", 2]), ".titles[1]: 2 is not str")
    refused(lambda d: d["coverage"].update(first=5), "coverage.first: 5 is none of")
    refused(lambda d: d["ledger"].append({"app": "x"}), "required key 'active_s'")
    refused(
        lambda d: d.update(window={"tz": TZ, "start": "a", "end": "b"}),
        "$.window: keys in the order ['tz', 'start', 'end'], declared",
    )


# ---------------------------------------------------------------- SPEC.md


Spec = dict[str, tuple[bool, "Spec | None"]]  # key -> (optional, nested keys)


def _split_top(text: str) -> list[str]:
    """``text`` cut at the commas outside brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def _bracketed(text: str) -> tuple[str, str]:
    """The bracketed expression ``text`` starts with, and what follows it."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return text[: i + 1], text[i + 1 :]
    raise AssertionError(f"unbalanced in SPEC: {text[:60]!r}")


def _shape(spec: str) -> Spec | None:
    """Nested keys of ``{a, b? {..}, c [{..}]}`` or ``[{..}]``; None for anything else
    (a scalar, ``[text]``, ``titles[]``)."""
    spec = spec.strip()
    if spec.startswith("[") and spec[1:].lstrip().startswith("{"):
        return _shape(spec[1:-1])
    if not spec.startswith("{"):
        return None
    out: Spec = {}
    for item in _split_top(spec[1:-1]):
        m = re.fullmatch(r"([a-z_]+)(\?)?\s*(\[\])?\s*(.*)", item, re.S)
        assert m, f"SPEC item not understood: {item!r}"
        out[m.group(1)] = (bool(m.group(2)), _shape(m.group(4)) if m.group(4) else None)
    return out


def spec_document() -> Spec:
    """SPEC.md §3's table: one top-level key per line at the left margin, its value a
    scalar or a bracketed outline (which may run onto the lines below), then comments."""
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## 3. The document") :]
    block = section[section.index("```\n") + 4 :]
    block = block[: block.index("```")]
    out: Spec = {}
    rest = block
    while rest.strip():
        m = re.match(r"([a-z_]+)(\?)?[ \t]+", rest)
        assert m, f"SPEC §3 line not understood: {rest[:60]!r}"
        rest = rest[m.end() :]
        nested: Spec | None = None
        if rest[0] in "{[":
            value, rest = _bracketed(rest)
            nested = _shape(value)
        # The comment runs to the end of the line; the next key starts the next line.
        rest = rest[rest.index("\n") + 1 :] if "\n" in rest else ""
        out[m.group(1)] = (bool(m.group(2)), nested)
    return out


def _compare(spec: Spec, tp: Any, where: str) -> Iterator[str]:
    hints = get_type_hints(tp)
    if list(spec) != list(hints):
        yield f"{where}: SPEC lists {list(spec)}, {tp.__name__} declares {list(hints)}"
        return
    for key, (optional, nested) in spec.items():
        if optional != (key in tp.__optional_keys__):
            yield f"{where}.{key}: optional in SPEC {optional}, in {tp.__name__} {not optional}"
        if nested is not None:
            inner = _inner(hints[key])
            assert inner is not None, f"{where}.{key}: SPEC nests keys, the type does not"
            yield from _compare(nested, inner, f"{where}.{key}")


def _inner(tp: Any) -> Any:
    """The TypedDict a field holds, itself or as list items."""
    if is_typeddict(tp):
        return tp
    if get_origin(tp) is list:
        return _inner(get_args(tp)[0])
    return None


def _typeddicts(tp: Any, seen: list[Any] | None = None) -> list[Any]:
    seen = [] if seen is None else seen
    if tp not in seen:
        seen.append(tp)
        for hint in get_type_hints(tp).values():
            for arg in [hint, *get_args(hint)]:
                inner = _inner(arg)
                if inner is not None:
                    _typeddicts(inner, seen)
    return seen


def test_the_spec_table_is_read_whole() -> None:
    spec = spec_document()
    assert list(spec)[:2] == ["schema_version", "source"] and "inferred" in spec
    frames = spec["frames"][1]
    assert frames is not None and frames["interruptions"][1] is not None
    assert frames["site"] == (True, None) and frames["id"] == (False, None)


def test_the_types_are_the_spec_table() -> None:
    found = list(_compare(spec_document(), Document, "document"))
    assert not found, "\n".join(found)


def test_the_comms_view_is_the_spec_outline() -> None:
    """SPEC.md §10 outlines the view as ``(`schema_version`, …, `surfaces`)``."""
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## 10.") :]
    m = re.search(r"The view \(([^)]*)\)", section)
    assert m, "SPEC §10 no longer outlines the view"
    outline = _shape("{" + m.group(1).replace("`", "") + "}")
    assert outline is not None
    found = list(_compare(outline, CommsView, "view"))
    assert not found, "\n".join(found)


def test_every_type_is_reached_from_a_document() -> None:
    """No stray type: each TypedDict of the module describes part of the document or
    of the communications view."""
    reached = {t.__name__ for t in [*_typeddicts(Document), *_typeddicts(CommsView)]}
    declared = {
        name
        for name, obj in vars(doc_types).items()
        if is_typeddict(obj) and isinstance(obj, type) and obj.__module__ == doc_types.__name__
    }
    assert declared - reached == set()


# ---------------------------------------------------------------- the readers use the types


def test_the_compiler_and_its_readers_are_typed_with_the_document() -> None:
    """The compiler returns the typed document and its readers take it, so mypy (``make
    lint``) checks their field accesses; a signature back at ``dict[str, Any]`` would
    quietly turn the checks off."""
    from actframes import tier2, verify
    from actframes.compile.find import find_frames
    from actframes.compile.pipeline import compile_capture
    from actframes.emit.comms_text import to_comms_context, to_comms_markdown
    from actframes.emit.context import to_context
    from actframes.emit.html import to_html
    from actframes.emit.ledger_table import ledger_table
    from actframes.emit.markdown import to_markdown
    from actframes.emit.usable import usability_line

    assert get_type_hints(compile_capture)["return"] is Document
    assert get_type_hints(communications)["return"] is CommsView
    for reader in (
        to_context, to_markdown, to_html, usability_line, ledger_table, find_frames, communications,
        verify.verify, verify.unattributed_ids, tier2.validate, tier2.merge, tier2.label_frames,
    ):  # fmt: skip
        assert get_type_hints(reader)["doc"] is Document, reader.__qualname__
    for reader in (to_comms_markdown, to_comms_context):
        assert get_type_hints(reader)["view"] is CommsView, reader.__qualname__


def test_mypy_refuses_a_key_the_document_does_not_have(tmp_path: Path) -> None:
    """What the types buy: a misspelt key is an error before anything runs."""
    api = pytest.importorskip("mypy.api", reason="needs mypy: pip install -e '.[dev]'")
    code = (
        "from actframes.doc_types import Document\n"
        "def active(doc: Document) -> int:\n"
        "    return sum(f['active_s'] for f in doc['frames'])\n"
        "def wrong(doc: Document) -> int:\n"
        "    return sum(f['actve_s'] for f in doc['frames'])\n"
    )
    snippet = tmp_path / "snippet.py"
    snippet.write_text(code, encoding="utf-8")
    out, _, status = api.run(
        ["--strict", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(snippet)]
    )
    assert status == 1
    assert out.splitlines() == [
        f'{snippet}:5: error: TypedDict "Frame" has no key "actve_s"  [typeddict-item]',
        f'{snippet}:5: note: Did you mean "active_s"?',
    ]
