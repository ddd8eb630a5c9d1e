"""The ledger of a document as a plain-text table (``actframes apps``, the demo)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

UNMEASURED = "—"  # a count the source does not record (never shown as 0)


def ledger_table(doc: dict[str, Any], by_host: bool = False) -> str:
    """The ledger as a table; ``by_host``: one block of rows per machine (the document's
    ``hosts``, else the whole ledger under the one host its frames name)."""
    from ..compile.document import NO_INPUT_SPOT

    measured = NO_INPUT_SPOT not in doc.get("blind_spots", [])
    if not by_host:
        rows: list[tuple[str, ...]] = [("APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
        rows += [_ledger_row(e, measured) for e in doc["ledger"]]
        rows.append(("TOTAL", "", _hms(doc["coverage"]["active_s"]), "", ""))
        return table(rows, left=2)
    hosts = doc.get("hosts")
    if hosts is None:
        devices = sorted({f.get("device", "") for f in doc["frames"]}) or [""]
        name = devices[0] if len(devices) == 1 else "-"
        hosts = [{"host": name, "active_s": doc["coverage"]["active_s"], "ledger": doc["ledger"]}]
    rows = [("HOST", "APP", "SITE", "ACTIVE", "KEYS", "CLICKS")]
    for h in hosts:
        # Per-host entries carry time only: input counts live in the whole ledger.
        host = str(h["host"] or "-")
        rows += [(host, *_ledger_row(e, measured and "keys" in e)) for e in h["ledger"]]
        rows.append((host, "TOTAL", "", _hms(h["active_s"]), "", ""))
    return table(rows, left=3)


def _ledger_row(e: dict[str, Any], measured: bool) -> tuple[str, str, str, str, str]:
    keys = str(e["keys"]) if measured else UNMEASURED
    clicks = str(e["clicks"]) if measured else UNMEASURED
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
