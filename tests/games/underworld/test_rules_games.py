"""Underworld: random legal games, with the invariants checked after every action."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.underworld.rules import (
    WEAPON,
    AdjustMonster,
    ClassCard,
    Draw,
    EventDiscard,
    EventDraw,
    EventGive,
    EventLevel,
    EventNoSecondStep,
    Fight,
    Item,
    Skill,
    State,
    Trade,
    action_from_dict,
    action_to_dict,
    allowed,
    apply,
    awaiting,
    fight_breakdown,
    legal_actions,
    new_game,
    state_to_dict,
    winner,
)
from referee.games.underworld.rules.state import player_of
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import CLASSES, full_castle

MAX_ACTIONS = 300
WEIGHTS = {"draw": 6, "fight": 6, "end_turn": 3, "play": 2, "offer_help": 1, "answer_help": 2,
           "summon": 1, "power_up": 1, "challenge": 3, "event_done": 3, "change_class": 2,
           "keep_class": 1, "discard": 1, "event_draw": 1, "event_no_second_step": 1,
           "event_discard": 1, "event_give": 1}


def check(state: State, total: int, draws: Counter) -> None:
    cards = {c.code: c for c in state.cards}
    for p in state.players:
        assert 1 <= p.level <= 10  # U4
        klass = cards.get(p.class_card)
        in_play = [cards[c] for c in p.play_area]
        types = Counter(c.item_type for c in in_play if isinstance(c, Item))
        for item_type, count in types.items():  # U10: one of each type, two weapons for some
            two = item_type == WEAPON and isinstance(klass, ClassCard) and klass.two_weapons
            assert count <= (2 if two else 1)
        skills = Counter(c.code for c in in_play if isinstance(c, Skill))
        assert all(n == 1 for n in skills.values())  # U10: no skill twice in play
        if not (isinstance(klass, ClassCard) and klass.magic):
            assert not any(getattr(c, "magic", False) for c in in_play)
        assert not p.powered or p.ability_used  # U14
    assert state.step in (1, 2) and draws[state.turn] <= 2  # U6
    held = sum(len(p.inventory) + len(p.play_area) + len(p.allies) for p in state.players)
    in_flight = (1 if state.event else 0) + (
        1 if state.encounter and state.encounter.monster else 0)
    assert held + in_flight + len(state.castle) + len(state.discard) == total  # no card lost
    classes = len(state.class_deck) + sum(bool(p.class_card) + len(p.past_classes)
                                          for p in state.players)
    assert classes == 13
    if state.phase == "over":  # U16/U17: exactly one winner, alone at level 10
        assert [p.id for p in state.players if p.level == 10] == [winner(state)]
        assert allowed(state) == () and legal_actions(state) == ()
    else:
        assert winner(state) is None and legal_actions(state)
        assert awaiting(state).player == state.players[state.active].id


def check_step(before: State, after: State, action) -> None:
    moved = {p.id for p, q in zip(before.players, after.players, strict=True)
             if p.level != q.level}
    if isinstance(action, Fight):
        enc = before.encounter
        assert moved <= {enc.fighter, enc.defender}  # U11: helpers keep their level
        assert all(abs(p.level - q.level) <= 1  # U8
                   for p, q in zip(before.players, after.players, strict=True))
    elif not isinstance(action, EventLevel):
        assert not moved
    if after.phase == "class_change" and before.phase != "class_change":
        # U9/U13: offered only on a fight the active player won, a monster or a challenge
        bd, enc, me = fight_breakdown(before), before.encounter, before.players[before.active].id
        assert isinstance(action, Fight) and after.streak >= 2
        won = bd.outcome == "win" if enc.fighter == me else bd.outcome == "loss"
        assert me in (enc.fighter, enc.defender) and won


def extra(state: State, rng: random.Random) -> list:
    """Open-ended actions legal_actions leaves out: trades, event levels, cards an event
    discards or gives, monster modifiers."""
    out: list = []
    holders = [p for p in state.players if p.inventory]
    if len(holders) >= 2 and rng.random() < 0.05:
        p, q = rng.sample(holders, 2)
        out.append(Trade(p.id, q.id, (rng.choice(p.inventory),), (rng.choice(q.inventory),)))
    if state.phase == "event" and rng.random() < 0.3:
        out.append(EventLevel(rng.choice(state.players).id, rng.choice((-1, 1, 2))))
    if state.phase == "event" and rng.random() < 0.4:
        p, q = rng.sample(state.players, 2)
        for in_play, cards in ((False, p.inventory), (True, p.play_area)):
            if cards:
                code = rng.choice(cards)
                out += [EventDiscard(p.id, code, in_play), EventGive(p.id, q.id, code, in_play)]
    if state.phase == "fight" and rng.random() < 0.1:
        out.append(AdjustMonster(rng.choice((-2, 2))))
    return [a for a in out if legal(state, a)]


def legal(state: State, action) -> bool:
    try:
        apply(state, action)
    except RuleError:  # e.g. a trade of a card promised as a reward (U11)
        return False
    return True


def pick(state: State, rng: random.Random):
    options = list(legal_actions(state)) + extra(state, rng)
    pool = state.castle or state.discard
    for kind in (Draw, EventDraw):  # the castle is shuffled: any copy is as likely
        if any(isinstance(a, kind) for a in options):
            options = [a for a in options if not isinstance(a, kind)] + [kind(rng.choice(pool))]
    weights = [WEIGHTS.get(a.kind, 2) for a in options]
    return rng.choices(options, weights)[0]


def play_game(seed: int, players: int, high: bool) -> tuple[State, State, list]:
    """Deal from a shuffled full deck and play random legal actions; the first state, the
    last state and the actions."""
    rng = random.Random(seed)  # chance for the test only: the engine never draws
    deck = full_castle()
    ids = [chr(ord("A") + i) for i in range(players)]
    pool = [c.code for c in deck]
    rng.shuffle(pool)
    hands = {pid: pool[4 * i:4 * i + 4] for i, pid in enumerate(ids)}
    levels = {pid: rng.randint(7, 9) if high else rng.randint(1, 4) for pid in ids}
    first = state = new_game(ids, deck, CLASSES, hands, levels)
    draws: Counter = Counter()
    record = []
    for _ in range(MAX_ACTIONS):
        check(state, len(deck), draws)
        if state.phase == "over":
            break
        action = pick(state, rng)
        after = apply(state, action)
        check_step(state, after, action)
        draws[after.turn] += isinstance(action, Draw)
        record.append(action)
        state = after
    check(state, len(deck), draws)
    return first, state, record


@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.booleans())
@settings(max_examples=30, deadline=None)
def test_U1_to_U17_random_legal_games_keep_the_invariants(seed, players, high):
    first, last, record = play_game(seed, players, high)
    replayed = first  # the store folds JSON actions: the fold must give the same game
    for action in record:
        replayed = apply(replayed, action_from_dict(json.loads(json.dumps(
            action_to_dict(action)))))
    assert replayed == last
    json.dumps(state_to_dict(last))


def test_U5_U6_random_games_follow_events_that_move_cards_and_end_steps():
    """Each event action in random games does what U5/U6 say: the card it discards goes
    from its holder to the discard pile, a card given lands in the receiver's inventory,
    an extra card comes from the castle into the active player's inventory without a step,
    and "no second step" leaves the player no second step this turn."""
    seen: Counter = Counter()
    for seed in range(6):
        state, _, record = play_game(seed, 3, False)
        for action in record:
            after = apply(state, action)
            if isinstance(action, EventDiscard | EventGive):
                holder = action.player if isinstance(action, EventDiscard) else action.giver
                pile = "play_area" if action.in_play else "inventory"
                before_cards = getattr(player_of(state, holder), pile)
                after_cards = getattr(player_of(after, holder), pile)
                assert Counter(before_cards) - Counter(after_cards) == Counter([action.code])
                if isinstance(action, EventDiscard):
                    assert after.discard == (*state.discard, action.code)
                else:
                    received = player_of(after, action.receiver).inventory
                    assert Counter(received) - Counter(
                        player_of(state, action.receiver).inventory) == Counter([action.code])
            elif isinstance(action, EventDraw):
                me = state.players[state.active].id
                assert Counter(state.castle or state.discard) - Counter(
                    after.castle or after.discard) == Counter([action.code])
                assert Counter(player_of(after, me).inventory) - Counter(
                    player_of(state, me).inventory) == Counter([action.code])
                assert after.step == state.step
            elif isinstance(action, EventNoSecondStep):
                assert not after.may_step
                assert after.step == state.step and after.turn == state.turn
            seen[action.kind] += 1
            state = after
    for kind in ("event_discard", "event_give", "event_draw", "event_no_second_step"):
        assert seen[kind] >= 1, seen


def test_U16_U17_random_games_at_high_levels_finish_with_one_winner():
    games = [play_game(seed, players, True)[1] for seed in range(4) for players in (2, 4)]
    done = [s for s in games if s.phase == "over"]
    assert len(done) >= 4 and all(winner(s) for s in done)


@given(st.integers(0, 2**32 - 1), st.integers(2, 5))
@settings(max_examples=10, deadline=None)
def test_U1_U5_U6_U17_the_draws_listed_are_exactly_the_draws_apply_accepts(seed, players):
    """legal_actions tries one draw for every code in the castle: each one it lists must
    be accepted, and none it leaves out."""
    rng = random.Random(seed)
    deck = full_castle()
    ids = [chr(ord("A") + i) for i in range(players)]
    pool = [c.code for c in deck]
    rng.shuffle(pool)
    state = new_game(ids, deck, CLASSES, {pid: pool[4 * i:4 * i + 4]
                                          for i, pid in enumerate(ids)},
                     {pid: rng.randint(1, 9) for pid in ids})
    seen = Counter()
    for _ in range(120):
        if state.phase == "over":
            break
        listed = set(legal_actions(state))
        for kind in (Draw, EventDraw):
            every = {kind(c) for c in set(state.castle or state.discard)}
            accepted = {a for a in every if legal(state, a)}
            assert {a for a in listed if isinstance(a, kind)} == accepted
            seen[kind.__name__] += bool(accepted)
        state = apply(state, pick(state, rng))
    assert seen["Draw"] >= 1
