"""Berserk-style modifications (B6, B9): which are well formed and fit a card (with the
rule id and the sentence a referee reads), how each changes the properties, and how
``explain`` tells the story of one property."""

from __future__ import annotations

import pytest

from referee.games.berserk.rules import (
    AddLives,
    BecomeElement,
    Card,
    Element,
    GainElement,
    Halve,
    LoseElement,
    Overwrite,
    Properties,
    SimpleStrike,
    Step,
    card_from_dict,
    check_mod,
    effective,
    explain,
    printed,
)
from referee.games.berserk.rules.mods import op_of, touches
from referee.rules import RuleError


def card(code: str = "C", **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 5,
                            "lives": 7, "movement": 3, "strike": [3, 5, 8],
                            "elements": ["forest"]}
    d.update(fields)
    return card_from_dict(d)


ARTIFACT = card_from_dict({"code": "TOTEM", "name_en": "Totem", "name_ru": "Тотем",
                           "kind": "artifact", "cost": 4, "lives": 5})
FLYER = card("DRAKE", movement="flying")
SYMBIOTE = card("LEECH", movement="symbiote")


def refusal(c: Card, mod: object) -> tuple[str, str]:
    with pytest.raises(RuleError) as e:
        check_mod(c, mod)
    return e.value.rule, e.value.text


# --- B6, B7: well-formed modifications ---------------------------------------------------


def test_B6_a_modification_must_be_one_of_the_six_kinds() -> None:
    assert refusal(card(), "lives+1") == (
        "B6", "A modification must overwrite properties, add or take lives, halve "
              "properties, or gain, become or lose an element; choose one of these.")
    assert refusal(card(), None)[0] == "B6"


def test_B7_the_source_is_a_short_text_of_at_most_60_characters() -> None:
    check_mod(card(), AddLives(1, source="s" * 60))
    says = ("B7", "The source of an effect must be a short text (up to 60 characters), such "
                  "as a creature's id.")
    assert refusal(card(), AddLives(1, source="s" * 61)) == says
    assert refusal(card(), GainElement(Element.FIRE, source=4)) == says  # type: ignore[arg-type]
    assert effective(card(lives=7), [AddLives(1, source="s" * 60)]).lives == 8


@pytest.mark.parametrize("amount", [1, -1, 99, -99])
def test_B6_lives_change_by_a_whole_number_up_to_99_either_way(amount: int) -> None:
    check_mod(card(), AddLives(amount))
    assert effective(card(lives=7), [AddLives(amount)]).lives == max(0, 7 + amount)


@pytest.mark.parametrize(("amount", "shown"), [
    (0, "0"), (100, "100"), (-100, "-100"), (True, "True"), (2.0, "2.0"), ("3", "3"),
    (10 ** 30, "1" + "0" * 19),
])
def test_B6_lives_change_other_than_a_whole_number_up_to_99_is_refused(amount: object,
                                                                      shown: str) -> None:
    assert refusal(card(), AddLives(amount)) == (  # type: ignore[arg-type]
        "B6", f"Lives change by a whole number from -99 to 99 other than 0, not {shown}.")


@pytest.mark.parametrize("prop", ["cost", "lives", "movement"])
@pytest.mark.parametrize("value", [0, 99])
def test_B6_an_overwritten_number_may_be_0_to_99(prop: str, value: int) -> None:
    mod = Overwrite(**{prop: value})
    check_mod(card(), mod)
    assert getattr(effective(card(), [mod]), prop) == value


@pytest.mark.parametrize("prop", ["cost", "lives", "movement"])
@pytest.mark.parametrize(("value", "shown"), [(-1, "-1"), (100, "100"), (True, "True"),
                                              ("5", "5"), (1.5, "1.5")])
def test_B6_an_overwritten_number_outside_0_to_99_is_refused(prop: str, value: object,
                                                            shown: str) -> None:
    assert refusal(card(), Overwrite(**{prop: value})) == (
        "B6", f"An overwritten number must be a whole number from 0 to 99, not {shown}.")


def test_B6_an_overwrite_gives_at_least_one_new_value() -> None:
    assert refusal(card(), Overwrite(source="a1")) == (
        "B6", "An overwrite must give a new cost, eliteness, lives, movement or strike; "
              "enter at least one.")


def test_B2_B6_eliteness_is_overwritten_with_elite_or_ordinary() -> None:
    assert refusal(card(), Overwrite(elite="yes")) == (  # type: ignore[arg-type]
        "B6", "Eliteness is overwritten with elite or ordinary; choose one.")
    assert refusal(card(), Overwrite(elite=1))[0] == "B6"  # type: ignore[arg-type]
    assert effective(card(elite=False), [Overwrite(elite=True)]).elite is True
    assert effective(card(elite=True), [Overwrite(elite=False)]).elite is False


