"""``actframes period`` end to end on a real store of two weeks (SPEC.md §5a): every
format agrees with the period the library makes from each day's own document; --vs
gives the two periods side by side with diff = this − vs; bad requests are one line on
stderr and exit 2; the store is never changed."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from actframes.classify.names import project_key
from actframes.cli import main
from actframes.cli.group import cli
from actframes.emit.durations import fmt_dur
from actframes.emit.json_out import to_json
from actframes.emit.period_context import to_period_context
from actframes.emit.token_count import count_tokens
from actframes.periods import days_span, month_span, week_span

from ..builders import cli_env, ms, run_cli, sha256
from ..period_stores import TZ, period_of, simulated_store

W47, W48 = ("2026-11-16", "2026-11-22"), ("2026-11-23", "2026-11-29")
GAPS = ("2026-11-18", "2026-11-26")  # a Wednesday of W47, a Thursday of W48
NOW = ms("2026-11-25T12:00:00+01:00")  # a Wednesday of 2026-W48


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = simulated_store(tmp_path_factory.mktemp("period") / "two.db", W47[0], 14, skip=GAPS)
    before = sha256(path)
    yield path
    assert sha256(path) == before  # no command wrote to the store


@pytest.fixture(autouse=True)
def _now(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock the command reads its words (this week, last-week) with."""
    monkeypatch.setattr("actframes.cli.period.now_ms", lambda: NOW)


def run(db: Path, *args: str) -> str:
    res = CliRunner().invoke(cli, ["period", *args, "--db", str(db), "--tz", TZ])
    assert res.exit_code == 0, (res.output, res.exception)
    out: str = res.stdout
    return out


