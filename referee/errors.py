"""The one "someone else was first" error, for games and players alike.

A write names the version it was made against (a game's version, a player's sheet
version, an event not yet undone). When that is no longer how things stand, nothing is
applied and :class:`Conflict` carries the fresh object, so the screen or the API client
(HTTP 409) shows it as it is now.
"""

from __future__ import annotations


class Conflict(Exception):
    """A write made against an old version; ``fresh`` is what stands now."""

    def __init__(self, fresh: object, message: str | None = None) -> None:
        super().__init__(message or "stale version")
        self.fresh = fresh
        self.message = message  # an N_ msgid the reader should see, when there is one
