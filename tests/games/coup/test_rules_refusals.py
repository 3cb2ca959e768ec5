"""Coup rules engine: every refusal says which rule (C1–C10) and what to do, in full."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games.coup.rules import (
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Pending,
    Reveal,
    apply,
    new_game,
)
from referee.rules import RuleError
from tests.games.coup.test_rules import ABC, play, with_coins


def refusal(state: CoupState, action: object) -> tuple[str | None, str]:
    with pytest.raises(RuleError) as caught:
        apply(state, action)  # type: ignore[arg-type]
    return caught.value.rule, caught.value.text


def setup_refusal(*args: object, **kwargs: object) -> tuple[str | None, str]:
    with pytest.raises(RuleError) as caught:
        new_game(*args, **kwargs)  # type: ignore[arg-type]
    return caught.value.rule, caught.value.text


# --- C1, C3, C4: setup ----------------------------------------------------------------


def test_C1_C3_C4_setup_refusals_say_what_to_change():
    names = ("C1", "Give every player a distinct, non-empty name.")
    assert setup_refusal(("A", "A")) == names
    assert setup_refusal(("A", "")) == names
    assert setup_refusal(("A", 3)) == names
    assert setup_refusal(("A",)) == ("C1", "Coup is for 2 to 8 players, not 1.")
    assert setup_refusal(tuple("ABCDEFGHI")) == ("C1", "Coup is for 2 to 8 players, not 9.")
    assert setup_refusal("AB") == ("C1", "Coup is for 2 to 8 players, not 0.")  # not a list
    assert setup_refusal(ABC, "both") == (
        "C1", "Choose the Ambassador or the Inquisitor as the fifth character."
    )
    assert setup_refusal(ABC, first="Z") == (
        "C4", "The starting player Z is not at the table; choose one of A, B, C."
    )
    one_coin = ("C3", "Only a 2-player game may give the starting player 1 coin; turn it off.")
    assert setup_refusal(ABC, one_coin_start=True) == one_coin
    assert setup_refusal(("A", "B"), one_coin_start=1) == one_coin
    assert new_game(("A", "B"), one_coin_start=False).players[0].coins == 2
    assert [p.coins for p in new_game(["A", "B"], one_coin_start=True).players] == [1, 2]
    assert new_game(["A", "B", "C", "D", "E", "F", "G"]).copies == 4
    assert new_game(list("ABCDEF")).copies == 3


# --- C4, C10: one question at a time ------------------------------------------------------


def test_C4_C7_C8_C9_C5_an_answer_to_another_question_names_who_must_answer():
    s = with_coins(new_game(ABC), A=7, C=3)
    assert refusal(s, Challenge(None)) == ("C4", "First A declares an action for this turn.")
    tax = apply(s, Declare("A", "tax"))
    assert refusal(tax, Block(None)) == (
        "C7", "First record who challenges the claim of A, or that nobody does."
    )
    prove = apply(tax, Challenge("B"))
    assert refusal(prove, Challenge(None)) == (
        "C7", "First record whether A shows the claimed card or turns a card face up."
    )
    coup = apply(s, Declare("A", "coup", "B"))
    assert refusal(coup, Declare("A", "income")) == (
        "C9", "First record which card B turns face up."
    )
    s = play(coup, LoseInfluence("B", "duchess"), Declare("B", "income"))
    steal = play(s, Declare("C", "steal", "A"), Challenge(None))
    assert refusal(steal, Challenge(None)) == (
        "C8", "First record who blocks the action of C, or that nobody does."
    )
    blocked = apply(steal, Block("A", "captain"))
    assert refusal(blocked, Block(None)) == (
        "C8", "First record who challenges the block by A, or that nobody does."
    )
    proving = apply(blocked, Challenge("B"))
    assert refusal(proving, Challenge(None)) == (
        "C7", "First record whether A shows the claimed card or turns a card face up."
    )
    paying = apply(proving, Reveal("A", "captain", True))
    assert refusal(paying, Reveal("A", "captain", True)) == (
        "C9", "First record which card B turns face up."
    )


def test_C5_examine_waits_for_the_inquisitor_player_verdict():
    s = play(new_game(ABC, "inquisitor", first="B"), Declare("B", "examine", "C"), Challenge(None))
    assert refusal(s, Challenge(None)) == (
        "C5",
        "First record whether B gives the examined card back or has it swapped.",
    )
    assert refusal(s, ExamineVerdict("C", True)) == (
        "C5", "Only the Inquisitor's player, B, decides about the examined card."
    )
    assert refusal(s, ExamineVerdict("B", "yes")) == (
        "C4", "The field swap must be yes or no; send true or false."
    )


def test_C10_a_finished_game_refuses_everything_naming_the_winner():
    s = with_coins(new_game(("A", "B")), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"), Declare("B", "income"))
    s = with_coins(s, A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "countess"))
    over = ("C10", "The game is over: A has won; start a new game.")
    assert refusal(s, Declare("B", "income")) == over
    assert refusal(s, LoseInfluence("B", "captain")) == over


def test_C4_hand_made_states_without_a_pending_action_are_refused_not_crashed():
    s = new_game(ABC)
    no_action = ("C4", "No action is being settled; declare an action first.")
    assert refusal(replace(s, step="challenge"), Challenge(None)) == no_action
    assert refusal(replace(s, step="block"), Block(None)) == no_action
    assert refusal(replace(s, step="examine"), ExamineVerdict("A", True)) == no_action
    assert refusal(replace(s, step="prove"), Block(None)) == (
        "C7", "First record whether A shows the claimed card or turns a card face up."
    )
    assert refusal(replace(s, step="prove_block"), Block(None)) == (
        "C7", "First record whether A shows the claimed card or turns a card face up."
    )
    assert refusal(replace(s, step="lose_influence"), Block(None)) == (
        "C9", "First record which card A turns face up."
    )
    assert refusal(replace(s, step="over"), Block(None)) == (
        "C10", "The game is over: A has won; start a new game."
    )
    assert refusal(replace(s, step="nap"), Block(None)) == (
        "C4", "First A declares an action for this turn."
    )
    pending = Pending(actor="B", action="tax")
    assert refusal(replace(s, step="challenge", pending=pending), Block(None)) == (
        "C7", "First record who challenges the claim of B, or that nobody does."
    )


# --- C4–C6: declaring --------------------------------------------------------------------


def test_C4_C5_C6_declaration_refusals_say_what_is_allowed():
    s = new_game(ABC)
    assert refusal(s, Declare("B", "income")) == ("C4", "It is the turn of A, not of B.")
    assert refusal(s, Declare("Z", "income")) == (
        "C1", "Unknown player Z; choose one of A, B, C."
    )
    assert refusal(s, Declare(None, "income")) == (
        "C1", "Unknown player None; choose one of A, B, C."
    )
    assert refusal(s, Declare("A", "bribe")) == (
        "C4",
        "Unknown action bribe; choose one of income, foreign_aid, coup, tax, assassinate, "
        "steal, exchange, inquisitor_exchange, examine.",
    )
    assert refusal(s, Declare("A", ["tax"]))[0] == "C4"
    assert refusal(s, Declare("A", "coup", "B")) == (
        "C4",
        "This action costs 7 coins and A has 2; choose an action they can pay for.",
    )
    assert refusal(s, Declare("A", "assassinate", "B")) == (
        "C5",
        "This action costs 3 coins and A has 2; choose an action they can pay for.",
    )
    assert refusal(s, Declare("A", "income", "B")) == (
        "C4", "This action has no target; leave the target empty."
    )
    opponents = (
        "C4", "Choose the target among the opponents still in the game: B, C."
    )
    assert refusal(s, Declare("A", "steal")) == opponents
    assert refusal(s, Declare("A", "steal", "A")) == opponents
    assert refusal(s, Declare("A", "examine", "B")) == (
        "C1",
        "The Inquisitor is not in this game (it uses the Ambassador); choose a character "
        "that is in play.",
    )
    rich = with_coins(s, A=10)
    assert refusal(rich, Declare("A", "tax")) == (
        "C6", "A starts the turn with 10 coins and must launch a coup."
    )
    assert apply(with_coins(s, A=9), Declare("A", "tax")).step == "challenge"  # 9 < 10
    assert apply(with_coins(s, A=7), Declare("A", "coup", "B")).step == "lose_influence"
    assert apply(with_coins(s, A=3), Declare("A", "assassinate", "B")).step == "challenge"
    inquisitor = new_game(ABC, "inquisitor")
    assert refusal(inquisitor, Declare("A", "exchange")) == (
        "C1",
        "The Ambassador is not in this game (it uses the Inquisitor); choose a character "
        "that is in play.",
    )


def test_C9_an_out_player_is_no_target():
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"), Declare("B", "income"))
    s = with_coins(s, C=7)
    s = play(s, Declare("C", "coup", "B"), LoseInfluence("B", "captain"))
    assert refusal(s, Declare("A", "steal", "B")) == (
        "C4", "Choose the target among the opponents still in the game: C."
    )


# --- C7–C9: challenges, reveals, blocks, losses --------------------------------------------


def test_C7_challenge_and_reveal_refusals():
    s = play(new_game(ABC), Declare("A", "tax"))
    assert refusal(s, Challenge("A")) == (
        "C7", "A cannot challenge their own claim; choose another player."
    )
    assert refusal(s, Challenge("Z")) == ("C1", "Unknown player Z; choose one of A, B, C.")
    s = apply(s, Challenge("B"))
    assert refusal(s, Reveal("B", "duchess", True)) == (
        "C7", "Only A answers this challenge: show the card or turn one face up."
    )
    assert refusal(s, Reveal("A", "captain", True)) == (
        "C7",
        "Only the claimed card wins a challenge; if A cannot show it, they turn a card "
        "face up instead.",
    )
    assert refusal(s, Reveal("A", "duchess", "no")) == (
        "C4", "The field shown must be yes or no; send true or false."
    )
    assert refusal(s, Reveal("A", "jester", False)) == (
        "C1",
        "Unknown character jester; choose one of duchess, assassin, captain, ambassador, "
        "countess.",
    )
    assert refusal(s, Reveal("A", None, False))[0] == "C1"
    assert refusal(s, Reveal("A", "inquisitor", False))[0] == "C1"


def test_C7_C9_an_out_player_cannot_challenge():
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"), Declare("B", "income"))
    s = with_coins(s, C=7)
    s = play(s, Declare("C", "coup", "B"), LoseInfluence("B", "captain"), Declare("A", "tax"))
    assert refusal(s, Challenge("B")) == (
        "C7", "B is out of the game; choose a player who still has influence."
    )
    s = play(s, Challenge(None), Declare("C", "foreign_aid"))
    assert refusal(s, Block("B", "duchess")) == (
        "C8", "B is out of the game; choose a player who still has influence."
    )


def test_C8_block_refusals_name_the_right_blocker_and_character():
    s = with_coins(new_game(ABC), A=3)
    aid = apply(s, Declare("A", "foreign_aid"))
    assert refusal(aid, Block(None, "duchess")) == (
        "C8", "Name the player who blocks, or record that nobody does."
    )
    assert refusal(aid, Block("A", "duchess")) == ("C8", "A cannot block their own action.")
    assert refusal(aid, Block("B", "captain")) == (
        "C4", "Only the Duchess blocks foreign aid; claim the Duchess."
    )
    assert refusal(aid, Block("B", None))[0] == "C1"
    hit = play(s, Declare("A", "assassinate", "B"), Challenge(None))
    assert refusal(hit, Block("C", "countess")) == (
        "C8", "Only the target, B, may block this action."
    )
    assert refusal(hit, Block("B", "duchess")) == (
        "C5", "Only the Countess blocks an assassination; claim the Countess."
    )
    steal = play(s, Declare("A", "steal", "C"), Challenge(None))
    assert refusal(steal, Block("C", "countess")) == (
        "C5",
        "Only the Captain, the Ambassador or the Inquisitor blocks a steal; claim one of "
        "those in play.",
    )
    blocked = apply(steal, Block("C", "captain"))
    assert refusal(blocked, Challenge("C")) == (
        "C7", "C cannot challenge their own claim; choose another player."
    )
    assert apply(blocked, Challenge("B")).pending.block_challenger == "B"
    assert refusal(apply(blocked, Challenge("B")), Reveal("A", "captain", True)) == (
        "C7", "Only C answers this challenge: show the card or turn one face up."
    )


def test_C9_C1_loss_refusals():
    s = with_coins(new_game(ABC), A=7)
    s = apply(s, Declare("A", "coup", "B"))
    assert refusal(s, LoseInfluence("C", "duchess")) == (
        "C9", "B turns a card face up now, not C."
    )
    assert refusal(s, LoseInfluence("B", "inquisitor")) == (
        "C1",
        "The Inquisitor is not in this game (it uses the Ambassador); choose a character "
        "that is in play.",
    )
    s = new_game(ABC)
    for loser in ("B", "C", "A"):
        s = with_coins(s, **{s.turn: 7})
        s = play(s, Declare(s.turn, "coup", loser), LoseInfluence(loser, "captain"))
    s = with_coins(s, **{s.turn: 7})
    s = apply(s, Declare("A", "coup", "B"))
    assert refusal(s, LoseInfluence("B", "captain")) == (
        "C1",
        "All 3 copies of this character are already face up or shown, so this card cannot "
        "be it; record the card actually on the table.",
    )
