"""Underworld fight scores line by line (U7, U11, U12, U14), their JSON for the screens,
U8 on the level, and the quick fight from numbers alone (U7, U8)."""

from __future__ import annotations

import pytest

from referee.games.underworld.rules import (
    AdjustMonster,
    AnswerHelp,
    Draw,
    Fight,
    OfferHelp,
    PlayCard,
    PowerUp,
    Summon,
    apply,
    fight_breakdown,
    quick_fight,
)
from referee.games.underworld.rules.fight import (
    QuickFight,
    breakdown_to_dict,
    level_after,
    outcome_of,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, player, run, with_class


def line(source, who, code, value):
    return {"source": source, "player": who, "code": code, "value": value}


def crowded_fight():
    """A (level 2, sword +2) meets strength 12, summons a strength-3 monster from the
    inventory; C's offer waits, B, a powered Vampire (+3), helps for A's last card; two
    card texts move the monster's score by -3 and +1."""
    s = with_class(game({"A": ["I01", "S03", "M03", "M01"]}, {"A": 2}), "B", "C04")
    return run(s, PlayCard("A", "I01"), Draw("M12"), Summon("A", "S03", "M03"),
               OfferHelp("C", "A", "I01"), OfferHelp("B", "A", "M01"), AnswerHelp("B", True),
               PowerUp("B", ("M01", "M01")), AdjustMonster(-3, "S02"), AdjustMonster(1))


def test_U7_U11_U12_U14_every_number_of_a_fight_is_a_line_the_referee_sees():
    assert breakdown_to_dict(fight_breakdown(crowded_fight())) == {
        "fighter": {"who": "A", "total": 11, "lines": [
            line("level", "A", "", 2), line("card", "A", "I01", 2), line("ally", "A", "M03", 3),
            line("level", "B", "", 1), line("ability", "B", "C04", 3)]},
        "opponent": {"who": "M12", "total": 10, "lines": [
            line("strength", "", "M12", 12), line("modifier", "", "S02", -3),
            line("modifier", "", "", 1)]},
        "outcome": "win",
        "pending": [{"who": "C", "total": 1, "lines": [line("level", "C", "", 1)]}]}


def test_U8_U11_the_crowded_fight_won_moves_only_the_fighters_level_and_pays_the_helper():
    s = apply(crowded_fight(), Fight())
    assert [p.level for p in s.players] == [3, 1, 1]
    assert player(s, "B").inventory == ("M01", "M01", "M01")  # two spent powering, one paid
    assert player(s, "A").inventory == () and player(s, "A").allies == ("M03",)
    # C's offer was never accepted: C gets nothing, and A keeps the sword it named
    assert player(s, "A").play_area == ("I01",) and player(s, "C").inventory == ("M01",) * 4
    assert fight_breakdown(s) is None and s.encounter is None


def test_U7_a_level_alone_against_a_monster_and_a_draw():
    s = run(game(levels={"A": 4}), Draw("M04"))
    bd = fight_breakdown(s)
    assert (bd.fighter.who, bd.fighter.total, bd.opponent.who, bd.opponent.total) == (
        "A", 4, "M04", 4)
    assert (bd.outcome, bd.pending) == ("draw", ())
    assert fight_breakdown(game()) is None


@pytest.mark.parametrize(("mine", "theirs", "outcome"), [
    (6, 5, "win"), (5, 6, "loss"), (5, 5, "draw"), (0, -1, "win"), (-2, -2, "draw")])
def test_U7_the_higher_score_wins_and_equal_scores_draw(mine, theirs, outcome):
    assert outcome_of(mine, theirs) == outcome


@pytest.mark.parametrize(("level", "outcome", "after"), [
    (3, "win", 4), (3, "loss", 2), (3, "draw", 3), (1, "loss", 1), (10, "win", 10),
    (10, "loss", 9), (9, "win", 10), (2, "loss", 1), (5, "other", 5)])
def test_U8_win_plus_one_loss_minus_one_never_below_1_nor_above_10(level, outcome, after):
    assert level_after(level, outcome) == after


@pytest.mark.parametrize(("level", "bonuses", "strength", "result"), [
    (3, [2, 1], 5, QuickFight(3, 4, 6, 5, "win")),  # worked example 1
    (1, 0, 7, QuickFight(1, 1, 1, 7, "loss")),  # worked example 2
    (4, (1,), 5, QuickFight(4, 4, 5, 5, "draw")),  # worked example 3
    (10, (), 3, QuickFight(10, 10, 10, 3, "win")),
    (2, range(-1, 5, 5), 6, QuickFight(2, 1, 5, 6, "loss")),  # any iterable: -1, 4
    (1, -2, -3, QuickFight(1, 2, -1, -3, "win")),
])
def test_U7_U8_quick_fight_scores_level_and_bonuses_against_strength(
        level, bonuses, strength, result):
    assert quick_fight(level, bonuses, strength) == result


LEVEL = "The level must be a whole number from 1 to 10; correct it."
BONUSES = "Bonuses must be whole numbers (one per card, helper or ally); correct them."
STRENGTH = "The monster's strength must be a whole number; correct it."


@pytest.mark.parametrize(("level", "bonuses", "strength", "rule", "text"), [
    (0, 1, 5, "U8", LEVEL), (11, 1, 5, "U8", LEVEL), (True, 1, 5, "U8", LEVEL),
    (2.0, 1, 5, "U8", LEVEL), ("3", 1, 5, "U8", LEVEL),
    (3, None, 5, "U7", BONUSES), (3, "12", 5, "U7", BONUSES), (3, [1, True], 5, "U7", BONUSES),
    (3, [1.5], 5, "U7", BONUSES), (3, 2.0, 5, "U7", BONUSES), (3, False, 5, "U7", BONUSES),
    (3, 1, True, "U7", STRENGTH), (3, 1, 2.5, "U7", STRENGTH), (3, 1, "5", "U7", STRENGTH),
])
def test_U7_U8_quick_fight_refuses_what_is_not_a_whole_number(
        level, bonuses, strength, rule, text):
    with pytest.raises(RuleError) as caught:
        quick_fight(level, bonuses, strength)
    assert (caught.value.rule, caught.value.text) == (rule, text)
