"""Underworld: following an event that moves cards or steps (U5, U6): a card discarded, a
card given, one more castle card drawn, no second step this turn."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from referee.games.underworld.rules import (
    Challenge,
    Draw,
    EndTurn,
    EventDiscard,
    EventDone,
    EventDraw,
    EventGive,
    EventNoSecondStep,
    Fight,
    Option,
    PlayCard,
    State,
    Trade,
    action_from_dict,
    action_to_dict,
    allowed,
    apply,
    awaiting,
    legal_actions,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, player, run

EFFECTS = (EventDiscard("A", "M01"), EventGive("A", "B", "M01"), EventDraw("M05"),
           EventNoSecondStep())


def refused(state, action, rule: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert caught.value.rule == rule, caught.value.text
    return caught.value


def every_card(state: State) -> Counter:
    """Every castle card wherever it is: no effect may lose or copy one."""
    held = Counter(state.castle) + Counter(state.discard) + Counter([state.event] * bool(
        state.event))
    for p in state.players:
        held += Counter(p.inventory) + Counter(p.play_area) + Counter(p.allies)
    if state.encounter and state.encounter.monster:
        held[state.encounter.monster] += 1
    return held


def at_event(hands: dict | None = None, *before) -> State:
    """A's first step turned over the plague (an event with no challenge)."""
    return run(game(hands), *before, Draw("E02"))


# --- EventDiscard ------------------------------------------------------------------------

def test_U5_event_discards_a_card_from_the_inventory_or_the_play_area():
    s = at_event({"A": ["I03", "I01", "M01", "M01"]}, PlayCard("A", "I03"))
    cards = every_card(s)
    s = apply(s, EventDiscard("A", "I03", in_play=True))  # "discard your armour"
    assert player(s, "A").play_area == () and s.discard == ("I03",)
    s = apply(s, EventDiscard("B", "M01"))  # any player the text names
    assert player(s, "B").inventory == ("M01", "M01", "M01") and s.discard == ("I03", "M01")
    assert every_card(s) == cards and s.phase == "event" and s.event == "E02"
    s = apply(s, EventDone())
    assert s.phase == "step_over" and s.may_step and s.discard == ("I03", "M01", "E02")


def test_U5_event_discard_names_a_card_where_it_is_held():
    s = at_event({"A": ["I03", "I01", "M01", "M01"]}, PlayCard("A", "I03"))
    err = refused(s, EventDiscard("A", "I03"), "U5")  # in play, not in the inventory
    assert err.text == ("A does not hold I03 in the inventory; name a card held there: "
                        "I01, M01.")
    err = refused(s, EventDiscard("A", "I01", in_play=True), "U5")
    assert err.text == "A has no I01 in the play area; name a card in play: I03."
    err = refused(s, EventDiscard("B", "I01", in_play=True), "U5")
    assert err.text.endswith("name a card in play: —.")
    refused(s, EventDiscard("Z", "M01"), "U4")
    refused(s, EventDiscard("A", "X99"), "U5")


# --- EventGive ------------------------------------------------------------------------------

def test_U5_event_gives_a_card_one_way_unlike_a_trade():
    s = at_event({"A": ["I03", "I01", "M01", "M01"], "B": ["S01", "M01", "M01", "M01"]},
                 PlayCard("A", "I03"))
    cards = every_card(s)
    refused(s, Trade("A", "B", ("I01",), ()), "U10")  # by choice: never a gift
    s = apply(s, EventGive("A", "B", "I01"))  # "give a card to the player on your right"
    assert player(s, "A").inventory == ("M01", "M01")
    assert player(s, "B").inventory == ("S01", "M01", "M01", "M01", "I01")
    s = apply(s, EventGive("A", "C", "I03", in_play=True))  # from play into the inventory
    assert player(s, "A").play_area == () and player(s, "C").inventory[-1] == "I03"
    assert player(s, "C").play_area == () and every_card(s) == cards and s.discard == ()


def test_U5_event_give_needs_two_players_and_a_held_card():
    s = at_event({"A": ["I03", "I01", "M01", "M01"]})
    err = refused(s, EventGive("A", "A", "I01"), "U5")
    assert "cannot give a card to themselves" in err.text
    err = refused(s, EventGive("B", "A", "I01"), "U5")
    assert err.text == "B does not hold I01 in the inventory; name a card held there: M01."
    refused(s, EventGive("A", "B", "I01", in_play=True), "U5")
    refused(s, EventGive("A", "Z", "I01"), "U4")


# --- EventDraw ------------------------------------------------------------------------------

