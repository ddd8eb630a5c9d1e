"""A mined routine as a guarded plan an agent (or ``actframes replay``) can follow.

Per step: the op, the app, the target (canonical role and name), the value to enter
(a slot reference), whether it is destructive, and the guards that must hold before
acting. Slots are the parts that differ between the routine's occurrences:

- ``text``: what a ``type``/``paste`` step enters. Always a slot unless the operator
  opted in to typed text and every occurrence entered the same text (then literal).
  Consecutive type/paste steps on one target share one slot.
- ``url``: an id-like URL path segment that differs between occurrences (one that is
  the same every time stays literal).
- ``row`` / ``number``: a ``{row}`` / ``{n}`` placeholder in a target name (a
  spreadsheet row, a number in a label) that differs between occurrences; positions
  whose values move together share one slot.

Guards: ``app`` (always), ``url`` (the page's URL template, for steps on a page),
``target`` (role and name), ``position`` (the recorded click point, when every
occurrence clicked within ``POSITION_SPREAD_PX`` of the median; checked with
``POSITION_TOLERANCE_PX``). A navigate step checks ``expect_after`` once the page is
loaded; one that came within ``CAUSED_MS`` of the step before it every time is
``caused`` (that step's doing: replay waits for the page rather than opening it, and it
has no URL or slot). Destructive: a click whose target name says submit, send, delete, pay … (the
``DESTRUCTIVE`` pattern); replay refuses those without an explicit flag.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

from ..compile.ranges import compact
from ..compile.site import is_id_segment
from ..entities.matcher import looks_secret, param_denied
from .mine import Corpus, Mined
from .step_tokens import RStep

POSITION_TOLERANCE_PX = 24
# A navigation this soon after the step before it, every time, is that step's doing (a
# submitted form, a followed link): replay waits for the page instead of opening it.
CAUSED_MS = 3_000
POSITION_SPREAD_PX = 48
# Words that make a click destructive (it submits, sends, deletes, pays …), in any of
# these forms; replay refuses such clicks without an explicit flag.
DESTRUCTIVE = re.compile(
    r"\b(submit|send|delete|remove|pay|payment|purchase|buy|order|confirm|transfer|publish"
    r"|post|approve|checkout)(s|ed|ing|ment|ments)?\b",
    re.I,
)
BROWSER = re.compile(r"chrom|firefox|edge|brave|safari|opera|vivaldi|\bweb\b|fiori", re.I)

Routine = dict[str, Any]


def is_browser(app: str) -> bool:
    return bool(BROWSER.search(app or ""))


def routine_id(tokens: Sequence[Sequence[str]]) -> str:
    blob = json.dumps([list(t) for t in tokens], ensure_ascii=False, separators=(",", ":"))
    return "R" + hashlib.sha256(blob.encode()).hexdigest()[:10]


def _slug(text: str, fallback: str) -> str:
    s = re.sub(r"[^0-9a-z]+", "_", text.casefold()).strip("_")
    return s[:40].strip("_") or fallback


class _Slots:
    """Names slots uniquely and remembers them in order of first use."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self._by_key: dict[Any, str] = {}

    def get(self, key: Any, base: str, kind: str, step: int, **extra: Any) -> str:
        name = self._by_key.get(key)
        if name is not None:
            return name
        taken = {s["name"] for s in self.items}
        name, k = base, 2
        while name in taken:
            name, k = f"{base}_{k}", k + 1
        self._by_key[key] = name
        self.items.append({"name": name, "step": step, "kind": kind, **extra})
        return name


def _placeholder_values(raw: str, norm: str) -> list[str] | None:
    """The texts that ``{row}`` / ``{n}`` stand for in ``raw`` (None if it does not fit)."""
    parts = re.split(r"(\{row\}|\{n\})", norm)
    pat = "".join(r"(\d+)" if p in ("{row}", "{n}") else re.escape(p) for p in parts if p != "")
    m = re.fullmatch(pat, raw)
    return list(m.groups()) if m else None


