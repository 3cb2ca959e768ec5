"""Underworld: every refusal of the turn (U5, U6, U9, U13, U15–U17) and of an event's
effects (U5, U6) carries its rule id and the exact sentence a referee reads, names and
numbers filled in; a refused action changes nothing."""

from __future__ import annotations

import pytest

from referee.games.underworld.rules import (
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
    PlayCard,
    apply,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, run


def at_plague(**kw):
    """A's first step turned over the plague (an event without a challenge)."""
    return run(game(**kw), Draw("E02"))


def at_riot():
    """A's first step turned over the people's uprising (an event with a challenge)."""
    return run(game(), Draw("E01"))


def step_two_over():
    """A drew twice against strength 1 at level 1: two draws, both steps taken."""
    return run(game(), Draw("M01"), Fight(), Draw("M01"), Fight())


def lost():
    """A lost to strength 5 in the first step."""
    return run(game(), Draw("M05"), Fight())


def playoff(c_level: int = 10):
    """A, B (and C unless ``c_level`` says other) reached 10 in one round: A's play-off."""
    s = game(levels={"A": 9, "B": 9, "C": 9})
    s = run(s, Draw("M01"), Fight(), EndTurn(), Draw("M01"), Fight(), EndTurn())
    strength = "M01" if c_level == 10 else "M12"
    s = run(s, Draw(strength), Fight(), EndTurn())
    assert s.phase == "playoff" and s.active == 0
    return s


def cleanup():
    """A drew a potion into a full inventory and ended the turn: five cards, one to go."""
    return run(game(), Draw("I06"), EndTurn())


def two_wins():
    """A (level 3) beat two monsters in one turn: the class card is offered."""
    s = run(game(levels={"A": 3}), Draw("M01"), Fight(), Draw("M02"), Fight())
    assert s.phase == "class_change"
    return s


REFUSALS = [
    # U5/U6/U17: drawing a castle card
    (playoff, Draw("M02"), "U17", "In the play-off a level-10 player does not step into the "
     "castle: challenge another level-10 player."),
    (lambda: run(playoff(), Challenge("A", "B"), Fight()), Draw("M02"), "U17",
     "In the play-off a level-10 player does not step into the castle: challenge another "
     "level-10 player."),
    (step_two_over, Draw("M02"), "U6", "Never more than two steps in a turn; end the turn."),
    (lost, Draw("M02"), "U6", "There is no second step this turn (after a lost fight, or an "
     "event ended the steps); end the turn."),
    (lambda: run(game(), Draw("M05")), Draw("M02"), "U5", "A castle card is drawn only at the "
     "start of a step; finish the current step first."),
    (at_plague, Draw("M02"), "U5", "A castle card is drawn only at the start of a step; "
     "finish the current step first."),
    # U7: scoring
    (game, Fight(), "U7", "There is no fight to score now; draw a card or start a challenge "
     "first."),
    (at_riot, Fight(), "U7", "There is no fight to score now; draw a card or start a "
     "challenge first."),
    # U13/U17: challenges
    (at_riot, Challenge("A", "A"), "U13", "A player cannot challenge themselves; pick another "
     "player."),
    (at_riot, Challenge("B", "B"), "U13", "A player cannot challenge themselves; pick another "
     "player."),
    (playoff, Challenge("A", "A"), "U13", "A player cannot challenge themselves; pick another "
     "player."),
    (playoff, Challenge("B", "C"), "U17", "In the play-off A challenges another level-10 "
     "player: one of B, C."),
    (lambda: playoff(c_level=8), Challenge("A", "C"), "U17", "In the play-off A challenges "
     "another level-10 player: one of B."),
    (at_plague, Challenge("A", "B"), "U13", "This event does not make players fight each "
     "other; follow its text and end it."),
    (game, Challenge("A", "B"), "U13", "A challenge starts only from an event that calls for "
     "it, or in the play-off; go on with the step."),
    (lost, Challenge("A", "B"), "U13", "A challenge starts only from an event that calls for "
     "it, or in the play-off; go on with the step."),
    # U5: an event's level changes and its end
    (game, EventLevel("A", 1), "U5", "An event changes levels only while it is being "
     "followed; draw the event first."),
    (at_plague, EventLevel("A", 0), "U5", "The level change must be a whole number from -9 "
     "to 9, not 0; correct it."),
    (at_plague, EventLevel("A", 10), "U5", "The level change must be a whole number from -9 "
     "to 9, not 0; correct it."),
    (at_plague, EventLevel("A", -10), "U5", "The level change must be a whole number from -9 "
     "to 9, not 0; correct it."),
    (game, EventDone(), "U5", "No event is being followed now; there is nothing to end."),
    # U9: the class card
    (game, ChangeClass("C01"), "U9", "A class card is drawn only after two fights won in a "
     "row in one turn; go on with the turn."),
    (game, KeepClass(), "U9", "A class card is drawn only after two fights won in a row in "
     "one turn; go on with the turn."),
    (two_wins, ChangeClass("C99"), "U9", "C99 is not in the class deck; enter the class card "
     "drawn."),
    (two_wins, ChangeClass("M01"), "U9", "M01 is not in the class deck; enter the class card "
     "drawn."),
    # U6/U15: the end of the turn
    (game, EndTurn(), "U6", "Step into the castle first: a turn has at least one step."),
    (lambda: run(game(), Draw("M05")), EndTurn(), "U6", "Finish the current step first; the "
     "turn ends after it."),
    (at_plague, EndTurn(), "U6", "Finish the current step first; the turn ends after it."),
    (two_wins, EndTurn(), "U6", "Finish the current step first; the turn ends after it."),
    (game, Discard(("M01",)), "U15", "Cards are discarded down to 4 only at the end of the "
     "turn; end the turn first."),
    (cleanup, Discard(()), "U15", "Discard exactly 1 cards so that 4 stay in the inventory; "
     "0 were named."),
    (cleanup, Discard(("M01", "M01")), "U15", "Discard exactly 1 cards so that 4 stay in the "
     "inventory; 2 were named."),
    (cleanup, Discard(("I01",)), "U15", "A does not hold I01 in the inventory; discard cards "
     "held there."),
    # U16: the end of the game
    (lambda: run(game(levels={"A": 9}), Draw("E02"), EventLevel("A", 1), EventDone(),
                 EndTurn(), Draw("M12"), Fight(), EndTurn(), Draw("M12"), Fight(), EndTurn()),
     Draw("M01"), "U16", "The game is over: A won; start a new game."),
    # U5/U6: an event's effects, only while it is followed
    (game, EventDiscard("A", "M01"), "U5", "An event discards a card only while it is being "
     "followed, not during a fight; draw the event first, or score the fight."),
    (game, EventGive("A", "B", "M01"), "U5", "An event makes a player give a card only while "
     "it is being followed, not during a fight; to swap cards by choice, trade them (U10)."),
    (game, EventDraw("M01"), "U5", "An event gives one more castle card only while it is "
     "being followed; to step into the castle, draw at the start of a step."),
    (game, EventNoSecondStep(), "U5", "An event ends the steps only while it is being "
     "followed; to stop stepping now, end the turn."),
    (lambda: run(at_riot(), Challenge("A", "B")), EventDiscard("A", "M01"), "U5", "An event "
     "discards a card only while it is being followed, not during a fight; draw the event "
     "first, or score the fight."),
    (at_plague, EventDiscard("B", "I01"), "U5", "B does not hold I01 in the inventory; name a "
     "card held there: M01."),
    (lambda: at_plague(hands={"B": ["I01", "I03", "M02", "M01"]}), EventDiscard("B", "I05"),
     "U5", "B does not hold I05 in the inventory; name a card held there: I01, I03, M01, "
     "M02."),
    (at_plague, EventDiscard("B", "M01", in_play=True), "U5", "B has no M01 in the play area; "
     "name a card in play: —."),
    (lambda: run(game(hands={"A": ["I03", "I01", "M01", "M01"]}), PlayCard("A", "I03"),
                 PlayCard("A", "I01"), Draw("E02")),
     EventGive("A", "C", "M01", in_play=True), "U5", "A has no M01 in the play area; name a "
     "card in play: I01, I03."),
    (at_plague, EventGive("B", "B", "M01"), "U5", "B cannot give a card to themselves; pick "
     "another player to receive it."),
    (step_two_over, EventNoSecondStep(), "U5", "An event ends the steps only while it is "
     "being followed; to stop stepping now, end the turn."),
    (lambda: run(game(), Draw("M01"), Fight(), Draw("E02")), EventNoSecondStep(), "U6",
     "This is already the second step, so there is no second step to cancel; end the "
     "event."),
    (lambda: run(at_plague(), EventNoSecondStep()), EventNoSecondStep(), "U6", "The steps of "
     "this turn have already ended; end the event."),
]


@pytest.mark.parametrize(("make", "action", "rule", "text"), REFUSALS)
def test_U5_U6_U9_U13_U15_U16_U17_each_refusal_names_its_rule_and_what_to_do(
        make, action, rule, text):
    state = make()
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert (caught.value.rule, caught.value.text) == (rule, text)


def test_U4_apply_refuses_what_is_not_an_underworld_game():
    with pytest.raises(RuleError) as caught:
        apply("a game", Draw("M01"))
    assert (caught.value.rule, caught.value.text) == (
        "U4", "This is not an Underworld game; start one with new_game.")
