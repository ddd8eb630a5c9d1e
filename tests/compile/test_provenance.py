"""The capture digest is SHA-256 over the canonical text SPEC'd in ``provenance.py``: a
reference built here straight from that description, field by field, must agree."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from actframes.compile.provenance import CANONICAL_VERSION, capture_digest
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


def _reference(cap: Capture) -> str:
    parts = [CANONICAL_VERSION]
    snaps = sorted(cap.snapshots, key=lambda s: (s.device, s.ts_ms, s.row_id))
    parts.append(str(len(snaps)))
    for i in range(0, len(snaps), 4096):
        chunk = snaps[i : i + 4096]
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
