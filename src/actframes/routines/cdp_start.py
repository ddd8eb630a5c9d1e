"""Starting the replay's browser robustly: a browser with its page open, or one error.

On a loaded machine a fresh headless Chromium now and then never answers its first
``Target.createTarget`` (seen on a 2-core CI machine: the 30 s timeout passes with no
reply). Nothing is wrong with the profile or the binary, and a new process answers at
once, so that start is made once more, in a new process; a second failure is one
``CDPError`` that says both starts failed and why.
"""

from __future__ import annotations

from pathlib import Path

from .cdp import Browser, CDPError

STARTS = 2  # the first start and one more


def start_browser(
    binary: str,
    *,
    timeout_ms: int = 30_000,
    headless: bool = True,
    user_data_dir: str | Path | None = None,
    sandbox: bool | None = None,
) -> Browser:
    """A ``Browser`` (options as its own) with its page open; CDPError after two failed
    starts, each ended by its process group before the next begins. An ``OSError`` (the
    binary cannot be run) is raised at once: a second start would fail the same way."""
    failures: list[str] = []
    while True:
        browser = Browser(
            binary,
            timeout_ms=timeout_ms,
            headless=headless,
            user_data_dir=user_data_dir,
            sandbox=sandbox,
        )
        try:
            browser.open_page()
            return browser
        except CDPError as exc:
            browser.close()  # the whole process group, before a new one uses the profile
            failures.append(str(exc))
        except BaseException:
            browser.close()  # a signal made an exit, or ^C: the group ends all the same
            raise
        if len(failures) == STARTS:
            first, second = failures
            why = second if first == second else f"{first}, then {second}"
            raise CDPError(f"{why} (started {STARTS} times, each in a new process)")
