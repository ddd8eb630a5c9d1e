"""The ledger: every credited second once; frames' and interruptions' seconds add up to it."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.ledger import largest_remainder_s, round_half_up_s
from actframes.compile.site import site_of
from actframes.model import Snapshot

from .caps import at, cap, compile_, snap

APPS = ["Code", "Slack", "LockApp.exe"]
URLS = [None, None, "https://github.com/a/b", "https://mail.google.com/x"]


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
    total = sum(
        f["active_s"] + sum(i["active_s"] for i in f["interruptions"]) for f in doc["frames"]
    )
    assert total == doc["coverage"]["active_s"] == sum(e["active_s"] for e in doc["ledger"])


def test_ledger_is_sorted_by_time_then_app_then_site() -> None:
    rows = [
        snap(1, 0, "b"),
        snap(2, 30, "a"),
        snap(3, 60, "c"),
        snap(4, 120, "a", "https://z.org"),
        snap(5, 150, "a", "https://y.org"),
        snap(6, 180, "a"),
    ]
    doc = compile_(cap(rows))
    assert [(e["app"], e.get("site")) for e in doc["ledger"]] == [
        ("c", None),
        ("a", None),
        ("a", "y.org"),
        ("a", "z.org"),
        ("b", None),
    ]


def test_filter_hides_frames_but_never_changes_the_ledger() -> None:
    rows = [snap(1, 0, "Code"), snap(2, 200, "Slack"), snap(3, 230, "Code"), snap(4, 400, "x")]
    full = compile_(cap(rows))
    hidden = compile_(cap(rows), min_active_s=60)
    assert hidden["ledger"] == full["ledger"]
    assert hidden["coverage"] == full["coverage"]
    assert [f["app"] for f in hidden["frames"]] == ["Code", "Code"]
    assert hidden["omitted"] == {"frames": 2, "active_s": 30, "by": {"min_active_s": 60}}
    assert full["omitted"] == {"frames": 0, "active_s": 0}


def test_rounding_is_once_over_the_ledger_so_the_total_is_exact() -> None:
    # Three apps of 1.5 s each: 4.5 s in all, 5 s rounded. Rounding each app half up
    # would say 6 s; the ledger says 5 s: each app its floor, and the two seconds left
    # go to the equal remainders in name order.
    rows = [snap(1, 0, "c"), snap(2, 1.5, "b"), snap(3, 3, "a"), snap(4, 4.5, "z")]
    doc = compile_(cap(rows))
    by_app = {e["app"]: e["active_s"] for e in doc["ledger"]}
    assert by_app == {"a": 2, "b": 2, "c": 1, "z": 0}
    assert doc["coverage"]["active_s"] == 5


@st.composite
def one_stream(draw: st.DrawFn) -> list[Snapshot]:
    n = draw(st.integers(min_value=1, max_value=50))
    out, t = [], 0
    for rid in range(1, n + 1):
        out.append(
            Snapshot(
                rid,
                at(0) + t,
                draw(st.sampled_from(APPS)),
                f"t{draw(st.integers(0, 2))}",
                draw(st.sampled_from(URLS)),
                "",
            )
        )
        # Odd milliseconds, flickers, capped dwell and session gaps.
        t += draw(st.one_of(st.integers(1, 2_999), st.integers(3_000, 400_000)))
    return out


@given(one_stream())
@settings(max_examples=150, deadline=None)
def test_every_ledger_entry_is_within_a_second_of_its_exact_sum(rows: list[Snapshot]) -> None:
    # The exact time of each key, by §2's dwell rule, computed here independently.
    exact: dict[tuple[str, str | None], int] = {}
    for r, nxt in pairwise(rows):
        gap = nxt.ts_ms - r.ts_ms
        earned = min(gap, 90_000) if gap <= 300_000 else 0
        key = (r.app, site_of(r.url))
        exact[key] = exact.get(key, 0) + earned
    doc = compile_(cap(rows))
    shown = {(e["app"], e.get("site")): e["active_s"] for e in doc["ledger"]}
    assert set(shown) == set(exact) | {(rows[-1].app, site_of(rows[-1].url))}
    for key, secs in shown.items():
        assert abs(secs * 1000 - exact.get(key, 0)) < 1000, key
    total = sum(exact.values())
    assert doc["coverage"]["active_s"] == sum(shown.values()) == round_half_up_s(total)
    pieces: dict[tuple[str, str | None], int] = {}
    for f in doc["frames"]:
        for p in [f, *f["interruptions"]]:
            k = (p["app"], p.get("site"))
            pieces[k] = pieces.get(k, 0) + p["active_s"]
    assert {k: v for k, v in pieces.items() if v} == {k: v for k, v in shown.items() if v}


@given(st.lists(st.integers(min_value=0, max_value=10_000_000), max_size=40))
def test_largest_remainder_keeps_floor_or_ceiling_and_the_rounded_total(ms: list[int]) -> None:
    secs = largest_remainder_s(ms)
    assert sum(secs) == round_half_up_s(sum(ms))
    assert all(m // 1000 <= s <= -(-m // 1000) for m, s in zip(ms, secs, strict=True))
