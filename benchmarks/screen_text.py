"""The screen-text benchmarks (#37): a 30-day screenpipe store with the words on screen.

Used by ``benchmarks/run.py`` (``screen-index-day``, ``screen-search-warm``).

The store is screenpipe's event-driven schema of 2026-03-15 as the test fixtures build it
(``tests/sources/screenpipe_screen_text.py``: the migrations replayed, ``frames_fts`` and
``elements_fts`` with their triggers), its frames and apps those of the simulator
(``_simulate``, ~3,000 captures a day from 2026-01-01, ids continuing from day to day) on
one monitor, each capture written as ``insert_snapshot_frame_with_ocr`` writes it:

- a window's content is a long text made per (app, title) — terminal output (appended
  to), code and documents (scrolled, a line edited), chat (messages appended), web pages
  and mail (scrolled) — of which a capture shows about 2 kB; a screen that did not change
  shows the same text again (about half the captures repeat the one before), a window
  left and come back to shows where it was;
- the terminal's and the meeting's text is OCR (``text_source = 'ocr'``: an ``ocr_text``
  row, ``accessibility_text`` and ``full_text`` the OCR text); Slack is ``hybrid`` (its
  window chrome from the tree, the messages from OCR); the other apps' text is the
  accessibility tree's (``accessibility_text``, ``full_text`` a copy) with one
  ``elements`` row per tree node (a window, groups without text, a heading, buttons,
  one static text per paragraph). OCR elements (blocks) are not written: the reader
  never reads them;
- ``ui_events`` as the simulator writes them (so the documents the results are grouped
  by have input).

Planted words (``QUERIES``): a word used now and then in code and documents
(``idempotency``), a phrase in chat a few times a day (``deploy freeze until friday``),
a phrase on one mail page on one day only, and a word in a chat message every day
(``standup``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path
from typing import Any

FIRST_DAY, DAYS, TZ, SEED, ROWS = "2026-01-01", 30, "UTC", 11, 3_000
LAST_DAY = (date.fromisoformat(FIRST_DAY) + timedelta(days=DAYS - 1)).isoformat()
SCREEN_CHARS = 2_000  # about what one capture shows
DAY_TARGET_S = 5.0  # one day indexed from scratch
WARM_TARGET_MS = 50.0  # a warm 30-day search_screen, median
RARE_DAY = 17  # the day (index from 0) the rare phrase is on screen
VERSION = 1  # of the store the builder writes: raised when it writes another

WORD = "idempotency"
PHRASE = "deploy freeze until friday"
RARE = "lease agreement countersigned by Okonkwo"
EVERY_DAY = "standup"
QUERIES = {"word": WORD, "phrase": PHRASE, "rare_phrase": RARE, "every_day_word": EVERY_DAY}

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------- words

_ENGLISH = """
the of and to in is that for it as with was on be by this are or from at an have not but
which they all were we when there can more one has been would their will if about so
what out up into some could them other than then now only its also after these two first
way our well even new want because any through most us over after before should need
make like just time people year work back use day good very know take see get account
balance invoice customer payment request response service retry timeout queue worker
release version branch merge review comment change update deploy rollback cluster region
latency error warning metric dashboard report quarter revenue budget forecast plan
meeting agenda notes action item owner deadline draft proposal contract vendor partner
design spec test coverage build pipeline staging production incident postmortem alert
schedule calendar travel flight hotel expense receipt approve reject pending complete
summary context decision question answer issue ticket priority blocker sprint roadmap
feature flag experiment cohort churn retention signup onboarding pricing discount
subscription renewal refund dispute ledger reconcile export import schema migration
index cache session token user admin role permission audit log storage bucket backup
restore snapshot replica shard partition throughput capacity cost saving estimate risk
mitigation
""".split()  # noqa: SIM905
_NAMES = """Maria Jonas Priya Tomasz Aiko Lucas Fatima Diego Chen Olga Samir Hannah Kwame Ingrid
Mateo Yuki Noor Pieter Amara Ravi
""".split()  # noqa: SIM905
_PARTS = """
user account invoice payment order cart session token cache queue job retry batch ledger
entry refund charge customer price plan tier quota limit event stream record index shard
report metric span trace config flag
""".split()  # noqa: SIM905
_VERBS = """get set load save parse build apply handle fetch sync merge check compute
""".split()  # noqa: SIM905
_CMDS = [
    "git status",
    "git log --oneline -5",
    "pytest -q tests/",
    "make build",
    "docker ps",
    "kubectl get pods -n billing",
    "ls -la",
    "npm run test",
    "cargo build --release",
    "tail -f logs/worker.log",
]


class Words:
    """Seeded text of the kinds a screen shows."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def word(self) -> str:
        r = self.rng.random()
        if r < 0.0004:
            return WORD
        if r < 0.06:  # an identifier, a number or a hash: a screen's many rare tokens
            return self.rng.choice((self.ident(), str(self.rng.randrange(10, 99_999)), self.hex()))
        return self.rng.choice(_ENGLISH)

    def sentence(self, n: int | None = None) -> str:
        n = n or self.rng.randint(6, 16)
        s = " ".join(self.word() for _ in range(n))
        return s[0].upper() + s[1:] + "."

    def ident(self) -> str:
        a, b = self.rng.choice(_VERBS), self.rng.choice(_PARTS)
        if self.rng.random() < 0.5:
            return f"{a}_{b}_{self.rng.choice(_PARTS)}"
        return a + b.capitalize() + self.rng.choice(_PARTS).capitalize()

    def hex(self, n: int = 8) -> str:
        return f"{self.rng.getrandbits(4 * n):0{n}x}"

    def clock(self) -> str:
        return f"{self.rng.randint(8, 18):02d}:{self.rng.randint(0, 59):02d}"

    # -- a window's content, as lines; ``more`` adds what appears next

    def terminal(self) -> list[str]:
        return [ln for _ in range(6) for ln in self.command()]

    def command(self) -> list[str]:
        cmd = self.rng.choice(_CMDS)
        out = [f"alex@mbp actframes % {cmd}"]
        for _ in range(self.rng.randint(2, 10)):
            kind = self.rng.random()
            if kind < 0.3:
                out.append(f"{self.hex(7)} {self.sentence(6)}")
            elif kind < 0.55:
                out.append(
                    f"2026-01-{self.rng.randint(1, 30):02d}T{self.clock()}"
                    f":{self.rng.randint(0, 59):02d}Z INFO {self.ident()} {self.sentence(5)}"
                    f" id={self.hex(12)}"
                )
            elif kind < 0.75:
                n = self.rng.randint(1, 400)
                out.append(f"tests/test_{self.rng.choice(_PARTS)}.py::{self.ident()} PASSED [{n}%]")
            elif kind < 0.85:
                n = self.rng.randint(10, 900)
                out.append(
                    f'  File "src/{self.rng.choice(_PARTS)}.py", line {n}, in {self.ident()}'
                )
                out.append(f"KeyError: '{self.rng.choice(_PARTS)}_id'")
            else:
                out.append(
                    f"-rw-r--r--  1 alex  staff  {self.rng.randint(100, 99999):>6}"
                    f" {self.ident()}.py"
                )
        return out

    def code(self) -> list[str]:
        out: list[str] = []
        for _ in range(self.rng.randint(8, 14)):
            name = self.ident()
            args = ", ".join(self.rng.choice(_PARTS) for _ in range(self.rng.randint(1, 3)))
            out.append(f"def {name}({args}):")
            out.append(f'    """{self.sentence(9)}"""')
            for _ in range(self.rng.randint(3, 9)):
                r = self.rng.random()
                if r < 0.4:
                    out.append(
                        f"    {self.rng.choice(_PARTS)} = {self.ident()}({self.rng.choice(_PARTS)})"
                    )
                elif r < 0.6:
                    out.append(f"    if {self.rng.choice(_PARTS)} is None:")
                    out.append(f"        raise ValueError('{self.sentence(5)}')")
                elif r < 0.8:
                    out.append(f"    # {self.sentence(8)}")
                else:
                    out.append(
                        f"    return {self.ident()}({self.rng.choice(_PARTS)},"
                        f" {self.rng.randrange(100)})"
                    )
            out.append("")
        return out

    def document(self) -> list[str]:
        out = []
        for _ in range(self.rng.randint(10, 18)):
            if self.rng.random() < 0.2:
                out.append("## " + self.sentence(4).rstrip("."))
            out.append(" ".join(self.sentence() for _ in range(self.rng.randint(2, 5))))
        return out

    def chat(self) -> list[str]:
        return [ln for _ in range(12) for ln in self.message()]

    def message(self, planted: str | None = None) -> list[str]:
        text = self.sentence()
        if planted is not None:
            text = f"{text[:-1]}, {planted} — {self.sentence(5)}"
        elif self.rng.random() < 0.02:
            text = f"{self.sentence(4)[:-1]}: {PHRASE}, {self.sentence(4).lower()}"
        return [f"{self.rng.choice(_NAMES)}  {self.clock()}", text]

    def web(self, title: str) -> list[str]:
        out = [title, "Home  Products  Pricing  Docs  Blog  Sign in"]
        if "Mail" in title or "Inbox" in title:
            for _ in range(25):
                out.append(
                    f"{self.rng.choice(_NAMES)}  {self.sentence(5)[:-1]} —"
                    f" {self.sentence(8)}  {self.clock()}"
                )
            return out
        return out + self.document()

    def meeting(self) -> list[str]:
        people = self.rng.sample(_NAMES, 6)
        out = ["Mute  Stop Video  Participants  Share Screen  Record  Reactions  Leave"]
        out += [f"{p}  {self.sentence(4)}" for p in people]
        out += [ln for _ in range(6) for ln in self.message()]
        return out


