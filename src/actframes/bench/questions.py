"""Questions about one day, with the oracle's answers.

Deterministic: the same store, day, zone and seed give the same questions in the same
order. Every choice is made from lists sorted by the data, with a ``random.Random``
seeded by a string (hashed with SHA-512, so ``PYTHONHASHSEED`` does not matter).

Each question carries its *value* (the oracle's answer in the form scoring compares) and
*accept* (other values scored correct: ties within the stated tolerance). Kinds and
their scoring rules are in ``scoring.py`` and docs/bench.md.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from .oracle import DayFacts, local_minutes
from .oracle_store import Store

MIN_QUESTIONS = 12
ASK_MIN_MS = 10 * 60_000  # minutes are asked of apps and sites with at least this much time
FILL_MIN_MS = 6 * 60_000  # ... and of smaller ones, down to this, only to reach 12 questions
COMPARE_RATIO = 1.25  # two apps compared differ in time by at least this factor
TIE_SHARE = 0.05  # names within this share of the winner's time are accepted too
TIE_MIN_MS = 60_000  # ... or within this much of it
KEYS_MIN = 100  # keys are asked of apps with at least this many key presses

# Never-seen names for absent-fact probes; one is used when no app, title or URL in the
# whole store mentions any of its words.
ABSENT_APPS = (
    "Spotify",
    "Figma",
    "Discord",
    "Blender",
    "Photoshop",
    "Steam",
    "Notion",
    "TablePlus",
    "Xcode",
    "Audacity",
    "Thunderbird",
    "Minecraft",
)
ABSENT_SITES = (
    "netflix.com",
    "amazon.com",
    "twitch.tv",
    "airbnb.com",
    "booking.com",
    "ebay.com",
    "pinterest.com",
    "imdb.com",
    "nytimes.com",
    "etsy.com",
    "zillow.com",
    "espn.com",
)

KINDS = (
    "top_app",
    "app_minutes",
    "site_minutes",
    "distinct_apps",
    "compare_apps",
    "app_used",
    "site_visited",
    "absent_app",
    "absent_site",
    "first_activity",
    "last_activity",
    "longest_frame",
    "entity_viewed",
    "keys_in_app",
    "away_periods",
)
ABSENT_KINDS = ("absent_app", "absent_site")
DURATION_KINDS = ("app_minutes", "site_minutes")


@dataclass(frozen=True)
class Question:
    qid: str
    day: str
    tz: str
    kind: str
    text: str  # as put to a model, with the answer format
    truth: str  # the oracle's answer, for people
    value: Any  # the oracle's answer, as scoring compares it
    accept: list[Any] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hhmm(minutes: float) -> str:
    """Wall-clock minutes after the day's midnight as HH:MM (floor)."""
    m = int(minutes)
    day, rest = divmod(m, 1440)
    text = f"{rest // 60:02d}:{rest % 60:02d}"
    return text if day == 0 else f"{text} (+{day}d)"


class _Builder:
    def __init__(self, f: DayFacts, seed: int) -> None:
        self.f = f
        self.rng = random.Random(f"actframes.bench.questions:{seed}:{f.day}:{f.tz}")
        self.out: list[Question] = []
        self.asked: set[tuple[str, str]] = set()

    def add(self, kind: str, text: str, truth: str, value: Any, **kw: Any) -> None:
        qid = f"{self.f.day}/q{len(self.out) + 1:02d}"
        accept = kw.pop("accept", [])
        self.out.append(Question(qid, self.f.day, self.f.tz, kind, text, truth, value, accept, kw))

    def minutes(self, ms: int) -> float:
        return round(ms / 60_000, 2)

    def local(self, ms: int) -> float:
        return round(local_minutes(ms, self.f.day, self.f.tz), 2)


