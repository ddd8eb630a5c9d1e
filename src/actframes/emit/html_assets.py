"""The HTML report's inline CSS and script, and the Content-Security-Policy that allows
that script alone (by its hash) and no network at all."""

from __future__ import annotations

import base64
import hashlib
import json

from ..compile.disclosures import NO_INPUT_SPOT

CSS = """
:root{--label:15rem;--lane:22px;--ink:#1d2330;--muted:#5b6475;--line:#d9dde5;
--bg:#fff;--panel:#f6f7f9;--gap:rgba(120,120,130,.22);--away:rgba(60,130,220,.16)}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;padding:1rem 1.25rem 3rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",
Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
h1{font-size:1.35rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.4rem 0 .4rem}
h3{font-size:1rem;margin:1rem 0 .3rem}
.tz{font-weight:400;color:var(--muted);font-size:1rem}
.note,.hint{color:var(--muted);margin:.2rem 0 .5rem}
.skip{position:absolute;left:-999px;top:0}.skip:focus{left:1rem;background:#fff;padding:.3rem}
.summary{display:flex;flex-wrap:wrap;gap:.3rem 1.4rem;margin:.5rem 0}
.summary div{display:flex;gap:.4rem}.summary dt{color:var(--muted)}.summary dd{margin:0;
font-weight:600}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;margin:.3rem 0;color:var(--muted)}
.key{display:inline-block;width:1.6em;height:.9em;margin-right:.35em;vertical-align:-1px;
border-radius:2px}
.bar-key{background:hsl(210 55% 45%)}.flick-key{width:3px;background:#111}
.gap-key{background:var(--gap)}.away-key{background:var(--away);outline:1px solid
rgba(60,130,220,.35)}
.tl{position:relative;margin:.4rem 0}
.axis{position:relative;height:1.4rem;margin-left:var(--label);border-bottom:1px solid
var(--line)}
.tick{position:absolute;bottom:0;height:.45rem;border-left:1px solid var(--muted)}
.tick span{position:absolute;bottom:.45rem;transform:translateX(-50%);font-size:12px;
color:var(--muted);white-space:nowrap;font-variant-numeric:tabular-nums}
.axis.dense .tick:not(.t2) span{display:none}
.tick.first span{transform:none}.tick.last span{transform:translateX(-100%)}
.lanes{position:relative}
.shades{position:absolute;top:0;bottom:0;left:var(--label);right:0;pointer-events:none}
.grid{position:absolute;top:0;bottom:0;border-left:1px solid var(--line)}
.shade{position:absolute;top:0;bottom:0;min-width:1px}
.shade.gap{background:repeating-linear-gradient(135deg,var(--gap) 0 4px,transparent 4px 8px)}
.shade.away{background:var(--away)}
.lane{display:flex;align-items:center;height:var(--lane);border-bottom:1px solid
rgba(0,0,0,.05)}
.lane-name{flex:0 0 var(--label);display:flex;align-items:center;padding-right:.6rem;
white-space:nowrap;overflow:hidden;font-size:12.5px}
.n-app,.n-site{overflow:hidden;text-overflow:ellipsis;min-width:0}
.n-app{flex:0 100 auto;min-width:1.2em}.n-app.solo{flex:0 1 auto}
.n-site{flex:0 1 auto}.n-sep{flex:0 0 auto;white-space:pre}
.swatch{flex:0 0 auto}
.swatch{display:inline-block;width:.7em;height:.7em;border-radius:2px;margin-right:.4em}
.track{position:relative;flex:1 1 auto;height:100%}
.bar{position:absolute;top:3px;bottom:3px;min-width:2px;padding:0;margin:0;border:0;
border-radius:2px;background:var(--c);cursor:pointer;font:inherit}
.bar:hover{filter:brightness(1.25)}
.bar:focus{outline:none}
.bar:focus-visible,.bar.on{outline:2px solid #000;outline-offset:1px;z-index:2}
.flick{position:absolute;top:1px;bottom:1px;width:2px;margin-left:-1px;background:#111;
pointer-events:none;z-index:1}
.spans{color:var(--muted);margin:.3rem 0}.spans b{color:var(--ink);font-weight:600}
.empty{color:var(--muted)}
.detail{position:fixed;z-index:10;max-width:30rem;min-width:16rem;padding:.6rem .8rem;
background:#fff;border:1px solid #98a1b3;border-radius:6px;box-shadow:0 6px 24px
rgba(0,0,0,.18);font-size:13px;overflow-wrap:anywhere}
.detail h3{margin:0 0 .2rem;font-size:14px}
.detail dl{display:grid;grid-template-columns:auto 1fr;gap:.1rem .7rem;margin:.3rem 0}
.detail dt{color:var(--muted)}.detail dd{margin:0}
.detail ul{margin:.1rem 0;padding-left:1.1rem}
.ledger,.shares{list-style:none;margin:0;padding:0;max-width:70rem}
.lrow,.srow{display:grid;grid-template-columns:18rem 1fr 6.5rem 6.5rem;align-items:center;
gap:.6rem;padding:2px 0}
.lname{display:flex;white-space:nowrap;overflow:hidden;min-width:0}
.ltrack{height:14px;background:var(--panel);border-radius:2px}
.lbar{display:block;height:100%;min-width:1px;border-radius:2px}
.lmin,.lsec{text-align:right;font-variant-numeric:tabular-nums}.lsec{color:var(--muted)}
.total{font-weight:600}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:12.5px}
th,td{text-align:left;padding:.2rem .5rem;border-bottom:1px solid var(--line);
vertical-align:top}
td.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
summary{cursor:pointer}
@media (max-width:640px){
:root{--label:0px;--lane:30px}
body{padding:.6rem .6rem 14rem}
.axis .tick:not(.t2) span,.axis.dense .tick:not(.t4) span{display:none}
.lane{position:relative;align-items:flex-end;padding-top:12px}
.lane-name{position:absolute;top:0;left:0;right:0;font-size:11px;line-height:12px;
padding:0}
.track{height:18px}
.bar{top:2px;bottom:2px}
.lrow,.srow{grid-template-columns:1fr 5.5rem;grid-template-areas:"n m" "t s";gap:.1rem .5rem;
padding:4px 0}
.lname{grid-area:n}.ltrack{grid-area:t}.lmin{grid-area:m}.lsec{grid-area:s}
.detail{left:0!important;right:0;bottom:0;top:auto!important;max-width:none;
border-radius:10px 10px 0 0;max-height:45vh;overflow:auto}
}
@media print{.detail,.skip,.hint{display:none}}
"""

