"""``actframes report --week`` in a subprocess: the file it writes is ``to_period_html`` of
the period ``actframes period`` prints and the days ``actframes day`` prints, byte for
byte, and ``period --format html`` prints the same page; DATE and --week are one or the
other; errors are one line with the right exit code and leave no file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from actframes.demo import DEMO_DAY, DEMO_TZ
from actframes.emit.period_html import to_period_html
from actframes.periods import week_span

from ..builders import cli_env, run_cli, run_entry

WEEK = week_span(DEMO_DAY, DEMO_TZ, 0)  # 2026-W11, Monday 2026-03-09 to Sunday 2026-03-15


def report(*args: str, cwd: Path) -> tuple[int, str, str]:
    return run_entry("report", *args, cwd=cwd, env=cli_env(TZ="Pacific/Auckland"))


def test_writes_the_page_of_the_weeks_documents(demo_db: Path, tmp_path: Path) -> None:
    assert WEEK.label == "2026-W11"
    code, out, err = report("--week", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, cwd=tmp_path)
    assert (code, err) == (0, "")
    assert out == "report-2026-W11.html\n"
    page = (tmp_path / "report-2026-W11.html").read_bytes()
    store = ("--db", str(demo_db), "--tz", DEMO_TZ)
    period = run_cli("period", "--week", "2026-W11", *store)
    assert period.returncode == 0, period.stderr
    days = []
    for day in WEEK.days():
        run = run_cli("day", day, *store)
        assert run.returncode == 0, run.stderr
        days.append(json.loads(run.stdout))
    assert sum(len(d["frames"]) for d in days) == len(days[1]["frames"]) > 50  # the demo day
    assert page == to_period_html(json.loads(period.stdout), days).encode("utf-8")
    html = run_cli("period", "--week", "2026-W11", *store, "--format", "html")
    assert html.returncode == 0 and html.stderr == ""
    assert html.stdout.encode("utf-8") == page


def test_html_option_and_this_week(demo_db: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "sub" / "week.html"
    out_file.parent.mkdir()
    store = ("--db", str(demo_db), "--tz", DEMO_TZ)
    code, out, err = report("--week", "2026-W11", *store, "--html", str(out_file), cwd=tmp_path)
    assert (code, out, err) == (0, f"{out_file}\n", "")
    assert out_file.read_text(encoding="utf-8").count('class="lane"') == 7
    assert not list(out_file.parent.glob(".*.tmp"))
    # --week alone is this week, named by its ISO week.
    code, out, err = report("--week", *store, cwd=tmp_path)
    assert code == 0 and err == "" and re.fullmatch(r"report-\d{4}-W\d{2}\.html\n", out)
    assert (tmp_path / out.strip()).exists()


@pytest.mark.parametrize(
    ("args", "code", "says"),
    [
        ([DEMO_DAY, "--week", "2026-W11"], 2, "give DATE or --week, not both"),
        ([DEMO_DAY, "--week"], 2, "give DATE or --week, not both"),
        (["--week", "2026-W60"], 2, "no such ISO week"),
        (["--week", "2026-02-30"], 2, "2026-02-30"),
        (["--week", "soon"], 2, "soon"),
        (["--week", "2026-W11", "--min-minutes", "5"], 2, "--min-minutes"),
        (["--week", "2026-W11", "--tz", "Mars/Base"], 2, "unknown time zone"),
        (["--week", "2026-W11", "--html", "/nonexistent-folder/x.html"], 1, "no such folder"),
    ],
)
def test_errors_are_one_line(
    demo_db: Path, tmp_path: Path, args: list[str], code: int, says: str
) -> None:
    # The last --tz given wins, so the bad zone case overrides the good one.
    got, out, err = report("--db", str(demo_db), "--tz", DEMO_TZ, *args, cwd=tmp_path)
    assert got == code and out == ""
    assert err.startswith("actframes: error: ") and err.count("\n") == 1 and says in err
    assert not list(tmp_path.glob("*.html"))
