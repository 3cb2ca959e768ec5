"""What Berserk's screens and its API both say: the stale notices of a battle, a
registered deck and a squad."""

from __future__ import annotations

from referee.rules import N_

STALE = N_("Someone else changed this battle first; the screen now shows it as it stands. "
           "Check it and enter your step again.")
DECK_STALE = N_("Someone else saved this deck first; the screen now shows their version. Make "
                "your change again.")
SQUAD_STALE = N_("Someone else saved this squad first; the screen now shows their version. "
                 "Make your change again.")
