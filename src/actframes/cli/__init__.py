"""The ``actframes`` command: a thin click shell over the library.

Exit codes: 0 success, 1 a data problem (bad or unreadable store), 2 a usage problem,
130 interrupted (Ctrl-C). A closed stdout (``| head``) ends the command quietly, status 0.
Errors are one line on stderr, never a traceback.

``main`` is the entry point. The click group (``group``) loads each command's module
only when that command runs (click takes ~25 ms to import): a plain ``actframes day``
call is parsed without it (``fast_day``), exactly as click would, and every other call,
and any ``day`` call with anything unusual, goes through click. Shared helpers are in
``common``, the options of ``day`` and of every store in ``options``.
"""

from __future__ import annotations

import gc
import os
import sys

# Loaded by the ``actframes`` program itself, the imports below make some ten thousand
# objects and no garbage: the cyclic collector waits until ``main`` knows the command
# (a one-shot command keeps it off, ``common.one_shot``; any other turns it back on).
_HELD = os.path.basename((getattr(sys, "argv", None) or [""])[0]) == "actframes"
_HELD = _HELD and gc.isenabled()
if _HELD:
    gc.disable()

from ..errors import INTERNAL_ERROR_EXIT, ActframesError, BusyError, locked_message  # noqa: E402
from . import common  # noqa: E402
from .fast_day import plain_day, run_plain  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    global _HELD
    common.Process.entry = argv is None
    common.Process.exit_early = False  # set by this call's command, never an earlier one's
    common.Process.store = None  # likewise
    plain = plain_day(sys.argv[1:] if argv is None else list(argv))
    if _HELD and (plain is None or argv is not None):
        gc.enable()  # not the one-shot day of this program: collect as usual
    _HELD = False
    try:
        if plain is not None:
            run_plain(plain)
        else:
            from .group import cli

            cli.main(args=argv, prog_name="actframes", standalone_mode=False)
        # Output still buffered fails here, not in the interpreter's last flush.
        sys.stdout.flush()
        if common.Process.entry:
            common.keep_compiled_patterns()
        if common.Process.exit_early:
            common.exit_now()
    except ActframesError as exc:
        _fail(str(exc), exc.exit_code)
    except (BrokenPipeError, common.StdoutClosed):
        # `actframes day | head` is not an error: stop quietly.
        _drop_stdout()
        if common.Process.exit_early:
            common.exit_now()
        sys.exit(0)
    except (KeyboardInterrupt, common.Interrupted):
        _drop_stdout()
        _fail("interrupted", 130)
    except Exception as exc:
        from_click = _click_error(exc)
        if from_click is not None:
            if from_click[1] == 130:
                _drop_stdout()
            _fail(*from_click)
        if type(exc).__name__ == "OperationalError" and "is locked" in str(exc):
            # A writer took the store's lock between two reads (sqlite3 not imported here).
            store = common.store_named(sys.argv[1:] if argv is None else list(argv))
            _fail(locked_message(store or "the capture store"), BusyError.exit_code)
        if os.environ.get("ACTFRAMES_DEBUG"):
            raise
        _fail(
            f"internal error: {type(exc).__name__}: {exc} (ACTFRAMES_DEBUG=1 shows more)",
            INTERNAL_ERROR_EXIT,
        )


def _click_error(exc: Exception) -> tuple[str, int] | None:
    """The one-line message and exit code of click's own errors (never raised before
    click is loaded)."""
    if "click" not in sys.modules:
        return None
    import click

    if isinstance(exc, click.exceptions.Abort):
        if isinstance(exc.__cause__, KeyboardInterrupt):  # Ctrl-C outside a command
            return "interrupted", 130
        return "aborted", 1
    if isinstance(exc, click.ClickException):
        # click's own usage errors come as one line too; --help says the rest.
        code = 2 if isinstance(exc, click.UsageError) else exc.exit_code
        return exc.format_message().replace("\n", " "), code
    return None


def _drop_stdout() -> None:
    """Send what stdout still buffers to /dev/null: the interpreter's last flush would
    fail on a closed pipe ("Exception ignored ... BrokenPipeError", status 120) or wait
    on a reader that stopped reading. Only as the program (never a caller's stdout)."""
    if not common.Process.entry:
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass  # no stdout file to replace: nothing can fail at exit either


def _fail(message: str, code: int) -> None:
    first = message.strip().splitlines()[0] if message.strip() else "error"
    sys.stderr.write(f"actframes: error: {first}\n")
    sys.exit(code)


__all__ = ["main"]
