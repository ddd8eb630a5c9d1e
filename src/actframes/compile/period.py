"""A period document from the documents of its local days (SPEC.md §5a).

Nothing is compiled again: each ``days`` entry is its day document in brief, and every
period figure is a sum of the days' own figures. A day's seconds are rounded within the
day (the ledger's largest-remainder rule), so the period ledger is the exact sum of the
day ledgers — it may differ by a second per day from one document over the whole span,
and the days add up to the period's totals exactly.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import date
from typing import Any

from ..classify.names import project_key
from ..doc_types import Document
from ..period_types import (
    AppSeconds,
    NameSeconds,
    PeriodApp,
    PeriodDay,
    PeriodDocument,
    PeriodLedgerEntry,
    PeriodShare,
    PeriodShares,
    PeriodViewed,
)

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def period_document(
    docs: Sequence[tuple[str, Document]], *, kind: str = "days", label: str = ""
) -> PeriodDocument:
    """The period of ``docs``: (local day, its document) in day order, one per day."""
    if not docs:
        raise ValueError("a period has at least one day")
    days = [_day(day, doc) for day, doc in docs]
    first_doc, last_doc = docs[0][1], docs[-1][1]
    since, until = docs[0][0], docs[-1][0]
    ledger = _ledger(docs)
    with_capture = [d for d in days if d["first"] is not None]
    return {
        "schema_version": 1,
        "kind": "period",
        "source": {"kind": first_doc["source"]["kind"], "digest": _digest(days)},
        "compiled": first_doc["compiled"],
        "window": {
            "since": since,
            "until": until,
            "label": label or (since if since == until else f"{since}..{until}"),
            "kind": kind,
            "tz": first_doc["window"]["tz"],
            "start": first_doc["window"]["start"],
            "end": last_doc["window"]["end"],
            "days": len(days),
        },
        "totals": {
            "active_s": sum(d["active_s"] for d in days),
            "away_s": sum(d["away_s"] for d in days),
            "rows": sum(d["rows"] for d in days),
            "keys": sum(d["keys"] for d in days),
            "clicks": sum(d["clicks"] for d in days),
            "days_active": sum(1 for d in days if d["active_s"] > 0),
            "first": with_capture[0]["first"] if with_capture else None,
            "last": with_capture[-1]["last"] if with_capture else None,
        },
        "days": days,
        "ledger": ledger,
        "apps": _apps(ledger, docs),
        "projects": _projects(docs),
        "categories": _categories(docs),
        "viewed": _viewed(docs),
        "blind_spots": list(dict.fromkeys(s for _, doc in docs for s in doc["blind_spots"])),
    }


def _day(day: str, doc: Document) -> PeriodDay:
    cov = doc["coverage"]
    apps: dict[str, int] = {}
    for e in doc["ledger"]:
        apps[e["app"]] = apps.get(e["app"], 0) + e["active_s"]
    app_list: list[AppSeconds] = [
        {"app": a, "active_s": s} for a, s in sorted(apps.items(), key=lambda x: (-x[1], x[0]))
    ]
    projects: list[NameSeconds] = [
        {"name": e["name"], "active_s": e["active_s"]} for e in doc["projects"]["entries"]
    ]
    return {
        "day": day,
        "weekday": WEEKDAYS[date.fromisoformat(day).weekday()],
        "start": doc["window"]["start"],
        "end": doc["window"]["end"],
        "active_s": cov["active_s"],
        "away_s": sum(p["s"] for p in cov["away"]),
        "first": cov["first"],
        "last": cov["last"],
        "rows": cov["rows"],
        "keys": sum(e["keys"] for e in doc["ledger"]),
        "clicks": sum(e["clicks"] for e in doc["ledger"]),
        "apps": app_list,
        "projects": projects,
        "digest": doc["source"]["digest"],
    }


def _digest(days: Sequence[PeriodDay]) -> str:
    """The days' own digests, in order: equal periods of equal rows, equal digests."""
    h = hashlib.sha256()
    for d in days:
        h.update(f"{d['day']}={d['digest']}\n".encode())
    return h.hexdigest()


def _ledger(docs: Sequence[tuple[str, Document]]) -> list[PeriodLedgerEntry]:
    sums: dict[tuple[str, str], list[int]] = {}  # (app, site) -> [s, keys, clicks, days]
    for _, doc in docs:
        for e in doc["ledger"]:
            acc = sums.setdefault((e["app"], e.get("site", "")), [0, 0, 0, 0])
            acc[0] += e["active_s"]
            acc[1] += e["keys"]
            acc[2] += e["clicks"]
            acc[3] += 1 if e["active_s"] > 0 else 0
    out: list[PeriodLedgerEntry] = []
    for (app, site), (s, keys, clicks, n) in sorted(
        sums.items(), key=lambda kv: (-kv[1][0], kv[0][0], kv[0][1])
    ):
        entry: PeriodLedgerEntry = (
            {"app": app, "site": site, "active_s": s, "keys": keys, "clicks": clicks, "days": n}
            if site
            else {"app": app, "active_s": s, "keys": keys, "clicks": clicks, "days": n}
        )
        out.append(entry)
    return out