@pytest.mark.parametrize("strike", [SimpleStrike(0, 0, 0), SimpleStrike(99, 99, 99)])
def test_B5_B6_an_overwritten_strike_is_three_numbers_0_to_99(strike: SimpleStrike) -> None:
    assert effective(card(), [Overwrite(strike=strike)]).strike == strike


@pytest.mark.parametrize("strike", [
    SimpleStrike(-1, 1, 1), SimpleStrike(1, -1, 1), SimpleStrike(1, 1, -1),
    SimpleStrike(100, 1, 1), SimpleStrike(1, 100, 1), SimpleStrike(1, 1, 100),
    SimpleStrike(1, True, 1), SimpleStrike(1, 1, "2"), (1, 1, 1), "1-1-1",
])
def test_B5_a_strike_outside_0_to_99_or_not_x_y_z_is_refused(strike: object) -> None:
    assert refusal(card(), Overwrite(strike=strike)) == (  # type: ignore[arg-type]
        "B5", "A strike is overwritten as three whole numbers X-Y-Z from 0 to 99.")


def test_B4_only_a_ground_creature_has_movement_to_change() -> None:
    for c in (FLYER, SYMBIOTE, ARTIFACT):
        says = (f"{c.code} has no movement number (it flies, is a symbiote or an artifact); "
                "change another property.")
        assert refusal(c, Overwrite(movement=2)) == ("B4", says)
        assert refusal(c, Halve(("movement",))) == ("B4", says)
        assert refusal(c, Overwrite(lives=2, movement=2)) == ("B4", says)
    assert effective(FLYER, [Overwrite(lives=2)]).movement is None


def test_B5_an_artifact_has_no_strike_to_change() -> None:
    says = "TOTEM is an artifact and has no simple strike; change another property."
    assert refusal(ARTIFACT, Overwrite(strike=SimpleStrike(1, 1, 1))) == ("B5", says)
    assert refusal(ARTIFACT, Halve(("lives", "strike"))) == ("B5", says)
    assert effective(ARTIFACT, [Halve(("lives", "cost"))]) == Properties(
        cost=2, elite=False, lives=3, movement=None, locomotion=None, strike=None,
        elements=frozenset())


@pytest.mark.parametrize("props", [(), ("elements",), ("lives", "elite"), ["lives"], "lives",
                                   None])
def test_B1_only_cost_lives_movement_and_strike_are_halved(props: object) -> None:
    assert refusal(card(), Halve(props)) == (  # type: ignore[arg-type]
        "B1", "Only the numbers cost, lives, movement and strike can be halved; choose one "
              "or more of them.")


def test_B6_halving_rounds_either_up_or_down() -> None:
    assert refusal(card(), Halve(("lives",), round_up=1)) == (  # type: ignore[arg-type]
        "B6", "Halving rounds either up or down; choose one.")


@pytest.mark.parametrize("cls", [GainElement, BecomeElement, LoseElement])
@pytest.mark.parametrize(("element", "shown"), [("forest", "forest"), ("air", "air"),
                                                (None, "None"), ("x" * 30, "x" * 20)])
def test_B8_B9_an_element_change_names_one_of_the_six_elements(cls: type, element: object,
                                                               shown: str) -> None:
    assert refusal(card(), cls(element)) == (
        "B8", f"Unknown element {shown}; use one of steppe, forest, mountains, swamps, "
              "darkness or fire.")


# --- B6, B9: what each modification does -------------------------------------------------


def test_B6_halving_each_number_rounding_up_or_down() -> None:
    c = card(cost=5, lives=7, movement=3, strike=[3, 5, 8])
    every = ("cost", "lives", "movement", "strike")
    up = effective(c, [Halve(every, round_up=True)])
    assert (up.cost, up.lives, up.movement, up.strike) == (3, 4, 2, SimpleStrike(2, 3, 4))
    down = effective(c, [Halve(every, round_up=False)])
    assert (down.cost, down.lives, down.movement, down.strike) == (
        2, 3, 1, SimpleStrike(1, 2, 4))
    only = effective(c, [Halve(("movement",))])
    assert (only.cost, only.lives, only.movement, only.strike) == (5, 7, 2, c.strike)


def test_B6_overwrite_changes_only_what_it_names() -> None:
    c = card(cost=5, lives=7, movement=3, strike=[3, 5, 8], elite=False)
    now = effective(c, [Overwrite(cost=1, elite=True)])
    assert (now.cost, now.elite, now.lives, now.movement, now.strike) == (
        1, True, 7, 3, SimpleStrike(3, 5, 8))
    assert Overwrite(cost=1, elite=False, strike=SimpleStrike(1, 1, 1)).props() == (
        "cost", "elite", "strike")


