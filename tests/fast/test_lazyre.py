"""fast/lazyre.py: a pattern compiled on first use that answers as the compiled one."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from actframes.fast.lazyre import LazyRe

PATTERN = r"(?P<word>[a-z]+)(\d*)"


def test_nothing_is_compiled_until_first_use() -> None:
    rx = LazyRe(PATTERN, re.IGNORECASE)
    assert rx._rx is None
    assert rx.fullmatch("Abc12") is not None
    assert rx._rx is not None and rx.rx is rx._rx  # compiled once, then kept
    assert (rx.rx.pattern, rx.rx.flags & re.IGNORECASE) == (PATTERN, re.IGNORECASE)


@given(st.text(alphabet="aZ9 _-é", max_size=30))
def test_every_call_answers_as_re_compile(s: str) -> None:
    lazy, ref = LazyRe(PATTERN, re.IGNORECASE), re.compile(PATTERN, re.IGNORECASE)

    def shown(m: re.Match[str] | None) -> object:
        return m and (m.span(), m.groups())

    assert shown(lazy.fullmatch(s)) == shown(ref.fullmatch(s))
    assert shown(lazy.match(s)) == shown(ref.match(s))
    assert shown(lazy.search(s)) == shown(ref.search(s))
    assert lazy.findall(s) == ref.findall(s)
    assert [m.span() for m in lazy.finditer(s)] == [m.span() for m in ref.finditer(s)]
    assert lazy.sub("<\\g<word>>", s) == ref.sub("<\\g<word>>", s)
    assert lazy.sub(lambda m: m.group(0).upper(), s, count=1) == ref.sub(
        lambda m: m.group(0).upper(), s, count=1
    )
