"""Berserk-style battles, as the rest of the app knows them (games.manifest)."""

from __future__ import annotations

from referee.games.berserk.game import KIND
from referee.games.manifest import DeckKind, Manifest, Table
from referee.rules import N_

GAME = Manifest.laid_out(
    __name__, KIND, web="berserk",
    name=N_("Battle %(n)s"),
    blurb=N_("Berserk-style creatures: squads, properties, strikes from dice."),
    more=("squads_web:bp", "registered_web:bp"),
    # besides the battles' list (the players seated in one), the squads' and the
    # registered decks' lists offer those who own one
    lists={"berserk_squads": "berserk_squads", "berserk_decks": "berserk_decks"},
    panel="view:player_panel",
    decks=(DeckKind("berserk", "referee.decks.kinds:berserk_card",
                    "referee.printing.berserk_face:draw_berserk"),),
    # saved squads (B12–B13) and registered decks (B14), each with its saves
    tables=(Table("berserk_squads", made=True), Table("berserk_squad_edits"),
            Table("berserk_decks", made=True), Table("berserk_deck_edits")),
)
