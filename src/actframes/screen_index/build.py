"""Bringing the index up to date with a store, one UTC day ("unit") at a time.

A unit's *stamp* says, per kind of text, how many text rows the store holds in it, the
largest row id and the total length of their texts. A unit whose stamp is the one it was
indexed with is left as it is. One whose new rows all lie above the row ids indexed, and
whose stamp is the indexed one plus theirs, none earlier than the latest indexed, only
grew: its new rows are added (a run of the same text continued). Any other change (an
edit, a deletion, rows written into the past) rebuilds the unit from its rows. A store
that gives no stamp of its own (a query of counts) has it computed from the rows read,
which decides the same.

Each text is redacted (``redact.py``) before it is written; the text of an element whose
role holds what the user typed (``form_roles``) is never indexed. Identical consecutive
texts of one kind and app are one entry, with every capture and row it stands for.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..compile.ranges import compact, expand
from ..form_roles import holds_content
from ..model import ScreenText
from .index_file import IndexFile

UNIT_MS = 86_400_000  # a UTC day: the index does not depend on a zone
MAX_TEXT_CHARS = 20_000  # of one capture's text; the rest is not indexed

Stamp = dict[str, list[int]]  # kind -> [rows, largest row id, total length, (CRC sum)]


def units(start_ms: int, end_ms: int) -> list[int]:
    """The starts of the UTC days that [start_ms, end_ms) touches."""
    first = start_ms - start_ms % UNIT_MS
    return list(range(first, end_ms, UNIT_MS))


def stamp_of(rows: Iterable[ScreenText]) -> Stamp:
    """Per kind [rows, largest row id, total text length, a sum of the rows' CRC-32s]: the
    first three are what a store's own stamp gives; the last, from rows read, tells an edit
    that kept a text's length too."""
    out: Stamp = {}
    for r in rows:
        s = out.setdefault(r.kind, [0, 0, 0, 0])
        s[0] += 1
        s[1] = max(s[1], r.row_id)
        s[2] += len(r.text)
        s[3] = (s[3] + zlib.crc32(f"{r.row_id}\x00{r.text}".encode("utf-8", "replace"))) % _MOD
    return out


_MOD = 1 << 61


def _grown(old: Stamp, new_rows: Sequence[ScreenText]) -> Stamp:
    out = {k: list(v) for k, v in old.items()}
    for k, v in stamp_of(new_rows).items():
        s = out.setdefault(k, [0, 0, 0, 0])
        out[k] = [s[0] + v[0], max(s[1], v[1]), s[2] + v[2], (s[3] + v[3]) % _MOD]
    return out


def _text(s: Stamp) -> str:
    return json.dumps(s, sort_keys=True, separators=(",", ":"))


def bring_up_to_date(
    index: IndexFile,
    read: Callable[[int, int, dict[str, int] | None], list[ScreenText]],
    stamp: Callable[[int, int], object],
    redact: Callable[[str], str],
    unit_starts: Sequence[int],
) -> dict[str, int]:
    """Each unit of ``unit_starts`` as the store holds it now; counts of what was done.
    ``stamp(a, b)``: the store's own cheap stamp of a unit's text rows (anything JSON can
    hold, compared only with itself), or None; ``read``: the unit's text rows."""
    done = {"kept": 0, "grown": 0, "built": 0}
    for a in unit_starts:
        b = a + UNIT_MS
        state = index.unit(a)
        own = stamp(a, b)
        own_text = None if own is None else json.dumps(own, sort_keys=True)
        if state is not None and own_text is not None and state[2] == own_text:
            done["kept"] += 1
            continue
        rows = read(a, b, None)  # (reading a day is cheap; redacting it is what costs)
        got = stamp_of(rows)
        if state is not None and json.loads(state[0]) == got:
            index.note_own_stamp(a, own_text)
            done["kept"] += 1
            continue
        if state is not None:
            # Grown: rows above the ids indexed, none before the latest indexed time (a
            # row written into the past would change a run already indexed), and the rest
            # as indexed (the stamps add up).
            after = state[1]
            new = [r for r in rows if r.row_id > after.get(r.kind, 0)]
            later = all(r.ts_ms >= index.last_ms(a) for r in new)
            if new and later and _grown(json.loads(state[0]), new) == got:
                with index.transaction() as conn:
                    _write(conn, index, a, new, redact, got, own_text, True)
                done["grown"] += 1
                continue
        with index.transaction() as conn:
            index.drop_unit(conn, a)
            _write(conn, index, a, rows, redact, got, own_text, False)
        done["built"] += 1
    return done


def _write(
    conn: sqlite3.Connection,
    index: IndexFile,
    unit: int,
    rows: Sequence[ScreenText],
    redact: Callable[[str], str],
    stamp: Stamp,
    own: str | None,
    grow: bool,
) -> None:
    """Index ``rows`` (a unit's, or its new ones after the last indexed): runs of the same
    text per kind and app become one entry; on ``grow`` the unit's last run per kind is
    continued by the same text."""
    last: dict[str, list[Any]] = index.last_runs(conn, unit) if grow else {}
    # last run per kind: [id or None, app, text, capture_ids, row_ids, first_ms, last_ms,
    # focused]
    runs: dict[str, list[Any]] = {
        k: [v[0], v[1], v[2], expand(v[3]), expand(v[4]), None, v[5], None] for k, v in last.items()
    }
    after = dict.fromkeys(stamp, 0)
    for k, v in stamp.items():
        after[k] = v[1]
    redacted: dict[str, str] = {}  # each distinct text redacted once (screens repeat)
    for r in sorted(rows, key=lambda r: (r.ts_ms, r.kind, r.row_id)):
        if r.role and holds_content(r.role):
            continue  # a form value: never indexed
        text = redacted.get(r.text)
        if text is None:
            text = redacted[r.text] = redact(r.text[:MAX_TEXT_CHARS]).strip()
        if not text:
            continue
        run = runs.get(r.kind)
        if run is not None and run[1] == r.app and run[2] == text:
            if r.capture_id is not None:
                run[3].append(r.capture_id)
            run[4].append(r.row_id)
            run[6] = max(run[6], r.ts_ms)
            continue
        if run is not None:
            _flush(conn, unit, r.kind, run)
        runs[r.kind] = [
            None,
            r.app,
            text,
            [] if r.capture_id is None else [r.capture_id],
            [r.row_id],
            r.ts_ms,
            r.ts_ms,
            r.focused,
        ]
    for kind, run in runs.items():
        _flush(conn, unit, kind, run)
    conn.execute(
        "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?)",
        (unit, _text(stamp), json.dumps(after, sort_keys=True), own),
    )


def _flush(conn: sqlite3.Connection, unit: int, kind: str, run: list[Any]) -> None:
    tid, app, text, captures, row_ids, first, last, focused = run
    if tid is not None:  # a kept run, continued (or not) by the new rows
        conn.execute(
            "UPDATE texts SET last_ms = ?, capture_ids = ?, row_ids = ? WHERE id = ?",
            (last, compact(captures), compact(row_ids), tid),
        )
        return
    cur = conn.execute(
        "INSERT INTO texts (start_ms, kind, app, focused, first_ms, last_ms, capture_ids,"
        " row_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (unit, kind, app, int(bool(focused)), first, last, compact(captures), compact(row_ids)),
    )
    conn.execute("INSERT INTO fts (rowid, text) VALUES (?, ?)", (cur.lastrowid, text))
