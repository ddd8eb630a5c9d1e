"""A seeded, realistic simulated workday: what a screen recorder and an input hook would
have written for one person's day.

Pure: the same (day, tz, seed, rows, devices) gives the same records on any machine. It
never reads the clock or the global ``random``; every draw comes from a ``random.Random``
seeded with a string built from the arguments (string seeds are hashed with SHA-512, so
they do not depend on ``PYTHONHASHSEED``).

The day is built in three layers, each with its own generator so that changing one knob
does not reshuffle the others:

1. the *timeline* — when the person works, is away, meets, and which window is focused
   (episodes of one app/title/URL), including flickers and longer detours;
2. the *rows* — what the recorder writes for that timeline: one row per change plus
   heartbeats on a static screen, their interval calibrated so the day has about ``rows``
   rows (the same human day, recorded sparsely or densely);
3. the *input* — key presses, clicks, scrolls, copies and pastes during the episodes.
"""

from __future__ import annotations

import random
import string
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta

from ..model import CLICK, COPY, KEY, PASTE, SCROLL, InputEvent, Snapshot, Span
from ..window import parse_day, zone

SEC = 1_000
MIN = 60 * SEC

CODE = "Code"
CHROME = "Google Chrome"
SLACK = "Slack"
# Chrome on Linux appends this to window titles; on macOS the title is the page title.
CHROME_TITLE_SUFFIX = " - Google Chrome"

# A weekend day in ``simulate_days`` has this fraction of the weekday row budget.
WEEKEND_ROWS_DIVISOR = 4
# Extra monitors are mostly static, so they get a smaller share of the row budget:
# the focused screen weighs this much against 1 for each other screen.
PRIMARY_ROW_WEIGHT = 3
# Bounds of the calibrated heartbeat interval (ms): dense enough for 100k-row days,
# never sparser than a recorder's slowest heartbeat.
MIN_HEARTBEAT_MS = 20
MAX_HEARTBEAT_MS = 60 * SEC
# Share of change rows the recorder writes twice at the same millisecond (a placeholder
# title first, then the real one), as recorders do when focus and title events coincide.
SAME_TS_SHARE = 0.02
# Input hooks learn of a focus change late: events in the first seconds after a switch
# are labelled with the previous app this often (about 1% of all events overall).
STALE_LAG_MS = 8 * SEC
STALE_APP_SHARE = 0.15


@dataclass(frozen=True, slots=True)
class SimDay:
    """One simulated local day: what a recorder stored for it."""

    day: str
    tz: str
    devices: tuple[str, ...]  # devices[0] is the screen with focus (where input goes)
    snapshots: list[Snapshot]
    events: list[InputEvent]
    afk: list[Span]


def simulate_day(
    day: str,
    tz: str,
    *,
    seed: int = 7,
    rows: int = 2600,
    devices: tuple[str, ...] = ("",),
) -> SimDay:
    """A weekday ~08:45-18:30 local in ``tz`` with about ``rows`` snapshot rows in total.

    ``rows`` sets the recorder's density (heartbeat interval), not the person's day: the
    timeline, AFK spans and input events are the same for any ``rows``. A day has a few
    hundred focus changes, each a row, so targets below that are not reached. With several
    ``devices``, ``devices[0]`` has focus and gets most rows; the others are mostly static.
    """
    return _simulate(day, tz, seed, rows, devices, light=False, first_row=1, first_event=1)


