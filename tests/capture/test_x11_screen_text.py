"""``record --screen-text`` on a real X server: a GTK window's label is kept and what is
typed into its entry never is (with ``--screen-text-typed`` it is, in the entry and a
text view, but a password entry's never is); an excluded app's text never reaches the
store; without
the flag nothing is kept; an xterm (which exposes no accessibility text) is read by OCR
when Tesseract is installed. What is kept is found by ``actframes search``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from actframes.sources.native import NativeSource

from .xsession import SYSTEM_PYTHON, XSession, actframes_argv, need, rows, skip_or_fail

TEXT_APP = Path(__file__).resolve().parent / "gtk_text_app.py"
TYPED = "typedpelican"
VIEW_TYPED = "typedheron"
SECRET = "typedsecretowl"  # into the password entry


def _need_gtk() -> None:
    need(SYSTEM_PYTHON)
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0')"],
        capture_output=True,
        timeout=30,
    )
    if probe.returncode != 0:
        skip_or_fail("needs GTK 3 for /usr/bin/python3: apt-get install python3-gi gir1.2-gtk-3.0")


def _search(db: Path, words: str) -> list[dict[str, Any]]:
    """``actframes search WORDS`` on ``db`` (its index in a cache folder of the test's)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(db.parent / "cache")}
    argv = actframes_argv("search", words, "--db", str(db), "--tz", "UTC")
    out = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=True)
    results: list[dict[str, Any]] = json.loads(out.stdout)["results"]
    return results


def _store_bytes(db: Path) -> bytes:
    wal = db.with_name(db.name + "-wal")
    return db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


def _session(
    xs: XSession,
    env: dict[str, str],
    db: Path,
    *args: str,
    label: str = "",
    fields: bool = False,
) -> bytes:
    """The GTK window focused, recorded with ``args``, text typed into its entry (with
    ``fields``, then into its password entry and text view); the store's bytes read live
    (before the stop folds the WAL in) and the recorder stopped."""
    _need_gtk()
    argv = [SYSTEM_PYTHON, str(TEXT_APP), "Screen Text Probe", *([label] if label else [])]
    xs.spawn(argv, log="gtk.log", env=env)
    win = xs.wait_window("Screen Text Probe", 20)
    xs.activate(win)
    rec = xs.recorder(db, "--heartbeat-seconds", "1", *args, env=env)
    rec.wait_ready()
    time.sleep(2.0)
    xs.xdotool("type", "--delay", "30", TYPED)
    if fields:
        for text in (SECRET, VIEW_TYPED):
            xs.xdotool("key", "Tab")
            xs.xdotool("type", "--delay", "30", text)
    time.sleep(3.0)
    live = _store_bytes(db)
    assert rec.stop() == 0
    return live + _store_bytes(db) + rec.log.read_bytes()


def test_visible_text_is_kept_and_typed_text_never(
    xs: XSession, a11y_env: dict[str, str], tmp_path: Path
) -> None:
    db = tmp_path / "capture.db"
    blob = _session(xs, a11y_env, db, "--screen-text")
    assert TYPED.encode() not in blob
    kept = rows(db, "SELECT kind, text, snapshot_id FROM screen_text")
    assert kept, "no screen text was kept"
    assert all(kind == "accessibility" for kind, _, _ in kept)
    assert any("Quarterly zebra forecast" in text for _, text, _ in kept)
    # Once per change: the label did not change, so neither did the text.
    assert len({text for _, text, _ in kept}) == len(kept)
    with NativeSource(db) as src:
        found = src.screen_text(0, 2**62)
    assert found and {t.app for t in found} <= {"Gtk_text_app.py"}
    assert any("zebra" in t.text for t in found)
    (hit,) = _search(db, "zebra forecast")
    assert hit["app"] == "Gtk_text_app.py" and "«zebra»" in hit["snippet"]
    assert _search(db, TYPED) == []


def test_typed_text_is_kept_when_asked_for_but_never_a_password(
    xs: XSession, a11y_env: dict[str, str], tmp_path: Path
) -> None:
    db = tmp_path / "capture.db"
    blob = _session(xs, a11y_env, db, "--screen-text", "--screen-text-typed", fields=True)
    assert SECRET.encode() not in blob
    texts = [text for (text,) in rows(db, "SELECT text FROM screen_text")]
    assert any(TYPED in t and VIEW_TYPED in t for t in texts), texts
    assert any("Quarterly zebra forecast" in t for t in texts)
    # GTK shows a password entry's text as a row of bullets: not even its length is kept.
    masked = [ln for t in texts for ln in t.splitlines() if len(set(ln)) == 1 and len(ln) > 3]
    assert masked == [], masked
    for word in (TYPED, VIEW_TYPED):
        assert [hit["app"] for hit in _search(db, word)] == ["Gtk_text_app.py"]
    assert _search(db, SECRET) == []


def test_an_excluded_apps_text_is_never_stored(
    xs: XSession, a11y_env: dict[str, str], tmp_path: Path
) -> None:
    config = tmp_path / "recorder.toml"
    config.write_text('screen_text = true\n[exclude]\napps = ["gtk_text_app*"]\n')
    db = tmp_path / "capture.db"
    blob = _session(xs, a11y_env, db, "--config", str(config), label="Vaulted walrus ledger")
    assert rows(db, "SELECT count(*) FROM screen_text") == [(0,)]
    for secret in (b"Vaulted walrus ledger", TYPED.encode(), b"Screen Text Probe"):
        assert secret not in blob
    assert {r[0] for r in rows(db, "SELECT app FROM snapshots")} <= {"[excluded]", "[stopped]"}


def test_without_the_flag_nothing_is_kept(
    xs: XSession, a11y_env: dict[str, str], tmp_path: Path
) -> None:
    db = tmp_path / "capture.db"
    _session(xs, a11y_env, db)
    assert rows(db, "SELECT count(*) FROM screen_text") == [(0,)]
    # The label is an element's name, as before (elements are not screen text).
    assert ("label", "Quarterly zebra forecast") in rows(db, "SELECT role, name FROM elements")


def test_an_xterm_is_read_by_ocr(xs: XSession, tmp_path: Path) -> None:
    """xterm has no accessibility support at all: its text is had only by OCR."""
    try:
        import pytesseract  # noqa: F401
    except ImportError:
        pytest.skip("OCR needs the ocr extra (pytesseract)")
    if shutil.which("tesseract") is None:
        pytest.skip("OCR needs Tesseract: apt-get install tesseract-ocr")
    need("xterm")
    line = "PELICAN LEDGER 4711"
    xs.spawn(
        ["xterm", "-class", "OcrTerm", "-T", "ocr probe", "-fa", "DejaVu Sans Mono", "-fs", "14",
         "-geometry", "50x6", "-e", "sh", "-c", f"echo '{line}'; exec sleep 60"]
    )  # fmt: skip
    win = xs.wait_window("ocr probe")
    xs.activate(win)
    db = tmp_path / "capture.db"
    rec = xs.recorder(db, "--screen-text", "--screen-text-ocr", "--no-accessibility")
    rec.wait_ready()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not rows(db, "SELECT 1 FROM screen_text"):
        time.sleep(0.5)
    assert rec.stop() == 0
    kept = rows(db, "SELECT kind, text FROM screen_text")
    assert kept and kept[0][0] == "ocr"
    assert "PELICAN" in kept[0][1].upper(), kept
    assert [hit["app"] for hit in _search(db, "pelican ledger")] == ["OcrTerm"]
