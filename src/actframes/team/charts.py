"""The report's PNG charts (matplotlib, no display): pooled time per site and h per
person. They show only what the report's tables show (the k-threshold applies)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TOP_SITES = 12


def write_charts(rep: dict[str, Any], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    # No creation time or software version in the files: same report, same bytes.
    meta = {"Software": None}

    sites = rep["time"]["sites"]["shown"][:TOP_SITES]
    fig, ax = plt.subplots(figsize=(8, 0.4 * max(len(sites), 3) + 1.2))
    names = [s["site"] for s in reversed(sites)]
    hours = [s["active_s"] / 3600 for s in reversed(sites)]
    ax.barh(names, hours, color="#4a7bb7")
    ax.set_xlabel("active hours, all people")
    ax.set_title(f"Time per site (sites of at least {rep['min_people']} people)")
    fig.tight_layout()
    p = out / "time_by_site.png"
    fig.savefig(p, dpi=90, metadata=meta)
    plt.close(fig)
    written.append(p)

    per = rep["h"]["per_person"]
    fig, ax = plt.subplots(figsize=(8, 4))
    for key, label, color in (
        ("delegable_pct", "in-sample", "#4a7bb7"),
        ("holdout_delegable_pct", "holdout", "#d9843b"),
    ):
        xs = [i for i, q in enumerate(per) if q[key] is not None]
        ax.scatter(xs, [per[i][key] for i in xs], label=label, color=color, s=18)
    ax.set_xticks(range(len(per)))
    ax.set_xticklabels([q["person"] for q in per], rotation=90, fontsize=7)
    ax.set_ylabel("h delegable, % of action steps")
    ax.set_title("h per person")
    ax.legend()
    fig.tight_layout()
    p = out / "h_by_person.png"
    fig.savefig(p, dpi=90, metadata=meta)
    plt.close(fig)
    written.append(p)
    return written
