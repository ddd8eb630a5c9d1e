"""The oracle against answers worked out by hand, and against the compiler."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path
from actframes.bench import oracle
from actframes.bench.oracle import day_facts, store_days
from actframes.bench.oracle_entities import entity_of, site_of
from actframes.bench.oracle_store import OracleError, load_store, parse_instant

from ..builders import ms, screenpipe_db
from .fixtures import DAY, DOC_ID, TZ, breaks_native, hand_aw, hand_native, t

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
MHACKS = CORPORA / "activitywatch-mhacks-2023" / "aw-buckets-export.json"
NOCTILUCA = (
    CORPORA / "activitywatch-noctiluca-2020" / "aw-bucket-export_aw-watcher-window_mauro-pc.json"
)


def test_oracle_imports_nothing_of_the_compiler_or_emitters() -> None:
    parts = sorted(Path(oracle.__file__).parent.glob("oracle*.py"))
    assert len(parts) >= 4  # oracle, oracle_store, oracle_entities, oracle_spans
    modules = set()
    for part in parts:
        tree = ast.parse(part.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                modules.add(("." * node.level) + (node.module or ""))
    # ActivityWatch's own rules are the one exception: they are upstream's definition
    # (checked against a real aw-server in tests/awserver), not our compiler; the
    # oracle's own parts import each other.
    modules.discard("..sources.activitywatch.rules")
    modules -= {"." + p.stem for p in parts}
    assert not [m for m in modules if m.startswith(".") or m.startswith("actframes")], modules


def test_native_day_by_hand(tmp_path: Path) -> None:
    f = day_facts(load_store(hand_native(tmp_path / "n.db")), DAY, TZ)
    assert f.rows == 9
    assert f.app_ms == {"Code": 210_000, "Google Chrome": 60_000, "Slack": 10_000, "Terminal": 0}
    assert f.site_ms == {"github.com": 60_000, "docs.google.com": 0}
    assert (f.first_ms, f.last_ms) == (t("09:00:00"), t("09:11:30"))
    frames = [(x.app, x.site, x.start_ms, x.active_ms) for x in f.frames]
    assert frames == [
        ("Code", None, t("09:00:00"), 120_000),
        ("Google Chrome", "github.com", t("09:02:00"), 60_000),
        ("Google Chrome", "docs.google.com", t("09:04:00"), 0),
        ("Code", None, t("09:10:00"), 90_000),
        ("Terminal", None, t("09:11:30"), 0),
    ]
    assert [(e.kind, e.name, e.first_ms, e.title) for e in f.entities] == [
        ("pull_request", "acme/x#7", t("09:02:00"), None),
        ("doc", DOC_ID, t("09:04:00"), "Plan"),  # named by its id, as the block names it
    ]
    assert f.keys_by_app == {"Code": 8, "Slack": 1}
    assert f.breaks == []


@pytest.mark.parametrize(("between_s", "expected"), [(30, [("14:01:00", "14:40:00")]), (120, [])])
def test_away_periods_join_over_a_blip(
    tmp_path: Path, between_s: int, expected: list[tuple[str, str]]
) -> None:
    f = day_facts(load_store(breaks_native(tmp_path / "b.db", between_s)), DAY, TZ)
    assert f.breaks == [(t(a), t(b)) for a, b in expected]


def test_activitywatch_export_by_hand(tmp_path: Path) -> None:
    store = load_store(hand_aw(tmp_path / "aw.json"))
    assert store.kind == "activitywatch" and store.has_afk and store.has_urls
    assert not store.has_input
    f = day_facts(store, DAY, TZ)
    assert f.app_ms == {"firefox.exe": 120_000, "Code.exe": 360_000}
    # The fixture's docstring tells why: flooding gives the later web event precedence.
    assert f.site_ms == {"github.com": 30_000, "example.com": 10_000}
    assert (f.first_ms, f.last_ms) == (t("10:00:00"), t("10:10:00"))
    longest = max(f.frames, key=lambda x: x.active_ms)
    assert (longest.app, longest.start_ms, longest.active_ms) == (
        "Code.exe",
        t("10:02:00"),
        360_000,
    )
    assert [(e.kind, e.name, e.first_ms) for e in f.entities] == [
        ("pull_request", "acme/x#7", t("10:00:00"))
    ]


def test_screenpipe_timestamps_in_any_shape(tmp_path: Path) -> None:
    frames = [
        (1, "2026-03-10T09:00:00Z", "Code", "a"),
        (2, "2026-03-10 10:00:30.5+01:00", "Code", "a"),  # 09:00:30 UTC, a space, an offset
        (3, "2026-03-10T09:01:00.123456789", "Slack", "b"),  # no offset: UTC; nine digits
        (4, "not a time", "Slack", "b"),  # unusable: skipped, as the compiler rejects it
        (5, "2026-03-10T09:01:30+0000", "Code", "a"),
    ]
    events = [
        (1, "2026-03-10T09:00:10Z", "key", "Code"),
        (2, "2026-03-10T09:00:11Z", "click", "Code"),
    ]
    store = load_store(screenpipe_db(tmp_path / "s.db", frames, events))
    assert store.kind == "screenpipe" and store.has_input and not store.has_afk
    f = day_facts(store, DAY, TZ)
    assert f.rows == 4
    assert f.app_ms == {"Code": 30_500 + 29_623, "Slack": 29_877}
    assert f.keys_by_app == {"Code": 1}


def test_helpers() -> None:
    assert parse_instant("2026-03-10T09:00:00.5-02:30") == ms("2026-03-10T11:30:00.5+00:00")
    assert parse_instant("2026-02-30T00:00:00Z") is None
    assert parse_instant(None) is None
    assert site_of("https://user@WWW.GitHub.com.:443/x") == "github.com"
    assert site_of("github.com/acme") == "github.com"
    assert site_of("http://localhost:8501/") == "localhost:8501"
    assert site_of("about:blank") == "about:blank"
    assert site_of("file:///tmp/x") == "file:"
    chrome = "Google Chrome"
    assert entity_of(chrome, "", "https://github.com/a/b/issues/3#top") == ("issue", "a/b#3", None)
    sheet = "https://docs.google.com/spreadsheets/u/0/d/1BxiMVs0XRA5nFMd/edit#gid=0"
    assert entity_of(chrome, "Budget - Google Sheets - Google Chrome", sheet) == (
        "sheet",
        "1BxiMVs0XRA5nFMd",
        "Budget",
    )
    doc = "https://docs.google.com/document/d/1Bctq8S86erXi0o5/edit"
    assert entity_of(chrome, "untitled", doc) == ("doc", "1Bctq8S86erXi0o5", None)
    assert entity_of(chrome, "x", "https://docs.google.com/document/d/XY/edit") is None  # short
    assert entity_of(chrome, "x", "https://github.com/a/b/pulls") is None
    # Without a URL: a browser's window title, or the address it shows while loading.
    ff = "Firefox Developer Edition"
    title = "Fix it · Pull Request #12 · a/b-c · GitHub - Firefox Developer Edition"
    assert entity_of(ff, title, None) == ("pull_request", "a/b-c#12", None)
    assert entity_of(ff, "Plan - Google Docs — Mozilla Firefox", None) == ("doc", "Plan", None)
    loading = "https://github.com/a/b/issues/5 - Firefox Developer Edition"
    assert entity_of(ff, loading, None) == ("issue", "a/b#5", None)
    assert entity_of("Code", "Plan - Google Docs", None) is None  # not a browser


def test_bad_stores_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(OracleError, match="no such store"):
        load_store(tmp_path / "missing.db")
    (tmp_path / "x.txt").write_text("hello")
    with pytest.raises(OracleError, match="neither SQLite nor JSON"):
        load_store(tmp_path / "x.txt")
    (tmp_path / "x.json").write_text('{"no": "buckets"}')
    with pytest.raises(OracleError, match="not an ActivityWatch export"):
        load_store(tmp_path / "x.json")


def _ledger_by(doc: dict[str, Any], key: str) -> dict[str, tuple[int, int]]:
    """Seconds per app (or site), and how many ledger entries were added up for it."""
    out: dict[str, tuple[int, int]] = {}
    for e in doc["ledger"]:
        if e.get(key):
            s, n = out.get(e[key], (0, 0))
            out[e[key]] = (s + e["active_s"], n + 1)
    return out


def _agrees(oracle_ms: dict[str, int], compiled: dict[str, tuple[int, int]]) -> None:
    assert set(oracle_ms) == set(compiled)
    for name, (s, entries) in compiled.items():
        # Each ledger entry is rounded to the second on its own: half a second each.
        assert abs(oracle_ms[name] / 1000 - s) <= max(2, 0.5 * entries + 0.5), name


def _same_entities(f: oracle.DayFacts, doc: dict[str, Any]) -> None:
    """Every entity the oracle can ask about is in the document's ``viewed`` with the
    same first view (to the second); every pull request and issue there is the oracle's."""
    compiled = {(v["kind"], v["entity"]): v["first"] for v in doc["viewed"]}
    for e in f.entities:
        at = parse_instant(compiled.get((e.kind, e.name)))
        assert at is not None and abs(at - e.first_ms) < 1000, (e.kind, e.name)
    mine = {(e.kind, e.name) for e in f.entities}
    assert {k for k in compiled if k[0] in ("pull_request", "issue")} <= mine


