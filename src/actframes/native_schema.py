"""The native store's identity: what the recorder that writes it (``capture/store.py``,
which holds the migrations) and the readers (``sources/``) must agree on. It lives here,
below both, so reading a store never needs the recorder."""

from __future__ import annotations

# ``PRAGMA user_version`` of a store migrated to the newest schema; a reader refuses newer.
SCHEMA_VERSION = 4
# ``PRAGMA application_id``: marks a native store so ``detect`` recognises it from the file.
APPLICATION_ID = 0x41465231  # "AFR1"
# Tables every version has: detection knows a store by them even without the mark.
CORE_TABLES = frozenset({"snapshots", "input_events"})
# Tables the native reader needs (version 1 onwards).
READ_TABLES = CORE_TABLES | {"afk"}
# Screen text (version 4, ``record --screen-text``): read by ``NativeSource.screen_text``,
# absent from older stores (which then hold none).
SCREEN_TEXT_TABLE = "screen_text"

# Apps the recorder writes when no window has the focus (``[none]``), or when its window
# source has reported nothing (``[silent]``: a KWin script or GNOME Shell extension that
# does not answer). Such a row holds its time, so the app before it stops earning there,
# but earns none itself: nobody's window was focused (``compile/no_window.py``).
NONE_APP = "[none]"
SILENT_APP = "[silent]"
NO_WINDOW_APPS = frozenset({NONE_APP, SILENT_APP})