def test_B6_minus_lives_take_away_down_to_zero() -> None:
    assert effective(card(lives=7), [AddLives(-7)]).lives == 0
    assert effective(card(lives=7), [AddLives(-6)]).lives == 1
    assert effective(card(lives=7), [AddLives(-99)]).lives == 0


def test_B9_elements_gain_become_lose() -> None:
    c = card(elements=["forest", "fire"])
    assert effective(c, [GainElement(Element.FOREST)]).elements == {Element.FOREST,
                                                                    Element.FIRE}
    assert effective(c, [BecomeElement(Element.FOREST)]).elements == {Element.FOREST}
    assert effective(c, [LoseElement(Element.FIRE)]).elements == {Element.FOREST}
    neutral = card(elements=[])
    assert effective(neutral, [GainElement(Element.STEPPE)]).elements == {Element.STEPPE}
    assert effective(neutral, [LoseElement(Element.STEPPE)]).elements == frozenset()
    # B1, B9: element changes leave the base properties alone, and the other way round.
    assert effective(c, [BecomeElement(Element.SWAMPS)]).lives == 7
    assert effective(c, [Overwrite(lives=1)]).elements == c.elements


def test_B6_B9_effective_checks_every_modification_in_order() -> None:
    with pytest.raises(RuleError) as e:
        effective(FLYER, [AddLives(1), Overwrite(movement=1)])
    assert e.value.rule == "B4"
    with pytest.raises(RuleError) as e:
        explain(FLYER, [AddLives(1), Halve(("movement",))], "lives")
    assert e.value.rule == "B4"


def test_B1_printed_properties_are_the_card_s_own() -> None:
    p = printed(FLYER)
    assert (p.cost, p.elite, p.lives, p.movement, p.locomotion, p.strike, p.elements) == (
        FLYER.cost, FLYER.elite, FLYER.lives, None, FLYER.locomotion, FLYER.strike,
        FLYER.elements)
    assert effective(FLYER) == p and p.get("lives") == FLYER.lives


# --- B6, B7, B9: explain -----------------------------------------------------------------


def test_B6_B7_explain_lists_the_printed_value_then_each_change_with_its_source() -> None:
    c = card(cost=5, lives=7, elite=False)
    mods = [Overwrite(cost=2, source="a1"), AddLives(3, source="b2"),
            Halve(("cost", "lives"), round_up=False, source="spell"),
            GainElement(Element.FIRE), Overwrite(elite=True, source="a3")]
    cost = explain(c, mods, "cost")
    assert [(s.op, s.value, s.source) for s in cost] == [
        ("printed", 5, ""), ("overwrite", 2, "a1"), ("halve_down", 1, "spell")]
    assert cost[0] == Step("printed", 5) and cost[0].mod is None and cost[1].mod is mods[0]
    lives = explain(c, mods, "lives")
    assert [(s.op, s.value, s.source) for s in lives] == [
        ("printed", 7, ""), ("lives", 10, "b2"), ("halve_down", 5, "spell")]
    assert [(s.op, s.value) for s in explain(c, mods, "elite")] == [
        ("printed", False), ("overwrite", True)]
    assert [(s.op, s.value) for s in explain(c, mods, "elements")] == [
        ("printed", frozenset({Element.FOREST})),
        ("gain", frozenset({Element.FOREST, Element.FIRE}))]
    assert [s.op for s in explain(c, mods, "movement")] == ["printed"]
    assert [s.op for s in explain(c, mods, "strike")] == ["printed"]


def test_B1_explain_names_the_properties_it_knows() -> None:
    with pytest.raises(RuleError) as e:
        explain(card(), [], "unique")
    assert (e.value.rule, e.value.text) == (
        "B1", "Properties are cost, eliteness, lives, movement, strike and elements; choose "
              "one of them.")


def test_B6_B9_which_property_a_modification_touches_and_its_name() -> None:
    cases = [
        (Overwrite(lives=1, strike=SimpleStrike(1, 1, 1)), {"lives", "strike"}, "overwrite"),
        (AddLives(-2), {"lives"}, "lives"),
        (Halve(("cost", "movement")), {"cost", "movement"}, "halve_up"),
        (Halve(("cost",), round_up=False), {"cost"}, "halve_down"),
        (GainElement(Element.FIRE), {"elements"}, "gain"),
        (BecomeElement(Element.FIRE), {"elements"}, "become"),
        (LoseElement(Element.FIRE), {"elements"}, "lose"),
    ]
    every = ("cost", "elite", "lives", "movement", "strike", "elements")
    for mod, touched, op in cases:
        assert {p for p in every if touches(mod, p)} == touched, mod
        assert op_of(mod) == op
