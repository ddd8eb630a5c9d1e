"""Answerers: who answers the questions from a representation.

- ``none`` — no model: the deterministic reader in ``readers.py``.
- ``anthropic:NAME`` — Anthropic's Messages API through the official ``anthropic`` SDK
  (``pip install 'actframes[anthropic]'``), key from ``ANTHROPIC_API_KEY``.
- ``openai:NAME`` — OpenAI's Chat Completions through the official ``openai`` SDK
  (``pip install 'actframes[openai]'``), key from ``OPENAI_API_KEY``.
- ``cmd:'COMMAND …'`` — any command that reads a prompt on stdin and prints the answer
  on stdout (split like a shell would, run without a shell).

A model gets one prompt per (day, representation) holding the representation and every
question, and replies with one JSON object mapping question ids to answers. The same
model writes the ``summary`` representation from the raw rows, in chunks when they are
long. SDKs are imported only when asked for; a missing SDK, key or command is a one-line
error before any work is done.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any, Protocol

from ..emit.token_count import count_tokens
from ..errors import ActframesError, UsageError
from .questions import Question

DEFAULT_TIMEOUT_S = 600.0
MAX_ANSWER_TOKENS = 4096
SUMMARY_CHUNK_TOKENS = 100_000


class AnswererError(ActframesError):
    """A model or command that could not answer; one line."""


class Answerer(Protocol):
    name: str

    def complete(self, prompt: str) -> str: ...


def make_answerer(spec: str, timeout: float = DEFAULT_TIMEOUT_S) -> Answerer | None:
    """The answerer ``--model`` names; None for ``none`` (the deterministic reader)."""
    kind, _, arg = spec.partition(":")
    if spec == "none":
        return None
    if kind == "cmd" and arg.strip():
        return CmdAnswerer(arg, timeout)
    if kind == "anthropic" and arg:
        return AnthropicAnswerer(arg, timeout)
    if kind == "openai" and arg:
        return OpenAIAnswerer(arg, timeout)
    raise UsageError(f"--model {spec!r}: use none, anthropic:NAME, openai:NAME or cmd:'COMMAND'")


class CmdAnswerer:
    """A command that reads the prompt on stdin and prints its answer."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise UsageError(f"--model cmd: cannot split the command ({exc})") from exc
        if not self.argv:
            raise UsageError("--model cmd: needs a command")
        if shutil.which(self.argv[0]) is None:
            raise UsageError(f"--model cmd: no such command: {self.argv[0]}")
        self.name = f"cmd:{command}"
        self.timeout = timeout

    def complete(self, prompt: str) -> str:
        try:
            done = subprocess.run(
                self.argv,
                input=prompt.encode("utf-8"),
                capture_output=True,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise AnswererError(f"{self.argv[0]}: no answer within {self.timeout:g} s") from exc
        except OSError as exc:
            raise AnswererError(f"{self.argv[0]}: cannot run ({exc.strerror})") from exc
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            why = f": {err[-1]}" if err else ""
            raise AnswererError(f"{self.argv[0]} exited with status {done.returncode}{why}")
        return done.stdout.decode("utf-8", "replace")


def _sdk(module: str, extra: str, key_var: str, spec: str) -> Any:
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise UsageError(
            f"--model {spec} needs the {module} package: pip install 'actframes[{extra}]'"
        ) from exc
    if not os.environ.get(key_var):
        raise UsageError(f"--model {spec} needs {key_var} in the environment")
    return mod


class AnthropicAnswerer:
    def __init__(self, model: str, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.name = f"anthropic:{model}"
        self.model = model
        self._client = _sdk("anthropic", "anthropic", "ANTHROPIC_API_KEY", self.name).Anthropic(
            timeout=timeout
        )

    def complete(self, prompt: str) -> str:
        try:
            msg = self._client.messages.create(
                model=self.model,
                max_tokens=MAX_ANSWER_TOKENS,
                temperature=0,
                messages=[{"role": "user", "content": prompt}],
            )
        except Exception as exc:  # the SDK's errors: network, auth, limits
            raise AnswererError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        return "".join(getattr(b, "text", "") for b in msg.content)


class OpenAIAnswerer:
    def __init__(self, model: str, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.name = f"openai:{model}"
        self.model = model
        self._client = _sdk("openai", "openai", "OPENAI_API_KEY", self.name).OpenAI(timeout=timeout)

    def complete(self, prompt: str) -> str:
        try:
            r = self._client.chat.completions.create(
                model=self.model, messages=[{"role": "user", "content": prompt}]
            )
        except Exception as exc:  # the SDK's errors: network, auth, limits
            raise AnswererError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        return str(r.choices[0].message.content or "")


# ---------------------------------------------------------------------------- prompts

REP_INTRO = {
    "raw": "raw capture rows: one JSON object per snapshot of the focused window (local time,"
    " app, window title, URL; dur_s is the observed duration where the recorder measures it)",
    "context": "a context block compiled from the capture by deterministic rules"
    " (its first lines explain it)",
    "json": "a JSON document compiled from the capture by deterministic rules"
    " (durations in seconds, times ISO-8601 local with offset)",
    "summary": "a summary of the capture written by a language model",
}


def short_ids(questions: Sequence[Question]) -> dict[str, Question]:
    return {f"q{i + 1:02d}": q for i, q in enumerate(questions)}


def build_prompt(rep: str, text: str, day: str, tz: str, questions: Sequence[Question]) -> str:
    asked = "\n".join(f"{qid}: {q.text}" for qid, q in short_ids(questions).items())
    return (
        f"Below is a record of one person's computer activity on {day} (time zone {tz}),"
        f" given as {REP_INTRO.get(rep, rep)}.\n\n"
        "<record>\n" + text.rstrip("\n") + "\n</record>\n\n"
        "Answer each question from the record alone. Active time means time the person was"
        " at the screen, as the record measures it. Give times as local HH:MM. If the record"
        ' does not let you answer, answer "unknown".\n'
        "Reply with one JSON object only, mapping each question id to its answer in the"
        ' format the question asks for (for example {"q01": "Code", "q02": 42.5}).\n\n'
        f"Questions:\n{asked}\n"
    )


def parse_reply(reply: str, questions: Sequence[Question]) -> dict[str, Any]:
    """Answers by full question id; questions the reply does not answer are left out."""
    ids = short_ids(questions)
    obj: Any = None
    start, end = reply.find("{"), reply.rfind("}")
    if start != -1 and end > start:
        try:
            obj = json.loads(reply[start : end + 1])
        except ValueError:
            obj = None
    got: dict[str, Any] = {}
    if isinstance(obj, dict):
        got = {str(k).strip().lower(): v for k, v in obj.items()}
    else:  # lines "q01: answer"
        for m in re.finditer(r"^\s*(q\d{2})\s*[:=]\s*(.+?)\s*$", reply, re.MULTILINE):
            got[m.group(1).lower()] = m.group(2)
    return {q.qid: got[sid] for sid, q in ids.items() if sid in got}


def summary_prompt(chunk: str, day: str, tz: str, part: int, parts: int) -> str:
    which = f" (part {part} of {parts})" if parts > 1 else ""
    return (
        f"Below are raw capture rows of one person's computer activity on {day} (time zone"
        f" {tz}){which}: one JSON object per snapshot of the focused window.\n\n"
        "<rows>\n" + chunk.rstrip("\n") + "\n</rows>\n\n"
        "Write a summary of this activity that another reader will use, without the rows,"
        " to answer questions about the day: which apps and sites were used and for how long,"
        " when activity began and ended, the longest stretches of work, pull requests,"
        " issues and documents viewed and when, and breaks. Be factual and concise."
    )


def summarize(answerer: Answerer, raw: str, day: str, tz: str,
              chunk_tokens: int = SUMMARY_CHUNK_TOKENS) -> str:  # fmt: skip
    """An LLM-written summary of the raw rows; long days are summarized in chunks of at
    most ``chunk_tokens`` and the parts joined."""
    chunks = chunk_lines(raw, chunk_tokens)
    parts = []
    for i, chunk in enumerate(chunks, start=1):
        text = answerer.complete(summary_prompt(chunk, day, tz, i, len(chunks))).strip()
        parts.append(text if len(chunks) == 1 else f"Part {i} of {len(chunks)}:\n{text}")
    return "\n\n".join(parts) + "\n"


def chunk_lines(text: str, max_tokens: int) -> list[str]:
    """Whole lines, packed into chunks of at most ``max_tokens`` o200k tokens each."""
    chunks: list[str] = []
    buf: list[str] = []
    used = 0
    for line in text.splitlines():
        n = count_tokens(line) + 1
        if buf and used + n > max_tokens:
            chunks.append("\n".join(buf) + "\n")
            buf, used = [], 0
        buf.append(line)
        used += n
    if buf:
        chunks.append("\n".join(buf) + "\n")
    return chunks or [""]
