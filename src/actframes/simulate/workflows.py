"""A seeded multi-day history of *steps*: what a user clicked and typed, on which
element, on which page, with the routines a real office week has and the free work
around them. Written as a screenpipe-style database whose ``ui_events`` carry the
element role and name (as accessibility-aware recorders store them), so routine mining,
R and h can be measured on it.

Routines (each with variants and values that change every time):

- ``expense``: a claim form (description, amount, category, date, optional receipt),
  submitted to a claim page with a new id;
- ``review``: approving a pull request on its own numbered page;
- ``crm``: copying a spreadsheet row into a contact form, cell by cell;
- ``timesheet``: logging hours against a project at the end of the day;
- ``deploy``: running a pipeline on a branch.

Free work: editing code (file tabs, the editor), reading docs (links, scrolling), chat
and mail (messages to varying channels and threads), generic dialogs (OK / Cancel).
Times: a workday from about 09:00 with a lunch break and short breaks (session gaps),
a few seconds between actions, longer between tasks. Same seed, same bytes.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import NamedTuple

from ..window import day_window
from .writers import SCREENPIPE_SCHEMA, _new_file, format_ts

BROWSER = "Google Chrome"
SHEET = "LibreOffice Calc"
EDITOR = "Code"
CHAT = "Slack"


class UIAction(NamedTuple):
    ts_ms: int
    kind: str  # click, key, text, clipboard, paste, scroll
    app: str
    title: str
    url: str | None
    role: str | None
    name: str | None
    x: int | None
    y: int | None
    text: str | None = None


class StepDay(NamedTuple):
    day: str
    tz: str
    actions: list[UIAction]


# One intended action: (op, app, title, url, role, name, x, y, text); op "landed" is a
# page the previous action opened (a submitted form), "navigate" one the user opened.
_Act = tuple[str, str, str, str | None, str | None, str | None, int | None, int | None, str | None]

_FIRST = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fatma", "Goran", "Hana", "Ivo", "Jun", "Kemal"]
_LAST = ["Novak", "Smith", "Okafor", "Tanaka", "Rossi", "Schmidt", "Costa", "Haddad", "Kim"]
_MODULES = (
    "cli",
    "model",
    "ledger",
    "place",
    "flicker",
    "attribute",
    "document",
    "json_out",
    "context",
    "tokens",
    "entities",
    "recorder",
    "store",
    "policy",
    "mine",
    "plan",
    "replay",
    "window",
    "errors",
    "cache",
    "verify",
    "report",
    "markdown",
    "yaml_out",
    "x11",
    "idle",
    "privacy",
    "config",
    "daemon",
    "atspi",
    "browser",
    "retention",
)
# A project's files: modules and their tests in a few packages (picked with a long tail,
# as people mostly work on a few files).
_FILES = [f"{pkg}/{m}.py" for pkg in ("src", "tests", "bench") for m in _MODULES]
_FILE_WEIGHTS = [1000 // (k + 4) for k in range(len(_FILES))]
_DOCS = [
    "sqlite3",
    "json",
    "zoneinfo",
    "bisect",
    "hashlib",
    "itertools",
    "functools",
    "typing",
    "pathlib",
    "subprocess",
    "threading",
    "re",
    "argparse",
    "datetime",
]
_CHANNELS = [
    "#general",
    "#dev",
    "#random",
    "#support",
    "#releases",
    "#design",
    "#ops",
    "#incidents",
    "#hiring",
    "#sales",
    "#marketing",
    "#data",
    "#infra",
    "#qa",
    "#docs",
    "#frontend",
    "#backend",
    "#mobile",
    "#security",
    "#announcements",
]
_PEOPLE = [f"{f} {ln}" for f in _FIRST for ln in _LAST[:3]]
_SUBJECTS = [
    "Quarterly numbers",
    "Lunch on Friday?",
    "Re: invoice 2231",
    "Onboarding plan",
    "Travel booking",
    "Re: API limits",
    "Team offsite",
    "Security review",
]


def _typed(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz ") for _ in range(n)).strip() or "x"


def _expense(rng: random.Random, s: _State) -> list[_Act]:
    t = "New claim – Expenses"
    u = "https://expenses.acme.test/claims/new"
    cat = "Travel" if rng.random() < 0.8 else rng.choice(["Meals", "Lodging"])
    acts: list[_Act] = [
        ("navigate", BROWSER, t, u, None, None, None, None, None),
        ("click", BROWSER, t, u, "entry", "Description", 640, 300, None),
        ("type", BROWSER, t, u, "entry", "Description", None, None, _typed(rng, 18)),
        ("click", BROWSER, t, u, "entry", "Amount", 640, 360, None),
        ("type", BROWSER, t, u, "entry", "Amount", None, None, str(rng.randint(12, 900))),
        ("click", BROWSER, t, u, "combo box", "Category", 640, 420, None),
        ("click", BROWSER, t, u, "list item", cat, 640, 470, None),
        ("click", BROWSER, t, u, "entry", "Date", 640, 480, None),
        ("type", BROWSER, t, u, "entry", "Date", None, None, s.today),
    ]
    if rng.random() < 0.4:
        acts.append(("click", BROWSER, t, u, "push button", "Attach receipt", 640, 540, None))
    acts.append(("click", BROWSER, t, u, "push button", "Submit claim", 640, 600, None))
    s.claim += rng.randint(1, 9)
    u2 = f"https://expenses.acme.test/claims/{s.claim}"
    acts.append(
        ("landed", BROWSER, f"Claim {s.claim} – Expenses", u2, None, None, None, None, None)
    )
    return acts


def _review(rng: random.Random, s: _State) -> list[_Act]:
    n = rng.randint(300, 480)
    u = f"https://github.com/acme/api/pull/{n}"
    t = f"Fix flaky test #{n} · acme/api"
    return [
        ("navigate", BROWSER, t, u, None, None, None, None, None),
        ("click", BROWSER, t, u, "page tab", "Files changed", 720, 210, None),
        ("scroll", BROWSER, t, u + "/files", None, None, 900, 600, None),
        ("click", BROWSER, t, u + "/files", "push button", "Review changes", 1700, 260, None),
        ("click", BROWSER, t, u + "/files", "radio button", "Approve", 1500, 420, None),
        ("click", BROWSER, t, u + "/files", "push button", "Submit review", 1560, 520, None),
    ]


def _crm(rng: random.Random, s: _State) -> list[_Act]:
    s.lead_row += 1
    r = s.lead_row
    st, su = "leads.xlsx - LibreOffice Calc", None
    wt, wu = "New contact – CRM", "https://crm.acme.test/contacts/new"
    acts: list[_Act] = [("navigate", BROWSER, wt, wu, None, None, None, None, None)]
    for col, field, y in (("A", "Full name", 280), ("B", "Email", 340), ("C", "Company", 400)):
        acts += [
            (
                "click",
                SHEET,
                st,
                su,
                "table cell",
                f"{col}{r}",
                120 + 90 * "ABC".index(col),
                200,
                None,
            ),
            ("copy", SHEET, st, su, "table cell", f"{col}{r}", None, None, None),
            ("click", BROWSER, wt, wu, "entry", field, 700, y, None),
            ("paste", BROWSER, wt, wu, "entry", field, None, None, None),
        ]
    acts.append(("click", BROWSER, wt, wu, "push button", "Save contact", 700, 480, None))
    return acts


def _timesheet(rng: random.Random, s: _State) -> list[_Act]:
    t, u = "Log time – Timesheet", "https://timesheet.acme.test/log"
    return [
        ("navigate", BROWSER, t, u, None, None, None, None, None),
        ("click", BROWSER, t, u, "combo box", "Project", 600, 300, None),
        ("click", BROWSER, t, u, "list item", "Activity Frames", 600, 350, None),
        ("click", BROWSER, t, u, "entry", "Hours", 600, 400, None),
        ("type", BROWSER, t, u, "entry", "Hours", None, None, str(rng.randint(5, 9))),
        ("click", BROWSER, t, u, "push button", "Log time", 600, 460, None),
    ]


def _deploy(rng: random.Random, s: _State) -> list[_Act]:
    t, u = "Pipelines · acme/api · CI", "https://ci.acme.test/acme/api/pipelines"
    s.pipeline += rng.randint(1, 30)
    u2 = f"{u}/{s.pipeline}"
    return [
        ("navigate", BROWSER, t, u, None, None, None, None, None),
        ("click", BROWSER, t, u, "push button", "Run pipeline", 1600, 180, None),
        ("click", BROWSER, t, u, "combo box", "Branch", 900, 380, None),
        ("click", BROWSER, t, u, "list item", "main", 900, 430, None),
        ("click", BROWSER, t, u, "push button", "Run", 1100, 560, None),
        ("landed", BROWSER, f"Pipeline #{s.pipeline} · CI", u2, None, None, None, None, None),
    ]


def _coding(rng: random.Random, s: _State) -> list[_Act]:
    out: list[_Act] = []
    for _ in range(rng.randint(3, 9)):
        f = rng.choices(_FILES, _FILE_WEIGHTS)[0]
        t = f"{f} - actframes - Visual Studio Code"
        how = rng.random()
        if how < 0.5:
            out.append(("click", EDITOR, t, None, "page tab", f, rng.randint(200, 1400), 60, None))
        elif how < 0.7:
            out.append(("click", EDITOR, t, None, "tree item", f, 120, rng.randint(150, 900), None))
        # The editor's text area has no accessible name of its own.
        out.append(
            ("type", EDITOR, t, None, "text", "", None, None, _typed(rng, rng.randint(5, 60)))
        )
    return out


def _reading(rng: random.Random, s: _State) -> list[_Act]:
    out: list[_Act] = []
    for _ in range(rng.randint(2, 6)):
        m = rng.choice(_DOCS)
        u = f"https://docs.python.org/3/library/{m}.html"
        t = f"{m} — Python 3 documentation"
        out.append(("navigate", BROWSER, t, u, None, None, None, None, None))
        for _ in range(rng.randint(0, 3)):
            out.append(("scroll", BROWSER, t, u, None, None, 900, 600, None))
        if rng.random() < 0.5:
            name = f"{m}.{rng.choice(['connect', 'loads', 'dumps', 'open', 'run', 'compile'])}()"
            out.append(
                (
                    "click",
                    BROWSER,
                    t,
                    u,
                    "link",
                    name,
                    rng.randint(300, 1200),
                    rng.randint(200, 900),
                    None,
                )
            )
    return out


def _chat(rng: random.Random, s: _State) -> list[_Act]:
    out: list[_Act] = []
    for _ in range(rng.randint(1, 3)):
        ch = rng.choice(_CHANNELS) if rng.random() < 0.5 else rng.choice(_PEOPLE)
        t = f"{ch.lstrip('#')} - Acme - Slack"
        out.append(("click", CHAT, t, None, "link", ch, 150, rng.randint(150, 900), None))
        how = rng.random()
        if how < 0.3:
            out.append(("scroll", CHAT, t, None, None, None, 900, 500, None))
        elif how < 0.45:
            out.append(
                (
                    "click",
                    CHAT,
                    t,
                    None,
                    "link",
                    f"{rng.randint(2, 14)} replies",
                    700,
                    rng.randint(200, 800),
                    None,
                )
            )
        if rng.random() < 0.7:
            out += [
                ("click", CHAT, t, None, "entry", f"Message {ch}", 900, 1000, None),
                (
                    "type",
                    CHAT,
                    t,
                    None,
                    "entry",
                    f"Message {ch}",
                    None,
                    None,
                    _typed(rng, rng.randint(8, 80)),
                ),
            ]
        elif rng.random() < 0.5:
            out.append(
                (
                    "click",
                    CHAT,
                    t,
                    None,
                    "push button",
                    rng.choice(["Add reaction", "Share message", "More actions"]),
                    1200,
                    rng.randint(200, 800),
                    None,
                )
            )
    return out


def _mail(rng: random.Random, s: _State) -> list[_Act]:
    subj = rng.choice(_SUBJECTS)
    t, u = f"{subj} - Mail", f"https://mail.acme.test/inbox/{rng.randint(10_000, 99_999)}"
    out: list[_Act] = [("navigate", BROWSER, t, u, None, None, None, None, None)]
    how = rng.random()
    if how < 0.35:
        out += [
            ("click", BROWSER, t, u, "push button", "Reply", 800, 300, None),
            (
                "type",
                BROWSER,
                t,
                u,
                "entry",
                "Message body",
                None,
                None,
                _typed(rng, rng.randint(20, 120)),
            ),
            ("click", BROWSER, t, u, "push button", "Send", 800, 700, None),
        ]
    elif how < 0.55:
        out.append(("click", BROWSER, t, u, "push button", "Archive", 600, 160, None))
    elif how < 0.7:
        out += [
            ("click", BROWSER, t, u, "push button", "Forward", 900, 300, None),
            ("click", BROWSER, t, u, "entry", "To", 800, 250, None),
            ("type", BROWSER, t, u, "entry", "To", None, None, rng.choice(_PEOPLE)),
            ("click", BROWSER, t, u, "push button", "Send", 800, 700, None),
        ]
    elif how < 0.85:
        out.append(
            ("click", BROWSER, t, u, "link", f"{subj.split()[0].lower()}.pdf", 700, 520, None)
        )
    else:
        out.append(("scroll", BROWSER, t, u, None, None, 900, 600, None))
    return out


def _dialog(rng: random.Random, s: _State) -> list[_Act]:
    app = rng.choice([EDITOR, BROWSER, SHEET])
    return [
        ("click", app, "Dialog", None, "push button", rng.choice(["OK", "Cancel"]), 960, 540, None)
    ]


class _State:
    def __init__(self, today: str) -> None:
        self.today = today
        self.claim = 4100
        self.lead_row = 1
        self.pipeline = 9000


_ROUTINES: dict[str, tuple[Callable[[random.Random, _State], list[_Act]], float]] = {
    "expense": (_expense, 0.6),
    "review": (_review, 0.7),
    "crm": (_crm, 0.5),
    "deploy": (_deploy, 0.4),
}
_FREE: list[tuple[Callable[[random.Random, _State], list[_Act]], int]] = [
    (_coding, 40),
    (_reading, 18),
    (_chat, 18),
    (_mail, 10),
    (_dialog, 6),
]


def simulate_workflows(
    first_day: str = "2026-03-02",
    n_days: int = 15,
    tz: str = "Europe/Berlin",
    seed: int = 11,
    *,
    every_day: bool = False,
    fill_workday: bool = False,
) -> list[StepDay]:
    """``n_days`` consecutive workdays (weekends skipped) of steps; with ``every_day``,
    consecutive calendar days, so the content of the k-th day depends on the seed only
    (the demo moves its dates with the clock and keeps its content). ``fill_workday``
    spreads each day's free work until the end-of-day habit (``_spread``); the actions
    stay the same, only later."""
    rng = random.Random(seed)
    out: list[StepDay] = []
    d = date.fromisoformat(first_day)
    st = _State(first_day)
    st.claim, st.lead_row, st.pipeline = 4100, 1, 9000
    while len(out) < n_days:
        if every_day or d.weekday() < 5:
            st.today = d.isoformat()
            acts, pauses = _day(rng, st, d.isoformat(), tz)
            out.append(StepDay(d.isoformat(), tz, _spread(acts, pauses) if fill_workday else acts))
        d += timedelta(days=1)
    return out


def _day(
    rng: random.Random, st: _State, day: str, tz: str
) -> tuple[list[UIAction], list[tuple[int, int]]]:
    """The day's actions, and the pauses between its tasks as (index of the action after
    the pause, pause in ms)."""
    base = day_window(day, tz).start_ms
    t = base + (9 * 3600 + rng.randint(0, 1800)) * 1000
    lunch = base + (12 * 3600 + rng.randint(0, 3600)) * 1000
    end = base + (17 * 3600 + rng.randint(0, 3600)) * 1000
    tasks: list[list[_Act]] = []
    # Routines of the day, at random moments among the free work.
    for fn, p in _ROUTINES.values():
        k = 0
        while rng.random() < p and k < 3:
            tasks.append(fn(rng, st))
            k += 1
    n_free = rng.randint(45, 70)
    weights = [w for _, w in _FREE]
    for _ in range(n_free):
        fn = rng.choices([f for f, _ in _FREE], weights)[0]
        tasks.append(fn(rng, st))
    rng.shuffle(tasks)
    tasks.append(_timesheet(rng, st))  # the end-of-day habit
    acts: list[UIAction] = []
    pauses: list[tuple[int, int]] = []
    lunched = False
    for i, task in enumerate(tasks):
        if not lunched and t >= lunch:
            t += rng.randint(40, 60) * 60_000
            lunched = True
        elif rng.random() < 0.04:
            t += rng.randint(6, 20) * 60_000  # a short break: a session gap
        if i == len(tasks) - 1:
            t = max(t, end)
        for op, app, title, url, role, name, x, y, text in task:
            # A page the last click opened ("landed") shows within a second or so.
            t += rng.randint(300, 1500) if op == "landed" else rng.randint(1500, 7000)
            acts.extend(_ui(op, app, title, url, role, name, x, y, text, t, rng))
            if op == "type" and text:
                t += 120 * len(text)  # the next action waits for the typing to end
        pause = rng.randint(8_000, 90_000)
        t += pause
        pauses.append((len(acts), pause))
    return acts, pauses


# A pause between tasks stays below the compiler's session gap (5 min, with the next
# task's first seconds): the person is at the desk, between two things.
LONGEST_PAUSE_MS = 280_000
# Time the pauses cannot take becomes breaks away from the desk of at most an hour.
LONGEST_BREAK_MS = 3_600_000


def _spread(acts: list[UIAction], pauses: list[tuple[int, int]]) -> list[UIAction]:
    """The day's free work spread over the time before its last task (the end-of-day
    habit, placed at the end of the workday): each pause between tasks grows in
    proportion, none beyond ``LONGEST_PAUSE_MS``; what is left becomes breaks (at most
    ``LONGEST_BREAK_MS`` each) at evenly spaced pauses; nothing passes the last task."""
    if len(pauses) < 2:
        return acts
    last_start = pauses[-2][0]  # the end-of-day task begins after the second-last pause
    if last_start <= 0 or last_start >= len(acts):
        return acts
    inner = pauses[:-2]
    slack = acts[last_start].ts_ms - acts[last_start - 1].ts_ms - pauses[-2][1]
    total = sum(p for _, p in inner)
    if slack <= 0 or total <= 0:
        return acts
    shift = [0] * (len(acts) + 1)
    for index, pause in inner:
        extra = min(pause * slack // total, LONGEST_PAUSE_MS - pause)
        shift[index] += max(extra, 0)
    left = slack - sum(shift)
    breaks = -(-left // LONGEST_BREAK_MS)  # ceiling: each break at most an hour
    for k in range(1, breaks + 1):
        shift[_break_after(acts, inner, k * len(inner) // (breaks + 1))] += left // breaks
    out: list[UIAction] = []
    moved = 0
    for i, a in enumerate(acts):
        if i < last_start:
            moved += shift[i]
            out.append(a._replace(ts_ms=a.ts_ms + moved))
        else:
            out.append(a)
    return out


def _ui(
    op: str,
    app: str,
    title: str,
    url: str | None,
    role: str | None,
    name: str | None,
    x: int | None,
    y: int | None,
    text: str | None,
    t: int,
    rng: random.Random,
) -> Iterator[UIAction]:
    jx = (x + rng.randint(-4, 4)) if x is not None else None
    jy = (y + rng.randint(-3, 3)) if y is not None else None
    if op in ("navigate", "landed"):
        yield UIAction(t, "navigate", app, title, url, None, None, None, None)
    elif op == "type":
        typed = text or ""
        for k, _ in enumerate(typed):
            yield UIAction(t + 120 * k, "key", app, title, url, role, name, None, None)
        yield UIAction(t + 120 * len(typed), "text", app, title, url, role, name, None, None, typed)
    elif op == "copy":
        yield UIAction(t, "clipboard", app, title, url, role, name, None, None)
    else:
        yield UIAction(t, op, app, title, url, role, name, jx, jy)


def write_workflows(path: str | Path, days: list[StepDay]) -> Path:
    """The history as a screenpipe-style database: a frame per page or window change
    and every few seconds of activity, and ``ui_events`` with elements. Typed text is
    stored in ``text`` events (a reader shows it only when the operator opts in)."""
    p = _new_file(path)
    conn = sqlite3.connect(p)
    try:
        conn.executescript(SCREENPIPE_SCHEMA)
        fid = eid = 0
        with conn:
            for day in days:
                frames: list[tuple[object, ...]] = []
                events: list[tuple[object, ...]] = []
                last: tuple[str, str, str | None] | None = None
                last_t = 0
                for a in day.actions:
                    ctx = (a.app, a.title, a.url)
                    if ctx != last or a.ts_ms - last_t >= 5_000:
                        fid += 1
                        ts = format_ts(a.ts_ms)
                        frames.append(
                            (
                                fid,
                                fid // 60,
                                fid % 60,
                                ts,
                                None,
                                a.url,
                                a.app,
                                a.title,
                                1,
                                "screen0",
                            )
                        )
                        last, last_t = ctx, a.ts_ms
                    if a.kind == "navigate":
                        continue
                    eid += 1
                    events.append(
                        (
                            eid,
                            format_ts(a.ts_ms),
                            f"sim-{day.day}",
                            None,
                            a.kind,
                            a.x,
                            a.y,
                            None,
                            None,
                            0 if a.kind == "click" else None,
                            1 if a.kind == "click" else None,
                            None,
                            None,
                            a.text,
                            len(a.text) if a.text else None,
                            a.app,
                            None,
                            a.title,
                            a.url,
                            a.role,
                            a.name,
                            None,
                            None,
                            None,
                            None,
                            fid,
                        )
                    )
                conn.executemany("INSERT INTO frames VALUES (?,?,?,?,?,?,?,?,?,?)", frames)
                conn.executemany(
                    "INSERT INTO ui_events VALUES (" + ",".join("?" * 26) + ")", events
                )
    finally:
        conn.close()
    return p


def _break_after(acts: list[UIAction], pauses: list[tuple[int, int]], k: int) -> int:
    """The action index of the first pause from the k-th on that does not follow typing:
    the simulated recorder writes no row when typing ends, so a break right after it
    would leave the last keys outside any frame."""
    for index, _ in pauses[k:]:
        if acts[index - 1].kind not in ("key", "text"):
            return index
    return pauses[k][0]
