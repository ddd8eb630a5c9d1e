"""The HTML report as text: one bar per frame, the ledger as in the document, escaping,
no way to the network, and the same bytes for the same document anywhere."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path
from actframes.compile.pipeline import Options, compile_capture
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.emit.html import embed_json, to_html
from actframes.emit.html_layout import minutes
from actframes.model import Capture, Snapshot, Span
from actframes.window import day_window

from ..compile.caps import DAY, at, cap, compile_, ev, snap

HOSTILE_TITLE = '</script><script>window.__pwned=1</script><img src=x onerror="alert(1)">'
HOSTILE_APP = "<b>Evil & Co</b>"
HOSTILE_URL = "https://evil.example/<script>?q=\"'&x=\u2028\u2029"


# ---------------------------------------------------------------- reading the page back


class Page(HTMLParser):
    """Every element with its attributes and the text inside it, in document order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[dict[str, Any]] = []
        self._open: list[dict[str, Any]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(el)
        if tag not in ("meta", "link", "br", "img", "input"):
            self._open.append(el)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            if self._open.pop()["tag"] == tag:
                break

    def handle_data(self, data: str) -> None:
        for el in self._open:
            el["text"] += data

    def by_class(self, cls: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if cls in (e["attrs"].get("class") or "").split()]

    def tags(self, tag: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if e["tag"] == tag]


def embedded(html: str) -> Any:
    m = re.search(r'<script type="application/json" id="actframes-doc">(.*?)</script>', html, re.S)
    assert m, "the document is embedded"
    return json.loads(m.group(1))


# ---------------------------------------------------------------- documents


@pytest.fixture(scope="module")
def demo_doc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    db = tmp_path_factory.mktemp("demo") / "demo.db"
    build_demo_store(db)
    return compile_path(db, DEMO_DAY, DEMO_TZ)


def hostile_doc() -> dict[str, Any]:
    rows = [
        snap(1, 0, HOSTILE_APP, None, HOSTILE_TITLE),
        snap(2, 30, "Google Chrome", HOSTILE_URL, "a\u2028b\u2029c <!-- --> ]]>"),
        snap(3, 60, HOSTILE_APP, None, HOSTILE_TITLE),
        snap(4, 120, "Code", None, "plain"),
    ]
    return compile_(cap(rows, [ev(1, 5, "key", HOSTILE_APP)]))


# ---------------------------------------------------------------- tests


def test_minutes_are_tenths_rounded_half_up() -> None:
    assert [minutes(s) for s in (0, 2, 3, 59, 60, 89, 2637, 12803)] == [
        "0.0 min",
        "0.0 min",
        "0.1 min",  # 3 s = 0.05 min: half up
        "1.0 min",
        "1.0 min",
        "1.5 min",
        "44.0 min",  # 43.95
        "213.4 min",  # 213.383…
    ]


def test_one_bar_per_frame_with_the_documents_numbers(demo_doc: dict[str, Any]) -> None:
    page = Page(to_html(demo_doc))
    bars = page.by_class("bar")
    frames = demo_doc["frames"]
    assert len(frames) > 50 and len(bars) == len(frames)
    by_id = {b["attrs"]["data-id"]: b["attrs"] for b in bars}
    assert set(by_id) == {f["id"] for f in frames}
    for f in frames:
        a = by_id[f["id"]]
        assert int(a["data-active-s"]) == f["active_s"]
        assert int(a["data-wall-s"]) == f["wall_s"]
        assert (a["data-start"], a["data-end"]) == (f["start"], f["end"])
        assert a["data-app"] == f["app"] and a.get("data-site") == f.get("site")
        assert a["tabindex"] == "0" and a["aria-describedby"] == "detail"
        assert f"({f['active_s']} s)" in a["aria-label"]
        box = re.fullmatch(r"left:([\d.]+)%;width:([\d.]+)%", a["style"])
        assert box is not None
        left, width = float(box[1]), float(box[2])
        assert left >= 0 and left + width <= 100.0001
    # One interruption mark per interruption, on its frame's lane.
    marks = page.by_class("flick")
    assert len(marks) == sum(len(f["interruptions"]) for f in frames) > 0


def test_lanes_one_per_app_and_site(demo_doc: dict[str, Any]) -> None:
    page = Page(to_html(demo_doc))
    lanes = page.by_class("lane")
    keys = [(ln["attrs"]["data-app"], ln["attrs"].get("data-site")) for ln in lanes]
    assert (
        len(keys) == len(set(keys)) == len({(f["app"], f.get("site")) for f in demo_doc["frames"]})
    )
    # Browser lanes are split by site and sit together.
    chrome = [i for i, (app, _) in enumerate(keys) if app == "Google Chrome"]
    assert len(chrome) > 3 and chrome == list(range(chrome[0], chrome[-1] + 1))


def test_ledger_bars_match_the_document(demo_doc: dict[str, Any]) -> None:
    page = Page(to_html(demo_doc))
    rows = page.by_class("lrow")
    assert len(rows) == len(demo_doc["ledger"])
    for row, e in zip(rows, demo_doc["ledger"], strict=True):
        a = row["attrs"]
        assert (a["data-app"], a.get("data-site")) == (e["app"], e.get("site"))
        assert int(a["data-active-s"]) == e["active_s"]
        label = e["app"] + (f" · {e['site']}" if "site" in e else "")
        assert row["text"].startswith(label)
        assert f"{minutes(e['active_s'])}{e['active_s']} s" in row["text"]
    total = page.by_class("total")[0]["text"]
    assert f"({demo_doc['coverage']['active_s']} s)" in total


def test_gaps_and_away_are_shaded(demo_doc: dict[str, Any]) -> None:
    page = Page(to_html(demo_doc))
    cov = demo_doc["coverage"]
    gaps = [(g["attrs"]["data-start"], g["attrs"]["data-end"]) for g in page.by_class("gap")]
    away = [(g["attrs"]["data-start"], g["attrs"]["data-end"]) for g in page.by_class("away")]
    assert gaps == [(g["start"], g["end"]) for g in cov["gaps"]] and gaps
    assert away == [(g["start"], g["end"]) for g in cov["away"]] and away


def test_axis_labels_in_the_documents_zone(demo_doc: dict[str, Any]) -> None:
    page = Page(to_html(demo_doc))
    labels = [t["text"] for t in page.by_class("tick")]
    # Coverage is 08:48–18:27 Berlin time: whole hours around it.
    assert labels == [f"{h:02d}:00" for h in range(8, 20)]


def test_axis_across_a_dst_change() -> None:
    window = day_window("2026-03-29", "Europe/Berlin")  # 02:00 does not exist
    t = window.start_ms + 3600_000 * 1 - 1800_000  # 00:30 local
    rows = [Snapshot(i, t + i * 60_000, "Code", f"t{i}") for i in range(0, 200)]
    doc = compile_capture(Capture("test", rows, [], [], [], has_input=False), window, Options())
    labels = [t["text"] for t in Page(to_html(doc)).by_class("tick")]
    assert labels[:4] == ["00:00", "01:00", "03:00", "04:00"]


def test_embedded_document_is_the_document(demo_doc: dict[str, Any]) -> None:
    assert embedded(to_html(demo_doc)) == demo_doc


def test_same_document_same_bytes(demo_doc: dict[str, Any]) -> None:
    first = to_html(demo_doc)
    assert to_html(json.loads(json.dumps(demo_doc))) == first


def test_same_bytes_under_any_machine_zone_and_locale(
    demo_doc: dict[str, Any], tmp_path: Path
) -> None:
    src = tmp_path / "doc.json"
    src.write_text(json.dumps(demo_doc), encoding="utf-8")
    code = (
        "import json,sys; from actframes.emit.html import to_html;"
        "sys.stdout.buffer.write(to_html(json.load(open(sys.argv[1], encoding='utf-8')))"
        ".encode('utf-8'))"
    )
    outs = set()
    for tz, lang in (("Pacific/Chatham", "C"), ("America/Los_Angeles", "de_DE.UTF-8"), ("UTC", "")):
        env = {**os.environ, "TZ": tz, "LANG": lang, "LC_ALL": lang}
        run = subprocess.run(
            [sys.executable, "-c", code, str(src)], capture_output=True, env=env, timeout=60
        )
        assert run.returncode == 0, run.stderr
        outs.add(run.stdout)
    assert outs == {to_html(demo_doc).encode("utf-8")}


def test_hostile_text_is_escaped() -> None:
    doc = hostile_doc()
    html = to_html(doc)
    assert any(HOSTILE_TITLE in f["titles"] for f in doc["frames"])
    # Exactly our two script elements, and no element the titles tried to smuggle in.
    assert html.count("<script") == 2 and html.count("</script>") == 2
    page = Page(html)
    assert [e["tag"] for e in page.elements if e["tag"] in ("img", "b")] == []
    assert len(page.tags("script")) == 2
    # The text is all there, as text: in the table, the lanes and the embedded document.
    table = page.tags("table")[0]["text"]
    assert HOSTILE_TITLE in table and HOSTILE_APP in table
    assert embedded(html) == doc
    script = html.split('id="actframes-doc">', 1)[1].split("</script>", 1)[0]
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in script


def test_embed_json_escapes_what_could_end_a_script() -> None:
    text = embed_json({"t": "</script><!--\u2028\u2029&"})
    assert text == '{"t":"\\u003c/script\\u003e\\u003c!--\\u2028\\u2029\\u0026"}'
    assert json.loads(text) == {"t": "</script><!--\u2028\u2029&"}


def test_nothing_points_at_the_network(demo_doc: dict[str, Any]) -> None:
    html = to_html(demo_doc)
    page = Page(html)
    refs = [
        (e["tag"], k, v)
        for e in page.elements
        for k, v in e["attrs"].items()
        if k in ("src", "href", "action", "srcset", "poster", "data")
    ]
    assert refs == [("link", "href", "data:,"), ("a", "href", "#ledger")]
    assert "url(" not in html.split("<body>", 1)[0]  # no CSS resources either
    # The policy allows no fetch at all, and only our script, by its hash.
    csp = next(e for e in page.tags("meta") if e["attrs"].get("http-equiv"))["attrs"]["content"]
    assert "default-src 'none'" in csp
    script = page.tags("script")[-1]["text"]
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in csp


def test_hidden_frames_have_no_bars_and_are_disclosed() -> None:
    rows = [snap(1, 0, "Code"), snap(2, 20, "Slack"), snap(3, 600 + 30, "Code")]
    rows += [snap(4, 600 + 400, "Code")]
    doc = compile_(cap(rows), min_active_s=60)
    assert doc["omitted"]["frames"] >= 1
    page = Page(to_html(doc))
    assert len(page.by_class("bar")) == len(doc["frames"])
    assert len(page.by_class("lrow")) == len(doc["ledger"])  # the ledger never changes
    notes = next(e for e in page.elements if e["attrs"].get("id") == "notes")["text"]
    assert f"{doc['omitted']['frames']} frames" in notes


def test_an_empty_window() -> None:
    doc = compile_(cap([]))
    page = Page(to_html(doc))
    assert page.by_class("bar") == [] and page.by_class("lrow") == []
    assert page.by_class("empty")
    labels = [t["text"] for t in page.by_class("tick")]
    assert labels[0] == "00:00" and len(labels) == 25  # the whole day, both ends


def test_source_without_input_says_so() -> None:
    c = Capture(
        "activitywatch",
        [snap(1, 0, "Code", dur=30), snap(2, 30, "Slack", dur=30)],
        [],
        [Span(at(60), at(90))],
        [],
        has_input=False,
    )
    doc = compile_capture(c, DAY, Options())
    page = Page(to_html(doc))
    label = page.by_class("bar")[0]["attrs"]["aria-label"]
    assert "keys" not in label  # no zeros that look measured
    doc2 = compile_(cap([snap(1, 0, "Code"), snap(2, 30, "Slack")], [ev(1, 1, "key", "Code")]))
    label2 = Page(to_html(doc2)).by_class("bar")[0]["attrs"]["aria-label"]
    assert "1 keys, 0 clicks" in label2
    # A source that records input, on a day with none: its zeros are measured.
    doc3 = compile_(cap([snap(1, 0, "Code"), snap(2, 30, "Slack")], []))
    assert doc3["coverage"]["input_events"] == 0
    label3 = Page(to_html(doc3)).by_class("bar")[0]["attrs"]["aria-label"]
    assert "0 keys, 0 clicks" in label3


def test_script_tells_unmeasured_input_by_the_blind_spot() -> None:
    from actframes.compile.disclosures import NO_INPUT_SPOT
    from actframes.emit.html_assets import SCRIPT

    assert f"indexOf({json.dumps(NO_INPUT_SPOT)})" in SCRIPT