def _apps(
    ledger: Sequence[PeriodLedgerEntry], docs: Sequence[tuple[str, Document]]
) -> list[PeriodApp]:
    sums: dict[str, list[int]] = {}
    for p in ledger:
        acc = sums.setdefault(p["app"], [0, 0, 0])
        acc[0] += p["active_s"]
        acc[1] += p["keys"]
        acc[2] += p["clicks"]
    per_day: dict[str, dict[str, int]] = {}  # app -> day -> seconds
    for day, doc in docs:
        for e in doc["ledger"]:
            by_day = per_day.setdefault(e["app"], {})
            by_day[day] = by_day.get(day, 0) + e["active_s"]
    out: list[PeriodApp] = []
    for app, (s, keys, clicks) in sorted(sums.items(), key=lambda kv: (-kv[1][0], kv[0])):
        by_day = {d: v for d, v in per_day.get(app, {}).items() if v > 0}
        busiest = min(by_day, key=lambda d: (-by_day[d], d)) if by_day else None
        out.append(
            {
                "app": app,
                "active_s": s,
                "keys": keys,
                "clicks": clicks,
                "days": len(by_day),
                "busiest": busiest,
            }
        )
    return out


def _shares(entries: Sequence[tuple[str, str, dict[str, Any]]], key: Any) -> list[PeriodShare]:
    """Entries (day, name, entry) of the days, one per ``key(name)``: seconds and input
    summed, shown by the spelling that holds most of the time (then the first in order)."""
    sums: dict[str, list[int]] = {}
    spellings: dict[str, dict[str, int]] = {}
    days: dict[str, set[str]] = {}
    for day, name, e in entries:
        k = key(name) or name
        acc = sums.setdefault(k, [0, 0, 0])
        acc[0] += e["active_s"]
        acc[1] += e["keys"]
        acc[2] += e["clicks"]
        names = spellings.setdefault(k, {})
        names[name] = names.get(name, 0) + e["active_s"]
        if e["active_s"] > 0:
            days.setdefault(k, set()).add(day)
    out: list[PeriodShare] = []
    for k, (s, keys, clicks) in sums.items():
        names = spellings[k]
        name = min(names, key=lambda n: (-names[n], n))
        out.append(
            {
                "name": name,
                "active_s": s,
                "keys": keys,
                "clicks": clicks,
                "days": len(days.get(k, ())),
            }
        )
    out.sort(key=lambda p: (-p["active_s"], p["name"]))
    return out


def _rules(docs: Sequence[tuple[str, Document]], section: str) -> str:
    seen = dict.fromkeys(doc[section]["rules"] for _, doc in docs)  # type: ignore[literal-required]
    return " | ".join(seen)


def _projects(docs: Sequence[tuple[str, Document]]) -> PeriodShares:
    entries = [(day, e["name"], dict(e)) for day, doc in docs for e in doc["projects"]["entries"]]
    return {
        "rules": _rules(docs, "projects"),
        "entries": _shares(entries, project_key),
        "unassigned_s": sum(doc["projects"]["unassigned"]["active_s"] for _, doc in docs),
    }


def _categories(docs: Sequence[tuple[str, Document]]) -> PeriodShares:
    entries = [(day, e["name"], dict(e)) for day, doc in docs for e in doc["categories"]["entries"]]
    return {"rules": _rules(docs, "categories"), "entries": _shares(entries, lambda n: n)}


def _viewed(docs: Sequence[tuple[str, Document]]) -> list[PeriodViewed]:
    """Every typed reference of the days, once: views summed, the first view's time and
    label, the days it was viewed on; in order of first view."""
    out: dict[tuple[str, str], PeriodViewed] = {}
    for day, doc in docs:
        for v in doc["viewed"]:
            key = (v["kind"], v["entity"])
            got = out.get(key)
            if got is None:
                first: PeriodViewed = {
                    "kind": v["kind"],
                    "entity": v["entity"],
                    "first": v["first"],
                    "first_day": day,
                    "last_day": day,
                    "days": [day],
                    "views": v["views"],
                }
                if "label" in v:  # (after the entity, as in the day's document)
                    first = {**first, "label": v["label"]}  # type: ignore[typeddict-item]
                    first = _label_after_entity(first)
                out[key] = first
                continue
            got["views"] += v["views"]
            got["last_day"] = day
            if got["days"][-1] != day:
                got["days"].append(day)
    # The days come in order and each day's references in order of first view: so do these
    # (ISO times of different UTC offsets do not sort as text).
    return list(out.values())


_VIEWED_ORDER = ("kind", "entity", "label", "first", "first_day", "last_day", "days", "views")


def _label_after_entity(v: PeriodViewed) -> PeriodViewed:
    return {k: v[k] for k in _VIEWED_ORDER if k in v}  # type: ignore[literal-required,return-value]
