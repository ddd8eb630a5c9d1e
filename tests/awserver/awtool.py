"""Run by the ActivityWatch virtualenv's Python (aw-client, aw-core), never imported by
the tests: feeds a running aw-server the way its watchers do, and asks it the web UI's
canonical query.

    python awtool.py feed  PORT SCENARIO.json
    python awtool.py query PORT START END HOST [--no-audible]   (prints JSON)
    python awtool.py categories PORT START END HOST CLASSES.json [--no-audible]
    python awtool.py pick CASES.json   (aw-core's own ``categorize``, no server)

A scenario is one machine per host: its ``on`` spans (watchers running), ``focus``
spans (app, title), ``input`` spans (the person using keyboard or mouse) and ``tabs``
spans (the browser's active tab: url, title, audible). Times are integer ms since the
epoch; heartbeats carry them, so a day is sent in seconds, not a day.
"""

from __future__ import annotations

import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta

from aw_client import ActivityWatchClient
from aw_core.models import Event

WINDOW_PULSETIME = 2.0  # aw-watcher-window: poll 1 s, pulsetime poll + 1 s
AFK_TIMEOUT_S = 180  # aw-watcher-afk defaults
AFK_POLL_S = 5
WEB_PERIOD_S = 60  # aw-watcher-web: an alarm every minute, pulsetime period + 1 s


