"""The Wayland recorder's resource use on headless sway: CPU idle and with a focus change
every second, and RSS.

    .venv/bin/python benchmarks/wayland_recorder_resources.py [--seconds N]

Starts its own headless sway (as the unprivileged user ``actframes-wl`` when run as root,
since sway refuses root; created if missing), two foot windows and ``actframes record
run`` on a fresh store. After a warm-up it measures two phases of ``--seconds`` each:

- **idle**: nobody touches the desktop;
- **focus**: ``swaymsg`` moves the focus between the two windows once a second (a focus
  row each time).

CPU and RSS are measured as for the X11 recorder (``recorder_resources.py``): the
recorder's user+system ticks over the phase as a percentage of one core, and the largest
RSS sampled every 0.25 s. Targets: idle ≤ 1 %, focus changes ≤ 3 %, RSS ≤ 60 MB. Writes
``.bench/wayland_recorder.json``; exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import pwd
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from recorder_resources import WARMUP_S, _kill, _measure, _RssSampler

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / ".bench" / "wayland_recorder.json"
TARGETS = {"idle_cpu_pct": 1.0, "focus_cpu_pct": 3.0, "max_rss_mb": 60.0}
USER = "actframes-wl"


def _as_user(runtime: Path) -> list[str]:
    if os.geteuid() != 0:
        return []
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER],
            check=True,
            capture_output=True,
        )
        entry = pwd.getpwnam(USER)
    os.chown(runtime, entry.pw_uid, entry.pw_gid)
    return ["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups"]


def run(seconds: float = 30.0) -> dict[str, Any]:
    for tool in ("sway", "swaymsg", "foot"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"not installed: {tool}")
    procs: list[subprocess.Popen[Any]] = []
    runtime = Path(tempfile.mkdtemp(prefix="actframes-bench-wl-"))
    os.chmod(runtime, 0o700)
    prefix = _as_user(runtime)
    try:
        with tempfile.TemporaryDirectory(prefix="actframes-bench-") as tmp_name:
            tmp = Path(tmp_name)
            client = {"PATH": "/usr/bin:/bin", "HOME": str(runtime),
                      "XDG_RUNTIME_DIR": str(runtime)}  # fmt: skip

            def spawn(argv: list[str], env: dict[str, str]) -> subprocess.Popen[Any]:
                cmd = [*prefix, "env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
                p = subprocess.Popen(
                    cmd, cwd=runtime, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL, start_new_session=True,
                )  # fmt: skip
                procs.append(p)
                return p

            config = runtime / "sway.config"
            config.write_text("output HEADLESS-1 resolution 1280x800\n")
            spawn(["sway", "--config", str(config)], {**client, "WLR_BACKENDS": "headless",
                  "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"})  # fmt: skip
            deadline = time.monotonic() + 20
            sockets: list[Path] = []
            while time.monotonic() < deadline and not sockets:
                sockets = [p for p in runtime.glob("wayland-*") if not p.suffix]
                ipc = sorted(runtime.glob("sway-ipc.*.sock"))
                sockets = sockets if ipc else []
                time.sleep(0.1)
            if not sockets:
                raise RuntimeError("sway did not start")
            client["WAYLAND_DISPLAY"] = sockets[0].name
            swaysock = str(ipc[0])

            def swaymsg(*args: str) -> str:
                return subprocess.run(
                    ["swaymsg", "-s", swaysock, *args],
                    capture_output=True, text=True, timeout=30, check=False,
                ).stdout  # fmt: skip

            for app in ("BenchOne", "BenchTwo"):
                spawn(["foot", f"--app-id={app}", f"--title={app}", "sleep", "3600"], client)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and swaymsg("-t", "get_tree").count("Bench") < 4:
                time.sleep(0.1)
            env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY",)}
            env.update(
                WAYLAND_DISPLAY=client["WAYLAND_DISPLAY"], XDG_RUNTIME_DIR=str(runtime),
                XDG_SESSION_TYPE="wayland", XDG_CURRENT_DESKTOP="sway",
                XDG_STATE_HOME=str(tmp / "state"), XDG_CONFIG_HOME=str(tmp / "config"),
            )  # fmt: skip
            log = open(tmp / "recorder.log", "wb")  # noqa: SIM115 - closed with the process
            rec = subprocess.Popen(
                [sys.executable, "-m", "actframes.cli", "record", "run", "--db", str(tmp / "c.db")],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
                start_new_session=True,
            )  # fmt: skip
            procs.append(rec)
            time.sleep(WARMUP_S)
            if rec.poll() is not None:
                raise RuntimeError(f"the recorder exited: {(tmp / 'recorder.log').read_text()}")
            sampler = _RssSampler(rec.pid)
            sampler.start()
            idle = _measure(rec.pid, seconds)
            # The focus phase: swaymsg runs in this process's time, not the recorder's.
            hz = os.sysconf("SC_CLK_TCK")
            from recorder_resources import _ticks

            t0, c0 = time.monotonic(), _ticks(rec.pid)
            n = 0
            while time.monotonic() - t0 < seconds:
                n += 1
                swaymsg(f"[app_id={'BenchOne' if n % 2 else 'BenchTwo'}] focus")
                time.sleep(max(0.0, t0 + n - time.monotonic()))
            focus = 100.0 * (_ticks(rec.pid) - c0) / hz / (time.monotonic() - t0)
            sampler.halt.set()
            sampler.join(2)
            rec.send_signal(signal.SIGTERM)
            rec.wait(15)
            conn = sqlite3.connect(tmp / "c.db")
            focus_rows = conn.execute(
                "SELECT count(*) FROM snapshots WHERE reason = 'focus'"
            ).fetchone()[0]
            conn.close()
    finally:
        for p in reversed(procs):
            _kill(p)
        shutil.rmtree(runtime, ignore_errors=True)
    return {
        "seconds_per_phase": seconds,
        "idle_cpu_pct": round(idle, 3),
        "focus_cpu_pct": round(focus, 3),
        "max_rss_mb": round(sampler.max_kib * 1024 / 1e6, 1),
        "focus_changes": n,
        "focus_rows": int(focus_rows),
        "targets": TARGETS,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    args = ap.parse_args()
    result = run(args.seconds)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    ok = True
    print(f"Wayland recorder resources ({args.seconds:.0f} s per phase, headless sway + foot)")
    for key, unit in (("idle_cpu_pct", "%"), ("focus_cpu_pct", "%"), ("max_rss_mb", "MB")):
        passed = result[key] <= TARGETS[key]
        ok &= passed
        verdict = "ok" if passed else "MISSED"
        print(f"  {key:15} {result[key]:8.2f} {unit:2}  target ≤ {TARGETS[key]:g}  {verdict}")
    print(f"  focus changes: {result['focus_changes']}; focus rows: {result['focus_rows']}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
