"""The index follows the store: built incrementally after appends, rebuilt after edits
in the past and deletions, it holds what an index built from scratch holds (hypothesis);
identical consecutive texts are one entry; form values are never indexed."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.model import ACCESSIBILITY, ELEMENT, OCR, ScreenText
from actframes.screen_index.build import UNIT_MS, bring_up_to_date, stamp_of
from actframes.screen_index.index_file import IndexFile

T0 = 1_773_100_800_000  # 2026-03-10T00:00:00Z
WORDS = ["alpha", "beta", "gamma", "delta", "KeyError", "invoice"]


class Rows:
    """The text rows of a store, as a store's reader gives them (``after``: the largest
    row id already indexed per kind), with its stamp of counts."""

    def __init__(self) -> None:
        self.rows: list[ScreenText] = []

    def read(self, a: int, b: int, after: dict[str, int] | None) -> list[ScreenText]:
        got = [r for r in self.rows if a <= r.ts_ms < b]
        if after is not None:
            got = [r for r in got if r.row_id > after.get(r.kind, 0)]
        return sorted(got, key=lambda r: (r.ts_ms, r.kind, r.row_id))

    def stamp(self, a: int, b: int) -> dict[str, list[int]]:
        """As a store's query of counts gives it: rows, largest id, total length."""
        return {k: v[:3] for k, v in stamp_of(self.read(a, b, None)).items()}


def _contents(index: IndexFile) -> list[tuple[object, ...]]:
    """What the index holds, whatever order it was written in."""
    return sorted(
        index.conn.execute(
            "SELECT t.start_ms, t.kind, t.app, t.first_ms, t.last_ms, t.capture_ids,"
            " t.row_ids, f.text FROM texts t JOIN fts f ON f.rowid = t.id"
        ).fetchall()
    )


def _fresh(rows: Rows, tmp: Path, units: list[int]) -> list[tuple[object, ...]]:
    path = Path(tempfile.mkdtemp(dir=tmp)) / "fresh.sqlite"
    index = IndexFile(path, tmp / "store")
    try:
        bring_up_to_date(index, rows.read, rows.stamp, lambda s: s, units)
        return _contents(index)
    finally:
        index.close()


row = st.tuples(
    st.sampled_from([OCR, ACCESSIBILITY, ELEMENT]),
    st.integers(0, 2 * UNIT_MS - 1),
    st.sampled_from(WORDS),
    st.sampled_from(["Code", "Slack"]),
)
ops = st.lists(
    st.tuples(st.sampled_from(["append", "past", "edit", "delete"]), row, st.integers(0, 50)),
    min_size=1,
    max_size=8,
)


@settings(max_examples=40, deadline=None)
@given(st.lists(row, max_size=15), ops, st.booleans())
def test_incremental_equals_from_scratch(
    first: list[tuple[str, int, str, str]], steps: list[tuple[str, tuple[str, int, str, str], int]],
    stamped: bool,
) -> None:  # fmt: skip
    rows = Rows()
    next_id = 1
    for kind, at, text, app in sorted(first, key=lambda r: r[1]):
        rows.rows.append(ScreenText(next_id, T0 + at, kind, text, next_id, app))
        next_id += 1
    units = [T0, T0 + UNIT_MS]
    stamp = rows.stamp if stamped else (lambda a, b: None)
    with tempfile.TemporaryDirectory() as tmp:
        index = IndexFile(Path(tmp) / "i.sqlite", Path(tmp) / "store")
        try:
            bring_up_to_date(index, rows.read, stamp, lambda s: s, units)
            for what, (kind, at, text, app), pick in steps:
                if what in ("append", "past"):
                    last = max((r.ts_ms for r in rows.rows), default=T0)
                    ts = T0 + at if what == "past" else min(last + 1_000, T0 + 2 * UNIT_MS - 1)
                    rows.rows.append(ScreenText(next_id, ts, kind, text, next_id, app))
                    next_id += 1
                elif rows.rows:
                    i = pick % len(rows.rows)
                    if what == "edit":  # (a store's stamp of counts sees a new length)
                        rows.rows[i] = rows.rows[i]._replace(text=rows.rows[i].text + " " + text)
                    else:
                        del rows.rows[i]
                bring_up_to_date(index, rows.read, stamp, lambda s: s, units)
                assert _contents(index) == _fresh(rows, Path(tmp), units)
        finally:
            index.close()


