"""Cleaning of names and titles as they come out of a store.

Text on the screen is untrusted: a window title may hold anything an application or a web
page put there. Cleaning keeps it readable and harmless in every output format:

- a lone surrogate (valid in a JSON export, not encodable as UTF-8) becomes U+FFFD;
- a whole terminal escape sequence (``ESC [31m``) is removed, not just its ESC;
- other C0/C1 control characters become a space;
- zero-width marks and bidirectional controls are removed: LRM/RLM, the embeddings and
  overrides U+202A-U+202E and the isolates U+2066-U+2069 (which can make text read in
  another order than it is stored) and the Arabic letter mark U+061C. Removed from the
  document itself, so JSON, YAML, Markdown, the context block, HTML and MCP all show the
  characters in their stored order;
- ZWJ / ZWNJ (U+200D / U+200C) are kept: they join emoji sequences and are part of the
  spelling of words in some scripts (Persian, Indic scripts);
- every field is bounded: longer values are cut and end in ``…`` (``clip``).
"""

from __future__ import annotations

from .fast import recache

# Zero-width, direction and byte-order marks some apps put in names (WhatsApp: U+200E),
# and the bidirectional embeddings, overrides and isolates.
_INVISIBLE = recache.compile("[\u200b\u200e\u200f\u2060\ufeff\u061c\u202a-\u202e\u2066-\u2069]")
# Terminal escape sequences, whole: CSI (ESC [ or C1 CSI), OSC / DCS / SOS / PM / APC
# strings up to their terminator, and the two-character ESC sequences.
_ANSI = recache.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
)
# C0/C1 control characters other than ordinary whitespace become a space.
_CONTROL = recache.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SURROGATE = recache.compile("[\ud800-\udfff]")
# Anything that needs more than trimming (one search on the common, clean path).
_SPECIAL = recache.compile(
    "[\x00-\x1f\x7f-\x9f\u200b\u200e\u200f\u2060\ufeff\u061c\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff]"
)
_SPACES = recache.compile(r"\s+")

# Longest title kept; longer ones are cut (and marked) so one row cannot flood output.
MAX_TITLE_CHARS = 300
# Longest app name, device name or other short field kept.
MAX_NAME_CHARS = 300
# Longest URL kept: real ones reach 4,000+ characters (OAuth redirects); the pages read
# from a URL use its first 4,096 (entities.url_parse).
MAX_URL_CHARS = 8192
# The mark a cut value ends in.
CUT_MARK = "…"
# What a character that is not valid text becomes.
REPLACEMENT = "\ufffd"


def clean_name(value: object) -> str:
    """App names and titles: invisible characters stripped, controls folded, trimmed."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    s = str(value)
    if _SPECIAL.search(s):
        s = _clean_special(s)
    s = _SPACES.sub(" ", s).strip() if ("  " in s or "\n" in s or "\t" in s) else s.strip()
    return s


def _clean_special(s: str) -> str:
    if "\x1b" in s or "\x9b" in s:
        s = _ANSI.sub("", s)
    s = _SURROGATE.sub(REPLACEMENT, s)
    s = _INVISIBLE.sub("", s)
    return _CONTROL.sub(" ", s)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``CUT_MARK`` when cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + CUT_MARK


def clip_title(title: str) -> str:
    return clip(title, MAX_TITLE_CHARS)


def was_cut(text: str, limit: int) -> bool:
    """Whether ``text`` is what ``clip`` leaves of a longer value: exactly at the limit and
    ending in the cut mark."""
    return len(text) == limit and text.endswith(CUT_MARK)


def safe_field(value: str, limit: int) -> str:
    """A text field as the document may hold it: cleaned and bounded. Idempotent."""
    return clip(clean_name(value), limit)
