"""Where the aw-server's data goes: /dev/shm only when this user may write there (in a
chroot or some containers it is a folder of root's), else the default temporary folder;
no server is needed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from . import server


def _made_in(monkeypatch: pytest.MonkeyPatch, shm_writable: bool, shm_fails: bool) -> Path:
    monkeypatch.setattr(server.os, "access", lambda p, mode: shm_writable)
    real = tempfile.TemporaryDirectory

    def made(*args: Any, **kw: Any) -> tempfile.TemporaryDirectory[str]:
        if shm_fails and kw.get("dir") is not None:
            raise PermissionError(13, "Permission denied", str(kw["dir"]))
        return real(*args, **kw)

    monkeypatch.setattr(server.tempfile, "TemporaryDirectory", made)
    tmp = server.server_dir()
    try:
        (Path(tmp.name) / "server.log").write_bytes(b"")
        return Path(tmp.name).parent
    finally:
        tmp.cleanup()


@pytest.mark.parametrize(("writable", "fails"), [(False, False), (True, True)])
def test_an_unwritable_shm_falls_back_to_the_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, writable: bool, fails: bool
) -> None:
    assert _made_in(monkeypatch, writable, fails) == Path(tempfile.gettempdir())


@pytest.mark.skipif(
    not (Path("/dev/shm").is_dir() and os.access("/dev/shm", os.W_OK | os.X_OK)),
    reason="/dev/shm is not a folder this user may write",
)
def test_a_writable_shm_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _made_in(monkeypatch, True, False) == Path("/dev/shm")