# ---------------------------------------------------------------------------- windows


class Window:
    """One (app, title)'s content and where it is scrolled to; each capture shows about
    SCREEN_CHARS of it."""

    def __init__(self, words: Words, app: str, title: str) -> None:
        self.words, self.app, self.title = words, app, title
        self.kind = _kind(app, title)
        w = words
        make: dict[str, Callable[[], list[str]]] = {
            "terminal": w.terminal,
            "code": w.code,
            "doc": w.document,
            "chat": w.chat,
            "meeting": w.meeting,
            "web": lambda: w.web(title),
        }
        self.lines = make[self.kind]()
        self.top = 0
        self.follow = self.kind in ("terminal", "chat", "meeting")  # shows the end

    def screen(self) -> list[str]:
        if self.follow:  # the last lines that fit
            out: list[str] = []
            size = 0
            for ln in reversed(self.lines):
                if size + len(ln) > SCREEN_CHARS and out:
                    break
                out.append(ln)
                size += len(ln) + 1
            return out[::-1]
        out, size = [], 0
        for ln in self.lines[self.top :]:
            if size + len(ln) > SCREEN_CHARS and out:
                break
            out.append(ln)
            size += len(ln) + 1
        return out

    def change(self, planted: str | None = None) -> None:
        """What happens between two captures that differ."""
        w, rng = self.words, self.words.rng
        if planted is not None:  # a chat message, or a mail row, holding the phrase
            if self.kind == "chat":
                self.lines += w.message(planted)
            else:
                at = self.top + 2
                self.lines.insert(at, f"{rng.choice(_NAMES)}  {planted} — {w.sentence(6)}")
            return
        if self.kind == "terminal":
            self.lines += w.command()
        elif self.kind in ("chat", "meeting"):
            for _ in range(rng.randint(1, 2)):
                self.lines += w.message()
        elif self.kind == "code" and rng.random() < 0.5:  # a line edited
            at = min(len(self.lines) - 1, self.top + rng.randrange(20))
            self.lines[at] = f"    {rng.choice(_PARTS)} = {w.ident()}({w.rng.choice(_PARTS)})"
        else:  # scrolled, and more of the page made when near its end
            self.top = max(0, self.top + rng.randint(-4, 9))
            if self.top + 40 > len(self.lines):
                self.lines += w.code() if self.kind == "code" else w.document()
        if len(self.lines) > 4_000:  # a long-lived terminal or chat: keep the tail
            del self.lines[:2_000]


