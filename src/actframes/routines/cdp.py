"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

The pipe transport needs no websocket library: the browser reads NUL-terminated JSON
messages on fd 3 and writes them on fd 4. One reader thread collects responses (by id)
and events (in order); every wait is bounded by a timeout. The browser runs in its own
process group, and ``close`` always ends that group by its id, also after an error.

By default the browser is headless with a fresh, empty profile that is deleted on close;
``headless=False`` shows a window (needs a display) and ``user_data_dir`` reuses an
existing profile (e.g. one that is logged in), which is never deleted.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The flags that work on a machine with no network: without the background-networking
# ones Chromium keeps trying to reach Google's hosts.
FLAGS = (
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

# Events that say the main frame has begun to leave its document (names vary by version).
NAVIGATION_STARTS = (
    "Page.frameRequestedNavigation",
    "Page.frameScheduledNavigation",
    "Page.frameStartedNavigating",
    "Page.frameStartedLoading",
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
    """One browser; ``send`` with ``session=True`` talks to the page ``open_page`` made.

    ``sandbox=None`` turns Chromium's sandbox off only when running as root (Chromium
    refuses to start as root with it), or when $ACTFRAMES_CHROMIUM_NO_SANDBOX=1.
    """

    def __init__(
        self,
        binary: str,
        *,
        timeout_ms: int = 30_000,
        headless: bool = True,
        user_data_dir: str | Path | None = None,
        sandbox: bool | None = None,
        window_size: tuple[int, int] | None = None,
    ) -> None:
        self.timeout_ms = timeout_ms
        self._own_profile = user_data_dir is None
        self.profile = (
            tempfile.mkdtemp(prefix="actframes-chromium-")
            if user_data_dir is None
            else str(Path(user_data_dir).expanduser())
        )
        self._lock = threading.Condition()
        self._responses: dict[int, dict[str, Any]] = {}
        self.events: list[dict[str, Any]] = []
        self._next_id = 0
        self._closed = False
        self._answered = False  # whether the browser ever answered a command
        self.proc: subprocess.Popen[bytes] | None = None
        self.session_id: str | None = None
        self.target_id: str | None = None
        if sandbox is None:
            sandbox = os.geteuid() != 0 and os.environ.get("ACTFRAMES_CHROMIUM_NO_SANDBOX") != "1"
        flags = [*FLAGS]
        if headless:
            flags.insert(0, "--headless")
        if not sandbox:
            flags.append("--no-sandbox")
        if window_size is not None:
            flags.append(f"--window-size={window_size[0]},{window_size[1]}")
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
                    *flags,
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
            if self._own_profile:
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
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue  # a garbled message must not kill the reader
                with self._lock:
                    if "id" in msg:
                        self._responses[msg["id"]] = msg
                        self._answered = True
                    else:
                        self.events.append(msg)
                    self._lock.notify_all()

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: bool = True,
        timeout_ms: int | None = None,
    ) -> dict[str, Any]:
        """Send one command and wait (bounded) for its result."""
        limit = timeout_ms or self.timeout_ms
        with self._lock:
            if self._closed:
                raise CDPError(f"{method}: the browser closed the pipe")
            self._next_id += 1
            mid = self._next_id
        msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
        if session and self.session_id:
            msg["sessionId"] = self.session_id
        try:
            os.write(self._w, json.dumps(msg).encode() + b"\0")
        except OSError as exc:
            raise CDPError(f"{method}: the browser closed the pipe ({exc.strerror})") from None
        deadline = time.monotonic() + limit / 1000
        with self._lock:
            while mid not in self._responses:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CDPError(f"{method}: no answer within {limit} ms")
                if self._closed:
                    raise CDPError(f"{method}: the browser closed the pipe")
                self._lock.wait(left)
            resp = self._responses.pop(mid)
        if "error" in resp:
            err = resp["error"]
            text = err.get("message", err) if isinstance(err, dict) else err
            raise CDPError(f"{method}: {text}")
        result: dict[str, Any] = resp.get("result", {})
        return result

    def mark(self) -> int:
        """The index the next event will get: pass it as ``since`` to wait for later ones."""
        with self._lock:
            return len(self.events)

    def _mine(self, ev: dict[str, Any]) -> bool:
        # Page events carry the session they belong to; others pages' are not ours.
        return self.session_id is None or ev.get("sessionId") in (None, self.session_id)

    def find_event(
        self,
        methods: tuple[str, ...],
        *,
        since: int = 0,
        pred: Callable[[dict[str, Any]], bool] | None = None,
    ) -> dict[str, Any] | None:
        """The first event of one of ``methods`` at or after ``since``, without waiting."""
        with self._lock:
            for ev in self.events[since:]:
                if ev.get("method") in methods and self._mine(ev) and (pred is None or pred(ev)):
                    return ev
        return None

    def wait_event(
        self,
        method: str | tuple[str, ...],
        pred: Callable[[dict[str, Any]], bool] | None = None,
        *,
        since: int = 0,
        timeout_ms: int | None = None,
    ) -> dict[str, Any]:
        """The first matching event at or after ``since``; CDPError after the timeout."""
        methods = (method,) if isinstance(method, str) else method
        limit = timeout_ms or self.timeout_ms
        deadline = time.monotonic() + limit / 1000
        seen = since
        with self._lock:
            while True:
                for ev in self.events[seen:]:
                    if (
                        ev.get("method") in methods
                        and self._mine(ev)
                        and (pred is None or pred(ev))
                    ):
                        return ev
                seen = max(seen, len(self.events))
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise CDPError(f"no {' or '.join(methods)} event within {limit} ms")
                self._lock.wait(left)

    def events_since(self, since: int, *methods: str) -> list[dict[str, Any]]:
        """This page's events of ``methods`` at or after ``since``, in order."""
        with self._lock:
            return [e for e in self.events[since:] if e.get("method") in methods and self._mine(e)]

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
        self.target_id = target["targetId"]
        self.session_id = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable")

    def navigate(self, url: str) -> dict[str, Any]:
        """Go to ``url`` and wait (bounded) for its load event; Page.navigate's result."""
        start = self.mark()
        result = self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise CDPError(f"{url}: {result['errorText']}")
        self.wait_event("Page.loadEventFired", since=start)
        return result

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
        # A browser that never answered is not asked to close (nor waited for): it is ended.
        if proc is not None and proc.poll() is None and self._answered:
            with contextlib.suppress(CDPError, OSError):
                self.send("Browser.close", session=False, timeout_ms=5_000)
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
        if self._own_profile:
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
