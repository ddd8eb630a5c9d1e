"""Mutated stores and exports, and the CLI run on each: the fuzz test's cases.

A case is a seed. It builds one valid store of a family (screenpipe, native, an
ActivityWatch export or an aw-server-rust sqlite.db), applies one to three mutations —
wrong types, NULLs, 200 kB strings, ±1e308, impossible and far-away timestamps, dropped
columns and tables, missing buckets, truncated files, flipped bytes — and runs one
command on it in this process, bounded by an alarm. A case fails when the command ends in
an internal error (or any traceback), runs over its time limit, prints something that is
not UTF-8, or changes the input.

``python -m tests.fuzz_inputs --cases 3000`` runs a long campaign and prints its numbers.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import signal
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from actframes.model import InputEvent, Snapshot, Span

from .builders import native_db, screenpipe_db, sha256

DAY = "2026-03-10"
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z
BIG = "Q" * 200_000
FORMATS = ("json", "md", "context", "html", "yaml")

# Values that are wrong in some way for any column.
ODD_VALUES: list[Any] = [
    None,
    "",
    " ",
    BIG,
    1e308,
    -1e308,
    float("inf"),
    float("nan"),
    2**63 - 1,
    -(2**63),
    0,
    -1,
    3.5,
    True,
    b"\xff\xfe\x00junk",
    b"",
    "garbage",
    "\x00\x1b[31m\u202e\u2066",
    "\ud800",
    "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z",
    "2026-02-30T25:61:00Z",
    "2026-03-10",
    "2026-03-10T09:00:00",
    "2026-03-10T09:00:00+99:99",
    "1e308",
    "-0",
    "[]",
    "{}",
    "null",
    "2200-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
    "2026-03-10T09:00:00.1234567891234Z",
]


@dataclass
class Outcome:
    case: int
    family: str
    mutations: list[str]
    args: list[str]
    code: int
    seconds: float
    problem: str | None  # None: a clean run or a clean one-line refusal


# ---------------------------------------------------------------------------------------
# Valid stores


def _rows(rng: random.Random, n: int) -> list[tuple[int, int, str, str, str | None]]:
    apps = ["Code", "Google Chrome", "Slack", "Terminal", "firefox"]
    urls = [None, "https://github.com/a/b/pull/1", "https://mail.google.com/mail/u/0/"]
    t, out = T0, []
    for i in range(1, n + 1):
        t += rng.choice([1_000, 5_000, 20_000, 60_000, 400_000])
        app = rng.choice(apps)
        url = rng.choice(urls) if app in ("Google Chrome", "firefox") else None
        out.append((i, t, app, f"{app} window {rng.randrange(5)}", url))
    return out


def _iso(ms: int) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, UTC).isoformat().replace("+00:00", "Z")


def make_screenpipe(path: Path, rng: random.Random) -> Path:
    rows = _rows(rng, rng.randrange(5, 40))
    frames = [
        (i, _iso(t), a, ti, u, rng.choice(["monitor_0", "monitor_1"])) for i, t, a, ti, u in rows
    ]
    events = [
        (
            j,
            _iso(T0 + rng.randrange(0, 3_600_000)),
            rng.choice(["key", "click", "scroll"]),
            rng.choice(["Code", "Slack", None]),
        )
        for j in range(1, rng.randrange(2, 30))
    ]
    return screenpipe_db(path, frames, events)


def make_native(path: Path, rng: random.Random) -> Path:
    rows = _rows(rng, rng.randrange(5, 40))
    snaps = [Snapshot(i, t, a, ti, u) for i, t, a, ti, u in rows]
    events = [
        InputEvent(
            j,
            T0 + rng.randrange(0, 3_600_000),
            rng.choice(["key", "click"]),
            rng.choice(["Code", "Slack", None]),
        )
        for j in range(1, 20)
    ]
    afk = [Span(T0 + 600_000, T0 + 900_000)]
    return native_db(path, snaps, events, afk)


def _aw_doc(rng: random.Random) -> dict[str, Any]:
    rows = _rows(rng, rng.randrange(5, 40))
    window = [
        {
            "id": i,
            "timestamp": _iso(t),
            "duration": rng.choice([0, 1.5, 30, 59.999]),
            "data": {"app": a, "title": ti},
        }
        for i, t, a, ti, _ in rows
    ]
    web = [
        {
            "id": i,
            "timestamp": _iso(t),
            "duration": 10.0,
            "data": {"url": u, "title": ti, "audible": False, "incognito": False},
        }
        for i, t, _, ti, u in rows
        if u
    ]
    afk = [
        {"id": 1, "timestamp": _iso(T0), "duration": 3600.0, "data": {"status": "not-afk"}},
        {"id": 2, "timestamp": _iso(T0 + 3_600_000), "duration": 600.0, "data": {"status": "afk"}},
    ]

    def bucket(bid: str, type_: str, events: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "id": bid,
            "created": "2026-03-01T00:00:00+00:00",
            "type": type_,
            "client": bid.split("_")[0],
            "hostname": "host",
            "events": events[::-1],
        }

    buckets = [
        bucket("aw-watcher-window_host", "currentwindow", window),
        bucket("aw-watcher-afk_host", "afkstatus", afk),
        bucket("aw-watcher-web-chrome", "web.tab.current", web),
    ]
    return {"buckets": {b["id"]: b for b in buckets}}


def make_aw_export(path: Path, rng: random.Random) -> Path:
    path.write_text(json.dumps(_aw_doc(rng)), encoding="utf-8")
    return path


def make_aw_sqlite(path: Path, rng: random.Random) -> Path:
    from .sources.test_activitywatch import export_to_sqlite

    export = path.with_suffix(".src.json")
    export.write_text(json.dumps(_aw_doc(rng)), encoding="utf-8")
    export_to_sqlite(export, path)
    export.unlink()
    return path


FAMILIES: dict[str, Callable[[Path, random.Random], Path]] = {
    "screenpipe": make_screenpipe,
    "native": make_native,
    "aw-export": make_aw_export,
    "aw-sqlite": make_aw_sqlite,
}


# ---------------------------------------------------------------------------------------
# Mutations


def _sqlite_tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    names = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {t: [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')] for t in names}


def mutate_sqlite(path: Path, rng: random.Random) -> str:
    kind = rng.choice(
        ["values", "values", "values", "drop column", "drop table", "truncate", "flip bytes"]
    )
    if kind == "truncate":
        return _truncate(path, rng)
    if kind == "flip bytes":
        return _flip(path, rng)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys=OFF")
    try:
        tables = _sqlite_tables(conn)
        table = rng.choice(sorted(tables))
        cols = tables[table]
        if kind == "drop table":
            conn.execute(f'DROP TABLE "{table}"')
            conn.commit()
            return f"drop table {table}"
        col = rng.choice(cols)
        if kind == "drop column":
            for (idx,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name=?"
                " AND sql IS NOT NULL",
                (table,),
            ).fetchall():
                conn.execute(f'DROP INDEX "{idx}"')
            for (trig,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type='trigger'"
            ).fetchall():
                conn.execute(f'DROP TRIGGER "{trig}"')
            try:
                conn.execute(f'ALTER TABLE "{table}" DROP COLUMN "{col}"')
            except sqlite3.OperationalError:  # a key column: change its values instead
                kind = "values"
            else:
                conn.commit()
                return f"drop column {table}.{col}"
        value = rng.choice(ODD_VALUES)
        target = "?"
        if isinstance(value, str) and "\ud800" in value:
            value = value.encode("utf-8", "surrogatepass")  # CESU bytes, read back as TEXT
            target = "CAST(? AS TEXT)"
        if isinstance(value, float) and value != value:
            value = None  # SQLite stores NaN as NULL anyway
        rowids = [r[0] for r in conn.execute(f'SELECT rowid FROM "{table}" ORDER BY rowid')]
        picked = rng.sample(rowids, min(rng.randrange(1, 4), len(rowids)))
        listed = ",".join(map(str, picked)) or "NULL"
        with contextlib.suppress(sqlite3.IntegrityError):
            conn.execute(
                f'UPDATE "{table}" SET "{col}" = {target} WHERE rowid IN ({listed})', (value,)
            )
        conn.commit()
        return f"set {table}.{col}={_short(value)} x{len(picked)}"
    finally:
        conn.close()


def _walk(node: Any, rng: random.Random, depth: int = 0) -> Iterator[tuple[Any, Any]]:
    """(container, key) pairs of a JSON tree."""
    if isinstance(node, dict):
        for k in list(node):
            yield node, k
            yield from _walk(node[k], rng, depth + 1)
    elif isinstance(node, list):
        for i in range(len(node)):
            yield node, i
            yield from _walk(node[i], rng, depth + 1)


def mutate_json(path: Path, rng: random.Random) -> str:
    kind = rng.choice(
        ["values", "values", "values", "delete", "missing bucket", "truncate", "flip bytes"]
    )
    if kind == "truncate":
        return _truncate(path, rng)
    if kind == "flip bytes":
        return _flip(path, rng)
    doc = json.loads(path.read_text(encoding="utf-8"))
    if kind == "missing bucket" and isinstance(doc.get("buckets"), dict) and doc["buckets"]:
        bid = rng.choice(sorted(doc["buckets"]))
        del doc["buckets"][bid]
        path.write_text(json.dumps(doc), encoding="utf-8")
        return f"drop bucket {bid}"
    spots = list(_walk(doc, rng))
    if not spots:
        return "none"
    done = []
    for _ in range(rng.randrange(1, 4)):
        container, key = rng.choice(spots)
        if kind == "delete" and isinstance(container, dict):
            container.pop(key, None)
            done.append(f"del {key}")
            spots = list(_walk(doc, rng))
            if not spots:
                break
            continue
        with contextlib.suppress(IndexError, KeyError):
            value = rng.choice([*ODD_VALUES[:14], [], {}, [1, "x"], {"a": None}])
            container[key] = value.decode("latin-1") if isinstance(value, bytes) else value
            done.append(f"{key}={_short(value)}")
    text = json.dumps(doc)  # NaN / Infinity as JavaScript writes them; surrogates escaped
    path.write_text(text, encoding="utf-8")
    return "json " + ", ".join(done)


def _truncate(path: Path, rng: random.Random) -> str:
    data = path.read_bytes()
    cut = rng.randrange(0, max(1, len(data)))
    path.write_bytes(data[:cut])
    return f"truncate to {cut} of {len(data)}"


def _flip(path: Path, rng: random.Random) -> str:
    data = bytearray(path.read_bytes())
    n = rng.randrange(1, 20)
    for _ in range(n):
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))
    return f"flip {n} bits"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 40 else f"{text[:20]}…({len(text)} chars)"


# ---------------------------------------------------------------------------------------
# Running a case


class _Overtime(BaseException):
    """Raised by the alarm: not an Exception, so the CLI's own handler does not catch it."""


