"""Coup rules engine: the question on the referee's screen and its one-tap answers, in
full, for each step of a turn (C4–C10)."""

from __future__ import annotations

from dataclasses import replace

from referee.games.coup.rules import (
    Block,
    Challenge,
    Declare,
    ExamineVerdict,
    LoseInfluence,
    Question,
    Reveal,
    apply,
    awaiting,
    legal_actions,
    new_game,
    options,
)
from tests.games.coup.test_rules import ABC, play, with_coins

AMBASSADOR_GAME = ("duchess", "assassin", "captain", "ambassador", "countess")


def b_to_play_with_three_coins():
    """A has couped B (B turned up a Duchess); B, on 3 coins, is to play."""
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"))
    return with_coins(s, B=3)


def test_C4_C5_legal_actions_in_table_order_with_every_target():
    s = with_coins(new_game(ABC), A=7)
    assert awaiting(s) == Question("declare", ("A",), actor="A")
    assert legal_actions(s) == options(s) == (
        Declare("A", "income"),
        Declare("A", "foreign_aid"),
        Declare("A", "coup", "B"),
        Declare("A", "coup", "C"),
        Declare("A", "tax"),
        Declare("A", "assassinate", "B"),
        Declare("A", "assassinate", "C"),
        Declare("A", "steal", "B"),
        Declare("A", "steal", "C"),
        Declare("A", "exchange"),
    )
    poor = with_coins(new_game(ABC, "inquisitor"), A=2)
    assert legal_actions(poor) == (
        Declare("A", "income"),
        Declare("A", "foreign_aid"),
        Declare("A", "tax"),
        Declare("A", "steal", "B"),
        Declare("A", "steal", "C"),
        Declare("A", "inquisitor_exchange"),
        Declare("A", "examine", "B"),
        Declare("A", "examine", "C"),
    )
    assert legal_actions(play(s, Declare("A", "tax"))) == ()  # not a declaration step


def test_C7_the_claim_question_and_the_proof_question():
    s = b_to_play_with_three_coins()
    claim = play(s, Declare("B", "steal", "C"))
    context = {"action": "steal", "actor": "B", "target": "C"}
    assert awaiting(claim) == Question(
        "challenge", ("A", "C"), claimant="B", claim="captain", **context
    )
    assert options(claim) == (Challenge(None), Challenge("A"), Challenge("C"))
    proof = play(claim, Challenge("A"))
    assert awaiting(proof) == Question(
        "show_or_turn_up", ("B",), claimant="B", claim="captain",
        characters=AMBASSADOR_GAME, can_show=True, **context,
    )
    assert options(proof) == (Reveal("B", "captain", True),) + tuple(
        Reveal("B", c, False) for c in AMBASSADOR_GAME
    )
    # the challenger pays for a claim that was shown (C7)
    paying = play(proof, Reveal("B", "captain", True))
    assert awaiting(paying) == Question(
        "lose_influence", ("A",), characters=AMBASSADOR_GAME, reason="challenge", **context
    )


def test_C8_the_block_question_and_the_block_challenge():
    s = b_to_play_with_three_coins()
    steal = play(s, Declare("B", "steal", "C"), Challenge(None))
    context = {"action": "steal", "actor": "B", "target": "C"}
    assert awaiting(steal) == Question(
        "block", ("C",), characters=("captain", "ambassador"), **context
    )
    assert options(steal) == (Block(None), Block("C", "captain"), Block("C", "ambassador"))
    blocked = play(steal, Block("C", "ambassador"))
    assert awaiting(blocked) == Question(
        "challenge", ("A", "B"), claimant="C", claim="ambassador", **context
    )
    proof = play(blocked, Challenge("B"))
    assert awaiting(proof) == Question(
        "show_or_turn_up", ("C",), claimant="C", claim="ambassador",
        characters=AMBASSADOR_GAME, can_show=True, **context,
    )
    assert options(proof)[0] == Reveal("C", "ambassador", True)
    paying = play(proof, Reveal("C", "ambassador", True))
    assert awaiting(paying) == Question(
        "lose_influence", ("B",), characters=AMBASSADOR_GAME, reason="block_challenge",
        **context,
    )
    assert options(paying) == tuple(LoseInfluence("B", c) for c in AMBASSADOR_GAME)
    aid = play(s, Declare("B", "foreign_aid"))
    assert awaiting(aid) == Question(
        "block", ("A", "C"), action="foreign_aid", actor="B", characters=("duchess",)
    )
    assert options(aid) == (Block(None), Block("A", "duchess"), Block("C", "duchess"))


