"""``team report`` and ``team query``: the k-threshold decides what is named, totals stay
whole, and the same rows in any order give the same report."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.cli import main
from actframes.team import datasets as ds
from actframes.team.report import build, summarize

from .conftest import Team

PNG = b"\x89PNG\r\n\x1a\n"


def people_per_routine(out: Path) -> dict[str, set[str]]:
    who: dict[str, set[str]] = defaultdict(set)
    for r in ds.read(out, "routines").to_pylist():
        who[r["id"]].add(r["person"])
    return who


def test_k_threshold_hides_a_routine_only_two_people_share(
    team: Team, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    who = people_per_routine(team.out)
    two = {rid for rid, ps in who.items() if len(ps) == 2}
    many = {rid for rid, ps in who.items() if len(ps) >= 3}
    assert two and many  # the simulated team has both kinds

    main(["team", "report", str(team.out), "--min-people", "3", "--out", str(tmp_path)])
    md = capsys.readouterr().out
    rep = json.loads((tmp_path / "report.json").read_text())
    shown = {r["id"] for r in rep["routines"]["shown"]}
    assert shown == many
    assert rep["routines"]["below_k"] == len(who) - len(many)
    text = md + (tmp_path / "report.json").read_text()
    for rid in two:
        assert rid not in text
    for rid in many:
        assert rid in md
    assert (tmp_path / "report.md").read_text() == md
    for chart in ("time_by_site.png", "h_by_person.png"):
        assert (tmp_path / chart).read_bytes().startswith(PNG)

    # With k = 2 the pair's routines are named, with how many people and days.
    rep2 = build(team.out, 2)
    for r in rep2["routines"]["shown"]:
        if r["id"] in two:
            assert r["people"] == 2 and r["person_days"] >= 2
    assert {r["id"] for r in rep2["routines"]["shown"]} == two | many


def test_sites_of_fewer_than_k_people_are_not_named(team: Team) -> None:
    ledger = ds.read(team.out, "ledger").to_pylist()
    who: dict[str, set[str]] = defaultdict(set)
    for r in ledger:
        if r["site"] and r["active_s"] > 0:
            who[r["site"]].add(r["person"])
    rep = build(team.out, 3)
    named = {s["site"] for s in rep["time"]["sites"]["shown"]}
    named |= {s["site"] for p in rep["time"]["per_person"] for s in p["sites"]}
    assert named == {s for s, ps in who.items() if len(ps) >= 3}
    assert {s for s, ps in who.items() if len(ps) < 3}  # some are hidden
    t = rep["time"]["sites"]
    assert sum(s["active_s"] for s in t["shown"]) + t["below_k"]["active_s"] == sum(
        r["active_s"] for r in ledger if r["site"]
    )


def test_h_pooled_is_the_sum_over_people(team: Team) -> None:
    hs = ds.read(team.out, "h").to_pylist()
    rep = build(team.out, 3)["h"]
    assert rep["pooled"]["steps"] == sum(h["steps"] for h in hs)
    per = {p["person"]: p for p in rep["per_person"]}
    for h in hs:
        if h["steps"]:
            assert per[h["person"]]["delegable_pct"] == round(
                100 * h["delegable_steps"] / h["steps"], 1
            )
    assert rep["spread"]["delegable_pct"] is not None
    # The screenpipe-style stores with elements have routines; the others do not.
    assert all(per[f"wf{i}"]["routines"] > 0 for i in range(4))


def test_query_runs_sql_over_the_datasets(team: Team, capsys: pytest.CaptureFixture[str]) -> None:
    sql = "SELECT person, sum(active_s) AS s FROM ledger GROUP BY person ORDER BY person"
    main(["team", "query", str(team.out), sql, "--format", "json"])
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    want: dict[str, int] = defaultdict(int)
    for r in ds.read(team.out, "ledger").to_pylist():
        want[r["person"]] += r["active_s"]
    assert got == [{"person": p, "s": s} for p, s in sorted(want.items())]

    with pytest.raises(SystemExit) as e:
        main(["team", "query", str(team.out), "SELECT nope FROM ledger"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("actframes: error: query:") and err.count("\n") == 1


def test_compile_cli_reports_a_broken_store_and_writes_the_rest(
    team: Team, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = tmp_path / "two.csv"
    stores = team.manifest.parent
    m.write_text(
        "person,store,tz,start,end\n"
        f"sp,{stores / 'sp.db'},America/Los_Angeles,2026-03-02,2026-03-02\n"
        f"broken,{stores / 'broken.db'},UTC,2026-03-02,2026-03-02\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        main(["team", "compile", str(m), "--out", str(out), "--engine", "local"])
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert "actframes: team: broken 2026-03-02: " in err and "Traceback" not in err
    assert "2 people, 2 person-days: 1 compiled, 0 unchanged, 1 failed" in err
    assert ds.read(out, "ledger").to_pylist() == [
        r for r in ds.read(team.out, "ledger").to_pylist() if r["person"] == "sp"
    ]


# ----------------------------------------------------------------------- the pure part

PEOPLE = st.sampled_from(["p1", "p2", "p3", "p4"])
ledger_rows = st.lists(
    st.fixed_dictionaries(
        {
            "person": PEOPLE,
            "day": st.sampled_from(["2026-03-02", "2026-03-03"]),
            "app": st.sampled_from(["Code", "Slack", "Rare"]),
            "site": st.sampled_from(["", "a.test", "b.test", "c.test"]),
            "active_s": st.integers(0, 5000),
            "keys": st.integers(0, 50),
            "clicks": st.integers(0, 50),
        }
    ),
    max_size=30,
)
routine_rows = st.lists(
    st.fixed_dictionaries(
        {
            "person": PEOPLE,
            "id": st.sampled_from(["Ra", "Rb", "Rc"]),
            "title": st.just("t"),
            "length": st.integers(3, 9),
            "occurrences": st.integers(3, 9),
            "days": st.integers(2, 5),
            "sites": st.just(["a.test"]),
            "r_operational": st.floats(1, 90),
            "r_ceiling": st.floats(1, 900),
        }
    ),
    max_size=12,
    unique_by=lambda r: (r["person"], r["id"]),
)


@settings(max_examples=60, deadline=None)
@given(ledger_rows, routine_rows, st.integers(1, 5), st.randoms(use_true_random=False))
def test_report_is_order_free_and_never_names_below_k(
    ledger: list[dict[str, object]],
    routines: list[dict[str, object]],
    k: int,
    rnd: object,
) -> None:
    rep = summarize(ledger, routines, [], k)
    shuffled_l, shuffled_r = list(ledger), list(routines)
    rnd.shuffle(shuffled_l)  # type: ignore[attr-defined]
    rnd.shuffle(shuffled_r)  # type: ignore[attr-defined]
    assert summarize(shuffled_l, shuffled_r, [], k) == rep
    t = rep["time"]
    for key in ("apps", "sites"):
        assert all(x["people"] >= k for x in t[key]["shown"])
        total = sum(int(r["active_s"]) for r in ledger if r[key[:-1]])  # type: ignore[call-overload]
        assert sum(x["active_s"] for x in t[key]["shown"]) + t[key]["below_k"]["active_s"] == total
    assert all(r["people"] >= k for r in rep["routines"]["shown"])
