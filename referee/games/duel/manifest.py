"""The duel, as the rest of the app knows it (games.manifest)."""

from __future__ import annotations

from referee.games.duel.game import KIND
from referee.games.manifest import DeckKind, Manifest
from referee.rules import N_

GAME = Manifest.laid_out(
    __name__, KIND, web="duels", arg="duel_id",
    name=N_("Duel %(n)s"),
    blurb=N_("Card duels from the table cards: rounds, hand cards, chance, extension."),
    # D1–D3: the 36-card deck the duelists' table and hand cards come from
    decks=(DeckKind("playing", "referee.decks.kinds:playing",
                    "referee.printing.faces:draw_playing"),),
)
