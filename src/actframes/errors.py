"""Errors the user can act on. Each carries a one-line message naming the file or field."""

from __future__ import annotations


class ActframesError(Exception):
    """Base class: a problem with the input or the request, never a bug."""

    exit_code = 1


class SourceError(ActframesError):
    """A whole-file problem: missing, unreadable, not a store we know, missing columns."""


class UsageError(ActframesError):
    """A request that cannot be served as asked (bad date, zone, options)."""

    exit_code = 2


class BusyError(SourceError):
    """A store another process holds locked (a writer mid-transaction): try again."""

    # sysexits.h EX_TEMPFAIL: a temporary failure, the user is invited to retry.
    exit_code = 75


def locked_message(path: object) -> str:
    """What a store another process holds locked says: its file, and to try again."""
    return f"{path}: locked by another process; try again"


# The exit status of an internal error (a bug): sysexits.h EX_SOFTWARE.
INTERNAL_ERROR_EXIT = 70
