"""Audit a document against the store it claims to come from.

``verify`` re-reads the document's window from the store with the document's own options
and constants, recompiles, and reports every field that differs, frame by frame. It also
checks that every row and event the evidence names still exists, and says whether the
store changed since the document was made (digest mismatch) and which days that touches.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from .classify.ruleset import RuleSet
from .compile.constants import BY_QUERY, Rules
from .compile.document import Doc
from .compile.pipeline import Options, compile_capture
from .compile.ranges import expand
from .errors import UsageError
from .sources import Source
from .window import Window, day_window, parse_local


@dataclass(frozen=True, slots=True)
class Difference:
    where: str  # a frame id, or the top-level key
    field: str
    expected: Any  # what the store gives now
    found: Any  # what the document says

    def line(self) -> str:
        store, document = _show(self.expected), _show(self.found)
        return f"{self.where} {self.field}: store {store}, document {document}"


@dataclass(slots=True)
class Report:
    differences: list[Difference] = field(default_factory=list)
    store_changed: bool = False
    affected_days: list[str] = field(default_factory=list)
    # The document's source kind, and whether it plainly comes from another store: another
    # kind, or other rows and not one of its frames found unchanged here.
    document_kind: str | None = None
    store_kind: str | None = None
    other_source: bool = False
    # Set when the document's projects and categories were made with rules this check
    # does not have (another projects file): those parts are then not compared.
    unchecked: str | None = None

    @property
    def ok(self) -> bool:
        return not self.differences and not self.store_changed

    def verdict(self) -> str:
        """One line that leads the report: what the differences below amount to."""
        n = len(self.differences)
        if self.ok:
            return "ok: the document matches the store"
        if self.other_source:
            kinds = (
                f" (document: {self.document_kind}, store: {self.store_kind})"
                if self.document_kind != self.store_kind
                else ""
            )
            return (
                f"differs: the document comes from another source than this store{kinds}; "
                f"{n} difference(s)"
            )
        if self.store_changed and not n:
            days = ", ".join(self.affected_days) or "unknown"
            return f"differs: the store changed since the document was made (days: {days})"
        changed = "; the store changed since it was made" if self.store_changed else ""
        return f"differs: {n} field(s) of the document disagree with the store{changed}"


def window_of(doc: Doc) -> Window:
    try:
        w = doc["window"]
        if not isinstance(w["tz"], str):
            raise TypeError(f"tz {w['tz']!r} is not a zone name")
        if "day" in w:
            return day_window(w["day"], w["tz"])
        return Window(parse_local(w["start"], w["tz"]), parse_local(w["end"], w["tz"]), w["tz"])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise UsageError(f"document has no usable window: {exc}") from exc


def options_of(doc: Doc) -> Options:
    try:
        compiled = doc["compiled"]
        c = compiled["constants"]
        rules = Rules(
            dwell_cap_ms=int(c["dwell_cap_ms"]),
            session_gap_ms=int(c["session_gap_ms"]),
            flicker_ms=int(c["flicker_ms"]),
        )
        return Options(min_active_s=int(compiled["options"]["min_active_s"]), rules=rules)
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise UsageError(f"document does not say how it was compiled: {exc}") from exc


# A document read from a file may hold anything where a list or an object belongs. Read
# through these, a part of the wrong shape is absent: verify reports it as a difference,
# tier2 refuses what relies on it, neither fails on it.


def doc_frames(doc: Mapping[str, object]) -> list[dict[str, Any]]:
    """The document's frames that are objects."""
    frames = doc.get("frames")
    return [f for f in frames if isinstance(f, dict)] if isinstance(frames, list) else []


