"""Small in-memory captures for compiler tests (the compiler is pure: no files needed)."""

from __future__ import annotations

from actframes.compile.pipeline import Options, compile_capture
from actframes.model import Capture, InputEvent, Snapshot, Span
from actframes.window import Window

T0 = 1_773_129_600_000  # 2026-03-10T08:00:00Z
DAY = Window(1_773_100_800_000, 1_773_187_200_000, "UTC", "2026-03-10")


def at(seconds: float) -> int:
    return T0 + int(seconds * 1000)


def snap(
    rid: int,
    t: float,
    app: str,
    url: str | None = None,
    title: str = "",
    *,
    device: str = "",
    dur: float | None = None,
) -> Snapshot:
    return Snapshot(
        rid,
        at(t),
        app,
        title or f"{app} {rid}",
        url,
        device,
        None if dur is None else int(dur * 1000),
    )


def ev(
    eid: int, t: float, kind: str = "key", app: str | None = None, device: str | None = None
) -> InputEvent:
    return InputEvent(eid, at(t), kind, app, device)


def cap(
    snaps: list[Snapshot],
    events: list[InputEvent] | None = None,
    afk: list[Span] | None = None,
    **flags: bool,
) -> Capture:
    return Capture(
        "test", list(snaps), list(events or []), list(afk or []), [], has_input=True, **flags
    )


def compile_(c: Capture, window: Window = DAY, **opts: int) -> dict:  # type: ignore[type-arg]
    return compile_capture(c, window, Options(**opts))


def seq(*steps: tuple[str, float], url: dict[str, str] | None = None) -> list[Snapshot]:
    """Rows from (app, seconds until the next row) steps, starting at T0, ids 1..n."""
    out, t = [], 0.0
    for i, (app, gap) in enumerate(steps, start=1):
        out.append(snap(i, t, app, (url or {}).get(app)))
        t += gap
    return out
