# ruff: noqa: E501  (tables of files: one case a line reads better than wrapped rows)
"""A projects file (SPEC.md §3b, "A projects file"): good files read into rules; every
kind of bad file refused whole, in one line naming the file, the line and the field —
and, on the command line, with exit status 2 and nothing compiled."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.classify.project_file import parse_projects
from actframes.classify.ruleset import ProjectRule
from actframes.errors import UsageError

from ..builders import cli_env, native_db, run_cli
from ..compile.caps import snap

SHOWN = "projects.toml"


def error_of(text: str) -> str:
    with pytest.raises(UsageError) as caught:
        parse_projects(text, SHOWN)
    message = str(caught.value)
    assert "\n" not in message and UsageError.exit_code == 2
    return message


# ---------------------------------------------------------------- good files


def test_aliases_several_matches_and_comments() -> None:
    text = """\
# my projects
[[project]]
name = "billing-api"
aliases = ["BILL", "Billing Service"]   # tracker key, old name

[[project.match]]                       # the design doc
site = 'docs\\.google\\.com'
title = "billing design"

[[project.match]]
app = "Figma"

[[project]]
name = " dashboard "
[[project.match]]
url = 'grafana\\.acme\\.com/d/'
"""
    assert parse_projects(text, SHOWN) == (
        ProjectRule(
            "billing-api",
            ("BILL", "Billing Service"),
            ((("site", "docs\\.google\\.com"), ("title", "billing design")), (("app", "Figma"),)),
            2,
        ),
        ProjectRule("dashboard", (), ((("url", "grafana\\.acme\\.com/d/"),),), 13),
    )


def test_inline_tables() -> None:
    text = """\
[[project]]
name = "dashboard"
match = [{site = "grafana", title = "dash"}, {app = "Tableau"}]

