"""Cleaning of names and titles as they come out of a store."""

from __future__ import annotations

from . import recache

# Zero-width, direction and byte-order marks some apps put in names (WhatsApp: U+200E).
# ZWJ/ZWNJ (U+200C/D) are kept: they are part of emoji and of some scripts.
_INVISIBLE = recache.compile("[\u200b\u200e\u200f\u2060\ufeff]")
# C0/C1 control characters other than ordinary whitespace become a space.
_CONTROL = recache.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_SPACES = recache.compile(r"\s+")

# Longest title kept; longer ones are cut (and marked) so one row cannot flood output.
MAX_TITLE_CHARS = 300


def clean_name(value: object) -> str:
    """App names and titles: invisible characters stripped, controls folded, trimmed."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    s = str(value)
    if _INVISIBLE.search(s):
        s = _INVISIBLE.sub("", s)
    if _CONTROL.search(s):
        s = _CONTROL.sub(" ", s)
    s = _SPACES.sub(" ", s).strip() if ("  " in s or "\n" in s or "\t" in s) else s.strip()
    return s


def clip_title(title: str) -> str:
    if len(title) <= MAX_TITLE_CHARS:
        return title
    return title[: MAX_TITLE_CHARS - 1] + "…"
