"""Berserk-style strikes and battle actions the rules refuse (B5, B7, B10, B11): the rule id
and the exact sentence the referee reads, at the edges of each limit."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from referee.games.berserk.rules import (
    AddLives,
    Battle,
    Card,
    EndEffects,
    FormatError,
    Level,
    Modify,
    Overwrite,
    Settings,
    SimpleStrike,
    Strike,
    Tap,
    Untap,
    Wound,
    apply,
    card_from_dict,
    creature,
    options,
    resolve,
    start,
    winner,
    wounds,
)
from referee.games.berserk.rules.battle import _OnCreature
from referee.games.berserk.rules.strike import chooser
from referee.rules import RuleError

ATT, TGT = SimpleStrike(2, 3, 4), SimpleStrike(1, 2, 3)


def card(code: str = "C", **fields: object) -> Card:
    d: dict[str, object] = {"code": code, "name_en": code, "name_ru": code, "cost": 3,
                            "lives": 9, "movement": 2, "strike": [1, 2, 3]}
    d.update(fields)
    return card_from_dict(d)


ART = card_from_dict({"code": "ART", "name_en": "Idol", "name_ru": "Идол",
                      "kind": "artifact", "cost": 2, "lives": 2})


def battle() -> Battle:
    return start([card("A"), ART], [card("B"), card("B2", lives=1)], check=False)


def said(state: Battle, action: object) -> tuple[str, str]:
    with pytest.raises(RuleError) as e:
        apply(state, action)
    return e.value.rule, e.value.text


def resolved(**kw: object) -> tuple[str, str]:
    args = {"attacker_die": 3, "defender_die": 3, "target_open": True,
            "attacker_strike": ATT, "target_strike": TGT} | kw
    with pytest.raises(RuleError) as e:
        resolve(**args)  # type: ignore[arg-type]
    return e.value.rule, e.value.text


# --- B11: dice, modifiers and the exchange --------------------------------------------------


@pytest.mark.parametrize(("die", "shown"), [(0, "0"), (7, "7"), ("5", "5"), (True, "True"),
                                            ("6" * 30, "6" * 20)])
def test_B11_the_attacker_s_die_is_1_to_6(die: object, shown: str) -> None:
    assert resolved(attacker_die=die) == (
        "B11", f"The attacker's die must be a number from 1 to 6, not {shown}; put bonuses "
               "into the die modifier.")


@pytest.mark.parametrize(("die", "shown"), [(0, "0"), (7, "7"), (2.5, "2.5"), (False, "False")])
def test_B11_the_defender_s_die_is_1_to_6_or_empty(die: object, shown: str) -> None:
    assert resolved(defender_die=die) == (
        "B11", f"The defender's die must be a number from 1 to 6, not {shown}, or empty when "
               "the target does not roll.")


@pytest.mark.parametrize("key", ["attacker_die_mod", "defender_die_mod", "strike_mod",
                                 "answer_mod"])
def test_B11_modifiers_are_whole_numbers_from_minus_20_to_20(key: str) -> None:
    for bad, shown in [(21, "21"), (-21, "-21"), (True, "True"), ("1", "1")]:
        assert resolved(**{key: bad}) == (
            "B11", f"A die or wound modifier must be a whole number from -20 to 20, not "
                   f"{shown}.")
    for good in (20, -20):
        resolve(3, 3, True, ATT, TGT, **{key: good})


def test_B11_a_tapped_target_does_not_roll_and_an_artifact_does_not_answer() -> None:
    assert resolved(target_open=False) == (
        "B11", "A tapped target does not roll; leave the defender's die empty.")
    assert resolved(target_strike=None) == (
        "B5", "An artifact has no strike and cannot answer; leave the defender's die empty.")


def test_B11_lowering_is_a_yes_or_no_and_only_where_both_strike() -> None:
    assert resolved(lower="yes") == (
        "B11", "The exchange choice is either to lower both strikes or not; choose one.")
    assert resolved(attacker_die=4, defender_die=1, lower=True) == (  # Δ +3: no answer
        "B11", "Strikes can be lowered only where both sides strike; settle this strike "
               "without lowering.")
    assert len(options(4, 1, True, ATT, TGT)) == 1
    assert Level.NONE.lowered() is Level.NONE and Level.WEAK.lowered() is Level.NONE


def test_B11_equal_strikes_leave_no_one_the_stronger_side() -> None:
    assert chooser(Level.WEAK, Level.WEAK) is None
    assert chooser(Level.MEDIUM, Level.WEAK) == "attacker"
    assert chooser(Level.WEAK, Level.MEDIUM) == "target"
    assert chooser(Level.NONE, Level.MEDIUM) is None and chooser(Level.WEAK, Level.NONE) is None


# --- B5, B7, B10, B11: battle actions -----------------------------------------------------


def test_B7_an_unknown_creature_is_named_with_the_ids_to_pick() -> None:
    assert said(battle(), Tap("x9")) == (
        "B7", "There is no creature x9 in this battle; pick one of a1, a2, b1, b2.")
    with pytest.raises(RuleError) as e:
        creature(battle(), "z" * 30)
    assert e.value.params["creature"] == "z" * 20


def test_B5_B10_B11_who_may_strike_whom() -> None:
    s = battle()
    assert said(s, Strike("a2", "b1", 3)) == (
        "B5", "a2 is an artifact and cannot strike; choose a creature as the attacker.")
    assert said(s, Strike("a1", "a2", 3)) == (
        "B11", "a1 cannot strike a card of its own side; choose one of b1, b2.")
    tapped = apply(s, Tap("a1"))
    assert said(tapped, Strike("a1", "b1", 3)) == (
        "B11", "a1 is tapped and cannot strike; untap it first or choose an open creature.")
    dead = apply(s, Wound("b2", 1))
    assert said(dead, Strike("a1", "b2", 3)) == ("B10", "b2 is dead; choose a living creature.")
    assert said(dead, Strike("b2", "a1", 3)) == ("B10", "b2 is dead; choose a living creature.")
    alone = start([card("A"), card("A2")], [card("B", lives=1)], check=False)
    alone = apply(alone, Wound("b1", 1))
    assert said(alone, Strike("a1", "a2", 3)) == (
        "B11", "a1 cannot strike a card of its own side; choose one of -.")


def test_B10_wounds_are_1_to_99() -> None:
    s = battle()
    assert creature(apply(s, Wound("a1", 99)), "a1").dead
    for bad, shown in [(0, "0"), (100, "100"), ("2", "2"), (True, "True")]:
        assert said(s, Wound("a1", bad)) == (
            "B10", f"Wounds must be a whole number from 1 to 99, not {shown}.")


def test_B11_tap_an_open_creature_untap_a_tapped_one() -> None:
    s = battle()
    assert said(s, Untap("a1")) == ("B11", "a1 is already open; tap it or choose another "
                                           "creature.")
    s = apply(s, Tap("a1"))
    assert said(s, Tap("a1")) == ("B11", "a1 is already tapped; untap it or choose another "
                                         "creature.")
    assert not creature(apply(s, Untap("a1")), "a1").tapped


def test_B7_ending_effects_names_the_sources_there_are() -> None:
    s = battle()
    assert said(s, EndEffects("b1", "a1")) == (
        "B7", "b1 has no effects with a named source to end.")
    s = apply(s, Modify("b1", AddLives(1, source="spell")))
    s = apply(s, Modify("b1", AddLives(1, source="a1")))
    s = apply(s, Modify("b1", AddLives(1)))
    assert said(s, EndEffects("b1", "a2")) == (
        "B7", "b1 has no effects from a2; pick one of a1, spell.")
    assert said(s, EndEffects("b1", "")) == ("B7", "b1 has no effects from ; pick one of a1, "
                                                   "spell.")
    assert said(s, EndEffects("b1", ["a1"]))[0] == "B7"
    after = apply(s, EndEffects("b1", "spell"))
    assert [m.source for m in creature(after, "b1").mods] == ["a1", ""]


def test_B7_only_actions_are_applied() -> None:
    assert said(battle(), AddLives(1)) == (
        "B7", "Unknown action; enter a modification, an end of effects, a strike, wounds, "
              "a tap or an untap.")


def test_B12_a_battle_starts_with_settings_and_cards_only() -> None:
    with pytest.raises(FormatError, match=r"^settings must be a Settings$"):
        start([card()], [card()], {"first_gold": 30})  # type: ignore[arg-type]
    with pytest.raises(FormatError, match=r"^squad b must hold cards only$"):
        start([card()], [card(), "B"], check=False)  # type: ignore[list-item]


def test_B10_the_side_left_alive_wins_and_none_left_is_a_draw() -> None:
    s = start([card("A", lives=1)], [card("B", lives=1)], check=False)
    assert winner(s) is None
    assert winner(apply(s, Wound("b1", 1))) == "a"
    assert winner(apply(s, Wound("a1", 1))) == "b"
    both = apply(s, Strike("a1", "b1", 5, 1))  # +4: both strike, both fall
    assert winner(both) == "draw"


def test_B11_long_values_are_cut_to_20_characters_in_a_refusal() -> None:
    assert resolved(defender_die="5" * 30)[1].startswith(
        f"The defender's die must be a number from 1 to 6, not {'5' * 20}, or empty")
    assert resolved(strike_mod="1" * 30)[1] == (
        f"A die or wound modifier must be a whole number from -20 to 20, not {'1' * 20}.")


def test_B11_options_ignore_a_lower_choice_and_offer_both() -> None:
    plain, lowered = options(5, 1, True, ATT, TGT, lower=True)  # Δ +4: an exchange
    assert (plain.lowered, plain.wounds_to_target, plain.wounds_to_attacker) == (False, 4, 1)
    assert (lowered.lowered, lowered.wounds_to_target, lowered.wounds_to_attacker) == (
        True, 3, 0)


def test_B11_wounds_are_the_strike_value_without_a_modifier() -> None:
    assert [wounds(ATT, level) for level in Level] == [0, 2, 3, 4]


def test_B11_a_strike_in_play_adds_every_modifier_under_the_event_s_settings() -> None:
    s = start([card("A", strike=[2, 3, 4])], [card("B")], Settings(tie_answer_from=7),
              check=False)
    # A 3+2 = 5, D 3+2 = 5: a tie below 7 is a weak strike (2+1), no answer.
    s = apply(s, Strike("a1", "b1", 3, 3, attacker_die_mod=2, defender_die_mod=2,
                        strike_mod=1, answer_mod=2))
    assert (creature(s, "b1").wounds, creature(s, "a1").wounds) == (3, 0)
    # A 1, D 4: Δ -3, no strike and a weak answer (1+2).
    s = apply(apply(s, Untap("a1")), Strike("a1", "b1", 1, 4, answer_mod=2))
    assert (creature(s, "b1").wounds, creature(s, "a1").wounds) == (3, 3)


@dataclass(frozen=True)
class Heal(_OnCreature):
    """A kind of action these rules do not know."""


def test_B7_an_unknown_kind_of_action_on_a_creature_is_refused() -> None:
    assert said(battle(), Heal("a1")) == (
        "B7", "Unknown action; enter a modification, an end of effects, a strike, wounds, "
              "a tap or an untap.")


def test_B6_B7_B10_long_values_are_cut_to_20_characters() -> None:
    s = apply(battle(), Modify("b1", AddLives(1, source="a1")))
    assert said(s, EndEffects("b1", "z" * 30)) == (
        "B7", f"b1 has no effects from {'z' * 20}; pick one of a1.")
    assert said(s, Wound("b1", "7" * 30)) == (
        "B10", f"Wounds must be a whole number from 1 to 99, not {'7' * 20}.")
    assert said(s, Modify("b1", Overwrite(lives="8" * 30))) == (  # type: ignore[arg-type]
        "B6", f"An overwritten number must be a whole number from 0 to 99, not {'8' * 20}.")
