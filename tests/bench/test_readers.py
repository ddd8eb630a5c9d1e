"""The deterministic reader: what each representation makes answerable."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.bench.oracle import day_facts, store_days
from actframes.bench.oracle_store import load_store
from actframes.bench.questions import Question, generate
from actframes.bench.readers import answer, read, read_context, read_json, row_entity
from actframes.bench.scoring import score
from actframes.bench.tokens_report import render_day
from actframes.demo import DEMO_DAY, DEMO_TZ
from actframes.emit.context_parse import parse_context
from actframes.emit.token_count import count_tokens

from .fixtures import DAY, DOC_ID, TZ, hand_aw, hand_native

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
MHACKS = CORPORA / "activitywatch-mhacks-2023" / "aw-buckets-export.json"
NOCTILUCA = (
    CORPORA / "activitywatch-noctiluca-2020" / "aw-bucket-export_aw-watcher-window_mauro-pc.json"
)
REPS = ("raw", "context", "json")


def wrong(path: Path, day: str, tz: str, budget: int = 1500) -> dict[str, list[Question]]:
    """The questions each representation gets wrong."""
    store = load_store(path)
    qs = generate(day_facts(store, day, tz), store)
    texts = render_day(path, day, tz, budget=budget).texts
    out: dict[str, list[Question]] = {}
    for rep in REPS:
        k = read(rep, texts[rep], day)
        assert k is not None
        out[rep] = [q for q in qs if not score(q, answer(q, k)).correct]
    return out


def kinds(qs: list[Question]) -> list[str]:
    return [q.kind for q in qs]


def named_refs(block: str) -> set[tuple[str, str]]:
    """(kind, entity) of every typed reference the block names (viewed and frame lines)."""
    p = parse_context(block)
    named = {(v["kind"], str(v["entity"])) for v in p.get("viewed", [])}
    for f in p["frames"]:
        for item in f["pages"]:
            kind, _, rest = item.partition(" ")
            named.add((kind, rest.split(" ×")[0].strip('"')))
    return named


def only_unlisted_entities(misses: list[Question], block: str) -> None:
    """The block misses nothing but views of references it does not list (the least
    viewed, counted in its ``- +N more`` line and left to the JSON document)."""
    named = named_refs(block)
    for q in misses:
        assert q.kind == "entity_viewed", q
        assert (q.params["entity_kind"], q.params["entity"]) not in named, q
    if misses:
        assert parse_context(block).get("viewed_more"), "misses without a '+N more' line"


def test_hand_native_day(tmp_path: Path) -> None:
    path = hand_native(tmp_path / "n.db")
    misses = wrong(path, DAY, TZ)
    assert {rep: kinds(m) for rep, m in misses.items()} == {rep: [] for rep in REPS}
    texts = render_day(path, DAY, TZ).texts
    for rep in REPS:  # the document by its id, as the block names it
        k = read(rep, texts[rep], DAY)
        assert k is not None and k.views is not None
        assert k.views[("doc", DOC_ID.casefold())] == 9 * 60 + 4


def test_hand_aw_day(tmp_path: Path) -> None:
    path = hand_aw(tmp_path / "aw.json")
    misses = wrong(path, DAY, TZ)
    assert {rep: kinds(m) for rep, m in misses.items()} == {rep: [] for rep in REPS}
    texts = render_day(path, DAY, TZ).texts
    # The reader's rows are ActivityWatch's credited pieces (flooded, cut to not-AFK
    # time already), so even the raw rows give the block's times.
    raw = read("raw", texts["raw"], DAY)
    assert raw is not None and raw.app_s == {"firefox.exe": 120.0, "Code.exe": 360.0}
    assert raw.last == 10 * 60 + 10
    block = read("context", texts["context"], DAY)
    # Firefox's 80 s without a site show as "1m" in the block (it rounds to minutes).
    assert block is not None and block.app_s == {"Code.exe": 360.0, "firefox.exe": 100.0}
    assert (block.first, block.last) == (600, 610)


def test_demo_day(demo: Path) -> None:
    misses = wrong(demo, DEMO_DAY, DEMO_TZ)
    assert misses["json"] == []
    assert kinds(misses["raw"]) == ["keys_in_app"]  # raw rows carry no input
    block = render_day(demo, DEMO_DAY, DEMO_TZ).texts["context"]
    only_unlisted_entities(misses["context"], block)


def test_block_longest_and_viewed_are_read(demo: Path) -> None:
    text = render_day(demo, DEMO_DAY, DEMO_TZ, budget=1500).texts["context"]
    assert count_tokens(text) <= 1500
    p = parse_context(text)
    assert p["longest"]["app"] == "zoom.us" and p["longest"]["start"] == "14:12"
    assert p.get("viewed_more", 0) > 0  # more typed references than the section shows
    k = read_context(text, DEMO_DAY)
    assert k.views is not None and len(k.views) == len(p["viewed"])
    doc = next(v for v in p["viewed"] if v["kind"] == "doc")
    assert k.views[("doc", doc["entity"].casefold())] == 9 * 60 + 46
    # The JSON document lists every typed reference, the block's and the rest.
    j = read_json(render_day(demo, DEMO_DAY, DEMO_TZ).texts["json"], DEMO_DAY)
    assert j.views is not None and len(j.views) == len(p["viewed"]) + p["viewed_more"]
    assert all(int(j.views[key]) == at for key, at in k.views.items())  # to the minute


def test_longest_frame_survives_a_small_budget(demo: Path) -> None:
    text = render_day(demo, DEMO_DAY, DEMO_TZ, budget=700).texts["context"]
    p = parse_context(text)
    assert p["frames_shown"] < p["frames_total"]
    k = read_context(text, DEMO_DAY)
    store = load_store(demo)
    q = next(q for q in generate(day_facts(store, DEMO_DAY, DEMO_TZ), store)
             if q.kind == "longest_frame")  # fmt: skip
    assert score(q, answer(q, k)).correct


def test_row_entity() -> None:
    assert row_entity("https://github.com/a/b/pull/4/files", "") == ("pull_request", "a/b#4")
    doc = "https://docs.google.com/document/u/1/d/1Bctq8S86erXi0o5/edit"
    assert row_entity(doc, "Plan - Google Docs") == ("doc", "1Bctq8S86erXi0o5")
    assert row_entity(None, "Plan - Google Sheets - Google Chrome") == ("sheet", "Plan")
    assert row_entity(None, "x · Issue #9 · a/b - Firefox") == ("issue", "a/b#9")
    assert row_entity(None, "github.com/a/b/issues/9 - Firefox") == ("issue", "a/b#9")
    assert row_entity("https://example.com/a/b/pull/4", "") is None


@pytest.mark.skipif(
    not MHACKS.exists() or not NOCTILUCA.exists(), reason=f"needs the shared corpora in {CORPORA}"
)
@pytest.mark.parametrize(
    ("path", "tz"), [(MHACKS, "America/Detroit"), (NOCTILUCA, "America/Santiago")]
)
def test_real_corpora(path: Path, tz: str) -> None:
    for day in store_days(load_store(path), tz):
        misses = wrong(path, day, tz)
        assert misses["json"] == [], day
        only_unlisted_entities(misses["context"], render_day(path, day, tz).texts["context"])
