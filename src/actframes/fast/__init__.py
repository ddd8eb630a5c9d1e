"""Speed helpers, gathered in one corner: light records without ``dataclasses``
(``records``), SHA-256 without ``hashlib`` on the hot path (``fasthash``), compiled
regular expressions cached across processes (``recache``) and compiled on first use
(``lazyre``). Each is a drop-in for the standard way, measured by ``make bench``.

Imports nothing: ``actframes day`` pays only for the helpers it uses."""