def _dt(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def _at(spans: list[list], t: int) -> list | None:
    for span in spans:
        if span[0] <= t < span[1]:
            return span
    return None


def _client(port: int, host: str) -> ActivityWatchClient:
    client = ActivityWatchClient(f"awtool-{host}", testing=True, host="127.0.0.1", port=port)
    client.client_hostname = host  # the bucket's hostname: one scenario, several machines
    return client


def _drain(client: ActivityWatchClient) -> None:
    queue = client.request_queue
    deadline = time.monotonic() + 600
    while queue._persistqueue.qsize() or queue._current is not None:
        if time.monotonic() > deadline:
            raise SystemExit("aw-client queue did not drain")
        time.sleep(0.05)


def feed_host(port: int, host: str, spec: dict) -> None:
    rng = random.Random(spec.get("seed", 0))
    client = _client(port, host)
    bw, ba = f"aw-watcher-window_{host}", f"aw-watcher-afk_{host}"
    bweb = f"aw-watcher-web-{spec.get('browser', 'firefox')}_{host}"
    client.create_bucket(bw, "currentwindow", queued=False)
    if spec.get("afk", True):
        client.create_bucket(ba, "afkstatus", queued=False)
    if spec.get("tabs"):
        client.create_bucket(bweb, "web.tab.current", queued=False)
    client.connect()
    focus, inputs, tabs = spec["focus"], spec.get("input", []), spec.get("tabs", [])
    for on_start, on_end in spec["on"]:
        # Window watcher: a poll about every second (a little late, as real polls are).
        t = on_start
        while t < on_end:
            span = _at(focus, t)
            if span is not None:
                data = {"app": span[2], "title": span[3]}
                # A stepped clock (NTP) shifts what the watcher stamps, not when it polls.
                shift = sum(d for when, d in spec.get("clock_steps", []) if t >= when)
                ev = Event(timestamp=_dt(t + shift), duration=0, data=data)
                client.heartbeat(bw, ev, pulsetime=WINDOW_PULSETIME, queued=True)
            t += 1000 + rng.randrange(0, 60)
        if spec.get("afk", True):
            _feed_afk(client, ba, inputs, on_start, on_end)
        if tabs:
            _feed_web(client, bweb, tabs, on_start, on_end)
    _drain(client)
    # What the pre-merge still holds is sent too (a watcher stopping cleanly).
    for bucket, ev in list(client.last_heartbeat.items()):
        pulse = WINDOW_PULSETIME if bucket == bw else AFK_TIMEOUT_S + AFK_POLL_S
        client.heartbeat(bucket, ev, pulsetime=pulse, queued=False)
    client.disconnect()


def _feed_afk(client: ActivityWatchClient, bucket: str, inputs: list, lo: int, hi: int) -> None:
    """aw-watcher-afk's loop: every poll, time since the last input decides the state;
    a change is sent twice (the old state up to the last input, the new one 1 ms later)."""
    pulse = AFK_TIMEOUT_S + AFK_POLL_S
    afk = False

    def ping(is_afk: bool, ts: int, dur_ms: int = 0) -> None:
        data = {"status": "afk" if is_afk else "not-afk"}
        ev = Event(timestamp=_dt(ts), duration=timedelta(milliseconds=dur_ms), data=data)
        client.heartbeat(bucket, ev, pulsetime=pulse, queued=True)

    t = lo
    while t < hi:
        last_input = max((min(e, t) for s, e in inputs if s <= t), default=lo)
        last_input = max(last_input, lo)
        since = t - last_input
        if afk and since < AFK_TIMEOUT_S * 1000:
            ping(True, last_input)
            afk = False
            ping(False, last_input + 1)
        elif not afk and since >= AFK_TIMEOUT_S * 1000:
            ping(False, last_input)
            afk = True
            ping(True, last_input + 1, since)
        elif afk:
            ping(True, last_input, since)
        else:
            ping(False, last_input)
        t += AFK_POLL_S * 1000


def _feed_web(client: ActivityWatchClient, bucket: str, tabs: list, lo: int, hi: int) -> None:
    """aw-watcher-web: a heartbeat when the active tab changes and every minute."""
    last: list | None = None
    next_alarm = lo
    t = lo
    while t < hi:
        tab = _at(tabs, t)
        if tab is not None and (tab is not last or t >= next_alarm):
            data = {
                "url": tab[2],
                "title": tab[3],
                "audible": bool(tab[4]),
                "incognito": False,
                "tabCount": 3,
            }
            ev = Event(timestamp=_dt(t), duration=0, data=data)
            client.heartbeat(bucket, ev, pulsetime=WEB_PERIOD_S + 1, queued=False)
            next_alarm = t + WEB_PERIOD_S * 1000
        last = tab
        t += 1000


def canonical_query(host: str, web_buckets: list[str], audible: bool, has_afk: bool) -> str:
    """aw-webui's canonicalEvents + fullDesktopQuery (src/queries.ts) for one host, with
    the browser events also cut to not-AFK time so domains compare with app time."""
    lines = canonical_events(host, web_buckets, audible, has_afk)
    lines += [
        'app_events = merge_events_by_keys(events, ["app"]);',
        'domains = merge_events_by_keys(split_url_events(browser_events), ["$domain"]);',
        'RETURN = {"apps": app_events, "domains": domains, "duration": sum_durations(events)};',
    ]
    return "".join(lines)


def canonical_events(host: str, web_buckets: list[str], audible: bool, has_afk: bool) -> list[str]:
    """The statements of the canonical query that leave the host's window events, cut to
    its not-AFK time, in ``events`` (and its browser events in ``browser_events``)."""
    lines = [f'events = flood(query_bucket("aw-watcher-window_{host}"));']
    if has_afk:
        lines += [
            f'not_afk = flood(query_bucket("aw-watcher-afk_{host}"));',
            'not_afk = filter_keyvals(not_afk, "status", ["not-afk"]);',
        ]
    lines.append("browser_events = [];")
    for bucket in web_buckets:
        name = "firefox" if "firefox" in bucket else "chrome"
        exact = {"firefox": '["org.mozilla.firefox"]', "chrome": '["com.google.Chrome"]'}[name]
        pattern = {
            "firefox": "(?i)(firefox|librewolf|waterfox|nightly)",
            "chrome": "(?i)^(google[-_ ]?chrome|chrome|chromium)",
        }[name]
        lines += [
            f'events_{name} = flood(query_bucket("{bucket}"));',
            f'window_{name} = filter_keyvals(events, "app", {exact});',
            f'window_{name}_re = filter_keyvals_regex(events, "app", "{pattern}");',
            f"window_{name} = sort_by_timestamp(concat(window_{name}, window_{name}_re));",
            f"events_{name} = filter_period_intersect(events_{name}, window_{name});",
            f"events_{name} = split_url_events(events_{name});",
            f"browser_events = sort_by_timestamp(concat(browser_events, events_{name}));",
        ]
    if has_afk:
        if audible:
            lines += [
                # period_union clears the data of the events it is given, in place:
                # cut copies, so browser_events keep their URLs for the domain totals.
                'audible_events = filter_keyvals(browser_events, "audible", [true]);',
                "audible_events = filter_period_intersect(audible_events, browser_events);",
                "not_afk = period_union(not_afk, audible_events);",
            ]
        lines += [
            "events = filter_period_intersect(events, not_afk);",
            "browser_events = filter_period_intersect(browser_events, not_afk);",
        ]
    return lines


def query(port: int, start: str, end: str, host: str, audible: bool) -> dict:
    client = ActivityWatchClient("awtool-query", testing=True, host="127.0.0.1", port=port)
    buckets = client.get_buckets()
    webs = {b: m["hostname"] for b, m in buckets.items() if m["type"] == "web.tab.current"}
    # The web UI's bucketsBrowser: the host's own web buckets, else an unknown host's.
    web = sorted(b for b, h in webs.items() if h == host)
    web = web or sorted(b for b, h in webs.items() if h in ("unknown", ""))
    has_afk = f"aw-watcher-afk_{host}" in buckets
    q = canonical_query(host, web, audible, has_afk)
    period = (datetime.fromisoformat(start), datetime.fromisoformat(end))
    (res,) = client.query(q, [period])
    return {
        "apps": {e["data"]["app"]: e["duration"] for e in res["apps"]},
        "domains": {e["data"].get("$domain", ""): e["duration"] for e in res["domains"]},
        "duration": res["duration"],
    }


def web_ui_classes(classes: list) -> str:
    """``[[name, rule], ...]`` as the web UI writes them into a query (src/queries.ts:
    ``JSON.stringify(categories).replace(/\\\\/g, '\\')``): the query language takes a
    string's backslashes literally, so JSON's doubled ones are made single again."""
    return json.dumps(classes, ensure_ascii=False).replace("\\\\", "\\")


def categories(port: int, start: str, end: str, host: str, path: str, audible: bool) -> dict:
    """The web UI's category totals (fullDesktopQuery's ``cat_events``): seconds per
    category, its levels joined with " > "."""
    with open(path, encoding="utf-8") as fh:
        classes = json.load(fh)
    client = ActivityWatchClient("awtool-query", testing=True, host="127.0.0.1", port=port)
    buckets = client.get_buckets()
    webs = {b: m["hostname"] for b, m in buckets.items() if m["type"] == "web.tab.current"}
    web = sorted(b for b, h in webs.items() if h == host)
    web = web or sorted(b for b, h in webs.items() if h in ("unknown", ""))
    lines = canonical_events(host, web, audible, f"aw-watcher-afk_{host}" in buckets)
    lines += [
        f"events = categorize(events, {web_ui_classes(classes)});",
        'cat_events = sort_by_duration(merge_events_by_keys(events, ["$category"]));',
        "RETURN = cat_events;",
    ]
    period = (datetime.fromisoformat(start), datetime.fromisoformat(end))
    (res,) = client.query("".join(lines), [period])
    return {" > ".join(e["data"]["$category"]): e["duration"] for e in res}


def pick(path: str) -> list[list[str]]:
    """aw-core's ``categorize`` of one window event per ``[app, title]`` case."""
    from aw_transform import Rule, categorize

    with open(path, encoding="utf-8") as fh:
        spec = json.load(fh)
    rules = [(name, Rule(rule)) for name, rule in spec["classes"]]
    now = datetime(2026, 1, 1, tzinfo=UTC)
    events = [
        Event(timestamp=now, duration=1, data={"app": app, "title": title})
        for app, title in spec["cases"]
    ]
    return [e.data["$category"] for e in categorize(events, rules)]


def main(argv: list[str]) -> None:
    if argv[0] == "feed":
        with open(argv[2], encoding="utf-8") as fh:
            scenario = json.load(fh)
        for host, spec in sorted(scenario["hosts"].items()):
            feed_host(int(argv[1]), host, spec)
    elif argv[0] == "query":
        out = query(int(argv[1]), argv[2], argv[3], argv[4], "--no-audible" not in argv)
        print(json.dumps(out, sort_keys=True))
    elif argv[0] == "categories":
        audible = "--no-audible" not in argv
        out = categories(int(argv[1]), argv[2], argv[3], argv[4], argv[5], audible)
        print(json.dumps(out, sort_keys=True, ensure_ascii=False))
    elif argv[0] == "pick":
        print(json.dumps(pick(argv[1]), ensure_ascii=False))
    else:
        raise SystemExit(f"unknown command {argv[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
