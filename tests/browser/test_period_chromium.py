"""The week page in a real headless Chromium, driven over the DevTools protocol, like the
day report (test_report_chromium.py): it loads with no console errors and no network
request, draws a lane per day and a bar per frame, every bar is reached by Tab in order
and shows its frame's facts on focus, hover shows them too, the arrow keys move along a
day and between days (past a day without frames), and it is not blank at 1280×800 or on
a phone. Skipped, with the reason, when no Chromium is installed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from actframes.emit.html_layout import clock, minutes
from actframes.emit.period_html import to_period_html

from ..emit.test_period_html import DST_WEEK, SKIPPED, Days, dst_week_store, period_of
from .cdp import Browser
from .test_report_chromium import CHROMIUM, REQUIRED, _started, assert_not_blank, assert_quiet

pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)

READ_PAGE = """(() => {
  const bars = [...document.querySelectorAll('.bar')].map(b => ({
    id: b.dataset.id, d: Number(b.dataset.d), active_s: Number(b.dataset.activeS),
    w: b.getBoundingClientRect().width, h: b.getBoundingClientRect().height}));
  const lanes = [...document.querySelectorAll('.lane')].map(l => ({
    day: l.dataset.day, bars: l.querySelectorAll('.bar').length,
    total: l.querySelector('.dtotal').textContent,
    track: l.querySelector('.track').getBoundingClientRect().width}));
  return {bars, lanes, scripts: document.scripts.length,
          ledger: document.querySelectorAll('.plrow').length,
          scrollWidth: document.documentElement.scrollWidth};
})()"""

# After a Tab: what has focus and what the panel says.
FOCUSED = """(() => {
  const a = document.activeElement, p = document.getElementById('detail');
  const bar = a && a.classList.contains('bar');
  return {bar, id: bar ? a.dataset.id : null, d: bar ? Number(a.dataset.d) : null,
          hidden: p.hidden, text: p.innerText,
          head: p.querySelector('h3') ? p.querySelector('h3').textContent : null};
})()"""


@pytest.fixture()
def browser() -> Iterator[Browser]:
    """A started browser with its page, as the day report's tests have it."""
    if CHROMIUM is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    b = _started(CHROMIUM)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="module")
def week(tmp_path_factory: pytest.TempPathFactory) -> Days:
    return period_of(dst_week_store(tmp_path_factory.mktemp("week") / "week.db"), DST_WEEK)


def load(browser: Browser, week: Days, path: Path, *, width: int = 1280, height: int = 800) -> str:
    path.write_bytes(to_period_html(*week).encode("utf-8"))
    url = path.as_uri()
    browser.viewport(width, height, mobile=width < 640)
    browser.navigate(url)
    return url


def key(browser: Browser, name: str, code: int) -> None:
    for kind in ("rawKeyDown", "keyUp"):
        browser.send(
            "Input.dispatchKeyEvent",
            {"type": kind, "key": name, "code": name, "windowsVirtualKeyCode": code},
        )


def facts(f: dict[str, Any], day: str) -> list[str]:
    """What the panel must say of frame ``f`` of ``day``."""
    return [
        f"{minutes(f['active_s'])} ({f['active_s']} s)",
        f"{clock(f['start'], day)}–{clock(f['end'], day)}",
        f"{f['input']['keys']} keys · {f['input']['clicks']} clicks",
        day,
        f["id"],
    ]


def test_week_page_in_chromium(browser: Browser, week: Days, tmp_path: Path) -> None:
    period, docs = week
    url = load(browser, week, tmp_path / "week.html")
    page = browser.evaluate(READ_PAGE)
    assert [ln["day"] for ln in page["lanes"]] == DST_WEEK.days()
    assert [ln["bars"] for ln in page["lanes"]] == [len(d["frames"]) for d in docs]
    assert page["lanes"][DST_WEEK.days().index(SKIPPED)]["bars"] == 0
    assert sorted((b["id"], b["active_s"]) for b in page["bars"]) == sorted(
        (f["id"], f["active_s"]) for d in docs for f in d["frames"]
    )
    # Every bar is drawn, a frame of a second too, so every frame can be pointed at.
    assert all(b["w"] >= 1.5 and b["h"] >= 8 for b in page["bars"])
    assert len({ln["track"] for ln in page["lanes"]}) == 1  # one axis for all days
    assert page["ledger"] == len(period["ledger"])
    assert page["scripts"] == 2 and page["scrollWidth"] <= 1280
    png = browser.screenshot()
    (tmp_path / "week-1280x800.png").write_bytes(png)
    assert_not_blank(png, 1280, 800)
    assert_quiet(browser, url)


