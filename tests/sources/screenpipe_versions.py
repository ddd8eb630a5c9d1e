"""screenpipe databases as screenpipe itself writes them, at several points of its history.

Written from screenpipe's own source (see SPEC.md, "screenpipe: what was checked"): the
schema is built by replaying, in date order, what its migrations did to the tables we
read (``_MIGRATIONS``: our summary, not its SQL), and rows are written the way its
writers fill them — one ``frames`` row per capture with the app on it (mid-2024), the app
in ``ocr_text`` one row per window with ``focused`` (August 2024 to February 2025), one
``frames`` row per captured window with ``focused`` (2025 to February 2026), and the
event-driven capture (since late February 2026: one frame per monitor per trigger, each
with the system-wide focused app). Input goes to ``ui_events`` as its recorder writes it.

A ``Day`` is generated from a seed and written into any version; it keeps the truth the
tests compare with: the focused app at each capture instant, and the input made.
"""

from __future__ import annotations

import hashlib
import random
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

# Each entry: (date of the upstream migration, statements with the same effect on the
# tables the reader looks at). Indexes and FTS tables are left out unless a reader
# could notice them; the columns and their defaults are what matters.
_MIGRATIONS: list[tuple[str, list[str]]] = [
    (
        "2024-07-03",
        [
            "CREATE TABLE video_chunks (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " file_path TEXT NOT NULL)",
            "CREATE TABLE frames (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " video_chunk_id INTEGER NOT NULL, offset_index INTEGER NOT NULL,"
            " timestamp TIMESTAMP NOT NULL)",
            "CREATE TABLE ocr_text (frame_id INTEGER NOT NULL, text TEXT NOT NULL)",
            "CREATE TABLE audio_chunks (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " file_path TEXT NOT NULL)",
            "CREATE TABLE audio_transcriptions (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " audio_chunk_id INTEGER NOT NULL, offset_index INTEGER NOT NULL,"
            " timestamp TIMESTAMP NOT NULL, transcription TEXT NOT NULL)",
            "CREATE INDEX idx_ocr_text_frame_id ON ocr_text(frame_id)",
        ],
    ),
    (
        "2024-07-16",
        [
            "ALTER TABLE ocr_text ADD COLUMN text_json TEXT",
            "ALTER TABLE frames ADD COLUMN app_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE ocr_text ADD COLUMN app_name TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE ocr_text ADD COLUMN ocr_engine TEXT NOT NULL DEFAULT 'unknown'",
        ],
    ),
    (
        "2024-08-15",
        [
            "ALTER TABLE ocr_text ADD COLUMN window_name TEXT",
            "ALTER TABLE frames DROP COLUMN app_name",
            "ALTER TABLE ocr_text ADD COLUMN focused BOOLEAN DEFAULT FALSE",
        ],
    ),
    ("2024-10-24", ["ALTER TABLE video_chunks ADD COLUMN device_name TEXT NOT NULL DEFAULT ''"]),
    ("2024-11-03", ["CREATE INDEX idx_frames_timestamp ON frames(timestamp)"]),
    ("2025-01-17", ["ALTER TABLE frames ADD COLUMN name TEXT"]),
    (
        "2025-01-30",
        [
            "ALTER TABLE ocr_text ADD COLUMN text_length INTEGER",
            "ALTER TABLE audio_transcriptions ADD COLUMN text_length INTEGER",
        ],
    ),
    (
        "2025-01-31",
        [
            "ALTER TABLE frames ADD COLUMN sync_id TEXT",
            "ALTER TABLE frames ADD COLUMN machine_id TEXT",
            "ALTER TABLE frames ADD COLUMN synced_at DATETIME",
            "ALTER TABLE frames ADD COLUMN device_name TEXT NOT NULL DEFAULT ''",
        ],
    ),
    (
        "2025-02-02",
        [
            "CREATE TABLE accessibility (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " timestamp DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, app_name TEXT NOT NULL,"
            " window_name TEXT NOT NULL, text_content TEXT NOT NULL, browser_url TEXT)",
            "CREATE TABLE ui_events (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " timestamp DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP, session_id TEXT,"
            " relative_ms INTEGER NOT NULL DEFAULT 0, event_type TEXT NOT NULL,"
            " x INTEGER, y INTEGER, delta_x INTEGER, delta_y INTEGER, button INTEGER,"
            " click_count INTEGER, key_code INTEGER, modifiers INTEGER, text_content TEXT,"
            " text_length INTEGER, app_name TEXT, app_pid INTEGER, window_title TEXT,"
            " browser_url TEXT, element_role TEXT, element_name TEXT, element_value TEXT,"
            " element_description TEXT, element_automation_id TEXT, element_bounds TEXT,"
            " frame_id INTEGER, sync_id TEXT, machine_id TEXT, synced_at DATETIME)",
            "CREATE INDEX idx_ui_events_timestamp ON ui_events(timestamp)",
        ],
    ),
    ("2025-02-19", ["ALTER TABLE frames ADD COLUMN browser_url TEXT DEFAULT NULL"]),
    (
        "2025-02-23",
        [
            "ALTER TABLE frames ADD COLUMN app_name TEXT DEFAULT NULL",
            "ALTER TABLE frames ADD COLUMN window_name TEXT DEFAULT NULL",
            "ALTER TABLE frames ADD COLUMN focused BOOLEAN DEFAULT NULL",
        ],
    ),
    ("2026-02-06", ["ALTER TABLE video_chunks ADD COLUMN fps REAL NOT NULL DEFAULT 0.5"]),
    (
        "2026-02-20",
        [
            # frames rebuilt so snapshot frames need no video chunk, with new columns;
            # every old row is copied as it was
            "CREATE TABLE frames_new (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " video_chunk_id INTEGER DEFAULT NULL, offset_index INTEGER NOT NULL DEFAULT 0,"
            " timestamp TIMESTAMP NOT NULL, name TEXT, app_name TEXT DEFAULT NULL,"
            " window_name TEXT DEFAULT NULL, focused BOOLEAN DEFAULT NULL,"
            " browser_url TEXT DEFAULT NULL, device_name TEXT NOT NULL DEFAULT '',"
            " sync_id TEXT, machine_id TEXT, synced_at DATETIME,"
            " snapshot_path TEXT DEFAULT NULL, accessibility_text TEXT DEFAULT NULL,"
            " accessibility_tree_json TEXT DEFAULT NULL, content_hash INTEGER DEFAULT NULL,"
            " simhash INTEGER DEFAULT NULL, capture_trigger TEXT DEFAULT NULL,"
            " text_source TEXT DEFAULT NULL)",
            "INSERT INTO frames_new (id, video_chunk_id, offset_index, timestamp, name,"
            " app_name, window_name, focused, browser_url, device_name, sync_id, machine_id,"
            " synced_at) SELECT id, video_chunk_id, offset_index, timestamp, name, app_name,"
            " window_name, focused, browser_url, device_name, sync_id, machine_id, synced_at"
            " FROM frames",
            "DROP TABLE frames",
            "ALTER TABLE frames_new RENAME TO frames",
            "CREATE INDEX idx_frames_timestamp ON frames(timestamp)",
            "CREATE INDEX idx_frames_timestamp_device ON frames(timestamp, device_name)",
        ],
    ),
    (
        "2026-03-01",
        [
            "CREATE TABLE elements (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " frame_id INTEGER NOT NULL, source TEXT NOT NULL, role TEXT NOT NULL, text TEXT,"
            " parent_id INTEGER, depth INTEGER NOT NULL DEFAULT 0, left_bound REAL,"
            " top_bound REAL, width_bound REAL, height_bound REAL, confidence REAL,"
            " sort_order INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX idx_elements_frame_id ON elements(frame_id)",
        ],
    ),
    (
        "2026-03-12",
        [
            "ALTER TABLE frames ADD COLUMN full_text TEXT DEFAULT NULL",
            "DROP TABLE accessibility",
        ],
    ),
    # --- after 67f4c43, from EzraEllette/screenpipe at b23e6850 (SPEC.md §1.2a). From
    # here each entry's key is the migration file's prefix, date.time, so that
    # _sqlx_migrations can be recorded with screenpipe's own version numbers.
    ("2026-03-17.000000", ["ALTER TABLE elements ADD COLUMN properties TEXT"]),
    (
        "2026-03-18.000000",
        ["ALTER TABLE frames ADD COLUMN elements_ref_frame_id INTEGER DEFAULT NULL"],
    ),
    (
        "2026-04-29.000000",
        ["ALTER TABLE video_chunks ADD COLUMN evicted_at TIMESTAMP DEFAULT NULL"],
    ),
    (
        "2026-05-01.000000",
        [
            f"ALTER TABLE {t} ADD COLUMN {c}"
            for t in ("ocr_text", "ui_events")
            for c in ("text_redacted TEXT", "redacted_at INTEGER", "redaction_version INTEGER")
        ]
        + [
            "ALTER TABLE frames ADD COLUMN accessibility_text_redacted TEXT",
            "ALTER TABLE frames ADD COLUMN accessibility_redacted_at INTEGER",
            "ALTER TABLE frames ADD COLUMN accessibility_redaction_version INTEGER",
        ],
    ),
    ("2026-05-02.000000", ["ALTER TABLE elements ADD COLUMN on_screen INTEGER"]),
    (
        "2026-05-03.000000",
        [
            "ALTER TABLE frames ADD COLUMN image_redacted_at INTEGER",
            "ALTER TABLE frames ADD COLUMN image_redaction_version INTEGER",
            "ALTER TABLE frames ADD COLUMN image_redaction_regions TEXT",
        ],
    ),
    ("2026-05-04.120000", ["ALTER TABLE frames ADD COLUMN document_path TEXT DEFAULT NULL"]),
    (
        "2026-05-07.000000",
        [
            f"ALTER TABLE {t} DROP COLUMN {c}"
            for t in ("ocr_text", "ui_events")
            for c in ("text_redacted", "redaction_version")
        ]
        + [
            f"ALTER TABLE frames DROP COLUMN {c}"
            for c in (
                "accessibility_text_redacted",
                "accessibility_redaction_version",
                "image_redaction_version",
                "image_redaction_regions",
            )
        ],
    ),
    ("2026-06-13.000000", ["ALTER TABLE elements ADD COLUMN redacted_at INTEGER"]),
    ("2026-06-13.000001", ["ALTER TABLE frames ADD COLUMN full_text_redacted_at INTEGER"]),
    (
        # unify_ocr_text_into_frames: each column filled from the first ocr_text row of
        # the frame that has one (no ORDER BY: the lowest rowid), independently.
        "2026-06-13.130000",
        ["ALTER TABLE frames ADD COLUMN text_json TEXT DEFAULT NULL"]
        + [
            f"UPDATE frames SET {col} = (SELECT ot.{src} FROM ocr_text ot WHERE"
            f" ot.frame_id = frames.id AND {cond} LIMIT 1) WHERE {where} AND EXISTS"
            f" (SELECT 1 FROM ocr_text ot WHERE ot.frame_id = frames.id AND {cond})"
            for col, src, cond, where in (
                (
                    "app_name",
                    "app_name",
                    "ot.app_name IS NOT NULL AND ot.app_name != ''",
                    "(app_name IS NULL OR app_name = '')",
                ),
                (
                    "window_name",
                    "window_name",
                    "ot.window_name IS NOT NULL AND ot.window_name != ''",
                    "window_name IS NULL",
                ),
                ("focused", "focused", "ot.focused IS NOT NULL", "focused IS NULL"),
                (
                    "full_text",
                    "text",
                    "ot.text IS NOT NULL AND ot.text != ''",
                    "(full_text IS NULL OR full_text = '')",
                ),
                (
                    "text_json",
                    "text_json",
                    "ot.text_json IS NOT NULL AND ot.text_json != ''",
                    "text_json IS NULL",
                ),
            )
        ]
        + ["DROP TABLE ocr_text"],
    ),
    (
        "2026-06-19.000000",
        [
            "ALTER TABLE frames ADD COLUMN accessibility_tree_redacted_at INTEGER",
            "ALTER TABLE frames ADD COLUMN window_name_redacted_at INTEGER",
        ],
    ),
    ("2026-06-19.120000", ["ALTER TABLE frames ADD COLUMN browser_url_redacted_at INTEGER"]),
    ("2026-06-27.000000", ["ALTER TABLE frames ADD COLUMN text_json_redacted_at INTEGER"]),
    (
        "2026-07-02.130000",
        [
            "ALTER TABLE ui_events ADD COLUMN element_ancestors TEXT",
            "CREATE TABLE display_layout (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " timestamp TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),"
            " reason TEXT NOT NULL, layout_json TEXT NOT NULL)",
        ],
    ),
    (
        "2026-07-24.000000",
        [
            "CREATE TABLE semantic_runs (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " started_at TEXT, finished_at TEXT, producer TEXT)",
            "CREATE TABLE semantic_items (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT"
            " NOT NULL, title TEXT, body TEXT, actor TEXT, occurred_at TEXT)",
            "ALTER TABLE frames ADD COLUMN semantic_run_id INTEGER"
            " REFERENCES semantic_runs(id) ON DELETE SET NULL",
        ],
    ),
    (
        # screenpipe's own timeline, filled only when its Activity view is opened
        "2026-08-17.000000",
        [
            "CREATE TABLE activity_tasks (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " task_key TEXT NOT NULL UNIQUE, parent_task_id INTEGER, kind TEXT NOT NULL,"
            " title TEXT NOT NULL, app_name TEXT, confidence REAL, producer TEXT NOT NULL,"
            " user_locked INTEGER NOT NULL DEFAULT 0)",
            "CREATE TABLE activity_intervals (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " interval_key TEXT NOT NULL UNIQUE, task_id INTEGER NOT NULL, start_at TEXT"
            " NOT NULL, end_at TEXT NOT NULL, state TEXT NOT NULL, confidence REAL,"
            " producer TEXT NOT NULL)",
            "CREATE TABLE activity_actions (id INTEGER PRIMARY KEY AUTOINCREMENT,"
            " interval_id INTEGER, occurred_at TEXT NOT NULL, action_type TEXT NOT NULL,"
            " summary TEXT, app_name TEXT, source_type TEXT NOT NULL, source_id INTEGER)",
        ],
    ),
    (
        "2026-08-18.133000",
        [
            "CREATE INDEX idx_activity_intervals_producer_range"
            " ON activity_intervals(producer, start_at, end_at)"
        ],
    ),
]

