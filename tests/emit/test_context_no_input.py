"""The context block of a source that records no input: the same block as for one that
records it, but for the note, the legend and the coverage line, which say its input is not
recorded; and the parser reads those counts back as unknown (None)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.compile.pipeline import Options, compile_capture
from actframes.emit.context import NOTE, to_context
from actframes.emit.context_parse import parse_context
from actframes.model import Capture, Snapshot
from actframes.window import day_window

WINDOW = day_window("2026-03-10", "Europe/Berlin")
APPS = ("Code", "Slack", "Terminal", "Firefox")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 900), st.sampled_from(APPS)), min_size=1, max_size=40))
def test_only_the_input_lines_differ(steps: list[tuple[int, str]]) -> None:
    t, rows = WINDOW.start_ms + 9 * 3_600_000, []
    for i, (gap_s, app) in enumerate(steps):
        t += gap_s * 1000
        rows.append(Snapshot(i + 1, t, app, f"{app} window"))

    def block(has_input: bool) -> str:
        cap = Capture("test", list(rows), [], [], [], has_input=has_input)
        return to_context(compile_capture(cap, WINDOW, Options()), 100_000)

    measured, unmeasured = block(True).splitlines(), block(False).splitlines()
    assert measured[1] == NOTE and unmeasured[1] != NOTE
    assert "input not recorded by this source" in unmeasured[1]
    assert "unattributed" in measured[2] and "unattributed" not in unmeasured[2]
    assert measured[3].endswith(" · 0 input events · unattributed 0")
    assert unmeasured[3] == measured[3].removesuffix(" · 0 input events · unattributed 0") + (
        " · input not recorded"
    )
    assert measured[:1] + measured[4:] == unmeasured[:1] + unmeasured[4:]
    got = parse_context("\n".join(unmeasured))["coverage"]
    assert (got["input_events"], got["unattributed"]) == (None, None)
    same = parse_context("\n".join(measured))["coverage"]
    assert (same["input_events"], same["unattributed"]) == (0, 0)
    assert {k: got[k] for k in ("first", "last", "active_s", "rows")} == {
        k: same[k] for k in ("first", "last", "active_s", "rows")
    }
