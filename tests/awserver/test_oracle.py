"""ActivityWatch users get ActivityWatch's own numbers: a real aw-server, fed the way its
watchers feed it, answers its web UI's canonical query; the ledger compiled from its
export agrees per app and per domain within max(5 s, 0.5%), host by host."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from actframes.compile.pipeline import compile_capture
from actframes.compile.site import site_of
from actframes.sources import open_source
from actframes.window import day_window

from . import scenarios as sc
from .server import AWServer

BROWSERS = {sc.FIREFOX}


def ledgers_by_host(path: Path, day: str, tz: str, **kw: Any) -> dict[str, dict[str, Any]]:
    """Per host: seconds per app and per site, from the compiled document (its ``hosts``
    when the export holds several machines, else its ledger)."""
    window = day_window(day, tz)
    src = open_source(path, **kw)
    try:
        cap = src.read(window.start_ms, window.end_ms)
    finally:
        src.close()
    doc = compile_capture(cap, window)
    hosts = doc.get("hosts")
    if hosts is None:
        devices = {s.device for s in cap.snapshots if s.ts_ms < window.end_ms}
        hosts = [{"host": d, "ledger": doc["ledger"]} for d in devices]
    out: dict[str, dict[str, Any]] = {}
    for h in hosts:
        apps: dict[str, int] = {}
        sites: dict[str, int] = {}
        for e in h["ledger"]:
            apps[e["app"]] = apps.get(e["app"], 0) + e["active_s"]
            if e.get("site"):
                sites[e["site"]] = sites.get(e["site"], 0) + e["active_s"]
        out[h["host"]] = {"apps": apps, "domains": sites}
    return out


def assert_close(ours: dict[str, int], theirs: dict[str, float], what: str) -> None:
    names = set(ours) | {k for k, v in theirs.items() if v >= 0.5}
    for name in sorted(names):
        a, b = ours.get(name, 0), theirs.get(name, 0.0)
        tol = max(5.0, 0.005 * b)
        assert abs(a - b) <= tol, f"{what} {name!r}: ours {a} s, ActivityWatch {b:.1f} s"


def _domains(theirs: dict[str, float]) -> dict[str, float]:
    """Upstream's domains (aw-core's ``$domain``: the URL's network location without
    ``www.``, else its scheme; events without a URL have none and are left out), with the
    one difference we make on purpose: a port written although it is the web's default
    (``example.com:443``; browsers never report one) is not part of the place."""
    out: dict[str, float] = {}
    for d, v in theirs.items():
        if not d:
            continue
        d = d.lower()
        d = d.removesuffix(":443") if d.endswith(":443") else d.removesuffix(":80")
        out[d] = out.get(d, 0.0) + v
    return out


def aw_group(site: str) -> str:
    """The upstream domain that holds our site: ``about:blank`` → ``about``, ``file:`` →
    ``file``, ``view-source:github.com`` → ``view-source``, ``moz-extension://<id>`` →
    ``<id>``, ``::1`` → ``[::1]``; a host with or without its port is its own."""
    if "://" in site:
        return site.split("://", 1)[1]
    head, colon, tail = site.partition(":")
    if colon and (not tail or head in ("about", "view-source", "blob")):
        return head
    if site.count(":") >= 2 and not site.startswith("["):
        return f"[{site}]"
    return site


def by_aw_group(sites: dict[str, int]) -> dict[str, int]:
    """Our seconds per site, summed per upstream domain: our sites are never coarser than
    its domains (each lies within one), so equal sums mean nothing it keeps apart is one
    site here."""
    out: dict[str, int] = {}
    for site, s in sites.items():
        out[aw_group(site)] = out.get(aw_group(site), 0) + s
    return out


def check_day(
    server: AWServer, tmp: Path, scenario: dict[str, Any], day: str, *, audible: bool = True
) -> None:
    tz = scenario["tz"]
    export = server.export(tmp / "export.json")
    ours = ledgers_by_host(export, day, tz, audible_active=audible)
    start, end = sc.day_bounds(day, tz)
    compared = [0]
    for host in scenario["hosts"]:
        theirs = server.oracle(start, end, host, audible=audible)
        mine = ours.get(host, {"apps": {}, "domains": {}})
        assert_close(mine["apps"], theirs["apps"], f"{day} {host} app")
        ours_d, theirs_d = by_aw_group(mine["domains"]), _domains(theirs["domains"])
        assert_close(ours_d, theirs_d, f"{day} {host} domain")
        compared[0] += len(mine["apps"]) + len(mine["domains"])
    assert compared[0] > 0, f"{day}: nothing compared"


CASES: list[tuple[str, Callable[[str], dict[str, Any]]]] = [
    ("ordinary", sc.ordinary),
    ("dst-spring", sc.dst_spring),
    ("dst-autumn", sc.dst_autumn),
    ("across-midnight", sc.across_midnight),
    ("overlapping", sc.overlapping),
    ("video", sc.video_with_sound),
    ("no-afk", sc.no_afk_bucket),
    ("places", sc.places),
]


@pytest.mark.parametrize(("name", "make"), CASES, ids=[c[0] for c in CASES])
def test_ledger_matches_activitywatch(
    aw_server: AWServer, tmp_path: Path, name: str, make: Callable[[str], dict[str, Any]]
) -> None:
    scenario = make(f"host-{name}")
    aw_server.feed(scenario)
    check_day(aw_server, tmp_path, scenario, scenario["day"])
    if "next_day" in scenario:
        check_day(aw_server, tmp_path, scenario, scenario["next_day"])


def test_places_are_their_own_sites_as_activitywatch_files_them(
    aw_server: AWServer, tmp_path: Path
) -> None:
    """Ports, the browser's own pages, an extension, a local file, a page's source: each
    is a site of its own, named as its user knows it, and within one of the domains the
    server's query gives (the seconds agree per domain, in the ``places`` case above)."""
    scenario = sc.places("host-places")
    aw_server.feed(scenario)
    day, tz = scenario["day"], scenario["tz"]
    ours = ledgers_by_host(aw_server.export(tmp_path / "export.json"), day, tz)["host-places"]
    extension = "moz-extension://3f2b9c1e-0a4d-4e7b-9c55-1d2e3f405162"
    named = {"localhost:5600", "localhost:8501", "localhost", "example.com", "x.org:8443"}
    named |= {"[::1]:8080", "about:newtab", "about:blank", "about:preferences", "file:"}
    named |= {extension, "view-source:github.com", "data:"}
    assert set(ours["domains"]) == named == {site_of(url) for url, _ in sc.PLACES}
    theirs = _domains(aw_server.oracle(*sc.day_bounds(day, tz), "host-places")["domains"])
    assert set(by_aw_group(ours["domains"])) == set(theirs)
    assert {"about", "file", "view-source", "data", extension[16:]} <= set(theirs)


