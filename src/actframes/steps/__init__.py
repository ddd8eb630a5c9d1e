"""What the user did inside a frame: actions, repairs of raw input, steps and patterns.

Everything here is a pure function over ``model.Action`` and the compiled document,
except ``store_queries.py``: the edge that reads a store (through ``sources/actions.py``)
and compiles it for ``actframes steps`` and ``patterns``.
"""
