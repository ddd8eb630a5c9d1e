"""R, the routine overhead ratio: tokens to re-derive a routine screen by screen against
tokens to inject its guarded plan (operational R) or its minimal script (ceiling R).

The cost model of re-deriving (every parameter an option, printed with the result):
step ``i`` (0-based) of an ``n``-step routine costs

    screenshots × image_tokens(screen) + context + i × history + reasoning

- ``image_tokens``: a screenshot of ``screen_w × screen_h`` pixels, scaled down (aspect
  kept) to at most ``MAX_EDGE`` px on the long edge and ``MAX_PIXELS`` in area, costs
  ⌈w·h / ``PIXELS_PER_TOKEN``⌉ tokens (the published vision pricing of current models);
- ``context``: the task, instructions and tool definitions sent with every step;
- ``history``: what each earlier step leaves in the context (action + observation note);
- ``reasoning``: the tokens the agent writes to decide each step.

Injected: the o200k tokens of the plan's canonical JSON (slots + guarded steps) and of
the script's lines. Both are counted on the routine itself, so R is per routine.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from math import isqrt
from typing import Any, NamedTuple

MAX_EDGE = 1568
MAX_PIXELS = 1092 * 1092  # the published table: 1092×1092 and 1456×819 are not scaled
PIXELS_PER_TOKEN = 750


class CostModel(NamedTuple):
    screen_w: int = 1920
    screen_h: int = 1080
    screenshots: int = 1
    context: int = 1500
    history: int = 150
    reasoning: int = 250

    def as_dict(self) -> dict[str, int]:
        return {**self._asdict(), "image_tokens": image_tokens(self.screen_w, self.screen_h)}


PARAMS = ("screen", "screenshots", "context", "history", "reasoning")


def image_tokens(w: int, h: int) -> int:
    if w <= 0 or h <= 0:
        return 0
    long = max(w, h)
    if long > MAX_EDGE:
        w, h = w * MAX_EDGE // long, h * MAX_EDGE // long
    if w * h > MAX_PIXELS:
        # both sides times sqrt(MAX_PIXELS / (w·h)), in integers
        w, h = isqrt(w * MAX_PIXELS // h), isqrt(h * MAX_PIXELS // w)
    return -(-w * h // PIXELS_PER_TOKEN)


def rederive_tokens(n_steps: int, m: CostModel) -> int:
    per = m.screenshots * image_tokens(m.screen_w, m.screen_h) + m.context + m.reasoning
    return n_steps * per + m.history * n_steps * (n_steps - 1) // 2


def injected_texts(routine: dict[str, Any]) -> tuple[str, str]:
    """(the guarded plan as injected, the minimal script)."""
    plan = {"id": routine["id"], "slots": routine["slots"], "plan": routine["plan"]}
    if routine.get("start_url"):
        plan["start_url"] = routine["start_url"]
    text = json.dumps(plan, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text, "\n".join(routine["script"])


class Cost(NamedTuple):
    rederive: int
    plan: int
    script: int

    @property
    def r_operational(self) -> float:
        return self.rederive / self.plan if self.plan else 0.0

    @property
    def r_ceiling(self) -> float:
        return self.rederive / self.script if self.script else 0.0


def cost(routine: dict[str, Any], m: CostModel, counter: Any) -> Cost:
    plan_text, script_text = injected_texts(routine)
    return Cost(rederive_tokens(routine["length"], m), counter(plan_text), counter(script_text))


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    if not s:
        return 0.0
    k = len(s) // 2
    return s[k] if len(s) % 2 else (s[k - 1] + s[k]) / 2


def quantile(xs: Sequence[float], q: int) -> float:
    """Nearest-rank percentile ``q`` (0–100)."""
    s = sorted(xs)
    if not s:
        return 0.0
    k = max(0, min(len(s) - 1, -(-q * len(s) // 100) - 1))
    return s[k]


def summary(costs: Sequence[Cost]) -> dict[str, Any]:
    op = [c.r_operational for c in costs]
    ce = [c.r_ceiling for c in costs]
    return {
        "routines": len(costs),
        "r_operational": _spread(op),
        "r_ceiling": _spread(ce),
    }


def _spread(xs: Sequence[float]) -> dict[str, float]:
    return {
        "median": round(median(xs), 1),
        "p10": round(quantile(xs, 10), 1),
        "p90": round(quantile(xs, 90), 1),
        "min": round(min(xs), 1) if xs else 0.0,
        "max": round(max(xs), 1) if xs else 0.0,
    }


def rederive_scaled(n_steps: int, m: CostModel, param: str, factor_pct: int) -> float:
    """``rederive_tokens`` with one parameter scaled by ``factor_pct``/100, exactly (half a
    screenshot per step is a screenshot every other step; ``screen`` scales both sides)."""
    f = factor_pct / 100
    img = image_tokens(m.screen_w, m.screen_h)
    shots, ctx, hist, rsn = m.screenshots, m.context, m.history, m.reasoning
    if param == "screen":
        img = image_tokens(m.screen_w * factor_pct // 100, m.screen_h * factor_pct // 100)
    per = {
        "screenshots": shots * f * img + ctx + rsn,
        "context": shots * img + ctx * f + rsn,
        "reasoning": shots * img + ctx + rsn * f,
    }.get(param, shots * img + ctx + rsn)
    h = hist * f if param == "history" else hist
    return n_steps * per + h * n_steps * (n_steps - 1) / 2


def _value(m: CostModel, param: str, factor_pct: int) -> str:
    if param == "screen":
        return f"{m.screen_w * factor_pct // 100}x{m.screen_h * factor_pct // 100}"
    v = getattr(m, param) * factor_pct / 100
    return f"{v:g}"


def sensitivity(
    routines: Sequence[dict[str, Any]],
    m: CostModel,
    counter: Any,
    factors: Sequence[int] = (50, 200),
) -> list[dict[str, Any]]:
    """Median R when each parameter alone is scaled (default ×0.5 and ×2)."""
    injected = [(r["length"], *map(counter, injected_texts(r))) for r in routines]
    out = []
    for p in PARAMS:
        for fct in factors:
            op = [rederive_scaled(n, m, p, fct) / a for n, a, _ in injected if a]
            ce = [rederive_scaled(n, m, p, fct) / b for n, _, b in injected if b]
            out.append(
                {
                    "param": p,
                    "factor_pct": fct,
                    "value": _value(m, p, fct),
                    "r_operational_median": round(median(op), 1),
                    "r_ceiling_median": round(median(ce), 1),
                }
            )
    return out
