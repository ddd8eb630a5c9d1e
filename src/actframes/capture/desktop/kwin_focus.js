// actframes: report the active window to the recorder (a KWin script, loaded over D-Bus
// by `actframes record run` on KDE Plasma Wayland and unloaded when it stops).
// Contract: org.actframes.Recorder /org/actframes/Recorder org.actframes.Recorder1
//   WindowActivated(s id, s app, s title, u pid) -- app is the resource class; an empty
//   id means no window has the focus. Only the active window's class, caption and
//   process id are sent: nothing is typed, read or stored here.
const SERVICE = "org.actframes.Recorder";
const PATH = "/org/actframes/Recorder";
const IFACE = "org.actframes.Recorder1";

function report(w) {
    if (!w) {
        callDBus(SERVICE, PATH, IFACE, "WindowActivated", "", "", "", 0);
        return;
    }
    const id = String(w.internalId);
    callDBus(SERVICE, PATH, IFACE, "WindowActivated", id, String(w.resourceClass || ""),
             String(w.caption || ""), w.pid > 0 ? w.pid : 0);
}

let watched = null;
function onCaption() {
    if (watched) report(watched);
}

function activated(w) {
    if (watched) watched.captionChanged.disconnect(onCaption);
    watched = w || null;
    if (watched) watched.captionChanged.connect(onCaption);
    report(watched);
}

// KWin 6 names windows "windows", KWin 5.27 "clients".
if (workspace.windowActivated) {
    workspace.windowActivated.connect(activated);
    activated(workspace.activeWindow);
} else {
    workspace.clientActivated.connect(activated);
    activated(workspace.activeClient);
}
