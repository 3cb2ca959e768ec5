"""Underworld rules: the worked examples of shared/rules/underworld.md, and U1, U4–U9."""

from __future__ import annotations

import pytest

from referee.games.underworld.rules import (
    AnswerHelp,
    Challenge,
    ChangeClass,
    Discard,
    Draw,
    EndTurn,
    EventDone,
    EventLevel,
    Fight,
    KeepClass,
    OfferHelp,
    Option,
    PlayCard,
    allowed,
    apply,
    awaiting,
    castle_deck_problems,
    fight_breakdown,
    new_game,
    winner,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import (
    CLASSES,
    MONSTERS,
    game,
    player,
    run,
    small_castle,
    with_class,
)


def refused(state, action, rule: str) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply(state, action)
    assert caught.value.rule == rule, caught.value.text
    return caught.value


# --- worked examples -------------------------------------------------------------------

def test_U7_U8_U6_example1_win_gains_a_level_and_a_second_step():
    s = game({"A": ["I01", "I03", "M01", "M01"]}, {"A": 3})
    s = run(s, PlayCard("A", "I01"), PlayCard("A", "I03"), Draw("M05"))
    bd = fight_breakdown(s)
    assert [(ln.source, ln.code, ln.value) for ln in bd.fighter.lines] == [
        ("level", "", 3), ("card", "I01", 2), ("card", "I03", 1)]
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (6, 5, "win")
    s = apply(s, Fight())
    assert player(s, "A").level == 4
    assert awaiting(s).may_step_again and Option("draw", "A") in allowed(s)
    s = apply(s, Draw("M02"))
    assert (s.step, s.phase) == (2, "fight")


def test_U8_U6_example2_loss_at_level_1_stays_at_1_and_ends_the_steps():
    s = run(game(), Draw("M07"), Fight())
    assert player(s, "A").level == 1
    assert not awaiting(s).may_step_again
    refused(s, Draw("M02"), "U6")
    assert allowed(s) == (Option("end_turn", "A"), Option("trade", ""))


def test_U7_U8_U6_example3_draw_keeps_the_level_and_allows_a_second_step():
    s = game({"A": ["I03", "M01", "M01", "M01"]}, {"A": 4})
    s = run(s, PlayCard("A", "I03"), Draw("M05"))
    assert fight_breakdown(s).outcome == "draw"
    s = apply(s, Fight())
    assert player(s, "A").level == 4 and s.streak == 0
    assert apply(s, Draw("M02")).step == 2


def test_U9_U10_example4_two_wins_offer_a_class_and_the_warrior_holds_two_weapons():
    s = game({"A": ["I01", "I02", "M01", "M01"]}, {"A": 5})
    s = run(s, Draw("M02"), Fight(), Draw("M03"), Fight())
    assert player(s, "A").level == 7
    assert s.phase == "class_change"
    assert set(allowed(s)) == {Option("change_class", "A"), Option("keep_class", "A"),
                               Option("trade", "")}
    s = run(s, ChangeClass("C01"), PlayCard("A", "I01"), PlayCard("A", "I02"))
    a = player(s, "A")
    assert a.class_card == "C01" and a.play_area == ("I01", "I02")
    assert "C01" not in s.class_deck


def test_U10_example5_second_weapon_and_magic_per_class():
    hand = {"A": ["I01", "I02", "I05", "M01"]}
    human = run(game(hand), PlayCard("A", "I01"))
    err = refused(human, PlayCard("A", "I02"), "U10")
    assert "second weapon" in err.text and "I01" in err.text
    warrior = run(with_class(game(hand), "A", "C01"), PlayCard("A", "I01"),
                  PlayCard("A", "I02"))
    assert player(warrior, "A").play_area == ("I01", "I02")
    err = refused(warrior, PlayCard("A", "I05", "I01"), "U10")  # not for a Warrior
    assert "magic" in err.text
    cleric = run(with_class(game(hand), "A", "C02"), PlayCard("A", "I05"))
    assert player(cleric, "A").play_area == ("I05",)


def test_U11_example6_helper_adds_their_score_and_takes_the_reward():
    s = game({"A": ["I03", "S01", "M01", "M01"], "B": ["I01", "M01", "M01", "M01"]},
             {"A": 2, "B": 3})
    s = run(s, PlayCard("A", "I03"), Draw("M07"), OfferHelp("B", "A", "S01"),
            PlayCard("B", "I01"))
    pending = fight_breakdown(s)
    assert pending.outcome == "loss" and pending.pending[0].total == 5
    assert Option("answer_help", "A") in allowed(s)
    s = apply(s, AnswerHelp("B", True))
    bd = fight_breakdown(s)
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (8, 7, "win")
    s = apply(s, Fight())
    a, b = player(s, "A"), player(s, "B")
    assert (a.level, b.level) == (3, 3)
    assert "S01" not in a.inventory and "S01" in b.inventory


def test_U13_example7_challenge_defender_plays_a_skill_before_scoring():
    hands = {"B": ["I03", "S01", "M01", "M01"], "A": ["I03", "M01", "M01", "M01"]}
    s = game(hands, {"A": 5, "B": 3}, players=("B", "A", "C"))
    s = run(s, PlayCard("B", "I03"), Draw("M01"), Fight(), EndTurn())
    assert player(s, "B").level == 4
    s = run(s, PlayCard("A", "I03"), Draw("E01"), Challenge("A", "B"))
    assert fight_breakdown(s).outcome == "win"  # 5 + 1 vs 4 + 1 so far
    s = apply(s, PlayCard("B", "S01"))
    bd = fight_breakdown(s)
    assert (bd.fighter.total, bd.opponent.total, bd.outcome) == (6, 7, "loss")
    s = apply(s, Fight())
    assert (player(s, "A").level, player(s, "B").level) == (4, 5)
    assert s.phase == "event" and not s.may_step  # U6: A lost, so no second step


def test_U2_example8_33_monsters_names_the_limit():
    from tests.games.underworld.test_rules_decks import full_castle
    deck = full_castle()
    deck.remove(MONSTERS[1])
    problems = castle_deck_problems(deck)
    assert [p.rule for p in problems] == ["U2"]
    assert problems[0].text.startswith("monsters: 33, must be exactly 34")


def _to_ten(levels: dict):
    """A at 9 wins a fight to reach 10 and ends the turn."""
    s = game({"A": ["I03", "M01", "M01", "M01"]}, levels)
    return run(s, Draw("M01"), Fight(), EndTurn())


def test_U16_example9_alone_at_10_after_the_round_wins():
    s = _to_ten({"A": 9, "B": 9, "C": 9})
    assert player(s, "A").level == 10 and winner(s) is None
    s = run(s, Draw("M12"), Fight(), EndTurn())  # B loses
    assert winner(s) is None
    s = run(s, Draw("M12"), Fight(), EndTurn())  # C loses; A's turn comes
    assert winner(s) == "A" and s.phase == "over" and allowed(s) == ()
    refused(s, Draw("M02"), "U16")


def test_U17_example9_both_at_10_play_off_instead_of_stepping():
    s = _to_ten({"A": 9, "B": 9})
    s = run(s, Draw("M01"), Fight(), EndTurn())  # B reaches 10 in the same round
    s = run(s, Draw("M12"), Fight(), EndTurn())  # C
    assert s.phase == "playoff" and s.playoff and winner(s) is None
    refused(s, Draw("M02"), "U17")
    refused(s, Challenge("A", "C"), "U17")
    assert set(allowed(s)) >= {Option("challenge", "A"), Option("play", "A")}
    s = run(s, PlayCard("A", "I03"), Challenge("A", "B"))
    s = apply(s, Fight())
    assert (player(s, "A").level, player(s, "B").level) == (10, 9)
    assert winner(s) == "A"


# --- U1, U4: decks and setup -----------------------------------------------------------

def test_U1_everyone_starts_as_a_plain_human_at_level_1():
    s = game()
    assert all(p.class_card == "" and p.level == 1 and len(p.inventory) == 4
               for p in s.players)
    assert len(s.class_deck) == 13 and all(c.startswith("C") for c in s.class_deck)


def test_U1_class_cards_stay_out_of_the_castle():
    with pytest.raises(RuleError) as caught:
        new_game(["A", "B"], small_castle() + [CLASSES[0]], CLASSES,
                 {"A": ["M01"] * 4, "B": ["M01"] * 4}, check_decks=False)
    assert caught.value.rule == "U1" and "C01" in caught.value.text


def test_U1_a_draw_must_name_a_card_left_in_the_castle():
    s = game()
    refused(s, Draw("Z99"), "U1")
    s = run(s, Draw("I06"), Draw("I06"), EndTurn(), Discard(("M01", "M01")))  # both potions
    refused(s, Draw("I06"), "U1")


def test_U1_an_empty_castle_is_reshuffled_from_the_discard_pile():
    s = game(players=("A", "B"))
    from dataclasses import replace
    s = replace(s, castle=(), discard=("M02",))
    s = apply(s, Draw("M02"))
    assert s.castle == () and s.discard == () and s.phase == "fight"
    s = replace(apply(s, Fight()), discard=())
    s = apply(s, EndTurn())
    assert Option("end_turn", "B") in allowed(s)  # nothing left to draw: the turn may end


@pytest.mark.parametrize(("players", "hands", "levels", "needle"), [
    (["A"], {"A": ["M01"] * 4}, None, "2 to 6"),
    (list("ABCDEFG"), {}, None, "2 to 6"),
    (["A", "A"], {"A": ["M01"] * 4}, None, "twice"),
    (["A", ""], {"A": ["M01"] * 4}, None, "needs an id"),
    (["A", "B"], {"A": ["M01"] * 3, "B": ["M01"] * 4}, None, "exactly 4"),
    (["A", "B"], {"A": ["M01"] * 4, "B": ["I06"] * 4}, None, "No copy of I06"),
    (["A", "B"], {"A": ["M01"] * 4, "B": ["M01"] * 4}, {"A": 10}, "1 to 9"),
    (["A", "B"], {"A": ["M01"] * 4, "B": ["M01"] * 4, "X": ["M01"] * 4}, None, "X"),
])
def test_U4_setup_limits(players, hands, levels, needle):
    with pytest.raises(RuleError) as caught:
        new_game(players, small_castle(), CLASSES, hands, levels, check_decks=False)
    assert caught.value.rule == "U4" and needle in caught.value.text


def test_U4_reading_passport_levels_are_a_setting_and_U2_is_checked_by_default():
    s = game(levels={"B": 6})
    assert [p.level for p in s.players] == [1, 6, 1]
    with pytest.raises(RuleError) as caught:
        new_game(["A", "B"], small_castle(), CLASSES, {"A": ["M01"] * 4, "B": ["M01"] * 4})
    assert caught.value.rule == "U2"


# --- U5, U6: steps ---------------------------------------------------------------------

def test_U5_a_drawn_item_goes_to_the_inventory_and_may_replace_at_once():
    s = game({"A": ["I03", "M01", "M01", "M01"]})
    s = run(s, PlayCard("A", "I03"), Draw("I04"))
    assert s.phase == "step_over" and "I04" in player(s, "A").inventory
    s = apply(s, PlayCard("A", "I04", "I03"))  # U10: the old armour is discarded
    assert player(s, "A").play_area == ("I04",) and "I03" in s.discard


def test_U5_a_monster_must_be_fought_before_the_turn_ends():
    s = run(game(), Draw("M03"))
    refused(s, EndTurn(), "U6")
    refused(s, Draw("M02"), "U5")
    assert Option("fight", "") in allowed(s)


def test_U5_an_event_is_followed_then_discarded():
    s = run(game(levels={"B": 3}), Draw("E02"))
    assert s.phase == "event" and s.event == "E02"
    refused(s, Challenge("A", "B"), "U13")  # the plague makes nobody fight
    s = run(s, EventLevel("B", -1), EventLevel("A", -1), EventDone())
    assert [p.level for p in s.players] == [1, 2, 1]
    assert s.phase == "step_over" and "E02" in s.discard and s.may_step
    refused(s, EventLevel("A", 1), "U5")


def test_U5_a_turn_has_at_least_one_step():
    refused(game(), EndTurn(), "U6")


def test_U6_never_more_than_two_steps():
    s = run(game(), Draw("I01"), Draw("I02"))
    assert s.step == 2 and not awaiting(s).may_step_again
    refused(s, Draw("M02"), "U6")
    s = apply(s, EndTurn())
    assert s.phase == "cleanup" and awaiting(s).discard == 2  # U15: 6 cards, keep 4


def test_U15_cleanup_discards_down_to_four():
    s = run(game(), Draw("I01"), Draw("I02"), EndTurn())
    refused(s, Discard(("I01",)), "U15")
    refused(s, Discard(("I03", "I01")), "U15")
    s = apply(s, Discard(("M01", "M01")))
    assert player(s, "A").inventory == ("M01", "M01", "I01", "I02")
    assert s.phase == "draw" and awaiting(s).player == "B" and s.turn == 2


# --- U7–U9: fights and class change ----------------------------------------------------

def test_U8_level_never_passes_10_and_a_loss_from_10_drops_to_9():
    s = run(game(levels={"A": 9}), Draw("M01"), Fight(), Draw("M01"))
    assert player(s, "A").level == 10
    s = apply(s, Fight())
    assert player(s, "A").level == 10


def test_U9_keeping_the_class_and_no_prompt_after_a_draw_between():
    s = game(levels={"A": 5})
    kept = run(s, Draw("M02"), Fight(), Draw("M03"), Fight(), KeepClass())
    assert player(kept, "A").class_card == "" and kept.phase == "step_over"
    assert len(kept.class_deck) == 13
    s = run(s, Draw("M05"), Fight(), Draw("M03"), Fight())  # draw, then a win
    assert s.phase == "step_over" and s.streak == 1
    refused(s, ChangeClass("C01"), "U9")


def test_U9_a_new_class_drops_what_it_may_not_hold():
    s = game({"A": ["I01", "I02", "M01", "M01"]}, {"A": 5})
    s = run(with_class(s, "A", "C01"), PlayCard("A", "I01"), PlayCard("A", "I02"))
    s = run(s, Draw("M02"), Fight(), Draw("M03"), Fight(), ChangeClass("C04"))
    a = player(s, "A")
    assert a.class_card == "C04" and a.past_classes == ("C01",)
    assert a.play_area == ("I02",) and "I01" in s.discard  # the weaker weapon goes
