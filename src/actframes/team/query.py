"""``actframes team query``: SQL over the datasets with DuckDB, in memory.

Each dataset is a view of its name (``ledger``, ``frames``, ``steps``, ``routines``,
``h``) over its Parquet files; a dataset with no files has no view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import UsageError
from . import datasets as ds


def run_query(root: Path, sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """(column names, rows) of ``sql``; UsageError with DuckDB's one-line message."""
    try:
        import duckdb
    except ImportError:
        raise UsageError("team query needs DuckDB: pip install 'actframes[team]'") from None
    con = duckdb.connect(":memory:")
    try:
        for name in ds.SCHEMAS:
            found = ds.files(root, name)
            if not found:
                continue
            paths = ", ".join("'" + str(p).replace("'", "''") + "'" for p in found)
            con.execute(f"CREATE VIEW {name} AS SELECT * FROM read_parquet([{paths}])")
        try:
            cur = con.execute(sql)
        except duckdb.Error as e:
            raise UsageError(f"query: {str(e).splitlines()[0]}") from None
        if cur.description is None:
            return [], []
        cols = [d[0] for d in cur.description]
        return cols, [tuple(r) for r in cur.fetchall()]
    finally:
        con.close()


def to_tsv(cols: list[str], rows: list[tuple[Any, ...]]) -> str:
    def cell(v: Any) -> str:
        return "" if v is None else str(v).replace("\t", " ").replace("\n", " ")

    lines = ["\t".join(cols)] + ["\t".join(cell(v) for v in r) for r in rows]
    return "\n".join(lines) + "\n"
