"""What a document discloses about its source beside the facts: the rows it could not
use (``rejected_rows``) and what the source cannot see (``blind_spots``), SPEC.md §3."""

from __future__ import annotations

from collections.abc import Sequence

from .. import doc_types
from ..model import Capture, Rejected
from ..text import MAX_NAME_CHARS, safe_field
from .ranges import compact


def rejected_list(rejected: Sequence[Rejected]) -> list[doc_types.RejectedRows]:
    groups: dict[tuple[str, str], list[str]] = {}
    # Table names (an export's bucket ids) and row labels come from the file: untrusted.
    tables: dict[str, str] = {}
    for r in rejected:
        table = tables.get(r.table)
        if table is None:
            table = tables[r.table] = safe_field(r.table, MAX_NAME_CHARS)
        row = r.row if _is_int(r.row) else safe_field(r.row, _MAX_ROW_LABEL)
        groups.setdefault((table, r.reason), []).append(row)
    out: list[doc_types.RejectedRows] = []
    for (table, reason), rows in sorted(groups.items()):
        ints = [int(x) for x in rows if _is_int(x)]
        others = sorted(x for x in rows if not _is_int(x))
        listed = compact(ints)
        if others:
            listed = ",".join(filter(None, [listed, *others[:5]]))
        out.append({"table": table, "reason": reason, "count": len(rows), "rows": listed})
    return out


_MAX_ROW_LABEL = 64


# Said when the source records no input; tables show "—" for its counts, never 0.
NO_INPUT_SPOT = "this source records no key or click counts: input is unmeasured"
NO_INPUT = "input not recorded"  # what a text view writes in place of such counts


def input_recorded(doc: doc_types.Document) -> bool:
    """Whether the document's source records input (else its counts are zeros, unknown)."""
    return NO_INPUT_SPOT not in doc.get("blind_spots", ())


def blind_spots(cap: Capture, interval: bool) -> list[str]:
    spots = []
    if cap.kind == "activitywatch":
        spots.append(
            "active time follows ActivityWatch's web UI: window events flooded (5 s),"
            " cut to each host's not-AFK time"
        )
    elif interval:
        spots.append("active time is the observed focus span, less recorded away time")
    else:
        spots.append("active time is inferred from the gaps between rows (dwell, capped)")
    if not cap.has_input:
        spots.append(NO_INPUT_SPOT)
    if not cap.has_afk:
        spots.append("this source records no away periods: absence shows only as gaps")
    if not cap.has_urls:
        spots.append("this source records no URLs: browser sites are unknown")
    spots.extend(sorted(set(cap.notes)))
    return spots


def _is_int(s: str) -> bool:
    return s.lstrip("-").isdigit()
