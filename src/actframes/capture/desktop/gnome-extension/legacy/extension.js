// actframes: the GNOME Shell 43 and 44 form of ../extension.js (same contract).
const {Gio, GLib} = imports.gi;

const IFACE = `<node>
  <interface name="org.actframes.Shell1">
    <method name="GetFocus">
      <arg type="s" direction="out" name="id"/>
      <arg type="s" direction="out" name="app"/>
      <arg type="s" direction="out" name="title"/>
      <arg type="u" direction="out" name="pid"/>
    </method>
    <signal name="FocusChanged">
      <arg type="s" name="id"/>
      <arg type="s" name="app"/>
      <arg type="s" name="title"/>
      <arg type="u" name="pid"/>
    </signal>
  </interface>
</node>`;

class ActframesFocus {
    enable() {
        this._window = null;
        this._titleId = 0;
        this._dbus = Gio.DBusExportedObject.wrapJSObject(IFACE, this);
        this._dbus.export(Gio.DBus.session, '/org/actframes/Shell');
        this._nameId = Gio.bus_own_name_on_connection(
            Gio.DBus.session, 'org.actframes.Shell', Gio.BusNameOwnerFlags.NONE, null, null);
        this._focusId = global.display.connect('notify::focus-window', () => this._onFocus());
        this._onFocus();
    }

    disable() {
        global.display.disconnect(this._focusId);
        if (this._window && this._titleId)
            this._window.disconnect(this._titleId);
        this._window = null;
        this._dbus.unexport();
        this._dbus = null;
        Gio.bus_unown_name(this._nameId);
    }

    _describe() {
        const w = this._window;
        if (!w)
            return ['', '', '', 0];
        const pid = w.get_pid();
        return [String(w.get_id()), w.get_wm_class() || '', w.get_title() || '', pid > 0 ? pid : 0];
    }

    GetFocus() {
        return this._describe();
    }

    _onFocus() {
        if (this._window && this._titleId)
            this._window.disconnect(this._titleId);
        this._window = global.display.focus_window;
        this._titleId = this._window
            ? this._window.connect('notify::title', () => this._emit()) : 0;
        this._emit();
    }

    _emit() {
        this._dbus.emit_signal('FocusChanged', new GLib.Variant('(sssu)', this._describe()));
    }
}

function init() {
    return new ActframesFocus();
}
