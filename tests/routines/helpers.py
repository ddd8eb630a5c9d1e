"""Step streams for routine tests, built through the real step → routine-step path."""

from __future__ import annotations

from typing import Any

from actframes.routines.step_tokens import RStep, rsteps

DAY0 = 1_772_960_400_000  # 2026-03-08T09:00:00Z
DAY_MS = 86_400_000


def click(t_ms: int, name: str, role: str = "push button", **kw: Any) -> dict[str, Any]:
    return {"t_ms": t_ms, "op": "click", "target": {"role": role, "name": name}, **_base(kw)}


def type_(t_ms: int, name: str = "", role: str = "entry", **kw: Any) -> dict[str, Any]:
    tgt = {"target": {"role": role, "name": name}} if name else {}
    return {"t_ms": t_ms, "op": "type", "keys": 5, **tgt, **_base(kw)}


def navigate(t_ms: int, url: str, **kw: Any) -> dict[str, Any]:
    kw.setdefault("url", url)
    return {"t_ms": t_ms, "op": "navigate", **_base(kw)}


_ids = iter(range(1, 10_000_000))


def _base(kw: dict[str, Any]) -> dict[str, Any]:
    kw.setdefault("app", "Chromium")
    kw.setdefault("url", "https://claims.example.test/claims/new")
    i = next(_ids)
    kw.setdefault("events", [i])
    kw.setdefault("id", i)
    kw.setdefault("method", "recorded")
    return kw


def claim(
    t_ms: int, claim_id: int = 7, amount_text: str | None = None, landed_ms: int = 4000
) -> list[dict[str, Any]]:
    """One run of the claim routine: 7 steps, 4 s apart; the claim page shows
    ``landed_ms`` after the Submit click."""
    u = "https://claims.example.test/claims/new"
    steps = [
        navigate(t_ms, u),
        click(t_ms + 4000, "First name", "entry", x=400, y=200),
        type_(t_ms + 8000),
        click(t_ms + 12000, "Amount", "entry", x=400, y=260),
        type_(t_ms + 16000, text=amount_text) if amount_text else type_(t_ms + 16000),
        click(t_ms + 20000, "Submit", x=400, y=400),
        navigate(t_ms + 20000 + landed_ms, f"https://claims.example.test/claims/{claim_id}"),
    ]
    return steps


def noise(t_ms: int, k: int) -> list[dict[str, Any]]:
    """Free work that never repeats: distinct links."""
    return [click(t_ms + 5000 * i, f"link {k}-{i}", "link") for i in range(3)]


def stream(dicts: list[dict[str, Any]], tz: str = "UTC", device: str = "") -> list[RStep]:
    return rsteps(sorted(dicts, key=lambda s: (s["t_ms"], s["id"])), device, tz)
