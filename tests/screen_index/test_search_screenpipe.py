"""``actframes search`` on screenpipe stores written as upstream's writers write them
(late 2024 ``ocr_text`` per window, 2026-03 accessibility text and elements, summer 2026
without ``ocr_text``), with phrases planted in a terminal's OCR text, in a page's
accessibility text and in an element: the planted phrase's frame is the first result,
its moment lies within the phrase's time on screen, its snippet shows it; a phrase never
on screen finds nothing; a planted API key and card number are in no output and not in
the index file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actframes.screen_index.query import Query
from actframes.window import day_window

from ..builders import cli_env, run_cli, sha256
from ..sources.screenpipe_screen_text import (
    DASHBOARD,
    SLACK_CHROME,
    T0,
    TERMINAL_OCR,
    text_store,
)
from ..sources.screenpipe_versions import NEWEST, SUMMER

KEY = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"  # (Stripe's documented test-key shape)
CARD = "4242 4242 4242 4242"
DAY = "2026-03-17"
SHOWN = (T0 + 60_000, T0 + 150_000)  # the traceback is on screen from 10:01:00 to 10:02:30


def _store(path: Path, version: str) -> Path:
    s = text_store(path, version)
    deferred = version == SUMMER
    for k in range(8):  # the terminal for four minutes, the traceback in the middle
        on = SHOWN[0] <= T0 + k * 30_000 <= SHOWN[1]
        text = TERMINAL_OCR if on else f"$ make step-{k}\nok"
        s.snapshot(T0 + k * 30_000, "iTerm2", "pytest", ocr=text, deferred=deferred)
    s.snapshot(T0 + 240_000, "Google Chrome", "Churn", tree=DASHBOARD, deferred=deferred)
    s.snapshot(
        T0 + 300_000, "Slack", "#eng", tree=SLACK_CHROME, source="hybrid", deferred=deferred,
        ocr=f"maria: the staging key is {KEY}\npay with {CARD} until friday",
    )  # fmt: skip
    s.snapshot(T0 + 420_000, "Notes", "Groceries", ocr="oat milk, lemons", deferred=deferred)
    if deferred:
        s.flush()
    s.close()
    return path


def _search(db: Path, cache: Path, words: str, *more: str) -> dict[str, object]:
    env = cli_env(ACTFRAMES_CACHE=str(cache), XDG_CONFIG_HOME=str(cache / "config"))
    got = run_cli("search", words, "--db", str(db), "--tz", "UTC", "--date", DAY, *more, env=env)
    assert got.returncode == 0, got.stderr
    out: dict[str, object] = json.loads(got.stdout)
    return out


@pytest.mark.parametrize("version", [NEWEST, SUMMER])
def test_planted_phrases_are_found_in_their_frames(tmp_path: Path, version: str) -> None:
    db = _store(tmp_path / "db.sqlite", version)
    before = sha256(db)
    cache = tmp_path / "cache"
    terminal = _search(db, cache, "KeyError: 'customer_id'")["results"]
    assert isinstance(terminal, list) and terminal
    best = terminal[0]
    assert best["app"] == "iTerm2" and best["frame_id"]
    assert "2026-03-17T10:01:00" <= best["at"] <= "2026-03-17T10:02:30"
    assert "«KeyError»" in best["snippet"] and "«customer»_«id»" in best["snippet"]
    page = _search(db, cache, "quarterly churn dashboard")["results"]
    assert isinstance(page, list) and page[0]["app"] == "Google Chrome"
    assert "«Quarterly» «churn» «dashboard»" in page[0]["snippet"]
    element = _search(db, cache, "INV-2291 overdue")["results"]
    assert isinstance(element, list) and element[0]["app"] == "Google Chrome"
    assert _search(db, cache, "zebra migration plan")["results"] == []
    # secrets: in no output, not in the index
    outputs = json.dumps([_search(db, cache, w) for w in ("staging key", "pay with", "friday")])
    assert "maria" in outputs and "[redacted]" in outputs
    assert KEY not in outputs and CARD not in outputs and "4242" not in outputs
    index = b"".join(p.read_bytes() for p in (cache / "screen").iterdir())
    assert KEY.encode() not in index and b"4242 4242" not in index and b"4242" not in index
    assert sha256(db) == before  # the store is never changed


def test_an_appended_capture_is_found_at_the_next_search(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite"
    s = text_store(path, NEWEST)
    s.snapshot(T0, "iTerm2", "pytest", ocr="$ make build\nok")
    cache = tmp_path / "cache"
    assert _search(path, cache, "customer_id")["results"] == []
    s.snapshot(T0 + 30_000, "iTerm2", "pytest", ocr=TERMINAL_OCR)
    found = _search(path, cache, "customer_id")["results"]
    assert isinstance(found, list) and found[0]["at"].startswith("2026-03-17T10:00:30")
    s.close()


@pytest.mark.parametrize("version", [NEWEST, SUMMER])
def test_the_store_s_own_stamp_keeps_unchanged_days_and_grows_today(
    tmp_path: Path, version: str
) -> None:
    from actframes.api import open_store
    from actframes.screen_index.search import ScreenSearch

    day_ms = 86_400_000
    s = text_store(tmp_path / "db.sqlite", version)
    deferred = version == SUMMER
    s.snapshot(T0 - day_ms, "iTerm2", "pytest", ocr="$ make yesterday\nok", deferred=deferred)
    s.snapshot(T0, "iTerm2", "pytest", ocr="$ make build\nok", deferred=deferred)
    if deferred:
        s.flush()
    span = (T0 - T0 % day_ms - day_ms, T0 - T0 % day_ms + day_ms)  # yesterday and today
    with open_store(tmp_path / "db.sqlite") as store:
        finder = ScreenSearch(store, tmp_path / "cache")
        try:
            assert finder.update(*span) == {"kept": 0, "grown": 0, "built": 2}
            finder._checked.clear()  # (as after a commit elsewhere: each day looked at)
            assert finder.update(*span) == {"kept": 2, "grown": 0, "built": 0}
            s.snapshot(T0 + 30_000, "iTerm2", "pytest", ocr=TERMINAL_OCR, deferred=deferred)
            if deferred:
                s.flush()
            assert finder.update(*span) == {"kept": 1, "grown": 1, "built": 0}
            found = finder.search(Query("customer_id"), [day_window(DAY, "UTC")], "UTC")
            assert found and found[0]["at"].startswith("2026-03-17T10:00:30")
        finally:
            finder.close()
    s.close()
