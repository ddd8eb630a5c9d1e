"""Several ``actframes day`` calls in one process (tests, a tool calling ``cli.main``):
each starts clean. ``--day-start`` only reaches a call through click's callback, which sets
a process-wide default; a plain call runs without click (``fast_day``), so it must reset
it itself, as click's callback does for an option not given. ``--no-audible-active`` is
passed down the call to the store's reader, by click and by the plain parser alike, and
so leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from actframes.cli import main
from actframes.window import DayStart

from ..sources.test_activitywatch import T0, afk_bucket, bucket, ev, web, write_export
from ..test_golden import build

DAY, TZ = "2026-03-10", "Europe/Berlin"


@pytest.fixture(autouse=True)
def _defaults() -> Iterator[None]:
    yield
    DayStart.minutes = 0  # whatever a failing call left


def _day(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(["day", *args, "--no-cache"])
    out: str = capsys.readouterr().out
    assert out.startswith("{")
    return out


def test_a_day_start_does_not_carry_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(build(tmp_path / "g.db"))
    plain = _day(capsys, DAY, "--db", db, "--tz", TZ)
    late = _day(capsys, DAY, "--db", db, "--tz", TZ, "--day-start", "09:01")  # through click
    assert '"start":"2026-03-10T09:01:00+01:00"' in late and late != plain
    again = _day(capsys, DAY, "--db", db, "--tz", TZ)  # plain again: midnight to midnight
    assert again == plain and '"start":"2026-03-10T00:00:00+01:00"' in again


def test_no_audible_active_does_not_carry_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = write_export(
        tmp_path / "video.json",
        bucket(
            "aw-watcher-window_h",
            "currentwindow",
            "h",
            [ev(T0, 900, app="Firefox", title="Talk — Mozilla Firefox")],
        ),
        bucket(
            "aw-watcher-web-firefox_h",
            "web.tab.current",
            "h",
            [web(T0, 900, "https://www.youtube.com/watch?v=1", "Talk", audible=True)],
        ),
        afk_bucket("h", (0, 180, "not-afk"), (180, 900, "afk")),
    )
    args = ("2023-11-14", "--db", str(export), "--tz", "UTC")
    plain = _day(capsys, *args)
    silent = _day(capsys, *args, "--no-audible-active")  # the plain parser
    assert silent != plain
    assert _day(capsys, *args) == plain  # plain again: audible time is active again
    # Through click (--day-start leaves the call to it): the same document.
    assert _day(capsys, *args, "--no-audible-active", "--day-start", "00:00") == silent
    assert _day(capsys, *args, "--day-start", "00:00") == plain


def test_an_earlier_program_run_does_not_end_this_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``main()`` run as the program marks the process to end at once after its command;
    a later in-process call (``main(argv)``) must not inherit that mark."""
    from actframes.cli import common

    ended: list[bool] = []
    monkeypatch.setattr(common, "exit_now", lambda: ended.append(True))
    monkeypatch.setattr(common.Process, "exit_early", True)  # as a program run leaves it
    db = str(build(tmp_path / "g.db"))
    _day(capsys, DAY, "--db", db, "--tz", TZ)
    assert not ended and not common.Process.exit_early
