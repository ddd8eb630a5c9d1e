"""fast/recache.py: compiled patterns kept on disk across processes. A pattern built from
the file must behave exactly as ``re.compile``'s, and any bad file must only make a run
slower, never different."""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actframes.entities import matcher, pages, surfaces, title_rules, url_parse
from actframes.fast import recache
from actframes.fast.lazyre import LazyRe

# Patterns with what the engine must carry over: named groups and their order, back
# references, look-around, flags given and flags set inline, Unicode classes, repeats.
PATTERNS: list[tuple[str, int]] = [
    (r"(?P<owner>[\w.-]+)/(?P<repo>[\w.-]+)/pull/(?P<n>\d+)", 0),
    (r"^(\w+)\s+\1$", re.MULTILINE),
    (r"(?<=@)[a-z]+(?=\.)", re.IGNORECASE),
    (r"(?x) \d{4} - \d{2}  # a year and a month", 0),
    (r"(?i)ß|straße", 0),
    (r"[^\W\d_]{2,}(?:\s+[^\W\d_]+)*", 0),
    (r"(a|b)*?c{1,3}(?!d)", re.DOTALL),
    (r"(?:(?P<x>x)|(?P<y>y))+", 0),
]
SAMPLES = [
    "psf/requests/pull/6712",
    "hello hello\nfoo bar\nbar bar",
    "mail jane@Example.org now",
    "2026-12 and 1999-01",
    "STRASSE straße Straße",
    "Grüße aus Köln 42 ok",
    "ababccc cd abc\nc",
    "xyxxy",
]


def same(a: re.Pattern[str], b: re.Pattern[str], texts: list[str]) -> None:
    """Two patterns agree: what they are, and what they find in ``texts``."""
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (
        b.pattern,
        b.flags,
        b.groups,
        b.groupindex,
    )
    for t in texts:
        ma, mb = a.search(t), b.search(t)
        assert (ma and (ma.span(), ma.groups(), ma.groupdict())) == (
            mb and (mb.span(), mb.groups(), mb.groupdict())
        )
        assert [m.span() for m in a.finditer(t)] == [m.span() for m in b.finditer(t)]
        assert a.sub("<>", t) == b.sub("<>", t)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """recache as a new process finds it, with its cache folder in ``tmp_path``."""
    if recache._engine() is None:
        pytest.fail("this interpreter lacks the regex internals recache builds on")
    monkeypatch.setenv("ACTFRAMES_CACHE", str(tmp_path))
    monkeypatch.setattr(recache, "_live", {})
    monkeypatch.setattr(recache, "_stored", None)
    monkeypatch.setattr(recache, "_missed", set())
    return tmp_path


def cache_file(root: Path) -> Path:
    (found,) = (root / "rx").glob("*.bin")
    return found


def test_a_pattern_from_the_file_is_the_pattern_re_compiles(fresh: Path) -> None:
    for p, f in PATTERNS:
        same(recache.compile(p, f), re.compile(p, f), SAMPLES)
    recache.save()
    stored = recache._read(str(cache_file(fresh)))
    assert set(stored) == {(p, f) for p, f in PATTERNS}
    for p, f in PATTERNS:
        built = recache._build(p, recache._unpack(stored[(p, f)]))
        assert built is not re.compile(p, f)  # really built from the file
        same(built, re.compile(p, f), SAMPLES)


def test_a_second_process_builds_from_the_file_and_matches_alike(fresh: Path) -> None:
    """Two real interpreters: the first compiles and saves, the second compiles nothing."""
    script = """
import json, re, sys
from actframes.fast import recache
pats = json.loads(sys.argv[1])
out = []
for p, f in pats:
    rx = recache.compile(p, f)
    out.append([rx.flags, rx.groups, [list(m.span()) for t in json.loads(sys.argv[2])
                                      for m in rx.finditer(t)]])
recache.save()
print(json.dumps({"missed": len(recache._missed), "stored": len(recache._load()), "out": out}))
"""
    env = {**os.environ, "ACTFRAMES_CACHE": str(fresh)}
    args = [sys.executable, "-c", script, json.dumps(PATTERNS), json.dumps(SAMPLES)]
    first = json.loads(subprocess.run(args, env=env, capture_output=True, check=True).stdout)
    mtime = cache_file(fresh).stat().st_mtime_ns
    second = json.loads(subprocess.run(args, env=env, capture_output=True, check=True).stdout)
    assert first["stored"] == 0 and second["stored"] == len(PATTERNS)
    assert second["missed"] == 0  # every pattern came from the file
    assert cache_file(fresh).stat().st_mtime_ns == mtime  # nothing new: no rewrite
    expected = [
        [rx.flags, rx.groups, [list(m.span()) for t in SAMPLES for m in rx.finditer(t)]]
        for rx in (re.compile(p, f) for p, f in PATTERNS)
    ]
    assert first["out"] == second["out"] == expected