def build_case(case: int, folder: Path, seed: int = 0) -> tuple[str, Path, list[str], list[str]]:
    rng = random.Random(f"{seed}:{case}")
    family = rng.choice(sorted(FAMILIES))
    ext = ".json" if family == "aw-export" else ".db"
    path = FAMILIES[family](folder / f"case{case}{ext}", rng)
    mutate = mutate_json if family == "aw-export" else mutate_sqlite
    mutations = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        if not path.exists() or path.stat().st_size == 0:
            break
        try:
            mutations.append(mutate(path, rng))
        except (sqlite3.DatabaseError, ValueError, UnicodeDecodeError):
            break  # the file is broken already: no further mutation applies
    command = rng.choice(["day"] * 5 + ["apps"])
    args = [command, DAY, "--db", str(path), "--tz", rng.choice(["UTC", "Asia/Tokyo"])]
    if command == "day":
        args += ["--format", rng.choice(FORMATS), "--no-cache"]
    return family, path, mutations, args


def run_case(case: int, folder: Path, seed: int = 0, limit_s: int = 30) -> Outcome:
    from actframes import cli

    family, path, mutations, args = build_case(case, folder, seed)
    before = sha256(path) if path.exists() else None
    out, err = io.StringIO(), io.StringIO()
    code = 0
    problem: str | None = None

    def overtime(signum: int, frame: Any) -> None:
        raise _Overtime

    old = signal.signal(signal.SIGALRM, overtime)
    signal.alarm(limit_s)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except _Overtime:
        code, problem = -1, f"over {limit_s} s"
    except BaseException as exc:  # any escape is the finding
        code, problem = -2, f"escaped: {type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - start
    stderr = err.getvalue()
    if problem is None:
        problem = _judge(code, out.getvalue(), stderr)
    if problem is None and before is not None and (not path.exists() or sha256(path) != before):
        problem = "the input changed"
    return Outcome(case, family, mutations, args, code, seconds, problem)


