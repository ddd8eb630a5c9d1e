"""The team manifest: CSV and TOML, every problem named by line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from actframes.errors import UsageError
from actframes.team.manifest import days_between, load_manifest

HEADER = "person,store,tz,start,end\n"


def write(tmp_path: Path, text: str, name: str = "m.csv") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_csv_rows_become_people_with_paths_beside_the_manifest(tmp_path: Path) -> None:
    rows = "p1,a.db,Europe/Berlin,2026-03-02,2026-03-04\np2,/x/b.json,UTC,,\n"
    m = write(tmp_path, HEADER + rows)
    got = load_manifest(m)
    assert [p.person for p in got] == ["p1", "p2"]
    assert got[0].store == tmp_path / "a.db" and got[0].store.is_absolute()
    assert got[1].store == Path("/x/b.json")
    assert (got[0].start, got[0].end) == ("2026-03-02", "2026-03-04")
    assert (got[1].start, got[1].end) == (None, None)


def test_toml_is_accepted(tmp_path: Path) -> None:
    m = write(
        tmp_path,
        '[[person]]\nid = "p1"\nstore = "a.db"\ntz = "Asia/Tokyo"\nstart = 2026-03-02\n',
        "m.toml",
    )
    (p,) = load_manifest(m)
    assert (p.person, p.tz, p.start, p.end) == ("p1", "Asia/Tokyo", "2026-03-02", None)


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ("ann@example.com,a.db,UTC,,\n", ["line 2", "field person"]),
        ("p1,a.db,Mars/Olympus,,\n", ["line 2", "field tz", "Mars/Olympus"]),
        ("p1,a.db,UTC,2026-02-30,\n", ["line 2", "field start"]),
        ("p1,a.db,UTC,2026-03-05,2026-03-01\n", ["line 2", "after"]),
        ("p1,a.db,UTC,,\np1,b.db,UTC,,\n", ["line 3", "twice"]),
        ("p1,,UTC,,\n", ["line 2", "field store"]),
        ("p1,a.db,UTC\n", ["line 2", "3 fields"]),
    ],
)
def test_bad_rows_name_line_and_field(tmp_path: Path, body: str, names: list[str]) -> None:
    m = write(tmp_path, HEADER + body)
    with pytest.raises(UsageError) as e:
        load_manifest(m)
    msg = str(e.value)
    assert "\n" not in msg and str(m) in msg
    for n in names:
        assert n in msg


def test_header_and_emptiness(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="header"):
        load_manifest(write(tmp_path, "who,store\np1,a.db\n"))
    with pytest.raises(UsageError, match="nobody"):
        load_manifest(write(tmp_path, HEADER))


def test_days_between_includes_both_ends_across_a_month() -> None:
    assert days_between("2026-02-27", "2026-03-02") == [
        "2026-02-27",
        "2026-02-28",
        "2026-03-01",
        "2026-03-02",
    ]
