"""What the simulated person looks at: the persona (seeded), the catalogue of windows
(files, pull requests, pages, channels, threads) and the tasks made of them."""

from __future__ import annotations

import random
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

SEC = 1_000
MIN = 60 * SEC

CODE = "Code"
CHROME = "Google Chrome"
SLACK = "Slack"
# Chrome on Linux appends this to window titles; on macOS the title is the page title.
CHROME_TITLE_SUFFIX = " - Google Chrome"


@dataclass(frozen=True, slots=True)
class Ctx:
    """What one focused window shows; ``activity`` picks the input profile and pace."""

    app: str
    title: str
    url: str | None
    activity: str


# --------------------------------------------------------------------------- catalogue

_FILES = (
    "model.py",
    "cli.py",
    "sessionize.py",
    "enrich.py",
    "store.py",
    "timeparse.py",
    "document.py",
    "test_sessionize.py",
    "test_store.py",
    "README.md",
    "SPEC.md",
    "pyproject.toml",
)
_INFRA_FILES = ("main.tf", "variables.tf", "deploy.yml", "Dockerfile")
_PRS = (
    ("psf/requests", 6712, "Fix proxy authentication header on redirect", "nateprewitt"),
    ("pallets/click", 2801, "Add shell completion for zsh aliases", "davidism"),
    ("encode/httpx", 3342, "Handle HTTP/2 stream resets during reads", "tomchristie"),
    ("python/cpython", 118923, "gh-118922: Speed up zoneinfo cache lookups", "pganssle"),
    ("acme/actframes", 42, "Sessionize: fold A→B→A flickers", "alexkim"),
    ("acme/actframes", 57, "Native store: schema migrations v2", "jlee"),
)
_ISSUES = (
    ("pallets/click", 2745, "Option with multiple=True ignores envvar"),
    ("psf/requests", 6650, "Session.close() leaves pooled sockets open"),
    ("acme/actframes", 31, "Context block exceeds the token budget on long days"),
    ("python/mypy", 17322, "False positive with TypeGuard and overloads"),
)
_REPOS = (
    ("encode/httpx", "A next generation HTTP client for Python. 🦋"),
    ("psf/requests", "A simple, yet elegant, HTTP library."),
    ("acme/actframes", "Compile screen activity into auditable activity frames"),
    ("astral-sh/ruff", "An extremely fast Python linter and code formatter, written in Rust."),
)
_PYDOCS = (
    ("sqlite3", "sqlite3 — DB-API 2.0 interface for SQLite databases"),
    ("zoneinfo", "zoneinfo — IANA time zone support"),
    ("dataclasses", "dataclasses — Data Classes"),
    ("datetime", "datetime — Basic date and time types"),
    ("bisect", "bisect — Array bisection algorithm"),
    ("subprocess", "subprocess — Subprocess management"),
)
_SO = (
    (16981921, "relative-imports-in-python-3", "Relative imports in Python 3"),
    (
        4770297,
        "convert-utc-datetime-string-to-local-datetime",
        "Convert UTC datetime string to local",
    ),
    (
        1319615,
        "proper-way-to-declare-custom-exceptions-in-modern-python",
        "Proper way to declare custom exceptions in modern Python?",
    ),
    (3300464, "how-can-i-get-dict-from-sqlite-query", "How can I get dict from sqlite query?"),
    (
        53418046,
        "how-do-i-type-hint-a-method-with-the-type-of-the-enclosing-class",
        "How do I type hint a method with the type of the enclosing class?",
    ),
)
SLACK_CHANNELS = (
    "#eng-backend",
    "#general",
    "#incidents",
    "#actframes-dev",
    "#random",
    "Jordan Lee (DM)",
    "Sam Ortiz (DM)",
    "Threads",
)
_MAIL_SUBJECTS = (
    "Re: Q2 roadmap review",
    "Invitation: Design review @ Thu 14:00",
    "[acme/actframes] Sessionize: fold A→B→A flickers (#42)",
    "Your AWS bill for February",
    "Re: Interview loop feedback",
)
_VIDEOS = (
    "PyCon US 2024 - Making Python faster without the hassle",
    "SQLite internals: how the B-tree works",
    "lofi hip hop radio - beats to relax/study to",
)
_PEOPLE = ("Priya Raman", "Marcus Webb", "Elena Petrova", "Tomás García")
_ID_CHARS = string.ascii_letters + string.digits + "-_"


@dataclass(frozen=True, slots=True)
class _Persona:
    """What stays the same for one person across days: platform, names, documents."""

    mac: bool
    user: str
    docs: tuple[tuple[str, str], ...]  # (Google Docs id, title)
    profiles: tuple[str, ...]  # LinkedIn slugs matching _PEOPLE


def persona_of(seed: int) -> _Persona:
    rng = random.Random(f"{seed}:persona")
    doc_titles = ("Design: activity frames v1", "Q2 planning notes", "On-call handbook")
    docs = tuple((_token(rng, 44), t) for t in doc_titles)
    profiles = tuple(f"{_slug(p)}-{_token(rng, 6).lower()}" for p in _PEOPLE)
    return _Persona(mac=rng.random() < 0.7, user="alex", docs=docs, profiles=profiles)


