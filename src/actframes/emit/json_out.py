"""Canonical JSON: the document's keys in its fixed order, compact separators, UTF-8
unescaped, one top-level key per line and one list item (a frame, a ledger entry …) per
line, then a trailing newline. The same document always gives the same bytes; the layout
keeps diffs readable while every piece goes through the C encoder."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import partial

_dumps = partial(json.dumps, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def to_json(doc: Mapping[str, object]) -> str:
    parts = []
    for key, value in doc.items():
        if isinstance(value, list) and value:
            items = ",\n".join(_dumps(item) for item in value)
            parts.append(f"{_dumps(key)}:[\n{items}\n]")
        else:
            parts.append(f"{_dumps(key)}:{_dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"
