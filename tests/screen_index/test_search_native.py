"""``actframes search`` and the MCP tool ``search_screen`` on a native store the recorder's
own store writer made, with screen text planted in a terminal, an editor and a browser:
the planted phrase's frame first, its moment within the phrase's time on screen, the
snippet showing it; words never on screen find nothing; a planted API key and card number
never appear in any output or in the index file; hostile queries answer or fail in one
line."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from actframes.capture.store import open_store
from actframes.model import ACCESSIBILITY, OCR

from ..builders import cli_env, run_cli

T0 = 1_773_129_600_000  # 2026-03-10T08:00:00Z
DAY = "2026-03-10"
APPS = ["XTerm", "Gedit", "Firefox"]
KEY = "sk_live_51HxQ2eKZvKYlo2C0abcdefghijklmnop"
CARD = "4111 1111 1111 1111"
PHRASE = "KeyError: 'customer_id'"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("search") / "capture.db"
    conn = open_store(db)
    with conn:
        for i in range(60):
            app = APPS[i // 20]
            conn.execute(
                "INSERT INTO snapshots (id, ts_ms, device, app, title, reason)"
                " VALUES (?,?,'',?,?,'focus')",
                (i + 1, T0 + i * 30_000, app, f"{app} window"),
            )
        for i in range(60):
            text = f"$ python manage.py run step {i}"
            kind = OCR if i < 20 else ACCESSIBILITY
            if i in (7, 8):  # on screen from 08:03:30 until 08:04:30
                text = f"Traceback (most recent call last):\n  {PHRASE}\n$ "
            if i == 25:
                text = f"Invoice INV-2026-0042 total 1,234.00 EUR, card {CARD}"
            if i == 45:
                text = f"settings: api key {KEY} (live)"
            conn.execute(
                "INSERT INTO screen_text (id, ts_ms, snapshot_id, kind, text) VALUES (?,?,?,?,?)",
                (i + 1, T0 + i * 30_000 + 100, i + 1, kind, text),
            )
    conn.close()
    return db


class Ran:
    def __init__(self, code: int, output: str) -> None:
        self.exit_code, self.output = code, output


def _search(store: Path, cache: Path, *args: str) -> Ran:
    env = cli_env(ACTFRAMES_CACHE=str(cache), XDG_CONFIG_HOME=str(cache / "config"))
    got = run_cli("search", *args, "--db", str(store), "--tz", "UTC", "--date", DAY, env=env)
    return Ran(got.returncode, got.stdout + got.stderr)


def test_the_planted_phrase_is_found_in_its_frame(store: Path, tmp_path: Path) -> None:
    got = _search(store, tmp_path, PHRASE)
    assert got.exit_code == 0, got.output
    out = json.loads(got.output)
    assert list(out) == ["query", "results"] and out["query"] == PHRASE
    best = out["results"][0]
    assert best["app"] == "XTerm" and best["frame_id"] is not None
    assert "2026-03-10T08:03:30" <= best["at"] <= "2026-03-10T08:04:30"
    assert "«KeyError»" in best["snippet"] and "«customer»_«id»" in best["snippet"]
    assert len(best["snippet"]) <= 200
    assert best["rows"] == "8-9"  # the captures that showed it
    # the same words elsewhere (other steps of the terminal) rank below the phrase
    assert all(r["frame_id"] != best["frame_id"] for r in out["results"][1:])


def test_words_never_on_screen_find_nothing(store: Path, tmp_path: Path) -> None:
    out = json.loads(_search(store, tmp_path, "zebra quarterly forecast").output)
    assert out["results"] == []


def test_secrets_never_leave_the_store(store: Path, tmp_path: Path) -> None:
    outputs = [
        _search(store, tmp_path, q, "--format", f).output
        for q in ("invoice 0042", "api key", "live", "card", "settings")
        for f in ("json", "md")
    ]
    joined = "\n".join(outputs)
    assert "Invoice" in joined and "[redacted]" in joined
    for secret in (KEY, CARD, "4111", "sk_live_51"):
        assert secret not in joined
    index = b"".join(p.read_bytes() for p in (tmp_path / "screen").iterdir())
    for secret in (KEY.encode(), CARD.encode(), b"4111 1111", b"sk_live_51"):
        assert secret not in index


@pytest.mark.parametrize(
    "query",
    ["AND OR NOT", '"unbalanced', "NEAR(", "a" * 10_000, "x y", "*", "-", "col:umn", "é", ""],
)
def test_hostile_queries_answer_or_fail_in_one_line(
    store: Path, tmp_path: Path, query: str
) -> None:
    got = _search(store, tmp_path, query)
    assert got.exit_code in (0, 2), got.output
    if got.exit_code == 0:
        assert isinstance(json.loads(got.output)["results"], list)
    else:
        assert got.output.count("\n") == 1 and "Traceback" not in got.output


def test_fts_syntax_when_asked(store: Path, tmp_path: Path) -> None:
    got = _search(store, tmp_path, "invoice OR traceback", "--fts")
    assert {r["app"] for r in json.loads(got.output)["results"]} == {"XTerm", "Gedit"}
    bad = _search(store, tmp_path, "invoice AND", "--fts")
    assert bad.exit_code == 2 and "query:" in bad.output


def test_cache_clear_deletes_the_index(store: Path, tmp_path: Path) -> None:
    _search(store, tmp_path, "invoice")
    assert list((tmp_path / "screen").glob("*.sqlite"))
    got = run_cli("cache", "clear", env=cli_env(ACTFRAMES_CACHE=str(tmp_path)))
    assert "1 screen-text index(es)" in got.stdout
    assert not (tmp_path / "screen").exists()


def test_turned_off_in_the_config(store: Path, tmp_path: Path) -> None:
    conf = tmp_path / "config" / "actframes" / "config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text(f'[screen_text_stores]\n"{store}" = false\n', encoding="utf-8")
    got = _search(store, tmp_path, "invoice")
    assert got.exit_code == 2 and "screen text is turned off" in got.output
    assert not (tmp_path / "screen").exists()


def _serve(store: Path, cache: Path, body: Any, *extra: str) -> Any:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "actframes.cli", "mcp", "--db", str(store), "--tz", "UTC", *extra],
        env={"ACTFRAMES_CACHE": str(cache), "XDG_CONFIG_HOME": str(cache / "config")},
    )

    async def main() -> Any:
        async with Client(params, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(main())


def test_search_screen_over_mcp(store: Path, tmp_path: Path) -> None:
    async def body(c: Client) -> dict[str, Any]:
        return {
            "tools": {t.name for t in (await c.list_tools()).tools},
            "hit": await c.call_tool("search_screen", {"query": PHRASE, "day": DAY}),
            "app": await c.call_tool(
                "search_screen", {"query": "step", "day": DAY, "app": "gedit"}
            ),
            "none": await c.call_tool("search_screen", {"query": "zebra", "day": DAY}),
            "empty": await c.call_tool("search_screen", {"query": "  ", "day": DAY}),
            "nul": await c.call_tool("search_screen", {"query": "api\x00key", "day": DAY}),
            "frame": await c.call_tool("get_frame", {"query": PHRASE, "day": DAY}),
            "titled": await c.call_tool("get_frame", {"query": "gedit", "day": DAY}),
            "secret": await c.call_tool("search_screen", {"query": "api key", "day": DAY}),
        }

    r = _serve(store, tmp_path, body)
    assert "search_screen" in r["tools"]
    best = r["hit"].structured_content["results"][0]
    assert best["app"] == "XTerm" and "«KeyError»" in best["snippet"]
    assert {x["app"] for x in r["app"].structured_content["results"]} == {"Gedit"}
    assert r["none"].structured_content["results"] == []
    assert r["empty"].is_error and "no words" in r["empty"].content[0].text
    assert not r["nul"].is_error
    # get_frame by words found nowhere in titles: the frame whose screen showed them,
    # with its matching snippets
    got = r["frame"].structured_content
    assert got["frame"]["id"] == best["frame_id"] and got["frame"]["app"] == "XTerm"
    assert [x["rows"] for x in got["screen_text"]] == ["8-9"]
    # found by its title: no screen text matches the words there
    assert r["titled"].structured_content["frame"]["app"] == "Gedit"
    assert r["titled"].structured_content["screen_text"] == []
    assert KEY not in json.dumps(r["secret"].structured_content)

    async def tools(c: Client) -> set[str]:
        return {t.name for t in (await c.list_tools()).tools}

    assert "search_screen" not in _serve(store, tmp_path, tools, "--no-screen-text")
