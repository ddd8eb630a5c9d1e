"""A GTK 3 window for the screen-text tests, run with the system python3 (python3-gi): a
label showing text that may be kept; a focused entry, a password entry and a text view
(Tab moves on, in that order) the test types into, whose contents must never be stored
unless typed text is opted in to, and the password entry's never."""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

SHOWN = "Quarterly zebra forecast"

window = Gtk.Window(title=sys.argv[1] if len(sys.argv) > 1 else "GTK text test")
window.set_default_size(420, 200)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
box.pack_start(Gtk.Label(label=sys.argv[2] if len(sys.argv) > 2 else SHOWN), False, False, 8)
entry = Gtk.Entry()
box.pack_start(entry, False, False, 8)
password = Gtk.Entry()
password.set_visibility(False)
box.pack_start(password, False, False, 8)
view = Gtk.TextView()
view.set_accepts_tab(False)
box.pack_start(view, True, True, 8)
window.add(box)
window.connect("destroy", Gtk.main_quit)
window.show_all()
entry.grab_focus()
Gtk.main()
