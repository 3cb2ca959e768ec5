"""The server console: a warning that repeats under a burst is said once a minute.

Waitress warns "Task queue depth is N" for every request that waits for a thread. Under a
burst (a whole table tapping at once) that is hundreds of lines a minute on the
organizer's console, and a real message scrolls away. :class:`Sparse` lets the first
through, holds back the rest for a while and then says how many it held and the highest
depth among them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

QUEUE_LOGGER = "waitress.queue"  # waitress's own logger for the queue-depth warning


class Sparse(logging.Filter):
    """Pass a logger's records at most once every ``period`` seconds.

    The record let through after a quiet spell carries the count of those held back
    since the last one, and the largest number in their arguments (the deepest queue).
    """

    def __init__(self, period: float = 60.0, clock: Callable[[], float] = time.monotonic):
        super().__init__()
        self.period, self.clock = period, clock
        self.last: float | None = None
        self.held = 0
        self.peak: int | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        at = self.clock()
        numbers = [a for a in (record.args or ()) if isinstance(a, int)] \
            if isinstance(record.args, tuple) else []
        if self.last is not None and at - self.last < self.period:
            self.held += 1
            if numbers:
                self.peak = max(self.peak or 0, *numbers)
            return False
        if self.held and self.last is not None:
            peak = f", the highest {self.peak}" if self.peak is not None else ""
            record.msg = (f"{record.getMessage()} (and {self.held} more like it in the "
                          f"last {at - self.last:.0f} s{peak})")
            record.args = ()
        self.last, self.held, self.peak = at, 0, None
        return True


def quieten_queue_warnings(period: float = 60.0) -> Sparse:
    """Install :class:`Sparse` on waitress's queue logger (once) and return it."""
    logger = logging.getLogger(QUEUE_LOGGER)
    for existing in logger.filters:
        if isinstance(existing, Sparse):
            return existing
    sparse = Sparse(period)
    logger.addFilter(sparse)
    return sparse