def test_an_append_is_added_and_the_same_text_continues_its_run(tmp_path: Path) -> None:
    rows = Rows()
    rows.rows = [ScreenText(i, T0 + i * 1_000, OCR, "same words", i, "Code") for i in (1, 2, 3)]
    index = IndexFile(tmp_path / "i.sqlite", tmp_path / "store")
    done = bring_up_to_date(index, rows.read, rows.stamp, lambda s: s, [T0])
    assert done == {"kept": 0, "grown": 0, "built": 1}
    assert _contents(index) == [
        (T0, OCR, "Code", T0 + 1_000, T0 + 3_000, "1-3", "1-3", "same words")
    ]
    rows.rows.append(ScreenText(4, T0 + 4_000, OCR, "same words", 4, "Code"))
    rows.rows.append(ScreenText(5, T0 + 5_000, OCR, "other words", 5, "Code"))
    assert bring_up_to_date(index, rows.read, rows.stamp, lambda s: s, [T0])["grown"] == 1
    assert [c[5] for c in _contents(index)] == ["1-4", "5"]
    assert bring_up_to_date(index, rows.read, rows.stamp, lambda s: s, [T0])["kept"] == 1
    index.close()


def test_form_values_are_never_indexed_and_texts_are_redacted(tmp_path: Path) -> None:
    rows = Rows()
    rows.rows = [
        ScreenText(1, T0, ELEMENT, "hunter2 typed here", 1, "Firefox", role="AXTextField"),
        ScreenText(2, T0 + 1, ELEMENT, "Sign in to continue", 1, "Firefox", role="AXStaticText"),
        ScreenText(3, T0 + 2, OCR, "key SECRETSECRET end", 1, "Firefox"),
    ]
    index = IndexFile(tmp_path / "i.sqlite", tmp_path / "store")
    bring_up_to_date(
        index, rows.read, rows.stamp, lambda s: s.replace("SECRETSECRET", "[redacted]"), [T0]
    )
    texts = [c[7] for c in _contents(index)]
    assert texts == ["Sign in to continue", "key [redacted] end"]
    index.close()
    assert b"hunter2" not in (tmp_path / "i.sqlite").read_bytes()
    assert b"SECRETSECRET" not in (tmp_path / "i.sqlite").read_bytes()


def test_a_query_never_raises_on_plain_words() -> None:
    from actframes.screen_index.query import Query, QueryError

    q = Query("KeyError: 'customer_id' -- AND \"x\ud800 NEAR( *")
    assert q.words == ["KeyError", "customer", "id", "AND", "x", "NEAR"]
    assert q.all == '"KeyError" "customer" "id" "AND" "x" "NEAR"'
    assert Query("a\x00b").words == ["a", "b"]
    assert len(Query("w " * 5_000).words) == 32
    for empty in ("", "   ", "-- ** ::", "\ud800"):
        try:
            Query(empty)
        except QueryError as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{empty!r} has no words")


def test_an_edit_that_keeps_the_length_is_seen_from_the_rows(tmp_path: Path) -> None:
    rows = Rows()
    rows.rows = [ScreenText(1, T0, OCR, "alpha", 1, "Code")]
    index = IndexFile(tmp_path / "i.sqlite", tmp_path / "store")
    unstamped = lambda a, b: None  # noqa: E731
    bring_up_to_date(index, rows.read, unstamped, lambda s: s, [T0])
    rows.rows[0] = rows.rows[0]._replace(text="gamma")
    assert bring_up_to_date(index, rows.read, unstamped, lambda s: s, [T0])["built"] == 1
    assert [c[7] for c in _contents(index)] == ["gamma"]
    index.close()
