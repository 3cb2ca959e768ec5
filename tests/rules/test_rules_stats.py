"""The sheet's bounds and status rules (D4, D8, D10), pure."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.rules import RuleError, stats
from referee.rules.stats import Sheet

A = Sheet(hp=3, hp_max=3, chance=2, chance_max=2, cartridges=3, level=1)


def test_adjust_applies_every_delta():
    new = stats.adjust(A, {"hp": -1, "cartridges": 2, "level": 1})
    assert (new.hp, new.cartridges, new.level, new.chance) == (2, 5, 2, 2)


@pytest.mark.parametrize(("deltas", "rule"), [
    ({"hp": 1}, "D10"),
    ({"hp": -4}, "D10"),
    ({"chance": 1}, "D8"),
    ({"chance": -3}, "D8"),
    ({"cartridges": -4}, "D4"),
    ({"level": -1}, None),
    ({"level": 10}, None),
])
def test_adjust_out_of_bounds_is_refused(deltas, rule):
    with pytest.raises(RuleError) as err:
        stats.adjust(A, deltas)
    assert err.value.rule == rule


def test_adjust_is_all_or_nothing():
    with pytest.raises(RuleError):
        stats.adjust(A, {"cartridges": 1, "hp": -9})


@pytest.mark.parametrize("bad", [True, "1", 1.5, None])
def test_adjust_needs_whole_numbers(bad):
    with pytest.raises(RuleError, match="whole number"):
        stats.adjust(A, {"hp": bad})


def test_D10_zero_hp_is_a_heavy_wound_and_hp_back_heals():
    wounded = stats.adjust(A, {"hp": -3})
    assert wounded.status == stats.HEAVY_WOUND
    assert stats.adjust(wounded, {"chance": -1}).status == stats.HEAVY_WOUND
    assert stats.adjust(wounded, {"hp": 1}).status == stats.ACTIVE


def test_D10_heal_brings_a_heavy_wound_to_one_hp():
    healed = stats.heal(stats.adjust(A, {"hp": -3}))
    assert (healed.hp, healed.status) == (1, stats.ACTIVE)
    with pytest.raises(RuleError, match="heavily wounded"):
        stats.heal(A)


def test_kill_and_dead_characters_keep_their_stats():
    dead = stats.kill(A)
    assert (dead.hp, dead.status) == (0, stats.DEAD)
    with pytest.raises(RuleError, match="dead"):
        stats.adjust(dead, {"cartridges": 1})
    with pytest.raises(RuleError, match="already dead"):
        stats.kill(dead)


def test_set_exact_sets_values():
    new = stats.set_exact(A, {"hp": 1, "level": 7})
    assert (new.hp, new.level) == (1, 7)
    with pytest.raises(RuleError):
        stats.set_exact(A, {"hp": 4})


def test_revert_moves_counters_back_by_the_delta():
    # Another referee's tap in between survives the undo.
    changes = {"hp": {"before": 3, "after": 2}}
    now = Sheet(hp=2, hp_max=3, chance=0, chance_max=2, cartridges=3, level=1)
    assert stats.revert(now, changes) == Sheet(hp=3, hp_max=3, chance=0, chance_max=2,
                                               cartridges=3, level=1)


def test_revert_refuses_to_leave_bounds():
    changes = {"cartridges": {"before": 0, "after": 1}}
    spent = Sheet(hp=3, hp_max=3, chance=2, chance_max=2, cartridges=0, level=1)
    with pytest.raises(RuleError) as err:
        stats.revert(spent, changes)
    assert err.value.rule == "D4"


sheets = st.builds(
    lambda hp_max, chance_max, hp, chance, cartridges, level: Sheet(
        hp=min(hp, hp_max), hp_max=hp_max, chance=min(chance, chance_max),
        chance_max=chance_max, cartridges=cartridges, level=level,
        status=stats.derive_status(stats.ACTIVE, min(hp, hp_max))),
    st.integers(1, 9), st.integers(0, 9), st.integers(0, 9), st.integers(0, 9),
    st.integers(0, 20), st.integers(1, 10))
deltas = st.dictionaries(st.sampled_from(stats.COUNTERS), st.integers(-12, 12), min_size=1)


@settings(max_examples=300, deadline=None)
@given(sheets, st.lists(deltas, max_size=20))
def test_any_sequence_of_taps_keeps_every_bound(sheet, taps):
    for tap in taps:
        try:
            sheet = stats.adjust(sheet, tap)
        except RuleError:
            continue
        assert sheet.bounds_error() is None
        assert (sheet.status == stats.HEAVY_WOUND) == (sheet.hp == 0)


@settings(max_examples=300, deadline=None)
@given(sheets, deltas)
def test_undo_of_a_tap_restores_the_sheet(sheet, tap):
    try:
        after = stats.adjust(sheet, tap)
    except RuleError:
        return
    changes = {k: {"before": getattr(sheet, k), "after": getattr(after, k)}
               for k in ("hp", "chance", "cartridges", "level", "status")
               if getattr(sheet, k) != getattr(after, k)}
    assert stats.revert(after, changes) == sheet
