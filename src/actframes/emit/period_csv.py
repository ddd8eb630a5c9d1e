"""A period as CSV for spreadsheets: one row per day and app (``date,weekday,app,seconds,
hours``; a day without capture is one row with no app), and a comparison as one row per
name (``group,name,this_s,vs_s,diff_s``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from ..period_types import PeriodDocument
from .timesheet import _hours

HEADER = ("date", "weekday", "app", "seconds", "hours")
COMPARE_HEADER = ("group", "name", "this_s", "vs_s", "diff_s")


def period_csv(doc: PeriodDocument) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(HEADER)
    for d in doc["days"]:
        apps = [a for a in d["apps"] if a["active_s"]]
        if not apps:
            w.writerow((d["day"], d["weekday"], "", 0, "0.00"))
            continue
        hours = _hours([a["active_s"] for a in apps])
        for a, h in zip(apps, hours, strict=True):
            w.writerow((d["day"], d["weekday"], a["app"], a["active_s"], h))
    return buf.getvalue()


def compare_csv(cmp: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COMPARE_HEADER)
    for group in ("totals", "apps", "projects", "categories"):
        rows = [cmp[group]] if group == "totals" else cmp[group]
        for r in rows:
            w.writerow((group, r["name"], r["active_s"], r["vs_s"], r["diff_s"]))
    return buf.getvalue()