[[project]]
name = "billing-api"
match = {site = "jira"}
"""
    assert parse_projects(text, SHOWN) == (
        ProjectRule("dashboard", (), ((("site", "grafana"), ("title", "dash")), (("app", "Tableau"),)), 1),
        ProjectRule("billing-api", (), ((("site", "jira"),),), 5),
    )  # fmt: skip


def test_a_whole_file_of_inline_tables() -> None:
    text = 'project = [{name = "a", aliases = ["A1"], match = [{site = "x"}]}, {name = "b"}]\n'
    rules = parse_projects(text, SHOWN)
    assert [(r.name, r.aliases, r.matches) for r in rules] == [
        ("a", ("A1",), ((("site", "x"),),)),
        ("b", (), ()),
    ]


@pytest.mark.parametrize("text", ["", "# nothing yet\n", "\n\n"])
def test_an_empty_file_has_no_rules(text: str) -> None:
    assert parse_projects(text, SHOWN) == ()


def test_a_name_alone_is_a_rule() -> None:
    """A project named only (no match) still names a folder, and takes aliases."""
    (rule,) = parse_projects('[[project]]\nname = "infra"\naliases = ["OPS"]\n', SHOWN)
    assert rule == ProjectRule("infra", ("OPS",), (), 1)


# ---------------------------------------------------------------- bad files

# (file text, the line the error names, a word the message must hold: the field)
BAD: list[tuple[str, str, int, str]] = [
    # TOML errors: the line tomllib names
    ("unterminated string", '[[project]]\nname = "a\n', 2, "TOML"),
    ("a key set twice", '[[project]]\nname = "a"\n\nname = "b"\n', 4, "TOML"),
    ("a table not closed", '[[project]]\nname = "a"\n[[project.match\n', 3, "TOML"),
    # what is not [[project]]
    ("unknown top-level field", '# c\nversion = 2\n[[project]]\nname = "a"\n', 2, "'version'"),
    ("unknown table", '[[project]]\nname = "a"\n\n[other]\nx = 1\n', 4, "'other'"),
    ("misspelt table", '[[project]]\nname = "a"\n\n[[projects]]\nname = "b"\n', 4, "'projects'"),
    ("empty unknown table last", '[[project]]\nname = "a"\n[settings]\n', 3, "'settings'"),
    ("a single [project]", '# c\n\n[project]\nname = "a"\n', 3, "'project'"),
    ("project not a list", "project = 3\n", 1, "'project'"),
    ("project not a table", "project = [3]\n", 1, "project 1"),
    # a project's own fields
    ("unknown field", '[[project]]\nname = "a"\n\n[[project]]\nname = "b"\ncolour = "red"\n', 6, "'colour'"),
    ("no name", '# c\n[[project]]\naliases = ["x"]\n', 2, "'name'"),
    ("name of no letter", '[[project]]\nname = "--"\n', 2, "'name'"),
    ("name a placeholder", '[[project]]\n\nname = "Untitled"\n', 3, "'name'"),
    ("name not text", '[[project]]\nname = 3\n', 2, "'name'"),
    ("aliases not a list", '[[project]]\nname = "a"\naliases = "BILL"\n', 3, "'aliases'"),
    ("alias not text", '[[project]]\nname = "a"\naliases = ["BILL", 3]\n', 3, "'aliases'"),
    ("alias empty", '[[project]]\nname = "a"\naliases = ["BILL", ""]\n', 3, "'aliases'"),
    ("match not tables", '[[project]]\nname = "a"\nmatch = "x"\n', 3, "'match'"),
    # matches
    ("bad regex", '[[project]]\nname = "a"\n[[project.match]]\nsite = "x"\n[[project.match]]\napp = "Code"\ntitle = "(unclosed"\n', 7, "'title'"),
    ("bad regex, later project", '[[project]]\nname = "a"\n[[project.match]]\ntitle = "ok"\n\n[[project]]\nname = "b"\n[[project.match]]\ntitle = "[a-"\n', 9, "'title'"),
    ("bad regex inline", '[[project]]\nname = "a"\nmatch = [\n  {site = "x"},\n  {url = "*x"},\n]\n', 5, "'url'"),
    ("empty regex", '[[project]]\nname = "a"\n[[project.match]]\ntitle = ""\n', 4, "'title'"),
    ("regex not text", '[[project]]\nname = "a"\n[[project.match]]\nsite = 5\n', 4, "'site'"),
    ("regex a list", '[[project]]\nname = "a"\n[[project.match]]\napp = ["Code"]\n', 4, "'app'"),
    ("unknown match field", '[[project]]\nname = "a"\n[[project.match]]\nsite = "x"\nwindow = "y"\n', 5, "'window'"),
    ("unknown inline match field", 'project = [{name = "a", match = [{site = "x", titel = "y"}]}]\n', 1, "'titel'"),
    ("empty match", '[[project]]\nname = "a"\n[[project.match]]\n\n[[project]]\nname = "b"\n', 3, "app, title, site, url"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "field"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_file_names_file_line_and_field(text: str, line: int, field: str) -> None:
    message = error_of(text)
    assert message.startswith(f"{SHOWN}:{line}: "), message
    assert field in message, message


def test_nothing_is_half_read() -> None:
    """A bad rule late in the file refuses the good ones before it too."""
    good = '[[project]]\nname = "a"\n[[project.match]]\nsite = "x"\n'
    assert len(parse_projects(good, SHOWN)) == 1
    error_of(good + '\n[[project]]\nname = "b"\n[[project.match]]\nsite = "("\n')


# ---------------------------------------------------------------- the command line

BAD_FILE = '[[project]]\nname = "billing-api"\n[[project.match]]\ntitle = "(oops"\n'


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows = [
        snap(1, 0, "Code", title="main.py - billing-api - Visual Studio Code"),
        snap(2, 60, "Slack", title="general (Channel) - Acme - Slack"),
        snap(3, 90, "Code", title="main.py - billing-api - Visual Studio Code"),
    ]
    return native_db(tmp_path_factory.mktemp("store") / "s.db", rows)


def _env(home: Path) -> dict[str, str]:
    return cli_env(XDG_CONFIG_HOME=str(home / "config"), ACTFRAMES_CACHE="off", TZ="UTC")


def _day(store: Path, home: Path, *args: str, command: str = "day") -> tuple[int, str, str]:
    p = run_cli(command, "2026-03-10", "--db", str(store), "--tz", "UTC", *args, env=_env(home))
    return p.returncode, p.stdout, p.stderr


def _one_line_error(code: int, out: str, err: str) -> str:
    assert (code, out) == (2, ""), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("command", ["day", "apps"])
def test_cli_bad_projects_file(store: Path, tmp_path: Path, command: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_FILE, encoding="utf-8")
    err = _one_line_error(*_day(store, tmp_path, "--projects", str(bad), command=command))
    assert err.startswith(f"actframes: error: {bad}:4: "), err
    assert "'title'" in err and "regular expression" in err


def test_cli_bad_toml(store: Path, tmp_path: Path) -> None:
    bad = tmp_path / "p.toml"
    bad.write_text('[[project]]\nname = "a"\nname = "b"\n', encoding="utf-8")
    err = _one_line_error(*_day(store, tmp_path, "--projects", str(bad)))
    assert err.startswith(f"actframes: error: {bad}:3: "), err


def test_cli_missing_explicit_file(store: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "projects.toml"
    err = _one_line_error(*_day(store, tmp_path, "--projects", str(missing)))
    assert str(missing) in err


def test_cli_default_file(store: Path, tmp_path: Path) -> None:
    """The default file may be absent; when present it is read, and when bad refused."""
    code, out, err = _day(store, tmp_path)
    assert code == 0, err
    assert '"projects":{"rules":"built-in",' in out
    default = tmp_path / "config" / "actframes" / "projects.toml"
    default.parent.mkdir(parents=True)
    default.write_text('[[project]]\nname = "chat"\n[[project.match]]\napp = "^slack$"\n')
    code, out, err = _day(store, tmp_path)
    assert code == 0, err
    assert '"rules":"built-in + projects.toml"' in out and '"name":"chat"' in out
    default.write_text(BAD_FILE, encoding="utf-8")
    err = _one_line_error(*_day(store, tmp_path))
    assert err.startswith(f"actframes: error: {default}:4: "), err


def test_cli_good_file_is_used(store: Path, tmp_path: Path) -> None:
    good = tmp_path / "mine.toml"
    good.write_text('[[project]]\nname = "Billing API"\naliases = ["billing-api"]\n')
    code, out, err = _day(store, tmp_path, "--projects", str(good))
    assert code == 0, err
    assert '"rules":"built-in + mine.toml"' in out
    assert '"entries":[{"name":"Billing API","active_s":60,' in out
