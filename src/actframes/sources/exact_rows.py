"""Rows written as text that no other row reads the same, for fingerprints made in SQL."""

from __future__ import annotations


def json_row(cols: list[str]) -> str:
    """The SQL of the values as one JSON array, each exact: JSON writes text whole (a NUL
    too) but a real to 15 digits and no blob, so those two are written by ``quote()``
    (exact), with their type."""
    wrapped = (
        f"iif(typeof({c}) IN ('real', 'blob'), json_array(typeof({c}), quote({c})), {c})"
        for c in cols
    )
    return f"json_array({', '.join(wrapped)})"