def generate(facts: DayFacts, store: Store, seed: int = 0) -> list[Question]:
    """At least ``MIN_QUESTIONS`` questions about the day (fewer only when the day has
    too little in it), with the oracle's answers."""
    f = facts
    if not f.app_ms:
        return []
    b = _Builder(f, seed)
    day = f.day
    apps = sorted(f.app_ms.items(), key=lambda kv: (-kv[1], kv[0]))
    sites = sorted(f.site_ms.items(), key=lambda kv: (-kv[1], kv[0]))

    top, top_ms = apps[0]
    ties = [a for a, ms in apps[1:] if top_ms - ms <= max(TIE_SHARE * top_ms, TIE_MIN_MS)]
    b.add(
        "top_app",
        f"Which app had the most active time on {day}? Answer with the app's name as recorded.",
        top,
        top,
        accept=ties,
    )
    _app_minutes(b, [a for a, ms in apps if ms >= ASK_MIN_MS], 2)
    if f.has_urls:
        _site_minutes(b, [s for s, ms in sites if ms >= ASK_MIN_MS], 1)
    b.add(
        "distinct_apps",
        f"How many distinct apps were recorded on {day} (any amount of time)?"
        " Answer with an integer.",
        str(len(apps)),
        len(apps),
    )
    _compare(b, apps, 1)
    # Detail that summaries drop: an app or site with little (but some) active time.
    small = [a for a, ms in apps if 0 < ms < ASK_MIN_MS] or [a for a, ms in apps[1:] if ms]
    if small:
        app = b.rng.choice(sorted(small))
        b.add("app_used", _used_text(app, day), "yes", "yes", app=app)
    if f.has_urls and sites:
        small_sites = [s for s, ms in sites if 0 < ms < ASK_MIN_MS] or [s for s, _ in sites]
        site = b.rng.choice(sorted(small_sites))
        b.add("site_visited", _visited_text(site, day), "yes", "yes", site=site)
    absent_app = _absent(b.rng, ABSENT_APPS, store)
    if absent_app:
        b.add("absent_app", _used_text(absent_app, day), "no", "no", app=absent_app)
    if f.has_urls:
        absent_site = _absent(b.rng, ABSENT_SITES, store)
        if absent_site:
            b.add("absent_site", _visited_text(absent_site, day), "no", "no", site=absent_site)
    if f.first_ms is not None and f.last_ms is not None:
        first, last = b.local(f.first_ms), b.local(f.last_ms)
        b.add(
            "first_activity",
            f"At what local time did the first activity of {day} begin? Answer HH:MM.",
            hhmm(first),
            first,
        )
        b.add(
            "last_activity",
            f"At what local time did the last activity of {day} end? Answer HH:MM.",
            hhmm(last),
            last,
        )
    _longest(b)
    _entities(b, 2)
    if f.has_input:
        heavy = sorted(a for a, n in f.keys_by_app.items() if n >= KEYS_MIN)
        if heavy:
            app = b.rng.choice(heavy)
            n = f.keys_by_app[app]
            b.add(
                "keys_in_app",
                f"How many keys were typed in the app {_quote(app)} on {day}?"
                " Answer with an integer.",
                str(n),
                n,
                app=app,
            )
    if f.first_ms is not None:
        spans = [[b.local(s), b.local(e)] for s, e in f.breaks]
        b.add(
            "away_periods",
            f"List every period of 30 minutes or more on {day}, between the first and the last"
            " activity, in which the user was away or nothing was recorded. Answer with a"
            " list of HH:MM-HH:MM spans, or none.",
            ", ".join(f"{hhmm(s)}-{hhmm(e)}" for s, e in spans) or "none",
            spans,
        )
    # Too few? More of the plentiful kinds, smaller amounts first allowed.
    if len(b.out) < MIN_QUESTIONS:
        _app_minutes(b, [a for a, ms in apps if ms >= FILL_MIN_MS], MIN_QUESTIONS - len(b.out))
    if len(b.out) < MIN_QUESTIONS and f.has_urls:
        _site_minutes(b, [s for s, ms in sites if ms >= FILL_MIN_MS], MIN_QUESTIONS - len(b.out))
    if len(b.out) < MIN_QUESTIONS:
        _compare(b, apps, MIN_QUESTIONS - len(b.out))
    return b.out


def _quote(name: str) -> str:
    return f'"{name}"'


def _used_text(app: str, day: str) -> str:
    return f"Was the app {_quote(app)} used at all on {day}? Answer yes or no."


def _visited_text(site: str, day: str) -> str:
    return f"Was the site {site} visited at all on {day} (in any browser)? Answer yes or no."


