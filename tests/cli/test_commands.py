"""The real ``actframes`` command in a subprocess: formats, filtering, the apps table,
context windows, store selection, pipes, and byte-identical output under any machine
zone or locale."""

from __future__ import annotations

import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from actframes.cli.fast_day import plain_day

from ..builders import (
    cli_env,
    iso,
    ms,
    native_db,
    run_cli,
    run_cli_bytes,
    screenpipe_db,
    sha256,
)

DAY = "2026-03-10"
TZ = "Europe/Berlin"

APPS: list[tuple[str, str, str | None]] = [
    ("Code", "store.py — actframes — Überblick ✓", None),
    ("Google Chrome", "sqlite3 — Python 3 docs", "https://docs.python.org/3/library/sqlite3.html"),
    (
        "Google Chrome",
        "Pull request #12 · acme/actframes",
        "https://github.com/acme/actframes/pull/12",
    ),
    ("Terminal", "pytest -q — 日本語", None),
    ("Slack", "#général | acme", None),
]


def _workday(n: int, step_s: int = 20, *, flip_every: int = 9) -> tuple[list[Any], list[Any]]:
    """A deterministic day from 08:00 local (Berlin): blocks of ``flip_every`` rows per app,
    a lunch gap, and keys and clicks sprinkled in."""
    t = ms("2026-03-10T08:00:00+01:00")
    frames, events = [], []
    eid = 1
    for i in range(n):
        if i == n // 2:
            t += 45 * 60_000  # lunch: a session gap
        app, title, url = APPS[(i // flip_every) % len(APPS)]
        style = ("Z", "+01:00/f3", "-08:00/space", "naive/f6")[i % 4]
        ts = t + (i % 3) * 1000
        frames.append((i + 1, iso(ts, style), app, f"{title} ({i // 40})", url, "monitor_0"))
        if i % 2 == 0:
            kind = "key" if app in ("Code", "Terminal", "Slack") else "click"
            events.append((eid, iso(ts + 2_000, "Z/f3"), kind, app))
            eid += 1
        t += step_s * 1000
    return frames, events


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    frames, events = _workday(400)
    return screenpipe_db(tmp_path_factory.mktemp("cli") / "screenpipe.db", frames, events)


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # ~3000 rows switching app every row (30 s apart: no flicker folding): thousands of
    # frames and well over a megabyte of JSON, so a pipe closes long before the end.
    frames, events = _workday(3000, step_s=30, flip_every=1)
    return screenpipe_db(tmp_path_factory.mktemp("big") / "screenpipe.db", frames, events)


def _ok(*args: str, env: dict[str, str] | None = None) -> str:
    proc = run_cli(*args, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return str(proc.stdout)


def _day(db: Path, *extra: str) -> str:
    return _ok("day", DAY, "--db", str(db), "--tz", TZ, *extra)


def _doc(db: Path, *extra: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(_day(db, "--format", "json", *extra))
    return doc


def _hms(s: int) -> str:
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


# ---------------------------------------------------------------- formats


def test_console_script_matches_python_m(store: Path) -> None:
    """Every other test runs ``python -m actframes.cli``; the installed script agrees."""
    script = Path(sys.executable).with_name("actframes")
    if not script.exists():
        pytest.skip("no console script next to this interpreter")
    proc = subprocess.run(
        [str(script), "day", DAY, "--db", str(store), "--tz", TZ],
        capture_output=True,
        text=True,
        env=cli_env(),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == _day(store)


def test_json(store: Path) -> None:
    before = sha256(store)
    text = _day(store)
    assert text == _day(store, "--format", "json")  # json is the default
    doc = json.loads(text)
    assert text.endswith("}\n")
    assert doc["schema_version"] == 1
    assert doc["source"]["kind"] == "screenpipe"
    assert doc["window"] == {
        "day": DAY,
        "start": "2026-03-10T00:00:00+01:00",
        "end": "2026-03-11T00:00:00+01:00",
        "tz": TZ,
    }
    assert doc["coverage"]["rows"] == 400
    assert len(doc["coverage"]["gaps"]) == 1
    assert doc["coverage"]["active_s"] == sum(e["active_s"] for e in doc["ledger"])
    assert doc["coverage"]["input_events"] == 200
    assert doc["frames"]
    assert sha256(store) == before


def test_yaml_equals_json(store: Path) -> None:
    doc = _doc(store)
    text = _day(store, "--format", "yaml")
    assert yaml.safe_load(text) == doc


def test_markdown(store: Path) -> None:
    doc = _doc(store)
    text = _day(store, "--format", "md")
    assert text.startswith(f"# Activity: day {DAY} ({TZ})")
    assert "## Ledger" in text
    assert "| App | Site | Active | Seconds | Keys | Clicks |" in text
    for e in doc["ledger"]:
        assert f"| {e['active_s']} | {e['keys']} | {e['clicks']} |" in text
    assert "## Frames" in text


def test_context(store: Path) -> None:
    doc = _doc(store)
    text = _day(store, "--format", "context")
    assert text.startswith(f"# activity day {DAY} · tz {TZ} (+01:00)")
    assert "ledger (app · site · active · input)" in text
    # the whole ledger is always there
    from actframes.emit.context_parse import parse_context

    assert len(parse_context(text)["ledger"]) == len(doc["ledger"])


def test_context_budget_leaves_frames_out_but_keeps_the_ledger(store: Path) -> None:
    full = _day(store, "--format", "context", "--budget", "100000")
    small = _day(store, "--format", "context", "--budget", "300")
    assert "omitted" not in full
    assert re.search(r"^omitted \d+ frames .* for the budget of 300 o200k_base tokens", small, re.M)
    from actframes.emit.context_parse import parse_context

    assert parse_context(small)["ledger"] == parse_context(full)["ledger"]


# ---------------------------------------------------------------- --min-minutes


def test_min_minutes_hides_and_discloses(store: Path) -> None:
    full = _doc(store)
    cut = _doc(store, "--min-minutes", "2")
    small = [f for f in full["frames"] if f["active_s"] < 120]
    assert small, "the fixture must have small frames"
    assert cut["ledger"] == full["ledger"]
    assert cut["coverage"] == full["coverage"]
    assert cut["omitted"]["frames"] == len(small)
    assert cut["omitted"]["active_s"] == sum(f["active_s"] for f in small)
    assert cut["omitted"]["by"] == {"min_active_s": 120}
    assert [f["id"] for f in cut["frames"]] == [
        f["id"] for f in full["frames"] if f["active_s"] >= 120
    ]
    # frames are hidden, not merged: what is shown is unchanged
    shown = {f["id"]: f for f in full["frames"]}
    for f in cut["frames"]:
        assert f == shown[f["id"]]
    assert full["omitted"] == {"frames": 0, "active_s": 0}
    ctx = _day(store, "--format", "context", "--min-minutes", "2")
    assert f"omitted {len(small)} frames" in ctx


# ---------------------------------------------------------------- apps


def test_apps_table_total(store: Path) -> None:
    doc = _doc(store)
    text = _ok("apps", DAY, "--db", str(store), "--tz", TZ)
    lines = text.rstrip("\n").splitlines()
    assert lines[0].split() == ["APP", "SITE", "ACTIVE", "KEYS", "CLICKS"]
    assert len(lines) == len(doc["ledger"]) + 2
    total = lines[-1].split()
    assert total == ["TOTAL", _hms(doc["coverage"]["active_s"])]
    for line, e in zip(lines[1:-1], doc["ledger"], strict=True):
        assert line.startswith(e["app"])
        assert line.split()[-3:] == [_hms(e["active_s"]), str(e["keys"]), str(e["clicks"])]


# ---------------------------------------------------------------- context windows


def test_context_since_until(store: Path) -> None:
    text = _ok(
        "context",
        "--since",
        "2026-03-10T09:00",
        "--until",
        "2026-03-10T10:30",
        "--db",
        str(store),
        "--tz",
        TZ,
    )
    assert text.startswith(
        "# activity window 2026-03-10T09:00:00+01:00–2026-03-10T10:30:00+01:00 · tz Europe/Berlin"
    )
    assert re.search(r"^coverage 09:00–10:30 ", text, re.M)


@pytest.mark.parametrize(
    "args",
    [
        ("--hours", "2", "--since", "2026-03-10T09:00"),
        ("--hours", "2", "--until", "2026-03-10T09:00"),
        ("--until", "2026-03-10T09:00"),
        ("--since", "2026-03-10T10:00", "--until", "2026-03-10T09:00"),
        ("--since", "2026-03-10T25:00"),
        ("--hours", "0"),
        ("--hours", "100000"),
    ],
)
def test_context_window_usage_errors(store: Path, args: tuple[str, ...]) -> None:
    proc = run_cli("context", *args, "--db", str(store), "--tz", TZ)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("actframes: error: ")
    assert proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- choosing the store


def test_actframes_db_env(store: Path, tmp_path: Path) -> None:
    expected = _day(store)
    env = cli_env(ACTFRAMES_DB=str(store))
    assert _ok("day", DAY, "--tz", TZ, env=env) == expected
    # --db wins over the environment
    other = screenpipe_db(tmp_path / "other.db", [(1, "2026-03-10T09:00:00Z", "Other")])
    env = cli_env(ACTFRAMES_DB=str(other))
    assert _ok("day", DAY, "--db", str(store), "--tz", TZ, env=env) == expected


def test_actframes_db_env_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "gone.db"
    proc = run_cli("day", DAY, "--tz", TZ, env=cli_env(ACTFRAMES_DB=str(missing)))
    assert proc.returncode == 1
    assert proc.stderr.startswith("actframes: error: ") and str(missing) in proc.stderr
    assert proc.stderr.count("\n") == 1


def test_source_forced(store: Path, tmp_path: Path) -> None:
    assert _day(store, "--source", "screenpipe") == _day(store)
    native = native_db(tmp_path / "capture.db", [])
    for db, wrong in ((store, "native"), (native, "screenpipe"), (store, "activitywatch")):
        proc = run_cli("day", DAY, "--db", str(db), "--tz", TZ, "--source", wrong)
        assert proc.returncode == 1
        assert proc.stdout == ""
        assert proc.stderr.startswith("actframes: error: ")
        assert proc.stderr.count("\n") == 1
        assert str(db) in proc.stderr
        assert "Traceback" not in proc.stderr


# ---------------------------------------------------------------- pipes


def _env(unbuffered: bool) -> dict[str, str]:
    """The CLI's environment with PYTHONUNBUFFERED set or removed, whichever this process
    has: a closed pipe shows up in a different place with and without it."""
    env = cli_env()
    env.pop("PYTHONUNBUFFERED", None)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    return env


UNBUFFERED = pytest.mark.parametrize("unbuffered", [True, False], ids=["unbuffered", "buffered"])

# (arguments after DATE, whether the plain parser takes them): the plain path (fast_day)
# and click's (--day-start only feeds a callback, so click parses it).
PIPED_DAY = [
    (("--format", "json"), True),
    (("--format", "md"), True),
    (("--format", "yaml"), True),
    (("--format", "html"), True),
    (("--format", "context"), True),
    (("--day-start", "00:00", "--format", "json"), False),
    (("--day-start", "00:00", "--format", "html"), False),
]


def _cli_command(*args: str) -> str:
    return shlex.join([sys.executable, "-m", "actframes.cli", *args])


@UNBUFFERED
@pytest.mark.parametrize(("extra", "plain"), PIPED_DAY, ids=[" ".join(a) for a, _ in PIPED_DAY])
def test_pipe_closed_early(
    big_store: Path, unbuffered: bool, extra: tuple[str, ...], plain: bool
) -> None:
    args = ["day", DAY, "--db", str(big_store), "--tz", TZ, *extra]
    assert (plain_day(args) is not None) is plain  # the path this case means to take
    assert _piped(args, "head -n 1", unbuffered).count("\n") == 1


@UNBUFFERED
@pytest.mark.parametrize("command", ["apps", "report"])
def test_pipe_closed_early_other_commands(
    big_store: Path, tmp_path: Path, unbuffered: bool, command: str
) -> None:
    # Small outputs, most often written before the pipe closes: status 0 either way.
    args = [command, DAY, "--db", str(big_store), "--tz", TZ]
    if command == "report":
        args += ["--html", str(tmp_path / "r.html")]
    assert len(_piped(args, "head -c 1", unbuffered)) == 1


def _piped(args: list[str], reader: str, unbuffered: bool) -> str:
    """What ``reader`` kept of the command's output; the whole pipe must end with status 0
    and nothing on stderr."""
    proc = subprocess.run(
        ["bash", "-o", "pipefail", "-c", f"{_cli_command(*args)} | {reader}"],
        capture_output=True,
        text=True,
        env=_env(unbuffered),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def _default_sigint() -> None:
    # A shell's background job ignores SIGINT, and a child would inherit that.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted(proc: subprocess.Popen[bytes], started: bytes) -> tuple[int, str]:
    """SIGINT to ``proc`` once it has written ``started`` on stdout (b"": any byte): its
    exit status and stderr."""
    assert proc.stdout is not None
    try:
        seen = b""
        while not seen or started not in seen:
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, "no output in 120 s"
            chunk = os.read(proc.stdout.fileno(), 4096)
            assert chunk, f"ended before the interrupt: {proc.wait()}"
            seen += chunk
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err.decode("utf-8")


INTERRUPTED_DAY = [PIPED_DAY[0], PIPED_DAY[3], PIPED_DAY[5], PIPED_DAY[6]]


@UNBUFFERED
@pytest.mark.parametrize(
    ("extra", "plain"), INTERRUPTED_DAY, ids=[" ".join(a) for a, _ in INTERRUPTED_DAY]
)
def test_interrupt_while_writing(
    big_store: Path, unbuffered: bool, extra: tuple[str, ...], plain: bool
) -> None:
    """Ctrl-C in ``day``: status 130, one line on stderr, on either path. The signal is
    sent once the first byte is out: the rest (far more than a pipe holds) waits for a
    reader that never comes, so the command is still running, however slow the machine."""
    args = ["day", DAY, "--db", str(big_store), "--tz", TZ, *extra]
    assert (plain_day(args) is not None) is plain
    proc = subprocess.Popen(
        [sys.executable, "-m", "actframes.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(unbuffered),
        preexec_fn=_default_sigint,
    )
    code, err = _interrupted(proc, b"")
    assert (code, err) == (130, "actframes: error: interrupted\n")


@UNBUFFERED
def test_interrupt_while_waiting(big_store: Path, unbuffered: bool) -> None:
    """Ctrl-C in a command that waits (the MCP server, for its next request)."""
    pytest.importorskip("mcp")
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-03-26",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    # Our own pipe, open until the end: an end of input would stop the server by itself.
    stdin, to_server = os.pipe()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "actframes.cli", "mcp", "--db", str(big_store), "--tz", TZ],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_env(unbuffered),
            preexec_fn=_default_sigint,
        )
        os.write(to_server, json.dumps(hello).encode() + b"\n")
        code, err = _interrupted(proc, b"\n")  # its answer is out: it waits for more
    finally:
        os.close(stdin)
        os.close(to_server)
    assert (code, err) == (130, "actframes: error: interrupted\n")


def test_big_output_is_big(big_store: Path) -> None:
    # The pipe test only means something when the output outgrows a pipe buffer.
    proc = run_cli_bytes("day", DAY, "--db", str(big_store), "--tz", TZ)
    assert proc.returncode == 0
    assert len(proc.stdout) > 4 * 65_536  # well past a Linux pipe buffer


# ---------------------------------------------------------------- machine zone and locale


ENV_VARIANTS: list[dict[str, str]] = [
    {"TZ": "UTC"},
    {"TZ": "Asia/Kolkata"},
    {"LC_ALL": "C"},
    {"LANG": "de_DE.UTF-8"},
    {"LC_ALL": "C", "TZ": "America/St_Johns", "LANG": "de_DE.UTF-8"},
]


@pytest.mark.parametrize("fmt", ["json", "md", "context", "yaml"])
def test_same_bytes_under_any_zone_and_locale(store: Path, fmt: str) -> None:
    base = {k: v for k, v in cli_env().items() if k not in ("TZ", "LANG") and "LC_" not in k}
    outputs = set()
    for variant in ENV_VARIANTS:
        proc = run_cli_bytes(
            "day", DAY, "--db", str(store), "--tz", TZ, "--format", fmt, env={**base, **variant}
        )
        assert proc.returncode == 0, (variant, proc.stderr)
        assert proc.stderr == b""
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    text = outputs.pop().decode("utf-8")
    assert "Überblick ✓" in text or fmt == "context"


def test_apps_same_bytes_under_any_zone(store: Path) -> None:
    base = {k: v for k, v in cli_env().items() if k not in ("TZ", "LANG") and "LC_" not in k}
    outs = {
        run_cli_bytes("apps", DAY, "--db", str(store), "--tz", TZ, env={**base, **variant}).stdout
        for variant in ENV_VARIANTS
    }
    assert len(outs) == 1


# ---------------------------------------------------------------- demo


def test_demo(tmp_path: Path) -> None:
    """The one-day demo: the same bytes every run, whatever the clock."""
    try:
        import actframes.simulate  # noqa: F401
    except ImportError:
        pytest.skip("actframes.simulate is not available")
    outs = []
    for run in ("a", "b"):
        out = tmp_path / run
        proc = run_cli("demo", "--days", "1", "--out", str(out), cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""
        files = {
            n: (out / n).read_bytes() for n in ("day.json", "day.yaml", "day.md", "context.txt")
        }
        context = files["context.txt"].decode("utf-8")
        assert context.startswith("# activity day ")
        assert context.rstrip("\n") in proc.stdout
        doc = json.loads(files["day.json"])
        assert yaml.safe_load(files["day.yaml"]) == doc
        assert "## Ledger" in files["day.md"].decode("utf-8")
        assert doc["frames"]
        outs.append(files)
    assert outs[0] == outs[1]
    assert os.path.exists(tmp_path / "a" / "demo.db")
