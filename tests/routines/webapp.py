"""A small local claims app for replay tests, in the spirit of Leno's "Reimbursement"
routine: a claim form (First name, Last name, Student ID, Amount, Date, Submit), a POST
that records the claim server-side, and a confirmation page with the claim number.

``ClaimsApp(variant)`` serves one version of it on 127.0.0.1 and a free port, in a thread:

- ``None``: the app as it was when the routine was recorded;
- ``renamed_button``: the Submit button reads "Send claim";
- ``moved_field``: the Student ID row moved below Date (same label);
- ``changed_url``: the form lives at /reimbursement/new-claim; the old path redirects there;
- ``missing_element``: the Student ID field is gone;
- ``duplicate_label``: a second textbox named "Amount" (an advance amount) sits in the form;
- ``covered_button``: a transparent banner lies over the Submit button (same name, place).

``submissions`` is every claim the server received, in order (thread-safe copy). ``/slow``
answers only after ``SLOW_S`` seconds (or when the app stops): a page still loading.
"""

from __future__ import annotations

import html
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

VARIANTS = (
    None,
    "renamed_button",
    "moved_field",
    "changed_url",
    "missing_element",
    "duplicate_label",
    "covered_button",
)

# (field id, label) in the recorded order.
FIELDS: tuple[tuple[str, str], ...] = (
    ("first_name", "First name"),
    ("last_name", "Last name"),
    ("student_id", "Student ID"),
    ("amount", "Amount"),
    ("date", "Date"),
)
FORM_PATH = "/claims/new"
MOVED_FORM_PATH = "/reimbursement/new-claim"
SLOW_S = 20

# Fixed-height rows, so a field moved by one row or more is far outside a 24 px tolerance.
STYLE = """
body { font: 16px sans-serif; margin: 16px; }
.row { height: 48px; display: flex; align-items: center; }
.row label { width: 140px; }
.row input { width: 240px; height: 28px; }
"""


def _row(field: str, label: str) -> str:
    return (
        f'<div class="row"><label for="{field}">{html.escape(label)}</label>'
        f'<input id="{field}" name="{field}" type="text" autocomplete="off"></div>'
    )


# With ``log_events``: every input-ish event in the page is posted to the server at once
# (a synchronous request in the capture phase, so the server has it before the page goes
# on), and ``ClaimsApp.events`` reads them even when another process drove the browser.
EVENT_LOGGER = """<script>
for (const type of ['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'paste',
                    'mousedown', 'mouseup', 'click', 'submit'])
  window.addEventListener(type, (e) => {
    const t = e.target;
    const field = t && t.id ? t.id : (t && t.tagName ? t.tagName.toLowerCase() : 'window');
    const x = new XMLHttpRequest();
    x.open('POST', '/events', false);
    x.send(JSON.stringify({type: e.type, field: field, path: location.pathname}));
  }, true);
</script>"""


def form_page(variant: str | None, log_events: bool = False) -> str:
    fields = list(FIELDS)
    if variant == "missing_element":
        fields = [f for f in fields if f[0] != "student_id"]
    if variant == "moved_field":
        sid = next(f for f in fields if f[0] == "student_id")
        fields = [f for f in fields if f[0] != "student_id"] + [sid]
    rows = [_row(f, label) for f, label in fields]
    if variant == "duplicate_label":
        rows.append(_row("advance_amount", "Amount"))
    button = "Send claim" if variant == "renamed_button" else "Submit"
    cover = ""
    if variant == "covered_button":
        # A banner over the button's row: a click at the button's centre would land on it.
        cover = (
            '<div id="banner" style="position:absolute;left:0;top:0;width:100%;'
            'height:100%;background:transparent"></div>'
        )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>New claim</title><style>{STYLE}</style></head><body>"
        + (EVENT_LOGGER if log_events else "")
        + "<h1>Reimbursement claim</h1>"
        '<form method="post" action="/claims">'
        + "".join(rows)
        + '<div class="row" style="position:relative">'
        f'<button id="submit" type="submit">{button}</button>{cover}</div>'
        "</form></body></html>"
    )


