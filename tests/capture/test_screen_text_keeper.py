"""``record --screen-text`` without a display: what a capture's text keeps (pieces a title
would keep, redacted, bounded), once per change per window, OCR only where accessibility
gives nothing; the config key and the options ``start`` forwards."""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

import pytest

from actframes.capture.atspi_text import VisibleText
from actframes.capture.config import RecorderConfig, parse_config
from actframes.capture.focus import Seen
from actframes.capture.policy import View
from actframes.capture.privacy import PrivacyRules
from actframes.capture.screen_text import (
    MAX_CHARS,
    ScreenTextKeeper,
    clean,
    load_redactor,
    make_keeper,
)
from actframes.capture.window_info import WindowInfo
from actframes.cli.record import _forwarded

RULES = PrivacyRules.build(titles=["(?i)payroll"], hosts=["bank.example"])


def _redact(text: str) -> str:
    return text.replace("hunter2", "[redacted]")


def _done(value: Any) -> concurrent.futures.Future[Any]:
    fut: concurrent.futures.Future[Any] = concurrent.futures.Future()
    fut.set_result(value)
    return fut


class FakeA11y:
    def __init__(self, *answers: VisibleText | None) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[int | None, str]] = []
        self.typed: list[bool] = []

    def visible_text_async(self, pid: int | None, title: str, **kw: Any) -> Any:
        self.asked.append((pid, title))
        self.typed.append(kw.get("typed", False))
        return _done(self.answers.pop(0))


def _seen(window: int = 0x40, title: str = "notes") -> Seen:
    info = WindowInfo(window, title, "gedit", "Gedit", 42, "gedit")
    return Seen(View(window, "Gedit", title), 0, info, box=(0, 0, 300, 200))


def _run(keeper: ScreenTextKeeper, a11y: Any, seen: Seen, snap: int) -> Any:
    keeper.ask(seen, snap, 1000 * snap)
    assert keeper.step(a11y) is None  # started
    return keeper.step(a11y)  # collected


def test_clean_keeps_what_a_title_would_redacts_and_bounds() -> None:
    pieces = [
        "Quarterly zebra forecast",
        "Payroll March",  # an excluded title pattern
        "Inbox (Incognito)",  # a private-window marker
        "https://www.bank.example/login now",  # an excluded host
        "password hunter2",
    ]
    assert clean(pieces, RULES, _redact) == "Quarterly zebra forecast\npassword [redacted]"
    assert len(clean(["x" * 5000, "y" * 5000], RULES, _redact)) == MAX_CHARS
    # The recorder's own redaction: a key on screen is not kept.
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0" * 2
    kept = clean(["token " + key], RULES, load_redactor())
    assert key not in kept and "[redacted]" in kept


def test_text_is_written_once_per_change_of_each_window() -> None:
    same = VisibleText(True, ["Quarterly zebra forecast"])
    a11y = FakeA11y(same, same, VisibleText(True, ["Revised"]), same, VisibleText(False, ["x"]))
    keeper = ScreenTextKeeper(RULES, _redact, ocr=False)
    assert _run(keeper, a11y, _seen(), 1) == (1000, 1, "accessibility", "Quarterly zebra forecast")
    assert _run(keeper, a11y, _seen(), 2) is None  # unchanged
    assert _run(keeper, a11y, _seen(), 3) == (3000, 3, "accessibility", "Revised")
    other = _seen(0x50, "other")
    assert _run(keeper, a11y, other, 4) == (4000, 4, "accessibility", "Quarterly zebra forecast")
    assert _run(keeper, a11y, _seen(), 5) is None  # a frame that is only a guess
    assert not keeper.busy()


def test_placeholders_are_never_asked_about() -> None:
    a11y = FakeA11y()
    keeper = ScreenTextKeeper(RULES, _redact, ocr=False)
    keeper.ask(Seen(View(0, "[excluded]", ""), 0, None, private=True), 1, 1000)
    private = _seen()
    private.private = True
    keeper.ask(private, 2, 2000)
    assert keeper.step(a11y) is None and a11y.asked == [] and not keeper.busy()


def test_ocr_reads_only_where_accessibility_gives_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("actframes.capture.ocr.read_text", lambda image: f"{image}\n\nhunter2\n")
    grabbed: list[int] = []

    def grab(window: int, box: Any) -> Any:
        grabbed.append(window)
        return None if window == 0x99 else "PELICAN"

    keeper = ScreenTextKeeper(RULES, _redact, ocr=True, grab=grab)
    a11y = FakeA11y(VisibleText(True, ["label"]), None, None)
    assert _run(keeper, a11y, _seen(), 1)[2:] == ("accessibility", "label")
    assert grabbed == []
    keeper.ask(_seen(0x60), 2, 2000)
    assert keeper.step(a11y) is None  # accessibility started
    assert keeper.step(a11y) is None  # nothing there: OCR started
    row = None
    for _ in range(500):  # OCR runs in a worker thread
        row = keeper.step(a11y)
        if row is not None:
            break
        time.sleep(0.01)
    assert row == (2000, 2, "ocr", "PELICAN\n[redacted]")
    assert _run(keeper, a11y, _seen(0x99), 3) is None  # the window is gone: no pixels
    keeper.close()


def test_config_key_and_forwarded_options() -> None:
    assert RecorderConfig().screen_text is False
    cfg = parse_config({"screen_text": True, "screen_text_ocr": True})
    assert cfg.screen_text and cfg.screen_text_ocr
    with pytest.raises(ValueError, match="screen_text must be true or false"):
        parse_config({"screen_text": "yes"})
    assert RecorderConfig().with_overrides(screen_text=True).screen_text
    args = _forwarded({"screen_text": True, "screen_text_ocr": False})
    assert args == ["--screen-text", "--no-screen-text-ocr"]
    logged: list[str] = []
    assert make_keeper(RecorderConfig(), object(), None, logged.append) is None
    cfg = RecorderConfig(screen_text=True, screen_text_ocr=True)
    assert make_keeper(cfg, None, None, logged.append) is None
    assert any("X11 only" in line for line in logged)


def test_typed_text_is_asked_for_only_when_opted_in() -> None:
    """``--screen-text-typed`` (``screen_text_typed``): off by default, forwarded by
    ``start``, and passed to the accessibility read."""
    assert RecorderConfig().screen_text_typed is False
    assert parse_config({"screen_text_typed": True}).screen_text_typed
    with pytest.raises(ValueError, match="screen_text_typed must be true or false"):
        parse_config({"screen_text_typed": 1})
    assert _forwarded({"screen_text": True, "screen_text_typed": True}) == [
        "--screen-text",
        "--screen-text-typed",
    ]
    for typed in (False, True):
        cfg = RecorderConfig(screen_text=True).with_overrides(screen_text_typed=typed)
        a11y = FakeA11y(VisibleText(True, ["notes", "typed words"]))
        keeper = make_keeper(cfg, a11y, None, lambda _: None)
        assert keeper is not None
        assert _run(keeper, a11y, _seen(), 1) == (1000, 1, "accessibility", "notes\ntyped words")
        assert a11y.typed == [typed]
