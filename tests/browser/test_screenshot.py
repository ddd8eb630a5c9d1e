"""docs/screenshot.py takes the README's picture in a real headless Chromium: a PNG of
the expected size, and the same HTML hash as the one the committed picture records."""

from __future__ import annotations

import importlib.util
import os
import struct
from pathlib import Path

import pytest

from actframes.routines.cdp import find_chromium

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("ACTFRAMES_REQUIRE_BROWSER") == "1"
pytestmark = pytest.mark.skipif(
    find_chromium() is None and not REQUIRED,
    reason="no Chromium binary (apt-get install chromium, or set ACTFRAMES_CHROMIUM)",
)


def test_the_script_takes_the_picture(tmp_path: Path) -> None:
    if find_chromium() is None:
        pytest.fail("ACTFRAMES_REQUIRE_BROWSER=1, but no Chromium binary was found")
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "docs" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    png, digest = tmp_path / "shot.png", tmp_path / "shot.sha256"
    script.main(png, digest)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (1280, 860)
    assert len(data) > 50_000  # a drawn page, not a blank one
    committed = (ROOT / "docs" / "demo-report.sha256").read_text(encoding="utf-8")
    assert digest.read_text(encoding="utf-8") == committed
