"""Berserk-style battles in the tests that play every game of the registry alike
(tests/games/samples)."""

from __future__ import annotations

import random

from referee.games.berserk.rules import card_from_dict, card_to_dict

LISTING = "/api/v1/berserk/battles"
NAMES = ("Battle 1", "Бой №1")


def setup(rnd: random.Random) -> dict:
    def creature(code: str) -> dict:
        return card_to_dict(card_from_dict({
            "code": code, "name_en": code, "name_ru": code, "cost": 3, "lives": rnd.randint(
                2, 6), "movement": 2, "strike": [1, rnd.randint(1, 3), rnd.randint(2, 4)]}))
    return {"a": {"cards": [creature(f"A{i}") for i in range(rnd.randint(1, 3))]},
            "b": {"cards": [creature(f"B{i}") for i in range(rnd.randint(1, 3))]}}


def invariants(state) -> None:
    for c in state.creatures:
        assert c.dead or c.wounds < c.props.lives  # B10: dead at lives ≤ wounds


def created(api, a: int, b: int) -> tuple[str, dict]:
    """A battle needs a saved squad for each side first (B12)."""
    squads = [api("post", "/api/v1/berserk/squads", json={
        "player": p, "deck": "berserk-sample", "seat": seat, "cards": cards}).get_json()["id"]
        for p, seat, cards in ((a, "first", [{"code": "B01"}]),
                               (b, "second", [{"code": "B05"}]))]
    return LISTING, {"a": squads[0], "b": squads[1]}


def step(game: dict) -> tuple[str, dict]:
    return "actions", {"type": "tap", "creature": "a1"}
