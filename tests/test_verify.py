"""verify: every tamper with a document or with the store is caught."""

from __future__ import annotations

import copy
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from actframes.api import compile_path, open_source, to_json
from actframes.verify import Report, verify

from .builders import run_cli
from .test_golden import build

DAY, TZ = "2026-03-10", "Europe/Berlin"


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    return build(tmp_path / "g.db")


def check(doc: dict[str, Any], db: Path) -> Report:
    src = open_source(db)
    try:
        return verify(doc, src)
    finally:
        src.close()


def test_an_untouched_document_verifies(store: Path) -> None:
    report = check(compile_path(store, DAY, TZ), store)
    assert report.ok and report.differences == [] and not report.store_changed


def frame(doc: dict[str, Any], fid: str) -> dict[str, Any]:
    return next(f for f in doc["frames"] if f["id"] == fid)


@pytest.mark.parametrize(
    ("tamper", "where", "field"),
    [
        (lambda d: frame(d, "F1").__setitem__("active_s", 999), "F1", "active_s"),
        (lambda d: frame(d, "F5").__setitem__("app", "Firefox"), "F5", "app"),
        (lambda d: frame(d, "F9")["evidence"].__setitem__("rows", "9-10"), "F9", "evidence.rows"),
        (lambda d: d["frames"].remove(frame(d, "F6")), "F6", "frame"),
        (lambda d: frame(d, "F1")["input"].__setitem__("keys", 0), "F1", "input.keys"),
        (lambda d: d["ledger"][0].__setitem__("active_s", 1), "ledger", "(value)"),
        (lambda d: d["coverage"].__setitem__("active_s", 1), "coverage", "active_s"),
    ],
)
def test_document_tampers_are_caught(store: Path, tamper: Any, where: str, field: str) -> None:
    doc = compile_path(store, DAY, TZ)
    bad = copy.deepcopy(doc)
    tamper(bad)
    report = check(bad, store)
    assert not report.ok
    assert any(d.where == where and d.field == field for d in report.differences), report
    assert not report.store_changed  # the store is as it was: the document lies
    assert report.affected_days == [DAY]


def _change(db: Path, sql: str) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(sql)
    conn.close()


@pytest.mark.parametrize(
    ("sql", "expect"),
    [
        ("UPDATE snapshots SET title = 'changed' WHERE id = 5", ("F5", "titles")),
        ("DELETE FROM snapshots WHERE id = 10", ("F9", "evidence.rows")),
        (
            "INSERT INTO snapshots (id, ts_ms, device, app, title) "
            "VALUES (99, 1773130500000, '', 'Zoom', 'call')",
            None,
        ),
        ("DELETE FROM input_events WHERE id = 2", ("F1", "input.keys")),
    ],
)
def test_store_tampers_are_caught(
    store: Path, tmp_path: Path, sql: str, expect: tuple[str, str] | None
) -> None:
    doc = compile_path(store, DAY, TZ)
    copy_db = tmp_path / "changed.db"
    shutil.copy(store, copy_db)
    _change(copy_db, sql)
    report = check(doc, copy_db)
    assert report.store_changed and not report.ok
    assert report.affected_days == [DAY]
    if expect:
        assert any((d.where, d.field) == expect for d in report.differences), report


def test_cli_exit_codes_and_lines(store: Path, tmp_path: Path) -> None:
    doc = compile_path(store, DAY, TZ)
    good = tmp_path / "doc.json"
    good.write_text(to_json(doc), encoding="utf-8")
    ok = run_cli("verify", str(good), "--db", str(store))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith("ok: the document matches the store")
    frame(doc, "F1")["active_s"] = 999
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    out = run_cli("verify", str(bad), "--db", str(store))
    assert out.returncode == 1
    assert "F1 active_s: store 150, document 999" in out.stdout
    assert out.stdout.startswith("differs: 1 field(s) of the document disagree with the store\n")
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", encoding="utf-8")
    err = run_cli("verify", str(junk), "--db", str(store))
    assert err.returncode == 1 and err.stderr.count("\n") == 1 and "junk.json" in err.stderr
