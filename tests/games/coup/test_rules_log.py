"""Coup rules engine: the table's log, line by line (rule id and English text), for
scripted games that use every action, challenge, block and loss of C2–C10."""

from __future__ import annotations

from referee.games.coup.rules import (
    TOTAL_COINS,
    Block,
    Challenge,
    CoupState,
    Declare,
    ExamineVerdict,
    LogEntry,
    LoseInfluence,
    Reveal,
    apply,
    log_text,
    new_game,
)
from tests.games.coup.test_rules import ABC, coins, play, with_coins


def lines(state: CoupState, start: int = 0) -> list[tuple[str, str]]:
    return [(e.rule, log_text(e)) for e in state.log[start:]]


def test_C2_C4_C5_C8_every_ambassador_game_action_leaves_its_line():
    s = with_coins(new_game(("A", "B", "C", "D")), A=7, B=3)
    s = play(
        s,
        Declare("A", "coup", "D"), LoseInfluence("D", "duchess"),
        Declare("B", "assassinate", "C"), Challenge(None), Block("C", "countess"),
        Challenge(None),
        Declare("C", "foreign_aid"), Block(None),
        Declare("D", "income"),
        Declare("A", "tax"), Challenge(None),
        Declare("B", "steal", "A"), Challenge(None), Block(None),
        Declare("C", "exchange"), Challenge(None),
    )
    assert lines(s) == [
        ("C2", "New game: 4 players, 3 copies of each character, 7 cards in the Court, "
               "0 out of the game; A starts."),
        ("C4", "A pays 7 coins and launches a coup against D."),
        ("C9", "D loses an influence and turns a card face up: Duchess."),
        ("C5", "B claims the Assassin, pays 3 coins and targets C."),
        ("C7", "Nobody challenges."),
        ("C8", "C blocks, claiming: Countess."),
        ("C8", "Nobody challenges."),
        ("C8", "The block stands: the action fails."),
        ("C4", "C takes foreign aid."),
        ("C8", "Nobody blocks."),
        ("C4", "C gains 2 coins."),
        ("C4", "D takes income."),
        ("C4", "D gains 1 coins."),
        ("C5", "A claims the Duchess to take 3 coins."),
        ("C7", "Nobody challenges."),
        ("C4", "A gains 3 coins."),
        ("C5", "B claims the Captain to steal from A."),
        ("C7", "Nobody challenges."),
        ("C8", "Nobody blocks."),
        ("C5", "B takes 2 coins from A."),
        ("C5", "C claims the Ambassador to exchange cards with the Court."),
        ("C7", "Nobody challenges."),
        ("C5", "C exchanges with the Court."),
    ]
    assert coins(s) == {"A": 1, "B": 2, "C": 4, "D": 3}
    assert s.supply == TOTAL_COINS - 10 and s.turn == "D"


def test_C3_C5_inquisitor_two_player_game_exchange_and_both_examine_verdicts():
    s = new_game(("A", "B"), "inquisitor", first="B", one_coin_start=True)
    s = play(
        s,
        Declare("B", "inquisitor_exchange"), Challenge(None),
        Declare("A", "examine", "B"), Challenge(None), ExamineVerdict("A", True),
        Declare("B", "examine", "A"), Challenge(None), ExamineVerdict("B", False),
    )
    assert lines(s) == [
        ("C2", "New game: 2 players, 3 copies of each character, 3 cards in the Court, "
               "8 out of the game; B starts."),
        ("C5", "B claims the Inquisitor to exchange a card with the Court."),
        ("C7", "Nobody challenges."),
        ("C5", "B exchanges with the Court."),
        ("C5", "A claims the Inquisitor to examine a card of B."),
        ("C7", "Nobody challenges."),
        ("C5", "A makes B shuffle the examined card into the Court and draw a new one."),
        ("C5", "B claims the Inquisitor to examine a card of A."),
        ("C7", "Nobody challenges."),
        ("C5", "B gives the examined card back to A."),
    ]
    assert coins(s) == {"A": 2, "B": 1} and s.turn == "A"


def test_C7_C8_bluffs_refunds_and_a_block_won_by_showing_the_card():
    s = with_coins(new_game(ABC), A=3)
    s = play(
        s,
        Declare("A", "assassinate", "B"), Challenge("C"), Reveal("A", "captain", False),
        Declare("B", "tax"), Challenge("A"), Reveal("B", "countess", False),
        Declare("C", "steal", "A"), Challenge(None), Block("A", "ambassador"),
        Challenge("C"), Reveal("A", "ambassador", True), LoseInfluence("C", "assassin"),
    )
    assert lines(s, 1) == [
        ("C5", "A claims the Assassin, pays 3 coins and targets B."),
        ("C7", "C challenges A."),
        ("C9", "A does not show the claimed card and turns a card face up: Captain."),
        ("C7", "The action fails; A gets back 3 coins."),
        ("C5", "B claims the Duchess to take 3 coins."),
        ("C7", "A challenges B."),
        ("C9", "B does not show the claimed card and turns a card face up: Countess."),
        ("C7", "The action fails."),
        ("C5", "C claims the Captain to steal from A."),
        ("C7", "Nobody challenges."),
        ("C8", "A blocks, claiming: Ambassador."),
        ("C8", "C challenges A."),
        ("C7", "A shows the claimed card (Ambassador), shuffles it into the Court and draws "
               "a new one."),
        ("C9", "C loses an influence and turns a card face up: Assassin."),
        ("C8", "The block stands: the action fails."),
    ]
    assert coins(s) == {"A": 3, "B": 2, "C": 2} and s.turn == "A" and s.step == "declare"
    assert [p.face_up for p in s.players] == [("captain",), ("countess",), ("assassin",)]


