"""The duel in the tests that play every game of the registry alike (tests/games/samples)."""

from __future__ import annotations

import random

LISTING = "/api/v1/duels"
NAMES = ("Duel 1", "Дуэль №1")  # game number 1, in English and in Russian


def setup(rnd: random.Random) -> dict:
    def duelist(player: int, suit: str) -> dict:
        deck = rnd.sample([f"{r}{suit}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K",
                                                  "A")], rnd.randint(0, 9))
        return {"player": player, "hp": rnd.randint(1, 4), "chance": rnd.randint(0, 3),
                "chance_max": 3, "cartridges": rnd.randint(1, 5), "duel_deck": deck,
                "suit": suit, "can_fight": True, "name": f"P{player}"}
    return {"a": duelist(1, "H"), "b": duelist(2, "C")}


def invariants(state) -> None:
    for side in (state.a, state.b):
        assert side.hp >= 0 and side.chance >= 0 and side.cartridges >= 0  # D8, D10
        assert len(set(side.table_cards)) == len(side.table_cards)  # D6: no card twice
        assert len(side.surrendered) <= side.hand_limit  # D5


def created(api, a: int, b: int) -> tuple[str, dict]:
    """The API call that starts a game between players a and b: its path and body."""
    return LISTING, {"a": a, "b": b}


def step(game: dict) -> tuple[str, dict]:
    """A step the new game takes: its path under the game and its body."""
    return "rounds", {"a": {"table": "10S"}, "b": {"table": "7H"}}