def confirmation_page(number: int) -> str:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Claim received</title>"
        "</head><body><h1>Claim received</h1>"
        f'<p>Claim number <strong id="claim-number">CL-{number:04d}</strong></p>'
        f'<p><a href="{FORM_PATH}">New claim</a></p></body></html>'
    )


class ClaimsApp:
    """The app in a daemon thread; use as a context manager (or start/stop)."""

    def __init__(self, variant: str | None = None, log_events: bool = False) -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}")
        self.variant = variant
        self.log_events = log_events
        self._lock = threading.Lock()
        self._submissions: list[dict[str, str]] = []
        self._events: list[dict[str, str]] = []
        self.slow_requests = threading.Event()  # set when /slow was asked for
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def form_url(self) -> str:
        return self.base + FORM_PATH

    @property
    def events(self) -> list[dict[str, str]]:
        """The page events posted by ``EVENT_LOGGER``, in order."""
        with self._lock:
            return [dict(e) for e in self._events]

    @property
    def submissions(self) -> list[dict[str, str]]:
        with self._lock:
            return [dict(s) for s in self._submissions]

    def start(self) -> ClaimsApp:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ClaimsApp:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        app = self
        form_path = MOVED_FORM_PATH if self.variant == "changed_url" else FORM_PATH

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass  # quiet test output

            def _send(self, status: int, body: str = "", location: str | None = None) -> None:
                data = body.encode()
                self.send_response(status)
                if location:
                    self.send_header("Location", location)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path == form_path:
                    self._send(200, form_page(app.variant, app.log_events))
                elif path == FORM_PATH:
                    self._send(302, location=form_path)  # the old route, moved
                elif path.startswith("/claims/") and path[8:].isdigit():
                    n = int(path[8:])
                    with app._lock:
                        known = 1 <= n <= len(app._submissions)
                    self._send(200, confirmation_page(n)) if known else self._send(404, "no")
                elif path == "/slow":
                    # Answers after SLOW_S seconds: a page that is still loading.
                    app.slow_requests.set()
                    app._stopping.wait(SLOW_S)
                    self._send(200, "<!doctype html><p>late</p>")
                elif path == "/":
                    self._send(200, f'<!doctype html><a href="{form_path}">New claim</a>')
                else:
                    self._send(404, "<!doctype html><h1>Not found</h1>")

            def do_POST(self) -> None:
                if self.path.split("?", 1)[0] == "/events":
                    length = int(self.headers.get("Content-Length") or 0)
                    event = json.loads(self.rfile.read(length).decode() or "{}")
                    with app._lock:
                        app._events.append({k: str(v) for k, v in event.items()})
                    self._send(204)
                    return
                if self.path.split("?", 1)[0] != "/claims":
                    self._send(404, "<!doctype html><h1>Not found</h1>")
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode()
                fields = dict(parse_qsl(body, keep_blank_values=True))
                with app._lock:
                    app._submissions.append(fields)
                    n = len(app._submissions)
                self._send(303, location=f"/claims/{n}")

        return Handler


# ---------------------------------------------------------------- the recorded routine

# Reads every field's and the button's centre as a recorder sees it: screen pixels, i.e.
# the viewport's origin on the screen plus the element's box.
MEASURE_JS = """(() => {
  const ox = window.screenX + (window.outerWidth - window.innerWidth);
  const oy = window.screenY + (window.outerHeight - window.innerHeight);
  const out = {};
  for (const el of document.querySelectorAll('input, button')) {
    const r = el.getBoundingClientRect();
    out[el.id] = [Math.round(ox + r.left + r.width / 2), Math.round(oy + r.top + r.height / 2)];
  }
  return out;
})()"""

# Logs every input-ish event in the page (capture phase, before the page's own handlers)
# into sessionStorage, so the log survives the form's navigation to the confirmation.
PROBE_KEY = "__replay_probe"
PROBE_JS = """(() => {
  const KEY = '__replay_probe';
  const log = (e) => {
    try {
      const t = e.target;
      const field = t && t.id ? t.id : (t && t.tagName ? t.tagName.toLowerCase() : 'window');
      const list = JSON.parse(sessionStorage.getItem(KEY) || '[]');
      list.push({type: e.type, field: field, path: location.pathname});
      sessionStorage.setItem(KEY, JSON.stringify(list));
    } catch (err) { /* about:blank has no sessionStorage */ }
  };
  for (const type of ['keydown', 'keyup', 'keypress', 'beforeinput', 'input', 'change',
                      'paste', 'mousedown', 'mouseup', 'click', 'submit', 'focusin'])
    window.addEventListener(type, log, true);
})()"""
READ_PROBE_JS = "JSON.parse(sessionStorage.getItem('__replay_probe') || '[]')"
READ_VALUES_JS = (
    "Object.fromEntries([...document.querySelectorAll('input')].map(i => [i.id, i.value]))"
)


