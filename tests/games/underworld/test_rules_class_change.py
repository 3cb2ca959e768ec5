"""U9 with U13: a challenge between players is a fight, so a won one counts toward the two
fights won in a row and a lost (or drawn) one breaks the row (the reading on
``shared/rules/underworld.md``)."""

from __future__ import annotations

import pytest

from referee.games.underworld.rules import (
    Challenge,
    ChangeClass,
    Draw,
    EndTurn,
    EventDone,
    Fight,
    KeepClass,
    Option,
    allowed,
    apply,
    awaiting,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, player, run


def refused(state, action, rule: str) -> None:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert caught.value.rule == rule, caught.value.text


def test_U9_U13_a_monster_beaten_then_an_events_challenge_won_offers_the_class_card():
    # The case: A (level 5) beats a strength-2 monster, steps again, draws an
    # event that calls for a challenge and beats B (level 2) in it, in the same turn.
    s = run(game(levels={"A": 5, "B": 2}), Draw("M02"), Fight(), Draw("E01"),
            Challenge("A", "B"), Fight())
    assert (player(s, "A").level, player(s, "B").level) == (7, 1)
    assert s.phase == "class_change" and s.streak == 2
    assert {Option("change_class", "A"), Option("keep_class", "A")} <= set(allowed(s))
    s = apply(s, ChangeClass("C01"))
    # The class card is drawn at once; the event is then followed on and ended (U5).
    assert player(s, "A").class_card == "C01" and "C01" not in s.class_deck
    assert (s.phase, s.event) == ("event", "E01")
    s = apply(s, EventDone())
    assert s.phase == "step_over" and "E01" in s.discard
    refused(s, Draw("M01"), "U6")  # still never more than two steps


def test_U9_U13_keeping_the_class_after_a_won_challenge_goes_back_to_the_event():
    s = run(game(levels={"A": 5, "B": 2}), Draw("M02"), Fight(), Draw("E01"),
            Challenge("A", "B"), Fight(), KeepClass())
    assert s.phase == "event" and player(s, "A").class_card == ""
    assert len(s.class_deck) == 13


def test_U9_U13_a_challenge_won_then_a_monster_beaten_offers_the_class_card():
    s = run(game(levels={"A": 5, "B": 2}), Draw("E01"), Challenge("A", "B"), Fight())
    assert (s.phase, s.streak) == ("event", 1)
    s = run(s, EventDone())
    assert (s.phase, s.streak) == ("step_over", 1) and awaiting(s).may_step_again
    s = run(s, Draw("M02"), Fight())
    assert s.phase == "class_change"


def test_U9_U13_the_active_player_winning_as_the_defender_counts_too():
    # The event's text may make another player challenge the active one.
    s = run(game(levels={"A": 5, "B": 2}), Draw("M02"), Fight(), Draw("E01"),
            Challenge("B", "A"), Fight())
    assert (player(s, "A").level, player(s, "B").level) == (7, 1)
    assert s.phase == "class_change"


def test_U9_U13_a_challenge_lost_breaks_the_run_and_ends_the_steps():
    s = run(game(levels={"A": 3, "B": 6}), Draw("M02"), Fight())
    assert s.streak == 1
    s = run(s, Draw("E01"), Challenge("A", "B"), Fight())
    assert (player(s, "A").level, player(s, "B").level) == (3, 7)
    assert (s.phase, s.streak, s.may_step) == ("event", 0, False)
    refused(s, ChangeClass("C01"), "U9")
    s = run(game(levels={"A": 3, "B": 6}), Draw("E01"), Challenge("A", "B"), Fight(),
            EventDone())
    assert s.streak == 0 and not awaiting(s).may_step_again
    refused(s, Draw("M02"), "U6")  # U6: no second step after a lost fight


def test_U9_U13_two_challenges_won_in_one_event_are_two_fights_won_in_a_row():
    s = run(game(levels={"A": 6, "B": 2, "C": 2}), Draw("E01"), Challenge("A", "B"),
            Fight())
    assert s.phase == "event"
    s = run(s, Challenge("A", "C"), Fight())
    assert s.phase == "class_change" and s.event == "E01"


def test_U9_U13_a_won_then_a_lost_challenge_leave_no_run():
    s = run(game(levels={"A": 4, "B": 2, "C": 8}), Draw("E01"), Challenge("A", "B"),
            Fight(), Challenge("A", "C"), Fight(), EventDone())
    assert s.streak == 0 and not s.may_step


def test_U9_U13_a_drawn_challenge_breaks_the_run_like_a_drawn_fight():
    s = run(game(levels={"A": 3, "B": 4}), Draw("M02"), Fight(), Draw("E01"),
            Challenge("A", "B"), Fight())
    assert (player(s, "A").level, s.streak, s.phase) == (4, 0, "event")  # 4 vs 4: a draw
    assert s.may_step  # a draw is no loss (U6), but it is no win either (U9)


def test_U9_U13_a_challenge_between_two_others_is_no_fight_of_the_active_player():
    s = run(game(levels={"A": 5, "B": 2, "C": 6}), Draw("M02"), Fight(), Draw("E01"),
            Challenge("B", "C"), Fight())
    assert (s.phase, s.streak) == ("event", 1)  # neither counts nor breaks while followed
    s = apply(s, EventDone())
    assert s.streak == 0  # U9: the step had no fight of A's own
    s = run(s, EndTurn())
    assert s.streak == 0 and awaiting(s).player == "B"


# The first reading of U9/U13, kept for games started under it (games.service replays a
# game under the reading it was recorded with; a stored step is never re-judged).

def first_reading(state):
    from dataclasses import replace

    return replace(state, reading=1)


def test_U9_U13_first_reading_a_challenge_won_counts_for_nothing_toward_the_row():
    s = run(first_reading(game(levels={"A": 5, "B": 2})), Draw("M02"), Fight(),
            Draw("E01"), Challenge("A", "B"), Fight())
    assert (player(s, "A").level, player(s, "B").level) == (7, 1)
    # Only the monster counted: no class card, the event is followed on (U5).
    assert (s.phase, s.streak) == ("event", 1)
    refused(s, ChangeClass("C01"), "U9")
    s = apply(s, EventDone())
    assert (s.phase, s.streak) == ("step_over", 0)  # every event ended the row
    # Today's reading judges the same steps otherwise: it waits for the class card.
    today = run(game(levels={"A": 5, "B": 2}), Draw("M02"), Fight(), Draw("E01"),
                Challenge("A", "B"), Fight())
    refused(today, EventDone(), "U5")


def test_U9_U13_first_reading_a_challenge_lost_ends_the_steps_and_keeps_the_row():
    s = run(first_reading(game(levels={"A": 3, "B": 6})), Draw("M02"), Fight(),
            Draw("E01"), Challenge("A", "B"), Fight())
    assert (s.phase, s.streak, s.may_step) == ("event", 1, False)
    s = apply(s, EventDone())
    assert (s.streak, awaiting(s).may_step_again) == (0, False)


def test_U9_first_reading_after_a_class_change_the_step_ends():
    s = run(first_reading(game(levels={"A": 5, "B": 2})), Draw("M02"), Fight(),
            Draw("M01"), Fight())
    assert s.phase == "class_change"
    assert apply(s, KeepClass()).phase == "step_over"
    assert apply(s, ChangeClass("C01")).phase == "step_over"