# As sqlx-sqlite creates it (sqlx-sqlite/src/migrate.rs, ensure_migrations_table).
SQLX_TABLE = """CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
)"""


def sqlx_version(key: str) -> int:
    """The migration file's prefix from an entry's key: 2026-06-13.130000 -> 20260613130000
    (older entries, dated only, end in 000000)."""
    return int(key.replace("-", "").replace(".", "").ljust(14, "0"))


# The points of history the fixtures reproduce, each with the writer screenpipe used.
MID_2024 = "2024-08-10"  # app on frames (and ocr_text), one row per capture, no focus
LATE_2024 = "2024-11-20"  # app, window, focused in ocr_text: one row per visible window
FEB_2025 = "2025-02-10"  # as late 2024, plus device_name, text_length, ui_events (empty)
FEB_2026 = "2026-02-10"  # one frames row per captured window, focused; ui_events written
NEWEST = "2026-03-15"  # event-driven: one frame per monitor per trigger, elements
# focus-aware capture, HD recording, the clipboard poller, merged clicks, ocr_text gone
# (b23e6850, app 2.6.78; screenpipe_summer.py writes it)
SUMMER = "2026-08-22"
VERSIONS = (MID_2024, LATE_2024, FEB_2025, FEB_2026, NEWEST, SUMMER)


