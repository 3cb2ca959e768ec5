"""Coup, as the rest of the app knows it (games.manifest)."""

from __future__ import annotations

from referee.games.coup.game import KIND
from referee.games.manifest import DeckKind, Manifest
from referee.rules import N_

GAME = Manifest(
    kind=KIND,
    name=N_("Coup table %(n)s"),
    blurb=N_("Claims, challenges and blocks; coins and influence."),
    index="coup.index",
    screen=("coup.show", "game_id"),
    blueprints=("referee.games.coup.web:bp", "referee.games.coup.api:bp"),
    lists={"coup": "coup"},
    panel="referee.games.coup.web:player_panel",
    # C1, C5: the characters and the player aid, printed only
    decks=(DeckKind("coup", "referee.decks.kinds:coup", "referee.printing.faces:draw_coup",
                    "referee.decks.kinds:coup_problems"),),
)