def _doc(db: Path, *args: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(run(db, *args))
    return doc


def test_json_is_the_period_of_the_days_documents(db: Path) -> None:
    out = run(db, "--week", "2026-W48")
    assert out == to_json(period_of(db, week_span("2026-W48", TZ, 0)))
    doc = json.loads(out)
    assert doc["kind"] == "period" and doc["window"]["label"] == "2026-W48"
    assert [d["day"] for d in doc["days"]] == week_span("2026-W48", TZ, 0).days()
    # the same week named four ways
    for args in (("--week",), ("--week", "2026-11-25"), ("--week", "today"), ()):
        assert run(db, *args) == out, args
    ranged = _doc(db, "--since", W48[0], "--until", W48[1])
    assert (ranged["window"]["kind"], ranged["window"]["label"]) == (
        "days",
        "2026-11-23..2026-11-29",
    )
    assert ranged["days"] == doc["days"] and ranged["ledger"] == doc["ledger"]
    today = _doc(db, "--since", "2026-11-23")  # --until defaults to today
    assert [d["day"] for d in today["days"]] == ["2026-11-23", "2026-11-24", "2026-11-25"]
    assert today["days"] == doc["days"][:3]


def test_a_day_start(db: Path) -> None:
    from actframes.window import DayStart

    try:
        out = run(db, "--week", "2026-W48", "--day-start", "04:00")
        assert DayStart.minutes == 240  # (as the command left it: restored below)
        want = to_json(period_of(db, week_span("2026-W48", TZ, 0)))
    finally:
        DayStart.minutes = 0
    assert out == want
    doc = json.loads(out)
    assert doc["window"]["start"] == "2026-11-23T04:00:00+01:00"
    assert all(d["start"][10:] == "T04:00:00+01:00" for d in doc["days"])
    assert out != run(db, "--week", "2026-W48")  # the next call starts at midnight again


def test_a_month(db: Path) -> None:
    out = run(db, "--month", "2026-11")
    assert out == to_json(period_of(db, month_span("2026-11", TZ, 0)))
    doc = json.loads(out)
    assert doc["window"]["days"] == 30 and doc["window"]["label"] == "2026-11"
    active = [d["day"] for d in doc["days"] if d["active_s"]]
    assert active == [d for d in days_span(W47[0], W48[1]).days() if d not in GAPS]
    assert run(db, "--month") == out  # this month


def test_csv_rows_add_up_to_each_days_active_time(db: Path) -> None:
    doc = _doc(db, "--week", "2026-W48")
    rows = list(csv.DictReader(io.StringIO(run(db, "--week", "2026-W48", "--format", "csv"))))
    assert list(rows[0]) == ["date", "weekday", "app", "seconds", "hours"]
    assert list(dict.fromkeys(r["date"] for r in rows)) == [d["day"] for d in doc["days"]]
    for d in doc["days"]:
        mine = [r for r in rows if r["date"] == d["day"]]
        assert {r["weekday"] for r in mine} == {d["weekday"]}
        assert sum(int(r["seconds"]) for r in mine) == d["active_s"]
        assert {r["app"]: int(r["seconds"]) for r in mine if r["app"]} == {
            a["app"]: a["active_s"] for a in d["apps"] if a["active_s"]
        }
        hundredths = sum(int(r["hours"].replace(".", "")) for r in mine)
        assert hundredths == (d["active_s"] * 100 + 1800) // 3600  # the day's hours, rounded
        if d["day"] == GAPS[1]:
            assert [(r["app"], r["seconds"], r["hours"]) for r in mine] == [("", "0", "0.00")]


def test_markdown(db: Path) -> None:
    doc = _doc(db, "--week", "2026-W48")
    md = run(db, "--week", "2026-W48", "--format", "md").split("\n")
    assert md[0] == "# Activity 2026-W48 (2026-11-23 – 2026-11-29, Europe/Berlin)"
    day_rows = [x for x in md if x.startswith("| 2026-11-")]
    assert [x.split(" | ")[:2] for x in day_rows] == [
        [f"| {d['day']}", d["weekday"]] for d in doc["days"]
    ]
    head = md.index("## Ledger") + 4  # (a blank line, the table's head and its rule)
    ledger = md[head : md.index("", head)]
    assert len(ledger) == len(doc["ledger"])
    assert [x.split(" | ")[0][2:] for x in ledger] == [e["app"] for e in doc["ledger"]]


def test_context(db: Path) -> None:
    doc = period_of(db, week_span("2026-W48", TZ, 0))
    assert run(db, "--week", "2026-W48", "--format", "context") == to_period_context(doc, 2000)
    small = run(db, "--week", "2026-W48", "--format", "context", "--budget", "1000")
    assert small == to_period_context(doc, 1000) and count_tokens(small) <= 1000


def test_html(db: Path) -> None:
    page = run(db, "--week", "2026-W48", "--format", "html")
    assert page.lstrip().lower().startswith("<!doctype html") and "2026-W48" in page


# ------------------------------------------------------------------ --vs


def _rows(this: list[tuple[str, int]], other: list[tuple[str, int]], key: Any) -> dict[str, Any]:
    """name key -> (this, vs) seconds, summed over spellings."""
    out: dict[str, list[int]] = {}
    for i, entries in enumerate((this, other)):
        for name, s in entries:
            out.setdefault(key(name) or name, [0, 0])[i] += s
    return {k: tuple(v) for k, v in out.items()}


def _seconds(doc: dict[str, Any], group: str) -> list[tuple[str, int]]:
    if group == "apps":
        return [(a["app"], a["active_s"]) for a in doc["apps"]]
    return [(e["name"], e["active_s"]) for e in doc[group]["entries"]]


@pytest.mark.parametrize("vs", ["previous", "2026-W47", "last-week", "2026-11-16..2026-11-22"])
def test_vs_gives_the_two_periods_side_by_side(db: Path, vs: str) -> None:
    this, other = _doc(db, "--week", "2026-W48"), _doc(db, "--week", "2026-W47")
    cmp = _doc(db, "--week", "2026-W48", "--vs", vs)
    assert set(cmp) == {"period", "vs", "totals", "days_active", "apps", "projects", "categories"}
    assert (cmp["period"]["label"], cmp["period"]["since"]) == ("2026-W48", W48[0])
    assert (cmp["vs"]["since"], cmp["vs"]["until"], cmp["vs"]["days"]) == (*W47, 7)
    assert cmp["vs"]["digest"] == other["source"]["digest"]
    a, b = this["totals"]["active_s"], other["totals"]["active_s"]
    assert cmp["totals"] == {"name": "active", "active_s": a, "vs_s": b, "diff_s": a - b}
    assert cmp["days_active"] == {"this": 6, "vs": 6}
    for group, key in (("apps", str), ("projects", project_key), ("categories", str)):
        rows = cmp[group]
        assert rows, group
        want = _rows(_seconds(this, group), _seconds(other, group), key)
        assert {key(r["name"]) or r["name"]: (r["active_s"], r["vs_s"]) for r in rows} == want
        assert all(r["diff_s"] == r["active_s"] - r["vs_s"] for r in rows)
        order = [(-max(r["active_s"], r["vs_s"]), r["name"]) for r in rows]
        assert order == sorted(order)
    assert any(r["diff_s"] > 0 for r in cmp["apps"]) and any(r["diff_s"] < 0 for r in cmp["apps"])


def test_vs_in_every_format(db: Path) -> None:
    cmp = _doc(db, "--week", "2026-W48", "--vs", "2026-W47")
    rows = list(
        csv.reader(
            io.StringIO(run(db, "--week", "2026-W48", "--vs", "2026-W47", "--format", "csv"))
        )
    )
    assert rows[0] == ["group", "name", "this_s", "vs_s", "diff_s"]
    assert rows[1] == [
        "totals",
        "active",
        *map(str, (cmp["totals"][k] for k in ("active_s", "vs_s", "diff_s"))),
    ]
    want = [
        [g, r["name"], str(r["active_s"]), str(r["vs_s"]), str(r["diff_s"])]
        for g in ("apps", "projects", "categories")
        for r in cmp[g]
    ]
    assert rows[2:] == want
    text = run(db, "--week", "2026-W48", "--vs", "2026-W47", "--format", "context")
    assert text.startswith(
        "compare 2026-W48 (2026-11-23..2026-11-29) vs 2026-W47 (2026-11-16..2026-11-22)"
    )
    assert text.split("\n")[1].startswith("total · ")
    md = run(db, "--week", "2026-W48", "--vs", "2026-W47", "--format", "md")
    assert "2026-W48" in md and "2026-W47" in md
    assert md.startswith("# 2026-W48 vs 2026-W47\n")
    for r in cmp["apps"]:
        sign = "+" if r["diff_s"] > 0 else "−" if r["diff_s"] < 0 else "±"
        cells = [r["name"], fmt_dur(r["active_s"]), fmt_dur(r["vs_s"])]
        (line,) = [x for x in md.split("\n") if x.startswith("| " + " | ".join(cells) + " | ")]
        assert line.split(" | ")[-1].startswith(sign)
        same = [x for x in text.split("\n") if x.startswith(f"- {r['name']} · ")]
        assert same and same[0].split(" · ")[-1][0] == sign


# ------------------------------------------------------------------ errors

ERRORS = [
    (
        ["--week", "2026-W48", "--month", "2026-11"],
        "give one of --since/--until, --week or --month",
    ),
    (["--week", "--month", "2026-11"], "give one of"),
    (["--since", "2026-11-23", "--week", "2026-W48"], "give one of"),
    (["--until", "2026-11-29"], "--until needs --since"),
    (
        ["--since", "2026-11-29", "--until", "2026-11-23"],
        "--until 2026-11-23 is before --since 2026-11-29",
    ),
    (["--since", "2026-01-01", "--until", "2026-04-10"], "100 days asked"),
    (["--week", "2026-W99"], "no such ISO week: '2026-W99'"),
    (["--week", "9999-W52"], "date out of range"),
    (["--week", "next"], "not a date"),
    (["--month", "2026-13"], "no such month: '2026-13'"),
    (["--month", "2026-00"], "no such month"),
    (["--since", "2026-02-30"], "no such date"),
    (["--vs", "2026-W99"], "no such ISO week"),
    (["--vs", "sometime"], "not a period: 'sometime'"),
    (["--vs", "2026-11-05..2026-11-01"], "is before"),
    (["--vs", "previous", "--format", "html"], "--vs prints json, md, context or csv, not html"),
    (["--format", "context", "--budget", "0"], "--budget must be a positive number of tokens"),
    (["--format", "pdf"], "Invalid value for '--format'"),
]


@pytest.mark.parametrize(("args", "message"), ERRORS)
def test_bad_requests_are_one_line_and_exit_2(
    db: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["period", *args, "--db", str(db), "--tz", TZ])
    out, err = capsys.readouterr()
    assert done.value.code == 2, err
    assert out == "" and err.count("\n") == 1 and err.startswith("actframes: error: ")
    assert message in err


def test_as_a_program(db: Path) -> None:
    base = ["period", "--db", str(db), "--tz", TZ]
    env = cli_env()
    got = run_cli(*base, "--week", "2026-W48", "--vs", "2026-W47", "--format", "csv", env=env)
    assert got.returncode == 0 and got.stderr == "", got.stderr
    assert got.stdout == run(db, "--week", "2026-W48", "--vs", "2026-W47", "--format", "csv")
    for args, message in [
        (["--week", "2026-W99"], "no such ISO week"),
        (["--week", "9999-W52"], "out of range"),
    ]:
        bad = run_cli(*base, *args, env=env)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.count("\n") == 1 and message in bad.stderr
        assert "Traceback" not in bad.stderr
