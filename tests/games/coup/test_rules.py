"""Coup rules engine: worked examples, rule ids C1–C10 and the readings of coup.md."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.coup.rules import (
    TOTAL_COINS,
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Reveal,
    apply,
    awaiting,
    legal_actions,
    log_text,
    new_game,
    options,
    state_to_dict,
)
from referee.rules import RuleError


def play(state: CoupState, *actions: object) -> CoupState:
    for action in actions:
        state = apply(state, action)  # type: ignore[arg-type]
    return state


def with_coins(state: CoupState, **coins: int) -> CoupState:
    """The same table with some players' coins set, the supply keeping the total (C2)."""
    seats = tuple(replace(p, coins=coins.get(p.id, p.coins)) for p in state.players)
    return replace(state, players=seats, supply=TOTAL_COINS - sum(p.coins for p in seats))


def coins(state: CoupState) -> dict[str, int]:
    return {p.id: p.coins for p in state.players}


def influence(state: CoupState) -> dict[str, int]:
    return {p.id: p.influence for p in state.players}


def texts(state: CoupState) -> list[str]:
    return [log_text(e) for e in state.log]


def refused(rule: str, state: CoupState, action: object) -> RuleError:
    with pytest.raises(RuleError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert caught.value.rule == rule
    return caught.value


ABC = ("A", "B", "C")


# --- worked examples -------------------------------------------------------------------


def test_C4_C8_example1_foreign_aid_blocked_by_duchess_gains_nothing():
    s = new_game(ABC)
    s = play(s, Declare("A", "foreign_aid"), Block("B", "duchess"), Challenge(None))
    assert coins(s) == {"A": 2, "B": 2, "C": 2}
    assert s.supply == TOTAL_COINS - 6
    assert s.turn == "B" and s.step == "declare"
    assert log_text(s.log[-1]) == "The block stands: the action fails."


def test_C5_C7_C8_example2_countess_shown_blocks_and_challenger_loses():
    s = with_coins(new_game(ABC), A=5)
    s = play(s, Declare("A", "assassinate", "B"), Challenge(None), Block("B", "countess"))
    assert awaiting(s).kind == "challenge" and awaiting(s).claimant == "B"
    s = play(s, Challenge("A"), Reveal("B", "countess", True))
    assert awaiting(s).kind == "lose_influence" and awaiting(s).players == ("A",)
    s = apply(s, LoseInfluence("A", "captain"))
    assert influence(s) == {"A": 1, "B": 2, "C": 2}
    assert coins(s)["A"] == 2  # C8: the Assassin's 3 coins stay paid
    assert s.players[1].face_up == ()  # the shown Countess went back to the Court
    assert s.court == 9 and s.turn == "B"
    assert (
        "B shows the claimed card (Countess), shuffles it into the Court and draws a new one."
        in texts(s)
    )


def test_C5_C7_example3_assassin_shown_target_loses_two_and_is_out():
    s = with_coins(new_game(ABC), A=5, B=4)
    s = play(s, Declare("A", "assassinate", "B"), Challenge("B"), Reveal("A", "assassin", True))
    s = apply(s, LoseInfluence("B", "duchess"))  # for the lost challenge
    assert awaiting(s).kind == "block" and awaiting(s).players == ("B",)
    s = play(s, Block(None), LoseInfluence("B", "captain"))  # for the assassination
    b = s.player("B")
    assert b.influence == 0 and not b.alive and b.face_up == ("duchess", "captain")
    assert b.coins == 0 and s.supply == TOTAL_COINS - 2 - 2  # C9: B's 4 coins returned
    assert s.turn == "C" and s.winner is None


def test_C5_C7_example4_assassin_bluff_refunds_and_target_loses_nothing():
    s = with_coins(new_game(ABC), A=5)
    s = play(s, Declare("A", "assassinate", "B"), Challenge("B"))
    assert coins(s)["A"] == 2
    s = apply(s, Reveal("A", "duchess", False))
    assert influence(s) == {"A": 1, "B": 2, "C": 2}
    assert s.player("A").face_up == ("duchess",)
    assert coins(s)["A"] == 5  # readings: a bluffed action is refunded
    assert s.turn == "B" and s.step == "declare"


def test_C6_example5_ten_coins_only_coup_and_ends_with_three():
    s = with_coins(new_game(ABC), A=10)
    assert legal_actions(s) == (Declare("A", "coup", "B"), Declare("A", "coup", "C"))
    refused("C6", s, Declare("A", "income"))
    refused("C6", s, Declare("A", "assassinate", "B"))
    s = play(s, Declare("A", "coup", "C"), LoseInfluence("C", "countess"))
    assert coins(s)["A"] == 3 and influence(s)["C"] == 1


def test_C5_example6_captain_steals_the_only_coin():
    s = with_coins(new_game(ABC), B=1)
    s = play(s, Declare("A", "steal", "B"), Challenge(None), Block(None))
    assert coins(s) == {"A": 3, "B": 0, "C": 2}
    assert s.supply == TOTAL_COINS - 5


def test_C1_C8_example7_ambassador_block_refused_in_inquisitor_game():
    s = new_game(ABC, "inquisitor")
    s = play(s, Declare("A", "steal", "B"), Challenge(None))
    err = refused("C1", s, Block("B", "ambassador"))
    assert "Ambassador is not in this game" in err.text
    assert Block("B", "inquisitor") in options(s) and Block("B", "ambassador") not in options(s)
    s = apply(s, Block("B", "inquisitor"))
    assert s.pending is not None and s.pending.block == "inquisitor"


def test_C1_C2_example8_eight_players_twenty_cards_court_four():
    s = new_game(tuple("ABCDEFGH"))
    assert s.copies == 4 and s.copies * 5 == 20
    assert s.court == 4 and s.out_of_game == 0
    assert s.supply == TOTAL_COINS - 16


# --- C1–C3: setup ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "copies", "court", "out"),
    [(2, 3, 3, 8), (3, 3, 9, 0), (4, 3, 7, 0), (6, 3, 3, 0), (7, 4, 6, 0), (8, 4, 4, 0)],
)
def test_C1_C2_C3_copies_court_and_cards_out_by_player_count(count, copies, court, out):
    s = new_game(tuple("ABCDEFGH"[:count]))
    assert (s.copies, s.court, s.out_of_game) == (copies, court, out)
    # every card of the box used is somewhere: hands, the Court or set aside
    assert 2 * count + court + out == 5 * copies
    assert all(p.coins == 2 for p in s.players) and s.supply == TOTAL_COINS - 2 * count


