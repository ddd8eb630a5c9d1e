"""The tasks of the simulated office week, each a list of intended actions: the routines
(expense claims, pull request reviews, CRM entry, timesheets, deploys), with variants and
values that change every time, and the free work around them (code, docs, chat, mail,
dialogs); with the names, files, pages and channels they draw from."""

from __future__ import annotations

import random
from collections.abc import Callable

BROWSER = "Google Chrome"
SHEET = "LibreOffice Calc"
EDITOR = "Code"
CHAT = "Slack"


# One intended action: (op, app, title, url, role, name, x, y, text); op "landed" is a
# page the previous action opened (a submitted form), "navigate" one the user opened.
Act = tuple[str, str, str, str | None, str | None, str | None, int | None, int | None, str | None]

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


def _expense(rng: random.Random, s: WorkState) -> list[Act]:
    t = "New claim – Expenses"
    u = "https://expenses.acme.test/claims/new"
    cat = "Travel" if rng.random() < 0.8 else rng.choice(["Meals", "Lodging"])
    acts: list[Act] = [
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


def _review(rng: random.Random, s: WorkState) -> list[Act]:
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


def _crm(rng: random.Random, s: WorkState) -> list[Act]:
    s.lead_row += 1
    r = s.lead_row
    st, su = "leads.xlsx - LibreOffice Calc", None
    wt, wu = "New contact – CRM", "https://crm.acme.test/contacts/new"
    acts: list[Act] = [("navigate", BROWSER, wt, wu, None, None, None, None, None)]
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


def timesheet_task(rng: random.Random, s: WorkState) -> list[Act]:
    t, u = "Log time – Timesheet", "https://timesheet.acme.test/log"
    return [
        ("navigate", BROWSER, t, u, None, None, None, None, None),
        ("click", BROWSER, t, u, "combo box", "Project", 600, 300, None),
        ("click", BROWSER, t, u, "list item", "Activity Frames", 600, 350, None),
        ("click", BROWSER, t, u, "entry", "Hours", 600, 400, None),
        ("type", BROWSER, t, u, "entry", "Hours", None, None, str(rng.randint(5, 9))),
        ("click", BROWSER, t, u, "push button", "Log time", 600, 460, None),
    ]


def _deploy(rng: random.Random, s: WorkState) -> list[Act]:
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


def _coding(rng: random.Random, s: WorkState) -> list[Act]:
    out: list[Act] = []
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


def _reading(rng: random.Random, s: WorkState) -> list[Act]:
    out: list[Act] = []
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


def _chat(rng: random.Random, s: WorkState) -> list[Act]:
    out: list[Act] = []
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


def _mail(rng: random.Random, s: WorkState) -> list[Act]:
    subj = rng.choice(_SUBJECTS)
    t, u = f"{subj} - Mail", f"https://mail.acme.test/inbox/{rng.randint(10_000, 99_999)}"
    out: list[Act] = [("navigate", BROWSER, t, u, None, None, None, None, None)]
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


def _dialog(rng: random.Random, s: WorkState) -> list[Act]:
    app = rng.choice([EDITOR, BROWSER, SHEET])
    return [
        ("click", app, "Dialog", None, "push button", rng.choice(["OK", "Cancel"]), 960, 540, None)
    ]


class WorkState:
    def __init__(self, today: str) -> None:
        self.today = today
        self.claim = 4100
        self.lead_row = 1
        self.pipeline = 9000


ROUTINES: dict[str, tuple[Callable[[random.Random, WorkState], list[Act]], float]] = {
    "expense": (_expense, 0.6),
    "review": (_review, 0.7),
    "crm": (_crm, 0.5),
    "deploy": (_deploy, 0.4),
}
FREE_WORK: list[tuple[Callable[[random.Random, WorkState], list[Act]], int]] = [
    (_coding, 40),
    (_reading, 18),
    (_chat, 18),
    (_mail, 10),
    (_dialog, 6),
]
