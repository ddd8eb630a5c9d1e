"""Questions about a period of local days, with the oracle's answers, and their scoring.

Every answer comes from the oracle's facts of each day (``oracle.day_facts``), never from
the compiler: a period's figure is a sum or a maximum over its days' facts. Deterministic:
the same facts and seed give the same questions in the same order (a ``random.Random``
seeded by a string, as in ``questions.py``).

Kinds, and when an answer is correct (the day questions' rules where they fit):

- ``period_day_minutes``: active minutes on each day of the period (0 on a day without
  capture); ``period_active_minutes``: over the whole period; ``period_app_minutes``:
  in app X over the period (apps with at least 10 minutes). Within ±10% (``REL_TOL``, as
  ``app_minutes``); a truth of 0 takes exactly 0.
- ``period_busiest_day``: the day with most active time; ``period_app_busiest_day``: the
  day app X had most. The date (YYYY-MM-DD); a day within 5% or 60 s of the top day also
  counts (``TIE_SHARE``, ``TIE_MIN_MS``, as ``top_app``).
- ``period_entity_first_day`` / ``period_entity_last_day``: the first and the last day a
  pull request, issue or Google document was viewed. The exact date. Asked only of the
  references in ``listed`` when it is given: the period block promises the first and last
  day of the references it lists (the most viewed), not of the rest.
- ``period_vs_more``: more or less time in app X (or in all) than in the previous
  period; ``period_vs_minutes``: by how many minutes (this − previous, signed), within
  ±10% of the difference. Asked only where the two differ by at least 10 minutes and 5%
  of the larger (no ties), and of the ``VS_ROWS`` apps with most time in either period
  (the comparison lines list that many).
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Sequence
from datetime import date
from typing import Any

from .oracle import DayFacts
from .questions import ASK_MIN_MS, TIE_MIN_MS, TIE_SHARE, Question, entity_text
from .scoring import REL_TOL, Score, norm_name, parse_minutes

APP_QUESTIONS = 3  # apps asked about per kind
ENTITY_QUESTIONS = 3  # references asked their first and last day
VS_QUESTIONS = 3  # apps compared with the previous period (besides the total)
VS_ROWS = 15  # the comparison lines list this many apps

MINUTE_KINDS = ("period_day_minutes", "period_active_minutes", "period_app_minutes")
DAY_KINDS = (
    "period_busiest_day",
    "period_app_busiest_day",
    "period_entity_first_day",
    "period_entity_last_day",
)
VS_KINDS = ("period_vs_more", "period_vs_minutes")
PERIOD_KINDS = (*MINUTE_KINDS, *DAY_KINDS, *VS_KINDS)


def span_text(days: Sequence[DayFacts]) -> str:
    return f"{days[0].day}..{days[-1].day}"


def _total(f: DayFacts) -> int:
    return sum(f.app_ms.values())


def _app_totals(days: Sequence[DayFacts]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in days:
        for app, ms in f.app_ms.items():
            out[app] = out.get(app, 0) + ms
    return out


def _ties(by_day: dict[str, int]) -> tuple[str, list[str]]:
    """The top day (the earliest of equal ones) and the days within the tie tolerance."""
    top = min(by_day, key=lambda d: (-by_day[d], d))
    tol = max(TIE_SHARE * by_day[top], TIE_MIN_MS)
    return top, sorted(d for d, ms in by_day.items() if d != top and by_day[top] - ms <= tol)


def _minutes(ms: int) -> float:
    return round(ms / 60_000, 2)


class _Builder:
    def __init__(self, days: Sequence[DayFacts], seed: int) -> None:
        self.days = days
        self.span = span_text(days)
        self.tz = days[0].tz
        self.rng = random.Random(f"actframes.bench.period_questions:{seed}:{self.span}:{self.tz}")
        self.out: list[Question] = []
        self.within = f"from {days[0].day} through {days[-1].day}"

    def add(self, kind: str, text: str, truth: str, value: Any, **kw: Any) -> None:
        qid = f"{self.span}/q{len(self.out) + 1:02d}"
        accept = kw.pop("accept", [])
        self.out.append(Question(qid, self.span, self.tz, kind, text, truth, value, accept, kw))

    def pick(self, names: Sequence[Any], n: int) -> list[Any]:
        return self.rng.sample(list(names), min(n, len(names)))


def generate_period(
    days: Sequence[DayFacts],
    *,
    previous: Sequence[DayFacts] | None = None,
    listed: Collection[tuple[str, str]] | None = None,
    seed: int = 0,
) -> list[Question]:
    """Questions about the period of ``days`` (the oracle's facts of each of its days, in
    order, days without capture included); with ``previous`` (the facts of the period it
    is compared with), the comparison questions; ``listed`` ((kind, entity) pairs) limits
    the first/last-day questions to those references."""
    if not days:
        raise ValueError("a period has at least one day")
    b = _Builder(days, seed)
    for f in days:
        v = _minutes(_total(f))
        b.add(
            "period_day_minutes",
            f"How many minutes of active time were recorded on {f.day}? Answer with a number"
            " of minutes (0 if nothing was recorded that day).",
            f"{v:g} min",
            v,
            day=f.day,
        )
    total = sum(_total(f) for f in days)
    b.add(
        "period_active_minutes",
        f"How many minutes of active time were recorded in all {b.within}?"
        " Answer with a number of minutes.",
        f"{_minutes(total):g} min",
        _minutes(total),
    )
    if total:
        top, ties = _ties({f.day: _total(f) for f in days})
        b.add(
            "period_busiest_day",
            f"On which day {b.within} was the most active time recorded? Answer YYYY-MM-DD.",
            top,
            top,
            accept=ties,
        )
    apps = _app_totals(days)
    asked = sorted(a for a, ms in apps.items() if ms >= ASK_MIN_MS)
    for app in b.pick(asked, APP_QUESTIONS):
        v = _minutes(apps[app])
        b.add(
            "period_app_minutes",
            f'How many minutes of active time were spent in the app "{app}" {b.within}'
            " (all its windows and sites)? Answer with a number of minutes.",
            f"{v:g} min",
            v,
            app=app,
        )
    for app in b.pick(asked, APP_QUESTIONS):
        top, ties = _ties({f.day: f.app_ms[app] for f in days if f.app_ms.get(app)})
        b.add(
            "period_app_busiest_day",
            f'On which day {b.within} did the app "{app}" get the most active time?'
            " Answer YYYY-MM-DD.",
            top,
            top,
            accept=ties,
            app=app,
        )
    _entities(b, listed)
    if previous:
        _versus(b, previous)
    return b.out


def _entities(b: _Builder, listed: Collection[tuple[str, str]] | None) -> None:
    seen: dict[tuple[str, str], list[Any]] = {}  # (kind, name) -> [first, last, title]
    for f in b.days:
        for e in f.entities:
            got = seen.setdefault((e.kind, e.name), [f.day, f.day, e.title])
            got[1] = f.day
            got[2] = got[2] or e.title
    if listed is not None:
        keep = {(k, n.casefold()) for k, n in listed}
        seen = {key: v for key, v in seen.items() if (key[0], key[1].casefold()) in keep}
    for kind, name in sorted(b.pick(sorted(seen), ENTITY_QUESTIONS)):
        first, last, title = seen[(kind, name)]
        what = entity_text(kind, name, title)
        for which, day in (("first", first), ("last", last)):
            b.add(
                f"period_entity_{which}_day",
                f"On which day {b.within} was the {what} viewed for the {which} time?"
                " Answer YYYY-MM-DD.",
                day,
                day,
                entity_kind=kind,
                entity=name,
            )


def _versus(b: _Builder, previous: Sequence[DayFacts]) -> None:
    this, other = _app_totals(b.days), _app_totals(previous)
    names = sorted(set(this) | set(other))
    rows = sorted(names, key=lambda a: (-max(this.get(a, 0), other.get(a, 0)), a))[:VS_ROWS]
    vs = span_text(previous)
    against = f"from {previous[0].day} through {previous[-1].day}"
    cands: list[str | None] = [None]  # None: all apps together
    cands += b.pick([a for a in sorted(rows) if _clear(this.get(a, 0), other.get(a, 0))],
                    VS_QUESTIONS)  # fmt: skip
    for app in cands:
        if app is None:
            a, o = sum(this.values()), sum(other.values())
            if not _clear(a, o):
                continue
            what = "in all apps together"
        else:
            a, o = this.get(app, 0), other.get(app, 0)
            what = f'in the app "{app}"'
        more = "more" if a > o else "less"
        diff = _minutes(a - o)
        params = {"app": app, "vs": vs, "period": b.span}
        b.add(
            "period_vs_more",
            f"Was more or less active time spent {what} {b.within} than {against}?"
            " Answer more or less.",
            more,
            more,
            **params,
        )
        b.add(
            "period_vs_minutes",
            f"By how many minutes did the active time {what} {b.within} differ from"
            f" {against} (the first minus the second; negative when it was less)?"
            " Answer with a signed number of minutes.",
            f"{diff:+g} min",
            diff,
            **params,
        )


def _clear(a: int, b: int) -> bool:
    """Two amounts differ by at least 10 minutes and 5% of the larger: no tie."""
    return abs(a - b) >= max(ASK_MIN_MS, TIE_SHARE * max(a, b))


# ---------------------------------------------------------------------------- scoring


_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_SIGNED = re.compile(r"([+\-−]?)\s*\d")


def score_period(q: Question, answer: Any) -> Score:
    """Judge ``answer`` (a reader's value, or a model's reply) to a period question."""
    value = coerce_period(q.kind, answer)
    if value is None:
        return Score(False, False)
    if q.kind in MINUTE_KINDS or q.kind == "period_vs_minutes":
        truth = float(q.value)
        err = abs(value - truth) / abs(truth) if truth else (0.0 if value == 0 else 1.0)
        return Score(err <= REL_TOL + 1e-9, True, err)
    if q.kind in DAY_KINDS:
        return Score(value in {q.value, *q.accept}, True)
    if q.kind == "period_vs_more":
        return Score(value == q.value, True)
    raise ValueError(f"unknown question kind {q.kind!r}")


def coerce_period(kind: str, answer: Any) -> Any:
    """The scoring form of an answer, or None when it says nothing readable."""
    if answer is None or isinstance(answer, bool):
        return None
    if kind in MINUTE_KINDS:
        return parse_minutes(answer)
    if kind == "period_vs_minutes":
        return parse_signed_minutes(answer)
    if kind in DAY_KINDS:
        if isinstance(answer, date):
            return answer.isoformat()
        m = _DATE.search(str(answer))
        return m.group(0) if m else None
    if kind == "period_vs_more":
        s = norm_name(answer)
        if s.startswith("more"):
            return "more"
        return "less" if s.startswith(("less", "fewer")) else None
    raise ValueError(f"unknown question kind {kind!r}")


def parse_signed_minutes(answer: Any) -> float | None:
    """Minutes with their sign: ``-12``, ``−1h05m``, ``+30 min``; "less by 5" is −5."""
    if isinstance(answer, int | float):
        return float(answer)
    s = str(answer).strip()
    minutes = parse_minutes(s)
    if minutes is None:
        return None
    m = _SIGNED.search(s)
    negative = (m is not None and m.group(1) in ("-", "−")) or bool(
        re.search(r"\b(less|fewer|decrease|down)\b", s, re.IGNORECASE)
    )
    return -abs(minutes) if negative else abs(minutes)