@pytest.mark.parametrize("players", [("A",), tuple("ABCDEFGHI"), ("A", "A"), ("A", ""), "AB"])
def test_C1_player_count_and_names_refused(players):
    with pytest.raises(RuleError) as caught:
        new_game(players)
    assert caught.value.rule == "C1"


def test_C1_variant_must_be_ambassador_or_inquisitor():
    with pytest.raises(RuleError) as caught:
        new_game(ABC, "both")
    assert caught.value.rule == "C1"
    assert new_game(ABC, "inquisitor").in_play == (
        "duchess", "assassin", "captain", "inquisitor", "countess"
    )


def test_C1_left_out_character_has_no_power():
    s = new_game(ABC, "inquisitor")
    refused("C1", s, Declare("A", "exchange"))
    assert {a.action for a in legal_actions(s)} == {
        "income", "foreign_aid", "tax", "steal", "inquisitor_exchange", "examine"
    }
    s = new_game(ABC, "ambassador")
    refused("C1", s, Declare("A", "examine", "B"))
    refused("C1", s, Declare("A", "inquisitor_exchange"))


def test_C3_two_players_one_coin_start_setting():
    s = new_game(("A", "B"), first="B", one_coin_start=True)
    assert coins(s) == {"A": 2, "B": 1} and s.turn == "B"
    assert s.supply == TOTAL_COINS - 3
    with pytest.raises(RuleError) as caught:
        new_game(ABC, one_coin_start=True)
    assert caught.value.rule == "C3"


def test_C4_starting_player_is_data():
    assert new_game(ABC, first="C").turn == "C"
    with pytest.raises(RuleError) as caught:
        new_game(ABC, first="Z")
    assert caught.value.rule == "C4"


# --- C4–C6: actions ---------------------------------------------------------------------


def test_C4_income_cannot_be_challenged_or_blocked_and_turn_passes_clockwise():
    s = play(new_game(ABC, first="B"), Declare("B", "income"))
    assert coins(s)["B"] == 3 and s.turn == "C" and s.step == "declare"
    s = play(s, Declare("C", "income"))
    assert s.turn == "A"


def test_C4_not_your_turn_and_unknown_action_refused():
    s = new_game(ABC)
    refused("C4", s, Declare("B", "income"))
    refused("C4", s, Declare("A", "bribe"))
    refused("C4", s, Declare("A", "income", "B"))  # income has no target
    refused("C4", s, Declare("A", "steal"))  # a steal needs one
    refused("C4", s, Declare("A", "steal", "A"))
    refused("C1", s, Declare("Z", "income"))