def test_audible_tabs_not_active_when_turned_off(aw_server: AWServer, tmp_path: Path) -> None:
    scenario = sc.video_with_sound("host-video")
    aw_server.feed(scenario)
    check_day(aw_server, tmp_path, scenario, scenario["day"], audible=False)
    day = ledgers_by_host(tmp_path / "export.json", scenario["day"], scenario["tz"])
    quiet = ledgers_by_host(
        tmp_path / "export.json", scenario["day"], scenario["tz"], audible_active=False
    )
    # The 15 minutes of video with sound and no input: counted by default, not when off.
    loud_s = day["host-video"]["apps"]["Firefox"]
    quiet_s = quiet["host-video"]["apps"].get("Firefox", 0)
    assert loud_s - quiet_s >= 900 - 180 - 5


def test_two_hosts_each_on_their_own_rules(aw_server: AWServer, tmp_path: Path) -> None:
    scenario = sc.two_hosts("laptop", "desk")
    aw_server.feed(scenario)
    check_day(aw_server, tmp_path, scenario, scenario["day"])


MHACKS = (
    Path(__file__).resolve().parents[3]
    / "shared"
    / "corpora"
    / "activitywatch-mhacks-2023"
    / "aw-buckets-export.json"
)


def test_a_real_export_imported_into_the_server(aw_server: AWServer, tmp_path: Path) -> None:
    """A real person's ActivityWatch export, imported into the server: every day of it
    agrees with the server's own canonical query."""
    if not MHACKS.exists():
        pytest.skip(f"corpus not present: {MHACKS}")
    aw_server.import_export(MHACKS)
    tz = "America/Detroit"
    for day in ("2023-11-18", "2023-11-19"):
        ours = ledgers_by_host(MHACKS, day, tz)
        start, end = sc.day_bounds(day, tz)
        theirs = aw_server.oracle(start, end, "LAPTOP-MCRJASPH")
        mine = ours["LAPTOP-MCRJASPH"]
        assert_close(mine["apps"], theirs["apps"], f"{day} app")
        assert_close(by_aw_group(mine["domains"]), _domains(theirs["domains"]), f"{day} domain")
        total = sum(mine["apps"].values())
        assert abs(total - theirs["duration"]) <= max(5.0, 0.005 * theirs["duration"])
        assert total > 1800  # a real day's worth was compared