def _kind(app: str, title: str) -> str:
    if app == "Terminal":
        return "terminal"
    if app == "Slack":
        return "chat"
    if app == "zoom.us":
        return "meeting"
    if app == "Code":
        return "doc" if title.split(" ", 1)[0].endswith((".md", ".txt", ".rst")) else "code"
    return "web"


def _tree(w: Window, lines: list[str]) -> list[tuple[str, str, int]]:
    """The accessibility tree of a screen: (role, text, depth) in walk order — a window
    and a group without text, the title as a heading, a few buttons, one static text per
    paragraph (a few lines)."""
    nodes = [("AXWindow", "", 0), ("AXHeading", w.title, 1), ("AXGroup", "", 1)]
    for i in range(0, len(lines), 4):
        text = "\n".join(ln for ln in lines[i : i + 4] if ln)
        nodes.append(("AXStaticText", text, 2))
    nodes += [("AXButton", b, 1) for b in ("Back", "Share", "More")]
    return nodes


# ---------------------------------------------------------------------------- build


def build(path: Path, days: int = DAYS) -> None:
    """The 30 days (see the module's docstring), written day by day."""
    sys.path.insert(0, str(ROOT))
    from tests.sources.screenpipe_screen_text import blocks, text_store, tree_text
    from tests.sources.screenpipe_versions import NEWEST

    from actframes.simulate.generator import _simulate
    from actframes.simulate.writers import _event_rows, format_ts

    store = text_store(path, NEWEST)  # the schema, WAL, the FTS tables and triggers
    conn = store.conn
    rng = random.Random(SEED)
    words = Words(rng)
    windows: dict[tuple[str, str], Window] = {}
    first = date.fromisoformat(FIRST_DAY)
    row, event, element = 1, 1, 1
    ev_cols = ", ".join(r[1] for r in conn.execute("PRAGMA table_info(ui_events)").fetchall()[:26])
    for i in range(days):
        day = (first + timedelta(days=i)).isoformat()
        sim = _simulate(
            day, TZ, SEED + i, ROWS, ("",), light=False, first_row=row, first_event=event
        )
        row, event = row + len(sim.snapshots), event + len(sim.events)
        frames, ocr, elements = [], [], []
        prev: Window | None = None
        owed = {EVERY_DAY: True, RARE: i == RARE_DAY}
        for s in sim.snapshots:
            key = (s.app, s.title)
            w = windows.get(key)
            if w is None:
                w = windows[key] = Window(words, s.app, s.title)
            plant = None
            if owed[EVERY_DAY] and w.kind == "chat":
                plant, owed[EVERY_DAY] = f"{EVERY_DAY} moved to 10:15 today", False
            elif owed[RARE] and w.kind == "web" and "Mail" in s.title:
                plant, owed[RARE] = RARE, False
            if plant is not None:
                w.change(plant)
            elif rng.random() < (0.45 if w is prev else 0.3):
                w.change()  # else the same text as before: nothing moved on that screen
            prev = w
            lines = w.screen()
            ocr_text = tree = None
            if w.kind in ("terminal", "meeting"):
                ocr_text, acc, source = "\n".join(lines), "\n".join(lines), "ocr"
                full = acc
            elif w.kind == "chat":
                tree = [
                    ("AXWindow", "", 0),
                    ("AXButton", "Minimize", 1),
                    ("AXStaticText", "Slack", 1),
                ]
                ocr_text = "\n".join(lines)
                acc, source = tree_text(tree), "hybrid"
                full = f"{acc}\n{ocr_text}"
            else:
                tree = _tree(w, lines)
                acc, source = tree_text(tree), "accessibility"
                full = acc
            ts = format_ts(s.ts_ms)
            snap = f"/Users/me/.screenpipe/data/snapshots/monitor_1/{s.ts_ms}.jpg"
            tree_json = (
                json.dumps([{"role": r, "text": t, "depth": d} for r, t, d in tree])
                if tree
                else None
            )
            frames.append(
                (
                    s.row_id,
                    ts,
                    snap,
                    s.app,
                    s.title,
                    s.url,
                    snap,
                    acc,
                    tree_json,
                    "click",
                    source,
                    full,
                )
            )
            if ocr_text:
                ocr.append((s.row_id, ocr_text, blocks(ocr_text), len(ocr_text.encode())))
            parents: dict[int, int] = {}
            for n, (role, text, depth) in enumerate(tree or []):
                elements.append(
                    (element, s.row_id, role, text or None, parents.get(depth - 1), depth,
                     0.1, 0.1 + n * 0.05, 0.5, 0.04, n)
                )  # fmt: skip
                parents[depth] = element
                element += 1
        with conn:
            conn.executemany(
                "INSERT INTO frames (id, video_chunk_id, offset_index, timestamp, name, app_name,"
                " window_name, focused, browser_url, device_name, snapshot_path,"
                " accessibility_text, accessibility_tree_json, capture_trigger, text_source,"
                " full_text) VALUES (?, NULL, 0, ?, ?, ?, ?, 1, ?, 'monitor_1', ?, ?, ?, ?, ?, ?)",
                frames,
            )
            conn.executemany(
                "INSERT INTO ocr_text (frame_id, text, text_json, ocr_engine, text_length)"
                " VALUES (?, ?, ?, 'AppleNative', ?)",
                ocr,
            )
            conn.executemany(
                "INSERT INTO elements (id, frame_id, source, role, text, parent_id, depth,"
                " left_bound, top_bound, width_bound, height_bound, sort_order)"
                " VALUES (?, ?, 'accessibility', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                elements,
            )
            conn.executemany(
                f"INSERT INTO ui_events ({ev_cols}) VALUES ({', '.join('?' * 26)})",
                _event_rows(sim, "iso_z_micro"),
            )
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def describe(db: Path) -> dict[str, Any]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        one = conn.execute
        frames = int(one("SELECT count(*) FROM frames").fetchone()[0])
        chars = int(one("SELECT sum(length(full_text)) FROM frames").fetchone()[0])
        elements = int(one("SELECT count(*) FROM elements").fetchone()[0])
        ocr = int(one("SELECT count(*) FROM ocr_text").fetchone()[0])
    return {
        "rows": frames,
        "days": DAYS,
        "first": FIRST_DAY,
        "text_chars_per_capture": round(chars / max(frames, 1)),
        "ocr_rows": ocr,
        "elements": elements,
        "store_mb": round(db.stat().st_size / 1e6, 1),
    }


