"""Playing cards of the duel table: notations (D3), the decks (D1, D2)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import RuleError
from referee.rules.cards import (
    RANKS,
    SUITS,
    Card,
    duel_deck,
    parse_card,
    parse_suit,
    sort_codes,
    table_deck,
)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "10H"),
        ("qs", "QS"),
        ("Д♠", "QS"),
        ("10 червей", "10H"),
        ("т♣", "AC"),
        ("Т♣", "AC"),
        ("В♦", "JD"),
        ("к♥", "KH"),
        ("K♥", "KH"),
        ("  a  s ", "AS"),
        ("j♧", "JC"),
        ("10♡", "10H"),
        ("6♢", "6D"),
        ("♤7", "7S"),
        ("♥️K", "KH"),  # emoji variation selector from a phone keyboard
        ("❤️Q", "QH"),
        ("дама пик", "QS"),
        ("пиковая дама", "QS"),
        ("туз треф", "AC"),
        ("т пика", "AS"),
        ("6 бубен", "6D"),
        ("8 бубна", "8D"),
        ("9 трефа", "9C"),
        ("7 червы", "7H"),
        ("валет червей", "JH"),
        ("король бубён", "KD"),
        ("десятка крестей", "10C"),
        ("queen of spades", "QS"),
        ("Ace of Hearts", "AH"),
        ("дп", "QS"),
        ("ВН", "JH"),  # Cyrillic В and Н: Валет of hearts typed on a Russian keyboard
        ("h10", "10H"),
        ("ＱＳ", "QS"),  # full-width letters
    ],
)
def test_D3_parse_card_reads_every_notation(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "   ", "Q", "S", "11H", "1 0H", "KQS", "10HS", "XY", "Дт"])
def test_D3_unreadable_card_is_refused_with_a_hint(text: str) -> None:
    with pytest.raises(RuleError) as err:
        parse_card(text)
    assert err.value.rule == "D3"
    assert "e.g. 10H" in err.value.text
    assert err.value.params["text"] == text.strip()


def test_D3_latin_t_is_ambiguous_and_refused() -> None:
    # T is ten in poker notation but looks like Cyrillic Т (Туз): guessing would be wrong
    # half the time, so the referee is asked to write 10 or A.
    with pytest.raises(RuleError) as err:
        parse_card("TH")
    assert err.value.rule == "D3"
    assert "write 10 for a ten" in err.value.text
    assert parse_card("ТH").code == "AH"  # the Cyrillic Т is Туз


@pytest.mark.parametrize("value", [None, 10, b"QS", ["Q", "S"]])
def test_D3_card_must_be_text(value: object) -> None:
    with pytest.raises(RuleError) as err:
        parse_card(value)
    assert err.value.rule == "D3"


def test_D3_values_face_then_court_cards() -> None:
    values = {card.code: card.value for card in table_deck()}
    assert [values[f"{rank}S"] for rank in RANKS] == [6, 7, 8, 9, 10, 11, 12, 13, 14]
    # D3: suits never matter in a comparison.
    assert {values[f"Q{suit}"] for suit in SUITS} == {12}


def test_D3_card_is_frozen_canonical_and_validated() -> None:
    card = parse_card("10 червей")
    assert card == Card("10", "H")
    assert (card.code, card.symbol, str(card)) == ("10H", "10♥", "10H")
    assert hash(card) == hash(Card("10", "H"))
    assert parse_card(card) is card
    with pytest.raises(RuleError) as err:
        Card("11", "H")
    assert err.value.rule == "D3"


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("S", "S"), ("s", "S"), ("♠", "S"), ("♤", "S"), ("пики", "S"), ("пика", "S"),
        ("Пик", "S"), ("spades", "S"),
        ("H", "H"), ("♥", "H"), ("♡", "H"), ("черви", "H"), ("червы", "H"), ("Червей", "H"),
        ("D", "D"), ("♦", "D"), ("♢", "D"), ("бубны", "D"), ("бубна", "D"), ("бубен", "D"),
        ("C", "C"), ("♣", "C"), ("♧", "C"), ("трефы", "C"), ("трефа", "C"), ("крести", "C"),
        (" clubs ", "C"),
    ],
)
def test_D3_parse_suit(text: str, suit: str) -> None:
    assert parse_suit(text) == suit


@pytest.mark.parametrize("text", ["", "X", "QS", "пики черви", None, 3])
def test_D3_unreadable_suit_is_refused(text: object) -> None:
    with pytest.raises(RuleError) as err:
        parse_suit(text)
    assert err.value.rule == "D3"


def test_D1_duel_deck_is_nine_cards_of_one_suit_in_rank_order() -> None:
    deck = duel_deck("♥")
    assert [card.code for card in deck] == [
        "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH",
    ]
    assert [card.code for card in duel_deck("трефы")][-1] == "AC"
    with pytest.raises(RuleError):
        duel_deck("X")


def test_D2_table_deck_has_36_distinct_cards() -> None:
    deck = table_deck()
    assert len(deck) == 36
    assert len({card.code for card in deck}) == 36
    assert {card.suit for card in deck} == set(SUITS)
    assert sort_codes(["AH", "6S", "AH", "10C"]) == ("6S", "AH", "10C")


# Every way a referee might write a rank and a suit; the property below mixes them.
_RANK_NOTATIONS = {
    "6": ["6", "шестерка", "шестёрка", "six"],
    "7": ["7", "семерка", "seven"],
    "8": ["8", "восьмерка", "eight"],
    "9": ["9", "девятка", "nine"],
    "10": ["10", "десятка", "ten"],
    "J": ["J", "В", "валет", "jack", "B"],
    "Q": ["Q", "Д", "дама", "queen"],
    "K": ["K", "К", "король", "king"],
    "A": ["A", "Т", "туз", "ace"],
}
_SUIT_NOTATIONS = {
    "S": ["S", "♠", "♤", "пики", "пика", "пик", "spades", "п"],
    "H": ["H", "♥", "♡", "♥\ufe0f", "черви", "червы", "червей", "hearts", "ч"],
    "D": ["D", "♦", "♢", "бубны", "бубна", "бубен", "diamonds", "б"],
    "C": ["C", "♣", "♧", "трефы", "трефа", "треф", "крести", "clubs"],
}


def _is_word(text: str) -> bool:
    return text[:1].isalpha()


@settings(max_examples=300, deadline=None)
@given(
    card=st.sampled_from(table_deck()),
    data=st.data(),
)
def test_D3_parse_card_round_trips_every_card_in_every_notation(card: Card, data) -> None:
    assert parse_card(card.code) == card
    assert parse_card(card.code.lower()) == card
    rank = data.draw(st.sampled_from(_RANK_NOTATIONS[card.rank]), label="rank")
    suit = data.draw(st.sampled_from(_SUIT_NOTATIONS[card.suit]), label="suit")
    rank = data.draw(st.sampled_from([rank, rank.upper(), rank.lower(), rank.title()]))
    suit = data.draw(st.sampled_from([suit, suit.upper(), suit.lower()]))
    first, second = data.draw(st.sampled_from([(rank, suit), (suit, rank)]), label="order")
    # Two words must be apart; single letters, digits and symbols may touch.
    glued_ok = not (_is_word(first) and _is_word(second)) or len(first) == len(second) == 1
    gap = data.draw(st.sampled_from([" ", "  ", "\t"] + ([""] if glued_ok else [])))
    pad = data.draw(st.sampled_from(["", " ", "\n"]))
    text = f"{pad}{first}{gap}{second}{pad}"
    assert parse_card(text) == card, text


# The refusals name what the referee typed (D3) ----------------------------------------


def _refusal(read, text: object) -> RuleError:
    with pytest.raises(RuleError) as err:
        read(text)
    assert err.value.rule == "D3"
    return err.value


def test_D3_a_rank_outside_six_to_ace_is_refused_as_typed() -> None:
    for typed in ("11 червей", "5H", "1 пик"):
        assert _refusal(parse_card, typed).params == {"text": typed}
    with pytest.raises(RuleError) as err:
        Card("5", "H")
    assert err.value.text.startswith("Cannot read the card “5H”: write a rank (6–10")


def test_D3_a_typed_card_is_shown_back_cut_to_twenty_characters() -> None:
    typed = "  " + "z" * 30 + " "
    assert _refusal(parse_card, typed).params == {"text": "z" * 20}
    assert _refusal(parse_suit, typed).params == {"text": "z" * 20}
    assert _refusal(parse_suit, " zz ").params == {"text": "zz"}


def test_D3_a_card_or_suit_that_is_not_text_is_refused_with_an_example() -> None:
    assert _refusal(parse_card, 10).text == "A card must be written as text, e.g. 10H or Д♠."
    error = _refusal(parse_suit, 3)
    assert error.params == {"text": ""}
    assert error.text == ("Cannot read the suit “”: write S, H, D or C, a symbol ♠ ♥ ♦ ♣, or "
                          "пики, черви, бубны, трефы.")


def test_D3_a_latin_T_is_refused_as_ambiguous_and_named() -> None:
    error = _refusal(parse_card, "T H")
    assert error.params == {"text": "T H"}
    assert error.text.startswith("“T H” is ambiguous: a Latin T may mean ten or Туз")


@pytest.mark.parametrize(("text", "code"), [("дама чёрвей", "QH"), ("ЧЁРВИ 7", "7H"),
                                            ("туз чёрв", "AH")])
def test_D3_yo_reads_as_ye_in_russian_names(text: str, code: str) -> None:
    assert parse_card(text).code == code
