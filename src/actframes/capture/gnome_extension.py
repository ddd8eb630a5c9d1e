"""``actframes record install-gnome-extension``: put the GNOME Shell extension that reports
the focused window (``desktop/gnome-extension``) where GNOME Shell looks for it.

GNOME Shell 45 changed the extension format (ES modules); 43 and 44 get the older form
of the same extension (``legacy/``). Both speak the contract in ``desktop_bus.py``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from ..errors import ActframesError

UUID = "actframes-focus@actframes"
SOURCE = Path(__file__).resolve().parent / "desktop" / "gnome-extension"
FILES = ("metadata.json", "extension.js")


def extensions_dir(env: dict[str, str]) -> Path:
    base = env.get("XDG_DATA_HOME") or str(Path(env.get("HOME", "~")).expanduser() / ".local/share")
    return Path(base) / "gnome-shell" / "extensions"


def shell_major() -> int | None:
    """The running system's GNOME Shell major version, from ``gnome-shell --version``."""
    try:
        out = subprocess.run(
            ["gnome-shell", "--version"], capture_output=True, text=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    found = re.search(r"(\d+)(?:\.\d+)*", out)
    return int(found.group(1)) if found else None


def install(dest: Path, major: int | None) -> Path:
    """Copy the extension for GNOME Shell ``major`` (None: 45 or later) into ``dest``."""
    if major is not None and major < 43:
        raise ActframesError(f"GNOME Shell {major} is too old for the extension (43 or later)")
    source = SOURCE / "legacy" if major is not None and major < 45 else SOURCE
    target = dest / UUID
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            shutil.copyfile(source / name, target / name)
    except OSError as exc:
        raise ActframesError(f"cannot write the extension to {target}: {exc.strerror}") from exc
    if major is not None:
        meta = json.loads((target / "metadata.json").read_text())
        if str(major) not in meta["shell-version"]:
            # A newer Shell than we list: say it is supported, as its format is the same.
            meta["shell-version"].append(str(major))
            (target / "metadata.json").write_text(json.dumps(meta, indent=2) + "\n")
    return target


def instructions(target: Path, major: int | None) -> str:
    shell = f"GNOME Shell {major}" if major is not None else "GNOME Shell 45 or later (assumed)"
    return "\n".join(
        (
            f"installed the actframes focus extension for {shell} in {target}",
            "next:",
            "  1. log out and back in (GNOME on Wayland finds new extensions at login)",
            f"  2. gnome-extensions enable {UUID}",
            "  3. actframes record start",
            "the extension tells the recorder only the focused window's WM class, title and "
            "process id, over the session bus",
        )
    )
