"""A tiny GTK 3 window for the accessibility tests, run with the system python3
(python3-gi): two buttons and a text field holding a value that must never be stored."""

import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

SECRET = "secret-value-4711"

window = Gtk.Window(title=sys.argv[1] if len(sys.argv) > 1 else "GTK test")
window.set_default_size(420, 220)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
for label in ("Save report", "Discard"):
    box.pack_start(Gtk.Button(label=label), False, False, 4)
entry = Gtk.Entry()
entry.set_text(SECRET)
box.pack_start(entry, False, False, 4)
window.add(box)
window.connect("destroy", Gtk.main_quit)
window.show_all()
Gtk.main()
