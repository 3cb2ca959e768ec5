"""Coup rules engine: random legal games played to the end, invariants after every step."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.coup.rules import (
    ACTIONS,
    CHARACTERS,
    TOTAL_COINS,
    VARIANTS,
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Reveal,
    action_from_dict,
    action_to_dict,
    apply,
    awaiting,
    legal_actions,
    new_game,
    options,
    state_to_dict,
)
from referee.rules import RuleError

MAX_STEPS = 3000
EARN = ("income", "foreign_aid", "tax")


def check_invariants(state: CoupState, court: int) -> None:
    coins = [p.coins for p in state.players]
    assert all(c >= 0 for c in coins) and state.supply >= 0
    assert sum(coins) + state.supply == TOTAL_COINS  # C2: coins are conserved
    assert all(0 <= p.influence <= 2 for p in state.players)
    for character in CHARACTERS:  # C1: card counting
        shown = 1 if state.shown == character else 0
        limit = state.copies if character in state.in_play else 0
        assert state.face_up_count(character) + shown <= limit
    assert all(p.coins == 0 for p in state.players if not p.alive)  # C9
    assert state.court == court  # exchanges and shown cards keep the Court's size
    alive = [p.id for p in state.players if p.alive]
    if state.winner is not None:
        assert alive == [state.winner] and options(state) == ()  # C10
    else:
        assert len(alive) >= 2 and state.turn in alive
        q = awaiting(state)
        assert q.players and set(q.players) <= set(alive)
        assert options(state)


def candidates(state: CoupState) -> list[object]:
    """Every answer of the right shape for the question on screen, legal or not."""
    ids = [p.id for p in state.players] + ["Z"]
    kind = awaiting(state).kind
    wrong_step = [Declare(state.turn, "income"), Challenge(None), Block(None)]
    if kind == "declare":
        return [
            Declare(p, a, t) for p in ids for a in ACTIONS for t in [None, *ids]
        ] + [Challenge(None)]
    if kind == "challenge":
        return [Challenge(p) for p in [None, *ids]] + [Block(None)]
    if kind == "show_or_turn_up":
        shapes = [Reveal(p, c, s) for p in ids for c in CHARACTERS for s in (True, False)]
        return shapes + wrong_step
    if kind == "block":
        return [Block(p, c) for p in [None, *ids] for c in [None, *CHARACTERS]] + [
            Challenge(None)
        ]
    if kind == "lose_influence":
        return [LoseInfluence(p, c) for p in ids for c in CHARACTERS] + wrong_step
    return [ExamineVerdict(p, s) for p in ids for s in (True, False)] + wrong_step


def check_options_are_exact(state: CoupState) -> None:
    """``options`` lists exactly the answers ``apply`` accepts (and legal_actions the
    declarations); everything else is a RuleError."""
    accepted = []
    for action in candidates(state):
        try:
            apply(state, action)  # type: ignore[arg-type]
        except RuleError:
            continue
        accepted.append(action)
    assert set(accepted) == set(options(state))
    if awaiting(state).kind == "declare":
        assert set(legal_actions(state)) == set(accepted)


def choose(rng: random.Random, state: CoupState, calm: float = 0.6) -> object:
    """A legal answer; ``calm`` is how often the table lets a claim pass and a player
    just takes coins (a calm table plays long games, with forced coups and a dry
    supply). A coup, once affordable, is likely, so that every game finishes."""
    choices = options(state)
    coups = [a for a in choices if isinstance(a, Declare) and a.action == "coup"]
    if coups and rng.random() < 0.5:
        return rng.choice(coups)
    nobody = [a for a in choices if a in (Challenge(None), Block(None))]
    if nobody and rng.random() < calm:
        return nobody[0]
    earn = [a for a in choices if isinstance(a, Declare) and a.action in EARN]
    if earn and rng.random() < calm:
        return rng.choice(earn)
    return rng.choice(choices)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(2, 8),
    variant=st.sampled_from(VARIANTS),
    one_coin=st.booleans(),
    calm=st.sampled_from([0.6, 0.9, 0.99]),
)
def test_C1_C2_C9_C10_random_legal_games_keep_invariants_and_end_with_one_winner(
    seed, count, variant, one_coin, calm
):
    rng = random.Random(seed)
    ids = [f"P{i}" for i in range(count)]
    first = rng.choice(ids)
    state = new_game(ids, variant, first=first, one_coin_start=one_coin and count == 2)
    court = state.court
    check_invariants(state, court)
    for _ in range(MAX_STEPS):
        if state.winner is not None:
            break
        if rng.random() < 0.04:
            check_options_are_exact(state)
        action = choose(rng, state, calm)
        assert action_from_dict(json.loads(json.dumps(action_to_dict(action)))) == action
        before = len(state.log)
        state = apply(state, action)  # type: ignore[arg-type]
        assert len(state.log) > before  # every step leaves a readable line
        check_invariants(state, court)
    assert state.winner is not None
    assert [p.id for p in state.players if p.alive] == [state.winner]
    assert json.loads(json.dumps(state_to_dict(state)))["winner"] == state.winner


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(2, 5))
def test_C4_C7_C8_options_match_apply_on_early_steps(seed, count):
    rng = random.Random(seed)
    state = new_game([f"P{i}" for i in range(count)], rng.choice(VARIANTS))
    for _ in range(25):
        if state.winner is not None:
            break
        check_options_are_exact(state)
        state = apply(state, choose(rng, state))  # type: ignore[arg-type]
