"""Every game kind through the one interface: random legal games, checked at every step.

For each kind in the registry: start from a setup, pick a random action among
``legal(state)``, apply it, and check what every game promises: a legal action is never
refused, it survives its JSON round trip, the state reads as plain data, replaying the
steps rebuilds the same state, and the effects on passports are whole numbers. Then the
kind's own invariants (D8, D10, C2, U4, B10…).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.decks import load_deck
from referee.games import registry
from referee.games.berserk.rules import card_from_dict, card_to_dict
from referee.games.coup.rules import TOTAL_COINS
from referee.games.interface import FINISHED, IN_PROGRESS
from referee.games.underworld import rules as uw

MAX_STEPS = 60


def duel_setup(rnd: random.Random) -> dict:
    def duelist(player: int, suit: str) -> dict:
        deck = rnd.sample([f"{r}{suit}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K",
                                                  "A")], rnd.randint(0, 9))
        return {"player": player, "hp": rnd.randint(1, 4), "chance": rnd.randint(0, 3),
                "chance_max": 3, "cartridges": rnd.randint(1, 5), "duel_deck": deck,
                "suit": suit, "can_fight": True, "name": f"P{player}"}
    return {"a": duelist(1, "H"), "b": duelist(2, "C")}


def coup_setup(rnd: random.Random) -> dict:
    count = rnd.randint(2, 6)
    return {"players": [str(i) for i in range(1, count + 1)],
            "variant": rnd.choice(["ambassador", "inquisitor"])}


def _stored_deck(name: str) -> dict:
    deck = load_deck(name)
    return {"name": deck.name, "cards": [{**uw.card_to_dict(e.card), "copies": e.copies}
                                         for e in deck.cards]}


def underworld_setup(rnd: random.Random) -> dict:
    castle = _stored_deck("castle-sample")
    pile = [c["code"] for c in castle["cards"] for _ in range(c["copies"])]
    rnd.shuffle(pile)
    seats = list(range(1, rnd.randint(2, 4) + 1))
    return {"players": seats, "castle": castle, "classes": _stored_deck("classes-sample"),
            "starting": {str(p): [pile.pop() for _ in range(4)] for p in seats},
            "passport_levels": False}


def berserk_setup(rnd: random.Random) -> dict:
    def creature(code: str) -> dict:
        return card_to_dict(card_from_dict({
            "code": code, "name_en": code, "name_ru": code, "cost": 3, "lives": rnd.randint(
                2, 6), "movement": 2, "strike": [1, rnd.randint(1, 3), rnd.randint(2, 4)]}))
    return {"a": {"cards": [creature(f"A{i}") for i in range(rnd.randint(1, 3))]},
            "b": {"cards": [creature(f"B{i}") for i in range(rnd.randint(1, 3))]}}


SETUPS = {"duel": duel_setup, "coup": coup_setup, "underworld": underworld_setup,
          "berserk": berserk_setup}


def duel_invariants(state) -> None:
    for side in (state.a, state.b):
        assert side.hp >= 0 and side.chance >= 0 and side.cartridges >= 0  # D8, D10
        assert len(set(side.table_cards)) == len(side.table_cards)  # D6: no card twice
        assert len(side.surrendered) <= side.hand_limit  # D5


def coup_invariants(state) -> None:
    assert all(p.coins >= 0 for p in state.players)
    assert sum(p.coins for p in state.players) + state.supply == TOTAL_COINS  # C2
    alive = [p for p in state.players if p.alive]
    assert (state.winner is None) == (len(alive) >= 2)  # C10: exactly one winner


def underworld_invariants(table) -> None:
    assert all(1 <= p.level <= 10 for p in table.state.players)  # U4


def berserk_invariants(state) -> None:
    for c in state.creatures:
        assert c.dead or c.wounds < c.props.lives  # B10: dead at lives ≤ wounds


INVARIANTS = {"duel": duel_invariants, "coup": coup_invariants,
              "underworld": underworld_invariants, "berserk": berserk_invariants}


def test_every_kind_of_the_registry_is_played_here():
    assert set(SETUPS) == set(INVARIANTS) == set(registry.KINDS)


@pytest.mark.parametrize("name", sorted(registry.KINDS))
# A seed is opaque: shrinking it teaches nothing and can take minutes, so it is skipped.
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_keep_every_promise(name, seed):
    kind = registry.kind(name)
    rnd = random.Random(seed)
    setup = json.loads(json.dumps(SETUPS[name](rnd)))  # as stored: plain JSON
    state = kind.start(setup)
    effects = kind.effects(None, state)
    assert all(type(v) is int for e in effects.values() for v in e.deltas.values())
    steps = []
    for _ in range(MAX_STEPS):
        INVARIANTS[name](state)
        json.dumps(kind.read(state))  # the state reads as plain data
        if kind.finished(state):
            break
        legal = kind.legal(state)
        assert len(legal) > 0, f"{name}: no legal action in {kind.status(state)}"
        action = legal[rnd.randrange(len(legal))]
        stored = json.loads(json.dumps(kind.action_to_dict(action)))
        assert kind.action_from_dict(stored) == action  # the JSON round trip
        after = kind.apply(state, action)  # a legal action is never refused
        for effect in kind.effects(state, after).values():
            assert all(type(v) is int for v in effect.deltas.values())
        steps.append(stored)
        state = after
    assert kind.status(state) in (IN_PROGRESS, FINISHED, "extension")
    replayed = kind.replay(setup, [kind.action_from_dict(a) for a in steps])
    assert kind.read(replayed) == kind.read(state)
