"""The communications view: who and where, from the rows the document was made of.

A pure function of the compiled frames (``compile_pieces``): every row on a
communication surface (``entities/surfaces.py``) is grouped by surface (kind, app,
site), and within it by the conversation the row shows — the entity its URL or title
names (a channel, a thread, a person, a meeting), else its cleaned window title. Times
are the rows' own credited time, the same time the ledger holds:

- a surface that is a whole ledger entry (Slack, mail.google.com) has exactly the
  ledger's seconds; a surface that is part of one (LinkedIn's messaging pages) has its
  rows' milliseconds rounded half up once, and says which ledger entry it is part of;
- a surface's seconds are shared among its conversations and its unnamed time by
  largest remainder, so they add up to the surface exactly.

Titles and URLs only: message bodies are never read, and a client whose titles name no
conversation leaves only its presence (``unnamed_s``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, TypedDict

from ..doc_types import (
    CommsView,
    Conversation,
    ConversationsOmitted,
    LedgerEntry,
    Surface,
)
from ..entities import clean_title
from ..entities.surfaces import names_conversation, names_something, surface_of
from ..entities.title_rules import app_family, normalise_app
from .disclosures import input_recorded
from .document import Clock, Doc, input_obj, site_key
from .ledger import round_half_up_s
from .page_refs import row_ref
from .pieces import Piece, Row
from .ranges import compact

SCOPE = (
    "window titles, URLs and app names only: message bodies are never read; a client "
    "whose titles name no conversation shows its time as unnamed"
)
MAX_TITLES = 3  # distinct titles shown per conversation
MAX_CONVERSATIONS = 50  # per surface; the rest are counted and their time disclosed
_SEPARATORS = (" - ", " — ", " – ", " | ", " · ")
_WORD = re.compile(r"\w+")
_ACCOUNT = re.compile(r"[^\s@]+@[^\s@]+\.\w+")  # the signed-in account in a mail title
_TLDS = frozenset({"com", "org", "net", "io", "app", "www", "co", "us", "me"})

SurfaceKey = tuple[str, str, str | None]  # (kind, app, site)
ConvKey = tuple[str, str]  # (kind, entity), or ("title", cleaned title)


def communications(doc: Doc, frames: Sequence[Piece]) -> CommsView:
    """The communications view of a compiled window."""
    clock = Clock(doc["window"]["tz"])
    parent: dict[int, str] = {}
    pieces: list[Piece] = []
    for f in frames:
        parent[id(f)] = f.id
        pieces.append(f)
        for i in f.interruptions:
            parent[id(i)] = f.id
            pieces.append(i)

    key_ms: dict[tuple[str, str | None], int] = {}
    rows: dict[SurfaceKey, list[tuple[Row, Piece, ConvKey | None, str]]] = {}
    for p in pieces:
        app, site = p.key
        browser = app_family(app) == "browser"
        for r in p.rows:
            key_ms[p.key] = key_ms.get(p.key, 0) + r.credit_ms
            s = r.snap
            ref = row_ref(s.app, s.title, s.url)
            kind = surface_of(app, site, ref[0] if ref else None, browser)
            if kind is None:
                continue
            title = clean_title(s.app, s.title)
            rows.setdefault((kind, app, site), []).append(
                (r, p, _conversation(ref, app, site, title), title)
            )

    ledger = {_key(e): e["active_s"] for e in doc["ledger"]}
    surfaces = [_surface(key, got, ledger, key_ms, parent, clock) for key, got in rows.items()]
    surfaces.sort(key=lambda s: (-s["active_s"], s["first"], s["app"], s.get("site") or ""))
    if not input_recorded(doc):  # zero counts would read as "typed nothing"
        for surface in surfaces:
            surface["input"] = None
    return {
        "schema_version": doc["schema_version"],
        "source": doc["source"],
        "window": doc["window"],
        "scope": SCOPE,
        "totals": {
            "active_s": sum(s["active_s"] for s in surfaces),
            "surfaces": len(surfaces),
            "by_kind": _by_kind(surfaces),
        },
        "surfaces": surfaces,
    }


def _key(e: LedgerEntry) -> tuple[str, str | None]:
    return e["app"], e.get("site")


def _conversation(
    ref: tuple[str, str] | None, app: str, site: str | None, title: str
) -> ConvKey | None:
    """The entity a row's URL or title names, else — where the reference names no
    conversation of its own (none at all, or an e-mail client's catch-all) — its title
    without the client's and the account's names."""
    if ref is not None:
        if names_conversation(ref[0], ref[1], app):
            return ref
        if ref[0] != "email":
            return None  # a calendar, a search, settings: time on the surface, no conversation
    named = _strip_client(title, app, site)
    return ("title", named) if named and names_something(named, app) else None


def _strip_client(title: str, app: str, site: str | None) -> str:
    """The title without its trailing parts that only name the client, the site or the
    account (``Re: Budget - me@acme.dev - Gmail`` → ``Re: Budget``), or ""."""
    own = set(_WORD.findall(normalise_app(app)))
    if site:
        own |= {w for w in _WORD.findall(site.casefold()) if w not in _TLDS}
    cut = len(title)
    rest = title
    while True:
        at = max((rest.rfind(sep), sep) for sep in _SEPARATORS)
        tail = rest[at[0] + len(at[1]) :] if at[0] >= 0 else rest
        words = set(_WORD.findall(tail.casefold()))
        # "Gmail" names mail.google.com: a site word inside a trailing word counts too.
        client = any(o in w for w in words for o in own if len(o) >= 4) or words & own
        if not (_ACCOUNT.fullmatch(tail.strip()) or not words or client):
            break
        cut = at[0] if at[0] >= 0 else 0
        rest = title[:cut]
        if cut == 0:
            break
    return title[:cut].strip()


def _surface(
    key: SurfaceKey,
    got: list[tuple[Row, Piece, ConvKey | None, str]],
    ledger: dict[tuple[str, str | None], int],
    key_ms: dict[tuple[str, str | None], int],
    parent: dict[int, str],
    clock: Clock,
) -> Surface:
    kind, app, site = key
    got.sort(key=lambda t: (t[0].start_ms, t[0].snap.row_id))
    ms = sum(r.credit_ms for r, *_ in got)
    whole = ms == key_ms.get((app, site), -1) and (app, site) in ledger
    active_s = ledger[(app, site)] if whole else round_half_up_s(ms)

    visits: dict[int, Piece] = {}
    convs: dict[ConvKey, dict[str, Any]] = {}
    unnamed_ms = 0
    prev: tuple[ConvKey | None, int] | None = None
    for r, p, conv, title in got:
        visits.setdefault(id(p), p)
        if conv is None:
            unnamed_ms += r.credit_ms
            prev = (None, id(p))
            continue
        c = convs.get(conv)
        if c is None:
            c = convs[conv] = {
                "ms": 0, "visits": 0, "first": r.start_ms, "last": r.end_ms,
                "titles": {}, "frames": {}, "rows": [],
            }  # fmt: skip
        c["ms"] += r.credit_ms
        c["last"] = max(c["last"], r.end_ms)
        if prev != (conv, id(p)):
            c["visits"] += 1
        prev = (conv, id(p))
        if title and len(c["titles"]) < MAX_TITLES:
            c["titles"][title] = None
        c["frames"][parent[id(p)]] = None
        c["rows"].append(r.snap.row_id)

    order = sorted(convs, key=lambda k: (-convs[k]["ms"], convs[k]["first"], k))
    shares = _largest_remainder([convs[k]["ms"] for k in order] + [unnamed_ms], active_s)
    shown = order[:MAX_CONVERSATIONS]
    conversations = [_conv_obj(k, convs[k], shares[i], clock) for i, k in enumerate(shown)]
    hidden_s = sum(shares[len(shown) : len(order)])

    counts: dict[str, int] = {}
    for p in visits.values():
        for name, n in p.input.items():
            counts[name] = counts.get(name, 0) + n
    part: _PartKey = {} if whole else {"part_of_ledger_s": ledger.get((app, site), 0)}
    more: _OmittedKey = {}
    if len(order) > len(shown):
        more = {"omitted": {"conversations": len(order) - len(shown), "active_s": hidden_s}}
    return {
        "kind": kind,
        "app": app,
        **site_key(site),
        "active_s": active_s,
        # Part of an (app, site) ledger entry: the rest of the site is something else.
        **part,
        "visits": len(visits),
        "first": clock.iso(got[0][0].start_ms),
        "last": clock.iso(max(r.end_ms for r, *_ in got)),
        "input": input_obj(counts),
        "conversations": conversations,
        **more,
        "unnamed_s": shares[-1],
        "evidence": {"frames": ",".join(dict.fromkeys(parent[id(p)] for p in visits.values()))},
    }


# A surface's and a conversation's optional keys, empty when absent (as in document.py).
class _PartKey(TypedDict, total=False):
    part_of_ledger_s: int


class _OmittedKey(TypedDict, total=False):
    omitted: ConversationsOmitted


class _Named(TypedDict, total=False):
    entity: str
    title: str
    titles: list[str]


def _conv_obj(key: ConvKey, c: dict[str, Any], active_s: int, clock: Clock) -> Conversation:
    kind, name = key
    named: _Named = {"title": name} if kind == "title" else {"entity": name}
    if kind != "title" and c["titles"]:
        named["titles"] = list(c["titles"])
    return {
        "kind": kind,
        **named,
        "active_s": active_s,
        "visits": c["visits"],
        "first": clock.iso(c["first"]),
        "last": clock.iso(c["last"]),
        "evidence": {"frames": ",".join(c["frames"]), "rows": compact(c["rows"])},
    }


def _largest_remainder(ms: list[int], total_s: int) -> list[int]:
    """Whole seconds for each of ``ms`` adding up to ``total_s``: floors first, the rest to
    the largest remainders (ties: earlier first)."""
    floors = [m // 1000 for m in ms]
    extra = total_s - sum(floors)
    if extra < 0:  # a whole ledger entry rounded down below its floors cannot happen
        extra = 0
    order = sorted(range(len(ms)), key=lambda i: (-(ms[i] % 1000), i))
    for i in order[:extra]:
        floors[i] += 1
    return floors


def _by_kind(surfaces: Sequence[Surface]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in surfaces:
        out[s["kind"]] = out.get(s["kind"], 0) + s["active_s"]
    return dict(sorted(out.items()))
