"""AT-SPI on a real accessibility bus: a GTK window's buttons are captured with names,
roles and bounds (and a text field's value never is); Chromium with accessibility on,
showing two pages from a local http.server, yields both URLs; its incognito window is
skipped."""

from __future__ import annotations

import functools
import http.server
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..local_http import local_http
from .xsession import (
    GTK_APP,
    SYSTEM_PYTHON,
    XSession,
    install_hint,
    need,
    rows,
    skip_or_fail,
    wait_for,
)


def test_gtk_buttons_are_captured_with_roles_names_and_bounds(
    xs: XSession, a11y_env: dict[str, str], tmp_path: Path
) -> None:
    need(SYSTEM_PYTHON)
    probe = subprocess.run(
        [SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0')"],
        capture_output=True,
        timeout=30,
    )
    if probe.returncode != 0:
        skip_or_fail("needs GTK 3 for /usr/bin/python3: apt-get install python3-gi gir1.2-gtk-3.0")
    xs.spawn([SYSTEM_PYTHON, str(GTK_APP), "Gtk Probe"], log="gtk.log", env=a11y_env)
    win = xs.wait_window("Gtk Probe", 20)
    xs.activate(win)
    db = tmp_path / "capture.db"
    rec = xs.recorder(db, env=a11y_env)
    rec.wait_ready()
    time.sleep(1.0)
    # A click on the first button: its position must resolve to that button's element.
    xs.xdotool("mousemove", "--window", str(win), "200", "20")
    xs.xdotool("click", "1")
    time.sleep(2.0)
    assert rec.stop() == 0

    elements = rows(db, "SELECT role, name, x, y, w, h, snapshot_id FROM elements")
    named = {(r[0], r[1]) for r in elements}
    assert ("push button", "Save report") in named
    assert ("push button", "Discard") in named
    assert ("frame", "Gtk Probe") in named
    for role, _, x, y, w, h, _ in elements:
        if role == "push button":
            assert w > 0 and h > 0 and x >= 0 and y >= 0
    # The text field is known by its role and place only; its value is nowhere.
    assert all(name == "" for role, name, *_ in elements if role in ("text", "password text"))
    wal = db.with_name(db.name + "-wal")
    for blob in (db.read_bytes(), wal.read_bytes() if wal.exists() else b""):
        assert b"secret-value-4711" not in blob
    # The click resolves to the button under it, at the click's snapshot.
    ((cx, cy),) = rows(db, "SELECT x, y FROM input_events WHERE kind = 'click'")
    click_snap = rows(db, "SELECT id FROM snapshots WHERE reason = 'click'")[0][0]
    hits = [
        (role, name)
        for role, name, x, y, w, h, snap in elements
        if snap == click_snap and role == "push button" and x <= cx < x + w and y <= cy < y + h
    ]
    assert hits == [("push button", "Save report")]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def site(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / "www"
    root.mkdir()
    (root / "a.html").write_text(
        "<html><head><title>Page A</title>"
        '<meta http-equiv="refresh" content="3;url=b.html"></head>'
        "<body><h1>A</h1><a href='b.html'>to B</a></body></html>"
    )
    (root / "b.html").write_text(
        "<html><head><title>Page B</title></head><body><h1>B</h1></body></html>"
    )
    (root / "c.html").write_text(
        "<html><head><title>Page C hidden</title></head><body>private</body></html>"
    )
    with local_http(functools.partial(_Quiet, directory=str(root))) as url:
        yield url


def _chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    skip_or_fail(install_hint("chromium"))
    raise AssertionError("unreachable")


CHROMIUM_FLAGS = [
    "--no-sandbox",  # tests run as root in CI
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--password-store=basic",
    "--force-renderer-accessibility",
]


def test_chromium_urls_from_accessibility(
    xs: XSession, a11y_env: dict[str, str], site: str, tmp_path: Path
) -> None:
    exe = _chromium()
    env = {**a11y_env, "ACCESSIBILITY_ENABLED": "1"}
    db = tmp_path / "capture.db"
    rec = xs.recorder(db, "--heartbeat-seconds", "2", env=env)
    rec.wait_ready()
    profile = tmp_path / "profile"
    xs.spawn(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"{site}/a.html"],
        log="chromium.log",
        env=env,
    )
    # Page A redirects to page B after 3 s.
    xs.wait_window("Page B - Chromium", 45)
    time.sleep(2.5)
    # An incognito window of the same browser: skipped, title and URL never written.
    xs.spawn(
        [exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--incognito", f"{site}/c.html"],
        log="chromium2.log",
        env=env,
    )
    xs.wait_window("Page C hidden - Chromium", 30)
    # Whether the window is incognito shows only once its accessible frame is found, which
    # takes longer on a loaded machine: wait for the placeholder row, not a fixed time.
    wait_for(
        "the incognito window's placeholder row",
        lambda: rows(db, "SELECT 1 FROM snapshots WHERE app = '[private]'"),
        30,
        0.2,
    )
    assert rec.stop() == 0

    urls = {r[0] for r in rows(db, "SELECT url FROM snapshots WHERE url IS NOT NULL")}
    assert f"{site}/a.html" in urls
    assert f"{site}/b.html" in urls
    titles = {r[0] for r in rows(db, "SELECT title FROM snapshots")}
    assert {"Page A - Chromium", "Page B - Chromium"} <= titles
    for blob in (db.read_bytes(),):
        assert b"Page C hidden" not in blob and b"c.html" not in blob
