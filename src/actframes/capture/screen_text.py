"""``record --screen-text``: the focused window's visible text, kept beside its snapshot.

At every snapshot of a recordable window (a focus, title, URL, click, typing or heartbeat
row) the recorder asks AT-SPI for the window's showing text (``atspi_text``: what was
typed only with ``--screen-text-typed``, a password field's never), and — with
``--screen-text-ocr`` on X11, where the window shows none — reads its pixels with
Tesseract (``ocr``). The text is then filtered like titles (a piece that an excluded
title pattern, a private-window marker or an excluded host matches is dropped), redacted
(``redact.redact``: secrets become "[redacted]"), cut to ``MAX_CHARS`` characters, and
written to ``screen_text`` only when it differs from the last text written for that
window. One read runs at a time; a snapshot taken meanwhile is read when it ends (the
latest one only).
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .focus import Seen
from .privacy import PrivacyRules

MAX_CHARS = 8_000  # of one capture's text, after redaction
MAX_WINDOWS = 256  # windows whose last text is remembered
ACCESSIBILITY = "accessibility"
OCR = "ocr"

Redactor = Callable[[str], str]


@dataclass(frozen=True)
class _Ask:
    """A snapshot whose window's text is wanted."""

    snap_id: int
    ts_ms: int
    window: int
    pid: int | None
    title: str
    box: tuple[int, int, int, int] | None


def make_keeper(
    cfg: Any,
    a11y: Any,
    grab: Callable[[int, tuple[int, int, int, int] | None], Any] | None,
    log: Callable[[str], None],
) -> ScreenTextKeeper | None:
    """The keeper ``cfg`` asks for (``screen_text``), or None with a log line saying why
    nothing can be kept. ``grab`` reads the focused window's pixels (None: not X11)."""
    if not cfg.screen_text:
        return None
    redact = load_redactor()
    ocr = bool(cfg.screen_text_ocr)
    if ocr and grab is None:
        log("screen text OCR works on X11 only: accessibility text only")
        ocr = False
    if ocr:
        from .ocr import ocr_problem

        problem = ocr_problem()
        if problem is not None:
            log(f"screen text OCR is off: {problem}")
            ocr = False
    if a11y is None and not ocr:
        log("screen text is not kept: no accessibility bus (and no OCR)")
        return None
    typed = bool(getattr(cfg, "screen_text_typed", False))
    return ScreenTextKeeper(cfg.privacy, redact, ocr=ocr, grab=grab, typed=typed)


def load_redactor() -> Redactor:
    """``redact.redact`` (loaded when screen text is asked for)."""
    from ..redact import redact

    return redact


def clean(pieces: list[str], rules: PrivacyRules, redact: Redactor) -> str:
    """The pieces a title would keep, joined by lines, redacted, at most ``MAX_CHARS``."""
    kept = [
        p
        for p in pieces
        if not rules.title_excluded(p)
        and not rules.is_private(p)
        and not ("://" in p and rules.host_excluded(p.split()[0] if p.split() else p))
    ]
    text = redact("\n".join(kept)).strip()
    return text[:MAX_CHARS]


class ScreenTextKeeper:
    """The reads in flight and the last text per window; ``step`` says what to write."""

    def __init__(
        self,
        rules: PrivacyRules,
        redact: Redactor,
        *,
        ocr: bool,
        grab: Callable[[int, tuple[int, int, int, int] | None], Any] | None = None,
        typed: bool = False,
    ) -> None:
        self.rules = rules
        self.typed = typed  # editable elements' contents too (never a password field's)
        self.redact = redact
        self.grab = grab if ocr else None
        self._wanted: _Ask | None = None
        self._job: tuple[concurrent.futures.Future[Any], _Ask, str] | None = None
        self._last: dict[int, str] = {}
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def busy(self) -> bool:
        return self._job is not None or self._wanted is not None

    def ask(self, seen: Seen, snap_id: int, ts_ms: int) -> None:
        info = seen.info
        if not seen.recordable or info is None:
            return
        self._wanted = _Ask(snap_id, ts_ms, info.window, info.pid, info.title, seen.box)

    def step(self, a11y: Any) -> tuple[int, int, str, str] | None:
        """Start or collect a read; (ts, snapshot id, kind, text) when a row is due."""
        row = None
        if self._job is not None and self._job[0].done():
            fut, ask, kind = self._job
            self._job = None
            try:
                found = fut.result()
            except Exception:
                found = None
            if kind == ACCESSIBILITY:
                pieces = found.pieces if found is not None and found.matched else []
                if not pieces and self._start_ocr(ask):
                    return None
            else:
                pieces = [ln for ln in str(found or "").splitlines() if ln.strip()]
            row = self._row(ask, kind, pieces)
        if self._job is None and self._wanted is not None:
            ask, self._wanted = self._wanted, None
            read = (
                a11y.visible_text_async(ask.pid, ask.title, bounds=ask.box, typed=self.typed)
                if a11y
                else None
            )
            if read is not None:
                self._job = (read, ask, ACCESSIBILITY)
            else:
                self._start_ocr(ask)
        return row

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    def _start_ocr(self, ask: _Ask) -> bool:
        if self.grab is None:
            return False
        image = self.grab(ask.window, ask.box)
        if image is None:
            return False
        from .ocr import read_text

        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="ocr")
        self._job = (self._pool.submit(read_text, image), ask, OCR)
        return True

    def _row(self, ask: _Ask, kind: str, pieces: list[str]) -> tuple[int, int, str, str] | None:
        text = clean(pieces, self.rules, self.redact) if pieces else ""
        if not text or self._last.get(ask.window) == text:
            return None
        if ask.window not in self._last and len(self._last) >= MAX_WINDOWS:
            self._last.pop(next(iter(self._last)))
        self._last[ask.window] = text
        return ask.ts_ms, ask.snap_id, kind, text
