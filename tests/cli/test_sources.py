"""``actframes sources``: stores in their default places, and the automatic pick."""

from __future__ import annotations

import json
from pathlib import Path

from actframes.sources.discover import default_places

from ..builders import cli_env, run_cli, screenpipe_db
from ..sources.test_activitywatch import bucket, ev, export_to_sqlite, write_export

T0 = 1_700_000_000_000  # 2023-11-14T22:13:20Z


def _home(tmp: Path) -> Path:
    home = tmp / "home"
    home.mkdir()
    return home


def _env(home: Path) -> dict[str, str]:
    # No XDG_DATA_HOME: the default ~/.local/share; no server probed.
    env = cli_env(HOME=str(home), ACTFRAMES_AW_SERVER="off")
    env.pop("XDG_DATA_HOME", None)
    return env


def _aw_rust(home: Path, tmp: Path) -> Path:
    export = write_export(
        tmp / "e.json",
        bucket("aw-watcher-window_h", "currentwindow", "h", [ev(T0, 60, app="Code", title="x")]),
    )
    db = home / ".local" / "share" / "activitywatch" / "aw-server-rust" / "sqlite.db"
    db.parent.mkdir(parents=True)
    doc = json.loads(export.read_text())
    doc["buckets"]["aw-watcher-window_h"]["created"] = "2023-11-14T00:00:00Z"
    export.write_text(json.dumps(doc))
    return export_to_sqlite(export, db)


def test_default_places_per_platform(tmp_path: Path) -> None:
    home = tmp_path
    linux = dict(default_places({}, "linux", home))
    assert linux["aw-server-rust"] == home / ".local/share/activitywatch/aw-server-rust/sqlite.db"
    assert linux["aw-server"] == home / ".local/share/activitywatch/aw-server/peewee-sqlite.v2.db"
    assert linux["screenpipe"] == home / ".screenpipe/db.sqlite"
    mac = dict(default_places({}, "darwin", home))
    support = home / "Library/Application Support/activitywatch"
    assert mac["aw-server-rust"] == support / "aw-server-rust/sqlite.db"
    win = dict(default_places({"APPDATA": "R", "LOCALAPPDATA": "L"}, "win32", home))
    assert win["aw-server-rust"] == Path("R/activitywatch/aw-server-rust/sqlite.db")
    assert win["aw-server"] == Path("L/activitywatch/activitywatch/aw-server/peewee-sqlite.v2.db")


def test_sources_lists_what_it_finds_and_one_is_used(tmp_path: Path) -> None:
    home = _home(tmp_path)
    env = _env(home)
    empty = run_cli("sources", env=env)
    assert empty.returncode == 0 and "no capture store found" in empty.stdout

    db = _aw_rust(home, tmp_path)
    listed = run_cli("sources", "--tz", "UTC", env=env)
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["FAMILY", "STORE", "SIZE", "FROM", "TO", "SCHEMA", "WHERE"]
    assert lines[1].split()[:2] == ["activitywatch", "aw-server-rust"]
    assert "2023-11-14" in lines[1] and str(db) in lines[1]

    # No --db, no ACTFRAMES_DB, no store of our own: the one found is used, and named.
    apps = run_cli("apps", "2023-11-14", "--tz", "UTC", env=env)
    assert apps.returncode == 0, apps.stderr
    assert apps.stderr == f"actframes: reading aw-server-rust at {db}\n"
    assert "Code" in apps.stdout


def test_several_stores_need_a_choice(tmp_path: Path) -> None:
    home = _home(tmp_path)
    env = _env(home)
    _aw_rust(home, tmp_path)
    sp = home / ".screenpipe" / "db.sqlite"
    sp.parent.mkdir()
    screenpipe_db(sp, [(1, "2026-03-10T09:00:00Z", "Code", "a", None, "m")])
    res = run_cli("apps", "2026-03-10", "--tz", "UTC", env=env)
    assert res.returncode != 0
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert "several capture stores found" in res.stderr
    assert "screenpipe" in res.stderr and "aw-server-rust" in res.stderr
    listed = run_cli("sources", "--tz", "UTC", env=env)
    families = [line.split()[0] for line in listed.stdout.splitlines()[1:]]
    assert families == ["screenpipe", "activitywatch"]
