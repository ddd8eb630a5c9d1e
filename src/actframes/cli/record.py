"""``actframes record``: the recorder (X11 and Wayland) — run in the foreground, or start,
stop, pause, resume and inspect a background one. Loaded only when invoked (see
``group.COMMANDS``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..capture.config import load_config, state_dir
from ..errors import ActframesError
from .common import HELP, byte_size

F = TypeVar("F", bound=Callable[..., Any])
WAYLAND_BACKENDS = ("wlroots", "kde", "gnome")


def _recording_options(f: F) -> F:
    options = [
        click.option(
            "--db",
            type=click.Path(dir_okay=False, path_type=Path),
            help="The store to write (default: $ACTFRAMES_DB, else the native store).",
        ),
        click.option(
            "--config",
            "config_path",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Recorder config (TOML; default $XDG_CONFIG_HOME/actframes/recorder.toml).",
        ),
        click.option(
            "--display",
            help="Display to record: X11 (default $DISPLAY) or Wayland (default $WAYLAND_DISPLAY).",
        ),
        click.option(
            "--backend",
            type=click.Choice(["auto", "x11", "wlroots", "kde", "gnome"]),
            help="auto (default): from the session (XDG_SESSION_TYPE, WAYLAND_DISPLAY, "
            "XDG_CURRENT_DESKTOP); x11; wlroots (sway, Hyprland, river, labwc, Wayfire); "
            "kde (a KWin script); gnome (the Shell extension).",
        ),
        click.option(
            "--idle-seconds",
            type=float,
            help="No input this long starts an AFK period (default 180).",
        ),
        click.option(
            "--heartbeat-seconds",
            type=float,
            help="Write a row this often on a static screen (default 30).",
        ),
        click.option(
            "--keep-days",
            type=int,
            help="Delete rows older than N days, at start and hourly (0: keep all).",
        ),
        click.option(
            "--accessibility/--no-accessibility",
            default=None,
            help="Read AT-SPI elements and browser URLs when an accessibility bus exists.",
        ),
        click.option(
            "--devtools",
            metavar="URL",
            help="Opt-in: a Chromium DevTools endpoint on loopback for the tab's URL.",
        ),
        click.option(
            "--screen-text/--no-screen-text",
            default=None,
            help="Opt-in: keep the focused window's visible accessibility text (redacted, "
            "at most 8,000 characters a capture; typed text only with the option below) "
            "for `search`.",
        ),
        click.option(
            "--screen-text-ocr/--no-screen-text-ocr",
            default=None,
            help="With --screen-text, on X11: OCR the focused window when it has no "
            "accessibility text (needs the ocr extra and Tesseract).",
        ),
        click.option(
            "--screen-text-typed/--no-screen-text-typed",
            default=None,
            help="With --screen-text: keep editable fields' visible contents too (what "
            "was typed; redacted; never a password field's).",
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _forwarded(params: dict[str, Any]) -> list[str]:
    """The options of ``start`` as arguments for the ``run`` it spawns."""
    args: list[str] = []
    for name in ("db", "config_path", "display", "backend", "idle_seconds", "heartbeat_seconds"):
        value = params.get(name)
        if value is not None:
            flag = "--config" if name == "config_path" else "--" + name.replace("_", "-")
            args += [flag, str(Path(value).resolve()) if isinstance(value, Path) else str(value)]
    if params.get("keep_days") is not None:
        args += ["--keep-days", str(params["keep_days"])]
    if params.get("accessibility") is not None:
        args.append("--accessibility" if params["accessibility"] else "--no-accessibility")
    if params.get("devtools") is not None:
        args += ["--devtools", str(params["devtools"])]
    for name in ("screen_text", "screen_text_ocr", "screen_text_typed"):
        if params.get(name) is not None:
            flag = name.replace("_", "-")
            args.append(f"--{flag}" if params[name] else f"--no-{flag}")
    return args


@click.group(context_settings=HELP)
def record() -> None:
    """Record the focused window, input counts and AFK periods into the native store
    (X11, or Wayland: wlroots compositors, KDE Plasma, GNOME).

    Nothing is sent anywhere: rows go to a local SQLite file. See docs/recorder.md for
    exactly what is stored and how to exclude apps, titles and sites.
    """


def _need_capture() -> None:
    try:
        import Xlib  # noqa: F401
    except ImportError:
        raise ActframesError(
            "actframes record needs the capture extra: pip install 'actframes[capture]' "
            "(python-xlib, dbus-fast)"
        ) from None


def _backend(wanted: str | None) -> Any:
    """The session's backend; an automatic wlroots choice that cannot work here (another
    compositor, no socket) falls back to XWayland when there is an X display."""
    from ..capture.session import SessionKind, choose

    env = dict(os.environ)
    kind = choose(env, wanted or "auto")
    if kind.backend in WAYLAND_BACKENDS and (wanted or "auto") == "auto" and env.get("DISPLAY"):
        if kind.backend == "wlroots":
            from ..capture.wayland import probe

            problem = probe(env)
        else:
            from ..capture.desktop_bus import probe as probe_desktop

            problem = probe_desktop(kind.backend, env)
        if problem is not None:
            note = f"{problem}: recording XWayland windows only"
            return SessionKind("x11", kind.desktop, True, note)
    return kind


def _need_wayland() -> None:
    _need_capture()
    try:
        import pywayland  # noqa: F401
    except ImportError:
        raise ActframesError(
            "recording a Wayland session needs pywayland: pip install 'actframes[capture]'"
        ) from None


@record.command()
@_recording_options
def run(**params: Any) -> None:
    """Record in the foreground until SIGTERM or Ctrl-C."""
    cfg = load_config(params["config_path"]).with_overrides(
        idle_seconds=params["idle_seconds"],
        heartbeat_seconds=params["heartbeat_seconds"],
        keep_days=params["keep_days"],
        accessibility=params["accessibility"],
        devtools=params["devtools"],
        screen_text=params["screen_text"],
        screen_text_ocr=params["screen_text_ocr"],
        screen_text_typed=params["screen_text_typed"],
    )
    from .common import default_db

    kind = _backend(params["backend"])
    db = params["db"] or default_db()
    recorder: Any
    if kind.backend in WAYLAND_BACKENDS:
        _need_wayland()
        from ..capture.wayland_recorder import WaylandRecorder

        recorder = WaylandRecorder(
            db,
            cfg,
            display=params["display"],
            desktop=kind.desktop,
            backend=kind.backend,
            state_dir=state_dir(),
        )
    else:
        _need_capture()
        from ..capture.recorder import Recorder

        recorder = Recorder(db, cfg, display=params["display"], state_dir=state_dir())
    if kind.note and kind.note != "asked for":
        recorder.log(kind.note)
    recorder.run()


@record.command()
@_recording_options
def start(**params: Any) -> None:
    """Start recording in the background (log in the XDG state folder)."""
    from ..capture.daemon import logfile
    from ..capture.daemon import start as start_daemon

    # Check the config here so a mistake is reported to the terminal, not only the log.
    load_config(params["config_path"]).with_overrides(
        idle_seconds=params["idle_seconds"],
        heartbeat_seconds=params["heartbeat_seconds"],
        keep_days=params["keep_days"],
        devtools=params["devtools"],
    )
    if _backend(params["backend"]).backend in WAYLAND_BACKENDS:
        _need_wayland()
    else:
        _need_capture()
    pid = start_daemon(_forwarded(params), state_dir())
    click.echo(f"recording (pid {pid}); log: {logfile(state_dir())}")


@record.command("install-gnome-extension")
@click.option(
    "--dest",
    type=click.Path(file_okay=False, path_type=Path),
    help="Extensions folder (default: $XDG_DATA_HOME/gnome-shell/extensions).",
)
@click.option(
    "--shell-version",
    type=int,
    help="GNOME Shell major version (default: from `gnome-shell --version`).",
)
def install_gnome_extension(dest: Path | None, shell_version: int | None) -> None:
    """Install the GNOME Shell extension through which the recorder sees the focused
    window on GNOME Wayland (then log out and in, and enable it)."""
    from ..capture import gnome_extension as ext

    major = shell_version if shell_version is not None else ext.shell_major()
    target = ext.install(dest or ext.extensions_dir(dict(os.environ)), major)
    click.echo(ext.instructions(target, major))


@record.command()
def stop() -> None:
    """Stop the background recorder (it flushes and exits cleanly)."""
    from ..capture.daemon import stop as stop_daemon

    pid = stop_daemon(state_dir())
    click.echo("no recorder was running" if pid is None else f"stopped (pid {pid})")


@record.command()
def pause() -> None:
    """Pause recording: nothing but '[paused]' rows is written until resume."""
    from ..capture.daemon import set_paused

    pid = set_paused(state_dir(), True)
    click.echo("paused" + ("" if pid else " (no recorder is running; a new one starts paused)"))


@record.command()
def resume() -> None:
    """Resume recording after pause."""
    from ..capture.daemon import set_paused

    pid = set_paused(state_dir(), False)
    click.echo("resumed" + ("" if pid else " (no recorder is running)"))


@record.command()
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The store to report on (default: $ACTFRAMES_DB, else the native store).",
)
@click.option("--tz", metavar="ZONE", help="Zone for 'today' (default: the machine's).")
def status(db: Path | None, tz: str | None) -> None:
    """Whether the recorder runs, rows written today, store size, time of the last row.

    Exits 0 when a recorder is running, 3 when none is.
    """
    from ..capture.daemon import (
        logfile,
        pause_flag,
        process_start_ms,
        running_pid,
        store_status,
    )
    from ..window import day_window, local_day_of
    from .common import default_db, machine_zone, now_ms

    zone = tz or machine_zone()
    state = state_dir()
    store = db or default_db()
    pid = running_pid(state)
    now = now_ms()
    paused = pause_flag(state).exists()
    lines = []
    if pid is not None:
        since = process_start_ms(pid)
        when = f" since {_local(since, zone)}" if since else ""
        lines.append(f"recorder: running (pid {pid}){when}{', paused' if paused else ''}")
    else:
        lines.append("recorder: not running" + (" (paused flag set)" if paused else ""))
    day_start = day_window(local_day_of(now, zone), zone).start_ms
    st = store_status(store, day_start)
    if not st.exists:
        lines.append(f"store: {store} (not created yet)")
    else:
        lines.append(f"store: {store} ({byte_size(st.bytes)})")
        if st.error:
            lines.append(f"store: cannot read ({st.error})")
        else:
            lines.append(
                f"today: {st.snapshots_today} snapshot rows, {st.events_today} input rows "
                f"({st.presses_today} presses)"
            )
            if st.last_row_ms is None:
                lines.append("last row: none")
            else:
                ago = max(0, (now - st.last_row_ms) // 1000)
                lines.append(f"last row: {_local(st.last_row_ms, zone)} ({_ago(ago)} ago)")
            if pid is not None and st.session:
                lines.append(_session_line(st.session))
            if pid is not None and st.silent:
                lines.append(f"window source silent: {st.silent} (rows say [silent])")
    lines.append(f"log: {logfile(state)}")
    click.echo("\n".join(lines))
    if pid is None:
        sys.exit(3)


def _session_line(notes: dict[str, object]) -> str:
    if notes.get("backend") in WAYLAND_BACKENDS:
        return _wayland_session_line(notes)
    parts = [f"X11 display {notes.get('display', '?')}"]
    parts.append("window manager" if notes.get("wm") else "no window manager (input focus)")
    parts.append("accessibility on" if notes.get("accessibility") else "no accessibility bus")
    line = "session: " + ", ".join(parts)
    if notes.get("wayland"):
        line += " — Wayland: only XWayland windows are recorded"
    return line


def _wayland_session_line(notes: dict[str, object]) -> str:
    """What a Wayland session captures and what it cannot (docs/recorder.md has the table)."""
    desktop = notes.get("desktop") or "unknown desktop"
    afk = notes.get("afk", "none")
    lines = [
        f"session: Wayland display {notes.get('display', '?')} ({desktop}), backend "
        f"{notes.get('backend')} ({notes.get('windows', '?')})",
        "captured: focused app and title"
        + (", executable" if notes.get("pids") else "")
        + (", browser URLs and accessibility elements" if notes.get("accessibility") else "")
        + (f", away periods ({afk})" if afk != "none" else "")
        + (", key/click/scroll counts (evdev)" if notes.get("input") == "evdev" else ""),
    ]
    missing = [] if notes.get("accessibility") else ["browser URLs", "accessibility elements"]
    if not notes.get("pids"):
        missing.append("executable")
    missing.append("monitor")
    if notes.get("input") != "evdev":
        note = notes.get("input_note")
        missing.insert(0, "input counts" + (f" ({note})" if note else ""))
    if afk == "none":
        missing.insert(0, "away periods")
    lines.append("not captured: " + ", ".join(missing))
    return "\n".join(lines)


def _local(ms: int, zone: str) -> str:
    from datetime import datetime

    from ..window import zone as tzinfo

    return datetime.fromtimestamp(ms / 1000, tzinfo(zone)).strftime("%Y-%m-%d %H:%M:%S %Z")


def _ago(s: int) -> str:
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    return f"{s // 3600} h"