# ---------------------------------------------------------------------------- measuring


def _days() -> list[str]:
    first = date.fromisoformat(FIRST_DAY)
    return [(first + timedelta(days=i)).isoformat() for i in range(DAYS)]


def _day_ms(day: str) -> int:
    from actframes.timeparse import parse_iso_ms

    return parse_iso_ms(f"{day}T00:00:00+00:00")


def _env(work: Path, cache: Path) -> dict[str, str]:
    """The cache folder given, and a config folder of no config file (screen text on)."""
    config = work / "config"
    config.mkdir(exist_ok=True)
    return {**os.environ, "TZ": TZ, "ACTFRAMES_CACHE": str(cache), "XDG_CONFIG_HOME": str(config)}


def _index_bytes(cache: Path) -> int:
    return sum(p.stat().st_size for p in (cache / "screen").glob("*.sqlite*") if p.is_file()
               and not p.name.endswith("-shm"))  # fmt: skip


def _stats(xs: list[float], unit: float = 1.0, digits: int = 3) -> dict[str, Any]:
    v = sorted(x * unit for x in xs)
    return {
        "median": round(statistics.median(v), digits),
        "min": round(v[0], digits),
        "max": round(v[-1], digits),
        "runs": [round(x * unit, digits) for x in xs],
    }


