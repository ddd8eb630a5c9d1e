"""Reading the AT-SPI accessibility tree over D-Bus (async, dbus-fast): an app's frame
found by its process, title and box; the frame's showing elements (roles, names, bounds;
never text content, password fields' names blanked); a browser's document URL, and its
address bar's text only while the address bar is not focused."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus

from ..form_roles import ATSPI_CONTENT_ROLES

T = TypeVar("T")
Box = tuple[int, int, int, int]  # x, y, width, height on the screen

_ACC = "org.a11y.atspi.Accessible"
_PROPS = "org.freedesktop.DBus.Properties"
_REGISTRY = "org.a11y.atspi.Registry"
_ROOT = "/org/a11y/atspi/accessible/root"

# AtspiStateType bits (in the first 32-bit word of GetState).
STATE_ACTIVE = 1
STATE_FOCUSED = 12
STATE_SHOWING = 25

FRAME_ROLES = frozenset(("frame", "window", "dialog", "alert", "file chooser"))
DOCUMENT_ROLES = frozenset(("document web", "document frame"))
# Roles worth keeping to resolve a click or name a place on screen.
KEPT_ROLES = frozenset(
    (
        "push button", "toggle button", "check box", "radio button", "link", "menu item",
        "check menu item", "radio menu item", "menu", "menu bar", "page tab", "page tab list",
        "combo box", "list item", "tree item", "table cell", "entry", "password text",
        "spin button", "slider", "tool bar", "icon", "heading", "dialog", "frame", "window",
        "alert", "document web", "document frame", "image", "label", "scroll bar", "split pane",
        "text",
    )
)  # fmt: skip
# Kept for their bounds (a click on a text field resolves to it) but never with a name:
# some toolkits name a text element after its content (the table in ``form_roles``,
# which the screenpipe reader's rule shares).
BLANK_NAME_ROLES = ATSPI_CONTENT_ROLES
# Address bars by accessible name (Chromium family, Firefox).
ADDRESS_BAR_NAMES = frozenset(
    ("address and search bar", "search or enter address", "search with google or enter address")
)
MAX_NAME_CHARS = 200


@dataclass(frozen=True, slots=True)
class Element:
    depth: int
    parent: int | None  # index of the parent element in the same list (None: a top one)
    role: str
    name: str
    x: int
    y: int
    w: int
    h: int


@dataclass
class Inspection:
    frame_name: str | None = None
    # True when the frame is surely the X window's (its name or its bounds agree); a
    # guess (the app's active frame) is never used for URLs or privacy decisions.
    matched: bool = False
    url: str | None = None
    elements: list[Element] = field(default_factory=list)
    nodes_seen: int = 0
    complete: bool = True


class AtspiTree:
    """The tree-walking half of ``Accessibility``: coroutines run on its event loop."""

    _bus: MessageBus | None
    _pids: dict[str, int | None]
    _address_bars: dict[tuple[str, str], tuple[str, str]]

    async def _call(
        self, dest: str, path: str, iface: str, member: str, sig: str = "", body: Any = ()
    ) -> Any:
        assert self._bus is not None
        reply = await self._bus.call(
            Message(
                destination=dest,
                path=path,
                interface=iface,
                member=member,
                signature=sig,
                body=list(body),
            )
        )
        if reply is None or reply.message_type == MessageType.ERROR:
            raise LookupError(reply.error_name if reply is not None else "no reply")
        return reply.body

    # ------------------------------------------------------------ internals

    async def _app_of(self, pid: int) -> str | None:
        children = (await self._call(_REGISTRY, _ROOT, _ACC, "GetChildren"))[0]
        names = [str(n) for n, _ in children]
        unknown = [n for n in names if n not in self._pids]
        if unknown:
            pids = await asyncio.gather(
                *(
                    self._call(
                        "org.freedesktop.DBus",
                        "/org/freedesktop/DBus",
                        "org.freedesktop.DBus",
                        "GetConnectionUnixProcessID",
                        "s",
                        [n],
                    )
                    for n in unknown
                ),
                return_exceptions=True,
            )
            for n, p in zip(unknown, pids, strict=True):
                self._pids[n] = None if isinstance(p, BaseException) else int(p[0])
        for n in names:
            if self._pids.get(n) == pid:
                return n
        return None

    async def _node(self, dest: str, path: str) -> tuple[str, str, int, list[tuple[str, str]]]:
        role, name, state, kids = await asyncio.gather(
            self._call(dest, path, _ACC, "GetRoleName"),
            self._call(dest, path, _PROPS, "Get", "ss", [_ACC, "Name"]),
            self._call(dest, path, _ACC, "GetState"),
            self._call(dest, path, _ACC, "GetChildren"),
        )
        words = state[0]
        bits = int(words[0]) if words else 0
        value = name[0].value if hasattr(name[0], "value") else name[0]
        return str(role[0]), str(value or ""), bits, [(str(d), str(p)) for d, p in kids[0]]

    async def _frame(
        self, dest: str, title: str, bounds: Box | None
    ) -> tuple[str, str, bool] | None:
        """The app's frame for the X window: (path, name, surely matched)."""
        kids = (await self._call(dest, _ROOT, _ACC, "GetChildren"))[0]
        nodes = await asyncio.gather(
            *(self._node(str(d), str(p)) for d, p in kids), return_exceptions=True
        )
        boxes: list[Any] = [None] * len(kids)
        if bounds is not None:
            boxes = await asyncio.gather(
                *(
                    self._call(str(d), str(p), "org.a11y.atspi.Component", "GetExtents", "u", [0])
                    for d, p in kids
                ),
                return_exceptions=True,
            )
        best: tuple[int, str, str] | None = None
        for (_, path), node, box in zip(kids, nodes, boxes, strict=True):
            if isinstance(node, BaseException):
                continue
            role, name, bits, _ = node
            if role not in FRAME_ROLES:
                continue
            score = 0
            if title and name == title:
                score += 4
            elif title and name.startswith(title):
                score += 3  # Chromium's "<title> (Incognito)"
            extents = (
                None
                if box is None or isinstance(box, BaseException)
                else tuple(int(v) for v in box[0])
            )
            if bounds is not None and extents is not None and _same_box(extents, bounds):
                score += 3
            if bits & (1 << STATE_ACTIVE):
                score += 1
            if best is None or score > best[0]:
                best = (score, str(path), name)
        if best is None:
            return None
        return best[1], best[2], best[0] >= 3

    async def _inspect(
        self,
        pid: int,
        title: str,
        bounds: Box | None,
        want_elements: bool,
        want_url: bool,
        max_elements: int,
        max_nodes: int,
        timeout: float,
    ) -> Inspection | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout * 0.8
        dest = await self._app_of(pid)
        if dest is None:
            return None
        frame = await self._frame(dest, title, bounds)
        if frame is None:
            return None
        frame_path, frame_name, matched = frame
        result = Inspection(frame_name=frame_name, matched=matched)
        if not want_elements and not want_url:
            return result
        docs: list[tuple[str, str]] = []
        bar: tuple[str, str, int] | None = None  # (dest, path, state bits)
        # Breadth first: (dest, path, depth, parent element index)
        level: list[tuple[str, str, int, int | None]] = [(dest, frame_path, 0, None)]
        while level and result.nodes_seen < max_nodes:
            if loop.time() > deadline:
                result.complete = False
                break
            level = level[: max_nodes - result.nodes_seen]
            infos = await asyncio.gather(
                *(self._node(d, p) for d, p, _, _ in level), return_exceptions=True
            )
            result.nodes_seen += len(level)
            kept: list[tuple[int, str, str]] = []  # (element index, dest, path) for extents
            nxt: list[tuple[str, str, int, int | None]] = []
            for (d, p, depth, parent), info in zip(level, infos, strict=True):
                if isinstance(info, BaseException):
                    continue
                role, name, bits, kids = info
                showing = bool(bits & (1 << STATE_SHOWING)) or depth == 0
                if not showing:
                    continue  # hidden subtrees (other tabs, closed menus) are skipped
                index = parent
                if want_elements and role in KEPT_ROLES and len(result.elements) < max_elements:
                    shown_name = "" if role in BLANK_NAME_ROLES else name[:MAX_NAME_CHARS]
                    result.elements.append(Element(depth, parent, role, shown_name, 0, 0, 0, 0))
                    index = len(result.elements) - 1
                    kept.append((index, d, p))
                if want_url and role in DOCUMENT_ROLES and depth > 0:
                    docs.append((d, p))
                if want_url and name.lower() in ADDRESS_BAR_NAMES and bar is None:
                    bar = (d, p, bits)
                if role in DOCUMENT_ROLES and depth > 0 and not want_elements:
                    continue  # page content only matters for elements
                nxt.extend((cd, cp, depth + 1, index) for cd, cp in kids[:300])
            if kept:
                boxes = await asyncio.gather(
                    *(
                        self._call(d, p, "org.a11y.atspi.Component", "GetExtents", "u", [0])
                        for _, d, p in kept
                    ),
                    return_exceptions=True,
                )
                for (i, _, _), box in zip(kept, boxes, strict=True):
                    if isinstance(box, BaseException):
                        continue
                    x, y, w, h = (int(v) for v in box[0])
                    e = result.elements[i]
                    result.elements[i] = Element(e.depth, e.parent, e.role, e.name, x, y, w, h)
            level = nxt
        if level:
            result.complete = False
        if want_elements:
            result.elements = drop_empty(result.elements)
        if want_url:
            for d, p in docs:
                uri = await self._doc_uri(d, p)
                if uri:
                    result.url = uri
                    break
            if bar is not None:
                self._address_bars[(dest, frame_path)] = (bar[0], bar[1])
                self._address_bars[(dest, "")] = (bar[0], bar[1])
                if result.url is None and not bar[2] & (1 << STATE_FOCUSED):
                    text = await self._text(bar[0], bar[1])
                    result.url = url_like(text)
        return result

    async def _doc_uri(self, dest: str, path: str) -> str | None:
        try:
            attrs = (await self._call(dest, path, "org.a11y.atspi.Document", "GetAttributes"))[0]
        except LookupError:
            return None
        for key in ("URI", "DocURL", "URL"):
            value = str(attrs.get(key) or "").strip()
            if value and value != "about:blank":
                return value
        return None

    async def _text(self, dest: str, path: str) -> str:
        # Only ever called for an address bar: the one text field whose content we read.
        text = await self._call(dest, path, "org.a11y.atspi.Text", "GetText", "ii", [0, -1])
        return str(text[0])

    async def _address_bar_text(self, pid: int) -> str | None:
        dest = await self._app_of(pid)
        if dest is None:
            return None
        bar = self._address_bars.get((dest, ""))
        if bar is None:
            return None
        state = (await self._call(bar[0], bar[1], _ACC, "GetState"))[0]
        if state and int(state[0]) & (1 << STATE_FOCUSED):
            return None
        return await self._text(bar[0], bar[1])


def url_like(text: str) -> str | None:
    """The address bar's text when it looks like an address (not a half-typed query)."""
    t = text.strip()
    if not t or " " in t or len(t) > 2048:
        return None
    if "://" in t or t.startswith(("about:", "chrome:", "file:")):
        return t
    head = t.split("/", 1)[0]
    return t if ("." in head or head.startswith("localhost") or ":" in head) else None


def _same_box(a: tuple[int, ...], b: Box, slack: int = 4) -> bool:
    return len(a) == 4 and all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))


def drop_empty(elements: list[Element]) -> list[Element]:
    """Keep elements with an area on screen; re-point parents at kept ancestors."""
    keep: list[Element] = []
    new_index: dict[int, int] = {}
    for i, e in enumerate(elements):
        parent = e.parent
        while parent is not None and parent not in new_index:
            parent = elements[parent].parent
        if e.w <= 0 or e.h <= 0:
            continue
        new_index[i] = len(keep)
        mapped = new_index[parent] if parent is not None else None
        keep.append(Element(e.depth, mapped, e.role, e.name, e.x, e.y, e.w, e.h))
    return keep
