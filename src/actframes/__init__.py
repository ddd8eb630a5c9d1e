"""Activity Frames: compile screen-activity capture into deterministic activity frames."""

__version__ = "0.2.0"
