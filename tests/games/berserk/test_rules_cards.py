"""Berserk-style printed cards (B1–B5, B8) as a deck file gives them: defaults, accepted
spellings, and the exact sentence (and its translatable template) of every refusal."""

from __future__ import annotations

import pytest

from referee.games.berserk.rules import (
    Element,
    FormatError,
    Kind,
    Locomotion,
    SimpleStrike,
    card_from_dict,
)

BASE: dict[str, object] = {"code": "C", "name_en": "Knight", "name_ru": "Рыцарь", "cost": 3,
                           "lives": 3, "movement": 2, "strike": [1, 2, 3]}
ARTIFACT: dict[str, object] = {"code": "T", "name_en": "Totem", "name_ru": "Тотем",
                               "kind": "artifact", "cost": 2, "lives": 4}


def refused(d: object) -> FormatError:
    with pytest.raises(FormatError) as e:
        card_from_dict(d)
    assert str(e.value) == e.value.text == e.value.message % e.value.params
    return e.value


def test_B1_a_card_s_defaults_and_trimmed_names() -> None:
    c = card_from_dict(BASE | {"name_en": "  Knight ", "name_ru": "\tРыцарь\n"})
    assert (c.name_en, c.name_ru, c.kind, c.elite, c.unique) == (
        "Knight", "Рыцарь", Kind.CREATURE, False, False)
    assert (c.elements, c.text_en, c.text_ru, c.variable_cost) == (frozenset(), "", "", False)
    assert card_from_dict(BASE | {"text_en": "Flies", "text_ru": "Летает"}).text_ru == "Летает"


@pytest.mark.parametrize("code", ["A", "b07", "x_y-Z", "1" * 20])
def test_B1_a_code_of_1_to_20_letters_digits_dashes_or_underscores(code: str) -> None:
    assert card_from_dict(BASE | {"code": code}).code == code


@pytest.mark.parametrize(("code", "shown"), [("", "''"), ("1" * 21, repr("1" * 21)),
                                             ("a b", "'a b'"), (None, "None"), (7, "7"),
                                             ("ok\n", repr("ok\n"))])
def test_B1_a_bad_code_is_refused(code: object, shown: str) -> None:
    e = refused(BASE | {"code": code})
    assert e.text == f"card field 'code' must be 1-20 letters or digits, got {shown}"
    assert e.params == {"value": shown}


def test_B1_a_card_is_a_table_and_unknown_fields_are_named() -> None:
    assert refused(["code"]).text == "a card must be a table of fields, not list"
    e = refused(BASE | {"zeta": 1, "colour": "red"})
    assert e.text == "card C: unknown field(s) 'colour', 'zeta'"
    assert e.params == {"code": "C", "keys": "'colour', 'zeta'"}


@pytest.mark.parametrize("key", ["name_en", "name_ru"])
@pytest.mark.parametrize(("value", "shown"), [(" ", "' '"), (None, "None"), (5, "5")])
def test_B1_names_are_non_empty_texts(key: str, value: object, shown: str) -> None:
    e = refused(BASE | {key: value})
    assert e.text == f"card C: field '{key}' must be a non-empty text, got {shown}"
    assert e.params == {"code": "C", "key": key, "value": shown}
    assert e.message == "card %(code)s: field '%(key)s' must be a non-empty text, got %(value)s"


def test_B3_kind_is_creature_or_artifact() -> None:
    assert refused(BASE | {"kind": "spell"}).text == (
        "card C: field 'kind' must be 'creature' or 'artifact', got 'spell'")
    assert card_from_dict(BASE | {"kind": "creature"}).kind is Kind.CREATURE


def test_B2_cost_x_in_either_case_takes_its_x_or_zero() -> None:
    for spelling in ("X", "x"):
        c = card_from_dict(BASE | {"cost": spelling, "x": 5})
        assert (c.cost, c.variable_cost) == (5, True)
    assert card_from_dict(BASE | {"cost": "X"}).cost == 0
    assert card_from_dict(BASE | {"cost": 0}).cost == 0


