"""What the user did inside a frame: actions, repairs of raw input, steps and patterns.

Everything here except the ``read_*`` modules is a pure function of its arguments.
"""
