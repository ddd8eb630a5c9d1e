"""``actframes cache``: the cache of compiled documents."""

from __future__ import annotations

import click

from .common import HELP, write_out


@click.group(context_settings=HELP)
def cache() -> None:
    """The cache of compiled documents and of routines' days ($ACTFRAMES_CACHE, else
    $XDG_CACHE_HOME/actframes, else ~/.cache/actframes; ACTFRAMES_CACHE=off turns it
    off). An entry is used only while the store holds the same rows for it."""


@cache.command("clear")
def cache_clear() -> None:
    """Delete every cached document and routine day, the screen-text indexes (and the
    compiled regular expressions)."""
    import shutil

    from ..cache import DocCache, default_cache_dir
    from ..day_steps_cache import DayStepsCache

    root = default_cache_dir()
    n = DocCache(root).clear() if root else 0
    days = DayStepsCache(root).clear() if root else 0
    screens = 0
    if root:
        shutil.rmtree(root / "rx", ignore_errors=True)
        screens = len(list((root / "screen").glob("*.sqlite")))
        shutil.rmtree(root / "screen", ignore_errors=True)  # the screen-text indexes
    also = f" and {days} cached day(s) of routine steps" if days else ""
    also += f" and {screens} screen-text index(es)" if screens else ""
    write_out(f"removed {n} cached document(s){also}\n")


@cache.command("info")
def cache_info() -> None:
    """Where the cache is and what it holds."""
    from ..cache import DocCache, default_cache_dir

    root = default_cache_dir()
    if root is None:
        write_out("cache: off ($ACTFRAMES_CACHE)\n")
        return
    from ..day_steps_cache import DayStepsCache

    s = DocCache(root).stats()
    days = [p for p in DayStepsCache(root).files() if p.suffix == ".json"]
    write_out(
        f"cache: {s['path']}\nentries: {s['entries']}\nbytes: {s['bytes']}\n"
        f"routine days: {len(days)} ({sum(p.stat().st_size for p in days)} bytes, "
        f"in {DayStepsCache(root).root})\n"
    )