def build_plan(
    mined: Mined,
    corpus: Corpus,
    iso: Callable[[int], str],
    include_text: bool = False,
) -> Routine:
    """The routine document: id, title, counts, slots, guarded plan, script, evidence."""
    n = len(mined.tokens)
    # In time order (segments run device by device), so the first repetition gives the
    # concrete values and the evidence reads forward.
    occ_steps: list[list[RStep]] = sorted(
        (list(corpus.segs[s][p : p + n]) for s, p in mined.occurrences),
        key=lambda o: (o[0].t_ms, o[0].events, o[0].row or 0),
    )
    first = occ_steps[0]
    slots = _Slots()
    plan: list[dict[str, Any]] = []
    script: list[str] = []
    prev_value: tuple[str, str, str] | None = None
    prev_slot = ""
    for i in range(n):
        col = [o[i] for o in occ_steps]
        s0 = first[i]
        step: dict[str, Any] = {"n": i + 1, "op": s0.op, "app": s0.app}
        name = _name_with_slots(col, slots, i + 1)
        if s0.op == "navigate":
            caused = i > 0 and all(
                o[i].t_ms - o[i - 1].t_ms <= CAUSED_MS and o[i - 1].op != "navigate"
                for o in occ_steps
            )
            step["guards"] = [{"check": "app", "app": s0.app}]
            if caused:
                step["caused"] = True
                script.append(f"wait for {s0.page or 'the next page'}")
            else:
                url = _url_with_slots(col, slots, i + 1)
                step["url"] = url
                script.append(f"open {url}")
            if s0.page:
                step["expect_after"] = {"url": s0.page}
            prev_value = None
            plan.append(step)
            continue
        if s0.role or s0.name:
            step["target"] = {"role": s0.role, "name": name}
        if s0.op in ("type", "paste"):
            key = (s0.app, s0.role, name)
            if prev_value == key and prev_slot.startswith("{"):
                slot = prev_slot  # the same field again: the same value
            else:
                slot = _value_slot(col, slots, i + 1, s0, include_text)
            prev_value, prev_slot = key, slot
            step["value"] = slot
        else:
            prev_value = None
        if s0.op == "click" and DESTRUCTIVE.search(name):
            step["destructive"] = True
        guards: list[dict[str, Any]] = [{"check": "app", "app": s0.app}]
        if s0.page and is_browser(s0.app):
            guards.append({"check": "url", "template": s0.page})
        if "target" in step:
            guards.append({"check": "target", **step["target"]})
        pos = _position(col)
        if pos is not None:
            guards.append(
                {"check": "position", "x": pos[0], "y": pos[1], "tolerance": POSITION_TOLERANCE_PX}
            )
        step["guards"] = guards
        plan.append(step)
        script.append(_script_line(step))
    start_url = None
    if plan and plan[0]["op"] != "navigate" and first[0].url and is_browser(first[0].app):
        start_url = _url_with_slots([o[0] for o in occ_steps], slots, 1)
    apps = sorted({s.app for s in first if s.app})
    sites = sorted({s.page.split("/", 1)[0] for s in first if s.page})
    evidence = []
    for o in occ_steps:
        evidence.append(
            {
                "day": o[0].day,
                "start": iso(o[0].t_ms),
                "end": iso(o[-1].t_ms),
                "events": compact(e for s in o for e in s.events),
                "rows": compact(s.row for s in o if s.row is not None),
            }
        )
    return {
        "id": routine_id(mined.tokens),
        "title": _title(first, apps),
        "length": n,
        "occurrences": len(mined.occurrences),
        "expected": fmt_expected(mined.expected),
        "days": len(mined.days),
        "first": evidence[0]["start"],
        "last": evidence[-1]["end"],
        "apps": apps,
        "sites": sites,
        "specific_targets": corpus.target_count([corpus.ids[t] for t in mined.tokens]),
        "start_url": start_url,
        "slots": slots.items,
        "plan": plan,
        "script": script,
        "evidence": evidence,
    }


def _name_with_slots(col: Sequence[RStep], slots: _Slots, step: int) -> str:
    norm = col[0].name
    if "{" not in norm:
        return norm
    per_occ = [_placeholder_values(s.raw_name, norm) for s in col]
    if any(v is None for v in per_occ):
        return norm
    holes = re.findall(r"\{row\}|\{n\}", norm)
    out = norm
    for k, hole in enumerate(holes):
        values = tuple(v[k] for v in per_occ if v is not None)
        if len(set(values)) == 1:
            fill = values[0]
        else:
            kind = "row" if hole == "{row}" else "number"
            fill = "{" + slots.get(("name", values), kind, kind, step) + "}"
        out = out.replace(hole, fill, 1)
    return out


