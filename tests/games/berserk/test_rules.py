"""Berserk-style cards: card model (B1–B5, B7, B8), modifications (B6, B9), squads
(B12–B14), worked examples of shared/rules/berserk.md and the Russian PO fragment.

Strikes are in test_rules_berserk_strike.py, battles in test_rules_berserk_battle.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee.games.berserk.rules import (
    ELEMENT_LOOK,
    NEUTRAL,
    PUBLISHED,
    AddLives,
    BecomeElement,
    Card,
    Element,
    FormatError,
    GainElement,
    Halve,
    Kind,
    Locomotion,
    LoseElement,
    Overwrite,
    Settings,
    SimpleStrike,
    add_to_squad,
    card_from_dict,
    card_to_dict,
    check_deck,
    check_mod,
    check_squad,
    compare_cost,
    deck_problems,
    effective,
    explain,
    fix_x,
    mod_from_dict,
    mod_to_dict,
    same_cost,
    settings_from_dict,
    settings_to_dict,
    squad_problems,
    squad_summary,
)
from referee.rules import RuleError

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "referee" / "games" / "berserk" / "rules"
PO = ROOT / "referee" / "translations" / "ru" / "LC_MESSAGES" / "berserk.po"


def card(code: str = "C01", **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 3,
                            "lives": 3, "movement": 2, "strike": [1, 2, 3]}
    d.update(fields)
    return card_from_dict(d)


def flyer(code: str, cost: int) -> Card:
    return card(code, cost=cost, movement="flying")


# --- B1–B5, B8: the printed card ------------------------------------------------------


def test_B1_B2_B3_B4_B5_card_from_dict_reads_base_properties() -> None:
    c = card_from_dict({
        "code": "B07", "name_en": "Ghost Knight", "name_ru": "Призрачный рыцарь",
        "cost": 5, "elite": True, "lives": 3, "movement": 2, "strike": "1-2-3",
        "elements": ["darkness"], "unique": True, "text_ru": "Бестелесный.",
    })
    assert (c.code, c.name_ru, c.kind, c.cost, c.elite, c.lives) == (
        "B07", "Призрачный рыцарь", Kind.CREATURE, 5, True, 3)
    assert (c.locomotion, c.movement, c.strike) == (Locomotion.GROUND, 2, SimpleStrike(1, 2, 3))
    assert c.elements == frozenset({Element.DARKNESS}) and c.unique and not c.variable_cost
    assert card_from_dict(card_to_dict(c)) == c


def test_B1_only_base_properties_are_overwritten_or_halved() -> None:
    c = card()
    with pytest.raises(RuleError) as e:
        check_mod(c, Halve(("elements",)))
    assert e.value.rule == "B1"
    with pytest.raises(RuleError) as e:
        explain(c, [], "name_en")
    assert e.value.rule == "B1"
    with pytest.raises(TypeError):
        Overwrite(name="Other")  # type: ignore[call-arg]


def test_B2_variable_cost_x_fixed_at_squad_building_else_zero() -> None:
    x_card = card("X1", cost="X")
    assert x_card.variable_cost and x_card.cost == 0  # B2: undetermined X is 0
    fixed = fix_x(x_card, 4)
    assert fixed.cost == 4 and effective(fixed).cost == 4
    assert card_from_dict(card_to_dict(fixed)) == fixed
    assert card("X2", cost="X", x=2).cost == 2
    with pytest.raises(RuleError) as e:
        fix_x(card(), 2)
    assert e.value.rule == "B2"
    with pytest.raises(RuleError):
        fix_x(x_card, -1)


def test_B2_same_greater_lesser_cost_ignore_eliteness() -> None:
    elite, ordinary = card("E", cost=4, elite=True), card("O", cost=4)
    assert same_cost(elite, ordinary) and compare_cost(elite, ordinary) == 0
    assert compare_cost(card("P", cost=5), elite) == 1
    assert compare_cost(2, elite) == -1


def test_B3_artifact_has_lives_but_no_movement_or_strike() -> None:
    art = card_from_dict({"code": "A1", "name_en": "Totem", "name_ru": "Тотем",
                          "kind": "artifact", "cost": 2, "lives": 4})
    assert (art.kind, art.lives, art.movement, art.strike, art.locomotion) == (
        Kind.ARTIFACT, 4, None, None, None)
    with pytest.raises(FormatError, match="strike"):
        card_from_dict({**card_to_dict(art), "strike": [1, 1, 1]})
    with pytest.raises(FormatError, match="lives"):
        card(lives=0)


def test_B4_flyer_and_symbiote_show_a_symbol_not_movement() -> None:
    f = card("F", movement="flying")
    s = card("S", movement="symbiote")
    assert (f.locomotion, f.movement, f.flying) == (Locomotion.FLYING, None, True)
    assert (s.locomotion, s.movement, s.flying) == (Locomotion.SYMBIOTE, None, False)
    with pytest.raises(RuleError) as e:
        check_mod(f, Overwrite(movement=3))
    assert e.value.rule == "B4"
    assert effective(card(movement=3), [Overwrite(movement=1)]).movement == 1


def test_B5_simple_strike_is_weak_medium_strong() -> None:
    s = card(strike=[2, 3, 4]).strike
    assert (s.weak, s.medium, s.strong, str(s)) == (2, 3, 4, "2-3-4")
    art = card_from_dict({"code": "A", "name_en": "a", "name_ru": "а", "kind": "artifact",
                          "cost": 1, "lives": 1})
    with pytest.raises(RuleError) as e:
        check_mod(art, Overwrite(strike=SimpleStrike(1, 1, 1)))
    assert e.value.rule == "B5"


@pytest.mark.parametrize(("field", "value"), [
    ("code", ""), ("name_ru", " "), ("cost", -1), ("cost", "Y"), ("elite", "yes"),
    ("lives", "3"), ("movement", "swim"), ("strike", [1, 2]), ("strike", "1-2-a"),
    ("elements", ["air"]), ("unique", 1), ("kind", "spell"), ("colour", "red"),
])
def test_B1_card_from_dict_names_the_bad_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=field if field != "code" else "code"):
        card(**{field: value})


def test_B8_elements_neutral_and_printed_look() -> None:
    assert card(elements=[]).neutral and card(elements=[NEUTRAL]).neutral
    both = card(elements=["forest", "fire"])
    assert both.elements == {Element.FOREST, Element.FIRE} and not both.neutral
    assert ELEMENT_LOOK[Element.STEPPE].icon == "sun"
    assert ELEMENT_LOOK[Element.DARKNESS].colour == "black"
    assert ELEMENT_LOOK[NEUTRAL].icon == "shield and crossed weapons"
    assert len(ELEMENT_LOOK) == 7


# --- B6, B9: modifications, with the seed examples --------------------------------------


def test_B6_seed_plus_three_lives_to_three_lives_gives_six() -> None:
    ghost_knight = card("ghost_knight", lives=3)
    assert effective(ghost_knight, [AddLives(3, source="chronomaster")]).lives == 6


def test_B6_B2_seed_halving_cost_four_gives_two() -> None:
    ber = card("ber", cost=4)
    sniper_cost = 3
    assert compare_cost(ber, sniper_cost) == 1
    halved = effective(ber, [Halve(("cost",), source="sniper")])
    assert halved.cost == 2
    # The sniper's superiority now compares with the halved cost (B2: eliteness aside).
    assert compare_cost(halved.cost, sniper_cost) == -1


def test_B6_seed_one_life_movement_one_strike_111_overwrites_all_three() -> None:
    # The seed's "1 , 1 и 1-1-1" lost its icons: lives, movement, strike (B6 reading).
    elf = card("elf_sorcerer", cost=5, lives=4, strike=[2, 3, 3], movement=2)
    veide = Overwrite(lives=1, movement=1, strike=SimpleStrike(1, 1, 1), source="veide")
    assert veide.props() == ("lives", "movement", "strike")
    now = effective(elf, [veide])
    assert (now.lives, now.movement, now.strike) == (1, 1, SimpleStrike(1, 1, 1))
    assert (now.cost, now.elite) == (5, False)  # the cost is not one of the three
    assert [s.value for s in explain(elf, [veide], "movement")] == [2, 1]
    assert mod_from_dict(mod_to_dict(veide)) == veide


def test_B6_seed_glasion_overwrites_13_1_334_then_halves_to_7_1_222() -> None:
    mobo = card("mobo", lives=5, strike=[2, 2, 3], movement=2)
    first = Overwrite(lives=13, movement=1, strike=SimpleStrike(3, 3, 4), source="glasion")
    second = Halve(("lives", "strike"), round_up=True, source="glasion")
    once = effective(mobo, [first])
    assert (once.lives, once.movement, once.strike) == (13, 1, SimpleStrike(3, 3, 4))
    twice = effective(mobo, [first, second])
    assert (twice.lives, twice.movement, twice.strike) == (7, 1, SimpleStrike(2, 2, 2))
    assert [s.value for s in explain(mobo, [first, second], "lives")] == [5, 13, 7]
    assert [s.value for s in explain(mobo, [first, second], "movement")] == [2, 1]
    # Halving never touches movement: it stays as the first use overwrote it.
    assert [(s.op, str(s.value)) for s in explain(mobo, [first, second], "strike")] == [
        ("printed", "2-2-3"), ("overwrite", "3-3-4"), ("halve_up", "2-2-2")]


def test_B6_overwrite_replaces_then_plus_minus_lives_add_in_order() -> None:
    c = card(lives=5)
    mods = [AddLives(2), Overwrite(lives=3), AddLives(-1), AddLives(4)]
    steps = explain(c, mods, "lives")
    assert [(s.op, s.value) for s in steps] == [
        ("printed", 5), ("lives", 7), ("overwrite", 3), ("lives", 2), ("lives", 6)]
    assert explain(c, mods, "cost") == explain(c, [], "cost")


def test_B6_lives_never_negative_and_halving_rounds_down_when_asked() -> None:
    c = card(lives=2, cost=5)
    assert effective(c, [AddLives(-5)]).lives == 0
    assert effective(c, [AddLives(-5), AddLives(1)]).lives == 1
    assert effective(c, [Halve(("cost",), round_up=False)]).cost == 2


@pytest.mark.parametrize("mod", [
    Overwrite(), Overwrite(lives=-1), Overwrite(cost=True), Overwrite(elite="yes"),
    Overwrite(strike=SimpleStrike(1, -1, 2)), AddLives(0), AddLives(1000), Halve(()),
    Halve(("lives",), round_up=None), GainElement("air"), AddLives(1, source=5), "lives+1",
])
def test_B6_malformed_modifications_are_refused(mod: object) -> None:
    with pytest.raises(RuleError):
        check_mod(card(), mod)


def test_B6_B9_modification_dicts_round_trip() -> None:
    mods = [Overwrite(cost=1, elite=True, strike=SimpleStrike(1, 1, 1), source="a2"),
            AddLives(-3), Halve(("lives", "strike"), round_up=False),
            GainElement(Element.FIRE), BecomeElement(Element.SWAMPS, "b1"),
            LoseElement(Element.STEPPE)]
    for mod in mods:
        assert mod_from_dict(mod_to_dict(mod)) == mod
    for bad in [{"op": "heal"}, {"op": "lives"}, {"op": "gain", "element": "air"},
                {"op": "halve", "props": "lives"}, {"op": "lives", "amount": 1, "x": 1},
                {"op": "overwrite", "strike": [1, 2]}, []]:
        with pytest.raises(ValueError):
            mod_from_dict(bad)


def test_B9_gain_keeps_become_replaces_lose_last_is_neutral() -> None:
    c = card(elements=["forest"])
    assert effective(c, [GainElement(Element.FIRE)]).elements == {Element.FOREST, Element.FIRE}
    assert effective(c, [GainElement(Element.FIRE), BecomeElement(Element.SWAMPS)]
                     ).elements == {Element.SWAMPS}
    assert effective(c, [LoseElement(Element.FOREST)]).elements == frozenset()
    assert effective(c, [LoseElement(Element.DARKNESS)]).elements == {Element.FOREST}
    steps = explain(c, [GainElement(Element.FIRE), LoseElement(Element.FOREST)], "elements")
    assert [s.op for s in steps] == ["printed", "gain", "lose"]
    assert steps[-1].value == {Element.FIRE}


# --- B12–B14: squads and decks ----------------------------------------------------------


def test_B12_B13_example_4_forest_elite_then_mountains_ordinary_then_neutral() -> None:
    forest = card("forest7", cost=7, elite=True, elements=["forest"])
    s = squad_summary([forest], PUBLISHED)
    assert (s.gold_left, s.silver_left, s.element_penalty) == (17, 22, 0)
    mountains = card("mount5", cost=5, elements=["mountains"])
    s = squad_summary([forest, mountains], PUBLISHED)
    assert (s.element_penalty, s.gold_left, s.silver_left) == (1, 16, 17)
    assert s.elements == (Element.FOREST, Element.MOUNTAINS)
    neutral = card("neutral2", cost=2, elements=[])
    s = squad_summary([forest, mountains, neutral], PUBLISHED)
    assert (s.element_penalty, s.gold_left, s.silver_left, s.ok) == (1, 16, 15, True)


def test_B12_second_player_has_one_more_of_each_and_unspent_is_lost() -> None:
    s = squad_summary([], PUBLISHED, first_player=False)
    assert (s.gold, s.silver) == (25, 23)
    assert squad_summary([], PUBLISHED).gold == 24


def test_B12_elite_cards_are_paid_with_gold_only() -> None:
    elites = [card(f"E{i}", cost=5, elite=True) for i in range(5)]  # 25 > 24 gold
    problems = squad_problems(elites, PUBLISHED)
    assert [p.rule for p in problems] == ["B12"]
    assert problems[0].params == {"cost": 25, "gold": 24}
    assert squad_problems(elites, PUBLISHED, first_player=False) == ()
    # Ordinary cards spill over into gold once silver is gone.
    ordinary = [card(f"O{i}", cost=10) for i in range(3)]
    s = squad_summary(ordinary, PUBLISHED)
    assert (s.silver_used, s.gold_used, s.gold_left, s.silver_left) == (22, 8, 16, 0)
    over = squad_summary([*ordinary, card("O9", cost=10), card("O8", cost=7)], PUBLISHED)
    assert over.gold_left == -1 and [p.rule for p in over.problems] == ["B12"]


def test_B13_element_penalty_is_elements_minus_one_gold() -> None:
    four = [card(f"C{i}", cost=1, elements=[e]) for i, e in
            enumerate(["steppe", "forest", "swamps", "fire"])]
    assert squad_summary(four, PUBLISHED).element_penalty == 3
    two_in_one = [card("M", cost=1, elements=["darkness", "fire"]), card("N", cost=1)]
    assert squad_summary(two_in_one, PUBLISHED).element_penalty == 1
    # The penalty alone can make the squad unaffordable.
    elites = [card("E1", cost=12, elite=True, elements=["forest"]),
              card("E2", cost=12, elite=True, elements=["fire"])]
    problems = squad_problems(elites, PUBLISHED)
    assert [p.rule for p in problems] == ["B13"]
    with pytest.raises(RuleError) as e:
        check_squad(elites, PUBLISHED)
    assert e.value.rule == "B13"
    assert squad_problems(elites, Settings(element_penalty=0)) == ()


def test_B14_example_5_flyers_over_15_refused() -> None:
    squad = add_to_squad([flyer("F1", 4)], flyer("F2", 6), PUBLISHED)
    assert squad_summary(squad, PUBLISHED).flyer_cost == 10
    with pytest.raises(RuleError) as e:
        add_to_squad(squad, flyer("F3", 6), PUBLISHED)
    assert (e.value.rule, e.value.params) == ("B14", {"cost": 16, "limit": 15})
    # A ground creature is still welcome, and an event may raise the limit.
    assert len(add_to_squad(squad, card("G", cost=6), PUBLISHED)) == 3
    assert len(add_to_squad(squad, flyer("F3", 6), Settings(flyer_cost_limit=16))) == 3


def test_B14_copies_and_unique_cards() -> None:
    three = [card("K", cost=1)] * 3
    assert squad_problems(three, PUBLISHED) == ()
    with pytest.raises(RuleError) as e:
        add_to_squad(three, card("K", cost=1), PUBLISHED)
    assert e.value.params == {"card": "K", "count": 4, "limit": 3}
    hero = card("H", cost=1, unique=True)
    with pytest.raises(RuleError) as e:
        add_to_squad([hero], hero, PUBLISHED)
    assert (e.value.rule, e.value.params["limit"]) == ("B14", 1)
    assert squad_summary([*three, hero], PUBLISHED).copies == (("K", 3), ("H", 1))


def test_B14_deck_has_30_to_50_cards() -> None:
    deck = [card(f"D{i}") for i in range(29)]
    assert [p.rule for p in deck_problems(deck)] == ["B14"]
    check_deck([*deck, card("D99")])
    with pytest.raises(RuleError) as e:
        check_deck([card(f"D{i}") for i in range(51)])
    assert e.value.params == {"count": 51, "min": 30, "max": 50, "over": 1}
    assert [p.params["card"] for p in deck_problems([*deck, *[card("D1")] * 3])] == ["D1"]


def test_B11_B12_B13_B14_settings_round_trip_and_validate() -> None:
    s = Settings(first_gold=30, flyer_cost_limit=20, strike_taps_attacker=False)
    assert settings_from_dict(settings_to_dict(s)) == s
    assert settings_from_dict({}) == PUBLISHED
    for bad in [{"first_gold": -1}, {"gold": 3}, {"strike_taps_attacker": 1},
                {"deck_min": 60}, {"max_copies": True}, []]:
        with pytest.raises(ValueError):
            settings_from_dict(bad)


# --- Translations ----------------------------------------------------------------------


# A mutation-testing copy of the engine holds each function's variants next to the
# original (``x_name__mutmut_7``); only the original's messages are the engine's.
_VARIANT = re.compile(r"__mutmut_\d+$")


def _nodes(tree: ast.AST):
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, ast.FunctionDef) and _VARIANT.search(child.name):
            continue
        yield child
        yield from _nodes(child)


def _engine_messages() -> set[str]:
    found = set()
    for path in ENGINE.glob("*.py"):
        for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "N_"):
                assert isinstance(node.args[0], ast.Constant), f"{path}: N_ needs a literal"
                found.add(node.args[0].value)
    return found


def test_B1_to_B14_every_message_has_russian_with_same_placeholders() -> None:
    with PO.open("rb") as f:
        catalog = read_po(f, locale="ru")
    messages = _engine_messages()
    assert len(messages) > 50
    placeholder = re.compile(r"%\((\w+)\)s")
    for msgid in messages:
        entry = catalog.get(msgid)
        assert entry is not None and entry.string, f"no Russian for {msgid!r}"
        assert set(placeholder.findall(entry.string)) == set(placeholder.findall(msgid)), msgid
        assert re.search("[а-яё]", entry.string.lower()), msgid
    assert {m.id for m in catalog if m.id} == messages  # nothing stale in the fragment
