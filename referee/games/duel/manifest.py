"""The duel, as the rest of the app knows it (games.manifest)."""

from __future__ import annotations

from referee.games.duel.game import KIND
from referee.games.manifest import DeckKind, Manifest
from referee.rules import N_

GAME = Manifest(
    kind=KIND,
    name=N_("Duel %(n)s"),
    blurb=N_("Card duels from the table cards: rounds, hand cards, chance, extension."),
    index="duels.index",
    screen=("duels.show", "duel_id"),
    blueprints=("referee.games.duel.web:bp", "referee.games.duel.api:bp"),
    lists={"duels": "duel"},
    panel="referee.games.duel.web:player_panel",
    # D1–D3: the 36-card deck the duelists' table and hand cards come from
    decks=(DeckKind("playing", "referee.decks.kinds:playing",
                    "referee.printing.faces:draw_playing"),),
)
