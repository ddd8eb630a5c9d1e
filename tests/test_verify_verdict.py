"""``actframes verify`` leads with a one-line verdict, names the store and the document
in every difference, and says first when the document comes from another source."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from actframes.api import compile_path
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.emit.json_out import to_json
from actframes.simulate.workflows import simulate_workflows, write_workflows

from .builders import run_cli


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("verdict")
    out = {"a": d / "a.db", "b": d / "b.db", "sp": d / "sp.db"}
    build_demo_store(out["a"], seed=7)
    build_demo_store(out["b"], seed=8)
    write_workflows(out["sp"], simulate_workflows(DEMO_DAY, 1, DEMO_TZ, seed=3, every_day=True))
    doc = compile_path(out["a"], DEMO_DAY, DEMO_TZ)
    out["doc"] = d / "doc.json"
    out["doc"].write_text(to_json(doc), encoding="utf-8")
    return out


def test_same_store_is_one_ok_line(stores: dict[str, Path]) -> None:
    res = run_cli("verify", str(stores["doc"]), "--db", str(stores["a"]))
    assert res.returncode == 0 and res.stdout == "ok: the document matches the store\n"


def test_another_store_of_the_same_kind_is_said_first_and_briefly(
    stores: dict[str, Path],
) -> None:
    res = run_cli("verify", str(stores["doc"]), "--db", str(stores["b"]))
    assert res.returncode == 1
    lines = res.stdout.splitlines()
    assert lines[0].startswith("differs: the document comes from another source than this store")
    assert len(lines) <= 13  # the verdict, ten differences, "… and N more", the digest line
    assert any(line.startswith("… and ") for line in lines)
    assert all(
        ": store " in line and ", document " in line
        for line in lines[1:]
        if line[:1] in "cF"  # (coverage…, F12…)
    )
    full = json.loads(
        run_cli("verify", str(stores["doc"]), "--db", str(stores["b"]), "--format", "json").stdout
    )
    assert full["other_source"] and full["verdict"] == lines[0]
    assert len(full["differences"]) > 10


def test_another_kind_of_store_names_both_kinds(stores: dict[str, Path]) -> None:
    res = run_cli("verify", str(stores["doc"]), "--db", str(stores["sp"]))
    first = res.stdout.splitlines()[0]
    assert res.returncode == 1
    assert "(document: native, store: screenpipe)" in first
