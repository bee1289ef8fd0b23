"""Ctrl-C while many games run: the first one asked for, the writes it must not cut.

A run of many games stops between two games on the first Ctrl-C, so that what was
printed and what was counted agree (``deferred_interrupt``); the pool's workers ignore
SIGINT and are started with it held (``held_interrupts``), so a Ctrl-C reaches only the
process that decides.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def deferred_interrupt() -> Iterator[Callable[[], bool]]:
    """Within the block, the first SIGINT only sets a flag (read by the function
    yielded); the second raises ``KeyboardInterrupt`` as usual."""
    hits: list[int] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        if hits:
            raise KeyboardInterrupt
        hits.append(signum)

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield lambda: False
        return
    try:
        yield lambda: bool(hits)
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def held_interrupts() -> Iterator[None]:
    """Within the block a SIGINT waits (blocked, not lost) and is delivered when it ends.

    For writes that must not be cut: a second Ctrl-C raises ``KeyboardInterrupt``
    where it lands, and landing inside a write to a full pipe left half an entry of
    a ``--json`` document behind (the rest was dropped, the closing written after it).
    Held, it lands after the write, between two entries.
    """
    if (
        not hasattr(signal, "pthread_sigmask")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
