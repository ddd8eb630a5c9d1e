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
from operator import itemgetter

from ..doc_types import CompiledConstants
from ..model import Capture, Snapshot
from .constants import GAP_LIST_MIN_MS, MAX_FRAME_TITLES, Rules
from .place import merge_spans

CANONICAL_VERSION = "actframes-capture-v1"
_DEVICE_TIME_ID = itemgetter(5, 1, 0)  # (device, ts_ms, row_id) of a Snapshot
_CHUNK = 4096
_RS, _US, _GS = "\x1e", "\x1f", "\x1d"
_INT_US = "%d" + _US
_US_BYTES = _US.encode()


# Below this many snapshots the interpreter's built-in SHA-256 is used: hashlib's, from
# OpenSSL, hashes faster but costs ~3 ms to import, more than it saves on a small day.
_OPENSSL_FROM = 5_000
# ...once. A process that digests a second capture is a long-lived one (a library user, a
# server): it pays the import once and then hashes ~20x faster (2.6k rows: ~3 ms -> 0.2).
_digested = [0]


def capture_digest(cap: Capture, ordered: list[Snapshot] | None = None) -> str:
    """``ordered``: the snapshots already sorted by (device, time, row id), if at hand."""
    from ..fast.fasthash import openssl_sha256, sha256

    # A long-lived process (the MCP server) has OpenSSL loaded already: no cost to use it.
    small = (
        len(cap.snapshots) < _OPENSSL_FROM and "_hashlib" not in sys.modules and not _digested[0]
    )
    _digested[0] = 1
    h = sha256() if small else openssl_sha256()()

    def part(text: str) -> None:
        h.update(text.encode("utf-8", "surrogatepass"))
        h.update(_RS.encode())

    def part_of(values: tuple[str, ...]) -> None:
        """``part(_US.join(values))`` — the same bytes, as UTF-8 joins like the text — with
        each distinct value encoded once: a day repeats a few dozen titles, and encoding
        non-ASCII text costs per character, tens of thousands of times over."""
        encoded = {v: v.encode("utf-8", "surrogatepass") for v in set(values)}
        h.update(_US_BYTES.join(map(encoded.__getitem__, values)))
        h.update(_RS.encode())

    part(CANONICAL_VERSION)
    snaps = sorted(cap.snapshots, key=_DEVICE_TIME_ID) if ordered is None else ordered
    part(str(len(snaps)))
    # In slices of rows, so a 100k-row day never holds whole columns as strings.
    for i in range(0, len(snaps), _CHUNK):
        ids, ts, apps, titles, urls, devices, durs = zip(*snaps[i : i + _CHUNK], strict=True)
        part(_joined_ints(ids))
        part(_joined_ints(ts))
        if durs.count(None) == len(durs):  # point sources: no durations at all
            part(_US * (len(durs) - 1))
        else:
            part(_US.join(["" if d is None else str(d) for d in durs]))
        part(_US.join(devices))
        part(_US.join(apps))
        part_of(titles)
        part(_US.join([u or "" for u in urls]))
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


def _joined_ints(values: tuple[int, ...]) -> str:
    """``_US.join(map(str, values))`` (the same text for ints), in half the time: one
    printf-style format in C, with no string object per value."""
    return (_INT_US * len(values))[:-1] % values


def constants(rules: Rules) -> CompiledConstants:
    return {
        "dwell_cap_ms": rules.dwell_cap_ms,
        "session_gap_ms": rules.session_gap_ms,
        "flicker_ms": rules.flicker_ms,
        "gap_list_min_ms": GAP_LIST_MIN_MS,
        "max_frame_titles": MAX_FRAME_TITLES,
    }
