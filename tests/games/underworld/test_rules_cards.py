"""Underworld cards (U1–U3), the quick fight (U7–U8), JSON forms and the Russian messages."""

from __future__ import annotations

import ast
import contextlib
import json
import re
from dataclasses import fields
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.underworld.rules import (
    ACTIONS,
    CardError,
    Draw,
    Fight,
    Monster,
    PlayCard,
    action_from_dict,
    action_to_dict,
    apply,
    card_from_dict,
    card_to_dict,
    castle_deck_problems,
    class_deck_problems,
    quick_fight,
    state_to_dict,
    validate_castle_deck,
    validate_class_deck,
)
from referee.rules import RuleError
from tests.games.underworld.test_rules_decks import (
    CLASSES,
    MONSTERS,
    PLAGUE,
    RIOT,
    SLEEP,
    SUMMONING,
    SWORD,
    full_castle,
    game,
)

ROOT = Path(__file__).resolve().parents[3]
ENGINE = ROOT / "referee" / "games" / "underworld" / "rules"
PO = ROOT / "referee" / "translations" / "ru" / "LC_MESSAGES" / "underworld.po"


# --- U2: deck composition --------------------------------------------------------------

def test_U2_the_full_deck_is_legal_and_with_13_classes_makes_100():
    deck = full_castle()
    assert castle_deck_problems(deck) == () and class_deck_problems(CLASSES) == ()
    assert len(deck) + len(CLASSES) == 100
    validate_castle_deck(deck)
    validate_class_deck(CLASSES)


@pytest.mark.parametrize(("change", "needle"), [
    (lambda d: d + [MONSTERS[2]], "monsters: 35, must be exactly 34"),
    (lambda d: [c for c in d if c.kind != "item"] + [SWORD] * 29, "items: 29, at most 28"),
    (lambda d: [c for c in d if c.kind != "skill"] + [SLEEP] * 6, "skills: 6, must be 7 to 10"),
    (lambda d: d + [SUMMONING], "skills: 11, must be 7 to 10"),
    (lambda d: [c for c in d if c.kind != "event"] + [RIOT] * 12, "events: 12, must be 13 to"),
    (lambda d: d + [PLAGUE], "events: 16, must be 13 to 15"),
])
def test_U2_each_limit_is_named(change, needle):
    problems = castle_deck_problems(change(full_castle()))
    assert any(p.text.startswith(needle) for p in problems), [p.text for p in problems]
    assert all(p.rule in ("U1", "U2") for p in problems)


def test_U2_at_most_87_cards_and_every_problem_is_listed():
    too_many = full_castle() + [MONSTERS[1]]
    texts = [p.text for p in castle_deck_problems(too_many)]
    assert texts == ["monsters: 35, must be exactly 34; add or remove monster cards.",
                     "cards in all: 88, at most 87; remove cards."]
    with pytest.raises(RuleError) as caught:
        validate_castle_deck(too_many)
    assert caught.value.rule == "U2"


def test_U2_class_deck_holds_13_class_cards():
    assert [p.text for p in class_deck_problems(CLASSES[:12])] == [
        "class cards: 12, must be exactly 13; add or remove class cards."]
    problems = class_deck_problems(CLASSES[:12] + [MONSTERS[3]])
    assert [p.rule for p in problems] == ["U1"] and "M03" in problems[0].text


def test_U3_one_code_means_one_card():
    clash = full_castle()
    clash[-1] = Monster("E02", "Plague?", "Чума?", 3)
    assert "U3" in [p.rule for p in castle_deck_problems(clash)]


# --- U3: card data ---------------------------------------------------------------------

@pytest.mark.parametrize("card", [MONSTERS[7], SWORD, SLEEP, SUMMONING, RIOT, PLAGUE,
                                  *CLASSES])
def test_U3_every_card_round_trips_through_its_table(card):
    d = card_to_dict(card)
    assert card_from_dict(json.loads(json.dumps(d))) == card


@pytest.mark.parametrize(("table", "needle"), [
    ({"code": "M07", "kind": "monster", "name_en": "Orc", "name_ru": "Орк"}, "strength"),
    ({"code": "M07", "kind": "monster", "name_en": "Orc", "name_ru": "Орк", "strength": "7"},
     "strength"),
    ({"code": "M07", "kind": "monster", "name_en": "Orc", "name_ru": "", "strength": 7},
     "name_ru"),
    ({"code": "M07", "kind": "monster", "name_en": "Orc", "name_ru": "Орк", "strength": 7,
      "strenght": 8}, "strenght"),
    ({"code": "I01", "kind": "item", "name_en": "Sword", "name_ru": "Меч", "bonus": 2},
     "item_type"),
    ({"code": "I01", "kind": "item", "name_en": "S", "name_ru": "М", "bonus": 2,
      "item_type": "Big Sword"}, "Big Sword"),
    ({"code": "S01", "kind": "skill", "name_en": "S", "name_ru": "У", "bonus": 1,
      "duration": "forever"}, "forever"),
    ({"code": "S01", "kind": "skill", "name_en": "S", "name_ru": "У", "bonus": 1,
      "magic": "yes"}, "magic"),
    ({"code": "S01", "kind": "spell", "name_en": "S", "name_ru": "У"}, "spell"),
    ({"code": "", "kind": "skill"}, "code"),
    ({"code": "C01", "kind": "class", "name_en": "W", "name_ru": "В", "ability_cost": 9},
     "ability_cost"),
    ("not a table", "table"),
])
def test_U3_card_from_dict_names_the_wrong_field(table, needle):
    with pytest.raises(CardError) as caught:
        card_from_dict(table)
    assert caught.value.rule == "U3" and needle in caught.value.text
    assert isinstance(caught.value, ValueError)


