"""count_tokens counts line by line (with each line's count kept); the total must be the
count of the whole text encoded at once, whatever the text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.emit import token_count
from actframes.emit.token_count import LONG_RUN_CHARS, _count_whole, _segments, count_tokens

# Characters around which o200k's pre-tokenizer behaves differently: line breaks of
# every kind, whitespace, "/" (punctuation may carry newlines and slashes on), letters
# of both cases, digits, combining marks, CJK, and the separators of the context block.
_CHARS = "\n\n\n\r\t  /.,:;-·—'\"()[]aAbZé1234567890\u0301中文\u0085\u2028\u3000\x1c\u00a0…"
_LINE_STARTS = ["", " ", "  ", "\t", "/", "//", "-", "09:14", "x", "É", "\u3000", "'s"]

line = st.builds(
    lambda head, body: head + body,
    st.sampled_from(_LINE_STARTS),
    st.text(alphabet=_CHARS, max_size=40),
)
text = st.one_of(
    st.text(alphabet=_CHARS, max_size=200),
    st.lists(line, max_size=12).map("\n".join),
)


@settings(max_examples=400, deadline=None)
@given(text)
def test_counted_by_lines_is_counted_whole(t: str) -> None:
    token_count._SEGMENT_TOKENS.clear()
    assert "".join(_segments(t)) == t
    assert count_tokens(t) == _count_whole(t)
    assert count_tokens(t) == _count_whole(t)  # the kept counts give it again


def test_long_runs_still_bounded_by_bytes() -> None:
    run = "字" * (LONG_RUN_CHARS + 10)
    t = f"head line\n{run}\n/tail {run}\nlast"
    assert count_tokens(t) == _count_whole(t)
    assert count_tokens(run) == len(run.encode("utf-8"))


def test_cuts_where_a_line_begins_with_text() -> None:
    assert _segments("a\nb\n c\n/d\ne") == ["a\n", "b\n c\n/d\n", "e"]
