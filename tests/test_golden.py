"""Golden files: every format of a small hand-made day, byte for byte.

Regenerate after an intended change with `UPDATE_GOLDEN=1 make test`, then read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from actframes.api import compile_path, to_context, to_json, to_markdown, to_yaml
from actframes.capture import store
from actframes.model import InputEvent, Snapshot, Span
from actframes.timeparse import parse_iso_ms

GOLDEN = Path(__file__).parent / "golden"


def t(hms: str) -> int:
    return parse_iso_ms(f"2026-03-10T{hms}+01:00")


def build(path: Path) -> Path:
    gh = "https://github.com/psf/requests/pull/6712"
    docs = "https://docs.python.org/3/library/sqlite3.html"
    rows = [
        # (id, time, app, title, url, device)
        (1, "09:00:00", "Code", "model.py — actframes", None, ""),
        (2, "09:00:30", "Code", "model.py — actframes", None, ""),
        (3, "09:01:00", "Slack", "#eng - Acme - Slack", None, ""),  # a 6 s flicker
        (4, "09:01:06", "Code", "model.py — actframes", None, ""),
        (5, "09:02:40", "Google Chrome", "Fix proxy auth · PR #6712", gh, ""),
        (6, "09:03:10", "Google Chrome", "sqlite3 — Python docs", docs, ""),
        (7, "09:03:40", "Google Chrome", "Fix proxy auth · PR #6712", gh, ""),
        (8, "09:04:10", "Google Chrome", "Fix proxy auth · PR #6712", gh, ""),
        (9, "09:20:00", "Terminal", "~/actframes: make test", None, ""),  # after a gap
        (10, "09:21:00", "Terminal", "~/actframes: make test", None, ""),
        (11, "09:00:00", "Slack", "#eng - Acme - Slack", None, "right"),  # second monitor
        (12, "09:05:00", "Slack", "#random - Acme - Slack", None, "right"),
        (13, "09:05:30", "Slack", "#random - Acme - Slack", None, "right"),
        (14, "09:21:30", "Terminal", 'quote " and <script>alert(1)</script>', None, ""),
    ]
    events = [
        InputEvent(1, t("09:00:05"), "key", "Code"),
        InputEvent(2, t("09:00:06"), "key", "Code", None, 3),
        InputEvent(3, t("09:01:02"), "click", "Slack"),
        InputEvent(4, t("09:02:50"), "scroll", "Google Chrome"),
        InputEvent(5, t("09:03:15"), "copy", "Google Chrome"),
        InputEvent(6, t("09:20:10"), "paste", "Terminal"),
        InputEvent(7, t("09:20:11"), "key", "Code"),  # stale app: unattributed
        InputEvent(8, t("09:05:10"), "click", "Slack", "right"),
    ]
    conn = store.open_store(path)
    store.write_snapshots(
        conn, [Snapshot(i, t(hms), app, title, url, dev) for i, hms, app, title, url, dev in rows]
    )
    store.write_events(conn, events)
    store.write_afk(conn, [Span(t("09:06:00"), t("09:19:30"))])
    conn.close()
    return path


FORMATS = {
    "day.json": to_json,
    "day.yaml": to_yaml,
    "day.md": to_markdown,
    "context.txt": lambda doc: to_context(doc, 1500),
    "context-200.txt": lambda doc: to_context(doc, 200),
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_golden(tmp_path: Path, name: str) -> None:
    doc = compile_path(build(tmp_path / "g.db"), "2026-03-10", "Europe/Berlin")
    got = FORMATS[name](doc)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"
