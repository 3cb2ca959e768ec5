"""Underworld rules in play: U3 durations, U10–U17 and the readings the source leaves open."""

from __future__ import annotations

import pytest

from referee.games.underworld.rules import (
    AdjustMonster,
    AnswerHelp,
    Challenge,
    Draw,
    EndTurn,
    EventDone,
    EventLevel,
    Fight,
    OfferHelp,
    Option,
    PlayCard,
    PowerUp,
    Summon,
    Trade,
    allowed,
    apply,
    fight_breakdown,
    legal_actions,
    winner,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import game, player, run, with_class


def refused(state, action, rule: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert caught.value.rule == rule, caught.value.text
    return caught.value


# --- U10: the play area and trading ----------------------------------------------------

def test_U10_a_second_armour_must_replace_the_first():
    s = run(game({"A": ["I03", "I04", "M01", "M01"]}), PlayCard("A", "I03"))
    err = refused(s, PlayCard("A", "I04"), "U10")
    assert "replace I03" in err.text
    refused(s, PlayCard("A", "I04", "I01"), "U10")
    s = apply(s, PlayCard("A", "I04", "I03"))
    assert player(s, "A").play_area == ("I04",) and s.discard == ("I03",)


def test_U10_the_same_skill_never_twice_in_play():
    s = run(game({"A": ["S01", "S01", "S02", "M01"]}), PlayCard("A", "S01"),
            PlayCard("A", "S02"))
    err = refused(s, PlayCard("A", "S01"), "U10")
    assert "never twice" in err.text
    refused(s, PlayCard("A", "M01"), "U10")  # monsters join only by Summoning
    refused(s, PlayCard("A", "S01", "S02"), "U10")  # only items replace


def test_U10_a_warrior_holds_two_weapons_but_not_three():
    s = with_class(game({"A": ["I01", "I02", "I01", "M01"]}), "A", "C01")
    s = run(s, PlayCard("A", "I01"), PlayCard("A", "I02"))
    refused(s, PlayCard("A", "I01"), "U10")
    s = apply(s, PlayCard("A", "I01", "I02"))
    assert player(s, "A").play_area == ("I01", "I01")


def test_U10_magic_only_for_a_cleric_or_a_witch():
    for code, ok in (("C01", False), ("C02", True), ("C03", True), ("", False)):
        s = game({"A": ["S04", "M01", "M01", "M01"]})
        s = with_class(s, "A", code) if code else s
        if ok:
            assert player(apply(s, PlayCard("A", "S04")), "A").play_area == ("S04",)
        else:
            refused(s, PlayCard("A", "S04"), "U10")


def test_U10_trading_is_never_a_gift():
    s = game({"A": ["I01", "M01", "M01", "M01"], "B": ["S01", "M01", "M01", "M01"]})
    refused(s, Trade("A", "B", ("I01",), ()), "U10")
    refused(s, Trade("A", "A", ("I01",), ("I01",)), "U10")
    refused(s, Trade("A", "B", ("S01",), ("I01",)), "U10")
    s = apply(s, Trade("A", "B", ("I01",), ("S01",)))
    assert "S01" in player(s, "A").inventory and "I01" in player(s, "B").inventory


def test_U5_only_the_player_in_turn_or_a_fight_plays_cards():
    s = game({"B": ["I01", "M01", "M01", "M01"]})
    refused(s, PlayCard("B", "I01"), "U5")


# --- U11: cooperation ------------------------------------------------------------------

def test_U11_helper_loses_nothing_on_a_loss_and_refused_help_does_not_count():
    s = game({"A": ["S01", "M01", "M01", "M01"]}, {"A": 2, "B": 5, "C": 3})
    s = run(s, Draw("M12"), OfferHelp("B", "A", "S01"), OfferHelp("C", "A", "M01"))
    refused(s, OfferHelp("B", "A", "M01"), "U11")  # one offer at a time
    s = run(s, AnswerHelp("B", False), AnswerHelp("C", True))
    assert [o.helper for o in s.encounter.offers] == ["C"]
    assert fight_breakdown(s).fighter.total == 5
    s = apply(s, Fight())
    assert [p.level for p in s.players] == [1, 5, 3]
    assert player(s, "A").inventory.count("M01") == 3  # no reward on a loss


def test_U11_offers_need_a_fighter_and_a_held_reward():
    s = game({"A": ["S01", "M01", "M01", "M01"]})
    refused(s, OfferHelp("B", "A", "S01"), "U11")  # no fight yet
    s = apply(s, Draw("M05"))
    refused(s, OfferHelp("B", "C", "M01"), "U11")  # C is not fighting
    refused(s, OfferHelp("A", "A", "M01"), "U11")  # the fighter cannot help themself
    refused(s, OfferHelp("B", "A", "I01"), "U11")  # A holds no sword
    refused(s, AnswerHelp("B", True), "U11")  # nothing offered yet


def test_U11_a_promised_reward_stays_until_the_fight_is_scored():
    s = game({"A": ["S01", "M01", "M01", "M01"], "B": ["I01", "M01", "M01", "M01"]})
    s = run(s, Draw("M03"), OfferHelp("B", "A", "S01"), OfferHelp("C", "A", "S01"),
            AnswerHelp("B", True))
    refused(s, AnswerHelp("C", True), "U11")  # one heavy blow cannot go to two helpers
    refused(s, Trade("A", "B", ("S01",), ("I01",)), "U11")
    s = run(s, PlayCard("A", "S01"), Fight())  # played, it still goes to the helper
    assert player(s, "A").play_area == () and "S01" in player(s, "B").inventory


def test_U11_reading_helper_adds_level_own_cards_and_ability_U14():
    s = with_class(game({"B": ["I01", "M01", "M01", "M01"]}, {"B": 2}), "B", "C04")
    s = run(s, Draw("M07"), OfferHelp("B", "A", "M01"), PlayCard("B", "I01"),
            PowerUp("B", ("M01", "M01")), AnswerHelp("B", True))
    bd = fight_breakdown(s)
    assert [(ln.source, ln.player, ln.value) for ln in bd.fighter.lines] == [
        ("level", "A", 1), ("level", "B", 2), ("card", "B", 2), ("ability", "B", 3)]
    s = apply(s, Fight())
    assert (player(s, "A").level, player(s, "B").level) == (2, 2)


# --- U12: summoning --------------------------------------------------------------------

def test_U12_reading_summoning_the_monster_met_is_no_level_change_and_a_further_step():
    s = game({"A": ["S03", "M01", "M01", "M01"]}, {"A": 3})
    s = run(s, Draw("M08"), Summon("A", "S03"))
    a = player(s, "A")
    assert a.level == 3 and a.allies == ("M08",) and "S03" in s.discard
    assert s.phase == "step_over" and s.may_step and s.encounter is None
    s = apply(s, Draw("M10"))
    bd = fight_breakdown(s)
    assert ("ally", "M08", 8) in [(ln.source, ln.code, ln.value) for ln in bd.fighter.lines]
    s = run(s, Fight(), EndTurn(), Draw("M01"), Fight(), EndTurn(), Draw("M01"), Fight(),
            EndTurn())
    assert player(s, "A").allies == () and "M08" in s.discard  # one round only


def test_U12_summoning_from_the_inventory_joins_the_current_fight():
    s = game({"A": ["S03", "M06", "M01", "M01"]})
    refused(s, Summon("A", "S03", "M06"), "U12")  # no fight pending
    s = apply(s, Draw("M06"))
    refused(s, Summon("A", "M01", "M06"), "U12")  # not a Summoning card
    refused(s, Summon("A", "S03", "S03"), "U12")  # not a monster
    s = apply(s, Summon("A", "S03", "M06"))
    assert fight_breakdown(s).fighter.total == 7
    s = apply(s, Fight())
    assert player(s, "A").level == 2


def test_U12_only_the_fighter_summons_the_monster_met():
    s = run(game({"B": ["S03", "M01", "M01", "M01"]}), Draw("M04"),
            OfferHelp("B", "A", "M01"))
    refused(s, Summon("B", "S03"), "U12")


# --- U13: challenges -------------------------------------------------------------------

def test_U13_challenge_draw_changes_nothing_and_loser_floor_is_1():
    s = game(levels={"A": 1, "B": 1, "C": 3})
    s = run(s, Draw("E01"), Challenge("B", "C"))
    refused(s, OfferHelp("B", "C", "M01"), "U11")  # a side cannot help the other
    s = apply(s, Fight())
    assert [p.level for p in s.players] == [1, 1, 4]
    s = run(s, Challenge("A", "B"), Fight())
    assert [p.level for p in s.players] == [1, 1, 4]
    s = run(s, EventDone())
    assert s.may_step  # A did not lose, so a second step is open


def test_U13_helpers_join_either_side_and_only_the_winner_pays():
    s = game({"B": ["S01", "M01", "M01", "M01"], "C": ["I06", "M01", "M01", "M01"]},
             {"A": 3, "B": 2, "C": 2})
    s = run(s, Draw("E01"), Challenge("A", "B"), OfferHelp("C", "B", "S01"),
            AnswerHelp("C", True))
    assert set(allowed(s)) >= {Option("fight", ""), Option("play", "B"), Option("play", "C")}
    s = apply(s, Fight())
    assert [p.level for p in s.players] == [2, 3, 2]
    assert "S01" in player(s, "C").inventory and s.phase == "event" and not s.may_step


def test_U13_a_challenge_needs_an_event_that_calls_for_it():
    refused(game(), Challenge("A", "B"), "U13")
    s = apply(game(), Draw("E01"))
    refused(s, Challenge("A", "A"), "U13")
    refused(s, Fight(), "U7")


# --- U14: the characteristic ability ---------------------------------------------------

def test_U14_power_up_discards_cards_once_a_turn_and_lasts_the_turn():
    s = game({"A": ["M01", "M02", "M03", "I01"]})
    refused(s, PowerUp("A", ("M01", "M02")), "U14")  # a plain Human
    refused(with_class(s, "A", "C01"), PowerUp("A", ("M01", "M02")), "U14")  # no ability
    s = with_class(s, "A", "C05")
    refused(s, PowerUp("A", ("M01",)), "U14")
    refused(s, PowerUp("A", ("M01", "M09")), "U14")
    s = apply(s, PowerUp("A", ("M01", "M02")))
    a = player(s, "A")
    assert a.powered and a.inventory == ("M03", "I01") and s.discard == ("M01", "M02")
    refused(s, PowerUp("A", ("M03", "I01")), "U14")
    s = apply(s, Draw("M05"))
    assert fight_breakdown(s).fighter.total == 5
    s = run(s, Fight(), EndTurn())
    assert not player(s, "A").powered and not player(s, "A").ability_used


def test_U14_not_possible_with_too_few_inventory_cards():
    s = run(with_class(game({"A": ["I01", "I03", "S01", "M01"]}), "A", "C04"),
            PlayCard("A", "I01"), PlayCard("A", "I03"), PlayCard("A", "S01"))
    err = refused(s, PowerUp("A", ("M01",)), "U14")
    assert "holds only 1" in err.text


# --- U3, U15: how long cards stay ------------------------------------------------------

def test_U3_U15_immediate_cards_go_after_the_fight_round_cards_after_the_round():
    s = game({"A": ["I06", "I07", "S02", "M01"]})
    s = run(s, PlayCard("A", "I06"), PlayCard("A", "I07"), PlayCard("A", "S02"), Draw("M06"))
    assert fight_breakdown(s).fighter.total == 1 + 2 + 1 + 3
    s = apply(s, Fight())
    assert player(s, "A").play_area == ("I07",) and {"I06", "S02"} <= set(s.discard)
    s = run(s, EndTurn(), Draw("M01"), Fight(), EndTurn(), Draw("M01"), Fight(), EndTurn())
    assert player(s, "A").play_area == () and "I07" in s.discard


def test_U15_an_immediate_card_waits_for_a_fight_and_is_spent_by_the_end_of_the_turn():
    s = run(game({"A": ["S02", "M01", "M01", "M01"]}), PlayCard("A", "S02"), Draw("I01"))
    assert player(s, "A").play_area == ("S02",)  # no fight yet: the effect is not spent
    s = apply(s, EndTurn())
    assert player(s, "A").play_area == () and "S02" in s.discard


def test_U7_card_text_can_change_the_monster_score():
    s = apply(game(), Draw("M03"))
    refused(s, AdjustMonster(0), "U7")
    s = apply(s, AdjustMonster(-3, "S02"))
    bd = fight_breakdown(s)
    assert bd.opponent.total == 0 and bd.outcome == "win"
    refused(apply(game(), Draw("E01")), AdjustMonster(1), "U7")


# --- U16, U17: the end -----------------------------------------------------------------

def test_U16_reaching_10_by_an_event_in_anothers_turn_counts_at_your_next_turn():
    s = game(levels={"A": 1, "B": 9, "C": 1})
    s = run(s, Draw("E02"), EventLevel("B", 1), EventDone(), EndTurn())
    assert winner(s) == "B" and s.phase == "over"


def test_U17_play_off_ends_when_one_player_is_left_at_10():
    s = game({"A": ["I03", "M01", "M01", "M01"]}, {"A": 9, "B": 9, "C": 9})
    s = run(s, PlayCard("A", "I03"), Draw("E02"), EventLevel("B", 1), EventLevel("C", 1),
            EventDone(), Draw("M01"), Fight(), EndTurn())
    assert [p.level for p in s.players] == [10, 10, 10]
    assert s.phase == "playoff" and s.playoff and s.active == 1  # B's turn
    s = run(s, Challenge("B", "A"), Fight())  # 10 vs 10 + 1: A wins, B drops to 9
    assert [p.level for p in s.players] == [10, 9, 10] and winner(s) is None
    s = apply(s, EndTurn())
    assert s.phase == "playoff" and s.active == 2
    assert {a.defender for a in legal_actions(s) if isinstance(a, Challenge)} == {"A"}
    refused(s, Challenge("C", "B"), "U17")
    s = run(s, Challenge("C", "A"), Fight())
    assert winner(s) == "A" and s.phase == "over"


def test_U17_a_play_off_challenge_ends_the_turn():
    s = game(levels={"A": 9, "B": 9})
    s = run(s, Draw("E02"), EventLevel("A", 1), EventLevel("B", 1), EventDone(), EndTurn())
    assert s.phase == "playoff" and s.active == 1
    s = run(s, Challenge("B", "A"), Fight())  # 10 vs 10: a draw, the play-off goes on
    assert winner(s) is None and s.phase == "step_over" and not s.may_step
    refused(s, Draw("M02"), "U17")
    s = run(s, EndTurn(), Draw("M12"), Fight(), EndTurn())  # C plays an ordinary turn
    assert s.phase == "playoff" and s.active == 0
