"""A one-line progress bar on a terminal: count, rate and ETA.

It draws on stderr, at most ten times a second, and only when that stream is a
terminal (``Progress.wanted``); otherwise every method does nothing, so output
that is piped or captured never holds control characters. ``clear`` erases the
bar before other output goes to the same terminal; a later ``update`` draws it
again. ``bar_text`` is the pure formatting, tested on its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TextIO

INTERVAL = 0.1
WIDTH = 24
CLEAR_LINE = "\r\x1b[K"


def duration_text(seconds: float) -> str:
    """``1:05``, ``1:02:03``; ``--:--`` when unknown."""
    if math.isnan(seconds) or seconds < 0 or seconds > 99 * 3600:
        return "--:--"
    s = int(seconds + 0.5)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def bar_text(done: int, total: int | None, elapsed: float, unit: str = "games") -> str:
    """``[#######.........]  1,234/10,000  12%  456 games/s  ETA 0:19``."""
    rate = done / elapsed if elapsed > 0 else 0.0
    speed = f"{rate:,.0f} {unit}/s"
    if not total:
        return f"{done:,} {unit}  {speed}  {duration_text(elapsed)}"
    share = min(done / total, 1.0)
    filled = int(WIDTH * share)
    eta = (total - done) / rate if rate > 0 else float("nan")
    return (
        f"[{'#' * filled}{'.' * (WIDTH - filled)}]  {done:,}/{total:,}  {share:4.0%}  "
        f"{speed}  ETA {duration_text(max(eta, 0.0))}"
    )


class Progress:
    """The bar for one run; inert unless ``enabled``."""

    def __init__(
        self,
        stream: TextIO,
        total: int | None,
        enabled: bool,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.total = total
        self.enabled = enabled
        self.clock = clock
        self.start = clock()
        self.last = float("-inf")
        self.shown = False
        self.done = 0

    @staticmethod
    def wanted(stream: TextIO, disabled: bool) -> bool:
        isatty = getattr(stream, "isatty", None)
        return not disabled and isatty is not None and bool(isatty())

    def update(self, done: int) -> None:
        self.done = done
        if not self.enabled:
            return
        now = self.clock()
        if now - self.last >= INTERVAL:
            self.last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        self.stream.write(CLEAR_LINE + bar_text(self.done, self.total, now - self.start))
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write(CLEAR_LINE)
            self.stream.flush()
            self.shown = False  # drawn again at the next update due

    def finish(self) -> None:
        """The final state stays out of the way: the bar is erased."""
        self.clear()
