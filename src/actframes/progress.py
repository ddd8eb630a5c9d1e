"""Progress bars for long work, on stderr and only on a terminal.

Nothing is drawn when stderr is not a TTY (pipes, CI, files), when the MCP server runs
(``quiet()``: its stdio belongs to the protocol), when ``ACTFRAMES_PROGRESS=0``, or when
tqdm (the ``progress`` extra) is not installed. Output on stdout never changes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

_quiet = False


def quiet() -> None:
    """No progress bars for the rest of this process (the MCP server)."""
    global _quiet
    _quiet = True


def enabled() -> bool:
    if _quiet or os.environ.get("ACTFRAMES_PROGRESS", "") == "0":
        return False
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def bar(items: Iterable[T], desc: str, total: int | None = None, unit: str = "it") -> Iterator[T]:
    """``items``, with a bar on the terminal while they are consumed."""
    if not enabled():
        yield from items
        return
    try:
        from tqdm import tqdm
    except ImportError:
        yield from items
        return
    yield from tqdm(
        items, desc=desc, total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True
    )


class Steps:
    """A bar over named stages of one piece of work: ``with Steps(...) as s: s.next(name)``."""

    def __init__(self, desc: str, total: int) -> None:
        """``total`` 0: no bar at all (work too short to need one)."""
        self._bar: Any = None
        self._started = False
        if total > 0 and enabled():
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(
                total=total, desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True
            )

    def next(self, stage: str) -> None:
        if self._bar is None:
            return
        if self._started:
            self._bar.update(1)
        self._started = True
        self._bar.set_postfix_str(stage)

    def __enter__(self) -> Steps:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.update(1)
            self._bar.close()


class Status:
    """A bar that counts messages of unknown number and shows the latest:
    ``with Status("bench qa") as say: say("demo 2026-03-10")``. Off: messages vanish."""

    def __init__(self, desc: str, on: bool = True) -> None:
        self._bar: Any = None
        if on and enabled():
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self._bar = tqdm(desc=desc, file=sys.stderr, leave=False, dynamic_ncols=True)

    def __call__(self, message: str) -> None:
        if self._bar is not None:
            self._bar.update(1)
            self._bar.set_postfix_str(message.strip())

    def __enter__(self) -> Status:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
