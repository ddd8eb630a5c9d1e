"""How much of the capture was usable, said in one line, for every emitter and ``day``:
rows rejected (with their reasons) and days where nothing could be used."""

from __future__ import annotations

from ..doc_types import Document

_SHOWN_REASONS = 3  # reasons named; more are summed up as "…"


def rejected_total(doc: Document) -> int:
    return sum(int(r["count"]) for r in doc.get("rejected_rows", []))


def unusable(doc: Document) -> bool:
    """Rows were there and none could be used."""
    return doc["coverage"]["rows"] == 0 and rejected_total(doc) > 0


def usability_line(doc: Document) -> str | None:
    """One line when rows were rejected (None when every row was usable): how many,
    why, and how many rows were used."""
    rej = doc.get("rejected_rows", [])
    if not rej:
        return None
    by = sorted(rej, key=lambda r: (-int(r["count"]), r["table"], r["reason"]))
    reasons = "; ".join(f"{r['table']}: {r['reason']} ({r['count']})" for r in by[:_SHOWN_REASONS])
    if len(by) > _SHOWN_REASONS:
        reasons += "; …"
    rows = doc["coverage"]["rows"]
    head = "no usable rows" if rows == 0 else f"{rows} rows used"
    return f"{head}, {rejected_total(doc)} rejected ({reasons})"
