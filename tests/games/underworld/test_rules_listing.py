"""Underworld: ``legal_actions`` and ``allowed`` on one hand-made state of each phase, against
trying every candidate (``legal_reference``), and what they list named outright: a quick
companion to the random games of ``test_rules_legal.py``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.underworld.rules import (
    AnswerHelp,
    Challenge,
    ChangeClass,
    Discard,
    Draw,
    EndTurn,
    Fight,
    KeepClass,
    OfferHelp,
    Option,
    PlayCard,
    PowerUp,
    Summon,
    allowed,
    legal_actions,
)
from tests.games.underworld import legal_reference
from tests.games.underworld.test_rules_decks import game, run, with_class


def start():
    s = game({"A": ["I01", "I02", "S03", "M03"], "B": ["I03", "S01", "M04", "M01"]})
    return run(with_class(s, "A", "C04"), PlayCard("A", "I01"))  # a Vampire, sword in play


def fight():
    return run(start(), Draw("M09"))


STATES = {
    "draw": start,
    "fight": fight,
    "offer": lambda: run(fight(), OfferHelp("B", "A", "M03")),
    "promised": lambda: run(fight(), OfferHelp("B", "A", "M03"), AnswerHelp("B", True)),
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
    acts = legal_actions(fight())
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