def test_C4_coup_needs_seven_and_cannot_be_challenged_or_blocked():
    s = with_coins(new_game(ABC), A=6)
    refused("C4", s, Declare("A", "coup", "B"))
    assert all(a.action != "coup" for a in legal_actions(s))
    s = with_coins(s, A=7)
    s = apply(s, Declare("A", "coup", "B"))
    q = awaiting(s)
    assert (q.kind, q.players, q.reason) == ("lose_influence", ("B",), "coup")
    refused("C9", s, Challenge("B"))
    refused("C9", s, Block("B", "countess"))
    s = apply(s, LoseInfluence("B", "assassin"))
    assert coins(s)["A"] == 0 and s.supply == TOTAL_COINS - 4


def test_C5_duchess_tax_is_challenged_but_never_blocked():
    s = play(new_game(ABC), Declare("A", "tax"))
    assert awaiting(s).kind == "challenge" and awaiting(s).players == ("B", "C")
    s = apply(s, Challenge(None))
    assert coins(s)["A"] == 5 and s.turn == "B"


def test_C5_assassin_costs_three():
    s = new_game(ABC)
    refused("C5", s, Declare("A", "assassinate", "B"))
    s = with_coins(s, A=3)
    assert Declare("A", "assassinate", "C") in legal_actions(s)


def test_C5_captain_steal_blocked_by_captain_challenged_by_third_player():
    s = play(new_game(ABC), Declare("A", "steal", "B"), Challenge(None))
    q = awaiting(s)
    assert (q.kind, q.players, q.characters) == ("block", ("B",), ("captain", "ambassador"))
    refused("C8", s, Block("C", "captain"))  # only the target blocks a steal
    refused("C5", s, Block("B", "duchess"))
    s = apply(s, Block("B", "captain"))
    assert awaiting(s).players == ("A", "C")  # C8: any player challenges a block
    s = play(s, Challenge("C"), Reveal("B", "captain", True), LoseInfluence("C", "duchess"))
    assert coins(s) == {"A": 2, "B": 2, "C": 2} and influence(s)["C"] == 1


def test_C5_ambassador_exchange_changes_nothing_visible():
    s = play(new_game(ABC), Declare("A", "exchange"), Challenge(None))
    assert s.court == 9 and coins(s)["A"] == 2 and s.turn == "B"
    assert log_text(s.log[-1]) == "A exchanges with the Court."


def test_C5_inquisitor_exchange_and_examine_both_powers():
    s = new_game(ABC, "inquisitor")
    s = play(s, Declare("A", "inquisitor_exchange"), Challenge(None))
    assert s.court == 9 and s.turn == "B"
    s = play(s, Declare("B", "examine", "C"), Challenge(None))
    q = awaiting(s)
    assert (q.kind, q.players, q.target) == ("examine", ("B",), "C")
    assert options(s) == (ExamineVerdict("B", False), ExamineVerdict("B", True))
    refused("C5", s, ExamineVerdict("C", True))
    refused("C4", s, ExamineVerdict("B", "yes"))  # type: ignore[arg-type]
    swapped = apply(s, ExamineVerdict("B", True))
    assert "shuffle the examined card" in log_text(swapped.log[-1])
    kept = apply(s, ExamineVerdict("B", False))
    assert log_text(kept.log[-1]) == "B gives the examined card back to C."
    assert kept.turn == swapped.turn == "C" and kept.court == 9


def test_C6_forced_coup_counts_coins_at_turn_start_only():
    s = with_coins(new_game(ABC), A=9)
    s = play(s, Declare("A", "income"))
    assert coins(s)["A"] == 10 and s.turn == "B"  # 10 reached during the turn: no coup yet
    s = play(s, Declare("B", "income"), Declare("C", "income"))
    assert {a.action for a in legal_actions(s)} == {"coup"}
    assert state_to_dict(s)["must_coup"] is True


# --- C7–C9: challenges, blocks, losses ------------------------------------------------