def simulate_days(
    start_day: str,
    n_days: int,
    tz: str,
    seed: int = 7,
    rows_per_day: int = 2600,
    *,
    devices: tuple[str, ...] = ("",),
) -> list[SimDay]:
    """Consecutive days from ``start_day``; weekends are lighter; ids continue across days.

    A weekday here has the same timeline and input as ``simulate_day`` for that date and
    seed, only with ids shifted.
    """
    if n_days < 1:
        raise ValueError("n_days must be at least 1")
    first = parse_day(start_day)
    out: list[SimDay] = []
    next_row, next_event = 1, 1
    for i in range(n_days):
        d = first + timedelta(days=i)
        light = d.weekday() >= 5
        target = max(1, rows_per_day // WEEKEND_ROWS_DIVISOR) if light else rows_per_day
        sim = _simulate(d.isoformat(), tz, seed, target, devices, light, next_row, next_event)
        next_row += len(sim.snapshots)
        next_event += len(sim.events)
        out.append(sim)
    return out


# --------------------------------------------------------------------------- timeline


@dataclass(frozen=True, slots=True)
class _Ctx:
    """What one focused window shows; ``activity`` picks the input profile and pace."""

    app: str
    title: str
    url: str | None
    activity: str


@dataclass(frozen=True, slots=True)
class _Ep:
    """An episode: one context focused over [start, end) (epoch ms)."""

    start: int
    end: int
    ctx: _Ctx


# Heartbeat interval per activity, in percent of the calibrated base: a recorder writes
# more often while the screen changes (typing) than on a static one (a video, a call).
_PACE: dict[str, int] = {
    "code": 80,
    "terminal": 70,
    "write": 85,
    "chat": 100,
    "read": 120,
    "browse": 100,
    "meeting": 150,
    "video": 160,
    "glance": 100,
    "files": 90,
    "static": 140,
}


@dataclass(frozen=True, slots=True)
class _Plan:
    """Local wall-clock offsets (ms after local midnight) of the day's shape."""

    start: int
    end: int
    away: tuple[tuple[int, int], ...]
    meetings: tuple[tuple[int, int], ...]


def _around(rng: random.Random, hh: int, mm: int, spread_min: int) -> int:
    base = (hh * 60 + mm) * MIN
    return base + rng.randint(-spread_min * MIN, spread_min * MIN)


def _span(rng: random.Random, start: int, lo_min: int, hi_min: int) -> tuple[int, int]:
    return start, start + rng.randint(lo_min * MIN, hi_min * MIN)


def _plan(rng: random.Random, light: bool) -> _Plan:
    """The day's shape. Ranges are chosen so that no two periods can overlap."""
    if light:
        return _Plan(
            start=_around(rng, 10, 30, 15),
            end=_around(rng, 16, 5, 15),
            away=(
                _span(rng, _around(rng, 11, 20, 5), 5, 15),
                _span(rng, _around(rng, 12, 15, 10), 90, 150),
            ),
            meetings=(),
        )
    return _Plan(
        start=_around(rng, 8, 45, 8),
        end=_around(rng, 18, 30, 10),
        away=(
            _span(rng, _around(rng, 10, 30, 15), 5, 15),  # coffee
            _span(rng, _around(rng, 12, 15, 15), 40, 50),  # lunch
            _span(rng, _around(rng, 15, 20, 15), 30, 50),  # the long away period
            _span(rng, _around(rng, 16, 55, 10), 5, 15),  # afternoon break
        ),
        meetings=(
            _span(rng, _around(rng, 9, 31, 1), 12, 20),  # stand-up
            _span(rng, _around(rng, 14, 0, 5), 25, 45),
        ),
    )


def _local_ms(d: date, tz: str, offset_ms: int) -> int:
    """Epoch ms of the local wall time ``offset_ms`` after midnight of ``d`` in ``tz``.

    Aware datetime + timedelta is wall-clock arithmetic, which is what a plan means by
    "08:45" even on a daylight-saving day.
    """
    wall = datetime(d.year, d.month, d.day, tzinfo=zone(tz)) + timedelta(milliseconds=offset_ms)
    return (wall - _EPOCH) // timedelta(milliseconds=1)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _present(start: int, end: int, away: list[Span]) -> list[tuple[int, int]]:
    """The at-desk periods: [start, end) minus the away spans (sorted, inside)."""
    out: list[tuple[int, int]] = []
    t = start
    for s in away:
        out.append((t, s.start_ms))
        t = s.end_ms
    out.append((t, end))
    return out


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
_SLACK_CHANNELS = (
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


def _persona(seed: int) -> _Persona:
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


class _Catalog:
    """Builds contexts: real-looking app names, titles and URLs for one persona."""

    def __init__(self, persona: _Persona) -> None:
        self.p = persona
        self.terminal = "Terminal" if persona.mac else "gnome-terminal"
        self.files_app = "Finder" if persona.mac else "Files"
        self.zoom = "zoom.us" if persona.mac else "zoom"

    def code(self, file: str, project: str = "actframes", dirty: bool = False) -> _Ctx:
        mark = "● " if dirty else ""
        return _Ctx(CODE, f"{mark}{file} — {project} — Visual Studio Code", None, "code")

    def term(self, rng: random.Random, project: str = "actframes") -> _Ctx:
        if self.p.mac:
            cmd = rng.choice(("-zsh", "python3.11", "git", "-zsh"))
            title = f"{project} — {cmd} — 120×36"
        else:
            title = f"{self.p.user}@devbox: ~/src/{project}"
        return _Ctx(self.terminal, title, None, "terminal")

    def files(self, rng: random.Random) -> _Ctx:
        where = rng.choice(("Downloads", "actframes", "Desktop" if self.p.mac else "Home"))
        return _Ctx(self.files_app, where, None, "files")

    def web(self, title: str, url: str, activity: str) -> _Ctx:
        suffix = "" if self.p.mac else CHROME_TITLE_SUFFIX
        return _Ctx(CHROME, title + suffix, url, activity)

    def pr(self, rng: random.Random) -> _Ctx:
        return self.pr_tab(rng.choice(_PRS))

    def pr_tab(self, pr: tuple[str, int, str, str], tab: str = "") -> _Ctx:
        repo, n, title, author = pr
        url = f"https://github.com/{repo}/pull/{n}" + (f"/{tab}" if tab else "")
        return self.web(f"{title} by {author} · Pull Request #{n} · {repo} · GitHub", url, "read")

    def issue(self, rng: random.Random) -> _Ctx:
        repo, n, title = rng.choice(_ISSUES)
        url = f"https://github.com/{repo}/issues/{n}"
        return self.web(f"{title} · Issue #{n} · {repo} · GitHub", url, "read")

    def repo(self, rng: random.Random) -> _Ctx:
        repo, blurb = rng.choice(_REPOS)
        return self.web(f"GitHub - {repo}: {blurb}", f"https://github.com/{repo}", "browse")

    def pydoc(self, rng: random.Random) -> _Ctx:
        mod, title = rng.choice(_PYDOCS)
        url = f"https://docs.python.org/3/library/{mod}.html"
        return self.web(f"{title} — Python 3.11.7 documentation", url, "read")

    def so(self, rng: random.Random) -> _Ctx:
        qid, slug, title = rng.choice(_SO)
        url = f"https://stackoverflow.com/questions/{qid}/{slug}"
        return self.web(f"python - {title} - Stack Overflow", url, "read")

    def inbox(self, rng: random.Random) -> _Ctx:
        unread = rng.randint(2, 30)
        title = f"Inbox ({unread}) - {self.p.user}.kim@acme.dev - Acme Mail"
        return self.web(title, "https://mail.google.com/mail/u/0/#inbox", "browse")

    def thread(self, rng: random.Random) -> _Ctx:
        subject = rng.choice(_MAIL_SUBJECTS)
        url = f"https://mail.google.com/mail/u/0/#inbox/FMfcgz{_token(rng, 26)}"
        return self.web(f"{subject} - {self.p.user}.kim@acme.dev - Acme Mail", url, "chat")

    def doc(self, rng: random.Random) -> _Ctx:
        doc_id, title = rng.choice(self.p.docs)
        url = f"https://docs.google.com/document/d/{doc_id}/edit"
        return self.web(f"{title} - Google Docs", url, "write")

    def linkedin(self, rng: random.Random) -> _Ctx:
        i = rng.randrange(len(_PEOPLE))
        url = f"https://www.linkedin.com/in/{self.p.profiles[i]}/"
        return self.web(f"{_PEOPLE[i]} | LinkedIn", url, "browse")

    def youtube(self, rng: random.Random) -> _Ctx:
        url = f"https://www.youtube.com/watch?v={_token(rng, 11)}"
        return self.web(f"{rng.choice(_VIDEOS)} - YouTube", url, "video")

    def localhost(self, rng: random.Random) -> _Ctx:
        path, title = rng.choice((("/", "actframes — timeline"), ("/frames", "Frames · actframes")))
        return self.web(title, f"http://localhost:8000{path}", "browse")

    def slack(self, channel: str, activity: str = "chat") -> _Ctx:
        return _Ctx(SLACK, f"{channel} - Acme - Slack", None, activity)

    def meeting(self) -> _Ctx:
        return _Ctx(self.zoom, "Zoom Meeting", None, "meeting")

    def glance(self, rng: random.Random, away_from: str) -> _Ctx:
        """A quick look elsewhere (a flicker): mostly Slack, sometimes mail."""
        if away_from != SLACK and rng.random() < 0.7:
            return self.slack(rng.choice(_SLACK_CHANNELS[:5]), "glance")
        if away_from != CHROME:
            return replace(self.inbox(rng), activity="glance")
        return self.slack(rng.choice(_SLACK_CHANNELS[:5]), "glance")


# --------------------------------------------------------------------------- tasks

_Step = tuple[_Ctx, int]
_Task = Callable[[random.Random, _Catalog], list[_Step]]


def _d(rng: random.Random, lo_s: int, hi_s: int) -> int:
    """A duration in ms, uniformly between lo_s and hi_s seconds, at ms resolution."""
    return rng.randint(lo_s * SEC, hi_s * SEC)


def _task_coding(rng: random.Random, cat: _Catalog) -> list[_Step]:
    project, files = ("infra", _INFRA_FILES) if rng.random() < 0.12 else ("actframes", _FILES)
    file = rng.choice(files)
    steps: list[_Step] = []
    for _ in range(rng.randint(3, 9)):
        r = rng.random()
        if r < 0.35:  # edit: the title gains VS Code's unsaved marker, then loses it on save
            steps.append((cat.code(file, project), _d(rng, 5, 40)))
            steps.append((cat.code(file, project, dirty=True), _d(rng, 40, 300)))
            steps.append((cat.code(file, project), _d(rng, 10, 120)))
        else:
            steps.append((cat.code(file, project), _d(rng, 30, 240)))
        r = rng.random()
        if r < 0.3:  # run something: a longer detour to the terminal
            steps.append((cat.term(rng, project), _d(rng, 15, 150)))
        elif r < 0.45:
            steps.append(((cat.pydoc if rng.random() < 0.5 else cat.so)(rng), _d(rng, 30, 240)))
        elif r < 0.53:
            steps.append((cat.localhost(rng), _d(rng, 10, 60)))
        elif r < 0.7:
            file = rng.choice(files)
    return steps


def _task_review(rng: random.Random, cat: _Catalog) -> list[_Step]:
    pr = rng.choice(_PRS)
    steps: list[_Step] = [(cat.pr_tab(pr), _d(rng, 40, 240))]
    files_tab = cat.pr_tab(pr, "files")
    steps.append((files_tab, _d(rng, 120, 600)))
    if rng.random() < 0.5:
        steps.append((cat.code(rng.choice(_FILES)), _d(rng, 30, 180)))
        steps.append((files_tab, _d(rng, 30, 240)))
    if rng.random() < 0.4:
        steps.append((cat.issue(rng), _d(rng, 30, 180)))
    return steps


def _task_comms(rng: random.Random, cat: _Catalog) -> list[_Step]:
    steps: list[_Step] = []
    for ch in rng.sample(_SLACK_CHANNELS, rng.randint(1, 4)):
        steps.append((cat.slack(ch), _d(rng, 20, 300)))
    if rng.random() < 0.6:
        steps.append((cat.inbox(rng), _d(rng, 20, 120)))
        for _ in range(rng.randint(1, 3)):
            steps.append((cat.thread(rng), _d(rng, 30, 240)))
    return steps


def _task_docs(rng: random.Random, cat: _Catalog) -> list[_Step]:
    doc = cat.doc(rng)
    steps: list[_Step] = [(doc, _d(rng, 180, 900))]
    if rng.random() < 0.5:
        steps.append((cat.pydoc(rng), _d(rng, 30, 120)))
        steps.append((doc, _d(rng, 120, 600)))
    return steps


def _task_research(rng: random.Random, cat: _Catalog) -> list[_Step]:
    pages = (cat.so, cat.pydoc, cat.repo, cat.issue)
    return [(rng.choice(pages)(rng), _d(rng, 20, 200)) for _ in range(rng.randint(2, 6))]


def _task_misc(rng: random.Random, cat: _Catalog) -> list[_Step]:
    r = rng.random()
    if r < 0.35:
        return [(cat.linkedin(rng), _d(rng, 40, 200))]
    if r < 0.6:  # a long detour: one change row, then minutes of a static screen
        return [(cat.youtube(rng), _d(rng, 180, 540))]
    if r < 0.8:
        return [(cat.files(rng), _d(rng, 10, 60)), (cat.term(rng), _d(rng, 10, 60))]
    return [(cat.repo(rng), _d(rng, 30, 180))]


_WEEKDAY_TASKS: tuple[tuple[_Task, int], ...] = (
    (_task_coding, 36),
    (_task_review, 14),
    (_task_comms, 16),
    (_task_docs, 8),
    (_task_research, 12),
    (_task_misc, 8),
)
_WEEKEND_TASKS: tuple[tuple[_Task, int], ...] = (
    (_task_coding, 20),
    (_task_research, 25),
    (_task_misc, 40),
    (_task_comms, 15),
)


def _fill(
    rng: random.Random, cat: _Catalog, start: int, end: int, tasks: tuple[tuple[_Task, int], ...]
) -> list[_Ep]:
    """Tasks back to back from start until end; the last episode is cut at end."""
    funcs = [t for t, _ in tasks]
    weights = [w for _, w in tasks]
    eps: list[_Ep] = []
    t = start
    while t < end:
        for ctx, dur in rng.choices(funcs, weights)[0](rng, cat):
            stop = min(t + dur, end)
            eps.append(_Ep(t, stop, ctx))
            t = stop
            if t >= end:
                break
    return eps


def _meeting(rng: random.Random, cat: _Catalog, start: int, end: int) -> list[_Ep]:
    """A call with one longer detour to a pull request part-way through."""
    zoom = cat.meeting()
    cut = start + (end - start) * rng.randint(30, 70) // 100
    detour = min(end, cut + _d(rng, 30, 90))
    return [_Ep(start, cut, zoom), _Ep(cut, detour, cat.pr(rng)), _Ep(detour, end, zoom)]


def _add_flickers(rng: random.Random, cat: _Catalog, eps: list[_Ep]) -> list[_Ep]:
    """A → B (2-15 s) → A inside some long episodes, more often during calls."""
    out: list[_Ep] = []
    for ep in eps:
        p = 0.6 if ep.ctx.activity == "meeting" else 0.18
        if ep.end - ep.start < 90 * SEC or rng.random() >= p:
            out.append(ep)
            continue
        at = rng.randint(ep.start + 20 * SEC, ep.end - 40 * SEC)
        back = at + _d(rng, 2, 15)
        b = cat.glance(rng, ep.ctx.app)
        out += [_Ep(ep.start, at, ep.ctx), _Ep(at, back, b), _Ep(back, ep.end, ep.ctx)]
    return out


def _merge(eps: list[_Ep]) -> list[_Ep]:
    """Join touching episodes with the same context: the recorder sees no change there.

    Also drops slivers under a second left by cutting at a period's end.
    """
    out: list[_Ep] = []
    for ep in eps:
        if out and out[-1].end == ep.start and (out[-1].ctx == ep.ctx or ep.end - ep.start < SEC):
            out[-1] = _Ep(out[-1].start, ep.end, out[-1].ctx)
        else:
            out.append(ep)
    return out


def _primary_timeline(
    rng: random.Random,
    cat: _Catalog,
    present: list[tuple[int, int]],
    meetings: list[tuple[int, int]],
    light: bool,
) -> list[_Ep]:
    tasks = _WEEKEND_TASKS if light else _WEEKDAY_TASKS
    eps: list[_Ep] = []
    for s, e in present:
        t = s
        for ms, me in meetings:
            if s <= ms and me <= e:
                eps += _fill(rng, cat, t, ms, tasks) + _meeting(rng, cat, ms, me)
                t = me
        eps += _fill(rng, cat, t, e, tasks)
    return _merge(_add_flickers(rng, cat, _merge(eps)))


def _side_timeline(rng: random.Random, cat: _Catalog, present: list[tuple[int, int]]) -> list[_Ep]:
    """A second monitor: Slack or a dashboard tab, changing every few to tens of minutes."""
    eps: list[_Ep] = []
    for s, e in present:
        t = s
        while t < e:
            if rng.random() < 0.7:
                ctx = cat.slack(rng.choice(_SLACK_CHANNELS), "static")
            else:
                page = rng.choice(
                    (
                        (
                            "Actions · acme/actframes · GitHub",
                            "https://github.com/acme/actframes/actions",
                        ),
                        (
                            "Pull requests · acme/actframes · GitHub",
                            "https://github.com/acme/actframes/pulls",
                        ),
                    )
                )
                ctx = cat.web(page[0], page[1], "static")
            stop = min(e, t + _d(rng, 4 * 60, 35 * 60))
            eps.append(_Ep(t, stop, ctx))
            t = stop
    return _merge(eps)


# --------------------------------------------------------------------------- rows

# A row before numbering: (ts_ms, device index, order within device, context).
_RawRow = tuple[int, int, int, _Ctx]


def _heartbeats(eps: list[_Ep], base: int) -> int:
    """How many heartbeat rows a base interval of ``base`` ms gives (floor per episode)."""
    return sum((ep.end - ep.start) * 100 // (base * _PACE[ep.ctx.activity]) for ep in eps)


def _calibrate(eps: list[_Ep], target: int) -> int:
    """The base heartbeat interval that makes changes + heartbeats come closest to target.

    Heartbeats fall as the interval grows, so a binary search over integer ms finds it.
    """
    budget = target - len(eps)
    lo, hi = MIN_HEARTBEAT_MS, MAX_HEARTBEAT_MS
    while lo < hi:
        mid = (lo + hi) // 2
        if _heartbeats(eps, mid) > budget:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _stream_rows(rng: random.Random, eps: list[_Ep], target: int, dev: int) -> list[_RawRow]:
    """A change row at each episode start, then jittered heartbeats until its end."""
    base = _calibrate(eps, target)
    rows: list[_RawRow] = []
    for ep in eps:
        if rng.random() < SAME_TS_SHARE:
            placeholder = _Ctx(ep.ctx.app, ep.ctx.app, ep.ctx.url, ep.ctx.activity)
            rows.append((ep.start, dev, len(rows), placeholder))
        rows.append((ep.start, dev, len(rows), ep.ctx))
        step = max(1, base * _PACE[ep.ctx.activity] // 100)
        t = ep.start + step * rng.randint(60, 140) // 100
        while t < ep.end:
            rows.append((t, dev, len(rows), ep.ctx))
            t += max(1, step * rng.randint(60, 140) // 100)
    return rows


def _row_targets(rows: int, n_devices: int) -> list[int]:
    total = PRIMARY_ROW_WEIGHT + n_devices - 1
    side = rows // total
    return [rows - side * (n_devices - 1)] + [side] * (n_devices - 1)


def _number_rows(raw: list[_RawRow], devices: tuple[str, ...], first: int) -> list[Snapshot]:
    raw.sort(key=lambda r: (r[0], r[1], r[2]))
    return [
        Snapshot(row_id=first + i, ts_ms=ts, app=c.app, title=c.title, url=c.url, device=devices[d])
        for i, (ts, d, _, c) in enumerate(raw)
    ]


# --------------------------------------------------------------------------- input


@dataclass(frozen=True, slots=True)
class _Profile:
    """How a person uses one kind of window: action weights and timings (ms)."""

    weights: tuple[int, int, int, int, int]  # burst of keys, click, scroll, copy, paste
    burst: tuple[int, int]  # keys per burst
    pause: tuple[int, int]  # idle time after an action


_PROFILES: dict[str, _Profile] = {
    "code": _Profile((50, 15, 20, 7, 8), (3, 30), (2_500, 40_000)),
    "terminal": _Profile((60, 5, 10, 10, 15), (4, 30), (2_000, 25_000)),
    "write": _Profile((65, 10, 15, 4, 6), (5, 60), (2_500, 20_000)),
    "chat": _Profile((45, 35, 15, 2, 3), (5, 50), (2_500, 25_000)),
    "read": _Profile((6, 25, 65, 4, 0), (3, 15), (2_000, 25_000)),
    "browse": _Profile((15, 45, 35, 3, 2), (4, 25), (1_000, 15_000)),
    "meeting": _Profile((10, 60, 30, 0, 0), (3, 20), (20_000, 120_000)),
    "video": _Profile((0, 100, 0, 0, 0), (1, 1), (60_000, 300_000)),
    "glance": _Profile((0, 70, 30, 0, 0), (1, 1), (1_500, 6_000)),
    "files": _Profile((5, 80, 15, 0, 0), (3, 12), (700, 5_000)),
    "static": _Profile((20, 80, 0, 0, 0), (10, 40), (60_000, 600_000)),
}
_ACTIONS = ("burst", CLICK, SCROLL, COPY, PASTE)

# An event before numbering: (ts_ms, order, kind, app, device).
_RawEvent = tuple[int, int, str, str, str]


def _action(rng: random.Random, prof: _Profile, t: int) -> list[tuple[int, str]]:
    """One action's events as (ts, kind), starting at t."""
    action = rng.choices(_ACTIONS, prof.weights)[0]
    if action == "burst":
        out = []
        for _ in range(rng.randint(*prof.burst)):
            out.append((t, KEY))
            t += rng.randint(60, 240)
        return out
    if action == CLICK and rng.random() < 0.1:  # a double click
        return [(t, CLICK), (t + rng.randint(90, 200), CLICK)]
    if action == SCROLL:
        return [(t + i * rng.randint(80, 300), SCROLL) for i in range(rng.randint(1, 4))]
    return [(t, action)]


def _episode_input(
    rng: random.Random, ep: _Ep, prev_app: str | None, device: str, out: list[_RawEvent]
) -> None:
    prof = _PROFILES[ep.ctx.activity]
    t = ep.start + rng.randint(250, 3_000)
    while t < ep.end:
        for ts, kind in _action(rng, prof, t):
            if ts >= ep.end:
                break
            lagging = prev_app is not None and ts - ep.start < STALE_LAG_MS
            stale = lagging and rng.random() < STALE_APP_SHARE
            app = prev_app if stale and prev_app is not None else ep.ctx.app
            out.append((ts, len(out), kind, app, device))
            t = ts
        t += rng.randint(*prof.pause)


def _input(rng: random.Random, eps: list[_Ep], device: str, out: list[_RawEvent]) -> None:
    prev: str | None = None
    for ep in eps:
        _episode_input(rng, ep, prev if prev != ep.ctx.app else None, device, out)
        prev = ep.ctx.app


def _number_events(raw: list[_RawEvent], first: int) -> list[InputEvent]:
    raw.sort(key=lambda e: (e[0], e[1]))
    return [
        InputEvent(event_id=first + i, ts_ms=ts, kind=kind, app=app, device=dev)
        for i, (ts, _, kind, app, dev) in enumerate(raw)
    ]


# --------------------------------------------------------------------------- assembly


def _simulate(
    day: str,
    tz: str,
    seed: int,
    rows: int,
    devices: tuple[str, ...],
    light: bool,
    first_row: int,
    first_event: int,
) -> SimDay:
    if rows < 1:
        raise ValueError("rows must be at least 1")
    if not devices or len(set(devices)) != len(devices):
        raise ValueError("devices must be a non-empty tuple of distinct names")
    d = parse_day(day)
    cat = _Catalog(_persona(seed))
    trng = random.Random(f"{seed}:{day}:timeline")
    plan = _plan(trng, light)
    afk = [Span(_local_ms(d, tz, a), _local_ms(d, tz, b)) for a, b in plan.away]
    present = _present(_local_ms(d, tz, plan.start), _local_ms(d, tz, plan.end), afk)
    meetings = [(_local_ms(d, tz, a), _local_ms(d, tz, b)) for a, b in plan.meetings]
    streams = [_primary_timeline(trng, cat, present, meetings, light)]
    for i in range(1, len(devices)):
        streams.append(_side_timeline(random.Random(f"{seed}:{day}:screen{i}"), cat, present))

    raw_rows: list[_RawRow] = []
    raw_events: list[_RawEvent] = []
    for i, (eps, target) in enumerate(zip(streams, _row_targets(rows, len(devices)), strict=True)):
        raw_rows += _stream_rows(random.Random(f"{seed}:{day}:rows{i}"), eps, target, i)
        _input(random.Random(f"{seed}:{day}:input{i}"), eps, devices[i], raw_events)
    return SimDay(
        day=day,
        tz=tz,
        devices=devices,
        snapshots=_number_rows(raw_rows, devices, first_row),
        events=_number_events(raw_events, first_event),
        afk=afk,
    )
