"""Instants as the document writes them: ISO-8601, whole seconds, the window's zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from ..window import zone

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_FROM_TS = datetime.fromtimestamp


class Clock:
    """Formats instants as ISO-8601 with the requested zone's offset."""

    def __init__(self, tz: str) -> None:
        self._zone: ZoneInfo = zone(tz)
        # Half the instants a document shows come round again (a frame ends where the
        # next begins): each second is formatted once.
        self._done: dict[int, str] = {}

    @classmethod
    def shared(cls, tz: str) -> Clock:
        """The zone's clock kept between compiles: a resident server compiles the same day
        again and again, and formatting an instant costs more than the rest of a frame's
        fields. What it has formatted is forgotten past ``SHARED_MAX`` instants."""
        clock = _SHARED.get(tz)
        if clock is None:
            clock = _SHARED[tz] = cls(tz)
        elif len(clock._done) > SHARED_MAX:
            clock._done.clear()
        return clock

    def iso(self, ms: int) -> str:
        s = ms // 1000
        text = self._done.get(s)
        if text is None:
            text = self._done[s] = self._format(ms)
        return text

    def _format(self, ms: int) -> str:
        # Whole seconds in, whole seconds out: the zone conversion (the same ``fromutc``)
        # happens in C, about 40% faster than epoch + timedelta + astimezone.
        try:
            return _FROM_TS(ms // 1000, self._zone).isoformat()
        except (OverflowError, OSError, ValueError):  # out of the platform's time_t
            dt = (_EPOCH + timedelta(milliseconds=ms)).astimezone(self._zone)
            return dt.isoformat(timespec="seconds")


SHARED_MAX = 20_000  # instants kept per zone (a day's document shows a few hundred)
_SHARED: dict[str, Clock] = {}
