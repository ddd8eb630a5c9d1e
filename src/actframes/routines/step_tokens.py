"""Action steps as routine tokens, and the segments routines may not cross.

A step's token is ``(op, app, page, role, name)``: the operation, the app (case-folded),
the page's URL template (``urls.url_template``), the target's canonical role and its
name with the parts that vary between repetitions of a routine replaced by placeholders
(``NAME_RULES``). Two steps with the same token did the same thing to the same thing.

Only actions count (``ACTION_OPS``): focus steps are context, scrolls are noise. A
``type`` or ``paste`` with no recorded target inherits the target of the latest click
in the same app and page since the last navigation (focus follows the click); without
one its target stays empty (a bare field).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..window import LocalDays
from .roles import FIELD_ROLES, canonical_role
from .urls import url_template

ACTION_OPS = frozenset({"click", "type", "paste", "copy", "navigate"})
SESSION_GAP_MS = 300_000
MAX_NAME = 80

# (role the rule applies to, or "" for any; pattern; replacement). Applied in order, the
# first match wins. The placeholders become slots when the values differ between runs.
NAME_RULES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("cell", re.compile(r"^([A-Z]{1,3})(\d+)$"), r"\1{row}"),
    ("", re.compile(r"^\d+$"), "{n}"),
    ("", re.compile(r"\d{4,}"), "{n}"),
)

# Names that identify nothing on their own: a routine needs targets beyond these.
GENERIC_NAMES = frozenset(
    {
        "",
        "ok",
        "okay",
        "cancel",
        "yes",
        "no",
        "close",
        "x",
        "×",
        "done",
        "next",
        "back",
        "previous",
        "continue",
        "apply",
        "more",
        "menu",
        "search",
        "edit",
        "input",
        "text",
        "text field",
        "field",
        "{n}",
    }
)


class RStep(NamedTuple):
    """One action step, ready for mining (times in ms; ``day`` is the local day)."""

    t_ms: int
    device: str
    day: str
    op: str
    app: str
    page: str  # URL template, "" when none
    role: str  # canonical
    name: str  # normalised (placeholders)
    raw_name: str  # as recorded
    url: str | None
    text: str | None  # only when the operator opted in
    x: int | None
    y: int | None
    events: tuple[int, ...]
    row: int | None
    method: str

    @property
    def token(self) -> tuple[str, str, str, str, str]:
        return (self.op, self.app.casefold(), self.page, self.role, self.name)

    @property
    def specific(self) -> bool:
        """Does the target identify something (a named element, not a generic one)?"""
        if self.op == "navigate" or not self.role:
            return False
        name = self.name.casefold().strip()
        if name in GENERIC_NAMES:
            return False
        return not (self.role in FIELD_ROLES and name in ("", "{n}"))


_XPATH_STEP = re.compile(r"name\(\)='([A-Za-z0-9_-]+)'\](?:\[(\d+)\])?")
XPATH_TAIL = 4


def short_xpath(name: str) -> str:
    """An XPath some UI loggers record as the target's name, as its last ``XPATH_TAIL``
    steps (``DIV[2]/UL[1]/LI[3]/A[1]``): the tail tells elements apart, the head is the
    page's scaffolding and would be cut by ``MAX_NAME`` anyway."""
    steps = [f"{tag}[{k or 1}]" for tag, k in _XPATH_STEP.findall(name)]
    return "/".join(steps[-XPATH_TAIL:]) if steps else name


def normalise_name(role: str, name: str) -> str:
    # Some loggers store line breaks as the two characters backslash and n.
    name = " ".join(name.replace("\\n", " ").replace("\\t", " ").split())
    if name.startswith("/") and "name()=" in name:
        name = short_xpath(name)
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1] + "…"
    for only, pat, repl in NAME_RULES:
        if only and only != role:
            continue
        new, n = pat.subn(repl, name)
        if n:
            return new
    return name


def rsteps(steps: Iterable[dict[str, Any]], device: str, tz: str) -> list[RStep]:
    """The action steps of one device's step stream (``steps.build`` dicts, times in
    ms, in order) as routine steps, targets inherited as the module says."""
    days = LocalDays(tz)
    out: list[RStep] = []
    last_click: dict[tuple[str, str], tuple[str, str, str, int | None, int | None]] = {}
    for s in steps:
        op = s["op"]
        if op not in ACTION_OPS:
            continue
        app = s.get("app") or ""
        url = s.get("url")
        page = url_template(url) or ""
        if op == "navigate":
            last_click = {k: v for k, v in last_click.items() if k[0] != app}
        tgt = s.get("target") or {}
        role = canonical_role(tgt.get("role"))
        raw = " ".join(str(tgt.get("name") or "").split())
        x, y = s.get("x"), s.get("y")
        if op == "click" and (role or raw):
            last_click[(app, page)] = (role, raw, s.get("method", ""), x, y)
        elif op in ("type", "paste") and not (role or raw) and (app, page) in last_click:
            role, raw, _, x, y = last_click[(app, page)]
        out.append(
            RStep(
                t_ms=s["t_ms"],
                device=device,
                day=days.day(s["t_ms"]),
                op=op,
                app=app,
                page=page,
                role=role,
                name=normalise_name(role, raw),
                raw_name=raw,
                url=url,
                text=s.get("text"),
                x=x if isinstance(x, int) else None,
                y=y if isinstance(y, int) else None,
                events=tuple(s.get("events") or ()),
                row=s.get("row"),
                method=s.get("method", ""),
            )
        )
    return out


def segments(steps: Sequence[RStep], gap_ms: int = SESSION_GAP_MS) -> list[list[RStep]]:
    """Runs of one device's steps that a routine may span: split at a session gap
    (more than ``gap_ms`` between actions) and at a local midnight."""
    out: list[list[RStep]] = []
    prev: RStep | None = None
    for s in steps:
        if (
            prev is None
            or s.device != prev.device
            or s.day != prev.day
            or s.t_ms - prev.t_ms > gap_ms
        ):
            out.append([])
        out[-1].append(s)
        prev = s
    return out