def test_C7_challenge_rules():
    s = play(new_game(ABC), Declare("A", "tax"))
    refused("C7", s, Challenge("A"))  # own claim
    refused("C1", s, Challenge("Z"))
    refused("C7", s, Block("B", "duchess"))  # readings: the claim is challenged first
    s = apply(s, Challenge("B"))
    q = awaiting(s)
    assert (q.kind, q.players, q.claim, q.can_show) == ("show_or_turn_up", ("A",), "duchess", True)
    refused("C7", s, Reveal("B", "duchess", True))  # only the claimant answers
    refused("C7", s, Reveal("A", "captain", True))  # only the claimed card is shown
    refused("C4", s, Reveal("A", "duchess", 1))  # type: ignore[arg-type]
    won = play(s, Reveal("A", "duchess", True), LoseInfluence("B", "countess"))
    assert coins(won)["A"] == 5 and influence(won)["B"] == 1
    lost = apply(s, Reveal("A", "duchess", False))  # "will not show": may turn up the Duchess
    assert coins(lost)["A"] == 2 and lost.player("A").face_up == ("duchess",)


def test_C8_foreign_aid_any_player_blocks_and_bluffed_block_lets_action_through():
    s = play(new_game(ABC), Declare("A", "foreign_aid"))
    assert awaiting(s).kind == "block" and awaiting(s).players == ("B", "C")
    refused("C8", s, Block("A", "duchess"))
    refused("C4", s, Block("C", "countess"))
    refused("C8", s, Block(None, "duchess"))
    s = play(s, Block("C", "duchess"), Challenge("A"), Reveal("C", "captain", False))
    assert coins(s)["A"] == 4 and s.player("C").face_up == ("captain",)
    assert texts(s)[-3:] == [
        "C does not show the claimed card and turns a card face up: Captain.",
        "The block fails.",
        "A gains 2 coins.",
    ]


def test_C8_blocked_assassination_keeps_coins_paid():
    s = with_coins(new_game(ABC), A=3)
    s = play(s, Declare("A", "assassinate", "C"), Challenge(None), Block("C", "countess"))
    s = apply(s, Challenge(None))
    assert coins(s)["A"] == 0 and influence(s)["C"] == 2
    assert s.supply == TOTAL_COINS - 4 - 0


def test_C8_only_target_blocks_assassination_and_only_with_countess():
    s = with_coins(new_game(ABC), A=3)
    s = play(s, Declare("A", "assassinate", "C"), Challenge(None))
    assert options(s) == (Block(None), Block("C", "countess"))
    refused("C8", s, Block("B", "countess"))
    refused("C5", s, Block("C", "captain"))


def test_C9_loser_chooses_the_card_and_only_the_loser_answers():
    s = with_coins(new_game(ABC), A=7)
    s = apply(s, Declare("A", "coup", "B"))
    refused("C9", s, LoseInfluence("C", "duchess"))
    refused("C1", s, LoseInfluence("B", "inquisitor"))
    refused("C1", s, LoseInfluence("B", "jester"))
    s = apply(s, LoseInfluence("B", "ambassador"))
    assert s.player("B").face_up == ("ambassador",)


def test_C9_out_players_are_skipped_cannot_challenge_or_be_targeted():
    s = with_coins(new_game(ABC), A=7, B=5)
    s = apply(s, Declare("A", "coup", "B"))
    s = apply(s, LoseInfluence("B", "duchess"))
    s = with_coins(s, C=7)
    s = play(s, Declare("B", "income"), Declare("C", "coup", "B"), LoseInfluence("B", "captain"))
    assert not s.player("B").alive and s.player("B").coins == 0
    assert s.supply == TOTAL_COINS - coins(s)["A"] - coins(s)["C"]
    assert s.turn == "A"  # B is skipped
    assert all(a.target != "B" for a in legal_actions(s))
    refused("C4", s, Declare("A", "steal", "B"))
    s = apply(s, Declare("A", "tax"))
    refused("C7", s, Challenge("B"))
    assert awaiting(s).players == ("C",)