# The only script on the page (allowed by its hash). It reads the embedded document and
# writes text nodes only; the numbers it formats use the same integer rules as above.
SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("actframes-doc").textContent);
  // A day's page embeds its document; a period's page {period, documents}, one document
  // per lane, each bar naming its own by data-d.
  var docs = data.documents || [data];
  var panel = document.getElementById("detail");
  var tl = document.querySelector(".tl");
  if (!tl || !panel) { return; }
  var wide = window.matchMedia("(min-width: 641px)");
  var current = null;

  function dayOf(doc) { return doc.window.day || doc.window.start.slice(0, 10); }
  // Input is unmeasured where the source records none (its blind spot says so), not
  // where a day merely had none.
  function measured(doc) { return (doc.blind_spots || []).indexOf(NO_INPUT_SPOT) < 0; }
  function time(iso, day) {
    return iso.slice(0, 10) === day ? iso.slice(11, 19)
      : iso.slice(5, 10) + " " + iso.slice(11, 19);
  }
  function minutes(s) {
    var t = Math.floor((s * 10 + 30) / 60);
    return Math.floor(t / 10) + "." + (t % 10) + " min";
  }
  function name(app, site) { return site == null ? app : app + " \\u00b7 " + site; }
  function input(i) {
    return i.keys + " keys \\u00b7 " + i.clicks + " clicks \\u00b7 " + i.scrolls +
      " scrolls \\u00b7 " + i.copies + " copies \\u00b7 " + i.pastes + " pastes";
  }
  function node(tag, text) {
    var e = document.createElement(tag);
    if (text != null) { e.textContent = text; }
    return e;
  }
  function list(items) {
    var ul = node("ul");
    items.forEach(function (t) { ul.appendChild(node("li", t)); });
    return ul;
  }
  function fill(f, doc) {
    var day = dayOf(doc);
    var dl = node("dl");
    function row(k, v) {
      dl.appendChild(node("dt", k));
      var dd = node("dd");
      if (typeof v === "string") { dd.textContent = v; } else { dd.appendChild(v); }
      dl.appendChild(dd);
    }
    if (docs.length > 1) { row("day", day); }
    row("time", time(f.start, day) + "\\u2013" + time(f.end, day));
    row("active", minutes(f.active_s) + " (" + f.active_s + " s)");
    row("wall", minutes(f.wall_s) + " (" + f.wall_s + " s)");
    row("input", measured(doc) ? input(f.input) : "none recorded in this window");
    if (f.titles.length) { row("titles", list(f.titles)); }
    if (f.pages.length) {
      row("pages", list(f.pages.map(function (p) {
        return p.kind + " " + p.entity + (p.label ? " \\u201c" + p.label + "\\u201d" : "") +
          (p.count ? " \\u00d7" + p.count : "");
      })));
    }
    if (f.interruptions.length) {
      row("interruptions", list(f.interruptions.map(function (it) {
        return name(it.app, it.site) + " at " + time(it.at, day) + ", " + it.active_s + " s";
      })));
    }
    row("id", f.id + (f.device ? " \\u00b7 " + f.device : ""));
    panel.replaceChildren(node("h3", name(f.app, f.site)), dl);
  }
  function place(bar) {
    if (!wide.matches) { panel.style.left = ""; panel.style.top = ""; return; }
    var r = bar.getBoundingClientRect();
    var p = panel.getBoundingClientRect();
    var vw = document.documentElement.clientWidth;
    var vh = document.documentElement.clientHeight;
    var left = Math.max(8, Math.min(r.left, vw - p.width - 8));
    var top = r.bottom + 8;
    if (top + p.height > vh - 8) { top = Math.max(8, r.top - p.height - 8); }
    panel.style.left = left + "px";
    panel.style.top = top + "px";
  }
  function show(bar) {
    if (current) { current.classList.remove("on"); }
    current = bar;
    bar.classList.add("on");
    var doc = docs[Number(bar.dataset.d || 0)];
    fill(doc.frames[Number(bar.dataset.i)], doc);
    panel.hidden = false;
    place(bar);
  }
  function hide() {
    if (current) { current.classList.remove("on"); }
    current = null;
    panel.hidden = true;
  }
  function barOf(e) {
    var t = e.target;
    return t && t.classList && t.classList.contains("bar") ? t : null;
  }
  tl.addEventListener("mouseover", function (e) { var b = barOf(e); if (b) { show(b); } });
  tl.addEventListener("mouseout", function (e) {
    if (!barOf(e)) { return; }
    var f = document.activeElement;
    if (f && f.classList && f.classList.contains("bar")) { show(f); } else { hide(); }
  });
  tl.addEventListener("focusin", function (e) { var b = barOf(e); if (b) { show(b); } });
  tl.addEventListener("focusout", function (e) {
    if (barOf(e) && !tl.contains(e.relatedTarget)) { hide(); }
  });
  tl.addEventListener("click", function (e) { var b = barOf(e); if (b) { b.focus(); show(b); } });
  // The bar of ``lane`` nearest below ``bar`` on the axis: lanes share the axis (a
  // period's days are placed from their own starts), so positions, not instants.
  function nearest(lane, bar) {
    var bars = lane.querySelectorAll(".bar");
    var x = parseFloat(bar.style.left);
    var best = bars[0];
    for (var i = 0; i < bars.length; i++) {
      if (parseFloat(bars[i].style.left) <= x) { best = bars[i]; } else { break; }
    }
    return best;
  }
  // The next lane up or down that has a bar (a day without frames is passed over).
  function laneFrom(lane, down) {
    var other = lane;
    do {
      other = down ? other.nextElementSibling : other.previousElementSibling;
    } while (other && other.classList.contains("lane") && !other.querySelector(".bar"));
    return other && other.classList.contains("lane") ? other : null;
  }
  tl.addEventListener("keydown", function (e) {
    var b = barOf(e);
    if (!b) { return; }
    var next = null;
    var lane = b.closest(".lane");
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      var bars = Array.prototype.slice.call(lane.querySelectorAll(".bar"));
      var k = bars.indexOf(b) + (e.key === "ArrowRight" ? 1 : -1);
      next = bars[k] || null;
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      var other = laneFrom(lane, e.key === "ArrowDown");
      if (other) { next = nearest(other, b); }
    } else if (e.key === "Escape") {
      hide();
      e.preventDefault();
      return;
    }
    if (next) { next.focus(); e.preventDefault(); }
  });
  window.addEventListener("resize", function () { if (current) { place(current); } });
})();
""".replace("NO_INPUT_SPOT", json.dumps(NO_INPUT_SPOT), 1)

CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
    "script-src 'sha256-"
    + base64.b64encode(hashlib.sha256(SCRIPT.encode("utf-8")).digest()).decode("ascii")
    + "'; base-uri 'none'; form-action 'none'"
)
