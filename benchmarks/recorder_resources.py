"""The X11 recorder's resource use: CPU on an idle desktop and while typing fast, and RSS.

    .venv/bin/python benchmarks/recorder_resources.py [--seconds N] [--keys-per-second K]

Starts its own Xvfb and openbox (ended by pid), an xterm, and ``actframes record run``
(accessibility on, as by default, though this desktop has no accessibility bus) on a
fresh store. After a warm-up it measures two phases of ``--seconds`` each:

- **idle**: nobody touches the desktop;
- **typing**: xdotool types into the focused xterm at ``--keys-per-second``, with a title
  change every 5 s (a focus/title row), as a fast typist in a busy terminal would cause.

CPU is the recorder's user+system ticks (every thread) from ``/proc/PID/stat`` over the
phase, as a percentage of one core; RSS is sampled from ``/proc/PID/status`` every 0.25 s
and the largest value is reported, in MB of 10^6 bytes. Targets: idle ≤ 1 %, typing ≤ 3 %,
RSS ≤ 60 MB. ``run()`` returns the numbers for ``benchmarks/run.py``; the script prints them and
writes ``.bench/recorder.json``, exiting 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / ".bench" / "recorder.json"
TARGETS = {"idle_cpu_pct": 1.0, "typing_cpu_pct": 3.0, "max_rss_mb": 60.0}
WARMUP_S = 3.0


def _ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class _RssSampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.max_kib = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.25):
            try:
                self.max_kib = max(self.max_kib, _rss_kib(self.pid))
            except OSError:
                return


def _kill(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(5)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)


def _start_x(tmp: Path) -> tuple[subprocess.Popen[Any], str]:
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    os.close(write_fd)
    number = b""
    deadline = time.monotonic() + 15
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        chunk = os.read(read_fd, 16)
        if not chunk:
            break
        number += chunk
    os.close(read_fd)
    if not number.strip():
        _kill(xvfb)
        raise RuntimeError("Xvfb did not start")
    return xvfb, ":" + number.decode().strip()


def _measure(pid: int, seconds: float) -> float:
    hz = os.sysconf("SC_CLK_TCK")
    t0, c0 = time.monotonic(), _ticks(pid)
    time.sleep(seconds)
    t1, c1 = time.monotonic(), _ticks(pid)
    return 100.0 * (c1 - c0) / hz / (t1 - t0)


def run(seconds: float = 30.0, keys_per_second: float = 15.0) -> dict[str, Any]:
    for tool in ("Xvfb", "openbox", "xterm", "xdotool"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"not installed: {tool}")
    procs: list[subprocess.Popen[Any]] = []
    with tempfile.TemporaryDirectory(prefix="actframes-bench-") as tmp_name:
        tmp = Path(tmp_name)
        xvfb, display = _start_x(tmp)
        env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY",)}
        env.update(
            DISPLAY=display,
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CONFIG_HOME=str(tmp / "config"),
        )
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)

        def spawn(argv: list[str], **kw: Any) -> subprocess.Popen[Any]:
            p = subprocess.Popen(
                argv,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
                **kw,
            )
            procs.append(p)
            return p

        def xdo(*args: str) -> str:
            return subprocess.run(
                ["xdotool", *args], env=env, capture_output=True, text=True, timeout=30
            ).stdout.strip()

        try:
            spawn(["openbox", "--sm-disable"], stderr=subprocess.DEVNULL)
            time.sleep(1.0)
            spawn(["xterm", "-class", "BenchTerm", "-T", "bench"], stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 15
            wid = ""
            while not wid and time.monotonic() < deadline:
                wid = xdo("search", "--name", "^bench$").split("\n")[0]
                time.sleep(0.1)
            if not wid:
                raise RuntimeError("the xterm did not appear")
            xdo("windowactivate", "--sync", wid)
            log = open(tmp / "recorder.log", "wb")  # noqa: SIM115 - closed with the process
            rec = spawn(
                [sys.executable, "-m", "actframes.cli", "record", "run", "--db", str(tmp / "c.db")],
                stderr=log,
            )
            time.sleep(WARMUP_S)
            if rec.poll() is not None:
                raise RuntimeError(f"the recorder exited: {(tmp / 'recorder.log').read_text()}")
            sampler = _RssSampler(rec.pid)
            sampler.start()
            idle = _measure(rec.pid, seconds)

            stop = threading.Event()

            def typist() -> None:
                # xdotool waits half the delay after each press and half after each release.
                delay_ms = str(max(1, round(2000 / keys_per_second)))
                n = 0
                while not stop.is_set():
                    n += 1
                    if n % 5 == 0:  # a title change every ~5 s of typing
                        xdo("set_window", "--name", f"bench {n}", wid)
                    xdo("type", "--delay", delay_ms, "the quick brown fox jumps ")
                    # 26 keys at the delay: about 1.7 s per call at 15 keys a second

            typing_thread = threading.Thread(target=typist, daemon=True)
            typing_thread.start()
            time.sleep(1.0)
            typing = _measure(rec.pid, seconds)
            stop.set()
            typing_thread.join(10)
            sampler.halt.set()
            sampler.join(2)
            rec.send_signal(signal.SIGTERM)
            rec.wait(15)
            import sqlite3

            conn = sqlite3.connect(tmp / "c.db")
            keys = conn.execute(
                "SELECT coalesce(sum(count), 0) FROM input_events WHERE kind='key'"
            ).fetchone()[0]
            snaps = conn.execute("SELECT count(*) FROM snapshots").fetchone()[0]
            conn.close()
        finally:
            for p in reversed(procs):
                _kill(p)
            _kill(xvfb)
    return {
        "seconds_per_phase": seconds,
        "keys_per_second": keys_per_second,
        "idle_cpu_pct": round(idle, 3),
        "typing_cpu_pct": round(typing, 3),
        "max_rss_mb": round(sampler.max_kib * 1024 / 1e6, 1),
        "keys_recorded": int(keys),
        "snapshot_rows": int(snaps),
        "targets": TARGETS,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    ap.add_argument("--keys-per-second", type=float, default=15.0)
    args = ap.parse_args()
    result = run(args.seconds, args.keys_per_second)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    ok = True
    print(f"recorder resources ({args.seconds:.0f} s per phase, Xvfb + openbox + xterm)")
    for key, unit in (("idle_cpu_pct", "%"), ("typing_cpu_pct", "%"), ("max_rss_mb", "MB")):
        passed = result[key] <= TARGETS[key]
        ok &= passed
        verdict = "ok" if passed else "MISSED"
        print(f"  {key:15} {result[key]:8.2f} {unit:2}  target ≤ {TARGETS[key]:g}  {verdict}")
    print(
        f"  keys recorded while typing: {result['keys_recorded']}; "
        f"snapshot rows: {result['snapshot_rows']}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
