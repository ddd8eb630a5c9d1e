"""A screenpipe-style WAL store with a writer, and marks of it made as the tail reads make
them (``screenpipe.tail``): the incremental one (kept early parts, a pin taken around the
read transaction's start) and a fresh one (new connection, new fingerprinter, all SQL).
Shared by the settled parts' example and property tests.

The tables are screenpipe's (frames with its timestamp index, ``ocr_text`` with its
``frame_id`` index as its migrations create them, ``ui_events`` with its timestamp index),
timestamps in the shape screenpipe writes (``+00:00``, microseconds). Early rows (08:00 to
12:00) have even ids, so that an explicit id can go into a gap; rows of the cut's hour
(13:00 to 13:30) fill pages between them and the rows a recorder appends after the cut.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from actframes.simulate.writers import format_ts
from actframes.sources.base import connect_ro, data_version
from actframes.sources.screenpipe.fingerprint import RowsFingerprint
from actframes.sources.screenpipe.schema import detect
from actframes.sources.screenpipe.settled import settled
from actframes.sources.screenpipe.settled_parts import SettledParts
from actframes.sources.screenpipe.timestamps import Span
from actframes.sources.sqlite_pages.wal import read_pin

H = 3_600_000
DAY0 = 1_773_100_800_000  # 2026-03-10T00:00:00Z
SPAN = (DAY0, DAY0 + 24 * H)
CUT = DAY0 + 13 * H + 30 * 60_000  # 13:30Z
EARLY = (DAY0 + 8 * H, DAY0 + 12 * H)

SCHEMA = """
CREATE TABLE frames (
    id INTEGER PRIMARY KEY AUTOINCREMENT, video_chunk_id INTEGER, offset_index INTEGER,
    timestamp TIMESTAMP NOT NULL, name TEXT, browser_url TEXT, app_name TEXT,
    window_name TEXT, focused BOOLEAN, device_name TEXT
);
CREATE INDEX idx_frames_timestamp ON frames (timestamp);
CREATE TABLE ocr_text (
    frame_id INTEGER NOT NULL, text TEXT NOT NULL, text_json TEXT, ocr_engine TEXT,
    app_name TEXT NOT NULL DEFAULT '', window_name TEXT, focused BOOLEAN DEFAULT FALSE,
    text_length INTEGER
);
CREATE INDEX idx_ocr_text_frame_id ON ocr_text (frame_id);
CREATE TABLE ui_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp DATETIME NOT NULL, session_id TEXT,
    relative_ms INTEGER, event_type TEXT NOT NULL, x INTEGER, y INTEGER, delta_x INTEGER,
    delta_y INTEGER, button INTEGER, click_count INTEGER, key_code INTEGER, modifiers INTEGER,
    text_content TEXT, text_length INTEGER, app_name TEXT, app_pid INTEGER,
    window_title TEXT, browser_url TEXT, element_role TEXT, element_name TEXT,
    element_value TEXT, element_description TEXT, element_automation_id TEXT,
    element_bounds TEXT, frame_id INTEGER
);
CREATE INDEX idx_ui_events_timestamp ON ui_events (timestamp);
"""

LONG = 60  # the frame with a 10 000-character title

APPS = ["Code", "Slack", "Google Chrome", ""]  # "" : the app comes from ocr_text


class Store:
    """The store, its writer, and a reader that keeps its connection and early parts."""

    def __init__(
        self,
        path: Path,
        page_size: int = 1024,
        autocheckpoint: int = 0,
        wal: bool = True,
        alter: str = "",
    ) -> None:
        self.path = path
        w = sqlite3.connect(path, isolation_level=None)
        w.execute(f"PRAGMA page_size = {page_size}")
        w.execute(f"PRAGMA journal_mode = {'wal' if wal else 'delete'}")
        w.execute(f"PRAGMA wal_autocheckpoint = {autocheckpoint}")
        w.executescript(SCHEMA + alter)
        self.writer = w
        self.next_ms = CUT + 1000
        w.execute("BEGIN")
        for i, ms in enumerate(range(EARLY[0], EARLY[1], 60_000)):
            # One early title long enough to spill to overflow pages at any page size.
            self.frame(ms, 2 * i + 2, "long " * 2000 if 2 * i + 2 == LONG else None)
        for ms in range(DAY0 + 13 * H, CUT, 10_000):
            self.frame(ms)
        w.execute("COMMIT")
        self.reader = connect_ro(path)
        self.reader.isolation_level = None
        self.schema = detect(self.reader, path)
        self.rows = RowsFingerprint(self.reader, self.schema)
        parts = SettledParts.of(self.reader)
        assert parts is not None
        self.parts = parts

    def frame(self, ms: int, fid: int | None = None, title: str | None = None) -> None:
        """A frame at ``ms`` (id ``fid`` or the next), its OCR row and two events."""
        n = ms // 60_000
        app = APPS[n % len(APPS)]
        ts = format_ts(ms)
        cur = self.writer.execute(
            "INSERT INTO frames (id, timestamp, app_name, window_name, focused, device_name)"
            " VALUES (?, ?, ?, ?, 1, 'monitor_1')",
            (fid, ts, app, title or f"window {n % 7} " + "w" * (n % 40)),
        )
        self.writer.execute(
            "INSERT INTO ocr_text (frame_id, text, app_name, window_name, focused)"
            " VALUES (?, 'text', ?, ?, 1)",
            (cur.lastrowid, APPS[(n + 1) % len(APPS)], f"ocr {n % 5}"),
        )
        for k, kind in enumerate(("click", "key")):
            self.writer.execute(
                "INSERT INTO ui_events (id, timestamp, event_type, app_name, click_count,"
                " modifiers) VALUES (?, ?, ?, ?, 1, 0)",
                (None if fid is None else 2 * fid + k, format_ts(ms + 100 + k), kind, app),
            )

    def append(self, n: int) -> None:
        """``n`` frames after the cut, each committed alone (a recorder's writes)."""
        for _ in range(n):
            self.writer.execute("BEGIN")
            self.frame(self.next_ms)
            self.writer.execute("COMMIT")
            self.next_ms += 1000

    def mark(self) -> str | None:
        """The mark as the tail's ``mark`` makes it: the pin read around the transaction's
        start, the early parts from the kept ones where they hold."""
        before = read_pin(self.path)
        self.reader.execute("BEGIN")
        try:
            data_version(self.reader)
            early = (
                self.parts.at(before)
                if before is not None and read_pin(self.path) == before
                else None
            )
            return settled(self.rows, Span(*SPAN), CUT, early=early)
        finally:
            self.reader.rollback()

    def fresh(self) -> str | None:
        """The mark a new reader makes, all by SQL."""
        conn = connect_ro(self.path)
        conn.isolation_level = None
        try:
            conn.execute("BEGIN")
            return settled(RowsFingerprint(conn, detect(conn, self.path)), Span(*SPAN), CUT)
        finally:
            conn.close()

    def close(self) -> None:
        self.parts.close()
        self.reader.close()
        self.writer.close()
