"""Pure helpers of the X11 capture: title decoding, WM_CLASS, the session check, XRecord
parsing (counts and click positions, never key identities), browsers, AT-SPI helpers,
the pidfile."""

from __future__ import annotations

import fcntl
import os
import struct
import sys
from pathlib import Path

import pytest

pytest.importorskip("Xlib", reason="python-xlib missing: pip install -e '.[capture]'")
pytest.importorskip("dbus_fast", reason="dbus-fast missing: pip install -e '.[capture]'")

from actframes.capture.atspi_tree import Element, drop_empty, url_like
from actframes.capture.browser import browser_kind, page_title, pick_target
from actframes.capture.daemon import running_pid
from actframes.capture.window_info import MAX_TITLE_CHARS, decode_text, exe_name, split_wm_class
from actframes.capture.x11_session import SessionError, session_check
from actframes.capture.xrecord import CLICK, KEY, SCROLL, Press, parse_presses


def test_decode_text() -> None:
    assert decode_text("Überblick ✓".encode(), "UTF8_STRING") == "Überblick ✓"
    assert decode_text("café".encode("latin-1"), "STRING") == "café"
    assert decode_text(b"bad \xff\xfe bytes", "UTF8_STRING") == "bad \ufffd\ufffd bytes"
    assert decode_text(b"first\x00second", "UTF8_STRING") == "first"
    assert decode_text(b"tab\there\nnew", "COMPOUND_TEXT") == "tab here new"
    assert decode_text(None, None) == ""
    long = decode_text(b"x" * 5000, "UTF8_STRING")
    assert len(long) == MAX_TITLE_CHARS and long.endswith("…")


def test_split_wm_class() -> None:
    assert split_wm_class(b"xterm\x00XTerm\x00") == ("xterm", "XTerm")
    assert split_wm_class(b"navigator\x00") == ("navigator", "")
    assert split_wm_class(None) == ("", "")


def test_session_check() -> None:
    assert session_check({"DISPLAY": ":0"}) is None
    warning = session_check({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    assert warning is not None and "XWayland" in warning
    with pytest.raises(SessionError, match="DISPLAY is not set"):
        session_check({})
    with pytest.raises(SessionError, match="Wayland session without an X11 display"):
        session_check({"XDG_SESSION_TYPE": "wayland"})


def test_exe_name_of_this_process() -> None:
    assert exe_name(os.getpid()) == Path(os.readlink("/proc/self/exe")).name
    assert exe_name(0) is None
    assert exe_name(2**22 + 12345) is None


def _event(kind: int, detail: int, x: int = 0, y: int = 0) -> bytes:
    order = "<" if sys.byteorder == "little" else ">"
    raw = bytearray(32)
    raw[0], raw[1] = kind, detail
    raw[20:24] = struct.pack(order + "hh", x, y)
    return bytes(raw)


def test_parse_presses_counts_and_click_positions() -> None:
    data = (
        _event(2, 38)  # KeyPress: the keycode is never looked at
        + _event(2, 39)
        + _event(4, 1, 640, 400)  # ButtonPress 1: a click, with its position
        + _event(4, 5, 10, 10)  # wheel: a scroll
        + _event(4, 7)
        + _event(4 | 0x80, 3, -5, 9)  # sent-event bit set: still a click
        + _event(3, 38)  # KeyRelease: not counted
    )
    assert parse_presses(data, 42) == [
        Press(42, KEY),
        Press(42, KEY),
        Press(42, CLICK, 640, 400),
        Press(42, SCROLL),
        Press(42, SCROLL),
        Press(42, CLICK, -5, 9),
    ]
    assert parse_presses(data[:20], 1) == []  # a truncated event is ignored


def test_browsers() -> None:
    assert browser_kind(["Chromium", "chromium (/tmp/p)", "chromium"]) == "chromium"
    assert browser_kind(["Google-chrome"]) == "chromium"
    assert browser_kind(["firefox", "Navigator"]) == "firefox"
    assert browser_kind(["XTerm", None]) is None
    assert page_title("Docs - Chromium") == "Docs"
    targets = [
        {"type": "page", "title": "Other", "url": "https://a.example/"},
        {"type": "service_worker", "title": "Docs", "url": "https://sw/"},
        {"type": "page", "title": "Docs", "url": "https://docs.example/"},
    ]
    assert pick_target(targets, "Docs - Chromium") == "https://docs.example/"
    assert pick_target(targets, "Unknown - Chromium") == "https://a.example/"
    assert pick_target([], "x") is None


def test_address_bar_text_is_used_only_when_it_looks_like_an_address() -> None:
    assert url_like("127.0.0.1:8765/a.html") == "127.0.0.1:8765/a.html"
    assert url_like("github.com/acme") == "github.com/acme"
    assert url_like("https://x.org/") == "https://x.org/"
    assert url_like("how to bake bread") is None
    assert url_like("recipes") is None
    assert url_like("") is None


def test_drop_empty_repoints_parents() -> None:
    els = [
        Element(0, None, "frame", "W", 0, 0, 100, 100),
        Element(1, 0, "tool bar", "", 0, 0, 0, 0),  # no area: dropped
        Element(2, 1, "push button", "OK", 1, 1, 10, 10),
    ]
    assert drop_empty(els) == [
        Element(0, None, "frame", "W", 0, 0, 100, 100),
        Element(2, 0, "push button", "OK", 1, 1, 10, 10),
    ]


def test_stale_pidfile_is_not_a_running_recorder(tmp_path: Path) -> None:
    assert running_pid(tmp_path) is None
    (tmp_path / "recorder.pid").write_text("12345\n")
    assert running_pid(tmp_path) is None  # nobody holds the lock: a killed recorder's file
    with open(tmp_path / "recorder.pid") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert running_pid(tmp_path) == 12345


def test_devtools_url_from_a_loopback_endpoint() -> None:
    import http.server
    import json

    from actframes.capture.browser import devtools_url

    from ..local_http import local_http

    targets = [
        {"type": "page", "title": "Other", "url": "https://a.example/"},
        {"type": "page", "title": "Docs", "url": "https://docs.example/x"},
    ]

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(targets).encode() if self.path == "/json/list" else b"[]"
            self.send_response(200 if self.path == "/json/list" else 404)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    with local_http(Handler) as endpoint:
        assert devtools_url(endpoint, "Docs - Chromium") == "https://docs.example/x"
    assert devtools_url(endpoint, "Docs - Chromium", timeout=0.2) is None  # gone: no URL