def index_day(db: Path, work: Path, runs: int) -> dict[str, Any]:
    """One day indexed from scratch: ``actframes search PHRASE --date D`` as a whole
    process on an empty cache folder (the index built, the day compiled to group the
    hits, JSON written), then ``ScreenSearch.update`` of one day in process (and where its
    time goes), then all 30 days in process: the index's size per day."""
    exe = Path(sys.executable).parent / "actframes"
    days = _days()
    picks = [days[(3 + 7 * i) % DAYS] for i in range(max(runs, 1))]  # different days
    procs: list[tuple[float, float, int, int]] = []  # wall, cpu, index bytes, results
    for n, day in enumerate(picks):
        cache = work / f"cache-cli-{n}"
        argv = [str(exe), "search", PHRASE, "--date", day, "--db", str(db), "--tz", TZ]
        argv += ["--format", "json"]
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            t0 = time.perf_counter()
            proc = subprocess.Popen(argv, stdout=out, stderr=err, env=_env(work, cache))
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - t0
            proc.returncode = code = os.waitstatus_to_exitcode(status)
            if code != 0:
                err.seek(0)
                raise RuntimeError(f"actframes search exited {code}: {err.read()[-400:]!r}")
            out.seek(0)
            found = len(json.loads(out.read())["results"])
        procs.append((wall, usage.ru_utime + usage.ru_stime, _index_bytes(cache), found))
        shutil.rmtree(cache, ignore_errors=True)

    inproc = [_update_in_process(db, work / f"cache-lib-{n}", day) for n, day in enumerate(picks)]
    month = _update_in_process(db, work / "cache-month", FIRST_DAY, DAYS, profile=False)

    walls = [p[0] for p in procs]
    builds = [r["update_s"] for r in inproc]
    result: dict[str, Any] = {**describe(db)}
    result["ours"] = {
        "median_s": statistics.median(walls),
        "peak_rss_mb": 0.0,
        "process_s": _stats(walls),
        "process_cpu_s": _stats([p[1] for p in procs]),
        "results_found": [p[3] for p in procs],
    }
    result["in_process"] = {
        "update_s": _stats(builds),
        "days": picks,
        "per_day": inproc,
    }
    result["index_bytes_one_day"] = _stats([float(p[2]) for p in procs], digits=0)
    result["month"] = {
        "update_s": month["update_s"],
        "index_bytes": month["index_bytes"],
        "index_bytes_per_day": round(month["index_bytes"] / DAYS),
        "index_bytes_checkpointed": month["index_bytes_checkpointed"],
        "texts": month["texts"],
    }
    per_day_mb = month["index_bytes"] / DAYS / 1e6
    one_mb = result["index_bytes_one_day"]["median"] / 1e6
    worst = max(statistics.median(walls), statistics.median(builds))
    result["note"] = (
        f"whole process {statistics.median(walls):.2f} s,"
        f" update() {statistics.median(builds):.2f} s;"
        f" index {one_mb:.1f} MB for one day (after the process), {per_day_mb:.1f} MB a day"
        f" over {DAYS} days (.sqlite + -wal; checkpointed"
        f" {month['index_bytes_checkpointed'] / DAYS / 1e6:.1f})"
        f" (built in {month['update_s']:.1f} s)"
    )
    result["target"] = f"<= {DAY_TARGET_S:g} s a day (process and update)"
    result["met"] = worst <= DAY_TARGET_S
    return result


