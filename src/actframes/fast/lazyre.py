"""Regular expressions compiled on first use.

The rule modules hold many patterns; compiling them all at import would cost every
``actframes`` command tens of milliseconds, used or not. A ``LazyRe`` compiles on its
first match (from the machine's cache of compiled patterns, ``recache``) and behaves like
the compiled pattern for the calls the rules make.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from . import recache


class LazyRe:
    __slots__ = ("_rx", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._rx: re.Pattern[str] | None = None

    @property
    def rx(self) -> re.Pattern[str]:
        if self._rx is None:
            self._rx = recache.compile(self.pattern, self.flags)
        return self._rx

    def fullmatch(self, s: str) -> re.Match[str] | None:
        return self.rx.fullmatch(s)

    def match(self, s: str) -> re.Match[str] | None:
        return self.rx.match(s)

    def search(self, s: str) -> re.Match[str] | None:
        return self.rx.search(s)

    def findall(self, s: str) -> list[str]:
        return self.rx.findall(s)

    def finditer(self, s: str) -> Iterator[re.Match[str]]:
        return self.rx.finditer(s)

    def sub(self, repl: str | Callable[[re.Match[str]], str], s: str, count: int = 0) -> str:
        return self.rx.sub(repl, s, count=count)
