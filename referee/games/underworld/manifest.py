"""The Underworld (the castle game), as the rest of the app knows it (games.manifest)."""

from __future__ import annotations

from referee.games.manifest import DeckKind, Manifest
from referee.games.underworld.game import KIND
from referee.rules import N_

GAME = Manifest.laid_out(
    __name__, KIND, web="underworld",
    name=N_("Castle game %(n)s"),
    blurb=N_("Underworld: levels, monsters, items, classes, help and challenges."),
    # ``old``: the addresses under /castle it had first, sent on to /underworld
    more=("web:old",),
    # U1–U3: the castle deck and the class deck
    decks=(DeckKind("castle", "referee.decks.kinds:castle",
                    "referee.printing.faces:draw_castle", "referee.decks.kinds:castle_problems"),
           DeckKind("class", "referee.decks.kinds:class_card",
                    "referee.printing.faces:draw_castle", "referee.decks.kinds:class_problems")),
)
