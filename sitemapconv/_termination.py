"""Stopping cleanly on SIGTERM, SIGHUP and SIGINT: no temporary file survives, no output is torn.

A cron job or a container runtime stops a run with SIGTERM (and a closed terminal sends
SIGHUP); Python's default for both is to die on the spot, skipping every ``finally``, so the
temporary files of an atomic write stayed behind. :func:`terminating_signals` turns them into
a :class:`Terminated` exception, exactly as SIGINT already becomes ``KeyboardInterrupt``: the
writers' clean-up code runs, the old output is left as it was, and the command exits with
128 + the signal number, the shell's convention.

Two more guards live here because they belong to the same promise:

* :data:`pending` lists every temporary file not yet renamed into place, so the command can
  remove what an interrupted clean-up missed (:func:`remove_pending`).
* :func:`deferred` holds these signals back while a group of renames runs (the parts and
  index of a split run), so a signal never leaves half of them in place.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType

#: The signals that stop a run with clean-up (SIGINT keeps Python's KeyboardInterrupt).
STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)
_DEFERRED = (*STOP_SIGNALS, signal.SIGINT)

#: Temporary files written but not yet renamed into place (absolute paths).
pending: set[str] = set()


class Terminated(BaseException):
    """Raised in the main thread when SIGTERM or SIGHUP arrives during a run.

    A ``BaseException`` like ``KeyboardInterrupt``, so ``except Exception`` clauses let it
    pass and only ``finally`` blocks (the clean-up) run on its way out.
    """

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


@contextmanager
def terminating_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (main thread only).

    The first signal raises; later ones are ignored so that they cannot cut the clean-up
    short. The previous handlers are restored on the way out.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal fired
        if fired:
            return
        fired = True
        raise Terminated(signum)

    previous = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


@contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGTERM, SIGHUP and SIGINT back during the block; they arrive right after it.

    The handlers are swapped for one that only records the signal (a signal mask would not
    do: another thread may take the signal, and Python then runs the handler in the main
    thread anyway); on the way out the old handlers return and a recorded signal is raised
    again, so it is handled exactly as it would have been.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def record(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous = {sig: signal.signal(sig, record) for sig in _DEFERRED}
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        if caught:
            signal.raise_signal(caught[0])


def remove_pending() -> None:
    """Delete every temporary file that was not renamed into place."""
    while pending:
        path = pending.pop()
        with suppress(OSError):
            os.unlink(path)
