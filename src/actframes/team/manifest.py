"""The team manifest: who is compiled, from which store, in which zone, over which days.

CSV with the header ``person,store,tz,start,end`` (``start``/``end`` optional ISO days),
or TOML with one ``[[person]]`` table per person (keys ``id``, ``store``, ``tz``,
``start``, ``end``). Store paths are relative to the manifest's folder. Person ids are
pseudonyms: they become folder names of the datasets, so they are restricted to
letters, digits, ``_``, ``-`` and ``.``, which also keeps e-mail addresses out.
"""

from __future__ import annotations

import csv
import re
import tomllib
from datetime import date, timedelta
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import UsageError
from ..window import WindowError, parse_day, zone

HEADER = ("person", "store", "tz", "start", "end")
PERSON_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_DAYS = 3660  # ten years: a longer range is a typo


class Person(NamedTuple):
    person: str
    store: Path
    tz: str
    start: str | None
    end: str | None


def load_manifest(path: Path) -> list[Person]:
    """The people of a manifest, in its order; UsageError naming the row and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{path}: cannot read the manifest ({e})") from None
    toml = path.suffix.lower() == ".toml"
    raws = _toml_rows(path, text) if toml else _csv_rows(path, text)
    people: list[Person] = []
    seen: set[str] = set()
    for where, raw in raws:
        p = _person(path, where, raw)
        if p.person in seen:
            raise UsageError(f"{path}: {where}: person {p.person!r} is listed twice")
        seen.add(p.person)
        people.append(p)
    if not people:
        raise UsageError(f"{path}: the manifest lists nobody")
    return people


def _csv_rows(path: Path, text: str) -> list[tuple[str, dict[str, str]]]:
    reader = csv.reader(text.splitlines())
    header = next(reader, None)
    if header is None or tuple(h.strip() for h in header) != HEADER:
        raise UsageError(f"{path}: line 1: the header must be {','.join(HEADER)}")
    out = []
    for n, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(HEADER):
            raise UsageError(f"{path}: line {n}: {len(row)} fields, expected {len(HEADER)}")
        out.append((f"line {n}", dict(zip(HEADER, (c.strip() for c in row), strict=True))))
    return out


def _toml_rows(path: Path, text: str) -> list[tuple[str, dict[str, str]]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not valid TOML ({e})") from None
    people = data.get("person")
    if not isinstance(people, list):
        raise UsageError(f"{path}: expected [[person]] tables")
    out = []
    for n, t in enumerate(people, start=1):
        if not isinstance(t, dict):
            raise UsageError(f"{path}: person {n}: not a table")
        row = {"person": t.get("id", ""), **{k: t.get(k, "") for k in HEADER[1:]}}
        out.append((f"person {n}", {k: _text(v) for k, v in row.items()}))
    return out


def _text(v: Any) -> str:
    return v.isoformat() if isinstance(v, date) else str(v).strip()


def _person(path: Path, where: str, raw: dict[str, str]) -> Person:
    pid = raw["person"]
    if not PERSON_ID.match(pid):
        raise UsageError(
            f"{path}: {where}: field person: {pid!r} is not a pseudonym"
            " (letters, digits, '_', '-', '.'; at most 64)"
        )
    if not raw["store"]:
        raise UsageError(f"{path}: {where}: field store is empty")
    store = Path(raw["store"]).expanduser()
    if not store.is_absolute():
        # Absolute, so workers in other folders (Ray's) open the same file.
        store = (path.parent / store).absolute()
    tz = raw["tz"]
    try:
        zone(tz)
    except WindowError:
        raise UsageError(f"{path}: {where}: field tz: unknown zone {tz!r}") from None
    start = _day(path, where, "start", raw["start"])
    end = _day(path, where, "end", raw["end"])
    if start and end and start > end:
        raise UsageError(f"{path}: {where}: start {start} is after end {end}")
    if start and end and (date.fromisoformat(end) - date.fromisoformat(start)).days >= MAX_DAYS:
        raise UsageError(f"{path}: {where}: more than {MAX_DAYS} days")
    return Person(pid, store, tz, start, end)


def _day(path: Path, where: str, field: str, text: str) -> str | None:
    if not text:
        return None
    try:
        return parse_day(text).isoformat()
    except WindowError:
        raise UsageError(
            f"{path}: {where}: field {field}: {text!r} is not a YYYY-MM-DD day"
        ) from None


def days_between(start: str, end: str) -> list[str]:
    """Every local day from ``start`` to ``end``, both included."""
    a, b = date.fromisoformat(start), date.fromisoformat(end)
    return [(a + timedelta(days=i)).isoformat() for i in range((b - a).days + 1)]
