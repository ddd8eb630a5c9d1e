"""The ledger of a document as a plain-text table (``actframes apps``, the demo)."""

from __future__ import annotations

from collections.abc import Sequence

from ..doc_types import Document, HostLedgerEntry, LedgerEntry

UNMEASURED = "—"  # a count the source does not record (never shown as 0)


def ledger_table(doc: Document, by_host: bool = False) -> str:
    """The ledger as a table; ``by_host``: one block of rows per machine (the document's
    ``hosts``, else the whole ledger under the one host its frames name)."""
    from ..compile.disclosures import input_recorded

    measured = input_recorded(doc)
    if not by_host:
        rows: list[tuple[str, ...]] = [("APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
        rows += [_ledger_row(e, measured) for e in doc["ledger"]]
        rows.append(("TOTAL", "", _hms(doc["coverage"]["active_s"]), "", ""))
        return table(rows, left=2)
    hosts = doc.get("hosts")
    blocks: list[tuple[str, int, Sequence[LedgerEntry | HostLedgerEntry]]]
    if hosts is None:
        devices = sorted({f.get("device", "") for f in doc["frames"]}) or [""]
        name = devices[0] if len(devices) == 1 else "-"
        blocks = [(name, doc["coverage"]["active_s"], doc["ledger"])]
    else:
        blocks = [(h["host"], h["active_s"], h["ledger"]) for h in hosts]
    rows = [("HOST", "APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
    for host_name, active_s, entries in blocks:
        # Per-host entries carry time only: input counts live in the whole ledger.
        host = str(host_name or "-")
        rows += [(host, *_ledger_row(e, measured)) for e in entries]
        rows.append((host, "TOTAL", "", _hms(active_s), "", ""))
    return table(rows, left=3)


def _ledger_row(e: LedgerEntry | HostLedgerEntry, measured: bool) -> tuple[str, str, str, str, str]:
    keys = clicks = UNMEASURED
    if measured and "keys" in e:  # a host's entries carry no input counts
        keys, clicks = str(e["keys"]), str(e["clicks"])
    return (e["app"], e.get("site") or "-", _hms(e["active_s"]), keys, clicks)


def table(rows: Sequence[tuple[str, ...]], left: int) -> str:
    """Columns padded to their widest cell: the first ``left`` to the left, the rest right."""
    n = len(rows[0])
    widths = [max(len(r[i]) for r in rows) for i in range(n)]
    lines = []
    for r in rows:
        cells = [r[i].ljust(widths[i]) for i in range(left)]
        cells += [r[i].rjust(widths[i]) for i in range(left, n)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def _hms(s: int) -> str:
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h}:{m:02d}:{sec:02d}"
