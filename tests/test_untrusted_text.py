"""Text from the screen cannot break or trick the output: lone surrogates, joiners,
bidirectional controls, escape sequences, impossible durations and huge fields, through
the real CLI; and a property test over any Unicode string as a title or URL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actframes.bench.oracle_store import load_store
from actframes.compile.pipeline import compile_capture
from actframes.emit.context import to_context
from actframes.emit.html import to_html
from actframes.emit.json_out import to_json
from actframes.emit.markdown import to_markdown
from actframes.emit.token_count import LONG_RUN_CHARS, count_tokens
from actframes.emit.yaml_out import to_yaml
from actframes.model import Capture, Snapshot
from actframes.text import MAX_NAME_CHARS, clean_name

from .builders import run_cli_bytes, screenpipe_db, sha256

DAY = "2026-03-10"
FORMATS = ("json", "yaml", "md", "context", "html")
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def aw_export(path: Path, titles: list[str], *, raw: dict[int, str] | None = None) -> Path:
    """An ActivityWatch export (the shape aw-server's export writes) with one window event a
    minute; ``raw`` replaces a title by JSON text written as is (e.g. a lone ``\\ud800``)."""
    events = [
        {
            "id": i + 1,
            "timestamp": f"2026-03-10T09:{i:02d}:00+00:00",
            "duration": 60.0,
            "data": {"app": "Code", "title": f"@@{i}@@" if raw and i in raw else t},
        }
        for i, t in enumerate(titles)
    ]
    bucket = {
        "id": "aw-watcher-window_host",
        "type": "currentwindow",
        "client": "aw-watcher-window",
        "hostname": "host",
        "created": "2026-03-10T00:00:00+00:00",
        "events": events[::-1],  # newest first, as exported
    }
    text = json.dumps({"buckets": {bucket["id"]: bucket}})
    for i, value in (raw or {}).items():
        text = text.replace(f"@@{i}@@", value)
    path.write_text(text, encoding="utf-8")
    return path


def outputs(db: Path) -> dict[str, str]:
    """Every format of the day, each checked: exit 0, no error, strict UTF-8."""
    before = sha256(db)
    out = {}
    for fmt in FORMATS:
        proc = run_cli_bytes("day", DAY, "--db", str(db), "--tz", "UTC", "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        # Nothing on stderr but, when rows were rejected, the one-line warning saying so.
        warning = proc.stderr.decode("utf-8")
        assert warning == "" or (
            warning.startswith("actframes: warning: ") and warning.count("\n") == 1
        ), warning
        out[fmt] = proc.stdout.decode("utf-8")  # strict: raises on anything not UTF-8
    assert sha256(db) == before
    return out


def test_lone_surrogate_is_replaced_and_counted(tmp_path: Path) -> None:
    db = aw_export(tmp_path / "aw.json", ["x", "main.py", "end"], raw={0: "main\\ud800.py"})
    assert (
        "\ud800"
        in json.loads(db.read_text())["buckets"]["aw-watcher-window_host"]["events"][-1]["data"][
            "title"
        ]
    )  # valid JSON holding a lone surrogate
    out = outputs(db)
    doc = json.loads(out["json"])
    assert doc["frames"][0]["titles"][0] == "main\ufffd.py"
    (note,) = [b for b in doc["blind_spots"] if "U+FFFD" in b]
    assert note.startswith("1 text value(s)")
    assert all("main\ufffd.py" in text for fmt, text in out.items() if fmt != "html")


def test_joiners_are_kept(tmp_path: Path) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji: man ZWJ woman ZWJ girl
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # "mi-khaham", with ZWNJ
    db = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", "Code", f"{family} family"),
            (2, "2026-03-10T09:00:30Z", "Code", persian),
            (3, "2026-03-10T09:01:00Z", "Code", "end"),
        ],
    )
    out = outputs(db)
    assert json.loads(out["json"])["frames"][0]["titles"][:2] == [f"{family} family", persian]
    for fmt in ("context", "yaml"):
        assert family in out[fmt] and persian in out[fmt], fmt
    assert family in out["md"] and family in out["html"]  # (they show a frame's first title)


def test_bidi_controls_are_neutralised_everywhere(tmp_path: Path) -> None:
    # "invoice_\u202efdp.exe" reads as "invoice_exe.pdf" where the override is honoured.
    spoof = "invoice_\u202efdp.exe"
    db = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", "Files\u2067\u2069", spoof),
            (2, "2026-03-10T09:00:30Z", "Files", "a\u202ab\u202bc\u202cd\u202de\u2066f\u2068g"),
            (3, "2026-03-10T09:01:00Z", "Google Chrome", "t", "https://ex.org/\u202epath"),
            (4, "2026-03-10T09:01:30Z", "Files", "end"),
        ],
    )
    out = outputs(db)
    for fmt, text in out.items():
        assert not any(c in text for c in BIDI), fmt
    titles = json.loads(out["json"])["frames"][0]["titles"]
    assert titles[:2] == ["invoice_fdp.exe", "abcdefg"]  # stored order, shown as stored


def test_escape_sequences_are_removed_whole(tmp_path: Path) -> None:
    db = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", "xterm", "\x1b[31mRED\x1b[0m plain \x1b[1;32mGREEN"),
            (2, "2026-03-10T09:00:30Z", "xterm", "\x1b]0;set title\x07vim \x9b2Jcleared"),
            (3, "2026-03-10T09:01:00Z", "xterm", "end"),
        ],
    )
    out = outputs(db)
    titles = json.loads(out["json"])["frames"][0]["titles"]
    assert titles[:2] == ["RED plain GREEN", "vim cleared"]
    for fmt, text in out.items():
        assert "\x1b" not in text and "[31m" not in text and "[0m" not in text, fmt


def test_clean_name_keeps_ordinary_text() -> None:
    for text in ("Réunion – planning", "日本語のタイトル", "a [31m b", "ESC key"):
        assert clean_name(text) == text


def test_duration_1e308_is_a_rejected_row(tmp_path: Path) -> None:
    db = aw_export(tmp_path / "aw.json", ["a", "b", "c"], raw={})
    doc_text = db.read_text().replace('"duration": 60.0', '"duration": 1e308', 1)
    db.write_text(doc_text, encoding="utf-8")
    doc = json.loads(outputs(db)["json"])
    (rej,) = doc["rejected_rows"]
    assert rej["reason"] == "bad duration: ends after 2099" and rej["count"] == 1
    assert doc["coverage"]["rows"] == 2
    # The benchmark's oracle skips it too (it crashed with OverflowError).
    store = load_store(db)
    assert len(store.rows) == 2
    proc = run_cli_bytes(
        "bench", "qa", "--db", str(db), "--tz", "UTC", "--out", str(tmp_path / "qa"), "--quiet"
    )
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    # ... and `bench suite --aw` does with an export what `bench qa` does, then renders
    # the busiest day for its token table: that too.
    from actframes.bench.report import Dataset, QAConfig, run_qa
    from actframes.bench.tokens_report import measure, render_day

    results = run_qa([Dataset("aw", db, "UTC")], QAConfig())
    assert [d["day"] for d in results["days"]] == [DAY]
    assert measure(render_day(db, DAY, "UTC"))["tokens"]["context"] > 0


def test_every_field_is_bounded_and_the_cut_disclosed(tmp_path: Path) -> None:
    huge = "A" * 200_000
    db = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", huge, "t"),
            (2, "2026-03-10T09:00:30Z", "Google Chrome", "t", f"https://{'b' * 200_000}.org/"),
            (3, "2026-03-10T09:01:00Z", "Code", "x" * 200_000),
            (4, "2026-03-10T09:01:30Z", "Code", "end"),
        ],
    )
    out = outputs(db)  # the context block too, which ran for minutes
    doc = json.loads(out["json"])
    for fmt, text in out.items():
        assert len(text) < 150_000, fmt  # (each 200 kB field, kept whole, was several)
    apps = [e["app"] for e in doc["ledger"]]
    assert "A" * (MAX_NAME_CHARS - 1) + "…" in apps
    assert all(len(t) <= MAX_NAME_CHARS for f in doc["frames"] for t in f["titles"])
    (note,) = [b for b in doc["blind_spots"] if "cut" in b]
    assert note.startswith("3 text value(s)")  # the app, the URL and the title

    # A device name: an ActivityWatch host.
    aw = aw_export(tmp_path / "aw.json", ["a", "b"])
    aw.write_text(aw.read_text().replace('"hostname": "host"', f'"hostname": "{"h" * 200_000}"'))
    frames = json.loads(outputs(aw)["json"])["frames"]
    assert frames and all(f["device"] == "h" * (MAX_NAME_CHARS - 1) + "…" for f in frames)


def test_token_counting_of_long_unbroken_text_is_an_upper_bound() -> None:
    words = "plain words are counted exactly " * 20
    run = "\u4e00\u4e8c" * 100_000  # no space at all: byte-pair encoding is quadratic here
    assert count_tokens(words + run) == count_tokens(words) + len(run.encode("utf-8"))
    short = "\u4e00\u4e8c" * (LONG_RUN_CHARS // 2 - 1)
    assert count_tokens(short) < len(short.encode("utf-8"))  # below the bound: exact


# ---------------------------------------------------------------- any text, every format

# Everything a str can hold (surrogates, controls, private use, unassigned), with the
# troublesome pieces drawn often rather than once in hundreds of examples.
TROUBLE = [
    "\ud800",
    "\udfff",
    "\ud83d",
    *BIDI,
    "\u200d",
    "\u200c",
    "\x1b",
    "\x1b[31m",
    "\x9b",
    "\x1b]0;",
    "\x07",
    "\x00",
    "\r\n",
    "\ufeff",
    "\ufffd",
    "…",
    "|",
    '"',
    "<",
    "&",
    "\u4e00" * 500,
]
ANY_TEXT = st.lists(
    st.one_of(st.characters(codec=None, exclude_categories=()), st.sampled_from(TROUBLE)),
    max_size=60,
).map("".join)
T0 = 1_773_133_200_000  # 2026-03-10T09:00:00Z


def _render_all(doc: dict[str, Any]) -> bytes:
    parts = [to_json(doc), to_yaml(doc), to_markdown(doc), to_context(doc, 1500), to_html(doc)]
    return b"\x00".join(p.encode("utf-8") for p in parts)  # strict: raises on surrogates


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=ANY_TEXT, url=ANY_TEXT, app=ANY_TEXT)
def test_any_text_yields_valid_utf8_in_every_format(title: str, url: str, app: str) -> None:
    from actframes.window import day_window

    def capture() -> Capture:
        snaps = [
            Snapshot(1, T0, app or "App", title, url or None),
            Snapshot(2, T0 + 30_000, "Google Chrome", title, f"https://{url}/x"),
            Snapshot(3, T0 + 60_000, "Code", "end"),
        ]
        return Capture("test", snaps)

    window = day_window(DAY, "UTC")
    first = _render_all(compile_capture(capture(), window))
    again = _render_all(compile_capture(capture(), window))
    assert first == again
    text = first.decode("utf-8")
    assert not any(c in text for c in BIDI)
    assert "\x1b" not in text


def test_timestamps_without_offset_are_read_as_utc_and_said(tmp_path: Path) -> None:
    note = "stored timestamp(s) carry no UTC offset: they were read as UTC"
    sp = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", "Code", "a"),
            (2, "2026-03-10 09:00:30", "Code", "b"),  # SQLite's CURRENT_TIMESTAMP shape
            (3, "2026-03-10T09:01:00.250", "Code", "c"),
            (4, "2026-03-10T10:01:30+01:00", "Code", "d"),
        ],
    )
    doc = json.loads(outputs(sp)["json"])
    assert f"2 {note}" in doc["blind_spots"]
    assert doc["coverage"]["first"] == "2026-03-10T09:00:00+00:00"
    assert doc["coverage"]["span_s"] == 90  # the naive rows sit at their UTC instants

    aw = aw_export(tmp_path / "aw.json", ["a", "b", "c"])
    text = aw.read_text().replace('"2026-03-10T09:01:00+00:00"', '"2026-03-10T09:01:00"')
    aw.write_text(text, encoding="utf-8")
    doc = json.loads(outputs(aw)["json"])
    assert f"1 {note}" in doc["blind_spots"]
    assert doc["coverage"]["rows"] == 3 and doc["rejected_rows"] == []

    clean = screenpipe_db(tmp_path / "clean.db", [(1, "2026-03-10T09:00:00Z", "Code")])
    assert not any(note in b for b in json.loads(outputs(clean)["json"])["blind_spots"])


def test_rejected_rows_name_untrusted_tables_and_rows_safely(tmp_path: Path) -> None:
    """Bucket ids and row ids come from the file too."""
    db = screenpipe_db(
        tmp_path / "sp.db",
        [
            (1, "2026-03-10T09:00:00Z", "Code", "a"),
            ("\u202e" + "9" * 10 + "x" * 200_000, "2026-03-10T09:00:10Z", "Code", "b"),
            (3, "2026-03-10T09:01:00Z", "Code", "c"),
        ],
        schema="noid_pk",
    )
    doc = json.loads(outputs(db)["json"])
    (rej,) = doc["rejected_rows"]
    assert rej["count"] == 1 and len(rej["rows"]) <= 64 and "\u202e" not in rej["rows"]

    aw = aw_export(tmp_path / "aw.json", ["a", "b"])
    evil = "aw-watcher-afk_\u202e\x1b[31m" + "h" * 200_000
    export = json.loads(aw.read_text())
    export["buckets"][evil] = {
        "id": evil,
        "type": "afkstatus",
        "hostname": "host",
        "client": "x",
        "events": [
            {"timestamp": "garbage", "duration": 1, "data": {"status": "afk"}},
            # The host's AFK bucket must also say when it was used: ActivityWatch's rule
            # keeps only recorded not-AFK time, and a day with none is "no usable rows".
            {
                "timestamp": "2026-03-10T08:59:00+00:00",
                "duration": 600,
                "data": {"status": "not-afk"},
            },
        ],
    }
    aw.write_text(json.dumps(export), encoding="utf-8")
    doc = json.loads(outputs(aw)["json"])
    (rej,) = doc["rejected_rows"]
    assert rej["table"].startswith("aw-watcher-afk_h") and len(rej["table"]) <= MAX_NAME_CHARS


def test_every_mcp_tool_answers_for_a_day_with_a_lone_surrogate(tmp_path: Path) -> None:
    import asyncio
    import sys

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    db = aw_export(tmp_path / "aw.json", ["x", "main.py", "end"], raw={0: "main\\ud800.py"})
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "actframes.cli", "mcp", "--db", str(db), "--tz", "UTC"]
    )
    calls = [
        ("get_context", {"day": DAY}),
        ("get_activity", {"day": DAY}),
        ("get_day_summary", {"day": DAY}),
        ("get_frame", {"frame_id": "F1", "day": DAY}),
        ("search_activity", {"query": "main", "days": 1, "until": DAY}),
    ]

    async def main() -> list[Any]:
        async with Client(server, read_timeout_seconds=60) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    results = asyncio.run(main())
    for (name, _), result in zip(calls, results, strict=True):
        shown = "\n".join(c.text for c in result.content)
        assert not result.is_error, (name, shown)
        shown.encode("utf-8")  # strict
    document = results[1].structured_content["document"]
    assert document["frames"][0]["titles"][0] == "main\ufffd.py"
