"""Instruments that measure what the paper measures: token cost, compression, and
question answering against an independent oracle (``actframes bench …``).

- ``tokens_report`` — o200k tokens of the raw rows, the JSON document, YAML, Markdown and
  the context block of one day, and the compression ratio raw/block.
- ``oracle`` — reads the capture stores itself (sqlite3, json) and computes the truth with
  the documented measurement rules, sharing no code with the compiler or the emitters.
- ``questions`` — at least 12 questions per day, deterministic from the day and a seed.
- ``readers`` — the ``--model none`` answerer: reads a representation with the library's
  own parsers and answers what it makes answerable.
- ``answerers`` — models (``anthropic:``, ``openai:``, ``cmd:``) that answer from a prompt.
- ``scoring`` and ``report`` — the rules that judge an answer, and the JSON, Markdown and
  PNG outputs.

The rules are in docs/bench.md and SPEC.md ("Benchmarks").
"""
