"""The focused window's process id from sway's IPC (``$SWAYSOCK``), which the
foreign-toplevel protocol does not give: with it the recorder writes the executable and
can ask AT-SPI about the window, as on X11, KDE and GNOME.

The IPC message is the string ``i3-ipc``, a payload length and a message type (u32, host
byte order), then the payload; ``GET_TREE`` (4) answers with the layout tree as JSON,
whose focused node carries ``app_id``, ``name`` and ``pid``.
"""

from __future__ import annotations

import json
import socket
import struct
from typing import Any

MAGIC = b"i3-ipc"
HEADER = struct.Struct("=II")
GET_TREE = 4


def message(kind: int, payload: bytes = b"") -> bytes:
    return MAGIC + HEADER.pack(len(payload), kind) + payload


def focused_node(tree: dict[str, Any]) -> dict[str, Any] | None:
    """The focused window in a ``GET_TREE`` answer (a node with an app id or X class)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node.get("focused") and (node.get("app_id") or node.get("window_properties")):
            return node
        stack.extend(node.get("nodes", []))
        stack.extend(node.get("floating_nodes", []))
    return None


class SwayIpc:
    def __init__(self, path: str, timeout: float = 1.0) -> None:
        self.path = path
        self.timeout = timeout

    def _ask(self, kind: int) -> Any:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(self.timeout)
            sock.connect(self.path)
            sock.sendall(message(kind))
            head = _read(sock, len(MAGIC) + HEADER.size)
            if head[: len(MAGIC)] != MAGIC:
                raise OSError("not a sway IPC answer")
            size, _ = HEADER.unpack(head[len(MAGIC) :])
            return json.loads(_read(sock, size))

    def focused_pid(self, app_id: str) -> int | None:
        """The pid of the focused window when it is the one with ``app_id`` (else None:
        the focus moved meanwhile, or sway does not answer)."""
        try:
            node = focused_node(self._ask(GET_TREE))
        except (OSError, ValueError):
            return None
        if node is None or (node.get("app_id") or "") != app_id:
            return None
        pid = node.get("pid")
        return pid if isinstance(pid, int) and pid > 0 else None


def _read(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise OSError("sway closed the IPC connection")
        out += chunk
    return out
