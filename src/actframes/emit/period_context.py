"""The period context block: several days' facts as compact lines for a prompt.

The grammar is in SPEC.md ("The period block"). One line per local day (weekday,
first–last, active, away, top apps and projects), the period's totals, its ledger, app
totals (with each app's busiest day), projects, categories and the references viewed
most (with the first and last day of their views). Frames, gaps and away periods belong
to the day blocks: a period block names the day block to ask for instead.

To fit the budget: viewed lines go (least ranked first) down to ``MIN_VIEWED``, while the
categories and then the days' project and app cells (down to one app each) make room;
then the viewed lines all go, then ledger lines from the smallest (an ``omitted`` line
counts them; the app totals keep their time).
The day lines and totals always stay.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..compile.disclosures import NO_INPUT, NO_INPUT_SPOT
from ..period_types import PeriodDay, PeriodDocument, PeriodShare
from .block_fit import largest
from .context import NOTE, NOTE_NO_INPUT, SEP, WORK_KINDS, _clip, _input, _q
from .durations import fmt_dur
from .share_lines import CATEGORIES_HEAD, UNASSIGNED, name
from .token_count import ENCODING, count_tokens, fits

DAY_APPS = 3  # apps named per day line, at most
DAY_PROJECTS = 2
VIEWED_LINES = 25
MIN_VIEWED = 5  # viewed lines kept while the day lines' cells can shrink instead
DAYS_HEAD = "days (MM-DD weekday · first–last · active · [away] · top apps · top projects)"
LEDGER_HEAD = "ledger (app · site · active · input · days)"
APPS_HEAD = "app totals (app · active · input · days · busiest day)"
PROJECTS_HEAD = "projects (project · active · input · days) · rules "
VIEWED_HEAD = "viewed most (kind · entity · views · days · first day · last day · label)"
LEGEND = (
    "# legend: a day's away = recorded away from the keyboard that day"
    " · app totals = an app's ledger lines added up · days = days with time on it"
)


def to_period_context(
    doc: PeriodDocument, budget: int = 2000, fits_budget: Callable[[str, int], bool] = fits
) -> str:
    """Render the period ``doc`` in at most ``budget`` o200k tokens where its day lines
    and totals allow; what is left out is said, and chosen deterministically."""
    recorded = NO_INPUT_SPOT not in doc["blind_spots"]
    inp = _input if recorded else (lambda counts: "-")
    made: dict[tuple[int, int], list[str]] = {}

    def block(level: int, viewed: int) -> str:
        return "\n".join(_lines(doc, level, viewed, inp, recorded, made)) + "\n"

    top = min(VIEWED_LINES, len(doc["viewed"]))
    if fits_budget(block(0, top), budget):
        return block(0, top)
    # A few viewed references are worth more than the days' second app or project:
    # the day cells shrink while that keeps MIN_VIEWED of them; then they all go.
    for level in range(_LEVELS + 1):
        n = largest(top, lambda k, lv=level: fits_budget(block(lv, k), budget))  # type: ignore[misc]
        if n >= min(MIN_VIEWED, top) and (n > 0 or fits_budget(block(level, 0), budget)):
            return block(level, n)
    for level in range(_LEVELS + len(doc["ledger"]) + 1):
        text = block(level, 0)
        if fits_budget(text, budget):
            return text
    return text + _not_met(text, budget)


_LEVELS = 5  # degradations before ledger lines go: see _shape


def _shape(level: int) -> tuple[bool, int, int, int]:
    """(categories shown, apps per day, projects per day, ledger lines dropped)."""
    if level <= 0:
        return True, DAY_APPS, DAY_PROJECTS, 0
    steps = [
        (False, DAY_APPS, DAY_PROJECTS),
        (False, DAY_APPS, 1),
        (False, 2, 1),
        (False, 2, 0),
        (False, 1, 0),
    ]  # each a smaller block than the one before
    cats, apps, projects = steps[min(level, _LEVELS) - 1]
    return cats, apps, projects, max(0, level - _LEVELS)


def _lines(
    doc: PeriodDocument,
    level: int,
    viewed: int,
    inp: Callable[[dict[str, object]], str],
    recorded: bool,
    made: dict[tuple[int, int], list[str]],
) -> list[str]:
    cats, day_apps, day_projects, dropped = _shape(level)
    w, t = doc["window"], doc["totals"]
    offset = w["start"][19:]
    span = f"{w['since']} {doc['days'][0]['weekday']} – {w['until']} {doc['days'][-1]['weekday']}"
    lines = [
        f"# activity period {w['label']} ({span}, {w['days']} days) · tz {w['tz']} ({offset})"
        " · measured from capture by deterministic rules, not inferred",
        NOTE if recorded else NOTE_NO_INPUT,
        LEGEND,
        "totals · active "
        + SEP.join(
            [
                fmt_dur(t["active_s"]),
                f"{t['days_active']} of {w['days']} days with activity",
                f"away {fmt_dur(t['away_s'])}",
                f"{t['rows']} rows",
                f"input {inp({'keys': t['keys'], 'clicks': t['clicks']})}"
                if recorded
                else NO_INPUT,
            ]
        ),
    ]
    busiest = max(doc["days"], key=lambda d: (d["active_s"], -_order(doc, d)))
    if busiest["active_s"]:
        b = busiest
        lines.append(f"busiest day {b['day'][5:]} {b['weekday']} · {fmt_dur(b['active_s'])}")
    key = (day_apps, day_projects)
    if key not in made:
        made[key] = [_day_line(d, day_apps, day_projects) for d in doc["days"]]
    lines += [DAYS_HEAD, *made[key]]
    ledger = doc["ledger"]
    shown = ledger[: len(ledger) - dropped] if dropped else ledger
    lines.append(LEDGER_HEAD)
    for e in shown:
        lines.append(
            "- "
            + SEP.join(
                [
                    _q(e["app"]),
                    _q(e.get("site")),
                    fmt_dur(e["active_s"]),
                    inp({"keys": e["keys"], "clicks": e["clicks"]}),
                    str(e["days"]),
                ]
            )
        )
    if len(shown) < len(ledger):
        rest = ledger[len(shown) :]
        lines.append(
            f"omitted {len(rest)} ledger lines ({fmt_dur(sum(e['active_s'] for e in rest))},"
            f" each at most {fmt_dur(rest[0]['active_s'])}) for the budget; the app totals"
            " count them"
        )
    lines.append(APPS_HEAD)
    for a in doc["apps"]:
        lines.append(
            "- "
            + SEP.join(
                [
                    _q(a["app"]),
                    fmt_dur(a["active_s"]),
                    inp({"keys": a["keys"], "clicks": a["clicks"]}),
                    str(a["days"]),
                    a["busiest"][5:] if a["busiest"] else "-",
                ]
            )
        )
    projects = doc["projects"]
    if projects["entries"]:
        lines.append(PROJECTS_HEAD + projects["rules"])
        for p in projects["entries"]:
            lines.append("- " + SEP.join(_share_cells(p, inp)))
        if projects.get("unassigned_s"):
            lines.append(f"- {UNASSIGNED} · {fmt_dur(projects.get('unassigned_s', 0))}")
    if cats and doc["categories"]["entries"]:
        lines.append(CATEGORIES_HEAD + doc["categories"]["rules"])
        for c in doc["categories"]["entries"]:
            lines.append("- " + SEP.join(_share_cells(c, inp)[:3]))
    lines += _viewed(doc, viewed)
    lines.append(
        "frames are not listed for a period: ask for one day's block (get_context with"
        " day=YYYY-MM-DD, or actframes context --since DAY --until DAY) for its frames,"
        " gaps and away periods"
    )
    return lines


def _order(doc: PeriodDocument, day: PeriodDay) -> int:
    return next(i for i, d in enumerate(doc["days"]) if d is day)


def _day_line(d: PeriodDay, apps: int, projects: int) -> str:
    head = f"- {d['day'][5:]} {d['weekday']}"
    if d["first"] is None or d["last"] is None:
        return head + " · no capture"
    # A time past midnight of a day that starts later (--day-start) is marked +1d.
    first, last = (
        t[11:16] + ("+1d" if t[:10] != d["day"] else "") for t in (d["first"], d["last"])
    )
    cells = [head, f"{first}–{last}", fmt_dur(d["active_s"])]
    if d["away_s"]:
        cells.append(f"away {fmt_dur(d['away_s'])}")
    top = [f"{_q(a['app'])} {fmt_dur(a['active_s'])}" for a in d["apps"][:apps] if a["active_s"]]
    cells.append(", ".join(top) or "-")
    if projects:
        names = [f"{name(p['name'])} {fmt_dur(p['active_s'])}" for p in d["projects"][:projects]]
        cells.append(", ".join(names) or "-")
    return SEP.join(cells)


def _share_cells(e: PeriodShare, inp: Callable[[dict[str, object]], str]) -> list[str]:
    return [
        name(e["name"]),
        fmt_dur(e["active_s"]),
        inp({"keys": e["keys"], "clicks": e["clicks"]}),
        str(e["days"]),
    ]


def _viewed(doc: PeriodDocument, limit: int) -> list[str]:
    """``limit`` references — work objects first (pull requests, issues, documents …, as
    the day block ranks them), then the most viewed — in order of first view."""
    seen = doc["viewed"]
    if not seen or limit <= 0:
        return [f"viewed: {len(seen)} references in the JSON document"] if seen else []
    ranked = sorted(
        range(len(seen)), key=lambda i: (seen[i]["kind"] not in WORK_KINDS, -seen[i]["views"], i)
    )[:limit]
    lines = [VIEWED_HEAD]
    for i in sorted(ranked):
        v = seen[i]
        cells = [
            v["kind"],
            _q(v["entity"]),
            str(v["views"]),
            str(len(v["days"])),
            v["first_day"][5:],
            v["last_day"][5:],
        ]
        if "label" in v:
            cells.append(json.dumps(_clip(v["label"]), ensure_ascii=False))
        lines.append("- " + SEP.join(cells))
    if len(seen) > limit:
        lines.append(f"- +{len(seen) - limit} more in the JSON document")
    return lines


def _not_met(text: str, budget: int) -> str:
    n = count_tokens(text)
    line = ""
    for _ in range(4):
        line = (
            f"budget {budget} {ENCODING} tokens not met: the smallest period block"
            f" (header, totals, day lines, app totals) is {n} tokens\n"
        )
        total = count_tokens(text + line)
        if total == n:
            break
        n = total
    return line
