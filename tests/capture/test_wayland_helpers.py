"""The Wayland backend's small pure parts: the toplevel state array, the display socket's
place, sway's IPC framing and tree, and the bindings generated from the protocol XML."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from actframes.capture.sway_ipc import GET_TREE, focused_node, message
from actframes.capture.wayland import WaylandError, activated, socket_path


@given(st.lists(st.integers(0, 10), max_size=6), st.binary(max_size=3))
def test_activated_reads_uint32_states(states: list[int], tail: bytes) -> None:
    """The state array is uint32 values in host order; a ragged tail is ignored."""
    data = struct.pack(f"={len(states)}I", *states) + tail
    assert activated(data) is (2 in states)


def test_socket_path() -> None:
    assert socket_path("wayland-1", {"XDG_RUNTIME_DIR": "/run/user/1000"}) == Path(
        "/run/user/1000/wayland-1"
    )
    assert socket_path("/tmp/sock", {}) == Path("/tmp/sock")
    with pytest.raises(WaylandError, match="XDG_RUNTIME_DIR"):
        socket_path("wayland-0", {})


def test_sway_ipc_message_framing() -> None:
    msg = message(GET_TREE)
    assert msg[:6] == b"i3-ipc" and struct.unpack("=II", msg[6:]) == (0, 4)


def test_focused_node_finds_the_focused_window_anywhere() -> None:
    tree = {
        "type": "root",
        "nodes": [
            {"type": "output", "nodes": [
                {"type": "workspace", "focused": False, "nodes": [
                    {"app_id": "foot", "name": "a", "pid": 11, "focused": False},
                ], "floating_nodes": [
                    {"app_id": "pavucontrol", "name": "Volume", "pid": 12, "focused": True},
                ]},
            ]},
        ],
    }  # fmt: skip
    assert focused_node(tree) == {
        "app_id": "pavucontrol", "name": "Volume", "pid": 12, "focused": True
    }  # fmt: skip
    # A focused empty workspace is no window.
    assert focused_node({"nodes": [{"type": "workspace", "focused": True, "nodes": []}]}) is None


def test_bindings_are_generated_from_the_xml() -> None:
    pytest.importorskip("pywayland", reason="needs pywayland: pip install -e '.[capture]'")
    from actframes.capture import wlproto

    binds = wlproto.load()
    assert binds.toplevel_manager.name == "zwlr_foreign_toplevel_manager_v1"
    assert binds.toplevel_manager.version == 3
    assert binds.ext_idle_notifier.name == "ext_idle_notifier_v1"
    if wlproto.kde_idle_xml() is not None:
        assert binds.kde_idle is not None and binds.kde_idle.name == "org_kde_kwin_idle"
    assert wlproto.load() is binds  # once per process