def test_U5_event_draws_one_more_card_into_the_active_inventory_and_takes_no_step():
    s = at_event()
    cards = every_card(s)
    left = s.castle.count("M05")
    s = apply(s, EventDraw("M05"))  # "take one more card": a monster too, and no fight
    assert player(s, "A").inventory == ("M01",) * 4 + ("M05",)
    assert s.castle.count("M05") == left - 1 and every_card(s) == cards
    assert (s.phase, s.step, s.encounter, s.may_step) == ("event", 1, None, True)
    s = run(s, EventDraw("S01"), EventDiscard("A", "M05"), EventDone())  # "keep it if a skill"
    assert player(s, "A").inventory[-1] == "S01" and "M05" in s.discard
    s = run(s, Draw("I01"), EndTurn())  # the second step is still open; 6 cards: cleanup
    assert s.phase == "cleanup" and awaiting(s).discard == 2


def test_U1_U5_event_draw_comes_from_the_castle_as_the_referee_knows_it():
    s = at_event()
    err = refused(s, EventDraw("C01"), "U1")  # a class card is never in the castle
    assert "No copy of C01" in err.text
    refused(s, EventDraw("X99"), "U1")
    empty = replace(s, castle=(), discard=("I01", "M02"))  # reading: the pile is reshuffled
    after = apply(empty, EventDraw("M02"))
    assert after.castle == ("I01",) and after.discard == ()
    assert player(after, "A").inventory[-1] == "M02"
    refused(replace(s, castle=(), discard=()), EventDraw("M02"), "U1")


# --- EventNoSecondStep --------------------------------------------------------------------------

def test_U6_event_ends_the_steps_no_second_step_this_turn():
    s = run(at_event(), EventNoSecondStep())
    assert s.phase == "event" and not s.may_step and not awaiting(s).may_step_again
    err = refused(s, EventNoSecondStep(), "U6")
    assert err.text == "The steps of this turn have already ended; end the event."
    s = apply(s, EventDone())
    assert s.phase == "step_over" and not s.may_step
    err = refused(s, Draw("M01"), "U6")
    assert "an event ended the steps" in err.text
    assert legal_actions(s) == (EndTurn(),)
    s = apply(s, EndTurn())
    assert s.phase == "draw" and s.may_step and awaiting(s).player == "B"


def test_U6_no_second_step_to_cancel_in_the_second_step():
    s = run(game(), Draw("I01"), Draw("E02"))
    assert s.step == 2
    err = refused(s, EventNoSecondStep(), "U6")
    assert "already the second step" in err.text
    assert EventNoSecondStep() not in legal_actions(s)


# --- only while an event is followed ---------------------------------------------------------

@pytest.mark.parametrize("action", EFFECTS)
def test_U5_event_effects_only_while_an_event_is_being_followed(action):
    s = game({"A": ["M01", "M01", "M01", "M01"], "B": ["M01", "M01", "M01", "M01"]})
    riot = run(s, Draw("E01"), Challenge("A", "B"))  # the event's own challenge is pending
    for state in (s, run(s, Draw("M04")), riot, run(s, Draw("I01"))):
        err = refused(state, action, "U5")
        assert "only while it is being followed" in err.text
    after = run(riot, Fight())  # scored: the event is followed again
    assert after.phase == "event" and apply(after, action) != after


def test_U5_allowed_and_legal_actions_offer_the_event_effects():
    s = at_event({"A": ["I03", "M01", "M01", "M01"]})
    options = allowed(s)
    for option in (Option("event_discard", ""), Option("event_give", ""),
                   Option("event_draw", "A"), Option("event_no_second_step", "A")):
        assert option in options
    legal = legal_actions(s)
    assert EventNoSecondStep() in legal and EventDraw("M05") in legal
    assert {a.code for a in legal if isinstance(a, EventDraw)} == set(s.castle)
    for option in ("event_discard", "event_give", "event_draw", "event_no_second_step"):
        assert option not in {o.action for o in allowed(game())}


def test_U5_event_effects_round_trip_through_json():
    give = EventGive("A", "B", "I03", in_play=True)
    assert action_to_dict(give) == {"kind": "event_give", "giver": "A", "receiver": "B",
                                    "code": "I03", "in_play": True}
    assert action_from_dict(action_to_dict(give)) == give
    assert action_from_dict({"kind": "event_discard", "player": "A", "code": "M01"}) == \
        EventDiscard("A", "M01")
    assert action_from_dict({"kind": "event_no_second_step"}) == EventNoSecondStep()
    assert action_from_dict({"kind": "event_draw", "code": "M05"}) == EventDraw("M05")
    for bad in ({"kind": "event_discard", "player": "A", "code": "M01", "in_play": "yes"},
                {"kind": "event_give", "giver": "A", "code": "M01"},
                {"kind": "event_draw", "code": 5}):
        with pytest.raises(RuleError):
            action_from_dict(bad)
