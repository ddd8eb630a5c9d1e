"""``actframes team report``: the team instruments from the datasets, with a k-threshold.

- Time per app and per site, pooled and per person. An app or site is named only when
  at least ``k`` people have time on it; the rest is one "below k" line with its total.
- Routines that recur across people: the same routine id (a hash of its action tokens:
  same site, same target templates, slots generalised), with how many people and days
  it occurs on and R (median over the people who have it). Only routines of at least
  ``k`` people are listed; the others are counted.
- h per person (raw and delegable, in-sample and on the temporal holdout: the later
  half of each person's days) and pooled (sums of steps), with its spread over people.

Seconds and counts are integers; shares and R are rounded once, here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..routines.overhead import median, quantile
from . import datasets as ds

DEFAULT_MIN_PEOPLE = 5
TOP_PER_PERSON = 5


def pct(a: int, b: int) -> float | None:
    return round(100 * a / b, 1) if b else None


def spread(xs: Sequence[float]) -> dict[str, float] | None:
    if not xs:
        return None
    return {
        "median": round(median(xs), 1),
        "p10": round(quantile(xs, 10), 1),
        "p90": round(quantile(xs, 90), 1),
        "min": round(min(xs), 1),
        "max": round(max(xs), 1),
    }


def build(root: Path, min_people: int = DEFAULT_MIN_PEOPLE) -> dict[str, Any]:
    """The report of the datasets under ``root``."""
    return summarize(
        ds.read(root, "ledger").to_pylist(),
        ds.read(root, "routines").to_pylist(),
        ds.read(root, "h").to_pylist(),
        min_people,
    )


def summarize(
    ledger: list[dict[str, Any]],
    routines: list[dict[str, Any]],
    hs: list[dict[str, Any]],
    min_people: int,
) -> dict[str, Any]:
    """The pure part: rows of the three datasets (any order) to the report."""
    people = sorted({r["person"] for r in ledger} | {h["person"] for h in hs})
    days_of: dict[str, set[str]] = defaultdict(set)
    for r in ledger:
        days_of[r["person"]].add(r["day"])
    return {
        "min_people": min_people,
        "people": len(people),
        "person_days": sum(len(v) for v in days_of.values()),
        "time": _time(ledger, people, days_of, min_people),
        "routines": _routines(routines, min_people),
        "h": _h(hs),
    }


def _visible(ledger: list[dict[str, Any]], key: str, k: int) -> set[str]:
    who: dict[str, set[str]] = defaultdict(set)
    for r in ledger:
        if r[key] and r["active_s"] > 0:
            who[r[key]].add(r["person"])
    return {v for v, ps in who.items() if len(ps) >= k}


def _totals(rows: list[dict[str, Any]], key: str, shown: set[str]) -> dict[str, Any]:
    secs: dict[str, int] = defaultdict(int)
    who: dict[str, set[str]] = defaultdict(set)
    hidden_s = 0
    hidden: set[str] = set()
    for r in rows:
        v = r[key]
        if not v:
            continue
        if v in shown:
            secs[v] += r["active_s"]
            who[v].add(r["person"])
        else:
            hidden_s += r["active_s"]
            if r["active_s"] > 0:
                hidden.add(v)
    items = sorted(secs.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "shown": [{key: v, "active_s": s, "people": len(who[v])} for v, s in items],
        "below_k": {"count": len(hidden), "active_s": hidden_s},
    }


def _time(
    ledger: list[dict[str, Any]], people: list[str], days_of: dict[str, set[str]], k: int
) -> dict[str, Any]:
    apps, sites = _visible(ledger, "app", k), _visible(ledger, "site", k)
    by_person: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in ledger:
        by_person[r["person"]].append(r)
    per_person = []
    for p in people:
        rows = by_person.get(p, [])
        a, s = _totals(rows, "app", apps), _totals(rows, "site", sites)
        per_person.append(
            {
                "person": p,
                "days": len(days_of.get(p, ())),
                "active_s": sum(r["active_s"] for r in rows),
                "apps": a["shown"][:TOP_PER_PERSON],
                "sites": s["shown"][:TOP_PER_PERSON],
            }
        )
    return {
        "active_s": sum(r["active_s"] for r in ledger),
        "apps": _totals(ledger, "app", apps),
        "sites": _totals(ledger, "site", sites),
        "per_person": per_person,
    }


def _routines(rows: list[dict[str, Any]], k: int) -> dict[str, Any]:
    by_id: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_id[r["id"]].append(r)
    shown = []
    hidden = 0
    for rid, rs in by_id.items():
        people = sorted({r["person"] for r in rs})
        if len(people) < k:
            hidden += 1
            continue
        first = min(rs, key=lambda r: r["person"])
        shown.append(
            {
                "id": rid,
                "title": first["title"],
                "length": first["length"],
                "sites": sorted({s for r in rs for s in r["sites"]}),
                "people": len(people),
                "person_days": sum(r["days"] for r in rs),
                "occurrences": sum(r["occurrences"] for r in rs),
                "r_operational": round(median([r["r_operational"] for r in rs]), 1),
                "r_ceiling": round(median([r["r_ceiling"] for r in rs]), 1),
            }
        )
    shown.sort(key=lambda r: (-r["people"], -r["person_days"], r["id"]))
    return {
        "shown": shown,
        "below_k": hidden,
        "r_operational": spread([r["r_operational"] for r in shown]),
        "r_ceiling": spread([r["r_ceiling"] for r in shown]),
    }


def _h(hs: list[dict[str, Any]]) -> dict[str, Any]:
    per = []
    for h in sorted(hs, key=lambda h: h["person"]):
        if not h["steps"]:
            continue
        per.append(
            {
                "person": h["person"],
                "days": h["days"],
                "steps": h["steps"],
                "routines": h["routines"],
                "raw_pct": pct(h["raw_steps"], h["steps"]),
                "delegable_pct": pct(h["delegable_steps"], h["steps"]),
                "holdout_steps": h["holdout_steps"],
                "holdout_raw_pct": pct(h["holdout_raw_steps"], h["holdout_steps"]),
                "holdout_delegable_pct": pct(h["holdout_delegable_steps"], h["holdout_steps"]),
            }
        )

    def tot(key: str) -> int:
        return sum(int(h[key]) for h in hs)

    def sp(key: str) -> dict[str, float] | None:
        return spread([p[key] for p in per if p[key] is not None])

    return {
        "per_person": per,
        "pooled": {
            "steps": tot("steps"),
            "raw_pct": pct(tot("raw_steps"), tot("steps")),
            "delegable_pct": pct(tot("delegable_steps"), tot("steps")),
            "holdout_steps": tot("holdout_steps"),
            "holdout_raw_pct": pct(tot("holdout_raw_steps"), tot("holdout_steps")),
            "holdout_delegable_pct": pct(tot("holdout_delegable_steps"), tot("holdout_steps")),
        },
        "spread": {
            k: sp(k)
            for k in ("raw_pct", "delegable_pct", "holdout_raw_pct", "holdout_delegable_pct")
        },
    }


# ----------------------------------------------------------------------------- Markdown


def _hm(s: int) -> str:
    return f"{s // 3600}h{s % 3600 // 60:02d}"


def _p(v: float | None) -> str:
    return "–" if v is None else f"{v:.1f}%"


def _sp(d: dict[str, float] | None, unit: str = "%") -> str:
    if not d:
        return "–"
    return f"median {d['median']}{unit} (p10 {d['p10']}, p90 {d['p90']}, {d['min']}–{d['max']})"


def to_markdown(rep: dict[str, Any]) -> str:
    k = rep["min_people"]
    t, ro, h = rep["time"], rep["routines"], rep["h"]
    out = [
        "# Team report",
        "",
        f"{rep['people']} people, {rep['person_days']} person-days, {_hm(t['active_s'])} active."
        f" Apps, sites and routines are named only when at least {k} people have them.",
        "",
        "## Time per app (pooled)",
        "",
        "| app | active | people |",
        "|---|---:|---:|",
    ]
    for key, title in (("apps", "app"), ("sites", "site")):
        if key == "sites":
            out += [
                "",
                "## Time per site (pooled)",
                "",
                "| site | active | people |",
                "|---|---:|---:|",
            ]
        for r in t[key]["shown"]:
            out.append(f"| {r[title]} | {_hm(r['active_s'])} | {r['people']} |")
        b = t[key]["below_k"]
        out.append(f"| ({b['count']} {key} of fewer than {k} people) | {_hm(b['active_s'])} | |")
    out += ["", "## Time per person", "", "| person | days | active | top apps | top sites |"]
    out.append("|---|---:|---:|---|---|")
    for p in t["per_person"]:
        apps = ", ".join(f"{a['app']} {_hm(a['active_s'])}" for a in p["apps"]) or "–"
        sites = ", ".join(f"{s['site']} {_hm(s['active_s'])}" for s in p["sites"]) or "–"
        out.append(f"| {p['person']} | {p['days']} | {_hm(p['active_s'])} | {apps} | {sites} |")
    out += [
        "",
        f"## Routines across people ({len(ro['shown'])} shown, {ro['below_k']} below {k} people)",
        "",
        f"R operational: {_sp(ro['r_operational'], '')}; ceiling: {_sp(ro['r_ceiling'], '')}.",
        "",
        "| routine | steps | people | person-days | occurrences | R op. | R ceil. |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in ro["shown"]:
        out.append(
            f"| {r['id']} {r['title']} | {r['length']} | {r['people']} | {r['person_days']}"
            f" | {r['occurrences']} | {r['r_operational']} | {r['r_ceiling']} |"
        )
    pool = h["pooled"]
    out += [
        "",
        "## h: recurrence",
        "",
        f"Pooled over {pool['steps']} action steps: raw {_p(pool['raw_pct'])}, delegable"
        f" {_p(pool['delegable_pct'])}; on the holdout (later half of each person's days,"
        f" {pool['holdout_steps']} steps): raw {_p(pool['holdout_raw_pct'])}, delegable"
        f" {_p(pool['holdout_delegable_pct'])}.",
        "",
        f"Spread over people — delegable: {_sp(h['spread']['delegable_pct'])};"
        f" holdout delegable: {_sp(h['spread']['holdout_delegable_pct'])}.",
        "",
        "| person | days | steps | routines | raw | delegable | holdout raw | holdout delegable |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for p in h["per_person"]:
        out.append(
            f"| {p['person']} | {p['days']} | {p['steps']} | {p['routines']} | {_p(p['raw_pct'])}"
            f" | {_p(p['delegable_pct'])} | {_p(p['holdout_raw_pct'])}"
            f" | {_p(p['holdout_delegable_pct'])} |"
        )
    return "\n".join(out) + "\n"