def _app_minutes(b: _Builder, names: list[str], n: int) -> None:
    fresh = sorted(a for a in names if ("app", a) not in b.asked)
    for app in b.rng.sample(fresh, min(n, len(fresh))):
        b.asked.add(("app", app))
        v = b.minutes(b.f.app_ms[app])
        b.add(
            "app_minutes",
            f"How many minutes of active time were spent in the app {_quote(app)} on {b.f.day}"
            " (all its windows and sites)? Answer with a number of minutes.",
            f"{v:g} min",
            v,
            app=app,
        )


def _site_minutes(b: _Builder, names: list[str], n: int) -> None:
    fresh = sorted(s for s in names if ("site", s) not in b.asked)
    for site in b.rng.sample(fresh, min(n, len(fresh))):
        b.asked.add(("site", site))
        v = b.minutes(b.f.site_ms[site])
        b.add(
            "site_minutes",
            f"How many minutes of active time were spent on the site {site} on {b.f.day}"
            " (in any browser)? Answer with a number of minutes.",
            f"{v:g} min",
            v,
            site=site,
        )


def _compare(b: _Builder, apps: list[tuple[str, int]], n: int) -> None:
    ms = dict(apps)
    pairs = [
        (x, y)
        for x, y in combinations(sorted(ms), 2)
        if min(ms[x], ms[y]) >= 60_000
        and max(ms[x], ms[y]) >= COMPARE_RATIO * min(ms[x], ms[y])
        and ("pair", f"{x}\n{y}") not in b.asked
    ]
    for x, y in b.rng.sample(pairs, min(n, len(pairs))):
        b.asked.add(("pair", f"{x}\n{y}"))
        first, second = (x, y) if b.rng.random() < 0.5 else (y, x)
        winner = x if ms[x] > ms[y] else y
        b.add(
            "compare_apps",
            f"Which app got more active time on {b.f.day}: {_quote(first)} or {_quote(second)}?"
            " Answer with one of the two names.",
            winner,
            winner,
            apps=[first, second],
        )


def _absent(rng: random.Random, names: tuple[str, ...], store: Store) -> str | None:
    clean = [
        n
        for n in names
        if not any(store.mentions(w) for w in [n, *n.replace(".", " ").split()] if len(w) >= 4)
    ]
    return rng.choice(clean) if clean else None


def _longest(b: _Builder) -> None:
    frames = b.f.frames
    if not frames:
        return
    best = max(frames, key=lambda x: (x.active_ms, -x.start_ms))
    tol = max(TIE_SHARE * best.active_ms, TIE_MIN_MS)
    accept = [
        {"app": x.app, "start": b.local(x.start_ms)}
        for x in frames
        if x is not best and best.active_ms - x.active_ms <= tol
    ]
    start = b.local(best.start_ms)
    where = f" ({best.site})" if best.site else ""
    b.add(
        "longest_frame",
        f"What was the longest uninterrupted stretch of activity in one app (and site) on"
        f" {b.f.day}? Answer as: APP @ HH:MM (the app and the local time the stretch began).",
        f"{best.app}{where} @ {hhmm(start)}, {b.minutes(best.active_ms):g} min",
        {"app": best.app, "start": start},
        accept=accept,
        site=best.site,
        minutes=b.minutes(best.active_ms),
    )


ENTITY_WORDS = {
    "pull_request": "pull request",
    "issue": "issue",
    "doc": "Google Doc",
    "sheet": "Google Sheet",
    "slides": "Google Slides presentation",
}


def entity_text(kind: str, name: str, title: str | None = None) -> str:
    """How a question names an entity: the way the document and the context block name
    it (``pull request owner/repo#N``; a Google document by its id when its URL was
    recorded, else by its title), with the document's title as a reminder."""
    named = name if kind in ("pull_request", "issue") else _quote(name)
    what = f"{ENTITY_WORDS.get(kind, kind)} {named}"
    return f'{what} (titled "{title}")' if title else what


def _entities(b: _Builder, n: int) -> None:
    ents = b.f.entities
    for e in sorted(b.rng.sample(ents, min(n, len(ents))), key=lambda e: e.first_ms):
        at = b.local(e.first_ms)
        b.add(
            "entity_viewed",
            f"At what local time was the {entity_text(e.kind, e.name, e.title)} first viewed"
            f" on {b.f.day}? Answer HH:MM.",
            hhmm(at),
            at,
            entity_kind=e.kind,
            entity=e.name,
        )
