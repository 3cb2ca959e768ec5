"""The wall clock of the store: every event's and every row's 'when'."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> str:
    """The current time, UTC, to the second: every event's 'when'."""
    return datetime.now(UTC).isoformat(timespec="seconds")
