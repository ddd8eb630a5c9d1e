"""Tier 2: the inferred layer, kept apart from the measured facts.

Entries live only under the document's ``inferred`` key (after every Tier-1 key):

    {"label": "tool.name/label", "confidence": "high" | "medium" | "speculative",
     "evidence": {"frames": ["F12", ...], "rows": "101-140"}, "note": "..."?}

``label`` is namespaced by the producing tool; evidence must point at frames of the
document or at rows its frames cite. ``validate`` refuses malformed entries with a precise
reason; ``strip`` drops the layer and gives back the Tier-1 document byte for byte.

A deterministic producer ships here: project labels from user-written rules (TOML).
An LLM-based producer plugs in the same way: read the Tier-1 document, return entries in
this shape — namespaced label, a confidence it can justify, and evidence that names the
frames (or rows) it read — and let ``validate`` check them before they are merged.
"""

from __future__ import annotations

import contextlib
import copy
import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from .compile.document import Doc
from .doc_types import Inferred
from .errors import UsageError
from .verify import doc_frames, evidence_of, frame_key, frame_pieces, spans

CONFIDENCE = ("high", "medium", "speculative")
LABEL = re.compile(r"[a-z0-9][a-z0-9._-]*/[^\s/][^\s]*")
ENTRY_KEYS = {"label", "confidence", "evidence", "note"}
RULES_TOOL = "actframes.rules"


@dataclass(frozen=True, slots=True)
class Problem:
    index: int
    reason: str

    def line(self) -> str:
        return f"inferred[{self.index}]: {self.reason}"


def validate(doc: Doc) -> list[Problem]:
    """Every reason an entry of ``doc['inferred']`` is refused; empty when all are sound."""
    entries = doc.get("inferred", [])
    if not isinstance(entries, list):
        return [Problem(-1, "'inferred' must be a list")]
    frames = {frame_key(f): f for f in doc_frames(doc)}
    cited: list[tuple[int, int]] = []
    for f in frames.values():
        for p in frame_pieces(f):
            # Rows that are not compact ranges cite nothing.
            with contextlib.suppress(ValueError, AttributeError):
                cited += spans(evidence_of(p).get("rows", ""))
    cover = _merged(cited)
    problems: list[Problem] = []
    for i, e in enumerate(entries):
        problems += [Problem(i, r) for r in _entry_problems(e, frames, cover)]
    return problems


