"""Whether screen text is searched for a store, and where its index lies.

``$XDG_CONFIG_HOME/actframes/config.toml`` may turn the feature off, for every store or
for one::

    screen_text = false            # no store's screen text is indexed or searched

    [screen_text_stores]
    "/home/me/.screenpipe/db.sqlite" = false

``actframes mcp --no-screen-text`` does the same for a server. The index lies in the
cache folder (``<cache>/screen/``); with the cache off there is nowhere to keep it."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import UsageError


def config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "actframes" / "config.toml"


def screen_text_enabled(store: Path) -> tuple[bool, str]:
    """(on, why): off when the config file says so for all stores or for this one."""
    import tomllib

    path = config_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return True, ""
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{path}: not a readable TOML file ({exc})") from exc
    stores = data.get("screen_text_stores", {})
    if not isinstance(stores, dict):
        raise UsageError(f"{path}: screen_text_stores must be a table of store paths")
    resolved = str(Path(store).expanduser().resolve())
    for name, on in stores.items():
        if str(Path(name).expanduser().resolve()) == resolved:
            if not isinstance(on, bool):
                raise UsageError(f"{path}: screen_text_stores.{name!r} must be true or false")
            return on, f"{path}: screen_text_stores"
    on = data.get("screen_text", True)
    if not isinstance(on, bool):
        raise UsageError(f"{path}: screen_text must be true or false")
    return on, f"{path}: screen_text"


def cache_root_for_search(store: Path) -> Path:
    """The cache folder the store's index lies in, or a one-line usage error saying why
    screen text cannot be searched."""
    from ..cache import default_cache_dir

    on, why = screen_text_enabled(store)
    if not on:
        raise UsageError(f"screen text is turned off for {store} ({why} = false)")
    root = default_cache_dir()
    if root is None:
        raise UsageError(
            "the screen-text index lies in the cache folder, and ACTFRAMES_CACHE is off"
        )
    return root
