"""Underworld actions as JSON (the contract of the castle's API and its stored steps): each
action's ``kind`` and fields by name, the rule each one cites, and a malformed action
refused with its rule id and a sentence naming the field to correct."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.underworld.rules import (
    ACTIONS,
    AdjustMonster,
    AnswerHelp,
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
    PlayCard,
    PowerUp,
    Summon,
    Trade,
    action_from_dict,
    action_to_dict,
    apply,
)
from referee.games.underworld.rules.actions import check_action
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game

KINDS = ("draw, play, offer_help, answer_help, summon, power_up, adjust_monster, fight, "
         "challenge, event_level, event_discard, event_give, event_draw, "
         "event_no_second_step, event_done, change_class, keep_class, end_turn, discard, trade")

# (action, its JSON document, the rule it cites)
DOCUMENTS = [
    (Draw("M01"), {"kind": "draw", "code": "M01"}, "U5"),
    (PlayCard("A", "I04", "I03"),
     {"kind": "play", "player": "A", "code": "I04", "replaces": "I03"}, "U10"),
    (OfferHelp("B", "A", "I01"),
     {"kind": "offer_help", "helper": "B", "fighter": "A", "reward": "I01"}, "U11"),
    (AnswerHelp("B", True), {"kind": "answer_help", "helper": "B", "accept": True}, "U11"),
    (Summon("A", "S03", "M02"),
     {"kind": "summon", "player": "A", "skill": "S03", "monster": "M02"}, "U12"),
    (PowerUp("A", ("M01", "M02")),
     {"kind": "power_up", "player": "A", "discards": ["M01", "M02"]}, "U14"),
    (AdjustMonster(-2, "S02"), {"kind": "adjust_monster", "amount": -2, "card": "S02"}, "U7"),
    (Fight(), {"kind": "fight"}, "U7"),
    (Challenge("A", "B"), {"kind": "challenge", "challenger": "A", "defender": "B"}, "U13"),
    (EventLevel("B", -1), {"kind": "event_level", "player": "B", "delta": -1}, "U5"),
    (EventDiscard("B", "I01", True),
     {"kind": "event_discard", "player": "B", "code": "I01", "in_play": True}, "U5"),
    (EventGive("A", "B", "M01", False),
     {"kind": "event_give", "giver": "A", "receiver": "B", "code": "M01", "in_play": False},
     "U5"),
    (EventDraw("M03"), {"kind": "event_draw", "code": "M03"}, "U5"),
    (EventNoSecondStep(), {"kind": "event_no_second_step"}, "U6"),
    (EventDone(), {"kind": "event_done"}, "U5"),
    (ChangeClass("C01"), {"kind": "change_class", "code": "C01"}, "U9"),
    (KeepClass(), {"kind": "keep_class"}, "U9"),
    (EndTurn(), {"kind": "end_turn"}, "U6"),
    (Discard(("M01",)), {"kind": "discard", "codes": ["M01"]}, "U15"),
    (Trade("A", "B", ("M01",), ("I01", "I03")),
     {"kind": "trade", "player": "A", "partner": "B", "gives": ["M01"],
      "takes": ["I01", "I03"]}, "U10"),
]


@pytest.mark.parametrize(("action", "document", "rule"), DOCUMENTS)
def test_U5_each_action_has_its_json_kind_fields_and_rule(action, document, rule):
    assert action_to_dict(action) == document
    assert action_from_dict(json.loads(json.dumps(document))) == action
    assert (action.kind, action.rule) == (document["kind"], rule)


def test_U5_every_action_kind_is_documented_once():
    assert ", ".join(ACTIONS) == KINDS
    assert [type(a) for a, _, _ in DOCUMENTS] == list(ACTIONS.values())


@pytest.mark.parametrize(("document", "action"), [
    ({"kind": "play", "player": "A", "code": "I01"}, PlayCard("A", "I01", "")),
    ({"kind": "summon", "player": "A", "skill": "S03"}, Summon("A", "S03", "")),
    ({"kind": "adjust_monster", "amount": 3}, AdjustMonster(3, "")),
    ({"kind": "event_discard", "player": "B", "code": "I01"}, EventDiscard("B", "I01", False)),
    ({"kind": "event_give", "giver": "A", "receiver": "B", "code": "I01"},
     EventGive("A", "B", "I01", False)),
])
def test_U5_a_field_with_a_default_may_be_left_out(document, action):
    assert action_from_dict(document) == action


def malformed(call, *args) -> tuple[str, str]:
    with pytest.raises(RuleError) as caught:
        call(*args)
    return caught.value.rule, caught.value.text


@pytest.mark.parametrize(("document", "rule", "text"), [
    (None, "U5", f"Unknown action None; choose one of {KINDS}."),
    (["draw"], "U5", f"Unknown action None; choose one of {KINDS}."),
    ({}, "U5", f"Unknown action None; choose one of {KINDS}."),
    ({"kind": "dance"}, "U5", f"Unknown action dance; choose one of {KINDS}."),
    ({"kind": "draw", "code": "M01", "extra": 1}, "U5",
     "draw: unknown field extra; remove it."),
    ({"kind": "trade", "player": "A", "partner": "B", "gives": [], "takes": [], "with": "C"},
     "U10", "trade: unknown field with; remove it."),
    ({"kind": "draw"}, "U5", "draw: the field code is missing; add it."),
    ({"kind": "challenge", "challenger": "A"}, "U13",
     "challenge: the field defender is missing; add it."),
    ({"kind": "draw", "code": 7}, "U5",
     "draw: code must be text (a card code or a player id); correct it."),
    ({"kind": "offer_help", "helper": "B", "fighter": None, "reward": "I01"}, "U11",
     "offer_help: fighter must be text (a card code or a player id); correct it."),
    ({"kind": "event_level", "player": "A", "delta": 1.0}, "U5",
     "event_level: delta must be a whole number; correct it."),
    ({"kind": "event_level", "player": "A", "delta": True}, "U5",
     "event_level: delta must be a whole number; correct it."),
    ({"kind": "adjust_monster", "amount": "2"}, "U7",
     "adjust_monster: amount must be a whole number; correct it."),
    ({"kind": "answer_help", "helper": "B", "accept": 1}, "U11",
     "answer_help: accept must be true or false; correct it."),
    ({"kind": "event_give", "giver": "A", "receiver": "B", "code": "M01", "in_play": "no"},
     "U5", "event_give: in_play must be true or false; correct it."),
    ({"kind": "discard", "codes": "M01"}, "U15",
     "discard: codes must be a list of card codes; correct it."),
    ({"kind": "power_up", "player": "A", "discards": ["M01", 2]}, "U14",
     "power_up: discards must be a list of card codes; correct it."),
])
def test_U5_a_malformed_action_names_the_field_to_correct(document, rule, text):
    assert malformed(action_from_dict, document) == (rule, text)


@pytest.mark.parametrize(("action", "rule", "text"), [
    ("draw", "U5", f"This is not an Underworld action; choose one of {KINDS}."),
    (None, "U5", f"This is not an Underworld action; choose one of {KINDS}."),
    (Draw(None), "U5", "draw: code must be text (a card code or a player id); correct it."),
    (PlayCard("A", "I01", 3), "U10",
     "play: replaces must be text (a card code or a player id); correct it."),
    (Discard(["M01"]), "U15", "discard: codes must be a list of card codes; correct it."),
    (Trade("A", "B", ("M01",), ("I01", None)), "U10",
     "trade: takes must be a list of card codes; correct it."),
    (AnswerHelp("B", None), "U11", "answer_help: accept must be true or false; correct it."),
    (EventLevel("A", False), "U5", "event_level: delta must be a whole number; correct it."),
])
def test_U5_apply_and_to_dict_refuse_an_action_with_a_wrong_field(action, rule, text):
    assert malformed(check_action, action) == (rule, text)
    assert malformed(apply, game(), action) == (rule, text)
    assert malformed(action_to_dict, action) == (rule, text)


documents = st.sampled_from([d for _, d, _ in DOCUMENTS])


@given(documents)
@settings(max_examples=40, deadline=None)
def test_U5_to_dict_of_a_read_document_is_the_document(document):
    assert action_to_dict(action_from_dict(document)) == document