def _merged(found: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Ranges joined where they touch: (firsts, lasts), sorted."""
    firsts: list[int] = []
    lasts: list[int] = []
    for lo, hi in sorted(found):
        if lasts and lo <= lasts[-1] + 1:
            lasts[-1] = max(lasts[-1], hi)
        else:
            firsts.append(lo)
            lasts.append(hi)
    return firsts, lasts


def _first_uncovered(
    wanted: list[tuple[int, int]], cover: tuple[list[int], list[int]]
) -> int | None:
    firsts, lasts = cover
    for lo, hi in wanted:
        k = bisect_right(firsts, lo) - 1
        if k < 0 or lasts[k] < lo:
            return lo
        if lasts[k] < hi:
            return lasts[k] + 1  # merged ranges never touch: the next id is not cited
    return None


def _entry_problems(
    e: Any, frames: dict[Any, Any], cover: tuple[list[int], list[int]]
) -> list[str]:
    if not isinstance(e, dict):
        return ["an entry must be an object"]
    out = [f"unknown key {k!r}" for k in sorted(set(e) - ENTRY_KEYS)]
    label = e.get("label")
    if not isinstance(label, str) or not LABEL.fullmatch(label):
        out.append(f"label {label!r} is not namespaced as 'tool.name/label'")
    if e.get("confidence") not in CONFIDENCE:
        out.append(f"confidence {e.get('confidence')!r} is not one of {', '.join(CONFIDENCE)}")
    if "note" in e and not isinstance(e["note"], str):
        out.append("note must be text")
    ev = e.get("evidence")
    if not isinstance(ev, dict) or not (ev.get("frames") or ev.get("rows")):
        out.append("evidence must name frames or rows")
        return out
    out += [f"unknown evidence key {k!r}" for k in sorted(set(ev) - {"frames", "rows"})]
    ids = ev.get("frames", [])
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        out.append("evidence.frames must be a list of frame ids")
    else:
        out += [
            f"evidence names frame {x!r}, which the document does not have"
            for x in ids
            if x not in frames
        ]
    if "rows" in ev:
        try:
            rows = spans(ev["rows"]) if isinstance(ev["rows"], str) else None
        except ValueError:
            rows = None
        if rows is None:
            out.append("evidence.rows must be compact ranges such as '101-140,145'")
        else:
            stray = _first_uncovered(rows, cover)
            if stray is not None:
                out.append(f"evidence names row {stray}, which no frame of the document cites")
    return out


def strip(doc: Doc) -> Doc:
    """The Tier-1 document: everything but ``inferred``."""
    out = doc.copy()
    out.pop("inferred", None)
    return out


def merge(doc: Doc, entries: list[Inferred]) -> Doc:
    """``doc`` with ``entries`` added to its Tier-2 layer, refused if any is malformed."""
    out = copy.deepcopy(strip(doc))
    kept = doc.get("inferred", [])
    # (not a list: validate refuses the document's layer as it is)
    out["inferred"] = [*kept, *entries] if isinstance(kept, list) else kept
    problems = validate(out)
    if problems:
        raise UsageError(problems[0].line())
    return out


# ---------------------------------------------------------------- the rules producer


@dataclass(frozen=True, slots=True)
class Rule:
    label: str
    app: re.Pattern[str] | None = None
    site: re.Pattern[str] | None = None
    title: re.Pattern[str] | None = None
    entity: re.Pattern[str] | None = None


def load_rules(text: str, where: str = "rules") -> list[Rule]:
    """Rules from TOML::

    [[label]]
    name = "actframes"            # the label; entries read actframes.rules/actframes
    app = "^Code$"                # regexes (Python syntax); all given must match
    title = "actframes"           # ... any of the frame's titles
    site = "github\\.com"
    entity = "^psf/requests"      # ... any page entity
    """
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{where}: not valid TOML ({exc})") from exc
    labels = data.get("label", [])
    if not isinstance(labels, list):
        raise UsageError(f"{where}: 'label' must be [[label]] tables, one per rule")
    rules = []
    for n, item in enumerate(labels, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"]:
            raise UsageError(f"{where}: label #{n} needs a name")
        pats: dict[str, re.Pattern[str] | None] = {}
        for key in ("app", "site", "title", "entity"):
            raw = item.get(key)
            if raw is not None and not isinstance(raw, str):
                raise UsageError(f"{where}: label #{n} {key}: a regex is text, not {raw!r}")
            try:
                pats[key] = re.compile(raw) if isinstance(raw, str) else None
            except re.error as exc:
                raise UsageError(f"{where}: label #{n} {key}: bad regex ({exc})") from exc
        if not any(pats.values()):
            raise UsageError(
                f"{where}: label #{n} matches nothing (give app, site, title or entity)"
            )
        rules.append(Rule(item["name"], **pats))
    return rules


def label_frames(doc: Doc, rules: list[Rule]) -> list[Inferred]:
    """One entry per rule that matches any frame: confidence high (the user wrote the
    rule), evidence the matching frames in document order."""
    entries: list[Inferred] = []
    for rule in rules:
        ids = [
            f["id"] for f in doc_frames(doc) if isinstance(f.get("id"), str) and _matches(rule, f)
        ]
        if ids:
            entries.append(
                {
                    "label": f"{RULES_TOOL}/{rule.label}",
                    "confidence": "high",
                    "evidence": {"frames": ids},
                }
            )
    return entries


def _matches(rule: Rule, f: dict[str, Any]) -> bool:
    # A frame read from a file: a field that is not text (or a list of it) matches nothing.
    if rule.app and not rule.app.search(_text(f.get("app"))):
        return False
    if rule.site and not rule.site.search(_text(f.get("site"))):
        return False
    if rule.title and not any(rule.title.search(_text(t)) for t in _items(f.get("titles"))):
        return False
    return not (
        rule.entity
        and not any(
            rule.entity.search(_text(p.get("entity")))
            for p in _items(f.get("pages"))
            if isinstance(p, dict)
        )
    )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _items(value: object) -> list[object]:
    return value if isinstance(value, list) else []
