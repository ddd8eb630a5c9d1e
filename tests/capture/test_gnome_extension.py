"""`actframes record install-gnome-extension`: the right form of the extension for the
Shell version, in the right folder, speaking the contract the recorder listens to."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from actframes.capture import desktop_bus as contract
from actframes.capture.gnome_extension import SOURCE, UUID

from .xsession import record_argv


def _install(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "XDG_DATA_HOME": str(tmp / "data")}
    return subprocess.run(
        record_argv("install-gnome-extension", *args),
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(("version", "esm"), [(43, False), (44, False), (46, True), (50, True)])
def test_install_for_a_shell_version(tmp_path: Path, version: int, esm: bool) -> None:
    res = _install(tmp_path, "--shell-version", str(version))
    assert res.returncode == 0, res.stderr
    target = tmp_path / "data" / "gnome-shell" / "extensions" / UUID
    assert str(target) in res.stdout and f"gnome-extensions enable {UUID}" in res.stdout
    meta = json.loads((target / "metadata.json").read_text())
    assert meta["uuid"] == UUID and str(version) in meta["shell-version"]
    js = (target / "extension.js").read_text()
    assert ("export default class" in js) is esm
    assert ("function init()" in js) is not esm


def test_too_old_a_shell_is_refused_in_one_line(tmp_path: Path) -> None:
    res = _install(tmp_path, "--shell-version", "42")
    assert res.returncode == 1
    (line,) = res.stderr.strip().splitlines()
    assert "GNOME Shell 42 is too old" in line


@pytest.mark.parametrize("path", [SOURCE / "extension.js", SOURCE / "legacy" / "extension.js"])
def test_both_forms_speak_the_recorders_contract(path: Path) -> None:
    js = path.read_text()
    assert f"'{contract.SHELL_NAME}'" in js and f"'{contract.SHELL_PATH}'" in js
    assert f'interface name="{contract.SHELL_IFACE}"' in js
    method = re.search(r'<method name="GetFocus">(.*?)</method>', js, re.S)
    signal = re.search(r'<signal name="FocusChanged">(.*?)</signal>', js, re.S)
    assert method is not None and signal is not None
    assert "".join(re.findall(r'type="(.)" direction="out"', method.group(1))) == "sssu"
    assert "".join(re.findall(r'type="(.)"', signal.group(1))) == "sssu"
    assert "new GLib.Variant('(sssu)'" in js