def test_C5_C9_assassination_loss_and_examine_questions():
    s = b_to_play_with_three_coins()
    hit = play(s, Declare("B", "assassinate", "C"), Challenge(None), Block(None))
    assert awaiting(hit) == Question(
        "lose_influence", ("C",), action="assassinate", actor="B", target="C",
        characters=AMBASSADOR_GAME, reason="assassination",
    )
    coup = play(with_coins(new_game(ABC), A=7), Declare("A", "coup", "C"))
    assert awaiting(coup).reason == "coup" and awaiting(coup).players == ("C",)
    examine = play(new_game(ABC, "inquisitor"), Declare("A", "examine", "C"), Challenge(None))
    assert awaiting(examine) == Question(
        "examine", ("A",), action="examine", actor="A", target="C"
    )
    assert options(examine) == (ExamineVerdict("A", False), ExamineVerdict("A", True))


def test_C1_a_claim_whose_copies_are_all_face_up_cannot_be_shown():
    s = new_game(ABC)
    for loser in ("B", "C", "A"):
        s = with_coins(s, **{s.turn: 7})
        s = play(s, Declare(s.turn, "coup", loser), LoseInfluence(loser, "captain"))
    s = with_coins(s, A=2)
    proof = play(s, Declare("A", "steal", "B"), Challenge("C"))
    q = awaiting(proof)
    assert q.can_show is False and q.claim == "captain"
    assert q.characters == ("duchess", "assassin", "ambassador", "countess")
    assert options(proof) == tuple(
        Reveal("A", c, False) for c in ("duchess", "assassin", "ambassador", "countess")
    )


def test_C4_a_hand_made_state_with_no_pending_action_asks_for_a_declaration():
    s = replace(new_game(ABC), step="challenge")
    assert awaiting(s) == Question("declare", ("A",), actor="A")
    pending = play(new_game(ABC), Declare("A", "tax")).pending
    assert awaiting(replace(s, step="nap", pending=pending)) == Question("over")
    assert options(replace(s, step="nap", pending=pending)) == ()


def test_C1_the_last_copy_of_a_claimed_character_may_still_be_shown():
    s = new_game(ABC)
    for loser in ("B", "C"):
        s = with_coins(s, **{s.turn: 7})
        s = play(s, Declare(s.turn, "coup", loser), LoseInfluence(loser, "duchess"))
    proof = play(s, Declare("C", "tax"), Challenge("A"))
    q = awaiting(proof)
    assert q.can_show is True and "duchess" in q.characters
    assert options(proof)[0] == Reveal("C", "duchess", True)


def test_C7_C9_after_the_challenger_pays_the_table_clears_the_loss_before_the_block():
    s = with_coins(new_game(ABC), A=3)
    s = play(s, Declare("A", "assassinate", "B"), Challenge("C"), Reveal("A", "assassin", True))
    assert (s.loser, s.loss, s.shown) == ("C", "challenge", "assassin")
    s = apply(s, LoseInfluence("C", "duchess"))
    assert awaiting(s).kind == "block"
    assert (s.loser, s.loss, s.shown) == (None, None, None)  # the API shows no loser any more


def test_C1_a_shown_card_counts_once_so_the_challenger_may_turn_up_the_last_copy():
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "countess"), Declare("B", "income"))
    s = with_coins(s, C=3)
    s = play(s, Declare("C", "assassinate", "A"), Challenge(None), Block("A", "countess"))
    s = play(s, Challenge("B"), Reveal("A", "countess", True))
    assert "countess" in awaiting(s).characters  # 3 copies: 1 face up, 1 shown, 1 left
    s = apply(s, LoseInfluence("B", "countess"))
    assert s.face_up_count("countess") == 2 and not s.player("B").alive
