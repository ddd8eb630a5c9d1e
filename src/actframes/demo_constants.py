"""The demo's fixed facts, importable without the compiler (the CLI's help shows them)."""

DEMO_DAY = "2026-03-10"  # the one-day demo's date
DEMO_TZ = "Europe/Berlin"  # and its zone
# Two weeks: every routine of the simulated office repeats on several days.
DEMO_DAYS = 14
