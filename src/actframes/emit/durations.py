"""Human durations for the text formats: 45s, 12m, 3h05m (minutes rounded half up)."""

from __future__ import annotations


def fmt_dur(s: int) -> str:
    if s < 60:
        return f"{s}s"
    minutes = (s + 30) // 60
    if minutes < 60:
        return f"{minutes}m"
    h, m = divmod(minutes, 60)
    return f"{h}h{m:02d}m"