def _url_with_slots(col: Sequence[RStep], slots: _Slots, step: int) -> str:
    """The first repetition's URL with what differs between repetitions as slots: id-like
    path segments, query values (a parameter that may hold a secret is always a slot),
    the fragment (hash routes). A URL that does not parse is kept as it was."""
    url = col[0].url or ""
    try:
        parts = [urlsplit(u if "://" in u else "https://" + u) for u in (s.url or "" for s in col)]
        if not parts[0].hostname:
            return url
    except ValueError:
        return url
    p0 = parts[0]
    segs_of = [[x for x in p.path.split("/") if x] for p in parts]
    segs = segs_of[0]
    out = []
    for k, seg in enumerate(segs):
        values = tuple(o[k] if k < len(o) else "" for o in segs_of)
        if not is_id_segment(seg) or len(set(values)) == 1:
            out.append(quote(seg, safe=":@!$&'()*+,;=-._~%"))
        else:
            base = _slug(segs[k - 1], "id") + "_id" if k else "id"
            out.append("{" + slots.get(("url", values), base, "url", step) + "}")
    path = "/" + "/".join(out) if out else "/"
    queries = [dict(parse_qsl(p.query, keep_blank_values=True)) for p in parts]
    items = []
    for key, value in parse_qsl(p0.query, keep_blank_values=True):
        values = tuple(q.get(key, "") for q in queries)
        secret = param_denied(key) or looks_secret(value)
        if len(set(values)) == 1 and not secret:
            items.append(f"{quote(key, safe='')}={quote(value, safe='')}")
        else:
            name = slots.get(("query", key, values), _slug(key, "param"), "url", step)
            items.append(f"{quote(key, safe='')}={{{name}}}")
    query = "?" + "&".join(items) if items else ""
    frags = {p.fragment for p in parts}
    fragment = ""
    if p0.fragment and len(frags) == 1:
        fragment = "#" + p0.fragment
    elif p0.fragment:
        fragment = (
            "#{"
            + slots.get(("fragment", tuple(p.fragment for p in parts)), "fragment", "url", step)
            + "}"
        )
    return f"{p0.scheme}://{p0.netloc}{path}{query}{fragment}"


def _value_slot(
    col: Sequence[RStep], slots: _Slots, step: int, s0: RStep, include_text: bool
) -> str:
    texts = [s.text for s in col]
    if include_text and all(t is not None for t in texts) and len(set(texts)) == 1:
        return str(texts[0])
    base = _slug(s0.raw_name, "text")
    extra: dict[str, Any] = {}
    if include_text and any(t is not None for t in texts):
        extra["examples"] = sorted({t for t in texts if t is not None})[:3]
    return "{" + slots.get(("text", step), base, "text", step, **extra) + "}"


def _position(col: Sequence[RStep]) -> tuple[int, int] | None:
    pts = [(s.x, s.y) for s in col]
    if any(x is None or y is None for x, y in pts):
        return None
    xs = sorted(int(x) for x, _ in pts if x is not None)
    ys = sorted(int(y) for _, y in pts if y is not None)
    if xs[-1] - xs[0] > POSITION_SPREAD_PX or ys[-1] - ys[0] > POSITION_SPREAD_PX:
        return None
    return xs[len(xs) // 2], ys[len(ys) // 2]


def _script_line(step: dict[str, Any]) -> str:
    name = step.get("target", {}).get("name", "")
    if step["op"] in ("type", "paste"):
        return f"{step['op']} {step['value']} in {name}".rstrip()
    return f"{step['op']} {name}".rstrip()


def _title(first: Sequence[RStep], apps: Sequence[str]) -> str:
    where = next((s.page.split("/", 1)[0] for s in first if s.page), None) or (
        apps[0] if apps else "?"
    )
    names: list[str] = []
    for s in first:
        if s.specific and s.name not in names:
            names.append(s.name)
    shown = ", ".join(names[:3]) + (" …" if len(names) > 3 else "")
    return f"{where}: {shown} ({len(first)} steps)"


def fmt_expected(expected: Fraction) -> str:
    """Occurrences expected by chance, as text (the document holds no floats): two
    decimals from 0.01 up, else two significant digits in E notation ("3.1E-12")."""
    hundredths = (expected * 100 * 2 + 1) // 2  # rounded half up, exactly
    if hundredths >= 1:
        return f"{hundredths // 100}.{hundredths % 100:02d}"
    if expected <= 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = 2
        value = Decimal(expected.numerator) / Decimal(expected.denominator)
    return f"{value:.1E}"
