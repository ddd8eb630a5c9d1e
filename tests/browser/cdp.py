"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

The pipe transport needs no websocket library: the browser reads NUL-terminated JSON
messages on fd 3 and writes them on fd 4. One reader thread collects responses (by id)
and events (in order); every wait is bounded by a timeout. The browser runs in its own
process group with a fresh, empty profile, and ``close`` always ends that group by its
id, also when a test failed.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The flags that work on a machine with no network: without the background-networking
# ones Chromium keeps trying to reach Google's hosts.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--mute-audio",
)


def find_chromium() -> str | None:
    """The browser binary: $ACTFRAMES_CHROMIUM, else Debian's real binary (its
    /usr/bin/chromium wrapper adds extension and GPU flags), else one on PATH."""
    env = os.environ.get("ACTFRAMES_CHROMIUM")
    if env:
        return env if os.access(env, os.X_OK) else None
    if os.access("/usr/lib/chromium/chromium", os.X_OK):
        return "/usr/lib/chromium/chromium"
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless browser; ``session`` methods talk to one page attached to it."""

    def __init__(self, binary: str, *, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="actframes-chromium-")
        self._lock = threading.Condition()
        self._responses: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._next_id = 0
        self._closed = False
        self.proc: subprocess.Popen[bytes] | None = None
        # Our ends of the pipes sit at fd 10 or above, so bash's `3<&N 4>&M` can never
        # collide with the numbers it is filling (dash refuses fds above 9, hence bash).
        to_browser_r, to_browser_w = _high_pipe()
        from_browser_r, from_browser_w = _high_pipe()
        script = f'exec "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        try:
            self.proc = subprocess.Popen(
                [
                    shutil.which("bash") or "/bin/bash",
                    "-c",
                    script,
                    "bash",
                    binary,
                    *FLAGS,
                    "--remote-debugging-pipe",
                    f"--user-data-dir={self.profile}",
                    "about:blank",
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(to_browser_r, from_browser_w),
                start_new_session=True,  # its own process group, ended by its id
            )
        except OSError:
            for fd in (to_browser_w, from_browser_r):
                os.close(fd)
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        finally:
            # The browser holds its own copies now; ours would hide its EOF from us.
            os.close(to_browser_r)
            os.close(from_browser_w)
        self._w = to_browser_w
        self._r = from_browser_r
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self.session_id: str | None = None

    # ---- transport

    def _read_loop(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._r, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    self._closed = True
                    self._lock.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self._lock:
                    if "id" in msg:
                        self._responses[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                    self._lock.notify_all()

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: bool = True,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send one command and wait (bounded) for its result."""
        with self._lock:
            self._next_id += 1
            mid = self._next_id
        msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
        if session and self.session_id:
            msg["sessionId"] = self.session_id
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._lock:
            while mid not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"{method}: no answer within {timeout or self.timeout} s")
                if self._closed:
                    raise CDPError(f"{method}: the browser closed the pipe")
                self._lock.wait(left)
            resp = self._responses.pop(mid)
        if "error" in resp:
            raise CDPError(f"{method}: {resp['error']}")
        result: dict[str, Any] = resp.get("result", {})
        return result

    def wait_event(
        self,
        method: str,
        pred: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        deadline = time.monotonic() + (timeout or self.timeout)
        seen = 0
        with self._lock:
            while True:
                for ev in self.events[seen:]:
                    if ev.get("method") == method and (pred is None or pred(ev)):
                        return ev
                seen = len(self.events)
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise CDPError(f"no {method} event within {timeout or self.timeout} s")
                self._lock.wait(left)

    def events_named(self, *methods: str) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self.events if e.get("method") in methods]

    # ---- a page

    def open_page(self) -> None:
        """Create a page, attach to it (flat sessions) and enable the domains we watch."""
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False,
        )
        self.session_id = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    def navigate(self, url: str) -> None:
        with self._lock:
            start = len(self.events)
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        with self._lock:
            while not any(e.get("method") == "Page.loadEventFired" for e in self.events[start:]):
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise CDPError(f"{url}: no load event within {self.timeout} s")
                self._lock.wait(left)

    def evaluate(self, expression: str) -> Any:
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in result:
            raise CDPError(f"evaluate: {result['exceptionDetails']}")
        return result["result"].get("value")

    def viewport(self, width: int, height: int, *, mobile: bool = False) -> None:
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )

    def screenshot(self) -> bytes:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        return base64.b64decode(data)

    # ---- the end, always

    def close(self) -> None:
        proc = self.proc
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(CDPError, OSError):
                self.send("Browser.close", session=False, timeout=5)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        if proc is not None:
            # The browser's helpers (zygote, renderer) share its process group: end the
            # group by the browser's own id, then reap.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
        # The browser gone, its end of the pipe is closed and the reader sees EOF; only
        # then are our ends closed, so the reader never reads a recycled fd number.
        self._reader.join(timeout=5)
        for fd in (self._w, self._r):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _high_pipe() -> tuple[int, int]:
    r, w = os.pipe()
    hi_r = fcntl.fcntl(r, fcntl.F_DUPFD_CLOEXEC, 10)
    hi_w = fcntl.fcntl(w, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(r)
    os.close(w)
    return hi_r, hi_w


# ---------------------------------------------------------------- PNG, without Pillow


def png_pixels(png: bytes) -> tuple[int, int, int, list[bytes]]:
    """Decode an 8-bit, non-interlaced PNG (what Chromium writes) into rows of raw
    pixels: (width, height, bytes per pixel, rows)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    width = height = bpp = 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind = png[pos + 4 : pos + 8]
        body = png[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or interlace:
                raise ValueError("only 8-bit non-interlaced PNGs are decoded here")
            bpp = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if filt == 1:
                line[x] = (line[x] + a) & 0xFF
            elif filt == 2:
                line[x] = (line[x] + b) & 0xFF
            elif filt == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 0xFF
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def ink_fraction(png: bytes) -> tuple[int, int, float]:
    """(width, height, share of pixels that differ from the most common colour): a
    blank page is one colour, a drawn one is not."""
    width, height, bpp, rows = png_pixels(png)
    counts: dict[bytes, int] = {}
    for row in rows:
        for x in range(0, len(row), bpp):
            px = row[x : x + bpp]
            counts[px] = counts.get(px, 0) + 1
    background = max(counts.values())
    total = width * height
    return width, height, (total - background) / total if total else 0.0


def save(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