def test_C7_C9_bluff_on_the_last_card_puts_the_actor_out_without_refund():
    s = with_coins(new_game(ABC), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"))
    s = with_coins(s, B=5)
    start = len(s.log)
    s = play(s, Declare("B", "assassinate", "C"), Challenge("A"), Reveal("B", "captain", False))
    assert lines(s, start) == [
        ("C5", "B claims the Assassin, pays 3 coins and targets C."),
        ("C7", "A challenges B."),
        ("C9", "B does not show the claimed card and turns a card face up: Captain."),
        ("C9", "B is out of the game; 2 coins return to the supply."),
        ("C7", "The action fails."),
    ]
    assert coins(s) == {"A": 0, "B": 0, "C": 2} and s.supply == TOTAL_COINS - 2
    assert s.turn == "C" and s.step == "declare" and s.winner is None


def test_C7_C9_C10_bluffed_block_on_the_last_card_ends_the_game_before_the_action():
    s = with_coins(new_game(("A", "B")), A=7)
    s = play(s, Declare("A", "coup", "B"), LoseInfluence("B", "duchess"))
    s = play(s, Declare("B", "income"), Declare("A", "foreign_aid"), Block("B", "duchess"))
    s = apply(s, Challenge("A"))
    start = len(s.log)
    s = apply(s, Reveal("B", "assassin", False))
    assert lines(s, start) == [
        ("C9", "B does not show the claimed card and turns a card face up: Assassin."),
        ("C9", "B is out of the game; 3 coins return to the supply."),
        ("C10", "A wins the game."),
    ]
    # C10: the game stops there: A's foreign aid is never paid out
    assert coins(s) == {"A": 0, "B": 0} and s.supply == TOTAL_COINS
    assert (s.winner, s.step, s.turn, s.pending) == ("A", "over", "A", None)


def test_C5_C9_steal_from_a_target_who_went_out_has_no_effect():
    s = with_coins(new_game(ABC), A=7, B=3)
    s = play(s, Declare("A", "coup", "C"), LoseInfluence("C", "duchess"))
    start = len(s.log)
    s = play(s, Declare("B", "steal", "C"), Challenge("C"), Reveal("B", "captain", True))
    s = apply(s, LoseInfluence("C", "countess"))
    assert lines(s, start) == [
        ("C5", "B claims the Captain to steal from C."),
        ("C7", "C challenges B."),
        ("C7", "B shows the claimed card (Captain), shuffles it into the Court and draws a "
               "new one."),
        ("C9", "C loses an influence and turns a card face up: Countess."),
        ("C9", "C is out of the game; 2 coins return to the supply."),
        ("C9", "C is already out of the game: the action has no effect."),
    ]
    assert coins(s) == {"A": 0, "B": 3, "C": 0} and s.turn == "A"


def test_C9_log_entries_keep_their_params_in_name_order_untranslated():
    s = play(new_game(ABC), Declare("A", "foreign_aid"), Block("B", "duchess"))
    assert s.log[-1] == LogEntry(
        "C8", "%(player)s blocks, claiming: %(character)s.",
        (("character", "duchess"), ("player", "B")),
    )
    assert s.log[0].params == (
        ("copies", 3), ("count", 3), ("court", 9), ("out", 0), ("player", "A")
    )
    # only a param named ``character`` holding a character code is translated as a name
    words = {"%(player)s gains %(coins)s coins.": "%(player)s +%(coins)s", "Captain": "Капитан",
             "%(character)s!": "%(character)s!!", "Duchess": "Герцогиня"}

    def tr(msgid: str) -> str:
        return words.get(msgid, msgid)

    gains = LogEntry(
        "C4", "%(player)s gains %(coins)s coins.", (("coins", 2), ("player", "duchess"))
    )
    assert log_text(gains, tr) == "duchess +2" and log_text(gains) == "duchess gains 2 coins."
    shown = LogEntry("C9", "%(character)s!", (("character", "captain"),))
    assert log_text(shown, tr) == "Капитан!!" and log_text(shown) == "Captain!"
    unknown = LogEntry("C9", "%(character)s!", (("character", "jester"),))
    assert log_text(unknown, tr) == "jester!!"


def test_C8_a_bluffed_block_fails_and_the_action_resolves():
    s = play(new_game(ABC), Declare("A", "steal", "B"), Challenge(None), Block("B", "captain"))
    s = apply(s, Challenge("C"))
    start = len(s.log)
    s = apply(s, Reveal("B", "countess", False))
    assert lines(s, start) == [
        ("C9", "B does not show the claimed card and turns a card face up: Countess."),
        ("C8", "The block fails."),
        ("C5", "A takes 2 coins from B."),
    ]
    assert coins(s) == {"A": 4, "B": 0, "C": 2} and s.supply == TOTAL_COINS - 6
