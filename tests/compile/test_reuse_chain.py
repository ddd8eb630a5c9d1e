"""A growing capture compiled again and again with one ``Reuse`` (as a resident cache
compiles today) gives the bytes of a fresh compile at every step: kept rows, sessions,
frames and references are used again only where they are the same."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.pipeline import Options, compile_capture
from actframes.compile.reuse import Reuse
from actframes.emit.json_out import to_json
from actframes.model import Snapshot

from .caps import DAY, cap, ev, seq

APPS = st.sampled_from(["Code", "Slack", "Chrome"])
# Seconds to the next row: heartbeats, flickers within and beyond the fold, session gaps.
GAPS = st.sampled_from([1, 5, 15, 25, 400])
# What an edit of the first row read again does: nothing, another app, a title the
# document may not hold as it is (a control character; too long: cut, and noted), another
# device (a second stream), or an earlier time (rows out of order); or an event of the
# kept rows' time takes another id (the same rows, as many events, other ids).
EDITS = ["", "app", "bell", "long", "device", "early", "event"]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(APPS, GAPS), min_size=2, max_size=60),
    st.lists(st.tuples(st.integers(1, 8), st.integers(0, 3), st.sampled_from(EDITS)), max_size=10),
)
def test_a_growing_capture_compiled_with_reuse_is_a_fresh_compile(
    steps: list[tuple[str, int]], growth: list[tuple[int, int, str]]
) -> None:
    day = seq(*steps)
    events = [ev(i, (s.ts_ms - day[0].ts_ms) / 1000 + 0.5) for i, s in enumerate(day, 1)]
    reuse = Reuse()
    shown: list[Snapshot] = day[:1]
    for more, again, edit in [(1, 0, ""), *growth]:
        n = min(len(day), len(shown) + more)
        # The rows before a cut are the very objects of the step before; those from it
        # on are read again (new objects), the first of them edited now and then.
        cut = max(len(shown) - again, 0)
        fresh = [Snapshot(*s) for s in day[cut:n]]
        if edit == "event":
            events[0] = events[0]._replace(event_id=events[0].event_id + 10_000)
        elif edit and fresh:
            s = fresh[0]
            fresh[0] = {
                "app": s._replace(app=s.app + " 2"),
                "bell": s._replace(title=s.title + "\x07"),
                "long": s._replace(title=s.title + "x" * 5000),
                "device": s._replace(device="other"),
                "early": s._replace(ts_ms=s.ts_ms - 30_000),
            }[edit]
        shown = shown[:cut] + fresh
        c = cap(shown, [e for e in events if e.ts_ms <= shown[-1].ts_ms])
        kept = compile_capture(c, DAY, Options(), reuse=reuse)
        assert to_json(kept) == to_json(compile_capture(c, DAY, Options()))