def test_every_bar_is_reached_by_tab_and_shows_its_frame(
    browser: Browser, week: Days, tmp_path: Path
) -> None:
    _, docs = week
    url = load(browser, week, tmp_path / "week.html")
    expected = [(n, f) for n, d in enumerate(docs) for f in d["frames"]]
    for _ in range(5):  # the skip link comes first
        key(browser, "Tab", 9)
        if browser.evaluate("document.activeElement.classList.contains('bar')"):
            break
    for n, f in expected:
        got = browser.evaluate(FOCUSED)
        assert got["bar"] and (got["d"], got["id"]) == (n, f["id"])
        assert got["hidden"] is False
        assert got["head"] == f["app"] + (f" · {f['site']}" if "site" in f else "")
        day = docs[n]["window"]["day"]
        for fact in facts(f, day):
            assert fact in got["text"], (fact, got["text"])
        key(browser, "Tab", 9)
    # Past the last bar, focus leaves the lanes and the panel closes.
    after = browser.evaluate(FOCUSED)
    assert not after["bar"] and after["hidden"] is True
    assert_quiet(browser, url)


def test_hover_and_arrow_keys(browser: Browser, week: Days, tmp_path: Path) -> None:
    _, docs = week
    load(browser, week, tmp_path / "week.html")
    sunday = docs[6]
    target = max(sunday["frames"], key=lambda f: f["wall_s"])
    where = browser.evaluate(
        f"(() => {{ const r = document.querySelector('.bar[data-id={json.dumps(target['id'])}]')"
        ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
    )
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": where[0], "y": where[1]})
    shown = browser.evaluate(FOCUSED)
    assert shown["hidden"] is False and target["id"] in shown["text"]
    assert sunday["window"]["day"] in shown["text"]
    browser.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 5, "y": 5})
    assert browser.evaluate("document.getElementById('detail').hidden") is True

    wednesday = DST_WEEK.days().index(SKIPPED) - 1
    first = docs[wednesday]["frames"][0]
    browser.evaluate(f"document.querySelector('.bar[data-id={json.dumps(first['id'])}]').focus()")
    key(browser, "ArrowRight", 39)
    assert browser.evaluate(FOCUSED)["id"] == docs[wednesday]["frames"][1]["id"]
    key(browser, "ArrowDown", 40)  # Thursday has no frames: on to Friday
    got = browser.evaluate(FOCUSED)
    assert got["d"] == wednesday + 2 and got["hidden"] is False
    assert got["id"] in {f["id"] for f in docs[wednesday + 2]["frames"]}
    key(browser, "ArrowUp", 38)
    assert browser.evaluate(FOCUSED)["d"] == wednesday
    key(browser, "Escape", 27)
    assert browser.evaluate("document.getElementById('detail').hidden") is True


def test_readable_on_a_phone(browser: Browser, week: Days, tmp_path: Path) -> None:
    url = load(browser, week, tmp_path / "week.html", width=390, height=844)
    page = browser.evaluate(READ_PAGE)
    assert page["scrollWidth"] <= 390  # nothing sticks out sideways
    assert len(page["lanes"]) == 7 and all(ln["track"] > 250 for ln in page["lanes"])
    names = browser.evaluate(
        "[...document.querySelectorAll('.lane-name')].map(n => n.getBoundingClientRect().width)"
    )
    assert min(names) > 200
    assert_not_blank(browser.screenshot(), 390, 844)
    assert_quiet(browser, url)
