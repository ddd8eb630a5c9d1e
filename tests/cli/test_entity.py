"""``actframes entity``: the real command in a subprocess, through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from ..builders import cli_env

LAUNCH = "import sys\nfrom actframes.cli import main\nmain(sys.argv[1:])\n"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", LAUNCH, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=cli_env(LC_ALL="C", TZ="Pacific/Kiritimati"),
        timeout=60,
    )


def test_urls_one_json_object_a_line() -> None:
    p = run(
        "entity",
        "https://github.com/psf/requests/pull/6712",
        "https://www.linkedin.com/search/results/people/?keywords=cto%20berlin&sid=S3CRET",
        "about:newtab",
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert [list(json.loads(x)) for x in lines] == [["input", "site", "kind", "entity"]] * 3
    assert json.loads(lines[0]) == {
        "input": "https://github.com/psf/requests/pull/6712",
        "site": "github.com",
        "kind": "pull_request",
        "entity": "psf/requests#6712",
    }
    assert json.loads(lines[1])["entity"] == '"cto berlin"'
    assert json.loads(lines[2]) == {
        "input": "about:newtab", "site": None, "kind": "browser", "entity": "about:newtab"
    }  # fmt: skip
    assert p.stdout.endswith("\n") and "S3CRET" not in "".join(
        json.loads(x)["entity"] for x in lines
    )


def test_output_is_canonical_and_unescaped() -> None:
    p = run("entity", "https://de.wikipedia.org/wiki/M%C3%BCnchen")
    assert p.stdout == (
        '{"input": "https://de.wikipedia.org/wiki/M%C3%BCnchen", "site": "de.wikipedia.org",'
        ' "kind": "wiki", "entity": "de:München"}\n'
    )


def test_urls_from_stdin() -> None:
    p = run("entity", "-", stdin="https://x.com/jack\n\nlocalhost:8501\r\n")
    assert p.returncode == 0, p.stderr
    got = [json.loads(x) for x in p.stdout.splitlines()]
    assert [(g["kind"], g["entity"]) for g in got] == [
        ("profile", "jack"),
        ("local_dev", "localhost:8501"),
    ]


def test_title() -> None:
    p = run(
        "entity", "--app", "Code.exe", "--title",
        "● main.py - MHacks [WSL: Ubuntu] - Visual Studio Code",
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    assert list(got) == ["input", "app", "title", "kind", "entity", "context"]
    assert (got["kind"], got["entity"], got["context"]) == ("file", "main.py", "MHacks")


def test_title_without_entity_and_browser_suffix() -> None:
    p = run("entity", "--app", "firefox.exe", "--title", "Home | Transluciddata — Mozilla Firefox")
    got = json.loads(p.stdout)
    assert got["title"] == "Home | Transluciddata"
    assert got["kind"] is None and got["entity"] is None and got["context"] is None


@pytest.mark.parametrize(
    "args",
    [
        ("entity",),
        ("entity", "--app", "Code.exe"),
        ("entity", "--title", "x"),
        ("entity", "https://x.com", "--app", "a", "--title", "t"),
    ],
)
def test_usage_errors(args: tuple[str, ...]) -> None:
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith("actframes: error: ") and p.stderr.count("\n") == 1
    assert "Traceback" not in p.stderr


def test_listed_in_help_once_registered() -> None:
    p = run("--help")
    assert p.returncode == 0
    assert "entity" in p.stdout