def test_U3_defaults_lasting_non_magic():
    card = card_from_dict({"code": "I09", "kind": "item", "name_en": "Helmet",
                           "name_ru": "Шлем", "item_type": "helmet", "bonus": 1})
    assert (card.duration, card.magic, card.kind) == ("lasting", False, "item")


# --- U7, U8: quick fight ---------------------------------------------------------------

@pytest.mark.parametrize(("level", "bonuses", "strength", "after", "outcome"), [
    (3, [2, 1], 5, 4, "win"),  # example 1
    (1, 0, 7, 1, "loss"),  # example 2
    (4, [1], 5, 4, "draw"),  # example 3
    (10, [3], 2, 10, "win"),
    (6, [], 9, 5, "loss"),
])
def test_U7_U8_quick_fight(level, bonuses, strength, after, outcome):
    q = quick_fight(level, bonuses, strength)
    assert (q.level, q.outcome, q.level_before) == (after, outcome, level)
    assert q.player_score == level + (sum(bonuses) if isinstance(bonuses, list) else bonuses)


@pytest.mark.parametrize(("level", "bonuses", "strength"), [
    (0, 1, 1), (11, 1, 1), (True, 1, 1), (3, "2", 1), (3, [1, "x"], 1), (3, 1, None)])
def test_U7_U8_quick_fight_refuses_bad_numbers(level, bonuses, strength):
    with pytest.raises(RuleError) as caught:
        quick_fight(level, bonuses, strength)
    assert caught.value.rule in ("U7", "U8")


@given(st.integers(1, 10), st.lists(st.integers(-5, 10), max_size=6), st.integers(0, 40))
@settings(max_examples=60, deadline=None)
def test_U8_quick_fight_keeps_levels_within_1_to_10(level, bonuses, strength):
    q = quick_fight(level, bonuses, strength)
    assert 1 <= q.level <= 10 and abs(q.level - level) <= 1


# --- JSON forms ------------------------------------------------------------------------

codes = st.sampled_from(["M01", "I01", "S03", "E01", "C01", "A", "B", ""])
actions = st.one_of(*[
    st.builds(cls, **{f: (st.tuples(codes, codes) if f in ("discards", "codes", "gives",
                                                              "takes")
                          else st.integers(-3, 3) if f in ("amount", "delta")
                          else st.booleans() if f in ("accept", "in_play") else codes)
                      for f in (x.name for x in fields(cls))})
    for cls in ACTIONS.values()])


@given(actions)
@settings(max_examples=80, deadline=None)
def test_U5_actions_round_trip_through_json(action):
    d = action_to_dict(action)
    assert action_from_dict(json.loads(json.dumps(d))) == action


@given(actions)
@settings(max_examples=80, deadline=None)
def test_U5_apply_is_total_any_action_either_applies_or_raises_rule_error(action):
    s = game()
    for state in (s, apply(s, Draw("M04")), apply(s, Draw("E01"))):
        with contextlib.suppress(RuleError):
            apply(state, action)


@pytest.mark.parametrize("bad", [
    None, [], {"kind": "dance"}, {"kind": "draw"}, {"kind": "draw", "code": 7},
    {"kind": "draw", "code": "M01", "extra": 1}, {"kind": "discard", "codes": "M01"},
    {"kind": "answer_help", "helper": "B", "accept": "yes"},
    {"kind": "adjust_monster", "amount": 1.5}, {"kind": "discard", "codes": [1]},
])
def test_U5_malformed_actions_raise_rule_error(bad):
    with pytest.raises(RuleError):
        action_from_dict(bad)


def test_U5_apply_refuses_wrong_types_and_non_actions():
    s = game()
    for bad in (Draw(7), PlayCard("A", None), "draw", None):
        with pytest.raises(RuleError):
            apply(s, bad)
    with pytest.raises(RuleError):
        apply("not a state", Draw("M01"))


def test_U7_state_to_dict_is_json_with_the_breakdown():
    s = apply(game({"A": ["I01", "M01", "M01", "M01"]}), PlayCard("A", "I01"))
    d = json.loads(json.dumps(state_to_dict(apply(s, Draw("M02")))))
    assert d["phase"] == "fight" and d["active"] == "A" and d["breakdown"]["outcome"] == "win"
    assert d["breakdown"]["fighter"]["total"] == 3 and d["encounter"]["monster"] == "M02"
    assert d["players"][0]["play_area"] == ["I01"] and len(d["class_deck"]) == 13
    done = json.loads(json.dumps(state_to_dict(apply(apply(s, Draw("M02")), Fight()))))
    assert done["breakdown"] is None and done["players"][0]["level"] == 2


# --- Russian messages ------------------------------------------------------------------

def _messages() -> set[str]:
    found = set()
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # under mutation testing a module also holds mutated copies (x_f__mutmut_3)
        copies = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                  and re.search(r"__mutmut_\d+$", f.name) for n in ast.walk(f)}
        for node in ast.walk(tree):
            if (id(node) not in copies and isinstance(node, ast.Call)
                    and getattr(node.func, "id", "") == "N_"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_U1_to_U17_every_message_has_russian_with_the_same_placeholders():
    with PO.open("rb") as f:
        catalog = read_po(f)
    messages = _messages()
    assert len(messages) > 60
    for msgid in messages:
        entry = catalog.get(msgid)
        assert entry is not None and entry.string, msgid
        assert (sorted(re.findall(r"%\(\w+\)s", msgid))
                == sorted(re.findall(r"%\(\w+\)s", entry.string))), msgid
    assert {m.id for m in catalog if m.id} == messages  # no stale entries
