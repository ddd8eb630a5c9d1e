"""``team compile`` in process: the datasets agree with the single-store compiler person
by person, a broken store is reported while the rest completes, private fields stay
out, and a re-run compiles only the days whose rows changed."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pyarrow.parquet as pq

from actframes.api import compile_path
from actframes.capture.store import open_store, write_snapshots
from actframes.emit.json_out import to_json
from actframes.model import Snapshot
from actframes.simulate import simulate_days, write_native
from actframes.team import datasets as ds
from actframes.team.engine import LocalEngine
from actframes.team.manifest import load_manifest
from actframes.team.run import Progress, compile_team
from actframes.team.tasks import strip_query
from actframes.window import day_window

from .conftest import FIRST_DAY, Team


def compiled_days(team: Team) -> dict[str, list[str]]:
    state = ds.load_state(team.out)
    return {p: sorted(v["days"]) for p, v in state["people"].items()}


def test_every_person_day_is_compiled_except_the_broken_store(team: Team) -> None:
    s = team.summary
    days = compiled_days(team)
    assert days["broken"] == []
    assert [(f.person, f.day) for f in s.failures] == [("broken", "2026-03-02")]
    assert "broken.db" in s.failures[0].reason and "\n" not in s.failures[0].reason
    # Stores without a range contribute the local days they have rows on.
    assert all(len(days[f"wf{i}"]) == 3 for i in range(4))
    assert (len(days["nat"]), len(days["aw"]), len(days["sp"])) == (2, 2, 1)
    assert s.compiled == sum(len(v) for v in days.values())
    assert not any(p.name == "person=broken" for p in (team.out / "ledger").iterdir())


def test_parquet_ledger_equals_the_single_process_compile(team: Team) -> None:
    table = ds.read(team.out, "ledger").to_pylist()
    checked = 0
    for p in team.people:
        for day in compiled_days(team)[p.person]:
            doc = compile_path(p.store, day, p.tz)
            want = [
                {
                    "person": p.person,
                    "day": day,
                    "app": e["app"],
                    "site": e.get("site") or "",
                    "active_s": e["active_s"],
                    "keys": e["keys"],
                    "clicks": e["clicks"],
                }
                for e in doc["ledger"]
            ]
            got = [r for r in table if r["person"] == p.person and r["day"] == day]
            assert got == want, (p.person, day)
            # The per-person-day document is the day command's, byte for byte.
            assert ds.doc_path(team.out, p.person, day).read_text() == to_json(doc)
            checked += 1
    assert checked == team.summary.compiled


def test_partitions_hold_their_person_and_day(team: Team) -> None:
    for f in ds.files(team.out, "frames"):
        t = pq.read_table(f)
        person, day = f.parent.parent.name[7:], f.parent.name[4:]
        assert set(t.column("person").to_pylist()) <= {person}
        assert set(t.column("day").to_pylist()) <= {day}
    frames = ds.read(team.out, "frames")
    assert frames.num_rows > 0 and set(frames.column("titles").to_pylist()) == {""}


def test_strip_query_keeps_scheme_host_and_path() -> None:
    assert strip_query("https://a.test/x/y?q=secret#f") == "https://a.test/x/y"
    assert strip_query("https://a.test") == "https://a.test"
    assert strip_query(None) is None


def test_rerun_skips_unchanged_days_and_recompiles_a_changed_one(tmp_path: Path) -> None:
    stores = tmp_path / "stores"
    stores.mkdir()
    write_native(stores / "n.db", simulate_days(FIRST_DAY, 3, "Europe/Paris", 9, 400))
    shutil.copy(stores / "n.db", stores / "m.db")
    manifest = stores / "t.csv"
    manifest.write_text(
        "person,store,tz,start,end\n"
        f"p1,n.db,Europe/Paris,{FIRST_DAY},2026-03-04\n"
        f"p2,m.db,Europe/Paris,{FIRST_DAY},2026-03-04\n",
        encoding="utf-8",
    )
    people = load_manifest(manifest)
    out = tmp_path / "out"
    first = compile_team(people, out, LocalEngine())
    assert (first.compiled, first.unchanged, first.failures) == (6, 0, [])
    again = compile_team(people, out, LocalEngine())
    assert (again.compiled, again.unchanged) == (0, 6)

    # One row with a title and a URL with a query, late on the second day of p2.
    at = day_window("2026-03-03", "Europe/Paris").end_ms - 3_600_000
    conn = open_store(stores / "m.db")
    try:
        url = "https://search.example.test/find?q=secret+plan#results"
        write_snapshots(conn, [Snapshot(999_999, at, "Firefox", "Secret plan — Firefox", url)])
    finally:
        conn.close()
    third = compile_team(people, out, LocalEngine())
    assert (third.compiled, third.unchanged) == (1, 5)
    led = ds.read(out, "ledger").to_pylist()
    changed = [r for r in led if r["person"] == "p2" and r["day"] == "2026-03-03"]
    assert "search.example.test" in {r["site"] for r in changed}
    assert changed != [
        {**r, "person": "p2"} for r in led if r["person"] == "p1" and r["day"] == "2026-03-03"
    ]
    # No title, query string or fragment anywhere in the datasets.
    for name in ds.SCHEMAS:
        for row in ds.read(out, name).to_pylist():
            text = repr(row)
            assert "secret" not in text.casefold() and "?q=" not in text, (name, row)

    # Asked for, titles are kept in the frames dataset (and only there).
    with_titles = compile_team(people, out, LocalEngine(), with_titles=True)
    assert with_titles.compiled == 6  # a different output: every day again
    titles = ds.read(out, "frames").column("titles").to_pylist()
    assert any("Secret plan" in t for t in titles)

    # The manifest's order does not matter: the same datasets and state, in any order.
    other = tmp_path / "reversed"
    compile_team(list(reversed(people)), other, LocalEngine(), with_titles=True)
    for name in ds.SCHEMAS:
        assert ds.read(other, name).equals(ds.read(out, name)), name
    assert ds.load_state(other) == ds.load_state(out)


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_done_failed_rate_and_time_left_on_a_terminal() -> None:
    tty = Tty()
    bar = Progress(3, tty)
    bar.step(False)
    bar.last = 0.0  # as if the last redraw were long ago
    bar.step(True)
    bar.step(False)
    lines = tty.getvalue().split("\r")
    assert lines[-1].startswith("3/3 person-days, 1 failed, ") and lines[-1].endswith("\n")
    assert "/s, ~" in lines[-1] and " s left" in lines[-1]
    quiet = io.StringIO()  # not a terminal: nothing
    Progress(1, quiet).step(False)
    assert quiet.getvalue() == ""