def test_a_damaged_entry_is_compiled_afresh_and_rewritten(fresh: Path) -> None:
    p, f = PATTERNS[0]
    recache.compile(p, f)
    recache.save()
    path = cache_file(fresh)
    table = recache._read(str(path))
    digest, body = table[(p, f)]
    table[(p, f)] = (digest, body[:-1] + bytes([body[-1] ^ 1]))  # one bit off
    recache._write(str(path), table)

    recache._live.clear()
    recache._stored = None
    same(recache.compile(p, f), re.compile(p, f), SAMPLES)
    assert (p, f) in recache._missed
    recache.save()
    assert recache._read(str(path))[(p, f)] == recache._pack(recache._entry(p, f))


@pytest.mark.parametrize(
    "content",
    [b"", b"not a cache at all", b"actframes-rx\n\x00\x01garbage", b"actframes-rx\n"],
    ids=["empty", "foreign", "torn", "header-only"],
)
def test_an_unreadable_file_is_ignored_then_replaced(fresh: Path, content: bytes) -> None:
    (fresh / "rx").mkdir()
    path = fresh / "rx" / f"{recache._engine()}.bin"
    path.write_bytes(content)
    for p, f in PATTERNS:
        same(recache.compile(p, f), re.compile(p, f), SAMPLES)
    recache.save()
    assert set(recache._read(str(path))) == {(p, f) for p, f in PATTERNS}


def test_an_entry_whose_body_does_not_match_its_digest_is_refused() -> None:
    digest, body = recache._pack(recache._entry("a+b", 0))
    assert recache._unpack((digest, body))[1] == [int(c) for c in recache._entry("a+b", 0)[1]]
    with pytest.raises(ValueError, match="damaged"):
        recache._unpack((digest, body + b"\x00"))


def test_off_writes_nothing(monkeypatch: pytest.MonkeyPatch, fresh: Path) -> None:
    monkeypatch.setenv("ACTFRAMES_CACHE", "off")
    same(recache.compile(*PATTERNS[0]), re.compile(*PATTERNS[0]), SAMPLES)
    recache.save()
    assert recache._path() is None
    assert not any(fresh.iterdir())


def test_a_full_file_keeps_this_process_patterns_only(
    monkeypatch: pytest.MonkeyPatch, fresh: Path
) -> None:
    for p, f in PATTERNS[:3]:
        recache.compile(p, f)
    recache.save()
    monkeypatch.setattr(recache, "_MAX_ENTRIES", 3)
    recache._live.clear()
    recache._stored = None
    recache.compile(*PATTERNS[3])  # the file now holds 3 + 1 > 3
    recache.save()
    assert set(recache._read(str(cache_file(fresh)))) == {PATTERNS[3]}


def test_the_file_is_named_by_the_interpreter_and_format(fresh: Path) -> None:
    tag = recache._engine()
    assert tag is not None and tag.startswith(f"v{recache.FORMAT}-{sys.implementation.cache_tag}-")
    assert recache._path() == os.path.join(str(fresh), "rx", f"{tag}.bin")


def rule_patterns() -> list[tuple[str, int]]:
    """Every lazily compiled pattern of the rule tables: the ones recache serves."""
    found = {
        (v.pattern, v.flags)
        for mod in (matcher, pages, surfaces, title_rules, url_parse)
        for v in vars(mod).values()
        if isinstance(v, LazyRe)
    }
    return sorted(found)


RULES = rule_patterns()


def test_the_rule_tables_have_patterns_to_serve() -> None:
    assert len(RULES) >= 10


@functools.cache
def built_rules() -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """(built from its stored entry, re.compile's) for every rule pattern."""
    return [
        (recache._build(p, recache._unpack(recache._pack(recache._entry(p, f)))), re.compile(p, f))
        for p, f in RULES
    ]


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.text(max_size=40), min_size=1, max_size=4))
def test_every_rule_pattern_built_from_its_entry_behaves_as_re_compile(texts: list[str]) -> None:
    for built, ref in built_rules():
        same(built, ref, texts)


def test_preload_reads_the_file_once_and_compile_then_builds_from_it(
    fresh: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for p, f in PATTERNS:
        recache.compile(p, f)
    recache.save()
    recache._live.clear()
    recache._stored = None
    reads: list[str] = []
    real_read = recache._read

    def counted(path: str) -> dict[recache.Key, recache.Stored]:
        reads.append(path)
        return real_read(path)

    monkeypatch.setattr(recache, "_read", counted)
    recache.preload()
    assert len(reads) == 1
    for p, f in PATTERNS:
        same(recache.compile(p, f), re.compile(p, f), SAMPLES)
    assert len(reads) == 1 and not recache._missed  # all built from what preload read
