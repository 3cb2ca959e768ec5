"""Coup, as the rest of the app knows it (games.manifest)."""

from __future__ import annotations

from referee.games.coup.game import KIND
from referee.games.manifest import DeckKind, Manifest
from referee.rules import N_

GAME = Manifest.laid_out(
    __name__, KIND, web="coup",
    name=N_("Coup table %(n)s"),
    blurb=N_("Claims, challenges and blocks; coins and influence."),
    # C1, C5: the characters and the player aid, printed only
    decks=(DeckKind("coup", "referee.decks.kinds:coup", "referee.printing.faces:draw_coup",
                    "referee.decks.kinds:coup_problems"),),
)