def migrate(conn: sqlite3.Connection, upto: str, after: str = "", *, sqlx: bool = False) -> None:
    """Apply the migrations dated in (after, upto]; with ``sqlx``, record every migration
    up to ``upto`` in ``_sqlx_migrations`` as sqlx does (the stores of 2026 have it)."""
    for date, statements in _MIGRATIONS:
        if after < date <= upto:
            for sql in statements:
                conn.execute(sql)
    if sqlx:
        conn.execute(SQLX_TABLE)
        for date, _ in _MIGRATIONS:
            if date <= upto:
                desc = f"migration {date}"
                conn.execute(
                    "INSERT OR IGNORE INTO _sqlx_migrations (version, description, success,"
                    " checksum, execution_time) VALUES (?, ?, 1, ?, 1234567)",
                    (sqlx_version(date), desc, hashlib.sha384(desc.encode()).digest()),
                )
    conn.commit()


def stamp(ts_ms: int, digits: int = 6) -> str:
    """A timestamp as screenpipe stores it: sqlx writes a chrono UTC time as RFC 3339 with
    the fraction's digits as needed (none, 3, 6 or 9) and a "+00:00" offset."""
    dt = datetime.fromtimestamp(ts_ms // 1000, UTC)
    frac = ts_ms % 1000
    base = dt.strftime("%Y-%m-%dT%H:%M:%S")
    if frac == 0:
        return base + "+00:00"
    if digits == 3:
        return f"{base}.{frac:03d}+00:00"
    return f"{base}.{frac:03d}{'0' * (digits - 3)}+00:00"


# ----------------------------------------------------------------------- the day's truth


@dataclass
class Episode:
    start_ms: int
    end_ms: int
    app: str
    title: str
    url: str | None = None


@dataclass
class Typed:
    ts_ms: int
    text: str


@dataclass
class Day:
    """What the user did: focused episodes (back to back within runs of work), and the
    input made in them. ``other`` is an app visible beside the focused one all day (on
    the second monitor, or behind it)."""

    episodes: list[Episode]
    typed: list[Typed] = field(default_factory=list)
    shortcuts: list[tuple[int, str]] = field(default_factory=list)  # (ts, app)
    clicks: list[tuple[int, str, int, int, str]] = field(default_factory=list)  # ts app x y name
    clipboard: list[tuple[int, str, str]] = field(default_factory=list)  # (ts, op, app)
    scrolls: list[tuple[int, str]] = field(default_factory=list)
    other: Episode | None = None

    def app_at(self, ts: int) -> str | None:
        for e in self.episodes:
            if e.start_ms <= ts < e.end_ms:
                return e.app
        return None


APPS = [
    ("Code", "reader.py — actframes", None),
    ("Google Chrome", "screenpipe · GitHub", "https://github.com/screenpipe/screenpipe"),
    ("Slack", "#eng - Acme - Slack", None),
    ("Terminal", "pytest -q", None),
    ("Notes", "Réunion café ☕", None),
]
WORDS = ["def", "read", "frames", "café", "naïve", "ok", "résumé", "x", "attention", "日本"]


def make_day(seed: int, start_ms: int, minutes: int = 90, grid_ms: int = 2000) -> Day:
    """Episodes of 1 to 8 minutes starting on a ``grid_ms`` grid (so a capture cycle sees
    each switch), one pause of 10 minutes (away), and input inside the episodes."""
    rnd = random.Random(seed)
    eps: list[Episode] = []
    t = start_ms
    end = start_ms + minutes * 60_000
    paused = False
    last = ""
    while t < end:
        app, title, url = rnd.choice([a for a in APPS if a[0] != last])
        last = app
        n = rnd.randint(30, 240) * grid_ms
        eps.append(Episode(t, min(t + n, end), app, title, url))
        t += n
        if not paused and t > start_ms + minutes * 30_000:
            paused, t = True, t + 600_000  # away: no capture at all
    day = Day(eps, other=Episode(start_ms, end + 600_000, "Spotify", "Daily Mix", None))
    for e in eps:
        s = e.start_ms + 1_500
        while s < e.end_ms - 3_000:
            roll = rnd.random()
            if roll < 0.45:
                words = [rnd.choice(WORDS) for _ in range(rnd.randint(1, 6))]
                day.typed.append(Typed(s, " ".join(words)))
            elif roll < 0.6:
                day.shortcuts.append((s, e.app))
            elif roll < 0.8:
                day.clicks.append((s, e.app, rnd.randint(0, 1800), rnd.randint(0, 1000), "OK"))
            elif roll < 0.9:
                day.clipboard.append((s, rnd.choice("cxv"), e.app))
            else:
                for k in range(rnd.randint(2, 8)):
                    day.scrolls.append((s + k * 40, e.app))
            s += rnd.randint(3_000, 12_000)
    return day


def run_end(day: Day, ep: Episode) -> bool:
    """Whether ``ep`` is the last of a run of back-to-back episodes."""
    later = [e for e in day.episodes if e.start_ms == ep.end_ms]
    return not later


# -------------------------------------------------------------------------- the writers


class Store:
    """One screenpipe database, created at ``version`` (its migrations applied)."""

    def __init__(
        self, path: Path, version: str, wal: bool = True, page_size: int | None = None
    ) -> None:
        path.unlink(missing_ok=True)
        self.path = path
        self.version = version
        self.conn = sqlite3.connect(path)
        if page_size is not None:  # before anything is written: fixed from then on
            self.conn.execute(f"PRAGMA page_size = {int(page_size)}")
        if wal:  # screenpipe opens its database in WAL mode
            self.conn.execute("PRAGMA journal_mode=WAL")
        migrate(self.conn, version, sqlx=version > NEWEST)
        self.chunks: dict[str, int] = {}
        self.offsets: dict[str, int] = {}

    def upgrade(self, version: str) -> None:
        """Apply the migrations after this store's version, up to ``version``."""
        migrate(self.conn, version, self.version, sqlx=version > NEWEST)
        self.version = version

    def close(self) -> None:
        self.conn.commit()
        self.conn.close()

    def cols(self, table: str) -> set[str]:
        return {r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")}

    def _insert(self, table: str, row: dict[str, object]) -> int:
        have = self.cols(table)
        row = {k: v for k, v in row.items() if k in have}
        sql = f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"
        cur = self.conn.execute(sql, list(row.values()))
        return int(cur.lastrowid or 0)

    def _chunk(self, device: str) -> tuple[int, int]:
        """The device's current video chunk and the next frame offset in it (a new chunk
        every 30 frames, as the video encoder rolls files)."""
        off = self.offsets.get(device, 30)
        if off >= 30:
            path = f"/Users/me/.screenpipe/data/{device}_{len(self.chunks)}.mp4"
            self.chunks[device] = self._insert(
                "video_chunks", {"file_path": path, "device_name": device}
            )
            off = 0
        self.offsets[device] = off + 1
        return self.chunks[device], off

    # --- frames, by era

    def capture_mid_2024(self, ts: int, app: str) -> int:
        """Aug 2024: one frame per capture of the whole screen, app on frames and
        ocr_text (the window was not recorded, nor focus)."""
        chunk, off = self._chunk("")
        fid = self._insert(
            "frames",
            {"video_chunk_id": chunk, "offset_index": off, "timestamp": stamp(ts), "app_name": app},
        )
        self._insert(
            "ocr_text",
            {
                "frame_id": fid,
                "text": f"{app} text",
                "text_json": "[]",
                "app_name": app,
                "ocr_engine": "AppleNative",
            },
        )
        return fid

    def capture_ocr_windows(
        self, ts: int, windows: list[tuple[str, str, bool]], device: str = "monitor_1"
    ) -> int:
        """Aug 2024 – Feb 2025: one frame per capture, one ocr_text row per visible
        window with its app, window name and ``focused``."""
        chunk, off = self._chunk(device)
        fid = self._insert(
            "frames",
            {
                "video_chunk_id": chunk,
                "offset_index": off,
                "timestamp": stamp(ts),
                "name": f"/data/{device}.mp4",
                "device_name": device,
            },
        )
        for app, title, focused in windows:
            text = f"{title} {app} ☕"
            self._insert(
                "ocr_text",
                {
                    "frame_id": fid,
                    "text": text,
                    "text_json": "[]",
                    "app_name": app,
                    "ocr_engine": "AppleNative",
                    "window_name": title,
                    "focused": focused,
                    "text_length": len(text.encode()),
                },
            )
        return fid

    def capture_windows(
        self, ts: int, device: str, windows: list[tuple[str, str, str | None, bool]]
    ) -> list[int]:
        """2025 – Feb 2026: one frames row per captured window of one monitor, all with
        the capture's timestamp and offset, each with app, window, URL and ``focused``;
        its OCR text in ocr_text without the app."""
        chunk, off = self._chunk(device)
        ids = []
        for app, title, url, focused in windows:
            fid = self._insert(
                "frames",
                {
                    "video_chunk_id": chunk,
                    "offset_index": off,
                    "timestamp": stamp(ts),
                    "name": f"/data/{device}.mp4",
                    "browser_url": url if focused else None,
                    "app_name": app,
                    "window_name": title,
                    "focused": focused,
                    "device_name": device,
                    "full_text": f"{title} text",
                },
            )
            self._insert(
                "ocr_text",
                {
                    "frame_id": fid,
                    "text": f"{title} text",
                    "text_json": "[]",
                    "ocr_engine": "AppleNative",
                    "text_length": len(f"{title} text".encode()),
                },
            )
            ids.append(fid)
        return ids

    def capture_event(
        self, ts: int, device: str, app: str, title: str, url: str | None, trigger: str
    ) -> int:
        """Since late Feb 2026: one snapshot frame per monitor per trigger, no video
        chunk, with the system-wide focused app (``focused`` always 1), the trigger, the
        snapshot's path and the frame's text; its accessibility elements, bounds as
        fractions of the monitor (``screenpipe_clicks.write_tree`` writes fuller trees)."""
        path = f"/Users/me/.screenpipe/data/snapshots/{device}/{ts}.jpg"
        text = f"{title}\n{app} content"
        fid = self._insert(
            "frames",
            {
                "video_chunk_id": None,
                "offset_index": 0,
                "timestamp": stamp(ts),
                "name": path,
                "browser_url": url,
                "app_name": app,
                "window_name": title,
                "focused": True,
                "device_name": device,
                "snapshot_path": path,
                "capture_trigger": trigger,
                "accessibility_text": text,
                "text_source": "accessibility",
                "full_text": text,
            },
        )
        root = self._insert(
            "elements",
            {
                "frame_id": fid,
                "source": "accessibility",
                "role": "AXWindow",
                "text": None,
                "depth": 0,
                "left_bound": 0.0,
                "top_bound": 0.0,
                "width_bound": 1.0,
                "height_bound": 1.0,
                "sort_order": 0,
            },
        )
        self._insert(
            "elements",
            {
                "frame_id": fid,
                "source": "accessibility",
                "role": "AXButton",
                "text": "OK",
                "parent_id": root,
                "depth": 1,
                "left_bound": 0.4,
                "top_bound": 0.4,
                "width_bound": 0.1,
                "height_bound": 0.05,
                "sort_order": 0,
            },
        )
        return fid

    # --- audio (never read for time or input)

    def transcribe(self, ts: int, text: str, device: str = "MacBook Pro Microphone (input)") -> int:
        """An audio chunk and its transcription, as the audio pipeline writes them."""
        chunk = self._insert(
            "audio_chunks", {"file_path": f"/Users/me/.screenpipe/data/{device}_{ts}.mp4"}
        )
        return self._insert(
            "audio_transcriptions",
            {
                "audio_chunk_id": chunk,
                "offset_index": 0,
                "timestamp": stamp(ts),
                "transcription": text,
                "text_length": len(text.encode()),
                "device": device,
            },
        )

    # --- ui_events (written since February 2026)

    def event(self, ts: int, etype: str, **cols: object) -> int:
        text = cols.get("text_content")
        row: dict[str, object] = {
            "timestamp": stamp(ts),
            "session_id": "sess-1",
            "relative_ms": ts % 10_000_000,
            "event_type": etype,
            # text_length is the stored text's length in UTF-8 bytes (Rust's str::len)
            "text_length": len(text.encode()) if isinstance(text, str) else None,
        }
        row.update(cols)
        return self._insert("ui_events", row)

    def write_input(self, day: Day, store_text: bool = True) -> None:
        """The day's input as the recorder writes it: a ``text`` row per typing burst
        (no app: the text buffer flushes after a pause), ``key`` rows only for shortcuts,
        a click then its accessibility look-up row (``click_count`` 0, the element under
        the pointer), clipboard rows with the operation in ``modifiers`` (copy and cut
        rows written from another thread, without app), scroll rows (off by default)."""
        rows: list[tuple[int, int, str, dict[str, object]]] = []
        for t in day.typed:
            if store_text:
                rows.append((t.ts_ms + 300, 0, "text", {"text_content": t.text}))
            else:  # the text cleared afterwards, its byte length kept
                rows.append((t.ts_ms + 300, 0, "text", {"text_length": len(t.text.encode())}))
        for ts, app in day.shortcuts:
            rows.append(
                (
                    ts,
                    0,
                    "key",
                    {"key_code": 1, "modifiers": 8, "app_name": app, "window_title": "w"},
                )
            )
        for ts, app, x, y, name in day.clicks:
            rows.append(
                (
                    ts,
                    0,
                    "click",
                    {
                        "x": x,
                        "y": y,
                        "button": 0,
                        "click_count": 1,
                        "modifiers": 0,
                        "app_name": app,
                        "window_title": "w",
                    },
                )
            )
            rows.append(
                (
                    ts + 35,
                    1,
                    "click",
                    {
                        "x": x,
                        "y": y,
                        "button": 0,
                        "click_count": 0,
                        "modifiers": 0,
                        "app_name": app,
                        "window_title": "w",
                        "element_role": "AXButton",
                        "element_name": name,
                    },
                )
            )
        for ts, op, app in day.clipboard:
            rows.append(
                (
                    ts,
                    0,
                    "key",
                    {"key_code": 9, "modifiers": 8, "app_name": app, "window_title": "w"},
                )
            )
            extra: dict[str, object] = {"modifiers": ord(op)}
            if op == "v":
                rows.append((ts, 1, "clipboard", {**extra, "app_name": app, "window_title": "w"}))
            else:
                rows.append((ts + 50, 1, "clipboard", extra))
        for ts, app in day.scrolls:
            rows.append(
                (
                    ts,
                    0,
                    "scroll",
                    {
                        "x": 10,
                        "y": 10,
                        "delta_x": 0,
                        "delta_y": -3,
                        "app_name": app,
                        "window_title": "w",
                    },
                )
            )
        for e in day.episodes:
            rows.append(
                (
                    e.start_ms,
                    0,
                    "app_switch",
                    {"text_content": e.app, "app_name": e.app, "app_pid": 100},
                )
            )
        rows.sort(key=lambda r: (r[0], r[1]))
        for ts, _, etype, cols in rows:
            self.event(ts, etype, **cols)
        self.conn.commit()


# ------------------------------------------------------------- whole days, per set-up


def grid(day: Day, step_ms: int) -> list[tuple[int, Episode]]:
    """Capture instants every ``step_ms`` through each episode, with the episode."""
    out = []
    for e in day.episodes:
        t = e.start_ms
        while t < e.end_ms:
            out.append((t, e))
            t += step_ms
        if run_end(day, e):
            out.append((e.end_ms, e))  # the last capture before the user left
    return out


def write_day(
    store: Store, day: Day, setup: str = "default", step_ms: int = 2000
) -> list[tuple[int, str]]:
    """Write the day's captures for ``store.version``; returns the truth: (instant, app)
    of every capture that saw the focused window (on any monitor)."""
    v = store.version
    truth: list[tuple[int, str]] = []
    other = day.other
    assert other is not None
    for ts, e in grid(day, step_ms):
        if v < "2024-08-15":
            store.capture_mid_2024(ts, e.app)
            truth.append((ts, e.app))
        elif v < "2025-02-23":
            wins = [(e.app, e.title, True)]
            if setup != "single":
                wins.append((other.app, other.title, False))  # every visible window
            store.capture_ocr_windows(ts, wins)
            truth.append((ts, e.app))
        elif v < "2026-02-20":
            if setup == "unfocused":
                # --capture-unfocused-windows: every window of the monitor, the active one
                # marked; the background window first, as the window list may order it
                store.capture_windows(
                    ts,
                    "monitor_1",
                    [(other.app, other.title, None, False), (e.app, e.title, e.url, True)],
                )
            else:
                store.capture_windows(ts, "monitor_1", [(e.app, e.title, e.url, True)])
            if setup == "two_monitors":
                # the second monitor's topmost window, not focused, a moment later
                store.capture_windows(ts + 7, "monitor_2", [(other.app, other.title, None, False)])
            truth.append((ts, e.app))
        else:
            trigger = "app_switch" if ts == e.start_ms else "idle"
            devices = ["monitor_1", "monitor_2"] if setup == "two_monitors" else ["monitor_1"]
            for k, dev in enumerate(devices):
                store.capture_event(ts + 11 * k, dev, e.app, e.title, e.url, trigger)
                truth.append((ts + 11 * k, e.app))
        if ts % 60_000 < step_ms:  # a transcription about every minute
            store.transcribe(ts + 500, "on en parle demain, ok")
    store.conn.commit()
    return truth


def event_grid_ms() -> int:
    """The event-driven capture's idle interval (a capture at least every 30 s)."""
    return 30_000


def upper_first_app(path: Path) -> None:
    """Upper-case the app of the first frame that names one in lower case, where the era
    keeps it (``frames``, or before its column ``ocr_text``): a same-length edit."""
    with sqlite3.connect(path) as conn:
        cols = {r[1] for r in conn.execute("PRAGMA table_info(frames)")}
        app_col = (
            "app_name" in cols
            and conn.execute(
                "SELECT count(*) FROM frames WHERE app_name IS NOT NULL AND app_name != ''"
            ).fetchone()[0]
        )
        if app_col:
            conn.execute(
                "UPDATE frames SET app_name = upper(app_name) WHERE id = "
                "(SELECT min(id) FROM frames WHERE app_name != upper(app_name))"
            )
        else:
            conn.execute(
                "UPDATE ocr_text SET app_name = upper(app_name) WHERE frame_id = "
                "(SELECT min(frame_id) FROM ocr_text WHERE app_name != upper(app_name))"
            )
    conn.close()
