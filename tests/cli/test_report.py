"""``actframes report`` in a subprocess: the file it writes is ``to_html`` of the same
document ``day`` prints, byte for byte; errors are one line with the right exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actframes.cli.options import FORMATS
from actframes.demo import DEMO_DAY, DEMO_TZ
from actframes.emit.html import to_html

from ..builders import cli_env, run_cli, run_entry


def report(*args: str, cwd: Path) -> tuple[int, str, str]:
    return run_entry("report", *args, cwd=cwd, env=cli_env(TZ="Pacific/Auckland"))


def test_writes_the_report_of_the_same_document(demo_db: Path, tmp_path: Path) -> None:
    code, out, err = report(DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, cwd=tmp_path)
    assert (code, err) == (0, "")
    target = tmp_path / f"report-{DEMO_DAY}.html"
    assert out == f"report-{DEMO_DAY}.html\n"
    day = run_cli("day", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ)
    assert day.returncode == 0
    assert target.read_bytes() == to_html(json.loads(day.stdout)).encode("utf-8")


def test_html_option_and_min_minutes(demo_db: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "sub" / "day.html"
    out_file.parent.mkdir()
    code, out, err = report(
        DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, "--min-minutes", "5",
        "--html", str(out_file), cwd=tmp_path,
    )  # fmt: skip
    assert (code, out, err) == (0, f"{out_file}\n", "")
    html = out_file.read_text(encoding="utf-8")
    day = run_cli("day", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, "--min-minutes", "5")
    doc = json.loads(day.stdout)
    assert doc["omitted"]["frames"] > 0
    assert html == to_html(doc)
    assert html.count('class="bar"') == len(doc["frames"])
    assert not list(out_file.parent.glob(".*.tmp"))  # no temporary file left behind


@pytest.mark.parametrize(
    ("date", "extra", "code", "says"),
    [
        ("2026-13-01", [], 2, "no such date"),
        (DEMO_DAY, ["--min-minutes", "-1"], 2, "--min-minutes"),
        (DEMO_DAY, ["--tz", "Mars/Base"], 2, "unknown time zone"),
        (DEMO_DAY, ["--html", "/nonexistent-folder/x.html"], 1, "no such folder"),
    ],
)
def test_errors_are_one_line(
    demo_db: Path, tmp_path: Path, date: str, extra: list[str], code: int, says: str
) -> None:
    # The last --tz given wins, so the bad zone case overrides the good one.
    got, out, err = report(date, "--db", str(demo_db), "--tz", DEMO_TZ, *extra, cwd=tmp_path)
    assert got == code and out == ""
    assert err.startswith("actframes: error: ") and err.count("\n") == 1 and says in err
    assert not list(tmp_path.glob("*.html"))


def test_missing_store_is_a_data_error(tmp_path: Path) -> None:
    got, out, err = report(DEMO_DAY, "--db", str(tmp_path / "none.db"), "--tz", "UTC", cwd=tmp_path)
    assert got == 1 and out == "" and err.startswith("actframes: error: ")
    assert not list(tmp_path.glob("*.html"))


@pytest.mark.skipif("html" not in FORMATS, reason="`day --format html` not registered yet")
def test_day_format_html(demo_db: Path) -> None:
    day = run_cli("day", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ)
    html = run_cli("day", DEMO_DAY, "--db", str(demo_db), "--tz", DEMO_TZ, "--format", "html")
    assert html.returncode == 0
    assert html.stdout == to_html(json.loads(day.stdout))
