"""The coin toss, as the rest of the app knows it: the one object the app reads."""

from __future__ import annotations

from referee.games.interface import GameKind, default_status
from referee.games.manifest import DeckKind, Manifest, Table
from referee.rules import N_
from tests.games.coin import rules

KIND = GameKind(name="coin", title=N_("Coin tosses"), start=rules.start, legal=rules.legal,
                apply=rules.apply, read=rules.read, action_from_dict=rules.action_from_dict,
                action_to_dict=rules.action_to_dict, status=default_status(rules.over))

GAME = Manifest(
    kind=KIND,
    name="Coin toss %(n)s",
    blurb="Heads or tails: a wrong call costs a life.",
    index="coin.index",
    screen=("coin.show", "game_id"),
    blueprints=("tests.games.coin.web:bp", "tests.games.coin.api:bp"),
    lists={"coin": "coin"},
    decks=(DeckKind("coin", "tests.games.coin.cards:card", "tests.games.coin.cards:face"),),
    # its own replicated table (the test makes it: a game with a table adds a migration)
    tables=(Table("coin_purses"),),
)
