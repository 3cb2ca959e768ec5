"""Each refusal of the duel, as the referee reads it: the rule, the sentence, the names."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from referee.games.duel.rules import (
    Extension,
    Play,
    Round,
    apply,
    may_duel,
    preview,
    start,
    total,
)
from referee.rules import RuleError
from tests.games.duel.test_rules import TIED_AFTER_THREE, play, player_a, player_b, rnd

HEART_CARDS = "6H, 7H, 8H, 9H, 10H, JH, QH, KH, AH"


def said(do, *args: object) -> tuple[str | None, str]:
    with pytest.raises(RuleError) as err:
        do(*args)
    return err.value.rule, err.value.text


def test_D4_a_player_cannot_duel_themselves():
    same = ("D4", "A player cannot duel themselves; choose two different players.")
    assert said(start, player_a(), player_a(name="A again")) == same
    assert said(may_duel, player_a(), 1) == same


def test_D4_one_duelist_is_checked_alone_before_the_other_is_known():
    assert may_duel(player_a()) is None
    assert may_duel(player_a(), 2) is None  # another player in the other slot
    assert said(may_duel, player_a(cartridges=0), 2) == ("D4", (
        "A has no cartridge: each duelist pays one cartridge to start a duel, so this duel "
        "cannot start."))
    assert said(may_duel, player_b(hp=0))[1].startswith("B cannot fight (0 HP,")


def test_D4_a_duelist_who_cannot_fight_is_named_by_their_player_id_without_a_name():
    assert said(start, player_a(name="", can_fight=False), player_b()) == ("D4", (
        "1 cannot fight (0 HP, heavily wounded or dead) and may not duel; choose a duelist "
        "who can fight."))


@pytest.mark.parametrize(("duelist", "who"), [
    (player_a(hp=-1), "A"),
    (player_a(name="", chance="2"), "1"),
    (SimpleNamespace(player=7), "7"),  # not a duelist at all: named by its player id
    (SimpleNamespace(name="Anna", player=7), "Anna"),
    (object(), ""),
])
def test_D4_a_sheet_with_invalid_numbers_is_refused_and_named(duelist, who):
    assert said(start, duelist, player_b()) == ("D4", (
        f"{who}'s sheet has invalid numbers: HP, chance and cartridges must be whole numbers, "
        "0 or more; correct the sheet first."))


@pytest.mark.parametrize("deck", [None, 5, "6H 7H", b"6H"])
def test_D1_a_duel_deck_that_is_not_a_list_of_cards_is_refused(deck):
    assert said(start, player_a(duel_deck=deck), player_b()) == (
        "D1", "A's duel deck must be a list of cards, e.g. 6H, 7H, AH.")


def test_D1_a_duel_deck_card_of_another_suit_is_named_with_the_suit():
    assert said(start, player_a(duel_deck=("6H", "AS")), player_b()) == ("D1", (
        "AS is not of A's suit H: a duel deck holds only cards of its suit; correct the "
        "duel deck."))


def test_D5_a_duelist_with_an_empty_duel_deck_has_no_hand():
    state = start(player_a(duel_deck=()), player_b())
    assert said(apply, state, rnd("6S", "7S", a_hand="AH")) == ("D5", (
        "A started this duel with an empty duel deck and so has no hand; leave the hand "
        "card empty."))


def test_D5_a_fourth_hand_card_is_refused_with_the_hand_size():
    state = play(start(player_a(), player_b()), rnd("6S", "6D", a_hand="6H"),
                 rnd("7S", "8D", a_hand="7H"), rnd("8S", "7D", a_hand="8H"))
    assert state.status == "extension"
    state = apply(state, Extension(True, True))
    assert said(apply, state, rnd("9S", "9S", a_hand="AH")) == ("D5", (
        "A has already laid 3 hand cards in this duel, the whole hand; leave the hand card "
        "empty."))


def test_D7_a_hand_card_of_another_suit_names_the_cards_one_may_lay():
    state = start(player_a(), player_b())
    assert said(apply, state, rnd("6S", "7S", a_hand="AS")) == ("D7", (
        f"AS is not in A's duel deck (H): a hand card must come from one's own duel deck; "
        f"lay one of {HEART_CARDS} or no hand card."))


def test_D1_D7_a_surrendered_hand_card_never_comes_back():
    state = apply(start(player_a(), player_b()), rnd("6S", "7S", a_hand="AH"))
    assert said(apply, state, rnd("8S", "9S", a_hand="AH")) == ("D7", (
        "AH was already surrendered by A and never comes back; lay one of "
        "6H, 7H, 8H, 9H, 10H, JH, QH, KH or no hand card."))


def test_D6_a_table_card_turned_up_twice_is_named():
    state = apply(start(player_a(), player_b()), rnd("QS", "7S"))
    assert said(apply, state, rnd("QS", "8S")) == ("D6", (
        "QS already turned up from A's table deck in this duel and cannot turn up again; "
        "enter the card actually turned up."))


@pytest.mark.parametrize("tokens", [-1, True, 1.0, "1"])
def test_D8_tokens_that_are_not_a_count_are_refused(tokens):
    state = start(player_a(), player_b())
    assert said(apply, state, rnd("6S", "7S", a_tokens=tokens)) == ("D8", (
        "Chance tokens must be a whole number, 0 or more; enter how many tokens the duelist "
        "spent."))
    assert said(total, Play("6S", None, tokens)) == said(apply, state, rnd("6S", "7S",
                                                                         a_tokens=tokens))


def test_D8_more_tokens_than_held_says_how_many_are_held():
    state = start(player_a(), player_b())
    assert said(apply, state, rnd("6S", "7S", b_tokens=2)) == (
        "D8", "Not enough chance tokens: B holds 1, 2 asked; spend at most 1.")


ROUND_SHAPE = ("D6", "A round needs, for each duelist, a table card, an optional hand card "
                     "and a number of chance tokens.")


def test_D6_a_round_without_a_play_or_an_unknown_action_is_refused():
    state = start(player_a(), player_b())
    assert said(apply, state, Round(a=None, b=Play("6S"))) == ROUND_SHAPE
    assert said(preview, state, Extension(True, True)) == ROUND_SHAPE
    assert said(apply, state, "round") == (
        "D6", "Unknown duel action: record a round or an extension decision.")


def test_D10_D12_a_round_is_refused_when_the_duel_is_over_or_awaits_a_decision():
    tied = play(start(player_a(), player_b()), *TIED_AFTER_THREE)
    assert said(preview, tied, rnd("AS", "6S")) == ("D12", (
        "Round wins are equal: first record whether each duelist continues (paying a "
        "cartridge) or refuses."))
    over = apply(tied, Extension(False, False))
    over_text = ("D10", "The duel is already over; start a new duel instead.")
    assert said(preview, over, rnd("AS", "6S")) == over_text
    assert said(apply, over, rnd("AS", "6S")) == over_text


def test_D12_an_extension_decision_is_refused_when_none_is_open_or_not_yes_or_no():
    state = start(player_a(), player_b())
    assert said(apply, state, Extension(True, True)) == ("D12", (
        "No extension is open: a duel goes on only when round wins are equal after the "
        "regular rounds; record a round instead."))
    tied = play(state, *TIED_AFTER_THREE)
    assert said(apply, tied, Extension(1, True)) == ("D12", (
        "An extension decision needs, for each duelist, yes (continues and pays a "
        "cartridge) or no (refuses)."))


def test_D12_when_only_b_continues_b_wins():
    tied = play(start(player_a(), player_b()), *TIED_AFTER_THREE)
    done = apply(tied, Extension(False, True))
    assert (done.result.winner, done.result.reason) == ("b", "extension")
    assert (done.a.cartridges, done.b.cartridges) == (2, 0)


@pytest.mark.parametrize(("laid", "value"), [
    (Play("QS"), 12), (Play("QS", None, 2), 14), (Play(None, "AH"), 14),
    (Play("  ", "6H", 1), 7), (Play("KS", "6H"), 6), (Play("д♠", "", 0), 12),
])
def test_D3_D7_D8_the_total_is_the_counting_card_plus_tokens(laid, value):
    assert total(laid) == value


@pytest.mark.parametrize("laid", ["QS", None, Play(None), Play(" ", "")])
def test_D6_a_total_needs_a_play_with_a_card(laid):
    assert said(total, laid) == ROUND_SHAPE


def test_a_side_is_a_or_b():
    state = start(player_a(), player_b())
    assert state.side("b") is state.b
    with pytest.raises(ValueError, match="side must be 'a' or 'b', not 'c'"):
        state.side("c")

