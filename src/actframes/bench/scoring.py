"""Scoring: how an answer is read and when it counts as correct.

Rules (also in docs/bench.md and SPEC.md):

- Names (``top_app``, ``compare_apps``): equal to the oracle's, ignoring case, quotes and
  repeated spaces; ``top_app`` also accepts an app within 5% (or 60 s) of the top one.
- Minutes (``app_minutes``, ``site_minutes``): within ±10% of the oracle's minutes. The
  magnitude error |answer − truth| / truth is reported for these.
- Counts: ``distinct_apps`` exact; ``keys_in_app`` within ±10%.
- Yes/no (``app_used``, ``site_visited``, ``absent_app``, ``absent_site``): equal. A "yes" on
  an absent-fact probe is a hallucination.
- Times (``first_activity``, ``last_activity``, ``entity_viewed``): within ±5 minutes.
- ``longest_frame``: the app (as for names) and a start within ±5 minutes of the longest
  frame, or of a frame within 5% (or 60 s) of its active time.
- ``away_periods``: as many periods as the oracle's, each start and end within ±5 minutes
  of its counterpart (both in time order); "none" matches no periods.
- No answer, "unknown", or an answer that cannot be read is wrong (and not a hallucination).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from .questions import ABSENT_KINDS, DURATION_KINDS, Question

REL_TOL = 0.10
TIME_TOL_MIN = 5.0

NAME_KINDS = ("top_app", "compare_apps")
YESNO_KINDS = ("app_used", "site_visited", "absent_app", "absent_site")
TIME_KINDS = ("first_activity", "last_activity", "entity_viewed")
_UNKNOWN = {"", "unknown", "n/a", "na", "none given", "not known", "cannot tell", "?"}


@dataclass(frozen=True)
class Score:
    correct: bool
    answered: bool
    rel_error: float | None = None  # duration kinds: |answer - truth| / truth
    hallucinated: bool | None = None  # absent-fact probes: said "yes"

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "answered": self.answered,
            "rel_error": self.rel_error,
            "hallucinated": self.hallucinated,
        }


def score(q: Question, answer: Any) -> Score:
    """Judge ``answer`` (a reader's value, or a model's raw reply for this question)."""
    value = coerce(q.kind, answer)
    halluc = (value == "yes") if q.kind in ABSENT_KINDS else None
    if value is None:
        return Score(False, False, None, False if q.kind in ABSENT_KINDS else None)
    if q.kind in DURATION_KINDS:
        truth = float(q.value)
        err = abs(value - truth) / truth if truth else (0.0 if value == 0 else 1.0)
        return Score(err <= REL_TOL + 1e-9, True, err)
    return Score(_match(q, value), True, None, halluc)


def _match(q: Question, value: Any) -> bool:
    kind = q.kind
    if kind in NAME_KINDS:
        return norm_name(value) in {norm_name(v) for v in [q.value, *q.accept]}
    if kind == "distinct_apps":
        return int(value) == int(q.value)
    if kind == "keys_in_app":
        truth = float(q.value)
        return bool(abs(value - truth) <= REL_TOL * truth + 1e-9)
    if kind in YESNO_KINDS:
        return str(value) == str(q.value)
    if kind in TIME_KINDS:
        return bool(abs(value - float(q.value)) <= TIME_TOL_MIN + 1e-9)
    if kind == "longest_frame":
        return any(
            norm_name(value["app"]) == norm_name(c["app"])
            and abs(value["start"] - c["start"]) <= TIME_TOL_MIN + 1e-9
            for c in [q.value, *q.accept]
        )
    if kind == "away_periods":
        truth = q.value
        if len(value) != len(truth):
            return False
        return all(
            abs(a[0] - t[0]) <= TIME_TOL_MIN + 1e-9 and abs(a[1] - t[1]) <= TIME_TOL_MIN + 1e-9
            for a, t in zip(sorted(value), sorted(truth), strict=True)
        )
    raise ValueError(f"unknown question kind {kind!r}")


# ---------------------------------------------------------------------------- reading answers


def norm_name(value: object) -> str:
    s = str(value).strip().strip("\"'`“”‘’").strip()
    return " ".join(s.split()).casefold()


def _is_unknown(value: object) -> bool:
    return value is None or (isinstance(value, str) and value.strip().casefold() in _UNKNOWN)


def coerce(kind: str, answer: Any) -> Any:
    """The scoring form of an answer, or None when it says nothing readable."""
    if _is_unknown(answer):
        return None
    try:
        if kind in NAME_KINDS:
            return answer if isinstance(answer, str) else None
        if kind in DURATION_KINDS:
            return parse_minutes(answer)
        if kind in ("distinct_apps", "keys_in_app"):
            return parse_int(answer)
        if kind in YESNO_KINDS:
            return parse_yesno(answer)
        if kind in TIME_KINDS:
            return answer if isinstance(answer, int | float) else parse_clock(answer)
        if kind == "longest_frame":
            return parse_frame(answer)
        if kind == "away_periods":
            return parse_spans(answer)
    except (TypeError, ValueError):
        return None
    raise ValueError(f"unknown question kind {kind!r}")


_NUM = re.compile(r"-?\d+(?:[.,]\d+)?")
_HM = re.compile(r"(\d+)\s*h(?:ours?|rs?)?\s*(?:(\d+)\s*m(?:in(?:utes?)?)?)?", re.IGNORECASE)
_CLOCK = re.compile(r"(\d{1,2})[:.h](\d{2})(?::(\d{2}))?\s*([ap]\.?m\.?)?", re.IGNORECASE)


def parse_minutes(answer: Any) -> float | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int | float):
        return float(answer)
    s = str(answer)
    m = _HM.search(s)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2) or 0)
    m = re.search(r"(\d+):(\d{2})(?::(\d{2}))?", s)  # h:mm[:ss] as a duration
    if m and "min" not in s.casefold():
        return int(m.group(1)) * 60 + int(m.group(2)) + int(m.group(3) or 0) / 60
    m = _NUM.search(s.replace(",", "") if re.search(r"\d,\d{3}", s) else s)
    if not m:
        return None
    value = float(m.group(0).replace(",", "."))
    if re.search(r"\bsec", s, re.IGNORECASE) and not re.search(r"\bmin", s, re.IGNORECASE):
        value /= 60
    return value


def parse_int(answer: Any) -> int | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int | float):
        return round(answer)
    m = _NUM.search(re.sub(r"(?<=\d)[,_ ](?=\d{3}\b)", "", str(answer)))
    return round(float(m.group(0).replace(",", "."))) if m else None


def parse_yesno(answer: Any) -> str | None:
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    s = str(answer).strip().casefold()
    if s.startswith(("yes", "true", "y ")) or s == "y":
        return "yes"
    if s.startswith(("no", "false", "never")) or s == "n":
        return "no"
    return None


def parse_clock(answer: Any) -> float | None:
    """HH:MM (optionally :SS, am/pm, a "+1d" day suffix) as minutes after midnight."""
    s = str(answer)
    m = _CLOCK.search(s)
    if not m:
        return None
    h, mi, sec = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
    ampm = (m.group(4) or "").replace(".", "").casefold()
    if ampm == "pm" and h < 12:
        h += 12
    elif ampm == "am" and h == 12:
        h = 0
    if h > 24 or mi > 59:
        return None
    extra = re.search(r"\+(\d+)\s*d", s[m.end() :])
    return (int(extra.group(1)) * 1440 if extra else 0) + h * 60 + mi + sec / 60


def parse_frame(answer: Any) -> dict[str, Any] | None:
    if isinstance(answer, dict):
        app, start = answer.get("app"), answer.get("start")
        at = start if isinstance(start, int | float) else parse_clock(start)
        return {"app": str(app), "start": at} if app is not None and at is not None else None
    s = str(answer)
    if "@" in s:
        app, _, when = s.rpartition("@")
    else:
        m = re.search(r"\s(?:at|from|starting)\s", s)
        if not m:
            return None
        app, when = s[: m.start()], s[m.end() :]
    app = re.sub(r"\s*\([^)]*\)\s*$", "", app.strip())  # "Chrome (github.com)" -> "Chrome"
    at = parse_clock(when)
    return {"app": app, "start": at} if app and at is not None else None


def parse_spans(answer: Any) -> list[list[float]] | None:
    if isinstance(answer, list):
        out: list[list[float]] = []
        for item in answer:
            if isinstance(item, list | tuple) and len(item) == 2:
                a = item[0] if isinstance(item[0], int | float) else parse_clock(item[0])
                b = item[1] if isinstance(item[1], int | float) else parse_clock(item[1])
                if a is None or b is None:
                    return None
                out.append([float(a), float(b)])
            else:
                spans = parse_spans(str(item))
                if spans is None:
                    return None
                out += spans
        return out
    s = str(answer).strip()
    if s.casefold().rstrip(".") in ("none", "no", "[]", "no periods", "nothing"):
        return []
    if s.startswith("["):
        try:
            return parse_spans(json.loads(s))
        except ValueError:
            pass
    clocks = [m for m in _CLOCK.finditer(s)]
    if not clocks or len(clocks) % 2:
        return None
    values = [parse_clock(m.group(0)) for m in clocks]
    if any(v is None for v in values):
        return None
    vals = [float(v) for v in values if v is not None]
    return [[vals[i], vals[i + 1]] for i in range(0, len(vals), 2)]
