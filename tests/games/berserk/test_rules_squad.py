"""Berserk-style squads (B12–B14), decks (B14) and a variable cost (B2): the exact
sentence of every refusal, its limits to the crystal, and the counts a builder shows."""

from __future__ import annotations

import pytest

from referee.games.berserk.rules import (
    PUBLISHED,
    Card,
    FormatError,
    Settings,
    add_to_squad,
    card_from_dict,
    check_deck,
    deck_summary,
    expand,
    fix_x,
    squad_problems,
    squad_summary,
)
from referee.rules import RuleError


def card(code: str, cost: int, **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": cost,
                            "lives": 3, "movement": 1, "strike": [1, 2, 3]}
    d.update(fields)
    return card_from_dict(d)


def elites(*costs: int, element: str = "forest") -> list[Card]:
    return [card(f"E{i}", c, elite=True, elements=[element]) for i, c in enumerate(costs)]


def ordinary(*costs: int, element: str = "forest") -> list[Card]:
    return [card(f"O{i}", c, elements=[element]) for i, c in enumerate(costs)]


def texts(cards: list[Card], first_player: bool = True) -> list[tuple[str, str]]:
    return [(p.rule, p.text) for p in squad_problems(cards, PUBLISHED, first_player)]


# --- B12, B13: crystals ------------------------------------------------------------------


def test_B12_elite_cards_up_to_the_gold_are_paid() -> None:
    assert texts(elites(12, 12)) == []  # 24 gold exactly
    assert texts(elites(12, 13)) == [
        ("B12", "Elite cards cost 25 and are paid with gold only, but there are 24 gold "
                "crystals; drop an elite card.")]
    assert texts(elites(12, 13), first_player=False) == []  # B12: 25 gold


def test_B13_the_element_penalty_is_paid_in_gold_beside_the_elite_cards() -> None:
    squad = [*elites(12, 11), *ordinary(1, element="fire")]  # 23 gold + 1 penalty
    assert texts(squad) == []
    squad = [*elites(12, 12), *ordinary(1, element="fire")]
    assert texts(squad) == [
        ("B13", "Elite cards cost 24 gold and the element penalty 1 more, but there are 24 "
                "gold crystals; drop an elite card or a card of an extra element.")]


def test_B12_the_squad_costs_at_most_all_crystals() -> None:
    assert texts(ordinary(10, 10, 10, 10, 6)) == []  # 46 = 24 + 22
    assert texts(ordinary(10, 10, 10, 10, 7)) == [
        ("B12", "The squad costs 47 crystals but there are 46; drop cards worth 1.")]
    assert texts([*elites(4), *ordinary(10, 10, 10, 10, 9)]) == [
        ("B12", "The squad costs 53 crystals but there are 46; drop cards worth 7.")]
    assert texts(ordinary(10, 10, 10, 10, 8), first_player=False) == []  # 48 = 25 + 23


def test_B13_the_element_penalty_can_make_the_squad_cost_too_much() -> None:
    assert texts([*ordinary(10, 10, 10, 10), *ordinary(5, element="fire")]) == []  # 45 + 1
    assert texts([*elites(2), *ordinary(10, 10, 10, 10), *ordinary(4, element="fire")]) == [
        ("B13", "The squad costs 46 crystals and the element penalty 1 more, but there are "
                "46; drop a card or a card of an extra element.")]


def test_B12_B13_the_counts_a_squad_builder_shows() -> None:
    squad = [*elites(7), *ordinary(5, element="mountains"),
             card("F", 4, movement="flying", elements=["mountains"])]
    s = squad_summary(squad, PUBLISHED)
    assert (s.cards, s.gold, s.silver, s.elite_cost, s.ordinary_cost) == (3, 24, 22, 7, 9)
    assert (s.element_penalty, s.gold_used, s.silver_used, s.gold_left, s.silver_left) == (
        1, 8, 9, 16, 13)
    assert (s.flyer_cost, s.flyer_limit, s.copies, s.ok) == (
        4, 15, (("E0", 1), ("O0", 1), ("F", 1)), True)
    assert squad_summary([], Settings(flyer_cost_limit=9)).flyer_limit == 9


# --- B14: squad limits ---------------------------------------------------------------------


