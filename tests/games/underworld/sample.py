"""The castle game in the tests that play every game of the registry alike
(tests/games/samples)."""

from __future__ import annotations

import random

from referee.decks import load_deck
from referee.games.underworld import rules as uw

LISTING = "/api/v1/underworld"
NAMES = ("Castle game 1", "Игра в замке №1")


def _stored_deck(name: str) -> dict:
    deck = load_deck(name)
    return {"name": deck.name, "cards": [{**uw.card_to_dict(e.card), "copies": e.copies}
                                         for e in deck.cards]}


def setup(rnd: random.Random) -> dict:
    castle = _stored_deck("castle-sample")
    pile = [c["code"] for c in castle["cards"] for _ in range(c["copies"])]
    rnd.shuffle(pile)
    seats = list(range(1, rnd.randint(2, 4) + 1))
    return {"players": seats, "castle": castle, "classes": _stored_deck("classes-sample"),
            "starting": {str(p): [pile.pop() for _ in range(4)] for p in seats},
            "passport_levels": False}


def invariants(table) -> None:
    assert all(1 <= p.level <= 10 for p in table.state.players)  # U4


def created(api, a: int, b: int) -> tuple[str, dict]:
    return LISTING, {"players": [a, b], "starting": {
        str(a): ["I02", "I06", "M01", "M01"], str(b): ["M06", "M06", "M08", "M08"]}}


def step(game: dict) -> tuple[str, dict]:
    return "actions", {"kind": "draw", "code": "M07"}
