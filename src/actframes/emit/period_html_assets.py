"""The period page's style, added after the day report's (``html_assets.CSS``): lanes of
days with a column of day totals, bars coloured one by one, the part of an axis a short
day lacks, the ledger as a table and the projects as stacked bars. The script and the
policy are the day report's own."""

from __future__ import annotations

PERIOD_CSS = """
.period{--tot:5.5rem;--lane:26px}
.period .axis{margin-right:var(--tot)}
.period .shades{right:var(--tot)}
.period .lane-name{font-variant-numeric:tabular-nums}
.period .track{background:linear-gradient(transparent 45%,var(--line) 45% 55%,transparent 55%)}
.dst{flex:0 0 auto;color:var(--muted);white-space:pre}
.dtotal{flex:0 0 var(--tot);text-align:right;font-variant-numeric:tabular-nums;
font-weight:600}
.beyond{position:absolute;top:0;bottom:0;right:0;background:repeating-linear-gradient(45deg,
rgba(0,0,0,.09) 0 3px,transparent 3px 7px)}
.beyond-key{background:repeating-linear-gradient(45deg,rgba(0,0,0,.18) 0 3px,transparent 3px 7px)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.pledger{min-width:44rem}
.pledger th[scope=row]{font-weight:400;max-width:20rem}
.pledger .lname{align-items:center}
.pledger td.pbar{width:30%;min-width:8rem;vertical-align:middle}
.pledger .ltrack{display:block}
.pkeys{margin:.2rem 0 .5rem}
.pstack{list-style:none;margin:0;padding:0;max-width:70rem}
.prow{display:grid;grid-template-columns:9rem 1fr 5.5rem;align-items:center;gap:.6rem;
padding:2px 0}
.pday{white-space:nowrap;font-variant-numeric:tabular-nums}
.ptrack{position:relative;height:16px;background:var(--panel);border-radius:2px}
.pseg{position:absolute;top:0;bottom:0;min-width:1px}
@media (max-width:640px){
.period{--tot:3.8rem}
.period .axis .tick:not(.t6) span{display:none}.period .axis.dense .tick.t6 span{display:inline}
.pledger{min-width:0}.pledger .pbar{display:none}
.prow{grid-template-columns:1fr 4rem;grid-template-areas:"d m" "t t";gap:.1rem .5rem}
.pday{grid-area:d}.ptrack{grid-area:t}.prow .lmin{grid-area:m}
}
"""
