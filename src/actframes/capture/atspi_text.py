"""The focused window's visible text over AT-SPI (``record --screen-text``): the names of
its showing elements and the text of its text-bearing ones (labels, paragraphs, headings,
cells …), breadth-first, within a node, character and time budget.

What the user typed is not read unless asked for (``typed``, ``--screen-text-typed``): an
element whose role may hold typed content (``form_roles.holds_content``: entries, text
fields, password fields, terminals) or that is editable is skipped with everything below
it, name and text alike. With ``typed``, such elements are read like labels — except a
password field (``form_roles.is_password``), which is skipped with everything below it
whatever the opt-in. Hidden subtrees
(other tabs, closed menus) are skipped. Only a frame that surely is the focused window
(same name or place on screen) is read.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ..form_roles import holds_content, is_password
from .atspi_tree import STATE_SHOWING, AtspiTree, Box

STATE_EDITABLE = 7  # AtspiStateType bit: the element takes typed text
# Roles whose Text interface holds what they show (GTK labels name themselves after it;
# a web page's paragraphs and cells carry it only there).
TEXT_ROLES = frozenset(
    (
        "label", "static", "paragraph", "heading", "caption", "section", "block quote",
        "list item", "table cell", "description term", "description value", "article",
        "header", "footer", "link",
    )
)  # fmt: skip
_EMBEDDED = "\ufffc"  # stands for a child element inside a parent's text


@dataclass
class VisibleText:
    matched: bool  # the frame surely is the focused window
    pieces: list[str] = field(default_factory=list)  # in the order read, no repeats


class AtspiText(AtspiTree):
    """The text-reading half of ``Accessibility``: coroutines run on its event loop."""

    async def _visible_text(
        self,
        pid: int,
        title: str,
        bounds: Box | None,
        max_chars: int,
        max_nodes: int,
        timeout: float,
        typed: bool = False,
    ) -> VisibleText | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout * 0.8
        dest = await self._app_of(pid)
        if dest is None:
            return None
        frame = await self._frame(dest, title, bounds)
        if frame is None:
            return None
        frame_path, _, matched = frame
        found = VisibleText(matched)
        if not matched:
            return found
        seen: set[str] = set()
        total = nodes = 0
        level: list[tuple[str, str, int]] = [(dest, frame_path, 0)]
        while level and nodes < max_nodes and total < max_chars and loop.time() < deadline:
            level = level[: max_nodes - nodes]
            infos = await asyncio.gather(
                *(self._node(d, p) for d, p, _ in level), return_exceptions=True
            )
            nodes += len(level)
            read: list[list[str]] = []
            wanted: list[tuple[int, str, str]] = []  # (index in read, dest, path)
            nxt: list[tuple[str, str, int]] = []
            for (d, p, depth), info in zip(level, infos, strict=True):
                if isinstance(info, BaseException):
                    continue
                role, name, bits, kids = info
                if depth > 0 and not bits & (1 << STATE_SHOWING):
                    continue
                if is_password(role):
                    continue  # never, whatever the opt-in, with all below it
                content = holds_content(role) or bool(bits & (1 << STATE_EDITABLE))
                if content and not typed:
                    continue  # what the user typed, with all below it
                if role in TEXT_ROLES or content:
                    wanted.append((len(read), d, p))
                read.append([name])
                nxt.extend((cd, cp, depth + 1) for cd, cp in kids[:300])
            texts = await asyncio.gather(
                *(
                    self._call(d, p, "org.a11y.atspi.Text", "GetText", "ii", [0, -1])
                    for _, d, p in wanted
                ),
                return_exceptions=True,
            )
            for (i, _, _), text in zip(wanted, texts, strict=True):
                if not isinstance(text, BaseException) and text:
                    read[i].append(str(text[0]).replace(_EMBEDDED, " "))
            for strings in read:
                for raw in strings:
                    piece = " ".join(raw.split())
                    if piece and piece not in seen:
                        seen.add(piece)
                        found.pieces.append(piece)
                        total += len(piece) + 1
            level = nxt
        return found