def _judge(code: int, stdout: str, stderr: str) -> str | None:
    if "Traceback" in stderr or "internal error" in stderr:
        return stderr.strip()[:300]
    try:
        stdout.encode("utf-8")
        stderr.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"output is not UTF-8: {exc}"
    if code == 0:  # a document, and at most the one-line warning of rejected rows
        warned = stderr.startswith("actframes: warning: ") and stderr.count("\n") == 1
        return None if stdout and (not stderr or warned) else f"exit 0, stderr {stderr[:200]!r}"
    if code in (1, 2) and stderr.startswith("actframes: error: ") and stderr.count("\n") == 1:
        return None
    return f"exit {code}: {stderr[:300]!r}"


def campaign(
    cases: range, folder: Path, seed: int = 0, budget_s: float | None = None
) -> list[Outcome]:
    """Run ``cases`` in order; with ``budget_s``, stop starting new ones once it is spent."""
    outcomes = []
    start = time.perf_counter()
    for case in cases:
        if budget_s is not None and time.perf_counter() - start > budget_s:
            break
        outcomes.append(run_case(case, folder, seed))
        for p in folder.glob(f"case{case}*"):
            p.unlink()
    return outcomes


def main(argv: list[str]) -> int:
    import argparse
    import tempfile

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ns = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        outcomes = campaign(range(ns.cases), Path(tmp), ns.seed)
    bad = [o for o in outcomes if o.problem]
    slowest = max(outcomes, key=lambda o: o.seconds)
    codes: dict[int, int] = {}
    for o in outcomes:
        codes[o.code] = codes.get(o.code, 0) + 1
    print(f"cases {len(outcomes)} (seed {ns.seed}); exit codes {dict(sorted(codes.items()))}")
    print(f"internal errors / problems: {len(bad)}")
    print(
        f"slowest case {slowest.case} ({slowest.family}, {slowest.mutations},"
        f" {' '.join(slowest.args[:1] + slowest.args[5:])}): {slowest.seconds:.2f} s"
    )
    for o in bad[:30]:
        print(f"  case {o.case} {o.family} {o.mutations} {o.args[0]}: {o.problem}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
