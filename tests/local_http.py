"""A real HTTP server for tests, on 127.0.0.1 only (a free port), served from a thread."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from http.server import ThreadingHTTPServer
from socketserver import BaseRequestHandler


@contextlib.contextmanager
def local_http(handler: Callable[..., BaseRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` while the block runs; yields the server's base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