# Points of the form's fields for the tests that start no browser; the browser tests
# measure the real ones (measure_points).
FIXED_POINTS = {
    "first_name": (290, 201),
    "last_name": (290, 249),
    "student_id": (290, 297),
    "amount": (290, 345),
    "date": (290, 393),
    "submit": (55, 441),
}


def measure_points(binary: str) -> dict[str, tuple[int, int]]:
    """Each field's and the button's centre in the unchanged app, in screen pixels, read
    in a browser launched as replay launches it (headless, default window)."""
    from actframes.routines.cdp_start import start_browser

    with ClaimsApp() as app:
        browser = start_browser(binary, sandbox=False)  # only this local app is opened
        try:
            browser.navigate(app.form_url)
            measured = browser.evaluate(MEASURE_JS)
        finally:
            browser.close()
    return {k: (int(v[0]), int(v[1])) for k, v in measured.items()}


def claim_routine(
    base: str,
    points: dict[str, tuple[int, int]],
    *,
    tolerance: int = 24,
    mark_destructive: bool = True,
) -> dict[str, Any]:
    """The Reimbursement routine as the miner would emit it: open the form, click and
    fill each field (Amount pasted from an Excel copy), click Submit."""
    host = base.split("://", 1)[1]
    form_template = host + FORM_PATH

    def guards(role: str, name: str, point: tuple[int, int]) -> list[dict[str, Any]]:
        return [
            {"check": "app", "app": "chromium"},
            {"check": "url", "template": form_template},
            {"check": "target", "role": role, "name": name},
            {"check": "position", "x": point[0], "y": point[1], "tolerance": tolerance},
        ]

    plan: list[dict[str, Any]] = [
        {
            "n": 1,
            "op": "navigate",
            "app": "chromium",
            "url": base + FORM_PATH,
            "guards": [{"check": "app", "app": "chromium"}],
            "expect_after": {"url": form_template},
        }
    ]
    for field, label in FIELDS:
        if field == "amount":
            plan.append(
                {
                    "n": len(plan) + 1,
                    "op": "copy",
                    "app": "Excel",
                    "target": {"role": "cell", "name": "B{row}"},
                    "guards": [{"check": "app", "app": "Excel"}],
                }
            )
        target = {"role": "textbox", "name": label}
        g = guards("textbox", label, points[field])
        plan.append(
            {"n": len(plan) + 1, "op": "click", "app": "chromium", "target": target, "guards": g}
        )
        plan.append(
            {
                "n": len(plan) + 1,
                "op": "paste" if field == "amount" else "type",
                "app": "chromium",
                "target": target,
                "value": "{" + field + "}",
                "guards": g,
            }
        )
    submit: dict[str, Any] = {
        "n": len(plan) + 1,
        "op": "click",
        "app": "chromium",
        "target": {"role": "button", "name": "Submit"},
        "guards": guards("button", "Submit", points["submit"]),
    }
    if mark_destructive:
        submit["destructive"] = True
    plan.append(submit)
    return {
        "id": "R0123456789",
        "title": "Reimbursement claim",
        "length": len(plan),
        "occurrences": 50,
        "days": 3,
        "start_url": base + FORM_PATH,
        "slots": [
            {
                "name": f,
                "step": next(s["n"] for s in plan if s.get("value") == "{" + f + "}"),
                "kind": "text",
            }
            for f, _ in FIELDS
        ],
        "plan": plan,
        "script": [],
    }


def step_of(routine: dict[str, Any], op: str, name: str) -> int:
    """The number of the plan step doing ``op`` on the element named ``name``."""
    return next(
        int(s["n"])
        for s in routine["plan"]
        if s["op"] == op and s.get("target", {}).get("name") == name
    )
