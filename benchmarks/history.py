"""The cache benchmark: recompile a 61-day history when only today changed.

Run by ``benchmarks/run.py`` (benchmark ``history-61d``) as its own process, so the timing is
that of a process that already holds a warm cache on disk, as a user's second `day` call
would:

    python benchmarks/history.py DB CACHE_DIR --first     # compile every day (fills the cache)
    python benchmarks/history.py DB CACHE_DIR             # recompile every day, print the time

It prints one JSON line: days, total seconds, cache hits.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import date, timedelta
from pathlib import Path

from actframes.cache import DocCache, compile_windows_cached
from actframes.compile.pipeline import Options
from actframes.sources import open_source
from actframes.window import day_window

START, DAYS, TZ = "2026-01-05", 61, "UTC"


def main(argv: list[str]) -> int:
    db, cache_dir = Path(argv[0]), Path(argv[1])
    cache = DocCache(cache_dir)
    first = date.fromisoformat(START)
    t0 = time.perf_counter()
    src = open_source(db)
    try:
        days = [(first + timedelta(days=i)).isoformat() for i in range(DAYS)]
        # One call for every day, as a history command makes it: the store fingerprints
        # the days at once (on two connections for a screenpipe-style store).
        served = compile_windows_cached(src, [day_window(d, TZ) for d in days], Options(), cache)
        hits = sum(hit for _, hit in served)
    finally:
        src.close()
    print(json.dumps({"days": DAYS, "seconds": round(time.perf_counter() - t0, 3), "hits": hits}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
