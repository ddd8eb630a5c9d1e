"""A running ActivityWatch server's address as a store: refused when not on this machine,
a one-line error when nothing answers or the answer is bad. (Its data, and aw-server's
own SQLite file, are checked against a real aw-server in tests/awserver.)"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest

from actframes.errors import SourceError
from actframes.sources import open_source

from ..builders import run_cli
from ..local_http import local_http


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Bad(BaseHTTPRequestHandler):
    """A local HTTP server that is not ActivityWatch: HTML for the bucket list, 500 for
    events."""

    def do_GET(self) -> None:
        if self.path.startswith("/api/0/buckets/") and self.path.endswith("/"):
            body = b"<html>not json</html>"
            self.send_response(200)
        else:
            body = b"{}"
            self.send_response(404)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def bad_server() -> Iterator[str]:
    with local_http(_Bad) as url:
        yield url


def test_nothing_answers() -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    with pytest.raises(SourceError, match="no ActivityWatch server answers") as exc:
        open_source(url)
    assert str(exc.value).startswith(url) and "\n" not in str(exc.value)


def test_only_this_machine() -> None:
    with pytest.raises(SourceError, match="only a server on this machine"):
        open_source("http://192.0.2.1:5600")


def test_a_bad_answer(bad_server: str) -> None:
    with pytest.raises(SourceError, match="is not JSON"):
        open_source(bad_server + "/")


def test_the_cli_says_it_in_one_line() -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    res = run_cli("apps", "2026-11-13", "--db", url, "--tz", "UTC")
    assert res.returncode != 0
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "no ActivityWatch server answers" in res.stderr and url in res.stderr
