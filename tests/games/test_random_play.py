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

from referee.games import registry
from referee.games.interface import FINISHED, IN_PROGRESS, GameKind
from tests.games.samples import every

MAX_STEPS = 60
SAMPLES = dict(every())  # each game's setup and invariants, from its own tests


def play_randomly(kind: GameKind, sample, seed: int) -> None:
    """One random legal game of ``kind`` from ``sample.setup``, checked at every step."""
    rnd = random.Random(seed)
    setup = json.loads(json.dumps(sample.setup(rnd)))  # as stored: plain JSON
    state = kind.start(setup)
    effects = kind.effects(None, state)
    assert all(type(v) is int for e in effects.values() for v in e.deltas.values())
    steps = []
    for _ in range(MAX_STEPS):
        sample.invariants(state)
        json.dumps(kind.read(state))  # the state reads as plain data
        if kind.finished(state):
            break
        legal = kind.legal(state)
        assert len(legal) > 0, f"{kind.name}: no legal action in {kind.status(state)}"
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


def test_every_kind_of_the_registry_is_played_here():
    assert list(SAMPLES) == [game.key for game in registry.GAMES]


@pytest.mark.parametrize("name", sorted(SAMPLES))
# A seed is opaque: shrinking it teaches nothing and can take minutes, so it is skipped.
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_legal_games_keep_every_promise(name, seed):
    play_randomly(registry.kind(name), SAMPLES[name], seed)
