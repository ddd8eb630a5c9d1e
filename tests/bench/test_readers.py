"""The deterministic reader: what each representation makes answerable."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.bench.oracle import day_facts, load_store, store_days
from actframes.bench.questions import generate
from actframes.bench.readers import answer, read, read_context, split_proposed
from actframes.bench.scoring import score
from actframes.bench.tokens_report import VIEWED_HEAD, render_day
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.emit.tokens import count_tokens

from .fixtures import DAY, TZ, hand_aw, hand_native

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
MHACKS = CORPORA / "activitywatch-mhacks-2023" / "aw-buckets-export.json"
NOCTILUCA = (
    CORPORA / "activitywatch-noctiluca-2020" / "aw-bucket-export_aw-watcher-window_mauro-pc.json"
)
REPS = ("raw", "context", "json", "context+")


def wrong(path: Path, day: str, tz: str, budget: int = 1500) -> dict[str, list[str]]:
    """Kinds of the questions each representation gets wrong."""
    store = load_store(path)
    qs = generate(day_facts(store, day, tz), store)
    texts = render_day(path, day, tz, budget=budget, proposed=True).texts
    out: dict[str, list[str]] = {}
    for rep in REPS:
        k = read(rep, texts[rep], day)
        assert k is not None
        out[rep] = [q.kind for q in qs if not score(q, answer(q, k)).correct]
    return out


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    build_demo_store(path)
    return path


def test_hand_native_day(tmp_path: Path) -> None:
    misses = wrong(hand_native(tmp_path / "n.db"), DAY, TZ)
    assert misses == {rep: [] for rep in REPS}


def test_hand_aw_day(tmp_path: Path) -> None:
    path = hand_aw(tmp_path / "aw.json")
    misses = wrong(path, DAY, TZ)
    assert misses == {rep: [] for rep in REPS}
    texts = render_day(path, DAY, TZ).texts
    # Raw rows know nothing of AFK: Code.exe's time and the last activity come out long.
    raw = read("raw", texts["raw"], DAY)
    assert raw is not None and raw.app_s == {"firefox.exe": 180.0, "Code.exe": 600.0}
    assert raw.last == 10 * 60 + 15
    block = read("context", texts["context"], DAY)
    assert block is not None and block.app_s == {"Code.exe": 360.0, "firefox.exe": 120.0}
    assert (block.first, block.last) == (600, 610)


def test_demo_day(demo: Path) -> None:
    misses = wrong(demo, DEMO_DAY, DEMO_TZ)
    assert misses["context+"] == []
    assert misses["json"] == []
    assert set(misses["context"]) == {"entity_viewed"}  # what the block lacks today
    assert misses["raw"] == ["keys_in_app"]


def test_proposed_section_fits_the_budget_and_parses(demo: Path) -> None:
    text = render_day(demo, DEMO_DAY, DEMO_TZ, budget=1500, proposed=True).texts["context+"]
    assert count_tokens(text) <= 1500
    core, viewed, longest = split_proposed(text)
    assert VIEWED_HEAD in text and VIEWED_HEAD not in core and "longest" not in core
    assert longest == "longest 14:12–14:36 · zoom.us · - · 24m · F1472"
    assert viewed[0].startswith("- pull_request · encode/httpx#3342 · 09:37 · ")
    k = read_context(text, DEMO_DAY)
    assert k.views is not None and k.views[("document", "q2 planning notes")] == 9 * 60 + 46


@pytest.mark.skipif(not MHACKS.exists() or not NOCTILUCA.exists(), reason="corpora absent")
@pytest.mark.parametrize(
    ("path", "tz"), [(MHACKS, "America/Detroit"), (NOCTILUCA, "America/Santiago")]
)
def test_real_corpora_fully_answerable_from_the_proposed_block(path: Path, tz: str) -> None:
    for day in store_days(load_store(path), tz):
        misses = wrong(path, day, tz)
        assert misses["context+"] == [], day
        assert set(misses["context"]) <= {"entity_viewed"}, day
