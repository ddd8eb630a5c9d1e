"""The capture digest is SHA-256 over the canonical text SPEC'd in ``provenance.py``: a
reference built here straight from that description, field by field, must agree."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile import provenance
from actframes.compile.provenance import CANONICAL_VERSION, DigestMemo, capture_digest
from actframes.model import Capture, InputEvent, Snapshot, Span

_ints = st.integers(min_value=-(2**40), max_value=2**45)
_text = st.text(max_size=6)
_snaps = st.lists(
    st.builds(
        Snapshot,
        _ints,
        _ints,
        _text,
        _text,
        st.none() | _text,
        st.sampled_from(["", "b"]),
        st.none() | st.integers(min_value=0, max_value=10**9),
    ),
    max_size=12,
)
_events = st.lists(
    st.builds(
        InputEvent,
        _ints,
        _ints,
        st.sampled_from(["key", "click"]),
        st.none() | st.sampled_from(["A", "B"]),
        st.none() | st.just("b"),
        st.integers(min_value=1, max_value=3),
    ),
    max_size=12,
)


def _reference(cap: Capture, chunk_rows: int = 4096) -> str:
    parts = [CANONICAL_VERSION]
    snaps = sorted(cap.snapshots, key=lambda s: (s.device, s.ts_ms, s.row_id))
    parts.append(str(len(snaps)))
    for i in range(0, len(snaps), chunk_rows):
        chunk = snaps[i : i + chunk_rows]
        for field in ("row_id", "ts_ms", "dur_ms", "device", "app", "title", "url"):
            values = [getattr(s, field) for s in chunk]
            parts.append("\x1f".join("" if v is None else str(v) for v in values))
    columns = sorted(cap.all_columns(), key=lambda c: repr((c.kind, c.app, c.device)))
    parts.append(str(len(columns)))
    for c in columns:
        parts.append(repr((c.kind, c.app, c.device)))
        parts.append(",".join(str(v) for v in c.ids))
        parts.append(",".join(str(v) for v in c.ts))
        parts.append("" if c.counts is None else ",".join(str(v) for v in c.counts))
    spans = sorted((s.start_ms, s.end_ms) for s in cap.afk if s.end_ms > s.start_ms)
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    parts.append(",".join(f"{a}-{b}" for a, b in merged))
    parts.append("")  # no rejected rows
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass") + b"\x1e")
    return h.hexdigest()


@given(_snaps, _events, st.lists(st.tuples(_ints, _ints), max_size=3))
def test_digest_is_sha256_of_the_canonical_text(
    snaps: list[Snapshot], events: list[InputEvent], afk: list[tuple[int, int]]
) -> None:
    cap = Capture("screenpipe", snaps, events, [Span(a, b) for a, b in afk])
    assert capture_digest(cap) == _reference(cap)


@given(st.lists(st.sampled_from(["", "a", "é — x", "\ud800", "\udc00", "日本"]), max_size=20))
def test_digest_of_repeated_and_lone_surrogate_titles(titles: list[str]) -> None:
    # Titles are encoded once per distinct value: the bytes must be those of the joined
    # text, lone surrogates and neighbours included.
    snaps = [Snapshot(i, 1_000 + i, "A", t) for i, t in enumerate(titles)]
    cap = Capture("screenpipe", snaps, [], [])
    assert capture_digest(cap) == _reference(cap)


# A growing window digested again and again with one memo (``DigestMemo``): each step
# changes the previous capture's rows as a tail read, an edit or a re-read would.
_growth = st.lists(
    st.tuples(
        st.sampled_from(["append", "append_early", "retail", "edit", "copy", "device"]),
        st.integers(0, 40),
        st.integers(0, 10**6),
    ),
    min_size=1,
    max_size=12,
)


def _grow(snaps: list[Snapshot], op: str, n: int, seed: int) -> list[Snapshot]:
    last = max((s.ts_ms for s in snaps), default=0)
    fresh = [
        Snapshot(seed + i, last + 1 + i * (seed % 3), "A", ["x", "é", "y"][(seed + i) % 3])
        for i in range(n)
    ]
    if op == "append":  # the kept rows (the very objects) and rows after them
        return snaps + fresh
    if op == "append_early":  # rows stamped before the newest: out of order
        return snaps + [s._replace(ts_ms=s.ts_ms - 50 - seed % 7) for s in fresh]
    if op == "retail":  # the last rows read again: equal, changed or gone
        k = max(len(snaps) - n, 0)
        return snaps[:k] + [s._replace(title=s.title + str(seed % 2)) for s in snaps[k:]]
    if op == "edit" and snaps:  # a row before the tail changed
        i = seed % len(snaps)
        return [*snaps[:i], snaps[i]._replace(app="B"), *snaps[i + 1 :]]
    if op == "copy":  # the whole window read again: equal rows, other objects
        return [Snapshot(*s) for s in snaps]
    if op == "device":  # another device's rows, interleaved by time
        return snaps + [s._replace(device="b", row_id=s.row_id + 10**7) for s in fresh]
    return snaps


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), _growth)
def test_a_digest_memo_gives_the_bytes_of_a_fresh_digest(
    start: int, ops: list[tuple[str, int, int]]
) -> None:
    # Tiny blocks and chunks, so a few dozen rows cross many of each (the memo's rule
    # depends only on their sizes; the reference digests with the same chunk size).
    memo = DigestMemo()
    snaps = _grow([], "append", start, 1)
    with _chunks(chunk=8, block=2):
        for op, n, seed in [("append", 0, 0), *ops]:
            snaps = _grow(snaps, op, n, seed)
            cap = Capture("screenpipe", snaps, [], [])
            assert capture_digest(cap, memo=memo) == _reference(cap, chunk_rows=8)
            assert capture_digest(cap, memo=memo) == capture_digest(cap)


def test_a_digest_memo_over_more_than_a_chunk_of_rows() -> None:
    # The real sizes: a day past 4096 rows grows by a few rows, then has a row edited.
    memo = DigestMemo()
    snaps = _grow([], "append", 4_000, 5)
    for op, n in [("append", 90), ("append", 30), ("retail", 5), ("edit", 0), ("append", 1)]:
        snaps = _grow(snaps, op, n, len(snaps))
        cap = Capture("screenpipe", snaps, [], [])
        assert capture_digest(cap, memo=memo) == _reference(cap)


@contextmanager
def _chunks(chunk: int, block: int) -> Iterator[None]:
    saved = provenance._CHUNK, provenance._BLOCK
    provenance._CHUNK, provenance._BLOCK = chunk, block
    try:
        yield
    finally:
        provenance._CHUNK, provenance._BLOCK = saved


@settings(max_examples=60, deadline=None)
@given(_snaps, _events)
def test_a_digest_of_rows_given_as_columns_is_the_digest_of_the_rows(
    snaps: list[Snapshot], events: list[InputEvent]
) -> None:
    # The compiler hands the digest the rows' fields as columns (``zip(*rows)``), made
    # once for several passes; chunks of 5 rows, so a dozen rows cross a few of them.
    cap = Capture("screenpipe", snaps, events, [])
    ordered = sorted(snaps, key=lambda s: (s.device, s.ts_ms, s.row_id))
    with _chunks(chunk=5, block=5):
        given_columns = capture_digest(cap, ordered, fields=list(zip(*ordered, strict=True)))
        assert given_columns == _reference(cap, chunk_rows=5)
