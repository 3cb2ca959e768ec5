"""Underworld: what the screens ask — whose turn it is and what is awaited (U5/U6/U15/U16),
who takes each action (U11, U13), which kinds are allowed now, and the state as JSON; and
``legal_actions``/``allowed`` on one hand-made state of each phase, against trying every
candidate (``legal_reference``): a quick companion to the random games of
``test_rules_legal.py``."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.underworld.rules import (
    AdjustMonster,
    AnswerHelp,
    Awaiting,
    Challenge,
    ChangeClass,
    Discard,
    Draw,
    EndTurn,
    EventDiscard,
    EventDone,
    EventDraw,
    EventGive,
    EventLevel,
    EventNoSecondStep,
    Fight,
    KeepClass,
    OfferHelp,
    Option,
    PlayCard,
    PowerUp,
    Summon,
    Trade,
    actor,
    allowed,
    apply,
    awaiting,
    legal_actions,
    state_to_dict,
    whose_turn,
    winner,
)
from referee.games.underworld.rules.query import choices
from tests.games.underworld import legal_reference
from tests.games.underworld.test_rules_decks import game, run, with_class


def holding(state, pid: str, inventory=(), play_area=()):
    """Test setup only: what ``pid`` holds."""
    players = tuple(replace(p, inventory=tuple(inventory), play_area=tuple(play_area))
                    if p.id == pid else p for p in state.players)
    return replace(state, players=players)


def test_U5_U16_whose_turn_and_the_winner():
    s = game()
    assert whose_turn(s) == "A" and winner(s) is None
    s = run(s, Draw("M01"), Fight(), EndTurn())
    assert whose_turn(s) == "B" and winner(s) is None
    assert winner(replace(s, phase="over", winner="C")) == "C"


def test_U6_U15_what_is_awaited():
    s = game({"A": ["I01", "M01", "M01", "M01"]})
    assert awaiting(s) == Awaiting("draw", "A", 1, True, (), 0, "")
    f = apply(s, Draw("M05"))
    assert awaiting(f) == Awaiting("fight", "A", 1, True, ("A",), 0, "")
    lost = apply(f, Fight())
    assert awaiting(lost) == Awaiting("step_over", "A", 1, False, (), 0, "")
    second = run(s, Draw("S01"), Draw("M01"))
    assert awaiting(second) == Awaiting("fight", "A", 2, False, ("A",), 0, "")
    pvp = run(s, Draw("E01"), Challenge("B", "C"))
    assert awaiting(pvp) == Awaiting("challenge", "A", 1, True, ("B", "C"), 0, "")
    # U15: at cleanup, how many cards are over 4
    full = run(s, Draw("S01"), Draw("I03"), EndTurn())
    assert awaiting(full) == Awaiting("cleanup", "A", 2, False, (), 2, "")
    assert awaiting(replace(full, phase="step_over")).discard == 0
    assert awaiting(holding(full, "A", ["M01"])).discard == 0
    # U17: a play-off turn takes no step; U16: the winner is shown
    assert awaiting(replace(s, phase="playoff")).may_step_again is False
    assert awaiting(replace(s, phase="over", winner="B")).winner == "B"


def test_U11_U13_who_takes_each_action():
    s = run(game(), Draw("M01"), Fight(), EndTurn())  # B's turn
    assert whose_turn(s) == "B"
    f = run(s, Draw("M05"), OfferHelp("C", "B", "M01"), OfferHelp("A", "B", "M01"))
    for action in (Fight(), AdjustMonster(2), EventLevel("C", 1), EventDiscard("C", "M01"),
                   EventGive("C", "A", "M01")):
        assert actor(f, action) == ""  # the referee enters these
    assert actor(f, AnswerHelp("C", True)) == "B"  # the fighter answers an offer
    assert actor(f, AnswerHelp("B", True)) == ""  # no such offer
    assert actor(s, AnswerHelp("C", True)) == ""  # no fight at all
    assert actor(f, PlayCard("C", "M01")) == "C"
    assert actor(f, Trade("A", "C", ("M01",), ("M01",))) == "A"
    assert actor(f, PowerUp("C", ())) == "C" and actor(f, Summon("A", "S03")) == "A"
    assert actor(f, OfferHelp("A", "B", "M01")) == "A"
    assert actor(f, Challenge("C", "A")) == "C"
    for action in (Draw("M01"), EndTurn(), EventDone(), EventDraw("M01"), EventNoSecondStep(),
                   ChangeClass("C01"), KeepClass(), Discard(("M01",))):
        assert actor(f, action) == "B"  # the player in turn


def test_U7_U10_U11_which_kinds_are_allowed_and_who_takes_them():
    s = game()
    assert allowed(s) == (Option("draw", "A"), Option("trade", ""))
    # trading needs two players holding cards: two are enough
    two = holding(s, "C")
    assert Option("trade", "") in allowed(two)
    assert Option("trade", "") not in allowed(holding(two, "B"))
    f = apply(s, Draw("M05"))
    kinds = allowed(f)
    assert kinds[-2:] == (Option("trade", ""), Option("adjust_monster", ""))
    assert Option("fight", "") in kinds and Option("offer_help", "B") in kinds
    assert Option("adjust_monster", "") not in allowed(run(s, Draw("E01"),
                                                            Challenge("A", "B")))
    e = apply(s, Draw("E02"))
    assert allowed(e)[-4:] == (Option("trade", ""), Option("event_level", ""),
                               Option("event_discard", ""), Option("event_give", ""))
    bare = holding(holding(holding(e, "A"), "B"), "C", play_area=["I01"])
    assert allowed(bare)[-3:] == (Option("event_level", ""), Option("event_discard", ""),
                                  Option("event_give", ""))
    nothing = holding(bare, "C")
    assert allowed(nothing)[-1] == Option("event_level", "")
    assert Option("event_discard", "") not in allowed(nothing)
    assert allowed(replace(s, phase="over", winner="A")) == ()


def test_U5_U8_the_state_as_json():
    s = run(game({"A": ["I01", "M01", "M01", "M01"]}), PlayCard("A", "I01"), Draw("M05"),
            OfferHelp("B", "A", "M01"), AnswerHelp("B", True), AdjustMonster(-1, "S02"))
    d = json.loads(json.dumps(state_to_dict(s)))
    assert {k: d[k] for k in ("phase", "turn", "step", "round", "active", "streak",
                              "may_step", "playoff", "winner", "can_draw", "event")} == {
        "phase": "fight", "turn": 1, "step": 1, "round": 1, "active": "A", "streak": 0,
        "may_step": True, "playoff": False, "winner": "", "can_draw": True, "event": ""}
    assert d["players"][0] == {"id": "A", "level": 1, "class": "", "past_classes": [],
                               "inventory": ["M01"] * 3, "play_area": ["I01"],
                               "allies": [], "powered": False, "ability_used": False}
    assert d["encounter"] == {"fighter": "A", "monster": "M05", "defender": "",
                              "from_event": False,
                              "modifiers": [{"card": "S02", "amount": -1}],
                              "offers": [{"helper": "B", "fighter": "A", "reward": "M01",
                                          "accepted": True}]}
    assert d["breakdown"]["outcome"] == "draw"  # 1 + 2 + helper 1 = 4 vs 5 - 1
    assert d["castle"] == list(s.castle) and d["discard"] == [] and d["class_deck"][0] == "C01"
    assert {"code": "I01", "kind": "item", "name_en": "Sword", "name_ru": "Меч",
            "item_type": "weapon", "bonus": 2, "magic": False,
            "duration": "lasting"} in d["cards"]
    done = state_to_dict(apply(s, Fight()))
    assert done["encounter"] is None and done["breakdown"] is None


def test_U4_a_round_is_every_player_taking_one_turn():
    s = game()  # three players
    rounds = []
    for _ in range(7):
        rounds.append(state_to_dict(s)["round"])
        s = run(s, Draw("M01"), Fight(), EndTurn())
    assert rounds == [1, 1, 1, 2, 2, 2, 3]


@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=7), st.integers(-1, 8),
       st.sampled_from([-1, 1, 2, 3, 5]))
@settings(max_examples=80, deadline=None)
def test_U14_U15_choices_are_the_distinct_ways_to_pick_cards(cards, size, limit):
    ways = sorted(set(combinations(sorted(cards), size))) if size >= 0 else []
    assert choices(cards, size) == ways
    assert choices(cards, size, limit) == (ways if limit < 0 else ways[:limit])


# --- legal_actions on one state of each phase ----------------------------------------

def start():
    s = game({"A": ["I01", "I02", "S03", "M03"], "B": ["I03", "S01", "M04", "M01"]})
    return run(with_class(s, "A", "C04"), PlayCard("A", "I01"))  # a Vampire, sword in play


def fight_met():
    return run(start(), Draw("M09"))


STATES = {
    "draw": start,
    "fight": fight_met,
    "offer": lambda: run(fight_met(), OfferHelp("B", "A", "M03")),
    "promised": lambda: run(fight_met(), OfferHelp("B", "A", "M03"), AnswerHelp("B", True)),
    "event": lambda: run(start(), Draw("E01")),
    "plain event": lambda: run(start(), Draw("E02")),
    "challenge": lambda: run(start(), Draw("E01"), Challenge("B", "C")),
    "step over": lambda: run(start(), Draw("S01")),
    "cleanup": lambda: run(start(), Draw("S01"), Draw("I03"), EndTurn()),
    "class change": lambda: run(start(), Draw("M01"), Fight(), Draw("M02"), Fight()),
    "playoff": lambda: replace(start(), phase="playoff", playoff=True, players=tuple(
        replace(p, level=10) for p in start().players)),
}


@pytest.mark.parametrize("name", list(STATES))
def test_U5_U9_U11_U13_U14_U15_U17_each_phase_lists_what_every_candidate_tried_lists(name):
    state = STATES[name]()
    assert legal_actions(state) == legal_reference.legal_actions(state)
    assert allowed(state) == legal_reference.allowed(state)


def test_U10_U12_U14_a_fight_lists_each_card_play_power_up_and_summons():
    acts = legal_actions(fight_met())
    # a Vampire wields one weapon: the axe only replaces the sword
    assert [a for a in acts if isinstance(a, PlayCard)] == [PlayCard("A", "I02", "I01"),
                                                            PlayCard("A", "S03")]
    ups = [a for a in acts if isinstance(a, PowerUp)]
    assert ups == [PowerUp("A", combo) for combo in (("I02", "M03"), ("I02", "S03"),
                                                       ("M03", "S03"))]
    assert [a for a in acts if isinstance(a, Summon)] == [Summon("A", "S03"),
                                                          Summon("A", "S03", "M03")]
    assert Fight() in acts and OfferHelp("B", "A", "I01") in acts
    assert OfferHelp("C", "A", "S03") in acts and OfferHelp("A", "A", "I01") not in acts


def test_U11_U14_a_promised_card_is_never_offered_up_for_a_power_up():
    acts = legal_actions(STATES["promised"]())
    assert [a for a in acts if isinstance(a, PowerUp)] == [PowerUp("A", ("I02", "S03"))]
    assert not any(isinstance(a, AnswerHelp) for a in acts)
    assert not any(isinstance(a, OfferHelp) and a.helper == "B" for a in acts)
    offer = legal_actions(STATES["offer"]())
    assert AnswerHelp("B", True) in offer and AnswerHelp("B", False) in offer


def test_U9_U15_U17_the_turn_end_phases_list_their_choices():
    change = STATES["class change"]()
    assert change.phase == "class_change"
    acts = legal_actions(change)
    assert acts[0] == KeepClass() and ChangeClass("C01") in acts and len(acts) == 1 + 12
    cleanup = legal_actions(STATES["cleanup"]())
    assert cleanup == tuple(Discard((code,)) for code in ("I02", "I03", "M03", "S01", "S03"))
    assert allowed(STATES["cleanup"]()) == (Option("discard", "A"), Option("trade", ""))
    playoff = legal_actions(STATES["playoff"]())
    assert [a for a in playoff if isinstance(a, Challenge)] == [Challenge("A", "B"),
                                                                Challenge("A", "C")]


def test_U12_every_summoning_card_held_is_listed():
    from referee.games.underworld.rules import Skill, new_game
    from tests.games.underworld.test_rules_decks import CLASSES, small_castle
    trance = Skill("S05", "Trance", "Транс", 0, duration="immediate", summoning=True)
    s = new_game(["A", "B"], small_castle() + [trance], CLASSES,
                 {"A": ["S03", "S05", "M03", "M01"], "B": ["M01"] * 4}, check_decks=False)
    acts = legal_actions(run(s, Draw("M09")))
    assert [a for a in acts if isinstance(a, Summon)] == [
        Summon("A", "S03"), Summon("A", "S03", "M01"), Summon("A", "S03", "M03"),
        Summon("A", "S05"), Summon("A", "S05", "M01"), Summon("A", "S05", "M03")]


def test_U15_choices_keep_the_first_ways_and_count_copies_alike():
    assert choices(["c", "a", "b"], 2, 1) == [("a", "b")]
    assert choices(["c", "a", "b"], 1, 2) == [("a",), ("b",)]
    assert choices(["a", "a", "b", "b"], 2) == [("a", "a"), ("a", "b"), ("b", "b")]
    assert choices(["a", "a", "b", "b"], 3, 1) == [("a", "a", "b")]
