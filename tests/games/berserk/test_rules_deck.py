"""B14 for a player's deck, purely: 30–50 cards, at most 3 copies of a card and 1 of a
unique card, each refusal saying what to change; and a squad hired from a deck's counts."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.berserk.rules import (
    PUBLISHED,
    Card,
    FormatError,
    Settings,
    card_from_dict,
    check_deck,
    deck_problems,
    deck_summary,
    expand,
    hire_problems,
)
from referee.rules import RuleError


def card(code: str, unique: bool = False) -> Card:
    return card_from_dict({"code": code, "name_en": code, "name_ru": code, "cost": 2,
                           "lives": 3, "movement": 1, "strike": [1, 2, 3], "unique": unique})


CATALOGUE = {c.code: c for c in [card(f"C{i:02d}") for i in range(1, 16)]
             + [card("U1", unique=True), card("U2", unique=True)]}


def deck(**counts: int) -> tuple[Card, ...]:
    return expand(counts, CATALOGUE)


def full(n: int) -> dict[str, int]:
    """``n`` cards, three copies of each ordinary card in turn."""
    out: dict[str, int] = {}
    for i in range(n):
        code = f"C{i // 3 + 1:02d}"
        out[code] = out.get(code, 0) + 1
    return out


def test_B14_expand_repeats_each_card_its_count_and_refuses_strangers() -> None:
    cards = deck(C01=3, U1=1, C02=0)
    assert [c.code for c in cards] == ["C01", "C01", "C01", "U1"]
    with pytest.raises(FormatError):
        expand({"ZZ": 1}, CATALOGUE)
    with pytest.raises(FormatError):
        expand({"C01": -1}, CATALOGUE)


def test_B14_a_deck_of_29_cards_says_how_many_to_add() -> None:
    problems = deck_problems(expand(full(29), CATALOGUE))
    assert [(p.rule, p.params) for p in problems] == [
        ("B14", {"count": 29, "min": 30, "max": 50, "missing": 1})]
    assert problems[0].text == ("The deck has 29 cards; a deck needs 30 to 50 cards: add 1 "
                                "more.")


def test_B14_a_deck_of_51_cards_says_how_many_to_take_out() -> None:
    cards = [card(f"D{i:02d}") for i in range(51)]
    check_deck(cards[:50])  # 50 is still a deck
    with pytest.raises(RuleError) as e:
        check_deck(cards)
    assert (e.value.rule, e.value.params) == (
        "B14", {"count": 51, "min": 30, "max": 50, "over": 1})
    assert e.value.text == ("The deck has 51 cards; a deck needs 30 to 50 cards: take out "
                            "1.")


@pytest.mark.parametrize("n", [30, 40, 45])
def test_B14_decks_of_30_to_50_cards_pass(n: int) -> None:
    cards = expand(full(n), CATALOGUE)
    assert deck_problems(cards) == ()
    sm = deck_summary(cards)
    assert sm.ok and sm.cards == n and (sm.deck_min, sm.deck_max) == (30, 50)


def test_B14_a_fourth_copy_and_a_second_unique_card_are_refused() -> None:
    counts = {**full(27), "C10": 4, "U1": 2}
    problems = deck_problems(expand(counts, CATALOGUE))
    assert [(p.params["card"], p.params["count"], p.params["limit"]) for p in problems] == [
        ("C10", 4, 3), ("U1", 2, 1)]
    assert problems[0].text == "C10 appears 4 times; keep at most 3 copies of a card."
    assert problems[1].text == "U1 is unique and appears 2 times; keep at most 1."


def test_B14_the_event_may_change_the_deck_limits() -> None:
    small = Settings(deck_min=10, deck_max=20, max_copies=4, max_unique_copies=2)
    cards = expand({"C01": 4, "C02": 4, "U1": 2}, CATALOGUE)
    assert deck_problems(cards, small) == ()
    assert deck_problems(cards, PUBLISHED)[0].params["missing"] == 20


def test_B14_a_squad_takes_only_what_the_deck_holds() -> None:
    held = {"C01": 2, "U1": 1}
    assert hire_problems(deck(C01=2, U1=1), held, "Anna") == ()
    problems = hire_problems(deck(C01=3, C02=1), held, "Anna")
    assert [p.params for p in problems] == [
        {"card": "C01", "player": "Anna", "count": 3, "held": 2, "over": 1},
        {"card": "C02", "player": "Anna"}]
    assert problems[0].text == ("The squad takes 3 copies of C01, but the deck registered "
                                "for Anna holds 2; take out 1.")
    assert problems[1].text == ("C02 is not in the deck registered for Anna; take it out of "
                                "the squad, or register the deck again with it.")


# Properties -------------------------------------------------------------------------------

counts_strategy = st.dictionaries(st.sampled_from(sorted(CATALOGUE)), st.integers(0, 5),
                                  max_size=len(CATALOGUE))
limits = st.builds(lambda low, span, copies, unique: Settings(
    deck_min=low, deck_max=low + span, max_copies=copies, max_unique_copies=unique),
    st.integers(0, 40), st.integers(0, 30), st.integers(0, 5), st.integers(0, 3))


@given(counts_strategy, limits)
def test_B14_property_a_deck_passes_exactly_when_it_keeps_every_limit(counts, settings):
    cards = expand(counts, CATALOGUE)
    # a unique card keeps both limits: the unique one and the one of every card
    unique = min(settings.max_unique_copies, settings.max_copies)
    keeps = (settings.deck_min <= len(cards) <= settings.deck_max
             and all(n <= (unique if CATALOGUE[c].unique else settings.max_copies)
                     for c, n in counts.items()))
    problems = deck_problems(cards, settings)
    assert (problems == ()) == keeps
    assert all(p.rule == "B14" for p in problems)
    assert deck_summary(cards, settings).ok == keeps


@given(counts_strategy, st.data())
def test_B14_property_any_squad_drawn_from_the_deck_is_hired_and_one_more_is_not(counts,
                                                                                data):
    held = {c: n for c, n in counts.items() if n}
    pool = [c for c, n in held.items() for _ in range(n)]
    drawn = data.draw(st.lists(st.sampled_from(pool), max_size=len(pool)) if pool
                      else st.just([]))
    taken = Counter()
    squad = []
    for code in drawn:  # at most the copies held
        if taken[code] < held[code]:
            taken[code] += 1
            squad.append(CATALOGUE[code])
    assert hire_problems(squad, held) == ()
    extra = data.draw(st.sampled_from(sorted(CATALOGUE)))
    over = [*squad, *[CATALOGUE[extra]] * (held.get(extra, 0) - taken[extra] + 1)]
    problems = hire_problems(over, held)
    assert [p.params["card"] for p in problems] == [extra]


def test_B14_the_sample_set_marks_its_unique_cards_and_makes_a_legal_deck() -> None:
    from referee.decks import load_deck

    sample = load_deck("berserk-sample")
    for entry in sample.cards:  # the printed text and the mark agree
        says = entry.card.text_en.startswith("Unique") or entry.card.text_ru.startswith(
            "Уникальн")
        assert entry.card.unique == says, entry.code
    assert any(e.card.unique for e in sample.cards)
    catalogue = {e.code: e.card for e in sample.cards}
    most = {code: 1 if card.unique else 3 for code, card in catalogue.items()}
    assert sum(most.values()) >= PUBLISHED.deck_min  # a judge can register it whole
    counts = dict(list(most.items())[:11])
    counts["B01"] -= 1
    assert deck_problems(expand(counts, catalogue)) == () and sum(counts.values()) == 30
