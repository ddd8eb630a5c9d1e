"""Regenerate docs/demo-report.png: the one-day demo's HTML report in headless Chromium.

    .venv/bin/python docs/screenshot.py

The one-day demo is the same bytes every time, so the picture depends only on the
report's HTML; docs/demo-report.sha256 records the SHA-256 of the HTML it was taken from,
and tests/test_readme.py fails when the report changes and the picture was not retaken.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

from actframes.api import compile_day
from actframes.demo import DEMO_DAY, DEMO_TZ, build_demo_store
from actframes.emit.html import to_html
from actframes.routines.cdp import find_chromium
from actframes.sources import open_source

DOCS = Path(__file__).resolve().parent
PNG = DOCS / "demo-report.png"
HASH = DOCS / "demo-report.sha256"
SIZE = "1280,860"  # the timeline and the top of the ledger: the README's first screen


def demo_report_html(folder: Path) -> str:
    """The HTML report of the one-day demo (what `actframes demo --days 1` writes)."""
    db = folder / "demo.db"
    build_demo_store(db)
    src = open_source(db)
    try:
        return to_html(compile_day(src, DEMO_DAY, DEMO_TZ))
    finally:
        src.close()


def html_hash(html: str) -> str:
    return hashlib.sha256(html.encode("utf-8")).hexdigest()


def shoot(html_file: Path, png: Path, chromium: str) -> None:
    with tempfile.TemporaryDirectory(prefix="actframes-shot-") as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",  # (root in CI; the page is our own file)
                "--disable-gpu",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--window-size={SIZE}",
                f"--screenshot={png}",
                html_file.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main(out: Path = PNG, hash_file: Path = HASH) -> None:
    chromium = find_chromium()
    if chromium is None:
        sys.exit("screenshot: no Chromium (apt-get install chromium, or set ACTFRAMES_CHROMIUM)")
    with tempfile.TemporaryDirectory(prefix="actframes-demo-") as tmp:
        html = demo_report_html(Path(tmp))
        page = Path(tmp) / "report.html"
        page.write_text(html, encoding="utf-8")
        shoot(page, out, chromium)
    hash_file.write_text(f"{html_hash(html)}  report.html of actframes demo --days 1\n")
    print(f"wrote {out} and {hash_file}")


if __name__ == "__main__":
    main()