def test_export_rest_and_the_servers_sqlite_give_one_ledger(
    aw_server: AWServer, tmp_path: Path
) -> None:
    """The same day read three ways — the export, the running server's REST API and the
    server's own SQLite file (peewee) — compiles to the same ledger, per host."""
    scenario = sc.two_hosts("laptop", "desk")
    aw_server.feed(scenario)
    day, tz = scenario["day"], scenario["tz"]
    export = ledgers_by_host(aw_server.export(tmp_path / "export.json"), day, tz)
    rest = ledgers_by_host(Path(aw_server.url), day, tz)
    assert aw_server.db_path.exists()
    before = aw_server.db_path.read_bytes()
    peewee = ledgers_by_host(aw_server.db_path, day, tz)
    assert aw_server.db_path.read_bytes() == before  # opened read-only, never changed
    assert export == rest == peewee
    assert export["laptop"]["apps"] and export["desk"]["apps"]


def test_the_mcp_server_reads_a_running_server(aw_server: AWServer, tmp_path: Path) -> None:
    """`actframes mcp --db http://127.0.0.1:PORT`, through the SDK's own client over stdio,
    gives the day the export gives."""
    import asyncio
    import json
    import sys

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    scenario = sc.ordinary("host-ordinary")
    aw_server.feed(scenario)
    day, tz = scenario["day"], scenario["tz"]
    args = ["-m", "actframes.cli", "mcp", "--db", aw_server.url, "--tz", tz]

    async def main() -> Any:
        server = StdioServerParameters(command=sys.executable, args=args)
        async with Client(server, read_timeout_seconds=120) as client:
            return await client.call_tool("get_activity", {"day": day})

    result = asyncio.run(main())
    texts = [c.text for c in result.content]
    assert not result.is_error, texts
    doc = json.loads(texts[-1].split("\n\n", 1)[1])  # after the notice
    src = open_source(aw_server.export(tmp_path / "export.json"))
    try:
        want = compile_capture(src.read(*_bounds(day, tz)), day_window(day, tz))
    finally:
        src.close()
    assert doc["ledger"] == want["ledger"] and doc["ledger"]


def _bounds(day: str, tz: str) -> tuple[int, int]:
    w = day_window(day, tz)
    return w.start_ms, w.end_ms


def test_day_start_keeps_a_late_evening_in_its_day(aw_server: AWServer, tmp_path: Path) -> None:
    """`--day-start 04:00` (ActivityWatch's own default): work from 23:15 to 00:45 is one
    day, and agrees with the server's query over [04:00, next 04:00)."""
    import json

    from tests.builders import run_cli

    scenario = sc.across_midnight("host-across-midnight")
    aw_server.feed(scenario)
    day, tz = scenario["day"], scenario["tz"]
    export = aw_server.export(tmp_path / "export.json")
    res = run_cli("day", day, "--db", str(export), "--tz", tz, "--day-start", "04:00", "--no-cache")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["window"]["start"] == f"{day}T04:00:00-04:00"
    hosts = {h["host"]: h["ledger"] for h in doc.get("hosts", [])}
    ledger = hosts.get("host-across-midnight", doc["ledger"])  # alone that day: the whole ledger
    mine: dict[str, int] = {}
    for e in ledger:
        mine[e["app"]] = mine.get(e["app"], 0) + e["active_s"]
    start, end = sc.day_bounds(day, tz)
    theirs = aw_server.oracle(
        start.replace("T00:00", "T04:00"), end.replace("T00:00", "T04:00"), "host-across-midnight"
    )
    assert_close(mine, theirs["apps"], f"{day} from 04:00")
    assert sum(mine.values()) > 45 * 60  # the whole evening, both sides of midnight


def test_sources_finds_the_server_and_its_database(aw_server: AWServer, tmp_path: Path) -> None:
    """`actframes sources` lists a running server and aw-server's own SQLite file (copied to
    where aw-server keeps it on Linux), with the dates they hold."""
    import shutil

    from tests.builders import cli_env, run_cli

    scenario = sc.ordinary("host-ordinary")
    aw_server.feed(scenario)
    home = tmp_path / "home"
    place = home / ".local/share/activitywatch/aw-server/peewee-sqlite.v2.db"
    place.parent.mkdir(parents=True)
    shutil.copyfile(aw_server.db_path, place)
    env = cli_env(HOME=str(home), ACTFRAMES_AW_SERVER=aw_server.url)
    env.pop("XDG_DATA_HOME", None)
    res = run_cli("sources", "--tz", "UTC", env=env)
    assert res.returncode == 0, res.stderr
    rows = [line.split() for line in res.stdout.splitlines()[1:]]
    assert rows[0][:2] == ["activitywatch", "aw-server"] and rows[0][-1] == str(place)
    first, last = rows[0][4], rows[0][5]  # (the size is two cells: "376.8 kB")
    assert first <= scenario["day"] <= last
    assert rows[1][:3] == ["activitywatch", "ActivityWatch", "server"]
    assert rows[1][-1] == aw_server.url
    # Two found, none of our own: a one-line request to choose.
    res = run_cli("apps", "--tz", "UTC", env=env)
    assert res.returncode == 2 and "several capture stores found" in res.stderr
