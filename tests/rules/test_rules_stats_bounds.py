"""Each bound of a sheet, at its edge, with the refusal a referee reads (D4, D8, D10, U4)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.rules import RuleError, stats
from referee.rules.stats import ACTIVE, DEAD, HEAVY_WOUND, Sheet

A = Sheet(hp=3, hp_max=3, chance=2, chance_max=2, cartridges=3, level=1)


def refusal(sheet: Sheet) -> tuple[str | None, str]:
    error = sheet.bounds_error()
    assert isinstance(error, RuleError)
    return error.rule, error.text


@pytest.mark.parametrize("changes", [
    {"hp_max": 1, "hp": 1}, {"hp": 0}, {"hp": 3},  # D10: HP 0…max, max at least 1
    {"chance_max": 0, "chance": 0}, {"chance": 0}, {"chance": 2},  # D8: 0…max
    {"cartridges": 0}, {"cartridges": 999},  # D4: at least 0; a passport holds 999
    {"level": 1}, {"level": 10},  # U4: levels run 1–10
    {"status": HEAVY_WOUND, "hp": 0}, {"status": DEAD},
])
def test_D4_D8_D10_U4_a_sheet_at_the_edge_of_each_bound_is_allowed(changes):
    assert replace(A, **changes).bounds_error() is None


@pytest.mark.parametrize(("changes", "rule", "text"), [
    ({"hp_max": 0, "hp": 0}, None, "Max HP must be at least 1."),
    ({"hp": 4}, "D10", "HP must stay between 0 and the maximum 3; it would be 4."),
    ({"hp": -1}, "D10", "HP must stay between 0 and the maximum 3; it would be -1."),
    ({"chance_max": -1, "chance": 0}, None, "Max chance tokens cannot be negative."),
    ({"chance": 3}, "D8",
     "Chance tokens must stay between 0 and the maximum 2; they would be 3."),
    ({"chance": -1}, "D8",
     "Chance tokens must stay between 0 and the maximum 2; they would be -1."),
    ({"cartridges": -1}, "D4", "Cartridges cannot go below 0; they would be -1."),
    ({"cartridges": 1000}, None,
     "A passport holds at most 999 cartridges; they would be 1000. Give fewer."),
    ({"level": 0}, None, "Level must stay between 1 and 10; it would be 0."),
    ({"level": 11}, None, "Level must stay between 1 and 10; it would be 11."),
    ({"status": "resting"}, None, "Unknown status."),
])
def test_D4_D8_D10_U4_a_sheet_past_a_bound_is_refused_with_the_rule_and_numbers(
        changes, rule, text):
    assert refusal(replace(A, **changes)) == (rule, text)


def test_D10_the_hp_bound_is_named_before_the_chance_bound():
    assert refusal(replace(A, hp=9, chance=9))[0] == "D10"


@pytest.mark.parametrize("name", ["hp_max", "chance_max"])
def test_the_maxima_are_stats_a_referee_may_change(name):
    assert getattr(stats.adjust(A, {name: 2}), name) == getattr(A, name) + 2
    assert getattr(stats.set_exact(A, {name: 7}), name) == 7


@pytest.mark.parametrize("change", [stats.adjust, stats.set_exact])
def test_an_unknown_stat_is_refused_by_name_and_nothing_changes(change):
    with pytest.raises(RuleError) as err:
        change(A, {"mana": 1, "hp": 1, "armour": 2})
    assert (err.value.rule, err.value.text) == (None, "Unknown stat: armour, mana.")


@pytest.mark.parametrize("change", [stats.adjust, stats.set_exact])
@pytest.mark.parametrize("bad", [True, "1", 1.5, None])
def test_a_stat_that_is_not_a_whole_number_is_refused_by_name(change, bad):
    with pytest.raises(RuleError) as err:
        change(A, {"cartridges": bad})
    assert (err.value.rule, err.value.text) == (None, "cartridges must be a whole number.")


def test_D10_a_dead_character_refuses_a_change_and_keeps_a_change_of_nothing():
    dead = stats.kill(A)
    with pytest.raises(RuleError) as err:
        stats.adjust(dead, {"cartridges": 1})
    assert err.value.text == ("This character is dead. Undo the death in the history to "
                              "change their stats.")
    assert stats.adjust(dead, {"cartridges": 0}) == dead
    assert stats.set_exact(dead, {"hp": 0, "level": 1}).status == DEAD


def test_D10_only_a_heavy_wound_heals_and_only_the_living_die():
    with pytest.raises(RuleError) as err:
        stats.heal(A)
    assert err.value.text == "Only a heavily wounded character can be healed."
    with pytest.raises(RuleError) as err:
        stats.kill(stats.kill(A))
    assert err.value.text == "This character is already dead."


def test_D10_undoing_a_death_brings_the_character_back_as_they_were():
    dead = replace(A, hp=0, status=DEAD)
    changes = {"hp": {"before": 2, "after": 0}, "status": {"before": ACTIVE, "after": DEAD}}
    assert stats.revert(dead, changes) == replace(A, hp=2, status=ACTIVE)


def test_D10_undoing_an_undone_death_makes_the_character_dead_again():
    alive = replace(A, hp=0, status=HEAVY_WOUND)
    changes = {"status": {"before": DEAD, "after": HEAVY_WOUND}}
    assert stats.revert(alive, changes) == replace(A, hp=0, status=DEAD)


def test_D10_an_undone_wound_leaves_a_character_who_died_since_dead():
    dead = replace(A, hp=0, status=DEAD)
    changes = {"hp": {"before": 1, "after": 0},
               "status": {"before": ACTIVE, "after": HEAVY_WOUND}}
    assert stats.revert(dead, changes).status == DEAD


def test_D10_undoing_a_heal_wounds_again_and_undoing_a_wound_heals():
    healed = replace(A, hp=1)
    assert stats.revert(healed, {"hp": {"before": 0, "after": 1}}).status == HEAVY_WOUND
    wounded = replace(A, hp=0, status=HEAVY_WOUND)
    assert stats.revert(wounded, {"hp": {"before": 1, "after": 0}}) == replace(A, hp=1)


def test_undo_moves_the_maxima_back_and_ignores_what_is_not_a_stat():
    raised = replace(A, hp_max=5, chance_max=4)
    changes = {"hp_max": {"before": 3, "after": 5}, "chance_max": {"before": 2, "after": 4},
               "notes": {"before": "a", "after": "b"}}
    assert stats.revert(raised, changes) == A


def test_a_sheet_gives_its_numbers_and_status_by_name():
    assert A.values() == {"hp": 3, "hp_max": 3, "chance": 2, "chance_max": 2,
                          "cartridges": 3, "level": 1, "status": ACTIVE}
    assert replace(A, **A.values()) == A