@pytest.mark.parametrize(("fields", "says"), [
    ({"cost": "X", "x": -1}, "card C: field 'x' must be a whole number of 0 or more, got -1"),
    ({"cost": "X", "x": True}, "card C: field 'x' must be a whole number of 0 or more, "
                               "got True"),
    ({"cost": 3, "x": 3}, "card C: field 'x' must be absent unless the cost is 'X', got 3"),
    ({"cost": "Y"}, "card C: field 'cost' must be a whole number of 0 or more, or 'X', "
                    "got 'Y'"),
    ({"cost": -1}, "card C: field 'cost' must be a whole number of 0 or more, or 'X', got -1"),
    ({"cost": 2.0}, "card C: field 'cost' must be a whole number of 0 or more, or 'X', "
                    "got 2.0"),
    ({"elite": "yes"}, "card C: field 'elite' must be true or false, got 'yes'"),
    ({"lives": 0}, "card C: field 'lives' must be a whole number of 1 or more, got 0"),
    ({"lives": "3"}, "card C: field 'lives' must be a whole number of 1 or more, got '3'"),
    ({"movement": "swim"}, "card C: field 'movement' must be a whole number of 0 or more, "
                           "'flying' or 'symbiote', got 'swim'"),
    ({"movement": -1}, "card C: field 'movement' must be a whole number of 0 or more, "
                       "'flying' or 'symbiote', got -1"),
    ({"strike": [1, 2]}, "card C: field 'strike' must be three whole numbers X-Y-Z of 0 or "
                         "more, got [1, 2]"),
    ({"strike": [1, 2, -3]}, "card C: field 'strike' must be three whole numbers X-Y-Z of 0 "
                             "or more, got [1, 2, -3]"),
    ({"strike": "1-2-a"}, "card C: field 'strike' must be three whole numbers X-Y-Z of 0 or "
                          "more, got '1-2-a'"),
    ({"strike": 123}, "card C: field 'strike' must be three whole numbers X-Y-Z of 0 or "
                      "more, got 123"),
    ({"elements": 5}, "card C: field 'elements' must be a list of elements, got 5"),
    ({"elements": ["forest", "air"]}, "card C: field 'elements' must be a list of steppe, "
     "forest, mountains, swamps, darkness, fire (or [] / ['neutral']), got ['forest', 'air']"),
    ({"elements": ["neutral", "fire"]}, "card C: field 'elements' must be a list of steppe, "
     "forest, mountains, swamps, darkness, fire (or [] / ['neutral']), got ['neutral', "
     "'fire']"),
    ({"unique": 1}, "card C: field 'unique' must be true or false, got 1"),
    ({"text_en": 5}, "card C: field 'text_en' must be a text, got 5"),
    ({"text_ru": None}, "card C: field 'text_ru' must be a text, got None"),
])
def test_B1_to_B8_every_bad_field_is_named_with_its_value(fields: dict, says: str) -> None:
    e = refused(BASE | fields)
    assert e.text == says
    assert (e.params["code"], e.params["key"]) == ("C", says.split("'")[1])


@pytest.mark.parametrize("key", ["movement", "strike"])
def test_B4_B5_an_artifact_prints_no_movement_or_strike(key: str) -> None:
    e = refused(ARTIFACT | {key: BASE[key]})
    assert e.text == f"card T: field '{key}' must be absent on an artifact, got {BASE[key]!r}"
    art = card_from_dict(ARTIFACT)
    assert (art.locomotion, art.movement, art.strike) == (None, None, None)


@pytest.mark.parametrize(("movement", "locomotion", "number"), [
    (0, Locomotion.GROUND, 0), (4, Locomotion.GROUND, 4), ("flying", Locomotion.FLYING, None),
    ("symbiote", Locomotion.SYMBIOTE, None)])
def test_B4_movement_or_a_symbol(movement: object, locomotion: Locomotion,
                                 number: int | None) -> None:
    c = card_from_dict(BASE | {"movement": movement})
    assert (c.locomotion, c.movement) == (locomotion, number)


@pytest.mark.parametrize("strike", ["2-3-4", "2–3–4", " 2 - 3 - 4 ", [2, 3, 4], (2, 3, 4)])
def test_B5_a_strike_is_written_x_y_z_or_as_a_list(strike: object) -> None:
    assert card_from_dict(BASE | {"strike": strike}).strike == SimpleStrike(2, 3, 4)


@pytest.mark.parametrize(("elements", "expected"), [
    ("forest", {Element.FOREST}), (["neutral"], set()), ([], set()),
    (("fire", "steppe"), {Element.FIRE, Element.STEPPE})])
def test_B8_elements_as_a_list_a_single_name_or_neutral(elements: object,
                                                        expected: set) -> None:
    assert card_from_dict(BASE | {"elements": elements}).elements == expected