@pytest.mark.parametrize("build", [hand_native, hand_aw])
def test_oracle_and_compiler_agree_on_the_fixtures(tmp_path: Path, build: object) -> None:
    path = build(tmp_path / "store")  # type: ignore[operator]
    f = day_facts(load_store(path), DAY, TZ)
    doc = compile_path(path, DAY, TZ)
    _agrees(f.app_ms, _ledger_by(doc, "app"))
    _agrees(f.site_ms, _ledger_by(doc, "site"))
    assert f.rows == doc["coverage"]["rows"]
    _same_entities(f, doc)


@pytest.mark.skipif(
    not MHACKS.exists() or not NOCTILUCA.exists(), reason=f"needs the shared corpora in {CORPORA}"
)
@pytest.mark.parametrize(
    ("path", "tz"), [(MHACKS, "America/Detroit"), (NOCTILUCA, "America/Santiago")]
)
def test_oracle_and_compiler_agree_on_the_real_corpora(path: Path, tz: str) -> None:
    store = load_store(path)
    for day in store_days(store, tz):
        f = day_facts(store, day, tz)
        doc = compile_path(path, day, tz)
        _agrees(f.app_ms, _ledger_by(doc, "app"))
        _agrees(f.site_ms, _ledger_by(doc, "site"))
        assert f.rows == doc["coverage"]["rows"]
        assert len(f.frames) == len(doc["frames"])
        _same_entities(f, doc)


def test_oracle_and_compiler_agree_on_simulated_days(tmp_path: Path) -> None:
    from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
    from actframes.simulate import simulate_days, write_native

    demo = tmp_path / "demo.db"
    build_demo_store(demo)
    week = write_native(
        tmp_path / "week.db",
        simulate_days("2026-03-06", 3, "America/New_York", seed=11, devices=("a", "b")),
    )
    cases = [(demo, DEMO_DAY, DEMO_TZ)]
    cases += [(week, d, "America/New_York") for d in ("2026-03-06", "2026-03-07", "2026-03-08")]
    for path, day, tz in cases:
        f = day_facts(load_store(path), day, tz)
        doc = compile_path(path, day, tz)
        _agrees(f.app_ms, _ledger_by(doc, "app"))
        _agrees(f.site_ms, _ledger_by(doc, "site"))
        keys: dict[str, int] = {}
        for e in doc["ledger"]:
            keys[e["app"]] = keys.get(e["app"], 0) + e["keys"]
        assert f.keys_by_app == {a: n for a, n in keys.items() if n}
        assert (f.rows, len(f.frames)) == (doc["coverage"]["rows"], len(doc["frames"]))
        _same_entities(f, doc)
