"""SQLite files read from their raw pages, without SQLite: table b-tree pages (``btree``)
and a WAL-mode database's ``-shm`` pin and ``-wal`` frames (``wal``). The screenpipe
reader's incremental settled mark uses them (SPEC.md §3a)."""
