"""The ledger: every credited second once; frames' and interruptions' seconds add up to it."""

from __future__ import annotations

from actframes.compile.ledger import round_half_up_s

from .caps import cap, compile_, snap


def test_round_half_up() -> None:
    assert [round_half_up_s(ms) for ms in (0, 499, 500, 1499, 1500, 2500)] == [0, 0, 1, 1, 2, 3]


def test_seconds_are_apportioned_so_sums_are_exact() -> None:
    # Three Code frames of 0.4 s each: the ledger says 1 s (1.2 s rounded) and the frames
    # share exactly that second — the earliest of the equal remainders gets it.
    rows = []
    rid, t = 1, 0.0
    for _ in range(3):
        rows.append(snap(rid, t, "Code"))
        rows.append(snap(rid + 1, t + 0.4, "Slack"))
        rid, t = rid + 2, t + 60.4
    rows.append(snap(rid, t, "Code"))
    doc = compile_(cap(rows))
    code = next(e for e in doc["ledger"] if e["app"] == "Code")
    assert code["active_s"] == 1
    assert sum(f["active_s"] for f in doc["frames"] if f["app"] == "Code") == 1
    total = sum(f["active_s"] + sum(i["active_s"] for i in f["interruptions"])
                for f in doc["frames"])
    assert total == doc["coverage"]["active_s"] == sum(e["active_s"] for e in doc["ledger"])


def test_ledger_is_sorted_by_time_then_app_then_site() -> None:
    rows = [snap(1, 0, "b"), snap(2, 30, "a"), snap(3, 60, "c"),
            snap(4, 120, "a", "https://z.org"), snap(5, 150, "a", "https://y.org"),
            snap(6, 180, "a")]
    doc = compile_(cap(rows))
    assert [(e["app"], e.get("site")) for e in doc["ledger"]] == [
        ("c", None), ("a", None), ("a", "y.org"), ("a", "z.org"), ("b", None)]


def test_filter_hides_frames_but_never_changes_the_ledger() -> None:
    rows = [snap(1, 0, "Code"), snap(2, 200, "Slack"), snap(3, 230, "Code"), snap(4, 400, "x")]
    full = compile_(cap(rows))
    hidden = compile_(cap(rows), min_active_s=60)
    assert hidden["ledger"] == full["ledger"]
    assert hidden["coverage"] == full["coverage"]
    assert [f["app"] for f in hidden["frames"]] == ["Code", "Code"]
    assert hidden["omitted"] == {"frames": 2, "active_s": 30, "by": {"min_active_s": 60}}
    assert full["omitted"] == {"frames": 0, "active_s": 0}
