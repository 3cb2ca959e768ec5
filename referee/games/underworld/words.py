"""What the underworld game's screens and its API both say: the stale notices."""

from __future__ import annotations

from referee.rules import N_

STALE = N_("Someone else changed this game first; the screen now shows it as it stands.")
STALE_LEVEL = N_("%(player)s's level changed since the screen was opened; check the fresh "
                 "level and settle the fight again.")