def _update_in_process(
    db: Path, cache: Path, day: str, days: int = 1, profile: bool = True
) -> dict[str, Any]:
    """``ScreenSearch.update`` of ``days`` days from ``day`` into an empty cache folder;
    with ``profile``, the same day's parts timed apart afterwards: reading its texts
    (``source.screen_text``), redacting them, and the index's writes (the rest)."""
    from actframes.api import Store
    from actframes.screen_index.build import MAX_TEXT_CHARS, stamp_of
    from actframes.screen_index.search import ScreenSearch

    a = _day_ms(day)
    b = a + days * 86_400_000
    store = Store(db, disk_cache=False)
    finder = ScreenSearch(store, cache)
    try:
        t0 = time.perf_counter()
        done = finder.update(a, b)
        took = time.perf_counter() - t0
        conn = finder.index.conn
        texts = dict(conn.execute("SELECT kind, count(*) FROM texts GROUP BY kind").fetchall())
        out: dict[str, Any] = {
            "day": day,
            "update_s": round(took, 3),
            "built": done["built"],
            "texts": texts,
            "index_bytes": finder.index.size(),  # .sqlite + -wal, as the build left them
        }
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out["index_bytes_checkpointed"] = finder.index.size()
        if profile:
            from actframes.redact import redact

            t0 = time.perf_counter()
            rows = finder.source.screen_text(a, b)  # type: ignore[attr-defined]
            read = time.perf_counter() - t0
            t0 = time.perf_counter()
            stamp_of(rows)
            stamp = time.perf_counter() - t0
            t0 = time.perf_counter()
            for r in rows:
                redact(r.text[:MAX_TEXT_CHARS])
            red = time.perf_counter() - t0
            kinds: dict[str, list[int]] = {}
            for r in rows:
                k = kinds.setdefault(r.kind, [0, 0])
                k[0] += 1
                k[1] += len(r.text)
            out["rows_read"] = {k: {"rows": v[0], "chars": v[1]} for k, v in kinds.items()}
            out["parts_s"] = {
                "read": round(read, 3),
                "stamp": round(stamp, 3),
                "redact": round(red, 3),
                "index_writes_and_rest": round(max(0.0, took - read - stamp - red), 3),
            }
    finally:
        finder.close()
        store.close()
        shutil.rmtree(cache, ignore_errors=True)
    return out


