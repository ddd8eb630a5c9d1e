"""A long-lived store (the MCP server's) on a running ActivityWatch server: there is no
file to watch, so every call asks the server again, and an answer is never a day the
server no longer holds."""

from __future__ import annotations

from actframes.api import open_store, to_json
from actframes.window import day_window

from . import scenarios as sc
from .server import AWServer


def test_a_resident_store_sees_what_the_server_gained(aw_server: AWServer) -> None:
    first = sc.ordinary("host-resident-a")
    aw_server.feed(first)
    window = day_window(first["day"], first["tz"])
    resident = open_store(aw_server.url, resident=True, disk_cache=False)
    try:
        before = resident.compile(window)
        assert to_json(resident.compile(window)) == to_json(before)  # unchanged: the same
        aw_server.feed(sc.ordinary("host-resident-b"))
        after = resident.compile(window)
        with open_store(aw_server.url, disk_cache=False) as fresh:
            want = fresh.compile(window)
    finally:
        resident.close()
    assert to_json(after) == to_json(want)
    assert [h["host"] for h in after.get("hosts", [])] == ["host-resident-a", "host-resident-b"]


def test_a_resident_store_on_the_servers_own_file_sees_a_new_bucket(aw_server: AWServer) -> None:
    """aw-server's ``peewee-sqlite.v2.db`` while the server writes it: a watcher's first
    report makes a bucket, which a store opened before it must read all the same."""
    first = sc.ordinary("host-peewee-a")
    aw_server.feed(first)
    window = day_window(first["day"], first["tz"])
    resident = open_store(aw_server.db_path, resident=True, disk_cache=False)
    try:
        before = to_json(resident.compile(window))
        aw_server.feed(sc.ordinary("host-peewee-b"))
        after = resident.compile(window)
        with open_store(aw_server.db_path, disk_cache=False) as fresh:
            want = fresh.compile(window)
    finally:
        resident.close()
    assert to_json(after) == to_json(want) != before
    assert "host-peewee-b" in [h["host"] for h in after.get("hosts", [])]
