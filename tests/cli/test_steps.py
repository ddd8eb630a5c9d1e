import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from actframes.cli.steps import patterns, steps

HEADER = (
    "timeStamp,userID,targetApp,eventType,url,content,target.workbookName,"
    "target.sheetName,target.id,target.tagName,target.name,target.value\n"
)
LOG = (
    HEADER
    + """2024-05-02T09:00:00.000Z,u,Excel,getCell,,,book.xlsx,Sheet1,A2,,,Ann
2024-05-02T09:00:01.000Z,u,OS-Clipboard,copy,,Ann,,,,,,
2024-05-02T09:00:03.000Z,u,Chrome,clickTextField,https://f.example/form/123,,,,,INPUT,name,
2024-05-02T09:00:04.000Z,u,Chrome,paste,https://f.example/form/123,Ann,,,,INPUT,name,
2024-05-02T09:00:05.000Z,u,Chrome,editField,https://f.example/form/123,,,,,INPUT,name,Ann
2024-05-02T09:00:07.000Z,u,Chrome,clickButton,https://f.example/form/123,,,,,BUTTON,Submit,
"""
)


@pytest.fixture
def log(tmp_path: Path) -> Path:
    p = tmp_path / "log.csv"
    p.write_text(LOG)
    return p


def test_steps_json_lines(log: Path) -> None:
    r = CliRunner().invoke(steps, ["F1", "--db", str(log), "--tz", "UTC"])
    assert r.exit_code == 0, r.output
    assert [json.loads(x)["op"] for x in r.output.splitlines()] == ["click", "focus", "copy"]
    r = CliRunner().invoke(steps, ["F3", "--db", str(log), "--tz", "UTC"])
    lines = [json.loads(x) for x in r.output.splitlines()]
    ops = [x["op"] for x in lines]
    assert ops == ["click", "focus", "paste", "type", "click"]
    for x in lines:
        assert {"t", "op", "method", "confidence"} <= set(x)
        assert "text" not in x
    assert lines[-1]["target"] == {"role": "BUTTON", "name": "Submit"}
    assert lines[0]["t"] == "2024-05-02T09:00:03+00:00"


def test_steps_text_opt_in_and_md(log: Path) -> None:
    r = CliRunner().invoke(steps, ["F3", "--db", str(log), "--tz", "UTC", "--include-text"])
    assert any(json.loads(x).get("text") == "Ann" for x in r.output.splitlines())
    r = CliRunner().invoke(steps, ["F3", "--db", str(log), "--tz", "UTC", "--format", "md"])
    assert r.output.startswith("# Steps of F3") and "Submit" in r.output


def test_steps_unknown_frame(log: Path) -> None:
    r = CliRunner().invoke(steps, ["F99", "--db", str(log), "--tz", "UTC", "--date", "2024-05-02"])
    assert r.exit_code != 0 and "no frame F99" in str(r.exception)


def test_patterns_cli(tmp_path: Path) -> None:
    body = LOG.splitlines()
    rows = [body[0]]
    for d in range(3):
        rows += [ln.replace("2024-05-02T09:00", f"2024-05-0{2 + d}T09:1{d}") for ln in body[1:]]
    p = tmp_path / "days.csv"
    p.write_text("\n".join(rows) + "\n")
    r = CliRunner().invoke(
        patterns, ["--days", "3", "--until", "2024-05-04", "--db", str(p), "--tz", "UTC"]
    )
    assert r.exit_code == 0, r.output
    got = [json.loads(x) for x in r.output.splitlines()]
    kinds = {x["kind"] for x in got}
    assert {"repeated_click", "daily_habit"} <= kinds
    sub = next(x for x in got if x["kind"] == "repeated_click" and x["target"]["name"] == "Submit")
    assert sub["count"] == 3 and len(sub["events"]) == 3
    assert not any(x["kind"] == "repeated_text" for x in got)
