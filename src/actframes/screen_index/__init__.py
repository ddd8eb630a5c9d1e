"""The screen-text index (#37): an SQLite FTS5 file in the cache folder, beside the store
and never in it, built from the words a store keeps of each capture (``ScreenText``),
redacted before they are written; searched by words and answered as activity frames
with evidence rows (``search.py``)."""