def test_B14_flyers_may_cost_15_crystals_together_and_no_more() -> None:
    flyers = [card(f"F{i}", c, movement="flying") for i, c in enumerate([8, 7])]
    assert texts(flyers) == []
    flyers.append(card("F9", 1, movement="flying"))
    assert texts(flyers) == [
        ("B14", "Flying creatures in the squad cost 16 crystals, more than 15; drop a flyer.")]


def test_B12_B14_adding_a_card_is_refused_for_the_problem_it_brings() -> None:
    # B12: the first player (the default) has 24 gold; the second 25.
    with pytest.raises(RuleError) as e:
        add_to_squad(elites(12), elites(0, 13)[1])
    assert (e.value.rule, e.value.params) == ("B12", {"cost": 25, "gold": 24})
    assert len(add_to_squad(elites(12), elites(0, 13)[1], first_player=False)) == 2


def test_B12_a_problem_the_squad_already_had_does_not_stop_another_card() -> None:
    # The first player's squad is already over its gold; a card that leaves that
    # problem exactly as it was is not refused for it.
    over = elites(12, 13)
    cheap = card("N", 1, elements=[])
    assert add_to_squad(over, cheap) == (*over, cheap)
    with pytest.raises(RuleError) as e:
        add_to_squad(over, card("E9", 1, elite=True))  # makes it worse: 26 gold
    assert e.value.params == {"cost": 26, "gold": 24}


# --- B14: decks ----------------------------------------------------------------------------


CATALOGUE = {c.code: c for c in [card("C1", 2), card("C2", 2), card("U", 2, unique=True)]}


def test_B14_expand_says_which_card_or_count_is_wrong() -> None:
    with pytest.raises(FormatError, match=r"^card 'ZZ' is not in the catalogue$"):
        expand({"C1": 1, "ZZ": 1}, CATALOGUE)
    for bad in ("2", -1, True, 1.0):
        with pytest.raises(FormatError, match=r"^the count of 'C1' must be a whole number "
                                              r">= 0$"):
            expand({"C1": bad}, CATALOGUE)


def test_B14_the_event_s_deck_limits_apply_to_check_deck() -> None:
    small = expand({"C1": 3, "C2": 2}, CATALOGUE)
    check_deck(small, Settings(deck_min=5, deck_max=5))
    with pytest.raises(RuleError) as e:
        check_deck(small)
    assert (e.value.rule, e.value.params["missing"]) == ("B14", 25)


def test_B14_the_counts_a_deck_screen_shows() -> None:
    cards = expand({"C2": 2, "U": 1, "C1": 3}, CATALOGUE)
    s = deck_summary(cards)
    assert (s.cards, s.deck_min, s.deck_max, s.max_copies, s.max_unique_copies) == (
        6, 30, 50, 3, 1)
    assert s.copies == (("C2", 2), ("U", 1), ("C1", 3))
    custom = deck_summary(cards, Settings(deck_min=6, max_copies=4, max_unique_copies=2))
    assert (custom.deck_min, custom.max_copies, custom.max_unique_copies, custom.ok) == (
        6, 4, 2, True)


# --- B2: a variable cost -------------------------------------------------------------------


def test_B2_only_a_card_with_cost_x_takes_a_value() -> None:
    with pytest.raises(RuleError) as e:
        fix_x(card("P7", 7), 3)
    assert (e.value.rule, e.value.text) == (
        "B2", "P7 has a printed cost; only a card with cost X takes a value.")


@pytest.mark.parametrize(("x", "shown"), [(-1, "-1"), (True, "True"), ("3", "3"),
                                          (2.0, "2.0"), ("9" * 25, "9" * 20)])
def test_B2_x_is_a_whole_number_of_0_or_more(x: object, shown: str) -> None:
    x_card = card("XC", "X")  # type: ignore[arg-type]
    with pytest.raises(RuleError) as e:
        fix_x(x_card, x)
    assert (e.value.rule, e.value.text) == (
        "B2", f"X must be a whole number of 0 or more, not {shown}.")
    assert fix_x(x_card, 0).cost == 0


def test_B12_the_second_player_s_old_problem_does_not_stop_another_card() -> None:
    over = elites(12, 14)  # 26 gold: over the second player's 25 as well
    cheap = card("N", 1, elements=[])
    assert add_to_squad(over, cheap, first_player=False) == (*over, cheap)
