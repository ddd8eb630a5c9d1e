"""The tools' argument types, with their limits in the input schemas, so a client sees
them before it calls. The window limits are the library's (``window.resolve``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ..window import MAX_HOURS
from .library import MAX_ROUTINE_DAYS, MAX_SEARCH_DAYS

MIN_BUDGET, MAX_BUDGET = 100, 100_000

Hours = Annotated[float, Field(gt=0, le=MAX_HOURS, description="hours back from now")]
# "today" and "yesterday" are resolved in the server's zone (--tz) when the call comes.
Day = Annotated[
    str, Field(description="a local day: YYYY-MM-DD, today or yesterday (in the server's zone)")
]
Days = Annotated[int, Field(ge=1, le=MAX_SEARCH_DAYS)]
RoutineDays = Annotated[int, Field(ge=1, le=MAX_ROUTINE_DAYS)]
Budget = Annotated[int, Field(ge=MIN_BUDGET, le=MAX_BUDGET, description="o200k tokens")]
MinMinutes = Annotated[float, Field(ge=0, le=24 * 60)]
Limit = Annotated[int, Field(ge=1, le=500)]
MinDays = Annotated[int, Field(ge=1, le=MAX_ROUTINE_DAYS)]
