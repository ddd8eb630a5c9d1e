"""Simulated capture for tests and benchmarks: seeded workdays and writers that store
them as native, screenpipe-style and ActivityWatch files."""

from .aw_export import write_aw_export
from .generator import SimDay, simulate_day, simulate_days
from .writers import TS_STYLES, format_ts, write_native, write_screenpipe

__all__ = [
    "TS_STYLES",
    "SimDay",
    "format_ts",
    "simulate_day",
    "simulate_days",
    "write_aw_export",
    "write_native",
    "write_screenpipe",
]