def frame_pieces(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The frame and its interruptions that are objects: what carries evidence."""
    inner = frame.get("interruptions")
    return (
        [frame, *(p for p in inner if isinstance(p, dict))] if isinstance(inner, list) else [frame]
    )


def evidence_of(piece: dict[str, Any]) -> dict[str, Any]:
    ev = piece.get("evidence")
    return ev if isinstance(ev, dict) else {}


def frame_key(frame: dict[str, Any]) -> str:
    """The frame's id as text (an id that is not text is shown as written)."""
    fid = frame.get("id")
    return fid if isinstance(fid, str) else repr(fid)


def _source_of(doc: Mapping[str, object]) -> dict[str, Any]:
    source = doc.get("source")
    return source if isinstance(source, dict) else {}


def unattributed_ids(doc: Doc, source: Source) -> list[int]:
    """The ids of the input events the document counts as unattributed: its own list, or,
    where it says ``query`` (too many ranges to list), the same compile of its window
    with the list in full. Exact while the store gives the same digest for the window."""
    listed = doc["coverage"]["unattributed_input"]["evidence"]
    if listed != BY_QUERY:
        return expand(listed)
    window = window_of(doc)
    full = compile_capture(
        source.read(window.start_ms, window.end_ms),
        window,
        options_of(doc),
        evidence_max_runs=None,
    )
    return expand(full["coverage"]["unattributed_input"]["evidence"])


def verify(doc: Doc, source: Source, rules: RuleSet | None = None) -> Report:
    """``rules``: the project and category rules at hand (the store's); the document's
    projects and categories are checked when they were made with the same rules."""
    window = window_of(doc)
    cap = source.read(window.start_ms, window.end_ms)
    opts = options_of(doc)
    made_with = _rules_digest(doc)
    if rules is not None and rules.digest == made_with:
        opts = Options(opts.min_active_s, opts.rules, rules)
    fresh = compile_capture(cap, window, opts)
    report = Report()
    if made_with is not None and made_with != opts.classify.digest:
        report.unchecked = (
            f"projects and categories not checked: the document was made with other rules"
            f" ({made_with}; give the same --projects and --categories to check them)"
        )
        fresh = _with_their_labels(fresh, doc)
    _compare_top(doc, fresh, report)
    _compare_frames(doc, fresh, report)
    _check_evidence(doc, cap.snapshots, cap.all_events(), report)
    report.store_changed = _source_of(doc).get("digest") != fresh["source"]["digest"]
    if report.differences or report.store_changed:
        report.affected_days = _days(doc, fresh, report)
    kind = _source_of(doc).get("kind")
    report.document_kind = kind if isinstance(kind, str) else None
    report.store_kind = fresh["source"]["kind"]
    report.other_source = report.document_kind != report.store_kind or (
        report.store_changed and bool(doc.get("frames")) and not _any_frame_agrees(doc, report)
    )
    return report


def _rules_digest(doc: Doc) -> str | None:
    options: Any = doc.get("compiled", {}).get("options", {})
    got = options.get("rules") if isinstance(options, dict) else None
    return got if isinstance(got, str) else None


def _with_their_labels(fresh: Doc, doc: Doc) -> Doc:
    """``fresh`` with the document's own projects, categories and rule digest, so the
    rest is compared as usual."""
    theirs: Mapping[str, Any] = doc
    out: dict[str, Any] = dict(fresh)
    for key in ("projects", "categories"):
        if key in theirs:
            out[key] = theirs[key]
    out["compiled"] = {**fresh["compiled"], "options": theirs["compiled"]["options"]}
    by_id = {frame_key(f): f for f in doc_frames(doc)}
    frames = []
    for f in fresh["frames"]:
        mine: dict[str, Any] = {k: v for k, v in f.items() if k not in ("project", "category")}
        other = by_id.get(f["id"], {})
        labels: dict[str, Any] = {k: other[k] for k in ("project", "category") if k in other}
        frames.append(_labelled(mine, labels))
    out["frames"] = frames
    return cast("Doc", out)


def _labelled(frame: dict[str, Any], labels: dict[str, Any]) -> dict[str, Any]:
    """``frame`` with ``labels`` in their place (after ``device``/``site``/``app``)."""
    out: dict[str, Any] = {}
    for k, v in frame.items():
        if k == "start":
            out.update(labels)
        out[k] = v
    return out


def _any_frame_agrees(doc: Doc, report: Report) -> bool:
    differing = {d.where for d in report.differences}
    return any(frame_key(f) not in differing for f in doc_frames(doc))


_SKIP_TOP = {"frames", "inferred"}


def _compare_top(doc: Doc, fresh: Doc, report: Report) -> None:
    # Field by field, whatever the keys: the document may come from any file.
    theirs: Mapping[str, object] = doc
    ours: Mapping[str, object] = fresh
    for key in ours:
        if key in _SKIP_TOP or key == "source":
            continue
        _diff(key, "", ours.get(key), theirs.get(key), report)
    for key in theirs:
        if key not in ours and key not in _SKIP_TOP:
            report.differences.append(Difference(key, "", None, theirs[key]))
    kind = _source_of(doc).get("kind")
    if kind != fresh["source"]["kind"]:
        report.differences.append(Difference("source", "kind", fresh["source"]["kind"], kind))


def _compare_frames(doc: Doc, fresh: Doc, report: Report) -> None:
    # Frames as plain mappings: compared key by key, whatever keys the document's have.
    theirs: dict[str, Mapping[str, object]] = {frame_key(f): f for f in doc_frames(doc)}
    ours: dict[str, Mapping[str, object]] = {f["id"]: f for f in fresh["frames"]}
    for fid, f in ours.items():
        if fid not in theirs:
            report.differences.append(Difference(fid, "frame", "present", "missing"))
            continue
        for key in f:
            _diff(fid, key, f[key], theirs[fid].get(key), report)
        for key in theirs[fid]:
            if key not in f:
                report.differences.append(Difference(fid, key, None, theirs[fid][key]))
    for other in theirs:
        if other not in ours:
            report.differences.append(Difference(other, "frame", "missing", "present"))


def _diff(where: str, path: str, expected: Any, found: Any, report: Report) -> None:
    """Record differences at the finest field that still reads well."""
    if expected == found:
        return
    if isinstance(expected, dict) and isinstance(found, dict):
        for k in sorted(set(expected) | set(found)):
            _diff(where, f"{path}.{k}" if path else k, expected.get(k), found.get(k), report)
        return
    report.differences.append(Difference(where, path or "(value)", expected, found))


def _check_evidence(doc: Doc, snapshots: list[Any], events: list[Any], report: Report) -> None:
    rows = sorted({s.row_id for s in snapshots if isinstance(s.row_id, int)})
    event_ids = sorted({e.event_id for e in events if isinstance(e.event_id, int)})
    for f in doc_frames(doc):
        fid = frame_key(f)
        for p in frame_pieces(f):
            ev = evidence_of(p)
            try:
                missing_rows = _missing(spans(ev.get("rows", "")), rows)
                missing_events = _missing(spans(ev.get("events", "")), event_ids)
            except (ValueError, AttributeError):  # not compact ranges (not even text)
                report.differences.append(Difference(fid, "evidence", "ranges", ev))
                continue
            if missing_rows:
                report.differences.append(
                    Difference(
                        fid,
                        "evidence.rows",
                        "rows in the store",
                        f"missing {','.join(map(str, missing_rows[:10]))}",
                    )
                )
            if missing_events:
                report.differences.append(
                    Difference(
                        fid,
                        "evidence.events",
                        "events in the store",
                        f"missing {','.join(map(str, missing_events[:10]))}",
                    )
                )


def spans(text: str) -> list[tuple[int, int]]:
    """Compact ranges (``compile.ranges``: "101-140,145") as (first, last) pairs, read
    as ``expand`` reads them (a range that runs backwards holds nothing), without listing
    every id: a document from a file may name "1-99999999999"."""
    out: list[tuple[int, int]] = []
    for part in text.split(",") if text else ():
        lo, sep, hi = part.partition("-")
        first, last = (int(lo), int(hi)) if sep and lo else (int(part), int(part))
        if first <= last:
            out.append((first, last))
    return out


def _missing(wanted: list[tuple[int, int]], have: list[int], limit: int = 10) -> list[int]:
    """The first ``limit`` ids of ``wanted`` that ``have`` (sorted, distinct) lacks."""
    out: list[int] = []
    for lo, hi in wanted:
        i, j = bisect_left(have, lo), bisect_right(have, hi)
        if j - i == hi - lo + 1:  # every id of the range is there
            continue
        expect = lo
        for present in [*have[i:j], hi + 1]:
            out.extend(range(expect, min(present, expect + limit - len(out))))
            if len(out) >= limit:
                return out
            expect = present + 1
    return out


def _days(doc: Doc, fresh: Doc, report: Report) -> list[str]:
    window = doc.get("window")
    if not isinstance(window, dict):
        window = {}
    if "day" in window:
        return [str(window["day"])]
    starts: dict[str, object] = {f["id"]: f["start"] for f in fresh["frames"]}
    starts.update({frame_key(f): f.get("start") for f in doc_frames(doc)})
    days = {str(starts[d.where])[:10] for d in report.differences if d.where in starts}
    if not days or (report.store_changed and not report.differences):
        days |= {str(window.get("start", ""))[:10], str(window.get("end", ""))[:10]}
    return sorted(d for d in days if d)


def _show(value: Any) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= 120 else text[:119] + "…"