def search_warm(db: Path, work: Path, runs: int) -> dict[str, Any]:
    """``search_screen`` over the 30 days on a warm ``actframes mcp`` (the official client
    over stdio): the first call builds the index (timed apart), each query is asked once
    untimed, then ``runs`` rounds of every query in turn."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from warm import _children_cpu_s

    cache = work / "cache"
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", TZ],
        env=_env(work, cache),
    )
    span = {"since": FIRST_DAY, "until": LAST_DAY}
    calls = max(runs, 20)

    async def run() -> dict[str, Any]:
        times: dict[str, list[float]] = {k: [] for k in QUERIES}
        found: dict[str, int] = {}
        async with Client(server, read_timeout_seconds=600) as client:

            async def ask(label: str) -> tuple[float, Any]:
                t0 = time.perf_counter()
                got = await client.call_tool("search_screen", {"query": QUERIES[label], **span})
                took = time.perf_counter() - t0
                if got.is_error:
                    raise RuntimeError(f"search_screen failed: {got.content}")
                return took, got

            first_s, _ = await ask("word")  # builds the index of the 30 days
            for label in QUERIES:  # the days' documents compiled, the vocabulary read
                _, got = await ask(label)
                found[label] = len((got.structured_content or {}).get("results", []))
            cpu0 = _children_cpu_s("actframes.cli")
            for _ in range(calls):
                for label in QUERIES:
                    took, _ = await ask(label)
                    times[label].append(took)
            cpu1 = _children_cpu_s("actframes.cli")
        server_cpu = (
            None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / (calls * len(QUERIES))
        )
        return {"first_s": first_s, "times": times, "found": found, "server_cpu_s": server_cpu}

    got = asyncio.run(run())
    every = [t for ts in got["times"].values() for t in ts]
    per = {}
    for label, ts in got["times"].items():
        ms = sorted(t * 1000 for t in ts)
        per[label] = {
            "query": QUERIES[label],
            "results": got["found"][label],
            "median_ms": round(statistics.median(ms), 1),
            "p95_ms": round(ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))], 1),
        }
    ms = sorted(t * 1000 for t in every)
    med = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    result: dict[str, Any] = {**describe(db), "index_bytes": _index_bytes(cache)}
    result["ours"] = {
        "median_s": med / 1000,
        "peak_rss_mb": 0.0,
        "median_ms": round(med, 1),
        "p95_ms": round(p95, 1),
        "max_ms": round(ms[-1], 1),
        "calls": len(ms),
    }
    if got["server_cpu_s"] is not None:
        result["ours"]["server_cpu_ms"] = round(got["server_cpu_s"] * 1000, 1)
    result["queries"] = per
    result["first_call_s"] = round(got["first_s"], 2)
    result["note"] = (
        f"p95 {p95:.0f} ms; per query median "
        + ", ".join(f"{k} {v['median_ms']:.0f}" for k, v in per.items())
        + f" ms; first call (30 days indexed) {got['first_s']:.1f} s"
    )
    result["target"] = f"median <= {WARM_TARGET_MS:g} ms"
    result["met"] = med <= WARM_TARGET_MS
    return result