def test_C10_last_player_with_a_face_down_card_wins_and_game_stops():
    s = with_coins(new_game(("A", "B")), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"))
    s = with_coins(s, A=7)
    s = play(s, Declare("B", "income"), Declare("A", "coup", "B"), LoseInfluence("B", "captain"))
    assert s.winner == "A" and s.step == "over"
    assert awaiting(s).kind == "over" and options(s) == () and legal_actions(s) == ()
    assert log_text(s.log[-1]) == "A wins the game."
    refused("C10", s, Declare("A", "income"))


def test_C10_game_can_end_in_the_middle_of_a_turn():
    s = with_coins(new_game(("A", "B")), B=7)
    s = play(s, Declare("A", "income"), Declare("B", "coup", "A"), LoseInfluence("A", "countess"))
    s = play(s, Declare("A", "tax"), Challenge("B"), Reveal("A", "captain", False))
    assert s.winner == "B" and s.pending is None and coins(s)["A"] == 0


# --- readings -----------------------------------------------------------------------------


def test_readings_target_who_challenged_and_lost_may_still_block():
    s = with_coins(new_game(ABC), A=3)
    s = play(s, Declare("A", "assassinate", "B"), Challenge("B"))
    s = play(s, Reveal("A", "assassin", True), LoseInfluence("B", "duchess"))
    assert options(s) == (Block(None), Block("B", "countess"))
    s = play(s, Block("B", "countess"), Challenge(None))
    assert influence(s)["B"] == 1 and coins(s)["A"] == 0


def test_readings_target_out_after_lost_challenge_gets_no_block_and_action_fizzles():
    s = with_coins(new_game(ABC), B=3)
    s = apply(s, Declare("A", "income"))
    s = play(s, Declare("B", "steal", "C"), Challenge("C"), Reveal("B", "captain", True))
    s = apply(s, LoseInfluence("C", "duchess"))
    s = play(s, Block(None), Declare("C", "income"), Declare("A", "income"))
    s = play(s, Declare("B", "steal", "C"), Challenge("C"), Reveal("B", "captain", True))
    s = apply(s, LoseInfluence("C", "countess"))  # C is out: coins back to the supply
    assert s.step == "declare" and s.turn == "A"
    assert coins(s) == {"A": 4, "B": 5, "C": 0}
    assert "no effect" in log_text(s.log[-1])


def test_readings_bluffed_block_double_loss_in_one_turn():
    s = with_coins(new_game(ABC), A=3)
    s = play(s, Declare("A", "assassinate", "B"), Challenge(None), Block("B", "countess"))
    s = play(s, Challenge("C"), Reveal("B", "duchess", False))
    q = awaiting(s)
    assert (q.kind, q.players, q.reason) == ("lose_influence", ("B",), "assassination")
    s = apply(s, LoseInfluence("B", "assassin"))
    assert not s.player("B").alive and influence(s)["C"] == 2


def test_readings_order_claim_then_block_then_block_challenge():
    s = with_coins(new_game(ABC), A=3)
    s = apply(s, Declare("A", "assassinate", "B"))
    kinds = [awaiting(s).kind]
    s = apply(s, Challenge(None))
    kinds.append(awaiting(s).kind)
    s = apply(s, Block("B", "countess"))
    kinds.append(awaiting(s).kind)
    assert kinds == ["challenge", "block", "challenge"]
    refused("C8", s, Block("B", "countess"))


def test_C1_readings_card_counting_refuses_a_fourth_duchess():
    s = new_game(ABC)
    for loser, card in [("B", "duchess"), ("C", "duchess"), ("A", "duchess")]:
        s = with_coins(s, **{s.turn: 7})
        s = play(s, Declare(s.turn, "coup", loser), LoseInfluence(loser, card))
    assert s.face_up_count("duchess") == 3
    s = play(s, Declare("A", "tax"), Challenge("B"))
    assert awaiting(s).can_show is False
    assert Reveal("A", "duchess", True) not in options(s)
    assert all(o.character != "duchess" for o in options(s))
    refused("C1", s, Reveal("A", "duchess", True))
    refused("C1", s, Reveal("A", "duchess", False))


def test_C1_card_shown_counts_while_the_challenger_pays():
    s = new_game(ABC)
    for loser in ("B", "C"):
        s = with_coins(s, **{s.turn: 7})
        s = play(s, Declare(s.turn, "coup", loser), LoseInfluence(loser, "countess"))
    assert s.turn == "C"
    s = with_coins(s, C=3)
    s = play(s, Declare("C", "assassinate", "A"), Challenge(None), Block("A", "countess"))
    s = play(s, Challenge("B"), Reveal("A", "countess", True))
    # the third Countess was just shown: B cannot be turning one up
    refused("C1", s, LoseInfluence("B", "countess"))
    assert LoseInfluence("B", "countess") not in options(s)
    s = apply(s, LoseInfluence("B", "captain"))
    assert s.shown is None and not s.player("B").alive


def test_C2_supply_can_run_dry_and_a_player_takes_what_is_left():
    s = with_coins(new_game(ABC), B=25, C=26)
    assert s.supply == 1
    s = play(s, Declare("A", "tax"), Challenge(None))
    assert coins(s)["A"] == 3 and s.supply == 0
    assert log_text(s.log[-1]) == "A gains 1 coins."
