"""Underworld card tables (U3), deck limits (U1/U2) and the setup (U4): every refusal with
its rule id and the exact sentence the referee reads, and the card codec's round trips."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.underworld.rules import (
    CardError,
    ClassCard,
    Encounter,
    Event,
    Item,
    Monster,
    Offer,
    Player,
    Skill,
    State,
    card_from_dict,
    card_to_dict,
    castle_deck_problems,
    class_deck_problems,
    new_game,
    validate_castle_deck,
    validate_class_deck,
)
from referee.games.underworld.rules.state import (
    INVENTORY,
    MAX_LEVEL,
    MAX_SEATS,
    MIN_LEVEL,
    MIN_SEATS,
    PHASES,
    card_of,
    class_of,
    holds,
    player_of,
    take_from_castle,
    without,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import (
    CLASSES,
    MONSTERS,
    RIOT,
    SWORD,
    full_castle,
    game,
    small_castle,
)


def card_refused(table, text: str) -> None:
    with pytest.raises(CardError) as caught:
        card_from_dict(table)
    assert (caught.value.rule, caught.value.text) == ("U3", text)


def orc(**change) -> dict:
    return {"code": "M07", "kind": "monster", "name_en": "Orc", "name_ru": "Орк",
            "strength": 7} | change


def blade(**change) -> dict:
    return {"code": "I09", "kind": "item", "name_en": "Blade", "name_ru": "Клинок",
            "item_type": "weapon", "bonus": 2} | change


def knack(**change) -> dict:
    return {"code": "S09", "kind": "skill", "name_en": "Knack", "name_ru": "Сноровка",
            "bonus": 1} | change


def ranger(**change) -> dict:
    return {"code": "C20", "kind": "class", "name_en": "Ranger", "name_ru": "Следопыт"} | change


# --- U3: a card's table -----------------------------------------------------------------

@pytest.mark.parametrize(("field", "table", "low", "high"), [
    ("strength", orc, 0, 99), ("bonus", blade, -20, 20), ("bonus", knack, -20, 20),
    ("ability_cost", ranger, 0, 6), ("ability_bonus", ranger, 0, 20)])
def test_U3_numbers_are_whole_and_within_their_range(field, table, low, high):
    for good in (low, high):
        assert getattr(card_from_dict(table(**{field: good})), field) == good
    code = table()["code"]
    text = (f"Card {code}: {field} must be a whole number from {low} to {high}; "
            "correct it.")
    for bad in (low - 1, high + 1, True, 2.0, "3", None):
        card_refused(table(**{field: bad}), text)


@pytest.mark.parametrize("field", ["magic", "summoning"])
def test_U3_flags_are_true_or_false(field):
    assert getattr(card_from_dict(knack(**{field: True})), field) is True
    for bad in (1, 0, "true", None):
        card_refused(knack(**{field: bad}),
                     f"Card S09: {field} must be true or false; correct it.")


@pytest.mark.parametrize("field", ["name_en", "name_ru"])
def test_U3_names_are_non_empty_text(field):
    for bad in ("", "   ", 5, None):
        card_refused(orc(**{field: bad}), f"Card M07: {field} must be non-empty text; "
                                          "fill it in.")


def test_U3_texts_may_be_empty_but_must_be_text():
    card = card_from_dict({"code": "E09", "kind": "event", "name_en": "Fog",
                           "name_ru": "Туман", "text_en": "", "text_ru": " "})
    assert card == Event("E09", "Fog", "Туман", "", " ")
    card_refused({"code": "E09", "kind": "event", "name_en": "Fog", "name_ru": "Туман",
                  "text_en": 3}, "Card E09: text_en must be non-empty text; fill it in.")


@pytest.mark.parametrize("code", ["M", "m0", "a-b_c", "1234567890123456", "Z9_"])
def test_U3_a_code_is_up_to_16_letters_digits_dashes(code):
    assert card_from_dict(orc(code=code)).code == code


@pytest.mark.parametrize(("code", "shown"), [
    ("", ""), ("12345678901234567", "12345678901234567"), ("_M1", "_M1"), ("-M1", "-M1"),
    ("M 1", "M 1"), ("M1\n", "M1\n"), (7, "7"), (None, "None")])
def test_U3_a_bad_code_is_shown_in_the_refusal(code, shown):
    card_refused(orc(code=code), f"Card code {shown} is not valid: use up to 16 letters "
                                 "and digits, like M07.")


def test_U3_a_card_is_a_table_with_a_known_kind():
    card_refused(["M07"], "A card must be a table of named fields (code, kind, name_en, "
                          "name_ru, …); check the deck file.")
    for kind, shown in (("spell", "spell"), (5, "5"), (None, "None"), ("Monster", "Monster"),
                        (["monster"], "['monster']")):
        card_refused(orc(kind=kind), f"Card M07: kind {shown} is not known; use monster, "
                                     "item, skill, event or class.")
    table = orc()
    del table["kind"]
    card_refused(table, "Card M07: kind None is not known; use monster, item, skill, event "
                        "or class.")


def test_U3_unknown_and_missing_fields_are_named():
    card_refused(orc(strenght=8), "Card M07: unknown field strenght; remove it or fix its "
                                  "spelling.")
    card_refused(orc(item_type="weapon"), "Card M07: unknown field item_type; remove it or "
                                          "fix its spelling.")
    for field in ("name_en", "name_ru", "strength"):
        table = orc()
        del table[field]
        card_refused(table, f"Card M07: the field {field} is missing; add it.")
    table = blade()
    del table["item_type"]
    card_refused(table, "Card I09: the field item_type is missing; add it.")


@pytest.mark.parametrize("duration", ["lasting", "immediate", "round"])
def test_U3_durations(duration):
    assert card_from_dict(knack(duration=duration)).duration == duration
    assert card_from_dict(blade(duration=duration)).duration == duration


def test_U3_unknown_duration_and_bad_item_type_are_refused():
    for bad in ("forever", "Lasting", ""):
        card_refused(knack(duration=bad), f"Card S09: duration {bad} is not known; use "
                                          "lasting, immediate or round.")
    for good in ("w", "two_handed", "a" * 24):
        assert card_from_dict(blade(item_type=good)).item_type == good
    for bad in ("", "Weapon", "_weapon", "big sword", "a" * 25, "sword2", "weapon\n"):
        card_refused(blade(item_type=bad), f"Card I09: item type {bad} is not valid; use a "
                                           "lowercase word such as weapon or armour.")


def test_U3_defaults_of_each_kind():
    assert card_from_dict(blade()) == Item("I09", "Blade", "Клинок", "weapon", 2, False,
                                           "lasting")
    assert card_from_dict(knack()) == Skill("S09", "Knack", "Сноровка", 1, "lasting", False,
                                            False)
    assert card_from_dict(ranger()) == ClassCard("C20", "Ranger", "Следопыт", False, False,
                                                 0, 0, "", "")
    assert card_from_dict({"code": "E09", "kind": "event", "name_en": "Fog",
                           "name_ru": "Туман"}) == Event("E09", "Fog", "Туман", "", "", False)


def test_U3_card_to_dict_is_the_whole_table():
    assert list(card_to_dict(SWORD))[:2] == ["code", "kind"]
    assert card_to_dict(SWORD) == {"code": "I01", "kind": "item", "name_en": "Sword",
                                   "name_ru": "Меч", "item_type": "weapon", "bonus": 2,
                                   "magic": False, "duration": "lasting"}
    assert card_to_dict(MONSTERS[3]) == {"code": "M03", "kind": "monster",
                                         "name_en": "Monster 3", "name_ru": "Монстр 3",
                                         "strength": 3}


# hypothesis: any valid card survives card_to_dict -> JSON -> card_from_dict, and the table
# read back writes out the same table
_codes = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}", fullmatch=True)
_names = st.text(min_size=1, max_size=12).filter(str.strip)
_texts = st.text(max_size=12)
_bonus = st.integers(-20, 20)
_durations = st.sampled_from(["lasting", "immediate", "round"])
cards = st.one_of(
    st.builds(Monster, _codes, _names, _names, st.integers(0, 99)),
    st.builds(Item, _codes, _names, _names, st.from_regex(r"[a-z][a-z_]{0,23}", fullmatch=True),
              _bonus, st.booleans(), _durations),
    st.builds(Skill, _codes, _names, _names, _bonus, _durations, st.booleans(), st.booleans()),
    st.builds(Event, _codes, _names, _names, _texts, _texts, st.booleans()),
    st.builds(ClassCard, _codes, _names, _names, st.booleans(), st.booleans(),
              st.integers(0, 6), st.integers(0, 20), _texts, _texts))


@given(cards)
@settings(max_examples=60, deadline=None)
def test_U3_every_valid_card_round_trips_through_json(card):
    table = json.loads(json.dumps(card_to_dict(card)))
    assert card_from_dict(table) == card
    assert card_to_dict(card_from_dict(table)) == table
    assert set(table) == {"kind"} | {f.name for f in fields(card)}


@given(cards, st.sampled_from(["code", "kind", "name_en", "name_ru"]),
       st.sampled_from([None, 3, "", []]))
@settings(max_examples=40, deadline=None)
def test_U3_a_table_with_a_broken_field_is_refused_with_a_card_error(card, field, value):
    table = card_to_dict(card) | {field: value}
    with pytest.raises(CardError) as caught:
        card_from_dict(table)
    assert caught.value.rule == "U3" and isinstance(caught.value, ValueError)


# --- U1/U2: deck limits -----------------------------------------------------------------

def texts(problems) -> list[tuple[str, str]]:
    return [(p.rule, p.text) for p in problems]


def test_U2_the_exact_limits_are_legal():
    deck = full_castle()  # 34 monsters, 28 items, 10 skills, 15 events: 87
    assert castle_deck_problems(deck) == ()
    fewest = [c for c in deck if c.kind in ("monster", "item")]
    fewest = fewest + [c for c in deck if c.kind == "skill"][:7] + [RIOT] * 13
    assert castle_deck_problems(fewest) == ()
    no_items = [c for c in deck if c.kind != "item"]
    assert castle_deck_problems(no_items) == ()
    assert validate_castle_deck(deck) is None and validate_class_deck(CLASSES) is None


def test_U2_every_limit_names_its_counts():
    assert texts(castle_deck_problems([])) == [
        ("U2", "monsters: 0, must be exactly 34; add or remove monster cards."),
        ("U2", "skills: 0, must be 7 to 10; add or remove skill cards."),
        ("U2", "events: 0, must be 13 to 15; add or remove event cards.")]
    deck = full_castle()
    monsters = [c for c in deck if c.kind == "monster"]
    others = [c for c in deck if c.kind != "monster"]
    assert texts(castle_deck_problems(monsters[:33] + others)) == [
        ("U2", "monsters: 33, must be exactly 34; add or remove monster cards.")]
    assert texts(castle_deck_problems(deck + [SWORD])) == [
        ("U2", "items: 29, at most 28; remove item cards."),
        ("U2", "cards in all: 88, at most 87; remove cards.")]


def test_U1_strangers_in_a_deck_are_named_in_order():
    deck = full_castle() + [CLASSES[1], CLASSES[0], CLASSES[1]]
    problems = castle_deck_problems(deck)
    assert texts(problems)[0] == ("U1", "Only monsters, items, skills and events belong in the "
                                        "castle deck: move C01, C02 to the class deck.")
    assert texts(problems)[1:] == [("U2", "cards in all: 90, at most 87; remove cards.")]
    assert texts(castle_deck_problems(full_castle()[:-1] + ["junk"]))[0] == (
        "U1", "Only monsters, items, skills and events belong in the castle deck: move ? to "
              "the class deck.")
    assert texts(class_deck_problems(CLASSES[:11] + [MONSTERS[2], RIOT])) == [
        ("U1", "Only class cards belong in the class deck: move E01, M02 to the castle deck.")]
    assert texts(class_deck_problems(CLASSES[:12] + [None])) == [
        ("U1", "Only class cards belong in the class deck: move ? to the castle deck.")]
    assert texts(class_deck_problems(CLASSES + [CLASSES[0]])) == [
        ("U2", "class cards: 14, must be exactly 13; add or remove class cards.")]


def test_U3_each_clashing_code_is_named_once():
    deck = full_castle()
    odd = Monster("M01", "Other", "Другой", 50)
    deck = deck[:-3] + [odd, odd, Item("M02", "Odd", "Странный", "ring", 1)]
    assert texts(castle_deck_problems(deck)) == [
        ("U2", "monsters: 36, must be exactly 34; add or remove monster cards."),
        ("U2", "items: 29, at most 28; remove item cards."),
        ("U2", "events: 12, must be 13 to 15; add or remove event cards."),
        ("U3", "Cards with the code M01 differ; give each different card its own code."),
        ("U3", "Cards with the code M02 differ; give each different card its own code.")]
    classes = CLASSES[:12] + [ClassCard("C01", "Fake", "Фальшивый")]
    assert texts(class_deck_problems(classes)) == [
        ("U3", "Cards with the code C01 differ; give each different card its own code.")]
    with pytest.raises(RuleError) as caught:
        validate_class_deck(classes)
    assert caught.value.text.startswith("Cards with the code C01 differ")
    with pytest.raises(RuleError) as caught:
        validate_castle_deck(deck)
    assert caught.value.text.startswith("monsters: 36")


# --- U4: the setup ------------------------------------------------------------------------

HANDS = {"A": ["I01", "M01", "M01", "M01"], "B": ["M01"] * 4}


def setup_refused(text: str, rule: str = "U4", players=("A", "B"), castle=None,
                  classes=None, hands=None, levels=None, check_decks=False) -> None:
    with pytest.raises(RuleError) as caught:
        new_game(players, small_castle() if castle is None else castle,
                 CLASSES if classes is None else classes, HANDS if hands is None else hands,
                 levels, check_decks=check_decks)
    assert (caught.value.rule, caught.value.text) == (rule, text)


def test_U1_U4_a_new_game_starts_everyone_human_at_level_1_with_four_cards():
    s = new_game(["A", "B"], small_castle(), CLASSES, HANDS, check_decks=False)
    assert s.players == (Player("A", 1, "", (), ("I01", "M01", "M01", "M01")),
                         Player("B", inventory=("M01",) * 4))
    assert Player("A") == Player("A", 1, "", (), (), (), (), False, False)
    deck = sorted(c.code for c in small_castle())
    for code in ("I01", *["M01"] * 7):
        deck.remove(code)
    assert s.castle == tuple(deck) and s.class_deck == tuple(sorted(c.code for c in CLASSES))
    assert (s.discard, s.active, s.turn, s.step, s.phase, s.streak, s.fought, s.may_step,
            s.event, s.encounter, s.playoff, s.winner, s.reading) == (
        (), 0, 1, 1, "draw", 0, False, True, "", None, False, "", 2)
    assert {c.code for c in s.cards} == {c.code for c in small_castle() + CLASSES}
    assert len(s.cards) == len({c.code for c in s.cards})
    assert (MIN_LEVEL, MAX_LEVEL, MIN_SEATS, MAX_SEATS, INVENTORY) == (1, 10, 2, 6, 4)
    assert PHASES[0] == "draw" and PHASES[-1] == "over" and len(PHASES) == 9
    assert Encounter("A") == Encounter("A", "", "", (), (), False)
    assert Offer("B", "A", "I01").accepted is False


def test_U4_two_to_six_players_each_with_an_id():
    ids = ["A", "B", "C", "D", "E", "F"]
    hands = {pid: ["M01"] * 4 for pid in ids}
    assert len(new_game(ids, small_castle(), CLASSES, hands, check_decks=False).players) == 6
    for players in (["A"], ids + ["G"], []):
        setup_refused(f"A game needs 2 to 6 players, got {len(players)}; add or remove "
                      "players.", players=players, hands={})
    setup_refused("A game needs 2 to 6 players, got 2; add or remove players.", players="AB",
                  hands={})
    for bad in ("", "  ", 7):
        setup_refused("Every player needs an id (non-empty text); fix the player list.",
                      players=["A", bad], hands={})
    setup_refused("Player id A appears twice; give each player their own id.",
                  players=["A", "B", "A"], hands={})


def test_U2_U4_decks_are_checked_unless_told_not_to():
    s = new_game(["A", "B"], full_castle(), CLASSES,
                 {"A": ["I01", "M01", "M02", "M03"], "B": ["M04", "M05", "M06", "M07"]})
    assert len(s.castle) == 87 - 8
    setup_refused("monsters: 46, must be exactly 34; add or remove monster cards.", "U2",
                  check_decks=True)
    setup_refused("class cards: 12, must be exactly 13; add or remove class cards.", "U2",
                  castle=full_castle(), classes=CLASSES[:12], check_decks=True)
    # a wrong kind or a clashing code is never playable, even unchecked
    setup_refused("Only class cards belong in the class deck: move M01 to the castle deck.",
                  "U1", classes=CLASSES[:12] + [MONSTERS[1]])
    setup_refused("Cards with the code C01 differ; give each different card its own code.",
                  "U3", classes=CLASSES[:12] + [ClassCard("C01", "Fake", "Фальшивый")])
    # one code for a castle card and a different class card
    setup_refused("Cards with the code I01 differ; give each different card its own code.",
                  "U3", classes=CLASSES[:12] + [ClassCard("I01", "Fake", "Фальшивый")])


def test_U4_starting_levels_1_to_9_and_hands_of_four_dealt_from_the_castle():
    s = new_game(["A", "B"], small_castle(), CLASSES, HANDS, {"A": 9, "B": 1},
                 check_decks=False)
    assert [p.level for p in s.players] == [9, 1]
    for bad in (0, 10, True, 2.0, "3"):
        setup_refused("The starting level of B must be a whole number from 1 to 9 (level 10 "
                      "would win at once); correct it.", levels={"B": bad})
    setup_refused("Player Z is not in this game; pick one of A, B.", levels={"Z": 2})
    setup_refused("Player Z is not in this game; pick one of A, B.",
                  hands=HANDS | {"Z": ["M01"] * 4})
    for hand in (["M01"] * 3, ["M01"] * 5, "M01M", ["M01", "M01", "M01", 1]):
        setup_refused("B must start with exactly 4 castle cards (codes); deal 4 cards.",
                      hands={"A": HANDS["A"], "B": hand})
    setup_refused("B must start with exactly 4 castle cards (codes); deal 4 cards.",
                  hands={"A": HANDS["A"]})
    setup_refused("No copy of C01 is left in the castle deck to deal to B; deal a card from "
                  "the castle deck.", hands={"A": HANDS["A"], "B": ["M01", "C01", "M01", "M01"]})
    setup_refused("No copy of I01 is left in the castle deck to deal to B; deal a card from "
                  "the castle deck.", hands={"A": ["I01", "I01", "M01", "M01"],
                                            "B": ["M02", "M02", "I01", "M03"]})
    # two swords in the castle: the second hand asking for a third finds none left
    setup_refused("No copy of I01 is left in the castle deck to deal to B; deal a card from "
                  "the castle deck.", hands={"A": ["I01", "I01", "M01", "M01"],
                                            "B": ["M02", "M01", "I01", "M03"]})


# --- the state's helpers ------------------------------------------------------------------

def test_U1_U4_unknown_cards_and_players_are_refused_by_name():
    s = game()
    assert card_of(s, "I01") == SWORD and player_of(s, "B").id == "B"
    with pytest.raises(RuleError) as caught:
        card_of(s, "X99")
    assert (caught.value.rule, caught.value.text) == (
        "U1", "There is no card X99 in this game; check the code on the card.")
    with pytest.raises(RuleError) as caught:
        player_of(s, "Z")
    assert (caught.value.rule, caught.value.text) == (
        "U4", "Player Z is not in this game; pick one of A, B, C.")


def test_U1_without_and_holds_count_copies():
    assert without(("a", "b", "a"), ["a"]) == ("b", "a")
    assert without(("a", "b", "a"), ["a", "a"]) == ("b",)
    assert without(("a", "b"), ["a", "a"]) is None and without((), ["a"]) is None
    assert without(("a",), []) == ("a",)
    assert holds(["a", "a", "b"], ["a", "a"]) and holds(["a"], [])
    assert not holds(["a", "b"], ["a", "a"]) and not holds([], ["a"])


def test_U5_a_card_leaves_the_castle_and_an_empty_castle_is_refilled_from_the_discard():
    s = game()
    left = take_from_castle(s, "I01")
    assert list(s.castle).count("I01") == 2 and list(left.castle).count("I01") == 1
    assert len(left.castle) == len(s.castle) - 1
    with pytest.raises(RuleError) as caught:
        take_from_castle(s, "X99")
    assert (caught.value.rule, caught.value.text) == (
        "U1", "There is no card X99 in this game; check the code on the card.")
    from dataclasses import replace
    empty = replace(s, castle=(), discard=("M03", "I01", "M02", "M03"))
    refilled = take_from_castle(empty, "M02")
    assert refilled.castle == ("I01", "M03", "M03") and refilled.discard == ()
    with pytest.raises(RuleError) as caught:
        take_from_castle(replace(s, castle=("M02",), discard=("I01",)), "I01")
    assert (caught.value.rule, caught.value.text) == (
        "U1", "No copy of I01 is left in the castle deck; check the card drawn.")


def test_U9_class_of_is_the_class_card_or_none_for_a_human():
    from dataclasses import replace
    s = game()
    a = player_of(s, "A")
    assert class_of(s, a) is None
    assert class_of(s, replace(a, class_card="C04")) == CLASSES[3]
    assert class_of(s, replace(a, class_card="I01")) is None  # not a class card
    assert isinstance(s, State)
