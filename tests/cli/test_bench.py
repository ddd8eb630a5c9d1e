"""`actframes bench tokens|qa` in process, and the outputs they write (JSON, Markdown, PNG)."""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import pytest

from actframes.bench.chart import encode_png
from actframes.cli import main
from actframes.demo import DEMO_DAY, DEMO_TZ


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_tokens_json(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        ["bench", "tokens", DEMO_DAY, "--db", str(demo), "--tz", DEMO_TZ, "--json"], capsys
    )
    assert code == 0
    m = json.loads(out)
    assert m["encoding"] == "o200k_base" and m["rows"] == 2592
    assert set(m["tokens"]) >= {"raw", "json", "md", "context"}
    assert m["tokens"]["context"] <= 1500
    assert m["compression"] == round(m["tokens"]["raw"] / m["tokens"]["context"], 1)
    assert m["compression"] >= 86  # the paper's ratio, on an ordinary day


def test_tokens_table(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["bench", "tokens", DEMO_DAY, "--db", str(demo), "--tz", DEMO_TZ], capsys)
    assert code == 0
    assert out.startswith("Tokens: o200k_base")
    assert "| raw | json |" in out and "| context | raw/context |" in out and "| 2,592 |" in out
    code, _, err = run(["bench", "tokens", "--db", str(demo), "--proposed"], capsys)
    assert code == 2 and "--proposed" in err  # the prototype is gone


def test_qa_none_writes_results_report_and_chart(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "qa"
    args = ["bench", "qa", "--db", str(demo), "--tz", DEMO_TZ, "--dates", DEMO_DAY]
    args += ["--reps", "raw,context,json", "--out", str(out_dir), "--quiet"]
    code, out, err = run(args, capsys)
    assert code == 0, err
    assert "| representation | tokens/day (mean) | accuracy |" in out
    results = json.loads((out_dir / "results.json").read_text())
    overall = results["summary"]["overall"]
    assert overall["json"]["accuracy"] == 1.0
    assert overall["context"]["hallucination"] == 0.0
    assert overall["context"]["tokens_mean"] <= 1500
    # The block answers everything but views of references it leaves to the JSON document.
    (day,) = results["days"]
    answers = day["representations"]["context"]["answers"]
    missed = [q for q in day["questions"] if not answers[q["qid"]]["correct"]]
    assert all(q["kind"] == "entity_viewed" for q in missed)
    assert (out_dir / "report.md").read_text() == out
    png = (out_dir / "chart.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert width > 400 and height > 200


def test_qa_errors_are_one_line(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["bench", "qa", "--db", str(demo), "--model", "bogus"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--model 'bogus'" in err
    code, _, err = run(["bench", "qa", "--db", str(demo), "--reps", "raw,nope"], capsys)
    assert code == 2 and "unknown representation" in err
    code, _, err = run(["bench", "qa", "--db", str(demo.parent / "missing.db")], capsys)
    assert code == 1 and err.startswith("actframes: error: ") and err.count("\n") == 1


def test_png_encoder_roundtrip() -> None:
    rgb = bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])
    png = encode_png(2, 2, rgb)
    chunks = {}
    i = 8
    while i < len(png):
        (n,) = struct.unpack(">I", png[i : i + 4])
        tag, data = png[i + 4 : i + 8], png[i + 8 : i + 8 + n]
        (crc,) = struct.unpack(">I", png[i + 8 + n : i + 12 + n])
        assert crc == zlib.crc32(tag + data) & 0xFFFFFFFF
        chunks[tag] = data
        i += 12 + n
    assert struct.unpack(">IIBBBBB", chunks[b"IHDR"]) == (2, 2, 8, 2, 0, 0, 0)
    raw = zlib.decompress(chunks[b"IDAT"])
    assert raw == b"\x00" + rgb[:6] + b"\x00" + rgb[6:]
    assert chunks[b"IEND"] == b""
