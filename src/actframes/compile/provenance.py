"""Provenance: a digest of exactly what a compile read, and what it was compiled with.

The digest is SHA-256 over a canonical text form of the capture the reader returned for
the window (rows, events, away spans and rejected rows — with the reader's margins, since
rows just outside the window decide the dwell of rows inside it). Canonical form, in order,
each part ending in U+001E:

    "actframes-capture-v1"
    snapshots, sorted by (device, time, row id), in slices of 4096 rows: per slice one
        part per field — row id, time ms, duration ms, device, app, title, url — the
        values joined by U+001F, None as ""
    event columns, sorted by repr((kind, app, device)): that repr, then the ids, the
        times and the counts of the column joined by ","
    away spans, merged and sorted: "start-end" joined by ","
    rejected rows, sorted: "table U+001F row U+001F reason U+001F time" joined by U+001D
    the reader's notes, only when it made any: distinct, sorted, joined by U+001D

Whole fields are joined at once (C speed): a day can hold tens of thousands of rows.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from itertools import pairwise
from operator import itemgetter
from typing import Any

from ..doc_types import CompiledConstants
from ..model import Capture, Snapshot
from .constants import GAP_LIST_MIN_MS, MAX_FRAME_TITLES, Rules
from .place import merge_spans

CANONICAL_VERSION = "actframes-capture-v1"
_DEVICE_TIME_ID = itemgetter(5, 1, 0)  # (device, ts_ms, row_id) of a Snapshot
_CHUNK = 4096
_BLOCK = 256  # rows of a memo's block (``DigestMemo``); divides _CHUNK
_RS, _US, _GS = "\x1e", "\x1f", "\x1d"
_INT_US_BYTES = b"%d" + _US.encode()
_US_BYTES = _US.encode()


# Below this many snapshots the interpreter's built-in SHA-256 is used: hashlib's, from
# OpenSSL, hashes faster but costs ~3 ms to import, more than it saves on a small day.
_OPENSSL_FROM = 5_000
# ...once. A process that digests a second capture is a long-lived one (a library user, a
# server): it pays the import once and then hashes ~20x faster (2.6k rows: ~3 ms -> 0.2).
_digested = [0]


def capture_digest(
    cap: Capture,
    ordered: list[Snapshot] | None = None,
    memo: DigestMemo | None = None,
    fields: Fields | None = None,
) -> str:
    """``ordered``: the snapshots already sorted by (device, time, row id), if at hand.
    ``memo``: the encoded rows of the previous digest of the same growing window, used
    again for the rows this capture shares with it (and updated). ``fields``: the seven
    fields of ``ordered`` as columns (``zip(*ordered)``), when the caller made them."""
    from ..fast.fasthash import openssl_sha256, sha256

    # A long-lived process (the MCP server) has OpenSSL loaded already: no cost to use it.
    small = (
        len(cap.snapshots) < _OPENSSL_FROM and "_hashlib" not in sys.modules and not _digested[0]
    )
    _digested[0] = 1
    h = sha256() if small else openssl_sha256()()
    rs = _RS.encode()

    def part(text: str) -> None:
        h.update(text.encode("utf-8", "surrogatepass"))
        h.update(rs)

    part(CANONICAL_VERSION)
    if memo is not None:
        snaps, blocks = memo.rows(cap.snapshots, ordered)
    else:
        snaps = sorted(cap.snapshots, key=_DEVICE_TIME_ID) if ordered is None else ordered
        blocks = None
    part(str(len(snaps)))
    # In slices of rows, so a 100k-row day never holds whole columns as strings.
    for i in range(0, len(snaps), _CHUNK):
        if blocks is not None:
            chunk = blocks[i // _BLOCK : (i + _CHUNK) // _BLOCK]
        elif fields is not None and ordered is not None:
            chunk = [_encoded_fields(*[f[i : i + _CHUNK] for f in fields])]
        else:
            chunk = [_encoded(snaps[i : i + _CHUNK])]
        for field in zip(*chunk, strict=True):  # a field's bytes, block after block
            h.update(_US_BYTES.join(field))
            h.update(rs)
    columns = sorted(cap.all_columns(), key=lambda c: repr((c.kind, c.app, c.device)))
    part(str(len(columns)))
    for col in columns:
        part(repr((col.kind, col.app, col.device)))
        ids_text, ts_text = col.text or (",".join(map(str, col.ids)), ",".join(map(str, col.ts)))
        part(ids_text)
        part(ts_text)
        part(",".join(map(str, col.counts)) if col.counts is not None else "")
    part(",".join(f"{s.start_ms}-{s.end_ms}" for s in merge_spans(cap.afk)))
    rejected = sorted(
        (r.table, r.row, r.reason, "" if r.ts_ms is None else str(r.ts_ms)) for r in cap.rejected
    )
    part(_GS.join(_US.join(r) for r in rejected))
    if cap.notes:  # what the reader disclosed shows in the document (blind spots)
        part(_GS.join(sorted(set(cap.notes))))
    return h.hexdigest()


def _encoded(rows: Sequence[Snapshot]) -> tuple[bytes, ...]:
    """The seven fields of some rows (row id, time, duration, device, app, title, url),
    each its values joined by U+001F, None as "", in UTF-8."""
    return _encoded_fields(*zip(*rows, strict=True))


# A Snapshot's fields as columns (``zip(*snapshots)``): row ids, times, apps, titles,
# URLs, devices, durations.
Fields = Sequence[tuple[Any, ...]]


def _encoded_fields(
    ids: tuple[int, ...],
    ts: tuple[int, ...],
    apps: tuple[str, ...],
    titles: tuple[str, ...],
    urls: tuple[str | None, ...],
    devices: tuple[str, ...],
    durs: tuple[int | None, ...],
) -> tuple[bytes, ...]:
    """``_encoded`` of rows given as their columns."""
    if durs.count(None) == len(durs):  # point sources: no durations at all
        dur_text = _US * (len(durs) - 1)
    else:
        dur_text = _US.join(["" if d is None else str(d) for d in durs])
    # Each distinct title encoded once: a day repeats a few dozen titles, and encoding
    # non-ASCII text costs per character, tens of thousands of times over.
    encoded = {v: v.encode("utf-8", "surrogatepass") for v in set(titles)}
    # A day of one source has URLs on every row or none: None is looked for in C first.
    url_text = _US.join(urls if None not in urls else [u or "" for u in urls])  # type: ignore[arg-type]
    return (
        _joined_ints(ids),
        _joined_ints(ts),
        dur_text.encode(),
        _US.join(devices).encode("utf-8", "surrogatepass"),
        _US.join(apps).encode("utf-8", "surrogatepass"),
        _US_BYTES.join(map(encoded.__getitem__, titles)),
        url_text.encode("utf-8", "surrogatepass"),
    )


class DigestMemo:
    """The previous digest's rows of a growing window, encoded in blocks of ``_BLOCK``
    rows (the joined bytes of a field are its blocks' bytes joined by U+001F, so a block
    of rows equal to the previous digest's is used again). When a resident cache reads
    only the tail of today, the rows before the cut are the previous capture's; only the
    last block or two are encoded again, and the rows are sorted only when their tail is
    not in order already."""

    __slots__ = ("_blocks", "_in_order", "_ordered", "_read")

    def __init__(self) -> None:
        self._read: list[Snapshot] = []  # the previous capture's rows, as read
        self._in_order = False  # ... and they were in the digest's order
        self._ordered: list[Snapshot] = []  # the previous digest's rows, in its order
        self._blocks: list[tuple[bytes, ...]] = []

    def rows(
        self, read: list[Snapshot], ordered: list[Snapshot] | None
    ) -> tuple[list[Snapshot], list[tuple[bytes, ...]]]:
        """The rows in the digest's order and their encoded blocks (and kept for the
        next digest)."""
        if ordered is None:
            m = shared_prefix(self._read, read)
            if self._in_order and len(read) - m <= _BLOCK and _in_order(read, max(m - 1, 0)):
                ordered = read
            else:
                ordered = sorted(read, key=_DEVICE_TIME_ID)
        kept = shared_prefix(self._ordered, ordered) // _BLOCK
        blocks = self._blocks[:kept] + [
            _encoded(ordered[i : i + _BLOCK]) for i in range(kept * _BLOCK, len(ordered), _BLOCK)
        ]
        self._read, self._in_order = list(read), ordered == read
        self._ordered, self._blocks = list(ordered), blocks
        return ordered, blocks


def shared_prefix(before: list[Snapshot], now: list[Snapshot]) -> int:
    """The length of the longest common prefix of two row lists, found where the later
    list only grew or changed at its end (its earlier rows the very same objects);
    less (down to 0) otherwise, which only means fewer rows are used again."""
    m = min(len(before), len(now))
    stop = max(m - _BLOCK, 0)  # look back one block at most: the tail read is short
    while m > stop and before[m - 1] is not now[m - 1]:
        m -= 1
    return m if m > 0 and before[:m] == now[:m] else 0


def _in_order(rows: list[Snapshot], start: int) -> bool:
    """Whether ``rows[start:]`` are in the digest's order."""
    keys = list(map(_DEVICE_TIME_ID, rows[start:]))
    return all(a <= b for a, b in pairwise(keys))


def _joined_ints(values: tuple[int, ...]) -> bytes:
    """``_US.join(map(str, values)).encode()`` (the same text for ints), in half the time:
    one printf-style format of bytes in C, with no string object per value."""
    return (_INT_US_BYTES * len(values))[:-1] % values


def constants(rules: Rules) -> CompiledConstants:
    return {
        "dwell_cap_ms": rules.dwell_cap_ms,
        "session_gap_ms": rules.session_gap_ms,
        "flicker_ms": rules.flicker_ms,
        "gap_list_min_ms": GAP_LIST_MIN_MS,
        "max_frame_titles": MAX_FRAME_TITLES,
    }
