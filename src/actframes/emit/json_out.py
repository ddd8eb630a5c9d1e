"""Canonical JSON: keys in the document's fixed order, UTF-8, two-space indent, one
trailing newline. The same document always gives the same bytes."""

from __future__ import annotations

import json
from typing import Any


def to_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2, allow_nan=False) + "\n"
