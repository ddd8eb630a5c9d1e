"""Routines of one store kept across calls: the steps of each local day and the last
minings, for a long-lived process (the MCP server).

Mining reads every step of its window (``routines.store_mining.mine_store``), and a store
being recorded changes at every call. A window of whole days of a store read
``by_day`` (native, screenpipe-style) is therefore kept a day at a time (``DaySteps``),
each day with the store's change token when it was read (``sources/watch.py``, through
``ResidentCache.store_token``) and the day's fingerprint. A call checks each day,
cheapest first:

1. the store's token is the one the day saw: nothing was committed since — kept;
2. the day's fingerprint is unchanged — kept, the new token noted. It covers everything
   the day's steps read (``sources.actions.steps_fingerprints``). On a native store: the
   change counters of the UTC days inside the day and the rows of its read margins, so
   that rows added today leave yesterday alone (the document cache's fingerprint counts
   the margins' whole UTC days, so today's rows would move yesterday's); on a
   screenpipe-style one, a hash of the raw rows the day's read keeps by instant
   (``sources/screenpipe/steps_fingerprint.py``), not of the neighbouring dates its
   index ranges also hold;
3. otherwise the day is read again. A day read again to the same steps keeps its
   version, so the mining of unchanged steps is served as it was.

The days' steps are joined and mined exactly as a cold ``mine_store`` joins and mines
them, and a mining is kept under the versions of its days, the rules and the options:
every answer is the bytes a fresh mining of the store gives (a property test holds this
after random appends, edits, moves and deletions), whatever the cache saw before. Other
stores, and windows that are not whole days, are mined in one piece, the mining kept
while the store's token is unchanged.

With a ``DayStepsCache`` the days also live on disk (one-shot ``actframes routines``: no
token, every day checked by its fingerprint). Typed text is kept nowhere: a mining with
``include_text`` is read and mined afresh, neither its days nor its routines kept.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from itertools import count
from pathlib import Path

from .day_steps_cache import DayStepsCache
from .routines.mine import Rules
from .routines.store_mining import (
    DaySteps,
    Mining,
    by_day,
    day_windows,
    join_days,
    mine_joined,
    mine_store,
    read_day,
)
from .sources import actions as store_actions
from .sources.base import CommitWatch
from .window import Window

MAX_DAYS = 200  # days kept (two quarters of one zone, or a quarter of two)
MAX_MININGS = 8  # minings kept (windows, rules and options asked for recently)
LOOKS = 3  # looks at the days while commits land among them; the last one is answered


class _Day:
    __slots__ = ("fingerprint", "steps", "token", "version")

    def __init__(
        self, token: Hashable, fingerprint: str | None, version: int, steps: DaySteps
    ) -> None:
        self.token, self.fingerprint, self.version, self.steps = token, fingerprint, version, steps


class ResidentRoutines:
    """The routine steps and minings of one store (callable from any thread: calls run
    one at a time)."""

    def __init__(
        self,
        path: Path,
        kind: str | None,
        store_token: Callable[[], Hashable | None],
        max_days: int = MAX_DAYS,
        disk: DayStepsCache | None = None,
        *,
        audible_active: bool = True,
    ) -> None:
        self.path, self.kind, self.store_token, self.max_days = path, kind, store_token, max_days
        self.disk = disk
        self.audible_active = audible_active  # as for ``sources.open_source``
        self._days: OrderedDict[Hashable, _Day] = OrderedDict()
        self._minings: OrderedDict[Hashable, Mining] = OrderedDict()
        self._versions = count(1)
        self._lock = threading.Lock()
        self.stats = {"served": 0, "fingerprint": 0, "read": 0, "mined": 0}
        if disk is not None:
            self.stats["disk"] = 0

    def mining(
        self,
        zone: str,
        start_ms: int,
        end_ms: int,
        rules: Rules,
        include_text: bool = False,
        stage: Callable[[str], None] | None = None,
    ) -> Mining:
        """``mine_store`` of the window, from the days kept where they are unchanged
        (``stage`` as there)."""
        if include_text:
            # Typed text is kept in no cache: such a mining is read and mined afresh.
            with self._lock:
                self.stats["mined"] += 1
            return mine_store(
                self.path,
                self.kind,
                zone,
                start_ms,
                end_ms,
                rules,
                include_text,
                stage,
                audible_active=self.audible_active,
            )
        by_days = by_day(self.path, self.kind)
        windows = day_windows(zone, start_ms, end_ms) if by_days else None
        if windows is None:
            return self._whole(zone, start_ms, end_ms, rules, include_text, stage)
        with self._lock:
            if stage is not None:
                stage("read steps")
            days = self._fresh_days(zone, windows, include_text)
            key = (zone, start_ms, end_ms, rules, include_text, tuple(d.version for d in days))
            found = self._minings.get(key)
            if stage is not None:
                stage("mine routines")
            if found is None:
                steps, screens = join_days([d.steps for d in days])
                found = mine_joined(steps, screens, zone, start_ms, end_ms, rules, include_text)
                self.stats["mined"] += 1
                self._minings[key] = found
                while len(self._minings) > MAX_MININGS:
                    self._minings.popitem(last=False)
            self._minings.move_to_end(key)
            return found

    def _whole(
        self,
        zone: str,
        start_ms: int,
        end_ms: int,
        rules: Rules,
        include_text: bool,
        stage: Callable[[str], None] | None,
    ) -> Mining:
        """A window read in one piece: its mining kept while the store's token is."""
        with self._lock:
            token = self.store_token()
            key = ("whole", zone, start_ms, end_ms, rules, include_text, token)
            found = self._minings.get(key) if token is not None else None
            if found is not None:
                self.stats["served"] += 1
                self._minings.move_to_end(key)
                return found
            found = mine_store(
                self.path,
                self.kind,
                zone,
                start_ms,
                end_ms,
                rules,
                include_text,
                stage,
                audible_active=self.audible_active,
            )
            self.stats["mined"] += 1
            if token is not None:
                self._minings[key] = found
                while len(self._minings) > MAX_MININGS:
                    self._minings.popitem(last=False)
            return found

    def _fresh_days(self, zone: str, windows: list[Window], include_text: bool) -> list[_Day]:
        """The days of ``windows``, kept where unchanged, read otherwise. A commit while
        they are looked at may leave them of two states of the store (one kept by its
        fingerprint, one read after the commit): then they are looked at again, up to
        ``LOOKS`` times in all, the days read meanwhile kept where their reads were quiet."""
        for _ in range(LOOKS):
            days, settled = self._look(zone, windows, include_text)
            if settled:
                break
        return days

    def _look(
        self, zone: str, windows: list[Window], include_text: bool
    ) -> tuple[list[_Day], bool]:
        """The days, and whether no commit landed while they were looked at."""
        # The token is taken before anything is read: a write after it makes the next
        # call look again, never keeps rows older than the token.
        token = self.store_token()
        fam = store_actions.family(self.path, self.kind)
        keys = [(w.day, zone, include_text) for w in windows]
        stale = [
            w
            for w, key in zip(windows, keys, strict=True)
            if (day := self._days.get(key)) is None or token is None or day.token != token
        ]
        # The store's commits are watched from before the fingerprints (on a connection
        # of its own) to after the last read: a commit between a day's fingerprint and its
        # read would leave steps newer than the fingerprint they are kept under, served
        # again once the store is back in the older state (an edit undone).
        watched = stale and store_actions.days_fingerprinted(self.path, fam)
        watch = CommitWatch(self.path) if watched else None
        try:
            first = watch.first if watch is not None else None
            # The fingerprints of the days not served by the token (on read-only
            # connections of their own, a day on one of them).
            spans = [(w.start_ms, w.end_ms) for w in stale]
            fps = store_actions.steps_fingerprints(self.path, fam, spans)
            by_span = dict(zip(spans, fps, strict=True))
            out = []
            for w, key in zip(windows, keys, strict=True):
                day = self._days.get(key)
                if day is not None and (w.start_ms, w.end_ms) not in by_span:
                    self.stats["served"] += 1
                else:
                    fp = by_span.get((w.start_ms, w.end_ms))
                    if day is not None and fp is not None and day.fingerprint == fp:
                        day.token = token
                        self.stats["fingerprint"] += 1
                    else:
                        day = self._read_day(fam, zone, w, include_text, fp, day, token, watch)
                        self._days[key] = day
                self._days.move_to_end(key)
                out.append(day)
            settled = watch is None or (first is not None and watch.version() == first)
        finally:
            if watch is not None:
                watch.close()
        while len(self._days) > self.max_days:
            self._days.popitem(last=False)
        return out, settled

    def _read_day(
        self,
        fam: str,
        zone: str,
        window: Window,
        include_text: bool,
        fp: str | None,
        old: _Day | None,
        token: Hashable,
        watch: CommitWatch | None,
    ) -> _Day:
        """The day read, kept under the fingerprint of the rows read: ``fp`` (taken
        before), or the day's own again when a commit landed since; None when a commit
        landed between it and the end of the read (read again next time)."""
        since = watch.version() if watch is not None else None
        if watch is not None and since != watch.first:  # a commit since the fingerprints
            fp = store_actions.steps_fingerprints(
                self.path, fam, [(window.start_ms, window.end_ms)]
            )[0]
        steps, keep = self._read(fam, zone, window, include_text, fp)
        if keep is not None:
            if watch is not None and since is not None and watch.version() == since:
                keep()  # on disk under the fingerprint of the rows read
            else:
                fp = None
        # Steps read again unchanged keep their version: their mining stands.
        same = old is not None and old.steps == steps
        version = old.version if old is not None and same else next(self._versions)
        return _Day(token, fp, version, steps)

    def _read(
        self, fam: str, zone: str, window: Window, include_text: bool, fp: str | None
    ) -> tuple[DaySteps, Callable[[], None] | None]:
        """The day's steps from the disk cache when its fingerprint matches (never typed
        text), else from the store, with what keeps them on disk (once the fingerprint is
        known to be of the rows read)."""
        disk, entry = self.disk, None
        if disk is not None and fp is not None and not include_text and window.day:
            entry = disk.entry(self.path, fam, window.day, zone)
            got = disk.get(entry, fp)
            if got is not None:
                self.stats["disk"] += 1
                return got, None
        steps = read_day(
            self.path, self.kind, zone, window, include_text, audible_active=self.audible_active
        )
        self.stats["read"] += 1

        def keep() -> None:
            if disk is not None and entry is not None and fp is not None:
                disk.put(entry, fp, steps)

        return steps, keep
