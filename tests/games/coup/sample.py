"""Coup in the tests that play every game of the registry alike (tests/games/samples)."""

from __future__ import annotations

import random

from referee.games.coup.rules import TOTAL_COINS

LISTING = "/api/v1/coup"
NAMES = ("Coup table 1", "Стол «Переворота» №1")


def setup(rnd: random.Random) -> dict:
    count = rnd.randint(2, 6)
    return {"players": [str(i) for i in range(1, count + 1)],
            "variant": rnd.choice(["ambassador", "inquisitor"])}


def invariants(state) -> None:
    assert all(p.coins >= 0 for p in state.players)
    assert sum(p.coins for p in state.players) + state.supply == TOTAL_COINS  # C2
    alive = [p for p in state.players if p.alive]
    assert (state.winner is None) == (len(alive) >= 2)  # C10: exactly one winner


def created(api, a: int, b: int) -> tuple[str, dict]:
    return LISTING, {"players": [a, b]}


def step(game: dict) -> tuple[str, dict]:
    return "actions", {"type": "declare", "player": game.get("player_ids", [0])[0],
                       "action": "income", "target": None}
