"""Underworld turns as the screens and the API show them: where each card goes after a
fight, a class change or a cleanup (U8, U9, U10, U15), who pays a helper (U11, U13), whose
steps a challenge ends (U6, U13, both readings of U9), and the state's JSON after each step
(U6, U14, U16)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.underworld.rules import (
    AnswerHelp,
    Challenge,
    ChangeClass,
    ClassCard,
    Discard,
    Draw,
    EndTurn,
    EventDone,
    EventLevel,
    EventNoSecondStep,
    Fight,
    OfferHelp,
    PlayCard,
    PowerUp,
    apply,
    awaiting,
    fight_breakdown,
    state_to_dict,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import CLASSES, game, player, run, with_class
from tests.games.underworld.test_rules_refusals import playoff


def shown(state):
    """What the API shows of the state, through JSON."""
    return state_to_dict(state)


def test_U5_U8_a_monster_fought_goes_to_the_discard_pile_whatever_the_result():
    assert run(game(), Draw("M05"), Fight()).discard == ("M05",)  # lost
    assert run(game(levels={"A": 3}), Draw("M02"), Fight()).discard == ("M02",)  # won


def test_U9_a_step_with_no_fight_breaks_the_row_of_wins():
    s = run(game(levels={"A": 3}), Draw("M01"), Fight())
    assert shown(s)["streak"] == 1
    s = apply(s, Draw("I01"))
    assert shown(s)["streak"] == 0 and player(s, "A").inventory[-1] == "I01"


def test_U11_U13_a_drawn_challenge_pays_no_helper():
    s = run(game(levels={"A": 2}), Draw("E01"), Challenge("A", "B"),
            OfferHelp("C", "B", "M01"), AnswerHelp("C", True))
    assert fight_breakdown(s).outcome == "draw"  # 2 vs 1 + 1
    s = apply(s, Fight())
    assert [p.level for p in s.players] == [2, 1, 1]
    assert player(s, "B").inventory == ("M01",) * 4 and player(s, "C").inventory == (
        "M01",) * 4


@pytest.mark.parametrize(("b", "c"), [(3, 1), (1, 3)])
def test_U6_U13_a_challenge_between_two_others_leaves_the_active_players_steps(b, c):
    s = run(game(levels={"B": b, "C": c}), Draw("E01"), Challenge("B", "C"), Fight())
    assert (s.phase, s.may_step) == ("event", True)
    s = run(s, EventDone(), Draw("M01"))
    assert s.step == 2


def first_reading(state):
    return replace(state, reading=1)


@pytest.mark.parametrize(("a", "b", "may_step"), [(3, 1, True), (1, 3, False)])
def test_U6_U13_first_reading_the_active_player_defending_ends_the_steps_only_if_beaten(
        a, b, may_step):
    s = run(first_reading(game(levels={"A": a, "B": b})), Draw("E01"), Challenge("B", "A"),
            Fight())
    assert (s.phase, s.may_step) == ("event", may_step)
    assert awaiting(apply(s, EventDone())).may_step_again is may_step


def test_U17_first_reading_a_play_off_challenge_ends_the_step():
    s = run(first_reading(playoff()), Challenge("A", "B"), Fight())  # 10 vs 10: a draw
    assert (s.phase, s.may_step, s.winner) == ("step_over", False, "")
    assert apply(s, EndTurn()).active == 1


def test_U5_an_event_moves_a_level_by_up_to_9_either_way():
    s = run(game(levels={"A": 9}), Draw("E02"), EventLevel("B", 9), EventLevel("A", -9))
    assert [p.level for p in s.players] == [1, 10, 1]


def test_U5_U6_ending_the_event_clears_it_and_no_second_step_shows_as_false():
    s = run(game(), Draw("E02"), EventNoSecondStep())
    assert shown(s)["may_step"] is False and shown(s)["event"] == "E02"
    d = shown(apply(s, EventDone()))
    assert (d["event"], d["discard"], d["phase"], d["may_step"]) == (
        "", ["E02"], "step_over", False)


def to_new_class(start: str, cards: list[str], new: str, classes=None):
    """A, a ``start`` with ``cards`` in play, beats two monsters and draws ``new``."""
    s = game({"A": cards + ["M01"] * (4 - len(cards))}, {"A": 5}, classes=classes)
    s = run(with_class(s, "A", start), *(PlayCard("A", c) for c in cards))
    return run(s, Draw("M02"), Fight(), Draw("M03"), Fight(), ChangeClass(new))


BARBARIAN = ClassCard("C14", "Barbarian", "Варвар", two_weapons=True)


@pytest.mark.parametrize(("start", "cards", "new", "kept", "thrown"), [
    # a Cleric's magic goes under a Warrior, the magic staff first of all
    ("C02", ["S04", "I05", "I03", "S01"], "C01", ("I03", "S01"), ("S04", "I05")),
    ("C02", ["S04", "I01", "I03"], "C03", ("S04", "I01", "I03"), ()),  # a Witch keeps it
    # a Warrior's weaker weapon goes under a Vampire; armour and skills are no weapons
    ("C01", ["I01", "I02", "I03", "S01"], "C04", ("I02", "I03", "S01"), ("I01",)),
    ("C01", ["I02", "I01", "I03"], "C04", ("I02", "I03"), ("I01",)),
    ("C01", ["I01", "I02"], "C14", ("I01", "I02"), ()),  # another class with two weapons
])
def test_U9_U10_a_new_class_keeps_only_what_it_may_hold(start, cards, new, kept, thrown):
    s = to_new_class(start, cards, new, CLASSES + [BARBARIAN])
    a = player(s, "A")
    assert (a.class_card, a.past_classes, a.play_area) == (new, (start,), kept)
    assert s.discard == ("M02", "M03") + thrown


def test_U9_a_human_leaves_no_past_class():
    s = run(game(levels={"A": 5}), Draw("M02"), Fight(), Draw("M03"), Fight(),
            ChangeClass("C01"))
    assert shown(s)["players"][0]["past_classes"] == [] and player(s, "A").class_card == "C01"


def test_U9_U14_the_new_class_card_stands_unpowered():
    s = run(with_class(game(levels={"A": 3}), "A", "C04"), PowerUp("A", ("M01", "M01")),
            Draw("M05"), Fight(), Draw("M06"), Fight(), ChangeClass("C01"))
    d = shown(s)["players"][0]
    assert (d["class"], d["powered"], d["ability_used"]) == ("C01", False, True)


def test_U7_U14_an_unpowered_class_adds_no_ability_line():
    s = run(with_class(game(), "A", "C04"), Draw("M05"))
    assert [(ln.source, ln.value) for ln in fight_breakdown(s).fighter.lines] == [
        ("level", 1)]


def test_U6_U14_a_new_turn_starts_at_step_one_with_every_class_card_turned_back():
    s = with_class(game(), "B", "C04")
    s = run(s, Draw("M01"), Fight(), Draw("M05"), OfferHelp("B", "A", "M01"),
            PowerUp("B", ("M01", "M01")))
    assert shown(s)["players"][1]["powered"] is True
    s = run(s, Fight(), EndTurn())
    d = shown(s)
    assert (d["active"], d["step"], d["phase"]) == ("B", 1, "draw")
    assert all(p["powered"] is False and p["ability_used"] is False for p in d["players"])


def test_U16_a_player_alone_at_10_wins_without_a_play_off():
    s = run(game(levels={"A": 9}), Draw("E02"), EventLevel("A", 1), EventDone(), EndTurn(),
            Draw("M12"), Fight(), EndTurn(), Draw("M12"), Fight(), EndTurn())
    d = shown(s)
    assert (d["phase"], d["winner"], d["playoff"]) == ("over", "A", False)


def test_U15_the_cards_discarded_at_cleanup_go_to_the_discard_pile():
    s = run(game(), Draw("I01"), Draw("I02"), EndTurn())
    with pytest.raises(RuleError) as caught:
        apply(s, Discard(("I05", "I06")))
    assert caught.value.text == ("A does not hold I05, I06 in the inventory; discard cards "
                                 "held there.")
    s = apply(s, Discard(("M01", "I01")))
    assert s.discard == ("M01", "I01") and player(s, "A").inventory == ("M01",) * 3 + ("I02",)