def _slug(name: str) -> str:
    """A URL slug as LinkedIn makes them: ASCII, lower case, dashes."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return ascii_name.lower().replace(" ", "-")


def _token(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_ID_CHARS) for _ in range(n))


class Catalog:
    """Builds contexts: real-looking app names, titles and URLs for one persona."""

    def __init__(self, persona: _Persona) -> None:
        self.p = persona
        self.terminal = "Terminal" if persona.mac else "gnome-terminal"
        self.files_app = "Finder" if persona.mac else "Files"
        self.zoom = "zoom.us" if persona.mac else "zoom"

    def code(self, file: str, project: str = "actframes", dirty: bool = False) -> Ctx:
        mark = "● " if dirty else ""
        return Ctx(CODE, f"{mark}{file} — {project} — Visual Studio Code", None, "code")

    def term(self, rng: random.Random, project: str = "actframes") -> Ctx:
        if self.p.mac:
            cmd = rng.choice(("-zsh", "python3.11", "git", "-zsh"))
            title = f"{project} — {cmd} — 120×36"
        else:
            title = f"{self.p.user}@devbox: ~/src/{project}"
        return Ctx(self.terminal, title, None, "terminal")

    def files(self, rng: random.Random) -> Ctx:
        where = rng.choice(("Downloads", "actframes", "Desktop" if self.p.mac else "Home"))
        return Ctx(self.files_app, where, None, "files")

    def web(self, title: str, url: str, activity: str) -> Ctx:
        suffix = "" if self.p.mac else CHROME_TITLE_SUFFIX
        return Ctx(CHROME, title + suffix, url, activity)

    def pr(self, rng: random.Random) -> Ctx:
        return self.pr_tab(rng.choice(_PRS))

    def pr_tab(self, pr: tuple[str, int, str, str], tab: str = "") -> Ctx:
        repo, n, title, author = pr
        url = f"https://github.com/{repo}/pull/{n}" + (f"/{tab}" if tab else "")
        return self.web(f"{title} by {author} · Pull Request #{n} · {repo} · GitHub", url, "read")

    def issue(self, rng: random.Random) -> Ctx:
        repo, n, title = rng.choice(_ISSUES)
        url = f"https://github.com/{repo}/issues/{n}"
        return self.web(f"{title} · Issue #{n} · {repo} · GitHub", url, "read")

    def repo(self, rng: random.Random) -> Ctx:
        repo, blurb = rng.choice(_REPOS)
        return self.web(f"GitHub - {repo}: {blurb}", f"https://github.com/{repo}", "browse")

    def pydoc(self, rng: random.Random) -> Ctx:
        mod, title = rng.choice(_PYDOCS)
        url = f"https://docs.python.org/3/library/{mod}.html"
        return self.web(f"{title} — Python 3.11.7 documentation", url, "read")

    def so(self, rng: random.Random) -> Ctx:
        qid, slug, title = rng.choice(_SO)
        url = f"https://stackoverflow.com/questions/{qid}/{slug}"
        return self.web(f"python - {title} - Stack Overflow", url, "read")

    def inbox(self, rng: random.Random) -> Ctx:
        unread = rng.randint(2, 30)
        title = f"Inbox ({unread}) - {self.p.user}.kim@acme.dev - Acme Mail"
        return self.web(title, "https://mail.google.com/mail/u/0/#inbox", "browse")

    def thread(self, rng: random.Random) -> Ctx:
        subject = rng.choice(_MAIL_SUBJECTS)
        url = f"https://mail.google.com/mail/u/0/#inbox/FMfcgz{_token(rng, 26)}"
        return self.web(f"{subject} - {self.p.user}.kim@acme.dev - Acme Mail", url, "chat")

    def doc(self, rng: random.Random) -> Ctx:
        doc_id, title = rng.choice(self.p.docs)
        url = f"https://docs.google.com/document/d/{doc_id}/edit"
        return self.web(f"{title} - Google Docs", url, "write")

    def linkedin(self, rng: random.Random) -> Ctx:
        i = rng.randrange(len(_PEOPLE))
        url = f"https://www.linkedin.com/in/{self.p.profiles[i]}/"
        return self.web(f"{_PEOPLE[i]} | LinkedIn", url, "browse")

    def youtube(self, rng: random.Random) -> Ctx:
        url = f"https://www.youtube.com/watch?v={_token(rng, 11)}"
        return self.web(f"{rng.choice(_VIDEOS)} - YouTube", url, "video")

    def localhost(self, rng: random.Random) -> Ctx:
        path, title = rng.choice((("/", "actframes — timeline"), ("/frames", "Frames · actframes")))
        return self.web(title, f"http://localhost:8000{path}", "browse")

    def slack(self, channel: str, activity: str = "chat") -> Ctx:
        return Ctx(SLACK, f"{channel} - Acme - Slack", None, activity)

    def meeting(self) -> Ctx:
        return Ctx(self.zoom, "Zoom Meeting", None, "meeting")

    def glance(self, rng: random.Random, away_from: str) -> Ctx:
        """A quick look elsewhere (a flicker): mostly Slack, sometimes mail."""
        if away_from != SLACK and rng.random() < 0.7:
            return self.slack(rng.choice(SLACK_CHANNELS[:5]), "glance")
        if away_from != CHROME:
            return replace(self.inbox(rng), activity="glance")
        return self.slack(rng.choice(SLACK_CHANNELS[:5]), "glance")


# --------------------------------------------------------------------------- tasks

_Step = tuple[Ctx, int]
Task = Callable[[random.Random, Catalog], list[_Step]]


def secs(rng: random.Random, lo_s: int, hi_s: int) -> int:
    """A duration in ms, uniformly between lo_s and hi_s seconds, at ms resolution."""
    return rng.randint(lo_s * SEC, hi_s * SEC)


def _task_coding(rng: random.Random, cat: Catalog) -> list[_Step]:
    project, files = ("infra", _INFRA_FILES) if rng.random() < 0.12 else ("actframes", _FILES)
    file = rng.choice(files)
    steps: list[_Step] = []
    for _ in range(rng.randint(3, 9)):
        r = rng.random()
        if r < 0.35:  # edit: the title gains VS Code's unsaved marker, then loses it on save
            steps.append((cat.code(file, project), secs(rng, 5, 40)))
            steps.append((cat.code(file, project, dirty=True), secs(rng, 40, 300)))
            steps.append((cat.code(file, project), secs(rng, 10, 120)))
        else:
            steps.append((cat.code(file, project), secs(rng, 30, 240)))
        r = rng.random()
        if r < 0.3:  # run something: a longer detour to the terminal
            steps.append((cat.term(rng, project), secs(rng, 15, 150)))
        elif r < 0.45:
            steps.append(((cat.pydoc if rng.random() < 0.5 else cat.so)(rng), secs(rng, 30, 240)))
        elif r < 0.53:
            steps.append((cat.localhost(rng), secs(rng, 10, 60)))
        elif r < 0.7:
            file = rng.choice(files)
    return steps


def _task_review(rng: random.Random, cat: Catalog) -> list[_Step]:
    pr = rng.choice(_PRS)
    steps: list[_Step] = [(cat.pr_tab(pr), secs(rng, 40, 240))]
    files_tab = cat.pr_tab(pr, "files")
    steps.append((files_tab, secs(rng, 120, 600)))
    if rng.random() < 0.5:
        steps.append((cat.code(rng.choice(_FILES)), secs(rng, 30, 180)))
        steps.append((files_tab, secs(rng, 30, 240)))
    if rng.random() < 0.4:
        steps.append((cat.issue(rng), secs(rng, 30, 180)))
    return steps


def _task_comms(rng: random.Random, cat: Catalog) -> list[_Step]:
    steps: list[_Step] = []
    for ch in rng.sample(SLACK_CHANNELS, rng.randint(1, 4)):
        steps.append((cat.slack(ch), secs(rng, 20, 300)))
    if rng.random() < 0.6:
        steps.append((cat.inbox(rng), secs(rng, 20, 120)))
        for _ in range(rng.randint(1, 3)):
            steps.append((cat.thread(rng), secs(rng, 30, 240)))
    return steps


def _task_docs(rng: random.Random, cat: Catalog) -> list[_Step]:
    doc = cat.doc(rng)
    steps: list[_Step] = [(doc, secs(rng, 180, 900))]
    if rng.random() < 0.5:
        steps.append((cat.pydoc(rng), secs(rng, 30, 120)))
        steps.append((doc, secs(rng, 120, 600)))
    return steps


def _task_research(rng: random.Random, cat: Catalog) -> list[_Step]:
    pages = (cat.so, cat.pydoc, cat.repo, cat.issue)
    return [(rng.choice(pages)(rng), secs(rng, 20, 200)) for _ in range(rng.randint(2, 6))]


def _task_misc(rng: random.Random, cat: Catalog) -> list[_Step]:
    r = rng.random()
    if r < 0.35:
        return [(cat.linkedin(rng), secs(rng, 40, 200))]
    if r < 0.6:  # a long detour: one change row, then minutes of a static screen
        return [(cat.youtube(rng), secs(rng, 180, 540))]
    if r < 0.8:
        return [(cat.files(rng), secs(rng, 10, 60)), (cat.term(rng), secs(rng, 10, 60))]
    return [(cat.repo(rng), secs(rng, 30, 180))]


WEEKDAY_TASKS: tuple[tuple[Task, int], ...] = (
    (_task_coding, 36),
    (_task_review, 14),
    (_task_comms, 16),
    (_task_docs, 8),
    (_task_research, 12),
    (_task_misc, 8),
)
WEEKEND_TASKS: tuple[tuple[Task, int], ...] = (
    (_task_coding, 20),
    (_task_research, 25),
    (_task_misc, 40),
    (_task_comms, 15),
)
