"""A change made on another station, replayed on this sheet when stations merge (D4, D8, D10).

Taps and undos are deltas, typed values are values, a death and a heal are their rule
again; a bound broken is refused with its rule, unless the referee applies it anyway
(``force``), which clamps to the bounds.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.rules import RuleError, stats
from referee.rules.stats import ACTIVE, DEAD, HEAVY_WOUND, Sheet

A = Sheet(hp=3, hp_max=5, chance=1, chance_max=2, cartridges=4, level=3)


def change(**pairs: tuple[object, object]) -> dict[str, dict[str, object]]:
    return {name: {"before": before, "after": after} for name, (before, after) in pairs.items()}


def refused(sheet: Sheet, changes: dict, kind: str) -> RuleError:
    with pytest.raises(RuleError) as err:
        stats.rebase(sheet, changes, kind)
    return err.value


def test_D4_D8_D10_taps_made_apart_add_up():
    tapped = change(hp=(5, 4), chance=(2, 1), cartridges=(1, 3), level=(1, 2),
                    hp_max=(5, 6), chance_max=(2, 4))
    assert stats.rebase(A, tapped, "adjust") == Sheet(
        hp=2, hp_max=6, chance=0, chance_max=4, cartridges=6, level=4)


def test_a_typed_value_is_that_value_again_and_other_fields_are_left_alone():
    typed = {**change(hp=(5, 1), level=(1, 7)), "notes": {"before": "", "after": "x"}}
    assert stats.rebase(A, typed, "set") == replace(A, hp=1, level=7)
    assert stats.rebase(A, {"notes": {"before": "", "after": "x"}}, "adjust") == A


def test_D10_numbers_may_arrive_as_text():
    assert stats.rebase(A, change(hp=("5", "4")), "adjust").hp == 2


def test_D10_a_merged_tap_to_zero_hp_is_a_heavy_wound():
    wounded = stats.rebase(A, change(hp=(3, 0)), "adjust")
    assert (wounded.hp, wounded.status) == (0, HEAVY_WOUND)


@pytest.mark.parametrize(("pairs", "rule", "text"), [
    ({"hp": (0, 3)}, "D10", "HP must stay between 0 and the maximum 5; it would be 6."),
    ({"chance": (0, 2)}, "D8",
     "Chance tokens must stay between 0 and the maximum 2; they would be 3."),
    ({"cartridges": (5, 0)}, "D4", "Cartridges cannot go below 0; they would be -1."),
    ({"level": (3, 11)}, None, "Level must stay between 1 and 10; it would be 11."),
])
def test_D4_D8_D10_a_merged_change_past_a_bound_is_refused_with_its_rule(pairs, rule, text):
    error = refused(A, change(**pairs), "adjust")
    assert (error.rule, error.text) == (rule, text)


@pytest.mark.parametrize(("pairs", "clamped"), [
    ({"hp": (0, 3)}, {"hp": 5}),
    ({"hp": (5, 0)}, {"hp": 0, "status": HEAVY_WOUND}),
    ({"chance": (0, 5)}, {"chance": 2}),
    ({"chance": (2, 0)}, {"chance": 0}),
    ({"cartridges": (9, 0)}, {"cartridges": 0}),
    ({"cartridges": (0, 999)}, {"cartridges": 999}),
    ({"level": (1, 10)}, {"level": 10}),
    ({"level": (9, 1)}, {"level": 1}),
    ({"hp_max": (9, 1)}, {"hp_max": 1, "hp": 1}),  # HP follows its lower maximum
    ({"chance_max": (3, 0)}, {"chance_max": 0, "chance": 0}),
])
def test_D4_D8_D10_applied_anyway_a_change_is_clamped_to_the_bounds(pairs, clamped):
    assert stats.rebase(A, change(**pairs), "adjust", force=True) == replace(A, **clamped)


def test_D10_applied_anyway_a_typed_value_is_clamped_too():
    typed = change(hp=(0, 9), level=(1, 0))
    assert stats.rebase(A, typed, "set", force=True) == replace(A, hp=5, level=1)


def test_D10_applied_anyway_a_sheet_already_out_of_bounds_is_brought_back():
    broken = replace(A, hp=7, cartridges=1200)
    assert stats.rebase(broken, change(level=(3, 4)), "adjust", force=True) == replace(
        A, hp=5, cartridges=999, level=4)


def test_D10_a_death_is_the_death_rule_again():
    assert stats.rebase(A, change(hp=(3, 0)), "death") == replace(A, hp=0, status=DEAD)
    dead = stats.kill(A)
    assert refused(dead, {}, "death").text == "This character is already dead."
    assert stats.rebase(dead, {}, "death", force=True) is dead


def test_D10_a_heal_is_the_heal_rule_again():
    wounded = replace(A, hp=0, status=HEAVY_WOUND)
    assert stats.rebase(wounded, change(hp=(0, 1)), "heal") == replace(A, hp=1)
    assert stats.rebase(wounded, {}, "heal", force=True) == replace(A, hp=1)
    error = refused(A, change(hp=(0, 1)), "heal")
    assert error.text == "Only a heavily wounded character can be healed."


def test_D10_a_heal_applied_anyway_to_a_character_not_wounded_adds_its_hp():
    assert stats.rebase(A, change(hp=(0, 1)), "heal", force=True) == replace(A, hp=4)


def test_D10_a_merged_change_to_a_dead_character_is_refused_or_left_out():
    dead = replace(A, hp=0, status=DEAD)
    error = refused(dead, change(cartridges=(4, 3)), "adjust")
    assert error.text.startswith("This character is dead.")
    assert stats.rebase(dead, change(cartridges=(4, 3)), "adjust", force=True) is dead


def test_D10_an_undone_death_merged_brings_the_character_back():
    dead = replace(A, hp=0, status=DEAD)
    undone = {**change(hp=(0, 2)), "status": {"before": DEAD, "after": ACTIVE}}
    assert stats.rebase(dead, undone, "undo") == replace(A, hp=2)
    to_wound = {"status": {"before": DEAD, "after": HEAVY_WOUND}}
    assert stats.rebase(dead, to_wound, "undo") == replace(A, hp=0, status=HEAVY_WOUND)


def test_D10_an_undone_death_merged_on_a_living_character_is_refused_unless_forced():
    undone = {**change(hp=(0, 2)), "status": {"before": DEAD, "after": ACTIVE}}
    error = refused(A, undone, "undo")
    assert (error.rule, error.text) == (None, "This character is no longer dead; the death "
                                              "was already undone or healed elsewhere.")
    assert stats.rebase(A, undone, "undo", force=True) == replace(A, hp=5)


def test_D10_a_death_undone_and_redone_elsewhere_is_not_an_undone_death():
    redo = {"status": {"before": DEAD, "after": DEAD}}
    assert stats.rebase(A, redo, "undo") == A
    wound = {"status": {"before": ACTIVE, "after": DEAD}}
    assert stats.rebase(A, {**wound, **change(level=(3, 4))}, "undo") == replace(A, level=4)
